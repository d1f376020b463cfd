//! The engine's side of the page: a move to play, analysis streamed as it
//! deepens, and a game reviewed as `tempo analyse --report` reviews it.
//! Each search has an engine of its own, made for its request and dropped
//! (its search stopped) when the request ends.

use std::time::{Duration, Instant};

use crossbeam_channel::{unbounded, RecvTimeoutError};
use serde_json::{json, Value};
use tiny_http::Request;

use super::board::{move_json, replay, side_name, variant};
use super::http::{EventStream, Query, Reply};
use super::Shared;
use crate::analyse::report::game_section;
use crate::analyse::{Analyser, AnyGame, Event, Settings, Source, Unit};
use crate::engine::strength::{describe, LEVEL_ELO, MAX_LEVEL};
use crate::engine::{EngineEvent, EngineHost, GoMode, Limits, Score, SearchInfo};
use crate::game::Game;
use crate::rules::notation::{find_move, squares_of, to_fen, MoveSquares};
use crate::rules::{Position, Rules};
use crate::search::resources::{EvalSource, ResourceSettings};

/// The longest an analysis runs without being asked again.
const MAX_ANALYSIS: Duration = Duration::from_secs(3600);
/// How often a stream with nothing new checks that its reader is there.
const KEEP_ALIVE: Duration = Duration::from_millis(250);

/// An engine for variant `R` with the server's settings, at `level`,
/// showing `lines` lines in analysis, set to `game`.
fn engine_for<R: Rules>(
    shared: &Shared,
    game: &Game<R>,
    level: u32,
    lines: usize,
) -> Result<EngineHost, Reply> {
    let failed = |e: crate::engine::EngineError| Reply::error(500, e.to_string());
    let mut engine = EngineHost::new();
    let settings = &shared.settings;
    let params = [
        ("variant", R::KIND.hub_name().to_string()),
        ("hash", settings.hash_mib.to_string()),
        ("threads", settings.threads.to_string()),
        ("level", level.to_string()),
        ("multipv", lines.to_string()),
    ];
    for (name, value) in params {
        engine.set_param(name, &value).map_err(failed)?;
    }
    if let Some(path) = own_eval_file::<R>(shared) {
        engine
            .set_param("eval-file", &path.display().to_string())
            .map_err(failed)?;
    }
    let moves: Vec<String> = game
        .moves()
        .iter()
        .map(|&mv| squares_of::<R>(mv).to_string())
        .collect();
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    engine
        .set_position(&to_fen(game.start()), &moves)
        .map_err(failed)?;
    Ok(engine)
}

/// The server's evaluation file, if it is one of variant `R`.
fn own_eval_file<R: Rules>(shared: &Shared) -> Option<&std::path::Path> {
    let (kind, path) = shared.settings.eval_file.as_ref()?;
    (*kind == R::KIND).then_some(path.as_path())
}

/// A score as the page shows it: `text` from the side to move's view
/// (`+0.25`, `win in 7`), `white` in men from White's, a win or loss as
/// ±100.
fn score_json(score: Score, side: crate::rules::Side) -> Value {
    let (text, men) = match score {
        Score::Centimen(c) => (
            format!("{:+.2}", f64::from(c) / 100.0),
            f64::from(c) / 100.0,
        ),
        Score::WinIn(p) => (format!("win in {p}"), 100.0),
        Score::LossIn(p) => (format!("loss in {p}"), -100.0),
    };
    let white = if side == crate::rules::Side::White {
        men
    } else {
        -men
    };
    json!({ "text": text, "white": white })
}

/// A line of moves from `pos` in PDN text; it stops at a move that is not
/// legal (none is, from the engine).
fn line_texts<R: Rules>(pos: &Position<R>, line: &[MoveSquares]) -> Vec<String> {
    let mut pos = *pos;
    let mut texts = Vec::with_capacity(line.len());
    for squares in line {
        let Some(mv) = find_move(&pos, squares) else {
            break;
        };
        texts.push(crate::pdn::write::move_text(&pos, mv));
        pos = pos.play(mv);
    }
    texts
}

/// A search report as JSON: depth, line number, score, nodes, speed and
/// the line in PDN text.
fn info_json<R: Rules>(pos: &Position<R>, info: &SearchInfo) -> Value {
    json!({
        "depth": info.depth,
        "line": info.multipv.unwrap_or(1),
        "score": score_json(info.score, pos.side_to_move()),
        "nodes": info.nodes,
        "mnps": (info.mnps() * 100.0).round() / 100.0,
        "seconds": info.time.as_secs_f64(),
        "book": info.book,
        "pv": line_texts(pos, &info.pv),
    })
}

/// The game of the query, refused when it is over.
fn ongoing<R: Rules>(query: &Query) -> Result<Game<R>, Reply> {
    let game = replay::<R>(query)?;
    let result = game.result();
    if result.is_over() {
        return Err(Reply::error(
            400,
            format!("the game is over: {}", result.describe()),
        ));
    }
    Ok(game)
}

/// `GET /api/levels`: each strength level, its measured Elo and how it
/// plays, weakest first.
pub fn levels() -> Reply {
    let list: Vec<Value> = (1..=MAX_LEVEL)
        .map(|level| {
            json!({
                "level": level,
                "elo": LEVEL_ELO[level as usize - 1],
                "plan": describe(level),
            })
        })
        .collect();
    Reply::json(&Value::Array(list))
}

/// `GET /api/play`: the engine's move in the game of the query, at
/// `level=` (1 to `MAX_LEVEL`, full strength by default) taking `movetime=` seconds
/// at most (1 by default).
pub fn play(query: &Query, shared: &Shared) -> Reply {
    match variant(query) {
        Ok(kind) => crate::rules::with_rules!(kind, R => play_for::<R>(query, shared)
            .unwrap_or_else(|reply| reply)),
        Err(reply) => reply,
    }
}

fn play_for<R: Rules>(query: &Query, shared: &Shared) -> Result<Reply, Reply> {
    let game = ongoing::<R>(query)?;
    let level = query.number("level", 1.0, f64::from(MAX_LEVEL), f64::from(MAX_LEVEL))? as u32;
    let seconds = query.number("movetime", 0.01, 60.0, 1.0)?;
    let _slot = shared.search_slot()?;
    let mut engine = engine_for(shared, &game, level, 1)?;
    let (events, received) = unbounded();
    let limits = Limits {
        move_time: Some(Duration::from_secs_f64(seconds)),
        ..Limits::default()
    };
    engine
        .go(GoMode::Think, limits, events)
        .map_err(|e| Reply::error(500, e.to_string()))?;
    let mut last = None;
    let pos = game.position();
    for event in received {
        match event {
            EngineEvent::Info(info) => last = Some(info),
            EngineEvent::Note(_) => {}
            EngineEvent::Done { best, .. } => {
                let mv = best
                    .and_then(|squares| find_move(pos, &squares))
                    .ok_or_else(|| Reply::error(500, "the engine found no move"))?;
                let info = last.map(|info| info_json(pos, &info));
                return Ok(Reply::json(&json!({
                    "move": move_json(pos, mv),
                    "info": info,
                })));
            }
        }
    }
    Err(Reply::error(500, "the search ended without a move"))
}

/// `GET /api/analyse`: analysis of the game's position as server-sent
/// events, `line` for each line as the search deepens (`lines=` of them,
/// 1 to 10), until the page closes the stream (or an hour has passed);
/// `done` if the search ends by itself.
pub fn analyse(request: Request, query: &Query, shared: &Shared) {
    match variant(query) {
        Ok(kind) => {
            crate::rules::with_rules!(kind, R => analyse_for::<R>(request, query, shared))
        }
        Err(reply) => reply.send(request),
    }
}

fn analyse_for<R: Rules>(request: Request, query: &Query, shared: &Shared) {
    let prepared = (|| -> Result<_, Reply> {
        let game = ongoing::<R>(query)?;
        let lines = query.number("lines", 1.0, 10.0, 1.0)? as usize;
        let slot = shared.search_slot()?;
        let mut engine = engine_for(shared, &game, MAX_LEVEL, lines)?;
        let (events, received) = unbounded();
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        engine
            .go(GoMode::Analyze, limits, events)
            .map_err(|e| Reply::error(500, e.to_string()))?;
        Ok((game, slot, engine, received))
    })();
    let (game, _slot, engine, received) = match prepared {
        Ok(prepared) => prepared,
        Err(reply) => return reply.send(request),
    };
    let Ok(mut stream) = EventStream::open(request) else {
        return;
    };
    let started = Instant::now();
    let pos = game.position();
    while started.elapsed() < MAX_ANALYSIS {
        let sent = match received.recv_timeout(KEEP_ALIVE) {
            Ok(EngineEvent::Info(info)) => stream.send("line", &info_json(pos, &info)),
            Ok(EngineEvent::Note(note)) => stream.send("note", &json!({ "note": note })),
            Ok(EngineEvent::Done { .. }) | Err(RecvTimeoutError::Disconnected) => {
                let _ = stream.send("done", &json!({}));
                break;
            }
            Err(RecvTimeoutError::Timeout) => stream.keep_alive(),
        };
        if sent.is_err() {
            break;
        }
    }
    // Dropping the engine stops its search and waits for it.
    drop(engine);
}

/// `GET /api/review`: the game analysed position by position (`depth=`,
/// 10 by default, at most `movetime=` seconds a position, 1 by default),
/// as server-sent events: `progress` after each position, then `report`
/// with the HTML section `tempo analyse --report` writes for the game
/// (summary, graph, mistakes). Closing the stream stops it.
pub fn review(request: Request, query: &Query, shared: &Shared) {
    match variant(query) {
        Ok(kind) => crate::rules::with_rules!(kind, R => review_for::<R>(request, query, shared)),
        Err(reply) => reply.send(request),
    }
}

fn review_for<R: Rules>(request: Request, query: &Query, shared: &Shared) {
    let prepared = (|| -> Result<_, Reply> {
        let game = replay::<R>(query)?;
        if game.moves().is_empty() {
            return Err(Reply::error(400, "the game has no moves to review"));
        }
        let depth = query.number("depth", 1.0, 40.0, 10.0)? as u32;
        let seconds = query.number("movetime", 0.01, 60.0, 1.0)?;
        let slot = shared.search_slot()?;
        let settings = Settings {
            limits: Limits {
                depth: Some(depth),
                move_time: Some(Duration::from_secs_f64(seconds)),
                ..Limits::default()
            },
            multipv: 1,
            threads: shared.settings.threads,
            resources: ResourceSettings {
                eval: own_eval_file::<R>(shared)
                    .map_or(EvalSource::Builtin, |p| EvalSource::File(p.to_path_buf())),
                builtin_egdb: true,
                ..ResourceSettings::default()
            },
        };
        let analyser = Analyser::new(settings, shared.settings.hash_mib)
            .map_err(|why| Reply::error(500, why))?;
        Ok((game, slot, analyser))
    })();
    let (game, _slot, analyser) = match prepared {
        Ok(prepared) => prepared,
        Err(reply) => return reply.send(request),
    };
    let Ok(mut stream) = EventStream::open(request) else {
        return;
    };
    let positions = game.moves().len() + 1;
    let tags = vec![
        (
            "White".to_string(),
            query.get("white").unwrap_or("White").to_string(),
        ),
        (
            "Black".to_string(),
            query.get("black").unwrap_or("Black").to_string(),
        ),
        ("Result".to_string(), game.result().score().to_string()),
    ];
    let unit = Unit {
        source: Source::Argument,
        game: AnyGame::new(game.clone()),
        tags: tags.clone(),
    };
    let mut records = Vec::with_capacity(positions);
    let mut last_beat = Instant::now();
    let outcome = analyser.analyse_all(&[unit], &mut |event| {
        match event {
            Event::Done(record) => {
                records.push(record);
                last_beat = Instant::now();
                stream.send(
                    "progress",
                    &json!({ "done": records.len(), "of": positions }),
                )
            }
            // Deeper results show the reader is still there.
            _ if last_beat.elapsed() >= KEEP_ALIVE => {
                last_beat = Instant::now();
                stream.keep_alive()
            }
            _ => Ok(()),
        }
    });
    let _ = match outcome {
        Ok(()) => stream.send(
            "report",
            &json!({
                "html": game_section(&tags, &game, &records, 1),
                "side": side_name(game.position().side_to_move()),
            }),
        ),
        Err(why) => stream.send("failed", &json!({ "error": why.to_string() })),
    };
}
