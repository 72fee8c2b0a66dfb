package HigherOrder "Functional arguments (MLS 12.4.2): functions passed to functions"
  partial function Integrand "The type of a function of one variable"
    input Real x;
    output Real y;
  end Integrand;

  function simpson "Composite Simpson's rule for f over [a, b] with n (even) intervals"
    input Integrand f;
    input Real a;
    input Real b;
    input Integer n = 10;
    output Real I "(named as the imaginary unit macro of C's complex.h)";
  protected
    Real h = (b - a)/n;
  algorithm
    I := f(a) + f(b);
    for i in 1:n - 1 loop
      I := I + (if mod(i, 2) == 1 then 4 else 2)*f(a + i*h);
    end for;
    I := I*h/3;
  end simpson;

  function cubic "x^3 - x"
    extends Integrand;
  algorithm
    y := x^3 - x;
  end cubic;

  function decay "c*exp(-k*x): k and c are bound by partial application"
    extends Integrand;
    input Real k;
    input Real c = 1;
  algorithm
    y := c*exp(-k*x);
  end decay;

  function weighted "w[1] + w[2]*x, the weights an array bound by partial application"
    extends Integrand;
    input Real w[2];
  algorithm
    y := w[1] + w[2]*x;
  end weighted;

  function mean "The mean of g over [a, b]: passes its functional input on"
    input Integrand g;
    input Real a;
    input Real b;
    output Real m;
  algorithm
    m := simpson(g, a, b, 20)/(b - a);
  end mean;

  function scaled "s*g(x): a function with a functional input of its own"
    extends Integrand;
    input Integrand g;
    input Real s;
  algorithm
    y := s*g(x);
  end scaled;

  function scaledArea "The area of s*g over [0, 1], binding its own inputs in a function"
    input Integrand g;
    input Real s;
    output Real area;
  algorithm
    area := simpson(function scaled(g = g, s = s), 0, 1, 100);
  end scaledArea;

  model Quadrature
    parameter Real k = 0.7;
    Real cubicArea = simpson(cubic, 0, 2) "exact: Simpson's rule integrates cubics exactly";
    Real decayArea = simpson(function decay(k = k, c = 2), 0, 1, 100);
    Real movingArea = simpson(function decay(k = 1 + time), 0, 1, 100)
      "the bound value changes in time";
    Real lineArea = simpson(function weighted(w = {1, 2*k}), 0, 3);
    Real cubicMean = mean(cubic, 0, 2);
    Real scaledDecay = scaledArea(function decay(k = k), 3);
  end Quadrature;

  model NotCompatible "the function passed lacks the type's input x"
    function other
      input Real z;
      output Real y;
    algorithm
      y := z;
    end other;
    Real a = simpson(other, 0, 1);
  end NotCompatible;

  model NotAFunction "a variable passed to a functional input"
    Real v = 1;
    Real a = simpson(v, 0, 1);
  end NotAFunction;

  model UnboundExtraInput "decay's input k is neither bound nor defaulted"
    Real a = simpson(decay, 0, 1);
  end UnboundExtraInput;
end HigherOrder;
