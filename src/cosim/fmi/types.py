"""Value types exchanged between FMUs, numbered as in the C loop (``master_loop.h``).

Every FMI 3.0 value type but Clock has a code; FMI 2.0 ``Real``, ``Integer``, ``Boolean`` and
``String`` map to Float64, Int32, Boolean and String (their C types are double, int, int and
char *), enumerations to Int64 (FMI 3.0) or Int32 (FMI 2.0). Each type keeps its values in
one of three 8-byte slot kinds of the C loop (a double, an int64 or a uint64; texts are
uint64 ids into a pool) and has the numpy type of its result column.
"""
from __future__ import annotations

# Order = the C enum ValueType in master_loop.h (a test checks that they agree).
VALUE_TYPES = ("Float64", "Float32", "Int8", "UInt8", "Int16", "UInt16", "Int32", "UInt32",
               "Int64", "UInt64", "Boolean", "String", "Binary")
TYPE_CODE = {name: code for code, name in enumerate(VALUE_TYPES)}

_FMI2_TYPES = {"Real": "Float64", "Integer": "Int32", "Enumeration": "Int32",
               "Boolean": "Boolean", "String": "String"}

# numpy type of a result column of each exchange type (texts are Python objects)
COLUMN_DTYPES = {
    "Float64": "f8", "Float32": "f4", "Int8": "i1", "UInt8": "u1", "Int16": "i2",
    "UInt16": "u2", "Int32": "i4", "UInt32": "u4", "Int64": "i8", "UInt64": "u8",
    "Boolean": "?", "String": "O", "Binary": "O",
}
# how the C loop's 8-byte slot holds the value: f8 (double), i8 (int64), u8 (uint64 or text id)
SLOT_DTYPES = {name: ("f8" if name.startswith("Float") else
                      "u8" if name.startswith("UInt") or name in ("String", "Binary") else "i8")
               for name in VALUE_TYPES}
# Inclusive value ranges of the integer types.
INTEGER_RANGES = {
    "Int8": (-2**7, 2**7 - 1), "UInt8": (0, 2**8 - 1), "Int16": (-2**15, 2**15 - 1),
    "UInt16": (0, 2**16 - 1), "Int32": (-2**31, 2**31 - 1), "UInt32": (0, 2**32 - 1),
    "Int64": (-2**63, 2**63 - 1), "UInt64": (0, 2**64 - 1),
}


def exchange_type(fmi_version: str, type_name: str) -> str | None:
    """The exchange type of an FMI variable type, ``None`` for Clock (and unknown types)."""
    if fmi_version.startswith("2"):
        return _FMI2_TYPES.get(type_name)
    if type_name == "Enumeration":
        return "Int64"
    return type_name if type_name in TYPE_CODE else None


def is_float(type_name: str) -> bool:
    return type_name in ("Float64", "Float32")


def is_text(type_name: str) -> bool:
    return type_name in ("String", "Binary")
