package FrontendSpeed "subscripts the flattener evaluates once per for-index value (subscript_values.py)"
  model Neighbours "built-in calls, end and arithmetic in subscripts of a for-equation"
    parameter Integer n = 7;
    Real y[n] = {k^2 for k in 1:n};
    Real z[3] = {10, 20, 30};
    Real x[n, 2];
  equation
    for i in 1:n loop
      for j in 1:2 loop
        x[i, j] = y[min(i + j, n)] + y[max(i - j, 1)] + z[mod(i, 3) + 1] + z[end - div(i + j, 4)]
          + y[abs(-i)];
      end for;
    end for;
  end Neighbours;

  model Sized "the same subscript text in two instances of different sizes"
    parameter Integer m = 3;
    Real v[m] = {100*k for k in 1:m};
    Real w[m];
  equation
    for i in 1:m loop
      w[i] = v[min(i + 1, m)];
    end for;
  end Sized;

  model TwoSizes
    Sized a(m = 3);
    Sized b(m = 5);
  end TwoSizes;

  model Shadowed "a function named max in scope: its calls are not the built-in"
    function max
      input Integer p;
      input Integer q;
      output Integer r;
    algorithm
      r := 1;
    end max;
    Real y[4] = {1, 2, 3, 4};
    Real x[4];
  equation
    for i in 1:4 loop
      x[i] = y[max(i + 1, 4)];
    end for;
  end Shadowed;

  model Varying "a subscript read while simulating: chosen by if-expressions, never cached"
    Real y[3] = {1, 2, 3};
    Integer k = if time < 0.5 then 1 else 3;
    Real x[2];
  equation
    for i in 1:2 loop
      x[i] = y[min(k, i + 1)];
    end for;
  end Varying;
end FrontendSpeed;
