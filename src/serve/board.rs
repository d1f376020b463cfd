//! The game under the rules, as the page asks for it: a variant, a start
//! position and the moves since, replayed on every request; the board,
//! the legal moves, the moves played and the result as JSON; PDN read and
//! written.

use serde_json::{json, Value};

use super::http::{Query, Reply};
use crate::analyse::input::read_pdn_games;
use crate::game::{Game, GameResult};
use crate::pdn::write::{game_pdn, move_text, GameTags};
use crate::pdn::{PdnVariation, MAX_NESTING};
use crate::rules::notation::{parse_move, parse_position, squares_of, to_fen, MoveSquares};
use crate::rules::{Geometry, Move, MoveStyle, Piece, Position, Rules, Side, Square, VariantKind};

/// The variant a request names (`variant=`, International when absent).
pub fn variant(query: &Query) -> Result<VariantKind, Reply> {
    match query.get("variant") {
        None | Some("") => Ok(VariantKind::International),
        Some(name) => VariantKind::parse(name).ok_or_else(|| {
            Reply::error(
                400,
                format!(
                    "unknown variant '{name}': one of {}",
                    VariantKind::ALL.map(|k| k.name()).join(", ")
                ),
            )
        }),
    }
}

/// The game a request names: `fen=` (a FEN or Hub position; the start
/// position when absent) and `moves=` (Hub or PDN moves, separated by
/// spaces), replayed under the variant's draw rules.
pub fn replay<R: Rules>(query: &Query) -> Result<Game<R>, Reply> {
    replay_moves(query, query.get("moves").unwrap_or(""))
}

/// The game from the start position of `query` (`fen=`) through `moves`.
fn replay_moves<R: Rules>(query: &Query, moves: &str) -> Result<Game<R>, Reply> {
    let start = match query.get("fen").map(str::trim) {
        None | Some("") => Position::<R>::start(),
        Some(text) => parse_position::<R>(text)
            .map_err(|e| Reply::error(400, format!("cannot read the position '{text}': {e}")))?,
    };
    let mut game = Game::new(start);
    for (i, text) in moves.split_whitespace().enumerate() {
        game.play_text(text)
            .map_err(|e| Reply::error(400, format!("move {} '{text}': {e}", i + 1)))?;
    }
    Ok(game)
}

/// `GET /api/variants`: every variant, its name and its board's size.
pub fn variants() -> Reply {
    let list: Vec<Value> = VariantKind::ALL
        .iter()
        .map(|&kind| {
            json!({
                "name": kind.name(),
                "size": crate::rules::with_rules!(kind, R => board_size::<R>()),
            })
        })
        .collect();
    Reply::json(&Value::Array(list))
}

/// The rows (and columns) of the board of `R`.
fn board_size<R: Rules>() -> u32 {
    <R::Geometry as Geometry>::ROWS
}

/// `GET /api/state`: the game of the query as JSON (see [`state_json`]).
pub fn state(query: &Query) -> Reply {
    let kind = match variant(query) {
        Ok(kind) => kind,
        Err(reply) => return reply,
    };
    crate::rules::with_rules!(kind, R => match replay::<R>(query) {
        Ok(game) => Reply::json(&state_json(&game)),
        Err(reply) => reply,
    })
}

/// A side's name as the page shows it.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

/// A move's squares as JSON: `hub` (its exact Hub form), `from`, `to`,
/// `captured`.
fn squares_json(squares: &MoveSquares) -> Value {
    json!({
        "hub": squares.to_string(),
        "from": squares.from,
        "to": squares.to,
        "captured": squares.captured,
    })
}

/// A legal move of `pos` as JSON: its squares and `text`, the PDN form.
pub fn move_json<R: Rules>(pos: &Position<R>, mv: Move) -> Value {
    let mut value = squares_json(&squares_of::<R>(mv));
    value["text"] = Value::String(move_text(pos, mv));
    value
}

/// The state of `game`: the board (`size` rows and columns, each square's
/// number, row, column and piece: `w`, `b`, `W`, `B` or null), the side to
/// move, the legal moves (none once the game is over), the moves played,
/// the FEN of the start and of the position, and the result (`*` while the
/// game goes on) with its reason in words.
pub fn state_json<R: Rules>(game: &Game<R>) -> Value {
    let pos = game.position();
    let squares: Vec<Value> = (1..=<R::Geometry as Geometry>::SQUARES)
        .filter_map(|n| Square::new(u8::try_from(n).ok()?))
        .map(|sq| {
            let (row, col) = <R::Geometry as Geometry>::row_file(sq);
            let piece = pos.piece_at(sq).map(|piece| match piece {
                Piece::Man(Side::White) => "w",
                Piece::Man(Side::Black) => "b",
                Piece::King(Side::White) => "W",
                Piece::King(Side::Black) => "B",
            });
            json!({ "n": sq.get(), "row": row, "col": col, "piece": piece })
        })
        .collect();
    let result = game.result();
    let legal: Vec<Value> = if result.is_over() {
        Vec::new()
    } else {
        pos.legal_moves()
            .iter()
            .map(|&mv| move_json(pos, mv))
            .collect()
    };
    let mut replay = *game.start();
    let history: Vec<Value> = game
        .moves()
        .iter()
        .map(|&mv| {
            let entry = json!({
                "side": side_name(replay.side_to_move()),
                "text": move_text(&replay, mv),
                "hub": squares_of::<R>(mv).to_string(),
            });
            replay = replay.play(mv);
            entry
        })
        .collect();
    json!({
        "variant": R::KIND.name(),
        "size": board_size::<R>(),
        "first": side_name(Position::<R>::start().side_to_move()),
        "squares": squares,
        "side": side_name(pos.side_to_move()),
        "legal": legal,
        "history": history,
        "start": to_fen(game.start()),
        "fen": to_fen(pos),
        "result": result.score(),
        "reason": if result.is_over() { result.describe() } else { String::new() },
    })
}

/// A game with its variations, read from the moves of `tree=` (Hub or
/// PDN moves separated by spaces, each `(` ... `)` a line played instead
/// of the move before it, as in PDN, [`MAX_NESTING`] deep at most, as the
/// PDN reader reads them back): its main line, and its move text numbered
/// as PDN numbers it.
struct Tree {
    main: Vec<String>,
    words: Vec<String>,
}

impl Tree {
    fn read<R: Rules>(start: Position<R>, text: &str) -> Result<Tree, String> {
        let mut tree = Tree {
            main: Vec::new(),
            words: Vec::new(),
        };
        let mut tokens = text.split_whitespace();
        tree.line(&mut tokens, start, 1, 0)?;
        Ok(tree)
    }

    /// Reads a line from `pos` (move `number` to come) up to its `)`, or
    /// to the end at the top (`depth` 0: the main line).
    fn line<'a, R: Rules>(
        &mut self,
        tokens: &mut impl Iterator<Item = &'a str>,
        mut pos: Position<R>,
        mut number: usize,
        depth: usize,
    ) -> Result<(), String> {
        // The position and number before the last move: where a
        // variation of it starts.
        let mut before = None;
        // A line's first move, and the move after a variation, say their
        // number even when they are the reply.
        let mut numbered = true;
        loop {
            match tokens.next() {
                None if depth == 0 => return Ok(()),
                None => return Err("a variation is not closed: ')' is missing".to_string()),
                Some(")") if depth == 0 => return Err("')' closes no variation".to_string()),
                Some(")") => return Ok(()),
                Some("(") => {
                    let Some((at, n)) = before else {
                        return Err("a variation must follow the move it replaces".to_string());
                    };
                    if depth >= MAX_NESTING {
                        return Err(format!("variations nest {MAX_NESTING} deep at most"));
                    }
                    self.words.push("(".to_string());
                    self.line(tokens, at, n, depth + 1)?;
                    self.words.push(")".to_string());
                    numbered = true;
                }
                Some(text) => {
                    let mv = parse_move(&pos, text).map_err(|e| format!("move '{text}': {e}"))?;
                    let leads = pos.side_to_move() == R::FIRST_SIDE;
                    let written = move_text(&pos, mv);
                    self.words.push(if leads {
                        format!("{number}. {written}")
                    } else if numbered {
                        format!("{number}... {written}")
                    } else {
                        written
                    });
                    before = Some((pos, number));
                    if !leads {
                        number += 1;
                    }
                    pos = pos.play(mv);
                    numbered = false;
                    if depth == 0 {
                        self.main.push(text.to_string());
                    }
                }
            }
        }
    }

    /// The move text: the words, twenty to a line, and `result`.
    fn text(&self, result: &str) -> String {
        let mut words = self.words.clone();
        words.push(result.to_string());
        let mut out = String::new();
        for chunk in words.chunks(20) {
            out.push_str(&chunk.join(" ").replace("( ", "(").replace(" )", ")"));
            out.push('\n');
        }
        out
    }
}

/// `GET /api/pdn`: the game of the query as a PDN file to save, with the
/// players' names of `white=` and `black=`; with `tree=` (moves and
/// their variations, see [`Tree`]) instead of `moves=`, the variations
/// are saved too.
pub fn write_pdn(query: &Query) -> Reply {
    let kind = match variant(query) {
        Ok(kind) => kind,
        Err(reply) => return reply,
    };
    crate::rules::with_rules!(kind, R => match tree_and_game::<R>(query) {
        Ok((tree, game)) => {
            let result = game.result();
            let termination = match result {
                GameResult::Ongoing => "unterminated".to_string(),
                over => over.describe(),
            };
            let tags = GameTags {
                event: "tempo serve",
                round: 1,
                players: [
                    query.get("white").unwrap_or("White"),
                    query.get("black").unwrap_or("Black"),
                ],
                result: result.score(),
                termination: &termination,
                extra: &[],
            };
            let mut pdn = game_pdn(&tags, game.start(), game.moves());
            if let Some(tree) = tree {
                // The tags as written, then the move text with its variations.
                let head = pdn.split_once("\n\n").map_or("", |(head, _)| head);
                pdn = format!("{head}\n\n{}\n", tree.text(tags.result));
            }
            Reply::text(pdn, "application/x-draughts-pdn").attachment("game.pdn")
        }
        Err(reply) => reply,
    })
}

/// The tree of `tree=`, if any, and the game of its main line (of
/// `moves=` without one).
fn tree_and_game<R: Rules>(query: &Query) -> Result<(Option<Tree>, Game<R>), Reply> {
    let Some(text) = query.get("tree") else {
        return Ok((None, replay::<R>(query)?));
    };
    let start = *replay_moves::<R>(query, "")?.start();
    let tree = Tree::read(start, text).map_err(|why| Reply::error(400, format!("tree=: {why}")))?;
    let game = replay_moves::<R>(query, &tree.main.join(" "))?;
    Ok((Some(tree), game))
}

/// `POST /api/pdn`: reads the PDN of the body (games of another variant
/// than `variant=` say so by their tags) and answers each game as a start
/// position and moves the page replays, its variations with them (see
/// [`line_json`]), with the games that could not be read and why.
pub fn read_pdn(query: &Query, text: &str) -> Reply {
    let kind = match variant(query) {
        Ok(kind) => kind,
        Err(reply) => return reply,
    };
    let (units, errors) = read_pdn_games(kind, text);
    let games: Vec<Value> = units
        .iter()
        .map(|(unit, pdn)| {
            let tag = |name: &str| {
                unit.tags
                    .iter()
                    .find(|(k, _)| k == name)
                    .map_or("?", |(_, v)| v.as_str())
                    .to_string()
            };
            let mut warnings: Vec<String> = pdn
                .variation_errors
                .iter()
                .map(ToString::to_string)
                .collect();
            let (start, moves, tree) = crate::rules::with_rules!(unit.game.variant(), R => {
                unit.game.get::<R>().map_or((String::new(), Vec::new(), Vec::new()), |game| {
                    let moves: Vec<String> = game
                        .moves()
                        .iter()
                        .map(|&mv| crate::rules::notation::format_move::<R>(mv, MoveStyle::Hub))
                        .collect();
                    let tree =
                        line_json(*game.start(), game.moves(), &pdn.variations, &mut warnings);
                    (to_fen(game.start()), moves, tree)
                })
            });
            json!({
                "variant": unit.game.variant().name(),
                "white": tag("White"),
                "black": tag("Black"),
                "result": tag("Result"),
                "event": tag("Event"),
                "start": start,
                "moves": moves,
                "tree": tree,
                "warnings": warnings,
            })
        })
        .collect();
    if games.is_empty() && errors.is_empty() {
        return Reply::error(400, "no game in this PDN");
    }
    let errors: Vec<String> = errors.iter().map(ToString::to_string).collect();
    Reply::json(&json!({ "games": games, "errors": errors }))
}

/// A line of legal `moves` from `start` with its `variations` (read, not
/// yet replayed), as the page keeps it: each move its `hub` and `text`,
/// and `variations`, the lines played instead of it, where it has any.
/// A variation with a move that is not legal is left out, and `warnings`
/// says so.
fn line_json<R: Rules>(
    start: Position<R>,
    moves: &[Move],
    variations: &[PdnVariation],
    warnings: &mut Vec<String>,
) -> Vec<Value> {
    let mut variations = variations.iter().peekable();
    let mut pos = start;
    let mut line = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        let mut entry = json!({
            "hub": squares_of::<R>(mv).to_string(),
            "text": move_text(&pos, mv),
        });
        let mut instead = Vec::new();
        while let Some(variation) = variations.next_if(|v| v.replaces == i) {
            match replay_variation(pos, variation) {
                Ok(played) => instead.push(Value::Array(line_json(
                    pos,
                    &played,
                    &variation.variations,
                    warnings,
                ))),
                Err(why) => warnings.push(why),
            }
        }
        if !instead.is_empty() {
            entry["variations"] = Value::Array(instead);
        }
        line.push(entry);
        pos = pos.play(mv);
    }
    line
}

/// The moves of `variation` from `pos`, or why one is not legal.
fn replay_variation<R: Rules>(
    mut pos: Position<R>,
    variation: &PdnVariation,
) -> Result<Vec<Move>, String> {
    let mut played = Vec::with_capacity(variation.moves.len());
    for (text, line) in variation.moves.iter().zip(&variation.move_lines) {
        let mv = parse_move(&pos, text)
            .map_err(|e| format!("line {line}: a variation is left out: move '{text}': {e}"))?;
        played.push(mv);
        pos = pos.play(mv);
    }
    Ok(played)
}
