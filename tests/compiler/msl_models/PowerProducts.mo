package PowerProducts "integer powers of Reals written as products in the generated code"
  model Decay "der(x) = -x^3 and der(y) = -y^2: closed forms x = 1/sqrt(1 + 2t), y = 1/(1 + t)"
    Real x(start = 1, fixed = true);
    Real y(start = 1, fixed = true);
    Real s "a shared base: (x + y)^2 + (x + y)^3";
    Real q "a quotient by a square: 1/y^2 = (1 + t)^2";
  equation
    der(x) = -x^3;
    der(y) = -y^2;
    s = (x + y)^2 + (x + y)^3;
    q = 1/y^2;
  end Decay;
end PowerProducts;
