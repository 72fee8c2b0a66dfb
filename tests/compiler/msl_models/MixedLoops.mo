package MixedLoops "Loops through discrete variables (MLS 8.6): ideal switching elements, a
  Schmitt trigger, Coulomb friction, a delay that waits on its own algorithm"

  connector Pin "an electrical pin"
    Real v "potential";
    flow Real i "current into the component";
  end Pin;

  partial model OnePort "two pins, the voltage across and the current through"
    Pin p, n;
    Real v "voltage drop from p to n";
    Real i "current from p to n";
  equation
    v = p.v - n.v;
    0 = p.i + n.i;
    i = p.i;
  end OnePort;

  model Resistor
    extends OnePort;
    parameter Real R = 1;
  equation
    v = R*i;
  end Resistor;

  model Capacitor
    extends OnePort;
    parameter Real C = 1;
  equation
    C*der(v) = i;
  end Capacitor;

  model Ground
    Pin p;
  equation
    p.v = 0;
  end Ground;

  model SineVoltage "v = V*sin(2*pi*f*time)"
    extends OnePort;
    parameter Real V = 1, f = 1;
  equation
    v = V*sin(2*3.141592653589793*f*time);
  end SineVoltage;

  model Diode "an ideal diode: a tiny resistance when conducting, a tiny conductance when
    blocking; the parameter s of the characteristic's two branches decides which"
    extends OnePort;
    parameter Real Ron = 1e-5, Goff = 1e-5;
    Boolean off(start = true) "blocking";
    Real s(start = 0) "current (conducting) or voltage (blocking)";
  equation
    off = s < 0;
    v = s*(if off then 1 else Ron);
    i = s*(if off then Goff else 1);
  end Diode;

  model SingleDiode "the diode of the task: its state at the start is a mixed loop"
    parameter Real Ron = 1e-5, Goff = 1e-5, R = 10;
    Boolean off(start = true);
    Real s(start = 0);
    Real v, i, vs;
  equation
    vs = sin(2*3.14159*time);
    off = s < 0;
    v = s*(if off then 1 else Ron);
    i = s*(if off then Goff else 1);
    vs = v + R*i;
    annotation(experiment(StopTime = 2));
  end SingleDiode;

  model HalfWave "a half-wave rectifier feeding an RC load; the capacitor starts charged
    above the source, so the diode starts blocking"
    SineVoltage source(V = 10, f = 5);
    Diode diode(Ron = 1e-3, Goff = 1e-6, off(start = false));
    Resistor load(R = 100);
    Capacitor smoothing(C = 1e-3, v(start = 2, fixed = true));
    Ground ground;
  equation
    connect(source.p, diode.p);
    connect(diode.n, load.p);
    connect(diode.n, smoothing.p);
    connect(load.n, ground.p);
    connect(smoothing.n, ground.p);
    connect(source.n, ground.p);
    annotation(experiment(StopTime = 0.5));
  end HalfWave;

  model Bridge "a diode bridge (full-wave rectifier) feeding an RC load: four switching
    elements in one loop"
    SineVoltage source(V = 10, f = 5);
    Diode d1(Ron = 1e-3, Goff = 1e-6), d2(Ron = 1e-3, Goff = 1e-6),
      d3(Ron = 1e-3, Goff = 1e-6), d4(Ron = 1e-3, Goff = 1e-6);
    Resistor load(R = 100);
    Capacitor smoothing(C = 1e-3, v(start = 1, fixed = true));
    Ground ground;
  equation
    connect(source.p, d1.p);
    connect(source.n, d2.p);
    connect(d1.n, load.p);
    connect(d2.n, load.p);
    connect(d3.n, source.p);
    connect(d4.n, source.n);
    connect(d3.p, load.n);
    connect(d4.p, load.n);
    connect(load.p, smoothing.p);
    connect(load.n, smoothing.n);
    connect(source.n, ground.p);
    annotation(experiment(StopTime = 0.5));
  end Bridge;

  model SchmittTrigger "an ideal switch with hysteresis made by positive feedback: the
    switch reads u, which reads the switch; an integrator turns it into a relaxation
    oscillator (x runs as a triangle wave between -a and a)"
    parameter Real a = 0.5 "feedback: half the width of the hysteresis";
    Real x(start = 0, fixed = true);
    Real u "the switch's input";
    Boolean on(start = false) "the switch";
  equation
    u = x + a*(if on then 1 else -1);
    on = u > 0;
    der(x) = if on then -1 else 1;
    annotation(experiment(StopTime = 5));
  end SchmittTrigger;

  model StickSlip "a mass pushed by F = A*sin(w*time) over a floor with Coulomb friction mu
    (also the largest force it holds while stuck); sa is the friction force while stuck and
    the force that drives the mass (F) while sliding"
    parameter Real m = 1, A = 2, w = 1, mu = 1;
    Real x(start = 0, fixed = true), v(start = 0, fixed = true);
    Real a, f "acceleration, friction force";
    Real F "pushing force";
    Real sa;
    Boolean startForward(start = false, fixed = true), startBackward(start = false, fixed = true);
    Boolean stuck(start = true) "held by friction";
    Integer mode(start = 0, fixed = true) "1 sliding forward, -1 backward, 0 stuck";
  equation
    F = A*sin(w*time);
    der(x) = v;
    der(v) = a;
    m*a = F - f;
    startForward = pre(mode) == 0 and sa > mu or initial() and v > 0;
    startBackward = pre(mode) == 0 and sa < -mu or initial() and v < 0;
    stuck = not (startForward or startBackward or pre(mode) == 1 or pre(mode) == -1);
    a = if stuck then 0 else
      (if startForward or pre(mode) == 1 then (sa - mu)/m else (sa + mu)/m);
    f = if stuck then sa else (if startForward or pre(mode) == 1 then mu else -mu);
    mode = if stuck then 0
      else if (pre(mode) == 1 or startForward) and v > 0 then 1
      else if (pre(mode) == -1 or startBackward) and v < 0 then -1
      else 0;
    annotation(experiment(StopTime = 10));
  end StickSlip;

  model InertialDelay "x passes on to y once it has held its value for T: the algorithm
    waits on a condition it computes itself (held)"
    parameter Real T = 0.25;
    Boolean x "the input: a short glitch, then a long pulse";
    Boolean y(start = false, fixed = true) "the delayed input";
    Boolean held(start = false) "x has held its value for T";
    discrete Real tChange(start = 0, fixed = true) "when x last changed";
  algorithm
    when change(x) then
      tChange := time;
    end when;
    held := time >= tChange + T;
    when held then
      y := x;
    end when;
  equation
    x = time >= 0.1 and time < 0.2 or time >= 0.4 and time < 0.9;
    annotation(experiment(StopTime = 1.5));
  end InertialDelay;

  model StartedByInitialAlgorithm "an initial algorithm decides what an algorithm assigns
    only in a when-statement (it keeps its pre value at initialization)"
    Integer count(start = 0, fixed = true);
    Integer code;
  initial algorithm
    code := 7;
  algorithm
    when sample(0.1, 0.1) then
      count := pre(count) + 1;
      code := 2*count;
    end when;
    annotation(experiment(StopTime = 0.35));
  end StartedByInitialAlgorithm;

  model SampledMean "the mean current of a half-wave rectifier over each period of its
    source, sampled at the instants where the source crosses zero and the diode switches"
    parameter Real R = 10;
    Diode diode;
    Resistor load(R = R);
    SineVoltage source(V = 1, f = 1);
    Ground ground;
    Real charge(start = 0, fixed = true) "since the last sample";
    discrete Real mean(start = 0, fixed = true);
  equation
    connect(source.p, diode.p);
    connect(diode.n, load.p);
    connect(load.n, ground.p);
    connect(source.n, ground.p);
    der(charge) = load.i;
    when sample(1, 1) then
      mean = pre(charge);
      reinit(charge, 0);
    end when;
    annotation(experiment(StopTime = 3.5));
  end SampledMean;

  model Flipping "no consistent state: b flips x, x flips b"
    Boolean b(start = false);
    Real x;
  equation
    x = if b then 1 else -1;
    b = x < 0;
  end Flipping;
end MixedLoops;
