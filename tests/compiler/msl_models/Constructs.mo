package Constructs "Small models of the constructs the Modelica Standard Library relies on (self-written)"
  package Redeclared "A replaceable signal source: the redeclaration keeps the original modifiers"
    partial block SignalSource
      parameter Real offset = 0;
      parameter Real startTime = 0;
      output Real y;
    end SignalSource;
    block Step
      extends SignalSource;
      parameter Real height = 1;
    equation
      y = offset + (if time < startTime then 0 else height);
    end Step;
    partial model Source
      parameter Real offset = 0;
      parameter Real startTime = 0;
      Real v;
      replaceable SignalSource signalSource(final offset = offset, final startTime = startTime);
    equation
      v = signalSource.y;
    end Source;
    model StepSource
      parameter Real V = 1;
      extends Source(redeclare Step signalSource(final height = V));
    end StepSource;
    model Circuit
      StepSource source(V = 2, offset = 1, startTime = 0.5);
      Real x(start = 0, fixed = true);
    equation
      der(x) = source.v;
      annotation(experiment(StopTime = 1));
    end Circuit;
  end Redeclared;

  package Inlined "Library wrappers of built-ins: a global name (.sin) and Inline functions"
    function sin "like Modelica.Math.sin"
      input Real u;
      output Real y;
    algorithm
      y := .sin(u);
      annotation(Inline = true);
    end sin;
    function clip
      input Real u;
      input Real limit = 1;
      output Real y;
    algorithm
      y := if u > limit then limit else u;
      annotation(Inline = true);
    end clip;
    function polynomial "a loop and a branch: still inlined"
      input Real x;
      input Real c[:];
      output Real y = 0;
    protected
      Real power = 1;
    algorithm
      for k in 1:size(c, 1) loop
        y := y + c[k]*power;
        power := power*x;
      end for;
      if y < 0 then
        y := -y;
      end if;
      annotation(Inline = true);
    end polynomial;
    function kept "not annotated: stays a function"
      input Real u;
      output Real y;
    algorithm
      y := 2*u;
    end kept;
    model Use
      Real s = sin(time);
      Real c = clip(3*time);
      Real p = polynomial(time, {1, -2, 3});
      Real k = kept(time);
    end Use;
  end Inlined;

  package Duplicates "An element declared again as inherited, with another description"
    partial block Hold
      parameter Integer y_start = 0 "start value";
      output Integer y;
    end Hold;
    block ZeroHold
      extends Hold;
      parameter Integer y_start = 0 "value before the first sample";
    equation
      y = y_start;
    end ZeroHold;
    block Different
      extends Hold;
      parameter Integer y_start = 1 "another value";
    equation
      y = y_start;
    end Different;
  end Duplicates;

  package RecordBindings "Whole records bound: final fields keep their own bindings"
    record FrictionParameters
      parameter Real PRef = 1;
      parameter Real wRef = 2;
      final parameter Real tauRef = PRef/wRef;
    end FrictionParameters;
    record CoreParameters
      parameter Integer m;
      parameter Real PRef = 1;
      final parameter Real GcRef = PRef/m;
    end CoreParameters;
    model Core
      parameter CoreParameters coreParameters(m = 3);
      final parameter Integer m = coreParameters.m;
      Real loss = coreParameters.GcRef*time;
    end Core;
    model Friction
      parameter FrictionParameters p;
      Real tau = p.tauRef*time;
    end Friction;
    model Machine
      parameter FrictionParameters frictionParameters(PRef = 4);
      parameter CoreParameters statorCoreParameters(m = 5, PRef = 2);
      Friction friction(final p = frictionParameters);
      Core core(final coreParameters = statorCoreParameters);
    end Machine;
  end RecordBindings;

  package Types "Modified types on arrays; stateSelect from a parameter"
    type Voltage = Real(final quantity = "Voltage", final unit = "V");
    type Angle = Real(final unit = "rad");
    model Phases
      parameter StateSelect stateSelect = StateSelect.prefer;
      Voltage v[3](each start = 1) = {time, 2*time, 3*time};
      Angle phi(stateSelect = stateSelect, start = 0, fixed = true);
    equation
      der(phi) = 1;
    end Phases;
  end Types;

  package Evaluated "Functions evaluated while flattening: sizes, conditions, constant arrays"
    function baseSystems
      input Integer m;
      output Integer n;
    algorithm
      n := if mod(m, 2) == 0 then (if m == 2 then 1 else 2*baseSystems(integer(m/2))) else 1;
    end baseSystems;
    function orientation "a comprehension over a range the input gives"
      input Integer m;
      output Real angle[m];
    algorithm
      angle := {(k - 1)*2*3.141592653589793/m for k in 1:m};
    end orientation;
    model Polyphase
      parameter Integer m = 6;
      final parameter Integer n = baseSystems(m);
      parameter Real angle[m] = orientation(m);
      Real x[n] = fill(time, n);
      Real y[m] = orientation(m)*time;
      // (a conditional component is only modified or connected, MLS 4.4.5)
      Real z = 1 if baseSystems(m) > 1;
    end Polyphase;
    function allGiven "outputs bound by their declarations, no algorithm"
      input Boolean b[:];
      output Boolean result = size(b, 1) > 0 and max(b);
    algorithm
    end allGiven;
    model Given
      Boolean any = allGiven({false, time > 0.5});
    end Given;
  end Evaluated;

  package RecordFunctions "Records as inputs and outputs of functions"
    record Point
      Real x;
      Real y;
    end Point;
    record Segment
      Point a;
      Point b;
      Real w = 1;
    end Segment;
    function length "not inlined: a record input, a loop"
      input Segment s;
      output Real l;
    protected
      Real d;
    algorithm
      l := 0;
      for k in 1:2 loop
        d := if k == 1 then s.b.x - s.a.x else s.b.y - s.a.y;
        l := l + d^2;
      end for;
      l := s.w*sqrt(l);
    end length;
    function middle "a record output assigned field by field"
      input Segment s;
      output Point p;
    algorithm
      p.x := (s.a.x + s.b.x)/2;
      p.y := (s.a.y + s.b.y)/2;
    end middle;
    function scaled "a record output bound by its declaration"
      input Point p;
      input Real k = 2;
      output Point q = Point(k*p.x, k*p.y);
    algorithm
    end scaled;
    function farther "records inside expressions: temporaries"
      input Segment s;
      output Real r;
    protected
      Point p;
    algorithm
      p := scaled(middle(s), 3);
      r := p.y + length(Segment(s.a, scaled(s.b), 1));
    end farther;
    model UseRecords
      Segment s(a(x = 0, y = 0), b(x = time, y = 2*time));
      Real l = length(s);
      Point m = middle(s);
      Point q = scaled(m);
      Real r = farther(s);
      annotation(experiment(StopTime = 1));
    end UseRecords;
  end RecordFunctions;

  package Operators "An operator record of one's own (MLS 14), like Complex"
    operator record Cplx
      Real re;
      Real im;
      encapsulated operator 'constructor'
        import Constructs.Operators.Cplx;
        function fromReal
          input Real re;
          input Real im = 0;
          output Cplx result(re = re, im = im);
        algorithm
          annotation(Inline = true);
        end fromReal;
      end 'constructor';
      encapsulated operator '-'
        import Constructs.Operators.Cplx;
        function negate
          input Cplx c;
          output Cplx n;
        algorithm
          n := Cplx(-c.re, -c.im);
          annotation(Inline = true);
        end negate;
        function subtract
          input Cplx a;
          input Cplx b;
          output Cplx c;
        algorithm
          c := Cplx(a.re - b.re, a.im - b.im);
          annotation(Inline = true);
        end subtract;
      end '-';
      encapsulated operator function '+'
        import Constructs.Operators.Cplx;
        input Cplx a;
        input Cplx b;
        output Cplx c;
      algorithm
        c := Cplx(a.re + b.re, a.im + b.im);
        annotation(Inline = true);
      end '+';
      encapsulated operator '*'
        import Constructs.Operators.Cplx;
        function multiply
          input Cplx a;
          input Cplx b;
          output Cplx c;
        algorithm
          c := Cplx(a.re*b.re - a.im*b.im, a.re*b.im + a.im*b.re);
          annotation(Inline = true);
        end multiply;
      end '*';
      encapsulated operator function '=='
        import Constructs.Operators.Cplx;
        input Cplx a;
        input Cplx b;
        output Boolean result;
      algorithm
        result := a.re == b.re and a.im == b.im;
        annotation(Inline = true);
      end '==';
    end Cplx;
    function magnitude
      input Cplx c;
      output Real r;
    algorithm
      r := sqrt(c.re^2 + c.im^2);
      annotation(Inline = true);
    end magnitude;
    function rotated "operators inside a function that is kept"
      input Cplx c;
      input Real angle;
      output Cplx r;
    protected
      Cplx turn = Cplx(cos(angle), sin(angle));
    algorithm
      r := c*turn;
    end rotated;
    model Use
      Cplx a = Cplx(1, 2);
      Cplx b(re = time, im = 3);
      Cplx c = a*b - a + Cplx(1);
      Cplx d = 2*a - b;
      Cplx e = -a;
      Cplx f = rotated(a, time);
      Real m = magnitude(c);
      Boolean same = a == Cplx(1, 2);
    end Use;
  end Operators;

  package Graph "An overdetermined connection graph (MLS 9.4), like the quasi-static AC pins"
    record Reference "overdetermined: a reference angle"
      Real gamma;
      function equalityConstraint
        input Reference reference1;
        input Reference reference2;
        output Real residue[0];
      algorithm
      end equalityConstraint;
    end Reference;
    connector Pin
      Real v;
      flow Real i;
      Reference reference;
    end Pin;
    partial model TwoPin
      Pin p;
      Pin n;
      Real omega;
    equation
      Connections.branch(p.reference, n.reference);
      p.reference.gamma = n.reference.gamma;
      omega = der(p.reference.gamma);
      p.i + n.i = 0;
    end TwoPin;
    model Resistor
      extends TwoPin;
      parameter Real R = 1;
    equation
      p.v - n.v = R*p.i;
    end Resistor;
    model Source
      extends TwoPin;
      parameter Real V = 1;
      parameter Real w = 1;
    equation
      Connections.root(p.reference);
      omega = w;
      p.v - n.v = V;
    end Source;
    model Ground
      Pin p;
      Boolean isRoot = Connections.isRoot(p.reference);
    equation
      Connections.potentialRoot(p.reference, 256);
      if Connections.isRoot(p.reference) then
        p.reference.gamma = 0;
      end if;
      p.v = 0;
    end Ground;
    model Ring "source, two resistors in a loop through the ground: one connect is broken"
      Source source(V = 2, w = 3);
      Resistor r1(R = 1);
      Resistor r2(R = 3);
      Ground ground;
      Integer groundConnections = cardinality(ground.p);
    equation
      connect(source.p, r1.p);
      connect(r1.n, r2.p);
      connect(r2.n, ground.p);
      connect(ground.p, source.n);
      annotation(experiment(StopTime = 1));
    end Ring;
    model Floating "no definite root: the ground's potential root is the root"
      Resistor r(R = 2);
      Ground ground;
    equation
      connect(r.p, ground.p);
      connect(r.n, ground.p);
    end Floating;
  end Graph;

  package Flows "flow on a record component makes its fields flows"
    record Pair
      Real a;
      Real b;
    end Pair;
    connector Port
      Pair e;
      flow Pair f;
    end Port;
    model Load
      Port port;
    equation
      port.f.a = port.e.a;
      port.f.b = 2*port.e.b;
    end Load;
    model Supply
      Port port;
    equation
      port.e.a = 1;
      port.e.b = time;
    end Supply;
    model Circuit
      Supply supply;
      Load load;
    equation
      connect(supply.port, load.port);
    end Circuit;
  end Flows;

  package States "der(phi) selected as a state beside phi (a second-order chain)"
    model Inertia
      parameter StateSelect stateSelect = StateSelect.default;
      Real phi(stateSelect = stateSelect, start = 0, fixed = true);
      Real w(stateSelect = stateSelect);
      Real a;
    equation
      w = der(phi);
      a = der(w);
    end Inertia;
    model Drive
      Inertia inertia(w(start = 0, fixed = true));
      Real tau = 1 - inertia.w;
    equation
      inertia.a = tau;
      annotation(experiment(StopTime = 1));
    end Drive;
  end States;

  package Subscripts "Arrays over enumerations, subscripts that vary"
    type Level = enumeration(low, mid, high);
    model Lookup
      constant Integer next[Level] = {2, 3, 1};
      constant Real gain[Level, Boolean] = {{1, 10}, {2, 20}, {3, 30}};
      discrete Level state(start = Level.low, fixed = true);
      discrete Integer n(start = 1, fixed = true);
      Boolean on = time > 0.25;
      Real g;
    equation
      when sample(0.1, 0.1) then
        n = next[pre(state)];
        state = if pre(n) == 1 then Level.mid elseif pre(n) == 2 then Level.high else Level.low;
      end when;
      g = gain[state, on];
      annotation(experiment(StopTime = 0.5));
    end Lookup;
  end Subscripts;

  package Initial "A parameter computed by the initial algorithm (fixed = false)"
    model Friction
      parameter Real dpNominal = 4;
      parameter Real V_flowNominal = 2;
      parameter Real k(fixed = false);
      Real dp = k*time^2;
    initial algorithm
      k := dpNominal/V_flowNominal^2;
    end Friction;
    model Seeds "a parameter bound to one the initialization computes is computed too"
      parameter Integer fixedSeed = 7;
      final parameter Integer seed(fixed = false);
      parameter Integer actual = 2*seed;
      Real x = actual*time;
    initial equation
      seed = fixedSeed + 1;
    end Seeds;
  end Initial;

  package Internal "A protected connector set by the public one it is connected to (MLS 9.3)"
    connector RealInput = input Real;
    connector RealOutput = output Real;
    block Cosine
      parameter Boolean useConstant = false;
      parameter Real constantAmplitude = 1;
      RealInput amplitude if not useConstant;
      RealOutput y;
    protected
      RealInput amplitude_internal;
    equation
      connect(amplitude, amplitude_internal);
      if useConstant then
        amplitude_internal = constantAmplitude;
      end if;
      y = amplitude_internal*cos(time);
    end Cosine;
    model Use
      Cosine c(amplitude = 2);
      String who = getInstanceName();
    end Use;
  end Internal;

  package ComponentFunctions "A function of a component's class, modified by the component"
    partial function partialGravity
      input Real r[3];
      output Real g[3];
    end partialGravity;
    function uniformGravity
      extends partialGravity;
      input Real n[3] = {0, -1, 0};
      input Real g0 = 9.81;
    algorithm
      g := g0*n;
    end uniformGravity;
    model World
      parameter Real g = 9.81;
      parameter Real n[3] = {0, -1, 0};
      replaceable function gravity = uniformGravity(n = n, g0 = g) constrainedby partialGravity;
    end World;
    model Body
      outer World world;
      Real r[3] = {time, 0, 0};
      Real a[3] = world.gravity(r);
    end Body;
    model Scene
      inner World world(g = 3, n = {1, 0, 0});
      Body body;
    end Scene;
  end ComponentFunctions;

  package ArrayTypes "A type with dimensions and array attributes; each in nested arrays"
    type Sequence = Integer[3](min = {1, 1, 1}, max = {3, 3, 3});
    model Shape
      parameter Real direction[3] = {1, 0, 0};
      parameter Sequence sequence = {1, 2, 3};
    end Shape;
    model Lines
      parameter Integer n = 2;
      Shape shapes[n](each direction = {0, 1, 0});
    end Lines;
  end ArrayTypes;

  package ArrayResults "Array results inside expressions of functions (temporaries)"
    function normalize
      input Real v[:];
      output Real result[size(v, 1)];
    algorithm
      result := v/sqrt(v*v);
    end normalize;
    function heading "normalize() inside an expression"
      input Real v[3];
      output Real angle;
    algorithm
      angle := atan2(normalize(v)*{0, 1, 0}, normalize(v)*{1, 0, 0});
    end heading;
    model Use
      Real angle = heading({1, time, 0});
      Real projection = {1, 0, 0}*normalize({time, 1, 0}) "an array result in a model expression";
    end Use;
  end ArrayResults;

  package Loops "break in a for-loop of a model's algorithm (unrolled, with a flag)"
    model FirstAbove
      parameter Real limits[4] = {0.2, 0.4, 0.6, 0.8};
      discrete Integer index(start = 0, fixed = true);
      discrete Integer checked(start = 0, fixed = true);
    algorithm
      when sample(0, 0.1) then
        index := 0;
        checked := 0;
        for i in 1:4 loop
          checked := checked + 1;
          if time < limits[i] then
            index := i;
            break;
          end if;
        end for;
      end when;
      annotation(experiment(StopTime = 1));
    end FirstAbove;
  end Loops;

  package Buses "Expandable connectors: members made by connections, sub-buses joined"
    connector RealOutput = output Real;
    connector RealInput = input Real;
    expandable connector SubBus
      Real declaredButUnused;
      Real level;
    end SubBus;
    expandable connector Bus
      Real speed "declared and connected";
      Real unused "declared, never connected: not present";
      SubBus sub;
    end Bus;
    model Sensor
      RealOutput y = 2*time;
    end Sensor;
    model Part
      SubBus sub;
      RealOutput level = 3*time;
    equation
      connect(level, sub.level);
    end Part;
    model Controller
      RealInput u;
      RealInput torque;
      Real x = u + torque;
    end Controller;
    model System
      Bus bus;
      Sensor speed;
      Sensor torque;
      Part part;
      Controller controller;
    equation
      connect(speed.y, bus.speed);
      connect(torque.y, bus.torque) "a member the bus does not declare";
      connect(bus.speed, controller.u);
      connect(bus.torque, controller.torque);
      connect(part.sub, bus.sub);
    end System;
  end Buses;

  package Vectorized "A function of scalars applied to an array (MLS 12.4.6)"
    record Pair
      Real re;
      Real im;
    end Pair;
    function magnitude
      input Pair p;
      output Real m;
    algorithm
      m := sqrt(p.re^2 + p.im^2);
    end magnitude;
    model Use
      Pair p[3] = {Pair(1, 0), Pair(0, 2), Pair(3, 4)};
      Real m[3] = magnitude(p);
    end Use;
  end Vectorized;

  package Events "A relation reading what the event iteration computes (a StateGraph timer)"
    model Timer
      discrete Real t_start(start = 0, fixed = true);
      Boolean enable = time > 1.5;
      Boolean fire;
      Integer count(start = 0, fixed = true);
    equation
      when enable then
        t_start = time;
      end when;
      fire = enable and time >= t_start + 1;
      when fire then
        count = pre(count) + 1;
      end when;
      annotation(experiment(StopTime = 3));
    end Timer;
  end Events;
end Constructs;
