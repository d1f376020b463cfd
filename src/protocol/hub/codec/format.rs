//! Writing the lines the engine sends, so that every client can read them.

use crate::engine::{MoveSquares, Param, ParamKind, SearchInfo};

/// The longest text echoed in a value (an error message quoting a line,
/// say); longer text is cut and ends with `...`.
const MAX_ECHO: usize = 400;

/// Makes `text` safe to print inside a value: control characters and
/// whitespace other than a plain space (tabs, Unicode line separators)
/// become spaces, `"` becomes `'`, and long text is cut.
fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(MAX_ECHO + 3));
    for (i, c) in text.chars().enumerate() {
        if i == MAX_ECHO {
            out.push_str("...");
            break;
        }
        out.push(match c {
            '"' => '\'',
            c if c.is_control() || c.is_whitespace() => ' ',
            c => c,
        });
    }
    out
}

/// Appends ` name=value` to `line`, quoting the value when needed.
fn push_arg(line: &mut String, name: &str, value: &str) {
    let value = clean(value);
    line.push(' ');
    line.push_str(name);
    line.push('=');
    if value.is_empty() || value.chars().any(|c| c.is_whitespace() || c == '=') {
        line.push('"');
        line.push_str(&value);
        line.push('"');
    } else {
        line.push_str(&value);
    }
}

/// `id name=... version=... author="..."`.
pub fn format_id(name: &str, version: &str, author: &str) -> String {
    let mut line = String::from("id");
    push_arg(&mut line, "name", name);
    push_arg(&mut line, "version", version);
    push_arg(&mut line, "author", author);
    line
}

/// `param name=... value=... type=...` with `min`/`max` or `values`.
pub fn format_param(param: &Param) -> String {
    let mut line = String::from("param");
    push_arg(&mut line, "name", &param.name);
    push_arg(&mut line, "value", &param.value);
    match &param.kind {
        ParamKind::Bool => push_arg(&mut line, "type", "bool"),
        ParamKind::Int { min, max } => {
            push_arg(&mut line, "type", "int");
            push_arg(&mut line, "min", &min.to_string());
            push_arg(&mut line, "max", &max.to_string());
        }
        ParamKind::String => push_arg(&mut line, "type", "string"),
        ParamKind::Enum(values) => {
            push_arg(&mut line, "type", "enum");
            push_arg(&mut line, "values", &values.join(" "));
        }
    }
    line
}

/// `info depth=... seldepth=... score=... nodes=... time=... nps=...
/// hashfull=... [multipv=k] [book=true] pv="..."`: score in men, time in
/// seconds, nps in millions of nodes per second.
pub fn format_info(info: &SearchInfo) -> String {
    let mut line = String::from("info");
    push_arg(&mut line, "depth", &info.depth.to_string());
    push_arg(&mut line, "seldepth", &info.seldepth.to_string());
    push_arg(&mut line, "score", &format!("{:.2}", info.score.men()));
    push_arg(&mut line, "nodes", &info.nodes.to_string());
    push_arg(
        &mut line,
        "time",
        &format!("{:.3}", info.time.as_secs_f64()),
    );
    push_arg(&mut line, "nps", &format!("{:.2}", info.mnps()));
    push_arg(&mut line, "hashfull", &info.hashfull.to_string());
    if let Some(k) = info.multipv {
        push_arg(&mut line, "multipv", &k.to_string());
    }
    if info.book {
        push_arg(&mut line, "book", "true");
    }
    let pv: Vec<String> = info.pv.iter().map(MoveSquares::to_string).collect();
    push_arg(&mut line, "pv", &pv.join(" "));
    line
}

/// `done move=<best> [ponder=<reply>]`, `move=` first. A search always has
/// a move (`go` refuses positions without one), so a bare `done` is only a
/// last resort that still ends the search for the GUI.
pub fn format_done(best: Option<&MoveSquares>, ponder: Option<&MoveSquares>) -> String {
    let mut line = String::from("done");
    if let Some(best) = best {
        push_arg(&mut line, "move", &best.to_string());
        if let Some(ponder) = ponder {
            push_arg(&mut line, "ponder", &ponder.to_string());
        }
    }
    line
}

/// `info message="..."`: a note from the engine (tables loaded or missing).
pub fn format_note(message: &str) -> String {
    let mut line = String::from("info");
    push_arg(&mut line, "message", message);
    line
}

/// `error message="..."`.
pub fn format_error(message: &str) -> String {
    let mut line = String::from("error");
    push_arg(&mut line, "message", message);
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    use super::super::{parse_args, split_command};
    use crate::engine::Score;

    #[test]
    fn done_puts_the_move_first() {
        let m = |from, to, captured: Vec<u8>| MoveSquares { from, to, captured };
        assert_eq!(
            format_done(Some(&m(32, 28, vec![])), Some(&m(17, 22, vec![]))),
            "done move=32-28 ponder=17-22"
        );
        assert_eq!(
            format_done(Some(&m(28, 19, vec![23])), None),
            "done move=28x19x23"
        );
    }

    #[test]
    fn param_lines_have_no_bare_flags() {
        let line = format_param(&Param {
            name: "variant".to_string(),
            kind: ParamKind::Enum(vec!["normal".to_string(), "brazilian".to_string()]),
            value: "normal".to_string(),
            help: "ignored".to_string(),
        });
        assert_eq!(
            line,
            "param name=variant value=normal type=enum values=\"normal brazilian\""
        );
        let line = format_param(&Param {
            name: "hash".to_string(),
            kind: ParamKind::Int { min: 1, max: 1024 },
            value: "64".to_string(),
            help: String::new(),
        });
        assert_eq!(line, "param name=hash value=64 type=int min=1 max=1024");
        let line = format_param(&Param {
            name: "book-file".to_string(),
            kind: ParamKind::String,
            value: String::new(),
            help: String::new(),
        });
        assert_eq!(line, "param name=book-file value=\"\" type=string");
        for line in [line, format_id("tempo", "0.1.0", "the tempo developers")] {
            let (_, rest) = split_command(&line).unwrap();
            assert!(parse_args(rest).unwrap().iter().all(|a| a.value.is_some()));
        }
    }

    #[test]
    fn info_lines_carry_the_spec_fields() {
        let info = SearchInfo {
            depth: 12,
            seldepth: 20,
            score: Score::Centimen(-1),
            nodes: 4_000_000,
            time: Duration::from_millis(500),
            pv: vec![
                MoveSquares {
                    from: 32,
                    to: 28,
                    captured: vec![],
                },
                MoveSquares {
                    from: 17,
                    to: 22,
                    captured: vec![],
                },
            ],
            hashfull: 3,
            multipv: Some(2),
            book: false,
        };
        assert_eq!(
            format_info(&info),
            "info depth=12 seldepth=20 score=-0.01 nodes=4000000 time=0.500 nps=8.00 hashfull=3 multipv=2 pv=\"32-28 17-22\""
        );
    }

    #[test]
    fn echoed_text_cannot_break_a_line() {
        let line = format_error("bad \"x\"\n\r\tinjected=1\u{2028}");
        assert_eq!(line, "error message=\"bad 'x'   injected=1 \"");
        let long = format_error(&"y".repeat(5000));
        assert!(long.len() < MAX_ECHO + 40);
    }
}
