"""CVODE in C on a compiled FMU (tools/cvode_fmu.c), for the benchmarks that compare our
integrator with it. The driver is compiled on first use against the SUNDIALS libraries that
the scikit-sundae wheel ships (the bench extra); nothing here is needed at run time."""
from __future__ import annotations

import ctypes
import functools
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from fmpy import extract, read_model_description

ROOT = Path(__file__).resolve().parents[1]
SUNDIALS = ("core", "nvecserial", "sunmatrixdense", "sunmatrixband", "sunlinsoldense",
            "sunlinsolband", "cvode")


@dataclass
class CvodeRun:
    seconds: float
    final: np.ndarray
    steps: int
    f_evals: int      # including those of difference-quotient Jacobians
    jacobians: int
    lu: int           # linear solver setups (factorizations)


@functools.lru_cache(maxsize=1)
def _driver() -> ctypes.CDLL:
    try:
        import sksundae
    except ImportError:  # pragma: no cover - the bench extra
        raise SystemExit("the CVODE peer needs scikit-sundae: pip install .[bench]") from None
    from compiler.fmu.runtime_files import fmi_headers_dir
    libs = Path(sksundae.__file__).resolve().parent.parent / "scikit_sundae.libs"
    found = [next(libs.glob(f"libsundials_{name}-*.so*")) for name in SUNDIALS]
    target = Path(tempfile.mkdtemp(prefix="cvode-peer-")) / "cvode_fmu.so"
    subprocess.run(["gcc", "-std=gnu99", "-O2", "-fPIC", "-shared", "-Wall", f"-I{fmi_headers_dir()}",
                    str(ROOT / "tools" / "cvode_fmu.c"), "-o", str(target), *map(str, found),
                    f"-Wl,-rpath,{libs}", "-ldl"], check=True)
    library = ctypes.CDLL(str(target))
    library.cvode_fmu.restype = ctypes.c_int
    return library


class CvodeOnFmu:
    """CVODE on the Model Exchange interface of ``fmu``, its state vector in the order of
    ``state_names`` (which may differ from the FMU's: a band solver wants a narrow band)."""

    def __init__(self, fmu: Path, state_names):
        description = read_model_description(fmu)
        unzipped = Path(extract(fmu))
        identifier = description.modelExchange.modelIdentifier
        self.binary = str(unzipped / "binaries" / "x86_64-linux" / f"{identifier}.so").encode()
        self.token = description.guid.encode()
        by_name = {v.name: v for v in description.modelVariables}
        derivatives = {u.variable.derivative.name: u.variable.valueReference for u in description.derivatives}
        self.n = len(state_names)
        vrs = ctypes.c_uint32 * self.n
        self.state_vrs = vrs(*[by_name[name].valueReference for name in state_names])
        self.derivative_vrs = vrs(*[derivatives[name] for name in state_names])
        position = {u.variable.derivative.name: k for k, u in enumerate(description.derivatives)}
        self.order = (ctypes.c_size_t * self.n)(*[position[name] for name in state_names])

    def run(self, t0: float, t1: float, rtol: float, atol: np.ndarray, band: int = -1) -> CvodeRun:
        y = np.zeros(self.n)
        stats = (ctypes.c_long * 4)()
        seconds = ctypes.c_double()
        tolerances = np.ascontiguousarray(atol, dtype=float)
        double_p = ctypes.POINTER(ctypes.c_double)
        started = time.perf_counter()
        flag = _driver().cvode_fmu(self.binary, self.token, ctypes.c_size_t(self.n), self.state_vrs,
                                   self.derivative_vrs, self.order, ctypes.c_double(t0), ctypes.c_double(t1),
                                   ctypes.c_double(rtol), tolerances.ctypes.data_as(double_p), ctypes.c_int(band),
                                   y.ctypes.data_as(double_p), stats, ctypes.byref(seconds))
        if flag != 0:
            raise RuntimeError(f"CVODE failed ({flag}) after {time.perf_counter() - started:.1f} s")
        return CvodeRun(seconds.value, y, *stats)
