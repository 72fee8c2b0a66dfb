// fmi3.rs -- the FMI 3.0 API of the FMU's binary (rustc --crate-type cdylib --cfg fmi): every
// fmi3* function, with the state machine and argument checks of fmu_templates/fmi3Functions.c.
//
// Each function first checks its instance and state (`begin!`): a call in a state outside
// its mask returns fmi3Error and logs why, without touching the instance. Errors of the model
// itself move the instance to the Error state (Component::status). What this runtime does not
// provide (FMU states, directional and adjoint derivatives, clocks, scheduled execution,
// configuration mode, Strings, Binary and the narrow numeric types) logs and returns
// fmi3Error; modelDescription.xml says so (compiler/rust/compile.py, RUST_CAPABILITIES).

use crate::data::{Causality, Initial, Variability, VariableInfo, VariableType};
use crate::model::*;
use crate::simulation::{time_scale_of, Simulation, StepOutcome};
use crate::support::*;
use std::cell::RefCell;
use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_int, c_void};
use std::rc::Rc;

type Instance = *mut c_void;
type FmiStatus = c_int;
type ValueReference = u32;
type LogMessage = Option<unsafe extern "C" fn(*mut c_void, c_int, *const c_char, *const c_char)>;

const FMI_OK: FmiStatus = 0;
const FMI_ERROR: FmiStatus = 3;

// ---- which state admits which call (bits as fmu_templates/instance.h numbers the states) ----

const START_AND_END: u32 = 1 << 0;
const INSTANTIATED: u32 = 1 << 1;
const INITIALIZATION_MODE: u32 = 1 << 2;
const EVENT_MODE: u32 = 1 << 3;
const CONTINUOUS_TIME_MODE: u32 = 1 << 4;
const STEP_MODE: u32 = 1 << 5;
const TERMINATED: u32 = 1 << 6;
const ERROR_STATE: u32 = 1 << 7;
const FATAL_STATE: u32 = 1 << 8;
const STATE_NAMES: [&str; 9] = ["StartAndEnd", "Instantiated", "InitializationMode", "EventMode",
    "ContinuousTimeMode", "StepMode", "Terminated", "Error", "Fatal"];

const ANY_INSTANCE_STATE: u32 = INSTANTIATED | INITIALIZATION_MODE | EVENT_MODE | CONTINUOUS_TIME_MODE
    | STEP_MODE | TERMINATED | ERROR_STATE;
const INITIALIZED_STATES: u32 = EVENT_MODE | CONTINUOUS_TIME_MODE | STEP_MODE;
const MASK_GET: u32 = INITIALIZATION_MODE | INITIALIZED_STATES | TERMINATED | ERROR_STATE;
const MASK_SET: u32 = INSTANTIATED | INITIALIZATION_MODE | INITIALIZED_STATES;
const MASK_MODEL_EXCHANGE_READ: u32 = INITIALIZATION_MODE | EVENT_MODE | CONTINUOUS_TIME_MODE | TERMINATED
    | ERROR_STATE;

fn state_name(state: u32) -> &'static str {
    STATE_NAMES[state.trailing_zeros() as usize % STATE_NAMES.len()]
}

/// Which interface a function belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Interface {
    Any,
    ModelExchange,
    CoSimulation,
}

/// Where messages go: the importer's callback, filtered by fmi3SetDebugLogging. Problems
/// (Warning and worse) reach the importer whatever the settings, so that an error is never
/// silent; everything else only in enabled categories.
struct Logger {
    callback: LogMessage,
    environment: *mut c_void,
    logging_on: bool,
    enabled: [bool; LOG_CATEGORIES.len()],
}

const STATUS_CATEGORY: [&str; 5] = ["logAll", "logStatusWarning", "logStatusDiscard", "logStatusError",
    "logStatusFatal"];

fn c_text(text: &str) -> CString {
    CString::new(text.replace('\0', " ")).unwrap_or_default()
}

impl Logger {
    fn category_index(name: &str) -> usize {
        LOG_CATEGORIES.iter().position(|c| *c == name)
            .unwrap_or_else(|| LOG_CATEGORIES.len() - 1) // logAll, last
    }

    fn enabled(&self, category: &str) -> bool {
        self.logging_on && (self.enabled[Logger::category_index(category)] || self.enabled[LOG_CATEGORIES.len() - 1])
    }

    fn emit(&self, status: Status, category: &str, message: &str) {
        let callback = match self.callback {
            Some(callback) => callback,
            None => return,
        };
        if status == Status::Ok && !self.enabled(category) {
            return;
        }
        let category = if status == Status::Ok {
            LOG_CATEGORIES[Logger::category_index(category)]
        } else {
            STATUS_CATEGORY[status as usize]
        };
        let (category, message) = (c_text(category), c_text(message));
        unsafe { callback(self.environment, status as c_int, category.as_ptr(), message.as_ptr()) };
    }

    /// fmi3SetDebugLogging: no categories switch all; else the named ones (false: unknown name).
    fn set(&mut self, on: bool, names: &[String]) -> Result<(), String> {
        self.logging_on = on;
        if names.is_empty() {
            self.enabled = [on; LOG_CATEGORIES.len()];
            return Ok(());
        }
        self.enabled = [false; LOG_CATEGORIES.len()];
        for name in names {
            match LOG_CATEGORIES.iter().position(|c| c == name) {
                Some(k) => self.enabled[k] = on,
                None => return Err(format!("fmi3SetDebugLogging: unknown log category '{}'", name)),
            }
        }
        Ok(())
    }
}

/// One FMU instance: the simulation and the state machine around it.
struct Component {
    name: String,
    interface: Interface,
    state: u32,
    logger: Rc<RefCell<Logger>>,
    stop_time_defined: bool,
    stop_time: f64,
    simulation: Simulation,
}

impl Component {
    fn log(&self, status: Status, category: &str, message: &str) {
        self.logger.borrow().emit(status, category, message);
    }

    fn error(&self, message: &str) {
        self.log(Status::Error, "logStatusError", &format!("{}: {}", self.name, message));
    }

    /// The FMI status of a model status; an error moves the instance to the Error state.
    fn status(&mut self, status: Status) -> FmiStatus {
        if status == Status::Error {
            self.state = ERROR_STATE;
        }
        if status == Status::Fatal {
            self.state = FATAL_STATE;
        }
        status as FmiStatus
    }

    fn allowed(&self, function: &str, mask: u32, interface: Interface) -> bool {
        if self.state & mask == 0 {
            let expected: Vec<&str> = (0..STATE_NAMES.len()).filter(|bit| mask & (1 << bit) != 0)
                .map(|bit| STATE_NAMES[bit]).collect();
            self.error(&format!("{} is not allowed in state {} (allowed in: {})", function,
                state_name(self.state), if expected.is_empty() { "none".to_string() } else { expected.join(", ") }));
            return false;
        }
        if interface != Interface::Any && interface != self.interface {
            self.error(&format!("{} is only for {} instances", function,
                if interface == Interface::ModelExchange { "Model Exchange" } else { "Co-Simulation" }));
            return false;
        }
        true
    }

    fn missing<T>(&self, function: &str, argument: &str, pointer: *const T) -> bool {
        if !pointer.is_null() {
            return false;
        }
        self.error(&format!("{}: argument {} must not be NULL", function, argument));
        true
    }

    fn reset(&mut self) {
        self.simulation.reset();
        self.state = INSTANTIATED;
        self.stop_time_defined = false;
        self.stop_time = 0.0;
    }

    /// Recompute stale values before a read (outputs false: what the derivatives need).
    fn refresh(&mut self, outputs: bool) -> FmiStatus {
        let status = self.simulation.refresh(outputs);
        if status > Status::Warning {
            let message = format!("evaluating the model at t = {} failed", format_g(self.simulation.model.data.time, 17));
            self.log(status, "logStatusError", &format!("{}: {}", self.name, message));
        }
        self.status(status)
    }

    /// May variable `v` be set in the current state? (FMI 3.0, 2.3.3 and the state machines)
    fn settable(&self, v: &VariableInfo) -> bool {
        let has_start = v.initial == Initial::Exact || v.initial == Initial::Approx;
        let input = v.causality == Causality::Input;
        let tunable = v.causality == Causality::Parameter && v.variability == Variability::Tunable;
        if v.variability == Variability::Constant || v.causality == Causality::Independent {
            return false;
        }
        match self.state {
            INSTANTIATED | INITIALIZATION_MODE => has_start || input,
            EVENT_MODE | STEP_MODE => input || tunable,
            CONTINUOUS_TIME_MODE => input && v.variability == Variability::Continuous,
            _ => false,
        }
    }

    /// The value references of a get or set call, each naming a variable of `kind` (vr 0,
    /// time, counts as Float64), or None after logging why not.
    fn access<'a, T>(&self, function: &str, vr: *const ValueReference, nvr: usize, values: *const T,
                     n_values: usize, kind: VariableType, set: bool) -> Option<&'a [ValueReference]> {
        if nvr == 0 {
            return Some(&[]);
        }
        if self.missing(function, "valueReferences", vr) || self.missing(function, "values", values) {
            return None;
        }
        if n_values != nvr {
            self.error(&format!("{}: expected nValues = {} but was {}", function, nvr, n_values));
            return None;
        }
        let vrs = unsafe { std::slice::from_raw_parts(vr, nvr) };
        for &reference in vrs {
            let v = match VARIABLES.get(reference as usize) {
                Some(v) => v,
                None => {
                    self.error(&format!("{}: unknown value reference {}", function, reference));
                    return None;
                }
            };
            if v.kind != kind {
                self.error(&format!("{}: value reference {} ({}) is a {:?} variable", function, reference, v.name, v.kind));
                return None;
            }
            if set && !self.settable(v) {
                self.error(&format!("{}: variable {} (value reference {}) cannot be set in state {}",
                    function, v.name, reference, state_name(self.state)));
                return None;
            }
        }
        Some(vrs)
    }

    /// After values were set: recompute before the next read, and tell the integrator that
    /// inputs changed at this communication point.
    fn values_were_set(&mut self, vrs: &[ValueReference]) {
        self.simulation.values_dirty = true;
        if self.state != STEP_MODE {
            return;
        }
        for &reference in vrs {
            self.simulation.inputs_changed = true;
            if VARIABLES[reference as usize].variability != Variability::Continuous {
                self.simulation.discrete_inputs_changed = true;
            }
        }
    }

    fn count_matches<T>(&self, function: &str, array: *const T, n: usize, expected: usize, what: &str) -> bool {
        if n != expected {
            self.error(&format!("{}: expected {} = {} but was {}", function, what, expected, n));
            return false;
        }
        n == 0 || !self.missing(function, "array", array)
    }
}

/// The instance behind a handle and the check of its state, or return fmi3Error.
macro_rules! begin {
    ($instance:expr, $function:expr, $mask:expr, $interface:expr) => {{
        if $instance.is_null() {
            return FMI_ERROR;
        }
        let comp = unsafe { &mut *($instance as *mut Component) };
        if !comp.allowed($function, $mask, $interface) {
            return FMI_ERROR;
        }
        comp
    }};
}

fn text_of(pointer: *const c_char) -> Option<String> {
    if pointer.is_null() {
        None
    } else {
        Some(unsafe { CStr::from_ptr(pointer) }.to_string_lossy().into_owned())
    }
}

// ---- variable access ----

fn get_values<T: Copy>(instance: Instance, function: &str, vr: *const ValueReference, nvr: usize, values: *mut T,
                       n_values: usize, kind: VariableType, read: fn(&Simulation, &VariableInfo, usize) -> T) -> FmiStatus {
    let comp = begin!(instance, function, MASK_GET, Interface::Any);
    let vrs = match comp.access(function, vr, nvr, values as *const T, n_values, kind, false) {
        Some(vrs) => vrs,
        None => return FMI_ERROR,
    };
    let mut status = FMI_OK;
    if nvr > 0 {
        status = comp.refresh(true);
    }
    if status > Status::Warning as FmiStatus {
        return status;
    }
    for (k, &reference) in vrs.iter().enumerate() {
        unsafe { *values.add(k) = read(&comp.simulation, &VARIABLES[reference as usize], reference as usize) };
    }
    status
}

fn set_values<T: Copy>(instance: Instance, function: &str, vr: *const ValueReference, nvr: usize, values: *const T,
                       n_values: usize, kind: VariableType, write: fn(&mut Simulation, usize, T)) -> FmiStatus {
    let comp = begin!(instance, function, MASK_SET, Interface::Any);
    let vrs = match comp.access(function, vr, nvr, values, n_values, kind, true) {
        Some(vrs) => vrs,
        None => return FMI_ERROR,
    };
    for (k, &reference) in vrs.iter().enumerate() {
        write(&mut comp.simulation, VARIABLES[reference as usize].slot, unsafe { *values.add(k) });
    }
    comp.values_were_set(vrs);
    FMI_OK
}

#[no_mangle]
pub extern "C" fn fmi3GetFloat64(instance: Instance, vr: *const ValueReference, nvr: usize, values: *mut f64,
                                 n_values: usize) -> FmiStatus {
    get_values(instance, "fmi3GetFloat64", vr, nvr, values, n_values, VariableType::Float64,
        |s, v, reference| if reference == 0 { s.model.data.time } else { s.model.data.r[v.slot] })
}

#[no_mangle]
pub extern "C" fn fmi3GetInt32(instance: Instance, vr: *const ValueReference, nvr: usize, values: *mut i32,
                               n_values: usize) -> FmiStatus {
    get_values(instance, "fmi3GetInt32", vr, nvr, values, n_values, VariableType::Int32,
        |s, v, _| s.model.data.i[v.slot])
}

#[no_mangle]
pub extern "C" fn fmi3GetInt64(instance: Instance, vr: *const ValueReference, nvr: usize, values: *mut i64,
                               n_values: usize) -> FmiStatus {
    get_values(instance, "fmi3GetInt64", vr, nvr, values, n_values, VariableType::Int64,
        |s, v, _| s.model.data.e[v.slot])
}

#[no_mangle]
pub extern "C" fn fmi3GetBoolean(instance: Instance, vr: *const ValueReference, nvr: usize, values: *mut bool,
                                 n_values: usize) -> FmiStatus {
    get_values(instance, "fmi3GetBoolean", vr, nvr, values, n_values, VariableType::Boolean,
        |s, v, _| s.model.data.b[v.slot])
}

#[no_mangle]
pub extern "C" fn fmi3SetFloat64(instance: Instance, vr: *const ValueReference, nvr: usize, values: *const f64,
                                 n_values: usize) -> FmiStatus {
    set_values(instance, "fmi3SetFloat64", vr, nvr, values, n_values, VariableType::Float64,
        |s, slot, value| s.model.data.r[slot] = value)
}

#[no_mangle]
pub extern "C" fn fmi3SetInt32(instance: Instance, vr: *const ValueReference, nvr: usize, values: *const i32,
                               n_values: usize) -> FmiStatus {
    set_values(instance, "fmi3SetInt32", vr, nvr, values, n_values, VariableType::Int32,
        |s, slot, value| s.model.data.i[slot] = value)
}

#[no_mangle]
pub extern "C" fn fmi3SetInt64(instance: Instance, vr: *const ValueReference, nvr: usize, values: *const i64,
                               n_values: usize) -> FmiStatus {
    set_values(instance, "fmi3SetInt64", vr, nvr, values, n_values, VariableType::Int64,
        |s, slot, value| s.model.data.e[slot] = value)
}

#[no_mangle]
pub extern "C" fn fmi3SetBoolean(instance: Instance, vr: *const ValueReference, nvr: usize, values: *const bool,
                                 n_values: usize) -> FmiStatus {
    set_values(instance, "fmi3SetBoolean", vr, nvr, values, n_values, VariableType::Boolean,
        |s, slot, value| s.model.data.b[slot] = value)
}

/// Types this runtime has no variables of: an empty call is fine, any value reference is not.
fn no_variables(instance: Instance, function: &str, mask: u32, nvr: usize) -> FmiStatus {
    let comp = begin!(instance, function, mask, Interface::Any);
    if nvr == 0 {
        return FMI_OK;
    }
    comp.error(&format!("{}: this FMU has no variables of that type", function));
    FMI_ERROR
}

macro_rules! no_variables {
    ($get:ident, $set:ident, $type:ty) => {
        #[no_mangle]
        pub extern "C" fn $get(instance: Instance, _vr: *const ValueReference, nvr: usize, _values: *mut $type,
                               _n_values: usize) -> FmiStatus {
            no_variables(instance, stringify!($get), MASK_GET, nvr)
        }

        #[no_mangle]
        pub extern "C" fn $set(instance: Instance, _vr: *const ValueReference, nvr: usize, _values: *const $type,
                               _n_values: usize) -> FmiStatus {
            no_variables(instance, stringify!($set), MASK_SET, nvr)
        }
    };
}

no_variables!(fmi3GetFloat32, fmi3SetFloat32, f32);
no_variables!(fmi3GetInt8, fmi3SetInt8, i8);
no_variables!(fmi3GetUInt8, fmi3SetUInt8, u8);
no_variables!(fmi3GetInt16, fmi3SetInt16, i16);
no_variables!(fmi3GetUInt16, fmi3SetUInt16, u16);
no_variables!(fmi3GetUInt32, fmi3SetUInt32, u32);
no_variables!(fmi3GetUInt64, fmi3SetUInt64, u64);
no_variables!(fmi3GetString, fmi3SetString, *const c_char);

#[no_mangle]
pub extern "C" fn fmi3GetBinary(instance: Instance, _vr: *const ValueReference, nvr: usize, _sizes: *mut usize,
                                _values: *mut *const u8, _n_values: usize) -> FmiStatus {
    no_variables(instance, "fmi3GetBinary", MASK_GET, nvr)
}

#[no_mangle]
pub extern "C" fn fmi3SetBinary(instance: Instance, _vr: *const ValueReference, nvr: usize, _sizes: *const usize,
                                _values: *const *const u8, _n_values: usize) -> FmiStatus {
    no_variables(instance, "fmi3SetBinary", MASK_SET, nvr)
}

#[no_mangle]
pub extern "C" fn fmi3GetClock(instance: Instance, _vr: *const ValueReference, nvr: usize, _values: *mut bool) -> FmiStatus {
    no_variables(instance, "fmi3GetClock", MASK_GET, nvr)
}

#[no_mangle]
pub extern "C" fn fmi3SetClock(instance: Instance, _vr: *const ValueReference, nvr: usize, _values: *const bool) -> FmiStatus {
    no_variables(instance, "fmi3SetClock", MASK_SET, nvr)
}

// ---- inquire version, logging, life cycle ----

#[no_mangle]
pub extern "C" fn fmi3GetVersion() -> *const c_char {
    b"3.0\0".as_ptr() as *const c_char
}

#[no_mangle]
pub extern "C" fn fmi3SetDebugLogging(instance: Instance, logging_on: bool, n_categories: usize,
                                      categories: *const *const c_char) -> FmiStatus {
    let comp = begin!(instance, "fmi3SetDebugLogging", ANY_INSTANCE_STATE, Interface::Any);
    if n_categories > 0 && comp.missing("fmi3SetDebugLogging", "categories", categories) {
        return FMI_ERROR;
    }
    let names: Vec<String> = (0..n_categories)
        .map(|k| text_of(unsafe { *categories.add(k) }).unwrap_or_else(|| "(null)".to_string())).collect();
    let result = comp.logger.borrow_mut().set(logging_on, &names);
    match result {
        Ok(()) => FMI_OK,
        Err(message) => {
            comp.log(Status::Error, "logStatusError", &message);
            FMI_ERROR
        }
    }
}

fn instantiate(interface: Interface, name: *const c_char, token: *const c_char, logging_on: bool,
               environment: *mut c_void, callback: LogMessage) -> Option<Box<Component>> {
    let logger = Rc::new(RefCell::new(Logger {
        callback, environment, logging_on: false, enabled: [false; LOG_CATEGORIES.len()] }));
    let probe = |message: &str| logger.borrow().emit(Status::Error, "logStatusError", message);
    let name = match text_of(name) {
        Some(name) if !name.is_empty() => name,
        _ => {
            probe("fmi3Instantiate: instanceName must not be empty");
            return None;
        }
    };
    let token = text_of(token);
    if token.as_deref() != Some(INSTANTIATION_TOKEN) {
        probe(&format!("{}: instantiationToken '{}' does not match this binary's '{}'", name,
            token.as_deref().unwrap_or("(null)"), INSTANTIATION_TOKEN));
        return None;
    }
    let _ = logger.borrow_mut().set(logging_on, &[]);
    let shared = Rc::clone(&logger);
    let sink: LogSink = Box::new(move |status, category, message| shared.borrow().emit(status, category, message));
    let mut comp = Box::new(Component {
        name, interface, state: INSTANTIATED, logger, stop_time_defined: false, stop_time: 0.0,
        simulation: Simulation::new(sink),
    });
    comp.reset();
    Some(comp)
}

fn into_instance(comp: Option<Box<Component>>) -> Instance {
    comp.map_or(std::ptr::null_mut(), |comp| Box::into_raw(comp) as Instance)
}

#[no_mangle]
pub extern "C" fn fmi3InstantiateModelExchange(name: *const c_char, token: *const c_char, _resources: *const c_char,
                                               _visible: bool, logging_on: bool, environment: *mut c_void,
                                               callback: LogMessage) -> Instance {
    into_instance(instantiate(Interface::ModelExchange, name, token, logging_on, environment, callback))
}

#[no_mangle]
pub extern "C" fn fmi3InstantiateCoSimulation(name: *const c_char, token: *const c_char, _resources: *const c_char,
                                              _visible: bool, logging_on: bool, event_mode_used: bool,
                                              early_return_allowed: bool, _required: *const ValueReference,
                                              _n_required: usize, environment: *mut c_void, callback: LogMessage,
                                              _intermediate_update: *const c_void) -> Instance {
    let comp = instantiate(Interface::CoSimulation, name, token, logging_on, environment, callback);
    match comp {
        Some(comp) if event_mode_used => {
            // hasEventMode is false in modelDescription.xml: events are handled inside doStep
            comp.error("eventModeUsed = true, but this FMU has no Co-Simulation event mode");
            std::ptr::null_mut()
        }
        Some(mut comp) => {
            comp.simulation.early_return_allowed = early_return_allowed;
            into_instance(Some(comp))
        }
        None => std::ptr::null_mut(),
    }
}

#[no_mangle]
pub extern "C" fn fmi3InstantiateScheduledExecution(_name: *const c_char, _token: *const c_char,
                                                    _resources: *const c_char, _visible: bool, _logging_on: bool,
                                                    environment: *mut c_void, callback: LogMessage,
                                                    _clock_update: *const c_void, _lock: *const c_void,
                                                    _unlock: *const c_void) -> Instance {
    let logger = Logger { callback, environment, logging_on: false, enabled: [false; LOG_CATEGORIES.len()] };
    logger.emit(Status::Error, "logStatusError",
        "fmi3InstantiateScheduledExecution: this FMU does not support Scheduled Execution");
    std::ptr::null_mut()
}

#[no_mangle]
pub extern "C" fn fmi3FreeInstance(instance: Instance) {
    if !instance.is_null() {
        drop(unsafe { Box::from_raw(instance as *mut Component) });
    }
}

#[no_mangle]
pub extern "C" fn fmi3EnterInitializationMode(instance: Instance, tolerance_defined: bool, tolerance: f64,
                                              start_time: f64, stop_time_defined: bool, stop_time: f64) -> FmiStatus {
    let comp = begin!(instance, "fmi3EnterInitializationMode", INSTANTIATED, Interface::Any);
    if tolerance_defined && !(tolerance > 0.0 && tolerance < 1.0) {
        comp.error(&format!("tolerance must be in (0, 1), was {}", format_g(tolerance, 6)));
        return FMI_ERROR;
    }
    if stop_time_defined && !(stop_time >= start_time) {
        comp.error(&format!("stopTime {} is before startTime {}", format_g(stop_time, 6), format_g(start_time, 6)));
        return FMI_ERROR;
    }
    let tolerance = if tolerance_defined { tolerance } else { comp.simulation.tolerance };
    comp.stop_time_defined = stop_time_defined;
    comp.stop_time = stop_time;
    comp.simulation.enter_initialization(start_time, tolerance);
    comp.simulation.time_scale = time_scale_of(start_time, stop_time, stop_time_defined);
    comp.state = INITIALIZATION_MODE;
    FMI_OK
}

#[no_mangle]
pub extern "C" fn fmi3ExitInitializationMode(instance: Instance) -> FmiStatus {
    let comp = begin!(instance, "fmi3ExitInitializationMode", INITIALIZATION_MODE, Interface::Any);
    let mut status = comp.simulation.exit_initialization();
    comp.simulation.model.data.initial_phase = false; // initial() is true during initialization only
    if status <= Status::Warning && comp.interface == Interface::CoSimulation {
        comp.state = STEP_MODE;
        status = status.max(comp.simulation.enter_step_mode());
    } else if status <= Status::Warning {
        comp.state = EVENT_MODE;
    }
    comp.status(status)
}

#[no_mangle]
pub extern "C" fn fmi3EnterEventMode(instance: Instance) -> FmiStatus {
    let comp = begin!(instance, "fmi3EnterEventMode", CONTINUOUS_TIME_MODE, Interface::ModelExchange);
    comp.state = EVENT_MODE;
    comp.simulation.model.data.event_mode = true;
    comp.simulation.values_dirty = true;
    FMI_OK
}

#[no_mangle]
pub extern "C" fn fmi3Terminate(instance: Instance) -> FmiStatus {
    let comp = begin!(instance, "fmi3Terminate", INITIALIZED_STATES | ERROR_STATE, Interface::Any);
    comp.simulation.model.data.terminal = true;
    comp.simulation.values_dirty = true;
    comp.state = TERMINATED;
    FMI_OK
}

#[no_mangle]
pub extern "C" fn fmi3Reset(instance: Instance) -> FmiStatus {
    let comp = begin!(instance, "fmi3Reset", ANY_INSTANCE_STATE, Interface::Any);
    comp.reset();
    FMI_OK
}

// ---- what this runtime does not provide ----

fn unsupported(instance: Instance, function: &str, why: &str) -> FmiStatus {
    if !instance.is_null() {
        let comp = unsafe { &*(instance as *const Component) };
        comp.error(&format!("{} is not supported: {}", function, why));
    }
    FMI_ERROR
}

const NO_DEPENDENCIES: &str = "dependencies are listed in modelDescription.xml";
const NO_FMU_STATE: &str = "canGetAndSetFMUState is false";
const NO_CLOCKS: &str = "the FMU has no clocks";

#[no_mangle]
pub extern "C" fn fmi3GetNumberOfVariableDependencies(instance: Instance, _vr: ValueReference,
                                                      _n: *mut usize) -> FmiStatus {
    unsupported(instance, "fmi3GetNumberOfVariableDependencies", NO_DEPENDENCIES)
}

#[no_mangle]
pub extern "C" fn fmi3GetVariableDependencies(instance: Instance, _dependent: ValueReference,
                                              _element_indices: *mut usize, _independents: *mut ValueReference,
                                              _independent_indices: *mut usize, _kinds: *mut c_int,
                                              _n: usize) -> FmiStatus {
    unsupported(instance, "fmi3GetVariableDependencies", NO_DEPENDENCIES)
}

#[no_mangle]
pub extern "C" fn fmi3GetFMUState(instance: Instance, _state: *mut *mut c_void) -> FmiStatus {
    unsupported(instance, "fmi3GetFMUState", NO_FMU_STATE)
}

#[no_mangle]
pub extern "C" fn fmi3SetFMUState(instance: Instance, _state: *mut c_void) -> FmiStatus {
    unsupported(instance, "fmi3SetFMUState", NO_FMU_STATE)
}

#[no_mangle]
pub extern "C" fn fmi3FreeFMUState(instance: Instance, state: *mut *mut c_void) -> FmiStatus {
    // nothing to free where nothing was given out
    if state.is_null() || unsafe { (*state).is_null() } {
        return FMI_OK;
    }
    unsupported(instance, "fmi3FreeFMUState", NO_FMU_STATE)
}

#[no_mangle]
pub extern "C" fn fmi3SerializedFMUStateSize(instance: Instance, _state: *mut c_void, _size: *mut usize) -> FmiStatus {
    unsupported(instance, "fmi3SerializedFMUStateSize", NO_FMU_STATE)
}

#[no_mangle]
pub extern "C" fn fmi3SerializeFMUState(instance: Instance, _state: *mut c_void, _bytes: *mut u8,
                                        _size: usize) -> FmiStatus {
    unsupported(instance, "fmi3SerializeFMUState", NO_FMU_STATE)
}

#[no_mangle]
pub extern "C" fn fmi3DeserializeFMUState(instance: Instance, _bytes: *const u8, _size: usize,
                                          _state: *mut *mut c_void) -> FmiStatus {
    unsupported(instance, "fmi3DeserializeFMUState", NO_FMU_STATE)
}

#[no_mangle]
pub extern "C" fn fmi3GetDirectionalDerivative(instance: Instance, _unknowns: *const ValueReference, _n_unknowns: usize,
                                               _knowns: *const ValueReference, _n_knowns: usize, _seed: *const f64,
                                               _n_seed: usize, _sensitivity: *mut f64, _n_sensitivity: usize) -> FmiStatus {
    unsupported(instance, "fmi3GetDirectionalDerivative", "providesDirectionalDerivatives is false")
}

#[no_mangle]
pub extern "C" fn fmi3GetAdjointDerivative(instance: Instance, _unknowns: *const ValueReference, _n_unknowns: usize,
                                           _knowns: *const ValueReference, _n_knowns: usize, _seed: *const f64,
                                           _n_seed: usize, _sensitivity: *mut f64, _n_sensitivity: usize) -> FmiStatus {
    unsupported(instance, "fmi3GetAdjointDerivative", "providesAdjointDerivatives is false")
}

#[no_mangle]
pub extern "C" fn fmi3EnterConfigurationMode(instance: Instance) -> FmiStatus {
    unsupported(instance, "fmi3EnterConfigurationMode", "the FMU has no structural parameters")
}

#[no_mangle]
pub extern "C" fn fmi3ExitConfigurationMode(instance: Instance) -> FmiStatus {
    unsupported(instance, "fmi3ExitConfigurationMode", "the FMU has no structural parameters")
}

#[no_mangle]
pub extern "C" fn fmi3GetIntervalDecimal(instance: Instance, _vr: *const ValueReference, _nvr: usize,
                                         _intervals: *mut f64, _qualifiers: *mut c_int) -> FmiStatus {
    unsupported(instance, "fmi3GetIntervalDecimal", NO_CLOCKS)
}

#[no_mangle]
pub extern "C" fn fmi3GetIntervalFraction(instance: Instance, _vr: *const ValueReference, _nvr: usize,
                                          _counters: *mut u64, _resolutions: *mut u64,
                                          _qualifiers: *mut c_int) -> FmiStatus {
    unsupported(instance, "fmi3GetIntervalFraction", NO_CLOCKS)
}

#[no_mangle]
pub extern "C" fn fmi3GetShiftDecimal(instance: Instance, _vr: *const ValueReference, _nvr: usize,
                                      _shifts: *mut f64) -> FmiStatus {
    unsupported(instance, "fmi3GetShiftDecimal", NO_CLOCKS)
}

#[no_mangle]
pub extern "C" fn fmi3GetShiftFraction(instance: Instance, _vr: *const ValueReference, _nvr: usize,
                                       _counters: *mut u64, _resolutions: *mut u64) -> FmiStatus {
    unsupported(instance, "fmi3GetShiftFraction", NO_CLOCKS)
}

#[no_mangle]
pub extern "C" fn fmi3SetIntervalDecimal(instance: Instance, _vr: *const ValueReference, _nvr: usize,
                                         _intervals: *const f64) -> FmiStatus {
    unsupported(instance, "fmi3SetIntervalDecimal", NO_CLOCKS)
}

#[no_mangle]
pub extern "C" fn fmi3SetIntervalFraction(instance: Instance, _vr: *const ValueReference, _nvr: usize,
                                          _counters: *const u64, _resolutions: *const u64) -> FmiStatus {
    unsupported(instance, "fmi3SetIntervalFraction", NO_CLOCKS)
}

#[no_mangle]
pub extern "C" fn fmi3SetShiftDecimal(instance: Instance, _vr: *const ValueReference, _nvr: usize,
                                      _shifts: *const f64) -> FmiStatus {
    unsupported(instance, "fmi3SetShiftDecimal", NO_CLOCKS)
}

#[no_mangle]
pub extern "C" fn fmi3SetShiftFraction(instance: Instance, _vr: *const ValueReference, _nvr: usize,
                                       _counters: *const u64, _resolutions: *const u64) -> FmiStatus {
    unsupported(instance, "fmi3SetShiftFraction", NO_CLOCKS)
}

#[no_mangle]
pub extern "C" fn fmi3EvaluateDiscreteStates(instance: Instance) -> FmiStatus {
    unsupported(instance, "fmi3EvaluateDiscreteStates", NO_CLOCKS)
}

#[no_mangle]
pub extern "C" fn fmi3ActivateModelPartition(instance: Instance, _clock: ValueReference, _time: f64) -> FmiStatus {
    unsupported(instance, "fmi3ActivateModelPartition", "the FMU does not support Scheduled Execution")
}

#[no_mangle]
pub extern "C" fn fmi3GetOutputDerivatives(instance: Instance, _vr: *const ValueReference, _nvr: usize,
                                           _orders: *const i32, _values: *mut f64, _n_values: usize) -> FmiStatus {
    unsupported(instance, "fmi3GetOutputDerivatives", "maxOutputDerivativeOrder is 0")
}

// ---- Model Exchange ----

#[no_mangle]
pub extern "C" fn fmi3UpdateDiscreteStates(instance: Instance, discrete_states_need_update: *mut bool,
                                           terminate_simulation: *mut bool, nominals_changed: *mut bool,
                                           values_changed: *mut bool, next_event_time_defined: *mut bool,
                                           next_event_time: *mut f64) -> FmiStatus {
    let comp = begin!(instance, "fmi3UpdateDiscreteStates", EVENT_MODE, Interface::ModelExchange);
    let function = "fmi3UpdateDiscreteStates";
    if comp.missing(function, "discreteStatesNeedUpdate", discrete_states_need_update)
        || comp.missing(function, "terminateSimulation", terminate_simulation)
        || comp.missing(function, "nominalsOfContinuousStatesChanged", nominals_changed)
        || comp.missing(function, "valuesOfContinuousStatesChanged", values_changed)
        || comp.missing(function, "nextEventTimeDefined", next_event_time_defined)
        || comp.missing(function, "nextEventTime", next_event_time) {
        return FMI_ERROR;
    }
    let mut update = EventUpdate::default();
    let status = comp.simulation.event_update_once(&mut update);
    if status > Status::Warning {
        return comp.status(status);
    }
    unsafe {
        *discrete_states_need_update = update.discrete_states_need_update;
        *terminate_simulation = update.terminate_simulation;
        *nominals_changed = false;
        *values_changed = update.state_values_changed;
        *next_event_time_defined = update.next_event_time_defined;
        *next_event_time = if update.next_event_time_defined { update.next_event_time } else { 0.0 };
    }
    comp.log(Status::Ok, "logEvents", &format!("{}: event update at t = {}{}", comp.name,
        format_g(comp.simulation.model.data.time, 17), if update.discrete_states_need_update { " (iterate)" } else { "" }));
    comp.status(status)
}

#[no_mangle]
pub extern "C" fn fmi3EnterContinuousTimeMode(instance: Instance) -> FmiStatus {
    let comp = begin!(instance, "fmi3EnterContinuousTimeMode", EVENT_MODE, Interface::ModelExchange);
    comp.simulation.model.data.event_mode = false;
    comp.simulation.model.data.initial_phase = false;
    comp.simulation.values_dirty = true;
    comp.state = CONTINUOUS_TIME_MODE;
    FMI_OK
}

#[no_mangle]
pub extern "C" fn fmi3CompletedIntegratorStep(instance: Instance, _no_set_state_prior: bool, enter_event_mode: *mut bool,
                                              terminate_simulation: *mut bool) -> FmiStatus {
    let function = "fmi3CompletedIntegratorStep";
    let comp = begin!(instance, function, CONTINUOUS_TIME_MODE, Interface::ModelExchange);
    if comp.missing(function, "enterEventMode", enter_event_mode)
        || comp.missing(function, "terminateSimulation", terminate_simulation) {
        return FMI_ERROR;
    }
    unsafe {
        *enter_event_mode = false; // no step events: dynamic state selection is not used
        *terminate_simulation = false;
    }
    if N_GUESSES == 0 && !HAS_ASSERTS {
        return FMI_OK;
    }
    // the loops solved at an accepted step start the next evaluations, and continuous-time
    // asserts hold there, whatever the importer reads
    let status = comp.refresh(HAS_ASSERTS);
    if status <= Status::Warning as FmiStatus {
        comp.simulation.model.keep_guesses();
    }
    status
}

#[no_mangle]
pub extern "C" fn fmi3SetTime(instance: Instance, time: f64) -> FmiStatus {
    let comp = begin!(instance, "fmi3SetTime", EVENT_MODE | CONTINUOUS_TIME_MODE, Interface::ModelExchange);
    comp.simulation.model.data.time = time;
    comp.simulation.values_dirty = true;
    FMI_OK
}

#[no_mangle]
pub extern "C" fn fmi3SetContinuousStates(instance: Instance, states: *const f64, n: usize) -> FmiStatus {
    let function = "fmi3SetContinuousStates";
    let comp = begin!(instance, function, CONTINUOUS_TIME_MODE, Interface::ModelExchange);
    if !comp.count_matches(function, states, n, N_STATES, "nContinuousStates") {
        return FMI_ERROR;
    }
    if n > 0 {
        comp.simulation.model.set_states(unsafe { std::slice::from_raw_parts(states, n) });
    }
    comp.simulation.values_dirty = true;
    FMI_OK
}

#[no_mangle]
pub extern "C" fn fmi3GetContinuousStateDerivatives(instance: Instance, derivatives: *mut f64, n: usize) -> FmiStatus {
    let function = "fmi3GetContinuousStateDerivatives";
    let comp = begin!(instance, function, MASK_MODEL_EXCHANGE_READ, Interface::ModelExchange);
    if !comp.count_matches(function, derivatives, n, N_STATES, "nContinuousStates") {
        return FMI_ERROR;
    }
    let status = comp.refresh(false);
    if status > Status::Warning as FmiStatus {
        return status;
    }
    for k in 0..N_STATES {
        unsafe { *derivatives.add(k) = comp.simulation.model.data.r[DERIVATIVE_SLOT[k]] };
    }
    status
}

#[no_mangle]
pub extern "C" fn fmi3GetEventIndicators(instance: Instance, indicators: *mut f64, n: usize) -> FmiStatus {
    let function = "fmi3GetEventIndicators";
    let comp = begin!(instance, function, MASK_MODEL_EXCHANGE_READ, Interface::ModelExchange);
    if !comp.count_matches(function, indicators, n, N_EVENT_INDICATORS, "nEventIndicators") {
        return FMI_ERROR;
    }
    let status = comp.refresh(false);
    if status > Status::Warning as FmiStatus || N_EVENT_INDICATORS == 0 {
        return status;
    }
    let z = unsafe { std::slice::from_raw_parts_mut(indicators, n) };
    let computed = model_event_indicators(&mut comp.simulation.model.data, z);
    comp.status(computed)
}

#[no_mangle]
pub extern "C" fn fmi3GetContinuousStates(instance: Instance, states: *mut f64, n: usize) -> FmiStatus {
    let function = "fmi3GetContinuousStates";
    let comp = begin!(instance, function, MASK_MODEL_EXCHANGE_READ, Interface::ModelExchange);
    if !comp.count_matches(function, states, n, N_STATES, "nContinuousStates") {
        return FMI_ERROR;
    }
    let mut status = FMI_OK;
    if comp.state == INITIALIZATION_MODE {
        status = comp.refresh(false);
    }
    if status > Status::Warning as FmiStatus {
        return status;
    }
    if n > 0 {
        comp.simulation.model.get_states(unsafe { std::slice::from_raw_parts_mut(states, n) });
    }
    status
}

#[no_mangle]
pub extern "C" fn fmi3GetNominalsOfContinuousStates(instance: Instance, nominals: *mut f64, n: usize) -> FmiStatus {
    let function = "fmi3GetNominalsOfContinuousStates";
    let comp = begin!(instance, function, MASK_MODEL_EXCHANGE_READ, Interface::ModelExchange);
    if !comp.count_matches(function, nominals, n, N_STATES, "nContinuousStates") {
        return FMI_ERROR;
    }
    for k in 0..N_STATES {
        unsafe { *nominals.add(k) = STATE_NOMINAL[k] };
    }
    FMI_OK
}

#[no_mangle]
pub extern "C" fn fmi3GetNumberOfEventIndicators(instance: Instance, n: *mut usize) -> FmiStatus {
    let comp = begin!(instance, "fmi3GetNumberOfEventIndicators", ANY_INSTANCE_STATE, Interface::Any);
    if comp.missing("fmi3GetNumberOfEventIndicators", "nEventIndicators", n) {
        return FMI_ERROR;
    }
    unsafe { *n = N_EVENT_INDICATORS };
    FMI_OK
}

#[no_mangle]
pub extern "C" fn fmi3GetNumberOfContinuousStates(instance: Instance, n: *mut usize) -> FmiStatus {
    let comp = begin!(instance, "fmi3GetNumberOfContinuousStates", ANY_INSTANCE_STATE, Interface::Any);
    if comp.missing("fmi3GetNumberOfContinuousStates", "nContinuousStates", n) {
        return FMI_ERROR;
    }
    unsafe { *n = N_STATES };
    FMI_OK
}

// ---- Co-Simulation ----

#[no_mangle]
pub extern "C" fn fmi3EnterStepMode(instance: Instance) -> FmiStatus {
    // only reachable from Event Mode, which this FMU's Co-Simulation does not have
    let comp = begin!(instance, "fmi3EnterStepMode", EVENT_MODE, Interface::CoSimulation);
    comp.state = STEP_MODE;
    FMI_OK
}

#[no_mangle]
pub extern "C" fn fmi3DoStep(instance: Instance, current_communication_point: f64, communication_step_size: f64,
                             _no_set_state_prior: bool, event_handling_needed: *mut bool, terminate_simulation: *mut bool,
                             early_return: *mut bool, last_successful_time: *mut f64) -> FmiStatus {
    let function = "fmi3DoStep";
    let comp = begin!(instance, function, STEP_MODE, Interface::CoSimulation);
    if comp.missing(function, "eventHandlingNeeded", event_handling_needed)
        || comp.missing(function, "terminateSimulation", terminate_simulation)
        || comp.missing(function, "earlyReturn", early_return)
        || comp.missing(function, "lastSuccessfulTime", last_successful_time) {
        return FMI_ERROR;
    }
    let t = comp.simulation.model.data.time;
    if !(communication_step_size > 0.0) {
        comp.error(&format!("communicationStepSize must be > 0, was {}", format_g(communication_step_size, 6)));
        return FMI_ERROR;
    }
    if (current_communication_point - t).abs() > 1e-9 * comp.simulation.time_scale.max(t.abs()) {
        comp.error(&format!("currentCommunicationPoint = {}, but the FMU is at t = {}",
            format_g(current_communication_point, 17), format_g(t, 17)));
        return FMI_ERROR;
    }
    let t_end = current_communication_point + communication_step_size;
    if comp.stop_time_defined && t_end > comp.stop_time * (1.0 + 1e-12) + 1e-12 {
        comp.error(&format!("step to t = {} goes beyond stopTime = {}", format_g(t_end, 17),
            format_g(comp.stop_time, 17)));
        return FMI_ERROR;
    }
    let mut outcome = StepOutcome::default();
    let status = comp.simulation.do_step(current_communication_point, communication_step_size, &mut outcome);
    unsafe {
        *event_handling_needed = false;
        *terminate_simulation = outcome.terminate;
        *early_return = outcome.early_return;
        *last_successful_time = outcome.last_successful_time;
    }
    comp.status(status)
}
