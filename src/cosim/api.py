"""The Python API of cosim: one function per CLI verb, with the same arguments.

``info`` and ``validate`` read SSP targets; ``run`` simulates an SSP or an FMU.
"""
from __future__ import annotations

import os

from typing import Mapping

from cosim.master import RunResult, Settings, simulate
from cosim.ssp.fmu_check import check_fmus
from cosim.ssp.loader import read
from cosim.ssp.model import SystemStructure
from cosim.ssp.parameters import resolve_parameters
from cosim.ssp.report import Info, ValidationReport


def info(path: str | os.PathLike, variant: str | None = None, strict: bool = False) -> Info:
    """Components, connectors, connections, resolved parameters and experiment of ``path``.

    ``path`` is an ``.ssp`` archive, an unpacked SSP folder, or an ``.ssd``, ``.ssv``, ``.ssm``
    or ``.ssb`` file; ``variant`` names a variant SSD; ``strict`` raises the first problem.
    """
    document, diagnostics = read(path, variant, strict)
    parameters = resolve_parameters(document)[0] if isinstance(document, SystemStructure) else ()
    return Info(document, parameters, diagnostics)


def validate(path: str | os.PathLike, variant: str | None = None, strict: bool = False,
             schema_dir: str | os.PathLike | None = None) -> ValidationReport:
    """Schema, semantic and FMU-interface problems of ``path``.

    ``schema_dir`` is a folder of SSP XSDs (default: the SSP 1.0 XSDs that fmpy ships);
    ``strict`` raises the first problem as an ``SspError`` instead of reporting it.
    """
    document, diagnostics = read(path, variant, strict, schema_dir=schema_dir)
    if isinstance(document, SystemStructure):
        diagnostics += tuple(check_fmus(document))
    report = ValidationReport(str(path), diagnostics)
    if strict:
        from cosim.ssp.errors import raise_on_problems

        raise_on_problems(report.diagnostics)
    return report


def run(path: str | os.PathLike, stop_time: float | None = None,
        step_size: float | None = None, tolerance: float | None = None,
        parameters: Mapping[str, object] | None = None, variant: str | None = None,
        record: tuple[str, ...] | list[str] = (), output: str | os.PathLike | None = None,
        step_sizes: Mapping[str, float] | None = None, start_time: float | None = None,
        algorithm: str = "gauss-seidel", progress: bool = False, isolate: bool | None = None,
        allow_nonfinite: bool = False, timeout: float | None = None) -> RunResult:
    """Simulate ``path``: an ``.ssp`` archive, an unpacked SSP folder, an ``.ssd`` or an ``.fmu``.

    Parameters
    ----------
    path : str or PathLike
        The target; an ``.fmu`` runs as a system of one component named after the file.
    stop_time, step_size, tolerance, start_time : float, optional
        Override the file's experiment (step size: the base communication step, in s).
    parameters : mapping, optional
        ``{"component.variable": value}``, applied before initialization over the SSP's
        parameter bindings; values may be text as on the command line.
    variant : str, optional
        A variant ``.ssd`` beside ``SystemStructure.ssd``.
    record : sequence of str
        Extra ``component.variable`` columns besides every output connector.
    output : str or PathLike, optional
        ``.csv`` or ``.mat`` (Dymola) file written while the run goes.
    step_sizes : mapping, optional
        ``{"component": step}``: multi-rate, each a whole multiple of the base step.
    algorithm : {"gauss-seidel", "jacobi"}
    progress : bool
        Show a progress bar on stderr for runs longer than a second.
    isolate : bool, optional
        Host FMUs in worker processes, so that a crash ends the run with an error instead of
        ending Python: ``None`` (default) isolates the FMUs cosim did not build, ``True``
        all, ``False`` none.
    allow_nonfinite : bool
        Only warn when an FMU gives NaN or Inf (by default the run stops with an error).
    timeout : float, optional
        Wall-clock seconds for the whole run; past them it stops with ``RunTimeout``.

    Returns
    -------
    RunResult
        ``values`` is a numpy structured array with fields ``time`` and the column names.

    Raises
    ------
    CosimError
        With ``result`` (a ``RunResult`` of the rows computed before the failure) when the run
        started: an FMU call failed, an isolated FMU crashed, a value was not finite, or the
        timeout passed. Result files keep the same rows.
    """
    settings = Settings(start_time=start_time, stop_time=stop_time, step_size=step_size,
                        tolerance=tolerance, step_sizes=tuple((step_sizes or {}).items()),
                        parameters=tuple((parameters or {}).items()), record=tuple(record),
                        algorithm=algorithm, isolate=isolate,
                        allow_nonfinite=allow_nonfinite, timeout=timeout)
    return simulate(path, settings, variant=variant, output=output, progress=progress)
