"""ssp_examples/quarter_car/{Road,Wheel,Chassis}.mo in Python (top-level classes)."""
from cosim.build import (
    Boolean, Model, Real, constant, cos, der, if_, input, output, parameter, protected, sin,
    time,
)

__modelica_package__ = ""


class Road(Model):
    """Road height under a car driving at constant speed over a 1 - cos bump"""
    pi = constant(Real, 3.14159265358979)
    speed = parameter(Real, 10, unit="m/s", doc="Driving speed")
    height = parameter(Real, 0.05, unit="m", doc="Bump height")
    length = parameter(Real, 1, unit="m", doc="Bump length")
    start = parameter(Real, 1, unit="m", doc="Distance to the bump")
    z_r = output(Real, unit="m", doc="Road height")
    v_r = output(Real, unit="m/s", doc="Rate of change of the road height")
    s = protected(Real(unit="m", doc="Distance travelled"))
    on_bump = protected(Boolean())

    def equations(self):
        phase = 2 * self.pi * (self.s - self.start) / self.length
        yield self.s == self.speed * time
        yield self.on_bump == (self.s > self.start) & (self.s < self.start + self.length)
        yield self.z_r == if_(self.on_bump, 0.5 * self.height * (1 - cos(phase)), 0)
        yield self.v_r == if_(self.on_bump,
                              self.pi * self.height * self.speed / self.length * sin(phase), 0)


class Wheel(Model):
    """Quarter-car wheel (unsprung mass) on the tire spring, pushed by the suspension"""
    m_u = parameter(Real, 35, unit="kg", doc="Unsprung mass")
    k_t = parameter(Real, 160000, unit="N/m", doc="Tire stiffness")
    d_t = parameter(Real, 0, unit="N.s/m", doc="Tire damping")
    f_s = input(Real, unit="N", doc="Suspension force on the wheel (upwards)")
    z_r = input(Real, unit="m", doc="Road height under the tire")
    v_r = input(Real, unit="m/s", doc="Rate of change of the road height")
    z_u = output(Real, unit="m", start=0, fixed=True, doc="Wheel position")
    v_u = output(Real, unit="m/s", start=0, fixed=True, doc="Wheel velocity")
    f_t = output(Real, unit="N", doc="Tire force on the wheel (upwards)")

    def equations(self):
        yield self.f_t == self.k_t * (self.z_r - self.z_u) + self.d_t * (self.v_r - self.v_u)
        yield der(self.z_u) == self.v_u
        yield self.m_u * der(self.v_u) == self.f_s + self.f_t


class Chassis(Model):
    """Quarter-car chassis (sprung mass) on the suspension spring and damper"""
    m_s = parameter(Real, 250, unit="kg", doc="Sprung mass")
    k_s = parameter(Real, 16000, unit="N/m", doc="Suspension stiffness")
    d_s = parameter(Real, 1000, unit="N.s/m", doc="Suspension damping")
    z_u = input(Real, unit="m", doc="Wheel position")
    v_u = input(Real, unit="m/s", doc="Wheel velocity")
    z_s = output(Real, unit="m", start=0, fixed=True, doc="Chassis position")
    v_s = output(Real, unit="m/s", start=0, fixed=True, doc="Chassis velocity")
    a_s = output(Real, unit="m/s2", doc="Chassis acceleration")
    f_s = output(Real, unit="N", doc="Suspension force on the wheel (upwards)")

    def equations(self):
        yield self.f_s == self.k_s * (self.z_s - self.z_u) + self.d_s * (self.v_s - self.v_u)
        yield der(self.z_s) == self.v_s
        yield der(self.v_s) == self.a_s
        yield self.m_s * self.a_s == -self.f_s
