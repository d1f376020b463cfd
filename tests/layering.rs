//! Layering: the rules core uses nothing above it. Fails if any file under
//! `src/rules/` mentions `crate::search`, `crate::eval`, `crate::engine`,
//! `crate::protocol`, `crate::book` or `crate::game`; or if any file under
//! `src/book/` mentions a module other than `crate::rules`.

use std::fs;
use std::path::{Path, PathBuf};

const FORBIDDEN: [&str; 6] = [
    "crate::search",
    "crate::eval",
    "crate::engine",
    "crate::protocol",
    "crate::book",
    "crate::game",
];

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// The forbidden paths a source text mentions, with their line numbers.
fn violations(text: &str) -> Vec<(usize, &'static str)> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        for f in FORBIDDEN {
            if line.contains(f) {
                found.push((i + 1, f));
            }
        }
    }
    found
}

#[test]
fn rules_core_does_not_reach_upward() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
    let files = rust_files(&dir);
    assert!(
        files.len() >= 8,
        "expected the rules core files, found {files:?}"
    );
    let mut bad = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).expect("read source");
        for (line, what) in violations(&text) {
            bad.push(format!("{}:{line}: mentions {what}", file.display()));
        }
    }
    assert!(bad.is_empty(), "layering broken:\n{}", bad.join("\n"));
}

#[test]
fn the_book_uses_only_the_rules_core() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/book");
    let files = rust_files(&dir);
    assert!(!files.is_empty(), "expected the book module");
    let mut bad = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).expect("read source");
        for (i, line) in text.lines().enumerate() {
            let mut rest = line;
            while let Some(at) = rest.find("crate::") {
                let path = &rest[at + "crate::".len()..];
                if !path.starts_with("rules") {
                    bad.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
                    break;
                }
                rest = path;
            }
        }
    }
    assert!(
        bad.is_empty(),
        "the book reaches beyond rules:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_checker_flags_each_forbidden_path() {
    for f in FORBIDDEN {
        let text = format!("use super::x;\nuse {f}::Thing;\n");
        assert_eq!(violations(&text), vec![(2, f)]);
    }
    assert!(violations("use crate::rules::Position;\nuse super::movegen;").is_empty());
}
