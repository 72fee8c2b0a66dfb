model Room "Room air and building mass, losing heat to the outside, heated by an on/off heater"
  parameter Real C_air(unit = "J/K") = 2e6 "Heat capacity of the air and furniture";
  parameter Real C_wall(unit = "J/K") = 1.5e7 "Heat capacity of the walls";
  parameter Real UA_air_wall(unit = "W/K") = 600 "Conductance between the air and the walls";
  parameter Real UA_wall_out(unit = "W/K") = 120 "Conductance from the walls to the outside";
  parameter Real UA_air_out(unit = "W/K") = 40 "Windows and ventilation";
  parameter Real P_heater(unit = "W") = 6000 "Heater power when on";
  input Real T_out(unit = "K") "Outdoor temperature";
  input Boolean heat "Heater on";
  output Real T_air(unit = "K", start = 294.15, fixed = true) "Room air temperature";
  output Real T_wall(unit = "K", start = 290.15, fixed = true) "Wall temperature";
  output Real Q_heat(unit = "W") "Heat from the heater";
  output Real E_heat(unit = "J", start = 0, fixed = true) "Heat from the heater since the start";
equation
  Q_heat = if heat then P_heater else 0;
  C_air*der(T_air) = Q_heat - UA_air_wall*(T_air - T_wall) - UA_air_out*(T_air - T_out);
  C_wall*der(T_wall) = UA_air_wall*(T_air - T_wall) - UA_wall_out*(T_wall - T_out);
  der(E_heat) = Q_heat;
end Room;
