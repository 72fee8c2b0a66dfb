"""x^2 and x^3 of Real variables and shared subexpressions are written as products in C
and Rust (codegen.slot_writer.power_product), with the precedence of a product; results are
checked against closed forms."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from fmpy import simulate_fmu

from compiler.api import flatten_model
from compiler.causalize import causalize
from compiler.codegen import emit_c
from compiler.fmu import package_fmu
from compiler.rust.emit import emit_rust

MODELS = Path(__file__).parent / "msl_models" / "PowerProducts.mo"


def system():
    return causalize(flatten_model(MODELS, "PowerProducts.Decay"))


def test_squares_and_cubes_are_products_in_c_and_rust():
    c_source = emit_c(system()).source
    rust_source = emit_rust(system()).source
    assert "R(x) * R(x) * R(x)" in c_source and "pow(" not in c_source
    assert "1 / (R(y) * R(y))" in c_source           # parenthesized as a divisor
    assert "m.r[R_der_x] = -(m.r[R_x] * m.r[R_x] * m.r[R_x]);" in rust_source
    assert "1.0 / (m.r[R_y] * m.r[R_y])" in rust_source
    assert "t0 * t0 + t0 * t0 * t0" in c_source and "t0 * t0 + t0 * t0 * t0" in rust_source


def test_products_give_the_closed_forms(tmp_path):
    emitted = emit_c(system())
    fmu = tmp_path / "decay.fmu"
    packaged = package_fmu(emitted.interface, emitted.source, fmu, object_cache=tmp_path / "o")
    assert not packaged.compiler_warnings
    result = simulate_fmu(str(fmu), fmi_type="ModelExchange", stop_time=2.0,
                          output_interval=0.05, relative_tolerance=1e-10,
                          output=["x", "y", "s", "q"])
    t = result["time"]
    x, y = 1 / np.sqrt(1 + 2 * t), 1 / (1 + t)
    np.testing.assert_allclose(result["x"], x, rtol=1e-7)
    np.testing.assert_allclose(result["y"], y, rtol=1e-7)
    np.testing.assert_allclose(result["s"], (x + y) ** 2 + (x + y) ** 3, rtol=1e-7)
    np.testing.assert_allclose(result["q"], (1 + t) ** 2, rtol=1e-7)
