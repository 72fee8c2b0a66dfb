"""Modelica lexer: source text -> parallel token lists.

One compiled master regular expression whose matches tile the whole text (white space and
comments are matches too, so ``findall`` runs the scanning loop in C and lengths give
offsets); token kinds come from a table over the distinct texts, and lines and columns from
numpy over the offsets. Keywords and operators are their own kind (the text), everything else
``IDENT``, ``INT``, ``REAL`` or ``STRING``. The last tokens are ``EOF``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import compress

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

# Every match is a piece of the text: white space, a comment, a token, or (last) one character
# that starts no token, so that nothing is skipped and offsets add up. Strings and comments
# are written as unrolled loops ("normal* (special normal*)*"), which the regex engine runs
# much faster on long documentation strings than an alternation per character.
_MASTER = re.compile(r"""
    [ \t\r\n\f\v]+
  | [A-Za-z_][A-Za-z0-9_]*
  | [0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?
  | //[^\n]*
  | /\*[^*]*\*+(?:[^/*][^*]*\*+)*/
  | /\*
  | "[^"\\]*(?:\\.[^"\\]*)*"
  | '[^'\\\n]*(?:\\.[^'\\\n]*)*'
  | \.[-+*/^] | <= | >= | == | <> | :=
  | [-+*/^<>=(),;:.\[\]{}]
  | .
""", re.VERBOSE | re.DOTALL)

_OPERATORS = frozenset(".+ .- .* ./ .^ <= >= == <> := + - * / ^ < > = ( ) , ; : . [ ] { }".split())
_BAD_MESSAGES = {"/*": "unterminated comment", '"': "unterminated string",
                 "'": "unterminated quoted identifier"}
_SKIP = "SKIP"


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
    if first in " \t\r\n\f\v" or text.startswith("//") or (
            text.startswith("/*") and len(text) > 3 and text.endswith("*/")):
        return _SKIP
    if first == "'" and len(text) > 1:
        return "IDENT"
    if first == '"' and len(text) > 1:
        return "STRING"
    if text in _OPERATORS:
        return text
    return "BAD"


def tokenize(text: str, file: str = "<string>") -> Tokens:
    """Split Modelica source into tokens (the last ones are ``EOF``).

    Raises
    ------
    ParseError
        On a character that starts no token, or an unterminated string or comment.
    """
    pieces = _MASTER.findall(text)
    kind_of = {piece: _kind(piece) for piece in set(pieces)}
    all_kinds = list(map(kind_of.__getitem__, pieces))
    keep = [kind is not _SKIP for kind in all_kinds]
    kinds = list(compress(all_kinds, keep))
    texts = list(compress(pieces, keep))
    lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
    mask = np.fromiter(keep, dtype=bool, count=len(keep))
    ends = np.cumsum(lengths)[mask]           # one past each token's last character
    starts = ends - lengths[mask]
    is_newline = _codes(text) == 10
    # newlines_before[i]: newlines in text[:i]; last_newline[k]: offset of the k-th newline
    # (-1 for "before the first line"), so a column is an offset minus the newline before it.
    newlines_before = np.concatenate(([0], np.cumsum(is_newline, dtype=np.int64)))
    last_newline = np.concatenate(([-1], np.flatnonzero(is_newline)))
    start_lines = newlines_before[starts]
    end_lines = newlines_before[ends - 1]
    start_cols = starts - last_newline[start_lines]
    end_cols = ends - 1 - last_newline[end_lines]
    eof_line = int(newlines_before[-1]) + 1
    eof_col = len(text) - int(last_newline[-1])
    # Several EOF tokens, so that the parser's fixed lookahead never runs off the end.
    pad = _EOF_PADDING
    kinds.extend(["EOF"] * pad)
    texts.extend([""] * pad)
    columns = []
    for values, padding in ((start_lines + 1, eof_line), (start_cols, eof_col),
                            (end_lines + 1, eof_line), (end_cols, eof_col)):
        column = values.tolist()
        column.extend([padding] * pad)
        columns.append(column)
    tokens = Tokens(file, kinds, texts, *columns)
    if "BAD" in kind_of.values():
        index = kinds.index("BAD")
        bad = texts[index]
        message = _BAD_MESSAGES.get(bad, f"unexpected character {bad!r}")
        line, col = tokens.lines[index], tokens.cols[index]
        raise ParseError(message, Span(file, line, col, line, col))
    return tokens


def _codes(text: str) -> np.ndarray:
    """The character codes of ``text``."""
    if text.isascii():
        return np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)


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
