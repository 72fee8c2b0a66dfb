"""Fixtures for every test folder, and the one place tests find material from outside the
repository.

Each piece of outside material has an environment variable; the SSP files default to
``../shared`` beside the repository when it exists. A test that needs a piece calls
``need(NAME)`` (or uses its fixture), which returns the path or skips the test with a reason
saying what to provide. ``COSIM_REQUIRE=ssp-schema,ssp-corpus`` (``.ci/run`` sets it) turns
those skips into failures, so CI cannot pass by skipping.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

_SHARED = Path(__file__).resolve().parents[2] / "shared"

# generated C must compile without a gcc warning in the tests (a user's compile only logs one;
# compiler.compile.STRICT_VARIABLE); subprocesses of the tests inherit it
os.environ["COSIM_STRICT_GCC"] = "1"


@dataclass(frozen=True)
class Material:
    """A piece of outside material: where it is looked for and how to tell it is there."""

    variable: str
    default: Path | None
    marker: str            # a file inside the folder that shows it is the right one
    what: str

    def path(self) -> Path | None:
        """The folder, or None when it is not on this machine."""
        candidates = []
        value = os.environ.get(self.variable)
        if value:
            candidates = [Path(item) for item in value.split(os.pathsep) if item]
        elif self.default is not None:
            candidates = [self.default]
        for candidate in candidates:
            if (candidate / self.marker).exists():
                return candidate
        return None


MATERIAL = {
    "ssp-schema": Material("COSIM_SSP_SCHEMA", _SHARED / "ssp-schema" / "2.0.1",
                           "SystemStructureDescription.xsd", "the SSP 2.0.1 XSDs"),
    "ssp-corpus": Material("COSIM_SSP_CORPUS", _SHARED / "ssp-corpus", ".",
                           "the SSP corpus (SSD/SSV/SSM files of other projects)"),
    # MODELICAPATH: a folder holding Modelica/package.mo (the MSL 4.1.0 tree)
    "msl": Material("MODELICAPATH", None, "Modelica/package.mo",
                    "the Modelica Standard Library 4.1.0"),
    "msl-references": Material("COSIM_MSL_REFERENCES", None, "Modelica",
                               "the MAP-LIB reference results of MSL 4.1.0"),
    # a source tree of github:modelica/Reference-FMUs (v0.0.41); the tests build it (cmake)
    "reference-fmus": Material("COSIM_REFERENCE_FMUS", None, "BouncingBall/FMI3.xml",
                               "the source tree of the Modelica Reference FMUs (v0.0.41)"),
    "compliance": Material("COSIM_COMPLIANCE", None, "ModelicaCompliance/package.mo",
                           "the Modelica-Compliance suite"),
}


def required() -> set[str]:
    """Material whose absence fails a test instead of skipping it (``COSIM_REQUIRE``)."""
    return {item.strip() for item in os.environ.get("COSIM_REQUIRE", "").split(",")
            if item.strip()}


def missing_reason(name: str) -> str:
    material = MATERIAL[name]
    default = f" ({material.default} is used when present)" if material.default else ""
    return (f"{material.what} not found: set {material.variable} to the folder holding "
            f"{material.marker if material.marker != '.' else 'them'}{default}")


def find(name: str) -> Path | None:
    """The material's folder, or None (no skip: for module-level parametrization)."""
    return MATERIAL[name].path()


def need(name: str) -> Path:
    """The material's folder; skips the test (fails it under ``COSIM_REQUIRE``) without it."""
    path = find(name)
    if path is None:
        if name in required():
            pytest.fail(missing_reason(name) + f" (COSIM_REQUIRE asks for {name})")
        pytest.skip(missing_reason(name))
    return path


def params_or_missing(name: str, items: list) -> list:
    """``items`` for a parametrization over files of a piece of material; without the
    material, one ``None`` case whose test must start with ``need(name)`` (so it is skipped,
    or failed under ``COSIM_REQUIRE``, instead of collecting nothing)."""
    return items if items else [pytest.param(None, id=f"{name}-missing")]


@pytest.fixture
def schema_2() -> Path:
    """The folder of the SSP 2.0.1 XSDs."""
    return need("ssp-schema")


@pytest.fixture
def ssp_corpus() -> Path:
    return need("ssp-corpus")


@pytest.fixture(scope="module")
def module_fmu_cache(tmp_path_factory):
    """Compiled FMUs are cached for the module only (not in the user's cache): a module
    enables it with ``pytestmark = pytest.mark.usefixtures("module_fmu_cache")``."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COSIM_CACHE_DIR", str(tmp_path_factory.mktemp("fmu-cache")))
        yield
