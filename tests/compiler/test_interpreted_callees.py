"""A function whose callee the reference interpreter cannot run leaves no half-compiled
function behind: a later caller meets the interpreter's refusal (and the call goes to the
generated C), not an undefined Python name (msl_models/InterpretedCallees.mo)."""
from __future__ import annotations

from pathlib import Path

import pytest

MODELS = Path(__file__).parent / "msl_models" / "InterpretedCallees.mo"


def test_constants_through_an_external_callee_are_computed_by_the_fmu(tmp_path):
    import cosim
    fmu = cosim.compile(MODELS, model="InterpretedCallees.UsesBoth", output=f"{tmp_path}/")
    result = cosim.run(fmu, stop_time=1.0, step_size=0.5,
                       record=["InterpretedCallees_UsesBoth.x"]).values
    # a = 2*3*1 = 6, b = 2*3*2 + 1 = 13: x = 19 t
    assert result["InterpretedCallees_UsesBoth.x"][-1] == pytest.approx(19.0, rel=1e-9)
