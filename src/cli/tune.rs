//! `tempo tune`: SPSA over engine parameters (`arena::spsa`), played out in
//! game pairs between two processes of one Hub engine, each pair from its
//! own opening with colours swapped. The state is saved after every pair,
//! so a run that is stopped resumes with the same command.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;

use super::matches::{load_openings, parse_control, ControlArgs};
use super::VariantParser;
use crate::arena::spsa::{Pair, Param, Run, Schedule};
use crate::arena::stats::Tally;
use crate::arena::tuning::run_pairs;
use crate::arena::{Adjudication, EngineSpec, GameRecord, MatchConfig};
use crate::rules::{Rules, VariantKind};

/// Arguments of `tempo tune`.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// A parameter to tune, as NAME=START:MIN:MAX:STEP (repeatable): its
    /// engine parameter name, where to start, its bounds, and the
    /// perturbation at the last pair (each pair plays START ± about STEP
    /// against START ∓ STEP, twice that at the first pair).
    #[arg(long = "param", value_name = "SPEC", required = true)]
    pub params: Vec<String>,
    /// Game pairs in the whole run: the schedule's length (a resumed run
    /// must give the same number).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub pairs: u64,
    /// The state file: written after every pair, read at the start to
    /// resume.
    #[arg(long, value_name = "FILE")]
    pub state: PathBuf,
    /// The engine command line (default: this program's `hub`).
    #[arg(long, value_name = "CMD")]
    pub engine: Option<String>,
    /// The gain over the squared perturbation at the last pair (a resumed
    /// run must give the same). Engine testing frameworks use 0.002 over
    /// tens of thousands of games; a run of a thousand pairs needs about
    /// ten times as much to move at all.
    #[arg(long, value_name = "R", default_value_t = 0.02)]
    pub rate: f64,
    /// Seed of the perturbations' signs (a resumed run must give the same).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The variant.
    #[arg(long, value_parser = VariantParser, default_value = "international")]
    pub variant: VariantKind,
    /// The thinking time of each engine.
    #[command(flatten)]
    pub control: ControlArgs,
    /// Openings: a file, or "builtin"; pair k plays opening k (cycling).
    #[arg(long, value_name = "FILE", default_value = "builtin")]
    pub openings: String,
    /// Pairs played at the same time, each by its own two processes.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub concurrency: u32,
    /// A Hub parameter set the same for both sides, as PARAM=VALUE
    /// (repeatable), e.g. book=false.
    #[arg(long = "option", value_name = "PARAM=VALUE")]
    pub options: Vec<String>,
    /// Milliseconds an engine may exceed its time before losing on time.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub margin_ms: u64,
    /// Stop when this many games in a row end by a failure (illegal move,
    /// time, crash), as `tempo match` stops; 0: never.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub max_failures_in_a_row: u32,
}

/// Runs `tempo tune`.
pub fn run(args: &TuneArgs) -> Result<ExitCode, String> {
    crate::rules::with_rules!(args.variant, R => run_for::<R>(args))
}

/// The run to go on with: the state file's, checked against the command,
/// or a new one from the starting values.
fn start_or_resume(args: &TuneArgs) -> Result<Run, String> {
    let params: Vec<Param> = args
        .params
        .iter()
        .map(|p| Param::parse(p))
        .collect::<Result<_, _>>()?;
    for (i, p) in params.iter().enumerate() {
        if params[..i].iter().any(|q| q.name == p.name) {
            return Err(format!("--param {} is given twice", p.name));
        }
    }
    if !args.rate.is_finite() || args.rate <= 0.0 {
        return Err(format!("--rate {} must be a positive number", args.rate));
    }
    let schedule = Schedule {
        pairs: args.pairs,
        rate: args.rate,
        seed: args.seed,
    };
    let text = match std::fs::read_to_string(&args.state) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Run::new(schedule, params))
        }
        Err(e) => return Err(format!("--state {}: {e}", args.state.display())),
    };
    let mut saved =
        Run::parse(&text).map_err(|e| format!("--state {}: {e}", args.state.display()))?;
    if saved.schedule != schedule {
        let Schedule { pairs, rate, seed } = saved.schedule;
        return Err(format!(
            "--state {} is a run of --pairs {pairs} --rate {rate} --seed {seed}: give the same to resume it, or start another state file from its estimates",
            args.state.display()
        ));
    }
    let names = |ps: &[Param]| ps.iter().map(|p| p.name.clone()).collect::<Vec<_>>();
    if names(&saved.params) != names(&params) {
        return Err(format!(
            "--state {} tunes {} but the command {}: give the same --param list, or another state file",
            args.state.display(),
            names(&saved.params).join(", "),
            names(&params).join(", ")
        ));
    }
    // The bounds and steps are the command's; the estimates the state's.
    for (kept, given) in saved.params.iter_mut().zip(params) {
        *kept = Param {
            value: kept.value.clamp(given.min, given.max),
            ..given
        };
    }
    Ok(saved)
}

/// Writes the state beside its file, then moves it over: a stop mid-write
/// never leaves half a state.
fn save(path: &Path, run: &Run) -> Result<(), String> {
    crate::files::replace(path, run.to_text().as_bytes())
        .map_err(|e| format!("writing --state {}: {e}", path.display()))
}

/// The estimates, as the `--option` lines of a match.
fn settings(run: &Run) -> String {
    run.params
        .iter()
        .map(|p| format!("{}={}", p.name, p.sent(p.value)))
        .collect::<Vec<_>>()
        .join(" ")
}

fn run_for<R: Rules>(args: &TuneArgs) -> Result<ExitCode, String> {
    if args.openings != "builtin" {
        super::guard_outputs(
            &[("--openings", Path::new(&args.openings))],
            &[("--state", &args.state)],
        )?;
    }
    let run = start_or_resume(args)?;
    let control = parse_control(&args.control)?;
    let openings = load_openings::<R>(&args.openings)?;
    let command = match &args.engine {
        Some(command) => command.clone(),
        None => {
            let exe = std::env::current_exe().map_err(|e| format!("finding this program: {e}"))?;
            format!("\"{}\" hub", exe.display())
        }
    };
    let mut fixed = Vec::new();
    for option in &args.options {
        let (name, value) = option
            .split_once('=')
            .ok_or_else(|| format!("--option '{option}' is not PARAM=VALUE"))?;
        if run.params.iter().any(|p| p.name == name) {
            return Err(format!("--option {name} is also tuned by --param"));
        }
        fixed.push((name.to_string(), value.to_string()));
    }
    let spec = |name: &str| EngineSpec {
        name: name.to_string(),
        command: command.clone(),
        options: fixed.clone(),
        dir: None,
    };
    let base = MatchConfig {
        engines: [spec("plus"), spec("minus")],
        variant: R::KIND,
        games: usize::MAX,
        controls: [control; 2],
        openings,
        concurrency: args.concurrency as usize,
        adjudication: Adjudication::default(),
        sprt: None,
        margin: Duration::from_millis(args.margin_ms),
        failure_streak: args.max_failures_in_a_row,
    };
    if run.pairs_done >= args.pairs {
        outln!(
            "the state has all {} pairs; the estimates: {}",
            run.pairs_done,
            settings(&run)
        );
        return Ok(ExitCode::SUCCESS);
    }
    if run.pairs_done == 0 {
        save(&args.state, &run)?;
    }
    outln!(
        "tuning {} from pair {} of {}, {control} a side, rate {}: {}",
        run.params
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        run.pairs_done + 1,
        args.pairs,
        args.rate,
        settings(&run)
    );
    let started = Instant::now();
    // Ctrl-C ends the run at once; the state holds every finished pair.
    crate::signals::install(|| {});
    let resume = |pairs: u64| {
        format!(
            "interrupted: {pairs} pairs are saved in {}; the same command goes on",
            args.state.display()
        )
    };
    crate::signals::farewell(resume(run.pairs_done));
    let (run, error) = run_pairs::<R>(&base, run, args.pairs, &mut |run, pair, records| {
        report_pair(args, &base, run, pair, records, started);
        let saved = save(&args.state, run);
        crate::signals::farewell(resume(run.pairs_done));
        saved
    });
    if let Some(error) = error {
        if run.pairs_done == 0 {
            // Nothing to resume: a fixed command starts afresh.
            let _ = std::fs::remove_file(&args.state);
            return Err(format!("the run stopped before its first pair: {error}"));
        }
        return Err(format!(
            "the run stopped after {} pairs (saved in {}): {error}",
            run.pairs_done,
            args.state.display()
        ));
    }
    let [w, d, l] = run.tally;
    outln!(
        "finished {} pairs (+{w} ={d} -{l} for the plus side); the estimates: {}",
        run.pairs_done,
        settings(&run)
    );
    Ok(ExitCode::SUCCESS)
}

/// Prints a finished pair: a line for each game a failure ended, then the
/// pair's result, the estimates it left and the run's tally.
fn report_pair(
    args: &TuneArgs,
    base: &MatchConfig,
    run: &Run,
    pair: &Pair,
    records: &[GameRecord],
    started: Instant,
) {
    let mut games = Tally::default();
    for record in records {
        games.add(record.first_points());
        if let Some(failure) = &record.failure {
            outln!(
                "pair {}: game {} ended by a failure of {}: {}",
                pair.k,
                record.index + 1,
                base.engines[failure.engine].name,
                record.reason
            );
        }
    }
    let [w, d, l] = run.tally;
    outln!(
        "pair {:>5}/{}: plus +{} ={} -{} | {} | all +{w} ={d} -{l}, {:.0} s",
        pair.k,
        args.pairs,
        games.wins,
        games.draws,
        games.losses,
        run.params
            .iter()
            .map(|p| format!("{}={:.2}", p.name, p.value))
            .collect::<Vec<_>>()
            .join(" "),
        started.elapsed().as_secs_f64()
    );
}
