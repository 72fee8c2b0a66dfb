package RunFixes "Small models of what made MSL examples fail or differ at run time (self-written)"
  package Recorded "Variables whose own names carry subscripts are recorded by those names"
    model Decay
      parameter Real k = 1;
      Real x(start = 1, fixed = true);
    equation
      der(x) = -k*x;
    end Decay;
    model Elements "no outputs; x of each element of an array of components, and u[i]"
      Decay decay[2](k = {1, 2});
      Real u[2];
    equation
      u = {decay[1].x, 2*decay[2].x};
      annotation(experiment(StopTime = 1));
    end Elements;
  end Recorded;
  package Tearing "A loop is torn so that it never divides by a time-varying variable from outside it"
    model HeatedResistor "P = v i with v = 0 at the start: i := P / v would divide by zero"
      parameter Real V = 2 "voltage amplitude";
      parameter Real R0 = 1 "resistance at T_ref";
      parameter Real alpha = 0.05 "temperature coefficient";
      parameter Real T_ref = 300;
      parameter Real G = 0.5 "thermal conductance to the ambient";
      parameter Real T_ambient = 290;
      Real v "voltage, V sin(2 pi t)";
      Real i;
      Real R_actual;
      Real P "loss power";
      Real T "resistor temperature";
      Real dT;
    equation
      v = V*sin(2*3.141592653589793*time);
      v = R_actual*i;
      R_actual = R0*(1 + alpha*(T - T_ref));
      P = v*i;
      dT = T - T_ambient;
      P = G*dT;
      annotation(experiment(StopTime = 1));
    end HeatedResistor;
  end Tearing;
  package Bistable "A scalar loop with several solutions whose branch vanishes: a Schmitt trigger"
    model SchmittTrigger "non-inverting: the input through r1 to the amplifier's + input, r2 back from its output"
      parameter Real R1 = 1;
      parameter Real R2 = 2;
      parameter Real V0 = 1e5 "open-loop gain";
      parameter Real Vsat = 1 "output limits +-Vsat";
      Real vIn "input, 2 cos(2 pi t)";
      Real vP "the amplifier's + input";
      Real vOut;
      Real i "through r1 and r2";
    equation
      vIn = 2*cos(2*3.141592653589793*time);
      vIn - vP = R1*i;
      vP - vOut = R2*i;
      vOut = smooth(0, if V0*vP > Vsat then Vsat else if V0*vP < -Vsat then -Vsat else V0*vP);
      annotation(experiment(StopTime = 1));
    end SchmittTrigger;
    model Multivibrator "the trigger's - input on a capacitor charged from its output"
      parameter Real f = 10 "frequency the capacitance is chosen for";
      parameter Real R = 1000;
      parameter Real R1 = 1000 "divider: the + input across R1";
      parameter Real R2 = 1000;
      parameter Real C = 1/f/(2*R*log(1 + 2*R1/R2));
      parameter Real V0 = 15000;
      parameter Real Vsat = 15;
      Real vC(start = 1, fixed = true);
      Real vP(start = -7.5) "the + input";
      Real vOut;
      Real i1;
    equation
      vOut - vP = R2*i1;
      vP = R1*i1;
      vOut = smooth(0, if V0*(vP - vC) > Vsat then Vsat else if V0*(vP - vC) < -Vsat then -Vsat else V0*(vP - vC));
      C*der(vC) = (vOut - vC)/R;
      annotation(experiment(StopTime = 1));
    end Multivibrator;
  end Bistable;
  package Readable "Errors that concern many variables name the first few"
    model OverInitialized "every state fixed twice: by its start value and an initial equation"
      parameter Integer n = 30;
      Real x[n](each start = 0, each fixed = true);
    initial equation
      x = ones(n);
    equation
      der(x) = -x;
    end OverInitialized;
  end Readable;
  package Records "A record constructor of a record that extends another with modifiers"
    record Material
      parameter Real mu_i = 1 "initial relative permeability";
      parameter Real B_max = 1;
    end Material;
    record Steel "a material given by modifying the base's fields"
      extends Material(mu_i = 1210, B_max = 1.16);
    end Steel;
    function permeability "uses the constructor inside a function"
      input Real scale;
      output Real mu;
    protected
      Material m;
    algorithm
      m := Steel();
      mu := scale*m.mu_i*m.B_max;
    end permeability;
    model Core
      parameter Material material = Material();
      Real mu_r;
    equation
      mu_r = material.mu_i*(1 + time);
    end Core;
    model Inductor
      Core core(material = Steel());
      Core other(material = Steel(B_max = 2));
      Real mu = permeability(2);
      annotation(experiment(StopTime = 1));
    end Inductor;
  end Records;
  package LongLoop "A torn loop with more inner assignments than one piece of generated code holds"
    model Chain "x^3 + (1 + 0.01 (n - 1)) x + t - 2 = 0 through a chain of n assignments"
      parameter Integer n = 60;
      Real x(start = 1);
      Real y[n];
    equation
      y[1] = x + time;
      for i in 2:n loop
        y[i] = y[i - 1] + 0.01*x;
      end for;
      x^3 + y[n] = 2;
      annotation(experiment(StopTime = 1));
    end Chain;
  end LongLoop;
  package FixedZeros "Capacitances that are zero for good (Evaluate = true) leave no derivative"
    model Capacitor
      parameter Real C;
      Real v;
      Real i;
    equation
      i = C*der(v);
    end Capacitor;
    model Divider "u through R1 into a node with R2 and a capacitor of capacitance 0 to ground"
      parameter Real CapVal = 0 annotation(Evaluate = true);
      parameter Real R1 = 1;
      parameter Real R2 = 3;
      Capacitor c(final C = CapVal);
      Real u = sin(time);
    equation
      (u - c.v)/R1 = c.i + c.v/R2;
      annotation(experiment(StopTime = 1));
    end Divider;
    model Inductor
      parameter Boolean quasiStatic = false "neglect the transients";
      parameter Real L = 1;
      Real v;
      Real i;
    equation
      v = if quasiStatic then 0 else L*der(i);
    end Inductor;
    model QuasiStatic "u through R into an inductor whose transients are neglected for good"
      parameter Real R = 2;
      Inductor l(final quasiStatic = true);
      Real u = sin(time);
    equation
      u = R*l.i + l.v;
      annotation(experiment(StopTime = 1));
    end QuasiStatic;
  end FixedZeros;
  package ZeroFlow "semiLinear at zero flow: the enthalpy between two connections is free"
    model Pipe "inflow of enthalpy h_in through a port a into a mixed volume of temperature T"
      parameter Real h_in = 10;
      Real m "mass flow: 0 until t = 0.5";
      Real H "enthalpy flow";
      Real h_a(start = 3) "enthalpy at port a: any value while nothing flows";
      Real T(start = 1, fixed = true);
    equation
      m = if time < 0.5 then 0 else time - 0.5;
      H = semiLinear(m, h_in, h_a);
      H = semiLinear(m, h_a, T);
      der(T) = H - m*T;
      annotation(experiment(StopTime = 1.5));
    end Pipe;
  end ZeroFlow;
  package StartSingular "Index reduction whose constraint is singular at the start values"
    model Hyperbola "x1 x2 = 1 with der(x1) = x1: x1 = exp(t), x2 = exp(-t), v2 = -exp(-t)"
      Real x1 "start 0: the constraint's Jacobian (x2, x1) is 0 there";
      Real x2;
      Real v2;
    initial equation
      x1 = 1;
    equation
      der(x1) = x1;
      der(x2) = v2;
      x1*x2 = 1;
      annotation(experiment(StopTime = 1));
    end Hyperbola;
  end StartSingular;
  package Reciprocal "An equation that reads its unknown only as a divisor"
    model Permeance "R_m = 1/G_m: Newton from G_m = 0 met 1/0"
      Real R_m = 2 + time "reluctance";
      Real G_m "permeance";
    equation
      R_m = 1/G_m;
      annotation(experiment(StopTime = 1));
    end Permeance;
  end Reciprocal;
  package Scaled "A Newton system whose residuals differ in scale by 1e5"
    model ImpulseFit "time constants a, b of y = (exp(-t/a) - exp(-t/b))/eta from a standard impulse's times"
      parameter Real rise = 10e-6 "front time: 10 % to 90 % of the peak in 0.8 rise";
      parameter Real tail = 350e-6 "time to half value, from the virtual origin";
      parameter Real a(fixed = false, start = tail);
      parameter Real b(fixed = false, start = rise);
      parameter Real eta(fixed = false, start = 1) "peak of exp(-t/a) - exp(-t/b)";
      parameter Real tp(fixed = false, start = 3.66e-5) "time of the peak";
      parameter Real t10(fixed = false, start = 3.66e-7) "time of 10 % of the peak";
      Real y;
    initial equation
      exp(-tp/a)/a = exp(-tp/b)/b "slope 0 at the peak: this residual is of order 1/b";
      eta = exp(-tp/a) - exp(-tp/b);
      0.1*eta = exp(-t10/a) - exp(-t10/b);
      0.9*eta = exp(-(t10 + 0.8*rise)/a) - exp(-(t10 + 0.8*rise)/b);
      0.5*eta = exp(-(t10 - 0.1*rise + tail)/a) - exp(-(t10 - 0.1*rise + tail)/b);
    equation
      y = (exp(-time/a) - exp(-time/b))/eta;
      annotation(experiment(StopTime = 1e-3));
    end ImpulseFit;
  end Scaled;
  package Homotopy "homotopy() at initialization: the simplified equations choose the solution"
    model LowerStart "a Schmitt trigger whose input stays inside its hysteresis: two stable outputs"
      parameter Real R1 = 1;
      parameter Real R2 = 2;
      parameter Real V0 = 1e4;
      parameter Real Vsat = 1;
      Real vIn = 0.2*sin(2*3.141592653589793*time);
      Real vP(start = 0);
      Real vOut;
      Real i;
    equation
      vIn - vP = R1*i;
      vP - vOut = R2*i;
      vOut = homotopy(actual = smooth(0, if V0*vP > Vsat then Vsat else if V0*vP < -Vsat then -Vsat else V0*vP),
                      simplified = -Vsat);
      annotation(experiment(StopTime = 1));
    end LowerStart;
  end Homotopy;
  package InnerOuter "inner outer: an inner of its own for the components within, an outer for itself"
    model Root
      parameter Real gain = 1;
      Real x;
    equation
      x = gain*time;
    end Root;
    model Leaf
      outer Root root;
      Real y = root.x;
    end Leaf;
    model Composite
      inner outer Root root(gain = 2) "the leaf within sees this one";
      Leaf leaf;
      Real z = root.x "this one's own reference: the enclosing inner";
    end Composite;
    model Top
      inner Root root(gain = 1);
      Composite c;
      Leaf leaf;
      annotation(experiment(StopTime = 1));
    end Top;
  end InnerOuter;
end RunFixes;
