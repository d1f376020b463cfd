//! Scripted Hub sessions with the built binary: the start-up handshake,
//! every `level` form answered in time, `stop`, `ping` and `ponder-hit`
//! during a search, every kind of bad input (answered with `error`, after
//! which the engine still answers `ping`), and a prompt exit at the end of
//! the input, also in the middle of a search.
//!
//! Time bounds are those of the issue: `move-time` answered within the
//! time plus 50 ms, `stop` answered within 50 ms, exit within 100 ms of the
//! end of input. They are measured here from the moment the line is
//! written, so they include the pipe's round trip. The tests take turns
//! (`one_at_a_time`) so that the bounds measure the engine, not several
//! engines sharing the machine's cores. A machine shared with other work
//! can still stall any process for tens of milliseconds, so each timed
//! scenario gets up to `TRIES` runs and must keep its bound in one of them
//! (all the times are printed when none does): an engine that really
//! overruns does so every time.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crossbeam_channel::{unbounded, Receiver, RecvTimeoutError};

const START10: &str = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
const START8: &str = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";

/// Generous time for answers that have no bound of their own.
const PATIENCE: Duration = Duration::from_secs(10);

/// Runs of a timed scenario before it counts as failed.
const TRIES: usize = 3;

/// Runs `attempt` (which returns the time it measured) until it keeps
/// `bound`, at most `TRIES` times.
fn timed(what: &str, bound: Duration, mut attempt: impl FnMut() -> Duration) {
    let mut seen = Vec::new();
    for _ in 0..TRIES {
        let took = attempt();
        if took <= bound {
            return;
        }
        seen.push(took);
    }
    panic!("{what}: more than {bound:?} in every run: {seen:?}");
}

static TURN: Mutex<()> = Mutex::new(());

/// Holds the machine for one test; a failed test does not block the others.
fn one_at_a_time() -> MutexGuard<'static, ()> {
    TURN.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A running `tempo` speaking Hub, with its output read on a thread.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
}

impl Engine {
    fn start_with(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tempo"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start tempo");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send((Instant::now(), line)).is_err() {
                    return;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
        }
    }

    /// `tempo hub`, after the handshake.
    fn ready() -> Engine {
        let mut e = Engine::start_with(&["hub"]);
        e.send("hub");
        e.until(|l| l == "wait", PATIENCE);
        e.send("init");
        e.until(|l| l == "ready", PATIENCE);
        e
    }

    /// `tempo hub` after the handshake, ready to time a search: no book
    /// (the clock of a real search is timed), the position `pos` line,
    /// `seconds` a move.
    fn timing(pos: &str, seconds: f64) -> Engine {
        let mut e = Engine::ready();
        e.send("set-param name=book value=false");
        e.send(pos);
        e.send(&format!("level move-time={seconds}"));
        e
    }

    /// Writes one line; returns the moment it was written.
    fn send(&mut self, line: &str) -> Instant {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to tempo");
        stdin.flush().expect("flush");
        Instant::now()
    }

    /// The next line, if one comes within `wait`.
    fn next(&self, wait: Duration) -> Option<(Instant, String)> {
        match self.lines.recv_timeout(wait) {
            Ok(x) => Some(x),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first one that satisfies `last`.
    fn until(&self, last: impl Fn(&str) -> bool, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next(left) {
                Some((_, line)) => {
                    let stop = last(&line);
                    seen.push(line);
                    if stop {
                        return seen;
                    }
                }
                None => panic!("no expected line within {wait:?}; got {seen:?}"),
            }
        }
    }

    /// The `info` lines and the `done` of a search, and when `done` came.
    fn search(&self, wait: Duration) -> (Vec<String>, String, Instant) {
        let deadline = Instant::now() + wait;
        let mut infos = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some((at, line)) = self.next(left) else {
                panic!("no done within {wait:?}; got {infos:?}");
            };
            if line.starts_with("done") {
                return (infos, line, at);
            }
            assert!(line.starts_with("info "), "unexpected line {line}");
            infos.push(line);
        }
    }

    /// Sends `ping`; the very next line must be `pong`.
    fn ping(&mut self) {
        self.send("ping");
        let (_, line) = self.next(PATIENCE).expect("an answer to ping");
        assert_eq!(line, "pong");
    }

    /// Sends a line that must be answered with exactly one `error`, then
    /// checks that the engine still serves.
    fn refused(&mut self, line: &str, says: &str) {
        self.send(line);
        let (_, reply) = self.next(PATIENCE).expect("an answer");
        assert!(
            reply.starts_with("error message=\""),
            "'{line}' got '{reply}'"
        );
        assert!(reply.contains(says), "'{line}' got '{reply}', not '{says}'");
        self.ping();
    }

    /// Closes stdin and waits for the exit; returns how long it took.
    fn close(mut self) -> Duration {
        let closed = Instant::now();
        drop(self.stdin.take());
        self.exit_since(closed)
    }

    /// Waits for a successful exit; returns the time since `from`.
    fn exit_since(&mut self, from: Instant) -> Duration {
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                assert!(status.success(), "exit status {status}");
                return from.elapsed();
            }
            if from.elapsed() > PATIENCE {
                let _ = self.child.kill();
                panic!("tempo did not exit");
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The value of `name=` in a line (unquoted).
fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let start = line.find(&format!(" {name}="))? + name.len() + 2;
    let rest = &line[start..];
    if let Some(quoted) = rest.strip_prefix('"') {
        return quoted.split('"').next();
    }
    rest.split(' ').next()
}

fn check_info(line: &str) {
    for name in ["depth", "score", "nodes", "time", "nps", "pv"] {
        assert!(field(line, name).is_some(), "{name} missing in {line}");
    }
    let score: f64 = field(line, "score").unwrap().parse().expect("score");
    assert!(score.abs() <= 1000.0, "{line}");
}

#[test]
fn the_start_up_handshake_lists_every_parameter_as_name_value() {
    let _turn = one_at_a_time();
    for args in [&["hub"][..], &[][..]] {
        let mut e = Engine::start_with(args);
        e.send("hub");
        let lines = e.until(|l| l == "wait", PATIENCE);
        assert!(lines[0].starts_with("id name=tempo version="), "{lines:?}");
        let params: Vec<&String> = lines.iter().filter(|l| l.starts_with("param ")).collect();
        assert_eq!(params.len() + 2, lines.len(), "{lines:?}");
        for name in ["variant", "threads", "hash", "multipv"] {
            assert!(
                params
                    .iter()
                    .any(|p| p.starts_with(&format!("param name={name} "))),
                "{name} missing: {lines:?}"
            );
        }
        for p in &params {
            // pydraughts splits on spaces outside quotes and then on '=':
            // every piece must be name=value.
            let mut rest = p["param ".len()..].to_string();
            while let Some(open) = rest.find('"') {
                let close = rest[open + 1..].find('"').expect("closing quote") + open + 1;
                let inner = rest[open + 1..close].replace(' ', "_");
                rest = format!("{}{}{}", &rest[..open], inner, &rest[close + 1..]);
            }
            for piece in rest.split(' ') {
                assert_eq!(piece.matches('=').count(), 1, "{p}");
            }
        }
        assert!(lines[1].contains("values=\"normal brazilian"), "{lines:?}");
        e.send("init");
        assert_eq!(e.until(|_| true, PATIENCE), vec!["ready"]);
        e.ping();
        e.send("quit");
        let closed = e.close();
        assert!(closed < Duration::from_secs(1));
    }
}

#[test]
fn hub_params_lists_every_parameter_with_its_help_for_people() {
    let out = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(["hub", "--params"])
        .output()
        .expect("run tempo hub --params");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf-8");
    for (name, says) in [
        ("variant", "frysk"),
        ("variant", "turkish"),
        ("hash", "int 1..65536, default 64: transposition table"),
        ("eval-file", "string, default \"\": pattern weights"),
        ("draw-long-endgame", "long endgame"),
        ("numbering", "pydraughts"),
    ] {
        assert!(
            text.lines()
                .any(|line| line.starts_with(name) && line.contains(says)),
            "{name}: {says} not in\n{text}"
        );
    }
    // First the same names, in the same order, as `hub` declares; after a
    // blank line the tuning parameters, which `set-param` takes and `hub`
    // does not declare.
    let (players, tuning) = text.split_once("\n\n").expect("two lists");
    let listed: Vec<&str> = players
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(tuning.starts_with("Tuning parameters"), "{tuning}");
    for (name, says) in [
        ("lmr-base", "int 0..400, default 75"),
        ("aspiration", "int 0..500"),
    ] {
        assert!(
            tuning
                .lines()
                .any(|l| l.starts_with(name) && l.contains(says)),
            "{name}: {says} not in\n{tuning}"
        );
        assert!(!listed.contains(&name), "{name} is declared to GUIs");
    }
    let mut hub = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .arg("hub")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run tempo hub");
    {
        use std::io::Write;
        let mut stdin = hub.stdin.take().unwrap();
        stdin.write_all(b"hub\nquit\n").unwrap();
    }
    let out = hub.wait_with_output().unwrap();
    let declared: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix("param name="))
        .filter_map(|rest| rest.split_whitespace().next().map(String::from))
        .collect();
    assert_eq!(listed, declared);
}

#[test]
fn go_think_is_answered_in_time_under_every_level_form() {
    let _turn = one_at_a_time();
    let mut e = Engine::ready();
    // Not a forced move and no book: every form gets a real search.
    e.send("set-param name=book value=false");
    e.send(&format!("pos pos={START10} moves=\"32-28 18-23\""));
    // (level line, the most time it may take)
    let forms = [
        ("level depth=4", PATIENCE),
        ("level nodes=20000", PATIENCE),
        ("level move-time=0.1", Duration::from_millis(150)),
        ("level move-time=0.3", Duration::from_millis(350)),
        ("level time=2", Duration::from_secs(2)),
        ("level moves=1 time=0.3", Duration::from_millis(300)),
        ("level moves=40 time=5 inc=0.1", Duration::from_millis(5100)),
        ("level time=0.2 inc=0.2", Duration::from_millis(400)),
        ("level time=0 inc=0.1", Duration::from_millis(100)),
    ];
    for (level, bound) in forms {
        e.send(level);
        timed(level, bound, || {
            let sent = e.send("go think");
            let (infos, done, at) = e.search(PATIENCE);
            assert!(done.starts_with("done move="), "{level}: {done}");
            assert!(field(&done, "ponder").is_some(), "{level}: {done}");
            infos.iter().for_each(|l| check_info(l));
            if level == "level depth=4" {
                let last = infos.last().expect("info lines");
                assert_eq!(field(last, "depth"), Some("4"), "{infos:?}");
            }
            e.ping();
            at - sent
        });
    }
}

/// Starts a search, lets it run for `run`, stops it; returns how long
/// `done` took to come after `stop`.
fn stop_after(e: &mut Engine, go: &str, run: Duration) -> Duration {
    e.send(go);
    std::thread::sleep(run);
    let stopped = e.send("stop");
    let (infos, done, at) = e.search(PATIENCE);
    assert!(!infos.is_empty(), "{go}: no info");
    assert!(done.starts_with("done move="), "{go}: {done}");
    // Exactly one done: the next line answers the next command.
    e.ping();
    at - stopped
}

#[test]
fn stop_ends_an_infinite_search_at_once() {
    let _turn = one_at_a_time();
    let mut e = Engine::ready();
    e.send(&format!("pos pos={START10}"));
    e.send("level infinite");
    let bound = Duration::from_millis(50);
    timed("stop in go think", bound, || {
        stop_after(&mut e, "go think", Duration::from_millis(300))
    });
    timed("stop in go analyze", bound, || {
        stop_after(&mut e, "go analyze", Duration::from_millis(100))
    });
    e.send("level move-time=0.2");
    timed("stop in go ponder", bound, || {
        stop_after(&mut e, "go ponder", Duration::from_millis(100))
    });
}

#[test]
fn ping_is_answered_while_searching() {
    let _turn = one_at_a_time();
    let mut e = Engine::ready();
    e.send(&format!("pos pos={START10}"));
    e.send("level infinite");
    e.send("go analyze");
    std::thread::sleep(Duration::from_millis(100));
    e.send("ping");
    let lines = e.until(|l| l == "pong", PATIENCE);
    let (pong, before) = lines.split_last().unwrap();
    assert_eq!(pong, "pong");
    assert!(before.iter().all(|l| l.starts_with("info ")), "{lines:?}");
    e.send("stop");
    let (_, done, _) = e.search(PATIENCE);
    assert!(done.starts_with("done move="));
}

#[test]
fn ponder_waits_for_ponder_hit_then_keeps_the_move_time() {
    let _turn = one_at_a_time();
    let mut e = Engine::timing(&format!("pos pos={START10} moves=\"32-28\""), 0.2);
    timed(
        "ponder-hit then move-time 0.2",
        Duration::from_millis(250),
        || {
            e.send("go ponder");
            // Pondering: no done however long it takes.
            let deadline = Instant::now() + Duration::from_millis(500);
            while let Some((_, line)) = e.next(deadline.saturating_duration_since(Instant::now())) {
                assert!(line.starts_with("info "), "done before ponder-hit: {line}");
            }
            let hit = e.send("ponder-hit");
            let (_, done, at) = e.search(PATIENCE);
            assert!(done.starts_with("done move="));
            // The clock started at ponder-hit, not at go.
            assert!(at - hit >= Duration::from_millis(50), "{:?}", at - hit);
            at - hit
        },
    );
    // ponder-hit during go think does not restart its clock.
    e.send("level move-time=0.3");
    timed("ponder-hit in go think", Duration::from_millis(350), || {
        let sent = e.send("go think");
        std::thread::sleep(Duration::from_millis(200));
        e.send("ponder-hit");
        let (_, _, at) = e.search(PATIENCE);
        at - sent
    });
    e.ping();
}

#[test]
fn bad_input_is_answered_with_an_error_and_the_engine_keeps_serving() {
    let _turn = one_at_a_time();
    let mut e = Engine::ready();
    // Unknown commands and unknown arguments are ignored: no answer at all.
    e.send("frobnicate now=1");
    e.send("   ");
    e.send("level depth=2 colour=blue");
    e.ping();
    // Malformed known commands.
    e.refused("go", "go think|ponder|analyze");
    e.refused("go think analyze", "exactly one");
    e.refused("pos moves=\"32-28\"", "pos pos=");
    e.refused("pos pos=\"Wbbb", "closing quote");
    e.refused("set-param name=hash", "set-param name=");
    e.refused("level", "level depth=");
    // Invalid positions.
    e.refused("pos pos=Wbbbb", "51");
    e.refused(&format!("pos pos={}", START10.replace('W', "X")), "'X'");
    e.refused(
        &format!("pos pos={START8}"),
        "has 51 characters on this board",
    );
    // An 8x8 position while the variant is International names the way out.
    e.refused(
        &format!("pos pos={START8}"),
        "set the variant first, set-param name=variant value=brazilian",
    );
    // Illegal and ambiguous moves, named with their place in the list.
    e.refused(
        &format!("pos pos={START10} moves=\"32-28 19-23 32-28\""),
        "move 3 '32-28'",
    );
    e.refused(&format!("pos pos={START10} moves=\"32-28 xx\""), "move 2");
    e.refused("pos pos=W:W9,K16:B11,12,13,20 moves=\"16x15\"", "ambiguous");
    // After a refused pos no go plays the position before it.
    e.send("level depth=1");
    e.refused("go think", "the last pos was refused");
    e.send(&format!("pos pos={START10}"));
    e.send("go think");
    let (_, done, _) = e.search(PATIENCE);
    assert!(done.starts_with("done move="), "{done}");
    // go in a terminal position.
    e.send("pos pos=W:W:B18");
    e.refused("go think", "no legal move");
    // Bad levels.
    e.refused("level time=-1", "negative");
    e.refused("level move-time=-0.5", "negative");
    e.refused("level depth=abc", "whole number");
    e.refused("level time=1e999", "finite");
    // Bad parameters.
    e.refused("set-param name=hash value=0", "hash");
    e.refused("set-param name=threads value=many", "threads");
    e.refused("set-param name=variant value=chess", "unknown variant");
    e.refused("set-param name=colour value=blue", "unknown parameter");
    // A tuning parameter, not declared, is taken; out of its range, refused.
    e.send("set-param name=lmr-base value=50");
    e.ping();
    e.refused("set-param name=lmr-base value=900", "lmr-base");
    // A line too long to read.
    e.refused(&"x".repeat(2 << 20), "limited");
    // Non-UTF-8 bytes and control characters cannot break the output.
    {
        let stdin = e.stdin.as_mut().unwrap();
        stdin.write_all(b"pos pos=\xff\x01\"\n").unwrap();
        stdin.flush().unwrap();
    }
    let (_, reply) = e.next(PATIENCE).unwrap();
    assert!(reply.starts_with("error message=\""), "{reply}");
    assert!(!reply.contains('\u{1}'), "{reply}");
    e.ping();
    assert!(e.close() < Duration::from_secs(1));
}

#[test]
fn short_captures_are_accepted_when_unambiguous() {
    let _turn = one_at_a_time();
    let mut e = Engine::ready();
    e.send(&format!(
        "pos pos={START10} moves=\"32-28 19-23 28x19 14x23\""
    ));
    e.send("pos pos=W:W9,K16:B11,12,13,20 moves=\"16x15x20x12x11\"");
    e.ping();
}

#[test]
fn brazilian_and_multipv_analysis() {
    let _turn = one_at_a_time();
    let mut e = Engine::ready();
    e.send("set-param name=variant value=brazilian");
    e.send(&format!("pos pos={START8}"));
    e.send("set-param name=multipv value=3");
    e.send("level depth=5");
    e.send("go analyze");
    let (infos, done, _) = e.search(PATIENCE);
    assert!(done.starts_with("done move="), "{done}");
    for k in ["1", "2", "3"] {
        assert!(
            infos.iter().any(|l| field(l, "multipv") == Some(k)),
            "no multipv={k}: {infos:?}"
        );
    }
    infos.iter().for_each(|l| check_info(l));
    // go think reports one line only.
    e.send("go think");
    let (infos, _, _) = e.search(PATIENCE);
    assert!(infos.iter().all(|l| field(l, "multipv").is_none()));
    // A 10x10 string is refused in Brazilian, and the alias names work.
    e.refused(
        &format!("pos pos={START10}"),
        "has 33 characters on this board",
    );
    e.send("set-param name=variant value=standard");
    e.send(&format!("pos pos={START10}"));
    e.send("set-param name=variant value=international");
    e.send("set-param name=variant value=normal");
    e.send("set-param name=hash value=8");
    e.send("set-param name=threads value=2");
    e.ping();
    e.send("go think");
    let (_, done, _) = e.search(PATIENCE);
    assert!(done.starts_with("done move="), "{done}");
}

#[test]
fn commands_sent_during_a_search_wait_for_its_end() {
    let _turn = one_at_a_time();
    let mut e = Engine::ready();
    e.send(&format!("pos pos={START10}"));
    e.send("level infinite");
    e.send("go analyze");
    // Held: a bad parameter, a bad level and a terminal position.
    e.send("set-param name=hash value=0");
    e.send("level time=-3");
    e.send("pos pos=W:W:B18");
    // ping is answered at once, before the held commands.
    e.send("ping");
    let lines = e.until(|l| l == "pong", PATIENCE);
    assert!(
        lines.iter().all(|l| l == "pong" || l.starts_with("info ")),
        "{lines:?}"
    );
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    let (_, done, _) = e.search(PATIENCE);
    assert!(done.starts_with("done move="), "{done}");
    let (_, first) = e.next(PATIENCE).unwrap();
    assert!(
        first.starts_with("error") && first.contains("hash"),
        "{first}"
    );
    let (_, second) = e.next(PATIENCE).unwrap();
    assert!(
        second.starts_with("error") && second.contains("negative"),
        "{second}"
    );
    e.ping();
    // The held position was set.
    e.refused("go think", "no legal move");
}

#[test]
fn pipelined_searches_each_get_their_stop() {
    let _turn = one_at_a_time();
    let mut e = Engine::ready();
    e.send(&format!("pos pos={START10}"));
    e.send("level infinite");
    // Sent at once: each stop ends one search.
    for line in ["go think", "stop", "go analyze", "stop"] {
        e.send(line);
    }
    for _ in 0..2 {
        let (_, done, _) = e.search(PATIENCE);
        assert!(done.starts_with("done move="), "{done}");
    }
    e.ping();
    // A go sent while another runs, then one stop: neither search is left
    // waiting for it.
    for line in ["go analyze", "go think", "stop"] {
        e.send(line);
    }
    for _ in 0..2 {
        let (_, done, _) = e.search(PATIENCE);
        assert!(done.starts_with("done move="), "{done}");
    }
    e.ping();
}

#[test]
fn the_engine_exits_promptly_at_the_end_of_input_even_mid_search() {
    let _turn = one_at_a_time();
    let bound = Duration::from_millis(100);
    timed("exit at the end of input mid-search", bound, || {
        let mut e = Engine::ready();
        e.send(&format!("pos pos={START10}"));
        e.send("level infinite");
        e.send("go analyze");
        std::thread::sleep(Duration::from_millis(300));
        e.close()
    });
    timed("quit mid-search", bound, || {
        let mut e = Engine::ready();
        e.send("set-param name=threads value=2");
        e.send("level move-time=30");
        e.send("go think");
        std::thread::sleep(Duration::from_millis(200));
        let quit = e.send("quit");
        e.exit_since(quit)
    });
}

impl Engine {
    /// Closes stdin, then gathers every line until the exit.
    fn close_and_read(mut self) -> Vec<String> {
        drop(self.stdin.take());
        let mut seen = Vec::new();
        while let Some((_, line)) = self.next(PATIENCE) {
            seen.push(line);
        }
        let exited = Instant::now();
        self.exit_since(exited);
        seen
    }
}

/// A script that ends with `stop`, or with `go think`, still gets its
/// move before the engine exits.
#[test]
fn a_script_ending_with_stop_or_go_gets_its_move() {
    let _turn = one_at_a_time();
    let mut e = Engine::ready();
    e.send(&format!("pos pos={START10}"));
    e.send("go analyze");
    std::thread::sleep(Duration::from_millis(300));
    e.send("stop");
    let lines = e.close_and_read();
    assert!(
        lines.last().is_some_and(|l| l.starts_with("done move=")),
        "{lines:?}"
    );
    for book in ["true", "false"] {
        let mut e = Engine::ready();
        e.send(&format!("set-param name=book value={book}"));
        e.send(&format!("pos pos={START10}"));
        e.send("level move-time=0.3");
        e.send("go think");
        let lines = e.close_and_read();
        let dones = lines.iter().filter(|l| l.starts_with("done move=")).count();
        assert_eq!(dones, 1, "book {book}: {lines:?}");
    }
}

/// The advice for an unquoted move list works when typed as the error
/// shows it (with single quotes: the output never holds `"`).
#[test]
fn the_quoting_advice_works_as_shown() {
    let _turn = one_at_a_time();
    let mut e = Engine::ready();
    e.send(&format!("pos pos={START10} moves=32-28 18-23"));
    let (_, reply) = e.next(PATIENCE).expect("an answer");
    let start = reply.find("moves=").expect("the advice");
    let advice = &reply[start..reply.len() - 1];
    assert_eq!(advice, "moves='32-28 18-23'", "{reply}");
    e.send(&format!("pos pos={START10} {advice}"));
    e.send("level depth=2");
    e.send("go think");
    let (_, done, _) = e.search(PATIENCE);
    let from = move_from(&done);
    assert!(
        from == 28 || (31..=50).contains(&from),
        "a move of White's: {done}"
    );
}

/// After a refused `pos` no `go` plays a move of the position before,
/// until a `pos` is taken.
#[test]
fn a_go_after_a_refused_pos_is_refused_until_a_good_pos() {
    let _turn = one_at_a_time();
    let mut e = Engine::ready();
    e.send("level depth=2");
    e.refused(
        &format!("pos pos={START10} moves=\"32-28 11-99\""),
        "'11-99' is illegal",
    );
    e.refused("go think", "the last pos was refused");
    e.refused("go analyze", "send a pos the engine takes first");
    e.send(&format!("pos pos={START10} moves=\"32-28\""));
    e.send("go think");
    let (_, done, _) = e.search(PATIENCE);
    let from = move_from(&done);
    assert!((16..=20).contains(&from), "a move of Black's: {done}");
}

/// The square a `done` line's move starts from.
fn move_from(done: &str) -> u32 {
    let mv = field(done, "move").expect("a move");
    let from = mv.split(['-', 'x']).next().expect("a square");
    from.parse().expect("a square number")
}

/// In Brazilian, Russian, Turkish and English the Hub numbering is
/// pydraughts' by default (moves from White's side; English positions
/// turned), the PDN numbering with `numbering=pdn`; the move of an error
/// is named as it was sent.
#[test]
fn the_hub_numbering_is_pydraughts_unless_pdn_is_asked_for() {
    let _turn = one_at_a_time();
    let mut e = Engine::ready();
    for line in ["set-param name=book value=false", "level depth=3"] {
        e.send(line);
    }
    for variant in ["brazilian", "russian"] {
        e.send(&format!("set-param name=variant value={variant}"));
        // pydraughts' 9-13 is the PDN 21-17; Black then moves from 21-32.
        e.send(&format!("pos pos={START8} moves=\"9-13\""));
        e.send("go think");
        let (infos, done, _) = e.search(PATIENCE);
        assert!((21..=32).contains(&move_from(&done)), "{variant}: {done}");
        let pv = field(infos.last().expect("info"), "pv").unwrap_or_default();
        assert!(
            pv.starts_with(field(&done, "move").unwrap()),
            "{infos:?} {done}"
        );
        // The PDN 21-17 is a Black move in pydraughts' numbering.
        e.refused(
            &format!("pos pos={START8} moves=\"21-17\""),
            "move 1 '21-17' is illegal",
        );
    }
    // Turkish: pydraughts' 17-25 is a3-a4 (the PDN 41-33).
    let turkish = format!(
        "W{}{}{}{}{}",
        "e".repeat(8),
        "b".repeat(16),
        "e".repeat(16),
        "w".repeat(16),
        "e".repeat(8)
    );
    // (setting, position, moves, squares the answer may start from); the
    // settings last: English in the PDN numbering reads the same string
    // as White to move.
    let cases = [
        ("variant value=turkish", turkish.as_str(), "17-25", 41..=56),
        // pydraughts sends its English start turned, `W` for the side that
        // moves first: Black's men (1-12) move.
        ("variant value=english", START8, "", 9..=12),
        ("numbering value=pdn", START8, "", 21..=24),
        ("variant value=brazilian", START8, "21-17", 9..=12),
    ];
    for (setting, position, moves, from) in cases {
        e.send(&format!("set-param name={setting}"));
        e.send(&format!("pos pos={position} moves=\"{moves}\""));
        e.send("go think");
        let (_, done, _) = e.search(PATIENCE);
        assert!(from.contains(&move_from(&done)), "{setting}: {done}");
    }
    e.refused(
        "set-param name=numbering value=scan",
        "not one of pydraughts, pdn",
    );
    e.send("hub");
    let lines = e.until(|l| l == "wait", PATIENCE);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("param name=numbering value=pdn type=enum")),
        "{lines:?}"
    );
}

/// A new `hash` is allocated when it is set, at once, and its pages are
/// touched on a thread of their own: a `go` sent right after it keeps its
/// move time (writing 2 GiB inside the timed move took seconds).
#[test]
fn a_new_hash_size_costs_the_next_move_nothing() {
    let _turn = one_at_a_time();
    let mut e = Engine::timing(&format!("pos pos={START10}"), 0.2);
    let mut size = 1024;
    timed(
        "set-param hash, then go",
        Duration::from_millis(350),
        || {
            size += 512;
            let sent = e.send(&format!("set-param name=hash value={size}"));
            e.send("go think");
            let (_, done, at) = e.search(PATIENCE);
            assert!(done.starts_with("done move="), "{done}");
            at - sent
        },
    );
    e.ping();
}
