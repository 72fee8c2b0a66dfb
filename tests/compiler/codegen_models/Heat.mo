package Heat "Heat conduction along a rod as a chain of cells: stiff, with a tridiagonal Jacobian"
  connector Port
    Real T "Temperature";
    flow Real Q "Heat flow into the component";
  end Port;

  model Cell "A heat capacity"
    parameter Real C = 1 "Heat capacity";
    Real T(start = 0, fixed = true) "Temperature";
    Port port;
  equation
    port.T = T;
    C*der(T) = port.Q;
  end Cell;

  model Conductor "Heat flow proportional to the temperature difference"
    parameter Real G = 1 "Thermal conductance";
    Port a;
    Port b;
    Real Q "Heat flow from a to b";
  equation
    Q = G*(a.T - b.T);
    a.Q = Q;
    b.Q = -Q;
  end Conductor;

  model FixedTemperature
    parameter Real T = 100;
    Port port;
  equation
    port.T = T;
  end FixedTemperature;

  model Rod "A rod of unit length and diffusivity, heated at one end, insulated at the other"
    parameter Integer N = 1000 "Cells";
    Cell cell[N](each C = 1/N);
    Conductor link[N](each G = N);
    FixedTemperature hot(T = 100);
  equation
    connect(hot.port, link[1].a);
    for i in 1:N loop
      connect(link[i].b, cell[i].port);
    end for;
    for i in 1:N - 1 loop
      connect(cell[i].port, link[i + 1].a);
    end for;
    annotation(experiment(StopTime = 0.1, Tolerance = 1e-8));
  end Rod;

  model ShortRod "The rod in 20 cells, for the reference interpreter"
    extends Rod(N = 20);
  end ShortRod;
end Heat;
