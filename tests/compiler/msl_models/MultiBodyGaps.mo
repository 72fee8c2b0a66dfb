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
end MultiBodyGaps;
