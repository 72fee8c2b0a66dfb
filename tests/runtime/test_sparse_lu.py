"""The sparse LU of the runtime (fmu_templates/sparse_lu.c) against numpy's dense solver."""
from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from cffi import FFI

from compiler.fmu.runtime_files import template_dir

SHIM = """
int solve_real(size_t n, const size_t *start, const size_t *rows, const double *values, double *b);
int solve_complex(size_t n, const size_t *start, const size_t *rows, const double *values, double *b);
int order_of(size_t n, const size_t *start, const size_t *rows, size_t *order);
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
