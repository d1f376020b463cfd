//! The command-line options that name a search's resources, shared by the
//! tools that search (`analyse`, `selfplay`, `book build`): one set of
//! flags, read into the one `ResourceSettings` the search loads from.

use std::path::PathBuf;

use clap::Args;

use crate::search::resources::{
    EvalSource, ResourceSettings, DEFAULT_EGDB_PIECES, MAX_EGDB_PIECES,
};
#[cfg(feature = "trainer")]
use crate::train::recipe::{file_entry, Recipe};

/// Where the searches' weights and endgame tables come from.
#[derive(Clone, Debug, Args)]
pub struct ResourceArgs {
    /// Pattern weights or a network written by `tempo train` [default:
    /// the built-in evaluation of the variant].
    #[arg(long = "eval-file", value_name = "FILE")]
    pub eval_file: Option<PathBuf>,
    /// Without --eval-file: add the network built in beside the pattern
    /// weights (International, Brazilian); false: the patterns alone.
    #[arg(long = "eval-network", value_name = "BOOL", default_value_t = true,
          action = clap::ArgAction::Set)]
    pub eval_network: bool,
    /// A directory of endgame tables built by `tempo egdb build` [default:
    /// none].
    #[arg(long = "egdb-path", value_name = "DIR")]
    pub egdb_path: Option<PathBuf>,
    /// The most pieces of the endgame tables loaded (the largest count
    /// whose tables are all in the directory, up to this, is used).
    #[arg(long = "egdb-pieces", value_name = "N", default_value_t = DEFAULT_EGDB_PIECES,
          value_parser = clap::value_parser!(u32).range(2..=MAX_EGDB_PIECES as i64))]
    pub egdb_pieces: u32,
    /// Without --egdb-path: the endgame tables of up to 4 pieces of the
    /// 8x8 variants, built in memory at the start (about 2 s); false: none.
    #[arg(long = "egdb-builtin", value_name = "BOOL", default_value_t = true,
          action = clap::ArgAction::Set)]
    pub egdb_builtin: bool,
}

impl ResourceArgs {
    /// The files and folders the flags name, each with its flag: inputs
    /// that no output of the command may replace.
    pub fn inputs(&self) -> Vec<(&'static str, &std::path::Path)> {
        [
            ("--eval-file", &self.eval_file),
            ("--egdb-path", &self.egdb_path),
        ]
        .into_iter()
        .filter_map(|(flag, path)| Some((flag, path.as_deref()?)))
        .collect()
    }

    #[cfg(feature = "trainer")]
    /// `recipe` with the evaluation and the endgame tables these flags
    /// give (`hand_eval`: the hand-written terms alone): a file by its name
    /// and checksum, so that the same file on another machine reads the
    /// same; the tables by the pieces `loaded`.
    pub fn recipe(&self, recipe: Recipe, hand_eval: bool, loaded_egdb_pieces: u32) -> Recipe {
        let eval = match &self.eval_file {
            _ if hand_eval => "hand-written terms".to_string(),
            // The file was loaded already: it can be read.
            Some(path) => file_entry(path).unwrap_or_else(|_| path.display().to_string()),
            None if self.eval_network => "built-in network".to_string(),
            None => "built-in patterns".to_string(),
        };
        recipe
            .with("eval", eval)
            .with("egdb-pieces", loaded_egdb_pieces)
    }

    /// The settings the flags name.
    pub fn settings(&self) -> ResourceSettings {
        ResourceSettings {
            eval: self
                .eval_file
                .clone()
                .map_or(EvalSource::builtin(self.eval_network), EvalSource::File),
            egdb_path: self.egdb_path.clone(),
            egdb_pieces: self.egdb_pieces,
            builtin_egdb: self.egdb_builtin,
        }
    }
}
