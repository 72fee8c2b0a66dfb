package Analog "Analog circuits: pins with potential and current"
  connector Pin
    Real v(unit = "V");
    flow Real i(unit = "A");
  end Pin;

  partial model TwoPin
    Pin p;
    Pin n;
    Real v(unit = "V") "Voltage p - n";
    Real i(unit = "A") "Current from p to n";
  equation
    v = p.v - n.v;
    0 = p.i + n.i;
    i = p.i;
  end TwoPin;

  model Resistor
    extends TwoPin;
    parameter Real R(unit = "Ohm") = 1;
  equation
    v = R*i;
  end Resistor;

  model Capacitor
    extends TwoPin;
    parameter Real C(unit = "F") = 1;
  equation
    C*der(v) = i;
  end Capacitor;

  model Diode "Exponential diode (nonlinear)"
    extends TwoPin;
    parameter Real Is(unit = "A") = 1e-9 "Saturation current";
    parameter Real Vt(unit = "V") = 0.025 "Thermal voltage";
  equation
    i = Is*(exp(v/Vt) - 1);
  end Diode;

  model Ground
    Pin p;
  equation
    p.v = 0;
  end Ground;

  model ConstantVoltage
    extends TwoPin;
    parameter Real V(unit = "V") = 1;
  equation
    v = V;
  end ConstantVoltage;

  model RC "A 5 V source charging a capacitor through a resistor"
    ConstantVoltage source(V = 5);
    Resistor resistor(R = 2e3);
    Capacitor capacitor(C = 1e-4, v(start = 0, fixed = true));
    Ground ground;
  equation
    connect(source.p, resistor.p);
    connect(resistor.n, capacitor.p);
    connect(capacitor.n, source.n);
    connect(source.n, ground.p);
    annotation(experiment(StopTime = 1, Tolerance = 1e-9));
  end RC;

  model DiodeCharger "A capacitor charged through a resistor and a diode: a nonlinear loop"
    ConstantVoltage source(V = 2);
    Resistor resistor(R = 100);
    Diode diode;
    Capacitor capacitor(C = 1e-3, v(start = 0, fixed = true));
    Ground ground;
  equation
    connect(source.p, resistor.p);
    connect(resistor.n, diode.p);
    connect(diode.n, capacitor.p);
    connect(capacitor.n, source.n);
    connect(source.n, ground.p);
    annotation(experiment(StopTime = 1, Tolerance = 1e-9));
  end DiodeCharger;
  model ParallelCapacitors "Two capacitors in parallel: their voltages are tied (index 2)"
    ConstantVoltage source(V = 3);
    Resistor resistor(R = 10);
    Capacitor c1(C = 0.01, v(start = 0, fixed = true));
    Capacitor c2(C = 0.03);
    Ground ground;
  equation
    connect(source.p, resistor.p);
    connect(resistor.n, c1.p);
    connect(resistor.n, c2.p);
    connect(c1.n, source.n);
    connect(c2.n, source.n);
    connect(source.n, ground.p);
    annotation(experiment(StopTime = 1, Tolerance = 1e-9));
  end ParallelCapacitors;
end Analog;
