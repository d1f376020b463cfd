//! The Hub protocol, version 2 (Scan 3.1, the Hub GUI, pydraughts).
//!
//! - `codec`: the pure part. Splits a line into a command and its
//!   arguments, reads the commands this engine knows into `HubCommand`,
//!   and formats every line the engine sends.
//! - `adapter`: the I/O loop. A reader thread feeds input lines to one
//!   loop that drives the engine and is the only writer of the output.
//! - `numbering`: the square numbering on the wire (pydraughts' in the
//!   variants where it is the only Hub client), translated at the edge.
//!
//! The dialect, its extensions and what happens to bad input are described
//! in `protocol.md` at the root of the repository.

pub mod adapter;
pub mod codec;
pub mod numbering;

pub use adapter::{run, serve, spawn_reader, Input};
pub use codec::{parse_command, CommandError, HubCommand, LevelUpdate};
pub use numbering::{Numbering, Wire};
