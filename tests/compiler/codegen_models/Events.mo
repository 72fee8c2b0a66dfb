package Events "edge, change, sample, pre and reinit together; a function behind a condition"
  function checkedSqrt "The square root of a number that must not be negative"
    input Real x;
    output Real y;
  algorithm
    assert(x >= 0, "checkedSqrt of a negative number");
    y := sqrt(x);
  end checkedSqrt;

  model Counters
    Real x(start = 0, fixed = true);
    Boolean high;
    Integer level;
    Integer rises(start = 0, fixed = true);
    Integer changes(start = 0, fixed = true);
    discrete Real held(start = 0, fixed = true);
    Real root;
  equation
    der(x) = cos(3*time);
    high = x > 0.2;
    level = integer(5*x);
    when edge(high) then
      rises = pre(rises) + 1;
    end when;
    when change(level) then
      changes = pre(changes) + 1;
    end when;
    when sample(0.05, 0.1) then
      held = x;
    end when;
    root = if x > 0.1 then checkedSqrt(x - 0.05) else -1;
    annotation(experiment(StopTime = 4, Tolerance = 1e-9));
  end Counters;

  function sq
    input Real x;
    output Real y;
  algorithm
    y := x*x;
  end sq;

  model CallsInEvents "User functions in a when-condition, a reinit and an assert"
    Real x(start = 1, fixed = true);
    Real v(start = 0, fixed = true);
    Integer n(start = 0, fixed = true);
  equation
    der(x) = v;
    der(v) = -4*x;
    when sq(x) < 0.25 and v < 0 then
      reinit(v, -0.9*sq(v)/max(abs(v), 1e-9));
      n = pre(n) + 1;
    end when;
    assert(sq(x) <= 1.0001, "x out of range");
    annotation(experiment(StopTime = 3, Tolerance = 1e-9));
  end CallsInEvents;
end Events;
