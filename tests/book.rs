//! The opening book: its text format (round trip, the errors of bad files),
//! the shipped books (every move legal, every line covered to 8 plies), the
//! engine's use of it (`go think`/`go ponder` only, `book-margin`, a bad
//! `book-file` keeps the old book), and the `tempo book` commands.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crossbeam_channel::unbounded;
use tempo::book::{self, Book, BookErrorKind, BookMove};
use tempo::engine::{EngineEvent, EngineHost, GoMode, Limits, MoveSquares};
use tempo::rules::notation::{parse_move, parse_position, to_hub};
use tempo::rules::{Brazilian, International, Position, Rules, VariantKind};

const START10: &str = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";

/// A scratch file under the target directory, unique to the test.
fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("book-tests");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write scratch file");
    path
}

/// A small International book in text, written by hand: a FEN, PDN moves,
/// moves out of order, fields left out, comments and blank lines.
const HAND_MADE: &str = "\
# a hand-made book
tempo-book 1 variant=international

W:W31-50:B1-20 | 33-28 score=0.02 depth=9 | 32-28 score=0.05 depth=9 weight=3
# after 32-28
Bbbbbbbbbbbbbbbbbbbbbeeeeeeeweewewwwwwwwwwwwwwwwwww | 18-23 score=-0.04 | 17-22 weight=0
W:W28,31,33-50:B1-18,20,23 | 28x19 score=0.10 depth=2
end 3
";

#[test]
fn the_format_round_trips() {
    let book = Book::parse::<International>(HAND_MADE, "hand.book").expect("reads");
    assert_eq!(book.len(), 3);
    assert_eq!(book.move_count(), 5);
    let text = book.to_text(&["a note".to_string()]);
    let again = Book::parse::<International>(&text, "written").expect("reads back");
    assert_eq!(again, book);
    assert_eq!(again.to_text(&["a note".to_string()]), text);
    // Written best first, in Hub notation, every field given.
    let start = Position::<International>::start();
    let first: Vec<&BookMove> = book.probe(&start).expect("start").iter().collect();
    assert_eq!(first[0].text, "32-28");
    assert_eq!(
        (first[0].score, first[0].depth, first[0].weight),
        (Some(5), Some(9), 3)
    );
    assert_eq!(first[1].weight, 1);
    assert!(text.contains(&format!(
        "{START10} | 32-28 score=0.05 depth=9 weight=3 | 33-28 score=0.02 depth=9 weight=1\n"
    )));
    assert!(text.contains("| 28x19x23 score=0.10 depth=2 weight=1\n"));
    assert!(text.contains("# a note\n"));
    assert!(text.ends_with("end 3\n"));
}

#[test]
fn a_built_book_round_trips() {
    // Random-looking but fixed contents: every legal move of a few
    // positions, with assorted fields.
    let mut book = Book::new(VariantKind::Brazilian);
    let mut pos = Position::<Brazilian>::start();
    for ply in 0..12u32 {
        let legal = pos.legal_moves();
        let moves: Vec<BookMove> = legal
            .iter()
            .enumerate()
            .map(|(i, &mv)| {
                let i = i as u32;
                BookMove {
                    score: (!i.is_multiple_of(3)).then_some(i as i32 * 7 - 20 - ply as i32),
                    depth: i.is_multiple_of(2).then_some(i + ply),
                    weight: (i * 5 + ply) % 4,
                    ..BookMove::new::<Brazilian>(mv)
                }
            })
            .collect();
        book.insert(&pos, moves).expect("insert");
        pos = pos.play(legal.as_slice()[(ply as usize * 3) % legal.len()]);
    }
    let text = book.to_text(&[]);
    assert_eq!(Book::parse::<Brazilian>(&text, "b").expect("reads"), book);
}

/// The error of reading `text` as an International book.
fn error_of(text: &str) -> (usize, BookErrorKind, String) {
    let e = Book::parse::<International>(text, "bad.book").expect_err("refused");
    (e.line, e.kind.clone(), e.to_string())
}

#[test]
fn bad_files_are_refused_with_file_and_line() {
    let header = "tempo-book 1 variant=international\n";
    let start = format!("{START10} | 32-28\n");
    // An illegal move.
    let (line, kind, text) = error_of(&format!("{header}{START10} | 32-23\nend 1\n"));
    assert_eq!(line, 2);
    assert!(matches!(kind, BookErrorKind::BadMove { .. }), "{kind:?}");
    assert!(text.starts_with("bad.book:2: bad move '32-23'"), "{text}");
    // A position in no known format.
    let (line, kind, _) = error_of(&format!("{header}{start}bbbbwwww | 32-28\nend 2\n"));
    assert_eq!(line, 3);
    assert!(
        matches!(kind, BookErrorKind::BadPosition { .. }),
        "{kind:?}"
    );
    // A Brazilian position in an International book.
    let (line, kind, _) = error_of(&format!(
        "{header}Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww | 22-18\nend 1\n"
    ));
    assert_eq!(
        (line, matches!(kind, BookErrorKind::BadPosition { .. })),
        (2, true)
    );
    // Truncated: cut in the middle of a line, or just before the end line.
    let whole = format!("{header}{start}{START10}x | 33-28\nend 2\n");
    let cut = &whole[..header.len() + start.len() + 20];
    let (line, kind, text) = error_of(cut);
    assert_eq!((line, kind), (3, BookErrorKind::Truncated));
    assert!(
        text.contains("bad.book:3: the file ends without its 'end' line"),
        "{text}"
    );
    let (line, kind, _) = error_of(&format!("{header}{start}"));
    assert_eq!((line, kind), (2, BookErrorKind::Truncated));
    assert_eq!(error_of("").1, BookErrorKind::Empty);
    assert_eq!(error_of("# only a comment\n\n").1, BookErrorKind::Empty);
    // The end line counts another number of positions.
    let (line, kind, _) = error_of(&format!("{header}{start}end 2\n"));
    assert_eq!(line, 3);
    assert!(
        matches!(kind, BookErrorKind::CountMismatch { .. }),
        "{kind:?}"
    );
    // Text after the end line.
    let (line, kind, _) = error_of(&format!("{header}{start}end 1\n# fine\nmore\n"));
    assert_eq!((line, kind), (5, BookErrorKind::TextAfterEnd));
    // Headers: missing, malformed, of another variant.
    let (line, kind, _) = error_of(&format!("{start}end 1\n"));
    assert_eq!((line, kind), (1, BookErrorKind::MissingHeader));
    // Another kind of file is not a book, rather than a truncated one.
    let (line, kind, text) = error_of("root:x:0:0:root:/root:/bin/bash\nbin:x:1:1::/:\n");
    assert_eq!((line, kind), (1, BookErrorKind::MissingHeader));
    assert!(text.contains("not a book file"), "{text}");
    let (line, kind, _) = error_of(&format!(
        "tempo-book 2 variant=international\n{start}end 1\n"
    ));
    assert_eq!(line, 1);
    assert!(matches!(kind, BookErrorKind::BadHeader(_)), "{kind:?}");
    let (_, kind, text) = error_of(&format!("tempo-book 1 variant=brazilian\n{start}end 1\n"));
    assert!(
        matches!(kind, BookErrorKind::WrongVariant { .. }),
        "{kind:?}"
    );
    assert!(text.contains("'brazilian' book"), "{text}");
    // The same position twice (once as a FEN), a move twice, no moves.
    let (line, kind, _) = error_of(&format!("{header}{start}W:W31-50:B1-20 | 33-28\nend 2\n"));
    assert_eq!(
        (line, kind),
        (3, BookErrorKind::DuplicatePosition { first: 2 })
    );
    let (line, kind, _) = error_of(&format!("{header}{START10} | 32-28 | 32-28\nend 1\n"));
    assert_eq!(
        (line, kind),
        (2, BookErrorKind::DuplicateMove("32-28".to_string()))
    );
    let (line, kind, _) = error_of(&format!("{header}{START10}\nend 1\n"));
    assert_eq!((line, kind), (2, BookErrorKind::NoMoves));
    // Bad fields.
    for field in [
        "score=abc",
        "score=0.123",
        "depth=-1",
        "weight=1.5",
        "color=red",
        "score=1 score=2",
        "12",
    ] {
        let (line, kind, _) = error_of(&format!("{header}{START10} | 32-28 {field}\nend 1\n"));
        assert_eq!(line, 2, "{field}");
        assert!(
            matches!(kind, BookErrorKind::BadField(_)),
            "{field}: {kind:?}"
        );
    }
    // A missing file names the file.
    let missing = Path::new(env!("CARGO_TARGET_TMPDIR")).join("no-such.book");
    let e = Book::read_file::<International>(&missing).expect_err("missing");
    assert!(
        e.to_string().starts_with(&missing.display().to_string()),
        "{e}"
    );
}

/// The shipped book file of `R`, as text.
fn shipped_text<R: Rules>() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(book::shipped_path(R::KIND).expect("a shipped book"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Walks the shipped book file line by line, reading each position and
/// move with the notation functions alone (not the book reader): every
/// move is legal in its position, no position is given twice.
fn every_shipped_move_is_legal<R: Rules>() {
    let text = shipped_text::<R>();
    let mut seen = HashSet::new();
    let mut moves = 0;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with("tempo-book") {
            continue;
        }
        if line.starts_with("end ") {
            assert_eq!(line, format!("end {}", seen.len()));
            continue;
        }
        let mut parts = line.split(" | ");
        let pos_text = parts.next().expect("position");
        let pos = parse_position::<R>(pos_text)
            .unwrap_or_else(|e| panic!("line {}: {pos_text}: {e}", i + 1));
        assert!(seen.insert(to_hub(&pos)), "line {}: position again", i + 1);
        for item in parts {
            let mv = item.split_whitespace().next().expect("move");
            parse_move(&pos, mv).unwrap_or_else(|e| panic!("line {}: {mv}: {e}", i + 1));
            moves += 1;
        }
    }
    assert!(seen.len() > 100, "a book of {} positions", seen.len());
    let book = book::shipped(R::KIND).expect("the shipped book reads");
    assert_eq!((book.len(), book.move_count()), (seen.len(), moves));
}

#[test]
fn every_move_of_the_shipped_books_is_legal() {
    every_shipped_move_is_legal::<International>();
    every_shipped_move_is_legal::<Brazilian>();
}

/// The start position and every position after one move from it are in the
/// book, and so is every position reached along book moves up to ply 8.
fn the_shipped_book_covers_eight_plies<R: Rules>() {
    let book = book::shipped(R::KIND).expect("reads");
    let start = Position::<R>::start();
    let first = book.probe(&start).expect("the start position");
    assert_eq!(first.len(), start.legal_moves().len(), "every first move");
    let mut level = vec![start];
    let mut seen = HashSet::from([to_hub(&start)]);
    for ply in 0..8 {
        let mut next = Vec::new();
        for pos in &level {
            let moves = book
                .probe(pos)
                .unwrap_or_else(|| panic!("ply {ply}: {} is not in the book", to_hub(pos)));
            assert!(moves.iter().any(|m| m.weight > 0 && m.score.is_some()));
            for m in moves {
                let child = pos.play(m.mv);
                if seen.insert(to_hub(&child)) && !child.legal_moves().is_empty() {
                    next.push(child);
                }
            }
        }
        level = next;
    }
    assert!(!level.is_empty());
}

#[test]
fn the_shipped_books_cover_every_book_line_to_eight_plies() {
    the_shipped_book_covers_eight_plies::<International>();
    the_shipped_book_covers_eight_plies::<Brazilian>();
}

/// Runs one `go` and returns its events (the last is `Done`).
fn go(engine: &mut EngineHost, mode: GoMode, limits: Limits) -> Vec<EngineEvent> {
    let (tx, rx) = unbounded();
    engine.go(mode, limits, tx).expect("go");
    if mode == GoMode::Ponder {
        engine.ponder_hit();
    }
    let mut events = Vec::new();
    loop {
        let e = rx.recv_timeout(Duration::from_secs(30)).expect("an event");
        let done = matches!(e, EngineEvent::Done { .. });
        events.push(e);
        if done {
            engine.wait();
            return events;
        }
    }
}

fn best(events: &[EngineEvent]) -> MoveSquares {
    match events.last() {
        Some(EngineEvent::Done { best: Some(m), .. }) => m.clone(),
        other => panic!("no move: {other:?}"),
    }
}

fn from_book(events: &[EngineEvent]) -> bool {
    events
        .iter()
        .any(|e| matches!(e, EngineEvent::Info(i) if i.book))
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn the_engine_plays_from_the_book_in_think_and_ponder_only() {
    let mut engine = EngineHost::new();
    engine.set_param("book-margin", "0").expect("margin");
    let shipped = book::shipped(VariantKind::International).expect("book");
    let start = Position::<International>::start();
    let best_text = &shipped.probe(&start).expect("start")[0].text;
    for mode in [GoMode::Think, GoMode::Ponder] {
        let events = go(&mut engine, mode, depth(30));
        assert_eq!(events.len(), 2, "one info and done: {events:?}");
        assert!(from_book(&events));
        assert_eq!(&best(&events).to_string(), best_text);
        if let EngineEvent::Done { ponder, .. } = &events[1] {
            assert!(ponder.is_some());
        }
    }
    let events = go(&mut engine, GoMode::Analyze, depth(3));
    assert!(!from_book(&events));
    engine.set_param("book", "false").expect("book off");
    assert!(!from_book(&go(&mut engine, GoMode::Think, depth(3))));
    engine.set_param("book", "true").expect("book on");
    assert!(from_book(&go(&mut engine, GoMode::Think, depth(3))));
    assert!(engine.set_param("book", "maybe").is_err());
    // Out of the book, the engine searches.
    engine
        .set_position(START10, &["31-26", "20-25", "26-21", "17x26x21"])
        .expect("position");
    assert!(!from_book(&go(&mut engine, GoMode::Think, depth(3))));
}

#[test]
fn book_margin_zero_is_deterministic_and_a_margin_varies_among_close_moves() {
    let path = scratch(
        "margin.book",
        &format!(
            "tempo-book 1 variant=international\n\
             {START10} | 32-28 score=0.05 | 33-28 score=0.03 | 34-29 score=0.02 weight=0 | 31-27 score=-0.10\n\
             end 1\n"
        ),
    );
    let mut engine = EngineHost::new();
    engine
        .set_param("book-file", &path.display().to_string())
        .expect("book-file");
    engine.set_param("book-margin", "0").expect("margin");
    for _ in 0..20 {
        assert_eq!(
            best(&go(&mut engine, GoMode::Think, depth(3))).to_string(),
            "32-28"
        );
    }
    engine.set_param("book-margin", "5").expect("margin");
    let mut seen = HashSet::new();
    for _ in 0..60 {
        seen.insert(best(&go(&mut engine, GoMode::Think, depth(3))).to_string());
    }
    let expected: HashSet<String> = ["32-28", "33-28"].iter().map(|s| s.to_string()).collect();
    assert_eq!(seen, expected);
    // A bad book is refused with its file and line; the previous one stays.
    let bad = scratch(
        "bad.book",
        &format!("tempo-book 1 variant=international\n{START10} | 32-23\nend 1\n"),
    );
    let e = engine
        .set_param("book-file", &bad.display().to_string())
        .expect_err("refused");
    assert!(
        e.to_string()
            .contains(&format!("{}:2: bad move '32-23'", bad.display())),
        "{e}"
    );
    let file = engine
        .params()
        .into_iter()
        .find(|p| p.name == "book-file")
        .expect("book-file param");
    assert_eq!(file.value, path.display().to_string());
    engine.set_param("book-margin", "0").expect("margin");
    assert_eq!(
        best(&go(&mut engine, GoMode::Think, depth(3))).to_string(),
        "32-28"
    );
    // A book of the other variant is refused too; empty means the shipped book.
    let brazilian = scratch(
        "brazilian.book",
        "tempo-book 1 variant=brazilian\nWbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww | 22-18\nend 1\n",
    );
    assert!(engine
        .set_param("book-file", &brazilian.display().to_string())
        .is_err());
    engine.set_param("variant", "brazilian").expect("variant");
    engine
        .set_param("book-file", &brazilian.display().to_string())
        .expect("a Brazilian book for Brazilian");
    assert_eq!(
        best(&go(&mut engine, GoMode::Think, depth(3))).to_string(),
        "22-18"
    );
    engine.set_param("variant", "normal").expect("variant");
    assert_eq!(
        best(&go(&mut engine, GoMode::Think, depth(3))).to_string(),
        "32-28"
    );
    engine
        .set_param("book-file", "")
        .expect("back to the shipped book");
    let shipped = book::shipped(VariantKind::International).expect("book");
    let start = Position::<International>::start();
    assert_eq!(
        best(&go(&mut engine, GoMode::Think, depth(3))).to_string(),
        shipped.probe(&start).expect("start")[0].text
    );
}

/// Runs `tempo` with `args` and returns its standard output.
fn tempo(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(args)
        .output()
        .expect("run tempo");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn probe_prints_the_book_moves_best_first() {
    let path = scratch("probe.book", HAND_MADE);
    let path = path.display().to_string();
    let out = tempo(&[
        "book",
        "probe",
        "--variant",
        "international",
        "--book",
        &path,
    ]);
    assert_eq!(
        out,
        "move=32-28 score=0.05 depth=9 weight=3\nmove=33-28 score=0.02 depth=9 weight=1\n"
    );
    let after = "W:W28,31,33-50:B1-18,20,23";
    let out = tempo(&["book", "probe", "--book", &path, "--fen", after]);
    assert_eq!(out, "move=28x19x23 score=0.10 depth=2 weight=1\n");
    // A position outside the book: nothing on standard output, a word on
    // standard error, exit status 1.
    let out = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args([
            "book",
            "probe",
            "--book",
            &path,
            "--fen",
            "W:W31-50:B1-19,21",
        ])
        .output()
        .expect("run tempo");
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("is not in") && said.contains("probe.book"),
        "{said}"
    );
    // The shipped books: every legal first move, each line a move.
    for (variant, count) in [("international", 9), ("brazilian", 7)] {
        let out = tempo(&["book", "probe", "--variant", variant]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), count, "{out}");
        assert!(lines
            .iter()
            .all(|l| l.starts_with("move=") && l.contains(" score=")));
    }
}

/// Four readable games (one of them Brazilian) and one with an illegal move
/// on line 14.
const GAMES: &str = "\
[GameType \"20\"]
1. 32-28 18-23 2. 38-32 1-0

[GameType \"20\"]
1. 32-28 19-23 2. 28x19 14x23 1/2-1/2

[GameType \"20\"]
1. 33-28 18-23 0-1

[GameType \"26\"]
1. 22-18 *

[GameType \"20\"]
1. 32-28 32-27 1-0
";

#[test]
fn add_pdn_counts_games_by_frequency_and_result() {
    let pdn = scratch("games.pdn", GAMES);
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("book-tests/from-games.book");
    let _ = std::fs::remove_file(&out);
    let run = || {
        Command::new(env!("CARGO_BIN_EXE_tempo"))
            .args(["book", "add-pdn", "--plies", "3", "--out"])
            .arg(&out)
            .arg(&pdn)
            .output()
            .expect("run tempo")
    };
    let first = run();
    assert_eq!(first.status.code(), Some(1), "a game was skipped");
    let stderr = String::from_utf8_lossy(&first.stderr);
    assert!(
        stderr.contains(&format!("{}:14: move 2 '32-27'", pdn.display())),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&first.stdout);
    assert!(
        stdout.contains("3 games counted (8 moves), 1 skipped as unreadable, 1 of another variant"),
        "{stdout}"
    );
    let book = out.display().to_string();
    let probe = |fen: Option<&str>| {
        let mut args = vec!["book", "probe", "--book", book.as_str()];
        args.extend(fen.iter().flat_map(|f| ["--fen", *f]));
        tempo(&args)
    };
    // 32-28: won once, drawn once; 33-28: lost.
    assert_eq!(probe(None), "move=32-28 weight=3\nmove=33-28 weight=0\n");
    let after = "B:W28,31,33-50:B1-20";
    assert_eq!(
        probe(Some(after)),
        "move=19-23 weight=1\nmove=18-23 weight=0\n"
    );
    // Counting again adds up; the book stays readable.
    assert_eq!(run().status.code(), Some(1));
    assert_eq!(probe(None), "move=32-28 weight=6\nmove=33-28 weight=0\n");
}

#[test]
fn add_pdn_refuses_a_binary_file_and_its_own_book_leaving_no_book() {
    let binary = Path::new(env!("CARGO_TARGET_TMPDIR")).join("book-tests/binary.pdn");
    std::fs::create_dir_all(binary.parent().unwrap()).unwrap();
    std::fs::write(&binary, b"\x7fELF\x02\x01\x01\0\0\0\x1b[31m1. 32-28\x07\0").unwrap();
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("book-tests/from-binary.book");
    let _ = std::fs::remove_file(&out);
    let run = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(["book", "add-pdn", "--out"])
        .arg(&out)
        .arg(&binary)
        .output()
        .expect("run tempo");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("not a text file"), "{stderr}");
    assert!(
        !stderr.contains('\x1b') && !stderr.contains("ELF"),
        "{stderr}"
    );
    assert!(!out.exists(), "a book was left behind");
    // The book given as one of the games it is made from.
    let pdn = scratch("own-book.pdn", GAMES);
    let run = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(["book", "add-pdn", "--out"])
        .arg(&pdn)
        .arg(&pdn)
        .output()
        .expect("run tempo");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--out") && stderr.contains("input"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&pdn).unwrap(), GAMES);
}

#[test]
fn hub_reports_book_moves_and_refuses_a_bad_book_file() {
    let bad = scratch(
        "hub-bad.book",
        &format!("tempo-book 1 variant=international\n{START10} | 32-28\n"),
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .arg("hub")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start tempo");
    let mut stdin = child.stdin.take().expect("stdin");
    let script = format!(
        "hub\ninit\nset-param name=book-file value=\"{}\"\nset-param name=book-margin value=0\n\
         pos pos={START10}\nlevel depth=4\ngo think\ngo analyze\n",
        bad.display()
    );
    stdin.write_all(script.as_bytes()).expect("write");
    stdin.flush().expect("flush");
    let mut lines: Vec<String> = Vec::new();
    let mut out = BufReader::new(child.stdout.take().expect("stdout")).lines();
    while lines.iter().filter(|l| l.starts_with("done")).count() < 2 {
        match out.next() {
            Some(Ok(line)) => lines.push(line),
            _ => break,
        }
    }
    stdin.write_all(b"quit\n").expect("quit");
    drop(stdin);
    let _ = child.wait();
    let param = |name: &str| {
        lines
            .iter()
            .find(|l| l.starts_with(&format!("param name={name} ")))
            .cloned()
            .unwrap_or_default()
    };
    assert_eq!(param("book"), "param name=book value=true type=bool");
    assert_eq!(
        param("book-file"),
        "param name=book-file value=\"\" type=string"
    );
    assert!(param("book-margin").starts_with("param name=book-margin value=4 type=int min=0"));
    let error = lines
        .iter()
        .find(|l| l.starts_with("error"))
        .expect("error");
    assert!(
        error.contains(&format!(
            "{}:2: the file ends without its 'end' line",
            bad.display()
        )),
        "{error}"
    );
    let dones: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("done move="))
        .collect();
    assert_eq!(dones.len(), 2, "{lines:?}");
    let book_info = &lines[dones[0] - 1];
    assert!(book_info.contains(" book=true "), "{book_info}");
    assert!(!lines[dones[0] + 1..dones[1]]
        .iter()
        .any(|l| l.contains("book=")));
}
