//! The draw rules (seed 000 §6 for International, `rules.md` for Brazilian),
//! one test per rule and per boundary, through `Game`, and the `tempo game`
//! command through the binary.
//!
//! Boundary tests walk kings with `king_walk`: quiet king moves that never
//! revisit a position and never leave a capture to the opponent, so only
//! the rule under test can end the game.

use std::collections::HashSet;
use std::process::Command;

use tempo::game::{Game, GameError, GameResult, WinReason};
use tempo::rules::draw::{DrawReason, DrawSettings};
use tempo::rules::movegen::has_capture;
use tempo::rules::notation::{parse_fen, to_fen};
use tempo::rules::{
    Brazilian, International, Move, NotationError, Position, Rules, Side, VariantKind,
};

fn fen<R: Rules>(text: &str) -> Position<R> {
    parse_fen(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn game<R: Rules>(text: &str) -> Game<R> {
    Game::new(fen(text))
}

/// The first legal move of the current position that passes `keep`.
fn find_move<R: Rules>(game: &Game<R>, keep: impl Fn(Move, &Position<R>) -> bool) -> Move {
    let pos = *game.position();
    pos.legal_moves()
        .iter()
        .copied()
        .find(|&mv| keep(mv, &pos.play(mv)))
        .unwrap_or_else(|| panic!("no suitable move in {pos:?}"))
}

/// Whether `mv`, a move of `pos` leading to `next`, is a quiet king move to
/// a position not in `seen` that leaves the opponent no capture.
fn quiet_fresh<R: Rules>(
    pos: &Position<R>,
    mv: Move,
    next: &Position<R>,
    seen: &HashSet<u64>,
) -> bool {
    !mv.is_capture() && !pos.moves_man(mv) && !seen.contains(&next.key()) && !has_capture(next)
}

/// Plays `plies` quiet king moves, each to a position not seen before in
/// this walk, leaving the opponent no capture and a quiet king move of the
/// same kind in reply (so the walk does not trap either side).
fn king_walk<R: Rules>(game: &mut Game<R>, plies: usize) {
    let mut seen: HashSet<u64> = game.history_keys().iter().copied().collect();
    for _ in 0..plies {
        let pos = *game.position();
        let mv = find_move(game, |mv, next| {
            quiet_fresh(&pos, mv, next, &seen)
                && next.legal_moves().iter().any(|&reply| {
                    let after = next.play(reply);
                    after.key() != next.key() && quiet_fresh(next, reply, &after, &seen)
                })
        });
        game.play(mv).unwrap();
        seen.insert(game.position().key());
    }
}

/// Whether taking with `mv` leaves the opponent no capture in reply.
fn safe_take<R: Rules>(mv: Move, next: &Position<R>) -> bool {
    mv.is_capture() && !has_capture(next)
}

/// Plays a quiet move after which the opponent must capture and can do so
/// without being taken back, then that capture.
fn offer_and_take<R: Rules>(game: &mut Game<R>) {
    let offer = find_move(game, |mv, next| {
        !mv.is_capture()
            && has_capture(next)
            && next
                .legal_moves()
                .iter()
                .any(|&take| safe_take(take, &next.play(take)))
    });
    game.play(offer).unwrap();
    let take = find_move(game, safe_take);
    game.play(take).unwrap();
}

fn draw(reason: DrawReason) -> GameResult {
    GameResult::Draw(reason)
}

/// Walks kings (`king_walk`) for `plies` plies, after which the game must
/// still be on.
fn walk_still_on<R: Rules>(g: &mut Game<R>, plies: usize, context: &str) {
    king_walk(g, plies);
    assert_eq!(g.result(), GameResult::Ongoing, "{context}");
}

/// Walks kings (`king_walk`) to ply `end - 1` of the game, which must
/// still be on there, then plays ply `end`, which must draw it by `reason`.
fn walk_to_draw<R: Rules>(g: &mut Game<R>, end: usize, reason: DrawReason, context: &str) {
    let before = end - 1;
    walk_still_on(
        g,
        before - g.moves().len(),
        &format!("{context}: ply {before}"),
    );
    king_walk(g, 1);
    assert_eq!(g.result(), draw(reason), "{context}: ply {end}");
    assert_eq!(g.end_ply(), Some(end), "{context}");
}

/// A game of International from `text` under its draw settings as
/// `change` leaves them.
fn with_settings(text: &str, change: impl FnOnce(&mut DrawSettings)) -> Game<International> {
    let mut settings = DrawSettings::for_variant(VariantKind::International);
    change(&mut settings);
    Game::with_settings(fen(text), settings)
}

/// The draw-rule clocks of `g`: reversible plies, and the plies of the
/// short and the long endgame clocks where they run.
fn plies<R: Rules>(g: &Game<R>) -> (u32, Option<u32>, Option<u32>) {
    let clocks = g.clocks();
    (
        clocks.reversible_plies(),
        clocks.short_endgame_plies(),
        clocks.long_endgame_plies(),
    )
}

/// Two kings and two men a side: no endgame class, so only the king-move
/// rule and repetition apply.
const INTERNATIONAL_OPEN: &str = "W:WK46,K50,31,32:BK1,K5,19,20";
const BRAZILIAN_OPEN: &str = "W:WK29,K32,21,22:BK1,K4,11,12";

// ---- king-move rule (seed 000 §6.2; Brazilian 20 moves) --------------------

#[test]
fn king_move_rule_draws_on_the_25th_move_not_the_24th() {
    let mut g = game::<International>(INTERNATIONAL_OPEN);
    king_walk(&mut g, 48);
    assert_eq!(g.clocks().reversible_plies(), 48);
    assert_eq!(g.result(), GameResult::Ongoing, "24 moves each");
    walk_to_draw(&mut g, 50, DrawReason::KingMoves, "25 moves each");
}

#[test]
fn brazilian_king_move_rule_is_20_moves() {
    let mut g = game::<Brazilian>(BRAZILIAN_OPEN);
    walk_to_draw(&mut g, 40, DrawReason::KingMoves, "20 moves each");
}

#[test]
fn a_man_move_or_a_capture_resets_the_king_move_counter() {
    let mut g = game::<International>(INTERNATIONAL_OPEN);
    king_walk(&mut g, 6);
    assert_eq!(g.clocks().reversible_plies(), 6);
    let man = find_move(&g, |mv, next| !mv.is_capture() && !has_capture(next));
    assert!(g.position().moves_man(man));
    g.play(man).unwrap();
    assert_eq!(g.clocks().reversible_plies(), 0, "man move");
    king_walk(&mut g, 4);
    assert_eq!(g.clocks().reversible_plies(), 4);
    offer_and_take(&mut g);
    assert!(g.moves().last().is_some_and(|mv| mv.is_capture()));
    assert_eq!(g.clocks().reversible_plies(), 0, "capture");
    assert_eq!(g.history_keys(), &[g.position().key()]);
}

// ---- repetition (seed 000 §6.1) ---------------------------------------------

#[test]
fn repetition_draws_on_the_third_occurrence_not_the_second() {
    let mut g = game::<International>(INTERNATIONAL_OPEN);
    let cycle = ["50-45", "1-6", "45-50", "6-1"];
    for text in cycle {
        g.play_text(text).unwrap();
    }
    assert_eq!(g.occurrences(), 2);
    assert_eq!(g.result(), GameResult::Ongoing, "second occurrence");
    for text in &cycle[..3] {
        g.play_text(text).unwrap();
    }
    assert_eq!(g.result(), GameResult::Ongoing);
    g.play_text(cycle[3]).unwrap();
    assert_eq!(g.occurrences(), 3);
    assert_eq!(g.result(), draw(DrawReason::Repetition), "third occurrence");
    assert_eq!(g.end_ply(), Some(8));
    assert_eq!(g.history_keys().len(), 9);
}

#[test]
fn undo_takes_back_the_end_of_the_game() {
    let mut g = game::<International>(INTERNATIONAL_OPEN);
    g.play_list("50-45 1-6 45-50 6-1 50-45 1-6 45-50 6-1")
        .unwrap();
    assert!(g.result().is_over());
    let last = g.undo();
    assert!(last.is_some());
    assert_eq!(g.result(), GameResult::Ongoing);
    assert_eq!(g.occurrences(), 2);
    while g.undo().is_some() {}
    assert_eq!(g.position(), g.start());
    assert_eq!(g.clocks().reversible_plies(), 0);
}

// ---- 5-move rule (seed 000 §6.4) --------------------------------------------

#[test]
fn five_move_rule_draws_on_the_5th_move_not_the_4th() {
    for start in ["W:WK46,K50:BK3", "W:WK46,31:BK3", "W:WK47:BK3"] {
        let mut g = game::<International>(start);
        assert_eq!(g.clocks().short_endgame_plies(), Some(0), "{start}");
        walk_to_draw(&mut g, 10, DrawReason::ShortEndgame, start);
    }
}

// ---- 10-move rule (seed 000 §6.3) -------------------------------------------

#[test]
fn ten_move_rule_draws_on_the_10th_move_not_the_9th() {
    for start in [
        "W:WK46,K47,K50:BK3",
        "W:WK46,K47,31:BK3",
        "W:WK46,31,32:BK3",
    ] {
        let mut g = game::<International>(start);
        assert_eq!(g.clocks().long_endgame_plies(), Some(0), "{start}");
        walk_still_on(&mut g, 18, &format!("{start}: 9 moves each"));
        walk_to_draw(&mut g, 20, DrawReason::LongEndgame, start);
    }
}

#[test]
fn a_man_move_does_not_reset_the_endgame_clock() {
    let mut g = game::<International>("W:WK46,31,32:BK3");
    king_walk(&mut g, 6);
    g.play_text("31-26").unwrap();
    assert_eq!(g.clocks().reversible_plies(), 0);
    assert_eq!(g.clocks().long_endgame_plies(), Some(7));
    walk_to_draw(&mut g, 20, DrawReason::LongEndgame, "man move on ply 7");
}

#[test]
fn material_outside_the_classes_runs_no_endgame_clock() {
    // Three men and no king against a king: no class (seed 000 §6.3 needs a king).
    let g = game::<International>("W:W31,32,33:BK5");
    assert_eq!(g.clocks().long_endgame_plies(), None);
    assert_eq!(g.clocks().short_endgame_plies(), None);
    // Two kings against two kings: a class in Brazilian only.
    let mut g = game::<International>("W:WK46,K50:BK1,K5");
    walk_still_on(&mut g, 10, "2K v 2K: no class in International");
}

// ---- Brazilian thresholds ---------------------------------------------------

#[test]
fn brazilian_three_kings_v_king_is_20_moves() {
    let mut g = game::<Brazilian>("W:WK29,K30,K32:BK2");
    walk_still_on(&mut g, 20, "10 moves each: not in Brazilian");
    walk_to_draw(&mut g, 40, DrawReason::LongEndgame, "20 moves each");
}

#[test]
fn brazilian_five_move_endings_include_two_kings_v_two_kings() {
    for start in ["W:WK29,K32:BK1,K4", "W:WK29,K32:BK1,5", "W:WK29:BK1,5"] {
        let mut g = game::<Brazilian>(start);
        walk_to_draw(&mut g, 10, DrawReason::ShortEndgame, start);
    }
    // K+M v K+M is not in the Brazilian list.
    let g = game::<Brazilian>("W:WK29,22:BK1,11");
    assert_eq!(g.clocks().short_endgame_plies(), None);
}

#[test]
fn a_promotion_can_start_an_endgame_clock() {
    // K+M v K+M (no class) becomes 2K v K+M (Brazilian 5-move class).
    let mut g = game::<Brazilian>("W:WK32,6:BK28,13");
    assert_eq!(g.clocks().short_endgame_plies(), None);
    g.play_text("6-1").unwrap();
    assert_eq!(g.clocks().short_endgame_plies(), Some(0));
    assert_eq!(g.clocks().reversible_plies(), 0);
}

// ---- settings -----------------------------------------------------------------

#[test]
fn defaults_per_variant() {
    for (kind, thresholds) in [
        (VariantKind::International, (3, 25, 5, 10)),
        (VariantKind::Brazilian, (3, 20, 5, 20)),
    ] {
        let s = DrawSettings::for_variant(kind);
        let got = (
            s.repetitions,
            s.king_moves,
            s.short_endgame_moves,
            s.long_endgame_moves,
        );
        assert_eq!(got, thresholds, "{kind:?}");
    }
}

#[test]
fn the_fmjd_16_move_rule_is_one_setting_away() {
    let mut g = with_settings("W:WK46,K47,K50:BK3", |s| s.long_endgame_moves = 16);
    walk_still_on(&mut g, 20, "10 moves: not a draw at 16");
    walk_to_draw(&mut g, 32, DrawReason::LongEndgame, "16 moves each");
    // Back to the seed's 10: the same game was drawn at ply 20.
    g.set_settings(DrawSettings::for_variant(VariantKind::International));
    assert_eq!(g.end_ply(), Some(20));
}

#[test]
fn changing_a_setting_changes_the_outcome() {
    let moves = "50-45 1-6 45-50 6-1 50-45 1-6 45-50 6-1";
    let mut g = with_settings(INTERNATIONAL_OPEN, |s| s.repetitions = 4);
    g.play_list(moves).unwrap();
    assert_eq!(g.result(), GameResult::Ongoing);
    g.play_list("50-45 1-6 45-50 6-1").unwrap();
    assert_eq!(g.result(), draw(DrawReason::Repetition));

    let mut g = with_settings(INTERNATIONAL_OPEN, |s| s.king_moves = 3);
    king_walk(&mut g, 6);
    assert_eq!(g.result(), draw(DrawReason::KingMoves));

    let mut g = with_settings("W:WK46,K50:BK3", |s| s.short_endgame_moves = 0);
    walk_still_on(&mut g, 20, "rule off");
}

// ---- class changes and the last allowed move (decisions, protocol.md) --------

#[test]
fn from_3v1_to_2v1_late_the_running_10_move_clock_governs() {
    let mut g = game::<International>("W:WK46,K47,K50:BK3");
    king_walk(&mut g, 14);
    offer_and_take(&mut g); // White offers a king on ply 15, Black takes on 16.
    let clocks = g.clocks();
    assert_eq!(clocks.long_endgame_plies(), Some(16));
    assert_eq!(
        clocks.short_endgame_plies(),
        Some(0),
        "2K v K: the 5-move clock starts"
    );
    walk_to_draw(&mut g, 20, DrawReason::LongEndgame, "ply 20, not 26");
}

#[test]
fn from_3v1_to_2v1_early_the_new_5_move_clock_governs() {
    let mut g = game::<International>("W:WK46,K47,K50:BK3");
    offer_and_take(&mut g); // Plies 1 and 2.
    assert_eq!(g.clocks().short_endgame_plies(), Some(0));
    walk_to_draw(&mut g, 12, DrawReason::ShortEndgame, "ply 12, not 20");
}

#[test]
fn a_win_on_the_last_allowed_move_is_a_win() {
    // Black (the lone king) moves first: White's 5th move is ply 10, the
    // last the 5-move rule allows.
    let mut g = game::<International>("B:WK46,K50:BK3");
    king_walk(&mut g, 8);
    let offer = find_move(&g, |mv, next| !mv.is_capture() && has_capture(next));
    g.play(offer).unwrap(); // Black blunders on ply 9.
    assert_eq!(g.clocks().short_endgame_plies(), Some(9));
    assert_eq!(g.result(), GameResult::Ongoing);
    let take = find_move(&g, |mv, next| {
        mv.is_capture() && next.pieces(Side::Black) == 0
    });
    g.play(take).unwrap(); // White takes the last piece on ply 10.
    assert_eq!(g.end_ply(), Some(10));
    assert_eq!(g.result(), GameResult::WhiteWins(WinReason::NoPieces));
}

#[test]
fn a_side_with_pieces_but_no_move_loses() {
    // White's king on 47 is shut in by Black's men on 41 and 42, backed by
    // 36 and 38 (seed 000 §7.2.2).
    let pos = fen::<International>("W:WK47:B36,38,41,42");
    let g = Game::new(pos);
    assert_eq!(g.result(), GameResult::BlackWins(WinReason::Blocked));
    assert_eq!(g.end_ply(), Some(0));
}

#[test]
fn a_draw_is_not_undone_by_later_moves() {
    let mut g = game::<International>("W:WK46,K50:BK3");
    king_walk(&mut g, 14);
    assert_eq!(g.end_ply(), Some(10));
    assert_eq!(g.result(), draw(DrawReason::ShortEndgame));
}

// ---- whole games from Hub move lists ------------------------------------------

/// A whole International game as a Hub `moves="..."` list, captures in both
/// the `fromxto` and the `fromxtoxcaptured...` forms. Ply 97 (`4x45x13x29`)
/// leaves a white king against a black king and man; plies 98-107 are king
/// moves, so the 5-move rule draws on ply 107.
const INTERNATIONAL_GAME: &str = "32-27 16-21 27x16x21 17-22 35-30 18-23 40-35 11-17 44-40 \
    22-27 31x11x17x27 6x17 30-24 19x30 35x24x30 20x29 33x24x29 14-19 40-35 19x30 35x24x30 \
    23-29 24x33x29 9-14 45-40 1-6 16-11 7x16 34-30 12-18 36-31 18-22 37-32 15-20 30-24 20x29 \
    33x24x29 14-20 24x15x20 13-18 32-28 22x35 38-33 16-21 43-39 8-12 41-37 18-22 31-27 21x41 \
    46x37x41 22-27 37-32 27x29 42-37 3-8 50-44 29-33 39x28x33 17-21 47-41 8-13 49-43 10-14 \
    15-10 4x15 43-39 14-19 37-31 6-11 41-37 11-16 37-32 12-18 39-33 19-23 28x8x13x23 2x13 \
    33-28 5-10 48-43 35-40 44x35x40 21-26 31-27 15-20 28-23 18x29 27-21 16x49 35-30 49-43 \
    30-24 43-32 24x4x10x20 32-16 4x45x13x29 16-32 45-29 32-19 29-40 19-8 40-7 8-13 7-12 \
    13-36 12-45";

/// A whole Brazilian game. Ply 41 (`6-1`) crowns a man: K+2M v K, the long
/// clock starts; ply 42 (`31x13`) leaves K+M v K, the 5-move clock starts
/// and the long one runs on; plies 43-52 are king moves: drawn on ply 52.
const BRAZILIAN_GAME: &str = "23-18 11-15 18x11x15 8x15 26-23 15-19 24x15x19 10x17 21x14x17 \
    9x18 28-24 4-8 27-23 18x20 31-26 6-9 26-23 7-11 23-19 12-16 19x12x16 20-24 32-28 1-6 \
    28x19x24 9-14 19-16 11x20 25-22 14-17 22x13x17 3-7 12x1x6x7x8 2-6 1x24x6 20x27 30-26 5-9 \
    13x6x9 27-31 6-1 31x13 1-19 13-31 19-23 31-24 23-14 24-28 14-32 28-6 32-28 6-15";

/// A whole International game won by White on ply 63: Black's last piece,
/// the man on 25, is blocked by the white men on 30 and 34.
const BLOCKED_GAME: &str = "34-29 19-23 32-27 23x34 39x30x34 20-24 30x19x24 14x23 43-39 18-22 \
    27x29x22x23 16-21 35-30 13-19 38-32 8-13 29-24 11-16 33-29 21-27 31x11x17x27 6x17 29-23 \
    19x28 32x23x28 1-6 30-25 3-8 40-34 10-14 49-43 4-10 44-40 13-18 40-35 18x40 45x34x40 \
    17-21 42-38 6-11 47-42 14-20 25x3x9x20 21-27 50-45 15-20 24x4x10x20 12-18 4x6x11x18 27-31 \
    3x1x7x8 2-7 1x18x7 16-21 37x17x21x31 5-10 17-12 10-14 35-30 14-20 6-17 20-25 18-9";

/// Replays `moves` from the start of `R`: `plies` plies that end at `fen`.
fn replay_to<R: Rules>(moves: &str, plies: usize, fen: &str) -> Game<R> {
    let g = Game::replay(Position::<R>::start(), moves).unwrap();
    assert_eq!(g.moves().len(), plies);
    assert_eq!(to_fen(g.position()), fen);
    g
}

#[test]
fn whole_international_game_replays_to_the_5_move_draw() {
    let g = replay_to::<International>(INTERNATIONAL_GAME, 107, "B:WK45:B26,K36");
    assert_eq!(g.result(), draw(DrawReason::ShortEndgame));
    assert_eq!(g.end_ply(), Some(107));
    assert_eq!(plies(&g), (10, Some(10), None));
    assert_eq!(g.history_keys().len(), 11);
}

#[test]
fn whole_brazilian_game_replays_through_a_class_change() {
    let g = replay_to::<Brazilian>(BRAZILIAN_GAME, 52, "W:WK28,29:BK15");
    assert_eq!(g.result(), draw(DrawReason::ShortEndgame));
    assert_eq!(g.end_ply(), Some(52));
    assert_eq!(plies(&g), (10, Some(10), Some(11)));
}

#[test]
fn whole_game_ending_in_a_blocked_position() {
    let g = replay_to::<International>(
        BLOCKED_GAME,
        63,
        "B:WK9,12,K17,30,34,36,38,39,41,42,43,45,46,48:B25",
    );
    assert_eq!(g.result(), GameResult::WhiteWins(WinReason::Blocked));
    assert_eq!(g.result().score(), "1-0");
    assert_eq!(g.result().reason(), "no-moves");
}

#[test]
fn an_illegal_move_in_a_list_names_the_move_and_its_index() {
    let err = Game::replay(
        Position::<International>::start(),
        "32-28 19-23 28x19 14x24",
    )
    .unwrap_err();
    assert_eq!(
        err,
        GameError::InList {
            index: 4,
            text: "14x24".to_string(),
            error: NotationError::IllegalMove("14x24".to_string()),
        }
    );
    let text = err.to_string();
    assert!(text.contains("move 4") && text.contains("14x24"), "{text}");
    // Move numbers are skipped and do not count.
    let err = Game::replay(
        Position::<International>::start(),
        "1. 32-28 19-23 2. 28-22",
    )
    .unwrap_err();
    assert!(matches!(err, GameError::InList { index: 3, .. }), "{err}");
    // Garbage is an error too, never a panic.
    for junk in ["x", "-", "99-98", "32-28-23", "1x", "c3-d4", "32x", "💥"] {
        assert!(
            Game::replay(Position::<International>::start(), junk).is_err(),
            "{junk}"
        );
    }
}

// ---- no panic on any legal sequence ------------------------------------------

/// Random legal games to the end (or 300 plies), with random settings:
/// the result never changes once over, and undo restores every state.
fn random_games<R: Rules>(seed: u64) {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..40 {
        let mut settings = DrawSettings::for_variant(R::KIND);
        // Each setting from its smallest value to 12 moves.
        let mut pick = |min: u32| min + (next() % u64::from(13 - min)) as u32;
        settings.repetitions = pick(DrawSettings::MIN_REPETITIONS);
        settings.king_moves = pick(0);
        settings.short_endgame_moves = pick(0);
        settings.long_endgame_moves = pick(0);
        let mut g = Game::with_settings(Position::<R>::start(), settings);
        let mut states = vec![(g.clocks(), g.result())];
        while g.moves().len() < 300 {
            let moves = g.position().legal_moves();
            if moves.is_empty() {
                assert!(g.result().is_over());
                break;
            }
            let before = g.result();
            let mv = moves.as_slice()[(next() % moves.len() as u64) as usize];
            g.play(mv).unwrap();
            if before.is_over() {
                assert_eq!(g.result(), before);
            }
            assert!(g.history_keys().len() <= g.moves().len() + 1);
            states.push((g.clocks(), g.result()));
        }
        while let Some(state) = states.pop() {
            assert_eq!((g.clocks(), g.result()), state);
            g.undo();
        }
    }
}

#[test]
fn random_legal_games_never_panic() {
    random_games::<International>(0x1234_5678);
    random_games::<Brazilian>(0x8765_4321);
}

// ---- `tempo game` through the binary -------------------------------------------

fn tempo_game(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .arg("game")
        .args(args)
        .output()
        .expect("run tempo");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn last_line(text: &str) -> &str {
    text.lines().last().unwrap_or("")
}

/// The standard output of `tempo game` with `args`, which must succeed.
fn game_output(args: &[&str]) -> String {
    let (code, out, err) = tempo_game(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

#[test]
fn tempo_game_prints_the_result_as_its_last_line() {
    let out = game_output(&["--variant", "international", "--moves", INTERNATIONAL_GAME]);
    assert_eq!(last_line(&out), "result=1/2-1/2 reason=5-move");
    assert!(
        out.contains("plies=107 king-plies=10 short-endgame-plies=10"),
        "{out}"
    );
    for (args, result) in [
        (
            &["--variant", "brazilian", "--moves", BRAZILIAN_GAME][..],
            "result=1/2-1/2 reason=5-move",
        ),
        (&["--moves", BLOCKED_GAME], "result=1-0 reason=no-moves"),
        (
            &["--variant", "international", "--moves", "32-28 19-23"],
            "result=* reason=none",
        ),
        (
            &[
                "--fen",
                INTERNATIONAL_OPEN,
                "--moves",
                "50-45 1-6 45-50 6-1 50-45 1-6 45-50 6-1",
            ],
            "result=1/2-1/2 reason=repetition",
        ),
    ] {
        assert_eq!(last_line(&game_output(args)), result, "{args:?}");
    }
}

#[test]
fn tempo_game_settings_change_the_outcome() {
    let moves = "50-45 1-6 45-50 6-1 50-45 1-6 45-50 6-1";
    let out = game_output(&[
        "--fen",
        INTERNATIONAL_OPEN,
        "--set",
        "draw-repetitions=4",
        "--moves",
        moves,
    ]);
    assert_eq!(last_line(&out), "result=* reason=none");
    let (code, _, err) = tempo_game(&["--set", "draw-repetitions=1"]);
    assert_eq!(code, 2);
    assert!(err.contains("draw-repetitions"), "{err}");
}

#[test]
fn tempo_game_rejects_an_illegal_move_with_its_text_and_index() {
    let (code, out, err) = tempo_game(&["--moves", "32-28 19-23 28x19 14x24"]);
    assert_eq!(code, 2);
    assert!(!out.contains("result="), "{out}");
    assert!(err.contains("move 4") && err.contains("14x24"), "{err}");
    let (code, _, err) = tempo_game(&["--variant", "brazilian", "--moves", "22-18 11-15 18-14"]);
    assert_eq!(code, 2);
    assert!(err.contains("move 3") && err.contains("18-14"), "{err}");
}
