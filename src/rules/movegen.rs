//! Legal move generation for every variant, specialised per `Rules` type.
//!
//! Steps, per position:
//! 1. If any piece of the side to move can capture, only captures are legal
//!    (FMJD art. 4.1). Every capture sequence of every piece is followed to
//!    its end; captured pieces stay on the board until the sequence ends, so
//!    they block the way and may not be jumped twice, while empty squares
//!    (the mover's start square included) may be crossed again
//!    (Turkish strike, §4.7–4.11). Italian men never take kings; a Russian
//!    man reaching the far row goes on as a king (the move is `crowned`).
//! 2. The precedence rule keeps some sequences: under the majority rule the
//!    ones taking the most pieces (§4.13, kings count as one; equal ones are
//!    a free choice, §4.14); under the Italian rule the best by pieces, then
//!    a king capturing, then kings taken, then the earliest king taken;
//!    under free choice (Russian, English) every complete sequence.
//! 3. Sequences with the same from, to and captured set are one move.
//! 4. Otherwise men step one square forward and kings fly along diagonals
//!    (or step one square where kings are short).
//!
//! A flying king that jumps a piece may land on any empty square beyond it
//! (in Killer, where the last piece taken is a king, only on the first).
//! Carrying straight on from any of those landings reaches the same next
//! piece, so straight continuation is explored from the first landing only;
//! that removes the intermediate-landing duplicates without a search.

use std::marker::PhantomData;

use super::geometry::{Dir, Geometry, Ortho};
use super::mv::{Move, MoveList};
use super::position::{Position, Side};
use super::square::{Bit, Bits};
use super::turkish;
use super::variant::{CapturePrecedence, Goal, Rules};

/// The directions in which a side's men step forward.
#[inline(always)]
const fn forward(white: bool) -> [Dir; 2] {
    if white {
        Side::White.forward()
    } else {
        Side::Black.forward()
    }
}

/// A line a capture can follow: a diagonal, or a row or file where the
/// variant captures orthogonally. Generic code over both families keeps one
/// capture search; each call is specialised to one family.
trait Line: Copy {
    /// Whether the line is a diagonal (not a row or file).
    const DIAGONAL: bool;
    /// A code unique over both families, for comparing directions.
    fn code(self) -> u8;
    /// The direction pointing the other way.
    fn back(self) -> Self;
    /// The two directions of the same family at right angles.
    fn across(self) -> [Self; 2];
    /// One step along the line (masked by the caller to board squares).
    fn step<G: Geometry>(self, bb: u64) -> u64;
    /// The empty squares seen from `from` and the first occupied one.
    fn walk<G: Geometry>(self, from: u64, empty: u64) -> (u64, u64);
}

impl Line for Dir {
    const DIAGONAL: bool = true;
    #[inline(always)]
    fn code(self) -> u8 {
        self as u8
    }
    #[inline(always)]
    fn back(self) -> Dir {
        self.reverse()
    }
    #[inline(always)]
    fn across(self) -> [Dir; 2] {
        self.perpendicular()
    }
    #[inline(always)]
    fn step<G: Geometry>(self, bb: u64) -> u64 {
        G::step(bb, self)
    }
    #[inline(always)]
    fn walk<G: Geometry>(self, from: u64, empty: u64) -> (u64, u64) {
        G::ray_walk(from, self, empty)
    }
}

impl Line for Ortho {
    const DIAGONAL: bool = false;
    #[inline(always)]
    fn code(self) -> u8 {
        4 + self as u8
    }
    #[inline(always)]
    fn back(self) -> Ortho {
        self.reverse()
    }
    #[inline(always)]
    fn across(self) -> [Ortho; 2] {
        self.perpendicular()
    }
    #[inline(always)]
    fn step<G: Geometry>(self, bb: u64) -> u64 {
        G::ortho_step(bb, self)
    }
    #[inline(always)]
    fn walk<G: Geometry>(self, from: u64, empty: u64) -> (u64, u64) {
        G::ortho_ray_walk(from, self, empty)
    }
}

/// The pieces of the side to move, split for the generator.
#[derive(Clone, Copy)]
struct Sides {
    men: u64,
    kings: u64,
    /// The king that may not move quietly (Frisian king-move limit), or 0.
    frozen: u64,
    opp: u64,
    opp_kings: u64,
    empty: u64,
}

impl Sides {
    #[inline(always)]
    fn of<R: Rules>(pos: &Position<R>) -> Sides {
        let mut sides = Sides::for_side(pos, pos.side_to_move());
        if R::KING_MOVE_LIMIT != 0 {
            sides.frozen = pos.frozen_king();
        }
        sides
    }

    /// The pieces of `side`, with no king frozen (for capture tests only).
    #[inline(always)]
    fn for_side<R: Rules>(pos: &Position<R>, side: Side) -> Sides {
        Sides {
            men: pos.men(side),
            kings: pos.kings(side),
            frozen: 0,
            opp: pos.pieces(side.opponent()),
            opp_kings: pos.kings(side.opponent()),
            empty: pos.empty_squares(),
        }
    }

    /// The opponent pieces a man may take.
    #[inline(always)]
    fn man_targets<R: Rules>(&self) -> u64 {
        if R::MEN_CAPTURE_KINGS {
            self.opp
        } else {
            self.opp & !self.opp_kings
        }
    }
}

/// Fills the legal moves of `pos` into `list` (cleared first).
pub fn generate<R: Rules>(pos: &Position<R>, list: &mut MoveList) {
    if R::ORTHOGONAL_MOVES {
        return turkish::generate(pos, list);
    }
    list.clear();
    let sides = Sides::of(pos);
    match pos.side_to_move() {
        Side::White => generate_for::<R, true>(sides, list),
        Side::Black => generate_for::<R, false>(sides, list),
    }
}

/// Fills only the captures of `pos` into `list` (cleared first); empty when
/// the side to move cannot capture.
pub fn generate_captures<R: Rules>(pos: &Position<R>, list: &mut MoveList) {
    if R::ORTHOGONAL_MOVES {
        return turkish::generate_captures(pos, list);
    }
    list.clear();
    let sides = Sides::of(pos);
    match pos.side_to_move() {
        Side::White => captures::<R, true>(sides, list),
        Side::Black => captures::<R, false>(sides, list),
    }
}

/// Fills the quiet moves of `pos` into `list` (cleared first): all its
/// legal moves when the side to move has no capture, which the caller knows.
pub fn generate_quiet<R: Rules>(pos: &Position<R>, list: &mut MoveList) {
    if R::ORTHOGONAL_MOVES {
        return turkish::generate_quiet(pos, list);
    }
    list.clear();
    let sides = Sides::of(pos);
    match pos.side_to_move() {
        Side::White => quiet_moves::<R, true>(sides, list),
        Side::Black => quiet_moves::<R, false>(sides, list),
    }
}

/// The quiet move of the piece on `from` to `to`, when it is legal in `pos`:
/// the side to move has no capture, owns the piece, and the piece can step
/// (a man forward, a short king any way) or fly (a flying king over empty
/// squares) there. Lets a search try a remembered move before generating.
pub fn legal_quiet_move<R: Rules>(pos: &Position<R>, from: Bit, to: Bit) -> Option<Move> {
    if R::ORTHOGONAL_MOVES {
        return turkish::legal_quiet_move(pos, from, to);
    }
    let side = pos.side_to_move();
    let empty = pos.empty_squares();
    if to.mask() & empty == 0 || has_capture(pos) {
        return None;
    }
    let reach = if pos.men(side) & from.mask() != 0 {
        let [a, b] = forward(side == Side::White);
        R::Geometry::step(from.mask(), a) | R::Geometry::step(from.mask(), b)
    } else if pos.kings(side) & !pos.frozen_king() & from.mask() != 0 {
        Dir::ALL.iter().fold(0, |reach, &d| {
            reach | king_reach::<R>(from.mask(), empty, d)
        })
    } else {
        0
    };
    (reach & to.mask() != 0).then(|| Move::new(from, to, 0))
}

/// The empty squares a man of the side to move can step onto.
#[inline(always)]
pub fn man_step_squares<R: Rules>(pos: &Position<R>) -> u64 {
    if R::ORTHOGONAL_MOVES {
        return turkish::quiet_man_squares(pos);
    }
    let side = pos.side_to_move();
    let [a, b] = forward(side == Side::White);
    let men = pos.men(side);
    (R::Geometry::step(men, a) | R::Geometry::step(men, b)) & pos.empty_squares()
}

/// Whether the side to move has any quiet move (whatever its captures).
#[inline(always)]
pub fn has_quiet_move<R: Rules>(pos: &Position<R>) -> bool {
    if R::ORTHOGONAL_MOVES {
        return turkish::has_quiet_move(pos);
    }
    if man_step_squares(pos) != 0 {
        return true;
    }
    let empty = pos.empty_squares();
    let kings = pos.kings(pos.side_to_move()) & !pos.frozen_king();
    Dir::ALL
        .iter()
        .any(|&d| R::Geometry::step(kings, d) & empty != 0)
}

/// Whether the side to move must capture.
#[inline]
pub fn has_capture<R: Rules>(pos: &Position<R>) -> bool {
    side_has_capture(pos, pos.side_to_move())
}

/// Whether `side` could capture if it were to move in `pos` (for the side
/// not to move: whether it threatens a capture).
#[inline]
pub fn side_has_capture<R: Rules>(pos: &Position<R>, side: Side) -> bool {
    if R::ORTHOGONAL_MOVES {
        return turkish::side_has_capture(pos, side);
    }
    let sides = Sides::for_side(pos, side);
    // Where men capture backward too, the test is the same for both sides
    // (`sides` is already seen from `side`): one copy, and no branch on a
    // side that alternates down the search tree.
    if R::MEN_CAPTURE_BACKWARD || side == Side::White {
        can_capture::<R, true>(sides)
    } else {
        can_capture::<R, false>(sides)
    }
}

/// The number of legal moves of `pos`; counts quiet moves without listing
/// them (the leaf step of perft). `list` is scratch space.
#[inline(always)]
pub fn count_moves<R: Rules>(pos: &Position<R>, list: &mut MoveList) -> u64 {
    if R::ORTHOGONAL_MOVES {
        return turkish::count_moves(pos, list);
    }
    let sides = Sides::of(pos);
    match pos.side_to_move() {
        Side::White => count_for::<R, true>(sides, list),
        Side::Black => count_for::<R, false>(sides, list),
    }
}

#[inline(always)]
fn generate_for<R: Rules, const WHITE: bool>(s: Sides, list: &mut MoveList) {
    if can_capture::<R, WHITE>(s) {
        captures::<R, WHITE>(s, list);
    } else {
        quiet_moves::<R, WHITE>(s, list);
    }
}

#[inline(always)]
fn count_for<R: Rules, const WHITE: bool>(s: Sides, list: &mut MoveList) -> u64 {
    if can_capture::<R, WHITE>(s) {
        list.clear();
        captures::<R, WHITE>(s, list);
        return list.len() as u64;
    }
    let mut n = 0;
    for d in forward(WHITE) {
        n += (R::Geometry::step(s.men, d) & s.empty).count_ones();
    }
    let kings = s.kings & !s.frozen;
    if kings != 0 {
        for d in Dir::ALL {
            n += king_reach::<R>(kings, s.empty, d).count_ones();
        }
    }
    n as u64
}

/// Squares the given kings reach moving in `d` over empty squares. Rays of
/// different kings never overlap, so the count of set bits is the number of
/// king moves in that direction.
#[inline(always)]
fn king_reach<R: Rules>(kings: u64, empty: u64, d: Dir) -> u64 {
    if !R::FLYING_KINGS {
        return R::Geometry::step(kings, d) & empty;
    }
    let mut reach = 0;
    for king in Bits(kings) {
        reach |= R::Geometry::ray_walk(king.mask(), d, empty).0;
    }
    reach
}

/// The directions in which men may capture.
#[inline(always)]
fn man_capture_dirs<R: Rules, const WHITE: bool>() -> &'static [Dir] {
    if R::MEN_CAPTURE_BACKWARD {
        &Dir::ALL
    } else if WHITE {
        &[Dir::UpLeft, Dir::UpRight]
    } else {
        &[Dir::DownLeft, Dir::DownRight]
    }
}

#[inline(always)]
fn can_capture<R: Rules, const WHITE: bool>(s: Sides) -> bool {
    let man_targets = s.man_targets::<R>();
    for &d in man_capture_dirs::<R, WHITE>() {
        let targets = R::Geometry::step(s.men, d) & man_targets;
        if R::Geometry::step(targets, d) & s.empty != 0 {
            return true;
        }
    }
    if R::ORTHOGONAL_CAPTURES {
        for o in Ortho::ALL {
            let targets = R::Geometry::ortho_step(s.men, o) & man_targets;
            if R::Geometry::ortho_step(targets, o) & s.empty != 0 {
                return true;
            }
        }
    }
    if s.kings == 0 {
        return false;
    }
    if R::FLYING_KINGS {
        for king in Bits(s.kings) {
            for d in Dir::ALL {
                let (_, stop) = R::Geometry::ray_walk(king.mask(), d, s.empty);
                if R::Geometry::step(stop & s.opp, d) & s.empty != 0 {
                    return true;
                }
            }
            if R::ORTHOGONAL_CAPTURES {
                for o in Ortho::ALL {
                    let (_, stop) = R::Geometry::ortho_ray_walk(king.mask(), o, s.empty);
                    if R::Geometry::ortho_step(stop & s.opp, o) & s.empty != 0 {
                        return true;
                    }
                }
            }
        }
        return false;
    }
    for d in Dir::ALL {
        let targets = R::Geometry::step(s.kings, d) & s.opp;
        if R::Geometry::step(targets, d) & s.empty != 0 {
            return true;
        }
    }
    false
}

fn quiet_moves<R: Rules, const WHITE: bool>(s: Sides, list: &mut MoveList) {
    for d in forward(WHITE) {
        for to in Bits(R::Geometry::step(s.men, d) & s.empty) {
            list.push(Move::new(R::Geometry::step_origin(to, d), to, 0));
        }
    }
    for king in Bits(s.kings & !s.frozen) {
        for d in Dir::ALL {
            if !R::FLYING_KINGS {
                let to = R::Geometry::step(king.mask(), d) & s.empty;
                if to != 0 {
                    list.push(Move::new(king, Bit::lowest(to), 0));
                }
                continue;
            }
            // Nearest square first, as the search's move order expects.
            let mut reach = R::Geometry::ray_walk(king.mask(), d, s.empty).0;
            match d {
                Dir::UpLeft | Dir::UpRight => {
                    while reach != 0 {
                        let to = Bit::highest(reach);
                        list.push(Move::new(king, to, 0));
                        reach ^= to.mask();
                    }
                }
                Dir::DownLeft | Dir::DownRight => {
                    for to in Bits(reach) {
                        list.push(Move::new(king, to, 0));
                    }
                }
            }
        }
    }
}

fn captures<R: Rules, const WHITE: bool>(s: Sides, list: &mut MoveList) {
    let man_targets = s.man_targets::<R>();
    let mut gen = Captures::<R> {
        opp: s.opp,
        targets: man_targets,
        opp_kings: s.opp_kings,
        empty: s.empty,
        promotion_row: Position::<R>::promotion_row(if WHITE { Side::White } else { Side::Black }),
        from: Bit::new(0),
        king_moves: false,
        crowned: false,
        best: 0,
        list,
        rules: PhantomData,
    };
    let dirs = man_capture_dirs::<R, WHITE>();
    let mut capturers = 0;
    for &d in dirs {
        let back = d.reverse();
        let over = R::Geometry::step(s.empty, back) & man_targets;
        capturers |= R::Geometry::step(over, back) & s.men;
    }
    if R::ORTHOGONAL_CAPTURES {
        for o in Ortho::ALL {
            let back = o.reverse();
            let over = R::Geometry::ortho_step(s.empty, back) & man_targets;
            capturers |= R::Geometry::ortho_step(over, back) & s.men;
        }
    }
    for man in Bits(capturers) {
        gen.from = man;
        gen.empty = s.empty | man.mask();
        for &d in dirs {
            if gen.can_step_jump(man.mask(), 0, d) {
                gen.step_jump(man.mask(), 0, 0, d, dirs);
            }
        }
        if R::ORTHOGONAL_CAPTURES {
            for o in Ortho::ALL {
                if gen.can_step_jump(man.mask(), 0, o) {
                    gen.step_jump(man.mask(), 0, 0, o, dirs);
                }
            }
        }
    }
    gen.targets = s.opp;
    gen.king_moves = true;
    for king in Bits(s.kings) {
        gen.from = king;
        gen.empty = s.empty | king.mask();
        for d in Dir::ALL {
            if R::FLYING_KINGS {
                if gen.can_fly_jump(king.mask(), 0, d) {
                    gen.fly_jump(king.mask(), 0, d);
                }
            } else {
                gen.step_jump(king.mask(), 0, 0, d, &Dir::ALL);
            }
        }
        if R::ORTHOGONAL_CAPTURES {
            for o in Ortho::ALL {
                if gen.can_fly_jump(king.mask(), 0, o) {
                    gen.fly_jump(king.mask(), 0, o);
                }
            }
        }
    }
}

/// The state of a capture search for one moving piece.
struct Captures<'a, R: Rules> {
    /// Opponent pieces, captured ones included (they stay until the end).
    opp: u64,
    /// The opponent pieces the moving piece may take (Italian men: no kings).
    targets: u64,
    /// Opponent kings (for the Italian precedence and the Killer halt).
    opp_kings: u64,
    /// Empty squares, the mover's start square included.
    empty: u64,
    /// The row where the side's men are crowned.
    promotion_row: u64,
    /// Where the moving piece started.
    from: Bit,
    /// Whether the moving piece is a king.
    king_moves: bool,
    /// Whether the moving man has been crowned during this capture (Russian).
    crowned: bool,
    /// The precedence rank of the best sequence found so far.
    best: u32,
    list: &'a mut MoveList,
    rules: PhantomData<R>,
}

impl<R: Rules> Captures<'_, R> {
    /// The precedence rank of a sequence (greater is preferred, equal is a
    /// free choice). `order` has one bit per piece taken, the first taken
    /// highest, set where that piece was a king (only kept for Italian).
    #[inline(always)]
    fn rank(&self, captured: u64, order: u32) -> u32 {
        match R::PRECEDENCE {
            CapturePrecedence::Free => 0,
            CapturePrecedence::Majority => captured.count_ones(),
            CapturePrecedence::Italian => {
                captured.count_ones() << 24
                    | u32::from(self.king_moves) << 20
                    | (captured & self.opp_kings).count_ones() << 16
                    | order
            }
            CapturePrecedence::Value => {
                let kings = (captured & self.opp_kings).count_ones();
                let men = captured.count_ones() - kings;
                (199 * kings + 100 * men) << 1 | u32::from(self.king_moves)
            }
        }
    }

    /// Records a finished sequence ending on `to` (one bit).
    #[inline(always)]
    fn finish(&mut self, to: u64, captured: u64, order: u32) {
        if R::PRECEDENCE != CapturePrecedence::Free {
            let rank = self.rank(captured, order);
            if rank < self.best {
                return;
            }
            if rank > self.best {
                self.list.clear();
                self.best = rank;
            }
        }
        let mv = if R::PROMOTE_IN_CAPTURE && self.crowned {
            Move::crowning(self.from, Bit::lowest(to), captured)
        } else {
            Move::new(self.from, Bit::lowest(to), captured)
        };
        if captured.count_ones() >= 2 && self.list.contains(mv) {
            return;
        }
        self.list.push(mv);
    }

    /// A jump of a short-range piece from `at` over the neighbour in `d`;
    /// returns whether the jump exists (and then follows it to its ends).
    /// `dirs` are the diagonals the piece may capture along.
    fn step_jump<L: Line>(
        &mut self,
        at: u64,
        captured: u64,
        order: u32,
        d: L,
        dirs: &[Dir],
    ) -> bool {
        let over = d.step::<R::Geometry>(at) & self.targets & !captured;
        let land = d.step::<R::Geometry>(over) & self.empty;
        if land == 0 {
            return false;
        }
        let captured = captured | over;
        let order = if R::PRECEDENCE == CapturePrecedence::Italian {
            order << 1 | u32::from(over & self.opp_kings != 0)
        } else {
            0
        };
        if R::PROMOTE_IN_CAPTURE && !self.king_moves && land & self.promotion_row != 0 {
            self.crowned = true;
            let mut more = false;
            for next in Dir::ALL {
                more |= self.fly_jump(land, captured, next);
            }
            if !more {
                self.finish(land, captured, order);
            }
            self.crowned = false;
            return true;
        }
        let back = d.back().code();
        let mut more = false;
        for &next in dirs {
            // Checked here so that the common dead end costs no call.
            if next.code() != back && self.can_step_jump(land, captured, next) {
                more = true;
                self.step_jump(land, captured, order, next, dirs);
            }
        }
        if R::ORTHOGONAL_CAPTURES {
            for next in Ortho::ALL {
                if next.code() != back && self.can_step_jump(land, captured, next) {
                    more = true;
                    self.step_jump(land, captured, order, next, dirs);
                }
            }
        }
        if !more {
            self.finish(land, captured, order);
        }
        true
    }

    /// Whether a short-range piece on `at` can jump the neighbour in `d`.
    #[inline(always)]
    fn can_step_jump<L: Line>(&self, at: u64, captured: u64, d: L) -> bool {
        let over = d.step::<R::Geometry>(at) & self.targets & !captured;
        d.step::<R::Geometry>(over) & self.empty != 0
    }

    /// Whether a flying king on `at` can jump an uncaptured opponent piece
    /// along `d` (the first piece on the line, with an empty square behind).
    #[inline(always)]
    fn can_fly_jump<L: Line>(&self, at: u64, captured: u64, d: L) -> bool {
        let (_, target) = d.walk::<R::Geometry>(at, self.empty);
        d.step::<R::Geometry>(target & self.opp & !captured) & self.empty != 0
    }

    /// The jumps a flying king landed on `at` after moving along `d` can go
    /// on with, turning off its line: the two lines of its family at right
    /// angles and, where the variant captures orthogonally, every line of
    /// the other family. Returns whether there was one.
    #[inline(always)]
    fn fly_turns<L: Line>(&mut self, at: u64, captured: u64, d: L) -> bool {
        let mut more = false;
        for next in d.across() {
            if self.can_fly_jump(at, captured, next) {
                more |= self.fly_jump(at, captured, next);
            }
        }
        if R::ORTHOGONAL_CAPTURES {
            if L::DIAGONAL {
                for next in Ortho::ALL {
                    if self.can_fly_jump(at, captured, next) {
                        more |= self.fly_jump(at, captured, next);
                    }
                }
            } else {
                for next in Dir::ALL {
                    if self.can_fly_jump(at, captured, next) {
                        more |= self.fly_jump(at, captured, next);
                    }
                }
            }
        }
        more
    }

    /// A flying-king jump from `at` along `d`: over empty squares to the
    /// first piece, which must be an uncaptured opponent piece with an empty
    /// square behind it; returns whether the jump exists.
    fn fly_jump<L: Line>(&mut self, at: u64, captured: u64, d: L) -> bool {
        let (_, target) = d.walk::<R::Geometry>(at, self.empty);
        if target & self.opp & !captured == 0 {
            return false;
        }
        let mut land = d.step::<R::Geometry>(target) & self.empty;
        if land == 0 {
            return false;
        }
        let captured = captured | target;
        // The sequence may halt on this line only if it cannot go on from
        // any landing square (a capture must be completed). A jump is looked
        // for before the call: most landing squares have none.
        let mut more = self.can_fly_jump(land, captured, d) && self.fly_jump(land, captured, d);
        let first = land;
        while land != 0 {
            more |= self.fly_turns(land, captured, d);
            land = d.step::<R::Geometry>(land) & self.empty;
        }
        if !more {
            if R::HALT_BEHIND_KING && target & self.opp_kings != 0 {
                self.finish(first, captured, 0);
            } else {
                land = first;
                while land != 0 {
                    self.finish(land, captured, 0);
                    land = d.step::<R::Geometry>(land) & self.empty;
                }
            }
        }
        true
    }
}

impl<R: Rules> Position<R> {
    /// All legal moves, in a new list.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        generate(self, &mut list);
        list
    }

    /// Whether the side to move has at least one legal move.
    #[inline]
    pub fn has_legal_move(&self) -> bool {
        count_moves(self, &mut MoveList::new()) != 0
    }

    /// The winner if the game is over in this position by the variant's
    /// goal, `None` while it goes on (draw rules aside):
    /// - Normal: a side to move with no legal move loses (FMJD art. 7.2);
    /// - Losing: a side to move with no legal move wins;
    /// - FirstKing (Breakthrough): a side with a king has won; otherwise a
    ///   side to move with no legal move loses.
    pub fn winner(&self) -> Option<Side> {
        let side = self.side_to_move();
        if let Some(loser) = self.lone_piece_loser() {
            return Some(loser.opponent());
        }
        if R::GOAL == Goal::FirstKing {
            if self.kings(side.opponent()) != 0 {
                return Some(side.opponent());
            }
            if self.kings(side) != 0 {
                return Some(side);
            }
        }
        if self.has_legal_move() {
            return None;
        }
        Some(match R::GOAL {
            Goal::Losing => side,
            Goal::Normal | Goal::FirstKing => side.opponent(),
        })
    }

    /// Where a side left with one piece against a king has lost
    /// (`R::LONE_PIECE_LOSES`, Turkish): that side. A king against a king
    /// loses for neither.
    #[inline(always)]
    pub fn lone_piece_loser(&self) -> Option<Side> {
        if !R::LONE_PIECE_LOSES {
            return None;
        }
        let side = self.side_to_move();
        [side, side.opponent()].into_iter().find(|&s| {
            let (mine, theirs) = (self.pieces(s), self.pieces(s.opponent()));
            let king_v_king = mine & self.all_kings() != 0 && theirs.count_ones() == 1;
            mine.count_ones() == 1 && self.kings(s.opponent()) != 0 && !king_v_king
        })
    }

    /// Whether the game is over and the side to move has lost it.
    pub fn is_lost(&self) -> bool {
        self.winner() == Some(self.side_to_move().opponent())
    }

    /// Whether the game is over by the variant's goal (see [`Position::winner`]).
    pub fn is_over(&self) -> bool {
        self.winner().is_some()
    }
}
