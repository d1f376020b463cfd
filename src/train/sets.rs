//! The training and held-out positions of a set of self-play data files:
//! which batches of games are held out, and each position once (see
//! `distinct`), the same for every fit.

use std::path::PathBuf;

use super::data::read_file;
use super::distinct::{distinct, Split};
use crate::rules::VariantKind;

/// The positions of some data files, split for a fit.
pub struct Loaded {
    /// The training and held-out positions, each once.
    pub split: Split,
    /// Games the files hold.
    pub games: u64,
    /// Said when the files hold fewer batches than the hold-out rule
    /// needs: what was held out instead.
    pub note: Option<String>,
}

/// Reads `files` (data of `kind`) and holds out every `hold_out`-th batch
/// of games (batch numbers `hold_out - 1`, `2 * hold_out - 1`, ...). With
/// fewer batches than that, the last batch is held out, or with a single
/// batch its last positions (the end of its last games, one in
/// `hold_out`). A position seen in both sets is fitted.
pub fn load(files: &[PathBuf], kind: VariantKind, hold_out: u32) -> Result<Loaded, String> {
    let hold_out = hold_out.max(2);
    let mut games = 0u64;
    let mut chunks = Vec::new();
    for file in files {
        for chunk in read_file(file, kind).map_err(|e| e.to_string())? {
            games += chunk.games as u64;
            chunks.push(chunk);
        }
    }
    let held = |batch: u32| batch % hold_out == hold_out - 1;
    let rule_holds_some = chunks.iter().any(|c| held(c.batch));
    let chunk_count = chunks.len();
    let last = chunk_count.saturating_sub(1);
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    for (i, chunk) in chunks.into_iter().enumerate() {
        if rule_holds_some {
            if held(chunk.batch) {
                valid.extend(chunk.records);
            } else {
                train.extend(chunk.records);
            }
        } else if last > 0 {
            if i == last {
                valid.extend(chunk.records);
            } else {
                train.extend(chunk.records);
            }
        } else {
            let n = chunk.records.len();
            let split = n - (n / hold_out as usize).max(1).min(n);
            valid.extend_from_slice(&chunk.records[split..]);
            train.extend_from_slice(&chunk.records[..split]);
        }
    }
    let note = (!rule_holds_some && chunk_count > 0).then(|| {
        format!(
            "{chunk_count} batches, fewer than --hold-out {hold_out}: holding out {}",
            if last > 0 {
                "the last batch"
            } else {
                "the last positions of the only batch"
            }
        )
    });
    Ok(Loaded {
        split: distinct(train, valid),
        games,
        note,
    })
}
