"""Small FMI 3.0 models in C for the master's examples, tests and benchmark.

``Gain``: y = k u + c w + b (no states, direct feedthrough from u and w).
``Lag``: der(x) = a x + b u, x(0) = x0 (output x, no feedthrough).
``Fail``: der(x) = 1, and an Error from t_fail on (for error handling tests).
``build(name, directory)`` packages one as ``<directory>/<name>.fmu`` with ``package_fmu``.
"""
from __future__ import annotations

from pathlib import Path

from compiler.fmu import Experiment, ModelInterface, Variable, package_fmu


def _parameter(name: str, start: float, description: str = "") -> Variable:
    return Variable(name, causality="parameter", variability="tunable", start=start,
                    description=description)


GAIN = ModelInterface(
    name="Gain", identifier="Gain", description="y = k u + c w + b",
    variables=(Variable("u", causality="input", start=0.0),
               Variable("w", causality="input", start=0.0),
               _parameter("k", 1.0), _parameter("c", 0.0), _parameter("b", 0.0),
               Variable("y", causality="output")),
    has_jacobian=False, dependencies=(("y", ("u", "w")),),
    experiment=Experiment(0.0, 1.0, 1e-6, 0.01))

GAIN_C = """
#include "model.h"
Status model_initialize(ModelData *m) { return model_derivatives(m); }
Status model_derivatives(ModelData *m) { R(y) = R(k) * R(u) + R(c) * R(w) + R(b); return StatusOK; }
Status model_jacobian(ModelData *m, double values[]) { (void)m, (void)values; return StatusOK; }
SMOOTH_MODEL_WITHOUT_EVENTS
"""

LAG = ModelInterface(
    name="Lag", identifier="Lag", description="der(x) = a x + b u",
    variables=(Variable("x", causality="output", initial="calculated"),
               Variable("der(x)", derivative_of="x"),
               Variable("u", causality="input", start=0.0),
               _parameter("a", -1.0), _parameter("b", 1.0),
               Variable("x0", causality="parameter", variability="fixed", start=0.0)),
    jacobian=((0, 0),), dependencies=(("x", ()),),
    experiment=Experiment(0.0, 1.0, 1e-8, 0.01))

LAG_C = """
#include "model.h"
Status model_initialize(ModelData *m) { R(x) = R(x0); return model_derivatives(m); }
Status model_derivatives(ModelData *m) { R(der_x) = R(a) * R(x) + R(b) * R(u); return StatusOK; }
Status model_jacobian(ModelData *m, double values[]) { J(0, 0) = R(a); return StatusOK; }
SMOOTH_MODEL_WITHOUT_EVENTS
"""

FAIL = ModelInterface(
    name="Fail", identifier="Fail", description="der(x) = 1; an Error from t_fail on",
    variables=(Variable("x", causality="output", start=0.0, initial="exact"),
               Variable("der(x)", derivative_of="x"),
               _parameter("t_fail", 0.5)),
    jacobian=((0, 0),), experiment=Experiment(0.0, 1.0, 1e-6, 0.01))

FAIL_C = """
#include "model.h"
Status model_initialize(ModelData *m) { return model_derivatives(m); }
Status model_derivatives(ModelData *m) {
    R(der_x) = 1.0;
    if (m->time > R(t_fail)) {
        model_log(m, StatusError, "logStatusError", "x = %g: the model fails after t_fail = %g", R(x), R(t_fail));
        return StatusError;
    }
    return StatusOK;
}
Status model_jacobian(ModelData *m, double values[]) { (void)m; J(0, 0) = 0.0; return StatusOK; }
SMOOTH_MODEL_WITHOUT_EVENTS
"""

MODELS = {"Gain": (GAIN, GAIN_C), "Lag": (LAG, LAG_C), "Fail": (FAIL, FAIL_C)}


def build(name: str, directory: str | Path) -> Path:
    """Package model ``name`` as ``<directory>/<name>.fmu``; returns the path."""
    interface, source = MODELS[name]
    return package_fmu(interface, source, Path(directory) / f"{name}.fmu").path
