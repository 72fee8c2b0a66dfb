model Pendulum "A pendulum in Cartesian coordinates (index 3), released at 10 degrees"
  parameter Real L(unit = "m") = 1.0 "Rod length";
  parameter Real m(unit = "kg") = 0.5 "Bob mass";
  parameter Real g(unit = "m/s2") = 9.81 "Gravity";
  parameter Real theta0(unit = "rad") = 10*3.14159265358979/180 "Initial angle";
  Real x(start = L*sin(theta0), fixed = true) "Horizontal position";
  Real y(start = -L*cos(theta0)) "Vertical position (up is positive)";
  Real vx(start = 0, fixed = true) "Horizontal velocity";
  Real vy(start = 0) "Vertical velocity";
  Real lambda "Rod force per length";
equation
  der(x) = vx;
  der(y) = vy;
  m*der(vx) = -lambda*x;
  m*der(vy) = -lambda*y - m*g;
  x^2 + y^2 = L^2;
  annotation(experiment(StopTime = 10, Tolerance = 1e-9));
end Pendulum;
