package StreamConnectors "Stream connectors (MLS 15): mixing, pipes, unconnected ports"
  connector FluidPort
    Real p "pressure";
    flow Real m_flow "mass flow into the component";
    stream Real h_outflow "specific enthalpy near the port when fluid leaves the component";
  end FluidPort;

  partial model Boundary "a port with the enthalpy it supplies and what it sees"
    parameter Real h = 0 "enthalpy of what the boundary supplies";
    FluidPort port;
    Real h_in "enthalpy of what would enter the boundary";
    Real h_actual "enthalpy of what actually flows through the port";
  equation
    port.h_outflow = h;
    h_in = inStream(port.h_outflow);
    h_actual = actualStream(port.h_outflow);
  end Boundary;

  model FlowSource "supplies m0 + slope*time into the system (negative: takes it out)"
    extends Boundary;
    parameter Real m0 = 1;
    parameter Real slope = 0;
  equation
    port.m_flow = -(m0 + slope * time);
  end FlowSource;

  model PressureSource "holds the pressure of its port"
    extends Boundary;
    parameter Real p0 = 1e5;
  equation
    port.p = p0;
  end PressureSource;

  model Pipe "laminar pressure drop, adds dh to what passes in either direction"
    parameter Real k = 100;
    parameter Real dh = 10;
    FluidPort port_a;
    FluidPort port_b;
  equation
    port_a.m_flow + port_b.m_flow = 0;
    port_a.p - port_b.p = k * port_a.m_flow;
    port_b.h_outflow = inStream(port_a.h_outflow) + dh;
    port_a.h_outflow = inStream(port_b.h_outflow) + dh;
  end Pipe;

  model TwoPipes "two pipes in series behind outside ports"
    FluidPort port_a;
    FluidPort port_b;
    Pipe first;
    Pipe second;
  equation
    connect(port_a, first.port_a);
    connect(first.port_b, second.port_a);
    connect(second.port_b, port_b);
  end TwoPipes;

  model Tee "three outside ports joined in one point"
    FluidPort ports[3];
  equation
    connect(ports[1], ports[2]);
    connect(ports[1], ports[3]);
  end Tee;

  model Mixing "three boundaries at one point; b reverses at t = 0.5, c at t = 0.75"
    FlowSource a(m0 = 1, h = 100);
    FlowSource b(m0 = 2, slope = -4, h = 300);
    PressureSource c(h = 200);
    Real E(start = 0, fixed = true) "enthalpy that entered b";
  equation
    connect(a.port, b.port);
    connect(b.port, c.port);
    der(E) = b.port.m_flow * actualStream(b.port.h_outflow);
    annotation(experiment(StopTime = 1));
  end Mixing;

  model TeeMixing "the boundaries of Mixing joined through the outside ports of a Tee"
    FlowSource a(m0 = 1, h = 100);
    FlowSource b(m0 = 2, slope = -4, h = 300);
    PressureSource c(h = 200);
    Tee tee;
  equation
    connect(a.port, tee.ports[1]);
    connect(b.port, tee.ports[2]);
    connect(tee.ports[3], c.port);
    annotation(experiment(StopTime = 1));
  end TeeMixing;

  model PipeChain "source, two pipes, sink; the flow reverses at t = 0.5"
    FlowSource a(m0 = 1, slope = -2, h = 100);
    Pipe first;
    Pipe second;
    PressureSource c(h = 500);
  equation
    connect(a.port, first.port_a);
    connect(first.port_b, second.port_a);
    connect(second.port_b, c.port);
    annotation(experiment(StopTime = 1));
  end PipeChain;

  model CompositeChain "PipeChain with its pipes inside TwoPipes"
    FlowSource a(m0 = 1, slope = -2, h = 100);
    TwoPipes pipes;
    PressureSource c(h = 500);
  equation
    connect(a.port, pipes.port_a);
    connect(pipes.port_b, c.port);
    annotation(experiment(StopTime = 1));
  end CompositeChain;

  model DeadEnd "a pipe whose far port is not connected; the model's own port too"
    PressureSource c(h = 500);
    Pipe pipe(dh = 10);
    PressureSource d(h = 700);
    Pipe spur(dh = 1);
    FluidPort port "the model's own port, fed through the spur";
    Real h_end = inStream(pipe.port_b.h_outflow);
    Real h_own = inStream(port.h_outflow);
  equation
    connect(c.port, pipe.port_a);
    connect(d.port, spur.port_a);
    connect(spur.port_b, port);
    annotation(experiment(StopTime = 1));
  end DeadEnd;

  model Volume "an ideally mixed volume at fixed pressure with an array of ports"
    parameter Real p0 = 1e5;
    FluidPort ports[2];
    Real M(start = 1, fixed = true) "mass";
    Real U(start = 150, fixed = true) "enthalpy content";
    Real h = U / M;
  equation
    ports.p = fill(p0, 2);
    ports.h_outflow = fill(h, 2);
    der(M) = sum(ports.m_flow);
    der(U) = sum(ports.m_flow .* actualStream(ports.h_outflow));
  end Volume;

  model Filling "a volume fed at 100, its second port reverses at t = 0.5"
    FlowSource a(m0 = 1, h = 100);
    FlowSource b(m0 = 1, slope = -2, h = 300);
    Volume volume;
  equation
    connect(a.port, volume.ports[1]);
    connect(b.port, volume.ports[2]);
    annotation(experiment(StopTime = 1));
  end Filling;
  model Sink "takes m in; unless allowed to reverse its flow may not leave it (min = 0)"
    parameter Boolean allowReverse = false;
    parameter Real m = 0.5;
    FluidPort port(m_flow(min = if allowReverse then -1e60 else 0));
    Real h_in = inStream(port.h_outflow);
  equation
    port.m_flow = m;
    port.h_outflow = 0;
  end Sink;

  model SplitToSink "a source, a pressure boundary and a sink that cannot supply"
    FlowSource a(m0 = 1, h = 100);
    PressureSource b(h = 300);
    Sink sink;
  equation
    connect(a.port, b.port);
    connect(a.port, sink.port);
    annotation(experiment(StopTime = 1));
  end SplitToSink;
  model SourceToSink "two ports: the pair rule holds whatever the flow bounds"
    FlowSource a(m0 = 0.5, h = 100);
    Sink sink;
  equation
    connect(a.port, sink.port);
  end SourceToSink;

  connector SpeciesPort "a port carrying the mass fractions of nX substances"
    constant Integer nX = 2;
    Real p;
    flow Real m_flow;
    stream Real h_outflow;
    stream Real X_outflow[nX];
  end SpeciesPort;

  model SpeciesSource "supplies m0 + slope*time of composition X"
    constant Integer nX = 2;
    parameter Real m0 = 1;
    parameter Real slope = 0;
    parameter Real X[nX] = fill(0, nX);
    SpeciesPort port(nX = nX);
    Real X_in[nX] = inStream(port.X_outflow);
    Real X_flow[nX] = port.m_flow * actualStream(port.X_outflow) "what enters the source";
  equation
    port.m_flow = -(m0 + slope * time);
    port.h_outflow = 0;
    port.X_outflow = X;
  end SpeciesSource;

  model SpeciesBoundary "holds the pressure; supplies composition X"
    constant Integer nX = 2;
    parameter Real X[nX] = fill(0, nX);
    SpeciesPort port(nX = nX);
    Real X_in[nX] = inStream(port.X_outflow);
  equation
    port.p = 1e5;
    port.h_outflow = 0;
    port.X_outflow = X;
  end SpeciesBoundary;

  model SpeciesMixing "Mixing's flows carrying two mass fractions"
    SpeciesSource a(m0 = 1, X = {0.2, 0.4});
    SpeciesSource b(m0 = 2, slope = -4, X = {0.6, 0.0});
    SpeciesBoundary c(X = {0.3, 0.3});
  equation
    connect(a.port, b.port);
    connect(a.port, c.port);
    annotation(experiment(StopTime = 1));
  end SpeciesMixing;

  model NoSpecies "stream arrays of size zero"
    SpeciesSource a(nX = 0, m0 = 1);
    SpeciesBoundary c(nX = 0);
  equation
    connect(a.port, c.port);
    annotation(experiment(StopTime = 1));
  end NoSpecies;
end StreamConnectors;
