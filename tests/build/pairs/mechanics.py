"""tests/compiler/models/Mechanics.mo in Python: the module is the package Mechanics."""
from cosim.build import (
    Connector, For, Integer, Model, Real, StateSelect, array, connect, der, each, flow, if_,
    irange, modify, parameter,
)

__modelica_package__ = "Mechanics"


class Flange(Connector):
    """One-dimensional translational flange"""
    s = Real(unit="m", doc="Absolute position")
    f = flow(Real, unit="N", doc="Cut force into the component")


class PartialTwoFlanges(Model, partial=True):
    flange_a = Flange(doc="Left flange")
    flange_b = Flange(doc="Right flange")


class Mass(PartialTwoFlanges):
    """Sliding mass"""
    m = parameter(Real, 1, unit="kg", min=0, doc="Mass")
    s = Real(unit="m", stateSelect=StateSelect.prefer, doc="Position")
    v = Real(unit="m/s", doc="Velocity")

    def equations(self):
        yield self.flange_a.s == self.s
        yield self.flange_b.s == self.s
        yield self.v == der(self.s)
        yield self.m * der(self.v) == self.flange_a.f + self.flange_b.f


class PartialCompliant(PartialTwoFlanges, partial=True):
    """Force between two flanges"""
    s_rel = Real(unit="m", doc="Relative distance")
    f = Real(unit="N", doc="Force from flange_a to flange_b")

    def equations(self):
        yield self.s_rel == self.flange_b.s - self.flange_a.s
        yield self.flange_b.f == self.f
        yield self.flange_a.f == -self.f


class Spring(PartialCompliant):
    """Linear spring"""
    c = parameter(Real, 1, unit="N/m", min=0, doc="Spring constant")
    s_rel0 = parameter(Real, 0, unit="m", doc="Unstretched length")

    def equations(self):
        yield self.f == self.c * (self.s_rel - self.s_rel0)


class Damper(PartialCompliant):
    """Linear damper"""
    d = parameter(Real, 0, unit="N.s/m", min=0, doc="Damping constant")

    def equations(self):
        yield self.f == self.d * der(self.s_rel)


class Fixed(Model):
    """Flange fixed in space"""
    s0 = parameter(Real, 0, unit="m", doc="Fixed position")
    flange = Flange()

    def equations(self):
        yield self.flange.s == self.s0


class MassSpringDamper(Model, experiment={"StartTime": 0, "StopTime": 10, "Tolerance": 1e-6,
                                          "Interval": 0.01}):
    """A mass on a spring and a damper, released from 1 m"""
    mass = Mass(m=1, s={"start": 1, "fixed": True}, v={"start": 0, "fixed": True})
    spring = Spring(c=10)
    damper = Damper(d=0.5)
    fixed = Fixed()

    def equations(self):
        yield connect(self.fixed.flange, self.spring.flange_a)
        yield connect(self.fixed.flange, self.damper.flange_a)
        yield connect(self.spring.flange_b, self.mass.flange_a)
        yield connect(self.damper.flange_b, self.mass.flange_a)


class Chain(Model, experiment={"StopTime": 1}):
    """N masses linked by N springs to a fixed wall, the first mass displaced"""
    N = parameter(Integer, 4, doc="Number of masses")
    m = parameter(Real, 1, doc="Mass of each body")
    c = parameter(Real, 100, doc="Stiffness of each spring")
    mass = Mass[N](m=each(m),
                   s=modify(start=array(irange(1, N), lambda i: if_(i == 1, 0.1, 0)),
                            fixed=each(True)),
                   v=each({"start": 0, "fixed": True}))
    spring = Spring[N](c=each(c))
    fixed = Fixed()

    def equations(self):
        yield connect(self.fixed.flange, self.spring[1].flange_a)
        yield For(irange(1, self.N),
                  lambda i: connect(self.spring[i].flange_b, self.mass[i].flange_a))
        yield For(irange(1, self.N - 1),
                  lambda i: connect(self.mass[i].flange_b, self.spring[i + 1].flange_a))
