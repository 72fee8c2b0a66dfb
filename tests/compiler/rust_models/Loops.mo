package Loops "Algebraic loops on the way from the states to the derivatives"
  model Nonlinear "y + 0.5 sin(y) = x: a Newton block the Jacobian crosses"
    Real x(start = 2, fixed = true);
    Real v(start = 0, fixed = true);
    Real y(start = 1);
  equation
    y + 0.5*sin(y) = x;
    der(x) = v;
    der(v) = -4*y - 0.1*v;
    annotation(experiment(StopTime = 5, Tolerance = 1e-6));
  end Nonlinear;

  model Linear "Two currents through a resistor network: a linear block"
    Real q(start = 1, fixed = true);
    Real i1, i2;
  equation
    2*i1 + i2 = q;
    i1 - 3*i2 = time;
    der(q) = -i1 - i2;
    annotation(experiment(StopTime = 2, Tolerance = 1e-6));
  end Linear;

  model Switched "An Integer switched by a relation on y, which it changes: an event moves y"
    Real x(start = 2, fixed = true);
    Real y;
    Integer n;
  equation
    n = if y > 1 then 1 else 0;
    y = x - 0.3*n;
    der(x) = -0.5*y;
    annotation(experiment(StopTime = 3, Tolerance = 1e-6));
  end Switched;
end Loops;
