//! Draw rules: the per-variant settings, the clocks a game or a search
//! carries from position to position, the repetition count, and an exact
//! "certain draw" test for the evaluation.
//!
//! Units: settings count moves *of each side* (one "move" here is a move by
//! each player, 2 plies); clocks count plies. A rule whose setting is `n`
//! draws the game once its clock has reached `2 n` plies.
//!
//! The rules (FMJD art. 6 for International, the CBD's for Brazilian):
//! - repetition: the same position with the same side to move occurs for the
//!   `repetitions`-th time (checked by the caller with [`occurrences`]);
//! - king moves: `king_moves` successive moves by each side made with kings
//!   only, no capture and no man moved; its clock is the number of plies
//!   since the last man move or capture;
//! - short endgame (the "5-move rule") and long endgame (the "10-move
//!   rule"): once the material of the rule's class first arises, the game is
//!   drawn after `short_endgame_moves` / `long_endgame_moves` moves of each
//!   side. Man moves and captures inside the class do not reset these clocks.
//!
//! Material classes (all in `classify`, the only place that knows them):
//!
//! ```text
//!              short endgame                      long endgame
//! International {K, 2K, K+M} v K                 {3K, 2K+M, K+2M} v K
//!  and Killer
//! Brazilian     K v K, K v K+M, 2K v K,           {3K, 2K+M, K+2M} v K
//!               2K v K+M, 2K v 2K
//! Russian       {K, 2K, K+M} v K; 3 pieces with   3 or more kings v K
//!               a king v K on the main road a1-h8
//!               (none of the 3 on it)
//! Frisian,      K v K                              2K v K
//!  Frysk!
//! Turkish       K v K                              none
//! others        none                               none
//! ```
//!
//! Thresholds (settings, in moves of each side):
//!
//! ```text
//!                     repetitions  king moves  short  long   source
//! International/Killer     3           25         5    10    FMJD art. 6
//! Brazilian                3           20         5    20    CBD rules
//! Russian                  3           15         5    15    Russian practice (pydraughts)
//! English, Italian         3           40         -     -    common practice
//! Losing (both boards)     3            -         -     -    common practice
//! Breakthrough             3            -         -     -    common practice
//! Frisian, Frysk!          3            -         2     7    Frisian rules
//! Turkish                  3            -         2     -    tempo's choice
//! ```
//!
//! Frisian (as lidraughts and pydraughts play it): two kings against one
//! draw after 7 moves of each side, one king against one after 2. The
//! lidraughts and pydraughts Frisian has no repetition rule; tempo keeps
//! the three-fold repetition there too, so that a game of kings alone
//! (where neither count applies, e.g. three kings against one) ends.
//!
//! Decisions:
//! - Class change: when a capture (or a promotion) takes the material from
//!   the long class into the short class, the short clock starts at 0 and
//!   the long clock keeps running, so whichever limit comes first governs
//!   (e.g. 3K v K for 16 plies, then 2K v K: drawn 4 plies later by the long
//!   clock, not 10 plies later). Material outside every class stops both
//!   clocks; a class reached again later starts its clock afresh.
//! - A win on the last allowed move is a win: a side to move with no legal
//!   move has lost before any draw rule is looked at. [`DrawClocks::verdict`]
//!   never generates moves, so its caller checks for a lost position first
//!   (`Game::result` does; the search does so when it generates moves).
//! - When several rules are reached at the same ply, the reported reason is
//!   the first of: short endgame, long endgame, king moves (the repetition
//!   check of the caller comes before all three).
//!
//! In a search: carry a [`DrawClocks`] with each position (`after` is O(1):
//! popcounts only); a node whose `verdict` is `Some` and whose side to move
//! has a legal move is a draw; a position that recurs in the search path or
//! the game history (look back at most `reversible_plies` plies) may be
//! scored as a draw at its first recurrence. The clocks only change the
//! result when [`DrawClocks::plies_until_draw`] is within the search horizon,
//! so only then do they need to enter the hash key.

mod solved;

pub use solved::SolvedDraws;

use std::fmt;

use super::geometry::Geometry;
use super::mv::Move;
use super::position::{Position, Side};
use super::variant::{Rules, VariantKind};

/// Why a game was drawn by rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The same position with the same side to move occurred
    /// `repetitions` times (FMJD art. 6.1).
    Repetition,
    /// `king_moves` successive moves by each side with kings only, no
    /// capture, no man moved (FMJD art. 6.2).
    KingMoves,
    /// The short-endgame ("5-move") rule (FMJD art. 6.4).
    ShortEndgame,
    /// The long-endgame ("10-move") rule (FMJD art. 6.3).
    LongEndgame,
}

impl DrawReason {
    /// The reason as `tempo game` prints it: `repetition`, `king-moves`,
    /// `5-move` or `10-move` (the names of the rules, whatever their
    /// thresholds are set to).
    pub const fn name(self) -> &'static str {
        match self {
            DrawReason::Repetition => "repetition",
            DrawReason::KingMoves => "king-moves",
            DrawReason::ShortEndgame => "5-move",
            DrawReason::LongEndgame => "10-move",
        }
    }
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The draw-rule thresholds of one variant. Every threshold of the rules
/// lives here, none in code.
///
/// Each field lies in `0..=MAX_MOVES`, `repetitions` from
/// `MIN_REPETITIONS`. The fields are not checked here: what sets them from
/// outside input (the engine's draw parameters) keeps them in range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawSettings {
    /// Occurrences of one position (same side to move) that draw the game.
    pub repetitions: u32,
    /// Moves of each side with kings only (no capture, no man moved) that
    /// draw the game; 0 turns the rule off.
    pub king_moves: u32,
    /// Moves of each side after the short-endgame material arises; 0 turns
    /// the rule off.
    pub short_endgame_moves: u32,
    /// Moves of each side after the long-endgame material arises; 0 turns
    /// the rule off.
    pub long_endgame_moves: u32,
}

impl DrawSettings {
    /// The largest threshold in moves; keeps every clock limit (2 plies per
    /// move) far inside the `u16` clocks.
    pub const MAX_MOVES: u32 = 1000;
    /// The fewest occurrences a repetition draw can ask for (a position
    /// that occurred once has not been repeated).
    pub const MIN_REPETITIONS: u32 = 2;

    /// The defaults of a variant (the table of the module docs).
    pub fn for_variant(kind: VariantKind) -> DrawSettings {
        let rules = |king_moves, short_endgame_moves, long_endgame_moves| DrawSettings {
            repetitions: 3,
            king_moves,
            short_endgame_moves,
            long_endgame_moves,
        };
        match kind {
            VariantKind::International | VariantKind::Killer => rules(25, 5, 10),
            VariantKind::Brazilian => rules(20, 5, 20),
            VariantKind::Russian => rules(15, 5, 15),
            VariantKind::English | VariantKind::Italian => rules(40, 0, 0),
            VariantKind::Losing | VariantKind::LosingBrazilian | VariantKind::Breakthrough => {
                rules(0, 0, 0)
            }
            VariantKind::Turkish => rules(0, 2, 0),
            VariantKind::Frisian | VariantKind::Frysk => rules(0, 2, 7),
        }
    }
}

/// Which endgame clock the material of a position runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EndgameClass {
    /// No endgame rule applies.
    Open,
    /// The short-endgame ("5-move") material.
    Short,
    /// The long-endgame ("10-move") material.
    Long,
}

/// One side's material.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Material {
    kings: u32,
    men: u32,
}

impl Material {
    const KING: Material = Material { kings: 1, men: 0 };
    const TWO_KINGS: Material = Material { kings: 2, men: 0 };
    const KING_MAN: Material = Material { kings: 1, men: 1 };

    fn of<R: Rules>(pos: &Position<R>, side: Side) -> Material {
        Material {
            kings: pos.kings(side).count_ones(),
            men: pos.men(side).count_ones(),
        }
    }

    /// At most `pieces` pieces, at least one of them a king.
    fn king_and_at_most(self, pieces: u32) -> bool {
        self.kings >= 1 && self.kings + self.men <= pieces
    }

    /// Exactly three pieces, at least one of them a king: 3K, 2K+M, K+2M.
    fn three_with_a_king(self) -> bool {
        self.kings >= 1 && self.kings + self.men == 3
    }
}

/// The endgame class of the material of `pos`: the one place that knows
/// each variant's classes (see the module table).
#[inline]
fn classify<R: Rules>(pos: &Position<R>) -> EndgameClass {
    // Every class has at most four pieces on the board, but the Russian
    // kings against a lone king.
    if pos.occupied().count_ones() > 4
        && (R::KIND != VariantKind::Russian
            || (pos.pieces(Side::White).count_ones() != 1
                && pos.pieces(Side::Black).count_ones() != 1))
    {
        return EndgameClass::Open;
    }
    let white = Material::of(pos, Side::White);
    let black = Material::of(pos, Side::Black);
    if R::KIND == VariantKind::Russian && guards_main_road(pos, white, black) {
        return EndgameClass::Short;
    }
    class_of(R::KIND, white, black)
}

/// Russian: a lone king on the main road (a1-h8) against three pieces with
/// a king, none of them on the road (Russian practice (pydraughts)).
fn guards_main_road<R: Rules>(pos: &Position<R>, white: Material, black: Material) -> bool {
    let road = main_road::<R>();
    let lone_on_road = |lone: Side, strong: Material| {
        Material::of(pos, lone) == Material::KING
            && strong.three_with_a_king()
            && pos.pieces(lone) & road != 0
            && pos.pieces(lone.opponent()) & road == 0
    };
    lone_on_road(Side::White, black) || lone_on_road(Side::Black, white)
}

/// The bits of the long diagonal from a1 (White's left corner) to the far
/// corner.
fn main_road<R: Rules>() -> u64 {
    let rows = <R::Geometry as Geometry>::ROWS;
    (0..rows)
        .filter_map(|row| <R::Geometry as Geometry>::from_row_file(row, rows - 1 - row))
        .map(|sq| <R::Geometry as Geometry>::bit(sq).mask())
        .fold(0, |road, bit| road | bit)
}

fn class_of(kind: VariantKind, a: Material, b: Material) -> EndgameClass {
    let lone_king_against = |strong: fn(Material) -> bool| {
        (b == Material::KING && strong(a)) || (a == Material::KING && strong(b))
    };
    match kind {
        VariantKind::International | VariantKind::Killer => {
            // Seed 000 §6.4: two kings, a king and a man, or a king v a king.
            if lone_king_against(|m| m.king_and_at_most(2)) {
                EndgameClass::Short
            // Seed 000 §6.3: three kings, two kings and a man, or a king
            // and two men v a king.
            } else if lone_king_against(Material::three_with_a_king) {
                EndgameClass::Long
            } else {
                EndgameClass::Open
            }
        }
        VariantKind::Brazilian => {
            // the Brazilian rules ("Finais de"): K v K, K v K+M, 2K v K,
            // 2K v K+M, 2K v 2K; K+M v K+M is not in the list.
            let small = |m: Material| {
                m == Material::KING || m == Material::TWO_KINGS || m == Material::KING_MAN
            };
            if small(a) && small(b) && !(a == Material::KING_MAN && b == Material::KING_MAN) {
                EndgameClass::Short
            // "Damas" (the Portuguese article on the game): three kings, or that much material with
            // a king, v a king.
            } else if lone_king_against(Material::three_with_a_king) {
                EndgameClass::Long
            } else {
                EndgameClass::Open
            }
        }
        VariantKind::Russian => {
            // Russian practice (pydraughts): two pieces with a king (or a king) v a king
            // in 5 moves; three or more kings v a king in 15.
            if lone_king_against(|m| m.king_and_at_most(2)) {
                EndgameClass::Short
            } else if lone_king_against(|m| m.kings >= 3 && m.men == 0) {
                EndgameClass::Long
            } else {
                EndgameClass::Open
            }
        }
        VariantKind::Turkish => {
            // A king against a king: drawn after two moves of each side
            // (any other single piece against a king has lost already).
            if a == Material::KING && b == Material::KING {
                EndgameClass::Short
            } else {
                EndgameClass::Open
            }
        }
        VariantKind::Frisian | VariantKind::Frysk => {
            // Two kings against one in 7 moves; a king against a king in 2.
            if a == Material::KING && b == Material::KING {
                EndgameClass::Short
            } else if lone_king_against(|m| m == Material::TWO_KINGS) {
                EndgameClass::Long
            } else {
                EndgameClass::Open
            }
        }
        VariantKind::Losing
        | VariantKind::LosingBrazilian
        | VariantKind::English
        | VariantKind::Italian
        | VariantKind::Breakthrough => EndgameClass::Open,
    }
}

/// The draw-rule clocks of one position: what a game or a search must carry
/// besides the position itself to apply the king-move and endgame rules.
///
/// ```text
/// reversible : plies since the last man move or capture (the king-move
///              clock), saturating at u16::MAX
/// short      : 0 = the position is not in the short class; otherwise
///              1 + plies since the short-class material first arose
/// long       : 0 = not running; otherwise 1 + plies since the long-class
///              material first arose (runs on into the short class)
/// ```
///
/// Invariants: `short != 0` exactly when the material is in the short
/// class; `long != 0` implies the material is in the long or short class;
/// the clocks saturate and never wrap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct DrawClocks {
    reversible: u16,
    short: u16,
    long: u16,
}

impl DrawClocks {
    /// The clocks of a game or search that starts at `pos`: no king-move
    /// history, and an endgame clock at 0 if the material is in a class.
    pub fn start<R: Rules>(pos: &Position<R>) -> DrawClocks {
        let class = classify(pos);
        DrawClocks {
            reversible: 0,
            short: u16::from(class == EndgameClass::Short),
            long: u16::from(class == EndgameClass::Long),
        }
    }

    /// The clocks after `mv`, played in `before`, led to `after`. O(1):
    /// popcounts only, no move generation.
    #[inline]
    pub fn after<R: Rules>(
        &self,
        before: &Position<R>,
        mv: Move,
        after: &Position<R>,
    ) -> DrawClocks {
        let irreversible = mv.is_capture() || before.moves_man(mv);
        let tick = |clock: u16| {
            if clock == 0 {
                0
            } else {
                clock.saturating_add(1)
            }
        };
        let (short, long) = match classify(after) {
            EndgameClass::Open => (0, 0),
            EndgameClass::Short => (tick(self.short).max(1), tick(self.long)),
            EndgameClass::Long => (0, tick(self.long).max(1)),
        };
        DrawClocks {
            reversible: if irreversible {
                0
            } else {
                self.reversible.saturating_add(1)
            },
            short,
            long,
        }
    }

    /// Plies since the last man move or capture (or since the start): the
    /// king-move clock, and the bound of the repetition look-back.
    #[inline(always)]
    pub fn reversible_plies(&self) -> u32 {
        u32::from(self.reversible)
    }

    /// Plies since the short-endgame material arose, `None` when the
    /// position is not in that class.
    pub fn short_endgame_plies(&self) -> Option<u32> {
        u32::from(self.short).checked_sub(1)
    }

    /// Plies since the long-endgame material arose, `None` when that clock
    /// is not running.
    pub fn long_endgame_plies(&self) -> Option<u32> {
        u32::from(self.long).checked_sub(1)
    }

    /// The draw these clocks call for, if any: the short endgame, long
    /// endgame and king-move rules. Repetition is the caller's check (with
    /// [`occurrences`]), and so is a lost position, which comes first.
    #[inline]
    pub fn verdict(&self, settings: &DrawSettings) -> Option<DrawReason> {
        // `short` and `long` hold plies + 1, so "plies >= limit" is
        // "stored > limit"; a stopped clock (0) never passes.
        let over =
            |stored: u16, moves: u32| moves != 0 && u32::from(stored) > moves.saturating_mul(2);
        if over(self.short, settings.short_endgame_moves) {
            Some(DrawReason::ShortEndgame)
        } else if over(self.long, settings.long_endgame_moves) {
            Some(DrawReason::LongEndgame)
        } else if settings.king_moves != 0
            && u32::from(self.reversible) >= settings.king_moves.saturating_mul(2)
        {
            Some(DrawReason::KingMoves)
        } else {
            None
        }
    }

    /// Plies left before the first clock rule draws the game (0: drawn now,
    /// exactly when [`DrawClocks::verdict`] gives a draw), `None` when no
    /// clock rule is both switched on and running. Lets a search decide
    /// whether the clocks matter within its horizon.
    #[inline]
    pub fn plies_until_draw(&self, settings: &DrawSettings) -> Option<u32> {
        nearer(
            self.plies_until_endgame_draw(settings),
            plies_left(Some(self.reversible_plies()), settings.king_moves),
        )
    }

    /// Like [`DrawClocks::plies_until_draw`], for the short and long
    /// endgame rules alone (the counts a man's move does not restart).
    #[inline]
    pub fn plies_until_endgame_draw(&self, settings: &DrawSettings) -> Option<u32> {
        nearer(
            plies_left(self.short_endgame_plies(), settings.short_endgame_moves),
            plies_left(self.long_endgame_plies(), settings.long_endgame_moves),
        )
    }

    /// Plies within which a win from `pos` is certain to count (`None`:
    /// no limit). With kings only, every running clock counts; with men on
    /// the board a man's move restarts the king-move count, so only the
    /// endgame counts hold a win back, unless a rule draws the game now
    /// (then 0). A longer win may still be a draw, or not.
    #[inline]
    pub fn plies_for_a_win<R: Rules>(
        &self,
        pos: &Position<R>,
        settings: &DrawSettings,
    ) -> Option<u32> {
        let every_count = self.plies_until_draw(settings);
        if pos.all_kings() == pos.occupied() || every_count == Some(0) {
            every_count
        } else {
            self.plies_until_endgame_draw(settings)
        }
    }
}

/// Plies left on a count of `moves` moves a side that has run `plies`
/// plies (`None`: not running, or the rule off).
#[inline]
fn plies_left(plies: Option<u32>, moves: u32) -> Option<u32> {
    match (plies, moves) {
        (Some(plies), 1..) => Some(moves.saturating_mul(2).saturating_sub(plies)),
        _ => None,
    }
}

/// The smaller of two optional counts.
#[inline]
fn nearer(a: Option<u32>, b: Option<u32>) -> Option<u32> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, None) => a,
        (None, b) => b,
    }
}

/// How many times the last key of `history` occurs in it, itself included,
/// looking only an even number of plies back (the same side to move).
///
/// `history` holds position keys oldest first, the current one last; only
/// the positions since the last irreversible move can repeat, so it need
/// hold no more than `reversible_plies() + 1` keys. Returns 0 for an empty
/// history.
pub fn occurrences(history: &[u64]) -> u32 {
    match history.split_last() {
        None => 0,
        Some((&key, earlier)) => {
            1 + earlier
                .iter()
                .rev()
                .skip(1)
                .step_by(2)
                .filter(|&&k| k == key)
                .count() as u32
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Geometry;
    use crate::rules::notation::parse_fen;
    use crate::rules::{Brazilian, International, Square};

    const K: Material = Material::KING;
    const KK: Material = Material::TWO_KINGS;
    const KM: Material = Material::KING_MAN;

    fn mat(kings: u32, men: u32) -> Material {
        Material { kings, men }
    }

    #[test]
    fn international_classes_follow_seed_000_section_6() {
        let class = |a, b| class_of(VariantKind::International, a, b);
        for strong in [K, KK, KM] {
            assert_eq!(class(strong, K), EndgameClass::Short);
            assert_eq!(class(K, strong), EndgameClass::Short);
        }
        for strong in [mat(3, 0), mat(2, 1), mat(1, 2)] {
            assert_eq!(class(strong, K), EndgameClass::Long);
            assert_eq!(class(K, strong), EndgameClass::Long);
        }
        for (a, b) in [
            (KK, KK),
            (KK, KM),
            (KM, KM),
            (mat(0, 2), K),
            (mat(0, 3), K),
            (mat(4, 0), K),
            (mat(3, 0), KM),
            (K, mat(0, 1)),
        ] {
            assert_eq!(class(a, b), EndgameClass::Open, "{a:?} v {b:?}");
        }
    }

    #[test]
    fn brazilian_classes_follow_rules_md() {
        let class = |a, b| class_of(VariantKind::Brazilian, a, b);
        for (a, b) in [(KK, KK), (KK, K), (KK, KM), (K, K), (K, KM)] {
            assert_eq!(class(a, b), EndgameClass::Short, "{a:?} v {b:?}");
            assert_eq!(class(b, a), EndgameClass::Short, "{b:?} v {a:?}");
        }
        for strong in [mat(3, 0), mat(2, 1), mat(1, 2)] {
            assert_eq!(class(strong, K), EndgameClass::Long);
        }
        for (a, b) in [(KM, KM), (mat(0, 2), K), (mat(4, 0), K), (mat(3, 0), KK)] {
            assert_eq!(class(a, b), EndgameClass::Open, "{a:?} v {b:?}");
        }
    }

    #[test]
    fn russian_classes_follow_draw_rules_md() {
        let class = |a, b| class_of(VariantKind::Russian, a, b);
        for strong in [K, KK, KM] {
            assert_eq!(class(strong, K), EndgameClass::Short);
            assert_eq!(class(K, strong), EndgameClass::Short);
        }
        for strong in [mat(3, 0), mat(4, 0), mat(7, 0)] {
            assert_eq!(class(strong, K), EndgameClass::Long);
            assert_eq!(class(K, strong), EndgameClass::Long);
        }
        for (a, b) in [(mat(2, 1), K), (KK, KK), (mat(0, 2), K)] {
            assert_eq!(class(a, b), EndgameClass::Open, "{a:?} v {b:?}");
        }
        // The main road: a lone king on it against three pieces with a king.
        let on_road = parse_fen::<crate::rules::Russian>("W:WK1,K2,9:BK22").unwrap();
        assert_eq!(classify(&on_road), EndgameClass::Short);
        let off_road = parse_fen::<crate::rules::Russian>("W:WK1,K2,9:BK21").unwrap();
        assert_eq!(classify(&off_road), EndgameClass::Open);
        let blocked = parse_fen::<crate::rules::Russian>("W:WK1,K2,29:BK22").unwrap();
        assert_eq!(classify(&blocked), EndgameClass::Open);
        let many = parse_fen::<crate::rules::Russian>("W:WK1,K2,K3,K5,K6:BK22").unwrap();
        assert_eq!(classify(&many), EndgameClass::Long);
    }

    #[test]
    fn the_other_variants_have_no_endgame_class() {
        for kind in [
            VariantKind::Losing,
            VariantKind::LosingBrazilian,
            VariantKind::English,
            VariantKind::Italian,
            VariantKind::Breakthrough,
        ] {
            assert_eq!(class_of(kind, KK, K), EndgameClass::Open, "{kind}");
            let s = DrawSettings::for_variant(kind);
            assert_eq!((s.short_endgame_moves, s.long_endgame_moves), (0, 0));
        }
    }

    #[test]
    fn occurrences_look_back_at_the_same_side_to_move() {
        assert_eq!(occurrences(&[]), 0);
        assert_eq!(occurrences(&[7]), 1);
        // The key 7 one ply back has the other side to move: not counted.
        assert_eq!(occurrences(&[1, 7, 7]), 1);
        assert_eq!(occurrences(&[7, 1, 7]), 2);
        assert_eq!(occurrences(&[7, 2, 7, 3, 7]), 3);
    }

    #[test]
    fn draw_clocks_are_small() {
        assert_eq!(std::mem::size_of::<DrawClocks>(), 6);
    }

    #[test]
    fn plies_until_draw_is_the_nearest_limit() {
        let settings = DrawSettings::for_variant(VariantKind::International);
        let pos = parse_fen::<International>("W:WK46,K50:BK5").unwrap();
        assert_eq!(
            DrawClocks::start(&pos).plies_until_draw(&settings),
            Some(10)
        );
        let open = parse_fen::<International>("W:W31,32:B19,20").unwrap();
        assert_eq!(
            DrawClocks::start(&open).plies_until_draw(&settings),
            Some(50)
        );
        let off = DrawSettings {
            king_moves: 0,
            ..settings
        };
        assert_eq!(DrawClocks::start(&open).plies_until_draw(&off), None);
    }

    #[test]
    fn a_win_is_held_to_the_king_move_count_only_with_kings_alone() {
        let settings = DrawSettings::for_variant(VariantKind::International);
        // Kings alone: the 5-move count (10 plies) is the nearest.
        let kings = parse_fen::<International>("W:WK46,K50:BK5").unwrap();
        let start = DrawClocks::start(&kings);
        assert_eq!(start.plies_for_a_win(&kings, &settings), Some(10));
        // Kings alone, far into the king-move count: it comes first.
        let late = DrawClocks {
            reversible: 45,
            ..start
        };
        assert_eq!(late.plies_for_a_win(&kings, &settings), Some(5));
        // A man on the board can restart the king-move count: only the
        // endgame count holds (K+M v K is in the 5-move class).
        let man = parse_fen::<International>("W:WK46,30:BK5").unwrap();
        let man_late = DrawClocks {
            reversible: 45,
            ..DrawClocks::start(&man)
        };
        assert_eq!(man_late.plies_for_a_win(&man, &settings), Some(10));
        // No endgame class: no limit while men can move.
        let open = parse_fen::<International>("W:W31,32:B19,20").unwrap();
        assert_eq!(
            DrawClocks::start(&open).plies_for_a_win(&open, &settings),
            None
        );
        // A rule that draws the game now leaves nothing.
        let drawn = DrawClocks {
            reversible: 50,
            ..DrawClocks::start(&open)
        };
        assert_eq!(drawn.plies_for_a_win(&open, &settings), Some(0));
    }

    #[test]
    fn no_plies_left_exactly_when_the_clocks_call_a_draw() {
        let on = DrawSettings::for_variant(VariantKind::International);
        let settings = [
            on.clone(),
            DrawSettings {
                king_moves: 0,
                ..on
            },
            DrawSettings {
                short_endgame_moves: 0,
                long_endgame_moves: 1,
                ..on
            },
        ];
        for settings in settings {
            for reversible in (0..=70).chain([u16::MAX - 1, u16::MAX]) {
                for short in (0..=40).chain([u16::MAX]) {
                    for long in (0..=40).chain([u16::MAX]) {
                        let clocks = DrawClocks {
                            reversible,
                            short,
                            long,
                        };
                        assert_eq!(
                            clocks.verdict(&settings).is_some(),
                            clocks.plies_until_draw(&settings) == Some(0),
                            "{clocks:?} under {settings:?}"
                        );
                    }
                }
            }
        }
    }

    /// K v K by hand: the mover wins by capturing at once, or, when the
    /// other king sits in a corner of the long diagonal and the mover is on
    /// that diagonal, by taking the opposite corner (the other king must
    /// then step onto the diagonal and is taken); every other position is
    /// drawn, since a king can always reach an edge square, where it cannot
    /// be taken. The solved table must agree everywhere.
    fn king_v_king_matches_the_hand_analysis<R: Rules>() {
        let solved = SolvedDraws::build::<R>();
        let n = <R::Geometry as Geometry>::SQUARES as u8;
        let rows = <R::Geometry as Geometry>::ROWS;
        let row_file = |sq: u8| <R::Geometry as Geometry>::row_file(Square::new(sq).unwrap());
        let on_long_diagonal = |sq: u8| {
            let (row, file) = row_file(sq);
            row + file == rows - 1
        };
        let in_corner = |sq: u8| {
            let (row, file) = row_file(sq);
            on_long_diagonal(sq) && (row == 0 || file == 0)
        };
        for side in ["W", "B"] {
            for w in 1..=n {
                for b in (1..=n).filter(|&b| b != w) {
                    let pos = parse_fen::<R>(&format!("{side}:WK{w}:BK{b}")).unwrap();
                    let (mover, other) = if side == "W" { (w, b) } else { (b, w) };
                    let won = crate::rules::movegen::has_capture(&pos)
                        || (in_corner(other) && on_long_diagonal(mover));
                    assert_eq!(solved.is_draw(&pos), !won, "{pos:?}");
                }
            }
        }
    }

    #[test]
    fn king_v_king_table_matches_the_hand_analysis() {
        king_v_king_matches_the_hand_analysis::<International>();
        king_v_king_matches_the_hand_analysis::<Brazilian>();
    }

    #[test]
    fn two_kings_v_king_is_not_always_drawn() {
        let solved = SolvedDraws::build::<International>();
        // The lone king on 46 must take 37 and land on 32 or 28, where the
        // king on 23 takes it.
        let decoy = parse_fen::<International>("B:WK37,K23:BK46").unwrap();
        assert!(!solved.is_draw(&decoy));
        // An open position: drawn.
        let open = parse_fen::<International>("W:WK1,K3:BK36").unwrap();
        assert!(solved.is_draw(&open));
        let brazilian = parse_fen::<Brazilian>("B:WK1,K3:BK21").unwrap();
        assert!(SolvedDraws::build::<Brazilian>().is_draw(&brazilian));
        // A table answers only for its own variant.
        assert!(!solved.is_draw(&brazilian));
    }

    #[test]
    fn a_solved_draw_is_unknown_outside_the_table_and_outside_normal_goals() {
        let solved = SolvedDraws::build::<International>();
        assert_eq!(solved.kind(), VariantKind::International);
        for fen in ["W:WK1,K3,K7:BK36", "W:WK1,10:BK36", "W:W31-50:B1-20"] {
            let pos = parse_fen::<International>(fen).unwrap();
            assert!(!solved.is_draw(&pos), "{fen}");
        }
        // In losing draughts a lone king is no draw: the table is empty.
        let losing = SolvedDraws::build::<crate::rules::Losing>();
        let pos = parse_fen::<crate::rules::Losing>("W:WK1:BK36").unwrap();
        assert!(!losing.is_draw(&pos));
    }
}
