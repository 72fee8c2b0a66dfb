model Road "Road height under a car driving at constant speed over a 1 - cos bump"
  constant Real pi = 3.14159265358979;
  parameter Real speed(unit = "m/s") = 10 "Driving speed";
  parameter Real height(unit = "m") = 0.05 "Bump height";
  parameter Real length(unit = "m") = 1 "Bump length";
  parameter Real start(unit = "m") = 1 "Distance to the bump";
  output Real z_r(unit = "m") "Road height";
  output Real v_r(unit = "m/s") "Rate of change of the road height";
protected
  Real s(unit = "m") "Distance travelled";
  Boolean on_bump;
equation
  s = speed*time;
  on_bump = s > start and s < start + length;
  z_r = if on_bump then 0.5*height*(1 - cos(2*pi*(s - start)/length)) else 0;
  v_r = if on_bump then pi*height*speed/length*sin(2*pi*(s - start)/length) else 0;
end Road;
