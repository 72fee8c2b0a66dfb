"""Every example validates cleanly against the SSP 2.0 schema, its Modelica components
compiled and their connectors checked against the FMUs."""
from __future__ import annotations

from pathlib import Path

import pytest

from cosim import api
from tests.examples.conftest import EXAMPLES

EXAMPLE_NAMES = sorted(folder.name for folder in EXAMPLES.iterdir()
                       if (folder / "SystemStructure.ssd").is_file())
# mixed_thirdparty needs its FMU built first: test_mixed_thirdparty validates it
MODELICA_ONLY = [name for name in EXAMPLE_NAMES if name != "mixed_thirdparty"]


def test_every_example_has_its_test_and_readme():
    assert EXAMPLE_NAMES == ["dc_motor", "drivetrain", "mixed_thirdparty", "quarter_car",
                             "reactor", "room_thermal", "spring_chain"]
    for name in EXAMPLE_NAMES:
        assert (EXAMPLES / name / "README.md").is_file()
        assert (Path(__file__).parent / f"test_{name}.py").is_file()


@pytest.mark.slow  # compiles the example's models (unless an earlier test did)
@pytest.mark.parametrize("example", MODELICA_ONLY)
def test_example_validates_without_problems(example, schema_2):
    report = api.validate(EXAMPLES / example, schema_dir=schema_2)
    assert [str(d) for d in report.diagnostics] == []
