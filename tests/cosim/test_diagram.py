"""cosim diagram: pictures of every ssp_examples/ system and of compiler test models, checked
for content (every component and connection present, names the flat model has), for
determinism (byte-identical output) and for what an SVG may hold; one SVG rendered by
rsvg-convert (Debian's librsvg2-bin, installed by .ci/run)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from lxml import etree

import cosim
from compiler.api import flatten_model
from compiler.causalize import causalize
from cosim.cli import main
from cosim.diagrams import diagram
from cosim.ssp import load
from cosim.ssp.model import System

from tests.build.pairs import python_class

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(path for path in (ROOT / "ssp_examples").iterdir()
                  if (path / "SystemStructure.ssd").is_file())
EXAMPLES.append(ROOT / "ssp_examples/feedback.ssp")
MODELS = [("tests/compiler/models/Electrical.mo", "Electrical.RCCircuit"),
          ("tests/compiler/models/Mechanics.mo", "Mechanics.Chain"),
          ("tests/compiler/causalize_models/Translational.mo", "Translational.Oscillator"),
          ("tests/compiler/causalize_models/Analog.mo", "Analog.DiodeCharger")]
SVG = "{http://www.w3.org/2000/svg}"


def check_svg(text: str) -> etree._Element:
    """Well-formed SVG with only currentColor, no script, no reference outside itself."""
    root = etree.fromstring(text.encode())
    assert root.tag == f"{SVG}svg"
    for element in root.iter():
        assert etree.QName(element).localname != "script"
        for key, value in element.attrib.items():
            if key in ("fill", "stroke"):
                assert value in ("currentColor", "none"), (key, value)
            assert "http" not in value or key == "xmlns", (key, value)
            assert not (key.endswith("href") and not value.startswith("#")), (key, value)
    assert "style=" not in text and "color:" not in text
    return root


def texts(root) -> list[str]:
    return [element.text for element in root.iter(f"{SVG}text")]


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.name)
def test_every_example_system_is_drawn_with_its_components_and_connections(example):
    structure, _ = load(example)
    graph = diagram(example, "system")
    labels = {node.label for node in graph.boxes()}
    elements = structure.system.elements
    assert {element.name for element in elements} <= labels
    assert len(graph.edges) == len(structure.system.connections)
    for element in elements:
        box = next(node for node in graph.boxes() if node.label == element.name)
        names = {port.label.split(" [")[0] for port in graph.ports(box.id)}
        assert names == {connector.name for connector in element.connectors}
    svg = graph.svg()
    root = check_svg(svg)
    assert {element.name for element in elements} <= set(texts(root))
    # one polyline per connection; the units of unit-carrying connections as labels
    assert len(root.findall(f"{SVG}polyline")) == len(structure.system.connections)
    assert svg == diagram(example, "system").svg()  # byte-identical
    dot, mermaid = graph.dot(), graph.mermaid()
    assert dot == diagram(example, "system").dot()
    assert mermaid.startswith("---\ntitle:") and "flowchart LR" in mermaid
    for element in elements:
        assert f'"{element.name}' in dot and f'"{element.name}' in mermaid
    assert not any(isinstance(element, System) for element in elements) or labels


def test_connection_labels_carry_units_and_transformations():
    graph = diagram(ROOT / "ssp_examples/feedback.ssp", "system")
    labels = {edge.label for edge in graph.edges}
    assert "mm -> m" in labels  # the plant's x in mm feeds the controller's w in m


@pytest.mark.parametrize("case", MODELS, ids=lambda case: case[1])
def test_schematic_boxes_name_only_components_of_the_flat_model(case):
    path, model = ROOT / case[0], case[1]
    graph = diagram(path, "schematic", model)
    flat = flatten_model(path, model)
    names = {variable.name for variable in flat.variables}
    boxes = [node.label.split("[")[0] for node in graph.boxes() if node.kind == "component"]
    assert boxes
    for box in boxes:
        assert any(name.startswith(f"{box}.") or name.startswith(f"{box}[") for name in names)
    # every connect equation is a line; both ends are ports of boxes
    connects = flatten_connects(path, model)
    assert len(graph.edges) == connects
    root = check_svg(graph.svg())
    assert set(boxes) <= {text.split("[")[0] for text in texts(root)}
    assert graph.svg() == diagram(path, "schematic", model).svg()


def flatten_connects(path, model) -> int:
    from compiler.api import library_and_name
    from compiler.flatten.classes import Classes
    from compiler.lang import ast
    library, name = library_and_name(path, model)
    info = Classes(library).expand(library.lookup(name))

    def count(equation):
        if isinstance(equation, ast.EqConnect):
            return 1
        if isinstance(equation, ast.EqFor):
            return sum(count(inner) for inner in equation.body)
        return 0
    return sum(count(equation) for equation, _ in info.equations)


def test_a_python_model_has_the_same_schematic_as_its_modelica_twin():
    from_python = diagram(python_class("electrical", "RCCircuit"), "schematic")
    from_modelica = diagram(ROOT / MODELS[0][0], "schematic", MODELS[0][1])
    assert [node.label for node in from_python.nodes] == \
        [node.label for node in from_modelica.nodes]
    assert len(from_python.edges) == len(from_modelica.edges) == 4


def test_placements_are_kept(tmp_path):
    source = tmp_path / "Placed.mo"
    source.write_text(
        (ROOT / "tests/compiler/models/Electrical.mo").read_text().replace(
            "Resistor resistor(R = 100);",
            "Resistor resistor(R = 100) annotation(Placement(transformation("
            "extent = {{-10, -10}, {10, 10}}, origin = {40, 20})));"))
    graph = diagram(source, "schematic", "Electrical.RCCircuit")
    resistor = next(node for node in graph.boxes() if node.label == "resistor")
    assert (resistor.x, resistor.y, resistor.width) == (90.0, -90.0, 60.0)
    from cosim.diagrams.layout import layout
    placed = next(node for node in layout(graph).boxes() if node.label == "resistor")
    assert (placed.x, placed.y) == (90.0, -90.0)


@pytest.mark.parametrize("case", MODELS, ids=lambda case: case[1])
def test_incidence_and_blocks_of_a_model(case):
    path, model = ROOT / case[0], case[1]
    flat = flatten_model(path, model)
    matrix = diagram(path, "incidence", model)
    rows = [node for node in matrix.nodes if node.kind == "row"]
    columns = [node for node in matrix.nodes if node.kind == "column"]
    assert len(rows) == len(flat.equations) + len(flat.algorithms)
    assert {node.label for node in columns} == {
        v.name for v in flat.variables
        if v.variability in ("continuous", "discrete") and v.causality != "input"}
    root = check_svg(matrix.svg())
    cells = [e for e in root.iter(f"{SVG}rect") if e.find(f"{SVG}title") is not None]
    assert len(cells) == len(matrix.edges) > 0
    system = causalize(flat)
    picture = diagram(path, "blocks", model)
    assert len(picture.boxes()) == len(system.blocks)
    loops = [node for node in picture.boxes() if "loop" in node.marks]
    assert len(loops) == sum(1 for block in system.blocks
                             if type(block).__name__ in ("LinearBlock", "NewtonBlock"))
    check_svg(picture.svg())
    assert picture.mermaid() == diagram(path, "blocks", model).mermaid()


def test_the_torn_loop_of_the_diode_charger_is_marked():
    picture = diagram(ROOT / MODELS[3][0], "blocks", MODELS[3][1])
    (torn,) = [node for node in picture.boxes() if "torn" in node.marks]
    assert torn.label.endswith("torn loop, 1 unknowns")
    assert "torn nonlinear loop (Newton)" in picture.svg()


def test_cli_writes_each_format(tmp_path, capsys):
    for suffix in (".svg", ".dot", ".mmd"):
        out = tmp_path / f"car{suffix}"
        assert main(["diagram", str(ROOT / "ssp_examples/quarter_car"), "-o", str(out)]) == 0
        assert out.read_text().count("Chassis") >= 1
    assert main(["diagram", str(ROOT / "ssp_examples/quarter_car"), "--kind", "blocks",
                 "-o", str(tmp_path / "x.svg")]) == 1
    assert "a blocks picture is of a model" in capsys.readouterr().err
    assert main(["diagram", str(ROOT / MODELS[0][0]), "-o", str(tmp_path / "x.png")]) == 1
    assert "unknown picture format '.png'" in capsys.readouterr().err
    assert cosim.diagram(ROOT / MODELS[0][0], model=MODELS[0][1]).kind == "schematic"


def test_an_svg_renders_with_rsvg_convert(tmp_path):
    tool = shutil.which("rsvg-convert")
    if tool is None:
        if os.environ.get("CI"):
            pytest.fail("rsvg-convert not found: .ci/run installs librsvg2-bin")
        pytest.skip("rsvg-convert not found: apt-get install librsvg2-bin")
    svg = diagram(ROOT / "ssp_examples/quarter_car", "system").write(tmp_path / "car.svg")
    png = tmp_path / "car.png"
    subprocess.run([tool, "--format", "png", "-o", str(png), str(svg)], check=True,
                   capture_output=True, timeout=60)
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width > 300 and height > 100
    assert re.search(rb"IDAT", data)
