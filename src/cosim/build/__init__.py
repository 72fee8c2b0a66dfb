"""Modelica models written as Python classes: a front end beside the parser.

    from cosim.build import Model, Real, parameter, der

    class NewtonCooling(Model):
        \"\"\"A hot object cooling toward ambient\"\"\"
        k = parameter(Real, 0.5, unit="1/s", doc="Cooling coefficient")
        T = Real(unit="degC", start=90, fixed=True, doc="Object temperature")

        def equations(self):
            yield der(self.T) == -self.k * self.T

The classes build the ``compiler.lang.ast`` values the parser builds (``stored_definition``),
so flattening, causalization, code generation and FMU export see no difference.
"""
from cosim.build.classes import (
    Block, Connector, Function, LibraryClass, Model, Package, Record, from_library,
)
from cosim.build.clauses import (
    Break, For, If, Return, When, While, assert_, assign, connect, reinit, terminate,
)
from cosim.build.declarations import (
    Boolean, Declaration, Integer, Real, String, constant, discrete, each, final, flow, inner,
    input, modify, outer, output, parameter, placement, protected, replaceable,
)
from cosim.build.emit import stored_definition
from cosim.build.errors import BuildError
from cosim.build.expr import (
    BUILTINS, AssertionLevel, Expr, Modelica, StateSelect, abs_, acos, array, asin, atan,
    atan2, call, cat, ceil, change, cos, cosh, cross, delay, der, diagonal, div, edge, exp,
    fill, floor, homotopy, identity, if_, initial, integer, irange, linspace, lit, log, log10,
    matrix, max_, min_, mod, name, ndims, noEvent, ones, pre, product, rem, sample,
    scalar, sign, sin, sinh, size, smooth, sqrt, string, sum_, tan, tanh, terminal, time,
    transpose, vector, zeros,
)
from cosim.build.load import flatten_class, library_of, load_class, modelica_text

__all__ = [
    "Model", "Block", "Connector", "Record", "Package", "Function", "LibraryClass",
    "from_library", "Real", "Integer", "Boolean", "String", "Declaration", "parameter",
    "constant", "discrete", "input", "output", "flow", "protected", "final", "inner", "outer",
    "replaceable", "each", "modify", "placement", "connect", "For", "If", "When", "While",
    "Break", "Return", "reinit", "assert_", "terminate", "assign", "Expr", "if_", "irange",
    "array", "matrix", "lit", "call", "name", "StateSelect", "AssertionLevel", "Modelica",
    "time", "BuildError", "stored_definition", "flatten_class", "library_of", "load_class",
    "modelica_text", *BUILTINS,
]
