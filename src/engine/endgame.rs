//! The endgame databases the engine plays with: where their files are,
//! how many pieces to load, and the tables loaded for the variant in play.
//!
//! Tables load when the path, the piece count or the variant changes. The
//! largest piece count whose slices are all on disk is used; what was
//! loaded, or why nothing was, is said once, in a note before the next
//! search. Missing files never stop the engine: it plays without them.

use std::any::Any;
use std::path::Path;
use std::sync::Arc;

use crate::egdb::{Egdb, EgdbError};
use crate::rules::{Rules, VariantKind};

/// Pieces loaded unless the user says otherwise.
pub const DEFAULT_EGDB_PIECES: u32 = 4;
/// The most pieces `egdb-pieces` accepts.
pub const MAX_EGDB_PIECES: u32 = 8;

/// Tables of one variant, type-erased (an `Egdb<R>` inside).
pub(super) type AnyTables = Arc<dyn Any + Send + Sync>;

/// The engine's endgame databases.
pub(super) struct EndgameTables {
    path: String,
    pieces: u32,
    loaded: Option<AnyTables>,
    note: Option<String>,
}

impl EndgameTables {
    /// No path: no tables.
    pub fn new() -> EndgameTables {
        EndgameTables {
            path: String::new(),
            pieces: DEFAULT_EGDB_PIECES,
            loaded: None,
            note: None,
        }
    }

    /// The directory of the table files (empty: none).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The most pieces to load.
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// Sets the directory and loads the tables of `variant` from it.
    pub fn set_path(&mut self, path: &str, variant: VariantKind) {
        self.path = path.trim().to_string();
        self.reload(variant);
    }

    /// Sets the piece count and reloads.
    pub fn set_pieces(&mut self, pieces: u32, variant: VariantKind) {
        if pieces != self.pieces {
            self.pieces = pieces;
            self.reload(variant);
        }
    }

    /// Loads the tables of `variant` (after a change of variant).
    pub fn reload(&mut self, variant: VariantKind) {
        self.loaded = None;
        if self.path.is_empty() {
            self.note = None;
            return;
        }
        let dir = Path::new(&self.path);
        let loaded = crate::rules::with_rules!(variant, R => load::<R>(dir, self.pieces));
        self.note = Some(match loaded {
            Ok((tables, pieces)) => {
                self.loaded = Some(tables);
                let mut note = format!(
                    "egdb: {} tables of up to {pieces} pieces loaded from {}",
                    variant.name(),
                    self.path
                );
                if pieces < self.pieces {
                    note.push_str(&format!(
                        " (those of {} pieces are not all there: tempo egdb build --variant {} --pieces {} --dir {})",
                        pieces + 1,
                        variant.name(),
                        self.pieces,
                        self.path
                    ));
                }
                note
            }
            Err(e) => format!("egdb: {e}; playing without endgame tables"),
        });
    }

    /// The note about the last load, once.
    pub fn take_note(&mut self) -> Option<String> {
        self.note.take()
    }

    /// The loaded tables, if any.
    pub fn tables(&self) -> Option<AnyTables> {
        self.loaded.clone()
    }
}

fn load<R: Rules>(dir: &Path, pieces: u32) -> Result<(AnyTables, u32), EgdbError> {
    let db = Egdb::<R>::load_available(dir, pieces)?;
    let n = db.pieces();
    Ok((Arc::new(db), n))
}
