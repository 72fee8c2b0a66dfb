"""reactor: Robertson kinetics (stiff) in a batch reactor and its cooling jacket as two FMUs,
against scipy's Radau at rtol 1e-10 on the same coupled equations (five states)."""
from __future__ import annotations

import numpy as np
import pytest
from scipy.integrate import solve_ivp

K1, K2, K3, E1, E3, T_REF = 0.04, 3e7, 1e4, 6000.0, 3000.0, 300.0
DH1, V, RHO_CP, UA = -1e5, 1.0, 4e6, 2e5
C_J, G, T_IN = 2e6, 1e5, 295.0
STOP = 100.0


def coupled(t, x):
    a, b, c, temperature, t_j = x
    k1 = K1 * np.exp(-E1 * (1 / temperature - 1 / T_REF))
    k3 = K3 * np.exp(-E3 * (1 / temperature - 1 / T_REF))
    r1, r2, r3 = k1 * a, K2 * b * b, k3 * b * c
    q = UA * (temperature - t_j)
    return [-r1 + r3, r1 - r2 - r3, r2,
            (-DH1 * 1000 * V * (r1 - r3) - q) / (RHO_CP * V), (q + G * (T_IN - t_j)) / C_J]


def jacobian(t, x, h=1e-7):
    """Central differences (scipy's own would use a coarser step)."""
    columns = []
    for k in range(len(x)):
        dx = h * max(abs(x[k]), 1e-6)
        up, down = x.copy(), x.copy()
        up[k] += dx
        down[k] -= dx
        columns.append((np.array(coupled(t, up)) - np.array(coupled(t, down))) / (2 * dx))
    return np.array(columns).T


def reference():
    return solve_ivp(coupled, (0, STOP), [1.0, 0.0, 0.0, 300.0, 300.0], method="Radau",
                     rtol=1e-10, atol=[1e-13, 1e-17, 1e-13, 1e-9, 1e-9], jac=jacobian,
                     dense_output=True)


@pytest.mark.slow  # compiles two models (about 25 s on a loaded machine)
def test_final_concentrations_match_a_stiff_monolithic_reference(run_example):
    values = run_example("reactor", tolerance=1e-10).values
    solution = reference()
    assert solution.success
    a, b, c, temperature, t_j = solution.y[:, -1]
    print(f"A {values['Reactor.A'][-1]:.7g} ({a:.7g}), B {values['Reactor.B'][-1]:.7g} ({b:.7g}),"
          f" C {values['Reactor.C'][-1]:.7g} ({c:.7g}), T {values['Reactor.T'][-1]:.6g} K "
          f"({temperature:.6g} K), peak T {np.max(values['Reactor.T']):.6g} K "
          f"({np.max(solution.sol(values['time'])[3]):.6g} K)")
    assert values["Reactor.A"][-1] == pytest.approx(a, rel=1e-5)
    assert values["Reactor.B"][-1] == pytest.approx(b, rel=1e-5)
    assert values["Reactor.C"][-1] == pytest.approx(c, rel=1e-5)
    assert values["Reactor.T"][-1] == pytest.approx(temperature, abs=1e-3)
    # mass is conserved: A + B + C = 1 throughout
    total = values["Reactor.A"] + values["Reactor.B"] + values["Reactor.C"]
    assert np.max(np.abs(total - 1)) < 1e-8
    # the temperature excursion, where the coupling matters most
    peak_ref = np.max(solution.sol(values["time"])[3])
    assert np.max(values["Reactor.T"]) - 300 == pytest.approx(peak_ref - 300, rel=0.01)
