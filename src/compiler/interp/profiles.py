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
        if positive:   # out1 at x - 1 from the points below x, then (x, in0)
            at = x - 1.0
            below = bisect.bisect_left(s, x)
            j = bisect.bisect_left(s, at, 0, below)
            if j == below:
                return in0 if j == 0 else _line(s[j - 1], v[j - 1], x, in0, at)
            if j == 0 or s[j] == at:
                return v[j]
        else:   # out0 at x from (x - 1, in1), then the points above x - 1
            at = x
            above = bisect.bisect_right(s, x - 1.0)
            j = bisect.bisect_right(s, x, above)
            if j == above:
                return in1 if j == len(s) else _line(x - 1.0, in1, s[j], v[j], at)
            if j == len(s) or s[j - 1] == at:
                return v[j - 1]
        return _line(s[j - 1], v[j - 1], s[j], v[j], at)

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


def _line(s0: float, v0: float, s1: float, v1: float, at: float) -> float:
    return v0 + (v1 - v0) * (at - s0) / (s1 - s0)


def _entering(inputs) -> tuple:
    in0, in1, x, positive = inputs
    return (float(x), float(in0)) if positive else (float(x) - 1.0, float(in1))


def _push_high(s: list, v: list, at: float, value: float) -> None:
    """(at, value) at the high end, as fmu_templates/delays.c: where the profile reaches beyond
    it (x went back: the velocity reversed), its value at `at` kept as a point there and the
    points beyond dropped; an equal last point kept, a third point at one s replacing the
    second (the value after the event); points below at - 1 dropped but the one just beyond."""
    j = bisect.bisect_right(s, at)
    if j < len(s):
        inside = j > 0 and s[j - 1] == at
        kept = v[0] if j == 0 else _line(s[j - 1], v[j - 1], s[j], v[j], at)
        del s[j:]
        del v[j:]
        if not inside:
            s.append(at)
            v.append(kept)
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
    """(at, value) at the low end: ``_push_high`` mirrored (points beyond at + 1 dropped)."""
    j = bisect.bisect_left(s, at)
    if j > 0:
        inside = j < len(s) and s[j] == at
        kept = v[-1] if j == len(s) else _line(s[j - 1], v[j - 1], s[j], v[j], at)
        del s[:j]
        del v[:j]
        if not inside:
            s.insert(0, at)
            v.insert(0, kept)
    if s and s[0] == at:
        if v[0] == value:
            return
        if len(s) > 1 and s[1] == at:
            v[0] = value
            return
    s.insert(0, at)
    v.insert(0, value)
    keep = len(s)
    while keep > 1 and s[keep - 2] >= at + 1.0:
        keep -= 1
    del s[keep:]
    del v[keep:]
