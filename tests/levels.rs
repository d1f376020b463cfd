//! Strength levels through the engine API: a weak level varies its moves
//! among near-best ones but never gives men away for nothing, `elo` picks
//! the level measured nearest below it, and analysis stays at full
//! strength.

use std::collections::BTreeSet;

use crossbeam_channel::unbounded;
use tempo::engine::strength::{LEVEL_ELO, MAX_LEVEL};
use tempo::engine::{EngineEvent, EngineHost, GoMode, Limits};

/// The move `go think` plays in `fen`, to depth 8 at most; its answer
/// names a ponder move too (the positions used leave the opponent moves).
fn play(engine: &mut EngineHost, fen: &str) -> String {
    engine.set_position(fen, &[]).unwrap();
    let (send, receive) = unbounded();
    let limits = Limits {
        depth: Some(8),
        ..Limits::default()
    };
    engine.go(GoMode::Think, limits, send).unwrap();
    let best = receive
        .iter()
        .find_map(|event| match event {
            EngineEvent::Done { best, ponder } => {
                assert!(ponder.is_some(), "no ponder move after {best:?} in {fen}");
                Some(best.expect("a move").to_string())
            }
            _ => None,
        })
        .expect("a done");
    engine.wait();
    best
}

fn engine_at(level: u32) -> EngineHost {
    let mut engine = EngineHost::new();
    engine.set_param("book", "false").unwrap();
    engine.set_param("level", &level.to_string()).unwrap();
    engine
}

#[test]
fn a_weak_level_varies_its_moves_but_gives_nothing_away() {
    let mut engine = engine_at(1);
    let start = "W:W31-50:B1-20";
    let moves: BTreeSet<String> = (0..30).map(|_| play(&mut engine, start)).collect();
    assert!(moves.len() >= 2, "level 1 always plays {moves:?}");
    // 27-22 gives two men away: no level plays it.
    let blunder = "W:W27,32,37:B8,12,17,18";
    for level in 1..=MAX_LEVEL {
        let mut engine = engine_at(level);
        for _ in 0..10 {
            assert_ne!(play(&mut engine, blunder), "27-22", "level {level}");
        }
    }
}

#[test]
fn a_weak_level_answers_a_ponder_only_after_the_ponder_hit() {
    use std::time::Duration;
    for level in [1, 4] {
        let mut engine = engine_at(level);
        engine.set_position("W:W31-50:B1-20", &[]).unwrap();
        let (send, receive) = unbounded();
        let limits = Limits {
            move_time: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        engine.go(GoMode::Ponder, limits, send).unwrap();
        let until = std::time::Instant::now() + Duration::from_millis(300);
        while let Ok(event) = receive.recv_deadline(until) {
            let early = matches!(event, EngineEvent::Done { .. });
            assert!(!early, "level {level} answered while pondering");
        }
        engine.ponder_hit();
        let done = receive
            .iter()
            .find_map(|e| match e {
                EngineEvent::Done { best, .. } => Some(best),
                _ => None,
            })
            .expect("a done after the ponder-hit");
        assert!(done.is_some(), "level {level}");
        engine.wait();
    }
}

#[test]
fn elo_sets_the_level_measured_nearest_below_it() {
    let mut engine = EngineHost::new();
    let value = |engine: &EngineHost, name: &str| {
        engine
            .params()
            .into_iter()
            .find(|p| p.name == name)
            .map(|p| p.value)
            .unwrap()
    };
    assert_eq!(value(&engine, "level"), MAX_LEVEL.to_string());
    engine
        .set_param("elo", &(LEVEL_ELO[2] + 10).to_string())
        .unwrap();
    assert_eq!(value(&engine, "level"), "3");
    assert_eq!(value(&engine, "elo"), LEVEL_ELO[2].to_string());
    engine.set_param("elo", "0").unwrap();
    assert_eq!(value(&engine, "level"), "1");
    assert!(engine.set_param("level", "0").is_err());
    assert!(engine.set_param("level", "99").is_err());
    assert!(engine.set_param("elo", "x").is_err());
}
