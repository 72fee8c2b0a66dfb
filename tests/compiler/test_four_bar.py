"""A planar four-bar linkage built like Modelica.Mechanics.MultiBody (msl_models/FourBar.mo):
frames with an overdetermined orientation, a kinematic loop closed through the orientation's
equalityConstraint (MLS 9.4), index reduction of a loop of four joints with one degree of
freedom. Checked against the closed-form kinematics of the linkage and against its equation
of motion in the crank angle, integrated by scipy."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu
from scipy.integrate import solve_ivp

from compiler.api import flatten_model
from compiler.flat import Const

MODELS = Path(__file__).parent / "msl_models" / "FourBar.mo"
A, B, C, D = 0.2, 0.6, 0.5, 0.6          # crank, coupler, rocker, ground (FourBar.Linkage)
MASSES = (1.0, 2.0, 1.5)                  # crank, coupler, rocker
G = 9.81


def joints(theta):
    """The pivots B (crank-coupler) and C (coupler-rocker) at crank angle theta, in the
    assembly the model starts in (C above the line B-D); complex-analytic in theta, so that
    a complex step gives exact derivatives."""
    b = np.array([A * np.cos(theta), A * np.sin(theta)])
    to_d = np.array([D, 0.0]) - b
    length = np.sqrt(to_d @ to_d)
    along = (length**2 + B**2 - C**2) / (2 * length)
    across = np.sqrt(B**2 - along**2)
    unit = to_d / length
    return b, b + along * unit + across * np.array([-unit[1], unit[0]])


def rocker_angle(theta):
    _, c = joints(theta)
    return np.arctan2(-c[1], D - c[0])


def test_the_loop_is_closed_by_one_residue_of_the_orientation():
    flat = flatten_model(MODELS, "FourBar.Swinging")
    residues = [eq for eq in flat.equations if type(eq.lhs) is Const and eq.lhs.value == 0
                and "R[" in str(eq.rhs)]
    assert len(residues) == 1


def test_the_driven_rocker_follows_the_closed_form_kinematics(fmus):
    fmu = fmus.build(MODELS, "FourBar.Driven")
    result = simulate_fmu(str(fmu), stop_time=6.3, output_interval=0.05,
                          relative_tolerance=1e-8, output=["rockerAngle", "rev1.phi"])
    t = result["time"]
    assert result["rev1.phi"] == pytest.approx(1 + t, abs=1e-12)
    expected = np.array([rocker_angle(1 + time) for time in t])
    wrapped = np.angle(np.exp(1j * (result["rockerAngle"] - expected)))
    assert np.abs(wrapped).max() < 1e-9


STEP = 1e-30   # complex step: derivatives exact to rounding


def _bodies(theta):
    """Per bar: its center and its direction (a vector along it), complex-analytic."""
    b, c = joints(theta)
    d = np.array([D, 0.0])
    return ((b / 2, b), ((b + c) / 2, c - b), ((c + d) / 2, d - c))


def _mass_and_potential_slope(theta):
    """Generalized mass M(theta) of the linkage in the crank angle, and dV/dtheta."""
    moved = _bodies(theta + 1j * STEP)
    mass = slope = 0.0
    for m, length, (center, along) in zip(MASSES, (A, B, C), moved):
        velocity = center.imag / STEP
        direction, turning = along.real, along.imag / STEP
        rate = (direction[0] * turning[1] - direction[1] * turning[0]) / (direction @ direction)
        mass += m * velocity @ velocity + m * length**2 / 12 * rate**2
        slope += m * G * velocity[1]
    return mass, slope


def _lagrange(t, y, h=1e-5):
    theta, omega = y
    mass, slope = _mass_and_potential_slope(theta)
    dmass = (_mass_and_potential_slope(theta + h)[0] -
             _mass_and_potential_slope(theta - h)[0]) / (2 * h)
    return [omega, -(0.5 * dmass * omega**2 + slope) / mass]


def test_the_swinging_linkage_follows_its_equation_of_motion_and_keeps_its_energy(fmus):
    fmu = fmus.build(MODELS, "FourBar.Swinging")
    result = simulate_fmu(str(fmu), stop_time=2.0, output_interval=0.02,
                          relative_tolerance=1e-9, output=["rev1.phi", "energy", "rockerAngle"])
    t = result["time"]
    reference = solve_ivp(_lagrange, (0, 2), [1.0, 0.0], t_eval=t, rtol=1e-10, atol=1e-12)
    # it swings through the bottom and back: the crank passes below -4 rad
    assert result["rev1.phi"].min() < -4
    assert result["rev1.phi"] == pytest.approx(reference.y[0], abs=2e-7)
    assert result["energy"] == pytest.approx(result["energy"][0], abs=1e-6)
    expected = np.array([rocker_angle(theta) for theta in result["rev1.phi"]])
    assert np.abs(np.angle(np.exp(1j * (result["rockerAngle"] - expected)))).max() < 1e-9
