//! Layer 1 of the network kept from node to node: a search worker holds
//! an accumulator pair (one a view) for each ply, with the pieces it was
//! worked out for. A position evaluated at a ply starts from the pair
//! of that ply or of the ply above, whichever differs from it in fewer
//! pieces, and adds and takes the inputs that differ; with more than
//! the pieces on the board to change, it starts afresh. Any position
//! may start from any other, so the result never depends on which it
//! was: only the time does.

use super::{view, view_bitboards, Network};
use crate::rules::{Position, Rules, Side};

/// The pieces an accumulator pair was worked out for: white, black, kings.
type Pieces = (u64, u64, u64);

/// A search worker's accumulator pairs, one a ply.
#[derive(Clone, Debug, Default)]
pub struct Accumulators {
    hidden: usize,
    /// The pieces each ply's pair holds (`None`: nothing yet).
    held: Vec<Option<Pieces>>,
    /// The pairs, `[ply][view][hidden]`, White's view first.
    values: Vec<i16>,
    /// Layer 2's inputs.
    scratch: Vec<u8>,
}

impl Accumulators {
    /// Pairs for `plies` plies of a network with `hidden` units, empty.
    pub fn new(hidden: usize, plies: usize) -> Accumulators {
        Accumulators {
            hidden,
            held: vec![None; plies.max(1)],
            values: vec![0; plies.max(1) * 2 * hidden],
            scratch: vec![0; 2 * hidden],
        }
    }

    /// Whether the pairs fit a network with `hidden` units.
    pub fn fits(&self, hidden: usize) -> bool {
        self.hidden == hidden && !self.held.is_empty()
    }

    /// Forgets every pair (another network's, or none).
    pub fn clear(&mut self) {
        self.held.fill(None);
    }

    /// The network's score of `pos` (see [`Network::score`]), whose pair
    /// is kept at `ply`.
    pub fn score<R: Rules>(&mut self, net: &Network, pos: &Position<R>, ply: usize) -> i32 {
        debug_assert!(self.fits(net.hidden), "the pairs fit the network");
        let slot = ply.min(self.held.len() - 1);
        let now = (
            pos.pieces(Side::White),
            pos.pieces(Side::Black),
            pos.all_kings(),
        );
        if self.held[slot] != Some(now) {
            self.update::<R>(net, slot, now);
        }
        let pair = &self.values[slot * 2 * self.hidden..(slot + 1) * 2 * self.hidden];
        let (white, black) = pair.split_at(self.hidden);
        match pos.side_to_move() {
            Side::White => net.output(white, black, &mut self.scratch),
            Side::Black => net.output(black, white, &mut self.scratch),
        }
    }

    /// Works out the pair of `slot` for the pieces `now`.
    fn update<R: Rules>(&mut self, net: &Network, slot: usize, now: Pieces) {
        let changes = |held: Option<Pieces>| {
            held.map(|(w, b, k)| {
                ((w ^ now.0) | (b ^ now.1)).count_ones()
                    + ((k ^ now.2) & (now.0 | now.1)).count_ones()
            })
        };
        let fresh_cost = (now.0 | now.1).count_ones();
        let mut base = None;
        let mut best = fresh_cost;
        for candidate in [slot, slot.wrapping_sub(1)] {
            if let Some(cost) = self.held.get(candidate).copied().and_then(changes) {
                if cost < best {
                    best = cost;
                    base = Some(candidate);
                }
            }
        }
        let width = 2 * self.hidden;
        if let Some(from) = base.filter(|&from| from != slot) {
            self.values
                .copy_within(from * width..(from + 1) * width, slot * width);
        }
        let pair = &mut self.values[slot * width..(slot + 1) * width];
        let (white, black) = pair.split_at_mut(self.hidden);
        let old = base.and_then(|from| self.held[from]);
        for (acc, side) in [(white, Side::White), (black, Side::Black)] {
            let v = view::<R>(side);
            let new_planes = view_bitboards(now.0, now.1, now.2, v);
            let old_planes = match old {
                Some((w, b, k)) => view_bitboards(w, b, k, v),
                None => {
                    acc.copy_from_slice(&net.b1);
                    [0; 4]
                }
            };
            for (kind, (&was, &is)) in old_planes.iter().zip(&new_planes).enumerate() {
                let mut gone = was & !is;
                while gone != 0 {
                    net.remove_input(acc, kind * 64 + gone.trailing_zeros() as usize);
                    gone &= gone - 1;
                }
                let mut came = is & !was;
                while came != 0 {
                    net.add_input(acc, kind * 64 + came.trailing_zeros() as usize);
                    came &= came - 1;
                }
            }
        }
        self.held[slot] = Some(now);
    }
}
