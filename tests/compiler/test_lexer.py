"""The Modelica lexer: token kinds, texts, positions and string escapes."""
from __future__ import annotations

import pytest

from compiler.lang import ParseError
from compiler.lang.lexer import decode_string, encode_string, tokenize


def _tokens(text: str) -> list[tuple]:
    tokens = tokenize(text, "T.mo")
    count = tokens.kinds.index("EOF")
    return [(tokens.kinds[i], tokens.texts[i], tokens.lines[i], tokens.cols[i])
            for i in range(count)]


def test_kinds_texts_and_positions():
    assert _tokens("model M // comment\n  Real 'a b'=1.5e-3; /* block\n comment */ x.*y<>z") == [
        ("model", "model", 1, 1), ("IDENT", "M", 1, 7), ("IDENT", "Real", 2, 3),
        ("IDENT", "'a b'", 2, 8), ("=", "=", 2, 13), ("REAL", "1.5e-3", 2, 14),
        (";", ";", 2, 20), ("IDENT", "x", 3, 13), (".*", ".*", 3, 14), ("IDENT", "y", 3, 16),
        ("<>", "<>", 3, 17), ("IDENT", "z", 3, 19)]


def test_numbers():
    assert [kind for kind, *_ in _tokens("1 1. 1.5 1e3 1.E-2 007")] == [
        "INT", "REAL", "REAL", "REAL", "REAL", "INT"]


def test_strings_span_lines_and_keep_escapes():
    tokens = tokenize('x = "a\\"b\nc";\ny', "T.mo")
    assert tokens.texts[2] == '"a\\"b\nc"'
    assert (tokens.lines[2], tokens.end_lines[2]) == (1, 2)
    assert (tokens.lines[4], tokens.cols[4]) == (3, 1)
    assert decode_string(tokens.texts[2]) == 'a"b\nc'


@pytest.mark.parametrize("value", ["plain", 'with "quotes"', "back\\slash", "new\nline", ""])
def test_string_encoding_round_trip(value):
    assert decode_string(encode_string(value)) == value


def test_end_of_file_token_sits_after_the_text():
    tokens = tokenize("a\nbc", "T.mo")
    eof = tokens.kinds.index("EOF")
    assert (tokens.lines[eof], tokens.cols[eof]) == (2, 3)


@pytest.mark.parametrize("text, message, place", [
    ("x = `", "unexpected character '`'", (1, 5)),
    ('x = "open', "unterminated string", (1, 5)),
    ("x /* open", "unterminated comment", (1, 3)),
    ("x = 'open", "unterminated quoted identifier", (1, 5)),
])
def test_bad_characters(text, message, place):
    with pytest.raises(ParseError) as caught:
        tokenize(text, "T.mo")
    assert caught.value.message == message
    assert (caught.value.span.line, caught.value.span.col) == place
