package Functions "User functions: several outputs, arrays, recursion, loops, built-ins"
  function polar "Cartesian to polar"
    input Real x;
    input Real y;
    output Real r;
    output Real phi;
  algorithm
    r := sqrt(x^2 + y^2);
    phi := atan2(y, x);
  end polar;

  function normalize
    input Real v[:];
    output Real u[size(v, 1)];
    output Real length;
  algorithm
    length := sqrt(sum(v .^ 2));
    u := v/length;
  end normalize;

  function factorial
    input Integer n;
    output Integer f;
  algorithm
    if n <= 1 then
      f := 1;
    else
      f := n*factorial(n - 1);
    end if;
  end factorial;

  function sumTo
    input Integer n;
    output Integer total = 0;
  protected
    Integer k = 0;
  algorithm
    for i in 1:n loop
      total := total + i;
    end for;
    while k < 3 loop
      k := k + 1;
      if k == 2 then
        break;
      end if;
    end while;
    assert(total >= 0, "negative");
  end sumTo;

  function poly "Horner's rule"
    input Real c[:];
    input Real x;
    output Real y = 0;
  algorithm
    for i in 1:size(c, 1) loop
      y := y*x + c[i];
    end for;
  end poly;

  function scaled
    input Real x;
    input Real gain = 2;
    input Real offset = gain/2;
    output Real y;
  algorithm
    y := gain*x + offset;
  end scaled;

  function matVec
    input Real A[2, 2];
    input Real x[2];
    output Real y[2];
  algorithm
    for i in 1:2 loop
      y[i] := A[i, 1]*x[1] + A[i, 2]*x[2];
    end for;
  end matVec;


  function fib "Fibonacci numbers by an if-expression that recurses"
    input Integer n;
    output Integer f;
  algorithm
    f := if n < 2 then n else fib(n - 1) + fib(n - 2);
  end fib;

  function stats "Mean, extremes and spread of a vector"
    input Real v[:];
    output Real mean;
    output Real lo;
    output Real hi;
    output Real spread;
  protected
    Real centered[size(v, 1)];
  algorithm
    mean := sum(v)/size(v, 1);
    lo := min(v);
    hi := max(v);
    centered := v - fill(mean, size(v, 1));
    spread := sqrt(centered*centered/size(v, 1));
  end stats;

  function cumulative "Running sums, through another function's array result"
    input Real v[:];
    output Real s[size(v, 1)];
  protected
    Real u[size(v, 1)];
    Real length;
  algorithm
    (u, length) := normalize(v);
    s[1] := u[1]*length;
    for i in 2:size(v, 1) loop
      s[i] := s[i - 1] + u[i]*length;
    end for;
  end cumulative;

  function saturate "Clip to [lo, hi] with a warning-free assert on the bounds"
    input Real x;
    input Real lo = -1;
    input Real hi = 1;
    output Real y;
  algorithm
    assert(lo <= hi, "bounds in the wrong order: lo = " + String(lo) + ", hi = " + String(hi));
    y := max(lo, min(hi, x));
  end saturate;

  function isEven
    input Integer n;
    output Boolean even;
  algorithm
    even := mod(n, 2) == 0;
  end isEven;

  function rotate "Matrix products: a rotation applied twice, and a quadratic form"
    input Real angle;
    input Real v[2];
    output Real w[2];
    output Real q;
  protected
    Real R[2, 2] = {{cos(angle), -sin(angle)}, {sin(angle), cos(angle)}};
    Real R2[2, 2];
  algorithm
    R2 := R*R;
    w := R2*v;
    q := v*R2*v;
  end rotate;

  function rowSums "Slices: sums of rows and columns, a part of a vector"
    input Real A[:, :];
    output Real rows[size(A, 1)];
    output Real firstColumn;
    output Real tail;
  algorithm
    for i in 1:size(A, 1) loop
      rows[i] := sum(A[i, :]);
    end for;
    firstColumn := sum(A[:, 1]);
    tail := sum(A[1, 2:size(A, 2)]) + max(A[2, 1:2:3]);
  end rowSums;

  model UseFunctions
    Real x(start = 1, fixed = true);
    Real r;
    Real phi;
    Real d[2] = {time, 1};
    Real n[2];
    Real len;
    Integer f5 = factorial(5);
    Integer s = sumTo(4);
    Real p = poly({1, 2, 3}, time);
    Real a = scaled(time);
    Real b = scaled(time, offset = 1);
    Real w[2];
    Integer f10 = fib(10);
    Real mean, lo, hi, spread;
    Real c[3];
    Real y(start = 0, fixed = true);
    Boolean even = isEven(f5);
    Real rotated[2];
    Real quadratic;
    Real sums[2];
    Real firstColumn;
    Real tail;
  equation
    c = cumulative({1, time, 2*time});
    (mean, lo, hi, spread) = stats({1, 2*time, -time, 3});
    der(y) = saturate(3*sin(4*time) - y, hi = 0.8);
    (r, phi) = polar(x, time);
    (n, len) = normalize(d);
    der(x) = -0.5*x + p/10 + a/20;
    w = matVec({{1, 2}, {3, 4}}, {x, time});
    (rotated, quadratic) = rotate(time, {1, 2});
    (sums, firstColumn, tail) = rowSums({{1, 2, 3}, {4, 5 + time, 6 - 2*time}});
    annotation(experiment(StopTime = 2, Tolerance = 1e-9));
  end UseFunctions;

  function twice
    input Real x;
    output Real y;
  algorithm
    y := 2*x;
  end twice;

  function newtonSqrt "The square root by Newton's method: a while loop with a computed condition"
    input Real a;
    output Real x = 1;
  protected
    Integer n = 0;
  algorithm
    while abs(x*x - a) > 1e-12*a and n < 100 loop
      x := (x + a/x)/2;
      n := n + 1;
    end while;
  end newtonSqrt;

  model Everywhere "Calls in parameter bindings, an algebraic loop, an algorithm, a when-clause"
    parameter Real k = 3;
    parameter Real p = twice(k);
    final parameter Real q = twice(4);
    Real x(start = 1, fixed = true);
    Real z;
    Real w;
    Real s;
    Real t;
    discrete Real held(start = 0, fixed = true);
  algorithm
    s := twice(x) + newtonSqrt(2);
    if x > 0.9 then
      t := 1;
    elseif twice(x) > 1.7 then
      t := 2;
    else
      t := 3;
    end if;
  equation
    der(x) = -x + p/10 + q/100;
    z + newtonSqrt(z + 1) = time;
    w = poly({x, z, time}, 2);
    when x < 0.8 then
      held = twice(time);
    end when;
    annotation(experiment(StopTime = 1, Tolerance = 1e-9));
  end Everywhere;

  model FailingAssert "A function's assert that fails at t = 0.5"
    Real x = saturate(time, lo = 2*time - 1, hi = 0);
  end FailingAssert;
end Functions;
