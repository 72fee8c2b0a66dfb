"""FMI 3.0 arrays, 64-bit integers, Strings and Binaries of a third-party FMU (Typed3, hand-
written C: thirdparty/typed3.c), in both interfaces, in process and isolated, against the
analytic solution and fmpy.

Typed3: y = k u (k = 2), x' = u - x with x(0) = 0, so x(t) = u (1 - exp(-t)); M = [u; x];
u has n elements (a structural parameter, 3 by default).
"""
from __future__ import annotations

import shutil

import numpy as np
import pytest
from conftest import ssd
from fmpy import simulate_fmu

from cosim import api
from cosim.master.plan import PlanError
from cosim.results import read_csv

BOTH = pytest.mark.parametrize("interface, isolate", [("cs", False), ("cs", True),
                                                      ("me", False), ("me", True)])
TOLERANCE = {"cs": 1e-15, "me": 1e-6}


def element_columns(name: str, n: int) -> list[str]:
    return [f"Typed3.{name}[{j}]" for j in range(1, n + 1)]


@BOTH
def test_arrays_sized_by_a_structural_parameter(built, interface, isolate):
    u = [1.0, -2.0, 0.5, 4.0]
    result = api.run(built["Typed3"], interface=interface, isolate=isolate, stop_time=1.0,
                     tolerance=1e-10, parameters={"Typed3.n": 4, "Typed3.u": u})
    values, t = result.values, result.values["time"]
    assert [c for c in result.columns if c.startswith("Typed3.y")] == element_columns("y", 4)
    assert [c for c in result.columns if c.startswith("Typed3.M")] == \
        [f"Typed3.M[{i},{j}]" for i in (1, 2) for j in range(1, 5)]
    for j, uj in enumerate(u, start=1):
        assert np.all(values[f"Typed3.y[{j}]"] == 2 * uj)
        assert np.all(values[f"Typed3.M[1,{j}]"] == uj)
        assert np.allclose(values[f"Typed3.M[2,{j}]"], uj * (1 - np.exp(-t)), rtol=0,
                           atol=TOLERANCE[interface] * 10)


@pytest.mark.parametrize("interface", ["cs", "me"])
def test_arrays_agree_with_fmpy(built, interface):
    fmi_type = {"cs": "CoSimulation", "me": "ModelExchange"}[interface]
    theirs = simulate_fmu(str(built["Typed3"]), fmi_type=fmi_type, stop_time=1.0,
                          output_interval=0.1, start_values={"u": [1.0, 2.0, 5.0]},
                          output=["y", "M"])
    ours = api.run(built["Typed3"], interface=interface, stop_time=1.0, step_size=0.1,
                   parameters={"Typed3.u": "1 2 5"}, tolerance=1e-8).values
    assert np.array_equal(ours["time"], theirs["time"])
    for j in range(3):
        assert np.array_equal(ours[f"Typed3.y[{j + 1}]"], theirs["y"][:, j])
        exact = [1.0, 2.0, 5.0][j] * (1 - np.exp(-ours["time"]))
        ours_x, theirs_x = ours[f"Typed3.M[2,{j + 1}]"], theirs["M"][:, 1, j]
        if interface == "cs":  # both call the FMU's exact step: the same bits
            assert np.array_equal(ours_x, theirs_x)
        else:  # our Radau at 1e-8 beats fmpy's CVode at its default tolerance
            assert np.max(np.abs(ours_x - exact)) < 1e-7
            assert np.max(np.abs(ours_x - exact)) <= np.max(np.abs(theirs_x - exact))


@pytest.mark.parametrize("isolate", [False, True])
def test_64_bit_integers_are_exact_in_the_table_and_the_csv(built, tmp_path, isolate):
    output = tmp_path / "out.csv"
    result = api.run(built["Typed3"], isolate=isolate, output=output,
                     parameters={"Typed3.i64": -2**63, "Typed3.u64": str(2**64 - 1)})
    values = result.values
    assert values.dtype["Typed3.i64_out"] == np.int64
    assert values.dtype["Typed3.u64_out"] == np.uint64
    assert set(values["Typed3.i64_out"].tolist()) == {-2**63}
    assert set(values["Typed3.u64_out"].tolist()) == {2**64 - 1}
    on_disk = read_csv(output)
    assert set(on_disk["Typed3.u64_out"].tolist()) == {2**64 - 1}
    assert set(on_disk["Typed3.i64_out"].tolist()) == {-2**63}
    text = output.read_text().splitlines()[1]
    assert ",-9223372036854775808,18446744073709551615," in text


def test_64_bit_integers_in_a_mat_file_warn_beyond_2_to_53(built, tmp_path, caplog):
    output = tmp_path / "out.mat"
    api.run(built["Typed3"], output=output, parameters={"Typed3.i64": 2**53 + 1})
    assert "'Typed3.i64_out' has integers beyond 2^53" in caplog.text
    assert "String and Binary columns are not written to a .mat file" in caplog.text


@pytest.mark.parametrize("isolate", [False, True])
def test_strings_and_binaries_are_recorded(built, tmp_path, isolate):
    output = tmp_path / "out.csv"
    result = api.run(built["Typed3"], isolate=isolate, output=output,
                     parameters={"Typed3.s": 'say "hi", then go', "Typed3.b": "0a0b0c"})
    assert set(result.values["Typed3.s_out"]) == {'<say "hi", then go>'}
    assert set(result.values["Typed3.b_out"]) == {b"\x0c\x0b\x0a"}
    row = output.read_text().splitlines()[1]
    assert ',"<say ""hi"", then go>",0c0b0a,' in row
    assert set(read_csv(output)["Typed3.s_out"]) == {'<say "hi", then go>'}


def write_pair(folder, fmu, connections: str, n_a: int, n_b: int):
    """Two Typed3 components A (n = n_a) and B (n = n_b) in an SSP folder."""
    (folder / "resources").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(fmu, folder / "resources" / "Typed3.fmu")
    components = "".join(
        f'<ssd:Component name="{name}" source="resources/Typed3.fmu">{connectors(n)}'
        f'<ssd:ParameterBindings><ssd:ParameterBinding><ssd:ParameterValues>'
        f'<ssv:ParameterSet version="2.0" name="p"><ssv:Parameters>'
        f'<ssv:Parameter name="n"><ssv:UInt64 value="{n}"/></ssv:Parameter>'
        f'</ssv:Parameters></ssv:ParameterSet></ssd:ParameterValues></ssd:ParameterBinding>'
        f'</ssd:ParameterBindings></ssd:Component>'
        for name, n in (("A", n_a), ("B", n_b)))
    system = (f'<ssd:System name="pair"><ssd:Elements>{components}</ssd:Elements>'
              f'<ssd:Connections>{connections}</ssd:Connections></ssd:System>')
    (folder / "SystemStructure.ssd").write_text(ssd(system, version="2.0"))
    return folder


def connectors(n: int) -> str:
    """The connectors of a Typed3 component with arrays of ``n`` elements."""
    array = f'<ssc:Float64/><ssc:Dimension size="{n}"/>'
    rows = [("u", "input", array), ("y", "output", array), ("s", "input", "<ssc:String/>"),
            ("s_out", "output", "<ssc:String/>"), ("b", "input", "<ssc:Binary/>"),
            ("b_out", "output", "<ssc:Binary/>")]
    return "<ssd:Connectors>" + "".join(
        f'<ssd:Connector name="{name}" kind="{kind}">{type_}</ssd:Connector>'
        for name, kind, type_ in rows) + "</ssd:Connectors>"


def test_array_connections_whole_and_by_element(built, tmp_path):
    connections = (
        '<ssd:Connection startElement="A" startConnector="y" endElement="B" endConnector="u"/>'
        '<ssd:Connection startElement="A" startConnector="s_out" endElement="B" '
        'endConnector="s"/>'
        '<ssd:Connection startElement="A" startConnector="b_out" endElement="B" '
        'endConnector="b"/>')
    folder = write_pair(tmp_path / "whole", built["Typed3"], connections, 3, 3)
    values = api.run(folder, stop_time=0.5).values
    for j in (1, 2, 3):  # B.u = A.y = 2 u, so B.y = 4 u
        assert np.all(values[f"B.y[{j}]"] == 4 * j)
    assert set(values["B.s_out"]) == {"<<hello>>"}
    assert set(values["B.b_out"]) == {b"\x00\xff"}  # reversed twice
    one = ('<ssd:Connection startElement="A" startConnector="y" startIndices="1" '
           'endElement="B" endConnector="u" endIndices="3"/>')
    folder = write_pair(tmp_path / "element", built["Typed3"], one, 3, 3)
    values = api.run(folder, stop_time=0.5).values
    # B.u = (1, 2, A.y[1] = 2): the elements no connection feeds keep their start values
    assert [values[f"B.y[{j}]"][-1] for j in (1, 2, 3)] == [2.0, 4.0, 4.0]


def test_arrays_of_different_sizes_are_refused(built, tmp_path):
    connection = '<ssd:Connection startElement="A" startConnector="y" endElement="B" ' \
                 'endConnector="u"/>'
    folder = write_pair(tmp_path / "sizes", built["Typed3"], connection, 4, 3)
    with pytest.raises(PlanError) as caught:
        api.run(folder)
    assert str(caught.value) == \
        "SystemStructure.ssd:3: connection A.y -> B.u: 4 elements to 3"
    report = api.validate(folder)
    assert "connection A.y -> B.u: 4 elements to 3" in report.text()
    assert not report.ok
