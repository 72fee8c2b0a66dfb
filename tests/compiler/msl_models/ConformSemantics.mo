package ConformSemantics "Small models of Modelica-Compliance cases that computed wrong values or were refused (self-written)"
  package Modifiers "Which modification reaches an element, and where its expressions are read"
    model Ramp
      constant Real k = 2;
      parameter Real g = 3;
      Real y;
    equation
      y = g*time;
    end Ramp;
    model ShortClassScope "a short class's modifier is read where the short class is written (MLS 4.5.1)"
      constant Real k = 5;
      model Scaled = Ramp(g = k);
      Scaled s;
      annotation(experiment(StopTime = 1));
    end ShortClassScope;
    model Narrow
      Real x = 1;
    end Narrow;
    model Wide
      Real x = 1;
      Real z = 4;
    end Wide;
    model Holder "the constraining clause's modifiers apply to the declaration (MLS 7.3.2)"
      replaceable Wide w constrainedby Narrow(x = 2*time);
      annotation(experiment(StopTime = 1));
    end Holder;
    model ModifiedHolder "a modification of the element over its constraining clause's"
      extends Holder(w(z = 5*time));
      annotation(experiment(StopTime = 1));
    end ModifiedHolder;
    model Retyped "a redeclaration with a constraining clause of its own: its modifiers now"
      extends Holder(replaceable Wide w constrainedby Wide(z = 3*time));
      annotation(experiment(StopTime = 1));
    end Retyped;
    model RetypedRedeclared "a later redeclaration keeps the latest constraining clause's modifiers"
      extends Retyped(redeclare Wide w);
      annotation(experiment(StopTime = 1));
    end RetypedRedeclared;
    model WithNested
    protected
      model Inner
        Real x = 1;
      end Inner;
    public
      Inner i;
    end WithNested;
    model NestedClassModified "extends A(B(x = ...)) modifies A's nested class B"
      extends WithNested(Inner(x = 4*time));
      annotation(experiment(StopTime = 1));
    end NestedClassModified;
  end Modifiers;
  package Packages "Constants of packages given by the modifiers of extends and short classes"
    partial package Base
      constant Real c = 1;
    end Base;
    package Doubled
      extends Base(c = 2);
    end Doubled;
    package Tripled = Doubled(c = 3);
    model UsesPackage
      replaceable package P = Base;
      Real y = P.c*time;
    end UsesPackage;
    model Passes "hands its own (redeclared) package on"
      replaceable package P = Base;
      UsesPackage u(redeclare package P = P);
    end Passes;
    model Constants
      UsesPackage a(redeclare package P = Doubled);
      UsesPackage b(redeclare package P = Tripled);
      Passes p(redeclare package P = Tripled);
      annotation(experiment(StopTime = 1));
    end Constants;
  end Packages;
  package Events "When-clauses at initialization and their priorities"
    function same
      input Boolean b;
      output Boolean c;
    algorithm
      c := b;
      annotation(Inline = false);
    end same;
    model InitialThroughFunction "only 'when initial()' (or {..., initial(), ...}) is active at initialization (MLS 8.6)"
      discrete Real a(start = 0, fixed = true);
      discrete Real b(start = 0, fixed = true);
      discrete Real c(start = 0, fixed = true);
      parameter Real pa(fixed = false);
      parameter Real pb(fixed = false);
      parameter Real pc(fixed = false);
    equation
      when same(initial()) then
        a = 2;
      end when;
      when initial() then
        b = 3;
      end when;
      when {time > 0.5, initial()} then
        c = 4 + time;
      end when;
    initial equation
      pa = a;
      pb = b;
      pc = c;
      annotation(experiment(StopTime = 1));
    end InitialThroughFunction;
    model AlgorithmPriority "an assertion in an algorithm sees the when-statements' result, not a pass before it"
      discrete Real x(start = 3, fixed = true);
      Boolean high(start = false, fixed = true);
      Integer count(start = 0, fixed = true);
    algorithm
      when not initial() then
        x := 6;
      end when;
      when x >= 5 then
        high := true;
        count := pre(count) + 1;
      elsewhen x >= 4 then
        high := false;
        count := pre(count) + 10;
      end when;
      if not initial() then
        assert(high, "the first branch has priority");
      end if;
      annotation(experiment(StopTime = 1));
    end AlgorithmPriority;
  end Events;
  package Initialization "What determines the initial values"
    model FixedWithoutStart "fixed = true without a start value: the default start value 0"
      Real r(fixed = true);
      discrete Real i(start = 1, fixed = true);
    equation
      der(r) = i;
      when time >= 0.5 then
        i = -2;
      end when;
      annotation(experiment(StopTime = 1));
    end FixedWithoutStart;
  end Initialization;
  package OperatorRecords "Operators of operator records (MLS 14)"
    operator record Count
      Integer n;
      encapsulated operator function 'String'
        import ConformSemantics.OperatorRecords.Count;
        input Count c;
        output String s;
      algorithm
        s := String(2*c.n);
      end 'String';
    end Count;
    model StringOfRecord "String(record) calls the record's operator 'String'"
      Count c = Count(3);
      Boolean matches = String(c) == "6";
      Boolean differs = String(c) == "3";
      annotation(experiment(StopTime = 1));
    end StringOfRecord;
  end OperatorRecords;
  package Lookup "Inner and outer elements, names through components, types that give causality"
    model Environment
      parameter Real g = 9.81;
    end Environment;
    model Body
      outer Environment env;
      Real v(start = 0, fixed = true);
    equation
      der(v) = -env.g;
    end Body;
    model MissingInner "no inner env: one is added at the top, with a warning (MLS 5.4)"
      Body b1;
      Body b2;
      annotation(experiment(StopTime = 1));
    end MissingInner;
    model UsesOuterConstant
      package P
        outer constant Integer n;
      end P;
      Real y = P.n*time;
    end UsesOuterConstant;
    model OuterConstantInPackage "an outer constant of a package is the inner one around"
      inner constant Integer n = 3;
      UsesOuterConstant u;
      annotation(experiment(StopTime = 1));
    end OuterConstantInPackage;
    partial function Unary
      input Real u;
      output Real y;
    end Unary;
    function Twice
      extends Unary;
    algorithm
      y := 2*u;
    end Twice;
    function Thrice
      extends Unary;
    algorithm
      y := 3*u;
    end Thrice;
    model Applies
      outer function f = Unary;
      Real y = f(time);
    end Applies;
    model OuterFunction "an outer function is the inner one of the instance around"
      model WithTwice
        inner function f = Twice;
        Applies a;
      end WithTwice;
      model WithThrice
        inner function f = Thrice;
        Applies a;
      end WithThrice;
      WithTwice two;
      WithThrice three;
      annotation(experiment(StopTime = 1));
    end OuterFunction;
    model Holder
      model Inner
        package Functions
          function half
            input Real x;
            output Real y;
          algorithm
            y := x/2;
          end half;
        end Functions;
      end Inner;
      Inner i;
    end Holder;
    model FunctionThroughComponent "h.Inner.Functions.half: a class of a component's class"
      Holder h;
      Real y = h.Inner.Functions.half(time);
      annotation(experiment(StopTime = 1));
    end FunctionThroughComponent;
    type In = input Real;
    type Out = output Real[2];
    function spread "formal parameters whose types say input and output"
      In u;
      Out y;
    algorithm
      y := {u, -3*u};
    end spread;
    model CausalityFromTypes
      Real y[2] = spread(time);
      annotation(experiment(StopTime = 1));
    end CausalityFromTypes;
    function checked
      input Real x;
      output Real y;
    algorithm
      assert(x < 0.5, "x reached 0.5");
      y := x;
    end checked;
    model CallForNothing "f(x); in an equation section: its result unused, the call made"
      Real x = time;
    equation
      checked(x);
      annotation(experiment(StopTime = 1));
    end CallForNothing;
  end Lookup;
  package Functions "Derivative annotations and external objects"
    function cube
      input Real x;
      output Real y;
    algorithm
      y := x^3;
      annotation(derivative = cubeDer, Inline = false);
    end cube;
    function cubeDer
      input Real x;
      input Real der_x;
      output Real der_y;
    algorithm
      der_y := 3*x^2*der_x;
      annotation(derivative(order = 2) = cubeDer2, Inline = false);
    end cubeDer;
    function cubeDer2
      input Real x;
      input Real der_x;
      input Real der_2_x;
      output Real der_2_y;
    algorithm
      der_2_y := 6*x*der_x*der_x + 3*x^2*der_2_x;
      annotation(Inline = false);
    end cubeDer2;
    model SecondDerivative "the derivative of a derivative function: foo2(x, der_x, der_2_x) (MLS 12.7.1)"
      Real x[3];
    equation
      x[1] = cube(time + 1);
      der(x[1]) = x[2];
      der(x[2]) = x[3];
      annotation(experiment(StopTime = 1));
    end SecondDerivative;
    class Gain "an external object holding one number"
      extends ExternalObject;
      function constructor
        input Real k;
        output Gain g;
      external "C" g = conformGainMake(k) annotation(Include = "#include <stdlib.h>
static int conformGainsLive = 0;
static inline void *conformGainMake(double k) {
    double *p = malloc(sizeof(double));
    if (p) { *p = k; conformGainsLive++; }
    return p;
}
static inline void conformGainFree(void *g) { if (g) conformGainsLive--; free(g); }
static inline double conformGainApply(void *g, double u) { return *(double *)g * u; }
static inline int conformGainLive(void) { return conformGainsLive; }");
      end constructor;
      function destructor
        input Gain g;
      external "C" conformGainFree(g);
      end destructor;
    end Gain;
    function applyGain
      input Gain g;
      input Real u;
      output Real y;
    external "C" y = conformGainApply(g, u);
    end applyGain;
    function liveGains "how many Gain objects exist"
      output Integer n;
    external "C" n = conformGainLive();
    end liveGains;
    function scaled "k u through a Gain object of its own"
      input Real k;
      input Real u;
      output Real y;
    protected
      Gain g = Gain(k);
    algorithm
      y := applyGain(g, u);
    end scaled;
    function probe "scaled(k, u), and how many Gain objects exist after it returned"
      input Real k;
      input Real u;
      output Real y;
      output Integer n;
    algorithm
      y := scaled(k, u);
      n := liveGains();
    end probe;
    model ObjectInFunction "a function constructs an external object of its own and destroys it as it returns"
      Real y;
      Integer n;
    equation
      (y, n) = probe(3, time);
      annotation(experiment(StopTime = 1));
    end ObjectInFunction;
    model ObjectWithoutPrefix "an external object declared without 'parameter' is one"
      parameter Real k = 4;
      Gain gain = Gain(k);
      Real y = applyGain(gain, time);
      annotation(experiment(StopTime = 1));
    end ObjectWithoutPrefix;
    function refuseOnce "a ModelicaError the first time u exceeds 0.3, else 2"
      input Real u;
      output Real y;
    external "C" y = conformRefuseOnce(u) annotation(Include = "#include \"ModelicaUtilities.h\"
static double conformRefuseOnce(double u) {
    static int refused = 0;
    if (!refused && u > 0.3) {
        refused = 1;
        ModelicaFormatError(\"refused once at u = %g\", u);
    }
    return 2.0;
}");
    end refuseOnce;
    model RetriedStep "a ModelicaError in the derivatives rejects the step, which is retried (MLS 12.9.6.1)"
      Real x(start = 0, fixed = true);
    equation
      der(x) = refuseOnce(time);
      annotation(experiment(StopTime = 1));
    end RetriedStep;
    function energy
      input Real m;
      input Real v;
      output Real e;
    protected
      Real half;
    algorithm
      half := m/2;
      e := half*v^2 + sin(v)/m;
    end energy;
    function energy_v = der(energy, v) "de/dv";
    model PartialDerivative "function energy_v = der(energy, v): m v + cos(v)/m (MLS 12.7.2)"
      Real y = energy_v(4, time);
      annotation(experiment(StopTime = 1));
    end PartialDerivative;
  end Functions;
end ConformSemantics;
