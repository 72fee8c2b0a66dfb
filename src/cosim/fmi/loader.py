"""From an ``.fmu`` file (or unpacked folder) to instances: safe extraction, the model
description, the shared library (loaded once per FMU) and instances of either interface."""
from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from cosim.fmi.description import INTERFACE_NAMES, ModelInfo, read_model_info
from cosim.fmi.errors import FmuError
from cosim.fmi.fmi2 import Fmi2Instance
from cosim.fmi.fmi3 import Fmi3Instance
from cosim.fmi.instance import FmuInstance
from cosim.fmi.library import FmuLibrary, binary_path
from cosim.ssp.archive import DEFAULT_LIMITS, Limits, extract


@dataclass(frozen=True)
class LoadedFmu:
    """An unpacked FMU with its description; ``libraries`` holds one library per interface."""

    source: str
    folder: Path
    info: ModelInfo

    def library(self, kind: str) -> FmuLibrary:
        interface = self.interface(kind)
        path = binary_path(self.folder, self.info.major, interface.model_identifier)
        return _library(path, self.info.major)

    def interface(self, kind: str):
        interface = self.info.interface(kind)
        if interface is None:
            raise FmuError(f"the FMU has no {INTERFACE_NAMES[kind]} interface", self.source)
        return interface


_LIBRARIES: dict[tuple[str, int], FmuLibrary] = {}


def _library(path: Path, major: int) -> FmuLibrary:
    key = (str(path.resolve()), major)
    if key not in _LIBRARIES:
        _LIBRARIES[key] = FmuLibrary(path, major)
    return _LIBRARIES[key]


def open_fmu(path: str | os.PathLike, workdir: str | os.PathLike, name: str | None = None,
             limits: Limits = DEFAULT_LIMITS) -> LoadedFmu:
    """Unpack ``path`` (an ``.fmu``; a folder is used in place) under ``workdir`` and read it.

    Archives are extracted with the SSP reader's checks (no entries outside the folder, no
    symbolic links, sizes within ``limits``). Every interface the description declares must
    have its binary for this platform. Errors name ``path``, not the unpacked copy.
    """
    path = Path(path)
    if path.is_dir():
        folder = path
    elif path.is_file():
        folder = extract(path, Path(workdir) / (name or path.stem), str(path), limits)
    else:
        raise FmuError("no such FMU", str(path))
    with _located(folder, str(path)):
        info = read_model_info(folder)
        for interface in (info.co_simulation, info.model_exchange, info.scheduled_execution):
            if interface is not None:
                binary_path(folder, info.major, interface.model_identifier)
    return LoadedFmu(str(path), folder, info)


@contextmanager
def _located(folder: Path, source: str):
    """Errors about the unpacked ``folder`` name ``source`` (and paths inside it) instead."""
    try:
        yield
    except FmuError as error:
        prefixes = (f"{folder.resolve()}/", f"{folder}/")
        if error.location not in (str(folder), str(folder.resolve())) and \
                not error.location.startswith(prefixes):
            raise
        message = error.message
        for prefix in prefixes:
            message = message.replace(prefix, "")
        raise FmuError(message, source) from None


def instantiate(fmu: LoadedFmu, instance_name: str, kind: str = "CS",
                logging_on: bool = False, isolate: bool = False,
                deadline: float | None = None, event_mode: bool = False) -> FmuInstance:
    """A new instance of ``fmu`` through its ``kind`` interface (``"CS"`` or ``"ME"``).

    With ``isolate`` the instance lives in a worker process of its own (``isolation.py``);
    calls into it still waiting at ``deadline`` (``time.monotonic()`` seconds) stop it.
    """
    with _located(fmu.folder, fmu.source):
        if isolate:
            from cosim.fmi.isolation import IsolatedLibrary

            interface = fmu.interface(kind)
            library = IsolatedLibrary(binary_path(fmu.folder, fmu.info.major,
                                                  interface.model_identifier), fmu.info.major)
        else:
            library = fmu.library(kind)
    library.set_deadline(deadline)
    cls = Fmi3Instance if fmu.info.major == 3 else Fmi2Instance
    instance = cls(library, fmu.info, fmu.folder, instance_name, kind)
    try:
        instance.instantiate(logging_on=logging_on, event_mode=event_mode)
    except BaseException:
        library.release()
        raise
    return instance
