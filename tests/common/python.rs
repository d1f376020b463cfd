//! A Python interpreter with the pinned pydraughts, for the tests that check
//! tempo against pydraughts: the one named by `TEMPO_PYTHON` (CI sets it
//! from `.ci/python-env.sh`), else the virtualenv `.venv` that the same
//! script makes once from `tests/pydraughts/requirements.txt`: one
//! environment for the tests, CI and the Python package. When neither can be had (no
//! `venv`, no package index), a test says why in one line and checks
//! nothing against pydraughts; under CI (`CI` set) or with `TEMPO_PYTHON`
//! set, it fails instead, so that it never passes there unchecked.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Whether `python` can import pydraughts.
fn has_pydraughts(python: &Path) -> bool {
    Command::new(python)
        .args(["-c", "import draughts.engine"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Runs `command` and returns its standard output; on failure, one line:
/// what failed and the last line it wrote (pip's is the reason, as "No
/// matching distribution found").
fn run(what: &str, command: &mut Command) -> Result<String, String> {
    let output = command
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{what}: cannot run it: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    if output.status.success() {
        return Ok(stdout);
    }
    let text = format!("{stdout}{}", String::from_utf8_lossy(&output.stderr));
    let last = text
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("no output");
    Err(format!("{what}: {}: {last}", output.status))
}

/// The interpreter to use for `what`: `TEMPO_PYTHON`, or `.venv` made by
/// `.ci/python-env.sh`; `None`, said on standard error in one line, where neither can be
/// had outside CI.
pub fn python_for(what: &str) -> Option<PathBuf> {
    match find() {
        Ok(python) => Some(python),
        Err(why)
            if std::env::var_os("CI").is_none() && std::env::var_os("TEMPO_PYTHON").is_none() =>
        {
            eprintln!("skipped {what}: no Python with pydraughts ({why})");
            None
        }
        Err(why) => panic!(
            "cannot get a Python with pydraughts for {what}: {why}; \
             set TEMPO_PYTHON to an interpreter that has it (bash .ci/python-env.sh makes one)"
        ),
    }
}

/// Why no Python with pydraughts can be had here, if none can (for
/// `harness::Need`).
pub fn missing() -> Option<String> {
    find().err()
}

fn find() -> Result<PathBuf, String> {
    if let Some(python) = std::env::var_os("TEMPO_PYTHON") {
        let python = PathBuf::from(python);
        if !has_pydraughts(&python) {
            return Err(format!(
                "TEMPO_PYTHON={} cannot import pydraughts (install tests/pydraughts/requirements.txt into it)",
                python.display()
            ));
        }
        return Ok(python);
    }
    let stdout = run(
        "bash .ci/python-env.sh",
        Command::new("bash").arg(manifest().join(".ci").join("python-env.sh")),
    )?;
    let python = PathBuf::from(stdout.trim());
    if !has_pydraughts(&python) {
        return Err(format!(
            "{} (made by .ci/python-env.sh) cannot import pydraughts",
            python.display()
        ));
    }
    Ok(python)
}
