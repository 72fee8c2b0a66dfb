package FluidGaps "Constructs that stopped Modelica.Fluid's examples, in small self-written models"
  package Lapack "External FORTRAN 77 routines of the system's LAPACK and BLAS"
    function solve "x solves A x = B (dgesv), A and B in Fortran's column-major order"
      input Real A[:, size(A, 1)];
      input Real B[size(A, 1), :];
      output Real X[size(A, 1), size(B, 2)] = B;
      output Integer info;
    protected
      Real LU[size(A, 1), size(A, 1)] = A;
      Integer pivots[size(A, 1)];
    external "FORTRAN 77" dgesv(size(A, 1), size(B, 2), LU, size(A, 1), pivots, X,
                                size(A, 1), info) annotation(Library = "lapack");
    end solve;

    function factor "LU factors of A with partial pivoting (dgetrf)"
      input Real A[:, :];
      output Real LU[size(A, 1), size(A, 2)] = A;
      output Integer pivots[min(size(A, 1), size(A, 2))];
      output Integer info;
    external "FORTRAN 77" dgetrf(size(A, 1), size(A, 2), LU, size(A, 1), pivots, info)
      annotation(Library = "Lapack");
    end factor;

    function inverse "The inverse of A from its LU factors (dgetri)"
      input Real A[:, size(A, 1)];
      output Real inv[size(A, 1), size(A, 1)];
      output Integer info;
    protected
      Integer pivots[size(A, 1)];
      Real work[4 * size(A, 1)];
    algorithm
      (inv, pivots, info) := factor(A);
      (inv, info) := invertFactored(inv, pivots, size(work, 1));
    end inverse;

    function invertFactored
      input Real LU[:, size(LU, 1)];
      input Integer pivots[size(LU, 1)];
      input Integer lwork;
      output Real inv[size(LU, 1), size(LU, 1)] = LU;
      output Integer info;
    protected
      Real work[lwork];
    external "FORTRAN 77" dgetri(size(LU, 1), inv, size(LU, 1), pivots, work, lwork, info)
      annotation(Library = "lapack");
    end invertFactored;

    function frobenius "A Fortran FUNCTION with a CHARACTER argument: dlange('F', ...)"
      input Real A[:, :];
      output Real norm;
    protected
      Real work[size(A, 1)];
    external "FORTRAN 77" norm = dlange("F", size(A, 1), size(A, 2), A, size(A, 1), work)
      annotation(Library = "lapack");
    end frobenius;

    function dot "A FORTRAN 77 FUNCTION of BLAS with scalar inputs: ddot(n, x, incx, y, incy)"
      input Integer n;
      input Real x[n];
      input Integer incx;
      input Real y[n];
      input Integer incy;
      output Real result;
    external "FORTRAN 77" result = ddot(n, x, incx, y, incy) annotation(Library = "blas");
    end dot;
  end Lapack;

  model FortranLapack "Linear algebra of a non-symmetric time-varying matrix through LAPACK"
    Real A[3, 3] = [4 + time, 1, 2; 0.5, 3 - time, -1; 2, -2, 5 + 2 * time];
    Real B[3, 2] = [1, time; 2 * time, -1; 3, 0.5];
    Real X[3, 2];
    Real inv[3, 3];
    Real norm;
    Real d;
    Integer info;
    Integer infoInverse;
  equation
    (X, info) = Lapack.solve(A, B);
    (inv, infoInverse) = Lapack.inverse(A);
    norm = Lapack.frobenius(A);
    d = Lapack.dot(3, A[1, :], 1, A[:, 2], 1);
    annotation(experiment(StopTime = 1));
  end FortranLapack;
  package Constants
    constant Real pi = 3.14159265358979;
  end Constants;

  partial package PartialFriction "Declares a function whose input default reads an import"
    import FluidGaps.Constants.pi;
    replaceable partial function area
      input Real diameter;
      input Real crossArea = pi * diameter ^ 2 / 4;
      output Real result;
    end area;
  end PartialFriction;

  package Friction "Inherits the function through a class extends, without the import"
    extends PartialFriction;
    redeclare function extends area
    algorithm
      result := 2 * crossArea;
    end area;
  end Friction;

  model InheritedImport "Friction.area's default is read where it was written"
    Real y = Friction.area(1 + time);
    annotation(experiment(StopTime = 1));
  end InheritedImport;

  model StartValues "Each binding reads the other in a branch a known flag rules out"
    parameter Boolean useT = true;
    parameter Real p = 2;
    parameter Real T = if useT then 300 else h / p;
    parameter Real h = if useT then p * T else 1000;
    parameter Real T2 = if not useT then 350 else h2 / p;
    parameter Real h2 = if not useT then p * T2 else 900;
    Real x(start = h / 2, fixed = true);
  equation
    der(x) = -x / T + h2 / T2;
    annotation(experiment(StopTime = 1));
  end StartValues;

  model Settings "Like Modelica.Fluid.System: flags the components read"
    parameter Boolean useT = true;
  end Settings;

  model StartValuesByEnthalpy "The flag of a component selects: h is computed first, T from it"
    function two "2, computed when the model initializes (not at compile time)"
      output Real y;
    algorithm
      y := 2;
    end two;
    Settings settings(useT = false);
    parameter Real p = two();
    parameter Real T = if settings.useT then 300 else h / p;
    parameter Real h = if settings.useT then p * T else 500 * p;
    Real x(start = h / 2, fixed = true);
  equation
    der(x) = -x / T + 2;
    annotation(experiment(StopTime = 1));
  end StartValuesByEnthalpy;

  model CyclicStartValues "The same bindings with a flag not bound to a literal: a cycle"
    parameter Boolean useT = p > 1;
    parameter Real p = 2;
    parameter Real T = if useT then 300 else h / p;
    parameter Real h = if useT then p * T else 1000;
  end CyclicStartValues;
  model SingleSegment "linspace(a, b, n) in the branch that n = 1 rules out"
    parameter Integer n = 1;
    parameter Real a = 1;
    parameter Real b = 2;
    final parameter Real ps[n] = if n > 1 then linspace(a, b, n) else {(a + b) / 2};
    Real y[n] = ps * (1 + time);
    annotation(experiment(StopTime = 1));
  end SingleSegment;

  model InitialIndex "An index computed by an initial algorithm picks an array element"
    parameter String name = "b";
    parameter String names[3] = {"a", "b", "c"};
    parameter Integer ind(fixed = false);
    Real v[3] = {time, 2 * time, 3 * time};
    Real y;
  initial algorithm
    ind := -1;
    for i in 1:3 loop
      if names[i] == name then
        ind := i;
      end if;
    end for;
  equation
    y = v[ind];
    annotation(experiment(StopTime = 1));
  end InitialIndex;

  model ColumnMatrix "A matrix constructor of vectors in a function: the vectors are columns"
    function columns
      input Real v[3];
      output Real c[3];
      output Real b[3];
    protected
      Real v2[3] = {v[1] ^ 2, v[2] ^ 2, v[3] ^ 2};
      Real A[3, 3] = [ones(3), v, v2];
      Real B[6, 2] = [v, v2; v2, v];
    algorithm
      c := A[:, 2] + A[2, :];
      b := {B[4, 2], B[3, 1], B[5, 1]};
    end columns;
    Real c[3];
    Real b[3];
  equation
    (c, b) = columns({1 + time, 2, 3});
    annotation(experiment(StopTime = 1));
  end ColumnMatrix;
end FluidGaps;
