"""The histories of ``delay()`` in the reference interpreter, as the FMU runtime keeps them.

Input: the records the simulation loop takes (time, the delayed expressions' values, their
delay times and maximum delay times). Output: the value ``delay(k, at)`` reads, the next
time at which a recorded jump reappears, and the longest step lookups allow. The rules are
those of ``compiler.system.Delay`` and fmu_templates/delays.c, model_support.c: records
before and after every event (two at one instant), the monotone cubic (PCHIP) between the
records around a lookup (linear next to a jump), the first record before the history, the
last beyond it.
"""
from __future__ import annotations

import math

from compiler.interp.errors import SimulationError

RESOLUTION = 1e-13   # relative: records closer in time are at one instant (model_support.h)
RECORD_DEPTH = 10   # halvings of a step at most for the records inside it (delays.h)


class DelayHistories:
    """One history per ``delay()`` of a system (``delays``: its ``Delay`` values)."""

    def __init__(self, delays):
        self.delays = tuple(delays)
        self.times: list[list[float]] = [[] for _ in self.delays]
        self.values: list[list[float]] = [[] for _ in self.delays]
        self.delay_times = [0.0] * len(self.delays)
        self.event_mode = False   # lookups at an event's instant read the value after it
        self.settled = -math.inf  # ... as do evaluations at the time of the last event

    def record(self, t: float, values, delay_times, delay_maxes) -> None:
        for k, (value, delay, most) in enumerate(zip(values, delay_times, delay_maxes)):
            if not 0.0 <= delay <= most:
                raise SimulationError(f"{self.delays[k].text}: the delay time {delay} is not "
                                      f"within [0, {most}] (the maximum delay time) at t = {t}",
                                      self.delays[k].span)
            self.delay_times[k] = delay
            _push(self.times[k], self.values[k], t, float(value), most)

    def value(self, k: int, at: float, now: float) -> float:
        """What delay ``k`` reads for the time ``at`` in an evaluation at ``now``."""
        times, values = self.times[k], self.values[k]
        if not times:
            return math.nan
        resolution = RESOLUTION * max(abs(now), abs(at))
        low, high = 0, len(times)
        while low < high:   # the first record not before `at`
            middle = (low + high) // 2
            if times[middle] < at - resolution:
                low = middle + 1
            else:
                high = middle
        if low == len(times):
            return values[-1]
        t = times[low]
        if t <= at + resolution:
            after = self.event_mode or now <= self.settled
            j = low
            while after and j + 1 < len(times) and times[j + 1] <= t + resolution:
                j += 1
            return values[j]
        if low == 0:
            return values[0]
        t0, v0 = times[low - 1], values[low - 1]   # the monotone cubic, as model_support.c
        step = t - t0
        secant = (values[low] - v0) / step
        left = right = secant
        if low >= 2 and t0 - times[low - 2] > resolution:
            before = t0 - times[low - 2]
            left = _slope(before, (v0 - values[low - 2]) / before, step, secant)
        if low + 1 < len(times) and times[low + 1] - t > resolution:
            after = times[low + 1] - t
            right = _slope(step, secant, after, (values[low + 1] - values[low]) / after)
        s = (at - t0) / step
        return v0 + (values[low] - v0) * s * s * (3.0 - 2.0 * s) + \
            step * s * (left * (s - 1.0) * (s - 1.0) + right * s * (s - 1.0))

    def next_event(self, now: float) -> float:
        """The earliest time after ``now`` at which a jump (two records at one instant)
        reappears (math.inf: none)."""
        earliest = math.inf
        for times, delay in zip(self.times, self.delay_times):
            if not delay > 0.0:
                continue
            for j in range(len(times) - 1, 0, -1):
                resolution = RESOLUTION * max(abs(now), abs(times[j]))
                if times[j] + delay <= now + resolution:
                    break
                if times[j] - times[j - 1] <= resolution:
                    earliest = min(earliest, times[j] + delay)
        return earliest

    def longest_step(self) -> float:
        """Steps no longer than the shortest delay time of a continuous expression read only
        what is recorded."""
        delays = [delay for item, delay in zip(self.delays, self.delay_times)
                  if not item.discrete and delay > 0.0]
        return min(delays, default=math.inf)


def _slope(h0: float, d0: float, h1: float, d1: float) -> float:
    """PCHIP's slope between intervals of lengths h0, h1 with secant slopes d0, d1."""
    if d0 * d1 <= 0.0:
        return 0.0
    w0, w1 = 2.0 * h1 + h0, h1 + 2.0 * h0
    return (w0 + w1) / (w0 / d0 + w1 / d1)


def _push(times: list, values: list, t: float, value: float, most: float) -> None:
    """Add (t, value) as fmu_templates/delays.c does."""
    while times and times[-1] > t:
        times.pop()
        values.pop()
    if times and times[-1] == t:
        if values[-1] == value:
            return
        if len(times) > 1 and times[-2] == t:
            values[-1] = value
            return
    times.append(t)
    values.append(value)
    drop = 0
    while len(times) - drop > 1 and times[drop + 1] <= t - most:
        drop += 1
    if drop:
        del times[:drop]
        del values[:drop]
