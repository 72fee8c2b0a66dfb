"""Model C code + the runtime -> Name.fmu (model description, binary, sources)."""
from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import uuid
import zipfile
from dataclasses import dataclass
from pathlib import Path

from compiler.errors import PackageError
from compiler.fmu import c_tables
from compiler.fmu.build import PLATFORM, BuildResult, LibraryCode, compile_binary
from compiler.fmu.external_sources import ExternalCode
from compiler.fmu.interface import ModelInterface, check
from compiler.fmu.layout import layout as make_layout
from compiler.fmu.model_description import build_description, model_description
from compiler.fmu.runtime_objects import runtime_objects
from compiler.fmu.runtime_files import (
    EXTERNAL_RUNTIME_HEADERS, EXTERNAL_RUNTIME_SOURCES, RUNTIME_HEADERS, RUNTIME_SOURCES,
    template_dir)

MODEL_SOURCES = ("model_info.c", "model.c")
GENERATED_HEADERS = ("config.h",)
EXTERNAL_SOURCE = "model_external.c"   # the trampolines of external functions


@dataclass(frozen=True, slots=True)
class PackagedFmu:
    path: Path
    token: str
    compiler_warnings: str


def instantiation_token(interface: ModelInterface, model_source: str,
                        external: ExternalCode | None = None) -> str:
    """Same interface, equations and runtime -> same token; anything else -> another one."""
    digest = hashlib.sha256(repr(interface).encode())
    digest.update(model_source.encode())
    for name in RUNTIME_SOURCES + RUNTIME_HEADERS:
        digest.update((template_dir() / name).read_bytes())
    if external is not None:
        digest.update(external.source.encode())
        digest.update(external.sources.digest().encode())
        for name in EXTERNAL_RUNTIME_SOURCES + EXTERNAL_RUNTIME_HEADERS:
            digest.update((template_dir() / name).read_bytes())
    return "{" + str(uuid.UUID(bytes=digest.digest()[:16], version=5)) + "}"


def write_sources(interface: ModelInterface, model_source: str, directory: Path,
                  external: ExternalCode | None = None) -> str:
    """Everything needed to build the binary, as it goes into the FMU's sources/. Returns the token."""
    check(interface)
    return _write_sources(interface, make_layout(interface), model_source, directory, external)


def _runtime_sources(external: ExternalCode | None) -> tuple[str, ...]:
    """The C files of the runtime (the same for every model)."""
    return RUNTIME_SOURCES + (EXTERNAL_RUNTIME_SOURCES if external is not None else ())


def _own_sources(external: ExternalCode | None) -> tuple[str, ...]:
    """The C files of the runtime and the model (compiled with all warnings)."""
    return _runtime_sources(external) + MODEL_SOURCES


def _library_sources(external: ExternalCode | None) -> tuple[str, ...]:
    """The C files compiled as library code: model_external.c and the libraries'."""
    if external is None:
        return ()
    return ((EXTERNAL_SOURCE,) if external.source else ()) + external.sources.compiled


def _write_sources(interface: ModelInterface, layout, model_source: str, directory: Path,
                   external: ExternalCode | None = None) -> str:
    token = instantiation_token(interface, model_source, external)
    directory.mkdir(parents=True, exist_ok=True)
    runtime = RUNTIME_SOURCES + RUNTIME_HEADERS
    if external is not None:
        runtime += EXTERNAL_RUNTIME_SOURCES + EXTERNAL_RUNTIME_HEADERS
        for name, origin in external.sources.files:
            shutil.copyfile(origin, directory / name)
        if external.source:
            (directory / EXTERNAL_SOURCE).write_text(external.source)
    for name in runtime:
        shutil.copyfile(template_dir() / name, directory / name)
    (directory / "config.h").write_text(c_tables.config_header(interface, layout, token))
    (directory / "model_info.c").write_text(c_tables.model_info(interface, layout))
    (directory / "model.c").write_text(model_source)
    definitions = external.sources.definitions if external is not None else ()
    (directory / "buildDescription.xml").write_bytes(
        build_description(interface.identifier, _own_sources(external) + _library_sources(external),
                          definitions))
    return token


def package_fmu(interface: ModelInterface, model_source: str, output: str | os.PathLike,
                external: ExternalCode | None = None, object_cache: Path | None = None) -> PackagedFmu:
    """Build `output` (an .fmu) from a model interface and the C text of its equations;
    ``external``: what external functions, external objects and Strings add. With an
    ``object_cache`` folder, the runtime's objects and those of the libraries come from
    there (compiled into it once), and only the model's own files are compiled.

    The archive appears only once everything succeeded: a failure leaves no file behind.
    """
    output = Path(output)
    with tempfile.TemporaryDirectory(prefix="cosim-fmu-") as work:
        root = Path(work) / "fmu"
        check(interface)
        layout = make_layout(interface)
        token = _write_sources(interface, layout, model_source, root / "sources", external)
        for name, origin in external.resources if external is not None else ():
            _copy_resource(Path(origin), root / "resources" / name)
        description = model_description(interface, layout, token)
        (root / "modelDescription.xml").write_bytes(description)
        binary = root / "binaries" / PLATFORM / f"{interface.identifier}.so"
        library = LibraryCode(_library_sources(external),
                              external.sources.definitions if external is not None else (),
                              external.sources.libraries if external is not None else (),
                              object_cache)
        if object_cache is None:
            build = compile_binary(root / "sources", _own_sources(external), interface.identifier,
                                   binary, library=library)
        else:
            runtime = runtime_objects(_runtime_sources(external), object_cache)
            build = compile_binary(root / "sources", MODEL_SOURCES, interface.identifier, binary,
                                   library=library, prebuilt=runtime.objects)
            build = BuildResult(build.binary, "\n".join(text for text in (runtime.warnings, build.warnings)
                                                        if text))
        archive = Path(work) / "out.fmu"
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
            for path in sorted(root.rglob("*")):
                if path.is_file():
                    zf.write(path, path.relative_to(root).as_posix())
        output.parent.mkdir(parents=True, exist_ok=True)
        staged = output.with_name(f".{output.name}.partial")
        shutil.copyfile(archive, staged)
        os.replace(staged, output)
    return PackagedFmu(output, token, build.warnings)


def _copy_resource(origin: Path, target: Path) -> None:
    """A file or folder of loadResource into the FMU's resources/."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if origin.is_dir():
        shutil.copytree(origin, target, dirs_exist_ok=True)
    else:
        shutil.copyfile(origin, target)


__all__ = ["PackagedFmu", "PackageError", "package_fmu", "write_sources", "instantiation_token"]
