model Algorithms "An algorithm section with a loop, an if and a when-statement"
  Real x(start = 1, fixed = true);
  Real y;
  Real z;
  Integer n(start = 0, fixed = true);
  discrete Real last(start = 0, fixed = true);
algorithm
  y := 2*x;
  z := 0;
  for i in 1:3 loop
    z := z + i*y;
  end for;
  if x > 0.5 then
    z := z + 1;
  end if;
  when x < 0.5 then
    n := pre(n) + 1;
    last := time;
  end when;
equation
  der(x) = -x;
  annotation(experiment(StopTime = 1, Tolerance = 1e-9));
end Algorithms;
