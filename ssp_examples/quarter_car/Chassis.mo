model Chassis "Quarter-car chassis (sprung mass) on the suspension spring and damper"
  parameter Real m_s(unit = "kg") = 250 "Sprung mass";
  parameter Real k_s(unit = "N/m") = 16000 "Suspension stiffness";
  parameter Real d_s(unit = "N.s/m") = 1000 "Suspension damping";
  input Real z_u(unit = "m") "Wheel position";
  input Real v_u(unit = "m/s") "Wheel velocity";
  output Real z_s(unit = "m", start = 0, fixed = true) "Chassis position";
  output Real v_s(unit = "m/s", start = 0, fixed = true) "Chassis velocity";
  output Real a_s(unit = "m/s2") "Chassis acceleration";
  output Real f_s(unit = "N") "Suspension force on the wheel (upwards)";
equation
  f_s = k_s*(z_s - z_u) + d_s*(v_s - v_u);
  der(z_s) = v_s;
  der(v_s) = a_s;
  m_s*a_s = -f_s;
end Chassis;
