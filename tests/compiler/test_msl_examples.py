"""Examples of the Modelica Standard Library 4.1.0 that must run and match their MAP-LIB
reference results (the issue's eight, and those of the library's C code: tables, noise,
Strings). They need the library (``MODELICAPATH``: the folder holding ``Modelica/package.mo``)
and, for the comparison, the reference results (``COSIM_MSL_REFERENCES``); without them they
are skipped with what to provide. Each construct these examples exercise also has a small
self-written model that CI runs."""
from __future__ import annotations

import numpy as np
import pytest

from tests.compiler.conftest import TEST_FMU_CACHE
from tests.conftest import find, need
from tools.msl_compare import compare, read_reference, reference_folder

EIGHT = (
    "Modelica.Blocks.Examples.PID_Controller",
    "Modelica.Mechanics.Rotational.Examples.First",
    "Modelica.Mechanics.Translational.Examples.Oscillator",
    "Modelica.Blocks.Examples.Filter",
    "Modelica.Electrical.Machines.Examples.DCMachines.DCPM_Start",
    "Modelica.Electrical.Analog.Examples.CauerLowPassAnalog",
    "Modelica.Electrical.Analog.Examples.ChuaCircuit",
    "Modelica.Thermal.HeatTransfer.Examples.TwoMasses",
)

# external C functions of the library (its Resources/C-Sources compiled into the FMU):
# tables with their time events, random numbers, Strings, String() options in functions
WITH_C_SOURCES = (
    "Modelica.Blocks.Examples.FilterWithDifferentiation",
    "Modelica.Blocks.Examples.ShowLogicalSources",
    "Modelica.Blocks.Examples.LogicalNetwork1",
    "Modelica.Blocks.Examples.BooleanNetwork1",
    "Modelica.Blocks.Examples.Noise.UniformNoise",
    "Modelica.Blocks.Examples.Noise.NormalNoiseProperties",
    "Modelica.Blocks.Examples.Noise.Distributions",
    "Modelica.Blocks.Examples.Noise.ImpureGenerator",
    "Modelica.Blocks.Examples.Noise.DrydenContinuousTurbulence",
    "Modelica.Electrical.Batteries.Examples.BatteryDischargeCharge",
    "Modelica.Electrical.Machines.Examples.Transformers.TransformerTestbench",
    "Modelica.Mechanics.Translational.Examples.Vehicle",
    "Modelica.Thermal.HeatTransfer.Examples.Motor",
)

# the MultiBody, Fluid and Media examples of issue 14
ISSUE_14 = (
    "Modelica.Mechanics.MultiBody.Examples.Elementary.Pendulum",
    "Modelica.Mechanics.MultiBody.Examples.Elementary.DoublePendulum",
    "Modelica.Mechanics.MultiBody.Examples.Loops.Fourbar1",
    # der_theta1 = der(theta1) (stateSelect always) is a joint's state w by name
    "Modelica.Mechanics.MultiBody.Examples.Elementary.RollingWheelSetDriving",
    "Modelica.Media.Examples.SimpleLiquidWater",
    "Modelica.Fluid.Examples.Tanks.ThreeTanks",
    "Modelica.Fluid.Examples.DrumBoiler.DrumBoiler",
    "Modelica.Fluid.Examples.AST_BatchPlant.Test.TanksWithEmptyingPipe1",
    "Modelica.Fluid.Examples.HeatingSystem",
    "Modelica.Fluid.Examples.InverseParameterization",
    "Modelica.Fluid.Examples.NonCircularPipes",
)

pytestmark = pytest.mark.slow


def _libraries(msl):
    return [msl / "Modelica", msl / "ModelicaServices", msl / "Complex.mo"]


@pytest.mark.parametrize("model", EIGHT + WITH_C_SOURCES + ISSUE_14)
def test_the_example_runs_and_matches_its_reference(model, tmp_path, monkeypatch):
    import cosim
    from compiler.codegen.naming import plain_identifier
    msl = need("msl")
    # the session's cache: the library's C sources compile once for all examples
    monkeypatch.setenv("COSIM_CACHE_DIR", str(TEST_FMU_CACHE))
    fmu = cosim.compile(msl / "Modelica" / "package.mo", model=model, libs=_libraries(msl),
                        output=f"{tmp_path}/")  # <identifier>.fmu: the component's name
    references = find("msl-references")
    folder = reference_folder(references, model) if references else None
    reference = read_reference(folder) if folder else None
    settings = reference.experiment if reference else {}
    component = plain_identifier(model)
    record = [f"{component}.{signal}" for signal in reference.signals] if reference else []
    result = cosim.run(fmu, stop_time=settings.get("StopTime"),
                       step_size=settings.get("Interval"), tolerance=settings.get("Tolerance"),
                       record=record)
    table = result.values
    assert np.all(np.isfinite(table["time"]))
    assert table["time"][-1] == pytest.approx(settings.get("StopTime", table["time"][-1]))
    if reference is None:
        pytest.skip(f"{model} ran; no reference to compare with: " + (
            f"{references} has no CSV for it" if references else
            "set COSIM_MSL_REFERENCES to the MAP-LIB reference results"))
    # as tools/msl_report.py compares: at the reference's grid rows (rows a tool adds at
    # events between them show transients a result on the grid cannot)
    columns = {signal: np.asarray(table[f"{component}.{signal}"], dtype=float)
               for signal in reference.signals}
    worst = max(compare(reference, np.asarray(table["time"], dtype=float), columns),
                key=lambda item: item.deviation)
    assert worst.matches, (f"{worst.signal} is {worst.deviation:.3g} x the tolerance off the "
                           f"reference at t = {worst.at_time:g}")


# an FMU of a MultiBody example (overconstrained frames, index reduction, dummy derivatives)
# exported to another tool: fmpy validates it, and its Co-Simulation (our Radau) and Model
# Exchange (fmpy's CVODE over our right-hand side) runs agree with the master's
FMU_EXPORT = {
    "Modelica.Mechanics.MultiBody.Examples.Elementary.DoublePendulum":
        ("revolute1.phi", "revolute1.w", "revolute2.phi", "revolute2.w"),
}


@pytest.mark.parametrize("model", sorted(FMU_EXPORT))
def test_the_example_fmu_validates_and_runs_alike_in_fmpy(model, tmp_path, monkeypatch):
    import cosim
    from fmpy import simulate_fmu
    from fmpy.validation import validate_fmu
    from compiler.codegen.naming import plain_identifier
    msl = need("msl")
    monkeypatch.setenv("COSIM_CACHE_DIR", str(TEST_FMU_CACHE))
    fmu = cosim.compile(msl / "Modelica" / "package.mo", model=model, libs=_libraries(msl),
                        output=f"{tmp_path}/")
    assert validate_fmu(str(fmu)) == []
    signals = FMU_EXPORT[model]
    component = plain_identifier(model)
    stop = 3.0
    ours = cosim.run(fmu, stop_time=stop, step_size=stop / 100, tolerance=1e-8,
                     record=[f"{component}.{name}" for name in signals]).values
    grid = np.linspace(0.0, stop, 101)
    for kind in ("CoSimulation", "ModelExchange"):
        theirs = simulate_fmu(str(fmu), fmi_type=kind, stop_time=stop, output_interval=stop / 100,
                              relative_tolerance=1e-8, output=list(signals))
        for name in signals:
            mine = np.interp(grid, ours["time"], ours[f"{component}.{name}"])
            other = np.interp(grid, theirs["time"], theirs[name])
            span = max(np.ptp(mine), 1e-12)
            assert np.max(np.abs(mine - other)) <= 1e-4 * span, f"{kind}: {name}"
