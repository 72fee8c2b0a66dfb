package FourBar
  "A planar four-bar linkage in the style of Modelica.Mechanics.MultiBody: frames carry an
  overdetermined orientation ({cos, sin} of the absolute angle, MLS 9.4), the kinematic loop
  is closed through the orientation type's equalityConstraint, and the loop's four joint
  angles (one degree of freedom) make a high-index DAE"

  type Pair = Real[2];

  type Orientation2D "{cos(angle), sin(angle)} of a frame's absolute angle"
    extends Pair;

    function equalityConstraint "sin of the angle between two orientations"
      input Orientation2D R1;
      input Orientation2D R2;
      output Real residue[1];
    algorithm
      residue := {R1[1]*R2[2] - R1[2]*R2[1]};
      annotation(Inline = true);
    end equalityConstraint;
  end Orientation2D;

  function rotated "R turned by the angle phi"
    input Real R[2];
    input Real phi;
    output Real turned[2];
  algorithm
    turned := {cos(phi)*R[1] - sin(phi)*R[2], sin(phi)*R[1] + cos(phi)*R[2]};
    annotation(Inline = true);
  end rotated;

  function resolved "the vector r of a frame with orientation R, in world coordinates"
    input Real R[2];
    input Real r[2];
    output Real r_0[2];
  algorithm
    r_0 := {R[1]*r[1] - R[2]*r[2], R[2]*r[1] + R[1]*r[2]};
    annotation(Inline = true);
  end resolved;

  connector Frame "Position and orientation of a frame, the cut force (world coordinates) and torque"
    Real r_0[2] "position of the origin in the world frame";
    Orientation2D R(start = {1, 0});
    flow Real f[2] "cut force, in world coordinates";
    flow Real t "cut torque";
  end Frame;

  model World "the root of the connection graph: the inertial frame"
    Frame frame_b;
  equation
    Connections.root(frame_b.R);
    frame_b.R = {1, 0};
    frame_b.r_0 = zeros(2);
  end World;

  model FixedTranslation "frame_b at r from frame_a (resolved in frame_a); massless"
    Frame frame_a;
    Frame frame_b;
    parameter Real r[2];
    Real r_0[2] "r in world coordinates";
  equation
    Connections.branch(frame_a.R, frame_b.R);
    frame_b.R = frame_a.R;
    r_0 = resolved(frame_a.R, r);
    frame_b.r_0 = frame_a.r_0 + r_0;
    zeros(2) = frame_a.f + frame_b.f;
    0 = frame_a.t + frame_b.t + r_0[1]*frame_b.f[2] - r_0[2]*frame_b.f[1];
  end FixedTranslation;

  partial model PartialRevolute "frame_b turned by phi against frame_a about their common origin; massless"
    Frame frame_a;
    Frame frame_b;
    parameter StateSelect stateSelect = StateSelect.default;
    Real phi(stateSelect = stateSelect) "relative angle";
    Real w(stateSelect = stateSelect) "relative angular velocity";
    Real a "relative angular acceleration";
  equation
    Connections.branch(frame_a.R, frame_b.R);
    frame_b.R = rotated(frame_a.R, phi);
    frame_b.r_0 = frame_a.r_0;
    w = der(phi);
    a = der(w);
    zeros(2) = frame_a.f + frame_b.f;
    frame_a.t + frame_b.t = 0;
  end PartialRevolute;

  model Revolute "a free joint: it transmits no torque"
    extends PartialRevolute;
  equation
    frame_b.t = 0;
  end Revolute;

  model DrivenRevolute "phi = phi_0 + omega time, whatever torque that takes"
    extends PartialRevolute;
    parameter Real phi_0;
    parameter Real omega;
    Real tau = -frame_b.t "driving torque";
  equation
    phi = phi_0 + omega*time;
  end DrivenRevolute;

  model Body "a mass m with inertia I about its frame's origin, under gravity g along -y"
    Frame frame_a;
    parameter Real m;
    parameter Real I;
    parameter Real g = 9.81;
    Real v[2] "velocity";
    Real a[2] "acceleration";
    Real w "absolute angular velocity";
    Real z "absolute angular acceleration";
    Real energy "kinetic plus potential";
  equation
    v = der(frame_a.r_0);
    a = der(v);
    w = frame_a.R[1]*der(frame_a.R[2]) - frame_a.R[2]*der(frame_a.R[1]);
    z = der(w);
    frame_a.f = m*(a - {0, -g});
    frame_a.t = I*z;
    energy = m/2*(v*v) + I/2*w^2 + m*g*frame_a.r_0[2];
  end Body;

  model Bar "a uniform bar of length L along frame_a's x axis, frame_b at its end"
    Frame frame_a;
    Frame frame_b;
    parameter Real L;
    parameter Real m;
    FixedTranslation toCenter(r = {L/2, 0});
    FixedTranslation toEnd(r = {L/2, 0});
    Body body(m = m, I = m*L^2/12);
  equation
    connect(frame_a, toCenter.frame_a);
    connect(toCenter.frame_b, toEnd.frame_a);
    connect(toCenter.frame_b, body.frame_a);
    connect(toEnd.frame_b, frame_b);
  end Bar;

  partial model Linkage
    "ground pivots A = (0, 0) and D = (d, 0); crank a from A, coupler b, rocker c to D.
    Grashof (a + d <= b + c, a shortest): the crank turns all the way round. The start
    values of the joint angles are rough guesses of the closed loop at phi1 = 1 rad
    (initialization closes it)"
    parameter Real a = 0.2;
    parameter Real b = 0.6;
    parameter Real c = 0.5;
    parameter Real d = 0.6;
    World world;
    Bar crank(L = a, m = 1);
    Bar coupler(L = b, m = 2);
    Bar rocker(L = c, m = 1.5);
    Revolute rev2(phi(start = -1.0));
    Revolute rev3(phi(start = -2.2));
    Revolute rev4(phi(start = 2.2));
    FixedTranslation ground(r = {d, 0});
    Real energy = crank.body.energy + coupler.body.energy + rocker.body.energy;
    Real rockerAngle = atan2(rocker.frame_a.R[2], rocker.frame_a.R[1]) "absolute angle of the rocker (from C towards D)";
  equation
    connect(crank.frame_b, rev2.frame_a);
    connect(rev2.frame_b, coupler.frame_a);
    connect(coupler.frame_b, rev3.frame_a);
    connect(rev3.frame_b, rocker.frame_a);
    connect(rocker.frame_b, rev4.frame_a);
    connect(rev4.frame_b, ground.frame_b);
    connect(world.frame_b, ground.frame_a);
  end Linkage;

  model Swinging "the linkage released at rest from phi1 = 1 rad: it swings under gravity, its energy constant"
    extends Linkage;
    Revolute rev1(phi(start = 1, fixed = true), w(start = 0, fixed = true),
                  stateSelect = StateSelect.always);
  equation
    connect(world.frame_b, rev1.frame_a);
    connect(rev1.frame_b, crank.frame_a);
    annotation(experiment(StopTime = 2));
  end Swinging;

  model Driven "the crank turned at 1 rad/s from 1 rad: the rocker follows the closed-form kinematics"
    extends Linkage;
    DrivenRevolute rev1(phi_0 = 1, omega = 1);
  equation
    connect(world.frame_b, rev1.frame_a);
    connect(rev1.frame_b, crank.frame_a);
    annotation(experiment(StopTime = 6.3));
  end Driven;
end FourBar;
