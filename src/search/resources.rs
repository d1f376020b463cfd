//! What a search uses besides the position, the game and the table: the
//! evaluator (hand terms, pattern weights, a network where one is loaded),
//! the endgame tables and the spare buffers its workers reuse, as one typed
//! value, `SearchResources<R>`, loaded by one function from one set of
//! settings, `ResourceSettings`. The engine, `tempo analyse`, `tempo bench`,
//! `tempo selfplay` and the book builder all load theirs this way, so the
//! same settings give the same resources everywhere.
//!
//! The solved kings-only draws (`rules::draw::SolvedDraws`) are not a
//! setting: every search of a variant uses them, built once per process
//! by [`solved_draws`] before the first search of that variant starts.
//! The small endgame tables of the 8x8 variants ([`builtin_egdb`]) are
//! built the same way, where the settings ask for them.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use once_cell::sync::OnceCell;

use crate::egdb::{build_in_memory, Egdb, Tables};
use crate::eval::container::{contents_of, Contents};
use crate::eval::network::{builtin_network, read_network};
use crate::eval::patterns::{Layout, Patterns};
use crate::eval::{weights_file, Evaluator};
use crate::rules::draw::SolvedDraws;
use crate::rules::geometry::Geometry;
use crate::rules::{Erased, Rules, VariantKind};
use crate::search::worker::SparePool;

/// Endgame-table pieces loaded unless the settings say otherwise.
pub const DEFAULT_EGDB_PIECES: u32 = 4;
/// The most endgame-table pieces accepted.
pub const MAX_EGDB_PIECES: u32 = 8;

/// Pieces of the endgame tables the engine builds itself, in memory, for
/// a variant of 32 squares when no directory of tables is given: 41 slices
/// solved in about 3 s of one core (1.8 s on two), against 13 s on two for
/// 10x10, which therefore builds none.
pub const BUILTIN_EGDB_PIECES: u32 = 4;

/// What the evaluation adds to its hand terms.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum EvalSource {
    /// The pattern weights built into the binary for the variant, and the
    /// network built in beside them where one ships (International, Brazilian).
    #[default]
    Builtin,
    /// The built-in pattern weights alone, without the built-in network.
    BuiltinPatterns,
    /// A file written by `tempo train`: pattern weights, or a network
    /// (`--network`) fitted on top of the built-in weights, told apart
    /// by the file's first bytes.
    File(PathBuf),
    /// No patterns: the hand-written terms alone.
    HandTermsOnly,
}

impl EvalSource {
    /// The built-in evaluation, with its network (`network`) or without.
    pub fn builtin(network: bool) -> EvalSource {
        if network {
            EvalSource::Builtin
        } else {
            EvalSource::BuiltinPatterns
        }
    }
}

/// Where a search's resources come from, as a user gives them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceSettings {
    /// The pattern weights or network.
    pub eval: EvalSource,
    /// Directory of the endgame tables (`tempo egdb build`); `None`: none.
    pub egdb_path: Option<PathBuf>,
    /// The most pieces of the endgame tables loaded (the largest count
    /// whose tables are all on disk, up to this, is used).
    pub egdb_pieces: u32,
    /// Without `egdb_path` (or when its tables cannot be loaded): the
    /// tables of up to [`BUILTIN_EGDB_PIECES`] pieces that
    /// [`builtin_egdb`] builds in memory, where the variant has any.
    pub builtin_egdb: bool,
}

impl Default for ResourceSettings {
    /// The built-in weights and no endgame tables: what
    /// [`SearchResources::builtin`] holds. The engine and the tools that
    /// search turn `builtin_egdb` on unless told otherwise.
    fn default() -> Self {
        ResourceSettings {
            eval: EvalSource::Builtin,
            egdb_path: None,
            egdb_pieces: DEFAULT_EGDB_PIECES,
            builtin_egdb: false,
        }
    }
}

/// Why resources could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResourceError {
    /// The weights or network file cannot be used (the message names it).
    Eval(String),
    /// The endgame tables cannot be loaded (the message names the directory).
    Egdb(String),
}

impl fmt::Display for ResourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResourceError::Eval(why) | ResourceError::Egdb(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for ResourceError {}

/// The evaluator and endgame tables the searches of variant `R` use, and
/// the buffers their workers leave for the next ones: whoever runs
/// searches keeps its resources from one search to the next (a clone
/// shares the buffers).
#[derive(Clone)]
pub struct SearchResources<R: Rules> {
    /// What the static scores come from.
    pub evaluator: Evaluator,
    /// Endgame tables: a node within them scores their value.
    pub egdb: Option<Arc<Egdb<R>>>,
    /// The buffers of finished search workers, for the next searches run
    /// with these resources or a clone of them.
    pub(super) spares: Arc<SparePool>,
}

impl<R: Rules> fmt::Debug for SearchResources<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearchResources")
            .field("variant", &R::KIND)
            .field("egdb_pieces", &self.egdb.as_ref().map(|db| db.pieces()))
            .finish_non_exhaustive()
    }
}

impl<R: Rules> Default for SearchResources<R> {
    fn default() -> Self {
        SearchResources::builtin()
    }
}

impl<R: Rules> SearchResources<R> {
    /// Resources of `evaluator` and `egdb`, with a pool of spare buffers
    /// of their own.
    pub fn new(evaluator: Evaluator, egdb: Option<Arc<Egdb<R>>>) -> SearchResources<R> {
        SearchResources {
            evaluator,
            egdb,
            spares: Arc::default(),
        }
    }

    /// The built-in evaluation of `R` (patterns, and the network where
    /// one ships) and no endgame tables.
    pub fn builtin() -> SearchResources<R> {
        SearchResources::new(builtin_evaluator(R::KIND), None)
    }

    /// Loads what `settings` name for `R`: a weights file that cannot be
    /// read or holds another variant's weights, or an endgame directory
    /// without any complete set of tables, is an error.
    pub fn load(settings: &ResourceSettings) -> Result<SearchResources<R>, ResourceError> {
        let evaluator = load_evaluator(R::KIND, &settings.eval)?;
        let egdb = match &settings.egdb_path {
            None if settings.builtin_egdb => builtin_egdb::<R>(),
            None => None,
            Some(dir) => Some(Arc::new(load_egdb::<R>(dir, settings.egdb_pieces)?)),
        };
        Ok(SearchResources::new(evaluator, egdb))
    }

    /// Loads what `new` names, as [`SearchResources::load`] does, but keeps
    /// what `self` holds, loaded under `old`, where `new` names the same:
    /// the endgame tables (large, slow to read) for the same directory and
    /// pieces, the weights for the same source.
    pub fn reload(
        &self,
        old: &ResourceSettings,
        new: &ResourceSettings,
    ) -> Result<SearchResources<R>, ResourceError> {
        let evaluator = if new.eval == old.eval {
            self.evaluator.clone()
        } else {
            load_evaluator(R::KIND, &new.eval)?
        };
        let same_tables = new.egdb_path == old.egdb_path
            && new.egdb_pieces == old.egdb_pieces
            && new.builtin_egdb == old.builtin_egdb;
        let egdb = match &new.egdb_path {
            _ if same_tables => self.egdb.clone(),
            None if new.builtin_egdb => builtin_egdb::<R>(),
            None => None,
            Some(dir) => Some(Arc::new(load_egdb::<R>(dir, new.egdb_pieces)?)),
        };
        Ok(SearchResources {
            evaluator,
            egdb,
            spares: Arc::clone(&self.spares),
        })
    }

    /// The most pieces of the loaded endgame tables (0: none).
    pub fn egdb_pieces(&self) -> u32 {
        self.egdb.as_ref().map_or(0, |db| db.pieces())
    }

    /// A line saying which endgame tables were loaded under `settings`,
    /// and the command that builds the missing ones when fewer pieces than
    /// asked are all there; `None` without an endgame directory.
    pub fn egdb_note(&self, settings: &ResourceSettings) -> Option<String> {
        let dir = settings.egdb_path.as_ref()?;
        let pieces = self.egdb_pieces();
        let mut note = format!(
            "egdb: {} tables of up to {pieces} pieces loaded from {}",
            R::NAME,
            dir.display()
        );
        if pieces < settings.egdb_pieces {
            note.push_str(&format!(
                " (those of {} pieces are not all there: tempo egdb build --variant {} --pieces {} --dir {})",
                pieces + 1,
                R::NAME,
                settings.egdb_pieces,
                dir.display()
            ));
        }
        Some(note)
    }
}

/// The evaluator `source` names for variant `kind`.
pub fn load_evaluator(kind: VariantKind, source: &EvalSource) -> Result<Evaluator, ResourceError> {
    let patterns = match source {
        EvalSource::Builtin => return Ok(builtin_evaluator(kind)),
        EvalSource::BuiltinPatterns => weights_file::builtin(kind),
        EvalSource::File(path) if is_network_file(path) => {
            let network = read_network(path).map_err(|e| ResourceError::Eval(e.to_string()))?;
            return Evaluator::with_network(kind, weights_file::builtin(kind), Arc::new(network))
                .map_err(|why| ResourceError::Eval(format!("{}: {why}", path.display())));
        }
        EvalSource::File(path) => weights_file::read_file(kind, path)
            .map(Arc::new)
            .map_err(|e| ResourceError::Eval(e.to_string()))?,
        EvalSource::HandTermsOnly => {
            let layout =
                crate::rules::with_rules!(kind, R => Layout::w4x4::<<R as Rules>::Geometry>());
            Arc::new(Patterns::zero(layout))
        }
    };
    Ok(Evaluator::of_patterns(patterns))
}

/// The evaluation built into the binary for `kind`: the pattern weights,
/// and the network where one ships (put together once per process: the
/// check that the network was fitted on these patterns reads them all).
pub fn builtin_evaluator(kind: VariantKind) -> Evaluator {
    static BUILT: [OnceCell<Evaluator>; VariantKind::ALL.len()] =
        [const { OnceCell::new() }; VariantKind::ALL.len()];
    BUILT[kind.index()]
        .get_or_init(|| {
            let patterns = weights_file::builtin(kind);
            match builtin_network(kind) {
                Some(network) => Evaluator::with_network(kind, Arc::clone(&patterns), network)
                    .unwrap_or_else(|why| panic!("the built-in {kind} network: {why}")),
                None => Evaluator::of_patterns(patterns),
            }
        })
        .clone()
}

/// The variant whose evaluation the file at `path` holds: pattern
/// weights or a network.
pub fn eval_file_variant(path: &Path) -> Result<VariantKind, ResourceError> {
    let why = |e: &dyn std::fmt::Display| ResourceError::Eval(e.to_string());
    if is_network_file(path) {
        read_network(path).map(|n| n.variant).map_err(|e| why(&e))
    } else {
        weights_file::read_any(path)
            .map(|(kind, _)| kind)
            .map_err(|e| why(&e))
    }
}

/// Whether the file at `path` begins as a network file does (one that
/// cannot be read is left to the weights reader to report).
pub fn is_network_file(path: &Path) -> bool {
    contents_of(path) == Some(Contents::Network)
}

fn load_egdb<R: Rules>(dir: &Path, pieces: u32) -> Result<Egdb<R>, ResourceError> {
    Egdb::<R>::load_available(dir, pieces).map_err(|e| ResourceError::Egdb(e.to_string()))
}

/// The endgame tables of up to [`BUILTIN_EGDB_PIECES`] pieces of `R`,
/// built in memory on the first call of the process for `R` and shared
/// after, as [`solved_draws`] are (a call made during the build waits for
/// it, so no result depends on timing); `None` for a variant whose tables
/// the builder does not solve or that is not played on 32 squares. The
/// engine calls it ahead, off the protocol thread.
pub fn builtin_egdb<R: Rules>() -> Option<Arc<Egdb<R>>> {
    static TABLES: [OnceCell<Option<Erased<Tables>>>; VariantKind::ALL.len()] =
        [const { OnceCell::new() }; VariantKind::ALL.len()];
    let built = TABLES[R::KIND.index()].get_or_init(|| {
        if <R::Geometry as Geometry>::SQUARES != 32 || Egdb::<R>::supports().is_err() {
            return None;
        }
        let tables = build_in_memory::<R>(BUILTIN_EGDB_PIECES, &mut |_| {})
            .expect("the slices of 4 pieces of a supported variant build in memory");
        Some(Erased::new::<R>(tables))
    });
    built.as_ref().map(|tables| {
        tables
            .get_shared::<R>()
            .expect("a slot holds its own variant's tables")
    })
}

/// The solved kings-only draws of `R`, built on the first call of the
/// process for `R` (about 0.4 s on 10x10) and shared after: a call made
/// while another thread builds them waits for that build, so every caller
/// gets the complete table and no result depends on timing. `search` calls
/// it before its workers start; the engine calls it ahead, off the
/// protocol thread, so that no timed move waits.
pub fn solved_draws<R: Rules>() -> Arc<SolvedDraws> {
    static TABLES: [OnceCell<Arc<SolvedDraws>>; VariantKind::ALL.len()] =
        [const { OnceCell::new() }; VariantKind::ALL.len()];
    Arc::clone(TABLES[R::KIND.index()].get_or_init(|| Arc::new(SolvedDraws::build::<R>())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::International;
    use crate::search::{search, Control, Limits, SearchSetup, Table};

    /// Runs a search of `threads` threads to depth 4 with `resources`.
    fn run(resources: &SearchResources<International>, threads: usize) {
        let mut setup = SearchSetup::new(
            crate::rules::Position::<International>::start(),
            Limits {
                depth: Some(4),
                ..Limits::default()
            },
        );
        setup.threads = threads;
        setup.resources = resources.clone();
        search(&setup, &Table::new(1), &Control::new(false), &mut |_| {});
    }

    #[test]
    fn spare_buffers_stay_with_their_owner_and_never_outnumber_its_workers() {
        let ours = SearchResources::<International>::builtin();
        let theirs = SearchResources::<International>::builtin();
        run(&ours, 1);
        assert_eq!(ours.spares.len(), 1);
        for _ in 0..10 {
            run(&ours, 3);
        }
        // As many as the workers alive at once: up to 3 (a helper that
        // starts after another ended takes its buffers).
        let most = ours.spares.len();
        assert!((1..=3).contains(&most), "{most} spare buffers");
        run(&ours, 1);
        assert_eq!(ours.spares.len(), most, "a smaller search adds none");
        assert_eq!(theirs.spares.len(), 0, "another owner's pool is its own");
        let reloaded = ours
            .reload(&ResourceSettings::default(), &ResourceSettings::default())
            .unwrap();
        run(&reloaded, 1);
        assert_eq!(ours.spares.len(), most, "a reload shares the pool");
        let loaded = SearchResources::<International>::load(&ResourceSettings::default()).unwrap();
        assert_eq!(loaded.spares.len(), 0, "a load starts a pool of its own");
    }
}
