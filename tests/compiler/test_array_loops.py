"""Array equations as C loops (issue 19, compiler.codegen.loops): runs of alike scalar
equations become for loops, in the kernels and in the Jacobian's columns; the results are
bitwise those of the scalar code, which is checked against closed forms and scipy."""
from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu
from scipy.integrate import solve_ivp
from scipy.linalg import expm

from compiler.api import flatten_model
from compiler.causalize import causalize
from compiler.codegen import emit_c
from compiler.codegen.loops import Run, Shape, find_runs
from compiler.fmu import package_fmu

MODELS = Path(__file__).parent / "msl_models" / "ArrayLoops.mo"
LOOP = "for (size_t k = 0; k < "
DIFFUSION_CELLS = 12
REACTION_CELLS = 10
PLATE_CELLS = 6


def source(model: str) -> str:
    return emit_c(causalize(flatten_model(MODELS, f"ArrayLoops.{model}"))).source


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """model -> (FMU with loops, FMU of the same equations all scalar)."""
    root = tmp_path_factory.mktemp("array-loops")
    fmus = {}
    for model in ("Diffusion", "Reaction", "Plate", "Alternating"):
        system = causalize(flatten_model(MODELS, f"ArrayLoops.{model}"))
        pair = []
        for looped in (True, False):
            emitted = emit_c(system, loops=looped)
            path = root / f"{model}_{'loops' if looped else 'scalar'}.fmu"
            packaged = package_fmu(emitted.interface, emitted.source, path,
                                   object_cache=root / "objects")
            assert not packaged.compiler_warnings   # generated C compiles warning-free
            pair.append(path)
        fmus[model] = tuple(pair)
    return fmus


def simulate(fmu: Path, names: list[str], stop: float, kind: str) -> np.ndarray:
    result = simulate_fmu(str(fmu), fmi_type=kind, stop_time=stop, output_interval=stop / 50,
                          relative_tolerance=1e-9, output=names)
    return np.array([result[name] for name in names])


def model_c(fmu: Path) -> str:
    with zipfile.ZipFile(fmu) as archive:
        return archive.read("sources/model.c").decode()


def grid(n: int) -> list[str]:
    return [f"T[{i},{j}]" for i in range(1, n + 1) for j in range(1, n + 1)]


def cells(prefix: str, n: int) -> list[str]:
    return [f"{prefix}[{i}]" for i in range(1, n + 1)]


# ------------------------------------------------------------------------------ the text
def test_alike_equations_are_loops_and_the_code_does_not_grow_with_the_cells():
    short, long = source("Diffusion"), source("LongDiffusion")
    assert LOOP + "10; k++)" in short     # q[2..n] and der(T[2..n-1]): the ends stay scalar
    assert LOOP + "198; k++)" in long
    assert "values[" in long and "* k] =" in long   # the Jacobian's columns too
    assert abs(len(long) - len(short)) < 100        # 200 cells: no more text than 12


def test_interleaved_equations_loop_in_pairs_and_start_values_become_a_table():
    text = source("Reaction")
    assert f"{REACTION_CELLS - 2} x 2 equations as a loop" in text    # der(u[i]), der(v[i])
    assert f"static const double l1_values[{2 * REACTION_CELLS}]" in text
    assert "R(der_u_1) =" in text and f"R(der_v_{REACTION_CELLS}) =" in text   # the ends


def test_the_inner_rows_of_a_grid_are_a_loop_of_loops():
    text = source("Plate")
    inner = PLATE_CELLS - 2
    assert f"{inner} x (2 + {inner} x 1) equations as a loop" in text   # rows 2..n-1
    assert "for (size_t j = 0; j < " in text and "+ 6 * j + k]" in text


def shaped(key: str, *offsets: int) -> Shape:
    return Shape((key,), tuple(f"x{k}" for k in range(len(offsets))), offsets)


def test_a_run_needs_strides_that_stay_the_same():
    items = list(range(7))
    shapes = [shaped("a", 0, 5), shaped("a", 1, 6), shaped("a", 2, 7), shaped("a", 3, 8),
              shaped("a", 4, 10), shaped("b", 5, 11), None]
    grouped = find_runs(items, shapes)[0]
    assert type(grouped[0]) is Run and grouped[0].items == (0, 1, 2, 3)
    assert grouped[0].strides == {"x0": 1, "x1": 1}
    assert grouped[1:] == [4, 5, 6]
    # a constant that changes from one repetition to the next cannot share a loop with an
    # equation: only runs of constants alone become tables
    table = [Shape(("table", "Real", "r"), ("c",), (k,)) for k in range(6)]
    mixed = [item for pair in zip(table, [shaped("a", 10 + k) for k in range(6)]) for item in pair]
    assert find_runs(list(range(12)), mixed)[0] == list(range(12))
    # one name read with two strides is not one equation
    twice = [Shape(("a",), ("x", "x"), (k, 2 * k)) for k in range(6)]
    assert find_runs(list(range(6)), twice)[0] == list(range(6))


# --------------------------------------------------------------------------- the numbers
@pytest.mark.parametrize("kind", ["CoSimulation", "ModelExchange"])
def test_loops_give_bitwise_the_results_of_the_scalar_code(built, kind):
    for model, names, stop in (("Diffusion", cells("T", DIFFUSION_CELLS), 1.0),
                               ("Reaction", cells("u", REACTION_CELLS) + cells("v", REACTION_CELLS), 2.0),
                               ("Plate", grid(PLATE_CELLS), 1.0)):
        looped, scalar = built[model]
        assert LOOP in model_c(looped) and LOOP not in model_c(scalar)
        assert np.array_equal(simulate(looped, names, stop, kind), simulate(scalar, names, stop, kind))


def test_diffusion_matches_its_closed_form(built):
    n, k, left = DIFFUSION_CELLS, 0.5, 1.0
    # dT/dt = A T + b: T(t) = T* + expm(A t) (T(0) - T*), T* = -A^-1 b
    a = np.zeros((n, n))
    for i in range(n):
        a[i, i] = -2.0 if i < n - 1 else -1.0
        if i > 0:
            a[i, i - 1] = 1.0
        if i < n - 1:
            a[i, i + 1] = 1.0
    a *= k * n * n
    b = np.zeros(n)
    b[0] = k * n * n * left
    steady = -np.linalg.solve(a, b)
    times = np.linspace(0.0, 1.0, 51)
    exact = np.array([steady + expm(a * t) @ (np.zeros(n) - steady) for t in times]).T
    ours = simulate(built["Diffusion"][0], cells("T", n), 1.0, "CoSimulation")
    assert np.max(np.abs(ours - exact)) < 1e-6


def test_reaction_matches_scipy(built):
    n = REACTION_CELLS
    c = 0.02 * n * n

    def rhs(_t, y):
        u, v = y[:n], y[n:]
        lap_u = np.concatenate([[u[1] - u[0]], u[2:] - 2 * u[1:-1] + u[:-2], [u[-2] - u[-1]]])
        lap_v = np.concatenate([[v[1] - v[0]], v[2:] - 2 * v[1:-1] + v[:-2], [v[-2] - v[-1]]])
        return np.concatenate([1 + u * u * v - 4 * u + c * lap_u, 3 * u - u * u * v + c * lap_v])

    start = np.concatenate([1 + 0.5 * np.sin(2 * np.pi * np.arange(1, n + 1) / n), np.full(n, 3.0)])
    times = np.linspace(0.0, 2.0, 51)
    reference = solve_ivp(rhs, (0.0, 2.0), start, method="Radau", t_eval=times, rtol=1e-11,
                          atol=1e-11).y
    ours = simulate(built["Reaction"][0], cells("u", n) + cells("v", n), 2.0, "CoSimulation")
    assert np.max(np.abs(ours - reference) / (1 + np.abs(reference))) < 1e-6


def test_plate_matches_its_closed_form(built):
    n, k = PLATE_CELLS, 0.3
    # dT/dt = A T, A the 5-point Laplacian with mirrored edges: T(t) = expm(A t) T(0)
    one = np.diag(-2.0 * np.ones(n)) + np.diag(np.ones(n - 1), 1) + np.diag(np.ones(n - 1), -1)
    one[0, 0] = one[-1, -1] = -1.0
    a = k * (np.kron(one, np.eye(n)) + np.kron(np.eye(n), one))
    start = np.array([i + 0.1 * j * j for i in range(1, n + 1) for j in range(1, n + 1)])
    times = np.linspace(0.0, 1.0, 51)
    exact = np.array([expm(a * t) @ start for t in times]).T
    ours = simulate(built["Plate"][0], grid(n), 1.0, "CoSimulation")
    assert np.max(np.abs(ours - exact)) < 1e-6


def test_start_values_in_a_table_match_the_closed_form(built):
    n = 8
    assert "static const int32_t l1_values[8] = {1, 4, 9, 16, 25, 36, 49, 64};" in source("Alternating")
    ours = simulate(built["Alternating"][0], cells("x", n), 1.0, "CoSimulation")
    times = np.linspace(0.0, 1.0, 51)
    exact = np.array([[(i * i) * np.exp(-t) for t in times] for i in range(1, n + 1)])
    assert np.max(np.abs(ours - exact) / exact) < 1e-6
