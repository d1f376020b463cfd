//! Layering: each layer uses only the layers below it. `LAYERS` has one row
//! per layer: a top-level module of the crate (the directory `src/NAME/`,
//! the file `src/NAME.rs`, or both) and the modules it may use; a module may
//! always use itself. A new layer is one more row.
//!
//! Every `crate::NAME` path in a layer's files counts, in code, doc links
//! and comments alike: `use crate::a::B`, each item of a group
//! `use crate::{a, b::{c, d}}` (over several lines too), `$crate::a` in a
//! macro and `pub(in crate::a)`. A macro exported at the crate root
//! (`crate::with_rules!`) counts as the module whose file defines it.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// Each layer with the modules it may use besides itself. Every module
/// under `src/` has a row (`every_module_under_src_has_a_row` checks it).
const LAYERS: &[(&str, &[&str])] = &[
    // The pure rules core.
    ("rules", &[]),
    // Files written whole or not at all: nothing of draughts.
    ("files", &[]),
    // The checksum of the binary files.
    ("checksum", &[]),
    // Ctrl-C and SIGTERM: when the process may end, and what it says.
    ("signals", &[]),
    // PDN read and written: text, and the rules to write moves.
    ("pdn", &["rules"]),
    ("book", &["rules", "files"]),
    ("eval", &["rules", "files", "checksum"]),
    // The endgame databases: built and probed over the rules alone.
    ("egdb", &["rules", "files", "checksum"]),
    // The game record, clocks and their results: nothing of how the
    // players think or talk.
    ("game", &["rules"]),
    // The search takes a game record and a clock as its input.
    ("search", &["rules", "eval", "egdb", "game"]),
    // Nothing of the protocols, the arena, analysis, training or the CLI.
    (
        "engine",
        &["rules", "game", "book", "eval", "search", "egdb"],
    ),
    // The adapters over the engine (Hub, DXP), and the tools beside them.
    ("protocol", &["rules", "game", "pdn", "engine"]),
    // The match tool drives engines over Hub (both dialects) and DXP: no
    // search of its own.
    ("arena", &["rules", "game", "pdn", "protocol"]),
    ("analyse", &["rules", "pdn", "game", "search", "engine"]),
    // The board in the browser: the engine for play and analysis, the
    // analysis tool for a game's review (its resources from the search).
    (
        "serve",
        &["rules", "pdn", "game", "search", "engine", "analyse"],
    ),
    // Training labels positions by search and, within them, by the endgame
    // databases; played games come to it as PDN (`train::label`).
    (
        "train",
        &[
            "rules", "files", "checksum", "signals", "pdn", "game", "eval", "search", "egdb",
        ],
    ),
    // The command line sits on top of everything.
    (
        "cli",
        &[
            "rules", "files", "checksum", "signals", "pdn", "book", "eval", "egdb", "game",
            "search", "engine", "protocol", "arena", "analyse", "train", "serve",
        ],
    ),
];

/// Files at the top of `src/` that are no module of their own: the crate
/// root and the binary.
const ROOTS: &[&str] = &["lib", "main"];

/// The `src/` directory.
fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

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
    out.sort();
    out
}

/// The files of the top-level module `name`: `src/NAME.rs` and everything
/// under `src/NAME/`.
fn module_files(name: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let file = src().join(format!("{name}.rs"));
    if file.is_file() {
        files.push(file);
    }
    let dir = src().join(name);
    if dir.is_dir() {
        files.extend(rust_files(&dir));
    }
    files
}

/// The top-level module a file under `src/` belongs to.
fn module_of(file: &Path) -> String {
    let relative = file.strip_prefix(src()).expect("a file under src/");
    let first = relative.components().next().expect("a path under src/");
    let first = first.as_os_str().to_string_lossy();
    first.strip_suffix(".rs").unwrap_or(&first).to_string()
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The identifier at the start of `bytes[at..]` after any whitespace, with
/// the index where it starts.
fn ident_at(bytes: &[u8], mut at: usize) -> Option<(usize, String)> {
    while at < bytes.len() && bytes[at].is_ascii_whitespace() {
        at += 1;
    }
    let start = at;
    while at < bytes.len() && is_ident(bytes[at]) {
        at += 1;
    }
    (at > start).then(|| (start, String::from_utf8_lossy(&bytes[start..at]).into()))
}

/// The first segment of every `crate::` path in `text` (each item of a
/// `crate::{...}` group), with the 1-based line it is on.
fn crate_paths(text: &str) -> Vec<(usize, String)> {
    let bytes = text.as_bytes();
    let line_of = |at: usize| 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(offset) = text[from..].find("crate") {
        let start = from + offset;
        from = start + "crate".len();
        if start > 0 && is_ident(bytes[start - 1]) {
            continue;
        }
        let mut at = from;
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        if !text[at..].starts_with("::") {
            continue;
        }
        at += 2;
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        if bytes.get(at) != Some(&b'{') {
            if let Some((start, name)) = ident_at(bytes, at) {
                found.push((line_of(start), name));
            }
            continue;
        }
        // A group: the first segment of each item at its top level.
        let mut depth = 0;
        let mut item_start = true;
        while at < bytes.len() {
            match bytes[at] {
                b'{' => {
                    depth += 1;
                    item_start = depth == 1;
                }
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                b',' if depth == 1 => item_start = true,
                c if item_start && !c.is_ascii_whitespace() => {
                    item_start = false;
                    if let Some((start, name)) = ident_at(bytes, at) {
                        at = start + name.len() - 1;
                        if name != "self" {
                            found.push((line_of(start), name));
                        }
                    }
                }
                _ => {}
            }
            at += 1;
        }
        from = at;
    }
    found
}

/// Each macro exported at the crate root with the module that defines it.
fn exported_macros() -> BTreeMap<String, String> {
    let mut macros = BTreeMap::new();
    for file in rust_files(&src()) {
        let text = fs::read_to_string(&file).expect("read source");
        let mut rest = text.as_str();
        while let Some(at) = rest.find("#[macro_export]") {
            rest = &rest[at..];
            let Some(def) = rest.find("macro_rules!") else {
                break;
            };
            rest = &rest[def + "macro_rules!".len()..];
            if let Some((_, name)) = ident_at(rest.as_bytes(), 0) {
                macros.insert(name, module_of(&file));
            }
        }
    }
    macros
}

/// Every use of a module that the layer `name` may not use, as
/// `file:line: ...`.
fn violations(name: &str, allowed: &[&str], macros: &BTreeMap<String, String>) -> Vec<String> {
    let files = module_files(name);
    assert!(
        !files.is_empty(),
        "layer {name}: no src/{name}.rs or src/{name}/"
    );
    let mut bad = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).expect("read source");
        for (line, segment) in crate_paths(&text) {
            let used = macros.get(&segment).unwrap_or(&segment);
            if used != name && !allowed.contains(&used.as_str()) {
                let shown = text.lines().nth(line - 1).unwrap_or("").trim();
                let root = Path::new(env!("CARGO_MANIFEST_DIR"));
                let path = file.strip_prefix(root).unwrap_or(file);
                bad.push(format!(
                    "{}:{line}: {name} uses {used} (it may use {allowed:?}): {shown}",
                    path.display()
                ));
            }
        }
    }
    bad
}

#[test]
fn each_layer_uses_only_the_layers_below_it() {
    let macros = exported_macros();
    let bad: Vec<String> = LAYERS
        .iter()
        .flat_map(|(name, allowed)| violations(name, allowed, &macros))
        .collect();
    assert!(bad.is_empty(), "layering broken:\n{}", bad.join("\n"));
}

/// The top-level modules under `src/`: each directory, and each `.rs`
/// file but the roots.
fn modules_under_src() -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(src())
        .expect("read src/")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.is_dir() || path.extension().is_some_and(|e| e == "rs"))
        .map(|path| module_of(&path))
        .filter(|name| !ROOTS.contains(&name.as_str()))
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The modules of `present` that `LAYERS` has no row for.
fn unlisted(present: &[String]) -> Vec<String> {
    present
        .iter()
        .filter(|name| !LAYERS.iter().any(|(layer, _)| layer == name))
        .cloned()
        .collect()
}

#[test]
fn every_module_under_src_has_a_row() {
    let missing = unlisted(&modules_under_src());
    assert!(
        missing.is_empty(),
        "modules under src/ with no row in LAYERS (add one, with what each may use): {missing:?}"
    );
    // And the check itself sees a module nobody listed.
    let with_new = vec!["rules".to_string(), "shiny".to_string()];
    assert_eq!(unlisted(&with_new), ["shiny"]);
}

#[test]
fn the_checker_finds_every_form_of_crate_path() {
    let paths = crate_paths;
    let one = |line: usize, name: &str| (line, name.to_string());
    assert_eq!(paths("use crate::rules::Position;"), vec![one(1, "rules")]);
    assert_eq!(
        paths("use crate::{eval, search::{tt, Limits}, self};"),
        vec![one(1, "eval"), one(1, "search")]
    );
    assert_eq!(
        paths("use super::x;\nuse crate::{\n    engine::EngineHost,\n    rules,\n};"),
        vec![one(3, "engine"), one(4, "rules")]
    );
    assert_eq!(
        paths("$crate::rules::International\npub(in crate::search) fn f() {}"),
        vec![one(1, "rules"), one(2, "search")]
    );
    assert_eq!(paths("crate :: game::Game"), vec![one(1, "game")]);
    // Not paths of this crate, or not paths.
    assert!(paths("use my_crate::engine;\npub(crate) fn f() {}\n// crates").is_empty());
    // The macro the rules core exports counts as the rules core.
    assert_eq!(
        exported_macros().get("with_rules").map(String::as_str),
        Some("rules")
    );
}
