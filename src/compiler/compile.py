"""Modelica source -> FMI 3.0 FMU (``cosim compile``), through the cache of compiled FMUs.

Input: a ``.mo`` file, the class to compile, library locations and the output path. Output:
the ``.fmu``: flatten, causalize, emit C, package with the runtime and gcc. The cache key is
the flat model's text, its source locations, the model identifier and the content of the files
it brings from outside (external functions' C code, loadResource's resources; see
``fmu_cache``), so an unchanged model is flattened again but neither causalized, emitted nor
compiled.
"""
from __future__ import annotations

import logging
import os
import shutil
import tempfile
from pathlib import Path

from compiler.fmu.arrays import with_fmi_arrays
from compiler import fmu_cache
from compiler.api import flatten_model
from compiler.causalize import causalize
from compiler.codegen import emit_c
from compiler.codegen.interface import source_place
from compiler.codegen.naming import plain_identifier
from compiler.errors import PackageError
from compiler.flat import Call, FlatModel
from compiler.flatten.walk import nodes
from compiler.fmu import package_fmu
from compiler.fmu.external_sources import content_digest, external_sources

LOGGER = logging.getLogger("cosim.compiler")
# set in the process's environment (to anything but "" or "0"), gcc's warnings about generated
# code fail the compile: the test suite sets it, as generated code must compile cleanly
STRICT_VARIABLE = "COSIM_STRICT_GCC"


def compile_fmu(path, model: str | None = None, libs=(), output=None, environ=None,
                fmi_arrays: bool = False) -> Path:
    """Compile ``model`` of the ``.mo`` file ``path`` into an FMU and return its path.

    Parameters
    ----------
    path : str or Path
        The ``.mo`` file.
    model : str, optional
        The class to compile (default: the file's last class).
    libs : sequence of str or Path
        Library locations searched before ``MODELICAPATH``.
    output : str or Path, optional
        The ``.fmu`` to write, or a folder to write ``<modelIdentifier>.fmu`` into: one that
        exists or a path ending in a separator (default: the current folder).
    environ : mapping, optional
        Environment for ``MODELICAPATH`` and the cache folder (default: ``os.environ``).
    fmi_arrays : bool
        Show arrays among the inputs, outputs and parameters as FMI 3.0 array variables
        (one value reference, ``<Dimension>``) instead of one scalar per element.

    Raises
    ------
    CompilerError
        Located in the Modelica source for errors of the model; ``PackageError`` when gcc or
        the packaging fails.
    """
    return fmu_from_flat(flatten_model(path, model, libs, environ), output, environ, fmi_arrays)


def fmu_from_flat(flat: FlatModel, output=None, environ=None, fmi_arrays: bool = False) -> Path:
    """The FMU of a flat model (causalized, emitted and built unless the cache has it),
    written to ``output`` as ``compile_fmu`` does; returns its path."""
    identifier = plain_identifier(flat.name)
    target = Path(output) if output is not None else Path.cwd()
    if target.is_dir() or str(output).endswith(("/", os.sep)):
        target = target / f"{identifier}.fmu"
    strict = os.environ.get(STRICT_VARIABLE, "") not in ("", "0")
    key = fmu_cache.cache_key(identifier, flat.to_modelica(), _locations(flat),
                              _external_digest(flat), *(("fmi-arrays",) if fmi_arrays else ()),
                              *(("strict",) if strict else ()))
    cached = fmu_cache.lookup(key, environ)
    if cached is None:
        cached = _build(flat, identifier, key, environ, fmi_arrays, strict)
    staged = target.with_name(f".{target.name}.partial")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(cached, staged)
        os.replace(staged, target)
    except OSError as error:
        raise PackageError(f"cannot write {target}: {error.strerror or error}") from None
    return target


def _build(flat: FlatModel, identifier: str, key: str, environ, fmi_arrays: bool,
           strict: bool) -> Path:
    emitted = emit_c(causalize(flat), identifier)
    interface = with_fmi_arrays(emitted.interface) if fmi_arrays else emitted.interface
    with tempfile.TemporaryDirectory(prefix="cosim-compile-") as work:
        packaged = package_fmu(interface, emitted.source, Path(work) / f"{identifier}.fmu",
                               emitted.external, fmu_cache.cache_dir(environ, "objects"))
        if packaged.compiler_warnings:
            # a warning is a bug of the code generator, but the FMU is still right: the user
            # gets it (the warning logged once, as the cache keeps the FMU); tests refuse it
            message = (f"gcc warned about the code generated for {flat.name}:\n"
                       f"{packaged.compiler_warnings}")
            if strict:
                raise PackageError(message)
            LOGGER.warning("warning: %s", message)
        return fmu_cache.store(key, packaged.path, environ)


def _external_digest(flat: FlatModel) -> str:
    """The content of the files the FMU brings from outside: the C files of external
    functions (their libraries' sources and headers) and the resources of loadResource.
    Part of the cache key, since the flat text names only their folders."""
    calls = [(item.external, item.span) for item in flat.functions
             if item.external is not None and item.external.language != "builtin"]
    resources = sorted({node.args[1].value for node in nodes(flat)
                        if type(node) is Call and node.name == "loadResource"})
    return (external_sources(calls).digest() if calls else "") + \
        (content_digest(resources) if resources else "")


def _locations(flat: FlatModel) -> str:
    """The source locations generated code and its messages quote (file names, lines,
    columns): part of the cache key, as the flat text does not show them."""
    places = [source_place(node.span) for node in nodes((flat.variables, flat.equations,
                                                           flat.initial_equations, flat.algorithms,
                                                           flat.initial_algorithms))
              if getattr(node, "span", None) is not None]
    return "\n".join(places)
