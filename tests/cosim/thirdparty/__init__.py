"""Hand-written third-party FMUs (not built by cosim) for the import tests of issue 16.

``build(name, directory)`` compiles ``FMUS[name]`` with gcc and zips it with its model
description; ``zip_fmu`` is the one packager (faulty/ uses it too). The generationTool is not
ours, so the master isolates these FMUs by default.
"""
from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

import fmpy

HERE = Path(__file__).parent
HEADERS = Path(fmpy.__file__).parent / "c-code"
GENERATION_TOOL = "hand-written third-party FMU"

TYPED3 = """<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="3.0" modelName="Typed3" instantiationToken="{typed3}"
    generationTool="{tool}">
  <ModelExchange modelIdentifier="Typed3" canGetAndSetFMUState="true"/>
  <CoSimulation modelIdentifier="Typed3" canGetAndSetFMUState="true"
      canHandleVariableCommunicationStepSize="true"/>
  <DefaultExperiment startTime="0" stopTime="1" stepSize="0.1"/>
  <ModelVariables>
    <Float64 name="time" valueReference="0" causality="independent" variability="continuous"/>
    <UInt64 name="n" valueReference="1" causality="structuralParameter" variability="fixed"
        start="3" min="1" max="8"/>
    <Float64 name="k" valueReference="2" causality="parameter" variability="fixed" start="2"
        min="-10" max="10"/>
    <Int8 name="p8" valueReference="3" causality="parameter" variability="fixed" start="0"
        min="-100" max="100"/>
    <Float64 name="u" valueReference="4" causality="input" start="1 2 3">
      <Dimension valueReference="1"/></Float64>
    <Float64 name="y" valueReference="5" causality="output"><Dimension valueReference="1"/></Float64>
    <Float64 name="x" valueReference="6" causality="local" initial="exact" start="0">
      <Dimension valueReference="1"/></Float64>
    <Float64 name="der(x)" valueReference="7" causality="local" derivative="6">
      <Dimension valueReference="1"/></Float64>
    <Float64 name="M" valueReference="8" causality="output">
      <Dimension start="2"/><Dimension valueReference="1"/></Float64>
    <Int64 name="i64" valueReference="9" causality="input" start="0"/>
    <Int64 name="i64_out" valueReference="10" causality="output"/>
    <UInt64 name="u64" valueReference="11" causality="input" start="0"/>
    <UInt64 name="u64_out" valueReference="12" causality="output"/>
    <String name="s" valueReference="13" causality="input"><Start value="hello"/></String>
    <String name="s_out" valueReference="14" causality="output"/>
    <Binary name="b" valueReference="15" causality="input"><Start value="00ff"/></Binary>
    <Binary name="b_out" valueReference="16" causality="output"/>
    <Boolean name="flag" valueReference="17" causality="input" start="false"/>
    <Boolean name="flag_out" valueReference="18" causality="output"/>
    <Int8 name="p8_out" valueReference="19" causality="output"/>
    <UInt8 name="u8" valueReference="20" causality="parameter" variability="fixed" start="0"/>
    <UInt8 name="u8_out" valueReference="21" causality="output"/>
  </ModelVariables>
  <ModelStructure>
    <Output valueReference="5" dependencies="4"/>
    <Output valueReference="8" dependencies="4 6"/>
    <Output valueReference="10" dependencies="9"/>
    <Output valueReference="12" dependencies="11"/>
    <Output valueReference="14" dependencies="13"/>
    <Output valueReference="16" dependencies="15"/>
    <Output valueReference="18" dependencies="17"/>
    <Output valueReference="19" dependencies=""/>
    <Output valueReference="21" dependencies=""/>
    <ContinuousStateDerivative valueReference="7"/>
    <InitialUnknown valueReference="5"/>
    <InitialUnknown valueReference="7"/>
    <InitialUnknown valueReference="8"/>
    <InitialUnknown valueReference="10"/>
    <InitialUnknown valueReference="12"/>
    <InitialUnknown valueReference="14"/>
    <InitialUnknown valueReference="16"/>
    <InitialUnknown valueReference="18"/>
    <InitialUnknown valueReference="19"/>
    <InitialUnknown valueReference="21"/>
  </ModelStructure>
</fmiModelDescription>
"""

CLOCKS3 = """<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="3.0" modelName="Clocks3" instantiationToken="{clocks3}"
    generationTool="{tool}">
  {interfaces}
  <DefaultExperiment startTime="0" stopTime="2" stepSize="0.1"/>
  <ModelVariables>
    <Float64 name="time" valueReference="0" causality="independent" variability="continuous"/>
    <Clock name="tick" valueReference="1" causality="input" intervalVariability="constant"
        intervalDecimal="0.25" priority="0"/>
    <Clock name="trigger" valueReference="2" causality="input" intervalVariability="triggered"
        priority="1"/>
    <Clock name="countdown" valueReference="3" causality="input"
        intervalVariability="countdown" priority="2"/>
    <Int32 name="ticks" valueReference="10" causality="output" variability="discrete"
        clocks="1"/>
    <Int32 name="triggers" valueReference="11" causality="output" variability="discrete"
        clocks="2"/>
    <Int32 name="countdowns" valueReference="12" causality="output" variability="discrete"
        clocks="3"/>
    <Float64 name="countdown_time" valueReference="13" causality="output"
        variability="discrete" clocks="3"/>
  </ModelVariables>
  <ModelStructure>
    <Output valueReference="10"/>
    <Output valueReference="11"/>
    <Output valueReference="12"/>
    <Output valueReference="13"/>
  </ModelStructure>
</fmiModelDescription>
"""
ALL_INTERFACES = ('<ModelExchange modelIdentifier="Clocks3"/>'
                  '<CoSimulation modelIdentifier="Clocks3" hasEventMode="true" '
                  'canHandleVariableCommunicationStepSize="true"/>'
                  '<ScheduledExecution modelIdentifier="Clocks3"/>')

# name -> (FMI major version, C source, model description)
FMUS = {"Typed3": (3, "typed3.c", TYPED3),
        "Clocks3": (3, "clocks3.c", CLOCKS3.replace("{interfaces}", ALL_INTERFACES)),
        "ClocksSE3": (3, "clocks3.c", CLOCKS3.replace(
            "{interfaces}", '<ScheduledExecution modelIdentifier="Clocks3"/>'))}


def zip_fmu(name: str, major: int, source: Path, xml: str, directory: Path,
            defines=(), library_name: str | None = None) -> Path:
    """Compile ``source`` into ``binaries/<platform>/<name>.so``, add ``xml`` as the model
    description and zip both as ``<directory>/<name>.fmu``."""
    work = directory / f"{name}-build"
    platform = "x86_64-linux" if major == 3 else "linux64"
    binary = work / "binaries" / platform / f"{library_name or name}.so"
    binary.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["gcc", "-std=gnu99", "-O1", "-shared", "-fPIC", "-Wall", "-Werror",
                    *[f"-D{d}" for d in defines], "-I", str(HEADERS), "-I", str(HERE),
                    str(source), "-o", str(binary), "-lm"],
                   check=True, capture_output=True, text=True)
    (work / "modelDescription.xml").write_text(xml)
    target = directory / f"{name}.fmu"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(work.rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(work).as_posix())
    return target


def build(name: str, directory: str | Path) -> Path:
    major, source, xml = FMUS[name]
    identifier = xml.split('modelIdentifier="')[1].split('"')[0]
    return zip_fmu(name, major, HERE / source, xml.replace("{tool}", GENERATION_TOOL),
                   Path(directory), library_name=identifier)
