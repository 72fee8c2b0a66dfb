model Driveline "Engine inertia, friction clutch that sticks and slips, gearbox, elastic drive shaft"
  parameter Real J_e(unit = "kg.m2") = 0.2 "Engine inertia";
  parameter Real J_g(unit = "kg.m2") = 0.05 "Clutch disc and gearbox input inertia";
  parameter Real ratio = 14 "Gearbox times final drive ratio (first gear)";
  parameter Real k_s(unit = "N.m/rad") = 4000 "Drive shaft stiffness";
  parameter Real d_s(unit = "N.m.s/rad") = 100 "Drive shaft damping";
  parameter Real T_cap(unit = "N.m") = 300 "Clutch torque capacity when fully engaged";
  parameter Real t_on(unit = "s") = 0.2 "The clutch starts to engage";
  parameter Real t_ramp(unit = "s") = 0.5 "Engagement time (capacity rises linearly)";
  parameter Real w_idle(unit = "rad/s") = 100 "Initial engine speed";
  input Real T_e(unit = "N.m") "Engine torque";
  input Real w_w(unit = "rad/s") "Wheel speed";
  output Real w_e(unit = "rad/s", start = w_idle, fixed = true) "Engine speed";
  output Real w_g(unit = "rad/s", start = 0, fixed = true) "Gearbox input speed";
  output Real T_s(unit = "N.m") "Drive shaft torque at the wheels";
  output Real T_c(unit = "N.m") "Torque the clutch transmits";
  output Boolean locked(start = false, fixed = true) "The clutch sticks";
  output Real t_lock(unit = "s", start = -1, fixed = true) "Time the clutch last locked (-1: never)";
  Real twist(unit = "rad", start = 0, fixed = true) "Drive shaft twist";
  Real T_max(unit = "N.m") "Torque the clutch can transmit now";
  Real T_stick(unit = "N.m") "Clutch torque that keeps both sides together";
  Real w_rel(unit = "rad/s") "Slip speed";
equation
  T_max = if time < t_on then 0 elseif time < t_on + t_ramp then T_cap*(time - t_on)/t_ramp else T_cap;
  T_s = k_s*twist + d_s*(w_g/ratio - w_w);
  w_rel = w_e - w_g;
  T_stick = (J_g*T_e + J_e*T_s/ratio)/(J_e + J_g);
  // sticks when the slip speed reaches zero with enough capacity; slips when it lacks it
  locked = if pre(locked) then abs(T_stick) <= T_max else w_rel <= 0 and abs(T_stick) <= T_max;
  T_c = if locked then T_stick elseif w_rel > 0 then T_max else -T_max;
  J_e*der(w_e) = T_e - T_c;
  J_g*der(w_g) = T_c - T_s/ratio;
  der(twist) = w_g/ratio - w_w;
  when locked then
    t_lock = time;
  end when;
end Driveline;
