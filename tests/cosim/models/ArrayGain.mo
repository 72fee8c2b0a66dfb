model ArrayGain "y = k .* u, M = [k; u], x' = u - x"
  parameter Real k[3] = {1, 2, 3};
  input Real u[3](start = {0, 0, 0});
  output Real y[3];
  output Real M[2, 3];
  Real x[3](start = {0, 0, 0}, each fixed = true);
equation
  der(x) = u - x;
  y = k .* u;
  M[1, :] = k;
  M[2, :] = x;
end ArrayGain;
