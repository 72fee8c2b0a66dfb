"""The runtime built with -fsanitize=address,undefined runs every fixture cleanly."""
from __future__ import annotations

import os
import subprocess
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from compiler.fmu.build import compile_binary
from compiler.fmu.package import MODEL_SOURCES
from compiler.fmu.runtime_files import RUNTIME_SOURCES, fmi_headers_dir

pytestmark = pytest.mark.slow
SANITIZE = ("-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=undefined", "-g")


@pytest.fixture(scope="module")
def host(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("asan-host") / "host"
    subprocess.run(["gcc", "-std=c99", *SANITIZE, f"-I{fmi_headers_dir()}", str(Path(__file__).with_name("host.c")),
                    "-o", str(target), "-ldl"], check=True)
    return target


# dense and sparse LU, events, a stateless model with strings, and the error path
CASES = ("VanDerPol", "HeatChain200", "BouncingBall", "Counter", "Chatter")


@pytest.mark.parametrize("name", CASES)
def test_address_and_undefined_behaviour_sanitizers(fmus, host, tmp_path, name):
    with zipfile.ZipFile(fmus[name]) as archive:
        archive.extractall(tmp_path)
    binary = tmp_path / "asan.so"
    compile_binary(tmp_path / "sources", RUNTIME_SOURCES + MODEL_SOURCES, name, binary, SANITIZE)
    root = etree.parse(str(tmp_path / "modelDescription.xml")).getroot()
    stop = float(root.find("DefaultExperiment").get("stopTime"))
    environment = {**os.environ, "ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0:exitcode=99",
                   "UBSAN_OPTIONS": "print_stacktrace=1:exitcode=99"}
    result = subprocess.run([str(host), str(binary), root.get("instantiationToken"), repr(stop), repr(stop / 20)],
                            capture_output=True, text=True, timeout=300, env=environment)
    assert result.returncode != 99, result.stderr[-4000:]
    assert "runtime error" not in result.stderr and "AddressSanitizer" not in result.stderr, result.stderr[-4000:]
    assert result.returncode == 0, result.stdout + result.stderr[-2000:]
    assert ("doStep failed" in result.stdout) == (name == "Chatter")
