package RunFixes "Small models of what made MSL examples fail or differ at run time (self-written)"
  package Recorded "Variables whose own names carry subscripts are recorded by those names"
    model Decay
      parameter Real k = 1;
      Real x(start = 1, fixed = true);
    equation
      der(x) = -k*x;
    end Decay;
    model Elements "no outputs; x of each element of an array of components, and u[i]"
      Decay decay[2](k = {1, 2});
      Real u[2];
    equation
      u = {decay[1].x, 2*decay[2].x};
      annotation(experiment(StopTime = 1));
    end Elements;
  end Recorded;
end RunFixes;
