"""cosim.build: what Python class bodies and equations build, and where bad input is refused.

The ASTs are compared with what the parser makes of the same Modelica text; errors are one
located line in the Python file of the offending declaration or equation.
"""
from __future__ import annotations

import inspect
import textwrap

import pytest

from compiler.flatten import FlattenError
from compiler.lang import ast, parse
from compiler.lang.unparse import unparse
from cosim.build import (
    BuildError, Connector, For, Function, If, Integer, Model, Real, When, While, array,
    assign, connect, der, each, flatten_class, flow, from_library, if_, input, irange, lit,
    load_class, modelica_text, output, parameter, pre, sample, stored_definition, sum_, time,
)

__modelica_package__ = ""  # the classes of this file are top-level Modelica classes

HERE = __file__


def line_of(text: str) -> int:
    """The line of this file holding ``text`` (for the expected error places)."""
    lines = inspect.getsource(inspect.getmodule(line_of)).splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)


def class_of(cls) -> ast.ClassDef:
    """The definition of ``cls`` in its stored definition (which holds what it uses too)."""
    return next(item for item in stored_definition(cls).classes if item.name == cls.__name__)


def parsed_class(text: str) -> ast.ClassDef:
    return parse(textwrap.dedent(text), "expected.mo").classes[0]


class NewtonCooling(Model):
    """A hot object cooling toward ambient"""
    k = parameter(Real, 0.5, unit="1/s", doc="Cooling coefficient")
    T = Real(unit="degC", start=90, fixed=True, doc="Object temperature")

    def equations(self):
        yield der(self.T) == -self.k * self.T


def test_the_issue_example_is_the_modelica_class():
    assert class_of(NewtonCooling) == parsed_class('''
        model NewtonCooling "A hot object cooling toward ambient"
          parameter Real k(unit = "1/s") = 0.5 "Cooling coefficient";
          Real T(unit = "degC", start = 90, fixed = true) "Object temperature";
        equation
          der(T) = -k*T;
        end NewtonCooling;''')


def test_a_declaration_reads_as_a_reference_without_an_instance():
    assert unparse(NewtonCooling.T._node) == "T"
    assert unparse((NewtonCooling.k * 2)._node) == "k * 2"


class Fall(Model):
    h = Real(start=1, fixed=True)
    v = Real(start=0, fixed=True)

    def equations(self):
        yield der(self.h) == self.v
        yield der(self.v) == -9.81


def test_equality_keeps_the_sides_as_written():
    # der(h) and v are both model expressions: Python's reflected-operand rule (a subclass
    # on the right asked first) must not swap them
    first = class_of(Fall).body.equations[0]
    assert (unparse(first.lhs), unparse(first.rhs)) == ("der(h)", "v")
    # a number on the left is asked last by Python: lit() keeps it there
    assert unparse((lit(0) == Fall.h)._equation[0]) == "0"


class XY(Model):
    x = Real()
    y = Real()


def test_operators_build_the_trees_the_parser_builds():
    x, y = XY.x, XY.y
    cases = {"-x*y": -x * y, "-x/y*2": -x / y * 2, "-x + y": -x + y, "-x^2": -x ** 2,
             "(-2)^x": (-2) ** x, "x * (-y)": x * -y, "2*x - -3": 2 * x - -3,
             "not x > 0 and y < 1": ~(x > 0) & (y < 1), "x <> y or x >= y": (x != y) | (x >= y),
             "if x > 0 then 1 elseif x < -1 then -1 else 0": if_(x > 0, 1, x < -1, -1, 0),
             "{i*x for i in 1:3}": array(irange(1, 3), lambda i: i * x),
             "sum(x^i for i in 1:2)": sum_(irange(1, 2), lambda i: x ** i),
             "abs(x) + time": abs(x) + time}
    for text, built in cases.items():
        expected = parse(f"model M equation 0 = {text}; end M;", "m.mo")
        assert built._node == expected.classes[0].body.equations[0].rhs, text


class Pin(Connector):
    v = Real()
    i = flow(Real)


class Port2(Model):
    p = Pin()
    n = Pin()
    lambda_ = Real()


def test_python_keywords_take_a_trailing_underscore():
    assert [c.name for c in class_of(Port2).body.elements] == \
        ["p", "n", "lambda"]
    assert unparse(Port2.lambda_._node) == "lambda"


class Gain(Model):
    k = parameter(Real, 2)
    u = input(Real)
    y = output(Real)

    def equations(self):
        yield self.y == self.k * self.u


class Twice(Gain(k=4)):
    """A gain of 4: extends Gain(k = 4)"""


class Chain(Model, experiment={"StopTime": 2}):
    N = parameter(Integer, 3)
    g = Gain[N](k=each(1.5), u=each({"start": 0}))
    total = output(Real)

    def equations(self):
        yield self.g[1].u == time
        yield For(irange(2, self.N), lambda i: self.g[i].u == self.g[i - 1].y)
        yield self.total == sum_(irange(1, self.N), lambda i: self.g[i].y)


def test_extends_with_modifiers_arrays_and_for_equations():
    assert modelica_text(Twice).count("extends Gain(k = 4);") == 1
    text = modelica_text(Chain)
    assert "Gain g[N](each k = 1.5, each u(start = 0));" in text
    assert "for i in 2:N loop" in text
    flat = flatten_class(Chain)
    assert [v.name for v in flat.variables if v.name.endswith(".k")] == \
        ["g[1].k", "g[2].k", "g[3].k"]
    assert flat.experiment.stop_time == 2


class Sq(Function):
    x = input(Real)
    y = output(Real)

    def algorithm(self):
        yield assign(self.y, self.x * self.x)


class Counter(Model):
    n = Integer(start=0, fixed=True)
    x = Real(start=0, fixed=True)
    y = Real()
    z = Real()

    def equations(self):
        yield der(self.x) == Sq(time)
        yield When(sample(0, 0.1), self.n == pre(self.n) + 1)
        yield If(self.x > 1, self.y == 1).elseif_(self.x > 0.5, self.y == 0.5).else_(self.y == 0)

    def algorithm(self):
        yield While(lit(False), assign(self.z, 0))


def test_functions_when_if_and_algorithms():
    cls = parsed_class('''
        model Counter
          Integer n(start = 0, fixed = true);
          Real x(start = 0, fixed = true);
          Real y;
          Real z;
        equation
          der(x) = Sq(time);
          when sample(0, 0.1) then n = pre(n) + 1; end when;
          if x > 1 then y = 1; elseif x > 0.5 then y = 0.5; else y = 0; end if;
        algorithm
          while false loop z := 0; end while;
        end Counter;''')
    assert class_of(Counter) == cls
    flat = flatten_class(Counter)
    assert [f.name for f in flat.functions] == ["Sq"]


def test_round_trip_of_everything_above():
    for cls in (NewtonCooling, Fall, Port2, Twice, Chain, Counter):
        stored = stored_definition(cls)
        assert parse(unparse(stored), "again.mo") == stored


def test_a_class_of_a_module_is_in_the_package_of_the_module(tmp_path, monkeypatch):
    (tmp_path / "plant_lib").mkdir()
    (tmp_path / "plant_lib" / "__init__.py").write_text("")
    (tmp_path / "plant_lib" / "parts.py").write_text(textwrap.dedent('''
        from cosim.build import Model, Real, der

        class Decay(Model):
            x = Real(start=1, fixed=True)

            def equations(self):
                yield der(self.x) == -self.x
        '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    from plant_lib.parts import Decay

    class Uses(Model):
        d = Decay()
    text = modelica_text(Uses)
    assert "plant_lib.parts.Decay d;" in text
    assert "package plant_lib\n  package parts\n    model Decay" in text
    assert flatten_class(Uses).name == "Uses"


def test_library_classes_come_from_the_search_path():
    Resistor = from_library("Electrical.Resistor")

    class Loaded(Model):
        r = Resistor(R=5)
    flat = flatten_class(Loaded, libs=["tests/compiler/models/Electrical.mo"])
    assert flat.variable("r.R").binding is not None


# ------------------------------------------------------------------------------ errors
def test_unknown_member_is_refused_at_its_line():
    class Bad(Model):
        p = Pin()

        def equations(self):
            yield self.p.vv == 0  # unknown member
    with pytest.raises(BuildError) as caught:
        stored_definition(Bad)
    line = line_of("# unknown member")
    column = inspect.getsource(inspect.getmodule(line_of)).splitlines()[line - 1].index("self")
    assert str(caught.value) == \
        f"{HERE}:{line}:{column + 1}: Pin has no element 'vv' (its elements: v, i)"


def test_python_truth_tests_are_refused_with_the_way_out():
    class Bad(Model):
        x = Real()

        def equations(self):
            yield self.x == (1 if self.x > 0 else 0)  # truth value
    with pytest.raises(BuildError, match="no truth value.*use &, \\|, ~, if_") as caught:
        stored_definition(Bad)
    assert caught.value.span.line == line_of("# truth value")


def test_a_python_exception_in_equations_is_located():
    class Bad(Model):
        x = Real()

        def equations(self):
            yield self.x == undefined  # noqa: F821 (the error under test)
    with pytest.raises(BuildError) as caught:
        stored_definition(Bad)
    assert caught.value.span.line == line_of("yield self.x == undefined")
    assert "Bad.equations: NameError: name 'undefined' is not defined" in str(caught.value)


def test_flattener_errors_point_at_the_python_declaration():
    class Unbalanced(Model):
        x = Real(start=1, fixed=True, unitt="m")  # bad attribute
    with pytest.raises(FlattenError) as caught:
        flatten_class(Unbalanced)
    assert caught.value.span.file == HERE
    assert caught.value.span.line == line_of("# bad attribute")


def test_names_that_are_not_modelica_identifiers_are_refused():
    with pytest.raises(BuildError, match="'model' is a Modelica keyword") as caught:
        class Bad(Model):
            model = Real()  # keyword
    assert caught.value.span.line == line_of("# keyword")
    with pytest.raises(BuildError, match="not an equation"):
        class NotAnEquation(Model):
            x = Real()

            def equations(self):
                yield self.x + 1
        stored_definition(NotAnEquation)


def test_a_statement_in_equations_and_connect_in_algorithms_are_refused():
    class Bad(Model):
        x = Real()

        def equations(self):
            yield assign(self.x, 1)
    with pytest.raises(BuildError, match="assign\\(\\) is a statement"):
        stored_definition(Bad)

    class Worse(Model):
        p = Pin()
        q = Pin()

        def algorithm(self):
            yield connect(self.p, self.q)
    with pytest.raises(BuildError, match="connect\\(\\) is an equation"):
        stored_definition(Worse)


def test_a_file_that_fails_to_run_is_located(tmp_path):
    source = tmp_path / "broken.py"
    source.write_text("from cosim.build import Model\n\nclass M(Model):\n    x = 1 / 0\n")
    with pytest.raises(BuildError) as caught:
        load_class(source)
    assert str(caught.value).startswith(f"{source.resolve()}:4:9: running broken.py: "
                                        "ZeroDivisionError")
    (tmp_path / "syntax.py").write_text("class (:\n")
    with pytest.raises(BuildError, match="syntax.py:1:"):
        load_class(tmp_path / "syntax.py")
    with pytest.raises(BuildError, match="class 'Nope' not found; empty.py defines no model"):
        (tmp_path / "empty.py").write_text("x = 1\n")
        load_class(tmp_path / "empty.py", "Nope")
