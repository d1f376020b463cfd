//! Reading PDN (Portable Draughts Notation) files: the games of a text, each
//! as its tags, its main-line move texts, its variations and its result.
//!
//! The reader works on text alone and knows no rules: it does not check that
//! a move is legal, only that it looks like a move (squares, as numbers or
//! coordinates, joined by `-`, `x` or `:`). Replaying the moves is the
//! caller's work, with `rules::notation::parse_move`.
//!
//! Variations, `( ... )` after the move they replace and nested up to
//! [`MAX_NESTING`] deep, are read beside the main line and never change
//! it: a reader of the main line reads the same moves with or without
//! them. A variation that cannot be read (a word in it that is no move, no
//! move before it to replace, too deep) is left out with its fault and
//! line in `variation_errors`; the game still reads.
//!
//! Tolerated and dropped: `{comments}` (over several lines, inside
//! variations too), `;` comments to the end of the line, `%` escape lines,
//! NAGs (`$3`) and move marks (`!`, `?`, `!?`...), move numbers (`12.`,
//! `12...`, also glued to the move as in `12.32-28`), a result inside a
//! variation, and a byte-order mark.
//!
//! Games are separated by a result (`1-0`, `0-1`, `1/2-1/2`, `2-0`, `0-2`,
//! `1-1`, `0-0`, `*`) outside any variation, or by a tag that follows
//! movetext. A game that cannot be read (a bad tag, a word of the main line
//! that is no move, an unbalanced parenthesis, an unclosed comment) becomes
//! one `PdnError` carrying the 1-based line of the first fault; reading goes
//! on with the next game.
//!
//! Invariants of a `PdnGame` (and of each `PdnVariation`): `moves` and
//! `move_lines` have the same length; every move text is non-empty and free
//! of move numbers and marks; every variation replaces a move of its line,
//! holds a move, and they come in the order of the moves they replace;
//! `line` is the line of the game's first tag or word.

use super::lexer::{Lexer, Token};
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

/// The deepest a variation may stand inside variations; a deeper one is
/// left out.
pub const MAX_NESTING: usize = 32;

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
    /// The variations of the main line, in the order of the moves they
    /// replace.
    pub variations: Vec<PdnVariation>,
    /// The variations left out, each with the line of its fault and why.
    pub variation_errors: Vec<PdnError>,
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

/// A variation: moves played instead of one move of the line it stands in
/// (the main line, or a variation around it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnVariation {
    /// The index, among the moves of the line it stands in, of the move it
    /// replaces: it starts from the position before that move.
    pub replaces: usize,
    /// The 1-based line of its `(`.
    pub line: usize,
    /// Its moves as written, as [`PdnGame::moves`].
    pub moves: Vec<String>,
    /// The 1-based line of each move of `moves`.
    pub move_lines: Vec<usize>,
    /// The variations inside it, in the order of the moves they replace.
    pub variations: Vec<PdnVariation>,
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

/// A variation being read.
struct Open {
    variation: PdnVariation,
    /// Whether it is left out (its fault is told already, or it stands in
    /// one left out): its words are passed over.
    dropped: bool,
}

/// A game being read.
#[derive(Default)]
struct Builder {
    game: Option<PdnGame>,
    has_movetext: bool,
    /// The variations open, the outermost first, [`MAX_NESTING`] at most.
    open: Vec<Open>,
    /// The variations open inside the deepest of `open`, left out.
    deeper: usize,
    error: Option<PdnError>,
}

impl Builder {
    fn game(&mut self, line: usize) -> &mut PdnGame {
        self.game.get_or_insert_with(|| PdnGame {
            tags: Vec::new(),
            moves: Vec::new(),
            move_lines: Vec::new(),
            variations: Vec::new(),
            variation_errors: Vec::new(),
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

    /// Tells why a variation is left out.
    fn leave_out(&mut self, line: usize, why: &str) {
        self.game(line).variation_errors.push(PdnError {
            line,
            message: format!("a variation is left out: {why}"),
        });
    }

    /// A `(`: a variation of the last move of the line it stands in.
    fn open(&mut self, line: usize) {
        self.game(line);
        self.has_movetext = true;
        if self.deeper > 0 || self.open.len() >= MAX_NESTING {
            if self.deeper == 0 && !self.open.last().is_some_and(|o| o.dropped) {
                self.leave_out(line, &format!("variations nest {MAX_NESTING} deep at most"));
            }
            self.deeper += 1;
            return;
        }
        let (before, outer_dropped) = match self.open.last() {
            Some(outer) => (outer.variation.moves.len(), outer.dropped),
            None => (self.game(line).moves.len(), false),
        };
        if before == 0 && !outer_dropped {
            self.leave_out(line, "'(' must follow the move it replaces");
        }
        self.open.push(Open {
            variation: PdnVariation {
                replaces: before.saturating_sub(1),
                line,
                moves: Vec::new(),
                move_lines: Vec::new(),
                variations: Vec::new(),
            },
            dropped: outer_dropped || before == 0,
        });
    }

    /// A `)`: the variation is done, and kept unless left out.
    fn close(&mut self, line: usize) {
        if self.deeper > 0 {
            self.deeper -= 1;
            return;
        }
        let Some(done) = self.open.pop() else {
            return self.fail(line, "')' closes no variation".into());
        };
        if done.dropped {
            return;
        }
        if done.variation.moves.is_empty() {
            return self.leave_out(done.variation.line, "it holds no move");
        }
        match self.open.last_mut() {
            Some(outer) => outer.variation.variations.push(done.variation),
            None => self.game(line).variations.push(done.variation),
        }
    }

    /// A word inside a variation.
    fn variation_word(&mut self, line: usize, word: &str) {
        if self.deeper > 0 {
            return;
        }
        let Some(open) = self.open.last_mut() else {
            return;
        };
        if open.dropped {
            return;
        }
        match classify(word) {
            WordKind::Result | WordKind::Nothing => {}
            WordKind::Move(mv) => {
                open.variation.moves.push(mv.to_string());
                open.variation.move_lines.push(line);
            }
            WordKind::Unknown => {
                open.dropped = true;
                self.leave_out(line, &format!("'{word}' is not a move"));
            }
        }
    }

    /// The finished game, if one was begun; the builder is empty after.
    fn finish(&mut self) -> Option<Result<PdnGame, PdnError>> {
        if let Some(line) = self.open.first().map(|o| o.variation.line) {
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
            Token::Open => current.open(line),
            Token::Close => current.close(line),
            Token::Word(word) => {
                current.game(line);
                current.has_movetext = true;
                if !current.open.is_empty() {
                    current.variation_word(line, &word);
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

    /// A variation's moves and, in brackets, those inside it.
    fn shape(variations: &[PdnVariation]) -> Vec<String> {
        variations
            .iter()
            .map(|v| {
                let inner = shape(&v.variations);
                let inner = if inner.is_empty() {
                    String::new()
                } else {
                    format!(" [{}]", inner.join(" | "))
                };
                format!("{}@{}: {}{inner}", v.replaces, v.line, v.moves.join(" "))
            })
            .collect()
    }

    #[test]
    fn nested_variations_are_read_beside_the_main_line() {
        let text = "1. 32-28 (1. 33-29 19-23 (1... 18-23 2. 38-33) 2. 39-33)\n\
            1... 19-23 (1... 17-22 (1... 18-22) 2. 28x17) 2. 28x19 14x23 (2... 13x24) *\n";
        let g = &ok(text)[0];
        assert_eq!(g.moves, ["32-28", "19-23", "28x19", "14x23"]);
        assert_eq!(g.move_lines, [1, 2, 2, 2]);
        assert_eq!(
            shape(&g.variations),
            [
                "0@1: 33-29 19-23 39-33 [1@1: 18-23 38-33]",
                "1@2: 17-22 28x17 [0@2: 18-22]",
                "3@2: 13x24",
            ]
        );
        assert_eq!(g.variations[1].variations[0].move_lines, [2]);
        assert!(g.variation_errors.is_empty());
        // The main line is the same as without the variations.
        let plain = &ok("1. 32-28 19-23 2. 28x19 14x23 *")[0];
        assert_eq!((&plain.moves, &plain.result), (&g.moves, &g.result));
        assert!(plain.variations.is_empty());
    }

    #[test]
    fn comments_inside_variations_are_dropped() {
        let text = "1. 32-28 (1. 33-29 {a comment (with brackets)} 19-23! $1 ; a note )\n\
            % an escape line )\n2. 39-33) 19-23 *";
        let g = &ok(text)[0];
        assert_eq!(g.moves, ["32-28", "19-23"]);
        assert_eq!(shape(&g.variations), ["0@1: 33-29 19-23 39-33"]);
        assert!(g.variation_errors.is_empty(), "{:?}", g.variation_errors);
    }

    #[test]
    fn a_bad_variation_is_left_out_with_its_line_and_the_game_reads() {
        let text = "[Event \"x\"]\n1. 32-28 (1. 33-29\nhello 2. 39-33) 19-23\n\
            2. 28x19 (2. 37-32 (( 17-22 )) 2... 17-21 (2... oops)) 14x23\n\
            ( 3. 33-29 ) *";
        let g = &ok(text)[0];
        assert_eq!(g.moves, ["32-28", "19-23", "28x19", "14x23"]);
        assert_eq!(shape(&g.variations), ["2@4: 37-32 17-21", "3@5: 33-29"]);
        let errors: Vec<String> = g.variation_errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            errors,
            [
                "line 3: a variation is left out: 'hello' is not a move",
                "line 4: a variation is left out: '(' must follow the move it replaces",
                "line 4: a variation is left out: it holds no move",
                "line 4: a variation is left out: 'oops' is not a move",
            ]
        );
        // Before any move, a variation has nothing to replace.
        let g = &ok("(1. 32-28) 1. 33-29 *")[0];
        assert_eq!(g.moves, ["33-29"]);
        assert!(g.variations.is_empty());
        assert_eq!(g.variation_errors[0].line, 1);
    }

    #[test]
    fn variations_nest_so_deep_at_most() {
        let deep = |n: usize| {
            format!(
                "1. 32-28 {}{} 19-23 *",
                "(1. 33-29 ".repeat(n),
                ")".repeat(n)
            )
        };
        let depth = |mut variations: &[PdnVariation]| {
            let mut depth = 0;
            while let Some(v) = variations.first() {
                depth += 1;
                variations = &v.variations;
            }
            depth
        };
        let g = &ok(&deep(MAX_NESTING))[0];
        assert_eq!(depth(&g.variations), MAX_NESTING);
        assert!(g.variation_errors.is_empty());
        let g = &ok(&deep(MAX_NESTING + 5))[0];
        assert_eq!(g.moves, ["32-28", "19-23"]);
        assert_eq!(depth(&g.variations), MAX_NESTING);
        assert_eq!(g.variation_errors.len(), 1);
        assert!(g.variation_errors[0].message.contains("deep"));
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

    /// Whether variations hold the invariants of the module, in a line of
    /// `moves` moves.
    fn well_formed(variations: &[PdnVariation], moves: usize) -> bool {
        variations
            .windows(2)
            .all(|w| w[0].replaces <= w[1].replaces)
            && variations.iter().all(|v| {
                v.replaces < moves
                    && !v.moves.is_empty()
                    && v.moves.len() == v.move_lines.len()
                    && well_formed(&v.variations, v.moves.len())
            })
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
                        proptest::prop_assert!(well_formed(&g.variations, g.moves.len()));
                        for e in &g.variation_errors {
                            proptest::prop_assert!(e.line >= 1 && e.line <= lines);
                        }
                    }
                    Err(e) => proptest::prop_assert!(e.line >= 1 && e.line <= lines),
                }
            }
        }
    }
}
