within;
package Spatial "spatialDistribution() (MLS 3.7.4.2) against closed forms (test_spatial_distribution.py)"
  model Constant "transport at velocity v: out1 is in0 a transport time 1/v later, the initial profile 1 + 2 y before"
    parameter Real v = 2;
    Real x(start = 0, fixed = true);
    Real in0 = sin(time);
    Real out0, out1;
  equation
    der(x) = v;
    (out0, out1) = spatialDistribution(in0, 0.0, x, v >= 0, initialPoints = {0.0, 1.0},
      initialValues = {1.0, 3.0});
  end Constant;

  model Jump "an initial profile with a jump at y = 0.5, transported out at t = 0.25"
    parameter Real v = 2;
    Real x(start = 0, fixed = true);
    Real out0, out1;
  equation
    der(x) = v;
    (out0, out1) = spatialDistribution(sin(time), 0.0, x, true,
      initialPoints = {0.0, 0.5, 0.5, 1.0}, initialValues = {1.0, 1.0, 2.0, 2.0});
  end Jump;

  model Reversing "x = A sin(t): what entered at one end comes back out of it"
    parameter Real A = 0.4;
    Real x(start = 0, fixed = true);
    Real in0 = cos(3 * time);
    Real in1 = sin(2 * time);
    Real out0, out1;
  equation
    der(x) = A * cos(time);
    (out0, out1) = spatialDistribution(in0, in1, x, der(x) >= 0,
      initialPoints = {0.0, 1.0}, initialValues = {0.5, -0.5});
  end Reversing;

  package Refused
    function f
      input Real u;
      input Real x;
      output Real y;
    protected
      Real a;
    algorithm
      (a, y) := spatialDistribution(u, u, x, true);
    end f;

    model InFunction
      Real y = f(time, time);
    end InFunction;

    model InAlgorithm
      Real a, b;
    algorithm
      (a, b) := spatialDistribution(time, time, time, true);
    end InAlgorithm;

    model InExpression
      Real y = 1 + spatialDistribution(time, time, time, true);
    end InExpression;

    model Sizes
      Real a, b;
    equation
      (a, b) = spatialDistribution(time, 0.0, time, true, initialPoints = {0.0, 0.5, 1.0},
        initialValues = {0.0, 1.0});
    end Sizes;

    model Unsorted
      Real a, b;
    equation
      (a, b) = spatialDistribution(time, 0.0, time, true, initialPoints = {0.0, 0.7, 0.5, 1.0},
        initialValues = {0.0, 1.0, 1.0, 0.0});
    end Unsorted;
  end Refused;
end Spatial;
