"""Running the systems of ssp_examples/ through cosim, with a per-session cache of compiled FMUs.

Until the master compiles ``text/x-modelica`` components itself, ``run_example`` compiles each
one with ``compile_fmu`` into a copy of the example's folder and points the SSD at the FMUs.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from lxml import etree

from compiler.compile import compile_fmu
from cosim import api

EXAMPLES = Path(__file__).resolve().parents[2] / "ssp_examples"
SSD = "{http://ssp-standard.org/SSP1/SystemStructureDescription}"
MODELICA = "text/x-modelica"
FMU = "application/x-fmu-sharedlibrary"


@pytest.fixture(scope="session", autouse=True)
def fmu_cache(tmp_path_factory):
    """Compiled FMUs are cached for the session only (not in the user's cache)."""
    folder = tmp_path_factory.mktemp("fmu-cache")
    saved = os.environ.get("COSIM_CACHE_DIR")
    os.environ["COSIM_CACHE_DIR"] = str(folder)
    yield folder
    if saved is None:
        os.environ.pop("COSIM_CACHE_DIR", None)
    else:
        os.environ["COSIM_CACHE_DIR"] = saved


def with_fmus(example: str, folder: Path) -> Path:
    """A copy of ``ssp_examples/<example>`` in ``folder`` whose Modelica components are FMUs."""
    target = folder / example
    shutil.copytree(EXAMPLES / example, target)
    ssd = target / "SystemStructure.ssd"
    tree = etree.parse(str(ssd))
    for component in tree.iter(f"{SSD}Component"):
        if component.get("type") == MODELICA:
            source = component.get("source")
            fmu = compile_fmu(target / source, output=target / "resources" / f"{Path(source).stem}.fmu")
            component.set("type", FMU)
            component.set("source", fmu.relative_to(target).as_posix())
    tree.write(str(ssd), xml_declaration=True, encoding="UTF-8")
    return ssd


@pytest.fixture
def run_example(tmp_path):
    """``run_example("quarter_car", step_size=...)``: the ``RunResult`` of ``cosim.run``."""
    def run(example: str, **settings):
        return api.run(with_fmus(example, tmp_path), **settings)
    return run
