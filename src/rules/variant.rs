//! The rule knobs of each variant, as compile-time constants.
//!
//! Generic code asks `R::FLYING_KINGS` and the like; each variant is a
//! zero-sized marker type, so the compiler specialises every hot path per
//! variant and the knobs cost nothing at run time. Each knob names the seed
//! article it comes from (`../shared/seeds/`, digest in `rules.md`).

use super::geometry::{Board10, Board8, Geometry};

/// Which variant a value belongs to, for choosing one at run time (once, at
/// the boundary: protocols and the command line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VariantKind {
    /// International draughts, 10x10 (FMJD).
    International,
    /// Brazilian draughts, 8x8 with the International rules.
    Brazilian,
}

impl VariantKind {
    /// Every variant this build plays.
    pub const ALL: [VariantKind; 2] = [VariantKind::International, VariantKind::Brazilian];

    /// The name used on the command line (`international`, `brazilian`).
    pub const fn name(self) -> &'static str {
        match self {
            VariantKind::International => International::NAME,
            VariantKind::Brazilian => Brazilian::NAME,
        }
    }

    /// Parses a variant name: the command-line names, and the Hub names
    /// `normal` and `standard` for International.
    pub fn parse(name: &str) -> Option<VariantKind> {
        match name.trim().to_ascii_lowercase().as_str() {
            "international" | "normal" | "standard" | "10x10" => Some(VariantKind::International),
            "brazilian" | "8x8" => Some(VariantKind::Brazilian),
            _ => None,
        }
    }
}

impl std::fmt::Display for VariantKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The rules of one variant: its board and one constant per rule knob.
pub trait Rules: Copy + Send + Sync + Default + std::fmt::Debug + 'static {
    /// The board shape.
    type Geometry: Geometry;
    /// The variant's name on the command line.
    const NAME: &'static str;
    /// The run-time tag of this variant.
    const KIND: VariantKind;
    /// Men start on this many rows at each side of the board (seed 000 §2.6).
    const START_ROWS: u32;
    /// Men capture backward as well as forward (seed 000 §4.2).
    const MEN_CAPTURE_BACKWARD: bool = true;
    /// Kings move and capture any distance along a diagonal (seed 000 §3.9, §4.3).
    const FLYING_KINGS: bool = true;
    /// The capture taking the most pieces is compulsory, kings counting as
    /// one piece (seed 000 §4.13; seed 001 "lei da maioria").
    const MAJORITY_CAPTURE: bool = true;
}

/// International draughts on 10x10, seed 000 (FMJD rules).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct International;

impl Rules for International {
    type Geometry = Board10;
    const NAME: &'static str = "international";
    const KIND: VariantKind = VariantKind::International;
    const START_ROWS: u32 = 4;
}

/// Brazilian draughts: the International rules on 8x8 (seeds 001, 002, 004).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Brazilian;

impl Rules for Brazilian {
    type Geometry = Board8;
    const NAME: &'static str = "brazilian";
    const KIND: VariantKind = VariantKind::Brazilian;
    const START_ROWS: u32 = 3;
}
