"""Code generation and language gaps that stopped MSL examples at compile (issue 13 items 7,
8, 12), each in a small self-written model (msl_models/CodegenGaps.mo) compiled with gcc's
warnings as errors (tests/conftest.py) and run against closed forms or the reference
interpreter."""
from __future__ import annotations

import dataclasses
import logging
import zipfile
from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu
from fmpy.validation import validate_fmu

from compiler import compile as compile_module
from compiler.api import flatten_model
from compiler.causalize import causalize
from compiler.compile import compile_fmu
from compiler.errors import CompilerError, PackageError

GAPS = Path(__file__).parent / "msl_models" / "CodegenGaps.mo"
KINDS = ("CoSimulation", "ModelExchange")


def simulate(fmus, model: str, names, stop=1.0, kind="CoSimulation", interval=None, **options):
    fmu = fmus.build(GAPS, f"CodegenGaps.{model}")
    return simulate_fmu(str(fmu), fmi_type=kind, stop_time=stop,
                        output_interval=interval or stop / 100, relative_tolerance=1e-8,
                        output=list(names), **options)


# ------------------------------------------------------------------------------ gcc warnings
def test_protected_variables_a_function_never_reads_compile_cleanly(fmus):
    result = simulate(fmus, "Warnings.Unused", ["y"])
    assert result["y"] == pytest.approx(2 * result["time"], abs=1e-12)


@pytest.mark.parametrize("kind", KINDS)
def test_empty_arrays_compile_cleanly(fmus, kind):
    # a has no elements: stack(a, {t, 2t}) = {t, 2t}; e is empty
    result = simulate(fmus, "Warnings.Empty", ["c[1]", "c[2]"], kind=kind)
    assert result["c[1]"] == pytest.approx(result["time"], abs=1e-12)
    assert result["c[2]"] == pytest.approx(2 * result["time"], abs=1e-12)


def test_a_loop_named_beyond_the_length_of_a_c_string_compiles_cleanly(fmus):
    # x[i] + 0.01 sum(x) = i t: sum(x) = 2485 t / 1.7, x[i] = (i - 24.85 / 1.7) t
    name = ("cellOfAChainWithAVeryLongNameIndeed[{}]."
            "valueOfTheUnknownInThisRatherVerboselyNamedCellOfTheChain")
    names = [name.format(i) for i in (1, 35, 70)]
    result = simulate(fmus, "Warnings.LongLoop", names)
    for i, item in zip((1, 35, 70), names):
        assert result[item] == pytest.approx((i - 24.85 / 1.7) * result["time"], abs=1e-9)


def test_fmpy_validates_the_fmus(fmus):
    for model in ("Warnings.Empty", "Warnings.LongLoop", "Functions.Phasor", "Delays.Line",
                  "Delays.Counter"):
        assert validate_fmu(str(fmus.build(GAPS, f"CodegenGaps.{model}"))) == [], model


def _warning_gcc(monkeypatch):
    """package_fmu as it is, but gcc 'warned'."""
    package = compile_module.package_fmu

    def warned(*args, **kwargs):
        packaged = package(*args, **kwargs)
        return dataclasses.replace(packaged, compiler_warnings="model.c:1:1: warning: something "
                                                              "[-Wsomething]")
    monkeypatch.setattr(compile_module, "package_fmu", warned)


def test_a_users_compile_logs_a_gcc_warning_once_and_makes_the_fmu(tmp_path, monkeypatch,
                                                                  caplog):
    _warning_gcc(monkeypatch)
    monkeypatch.delenv(compile_module.STRICT_VARIABLE)
    environ = {"COSIM_CACHE_DIR": str(tmp_path / "cache")}
    with caplog.at_level(logging.WARNING, logger="cosim.compiler"):
        first = compile_fmu(GAPS, "CodegenGaps.Warnings.Unused", output=tmp_path / "a.fmu",
                            environ=environ)
        again = compile_fmu(GAPS, "CodegenGaps.Warnings.Unused", output=tmp_path / "b.fmu",
                            environ=environ)
    assert first.is_file() and again.is_file()
    logged = [record.getMessage() for record in caplog.records]
    assert logged == ["warning: gcc warned about the code generated for "
                      "CodegenGaps.Warnings.Unused:\nmodel.c:1:1: warning: something "
                      "[-Wsomething]"]
    result = simulate_fmu(str(again), stop_time=1.0, output=["y"])
    assert result["y"][-1] == pytest.approx(2.0)


def test_the_test_suite_refuses_a_gcc_warning(tmp_path, monkeypatch):
    _warning_gcc(monkeypatch)
    with pytest.raises(PackageError, match="gcc warned about the code generated for "
                                           "CodegenGaps.Warnings.Unused"):
        compile_fmu(GAPS, "CodegenGaps.Warnings.Unused", output=tmp_path / "a.fmu",
                    environ={"COSIM_CACHE_DIR": str(tmp_path / "cache")})
    assert not (tmp_path / "a.fmu").exists()


# ------------------------------------------------------------------------ function bodies
@pytest.mark.parametrize("kind", KINDS)
def test_an_array_literal_of_array_expressions_in_a_function(fmus, kind):
    # y = 2/3 {sum(k cos(phi_k)), sum(k sin(phi_k))} t with phi = {0, 0.5, 1}; y0 = 2 t
    result = simulate(fmus, "Functions.Phasor", ["y[1]", "y[2]", "y0"], kind=kind)
    phi = np.array([0.0, 0.5, 1.0])
    weights = np.array([1.0, 2.0, 3.0])
    t = result["time"]
    assert result["y[1]"] == pytest.approx(2 / 3 * (weights @ np.cos(phi)) * t, abs=1e-12)
    assert result["y[2]"] == pytest.approx(2 / 3 * (weights @ np.sin(phi)) * t, abs=1e-12)
    assert result["y0"] == pytest.approx(2 * t, abs=1e-12)


def test_slices_take_calls_expressions_of_calls_and_themselves(fmus):
    names = [f"a[{k}]" for k in range(1, 7)] + [f"b[{k}]" for k in range(1, 5)] + \
        [f"s[{k}]" for k in range(1, 4)]
    result = simulate(fmus, "Functions.Slices", names)
    t = result["time"][-1]
    third = [0.0, 2 / 3, 4 / 3]
    expected = [v * (1 + t) for v in third + [v - 0.1 for v in third]] + \
        [0.0, 1.5, -0.1, 1.4] + [2 * t, 3 * t, 3 * t]
    assert [result[name][-1] for name in names] == pytest.approx(expected, abs=1e-12)


# ----------------------------------------------------------------------- model algorithms
@pytest.mark.parametrize("kind", KINDS)
def test_an_algorithm_assigns_the_element_a_varying_subscript_chooses(fmus, kind):
    # the k-th sample (t = 0.1 + 0.2 (k - 1)) stores 10 t in buf[k], k in table[k, 2 - mod(k, 2)]
    names = ["buf[1]", "buf[2]", "buf[3]", "table[1,1]", "table[1,2]", "table[2,1]",
             "table[2,2]", "table[3,1]", "table[3,2]", "i"]
    result = simulate(fmus, "Algorithms.Buffer", names, interval=0.05, kind=kind)
    last = {name: result[name][-1] for name in names}
    assert last == pytest.approx({"buf[1]": 1.0, "buf[2]": 3.0, "buf[3]": 5.0, "table[1,1]": 1,
                                  "table[1,2]": 0, "table[2,1]": 0, "table[2,2]": 2,
                                  "table[3,1]": 3, "table[3,2]": 0, "i": 5}, abs=1e-9)
    between = result[(result["time"] > 0.32) & (result["time"] < 0.48)]
    assert list(between["buf[2]"]) == pytest.approx([3.0] * 3)
    assert list(between["buf[3]"]) == [0.0] * 3


def test_the_interpreter_assigns_the_element_a_varying_subscript_chooses(fmus):
    result = fmus.reference(GAPS, "CodegenGaps.Algorithms.Buffer", interval=0.05)
    assert [result.at(f"buf[{k}]", 1.0) for k in (1, 2, 3)] == pytest.approx([1.0, 3.0, 5.0])
    assert result.at("table[3,1]", 1.0) == 3 and result.at("table[3,2]", 1.0) == 0


def failure_messages(fmus, model: str, interval: float) -> list[str]:
    """The errors an FMU logs on a run that ends in an error."""
    fmu = fmus.build(GAPS, f"CodegenGaps.{model}")
    messages = []
    with pytest.raises(Exception, match="status 3"):
        simulate_fmu(str(fmu), output_interval=interval,
                     logger=lambda *args: messages.append(args))
    return [message.decode() for _, status, category, message in messages
            if category == b"logStatusError"]


def test_a_subscript_past_the_end_of_the_assigned_array_is_an_error(fmus):
    errors = failure_messages(fmus, "Algorithms.Overrun", 0.05)
    # the third sample (t = 0.5) has i = 3 for buf[2]
    assert errors[0].startswith("CodegenGaps.mo:")
    assert "t = 0.5" in errors[0]
    assert errors[0].endswith("a subscript of the left side of ':=' is out of range")


# -------------------------------------------------------------------------------- arrays
def test_empty_rows_of_a_matrix_constructor_add_nothing(fmus):
    model = flatten_model(GAPS, "CodegenGaps.Arrays.EmptyRows", environ={})
    sizes = {name: sum(1 for item in model.variables if item.name.startswith(f"{name}["))
             for name in ("padded0", "padded2")}
    assert sizes == {"padded0": 3, "padded2": 5}
    names = ["padded0[1]", "padded0[3]", "padded2[1]", "padded2[2]", "padded2[3]", "padded2[5]",
             "y"]
    result = simulate(fmus, "Arrays.EmptyRows", names)
    assert [result[name][-1] for name in names] == pytest.approx([1, 3, 0, 0, 1, 3, 6])


# ---------------------------------------------------------------------------------- delay()
def _grid(result, low=-np.inf, high=np.inf):
    """Rows strictly between low and high (away from the instants where values jump)."""
    t = result["time"]
    return result[(t > low) & (t < high)]


@pytest.mark.parametrize("kind", KINDS)
def test_a_delayed_time_function_holds_its_start_value_for_the_delay_time(fmus, kind):
    result = simulate(fmus, "Delays.Pure", ["y"], stop=2.0, kind=kind)
    t = result["time"]
    expected = np.where(t < 0.5, 1.0, np.cos(2 * (t - 0.5)))
    assert result["y"] == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize("kind", KINDS)
def test_a_delay_differential_equation_follows_its_closed_form(fmus, kind):
    # x' = -x(t - 1), x = 1 before 0: x = 1 - t on [0, 1], 1 - t + (t - 1)^2 / 2 on [1, 2]
    result = simulate(fmus, "Delays.Feedback", ["x"], stop=2.0, kind=kind)
    t = result["time"]
    expected = np.where(t <= 1.0, 1.0 - t, 1.0 - t + (t - 1.0) ** 2 / 2)
    assert result["x"] == pytest.approx(expected, abs=1e-6)


def test_the_interpreter_follows_the_closed_form_of_the_delay_differential_equation(fmus):
    result = fmus.reference(GAPS, "CodegenGaps.Delays.Feedback", stop=2.0, interval=0.05,
                            rtol=1e-10)
    t = np.linspace(0.0, 2.0, 41)
    expected = np.where(t <= 1.0, 1.0 - t, 1.0 - t + (t - 1.0) ** 2 / 2)
    assert [result.at("x", value) for value in t] == pytest.approx(expected, abs=1e-8)


@pytest.mark.parametrize("kind", KINDS)
def test_waves_on_a_lossless_line_arrive_a_delay_later(fmus, kind):
    # the step at 0.1 enters as V/2; the load (3 Z0) reflects half of it at 0.3, which the
    # matched source absorbs at 0.5
    result = simulate(fmus, "Delays.Line", ["v1", "v2"], kind=kind)
    for low, high, v1, v2 in ((0.0, 0.1, 0.0, 0.0), (0.1, 0.3, 0.5, 0.0),
                              (0.3, 0.5, 0.5, 0.75), (0.5, 1.01, 0.75, 0.75)):
        rows = _grid(result, low + 1e-9, high - 1e-9)
        assert list(rows["v1"]) == pytest.approx([v1] * len(rows), abs=1e-9), (low, high)
        assert list(rows["v2"]) == pytest.approx([v2] * len(rows), abs=1e-9), (low, high)


def test_the_interpreter_sees_the_waves_on_the_line(fmus):
    result = fmus.reference(GAPS, "CodegenGaps.Delays.Line", stop=1.0, interval=0.05)
    assert [result.at("v1", t) for t in (0.05, 0.2, 0.4, 0.8)] == pytest.approx(
        [0.0, 0.5, 0.5, 0.75], abs=1e-9)
    assert [result.at("v2", t) for t in (0.2, 0.4, 0.8)] == pytest.approx([0.0, 0.75, 0.75],
                                                                           abs=1e-9)


@pytest.mark.parametrize("kind", KINDS)
def test_a_delayed_counter_steps_exactly_a_delay_later(fmus, kind):
    # n steps at 0.1 + 0.3 k; m = integer(delay(n, 0.2)) at 0.3 + 0.3 k (time events)
    result = simulate(fmus, "Delays.Counter", ["n", "m"], interval=0.05, kind=kind)
    after = {round(t, 9): m for t, m in zip(result["time"], result["m"])}   # after events
    assert [after[round(t, 9)] for t in np.arange(0.0, 1.0, 0.05)] == \
        [max(0, int(np.floor((t - 0.3) / 0.3 + 1e-9)) + 1) for t in np.arange(0.0, 1.0, 0.05)]


def test_a_delay_time_may_vary_below_its_maximum(fmus):
    # y = time - (0.1 + 0.1 time) once that is after the start, 0 (time at the start) before
    result = simulate(fmus, "Delays.Varying", ["y"])
    t = result["time"]
    assert result["y"] == pytest.approx(np.maximum(0.9 * t - 0.1, 0.0), abs=1e-9)


def test_a_delay_time_beyond_its_maximum_is_an_error(fmus):
    errors = failure_messages(fmus, "Delays.TooLong", 0.01)
    head, rest = errors[0].split(": the delay time ", 1)
    assert head.startswith("delay(time, 2 * time) (CodegenGaps.mo:")
    delay, tail = rest.split(" is not within [0, 0.5] (the maximum delay time) at t = ")
    assert float(delay) == pytest.approx(2 * float(tail)) and float(tail) > 0.25


def test_a_varying_delay_time_without_a_maximum_is_refused():
    with pytest.raises(CompilerError, match="delay\\(\\) needs a parameter expression for "
                                            "its maximum delay time") as caught:
        causalize(flatten_model(GAPS, "CodegenGaps.Delays.NoMaximum", environ={}))
    assert caught.value.span.file.endswith("CodegenGaps.mo")


def test_the_fmu_state_holds_the_delay_histories(fmus, tmp_path):
    from tests.runtime.raw_fmu import OK, RawFmu
    from tests.runtime.test_fmu_state import deserialize, run, save, serialize
    folder = tmp_path / "line"
    with zipfile.ZipFile(fmus.build(GAPS, "CodegenGaps.Delays.Feedback")) as archive:
        archive.extractall(folder)
    fmu = RawFmu(folder)
    fmu.initialize()
    run(fmu, 0.0, 0.8, 0.1, ["x"])
    state = save(fmu)
    first = run(fmu, 0.8, 1.6, 0.1, ["x"])   # reads what the history holds since -0.2
    assert fmu.fmi3SetFMUState(state) == OK
    assert run(fmu, 0.8, 1.6, 0.1, ["x"]) == first
    fresh = RawFmu(folder)
    fresh.initialize()
    assert fresh.fmi3SetFMUState(deserialize(fresh, serialize(fmu, state))) == OK
    assert run(fresh, 0.8, 1.6, 0.1, ["x"]) == first
    fmu.free()
    fresh.free()


# ------------------------------------------------------------------------------- events
@pytest.mark.parametrize("kind", KINDS)
def test_a_relation_of_time_switches_at_its_instant_with_a_sample_there(fmus, kind):
    result = simulate(fmus, "Events.AtTheInstant", ["x", "n"], interval=0.25, kind=kind)
    last = {t: (x, n) for t, x, n in zip(result["time"], result["x"], result["n"])}
    assert last[0.25] == (1.0, 0) and last[0.5] == (1.0, 10) and last[1.0] == (1.0, 10)


def test_integer_of_a_value_jumping_onto_an_integer(fmus):
    result = simulate(fmus, "Events.OntoAnInteger", ["x", "k"], interval=0.25)
    assert list(result["k"]) == [0, 0, 0, 1, 1]


def test_a_variable_equal_to_a_pre_value_follows_it(fmus):
    result = simulate(fmus, "Events.PreAlias", ["n", "r"], interval=0.25)
    assert list(result["r"]) == list(result["n"]) == [0, 1, 2, 3, 4]


# ------------------------------------------------------------------- derivative annotations
def _cubic_root(t):
    """x with x^3 + x = sin t, and its derivative."""
    x = np.array([np.roots([1.0, 0.0, 1.0, -np.sin(s)])[2].real for s in t])
    return x, np.cos(t) / (3 * x ** 2 + 1)


@pytest.mark.parametrize("model", ["Constraint", "Outputs", "RecordInput"])
def test_index_reduction_differentiates_a_call_through_its_derivative_function(fmus, model):
    result = simulate(fmus, f"Derivatives.{model}", ["x", "v"])
    x, v = _cubic_root(result["time"])
    assert result["x"] == pytest.approx(x, abs=1e-9)
    assert result["v"] == pytest.approx(v, abs=1e-7)


def test_the_interpreter_differentiates_a_call_through_its_derivative_function(fmus):
    result = fmus.reference(GAPS, "CodegenGaps.Derivatives.Constraint", interval=0.05)
    t = np.linspace(0.0, 1.0, 21)
    x, v = _cubic_root(t)
    assert [result.at("v", s) for s in t] == pytest.approx(v, abs=1e-7)


def test_a_zero_derivative_input_that_changes_leaves_the_call_without_derivative():
    with pytest.raises(CompilerError, match="index reduction must differentiate this "
                                            "equation, but the function "
                                            "CodegenGaps.Derivatives.cubic has no derivative"):
        causalize(flatten_model(GAPS, "CodegenGaps.Derivatives.Varying", environ={}))


# ---------------------------------------------------------------------------- initialization
def test_initial_equations_decide_sampled_variables(fmus):
    # y_min starts at u(0) = 0 and takes the least sample: u(0.4) = sin 4 is the first below
    result = simulate(fmus, "Initialization.SampledMinimum", ["y_min", "t_min"], stop=0.5,
                      interval=0.05)
    last = {round(t, 9): (y, s) for t, y, s in zip(result["time"], result["y_min"],
                                                    result["t_min"])}
    assert last[0.35] == (0.0, 0.0)
    assert last[0.4] == (pytest.approx(np.sin(4.0)), pytest.approx(0.4))


def test_a_call_without_results_in_a_when_equation_is_refused_by_name():
    with pytest.raises(CompilerError, match="a call of CodegenGaps.Refused.report\\(\\) for no "
                                            "results in a when-equation is not supported"):
        causalize(flatten_model(GAPS, "CodegenGaps.Refused.CallInWhen", environ={}))
