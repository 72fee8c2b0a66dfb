"""tests/compiler/codegen_models/Events.mo in Python: the package Events, with functions."""
from cosim.build import (
    Boolean, Function, Integer, Model, Real, When, abs_, assert_, assign, change, cos, der,
    discrete, edge, if_, input, integer, max_, output, pre, reinit, sample, sqrt, time,
)

__modelica_package__ = "Events"


class checkedSqrt(Function):
    """The square root of a number that must not be negative"""
    x = input(Real)
    y = output(Real)

    def algorithm(self):
        yield assert_(self.x >= 0, "checkedSqrt of a negative number")
        yield assign(self.y, sqrt(self.x))


class Counters(Model, experiment={"StopTime": 4, "Tolerance": 1e-9}):
    x = Real(start=0, fixed=True)
    high = Boolean()
    level = Integer()
    rises = Integer(start=0, fixed=True)
    changes = Integer(start=0, fixed=True)
    held = discrete(Real, start=0, fixed=True)
    root = Real()

    def equations(self):
        yield der(self.x) == cos(3 * time)
        yield self.high == (self.x > 0.2)
        yield self.level == integer(5 * self.x)
        yield When(edge(self.high), self.rises == pre(self.rises) + 1)
        yield When(change(self.level), self.changes == pre(self.changes) + 1)
        yield When(sample(0.05, 0.1), self.held == self.x)
        yield self.root == if_(self.x > 0.1, checkedSqrt(self.x - 0.05), -1)


class sq(Function):
    x = input(Real)
    y = output(Real)

    def algorithm(self):
        yield assign(self.y, self.x * self.x)


class CallsInEvents(Model, experiment={"StopTime": 3, "Tolerance": 1e-9}):
    """User functions in a when-condition, a reinit and an assert"""
    x = Real(start=1, fixed=True)
    v = Real(start=0, fixed=True)
    n = Integer(start=0, fixed=True)

    def equations(self):
        yield der(self.x) == self.v
        yield der(self.v) == -4 * self.x
        yield When((sq(self.x) < 0.25) & (self.v < 0),
                   reinit(self.v, -0.9 * sq(self.v) / max_(abs_(self.v), 1e-9)),
                   self.n == pre(self.n) + 1)
        yield assert_(sq(self.x) <= 1.0001, "x out of range")
