//! Notation: every text form the engine reads or writes.
//!
//! - Round trips of moves (quiet `32-28`, short capture `28x19`, Hub long
//!   form, PDN path input, coordinate input) and positions (Hub strings of
//!   51 and 33 characters, FEN with ranges, `K` prefixes, either section
//!   order, a trailing `.`, `:H0:F1` sections).
//! - An ambiguous short capture is an `AmbiguousMove` error while the long
//!   forms resolve.
//! - Malformed input gives an `Err`, never a panic; a few thousand seeded
//!   random strings are fed into every parser to show it.

use std::panic::{catch_unwind, AssertUnwindSafe};

use tempo::rules::notation::{
    format_move, parse_fen, parse_hub, parse_move, parse_position, parse_square, to_fen, to_hub,
};
use tempo::rules::{
    Brazilian, International, MoveStyle, NotationError, Position, PositionError, Rules,
};

type Intl = International;

/// Whether an error is of the kind a bad input of a table expects.
type Check = fn(&NotationError) -> bool;

fn pos<R: Rules>(fen: &str) -> Position<R> {
    parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Parses `text` in `fen` and prints it back in both styles.
fn read<R: Rules>(fen: &str, text: &str) -> (String, String) {
    let p = pos::<R>(fen);
    let mv = parse_move(&p, text).unwrap_or_else(|e| panic!("{text} in {fen}: {e}"));
    assert!(p.legal_moves().contains(mv));
    (
        format_move::<R>(mv, MoveStyle::Short),
        format_move::<R>(mv, MoveStyle::Hub),
    )
}

/// Checks that `text`, read in `fen`, prints back as `short` and as `hub`.
fn reads_as<R: Rules>(fen: &str, text: &str, short: &str, hub: &str) {
    assert_eq!(
        read::<R>(fen, text),
        (short.to_string(), hub.to_string()),
        "{text} in {fen}"
    );
}

#[test]
fn quiet_move_round_trip() {
    let start = "W:W31-50:B1-20";
    reads_as::<Intl>(start, "32-28", "32-28", "32-28");
    reads_as::<Intl>(start, " 35-30 ", "35-30", "35-30");
    reads_as::<Brazilian>("W:W21-32:B1-12", "22-18", "22-18", "22-18");
    // Every legal move of the start positions prints and reads back.
    let p = Position::<Intl>::start();
    for &mv in p.legal_moves().iter() {
        let text = format_move::<Intl>(mv, MoveStyle::Short);
        assert_eq!(parse_move(&p, &text), Ok(mv));
    }
}

#[test]
fn short_capture_and_hub_long_form_round_trip() {
    let fen = "W:W28:B23";
    for text in ["28x19", "28x19x23", "28X19"] {
        reads_as::<Intl>(fen, text, "28x19", "28x19x23");
    }
    // Hub long form lists captured squares ascending; input may use any order.
    let fen = "W:WK46:B13,28";
    for text in ["46x8x13x28", "46x8x28x13", "46:8:13:28"] {
        assert_eq!(read::<Intl>(fen, text).1, "46x8x13x28", "{text}");
    }
    assert_eq!(read::<Intl>(fen, "46x2").1, "46x2x13x28");
}

#[test]
fn pdn_path_input() {
    // from, landing squares, to.
    for (fen, text, hub) in [
        ("W:WK46:B13,28", "46x19x8", "46x8x13x28"),
        ("W:WK37:B12,13,28,39", "37x19x8x17", "37x17x12x13x28"),
        ("W:W47:B31,32,41,42", "47x38x27x36x47", "47x47x31x32x41x42"),
    ] {
        assert_eq!(read::<Intl>(fen, text).1, hub, "{text} in {fen}");
    }
    assert_eq!(
        read::<Brazilian>("W:WK29,31:BK27,10,18", "29x15x6").1,
        "29x6x10x18"
    );
}

#[test]
fn coordinate_input() {
    let start = "W:W21-32:B1-12";
    assert_eq!(read::<Brazilian>(start, "c3-d4").0, "22-18");
    assert_eq!(read::<Brazilian>(start, "G3-H4").0, "24-20");
    // d4 x f6 taking e5.
    reads_as::<Brazilian>("W:W18:B15", "d4xf6", "18x11", "18x11x15");
    // A king path in coordinates: a1 x e5 x c7.
    assert_eq!(
        read::<Brazilian>("W:WK29,31:BK27,10,18", "a1xe5xc7").1,
        "29x6x10x18"
    );
    // Coordinates on 10x10 too: b4-a5 is 31-26.
    assert_eq!(read::<Intl>("W:W31-50:B1-20", "b4-a5").0, "31-26");
}

#[test]
fn ambiguous_short_capture_needs_the_long_form() {
    // The king on c1 takes d2, g5, then either g7 or h8, then b4, landing
    // on a3 (36) both times: two captures written 47x36.
    let p = pos::<Intl>("W:WK47:B14,19,29,31,42");
    match parse_move(&p, "47x36") {
        Err(NotationError::AmbiguousMove { text, candidates }) => {
            assert_eq!(text, "47x36");
            let mut c = candidates.clone();
            c.sort();
            assert_eq!(c, vec!["47x36x14x29x31x42", "47x36x19x29x31x42"]);
        }
        other => panic!("expected AmbiguousMove, got {other:?}"),
    }
    let a = parse_move(&p, "47x36x19x29x31x42").unwrap();
    let b = parse_move(&p, "47x36x14x29x31x42").unwrap();
    assert_ne!(a, b);
    assert_eq!(format_move::<Intl>(a, MoveStyle::Short), "47x36");
    assert_eq!(format_move::<Intl>(b, MoveStyle::Short), "47x36");
    assert_eq!(format_move::<Intl>(a, MoveStyle::Hub), "47x36x19x29x31x42");
    assert_eq!(format_move::<Intl>(b, MoveStyle::Hub), "47x36x14x29x31x42");
    // The error message names both candidates.
    let msg = parse_move(&p, "47x36").unwrap_err().to_string();
    assert!(msg.contains("47x36x14x29x31x42") && msg.contains("47x36x19x29x31x42"));
}

/// Checks the Hub string of the start position of `R`: White to move,
/// `men` black men, `empty` empty squares, `men` white men; it reads back
/// as Hub text and as a position.
fn check_start_hub<R: Rules>(men: usize, empty: usize) {
    let start = Position::<R>::start();
    let hub = to_hub(&start);
    assert_eq!(hub.len(), 1 + 2 * men + empty);
    assert_eq!(
        hub,
        format!(
            "W{}{}{}",
            "b".repeat(men),
            "e".repeat(empty),
            "w".repeat(men)
        )
    );
    assert_eq!(parse_hub::<R>(&hub), Ok(start));
    assert_eq!(parse_position::<R>(&hub), Ok(start));
}

#[test]
fn hub_position_strings() {
    check_start_hub::<Intl>(20, 10);
    check_start_hub::<Brazilian>(12, 8);

    // Kings, Black to move, and '.' for an empty square.
    let p = pos::<Intl>("B:WK10,31:BK46,1");
    let hub = to_hub(&p);
    assert_eq!(&hub[..2], "Bb");
    assert_eq!(hub.chars().nth(10), Some('W'));
    assert_eq!(hub.chars().nth(31), Some('w'));
    assert_eq!(hub.chars().nth(46), Some('B'));
    assert_eq!(parse_hub::<Intl>(&hub), Ok(p));
    assert_eq!(parse_hub::<Intl>(&hub.replace('e', ".")), Ok(p));
}

#[test]
fn fen_forms() {
    let start = Position::<Intl>::start();
    assert_eq!(
        to_fen(&start),
        format!(
            "W:W{}:B{}",
            (31..=50)
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(","),
            (1..=20)
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(",")
        )
    );
    for text in [
        "W:W31-50:B1-20",
        "W:B1-20:W31-50",
        "W:W31-50:B1-20.",
        "W:W31-50:B1-20:H0:F1",
        "\"W:W31-50:B1-20\"",
        " W:W31-40,41-50:B1-5,6-20 ",
    ] {
        assert_eq!(parse_fen::<Intl>(text), Ok(start), "{text}");
    }
    // Kings with K, single squares and ranges, either case of side letters.
    let p = pos::<Intl>("B:WK10,K31-33,45:BK46,1-2");
    assert_eq!(to_fen(&p), "B:WK10,K31,K32,K33,45:B1,2,K46");
    assert_eq!(pos::<Intl>("b:wK10,K31-33,45:bK46,1-2"), p);
    assert_eq!(pos::<Intl>(&to_fen(&p)), p);
    // An empty side.
    let p = pos::<Intl>("W:W28:B");
    assert_eq!(to_fen(&p), "W:W28:B");
    assert_eq!(p.piece_list().len(), 1);
    // Brazilian.
    assert_eq!(
        pos::<Brazilian>("W:W21-32:B1-12"),
        Position::<Brazilian>::start()
    );
    assert_eq!(
        pos::<Brazilian>("W:B1-12:W21-32:H0:F1."),
        Position::<Brazilian>::start()
    );
    let p = pos::<Brazilian>("B:WK4,22:BK29,5");
    assert_eq!(to_fen(&p), "B:WK4,22:B5,K29");
    assert_eq!(pos::<Brazilian>(&to_fen(&p)), p);
}

#[test]
fn fen_with_coordinates_on_8x8() {
    // lidraughts writes 8x8 squares algebraically.
    let p = pos::<Brazilian>("W:Wa1,c3,Kh8:Bb8,d6");
    assert_eq!(to_fen(&p), "W:WK4,22,29:B1,10");
}

/// Feeds every input of `table` (bad inputs grouped by the error they must
/// give) to `parse`: each must be refused with an error of its kind, which
/// has a message.
fn assert_refused<T: std::fmt::Debug>(
    table: &[(&[&str], Check)],
    parse: impl Fn(&str) -> Result<T, NotationError>,
) {
    for &(texts, check) in table {
        for &text in texts {
            match parse(text) {
                Ok(value) => panic!("{text:?} was accepted as {value:?}"),
                Err(e) => {
                    assert!(check(&e), "{text:?}: unexpected error {e:?}");
                    assert!(!e.to_string().is_empty(), "{text:?}: {e:?}");
                }
            }
        }
    }
}

#[test]
fn malformed_fens_are_errors() {
    assert_refused(
        &[
            (
                &[
                    "W:W0:B1",
                    "W:W51:B1",
                    "W:W31:BK51",
                    "W:W1-51:B",
                    "W:Wx:B1",
                    "W:WK:B1",
                    "W:W31,,32:B1",
                    "W:W-5:B1",
                ][..],
                (|e| matches!(e, NotationError::BadSquare(_))) as Check,
            ),
            (
                &[
                    "X:W31:B1",
                    "W:W31",
                    "W:W31:W32:B1",
                    "W:W31:Q1:B1",
                    "W:W35-31:B1",
                    "W31:B1",
                ],
                |e| matches!(e, NotationError::BadFen(_)),
            ),
            (&["", "   "], |e| matches!(e, NotationError::Empty)),
            (&["W:W1:B20", "W:W31:B46"], |e| {
                matches!(
                    e,
                    NotationError::Position(PositionError::ManOnPromotionRow(..))
                )
            }),
            (&["W:W30-50:B1", "W:W31:BK1-21"], |e| {
                matches!(
                    e,
                    NotationError::Position(PositionError::TooManyPieces { count: 21, .. })
                )
            }),
            (&["W:W31,31:B1", "W:W31:B31"], |e| {
                matches!(
                    e,
                    NotationError::Position(PositionError::DuplicateSquare(_))
                )
            }),
        ],
        parse_fen::<Intl>,
    );
    for text in [
        "W:W33:B1",
        "W:W21-32:B0",
        "W:W20-32:B1",
        "W:W1:B12",
        "W:W21:B29",
        "W:Wi1:B1",
        "W:Wb1:B1",
    ] {
        assert!(parse_fen::<Brazilian>(text).is_err(), "{text:?} accepted");
    }
}

#[test]
fn malformed_hub_strings_are_errors() {
    let bad_length = |expected, found| NotationError::BadLength { expected, found };
    let bad_char = |index, found| NotationError::BadChar { index, found };
    for (text, error) in [
        (format!("W{}", "e".repeat(49)), bad_length(51, 50)),
        (format!("W{}", "e".repeat(51)), bad_length(51, 52)),
        (format!("X{}", "e".repeat(50)), bad_char(0, 'X')),
        (format!("Wx{}", "e".repeat(49)), bad_char(1, 'x')),
    ] {
        assert_eq!(parse_hub::<Intl>(&text), Err(error), "{text}");
    }
    for (text, error) in [
        (format!("W{}", "e".repeat(50)), bad_length(33, 51)),
        (format!("W{}", "e".repeat(31)), bad_length(33, 32)),
        (format!("B{}1", "e".repeat(31)), bad_char(32, '1')),
    ] {
        assert_eq!(parse_hub::<Brazilian>(&text), Err(error), "{text}");
    }
    // A non-ASCII character counts as one character.
    assert!(parse_hub::<Intl>(&format!("W{}é", "e".repeat(49))).is_err());
    assert_eq!(parse_hub::<Intl>(""), Err(NotationError::Empty));
    // A white man on square 1 (its promotion row).
    let mut s = format!("W{}", "e".repeat(50));
    s.replace_range(1..2, "w");
    assert!(matches!(
        parse_hub::<Intl>(&s),
        Err(NotationError::Position(PositionError::ManOnPromotionRow(
            ..
        )))
    ));
    // 21 white men.
    let s = format!("W{}{}", "e".repeat(29), "w".repeat(21));
    assert!(matches!(
        parse_hub::<Intl>(&s),
        Err(NotationError::Position(PositionError::TooManyPieces { .. }))
    ));
    // parse_position sends text without ':' to the Hub reader.
    assert_eq!(
        parse_position::<Intl>("hello world"),
        Err(NotationError::NotAPosition {
            expected: 51,
            found: 11
        })
    );
    let said = parse_position::<Intl>("hello world")
        .unwrap_err()
        .to_string();
    assert!(
        said.contains("FEN") && said.contains("51 characters"),
        "{said}"
    );
    assert!(parse_position::<Intl>("").is_err());
}

#[test]
fn malformed_squares_and_moves_are_errors() {
    for text in [
        "0", "51", "", " ", "-1", "1.5", "a", "k1", "a0", "a11", "b1", "99999", "x",
    ] {
        assert!(parse_square::<Intl>(text).is_err(), "{text:?} accepted");
    }
    for text in ["0", "33", "51", "i1", "a9", "b1"] {
        assert!(
            parse_square::<Brazilian>(text).is_err(),
            "{text:?} accepted"
        );
    }
    let start = Position::<Intl>::start();
    assert_refused(
        &[
            (
                &["", "  "][..],
                (|e| matches!(e, NotationError::Empty)) as Check,
            ),
            (&["32", "32-28-23", "hello"], |e| {
                matches!(e, NotationError::BadMoveSyntax(_))
            }),
            (&["32-51", "0-5", "x", "32-"], |e| {
                matches!(e, NotationError::BadSquare(_))
            }),
            (&["32-23", "28-23", "32x28x23"], |e| {
                matches!(e, NotationError::IllegalMove(_))
            }),
        ],
        |text| parse_move(&start, text),
    );
    // 33 is not a square on 8x8.
    let start8 = Position::<Brazilian>::start();
    assert!(matches!(
        parse_move(&start8, "29-33"),
        Err(NotationError::BadSquare(_))
    ));
}

/// A small deterministic generator (xorshift64*), so every run feeds the same
/// strings.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Strings made of arbitrary bytes, and strings made of the characters the
/// parsers care about (so they get past the first checks).
fn random_inputs(count: usize) -> Vec<String> {
    const ALPHABET: &[u8] = b"0123456789WBwbKkxX-:,.eH F\"abcdefghij ";
    let mut rng = Rng(0x05EE_D0F7_E4D0);
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let len = rng.below(if i % 3 == 0 { 60 } else { 12 });
        let bytes: Vec<u8> = if i % 2 == 0 {
            (0..len).map(|_| rng.next() as u8).collect()
        } else {
            (0..len)
                .map(|_| ALPHABET[rng.below(ALPHABET.len())])
                .collect()
        };
        out.push(String::from_utf8_lossy(&bytes).into_owned());
    }
    // Hub-length strings of Hub characters, which reach the position checks.
    for len in [33usize, 51] {
        for _ in 0..200 {
            let s: String = (0..len).map(|_| b"WBwbe."[rng.below(6)] as char).collect();
            out.push(s);
        }
    }
    out
}

fn feed<R: Rules + PartialEq>(input: &str, positions: &[Position<R>]) {
    if let Ok(p) = parse_fen::<R>(input) {
        assert_eq!(parse_fen::<R>(&to_fen(&p)), Ok(p), "{input:?}");
    }
    if let Ok(p) = parse_hub::<R>(input) {
        assert_eq!(to_hub(&p).len(), input.trim().chars().count(), "{input:?}");
    }
    let _ = parse_position::<R>(input);
    let _ = parse_square::<R>(input);
    for p in positions {
        if let Ok(mv) = parse_move(p, input) {
            assert!(p.legal_moves().contains(mv), "{input:?}");
        }
    }
}

#[test]
fn random_strings_never_panic() {
    let intl = [
        Position::<Intl>::start(),
        pos::<Intl>("W:WK47:B14,19,29,31,42"),
        pos::<Intl>("W:WK38:B18,19,32,33"),
    ];
    let braz = [
        Position::<Brazilian>::start(),
        pos::<Brazilian>("W:WK29,31:BK27,10,18"),
    ];
    let inputs = random_inputs(4000);
    let mut accepted = 0;
    for input in &inputs {
        let result = catch_unwind(AssertUnwindSafe(|| {
            feed::<Intl>(input, &intl);
            feed::<Brazilian>(input, &braz);
        }));
        assert!(result.is_ok(), "a parser panicked on {input:?}");
        if parse_square::<Intl>(input).is_ok() {
            accepted += 1;
        }
    }
    assert!(inputs.len() >= 4000);
    // The generator does reach valid input now and then.
    assert!(accepted > 0);
}
