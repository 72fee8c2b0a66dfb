"""LAPACK routines the reference interpreter runs through scipy: the bodies of external
"FORTRAN 77" functions such as ``Modelica.Math.Matrices.LAPACK.dgelsy_vec`` (MLS 12.9).

Input: the arguments of the external call in the routine's Fortran order, arrays as numpy
arrays indexed as in Modelica. Output: the new values of the arguments the routine writes,
by position in the call (Fortran passes every argument by reference). Only routines listed
in ``ROUTINES`` are run; any other external function stays refused.
"""
from __future__ import annotations

import numpy as np

from compiler.interp.errors import SimulationError


def _dgelsy(m, n, nrhs, a, lda, b, ldb, jpvt, rcond, rank, work, lwork, info):
    """Minimum-norm least squares solution of A X = B (A m x n, possibly rank deficient) by
    a complete orthogonal factorization; B (ldb x nrhs) is overwritten by X."""
    from scipy.linalg import lapack
    m, n, nrhs, lda, ldb = (int(value) for value in (m, n, nrhs, lda, ldb))
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.shape != (m, n) or lda != m or b.size != ldb * nrhs or ldb < max(m, n):
        raise SimulationError("dgelsy called with sizes the reference interpreter does not "
                              f"support (A {a.shape}, lda {lda}, B {b.shape}, ldb {ldb})")
    factors, solution, pivots, found_rank, status = lapack.dgelsy(
        a, b.reshape(ldb, nrhs), np.asarray(jpvt, dtype=np.int32), float(rcond),
        max(int(lwork), 1))
    return {3: factors, 5: solution.reshape(b.shape), 7: pivots.astype(int),
            9: int(found_rank), 12: int(status)}


# Fortran name -> the routine, taking the call's arguments and returning those it writes
ROUTINES = {"dgelsy": _dgelsy}


def routine(external) -> str | None:
    """The name under which the interpreter runs ``external`` (a ``flat.ExternalCall``), or
    None when it cannot."""
    if external.language.startswith("FORTRAN") and external.function in ROUTINES \
            and not external.output:
        return f"_fortran_{external.function}"
    return None


HELPERS = {f"_fortran_{name}": function for name, function in ROUTINES.items()}
