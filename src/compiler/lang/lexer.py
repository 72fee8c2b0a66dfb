"""Modelica lexer: source text -> parallel token lists.

One compiled master regular expression (``findall``, so the scanning loop runs in C); token
kinds come from a table over the distinct token texts and positions from numpy over the token
lengths. Keywords and operators are their own kind (the text), everything else ``IDENT``,
``INT``, ``REAL`` or ``STRING``. The last token is always ``EOF``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import chain

import numpy as np

from compiler.errors import Span
from compiler.lang.errors import ParseError

KEYWORDS = frozenset("""
algorithm and annotation block break class connect connector constant constrainedby der
discrete each else elseif elsewhen encapsulated end enumeration equation expandable extends
external false final flow for function if import impure in initial inner input loop model not
operator or outer output package parameter partial protected public pure record redeclare
replaceable return stream then true type when while within
""".split())

# One match per token: (skipped white space and comments, token). The token alternatives are
# tried in order; the last ones catch what starts no valid token so that nothing is skipped.
_MASTER = re.compile(r"""
  ((?:[ \t\r\n\f\v]++|//[^\n]*+|/\*.*?\*/)*+)
  ( [A-Za-z_][A-Za-z0-9_]*+
  | '(?:[^'\\\n]|\\.)*+'
  | [0-9]++(?:\.[0-9]*+)?+(?:[eE][+-]?[0-9]++)?+
  | "(?:[^"\\]|\\.)*+"
  | /\*
  | \.[-+*/^]|<=|>=|==|<>|:=|[-+*/^<>=(),;:.\[\]{}]
  | . )
""", re.VERBOSE | re.DOTALL)

_OPERATORS = frozenset(".+ .- .* ./ .^ <= >= == <> := + - * / ^ < > = ( ) , ; : . [ ] { }".split())
_BAD_MESSAGES = {"/*": "unterminated comment", '"': "unterminated string",
                 "'": "unterminated quoted identifier"}


@dataclass(frozen=True, slots=True)
class Tokens:
    """Tokens as parallel lists (index i describes token i); fast to index from the parser.

    Lines and columns are 1-based; ``end_cols`` is the column of a token's last character.
    """

    file: str
    kinds: list
    texts: list
    lines: list
    cols: list
    end_lines: list
    end_cols: list


def _kind(text: str) -> str:
    first = text[0]
    if first.isalpha() or first == "_":
        return text if text in KEYWORDS else "IDENT"
    if first.isdigit():
        return "REAL" if ("." in text or "e" in text or "E" in text) else "INT"
    if first == "'" and len(text) > 1 and text.endswith("'"):
        return "IDENT"
    if first == '"' and len(text) > 1:
        return "STRING"
    if text in _OPERATORS:
        return text
    return "BAD"


def tokenize(text: str, file: str = "<string>") -> Tokens:
    """Split Modelica source into tokens (the last one is ``EOF``).

    Raises
    ------
    ParseError
        On a character that starts no token, or an unterminated string or comment.
    """
    pairs = _MASTER.findall(text)
    pieces = list(chain.from_iterable(pairs))
    texts = pieces[1::2]
    kind_of = {value: _kind(value) for value in set(texts)}
    kinds = list(map(kind_of.__getitem__, texts))
    lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
    offsets = np.cumsum(lengths)
    ends = offsets[1::2]                      # one past each token's last character
    starts = ends - lengths[1::2]
    newlines = np.array([-1] + [m.start() for m in _NEWLINE.finditer(text)], dtype=np.int64)
    start_lines = np.searchsorted(newlines, starts, side="right")
    end_lines = np.searchsorted(newlines, ends - 1, side="right")
    start_cols = starts - newlines[start_lines - 1]
    end_cols = ends - 1 - newlines[end_lines - 1]
    eof_line = len(newlines)
    eof_col = len(text) - int(newlines[-1])
    # Several EOF tokens, so that the parser's fixed lookahead never runs off the end.
    pad = _EOF_PADDING
    tokens = Tokens(file, kinds + ["EOF"] * pad, texts + [""] * pad,
                    start_lines.tolist() + [eof_line] * pad, start_cols.tolist() + [eof_col] * pad,
                    end_lines.tolist() + [eof_line] * pad, end_cols.tolist() + [eof_col] * pad)
    if "BAD" in kind_of.values():
        index = kinds.index("BAD")
        bad = texts[index]
        message = _BAD_MESSAGES.get(bad, f"unexpected character {bad!r}")
        col = tokens.cols[index]
        raise ParseError(message, Span(file, tokens.lines[index], col, tokens.lines[index], col))
    return tokens


_NEWLINE = re.compile("\n")
_EOF_PADDING = 4
_ESCAPES = {"'": "'", '"': '"', "?": "?", "\\": "\\", "a": "\a", "b": "\b", "f": "\f",
            "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_ESCAPE_RE = re.compile(r"\\(.)", re.DOTALL)


def decode_string(token_text: str) -> str:
    """The value of a STRING token (quotes removed, escapes resolved; unknown escapes kept)."""
    body = token_text[1:-1]
    if "\\" not in body:
        return body
    return _ESCAPE_RE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(0)), body)


def encode_string(value: str) -> str:
    """A STRING token whose ``decode_string`` is ``value``."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
