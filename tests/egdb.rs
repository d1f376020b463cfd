//! Endgame databases: built tables against an independent solver, and the
//! known results of the simplest endings.
//!
//! The independent solver knows nothing of indices, slices or unmoves: it
//! collects every position reachable from a set of roots by the legal
//! moves, then decides them round by round (a position is won in `n` plies
//! when a move reaches one lost in `n - 1`, lost in `n` when its moves all
//! reach won ones, the slowest in `n - 1`); what no round decides is drawn.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use tempo::egdb::{build, Egdb, Layout, Material, Value};
use tempo::rules::notation::parse_fen;
use tempo::rules::{Brazilian, International, Position, Rules};

/// A directory of its own for one test's tables.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tempo-egdb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn built<R: Rules>(dir: &Path, pieces: u32) -> Egdb<R> {
    build::<R>(dir, pieces, &mut |_| {}).expect("build");
    Egdb::load(dir, pieces).expect("the tables just built load")
}

/// Every position reachable from `roots`, solved without the database.
fn solve_by_graph<R: Rules>(roots: &[Position<R>]) -> HashMap<Position<R>, Value> {
    let mut id: HashMap<Position<R>, u32> = HashMap::new();
    let mut nodes: Vec<Position<R>> = Vec::new();
    let mut edges: Vec<Vec<u32>> = Vec::new();
    let mut queue: Vec<u32> = Vec::new();
    let mut intern = |pos: Position<R>, nodes: &mut Vec<Position<R>>, queue: &mut Vec<u32>| {
        *id.entry(pos).or_insert_with(|| {
            nodes.push(pos);
            queue.push(nodes.len() as u32 - 1);
            nodes.len() as u32 - 1
        })
    };
    for &root in roots {
        intern(root, &mut nodes, &mut queue);
    }
    while let Some(n) = queue.pop() {
        let pos = nodes[n as usize];
        let next: Vec<u32> = pos
            .legal_moves()
            .iter()
            .map(|&mv| intern(pos.play(mv), &mut nodes, &mut queue))
            .collect();
        if edges.len() <= n as usize {
            edges.resize(n as usize + 1, Vec::new());
        }
        edges[n as usize] = next;
    }
    edges.resize(nodes.len(), Vec::new());
    let mut value: Vec<Option<Value>> = vec![None; nodes.len()];
    for (n, e) in edges.iter().enumerate() {
        if e.is_empty() {
            value[n] = Some(Value::Loss(0));
        }
    }
    let mut ply = 0;
    loop {
        ply += 1;
        let mut changed = Vec::new();
        for (n, e) in edges.iter().enumerate() {
            if value[n].is_some() {
                continue;
            }
            if e.iter()
                .any(|&s| value[s as usize] == Some(Value::Loss(ply - 1)))
            {
                changed.push((n, Value::Win(ply)));
            } else if e
                .iter()
                .all(|&s| matches!(value[s as usize], Some(Value::Win(_))))
                && e.iter()
                    .any(|&s| value[s as usize] == Some(Value::Win(ply - 1)))
            {
                changed.push((n, Value::Loss(ply)));
            }
        }
        if changed.is_empty() && ply > 300 {
            break;
        }
        for (n, v) in changed {
            value[n] = Some(v);
        }
    }
    nodes
        .into_iter()
        .zip(value)
        .map(|(pos, v)| (pos, v.unwrap_or(Value::Draw)))
        .collect()
}

/// A few positions of every slice, spread over its indices.
fn sample_roots<R: Rules>(pieces: u32, per_slice: u64) -> Vec<Position<R>> {
    let layout = Layout::<R>::new();
    let mut roots = Vec::new();
    for m in Material::all_up_to(pieces) {
        let size = layout.size(m);
        let mut state = 0x9e37_79b9_7f4a_7c15u64 ^ m.key() as u64;
        let mut taken = 0;
        while taken < per_slice {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if let Some(p) = layout.placement(m, state % size) {
                roots.push(layout.position(&p));
                taken += 1;
            }
        }
    }
    roots
}

/// Every position the roots reach agrees with the tables.
fn check_against_graph<R: Rules>(db: &Egdb<R>, pieces: u32, per_slice: u64) -> usize {
    let solved = solve_by_graph(&sample_roots::<R>(pieces, per_slice));
    let mut checked = 0;
    for (pos, expected) in &solved {
        if pos.pieces(pos.side_to_move().opponent()) == 0 {
            continue;
        }
        let got = db.probe(pos).expect("within the tables");
        assert_eq!(got, *expected, "{}", tempo::rules::notation::to_fen(pos));
        checked += 1;
    }
    checked
}

#[test]
fn three_pieces_agree_with_a_plain_solver() {
    let dir = scratch("three");
    let db = built::<International>(&dir, 3);
    let checked = check_against_graph(&db, 3, 3);
    assert!(checked > 100_000, "{checked} positions compared");
    let db = built::<Brazilian>(&dir, 3);
    assert!(check_against_graph(&db, 3, 5) > 10_000);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[ignore = "builds every 4-piece slice of both boards (a minute or two)"]
fn four_pieces_agree_with_a_plain_solver() {
    let dir = scratch("four");
    let db = built::<Brazilian>(&dir, 4);
    assert!(check_against_graph(&db, 4, 2) > 100_000);
    let db = built::<International>(&dir, 4);
    assert!(check_against_graph(&db, 4, 1) > 100_000);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_second_build_keeps_the_tables_on_disk() {
    let dir = scratch("resume");
    built::<Brazilian>(&dir, 3);
    let mut started = 0;
    let mut loaded = 0;
    build::<Brazilian>(&dir, 3, &mut |e| match e {
        tempo::egdb::BuildEvent::Started { .. } => started += 1,
        tempo::egdb::BuildEvent::Loaded { .. } => loaded += 1,
        _ => {}
    })
    .unwrap();
    assert_eq!((started, loaded), (0, 16));
    // A table cut short is refused by name, never taken for a finished one.
    let file = dir.join("brazilian-1011.egdb");
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    let e = Egdb::<Brazilian>::load(&dir, 3).expect_err("refused");
    assert!(e.to_string().contains("brazilian-1011.egdb"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

fn value(db: &Egdb<International>, fen: &str) -> Value {
    db.probe(&parse_fen(fen).unwrap()).unwrap()
}

/// The longest win of a slice, in plies, and how many positions it wins.
fn wins(db: &Egdb<International>, m: &str) -> (u32, u64) {
    let m: Material = m.parse().unwrap();
    let layout = Layout::<International>::new();
    let (mut longest, mut count) = (0, 0);
    for index in 0..layout.size(m) {
        if let Some(p) = layout.placement(m, index) {
            if let Some(Value::Win(d)) = db.probe(&layout.position(&p)) {
                longest = longest.max(d);
                count += 1;
            }
        }
    }
    (longest, count)
}

#[test]
fn two_kings_against_one_win_only_at_once() {
    let dir = scratch("kings");
    let db = built::<International>(&dir, 3);
    // Two kings against a king draw, but for a king caught within four
    // moves of the side with two: a win takes at most 7 plies.
    let (longest, count) = wins(&db, "0201");
    assert!(
        count > 0 && longest <= 7,
        "2K v K: {count} wins, longest {longest} plies"
    );
    assert_eq!(value(&db, "W:WK1,K2:BK46"), Value::Draw);
    // A king against a man far from crowning: the king wins.
    assert!(matches!(value(&db, "W:WK1:B30"), Value::Win(_)));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Searches `fen` with the tables and returns the score and the move.
fn search_with<R: Rules>(db: Egdb<R>, fen: &str, depth: u32) -> (i32, Position<R>) {
    use tempo::search::tt::Table;
    use tempo::search::{search, Control, Limits, SearchSetup};
    let root: Position<R> = parse_fen(fen).unwrap();
    let mut setup = SearchSetup::new(
        root,
        Limits {
            depth: Some(depth),
            ..Limits::default()
        },
    );
    setup.egdb = Some(std::sync::Arc::new(db));
    let result = search(&setup, &Table::new(4), &Control::default(), &mut |_| {});
    (result.score, root.play(result.best.expect("a move")))
}

#[test]
fn the_search_plays_the_fastest_win_the_tables_know() {
    use tempo::search::MATE;
    let dir = scratch("search");
    let db = built::<International>(&dir, 3);
    // A king against a man: won, and each move the search makes keeps the
    // win, one ply shorter (men on the board: no count cuts it short).
    let fen = "W:WK1:B30";
    let Value::Win(d) = db.probe(&parse_fen(fen).unwrap()).unwrap() else {
        panic!("a win expected");
    };
    let reloaded = Egdb::<International>::load(&dir, 3).unwrap();
    let (score, after) = search_with(reloaded, fen, 4);
    assert_eq!(score, MATE - d as i32);
    assert_eq!(db.probe(&after), Some(Value::Loss(d - 1)));
    // Two kings against one: the lone king holds the draw.
    let (score, _) = search_with(db, "W:WK1,K2:BK46", 6);
    assert_eq!(score, 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_engine_says_once_what_tables_it_loaded() {
    use tempo::engine::{EngineEvent, EngineHost, GoMode, Limits};
    let dir = scratch("engine");
    built::<International>(&dir, 3);
    let notes = |engine: &mut EngineHost| {
        let (tx, rx) = crossbeam_channel::unbounded();
        let limits = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        engine.go(GoMode::Think, limits, tx).unwrap();
        engine.wait();
        rx.try_iter()
            .filter_map(|e| match e {
                EngineEvent::Note(text) => Some(text),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    let mut engine = EngineHost::new();
    engine.set_param("book", "false").unwrap();
    engine
        .set_param("egdb-path", dir.to_str().unwrap())
        .unwrap();
    let said = notes(&mut engine);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("up to 3 pieces loaded"), "{said:?}");
    assert!(
        said[0].contains("those of 4 pieces are not all there"),
        "{said:?}"
    );
    assert!(notes(&mut engine).is_empty(), "said once");
    // A directory without tables: the engine plays on and says so.
    engine
        .set_param("egdb-path", dir.join("nothing").to_str().unwrap())
        .unwrap();
    let said = notes(&mut engine);
    assert!(said[0].contains("playing without"), "{said:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Counts of won, drawn and lost positions (for White, to move) of slice
/// `m` among those `keep` accepts, and the longest win in plies.
fn tally<R: Rules>(db: &Egdb<R>, m: &str, keep: impl Fn(&Position<R>) -> bool) -> [u64; 4] {
    let m: Material = m.parse().unwrap();
    let layout = Layout::<R>::new();
    let mut counts = [0u64; 4];
    for index in 0..layout.size(m) {
        let Some(p) = layout.placement(m, index) else {
            continue;
        };
        let pos = layout.position(&p);
        if !keep(&pos) {
            continue;
        }
        match db.probe(&pos).expect("within the tables") {
            Value::Win(d) => {
                counts[0] += 1;
                counts[3] = counts[3].max(u64::from(d));
            }
            Value::Draw => counts[1] += 1,
            Value::Loss(_) => counts[2] += 1,
        }
    }
    counts
}

/// The bits of the squares of a diagonal, given by square numbers.
fn squares_mask<R: Rules>(squares: &[u8]) -> u64 {
    use tempo::rules::{Geometry, Square};
    squares
        .iter()
        .map(|&s| <R::Geometry as Geometry>::bit(Square::new(s).unwrap()).mask())
        .fold(0, |a, b| a | b)
}

/// Three kings against one on 8x8 (Brazilian, flying kings): with White to
/// move and no capture on for either side, the three win when one of them
/// holds the main diagonal (29-4) and the lone king is off it (Petrov's
/// triangle), within the 15 moves a side the count rule leaves; the lone
/// king on the main diagonal holds the draw unless a sacrifice catches it
/// within five moves.
#[test]
fn three_kings_against_one_on_8x8_win_with_the_main_diagonal() {
    use tempo::rules::movegen::{has_capture, side_has_capture};
    use tempo::rules::Side;
    let dir = scratch("three-kings");
    let db = built::<Brazilian>(&dir, 4);
    let main = squares_mask::<Brazilian>(&[29, 25, 22, 18, 15, 11, 8, 4]);
    let quiet =
        |pos: &Position<Brazilian>| !has_capture(pos) && !side_has_capture(pos, Side::Black);
    let held = tally(&db, "0301", |pos| {
        quiet(pos) && pos.kings(Side::White) & main != 0 && pos.kings(Side::Black) & main == 0
    });
    let [won, drawn, lost, longest] = held;
    assert!(won > 1000 && drawn == 0 && lost == 0, "{held:?}");
    assert!(longest <= 30, "Petrov's triangle took {longest} plies");
    let refuge = tally(&db, "0301", |pos| {
        quiet(pos) && pos.kings(Side::Black) & main != 0
    });
    let [won, drawn, lost, longest] = refuge;
    assert!(drawn > 8 * won && lost == 0, "{refuge:?}");
    assert!(
        longest <= 9,
        "a lone king on the main diagonal lost in {longest} plies"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// King endings on 10x10, from the kings-only slices of up to 5 pieces
/// (about two minutes to build): with White to move and no capture on for
/// either side, three kings against a king on the long diagonal (46-5)
/// draw but for a catch within a few moves (the 16-move count would draw
/// them anyway); four kings with one on the long diagonal win against a
/// king off it, each within the 25 moves a side of the king-move count.
#[test]
#[ignore = "builds the 5-piece slices without men (a few minutes)"]
fn kings_against_a_king_on_10x10() {
    use tempo::egdb::build_slices;
    use tempo::rules::movegen::{has_capture, side_has_capture};
    use tempo::rules::Side;
    let dir = scratch("kings-10");
    let db = build_slices::<International>(&dir, 5, &|m| m.men() == 0, &mut |_| {}).unwrap();
    let long = squares_mask::<International>(&[46, 41, 37, 32, 28, 23, 19, 14, 10, 5]);
    let quiet =
        |pos: &Position<International>| !has_capture(pos) && !side_has_capture(pos, Side::Black);
    let refuge = tally(&db, "0301", |pos| {
        quiet(pos) && pos.kings(Side::Black) & long != 0
    });
    let [won, drawn, lost, longest] = refuge;
    assert!(
        drawn > 8 * won && lost == 0,
        "3K v K on the long diagonal: {refuge:?}"
    );
    assert!(
        longest <= 9,
        "3K v K on the long diagonal: a win of {longest} plies"
    );
    let four = tally(&db, "0401", |pos| {
        quiet(pos) && pos.kings(Side::White) & long != 0 && pos.kings(Side::Black) & long == 0
    });
    let [won, drawn, lost, longest] = four;
    assert!(won > 100_000 && drawn == 0 && lost == 0, "4K v K: {four:?}");
    assert!(longest <= 50, "4K v K: a win of {longest} plies");
    std::fs::remove_dir_all(&dir).unwrap();
}
