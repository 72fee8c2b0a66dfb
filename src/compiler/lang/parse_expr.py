"""Grammar rules for expressions, names, subscripts, modifications and comments.

A precedence-climbing loop over ``compiler.lang.precedence`` replaces the grammar's chain of
one rule per level. A sign or ``not`` right after a binary operator (``a * -b``) is accepted,
as most tools do, and means the same as with parentheses. A minus sign directly before a
number makes a negative literal (except before ``^``). The rules are written for speed: the
common one-token expressions and array constructors are recognised before the general
machinery runs, and spans are built inline.
"""
from __future__ import annotations

from dataclasses import replace

from compiler.lang import ast
from compiler.lang.fastnew import fast_constructor
from compiler.lang.lexer import decode_string
from compiler.lang.errors import ParseError
from compiler.lang.precedence import (ADDITIVE, BINARY, MULTIPLICATIVE, NON_ASSOCIATIVE, NOT,
                                      OR, RELATION)
from compiler.lang.stream import TokenStream, make_span

_CLASS_KEYWORDS = frozenset({"class", "model", "record", "block", "connector", "type", "package",
                             "function", "operator", "expandable", "partial", "encapsulated",
                             "pure", "impure"})
_CALLABLE_KEYWORDS = frozenset({"der", "initial", "pure"})
_REF_CONTINUES = frozenset({".", "["})
_POWER = frozenset({"^", ".^"})

# Tokens after which an expression cannot continue: lets one-token expressions skip the
# precedence machinery.
_CLOSERS = frozenset({",", ")", ";", "}", "]", "=", ":=", "then", "loop", "else", "elseif",
                      "annotation", "STRING", "if", "constrainedby", "EOF"})
_LITERALS = frozenset({"INT", "REAL", "STRING", "true", "false"})
_NUMBERS = frozenset({"INT", "REAL"})

_Binary = fast_constructor(ast.Binary)
_Unary = fast_constructor(ast.Unary)
_RefPart = fast_constructor(ast.RefPart)
_ComponentRef = fast_constructor(ast.ComponentRef)
_IntLit = fast_constructor(ast.IntLit)
_RealLit = fast_constructor(ast.RealLit)
_StrLit = fast_constructor(ast.StrLit)
_BoolLit = fast_constructor(ast.BoolLit)
_ElementMod = fast_constructor(ast.ElementMod)
_Modification = fast_constructor(ast.Modification)
_ArrayCons = fast_constructor(ast.ArrayCons)
_Call = fast_constructor(ast.Call)
_NamedArg = fast_constructor(ast.NamedArg)
_TypeName = fast_constructor(ast.TypeName)


class ExpressionParser(TokenStream):
    """Expressions and the small rules built from them."""

    # ------------------------------------------------------------------- expressions
    def expression(self) -> ast.Expr:
        kinds = self.kinds
        pos = self.pos
        kind = kinds[pos]
        if kinds[pos + 1] in _CLOSERS:
            # Most expressions are one token.
            if kind == "IDENT":
                self.pos = pos + 1
                span = make_span(self.file, self.lines[pos], self.cols[pos],
                                 self.end_lines[pos], self.end_cols[pos])
                return _ComponentRef((_RefPart(self.texts[pos], (), span),), False, span)
            if kind in _LITERALS:
                self.pos = pos + 1
                span = make_span(self.file, self.lines[pos], self.cols[pos],
                                 self.end_lines[pos], self.end_cols[pos])
                if kind == "INT":
                    return _IntLit(int(self.texts[pos]), span)
                return self.literal(kind, self.texts[pos], span)
        if kind == "-" and kinds[pos + 2] in _CLOSERS:
            number = kinds[pos + 1]
            if number == "INT" or number == "REAL":
                self.pos = pos + 2
                text = self.texts[pos + 1]
                span = make_span(self.file, self.lines[pos], self.cols[pos],
                                 self.end_lines[pos + 1], self.end_cols[pos + 1])
                return (_IntLit(-int(text), span) if number == "INT"
                        else _RealLit(-float(text), span))
        if kind == "{":
            left = self.array_constructor()
            if kinds[self.pos] in _CLOSERS:
                return left
            return self.simple_expression(self.binary(OR, left, pos), pos)
        if kind == "IDENT" or kind in _LITERALS:
            left = self.primary()
            if kinds[self.pos] in _CLOSERS:
                return left
            return self.simple_expression(self.binary(OR, left, pos), pos)
        if kind == "if":
            return self.if_expression()
        return self.simple_expression()

    def if_expression(self) -> ast.IfExpr:
        start = self.expect("if")
        branches = []
        while True:
            condition = self.expression()
            self.expect("then", " after the condition of an if-expression")
            branches.append((condition, self.expression()))
            if not self.accept("elseif"):
                break
        self.expect("else", " in if-expression (an if-expression needs an else branch)")
        else_ = self.expression()
        return ast.IfExpr(tuple(branches), else_, self.span_from(start))

    def simple_expression(self, first: ast.Expr | None = None, start: int = -1) -> ast.Expr:
        """A range ``a:b:c`` or a plain expression (``first`` if already parsed from ``start``)."""
        if first is None:
            start = self.pos
            first = self.binary(OR)
        if self.kinds[self.pos] != ":":
            return first
        self.pos += 1
        second = self.binary(OR)
        if self.accept(":"):
            return ast.Range(first, second, self.binary(OR), self.span_from(start))
        return ast.Range(first, None, second, self.span_from(start))

    def binary(self, min_prec: int, left: ast.Expr | None = None, start: int = -1) -> ast.Expr:
        """Precedence climbing from ``min_prec``; ``left`` is an operand already parsed from
        token ``start``. Prefix operators are handled inline."""
        kinds = self.kinds
        if left is None:
            start = self.pos
            kind = kinds[start]
            if kind == "-" or kind == "+" or kind == "not":
                left = self._prefixed(kind, start, min_prec)
            else:
                left = self.primary()
        while True:
            op = kinds[self.pos]
            prec = BINARY.get(op)
            if prec is None or prec < min_prec:
                return left
            self.pos += 1
            right = self.binary(prec + 1)
            end = self.pos - 1
            left = _Binary(op, left, right, make_span(
                self.file, self.lines[start], self.cols[start], self.end_lines[end],
                self.end_cols[end]))
            if prec in NON_ASSOCIATIVE and BINARY.get(kinds[self.pos]) == prec:
                raise self.error(f"'{kinds[self.pos]}' cannot follow '{op}' without parentheses")

    def _prefixed(self, kind: str, start: int, min_prec: int) -> ast.Expr:
        kinds = self.kinds
        self.pos = start + 1
        if kind == "-" and kinds[start + 1] in _NUMBERS and kinds[start + 2] not in _POWER:
            # A negative number is one literal; ``-2^2`` stays ``-(2^2)``.
            self.pos = start + 2
            text = self.texts[start + 1]
            span = make_span(self.file, self.lines[start], self.cols[start],
                             self.end_lines[start + 1], self.end_cols[start + 1])
            return (_IntLit(-int(text), span) if kinds[start + 1] == "INT"
                    else _RealLit(-float(text), span))
        if kind == "not":
            inner = self.binary(RELATION if min_prec <= NOT else min_prec)
        else:
            inner = self.binary(MULTIPLICATIVE if min_prec <= ADDITIVE else min_prec)
        return _Unary(kind, inner, self.span_from(start))

    def primary(self) -> ast.Expr:
        pos = self.pos
        kind = self.kinds[pos]
        if kind == "IDENT" or kind == ".":
            ref = self.component_ref()
            if self.kinds[self.pos] == "(":
                return self.call_args(ref, pos)
            return ref
        if kind in _LITERALS:
            self.pos = pos + 1
            return self.literal(kind, self.texts[pos], self.token_span(pos))
        if kind == "{":
            return self.array_constructor()
        if kind == "(":
            return self.parenthesized()
        if kind in _CALLABLE_KEYWORDS and self.kinds[pos + 1] == "(":
            self.pos = pos + 1
            span = self.token_span(pos)
            ref = _ComponentRef((_RefPart(kind, (), span),), False, span)
            return self.call_args(ref, pos)
        if kind == "[":
            return self.matrix_constructor()
        if kind == "end":
            self.pos = pos + 1
            return ast.End(self.token_span(pos))
        raise self.unexpected("an expression")

    @staticmethod
    def literal(kind: str, text: str, span) -> ast.Expr:
        if kind == "INT":
            return _IntLit(int(text), span)
        if kind == "REAL":
            return _RealLit(float(text), span)
        if kind == "STRING":
            return _StrLit(decode_string(text), span)
        return _BoolLit(kind == "true", span)

    def parenthesized(self) -> ast.Expr:
        start = self.expect("(")
        elements: list = []
        while True:
            kind = self.kinds[self.pos]
            elements.append(None if kind == "," or kind == ")" else self.expression())
            if not self.accept(","):
                break
        self.close(")", start, "'('")
        if len(elements) == 1 and elements[0] is not None:
            return elements[0]
        if elements == [None]:
            elements = []
        return ast.TupleExpr(tuple(elements), self.span_from(start))

    def array_constructor(self) -> ast.Expr:
        kinds = self.kinds
        start = self.pos
        self.pos = start + 1
        if kinds[start + 1] == "}":
            self.pos = start + 2
            return _ArrayCons((), self.span_from(start))
        first = self.expression()
        if kinds[self.pos] == "for":
            comprehension = self.comprehension(first)
            self.close("}", start, "'{'")
            return _ArrayCons((comprehension,), self.span_from(start))
        elements = [first]
        texts = self.texts
        while kinds[self.pos] == ",":
            pos = self.pos + 1
            kind = kinds[pos]
            following = kinds[pos + 1]
            if kind == "INT" and (following == "," or following == "}"):
                # Arrays of numbers (annotation coordinates, tables) are the common case.
                self.pos = pos + 1
                elements.append(_IntLit(int(texts[pos]), make_span(
                    self.file, self.lines[pos], self.cols[pos], self.end_lines[pos],
                    self.end_cols[pos])))
            else:
                self.pos = pos
                elements.append(self.expression())
        end = self.pos
        if kinds[end] != "}":
            self.close("}", start, "'{'")
        self.pos = end + 1
        return _ArrayCons(tuple(elements), make_span(
            self.file, self.lines[start], self.cols[start], self.end_lines[end],
            self.end_cols[end]))

    def matrix_constructor(self) -> ast.MatrixCons:
        start = self.expect("[")
        rows = []
        while True:
            row = [self.expression()]
            while self.accept(","):
                row.append(self.expression())
            rows.append(tuple(row))
            if not self.accept(";"):
                break
        self.close("]", start, "'['")
        return ast.MatrixCons(tuple(rows), self.span_from(start))

    def comprehension(self, expr: ast.Expr) -> ast.Comprehension:
        self.expect("for")
        return ast.Comprehension(expr, self.for_indices(), expr.span)

    def for_indices(self) -> tuple[ast.ForIndex, ...]:
        indices = []
        while True:
            start = self.pos
            name = self.ident("a loop index name")
            range_ = self.expression() if self.accept("in") else None
            indices.append(ast.ForIndex(name, range_, self.span_from(start)))
            if not self.accept(","):
                return tuple(indices)

    def call_args(self, func: ast.ComponentRef, start: int) -> ast.Call:
        open_ = self.expect("(")
        args: list = []
        named: list = []
        kinds = self.kinds
        if kinds[self.pos] != ")":
            while True:
                pos = self.pos
                if kinds[pos] == "IDENT" and kinds[pos + 1] == "=":
                    self.pos = pos + 2
                    value = (self.expression() if kinds[pos + 2] != "function"
                             else self.function_argument())
                    end = self.pos - 1
                    named.append(_NamedArg(self.texts[pos], value, make_span(
                        self.file, self.lines[pos], self.cols[pos], self.end_lines[end],
                        self.end_cols[end])))
                elif named:
                    raise self.unexpected("a named argument (positional arguments come first)")
                else:
                    args.append(self.expression() if kinds[pos] != "function"
                                else self.function_argument())
                    if len(args) == 1 and kinds[self.pos] == "for":
                        args[0] = self.comprehension(args[0])
                        break
                if kinds[self.pos] != ",":
                    break
                self.pos += 1
        self.close(")", open_, "the argument list")
        return _Call(func, tuple(args), tuple(named), self.span_from(start))

    def function_argument(self) -> ast.FunctionArg:
        """``function name(a = e, ...)``: only named arguments bind inputs (MLS 12.4.2.1)."""
        start = self.expect("function")
        name = self.component_ref()
        call = self.call_args(name, start)
        if call.args:
            raise ParseError("a function argument binds inputs by name only "
                             "('function f(a = 1)')", call.args[0].span)
        return ast.FunctionArg(name, call.named, call.span)

    # ------------------------------------------------------------------------- names
    def component_ref(self) -> ast.ComponentRef:
        start = self.pos
        kinds = self.kinds
        if kinds[start] == "IDENT" and kinds[start + 1] not in _REF_CONTINUES:
            self.pos = start + 1
            span = self.token_span(start)
            return _ComponentRef((_RefPart(self.texts[start], (), span),), False, span)
        is_global = self.accept(".")
        parts = []
        texts, file, lines, cols = self.texts, self.file, self.lines, self.cols
        end_lines, end_cols = self.end_lines, self.end_cols
        while True:
            pos = self.pos
            if kinds[pos] != "IDENT":
                raise self.unexpected("a name")
            if kinds[pos + 1] == "[":
                self.pos = pos + 1
                subscripts = self.subscripts()
                end = self.pos - 1
            else:
                self.pos = end = pos + 1
                end = pos
                subscripts = ()
            parts.append(_RefPart(texts[pos], subscripts, make_span(
                file, lines[pos], cols[pos], end_lines[end], end_cols[end])))
            if kinds[self.pos] == "." and kinds[self.pos + 1] == "IDENT":
                self.pos += 1
                continue
            end = self.pos - 1
            return _ComponentRef(tuple(parts), is_global, make_span(
                file, lines[start], cols[start], end_lines[end], end_cols[end]))

    def type_name(self) -> ast.TypeName:
        start = self.pos
        kinds = self.kinds
        if kinds[start] == "IDENT" and kinds[start + 1] != ".":
            self.pos = start + 1
            return _TypeName((self.texts[start],), False, self.token_span(start))
        is_global = self.accept(".")
        parts = [self.ident("a type name")]
        while kinds[self.pos] == "." and kinds[self.pos + 1] == "IDENT":
            self.pos += 1
            parts.append(self.ident())
        return _TypeName(tuple(parts), is_global, self.span_from(start))

    def subscripts(self) -> tuple:
        start = self.expect("[")
        subscripts = []
        while True:
            pos = self.pos
            if self.kinds[pos] == ":" and self.kinds[pos + 1] in (",", "]"):
                self.pos = pos + 1
                subscripts.append(ast.Colon(self.token_span(pos)))
            else:
                subscripts.append(self.expression())
            if not self.accept(","):
                break
        self.close("]", start, "'['")
        return tuple(subscripts)

    # ----------------------------------------------------------------- modifications
    def modification(self) -> ast.Modification | None:
        start = self.pos
        kind = self.kinds[start]
        if kind == "(":
            arguments = self.class_modification()
            binding = None
            if self.kinds[self.pos] in ("=", ":="):
                self.pos += 1
                binding = self.expression()
            return _Modification(arguments, binding, self.span_from(start))
        if kind == "=" or kind == ":=":
            self.pos = start + 1
            return _Modification((), self.expression(), self.span_from(start))
        return None

    def class_modification(self) -> tuple:
        kinds = self.kinds
        open_ = self.expect("(")
        arguments = []
        if kinds[self.pos] != ")":
            argument = self.argument
            while True:
                arguments.append(argument())
                if kinds[self.pos] != ",":
                    break
                self.pos += 1
        self.close(")", open_, "the modification")
        return tuple(arguments)

    def argument(self):
        start = self.pos
        kinds = self.kinds
        if kinds[start] == "IDENT" and kinds[start + 1] != ".":
            self.pos = start + 1
            if kinds[start + 1] == "=":
                # The common ``name = expression``.
                self.pos = start + 2
                binding = self.expression()
                end = self.pos - 1
                file, lines, cols, end_lines, end_cols = (
                    self.file, self.lines, self.cols, self.end_lines, self.end_cols)
                modification = _Modification((), binding, make_span(
                    file, lines[start + 1], cols[start + 1], end_lines[end], end_cols[end]))
            else:
                modification = self.modification()
            description = self.string_comment() if kinds[self.pos] == "STRING" else ""
            end = self.pos - 1
            return _ElementMod((self.texts[start],), modification, False, False, description,
                               make_span(self.file, self.lines[start], self.cols[start],
                                         self.end_lines[end], self.end_cols[end]))
        redeclare = self.accept("redeclare")
        each = self.accept("each")
        final = self.accept("final")
        replaceable = self.accept("replaceable")
        if redeclare or replaceable:
            element = self.redeclared_element()
            if replaceable:
                element = replace(element, replaceable=True)
            return ast.ElementRedeclare(element, each, final, redeclare, self.span_from(start))
        name = [self.ident("a name to modify")]
        while self.accept("."):
            name.append(self.ident())
        modification = self.modification()
        description = self.string_comment()
        return _ElementMod(tuple(name), modification, each, final, description,
                           self.span_from(start))

    def redeclared_element(self):
        """The short class or single component after ``redeclare``/``replaceable``."""
        if self.kinds[self.pos] in _CLASS_KEYWORDS:
            element = self.class_definition()
        else:
            element = self.component_clause(single=True)[0]
        if self.kinds[self.pos] == "constrainedby":
            element = replace(element, constraint=self.constraint())
        return element

    # ----------------------------------------------------------------------- comments
    def string_comment(self) -> str:
        if self.kinds[self.pos] != "STRING":
            return ""
        parts = [decode_string(self.texts[self.pos])]
        self.pos += 1
        while self.kinds[self.pos] == "+" and self.kinds[self.pos + 1] == "STRING":
            parts.append(decode_string(self.texts[self.pos + 1]))
            self.pos += 2
        return "".join(parts)

    def annotation(self) -> ast.Modification | None:
        start = self.pos
        if not self.accept("annotation"):
            return None
        return _Modification(self.class_modification(), None, self.span_from(start))

    def comment(self) -> tuple[str, ast.Modification | None]:
        kind = self.kinds[self.pos]
        if kind != "STRING" and kind != "annotation":
            return "", None
        return self.string_comment(), self.annotation()
