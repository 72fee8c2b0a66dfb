"""What the tests of the Rust backend share: the skip without rustc and the models they run."""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.rust.build import find_rustc

ROOT = Path(__file__).resolve().parents[2]
STIFF = ROOT / "tests" / "runtime" / "fixtures" / "modelica"   # the four stiff problems
MODELS = Path(__file__).parent / "codegen_models"              # the acceptance models
TOLERANCE = 1e-6   # the stiff fixtures' and the runs' relative tolerance

# the marks of a module of Rust tests: its own FMU cache, and skipped (saying why) where no
# rustc can be had
RUST_TEST_MARKS = [
    pytest.mark.usefixtures("module_fmu_cache"),
    pytest.mark.skipif(find_rustc() is None, reason="no rustc: install it (Debian's package "
                                                     "rustc, or rustup) to test the Rust backend"),
]
