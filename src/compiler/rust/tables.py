"""The Rust side of a model interface: the constants of the generated ``mod model``.

Input: a ``ModelInterface`` (the one the C packager turns into config.h and model_info.c)
and the instantiation token. Output: Rust items: sizes, slot indices (``R_x``, ``INT_n``,
... as config.h names them), the value-reference table, start values, state and derivative
slots, nominals, guesses, event-indicator slots and names, the Jacobian pattern (CSC), the
experiment and the result columns of the program (those ``cosim run`` records).
"""
from __future__ import annotations

from compiler.codegen.errors import EmitError
from compiler.fmu.c_tables import _jacobian_csc, _start_values, one_per_value_reference
from compiler.fmu.interface import ModelInterface, effective_initial
from compiler.fmu.layout import C_ACCESSORS, TYPES, Layout
from compiler.fmu.model_description import fmi_name
from compiler.fmu.runtime_files import log_categories
from compiler.rust.expressions import rust_double, rust_string

RUST_TYPES = {"Float64": "f64", "Int32": "i32", "Int64": "i64", "Boolean": "bool"}
SIZES = {"Float64": "N_FLOAT64", "Int32": "N_INT32", "Int64": "N_INT64", "Boolean": "N_BOOLEAN"}
STARTS = {"Float64": "START_FLOAT64", "Int32": "START_INT32", "Int64": "START_INT64",
          "Boolean": "START_BOOLEAN"}
CAUSALITY = {"parameter": "Parameter", "calculatedParameter": "CalculatedParameter",
             "input": "Input", "output": "Output", "local": "Local"}
INITIAL = {"exact": "Exact", "approx": "Approx", "calculated": "Calculated", None: "None"}


def _value(type_: str, value) -> str:
    if type_ == "Float64":
        return rust_double(value if value is not None else 0.0)
    if type_ == "Boolean":
        return "true" if value else "false"
    return str(int(value or 0))


def _array(name: str, type_: str, size: str, items: list[str]) -> str:
    return f"pub const {name}: [{type_}; {size}] = [{', '.join(items)}];"


def _option(value) -> str:
    return "None" if value is None else f"Some({rust_double(value)})"


def _csv_field(text: str) -> str:
    """A CSV header field as Python's csv module writes it (quoted where it holds a comma)."""
    return f'"{text.replace(chr(34), 2 * chr(34))}"' if any(c in text for c in ',"\n') else text


def result_columns(interface: ModelInterface, layout: Layout) -> list[tuple[str, int]]:
    """(name, value reference) of the columns ``cosim run model.mo`` writes: the outputs, or
    where there are none the continuous Float64 locals and outputs that are no derivatives
    (cosim.master.run.model_variables), in the order an importer lists them: the variables,
    then the aliases (FMI <Alias>), which have the attributes of the variable they name."""
    by_name = {v.name: v for v in layout.variables}
    listed = [(v.name, v) for v in layout.variables if not v.alias_of]
    listed += [(alias.name, by_name[alias.alias_of]) for target in layout.variables
               for alias in layout.variables if alias.alias_of == target.name]
    derivatives = {layout.value_reference[v.name] for v in layout.variables if v.derivative_of}
    columns = [(name, v) for name, v in listed if v.causality == "output"]
    if not columns:
        columns = [(name, v) for name, v in listed
                   if v.variability == "continuous" and v.type == "Float64"
                   and layout.value_reference[v.name] not in derivatives
                   and v.causality in ("local", "output") and not name.startswith("_")]
    return [(name, layout.value_reference[v.name]) for name, v in columns]


def model_tables(interface: ModelInterface, layout: Layout, token: str) -> str:
    if layout.count["String"]:
        raise EmitError("String variables are not supported by the Rust backend")
    experiment = interface.experiment
    tolerance = experiment.tolerance if experiment and experiment.tolerance else None
    start, rows = _jacobian_csc(interface, len(layout.states))
    lines = [
        f"pub const MODEL_NAME: &str = {rust_string(interface.name)};",
        f"pub const MODEL_IDENTIFIER: &str = {rust_string(interface.identifier)};",
        f"pub const INSTANTIATION_TOKEN: &str = {rust_string(token)};",
        f"pub const DEFAULT_TOLERANCE: f64 = {rust_double(tolerance or interface.default_tolerance)};",
        f"pub const EXPERIMENT_START: f64 = {rust_double(experiment.start_time if experiment else 0.0)};",
        f"pub const EXPERIMENT_STOP: Option<f64> = {_option(experiment and experiment.stop_time)};",
        f"pub const EXPERIMENT_STEP: Option<f64> = {_option(experiment and experiment.step_size)};",
        f"pub const EXPERIMENT_TOLERANCE: Option<f64> = {_option(tolerance)};",
        f"pub const N_STATES: usize = {len(layout.states)};",
        f"pub const N_EVENT_INDICATORS: usize = {len(interface.event_indicators)};",
        *(f"pub const {SIZES[t]}: usize = {layout.count[t]};" for t in SIZES),
        f"pub const N_VALUE_REFERENCES: usize = {layout.n_value_references};",
        f"pub const N_JACOBIAN_NONZEROS: usize = {len(rows)};",
        f"pub const N_GUESSES: usize = {len(interface.guesses)};",
        f"pub const HAS_JACOBIAN: bool = {'true' if interface.has_jacobian else 'false'};",
        f"pub const HAS_ASSERTS: bool = {'true' if interface.has_asserts else 'false'};",
        "",
        "// slots of ModelData's arrays (r, i, e, b), named as config.h names them",
    ]
    lines += [f"pub const {C_ACCESSORS[s.type]}_{s.c_name}: usize = {s.index}; // {s.label}"
              for s in layout.slots]
    rows_ = ['VariableInfo { name: "time", kind: VariableType::Float64, slot: 0, causality: '
             'Causality::Independent, variability: Variability::Continuous, initial: Initial::None }']
    for variable in one_per_value_reference(layout):
        if layout.array_of(variable.name):
            raise EmitError("FMI array variables are not supported by the Rust backend")
        slot = layout.slot[variable.name]
        rows_.append(
            f"VariableInfo {{ name: {rust_string(variable.name)}, kind: VariableType::{variable.type}, "
            f"slot: {C_ACCESSORS[variable.type]}_{slot.c_name}, causality: Causality::"
            f"{CAUSALITY[variable.causality]}, variability: Variability::"
            f"{variable.variability.capitalize()}, initial: Initial::"
            f"{INITIAL[effective_initial(variable)]} }}")
    lines += ["", "pub const VARIABLES: [VariableInfo; N_VALUE_REFERENCES] = ["]
    lines += [f"    {row}," for row in rows_] + ["];", ""]
    starts = _start_values(interface, layout)
    for type_ in TYPES[:4]:
        lines.append(_array(STARTS[type_], RUST_TYPES[type_], SIZES[type_],
                            [_value(type_, v) for v in starts[type_]]))
    states = [(layout.slot[s.name], layout.slot[d.name], s.nominal) for s, d in layout.states]
    lines += [
        _array("STATE_SLOT", "usize", "N_STATES", [f"R_{s.c_name}" for s, _, _ in states]),
        _array("DERIVATIVE_SLOT", "usize", "N_STATES", [f"R_{d.c_name}" for _, d, _ in states]),
        _array("STATE_NOMINAL", "f64", "N_STATES", [rust_double(n or 1.0) for _, _, n in states]),
        _array("GUESS_SLOT", "usize", "N_GUESSES",
               [f"R_{layout.slot[name].c_name}" for name in interface.guesses]),
        _array("EVENT_INDICATOR_SLOT", "usize", "N_EVENT_INDICATORS",
               [f"R_{layout.slot[v.name].c_name}" for v in layout.indicator_variables]),
        _array("EVENT_INDICATOR_NAMES", "&str", "N_EVENT_INDICATORS",
               [rust_string(text) for text in interface.event_indicators]),
        _array("JACOBIAN_COLUMN_START", "usize", "N_STATES + 1", [str(v) for v in start]),
        _array("JACOBIAN_ROWS", "usize", "N_JACOBIAN_NONZEROS", [str(v) for v in rows]),
        # the FMU's log categories, those modelDescription.xml lists
        _array("LOG_CATEGORIES", "&str", str(len(log_categories())),
               [rust_string(name) for name, _ in log_categories()]),
    ]
    columns = result_columns(interface, layout)
    header = ",".join(["time"] + [_csv_field(f"{interface.identifier}.{fmi_name(name)}")
                                  for name, _ in columns])
    lines += ["", "// the columns of the program's result (those `cosim run` records)",
              f"pub const RESULT_HEADER: &str = {rust_string(header)};",
              _array("RESULT_COLUMNS", "usize", str(len(columns)), [str(vr) for _, vr in columns])]
    return "\n".join(lines)
