//! The PDN of a finished game, so a game refereed by tempo (a match game,
//! a DXP game) can be reviewed in any draughts program and read back by
//! `tempo game`, `tempo analyse` and `tempo book add-pdn`.

use std::fmt::Write as _;

use super::read::{game_type, needs_variant_tag};
use crate::rules::notation::{format_move, to_fen};
use crate::rules::{Move, MoveStyle, Position, Rules};

/// What the tags of a game say.
#[derive(Clone, Debug, PartialEq)]
pub struct GameTags<'a> {
    /// `Event`.
    pub event: &'a str,
    /// `Round`: the game's number, from 1.
    pub round: usize,
    /// `White` and `Black`: the players' names.
    pub players: [&'a str; 2],
    /// `Result`: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'a str,
    /// `Termination`: how the game ended, in words.
    pub termination: &'a str,
    /// More tags, written after the standard ones.
    pub extra: &'a [(&'a str, String)],
}

/// One game as PDN text: tags, then the moves in short notation, numbered,
/// ten moves to a line, ending with the result. A `FEN` tag is written
/// when the game does not start from the initial position. Each number
/// starts a move of the variant's first side and its reply (White then
/// Black; in English checkers Black then White). A capture whose start and
/// end squares fit another legal capture too is written in the Hub long
/// form (`18x2x5x13`: from, to, the captured squares): the short form is
/// ambiguous and a PDN path needs the landing squares, which a move does
/// not keep. `moves` must be legal from `start` (a game record's moves are).
pub fn game_pdn<R: Rules>(tags: &GameTags, start: &Position<R>, moves: &[Move]) -> String {
    let mut out = String::new();
    let tag = write_tag;
    tag(&mut out, "Event", tags.event);
    tag(&mut out, "Round", &tags.round.to_string());
    tag(&mut out, "White", tags.players[0]);
    tag(&mut out, "Black", tags.players[1]);
    tag(&mut out, "Result", tags.result);
    tag(&mut out, "GameType", &game_type(R::KIND).to_string());
    if needs_variant_tag(R::KIND) {
        tag(&mut out, "Variant", R::NAME);
    }
    if *start != Position::<R>::start() {
        tag(&mut out, "FEN", &to_fen(start));
    }
    tag(&mut out, "Termination", tags.termination);
    for (name, value) in tags.extra {
        tag(&mut out, name, value);
    }
    out.push('\n');
    let mut pos = *start;
    let mut words = Vec::new();
    let mut number = 1;
    for (i, &mv) in moves.iter().enumerate() {
        // A numbered move is a move of the side that starts the game
        // (Black in English checkers: `1. 11-15 23-19 2. ...`); a game
        // from a position where the other side is to move starts `1...`.
        let leads = pos.side_to_move() == R::FIRST_SIDE;
        let text = move_text(&pos, mv);
        if leads {
            words.push(format!("{number}. {text}"));
        } else if i == 0 {
            words.push(format!("{number}... {text}"));
        } else {
            words.push(text);
        }
        if !leads {
            number += 1;
        }
        pos = pos.play(mv);
    }
    words.push(tags.result.to_string());
    for chunk in words.chunks(20) {
        out.push_str(&chunk.join(" "));
        out.push('\n');
    }
    out.push('\n');
    out
}

/// A legal move of `pos` as PDN writes it: the short form (`32-28`,
/// `28x19`), or the Hub long form (`18x2x5x13`: from, to, the captured
/// squares) for a capture whose start and end squares fit another legal
/// capture too.
pub fn move_text<R: Rules>(pos: &Position<R>, mv: Move) -> String {
    let ambiguous = pos
        .legal_moves()
        .iter()
        .any(|m| *m != mv && m.from() == mv.from() && m.to() == mv.to());
    let style = if ambiguous {
        MoveStyle::Hub
    } else {
        MoveStyle::Short
    };
    format_move::<R>(mv, style)
}

/// Writes a tag line, `[Name "value"]`, escaping `\` and `"`.
pub fn write_tag(out: &mut String, name: &str, value: &str) {
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(out, "[{name} \"{value}\"]");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::{parse_move, parse_position};
    use crate::rules::{English, International, Italian};

    fn tags<'a>(players: [&'a str; 2], result: &'a str) -> GameTags<'a> {
        GameTags {
            event: "t",
            round: 3,
            players,
            result,
            termination: "test",
            extra: &[],
        }
    }

    /// The moves of `texts`, played one after the other from `start`.
    fn moves<R: Rules>(start: &Position<R>, texts: &[&str]) -> Vec<Move> {
        let mut pos = *start;
        texts
            .iter()
            .map(|t| {
                let mv = parse_move(&pos, t).unwrap();
                pos = pos.play(mv);
                mv
            })
            .collect()
    }

    #[test]
    fn a_game_prints_with_tags_numbers_and_result() {
        let start = Position::<International>::start();
        let played = moves(&start, &["32-28", "19-23", "28x19x23", "14x23x19"]);
        let text = game_pdn(&tags(["B", "A"], "1/2-1/2"), &start, &played);
        assert!(text.contains("[Round \"3\"]"), "{text}");
        assert!(text.contains("[White \"B\"]\n[Black \"A\"]"), "{text}");
        assert!(text.contains("[GameType \"20\"]"));
        assert!(!text.contains("[FEN"));
        assert!(
            text.contains("1. 32-28 19-23 2. 28x19 14x23 1/2-1/2"),
            "{text}"
        );
    }

    #[test]
    fn english_games_number_black_then_white() {
        let start = Position::<English>::start();
        let played = moves(&start, &["11-15", "22-18", "15x22x18"]);
        let text = game_pdn(&tags(["A", "B"], "*"), &start, &played);
        assert!(text.contains("[GameType \"21\"]"), "{text}");
        assert!(!text.contains("[FEN"), "{text}");
        assert!(text.contains("\n1. 11-15 22-18 2. 15x22 *\n"), "{text}");
        // From a position with White (the second side) to move.
        let start = parse_position::<English>("W:W22,23:B15").unwrap();
        let played = moves(&start, &["23-19", "15x24x19"]);
        let text = game_pdn(&tags(["A", "B"], "*"), &start, &played);
        assert!(text.contains("[FEN \"W:W22,23:B15\"]"), "{text}");
        assert!(text.contains("\n1... 23-19 2. 15x24 *\n"), "{text}");
    }

    #[test]
    fn a_capture_the_short_form_does_not_identify_names_its_pieces() {
        // The white man on 18 takes 13 and 5 or 14 and 6, ending on 2
        // either way.
        let start = parse_position::<Italian>("W:W17,18,21,30,32:B1,3,4,5,6,10,13,14,K29").unwrap();
        for played in ["18x2x5x13", "18x2x6x14"] {
            let game = moves(&start, &[played, "4-8"]);
            let text = game_pdn(&tags(["A", "B"], "*"), &start, &game);
            assert!(text.contains(&format!("\n1. {played} 4-8 *\n")), "{text}");
        }
    }
}
