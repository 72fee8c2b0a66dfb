"""Large sparse stiff problems written in Modelica with arrays, with the same equations in
numpy for the peers: a 2-D Brusselator on an N x N grid (no-flux boundaries) and a heat rod of
n cells. Each ``Case`` names the FMU's states and an order of them with a narrow band (for
CVODE's band solver), and gives the Jacobian's sparsity (for scipy's BDF)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
from scipy.sparse import diags, identity, kron

BRUSSELATOR = """model Brusselator2D "Brusselator on an N x N grid, no-flux boundaries"
  parameter Integer N = {n};
  parameter Real alpha = 0.1;
  parameter Real c = alpha*N^2 "alpha / dx^2";
  Real u[N, N];
  Real v[N, N];
initial equation
  for i in 1:N loop
    for j in 1:N loop
      u[i, j] = 22*(j/N)*(1 - j/N)^1.5;
      v[i, j] = 27*(i/N)*(1 - i/N)^1.5;
    end for;
  end for;
equation
  for i in 1:N loop
    for j in 1:N loop
      der(u[i, j]) = 1 + u[i, j]^2*v[i, j] - 4.4*u[i, j] + c*(u[min(i + 1, N), j] + u[max(i - 1, 1), j]
        + u[i, min(j + 1, N)] + u[i, max(j - 1, 1)] - 4*u[i, j]);
      der(v[i, j]) = 3.4*u[i, j] - u[i, j]^2*v[i, j] + c*(v[min(i + 1, N), j] + v[max(i - 1, 1), j]
        + v[i, min(j + 1, N)] + v[i, max(j - 1, 1)] - 4*v[i, j]);
    end for;
  end for;
  annotation(experiment(StopTime = {stop}));
end Brusselator2D;
"""
BRUSSELATOR_STOP = 11.5

ROD = """model Rod "heat rod of n cells, held at T_left on the left, insulated on the right"
  parameter Integer n = {n};
  parameter Real a = 1e-2 "diffusivity";
  parameter Real dx = 1/n;
  parameter Real T_left = 1;
  Real T[n](each start = 0, each fixed = true);
equation
  der(T[1]) = a/dx^2*(T_left - 2*T[1] + T[2]);
  for i in 2:n - 1 loop
    der(T[i]) = a/dx^2*(T[i - 1] - 2*T[i] + T[i + 1]);
  end for;
  der(T[n]) = a/dx^2*(T[n - 1] - T[n]);
  annotation(experiment(StopTime = {stop}));
end Rod;
"""
ROD_STOP = 10.0


@dataclass
class Case:
    """One model: its Modelica text, states in FMU order, the band order for CVODE, numpy rhs."""

    name: str
    modelica: str
    stop: float
    state_names: tuple[str, ...]     # the FMU's states, also scipy's vector order
    band_order: tuple[str, ...]      # the same states ordered for a narrow band
    bandwidth: int
    rhs: Callable
    y0: np.ndarray
    sparsity: object


def brusselator(n: int) -> Case:
    c = 0.1 * n * n
    cells = [f"[{i},{j}]" for i in range(1, n + 1) for j in range(1, n + 1)]

    def laplacian(w):
        p = np.pad(w, 1, mode="edge")
        return p[2:, 1:-1] + p[:-2, 1:-1] + p[1:-1, 2:] + p[1:-1, :-2] - 4 * w

    def rhs(t, y):
        u, v = y[:n * n].reshape(n, n), y[n * n:].reshape(n, n)
        uuv = u * u * v
        return np.concatenate([(1 + uuv - 4.4 * u + c * laplacian(u)).ravel(),
                               (3.4 * u - uuv + c * laplacian(v)).ravel()])

    x = np.arange(1, n + 1) / n
    u0 = np.tile(22 * x * (1 - x) ** 1.5, (n, 1))
    v0 = np.tile((27 * x * (1 - x) ** 1.5)[:, None], (1, n))
    path = diags([1.0, 1.0, 1.0], [-1, 0, 1], shape=(n, n))
    grid = (kron(path, identity(n)) + kron(identity(n), path) > 0).astype(float)
    sparsity = kron(np.ones((2, 2)), grid) + identity(2 * n * n)
    return Case(f"Brusselator2D N={n}", BRUSSELATOR.format(n=n, stop=BRUSSELATOR_STOP), BRUSSELATOR_STOP,
                tuple(f"u{c_}" for c_ in cells) + tuple(f"v{c_}" for c_ in cells),
                tuple(name for c_ in cells for name in (f"u{c_}", f"v{c_}")), 2 * n, rhs,
                np.concatenate([u0.ravel(), v0.ravel()]), sparsity.tocsc())


def rod(n: int) -> Case:
    k = 1e-2 * n * n

    def rhs(t, y):
        left = np.concatenate([[1.0], y[:-1]])
        right = np.concatenate([y[1:], [y[-1]]])
        return k * (left - 2 * y + right)

    return Case(f"Rod n={n}", ROD.format(n=n, stop=ROD_STOP), ROD_STOP, tuple(f"T[{i}]" for i in range(1, n + 1)),
                tuple(f"T[{i}]" for i in range(1, n + 1)), 1, rhs, np.zeros(n),
                diags([1.0, 1.0, 1.0], [-1, 0, 1], shape=(n, n)).tocsc())
