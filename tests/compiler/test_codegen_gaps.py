"""Code generation and language gaps that stopped MSL examples at compile (issue 13 items 7,
8, 12), each in a small self-written model (msl_models/CodegenGaps.mo) compiled with gcc's
warnings as errors (tests/conftest.py) and run against closed forms or the reference
interpreter."""
from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu
from fmpy.validation import validate_fmu

from compiler import compile as compile_module
from compiler.compile import compile_fmu
from compiler.errors import PackageError

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
    for model in ("Warnings.Empty", "Warnings.LongLoop", "Functions.Phasor"):
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


def test_a_subscript_past_the_end_of_the_assigned_array_is_an_error(fmus):
    fmu = fmus.build(GAPS, "CodegenGaps.Algorithms.Overrun")
    messages = []
    with pytest.raises(Exception, match="status 3"):
        simulate_fmu(str(fmu), output_interval=0.05,
                     logger=lambda *args: messages.append(args))
    errors = [message.decode() for _, status, category, message in messages
              if category == b"logStatusError"]
    # the third sample (t = 0.5) has i = 3 for buf[2]
    assert errors[0].startswith("CodegenGaps.mo:")
    assert "t = 0.5" in errors[0]
    assert errors[0].endswith("a subscript of the left side of ':=' is out of range")


# -------------------------------------------------------------------------------- arrays
def test_empty_rows_of_a_matrix_constructor_add_nothing(fmus):
    from compiler.api import flatten_model
    model = flatten_model(GAPS, "CodegenGaps.Arrays.EmptyRows", environ={})
    sizes = {name: sum(1 for item in model.variables if item.name.startswith(f"{name}["))
             for name in ("padded0", "padded2")}
    assert sizes == {"padded0": 3, "padded2": 5}
    names = ["padded0[1]", "padded0[3]", "padded2[1]", "padded2[2]", "padded2[3]", "padded2[5]",
             "y"]
    result = simulate(fmus, "Arrays.EmptyRows", names)
    assert [result[name][-1] for name in names] == pytest.approx([1, 3, 0, 0, 1, 3, 6])
