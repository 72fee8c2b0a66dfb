"""A hand-written FMI 2.0 Model Exchange FMU (tests/cosim/fmi2_me) run by the master: the
FMI 2.0 adapter of the Radau driver, events through fmi2NewDiscreteStates, and the
finite-difference Jacobian (the FMU has no directional derivatives)."""
from __future__ import annotations

import math
import shutil
import subprocess
import zipfile
from pathlib import Path

import numpy as np
import pytest
from fmpy.validation import validate_fmu

from compiler.fmu.runtime_files import fmi_headers_dir
from cosim import api

SOURCES = Path(__file__).with_name("fmi2_me")
G, E = 9.81, 0.7


@pytest.fixture(scope="module")
def ball2(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("fmi2")
    unpacked = root / "unpacked"
    (unpacked / "binaries" / "linux64").mkdir(parents=True)
    shutil.copyfile(SOURCES / "modelDescription.xml", unpacked / "modelDescription.xml")
    subprocess.run(["gcc", "-std=c99", "-O2", "-fPIC", "-shared", "-Wall", "-Wextra", "-Wno-unused-parameter",
                    "-Werror", f"-I{fmi_headers_dir()}", str(SOURCES / "bouncing_ball2.c"),
                    "-o", str(unpacked / "binaries" / "linux64" / "BouncingBall2.so")], check=True)
    fmu = root / "BouncingBall2.fmu"
    with zipfile.ZipFile(fmu, "w") as archive:
        for path in unpacked.rglob("*"):
            archive.write(path, path.relative_to(unpacked).as_posix())
    assert validate_fmu(str(fmu)) == []
    return fmu


def analytic_height(t: float) -> float:
    first = math.sqrt(2.0 / G)
    if t < first:
        return 1.0 - G * t * t / 2
    launch, start = G * first * E, first
    while t > start + 2 * launch / G:
        start, launch = start + 2 * launch / G, launch * E
    return launch * (t - start) - G * (t - start) ** 2 / 2


def test_fmi2_model_exchange_bouncing_ball(ball2):
    result = api.run(ball2, stop_time=2.0, step_size=0.01, tolerance=1e-8)
    assert result.values.dtype.names == ("time", "BouncingBall2.h", "BouncingBall2.v")
    expected = [analytic_height(t) for t in result.values["time"]]
    assert np.max(np.abs(result.values["BouncingBall2.h"] - expected)) < 1e-6
