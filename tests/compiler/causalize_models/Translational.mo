package Translational "One-dimensional mechanics built from components sharing a flange"
  connector Flange
    Real s(unit = "m") "Position";
    flow Real f(unit = "N") "Force into the component";
  end Flange;

  partial model TwoFlanges
    Flange a;
    Flange b;
  end TwoFlanges;

  model Mass
    extends TwoFlanges;
    parameter Real m(unit = "kg") = 1;
    Real s(unit = "m", stateSelect = StateSelect.prefer);
    Real v(unit = "m/s", stateSelect = StateSelect.prefer);
  equation
    a.s = s;
    b.s = s;
    der(s) = v;
    m*der(v) = a.f + b.f;
  end Mass;

  partial model Compliant
    extends TwoFlanges;
    Real s_rel(unit = "m") "Elongation";
    Real f(unit = "N") "Force from a to b";
  equation
    s_rel = b.s - a.s;
    b.f = f;
    a.f = -f;
  end Compliant;

  model Spring
    extends Compliant;
    parameter Real c(unit = "N/m") = 1;
    parameter Real s_rel0(unit = "m") = 0;
  equation
    f = c*(s_rel - s_rel0);
  end Spring;

  model Damper
    extends Compliant;
    parameter Real d(unit = "N.s/m") = 0;
  equation
    f = d*der(s_rel);
  end Damper;

  model Fixed
    parameter Real s0(unit = "m") = 0;
    Flange a;
  equation
    a.s = s0;
  end Fixed;

  model Oscillator "Mass on a spring and a damper to a wall, released from rest at 0.5 m"
    Mass mass(m = 2, s(start = 0.5, fixed = true), v(start = 0, fixed = true));
    Spring spring(c = 50);
    Damper damper(d = 1.5);
    Fixed wall;
  equation
    connect(wall.a, spring.a);
    connect(wall.a, damper.a);
    connect(spring.b, mass.a);
    connect(damper.b, mass.a);
    annotation(experiment(StopTime = 5, Tolerance = 1e-9));
  end Oscillator;

  model Chain "N masses in a row, linked to a wall and to each other by springs"
    parameter Integer N = 3;
    Mass mass[N](each m = 1, s(each fixed = true, start = {0.1*i for i in 1:N}),
                 each v(start = 0, fixed = true));
    Spring spring[N](each c = 100);
    Fixed wall;
  equation
    connect(wall.a, spring[1].a);
    for i in 1:N loop
      connect(spring[i].b, mass[i].a);
    end for;
    for i in 1:N - 1 loop
      connect(mass[i].b, spring[i + 1].a);
    end for;
    annotation(experiment(StopTime = 1));
  end Chain;
end Translational;
