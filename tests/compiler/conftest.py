"""Fixtures of the front-end tests: flatten Modelica text written to a temporary Test.mo."""
from __future__ import annotations

import getpass
import tempfile
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


# FMUs compiled by earlier sessions: the cache key covers the compiler's sources, the runtime
# and the C flags (fmu_cache.toolchain_digest), so an entry is never stale. The cache's own
# tests use folders of their own.
TEST_FMU_CACHE = Path(tempfile.gettempdir()) / f"cosim-test-fmus-{getpass.getuser()}"


class FmuBuilder:
    """``build(path, model)`` -> the FMU compiled once per test session (per xdist worker),
    through TEST_FMU_CACHE; ``reference(path, model, **options)``: the reference
    interpreter's result, also once per session."""

    def __init__(self, root: Path):
        self.cache = TEST_FMU_CACHE
        self.output = root / "fmus"
        self.output.mkdir()
        self.fmus: dict = {}
        self.results: dict = {}

    @property
    def environ(self) -> dict:
        return {"COSIM_CACHE_DIR": str(self.cache)}

    def build(self, path, model: str) -> Path:
        from compiler.compile import compile_fmu
        key = (str(path), model)
        if key not in self.fmus:
            self.fmus[key] = compile_fmu(path, model, output=self.output / f"{model}.fmu",
                                         environ=self.environ)
        return self.fmus[key]

    def reference(self, path, model: str, **options):
        from compiler import causalize_api
        key = (str(path), model, tuple(sorted(options.items())))
        if key not in self.results:
            self.results[key] = causalize_api.simulate_model(path, model, environ={}, **options)
        return self.results[key]


@pytest.fixture(scope="session")
def fmus(tmp_path_factory) -> FmuBuilder:
    return FmuBuilder(tmp_path_factory.mktemp("codegen"))
