model Pendulum "Pendulum in Cartesian coordinates: an index-3 DAE"
  parameter Real L(unit = "m") = 1 "Rod length";
  parameter Real m(unit = "kg") = 1 "Bob mass";
  parameter Real g(unit = "m/s2") = 9.81 "Gravity";
  Real x(start = 1, fixed = true) "Horizontal position";
  Real y(start = 0) "Vertical position";
  Real vx(start = 0, fixed = true) "Horizontal velocity";
  Real vy(start = 0) "Vertical velocity";
  Real lambda "Rod force per length";
equation
  der(x) = vx;
  der(y) = vy;
  m*der(vx) = -lambda*x;
  m*der(vy) = -lambda*y - m*g;
  x^2 + y^2 = L^2;
  annotation(experiment(StopTime = 5));
end Pendulum;
