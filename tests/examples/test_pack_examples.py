"""``cosim pack`` of every example: the packed .ssp runs in cosim with the folder's results,
and each of its FMUs passes fmpy's validation and simulates in fmpy on its own."""
from __future__ import annotations

import zipfile

import numpy as np
import pytest
from fmpy import read_model_description, simulate_fmu
from fmpy.validation import validate_fmu

from cosim import api
from tests.examples.conftest import EXAMPLES
from tests.examples.test_validate import MODELICA_ONLY

pytestmark = pytest.mark.slow  # compiles the example's models (unless an earlier test did)


@pytest.mark.parametrize("example", MODELICA_ONLY)
def test_packed_example_runs_like_the_folder_and_its_fmus_in_fmpy(example, tmp_path):
    archive = api.pack(EXAMPLES / example, tmp_path / f"{example}.ssp")
    folder = api.run(EXAMPLES / example).values
    packed = api.run(archive).values
    assert packed.dtype.names == folder.dtype.names
    for name in folder.dtype.names:
        assert np.array_equal(packed[name], folder[name]), name

    with zipfile.ZipFile(archive) as files:
        fmus = [name for name in files.namelist() if name.endswith(".fmu")]
        assert fmus
        files.extractall(tmp_path / "unpacked", members=fmus)
    for name in fmus:
        fmu = str(tmp_path / "unpacked" / name)
        assert validate_fmu(fmu) == [], name
        description = read_model_description(fmu)
        outputs = [v.name for v in description.modelVariables if v.causality == "output"]
        for kind in ("CoSimulation", "ModelExchange"):
            # a component alone, its inputs at their start values, for a short while
            result = simulate_fmu(fmu, fmi_type=kind, stop_time=0.1, output=outputs,
                                  output_interval=0.01)
            assert len(result) >= 11, (name, kind)
            for output in outputs:
                assert np.all(np.isfinite(result[output])), (name, kind, output)
