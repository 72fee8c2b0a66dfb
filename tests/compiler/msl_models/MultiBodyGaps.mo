package MultiBodyGaps
  "Constructs that stopped MultiBody examples (issue 14), each in a small self-written model"

  package Matrices "The matrix built-ins in function bodies compiled to C"
    function rotation "Rotation about unit axis e by angle a (Rodrigues' formula)"
      input Real e[3];
      input Real a;
      output Real R[3, 3];
    algorithm
      R := outerProduct(e, e) + (identity(3) - outerProduct(e, e))*cos(a) - skew(e)*sin(a);
    end rotation;

    function mixed "transpose, diagonal and a matrix product of them"
      input Real A[2, 3];
      input Real d[3];
      output Real B[3, 2];
      output Real C[3, 3];
    algorithm
      B := transpose(A);
      C := diagonal(d)*transpose(A)*A + identity(3);
    end mixed;

    model Rotation
      parameter Real e[3] = {1, 2, 2}/3;
      Real R[3, 3] = rotation(e, time);
    end Rotation;

    model Mixed
      Real A[2, 3] = {{1, time, 2}, {-time, 3, 0.5}};
      Real B[3, 2];
      Real C[3, 3];
    equation
      (B, C) = mixed(A, {1, 2*time, 3});
    end Mixed;
  end Matrices;

  package StateSelection "stateSelect in alias sets and closed loops"
    model Rotor "Its angle and speed are never states: the outer model's aliases are"
      Real phi(stateSelect=StateSelect.never);
      Real w(stateSelect=StateSelect.never);
      Real a;
    equation
      w = der(phi);
      a = der(w);
    end Rotor;

    model NeverAlias "A never-variable aliased with a default one that must be a state"
      Rotor rotor;
      Real phi(start=1, fixed=true);
      Real w(start=0, fixed=true);
      Real a;
    equation
      phi = rotor.phi;
      w = der(phi);
      a = der(w);
      a = -4*phi;
    end NeverAlias;

    model LeverAlways
      "Two springy masses tied by a lever k x + y = 0 (index 3): x moves 1/k as far as y, so
      at each level of the constraint the always-variable x has the larger pivot; y must
      still be the dummy"
      parameter Real k = 100;
      Real x(stateSelect=StateSelect.always, start=0.01, fixed=true);
      Real vx(stateSelect=StateSelect.always, start=0, fixed=true);
      Real y;
      Real vy;
      Real lambda "force of the lever";
    equation
      vx = der(x);
      vy = der(y);
      der(vx) = -x + k*lambda;
      der(vy) = -y + lambda;
      k*x + y = 0;
    end LeverAlways;
  end StateSelection;

  package Tearing "Which unknown a nonlinear loop iterates on"
    model ZeroParameter
      "x is torn first; a y = 0.5 - x must not be solved for y while a = 0 (a rod's length
      along an axis it does not extend in)"
      parameter Real a = 0;
      Real x(start = 0.5);
      Real y(start = 1);
    equation
      x^2 + y^2 = 1 + time;
      a*y + x = 0.5;
    end ZeroParameter;

    model StartValues
      "The angle phi, with a start value, is iterated on rather than axis_c (first by name,
      no start value: its guess 0 is what phi's solution would divide by)"
      Real axis_c;
      Real phi(start = 0.3);
    equation
      axis_c = cos(phi);
      axis_c*(1 + phi) = 1 - 0.5*time;
    end StartValues;
  end Tearing;

  package Buses "Nested expandable connectors (MLS 9.1.3), as a robot's control bus"
    expandable connector AxisBus
      Real ref "potentially present";
      Real measured "potentially present";
    end AxisBus;

    expandable connector ControlBus
      AxisBus axis1;
      AxisBus axis2 "declared, never connected: none of its members is present";
    end ControlBus;

    connector RealIn = input Real;
    connector RealOut = output Real;

    model Planner "puts the reference of axis 1 and its rate on the bus"
      ControlBus bus;
      RealOut position = sin(3.141592653589793*time);
      RealOut rate = 3.141592653589793*cos(3.141592653589793*time);
    equation
      connect(position, bus.axis1.ref);
      connect(rate, bus.axis1.rate) "the drive does not read it";
    end Planner;

    model Drive "a first-order follower of the reference; puts its position on the bus"
      AxisBus axisBus;
      parameter Real T = 0.1;
      Real x(start = 0, fixed = true);
      RealIn ref;
      RealOut y = x;
    equation
      T*der(x) = ref - x;
      connect(axisBus.ref, ref);
      connect(y, axisBus.measured);
    end Drive;

    model Robot
      "axis 1's bus gets the rate only through the planner's bus, after it was joined with
      the drive's bus"
      ControlBus bus;
      Planner planner;
      Drive drive;
    equation
      connect(planner.bus, bus);
      connect(bus.axis1, drive.axisBus);
    end Robot;
  end Buses;
end MultiBodyGaps;
