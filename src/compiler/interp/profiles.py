"""The profiles of ``spatialDistribution()`` in the reference interpreter, as the FMU runtime
keeps them.

Input: the records the simulation loop takes with the delay histories (each operator's in0,
in1, x and positiveVelocity) and the initial profiles. Output: the value an end reads. The
rules are those of ``compiler.system.Spatial`` and fmu_templates/delays.c, model_support.c:
points (s, v) sorted by s, a point at y = x - s; the entering end appended where it is
(x for in0, x - 1 for in1), two points at one s for a jump, those that left [x - 1, x]
dropped but the one just beyond; the leaving end interpolated linearly between the points
and the current entering end.
"""
from __future__ import annotations

import bisect
import math


class Profiles:
    """One profile per ``spatialDistribution()`` of a system (``spatials``: its ``Spatial``
    values)."""

    def __init__(self, spatials):
        self.spatials = tuple(spatials)
        self.s: list[list[float]] = [[] for _ in self.spatials]
        self.v: list[list[float]] = [[] for _ in self.spatials]

    @property
    def started(self) -> bool:
        return all(self.s)

    def start(self, profiles, inputs) -> None:
        """The initial profiles (``profiles``: each operator's points then values) placed at
        the current x (``inputs``: each operator's in0, in1, x, positiveVelocity)."""
        for k, points, values, x in self._profiles(profiles, inputs):
            # y = p at s = x - p: the points in reverse order, a repeated one a jump
            self.s[k] = [float(x) - float(p) for p in reversed(points)]
            self.v[k] = [float(value) for value in reversed(values)]

    def _profiles(self, profiles, inputs):
        at = 0
        for k, item in enumerate(self.spatials):
            n = len(item.points)
            yield k, profiles[at:at + n], profiles[at + n:at + 2 * n], inputs[4 * k + 2]
            at += 2 * n

    def record(self, inputs) -> None:
        """Add each operator's entering end (``inputs`` as in ``start``)."""
        for k in range(len(self.spatials)):
            in0, in1, x, positive = inputs[4 * k:4 * k + 4]
            if positive:
                _push_high(self.s[k], self.v[k], float(x), float(in0))
            else:
                _push_low(self.s[k], self.v[k], float(x) - 1.0, float(in1))

    def value(self, k: int, end: int, in0: float, in1: float, x: float, positive) -> float:
        """End ``end`` (0: out0, 1: out1) of operator ``k`` with these current inputs."""
        if positive and end == 0:
            return in0
        if not positive and end == 1:
            return in1
        s, v = self.s[k], self.v[k]
        if not s:
            return math.nan   # (the simulation starts the profiles before reading them)
        if positive:   # the points left of x and (x, in0); out1 at x - 1, the first of equals
            high = bisect.bisect_left(s, x)
            points, values = s[:high] + [x], v[:high] + [in0]
            i = bisect.bisect_left(points, x - 1.0)
            if i == 0 or points[i] == x - 1.0:
                return values[i]
        else:   # (x - 1, in1) and the points right of it; out0 at x, the last of equals
            low = bisect.bisect_right(s, x - 1.0)
            points, values = [x - 1.0] + s[low:], [in1] + v[low:]
            i = bisect.bisect_right(points, x)
            if i == len(points) or points[i - 1] == x:
                return values[i - 1]
        at = x - 1.0 if positive else x
        s0, s1 = points[i - 1], points[i]
        return values[i - 1] + (values[i] - values[i - 1]) * (at - s0) / (s1 - s0)

    def unresolved(self, a, m, b, tolerance: float) -> bool:
        """Whether the line between the entering ends of two records ``a`` and ``b`` (inputs
        as in ``start``) misses that of the record ``m`` between them by more than
        ``tolerance`` of their size, at m's place (the profile interpolates linearly)."""
        for k in range(len(self.spatials)):
            ends = [_entering(inputs[4 * k:4 * k + 4]) for inputs in (a, m, b)]
            (sa, va), (sm, vm), (sb, vb) = ends
            if sa == sb:
                continue
            line = va + (vb - va) * (sm - sa) / (sb - sa)
            if abs(vm - line) > tolerance * max(abs(va), abs(vm), abs(vb)):
                return True
        return False


def _entering(inputs) -> tuple:
    in0, in1, x, positive = inputs
    return (float(x), float(in0)) if positive else (float(x) - 1.0, float(in1))


def _push_high(s: list, v: list, at: float, value: float) -> None:
    """(at, value) at the high end, as fmu_templates/delays.c: points beyond it dropped (x
    went back), an equal last point kept, a third point at one s replacing the second (the
    value after the event), points below at - 1 dropped but the one just beyond."""
    while s and s[-1] > at:
        s.pop()
        v.pop()
    if s and s[-1] == at:
        if v[-1] == value:
            return
        if len(s) > 1 and s[-2] == at:
            v[-1] = value
            return
    s.append(at)
    v.append(value)
    drop = 0
    while len(s) - drop > 1 and s[drop + 1] <= at - 1.0:
        drop += 1
    if drop:
        del s[:drop]
        del v[:drop]


def _push_low(s: list, v: list, at: float, value: float) -> None:
    """(at, value) at the low end: ``_push_high`` mirrored."""
    negated = [-item for item in reversed(s)]
    values = v[::-1]
    _push_high(negated, values, -at, value)
    s[:] = [-item for item in reversed(negated)]
    v[:] = values[::-1]
