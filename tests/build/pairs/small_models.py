"""The one-class files of tests/compiler/models (BouncingBall, Pendulum, SampledCounter,
Thermostat) in Python: top-level classes, as in those files."""
from cosim.build import (
    Boolean, Integer, Model, Real, When, der, if_, parameter, pre, reinit, sample,
)

__modelica_package__ = ""


class BouncingBall(Model, experiment={"StopTime": 3}):
    """A ball dropped from 1 m that loses energy at each bounce"""
    e = parameter(Real, 0.8, doc="Coefficient of restitution")
    g = parameter(Real, 9.81, doc="Gravity")
    h = Real(start=1, fixed=True, doc="Height")
    v = Real(start=0, fixed=True, doc="Velocity")
    bounces = Integer(start=0, fixed=True, doc="Number of bounces")

    def equations(self):
        yield der(self.h) == self.v
        yield der(self.v) == -self.g
        yield When(self.h <= 0,
                   reinit(self.v, -self.e * pre(self.v)),
                   self.bounces == pre(self.bounces) + 1)


class Pendulum(Model, experiment={"StopTime": 5}):
    """Pendulum in Cartesian coordinates: an index-3 DAE"""
    L = parameter(Real, 1, unit="m", doc="Rod length")
    m = parameter(Real, 1, unit="kg", doc="Bob mass")
    g = parameter(Real, 9.81, unit="m/s2", doc="Gravity")
    x = Real(start=1, fixed=True, doc="Horizontal position")
    y = Real(start=0, doc="Vertical position")
    vx = Real(start=0, fixed=True, doc="Horizontal velocity")
    vy = Real(start=0, doc="Vertical velocity")
    lambda_ = Real(doc="Rod force per length")

    def equations(self):
        yield der(self.x) == self.vx
        yield der(self.y) == self.vy
        yield self.m * der(self.vx) == -self.lambda_ * self.x
        yield self.m * der(self.vy) == -self.lambda_ * self.y - self.m * self.g
        yield self.x ** 2 + self.y ** 2 == self.L ** 2


class SampledCounter(Model, experiment={"StopTime": 1}):
    """Counts clock ticks every 0.1 s and integrates the count"""
    count = Integer(start=0, fixed=True, doc="Ticks so far")
    x = Real(start=0, fixed=True, doc="Integral of the count")

    def equations(self):
        yield When(sample(0, 0.1), self.count == pre(self.count) + 1)
        yield der(self.x) == self.count


class Thermostat(Model, experiment={"StopTime": 100}):
    """A room heated by a heater switched on and off with hysteresis"""
    T_low = parameter(Real, 19, doc="Switch the heater on below")
    T_high = parameter(Real, 21, doc="Switch the heater off above")
    T_ambient = parameter(Real, 10, doc="Outside temperature")
    k = parameter(Real, 0.1, doc="Heat loss rate")
    P = parameter(Real, 2, doc="Heating rate")
    T = Real(start=15, fixed=True, doc="Room temperature")
    heating = Boolean(start=True, fixed=True, doc="Heater on")

    def equations(self):
        yield der(self.T) == -self.k * (self.T - self.T_ambient) + if_(self.heating, self.P, 0)
        yield self.heating == if_(pre(self.heating), self.T < self.T_high, self.T < self.T_low)
