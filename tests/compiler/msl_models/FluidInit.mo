package FluidInit "Initialization problems of Modelica.Fluid's tank examples (issue 14), in
  small self-written models: ports that close, states other than the preferred ones, pipes
  between closed ports"

  function pipeFlow "mass flow rate of a pipe for the pressure difference dp (nonlinear)"
    input Real dp;
    output Real m_flow;
  algorithm
    m_flow := dp + dp^3;
  end pipeFlow;

  model DrainingPort "a tank drains through a pipe until its level falls below the port,
    which then closes: while open, the port's pressure is the tank's static pressure; while
    closed, no fluid passes (the if-equation reads the pressure in one branch only; the
    start value of open makes it look solvable for the pressure)"
    parameter Real p0 = 1 "pressure of the sink and at the tank's surface";
    parameter Real portHeight = 0.3;
    parameter Real level_start = 1;
    Real level(start = level_start, fixed = true);
    Boolean open(start = true) = level >= portHeight;
    Real p_port "pressure at the tank's port";
    Real m_flow(start = 0) "from the tank into the pipe";
  equation
    der(level) = -m_flow;
    m_flow = pipeFlow(p_port - p0);
    if open then
      p_port = p0 + level;
    else
      m_flow = 0;
    end if;
  end DrainingPort;

  model ClosedAtStart "DrainingPort with the level below the port from the start"
    extends DrainingPort(level_start = 0.2);
  end ClosedAtStart;

  model PreferredLevel "the balance differentiates the mass, the model asks for the level as
    state and gives its start value: the initialization starts from that level"
    parameter Real area = 2;
    parameter Real rho = 1000;
    parameter Real k = 300 "outflow per metre of level";
    Real m "mass in the tank";
    Real level(stateSelect = StateSelect.prefer, start = 0.8);
  equation
    m = rho*area*level;
    der(m) = -k*level;
  end PreferredLevel;

  model ClosedPipe "a pipe between two ports that open at t = 0.5: while both are closed,
    only the difference of the pipe's end pressures is determined (by its static head)"
    parameter Real head = 0.5 "pressure difference of the pipe's static head";
    parameter Real pa_open = 1.2, pb_open = 1;
    Boolean open = time >= 0.5;
    Real pa(start = 1), pb(start = 1) "pressures at the pipe's ends";
    Real m_flow;
  equation
    m_flow = pipeFlow(pa - pb + head);
    if open then
      pa = pa_open;
    else
      m_flow = 0;
    end if;
    if open then
      pb = pb_open;
    else
      m_flow = 0;
    end if;
  end ClosedPipe;
end FluidInit;
