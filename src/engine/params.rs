//! The engine's parameters: the table of what it declares (name, type,
//! range, current value, one line of help) and setting one by its name.
//! The draw-rule parameters have their own table in `draw_params`.

use std::path::PathBuf;
use std::sync::Arc;

use super::game_state::new_game_state;
use super::strength::{level_for_elo, LEVEL_ELO, MAX_LEVEL};
use super::vocabulary::{EngineError, Param, ParamKind};
use super::{
    draw_params, warming, EngineHost, MAX_BOOK_MARGIN, MAX_CONTEMPT, MAX_HASH_MIB, MAX_MULTIPV,
    MAX_THREADS,
};
use crate::book;
use crate::rules::VariantKind;
use crate::search::params::SEARCH_PARAMS;
use crate::search::resources::MAX_EGDB_PIECES;
use crate::search::tt::Table;

/// The largest `elo` accepted.
const MAX_ELO: usize = 4000;

/// The result of setting a parameter: the error says why not.
type Set = Result<(), String>;

/// What a parameter holds, and how a value read as such is set.
#[derive(Clone, Copy)]
enum Kind {
    /// A whole number within `min..=max`.
    Int {
        min: usize,
        max: usize,
        set: fn(&mut EngineHost, usize) -> Set,
    },
    /// `true` or `false` (also 1/0, on/off, yes/no).
    Bool(fn(&mut EngineHost, bool) -> Set),
    /// A file or directory name, trimmed; empty for none.
    Text(fn(&mut EngineHost, &str) -> Set),
    /// A variant, by any of its names.
    Variant(fn(&mut EngineHost, VariantKind) -> Set),
}

/// One parameter a player sets, declared once: its name, what it holds
/// and how it is set, its help, and how the engine shows its value.
struct Spec {
    name: &'static str,
    kind: Kind,
    help: fn() -> String,
    get: fn(&EngineHost) -> String,
}

/// Every parameter a player sets, in the order the engine declares them
/// (the draw rules' follow, from `draw_params`).
const SPECS: [Spec; 15] = [
    Spec {
        name: "variant",
        kind: Kind::Variant(|e, kind| {
            if kind != e.variant {
                e.variant = kind;
                e.warm_up();
                e.game = new_game_state(kind, e.draw_settings());
                e.clear_table();
                e.reload_resources();
            }
            Ok(())
        }),
        help: variant_help,
        get: |e| e.variant.hub_name().to_string(),
    },
    Spec {
        name: "threads",
        kind: Kind::Int {
            min: 1,
            max: MAX_THREADS,
            set: |e, n| assign(&mut e.options.threads, n),
        },
        help: || "search threads".to_string(),
        get: |e| e.options.threads.to_string(),
    },
    Spec {
        name: "hash",
        kind: Kind::Int {
            min: 1,
            max: MAX_HASH_MIB,
            set: EngineHost::resize_table,
        },
        help: || "transposition table size in MiB".to_string(),
        get: |e| e.options.hash_mib.to_string(),
    },
    Spec {
        name: "multipv",
        kind: Kind::Int {
            min: 1,
            max: MAX_MULTIPV,
            set: |e, n| assign(&mut e.options.multipv, n),
        },
        help: || "lines reported by go analyze".to_string(),
        get: |e| e.options.multipv.to_string(),
    },
    Spec {
        name: "book",
        kind: Kind::Bool(|e, on| assign(&mut e.options.book, on)),
        help: || "play book moves in go think and go ponder".to_string(),
        get: |e| e.options.book.to_string(),
    },
    Spec {
        name: "book-file",
        kind: Kind::Text(|e, path| {
            let kind = e.variant;
            e.book_files[kind] = if path.is_empty() {
                None
            } else {
                let book = book::read_file_for(kind, std::path::Path::new(path))
                    .map_err(|why| why.to_string())?;
                Some((path.to_string(), Arc::new(book)))
            };
            Ok(())
        }),
        help: || "opening book of this variant; empty = the shipped one".to_string(),
        get: |e| e.book_file().to_string(),
    },
    Spec {
        name: "eval-file",
        kind: Kind::Text(|e, path| {
            let file = (!path.is_empty()).then(|| PathBuf::from(path));
            // A file that cannot be used leaves the weights in use.
            let settings = e.resource_settings(file.as_ref());
            if let Some(note) = e
                .game
                .load_resources(&settings)
                .map_err(|why| why.to_string())?
            {
                e.note = Some(note);
            }
            e.eval_files[e.variant] = file;
            Ok(())
        }),
        help: || {
            "pattern weights or a network of this variant (tempo train); empty = the built-in ones"
                .to_string()
        },
        get: |e| e.eval_file(),
    },
    Spec {
        name: "eval-network",
        kind: Kind::Bool(|e, on| {
            if on != e.builtin_network {
                e.builtin_network = on;
                e.reload_resources();
            }
            Ok(())
        }),
        help: || {
            "with eval-file empty: add the network built in beside the patterns \
             (International and Brazilian); false = the patterns alone"
                .to_string()
        },
        get: |e| e.builtin_network.to_string(),
    },
    Spec {
        name: "egdb-path",
        kind: Kind::Text(|e, path| {
            e.egdb_path = path.to_string();
            e.reload_resources();
            Ok(())
        }),
        help: || {
            "directory of the endgame tables (tempo egdb build); empty = none (but see \
             egdb-builtin)"
                .to_string()
        },
        get: |e| e.egdb_path.clone(),
    },
    Spec {
        name: "egdb-pieces",
        kind: Kind::Int {
            min: 2,
            max: MAX_EGDB_PIECES as usize,
            set: |e, n| {
                let pieces = n as u32;
                if pieces != e.egdb_pieces {
                    e.egdb_pieces = pieces;
                    e.reload_resources();
                }
                Ok(())
            },
        },
        help: || "most pieces of the endgame tables loaded".to_string(),
        get: |e| e.egdb_pieces.to_string(),
    },
    Spec {
        name: "egdb-builtin",
        kind: Kind::Bool(|e, on| {
            if on != e.builtin_egdb {
                e.builtin_egdb = on;
                e.reload_resources();
            }
            Ok(())
        }),
        help: || {
            "with egdb-path empty: the endgame tables of up to 4 pieces of the 8x8 variants, \
             built in memory (about 2 s)"
                .to_string()
        },
        get: |e| e.builtin_egdb.to_string(),
    },
    Spec {
        name: "book-margin",
        kind: Kind::Int {
            min: 0,
            max: MAX_BOOK_MARGIN,
            set: |e, n| assign(&mut e.options.book_margin, n as u32),
        },
        help: || {
            "book moves this many hundredths of a man from the best may be played; 0 = the best"
                .to_string()
        },
        get: |e| e.options.book_margin.to_string(),
    },
    Spec {
        name: "level",
        kind: Kind::Int {
            min: 1,
            max: MAX_LEVEL as usize,
            set: |e, n| assign(&mut e.options.level, n as u32),
        },
        help: || {
            format!(
                "strength level: 1 = beginner .. {MAX_LEVEL} = full strength (go think and go ponder)"
            )
        },
        get: |e| e.options.level.to_string(),
    },
    Spec {
        name: "elo",
        kind: Kind::Int {
            min: 0,
            max: MAX_ELO,
            set: |e, n| {
                e.options.level = level_for_elo(n as u32);
                Ok(())
            },
        },
        help: || "approximate Elo to play at: sets the level measured nearest below it".to_string(),
        get: |e| LEVEL_ELO[e.options.level as usize - 1].to_string(),
    },
    Spec {
        name: "contempt",
        kind: Kind::Int {
            min: 0,
            max: MAX_CONTEMPT,
            set: |e, n| assign(&mut e.options.contempt, n),
        },
        help: || {
            "how much worse than equal a draw is, in hundredths of a man (not in go analyze)"
                .to_string()
        },
        get: |e| e.options.contempt.to_string(),
    },
];

impl Kind {
    /// The kind as the engine declares it.
    fn declared(self) -> ParamKind {
        match self {
            Kind::Int { min, max, .. } => ParamKind::Int {
                min: min as i64,
                max: max as i64,
            },
            Kind::Bool(_) => ParamKind::Bool,
            Kind::Text(_) => ParamKind::String,
            Kind::Variant(_) => ParamKind::Enum(
                VariantKind::ALL
                    .iter()
                    .map(|&k| k.hub_name().to_string())
                    .collect(),
            ),
        }
    }

    /// Reads `value` as this kind holds it and sets it on `engine`; the
    /// error says why not.
    fn set(self, engine: &mut EngineHost, value: &str) -> Set {
        let value = value.trim();
        match self {
            Kind::Int { min, max, set } => set(engine, whole_number(value, min, max)?),
            Kind::Bool(set) => match value.to_ascii_lowercase().as_str() {
                "true" | "1" | "on" | "yes" => set(engine, true),
                "false" | "0" | "off" | "no" => set(engine, false),
                _ => Err(format!("'{value}' is not true or false")),
            },
            Kind::Text(set) => set(engine, value),
            Kind::Variant(set) => match VariantKind::parse(value) {
                Some(kind) => set(engine, kind),
                None => Err(format!("unknown variant '{value}'")),
            },
        }
    }
}

/// Sets a field that any value of its range may take.
fn assign<T>(field: &mut T, value: T) -> Set {
    *field = value;
    Ok(())
}

/// `value` as a whole number within `min..=max`; the error says why not.
fn whole_number(value: &str, min: usize, max: usize) -> Result<usize, String> {
    let n: usize = value
        .trim()
        .parse()
        .map_err(|_| format!("'{}' is not a whole number", value.trim()))?;
    if n < min || n > max {
        return Err(format!("{n} is outside {min}..{max}"));
    }
    Ok(n)
}

impl EngineHost {
    /// Every parameter a player or a GUI sets, with its current value,
    /// `variant` first (the search's tuning parameters are in
    /// [`tuning_params`](EngineHost::tuning_params)).
    pub fn params(&self) -> Vec<Param> {
        let mut params: Vec<Param> = SPECS
            .iter()
            .map(|spec| Param {
                name: spec.name.to_string(),
                kind: spec.kind.declared(),
                value: (spec.get)(self),
                help: (spec.help)(),
            })
            .collect();
        params.extend(draw_params::params(&self.draw_settings()));
        params
    }

    /// The search's tuning parameters (`SearchParams`) with their current
    /// values: `set-param` takes them as it takes those of [`params`], for
    /// matches, `tempo tune` and tests, but the Hub `hub` answer does not
    /// declare them, so that a GUI shows a player only what a player sets.
    ///
    /// [`params`]: EngineHost::params
    pub fn tuning_params(&self) -> Vec<Param> {
        SEARCH_PARAMS
            .iter()
            .map(|t| Param {
                name: t.name.to_string(),
                kind: ParamKind::Int {
                    min: 0,
                    max: i64::from(t.max),
                },
                value: self
                    .options
                    .params
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
        let bad = |why: String| EngineError::BadValue {
            name: name.to_string(),
            why,
        };
        if let Some(spec) = SPECS.iter().find(|spec| spec.name == name) {
            return spec.kind.set(self, value).map_err(bad);
        }
        if let Some(technique) = SEARCH_PARAMS.iter().find(|t| t.name == name) {
            let n = whole_number(value, 0, technique.max as usize).map_err(bad)?;
            return self.options.params.set(name, n as u32).map_err(bad);
        }
        if name.starts_with("draw-") {
            let mut settings = self.draw_settings();
            draw_params::set(&mut settings, name, value).map_err(bad)?;
            self.game.set_draw_settings(settings.clone());
            self.draw[self.variant] = settings;
            return Ok(());
        }
        Err(EngineError::UnknownParam(name.to_string()))
    }

    /// Gives the table `mib` MiB: the old one is freed first (on a thread of
    /// its own: unmapping gigabytes takes a while); a table of the old size
    /// is kept when the new one cannot be had.
    fn resize_table(&mut self, mib: usize) -> Set {
        if mib == self.options.hash_mib {
            return Ok(());
        }
        let old = std::mem::replace(&mut self.table, Arc::new(Table::new(1)));
        let _ = std::thread::Builder::new()
            .name("table-free".to_string())
            .spawn(move || drop(old));
        match warming(mib) {
            Ok(table) => {
                self.table = table;
                self.options.hash_mib = mib;
                Ok(())
            }
            Err(why) => {
                self.table = Arc::new(Table::new(self.options.hash_mib));
                Err(why)
            }
        }
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
