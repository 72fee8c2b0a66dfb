model Controller "Cascade speed control: PI speed loop in rpm with a current limit, PI current loop"
  parameter Real n_ref(unit = "rpm") = 3000 "Speed set point";
  parameter Real Kp_n = 0.05 "Speed loop gain, A per rpm";
  parameter Real Ki_n = 0.6 "Speed loop integral gain, A per rpm and second";
  parameter Real I_max(unit = "A") = 10 "Current limit";
  parameter Real Kp_i(unit = "V/A") = 5 "Current loop gain";
  parameter Real Ki_i = 1000 "Current loop integral gain, V per A and second";
  parameter Real U_max(unit = "V") = 48 "Supply voltage";
  input Real n(unit = "rpm") "Measured speed";
  input Real i(unit = "A") "Measured current";
  output Real u(unit = "V") "Armature voltage";
  output Real i_ref(unit = "A") "Current set point, limited";
  Real i_demand(unit = "A") "Current the speed loop asks for";
  Real e_n(unit = "rpm") "Speed error";
  Real x_n(start = 0, fixed = true) "Integral of the speed error";
  Real x_i(start = 0, fixed = true) "Integral of the current error";
  Real u_demand(unit = "V") "Voltage the current loop asks for";
equation
  e_n = n_ref - n;
  i_demand = Kp_n*e_n + Ki_n*x_n;
  i_ref = if i_demand > I_max then I_max elseif i_demand < -I_max then -I_max else i_demand;
  // anti-windup: the speed integral stops while the limit holds the current back
  der(x_n) = if (i_demand > I_max and e_n > 0) or (i_demand < -I_max and e_n < 0) then 0 else e_n;
  u_demand = Kp_i*(i_ref - i) + Ki_i*x_i;
  u = if u_demand > U_max then U_max elseif u_demand < -U_max then -U_max else u_demand;
  der(x_i) = i_ref - i;
end Controller;
