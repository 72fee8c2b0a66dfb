"""Modelica source -> the Rust backend's outputs (``cosim compile --backend rust``), through
the content-hash cache as for C.

Input: a flat model and what to make: ``source`` (the one ``<identifier>.rs``), ``program``
(rustc's executable: ``./model --stop 10 -o out.csv``), ``fmu`` (an FMI 3.0 FMU whose binary
is the Rust code built as a cdylib) or ``wasm`` (the fmi3 functions as a WebAssembly
module). Output: the written file. The cache key is the C backend's (flat text, source
locations, identifier) plus the kind, the Rust runtime and rustc's version, so an unchanged
model is neither emitted nor built again.
"""
from __future__ import annotations

import hashlib
import logging
import os
import shutil
import tempfile
import zipfile
from pathlib import Path

from compiler import fmu_cache
from compiler.causalize import causalize
from compiler.codegen.naming import plain_identifier
from compiler.compile import STRICT_VARIABLE, _locations
from compiler.errors import PackageError
from compiler.flat import FlatModel
from compiler.fmu.build import PLATFORM
from compiler.fmu.interface import check
from compiler.fmu.layout import layout as fmu_layout
from compiler.fmu.model_description import model_description
from compiler.rust.build import binary_name, build, require_rustc, rustc_version
from compiler.rust.emit import RUST_EMITTER_VERSION, RustModel, emit_rust
from compiler.rust.runtime import RUNTIME_MODULES, runtime_text

LOGGER = logging.getLogger("cosim.compiler")
KINDS = ("source", "program", "fmu", "wasm")
SUFFIXES = {"source": ".rs", "program": "", "fmu": ".fmu", "wasm": ".wasm"}
# the optional FMI functions the Rust runtime provides (rust_templates/fmi3.rs): FMU states and
# directional derivatives are the C runtime's only
RUST_CAPABILITIES = {
    "canGetAndSetFMUState": "false",
    "canSerializeFMUState": "false",
    "providesDirectionalDerivatives": "false",
}


def default_output(identifier: str, kind: str) -> str:
    return f"{identifier}{SUFFIXES[kind]}"


def rust_from_flat(flat: FlatModel, kind: str = "source", output=None, environ=None) -> Path:
    """Write the ``kind`` (see the module docstring) of a flat model to ``output`` (a file, or
    a folder for its default name; default: the current folder) and return its path."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r} (one of {', '.join(KINDS)})")
    identifier = plain_identifier(flat.name)
    target = Path(output) if output is not None else Path.cwd()
    if target.is_dir() or str(output).endswith(("/", os.sep)):
        target = target / default_output(identifier, kind)
    if kind == "source":
        _write(target, lambda staged: staged.write_text(emit_rust(causalize(flat), identifier).source))
        return target
    rustc = require_rustc()
    strict = os.environ.get(STRICT_VARIABLE, "") not in ("", "0")
    key = fmu_cache.cache_key("rust", RUST_EMITTER_VERSION, kind, rustc_version(rustc),
                              _runtime_digest(), identifier, flat.to_modelica(),
                              _locations(flat), *(("strict",) if strict else ()))
    suffix = f".{kind}"
    cached = fmu_cache.lookup(key, environ, "rust", suffix)
    if cached is None:
        model = emit_rust(causalize(flat), identifier)
        with tempfile.TemporaryDirectory(prefix="cosim-rust-") as work:
            built = _build(model, kind, Path(work), flat.name, strict)
            cached = fmu_cache.store(key, built, environ, "rust", suffix)
    _write(target, lambda staged: (shutil.copyfile(cached, staged),
                                   shutil.copymode(cached, staged)))
    return target


def _runtime_digest() -> str:
    digest = hashlib.sha256()
    for name in RUNTIME_MODULES:
        digest.update(runtime_text(name).encode())
    return digest.hexdigest()


def _write(target: Path, write) -> None:
    """``write(staged)`` then a rename: ``target`` appears only when complete."""
    staged = target.with_name(f".{target.name}.partial")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write(staged)
        os.replace(staged, target)
    except OSError as error:
        raise PackageError(f"cannot write {target}: {error.strerror or error}") from None


def _build(model: RustModel, kind: str, work: Path, name: str, strict: bool) -> Path:
    identifier = model.interface.identifier
    binary = work / binary_name(identifier, kind)
    result = build(model.source, identifier, kind, binary)
    if result.warnings:
        # a warning is a bug of the emitter or the runtime, but the build is still right
        message = f"rustc warned about the code generated for {name}:\n{result.warnings}"
        if strict:
            raise PackageError(message)
        LOGGER.warning("warning: %s", message)
    if kind != "fmu":
        return binary
    return package_rust_fmu(model, binary, work / f"{identifier}.fmu")


def package_rust_fmu(model: RustModel, binary: Path, output: Path) -> Path:
    """The FMU of a Rust model: modelDescription.xml (the C backend's, with the Rust runtime's
    capabilities), the cdylib as the binary, the one .rs file as its source."""
    interface = model.interface
    check(interface)
    description = model_description(interface, fmu_layout(interface), model.token,
                                    RUST_CAPABILITIES)
    with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("modelDescription.xml", description)
        archive.write(binary, f"binaries/{PLATFORM}/{interface.identifier}.so")
        archive.writestr(f"sources/{interface.identifier}.rs", model.source)
    return output
