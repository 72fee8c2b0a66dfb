package FunctionDerivatives "Index reduction through user functions without derivative annotations"
  record State "a medium-like thermodynamic state"
    Real p;
    Real T;
    Real d;
  end State;

  function density "a made-up density of p, T: a series (while loop), a sum (for loop), a branch"
    input Real p;
    input Real T;
    output Real d;
  protected
    Real term;
    Integer i;
  algorithm
    assert(T > 0, "the temperature must be positive");
    d := 0;
    term := p/(287*T);
    i := 0;
    while i < 4 loop
      i := i + 1;
      d := d + term/i;
      term := term*0.1*noEvent(abs(sin(T/100)));
    end while;
    for k in 1:2 loop
      d := d + max(0.0, smooth(1, p*1e-7))*k;
    end for;
    if p > 2e5 then
      d := d*1.01;
    else
      d := d*(1 + 0.01*(p/2e5)^2);
    end if;
  end density;

  function state "a record-returning function calling another one"
    input Real p;
    input Real T;
    output State s;
  algorithm
    s := State(p=p, T=T, d=density(p, T));
  end state;

  record PhasedState "a record whose first field is an Integer"
    Integer phase;
    Real d;
  end PhasedState;

  function phased
    input Real p;
    input Real T;
    output PhasedState s;
  algorithm
    s := PhasedState(phase=if p > 2e5 then 1 else 2, d=density(p, T));
  end phased;

  function densityViaPhased "a record result taken from a call: a tuple assignment"
    input Real p;
    input Real T;
    output Real d;
  protected
    PhasedState s;
  algorithm
    s := phased(p, T);
    d := s.d;
  end densityViaPhased;

  function weighted "an array input, a for loop over it, built-ins with piecewise derivatives"
    input Real x[3];
    input Real c;
    output Real y;
  algorithm
    y := 0;
    for k in 1:3 loop
      y := y + k*x[k]^2;
    end for;
    y := y + min(x[1], c) + atan2(x[2], 1 + c^2) + exp(-c)*log(2 + x[3]^2) + abs(c)*sqrt(1 + c^2);
  end weighted;

  function annotated "a callee with its own derivative function"
    input Real u;
    output Real y;
  algorithm
    y := u^3;
    annotation(derivative=annotatedDer);
  end annotated;

  function annotatedDer
    input Real u;
    input Real du;
    output Real dy;
  algorithm
    dy := 3*u^2*du;
  end annotatedDer;

  function viaAnnotated "a function without annotation calling one with"
    input Real u;
    output Real y;
  algorithm
    y := annotated(u) + cos(u);
  end viaAnnotated;

  function externalSine "an external function without derivative"
    input Real u;
    output Real y;
  external "C" y = sin(u);
  end externalSine;

  function cubic "a protected constant array sized by its literal"
    input Real u;
    output Real y;
  protected
    constant Real a[:] = {1, 0.5, 0.25, -0.125};
  algorithm
    y := a[1] + a[2]*u + a[3]*u^2 + a[4]*u^3;
  end cubic;

  model CubicConstraint "index reduction through a function with a literal-sized array"
    Real x(start=0.5, fixed=true);
    Real y;
    Real z;
  equation
    der(x) = 1 - x;
    y = cubic(x);
    der(y) = z;
  end CubicConstraint;

  record Coefficients
    String name;
    Real a[2];
    Real b;
  end Coefficients;

  constant Coefficients table[2] = {Coefficients(name="first", a={1, 2}, b=0),
    Coefficients(name="second", a={0.5, -1}, b=1.5)};
  constant Boolean fixedWeights = false;

  function term
    input Coefficients c;
    input Real u;
    output Real y;
  algorithm
    y := c.a[1] + c.a[2]*u + c.b*u^2;
  end term;

  function mixed "weights (an array if-expression) times terms of a constant array of records"
    input Real w[2];
    input Real u;
    output Real y;
  algorithm
    y := (if fixedWeights then {0.5, 0.5} else w)*{term(table[i], u) for i in 1:2};
  end mixed;

  model MixedConstraint "index reduction through a mixture-like function"
    Real x(start=0.5, fixed=true);
    Real y;
    Real z;
  equation
    der(x) = 1 - x;
    y = mixed({x, 1 - x}, x);
    der(y) = z;
  end MixedConstraint;

  constant Real noFractions[0] = fill(0.0, 0);

  function withFractions "an array input that may be empty"
    input Real u;
    input Real X[:];
    output Real y;
  algorithm
    y := u^2 + sum(X);
  end withFractions;

  function withoutFractions "passes an empty constant array"
    input Real u;
    output Real y;
  algorithm
    y := withFractions(u, noFractions);
  end withoutFractions;

  model EmptyArgument "index reduction through a function passing an empty array"
    Real x(start=0.5, fixed=true);
    Real y;
    Real z;
  equation
    der(x) = 1 - x;
    y = withoutFractions(x);
    der(y) = z;
  end EmptyArgument;

  model Uses "calls every function, so that all are flattened"
    Real x = 1 + time;
    Real a = density(1e5*x, 300*x);
    State s = state(1e5*x, 300);
    Real b = weighted({x, 2*x, 3*x}, x);
    Real c = viaAnnotated(x);
    Real e = externalSine(x);
    Real f = mixed({x, 2*x}, x);
    Real g = densityViaPhased(1e5*x, 300*x);
  end Uses;

  model Tank "a rigid tank whose pressure follows a set point: der(density(p, T) V) is the flow"
    parameter Real V = 0.1;
    parameter Real tau = 0.5;
    Real m;
    Real p(start=1e5, fixed=true);
    Real T;
    Real w;
  equation
    T = 300 + 10*time;
    m = density(p, T)*V;
    der(m) = w;
    tau*der(p) = 3e5 - p;
  end Tank;

  model RecordTank "the same tank through a record-returning state function"
    parameter Real V = 0.1;
    parameter Real tau = 0.5;
    State s;
    Real m;
    Real p(start=1e5, fixed=true);
    Real T;
    Real w;
  equation
    T = 300 + 10*time;
    s = state(p, T);
    m = s.d*V;
    der(m) = w;
    tau*der(p) = 3e5 - p;
  end RecordTank;

  model Chain "an index-2 constraint through a function calling an annotated one"
    Real x(start=0.5, fixed=true);
    Real y;
    Real z;
  equation
    der(x) = 1 - x;
    y = viaAnnotated(x);
    der(y) = z;
  end Chain;

  model ExternalConstraint "index reduction would differentiate an external function"
    Real x(start=0.5, fixed=true);
    Real y;
    Real z;
  equation
    der(x) = 1 - x;
    y = externalSine(x);
    der(y) = z;
  end ExternalConstraint;
end FunctionDerivatives;
