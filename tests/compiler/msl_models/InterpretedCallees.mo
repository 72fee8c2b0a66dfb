// Package constants bound to calls that flattening evaluates with the reference interpreter:
// 'twice' calls an external C function the interpreter cannot run, so its evaluation fails
// and the call is left to the generated C; 'b' (through 'plusOne') is evaluated first, then
// 'twice' alone for 'a', from the same table of interpreted functions.
package InterpretedCallees
  function tripled
    input Real x;
    output Real y;
    external "C" y = interpretedCalleesTripled(x)
      annotation(Include = "static double interpretedCalleesTripled(double x) { return 3 * x; }");
  end tripled;

  function twice
    input Real x;
    output Real y;
  algorithm
    y := 2 * tripled(x);
  end twice;

  function plusOne
    input Real x;
    output Real y;
  algorithm
    y := twice(x) + 1;
  end plusOne;

  package Constants
    constant Real a = twice(1);
    constant Real b = plusOne(2);
  end Constants;

  model UsesBoth
    Real x(start = 0, fixed = true);
  equation
    der(x) = Constants.b + Constants.a;
  end UsesBoth;
end InterpretedCallees;
