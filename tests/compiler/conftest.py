"""Fixtures of the front-end tests: flatten Modelica text written to a temporary Test.mo."""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler import api
from compiler.flat_text import equation_lines, variable_line

MODELS_DIR = Path(__file__).parent / "models"


class Flattener:
    """``flatten(text, model=None, libs=())`` -> FlatModel, plus printing helpers."""

    def __init__(self, directory: Path):
        self.directory = directory
        self.path = directory / "Test.mo"

    def __call__(self, text: str, model: str | None = None, libs=()):
        self.path.write_text(text)
        return api.flatten_model(self.path, model, libs=libs, environ={})

    @staticmethod
    def equations(items) -> list[str]:
        """One string per flat equation or statement (nested lines joined by spaces)."""
        return [" ".join(line.strip() for line in equation_lines(item, 0)) for item in items]

    @staticmethod
    def variables(flat_model) -> list[str]:
        return [variable_line(var) for var in flat_model.variables]


@pytest.fixture
def flatten(tmp_path) -> Flattener:
    return Flattener(tmp_path)


@pytest.fixture
def models_dir() -> Path:
    return MODELS_DIR
