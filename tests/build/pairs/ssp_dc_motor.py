"""ssp_examples/dc_motor/{Controller,DCMotor}.mo in Python (top-level classes)."""
from cosim.build import Model, Real, der, if_, input, output, parameter, time

__modelica_package__ = ""


def _limited(value, limit):
    """``if v > L then L elseif v < -L then -L else v`` (a Python helper writing Modelica)."""
    return if_(value > limit, limit, value < -limit, -limit, value)


class Controller(Model):
    """Cascade speed control: PI speed loop in rpm with a current limit, PI current loop"""
    n_ref = parameter(Real, 3000, unit="rpm", doc="Speed set point")
    Kp_n = parameter(Real, 0.05, doc="Speed loop gain, A per rpm")
    Ki_n = parameter(Real, 0.6, doc="Speed loop integral gain, A per rpm and second")
    I_max = parameter(Real, 10, unit="A", doc="Current limit")
    Kp_i = parameter(Real, 5, unit="V/A", doc="Current loop gain")
    Ki_i = parameter(Real, 1000, doc="Current loop integral gain, V per A and second")
    U_max = parameter(Real, 48, unit="V", doc="Supply voltage")
    n = input(Real, unit="rpm", doc="Measured speed")
    i = input(Real, unit="A", doc="Measured current")
    u = output(Real, unit="V", doc="Armature voltage")
    i_ref = output(Real, unit="A", doc="Current set point, limited")
    i_demand = Real(unit="A", doc="Current the speed loop asks for")
    e_n = Real(unit="rpm", doc="Speed error")
    x_n = Real(start=0, fixed=True, doc="Integral of the speed error")
    x_i = Real(start=0, fixed=True, doc="Integral of the current error")
    u_demand = Real(unit="V", doc="Voltage the current loop asks for")

    def equations(self):
        limited = ((self.i_demand > self.I_max) & (self.e_n > 0)) | \
            ((self.i_demand < -self.I_max) & (self.e_n < 0))
        yield self.e_n == self.n_ref - self.n
        yield self.i_demand == self.Kp_n * self.e_n + self.Ki_n * self.x_n
        yield self.i_ref == _limited(self.i_demand, self.I_max)
        # anti-windup: the speed integral stops while the limit holds the current back
        yield der(self.x_n) == if_(limited, 0, self.e_n)
        yield self.u_demand == self.Kp_i * (self.i_ref - self.i) + self.Ki_i * self.x_i
        yield self.u == _limited(self.u_demand, self.U_max)
        yield der(self.x_i) == self.i_ref - self.i


class DCMotor(Model):
    """Permanent-magnet DC motor driving an inertia, with a load torque step"""
    R = parameter(Real, 1, unit="Ohm", doc="Armature resistance")
    L = parameter(Real, 5e-3, unit="H", doc="Armature inductance")
    k = parameter(Real, 0.1, unit="N.m/A", doc="Torque (and back-EMF) constant")
    J = parameter(Real, 1e-3, unit="kg.m2", doc="Rotor and load inertia")
    b = parameter(Real, 1e-4, unit="N.m.s/rad", doc="Viscous friction")
    T_load = parameter(Real, 0.3, unit="N.m", doc="Load torque after t_load")
    t_load = parameter(Real, 1, unit="s", doc="Time the load torque is applied")
    u = input(Real, unit="V", doc="Armature voltage")
    w = output(Real, unit="rad/s", start=0, fixed=True, doc="Shaft speed")
    i = output(Real, unit="A", start=0, fixed=True, doc="Armature current")
    tau = output(Real, unit="N.m", doc="Motor torque")
    T_l = Real(unit="N.m", doc="Load torque")

    def equations(self):
        yield self.T_l == if_(time >= self.t_load, self.T_load, 0)
        yield self.tau == self.k * self.i
        yield self.L * der(self.i) == self.u - self.R * self.i - self.k * self.w
        yield self.J * der(self.w) == self.tau - self.b * self.w - self.T_l
