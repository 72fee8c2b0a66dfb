"""The README's code keeps working."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from fmpy import simulate_fmu
from fmpy.validation import validate_fmu

README = Path(__file__).resolve().parents[2] / "README.md"


def test_building_an_fmu_from_c_example(tmp_path, monkeypatch):
    code = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md", "exec"), {})
    assert validate_fmu("Decay.fmu") == []
    result = simulate_fmu("Decay.fmu", stop_time=1.0, output_interval=0.25)
    assert np.allclose(result["x"], np.exp(-2.0 * result["time"]), rtol=1e-6)


def test_quick_start_commands_exist():
    block = re.search(r"## Quick start\n\n```sh\n(.*?)```", README.read_text(), re.S).group(1)
    commands = [line.split("#")[0].split() for line in block.strip().splitlines()]
    assert len(commands) == 2
    assert (README.parent / commands[0][1]).is_file()
    assert commands[1][:3] == ["python", "-m", "pytest"]
