//! Perft against the published tables, and the `tempo perft` command.
//!
//! - Every `U` row of `tests/data/perft.tsv` (International and Brazilian
//!   rows of the reference table) must equal `perft`. Rows of at most
//!   `NORMAL_TIER_MAX_NODES` (in `common/perft_table.rs`) nodes run in the
//!   normal tier; the deeper ones run in one ignored test (`cargo test
//!   --test perft -- --ignored --nocapture` prints a line per row).
//! - `K` and `P` rows count capture paths in other conventions and are not
//!   compared (see benches/variants.md); the data file keeps them, marked.
//! - `perft_threads` with two workers equals single-threaded perft.
//! - The binary prints `depth D nodes N time S mnps X` lines, deepest last,
//!   and rejects a bad `--fen` with a message and a non-zero exit.

use std::process::Command;

use tempo::cli::perft::{divide_threads, perft_threads};
use tempo::rules::notation::parse_fen;
use tempo::rules::perft::{divide, perft};
use tempo::rules::{Brazilian, International, Position};

const DATA: &str = include_str!("data/perft.tsv");

#[path = "common/perft_table.rs"]
mod perft_table;
use perft_table::{check_deep_tier, check_normal_tier, rows};

#[test]
fn data_file_has_every_convention_marked() {
    let rows = rows(DATA);
    for row in &rows {
        assert!(
            ["U", "K", "P"].contains(&row.convention.as_str()),
            "{row:?} has no U/K/P mark"
        );
        assert!(
            row.variant == "international" || row.variant == "brazilian",
            "{row:?}"
        );
    }
    let count = |variant: &str, conv: &str| {
        rows.iter()
            .filter(|r| r.variant == variant && r.convention == conv)
            .count()
    };
    // The reference table's International and Brazilian rows, as copied.
    assert_eq!(count("international", "U"), 67);
    assert_eq!(count("brazilian", "U"), 14);
    assert_eq!(
        count("international", "K") + count("international", "P"),
        36
    );
    assert_eq!(count("brazilian", "K") + count("brazilian", "P"), 24);
}

#[test]
fn start_positions_in_the_data_are_the_engine_start_positions() {
    use tempo::rules::notation::to_fen;
    for row in rows(DATA).iter().filter(|r| r.name == "start") {
        match row.variant.as_str() {
            "international" => assert_eq!(
                parse_fen::<International>(&row.fen).unwrap(),
                Position::<International>::start(),
                "{}",
                to_fen(&Position::<International>::start())
            ),
            _ => assert_eq!(
                parse_fen::<Brazilian>(&row.fen).unwrap(),
                Position::<Brazilian>::start()
            ),
        }
    }
}

#[test]
fn published_u_counts_international_normal_tier() {
    check_normal_tier(DATA, "international", 50);
}

#[test]
fn published_u_counts_brazilian_normal_tier() {
    check_normal_tier(DATA, "brazilian", 10);
}

#[test]
#[ignore = "slow tier: several billion nodes, run with `cargo test -- --ignored`"]
fn published_u_counts_deep_tier() {
    check_deep_tier(DATA, 5);
}

#[test]
fn two_threads_count_the_same_as_one() {
    let international = [
        ("W:W31-50:B1-20", 7),
        (
            "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24",
            6,
        ),
        ("W:W6,7,8,9,10:B41,42,43,44,45", 6),
    ];
    for (fen, depth) in international {
        let pos: Position<International> = parse_fen(fen).unwrap();
        let single = perft(&pos, depth);
        assert_eq!(perft_threads(&pos, depth, 2), single, "{fen} depth {depth}");
        let split: u64 = divide_threads(&pos, depth, 2).iter().map(|&(_, n)| n).sum();
        assert_eq!(split, single, "divide {fen} depth {depth}");
    }
    let pos = Position::<Brazilian>::start();
    assert_eq!(perft_threads(&pos, 9, 2), perft(&pos, 9));
    assert_eq!(perft(&pos, 9), 4_431_766);
}

#[test]
fn divide_lists_each_legal_root_move_once() {
    let pos: Position<International> =
        parse_fen("B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24").unwrap();
    let rows = divide(&pos, 3);
    let legal = pos.legal_moves();
    assert_eq!(rows.len(), legal.len());
    for (mv, n) in &rows {
        assert!(legal.contains(*mv));
        assert_eq!(*n, perft(&pos.play(*mv), 2));
    }
    assert_eq!(rows.iter().map(|&(_, n)| n).sum::<u64>(), 1168);
}

/// Runs the built `tempo` binary.
fn tempo(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(args)
        .output()
        .expect("run the tempo binary")
}

/// Parses `depth D nodes N time S mnps X`, returning (D, N).
fn depth_line(line: &str) -> Option<(u32, u64)> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() != 8 || f[0] != "depth" || f[2] != "nodes" || f[4] != "time" || f[6] != "mnps" {
        return None;
    }
    let secs: f64 = f[5].parse().ok()?;
    let mnps: f64 = f[7].parse().ok()?;
    if secs < 0.0 || mnps < 0.0 {
        return None;
    }
    Some((f[1].parse().ok()?, f[3].parse().ok()?))
}

#[test]
fn cli_prints_one_line_per_depth_deepest_last() {
    let out = tempo(&["perft", "--depth", "5"]);
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<(u32, u64)> = stdout
        .lines()
        .map(|l| depth_line(l).unwrap_or_else(|| panic!("bad line {l:?}")))
        .collect();
    assert_eq!(
        lines,
        vec![(1, 9), (2, 81), (3, 658), (4, 4265), (5, 27117)]
    );
}

#[test]
fn cli_brazilian_fen_threads_and_divide() {
    let out = tempo(&[
        "perft",
        "--variant",
        "brazilian",
        "--fen",
        "W:W17,21,22,23,24,25,26,27,28,30,31,32:B1,2,3,4,5,6,7,8,10,12,13,18",
        "--depth",
        "4",
        "--divide",
        "--threads",
        "2",
    ]);
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    let last = lines.last().expect("some output");
    assert_eq!(depth_line(last), Some((4, 118)), "last line {last:?}");
    // The divide lines (Hub long form and a count) come before the depth 4
    // line and add up to its count.
    let divide: Vec<(&str, u64)> = lines
        .iter()
        .filter(|l| !l.starts_with("depth"))
        .map(|l| {
            let (mv, n) = l.split_once(' ').expect("move and count");
            (mv, n.parse().expect("count"))
        })
        .collect();
    let mut moves: Vec<&str> = divide.iter().map(|&(m, _)| m).collect();
    moves.sort_unstable();
    assert_eq!(moves, vec!["22x15x18", "23x14x18"]);
    assert_eq!(divide.iter().map(|&(_, n)| n).sum::<u64>(), 118);
    let depths: Vec<u32> = lines
        .iter()
        .filter_map(|l| depth_line(l))
        .map(|d| d.0)
        .collect();
    assert_eq!(depths, vec![1, 2, 3, 4]);
}

#[test]
fn cli_reads_every_variant_name_and_refuses_others_with_the_list() {
    // The command-line names and the other names front ends use.
    for (name, depth_2) in [
        ("russian", 49),
        ("normal", 81),
        ("checkers", 49),
        ("8x8", 49),
    ] {
        let out = tempo(&["perft", "--variant", name, "--depth", "2"]);
        assert!(out.status.success(), "{name}: {out:?}");
        let stdout = String::from_utf8(out.stdout).unwrap();
        let last = stdout.lines().last().expect("a depth line");
        assert_eq!(depth_line(last), Some((2, depth_2)), "{name}: {stdout}");
    }
    let out = tempo(&["perft", "--variant", "chess", "--depth", "2"]);
    assert!(!out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("'chess'") && stderr.contains("international, brazilian, losing"),
        "{stderr}"
    );
    let help = tempo(&["perft", "--help"]);
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(help.contains("turkish:"), "{help}");
    assert!(
        help.contains("Breakthrough, 10x10: the first king wins"),
        "{help}"
    );
}

#[test]
fn cli_rejects_a_bad_fen_without_panicking() {
    for fen in ["W:W51:B1", "not a position", "W:W1:B20", "", "B:W:B0"] {
        let out = tempo(&["perft", "--fen", fen, "--depth", "2"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{fen:?} was accepted: {out:?}");
        assert!(!stderr.trim().is_empty(), "{fen:?}: no message on stderr");
        assert!(!stderr.contains("panicked"), "{fen:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{fen:?}: printed {:?}", out.stdout);
    }
}

#[test]
fn cli_refuses_a_depth_beyond_the_cap_and_a_depth_of_zero() {
    for depth in ["99", "31", "0"] {
        let out = tempo(&["perft", "--depth", depth]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--depth {depth}: {out:?}");
        assert!(stderr.contains("1..=30"), "--depth {depth}: {stderr}");
        assert!(out.stdout.is_empty(), "--depth {depth}");
    }
}

#[test]
fn cli_tools_end_quietly_when_their_reader_goes_away() {
    for args in [&["perft", "--depth", "3"][..], &["bench", "--depth", "1"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tempo"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("run the tempo binary");
        // The reader closes its end before the first line is written.
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("wait for tempo");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {out:?}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
