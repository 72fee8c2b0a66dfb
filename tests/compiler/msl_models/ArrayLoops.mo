package ArrayLoops "Array equations the C backend emits as for loops (test_array_loops.py): runs of alike equations with boundary equations around them"
  model Diffusion "n cells held at Tl on the left, insulated on the right; the heat flows q are variables of their own"
    parameter Integer n = 12;
    parameter Real k = 0.5 "diffusivity";
    parameter Real Tl = 1;
    Real T[n](each start = 0, each fixed = true);
    Real q[n + 1] "heat flow into cell i from its left";
  equation
    q[1] = k*n*(Tl - T[1]);
    for i in 2:n loop
      q[i] = k*n*(T[i - 1] - T[i]);
    end for;
    q[n + 1] = 0;
    for i in 1:n loop
      der(T[i]) = n*(q[i] - q[i + 1]);
    end for;
    annotation(experiment(StopTime = 1));
  end Diffusion;

  model LongDiffusion "the same equations in 200 cells"
    extends Diffusion(n = 200);
  end LongDiffusion;

  model Reaction "a 1-D Brusselator: u and v in n cells, no flux at the ends; u's and v's equations alternate"
    parameter Integer n = 10;
    parameter Real c = 0.02*n^2;
    Real u[n];
    Real v[n];
  initial equation
    for i in 1:n loop
      u[i] = 1 + 0.5*sin(6.283185307179586*i/n);
      v[i] = 3;
    end for;
  equation
    der(u[1]) = 1 + u[1]^2*v[1] - 4*u[1] + c*(u[2] - u[1]);
    der(v[1]) = 3*u[1] - u[1]^2*v[1] + c*(v[2] - v[1]);
    for i in 2:n - 1 loop
      der(u[i]) = 1 + u[i]^2*v[i] - 4*u[i] + c*(u[i + 1] - 2*u[i] + u[i - 1]);
      der(v[i]) = 3*u[i] - u[i]^2*v[i] + c*(v[i + 1] - 2*v[i] + v[i - 1]);
    end for;
    der(u[n]) = 1 + u[n]^2*v[n] - 4*u[n] + c*(u[n - 1] - u[n]);
    der(v[n]) = 3*u[n] - u[n]^2*v[n] + c*(v[n - 1] - v[n]);
    annotation(experiment(StopTime = 2));
  end Reaction;

  model Plate "2-D diffusion on an n x n grid, no flux at the edges: the inner rows are a loop of loops"
    parameter Integer n = 6;
    parameter Real k = 0.3;
    Real T[n, n];
  initial equation
    for i in 1:n loop
      for j in 1:n loop
        T[i, j] = i + 0.1*j*j;
      end for;
    end for;
  equation
    for i in 1:n loop
      for j in 1:n loop
        der(T[i, j]) = k*(T[min(i + 1, n), j] + T[max(i - 1, 1), j] + T[i, min(j + 1, n)] + T[i, max(j - 1, 1)] - 4*T[i, j]);
      end for;
    end for;
    annotation(experiment(StopTime = 1));
  end Plate;

  model Alternating "start values folded at compile time alternate with the derivatives that read them: one loop cannot hold both"
    parameter Integer n = 8;
    Real x[n];
  initial equation
    for i in 1:n loop
      x[i] = i*i;
    end for;
  equation
    for i in 1:n loop
      der(x[i]) = -x[i];
    end for;
    annotation(experiment(StopTime = 1));
  end Alternating;
end ArrayLoops;
