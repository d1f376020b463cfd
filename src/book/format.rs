//! The book's text form: one line per position, made to be read and
//! diffed by a person.
//!
//! ```text
//! # comments and blank lines are ignored anywhere
//! tempo-book 1 variant=international
//! <position> | <move> score=<men> depth=<plies> weight=<n> | <move> ...
//! ...
//! end <number of positions>
//! ```
//!
//! - `<position>`: a Hub position string (side to move first) or a PDN FEN;
//!   written as a Hub string.
//! - `<move>`: Hub or PDN notation, matched against the legal moves of the
//!   position (never by generation order); written in Hub long form.
//! - `score` in men with at most two decimals (`0.05`, `-0.10`), from the
//!   mover's view; `depth` in plies; `weight` a whole number, 1 when not
//!   given. Each field is optional and given at most once.
//! - The moves of a line are written best first and read in any order.
//! - The `end` line is mandatory and counts the positions: a file cut short
//!   has none (or a wrong count) and is refused as truncated.
//!
//! Reading is strict: the first problem makes the whole read fail with a
//! `BookError` naming the source, the line and what is wrong; nothing of a
//! bad file is used.

use std::collections::HashMap;
use std::fmt;
use std::fmt::Write as _;
use std::path::Path;

use super::{Book, BookMove, InsertError};
use crate::rules::notation::{parse_move, parse_position, to_hub};
use crate::rules::{Rules, VariantKind};

/// The version written in, and required of, the header line.
pub const FORMAT_VERSION: u32 = 1;

/// Largest score accepted, in hundredths of a man (±1000 men).
const MAX_SCORE: i64 = 100_000;

/// What is wrong with a book file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookErrorKind {
    /// The file could not be read or written.
    Io(String),
    /// No `tempo-book` header before the first position.
    MissingHeader,
    /// A header that does not read `tempo-book 1 variant=<name>`.
    BadHeader(String),
    /// A book of another variant.
    WrongVariant {
        /// The variant asked for.
        expected: VariantKind,
        /// The variant the header names.
        found: String,
    },
    /// A position that is neither a Hub position string nor a FEN of the
    /// variant.
    BadPosition {
        /// The text.
        text: String,
        /// Why it was refused.
        why: String,
    },
    /// A move that cannot be read or is not legal in its position.
    BadMove {
        /// The text.
        text: String,
        /// Why it was refused.
        why: String,
    },
    /// A field that is not `score=`, `depth=` or `weight=` with a good value.
    BadField(String),
    /// A position line without moves.
    NoMoves,
    /// A position given a second time.
    DuplicatePosition {
        /// The line where it was first given.
        first: usize,
    },
    /// A move given twice in one position.
    DuplicateMove(String),
    /// The file holds nothing but blank lines and comments.
    Empty,
    /// The file stops before its `end` line.
    Truncated,
    /// The `end` line counts another number of positions.
    CountMismatch {
        /// The number on the `end` line.
        declared: String,
        /// The positions read.
        found: usize,
    },
    /// Something other than comments after the `end` line.
    TextAfterEnd,
}

impl fmt::Display for BookErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookErrorKind::Io(why) => f.write_str(why),
            BookErrorKind::MissingHeader => write!(
                f,
                "not a book file: a book starts with the header 'tempo-book {FORMAT_VERSION} variant=<name>'"
            ),
            BookErrorKind::BadHeader(text) => write!(
                f,
                "bad header '{text}': expected 'tempo-book {FORMAT_VERSION} variant=<name>'"
            ),
            BookErrorKind::WrongVariant { expected, found } => {
                write!(f, "this is a '{found}' book, not a {expected} one")
            }
            BookErrorKind::BadPosition { text, why } => {
                write!(f, "bad position '{text}': {why}")
            }
            BookErrorKind::BadMove { text, why } => write!(f, "bad move '{text}': {why}"),
            BookErrorKind::BadField(text) => write!(
                f,
                "bad field '{text}': expected score=<men, 2 decimals at most>, depth=<plies> or weight=<n>, each once"
            ),
            BookErrorKind::NoMoves => f.write_str("a position without moves"),
            BookErrorKind::DuplicatePosition { first } => {
                write!(f, "the position is already given on line {first}")
            }
            BookErrorKind::DuplicateMove(m) => write!(f, "move '{m}' is given twice"),
            BookErrorKind::Empty => f.write_str(
                "the file is empty: a book starts with a 'tempo-book' line (tempo book build or add-pdn writes one)",
            ),
            BookErrorKind::Truncated => {
                f.write_str("the file ends without its 'end' line: it is truncated")
            }
            BookErrorKind::CountMismatch { declared, found } => write!(
                f,
                "the 'end' line says '{declared}' positions but {found} were read: the file is truncated or edited"
            ),
            BookErrorKind::TextAfterEnd => f.write_str("text after the 'end' line"),
        }
    }
}

/// A book that could not be read: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError {
    /// The file (or other source) name.
    pub source: String,
    /// The 1-based line, 0 when the problem is not on a line.
    pub line: usize,
    /// What is wrong.
    pub kind: BookErrorKind,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.source, self.kind)
        } else {
            write!(f, "{}:{}: {}", self.source, self.line, self.kind)
        }
    }
}

impl std::error::Error for BookError {}

/// Writes a score in men with two decimals, from hundredths of a man.
fn format_score(centimen: i32) -> String {
    let sign = if centimen < 0 { "-" } else { "" };
    let a = centimen.unsigned_abs();
    format!("{sign}{}.{:02}", a / 100, a % 100)
}

/// Reads a score in men with at most two decimals into hundredths.
fn parse_score(text: &str) -> Option<i32> {
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (whole, fraction) = body.split_once('.').unwrap_or((body, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || whole.len() > 6 || fraction.len() > 2 || !digits(whole) {
        return None;
    }
    if !digits(fraction) || (body.contains('.') && fraction.is_empty()) {
        return None;
    }
    let mut value: i64 = whole.parse().ok()?;
    value *= 100;
    if !fraction.is_empty() {
        let f: i64 = fraction.parse().ok()?;
        value += if fraction.len() == 1 { f * 10 } else { f };
    }
    if value > MAX_SCORE {
        return None;
    }
    let value = if negative { -value } else { value };
    i32::try_from(value).ok()
}

/// Reads one move item: the move, then its fields.
fn parse_item<R: Rules>(
    pos: &crate::rules::Position<R>,
    item: &str,
) -> Result<BookMove, BookErrorKind> {
    let mut words = item.split_whitespace();
    let text = words.next().ok_or(BookErrorKind::BadMove {
        text: String::new(),
        why: "an empty move between two '|'".to_string(),
    })?;
    let mv = parse_move(pos, text).map_err(|e| BookErrorKind::BadMove {
        text: text.to_string(),
        why: e.to_string(),
    })?;
    let mut book_move = BookMove::new::<R>(mv);
    let (mut score, mut depth, mut weight) = (false, false, false);
    for word in words {
        let bad = || BookErrorKind::BadField(word.to_string());
        let (name, value) = word.split_once('=').ok_or_else(bad)?;
        match name {
            "score" if !score => {
                score = true;
                book_move.score = Some(parse_score(value).ok_or_else(bad)?);
            }
            "depth" if !depth => {
                depth = true;
                book_move.depth = Some(value.parse::<u32>().map_err(|_| bad())?);
            }
            "weight" if !weight => {
                weight = true;
                book_move.weight = value.parse::<u32>().map_err(|_| bad())?;
            }
            _ => return Err(bad()),
        }
    }
    Ok(book_move)
}

/// Reads the header line; `Ok(())` when it names `R`'s variant.
fn check_header<R: Rules>(line: &str) -> Result<(), BookErrorKind> {
    let bad = || BookErrorKind::BadHeader(line.to_string());
    let words: Vec<&str> = line.split_whitespace().collect();
    let [magic, version, variant] = words.as_slice() else {
        return Err(bad());
    };
    if *magic != "tempo-book" || *version != FORMAT_VERSION.to_string() {
        return Err(bad());
    }
    let name = variant.strip_prefix("variant=").ok_or_else(bad)?;
    if VariantKind::parse(name) != Some(R::KIND) {
        return Err(BookErrorKind::WrongVariant {
            expected: R::KIND,
            found: name.to_string(),
        });
    }
    Ok(())
}

impl Book {
    /// Reads a book of variant `R` from its text; `source` (a file name)
    /// names it in errors. Strict: the first problem fails the read.
    pub fn parse<R: Rules>(text: &str, source: &str) -> Result<Book, BookError> {
        let err = |line: usize, kind: BookErrorKind| BookError {
            source: source.to_string(),
            line,
            kind,
        };
        let lines: Vec<&str> = text.lines().collect();
        let meaningful = |l: &&str| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#')
        };
        // Another kind of file (a text without the header) is named as such
        // first: that it also lacks an `end` line says nothing more.
        let Some(first) = lines.iter().position(meaningful) else {
            return Err(err(lines.len().max(1), BookErrorKind::Empty));
        };
        if !lines[first].trim().starts_with("tempo-book") {
            return Err(err(first + 1, BookErrorKind::MissingHeader));
        }
        // A file cut short has lost its `end` line: say so, at its last line,
        // before whatever the cut did to that line.
        let end_at = lines
            .iter()
            .rposition(|l| meaningful(l) && l.split_whitespace().next() == Some("end"));
        let Some(end_at) = end_at else {
            return Err(err(lines.len().max(1), BookErrorKind::Truncated));
        };
        if let Some(after) = lines[end_at + 1..].iter().position(meaningful) {
            return Err(err(end_at + after + 2, BookErrorKind::TextAfterEnd));
        }
        let mut book = Book::new(R::KIND);
        let mut line_of: HashMap<String, usize> = HashMap::new();
        let mut header = false;
        for (i, raw) in lines[..end_at].iter().enumerate() {
            let number = i + 1;
            let line = raw.trim();
            if !meaningful(&line) {
                continue;
            }
            if !header {
                if line.starts_with("tempo-book") {
                    check_header::<R>(line).map_err(|k| err(number, k))?;
                    header = true;
                    continue;
                }
                return Err(err(number, BookErrorKind::MissingHeader));
            }
            let mut parts = line.split('|');
            let position_text = parts.next().unwrap_or("").trim();
            let pos = parse_position::<R>(position_text).map_err(|e| {
                err(
                    number,
                    BookErrorKind::BadPosition {
                        text: position_text.to_string(),
                        why: e.to_string(),
                    },
                )
            })?;
            let moves = parts
                .map(|item| parse_item(&pos, item))
                .collect::<Result<Vec<BookMove>, _>>()
                .map_err(|k| err(number, k))?;
            if moves.is_empty() {
                return Err(err(number, BookErrorKind::NoMoves));
            }
            let hub = to_hub(&pos);
            if let Some(&first) = line_of.get(&hub) {
                return Err(err(number, BookErrorKind::DuplicatePosition { first }));
            }
            book.insert(&pos, moves).map_err(|e| {
                err(
                    number,
                    match e {
                        InsertError::DuplicateMove(m) => BookErrorKind::DuplicateMove(m),
                        InsertError::IllegalMove(m) => BookErrorKind::BadMove {
                            text: m,
                            why: "not legal here".to_string(),
                        },
                        other @ InsertError::WrongVariant { .. } => BookErrorKind::BadPosition {
                            text: position_text.to_string(),
                            why: other.to_string(),
                        },
                    },
                )
            })?;
            line_of.insert(hub, number);
        }
        if !header {
            return Err(err(end_at + 1, BookErrorKind::MissingHeader));
        }
        let end_line = lines[end_at].trim();
        let declared = end_line["end".len()..].trim();
        if declared.parse::<usize>() != Ok(book.len()) {
            return Err(err(
                end_at + 1,
                BookErrorKind::CountMismatch {
                    declared: declared.to_string(),
                    found: book.len(),
                },
            ));
        }
        Ok(book)
    }

    /// Reads a book file of variant `R`.
    pub fn read_file<R: Rules>(path: &Path) -> Result<Book, BookError> {
        let source = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| BookError {
            source: source.clone(),
            line: 0,
            kind: BookErrorKind::Io(format!("cannot read the book: {e}")),
        })?;
        Book::parse::<R>(&text, &source)
    }

    /// The book as text: a short description of the format, then `notes`
    /// as comment lines, the header, one line per position in book order,
    /// and the `end` line.
    pub fn to_text(&self, notes: &[String]) -> String {
        let mut out = String::new();
        out.push_str("# tempo opening book (format: protocol.md, \"Opening books\").\n");
        out.push_str(
            "# <position> | <move> score=<men, mover's view> depth=<plies> weight=<n> | ...\n",
        );
        for note in notes {
            for line in note.lines() {
                let _ = writeln!(out, "# {line}");
            }
        }
        let _ = writeln!(
            out,
            "tempo-book {FORMAT_VERSION} variant={}",
            self.variant.name()
        );
        for entry in &self.entries {
            out.push_str(&entry.position);
            for m in &entry.moves {
                out.push_str(" | ");
                out.push_str(&m.text);
                if let Some(s) = m.score {
                    let _ = write!(out, " score={}", format_score(s));
                }
                if let Some(d) = m.depth {
                    let _ = write!(out, " depth={d}");
                }
                let _ = write!(out, " weight={}", m.weight);
            }
            out.push('\n');
        }
        let _ = writeln!(out, "end {}", self.entries.len());
        out
    }

    /// Writes the book to `path` through a temporary file renamed into
    /// place, so a reader never sees half a book.
    pub fn write_file(&self, path: &Path, notes: &[String]) -> Result<(), BookError> {
        let io = |e: std::io::Error| BookError {
            source: path.display().to_string(),
            line: 0,
            kind: BookErrorKind::Io(format!("cannot write the book: {e}")),
        };
        crate::files::replace(path, self.to_text(notes).as_bytes()).map_err(io)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_round_trip_through_text() {
        for c in [0, 5, -5, 10, -10, 99, 100, -101, 12345, -29_990] {
            assert_eq!(parse_score(&format_score(c)), Some(c), "{c}");
        }
        assert_eq!(parse_score("0.1"), Some(10));
        assert_eq!(parse_score("+1"), Some(100));
        assert_eq!(parse_score("-0.07"), Some(-7));
        for bad in [
            "", "-", ".5", "1.", "0.123", "1e3", "nan", "1.-2", "2000", " 1",
        ] {
            assert_eq!(parse_score(bad), None, "{bad}");
        }
    }
}
