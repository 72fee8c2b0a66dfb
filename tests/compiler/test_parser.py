"""The Modelica parser: AST shapes, syntax errors with places, and unparse round trips."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from compiler.api import parse_file
from compiler.errors import Span
from compiler.lang import ParseError, ast, parse, parse_expression, unparse

MODELS = Path(__file__).parent / "models"


def _everything() -> ast.ClassDef:
    syntax = parse_file(MODELS / "Syntax.mo")
    (package,) = syntax.classes
    return next(e for e in package.body.elements if getattr(e, "name", "") == "Everything")


def test_stored_definition_and_class_kinds():
    syntax = parse_file(MODELS / "Syntax.mo")
    assert syntax.within == ast.TypeName(("Some", "Library"))
    (package,) = syntax.classes
    assert (package.kind, package.encapsulated) == ("package", True)
    kinds = {e.name: e.kind for e in package.body.elements if isinstance(e, ast.ClassDef)}
    assert kinds == {
        "Angle": "type", "Matrix3": "type", "Colour": "type", "Open": "type",
        "RealInput": "connector", "RealOutput": "connector", "Bus": "expandable connector",
        "Complex": "operator record", "Interface": "block", "quadratic": "function",
        "quadratic_der": "type", "logValue": "function", "defaultExternal": "function",
        "Everything": "model", "Base": "model", "Extended": "model", "Inner": "model"}


def test_imports():
    (package,) = parse_file(MODELS / "Syntax.mo").classes
    imports = [e for e in package.body.elements if isinstance(e, ast.Import)]
    assert imports == [
        ast.Import(("Modelica", "Units", "SI")),
        ast.Import(("Modelica", "Math"), alias="Short"),
        ast.Import(("Modelica", "Constants"), wildcard=True),
        ast.Import(("Modelica", "Blocks"), names=("Sources", "Math"))]


def test_short_classes_enumerations_and_der_classes():
    (package,) = parse_file(MODELS / "Syntax.mo").classes
    classes = {e.name: e for e in package.body.elements if isinstance(e, ast.ClassDef)}
    assert classes["Matrix3"].body == ast.ShortClass(
        ast.TypeName(("Real",)), (ast.IntLit(3), ast.IntLit(3)))
    assert classes["RealInput"].body.causality == "input"
    assert classes["RealInput"].description == "input signal"
    colour = classes["Colour"]
    assert [literal.name for literal in colour.body.literals] == ["red", "green", "blue"]
    assert colour.body.literals[0].description == "warm"
    assert classes["Open"].body == ast.Enumeration((), unspecified=True)
    assert classes["quadratic_der"].body == ast.DerClass(ast.TypeName(("quadratic",)), ("x",))
    assert classes["quadratic"].purity == "pure" and classes["logValue"].purity == "impure"
    assert classes["Inner"].extends_base and classes["Inner"].redeclare


def test_component_prefixes_and_modifications():
    elements = {e.name: e for e in _everything().body.elements if isinstance(e, ast.Component)}
    n = elements["n"]
    assert (n.final, n.variability, n.description) == (True, "parameter", "a final parameter")
    assert n.modification.arguments == (ast.ElementMod(("min",), ast.Modification(
        (), ast.IntLit(0))),)
    assert elements["world"].inner and elements["world"].outer
    assert elements["f"].flow == "flow" and elements["h"].flow == "stream"
    assert elements["z"].condition == ast.ComponentRef((ast.RefPart("use"),))
    assert elements["x"].dims == (ast.ComponentRef((ast.RefPart("n"),)),)
    assert elements["hidden"].protected and not elements["back"].protected
    assert elements["b"].replaceable and elements["b"].constraint.base.dotted == "Base"
    redeclares = elements["inner1"].modification.arguments
    assert [type(arg).__name__ for arg in redeclares] == ["ElementRedeclare", "ElementRedeclare"]
    assert redeclares[1].each and redeclares[1].final
    assert elements["'quoted name'"].type_name.dotted == "Real"
    assert elements["s"].modification.binding == ast.Binary(
        "+", ast.StrLit('a "quoted" string\n'), ast.StrLit("with concatenation"))


def test_sections_and_external_clauses():
    everything = _everything()
    body = everything.body
    assert [type(eq).__name__ for eq in body.equations] == [
        "EqFor", "EqFor", "EqIf", "EqWhen", "EqCall", "EqEquality", "EqEquality",
        "EqEquality", "EqEquality", "EqConnect"]
    assert len(body.initial_equations) == 1 and len(body.initial_algorithms) == 1
    assert [type(s).__name__ for s in body.algorithms[0]] == [
        "Assign", "ForStmt", "WhileStmt", "WhenStmt", "Assign", "CallStmt"]
    when = body.equations[3]
    assert len(when.branches) == 2
    assert body.equations[2].else_[0].description == "else branch"
    assert body.annotation.arguments[0].name == ("experiment",)
    (package,) = parse_file(MODELS / "Syntax.mo").classes
    classes = {e.name: e for e in package.body.elements if isinstance(e, ast.ClassDef)}
    external = classes["logValue"].body.external
    assert (external.language, external.function, external.output.dotted) == (
        "C", "log_value", "status")
    assert classes["defaultExternal"].body.external == ast.External("C")


@pytest.mark.parametrize("text, tree", [
    ("a + b*c", ast.Binary("+", ast.ComponentRef((ast.RefPart("a"),)), ast.Binary(
        "*", ast.ComponentRef((ast.RefPart("b"),)), ast.ComponentRef((ast.RefPart("c"),))))),
    ("-a^2", ast.Unary("-", ast.Binary("^", ast.ComponentRef((ast.RefPart("a"),)),
                                       ast.IntLit(2)))),
    ("-2^2", ast.Unary("-", ast.Binary("^", ast.IntLit(2), ast.IntLit(2)))),
    ("-2*x", ast.Binary("*", ast.IntLit(-2), ast.ComponentRef((ast.RefPart("x"),)))),
    ("not a or b", ast.Binary("or", ast.Unary("not", ast.ComponentRef((ast.RefPart("a"),))),
                              ast.ComponentRef((ast.RefPart("b"),)))),
    ("1:2:5", ast.Range(ast.IntLit(1), ast.IntLit(2), ast.IntLit(5))),
    ("x[end, :]", ast.ComponentRef((ast.RefPart("x", (ast.End(), ast.Colon())),))),
    ("f(1, y = 2)", ast.Call(ast.ComponentRef((ast.RefPart("f"),)), (ast.IntLit(1),),
                             (ast.NamedArg("y", ast.IntLit(2)),))),
    ("[1, 2; 3, 4]", ast.MatrixCons(((ast.IntLit(1), ast.IntLit(2)),
                                     (ast.IntLit(3), ast.IntLit(4))))),
    ("if c then 1 elseif d then 2 else 3", ast.IfExpr(
        ((ast.ComponentRef((ast.RefPart("c"),)), ast.IntLit(1)),
         (ast.ComponentRef((ast.RefPart("d"),)), ast.IntLit(2))), ast.IntLit(3))),
    ("1.5e3", ast.RealLit(1500.0)),
    (".a.b", ast.ComponentRef((ast.RefPart("a"), ast.RefPart("b")), is_global=True)),
])
def test_expressions(text, tree):
    assert parse_expression(text) == tree
    assert parse_expression(unparse(tree)) == tree


def test_spans_of_nodes():
    tree = parse("model M\n  Real x = a + 1;\nend M;\n", "M.mo")
    (cls,) = tree.classes
    (x,) = cls.body.elements
    assert cls.span == Span("M.mo", 1, 1, 3, 5)
    assert x.span == Span("M.mo", 2, 3, 2, 16)
    assert x.modification.binding.span == Span("M.mo", 2, 12, 2, 16)
    assert x.modification.binding.left.span == Span("M.mo", 2, 12, 2, 12)


SYNTAX_ERRORS = [
    ("model M\n  Real x;\nequation\n  x = ;\nend M;", "4:7: expected an expression, found ';'"),
    ("model M\n  Real x;\nequation\n  x = 1\nend M;",
     "5:1: expected ';' after equation, found 'end'"),
    ("model M\n  Real x = (1 + 2;\nend M;",
     "2:18: expected ')' to close '(' opened at 2:12, found ';'"),
    ("model M\n  Real x;\n", "3:1: expected 'end M;' to close model M opened at 1:1"),
    ("model M\nequation\n  for i in 1:3 loop\n  x = 1;\n  end when;\nend M;",
     "5:3: expected 'end for' to close for-equation opened at 3:3, found 'end when'"),
    ("model M\n  Real x = 1 < 2 < 3;\nend M;", "2:18: '<' cannot follow '<' without parentheses"),
    ("model M\n  Real x = if a then b;\nend M;",
     "2:23: expected 'else' in if-expression (an if-expression needs an else branch), "
     "found ';'"),
    ("model M\n  Real x = 1 $ 2;\nend M;", "2:14: unexpected character '$'"),
    ("model M\n  /* open comment\nend M;", "2:3: unterminated comment"),
    ("modle M\nend M;",
     "1:1: expected a class kind (model, block, connector, record, function, ...), "
     "found 'modle'"),
    ("model M\n  Real 3x;\nend M;", "2:8: expected a component name after type 'Real', found '3'"),
    ("model M\nequation\n  x := 1;\nend M;", "3:5: expected '=' in equation, found ':='"),
    ("model M\n  Real x = f(a = 1, 2);\nend M;",
     "2:21: expected a named argument (positional arguments come first), found '2'"),
    ("within A.B\nmodel M\nend M;", "2:1: expected ';' after 'within', found 'model'"),
    ("model M\n  Real x = (((((((((((((((((((((((((((((1;\nend M;",
     "2:42: expected ')' to close '(' opened at 2:40, found ';'"),
]


@pytest.mark.parametrize("text, expected", SYNTAX_ERRORS)
def test_syntax_errors(text, expected):
    with pytest.raises(ParseError) as caught:
        parse(text, "T.mo")
    assert str(caught.value) == "T.mo:" + expected


def test_runaway_nesting_is_a_syntax_error():
    depth = sys.getrecursionlimit() * 2
    with pytest.raises(ParseError) as caught:
        parse("model M\n  Real x = " + "(" * depth + "1" + ")" * depth + ";\nend M;", "T.mo")
    assert caught.value.message == "nesting too deep"


def _corpus() -> list[str]:
    """Every Modelica text of the test suite: model files and the sources in test modules."""
    texts = [path.read_text() for path in sorted(MODELS.glob("*.mo"))]
    source = re.compile(r'"""\n((?:(?:model|block|package|function|connector|record|type|'
                        r'partial|within|connector)\b.*?))"""', re.DOTALL)
    for module in sorted(Path(__file__).parent.glob("test_*.py")):
        texts.extend(source.findall(module.read_text()))
    return texts


def test_the_corpus_is_large():
    assert len(_corpus()) > 100


@pytest.mark.parametrize("index", range(0, 8))
def test_unparse_round_trip_over_the_corpus(index):
    texts = _corpus()
    checked = 0
    for text in texts[index::8]:
        try:
            tree = parse(text, "T.mo")
        except ParseError:
            continue  # the rejected models include syntax errors on purpose
        assert parse(unparse(tree), "U.mo") == tree
        checked += 1
    assert checked > 0


def test_fast_constructors_build_ordinary_instances():
    import dataclasses

    from compiler.lang.fastnew import fast_constructor

    span = Span("F.mo", 1, 2, 3, 4)
    for cls in vars(ast).values():
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
            continue
        values = [f"v{i}" for i, _ in enumerate(dataclasses.fields(cls))]
        made = fast_constructor(cls)(*values)
        assert type(made) is cls and made == cls(*values)
        assert [getattr(made, field.name) for field in dataclasses.fields(cls)] == values
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(made, dataclasses.fields(cls)[0].name, span)
    made_span = fast_constructor(Span)("F.mo", 1, 2, 3, 4)
    assert made_span == span and hash(made_span) == hash(span) and str(made_span) == "F.mo:1:2"
