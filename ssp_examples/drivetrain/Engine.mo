model Engine "Engine torque from a full-load torque map (piecewise linear in speed), times the throttle"
  parameter Real throttle = 1 "Throttle position, 0 to 1";
  parameter Real friction(unit = "N.m.s/rad") = 0.02 "Friction torque per unit speed";
  parameter Real speeds[8](each unit = "rad/s") = {0, 100, 200, 300, 400, 500, 600, 700}
    "Speeds of the map's points, increasing";
  parameter Real torques[8](each unit = "N.m") = {60, 150, 190, 200, 195, 180, 140, 0}
    "Full-load torque at those speeds";
  input Real w_e(unit = "rad/s") "Engine speed";
  output Real T_e(unit = "N.m") "Engine torque on the crankshaft";
  output Real T_full(unit = "N.m") "Full-load torque at this speed (constant beyond the map)";
equation
  T_full = if w_e <= speeds[1] then torques[1]
    elseif w_e >= speeds[8] then torques[8]
    else sum(if w_e >= speeds[i] and w_e < speeds[i + 1]
             then torques[i] + (torques[i + 1] - torques[i])*(w_e - speeds[i])/(speeds[i + 1] - speeds[i])
             else 0 for i in 1:7);
  T_e = throttle*T_full - friction*w_e;
end Engine;
