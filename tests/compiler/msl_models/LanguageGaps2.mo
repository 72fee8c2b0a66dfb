package LanguageGaps2 "language constructs Modelica.Media and the compliance suite use, each in a small self-written model"
  function logPair "appends the line 't x' to a file: a function without outputs, for its effect"
    input String fileName;
    input Real t;
    input Real x;
  external "C" languageGapsLogPair(fileName, t, x) annotation(Include = "#include <stdio.h>
static void languageGapsLogPair(const char *fileName, double t, double x) {
    FILE *file = fopen(fileName, \"a\");
    if (file) {
        fprintf(file, \"%.17g %.17g\\n\", t, x);
        fclose(file);
    }
}");
  end logPair;

  package Calls "a call of a function without outputs as an equation or a statement (MLS 8.3.8, 11.2.6)"
    model CallEquation "logPair(...) as an equation: it runs wherever the model is evaluated"
      parameter String fileName = "calls.txt";
      Real x(start = 1, fixed = true);
    equation
      der(x) = -x;
      logPair(fileName, time, x);
      annotation(experiment(StopTime = 1));
    end CallEquation;

    model CallStatement "logPair(...) in a model's algorithm, after the assignment it logs"
      parameter String fileName = "calls.txt";
      Real x(start = 1, fixed = true);
      Real y;
    equation
      der(x) = -x;
    algorithm
      y := 2 * x;
      logPair(fileName, time, y);
      annotation(experiment(StopTime = 1));
    end CallStatement;

    model InitialCall "logPair(...) in an initial equation section: once, at the start"
      parameter String fileName = "calls.txt";
      Real x(start = 3, fixed = true);
    initial equation
      logPair(fileName, time, x);
    equation
      der(x) = -x;
      annotation(experiment(StopTime = 1));
    end InitialCall;
  end Calls;

  package Records "arrays of records and operator records in function bodies"
    operator record Cplx "a complex number with its own '*'"
      Real re;
      Real im;
      encapsulated operator '*'
        function multiply
          import LanguageGaps2.Records.Cplx;
          input Cplx a;
          input Cplx b;
          output Cplx c;
        algorithm
          c := Cplx(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
        end multiply;
      end '*';
    end Cplx;

    function unitImaginary "x + i"
      input Real x;
      output Cplx c;
    algorithm
      c := Cplx(x, 1);
    end unitImaginary;

    function product "a local array of records bound to an array constructor; a call's record times a record"
      input Real x;
      output Real y;
    protected
      final Cplx[2] t = {Cplx(1, 2), Cplx(3, 4)};
      Cplx[2] u = {Cplx(x, 2 * x), Cplx(5, 6)};
      Cplx p;
    algorithm
      p := unitImaginary(x) * t[2];
      y := p.re + t[1].im + u[1].im;
    end product;

    model Product "y = Re((x + i)(3 + 4i)) + 2 + 2x = 5x - 2"
      Real x = time;
      Real y = product(x);
      annotation(experiment(StopTime = 1));
    end Product;
  end Records;

  package Inherited "a function body inherited from a class in another package reads the names around its text (MLS 5.3)"
    package Base
      record data "constants in a record class, as IF97's"
        constant Real K = 2;
      end data;

      package Basic
        function g
          input Real x;
          input Boolean offset = true;
          output Real y;
        algorithm
          y := data.K * x;
          if offset then
            y := y + 1;
          end if;
        end g;
      end Basic;
    end Base;

    package User
      function shortWithoutOffset = LanguageGaps2.Inherited.Base.Basic.g(final offset = false);

      function extendedWithoutOffset
        extends LanguageGaps2.Inherited.Base.Basic.g(final offset = false);
      end extendedWithoutOffset;
    end User;

    model Use "y1 = y2 = 2 time, y3 = 2 time + 1"
      Real y1 = User.shortWithoutOffset(time);
      Real y2 = User.extendedWithoutOffset(time);
      Real y3 = Base.Basic.g(time);
      annotation(experiment(StopTime = 1));
    end Use;
  end Inherited;

  package Comprehensions "an array comprehension assigned to a slice, or to the array it reads"
    function vandermonde "columns u^n, ..., u, 1, each made from the next (as Polynomials.fitting)"
      input Real u[:];
      input Integer n;
      output Real V[size(u, 1), n + 1];
    algorithm
      V[:, n + 1] := ones(size(u, 1));
      for j in n:-1:1 loop
        V[:, j] := {u[i] * V[i, j + 1] for i in 1:size(u, 1)};
      end for;
    end vandermonde;

    function reversed "y reversed in place: the elements read y before any is written"
      input Real u[:];
      output Real y[size(u, 1)];
    algorithm
      y := u;
      y := {y[size(u, 1) - i + 1] for i in 1:size(u, 1)};
    end reversed;

    model Use
      Real V[3, 3] = vandermonde({time, 2, 3}, 2);
      Real r[3] = reversed({time, 2, 3});
      annotation(experiment(StopTime = 1));
    end Use;
  end Comprehensions;

  package RecordLocals "a record declared in a function without a binding has its fields' bindings"
    record Coefficients
      parameter Integer nc = 2;
      parameter Real[nc] a = fill(1, nc) "sized by the field before it";
    end Coefficients;

    record Quadratic "coefficients set by the extends clause, as R134a's EOSIdealCoeff"
      extends Coefficients(nc = 3, a = {1, 2, 3});
    end Quadratic;

    record Offset
      Real k = 4;
    end Offset;

    function evaluate "a[1] + a[2] x + a[3] x^2 + k + nc"
      input Real x;
      output Real y;
    protected
      Quadratic q;
      Offset o;
    algorithm
      y := q.a[1] + q.a[2] * x + q.a[3] * x ^ 2 + o.k + q.nc;
    end evaluate;

    model Use
      Real y = evaluate(time);
      annotation(experiment(StopTime = 1));
    end Use;
  end RecordLocals;

  package ColonLocals "a local array whose size only its binding gives; scalar(size(v))"
    function weightedSum "sum of w[k] u^k, w written out with ':' sizes"
      input Real u;
      output Real y;
    protected
      Real w[:] = {1, 2, 3};
      Real powers[:, :] = {{0, 1}, {2, 3}};
      Integer n = scalar(size(w));
    algorithm
      y := 0;
      for k in 1:n loop
        y := y + w[k] * u ^ powers[div(k - 1, 2) + 1, mod(k - 1, 2) + 1];
      end for;
    end weightedSum;

    model Use "y = 1 + 2 time + 3 time^2"
      Real y = weightedSum(time);
      annotation(experiment(StopTime = 1));
    end Use;
  end ColonLocals;
end LanguageGaps2;
