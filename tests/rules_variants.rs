//! One test per rule in which the other variants (issue #10) differ from
//! International draughts: each position, given as a FEN, is checked against
//! the EXACT set of legal moves in Hub long form (`from x to x captured...`),
//! most of them next to the International or Brazilian answer for the same
//! position, so the test shows the difference.
//!
//! Every expected set was worked out by hand on a drawn board; the comments
//! give the reasoning. 8x8 squares: 1 = b8, 4 = h8, 29 = a1, 32 = g1 (row
//! by row from White's top left), except Italian, whose board is turned:
//! 1 = a8, 4 = g8, 29 = b1, 32 = h1. 10x10: 1 = b10, 46 = a1.

use tempo::game::{Game, GameResult, WinReason};
use tempo::rules::notation::parse_move;
use tempo::rules::{
    Brazilian, Breakthrough, DrawClocks, DrawReason, DrawSettings, English, Frisian, Frysk,
    International, Italian, Killer, Losing, LosingBrazilian, Piece, Position, Rules, Russian, Side,
    Square, Turkish, VariantKind,
};

#[path = "common/legal_moves.rs"]
mod legal_moves;
use legal_moves::{assert_moves, assert_moves_of, moves_of, pos};

fn play<R: Rules>(p: &Position<R>, text: &str) -> Position<R> {
    let mv = parse_move(p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    p.play(mv)
}

fn piece_at<R: Rules>(p: &Position<R>, n: u8) -> Option<Piece> {
    p.piece_at(Square::new(n).unwrap())
}

// ---------------------------------------------------------------------------
// Russian
// ---------------------------------------------------------------------------

/// A man reaching the far row during a capture is crowned at once and goes
/// on capturing as a (flying) king.
#[test]
fn russian_man_crowned_during_a_capture_goes_on_as_a_king() {
    // White man b6 (9) takes c7 (6) and lands on d8 (2), the far row. As a
    // king it goes on down the d8-h4 diagonal: e7 (7) empty, f6 (11) black,
    // then g5 (16) or h4 (20).
    let fen = "W:W9:B6,11";
    assert_moves::<Russian>(fen, &["9x16x6x11", "9x20x6x11"]);
    // Brazilian (International rules): a man passing the far row is not
    // crowned; here it ends there, as a man may not take backwards from d8
    // over empty e7.
    assert_moves::<Brazilian>(fen, &["9x2x6"]);
    let after = play(&pos::<Russian>(fen), "9x20x6x11");
    assert_eq!(piece_at(&after, 20), Some(Piece::King(Side::White)));
}

/// Free choice among captures: the one taking fewer pieces is legal too.
#[test]
fn russian_and_english_have_no_majority_rule() {
    // a3 (21) x b4 (17) -> c5 (14) x d6 (10) -> e7 (7): two pieces.
    // h2 (28) x g3 (24) -> f4 (19): one piece, nothing more from f4.
    let fen = "W:W21,28:B10,17,24";
    assert_moves::<Russian>(fen, &["21x7x10x17", "28x19x24"]);
    assert_moves::<English>(fen, &["21x7x10x17", "28x19x24"]);
    assert_moves::<Brazilian>(fen, &["21x7x10x17"]);
}

/// A capture once begun must be completed: a flying king may not halt on a
/// square of its line when another square of that line lets it go on.
#[test]
fn russian_capture_must_be_completed() {
    // White: king b8 (1), men d4 (18), h2 (28), g1 (32); Black: e3 (23),
    // g3 (24), c7 (6), e7 (7), g7 (8), d8 (2), f8 (3), h8 (4).
    // The king takes c7 and may land on d6, e5 or f4 (g3 is black); only
    // from f4 can it go on (over e3 to d2 or c1), so d6 and e5 are illegal
    // halts. d4 takes e3 backwards to f2 and g3 to h4; h2 takes g3 to f4
    // and e3 to d2.
    let fen = "W:W18,28,32,K1:B2,3,4,6,7,8,23,24";
    assert_moves::<Russian>(
        fen,
        &["1x26x6x23", "1x30x6x23", "18x20x23x24", "28x26x23x24"],
    );
}

// ---------------------------------------------------------------------------
// English
// ---------------------------------------------------------------------------

/// Men capture forward only.
#[test]
fn english_men_capture_forward_only() {
    // White man d4 (18): c5 (14) black with b6 (9) behind: forward capture;
    // e3 (23) black with f2 (27) behind: a backward capture, not in English.
    let fen = "W:W18:B14,23";
    assert_moves::<English>(fen, &["18x9x14"]);
    assert_moves::<Brazilian>(fen, &["18x9x14", "18x27x23"]);
}

/// Kings move one square and capture only an adjacent piece.
#[test]
fn english_kings_move_and_capture_one_square() {
    // King c1 (30): b2 (25) and d2 (26), nothing further.
    assert_moves::<English>("W:WK30:B4", &["30-25", "30-26"]);
    // King a1 (29), black man d4 (18) two squares away: no capture, one step.
    assert_moves::<English>("W:WK29:B18", &["29-25"]);
    // Adjacent: b2 (25) black, c3 (22) empty behind.
    assert_moves::<English>("W:WK29:B25", &["29x22x25"]);
}

/// A man crowned by a capture ends its move there.
#[test]
fn english_crowning_ends_the_move() {
    // b6 (9) x c7 (6) -> d8 (2); a king on d8 could take e7 (7), but the
    // move ends with the crowning. In Russian it goes on, flying, to any of
    // f6 (11), g5 (16), h4 (20).
    let fen = "W:W9:B6,7";
    assert_moves::<English>(fen, &["9x2x6"]);
    assert_moves::<Russian>(fen, &["9x11x6x7", "9x16x6x7", "9x20x6x7"]);
    let after = play(&pos::<English>(fen), "9x2");
    assert_eq!(piece_at(&after, 2), Some(Piece::King(Side::White)));
}

/// Black moves first from the start position.
#[test]
fn english_black_moves_first() {
    let start = Position::<English>::start();
    assert_eq!(start.side_to_move(), Side::Black);
    assert_eq!(piece_at(&start, 1), Some(Piece::Man(Side::Black)));
    assert_eq!(piece_at(&start, 32), Some(Piece::Man(Side::White)));
    assert_eq!(
        Position::<International>::start().side_to_move(),
        Side::White
    );
}

// ---------------------------------------------------------------------------
// Italian (board turned: 1 = a8, 21 = b3, 22 = d3, 25 = a2, 32 = h1)
// ---------------------------------------------------------------------------

/// The board: square 1 is a8, and the start moves are 21-17 ... 24-20.
#[test]
fn italian_board_is_turned() {
    use tempo::rules::notation::parse_square;
    assert_eq!(parse_square::<Italian>("a8").unwrap().get(), 1);
    assert_eq!(parse_square::<Italian>("h1").unwrap().get(), 32);
    assert_eq!(parse_square::<Italian>("b1").unwrap().get(), 29);
    assert!(parse_square::<Italian>("a1").is_err());
    assert_moves_of(
        &Position::<Italian>::start(),
        &[
            "21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20",
        ],
    );
}

/// Men never capture kings.
#[test]
fn italian_men_do_not_capture_kings() {
    // Man d3 (22): c4 (18) black king with b5 (13) empty behind: not a
    // capture for a man; e4 (19) black man with f5 (15) behind: a capture.
    assert_moves::<Italian>("W:W22:BK18,19", &["22x15x19"]);
    // With the man gone, the man only steps (to e4; c4 is taken).
    assert_moves::<Italian>("W:W22:BK18", &["22-19"]);
}

/// Among equal captures, the one made by a king comes first.
#[test]
fn italian_king_capture_precedes_a_man_capture() {
    // Man d3 (22) x e4 (19) -> f5 (15); king a2 (25) x b3 (21) -> c4 (18).
    assert_moves::<Italian>("W:W22,K25:B19,21", &["25x18x21"]);
}

/// Then the capture taking the most kings.
#[test]
fn italian_most_kings_taken() {
    // King a2 (25) x man b3 (21); king h1 (32) x king g2 (28) -> f3 (23).
    assert_moves::<Italian>("W:WK25,K32:B21,K28", &["32x23x28"]);
}

/// Then the capture meeting a king earliest.
#[test]
fn italian_earliest_king_taken() {
    // King e4 (19), two ways to take two pieces, one of them a king:
    // d5 (14, king) to c6, then b7 (5) to a8 (1): the king first;
    // f5 (15) to g6, then f7 (7, king) to e8 (3): the king second.
    assert_moves::<Italian>("W:WK19:B5,K7,K14,15", &["19x1x5x14"]);
}

/// Italian captures: most pieces first of all.
#[test]
fn italian_most_pieces_first() {
    // Man b3 (21) x c4 (18) -> d5 (14) x e6 (11) -> f7 (7): two pieces;
    // king h1 (32) x g2 (28) -> f3 (23): one piece, even by a king.
    assert_moves::<Italian>("W:W21,K32:B11,18,28", &["21x7x11x18"]);
}

// ---------------------------------------------------------------------------
// Killer
// ---------------------------------------------------------------------------

/// A king whose last captured piece is a king halts right behind it.
#[test]
fn killer_king_halts_behind_a_taken_king() {
    // King a1 (46) x king c3 (37) on the long diagonal: Killer halts on d4
    // (32); International may land on any empty square beyond.
    assert_moves::<Killer>("W:WK46:BK37", &["46x32x37"]);
    assert_moves::<International>(
        "W:WK46:BK37",
        &[
            "46x32x37", "46x28x37", "46x23x37", "46x19x37", "46x14x37", "46x10x37", "46x5x37",
        ],
    );
    // Taking a man, the Killer king lands where it likes.
    assert_moves::<Killer>(
        "W:WK46:B37",
        &[
            "46x32x37", "46x28x37", "46x23x37", "46x19x37", "46x14x37", "46x10x37", "46x5x37",
        ],
    );
}

// ---------------------------------------------------------------------------
// Losing and Breakthrough: how the game is won
// ---------------------------------------------------------------------------

#[test]
fn losing_is_won_by_the_side_that_cannot_move() {
    // White to move with no pieces: White has won.
    let gone = pos::<Losing>("W:W:B1,2");
    assert_eq!(gone.winner(), Some(Side::White));
    assert!(!gone.is_lost());
    assert_eq!(pos::<International>("W:W:B1,2").winner(), Some(Side::Black));
    // Blocked: White man on 46 (a1) with black men on 41 (b2) and 37 (c3)
    // behind it; White cannot move and wins.
    let blocked = pos::<Losing>("W:W46:B37,41");
    assert_eq!(blocked.winner(), Some(Side::White));
    // 8x8 too.
    assert_eq!(
        pos::<LosingBrazilian>("B:W29:B").winner(),
        Some(Side::Black)
    );
    // A game records the reason.
    let mut game = Game::new(pos::<Losing>("W:W33:B22"));
    assert_eq!(game.result(), GameResult::Ongoing);
    game.play_text("33-28").unwrap();
    game.play_text("22x33").unwrap();
    assert_eq!(game.result(), GameResult::WhiteWins(WinReason::GaveAwayAll));
    assert_eq!(
        game.result().describe(),
        "White has no pieces left (losing draughts)"
    );
    assert_eq!(
        GameResult::WhiteWins(WinReason::Blocked).describe(),
        "Black has no legal move"
    );
}

#[test]
fn breakthrough_is_won_by_the_first_king() {
    // White man 6 steps to 1 (the far row): White has won at once, though
    // Black still has moves.
    let before = pos::<Breakthrough>("W:W6:B45");
    assert_eq!(before.winner(), None);
    let after = play(&before, "6-1");
    assert_eq!(after.winner(), Some(Side::White));
    assert!(after.is_lost());
    let mut game = Game::new(before);
    game.play_text("6-1").unwrap();
    assert_eq!(game.result(), GameResult::WhiteWins(WinReason::FirstKing));
    // In International the game goes on.
    assert_eq!(
        play(&pos::<International>("W:W6:B45"), "6-1").winner(),
        None
    );
}

// ---------------------------------------------------------------------------
// Frisian and Frysk!
// ---------------------------------------------------------------------------

/// Men capture along rows and files too, over the next playable square
/// (two files or two rows away).
#[test]
fn frisian_men_capture_along_rows_and_files() {
    // White man 33 (f4): black 32 (d4) on its row, landing on 31 (b4);
    // black 23 (f6) on its file, landing on 13 (f8). International: no
    // capture, 33 steps forward.
    assert_moves::<Frisian>("W:W33:B23,32", &["33x13x23", "33x31x32"]);
    assert_moves::<International>("W:W33:B23,32", &["33-28", "33-29"]);
    // A sequence turns from a diagonal onto a row: 33 x 28 lands on 22,
    // then x 23 along row 4 to 24.
    assert_moves::<Frisian>("W:W33:BK23,28,17", &["33x24x23x28"]);
}

/// Kings capture flying along rows and files, but move only diagonally.
#[test]
fn frisian_kings_fly_orthogonally_only_to_capture() {
    // King 46 (a1) up the a-file over 26 (a5), landing on 16 or 6.
    assert_moves::<Frisian>("W:WK46:B26", &["46x16x26", "46x6x26"]);
    // No capture: the long diagonal only, no step along the row or file.
    assert_moves::<Frisian>(
        "W:WK46:B1",
        &[
            "46-41", "46-37", "46-32", "46-28", "46-23", "46-19", "46-14", "46-10", "46-5",
        ],
    );
}

/// The capture of the highest value is compulsory: a king taken is worth
/// more than a man, two men more than a king.
#[test]
fn frisian_capture_of_the_highest_value() {
    // Man 33 takes king 32 along the row, or man 23 up the file: the king.
    assert_moves::<Frisian>("W:W33:B23,K32", &["33x31x32"]);
    // Man 33 takes king 38 (to 42), or men 39 and 34 (to 44, then up the
    // file to 24): the two men (200 against 199). International: one piece
    // either way.
    assert_moves::<Frisian>("W:W33:BK38,34,39", &["33x24x34x39"]);
    assert_moves::<International>("W:W33:BK38,34,39", &["33x42x38", "33x44x39"]);
}

/// On equal value, a capture by a king is compulsory.
#[test]
fn frisian_king_captures_first_on_equal_value() {
    // Man 33 x 28 or king 50 x 44: one man each; the king must take.
    assert_moves::<Frisian>("W:W33,K50:B28,44", &["50x39x44"]);
    assert_moves::<International>("W:W33,K50:B28,44", &["33x22x28", "50x39x44"]);
}

/// While its side has men, a king makes at most three quiet moves in a
/// row; then it may only capture, and another piece must move.
#[test]
fn frisian_king_moves_at_most_three_times_in_a_row() {
    // White: king 50 and man 36; Black: a man walking down from 4, never
    // in reach.
    let start = "W:WK50,36:B4";
    let moves = ["50-44", "4-9", "44-50", "9-13", "50-44", "13-18"];
    let mut p = pos::<Frisian>(start);
    for mv in moves {
        p = play(&p, mv);
    }
    assert_eq!(p.king_run(Side::White).map(|(_, n)| n), Some(3));
    // King 44 is frozen: only the man moves.
    assert_moves_of(&p, &["36-31"]);
    // The same board from a FEN has no run: the king may move.
    let fresh = pos::<Frisian>(&tempo::rules::notation::to_fen(&p));
    assert!(fresh.legal_moves().len() > 1);
    assert_ne!(fresh, p);
    assert_ne!(fresh.key(), p.key());
    assert_eq!(p.key(), p.compute_key());
    // Another piece's move frees the king.
    let p = play(&play(&p, "36-31"), "18-23");
    assert_eq!(p.king_run(Side::White), None);
    assert!(p.legal_moves().len() > 2);
    // With no men left the limit does not apply.
    let mut kings_only = pos::<Frisian>("W:WK50:B4");
    for mv in moves {
        kings_only = play(&kings_only, mv);
    }
    assert_eq!(kings_only.king_run(Side::White), None);
    assert!(kings_only.legal_moves().len() > 1);
    // International has no such limit.
    let mut intl = pos::<International>(start);
    for mv in moves {
        intl = play(&intl, mv);
    }
    assert!(intl.legal_moves().len() > 1);
}

/// One king against one draws after two moves of each side, two kings
/// against one after seven (the Frisian rules as lidraughts plays them).
#[test]
fn frisian_draws_king_against_king_in_two_moves_and_two_kings_in_seven() {
    let settings = DrawSettings::for_variant(VariantKind::Frisian);
    assert_eq!(settings, DrawSettings::for_variant(VariantKind::Frysk));
    assert_eq!(
        (settings.repetitions, settings.king_moves),
        (3, 0),
        "no 25-move king rule"
    );
    let plies = |fen: &str| DrawClocks::start(&pos::<Frisian>(fen)).plies_until_draw(&settings);
    assert_eq!(plies("W:WK46:BK4"), Some(4));
    assert_eq!(plies("W:WK46,K50:BK4"), Some(14));
    assert_eq!(plies("W:WK46,K50,K1:BK4"), None);
    assert_eq!(plies("W:WK46,50:BK4"), None);
    let mut game = Game::new(pos::<Frisian>("W:WK46:BK4"));
    for mv in ["46-41", "4-15", "41-47"] {
        game.play_text(mv).unwrap();
        assert_eq!(game.result(), GameResult::Ongoing);
    }
    game.play_text("15-10").unwrap();
    assert_eq!(game.result(), GameResult::Draw(DrawReason::ShortEndgame));
}

/// Frysk! starts from five men a side on the back rows, under the Frisian
/// rules.
#[test]
fn frysk_starts_from_the_back_rows() {
    let start = Position::<Frysk>::start();
    assert_eq!(
        tempo::rules::notation::to_fen(&start),
        "W:W46,47,48,49,50:B1,2,3,4,5"
    );
    assert_eq!(start.legal_moves().len(), 9);
    // Orthogonal captures as in Frisian.
    assert_moves::<Frysk>("W:W33:B23,K32", &["33x31x32"]);
}

// ---------------------------------------------------------------------------
// Turkish draughts (seed 003, "Damas")
// ---------------------------------------------------------------------------

/// 16 men a side on the second and third rows, on all 64 squares; White
/// starts; FEN in and out in coordinates.
#[test]
fn turkish_starts_on_the_second_and_third_rows() {
    let start = Position::<Turkish>::start();
    let fen = "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:\
               Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7";
    assert_eq!(tempo::rules::notation::to_fen(&start), fen);
    assert_eq!(pos::<Turkish>(fen), start);
    assert_moves::<Turkish>(
        fen,
        &[
            "a3-a4", "b3-b4", "c3-c4", "d3-d4", "e3-e4", "f3-f4", "g3-g4", "h3-h4",
        ],
    );
}

/// Men move one square straight forward or sideways, never backward or
/// diagonally; kings move like rooks.
#[test]
fn turkish_men_step_forward_and_sideways_kings_fly_along_lines() {
    assert_moves::<Turkish>("W:Wd4:Bh8", &["d4-d5", "d4-c4", "d4-e4"]);
    assert_moves::<Turkish>("B:Wh1:Bd4", &["d4-d3", "d4-c4", "d4-e4"]);
    let king = pos::<Turkish>("W:WKd4,d5:Bh8");
    let got = moves_of(&king);
    for mv in ["d4-a4", "d4-h4", "d4-d1", "d5-d6", "d5-c5"] {
        assert!(got.contains(mv), "{mv} missing from {got:?}");
    }
    assert!(!got.contains("d4-d6"), "a king does not pass its own man");
    assert!(!got.contains("d4-e5"), "no diagonal moves");
}

/// Captures forward and sideways over an adjacent piece; the capture of
/// the most pieces is compulsory.
#[test]
fn turkish_men_capture_the_most_pieces() {
    // d4 x d5 to d6, then x e6 to f6 (two), or x c4 to b4 (one).
    assert_moves::<Turkish>("W:Wd4,Kh1:Bd5,c4,e6,e5", &["d4xf6xe6xd5"]);
    // No capture backward: the man on d4 does not take d3.
    assert_moves::<Turkish>("W:Wd4:Bd3,h8", &["d4-d5", "d4-c4", "d4-e4"]);
}

/// Captured pieces leave the board as they are jumped: the king crosses
/// a3-a6 twice, the second time over the square of a3, taken earlier.
#[test]
fn turkish_pieces_leave_the_board_during_the_capture() {
    assert_moves::<Turkish>("W:WKa1:Ba3,c6,d4,b2,a7", &["a1xa8xa7xc6xd4xa3xb2"]);
}

/// A king may not turn back 180 degrees between two jumps: from a4 it takes
/// a6 or a2, never both.
#[test]
fn turkish_king_never_turns_back() {
    assert_moves::<Turkish>("W:WKa4:Ba6,a2", &["a4xa8xa6", "a4xa7xa6", "a4xa1xa2"]);
}

/// A man reaching the far row during a capture goes on as a man (sideways
/// only, never back down) and is crowned where the move ends.
#[test]
fn turkish_man_crowned_at_the_end_of_its_capture() {
    // c6 x c7 to c8, then along the far row x d8 to e8; as a king it could
    // also take e7 downward: it may not.
    let p = pos::<Turkish>("W:Wc6,h1:Bc7,d8,e7,h8");
    assert_moves::<Turkish>("W:Wc6,h1:Bc7,d8,e7,h8", &["c6xe8xd8xc7"]);
    let after = play(&p, "c6xe8xd8xc7");
    let e8 = tempo::rules::notation::parse_square::<Turkish>("e8").unwrap();
    assert_eq!(after.piece_at(e8), Some(Piece::King(Side::White)));
}

/// Seed 003: a side left with at most one piece against a king has lost;
/// a king against a king is no win for either (drawn after two moves of
/// each side).
#[test]
fn turkish_one_piece_against_a_king_loses() {
    assert_eq!(pos::<Turkish>("B:WKa1,b2:Bh7").winner(), Some(Side::White));
    assert_eq!(pos::<Turkish>("W:WKa1:Bh7").winner(), Some(Side::White));
    assert_eq!(pos::<Turkish>("W:Wa3:BKh8").winner(), Some(Side::Black));
    assert_eq!(pos::<Turkish>("W:Wa3:Bh6").winner(), None);
    assert_eq!(pos::<Turkish>("W:WKa1:BKh8,g7").winner(), Some(Side::Black));
    // A capture that leaves one piece against a king ends the game.
    let mut game = Game::new(pos::<Turkish>("W:WKa1,a2:Ba5,h7"));
    game.play_text("a2-b2").unwrap();
    assert_eq!(game.result(), GameResult::Ongoing);
    let mut game = Game::new(pos::<Turkish>("W:WKa1:Ba5,h7"));
    game.play_text("a1xa6xa5").unwrap();
    assert_eq!(game.result(), GameResult::WhiteWins(WinReason::LonePiece));
    // King against king.
    let kk = pos::<Turkish>("W:WKa1:BKh8");
    assert_eq!(kk.winner(), None);
    let settings = DrawSettings::for_variant(VariantKind::Turkish);
    assert_eq!(DrawClocks::start(&kk).plies_until_draw(&settings), Some(4));
}

/// The position where pydraughts lets a king pass its own man (b1-b8
/// through b7): tempo, like kish, stops the king before it.
#[test]
fn turkish_king_stops_before_its_own_man() {
    let p = pos::<Turkish>(
        "B:Wc2,d2,e2,f2,h2,d3,e3,f3,g3,h4,h5,a2,Ka8:Bc6,d6,e6,f6,h6,b7,c7,d7,e7,f7,g7,h7,Kb1",
    );
    let got = moves_of(&p);
    assert_eq!(got.len(), 22);
    assert!(got.contains("b1-b6"));
    assert!(!got.contains("b1-b8") && !got.contains("b1-b7"));
}
