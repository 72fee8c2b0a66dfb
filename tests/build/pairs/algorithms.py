"""tests/compiler/causalize_models/Algorithms.mo and Steps.mo in Python (top-level
classes)."""
from cosim.build import (
    For, If, Integer, Model, Real, When, assign, ceil, der, discrete, floor, integer, irange, mod,
    pre, time,
)

__modelica_package__ = ""


class Algorithms(Model, experiment={"StopTime": 1, "Tolerance": 1e-9}):
    """An algorithm section with a loop, an if and a when-statement"""
    x = Real(start=1, fixed=True)
    y = Real()
    z = Real()
    n = Integer(start=0, fixed=True)
    last = discrete(Real, start=0, fixed=True)

    def algorithm(self):
        yield assign(self.y, 2 * self.x)
        yield assign(self.z, 0)
        yield For(irange(1, 3), lambda i: assign(self.z, self.z + i * self.y))
        yield If(self.x > 0.5, assign(self.z, self.z + 1))
        yield When(self.x < 0.5,
                   assign(self.n, pre(self.n) + 1),
                   assign(self.last, time))

    def equations(self):
        yield der(self.x) == -self.x


class Steps(Model):
    """Event-generating functions: integer, floor, ceil, mod"""
    x = Real(start=0, fixed=True)
    n = Integer()
    f = Real()
    m = Real()

    def equations(self):
        yield der(self.x) == 1
        yield self.n == integer(3 * time)
        yield self.f == floor(2 * self.x) + ceil(self.x)
        yield self.m == mod(time, 0.25)
