"""The DAE classification report (compiler.classify, `cosim check --json`, --require-ode) on
models that are ODEs, trivially factorable, and truly implicit (an algebraic loop, the
pendulum in Cartesian coordinates). The counts are worked out by hand in the comments."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from compiler.api import flatten_model
from compiler.classify import NONTRIVIAL_DAE, NontrivialDae, classify, require_ode
from cosim.build import Model, Real, der, flatten_class, sin
from cosim.cli import main

__modelica_package__ = ""
ROOT = Path(__file__).resolve().parents[2]
PENDULUM = ROOT / "tests/compiler/causalize_models/Pendulum.mo"


def counts(report) -> tuple:
    return (len(report.equations), report.count("differential"), report.count("algebraic"),
            report.trivially_factored, len(report.residuals))


def test_an_ode_without_algebraic_variables():
    # der(h) = v, der(v) = -g: differential; the when-equation for bounces: an explicit
    # (discrete) algebraic equation; no continuous algebraic variable: index 0
    report = classify(flatten_model(ROOT / "tests/compiler/models/BouncingBall.mo"))
    assert report.system_class == "ode"
    assert counts(report) == (3, 2, 1, 1, 0)
    assert (report.index, report.states, report.aliases) == (0, ("h", "v"), 0)


class Factorable(Model):
    """a = 2 x, b = a + 1 and c = b (an alias) are substituted away: der(x) = -(2 x + 1)"""
    x = Real(start=1, fixed=True)
    a = Real()
    b = Real()
    c = Real()

    def equations(self):
        yield self.a == 2 * self.x
        yield self.b == self.a + 1
        yield self.c == self.b
        yield der(self.x) == -self.c


def test_trivially_factorable_algebraic_equations_leave_an_ode():
    report = classify(flatten_class(Factorable))
    # c = b is an alias (eliminated first); der(x) := -b differential; a, b explicit
    assert report.system_class == "ode"
    assert counts(report) == (3, 1, 2, 2, 0)
    assert (report.aliases, report.index, report.blocks) == (1, 1, 3)
    # Chassis.mo: f_s explicit, m_s*a_s = -f_s solved for a_s, der(z_s), der(v_s)
    chassis = classify(flatten_model(ROOT / "ssp_examples/quarter_car/Chassis.mo"))
    assert counts(chassis) == (4, 2, 2, 2, 0)
    assert chassis.system_class == "ode"
    assert require_ode(chassis) is chassis


class Loop(Model):
    """y + sin(y) = x cannot be solved for y: a torn nonlinear loop that stays"""
    x = Real(start=1, fixed=True)
    y = Real()
    z = Real()

    def equations(self):
        yield der(self.x) == -self.x + self.y
        yield self.y + sin(self.y) == self.x  # the residual
        yield self.z == 2 * self.y


def test_an_algebraic_loop_makes_a_dae():
    report = classify(flatten_class(Loop))
    assert report.system_class == "dae"
    assert counts(report) == (3, 1, 2, 1, 1)
    assert (report.torn_blocks, report.linear_blocks, report.index) == (1, 0, 1)
    (residual,) = report.residuals
    assert residual.solves == ("y",)
    assert (Path(residual.span.file).name, residual.span.line) == \
        ("test_classify.py", _line_of("# the residual"))


def test_the_cartesian_pendulum_is_an_index_3_dae():
    report = classify(flatten_model(PENDULUM))
    # 5 equations + index reduction: the constraint differentiated twice, der(x) = vx and
    # der(y) = vy once each: 9. Differential: der(x) := vx only (x, vx are the states; y and
    # vy got dummy derivatives). Explicit algebraic: der(y) from the differentiated
    # constraint, vy := der(y). Residuals: the constraint (torn, for y) and the 5 equations of
    # the linear block for lambda, der(vx), der(vy), der(der(x)), der(der(y)).
    assert report.system_class == "dae"
    assert counts(report) == (9, 1, 8, 2, 6)
    assert (report.index, report.states) == (3, ("x", "vx"))
    assert (report.linear_blocks, report.torn_blocks) == (1, 1)
    lines = sorted({item.span.line for item in report.residuals})
    assert lines == [12, 13, 14, 15, 16]
    with pytest.raises(NontrivialDae) as caught:
        require_ode(report)
    message = caught.value.message
    assert message.startswith(f"{NONTRIVIAL_DAE}: Pendulum stays a DAE after trivial "
                              "factoring, 6 residual equations: ")
    for line in lines:
        assert f"Pendulum.mo:{line}:3: " in message


def test_cli_json_and_require_ode(capsys):
    assert main(["check", str(PENDULUM), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["class"], report["index"], report["equations"]["residual"]) == ("dae", 3, 6)
    assert report["summary"]["states"] == 4  # x, y, vx, vy appear differentiated
    assert len(report["classification"]) == 9
    assert main(["check", str(PENDULUM), "--require-ode"]) == 1
    err = capsys.readouterr().err
    assert f"error: {NONTRIVIAL_DAE}: Pendulum stays a DAE" in err and err.count("\n") == 1
    assert main(["check", str(ROOT / "ssp_examples/dc_motor/DCMotor.mo"), "--require-ode",
                 "--dae"]) == 0
    assert "DCMotor: ODE, index 1 before reduction, 2 states (w, i)" in capsys.readouterr().out


def _line_of(text: str) -> int:
    return next(n for n, line in enumerate(Path(__file__).read_text().splitlines(), 1)
                if text in line and "_line_of" not in line)
