package Events "Hybrid models: state events, hysteresis with pre, sampled updates"
  model BouncingBall
    parameter Real e = 0.7 "Coefficient of restitution";
    parameter Real g = 9.81;
    Real h(start = 2, fixed = true);
    Real v(start = 0, fixed = true);
    Integer bounces(start = 0, fixed = true);
  equation
    der(h) = v;
    der(v) = -g;
    when h <= 0 then
      reinit(v, -e*pre(v));
      bounces = pre(bounces) + 1;
    end when;
    annotation(experiment(StopTime = 3, Tolerance = 1e-9));
  end BouncingBall;

  model Thermostat
    parameter Real T_on = 18 "Heater switches on below";
    parameter Real T_off = 22 "Heater switches off above";
    parameter Real T_out = 5;
    parameter Real k = 0.2;
    parameter Real P = 5;
    Real T(start = 12, fixed = true);
    Boolean heating(start = false, fixed = true);
  equation
    heating = if pre(heating) then T < T_off else T < T_on;
    der(T) = k*(T_out - T) + (if heating then P else 0);
    annotation(experiment(StopTime = 20, Tolerance = 1e-9));
  end Thermostat;

  model SampledCounter
    Integer count(start = 0, fixed = true);
    Real x(start = 0, fixed = true);
    Real y;
  equation
    when sample(0, 0.1) then
      count = pre(count) + 1;
    end when;
    der(x) = count;
    y = 2*x;
    annotation(experiment(StopTime = 1));
  end SampledCounter;
end Events;
