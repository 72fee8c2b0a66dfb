model Tank "Water tank filled by a pump, drained through a valve (outflow by Torricelli's law)"
  parameter Real A(unit = "m2") = 0.5 "Cross-section";
  parameter Real c(unit = "m2.5/s") = 0.01 "Valve coefficient: outflow c sqrt(h)";
  parameter Real h0(unit = "m") = 0.2 "Initial level";
  input Real q_in(unit = "m3/s") "Pump flow";
  output Real h(unit = "m", start = h0, fixed = true) "Level";
  output Real q_out(unit = "m3/s") "Outflow";
equation
  q_out = c*sqrt(max(h, 0));
  A*der(h) = q_in - q_out;
end Tank;
