"""The shared library exports exactly the FMI 3.0 API, and the sparse LU path integrates as
well as the dense one."""
from __future__ import annotations

import re
import subprocess

import numpy as np
import scipy.sparse as sp
from scipy.integrate import solve_ivp

from compiler.fmu.runtime_files import fmi_headers_dir
from tests.runtime.drive import cs_on_grid, scaled_error
from tests.runtime.raw_fmu import OK, RawFmu


def test_exports_all_75_fmi3_functions_and_nothing_else(fmus):
    binary = fmus.extracted("Dahlquist") / "binaries" / "x86_64-linux" / "Dahlquist.so"
    symbols = subprocess.run(["nm", "-D", "--defined-only", str(binary)], capture_output=True, text=True,
                             check=True).stdout
    exported = sorted(line.split()[-1] for line in symbols.splitlines() if line.split()[1] == "T")
    declared = sorted(set(re.findall(r"#define (fmi3\w+) +fmi3FullName", (fmi_headers_dir() / "fmi3Functions.h").read_text())))
    assert len(declared) == 75
    assert exported == declared


def heat_reference(cells: int, times: np.ndarray) -> np.ndarray:
    """T_end of the heat chain by scipy's Radau (rtol 1e-10, sparse analytic Jacobian)."""
    a = float(cells * cells)
    main = np.full(cells, -2 * a)
    main[-1] = -a
    jacobian = sp.diags([np.full(cells - 1, a), main, np.full(cells - 1, a)], [-1, 0, 1], format="csc")
    source = np.zeros(cells)
    source[0] = a * 1.0  # T_left = 1

    def rhs(t, temperature):
        return jacobian @ temperature + source

    solution = solve_ivp(rhs, (0.0, times[-1]), np.zeros(cells), method="Radau", t_eval=times,
                         jac=lambda t, y: jacobian, rtol=1e-10, atol=1e-12)
    return solution.y[-1]


def test_sparse_and_dense_paths_match_scipy(fmus):
    times = np.linspace(0.0, 1.0, 21)
    for cells, expected_path in ((20, "dense LU"), (200, "sparse LU")):
        name = f"HeatChain{cells}"
        values = cs_on_grid(fmus[name], times, ["T_end"], 1e-6)[:, 0]
        assert scaled_error(values, heat_reference(cells, times), 1e-6, 1e-6) <= 1.0, name
        fmu = RawFmu(fmus.extracted(name), logging_on=True)
        fmu.initialize()
        assert fmu.do_step(0.0, 0.1)[0] == OK
        assert any(expected_path in message for message in fmu.messages()), name
        fmu.free()
