"""An assert's message computed only when it fails does not leave its locals to later
statements (msl_models/AssertMessages.mo; the C did not compile: Fluid's RoomCO2)."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

MODEL = Path(__file__).parent / "msl_models" / "AssertMessages.mo"


def test_a_call_in_a_message_and_the_same_call_in_the_next_condition(tmp_path):
    import cosim
    fmu = cosim.compile(MODEL, model="AssertMessages", output=f"{tmp_path}/")
    result = cosim.run(fmu, stop_time=1.0, step_size=0.5, record=["AssertMessages.x"]).values
    assert result["AssertMessages.x"][-1] == pytest.approx(math.exp(-1.0), rel=1e-5)
