"""The stored references (tests/runtime/references) are what tools/make_references.py computes."""
from __future__ import annotations

import numpy as np
import pytest

from tests.runtime.drive import references, scaled_error
from tests.runtime.problems import PROBLEMS
from tools.make_references import REFERENCE_RTOL, reference_solution

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_stored_reference_is_reproducible(name):
    stored, fresh = references(name), reference_solution(name)
    # the same time grid; a logspace grid may differ in its last bits between numpy versions
    np.testing.assert_array_max_ulp(stored[:, 0], fresh[:, 0], maxulp=8)
    # agreement to a few times the reference tolerance (the numbers differ with the BLAS)
    tolerance = 100 * REFERENCE_RTOL
    assert scaled_error(fresh[:, 1:], stored[:, 1:], tolerance, tolerance * PROBLEMS[name].atol_scale) <= 1.0
