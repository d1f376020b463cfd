//! `tempo tune`: SPSA over engine parameters (`arena::spsa`), played out in
//! game pairs between two processes of one Hub engine, each pair from its
//! own opening with colours swapped. The state is saved after every pair,
//! so a run that is stopped resumes with the same command.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::Args;

use super::matches::{load_openings, parse_control, ControlArgs};
use super::VariantParser;
use crate::arena::spsa::{Pair, Param, Run, Schedule};
use crate::arena::{play_game, Adjudication, EngineClient, EngineSpec, GameRecord, MatchConfig};
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
    /// time, crash); 0: never.
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

/// What the workers share: the run, the next pair to hand out, and the
/// first error that stops them all.
struct Shared {
    run: Run,
    next: u64,
    failures_in_a_row: u32,
    error: Option<String>,
}

fn run_for<R: Rules>(args: &TuneArgs) -> Result<ExitCode, String> {
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
        concurrency: 1,
        adjudication: Adjudication::default(),
        sprt: None,
        margin: Duration::from_millis(args.margin_ms),
        failure_streak: 0,
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
    let next = run.pairs_done + 1;
    let shared = Mutex::new(Shared {
        run,
        next,
        failures_in_a_row: 0,
        error: None,
    });
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..args.concurrency {
            scope.spawn(|| worker::<R>(args, &base, &shared, started));
        }
    });
    let shared = shared
        .into_inner()
        .map_err(|_| "a worker failed".to_string())?;
    if let Some(error) = shared.error {
        if shared.run.pairs_done == 0 {
            // Nothing to resume: a fixed command starts afresh.
            let _ = std::fs::remove_file(&args.state);
            return Err(format!("the run stopped before its first pair: {error}"));
        }
        return Err(format!(
            "the run stopped after {} pairs (saved in {}): {error}",
            shared.run.pairs_done,
            args.state.display()
        ));
    }
    let [w, d, l] = shared.run.tally;
    outln!(
        "finished {} pairs (+{w} ={d} -{l} for the plus side); the estimates: {}",
        shared.run.pairs_done,
        settings(&shared.run)
    );
    Ok(ExitCode::SUCCESS)
}

/// One worker: its own two engine processes, pairs until none is left or
/// another worker failed.
fn worker<R: Rules>(args: &TuneArgs, base: &MatchConfig, shared: &Mutex<Shared>, started: Instant) {
    let mut clients: [Option<EngineClient>; 2] = [None, None];
    let names: Vec<String> = match shared.lock() {
        Ok(s) => s.run.params.iter().map(|p| p.name.clone()).collect(),
        Err(_) => return,
    };
    loop {
        let pair = {
            let Ok(mut s) = shared.lock() else { return };
            if s.error.is_some() || s.next > args.pairs {
                return;
            }
            let k = s.next;
            s.next += 1;
            s.run.pair(k)
        };
        let outcome = play_pair::<R>(base, &pair, &names, &mut clients);
        let Ok(mut s) = shared.lock() else { return };
        let records = match outcome {
            Ok(records) => records,
            Err(e) => {
                s.error.get_or_insert(e);
                return;
            }
        };
        let mut games = [0u64; 3];
        for record in &records {
            let points = record.first_points();
            games[if points > 0.75 {
                0
            } else if points < 0.25 {
                2
            } else {
                1
            }] += 1;
            if let Some(failure) = &record.failure {
                s.failures_in_a_row += 1;
                outln!(
                    "pair {}: game {} ended by a failure of {}: {}",
                    pair.k,
                    record.index + 1,
                    base.engines[failure.engine].name,
                    record.reason
                );
                let in_a_row = s.failures_in_a_row;
                if args.max_failures_in_a_row != 0 && in_a_row >= args.max_failures_in_a_row {
                    s.error.get_or_insert(format!(
                        "{in_a_row} games in a row ended by failures; --max-failures-in-a-row 0 plays on"
                    ));
                }
            } else {
                s.failures_in_a_row = 0;
            }
        }
        s.run.apply(&pair, games);
        if let Err(e) = save(&args.state, &s.run) {
            s.error.get_or_insert(e);
            return;
        }
        let [w, d, l] = s.run.tally;
        outln!(
            "pair {:>5}/{}: plus +{} ={} -{} | {} | all +{w} ={d} -{l}, {:.0} s",
            pair.k,
            args.pairs,
            games[0],
            games[1],
            games[2],
            s.run
                .params
                .iter()
                .map(|p| format!("{}={:.2}", p.name, p.value))
                .collect::<Vec<_>>()
                .join(" "),
            started.elapsed().as_secs_f64()
        );
    }
}

/// Plays pair `pair.k`: the opening `k - 1`, `plus` White then Black.
/// Engines are started where none runs, and every engine is given the
/// pair's values and must take them (an unknown name stops the run); an
/// engine restarted after a failed game starts with them.
fn play_pair<R: Rules>(
    base: &MatchConfig,
    pair: &Pair,
    names: &[String],
    clients: &mut [Option<EngineClient>; 2],
) -> Result<Vec<GameRecord>, String> {
    let mut config = base.clone();
    let values = [&pair.plus, &pair.minus];
    for (slot, engine) in config.engines.iter_mut().enumerate() {
        for (name, value) in names.iter().zip(values[slot]) {
            engine.options.push((name.clone(), value.to_string()));
        }
        if clients[slot].is_none() {
            let started = EngineClient::start(&base.engines[slot], base.variant).map_err(|e| {
                format!(
                    "engine '{}' ({}) could not start: {e}",
                    engine.name, engine.command
                )
            })?;
            clients[slot] = Some(started);
        }
        if let Some(client) = clients[slot].as_mut() {
            for (name, value) in names.iter().zip(values[slot]) {
                client
                    .set_param(name, &value.to_string())
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    let first = 2 * (pair.k - 1) as usize;
    (first..first + 2)
        .map(|index| {
            play_game::<R>(&config, index, clients).map_err(|failure| {
                format!(
                    "engine '{}' ({}) could not start: {}",
                    config.engines[failure.engine].name,
                    config.engines[failure.engine].command,
                    failure.error
                )
            })
        })
        .collect()
}
