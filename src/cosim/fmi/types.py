"""Value types exchanged between FMUs, numbered as in the C loop (``master_loop.h``).

Every FMI 3.0 numeric and Boolean type has a code; FMI 2.0 ``Real``, ``Integer`` and
``Boolean`` map to Float64, Int32 and Boolean (their C types are double, int and int),
enumerations to Int64 (FMI 3.0) or Int32 (FMI 2.0). Strings and binaries are not exchanged.
"""
from __future__ import annotations

# Order = the C enum ValueType in master_loop.h (a test checks that they agree).
VALUE_TYPES = ("Float64", "Float32", "Int8", "UInt8", "Int16", "UInt16", "Int32", "UInt32",
               "Int64", "UInt64", "Boolean")
TYPE_CODE = {name: code for code, name in enumerate(VALUE_TYPES)}

_FMI2_TYPES = {"Real": "Float64", "Integer": "Int32", "Enumeration": "Int32",
               "Boolean": "Boolean"}


def exchange_type(fmi_version: str, type_name: str) -> str | None:
    """The exchange type of an FMI variable type, ``None`` for String, Binary and Clock."""
    if fmi_version.startswith("2"):
        return _FMI2_TYPES.get(type_name)
    if type_name == "Enumeration":
        return "Int64"
    return type_name if type_name in TYPE_CODE else None


def is_float(type_name: str) -> bool:
    return type_name in ("Float64", "Float32")
