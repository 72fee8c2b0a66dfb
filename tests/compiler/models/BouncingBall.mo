model BouncingBall "A ball dropped from 1 m that loses energy at each bounce"
  parameter Real e = 0.8 "Coefficient of restitution";
  parameter Real g = 9.81 "Gravity";
  Real h(start = 1, fixed = true) "Height";
  Real v(start = 0, fixed = true) "Velocity";
  Integer bounces(start = 0, fixed = true) "Number of bounces";
equation
  der(h) = v;
  der(v) = -g;
  when h <= 0 then
    reinit(v, -e*pre(v));
    bounces = pre(bounces) + 1;
  end when;
  annotation(experiment(StopTime = 3));
end BouncingBall;
