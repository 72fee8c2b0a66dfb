"""tests/compiler/models/Electrical.mo in Python: the module is the package Electrical."""
from cosim.build import Connector, Model, Real, connect, der, flow, lit, parameter

__modelica_package__ = "Electrical"


class Pin(Connector):
    """Electrical pin"""
    v = Real(unit="V", doc="Potential at the pin")
    i = flow(Real, unit="A", doc="Current flowing into the pin")


class OnePort(Model, partial=True):
    """Component with two pins and one current through it"""
    v = Real(unit="V", doc="Voltage drop from p to n")
    i = Real(unit="A", doc="Current from p to n")
    p = Pin(doc="Positive pin")
    n = Pin(doc="Negative pin")

    def equations(self):
        yield self.v == self.p.v - self.n.v
        yield lit(0) == self.p.i + self.n.i
        yield self.i == self.p.i


class Resistor(OnePort):
    R = parameter(Real, 1, unit="Ohm", doc="Resistance")

    def equations(self):
        yield self.v == self.R * self.i


class Capacitor(OnePort):
    C = parameter(Real, 1, unit="F", doc="Capacitance")

    def equations(self):
        yield self.i == self.C * der(self.v)


class Ground(Model):
    p = Pin()

    def equations(self):
        yield self.p.v == 0


class ConstantVoltage(OnePort):
    V = parameter(Real, 1, unit="V", doc="Source voltage")

    def equations(self):
        yield self.v == self.V


class RCCircuit(Model, experiment={"StopTime": 0.5, "Interval": 0.001}):
    """A capacitor charged through a resistor from a 10 V source"""
    source = ConstantVoltage(V=10)
    resistor = Resistor(R=100)
    capacitor = Capacitor(C=1e-3, v={"start": 0, "fixed": True})
    ground = Ground()

    def equations(self):
        yield connect(self.source.p, self.resistor.p)
        yield connect(self.resistor.n, self.capacitor.p)
        yield connect(self.capacitor.n, self.source.n)
        yield connect(self.source.n, self.ground.p)
