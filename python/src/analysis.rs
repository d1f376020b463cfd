//! `analyse_pdn`: every position of the games of a PDN text searched and
//! each played move judged, as `tempo analyse --pdn` does, the records
//! handed out one by one by an `Analysis` iterator.
//!
//! The analysis runs on a thread of its own (`tempo::analyse::Analyser`);
//! each finished record crosses a rendezvous channel to the iterator, so
//! the analysis is at most one position ahead of the consumer. Dropping the
//! iterator closes the channel, and the analysis stops after the position
//! it is searching.

use std::sync::Mutex;

use crossbeam_channel::{bounded, Receiver, RecvTimeoutError};
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use tempo::analyse::input::read_pdn;
use tempo::analyse::output::{render, Format};
use tempo::analyse::{centimen, mate_plies, Analyser, Event, Record, Settings, Source};
use tempo::search::resources::{EvalSource, ResourceSettings};

use crate::board::side_name;
use crate::{existing, parse_variant, search_limits, value_error, SIGNAL_POLL};

/// The time each position gets when no limit is given (as `tempo analyse`).
const DEFAULT_MOVETIME: f64 = 3.0;

/// What the analysis thread hands the iterator.
type Message = Result<Record, String>;

/// Analyses every position of every game of a PDN text, as `tempo analyse
/// --pdn` does, and returns an iterator of `AnalysisRecord`s, one per
/// position in game order (the same records as its JSON Lines).
///
/// A game's variant is its `GameType`/`Variant` tag, or `variant` when it
/// has none. Limits per position: `movetime` seconds, `depth` plies,
/// `nodes` (3 seconds when none is given). A game that cannot be read (a
/// bad tag, an illegal move) is a `ValueError` naming its line before any
/// search, unless `skip_invalid` is true. `weights` (a weights file) and
/// `egdb` (a tables directory) as for `Engine`. The search runs while the
/// iterator waits with the GIL released.
#[pyfunction]
#[pyo3(signature = (
    pdn,
    *,
    variant = "international",
    movetime = None,
    depth = None,
    nodes = None,
    multipv = 1,
    threads = 1,
    hash = 64,
    weights = None,
    egdb = None,
    egdb_pieces = 4,
    skip_invalid = false
))]
pub fn analyse_pdn(
    pdn: &str,
    variant: &str,
    movetime: Option<f64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    multipv: usize,
    threads: usize,
    hash: usize,
    weights: Option<std::path::PathBuf>,
    egdb: Option<std::path::PathBuf>,
    egdb_pieces: u32,
    skip_invalid: bool,
) -> PyResult<Analysis> {
    let kind = parse_variant(variant)?;
    let (units, errors) = read_pdn(kind, pdn);
    // A game cut short (no result at the end) is analysed as far as it
    // goes: only the games left out count as errors.
    let errors: Vec<_> = errors.into_iter().filter(|e| e.skipped).collect();
    if !errors.is_empty() && !skip_invalid {
        let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        return Err(value_error(format!("PDN: {}", lines.join("; "))));
    }
    if multipv == 0 || threads == 0 || hash == 0 {
        return Err(value_error("multipv, threads and hash must be at least 1"));
    }
    let movetime = match (movetime, depth, nodes) {
        (None, None, None) => Some(DEFAULT_MOVETIME),
        _ => movetime,
    };
    let limits = search_limits(movetime, depth, nodes)?;
    let eval = match weights {
        Some(path) => EvalSource::File(existing(path, "weights", false)?),
        None => EvalSource::Builtin,
    };
    let egdb_path = egdb.map(|p| existing(p, "egdb", true)).transpose()?;
    let settings = Settings {
        limits,
        multipv,
        threads,
        resources: ResourceSettings {
            eval,
            egdb_path,
            egdb_pieces,
            builtin_egdb: true,
        },
    };
    let analyser = Analyser::new(settings, hash).map_err(PyOSError::new_err)?;
    let (sender, records) = bounded::<Message>(0);
    let skipped = errors.len();
    std::thread::Builder::new()
        .name("analyse".to_string())
        .spawn(move || {
            let outcome = analyser.analyse_all(&units, &mut |event| match event {
                Event::Done(record) => sender
                    .send(Ok(record))
                    .map_err(|_| std::io::Error::other("the iterator is gone")),
                Event::Start { .. } | Event::Depth(_) => Ok(()),
            });
            if let Err(e) = outcome {
                // Nobody listening (the iterator dropped) is the usual end.
                let _ = sender.send(Err(e.to_string()));
            }
        })
        .map_err(|e| PyOSError::new_err(format!("cannot start the analysis thread: {e}")))?;
    Ok(Analysis {
        records: Mutex::new(Some(records)),
        skipped,
    })
}

/// The iterator `analyse_pdn` returns: one `AnalysisRecord` per position.
#[pyclass(module = "tempo", frozen)]
pub struct Analysis {
    /// The records, until the analysis ends.
    records: Mutex<Option<Receiver<Message>>>,
    /// Games of the PDN that could not be read and were skipped.
    #[pyo3(get)]
    skipped: usize,
}

#[pymethods]
impl Analysis {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<AnalysisRecord>> {
        let mut guard = self
            .records
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let Some(records) = guard.as_ref() else {
            return Ok(None);
        };
        let received = py.detach(|| loop {
            match records.recv_timeout(SIGNAL_POLL) {
                Ok(message) => break Ok(Some(message)),
                Err(RecvTimeoutError::Disconnected) => break Ok(None),
                Err(RecvTimeoutError::Timeout) => Python::attach(|py| py.check_signals())?,
            }
        });
        match received {
            Ok(Some(Ok(record))) => Ok(Some(AnalysisRecord { record })),
            Ok(Some(Err(why))) => {
                *guard = None;
                Err(PyOSError::new_err(why))
            }
            Ok(None) => {
                *guard = None;
                Ok(None)
            }
            Err(e) => {
                // Interrupted: drop the channel so that the analysis stops.
                *guard = None;
                Err(e)
            }
        }
    }
}

/// One line of multi-PV analysis of a position.
#[pyclass(module = "tempo", frozen, get_all)]
#[derive(Clone)]
pub struct AnalysisLine {
    /// The line's first move (Hub notation).
    #[pyo3(name = "move")]
    mv: Option<String>,
    /// Its score for the side to move, in men.
    score: f64,
    /// Plies to a forced win (positive) or loss (negative), else `None`.
    mate: Option<i64>,
    /// The line, Hub notation.
    pv: Vec<String>,
}

#[pymethods]
impl AnalysisLine {
    fn __repr__(&self) -> String {
        let mv = self
            .mv
            .as_deref()
            .map_or("None".to_string(), |m| format!("'{m}'"));
        format!("AnalysisLine(move={mv}, score={:.2})", self.score)
    }
}

/// The analysis of one position: the fields and values of a `tempo
/// analyse` JSON Lines record (`to_json()` is that very line). Scores are
/// in men for the side to move, moves in Hub notation; `game`, `ply`,
/// `played`, `played_score`, `played_mate` and `loss` describe the game
/// and the move played there.
#[pyclass(module = "tempo", frozen)]
pub struct AnalysisRecord {
    record: Record,
}

/// A search score in men, as the JSON records give it.
fn men(score: i32) -> f64 {
    centimen(score) as f64 / 100.0
}

#[pymethods]
impl AnalysisRecord {
    /// The variant's name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.record.variant.name()
    }

    /// Where the position comes from: `"game"` for a PDN game.
    #[getter]
    fn source(&self) -> &'static str {
        match self.record.source {
            Source::Argument => "fen",
            Source::Line(_) => "line",
            Source::Game { .. } => "game",
        }
    }

    /// The line of the PDN text where the game starts.
    #[getter]
    fn line(&self) -> Option<usize> {
        match self.record.source {
            Source::Argument => None,
            Source::Line(line) | Source::Game { line, .. } => Some(line),
        }
    }

    /// The 1-based index of the game in the PDN text.
    #[getter]
    fn game(&self) -> Option<usize> {
        match self.record.source {
            Source::Game { index, .. } => Some(index),
            _ => None,
        }
    }

    /// Moves played in the game before this position.
    #[getter]
    fn ply(&self) -> usize {
        self.record.ply
    }

    /// The position as a FEN.
    #[getter]
    fn fen(&self) -> &str {
        &self.record.fen
    }

    /// The side to move, `"white"` or `"black"`.
    #[getter]
    fn side(&self) -> &'static str {
        side_name(self.record.side)
    }

    /// The deepest completed depth.
    #[getter]
    fn depth(&self) -> u32 {
        self.record.depth
    }

    /// The best score for the side to move, in men.
    #[getter]
    fn score(&self) -> f64 {
        men(self.record.score)
    }

    /// Plies to a forced win (positive) or loss (negative), else `None`.
    #[getter]
    fn mate(&self) -> Option<i64> {
        mate_plies(self.record.score)
    }

    /// The best move (Hub notation); `None` when no move is legal.
    #[getter]
    fn best(&self) -> Option<&str> {
        self.record.best()
    }

    /// The best line, Hub notation.
    #[getter]
    fn pv(&self) -> Vec<String> {
        self.record.pv.clone()
    }

    /// Nodes searched for this position.
    #[getter]
    fn nodes(&self) -> u64 {
        self.record.nodes
    }

    /// Seconds spent on this position.
    #[getter]
    fn time(&self) -> f64 {
        self.record.time.as_secs_f64()
    }

    /// The lines searched, best first.
    #[getter]
    fn lines(&self) -> Vec<AnalysisLine> {
        self.record
            .lines
            .iter()
            .map(|l| AnalysisLine {
                mv: l.pv.first().cloned(),
                score: men(l.score),
                mate: mate_plies(l.score),
                pv: l.pv.clone(),
            })
            .collect()
    }

    /// The move played in the game here (Hub notation); `None` at the
    /// game's last position.
    #[getter]
    fn played(&self) -> Option<&str> {
        self.record.played.as_ref().map(|p| p.mv.as_str())
    }

    /// The played move's score for the mover, in men.
    #[getter]
    fn played_score(&self) -> Option<f64> {
        self.record.played.as_ref().map(|p| men(p.score))
    }

    /// Plies to a forced end after the played move, from the mover's view.
    #[getter]
    fn played_mate(&self) -> Option<i64> {
        self.record
            .played
            .as_ref()
            .and_then(|p| mate_plies(p.score))
    }

    /// How much worse the played move is than the best, in men (>= 0).
    #[getter]
    fn loss(&self) -> Option<f64> {
        self.record.played.as_ref().map(|p| p.loss as f64 / 100.0)
    }

    /// The record as the JSON line `tempo analyse` writes (no newline).
    fn to_json(&self) -> String {
        render(&Event::Done(self.record.clone()), Format::Json)
            .trim_end()
            .to_string()
    }

    /// The record as a dict: the JSON line read back.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("json")?.call_method1("loads", (self.to_json(),))
    }

    fn __repr__(&self) -> String {
        let text = |value: Option<&str>| value.map_or("None".to_string(), |v| format!("'{v}'"));
        let number = |value: Option<String>| value.unwrap_or_else(|| "None".to_string());
        format!(
            "AnalysisRecord(game={}, ply={}, best={}, score={:.2}, played={}, loss={})",
            number(self.game().map(|g| g.to_string())),
            self.record.ply,
            text(self.record.best()),
            self.score(),
            text(self.played()),
            number(self.loss().map(|l| format!("{l:.2}")))
        )
    }
}
