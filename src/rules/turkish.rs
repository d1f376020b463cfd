//! The move generator of Turkish draughts (`Rules::ORTHOGONAL_MOVES`), on
//! the full 8x8 board (`Board8Full`), following "Damas" (the Portuguese article on the game):
//!
//! - a man moves one square straight forward or sideways, never backward;
//!   it captures forward or sideways by jumping an adjacent enemy piece to
//!   the empty square right behind it;
//! - a king moves any distance along a row or file; it captures flying:
//!   over empty squares to one enemy piece and on to any empty square
//!   behind it;
//! - captured pieces leave the board one by one, as they are jumped, so a
//!   square may be crossed again and a piece is never jumped twice; a king
//!   may not turn back (180 degrees) between two jumps;
//! - capture is compulsory, and the capture of the most pieces must be
//!   chosen (men and kings count the same);
//! - a man that reaches the far row during a capture goes on capturing as a
//!   man if it can and is crowned when the move ends there
//!   (`protocol.md`, "Turkish draughts: the references and tempo").
//!
//! Two capture paths with the same start, end and captured pieces are one
//! move.

use super::geometry::{Geometry, Ortho};
use super::mv::{Move, MoveList};
use super::position::{Position, Side};
use super::square::{Bit, Bits};
use super::variant::Rules;

/// The direction a man of `side` moves forward in.
#[inline(always)]
const fn forward(side: Side) -> Ortho {
    match side {
        Side::White => Ortho::Up,
        Side::Black => Ortho::Down,
    }
}

/// The three directions a man of `side` moves and captures in.
#[inline(always)]
const fn man_dirs(side: Side) -> [Ortho; 3] {
    [forward(side), Ortho::Left, Ortho::Right]
}

/// Fills the legal moves of `pos` into `list` (cleared first).
pub(super) fn generate<R: Rules>(pos: &Position<R>, list: &mut MoveList) {
    generate_captures(pos, list);
    if list.is_empty() {
        generate_quiet(pos, list);
    }
}

/// Fills the captures of `pos` into `list` (cleared first): those that
/// take the most pieces.
pub(super) fn generate_captures<R: Rules>(pos: &Position<R>, list: &mut MoveList) {
    list.clear();
    let side = pos.side_to_move();
    let mut search = Captures {
        from: Bit::new(0),
        empty: pos.empty_squares(),
        opp: pos.pieces(side.opponent()),
        best: 1,
        list,
    };
    for man in Bits(man_capturers::<R>(pos, side)) {
        search.from = man;
        search.empty = pos.empty_squares() | man.mask();
        for d in man_dirs(side) {
            search.man_jump::<R>(man.mask(), 0, d, side);
        }
    }
    for king in Bits(pos.kings(side)) {
        search.from = king;
        search.empty = pos.empty_squares() | king.mask();
        search.king_jumps::<R>(king.mask(), 0, None);
    }
}

/// Fills the quiet moves of `pos` into `list` (cleared first): all its
/// legal moves when the side to move has no capture, which the caller knows.
pub(super) fn generate_quiet<R: Rules>(pos: &Position<R>, list: &mut MoveList) {
    list.clear();
    let side = pos.side_to_move();
    let empty = pos.empty_squares();
    for d in man_dirs(side) {
        for to in Bits(R::Geometry::ortho_step(pos.men(side), d) & empty) {
            list.push(Move::new(step_back::<R>(to, d), to, 0));
        }
    }
    for king in Bits(pos.kings(side)) {
        for d in Ortho::ALL {
            for to in Bits(R::Geometry::ortho_ray_walk(king.mask(), d, empty).0) {
                list.push(Move::new(king, to, 0));
            }
        }
    }
}

/// The number of legal moves of `pos`, counting quiet moves without
/// listing them. `list` is scratch space.
pub(super) fn count_moves<R: Rules>(pos: &Position<R>, list: &mut MoveList) -> u64 {
    let side = pos.side_to_move();
    if side_has_capture(pos, side) {
        generate_captures(pos, list);
        return list.len() as u64;
    }
    let empty = pos.empty_squares();
    let mut n = 0;
    for d in man_dirs(side) {
        n += (R::Geometry::ortho_step(pos.men(side), d) & empty).count_ones();
    }
    for king in Bits(pos.kings(side)) {
        for d in Ortho::ALL {
            n += R::Geometry::ortho_ray_walk(king.mask(), d, empty)
                .0
                .count_ones();
        }
    }
    u64::from(n)
}

/// Whether `side` could capture if it were to move in `pos`.
pub(super) fn side_has_capture<R: Rules>(pos: &Position<R>, side: Side) -> bool {
    if man_capturers::<R>(pos, side) != 0 {
        return true;
    }
    let empty = pos.empty_squares();
    let opp = pos.pieces(side.opponent());
    Bits(pos.kings(side)).any(|king| {
        Ortho::ALL.into_iter().any(|d| {
            let (_, stop) = R::Geometry::ortho_ray_walk(king.mask(), d, empty);
            R::Geometry::ortho_step(stop & opp, d) & empty != 0
        })
    })
}

/// The quiet move from `from` to `to` when it is legal in `pos` (the side
/// to move must have no capture, which is checked).
pub(super) fn legal_quiet_move<R: Rules>(pos: &Position<R>, from: Bit, to: Bit) -> Option<Move> {
    let side = pos.side_to_move();
    let empty = pos.empty_squares();
    if to.mask() & empty == 0 || side_has_capture(pos, side) {
        return None;
    }
    let reach = if pos.men(side) & from.mask() != 0 {
        man_dirs(side)
            .into_iter()
            .fold(0, |r, d| r | R::Geometry::ortho_step(from.mask(), d))
    } else if pos.kings(side) & from.mask() != 0 {
        Ortho::ALL.into_iter().fold(0, |r, d| {
            r | R::Geometry::ortho_ray_walk(from.mask(), d, empty).0
        })
    } else {
        0
    };
    (reach & to.mask() != 0).then(|| Move::new(from, to, 0))
}

/// The empty squares a man of the side to move can step onto.
pub(super) fn quiet_man_squares<R: Rules>(pos: &Position<R>) -> u64 {
    let side = pos.side_to_move();
    let men = pos.men(side);
    man_dirs(side).into_iter().fold(0, |r, d| {
        r | R::Geometry::ortho_step(men, d) & pos.empty_squares()
    })
}

/// Whether the side to move has a quiet move (called when it has no
/// capture).
pub(super) fn has_quiet_move<R: Rules>(pos: &Position<R>) -> bool {
    if quiet_man_squares(pos) != 0 {
        return true;
    }
    let kings = pos.kings(pos.side_to_move());
    let empty = pos.empty_squares();
    Ortho::ALL
        .into_iter()
        .any(|d| R::Geometry::ortho_step(kings, d) & empty != 0)
}

/// The men of `side` that can make a first jump.
#[inline]
fn man_capturers<R: Rules>(pos: &Position<R>, side: Side) -> u64 {
    let empty = pos.empty_squares();
    let opp = pos.pieces(side.opponent());
    man_dirs(side).into_iter().fold(0, |found, d| {
        let back = d.reverse();
        let over = R::Geometry::ortho_step(empty, back) & opp;
        found | R::Geometry::ortho_step(over, back) & pos.men(side)
    })
}

/// The square one step before `to` in `d`.
#[inline(always)]
fn step_back<R: Rules>(to: Bit, d: Ortho) -> Bit {
    Bit::lowest(R::Geometry::ortho_step(to.mask(), d.reverse()))
}

/// The state of one capture search: the piece that captures, the empty
/// squares before it started (its own square among them), the opponent's
/// pieces, and the most pieces taken by a capture found so far.
struct Captures<'a> {
    from: Bit,
    empty: u64,
    opp: u64,
    best: u32,
    list: &'a mut MoveList,
}

impl Captures<'_> {
    /// A man on `at`, having taken `captured` (removed from the board), jumps
    /// along `d` if it can and follows the capture to its ends.
    fn man_jump<R: Rules>(&mut self, at: u64, captured: u64, d: Ortho, side: Side) -> bool {
        let empty = self.empty | captured;
        let over = R::Geometry::ortho_step(at, d) & self.opp & !captured;
        let land = R::Geometry::ortho_step(over, d) & empty;
        if land == 0 {
            return false;
        }
        let captured = captured | over;
        let mut more = false;
        for next in man_dirs(side) {
            if next != d.reverse() {
                more |= self.man_jump::<R>(land, captured, next, side);
            }
        }
        if !more {
            self.finish(land, captured);
        }
        true
    }

    /// A king on `at`, having taken `captured` and last jumped along `last`,
    /// makes every next jump it can (not back along `last`), or ends there.
    fn king_jumps<R: Rules>(&mut self, at: u64, captured: u64, last: Option<Ortho>) {
        let empty = self.empty | captured;
        let mut more = false;
        for d in Ortho::ALL {
            if last == Some(d.reverse()) {
                continue;
            }
            let (_, target) = R::Geometry::ortho_ray_walk(at, d, empty);
            if target & self.opp & !captured == 0 {
                continue;
            }
            let landings = R::Geometry::ortho_ray_walk(target, d, empty | target).0;
            for land in Bits(landings) {
                more = true;
                self.king_jumps::<R>(land.mask(), captured | target, Some(d));
            }
        }
        if !more && captured != 0 {
            self.finish(at, captured);
        }
    }

    /// Records a complete capture ending on `to`: kept when it takes as
    /// many pieces as the best so far (which it replaces when it takes
    /// more), once for each end square and set of pieces taken.
    fn finish(&mut self, to: u64, captured: u64) {
        let count = captured.count_ones();
        if count < self.best {
            return;
        }
        if count > self.best {
            self.best = count;
            self.list.clear();
        }
        let mv = Move::new(self.from, Bit::lowest(to), captured);
        if !self.list.contains(mv) {
            self.list.push(mv);
        }
    }
}
