"""tests/compiler/causalize_models/Translational.mo in Python: the package Translational."""
from cosim.build import (
    Connector, For, Integer, Model, Real, StateSelect, array, connect, der, each, flow, irange,
    modify, parameter,
)

__modelica_package__ = "Translational"


class Flange(Connector):
    s = Real(unit="m", doc="Position")
    f = flow(Real, unit="N", doc="Force into the component")


class TwoFlanges(Model, partial=True):
    a = Flange()
    b = Flange()


class Mass(TwoFlanges):
    m = parameter(Real, 1, unit="kg")
    s = Real(unit="m", stateSelect=StateSelect.prefer)
    v = Real(unit="m/s", stateSelect=StateSelect.prefer)

    def equations(self):
        yield self.a.s == self.s
        yield self.b.s == self.s
        yield der(self.s) == self.v
        yield self.m * der(self.v) == self.a.f + self.b.f


class Compliant(TwoFlanges, partial=True):
    s_rel = Real(unit="m", doc="Elongation")
    f = Real(unit="N", doc="Force from a to b")

    def equations(self):
        yield self.s_rel == self.b.s - self.a.s
        yield self.b.f == self.f
        yield self.a.f == -self.f


class Spring(Compliant):
    c = parameter(Real, 1, unit="N/m")
    s_rel0 = parameter(Real, 0, unit="m")

    def equations(self):
        yield self.f == self.c * (self.s_rel - self.s_rel0)


class Damper(Compliant):
    d = parameter(Real, 0, unit="N.s/m")

    def equations(self):
        yield self.f == self.d * der(self.s_rel)


class Fixed(Model):
    s0 = parameter(Real, 0, unit="m")
    a = Flange()

    def equations(self):
        yield self.a.s == self.s0


class Oscillator(Model, experiment={"StopTime": 5, "Tolerance": 1e-9}):
    """Mass on a spring and a damper to a wall, released from rest at 0.5 m"""
    mass = Mass(m=2, s={"start": 0.5, "fixed": True}, v={"start": 0, "fixed": True})
    spring = Spring(c=50)
    damper = Damper(d=1.5)
    wall = Fixed()

    def equations(self):
        yield connect(self.wall.a, self.spring.a)
        yield connect(self.wall.a, self.damper.a)
        yield connect(self.spring.b, self.mass.a)
        yield connect(self.damper.b, self.mass.a)


class Chain(Model, experiment={"StopTime": 1}):
    """N masses in a row, linked to a wall and to each other by springs"""
    N = parameter(Integer, 3)
    mass = Mass[N](m=each(1),
                   s=modify(fixed=each(True), start=array(irange(1, N), lambda i: 0.1 * i)),
                   v=each({"start": 0, "fixed": True}))
    spring = Spring[N](c=each(100))
    wall = Fixed()

    def equations(self):
        yield connect(self.wall.a, self.spring[1].a)
        yield For(irange(1, self.N), lambda i: connect(self.spring[i].b, self.mass[i].a))
        yield For(irange(1, self.N - 1), lambda i: connect(self.mass[i].b, self.spring[i + 1].a))
