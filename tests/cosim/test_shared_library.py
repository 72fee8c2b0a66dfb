"""Components of one FMU file share its unpacked copy and loaded library (one copy of its code
in the caches: a chain of 100 instances steps ~10x faster, tools/bench_master.py), each instance
keeping its own state; an FMU that can be instantiated only once per process gets a copy per
component."""
from __future__ import annotations

import re
import zipfile
from pathlib import Path

import numpy as np
import pytest

from cosim import api
from cosim.master.target import load_target
from cosim.ssp.builder import structure_from_description
from cosim.ssp.writer import pack_ssp

# Lag: der(x) = a x + b u, x(0) = x0; u is left at 0, so x = x0 exp(a t)
LAGS = {"L1": (-1.0, 1.0), "L2": (-2.0, 3.0), "L3": (0.5, -1.0)}


def lags_system(lag: Path, folder: Path) -> Path:
    components = {name: {"source": "resources/Lag.fmu", "connectors": {"x": "output Real"},
                         "parameters": {"a": a, "x0": x0, "b": 0.0}}
                  for name, (a, x0) in LAGS.items()}
    description = {"name": "lags", "start_time": 0.0, "stop_time": 1.0, "step_size": 0.01,
                   "tolerance": 1e-10, "components": components, "connections": []}
    return pack_ssp(folder / "lags.ssp", structure_from_description(description),
                    {"resources/Lag.fmu": lag})


def only_once(lag: Path, folder: Path) -> Path:
    """The Lag FMU declaring canBeInstantiatedOnlyOncePerProcess on each interface."""
    target = folder / "Lag.fmu"
    with zipfile.ZipFile(lag) as source, zipfile.ZipFile(target, "w") as copy:
        for item in source.infolist():
            data = source.read(item)
            if item.filename == "modelDescription.xml":
                data = re.sub(rb"<(CoSimulation|ModelExchange) ",
                              rb'<\1 canBeInstantiatedOnlyOncePerProcess="true" ', data)
            copy.writestr(item, data)
    return target


@pytest.mark.parametrize("isolate", [False, True])
def test_instances_of_one_library_keep_their_own_states(built, tmp_path, isolate):
    system = lags_system(built["Lag"], tmp_path)
    _, _, fmus = load_target(system, None, tmp_path / "work")
    assert fmus["L1"] is fmus["L2"] is fmus["L3"]
    result = api.run(system, record=[f"{name}.x" for name in LAGS], isolate=isolate)
    for name, (a, x0) in LAGS.items():
        exact = x0 * np.exp(a * result.values["time"])
        assert np.allclose(result.values[f"{name}.x"], exact, rtol=1e-7, atol=1e-9), name


def test_an_fmu_instantiated_only_once_per_process_gets_a_copy_per_component(built, tmp_path):
    (tmp_path / "once").mkdir()
    system = lags_system(only_once(built["Lag"], tmp_path / "once"), tmp_path)
    _, _, fmus = load_target(system, None, tmp_path / "work")
    folders = {fmus[name].folder for name in LAGS}
    assert len(folders) == len(LAGS)
    assert all(fmus[name].info.co_simulation.only_once_per_process for name in LAGS)
