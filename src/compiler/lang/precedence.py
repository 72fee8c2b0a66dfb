"""Operator precedence shared by the parser and the unparser (higher binds tighter).

The levels follow the Modelica 3.6 expression grammar: if-expression, range, or, and, not,
relations (non-associative), additive with leading sign, multiplicative, power
(non-associative, operands are primaries).
"""
from __future__ import annotations

IF = 0
RANGE = 1
OR = 2
AND = 3
NOT = 4
RELATION = 5
ADDITIVE = 6
MULTIPLICATIVE = 7
POWER = 8
PRIMARY = 10

BINARY = {
    "or": OR,
    "and": AND,
    "<": RELATION, "<=": RELATION, ">": RELATION, ">=": RELATION, "==": RELATION, "<>": RELATION,
    "+": ADDITIVE, "-": ADDITIVE, ".+": ADDITIVE, ".-": ADDITIVE,
    "*": MULTIPLICATIVE, "/": MULTIPLICATIVE, ".*": MULTIPLICATIVE, "./": MULTIPLICATIVE,
    "^": POWER, ".^": POWER,
}
NON_ASSOCIATIVE = frozenset({RELATION, POWER})

# A prefix operator binds at its level and takes an operand of the next tighter level:
# ``not`` takes a relation, ``-`` takes a term (so ``-a*b`` is ``-(a*b)``).
UNARY = {"not": NOT, "-": ADDITIVE, "+": ADDITIVE}
