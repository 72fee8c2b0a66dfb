"""Property test: flattening mutated models gives a flat model or a located CompilerError."""
from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler import api
from compiler.errors import CompilerError

HERE = Path(__file__).parent
_SOURCE = re.compile(r'"""\n((?:model|block|package|function|connector|record|type|partial)\b'
                     r'.*?)"""', re.DOTALL)
SEEDS = [text for module in sorted(HERE.glob("test_flatten_*.py"))
         for text in _SOURCE.findall(module.read_text())]
SEEDS += [path.read_text() for path in sorted((HERE / "models").glob("*.mo"))
          if path.name != "Syntax.mo"]
REPLACEMENTS = ["0", "3", "-1", "n", "2.5", "{1, 2}", "true", "x[2]", "time", "der(x)",
                "size(x, 1)", '"text"', "k"]


@st.composite
def mutated_models(draw):
    lines = draw(st.sampled_from(SEEDS)).split("\n")
    words = sorted(set(re.findall(r"[A-Za-z_]\w*", "\n".join(lines)))) or ["x"]
    for _ in range(draw(st.integers(1, 3))):
        k = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["delete", "duplicate", "rename", "renumber"]))
        if action == "delete" and len(lines) > 3:
            del lines[k]
        elif action == "duplicate":
            lines.insert(k, lines[draw(st.integers(0, len(lines) - 1))])
        elif action == "rename":
            names = re.findall(r"[A-Za-z_]\w*", lines[k])
            if names:
                old, new = draw(st.sampled_from(names)), draw(st.sampled_from(words))
                lines[k] = re.sub(rf"\b{re.escape(old)}\b", new, lines[k], count=1)
        else:
            lines[k] = re.sub(r"\b\d+(\.\d+)?\b", draw(st.sampled_from(REPLACEMENTS)), lines[k],
                              count=1)
    return "\n".join(lines)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_models())
def test_mutated_models_flatten_or_fail_with_a_place(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("fuzz") / "Fuzz.mo"
    path.write_text(text)
    try:
        model = api.flatten_model(path, environ={})
    except CompilerError as error:
        assert error.span is not None, error.message
        assert "\n" not in error.message
        return
    assert str(model).startswith(("class ", "function ", "type "))
