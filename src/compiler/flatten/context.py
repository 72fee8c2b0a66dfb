"""What one flattening run shares: the class cache, the variables made so far, the functions
and enumerations used, and ``Env``, the place an expression is read in.

Input: a ``Library``. Output: the mutable bookkeeping of a single ``flatten`` call (nothing
outlives it).
"""
from __future__ import annotations

from compiler.flatten.classes import Classes


class Env:
    """Where an expression is read: the instance whose components it names, the class whose
    text it is (for classes, imports and constants), bound for-loop indices, and the size
    ``end`` stands for inside a subscript."""

    __slots__ = ("ctx", "instance", "scope", "iterators", "end")

    def __init__(self, ctx, instance, scope, iterators=None, end=None):
        self.ctx = ctx
        self.instance = instance
        self.scope = scope
        self.iterators = iterators or {}
        self.end = end

    def with_iterator(self, name: str, value) -> Env:
        iterators = dict(self.iterators)
        iterators[name] = value
        return Env(self.ctx, self.instance, self.scope, iterators, self.end)

    def with_end(self, size: int) -> Env:
        return Env(self.ctx, self.instance, self.scope, self.iterators, size)


class Context:
    """The state of one flattening run."""

    def __init__(self, library):
        from compiler.flatten.connection_graph import Connections  # (it needs instances)
        self.classes = Classes(library)
        self.variables: dict = {}          # flat name -> VarRecord, in creation order
        self.functions: dict = {}          # full name -> flat.Function
        self.function_headers: dict = {}   # full name -> FunctionHeader (set before the body)
        self.function_table = None         # the functions as Python, to evaluate calls
        self.enumerations: dict = {}       # full name -> flat.Enumeration
        self.external_objects: dict = {}   # full name -> flat.ExternalObject
        self.structural: set[str] = set()  # parameters whose value flattening used
        self.constants: dict = {}          # (id(scope), name) -> value of a package constant
        self.evaluating: set[str] = set()  # variables whose value is being computed (cycles)
        self.connections = Connections()   # connects and the overdetermined connection graph
        self.auxiliaries: list = []        # flat.Variables the flattener made (hidden)
        self.auxiliary_equations: list = []  # the equations that determine some of them
        self.call_outputs: dict = {}       # name of a hidden call output -> calls.CallOutput
        self.algorithm_depth = 0           # > 0 while an algorithm section is translated
        self.subscripts: dict = {}         # values of subscripts (subscript_values.py)

    def auxiliary(self, prefix: str, type_name: str, span, name: str = "",
                  variability: str = "discrete"):
        """A new hidden variable: ``prefix`` numbered (``$break1``: the flag of a loop that
        breaks), or ``name`` as given (``$call2.y[1]``: an output of a call inside an
        expression)."""
        from compiler import flat
        name = name or f"{prefix}{len(self.auxiliaries) + 1}"
        self.auxiliaries.append(flat.Variable(name, type_name, variability, "local",
                                              protected=True, span=span))
        return flat.Var(name)
