model Steps "Event-generating functions: integer, floor, ceil, mod"
  Real x(start = 0, fixed = true);
  Integer n;
  Real f;
  Real m;
equation
  der(x) = 1;
  n = integer(3*time);
  f = floor(2*x) + ceil(x);
  m = mod(time, 0.25);
end Steps;
