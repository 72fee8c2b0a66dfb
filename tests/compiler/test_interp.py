"""The reference interpreter against analytic solutions and independent scipy solutions."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from scipy.integrate import solve_ivp
from scipy.optimize import brentq

from compiler import causalize_api
from compiler.causalize import causalize
from compiler.interp import SimulationError, simulate_reference
from compiler.interp.model import ExecutableModel

MODELS = Path(__file__).parent / "causalize_models"


def simulate(file: str, model: str | None = None, **options):
    return causalize_api.simulate_model(MODELS / file, model, environ={}, **options)


@pytest.fixture
def run(flatten):
    """``run(text, **options)``: simulate Modelica text written to Test.mo."""
    return lambda text, **options: simulate_reference(causalize(flatten(text)), **options)


def right_limits(result, name: str):
    """Times and values of ``name`` with the rows before events dropped."""
    keep = np.append(result.time[1:] != result.time[:-1], True)
    return result.time[keep], result[name][keep]


# ------------------------------------------------------------------------ acceptance models
def test_rc_circuit_matches_the_exponential():
    result = simulate("Analog.mo", "Analog.RC")
    tau = 2e3 * 1e-4
    assert np.max(np.abs(result["capacitor.v"] - 5 * (1 - np.exp(-result.time / tau)))) < 1e-7
    assert np.allclose(result["resistor.i"], (5 - result["capacitor.v"]) / 2e3, atol=1e-12)
    assert np.allclose(result["ground.p.v"], 0.0)


def test_parallel_capacitors_share_one_state():
    result = simulate("Analog.mo", "Analog.ParallelCapacitors")
    tau = 10 * (0.01 + 0.03)
    exact = 3 * (1 - np.exp(-result.time / tau))
    assert np.max(np.abs(result["c1.v"] - exact)) < 1e-7
    assert np.max(np.abs(result["c2.v"] - exact)) < 1e-7
    assert np.allclose(result["c2.i"], 3 * result["c1.i"], atol=1e-9)


def test_mass_spring_damper_matches_the_damped_oscillation():
    result = simulate("Translational.mo", "Translational.Oscillator")
    m, c, d, x0 = 2.0, 50.0, 1.5, 0.5
    w0 = math.sqrt(c / m)
    zeta = d / (2 * math.sqrt(c * m))
    wd = w0 * math.sqrt(1 - zeta ** 2)
    t = result.time
    exact = np.exp(-zeta * w0 * t) * (x0 * np.cos(wd * t) + zeta * w0 * x0 / wd * np.sin(wd * t))
    assert np.max(np.abs(result["mass.s"] - exact)) < 1e-7
    assert np.allclose(result["spring.f"], c * result["mass.s"], atol=1e-9)
    assert np.allclose(result["damper.f"], d * result["mass.v"], atol=1e-9)


def test_pendulum_keeps_its_length_and_period():
    result = simulate("Pendulum.mo", interval=1e-3)
    L, g, theta0 = 1.0, 9.81, 10 * math.pi / 180
    assert np.max(np.abs(result["x"] ** 2 + result["y"] ** 2 - L ** 2)) < 1e-6
    # independent solution: theta'' = -g/L sin(theta)
    exact = solve_ivp(lambda t, s: [s[1], -g / L * math.sin(s[0])], (0, 10), [theta0, 0.0],
                      method="DOP853", rtol=1e-12, atol=1e-12, dense_output=True)
    assert np.max(np.abs(result["x"] - L * np.sin(exact.sol(result.time)[0]))) < 1e-6
    # period from the upward zero crossings of x, against the small-angle-corrected formula
    t, x = result.time, result["x"]
    rising = [t[k] - x[k] * (t[k + 1] - t[k]) / (x[k + 1] - x[k])
              for k in range(len(t) - 1) if x[k] < 0 <= x[k + 1]]
    reference = 2 * math.pi * math.sqrt(L / g) * (1 + theta0 ** 2 / 16 + 11 * theta0 ** 4 / 3072)
    assert len(rising) == 5
    assert np.max(np.abs(np.diff(rising) - reference)) < 1e-6


def test_nonlinear_algebraic_loop_matches_scipy():
    result = simulate("Analog.mo", "Analog.DiodeCharger")
    V, R, Is, Vt, C = 2.0, 100.0, 1e-9, 0.025, 1e-3

    def current(vc):
        return brentq(lambda i: V - vc - R * i - Vt * math.log1p(i / Is), 0.0, (V - vc) / R)
    exact = solve_ivp(lambda t, v: [current(v[0]) / C], (0, 1), [0.0], method="Radau",
                      rtol=1e-11, atol=1e-13, dense_output=True)
    assert np.max(np.abs(result["capacitor.v"] - exact.sol(result.time)[0])) < 1e-6
    diode_v = result["diode.v"]
    assert np.allclose(result["diode.i"], Is * (np.exp(diode_v / Vt) - 1), rtol=1e-9)


def test_bouncing_ball_event_instants():
    result = simulate("Events.mo", "Events.BouncingBall")
    e, g, h0 = 0.7, 9.81, 2.0
    t1 = math.sqrt(2 * h0 / g)
    expected = [t1]
    for k in range(1, 5):
        expected.append(expected[-1] + 2 * e ** k * g * t1 / g)
    times, counts = right_limits(result, "bounces")
    bounce_times = [times[k] for k in range(1, len(times)) if counts[k] > counts[k - 1]]
    assert len(bounce_times) == 5
    assert np.max(np.abs(np.array(bounce_times) - expected)) < 1e-8
    assert result["bounces"][-1] == 5
    assert result["h"].min() > -1e-8
    # between bounces the height is a parabola
    starts = [0.0] + expected
    speeds = [0.0] + [e ** k * g * t1 for k in range(1, 6)]
    heights = [h0] + [0.0] * 5
    for t, h in zip(*right_limits(result, "h")):
        k = sum(1 for s in expected if s <= t)
        s = t - starts[k]
        assert h == pytest.approx(heights[k] + speeds[k] * s - g / 2 * s ** 2, abs=1e-7)


def test_thermostat_hysteresis_with_pre():
    result = simulate("Events.mo", "Events.Thermostat")
    k, P, T_out = 0.2, 5.0, 5.0
    on, off = T_out + P / k, T_out
    switches, t = [], 0.0
    temperature, heating = 12.0, True   # 12 < 18 at the start: the heater is switched on
    while t < 20:
        target, limit = (on, 22.0) if heating else (off, 18.0)
        t += math.log((target - temperature) / (target - limit)) / k
        switches.append(t)
        temperature, heating = limit, not heating
    times, values = right_limits(result, "heating")
    found = [times[j] for j in range(1, len(times)) if values[j] != values[j - 1]]
    assert np.max(np.abs(np.array(found) - [s for s in switches if s < 20])) < 1e-8
    assert 18.0 - 1e-6 <= result["T"][result.time > 3].min()
    assert result["T"].max() <= 22.0 + 1e-6


def test_sampled_counter():
    result = simulate("Events.mo", "Events.SampledCounter", interval=0.05)
    times, counts = right_limits(result, "count")
    assert np.array_equal(counts, np.floor(times / 0.1 + 1e-9) + 1)
    assert result["x"][-1] == pytest.approx(5.5, abs=1e-9)
    assert np.allclose(result["y"], 2 * result["x"])
    assert np.allclose(result.events, [0.1 * k for k in range(1, 11)])


def test_chain_of_components_matches_the_linear_ode():
    result = simulate("Translational.mo", "Translational.Chain")
    n, k = 3, 100.0
    stiffness = np.zeros((n, n))
    for i in range(n):
        stiffness[i, i] = 2 * k if i < n - 1 else k
        if i:
            stiffness[i, i - 1] = stiffness[i - 1, i] = -k
    start = np.concatenate([[0.1 * (i + 1) for i in range(n)], np.zeros(n)])
    exact = solve_ivp(lambda t, s: np.concatenate([s[n:], -stiffness @ s[:n]]), (0, 1), start,
                      method="DOP853", rtol=1e-12, atol=1e-12, dense_output=True)
    positions = exact.sol(result.time)
    for i in range(n):
        assert np.max(np.abs(result[f"mass[{i + 1}].s"] - positions[i])) < 1e-6


# ---------------------------------------------------------------------------- Jacobian
@pytest.mark.parametrize("file, model", [("Pendulum.mo", None),
                                         ("Analog.mo", "Analog.DiodeCharger"),
                                         ("Translational.mo", "Translational.Oscillator")])
def test_analytic_jacobian_matches_differences(file, model):
    system = causalize_api.causalize_model(MODELS / file, model, environ={})
    executable = ExecutableModel(system)
    executable.run_initial()
    assert executable.analytic_jacobian
    y = executable.states() + 0.01

    def derivatives(states):
        executable.set_point(0.3, states)
        executable.run_derivatives()
        return executable.derivatives()
    derivatives(y)
    analytic = executable.derivative_jacobian()
    numeric = np.column_stack([(derivatives(y + h) - derivatives(y - h)) / 2e-6
                               for h in np.eye(len(y)) * 1e-6])
    assert np.allclose(analytic, numeric, rtol=1e-5, atol=1e-6)
    pattern = np.zeros_like(analytic, dtype=bool)
    for j, rows in enumerate(system.jacobian_rows):
        pattern[list(rows), j] = True
    assert not np.any(np.abs(analytic[~pattern]) > 1e-12)


# ------------------------------------------------------------------------------- options
def test_parameters_inputs_and_outputs(run):
    result = run("""
model Driven
  input Real u;
  parameter Real k = 1;
  Real x(start = 0, fixed = true);
  output Real y;
equation
  der(x) = k*u;
  y = 3*x;
end Driven;
""", stop=2.0, parameters={"k": 2.0}, inputs={"u": math.cos})
    assert np.max(np.abs(result["x"] - 2 * np.sin(result.time))) < 1e-7
    assert np.allclose(result["y"], 3 * result["x"])


def test_parameter_bindings_follow_overrides():
    result = simulate("Analog.mo", "Analog.RC", parameters={"resistor.R": 1e3}, stop=0.3,
                      interval=0.01)
    assert result.at("capacitor.v", 0.1) == pytest.approx(5 * (1 - math.exp(-1)), abs=1e-7)
    with pytest.raises(SimulationError, match="no variable called resistor.Q in Analog.RC"):
        simulate("Analog.mo", "Analog.RC", parameters={"resistor.Q": 1.0})


def test_user_functions_with_arrays_and_several_outputs(run):
    result = run("""
model Functions
  function horner "polynomial with coefficients c, highest power first"
    input Real x;
    input Real c[:];
    output Real y;
  algorithm
    y := 0;
    for i in 1:size(c, 1) loop
      y := y*x + c[i];
    end for;
  end horner;
  function polar
    input Real x;
    input Real y;
    output Real r;
    output Real phi;
  algorithm
    r := sqrt(x^2 + y^2);
    phi := atan2(y, x);
  end polar;
  Real x(start = 0, fixed = true);
  Real r;
  Real phi;
equation
  der(x) = horner(time, {1, 0, 2});
  (r, phi) = polar(1, time);
end Functions;
""", stop=1.0)
    t = result.time
    assert np.max(np.abs(result["x"] - (t ** 3 / 3 + 2 * t))) < 1e-8
    assert np.allclose(result["r"], np.sqrt(1 + t ** 2))
    assert np.allclose(result["phi"], np.arctan(t))


def test_failed_assert_stops_with_its_location(run, flatten):
    with pytest.raises(SimulationError) as error:
        run("model A\n  Real x(start = 0, fixed = true);\nequation\n  der(x) = 1;\n"
            "  assert(x < 0.5, \"x is too large\");\nend A;\n", stop=1.0)
    message = str(error.value).replace(f"{flatten.directory}/", "")
    assert message.startswith("Test.mo:5:3: assertion failed at t = 0.5")
    assert message.endswith(": x is too large")


def test_terminate_ends_the_simulation(run):
    result = run("model T\n  Real x(start = 0, fixed = true);\nequation\n  der(x) = 1;\n"
                 "  when x > 0.25 then\n    terminate(\"done\");\n  end when;\nend T;\n",
                 stop=1.0)
    assert result.time[-1] == pytest.approx(0.25, abs=1e-9)


def test_when_initial_and_edge(run):
    result = run("""
model Init
  discrete Real k(start = 0, fixed = true);
  Real x(start = 1, fixed = true);
  Boolean high;
  Integer rises(start = 0, fixed = true);
equation
  when initial() then
    k = 2*x;
  end when;
  der(x) = -k*x + 2*sin(6*time);
  high = x > 0.2;
  when edge(high) then
    rises = pre(rises) + 1;
  end when;
end Init;
""", stop=3.0)
    assert np.all(result["k"] == 2.0)
    times, highs = right_limits(result, "high")
    _, rises = right_limits(result, "rises")
    ups = sum(1 for j in range(1, len(highs)) if highs[j] and not highs[j - 1])
    assert rises[-1] == ups > 0


def test_algorithm_section():
    result = simulate("Algorithms.mo")
    t = result.time
    times, z = right_limits(result, "z")
    x = np.exp(-times)
    assert np.allclose(z, 12 * x + (x > 0.5), atol=1e-7)
    assert result["n"][-1] == 1
    assert result["last"][-1] == pytest.approx(math.log(2), abs=1e-8)
    assert np.allclose(result["y"], 2 * result["x"])
    assert len(t) == len(result["y"])


def test_initial_equation_on_a_discrete_variable(run):
    result = run("""
model Counter
  Integer count;
  Real x(start = 0, fixed = true);
initial equation
  count = 5;
equation
  when sample(0.05, 0.1) then
    count = pre(count) + 1;
  end when;
  der(x) = count;
end Counter;
""", stop=0.3)
    times, counts = right_limits(result, "count")
    assert counts[0] == 5 and counts[-1] == 8
    assert result["x"][-1] == pytest.approx(0.05 * 5 + 0.1 * 6 + 0.1 * 7 + 0.05 * 8, abs=1e-9)


def test_parameter_computed_at_initialization(run):
    result = run("model P\n  parameter Real k(fixed = false, start = 1);\n"
                 "  Real x(start = 4, fixed = true);\ninitial equation\n  k*k = x;\n"
                 "equation\n  der(x) = -k*x;\nend P;\n", stop=1.0)
    assert np.allclose(result["k"], 2.0)
    assert np.max(np.abs(result["x"] - 4 * np.exp(-2 * result.time))) < 1e-7


def test_event_generating_functions():
    result = simulate("Steps.mo", stop=1.0, interval=0.05)
    times, n = right_limits(result, "n")
    # each function switches just after its boundary (hysteresis): compare away from them
    boundaries = np.array(sorted({k / d for d in (2, 3, 4) for k in range(1, 5)}))
    keep = np.array([np.min(np.abs(boundaries - t)) > 1e-9 and 1e-9 < t for t in times])
    t = times[keep]
    assert np.array_equal(n[keep], np.floor(3 * t))
    assert np.array_equal(right_limits(result, "f")[1][keep], np.floor(2 * t) + np.ceil(t))
    assert np.allclose(right_limits(result, "m")[1][keep], np.mod(t, 0.25), atol=1e-9)
    assert len(t) > 10
    for k in (1, 2):  # integer(3*time) switches at k/3
        assert min(abs(event - k / 3) for event in result.events) < 1e-8


def test_newton_with_a_user_function_uses_differences(run, flatten):
    text = """
model Implicit
  function cubic
    input Real u;
    output Real y;
  algorithm
    y := u^3 + u;
  end cubic;
  Real x(start = 0, fixed = true);
  Real y(start = 1);
equation
  cubic(y) = 2 + time;
  der(x) = y;
end Implicit;
"""
    system = causalize(flatten(text))
    (block,) = [b for b in system.blocks if type(b).__name__ == "NewtonBlock"]
    assert block.vars == ("y",) and not block.has_jacobian
    result = simulate_reference(system, stop=1.0)
    y = result["y"]
    assert np.allclose(y ** 3 + y, 2 + result.time, atol=1e-9)


def test_domain_errors_name_the_equation(run, flatten):
    with pytest.raises(SimulationError) as error:
        run("model S\n  Real x(start = 1, fixed = true);\n  Real y;\nequation\n"
            "  der(x) = -1;\n  y = sqrt(x);\nend S;\n", stop=2.0)
    message = str(error.value).replace(f"{flatten.directory}/", "")
    assert message.startswith("math domain error in the equation for y (Test.mo:6:3) at t = 1.")
