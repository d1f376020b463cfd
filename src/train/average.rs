//! The mean of fitted weight sets, entry by entry.
//!
//! Two fits of the same model on similar data land in different places of
//! a wide, flat minimum; each carries its own noise. Their mean keeps what
//! they agree on and halves what is noise, so it predicts held-out games
//! better than either (`benches/evaluation-patterns.md`, "The mean of two fits").

use crate::eval::patterns::Patterns;

/// The entry-by-entry mean of `sets`, each rounded to the nearest integer
/// (halves away from 0). The sets must share one layout (board and window
/// shape); the mean of fewer than two sets is refused as a likely mistake.
pub fn average(sets: &[&Patterns]) -> Result<Patterns, String> {
    let Some((first, rest)) = sets.split_first() else {
        return Err("no weight sets to average".to_string());
    };
    if rest.is_empty() {
        return Err("give at least two weight sets to average".to_string());
    }
    let layout = first.layout();
    if let Some((i, other)) = rest.iter().enumerate().find(|(_, p)| p.layout() != layout) {
        let (a, b) = (layout, other.layout());
        return Err(format!(
            "set {} has {:?} windows on a {}x{} board, set 1 {:?} windows on a {}x{} board: \
             average sets of one layout",
            i + 2,
            b.shape,
            b.rows,
            b.rows,
            a.shape,
            a.rows,
            a.rows
        ));
    }
    let count = sets.len() as i64;
    let raw = (0..first.raw().len())
        .map(|i| {
            let sum: i64 = sets.iter().map(|p| i64::from(p.raw()[i])).sum();
            // Rounded half away from 0, in integers: |sum| / count rounded
            // up at a half, with the sum's sign.
            let magnitude = (2 * sum.abs() + count) / (2 * count);
            (sum.signum() * magnitude) as i16
        })
        .collect();
    Patterns::from_raw(layout, raw)
}
