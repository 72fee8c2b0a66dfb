"""The stepping order and algebraic-loop detection (cosim.master.order), on graphs given as
connections plus each component's direct feedthrough (output -> inputs it depends on)."""
from __future__ import annotations

from cosim.master.order import algebraic_loops, stages


def test_loop_through_feedthrough_is_found_with_its_links():
    links = [(0, "y", 1, "u"), (1, "y", 2, "u"), (2, "y", 1, "r")]
    feedthrough = {1: {"y": ("u", "r")}, 2: {"y": ("u",)}}
    loops = algebraic_loops(links, feedthrough)
    assert loops == [(frozenset({1, 2}), ((1, "y", 2, "u"), (2, "y", 1, "r")))]
    assert stages(4, links, feedthrough, [loops[0][0]]) == (
        ((0,), False), ((1, 2), True), ((3,), False))


def test_feedback_without_feedthrough_is_no_loop_and_is_ordered_by_it():
    links = [(0, "y", 1, "u"), (1, "y", 0, "u")]
    # 1's output depends on its input: it steps after 0, which feeds it
    assert algebraic_loops(links, {0: {"y": ()}, 1: {"y": ("u",)}}) == []
    assert stages(2, links, {0: {"y": ()}, 1: {"y": ("u",)}}, []) == (
        ((0,), False), ((1,), False))
    assert stages(2, links, {0: {"y": ("u",)}, 1: {"y": ()}}, []) == (
        ((1,), False), ((0,), False))


def test_self_loop_and_chains_follow_the_connections():
    assert algebraic_loops([(0, "y", 0, "u")], {0: {"y": ("u",)}})[0][0] == frozenset({0})
    links = [(2, "y", 1, "u"), (1, "y", 0, "u")]
    assert stages(3, links, {}, []) == (((2,), False), ((1,), False), ((0,), False))
