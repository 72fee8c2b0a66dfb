"""FMU packaging: a model interface plus the C text of its equations -> an FMI 3.0 FMU."""
from compiler.fmu.interface import Experiment, HiddenSlot, ModelInterface, Variable
from compiler.fmu.model_description import GENERATION_TOOL
from compiler.fmu.package import PackagedFmu, package_fmu, write_sources

__all__ = ["GENERATION_TOOL", "Experiment", "HiddenSlot", "ModelInterface", "PackagedFmu", "Variable", "package_fmu", "write_sources"]
