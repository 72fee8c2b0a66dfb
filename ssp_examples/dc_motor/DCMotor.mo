model DCMotor "Permanent-magnet DC motor driving an inertia, with a load torque step"
  parameter Real R(unit = "Ohm") = 1 "Armature resistance";
  parameter Real L(unit = "H") = 5e-3 "Armature inductance";
  parameter Real k(unit = "N.m/A") = 0.1 "Torque (and back-EMF) constant";
  parameter Real J(unit = "kg.m2") = 1e-3 "Rotor and load inertia";
  parameter Real b(unit = "N.m.s/rad") = 1e-4 "Viscous friction";
  parameter Real T_load(unit = "N.m") = 0.3 "Load torque after t_load";
  parameter Real t_load(unit = "s") = 1 "Time the load torque is applied";
  input Real u(unit = "V") "Armature voltage";
  output Real w(unit = "rad/s", start = 0, fixed = true) "Shaft speed";
  output Real i(unit = "A", start = 0, fixed = true) "Armature current";
  output Real tau(unit = "N.m") "Motor torque";
  Real T_l(unit = "N.m") "Load torque";
equation
  T_l = if time >= t_load then T_load else 0;
  tau = k*i;
  L*der(i) = u - R*i - k*w;
  J*der(w) = tau - b*w - T_l;
end DCMotor;
