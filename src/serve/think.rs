//! The engine's side of the page: a move to play, analysis streamed as it
//! deepens, and a game reviewed as `tempo analyse --report` reviews it.
//! Each search has an engine of its own, made for its request on a thread
//! of its own (not the server's), and holds a place among the searches
//! (`super::searches`): it stops, and gives its place back before its
//! answer is sent, when it ends, when its client goes away, when its page
//! starts another or cancels it, and when the server stops.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{select, unbounded, Receiver};
use serde_json::{json, Value};
use tokio::sync::oneshot;

use super::board::{move_json, replay, side_name, variant};
use super::http::{event_stream, EventStream, Gone, Query, Reply};
use super::searches::{Client, Purpose, StopReason, Ticket};
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
/// How often a search checks that its client is still there.
const POLL: Duration = Duration::from_millis(50);
/// How often a quiet stream sends a comment.
const KEEP_ALIVE: Duration = Duration::from_secs(5);

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

/// A line of moves from `pos`, in PDN text and in Hub form (which names
/// a capture exactly); it stops at a move that is not legal (none is,
/// from the engine).
fn line_texts<R: Rules>(pos: &Position<R>, line: &[MoveSquares]) -> (Vec<String>, Vec<String>) {
    let mut pos = *pos;
    let mut texts = Vec::with_capacity(line.len());
    let mut hubs = Vec::with_capacity(line.len());
    for squares in line {
        let Some(mv) = find_move(&pos, squares) else {
            break;
        };
        texts.push(crate::pdn::write::move_text(&pos, mv));
        hubs.push(squares.to_string());
        pos = pos.play(mv);
    }
    (texts, hubs)
}

/// A search report as JSON: depth, line number, score, nodes, speed and
/// the line in PDN text (`pv`) and in Hub form (`moves`).
fn info_json<R: Rules>(pos: &Position<R>, info: &SearchInfo) -> Value {
    let (texts, hubs) = line_texts(pos, &info.pv);
    json!({
        "depth": info.depth,
        "line": info.multipv.unwrap_or(1),
        "score": score_json(info.score, pos.side_to_move()),
        "nodes": info.nodes,
        "mnps": (info.mnps() * 100.0).round() / 100.0,
        "seconds": info.time.as_secs_f64(),
        "book": info.book,
        "pv": texts,
        "moves": hubs,
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

/// The refusal of a search that could not start or was stopped.
fn stopped_reply(reason: StopReason) -> Reply {
    Reply::error(409, format!("the search was stopped: {reason}"))
}

/// The reason a stop signal carries (a registry that forgot the search
/// without one: cancelled).
fn reason_of(signal: Result<StopReason, crossbeam_channel::RecvError>) -> StopReason {
    signal.unwrap_or(StopReason::Cancelled)
}

/// Starts `search` on a thread of its own; a thread that cannot start
/// refuses the request (and the search's place is given back).
fn spawn_search(search: impl FnOnce() + Send + 'static) -> Result<(), Reply> {
    std::thread::Builder::new()
        .name("tempo-search".to_string())
        .spawn(search)
        .map(drop)
        .map_err(|why| Reply::error(503, format!("cannot start a search: {why}")))
}

/// A place for `client`'s search for `purpose`, or the refusal (429 for
/// a client at its limit, 503 for the server at its own).
fn place(shared: &Shared, client: &Client, purpose: Purpose) -> Result<Ticket, Reply> {
    shared
        .searches
        .begin(client, purpose)
        .map_err(|refusal| Reply::error(refusal.status(), refusal.to_string()))
}

/// `GET /api/play`: the engine's move in the game of the query, at
/// `level=` (1 to `MAX_LEVEL`, full strength by default) taking `movetime=` seconds
/// at most (1 by default).
pub async fn play(query: Query, shared: Arc<Shared>, client: Client) -> Reply {
    let (answer, answered) = oneshot::channel();
    let started = variant(&query).and_then(|kind| {
        crate::rules::with_rules!(kind, R => start_play::<R>(&query, &shared, &client, answer))
    });
    if let Err(reply) = started {
        return reply;
    }
    // Dropped when the client goes away: the search sees it and stops.
    answered
        .await
        .unwrap_or_else(|_| Reply::error(500, "the search ended without a move"))
}

fn start_play<R: Rules>(
    query: &Query,
    shared: &Arc<Shared>,
    client: &Client,
    answer: oneshot::Sender<Reply>,
) -> Result<(), Reply> {
    let game = ongoing::<R>(query)?;
    let level = query.number("level", 1.0, f64::from(MAX_LEVEL), f64::from(MAX_LEVEL))? as u32;
    let seconds = query.number("movetime", 0.01, 60.0, 1.0)?;
    let ticket = place(shared, client, Purpose::Play)?;
    let shared = Arc::clone(shared);
    spawn_search(move || {
        let reply = search_move(&shared, &game, level, seconds, &ticket, &answer);
        // The place is free before the page has the move, so that its
        // next search is not refused.
        drop(ticket);
        if let Some(reply) = reply {
            let _ = answer.send(reply);
        }
    })
}

/// The engine's move as the reply, a refusal, or nothing when the client
/// is gone.
fn search_move<R: Rules>(
    shared: &Shared,
    game: &Game<R>,
    level: u32,
    seconds: f64,
    ticket: &Ticket,
    answer: &oneshot::Sender<Reply>,
) -> Option<Reply> {
    let mut engine = match engine_for(shared, game, level, 1) {
        Ok(engine) => engine,
        Err(reply) => return Some(reply),
    };
    let (events, received) = unbounded();
    let limits = Limits {
        move_time: Some(Duration::from_secs_f64(seconds)),
        ..Limits::default()
    };
    if let Err(why) = engine.go(GoMode::Think, limits, events) {
        return Some(Reply::error(500, why.to_string()));
    }
    let mut last = None;
    let pos = game.position();
    loop {
        select! {
            recv(received) -> event => match event {
                Ok(EngineEvent::Info(info)) => last = Some(info),
                Ok(EngineEvent::Note(_)) => {}
                Ok(EngineEvent::Done { best, .. }) => {
                    let Some(mv) = best.and_then(|squares| find_move(pos, &squares)) else {
                        return Some(Reply::error(500, "the engine found no move"));
                    };
                    let info = last.map(|info| info_json(pos, &info));
                    return Some(Reply::json(&json!({
                        "move": move_json(pos, mv),
                        "info": info,
                    })));
                }
                Err(_) => return Some(Reply::error(500, "the search ended without a move")),
            },
            recv(ticket.stop_signal()) -> why => return Some(stopped_reply(reason_of(why))),
            default(POLL) => if answer.is_closed() {
                // Dropping the engine stops its search and waits for it.
                return None;
            },
        }
    }
}

/// Where a streaming search says whether it started (or why not).
type Ready = oneshot::Sender<Result<(), Reply>>;

/// Starts a streaming search with `start` (given the request, the stream
/// to send its events on and where to say that it started), waits for it
/// to say whether it started, then answers with its stream or its refusal.
async fn stream_search(
    query: Query,
    shared: Arc<Shared>,
    client: Client,
    start: impl FnOnce(&Query, &Arc<Shared>, &Client, EventStream, Ready) -> Result<(), Reply>,
) -> Reply {
    let (ready, is_ready) = oneshot::channel();
    let (stream, receiver) = event_stream();
    if let Err(reply) = start(&query, &shared, &client, stream, ready) {
        return reply;
    }
    match is_ready.await {
        Ok(Ok(())) => Reply::events(receiver),
        Ok(Err(reply)) => reply,
        Err(_) => Reply::error(500, "the search ended before it started"),
    }
}

/// How a streaming search ended: the last event to send, if any.
enum End {
    /// The reader is gone: nothing to send.
    Gone,
    /// The search ended by itself, or after its time.
    Done,
    /// The search was told to stop.
    Stopped(StopReason),
}

impl End {
    /// Sends the stream's last event, after the search's place is given
    /// back.
    fn send(self, stream: &EventStream) {
        let _ = match self {
            End::Gone => Ok(()),
            End::Done => stream.send_last("done", &json!({})),
            End::Stopped(reason) => {
                stream.send_last("stopped", &json!({ "reason": reason.to_string() }))
            }
        };
    }
}

/// `GET /api/analyse`: analysis of the game's position as server-sent
/// events, `line` for each line as the search deepens (`lines=` of them,
/// 1 to 10), until the page closes the stream (or an hour has passed);
/// `done` if the search ends by itself, `stopped` (with its `reason`) if
/// it was told to stop.
pub async fn analyse(query: Query, shared: Arc<Shared>, client: Client) -> Reply {
    stream_search(query, shared, client, |query, shared, client, stream, ready| {
        let kind = variant(query)?;
        crate::rules::with_rules!(kind, R => start_analysis::<R>(query, shared, client, stream, ready))
    })
    .await
}

fn start_analysis<R: Rules>(
    query: &Query,
    shared: &Arc<Shared>,
    client: &Client,
    stream: EventStream,
    ready: Ready,
) -> Result<(), Reply> {
    let game = ongoing::<R>(query)?;
    let lines = query.number("lines", 1.0, 10.0, 1.0)? as usize;
    let ticket = place(shared, client, Purpose::Analyse)?;
    let shared = Arc::clone(shared);
    spawn_search(move || {
        let started = (|| {
            let mut engine = engine_for(&shared, &game, MAX_LEVEL, lines)?;
            let (events, received) = unbounded();
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            engine
                .go(GoMode::Analyze, limits, events)
                .map_err(|e| Reply::error(500, e.to_string()))?;
            Ok((engine, received))
        })();
        let (engine, received) = match started {
            Ok(started) => started,
            Err(reply) => {
                drop(ticket);
                let _ = ready.send(Err(reply));
                return;
            }
        };
        if ready.send(Ok(())).is_err() {
            return;
        }
        let end = stream_analysis(game.position(), &received, &ticket, &stream);
        // Dropping the engine stops its search and waits for it.
        drop(engine);
        drop(ticket);
        end.send(&stream);
    })
}

/// Forwards the search's lines to the stream until it ends.
fn stream_analysis<R: Rules>(
    pos: &Position<R>,
    received: &Receiver<EngineEvent>,
    ticket: &Ticket,
    stream: &EventStream,
) -> End {
    let started = Instant::now();
    let mut last_sent = Instant::now();
    while started.elapsed() < MAX_ANALYSIS {
        let sent = select! {
            recv(received) -> event => match event {
                Ok(EngineEvent::Info(info)) => stream.send("line", &info_json(pos, &info)),
                Ok(EngineEvent::Note(note)) => stream.send("note", &json!({ "note": note })),
                Ok(EngineEvent::Done { .. }) | Err(_) => return End::Done,
            },
            recv(ticket.stop_signal()) -> why => return End::Stopped(reason_of(why)),
            default(POLL) => if stream.is_gone() {
                Err(Gone)
            } else if last_sent.elapsed() >= KEEP_ALIVE {
                stream.keep_alive()
            } else {
                continue;
            },
        };
        if sent.is_err() {
            return End::Gone;
        }
        last_sent = Instant::now();
    }
    End::Done
}

/// `GET /api/review`: the game analysed position by position (`depth=`,
/// 10 by default, at most `movetime=` seconds a position, 1 by default),
/// as server-sent events: `progress` after each position, then `report`
/// with the HTML section `tempo analyse --report` writes for the game
/// (summary, graph, mistakes), or `stopped` if told to stop. Closing the
/// stream stops it.
pub async fn review(query: Query, shared: Arc<Shared>, client: Client) -> Reply {
    stream_search(query, shared, client, |query, shared, client, stream, ready| {
        let kind = variant(query)?;
        crate::rules::with_rules!(kind, R => start_review::<R>(query, shared, client, stream, ready))
    })
    .await
}

fn start_review<R: Rules>(
    query: &Query,
    shared: &Arc<Shared>,
    client: &Client,
    stream: EventStream,
    ready: Ready,
) -> Result<(), Reply> {
    let game = replay::<R>(query)?;
    if game.moves().is_empty() {
        return Err(Reply::error(400, "the game has no moves to review"));
    }
    let depth = query.number("depth", 1.0, 40.0, 10.0)? as u32;
    let seconds = query.number("movetime", 0.01, 60.0, 1.0)?;
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
    let ticket = place(shared, client, Purpose::Review)?;
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
    let hash_mib = shared.settings.hash_mib;
    spawn_search(move || {
        let analyser = match Analyser::new(settings, hash_mib) {
            Ok(analyser) => analyser,
            Err(why) => {
                drop(ticket);
                let _ = ready.send(Err(Reply::error(500, why)));
                return;
            }
        };
        if ready.send(Ok(())).is_err() {
            return;
        }
        let (outcome, stop) = review_game(&analyser, &game, tags.clone(), &ticket, &stream);
        drop(analyser);
        drop(ticket);
        let _ = match (outcome, stop) {
            (_, Some(End::Gone)) => Ok(()),
            (_, Some(end)) => {
                end.send(&stream);
                Ok(())
            }
            (Ok(records), None) => stream.send_last(
                "report",
                &json!({
                    "html": game_section(&tags, &game, &records, 1),
                    "side": side_name(game.position().side_to_move()),
                }),
            ),
            (Err(why), None) => stream.send_last("failed", &json!({ "error": why })),
        };
    })
}

/// Reviews `game`, sending progress to `stream`: the records, or why
/// not, and how the review was cut short if it was.
fn review_game<R: Rules>(
    analyser: &Analyser,
    game: &Game<R>,
    tags: Vec<(String, String)>,
    ticket: &Ticket,
    stream: &EventStream,
) -> (Result<Vec<crate::analyse::Record>, String>, Option<End>) {
    let positions = game.moves().len() + 1;
    let unit = Unit {
        source: Source::Argument,
        game: AnyGame::new(game.clone()),
        tags,
    };
    let mut records = Vec::with_capacity(positions);
    let mut last_sent = Instant::now();
    let mut cut = None;
    let outcome = analyser.analyse_all(&[unit], &mut |event| {
        if let Some(reason) = ticket.stopped() {
            cut = Some(End::Stopped(reason));
        } else if stream.is_gone() {
            cut = Some(End::Gone);
        }
        if cut.is_some() {
            return Err(std::io::Error::other("the review was stopped"));
        }
        let sent = match event {
            Event::Done(record) => {
                records.push(record);
                stream.send(
                    "progress",
                    &json!({ "done": records.len(), "of": positions }),
                )
            }
            _ if last_sent.elapsed() >= KEEP_ALIVE => stream.keep_alive(),
            _ => return Ok(()),
        };
        last_sent = Instant::now();
        sent.map_err(|Gone| {
            cut = Some(End::Gone);
            std::io::Error::other("the reader is gone")
        })
    });
    (
        outcome.map(|()| records).map_err(|why| why.to_string()),
        cut,
    )
}
