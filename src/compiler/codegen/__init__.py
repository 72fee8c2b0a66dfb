"""Code generation: a causalized ``System`` -> C for the FMU runtime (fmu_templates/model.h).

``emit_c(system)`` returns the ``ModelInterface`` for the packager and the text of model.c.
"""
from compiler.codegen.emit import EMITTER_VERSION, EmittedModel, emit_c
from compiler.codegen.errors import EmitError

__all__ = ["EMITTER_VERSION", "EmitError", "EmittedModel", "emit_c"]
