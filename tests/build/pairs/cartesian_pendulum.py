"""tests/compiler/causalize_models/Pendulum.mo in Python (a top-level class)."""
from cosim.build import Model, Real, cos, der, lit, parameter, sin

__modelica_package__ = ""


class Pendulum(Model, experiment={"StopTime": 10, "Tolerance": 1e-9}):
    """A pendulum in Cartesian coordinates (index 3), released at 10 degrees"""
    L = parameter(Real, 1.0, unit="m", doc="Rod length")
    m = parameter(Real, 0.5, unit="kg", doc="Bob mass")
    g = parameter(Real, 9.81, unit="m/s2", doc="Gravity")
    theta0 = parameter(Real, lit(10) * 3.14159265358979 / 180, unit="rad", doc="Initial angle")
    x = Real(start=L * sin(theta0), fixed=True, doc="Horizontal position")
    y = Real(start=-L * cos(theta0), doc="Vertical position (up is positive)")
    vx = Real(start=0, fixed=True, doc="Horizontal velocity")
    vy = Real(start=0, doc="Vertical velocity")
    lambda_ = Real(doc="Rod force per length")

    def equations(self):
        yield der(self.x) == self.vx
        yield der(self.y) == self.vy
        yield self.m * der(self.vx) == -self.lambda_ * self.x
        yield self.m * der(self.vy) == -self.lambda_ * self.y - self.m * self.g
        yield self.x ** 2 + self.y ** 2 == self.L ** 2
