//! The book builder: grows a book from the start position by searching.
//!
//! Steps:
//! 1. Ply by ply from the start position, every position reached along book
//!    moves that is not yet in the book is scored by the oracle (the
//!    engine's search, given by the caller: this module knows no search).
//! 2. Below `full_plies` every legal move becomes a book move; deeper, the
//!    best moves within `margin` of the best, at most `width` of them.
//! 3. The children of the book moves (those not seen at an earlier ply)
//!    form the next ply, up to `plies`: book lines are `plies` moves long.
//! 4. Scores are backed up by negamax through the book (`back_up`): a book
//!    move whose resulting position is in the book takes the negated value
//!    of that position (its best book move), one ply deeper.
//!
//! Positions already in the given book are not searched again, which is
//! how a partial book is resumed. Searches run in parallel on a rayon pool;
//! one thread (the caller's) collects results, reports progress and asks
//! for checkpoints, so a stopped build loses little.
//!
//! Invariant: the result holds every position of the given book, and its
//! entries are ordered by the ply at which the build reached them, then by
//! position text (entries it did not reach come last, in their old order).

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::{rank, Book, BookError, BookMove, InsertError};
use crate::rules::notation::{parse_hub, to_hub};
use crate::rules::{Move, Position, Rules};

/// Stack of each builder thread (the search recurses deeply).
const STACK: usize = 32 << 20;

/// How a book is grown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildConfig {
    /// Positions at plies `0..plies` from the start get book moves.
    pub plies: u32,
    /// Positions at plies `0..full_plies` get every legal move.
    pub full_plies: u32,
    /// At most this many moves per position beyond `full_plies`.
    pub width: usize,
    /// Moves scoring within this many hundredths of a man of the best are
    /// kept (beyond `full_plies`).
    pub margin: i32,
    /// Search threads.
    pub threads: usize,
    /// Time between two checkpoints.
    pub checkpoint_every: Duration,
}

/// A move and its score as the oracle found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoredMove {
    /// The move.
    pub mv: Move,
    /// Its score in hundredths of a man, from the mover's view.
    pub score: i32,
    /// The depth of the search that gave the score, from the position.
    pub depth: u32,
}

/// Where a build stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// The ply being searched.
    pub ply: u32,
    /// Plies in all.
    pub plies: u32,
    /// Positions of this ply searched so far.
    pub done: usize,
    /// Positions of this ply to search.
    pub todo: usize,
    /// Positions searched since the build started (all plies).
    pub searched: usize,
    /// Positions in the book.
    pub book_positions: usize,
    /// Time since the build started.
    pub elapsed: Duration,
    /// Estimated time left for this ply.
    pub ply_eta: Option<Duration>,
    /// Rough estimate of the time left for the whole build (later plies
    /// are projected from the branching seen so far).
    pub total_eta: Option<Duration>,
}

/// What a build tells its caller while it runs.
#[derive(Debug)]
pub enum BuildEvent<'a> {
    /// A position was searched, or a ply started.
    Progress(Progress),
    /// A good moment to save the book (raw scores, not yet backed up).
    Checkpoint(&'a Book),
}

/// Why a build stopped.
#[derive(Debug)]
pub enum BuildError {
    /// The book given is of another variant.
    WrongVariant(InsertError),
    /// The worker threads could not be started.
    Threads(String),
    /// The oracle gave a move the book refused.
    Oracle(InsertError),
    /// The caller's event handler failed (a checkpoint could not be saved).
    Event(BookError),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::WrongVariant(e) => write!(f, "{e}"),
            BuildError::Threads(why) => write!(f, "cannot start the book threads: {why}"),
            BuildError::Oracle(e) => write!(f, "the search gave a move the book refuses: {e}"),
            BuildError::Event(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for BuildError {}

/// The book moves kept from a position's scored moves, best first.
fn select<R: Rules>(
    mut scored: Vec<ScoredMove>,
    full: bool,
    config: &BuildConfig,
) -> Vec<BookMove> {
    scored.sort_by_key(|s| std::cmp::Reverse(s.score));
    let best = scored.first().map_or(0, |s| s.score);
    let keep =
        |s: &ScoredMove| full || i64::from(s.score) >= i64::from(best) - i64::from(config.margin);
    let limit = if full {
        usize::MAX
    } else {
        config.width.max(1)
    };
    scored
        .into_iter()
        .filter(keep)
        .take(limit)
        .map(|s| BookMove {
            score: Some(s.score),
            depth: Some(s.depth),
            ..BookMove::new::<R>(s.mv)
        })
        .collect()
}

/// Running averages for the estimates.
#[derive(Default)]
struct Estimate {
    searched: usize,
    busy: Duration,
    full_nodes: usize,
    full_moves: usize,
    narrow_nodes: usize,
    narrow_moves: usize,
}

impl Estimate {
    fn branching(&self, full: bool, width: usize) -> f64 {
        let narrow = if self.narrow_nodes > 0 {
            self.narrow_moves as f64 / self.narrow_nodes as f64
        } else {
            width.min(2) as f64
        };
        if full && self.full_nodes > 0 {
            self.full_moves as f64 / self.full_nodes as f64
        } else {
            narrow
        }
    }
}

/// Grows `book` (empty, or a partial book to resume) by the oracle, which
/// scores the best `lines` moves of a position (best first; `usize::MAX`
/// asks for every legal move). `events` hears progress and checkpoints.
pub fn build<R, F>(
    mut book: Book,
    config: &BuildConfig,
    oracle: F,
    events: &mut dyn FnMut(BuildEvent<'_>) -> Result<(), BookError>,
) -> Result<Book, BuildError>
where
    R: Rules,
    F: Fn(&Position<R>, usize) -> Vec<ScoredMove> + Sync,
{
    if book.variant() != R::KIND {
        return Err(BuildError::WrongVariant(InsertError::WrongVariant {
            book: book.variant(),
            position: R::KIND,
        }));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.max(1))
        .stack_size(STACK)
        .thread_name(|i| format!("book-{i}"))
        .build()
        .map_err(|e| BuildError::Threads(e.to_string()))?;
    let started = Instant::now();
    let start = Position::<R>::start();
    let mut ply_of: HashMap<String, u32> = HashMap::from([(to_hub(&start), 0)]);
    let mut level: Vec<Position<R>> = if start.legal_moves().is_empty() {
        Vec::new()
    } else {
        vec![start]
    };
    let mut estimate = Estimate::default();
    let mut last_checkpoint = Instant::now();
    for ply in 0..config.plies {
        if level.is_empty() {
            break;
        }
        let full = ply < config.full_plies;
        let lines = if full {
            usize::MAX
        } else {
            config.width.max(1)
        };
        let todo: Vec<Position<R>> = level
            .iter()
            .filter(|p| book.probe(*p).is_none())
            .copied()
            .collect();
        let ply_started = Instant::now();
        let progress = |done: usize, book: &Book, estimate: &Estimate| {
            let remaining = (todo.len() - done) as f64;
            let per = (estimate.searched > 0)
                .then(|| estimate.busy.as_secs_f64() / estimate.searched as f64);
            // An estimate too large for a Duration (a deep, wide build
            // projected from little) is given as unknown.
            let ply_eta = (done > 0)
                .then(|| {
                    Duration::try_from_secs_f64(
                        ply_started.elapsed().as_secs_f64() / done as f64 * remaining,
                    )
                    .ok()
                })
                .flatten();
            let mut n = level.len() as f64;
            let mut later = 0.0;
            for k in ply + 1..config.plies {
                n *= estimate.branching(k - 1 < config.full_plies, config.width);
                later += n;
            }
            let total_eta = per.and_then(|p| {
                Duration::try_from_secs_f64(
                    ply_eta.map_or(p * remaining, |d| d.as_secs_f64()) + p * later,
                )
                .ok()
            });
            Progress {
                ply,
                plies: config.plies,
                done,
                todo: todo.len(),
                searched: estimate.searched,
                book_positions: book.len(),
                elapsed: started.elapsed(),
                ply_eta,
                total_eta,
            }
        };
        events(BuildEvent::Progress(progress(0, &book, &estimate))).map_err(BuildError::Event)?;
        let abort = AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<(Position<R>, Vec<ScoredMove>)>();
        let outcome = std::thread::scope(|scope| -> Result<(), BuildError> {
            let (pool, todo, oracle, abort) = (&pool, &todo, &oracle, &abort);
            scope.spawn(move || {
                pool.install(|| {
                    todo.par_iter().for_each_with(tx, |tx, pos| {
                        if abort.load(Ordering::Relaxed) {
                            return;
                        }
                        // The receiver outlives the workers; a failed send
                        // only means the build is stopping.
                        let _ = tx.send((*pos, oracle(pos, lines)));
                    });
                });
            });
            let mut done = 0;
            let mut ply_busy = Instant::now();
            for (pos, scored) in rx.iter() {
                let moves = select::<R>(scored, full, config);
                let chosen = moves.len();
                let result = book
                    .insert(&pos, moves)
                    .map_err(BuildError::Oracle)
                    .and_then(|()| {
                        done += 1;
                        estimate.searched += 1;
                        estimate.busy += ply_busy.elapsed();
                        ply_busy = Instant::now();
                        if full {
                            estimate.full_nodes += 1;
                            estimate.full_moves += chosen;
                        } else {
                            estimate.narrow_nodes += 1;
                            estimate.narrow_moves += chosen;
                        }
                        events(BuildEvent::Progress(progress(done, &book, &estimate)))
                            .map_err(BuildError::Event)?;
                        if last_checkpoint.elapsed() >= config.checkpoint_every {
                            last_checkpoint = Instant::now();
                            events(BuildEvent::Checkpoint(&book)).map_err(BuildError::Event)?;
                        }
                        Ok(())
                    });
                if let Err(e) = result {
                    abort.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
            Ok(())
        });
        outcome?;
        last_checkpoint = Instant::now();
        events(BuildEvent::Checkpoint(&book)).map_err(BuildError::Event)?;
        let mut next = Vec::new();
        for pos in &level {
            for m in book.probe(pos).unwrap_or(&[]) {
                if m.weight == 0 {
                    continue;
                }
                let child = pos.play(m.mv);
                let hub = to_hub(&child);
                if ply_of.contains_key(&hub) || child.legal_moves().is_empty() {
                    continue;
                }
                ply_of.insert(hub, ply + 1);
                next.push(child);
            }
        }
        next.sort_by_cached_key(to_hub);
        level = next;
    }
    back_up::<R>(&mut book);
    // Unreached entries share one key, so the stable sort keeps their order.
    book.sort_entries_by_key(|e| match ply_of.get(&e.position) {
        Some(&ply) => (ply, e.position.clone()),
        None => (u32::MAX, String::new()),
    });
    Ok(book)
}

/// Where the depth-first walk of `back_up` stands with an entry.
#[derive(Clone, Copy, PartialEq)]
enum Visit {
    New,
    Open,
    Done(Option<(i32, u32)>),
}

/// Backs scores up through the book by negamax: a move whose resulting
/// position is in the book gets the negated value of that position (the
/// score of its best scored move) and its depth plus one; other moves keep
/// their own. Moves are re-ranked. A cycle (possible only with kings) is
/// cut where the walk meets a position it is still inside.
pub fn back_up<R: Rules>(book: &mut Book) {
    let children: Vec<Vec<Option<usize>>> = book
        .entries
        .iter()
        .map(|e| match parse_hub::<R>(&e.position) {
            Ok(pos) => e
                .moves
                .iter()
                .map(|m| book.index.get(&to_hub(&pos.play(m.mv))).copied())
                .collect(),
            Err(_) => vec![None; e.moves.len()],
        })
        .collect();
    let mut visit = vec![Visit::New; book.entries.len()];
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in 0..book.entries.len() {
        if visit[root] != Visit::New {
            continue;
        }
        visit[root] = Visit::Open;
        stack.push((root, 0));
        while let Some(top) = stack.last_mut() {
            let (i, k) = *top;
            if k < children[i].len() {
                top.1 += 1;
                if let Some(c) = children[i][k] {
                    if visit[c] == Visit::New {
                        visit[c] = Visit::Open;
                        stack.push((c, 0));
                    }
                }
                continue;
            }
            let moves = &mut book.entries[i].moves;
            for (m, child) in moves.iter_mut().zip(&children[i]) {
                if let Some(Visit::Done(Some((score, depth)))) = child.map(|c| visit[c]) {
                    m.score = Some(-score);
                    m.depth = Some(depth.saturating_add(1));
                }
            }
            moves.sort_by(rank);
            let best = moves
                .first()
                .and_then(|m| m.score.map(|s| (s, m.depth.unwrap_or(0))));
            visit[i] = Visit::Done(best);
            stack.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Brazilian, VariantKind};

    /// A fake oracle: scores a move by its destination square number, so
    /// the best moves are known without searching.
    fn by_square(pos: &Position<Brazilian>, lines: usize) -> Vec<ScoredMove> {
        let mut out: Vec<ScoredMove> = pos
            .legal_moves()
            .iter()
            .map(|&mv| ScoredMove {
                mv,
                score: (mv.to().index() % 7) as i32,
                depth: 3,
            })
            .collect();
        out.sort_by_key(|s| std::cmp::Reverse(s.score));
        out.truncate(lines);
        out
    }

    fn config(plies: u32) -> BuildConfig {
        BuildConfig {
            plies,
            full_plies: 1,
            width: 2,
            margin: 1,
            threads: 2,
            checkpoint_every: Duration::ZERO,
        }
    }

    #[test]
    fn a_build_covers_its_plies_and_backs_scores_up() {
        let mut checkpoints = 0;
        let book = build::<Brazilian, _>(
            Book::new(VariantKind::Brazilian),
            &config(4),
            by_square,
            &mut |e| {
                if matches!(e, BuildEvent::Checkpoint(_)) {
                    checkpoints += 1;
                }
                Ok(())
            },
        )
        .expect("build");
        assert!(checkpoints >= 4);
        let start = Position::<Brazilian>::start();
        let first = book.probe(&start).expect("start in book");
        assert_eq!(first.len(), start.legal_moves().len());
        // Every position along book moves up to ply 3 is in the book, and
        // every scored move that leads into the book carries the negated
        // value of the position it leads to.
        let mut level = vec![start];
        for _ in 0..4 {
            let mut next = Vec::new();
            for pos in &level {
                for m in book.probe(pos).expect("covered") {
                    let child = pos.play(m.mv);
                    if let Some(reply) = book.probe(&child) {
                        assert_eq!(m.score, reply[0].score.map(|s| -s));
                        assert_eq!(m.depth, reply[0].depth.map(|d| d + 1));
                    }
                    next.push(child);
                }
            }
            level = next;
        }
        assert_eq!(book.entries()[0].position, to_hub(&start));
    }

    #[test]
    fn resuming_searches_only_what_is_missing_and_gives_the_same_book() {
        let whole = build::<Brazilian, _>(
            Book::new(VariantKind::Brazilian),
            &config(3),
            by_square,
            &mut |_| Ok(()),
        )
        .expect("build");
        // Stop a build after its first checkpoint past ply 1, then resume.
        let mut partial = None;
        let stopped = build::<Brazilian, _>(
            Book::new(VariantKind::Brazilian),
            &config(3),
            by_square,
            &mut |e| match e {
                BuildEvent::Checkpoint(b) if b.len() > 3 => {
                    partial = Some(b.clone());
                    Err(BookError {
                        source: "test".to_string(),
                        line: 0,
                        kind: super::super::BookErrorKind::Io("stop".to_string()),
                    })
                }
                _ => Ok(()),
            },
        );
        assert!(matches!(stopped, Err(BuildError::Event(_))));
        let partial = partial.expect("a checkpoint");
        let already = partial.len();
        let searched = std::sync::atomic::AtomicUsize::new(0);
        let resumed = build::<Brazilian, _>(
            partial,
            &config(3),
            |p: &Position<Brazilian>, l| {
                searched.fetch_add(1, Ordering::Relaxed);
                by_square(p, l)
            },
            &mut |_| Ok(()),
        )
        .expect("resume");
        assert_eq!(searched.into_inner() + already, whole.len());
        assert_eq!(resumed, whole);
    }
}
