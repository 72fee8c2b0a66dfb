"""The Python API of cosim: one function per CLI verb, with the same arguments.

``info`` and ``validate`` read SSP targets; the master adds ``run`` here.
"""
from __future__ import annotations

import os

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
