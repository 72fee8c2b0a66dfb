"""What made examples of the Modelica Standard Library fail or differ at run time, each in a
small self-written model (msl_models/RunFixes.mo), checked against closed forms."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cosim import api

RUN_FIXES = Path(__file__).parent / "msl_models" / "RunFixes.mo"


@pytest.fixture(autouse=True)
def no_modelicapath(monkeypatch):
    monkeypatch.delenv("MODELICAPATH", raising=False)


def run(model: str, **options):
    return api.run(RUN_FIXES, model=f"RunFixes.{model}", **options)


# --------------------------------------------------------------------------------- recording
def test_variables_whose_names_carry_subscripts_are_recorded_by_those_names():
    component = "RunFixes_Recorded_Elements"
    names = [f"{component}.decay[2].x", f"{component}.u[1]", f"{component}.u[2]"]
    result = run("Recorded.Elements", record=names, step_size=0.1)
    t = result.values["time"]
    assert result.columns[-3:] == tuple(names)
    assert np.allclose(result.values[names[0]], np.exp(-2 * t), rtol=1e-5, atol=1e-7)
    assert np.allclose(result.values[names[1]], np.exp(-t), rtol=1e-5, atol=1e-7)
    assert np.allclose(result.values[names[2]], 2 * np.exp(-2 * t), rtol=1e-5, atol=1e-7)


# ---------------------------------------------------------------------------------- tearing
def test_a_loop_is_torn_without_dividing_by_a_varying_variable_from_outside():
    # i := P / v was chosen before: 0 / 0 at t = 0. Closed form: T solves
    # G (T - T_a) = v^2 / (R0 (1 + alpha (T - T_ref))), a quadratic in T.
    component = "RunFixes_Tearing_HeatedResistor"
    result = run("Tearing.HeatedResistor", step_size=0.01,
                 record=[f"{component}.T", f"{component}.i"])
    t = result.values["time"]
    v = 2 * np.sin(2 * np.pi * t)
    G, T_a, R0, alpha, T_ref = 0.5, 290.0, 1.0, 0.05, 300.0
    # (T - T_a) (1 + alpha (T - T_ref)) = v^2 / (G R0): with u = T - T_a,
    # alpha u^2 + (1 + alpha (T_a - T_ref)) u - v^2 / (G R0) = 0, the positive root
    b = 1 + alpha * (T_a - T_ref)
    u = (-b + np.sqrt(b * b + 4 * alpha * v ** 2 / (G * R0))) / (2 * alpha)
    assert np.allclose(result.values[f"{component}.T"], T_a + u, rtol=0, atol=1e-8)
    i = v / (R0 * (1 + alpha * (T_a + u - T_ref)))
    assert np.allclose(result.values[f"{component}.i"], i, rtol=0, atol=1e-8)


# ---------------------------------------------------------------------- bistable scalar loops
def schmitt_output(t):
    """+1 until 2 cos(2 pi t) falls below -R1/R2 Vsat = -0.5, -1 until it rises above 0.5."""
    low = (t > np.arccos(-0.25) / (2 * np.pi)) & (t < 1 - np.arccos(0.25) / (2 * np.pi))
    return np.where(low, -1.0, 1.0)


def test_a_scalar_loop_whose_solution_branch_vanishes_jumps_to_the_other_branch():
    # Newton from the vanished branch stalls at the saturation's kink (a local minimum of
    # |r| that is no root); the nearest sign change of the residual leads to the new root
    component = "RunFixes_Bistable_SchmittTrigger"
    result = run("Bistable.SchmittTrigger", step_size=0.001, record=[f"{component}.vOut"])
    t, v_out = result.values["time"], result.values[f"{component}.vOut"]
    switches = np.array([np.arccos(-0.25), 2 * np.pi - np.arccos(0.25)]) / (2 * np.pi)
    away = np.min(np.abs(t[:, None] - switches[None, :]), axis=1) > 2e-3
    assert np.allclose(v_out[away], schmitt_output(t[away]), rtol=0, atol=1e-9)


def test_the_interpreter_jumps_to_the_other_branch_too():
    from compiler.causalize import causalize
    from compiler.api import flatten_model
    from compiler.interp import simulate_reference
    system = causalize(flatten_model(RUN_FIXES, "RunFixes.Bistable.SchmittTrigger", environ={}))
    result = simulate_reference(system, stop=1.0, interval=0.001)
    t = result.time
    away = np.abs(t - np.arccos(-0.25) / (2 * np.pi)) > 2e-3
    away &= np.abs(t - (1 - np.arccos(0.25) / (2 * np.pi))) > 2e-3
    assert np.allclose(result["vOut"][away], schmitt_output(t[away]), rtol=0, atol=1e-9)


# ------------------------------------------------------------------------- readable errors
def test_an_error_about_many_variables_names_the_first_few_and_verbose_all(capsys):
    from cosim.cli import main
    arguments = ["check", str(RUN_FIXES), "--model", "RunFixes.Readable.OverInitialized",
                 "--blocks"]
    assert main(arguments) == 1
    short = capsys.readouterr().err.strip()
    assert len(short) <= 300 and "\n" not in short
    line = RUN_FIXES.read_text().splitlines().index(
        "      Real x[n](each start = 0, each fixed = true);") + 1
    place = f"RunFixes.mo:{line}:7"
    assert short == (f"{RUN_FIXES}:{line}:7: error: over-determined initialization: 60 "
                     f"equations for 30 unknowns (x[1], x[2], x[3], x[4] and 26 more): {place}: "
                     f"x[1] = 0.0 (start value); {place}: x[2] = 0.0 (start value) and 58 more")
    assert main(["--verbose"] + arguments) == 1
    full = capsys.readouterr().err.strip()
    assert "\n" not in full
    assert ", ".join(f"x[{k}]" for k in range(1, 31)) in full
    assert full.count(": x[") == 60 and "more" not in full  # every equation


# ------------------------------------------------------------------------------- records
def test_a_record_constructor_takes_the_defaults_its_extends_clause_modifies():
    from compiler.api import flatten_model
    from compiler.flat_text import variable_line
    model = flatten_model(RUN_FIXES, "RunFixes.Records.Inductor", environ={})
    lines = {item.name: variable_line(item) for item in model.variables}
    assert "core.material.mu_i = 1210.0 " in lines["core.material.mu_i"]
    assert lines["core.material.B_max"].endswith("core.material.B_max = 1.16;")
    assert lines["other.material.B_max"].endswith("other.material.B_max = 2.0;")
    component = "RunFixes_Records_Inductor"
    result = run("Records.Inductor", step_size=0.5,
                 record=[f"{component}.core.mu_r", f"{component}.mu"])
    t = result.values["time"]
    assert np.allclose(result.values[f"{component}.core.mu_r"], 1210 * (1 + t), rtol=1e-12)
    assert np.allclose(result.values[f"{component}.mu"], 2 * 1210 * 1.16, rtol=1e-12)


@pytest.mark.parametrize("interface", ["cs", "me"])
def test_a_multivibrator_switches_where_its_branch_vanishes_not_at_a_trial_point(interface):
    # the loop's solution at a point the integrator tried beyond the switch (and rejected)
    # used to start the next evaluations, so the output switched up to a step early; each
    # evaluation now starts from the loop's solution at the last accepted point.
    # Closed form: vOut = -15 until vC falls from 1 to -7.5, at RC ln(16 / 7.5); then it
    # switches every half period RC ln 3 = 1 / (2 f) = 0.05 s.
    component = "RunFixes_Bistable_Multivibrator"
    result = run("Bistable.Multivibrator", step_size=1e-4, record=[f"{component}.vOut"],
                 interface=interface)
    t, v_out = result.values["time"], result.values[f"{component}.vOut"]
    switches = t[1:][np.sign(v_out[1:]) != np.sign(v_out[:-1])]
    RC = 1 / (20 * np.log(3))
    exact = RC * np.log(16 / 7.5) + 0.05 * np.arange(len(switches))
    assert len(switches) == 20
    assert np.max(np.abs(switches - exact)) <= 1.5e-4


# ------------------------------------------------------------------------- long torn loops
def test_a_torn_loop_longer_than_one_piece_of_code_computes_all_its_assignments():
    # the residual function kept only the last piece of its assignments: the first, which
    # writes the iteration variable, was lost (gcc: unused parameter 'x')
    component = "RunFixes_LongLoop_Chain"
    result = run("LongLoop.Chain", step_size=0.25, record=[f"{component}.x"])
    coefficient = 1 + 0.01 * 59
    for t, x in zip(result.values["time"], result.values[f"{component}.x"]):
        roots = np.roots([1.0, 0.0, coefficient, t - 2.0])
        real = roots[np.abs(roots.imag) < 1e-9].real
        assert x == pytest.approx(real[0], abs=1e-10)


# ---------------------------------------------------------------------------- fixed zeros
def test_a_capacitance_zero_for_good_leaves_no_state():
    # c.i = C der(c.v) with C = CapVal = 0 (Evaluate = true) is c.i = 0: c.v is no state
    # (before, the linear system of der(c.v) was singular)
    from compiler.api import flatten_model
    from compiler.causalize import causalize
    system = causalize(flatten_model(RUN_FIXES, "RunFixes.FixedZeros.Divider", environ={}))
    assert system.states == ()
    component = "RunFixes_FixedZeros_Divider"
    result = run("FixedZeros.Divider", step_size=0.1, record=[f"{component}.c.v"])
    t = result.values["time"]
    assert np.allclose(result.values[f"{component}.c.v"], np.sin(t) * 3 / 4, rtol=0, atol=1e-12)


# ------------------------------------------------------------------ singular, consistent
@pytest.mark.parametrize("engine", ["fmu", "interpreter"])
def test_an_enthalpy_left_free_by_zero_flow_keeps_its_guess(engine):
    # H = semiLinear(m, h_in, h_a) = semiLinear(m, h_a, T): while m = 0 the linear system
    # of H and h_a is singular but its equations agree; h_a stays at its start value (3)
    # and H = 0. Then h_a = h_in = 10 and der(T) = m (10 - T): T = 10 - 9 exp(-(t-1/2)^2/2)
    component = "RunFixes_ZeroFlow_Pipe"
    if engine == "fmu":
        result = run("ZeroFlow.Pipe", step_size=0.05,
                     record=[f"{component}.h_a", f"{component}.T"])
        t = result.values["time"]
        h_a, T = result.values[f"{component}.h_a"], result.values[f"{component}.T"]
    else:
        from compiler.api import flatten_model
        from compiler.causalize import causalize
        from compiler.interp import simulate_reference
        system = causalize(flatten_model(RUN_FIXES, "RunFixes.ZeroFlow.Pipe", environ={}))
        result = simulate_reference(system, interval=0.05, rtol=1e-10, atol=1e-12)
        t, h_a, T = result.time, result["h_a"], result["T"]
    before, after = t < 0.499, t > 0.501
    assert np.all(h_a[before] == 3.0) and np.allclose(h_a[after], 10.0, rtol=1e-12)
    exact = np.where(t < 0.5, 1.0, 10 - 9 * np.exp(-np.maximum(t - 0.5, 0) ** 2 / 2))
    assert np.allclose(T, exact, rtol=0, atol=1e-6)


# -------------------------------------------------------------- index reduction at start
def test_states_are_chosen_near_start_values_where_the_constraint_is_singular():
    # x1 x2 = 1 is differentiated; its Jacobian (x2, x1) vanishes at the start values 0,
    # where index reduction refused to choose: it chooses at a generic point nearby
    from compiler.api import flatten_model
    from compiler.causalize import causalize
    system = causalize(flatten_model(RUN_FIXES, "RunFixes.StartSingular.Hyperbola",
                                     environ={}))
    assert len(system.states) == 1
    component = "RunFixes_StartSingular_Hyperbola"
    result = run("StartSingular.Hyperbola", step_size=0.1,
                 record=[f"{component}.x1", f"{component}.x2", f"{component}.v2"])
    t = result.values["time"]
    assert np.allclose(result.values[f"{component}.x1"], np.exp(t), rtol=1e-5)
    assert np.allclose(result.values[f"{component}.x2"], np.exp(-t), rtol=1e-5)
    assert np.allclose(result.values[f"{component}.v2"], -np.exp(-t), rtol=1e-5)


# ------------------------------------------------------------------------------ reciprocal
def test_an_unknown_read_only_as_a_divisor_is_solved_for_explicitly():
    component = "RunFixes_Reciprocal_Permeance"
    result = run("Reciprocal.Permeance", step_size=0.1, record=[f"{component}.G_m"])
    t = result.values["time"]
    assert np.allclose(result.values[f"{component}.G_m"], 1 / (2 + t), rtol=1e-14)


# ------------------------------------------------------------------------ scaled residuals
@pytest.mark.parametrize("engine", ["fmu", "interpreter"])
def test_newton_weighs_residuals_of_different_scales_alike(engine):
    # the slope equation is of order 1/b ~ 1e5 where the others are of order 1: the line
    # search served it alone until the iteration stalled. The solution must satisfy the
    # five conditions of the impulse.
    names = ["a", "b", "eta", "tp", "t10"]
    if engine == "fmu":
        component = "RunFixes_Scaled_ImpulseFit"
        result = run("Scaled.ImpulseFit", step_size=1e-4,
                     record=[f"{component}.{name}" for name in names])
        found = {name: result.values[f"{component}.{name}"][0] for name in names}
    else:
        from compiler.api import flatten_model
        from compiler.causalize import causalize
        from compiler.interp import simulate_reference
        system = causalize(flatten_model(RUN_FIXES, "RunFixes.Scaled.ImpulseFit", environ={}))
        result = simulate_reference(system, interval=1e-4)
        found = {name: result[name][0] for name in names}
    a, b, eta, tp, t10 = (found[name] for name in names)
    rise, tail = 10e-6, 350e-6

    def shape(t):
        return np.exp(-t / a) - np.exp(-t / b)
    assert np.exp(-tp / a) / a == pytest.approx(np.exp(-tp / b) / b, rel=1e-9)
    assert shape(tp) == pytest.approx(eta, rel=1e-12)
    assert shape(t10) == pytest.approx(0.1 * eta, rel=1e-9)
    assert shape(t10 + 0.8 * rise) == pytest.approx(0.9 * eta, rel=1e-9)
    assert shape(t10 - 0.1 * rise + tail) == pytest.approx(0.5 * eta, rel=1e-9)
    assert 0 < b < tp < a  # the physical solution: a rise, a peak, a tail


def test_a_quasi_static_inductor_for_good_leaves_no_state():
    # v = if quasiStatic then 0 else L der(i) with final quasiStatic = true is v = 0
    # (before, l.i was a state whose derivative nothing determined: the step size shrank
    # to nothing at t = 0)
    from compiler.api import flatten_model
    from compiler.causalize import causalize
    system = causalize(flatten_model(RUN_FIXES, "RunFixes.FixedZeros.QuasiStatic", environ={}))
    assert system.states == ()
    component = "RunFixes_FixedZeros_QuasiStatic"
    result = run("FixedZeros.QuasiStatic", step_size=0.1, record=[f"{component}.l.i"])
    t = result.values["time"]
    assert np.allclose(result.values[f"{component}.l.i"], np.sin(t) / 2, rtol=0, atol=1e-12)


# -------------------------------------------------------------------------------- homotopy
@pytest.mark.parametrize("engine", ["fmu", "interpreter"])
def test_homotopy_starts_the_initialization_from_the_simplified_equations(engine):
    # vOut = homotopy(saturated gain, simplified = -Vsat): the actual equations have three
    # solutions at vIn = 0 (+-Vsat and the unstable vOut = -2 vIn); Newton from vP = 0 found
    # the unstable one, the simplified equations lead to -Vsat, where the output stays
    component = "RunFixes_Homotopy_LowerStart"
    if engine == "fmu":
        result = run("Homotopy.LowerStart", step_size=0.01, record=[f"{component}.vOut"])
        v_out = result.values[f"{component}.vOut"]
    else:
        from compiler.api import flatten_model
        from compiler.causalize import causalize
        from compiler.interp import simulate_reference
        system = causalize(flatten_model(RUN_FIXES, "RunFixes.Homotopy.LowerStart", environ={}))
        v_out = simulate_reference(system, interval=0.01)["vOut"]
    assert np.allclose(v_out, -1.0, rtol=0, atol=1e-12)


# ----------------------------------------------------------------------------- inner outer
def test_an_inner_outer_component_is_an_inner_of_its_own_for_the_components_within():
    # MLS 5.4: c.root (gain 2) is the inner the leaf within c sees; c's own reference to
    # root is the outer one, the top's root (gain 1). Before, c.leaf saw the top's root too.
    component = "RunFixes_InnerOuter_Top"
    names = ["c.root.x", "c.leaf.y", "c.z", "leaf.y"]
    result = run("InnerOuter.Top", step_size=0.25, record=[f"{component}.{n}" for n in names])
    t = result.values["time"]
    assert np.allclose(result.values[f"{component}.c.root.x"], 2 * t, rtol=0, atol=1e-14)
    assert np.allclose(result.values[f"{component}.c.leaf.y"], 2 * t, rtol=0, atol=1e-14)
    assert np.allclose(result.values[f"{component}.c.z"], t, rtol=0, atol=1e-14)
    assert np.allclose(result.values[f"{component}.leaf.y"], t, rtol=0, atol=1e-14)
