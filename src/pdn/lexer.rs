//! PDN text cut into tokens: tag pairs, parentheses and words, each with
//! its line; comments, NAGs and escape lines dropped (see `read`).

/// A lexical unit of PDN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Token {
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
pub(super) struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    at_line_start: bool,
}

impl<'a> Lexer<'a> {
    pub(super) fn new(text: &'a str) -> Self {
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
