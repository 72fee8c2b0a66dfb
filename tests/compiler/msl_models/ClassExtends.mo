package ClassExtends "class extends (MLS 7.3.1) and packages as parameters"
  partial package PartialLiquid "The interface of a liquid: constants and a function"
    constant Real cp "specific heat capacity";
    constant Real T0 = 273.15 "where the specific enthalpy is zero";
    replaceable partial function specificEnthalpy
      input Real T;
      output Real h;
    end specificEnthalpy;
    replaceable record State
      Real T;
    end State;
    type Temperature = Real(unit = "K");
    constant Real cv = cp "read in the liquid that extends the package";
    record Properties
      Real c;
      Real rho;
      Real v;
    end Properties;
    constant Properties properties(c = cv, rho = 1000, v = 1/properties.rho)
      "a record constant by modifications, one of them reading another";
    function internalEnergy "inherited as it is: reads the constants of the liquid"
      input Real T;
      output Real u;
    algorithm
      u := properties.c*(T - T0);
    end internalEnergy;
  end PartialLiquid;

  package ConstantCp "h = cp*(T - T0)"
    extends PartialLiquid(cp = 4184);
    redeclare function extends specificEnthalpy
    algorithm
      h := cp*(T - T0);
    end specificEnthalpy;
  end ConstantCp;

  package LinearCp "cp grows with T: h = cp*(T - T0) + a/2*(T - T0)^2"
    extends PartialLiquid(cp = 1800);
    constant Real a = 3;
    redeclare function extends specificEnthalpy "with an input of its own"
      input Real scale = 1;
    algorithm
      h := scale*(cp*(T - T0) + a/2*(T - T0)^2);
    end specificEnthalpy;
    redeclare record extends State
      Real p = 1e5;
    end State;
  end LinearCp;

  model Heater "a body heated at a constant rate; its liquid is a package parameter"
    replaceable package Liquid = PartialLiquid;
    parameter Real m = 2;
    parameter Real Q = 1000;
    Real T(start = 300, fixed = true);
    Real h = Liquid.specificEnthalpy(T);
    Liquid.State state(T = T);
    Real u = Liquid.internalEnergy(T);
    Real v = Liquid.properties.v;
  equation
    m*der(h) = Q;
  end Heater;

  model TwoLiquids
    Heater water(redeclare package Liquid = ConstantCp);
    Heater oil(redeclare package Liquid = LinearCp);
    Real oilPressure = oil.state.p;
  end TwoLiquids;

  model Base
    replaceable model Part
      Real x = 1;
    end Part;
    Part inherited;
  end Base;

  model Extended "a redeclared class extends replaces the class for inherited components"
    extends Base;
    redeclare model extends Part(x = 2)
      Real y = 3*x;
    end Part;
    Part own;
  end Extended;

  model NotRedeclared "without redeclare, the inherited component keeps the original class"
    extends Base;
    model extends Part
      Real y = 3*x;
    end Part;
    Real z = inherited.y;
  end NotRedeclared;
  package Twice "an element inherited on two paths is one when identical after modification"
    partial model Base
      parameter Boolean exposes = false;
      parameter Integer mode = 2;
    end Base;
    partial model Left
      extends Base(final exposes = mode == 2);
    end Left;
    partial model Right
      Real m(min = 0, start = 1, nominal = 2);
      parameter Integer mode = 2;
    end Right;
    partial model Other
      Real m(min = 0, start = 1);
    end Other;
    model Merged
      extends Left;
      extends Base(final exposes = mode == 2);
      extends Right;
      extends Other(m(nominal = 2));
      Real y = if exposes then 1 else 2;
    equation
      m = 3;
    end Merged;
    model DifferentValue
      extends Left;
      extends Base(final exposes = mode == 3);
    end DifferentValue;
    model DifferentAttribute
      extends Right;
      extends Other(m(nominal = 3));
    equation
      m = 3;
    end DifferentAttribute;
    partial model LiquidUserA
      replaceable package Liquid = ClassExtends.PartialLiquid "the liquid of one base";
      Liquid.Temperature T;
    end LiquidUserA;
    partial model LiquidUserB
      replaceable package Liquid = ClassExtends.PartialLiquid "the liquid of the other";
      Liquid.Temperature T;
    end LiquidUserB;
    model TwoUsers "the same replaceable package and a component typed through it, twice"
      extends LiquidUserA(redeclare package Liquid = ConstantCp);
      extends LiquidUserB(redeclare package Liquid = ConstantCp);
    equation
      T = Liquid.cp;
    end TwoUsers;
  end Twice;
  package Mixture "an array of record constants: indexed in a function, a field of all"
    record Gas
      Real MM;
      Real R_s;
    end Gas;
    constant Gas gases[2] = {Gas(MM = 0.028, R_s = 8.314/0.028),
                             Gas(MM = 0.032, R_s = 8.314/0.032)};
    function molarMass "of the mixture: 1/sum(X[j]/MM[j])"
      input Real X[2];
      output Real MM;
    algorithm
      MM := 1/sum(X[j]/gases[j].MM for j in 1:2);
    end molarMass;
    function gasConstant
      input Real X[2];
      output Real R;
    algorithm
      R := gases.R_s*X;
    end gasConstant;
    constant Gas pair[2](each MM = 0.03, R_s = {100, 200}) "an array by modifications";
    model Air
      Real X[2] = {0.77, 0.23 + 0.01*time};
      Real paired = pair[1].MM*pair[2].R_s + pair[2].MM*pair[1].R_s "9";
      Real MM = molarMass(X);
      Real R = gasConstant(X);
      Real R2 = gases.R_s*X;
    end Air;
  end Mixture;
  package Aliases "a function alias reads the names around the function it names"
    package Inner
      function helper
        input Real x;
        output Real y;
      algorithm
        y := 2*x;
      end helper;
      function twice
        input Real x;
        output Real y[2];
      algorithm
        y := array(helper(x), 2*helper(x));
      end twice;
    end Inner;
    function twice = Inner.twice;
    model UseAlias
      Real y[2] = twice(time);
      Real a[3] = array(1, 2, 3)*time;
    end UseAlias;
  end Aliases;
end ClassExtends;
