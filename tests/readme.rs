//! README.md stays honest: every command of its code blocks that runs tempo
//! (`tempo ...`, `cargo run --release -- ...`) must be accepted by the
//! command-line parser, so a subcommand or a flag that the README names and
//! the program no longer has fails here. The commands are split as a shell
//! would (quotes, backslashes, line continuations); a comment, a pipe, a
//! redirection or a second command ends one. And the test command the
//! README gives is the one CI runs.

use std::fs;
use std::path::Path;

use clap::error::ErrorKind;
use clap::Parser;
use tempo::cli::Cli;

/// A file of the repository, as text.
fn repository_file(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One shell line of a fenced code block: its text with continuation lines
/// joined, and the README line it starts on.
struct ShellLine {
    line: usize,
    text: String,
}

/// The lines of the README's fenced code blocks, continuations joined;
/// blocks marked as another language than the shell's are left out.
fn code_block_lines(readme: &str) -> Vec<ShellLine> {
    let mut lines = Vec::new();
    let mut in_block = false;
    let mut shell_block = false;
    let mut pending: Option<ShellLine> = None;
    for (index, raw) in readme.lines().enumerate() {
        let fence = raw.trim_start().strip_prefix("```");
        if let Some(language) = fence {
            in_block = !in_block;
            shell_block = matches!(language.trim(), "" | "sh" | "bash" | "shell" | "console");
            continue;
        }
        if !in_block || !shell_block {
            continue;
        }
        let mut current = pending.take().unwrap_or(ShellLine {
            line: index + 1,
            text: String::new(),
        });
        match raw.strip_suffix('\\') {
            Some(continued) => {
                current.text.push_str(continued);
                current.text.push(' ');
                pending = Some(current);
            }
            None => {
                current.text.push_str(raw);
                lines.push(current);
            }
        }
    }
    lines
}

/// The words of the first command of a shell line, split as a POSIX shell
/// splits them: quotes and backslashes are removed, and an unquoted `#`
/// starting a word, `|`, `;`, `&`, `<` or `>` ends the command.
fn shell_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '#' if !in_word => break,
            '|' | ';' | '&' | '<' | '>' => break,
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(q) => word.push(q),
                        None => return Err(format!("unclosed ' in: {line}")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(e @ ('"' | '\\' | '$' | '`')) => word.push(e),
                            Some(other) => {
                                word.push('\\');
                                word.push(other);
                            }
                            None => return Err(format!("unclosed \" in: {line}")),
                        },
                        Some(q) => word.push(q),
                        None => return Err(format!("unclosed \" in: {line}")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(escaped) = chars.next() {
                    word.push(escaped);
                }
            }
            other => {
                in_word = true;
                word.push(other);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// tempo's arguments in a command, without the program: `tempo X ...`,
/// `target/release/tempo X ...` or `cargo run --release -- X ...`; `None`
/// for a command that does not run tempo.
fn tempo_arguments(words: &[String]) -> Option<Vec<String>> {
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    match words.as_slice() {
        [program, rest @ ..] if *program == "tempo" || program.ends_with("/tempo") => {
            Some(rest.iter().map(|w| w.to_string()).collect())
        }
        ["cargo", "run", rest @ ..] => {
            let separator = rest.iter().position(|w| *w == "--");
            let after = separator.map_or(&[][..], |i| &rest[i + 1..]);
            Some(after.iter().map(|w| w.to_string()).collect())
        }
        _ => None,
    }
}

/// Every command of the README that runs tempo: its line and arguments.
fn readme_tempo_commands() -> Vec<(usize, Vec<String>)> {
    let readme = repository_file("README.md");
    code_block_lines(&readme)
        .into_iter()
        .filter_map(|shell| {
            let text = shell.text.trim_start().trim_start_matches("$ ");
            let words =
                shell_words(text).unwrap_or_else(|e| panic!("README.md:{}: {e}", shell.line));
            tempo_arguments(&words).map(|arguments| (shell.line, arguments))
        })
        .collect()
}

#[test]
fn every_tempo_command_in_the_readme_parses() {
    let commands = readme_tempo_commands();
    let subcommands: Vec<&str> = commands
        .iter()
        .filter_map(|(_, arguments)| arguments.first().map(String::as_str))
        .collect();
    // The README's own examples: its first command, a match, DXP, analysis.
    for wanted in ["analyse", "match", "dxp"] {
        assert!(
            subcommands.contains(&wanted),
            "no `tempo {wanted}` found in README.md's code blocks: {subcommands:?}"
        );
    }
    let mut failures = Vec::new();
    for (line, arguments) in &commands {
        let argv = std::iter::once("tempo".to_string()).chain(arguments.iter().cloned());
        if let Err(e) = Cli::try_parse_from(argv) {
            if !matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                failures.push(format!(
                    "README.md:{line}: tempo {}\n{e}",
                    arguments.join(" ")
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_readme_test_command_is_the_one_ci_runs() {
    let readme = repository_file("README.md");
    let test_command = code_block_lines(&readme)
        .iter()
        .find(|shell| shell.text.contains("# run the test suite"))
        .map(|shell| {
            shell
                .text
                .split('#')
                .next()
                .unwrap_or_default()
                .trim()
                .to_string()
        })
        .expect("README.md's first code block names the test command");
    let ci = repository_file(".ci/run");
    assert!(
        ci.lines().any(
            |line| line.trim_start().starts_with(&format!("{test_command} "))
                || line.trim() == test_command
        ),
        "README.md's test command `{test_command}` is not run by .ci/run"
    );
}

#[test]
fn commands_are_split_as_a_shell_splits_them() {
    let words = |line: &str| shell_words(line).unwrap();
    assert_eq!(
        words(r#"tempo match --engine "tempo hub" --option '*:book=false' --pdn a\ b.pdn"#),
        [
            "tempo",
            "match",
            "--engine",
            "tempo hub",
            "--option",
            "*:book=false",
            "--pdn",
            "a b.pdn"
        ]
    );
    assert_eq!(
        words("tempo analyse --depth 10 > out.jsonl"),
        ["tempo", "analyse", "--depth", "10"]
    );
    assert_eq!(words("tempo analyse | jq -c ."), ["tempo", "analyse"]);
    assert_eq!(
        words("tempo dxp --listen   # a comment"),
        ["tempo", "dxp", "--listen"]
    );
    assert_eq!(
        words(r#"tempo game --moves "a \"b\"""#),
        ["tempo", "game", "--moves", "a \"b\""]
    );
    assert_eq!(words("tempo x#y"), ["tempo", "x#y"]);
    assert!(shell_words("tempo \"open").is_err());
}

#[test]
fn continuation_lines_are_joined_and_other_languages_left_out() {
    let readme = "```sh\ntempo match --games 2 \\\n    --movetime 0.1\n```\n\
                  ```python\ntempo = 1\n```\n";
    let lines = code_block_lines(readme);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0].line, 2);
    assert_eq!(
        shell_words(&lines[0].text).unwrap(),
        ["tempo", "match", "--games", "2", "--movetime", "0.1"]
    );
    let cargo = ["cargo", "run", "--release", "--", "analyse"].map(String::from);
    assert_eq!(tempo_arguments(&cargo), Some(vec!["analyse".to_string()]));
    assert_eq!(
        tempo_arguments(&["cargo".to_string(), "test".to_string()]),
        None
    );
}

/// The top-level `--help` names every variant the engine plays (it left
/// out Frisian, Frysk! and Turkish).
#[test]
fn the_top_level_help_names_every_variant() {
    use clap::CommandFactory;
    use tempo::rules::VariantKind;
    let help = Cli::command().render_help().to_string().to_lowercase();
    for kind in VariantKind::ALL {
        // The command-line name, or its words (`losing-brazilian`: losing
        // draughts on 8x8).
        let words: &[&str] = match kind {
            VariantKind::LosingBrazilian => &["losing", "8x8"],
            VariantKind::Frysk => &["frysk!"],
            _ => &[kind.name()],
        };
        for word in words {
            assert!(help.contains(word), "{kind:?}: '{word}' not in\n{help}");
        }
    }
}
