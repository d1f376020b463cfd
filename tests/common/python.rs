//! A Python interpreter with the pinned pydraughts, for the tests that check
//! tempo against pydraughts: the one named by `TEMPO_PYTHON` (CI sets it
//! from `.ci/python-env.sh`), else a virtualenv made once in `target/pyenv`
//! from `tests/pydraughts/requirements.txt`. Fails with a message saying
//! what to do when neither can be had.

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

fn run(what: &str, command: &mut Command) -> Result<(), String> {
    let output = command
        .output()
        .map_err(|e| format!("{what}: cannot run it: {e}"))?;
    if output.status.success() {
        return Ok(());
    }
    Err(format!(
        "{what}: {}\n{}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    ))
}

/// The interpreter to use: `TEMPO_PYTHON`, or a virtualenv made here.
pub fn python() -> PathBuf {
    find().unwrap_or_else(|why| {
        panic!(
            "cannot get a Python with pydraughts for this test: {why}\n\
             Set TEMPO_PYTHON to an interpreter that has it (bash .ci/python-env.sh makes one)."
        )
    })
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
    let venv = manifest().join("target").join("pyenv");
    let python = venv.join("bin").join("python");
    if has_pydraughts(&python) {
        return Ok(python);
    }
    run(
        "python3 -m venv target/pyenv",
        Command::new("python3").arg("-m").arg("venv").arg(&venv),
    )?;
    run(
        "pip install -r tests/pydraughts/requirements.txt",
        Command::new(&python)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "-r",
            ])
            .arg(manifest().join("tests/pydraughts/requirements.txt")),
    )?;
    if !has_pydraughts(&python) {
        return Err("pydraughts was installed but cannot be imported".to_string());
    }
    Ok(python)
}
