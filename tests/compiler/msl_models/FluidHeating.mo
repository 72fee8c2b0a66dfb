package FluidHeating "Small models of what kept Modelica.Fluid.Examples.HeatingSystem from initializing and matching"
  package StartPriority "Variables made equal take the start value of the highest confidence (MLS 8.6.2)"
    model Holder "a start value its own class gives, through a parameter"
      parameter Real x_start = 3;
      Real x(start = x_start);
    end Holder;

    model Inner
      Real y(start = 3);
    end Inner;

    model Outer
      Inner c;
    end Outer;

    model Deeper "a start value its class gives through a parameter that can be modified"
      parameter Real y_start = 3;
      Inner c(y(start = y_start));
    end Deeper;

    model TopLevel "x^2 = 4 from the start value -1 given at the top, not a.x's 3"
      Holder a;
      Outer b(c(y(start = -1)));
    equation
      a.x = b.c.y;
      a.x*a.x = 4;
      annotation(experiment(StopTime = 1));
    end TopLevel;

    model ParameterAtTop "tied levels: the start that is a parameter given at the top wins"
      Holder a;
      Deeper b(y_start = -1);
    equation
      a.x = b.c.y;
      a.x*a.x = 4;
      annotation(experiment(StopTime = 1));
    end ParameterAtTop;

    type Positive = Real(start = 3) "a start value of the type, below any instance's";

    model State "state.T = T, like a medium's BaseProperties: the record's T has only its type's start"
      Positive T;
    end State;

    model Medium "T given a start value by the volume holding it (T_start through a parameter)"
      parameter Real T_start = 3;
      Positive T(start = T_start);
      State state;
    equation
      state.T = T;
    end Medium;

    model TypeStart "x^2 = 4 from the -1 given to the medium's T, not the 3 of their type (Fluid OneTank)"
      Medium medium(T_start = -1);
    equation
      medium.state.T*medium.state.T = 4;
      annotation(experiment(StopTime = 1));
    end TypeStart;
  end StartPriority;

  package InitialTearing "The initialization divides by no unknown of a loop"
    model FlowWork "m_flow (p - p_a) = W and m_flow = k sqrt(p_b - p): p := p_a + W / m_flow divides by m_flow, 0 at the start"
      parameter Real p_a = 1;
      parameter Real p_b = 10;
      parameter Real k = 1;
      parameter Real W = 4 "work the flow does";
      Real m_flow(start = 0) "flow, at rest at the start";
      Real p(start = 2) "pressure";
    equation
      m_flow*(p - p_a) = W;
      m_flow = k*sqrt(p_b - p);
      annotation(experiment(StopTime = 1));
    end FlowWork;
  end InitialTearing;

  package JacobianPattern "A derivative that reads a state only through a function without derivative still depends on it"
    function scaled "k x, with no derivative annotation"
      input Real x;
      input Real k;
      output Real y;
    algorithm
      y := k*x;
    end scaled;

    model Oscillator "x1' = -a x1 + b x2, x2' = -b x1 - a x2, both through scaled()"
      parameter Real a = 5 "damping";
      parameter Real b = 2 "angular frequency";
      Real x1(start = 1, fixed = true);
      Real x2(start = 0, fixed = true);
    equation
      der(x1) = scaled(x1, -a) + scaled(x2, b);
      der(x2) = scaled(x1, -b) + scaled(x2, -a);
      annotation(experiment(StopTime = 1));
    end Oscillator;
  end JacobianPattern;
end FluidHeating;
