"""Reading, checking and writing SSP 1.0 / 2.0 system structures.

``load(path)`` reads an ``.ssp`` archive, an unpacked folder or an ``.ssd`` into a
``SystemStructure`` plus diagnostics; ``read(path)`` also takes ``.ssv``/``.ssm``/``.ssb``.
"""
from cosim.ssp.archive import DEFAULT_LIMITS, Limits, extract
from cosim.ssp.errors import SspError
from cosim.ssp.loader import load, read
from cosim.ssp.model import *  # noqa: F401,F403  (the value types are the package's vocabulary)
from cosim.ssp.package import materialize
from cosim.ssp.parameters import resolve_parameters
from cosim.ssp.units import Conversion, unit_conversion, value_conversion
from cosim.ssp.validate import check_structure

__all__ = [
    "DEFAULT_LIMITS", "Limits", "extract", "SspError", "load", "read", "materialize",
    "resolve_parameters", "Conversion", "unit_conversion", "value_conversion", "check_structure",
]
