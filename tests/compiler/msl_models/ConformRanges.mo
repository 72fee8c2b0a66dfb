package ConformRanges "For-ranges and arrays of the Modelica-Compliance suite (self-written)"
  type Color = enumeration(red, green, blue);
  type Switch = Boolean;
  package Implicit "for-indices without 'in ...': ranges from the subscripts (MLS 11.2.2.2)"
    model Equations "x[i, b, c] = i Integer(c) (b ? 2 : 1) t, by one implicit index per dimension"
      Real x[3, Boolean, Color];
      Real y[Color, 3, Boolean];
    equation
      for i, b, c loop
        x[i, b, c] = i*Integer(c)*(if b then 2 else 1)*time;
        y[c, i, b] = 2*x[i, b, c];
      end for;
      annotation(experiment(StopTime = 1));
    end Equations;
    model Statements "the same in an algorithm, an explicit range mixed with an implicit one"
      Real x[3, 2];
      Real z[Boolean];
    algorithm
      for i in 1:3, j loop
        x[i, j] := i*j + time;
      end for;
      for b loop
        z[b] := if b then time else -time;
      end for;
      annotation(experiment(StopTime = 1));
    end Statements;
    model Reduction "a reduction deduces its range as well: s = t (1 + 2 + 3 + 4)"
      parameter Real w[4] = {1, 2, 3, 4};
      Real s = sum(w[k]*time for k);
      Real p = product(w[k] + time for k);
      annotation(experiment(StopTime = 1));
    end Reduction;
  end Implicit;
  package InFunctions "implicit ranges in functions: 1:size(x, k), the other arrays checked"
    function weighted "sum of w[i] x[i], and the running sums s[i]"
      input Real x[:];
      input Real w[:];
      output Real total = 0;
      output Real s[size(x, 1)];
    algorithm
      for i loop
        total := total + w[i]*x[i];
        s[i] := total;
      end for;
    end weighted;
    function dot "a reduction and a comprehension with implicit ranges"
      input Real x[:];
      input Real w[:];
      output Real d;
      output Real squares[size(x, 1)];
    algorithm
      d := sum(w[i]*x[i] for i);
      squares := {x[i]^2 for i};
    end dot;
    model Sums
      Real total;
      Real s[3];
      Real d;
      Real squares[3];
    equation
      (total, s) = weighted({1, 2, 3}*time, {1, 10, 100});
      (d, squares) = dot({1, 2, 3}*time, {1, 10, 100});
      annotation(experiment(StopTime = 1));
    end Sums;
    model Mismatch "w is shorter than x: the call fails while running"
      Real total;
      Real s[3];
    equation
      (total, s) = weighted({1, 2, 3}*time, {1, 10});
      annotation(experiment(StopTime = 1));
    end Mismatch;
  end InFunctions;
  package TypeRanges "a Boolean type as a range, Boolean ranges, Boolean-typed dimensions"
    model Booleans
      Real a[Boolean];
      Real b[Switch];
      Real c[Boolean];
    equation
      for v in Boolean loop
        a[v] = if v then time else 1 - time;
      end for;
      for v in false:true loop
        c[v] = if v then 3*time else 2*time;
      end for;
      b[false] = a[true] + 1;
      b[true] = c[false] - 1;
      annotation(experiment(StopTime = 1));
    end Booleans;
    model OnlyTrue "true:true has one element, true:false none"
      Real n;
    algorithm
      n := time;
      for v in true:true loop
        n := n + (if v then 10 else 100);
      end for;
      for v in true:false loop
        n := n + 1000;
      end for;
      annotation(experiment(StopTime = 1));
    end OnlyTrue;
    model VaryingRange "a for-statement over a vector of Integer variables (MLS 11.2.2)"
      Integer k[2];
      Real x[3];
    equation
      k[1] = if time < 0.5 then 1 else 2;
      k[2] = 3;
    algorithm
      x := zeros(3);
      for i in k loop
        x[i] := x[i] + i*time;
      end for;
      annotation(experiment(StopTime = 1));
    end VaryingRange;
  end TypeRanges;
  package Matrices "matrix powers and symmetric() (MLS 10.6.4, 10.3.6)"
    function mirrored "symmetric() in a function, run while translating"
      input Real A[:, :];
      output Real B[size(A, 1), size(A, 2)];
    protected
      Real C[size(A, 1), size(A, 2)];
    algorithm
      C := A;
      B := symmetric(C);
    end mirrored;
    model Powers
      parameter Integer n = 3;
      parameter Real M[2, 2] = [1, 2; 3, 4];
      Real T[2, 2] = mirrored(M)*time;
      Real A[2, 2] = [1, time; -time, 2];
      Real P0[2, 2] = A^0;
      Real P1[2, 2] = A^1;
      Real Pn[2, 2] = A^n;
      Real S[3, 3] = symmetric([1, 2, 3; 4, 5, 6; 7, 8, 9]*time);
      annotation(experiment(StopTime = 1));
    end Powers;
    model EmptyProducts "products over an empty dimension are zero, of the declared sizes"
      Real x[3, 0], y[0, 2], v[0], w[0, 3], e[0, 2];
      Real z[3, 2] = x*y + fill(time, 3, 2);
      Real u[3] = v*w + {1, 2, 3}*time;
      Real s = v*v + time;
      Real none[0, 2] = e*[1, 2; 3, 4];
      annotation(experiment(StopTime = 1));
    end EmptyProducts;
    model NotSquare
      Real B[2, 3] = fill(time, 2, 3);
      Real C[2, 3] = B^2;
    end NotSquare;
  end Matrices;
  package Flexible "sizes ':' in functions, and cat() in them (MLS 12.4.5)"
    function joinThree
      input Real a[:], b[:], c[:];
      output Real r[size(a, 1) + size(b, 1) + size(c, 1)];
    algorithm
      r := cat(1, a, b, c);
    end joinThree;
    function positives "grows its output: its size is known once it ran"
      input Real x[:];
      output Real p[:];
    algorithm
      for i in 1:size(x, 1) loop
        if x[i] > 0 then
          p := cat(1, p, x[i:i]);
        end if;
      end for;
    end positives;
    model Joined "the function runs in C: its arguments vary"
      Real u[2] = {time, 2*time};
      Real v[1] = {-time};
      Real w[3] = {1, 2, 3}*time;
      Real j[6];
    algorithm
      j := joinThree(u, v, w);
      annotation(experiment(StopTime = 1));
    end Joined;
    model Collected "sizes from a call computed while translating, from a binding or a start value"
      parameter Real a[:] = {-1, 3, 0, 5, -2};
      Real x[:] = positives(a)*time;
      Real y[:](each fixed = true, start = positives(a));
    equation
      der(y) = -y;
      annotation(experiment(StopTime = 1));
    end Collected;
  end Flexible;
  package Invalid "refused: the range cannot be deduced"
    model DifferentSizes
      Real x[2], y[3];
    equation
      for i loop
        x[i] = y[i];
      end for;
      y = {1, 2, 3};
    end DifferentSizes;
    model NotASubscript
      Real x[2];
    equation
      for i loop
        x[1] = i;
      end for;
      x[2] = 0;
    end NotASubscript;
    model DifferentIndexTypes
      Real x[2], y[Boolean];
    equation
      for i loop
        y[i] = x[i];
      end for;
      x = {1, 2};
    end DifferentIndexTypes;
    model RangeAssigned "a varying range whose variables the loop assigns"
      Integer m[2];
    algorithm
      m := {1, 2};
      for i in m loop
        m[i] := 2;
      end for;
    end RangeAssigned;
    function resized "the array giving the range changes size in the loop"
      input Integer n;
      output Integer m = 0;
    protected
      Integer x[:];
    algorithm
      x := ones(n);
      for i loop
        x := ones(x[i] + 1);
        m := m + 1;
      end for;
    end resized;
    model RangeResized
      Integer m = resized(3);
    end RangeResized;
    model VaryingSize "legal Modelica, but the loop would have to run in C"
      Integer n = if time < 0.5 then 1 else 2;
      Real x[2];
    algorithm
      x := zeros(2);
      for i in 1:n loop
        x[i] := time;
      end for;
    end VaryingSize;
  end Invalid;
end ConformRanges;
