"""Modelica language front end: lexer, parser, AST and unparser.

Input: Modelica source text. Output: an ``ast.StoredDefinition`` (``parse``) and back to
text (``unparse``), with ``parse(unparse(tree)) == tree``.
"""
from compiler.lang.errors import ParseError
from compiler.lang.parser import parse, parse_expression
from compiler.lang.unparse import unparse

__all__ = ["ParseError", "parse", "parse_expression", "unparse"]
