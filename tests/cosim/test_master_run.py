"""The master on systems with known answers: unit conversion and linear transformation, nested
systems, parameters from .ssv through an .ssm mapping, algebraic loops, multi-rate, Jacobi.

The example FMUs integrate exactly what these tests compare with: Lag with a = 0 integrates a
constant input exactly, so Gauss-Seidel results equal discrete sums over the grid.
"""
from __future__ import annotations

import numpy as np
import pytest
from conftest import ssd, ssm, ssv, write_files

from cosim import api
from cosim.errors import CosimError
from cosim.ssp.builder import structure_from_description
from cosim.ssp.writer import pack_ssp

H = 0.01
GRID = np.round(np.arange(0, 101) * H, 12)


def source_and_integrator(connection_options=None, nested=False) -> dict:
    """Source: Lag x' = -x, x(0) = 1, output in mm. Integrator: Lag x' = u (m)."""
    source = {"source": "resources/Lag.fmu", "connectors": {"x": "output Real mm"},
              "parameters": {"x0": 1.0, "a": -1.0}}
    integrator = {"source": "resources/Lag.fmu", "connectors": {"u": "input Real m",
                                                                 "x": "output Real"},
                  "parameters": {"a": 0.0, "b": 1.0}}
    connection = ("Source.x", "Sub.I.u" if False else "I.u", connection_options or {})
    description = {"name": "chain", "start_time": 0.0, "stop_time": 1.0, "step_size": H,
                   "tolerance": 1e-10,
                   "units": {"mm": {"m": 1, "factor": 1e-3}, "m": {"m": 1}},
                   "components": {"Source": source, "I": integrator},
                   "connections": [connection]}
    if nested:
        description["components"] = {
            "Source": source,
            "Sub": {"system": {"connectors": {"in": "input Real m"},
                               "components": {"I": integrator},
                               "connections": ["in -> I.u"]}}}
        description["connections"] = [("Source.x", "Sub.in", connection_options or {})]
    return description


def pack(tmp_path, built, description, name="system.ssp", fmus=("Lag",)):
    resources = {f"resources/{n}.fmu": built[n] for n in fmus}
    return pack_ssp(tmp_path / name, structure_from_description(description), resources)


def expected_integral(factor: float, offset: float) -> np.ndarray:
    """Gauss-Seidel: over [t_k, t_k+1] the integrator holds the source's value at t_k+1."""
    source_m = 1e-3 * np.exp(-GRID[1:])
    return np.concatenate([[0.0], np.cumsum(H * (factor * source_m + offset))])


def test_unit_conversion_and_linear_transformation(tmp_path, built):
    system = pack(tmp_path, built, source_and_integrator({"factor": 2.0, "offset": 0.5}))
    result = api.run(system)
    assert result.columns == ("Source.x", "I.x")
    assert np.allclose(result.values["time"], GRID, rtol=0, atol=1e-12)
    assert np.allclose(result.values["Source.x"], np.exp(-GRID), rtol=1e-8)
    assert np.allclose(result.values["I.x"], expected_integral(2.0, 0.5), rtol=1e-9, atol=1e-12)


def test_suppressed_unit_conversion(tmp_path, built):
    system = pack(tmp_path, built, source_and_integrator({"suppress_unit_conversion": True}))
    result = api.run(system)
    assert np.allclose(result.values["I.x"], expected_integral(1000.0, 0.0), rtol=1e-9)


def test_nested_system_through_its_connector(tmp_path, built):
    system = pack(tmp_path, built, source_and_integrator({"factor": 2.0, "offset": 0.5},
                                                         nested=True))
    result = api.run(system)
    assert result.columns == ("Source.x", "Sub.I.x")
    assert np.allclose(result.values["Sub.I.x"], expected_integral(2.0, 0.5), rtol=1e-9)


def test_command_line_settings_override_the_file(tmp_path, built):
    system = pack(tmp_path, built, source_and_integrator())
    result = api.run(system, stop_time=0.5, step_size=0.05, parameters={"Source.x0": "2"},
                     record=["I.u"])
    assert result.steps == 10 and result.values["time"][-1] == 0.5
    assert result.values["Source.x"][0] == 2.0
    assert np.allclose(result.values["I.u"], 2e-3 * np.exp(-result.values["time"]), rtol=1e-7)


def test_parameters_from_ssv_through_ssm_mapping(tmp_path, built):
    folder = write_files(tmp_path, {
        "SystemStructure.ssd": ssd('''
            <ssd:System name="root"><ssd:Elements>
              <ssd:Component name="G" source="resources/Gain.fmu">
                <ssd:Connectors>
                  <ssd:Connector name="u" kind="input"><ssc:Real/></ssd:Connector>
                  <ssd:Connector name="y" kind="output"><ssc:Real/></ssd:Connector>
                </ssd:Connectors>
                <ssd:ParameterBindings>
                  <ssd:ParameterBinding source="values.ssv">
                    <ssd:ParameterMapping source="names.ssm"/>
                  </ssd:ParameterBinding>
                </ssd:ParameterBindings>
              </ssd:Component>
            </ssd:Elements></ssd:System>'''),
        "values.ssv": ssv('''
            <ssv:Parameter name="gain"><ssv:Real value="3"/></ssv:Parameter>
            <ssv:Parameter name="offset_mm"><ssv:Real value="250"/></ssv:Parameter>
            <ssv:Parameter name="input"><ssv:Real value="2"/></ssv:Parameter>'''),
        "names.ssm": ssm('''
            <ssm:MappingEntry source="gain" target="k"/>
            <ssm:MappingEntry source="offset_mm" target="b">
              <ssc:LinearTransformation factor="0.001"/>
            </ssm:MappingEntry>
            <ssm:MappingEntry source="input" target="u"/>'''),
        "resources/Gain.fmu": built["Gain"].read_bytes()})
    result = api.run(folder, stop_time=0.1, step_size=0.05)
    assert list(result.values["G.y"]) == [6.25, 6.25, 6.25]  # 3 * 2 + 0.25
    # the command line overrides the parameter set
    assert api.run(folder, stop_time=0.1, parameters={"G.k": 1.0}).values["G.y"][0] == 2.25


def loop_description(c1: float, k2: float) -> dict:
    """Source x(t) = exp(-t) -> G1.u; G1.y = x + c1 G2.y; G2.y = k2 G1.y (a loop)."""
    return {"name": "loop", "stop_time": 1.0, "step_size": 0.1, "tolerance": 1e-10,
            "components": {
                "Source": {"source": "resources/Lag.fmu", "connectors": {"x": "output Real"},
                           "parameters": {"x0": 1.0}},
                "G1": {"source": "resources/Gain.fmu",
                       "connectors": {"u": "input Real", "w": "input Real",
                                      "y": "output Real"},
                       "parameters": {"k": 1.0, "c": c1}},
                "G2": {"source": "resources/Gain.fmu",
                       "connectors": {"u": "input Real", "y": "output Real"},
                       "parameters": {"k": k2}}},
            "connections": ["Source.x -> G1.u", "G1.y -> G2.u", "G2.y -> G1.w"]}


def test_algebraic_loop_solved_by_iteration(tmp_path, built):
    system = pack(tmp_path, built, loop_description(0.5, 0.8), fmus=("Lag", "Gain"))
    result = api.run(system)
    x = np.exp(-result.values["time"])
    assert np.allclose(result.values["Source.x"], x, rtol=1e-8)
    # monolithic: y1 = x / (1 - c1 k2), y2 = k2 y1, at every communication point
    assert np.allclose(result.values["G1.y"], x / 0.6, rtol=1e-8)
    assert np.allclose(result.values["G2.y"], 0.8 * x / 0.6, rtol=1e-8)
    # Jacobi breaks the loop with a delay instead: not the monolithic answer
    jacobi = api.run(system, algorithm="jacobi")
    assert not np.allclose(jacobi.values["G1.y"], x / 0.6, rtol=1e-3)


def test_diverging_algebraic_loop_is_an_error(tmp_path, built):
    system = pack(tmp_path, built, loop_description(2.0, 0.9), fmus=("Lag", "Gain"))
    with pytest.raises(CosimError) as error:
        api.run(system)
    assert error.value.message == ("algebraic loop through G1, G2 did not converge in 100 "
                                   "iterations")
    assert error.value.location == "t = 0"


def test_multi_rate_from_annotation_and_from_the_command_line(tmp_path, built):
    description = source_and_integrator()
    description["components"]["I"]["step_size_hint"] = 2 * H
    result = api.run(pack(tmp_path, built, description))
    # the integrator steps every second base step, from t_k to t_k+2, holding the value the
    # source reached at t_k+1 when the integrator's turn came
    held = 1e-3 * np.exp(-GRID[1::2])
    expected = np.concatenate([[0.0], np.cumsum(2 * H * held)])
    assert np.allclose(result.values["I.x"][::2], expected, rtol=1e-9)
    # its output is read when it has stepped (at t_k+1 already) and held until it steps again
    assert np.array_equal(result.values["I.x"][1::2], result.values["I.x"][2::2])
    again = api.run(pack(tmp_path, built, source_and_integrator(), "b.ssp"),
                    step_sizes={"I": 2 * H})
    assert np.allclose(again.values["I.x"], result.values["I.x"], rtol=1e-12)
    with pytest.raises(CosimError, match=r"component 'I': step size 0.015 is not a whole "
                                         r"multiple of the base step 0.01"):
        api.run(pack(tmp_path, built, source_and_integrator(), "c.ssp"),
                step_sizes={"I": 1.5 * H})


def test_jacobi_uses_the_previous_outputs(tmp_path, built):
    system = pack(tmp_path, built, source_and_integrator())
    result = api.run(system, algorithm="jacobi")
    source_m = 1e-3 * np.exp(-GRID[:-1])  # the value at t_k, read before anyone stepped
    expected = np.concatenate([[0.0], np.cumsum(H * source_m)])
    assert np.allclose(result.values["I.x"], expected, rtol=1e-9)
