"""Helpers for the SSP tests: SSD text templates, zip builders, fake FMUs, shared material."""
from __future__ import annotations

import io
import os
import textwrap
import zipfile
from pathlib import Path

import pytest

from tests.conftest import find

# the SSP corpus as tests/conftest.py finds it; a folder that does not exist when it is absent
CORPUS = find("ssp-corpus") or Path("ssp-corpus-not-found")

NAMESPACES = (
    'xmlns:ssd="http://ssp-standard.org/SSP1/SystemStructureDescription" '
    'xmlns:ssc="http://ssp-standard.org/SSP1/SystemStructureCommon" '
    'xmlns:ssv="http://ssp-standard.org/SSP1/SystemStructureParameterValues" '
    'xmlns:ssm="http://ssp-standard.org/SSP1/SystemStructureParameterMapping" '
    'xmlns:ssb="http://ssp-standard.org/SSP1/SystemStructureSignalDictionary" '
    'xmlns:osp="http://opensimulationplatform.com/SSP/OSPAnnotations" '
    'xmlns:oms="https://raw.githubusercontent.com/OpenModelica/OMSimulator/master/schema/oms.xsd"'
)


def ssd(system: str, version: str = "1.0", after: str = "", name: str = "test") -> str:
    """An SSD document around ``system`` (the ``ssd:System`` element text); line 1 is the
    XML declaration and ``system`` starts on line 3."""
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<ssd:SystemStructureDescription {NAMESPACES} name="{name}" version="{version}">\n'
            f'{textwrap.dedent(system).strip()}\n{textwrap.dedent(after).strip()}\n'
            f'</ssd:SystemStructureDescription>\n')


def ssv(parameters: str, version: str = "1.0", name: str = "values") -> str:
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<ssv:ParameterSet {NAMESPACES} version="{version}" name="{name}">\n'
            f'<ssv:Parameters>\n{textwrap.dedent(parameters).strip()}\n</ssv:Parameters>\n'
            f'</ssv:ParameterSet>\n')


def ssm(entries: str, version: str = "1.0") -> str:
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<ssm:ParameterMapping {NAMESPACES} version="{version}">\n'
            f'{textwrap.dedent(entries).strip()}\n</ssm:ParameterMapping>\n')


def write_files(folder: Path, files: dict[str, str | bytes]) -> Path:
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode() if isinstance(content, str) else content)
    return folder


def zip_bytes(files: dict[str, str | bytes], compression=zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def model_description(variables: dict[str, tuple[str, str]], fmi: str = "2.0") -> str:
    """A minimal modelDescription.xml; ``variables`` maps name -> (causality, type)."""
    rows = [] if fmi == "2.0" else [
        '<Float64 name="time" valueReference="999" causality="independent" variability="continuous"/>']
    for reference, (name, (causality, type_name)) in enumerate(variables.items()):
        fixed = ' variability="fixed"' if causality == "parameter" else ""
        start = ' start="0"' if causality in ("parameter", "input") else ""
        head = f'name="{name}" valueReference="{reference}" causality="{causality}"{fixed}'
        if fmi == "2.0":
            rows.append(f"<ScalarVariable {head}><{type_name}{start}/></ScalarVariable>")
        else:
            rows.append(f"<{type_name} {head}{start}/>")
    identity = ('guid="{00000000-0000-0000-0000-000000000000}"' if fmi == "2.0"
                else 'instantiationToken="t"')
    return (f'<?xml version="1.0"?><fmiModelDescription fmiVersion="{fmi}" modelName="m" '
            f'{identity}><CoSimulation modelIdentifier="m"/><ModelVariables>{"".join(rows)}'
            f'</ModelVariables><ModelStructure/></fmiModelDescription>')


def fake_fmu(variables: dict[str, tuple[str, str]], fmi: str = "2.0") -> bytes:
    """An FMU archive holding only a model description (enough for interface checks)."""
    return zip_bytes({"modelDescription.xml": model_description(variables, fmi)})


# --- FMUs for the master's tests, built once per session (and per xdist worker) -------------

PYTHON_FMUS = {
    # pythonfmu3: FMI 3.0 Co-Simulation, y = k u (computed when read)
    "PyGain3": ("pythonfmu3", '''
from pythonfmu3 import Fmi3Causality, Fmi3Variability, Fmi3Slave, Float64


class PyGain3(Fmi3Slave):
    """y = k u"""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.k = 2.0
        self.u = 0.0
        self.register_variable(Float64("time", causality=Fmi3Causality.independent,
                                       variability=Fmi3Variability.continuous))
        self.register_variable(Float64("k", causality=Fmi3Causality.parameter,
                                       variability=Fmi3Variability.tunable))
        self.register_variable(Float64("u", causality=Fmi3Causality.input))
        self.register_variable(Float64("y", causality=Fmi3Causality.output,
                                       getter=lambda: self.k * self.u))

    def do_step(self, current_time, step_size):
        return True
'''),
    # pythonfmu: FMI 2.0 Co-Simulation, y = k u (computed in doStep)
    "PyGain2": ("pythonfmu", '''
from pythonfmu import Fmi2Causality, Fmi2Variability, Fmi2Slave, Real


class PyGain2(Fmi2Slave):
    """y = k u"""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.k = 2.0
        self.u = 0.0
        self.y = 0.0
        self.register_variable(Real("k", causality=Fmi2Causality.parameter,
                                    variability=Fmi2Variability.tunable))
        self.register_variable(Real("u", causality=Fmi2Causality.input))
        self.register_variable(Real("y", causality=Fmi2Causality.output))

    def do_step(self, current_time, step_size):
        self.y = self.k * self.u
        return True
'''),
}


class MasterFmus:
    """``built["Gain"]`` is the path of Gain.fmu: example models, runtime fixtures, faulty and
    other hand-written third-party FMUs (``faulty/``, ``thirdparty/``) and pythonfmu/pythonfmu3
    FMUs, each built on first use."""

    def __init__(self, directory: Path):
        self.directory = directory
        self.paths: dict[str, Path] = {}

    def __getitem__(self, name: str) -> Path:
        if name not in self.paths:
            self.paths[name] = self._build(name)
        return self.paths[name]

    def _build(self, name: str) -> Path:
        import subprocess
        import sys

        import faulty
        import thirdparty
        from ssp_examples import models
        from tests.runtime import fixtures

        if name in faulty.FAULTY:
            return faulty.build(name, self.directory)
        if name in thirdparty.FMUS:
            return thirdparty.build(name, self.directory)
        if name in models.MODELS:
            return models.build(name, self.directory)
        if name in fixtures.FIXTURES:
            return fixtures.build(name, self.directory)
        tool, script = PYTHON_FMUS[name]
        source = self.directory / f"{name}.py"
        source.write_text(script)
        subprocess.run([sys.executable, "-m", tool, "build", "-f", str(source), "-d",
                        str(self.directory)], check=True, capture_output=True)
        return self.directory / f"{name}.fmu"


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> MasterFmus:
    return MasterFmus(tmp_path_factory.mktemp("master-fmus"))
