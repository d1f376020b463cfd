//! `tempo analyse --annotate` and `--report`: the annotated PDN read back
//! by tempo and by pydraughts, the report opened in a headless browser, and
//! both files kept whole, with the finished games, when a run is stopped.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "common/analyse_cli.rs"]
mod analyse_cli;
use analyse_cli::{analyse, file};

#[path = "common/browser.rs"]
mod browser;

#[path = "common/harness.rs"]
mod harness;

#[path = "common/python.rs"]
mod python;

/// Five games: a blunder from a set-up position, the first sixteen plies
/// of a real game, one with an illegal move, one of a variant tempo does
/// not know, and one cut short (no result at the end of the file).
const GAMES: &str = "[Event \"blunder\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\
[FEN \"W:W27,32,37:B8,12,17,18\"]\n1. 27-22 *\n\n\
[Event \"opening\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\
1. 35-30 19-24 2. 30x19 14x23 3. 32-28 23x32 4. 37x28 18-22 5. 34-30 20-25\n\
6. 31-26 25x34 7. 39x30 15-20 8. 30-25 16-21 *\n\n\
[Event \"illegal\"]\n1. 32-28 19-23 2. 28-22 *\n\n\
[Event \"unknown\"]\n[Variant \"chess\"]\n1. 32-28 *\n\n\
[Event \"cut\"]\n1. 32-28 19-23 2. 28x19\n";

/// The main-line moves of each game of a PDN text, read by tempo.
fn main_lines(text: &str) -> Vec<Vec<String>> {
    tempo::pdn::read_games(text)
        .into_iter()
        .map(|g| g.expect("a readable game").moves)
        .collect()
}

/// The main-line moves of each game of a PDN file, read by pydraughts'
/// `PDNReader` (`None` where no Python with pydraughts can be had outside
/// CI: see `common/python.rs`).
fn pydraughts_main_lines(path: &Path) -> Option<Vec<Vec<String>>> {
    let script = format!(
        "from draughts.PDN import PDNReader\n\
         for g in PDNReader(filename={:?}).games:\n    print(' '.join(g.moves))\n",
        path.to_str().unwrap()
    );
    let python = python::python_for("the reading of annotated PDN by pydraughts")?;
    let out = std::process::Command::new(python)
        .args(["-c", &script])
        .output()
        .expect("run python");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = String::from_utf8(out.stdout).unwrap();
    Some(
        lines
            .lines()
            .map(|l| l.split_whitespace().map(String::from).collect())
            .collect(),
    )
}

/// Runs `tempo analyse` over the games of `input` at `depth`, writing each
/// `(option, file)` of `outputs` (`--annotate`, `--report`) afresh.
fn analyse_to(input: &Path, depth: &str, outputs: &[(&str, &Path)]) -> analyse_cli::Run {
    let mut args = vec!["--pdn", input.to_str().unwrap(), "--depth", depth];
    for &(option, path) in outputs {
        let _ = fs::remove_file(path);
        args.extend([option, path.to_str().unwrap()]);
    }
    analyse(&args)
}

/// Games of over 100 moves with variations, three to a file: pydraughts
/// reads every one whole (a repeated `25...` after a variation made it drop
/// `25.` inside `125.` and fail).
fn long_annotated_games_read_whole_in_pydraughts() {
    let one = fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/long-game.pdn"
    ))
    .unwrap();
    let input = file(
        "long-games.pdn",
        &[one.as_str(), "\n", &one, "\n", &one].concat(),
    );
    let annotated = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("long-annotated.pdn");
    let run = analyse_to(&input, "3", &[("--annotate", &annotated)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = fs::read_to_string(&annotated).unwrap();
    let ours = main_lines(&text);
    assert_eq!(ours.len(), 3);
    assert!(ours[0].len() > 200, "{} plies", ours[0].len());
    assert!(text.contains(") "), "no variation: {text}");
    if let Some(theirs) = pydraughts_main_lines(&annotated) {
        assert_eq!(theirs, ours);
    }
}

fn annotated_games_and_the_report_keep_every_good_game_and_name_the_bad() {
    let input = file("annotate-in.pdn", GAMES);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let (annotated, report) = (dir.join("annotated.pdn"), dir.join("report.html"));
    let run = analyse_to(
        &input,
        "5",
        &[("--annotate", &annotated), ("--report", &report)],
    );
    // Two games left out (exit 1), each named with what is wrong; the cut
    // one is analysed as far as it goes, with a warning.
    assert_eq!(run.code, 1, "{}", run.stderr);
    for says in [
        "game 3: move 3 '28-22'",
        "game 4: Variant \"chess\" is not a variant tempo plays",
        "game 5: no result after move 3 '28x19'",
    ] {
        assert!(run.stderr.contains(says), "{says} not in {}", run.stderr);
    }
    let text = fs::read_to_string(&annotated).unwrap();
    let mut expected = main_lines(GAMES.split("[Event \"illegal\"]").next().unwrap());
    expected.push(vec!["32-28".into(), "19-23".into(), "28x19".into()]);
    assert_eq!(main_lines(&text), expected, "{text}");
    assert_eq!(text.matches("[Annotator \"tempo").count(), 3, "{text}");
    // Giving two men away is a blunder, with the better move as a variation.
    let blunder = text.split("[Event \"opening\"]").next().unwrap();
    assert!(blunder.contains("27-22??"), "{blunder}");
    assert!(blunder.contains("(1. "), "{blunder}");
    assert!(blunder.contains("White: average loss"), "{blunder}");
    // pydraughts reads the same main lines back.
    if let Some(theirs) = pydraughts_main_lines(&annotated) {
        assert_eq!(theirs, expected);
    }
    // The report: a graph for each game, a diagram for the blunder, and
    // nothing fetched from elsewhere.
    let html = fs::read_to_string(&report).unwrap();
    assert_eq!(html.matches("<svg class=\"graph\"").count(), 3);
    assert!(
        html.contains("<figure id=\"g1p0\">"),
        "no diagram of the blunder"
    );
    for outside in ["<script", "http://", "https://", "<img", "<link"] {
        assert!(!html.contains(outside), "{outside} in the report");
    }
}

fn the_report_renders_in_a_browser_without_console_errors() {
    let Some(browser) = browser::chromium_for("the report") else {
        return;
    };
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let input = file(
        "browser-in.pdn",
        GAMES.split("[Event \"illegal\"]").next().unwrap(),
    );
    let report = dir.join("browser-report.html");
    let run = analyse_to(&input, "4", &[("--report", &report)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // A copy with a probe that writes the size each SVG was laid out at
    // into the page, for --dump-dom to show (the report has no script).
    let html = fs::read_to_string(&report).unwrap();
    let probe = "<script>addEventListener('load',()=>{document.body.setAttribute('data-sizes',\
        [...document.querySelectorAll('svg')].map(s=>{const b=s.getBoundingClientRect();\
        return Math.round(b.width)+'x'+Math.round(b.height)}).join(' '))})</script></body>";
    let probed = dir.join("browser-probed.html");
    fs::write(&probed, html.replace("</body>", probe)).unwrap();
    let browse = |extra: &[&str], page: &PathBuf| {
        Command::new(&browser)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
            ])
            .args([
                "--enable-logging=stderr",
                "--v=0",
                "--virtual-time-budget=3000",
            ])
            .args(extra)
            .arg(format!("file://{}", page.display()))
            .output()
            .expect("run Chromium")
    };
    let dom = browse(&["--dump-dom"], &probed);
    let stdout = String::from_utf8_lossy(&dom.stdout);
    let stderr = String::from_utf8_lossy(&dom.stderr);
    let console: Vec<&str> = stderr.lines().filter(|l| l.contains("CONSOLE")).collect();
    assert!(console.is_empty(), "console messages: {console:?}");
    let sizes = stdout
        .split("data-sizes=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no sizes in the page: {stderr}"));
    let sizes: Vec<(u32, u32)> = sizes
        .split_whitespace()
        .map(|s| {
            let (w, h) = s.split_once('x').unwrap();
            (w.parse().unwrap(), h.parse().unwrap())
        })
        .collect();
    // Two graphs and at least the blunder's diagram, each laid out wide.
    assert!(sizes.len() >= 3, "{sizes:?}");
    assert!(sizes.iter().all(|&(w, h)| w >= 200 && h >= 50), "{sizes:?}");
    // A screenshot to look at: target/tmp/report.png.
    let shot = dir.join("report.png");
    let _ = fs::remove_file(&shot);
    let out = browse(
        &[
            "--window-size=900,1800",
            &format!("--screenshot={}", shot.display()),
        ],
        &report,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(fs::metadata(&shot).map(|m| m.len()).unwrap_or(0) > 10_000);
}

fn a_stopped_run_keeps_its_finished_games_whole() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("analyse-stopped");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    // A one-move game, then a long one that will not finish.
    let long = fs::read_to_string("tests/data/long-game.pdn").unwrap();
    let input = file(
        "stopped-in.pdn",
        &format!("[White \"A\"]\n[Black \"B\"]\n\n1. 32-28 *\n\n{long}"),
    );
    let (annotated, report) = (dir.join("a.pdn"), dir.join("r.html"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(["analyse", "--movetime", "0.3", "--pdn"])
        .arg(&input)
        .arg("--annotate")
        .arg(&annotated)
        .arg("--report")
        .arg(&report)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Stopped once the long game's analysis has begun.
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(child.stdout.take().unwrap()));
    let begun = lines
        .by_ref()
        .map_while(Result::ok)
        .find(|l| !l.contains("\"line\":1,"));
    assert!(begun.is_some(), "the second game was never analysed");
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    for _ in lines {}
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("1 finished game(s) written"), "{stderr}");
    let pdn = fs::read_to_string(&annotated).unwrap();
    assert_eq!(pdn.matches("[White ").count(), 1, "{pdn}");
    let html = fs::read_to_string(&report).unwrap();
    assert!(html.contains("Game 1") && !html.contains("Game 2"));
    assert!(html.trim_end().ends_with("</html>"));
    let left: Vec<_> = fs::read_dir(&dir).unwrap().collect();
    assert_eq!(left.len(), 2, "a temporary file was left: {left:?}");
}

fn no_output_is_written_over_the_input_or_another_output() {
    let game = "[White \"A\"]\n[Black \"B\"]\n{the player's own note}\n1. 32-28 (1. 33-28) *\n";
    let input = file("guarded-in.pdn", game);
    let path = input.to_str().unwrap();
    // The annotation over its own input, also named another way.
    let dotted = format!("{}/./guarded-in.pdn", env!("CARGO_TARGET_TMPDIR"));
    for annotate in [path, dotted.as_str()] {
        let run = analyse(&["--pdn", path, "--depth", "1", "--annotate", annotate]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(
            run.stderr.contains("--annotate") && run.stderr.contains("--pdn"),
            "{}",
            run.stderr
        );
        assert!(run.records.is_empty());
        assert_eq!(fs::read_to_string(&input).unwrap(), game);
    }
    // Two outputs into one file.
    let both = file("guarded-both.out", "");
    let both = both.to_str().unwrap();
    let run = analyse(&[
        "--pdn",
        path,
        "--depth",
        "1",
        "--annotate",
        both,
        "--report",
        both,
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("--report") && run.stderr.contains("--annotate"),
        "{}",
        run.stderr
    );
    // An output that exists is replaced, and said so.
    let old = file("guarded-old.pdn", "old");
    let run = analyse(&[
        "--pdn",
        path,
        "--depth",
        "1",
        "--annotate",
        old.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!("replaced {}", old.display())),
        "{}",
        run.stderr
    );
}

fn an_interrupt_stops_a_long_search_within_a_second() {
    for signal in ["-INT", "-TERM"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tempo"))
            .args(["analyse", "--movetime", "120", "--output", "text"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Signalled just as a depth is reported that took over a second:
        // the next one takes longer still, so only a stopped search ends
        // within the second.
        let mut lines =
            std::io::BufRead::lines(std::io::BufReader::new(child.stdout.take().unwrap()));
        let mut last = std::time::Instant::now();
        let long = lines.by_ref().map_while(Result::ok).find(|_| {
            let gap = last.elapsed();
            last = std::time::Instant::now();
            gap > std::time::Duration::from_millis(1200)
        });
        assert!(long.is_some(), "no long depth before the end");
        let sent = std::time::Instant::now();
        let status = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        for _ in lines {}
        let out = child.wait_with_output().unwrap();
        let took = sent.elapsed();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{signal}: {stderr}");
        assert!(
            took < std::time::Duration::from_secs(1),
            "{signal} acted on after {took:?}"
        );
    }
}

/// The tests that need Python with pydraughts: ignored, with the reason,
/// where it cannot be had.
const PYDRAUGHTS: Option<harness::Need> = Some(harness::Need {
    name: "Python with pydraughts",
    missing: python::missing,
});

/// The tests that open a page in a browser.
const CHROMIUM: Option<harness::Need> = Some(harness::Need {
    name: "Chromium",
    missing: browser::missing,
});

fn main() {
    harness::run(&[
        (
            "long_annotated_games_read_whole_in_pydraughts",
            PYDRAUGHTS,
            long_annotated_games_read_whole_in_pydraughts,
        ),
        (
            "annotated_games_and_the_report_keep_every_good_game_and_name_the_bad",
            None,
            annotated_games_and_the_report_keep_every_good_game_and_name_the_bad,
        ),
        (
            "the_report_renders_in_a_browser_without_console_errors",
            CHROMIUM,
            the_report_renders_in_a_browser_without_console_errors,
        ),
        (
            "a_stopped_run_keeps_its_finished_games_whole",
            None,
            a_stopped_run_keeps_its_finished_games_whole,
        ),
        (
            "no_output_is_written_over_the_input_or_another_output",
            None,
            no_output_is_written_over_the_input_or_another_output,
        ),
        (
            "an_interrupt_stops_a_long_search_within_a_second",
            None,
            an_interrupt_stops_a_long_search_within_a_second,
        ),
    ]);
}
