"""A nested class modified in an extends clause and inherited on several levels reads its
modifier where the clause is written; a scalar times an empty array is that empty array
(msl_models/InheritedModified.mo; both broke Modelica.Media when two fixes met)."""
from __future__ import annotations

import math
from pathlib import Path

from compiler.api import flatten_model
from compiler.causalize import causalize
from compiler.interp import simulate_reference

MODELS = Path(__file__).parent / "msl_models" / "InheritedModified.mo"


def test_the_modifier_of_a_nested_class_is_read_where_its_extends_is_written():
    system = causalize(flatten_model(MODELS, "InheritedModified.UsesAgain", environ={}))
    result = simulate_reference(system, stop=1.0, interval=0.5)
    assert result["x"][0] == 300.0
    assert math.isclose(result["x"][-1], 300.0 * math.exp(-1.0), rel_tol=1e-5)
