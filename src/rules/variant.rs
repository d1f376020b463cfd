//! The rule knobs of each variant, as compile-time constants.
//!
//! Generic code asks `R::FLYING_KINGS` and the like; each variant is a
//! zero-sized marker type, so the compiler specialises every hot path per
//! variant and the knobs cost nothing at run time. Each knob names the rule
//! it comes from: the FMJD article for International (and the rules it
//! shares with its family), the text of the other variants' rules
//! otherwise; protocol.md, "Variants", gives every variant's rules in
//! English.

use super::geometry::{Board10, Board8, Board8Full, Board8Mirrored, Geometry};
use super::position::Side;

/// Which variant a value belongs to, for choosing one at run time (once, at
/// the boundary: protocols and the command line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VariantKind {
    /// International draughts, 10x10 (FMJD).
    International,
    /// Brazilian draughts, 8x8 with the International rules.
    Brazilian,
    /// Losing draughts (antidraughts) on 10x10: the side that cannot move wins.
    Losing,
    /// Losing draughts on 8x8 (perde-ganha with the Brazilian board).
    LosingBrazilian,
    /// Russian draughts (shashki), 8x8.
    Russian,
    /// English draughts / American checkers, 8x8.
    English,
    /// Italian draughts, 8x8 on a mirrored board.
    Italian,
    /// Killer draughts: International with kings halting behind a taken king.
    Killer,
    /// Breakthrough: International where the first king wins.
    Breakthrough,
    /// Frisian draughts, 10x10: orthogonal captures too, the capture of the
    /// highest value, a king moving at most three times in a row.
    Frisian,
    /// Frysk!: Frisian from five men a side on the back rows.
    Frysk,
    /// Turkish draughts, 8x8 with all 64 squares: orthogonal moves and
    /// captures, captured pieces removed as they are taken.
    Turkish,
}

impl VariantKind {
    /// Every variant this build plays.
    pub const ALL: [VariantKind; 12] = [
        VariantKind::International,
        VariantKind::Brazilian,
        VariantKind::Losing,
        VariantKind::LosingBrazilian,
        VariantKind::Russian,
        VariantKind::English,
        VariantKind::Italian,
        VariantKind::Killer,
        VariantKind::Breakthrough,
        VariantKind::Frisian,
        VariantKind::Frysk,
        VariantKind::Turkish,
    ];

    /// The name used on the command line and in Hub (`international`,
    /// `brazilian`, `losing`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            VariantKind::International => International::NAME,
            VariantKind::Brazilian => Brazilian::NAME,
            VariantKind::Losing => Losing::NAME,
            VariantKind::LosingBrazilian => LosingBrazilian::NAME,
            VariantKind::Russian => Russian::NAME,
            VariantKind::English => English::NAME,
            VariantKind::Italian => Italian::NAME,
            VariantKind::Killer => Killer::NAME,
            VariantKind::Breakthrough => Breakthrough::NAME,
            VariantKind::Frisian => Frisian::NAME,
            VariantKind::Frysk => Frysk::NAME,
            VariantKind::Turkish => Turkish::NAME,
        }
    }

    /// One line that says what the variant is, for help texts.
    pub const fn summary(self) -> &'static str {
        match self {
            VariantKind::International => "International draughts, 10x10",
            VariantKind::Brazilian => "Brazilian draughts, 8x8",
            VariantKind::Losing => "Losing draughts (antidraughts), 10x10",
            VariantKind::LosingBrazilian => "Losing draughts on 8x8",
            VariantKind::Russian => "Russian draughts, 8x8",
            VariantKind::English => "English draughts (checkers), 8x8, Black first",
            VariantKind::Italian => "Italian draughts, 8x8 (mirrored board)",
            VariantKind::Killer => "Killer draughts, 10x10",
            VariantKind::Breakthrough => "Breakthrough, 10x10: the first king wins",
            VariantKind::Frisian => {
                "Frisian draughts, 10x10: orthogonal captures, the capture of most value"
            }
            VariantKind::Frysk => "Frysk!: Frisian from five men a side on the back rows",
            VariantKind::Turkish => {
                "Turkish draughts, all 64 squares: men forward and sideways, rook kings"
            }
        }
    }

    /// The name in the Hub protocol: Scan's names where Scan plays the
    /// variant (`normal` for International, `bt` for Breakthrough), the
    /// command-line name otherwise. [`VariantKind::parse`] reads both.
    pub const fn hub_name(self) -> &'static str {
        match self {
            VariantKind::International => "normal",
            VariantKind::Breakthrough => "bt",
            other => other.name(),
        }
    }

    /// A dense index, `0..ALL.len()`, for per-variant tables.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Parses a variant name: the command-line names and the other names
    /// front ends use (`normal`/`standard` for International, `antidraughts`
    /// for Losing, `american`/`checkers` for English, `bt` for Breakthrough,
    /// `frysk!` for Frysk!).
    pub fn parse(name: &str) -> Option<VariantKind> {
        let kind = match name.trim().to_ascii_lowercase().as_str() {
            // lidraughts names a game from a set-up International position
            // `fromPosition`.
            "international" | "normal" | "standard" | "10x10" | "fromposition" => {
                VariantKind::International
            }
            "brazilian" | "8x8" => VariantKind::Brazilian,
            "losing" | "antidraughts" | "losing-international" => VariantKind::Losing,
            "losing-brazilian" | "antidraughts-brazilian" => VariantKind::LosingBrazilian,
            "russian" | "shashki" => VariantKind::Russian,
            "english" | "american" | "checkers" => VariantKind::English,
            "italian" => VariantKind::Italian,
            "killer" => VariantKind::Killer,
            "breakthrough" | "bt" => VariantKind::Breakthrough,
            "frisian" => VariantKind::Frisian,
            "frysk" | "frysk!" => VariantKind::Frysk,
            "turkish" | "dama" => VariantKind::Turkish,
            _ => return None,
        };
        Some(kind)
    }

    /// How many characters a Hub position string of this variant's board
    /// has (the side, then one per square).
    pub fn hub_length(self) -> usize {
        crate::rules::with_rules!(self, R => <<R as Rules>::Geometry as Geometry>::HUB_LEN)
    }

    /// How many squares this variant's board numbers (1 to this).
    pub fn squares(self) -> u32 {
        crate::rules::with_rules!(self, R => <<R as Rules>::Geometry as Geometry>::SQUARES)
    }

    /// The variants whose Hub position strings have `length` characters, in
    /// the order of [`VariantKind::ALL`]: the boards a string of that length
    /// can describe.
    pub fn with_hub_length(length: usize) -> Vec<VariantKind> {
        VariantKind::ALL
            .into_iter()
            .filter(|kind| kind.hub_length() == length)
            .collect()
    }

    /// Every accepted spelling, for help texts.
    pub fn names() -> String {
        VariantKind::ALL
            .iter()
            .map(|k| k.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// One value for each variant, looked up by [`VariantKind`] (the engine's
/// per-variant settings: draw rules, book and weights files).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerVariant<T>([T; VariantKind::ALL.len()]);

impl<T> PerVariant<T> {
    /// The value `make` gives each variant.
    pub fn from_fn(mut make: impl FnMut(VariantKind) -> T) -> PerVariant<T> {
        PerVariant(std::array::from_fn(|i| make(VariantKind::ALL[i])))
    }
}

impl<T: Default> Default for PerVariant<T> {
    fn default() -> Self {
        PerVariant::from_fn(|_| T::default())
    }
}

impl<T> std::ops::Index<VariantKind> for PerVariant<T> {
    type Output = T;
    fn index(&self, kind: VariantKind) -> &T {
        &self.0[kind.index()]
    }
}

impl<T> std::ops::IndexMut<VariantKind> for PerVariant<T> {
    fn index_mut(&mut self, kind: VariantKind) -> &mut T {
        &mut self.0[kind.index()]
    }
}

impl std::fmt::Display for VariantKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Calls generic code with the `Rules` type of a run-time variant: the one
/// place that turns a [`VariantKind`] into a type.
///
/// ```
/// use tempo::rules::perft::perft;
/// use tempo::rules::{Position, VariantKind};
///
/// let kind = VariantKind::parse("brazilian").unwrap();
/// let leaves = tempo::rules::with_rules!(kind, R => perft::<R>(&Position::<R>::start(), 2));
/// assert_eq!(leaves, 49);
/// ```
#[macro_export]
macro_rules! with_rules {
    ($kind:expr, $R:ident => $body:expr) => {
        match $kind {
            $crate::rules::VariantKind::International => {
                type $R = $crate::rules::International;
                $body
            }
            $crate::rules::VariantKind::Brazilian => {
                type $R = $crate::rules::Brazilian;
                $body
            }
            $crate::rules::VariantKind::Losing => {
                type $R = $crate::rules::Losing;
                $body
            }
            $crate::rules::VariantKind::LosingBrazilian => {
                type $R = $crate::rules::LosingBrazilian;
                $body
            }
            $crate::rules::VariantKind::Russian => {
                type $R = $crate::rules::Russian;
                $body
            }
            $crate::rules::VariantKind::English => {
                type $R = $crate::rules::English;
                $body
            }
            $crate::rules::VariantKind::Italian => {
                type $R = $crate::rules::Italian;
                $body
            }
            $crate::rules::VariantKind::Killer => {
                type $R = $crate::rules::Killer;
                $body
            }
            $crate::rules::VariantKind::Breakthrough => {
                type $R = $crate::rules::Breakthrough;
                $body
            }
            $crate::rules::VariantKind::Frisian => {
                type $R = $crate::rules::Frisian;
                $body
            }
            $crate::rules::VariantKind::Frysk => {
                type $R = $crate::rules::Frysk;
                $body
            }
            $crate::rules::VariantKind::Turkish => {
                type $R = $crate::rules::Turkish;
                $body
            }
        }
    };
}

/// Which captures are legal when several exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CapturePrecedence {
    /// Any complete capture sequence (Russian, English).
    Free,
    /// The sequences taking the most pieces, kings counting as one
    /// (FMJD art. 4.13; the Brazilian rules, "lei da maioria").
    Majority,
    /// The Italian order: most pieces; then a capture by a king; then the
    /// most kings taken; then the one meeting a king earliest.
    Italian,
    /// The Frisian order: the highest value, a king taken worth more than
    /// one man and less than two (n kings more than 2n - 1 men, less than
    /// 2n: 199 against 100); on equal value a capture by a king.
    Value,
}

/// How a game is won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// A side with no legal move (no pieces, or all blocked) loses
    /// (FMJD art. 7.2).
    Normal,
    /// A side with no legal move wins ("Damas", "perde-ganha").
    Losing,
    /// The first side to make a king wins; a side with no legal move loses.
    FirstKing,
}

/// Where a position keeps each side's king run (see
/// `Rules::KING_MOVE_LIMIT`): nothing at all in the variants without the
/// limit, so their positions stay as small and as fast as before.
pub trait KingRunStore: Copy + Default + PartialEq + Eq + Send + Sync + 'static {
    /// The run code of side `side` (0: none).
    fn code(&self, side: usize) -> u8;
    /// Sets the run code of side `side`.
    fn set_code(&mut self, side: usize, code: u8);
}

impl KingRunStore for () {
    #[inline(always)]
    fn code(&self, _side: usize) -> u8 {
        0
    }
    #[inline(always)]
    fn set_code(&mut self, _side: usize, _code: u8) {}
}

impl KingRunStore for [u8; 2] {
    #[inline(always)]
    fn code(&self, side: usize) -> u8 {
        self[side]
    }
    #[inline(always)]
    fn set_code(&mut self, side: usize, code: u8) {
        self[side] = code;
    }
}

/// The rules of one variant: its board and one constant per rule knob.
pub trait Rules: Copy + Send + Sync + Default + std::fmt::Debug + 'static {
    /// The board shape.
    type Geometry: Geometry;
    /// Where positions keep the king runs: `[u8; 2]` where
    /// `KING_MOVE_LIMIT` is set, `()` elsewhere.
    type KingRuns: KingRunStore;
    /// The variant's name on the command line.
    const NAME: &'static str;
    /// The run-time tag of this variant.
    const KIND: VariantKind;
    /// Men start on this many rows at each side of the board (FMJD art. 2.6).
    const START_ROWS: u32;
    /// The first of those rows, counted from each side's back row: 0, or 1
    /// in Turkish draughts, whose back rows start empty.
    const FIRST_START_ROW: u32 = 0;
    /// Turkish draughts: men move and capture one square straight forward
    /// or sideways, kings move and capture along rows and files like rooks,
    /// and captured pieces leave the board one by one during the capture
    /// (see `rules::turkish`). The other knobs of this trait then do not
    /// apply but `GOAL`.
    const ORTHOGONAL_MOVES: bool = false;
    /// A side left with one piece against a king has lost, unless both are
    /// kings (Turkish, "Damas": "deixá-lo com, no máximo, uma peça contra
    /// uma Dama").
    const LONE_PIECE_LOSES: bool = false;
    /// The side that makes the first move (White, except in English
    /// checkers, where Black, on squares 1-12, starts).
    const FIRST_SIDE: Side = Side::White;
    /// Men capture backward as well as forward (FMJD art. 4.2).
    const MEN_CAPTURE_BACKWARD: bool = true;
    /// Men may capture kings (not in Italian).
    const MEN_CAPTURE_KINGS: bool = true;
    /// Kings move and capture any distance along a diagonal (FMJD art. 3.9, §4.3).
    const FLYING_KINGS: bool = true;
    /// A man reaching the far row during a capture is crowned at once and
    /// goes on capturing as a king (Russian).
    const PROMOTE_IN_CAPTURE: bool = false;
    /// A flying king whose last captured piece is a king must halt on the
    /// square directly behind it (Killer).
    const HALT_BEHIND_KING: bool = false;
    /// Men and kings also capture along rows and files (Frisian): over the
    /// next playable square of the row or file, two files or rows away.
    const ORTHOGONAL_CAPTURES: bool = false;
    /// While its side has men, one king may make at most this many quiet
    /// moves in a row (Frisian: 3); 0 for no limit. A capture, or a move of
    /// another piece, ends the run.
    const KING_MOVE_LIMIT: u8 = 0;
    /// Which of several captures may be chosen.
    const PRECEDENCE: CapturePrecedence = CapturePrecedence::Majority;
    /// How the game is won.
    const GOAL: Goal = Goal::Normal;
}

/// International draughts on 10x10 (FMJD rules).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct International;

impl Rules for International {
    type Geometry = Board10;
    type KingRuns = ();
    const NAME: &'static str = "international";
    const KIND: VariantKind = VariantKind::International;
    const START_ROWS: u32 = 4;
}

/// Brazilian draughts: the International rules on 8x8 (seeds 001, 002, 004).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Brazilian;

impl Rules for Brazilian {
    type Geometry = Board8;
    type KingRuns = ();
    const NAME: &'static str = "brazilian";
    const KIND: VariantKind = VariantKind::Brazilian;
    const START_ROWS: u32 = 3;
}

/// Losing draughts on 10x10: the International moves, the goal inverted
/// ("Damas": "perde-ganha"; antidraughts).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Losing;

impl Rules for Losing {
    type Geometry = Board10;
    type KingRuns = ();
    const NAME: &'static str = "losing";
    const KIND: VariantKind = VariantKind::Losing;
    const START_ROWS: u32 = 4;
    const GOAL: Goal = Goal::Losing;
}

/// Losing draughts on 8x8: the Brazilian moves, the goal inverted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LosingBrazilian;

impl Rules for LosingBrazilian {
    type Geometry = Board8;
    type KingRuns = ();
    const NAME: &'static str = "losing-brazilian";
    const KIND: VariantKind = VariantKind::LosingBrazilian;
    const START_ROWS: u32 = 3;
    const GOAL: Goal = Goal::Losing;
}

/// Russian draughts: 8x8, flying kings, men capture backward, free choice
/// among captures, a man crowned during a capture goes on as a king
/// ("Damas", the Portuguese article on the game).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Russian;

impl Rules for Russian {
    type Geometry = Board8;
    type KingRuns = ();
    const NAME: &'static str = "russian";
    const KIND: VariantKind = VariantKind::Russian;
    const START_ROWS: u32 = 3;
    const PROMOTE_IN_CAPTURE: bool = true;
    const PRECEDENCE: CapturePrecedence = CapturePrecedence::Free;
}

/// English draughts (American checkers): 8x8, Black moves first, men move
/// and capture forward only, kings one square, free choice among captures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct English;

impl Rules for English {
    type Geometry = Board8;
    type KingRuns = ();
    const NAME: &'static str = "english";
    const KIND: VariantKind = VariantKind::English;
    const START_ROWS: u32 = 3;
    const FIRST_SIDE: Side = Side::Black;
    const MEN_CAPTURE_BACKWARD: bool = false;
    const FLYING_KINGS: bool = false;
    const PRECEDENCE: CapturePrecedence = CapturePrecedence::Free;
}

/// Italian draughts: 8x8 with a light corner at each player's left, men
/// move and capture forward only and never take kings, kings one square,
/// the Italian capture precedence.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Italian;

impl Rules for Italian {
    type Geometry = Board8Mirrored;
    type KingRuns = ();
    const NAME: &'static str = "italian";
    const KIND: VariantKind = VariantKind::Italian;
    const START_ROWS: u32 = 3;
    const MEN_CAPTURE_BACKWARD: bool = false;
    const MEN_CAPTURE_KINGS: bool = false;
    const FLYING_KINGS: bool = false;
    const PRECEDENCE: CapturePrecedence = CapturePrecedence::Italian;
}

/// Killer draughts: International, but a king whose last captured piece is
/// a king halts directly behind it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Killer;

impl Rules for Killer {
    type Geometry = Board10;
    type KingRuns = ();
    const NAME: &'static str = "killer";
    const KIND: VariantKind = VariantKind::Killer;
    const START_ROWS: u32 = 4;
    const HALT_BEHIND_KING: bool = true;
}

/// Breakthrough: International moves; the first side to crown a man wins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Breakthrough;

impl Rules for Breakthrough {
    type Geometry = Board10;
    type KingRuns = ();
    const NAME: &'static str = "breakthrough";
    const KIND: VariantKind = VariantKind::Breakthrough;
    const START_ROWS: u32 = 4;
    const GOAL: Goal = Goal::FirstKing;
}

/// Turkish draughts (dama) on all 64 squares of an 8x8 board: 16 men a
/// side on their second and third rows, men moving and capturing straight
/// forward or sideways, flying kings along rows and files, captured pieces
/// removed as they are taken, the capture of the most pieces compulsory
/// ("Damas", the Portuguese article on the game).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Turkish;

impl Rules for Turkish {
    type Geometry = Board8Full;
    type KingRuns = ();
    const NAME: &'static str = "turkish";
    const KIND: VariantKind = VariantKind::Turkish;
    const START_ROWS: u32 = 2;
    const FIRST_START_ROW: u32 = 1;
    const ORTHOGONAL_MOVES: bool = true;
    const LONE_PIECE_LOSES: bool = true;
}

/// Frisian draughts on 10x10 (the official rules of the Frisian draughts
/// association, as lidraughts plays them): men and kings capture along
/// rows and files as well as diagonals, the capture of the highest value is
/// compulsory (a capture by a king on equal value), and a king makes at
/// most three quiet moves in a row while its side has men.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Frisian;

impl Rules for Frisian {
    type Geometry = Board10;
    type KingRuns = [u8; 2];
    const NAME: &'static str = "frisian";
    const KIND: VariantKind = VariantKind::Frisian;
    const START_ROWS: u32 = 4;
    const ORTHOGONAL_CAPTURES: bool = true;
    const KING_MOVE_LIMIT: u8 = 3;
    const PRECEDENCE: CapturePrecedence = CapturePrecedence::Value;
}

/// Frysk!: the Frisian rules from five men a side, each on its back row
/// (lidraughts' variant).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Frysk;

impl Rules for Frysk {
    type Geometry = Board10;
    type KingRuns = [u8; 2];
    const NAME: &'static str = "frysk";
    const KIND: VariantKind = VariantKind::Frysk;
    const START_ROWS: u32 = 1;
    const ORTHOGONAL_CAPTURES: bool = true;
    const KING_MOVE_LIMIT: u8 = 3;
    const PRECEDENCE: CapturePrecedence = CapturePrecedence::Value;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_back_to_its_variant() {
        for kind in VariantKind::ALL {
            assert_eq!(VariantKind::parse(kind.name()), Some(kind));
            assert_eq!(VariantKind::ALL[kind.index()], kind);
        }
        for (alias, kind) in [
            ("normal", VariantKind::International),
            ("Standard", VariantKind::International),
            ("antidraughts", VariantKind::Losing),
            ("american", VariantKind::English),
            ("checkers", VariantKind::English),
            ("bt", VariantKind::Breakthrough),
            ("Frysk!", VariantKind::Frysk),
            (" russian ", VariantKind::Russian),
        ] {
            assert_eq!(VariantKind::parse(alias), Some(kind), "{alias}");
        }
        assert_eq!(VariantKind::parse("Dama"), Some(VariantKind::Turkish));
        assert_eq!(VariantKind::parse("frisian-turkish"), None);
        assert_eq!(VariantKind::parse(""), None);
    }

    #[test]
    fn the_kind_of_each_rules_type_is_its_own() {
        fn check<R: Rules>() {
            assert_eq!(R::KIND.name(), R::NAME);
        }
        check::<International>();
        check::<Brazilian>();
        check::<Losing>();
        check::<LosingBrazilian>();
        check::<Russian>();
        check::<English>();
        check::<Italian>();
        check::<Killer>();
        check::<Breakthrough>();
        check::<Frisian>();
        check::<Frysk>();
        check::<Turkish>();
    }
}
