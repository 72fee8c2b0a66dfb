"""A discrete PI level controller as a third-party FMI 3.0 Co-Simulation FMU (pythonfmu3).

Build it beside SystemStructure.ssd with
    python -m pythonfmu3 build -f LevelController.py -d .
"""
from pythonfmu3 import Fmi3Causality, Fmi3Slave, Fmi3Variability, Float64


class LevelController(Fmi3Slave):
    """PI control of a level by a pump: q = Kp e + Ki (sum of e dt), limited to [0, q_max],
    updated at each communication point from the level measured there."""

    author = "cosim examples"
    description = "Discrete PI level controller with an output limit and anti-windup"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.h_ref, self.Kp, self.Ki, self.q_max = 1.0, 0.05, 0.002, 0.03
        self.h, self.q, self.integral = 0.0, 0.0, 0.0
        self.register_variable(Float64("time", causality=Fmi3Causality.independent,
                                       variability=Fmi3Variability.continuous))
        for name in ("h_ref", "Kp", "Ki", "q_max"):
            self.register_variable(Float64(name, causality=Fmi3Causality.parameter,
                                           variability=Fmi3Variability.tunable))
        self.register_variable(Float64("h", causality=Fmi3Causality.input))
        self.register_variable(Float64("q", causality=Fmi3Causality.output))
        self.register_variable(Float64("integral", causality=Fmi3Causality.local))

    def do_step(self, current_time, step_size):
        error = self.h_ref - self.h
        demand = self.Kp * error + self.Ki * (self.integral + error * step_size)
        if 0.0 <= demand <= self.q_max:  # anti-windup: integrate only inside the limits
            self.integral += error * step_size
        self.q = min(max(demand, 0.0), self.q_max)
        return True
