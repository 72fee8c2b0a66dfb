"""The sparse LU of the runtime (fmu_templates/sparse_lu.c) against numpy's dense solver."""
from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.linalg import splu
from cffi import FFI

from compiler.fmu.runtime_files import template_dir

SHIM = """
int solve_real(size_t n, const size_t *start, const size_t *rows, const double *values, double *b);
int solve_complex(size_t n, const size_t *start, const size_t *rows, const double *values, double *b);
int order_of(size_t n, const size_t *start, const size_t *rows, size_t *order);
int solve_sequence_real(size_t n, const size_t *start, const size_t *rows, size_t count, const double *values,
                        double *b);
int solve_sequence_complex(size_t n, const size_t *start, const size_t *rows, size_t count, const double *values,
                           double *b);
int solve_complex_after_real(size_t n, const size_t *start, const size_t *rows, const double *real_values,
                             const double *values, double *b);
"""


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    target = tmp_path_factory.mktemp("sparse") / "libsparse.so"
    here = template_dir()
    subprocess.run(["gcc", "-std=c99", "-O2", "-fPIC", "-shared", "-Wall", "-Wextra", "-Wpedantic", "-Werror",
                    f"-I{here}", str(here / "sparse_lu.c"), str(Path(__file__).with_name("sparse_lu_shim.c")),
                    "-o", str(target), "-lm"], check=True)
    ffi = FFI()
    ffi.cdef(SHIM)
    return ffi, ffi.dlopen(str(target))


def solve(lib, matrix: sp.csc_matrix, b: np.ndarray) -> tuple[int, np.ndarray]:
    ffi, library = lib
    matrix = sp.csc_matrix(matrix)
    matrix.sort_indices()
    start = np.ascontiguousarray(matrix.indptr, dtype=np.uintp)
    rows = np.ascontiguousarray(matrix.indices, dtype=np.uintp)
    complex_case = np.iscomplexobj(matrix.data) or np.iscomplexobj(b)
    values = np.ascontiguousarray(matrix.data, dtype=complex if complex_case else float)
    x = np.array(b, dtype=complex if complex_case else float)
    function = library.solve_complex if complex_case else library.solve_real
    status = function(matrix.shape[0], ffi.cast("size_t *", start.ctypes.data), ffi.cast("size_t *", rows.ctypes.data),
                      ffi.cast("double *", values.ctypes.data), ffi.cast("double *", x.ctypes.data))
    return status, x


def random_sparse(n: int, density: float, seed: int, dtype=float) -> sp.csc_matrix:
    rng = np.random.default_rng(seed)
    matrix = sp.random(n, n, density=density, random_state=rng, format="csc")
    if dtype is complex:
        matrix = matrix + 1j * sp.random(n, n, density=density, random_state=rng, format="csc")
    return sp.csc_matrix(matrix + sp.identity(n) * n * density * 2)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("dtype", [float, complex])
def test_random_systems(lib, seed, dtype):
    matrix = random_sparse(120, 0.03, seed, dtype)
    b = np.random.default_rng(seed + 100).normal(size=120)
    status, x = solve(lib, matrix, b)
    assert status == 0
    assert np.allclose(x, np.linalg.solve(matrix.toarray(), b), rtol=1e-10, atol=1e-12)


def test_zero_diagonal_needs_pivoting(lib):
    """A permutation-like matrix: every diagonal entry is zero, so rows must be exchanged."""
    n = 60
    rng = np.random.default_rng(7)
    perm = rng.permutation(n)
    while np.any(perm == np.arange(n)):
        perm = rng.permutation(n)
    matrix = sp.csc_matrix((rng.uniform(1, 2, n), (np.arange(n), perm)), shape=(n, n))
    matrix = matrix + sp.csc_matrix((np.full(n - 1, 0.1), (np.arange(1, n), np.arange(n - 1))), shape=(n, n))
    dense = matrix.toarray()
    assert np.all(np.diag(dense) == 0) or np.count_nonzero(np.diag(dense)) < n
    b = rng.normal(size=n)
    status, x = solve(lib, matrix, b)
    assert status == 0
    assert np.allclose(dense @ x, b, rtol=1e-10, atol=1e-10)


def test_singular_matrix_is_reported(lib):
    matrix = sp.csc_matrix(np.array([[1.0, 2.0, 0.0], [2.0, 4.0, 0.0], [0.0, 0.0, 1.0]]))
    status, _ = solve(lib, matrix, np.ones(3))
    assert status > 0


def test_minimum_degree_eliminates_the_hub_last(lib):
    """An arrow matrix (one dense row and column): eliminating the hub first would fill
    everything, minimum degree leaves it for last."""
    n = 30
    dense = np.eye(n) * 4
    dense[0, :] = dense[:, 0] = 1.0
    dense[0, 0] = 4.0
    matrix = sp.csc_matrix(dense)
    ffi, library = lib
    order = np.zeros(n, dtype=np.uintp)
    start = np.ascontiguousarray(matrix.indptr, dtype=np.uintp)
    rows = np.ascontiguousarray(matrix.indices, dtype=np.uintp)
    assert library.order_of(n, ffi.cast("size_t *", start.ctypes.data), ffi.cast("size_t *", rows.ctypes.data),
                            ffi.cast("size_t *", order.ctypes.data)) == 0
    assert sorted(order) == list(range(n))
    assert order[-1] == 0 or order[-2] == 0
    status, x = solve(lib, matrix, np.arange(n, dtype=float))
    assert status == 0 and np.allclose(dense @ x, np.arange(n))


def solve_sequence(lib, matrices: list[sp.csc_matrix], rhs: list[np.ndarray]) -> tuple[int, list[np.ndarray]]:
    """Factor matrices of one pattern in turn with one factorization object (the runtime's
    way: Newton matrices of new values, the same pattern) and solve each one's right side."""
    ffi, library = lib
    first = sp.csc_matrix(matrices[0])
    first.sort_indices()
    start = np.ascontiguousarray(first.indptr, dtype=np.uintp)
    rows = np.ascontiguousarray(first.indices, dtype=np.uintp)
    complex_case = any(np.iscomplexobj(m.data) for m in matrices)
    dtype = complex if complex_case else float
    values = []
    for matrix in matrices:
        matrix = sp.csc_matrix(matrix, dtype=dtype)
        matrix.sort_indices()
        assert np.array_equal(matrix.indptr, first.indptr) and np.array_equal(matrix.indices, first.indices)
        values.append(matrix.data)
    values = np.ascontiguousarray(np.concatenate(values))
    x = np.ascontiguousarray(np.concatenate(rhs).astype(dtype))
    function = library.solve_sequence_complex if complex_case else library.solve_sequence_real
    status = function(first.shape[0], ffi.cast("size_t *", start.ctypes.data), ffi.cast("size_t *", rows.ctypes.data),
                      len(matrices), ffi.cast("double *", values.ctypes.data), ffi.cast("double *", x.ctypes.data))
    n = first.shape[0]
    return status, [x[k * n:(k + 1) * n] for k in range(len(matrices))]


@pytest.mark.parametrize("dtype", [float, complex])
def test_later_factorizations_of_one_pattern(lib, dtype):
    """New values on one pattern: mild changes keep the first pivots (the factorization
    reuses them), a change that makes a kept pivot too small (a diagonal entry that falls to
    1e-8 of its column) needs new ones, a matrix that is singular on its first pivots but
    not otherwise needs a search anew; every solution agrees with numpy's."""
    rng = np.random.default_rng(11)
    base = random_sparse(150, 0.03, 3, dtype)
    base.sort_indices()
    matrices = [base]
    for scale in (1.1, 0.7, 2.0):   # the Newton matrix I - h J with other h
        matrices.append(sp.csc_matrix(base * scale + sp.identity(150) * (1 - scale), dtype=base.dtype))
    weak = base.copy()
    diagonal = np.flatnonzero(weak.indices == np.repeat(np.arange(150), np.diff(weak.indptr)))
    weak.data[diagonal[40]] = 1e-8   # row 40's diagonal entry: no longer a pivot
    matrices.append(weak)
    swapped = base.copy()
    swapped.data[diagonal] = 0.0     # every diagonal zero: pivots elsewhere or singular
    swapped.data[diagonal[::2]] = 1.0
    matrices += [swapped, base]
    rhs = [rng.normal(size=150) for _ in matrices]
    dense = [m.toarray() for m in matrices]
    singular = [np.linalg.matrix_rank(d) < 150 for d in dense]
    if any(singular):
        keep = [k for k, s in enumerate(singular) if not s]
        matrices, rhs, dense = [matrices[k] for k in keep], [rhs[k] for k in keep], [dense[k] for k in keep]
    status, solutions = solve_sequence(lib, matrices, rhs)
    assert status == 0
    for matrix, b, x in zip(dense, rhs, solutions):
        assert np.allclose(matrix @ x, b, rtol=1e-9, atol=1e-9)


def test_pivots_kept_across_factorizations_still_solve_a_tridiagonal_system(lib):
    """The runtime's common case: a heat rod's Newton matrix I - h gamma J for many h."""
    n = 400
    laplacian = sp.diags([np.ones(n - 1), -2 * np.ones(n), np.ones(n - 1)], [-1, 0, 1], format="csc") * n * n
    matrices = [sp.csc_matrix(sp.identity(n) - h * laplacian) for h in (1e-3, 1e-4, 3e-2, 1e-6, 1.0)]
    rhs = [np.sin(np.arange(n) * (k + 1)) for k in range(len(matrices))]
    status, solutions = solve_sequence(lib, matrices, rhs)
    assert status == 0
    for matrix, b, x in zip(matrices, rhs, solutions):
        assert np.allclose(matrix @ x, b, rtol=1e-10, atol=1e-10)


def grid_pattern(k: int, species: int) -> sp.csc_matrix:
    """The Jacobian pattern of a reaction-diffusion system on a k x k grid: each species
    diffuses to the 4 neighbours of its cell (5-point stencil) and reacts with the other
    species of the same cell; the states numbered species by species, as the compiler does."""
    path = sp.diags([1.0, 1.0, 1.0], [-1, 0, 1], shape=(k, k))
    grid = sp.kron(path, sp.identity(k)) + sp.kron(sp.identity(k), path)
    return sp.csc_matrix((sp.kron(sp.identity(species), grid) + sp.kron(np.ones((species, species)),
                                                                          sp.identity(k * k)) > 0).astype(float))


def order_of(lib, pattern: sp.csc_matrix) -> np.ndarray:
    ffi, library = lib
    pattern = sp.csc_matrix(pattern)
    pattern.sort_indices()
    order = np.zeros(pattern.shape[0], dtype=np.uintp)
    start = np.ascontiguousarray(pattern.indptr, dtype=np.uintp)
    rows = np.ascontiguousarray(pattern.indices, dtype=np.uintp)
    assert library.order_of(pattern.shape[0], ffi.cast("size_t *", start.ctypes.data),
                            ffi.cast("size_t *", rows.ctypes.data), ffi.cast("size_t *", order.ctypes.data)) == 0
    return order.astype(int)


def factor_fill(matrix: sp.csc_matrix, permutation: str, order=None) -> int:
    """Entries of L + U (the diagonal once) of SuperLU's factors on diagonal pivots, in the given
    symmetric order (permc_spec NATURAL) or SuperLU's own fill-reducing one."""
    if order is not None:
        matrix = matrix[order][:, order]
    factors = splu(sp.csc_matrix(matrix), permc_spec=permutation, diag_pivot_thresh=0.0,
                   options=dict(SymmetricMode=True))
    return factors.L.nnz + factors.U.nnz - matrix.shape[0]


@pytest.mark.parametrize("k, species", [(12, 1), (24, 1), (16, 2), (32, 2)])
def test_multiple_minimum_degree_fill_on_grids(lib, k, species):
    """The order on 2-D grid patterns (the Newton matrices of discretized PDEs): a permutation
    whose fill is far below the band (natural) order's and COLAMD's, and within 5% of
    SuperLU's multiple minimum degree on A + A^T (on the 32 x 32 two-species grid: 3.7% above
    it; the one-at-a-time minimum degree by plain degree this replaced was 11.5% above, the
    multiple elimination without external degrees 6.5%)."""
    pattern = grid_pattern(k, species)
    n = pattern.shape[0]
    order = order_of(lib, pattern)
    assert sorted(order) == list(range(n))
    matrix = sp.csc_matrix(sp.identity(n) * 10.0 - pattern * 0.5)   # diagonally dominant
    ours = factor_fill(matrix, "NATURAL", order)
    assert ours < factor_fill(matrix, "NATURAL")
    assert ours < factor_fill(matrix, "COLAMD")
    assert ours <= 1.05 * factor_fill(matrix, "MMD_AT_PLUS_A")


@pytest.mark.parametrize("h", [1e-3, 3e-2, 1.0])
def test_complex_newton_matrix_of_a_grid_against_numpy(lib, h):
    """Radau's complex Newton matrix (alpha + i beta)/h I - J on a two-species grid Jacobian,
    factored on the order and solved, against numpy's dense complex solver."""
    alpha, beta = 2.681082873627752133896, 3.050430199247410569426
    pattern = grid_pattern(10, 2)
    n = pattern.shape[0]
    rng = np.random.default_rng(5)
    jacobian = sp.csc_matrix(pattern.multiply(rng.uniform(-50.0, 50.0, size=pattern.shape)))
    matrix = sp.csc_matrix(sp.identity(n) * ((alpha + 1j * beta) / h) - jacobian)
    b = rng.normal(size=n) + 1j * rng.normal(size=n)
    status, x = solve(lib, matrix, b)
    assert status == 0
    expected = np.linalg.solve(matrix.toarray(), b)
    assert np.allclose(x, expected, rtol=1e-12, atol=1e-12 * np.abs(expected).max())


@pytest.mark.parametrize("seed", range(4))
def test_order_is_a_permutation_on_unsymmetric_and_blocked_patterns(lib, seed):
    """Random unsymmetric patterns (some with empty off-diagonal columns) and a grid whose cells
    hold three fully coupled states (groups of indistinguishable vertices, eliminated together):
    the order is a permutation and the factors solve against numpy."""
    rng = np.random.default_rng(seed)
    blocked = sp.kron(grid_pattern(6 + seed, 1), np.ones((3, 3)))
    for pattern in (sp.random(200, 200, density=0.01 * (seed + 1), random_state=rng) + sp.identity(200), blocked):
        pattern = sp.csc_matrix((pattern != 0).astype(float))
        n = pattern.shape[0]
        assert sorted(order_of(lib, pattern)) == list(range(n))
        matrix = sp.csc_matrix(pattern.multiply(rng.uniform(-1.0, 1.0, size=pattern.shape)) + sp.identity(n) * 20.0)
        b = rng.normal(size=n)
        status, x = solve(lib, matrix, b)
        assert status == 0
        assert np.allclose(x, np.linalg.solve(matrix.toarray(), b), rtol=1e-11, atol=1e-12)


@pytest.mark.parametrize("h", [1e-3, 3e-2, 1.0])
@pytest.mark.parametrize("zero_diagonal", [False, True])
def test_complex_factorization_on_the_real_ones_structure(lib, h, zero_diagonal):
    """Radau's two Newton matrices: the complex one (alpha + i beta)/h I - J starts from the
    pivots and patterns of the real one U1/h I - J (no graph search), and still solves against
    numpy; where the complex matrix's diagonal pivots fail (every second diagonal entry of J
    cancelling the complex shift's real part, with a tiny imaginary remainder) it searches anew."""
    u1, alpha, beta = 3.637834252744495732208, 2.681082873627752133896, 3.050430199247410569426
    pattern = grid_pattern(8, 2)
    n = pattern.shape[0]
    rng = np.random.default_rng(9)
    jacobian = sp.lil_matrix(pattern.multiply(rng.uniform(-50.0, 50.0, size=pattern.shape)))
    shift = (alpha + 1j * beta) / h
    if zero_diagonal:
        for i in range(0, n, 2):
            jacobian[i, i] = shift.real
    jacobian = sp.csc_matrix(jacobian)
    real = sp.csc_matrix(sp.identity(n) * (u1 / h) - jacobian)
    complex_matrix = sp.csc_matrix(sp.identity(n) * shift - jacobian
                                   - sp.identity(n) * (1j * (beta / h) * (1 - 1e-9) if zero_diagonal else 0.0))
    for matrix in (real, complex_matrix):
        matrix.sort_indices()
    assert np.array_equal(real.indices, complex_matrix.indices)
    b = rng.normal(size=n) + 1j * rng.normal(size=n)
    ffi, library = lib
    start = np.ascontiguousarray(real.indptr, dtype=np.uintp)
    rows = np.ascontiguousarray(real.indices, dtype=np.uintp)
    real_values = np.ascontiguousarray(real.data, dtype=float)
    values = np.ascontiguousarray(complex_matrix.data, dtype=complex)
    x = b.copy()
    status = library.solve_complex_after_real(n, ffi.cast("size_t *", start.ctypes.data),
                                              ffi.cast("size_t *", rows.ctypes.data),
                                              ffi.cast("double *", real_values.ctypes.data),
                                              ffi.cast("double *", values.ctypes.data), ffi.cast("double *", x.ctypes.data))
    assert status == 0
    expected = np.linalg.solve(complex_matrix.toarray(), b)
    assert np.allclose(x, expected, rtol=1e-10, atol=1e-10 * np.abs(expected).max())
