"""`fmpy compile` rebuilds the binary from sources/ (through CMake and buildDescription.xml),
and the rebuilt FMU gives the same results."""
from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile

import numpy as np
import pytest
from fmpy import simulate_fmu

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("name, stop", [("VanDerPol", 2.0), ("BouncingBall", 2.4)])
def test_fmpy_compile_rebuilds_an_equivalent_binary(fmus, tmp_path, name, stop):
    rebuilt = tmp_path / f"{name}.fmu"
    shutil.copyfile(fmus[name], rebuilt)
    with zipfile.ZipFile(rebuilt) as archive:
        original_binary = archive.read(f"binaries/x86_64-linux/{name}.so")
    subprocess.run([sys.executable, "-m", "fmpy.cli", "compile", str(rebuilt)], check=True, capture_output=True)
    with zipfile.ZipFile(rebuilt) as archive:
        assert archive.read(f"binaries/x86_64-linux/{name}.so") != original_binary
    for kind in ("CoSimulation", "ModelExchange"):
        options = dict(fmi_type=kind, stop_time=stop, output_interval=stop / 100, relative_tolerance=1e-5)
        expected = simulate_fmu(str(fmus[name]), **options)
        result = simulate_fmu(str(rebuilt), **options)
        for column in expected.dtype.names:
            assert np.allclose(result[column], expected[column], rtol=1e-12, atol=1e-12), (kind, column)
