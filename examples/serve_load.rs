//! A load check of `tempo serve`: it starts the server, runs clients that
//! each play games against the engine for a while (its own moves picked at
//! random among the legal ones from `/api/state`, the engine's asked of
//! `/api/play` with a short move time, a new game once one ends), and
//! reports the requests made, the answers by status, the slowest answer,
//! and the server's resident memory and threads (from `/proc/PID/status`)
//! before, at their peak and a while after.
//!
//! ```text
//! cargo build --release --examples
//! target/release/examples/serve_load target/release/tempo \
//!     [--clients 20] [--seconds 60] [--movetime 0.1] [--after 10] [-- SERVE-ARGS...]
//! ```
//!
//! A refused search (503: the server's `--max-searches` are running; 429:
//! the client's own) is asked again 20 ms later, as a page would. Linux
//! only (it reads `/proc`).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

/// How the check runs.
struct Plan {
    tempo: String,
    clients: usize,
    seconds: f64,
    movetime: String,
    after: f64,
    serve_args: Vec<String>,
}

/// Reads the command line; the usage on a mistake.
fn plan() -> Result<Plan, String> {
    let usage = "usage: serve_load TEMPO [--clients N] [--seconds S] [--movetime S] [--after S] \
                 [-- SERVE-ARGS...]";
    let mut args = std::env::args().skip(1);
    let tempo = args.next().ok_or(usage)?;
    let mut plan = Plan {
        tempo,
        clients: 20,
        seconds: 60.0,
        movetime: "0.1".to_string(),
        after: 10.0,
        serve_args: Vec::new(),
    };
    while let Some(arg) = args.next() {
        if arg == "--" {
            plan.serve_args = args.by_ref().collect();
            break;
        }
        let value = args.next().ok_or(usage)?;
        let number = || {
            value
                .parse::<f64>()
                .map_err(|_| format!("{arg} {value}: a number"))
        };
        match arg.as_str() {
            "--clients" => plan.clients = number()? as usize,
            "--seconds" => plan.seconds = number()?,
            "--movetime" => plan.movetime = value.clone(),
            "--after" => plan.after = number()?,
            _ => return Err(usage.to_string()),
        }
    }
    Ok(plan)
}

/// A server started for the check, stopped when dropped.
struct Server {
    child: Child,
    address: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn start(plan: &Plan) -> Result<Server, String> {
        let mut child = Command::new(&plan.tempo)
            .args(["serve", "--port", "0"])
            .args(&plan.serve_args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", plan.tempo))?;
        let mut line = String::new();
        let stdout = child.stdout.take().ok_or("no output from the server")?;
        BufReader::new(stdout)
            .read_line(&mut line)
            .map_err(|e| format!("reading the server's first line: {e}"))?;
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .ok_or_else(|| format!("no address in {line:?}"))?
            .to_string();
        Ok(Server { child, address })
    }

    /// The server's resident memory in KiB and its threads.
    fn usage(&self) -> Option<(u64, u64)> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let field = |name: &str| -> Option<u64> {
            status
                .lines()
                .find_map(|line| line.strip_prefix(name))?
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        };
        Some((field("VmRSS:")?, field("Threads:")?))
    }
}

/// What the clients saw.
#[derive(Default)]
struct Tally {
    by_status: BTreeMap<u16, u64>,
    failed: u64,
    slowest: Duration,
    slowest_what: String,
    engine_moves: u64,
    games: u64,
}

/// `GET path` on a fresh connection: the status and the body, and how
/// long the answer took.
fn get(address: &str, path: &str) -> Result<(u16, String, Duration), String> {
    let started = Instant::now();
    let mut stream = TcpStream::connect(address).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .map_err(|e| e.to_string())?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    let took = started.elapsed();
    let text = String::from_utf8_lossy(&bytes);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("no status in {head:?}"))?;
    Ok((status, body.to_string(), took))
}

/// One client: games against the engine until `stop`.
fn client(index: usize, address: &str, movetime: &str, stop: &AtomicBool, tally: &Mutex<Tally>) {
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64 ^ (index as u64 + 1);
    let mut random = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut moves: Vec<String> = Vec::new();
    // The client plays White in its even games, Black in its odd ones.
    let mut plays_white = index.is_multiple_of(2);
    while !stop.load(Ordering::Relaxed) {
        let line = moves.join("+");
        let (status, body, took) = match get(address, &format!("/api/state?moves={line}")) {
            Ok(answer) => answer,
            Err(_) => {
                tally.lock().unwrap().failed += 1;
                continue;
            }
        };
        record(tally, status, took, "state");
        let state: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
        let legal = state["legal"].as_array().map_or(0, Vec::len);
        if status != 200 || legal == 0 || moves.len() >= 300 {
            tally.lock().unwrap().games += 1;
            moves.clear();
            plays_white = !plays_white;
            continue;
        }
        let white_to_move = state["side"] == "white";
        if white_to_move == plays_white {
            let pick = random(legal);
            if let Some(hub) = state["legal"][pick]["hub"].as_str() {
                moves.push(hub.to_string());
            }
            continue;
        }
        let path =
            format!("/api/play?client=load{index}&moves={line}&movetime={movetime}&level=20");
        loop {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let Ok((status, body, took)) = get(address, &path) else {
                tally.lock().unwrap().failed += 1;
                break;
            };
            record(tally, status, took, "play");
            match status {
                200 => {
                    let answer: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
                    if let Some(hub) = answer["move"]["hub"].as_str() {
                        moves.push(hub.to_string());
                        tally.lock().unwrap().engine_moves += 1;
                    }
                    break;
                }
                429 | 503 => std::thread::sleep(Duration::from_millis(20)),
                _ => break,
            }
        }
    }
}

/// Counts an answer, and keeps it if it is the slowest so far.
fn record(tally: &Mutex<Tally>, status: u16, took: Duration, what: &str) {
    let mut tally = tally.lock().unwrap();
    *tally.by_status.entry(status).or_default() += 1;
    if took > tally.slowest {
        tally.slowest = took;
        tally.slowest_what = format!("{what} ({status})");
    }
}

/// Runs the check of `plan` and prints its figures.
fn run(plan: &Plan) -> Result<(), String> {
    let server = Server::start(plan)?;
    std::thread::sleep(Duration::from_millis(500));
    let before = server.usage().ok_or("the server is gone")?;
    let stop = Arc::new(AtomicBool::new(false));
    let tally = Arc::new(Mutex::new(Tally::default()));
    let started = Instant::now();
    let clients: Vec<_> = (0..plan.clients)
        .map(|index| {
            let (address, movetime) = (server.address.clone(), plan.movetime.clone());
            let (stop, tally) = (Arc::clone(&stop), Arc::clone(&tally));
            std::thread::spawn(move || client(index, &address, &movetime, &stop, &tally))
        })
        .collect();
    let mut peak = before;
    while started.elapsed().as_secs_f64() < plan.seconds {
        std::thread::sleep(Duration::from_millis(100));
        let now = server.usage().ok_or("the server is gone")?;
        peak = (peak.0.max(now.0), peak.1.max(now.1));
    }
    stop.store(true, Ordering::Relaxed);
    for handle in clients {
        let _ = handle.join();
    }
    let ran = started.elapsed().as_secs_f64();
    std::thread::sleep(Duration::from_secs_f64(plan.after));
    let after = server.usage().ok_or("the server is gone")?;
    let tally = tally.lock().unwrap();
    let requests: u64 = tally.by_status.values().sum();
    let statuses: Vec<String> = tally
        .by_status
        .iter()
        .map(|(status, n)| format!("{status}: {n}"))
        .collect();
    println!(
        "{} clients for {ran:.1} s, movetime {} s, serve {}",
        plan.clients,
        plan.movetime,
        plan.serve_args.join(" ")
    );
    println!(
        "requests answered: {requests} ({}), failed to connect or read: {}",
        statuses.join(", "),
        tally.failed
    );
    println!(
        "engine moves: {}, games ended: {}, slowest answer: {:.3} s, a {}",
        tally.engine_moves,
        tally.games,
        tally.slowest.as_secs_f64(),
        tally.slowest_what
    );
    let mib = |kib: u64| kib as f64 / 1024.0;
    println!(
        "server RSS before {:.1} MiB, peak {:.1} MiB, {} s after {:.1} MiB",
        mib(before.0),
        mib(peak.0),
        plan.after,
        mib(after.0)
    );
    println!(
        "server threads before {}, peak {}, {} s after {}",
        before.1, peak.1, plan.after, after.1
    );
    Ok(())
}

fn main() -> ExitCode {
    match plan().and_then(|plan| run(&plan)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("serve_load: {why}");
            ExitCode::FAILURE
        }
    }
}
