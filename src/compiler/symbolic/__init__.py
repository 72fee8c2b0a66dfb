"""The expression IR of causalization: hash-consed nodes, differentiation, simplification,
solving, conversion from flat expressions and numeric evaluation."""
from compiler.symbolic.diff import NotDifferentiable, diff, time_derivative
from compiler.symbolic.expr import (
    BOOLEAN, FALSE, INTEGER, ONE, REAL, STRING, TIME, TRUE, ZERO, Array, Call, Const, Expr, Op,
    Var, add, and_, array, call, const, delayed, div, function, if_, initial, is_const, mul, neg, not_,
    or_, power, pre_var, relation, spatial_end, sub, terminal, var)
from compiler.symbolic.printer import to_text
from compiler.symbolic.solve import affine_form, solve_for
from compiler.symbolic.transform import pre_of, rename, substitute

__all__ = [
    "BOOLEAN", "FALSE", "INTEGER", "ONE", "REAL", "STRING", "TIME", "TRUE", "ZERO", "Array",
    "Call", "Const", "Expr", "NotDifferentiable", "Op", "Var", "add", "affine_form", "and_",
    "array", "call", "const", "delayed", "diff", "div", "function", "if_", "initial", "is_const", "mul",
    "neg", "not_", "or_", "power", "pre_of", "pre_var", "relation", "rename", "solve_for",
    "spatial_end", "sub", "substitute", "terminal", "time_derivative", "to_text", "var"]
