"""External "C" functions, external objects and Strings in generated C: self-written models
(msl_models/External.mo, their C code in msl_models/external_c/) compared with closed forms in
fmpy's Co-Simulation and Model Exchange; the FMUs validate, rebuild from their sources and
free what they hold. The Modelica Standard Library's examples that use its C code (tables,
noise, Strings) are in test_msl_examples.py."""
from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from fmpy import extract, read_model_description, simulate_fmu
from fmpy.fmi3 import FMU3Slave
from fmpy.validation import validate_fmu

from compiler import flat
from compiler.causalize import causalize
from compiler.codegen import emit_c
from compiler.compile import compile_fmu
from compiler.errors import CompilerError
from compiler.flat_text import expr_text
from compiler.symbolic.evaluate import modelica_string
from tests.compiler.fmu_compare import event_instants
from tests.conftest import need

EXTERNAL = Path(__file__).parent / "msl_models" / "External.mo"
KINDS = ("CoSimulation", "ModelExchange")


def simulate(fmus, model: str, names, stop: float, kind: str, **options):
    fmu = fmus.build(EXTERNAL, f"External.{model}")
    return simulate_fmu(str(fmu), fmi_type=kind, stop_time=stop, output_interval=stop / 40,
                        relative_tolerance=1e-9, output=list(names), **options)


def at_samples(result, period: float):
    """The rows at the sample instants k * period (after their events)."""
    rows = []
    for t in np.arange(0.0, result["time"][-1] + 1e-9, period):
        at = np.nonzero(np.abs(result["time"] - t) < 1e-9)[0]
        if len(at):
            rows.append(result[at[-1]])
    return rows


def errors_of(fmu: Path, kind: str):
    """(the exception fmpy raised, the messages logged with status Error)."""
    messages = []
    with pytest.raises(Exception) as raised:
        simulate_fmu(str(fmu), fmi_type=kind, stop_time=1.0, output_interval=0.1,
                     logger=lambda *args: messages.append((args[-3], args[-1].decode())))
    return raised.value, [text for status, text in messages if status == 3]


# --------------------------------------------------------------------- external functions
@pytest.mark.parametrize("kind", KINDS)
def test_external_c_functions_give_their_closed_forms(fmus, kind):
    names = ["p", "s", "sums[1]", "sums[2]", "sums[3]", "root"]
    result = simulate(fmus, "Calls", names, 1.0, kind)
    t = result["time"]
    assert np.allclose(result["p"], 1 - 2 * t + 3 * t ** 2, rtol=1e-12, atol=1e-12)
    assert np.allclose(result["s"], 4 * t, rtol=1e-12, atol=1e-12)
    for k, factor in enumerate((1, 3, 6), start=1):
        assert np.allclose(result[f"sums[{k}]"], factor * t, rtol=1e-12, atol=1e-12)
    assert np.allclose(result["root"], 2 * np.cbrt(t), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kind", KINDS)
def test_integer_and_boolean_arguments_and_results_pass_as_int(fmus, kind):
    # at t = k/8: signs({t - 0.5, t - 0.75, 0.25}) and the positions of {t > 0.5, true, t > 0.25}
    result = simulate(fmus, "Calls", ["positives", "anyNegative", "flagTotal"], 1.0, kind)
    rows = at_samples(result, 0.125)
    assert len(rows) == 9
    for row in rows:
        t = float(row["time"])
        assert row["positives"] == int(t > 0.5) + int(t > 0.75) + 1, t
        assert bool(row["anyNegative"]) == (t < 0.75), t
        assert row["flagTotal"] == int(t > 0.5) + 2 + 3 * int(t > 0.25), t


def test_the_default_mapping_passes_arrays_with_their_sizes(flatten):
    model = flatten("""
function norm1
  input Real v[:, :];
  output Real y;
external "C";
end norm1;
function doubled
  input Real v[:];
  output Real w[size(v, 1)];
external "C";
end doubled;
model M
  Real y = norm1({{time, 1}});
  Real w[2] = doubled({time, 2});
end M;
""")
    functions = {item.name: item.external for item in model.functions}
    size = lambda name, k: flat.Call("size", (flat.Var(name), flat.Const(k)))
    assert functions["norm1"].args == (flat.Var("v"), size("v", 1), size("v", 2))
    assert functions["norm1"].output == "y"
    assert functions["doubled"].args == (flat.Var("v"), size("v", 1), flat.Var("w"), size("w", 1))
    assert functions["doubled"].output == ""


@pytest.mark.parametrize("kind", KINDS)
def test_empty_arrays_keep_their_declared_sizes(fmus, kind):
    result = simulate(fmus, "EmptyTable", ["rows", "columns", "p"], 1.0, kind)
    assert (result["rows"][-1], result["columns"][-1]) == (0, 2)
    assert np.all(result["p"] == 0.0)


@pytest.mark.parametrize("kind", KINDS)
def test_modelica_error_ends_the_model_call_with_its_message(fmus, kind):
    error, messages = errors_of(fmus.build(EXTERNAL, "External.Failing"), kind)
    assert "failed with status 3" in str(error)
    assert any(text.startswith("numbers_checked_sqrt: -0.1 is negative at t = 0.6")
               for text in messages), messages


def test_a_library_without_sources_is_refused_at_the_function(flatten):
    model = flatten("""
function twice
  input Real x;
  output Real y;
external "C" y = twice_c(x) annotation(Library = "nowhere");
end twice;
model M
  Real y = twice(time);
end M;
""")
    with pytest.raises(CompilerError) as error:
        emit_c(causalize(model))
    assert str(error.value) == (f"{flatten.path}:2:1: the library \"nowhere\" of the external "
                                "function twice_c has no C sources in no IncludeDirectory")


# ----------------------------------------------------------------------------- Strings
@pytest.mark.parametrize("kind", KINDS)
def test_strings_made_in_functions_and_at_events(fmus, kind):
    names = ["tagLength", "labelLength", "level", "formatted", "padded", "dots"]
    result = simulate(fmus, "Strings", names, 1.0, kind)
    rows = at_samples(result, 0.1)
    assert len(rows) == 11
    for row in rows:
        t = float(row["time"])
        assert row["tagLength"] == len("pump(4)")
        assert row["labelLength"] == len("x=" + modelica_string(t, 0, True, 4)), t
        assert row["level"] == (2 if t > 0.5 else 1), t
        assert row["formatted"] == len(f"{t:10.3f}") == 10
        assert row["padded"] == 6
        assert row["dots"] == (modelica_string(t + 0.5, 0, True, 3) + ".pump").count("."), t


def test_string_of_an_enumeration_is_its_literal_name(fmus):
    result = simulate(fmus, "Strings", ["levelLength"], 1.0, "CoSimulation")
    for row in at_samples(result, 0.1):
        assert row["levelLength"] == len("high" if row["time"] > 0.5 else "low")


def test_a_string_parameter_computed_by_c_reaches_the_importer(fmus):
    path = fmus.build(EXTERNAL, "External.Strings")
    description = read_model_description(str(path))
    tag = next(v for v in description.modelVariables if v.name == "tag")
    assert tag.type == "String" and tag.causality == "calculatedParameter"
    fmu = FMU3Slave(guid=description.guid, unzipDirectory=extract(str(path)),
                    modelIdentifier=description.coSimulation.modelIdentifier, instanceName="s")
    fmu.instantiate()
    fmu.enterInitializationMode()
    fmu.exitInitializationMode()
    assert fmu.getString([tag.valueReference]) == ["pump(4)"]
    fmu.terminate()
    fmu.freeInstance()


def test_string_formatting_options_flatten_to_positional_arguments(flatten):
    model = flatten("""
model M
  Real x = time;
equation
  assert(x < 10, "x = " + String(x, significantDigits = 14) + ", " +
         String(3, minimumLength = 4, leftJustified = false) + String(x, format = "8.3f"));
end M;
""")
    message = model.equations[-1].message
    texts = [expr_text(item) for item in _concatenated(message)]
    assert texts[1] == "String(x, 0, true, 14)"
    assert texts[3] == "String(3, 4, false, 6)"
    assert texts[4] == 'String(x, "8.3f")'


def _concatenated(node):
    if type(node) is flat.Binary and node.op == "+":
        return _concatenated(node.left) + _concatenated(node.right)
    return [node]


@pytest.mark.parametrize("value, options, text", [
    (1.23456789, (0, True, 14), "1.23456789"), (1.23456789, (0, True, 3), "1.23"),
    (3, (5, False, 6), "    3"), (3, (5, True, 6), "3    "), (True, (6, False, 6), "  true"),
    (2.5, ("8.3f",), "   2.500"), (7.9, ("d",), "7"), (1e-20, (), "1e-20"),
])
def test_string_conversion_follows_printf(value, options, text):
    assert modelica_string(value, *options) == text


# ----------------------------------------------------------------------- external objects
def ramp(t):
    """The table [0, 0; 1, 2; 3, 3] continued linearly, and its integral."""
    y = np.where(t <= 1, 2 * t, 2 + 0.5 * (t - 1))
    z = np.where(t <= 1, t ** 2, 1 + 2 * (t - 1) + 0.25 * (t - 1) ** 2)
    return y, z


@pytest.mark.parametrize("kind", KINDS)
def test_an_external_object_holds_its_table_between_constructor_and_destructor(fmus, kind):
    result = simulate(fmus, "Ramp", ["y", "z", "next", "rowsPassed"], 4.0, kind)
    y, z = ramp(result["time"])
    assert np.allclose(result["y"], y, rtol=1e-12, atol=1e-12)
    assert np.allclose(result["z"], z, rtol=1e-6, atol=1e-8)
    assert result["rowsPassed"][-1] == 3
    assert result["next"][-1] == sys.float_info.max


def test_time_relations_are_time_events_at_their_instant(fmus):
    # time >= pre(next): the runtime steps to the next row's x exactly
    result = simulate(fmus, "Ramp", ["rowsPassed"], 4.0, "ModelExchange")
    assert event_instants(result) == [1.0, 3.0]
    after = [result["rowsPassed"][np.nonzero(result["time"] == t)[0][-1]] for t in (1.0, 3.0)]
    assert after == [2, 3]


def test_the_constructor_reads_the_parameters_set_before_initialization(fmus):
    rows = {"rows[2,1]": 2.0, "rows[2,2]": 1.0}   # the table [0, 0; 2, 1; 3, 3]
    result = simulate(fmus, "Ramp", ["y"], 4.0, "CoSimulation", start_values=rows)
    t = result["time"]
    assert np.allclose(result["y"], np.where(t <= 2, 0.5 * t, 1 + 2 * (t - 2)), atol=1e-12)


@pytest.mark.parametrize("kind", KINDS)
def test_an_error_of_the_constructor_ends_the_initialization(fmus, kind):
    error, messages = errors_of(fmus.build(EXTERNAL, "External.BadRamp"), kind)
    assert "fmi3ExitInitializationMode failed" in str(error)
    assert messages == ["ramp table bad: x must increase (row 3) at t = 0"]


def test_reset_destroys_the_object_and_initialization_constructs_it_again(fmus):
    path = fmus.build(EXTERNAL, "External.Ramp")
    description = read_model_description(str(path))
    vr = {v.name: v.valueReference for v in description.modelVariables}
    fmu = FMU3Slave(guid=description.guid, unzipDirectory=extract(str(path)),
                    modelIdentifier=description.coSimulation.modelIdentifier, instanceName="r")
    fmu.instantiate()
    values = []
    for slope_end in (2.0, 4.0):   # y(1) is the second row's y
        fmu.setFloat64([vr["rows[2,2]"]], [slope_end])
        fmu.enterInitializationMode()
        fmu.exitInitializationMode()
        fmu.doStep(0.0, 1.0)
        values.append(fmu.getFloat64([vr["y"]])[0])
        fmu.reset()
    fmu.freeInstance()
    assert values == [2.0, 4.0]


# ---------------------------------------------------------------------------- resources
SERVICES = """package ModelicaServices "the test's stand-in for the library's loadResource"
  package ExternalReferences
    function loadResource
      input String uri;
      output String fileReference;
    algorithm
      fileReference := uri;
    end loadResource;
  end ExternalReferences;
end ModelicaServices;
"""


def test_a_resource_of_load_resource_travels_in_the_fmu(tmp_path):
    folder = tmp_path / "models"
    shutil.copytree(EXTERNAL.parent, folder, ignore=shutil.ignore_patterns("*.py"))
    services = tmp_path / "ModelicaServices.mo"
    services.write_text(SERVICES)
    fmu = compile_fmu(folder / "External.mo", "External.FileRamp", libs=[services],
                      output=tmp_path / "FileRamp.fmu",
                      environ={"COSIM_CACHE_DIR": str(tmp_path / "cache")})
    (folder / "external_c" / "ramp.txt").unlink()   # the FMU reads its own copy
    with zipfile.ZipFile(fmu) as archive:
        assert archive.read("resources/External/external_c/ramp.txt") == b"0 0\n1 2\n3 3\n"
    for kind in KINDS:
        result = simulate_fmu(str(fmu), fmi_type=kind, stop_time=4.0, output_interval=0.1,
                              output=["y"])
        assert np.allclose(result["y"], ramp(result["time"])[0], atol=1e-12)


def test_a_resource_that_does_not_exist_is_refused_at_the_call(flatten, tmp_path):
    services = tmp_path / "ModelicaServices.mo"
    services.write_text(SERVICES)
    with pytest.raises(CompilerError) as error:
        flatten("""
model M
  parameter String f = ModelicaServices.ExternalReferences.loadResource("modelica://M/none.txt");
end M;
""", libs=[services])
    assert str(error.value).startswith(f"{flatten.path}:3:24: the resource modelica://M/none.txt "
                                       "does not exist")


TABLES_ON_FILE = """model TablesOnFile
  Modelica.Blocks.Sources.CombiTimeTable text(tableOnFile = true, tableName = "tab1",
    fileName = Modelica.Utilities.Files.loadResource(
      "modelica://Modelica/Resources/Data/Tables/test.txt"));
  Modelica.Blocks.Sources.CombiTimeTable mat(tableOnFile = true, tableName = "a",
    fileName = Modelica.Utilities.Files.loadResource(
      "modelica://Modelica/Resources/Data/Tables/test_v7.mat"));
  Real y = text.y[1];
  Real z = mat.y[1];
end TablesOnFile;
"""


@pytest.mark.slow
def test_msl_tables_read_their_files_from_the_fmus_resources(fmus, tmp_path):
    from scipy.io import loadmat
    msl = need("msl")
    source = tmp_path / "TablesOnFile.mo"
    source.write_text(TABLES_ON_FILE)
    fmu = compile_fmu(source, "TablesOnFile",
                      [msl / "Modelica", msl / "ModelicaServices", msl / "Complex.mo"],
                      output=tmp_path / "TablesOnFile.fmu", environ=fmus.environ)
    with zipfile.ZipFile(fmu) as archive:
        assert {"resources/Modelica/Resources/Data/Tables/test.txt",
                "resources/Modelica/Resources/Data/Tables/test_v7.mat"} <= set(archive.namelist())
    a = loadmat(msl / "Modelica" / "Resources" / "Data" / "Tables" / "test_v7.mat")["a"]
    for kind in KINDS:
        result = simulate_fmu(str(fmu), fmi_type=kind, stop_time=4.0, output_interval=0.1,
                              output=["y", "z"])
        rows = result[np.abs(result["time"] - np.round(result["time"])) > 1e-9]   # not at a row
        t = rows["time"]
        # tab1 of test.txt: (0, 0), (1, 0), (1, 1), (2, 4), (3, 9), (4, 16)
        assert np.allclose(rows["y"], np.where(t < 1, 0.0, np.interp(t, [1, 2, 3, 4],
                                                                     [1, 4, 9, 16])), atol=1e-12)
        assert np.allclose(rows["z"], np.interp(t, a[:, 0], a[:, 1]), atol=1e-12)


# ------------------------------------------------------------------------ function bodies
@pytest.mark.parametrize("kind", KINDS)
def test_slices_aliases_array_literals_cross_and_smooth_in_function_bodies(fmus, kind):
    names = ["o[1]", "o[2]", "o[3]", "o[4]", "f", "w[1]", "w[2]"]
    result = simulate(fmus, "Bodies.Use", names, 1.0, kind)
    assert [result[f"o[{k}]"][-1] for k in range(1, 5)] == [0.5, 1.5, 1.5, 2.5]
    assert np.all(result["f"] == 55.0)   # fibonacci(10) through x := advance(x)
    t = result["time"]
    phi = np.outer(t, [0.5, 1.5, 2.5])   # orientations(3) * time
    assert np.allclose(result["w[1]"], np.cos(phi) @ [1, 2, 3], rtol=1e-12, atol=1e-12)
    assert np.allclose(result["w[2]"], np.sin(phi) @ [1, 2, 3], rtol=1e-12, atol=1e-12)
    normals = simulate(fmus, "Bodies.Use", ["n[1]", "n[2]", "n[3]"], 1.0, kind)
    c = np.cross([1, 2, 3], np.stack([t, np.ones_like(t), np.zeros_like(t)], axis=1))
    expected = c / np.linalg.norm(c, axis=1)[:, None]
    for k in range(3):
        assert np.allclose(normals[f"n[{k + 1}]"], expected[:, k], rtol=1e-12, atol=1e-12)


def test_a_newton_loop_through_more_assignments_than_a_part_holds(fmus):
    from scipy.optimize import brentq
    result = simulate(fmus, "Bodies.LongLoop", ["x"], 1.0, "CoSimulation")
    decay = 0.99 ** 44   # a[45] = decay a[1] + 1 - decay

    def solution(t):
        return brentq(lambda x: x - 0.3 * np.cos(decay * (np.sin(x) + t) + 1 - decay), -1, 1,
                      xtol=1e-14)
    expected = [solution(t) for t in result["time"]]
    assert np.allclose(result["x"], expected, rtol=1e-9, atol=1e-12)


def test_an_external_object_inside_a_function_is_refused_at_its_declaration(flatten):
    model = flatten("""
class Handle
  extends ExternalObject;
  function constructor
    input Real x;
    output Handle h;
  external "C" h = handle_open(x);
  end constructor;
  function destructor
    input Handle h;
  external "C" handle_close(h);
  end destructor;
end Handle;
function twice
  input Handle g;
  input Real x;
  output Real y;
protected
  Handle h;
algorithm
  h := g;
  y := 2*x;
end twice;
model M
  parameter Handle g = Handle(1);
  Real y = twice(g, time);
end M;
""")
    with pytest.raises(CompilerError) as error:
        emit_c(causalize(model))
    assert str(error.value) == (f"{flatten.path}:19:3: the external object h, a protected "
                                "variable of twice, is not supported by the C code generator")


def test_an_fmu_state_set_into_a_fresh_instance_gets_its_objects_constructed(fmus):
    path = fmus.build(EXTERNAL, "External.Ramp")
    description = read_model_description(str(path))
    vr = {v.name: v.valueReference for v in description.modelVariables}
    unpacked = extract(str(path))

    def instance(name):
        fmu = FMU3Slave(guid=description.guid, unzipDirectory=unpacked, instanceName=name,
                        modelIdentifier=description.coSimulation.modelIdentifier)
        fmu.instantiate()
        return fmu
    first = instance("first")
    first.enterInitializationMode()
    first.exitInitializationMode()
    first.doStep(0.0, 2.0)
    image = first.serializeFMUState(first.getFMUState())
    second = instance("second")   # never initialized: the state brings no table object
    second.setFMUState(second.deserializeFMUState(image))
    for fmu in (first, second):
        fmu.doStep(2.0, 0.5)
    y, z = (float(value) for value in ramp(np.array(2.5)))
    for fmu in (first, second):
        assert fmu.getFloat64([vr["y"], vr["z"]]) == pytest.approx([y, z], rel=1e-6)
        fmu.freeInstance()


# ------------------------------------------------------------------------------ the FMUs
@pytest.mark.parametrize("model", ["Calls", "Strings", "Ramp"])
def test_the_fmus_validate(fmus, model):
    assert validate_fmu(str(fmus.build(EXTERNAL, f"External.{model}"))) == []


def test_the_sources_hold_the_c_code_and_list_it_for_a_rebuild(fmus):
    with zipfile.ZipFile(fmus.build(EXTERNAL, "External.Ramp")) as archive:
        names = set(archive.namelist())
        build = archive.read("sources/buildDescription.xml").decode()
    for name in ("ramp_table.c", "ramp_table.h", "model_external.c", "external_support.c",
                 "ModelicaUtilities.h"):
        assert f"sources/{name}" in names
    for name in ("ramp_table.c", "model_external.c", "external_support.c"):
        assert f'<SourceFile name="{name}"/>' in build


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed")
def test_fmpy_rebuilds_the_binary_from_the_sources(fmus, tmp_path):
    rebuilt = tmp_path / "Ramp.fmu"
    shutil.copyfile(fmus.build(EXTERNAL, "External.Ramp"), rebuilt)
    subprocess.run([sys.executable, "-m", "fmpy.cli", "compile", str(rebuilt)], check=True,
                   capture_output=True)
    result = simulate_fmu(str(rebuilt), stop_time=4.0, output_interval=0.1, output=["y"])
    assert np.allclose(result["y"], ramp(result["time"])[0], atol=1e-12)


def test_the_cache_key_covers_the_c_sources(tmp_path):
    folder = tmp_path / "models"
    shutil.copytree(EXTERNAL.parent, folder, ignore=shutil.ignore_patterns("*.py"))
    environ = {"COSIM_CACHE_DIR": str(tmp_path / "cache")}

    def scaled_at_one() -> float:
        fmu = compile_fmu(folder / "External.mo", "External.Calls", output=tmp_path / "c.fmu",
                          environ=environ)
        return simulate_fmu(str(fmu), stop_time=1.0, output=["s"])["s"][-1]
    assert scaled_at_one() == 4.0
    source = folder / "external_c" / "numbers.c"
    source.write_text(source.read_text().replace("return k * x;", "return k * x + 1.0;"))
    assert scaled_at_one() == 5.0


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
@pytest.mark.parametrize("model", ["Ramp", "Strings"])
def test_a_run_frees_the_objects_and_strings(fmus, tmp_path, model):
    host = tmp_path / "host"
    runtime = Path(__file__).parents[1] / "runtime"
    from compiler.fmu.runtime_files import fmi_headers_dir
    subprocess.run(["gcc", "-std=c99", "-g", f"-I{fmi_headers_dir()}", str(runtime / "host.c"),
                    "-o", str(host), "-ldl"], check=True)
    path = fmus.build(EXTERNAL, f"External.{model}")
    unpacked = Path(extract(str(path)))
    description = read_model_description(str(path))
    binary = unpacked / "binaries" / "x86_64-linux" / f"{description.coSimulation.modelIdentifier}.so"
    result = subprocess.run(
        ["valgrind", "--tool=memcheck", "--leak-check=full",
         "--errors-for-leak-kinds=definite,indirect,possible", "--error-exitcode=99", str(host),
         str(binary), description.guid, "2.0", "0.1"], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    assert "ERROR SUMMARY: 0 errors" in result.stderr
