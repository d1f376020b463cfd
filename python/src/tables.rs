//! `EndgameTables`: the tables `tempo egdb build` writes, loaded for one
//! variant and probed with a `Board`; `Probe`, the value found.

use std::path::PathBuf;

use pyo3::exceptions::{PyFileNotFoundError, PyOSError};
use pyo3::prelude::*;
use tempo::egdb::{Egdb, EgdbError, Tables, Value};
use tempo::rules::{Erased, Rules};

use crate::board::Board;
use crate::{existing, parse_variant, value_error};

/// An endgame-table error as a Python exception.
fn egdb_error(e: EgdbError) -> PyErr {
    match e {
        EgdbError::Missing(_) => PyFileNotFoundError::new_err(e.to_string()),
        EgdbError::Io(..) => PyOSError::new_err(e.to_string()),
        _ => value_error(e),
    }
}

/// The endgame tables of one variant, read from a directory that
/// `tempo egdb build` filled.
///
/// `EndgameTables(path, variant="international", pieces=4)` loads the
/// tables of 2, 3, ... pieces up to `pieces`, or up to the last count whose
/// tables are all there (`loaded_pieces`). A missing directory, or one
/// without the 2-piece tables, is a `FileNotFoundError`; a variant the
/// tables do not cover (losing draughts, breakthrough) or a damaged file
/// is a `ValueError`.
#[pyclass(module = "tempo", frozen)]
pub struct EndgameTables {
    tables: Erased<Tables>,
    pieces: u32,
    path: PathBuf,
}

#[pymethods]
impl EndgameTables {
    #[new]
    #[pyo3(signature = (path, variant = "international", pieces = 4))]
    fn new(py: Python<'_>, path: PathBuf, variant: &str, pieces: u32) -> PyResult<EndgameTables> {
        let kind = parse_variant(variant)?;
        let path = existing(path, "egdb", true)?;
        fn load<R: Rules>(
            dir: &std::path::Path,
            pieces: u32,
        ) -> Result<(Erased<Tables>, u32), EgdbError> {
            let db = Egdb::<R>::load_available(dir, pieces)?;
            let loaded = db.pieces();
            Ok((Erased::new::<R>(db), loaded))
        }
        let (tables, loaded) = py
            .detach(|| tempo::rules::with_rules!(kind, R => load::<R>(&path, pieces)))
            .map_err(egdb_error)?;
        Ok(EndgameTables {
            tables,
            pieces: loaded,
            path,
        })
    }

    /// The most pieces a probe answers for (every table up to it loaded).
    #[getter]
    fn loaded_pieces(&self) -> u32 {
        self.pieces
    }

    /// The variant of the tables.
    #[getter]
    fn variant(&self) -> &'static str {
        self.tables.variant().name()
    }

    /// The value of the current position of `board` for its side to move,
    /// under perfect play and without the draw rules: a `Probe`, or `None`
    /// when the position has more pieces than the tables hold. A board of
    /// another variant is a `ValueError`.
    fn probe(&self, board: PyRef<'_, Board>) -> PyResult<Option<ProbeValue>> {
        if board.game.kind() != self.tables.variant() {
            return Err(value_error(format!(
                "these are {} tables; the board is {}",
                self.tables.variant().name(),
                board.game.kind().name()
            )));
        }
        fn typed<R: Rules>(tables: &Erased<Tables>, board: &Board) -> Option<Option<Value>> {
            let db = tables.get::<R>()?;
            let game = board.game.game::<R>()?;
            Some(db.probe(game.position()))
        }
        let value =
            tempo::rules::with_rules!(self.tables.variant(), R => typed::<R>(&self.tables, &board))
                .ok_or_else(|| value_error("the tables and the board do not match"))?;
        Ok(value.map(|v| match v {
            Value::Draw => ProbeValue {
                value: "draw",
                plies: None,
            },
            Value::Win(p) => ProbeValue {
                value: "win",
                plies: Some(p),
            },
            Value::Loss(p) => ProbeValue {
                value: "loss",
                plies: Some(p),
            },
        }))
    }

    fn __repr__(&self) -> String {
        format!(
            "EndgameTables('{}', variant='{}', loaded_pieces={})",
            self.path.display(),
            self.tables.variant().name(),
            self.pieces
        )
    }
}

/// The value of a position in the endgame tables, for the side to move.
#[pyclass(module = "tempo", name = "Probe", frozen, get_all, eq)]
#[derive(Clone, PartialEq)]
pub struct ProbeValue {
    /// `"win"`, `"loss"` or `"draw"`.
    value: &'static str,
    /// Plies to the end of the game when the winner plays fastest and the
    /// loser slowest (odd for a win, even for a loss); `None` for a draw.
    plies: Option<u32>,
}

#[pymethods]
impl ProbeValue {
    fn __repr__(&self) -> String {
        match self.plies {
            Some(p) => format!("Probe('{}', plies={p})", self.value),
            None => format!("Probe('{}')", self.value),
        }
    }
}
