package Overdetermined
  "Overdetermined types (MLS 9.4): a planar orientation stored as {cos, sin} of its angle,
  two numbers for one degree of freedom, in a closed ring of rotations"

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

  connector Frame "Orientation (1 degree of freedom: 1 residue) and torque"
    Orientation2D R(start = {1, 0});
    flow Real t;
  end Frame;

  model Ground
    Frame frame;
    Boolean isRoot = Connections.isRoot(frame.R);
  equation
    Connections.root(frame.R);
    frame.R = {1, 0};
  end Ground;

  partial model Joint "Turns frame_b by phi against frame_a; massless"
    Frame frame_a;
    Frame frame_b;
    Real phi;
  equation
    Connections.branch(frame_a.R, frame_b.R);
    frame_b.R = rotated(frame_a.R, phi);
    frame_a.t + frame_b.t = 0;
  end Joint;

  model Driven "phi = w time"
    extends Joint;
    parameter Real w;
  equation
    phi = w*time;
  end Driven;

  model Spring "the torque k phi"
    extends Joint;
    parameter Real k = 10;
  equation
    frame_b.t = k*phi;
  end Spring;

  model Ring
    "ground, two driven joints and a spring joint closing the ring: one connection is
    broken, its orientation equality replaced by the residue; the spring turns by
    -(w1 + w2) time"
    Ground ground;
    Driven first(w = 1);
    Driven second(w = 2);
    Spring spring;
  equation
    connect(ground.frame, first.frame_a);
    connect(first.frame_b, second.frame_a);
    connect(second.frame_b, spring.frame_a);
    connect(spring.frame_b, ground.frame);
  end Ring;

  model ArrayInConnector "an array of an overdetermined type in a connector: refused"
    connector Frames
      Orientation2D R[2];
      flow Real t[2];
    end Frames;
    Frames a(R(each start = {1, 0}));
    Frames b(R(each start = {1, 0}));
  equation
    connect(a, b);
    a.R = {{1, 0}, {1, 0}};
  end ArrayInConnector;
end Overdetermined;
