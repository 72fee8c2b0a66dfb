// program.rs -- the model as a program: `./model --stop 10 --step 0.01 --param k=2 -o out.csv`
// runs it as `cosim run model.mo` does (the same Co-Simulation steps, the same columns and
// number format) and writes the result as CSV (standard output without -o).

use crate::data::{Causality, VariableType};
use crate::model::*;
use crate::simulation::{time_scale_of, Simulation, StepOutcome};
use crate::support::*;
use std::io::Write;

/// Communication steps when neither the command line nor the model gives a step size, and
/// the simulated time when nothing gives a stop time (as cosim's master).
const DEFAULT_STEPS: f64 = 1000.0;
const DEFAULT_STOP_TIME: f64 = 1.0;
const DEFAULT_RUN_TOLERANCE: f64 = 1e-6;

const USAGE: &str = "usage: MODEL [--start T] [--stop T] [--step H] [--tolerance RTOL] \
[--param NAME=VALUE]... [-o OUT.csv] [--log]";

struct Options {
    start: f64,
    stop: Option<f64>,
    step: Option<f64>,
    tolerance: f64,
    parameters: Vec<(String, String)>,
    output: Option<String>,
    log_all: bool,
}

fn number(flag: &str, text: Option<String>) -> Result<f64, String> {
    let text = text.ok_or_else(|| format!("{} needs a value", flag))?;
    text.parse::<f64>().map_err(|_| format!("{} {}: not a number", flag, text))
}

fn parse_options(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        start: EXPERIMENT_START,
        stop: EXPERIMENT_STOP,
        step: EXPERIMENT_STEP,
        tolerance: EXPERIMENT_TOLERANCE.unwrap_or(DEFAULT_RUN_TOLERANCE),
        parameters: Vec::new(),
        output: None,
        log_all: false,
    };
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--start" => options.start = number(&flag, args.next())?,
            "--stop" => options.stop = Some(number(&flag, args.next())?),
            "--step" => options.step = Some(number(&flag, args.next())?),
            "--tolerance" => options.tolerance = number(&flag, args.next())?,
            "--param" => {
                let text = args.next().ok_or("--param needs NAME=VALUE")?;
                let (name, value) = text.split_once('=').ok_or_else(|| format!("--param {}: expected NAME=VALUE", text))?;
                options.parameters.push((name.trim().to_string(), value.trim().to_string()));
            }
            "-o" | "--output" => options.output = Some(args.next().ok_or("-o needs a file name")?),
            "--log" => options.log_all = true,
            "-h" | "--help" => return Err(USAGE.to_string()),
            _ => return Err(format!("unknown argument '{}'\n{}", flag, USAGE)),
        }
    }
    Ok(options)
}

/// Set a parameter (or input) by its name, with or without the component prefix.
fn set_parameter(simulation: &mut Simulation, name: &str, value: &str) -> Result<(), String> {
    let prefix = format!("{}.", MODEL_IDENTIFIER);
    let plain = name.strip_prefix(&prefix).unwrap_or(name);
    let info = VARIABLES.iter().skip(1).find(|v| v.name == plain)
        .ok_or_else(|| format!("--param {}: no variable of that name", name))?;
    if !matches!(info.causality, Causality::Parameter | Causality::Input) {
        return Err(format!("--param {}: {} is not a parameter or an input", name, plain));
    }
    let data = &mut simulation.model.data;
    let bad = || format!("--param {}={}: not a value of {}", name, value, plain);
    match info.kind {
        VariableType::Float64 => data.r[info.slot] = value.parse().map_err(|_| bad())?,
        VariableType::Int32 => data.i[info.slot] = value.parse().map_err(|_| bad())?,
        VariableType::Int64 => data.e[info.slot] = value.parse().map_err(|_| bad())?,
        VariableType::Boolean => {
            data.b[info.slot] = match value {
                "true" | "1" => true,
                "false" | "0" => false,
                _ => return Err(bad()),
            }
        }
    }
    Ok(())
}

/// The CSV cell of one result column (%.17g for Float64, as cosim's result files).
fn cell(simulation: &Simulation, vr: usize) -> String {
    let info = &VARIABLES[vr];
    let data = &simulation.model.data;
    match info.kind {
        VariableType::Float64 => format_g(if vr == 0 { data.time } else { data.r[info.slot] }, 17),
        VariableType::Int32 => data.i[info.slot].to_string(),
        VariableType::Int64 => data.e[info.slot].to_string(),
        VariableType::Boolean => (data.b[info.slot] as i32).to_string(),
    }
}

fn row(simulation: &mut Simulation, out: &mut dyn Write) -> Result<(), String> {
    if simulation.refresh(true) > Status::Warning {
        return Err(format!("evaluating the model at t = {} failed", format_g(simulation.model.data.time, 17)));
    }
    let mut line = format_g(simulation.model.data.time, 17);
    for &vr in RESULT_COLUMNS.iter() {
        line.push(',');
        line.push_str(&cell(simulation, vr));
    }
    writeln!(out, "{}", line).map_err(|error| error.to_string())
}

fn run(options: Options) -> Result<(), String> {
    let log_all = options.log_all;
    let sink: LogSink = Box::new(move |status, category, message| {
        if status > Status::Ok || log_all {
            eprintln!("{}: {}", category, message);
        }
    });
    let mut simulation = Simulation::new(sink);
    for (name, value) in &options.parameters {
        set_parameter(&mut simulation, name, value)?;
    }
    let start = options.start;
    let stop = options.stop.unwrap_or(start + DEFAULT_STOP_TIME);
    if !(stop > start) {
        return Err(format!("stop time {} is not after start time {}", format_g(stop, 6), format_g(start, 6)));
    }
    let step = options.step.unwrap_or((stop - start) / DEFAULT_STEPS);
    if !(step > 0.0) || !(options.tolerance > 0.0 && options.tolerance < 1.0) {
        return Err("the step size must be positive and the tolerance in (0, 1)".to_string());
    }
    let n_steps = (((stop - start) / step) * (1.0 - 1e-12)).ceil().max(1.0) as usize;
    let mut out: Box<dyn Write> = match &options.output {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|error| format!("cannot write {}: {}", path, error))?)),
        None => Box::new(std::io::BufWriter::new(std::io::stdout())),
    };
    writeln!(out, "{}", RESULT_HEADER).map_err(|error| error.to_string())?;
    let failed = |what: &str| Err(format!("{} failed: see the messages above", what));
    simulation.time_scale = time_scale_of(start, stop, true);
    if simulation.initialize(start, options.tolerance) > Status::Warning {
        return failed("the initialization");
    }
    row(&mut simulation, &mut *out)?;
    let mut outcome = StepOutcome::default();
    for k in 1..=n_steps {
        let t = simulation.model.data.time;
        let t_next = if k >= n_steps { stop } else { start + k as f64 * step };
        if simulation.do_step(t, t_next - t, &mut outcome) > Status::Warning {
            return failed(&format!("the step from t = {}", format_g(t, 17)));
        }
        row(&mut simulation, &mut *out)?;
        if outcome.terminate {
            break;
        }
    }
    simulation.model.data.terminal = true;
    simulation.values_dirty = true;
    out.flush().map_err(|error| error.to_string())
}

pub fn main() {
    let result = parse_options(std::env::args().skip(1)).and_then(run);
    if let Err(message) = result {
        eprintln!("error: {}", message);
        std::process::exit(1);
    }
}
