within ;
package FluidTanks
  "Self-written models of the situations that stopped or questioned Modelica.Fluid's tank
  examples (AST_BatchPlant.Test, issue 14)"

  record State "Thermodynamic state of incompressible water"
    Real p "pressure (Pa)";
    Real T "temperature (K)";
  end State;

  function stateOf "The state of a pressure and a specific enthalpy (cp = 4184 J/(kg K))"
    input Real p;
    input Real h;
    output State state;
  algorithm
    state := State(p = p, T = 273.15 + h / 4184);
  end stateOf;

  function density "Constant density, read from a state as a medium model does"
    input State state;
    output Real d;
  algorithm
    d := 995.586 + 0 * state.p;
  end density;

  function viscosity "Constant dynamic viscosity, read from a state"
    input State state;
    output Real eta;
  algorithm
    eta := 1e-3 + 0 * state.T;
  end viscosity;

  function laminarFlow "Hagen-Poiseuille: the mass flow rate of a friction pressure drop"
    input Real dp "friction pressure drop (Pa)";
    input Real d "density";
    input Real eta "dynamic viscosity";
    input Real length;
    input Real diameter;
    output Real m_flow;
  algorithm
    m_flow := d * 3.141592653589793 * diameter ^ 4 / (128 * eta * length) * dp;
  end laminarFlow;

  model EmergingPort
    "Water runs out of a tank through a port above its level, which lets it through only
    against a large loss (pa = p0 - K m^2), and down a laminar pipe into a second tank
    that drains at a constant rate. The pipe's outlet port at hPort emerges from the
    second tank's water when the level falls below hPort - hysteresis: the back pressure,
    the hydrostatic head over the port until then, jumps by d g hysteresis, and the
    pressures of both pipe ends move by about that much at the event, while the friction
    pressure drop between them is a few hundredths of a Pa."
    parameter Real p0 = 101325 "ambient pressure";
    parameter Real g = 9.80665;
    parameter Real d = 995.586 "density of water";
    parameter Real h = 4184 * 20 "specific enthalpy of water at 20 degC";
    parameter Real K = 8.14e5 "loss coefficient of the port above the level (Pa/(kg/s)^2)";
    parameter Real k = 8.14e1 "loss coefficient of the inflow into the second tank";
    parameter Real H = 0.5 "height the pipe goes down";
    parameter Real length = 1;
    parameter Real diameter = 0.1;
    parameter Real area = 0.01 "cross-section of the second tank";
    parameter Real hPort = 0.5 "height of the pipe's outlet port in the second tank";
    parameter Real hysteresis = 0.01;
    parameter Real m_out = 0.2 "constant outflow of the second tank";
    Real level(start = 0.52, fixed = true) "level of the second tank";
    Boolean submerged(start = true, fixed = true) "the outlet port is under water";
    Real m_flow "mass flow rate through the pipe";
    Real pa "pressure at the pipe's inlet";
    Real pb "pressure at the pipe's outlet";
    State a "state at the pipe's inlet";
    State b "state at the pipe's outlet";
    Real da, db, etaa, etab;
  equation
    submerged = level >= hPort + hysteresis or pre(submerged) and level >= hPort - hysteresis;
    pa = p0 - K * m_flow * abs(m_flow);
    pb = p0 + (if submerged then d * g * (level - hPort) else 0) + k * m_flow * abs(m_flow);
    a = stateOf(pa, h);
    b = stateOf(pb, h);
    da = density(a);
    db = density(b);
    etaa = viscosity(a);
    etab = viscosity(b);
    m_flow = laminarFlow(a.p - b.p + 0.5 * (da + db) * g * H, 0.5 * (da + db),
      0.5 * (etaa + etab), length, diameter);
    d * area * der(level) = m_flow - m_out;
    annotation (experiment(StopTime = 3));
  end EmergingPort;
end FluidTanks;
