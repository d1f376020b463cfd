//! A real Hub client: pydraughts' `HubEngine` drives `tempo hub` through
//! complete games of every variant pydraughts shares with tempo
//! (International, Brazilian, Russian, English, Italian, antidraughts,
//! breakthrough, Frisian, Frysk! and Turkish), every engine move through
//! `HubEngine.play()` as a user or a lidraughts bot calls it (no
//! translation of pydraughts' numbering by the script), engine against
//! itself and against a random mover, checking every move against its own
//! legal moves, failing on any protocol error, and demanding that the
//! engine beat the random mover every time.
//! The games themselves are in `tests/pydraughts/play_games.py`; see its
//! docstring.
//!
//! The Python interpreter is the one named by `TEMPO_PYTHON` (CI sets it
//! from `.ci/python-env.sh`). Without it, this test runs that script, which
//! makes the virtualenv `.venv` with the pinned pydraughts of
//! `tests/pydraughts/requirements.txt` (once; later runs reuse it); where
//! that cannot be done (no `python3`, no `venv` module, or no access to the
//! package index) it says why (`common/python.rs`).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The whole run of games may take this long (it takes about 60 s).
const DEADLINE: Duration = Duration::from_secs(600);

#[path = "common/harness.rs"]
mod harness;

#[path = "common/python.rs"]
mod python;

fn pydraughts_plays_complete_games_with_tempo() {
    let Some(python) = python::python_for("the games against pydraughts' Hub client") else {
        return;
    };
    // Output goes to files, so that a chatty failure cannot fill a pipe
    // while this test waits.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let (out_path, err_path) = (dir.join("pydraughts.out"), dir.join("pydraughts.err"));
    let file = |path: &Path| std::fs::File::create(path).expect("create an output file");
    let started = Instant::now();
    let mut child = Command::new(&python)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pydraughts/play_games.py"))
        .arg(env!("CARGO_BIN_EXE_tempo"))
        .stdin(Stdio::null())
        .stdout(file(&out_path))
        .stderr(file(&err_path))
        .spawn()
        .expect("start the pydraughts games");
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the pydraughts games took more than {DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    println!("{stdout}");
    assert!(
        status.success(),
        "the pydraughts games failed ({status}):\n{stdout}\n{stderr}"
    );
    assert!(
        stdout.contains("no illegal move, no protocol error"),
        "{stdout}"
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
        "pydraughts_plays_complete_games_with_tempo",
        PYDRAUGHTS,
        pydraughts_plays_complete_games_with_tempo,
    )]);
}
