"""tests/compiler/causalize_models/Analog.mo in Python: the module is the package Analog."""
from cosim.build import Connector, Model, Real, connect, der, exp, flow, lit, parameter

__modelica_package__ = "Analog"
_EXPERIMENT = {"StopTime": 1, "Tolerance": 1e-9}


class Pin(Connector):
    v = Real(unit="V")
    i = flow(Real, unit="A")


class TwoPin(Model, partial=True):
    p = Pin()
    n = Pin()
    v = Real(unit="V", doc="Voltage p - n")
    i = Real(unit="A", doc="Current from p to n")

    def equations(self):
        yield self.v == self.p.v - self.n.v
        yield lit(0) == self.p.i + self.n.i
        yield self.i == self.p.i


class Resistor(TwoPin):
    R = parameter(Real, 1, unit="Ohm")

    def equations(self):
        yield self.v == self.R * self.i


class Capacitor(TwoPin):
    C = parameter(Real, 1, unit="F")

    def equations(self):
        yield self.C * der(self.v) == self.i


class Diode(TwoPin):
    """Exponential diode (nonlinear)"""
    Is = parameter(Real, 1e-9, unit="A", doc="Saturation current")
    Vt = parameter(Real, 0.025, unit="V", doc="Thermal voltage")

    def equations(self):
        yield self.i == self.Is * (exp(self.v / self.Vt) - 1)


class Ground(Model):
    p = Pin()

    def equations(self):
        yield self.p.v == 0


class ConstantVoltage(TwoPin):
    V = parameter(Real, 1, unit="V")

    def equations(self):
        yield self.v == self.V


class RC(Model, experiment=_EXPERIMENT):
    """A 5 V source charging a capacitor through a resistor"""
    source = ConstantVoltage(V=5)
    resistor = Resistor(R=2e3)
    capacitor = Capacitor(C=1e-4, v={"start": 0, "fixed": True})
    ground = Ground()

    def equations(self):
        yield connect(self.source.p, self.resistor.p)
        yield connect(self.resistor.n, self.capacitor.p)
        yield connect(self.capacitor.n, self.source.n)
        yield connect(self.source.n, self.ground.p)


class DiodeCharger(Model, experiment=_EXPERIMENT):
    """A capacitor charged through a resistor and a diode: a nonlinear loop"""
    source = ConstantVoltage(V=2)
    resistor = Resistor(R=100)
    diode = Diode()
    capacitor = Capacitor(C=1e-3, v={"start": 0, "fixed": True})
    ground = Ground()

    def equations(self):
        yield connect(self.source.p, self.resistor.p)
        yield connect(self.resistor.n, self.diode.p)
        yield connect(self.diode.n, self.capacitor.p)
        yield connect(self.capacitor.n, self.source.n)
        yield connect(self.source.n, self.ground.p)


class ParallelCapacitors(Model, experiment=_EXPERIMENT):
    """Two capacitors in parallel: their voltages are tied (index 2)"""
    source = ConstantVoltage(V=3)
    resistor = Resistor(R=10)
    c1 = Capacitor(C=0.01, v={"start": 0, "fixed": True})
    c2 = Capacitor(C=0.03)
    ground = Ground()

    def equations(self):
        yield connect(self.source.p, self.resistor.p)
        yield connect(self.resistor.n, self.c1.p)
        yield connect(self.resistor.n, self.c2.p)
        yield connect(self.c1.n, self.source.n)
        yield connect(self.c2.n, self.source.n)
        yield connect(self.source.n, self.ground.p)
