//! Property tests over random legal games of International and Brazilian
//! draughts (proptest picks the moves).
//!
//! In every position reached:
//! - every legal move printed in Hub long form reads back as the same move;
//!   printed in short form it reads back as the same move, or, when another
//!   legal move has the same from and to, gives an `AmbiguousMove` error that
//!   names the Hub form;
//! - position -> FEN -> position and position -> Hub string -> position are
//!   the identity;
//! - the incremental Zobrist `key()` equals `compute_key()`.

use proptest::prelude::*;

use tempo::rules::notation::{format_move, parse_fen, parse_hub, parse_move, to_fen, to_hub};
use tempo::rules::{Brazilian, International, MoveStyle, NotationError, Position, Rules};

/// Checks every property in one position.
fn check_position<R: Rules + PartialEq>(pos: &Position<R>) -> Result<(), TestCaseError> {
    prop_assert_eq!(pos.key(), pos.compute_key(), "key of {:?}", pos);
    let fen = to_fen(pos);
    prop_assert_eq!(parse_fen::<R>(&fen), Ok(*pos), "FEN {}", fen);
    let hub = to_hub(pos);
    prop_assert_eq!(parse_hub::<R>(&hub), Ok(*pos), "Hub {}", hub);
    let legal = pos.legal_moves();
    for &mv in legal.iter() {
        let long = format_move::<R>(mv, MoveStyle::Hub);
        prop_assert_eq!(parse_move(pos, &long), Ok(mv), "{} in {}", long, fen);
        let short = format_move::<R>(mv, MoveStyle::Short);
        let same_ends = legal
            .iter()
            .filter(|m| m.from() == mv.from() && m.to() == mv.to())
            .count();
        match parse_move(pos, &short) {
            Ok(read) => {
                prop_assert_eq!(read, mv, "{} in {}", short, fen);
                prop_assert_eq!(same_ends, 1);
            }
            Err(NotationError::AmbiguousMove { candidates, .. }) => {
                prop_assert!(same_ends > 1, "{} is not ambiguous in {}", short, fen);
                prop_assert!(
                    candidates.contains(&long),
                    "{} not among {:?}",
                    long,
                    candidates
                );
            }
            Err(e) => prop_assert!(false, "{} in {}: {}", short, fen, e),
        }
    }
    Ok(())
}

/// Plays a game from `start`, choosing the move `choice % count` at each
/// ply, and checks every position on the way.
fn check_game<R: Rules + PartialEq>(
    start: Position<R>,
    choices: &[u32],
) -> Result<(), TestCaseError> {
    let mut pos = start;
    for &choice in choices {
        check_position(&pos)?;
        let legal = pos.legal_moves();
        if legal.is_empty() {
            prop_assert!(pos.is_lost());
            return Ok(());
        }
        prop_assert!(!pos.is_lost());
        let mv = legal.as_slice()[choice as usize % legal.len()];
        let next = pos.play(mv);
        prop_assert_eq!(next.side_to_move(), pos.side_to_move().opponent());
        prop_assert_eq!(next.key(), next.compute_key(), "after {:?}", mv);
        pos = next;
    }
    check_position(&pos)
}

fn international_starts() -> Vec<Position<International>> {
    [
        "W:W31-50:B1-20",
        "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24",
        "W:WK31-50:BK1-20",
        "W:WK47:B14,19,29,31,42",
    ]
    .iter()
    .map(|f| parse_fen(f).expect("start FEN"))
    .collect()
}

fn brazilian_starts() -> Vec<Position<Brazilian>> {
    [
        "W:W21-32:B1-12",
        "W:W15,21,23,24,26,27,28,30,31,32:B1,2,3,4,5,6,7,8,10,12,K29",
    ]
    .iter()
    .map(|f| parse_fen(f).expect("start FEN"))
    .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn international_random_games(
        start in 0usize..4,
        choices in prop::collection::vec(any::<u32>(), 0..240),
    ) {
        check_game(international_starts()[start], &choices)?;
    }

    #[test]
    fn brazilian_random_games(
        start in 0usize..2,
        choices in prop::collection::vec(any::<u32>(), 0..200),
    ) {
        check_game(brazilian_starts()[start], &choices)?;
    }
}

/// Plays seeded random games of `R` and checks in every position that
/// `legal_quiet_move` finds exactly the generated quiet moves, for every
/// pair of board squares.
fn check_quiet_move_lookup<R: Rules>(games: u32) {
    use tempo::rules::movegen::legal_quiet_move;
    use tempo::rules::square::Bits;
    use tempo::rules::Geometry;
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let (mut checked, mut by_kings) = (0, 0);
    for _ in 0..games {
        let mut pos = Position::<R>::start();
        for _ in 0..200 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            for from in Bits(R::Geometry::BOARD) {
                for to in Bits(R::Geometry::BOARD) {
                    let generated = legal
                        .iter()
                        .copied()
                        .find(|m| !m.is_capture() && m.from() == from && m.to() == to);
                    let found = legal_quiet_move(&pos, from, to);
                    assert_eq!(found, generated, "{from:?}-{to:?} in {}", to_fen(&pos));
                    checked += usize::from(found.is_some());
                    by_kings += usize::from(found.is_some() && pos.all_kings() & from.mask() != 0);
                }
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            pos = pos.play(legal.as_slice()[(seed % legal.len() as u64) as usize]);
        }
    }
    assert!(checked > 1000, "only {checked} quiet moves seen");
    assert!(by_kings > 100, "only {by_kings} king moves seen");
}

#[test]
fn a_remembered_quiet_move_is_legal_exactly_when_it_is_generated() {
    use tempo::rules::{with_rules, VariantKind};
    for kind in [
        VariantKind::International,
        VariantKind::Brazilian,
        VariantKind::Russian,
        VariantKind::English,
        VariantKind::Italian,
    ] {
        with_rules!(kind, R => check_quiet_move_lookup::<R>(20));
    }
}
