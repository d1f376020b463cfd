//! Building the tables by retrograde analysis.
//!
//! Slices are built smallest first (`Material::all_up_to`), a slice with
//! its partner (the same pieces, the other side to move), since a move
//! that neither takes nor crowns leads from one to the other. Every other
//! move (a capture, a man crowned) leads into a slice already solved.
//!
//! 1. **Start**: every position of both tables is looked at once. Its
//!    moves out of the pair are probed in the solved slices and summed up
//!    (the best of them for the mover); its moves within the pair are
//!    counted. A position whose every move leaves the pair takes its value
//!    now; one with a winning move out of the pair waits for the ply of
//!    that win, in case a faster one turns up within the pair.
//! 2. **Ply by ply**: the positions decided at ply `n - 1` are unmoved
//!    (the other side's pieces stepped back along the ways they could have
//!    come, where that move was legal, i.e. no capture was on) into their
//!    predecessors in the partner table. A predecessor of a lost position
//!    is won in `n` unless decided already. A predecessor of a won position
//!    loses one of its undecided moves; when the last goes, it is lost in
//!    `n` (or at the ply of its slowest loss out of the pair, if later),
//!    unless a move out of the pair draws or wins.
//! 3. What is left undecided when no ply decides anything is a draw.
//!
//! Going ply by ply gives every win its shortest distance and every loss
//! its longest, across slices too, since the probed values carry theirs.

use std::path::Path;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::time::Instant;

use rayon::prelude::*;

use crate::rules::geometry::Geometry;
use crate::rules::{Dir, Position, Rules, Side};

use super::pack::Packed;
use super::{file, Egdb, EgdbError, Material, Members, Value, MAX_PLIES, NOT_A_POSITION};

/// Progress of a build, for the caller to show.
#[derive(Clone, Debug)]
pub enum BuildEvent {
    /// A slice's table was found on disk, checked and loaded.
    Loaded {
        /// The slice.
        material: Material,
    },
    /// A slice and its partner are being solved.
    Started {
        /// The slice (its partner is solved with it).
        material: Material,
        /// Indices of the slice and its partner.
        positions: u64,
        /// How many slices (partners counted) are done before this one.
        done: usize,
        /// Slices in all.
        total: usize,
    },
    /// One more ply of the retrograde analysis is done.
    Ply {
        /// The slice.
        material: Material,
        /// The ply just decided.
        ply: u32,
        /// Positions decided so far, in the slice and its partner.
        decided: u64,
    },
    /// A slice is solved (and written, when built into a directory).
    Finished {
        /// The slice.
        material: Material,
        /// Its positions won, drawn and lost for the side to move.
        census: [u64; 3],
        /// Seconds spent solving it and its partner.
        seconds: f64,
        /// Bytes written, its partner's file included (0 in memory).
        bytes: u64,
    },
}

/// Builds (or loads, where on disk) every slice of up to `pieces` pieces
/// of variant `R` into `dir`, and returns them loaded. Runs on the current
/// rayon pool.
pub fn build<R: Rules>(
    dir: &Path,
    pieces: u32,
    report: &mut dyn FnMut(&BuildEvent),
) -> Result<Egdb<R>, EgdbError> {
    build_slices(dir, pieces, &|_| true, report)
}

/// Like [`build`], for the slices `keep` accepts alone; they must take in
/// every slice their captures lead to (as the slices without men do).
pub fn build_slices<R: Rules>(
    dir: &Path,
    pieces: u32,
    keep: &dyn Fn(Material) -> bool,
    report: &mut dyn FnMut(&BuildEvent),
) -> Result<Egdb<R>, EgdbError> {
    solve_all(Some(dir), pieces, keep, report)
}

/// Solves every slice of up to `pieces` pieces of variant `R` in memory,
/// reading and writing no file (the `bytes` of each `Finished` event are
/// 0), and returns them unpacked: one byte a position, fast to probe.
pub fn build_in_memory<R: Rules>(
    pieces: u32,
    report: &mut dyn FnMut(&BuildEvent),
) -> Result<Egdb<R>, EgdbError> {
    solve_all(None, pieces, &|_| true, report)
}

/// Solves the slices `keep` accepts, smallest first; with a directory,
/// loads those on disk and writes the others there.
fn solve_all<R: Rules>(
    dir: Option<&Path>,
    pieces: u32,
    keep: &dyn Fn(Material) -> bool,
    report: &mut dyn FnMut(&BuildEvent),
) -> Result<Egdb<R>, EgdbError> {
    Egdb::<R>::supports()?;
    if pieces > 2 * u32::from(super::material::MAX_OF_A_KIND) {
        return Err(EgdbError::TooManyPieces(pieces));
    }
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir).map_err(|e| EgdbError::Io(dir.to_path_buf(), e))?;
    }
    let mut db = Egdb::<R>::empty();
    let all: Vec<Material> = Material::all_up_to(pieces)
        .into_iter()
        .filter(|&m| keep(m))
        .collect();
    let total = all.len();
    for &m in &all {
        if db.has(m) {
            continue;
        }
        let pair: Vec<Material> = if m.partner() == m {
            vec![m]
        } else {
            vec![m, m.partner()]
        };
        if let Some(dir) = dir.filter(|dir| pair.iter().all(|&p| file::exists::<R>(dir, p))) {
            for &p in &pair {
                let packed = file::read::<R>(dir, p, db.layout.size(p))?;
                db.insert(p, packed.unpack());
                report(&BuildEvent::Loaded { material: p });
            }
            continue;
        }
        let done = all.iter().filter(|&&s| db.has(s)).count();
        let start = Instant::now();
        let positions = pair.iter().map(|&p| db.layout.size(p)).sum();
        report(&BuildEvent::Started {
            material: m,
            positions,
            done,
            total,
        });
        let tables = solve_pair(&db, &pair, &mut |ply, decided| {
            report(&BuildEvent::Ply {
                material: m,
                ply,
                decided,
            })
        })?;
        let mut bytes = 0;
        if let Some(dir) = dir {
            for (&p, values) in pair.iter().zip(&tables) {
                let packed = Packed::pack(&db.layout, p, values);
                bytes += file::write::<R>(dir, p, &packed)?;
            }
        }
        for (&p, values) in pair.iter().zip(tables) {
            db.insert(p, values);
        }
        report(&BuildEvent::Finished {
            material: m,
            census: db.census(m).expect("just inserted"),
            seconds: start.elapsed().as_secs_f64(),
            bytes,
        });
    }
    db.pieces = pieces;
    Ok(db)
}

/// The best of a position's moves out of its pair, as a byte: no such move,
/// a draw, or the value (`Value::encode`).
const OUT_NONE: u8 = 0;
const OUT_DRAW: u8 = u8::MAX;

/// One table being solved.
struct Work {
    material: Material,
    values: Vec<AtomicU8>,
    /// Undecided moves within the pair.
    counters: Vec<AtomicU8>,
    /// The best move out of the pair (`OUT_NONE`, `OUT_DRAW` or a value).
    out: Vec<AtomicU8>,
    /// Positions to decide at a given ply whatever happens in the pair.
    scheduled: Vec<Vec<u32>>,
}

fn atomics(n: u64) -> Vec<AtomicU8> {
    (0..n).map(|_| AtomicU8::new(0)).collect()
}

/// Solves one slice and its partner (or a slice that is its own partner).
fn solve_pair<R: Rules>(
    db: &Egdb<R>,
    pair: &[Material],
    progress: &mut dyn FnMut(u32, u64),
) -> Result<Vec<Box<[u8]>>, EgdbError> {
    let layout = &db.layout;
    let mut work: Vec<Work> = pair
        .iter()
        .map(|&m| {
            let n = layout.size(m);
            assert!(
                n < u64::from(u32::MAX),
                "slice {m} too large for u32 indices"
            );
            Work {
                material: m,
                values: atomics(n),
                counters: atomics(n),
                out: atomics(n),
                scheduled: vec![Vec::new(); MAX_PLIES as usize + 2],
            }
        })
        .collect();
    for w in &mut work {
        let found = start_table(db, w);
        for (ply, index) in found {
            w.scheduled[ply as usize].push(index);
        }
    }
    let tables = work.len();
    let partner = |t: usize| if tables == 1 { 0 } else { 1 - t };
    let mut frontier: Vec<Vec<u32>> = vec![Vec::new(); work.len()];
    let mut decided = 0u64;
    for ply in 0..=MAX_PLIES + 1 {
        let mut next: Vec<Vec<u32>> = vec![Vec::new(); work.len()];
        let byte = (ply + 1).min(u32::from(u8::MAX - 1)) as u8;
        for (t, w) in work.iter_mut().enumerate() {
            for index in std::mem::take(&mut w.scheduled[ply as usize]) {
                if decide(&w.values[index as usize], byte) {
                    next[t].push(index);
                }
            }
        }
        if ply > 0 {
            for (t, positions) in frontier.iter().enumerate() {
                let (from, to) = (&work[t], &work[partner(t)]);
                let (found, later) = unmove_all(layout, from.material, to, positions, ply);
                next[partner(t)].extend(found);
                for (at, index) in later {
                    work[partner(t)].scheduled[at as usize].push(index);
                }
            }
        }
        let count: u64 = next.iter().map(|n| n.len() as u64).sum();
        decided += count;
        let pending = work.iter().any(|w| {
            w.scheduled[ply as usize + 1..]
                .iter()
                .any(|s| !s.is_empty())
        });
        if count > 0 {
            if ply > MAX_PLIES {
                return Err(EgdbError::TooDeep(pair[0]));
            }
            progress(ply, decided);
        }
        if count == 0 && !pending && ply > 0 {
            break;
        }
        frontier = next;
    }
    Ok(work
        .into_iter()
        .map(|w| w.values.into_iter().map(AtomicU8::into_inner).collect())
        .collect())
}

/// Sets an undecided position's value; whether this call decided it.
#[inline]
fn decide(value: &AtomicU8, byte: u8) -> bool {
    value.compare_exchange(0, byte, Relaxed, Relaxed).is_ok()
}

/// Step 1 for one table: fills its counters and moves out of the pair;
/// returns the positions to decide at a known ply (`(ply, index)`).
fn start_table<R: Rules>(db: &Egdb<R>, w: &Work) -> Vec<(u32, u32)> {
    let layout = &db.layout;
    let m = w.material;
    let crown = Position::<R>::promotion_row(Side::White);
    (0..layout.size(m) as u32)
        .into_par_iter()
        .with_min_len(1 << 12)
        .fold(Vec::new, |mut found, index| {
            let i = index as usize;
            let index = u64::from(index);
            let Some(placement) = layout.placement(m, index) else {
                w.values[i].store(NOT_A_POSITION, Relaxed);
                return found;
            };
            let pos = layout.position(&placement);
            let moves = pos.legal_moves();
            let mut within = 0u32;
            let mut best: Option<Value> = None;
            for &mv in moves.iter() {
                let crowns = pos.moves_man(mv) && mv.to().mask() & crown != 0;
                if !mv.is_capture() && !crowns {
                    within += 1;
                    continue;
                }
                let after = db
                    .probe_loaded(&pos.play(mv))
                    .expect("slices are solved smallest first")
                    .before_move();
                best = Some(best.map_or(after, |b| b.better(after)));
            }
            assert!(within < 255, "{within} moves in one position");
            w.counters[i].store(within as u8, Relaxed);
            match (within, best) {
                // No move at all: lost now.
                (0, None) => found.push((0, index as u32)),
                (0, Some(Value::Draw)) => {}
                (0, Some(Value::Win(p) | Value::Loss(p))) => found.push((p, index as u32)),
                (_, None) => {}
                (_, Some(v)) => {
                    w.out[i].store(
                        if v == Value::Draw {
                            OUT_DRAW
                        } else {
                            v.encode()
                        },
                        Relaxed,
                    );
                    if let Value::Win(p) = v {
                        found.push((p, index as u32));
                    }
                }
            }
            found
        })
        .reduce(Vec::new, |mut a, b| {
            a.extend(b);
            a
        })
}

/// Step 2 for the positions of one table decided at `ply - 1`: decides
/// their predecessors in table `to` at `ply`; returns those decided and
/// those whose loss comes later (`(ply, index)`).
fn unmove_all<R: Rules>(
    layout: &super::Layout<R>,
    material: Material,
    to: &Work,
    positions: &[u32],
    ply: u32,
) -> (Vec<u32>, Vec<(u32, u32)>) {
    let byte = (ply + 1) as u8;
    let won_now = (ply - 1).is_multiple_of(2);
    positions
        .par_iter()
        .with_min_len(1 << 10)
        .fold(
            || (Vec::new(), Vec::new()),
            |(mut found, mut later), &q| {
                let placement = layout
                    .placement(material, u64::from(q))
                    .expect("a decided index is a position");
                let pos = layout.position(&placement);
                for_each_predecessor(&pos, |pred| {
                    let p = layout.index(&layout.normalise(&pred)) as usize;
                    if won_now {
                        if decide(&to.values[p], byte) {
                            found.push(p as u32);
                        }
                        return;
                    }
                    if to.counters[p].fetch_sub(1, Relaxed) != 1 {
                        return;
                    }
                    // Every move within the pair loses: lost now, unless a
                    // move out of it draws or wins, or loses more slowly.
                    let lost_at = match to.out[p].load(Relaxed) {
                        OUT_NONE => ply,
                        OUT_DRAW => return,
                        out => match Value::decode(out) {
                            Some(Value::Loss(l)) => l.max(ply),
                            _ => return,
                        },
                    };
                    if lost_at > ply {
                        later.push((lost_at, p as u32));
                    } else if decide(&to.values[p], byte) {
                        found.push(p as u32);
                    }
                });
                (found, later)
            },
        )
        .reduce(
            || (Vec::new(), Vec::new()),
            |(mut a, mut b), (c, d)| {
                a.extend(c);
                b.extend(d);
                (a, b)
            },
        )
}

/// Calls `f` with every position (Black to move) from which Black reaches
/// `pos` (White to move) by a legal move that neither takes nor crowns.
fn for_each_predecessor<R: Rules>(pos: &Position<R>, mut f: impl FnMut(Position<R>)) {
    let board = <R::Geometry as Geometry>::BOARD;
    let empty = pos.empty_squares();
    let white = pos.pieces(Side::White);
    let black = pos.pieces(Side::Black);
    let kings = pos.all_kings();
    let mut try_from = |at: u64, origin: u64, king: bool| {
        let moved = black ^ at ^ origin;
        let moved_kings = if king { kings ^ at ^ origin } else { kings };
        let pred = Position::<R>::from_trusted_bits(white, moved, moved_kings, Side::Black);
        if !crate::rules::movegen::has_capture(&pred) {
            f(pred);
        }
    };
    for at in Members(pos.kings(Side::Black)) {
        let at = 1u64 << at;
        for dir in Dir::ALL {
            let origins = if R::FLYING_KINGS {
                <R::Geometry as Geometry>::ray_walk(at, dir, empty).0
            } else {
                <R::Geometry as Geometry>::step(at, dir) & empty & board
            };
            for origin in Members(origins) {
                try_from(at, 1u64 << origin, true);
            }
        }
    }
    for at in Members(pos.men(Side::Black)) {
        let at = 1u64 << at;
        for dir in Side::Black.forward() {
            let origin = <R::Geometry as Geometry>::step(at, dir.reverse()) & empty & board;
            if origin != 0 {
                try_from(at, origin, false);
            }
        }
    }
}
