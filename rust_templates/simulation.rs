// simulation.rs -- one model instance as it runs, whatever drives it (the FMI functions or
// the program's main): evaluation on demand, the event iteration, state events located on
// Radau's dense output, and the communication step of Co-Simulation with time and state
// events inside it. The same rules as fmu_templates/instance.c, events.c, crossing.c and
// cosimulation.c: an event fires where an indicator changes between z > 0 and z <= 0; the
// integrator keeps its step size, Jacobian and dense output across communication points and
// restarts only after an event.

use crate::data::ModelData;
use crate::model::*;
use crate::radau::{OdeSystem, Radau, RadauStatus};
use crate::support::*;

/// Event times are resolved to this fraction of max(1, |t|).
pub const EVENT_TIME_RESOLUTION: f64 = 1e-13;
const MAX_LOCATION_ITERATIONS: usize = 200;
/// Events closer together than CHATTER_INTERVAL * max(time_scale, |t|) are rapid; more than
/// MAX_RAPID_EVENTS in a row is chattering, which no step size resolves.
const CHATTER_INTERVAL: f64 = 1e-9;
const MAX_RAPID_EVENTS: usize = 20;
const MAX_EVENT_ITERATIONS: usize = 100;

/// Events that no indicator announces.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum EventCause {
    Indicator(usize),
    Time,
    Input,
}

fn event_name(cause: EventCause) -> &'static str {
    match cause {
        EventCause::Time => "a time event",
        EventCause::Input => "an input event",
        EventCause::Indicator(k) if k < N_EVENT_INDICATORS => EVENT_INDICATOR_NAMES[k],
        EventCause::Indicator(_) => "an event",
    }
}

/// The model as the integrator sees it: its data and the guesses of its loops.
pub struct Evaluator {
    pub data: Box<ModelData>,
    /// the values of GUESS_SLOT at the last accepted point
    pub guesses: [f64; N_GUESSES],
}

impl Evaluator {
    pub fn set_states(&mut self, x: &[f64]) {
        for k in 0..N_STATES {
            self.data.r[STATE_SLOT[k]] = x[k];
        }
    }

    pub fn get_states(&self, x: &mut [f64]) {
        for k in 0..N_STATES {
            x[k] = self.data.r[STATE_SLOT[k]];
        }
    }

    /// The current point is accepted: its loop solutions are the guesses from now on.
    pub fn keep_guesses(&mut self) {
        for k in 0..N_GUESSES {
            self.guesses[k] = self.data.r[GUESS_SLOT[k]];
        }
    }

    /// model_derivatives, its loops started from the guesses of the last accepted point.
    pub fn derivatives(&mut self) -> Status {
        for k in 0..N_GUESSES {
            self.data.r[GUESS_SLOT[k]] = self.guesses[k];
        }
        model_derivatives(&mut self.data)
    }
}

fn status_to_radau(status: Status) -> i32 {
    if status <= Status::Warning {
        0
    } else if status == Status::Discard {
        1
    } else {
        -1
    }
}

// The model's equations stay out of line: inlined into Radau::step they crowd the
// integrator's registers (tools/bench_backends.py: about 15% of its time).
impl OdeSystem for Evaluator {
    #[inline(never)]
    fn rhs(&mut self, t: f64, x: &[f64], dx: &mut [f64]) -> i32 {
        self.data.time = t;
        self.set_states(x);
        let status = self.derivatives();
        for k in 0..N_STATES {
            dx[k] = self.data.r[DERIVATIVE_SLOT[k]];
        }
        status_to_radau(status)
    }

    #[inline(never)]
    fn jacobian(&mut self, t: f64, x: &[f64], _fx: &[f64], values: &mut [f64]) -> i32 {
        self.data.time = t;
        self.set_states(x);
        let mut status = self.derivatives();
        if status <= Status::Warning {
            status = model_jacobian(&mut self.data, values);
        }
        status_to_radau(status)
    }
}

/// True if some indicator changed its domain (z > 0 versus z <= 0) from a to b; the first
/// such one.
pub fn domain_changed(a: &[f64], b: &[f64]) -> Option<usize> {
    a.iter().zip(b).position(|(a, b)| (*a > 0.0) != (*b > 0.0))
}

/// Next trial time: the earliest regula-falsi root among the indicators that change in the
/// bracket; alpha weights the low end (Illinois).
fn trial_time(t_lo: f64, z_lo: &[f64], t_hi: f64, z_hi: &[f64], alpha: f64) -> f64 {
    let mut earliest = t_hi;
    for k in 0..z_lo.len() {
        if (z_lo[k] > 0.0) == (z_hi[k] > 0.0) {
            continue;
        }
        let denominator = z_hi[k] - alpha * z_lo[k];
        let fraction = if denominator != 0.0 { z_hi[k] / denominator } else { 0.5 };
        let candidate = t_hi - (t_hi - t_lo) * fraction;
        if candidate < earliest {
            earliest = candidate;
        }
    }
    earliest
}

/// Guards against chattering events (see CHATTER_INTERVAL).
#[derive(Clone, Copy, Default)]
pub struct ChatterGuard {
    pub rapid: usize,
    pub last: f64,
}

impl ChatterGuard {
    /// Register an event at t; false when the events chatter.
    fn register(&mut self, t: f64, time_scale: f64) -> bool {
        if t - self.last <= CHATTER_INTERVAL * time_scale.max(t.abs()) {
            self.rapid += 1;
        } else {
            self.rapid = 0;
        }
        self.last = t;
        self.rapid <= MAX_RAPID_EVENTS
    }
}

/// The step the integrator just took.
struct Advance {
    t_old: f64,
    t_new: f64,
}

/// What a communication step ended with.
#[derive(Clone, Copy, Default)]
pub struct StepOutcome {
    pub terminate: bool,
    pub early_return: bool,
    pub last_successful_time: f64,
}

/// Times compare relative to max(time_scale, |t|): 1 s, or the simulated span where that is
/// shorter, so that a simulation of picoseconds resolves its own events instead of seeing
/// them all within one resolution of t = 0 (the C runtime's crossing.h).
pub fn time_scale_of(start_time: f64, stop_time: f64, stop_time_defined: bool) -> f64 {
    let span = stop_time - start_time;
    if stop_time_defined && span > 0.0 && span < 1.0 { span } else { 1.0 }
}

pub struct Simulation {
    pub model: Evaluator,
    /// computed values are stale: recompute before the next read
    pub values_dirty: bool,
    /// derivatives are current but outputs not yet
    pub outputs_pending: bool,
    /// the initialization system computes values (FMI's Initialization Mode)
    pub initializing: bool,
    pub start_time: f64,
    /// times compare relative to max(time_scale, |t|) (time_scale_of)
    pub time_scale: f64,
    pub tolerance: f64,
    /// indicators where the last step ended
    pub z: [f64; N_EVENT_INDICATORS],
    pub next_event_time_defined: bool,
    pub next_event_time: f64,
    pub chatter: ChatterGuard,
    pub early_return_allowed: bool,
    /// radau holds the current states; false forces a restart
    pub integrator_ready: bool,
    /// since the integrator last evaluated f
    pub inputs_changed: bool,
    /// a discrete input changed: an event at the next step
    pub discrete_inputs_changed: bool,
    /// the model called terminate(): the next step reports it
    pub terminate_requested: bool,
    pub radau: Option<Radau>,
    radau_tolerance: f64,
    pub x: [f64; N_STATES],
}

impl Simulation {
    pub fn new(sink: LogSink) -> Simulation {
        let mut simulation = Simulation {
            model: Evaluator { data: ModelData::new(sink), guesses: [0.0; N_GUESSES] },
            values_dirty: true,
            outputs_pending: false,
            initializing: false,
            start_time: 0.0,
            time_scale: 1.0,
            tolerance: DEFAULT_TOLERANCE,
            z: [0.0; N_EVENT_INDICATORS],
            next_event_time_defined: false,
            next_event_time: 0.0,
            chatter: ChatterGuard::default(),
            early_return_allowed: false,
            integrator_ready: false,
            inputs_changed: false,
            discrete_inputs_changed: false,
            terminate_requested: false,
            radau: None,
            radau_tolerance: 0.0,
            x: [0.0; N_STATES],
        };
        simulation.model.keep_guesses();
        simulation
    }

    /// Back to the state after instantiation.
    pub fn reset(&mut self) {
        self.release_integrator();
        self.start_time = 0.0;
        self.time_scale = 1.0;
        self.tolerance = DEFAULT_TOLERANCE;
        self.next_event_time_defined = false;
        self.chatter = ChatterGuard::default();
        self.inputs_changed = false;
        self.discrete_inputs_changed = false;
        self.terminate_requested = false;
        self.initializing = false;
        self.model.data.reset();
        self.model.keep_guesses();
        self.values_dirty = true;
    }

    pub fn log(&self, status: Status, category: &str, message: &str) {
        self.model.data.log(status, category, message);
    }

    /// Initialization Mode at `start` with relative tolerance `tolerance` (FMI's
    /// fmi3EnterInitializationMode).
    pub fn enter_initialization(&mut self, start: f64, tolerance: f64) {
        self.tolerance = tolerance;
        self.start_time = start;
        let data = &mut self.model.data;
        data.time = start;
        data.initial_phase = true;
        data.event_mode = true;
        self.values_dirty = true;
        self.initializing = true;
    }

    /// The initialization system, leaving Initialization Mode (initial() stays true until the
    /// event iteration that follows).
    pub fn exit_initialization(&mut self) -> Status {
        let status = model_initialize(&mut self.model.data);
        if status <= Status::Warning {
            self.values_dirty = false;
        }
        self.initializing = false;
        status
    }

    /// Initialization and the initial event iteration, ready for Co-Simulation steps.
    pub fn initialize(&mut self, start: f64, tolerance: f64) -> Status {
        self.enter_initialization(start, tolerance);
        let status = self.exit_initialization();
        if status > Status::Warning {
            return status;
        }
        self.model.data.initial_phase = false;
        status.max(self.enter_step_mode())
    }

    // ------------------------------------------------------------------ evaluation

    /// Recompute stale values before a read: everything, or (outputs false) what the
    /// derivatives need. While initializing this runs the initialization.
    pub fn refresh(&mut self, outputs: bool) -> Status {
        let mut status = Status::Ok;
        if self.values_dirty {
            status = if self.initializing {
                model_initialize(&mut self.model.data)
            } else {
                self.model.derivatives()
            };
            if status > Status::Warning {
                return status;
            }
            self.values_dirty = false;
            self.outputs_pending = !self.initializing;
        }
        if outputs && self.outputs_pending {
            let mut computed = model_outputs(&mut self.model.data);
            if computed <= Status::Warning && N_EVENT_INDICATORS > 0 {
                let mut z = [0.0; N_EVENT_INDICATORS];
                let indicators = model_event_indicators(&mut self.model.data, &mut z);
                for k in 0..N_EVENT_INDICATORS {
                    self.model.data.r[EVENT_INDICATOR_SLOT[k]] = z[k];
                }
                computed = computed.max(indicators);
            }
            if computed > Status::Warning {
                return computed;
            }
            self.outputs_pending = false;
            status = status.max(computed);
        }
        status
    }

    // ---------------------------------------------------------------------- events

    /// One iteration: pre := current, then the model's event update.
    pub fn event_update_once(&mut self, update: &mut EventUpdate) -> Status {
        self.model.data.save_pre();
        *update = EventUpdate::default();
        let status = model_event_update(&mut self.model.data, update);
        if status <= Status::Warning {
            self.model.keep_guesses(); // the point is accepted
        }
        self.next_event_time_defined = update.next_event_time_defined;
        self.next_event_time = update.next_event_time;
        self.values_dirty = true;
        status
    }

    /// Event iteration at the current time until discrete values settle; returns (status,
    /// terminate, states changed).
    pub fn event_iterate(&mut self) -> (Status, bool, bool) {
        let mut states_changed = false;
        self.model.data.event_mode = true;
        for _ in 0..MAX_EVENT_ITERATIONS {
            let mut update = EventUpdate::default();
            let status = self.event_update_once(&mut update);
            if status > Status::Warning {
                return (status, false, states_changed);
            }
            states_changed = states_changed || update.state_values_changed;
            if update.terminate_simulation {
                self.log(Status::Ok, "logEvents", &format!("terminate() at t = {}", format_g(self.model.data.time, 17)));
                self.model.data.event_mode = false;
                return (Status::Ok, true, states_changed);
            }
            if !update.discrete_states_need_update {
                self.model.data.event_mode = false;
                self.model.data.initial_phase = false;
                return (Status::Ok, false, states_changed);
            }
        }
        self.log(Status::Error, "logStatusError", &format!(
            "event iteration at t = {} did not settle after {} iterations: discrete variables keep changing",
            format_g(self.model.data.time, 17), MAX_EVENT_ITERATIONS));
        (Status::Error, false, states_changed)
    }

    /// The indicators at (t, x) into z.
    pub fn indicators_at(&mut self, t: f64, x: &[f64], z: &mut [f64]) -> Status {
        self.model.data.time = t;
        self.model.set_states(x);
        self.values_dirty = true;
        let status = self.model.derivatives();
        if status > Status::Warning {
            return status;
        }
        status.max(model_event_indicators(&mut self.model.data, z))
    }

    /// The indicators at time t on the integrator's dense output.
    fn indicators_on_dense_output(&mut self, t: f64, z: &mut [f64]) -> Status {
        let mut x = [0.0; N_STATES];
        if let Some(radau) = &self.radau {
            radau.dense(t, &mut x);
        }
        self.indicators_at(t, &x, z)
    }

    /// The earliest domain change between (t_lo, z_lo) and (t_hi, z_hi), which differ, by the
    /// Illinois variant of regula falsi: (time, indicator that changed there); the model then
    /// holds the indicators' point and self.x the dense-output state there.
    fn locate_event(&mut self, mut t_lo: f64, z_lo_in: &[f64], mut t_hi: f64, z_hi_in: &[f64]) -> Result<(f64, usize), Status> {
        let mut z_lo = [0.0; N_EVENT_INDICATORS];
        let mut z_hi = [0.0; N_EVENT_INDICATORS];
        let mut z_mid = [0.0; N_EVENT_INDICATORS];
        z_lo.copy_from_slice(z_lo_in);
        z_hi.copy_from_slice(z_hi_in);
        let mut alpha = 1.0;
        let mut last_side = 0; // -1: the low end moved last, +1: the high end
        let resolution = EVENT_TIME_RESOLUTION * self.time_scale.max(t_hi.abs());
        let mut iteration = 0;
        while iteration < MAX_LOCATION_ITERATIONS && t_hi - t_lo > resolution {
            let mut t_mid = trial_time(t_lo, &z_lo, t_hi, &z_hi, alpha);
            // stay strictly inside the bracket so that it always shrinks
            let margin = 0.5 * resolution;
            if t_mid <= t_lo + margin {
                t_mid = t_lo + margin;
            }
            if t_mid >= t_hi - margin {
                t_mid = t_hi - margin;
            }
            let status = self.indicators_on_dense_output(t_mid, &mut z_mid);
            if status > Status::Warning {
                return Err(Status::Error);
            }
            if domain_changed(&z_lo, &z_mid).is_some() {
                t_hi = t_mid;
                z_hi = z_mid;
                alpha = if last_side == 1 { 0.5 * alpha } else { 1.0 };
                last_side = 1;
            } else {
                t_lo = t_mid;
                z_lo = z_mid;
                alpha = if last_side == -1 { 2.0 * alpha } else { 1.0 };
                last_side = -1;
            }
            iteration += 1;
        }
        if let Some(radau) = &self.radau {
            radau.dense(t_hi, &mut self.x);
        }
        Ok((t_hi, domain_changed(&z_lo, &z_hi).unwrap_or(0)))
    }

    fn chattering_guard(&mut self, t: f64, cause: EventCause) -> bool {
        if self.chatter.register(t, self.time_scale) {
            return true;
        }
        self.log(Status::Error, "logStatusError", &format!(
            "chattering at t = {}: {} fired {} times in a row, each within {} s of the last",
            format_g(t, 17), event_name(cause), MAX_RAPID_EVENTS + 1, format_g(CHATTER_INTERVAL * self.time_scale.max(t.abs()), 6)));
        false
    }

    // ----------------------------------------------------------------- integrator

    fn allocate_integrator(&mut self) {
        if self.radau.is_some() && self.radau_tolerance == self.tolerance {
            return;
        }
        let rtol = [self.tolerance; N_STATES];
        let mut atol = [0.0; N_STATES];
        for k in 0..N_STATES {
            atol[k] = self.tolerance * STATE_NOMINAL[k];
        }
        let pattern = (&JACOBIAN_COLUMN_START[..], &JACOBIAN_ROWS[..]);
        self.radau = Some(Radau::new(N_STATES, Some(pattern), HAS_JACOBIAN, &rtol, &atol));
        self.radau_tolerance = self.tolerance;
        self.integrator_ready = false;
    }

    pub fn release_integrator(&mut self) {
        self.radau = None;
        self.integrator_ready = false;
    }

    /// Allocate the integrator (no restart), for an FMU state that brings its own.
    pub fn prepare_integrator(&mut self) {
        if N_STATES > 0 {
            self.allocate_integrator();
        }
    }

    fn integration_failure(&self, status: RadauStatus) -> Status {
        let t = self.radau.as_ref().map_or(self.model.data.time, |radau| radau.mem.t);
        self.log(Status::Error, "logStatusError", &format!("integration failed at t = {}: {}", format_g(t, 17), status.text()));
        Status::Error
    }

    /// Start the integrator at the model's current time and states.
    fn restart_integrator(&mut self) -> Status {
        self.inputs_changed = false;
        self.discrete_inputs_changed = false;
        if N_STATES > 0 {
            self.allocate_integrator();
            self.model.get_states(&mut self.x);
            let t = self.model.data.time;
            let x = self.x;
            let radau = self.radau.as_mut().expect("allocated");
            let result = radau.reset(&mut self.model, t, &x, 0.0);
            // the integrator evaluates the model elsewhere to choose its first step
            self.model.data.time = t;
            self.model.set_states(&x);
            self.values_dirty = true;
            if result != RadauStatus::Ok {
                return self.integration_failure(result);
            }
        }
        self.integrator_ready = true;
        Status::Ok
    }

    /// An accepted step: the loops solved at its end start the next evaluations, and the
    /// continuous-time asserts hold there.
    fn accept_step(&mut self) -> Status {
        if N_GUESSES == 0 && !HAS_ASSERTS {
            return Status::Ok;
        }
        self.values_dirty = true;
        let status = self.refresh(HAS_ASSERTS);
        if status <= Status::Warning {
            self.model.keep_guesses();
        }
        status
    }

    /// Take one integrator step towards t_stop; without states, or when t_stop is within the
    /// time resolution, jump.
    fn advance(&mut self, t_stop: f64) -> Result<Advance, Status> {
        let t = self.model.data.time;
        if N_STATES == 0 || t_stop - t <= EVENT_TIME_RESOLUTION * self.time_scale.max(t_stop.abs()) {
            if let Some(radau) = self.radau.as_mut() {
                radau.shift_time(t_stop);
            }
            return Ok(Advance { t_old: t, t_new: t_stop });
        }
        let radau = self.radau.as_mut().expect("allocated");
        let result = radau.step(&mut self.model, t_stop);
        if result != RadauStatus::Ok {
            return Err(self.integration_failure(result));
        }
        let radau = self.radau.as_ref().expect("allocated");
        self.x.copy_from_slice(&radau.x);
        Ok(Advance { t_old: radau.step_start(), t_new: radau.mem.t })
    }

    /// Handle an event at the model's current time and states, then restart the integrator.
    fn handle_event(&mut self, cause: EventCause, terminate: &mut bool) -> Status {
        let t = self.model.data.time;
        if !self.chattering_guard(t, cause) {
            return Status::Error;
        }
        self.log(Status::Ok, "logEvents", &format!("event at t = {}: {}", format_g(t, 17), event_name(cause)));
        let (status, terminated, _) = self.event_iterate();
        *terminate = terminated;
        if status > Status::Warning || terminated {
            return status;
        }
        let status = self.restart_integrator();
        if status > Status::Warning {
            return status;
        }
        self.model.get_states(&mut self.x);
        if N_EVENT_INDICATORS > 0 {
            let x = self.x;
            let mut z = [0.0; N_EVENT_INDICATORS];
            let status = self.indicators_at(t, &x, &mut z);
            self.z = z;
            return status;
        }
        Status::Ok
    }

    /// After a step: look for state events in it and for a time event at its end; returns
    /// (status, whether an event was handled: the model then stands at the event time).
    fn check_events(&mut self, step: &Advance, time_event: bool, terminate: &mut bool) -> (Status, bool) {
        if N_EVENT_INDICATORS > 0 {
            let mut z_new = [0.0; N_EVENT_INDICATORS];
            let x = self.x;
            let status = self.indicators_at(step.t_new, &x, &mut z_new);
            if status > Status::Warning {
                return (status, false);
            }
            if domain_changed(&self.z, &z_new).is_some() {
                let z_old = self.z;
                let (t_event, indicator) = match self.locate_event(step.t_old, &z_old, step.t_new, &z_new) {
                    Ok(found) => found,
                    Err(status) => return (status, false),
                };
                self.model.data.time = t_event;
                let x = self.x;
                self.model.set_states(&x);
                self.values_dirty = true;
                return (self.handle_event(EventCause::Indicator(indicator), terminate), true);
            }
            self.z = z_new;
        }
        self.model.data.time = step.t_new;
        let x = self.x;
        self.model.set_states(&x);
        if !time_event {
            return (Status::Ok, false);
        }
        (self.handle_event(EventCause::Time, terminate), true)
    }

    fn log_statistics(&self, t_start: f64) {
        if let Some(radau) = &self.radau {
            let c = &radau.mem.count;
            self.log(Status::Ok, "logIntegrator", &format!(
                "doStep from t = {} to {}: {} steps ({} accepted, {} rejected), {} f, {} Jacobians, {} LU, {} solves in total ({} LU)",
                format_g(t_start, 17), format_g(self.model.data.time, 17), c.steps, c.accepted, c.rejected, c.rhs_calls,
                c.jacobians, c.lu, c.solves, if radau.sparse() { "sparse" } else { "dense" }));
        }
    }

    /// At a communication point: new inputs refresh f, and fire an event at once where they
    /// flip a relation or change a discrete variable.
    fn begin_step(&mut self, terminate: &mut bool) -> Status {
        if !self.integrator_ready {
            let status = self.restart_integrator();
            if status > Status::Warning {
                return status;
            }
        }
        if !self.inputs_changed {
            return Status::Ok;
        }
        let mut input_event = self.discrete_inputs_changed;
        self.inputs_changed = false;
        self.discrete_inputs_changed = false;
        if N_EVENT_INDICATORS > 0 {
            let mut z_probe = [0.0; N_EVENT_INDICATORS];
            let x = self.x;
            let t = self.model.data.time;
            let status = self.indicators_at(t, &x, &mut z_probe);
            if status > Status::Warning {
                return status;
            }
            if domain_changed(&self.z, &z_probe).is_some() {
                input_event = true;
            } else {
                self.z = z_probe;
            }
        }
        if input_event {
            return self.handle_event(EventCause::Input, terminate);
        }
        if N_STATES == 0 {
            return Status::Ok;
        }
        let radau = self.radau.as_mut().expect("allocated");
        let result = radau.rhs_changed(&mut self.model);
        if result == RadauStatus::Ok {
            Status::Ok
        } else {
            self.integration_failure(result)
        }
    }

    /// After the initialization: the initial event iteration, then the integrator starts.
    pub fn enter_step_mode(&mut self) -> Status {
        let (status, terminate, _) = self.event_iterate();
        if status > Status::Warning {
            return status;
        }
        self.terminate_requested = terminate;
        let mut status = self.restart_integrator();
        if status <= Status::Warning && N_EVENT_INDICATORS > 0 {
            let t = self.model.data.time;
            let x = self.x;
            let mut z = [0.0; N_EVENT_INDICATORS];
            status = self.indicators_at(t, &x, &mut z);
            self.z = z;
        }
        self.values_dirty = true;
        status
    }

    /// Integrate from t_start (the current time) over h, handling events on the way.
    pub fn do_step(&mut self, t_start: f64, h: f64, outcome: &mut StepOutcome) -> Status {
        let t_end = t_start + h;
        *outcome = StepOutcome { terminate: false, early_return: false, last_successful_time: t_start };
        if self.terminate_requested {
            outcome.terminate = true;
            return Status::Ok;
        }
        // a time event a rounding error after t_end belongs to this step, at its own time, so
        // that the model's `time >= T` comparisons see exactly the T they asked for
        let resolution = EVENT_TIME_RESOLUTION * self.time_scale.max(t_end.abs());
        let mut terminate = false;
        let mut status = self.begin_step(&mut terminate);
        while status <= Status::Warning && !terminate && self.model.data.time < t_end {
            let mut t_stop = t_end;
            let mut time_event = false;
            if self.next_event_time_defined && self.next_event_time <= t_end + resolution {
                t_stop = self.next_event_time.max(self.model.data.time);
                time_event = true;
            }
            let step = if t_stop > self.model.data.time {
                match self.advance(t_stop) {
                    Ok(step) => step,
                    Err(failure) => {
                        status = failure;
                        break;
                    }
                }
            } else {
                Advance { t_old: self.model.data.time, t_new: self.model.data.time }
            };
            let reached_stop = step.t_new >= t_stop;
            let (checked, event) = self.check_events(&step, time_event && reached_stop, &mut terminate);
            status = checked;
            if status > Status::Warning || terminate {
                break;
            }
            if !event {
                status = self.accept_step(); // else the event iteration accepted it
            }
            if status > Status::Warning {
                break;
            }
            if event && self.early_return_allowed && self.model.data.time < t_end {
                outcome.early_return = true;
                break;
            }
        }
        outcome.terminate = terminate;
        outcome.last_successful_time = self.model.data.time;
        self.terminate_requested = terminate;
        self.values_dirty = true;
        self.log_statistics(t_start);
        status
    }
}
