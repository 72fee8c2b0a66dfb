// Two features met in a medium-like package: a nested class modified in an extends clause
// (extends Base(T(start = ...))) whose modifier names a package visible only around the text
// of that extends clause, inherited again two levels down; and a scalar times an empty array.
package InheritedModified
  package Base
    type T = Real(start = 1);
    constant Integer n = 0;
  end Base;

  package Library
    package Constants
      constant Real start = 300;
    end Constants;

    package Specific
      extends Base(T(start = Constants.start));
    end Specific;
  end Library;

  package Derived
    extends Library.Specific;
  end Derived;

  package Again
    extends Derived;
  end Again;

  model UsesAgain
    Again.T x;
    Real y[Again.n];
    Real m = 2;
    Real z[Again.n] = m*y;
  equation
    der(x) = -x;
    y = zeros(Again.n);
  end UsesAgain;
end InheritedModified;
