package Interface "Models for the FMU interface: parameters, names, aliases, experiment, asserts"
  model Body
    parameter Real m = 1 "Mass";
    Real s(start = 0, fixed = true) "Position";
    Real v(start = 1, fixed = true) "Velocity";
  equation
    der(s) = v;
    m*der(v) = -s;
  end Body;

  model Decay "Tunable, final and evaluated parameters; arrays, components, aliases"
    parameter Real k = 2 "Rate";
    parameter Real x0 = 1 "Initial value";
    final parameter Real twice = 2*k;
    final parameter Real gain = 4;
    parameter Real offset = 3 annotation(Evaluate = true);
    parameter Integer N = 3;
    Real x(start = x0, fixed = true);
    Real T[N](each start = 0, each fixed = true);
    Body body(m = 2);
    Real position = body.s;
    output Real y;
  protected
    Real shifted;
    output Real secret "An output declared protected stays inside";
  equation
    der(x) = -k*x;
    for i in 1:N loop
      der(T[i]) = i - T[i];
    end for;
    shifted = x + offset + twice + gain;
    y = 2*shifted;
    secret = 3*x;
    annotation(experiment(StartTime = 0.5, StopTime = 2, Tolerance = 1e-7, Interval = 0.01));
  end Decay;

  model Guarded "An assert that fails when x drops below 0.2"
    Real x(start = 1, fixed = true);
  equation
    der(x) = -x;
    assert(x > 0.2, "x too small: " + String(x));
    annotation(experiment(StopTime = 3));
  end Guarded;

  model Stops "terminate() once x passes 0.5"
    Real x(start = 1, fixed = true);
  equation
    der(x) = -x;
    when x < 0.5 then
      terminate("x fell below 0.5");
    end when;
    annotation(experiment(StopTime = 3));
  end Stops;
end Interface;
