within;
package Electrical "Analog circuits with potential and current"
  connector Pin "Electrical pin"
    Real v(unit = "V") "Potential at the pin";
    flow Real i(unit = "A") "Current flowing into the pin";
  end Pin;

  partial model OnePort "Component with two pins and one current through it"
    Real v(unit = "V") "Voltage drop from p to n";
    Real i(unit = "A") "Current from p to n";
    Pin p "Positive pin";
    Pin n "Negative pin";
  equation
    v = p.v - n.v;
    0 = p.i + n.i;
    i = p.i;
  end OnePort;

  model Resistor
    extends OnePort;
    parameter Real R(unit = "Ohm") = 1 "Resistance";
  equation
    v = R*i;
  end Resistor;

  model Capacitor
    extends OnePort;
    parameter Real C(unit = "F") = 1 "Capacitance";
  equation
    i = C*der(v);
  end Capacitor;

  model Ground
    Pin p;
  equation
    p.v = 0;
  end Ground;

  model ConstantVoltage
    extends OnePort;
    parameter Real V(unit = "V") = 1 "Source voltage";
  equation
    v = V;
  end ConstantVoltage;

  model RCCircuit "A capacitor charged through a resistor from a 10 V source"
    ConstantVoltage source(V = 10);
    Resistor resistor(R = 100);
    Capacitor capacitor(C = 1e-3, v(start = 0, fixed = true));
    Ground ground;
  equation
    connect(source.p, resistor.p);
    connect(resistor.n, capacitor.p);
    connect(capacitor.n, source.n);
    connect(source.n, ground.p);
    annotation(experiment(StopTime = 0.5, Interval = 0.001));
  end RCCircuit;
end Electrical;
