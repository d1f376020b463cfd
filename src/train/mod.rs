//! Learning the evaluation: self-play games that produce positions
//! labelled with results (`selfplay`), the file they are kept in (`data`),
//! the merge of the files of a sharded run into one (`merge`), the
//! positions each once (`distinct`), the endgame tables' values for those
//! within them (`exact`), the training and held-out sets of data files
//! (`sets`), the fit of the pattern weights to them (`pattern_fit`) and of a
//! network on top (`network_fit`), and the mean of fitted sets
//! (`average`).
//!
//! It uses `search`, `eval` and `egdb`; nothing but the command line uses
//! it.

pub mod average;
pub mod batches;
pub mod data;
pub mod distinct;
pub mod driver;
pub mod exact;
pub mod label;
pub mod merge;
pub mod network_fit;
pub mod pattern_fit;
pub mod recipe;
pub mod selfplay;
pub mod sets;
