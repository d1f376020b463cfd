//! Learning the evaluation: self-play games that produce positions
//! labelled with results (`selfplay`), the file they are kept in (`data`),
//! the merge of the files of a sharded run into one (`merge`), the
//! positions each once (`distinct`), the endgame tables' values for those
//! within them (`exact`), the training and held-out sets of data files
//! (`sets`), the fit of the pattern weights to them (`fit`) and of a
//! network on top (`network_fit`), and the mean of fitted sets
//! (`average`).
//!
//! It uses `search`, `eval` and `egdb`; nothing but the command line uses
//! it.

pub mod average;
pub mod batches;
pub mod data;
pub mod distinct;
pub mod exact;
pub mod fit;
pub mod label;
pub mod merge;
pub mod network_fit;
pub mod selfplay;
pub mod sets;

/// A splitmix64 generator: the seeded random plies of self-play and the
/// shuffles of a fit, the same on every machine.
struct SplitMix(u64);

impl SplitMix {
    /// The next number of the sequence.
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
