"""Grammar rules for equation and algorithm sections."""
from __future__ import annotations

from compiler.lang import ast
from compiler.lang.fastnew import fast_constructor
from compiler.lang.parse_expr import ExpressionParser

# Tokens that end a list of equations or statements (the enclosing rule then decides).
_SECTION_END = frozenset({"end", "else", "elseif", "elsewhen", "equation", "algorithm",
                          "public", "protected", "external", "annotation", "EOF"})


class SectionParser(ExpressionParser):
    """Equations and statements."""

    def _at_section_end(self) -> bool:
        kind = self.kinds[self.pos]
        if kind == "initial":
            return self.kinds[self.pos + 1] in ("equation", "algorithm")
        return kind in _SECTION_END

    def _close(self, keyword: str, what: str, start: int) -> None:
        """Consume ``end <keyword>`` closing a construct opened at token ``start``."""
        pos = self.pos
        if self.kinds[pos] != "end" or self.kinds[pos + 1] != keyword:
            found = (f"'end {self.texts[pos + 1]}'" if self.kinds[pos] == "end" and
                     self.kinds[pos + 1] != "EOF" else self.describe(pos))
            raise self.error(f"expected 'end {keyword}' to close {what} opened at "
                             f"{self.where(start)}, found {found}")
        self.pos = pos + 2

    def _finish(self, node_type, start: int, *fields):
        description, annotation = self.comment()
        self.expect(";", " after " + _WHAT.get(node_type, "statement"))
        return _NEW[node_type](*fields, description, annotation, self.span_from(start))

    # ------------------------------------------------------------------------ equations
    def equations(self) -> tuple[ast.Equation, ...]:
        items = []
        while not self._at_section_end():
            items.append(self.equation())
        return tuple(items)

    def equation(self) -> ast.Equation:
        start = self.pos
        kind = self.kinds[start]
        if kind == "if":
            branches, else_ = self._if_parts(self.equations, "if-equation")
            return self._finish(ast.EqIf, start, branches, else_)
        if kind == "for":
            indices, body = self._for_parts(self.equations, "for-equation", start)
            return self._finish(ast.EqFor, start, indices, body)
        if kind == "when":
            branches = self._when_parts(self.equations, "when-equation")
            return self._finish(ast.EqWhen, start, branches)
        if kind == "connect":
            self.pos += 1
            open_ = self.expect("(", " after 'connect'")
            a = self.component_ref()
            self.expect(",", " between the two connectors of connect")
            b = self.component_ref()
            self.expect(")", " to close connect( opened at " + self.where(open_))
            return self._finish(ast.EqConnect, start, a, b)
        lhs = self.simple_expression()
        if self.accept("="):
            return self._finish(ast.EqEquality, start, lhs, self.expression())
        if isinstance(lhs, ast.Call):
            return self._finish(ast.EqCall, start, lhs)
        raise self.unexpected("'=' in equation")

    def _for_parts(self, body, what: str, start: int):
        self.pos += 1
        indices = self.for_indices()
        self.expect("loop", f" after the range of a {what}")
        items = body()
        self._close("for", what, start)
        return indices, items

    def _branches(self, keyword: str, more: str, body, what: str):
        """``keyword c then ... more c then ...`` up to ``else`` or ``end``."""
        start = self.expect(keyword)
        branches = []
        while True:
            condition = self.expression()
            self.expect("then", f" after the condition of {what}")
            branches.append((condition, body()))
            if not self.accept(more):
                return start, tuple(branches)

    def _if_parts(self, body, what: str):
        start, branches = self._branches("if", "elseif", body, f"an {what}")
        else_ = body() if self.accept("else") else ()
        self._close("if", what, start)
        return branches, else_

    def _when_parts(self, body, what: str):
        start, branches = self._branches("when", "elsewhen", body, f"a {what}")
        self._close("when", what, start)
        return branches

    # ----------------------------------------------------------------------- statements
    def statements(self) -> tuple[ast.Statement, ...]:
        items = []
        while not self._at_section_end():
            items.append(self.statement())
        return tuple(items)

    def statement(self) -> ast.Statement:
        start = self.pos
        kind = self.kinds[start]
        if kind == "IDENT" or kind == ".":
            target = self.component_ref()
            if self.accept(":="):
                return self._finish(ast.Assign, start, target, self.expression())
            if self.kinds[self.pos] == "(":
                return self._finish(ast.CallStmt, start, self.call_args(target, start))
            raise self.unexpected("':=' or '(' in statement")
        if kind == "(":
            target = self.parenthesized()
            self.expect(":=", " after the output list of a function call")
            value = self.expression()
            if not isinstance(value, ast.Call):
                raise self.error("the right side of '(...) :=' must be a function call", start)
            return self._finish(ast.Assign, start, target, value)
        if kind == "if":
            branches, else_ = self._if_parts(self.statements, "if-statement")
            return self._finish(ast.IfStmt, start, branches, else_)
        if kind == "for":
            indices, body = self._for_parts(self.statements, "for-statement", start)
            return self._finish(ast.ForStmt, start, indices, body)
        if kind == "while":
            self.pos += 1
            condition = self.expression()
            self.expect("loop", " after the condition of a while-statement")
            body = self.statements()
            self._close("while", "while-statement", start)
            return self._finish(ast.WhileStmt, start, condition, body)
        if kind == "when":
            branches = self._when_parts(self.statements, "when-statement")
            return self._finish(ast.WhenStmt, start, branches)
        if kind == "break" or kind == "return":
            self.pos += 1
            return self._finish(ast.Break if kind == "break" else ast.Return, start)
        raise self.unexpected("a statement")


_NEW = {node_type: fast_constructor(node_type) for node_type in (
    ast.EqEquality, ast.EqConnect, ast.EqFor, ast.EqIf, ast.EqWhen, ast.EqCall, ast.Assign,
    ast.CallStmt, ast.ForStmt, ast.WhileStmt, ast.IfStmt, ast.WhenStmt, ast.Break, ast.Return)}
_WHAT = {ast.EqEquality: "equation", ast.EqConnect: "connect", ast.EqFor: "for-equation",
         ast.EqIf: "if-equation", ast.EqWhen: "when-equation", ast.EqCall: "equation"}
