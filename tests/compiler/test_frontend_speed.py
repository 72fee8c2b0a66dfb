"""Fast paths of flattening large array models (issue 19): subscripts that are literals or
for-indices are read without translation (names._known_integer), other parameter
subscripts are evaluated once per value of the for-indices they read
(flatten.subscript_values). The references they choose are checked against the
subscripts computed here in Python, across instances, shadowed built-ins and subscripts
that vary."""
from __future__ import annotations

import re
from pathlib import Path

from compiler.api import flatten_model

MODELS = Path(__file__).parent / "msl_models" / "FrontendSpeed.mo"


def equations(model: str) -> dict[str, str]:
    """Left-hand side -> right-hand side of the flat model's equations."""
    text = flatten_model(MODELS, f"FrontendSpeed.{model}", environ={}).to_modelica()
    found = {}
    for line in text.split("equation", 1)[1].splitlines():
        match = re.fullmatch(r"\s*(\S+) = (.*);", line)
        if match:
            found[match.group(1)] = match.group(2)
    return found


def test_builtin_calls_end_and_arithmetic_in_subscripts():
    n, sizes_z = 7, 3
    found = equations("Neighbours")
    for i in range(1, n + 1):
        for j in (1, 2):
            expected = (f"y[{min(i + j, n)}] + y[{max(i - j, 1)}] + z[{i % 3 + 1}] + "
                        f"z[{sizes_z - (i + j) // 4}] + y[{abs(-i)}]")
            assert found[f"x[{i},{j}]"] == expected


def test_the_same_subscript_in_instances_of_different_sizes():
    found = equations("TwoSizes")
    for prefix, size in (("a", 3), ("b", 5)):
        for i in range(1, size + 1):
            assert found[f"{prefix}.w[{i}]"] == f"{prefix}.v[{min(i + 1, size)}]"


def test_a_function_shadowing_a_builtin_is_called():
    found = equations("Shadowed")
    assert [found[f"x[{i}]"] for i in range(1, 5)] == ["y[1]"] * 4


def test_a_varying_subscript_is_chosen_while_simulating():
    found = equations("Varying")
    for i in (1, 2):
        assert found[f"x[{i}]"] == (
            f"if noEvent(min(k, {i} + 1) == 1) then y[1] else if noEvent(min(k, {i} + 1) == 2) "
            "then y[2] else y[3]")
