//! The square numbering on the Hub wire.
//!
//! In four variants the only Hub client is pydraughts (Scan and the Hub
//! GUI do not play them), and pydraughts does not number their squares as
//! the rules texts, PDN and tempo's command line do:
//! - Brazilian, Russian and Turkish: its move strings number the squares
//!   from White's side (rows mirrored: its `9-13` is the PDN `21-17`, its
//!   Turkish `17-25` the PDN `41-33`); its position strings are in the PDN
//!   numbering;
//! - English: its moves are in the PDN numbering, but the position string
//!   it sends is its internal board, turned half a turn with the colours
//!   and the side to move swapped (the start comes as
//!   `Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww`, `W` standing for the side that
//!   moves first, which is Black).
//!
//! [`Numbering::Pydraughts`], the default of the Hub parameter `numbering`,
//! speaks that numbering on the wire in those four variants, so that
//! `HubEngine.play()` works as it is; [`Numbering::Pdn`] speaks the PDN
//! numbering everywhere. In every other variant the two are the same. The
//! engine works in the PDN numbering: [`Wire`] translates at the edge, in
//! both directions (every translation here is its own inverse). A FEN in
//! `pos` is always read in the PDN numbering (pydraughts never sends one).

use crate::engine::{MoveSquares, Param, ParamKind};
use crate::rules::VariantKind;

/// How squares are numbered on the Hub wire.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Numbering {
    /// pydraughts' numbering (see the module documentation).
    #[default]
    Pydraughts,
    /// The numbering of the rules texts, PDN and the command line.
    Pdn,
}

impl Numbering {
    /// The Hub parameter that chooses it.
    pub const PARAM: &'static str = "numbering";

    /// Every value, in the order the `param` line lists them.
    pub const ALL: [Numbering; 2] = [Numbering::Pydraughts, Numbering::Pdn];

    /// Its name as a parameter value.
    pub fn name(self) -> &'static str {
        match self {
            Numbering::Pydraughts => "pydraughts",
            Numbering::Pdn => "pdn",
        }
    }

    /// Reads a parameter value (any case).
    pub fn parse(text: &str) -> Option<Numbering> {
        Numbering::ALL
            .into_iter()
            .find(|n| n.name().eq_ignore_ascii_case(text.trim()))
    }

    /// The parameter as the `param` line declares it, with this value.
    pub fn param(self) -> Param {
        Param {
            name: Numbering::PARAM.to_string(),
            kind: ParamKind::Enum(
                Numbering::ALL
                    .iter()
                    .map(|n| n.name().to_string())
                    .collect(),
            ),
            value: self.name().to_string(),
            help: "square numbers on the wire: pydraughts' (Brazilian, Russian and Turkish \
                   moves from White's side, the English position turned) or pdn"
                .to_string(),
        }
    }
}

/// What the wire numbering of one variant does to squares and positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Map {
    /// Nothing: the wire is in the PDN numbering.
    Same,
    /// Rows mirrored, `per_row` squares a row, `rows` rows.
    MirrorRows { per_row: u8, rows: u8 },
    /// Moves as they are; position strings turned half a turn with the
    /// colours and the side to move swapped.
    TurnedPosition,
}

/// The translation between the Hub wire and the PDN numbering for one
/// variant under one numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wire {
    map: Map,
}

impl Wire {
    /// The translation for `variant` under `numbering`.
    pub fn new(variant: VariantKind, numbering: Numbering) -> Wire {
        let map = match (numbering, variant) {
            (Numbering::Pdn, _) => Map::Same,
            (_, VariantKind::Brazilian | VariantKind::Russian) => Map::MirrorRows {
                per_row: 4,
                rows: 8,
            },
            (_, VariantKind::Turkish) => Map::MirrorRows {
                per_row: 8,
                rows: 8,
            },
            (_, VariantKind::English) => Map::TurnedPosition,
            _ => Map::Same,
        };
        Wire { map }
    }

    /// Whether the wire and the PDN numbering differ at all.
    pub fn is_identity(self) -> bool {
        self.map == Map::Same
    }

    /// A square number, either way.
    pub fn square(self, square: u8) -> u8 {
        match self.map {
            Map::MirrorRows { per_row, rows } if (1..=per_row * rows).contains(&square) => {
                let (row, index) = ((square - 1) / per_row, (square - 1) % per_row);
                (rows - 1 - row) * per_row + index + 1
            }
            _ => square,
        }
    }

    /// A move, either way; the captured squares stay in increasing order.
    pub fn move_squares(self, mv: &MoveSquares) -> MoveSquares {
        let mut captured: Vec<u8> = mv.captured.iter().map(|&s| self.square(s)).collect();
        captured.sort_unstable();
        MoveSquares {
            from: self.square(mv.from),
            to: self.square(mv.to),
            captured,
        }
    }

    /// A move as text, either way: every number in it is a square and is
    /// translated; separators and anything else (coordinates such as
    /// `c3-d4`, which name squares the same way in both) are kept.
    pub fn move_text(self, text: &str) -> String {
        if !matches!(self.map, Map::MirrorRows { .. }) {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len());
        let mut number = String::new();
        let flush = |number: &mut String, out: &mut String| {
            if number.is_empty() {
                return;
            }
            match number.parse::<u8>() {
                Ok(square) => out.push_str(&self.square(square).to_string()),
                Err(_) => out.push_str(number),
            }
            number.clear();
        };
        let mut after_letter = false;
        for c in text.chars() {
            if c.is_ascii_digit() && !after_letter {
                number.push(c);
                continue;
            }
            flush(&mut number, &mut out);
            // The digits of a coordinate (`c3`) follow a letter.
            after_letter = c.is_ascii_alphabetic() && !matches!(c, 'x' | 'X')
                || (after_letter && c.is_ascii_digit());
            out.push(c);
        }
        flush(&mut number, &mut out);
        out
    }

    /// A `pos` position, either way: a Hub position string is translated,
    /// a FEN (it holds `:`) is left as it is.
    pub fn position(self, text: &str) -> String {
        if self.map != Map::TurnedPosition || text.contains(':') {
            return text.to_string();
        }
        let mut chars = text.chars();
        let Some(side) = chars.next() else {
            return String::new();
        };
        let swap = |c: char| match c {
            'W' => 'B',
            'B' => 'W',
            'w' => 'b',
            'b' => 'w',
            other => other,
        };
        let mut out = String::with_capacity(text.len());
        out.push(swap(side));
        out.extend(chars.rev().map(swap));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brazilian_and_russian_moves_mirror_the_rows() {
        for kind in [VariantKind::Brazilian, VariantKind::Russian] {
            let wire = Wire::new(kind, Numbering::Pydraughts);
            assert_eq!(wire.move_text("9-13"), "21-17");
            assert_eq!(wire.move_text("21-17"), "9-13");
            assert_eq!(wire.move_text("22x15x18"), "10x19x14");
            assert_eq!(wire.move_text("c3-d4"), "c3-d4");
            assert_eq!(wire.square(1), 29);
            assert_eq!(wire.square(32), 4);
            let mv = MoveSquares {
                from: 22,
                to: 13,
                captured: vec![17, 18],
            };
            let out = wire.move_squares(&mv);
            assert_eq!(out.to_string(), "10x17x13x14");
            assert_eq!(wire.move_squares(&out), mv);
            let start = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";
            assert_eq!(wire.position(start), start);
        }
    }

    #[test]
    fn turkish_moves_mirror_rows_of_eight() {
        let wire = Wire::new(VariantKind::Turkish, Numbering::Pydraughts);
        assert_eq!(wire.move_text("17-25"), "41-33");
        assert_eq!(wire.move_text("41-33"), "17-25");
        assert_eq!(wire.move_text("a3-a4"), "a3-a4");
    }

    #[test]
    fn the_english_position_is_turned_with_colours_and_side_swapped() {
        let wire = Wire::new(VariantKind::English, Numbering::Pydraughts);
        assert_eq!(
            wire.position("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"),
            "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
        );
        let empty = "e".repeat(30);
        assert_eq!(wire.position(&format!("WB{empty}w")), format!("Bb{empty}W"));
        assert_eq!(wire.position("B:W21-32:B1-12"), "B:W21-32:B1-12");
        assert_eq!(wire.move_text("12-16"), "12-16");
    }

    #[test]
    fn the_pdn_numbering_and_the_other_variants_translate_nothing() {
        for kind in VariantKind::ALL {
            assert!(Wire::new(kind, Numbering::Pdn).is_identity());
        }
        for kind in [
            VariantKind::International,
            VariantKind::Italian,
            VariantKind::LosingBrazilian,
            VariantKind::Frisian,
        ] {
            let wire = Wire::new(kind, Numbering::Pydraughts);
            assert!(wire.is_identity());
            assert_eq!(wire.move_text("32-28"), "32-28");
        }
    }

    #[test]
    fn numbering_values_parse_back() {
        for n in Numbering::ALL {
            assert_eq!(Numbering::parse(n.name()), Some(n));
        }
        assert_eq!(Numbering::parse("PDN"), Some(Numbering::Pdn));
        assert_eq!(Numbering::parse("scan"), None);
    }
}
