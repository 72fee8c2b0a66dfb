"""What made examples of the Modelica Standard Library fail or differ at run time, each in a
small self-written model (msl_models/RunFixes.mo), checked against closed forms."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cosim import api

RUN_FIXES = Path(__file__).parent / "msl_models" / "RunFixes.mo"


@pytest.fixture(autouse=True)
def no_modelicapath(monkeypatch):
    monkeypatch.delenv("MODELICAPATH", raising=False)


def run(model: str, **options):
    return api.run(RUN_FIXES, model=f"RunFixes.{model}", **options)


# --------------------------------------------------------------------------------- recording
def test_variables_whose_names_carry_subscripts_are_recorded_by_those_names():
    component = "RunFixes_Recorded_Elements"
    names = [f"{component}.decay[2].x", f"{component}.u[1]", f"{component}.u[2]"]
    result = run("Recorded.Elements", record=names, step_size=0.1)
    t = result.values["time"]
    assert result.columns[-3:] == tuple(names)
    assert np.allclose(result.values[names[0]], np.exp(-2 * t), rtol=1e-5, atol=1e-7)
    assert np.allclose(result.values[names[1]], np.exp(-t), rtol=1e-5, atol=1e-7)
    assert np.allclose(result.values[names[2]], 2 * np.exp(-2 * t), rtol=1e-5, atol=1e-7)
