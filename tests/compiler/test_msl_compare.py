"""tools/msl_compare.py: the tube comparison of a result with a MAP-LIB reference at the rows
of an event instant."""
from __future__ import annotations

import numpy as np

from tools.msl_compare import compare_signal

GRID = np.linspace(0.0, 1.0, 11)


def test_an_event_iteration_passing_through_a_value_needs_no_row_of_ours_there():
    # the reference shows a zero-width pulse at 0.5 (rows -1, 1, 1, -1 at one instant)
    ref_time = np.concatenate([GRID[:6], [0.5, 0.5, 0.5], GRID[6:]])
    ref_values = -np.ones(len(ref_time))
    ref_values[6:8] = 1.0
    result = compare_signal("y", ref_time, ref_values, GRID, -np.ones(len(GRID)))
    assert result.matches


def test_an_event_at_the_stop_time_may_be_left_out():
    ref_time = np.concatenate([GRID, [1.0]])
    ref_values = np.concatenate([np.zeros(len(GRID)), [5.0]])
    assert compare_signal("y", ref_time, ref_values, GRID, np.zeros(len(GRID))).matches


def test_a_value_missed_at_a_single_row_still_fails():
    ref_values = np.zeros(len(GRID))
    ref_values[5] = 5.0   # one row only: no other row of that instant to meet instead
    result = compare_signal("y", GRID, ref_values, GRID, np.zeros(len(GRID)))
    assert not result.matches and result.at_time == 0.5


def test_a_constant_reference_is_met_to_the_digits_its_csv_holds():
    # 1.00399980079 printed with 8 significant digits
    reference = np.full(len(GRID), 1.0039998)
    assert compare_signal("i", GRID, reference, GRID, np.full(len(GRID), 1.00399980079)).matches
    assert not compare_signal("i", GRID, reference, GRID, np.full(len(GRID), 1.004001)).matches
