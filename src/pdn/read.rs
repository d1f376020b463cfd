//! Reading PDN (Portable Draughts Notation) files: the games of a text, each
//! as its tags, its main-line move texts and its result.
//!
//! The reader works on text alone and knows no rules: it does not check that
//! a move is legal, only that it looks like a move (squares, as numbers or
//! coordinates, joined by `-`, `x` or `:`). Replaying the moves is the
//! caller's work, with `rules::notation::parse_move`.
//!
//! Tolerated and dropped: `{comments}` (over several lines), `;` comments to
//! the end of the line, `%` escape lines, nested `(variations)`, NAGs (`$3`)
//! and move marks (`!`, `?`, `!?`...), move numbers (`12.`, `12...`, also
//! glued to the move as in `12.32-28`), and a byte-order mark.
//!
//! Games are separated by a result (`1-0`, `0-1`, `1/2-1/2`, `2-0`, `0-2`,
//! `1-1`, `0-0`, `*`) outside any variation, or by a tag that follows
//! movetext. A game that cannot be read (a bad tag, a word that is no move,
//! an unbalanced parenthesis, an unclosed comment) becomes one `PdnError`
//! carrying the 1-based line of the first fault; reading goes on with the
//! next game.
//!
//! Invariants of a `PdnGame`: `moves` and `move_lines` have the same length;
//! every move text is non-empty and free of move numbers and marks; `line`
//! is the line of the game's first tag or word.

use std::fmt;

use crate::rules::VariantKind;

/// The PDN `GameType` numbers of the variants, for messages.
pub const GAME_TYPES: &str = "20 International, 21 English, 22 Italian, 25 Russian, 26 Brazilian, \
     30 Turkish, 40 Frisian; Losing, Killer, Breakthrough and Frysk! by a Variant tag";

/// The PDN `GameType` number of a variant (the number of its board and
/// moves: Losing, Killer and Breakthrough share 20 or 26 and are told apart
/// by a `Variant` tag).
pub fn game_type(kind: VariantKind) -> u32 {
    match kind {
        VariantKind::International
        | VariantKind::Losing
        | VariantKind::Killer
        | VariantKind::Breakthrough => 20,
        VariantKind::English => 21,
        VariantKind::Italian => 22,
        VariantKind::Russian => 25,
        VariantKind::Brazilian | VariantKind::LosingBrazilian => 26,
        VariantKind::Frisian | VariantKind::Frysk => 40,
        VariantKind::Turkish => 30,
    }
}

/// Whether a variant's PDN needs a `Variant` tag besides its `GameType`.
pub fn needs_variant_tag(kind: VariantKind) -> bool {
    matches!(
        kind,
        VariantKind::Losing
            | VariantKind::LosingBrazilian
            | VariantKind::Killer
            | VariantKind::Breakthrough
            | VariantKind::Frysk
    )
}

/// One game of a PDN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// The tags in the order written, values unescaped.
    pub tags: Vec<(String, String)>,
    /// The main-line moves as written, without numbers, marks, comments,
    /// variations or NAGs.
    pub moves: Vec<String>,
    /// The 1-based line of each move of `moves`.
    pub move_lines: Vec<usize>,
    /// The game termination marker as written, if the game has one.
    pub result: Option<String>,
    /// The 1-based line where the game starts.
    pub line: usize,
}

impl PdnGame {
    /// The value of the first tag called `name` (case-insensitive).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The variant of the game: a `Variant` tag naming one (`losing`,
    /// `killer`, `breakthrough`, ... as `tempo` spells them), else the
    /// `GameType` tag (see [`GAME_TYPES`]; further comma-separated fields are
    /// ignored). `None` when neither names a variant tempo plays.
    pub fn variant(&self) -> Option<VariantKind> {
        if let Some(kind) = self.tag("Variant").and_then(VariantKind::parse) {
            return Some(kind);
        }
        let value = self.tag("GameType")?;
        let number: u32 = value.split(',').next()?.trim().parse().ok()?;
        VariantKind::ALL
            .into_iter()
            .find(|&kind| game_type(kind) == number && !needs_variant_tag(kind))
    }

    /// The start position from the `FEN` tag, trimmed, if there is one.
    pub fn fen(&self) -> Option<&str> {
        self.tag("FEN").map(str::trim).filter(|fen| !fen.is_empty())
    }
}

/// Why a game could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnError {
    /// The 1-based line of the fault.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for PdnError {}

/// The game termination markers.
const RESULTS: [&str; 8] = ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"];

/// A lexical unit of PDN text.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    /// `[Name "value"]`.
    Tag(String, String),
    /// `(`.
    Open,
    /// `)`.
    Close,
    /// Any other run of characters up to a space or a delimiter.
    Word(String),
    /// Text that cannot be read; the message says why.
    Bad(String),
}

/// Whether `c` ends a word.
fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';' | '$')
}

/// Splits PDN text into tokens, each with its 1-based line; comments, NAGs
/// and escape lines are dropped.
struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    at_line_start: bool,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Self {
        Lexer {
            chars: text
                .strip_prefix('\u{feff}')
                .unwrap_or(text)
                .chars()
                .peekable(),
            line: 1,
            at_line_start: true,
        }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.at_line_start = true;
        } else if !c.is_whitespace() {
            self.at_line_start = false;
        }
        Some(c)
    }

    /// Drops everything up to (not including) the next newline.
    fn skip_line(&mut self) {
        while self.chars.peek().is_some_and(|&c| c != '\n') {
            self.bump();
        }
    }

    /// Reads a tag after its `[`; on a fault, skips to the end of the line.
    fn tag(&mut self) -> Token {
        let result = self.tag_body();
        if result.is_err() {
            self.skip_line();
        }
        match result {
            Ok((name, value)) => Token::Tag(name, value),
            Err(message) => Token::Bad(message),
        }
    }

    fn tag_body(&mut self) -> Result<(String, String), String> {
        let mut name = String::new();
        while let Some(&c) = self.chars.peek() {
            if c.is_ascii_alphanumeric() || c == '_' {
                name.push(c);
                self.bump();
            } else {
                break;
            }
        }
        if name.is_empty() {
            return Err("a tag must start with a name, as in [Event \"...\"]".into());
        }
        self.skip_blanks();
        if self.chars.peek() != Some(&'"') {
            return Err(format!("tag '{name}' has no quoted value"));
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.chars.peek().copied() {
                None | Some('\n') => {
                    return Err(format!("the value of tag '{name}' is not closed"))
                }
                Some('\\') => {
                    self.bump();
                    match self.chars.peek().copied() {
                        Some(c @ ('"' | '\\')) => {
                            value.push(c);
                            self.bump();
                        }
                        _ => value.push('\\'),
                    }
                }
                Some('"') => {
                    self.bump();
                    break;
                }
                Some(c) => {
                    value.push(c);
                    self.bump();
                }
            }
        }
        self.skip_blanks();
        if self.chars.peek() != Some(&']') {
            return Err(format!("tag '{name}' is not closed by ']'"));
        }
        self.bump();
        Ok((name, value))
    }

    /// Skips spaces and tabs, not newlines.
    fn skip_blanks(&mut self) {
        while self.chars.peek().is_some_and(|&c| c == ' ' || c == '\t') {
            self.bump();
        }
    }
}

impl Iterator for Lexer<'_> {
    type Item = (usize, Token);

    fn next(&mut self) -> Option<(usize, Token)> {
        loop {
            let line_start = self.at_line_start;
            let c = *self.chars.peek()?;
            let line = self.line;
            match c {
                c if c.is_whitespace() => {
                    self.bump();
                }
                '%' if line_start => self.skip_line(),
                ';' => self.skip_line(),
                '{' => {
                    self.bump();
                    loop {
                        match self.bump() {
                            Some('}') => break,
                            Some(_) => {}
                            None => {
                                return Some((
                                    line,
                                    Token::Bad("comment '{' is never closed".into()),
                                ))
                            }
                        }
                    }
                }
                '}' => {
                    self.bump();
                    return Some((line, Token::Bad("'}' closes no comment".into())));
                }
                ']' => {
                    self.bump();
                    return Some((line, Token::Bad("']' closes no tag".into())));
                }
                '[' => {
                    self.bump();
                    return Some((line, self.tag()));
                }
                '(' => {
                    self.bump();
                    return Some((line, Token::Open));
                }
                ')' => {
                    self.bump();
                    return Some((line, Token::Close));
                }
                '$' => {
                    self.bump();
                    while self.chars.peek().is_some_and(char::is_ascii_digit) {
                        self.bump();
                    }
                }
                _ => {
                    let mut word = String::new();
                    while let Some(&c) = self.chars.peek() {
                        if is_delimiter(c) {
                            break;
                        }
                        word.push(c);
                        self.bump();
                    }
                    return Some((line, Token::Word(word)));
                }
            }
        }
    }
}

/// What a word of movetext is.
#[derive(Debug, PartialEq, Eq)]
enum WordKind<'a> {
    /// A game termination marker.
    Result,
    /// A move number (and dots) alone, or marks alone.
    Nothing,
    /// A move, stripped of number and marks.
    Move(&'a str),
    /// None of these.
    Unknown,
}

/// Whether `text` names a square: a number, or a letter and a number.
fn is_square(text: &str) -> bool {
    let digits = text
        .strip_prefix(|c: char| c.is_ascii_alphabetic())
        .unwrap_or(text);
    !digits.is_empty() && digits.len() <= 2 && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Whether `text` looks like a move: two or more squares joined by `-`, or by
/// `x`/`X`/`:` for a capture.
fn is_move(text: &str) -> bool {
    let parts: Vec<&str> = if text.contains('-') {
        text.split('-').collect()
    } else {
        text.split(['x', 'X', ':']).collect()
    };
    parts.len() >= 2 && parts.iter().all(|p| is_square(p))
}

/// Classifies a word of movetext.
fn classify(word: &str) -> WordKind<'_> {
    if RESULTS.contains(&word) {
        return WordKind::Result;
    }
    // A move number, possibly glued to the move: `12.`, `12...`, `12.32-28`.
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &word[digits..];
    let body = if rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else if digits == 0 {
        word.trim_start_matches('.')
    } else {
        word
    };
    let body = body.trim_end_matches(['!', '?']);
    if body.is_empty() {
        WordKind::Nothing
    } else if is_move(body) {
        WordKind::Move(body)
    } else {
        WordKind::Unknown
    }
}

/// A game being read.
#[derive(Default)]
struct Builder {
    game: Option<PdnGame>,
    has_movetext: bool,
    /// Lines of the `(` not yet closed.
    opens: Vec<usize>,
    error: Option<PdnError>,
}

impl Builder {
    fn game(&mut self, line: usize) -> &mut PdnGame {
        self.game.get_or_insert_with(|| PdnGame {
            tags: Vec::new(),
            moves: Vec::new(),
            move_lines: Vec::new(),
            result: None,
            line,
        })
    }

    fn fail(&mut self, line: usize, message: String) {
        self.game(line);
        if self.error.is_none() {
            self.error = Some(PdnError { line, message });
        }
    }

    /// The finished game, if one was begun; the builder is empty after.
    fn finish(&mut self) -> Option<Result<PdnGame, PdnError>> {
        if let Some(&line) = self.opens.first() {
            self.fail(line, "'(' is never closed".into());
        }
        let builder = std::mem::take(self);
        let game = builder.game?;
        Some(match builder.error {
            Some(error) => Err(error),
            None => Ok(game),
        })
    }
}

/// Reads every game of a PDN text, in order: each game read, or why it could
/// not be. Text with no game gives an empty list.
pub fn read_games(text: &str) -> Vec<Result<PdnGame, PdnError>> {
    let mut games = Vec::new();
    let mut current = Builder::default();
    for (line, token) in Lexer::new(text) {
        match token {
            Token::Tag(name, value) => {
                if current.has_movetext {
                    games.extend(current.finish());
                }
                current.game(line).tags.push((name, value));
            }
            Token::Bad(message) => current.fail(line, message),
            Token::Open => {
                current.game(line);
                current.has_movetext = true;
                current.opens.push(line);
            }
            Token::Close => {
                if current.opens.pop().is_none() {
                    current.fail(line, "')' closes no variation".into());
                }
            }
            Token::Word(word) => {
                current.game(line);
                current.has_movetext = true;
                if !current.opens.is_empty() {
                    continue;
                }
                match classify(&word) {
                    WordKind::Result => {
                        current.game(line).result = Some(word);
                        games.extend(current.finish());
                    }
                    WordKind::Nothing => {}
                    WordKind::Move(mv) => {
                        let mv = mv.to_string();
                        let game = current.game(line);
                        game.moves.push(mv);
                        game.move_lines.push(line);
                    }
                    WordKind::Unknown => current.fail(line, format!("'{word}' is not a move")),
                }
            }
        }
    }
    games.extend(current.finish());
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Vec<PdnGame> {
        read_games(text)
            .into_iter()
            .map(|g| g.expect("game reads"))
            .collect()
    }

    #[test]
    fn tags_moves_and_result() {
        let games =
            ok("[Event \"Test\"]\n[GameType \"20\"]\n\n1. 32-28 19-23 2. 28x19 14x23 1-0\n");
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.tag("event"), Some("Test"));
        assert_eq!(g.variant(), Some(VariantKind::International));
        assert_eq!(g.moves, ["32-28", "19-23", "28x19", "14x23"]);
        assert_eq!(g.move_lines, [4, 4, 4, 4]);
        assert_eq!(g.result.as_deref(), Some("1-0"));
        assert_eq!(g.line, 1);
        assert_eq!(g.fen(), None);
    }

    #[test]
    fn comments_variations_nags_and_marks_are_dropped() {
        let text = "[GameType \"26,W,8,8,A0,0\"]\n[FEN \" W:W21-32:B1-12 \"]\n\
            1. c3-d4 {a comment\nover two lines} f6-e5 ; to the end of line\n\
            2. d4xf6! (2. b2-c3 (2. a3-b4 $2) g7-h6?) g7xe5?! $14 3.a3-b4 2...h6-g5 *\n";
        let games = ok(text);
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.variant(), Some(VariantKind::Brazilian));
        assert_eq!(g.fen(), Some("W:W21-32:B1-12"));
        assert_eq!(
            g.moves,
            ["c3-d4", "f6-e5", "d4xf6", "g7xe5", "a3-b4", "h6-g5"]
        );
        assert_eq!(g.move_lines, [3, 4, 5, 5, 5, 5]);
        assert_eq!(g.result.as_deref(), Some("*"));
    }

    #[test]
    fn escaped_quotes_in_tags() {
        let g = &ok("[White \"Sijbrands \\\"Ton\\\" \\\\ NL\"][Black \"x\"] 0-1")[0];
        assert_eq!(g.tag("White"), Some("Sijbrands \"Ton\" \\ NL"));
        assert_eq!(g.tag("Black"), Some("x"));
        assert!(g.moves.is_empty());
    }

    #[test]
    fn games_split_at_results_and_at_tags() {
        let text = "[Event \"a\"]\n1. 32-28 *\n\n[Event \"b\"]\n1. 33-29 1/2-1/2\n\
            1. 31-27 2-0 1. 34-30 19-23\n[Event \"c\"]\n";
        let games = ok(text);
        let moves: Vec<_> = games.iter().map(|g| g.moves.join(" ")).collect();
        assert_eq!(moves, ["32-28", "33-29", "31-27", "34-30 19-23", ""]);
        let results: Vec<_> = games.iter().map(|g| g.result.as_deref()).collect();
        assert_eq!(
            results,
            [Some("*"), Some("1/2-1/2"), Some("2-0"), None, None]
        );
        let lines: Vec<_> = games.iter().map(|g| g.line).collect();
        assert_eq!(lines, [1, 4, 6, 6, 7]);
        assert_eq!(games[4].tag("Event"), Some("c"));
    }

    #[test]
    fn bad_games_are_reported_and_reading_goes_on() {
        let text = "[Event \"bad\"]\n1. 32-28 hello 2. 33-29 1-0\n\
            [Event \"good\"]\n1. 32-28 *\n\
            [Event \"open\n1. 32-28 *\n\
            [Event \"paren\"]\n1. 32-28 (19-23 *\n[Event \"close\"]\n1. 32-28 ) *\n\
            [Event \"last\"]\n{ never closed";
        let games = read_games(text);
        let summary: Vec<_> = games
            .iter()
            .map(|g| match g {
                Ok(g) => format!("ok {}", g.tag("Event").unwrap_or("")),
                Err(e) => format!("err {}", e.line),
            })
            .collect();
        assert_eq!(
            summary,
            ["err 2", "ok good", "err 5", "err 8", "err 10", "err 12"]
        );
        let Err(e) = &games[0] else { unreachable!() };
        assert_eq!(e.to_string(), "line 2: 'hello' is not a move");
    }

    #[test]
    fn empty_text_escape_lines_and_bom() {
        assert!(read_games("").is_empty());
        assert!(read_games("  \n ; only a comment\n{ and another }\n").is_empty());
        let games = ok("\u{feff}% escape line [not a tag\n1. 32-28 *");
        assert_eq!(games[0].moves, ["32-28"]);
        assert_eq!(games[0].line, 2);
    }

    #[test]
    fn long_captures_and_colon_captures() {
        let g = &ok("1. 32-28 19-23 2. 28x10x19 4:15 *")[0];
        assert_eq!(g.moves, ["32-28", "19-23", "28x10x19", "4:15"]);
    }

    #[test]
    fn no_panic_on_odd_bytes() {
        for text in [
            "[", "[\"", "[A", "[A \"", "[A \"b\"", "\\", "$", "(((", ")))", "}", "]", "1.", "...",
            "é",
        ] {
            let _ = read_games(text);
        }
    }

    proptest::proptest! {
        #[test]
        fn any_text_reads_without_panic(text in "[\\[\\]{}()\"%;$!?.x:a-h0-9\\- \n\\\\*/]{0,80}") {
            let lines = text.lines().count().max(1);
            for game in read_games(&text) {
                match game {
                    Ok(g) => {
                        proptest::prop_assert_eq!(g.moves.len(), g.move_lines.len());
                        proptest::prop_assert!(g.line >= 1 && g.line <= lines);
                    }
                    Err(e) => proptest::prop_assert!(e.line >= 1 && e.line <= lines),
                }
            }
        }
    }
}
