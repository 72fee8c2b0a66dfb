"""Time events in a model with states, close to (or a rounding error away from)
communication points."""
from __future__ import annotations

import math

import numpy as np
import pytest

from compiler.fmu import HiddenSlot, ModelInterface, Variable, package_fmu
from tests.runtime.raw_fmu import OK, RawFmu

# x' = u - x with u = number of samples so far: when sample(0, period) then u = pre(u) + 1
SOURCE = r"""
#include "model.h"

static double next_sample(const ModelData *m) { return INT(tick) * R(period); }

Status model_initialize(ModelData *m) { return model_derivatives(m); }
Status model_derivatives(ModelData *m) {
    R(der_x) = R(u) - R(x);
    return StatusOK;
}
Status model_outputs(ModelData *m) { (void)m; return StatusOK; }
Status model_event_indicators(ModelData *m, double z[]) { (void)m, (void)z; return StatusOK; }
Status model_event_update(ModelData *m, EventUpdate *update) {
    if (m->time >= next_sample(m)) {
        R(u) = PRE_R(u) + 1.0;
        INT(tick) = PRE_INT(tick) + 1;
    }
    update->discrete_states_need_update = INT(tick) != PRE_INT(tick);
    update->next_event_time_defined = true;
    update->next_event_time = next_sample(m);
    return model_derivatives(m);
}
Status model_jacobian(ModelData *m, double values[]) { (void)m; J(0, 0) = -1.0; return StatusOK; }
"""

INTERFACE = ModelInterface(
    name="SampledInput", identifier="SampledInput",
    variables=(
        Variable("x", causality="output", start=0.0, initial="exact"),
        Variable("der(x)", derivative_of="x"),
        Variable("u", causality="output", variability="discrete", start=0.0, initial="exact"),
        Variable("period", causality="parameter", variability="fixed", start=0.1),
    ),
    hidden=(HiddenSlot("tick", "Int32", 0),), jacobian=((0, 0),))


def exact(t: float, period: float) -> float:
    """x(t) for x' = u - x, x(0) = 0, u stepping by 1 at 0, period, 2 period, ..."""
    samples = [k * period for k in range(int(math.floor(t / period + 1e-9)) + 1)]
    return sum(1.0 - math.exp(-(t - s)) for s in samples)


@pytest.fixture(scope="module")
def sampled(tmp_path_factory):
    path = package_fmu(INTERFACE, SOURCE, tmp_path_factory.mktemp("sampled") / "SampledInput.fmu").path
    import zipfile
    target = path.with_suffix("")
    with zipfile.ZipFile(path) as archive:
        archive.extractall(target)
    return target


@pytest.mark.parametrize("step", [0.1, 0.1 / 3, 0.07])
def test_time_events_on_and_between_communication_points(sampled, step):
    fmu = RawFmu(sampled)
    fmu.initialize(tolerance=1e-8)
    n = int(round(3.0 / step))
    for k in range(n):
        status, *_ = fmu.do_step(k * step, step)  # t0 + k h, as masters compute it
        assert status == OK, fmu.log
        t = (k + 1) * step
        x, u = fmu.get("x", "u")
        assert x == pytest.approx(exact(t, 0.1), rel=1e-6, abs=1e-7), t
        assert u == math.floor(t / 0.1 + 1e-9) + 1
    fmu.free()
