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
end FluidGaps2;
