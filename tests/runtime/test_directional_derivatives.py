"""fmi3GetDirectionalDerivative: the model's analytic Jacobian for d der(x) / d x, central
differences for any other pair of unknowns and knowns."""
from __future__ import annotations

import ctypes

import numpy as np
import pytest

from tests.runtime.problems import vanderpol_jacobian
from tests.runtime.raw_fmu import ERROR, OK, RawFmu, doubles, refs


def directional(fmu: RawFmu, unknowns, knowns, seed) -> list[float]:
    out = (ctypes.c_double * len(unknowns))()
    status = fmu.fmi3GetDirectionalDerivative(refs([fmu.vr[u] for u in unknowns]), len(unknowns),
                                              refs([fmu.vr[k] for k in knowns]), len(knowns),
                                              doubles(seed), len(seed), out, len(unknowns))
    assert status == OK, fmu.log
    return list(out)


def test_vanderpol_jacobian_columns_are_analytic(fmus):
    fmu = RawFmu(fmus.extracted("VanDerPol"))
    fmu.initialize()
    assert fmu.do_step(0.0, 0.5)[0] == OK
    y = fmu.get("y1", "y2")
    expected = np.array(vanderpol_jacobian(0.5, y))
    unknowns, knowns = ["der(y1)", "der(y2)"], ["y1", "y2"]
    for j, known in enumerate(knowns):
        assert directional(fmu, unknowns, [known], [1.0]) == pytest.approx(expected[:, j], rel=1e-14)
    seed = [0.3, -2.0]
    assert directional(fmu, unknowns, knowns, seed) == pytest.approx(expected @ seed, rel=1e-13)
    fmu.free()


def test_parameter_sensitivity_by_differences(fmus):
    """d der(x) / d k = -x for x' = -k x: k is not a state, so central differences answer."""
    fmu = RawFmu(fmus.extracted("Dahlquist"))
    fmu.initialize()
    assert fmu.do_step(0.0, 0.5)[0] == OK
    x = fmu.get("x")[0]
    assert directional(fmu, ["der(x)"], ["k"], [1.0]) == pytest.approx([-x], rel=1e-9)
    assert fmu.get("k", "x") == [1.0, x]  # the knowns are restored exactly
    fmu.free()


def test_output_with_respect_to_input_without_states(fmus):
    fmu = RawFmu(fmus.extracted("Counter"))
    fmu.initialize()
    assert directional(fmu, ["y"], ["offset"], [2.0]) == pytest.approx([2.0], rel=1e-9)
    fmu.free()


def test_sparse_jacobian_column_and_output_dependency(fmus):
    fmu = RawFmu(fmus.extracted("HeatChain200"))
    fmu.initialize()
    a = fmu.get("a")[0]
    column = directional(fmu, ["der(T[99])", "der(T[100])", "der(T[101])", "der(T[102])"], ["T[100]"], [1.0])
    assert column == [a, -2 * a, a, 0.0]
    assert directional(fmu, ["T_end"], ["T[200]"], [1.0]) == pytest.approx([1.0], rel=1e-9)
    fmu.free()


def test_argument_checks(fmus):
    fmu = RawFmu(fmus.extracted("VanDerPol"))
    out = (ctypes.c_double * 1)()
    args = (refs([fmu.vr["der(y1)"]]), 1, refs([fmu.vr["y1"]]), 1, doubles([1.0]), 1, out, 1)
    assert fmu.fmi3GetDirectionalDerivative(*args) == ERROR  # not initialized yet
    fmu.initialize()
    assert fmu.fmi3GetDirectionalDerivative(*args[:5], 2, out, 1) == ERROR
    assert "expected nSeed = nKnowns = 1" in fmu.messages(ERROR)[-1]
    assert fmu.fmi3GetDirectionalDerivative(*args[:2], refs([0]), 1, doubles([1.0]), 1, out, 1) == ERROR
    assert "time cannot be a known" in fmu.messages(ERROR)[-1]
    fmu.free()
