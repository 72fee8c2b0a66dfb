"""FMI 3.0 clocks of a hand-written FMU (thirdparty/clocks3.c) in Scheduled Execution, clocked
Co-Simulation (Event Mode) and clocked Model Exchange: the counters at each row against the
ticks of its clocks, in process and isolated.

Clocks3: ``tick`` every 0.25 s from 0 (priority 0), ``trigger`` at the times of the input file
(0.3 and 1.0 here), ``countdown`` 0.1 s after every 4th tick (0.85 and 1.85).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from cosim import api
from cosim.master.plan import PlanError

TRIGGERS = "time,trigger\n0.3,1\n0.6,0\n1.0,1\n"
INTERFACES = pytest.mark.parametrize("interface, isolate", [
    ("se", False), ("se", True), ("cs", False), ("cs", True), ("me", False), ("me", True)])


def counts(t: float) -> tuple[int, int, int]:
    """(ticks, triggers, countdowns) after every tick at or before t."""
    eps = 1e-9
    ticks = math.floor(float(t) / 0.25 + eps) + 1
    t = float(t)
    return ticks, int(t >= 0.3 - eps) + int(t >= 1.0 - eps), \
        int(t >= 0.85 - eps) + int(t >= 1.85 - eps)


@pytest.fixture
def triggers(tmp_path):
    path = tmp_path / "triggers.csv"
    path.write_text(TRIGGERS)
    return path


@INTERFACES
def test_the_counters_follow_the_ticks(built, triggers, interface, isolate):
    result = api.run(built["Clocks3"], interface=interface, isolate=isolate, input=triggers,
                     event_rows=False)
    values = result.values
    assert len(values) == 21
    got = list(zip(values["Clocks3.ticks"], values["Clocks3.triggers"],
                   values["Clocks3.countdowns"]))
    assert got == [counts(t) for t in values["time"]]
    assert values["Clocks3.countdown_time"][-1] == pytest.approx(1.85, abs=1e-12)


@pytest.mark.parametrize("interface", ["cs", "me"])
def test_ticks_between_communication_points_have_rows(built, triggers, interface):
    values = api.run(built["Clocks3"], interface=interface, input=triggers).values
    t, ticks = values["time"], values["Clocks3.ticks"]
    at = np.flatnonzero(np.isclose(t, 0.25))  # between the points 0.2 and 0.3
    assert list(ticks[at]) == [1, 2]          # just before the tick, then after it
    at = np.flatnonzero(np.isclose(t, 0.85))
    assert list(values["Clocks3.countdowns"][at]) == [0, 1]


def test_a_scheduled_execution_only_fmu_runs(built, triggers):
    # defect 1: the planner took the first of the CS and ME interfaces, and there was none
    values = api.run(built["ClocksSE3"], input=triggers).values
    assert list(values["ClocksSE3.ticks"]) == \
        [counts(t)[0] for t in values["time"]]
    with pytest.raises(PlanError) as caught:
        api.run(built["ClocksSE3"], interface="cs")
    assert str(caught.value) == ("ClocksSE3.fmu: component 'ClocksSE3': --interface cs asked "
                                 "for, but the FMU offers only Scheduled Execution")


def test_a_triggered_clock_no_file_ticks_is_a_warning(built, caplog):
    values = api.run(built["Clocks3"], interface="se").values
    assert set(values["Clocks3.triggers"]) == {0}
    assert ("Clocks3.fmu: warning: component 'Clocks3': clock 'trigger' is triggered and no "
            "input file column ticks it: it never ticks") in caplog.text
