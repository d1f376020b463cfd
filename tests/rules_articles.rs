//! One test per rule article of `shared/spec/rules.md`: the FMJD family table
//! (shared by International and Brazilian draughts), then the International
//! and Brazilian board and numbering facts.
//!
//! Each test's doc comment opens with the articles it checks, named by the
//! rule text and its own article numbers, then in brackets where that text
//! is in `shared/seeds/`, as the rest of the repository cites it (`seed 000
//! §4.13` = seed file 000, article 4.13): "FMJD rules art. 4.13 (seed 000
//! §4.13)". The texts:
//! - FMJD rules: seed 000, a Portuguese text of the official (FMJD) rules
//!   of International draughts ("Regras do jogo de damas"), numbered
//!   articles;
//! - Brazilian rules: seed 001 ("Regra para o jogo de dama"), unnumbered,
//!   cited by its headings ("A TOMADA");
//! - Czech rules: seed 002, the Czech rules of Brazilian draughts
//!   ("Pravidla brazilské dámy"), numbered points 1-9.
//!
//! A test of this engine's convention rather than of an article says so.
//!
//! Each position is given as a FEN and checked against the EXACT set of legal
//! moves in Hub long form (`from x to x captured...`, captured ascending).
//! Every expected set was worked out by hand on a drawn board from the rule
//! text; the comments give the reasoning (coordinates as White sees the
//! board, a1 = square 46 on 10x10 and 29 on 8x8).

use std::collections::BTreeSet;

use tempo::rules::notation::{format_move, parse_move, parse_square, to_fen};
use tempo::rules::{
    Brazilian, International, MoveStyle, NotationError, Piece, Position, Rules, Side, Square,
};

type Intl = International;

#[path = "common/legal_moves.rs"]
mod legal_moves;
use legal_moves::{assert_moves, assert_moves_of, pos};

/// Asserts that `text` is the one legal move of `fen`, and plays it.
fn play_only_move<R: Rules>(fen: &str, text: &str) -> Position<R> {
    let p = pos::<R>(fen);
    assert_moves_of(&p, &[text]);
    play(&p, text)
}

fn sq<R: Rules>(text: &str) -> u8 {
    parse_square::<R>(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .get()
}

/// Checks the numbering of `R`: each coordinate of `coords` names its
/// square, every number of `1..=squares` reads as itself, and every text
/// of `bad` is refused.
fn check_numbering<R: Rules>(coords: &[(&str, u8)], squares: u8, bad: &[&str]) {
    for &(coord, n) in coords {
        assert_eq!(sq::<R>(coord), n, "{coord}");
    }
    for n in 1..=squares {
        assert_eq!(sq::<R>(&n.to_string()), n);
    }
    for text in bad {
        assert!(parse_square::<R>(text).is_err(), "{text}");
    }
}

fn square(n: u8) -> Square {
    Square::new(n).unwrap()
}

/// Plays the move written `text` and returns the new position; checks on
/// the way that `Position::crowns` says whether the move made a man a king.
fn play<R: Rules>(p: &Position<R>, text: &str) -> Position<R> {
    let mv = parse_move(p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let next = p.play(mv);
    let side = p.side_to_move();
    let crowned = p.men(side) & mv.from().mask() != 0 && next.kings(side) & mv.to().mask() != 0;
    assert_eq!(p.crowns(mv), crowned, "{text}: Position::crowns");
    next
}

// ---------------------------------------------------------------------------
// FMJD family (International and Brazilian)
// ---------------------------------------------------------------------------

/// FMJD rules art. 2.2-2.4 (seed 000 §2.2-2.4); for Brazilian, Czech rules
/// art. 1 (seed 002 §1): dark squares only; the long diagonal starts at each
/// player's left, so each player's bottom-left square is dark.
#[test]
fn board_dark_squares_only_bottom_left_dark() {
    // White's bottom-left a1 and Black's bottom-left (j10 / h8) are squares.
    assert_eq!(sq::<Intl>("a1"), 46);
    assert_eq!(sq::<Intl>("j10"), 5);
    assert_eq!(sq::<Brazilian>("a1"), 29);
    assert_eq!(sq::<Brazilian>("h8"), 4);
    // Their light neighbours are not.
    for light in ["b1", "a2", "j9", "i10", "d1"] {
        assert!(parse_square::<Intl>(light).is_err(), "{light}");
    }
    for light in ["b1", "a2", "h7", "g8"] {
        assert!(parse_square::<Brazilian>(light).is_err(), "{light}");
    }
    // The long diagonal a1-j10 is all dark: a king on a1 reaches all of it.
    let diagonal: Vec<u8> = ["b2", "c3", "d4", "e5", "f6", "g7", "h8", "i9", "j10"]
        .iter()
        .map(|c| sq::<Intl>(c))
        .collect();
    assert_eq!(diagonal, vec![41, 37, 32, 28, 23, 19, 14, 10, 5]);
    assert_moves::<Intl>(
        "W:WK46:B",
        &[
            "46-41", "46-37", "46-32", "46-28", "46-23", "46-19", "46-14", "46-10", "46-5",
        ],
    );
}

/// FMJD rules art. 3.3 (seed 000 §3.3): White moves first; players
/// alternate.
#[test]
fn first_move_white_starts_and_sides_alternate() {
    let start = Position::<Intl>::start();
    assert_eq!(start.side_to_move(), Side::White);
    // Front men 31..35 step to 26..30; 35 (j4) has only 30.
    assert_moves_of(
        &start,
        &[
            "31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30",
        ],
    );
    let after = play(&start, "32-28");
    assert_eq!(after.side_to_move(), Side::Black);
    // Black's front men 16..20 step down to 21..25; nothing touches 28.
    assert_moves_of(
        &after,
        &[
            "16-21", "17-21", "17-22", "18-22", "18-23", "19-23", "19-24", "20-24", "20-25",
        ],
    );
    assert_eq!(play(&after, "19-23").side_to_move(), Side::White);
}

/// FMJD rules art. 3.4 (seed 000 §3.4); for Brazilian, Czech rules art. 2
/// (seed 002 §2): a man moves one square diagonally forward onto an empty
/// square.
#[test]
fn man_move_forward_only() {
    // e5 goes to d6 or f6, never back to d4/f4.
    assert_moves::<Intl>("W:W28:B", &["28-22", "28-23"]);
    // A black man moves down the board: f6 to e5 or g5.
    assert_moves::<Intl>("B:W:B23", &["23-28", "23-29"]);
    // On the edge (a3) there is one forward square.
    assert_moves::<Intl>("W:W36:B", &["36-31"]);
    // An occupied square blocks: 28 can only go to 23.
    assert_moves::<Intl>("W:W22,28:B", &["22-17", "22-18", "28-23"]);
    // Brazilian: c3 to b4/d4; black f6 to e5/g5.
    assert_moves::<Brazilian>("W:W22:B", &["22-17", "22-18"]);
    assert_moves::<Brazilian>("B:W:B11", &["11-15", "11-16"]);
}

/// FMJD rules art. 4.1-4.2 (seed 000 §4.1-4.2); for Brazilian, Brazilian
/// rules "A TOMADA" (seed 001): a man captures forward and backward, over an
/// adjacent piece only.
#[test]
fn man_capture_forward_and_backward() {
    // e5 takes d6 forward (to c7) or f4 backward (to g3).
    assert_moves::<Intl>("W:W28:B22,33", &["28x17x22", "28x39x33"]);
    // A black man on c7 takes d8 backward (up the board), landing on e9.
    assert_moves::<Intl>("B:W12:B17", &["17x8x12"]);
    // c7 is two squares from e5: not adjacent, so no capture.
    assert_moves::<Intl>("W:W28:B17", &["28-22", "28-23"]);
    // Brazilian: d4 takes c3 backward, landing on b2.
    assert_moves::<Brazilian>("W:W18:B22", &["18x25x22"]);
}

/// FMJD rules art. 3.9 (seed 000 §3.9); for Brazilian, Czech rules art. 6
/// (seed 002 §6): a king flies, any distance forward or backward over empty
/// squares.
#[test]
fn king_move_flying() {
    // King on e5: 4 + 5 + 4 + 4 squares along its two diagonals.
    assert_moves::<Intl>(
        "W:WK28:B",
        &[
            "28-22", "28-17", "28-11", "28-6", "28-23", "28-19", "28-14", "28-10", "28-5", "28-32",
            "28-37", "28-41", "28-46", "28-33", "28-39", "28-44", "28-50",
        ],
    );
    // Blocked by its own man on c7, and by a black man on h2 with a black
    // king on i1 behind it (no capture possible): it stops before them.
    assert_moves::<Intl>(
        "W:WK28,17:B44,K50",
        &[
            "28-22", "28-23", "28-19", "28-14", "28-10", "28-5", "28-32", "28-37", "28-41",
            "28-46", "28-33", "28-39", "17-11", "17-12",
        ],
    );
    // A black king on j10 flies down the long diagonal.
    assert_moves::<Intl>(
        "B:W:BK5",
        &[
            "5-10", "5-14", "5-19", "5-23", "5-28", "5-32", "5-37", "5-41", "5-46",
        ],
    );
    assert_moves::<Brazilian>(
        "W:WK29:B",
        &["29-25", "29-22", "29-18", "29-15", "29-11", "29-8", "29-4"],
    );
}

/// FMJD rules art. 4.3 (seed 000 §4.3): a king captures an enemy piece at
/// any distance, landing on any empty square beyond it.
#[test]
fn king_capture_far_with_choice_of_landing() {
    // a1 takes e5 from afar and may land on f6, g7, h8, i9 or j10.
    assert_moves::<Intl>(
        "W:WK46:B28",
        &["46x23x28", "46x19x28", "46x14x28", "46x10x28", "46x5x28"],
    );
    // Its own man on i9 limits the landings to f6, g7, h8.
    assert_moves::<Intl>("W:WK46,10:B28", &["46x23x28", "46x19x28", "46x14x28"]);
}

/// FMJD rules art. 4.5-4.6 (seed 000 §4.5-4.6): the capturing piece must go
/// on while it can; a king may change diagonal between jumps.
#[test]
fn chains_must_continue_and_king_may_turn() {
    // a1 takes e5; only from g7 can it go on (turning up-left over f8 to
    // e9 or d10), so landing on f6, h8, i9 or j10 is not allowed.
    assert_moves::<Intl>("W:WK46:B13,28", &["46x8x13x28", "46x2x13x28"]);
    // A man that can take a second piece must: f4 x g5 x g7 ends on f8.
    assert_moves::<Intl>("W:W33:B19,29", &["33x13x19x29"]);
}

/// FMJD rules art. 4.1 (seed 000 §4.1), and art. 4.3 for a king: capture is
/// compulsory; a quiet move is illegal while a capture exists.
#[test]
fn capture_is_compulsory() {
    assert_moves::<Intl>("W:W28,45:B23", &["28x19x23"]);
    let p = pos::<Intl>("W:W28,45:B23");
    assert!(matches!(
        parse_move(&p, "45-40"),
        Err(NotationError::IllegalMove(_))
    ));
    assert!(matches!(
        parse_move(&p, "28-22"),
        Err(NotationError::IllegalMove(_))
    ));
    // A king's capture is compulsory too, though the man could move.
    assert_moves::<Intl>(
        "W:WK46,45:B28",
        &["46x23x28", "46x19x28", "46x14x28", "46x10x28", "46x5x28"],
    );
}

/// FMJD rules art. 4.13 (seed 000 §4.13): the majority rule: the sequence
/// taking the most pieces is compulsory, across men and kings; a king counts
/// as one piece (quantity, not quality).
#[test]
fn majority_rule_quantity_not_quality() {
    // The king on a3 could take the black king on b2 (one piece, landing
    // c1); the man on f4 takes two men (g5, g7). Two beats one.
    assert_moves::<Intl>("W:WK36,33:BK41,19,29", &["33x13x19x29"]);
}

/// FMJD rules art. 4.14 (seed 000 §4.14): among sequences taking the same
/// maximum, any may be chosen, with a man or with a king.
#[test]
fn free_choice_among_equal_maxima() {
    // One man, two single captures.
    assert_moves::<Intl>("W:W28:B22,23", &["28x17x22", "28x19x23"]);
    // A man takes a man, a king takes a king: one piece each.
    assert_moves::<Intl>("W:WK46,28:BK37,23", &["28x19x23", "46x32x37"]);
    // King + man (a3 x b4 x d6) equals man + man (j2 x i3 x g5): a king
    // counts as one.
    assert_moves::<Intl>("W:W36,45:BK31,22,40,29", &["36x18x22x31", "45x23x29x40"]);
}

/// FMJD rules art. 4.11 (seed 000 §4.11): Turkish strike: captured pieces
/// leave the board only when the sequence is complete, so they block the way.
#[test]
fn turkish_strike_captured_pieces_stay_until_the_end() {
    // c3 x e5 (land g7) x f8 (land e9) x d8 (land c7, b6 or a5). From c7
    // the way down-right runs d6, e5 - still on the board, so g3 cannot be
    // reached (it could if e5 were removed at once: 4 pieces, landing h2/i1).
    assert_moves::<Intl>(
        "W:WK37:B12,13,28,39",
        &["37x17x12x13x28", "37x21x12x13x28", "37x26x12x13x28"],
    );
}

/// FMJD rules art. 4.8 (seed 000 §4.8), its first half: Turkish strike: an
/// empty square may be crossed more than once.
#[test]
fn turkish_strike_king_crosses_an_empty_square_twice() {
    // a1 x e5 (land f6) x e7 (land d8) x b6 (land a5) x b4: the last leg
    // runs a5-b4-c3-d2-e1 and crosses c3, which the first leg crossed.
    assert_moves::<Intl>(
        "W:WK46:B18,21,28,31",
        &[
            "46x37x18x21x28x31",
            "46x42x18x21x28x31",
            "46x48x18x21x28x31",
        ],
    );
}

/// FMJD rules art. 4.8 (seed 000 §4.8), its second half: Turkish strike: a
/// piece may not be jumped twice.
#[test]
fn turkish_strike_no_piece_jumped_twice() {
    // The man on c1 runs round the square d2, d4, b4, b2 (either way) and
    // is back on c1, facing d2 and b2 again: both are taken already, so
    // the capture ends there with four pieces.
    assert_moves::<Intl>("W:W47:B31,32,41,42", &["47x47x31x32x41x42"]);
}

/// FMJD rules art. 4.8 (seed 000 §4.8) lets a king go round a circuit; that
/// capture paths with the same from, to and captured set are one move is this
/// engine's convention (a move is those three), not an article.
#[test]
fn turkish_strike_duplicate_paths_are_one_move() {
    // The king on e3 takes d4, e7, g7, f4 in a circuit either way round and
    // ends on e3, or goes round one way and lands on d2/c1 (via h6, f4) or
    // the other way on f2/g1 (via c5, d4): six paths, five moves.
    assert_moves::<Intl>(
        "W:WK38:B18,19,32,33",
        &[
            "38x38x18x19x32x33",
            "38x42x18x19x32x33",
            "38x47x18x19x32x33",
            "38x43x18x19x32x33",
            "38x49x18x19x32x33",
        ],
    );
}

/// FMJD rules art. 4.1 and 4.7 (seed 000 §4.1, §4.7): a piece never jumps
/// its own piece.
#[test]
fn own_pieces_are_never_jumped() {
    // The king on a1 sees its man on c3 and the black man on e5 behind it:
    // no capture; the king gets b2 only.
    assert_moves::<Intl>("W:WK46,37:B28", &["46-41", "37-31", "37-32"]);
}

/// FMJD rules art. 4.2-4.3 (seed 000 §4.2-4.3: the square right behind the
/// piece taken must be empty), said outright in the Brazilian rules "O
/// MOVIMENTO" (seed 001) and Czech rules art. 2 (seed 002 §2): two enemy
/// pieces with no empty square between them cannot be jumped.
#[test]
fn two_pieces_in_a_row_cannot_be_jumped() {
    assert_moves::<Intl>("W:WK46:B23,28", &["46-41", "46-37", "46-32"]);
    assert_moves::<Intl>("W:W33:B22,28", &["33-29"]);
}

/// FMJD rules art. 3.5 and 4.15 (seed 000 §3.5, §4.15): a man is crowned
/// when its move ENDS on the far row; passing it during a capture does not
/// crown it.
#[test]
fn promotion_only_when_the_move_ends_on_the_far_row() {
    // f8 x e9 reaches d10 (far row) and must go on x c9 to b8: a man.
    let after = play_only_move::<Intl>("W:W13:B7,8", "13x11x7x8");
    assert_eq!(after.piece_at(square(11)), Some(Piece::Man(Side::White)));
    assert_eq!(after.piece_at(square(13)), None);
    assert_eq!(after.piece_at(square(7)), None);
    assert_eq!(after.piece_at(square(8)), None);
    // The same capture ending on d10 crowns.
    let after = play_only_move::<Intl>("W:W13:B8", "13x2x8");
    assert_eq!(after.piece_at(square(2)), Some(Piece::King(Side::White)));
    // Quiet moves crown too, for both sides.
    let after = play(&pos::<Intl>("W:W6:B"), "6-1");
    assert_eq!(after.piece_at(square(1)), Some(Piece::King(Side::White)));
    let after = play_only_move::<Intl>("B:W:B45", "45-50");
    assert_eq!(after.piece_at(square(50)), Some(Piece::King(Side::Black)));
    assert_eq!(to_fen(&after), "W:W:BK50");
}

/// FMJD rules art. 7.2.2-7.2.3 (seed 000 §7.2.2-7.2.3); for Brazilian, Czech
/// rules art. 7 (seed 002 §7): the player to move with no legal move (no
/// pieces left, or all blocked) loses.
#[test]
fn win_no_legal_move_loses() {
    // No pieces left.
    let p = pos::<Intl>("W:W:B1");
    assert!(p.is_lost());
    assert!(p.legal_moves().is_empty());
    // Blocked: the man on a1 faces b2 with c3 behind it.
    let p = pos::<Intl>("W:W46:B37,41");
    assert!(p.is_lost());
    assert!(p.legal_moves().is_empty());
    // Black, to move in the same position, has moves.
    let black = p.with_side_to_move(Side::Black);
    assert!(!black.is_lost());
    assert_moves_of(&black, &["37-42", "41-47"]);
    assert!(!Position::<Intl>::start().is_lost());
    assert!(pos::<Brazilian>("B:W29:B").is_lost());
}

// ---------------------------------------------------------------------------
// International draughts (10x10), FMJD rules (seed 000)
// ---------------------------------------------------------------------------

/// FMJD rules art. 2.6-2.8 (seed 000 §2.6-2.8): 50 playable squares
/// numbered 1..50 row by row from White's top-left; 20 men each, Black on
/// 1-20, White on 31-50.
#[test]
fn international_numbering_and_start_position() {
    check_numbering::<Intl>(
        &[
            ("b10", 1),
            ("j10", 5),
            ("a9", 6),
            ("i9", 10),
            ("a1", 46),
            ("i1", 50),
        ],
        50,
        &["0", "51", "k1", "a11"],
    );
    let start = Position::<Intl>::start();
    let pieces = start.piece_list();
    assert_eq!(pieces.len(), 40);
    for (s, piece) in pieces {
        match s.get() {
            1..=20 => assert_eq!(piece, Piece::Man(Side::Black)),
            31..=50 => assert_eq!(piece, Piece::Man(Side::White)),
            other => panic!("piece on {other}"),
        }
    }
    assert_eq!(start, pos::<Intl>("W:W31-50:B1-20"));
}

/// FMJD rules art. 8.2 (seed 000 §8.2): `from-to` for a move, `fromxto` for
/// a capture.
#[test]
fn international_notation_from_to_and_fromxto() {
    let p = pos::<Intl>("W:W28:B23");
    let mv = p.legal_moves().as_slice()[0];
    assert_eq!(format_move::<Intl>(mv, MoveStyle::Short), "28x19");
    let start = Position::<Intl>::start();
    let mv = parse_move(&start, "32-28").unwrap();
    assert_eq!(format_move::<Intl>(mv, MoveStyle::Short), "32-28");
}

// ---------------------------------------------------------------------------
// Brazilian draughts (8x8), Brazilian and Czech rules (seeds 001, 002)
// ---------------------------------------------------------------------------

/// Czech rules art. 9 (seed 002 §9) write Brazilian moves in coordinates as
/// in chess; the numbers 1..32 are this engine's (1 = b8, 4 = h8, 5 = a7,
/// 29 = a1, 32 = g1), in the order of FMJD rules art. 2.6 (seed 000 §2.6),
/// as `shared/spec/rules.md` decides.
#[test]
fn brazilian_numbering() {
    check_numbering::<Brazilian>(
        &[
            ("b8", 1),
            ("h8", 4),
            ("a7", 5),
            ("a1", 29),
            ("g1", 32),
            ("c3", 22),
        ],
        32,
        &["0", "33", "i1", "a9", "b1"],
    );
}

/// Czech rules art. 1-2 (seed 002 §1-2): 12 men each, White on a1,c1,e1,g1,
/// b2,d2,f2,h2,a3,c3,e3,g3, Black on the last three rows; White moves first.
#[test]
fn brazilian_start_position() {
    let start = Position::<Brazilian>::start();
    let white: BTreeSet<u8> = [
        "a1", "c1", "e1", "g1", "b2", "d2", "f2", "h2", "a3", "c3", "e3", "g3",
    ]
    .iter()
    .map(|c| sq::<Brazilian>(c))
    .collect();
    assert_eq!(white, (21..=32).collect());
    for (s, piece) in start.piece_list() {
        let expected = if white.contains(&s.get()) {
            Piece::Man(Side::White)
        } else {
            assert!((1..=12).contains(&s.get()), "piece on {s}");
            Piece::Man(Side::Black)
        };
        assert_eq!(piece, expected);
    }
    assert_eq!(start.piece_list().len(), 24);
    assert_eq!(start.side_to_move(), Side::White);
    // a3-b4, c3-b4, c3-d4, e3-d4, e3-f4, g3-f4, g3-h4.
    assert_moves_of(
        &start,
        &[
            "21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20",
        ],
    );
    let mv = parse_move(&start, "c3-d4").unwrap();
    assert_eq!(format_move::<Brazilian>(mv, MoveStyle::Short), "22-18");
}

/// Czech rules art. 4 and 6 (seed 002 §4, §6), Brazilian rules "A TOMADA"
/// (seed 001): the majority rule with a flying king on 8x8: man or king,
/// the capture that takes more pieces is compulsory.
#[test]
fn brazilian_majority_and_king() {
    // The man on e1 could take the black king on f2 (one piece). The king
    // on a1 takes d4, must land on e5 to turn and take d6, then lands on c7
    // or b8: two pieces, so only the king's captures are legal.
    assert_moves::<Brazilian>("W:WK29,31:BK27,10,18", &["29x6x10x18", "29x1x10x18"]);
}

/// Czech rules art. 5 (seed 002 §5), Brazilian rules "A COROAÇÃO" (seed
/// 001): on 8x8 too, passing the far row during a capture does not crown.
#[test]
fn brazilian_promotion_passing_far_row() {
    // d6 x e7 lands on f8 (far row) and goes on x g7 to h6: still a man.
    let after = play_only_move::<Brazilian>("W:W10:B7,8", "10x12x7x8");
    assert_eq!(after.piece_at(square(12)), Some(Piece::Man(Side::White)));
    // Ending on f8 crowns.
    let after = play(&pos::<Brazilian>("W:W10:B7"), "10x3x7");
    assert_eq!(after.piece_at(square(3)), Some(Piece::King(Side::White)));
}
