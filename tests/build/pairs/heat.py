"""tests/compiler/codegen_models/Heat.mo in Python: the package Heat."""
from cosim.build import Connector, For, Integer, Model, Real, connect, der, each, flow, irange
from cosim.build import parameter

__modelica_package__ = "Heat"


class Port(Connector):
    T = Real(doc="Temperature")
    Q = flow(Real, doc="Heat flow into the component")


class Cell(Model):
    """A heat capacity"""
    C = parameter(Real, 1, doc="Heat capacity")
    T = Real(start=0, fixed=True, doc="Temperature")
    port = Port()

    def equations(self):
        yield self.port.T == self.T
        yield self.C * der(self.T) == self.port.Q


class Conductor(Model):
    """Heat flow proportional to the temperature difference"""
    G = parameter(Real, 1, doc="Thermal conductance")
    a = Port()
    b = Port()
    Q = Real(doc="Heat flow from a to b")

    def equations(self):
        yield self.Q == self.G * (self.a.T - self.b.T)
        yield self.a.Q == self.Q
        yield self.b.Q == -self.Q


class FixedTemperature(Model):
    T = parameter(Real, 100)
    port = Port()

    def equations(self):
        yield self.port.T == self.T


class Rod(Model, experiment={"StopTime": 0.1, "Tolerance": 1e-8}):
    """A rod of unit length and diffusivity, heated at one end, insulated at the other"""
    N = parameter(Integer, 1000, doc="Cells")
    cell = Cell[N](C=each(1 / N))
    link = Conductor[N](G=each(N))
    hot = FixedTemperature(T=100)

    def equations(self):
        yield connect(self.hot.port, self.link[1].a)
        yield For(irange(1, self.N), lambda i: connect(self.link[i].b, self.cell[i].port))
        yield For(irange(1, self.N - 1), lambda i: connect(self.cell[i].port, self.link[i + 1].a))


class ShortRod(Rod(N=20)):
    """The rod in 20 cells, for the reference interpreter"""
