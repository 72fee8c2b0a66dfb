"""A prepared system run many times: the same numbers as fresh runs, the instances reset
between runs, instantiated again after a failed run or where an FMU refuses the reset."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cosim import api
from cosim.fmi import FmiCallError, FmuInstance
from cosim.master import PlanError, Settings, prepare

FEEDBACK = Path(__file__).resolve().parents[2] / "ssp_examples" / "feedback.ssp"


def test_runs_equal_fresh_runs_and_reuse_the_instances():
    cases = [{"Controller.b": 4.0, "Controller.c": -4.0}, {"Controller.b": 1.0},
             {}, {"Controller.c": -1.5, "Plant.a": -2.0}]
    with prepare(FEEDBACK, Settings(stop_time=2.0)) as session:
        assert session.columns == ("Plant.x", "Controller.y")
        for parameters in cases:
            result = session.run(parameters)
            fresh = api.run(FEEDBACK, stop_time=2.0, parameters=parameters)
            assert np.array_equal(result.values, fresh.values)
        assert (session.instantiations, session.resets) == (1, 3)


def test_a_run_sets_its_parameters_over_the_sessions():
    # the file sets Controller.b = 4 (y = 4 (1 - w)); the session's settings set b = 2
    with prepare(FEEDBACK, Settings(parameters=(("Controller.b", 2.0),))) as session:
        kept = session.run().values[-1]
        changed = session.run({"Controller.c": -2.0}).values[-1]
        again = session.run().values[-1]
    # x settles where x = b + c x (in m): b / (1 - c)
    assert kept["Plant.x"] == pytest.approx(1000 * 2 / 5, rel=1e-6)
    assert changed["Plant.x"] == pytest.approx(1000 * 2 / 3, rel=1e-6)
    assert again == kept


def test_unknown_parameter_is_refused_before_running():
    with prepare(FEEDBACK) as session:
        with pytest.raises(PlanError) as error:
            session.check({"Plant.nothing": 1.0})
        assert error.value.message == "parameter 'Plant.nothing': the FMU has no variable " \
                                      "'nothing'"
        with pytest.raises(PlanError) as error:
            session.run({"Pump.k": 1.0})
        assert error.value.message.startswith("parameter 'Pump.k': no component of that name")


def test_a_failed_run_does_not_spoil_the_next(built):
    with prepare(built["Fail"], Settings(stop_time=1.0)) as session:
        with pytest.raises(FmiCallError) as error:
            session.run({"Fail.t_fail": 0.5})
        assert error.value.function == "fmi3DoStep"
        assert "the model fails after t_fail = 0.5" in error.value.fmu_message
        result = session.run({"Fail.t_fail": 2.0})
        assert session.instantiations == 2  # the failed instance was not reset but replaced
        assert np.allclose(result.values["Fail.x"], result.values["time"], rtol=1e-12)


def test_an_fmu_that_refuses_the_reset_is_instantiated_again(monkeypatch):
    call = FmuInstance.call

    def refuse_reset(self, function, *args):
        if function == "fmi3Reset":
            raise FmiCallError(function, 3, self.name, None, "no reset here")
        return call(self, function, *args)

    monkeypatch.setattr(FmuInstance, "call", refuse_reset)
    with prepare(FEEDBACK) as session:
        first = session.run({"Controller.b": 2.0}).values
        second = session.run({"Controller.b": 2.0}).values
        assert (session.instantiations, session.resets) == (2, 0)
    assert np.array_equal(first, second)


@pytest.mark.slow  # builds Python FMUs and starts their interpreters
def test_third_party_fmus_reset_between_runs(tmp_path, built):
    from test_master_run import pack
    from test_third_party import feedback

    system = pack(tmp_path, built, feedback(2.0, 0.25), fmus=("Lag", "PyGain3", "PyGain2"))
    with prepare(system) as session:
        for k3 in (2.0, 1.0, 3.0):
            result = session.run({"G3.k": k3})
            assert np.array_equal(result.values,
                                  api.run(system, parameters={"G3.k": k3}).values)
        assert (session.instantiations, session.resets) == (1, 2)


def test_model_exchange_components_get_a_new_driver_each_run(tmp_path, built):
    from test_me_driver import me_system

    system = me_system(tmp_path, built, "BouncingBall", ("h", "v"))
    settings = Settings(stop_time=1.0, step_size=0.01, tolerance=1e-8)
    with prepare(system, settings) as session:
        for e in (0.7, 0.5, 0.7):
            result = session.run({"BouncingBall.e": e})
            fresh = api.run(system, stop_time=1.0, step_size=0.01, tolerance=1e-8,
                            parameters={"BouncingBall.e": e})
            assert np.array_equal(result.values, fresh.values)
        assert (session.instantiations, session.resets) == (1, 2)
