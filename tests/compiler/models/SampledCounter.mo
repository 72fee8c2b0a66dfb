model SampledCounter "Counts clock ticks every 0.1 s and integrates the count"
  Integer count(start = 0, fixed = true) "Ticks so far";
  Real x(start = 0, fixed = true) "Integral of the count";
equation
  when sample(0, 0.1) then
    count = pre(count) + 1;
  end when;
  der(x) = count;
  annotation(experiment(StopTime = 1));
end SampledCounter;
