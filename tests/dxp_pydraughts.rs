//! `tempo dxp --listen` against an independent implementation: the DXP
//! client of the Python library pydraughts (`tests/dxp/pydraughts_client.py`)
//! connects, proposes a game and plays random legal moves; every move tempo
//! sends must be legal for pydraughts, and tempo's PDN log must hold the
//! same moves.
//!
//! The interpreter is that of the other pydraughts tests
//! (`common/python.rs`): `$TEMPO_PYTHON`, or the virtualenv `.venv`
//! that `.ci/python-env.sh` makes with the pinned pydraughts (needs the package index the first time).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const TEMPO: &str = env!("CARGO_BIN_EXE_tempo");
/// Half-moves after which the client stops the game (pydraughts never ends
/// one by itself).
const MAX_PLIES: &str = "300";

struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[path = "common/harness.rs"]
mod harness;

#[path = "common/python.rs"]
mod python;

fn pydraughts_plays_a_game_against_tempo_dxp_listen() {
    let Some(python) = python::python_for("the DXP game against pydraughts' client") else {
        return;
    };
    let started = Instant::now();
    let pdn = Path::new(env!("CARGO_TARGET_TMPDIR")).join("dxp-pydraughts.pdn");
    let _ = std::fs::remove_file(&pdn);
    let mut server = Guard(
        Command::new(TEMPO)
            .args(["dxp", "--listen", "127.0.0.1:0", "--connections", "1"])
            .args(["--max-move-time", "0.05", "--hash", "16", "--pdn"])
            .arg(&pdn)
            .stdout(Stdio::piped())
            .spawn()
            .expect("start tempo dxp"),
    );
    let mut lines = BufReader::new(server.0.stdout.take().expect("stdout")).lines();
    let first = lines.next().and_then(Result::ok).expect("first line");
    let port = first
        .rsplit(':')
        .next()
        .filter(|_| first.starts_with("listening on "))
        .unwrap_or_else(|| panic!("unexpected first line '{first}'"))
        .to_string();
    let server_out = std::thread::spawn(move || lines.map_while(Result::ok).collect::<Vec<_>>());

    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/dxp/pydraughts_client.py");
    let client = Command::new(&python)
        .arg(&script)
        .args([port.as_str(), "1", MAX_PLIES])
        .stdin(Stdio::null())
        .output()
        .expect("run the pydraughts client");
    let report = String::from_utf8_lossy(&client.stdout).into_owned();
    assert!(
        client.status.success(),
        "pydraughts client failed: {report}{}",
        String::from_utf8_lossy(&client.stderr)
    );

    let deadline = Instant::now() + Duration::from_secs(15);
    let status = loop {
        if let Some(status) = server.0.try_wait().expect("wait") {
            break status;
        }
        assert!(Instant::now() < deadline, "tempo dxp did not exit");
        std::thread::sleep(Duration::from_millis(50));
    };
    let server_out = server_out.join().expect("server output");
    assert!(status.success(), "tempo dxp: {status}: {server_out:?}");

    let field = |name: &str| {
        report
            .lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
            .unwrap_or_else(|| panic!("no '{name}' in the client's report:\n{report}"))
            .to_string()
    };
    let client_moves: Vec<&str> = report
        .lines()
        .filter_map(|l| l.strip_prefix("move "))
        .collect();
    assert_eq!(field("plies"), client_moves.len().to_string());
    assert!(client_moves.len() >= 2, "{report}");

    let log = std::fs::read_to_string(&pdn).expect("tempo's PDN log");
    let logged: Vec<&str> = log
        .lines()
        .filter(|l| !l.starts_with('['))
        .flat_map(str::split_whitespace)
        .filter(|w| !w.ends_with('.') && !["1-0", "0-1", "1/2-1/2", "*"].contains(w))
        .collect();
    // Where two captures share their squares of start and end, tempo's log
    // names the pieces taken too (`28x19x7x13x22`); pydraughts writes the
    // start and end only (`28x19`).
    assert_eq!(logged.len(), client_moves.len(), "{log}");
    for (ours, theirs) in logged.iter().zip(&client_moves) {
        let same = ours == theirs
            || (theirs.contains('x')
                && ours.starts_with(theirs)
                && ours[theirs.len()..].starts_with('x'));
        assert!(same, "tempo logged {ours}, pydraughts {theirs}:\n{log}");
    }
    let ended_by = field("ended-by");
    if ended_by != "cap" {
        assert!(!log.contains("[Result \"*\"]"), "{log}\n{report}");
    }
    eprintln!(
        "{} plies, ended by {ended_by}, in {:.1} s",
        client_moves.len(),
        started.elapsed().as_secs_f64()
    );
}

/// The tests that need Python with pydraughts: ignored, with the reason,
/// where it cannot be had.
const PYDRAUGHTS: Option<harness::Need> = Some(harness::Need {
    name: "Python with pydraughts",
    missing: python::missing,
});

fn main() {
    harness::run(&[(
        "pydraughts_plays_a_game_against_tempo_dxp_listen",
        PYDRAUGHTS,
        pydraughts_plays_a_game_against_tempo_dxp_listen,
    )]);
}
