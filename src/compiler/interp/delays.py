"""The histories of ``delay()`` in the reference interpreter, as the FMU runtime keeps them.

Input: the records the simulation loop takes (time, the delayed expressions' values, their
delay times and maximum delay times). Output: the value ``delay(k, at)`` reads, the next
time at which a recorded jump reappears, and the longest step lookups allow. The rules are
those of ``compiler.system.Delay`` and fmu_templates/delays.c, model_support.c: records
before and after every event (two at one instant), cubics through the records around a
lookup (fewer at a jump), the first record before the history, the last beyond it.
"""
from __future__ import annotations

import math

from compiler.interp.errors import SimulationError

RESOLUTION = 1e-13   # relative: records closer in time are at one instant (model_support.h)
RECORDS_PER_STEP = 3   # evenly spaced records an integrator step gives (cosimulation.c)


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
        nodes = [low - 1, low]
        if low >= 2 and times[low - 1] - times[low - 2] > resolution:
            nodes.append(low - 2)
        if low + 1 < len(times) and times[low + 1] - times[low] > resolution:
            nodes.append(low + 1)
        x = [times[i] for i in nodes]
        d = [values[i] for i in nodes]
        n = len(nodes)
        for j in range(1, n):   # divided differences (Newton's form, as model_support.c)
            for i in range(n - 1, j - 1, -1):
                d[i] = (d[i] - d[i - 1]) / (x[i] - x[i - j])
        result = d[n - 1]
        for i in range(n - 2, -1, -1):
            result = result * (at - x[i]) + d[i]
        return result

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
