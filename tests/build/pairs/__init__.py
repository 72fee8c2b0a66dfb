"""Compiler test models and ssp_examples/ models written a second time in Python (each
module names the Modelica file it mirrors); tests/build/test_pairs.py flattens both."""
import importlib


def python_class(module: str, name: str):
    """The class ``name`` of the pair module ``module``."""
    return getattr(importlib.import_module(f"tests.build.pairs.{module}"), name)
