package CodegenGaps
  "Constructs that stopped MSL examples at code generation (issue 13 items 7, 8, 12), each in a
  small self-written model"

  package Warnings "Generated C that gcc warned about"
    function scaled "A protected variable never read, another only assigned"
      input Real x;
      output Real y;
    protected
      Real unused;
      Integer count;
    algorithm
      count := 3;
      y := 2*x;
    end scaled;

    function stack "Appends b to a; either may be empty"
      input Real a[:];
      input Real b[:];
      output Real c[size(a, 1) + size(b, 1)];
    protected
      Real scratch[size(a, 1)] = a;
    algorithm
      for i in 1:size(a, 1) loop
        c[i] := scratch[i];
      end for;
      for i in 1:size(b, 1) loop
        c[size(a, 1) + i] := b[i];
      end for;
    end stack;

    model Unused
      Real y = scaled(time);
    end Unused;

    model Empty "Empty arrays: arguments, results and locals"
      parameter Integer n = 0;
      parameter Real a[n] = fill(1.0, n);
      Real c[2] = stack(a, {time, 2*time});
      Real e[0] = stack(a, a);
    end Empty;

    model Cell
      Real valueOfTheUnknownInThisRatherVerboselyNamedCellOfTheChain;
    end Cell;

    model LongLoop "A linear system whose unknowns' names are longer than a C string may be"
      parameter Integer n = 70;
      Cell cellOfAChainWithAVeryLongNameIndeed[n];
    equation
      for i in 1:n loop
        cellOfAChainWithAVeryLongNameIndeed[i].valueOfTheUnknownInThisRatherVerboselyNamedCellOfTheChain
          + 0.01*sum(cellOfAChainWithAVeryLongNameIndeed.valueOfTheUnknownInThisRatherVerboselyNamedCellOfTheChain)
          = i*time;
      end for;
    end LongLoop;
  end Warnings;

  package Functions "Function bodies the C code generator did not translate"
    function toPhasor "An array literal of array expressions; a default needing a loop"
      input Real x[:];
      output Real y[2];
      output Real y0;
    protected
      Integer m = size(x, 1);
      Real phi[m] = {(k - 1)*0.5 for k in 1:m};
      Real T[2, m] = 2/m*{+cos(+phi), +sin(+phi)};
    algorithm
      y := T*x;
      y0 := 1/m*sum(x);
    end toPhasor;

    model Phasor
      Real y[2];
      Real y0;
    equation
      (y, y0) = toPhasor({1, 2, 3}*time);
    end Phasor;

    function orientation "Halves for an even m, each half as for m/2, the second shifted"
      input Integer m;
      output Real phi[m];
    algorithm
      if mod(m, 2) == 0 then
        if m == 2 then
          phi[1] := 0;
          phi[2] := 1.5;
        else
          phi[1:integer(m/2)] := orientation(integer(m/2));
          phi[integer(m/2) + 1:m] := orientation(integer(m/2)) - fill(0.1, integer(m/2));
        end if;
      else
        phi := {(k - 1)*2/m for k in 1:m};
      end if;
    end orientation;

    function shifted "x moved down one place, the last element kept"
      input Real x[:];
      output Real y[size(x, 1)];
    algorithm
      y := x;
      y[1:size(x, 1) - 1] := y[2:size(x, 1)];
    end shifted;

    model Slices "Slices assigned from calls, from expressions of calls, from themselves"
      Real a[6] = orientation(6)*(1 + time);
      Real b[4] = orientation(4);
      Real s[3] = shifted({1, 2, 3}*time);
    end Slices;
  end Functions;

  package Algorithms "Model algorithms the front end refused"
    model Buffer "Samples stored in the elements a counter chooses"
      parameter Integer n = 3;
      discrete Real buf[n](each start = 0, each fixed = true);
      discrete Real table[n, 2](each start = 0, each fixed = true);
      Integer i(start = 0, fixed = true);
    algorithm
      when sample(0.1, 0.2) then
        i := pre(i) + 1;
        if i <= n then
          buf[i] := 10*time;
          table[i, 2 - mod(i, 2)] := i;
        end if;
      end when;
    end Buffer;

    model Overrun "A subscript that goes past the end of the array"
      discrete Real buf[2](each start = 0, each fixed = true);
      Integer i(start = 0, fixed = true);
    algorithm
      when sample(0.1, 0.2) then
        i := pre(i) + 1;
        buf[i] := time;
      end when;
    end Overrun;
  end Algorithms;

  package Arrays "Array constructors of the front end"
    model EmptyRows "Rows of no elements in a matrix constructor"
      parameter Real b[3] = {1, 2, 3};
      parameter Integer none = 0;
      parameter Integer two = 2;
      parameter Real padded0[:] = vector([zeros(none, 1); b]);
      parameter Real padded2[:] = vector([zeros(two, 1); b]);
      Real y = sum(padded2)*time;
    end EmptyRows;
  end Arrays;

  package Delays "delay(expr, delayTime, delayMax) (MLS 3.7.2.1)"
    model Pure "A delayed time function: cos(0) until the delay has passed"
      parameter Real T = 0.5;
      Real y = delay(cos(2*time), T);
    end Pure;

    model Feedback "x' = -x(t - 1) with x = 1 before: 1 - t, then 1 - t + (t - 1)^2/2"
      Real x(start = 1, fixed = true);
    equation
      der(x) = -delay(x, 1);
    end Feedback;

    model Line "A lossless line of delay T between a matched source and a load of 3 Z0"
      parameter Real Z0 = 50;
      parameter Real T = 0.2;
      parameter Real V = 1;
      Real v1, v2, i1, i2, es, er;
    equation
      v1 = (if time >= 0.1 then V else 0) - Z0*i1;
      v2 = -3*Z0*i2;
      i1 = (v1 - es)/Z0;
      i2 = (v2 - er)/Z0;
      es = 2*delay(v2, T) - delay(er, T);
      er = 2*delay(v1, T) - delay(es, T);
    end Line;

    model Counter "An Integer counter delayed: its steps come exactly a delay later"
      Integer n(start = 0, fixed = true);
      Integer m;
    equation
      when sample(0.1, 0.3) then
        n = pre(n) + 1;
      end when;
      m = integer(delay(n, 0.2));
    end Counter;

    model Varying "A delay time that varies, within delayMax"
      Real y = delay(time, 0.1 + 0.1*time, 0.5);
    end Varying;

    model TooLong "A delay time beyond delayMax"
      Real y = delay(time, 2*time, 0.5);
    end TooLong;

    model NoMaximum "A delay time that varies needs delayMax"
      Real y = delay(time, 0.1*time);
    end NoMaximum;
  end Delays;

  package Events "Relations and event functions around delays"
    model AtTheInstant "A relation of time switches at its instant, with a sample there"
      Integer n(start = 0, fixed = true);
      Real x = if time >= 0.25 then 1 else 0;
    equation
      when sample(0.5, 1) then
        n = pre(n) + (if time >= 0.5 then 10 else 1);
      end when;
    end AtTheInstant;

    model OntoAnInteger "integer() of a value jumping onto an integer"
      Real x = if time > 0.5 then 1 else 0;
      Integer k = integer(x);
    end OntoAnInteger;

    model PreAlias "A variable equal to a pre value is no parameter"
      Integer n(start = 0, fixed = true);
      Real r = pre(n);
    equation
      when sample(0.1, 0.2) then
        n = pre(n) + 1;
      end when;
    end PreAlias;
  end Events;

  package Derivatives "derivative annotations of Modelica functions (MLS 12.7.1)"
    function cubic "x^3 + a x; n is not used"
      input Real x;
      input Real a;
      input Integer n;
      output Real y;
    algorithm
      y := x^3 + a*x;
      annotation(derivative(zeroDerivative = a) = cubicDer);
    end cubic;

    function cubicDer
      input Real x;
      input Real a;
      input Integer n;
      input Real dx;
      output Real dy;
    algorithm
      dy := (3*x^2 + a)*dx;
    end cubicDer;

    function parts "x^3 and x, with an Integer between them"
      input Real x;
      output Real cube;
      output Integer one;
      output Real same;
    algorithm
      cube := x^3;
      one := 1;
      same := x;
      annotation(derivative = partsDer);
    end parts;

    function partsDer
      input Real x;
      input Real dx;
      output Real dcube;
      output Real dsame;
    algorithm
      dcube := 3*x^2*dx;
      dsame := dx;
    end partsDer;

    model Constraint "x^3 + x = sin(time) with der(x) = v: index reduction differentiates it"
      parameter Real a = 1;
      Real x;
      Real v;
    equation
      der(x) = v;
      cubic(x, a, 3) = sin(time);
    end Constraint;

    model Outputs "The same constraint through the results of a function of three"
      Real x;
      Real v;
      Real p;
      Real q;
      Integer k;
    equation
      der(x) = v;
      (p, k, q) = parts(x);
      p + q = sin(time);
    end Outputs;

    record Scale
      Real gain;
      Real unused;
    end Scale;

    function scaledCubic "gain (x^3 + x); the record input has no derivative"
      input Scale s;
      input Real x;
      output Real y;
    algorithm
      y := s.gain*(x^3 + x);
      annotation(derivative(noDerivative = s) = scaledCubicDer);
    end scaledCubic;

    function scaledCubicDer
      input Scale s;
      input Real x;
      input Real dx;
      output Real dy;
    algorithm
      dy := s.gain*(3*x^2 + 1)*dx;
    end scaledCubicDer;

    model RecordInput "noDerivative names a record input: all of its fields"
      parameter Scale s(gain = 2, unused = 0);
      Real x;
      Real v;
    equation
      der(x) = v;
      scaledCubic(s, x) = 2*sin(time);
    end RecordInput;

    model Varying "zeroDerivative = a does not apply where a changes"
      Real a = 1 + time;
      Real x;
      Real v;
    equation
      der(x) = v;
      cubic(x, a, 3) = sin(time);
    end Varying;
  end Derivatives;

  package Initialization "Initial equations of sampled variables"
    model SampledMinimum "Initial equations give a sampled Real and a sampled time"
      Real u = sin(10*time);
      Real y_min;
      discrete Real t_min;
      parameter Real t0(fixed = false);
    initial equation
      t0 = time;
      y_min = u;
      t_min = time;
    equation
      when sample(t0 + 0.1, 0.1) then
        y_min = min(u, pre(y_min));
        if y_min < pre(y_min) then
          t_min = time;
        else
          t_min = pre(t_min);
        end if;
      end when;
    end SampledMinimum;
  end Initialization;

  package Refused "Constructs refused with a located message"
    function report "No results"
      input Real x;
    algorithm
      assert(x < 10, "too large");
    end report;

    model CallInWhen
      Real x = time;
    equation
      when terminal() then
        report(x);
      end when;
    end CallInWhen;
  end Refused;
end CodegenGaps;
