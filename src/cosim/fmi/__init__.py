"""Loading FMI 3.0 and 2.0 FMUs through ctypes: descriptions, libraries and instances.

``open_fmu(path, workdir)`` unpacks and reads an FMU; ``instantiate(fmu, name, kind)`` makes a
Co-Simulation or Model Exchange instance whose methods check every status in one place.
"""
from cosim.fmi.description import Interface, ModelInfo, VariableInfo, read_model_info
from cosim.fmi.errors import FmiCallError, FmuError
from cosim.fmi.instance import FmuInstance
from cosim.fmi.library import FmuLibrary, binary_path
from cosim.fmi.loader import LoadedFmu, instantiate, open_fmu
from cosim.fmi.types import TYPE_CODE, VALUE_TYPES, exchange_type

__all__ = [
    "Interface", "ModelInfo", "VariableInfo", "read_model_info", "FmiCallError", "FmuError",
    "FmuInstance", "FmuLibrary", "binary_path", "LoadedFmu", "instantiate", "open_fmu",
    "TYPE_CODE", "VALUE_TYPES", "exchange_type",
]
