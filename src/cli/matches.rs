//! `tempo match`: a match between two Hub engines, refereed by the rules
//! core, with optional PDN output and an SPRT stop.

use std::fs::OpenOptions;
use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;

use super::VariantParser;
use crate::arena::client::is_dxp;
use crate::arena::stats::{rounded, Sprt, SprtVerdict};
use crate::arena::{
    openings, run_match, Adjudication, EngineSpec, FailureKind, GameRecord, MatchConfig, ThinkTimes,
};
use crate::game::TimeControl;
use crate::protocol::hub::Numbering;
use crate::rules::{Rules, VariantKind};

/// Arguments of `tempo match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// An engine: a Hub command line, e.g. "tempo hub" or "./scan hub"
    /// (Hub v2 or Scan 2.0's first Hub protocol, told apart by its answer);
    /// or a DXP engine, "dxp:HOST:PORT" to connect to it or
    /// "dxp-listen:HOST:PORT" to wait for it, then the command that starts
    /// it, if the referee is to (give exactly two).
    #[arg(long = "engine", value_name = "CMD", required = true, num_args = 1)]
    pub engines: Vec<String>,
    /// Engine names, in the order of --engine (default: the program names).
    #[arg(long = "name", value_name = "NAME")]
    pub names: Vec<String>,
    /// The variant.
    #[arg(long, value_parser = VariantParser, default_value = "international")]
    pub variant: VariantKind,
    /// Games to play (rounded up to an even number, so every opening is
    /// played with both colours).
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// The thinking time of each engine.
    #[command(flatten)]
    pub control: ControlArgs,
    /// Openings: a file, or "builtin" (every opening of one move each).
    #[arg(long, value_name = "FILE", default_value = "builtin")]
    pub openings: String,
    /// Games played at the same time.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub concurrency: u32,
    /// Append every game to this PDN file.
    #[arg(long, value_name = "FILE")]
    pub pdn: Option<String>,
    /// Stop early by SPRT: elo0=0,elo1=5,alpha=0.05,beta=0.05.
    #[arg(long, value_name = "BOUNDS")]
    pub sprt: Option<String>,
    /// A Hub parameter for one engine (its name, 1 or 2) or both (*), e.g.
    /// 1:threads=2. `numbering` (pydraughts or pdn) is the square numbering
    /// the referee speaks to that engine in Brazilian, Russian, Turkish and
    /// English: by default PDN to an engine that lists the `numbering`
    /// parameter (tempo), pydraughts' to one that does not.
    #[arg(long = "option", value_name = "ENGINE:PARAM=VALUE")]
    pub options: Vec<String>,
    /// The directory an engine (its name, 1 or 2; * both) runs in, e.g.
    /// 2:/opt/scan (Scan reads scan.ini and data/ from its own); a relative
    /// program path such as ./scan is found from it.
    #[arg(long = "dir", value_name = "ENGINE:DIR")]
    pub dirs: Vec<String>,
    /// Time odds: one engine (its name, 1 or 2; * both) thinks FACTOR
    /// times as long (clock, increment, move time or nodes a move), e.g. 1=2.
    #[arg(long = "time-odds", value_name = "ENGINE=FACTOR")]
    pub time_odds: Vec<String>,
    /// Adjudicate a draw after this many plies without a capture.
    #[arg(long, value_name = "PLIES")]
    pub draw_after_plies: Option<u32>,
    /// Adjudicate a win when both engines agree on a lead of this many men.
    #[arg(long, value_name = "MEN")]
    pub resign_score: Option<f64>,
    /// Adjudicate a draw at this many plies.
    #[arg(long, value_name = "PLIES")]
    pub max_plies: Option<u32>,
    /// Milliseconds an engine may exceed its time before losing on time.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub margin_ms: u64,
    /// Stop the match when one engine loses this many games in a row by
    /// failures (illegal moves, protocol errors, time, crashes), or this
    /// many games in a row end by failures of either; 0: never.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub max_failures_in_a_row: u32,
}

/// Runs `tempo match`.
pub fn run(args: &MatchArgs) -> Result<ExitCode, String> {
    crate::rules::with_rules!(args.variant, R => run_for::<R>(args))
}

fn engine_specs(args: &MatchArgs) -> Result<[EngineSpec; 2], String> {
    if args.engines.len() != 2 {
        return Err(format!(
            "give exactly two --engine, not {}",
            args.engines.len()
        ));
    }
    if args.names.len() > 2 {
        return Err("give at most two --name".to_string());
    }
    let mut specs: Vec<EngineSpec> = args
        .engines
        .iter()
        .enumerate()
        .map(|(i, cmd)| {
            let words = crate::arena::client::split_command(cmd)?;
            // A DXP engine is named after the command that starts it, if any.
            let program = match (is_dxp(cmd), words.get(1)) {
                (true, Some(program)) => program,
                (true, None) => "dxp",
                (false, _) => &words[0],
            };
            let program = std::path::Path::new(program)
                .file_name()
                .map_or(program.to_string(), |f| f.to_string_lossy().into_owned());
            Ok(EngineSpec {
                name: args.names.get(i).cloned().unwrap_or(program),
                command: cmd.clone(),
                options: Vec::new(),
                dir: None,
            })
        })
        .collect::<Result<_, String>>()?;
    if specs[0].name == specs[1].name {
        specs[0].name.push_str("-1");
        specs[1].name.push_str("-2");
    }
    for option in &args.options {
        let (who, setting) = option
            .split_once(':')
            .ok_or_else(|| format!("--option '{option}' is not NAME:param=value"))?;
        let (param, value) = setting
            .split_once('=')
            .ok_or_else(|| format!("--option '{option}' is not NAME:param=value"))?;
        let targets = engines_named(who, &specs);
        if targets.is_empty() {
            return Err(format!("--option '{option}': no engine is called '{who}'"));
        }
        if param == Numbering::PARAM && Numbering::parse(value).is_none() {
            return Err(format!(
                "--option '{option}': the numbering is one of {}",
                Numbering::ALL.map(Numbering::name).join(", ")
            ));
        }
        for i in targets {
            specs[i]
                .options
                .push((param.to_string(), value.to_string()));
        }
    }
    for dir in &args.dirs {
        let (who, path) = dir
            .split_once(':')
            .filter(|(_, path)| !path.is_empty())
            .ok_or_else(|| format!("--dir '{dir}' is not ENGINE:DIR, e.g. 2:/opt/scan"))?;
        let targets = engines_named(who, &specs);
        if targets.is_empty() {
            return Err(format!("--dir '{dir}': no engine is called '{who}'"));
        }
        if !std::path::Path::new(path).is_dir() {
            return Err(format!("--dir '{dir}': {path} is not a directory"));
        }
        for i in targets {
            specs[i].dir = Some(path.into());
        }
    }
    let [a, b]: [EngineSpec; 2] = specs.try_into().map_err(|_| "two engines".to_string())?;
    Ok([a, b])
}

/// The engines (0, 1) that `who` names: 1, 2, a name, or `*` for both.
fn engines_named(who: &str, specs: &[EngineSpec]) -> Vec<usize> {
    match who {
        "1" => vec![0],
        "2" => vec![1],
        "*" | "all" | "both" => vec![0, 1],
        name => (0..specs.len())
            .filter(|&i| specs[i].name == name)
            .collect(),
    }
}

/// The clock of a match or a tuning run: one of a clock, a time a move, a
/// depth or nodes a move.
#[derive(Debug, Args)]
pub struct ControlArgs {
    /// Clock per engine: [moves/]seconds[+increment], e.g. 10+0.1.
    #[arg(long, conflicts_with_all = ["movetime", "depth", "nodes"])]
    pub tc: Option<String>,
    /// Fixed time per move in seconds.
    #[arg(long, value_name = "S", conflicts_with_all = ["depth", "nodes"])]
    pub movetime: Option<f64>,
    /// Fixed search depth.
    #[arg(long, value_name = "D", conflicts_with = "nodes")]
    pub depth: Option<u32>,
    /// Fixed nodes a move: games no load of the machine sways (equal
    /// time only where both engines search as many nodes a second).
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
}

fn control(args: &MatchArgs) -> Result<TimeControl, String> {
    parse_control(&args.control)
}

/// The one control given: a clock, a time a move, a depth or nodes a move.
pub(super) fn parse_control(args: &ControlArgs) -> Result<TimeControl, String> {
    let ControlArgs {
        tc,
        movetime,
        depth,
        nodes,
    } = args;
    let (movetime, depth, nodes) = (*movetime, *depth, *nodes);
    if let Some(tc) = tc {
        return TimeControl::parse_clock(tc);
    }
    if let Some(mt) = movetime {
        if !mt.is_finite() || mt <= 0.0 {
            return Err(format!(
                "--movetime {mt} must be a positive number of seconds"
            ));
        }
        return Ok(TimeControl::MoveTime(Duration::from_secs_f64(mt)));
    }
    if let Some(d) = depth {
        if d == 0 {
            return Err("--depth must be at least 1".to_string());
        }
        return Ok(TimeControl::Depth(d));
    }
    if let Some(n) = nodes {
        if n == 0 {
            return Err("--nodes must be at least 1".to_string());
        }
        return Ok(TimeControl::Nodes(n));
    }
    Err("give one of --tc, --movetime, --depth or --nodes".to_string())
}

/// The openings of `--openings`: a file, or `builtin`.
pub(super) fn load_openings<R: Rules>(arg: &str) -> Result<Vec<openings::Opening>, String> {
    if arg == "builtin" {
        return Ok(openings::builtin::<R>());
    }
    let text = std::fs::read_to_string(arg).map_err(|e| format!("--openings {arg}: {e}"))?;
    openings::parse::<R>(&text, arg)
}

/// The control of each engine: `control` scaled by its `--time-odds`.
fn controls(
    args: &MatchArgs,
    control: TimeControl,
    engines: &[EngineSpec; 2],
) -> Result<[TimeControl; 2], String> {
    let mut factors = [1.0f64; 2];
    for odds in &args.time_odds {
        let bad = || format!("--time-odds '{odds}' is not ENGINE=FACTOR, e.g. 1=2");
        let (who, factor) = odds.split_once('=').ok_or_else(bad)?;
        let factor: f64 = factor.trim().parse().map_err(|_| bad())?;
        let targets = engines_named(who, engines);
        if targets.is_empty() {
            return Err(format!("--time-odds '{odds}': no engine is called '{who}'"));
        }
        for i in targets {
            factors[i] = factor;
        }
    }
    let [a, b] = factors.map(|f| control.scaled(f).map_err(|e| format!("--time-odds: {e}")));
    Ok([a?, b?])
}

fn run_for<R: Rules>(args: &MatchArgs) -> Result<ExitCode, String> {
    let engines = engine_specs(args)?;
    if args.concurrency > 1 && engines.iter().any(|e| is_dxp(&e.command)) {
        return Err("a DXP engine plays one game at a time: give --concurrency 1".to_string());
    }
    let controls = controls(args, control(args)?, &engines)?;
    if let Some(pdn) = &args.pdn {
        let openings = std::path::Path::new(&args.openings);
        let inputs: Vec<(&str, &std::path::Path)> = if args.openings == "builtin" {
            Vec::new()
        } else {
            vec![("--openings", openings)]
        };
        super::guard_outputs(&inputs, &[("--pdn", std::path::Path::new(pdn))])?;
    }
    let openings = load_openings::<R>(&args.openings)?;
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    let mut pdn_file = match &args.pdn {
        Some(path) => Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("--pdn {path}: {e}"))?,
        ),
        None => None,
    };
    let games = (args.games as usize).div_ceil(2) * 2;
    let config = MatchConfig {
        engines,
        variant: R::KIND,
        games,
        controls,
        openings,
        concurrency: args.concurrency as usize,
        adjudication: Adjudication {
            draw_after_plies: args.draw_after_plies,
            resign_score: args.resign_score,
            max_plies: args.max_plies,
        },
        sprt,
        margin: Duration::from_millis(args.margin_ms),
        failure_streak: args.max_failures_in_a_row,
    };
    let names = [
        config.engines[0].name.clone(),
        config.engines[1].name.clone(),
    ];
    let started = Instant::now();
    // Failures per engine: [illegal, timeouts, crashes].
    let mut failures = [[0u32; 3]; 2];
    let mut think = [ThinkTimes::default(); 2];
    let time_control = |first_is_white: bool| {
        let [first, second] = config.controls.map(|c| c.to_string());
        match (first == second, first_is_white) {
            (true, _) => first,
            (false, true) => format!("White {first}, Black {second}"),
            (false, false) => format!("White {second}, Black {first}"),
        }
    };
    let mut write_error = None;
    let event = format!("tempo match {} vs {}", names[0], names[1]);
    // Ctrl-C ends the match at once, the games in progress left unplayed;
    // every finished game is in the PDN file, whole.
    crate::signals::install(|| {});
    let kept = args.pdn.as_ref().map_or(String::new(), |path| {
        format!("; the finished games are in {path}")
    });
    crate::signals::farewell(format!("interrupted before the first game ended{kept}"));
    let (tally, stopped) = run_match(&config, &mut |record: &GameRecord, tally| {
        let (white, black) = if record.first_is_white {
            (&names[0], &names[1])
        } else {
            (&names[1], &names[0])
        };
        if let Some(f) = &record.failure {
            let kind = match f.kind {
                FailureKind::Illegal => 0,
                FailureKind::Timeout => 1,
                FailureKind::Crash => 2,
            };
            failures[f.engine][kind] += 1;
        }
        for (total, game) in think.iter_mut().zip(&record.think) {
            total.merge(game);
        }
        let llr = config
            .sprt
            .as_ref()
            .map(|sprt| format!(" | LLR {:.2}", sprt.llr(tally)))
            .unwrap_or_default();
        outln!(
            "game {:>4}/{games}: {white} - {black} {} ({}) | {} {tally}{llr}",
            record.index + 1,
            record.result,
            record.reason,
            names[0],
        );
        if let Some(file) = pdn_file.as_mut() {
            let opening = if record.opening.moves.is_empty() {
                record.opening.start.clone()
            } else {
                record.opening.moves.join(" ")
            };
            let extra = [
                ("TimeControl", time_control(record.first_is_white)),
                ("Opening", opening),
            ];
            let text = record.pdn::<R>([&names[0], &names[1]], &event, &extra);
            if let Err(e) = crate::signals::whole(|| file.write_all(text.as_bytes())) {
                write_error.get_or_insert(e.to_string());
            }
        }
        crate::signals::farewell(format!(
            "interrupted after {} games: {} {tally}{llr}{kept}",
            tally.games(),
            names[0]
        ));
    });
    if let Some(failure) = stopped {
        let played = match tally.games() {
            0 => "no game was played".to_string(),
            n => format!("after {n} games ({tally})"),
        };
        let whose = |engine: usize| {
            format!(
                "engine '{}', command: {}",
                names[engine], config.engines[engine].command
            )
        };
        let whose = match failure.engine() {
            Some(engine) => whose(engine),
            None => format!("{}; {}", whose(0), whose(1)),
        };
        return Err(format!("the match stopped, {played}: {failure} ({whose})"));
    }
    let failed = |i: usize| {
        let [illegal, timeouts, crashes] = failures[i];
        format!(
            "{} illegal={illegal} timeouts={timeouts} crashes={crashes}",
            names[i]
        )
    };
    outln!(
        "finished: {} vs {}: {tally}, LOS {:.1}%; failures: {}; {}; {:.0} s",
        names[0],
        names[1],
        tally.los() * 100.0,
        failed(0),
        failed(1),
        started.elapsed().as_secs_f64()
    );
    for (name, times) in names.iter().zip(&think) {
        if let Some(mean) = times.mean() {
            outln!(
                "thinking time of {name} (referee's clock): mean {:.4} s, max {:.4} s over {} moves with a choice",
                mean.as_secs_f64(),
                times.max.as_secs_f64(),
                times.moves
            );
        }
    }
    if let Some(sprt) = &config.sprt {
        let (lo, hi) = sprt.bounds();
        let verdict = match sprt.verdict(&tally) {
            SprtVerdict::H1 => "H1 accepted",
            SprtVerdict::H0 => "H0 accepted",
            SprtVerdict::Continue => "undecided",
        };
        outln!(
            "SPRT elo0={} elo1={}: LLR {:.2} ({lo:.2}, {hi:.2}) {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.llr(&tally)
        );
    }
    let (elo, margin) = match tally.elo() {
        Some((e, m)) => (
            format!("{:.1}", rounded(e, 1)),
            format!("{:.1}", rounded(m, 1)),
        ),
        None if tally.games() == 0 => ("nan".to_string(), "nan".to_string()),
        None if tally.score() >= 1.0 => ("inf".to_string(), "inf".to_string()),
        None => ("-inf".to_string(), "inf".to_string()),
    };
    let [illegal, timeouts, crashes] = failures[0];
    outln!(
        "wins={} draws={} losses={} elo={elo} elo95={margin} illegal={illegal} timeouts={timeouts} crashes={crashes}",
        tally.wins, tally.draws, tally.losses
    );
    if let Some(e) = write_error {
        return Err(format!("writing the PDN file: {e}"));
    }
    Ok(ExitCode::SUCCESS)
}
