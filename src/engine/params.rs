//! The engine's parameters: the table of what it declares (name, type,
//! range, current value, one line of help) and setting one by its name.
//! The draw-rule parameters have their own table in `draw_params`.

use std::path::PathBuf;
use std::sync::Arc;

use super::game_state::new_game_state;
use super::strength::{level_for_elo, LEVEL_ELO, MAX_LEVEL};
use super::types::{EngineError, Param, ParamKind};
use super::{
    draw_params, warming, EngineHost, MAX_BOOK_MARGIN, MAX_CONTEMPT, MAX_HASH_MIB, MAX_MULTIPV,
    MAX_THREADS,
};
use crate::book;
use crate::rules::VariantKind;
use crate::search::resources::MAX_EGDB_PIECES;
use crate::search::techniques::TECHNIQUES;
use crate::search::tt::Table;

/// The largest `elo` accepted.
const MAX_ELO: usize = 4000;

impl EngineHost {
    /// Every parameter a player or a GUI sets, with its current value,
    /// `variant` first (the search's tuning parameters are in
    /// [`tuning_params`](EngineHost::tuning_params)).
    pub fn params(&self) -> Vec<Param> {
        let int = |name: &str, value: usize, min: usize, max: usize, help: &str| Param {
            name: name.to_string(),
            kind: ParamKind::Int {
                min: min as i64,
                max: max as i64,
            },
            value: value.to_string(),
            help: help.to_string(),
        };
        let mut params = vec![
            Param {
                name: "variant".to_string(),
                kind: ParamKind::Enum(
                    VariantKind::ALL
                        .iter()
                        .map(|&k| k.hub_name().to_string())
                        .collect(),
                ),
                value: self.variant.hub_name().to_string(),
                help: variant_help(),
            },
            int(
                "threads",
                self.options.threads,
                1,
                MAX_THREADS,
                "search threads",
            ),
            int(
                "hash",
                self.options.hash_mib,
                1,
                MAX_HASH_MIB,
                "transposition table size in MiB",
            ),
            int(
                "multipv",
                self.options.multipv,
                1,
                MAX_MULTIPV,
                "lines reported by go analyze",
            ),
            Param {
                name: "book".to_string(),
                kind: ParamKind::Bool,
                value: self.options.book.to_string(),
                help: "play book moves in go think and go ponder".to_string(),
            },
            Param {
                name: "book-file".to_string(),
                kind: ParamKind::String,
                value: self.book_file().to_string(),
                help: "opening book of this variant; empty = the shipped one".to_string(),
            },
            Param {
                name: "eval-file".to_string(),
                kind: ParamKind::String,
                value: self.eval_file(),
                help: "pattern weights or a network of this variant (tempo train); empty = the built-in ones"
                    .to_string(),
            },
            Param {
                name: "eval-network".to_string(),
                kind: ParamKind::Bool,
                value: self.builtin_network.to_string(),
                help: "with eval-file empty: add the network built in beside the patterns (International); false = the patterns alone".to_string(),
            },
            Param {
                name: "egdb-path".to_string(),
                kind: ParamKind::String,
                value: self.egdb_path.clone(),
                help: "directory of the endgame tables (tempo egdb build); empty = none (but see egdb-builtin)".to_string(),
            },
            int(
                "egdb-pieces",
                self.egdb_pieces as usize,
                2,
                MAX_EGDB_PIECES as usize,
                "most pieces of the endgame tables loaded",
            ),
            Param {
                name: "egdb-builtin".to_string(),
                kind: ParamKind::Bool,
                value: self.builtin_egdb.to_string(),
                help: "with egdb-path empty: the endgame tables of up to 4 pieces of the 8x8 variants, built in memory (about 2 s)".to_string(),
            },
            int(
                "book-margin",
                self.options.book_margin as usize,
                0,
                MAX_BOOK_MARGIN,
                "book moves this many hundredths of a man from the best may be played; 0 = the best",
            ),
            int(
                "level",
                self.options.level as usize,
                1,
                MAX_LEVEL as usize,
                &format!(
                    "strength level: 1 = beginner .. {MAX_LEVEL} = full strength (go think and go ponder)"
                ),
            ),
            int(
                "elo",
                LEVEL_ELO[self.options.level as usize - 1] as usize,
                0,
                MAX_ELO,
                "approximate Elo to play at: sets the level measured nearest below it",
            ),
            int(
                "contempt",
                self.options.contempt,
                0,
                MAX_CONTEMPT,
                "how much worse than equal a draw is, in hundredths of a man (not in go analyze)",
            ),
        ];
        params.extend(draw_params::params(&self.draw_settings()));
        params
    }

    /// The search's tuning parameters (`techniques`) with their current
    /// values: `set-param` takes them as it takes those of [`params`], for
    /// matches, `tempo tune` and tests, but the Hub `hub` answer does not
    /// declare them, so that a GUI shows a player only what a player sets.
    ///
    /// [`params`]: EngineHost::params
    pub fn tuning_params(&self) -> Vec<Param> {
        TECHNIQUES
            .iter()
            .map(|t| Param {
                name: t.name.to_string(),
                kind: ParamKind::Int {
                    min: 0,
                    max: i64::from(t.max),
                },
                value: self
                    .options
                    .techniques
                    .get(t.name)
                    .unwrap_or_default()
                    .to_string(),
                help: t.help.to_string(),
            })
            .collect()
    }

    /// Sets a parameter. Refused while a search runs. Changing the variant
    /// starts a new game from the variant's initial position.
    pub fn set_param(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.ensure_idle("change a parameter")?;
        let bad = |why: &str| EngineError::BadValue {
            name: name.to_string(),
            why: why.to_string(),
        };
        let number = |min: usize, max: usize| -> Result<usize, EngineError> {
            let n: usize = value
                .trim()
                .parse()
                .map_err(|_| bad(&format!("'{value}' is not a whole number")))?;
            if n < min || n > max {
                return Err(bad(&format!("{n} is outside {min}..{max}")));
            }
            Ok(n)
        };
        let boolean = || -> Result<bool, EngineError> {
            match value.trim().to_ascii_lowercase().as_str() {
                "true" | "1" | "on" | "yes" => Ok(true),
                "false" | "0" | "off" | "no" => Ok(false),
                _ => Err(bad(&format!("'{value}' is not true or false"))),
            }
        };
        match name {
            "variant" => {
                let kind = VariantKind::parse(value)
                    .ok_or_else(|| bad(&format!("unknown variant '{value}'")))?;
                if kind != self.variant {
                    self.variant = kind;
                    self.warm_up();
                    self.game = new_game_state(kind, self.draw_settings());
                    self.clear_table();
                    self.reload_resources();
                }
            }
            "threads" => self.options.threads = number(1, MAX_THREADS)?,
            "hash" => {
                let mib = number(1, MAX_HASH_MIB)?;
                if mib != self.options.hash_mib {
                    // Free the old table before allocating the new one (on a
                    // thread of its own: unmapping gigabytes takes a while);
                    // keep a table of the old size when the new one cannot
                    // be had.
                    let old = std::mem::replace(&mut self.table, Arc::new(Table::new(1)));
                    let _ = std::thread::Builder::new()
                        .name("table-free".to_string())
                        .spawn(move || drop(old));
                    match warming(mib) {
                        Ok(table) => {
                            self.table = table;
                            self.options.hash_mib = mib;
                        }
                        Err(why) => {
                            self.table = Arc::new(Table::new(self.options.hash_mib));
                            return Err(bad(&why));
                        }
                    }
                }
            }
            "multipv" => self.options.multipv = number(1, MAX_MULTIPV)?,
            "contempt" => self.options.contempt = number(0, MAX_CONTEMPT)?,
            "level" => self.options.level = number(1, MAX_LEVEL as usize)? as u32,
            "elo" => self.options.level = level_for_elo(number(0, MAX_ELO)? as u32),
            "book" => self.options.book = boolean()?,
            "eval-network" => {
                let on = boolean()?;
                if on != self.builtin_network {
                    self.builtin_network = on;
                    self.reload_resources();
                }
            }
            "egdb-builtin" => {
                let on = boolean()?;
                if on != self.builtin_egdb {
                    self.builtin_egdb = on;
                    self.reload_resources();
                }
            }
            "book-file" => {
                let path = value.trim();
                let kind = self.variant;
                if path.is_empty() {
                    self.book_files[kind] = None;
                } else {
                    let book = book::read_file_for(kind, std::path::Path::new(path))
                        .map_err(|e| bad(&e.to_string()))?;
                    self.book_files[kind] = Some((path.to_string(), Arc::new(book)));
                }
            }
            "egdb-path" => {
                self.egdb_path = value.trim().to_string();
                self.reload_resources();
            }
            "egdb-pieces" => {
                let pieces = number(2, MAX_EGDB_PIECES as usize)? as u32;
                if pieces != self.egdb_pieces {
                    self.egdb_pieces = pieces;
                    self.reload_resources();
                }
            }
            "book-margin" => self.options.book_margin = number(0, MAX_BOOK_MARGIN)? as u32,
            "eval-file" => {
                let path = value.trim();
                let kind = self.variant;
                let file = (!path.is_empty()).then(|| PathBuf::from(path));
                // A file that cannot be used leaves the weights in use.
                let settings = self.resource_settings(file.as_ref());
                if let Some(note) = self
                    .game
                    .load_resources(&settings)
                    .map_err(|e| bad(&e.to_string()))?
                {
                    self.note = Some(note);
                }
                self.eval_files[kind] = file;
            }
            _ if TECHNIQUES.iter().any(|t| t.name == name) => {
                let max = TECHNIQUES
                    .iter()
                    .find(|t| t.name == name)
                    .map_or(0, |t| t.max);
                let n = number(0, max as usize)? as u32;
                self.options
                    .techniques
                    .set(name, n)
                    .map_err(|why| bad(&why))?;
            }
            _ if name.starts_with("draw-") => {
                let mut settings = self.draw_settings();
                draw_params::set(&mut settings, name, value).map_err(|why| bad(&why))?;
                self.game.set_draw_settings(settings.clone());
                self.draw[self.variant] = settings;
            }
            _ => return Err(EngineError::UnknownParam(name.to_string())),
        }
        Ok(())
    }
}

/// The help of the `variant` parameter: every Hub name, with the
/// command-line name where it differs.
fn variant_help() -> String {
    let names: Vec<String> = VariantKind::ALL
        .iter()
        .map(|&k| match k.hub_name() {
            hub if hub == k.name() => hub.to_string(),
            hub => format!("{hub} = {}", k.name()),
        })
        .collect();
    format!("the variant played: {}", names.join(", "))
}
