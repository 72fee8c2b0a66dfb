"""Reading, checking and writing SSP 1.0 / 2.0 system structures.

``load(path)`` reads an ``.ssp`` archive, an unpacked folder or an ``.ssd`` into a
``SystemStructure`` plus diagnostics; ``read(path)`` also takes ``.ssv``/``.ssm``/``.ssb``.
``resolve_parameters``, ``flat_connections`` and ``value_conversion`` give the master what it
applies; ``check_fmus`` checks the SSD against the FMUs; ``pack_ssp`` writes packages.
"""
from cosim.ssp.archive import DEFAULT_LIMITS, Limits, extract
from cosim.ssp.builder import structure_from_description
from cosim.ssp.errors import SspError
from cosim.ssp.flatten import FlatConnection, flat_connections
from cosim.ssp.fmu_check import check_fmu_interfaces, check_fmus, read_model_descriptions
from cosim.ssp.loader import load, read
from cosim.ssp.model import *  # noqa: F401,F403  (the value types are the package's vocabulary)
from cosim.ssp.package import materialize
from cosim.ssp.parameters import resolve_parameters
from cosim.ssp.units import Conversion, unit_conversion, value_conversion
from cosim.ssp.validate import check_structure
from cosim.ssp.writer import pack_ssp, ssd_xml, write_folder, write_ssd

__all__ = [
    "DEFAULT_LIMITS", "Limits", "extract", "structure_from_description", "SspError",
    "FlatConnection", "flat_connections", "check_fmu_interfaces", "check_fmus",
    "read_model_descriptions", "load", "read", "materialize", "resolve_parameters",
    "Conversion", "unit_conversion", "value_conversion", "check_structure", "pack_ssp",
    "ssd_xml", "write_folder", "write_ssd",
]
