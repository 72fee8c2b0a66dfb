"""tests/compiler/codegen_models/Interface.mo in Python: the package Interface."""
from cosim.build import (
    For, Integer, Model, Real, When, assert_, der, each, final, irange, output, parameter,
    protected, string, terminate,
)

__modelica_package__ = "Interface"


class Body(Model):
    m = parameter(Real, 1, doc="Mass")
    s = Real(start=0, fixed=True, doc="Position")
    v = Real(start=1, fixed=True, doc="Velocity")

    def equations(self):
        yield der(self.s) == self.v
        yield self.m * der(self.v) == -self.s


class Decay(Model, experiment={"StartTime": 0.5, "StopTime": 2, "Tolerance": 1e-7,
                               "Interval": 0.01}):
    """Tunable, final and evaluated parameters; arrays, components, aliases"""
    k = parameter(Real, 2, doc="Rate")
    x0 = parameter(Real, 1, doc="Initial value")
    twice = final(parameter(Real, 2 * k))
    gain = final(parameter(Real, 4))
    offset = parameter(Real, 3, annotation={"Evaluate": True})
    N = parameter(Integer, 3)
    x = Real(start=x0, fixed=True)
    T = Real[N](start=each(0), fixed=each(True))
    body = Body(m=2)
    position = Real(body.s)
    y = output(Real)
    shifted = protected(Real())
    secret = protected(output(Real, doc="An output declared protected stays inside"))

    def equations(self):
        yield der(self.x) == -self.k * self.x
        yield For(irange(1, self.N), lambda i: der(self.T[i]) == i - self.T[i])
        yield self.shifted == self.x + self.offset + self.twice + self.gain
        yield self.y == 2 * self.shifted
        yield self.secret == 3 * self.x


class Guarded(Model, experiment={"StopTime": 3}):
    """An assert that fails when x drops below 0.2"""
    x = Real(start=1, fixed=True)

    def equations(self):
        yield der(self.x) == -self.x
        yield assert_(self.x > 0.2, "x too small: " + string(self.x))


class Stops(Model, experiment={"StopTime": 3}):
    """terminate() once x passes 0.5"""
    x = Real(start=1, fixed=True)

    def equations(self):
        yield der(self.x) == -self.x
        yield When(self.x < 0.5, terminate("x fell below 0.5"))
