package FrictionGaps "What kept MultiBody RobotR3 (a gear with bearing friction) from initializing and running"
  function lookup "a table-like function without derivative"
    input Real x;
    output Real y;
  algorithm
    y := 2 + sin(x);
    annotation(Inline = false);
  end lookup;

  model LinearRow "a linear loop whose row reads a function without derivative"
    Real x(start = 0, fixed = true);
    Real a;
    Real b;
    Boolean locked = time < 0.5;
  equation
    der(x) = 1;
    a + 2*b = 3*x + 1;
    a - (if locked then b else lookup(x)) = 0;
    annotation(experiment(StopTime = 1));
  end LinearRow;

  model ZeroBranch "s is left out of its equation while locked"
    Real x(start = 0, fixed = true);
    Real s(start = 0.25);
    Boolean locked = time < 0.5;
  equation
    der(x) = 1;
    0 = if locked then 0 else s - x^2;
    annotation(experiment(StopTime = 1));
  end ZeroBranch;

  model InitialOnly "a relation that matters only at the initialization makes no events"
    Real x(start = 1, fixed = true);
    Real v(start = 0, fixed = true);
    Boolean started = initial() and x > 0;
    Boolean positive = v > 0;
  equation
    der(x) = v;
    der(v) = -x;
    annotation(experiment(StopTime = 10));
  end InitialOnly;
end FrictionGaps;
