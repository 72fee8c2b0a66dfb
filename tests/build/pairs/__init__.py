"""Compiler test models and ssp_examples/ models written a second time in Python (each
module names the Modelica file it mirrors); tests/build/test_pairs.py flattens both."""
