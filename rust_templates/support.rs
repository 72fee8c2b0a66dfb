// support.rs -- what generated model code uses besides its own slots: statuses, logging,
// Modelica's built-in functions with Modelica's semantics, relations with hysteresis,
// sample instants and printf's %g. The semantics follow fmu_templates/model_support.h (and
// through it compiler/symbolic/evaluate.py), so that the Rust and the C runtime agree.

/// Return from the calling function if `call` yields an error (Discard or worse).
macro_rules! check {
    ($call:expr) => {{
        let status: $crate::support::Status = $call;
        if status > $crate::support::Status::Warning {
            return status;
        }
    }};
}

/// The value of a call returning Result<T, Status>, or return its error status.
macro_rules! take {
    ($call:expr) => {
        match $call {
            Ok(value) => value,
            Err(status) => return status,
        }
    };
}

/// Ordered by severity, as fmi3Status is, so the worst of two is their maximum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    Ok = 0,
    Warning = 1,
    Discard = 2,
    Error = 3,
    Fatal = 4,
}

/// Where messages go: the FMU's logger, or standard error for the program. `category` is an
/// FMI log category ("logEvents", "logStatusError", ...).
pub type LogSink = Box<dyn Fn(Status, &str, &str)>;

/// What model_event_update reports back (fmu_templates/model.h, EventUpdate).
#[derive(Clone, Copy, Debug, Default)]
pub struct EventUpdate {
    pub discrete_states_need_update: bool,
    pub terminate_simulation: bool,
    pub state_values_changed: bool,
    pub next_event_time_defined: bool,
    pub next_event_time: f64,
}

// ---- Modelica built-ins ----

/// div(x, y): the quotient truncated toward zero; mod: x - floor(x/y)*y; rem: x - div(x,y)*y
pub fn modelica_div(x: f64, y: f64) -> f64 {
    (x / y).trunc()
}
pub fn modelica_mod(x: f64, y: f64) -> f64 {
    x - (x / y).floor() * y
}
pub fn modelica_rem(x: f64, y: f64) -> f64 {
    x - (x / y).trunc() * y
}
pub fn modelica_sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}
pub fn modelica_integer(x: f64) -> i32 {
    x.floor() as i32
}
pub fn integer_div(x: i32, y: i32) -> i32 {
    x.wrapping_div(y)
}
pub fn integer_mod(x: i32, y: i32) -> i32 {
    let r = x.wrapping_rem(y);
    if r != 0 && ((r < 0) != (y < 0)) {
        r + y
    } else {
        r
    }
}
pub fn integer_rem(x: i32, y: i32) -> i32 {
    x.wrapping_rem(y)
}
pub fn integer_sign(x: i32) -> i32 {
    x.signum()
}
pub fn integer_abs(x: i32) -> i32 {
    x.wrapping_abs()
}
pub fn integer_min(x: i32, y: i32) -> i32 {
    x.min(y)
}
pub fn integer_max(x: i32, y: i32) -> i32 {
    x.max(y)
}
/// Integer ^ Integer with a non-negative exponent
pub fn integer_power(base: i32, exponent: i32) -> i32 {
    let mut result: i32 = 1;
    for _ in 0..exponent.max(0) {
        result = result.wrapping_mul(base);
    }
    result
}

// ---- relations that fire events (the hysteresis rule of model.h) ----

/// Relations switch with a small hysteresis band EVENT_HYSTERESIS * scale (model.h).
pub const EVENT_HYSTERESIS: f64 = 1e-10;
/// An event iteration switches relations and evaluates again until none switches, at most
/// this often.
pub const RELATION_PASSES: usize = 20;

/// The indicator of relation d > 0 with latch `latch` and band `eps`.
pub fn relation_indicator(latch: bool, d: f64, eps: f64) -> f64 {
    if latch {
        d + eps
    } else {
        d - eps
    }
}
/// The latch of relation d > 0 after an event.
pub fn relation_update(latch: bool, d: f64, eps: f64) -> bool {
    if latch {
        d > -eps
    } else {
        d >= eps
    }
}

// ---- sample(start, interval): ticks at start + k interval, k = 0, 1, ... ----

/// relative tolerance within which a time is a tick
const SAMPLE_TOLERANCE: f64 = 1e-9;

/// Within SAMPLE_TOLERANCE relative to max(scale, |a|, |b|): a sample's scale is its interval
/// up to 1 s, so that ticks picoseconds apart stay apart.
fn same_instant(a: f64, b: f64, scale: f64) -> bool {
    (a - b).abs() <= SAMPLE_TOLERANCE * scale.max(a.abs().max(b.abs()))
}

/// The number k of the tick t is, or -1.
fn tick_number(t: f64, start: f64, interval: f64) -> f64 {
    let k = ((t - start) / interval).round();
    if k >= 0.0 && same_instant(start + k * interval, t, interval.min(1.0)) {
        k
    } else {
        -1.0
    }
}

/// Whether a sample fires at t: at a tick other than the one it fired last (`fired`).
pub fn sample_fires(t: f64, start: f64, interval: f64, fired: f64) -> bool {
    let k = tick_number(t, start, interval);
    k >= 0.0 && k != fired
}

/// The tick a sample has fired last after an event iteration at t settled.
pub fn sample_fired(t: f64, start: f64, interval: f64, fired: f64) -> f64 {
    let k = tick_number(t, start, interval);
    if k >= 0.0 {
        k
    } else {
        fired
    }
}

/// The first tick after t (a tick within the tolerance of t counts as passed).
pub fn sample_next(t: f64, start: f64, interval: f64) -> f64 {
    let k = (((t - start) / interval).floor() + 1.0).max(0.0);
    let tick = start + k * interval;
    if same_instant(tick, t, interval.min(1.0)) {
        start + (k + 1.0) * interval
    } else {
        tick
    }
}

/// `next`, or `instant` where that comes earlier and after t (within the tolerance: passed).
pub fn instant_next(t: f64, instant: f64, next: f64) -> f64 {
    if instant > t && !same_instant(instant, t, 0.0) && instant < next {
        instant
    } else {
        next
    }
}

// ---- printf's %g, for messages and result files ----

/// `x` as C's printf("%.{precision}g") writes it.
pub fn format_g(x: f64, precision: usize) -> String {
    if x.is_nan() {
        return if x.is_sign_negative() { "-nan".to_string() } else { "nan".to_string() };
    }
    if x.is_infinite() {
        return if x < 0.0 { "-inf".to_string() } else { "inf".to_string() };
    }
    let precision = precision.max(1);
    let scientific = format!("{:.*e}", precision - 1, x);
    let (mantissa, exponent) = scientific.split_at(scientific.find('e').unwrap_or(scientific.len()));
    let exponent: i32 = exponent[1..].parse().unwrap_or(0);
    if exponent < -4 || exponent >= precision as i32 {
        let mantissa = trim_fraction(mantissa);
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{}e{}{:02}", mantissa, sign, exponent.abs())
    } else {
        let decimals = (precision as i32 - 1 - exponent).max(0) as usize;
        trim_fraction(&format!("{:.*}", decimals, x)).to_string()
    }
}

/// "1.2500" -> "1.25", "3.000" -> "3": %g drops trailing zeros of the fraction.
fn trim_fraction(text: &str) -> &str {
    if !text.contains('.') {
        return text;
    }
    text.trim_end_matches('0').trim_end_matches('.')
}

/// A Boolean as Modelica's String() writes it.
pub fn format_boolean(b: bool) -> &'static str {
    if b {
        "true"
    } else {
        "false"
    }
}

/// `text` padded to `width` characters (on the right when `left`), as %-Ns and %Ns do.
pub fn pad(text: &str, width: usize, left: bool) -> String {
    if left {
        format!("{:<width$}", text, width = width)
    } else {
        format!("{:>width$}", text, width = width)
    }
}
