model Thermostat "A room heated by a heater switched on and off with hysteresis"
  parameter Real T_low = 19 "Switch the heater on below";
  parameter Real T_high = 21 "Switch the heater off above";
  parameter Real T_ambient = 10 "Outside temperature";
  parameter Real k = 0.1 "Heat loss rate";
  parameter Real P = 2 "Heating rate";
  Real T(start = 15, fixed = true) "Room temperature";
  Boolean heating(start = true, fixed = true) "Heater on";
equation
  der(T) = -k*(T - T_ambient) + (if heating then P else 0);
  heating = if pre(heating) then T < T_high else T < T_low;
  annotation(experiment(StopTime = 100));
end Thermostat;
