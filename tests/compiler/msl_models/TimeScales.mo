package TimeScales "Simulations of picoseconds: their events and steps must not merge into t = 0"
  model Pulse "A periodic trapezoid pulse in picoseconds, its phases as time events"
    parameter Real V = 5;
    parameter Real delay = 4e-12, rise = 0.1e-12, width = 1e-12, period = 2e-12;
    Real T0(start = delay, fixed = true) "start of the current period";
    Real v;
  equation
    when sample(delay, period) then
      T0 = time;
    end when;
    v = if time < delay or time >= T0 + rise + width + rise then 0
        else if time < T0 + rise then (time - T0)*V/rise
        else if time < T0 + rise + width then V
        else (T0 + rise + width + rise - time)*V/rise;
    annotation(experiment(StopTime = 1e-11, Interval = 5e-14));
  end Pulse;

  model ChargedRC "An RC stage with a 1 ps time constant, charged while u > 2.5 (a state event)"
    parameter Real tau = 1e-12;
    Pulse source;
    Boolean on = source.v > 2.5;
    Real x(start = 0, fixed = true);
  equation
    tau*der(x) = (if on then 1 else 0) - x;
    annotation(experiment(StopTime = 1e-11, Interval = 5e-14));
  end ChargedRC;
end TimeScales;
