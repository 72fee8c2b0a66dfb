"""Modelica to FMI 3.0 compiler.

Pipeline of values: parse -> AST, flatten -> FlatModel, causalize -> System,
emit -> C source, package -> .fmu. Each stage lives in its own module and is a
pure function of the previous stage's value.
"""

__all__ = ["compile_fmu"]


def __getattr__(name: str):
    # loaded on first use: `compile_fmu` pulls in the whole pipeline and the C packager
    if name == "compile_fmu":
        from compiler.compile import compile_fmu

        return compile_fmu
    raise AttributeError(f"module 'compiler' has no attribute '{name}'")
