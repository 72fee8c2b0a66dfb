"""Modelica to FMI 3.0 compiler.

Pipeline of values: parse -> AST, flatten -> FlatModel, causalize -> System,
emit -> C source, package -> .fmu. Each stage lives in its own module and is a
pure function of the previous stage's value.
"""
