"""Library loading: directory packages, package.order, search path, lazy per-class parsing."""
from __future__ import annotations

import pytest

from compiler import api
from compiler.errors import CompilerError
from compiler.lang import ParseError
from compiler.library import Library, LibraryError


def _write(root, files: dict) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.fixture
def plant(tmp_path):
    """A directory package with a nested package, package.order and one broken class."""
    root = tmp_path / "libs"
    _write(root, {
        "Plant/package.mo": 'package Plant "plant models"\n  constant Real g = 9.81;\n'
                            "  model Inline\n    Real y = 1;\n  end Inline;\nend Plant;\n",
        "Plant/package.order": "Tank\nValves\nBroken\nInline\n",
        "Plant/Tank.mo": "within Plant;\nmodel Tank\n  parameter Real A = 2;\n"
                         "  Real h(start = 1, fixed = true);\n  Valves.Valve valve;\n"
                         "equation\n  A*der(h) = -valve.q;\n  valve.dp = g*h;\nend Tank;\n",
        "Plant/Valves/package.mo": "within Plant;\npackage Valves\nend Valves;\n",
        "Plant/Valves/Valve.mo": "within Plant.Valves;\nmodel Valve\n  parameter Real k = 0.1;\n"
                                 "  Real dp, q;\nequation\n  q = k*dp;\nend Valve;\n",
        "Plant/Broken.mo": "within Plant;\nmodel Broken\n  Real x\nend Broken;\n",
    })
    return root


def test_directory_package_classes_are_found(plant, flatten):
    model = flatten("model Test\n  Plant.Tank tank;\nend Test;\n", libs=[plant])
    assert flatten.equations(model.equations) == [
        "tank.A * der(tank.h) = -tank.valve.q;", "tank.valve.dp = 9.81 * tank.h;",
        "tank.valve.q = tank.valve.k * tank.valve.dp;"]


def test_a_broken_class_does_not_stop_the_rest(plant, flatten):
    model = flatten("model Test\n  Plant.Inline i;\nend Test;\n", libs=[plant])
    assert flatten.equations(model.equations) == ["i.y = 1;"]


def test_a_broken_class_reports_its_error_when_used(plant, flatten):
    with pytest.raises(ParseError) as caught:
        flatten("model Test\n  Plant.Broken b;\nend Test;\n", libs=[plant])
    assert str(caught.value) == (f"{plant / 'Plant' / 'Broken.mo'}:4:1: expected ';' after "
                                 "declaration, found 'end'")


def test_package_order_orders_the_classes(plant):
    library = Library()
    library.add_path(plant)
    package = library.lookup("Plant")
    assert list(package.children()) == ["Tank", "Valves", "Broken", "Inline"]
    assert library.lookup("Plant.Valves.Valve").full_name == "Plant.Valves.Valve"
    assert library.lookup("Plant.Missing") is None


def test_a_package_folder_itself_can_be_the_library(plant, flatten):
    model = flatten("model Test\n  Plant.Valves.Valve v(dp = 1);\nend Test;\n",
                    libs=[plant / "Plant"])
    assert flatten.variables(model) == ["parameter Real v.k = 0.1;", "Real v.dp;", "Real v.q;"]


def test_modelicapath_is_searched_after_libs(plant, tmp_path):
    other = tmp_path / "other"
    _write(other, {"Plant.mo": "package Plant\n  model Tank\n    Real z = 0;\n  end Tank;\n"
                               "end Plant;\n",
                   "Extra.mo": "package Extra\n  constant Real c = 2;\nend Extra;\n"})
    model_file = tmp_path / "Test.mo"
    model_file.write_text("model Test\n  Plant.Tank t;\n  Real c = Extra.c;\nend Test;\n")
    environ = {"MODELICAPATH": f"{other}"}
    model = api.flatten_model(model_file, libs=[plant], environ=environ)
    assert [var.name for var in model.variables][:2] == ["t.A", "t.h"]
    model = api.flatten_model(model_file, environ=environ)
    assert [var.name for var in model.variables] == ["t.z", "c"]


def test_single_file_library(tmp_path, flatten):
    lib = tmp_path / "Units.mo"
    lib.write_text('package Units\n  type Length = Real(unit = "m");\nend Units;\n')
    model = flatten("model Test\n  Units.Length l = 1;\nend Test;\n", libs=[lib])
    assert flatten.variables(model) == ['Real l(unit = "m");']


def test_a_library_file_must_define_its_class(tmp_path, flatten):
    _write(tmp_path / "libs", {"Pkg/package.mo": "package Pkg\nend Pkg;\n",
                               "Pkg/Wrong.mo": "within Pkg;\nmodel Other\nend Other;\n"})
    with pytest.raises(LibraryError) as caught:
        flatten("model Test\n  Pkg.Wrong w;\nend Test;\n", libs=[tmp_path / "libs"])
    assert caught.value.message == "file must define exactly the class Wrong, found Other"
    assert caught.value.span.file.endswith("Wrong.mo")


def test_within_a_missing_package(tmp_path, flatten):
    with pytest.raises(CompilerError) as caught:
        flatten("within Nowhere.Deep;\nmodel Test\nend Test;\n")
    assert caught.value.message == ("package 'Nowhere.Deep' of the within clause is not on the "
                                    "library path (add it with --lib or MODELICAPATH)")
    assert (caught.value.span.line, caught.value.span.col) == (1, 8)


def test_a_missing_library_location(tmp_path):
    with pytest.raises(LibraryError) as caught:
        api.flatten_model(tmp_path / "x.mo", libs=[tmp_path / "nowhere"], environ={})
    assert caught.value.message == "no such file or directory"


def test_model_name_defaults_to_the_last_class_and_can_be_relative(plant, tmp_path):
    source = plant / "Plant" / "Tank.mo"
    assert api.flatten_model(source, libs=[plant], environ={}).name == "Plant.Tank"
    path = tmp_path / "Two.mo"
    path.write_text("model A\n  Real a = 1;\nend A;\nmodel B\n  Real b = 2;\nend B;\n")
    assert api.flatten_model(path, environ={}).name == "B"
    assert api.flatten_model(path, "A", environ={}).name == "A"


def test_a_package_mo_given_as_the_file_sees_its_folder(plant):
    model = api.flatten_model(plant / "Plant" / "package.mo", "Plant.Tank", environ={})
    assert model.name == "Plant.Tank" and len(model.equations) == 3


def test_stale_modelicapath_entries_are_ignored(plant, tmp_path):
    environ = {"MODELICAPATH": f"{tmp_path / 'gone'}:{plant}"}
    model = api.flatten_model(plant / "Plant" / "Tank.mo", environ=environ)
    assert model.name == "Plant.Tank"
