model Thermostat "On/off room thermostat with a hysteresis band around the set point"
  parameter Real T_set(unit = "degC") = 21 "Set point";
  parameter Real band(unit = "K") = 1 "Width of the hysteresis band";
  input Real T(unit = "degC") "Measured room temperature";
  output Boolean heat(start = false, fixed = true) "Heater on";
  output Integer starts(start = 0, fixed = true) "Times the heater was switched on";
equation
  heat = if pre(heat) then T < T_set + band/2 else T < T_set - band/2;
  when heat then
    starts = pre(starts) + 1;
  end when;
end Thermostat;
