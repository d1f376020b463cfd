//! Perft of the other variants (issue #10) against the published tables,
//! and an independent check of the short-king variants.
//!
//! - Every `U` row of `tests/data/perft_variants.tsv` (Russian, English,
//!   Italian, Killer, Losing, Breakthrough, Frisian, Frysk!, Turkish) must equal
//!   `perft`; rows above `NORMAL_TIER_MAX_NODES` (in
//!   `common/perft_table.rs`) run in the ignored slow tier.
//! - English and Italian (men and kings move one square) have a second,
//!   deliberately simple move generator below: squares in an array, every
//!   capture sequence listed in order, the precedence rules applied as the
//!   rules state them. It counts the `K` convention (every ordered sequence
//!   counts), which is what the published Italian "gilbert" rows use, and
//!   at every node of a smaller tree its moves, merged by (from, to,
//!   captured set), must be exactly the engine's legal moves.

use std::collections::BTreeSet;

use tempo::rules::notation::{parse_fen, to_fen};
use tempo::rules::{English, Geometry, Italian, Position, Rules};

/// K rows counted by the reference generator up to this many nodes.
const REFERENCE_MAX_NODES: u64 = 3_000_000;

const DATA: &str = include_str!("data/perft_variants.tsv");

#[path = "common/perft_table.rs"]
mod perft_table;
use perft_table::{check_deep_tier, check_normal_tier, rows};

#[test]
fn data_file_rows_are_marked_and_complete() {
    let rows = rows(DATA);
    let count = |variant: &str| {
        rows.iter()
            .filter(|r| r.variant == variant && r.convention == "U")
            .count()
    };
    assert_eq!(count("russian"), 13);
    assert_eq!(count("english"), 13);
    assert_eq!(count("italian"), 13);
    assert_eq!(count("killer"), 38);
    assert_eq!(count("losing"), 6);
    assert_eq!(count("breakthrough"), 6);
    assert_eq!(count("frisian"), 56);
    assert_eq!(count("frysk"), 51);
    assert_eq!(count("turkish"), 35);
    assert!(rows
        .iter()
        .all(|r| ["U", "K", "P"].contains(&r.convention.as_str())));
}

#[test]
fn published_u_counts_normal_tier() {
    for variant in [
        "russian",
        "english",
        "italian",
        "killer",
        "losing",
        "breakthrough",
        "frisian",
        "frysk",
        "turkish",
    ] {
        check_normal_tier(DATA, variant, 6);
    }
}

#[test]
#[ignore = "slow tier: several billion nodes, run with `cargo test -- --ignored`"]
fn published_u_counts_deep_tier() {
    check_deep_tier(DATA, 10);
}

#[test]
fn english_starts_with_black_on_1_to_12() {
    let start = Position::<English>::start();
    assert_eq!(
        to_fen(&start),
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    let moves: BTreeSet<String> = start
        .legal_moves()
        .iter()
        .map(|&m| tempo::rules::notation::format_move::<English>(m, tempo::rules::MoveStyle::Short))
        .collect();
    let expected: BTreeSet<String> = ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(moves, expected);
}

// ---------------------------------------------------------------------------
// The reference generator for short-king variants.

/// A piece: (white, king).
type Piece = (bool, bool);

/// A position of the reference generator: squares 1..=32 (index 0 unused).
#[derive(Clone)]
struct Board {
    squares: [Option<Piece>; 33],
    white_to_move: bool,
    /// Italian: the board turned, square 1 on a8; else square 1 on b8.
    mirrored: bool,
}

/// One ordered capture sequence (or a step, with no captures).
#[derive(Clone, Debug)]
struct Sequence {
    from: usize,
    to: usize,
    taken: Vec<usize>,
}

/// Which of the two short-king rule sets.
#[derive(Clone, Copy, PartialEq)]
enum Short {
    English,
    Italian,
}

impl Board {
    fn from_fen(fen: &str, mirrored: bool) -> Board {
        let mut squares = [None; 33];
        let mut parts = fen.split(':');
        let white_to_move = parts.next() == Some("W");
        for part in parts {
            let white = part.starts_with('W');
            for item in part[1..].split(',').filter(|s| !s.is_empty()) {
                let king = item.starts_with('K');
                let n: usize = item.trim_start_matches('K').parse().expect("square");
                squares[n] = Some((white, king));
            }
        }
        Board {
            squares,
            white_to_move,
            mirrored,
        }
    }

    fn fen(&self) -> String {
        let side = |white: bool| {
            (1..=32)
                .filter_map(|n| match self.squares[n] {
                    Some((w, king)) if w == white => {
                        Some(format!("{}{n}", if king { "K" } else { "" }))
                    }
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "{}:W{}:B{}",
            if self.white_to_move { "W" } else { "B" },
            side(true),
            side(false)
        )
    }

    /// (row, file) of a square, row 0 at the top.
    fn coords(&self, n: usize) -> (i32, i32) {
        let (row, col) = ((n - 1) / 4, (n - 1) % 4);
        let first_file_odd = (row % 2 == 0) != self.mirrored;
        (row as i32, (2 * col + usize::from(first_file_odd)) as i32)
    }

    fn square(&self, row: i32, file: i32) -> Option<usize> {
        if !(0..8).contains(&row) || !(0..8).contains(&file) {
            return None;
        }
        let n = row as usize * 4 + file as usize / 2 + 1;
        (self.coords(n) == (row, file)).then_some(n)
    }

    fn last_row(&self, white: bool) -> i32 {
        if white {
            0
        } else {
            7
        }
    }

    /// Every legal move as an ordered sequence (duplicates kept).
    fn moves(&self, rules: Short) -> Vec<Sequence> {
        let mut captures = Vec::new();
        for from in 1..=32 {
            if let Some((white, king)) = self.squares[from] {
                if white == self.white_to_move {
                    let mut taken = Vec::new();
                    self.capture_from(rules, from, from, king, &mut taken, &mut captures);
                }
            }
        }
        if !captures.is_empty() {
            return match rules {
                Short::English => captures,
                Short::Italian => self.italian_precedence(captures),
            };
        }
        let mut steps = Vec::new();
        for from in 1..=32 {
            if let Some((white, king)) = self.squares[from] {
                if white == self.white_to_move {
                    for (dr, df) in self.directions(white, king) {
                        let (r, f) = self.coords(from);
                        if let Some(to) = self.square(r + dr, f + df) {
                            if self.squares[to].is_none() {
                                steps.push(Sequence {
                                    from,
                                    to,
                                    taken: Vec::new(),
                                });
                            }
                        }
                    }
                }
            }
        }
        steps
    }

    fn directions(&self, white: bool, king: bool) -> Vec<(i32, i32)> {
        let forward = if white { -1 } else { 1 };
        if king {
            vec![(-1, -1), (-1, 1), (1, -1), (1, 1)]
        } else {
            vec![(forward, -1), (forward, 1)]
        }
    }

    fn capture_from(
        &self,
        rules: Short,
        from: usize,
        at: usize,
        king: bool,
        taken: &mut Vec<usize>,
        out: &mut Vec<Sequence>,
    ) {
        let white = self.white_to_move;
        let (r, f) = self.coords(at);
        let mut went_on = false;
        let crowned_here = !king && !taken.is_empty() && r == self.last_row(white);
        if !crowned_here {
            for (dr, df) in self.directions(white, king) {
                let (Some(over), Some(land)) = (
                    self.square(r + dr, f + df),
                    self.square(r + 2 * dr, f + 2 * df),
                ) else {
                    continue;
                };
                let Some((over_white, over_king)) = self.squares[over] else {
                    continue;
                };
                if over_white == white || taken.contains(&over) {
                    continue;
                }
                if rules == Short::Italian && !king && over_king {
                    continue;
                }
                if self.squares[land].is_some() && land != from {
                    continue;
                }
                went_on = true;
                taken.push(over);
                self.capture_from(rules, from, land, king, taken, out);
                taken.pop();
            }
        }
        if !went_on && !taken.is_empty() {
            out.push(Sequence {
                from,
                to: at,
                taken: taken.clone(),
            });
        }
    }

    /// Italian: most pieces; then by a king; then most kings; then the
    /// kings met earliest (compared square by square along the sequence).
    fn italian_precedence(&self, all: Vec<Sequence>) -> Vec<Sequence> {
        let is_king = |n: usize| self.squares[n].is_some_and(|(_, k)| k);
        let key = |s: &Sequence| {
            let kings: Vec<bool> = s.taken.iter().map(|&n| is_king(n)).collect();
            (
                s.taken.len(),
                is_king(s.from),
                kings.iter().filter(|&&k| k).count(),
                kings,
            )
        };
        let best = all.iter().map(key).max().expect("captures");
        all.into_iter().filter(|s| key(s) == best).collect()
    }

    fn play(&self, s: &Sequence) -> Board {
        let mut next = self.clone();
        let piece = next.squares[s.from].take().expect("a piece to move");
        for &n in &s.taken {
            next.squares[n] = None;
        }
        let (row, _) = self.coords(s.to);
        let crowned = piece.1 || row == self.last_row(piece.0);
        next.squares[s.to] = Some((piece.0, crowned));
        next.white_to_move = !self.white_to_move;
        next
    }

    fn perft_k(&self, rules: Short, depth: u32) -> u64 {
        let moves = self.moves(rules);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| self.play(m).perft_k(rules, depth - 1))
            .sum()
    }
}

/// The engine's moves of `board` as (from, to, captured squares).
fn engine_moves<R: Rules>(board: &Board) -> BTreeSet<(usize, usize, Vec<usize>)> {
    let pos: Position<R> = parse_fen(&board.fen()).expect("reference FEN");
    let square = |bit| {
        usize::from(
            <R::Geometry as Geometry>::square(bit)
                .expect("a real square")
                .get(),
        )
    };
    pos.legal_moves()
        .iter()
        .map(|m| {
            let mut taken: Vec<usize> = m.captured_bits().map(square).collect();
            taken.sort_unstable();
            (square(m.from()), square(m.to()), taken)
        })
        .collect()
}

/// `compare_tree` over each tree `(fen, depth)` of `rules`, played by `R`;
/// each must have more than 1000 nodes.
fn compare_trees<R: Rules>(trees: &[(&str, u32)], rules: Short) {
    for &(fen, depth) in trees {
        let mut nodes = 0;
        let board = Board::from_fen(fen, rules == Short::Italian);
        compare_tree::<R>(&board, rules, depth, &mut nodes);
        assert!(nodes > 1000, "{fen}: {nodes} nodes");
    }
}

/// Compares the engine's move set with the reference's at every node.
fn compare_tree<R: Rules>(board: &Board, rules: Short, depth: u32, nodes: &mut u64) {
    let reference = board.moves(rules);
    let merged: BTreeSet<(usize, usize, Vec<usize>)> = reference
        .iter()
        .map(|s| {
            let mut taken = s.taken.clone();
            taken.sort_unstable();
            (s.from, s.to, taken)
        })
        .collect();
    assert_eq!(engine_moves::<R>(board), merged, "position {}", board.fen());
    *nodes += 1;
    if depth > 1 {
        for s in &reference {
            compare_tree::<R>(&board.play(s), rules, depth - 1, nodes);
        }
    }
}

#[test]
fn the_reference_generator_counts_the_published_k_rows() {
    let mut checked = 0;
    for row in rows(DATA).iter().filter(|r| {
        r.convention == "K"
            && (r.variant == "italian" || r.variant == "english")
            && r.nodes <= REFERENCE_MAX_NODES
    }) {
        let rules = if row.variant == "italian" {
            Short::Italian
        } else {
            Short::English
        };
        let board = Board::from_fen(&row.fen, rules == Short::Italian);
        assert_eq!(
            board.perft_k(rules, row.depth),
            row.nodes,
            "{} {} depth {}",
            row.variant,
            row.name,
            row.depth
        );
        checked += 1;
    }
    assert!(checked >= 25, "only {checked} rows");
}

#[test]
fn engine_moves_equal_the_reference_moves_at_every_node() {
    let trees = [
        ("W:W30,26,27,22,23,24,17,18,20:B14,15,16,9,11,5,6,1,3", 8),
        ("B:W30,21,22,17,20,K6:B25,28,9,5,1,3", 5),
        ("W:WK27,K28,17,20,9,K12,8:B21,24,K19,K13,14,K11,4", 5),
        (
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
            7,
        ),
    ];
    compare_trees::<Italian>(&trees, Short::Italian);
    let english = [
        (
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
            8,
        ),
        ("W:WK3,18,22,23,26,29,30:B5,9,K16,12,K31", 6),
    ];
    compare_trees::<English>(&english, Short::English);
}
