package External "External C functions, external objects and Strings in self-written models, each compared with closed forms (test_external_functions.py); their C code is in external_c/"
  package Numbers "numbers.c: arrays with their sizes, results through pointers, errors"
    function polynomial "c[1] + c[2]*x + c[3]*x^2 + ..."
      input Real c[:];
      input Real x;
      output Real y;
    external "C" y = numbers_polynomial(c, size(c, 1), x)
      annotation (Include = "#include \"numbers.h\"", Library = "numbers",
        IncludeDirectory = "modelica://External/external_c");
    end polynomial;

    function scaled "k*x, through the default mapping of the inputs and the result"
      input Real x;
      input Real k;
      output Real y;
    external "C"
      annotation (Library = "numbers", IncludeDirectory = "modelica://External/external_c");
    end scaled;

    function signs "How many elements are positive, and whether one is negative"
      input Real v[:];
      output Integer positives;
      output Boolean anyNegative;
    external "C" numbers_signs(v, size(v, 1), positives, anyNegative)
      annotation (Include = "#include \"numbers.h\"", Library = "numbers",
        IncludeDirectory = "modelica://External/external_c");
    end signs;

    function cumulative "The running sums of v"
      input Real v[:];
      output Real sums[size(v, 1)];
    external "C" numbers_cumulative(v, size(v, 1), sums)
      annotation (Include = "#include \"numbers.h\"", Library = "numbers",
        IncludeDirectory = "modelica://External/external_c");
    end cumulative;

    function flagPositions "The sum of the positions of the true flags"
      input Boolean flags[:];
      output Integer total;
    external "C" total = numbers_flag_positions(flags, size(flags, 1))
      annotation (Include = "#include \"numbers.h\"", Library = "numbers",
        IncludeDirectory = "modelica://External/external_c");
    end flagPositions;

    function checkedSqrt "sqrt(x), an error (ModelicaError) for x < 0"
      input Real x;
      output Real y;
    external "C" y = numbers_checked_sqrt(x)
      annotation (Include = "#include \"numbers.h\"", Library = "numbers",
        IncludeDirectory = "modelica://External/external_c");
    end checkedSqrt;

    function cubeRoot "The C library's cbrt, declared from the mapping (no Include)"
      input Real x;
      output Real y;
    external "C" y = cbrt(x) annotation (Library = "m");
    end cubeRoot;
  end Numbers;

  model Calls "Every kind of argument and result of numbers.c"
    Real x = time;
    Real p = Numbers.polynomial({1, -2, 3}, x) "1 - 2x + 3x^2";
    Real s = Numbers.scaled(x, 4) "4x";
    Real sums[3] = Numbers.cumulative({x, 2*x, 3*x}) "x, 3x, 6x";
    Real root = Numbers.cubeRoot(8*x) "2 x^(1/3)";
    Integer positives(start = 0, fixed = true);
    Boolean anyNegative(start = false, fixed = true);
    Integer flagTotal(start = 0, fixed = true);
  equation
    when sample(0, 0.125) then
      (positives, anyNegative) = Numbers.signs({x - 0.5, x - 0.75, 0.25});
      flagTotal = Numbers.flagPositions({x > 0.5, true, x > 0.25});
    end when;
  end Calls;

  model EmptyTable "Empty arrays as the library's tables declare them (table read from a file)"
    parameter Real table[:, :] = fill(0.0, 0, 2);
    parameter Integer rows = size(table, 1);
    parameter Integer columns = size(table, 2) "2, though table has no element";
    parameter Real coefficients[:] = fill(0.0, 0);
    Real p = Numbers.polynomial(coefficients, time) "0: no coefficient";
  end EmptyTable;

  model Failing "numbers_checked_sqrt ends the simulation with its error after t = 0.5"
    Real y = Numbers.checkedSqrt(0.5 - time);
  end Failing;

  package Texts "texts.c, and Strings made in Modelica"
    function length "The number of characters"
      input String s;
      output Integer n;
    external "C" n = texts_length(s)
      annotation (Include = "#include \"texts.h\"", Library = "texts",
        IncludeDirectory = "modelica://External/external_c");
    end length;

    function wrapped "prefix(s), a String result of C"
      input String prefix;
      input String s;
      output String result;
    external "C" result = texts_wrapped(prefix, s)
      annotation (Include = "#include \"texts.h\"", Library = "texts",
        IncludeDirectory = "modelica://External/external_c");
    end wrapped;

    function count "How often the first character of c occurs in s"
      input String s;
      input String c;
      output Integer n;
    external "C" texts_count(s, c, n)
      annotation (Include = "#include \"texts.h\"", Library = "texts",
        IncludeDirectory = "modelica://External/external_c");
    end count;

    function label "x=<x with the given significant digits>"
      input Real x;
      input Integer digits;
      output String s;
    algorithm
      s := "x=" + String(x, significantDigits = digits);
    end label;

    function classify "2 above 0.5, else 1: through Strings compared"
      input Real x;
      output Integer k;
    protected
      String level;
    algorithm
      level := if x > 0.5 then "high" else "low";
      if level == "high" then
        k := 2;
      elseif level < "m" then
        k := 1;
      else
        k := 0;
      end if;
    end classify;
  end Texts;

  type Level = enumeration(low "below 0.5", high "above") "named by String()";

  function levelName "The name of the level of x: String() of an enumeration"
    input Real x;
    output String name;
  algorithm
    name := String(if x > 0.5 then Level.high else Level.low);
  end levelName;

  model Strings "String parameters and Strings made at events, measured by texts.c"
    parameter String name = "pump";
    parameter Integer digits = 4;
    parameter String tag = Texts.wrapped(name, String(digits)) "pump(4)";
    parameter Integer tagLength = Texts.length(tag);
    Integer labelLength(start = 0, fixed = true) "length of label(time, digits)";
    Integer level(start = 0, fixed = true) "classify(time)";
    Integer formatted(start = 0, fixed = true) "length of String(time, format = \"10.3f\")";
    Integer padded(start = 0, fixed = true) "length of String(digits, minimumLength = 6)";
    Integer dots(start = 0, fixed = true) "the dots of a String(time) + \".\" + name";
    Integer levelLength(start = 0, fixed = true) "length of levelName(time)";
  equation
    when sample(0, 0.1) then
      labelLength = Texts.length(Texts.label(time, digits));
      level = Texts.classify(time);
      formatted = Texts.length(String(time, format = "10.3f"));
      padded = Texts.length(String(digits, minimumLength = 6, leftJustified = false));
      dots = Texts.count(String(time + 0.5, significantDigits = 3) + "." + name, ".");
      levelLength = Texts.length(levelName(time));
    end when;
  end Strings;

  class RampTable "ramp_table.c: rows (x, y) interpolated linearly"
    extends ExternalObject;

    function constructor
      input Real rows[:, 2];
      input String name = "ramp";
      output RampTable table;
    external "C" table = ramp_table_open(rows, size(rows, 1), size(rows, 2), name)
      annotation (Include = "#include \"ramp_table.h\"", Library = "ramp_table",
        IncludeDirectory = "modelica://External/external_c");
    end constructor;

    function destructor
      input RampTable table;
    external "C" ramp_table_close(table)
      annotation (Include = "#include \"ramp_table.h\"", Library = "ramp_table",
        IncludeDirectory = "modelica://External/external_c");
    end destructor;
  end RampTable;

  function rampValue
    input RampTable table;
    input Real x;
    output Real y;
  external "C" y = ramp_table_value(table, x)
    annotation (Include = "#include \"ramp_table.h\"", Library = "ramp_table",
      IncludeDirectory = "modelica://External/external_c");
  end rampValue;

  function nextRow "The first row's x after x"
    input RampTable table;
    input Real x;
    output Real next;
  external "C" next = ramp_table_next_x(table, x)
    annotation (Include = "#include \"ramp_table.h\"", Library = "ramp_table",
      IncludeDirectory = "modelica://External/external_c");
  end nextRow;

  model Ramp "A table object of the parameters, with a time event at each row"
    parameter Real rows[3, 2] = [0, 0; 1, 2; 3, 3];
    parameter RampTable table = RampTable(rows, "ramp");
    Real y = rampValue(table, time);
    Real z(start = 0, fixed = true) "the integral of y";
    discrete Real next(start = 0, fixed = true) "the next row's x";
    Integer rowsPassed(start = 0, fixed = true);
  equation
    der(z) = y;
    when {initial(), time >= pre(next)} then
      next = nextRow(table, time);
      rowsPassed = pre(rowsPassed) + 1;
    end when;
  end Ramp;

  class FileRampTable "ramp_table.c: the rows of a text file"
    extends ExternalObject;

    function constructor
      input String fileName;
      output FileRampTable table;
    external "C" table = ramp_table_read(fileName)
      annotation (Include = "#include \"ramp_table.h\"", Library = "ramp_table",
        IncludeDirectory = "modelica://External/external_c");
    end constructor;

    function destructor
      input FileRampTable table;
    external "C" ramp_table_close(table)
      annotation (Include = "#include \"ramp_table.h\"", Library = "ramp_table",
        IncludeDirectory = "modelica://External/external_c");
    end destructor;
  end FileRampTable;

  function fileRampValue
    input FileRampTable table;
    input Real x;
    output Real y;
  external "C" y = ramp_table_value(table, x)
    annotation (Include = "#include \"ramp_table.h\"", Library = "ramp_table",
      IncludeDirectory = "modelica://External/external_c");
  end fileRampValue;

  model FileRamp "The rows of external_c/ramp.txt, a resource of the FMU (ModelicaServices
    is the library's, or the test's own stand-in)"
    parameter String fileName =
      ModelicaServices.ExternalReferences.loadResource("modelica://External/external_c/ramp.txt");
    parameter FileRampTable table = FileRampTable(fileName);
    Real y = fileRampValue(table, time);
  end FileRamp;

  model BadRamp "x decreases: the constructor's error ends the initialization"
    parameter RampTable table = RampTable([0, 0; 2, 1; 1, 2], "bad");
    Real y = rampValue(table, time);
  end BadRamp;

  package Bodies "Function bodies as the library's functions write them"
    function orientations "Recursion through slices assigned from calls: n = 4 gives 0.5, 1.5, 1.5, 2.5"
      input Integer n;
      output Real o[n];
    algorithm
      if n == 1 then
        o[1] := 0.5;
      else
        o[1:div(n, 2)] := orientations(div(n, 2));
        o[div(n, 2) + 1:n] := orientations(n - div(n, 2)) + fill(1, n - div(n, 2));
      end if;
    end orientations;

    function advance "The next pair of Fibonacci numbers"
      input Real x[2];
      output Real y[2];
    algorithm
      y := {x[2], x[1] + x[2]};
    end advance;

    function fibonacci "x := advance(x): an output array that is also the argument"
      input Integer n;
      output Real f;
    protected
      Real x[2] = {0, 1};
    algorithm
      for i in 1:n loop
        x := advance(x);
      end for;
      f := x[1];
    end fibonacci;

    function rotation "Sum of v[k] times the unit vector at angle orientations(n)[k]*angle"
      input Real v[:];
      input Real angle;
      output Real w[2];
    protected
      Integer n = size(v, 1);
      Real phi[n] = orientations(n)*angle;
      Real T[2, n] = {cos(phi), sin(phi)};
    algorithm
      w := T*v;
    end rotation;

    function normal "The unit normal of a and b: cross() and smooth() of arrays"
      input Real a[3];
      input Real b[3];
      output Real n[3];
    protected
      Real c[3];
    algorithm
      c := cross(a, b);
      n := smooth(0, c/sqrt(c*c));
    end normal;

    model Use
      Real o[4] = orientations(4);
      Real f = fibonacci(10);
      Real w[2] = rotation({1, 2, 3}, time);
      Real n[3] = normal({1, 2, 3}, {time, 1, 0});
    end Use;

    model LongLoop "A nonlinear loop through 45 assignments: x = 0.3 cos(a[45])"
      Real a[45];
      Real x(start = 0.5);
    equation
      a[1] = sin(x) + time;
      for k in 2:45 loop
        a[k] = 0.99*a[k - 1] + 0.01;
      end for;
      x = 0.3*cos(a[45]);
    end LongLoop;
  end Bodies;
end External;
