//! The opening book: positions with the moves to play in them.
//!
//! A book belongs to one variant and maps positions to book moves. Each
//! book move carries an optional score (hundredths of a man, from the
//! mover's view), an optional depth (plies the score looks ahead from the
//! position) and a weight (how much it is to be played; 0 = known but never
//! chosen). The text form is in `format.rs`, the builder in `build.rs`,
//! game counting in `games.rs`.
//!
//! Invariants:
//! - every stored move is legal in its position (checked when a book is
//!   read or an entry inserted);
//! - positions are keyed by their Hub position string, so reading and
//!   probing never depend on the order in which moves are generated;
//! - the moves of an entry are kept ranked, best first (`rank`): by score
//!   (a move with a score before one without), then weight, then move text;
//! - no position appears twice, no move twice in one position.
//!
//! Depends only on `rules`.

mod build;
mod format;
mod games;

use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use once_cell::sync::OnceCell;

use crate::rules::notation::{format_move, to_hub};
use crate::rules::{Move, MoveStyle, Position, Rules, VariantKind};

pub use build::{back_up, build, BuildConfig, BuildEvent, Progress, ScoredMove};
pub use format::{BookError, BookErrorKind, FORMAT_VERSION};
pub use games::{add_game, GameOutcome};

/// One move of a book position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// The move in Hub long form (`32-28`, `28x19x23`).
    pub text: String,
    /// Its score in hundredths of a man, from the mover's view.
    pub score: Option<i32>,
    /// How many plies ahead of the position the score looks.
    pub depth: Option<u32>,
    /// How much it is to be played; 0 = never chosen.
    pub weight: u32,
}

impl BookMove {
    /// A book move of variant `R` with no score, no depth and weight 1.
    pub fn new<R: Rules>(mv: Move) -> BookMove {
        BookMove {
            mv,
            text: format_move::<R>(mv, MoveStyle::Hub),
            score: None,
            depth: None,
            weight: 1,
        }
    }
}

/// Orders two book moves, best first: higher score (a score before none),
/// then higher weight, then the move text.
pub fn rank(a: &BookMove, b: &BookMove) -> Ordering {
    let by_score = match (a.score, b.score) {
        (Some(x), Some(y)) => y.cmp(&x),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    };
    by_score
        .then(b.weight.cmp(&a.weight))
        .then_with(|| a.text.cmp(&b.text))
}

/// A position of the book and its moves, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position as a Hub position string.
    pub position: String,
    /// The book moves, ranked best first.
    pub moves: Vec<BookMove>,
}

/// Why an entry could not be inserted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InsertError {
    /// The book is of another variant.
    WrongVariant {
        /// The book's variant.
        book: VariantKind,
        /// The position's variant.
        position: VariantKind,
    },
    /// A move that is not legal in the position.
    IllegalMove(String),
    /// The same move twice.
    DuplicateMove(String),
}

impl fmt::Display for InsertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InsertError::WrongVariant { book, position } => {
                write!(f, "a {position} position cannot go into a {book} book")
            }
            InsertError::IllegalMove(m) => write!(f, "'{m}' is not a legal move here"),
            InsertError::DuplicateMove(m) => write!(f, "move '{m}' is given twice"),
        }
    }
}

impl std::error::Error for InsertError {}

/// An opening book of one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    variant: VariantKind,
    /// Entries in book order (the order they are written in).
    entries: Vec<Entry>,
    /// Hub position string → index in `entries`.
    index: HashMap<String, usize>,
}

impl Book {
    /// An empty book of `variant`.
    pub fn new(variant: VariantKind) -> Book {
        Book {
            variant,
            entries: Vec::new(),
            index: HashMap::new(),
        }
    }

    /// The book's variant.
    pub fn variant(&self) -> VariantKind {
        self.variant
    }

    /// How many positions the book holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many moves the book holds, over all positions.
    pub fn move_count(&self) -> usize {
        self.entries.iter().map(|e| e.moves.len()).sum()
    }

    /// The entries in book order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The moves of `pos`, best first; `None` when the position is not in
    /// the book or the book is of another variant.
    pub fn probe<R: Rules>(&self, pos: &Position<R>) -> Option<&[BookMove]> {
        if R::KIND != self.variant {
            return None;
        }
        self.get(&to_hub(pos))
    }

    /// The moves stored under a Hub position string.
    fn get(&self, hub: &str) -> Option<&[BookMove]> {
        self.index
            .get(hub)
            .map(|&i| self.entries[i].moves.as_slice())
    }

    /// Sets the moves of `pos`, replacing any it had; the entry keeps its
    /// place in the book, or goes last when new. Every move must be legal
    /// and given once.
    pub fn insert<R: Rules>(
        &mut self,
        pos: &Position<R>,
        mut moves: Vec<BookMove>,
    ) -> Result<(), InsertError> {
        if R::KIND != self.variant {
            return Err(InsertError::WrongVariant {
                book: self.variant,
                position: R::KIND,
            });
        }
        let legal = pos.legal_moves();
        for (i, m) in moves.iter().enumerate() {
            if !legal.contains(m.mv) {
                return Err(InsertError::IllegalMove(m.text.clone()));
            }
            if moves[..i].iter().any(|other| other.mv == m.mv) {
                return Err(InsertError::DuplicateMove(m.text.clone()));
            }
        }
        moves.sort_by(rank);
        let position = to_hub(pos);
        match self.index.get(&position) {
            Some(&i) => self.entries[i].moves = moves,
            None => {
                self.index.insert(position.clone(), self.entries.len());
                self.entries.push(Entry { position, moves });
            }
        }
        Ok(())
    }

    /// Puts the entries in a new order given by `key` (stable), for writing.
    pub fn sort_entries_by_key<K: Ord>(&mut self, mut key: impl FnMut(&Entry) -> K) {
        self.entries.sort_by_cached_key(|e| key(e));
        self.index = self
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.position.clone(), i))
            .collect();
    }

    /// The move to play in `pos`, or `None` when the book has no playable
    /// move there.
    ///
    /// Only moves of weight > 0 are playable. With `margin` = 0 the best
    /// playable move is chosen. Otherwise the candidates are the playable
    /// moves whose score is within `margin` hundredths of a man of the best
    /// one's (when the best has no score, every playable move), and one is
    /// drawn with probability proportional to its weight, using `random`.
    pub fn choose<R: Rules>(
        &self,
        pos: &Position<R>,
        margin: u32,
        random: u64,
    ) -> Option<&BookMove> {
        let moves = self.probe(pos)?;
        let mut playable = moves.iter().filter(|m| m.weight > 0);
        let best = playable.next()?;
        if margin == 0 {
            return Some(best);
        }
        let candidates: Vec<&BookMove> = moves
            .iter()
            .filter(|m| m.weight > 0)
            .filter(|m| match (best.score, m.score) {
                (Some(b), Some(s)) => i64::from(s) >= i64::from(b) - i64::from(margin),
                (Some(_), None) => false,
                (None, _) => true,
            })
            .collect();
        let total: u64 = candidates.iter().map(|m| u64::from(m.weight)).sum();
        let mut ticket = random % total.max(1);
        for m in &candidates {
            let w = u64::from(m.weight);
            if ticket < w {
                return Some(m);
            }
            ticket -= w;
        }
        Some(best)
    }
}

/// Where the shipped book of a variant lives in the source tree (the text
/// is built into the binary); `None` for the variants without one.
pub fn shipped_path(kind: VariantKind) -> Option<&'static str> {
    match kind {
        VariantKind::International => Some("books/international.book"),
        VariantKind::Brazilian => Some("books/brazilian.book"),
        _ => None,
    }
}

/// The text of the shipped book of a variant: an empty book for the
/// variants without one.
fn shipped_text(kind: VariantKind) -> &'static str {
    match kind {
        VariantKind::International => include_str!("../../books/international.book"),
        VariantKind::Brazilian => include_str!("../../books/brazilian.book"),
        _ => "",
    }
}

/// Reads a book text of `kind`; `source` names it in errors.
pub fn parse_for(kind: VariantKind, text: &str, source: &str) -> Result<Book, BookError> {
    crate::rules::with_rules!(kind, R => Book::parse::<R>(text, source))
}

/// Reads a book file of `kind`.
pub fn read_file_for(kind: VariantKind, path: &std::path::Path) -> Result<Book, BookError> {
    crate::rules::with_rules!(kind, R => Book::read_file::<R>(path))
}

/// The shipped book of a variant (empty for a variant without one), read
/// once per process.
pub fn shipped(kind: VariantKind) -> Result<Arc<Book>, BookError> {
    static BOOKS: [OnceCell<Result<Arc<Book>, BookError>>; VariantKind::ALL.len()] =
        [const { OnceCell::new() }; VariantKind::ALL.len()];
    BOOKS[kind.index()]
        .get_or_init(|| {
            let Some(path) = shipped_path(kind) else {
                return Ok(Arc::new(Book::new(kind)));
            };
            let source = format!("{path} (built in)");
            parse_for(kind, shipped_text(kind), &source).map(Arc::new)
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_move;
    use crate::rules::International;

    fn mv(pos: &Position<International>, text: &str, score: Option<i32>, weight: u32) -> BookMove {
        let m = parse_move(pos, text).expect("legal");
        BookMove {
            score,
            weight,
            ..BookMove::new::<International>(m)
        }
    }

    fn sample() -> (Position<International>, Book) {
        let pos = Position::<International>::start();
        let mut book = Book::new(VariantKind::International);
        book.insert(
            &pos,
            vec![
                mv(&pos, "33-28", Some(2), 1),
                mv(&pos, "32-28", Some(5), 1),
                mv(&pos, "34-29", Some(-20), 1),
                mv(&pos, "31-27", Some(4), 0),
                mv(&pos, "35-30", None, 9),
            ],
        )
        .expect("insert");
        (pos, book)
    }

    #[test]
    fn moves_are_ranked_by_score_then_weight_then_text() {
        let (pos, book) = sample();
        let texts: Vec<&str> = book
            .probe(&pos)
            .expect("in book")
            .iter()
            .map(|m| m.text.as_str())
            .collect();
        assert_eq!(texts, ["32-28", "31-27", "33-28", "34-29", "35-30"]);
    }

    #[test]
    fn margin_zero_always_gives_the_best_and_a_margin_only_close_moves() {
        let (pos, book) = sample();
        for r in 0..50 {
            assert_eq!(book.choose(&pos, 0, r).expect("move").text, "32-28");
        }
        let mut seen: Vec<&str> = (0..200)
            .map(|r| book.choose(&pos, 3, r).expect("move").text.as_str())
            .collect();
        seen.sort_unstable();
        seen.dedup();
        // 31-27 is within the margin but has weight 0; 34-29 is too far.
        assert_eq!(seen, ["32-28", "33-28"]);
    }

    #[test]
    fn unscored_books_choose_by_weight() {
        let pos = Position::<International>::start();
        let mut book = Book::new(VariantKind::International);
        book.insert(
            &pos,
            vec![mv(&pos, "32-28", None, 3), mv(&pos, "33-28", None, 1)],
        )
        .expect("insert");
        let picks: Vec<&str> = (0..4)
            .map(|r| book.choose(&pos, 1, r).expect("move").text.as_str())
            .collect();
        assert_eq!(picks, ["32-28", "32-28", "32-28", "33-28"]);
    }

    #[test]
    fn inserting_refuses_illegal_and_repeated_moves_and_other_variants() {
        let pos = Position::<International>::start();
        let after = pos.play(parse_move(&pos, "32-28").expect("legal"));
        let mut book = Book::new(VariantKind::International);
        let m = mv(&pos, "32-28", None, 1);
        assert_eq!(
            book.insert(&after, vec![m.clone()]),
            Err(InsertError::IllegalMove("32-28".to_string()))
        );
        assert_eq!(
            book.insert(&pos, vec![m.clone(), m]),
            Err(InsertError::DuplicateMove("32-28".to_string()))
        );
        let mut brazilian = Book::new(VariantKind::Brazilian);
        assert!(matches!(
            brazilian.insert(&pos, vec![]),
            Err(InsertError::WrongVariant { .. })
        ));
        assert!(brazilian.probe(&pos).is_none());
    }
}
