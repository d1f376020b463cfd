//! The perft tables under `tests/data/` (tab separated: variant, name,
//! convention, depth, nodes, fen; `#` lines and the header skipped), read
//! and checked the same way by `tests/perft.rs` and `tests/perft_variants.rs`.

use std::time::Instant;

use tempo::rules::notation::parse_fen;
use tempo::rules::perft::perft;
use tempo::rules::{with_rules, Position, VariantKind};

/// Rows with more leaf nodes than this are left to the slow tier.
const NORMAL_TIER_MAX_NODES: u64 = 150_000_000;

/// One row of a table.
#[derive(Debug)]
pub struct Row {
    pub variant: String,
    pub name: String,
    pub convention: String,
    pub depth: u32,
    pub nodes: u64,
    pub fen: String,
}

/// Every row of `data`; fails on a malformed line.
pub fn rows(data: &str) -> Vec<Row> {
    let mut out = Vec::new();
    for (i, line) in data.lines().enumerate() {
        if line.starts_with('#') || line.starts_with("variant\t") || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 6, "line {}: expected 6 fields: {line}", i + 1);
        out.push(Row {
            variant: f[0].to_string(),
            name: f[1].to_string(),
            convention: f[2].to_string(),
            depth: f[3].parse().expect("depth"),
            nodes: f[4].parse().expect("nodes"),
            fen: f[5].to_string(),
        });
    }
    out
}

/// The engine's perft of `row`: its FEN in its variant, to its depth.
pub fn engine_count(row: &Row) -> u64 {
    let kind = VariantKind::parse(&row.variant)
        .unwrap_or_else(|| panic!("unknown variant {}", row.variant));
    with_rules!(kind, R => {
        let pos: Position<R> =
            parse_fen(&row.fen).unwrap_or_else(|e| panic!("{}: {e}", row.fen));
        perft(&pos, row.depth)
    })
}

/// Counts every U row of the table `data` that `keep` selects with
/// `engine_count`, prints one line per row and fails with the list of rows
/// that differ; returns how many rows were checked.
fn check_u_rows(data: &str, keep: impl Fn(&Row) -> bool) -> usize {
    let rows = rows(data);
    let mut checked = 0;
    let mut wrong = Vec::new();
    for row in rows.iter().filter(|r| r.convention == "U" && keep(r)) {
        let started = Instant::now();
        let got = engine_count(row);
        let status = if got == row.nodes { "ok" } else { "WRONG" };
        println!(
            "{status:5} {} {} depth {}: expected {} got {} ({:.2} s)",
            row.variant,
            row.name,
            row.depth,
            row.nodes,
            got,
            started.elapsed().as_secs_f64()
        );
        if got != row.nodes {
            wrong.push(format!(
                "{} {} depth {}: expected {}, got {}",
                row.variant, row.name, row.depth, row.nodes, got
            ));
        }
        checked += 1;
    }
    assert!(wrong.is_empty(), "perft differs:\n{}", wrong.join("\n"));
    checked
}

/// `check_u_rows` over the rows of `variant` in the normal tier; fails
/// unless there are at least `min` of them.
pub fn check_normal_tier(data: &str, variant: &str, min: usize) {
    let n = check_u_rows(data, |r| {
        r.variant == variant && r.nodes <= NORMAL_TIER_MAX_NODES
    });
    assert!(n >= min, "{variant}: only {n} rows checked");
}

/// `check_u_rows` over the rows of the slow tier, every variant; fails
/// unless there are at least `min` of them.
pub fn check_deep_tier(data: &str, min: usize) {
    let n = check_u_rows(data, |r| r.nodes > NORMAL_TIER_MAX_NODES);
    assert!(n >= min, "only {n} rows checked");
}
