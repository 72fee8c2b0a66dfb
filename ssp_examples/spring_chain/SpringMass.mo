model SpringMass "One link of a chain: a mass, a spring to the left neighbour, a spring to its own right port"
  parameter Real m(unit = "kg") = 1 "Mass";
  parameter Real k_left(unit = "N/m") = 100 "Spring from the left neighbour's port to the mass";
  parameter Real k_right(unit = "N/m") = 400 "Spring from the mass to the right port";
  parameter Real d(unit = "N.s/m") = 0.2 "Damping of the mass against the ground";
  parameter Real x0(unit = "m") = 0 "Initial displacement of the mass";
  input Real p_left(unit = "m") "Position of the left neighbour's right port (0: a wall)";
  input Real f_right(unit = "N") "Force pulling the right port to the right (0: a free end)";
  output Real f_left(unit = "N") "Force the left spring pulls the left neighbour's port with";
  output Real p_right(unit = "m") "Position of the right port (massless: the right spring balances f_right)";
  output Real x(unit = "m", start = x0, fixed = true) "Displacement of the mass";
  output Real v(unit = "m/s", start = 0, fixed = true) "Velocity of the mass";
equation
  f_left = k_left*(x - p_left);
  p_right = x + f_right/k_right;
  der(x) = v;
  m*der(v) = f_right - f_left - d*v;
end SpringMass;
