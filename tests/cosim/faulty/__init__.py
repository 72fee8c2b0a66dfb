"""Faulty third-party FMUs for the master's tests, built from the small C sources here.

``build(name, directory)`` compiles ``FAULTY[name]`` with gcc and zips it with a model
description whose generationTool is not ours, so the master isolates it by default.
Variables: ``u`` (input), ``y = u + t`` (output), ``t_fail`` (parameter, default 1).
"""
from __future__ import annotations

from pathlib import Path

from thirdparty import zip_fmu

HERE = Path(__file__).parent
GENERATION_TOOL = "hand-written faulty FMU"

# name -> (FMI major version, the fault's -D flag or "" for a healthy FMU)
FAULTY = {
    "ErrorAfter1": (3, "FAULT_ERROR"), "FatalAfter1": (3, "FAULT_FATAL"),
    "NanAfter1": (3, "FAULT_NAN"), "NullDeref": (3, "FAULT_SEGFAULT"),
    "AbortAfter1": (3, "FAULT_ABORT"), "Hang": (3, "FAULT_HANG"), "Exit3": (3, "FAULT_EXIT"),
    "Healthy": (3, ""), "Error2After1": (2, "FAULT_ERROR"), "NullDeref2": (2, "FAULT_SEGFAULT"),
    "Terminate2": (2, "FAULT_TERMINATE"),
}

VARIABLES_3 = """
    <Float64 name="time" valueReference="0" causality="independent" variability="continuous"/>
    <Float64 name="u" valueReference="1" causality="input" variability="continuous" start="0"/>
    <Float64 name="y" valueReference="2" causality="output" variability="continuous"/>
    <Float64 name="t_fail" valueReference="3" causality="parameter" variability="fixed" start="1"/>
  </ModelVariables>
  <ModelStructure><Output valueReference="2" dependencies="1"/></ModelStructure>"""

VARIABLES_2 = """
    <ScalarVariable name="u" valueReference="0" causality="input" variability="continuous">
      <Real start="0"/></ScalarVariable>
    <ScalarVariable name="y" valueReference="1" causality="output" variability="continuous"
      initial="calculated"><Real/></ScalarVariable>
    <ScalarVariable name="t_fail" valueReference="2" causality="parameter" variability="fixed">
      <Real start="1"/></ScalarVariable>
  </ModelVariables>
  <ModelStructure><Outputs><Unknown index="2" dependencies="1"/></Outputs></ModelStructure>"""


def model_description(name: str, major: int) -> str:
    if major == 3:
        head = (f'<fmiModelDescription fmiVersion="3.0" modelName="{name}" '
                f'instantiationToken="{{{name}}}" generationTool="{GENERATION_TOOL}">\n'
                f'  <CoSimulation modelIdentifier="{name}"/>\n'
                f'  <DefaultExperiment startTime="0" stopTime="2" stepSize="0.1"/>\n')
        variables = VARIABLES_3
    else:
        head = (f'<fmiModelDescription fmiVersion="2.0" modelName="{name}" guid="{{{name}}}" '
                f'generationTool="{GENERATION_TOOL}">\n'
                f'  <CoSimulation modelIdentifier="{name}"/>\n'
                f'  <DefaultExperiment startTime="0" stopTime="2" stepSize="0.1"/>\n')
        variables = VARIABLES_2
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n{head}  <ModelVariables>{variables}\n'
            f'</fmiModelDescription>\n')


def build(name: str, directory: str | Path) -> Path:
    """Compile and zip FMU ``name`` as ``<directory>/<name>.fmu``; returns the path."""
    major, fault = FAULTY[name]
    return zip_fmu(name, major, HERE / f"faulty{major}.c", model_description(name, major),
                   Path(directory), [fault] if fault else [])
