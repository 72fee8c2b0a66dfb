model Wheel "Quarter-car wheel (unsprung mass) on the tire spring, pushed by the suspension"
  parameter Real m_u(unit = "kg") = 35 "Unsprung mass";
  parameter Real k_t(unit = "N/m") = 160000 "Tire stiffness";
  parameter Real d_t(unit = "N.s/m") = 0 "Tire damping";
  input Real f_s(unit = "N") "Suspension force on the wheel (upwards)";
  input Real z_r(unit = "m") "Road height under the tire";
  input Real v_r(unit = "m/s") "Rate of change of the road height";
  output Real z_u(unit = "m", start = 0, fixed = true) "Wheel position";
  output Real v_u(unit = "m/s", start = 0, fixed = true) "Wheel velocity";
  output Real f_t(unit = "N") "Tire force on the wheel (upwards)";
equation
  f_t = k_t*(z_r - z_u) + d_t*(v_r - v_u);
  der(z_u) = v_u;
  m_u*der(v_u) = f_s + f_t;
end Wheel;
