"""Running the systems of ssp_examples/ through cosim, with one cache of compiled FMUs per test run."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from cosim import api

EXAMPLES = Path(__file__).resolve().parents[2] / "ssp_examples"


@pytest.fixture(scope="module", autouse=True)
def fmu_cache(tmp_path_factory):
    """The Modelica components compile into a cache of the test run (not the user's cache),
    shared by the run's modules and xdist workers (the cache's stores are atomic); the
    environment is restored after each module."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's folder, above each worker's own
    folder = root / "example-fmu-cache"
    folder.mkdir(exist_ok=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COSIM_CACHE_DIR", str(folder))
        yield folder


@pytest.fixture
def run_example():
    """``run_example("quarter_car", step_size=...)``: ``cosim.run`` of that example's SSD."""
    def run(example: str, **settings):
        return api.run(EXAMPLES / example / "SystemStructure.ssd", **settings)
    return run
