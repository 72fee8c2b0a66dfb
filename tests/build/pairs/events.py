"""tests/compiler/causalize_models/Events.mo in Python: the module is the package Events."""
from cosim.build import (
    Boolean, Integer, Model, Real, When, der, if_, parameter, pre, reinit, sample,
)

__modelica_package__ = "Events"


class BouncingBall(Model, experiment={"StopTime": 3, "Tolerance": 1e-9}):
    e = parameter(Real, 0.7, doc="Coefficient of restitution")
    g = parameter(Real, 9.81)
    h = Real(start=2, fixed=True)
    v = Real(start=0, fixed=True)
    bounces = Integer(start=0, fixed=True)

    def equations(self):
        yield der(self.h) == self.v
        yield der(self.v) == -self.g
        yield When(self.h <= 0,
                   reinit(self.v, -self.e * pre(self.v)),
                   self.bounces == pre(self.bounces) + 1)


class Thermostat(Model, experiment={"StopTime": 20, "Tolerance": 1e-9}):
    T_on = parameter(Real, 18, doc="Heater switches on below")
    T_off = parameter(Real, 22, doc="Heater switches off above")
    T_out = parameter(Real, 5)
    k = parameter(Real, 0.2)
    P = parameter(Real, 5)
    T = Real(start=12, fixed=True)
    heating = Boolean(start=False, fixed=True)

    def equations(self):
        yield self.heating == if_(pre(self.heating), self.T < self.T_off, self.T < self.T_on)
        yield der(self.T) == self.k * (self.T_out - self.T) + if_(self.heating, self.P, 0)


class SampledCounter(Model, experiment={"StopTime": 1}):
    count = Integer(start=0, fixed=True)
    x = Real(start=0, fixed=True)
    y = Real()

    def equations(self):
        yield When(sample(0, 0.1), self.count == pre(self.count) + 1)
        yield der(self.x) == self.count
        yield self.y == 2 * self.x
