//! Running `tempo analyse` in the tests: inputs written to files, the
//! binary run, its JSON Lines parsed.

#![allow(dead_code)]

use std::fs;
use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

/// The result of one run: exit code, parsed stdout lines, stderr.
pub struct Run {
    pub code: i32,
    pub records: Vec<Value>,
    pub stderr: String,
}

impl Run {
    /// The whole number `field` of every record.
    pub fn numbers(&self, field: &str) -> Vec<u64> {
        self.records
            .iter()
            .map(|r| {
                r[field]
                    .as_u64()
                    .unwrap_or_else(|| panic!("{field} in {r}"))
            })
            .collect()
    }

    /// The text `field` of every record.
    pub fn texts(&self, field: &str) -> Vec<&str> {
        self.records
            .iter()
            .map(|r| {
                r[field]
                    .as_str()
                    .unwrap_or_else(|| panic!("{field} in {r}"))
            })
            .collect()
    }
}

/// Writes `text` to a file of the test's own temporary directory.
pub fn file(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    fs::write(&path, text).expect("write test input");
    path
}

/// Runs `tempo analyse` with `args`; every stdout line must be a JSON object.
pub fn analyse(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .arg("analyse")
        .args(args)
        .output()
        .expect("run tempo");
    let stdout = String::from_utf8(out.stdout).expect("utf-8 stdout");
    let records = stdout
        .lines()
        .map(|line| {
            let v: Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
            assert!(v.is_object(), "not an object: {line}");
            v
        })
        .collect();
    Run {
        code: out.status.code().unwrap_or(-1),
        records,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}
