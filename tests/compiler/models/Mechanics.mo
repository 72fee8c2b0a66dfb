within;
package Mechanics "Translational mechanics: masses, springs and dampers on flanges"
  connector Flange "One-dimensional translational flange"
    Real s(unit = "m") "Absolute position";
    flow Real f(unit = "N") "Cut force into the component";
  end Flange;

  partial model PartialTwoFlanges
    Flange flange_a "Left flange";
    Flange flange_b "Right flange";
  end PartialTwoFlanges;

  model Mass "Sliding mass"
    extends PartialTwoFlanges;
    parameter Real m(unit = "kg", min = 0) = 1 "Mass";
    Real s(unit = "m", stateSelect = StateSelect.prefer) "Position";
    Real v(unit = "m/s") "Velocity";
  equation
    flange_a.s = s;
    flange_b.s = s;
    v = der(s);
    m*der(v) = flange_a.f + flange_b.f;
  end Mass;

  partial model PartialCompliant "Force between two flanges"
    extends PartialTwoFlanges;
    Real s_rel(unit = "m") "Relative distance";
    Real f(unit = "N") "Force from flange_a to flange_b";
  equation
    s_rel = flange_b.s - flange_a.s;
    flange_b.f = f;
    flange_a.f = -f;
  end PartialCompliant;

  model Spring "Linear spring"
    extends PartialCompliant;
    parameter Real c(unit = "N/m", min = 0) = 1 "Spring constant";
    parameter Real s_rel0(unit = "m") = 0 "Unstretched length";
  equation
    f = c*(s_rel - s_rel0);
  end Spring;

  model Damper "Linear damper"
    extends PartialCompliant;
    parameter Real d(unit = "N.s/m", min = 0) = 0 "Damping constant";
  equation
    f = d*der(s_rel);
  end Damper;

  model Fixed "Flange fixed in space"
    parameter Real s0(unit = "m") = 0 "Fixed position";
    Flange flange;
  equation
    flange.s = s0;
  end Fixed;

  model MassSpringDamper "A mass on a spring and a damper, released from 1 m"
    Mass mass(m = 1, s(start = 1, fixed = true), v(start = 0, fixed = true));
    Spring spring(c = 10);
    Damper damper(d = 0.5);
    Fixed fixed;
  equation
    connect(fixed.flange, spring.flange_a);
    connect(fixed.flange, damper.flange_a);
    connect(spring.flange_b, mass.flange_a);
    connect(damper.flange_b, mass.flange_a);
    annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-6, Interval = 0.01));
  end MassSpringDamper;

  model Chain "N masses linked by N springs to a fixed wall, the first mass displaced"
    parameter Integer N = 4 "Number of masses";
    parameter Real m = 1 "Mass of each body";
    parameter Real c = 100 "Stiffness of each spring";
    Mass mass[N](each m = m, s(start = {if i == 1 then 0.1 else 0 for i in 1:N},
                 each fixed = true), each v(start = 0, fixed = true));
    Spring spring[N](each c = c);
    Fixed fixed;
  equation
    connect(fixed.flange, spring[1].flange_a);
    for i in 1:N loop
      connect(spring[i].flange_b, mass[i].flange_a);
    end for;
    for i in 1:N - 1 loop
      connect(mass[i].flange_b, spring[i + 1].flange_a);
    end for;
    annotation(experiment(StopTime = 1));
  end Chain;
end Mechanics;
