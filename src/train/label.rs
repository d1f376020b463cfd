//! Played games made into training data: the games of a match PDN (tempo's
//! games against another engine, say, the positions self-play lacks), each
//! quiet position searched again for its score and labelled with its game's
//! result, written as `selfplay` writes its own (`tempo data from-pdn`).
//!
//! Game `i` of the input is item `i` of the batch runner, so a run resumes
//! from the batches its file has, as long as it reads the same games.

use super::batches::{run_batches, BatchPlan, Progress};
use super::data::{DataWriter, Existing, Record};
use super::selfplay::quiet;
use crate::game::Game;
use crate::pdn::PdnGame;
use crate::rules::notation::{parse_move, parse_position};
use crate::rules::{Move, Position, Rules, Side};
use crate::search::tt::Table;
use crate::search::{search, Control, Limits, SearchResources, SearchSetup};

/// A finished game: where it started, its moves, its result for White.
#[derive(Clone, Debug)]
pub struct PlayedGame<R: Rules> {
    /// The start position.
    pub start: Position<R>,
    /// The moves played.
    pub moves: Vec<Move>,
    /// The result for White: -1 loss, 0 draw, 1 win.
    pub result: i8,
}

/// The game of a PDN record, or why it cannot be used: a game of another
/// variant, without a result, or whose moves do not replay.
pub fn played_game<R: Rules>(pdn: &PdnGame) -> Result<PlayedGame<R>, String> {
    if let Some(kind) = pdn.variant().filter(|&kind| kind != R::KIND) {
        return Err(format!("a game of {kind}, not {}", R::KIND));
    }
    let marker = pdn.result.as_deref().or_else(|| pdn.tag("Result"));
    let result = match marker {
        Some("1-0" | "2-0") => 1,
        Some("0-1" | "0-2") => -1,
        Some("1/2-1/2" | "1-1") => 0,
        other => return Err(format!("no result ({})", other.unwrap_or("none"))),
    };
    let start = match pdn.fen() {
        Some(fen) => parse_position::<R>(fen).map_err(|e| format!("FEN: {e}"))?,
        None => Position::<R>::start(),
    };
    let mut pos = start;
    let mut moves = Vec::with_capacity(pdn.moves.len());
    for (i, text) in pdn.moves.iter().enumerate() {
        let mv = parse_move(&pos, text).map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
        moves.push(mv);
        pos = pos.play(mv);
    }
    Ok(PlayedGame {
        start,
        moves,
        result,
    })
}

/// How each position is searched again.
#[derive(Clone, Debug)]
pub struct LabelConfig<R: Rules> {
    /// Depth limit of each search.
    pub depth: Option<u32>,
    /// Node limit of each search.
    pub nodes: Option<u64>,
    /// Games searched at once.
    pub threads: usize,
    /// Games a batch (a chunk of the data file).
    pub batch_games: u32,
    /// Table size of each thread, MiB.
    pub hash_mib: usize,
    /// The weights and endgame tables the search uses.
    pub resources: SearchResources<R>,
}

/// The quiet positions of `game`, each with the score of a new search
/// (White's view, hundredths of a man, within ±30 men) and the game's
/// result. The search sees the game's history, for its draw rules.
pub fn label_game<R: Rules>(
    game: &PlayedGame<R>,
    config: &LabelConfig<R>,
    table: &mut Table,
) -> Vec<Record> {
    table.clear();
    let mut replay = Game::new(game.start);
    let mut records = Vec::new();
    for &mv in &game.moves {
        let pos = *replay.position();
        if quiet(&pos) && !pos.legal_moves().is_empty() {
            let limits = Limits {
                depth: config.depth,
                nodes: config.nodes,
                ..Limits::default()
            };
            let mut setup = SearchSetup::for_game(&replay, limits);
            setup.resources = config.resources.clone();
            let found = search(&setup, table, &Control::new(false), &mut |_| {});
            let score = found.score.clamp(-3000, 3000) as i16;
            let white = match pos.side_to_move() {
                Side::White => score,
                Side::Black => -score,
            };
            let ply = replay.moves().len() as u16;
            records.push(Record::of(&pos, game.result, white, ply));
        }
        if replay.play(mv).is_err() {
            break;
        }
    }
    records
}

/// Labels the games not yet in the data file `writer` (whose contents were
/// `existing`), appending a chunk per batch.
pub fn run<R: Rules>(
    games: &[PlayedGame<R>],
    config: &LabelConfig<R>,
    writer: &mut DataWriter,
    existing: &Existing,
    progress: &mut dyn FnMut(Progress),
) -> Result<Progress, String> {
    let plan = BatchPlan {
        items: games.len() as u64,
        batch_items: config.batch_games,
        shard: (0, 1),
        threads: config.threads,
        hash_mib: config.hash_mib,
    };
    run_batches(&plan, writer, existing, progress, &|g, table| {
        label_game(&games[g as usize], config, table)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdn::read_games;
    use crate::rules::International;

    fn game(text: &str) -> Result<PlayedGame<International>, String> {
        let pdn = read_games(text).remove(0).expect("the PDN reads");
        played_game::<International>(&pdn)
    }

    #[test]
    fn games_need_a_result_and_moves_that_replay() {
        let won = game("[Result \"1-0\"]\n\n1. 32-28 19-23 2. 28x19 14x23 1-0\n").unwrap();
        assert_eq!((won.moves.len(), won.result), (4, 1));
        let lost = game("[Result \"0-1\"]\n\n1. 32-28 0-1\n").unwrap();
        assert_eq!(lost.result, -1);
        assert!(game("1. 32-28 18-23 *\n")
            .unwrap_err()
            .contains("no result"));
        let bad = game("[Result \"1-0\"]\n\n1. 32-28 18-24 1-0\n").unwrap_err();
        assert!(bad.contains("move 2 '18-24'"), "{bad}");
        let other = game("[GameType \"26\"]\n[Result \"1-0\"]\n\n1. 22-18 1-0\n").unwrap_err();
        assert!(other.contains("brazilian"), "{other}");
    }

    #[test]
    fn quiet_positions_are_searched_and_labelled_with_the_result() {
        let played =
            game("[Result \"0-1\"]\n\n1. 32-28 19-23 2. 28x19 14x23 3. 33-28 0-1\n").unwrap();
        let config = LabelConfig {
            depth: Some(3),
            nodes: None,
            threads: 1,
            batch_games: 1,
            hash_mib: 1,
            resources: SearchResources::<International>::default(),
        };
        let records = label_game(&played, &config, &mut Table::new(1));
        // After 32-28 19-23 White must capture, after 28x19 Black must: those
        // two positions are not quiet.
        let plies: Vec<u16> = records.iter().map(|r| r.ply).collect();
        assert_eq!(plies, [0, 1, 4]);
        assert!(records.iter().all(|r| r.result == -1));
        assert_eq!(records[0].side, Side::White);
        assert_eq!(records[1].side, Side::Black);
    }
}
