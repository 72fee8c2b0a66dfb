package FluidGaps2 "Constructs that stopped Modelica.Fluid examples (issue 14), second set"

  function twice "An external C function: flattening cannot evaluate its calls"
    input Real x;
    output Real y;
  external "C" y = gaps2_twice(x) annotation(Include = "static double gaps2_twice(double x) { return 2.0 * x; }");
  end twice;

  function doubled "Every element doubled through the external function"
    input Real a[:];
    output Real y[size(a, 1)];
  algorithm
    for i in 1:size(a, 1) loop
      y[i] := twice(a[i]);
    end for;
  end doubled;

  function horner "Polynomial with coefficients p (highest power first) at u"
    input Real p[:];
    input Real u;
    output Real y;
  algorithm
    y := p[1];
    for j in 2:size(p, 1) loop
      y := p[j] + u * y;
    end for;
  end horner;

  package Fitted "A medium-like package: constants computed by a call flattening cannot evaluate"
    constant Real table[:, 2] = {{0.0, 1.0}, {1.0, 2.5}, {2.0, 4.0}};
    constant Real coefficients[:] = doubled({0.5, -1.0, 1.5});

    function value "The polynomial of the constants at u, the whole array passed on"
      input Real u;
      output Real y;
    algorithm
      assert(size(table, 1) > 0, "the table is empty");
      y := horner(coefficients, u);
    end value;

    function leading "One element of the constant array"
      input Real u;
      output Real y;
    algorithm
      y := coefficients[1] * u + coefficients[3];
    end leading;
  end Fitted;

  model ConstantFromExternal
    "A function reads a package constant whose binding calls an external function"
    Real y = Fitted.value(time);
    Real z = Fitted.leading(time);
  end ConstantFromExternal;

  function smallest "The smallest dimension of a matrix through size(A) as a whole"
    input Real A[:, :];
    output Integer n;
  algorithm
    n := min(size(A));
  end smallest;

  function padded "An output whose default reads a protected variable declared after it"
    input Real a[:];
    output Real y[size(a, 1) + 1] = cat(1, a, {last});
  protected
    Real last = 2 * a[size(a, 1)];
  algorithm
    y[size(y, 1)] := y[size(y, 1)] + 1;
  end padded;

  function half
    input Real x;
    output Real k;
  algorithm
    k := x / 2;
  end half;

  function twoHalves "Protected k1, k2 bound to calls whose result is named k"
    input Real x;
    output Real y;
  protected
    Real k1 = half(x);
    Real k2 = half(3 * x);
  algorithm
    y := k1 + k2;
  end twoHalves;

  model FunctionLocals
    Real m[2, 3] = {{time, 1, 2}, {3, 4, 5}};
    Real n = smallest(m) * time;
    Real p[3] = padded({1 + time, 2 * time});
    Real h = twoHalves(1 + time);
  end FunctionLocals;

  function completed "A composition completed by cat, as Media's setState_pTX does"
    input Real a[2];
    output Real s;
  protected
    Real full[3];
  algorithm
    full := cat(1, a, {1 - a[1]});
    s := full * {1.0, 2.0, 3.0};
  end completed;

  model DerivativeThroughCat
    "Index reduction differentiates a constraint through a function whose body calls cat"
    Real x;
    Real v;
  equation
    der(x) = v;
    completed({x, 0.25}) = sin(time);
  end DerivativeThroughCat;

  function solveLeastSquares "LAPACK dgelsy: the minimum-norm least-squares solution of A x = b"
    input Real A[:, :] "at least as many rows as columns";
    input Real b[size(A, 1)];
    output Real x[size(A, 1)] = b "the solution in its first size(A, 2) elements";
    output Integer rank;
    output Integer info;
  protected
    Real factors[size(A, 1), size(A, 2)] = A;
    Integer pivots[size(A, 2)] = fill(0, size(A, 2));
    Real work[4 * size(A, 1) + 4 * size(A, 2) + 1];
  external "FORTRAN 77" dgelsy(size(A, 1), size(A, 2), 1, factors, size(A, 1), x, size(A, 1), pivots, 1e-12, rank, work, size(work, 1), info) annotation(Library = "lapack");
  end solveLeastSquares;

  function lineFit "Slope and offset of the least-squares line through the points (u, y)"
    input Real u[:];
    input Real y[size(u, 1)];
    output Real p[2];
  protected
    Real V[size(u, 1), 2];
    Real x[size(u, 1)];
    Integer rank;
    Integer info;
  algorithm
    for j in 2:-1:1 loop
      for i in 1:size(u, 1) loop
        V[i, j] := if j == 2 then 1 else u[i] * V[i, j + 1];
      end for;
    end for;
    (x, rank, info) := solveLeastSquares(V, y);
    p := x[1:2];
  end lineFit;

  package Line "A constant fitted by LAPACK, which flattening evaluates"
    constant Real p[2] = lineFit({0.0, 1.0, 2.0, 3.0}, {1.1, 2.9, 5.2, 6.8});

    function at
      input Real u;
      output Real y;
    algorithm
      y := p[1] * u + p[2];
    end at;
  end Line;

  model FittedConstant
    Real y = Line.at(time);
  end FittedConstant;

  model CoupledThroughExternal
    "der(x) reads y only through an external function, whose partials are not known"
    Real x(start = 1, fixed = true);
    Real y(start = 0, fixed = true);
  equation
    der(x) = -1000 * (x - twice(y) / 2);
    der(y) = x - y;
  end CoupledThroughExternal;

  function sizeOfDefaulted "An input whose default is written out keeps its argument's size"
    input Real X[:] = {0.25, 0.75};
    output Real s;
  algorithm
    s := if size(X, 1) == 2 then X[1] + 10 * X[2] else sum(X) + 100;
  end sizeOfDefaulted;

  model DefaultedInput "Media's specificEnthalpy_pTX(p, T, Xi): X[:] = reference_X"
    Real a = sizeOfDefaulted({time});
    Real b = sizeOfDefaulted() * (1 + time);
    Real c = sizeOfDefaulted({time, 1});
  end DefaultedInput;
end FluidGaps2;
