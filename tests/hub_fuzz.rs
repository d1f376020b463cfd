//! Fuzzing the Hub adapter in-process: more than 100,000 random and
//! mutated protocol lines, from fixed seeds (so every run sends the same
//! lines), fed to `protocol::hub::serve` in sessions of a few thousand.
//!
//! What must hold: no panic anywhere (a panic hook counts them, search
//! threads included), no hang (each session must end within a deadline
//! once its input ends), and every reply well formed: one of the words the
//! engine may send, then only `name=value` arguments, a quoted value
//! holding no quote, no control character; `done` with `move=` first;
//! `error` with a `message`; `info` with the spec's fields. And no reply is
//! lost: there is exactly one `pong` per line whose command word is `ping`,
//! and never more `done` than `go` lines.
//!
//! Every session is worked off completely: after its lines the harness
//! sends a marker line (whose error reply it waits for) and a `stop` every
//! millisecond meanwhile, so that every search ends and every held command
//! is handled before the input closes.
//!
//! The lines mix well-formed commands (random legal games in both variants,
//! small `level`s, every `go`), their mutations (characters deleted,
//! inserted or replaced, words swapped or repeated, numbers made huge or
//! negative) and noise. Two sessions go through the real reader thread as
//! raw bytes (invalid UTF-8, carriage returns, an over-long line).
//!
//! Left out, and why: `quit` (it ends the session; the session tests cover
//! it), and the `hash` and `threads` parameters, whose legal maxima
//! allocate 64 GiB or start 256 threads per search: that tests the
//! machine, not the adapter (their refusals are in the session tests).
//! Each session first sets `hash` to 1 MiB so that `new-game` is cheap.

use std::io::{BufReader, Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossbeam_channel::{unbounded, Receiver, Sender};
use tempo::protocol::hub::{serve, spawn_reader, Input};
use tempo::rules::notation::{format_move, to_fen, to_hub};
use tempo::rules::{Brazilian, International, MoveStyle, Position, Rules};

/// Lines sent in all, at least.
const LINES: usize = 100_000;
/// Lines per session.
const SESSION: usize = 2_000;
/// The longest a session may take once its input has ended.
const DEADLINE: Duration = Duration::from_secs(60);

/// SplitMix64: small, fast, and the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A random game of `R` from the start: the position reached and the moves.
fn random_game<R: Rules>(rng: &mut Rng, plies: usize) -> (Position<R>, Vec<String>) {
    let mut pos = Position::<R>::start();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = *rng.pick(legal.as_slice());
        moves.push(format_move::<R>(mv, MoveStyle::Hub));
        pos = pos.play(mv);
    }
    (pos, moves)
}

/// A `pos` line for variant `R`.
fn pos_line<R: Rules>(rng: &mut Rng) -> String {
    let plies = rng.below(80);
    let (reached, moves) = random_game::<R>(rng, plies);
    match rng.below(4) {
        0 => format!("pos pos={}", to_hub(&reached)),
        1 => format!("pos pos={}", to_fen(&reached)),
        _ => format!(
            "pos pos={} moves=\"{}\"",
            to_hub(&Position::<R>::start()),
            moves.join(" ")
        ),
    }
}

fn number(rng: &mut Rng) -> String {
    match rng.below(6) {
        0 => format!("{}", rng.below(4)),
        1 => format!("0.00{}", rng.below(10)),
        2 => format!("0.0{}", rng.below(5)),
        3 => format!("-{}", rng.below(100)),
        4 => (*rng.pick(&["1e999", "nan", "inf", "", "x", "1e9", "0x10", "+2"])).to_string(),
        _ => format!("{}", rng.below(20_000)),
    }
}

/// A well-formed line (mostly): a command with sensible arguments.
fn valid_line(rng: &mut Rng) -> String {
    let small_time = |rng: &mut Rng| format!("0.0{}", rng.below(3));
    match rng.below(100) {
        0..=9 => "ping".to_string(),
        10..=16 => "stop".to_string(),
        17..=19 => "ponder-hit".to_string(),
        20 => "hub".to_string(),
        21 => "init".to_string(),
        22 => "new-game".to_string(),
        23..=24 => format!(
            "set-param name=variant value={}",
            rng.pick(&[
                "normal",
                "brazilian",
                "standard",
                "international",
                "chess",
                ""
            ])
        ),
        25 => format!("set-param name=multipv value={}", rng.below(6)),
        26 => format!(
            "set-param name={} value=1",
            rng.pick(&["book", "colour", ""])
        ),
        27..=34 => pos_line::<International>(rng),
        35..=40 => pos_line::<Brazilian>(rng),
        41..=43 => {
            let len = rng.below(60);
            let text: String = (0..len)
                .map(|_| *rng.pick(&['w', 'b', 'W', 'B', 'e', '.', 'x', 'W']))
                .collect();
            format!("pos pos={text}")
        }
        44..=46 => format!("level depth={}", 1 + rng.below(3)),
        47..=48 => format!("level nodes={}", 1 + rng.below(5_000)),
        49..=51 => format!("level move-time={}", small_time(rng)),
        52..=53 => format!(
            "level moves={} time={} inc={}",
            rng.below(40),
            small_time(rng),
            small_time(rng)
        ),
        54 => "level infinite".to_string(),
        55..=56 => format!(
            "level {}={}",
            rng.pick(&[
                "depth",
                "nodes",
                "move-time",
                "time",
                "inc",
                "moves",
                "infinite"
            ]),
            number(rng)
        ),
        57..=61 => "go think".to_string(),
        62..=63 => "go ponder".to_string(),
        64..=66 => "go analyze".to_string(),
        67 => format!("go {}", rng.pick(&["", "think ponder", "fast", "think=1"])),
        68..=70 => format!(
            "{} a=1 b=\"c d\" e",
            rng.pick(&["info", "done", "id", "param", "wait", "ready", "pong", "error"])
        ),
        _ => format!("{}", rng.below(1000)),
    }
}

/// Characters the mutations and the noise draw from.
const ALPHABET: &[char] = &[
    ' ', ' ', '=', '"', '"', '-', 'x', '\t', '\r', '\0', '\u{1b}', 'é', '\u{2028}', '0', '1', '9',
    'a', 'p', 'W', 'b', 'e', '.', ':', ',',
];

fn noise(rng: &mut Rng) -> String {
    let len = rng.below(40);
    (0..len).map(|_| *rng.pick(ALPHABET)).collect()
}

/// Edits a line at random.
fn mutate(rng: &mut Rng, line: &str) -> String {
    let mut chars: Vec<char> = line.chars().collect();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(chars.len() + 1);
        match rng.below(7) {
            0 if at < chars.len() => {
                chars.remove(at);
            }
            1 => chars.insert(at, *rng.pick(ALPHABET)),
            2 if at < chars.len() => chars[at] = *rng.pick(ALPHABET),
            3 => chars.truncate(at),
            4 => {
                let words: Vec<String> = chars
                    .iter()
                    .collect::<String>()
                    .split(' ')
                    .map(str::to_string)
                    .collect();
                let mut words = words;
                let (i, j) = (rng.below(words.len()), rng.below(words.len()));
                words.swap(i, j);
                if rng.one_in(2) {
                    let w = words[i].clone();
                    words.push(w);
                }
                chars = words.join(" ").chars().collect();
            }
            5 => {
                let n = number(rng);
                chars.splice(at..at, n.chars());
            }
            _ => {
                let digits: String = (0..1 + rng.below(25))
                    .map(|_| *rng.pick(&['9', '0', '7']))
                    .collect();
                chars.splice(at..at, digits.chars());
            }
        }
    }
    chars.into_iter().collect()
}

/// Whether the adapter must never see this line (see the module doc).
fn left_out(line: &str) -> bool {
    line.split_whitespace().next() == Some("quit")
        || line.contains("hash")
        || line.contains("threads")
}

fn session_lines(rng: &mut Rng, count: usize) -> Vec<String> {
    let mut lines = vec!["set-param name=hash value=1".to_string()];
    while lines.len() < count {
        let line = match rng.below(10) {
            0 => noise(rng),
            1..=3 => {
                let base = valid_line(rng);
                mutate(rng, &base)
            }
            _ => valid_line(rng),
        };
        if !left_out(&line) {
            lines.push(line);
        }
    }
    lines
}

/// Checks one reply line; returns what is wrong with it.
fn malformed(line: &str) -> Option<String> {
    if line
        .chars()
        .any(|c| c.is_control() || (c.is_whitespace() && c != ' '))
    {
        return Some("control character or odd whitespace".to_string());
    }
    let (word, mut rest) = line.split_once(' ').unwrap_or((line, ""));
    if ![
        "id", "param", "wait", "ready", "info", "done", "pong", "error",
    ]
    .contains(&word)
    {
        return Some(format!("unknown reply word '{word}'"));
    }
    let mut names = Vec::new();
    while !rest.is_empty() {
        let Some((name, after)) = rest.split_once('=') else {
            return Some(format!("bare argument in '{rest}'"));
        };
        if name.is_empty() || name.contains([' ', '"']) {
            return Some(format!("bad argument name '{name}'"));
        }
        names.push(name);
        let value_end;
        if let Some(quoted) = after.strip_prefix('"') {
            let Some(close) = quoted.find('"') else {
                return Some("unterminated quote".to_string());
            };
            value_end = close + 2;
        } else {
            let end = after.find(' ').unwrap_or(after.len());
            if after[..end].contains('"') || end == 0 {
                return Some("bad unquoted value".to_string());
            }
            value_end = end;
        }
        rest = &after[value_end..];
        if !rest.is_empty() {
            let Some(next) = rest.strip_prefix(' ') else {
                return Some("no space between arguments".to_string());
            };
            if next.is_empty() || next.starts_with(' ') {
                return Some("stray space".to_string());
            }
            rest = next;
        }
    }
    let needs: &[&str] = match word {
        "info" => &["depth", "score", "nodes", "time", "nps", "pv"],
        "error" => &["message"],
        "param" => &["name", "value", "type"],
        "id" => &["name", "version"],
        _ => &[],
    };
    if let Some(missing) = needs.iter().find(|n| !names.contains(n)) {
        return Some(format!("{word} without {missing}"));
    }
    if word == "done" && names.first() != Some(&"move") {
        return Some("done without move= first".to_string());
    }
    if ["wait", "ready", "pong"].contains(&word) && !names.is_empty() {
        return Some(format!("{word} with arguments"));
    }
    None
}

/// A line whose error reply marks the end of a session's work.
const MARKER: &str = "level depth=end-of-session";

/// How a session's input reaches the adapter.
enum Feed {
    /// Ready-split lines, straight into `serve`.
    Lines(Sender<Input>),
    /// Raw bytes, through the real reader thread.
    Bytes(Sender<Vec<u8>>),
}

impl Feed {
    fn line(&self, line: &str) {
        match self {
            Feed::Lines(tx) => tx
                .send(Input::Line(line.to_string(), std::time::Instant::now()))
                .expect("send"),
            Feed::Bytes(tx) => tx.send(format!("{line}\n").into_bytes()).expect("send"),
        }
    }

    fn end(self) {
        match self {
            Feed::Lines(tx) => tx.send(Input::End).expect("send"),
            Feed::Bytes(tx) => drop(tx),
        }
    }
}

/// A `Read` over byte chunks from a channel; ends when the sender is gone.
struct ChunkReader {
    chunks: Receiver<Vec<u8>>,
    chunk: Vec<u8>,
    at: usize,
}

impl Read for ChunkReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.at == self.chunk.len() {
            match self.chunks.recv() {
                Ok(chunk) => (self.chunk, self.at) = (chunk, 0),
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.chunk.len() - self.at);
        buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Runs one session: sends `input` (lines, or raw bytes when `raw`), then
/// the marker, then one `stop` a millisecond until the marker's error
/// comes back (every search, even an endless one, has ended then and every
/// held command has been handled), then ends the input. Returns the
/// replies.
fn run_session(input: &[String], raw: Option<Vec<u8>>) -> String {
    let output = Arc::new(Mutex::new(Vec::new()));
    let sink = SharedSink(Arc::clone(&output));
    let (feed, messages) = match &raw {
        None => {
            let (tx, rx) = unbounded();
            (Feed::Lines(tx), rx)
        }
        Some(_) => {
            let (tx, rx) = unbounded();
            let reader = BufReader::new(ChunkReader {
                chunks: rx,
                chunk: Vec::new(),
                at: 0,
            });
            (Feed::Bytes(tx), spawn_reader(reader))
        }
    };
    let (finished_tx, finished) = unbounded();
    std::thread::spawn(move || {
        let _ = finished_tx.send(serve(messages, sink).is_ok());
    });
    match (raw, &feed) {
        (Some(bytes), Feed::Bytes(tx)) => tx.send(bytes).expect("send"),
        _ => input.iter().for_each(|line| feed.line(line)),
    }
    feed.line(MARKER);
    let started = Instant::now();
    while !String::from_utf8_lossy(&output.lock().expect("output")).contains("end-of-session") {
        assert!(started.elapsed() < DEADLINE, "the session hung");
        feed.line("stop");
        std::thread::sleep(Duration::from_millis(1));
    }
    feed.end();
    match finished.recv_timeout(DEADLINE) {
        Ok(ok) => assert!(ok, "serve failed to write"),
        Err(_) => panic!("the session did not end with its input"),
    }
    let bytes = output.lock().expect("output").clone();
    String::from_utf8(bytes).expect("the output is UTF-8")
}

/// An output the test can read while the adapter writes it.
struct SharedSink(Arc<Mutex<Vec<u8>>>);

impl Write for SharedSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("sink").extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Checks a session's replies against the lines it was sent.
fn check(seed: u64, sent: &[String], output: &str) {
    assert!(
        output.is_empty() || output.ends_with('\n'),
        "seed {seed}: last line unfinished"
    );
    let replies: Vec<&str> = output.lines().collect();
    for (i, reply) in replies.iter().enumerate() {
        if let Some(why) = malformed(reply) {
            panic!("seed {seed}: reply {i} '{reply}' is malformed: {why}");
        }
    }
    let pings = sent
        .iter()
        .filter(|l| l.split_whitespace().next() == Some("ping"))
        .count();
    let pongs = replies.iter().filter(|r| **r == "pong").count();
    assert_eq!(pings, pongs, "seed {seed}: pings and pongs differ");
    let gos = sent
        .iter()
        .filter(|l| l.split_whitespace().next() == Some("go"))
        .count();
    let dones = replies.iter().filter(|r| r.starts_with("done")).count();
    assert!(dones <= gos, "seed {seed}: {dones} done for {gos} go");
}

#[test]
fn a_hundred_thousand_random_and_mutated_lines() {
    let panics = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&panics);
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        counter.fetch_add(1, Ordering::SeqCst);
        previous(info);
    }));

    let started = Instant::now();
    let mut total = 0;
    let mut searches = 0;
    let mut seed = 0;
    while total < LINES {
        seed += 1;
        let mut rng = Rng(seed);
        let lines = session_lines(&mut rng, SESSION);
        total += lines.len();
        let output = run_session(&lines, None);
        check(seed, &lines, &output);
        searches += output.lines().filter(|l| l.starts_with("done")).count();
    }

    // Raw bytes through the reader thread: invalid UTF-8, both line ends,
    // and a line too long to keep.
    for seed in [1001, 1002] {
        let mut rng = Rng(seed);
        let lines = session_lines(&mut rng, SESSION);
        let mut bytes = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            bytes.extend_from_slice(line.as_bytes());
            if i % 97 == 0 {
                bytes.extend_from_slice(b"\xff\xfe");
            }
            bytes.extend_from_slice(if i % 2 == 0 { b"\r\n" } else { b"\n" });
            if i == 100 {
                bytes.extend(std::iter::repeat_n(b'z', (1 << 20) + 5));
                bytes.push(b'\n');
            }
        }
        total += lines.len();
        let output = run_session(&[], Some(bytes.clone()));
        let sent: Vec<String> = String::from_utf8_lossy(&bytes)
            .split('\n')
            .map(str::to_string)
            .collect();
        check(seed, &sent, &output);
        assert!(
            output.contains("limited to"),
            "the long line was not reported"
        );
        searches += output.lines().filter(|l| l.starts_with("done")).count();
    }

    let _ = std::panic::take_hook();
    assert_eq!(panics.load(Ordering::SeqCst), 0, "something panicked");
    assert!(total >= LINES);
    println!(
        "{total} lines, {searches} searches, in {:?}",
        started.elapsed()
    );
}
