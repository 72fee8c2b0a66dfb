"""Running the systems of ssp_examples/ through cosim, with a per-session cache of compiled FMUs."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from cosim import api

EXAMPLES = Path(__file__).resolve().parents[2] / "ssp_examples"


@pytest.fixture(scope="session", autouse=True)
def fmu_cache(tmp_path_factory):
    """The Modelica components compile into a cache of the test run (not the user's cache),
    shared by the run's xdist workers (the cache's stores are atomic)."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's folder, above each worker's own
    folder = root / "example-fmu-cache"
    folder.mkdir(exist_ok=True)
    saved = os.environ.get("COSIM_CACHE_DIR")
    os.environ["COSIM_CACHE_DIR"] = str(folder)
    yield folder
    if saved is None:
        os.environ.pop("COSIM_CACHE_DIR", None)
    else:
        os.environ["COSIM_CACHE_DIR"] = saved


@pytest.fixture
def run_example():
    """``run_example("quarter_car", step_size=...)``: ``cosim.run`` of that example's SSD."""
    def run(example: str, **settings):
        return api.run(EXAMPLES / example / "SystemStructure.ssd", **settings)
    return run
