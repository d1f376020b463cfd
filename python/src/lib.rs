//! `tempo._tempo`: the native part of the `tempo` Python package (import
//! name `tempo`, distribution `tempo-draughts`).
//!
//! A thin layer over the `tempo` crate: every rule, search and table lives
//! there, this crate only turns its values into Python objects and its
//! errors into Python exceptions. A Python object is not typed by variant,
//! so the game behind a `Board` (and the tables behind `EndgameTables`) sit
//! behind an object-safe trait implemented for each variant, chosen once
//! with `tempo::rules::with_rules!`.
//!
//! Errors: `ValueError` for a bad variant name, position, move or limit;
//! `OSError` (`FileNotFoundError` where a path does not exist) for files;
//! `RuntimeError` for an engine asked twice at once. Long calls (search,
//! perft, analysis) release the GIL.

mod analysis;
mod board;
mod engine;
mod tables;

use std::path::{Path, PathBuf};
use std::time::Duration;

use pyo3::exceptions::{PyFileNotFoundError, PyValueError};
use pyo3::prelude::*;
use tempo::rules::VariantKind;
use tempo::search::Limits;

/// How often a thread waiting for a search (with the GIL released) looks
/// for Python signals such as Ctrl-C.
pub(crate) const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Reads a variant name as tempo does (`international`, `normal`,
/// `brazilian`, ...); a name it does not know is a `ValueError`.
pub(crate) fn parse_variant(name: &str) -> PyResult<VariantKind> {
    VariantKind::parse(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown variant '{name}' (one of: {})",
            VariantKind::names()
        ))
    })
}

/// A `ValueError` carrying a message.
pub(crate) fn value_error(message: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(message.to_string())
}

/// `path` as given, or `FileNotFoundError` naming `what` when nothing is
/// there (`dir`: it must be a directory).
pub(crate) fn existing(path: PathBuf, what: &str, dir: bool) -> PyResult<PathBuf> {
    let found = if dir { path.is_dir() } else { path.is_file() };
    if found {
        Ok(path)
    } else {
        let kind = if dir { "directory" } else { "file" };
        Err(PyFileNotFoundError::new_err(format!(
            "{what}: no such {kind}: {}",
            Path::new(&path).display()
        )))
    }
}

/// The limits of a search from Python's keyword arguments (`movetime` in
/// seconds): a limit that is not positive is a `ValueError`.
pub(crate) fn search_limits(
    movetime: Option<f64>,
    depth: Option<u32>,
    nodes: Option<u64>,
) -> PyResult<Limits> {
    let move_time = movetime
        .map(|secs| {
            if secs.is_nan() || secs <= 0.0 {
                return Err(value_error(format!(
                    "movetime must be positive, not {secs}"
                )));
            }
            Duration::try_from_secs_f64(secs).map_err(value_error)
        })
        .transpose()?;
    if depth == Some(0) || nodes == Some(0) {
        return Err(value_error("depth and nodes must be at least 1"));
    }
    Ok(Limits {
        depth,
        nodes,
        move_time,
        ..Limits::default()
    })
}

/// The module `tempo._tempo`; `tempo/__init__.py` re-exports its names.
#[pymodule]
fn _tempo(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add(
        "VARIANTS",
        VariantKind::ALL
            .iter()
            .map(|k| k.name())
            .collect::<Vec<_>>(),
    )?;
    m.add_class::<board::Board>()?;
    m.add_class::<board::Move>()?;
    m.add_class::<board::DrawClocks>()?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<engine::SearchInfo>()?;
    m.add_class::<engine::SearchResult>()?;
    m.add_class::<analysis::Analysis>()?;
    m.add_class::<analysis::AnalysisRecord>()?;
    m.add_class::<analysis::AnalysisLine>()?;
    m.add_class::<tables::EndgameTables>()?;
    m.add_class::<tables::ProbeValue>()?;
    m.add_function(wrap_pyfunction!(analysis::analyse_pdn, m)?)?;
    Ok(())
}
