"""Property tests: the parser raises nothing but ParseError, whatever the input."""
from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler.lang import ParseError, parse, unparse

MODELS = Path(__file__).parent / "models"
SEEDS = [path.read_text() for path in sorted(MODELS.glob("*.mo"))]
PIECES = ["model ", "end ", ";", "(", ")", "[", "]", "{", "}", ",", "=", ":=", ":", ".", "..",
          "'", '"', "\\", "/*", "*/", "//", "\n", " ", "1e", "1.5", "-", "^", "if ", "then ",
          "else ", "for ", "loop ", "when ", "connect(", "der(", "annotation(", "extends ",
          "redeclare ", "each ", "final ", "within ", "import ", ".*", "end for;", "end if;",
          "x", "\t", "\u00e9", "\x00", "0x1F", "elsewhen ", "algorithm ", "equation "]


@st.composite
def mutated_models(draw):
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 6))):
        position = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["delete", "insert", "duplicate", "truncate"]))
        if action == "delete":
            text = text[:position] + text[position + draw(st.integers(1, 40)):]
        elif action == "insert":
            piece = draw(st.one_of(st.sampled_from(PIECES), st.text(max_size=4)))
            text = text[:position] + piece + text[position:]
        elif action == "duplicate":
            end = position + draw(st.integers(1, 80))
            text = text[:end] + text[position:end] + text[end:]
        else:
            text = text[:position]
    return text


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_models())
def test_mutated_models_raise_only_parse_errors(text):
    try:
        tree = parse(text, "Fuzz.mo")
    except ParseError as error:
        assert error.span is not None and error.span.file == "Fuzz.mo"
        assert error.span.line >= 1 and error.span.col >= 1
        assert "\n" not in error.message
        return
    assert parse(unparse(tree), "Again.mo") == tree


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(PIECES + list("abc019_+*<>")), max_size=40).map("".join))
def test_token_soup_raises_only_parse_errors(text):
    try:
        tree = parse(text, "Soup.mo")
    except ParseError:
        return
    assert parse(unparse(tree), "Again.mo") == tree
