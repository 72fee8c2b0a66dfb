"""valgrind memcheck on a Co-Simulation run of every fixture: no invalid access, no leak."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from lxml import etree

from compiler.fmu.runtime_files import fmi_headers_dir
from tests.runtime.fixtures import FIXTURES

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed"),
]


@pytest.fixture(scope="module")
def host(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("host") / "host"
    subprocess.run(["gcc", "-std=c99", "-g", "-Wall", "-Wextra", f"-I{fmi_headers_dir()}",
                    str(Path(__file__).with_name("host.c")), "-o", str(target), "-ldl"], check=True)
    return target


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_memcheck_clean(fmus, host, name):
    unpacked = fmus.extracted(name)
    root = etree.parse(str(unpacked / "modelDescription.xml")).getroot()
    experiment = root.find("DefaultExperiment")
    stop = float(experiment.get("stopTime"))
    binary = unpacked / "binaries" / "x86_64-linux" / f"{name}.so"
    result = subprocess.run(
        ["valgrind", "--tool=memcheck", "--leak-check=full", "--errors-for-leak-kinds=definite,indirect,possible",
         "--error-exitcode=99", str(host), str(binary), root.get("instantiationToken"), repr(stop), repr(stop / 20)],
        capture_output=True, text=True, timeout=300)
    assert result.returncode != 99, result.stderr[-3000:]
    assert "ERROR SUMMARY: 0 errors" in result.stderr
    if name == "Chatter":
        assert "doStep failed" in result.stdout  # and still no leak on the error path
    else:
        assert result.returncode == 0, result.stdout + result.stderr[-2000:]
