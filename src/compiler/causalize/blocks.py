"""Blocks from strongly connected components: assignment, linear or torn Newton.

Input: the equations of one component, the unknowns matched to them, and the names of the
continuous Real variables (whose partial derivatives the blocks carry). Output: a block of
``compiler.system``.
"""
from __future__ import annotations

from compiler.causalize.errors import CausalizeError
from compiler.causalize.tearing import tear, zero_in_a_branch
from compiler.symbolic import (
    ONE, REAL, NotDifferentiable, Op, Var, affine_form, diff, div, is_const, mul, neg, solve_for,
    var)
from compiler.symbolic.transform import replace_nodes
from compiler.system import Assignment, LinearBlock, NewtonBlock, Residual


def solve_reciprocal(residual, name: str):
    """``name`` from a residual that reads it only as a divisor, linearly in its reciprocal
    (``R_m - 1 / G_m``: ``G_m = 1 / R_m``), or None. Newton on such an equation starts from
    a guess of 0 more often than not, where the reciprocal is infinite."""
    reciprocal = var(f"1/{name}", REAL)

    def divided(node):
        if type(node) is Op and node.op == "/" and type(node.args[1]) is Var and \
                node.args[1].name == name:
            return mul(node.args[0], reciprocal)
        return None
    rewritten = replace_nodes(residual, divided)
    if name in rewritten.variables():
        return None
    value = solve_for(rewritten, reciprocal.name)
    return None if value is None else div(ONE, value)


def alone_value(equation, name: str):
    """The other side of ``equation`` when ``name`` stands alone on one side and the other
    does not read it; else None."""
    for side, other in ((equation.lhs, equation.rhs), (equation.rhs, equation.lhs)):
        if type(side) is Var and side.name == name and name not in other.variables():
            return other
    return None


class BlockBuilder:
    """Makes blocks; ``differentiable`` are the names partials are taken for, ``guessed``
    those with a start value (tearing prefers them); ``vanishes`` tests whether an expression
    of parameters is 0 (tearing does not divide by it); ``by_unknowns``: whether tearing may
    divide by an expression of a loop's unknowns."""

    def __init__(self, differentiable, types: dict, assignment_partials: bool = True,
                 calls=None, guessed=frozenset(), vanishes=None, by_unknowns: bool = True):
        self.differentiable = differentiable
        self.guessed = guessed
        self.vanishes = vanishes
        self.by_unknowns = by_unknowns
        self.types = types
        self.memo: dict = {}
        self.assignment_partials = assignment_partials  # also for assignments outside loops
        self.calls = calls   # derivatives of user-function calls (causalize.derivatives)

    def block(self, equations: list, unknowns: list[str]):
        """The block of a component with continuous unknowns only (loops through discrete
        ones are mixed blocks: ``compiler.causalize.mixed``), but for Integer and Boolean
        unknowns each alone on one side of its equation (the ``equations[k]`` of
        ``unknowns[k]``): those are assignments inside the loop's solution."""
        if len(equations) == 1:
            return self.single(equations[0], unknowns[0])
        residuals = [equation.residual for equation in equations]
        valued = {name: (k, alone_value(equations[k], name)) for k, name in enumerate(unknowns)
                  if self.types.get(name, REAL) != REAL}
        forms = [affine_form(residual, set(unknowns)) for residual in residuals]
        if not valued and all(form is not None for form in forms):
            return self.linear(equations, residuals, forms, unknowns)
        return self.newton(equations, residuals, unknowns, valued)

    def single(self, equation, name: str):
        value = alone_value(equation, name)
        if value is not None:
            return self.assignment(name, value, equation, self.assignment_partials)
        if self.types.get(name, REAL) != REAL:
            raise CausalizeError(f"cannot solve this equation for the {self.types[name]} "
                                 f"variable '{name}' (write it as '{name} = ...')",
                                 equation.span)
        value = solve_for(equation.residual, name)
        if value is not None and _zero_in_a_branch_for(equation.residual, name):
            # 0 = if locked then a else sa - f (a friction's locked mode): the assignment
            # would divide by 0 where the branch leaves the unknown out; a one-unknown
            # Newton block leaves it in place there when the equation holds
            value = None
        elif value is None:
            value = solve_reciprocal(equation.residual, name)
        if value is not None:
            return self.assignment(name, value, equation, self.assignment_partials)
        residual = self.residual(equation.residual, equation)
        return NewtonBlock((name,), (), (residual,), residual.has_partials)

    def assignment(self, name: str, value, equation, partials: bool = True) -> Assignment:
        """``name := value``; without ``partials`` they are left out (``has_partials`` is
        then False for Real variables)."""
        if self.types.get(name, REAL) != REAL:
            return Assignment(name, value, (), True, equation.span)
        found = self.partials(value) if partials else None
        return Assignment(name, value, found or (), found is not None, equation.span)

    def with_partials(self, block):
        """``block`` with the partials of an assignment filled in."""
        if type(block) is not Assignment or block.has_partials:
            return block
        found = self.partials(block.value)
        return Assignment(block.var, block.value, found or (), found is not None, block.span)

    def residual(self, expr, equation) -> Residual:
        partials = self.partials(expr)
        return Residual(expr, partials or (), partials is not None, equation.span)

    def linear_row(self, expr, equation, coefficients: dict) -> Residual:
        """A row of a linear block: the matrix is read from its partials, so where the
        others are not known (a table function without derivative reading a variable from
        outside the block: MultiBody RobotR3's bearing friction) the unknowns' coefficients
        come from the affine form, and ``has_partials`` is False."""
        partials = self.partials(expr)
        if partials is not None:
            return Residual(expr, partials, True, equation.span)
        given = tuple((name, coefficient) for name, coefficient in sorted(coefficients.items())
                      if not is_const(coefficient, 0))
        return Residual(expr, given, False, equation.span)

    def partials(self, expr):
        """``((name, d expr / d name), ...)`` for the differentiable variables read; None
        when a user function has no derivative."""
        result = []
        try:
            for name in sorted(expr.variables()):
                if name in self.differentiable:
                    derivative = diff(expr, name, self.memo.setdefault(name, {}), self.calls)
                    if not is_const(derivative, 0):
                        result.append((name, derivative))
        except NotDifferentiable:
            return None
        return tuple(result)

    def linear(self, equations, residuals, forms, unknowns) -> LinearBlock:
        rows = tuple(self.linear_row(residual, equation, form[0])
                     for residual, equation, form in zip(residuals, equations, forms))
        return LinearBlock(tuple(unknowns), rows, tuple(neg(rest) for _, rest in forms))

    def newton(self, equations, residuals, unknowns, valued=None) -> NewtonBlock:
        tears, inner, left = tear(residuals, unknowns, self.differentiable, self.guessed,
                                   self.vanishes, self.by_unknowns, valued or {})
        assignments = tuple(self.assignment(name, value, equations[k])
                            for k, name, value in inner)
        rest = tuple(self.residual(residuals[k], equations[k]) for k in left)
        complete = all(item.has_partials for item in assignments + rest)
        return NewtonBlock(tuple(tears), assignments, rest, complete)


def _zero_in_a_branch_for(residual, name: str) -> bool:
    """Whether the coefficient of ``name`` in ``residual`` is 0 in a branch of an if."""
    form = affine_form(residual, (name,))
    return form is not None and zero_in_a_branch(form[0][name])
