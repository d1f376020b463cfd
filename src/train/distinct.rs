//! De-duplicating the positions of self-play data before a fit: each
//! position once, labelled with the mean of the results and search scores
//! it was seen with, so that positions many games pass through (the early
//! ones) weigh as much as any other, and no held-out position is one the
//! fit has seen.

use rayon::prelude::*;

use super::data::Record;

/// A position with the mean labels of its occurrences.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Distinct {
    /// The position (its first occurrence's record, for the ply).
    pub record: Record,
    /// The mean game result for White, 0 (loss) to 1 (win).
    pub result: f32,
    /// The mean search score, White's view, hundredths of a man.
    pub score: f32,
    /// The occurrences merged.
    pub count: u32,
}

impl Distinct {
    /// One occurrence as it is.
    pub fn single(record: Record) -> Distinct {
        Distinct {
            record,
            result: (record.result as f32 + 1.0) / 2.0,
            score: record.score as f32,
            count: 1,
        }
    }
}

/// Training and held-out positions, each once.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Split {
    /// Positions to fit to.
    pub train: Vec<Distinct>,
    /// Held-out positions, none of them among `train`.
    pub valid: Vec<Distinct>,
    /// Records read, both sets.
    pub records: usize,
    /// Held-out positions that also occur in training games and were
    /// moved to the training set.
    pub moved_to_train: usize,
}

/// The identity of a position: pieces, kings and side to move.
fn identity(r: &Record) -> (u64, u64, u64, u8) {
    (r.white, r.black, r.kings, r.side.index() as u8)
}

/// Merges the records of each position into one [`Distinct`]. A position
/// that occurs in any training record is a training position (its
/// held-out occurrences included); the others stay held out.
pub fn distinct(train: Vec<Record>, valid: Vec<Record>) -> Split {
    let records = train.len() + valid.len();
    let mut all: Vec<(Record, bool)> = train
        .into_iter()
        .map(|r| (r, false))
        .chain(valid.into_iter().map(|r| (r, true)))
        .collect();
    // Training occurrences first within a position, so that the group's
    // first flag says whether any of them is a training one.
    all.par_sort_unstable_by_key(|(r, held)| (identity(r), *held, r.ply, r.score, r.result));
    let mut split = Split {
        records,
        ..Split::default()
    };
    for group in all.chunk_by(|a, b| identity(&a.0) == identity(&b.0)) {
        let n = group.len() as f32;
        let result = group
            .iter()
            .map(|(r, _)| (r.result as f32 + 1.0) / 2.0)
            .sum::<f32>()
            / n;
        let score = group.iter().map(|(r, _)| r.score as f32).sum::<f32>() / n;
        let merged = Distinct {
            record: group[0].0,
            result,
            score,
            count: group.len() as u32,
        };
        let in_training = !group[0].1;
        if in_training {
            split.moved_to_train += usize::from(group.iter().any(|(_, held)| *held));
            split.train.push(merged);
        } else {
            split.valid.push(merged);
        }
    }
    split
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{International, Position, Side};

    #[test]
    fn each_position_once_with_mean_labels_and_no_held_out_position_seen() {
        let start = Position::<International>::start();
        let a = Record::of(&start, 1, 40, 0);
        let a_again = Record::of(&start, -1, 20, 0);
        let a_black = Record::of(&start.with_side_to_move(Side::Black), 0, 0, 1);
        let next = start.play(start.legal_moves().as_slice()[0]);
        let b = Record::of(&next, 1, 10, 1);
        let c = Record::of(&next.with_side_to_move(Side::White), 0, -30, 2);
        let split = distinct(vec![a, a_black, b], vec![a_again, c, c]);
        assert_eq!(split.records, 6);
        assert_eq!(split.train.len(), 3);
        assert_eq!(split.moved_to_train, 1);
        let merged = split.train.iter().find(|d| d.record == a).unwrap();
        assert_eq!((merged.result, merged.score, merged.count), (0.5, 30.0, 2));
        assert_eq!(split.valid.len(), 1);
        assert_eq!(
            (
                split.valid[0].result,
                split.valid[0].score,
                split.valid[0].count
            ),
            (0.5, -30.0, 2)
        );
    }
}
