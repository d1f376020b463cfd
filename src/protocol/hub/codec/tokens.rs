//! Splitting a Hub line into its command word and its arguments.

use std::fmt;

/// One argument of a line: `name=value`, `name="quoted value"` (or
/// `name='quoted value'`, as error messages show a quote) or a bare `name`
/// (a flag, `value` is `None`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    /// The argument's name.
    pub name: String,
    /// Its value, without the quotes; `None` for a flag.
    pub value: Option<String>,
}

/// Why the arguments of a line could not be split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyntaxError {
    /// A quoted value with no closing quote.
    UnterminatedQuote(String),
    /// `=value` with no name before it.
    MissingName,
    /// Text stuck to a closing quote, as in `name="a"b`.
    TextAfterQuote(String),
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyntaxError::UnterminatedQuote(name) => {
                write!(f, "the quoted value of '{name}' has no closing quote")
            }
            SyntaxError::MissingName => f.write_str("'=' with no argument name before it"),
            SyntaxError::TextAfterQuote(name) => write!(
                f,
                "text follows the closing quote of '{name}' (put a space after it)"
            ),
        }
    }
}

/// Splits a line into its command word and the rest; `None` for a blank
/// line.
pub fn split_command(line: &str) -> Option<(&str, &str)> {
    let line = line.trim();
    if line.is_empty() {
        return None;
    }
    let end = line.find(char::is_whitespace).unwrap_or(line.len());
    Some((&line[..end], &line[end..]))
}

/// Splits the arguments of a line (the text after the command word).
pub fn parse_args(text: &str) -> Result<Vec<Arg>, SyntaxError> {
    let mut args = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return Ok(args);
        }
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '=')
            .unwrap_or(rest.len());
        let name = &rest[..end];
        rest = &rest[end..];
        let Some(after_equals) = rest.strip_prefix('=') else {
            args.push(Arg {
                name: name.to_string(),
                value: None,
            });
            continue;
        };
        if name.is_empty() {
            return Err(SyntaxError::MissingName);
        }
        let value;
        let quote = after_equals
            .chars()
            .next()
            .filter(|&c| c == '"' || c == '\'');
        if let Some(quote) = quote {
            let quoted = &after_equals[1..];
            let close = quoted
                .find(quote)
                .ok_or_else(|| SyntaxError::UnterminatedQuote(name.to_string()))?;
            value = &quoted[..close];
            rest = &quoted[close + 1..];
            if rest.chars().next().is_some_and(|c| !c.is_whitespace()) {
                return Err(SyntaxError::TextAfterQuote(name.to_string()));
            }
        } else {
            let end = after_equals
                .find(char::is_whitespace)
                .unwrap_or(after_equals.len());
            value = &after_equals[..end];
            rest = &after_equals[end..];
        }
        args.push(Arg {
            name: name.to_string(),
            value: Some(value.to_string()),
        });
    }
}

/// The value of the last argument called `name`, if it has one.
pub fn value_of<'a>(args: &'a [Arg], name: &str) -> Option<&'a str> {
    args.iter()
        .rev()
        .find(|a| a.name == name)
        .and_then(|a| a.value.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arg(name: &str, value: Option<&str>) -> Arg {
        Arg {
            name: name.to_string(),
            value: value.map(str::to_string),
        }
    }

    #[test]
    fn single_quotes_quote_a_value_as_double_quotes_do() {
        let args = parse_args(" moves='32-28 18-23' name=\"it's\" x=a'b").unwrap();
        assert_eq!(
            args,
            vec![
                arg("moves", Some("32-28 18-23")),
                arg("name", Some("it's")),
                arg("x", Some("a'b")),
            ]
        );
        assert_eq!(
            parse_args("moves='32-28"),
            Err(SyntaxError::UnterminatedQuote("moves".into()))
        );
    }

    #[test]
    fn the_spec_info_line_splits_into_its_arguments() {
        let line = "info depth=21 mean-depth=20.8 score=-0.01 nodes=31261613 time=3.906 nps=8.0 pv=\"32-28 17-22 ...\"";
        let (word, rest) = split_command(line).unwrap();
        assert_eq!(word, "info");
        let args = parse_args(rest).unwrap();
        assert_eq!(args.len(), 7);
        assert_eq!(args[1], arg("mean-depth", Some("20.8")));
        assert_eq!(args[6], arg("pv", Some("32-28 17-22 ...")));
    }

    #[test]
    fn flags_quotes_and_extra_spaces() {
        let args = parse_args("  think   a=\"x = y\"  b=  c=\"\" ").unwrap();
        assert_eq!(
            args,
            vec![
                arg("think", None),
                arg("a", Some("x = y")),
                arg("b", Some("")),
                arg("c", Some("")),
            ]
        );
    }

    #[test]
    fn malformed_arguments_are_errors() {
        assert_eq!(
            parse_args("moves=\"32-28"),
            Err(SyntaxError::UnterminatedQuote("moves".to_string()))
        );
        assert_eq!(parse_args("=x"), Err(SyntaxError::MissingName));
        assert_eq!(
            parse_args("a=\"b\"c"),
            Err(SyntaxError::TextAfterQuote("a".to_string()))
        );
    }
}
