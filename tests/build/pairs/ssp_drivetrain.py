"""ssp_examples/drivetrain/{Driveline,Engine,Vehicle}.mo in Python (top-level classes)."""
from cosim.build import (
    Boolean, Model, Real, When, abs_, der, each, if_, input, irange, output, parameter, pre,
    sum_, tanh, time,
)

__modelica_package__ = ""


class Driveline(Model):
    """Engine inertia, friction clutch that sticks and slips, gearbox, elastic drive shaft"""
    J_e = parameter(Real, 0.2, unit="kg.m2", doc="Engine inertia")
    J_g = parameter(Real, 0.05, unit="kg.m2", doc="Clutch disc and gearbox input inertia")
    ratio = parameter(Real, 14, doc="Gearbox times final drive ratio (first gear)")
    k_s = parameter(Real, 4000, unit="N.m/rad", doc="Drive shaft stiffness")
    d_s = parameter(Real, 100, unit="N.m.s/rad", doc="Drive shaft damping")
    T_cap = parameter(Real, 300, unit="N.m", doc="Clutch torque capacity when fully engaged")
    t_on = parameter(Real, 0.2, unit="s", doc="The clutch starts to engage")
    t_ramp = parameter(Real, 0.5, unit="s", doc="Engagement time (capacity rises linearly)")
    w_idle = parameter(Real, 100, unit="rad/s", doc="Initial engine speed")
    T_e = input(Real, unit="N.m", doc="Engine torque")
    w_w = input(Real, unit="rad/s", doc="Wheel speed")
    w_e = output(Real, unit="rad/s", start=w_idle, fixed=True, doc="Engine speed")
    w_g = output(Real, unit="rad/s", start=0, fixed=True, doc="Gearbox input speed")
    T_s = output(Real, unit="N.m", doc="Drive shaft torque at the wheels")
    T_c = output(Real, unit="N.m", doc="Torque the clutch transmits")
    locked = output(Boolean, start=False, fixed=True, doc="The clutch sticks")
    t_lock = output(Real, unit="s", start=-1, fixed=True,
                    doc="Time the clutch last locked (-1: never)")
    twist = Real(unit="rad", start=0, fixed=True, doc="Drive shaft twist")
    T_max = Real(unit="N.m", doc="Torque the clutch can transmit now")
    T_stick = Real(unit="N.m", doc="Clutch torque that keeps both sides together")
    w_rel = Real(unit="rad/s", doc="Slip speed")

    def equations(self):
        capacity = abs_(self.T_stick) <= self.T_max
        yield self.T_max == if_(time < self.t_on, 0, time < self.t_on + self.t_ramp,
                                self.T_cap * (time - self.t_on) / self.t_ramp, self.T_cap)
        yield self.T_s == self.k_s * self.twist + self.d_s * (self.w_g / self.ratio - self.w_w)
        yield self.w_rel == self.w_e - self.w_g
        yield self.T_stick == (self.J_g * self.T_e + self.J_e * self.T_s / self.ratio) / \
            (self.J_e + self.J_g)
        # sticks when the slip speed reaches zero with enough capacity; slips when it lacks it
        yield self.locked == if_(pre(self.locked), capacity, (self.w_rel <= 0) & capacity)
        yield self.T_c == if_(self.locked, self.T_stick, self.w_rel > 0, self.T_max, -self.T_max)
        yield self.J_e * der(self.w_e) == self.T_e - self.T_c
        yield self.J_g * der(self.w_g) == self.T_c - self.T_s / self.ratio
        yield der(self.twist) == self.w_g / self.ratio - self.w_w
        yield When(self.locked, self.t_lock == time)


def table_lookup(x, xs, ys, n, last):
    """Piecewise-linear interpolation in a table of ``n`` points, constant beyond its ends:
    the Modelica expression Engine.mo and Weather.mo write out (``last`` is the number of
    intervals, as written there)."""
    inside = sum_(irange(1, last), lambda i: if_(
        (x >= xs[i]) & (x < xs[i + 1]),
        ys[i] + (ys[i + 1] - ys[i]) * (x - xs[i]) / (xs[i + 1] - xs[i]), 0))
    return if_(x <= xs[1], ys[1], x >= xs[n], ys[n], inside)


class Engine(Model):
    """Engine torque from a full-load torque map (piecewise linear in speed), times the
    throttle"""
    throttle = parameter(Real, 1, doc="Throttle position, 0 to 1")
    friction = parameter(Real, 0.02, unit="N.m.s/rad", doc="Friction torque per unit speed")
    speeds = parameter(Real[8], [0, 100, 200, 300, 400, 500, 600, 700], unit=each("rad/s"),
                       doc="Speeds of the map's points, increasing")
    torques = parameter(Real[8], [60, 150, 190, 200, 195, 180, 140, 0], unit=each("N.m"),
                        doc="Full-load torque at those speeds")
    w_e = input(Real, unit="rad/s", doc="Engine speed")
    T_e = output(Real, unit="N.m", doc="Engine torque on the crankshaft")
    T_full = output(Real, unit="N.m",
                    doc="Full-load torque at this speed (constant beyond the map)")

    def equations(self):
        yield self.T_full == table_lookup(self.w_e, self.speeds, self.torques, 8, 7)
        yield self.T_e == self.throttle * self.T_full - self.friction * self.w_e


class Vehicle(Model):
    """Longitudinal vehicle dynamics: mass, wheels, rolling resistance, aerodynamic drag"""
    m = parameter(Real, 1200, unit="kg", doc="Vehicle mass")
    r = parameter(Real, 0.3, unit="m", doc="Wheel radius")
    J_w = parameter(Real, 2, unit="kg.m2", doc="Inertia of the driven wheels")
    c_r = parameter(Real, 0.012, doc="Rolling resistance coefficient")
    c_dA = parameter(Real, 0.65, unit="m2", doc="Drag coefficient times frontal area")
    rho = parameter(Real, 1.2, unit="kg/m3", doc="Air density")
    g = parameter(Real, 9.81, unit="m/s2")
    v_roll = parameter(Real, 0.01, unit="m/s", doc="Speed over which rolling resistance builds up")
    T_s = input(Real, unit="N.m", doc="Drive shaft torque at the wheels")
    w_w = output(Real, unit="rad/s", start=0, fixed=True, doc="Wheel speed")
    v = output(Real, unit="m/s", doc="Vehicle speed")
    x = output(Real, unit="m", start=0, fixed=True, doc="Distance travelled")
    F_res = Real(unit="N", doc="Driving resistance")

    def equations(self):
        yield self.v == self.r * self.w_w
        yield der(self.x) == self.v
        yield self.F_res == self.c_r * self.m * self.g * tanh(self.v / self.v_roll) + \
            0.5 * self.rho * self.c_dA * self.v * abs_(self.v)
        yield (self.J_w + self.m * self.r ** 2) * der(self.w_w) == self.T_s - self.r * self.F_res
