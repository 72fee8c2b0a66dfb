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
end LanguageGaps2;
