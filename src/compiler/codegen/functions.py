"""User functions -> static C functions (placeholder: refuses every call)."""
from __future__ import annotations

from compiler.codegen.errors import EmitError


class FunctionCode:
    def __init__(self, functions):
        self.functions = {item.name: item for item in functions}

    def call_text(self, writer, node) -> str:
        function = self.functions.get(node.function)
        raise EmitError(f"function {node.function} is not supported yet",
                        function.span if function else None)

    def definitions(self, context) -> list[str]:
        return []
