"""Loading an FMU's shared library and binding its FMI functions once, from one table.

Input: an unpacked FMU folder and its ``ModelInfo``. Output: an ``FmuLibrary`` whose attributes
are the raw FMI functions named as in C (``lib.fmi3DoStep``) with ``argtypes``/``restype`` set
from ``signatures.py``, and their addresses for the C stepping loop. No ``os.chdir``.
"""
from __future__ import annotations

import ctypes
from pathlib import Path

from cosim.fmi.errors import FmuError
from cosim.fmi.signatures import TABLES

# Where each FMI version keeps its Linux x86-64 binary (FMI 2.0 tools use both names).
PLATFORM_FOLDERS = {"3": ("x86_64-linux",), "2": ("linux64", "x86_64-linux")}


def binary_path(folder: Path, major: int, model_identifier: str) -> Path:
    """The shared library of an unpacked FMU; ``FmuError`` naming the folders looked in."""
    tried = []
    for platform in PLATFORM_FOLDERS[str(major)]:
        candidate = folder / "binaries" / platform / f"{model_identifier}.so"
        if candidate.is_file():
            return candidate
        tried.append(f"binaries/{platform}/{model_identifier}.so")
    raise FmuError(f"no binary for this platform: looked for {' and '.join(tried)}", str(folder))


class FmuLibrary:
    """The FMI functions of one shared library; functions it does not export are ``None``."""

    def __init__(self, path: Path, major: int):
        self.path = path
        self.major = major
        try:
            self.handle = ctypes.CDLL(str(path.resolve()))
        except OSError as error:
            raise FmuError(f"cannot load the binary: {error}", str(path)) from None
        self.missing: list[str] = []
        for name, (restype, argtypes) in TABLES[str(major)].items():
            try:
                function = getattr(self.handle, name)
            except AttributeError:
                self.missing.append(name)
                setattr(self, name, None)
                continue
            function.restype = restype
            function.argtypes = argtypes
            setattr(self, name, function)

    def function(self, name: str):
        """The bound function ``name``; ``FmuError`` when the binary does not export it."""
        function = getattr(self, name, None)
        if function is None:
            raise FmuError(f"the binary does not export {name}", str(self.path))
        return function

    def address(self, name: str) -> int:
        """Address of ``name`` for the C loop (0 when missing)."""
        function = getattr(self, name, None)
        return ctypes.cast(function, ctypes.c_void_p).value or 0 if function is not None else 0

    isolated = False

    def set_deadline(self, deadline: float | None) -> None:
        """In-process calls cannot be interrupted: the C loop checks the deadline between steps."""

    def failure(self, instance: str, function: str, time, fmu_message: str, location: str = ""):
        """In-process failures are statuses only (a crash would have ended the process)."""
        return None

    def failed_function(self) -> str:
        return ""

    def release(self) -> None:
        """Libraries stay loaded for the process (they are cached per path)."""
