//! Writing match games as PDN, so a match can be reviewed in any draughts
//! program.

use std::fmt::Write as _;

use super::GameRecord;
use crate::pdn::{game_type, needs_variant_tag};
use crate::rules::notation::{format_move, parse_move, parse_position, to_fen};
use crate::rules::{MoveStyle, Position, Rules};

/// One game as PDN text: tags, then the moves in short notation, numbered,
/// ten moves to a line, ending with the result. Each number starts a move of
/// the variant's first side and its reply (White then Black; in English
/// checkers Black then White). A capture whose start and end squares fit
/// another legal capture too is written in the Hub long form
/// (`18x2x5x13`: from, to, the captured squares), which `tempo game`,
/// `tempo analyse` and `tempo book add-pdn` read; the short form is
/// ambiguous and a PDN path needs the landing squares, which a move does
/// not keep.
pub fn game_text<R: Rules>(record: &GameRecord, names: [&str; 2], event: &str) -> String {
    game_text_with::<R>(record, names, event, &[])
}

/// `game_text` with extra tags written after the standard ones.
pub fn game_text_with<R: Rules>(
    record: &GameRecord,
    names: [&str; 2],
    event: &str,
    extra: &[(&str, String)],
) -> String {
    let (white, black) = if record.first_is_white {
        (names[0], names[1])
    } else {
        (names[1], names[0])
    };
    let mut out = String::new();
    let tag = |out: &mut String, name: &str, value: &str| {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(out, "[{name} \"{value}\"]");
    };
    tag(&mut out, "Event", event);
    tag(&mut out, "Round", &(record.index + 1).to_string());
    tag(&mut out, "White", white);
    tag(&mut out, "Black", black);
    tag(&mut out, "Result", record.result);
    tag(&mut out, "GameType", &game_type(R::KIND).to_string());
    if needs_variant_tag(R::KIND) {
        tag(&mut out, "Variant", R::NAME);
    }
    let start = parse_position::<R>(&record.opening.start).unwrap_or_else(|_| Position::start());
    if start != Position::<R>::start() {
        tag(&mut out, "FEN", &to_fen(&start));
    }
    tag(&mut out, "Termination", &record.reason);
    for (name, value) in extra {
        tag(&mut out, name, value);
    }
    out.push('\n');
    let mut pos = start;
    let mut words = Vec::new();
    let mut number = 1;
    for (i, text) in record.moves.iter().enumerate() {
        let Ok(mv) = parse_move(&pos, text) else {
            break;
        };
        // A numbered move is a move of the side that starts the game
        // (Black in English checkers: `1. 11-15 23-19 2. ...`); a game
        // from a position where the other side is to move starts `1...`.
        let leads = pos.side_to_move() == R::FIRST_SIDE;
        let short = format_move::<R>(mv, MoveStyle::Short);
        // Two captures with the same start and end (Italian men taking
        // different pairs, kings going round) need the captured squares:
        // the Hub long form, which tempo's PDN readers take.
        let ambiguous = pos
            .legal_moves()
            .iter()
            .any(|m| *m != mv && m.from() == mv.from() && m.to() == mv.to());
        let short = if ambiguous {
            format_move::<R>(mv, MoveStyle::Hub)
        } else {
            short
        };
        if leads {
            words.push(format!("{number}. {short}"));
        } else if i == 0 {
            words.push(format!("{number}... {short}"));
        } else {
            words.push(short);
        }
        if !leads {
            number += 1;
        }
        pos = pos.play(mv);
    }
    words.push(record.result.to_string());
    for chunk in words.chunks(20) {
        out.push_str(&chunk.join(" "));
        out.push('\n');
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::Opening;
    use crate::rules::notation::to_hub;
    use crate::rules::{English, International, Italian};

    #[test]
    fn a_game_prints_with_tags_numbers_and_result() {
        let record = GameRecord {
            index: 2,
            first_is_white: false,
            opening: Opening {
                start: to_hub(&Position::<International>::start()),
                moves: vec!["32-28".into(), "19-23".into()],
            },
            moves: vec![
                "32-28".into(),
                "19-23".into(),
                "28x19x23".into(),
                "14x23x19".into(),
            ],
            result: "1/2-1/2",
            reason: "test".into(),
            failure: None,
        };
        let text = game_text::<International>(&record, ["A", "B"], "t");
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
        let mut record = GameRecord {
            index: 0,
            first_is_white: true,
            opening: Opening {
                start: to_hub(&Position::<English>::start()),
                moves: vec![],
            },
            moves: vec!["11-15".into(), "22-18".into(), "15x22x18".into()],
            result: "*",
            reason: "test".into(),
            failure: None,
        };
        let text = game_text::<English>(&record, ["A", "B"], "t");
        assert!(text.contains("[GameType \"21\"]"), "{text}");
        assert!(!text.contains("[FEN"), "{text}");
        assert!(text.contains("\n1. 11-15 22-18 2. 15x22 *\n"), "{text}");
        // From a position with White (the second side) to move.
        record.opening.start = "W:W22,23:B15".to_string();
        record.moves = vec!["23-19".into(), "15x24x19".into()];
        let text = game_text::<English>(&record, ["A", "B"], "t");
        assert!(text.contains("[FEN \"W:W22,23:B15\"]"), "{text}");
        assert!(text.contains("\n1... 23-19 2. 15x24 *\n"), "{text}");
    }

    #[test]
    fn a_capture_the_short_form_does_not_identify_names_its_pieces() {
        // The white man on 18 takes 13 and 5 or 14 and 6, ending on 2
        // either way.
        let start = "W:W17,18,21,30,32:B1,3,4,5,6,10,13,14,K29";
        for (played, written) in [("18x2x5x13", "18x2x5x13"), ("18x2x6x14", "18x2x6x14")] {
            let record = GameRecord {
                index: 0,
                first_is_white: true,
                opening: Opening {
                    start: start.to_string(),
                    moves: vec![],
                },
                moves: vec![played.into(), "4-8".into()],
                result: "*",
                reason: "test".into(),
                failure: None,
            };
            let text = game_text::<Italian>(&record, ["A", "B"], "t");
            assert!(text.contains(&format!("\n1. {written} 4-8 *\n")), "{text}");
            let pos = parse_position::<Italian>(start).unwrap();
            assert_eq!(
                parse_move(&pos, written).unwrap(),
                parse_move(&pos, played).unwrap()
            );
        }
    }
}
