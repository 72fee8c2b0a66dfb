within Some.Library;
encapsulated package Syntax "Every construct of the grammar, for the parser tests (not flattened)"
  import Modelica.Units.SI;
  import Short = Modelica.Math;
  import Modelica.Constants.*;
  import Modelica.Blocks.{Sources, Math};

  type Angle = Real(final quantity = "Angle", unit = "rad", displayUnit = "deg");
  type Matrix3 = Real[3, 3];
  type Colour = enumeration(red "warm", green, blue) "primary colours";
  type Open = enumeration(:);
  connector RealInput = input Real "input signal" annotation(Dialog(group = "Signals"));
  connector RealOutput = output Real;
  expandable connector Bus "a bus"
  end Bus;
  operator record Complex "complex number"
    Real re;
    Real im;
    encapsulated operator '+'
      function add
        input Complex a;
        input Complex b;
        output Complex c;
      algorithm
        c := Complex(a.re + b.re, a.im + b.im);
      end add;
    end '+';
  end Complex;

  partial block Interface
    RealInput u;
    RealOutput y;
  end Interface;

  pure function quadratic "a pure function with defaults"
    input Real x;
    input Real a = 1, b = 0;
    output Real y;
    output Real dy;
  protected
    Real t[2];
  algorithm
    t := {a*x^2, b*x};
    y := t[1] + t[2];
    dy := 2*a*x + b;
    annotation(derivative = quadratic_der, Inline = true);
  end quadratic;
  type quadratic_der = der(quadratic, x);

  impure function logValue
    input Real x;
    output Integer status;
  external "C" status = log_value(x, size(x, 1)) annotation(Library = "logging");
  end logValue;

  function defaultExternal
    input Real x[:];
    output Real y;
  external "C";
  end defaultExternal;

  model Everything "uses all equation and statement forms"
    extends Interface(u(start = 0), y(final unit = "1"));
    extends Base.Nested.Deep annotation(IconMap(primitivesVisible = false));
    replaceable model Inner = Base constrainedby Base(k = 1) "replaceable class";
    replaceable Base b(k = 2) constrainedby Base "replaceable component";
    inner outer Base world;
    final parameter Integer n(min = 0) = 3 "a final parameter";
    parameter Real p[n, 2] = [1, 2; 3, 4; 5, 6];
    parameter Boolean use = true;
    constant String s = "a \"quoted\" string\n" + "with concatenation";
    discrete Real d;
    flow Real f;
    stream Real h;
    Real x[n](each start = 0, each fixed = true), z if use;
    Real 'quoted name';
    Colour colour = Colour.red;
    Inner inner1(redeclare model M = Base, redeclare each final Base c);
    Base arrayOfParts[2](k = {1, 2}, each m(x = 1));
    SI.Angle angle = -0.5e-3;
  protected
    Real hidden = 0.1 + 1.e2 + 3E+2;
  public
    Real back;
  initial equation
    x = zeros(n);
  equation
    for i in 1:n loop
      der(x[i]) = -x[i] + p[i, 1]*(if i > 1 then x[i - 1] else 0);
    end for;
    for i, j in {1, 2} loop
      connect(arrayOfParts[i].a, arrayOfParts[j].b) annotation(Line(points = {{0, 0}, {1, 1}}));
    end for;
    if use then
      z = sum(x);
    elseif n > 4 then
      z = product(x[1:2]);
    else
      z = 0 "else branch";
    end if;
    when {sample(0, 0.1), initial()} then
      d = pre(d) + 1;
      reinit(x[1], 0);
    elsewhen terminal() then
      terminate("done");
    end when;
    assert(n >= 0, "n must not be negative", AssertionLevel.warning);
    f = not use and (d > 1 or d <= -1) and d <> 2 and d == 3 or d >= 4;
    h = 2^-1 + (-1)^2 + 2^(-2) + a.b[end].c[:, 1:2:end];
    back = sum({i*j for i in 1:2, j in 3:4}) + sin(2*0.5);
    (angle, ) = quadratic(1, b = 2);
    connect(u, y);
  algorithm
    back := 1;
    for k in 1:n loop
      if k == 2 then
        break;
      elseif k > 2 then
        return;
      end if;
    end for;
    while back < 10 loop
      back := back*2;
    end while;
    when d > 2 then
      back := -back;
    end when;
    (back, d) := quadratic(x = 2);
    logValue(back);
  initial algorithm
    back := 0;
    annotation(experiment(StopTime = 1.0), Documentation(info = "<html>text</html>"));
  end Everything;

  model Base
    parameter Real k = 1;
    model Nested
      model Deep
      end Deep;
    end Nested;
  end Base;

  model Extended
    extends Base(k = 3);
  end Extended;

  redeclare model extends Inner "class extends"
  end Inner;
end Syntax;
