//! Learning the evaluation: self-play games that produce positions
//! labelled with results (`selfplay`), the file they are kept in (`data`),
//! and the fit of the pattern weights to them (`fit`).
//!
//! It uses `search` and `eval`; nothing but the command line uses it.

pub mod data;
pub mod fit;
pub mod selfplay;
