"""Every ssp_examples/ Modelica model and 29 compiler test models written a second time in
Python (tests/build/pairs): each pair flattens to an equal FlatModel, and the Python-built AST
unparses to Modelica that parses back to the same AST."""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.api import flatten_model, parse_file
from compiler.lang import parse
from compiler.lang.unparse import unparse
from cosim.build import flatten_class, stored_definition
from tests.build.pairs import python_class

ROOT = Path(__file__).resolve().parents[2]
MODELS = "tests/compiler/models/"
CAUSALIZE = "tests/compiler/causalize_models/"
CODEGEN = "tests/compiler/codegen_models/"

# (Python module in tests/build/pairs, class, Modelica file, class there or None: the last)
COMPILER_PAIRS = [
    ("electrical", "RCCircuit", MODELS + "Electrical.mo", "Electrical.RCCircuit"),
    ("mechanics", "MassSpringDamper", MODELS + "Mechanics.mo", "Mechanics.MassSpringDamper"),
    ("mechanics", "Chain", MODELS + "Mechanics.mo", "Mechanics.Chain"),
    ("small_models", "BouncingBall", MODELS + "BouncingBall.mo", None),
    ("small_models", "Pendulum", MODELS + "Pendulum.mo", None),
    ("small_models", "SampledCounter", MODELS + "SampledCounter.mo", None),
    ("small_models", "Thermostat", MODELS + "Thermostat.mo", None),
    ("algorithms", "Algorithms", CAUSALIZE + "Algorithms.mo", None),
    ("algorithms", "Steps", CAUSALIZE + "Steps.mo", None),
    ("analog", "RC", CAUSALIZE + "Analog.mo", "Analog.RC"),
    ("analog", "DiodeCharger", CAUSALIZE + "Analog.mo", "Analog.DiodeCharger"),
    ("analog", "ParallelCapacitors", CAUSALIZE + "Analog.mo", "Analog.ParallelCapacitors"),
    ("events", "BouncingBall", CAUSALIZE + "Events.mo", "Events.BouncingBall"),
    ("events", "Thermostat", CAUSALIZE + "Events.mo", "Events.Thermostat"),
    ("events", "SampledCounter", CAUSALIZE + "Events.mo", "Events.SampledCounter"),
    ("cartesian_pendulum", "Pendulum", CAUSALIZE + "Pendulum.mo", None),
    ("translational", "Oscillator", CAUSALIZE + "Translational.mo", "Translational.Oscillator"),
    ("translational", "Chain", CAUSALIZE + "Translational.mo", "Translational.Chain"),
    ("codegen_events", "Counters", CODEGEN + "Events.mo", "Events.Counters"),
    ("codegen_events", "CallsInEvents", CODEGEN + "Events.mo", "Events.CallsInEvents"),
    ("heat", "Rod", CODEGEN + "Heat.mo", "Heat.Rod"),
    ("heat", "ShortRod", CODEGEN + "Heat.mo", "Heat.ShortRod"),
    ("interface", "Decay", CODEGEN + "Interface.mo", "Interface.Decay"),
    ("interface", "Guarded", CODEGEN + "Interface.mo", "Interface.Guarded"),
    ("interface", "Stops", CODEGEN + "Interface.mo", "Interface.Stops"),
]
# every Modelica model of ssp_examples/: (module, class, folder); the file is <class>.mo
EXAMPLE_PAIRS = [
    ("ssp_quarter_car", "Road", "quarter_car"), ("ssp_quarter_car", "Wheel", "quarter_car"),
    ("ssp_quarter_car", "Chassis", "quarter_car"), ("ssp_dc_motor", "Controller", "dc_motor"),
    ("ssp_dc_motor", "DCMotor", "dc_motor"), ("ssp_drivetrain", "Driveline", "drivetrain"),
    ("ssp_drivetrain", "Engine", "drivetrain"), ("ssp_drivetrain", "Vehicle", "drivetrain"),
    ("ssp_others", "Jacket", "reactor"), ("ssp_others", "Reactor", "reactor"),
    ("ssp_others", "Room", "room_thermal"), ("ssp_others", "Thermostat", "room_thermal"),
    ("ssp_others", "Weather", "room_thermal"), ("ssp_others", "SpringMass", "spring_chain"),
    ("ssp_others", "Tank", "mixed_thirdparty"),
]


def _id(case) -> str:
    return f"{case[0]}.{case[1]}"


@pytest.mark.parametrize("case", COMPILER_PAIRS, ids=_id)
def test_compiler_model_pair_flattens_to_the_same_flat_model(case):
    module, name, path, model = case
    assert flatten_class(python_class(module, name)) == flatten_model(ROOT / path, model)


@pytest.mark.parametrize("case", EXAMPLE_PAIRS, ids=_id)
def test_example_model_pair_flattens_to_the_same_flat_model_and_ast(case):
    module, name, folder = case
    path = ROOT / "ssp_examples" / folder / f"{name}.mo"
    cls = python_class(module, name)
    assert flatten_class(cls) == flatten_model(path)
    # a top-level class without class references: even the class ASTs are the same
    assert stored_definition(cls).classes[0] == parse_file(path).classes[0]


@pytest.mark.parametrize("case", COMPILER_PAIRS + EXAMPLE_PAIRS, ids=_id)
def test_unparse_of_the_python_ast_parses_back_to_it(case):
    stored = stored_definition(python_class(case[0], case[1]))
    assert parse(unparse(stored), "unparsed.mo") == stored


def test_every_example_model_has_a_python_twin():
    modelica = {(path.parent.name, path.stem)
                for path in (ROOT / "ssp_examples").glob("*/*.mo")}
    assert modelica == {(folder, name) for _, name, folder in EXAMPLE_PAIRS}


def test_the_comparison_sees_a_difference():
    # the equality above is not vacuous: two different circuits differ, and so does a
    # Python model with one modifier changed
    assert flatten_class(python_class("electrical", "RCCircuit")) != \
        flatten_model(ROOT / CAUSALIZE / "Analog.mo", "Analog.RC")
    heat = python_class("heat", "Rod")
    assert flatten_class(python_class("heat", "ShortRod")) != flatten_class(heat)


def test_pairs_cover_connectors_arrays_events_and_inheritance():
    texts = {case[:2]: str(flatten_model(ROOT / case[2], case[3])) for case in COMPILER_PAIRS}
    assert len(COMPILER_PAIRS) >= 12
    assert any("when" in text for text in texts.values())
    assert any("mass[4]" in text for text in texts.values())
    assert any(".i + " in text for text in texts.values())  # flows summed by connections
    assert any(python_class(m, n).__mro__[1].__name__ not in ("Model", "Block")
               for m, n in texts)
