"""ssp_examples' reactor, room_thermal, spring_chain and mixed_thirdparty Modelica models in
Python (top-level classes)."""
from cosim.build import (
    Boolean, Integer, Model, Real, When, der, each, exp, if_, input, lit, max_, output,
    parameter, pre, sqrt, time,
)
from tests.build.pairs.ssp_drivetrain import table_lookup

__modelica_package__ = ""


class Jacket(Model):
    """Cooling jacket: water flowing through, heated by the reactor"""
    C_j = parameter(Real, 2e6, unit="J/K", doc="Heat capacity of the jacket and its water")
    G = parameter(Real, 1e5, unit="W/K", doc="Heat capacity rate of the cooling water flow")
    T_in = parameter(Real, 295, unit="K", doc="Cooling water inlet temperature")
    Q = input(Real, unit="W", doc="Heat flow from the reactor")
    T_j = output(Real, unit="K", start=300, fixed=True, doc="Jacket (outlet) temperature")

    def equations(self):
        yield self.C_j * der(self.T_j) == self.Q + self.G * (self.T_in - self.T_j)


class Reactor(Model):
    """Stirred batch reactor with Robertson's stiff kinetics, temperature-dependent rates"""
    k1_ref = parameter(Real, 0.04, unit="1/s", doc="A -> B at T_ref")
    k2_ref = parameter(Real, 3e7, unit="l/(mol.s)", doc="B + B -> C + B at T_ref")
    k3_ref = parameter(Real, 1e4, unit="l/(mol.s)", doc="B + C -> A + C at T_ref")
    E1 = parameter(Real, 6000, unit="K", doc="Activation temperature of A -> B")
    E3 = parameter(Real, 3000, unit="K", doc="Activation temperature of B + C -> A + C")
    T_ref = parameter(Real, 300, unit="K", doc="Temperature of the reference rates")
    dH1 = parameter(Real, -1e5, unit="J/mol", doc="Reaction enthalpy of A -> B (exothermic)")
    V = parameter(Real, 1, unit="m3", doc="Volume")
    rho_cp = parameter(Real, 4e6, unit="J/(m3.K)", doc="Volumetric heat capacity of the contents")
    UA = parameter(Real, 2e5, unit="W/K", doc="Heat transfer to the jacket")
    T_j = input(Real, unit="K", doc="Jacket temperature")
    A = output(Real, unit="mol/l", start=1, fixed=True, doc="Concentration of A")
    B = output(Real, unit="mol/l", start=0, fixed=True, nominal=1e-5, doc="Concentration of B")
    C = output(Real, unit="mol/l", start=0, fixed=True, doc="Concentration of C")
    T = output(Real, unit="K", start=300, fixed=True, doc="Temperature")
    Q = output(Real, unit="W", doc="Heat flow into the jacket")
    k1 = Real(unit="1/s")
    k3 = Real(unit="l/(mol.s)")
    r1 = Real(unit="mol/(l.s)")
    r2 = Real(unit="mol/(l.s)")
    r3 = Real(unit="mol/(l.s)")

    def equations(self):
        yield self.k1 == self.k1_ref * exp(-self.E1 * (1 / self.T - 1 / self.T_ref))
        yield self.k3 == self.k3_ref * exp(-self.E3 * (1 / self.T - 1 / self.T_ref))
        yield self.r1 == self.k1 * self.A
        yield self.r2 == self.k2_ref * self.B ** 2
        yield self.r3 == self.k3 * self.B * self.C
        yield der(self.A) == -self.r1 + self.r3
        yield der(self.B) == self.r1 - self.r2 - self.r3
        yield der(self.C) == self.r2
        yield self.Q == self.UA * (self.T - self.T_j)
        # 1000 l per m3: the rates are per litre
        yield self.rho_cp * self.V * der(self.T) == \
            -self.dH1 * 1000 * self.V * (self.r1 - self.r3) - self.Q


class Room(Model):
    """Room air and building mass, losing heat to the outside, heated by an on/off heater"""
    C_air = parameter(Real, 2e6, unit="J/K", doc="Heat capacity of the air and furniture")
    C_wall = parameter(Real, 1.5e7, unit="J/K", doc="Heat capacity of the walls")
    UA_air_wall = parameter(Real, 600, unit="W/K", doc="Conductance between the air and the walls")
    UA_wall_out = parameter(Real, 120, unit="W/K", doc="Conductance from the walls to the outside")
    UA_air_out = parameter(Real, 40, unit="W/K", doc="Windows and ventilation")
    P_heater = parameter(Real, 6000, unit="W", doc="Heater power when on")
    T_out = input(Real, unit="K", doc="Outdoor temperature")
    heat = input(Boolean, doc="Heater on")
    T_air = output(Real, unit="K", start=294.15, fixed=True, doc="Room air temperature")
    T_wall = output(Real, unit="K", start=290.15, fixed=True, doc="Wall temperature")
    Q_heat = output(Real, unit="W", doc="Heat from the heater")
    E_heat = output(Real, unit="J", start=0, fixed=True,
                    doc="Heat from the heater since the start")

    def equations(self):
        to_wall = self.UA_air_wall * (self.T_air - self.T_wall)
        yield self.Q_heat == if_(self.heat, self.P_heater, 0)
        yield self.C_air * der(self.T_air) == \
            self.Q_heat - to_wall - self.UA_air_out * (self.T_air - self.T_out)
        yield self.C_wall * der(self.T_wall) == \
            to_wall - self.UA_wall_out * (self.T_wall - self.T_out)
        yield der(self.E_heat) == self.Q_heat


class Thermostat(Model):
    """On/off room thermostat with a hysteresis band around the set point"""
    T_set = parameter(Real, 21, unit="degC", doc="Set point")
    band = parameter(Real, 1, unit="K", doc="Width of the hysteresis band")
    T = input(Real, unit="degC", doc="Measured room temperature")
    heat = output(Boolean, start=False, fixed=True, doc="Heater on")
    starts = output(Integer, start=0, fixed=True, doc="Times the heater was switched on")

    def equations(self):
        yield self.heat == if_(pre(self.heat), self.T < self.T_set + self.band / 2,
                               self.T < self.T_set - self.band / 2)
        yield When(self.heat, self.starts == pre(self.starts) + 1)


_HOURS = [3600 * hour for hour in range(25)]
_TEMPERATURES = [-2, -2.6, -3.1, -3.6, -4, -4.3, -4.5, -4.2, -3.4, -2.1, -0.6, 0.9, 2.1, 3, 3.5,
                 3.6, 3.2, 2.3, 1.2, 0.3, -0.4, -1, -1.5, -1.9, -2.3]


class Weather(Model):
    """Outdoor temperature from weather.csv, linearly interpolated (generated by
    weather_to_modelica.py)"""
    times = parameter(Real[25], _HOURS, unit=each("s"),
                      doc="Times of the table's rows, increasing")
    temperatures = parameter(Real[25], _TEMPERATURES, unit=each("degC"),
                             doc="Outdoor temperature at those times")
    T_out = output(Real, unit="degC", doc="Outdoor temperature (constant beyond the table)")

    def equations(self):
        yield self.T_out == table_lookup(time, self.times, self.temperatures, 25, lit(25) - 1)


class SpringMass(Model):
    """One link of a chain: a mass, a spring to the left neighbour, a spring to its own right
    port"""
    m = parameter(Real, 1, unit="kg", doc="Mass")
    k_left = parameter(Real, 100, unit="N/m",
                       doc="Spring from the left neighbour's port to the mass")
    k_right = parameter(Real, 400, unit="N/m", doc="Spring from the mass to the right port")
    d = parameter(Real, 0.2, unit="N.s/m", doc="Damping of the mass against the ground")
    x0 = parameter(Real, 0, unit="m", doc="Initial displacement of the mass")
    p_left = input(Real, unit="m", doc="Position of the left neighbour's right port (0: a wall)")
    f_right = input(Real, unit="N",
                    doc="Force pulling the right port to the right (0: a free end)")
    f_left = output(Real, unit="N",
                    doc="Force the left spring pulls the left neighbour's port with")
    p_right = output(Real, unit="m", doc="Position of the right port (massless: the right spring "
                                          "balances f_right)")
    x = output(Real, unit="m", start=x0, fixed=True, doc="Displacement of the mass")
    v = output(Real, unit="m/s", start=0, fixed=True, doc="Velocity of the mass")

    def equations(self):
        yield self.f_left == self.k_left * (self.x - self.p_left)
        yield self.p_right == self.x + self.f_right / self.k_right
        yield der(self.x) == self.v
        yield self.m * der(self.v) == self.f_right - self.f_left - self.d * self.v


class Tank(Model):
    """Water tank filled by a pump, drained through a valve (outflow by Torricelli's law)"""
    A = parameter(Real, 0.5, unit="m2", doc="Cross-section")
    c = parameter(Real, 0.01, unit="m2.5/s", doc="Valve coefficient: outflow c sqrt(h)")
    h0 = parameter(Real, 0.2, unit="m", doc="Initial level")
    q_in = input(Real, unit="m3/s", doc="Pump flow")
    h = output(Real, unit="m", start=h0, fixed=True, doc="Level")
    q_out = output(Real, unit="m3/s", doc="Outflow")

    def equations(self):
        yield self.q_out == self.c * sqrt(max_(self.h, 0))
        yield self.A * der(self.h) == self.q_in - self.q_out
