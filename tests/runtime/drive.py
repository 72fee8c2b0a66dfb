"""Driving fixture FMUs through fmpy's FMI 3.0 classes: Co-Simulation on any time grid, and
Model Exchange integrated by scipy (an integrator independent of ours and of CVode)."""
from __future__ import annotations

from ctypes import POINTER, c_double
from pathlib import Path

import numpy as np
from fmpy import extract, read_model_description
from fmpy.fmi3 import FMU3Model, FMU3Slave
from scipy.integrate import solve_ivp


def references(name: str) -> np.ndarray:
    """Stored reference: columns time, states (tests/runtime/references, tools/make_references.py)."""
    return np.loadtxt(Path(__file__).parent / "references" / f"{name}.csv", delimiter=",", skiprows=1)


def value_references(description, names) -> list[int]:
    by_name = {v.name: v.valueReference for v in description.modelVariables}
    return [by_name[n] for n in names]


def open_fmu(path: Path, kind: str, **instantiate):
    description = read_model_description(path)
    unzipped = extract(path)
    cls = FMU3Slave if kind == "CS" else FMU3Model
    interface = description.coSimulation if kind == "CS" else description.modelExchange
    fmu = cls(guid=description.guid, unzipDirectory=unzipped, modelIdentifier=interface.modelIdentifier,
              instanceName="test")
    fmu.instantiate(**instantiate)
    return description, fmu


def cs_on_grid(path: Path, grid: np.ndarray, names, tolerance: float) -> np.ndarray:
    """doStep from grid point to grid point (variable steps); rows: grid, columns: names."""
    description, fmu = open_fmu(path, "CS")
    vrs = value_references(description, names)
    fmu.enterInitializationMode(tolerance=tolerance, startTime=grid[0])
    fmu.exitInitializationMode()
    rows = [fmu.getFloat64(vrs)]
    for t0, t1 in zip(grid[:-1], grid[1:]):
        fmu.doStep(currentCommunicationPoint=t0, communicationStepSize=t1 - t0)
        rows.append(fmu.getFloat64(vrs))
    fmu.terminate()
    fmu.freeInstance()
    return np.array(rows)


def me_with_scipy(path: Path, grid: np.ndarray, names, rtol: float, atol,
                  directional: bool = True) -> np.ndarray:
    """Integrate the FMU's Model Exchange interface with scipy's Radau, its Jacobian taken from
    fmi3GetDirectionalDerivative (``directional`` False: scipy's differences, for FMUs that do
    not provide it) (no events: for the smooth problems)."""
    description, fmu = open_fmu(path, "ME")
    fmu.enterInitializationMode(startTime=grid[0])
    fmu.exitInitializationMode()
    while fmu.updateDiscreteStates()[0]:
        pass
    fmu.enterContinuousTimeMode()
    n = description.numberOfContinuousStates
    states = [unknown.variable.derivative for unknown in description.derivatives]
    state_vrs = [state.valueReference for state in states]
    derivative_vrs = [unknown.variable.valueReference for unknown in description.derivatives]

    def pointer(array: np.ndarray):
        return array.ctypes.data_as(POINTER(c_double))

    def rhs(t, x):
        fmu.setTime(t)
        x = np.ascontiguousarray(x, dtype=float)
        fmu.setContinuousStates(pointer(x), n)
        dx = np.zeros(n)
        fmu.getContinuousStateDerivatives(pointer(dx), n)
        return dx

    def jacobian(t, x):
        rhs(t, x)
        columns = [fmu.getDirectionalDerivative(derivative_vrs, [vr], [1.0]) for vr in state_vrs]
        return np.array(columns).T

    x0 = np.zeros(n)
    fmu.getContinuousStates(pointer(x0), n)
    solution = solve_ivp(rhs, (grid[0], grid[-1]), x0, method="Radau", t_eval=grid,
                         jac=jacobian if directional else None,
                         rtol=rtol, atol=atol)
    assert solution.success, solution.message
    by_state = {state.name: k for k, state in enumerate(states)}
    fmu.terminate()
    fmu.freeInstance()
    return solution.y.T[:, [by_state[name] for name in names]]


def scaled_error(values: np.ndarray, reference: np.ndarray, rtol: float, atol) -> float:
    """max |y - ref| / (rtol |ref| + atol): 1 means 'exactly at the tolerance'."""
    return float(np.max(np.abs(values - reference) / (rtol * np.abs(reference) + atol)))
