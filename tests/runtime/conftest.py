"""Fixture FMUs, built once per test session (and per xdist worker)."""
from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from tests.runtime.fixtures import build


class FixtureFmus:
    """Builds fixture FMUs on first use: `fmus["VanDerPol"]` is the path of VanDerPol.fmu."""

    def __init__(self, directory: Path):
        self.directory = directory
        self.paths: dict[str, Path] = {}

    def __getitem__(self, name: str) -> Path:
        if name not in self.paths:
            self.paths[name] = build(name, self.directory)
        return self.paths[name]

    def extracted(self, name: str) -> Path:
        """The FMU unpacked (for loading its binary with ctypes)."""
        target = self.directory / f"{name}.extracted"
        if not target.exists():
            with zipfile.ZipFile(self[name]) as archive:
                archive.extractall(target)
        return target


@pytest.fixture(scope="session")
def fmus(tmp_path_factory) -> FixtureFmus:
    return FixtureFmus(tmp_path_factory.mktemp("fmus"))
