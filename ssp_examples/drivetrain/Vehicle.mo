model Vehicle "Longitudinal vehicle dynamics: mass, wheels, rolling resistance, aerodynamic drag"
  parameter Real m(unit = "kg") = 1200 "Vehicle mass";
  parameter Real r(unit = "m") = 0.3 "Wheel radius";
  parameter Real J_w(unit = "kg.m2") = 2 "Inertia of the driven wheels";
  parameter Real c_r = 0.012 "Rolling resistance coefficient";
  parameter Real c_dA(unit = "m2") = 0.65 "Drag coefficient times frontal area";
  parameter Real rho(unit = "kg/m3") = 1.2 "Air density";
  parameter Real g(unit = "m/s2") = 9.81;
  parameter Real v_roll(unit = "m/s") = 0.01 "Speed over which rolling resistance builds up";
  input Real T_s(unit = "N.m") "Drive shaft torque at the wheels";
  output Real w_w(unit = "rad/s", start = 0, fixed = true) "Wheel speed";
  output Real v(unit = "m/s") "Vehicle speed";
  output Real x(unit = "m", start = 0, fixed = true) "Distance travelled";
  Real F_res(unit = "N") "Driving resistance";
equation
  v = r*w_w;
  der(x) = v;
  F_res = c_r*m*g*tanh(v/v_roll) + 0.5*rho*c_dA*v*abs(v);
  (J_w + m*r^2)*der(w_w) = T_s - r*F_res;
end Vehicle;
