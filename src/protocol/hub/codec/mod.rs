//! The pure Hub codec: lines in, typed commands out; engine values in,
//! lines out. No I/O, no threads, no engine state.
//!
//! Input syntax: `command arg=value arg="quoted value" flag ...`. Extra
//! whitespace means nothing; a quoted value runs to the next `"` (or, if
//! it opened with `'`, the next `'`: errors show quotes so) and may hold
//! spaces and `=`; there are no escapes. Unknown commands parse to
//! `None` and unknown arguments are skipped, as the protocol asks; a known
//! command that is malformed is a `CommandError` that says what is wrong.
//!
//! Output invariants, relied on by every client seen in the wild:
//! - every formatted line is a single line: no `\n`, `\r`, other control
//!   character or whitespace but the plain space, whatever text it echoes;
//! - every argument is `name=value` (no bare flags: pydraughts' `param`
//!   parser crashes on them); a value is quoted when it is empty or holds
//!   whitespace or `=`, and never contains `"` (echoed `"` become `'`);
//! - `done` puts `move=` first (pydraughts reads it by position).
//!
//! Nothing here panics on any input.
//!
//! Files: `tokens` splits a line into its words and arguments, `command`
//! reads the commands a GUI sends, `level` keeps the clock the `level` lines
//! give and writes one, `format` writes the lines the engine sends.

mod command;
mod format;
mod level;
mod tokens;

use std::time::Duration;

pub use command::{parse_command, CommandError, HubCommand, LevelUpdate};
pub use format::{format_done, format_error, format_id, format_info, format_note, format_param};
pub use level::{format_level, LevelState};
pub use tokens::{parse_args, split_command, value_of, Arg, SyntaxError};

/// Times above this many seconds are taken as this many (about 115 days):
/// a clock that large means "no hurry", and keeping it bounded keeps the
/// time arithmetic far from overflow.
pub const MAX_SECONDS: f64 = 1.0e7;

/// Thinking time for `go think` and `go ponder` when no `level` line has
/// set any limit.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);
