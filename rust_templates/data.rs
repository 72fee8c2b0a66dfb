// data.rs -- the contract between the runtime and one model (as fmu_templates/model.h is
// for C): the model's storage, and the shape of the tables the generated part of the file
// defines in `mod model` (sizes, the value-reference table, start values, state slots,
// nominals, the Jacobian pattern) beside its six functions:
//
//   model_initialize(m) -> Status            every variable at the start time
//   model_derivatives(m) -> Status           derivatives and what they need
//   model_outputs(m) -> Status               everything else a user can read
//   model_event_indicators(m, z) -> Status   z = L ? d + eps : d - eps per relation d > 0
//   model_event_update(m, update) -> Status  one event iteration
//   model_jacobian(m, values) -> Status      d der(x) / d x in the pattern's order

use crate::model::*;
use crate::support::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariableType {
    Float64,
    Int32,
    Int64,
    Boolean,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Causality {
    Parameter,
    CalculatedParameter,
    Input,
    Output,
    Local,
    Independent,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variability {
    Constant,
    Fixed,
    Tunable,
    Discrete,
    Continuous,
}

/// How the start value of a variable is used (the FMI `initial` attribute).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Initial {
    Exact,
    Approx,
    Calculated,
    None,
}

/// One row of the value-reference table (vr 0 is time).
pub struct VariableInfo {
    pub name: &'static str,
    pub kind: VariableType,
    pub slot: usize,
    pub causality: Causality,
    pub variability: Variability,
    pub initial: Initial,
}

/// All variables of one model instance in flat typed arrays; `pre_*` hold the values before
/// the current event iteration (what pre() reads).
pub struct ModelData {
    pub time: f64,
    pub r: [f64; N_FLOAT64],
    pub i: [i32; N_INT32],
    pub e: [i64; N_INT64],
    pub b: [bool; N_BOOLEAN],
    pub pre_r: [f64; N_FLOAT64],
    pub pre_i: [i32; N_INT32],
    pub pre_e: [i64; N_INT64],
    pub pre_b: [bool; N_BOOLEAN],
    /// initial(): true during initialization (not in the event iteration that follows it)
    pub initial_phase: bool,
    /// relations may change; false: read latched relations
    pub event_mode: bool,
    /// terminal(): true once the simulation terminates
    pub terminal: bool,
    pub sink: LogSink,
}

impl ModelData {
    /// Start values, at time 0, initial() true.
    pub fn new(sink: LogSink) -> Box<ModelData> {
        Box::new(ModelData {
            time: 0.0,
            r: START_FLOAT64,
            i: START_INT32,
            e: START_INT64,
            b: START_BOOLEAN,
            pre_r: START_FLOAT64,
            pre_i: START_INT32,
            pre_e: START_INT64,
            pre_b: START_BOOLEAN,
            initial_phase: true,
            event_mode: false,
            terminal: false,
            sink,
        })
    }

    /// Back to the start values (the logger stays).
    pub fn reset(&mut self) {
        self.time = 0.0;
        self.r = START_FLOAT64;
        self.i = START_INT32;
        self.e = START_INT64;
        self.b = START_BOOLEAN;
        self.save_pre();
        self.initial_phase = true;
        self.event_mode = false;
        self.terminal = false;
    }

    /// pre := current, before an event iteration.
    pub fn save_pre(&mut self) {
        self.pre_r = self.r;
        self.pre_i = self.i;
        self.pre_e = self.e;
        self.pre_b = self.b;
    }

    pub fn log(&self, status: Status, category: &str, message: &str) {
        (self.sink)(status, category, message)
    }
}
