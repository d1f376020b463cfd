//! `tempo serve`: its endpoints and refusals over HTTP (a game saved with
//! its variations and read back with them among them), and the page in a
//! headless Chromium: moves played by clicking squares (a capture among
//! them, and one entered landing by landing), the engine's answer, a move
//! taken back, a FEN loaded, analysis started and stopped, its lines
//! clicked onto the board and its best move drawn, a variation kept, saved
//! and loaded back, the review's graph clicked; and the page's refusals and state kept right: a bad FEN or
//! seconds value refused in sight, a PDN's errors kept in sight, the moves
//! numbered and followed, old analysis cleared, the engine's side kept,
//! the bar flipped with the board, the players named, Russian moves in
//! coordinates, the result shown large.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;

#[path = "common/harness.rs"]
mod harness;

#[path = "common/browser.rs"]
mod browser;
#[path = "common/serve_process.rs"]
mod serve_process;

use serve_process::Served;

/// A request without keep-alive: the status and the body.
fn request(address: &str, method: &str, path: &str, body: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .unwrap();
    // The server may refuse before it has read a large body.
    let _ = stream.write_all(body);
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes);
    let text = String::from_utf8_lossy(&bytes).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head:?}"));
    (status, body.to_string())
}

fn get(address: &str, path: &str) -> (u16, String) {
    request(address, "GET", path, b"")
}

fn get_json(address: &str, path: &str) -> Value {
    let (status, body) = get(address, path);
    assert_eq!(status, 200, "{path}: {body}");
    serde_json::from_str(&body).unwrap()
}

/// The legal moves of a `/api/state` answer, each as its `form` (`hub`
/// or `text`).
fn legal_moves<'a>(state: &'a Value, form: &str) -> Vec<&'a str> {
    state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m[form].as_str().unwrap())
        .collect()
}

/// The error message of a refusal with `status`.
fn refused(address: &str, path: &str, status: u16) -> String {
    let (got, body) = get(address, path);
    assert_eq!(got, status, "{path}: {body}");
    let value: Value = serde_json::from_str(&body).unwrap();
    value["error"].as_str().unwrap().to_string()
}

/// An open event stream.
struct Events(BufReader<TcpStream>);

impl Events {
    fn open(address: &str, path: &str) -> Events {
        let mut stream = TcpStream::connect(address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: {address}\r\n\r\n").unwrap();
        let mut reader = BufReader::new(stream);
        let mut status = String::new();
        reader.read_line(&mut status).unwrap();
        assert!(status.contains(" 200 "), "{path}: {status}");
        let mut line = String::new();
        while reader.read_line(&mut line).unwrap() > 0 && line != "\r\n" {
            line.clear();
        }
        Events(reader)
    }

    /// The next event: its name and data.
    fn next(&mut self) -> (String, Value) {
        let (mut name, mut data) = (String::new(), String::new());
        loop {
            let mut line = String::new();
            assert!(self.0.read_line(&mut line).unwrap() > 0, "the stream ended");
            let line = line.trim_end();
            if let Some(rest) = line.strip_prefix("event: ") {
                name = rest.to_string();
            } else if let Some(rest) = line.strip_prefix("data: ") {
                data = rest.to_string();
            } else if line.is_empty() && !name.is_empty() {
                return (name, serde_json::from_str(&data).unwrap());
            }
        }
    }
}

fn the_state_of_a_game_under_the_rules() {
    let server = Served::start(&[], Stdio::inherit());
    let a = &server.address;
    let start = get_json(a, "/api/state");
    assert_eq!(start["side"], "white");
    assert_eq!(start["size"], 10);
    assert_eq!(start["squares"].as_array().unwrap().len(), 50);
    assert_eq!(start["legal"].as_array().unwrap().len(), 9);
    assert_eq!(start["result"], "*");
    // A capture is forced and its captured square named.
    let state = get_json(a, "/api/state?moves=32-28+19-23");
    assert_eq!(state["legal"].as_array().unwrap().len(), 1);
    assert_eq!(state["legal"][0]["hub"], "28x19x23");
    assert_eq!(state["legal"][0]["captured"][0], 23);
    assert_eq!(state["history"][1]["text"], "19-23");
    // Every variant has a board and moves at the start.
    for variant in get_json(a, "/api/variants").as_array().unwrap() {
        let name = variant["name"].as_str().unwrap();
        let state = get_json(a, &format!("/api/state?variant={name}"));
        let size = variant["size"].as_u64().unwrap();
        assert_eq!(state["size"].as_u64(), Some(size), "{name}");
        assert!(!state["legal"].as_array().unwrap().is_empty(), "{name}");
    }
    // The levels, weakest first, the last one full strength.
    let levels = get_json(a, "/api/levels");
    let levels = levels.as_array().unwrap();
    assert_eq!(levels.len(), tempo::engine::strength::MAX_LEVEL as usize);
    assert!(levels
        .windows(2)
        .all(|w| w[0]["elo"].as_u64() < w[1]["elo"].as_u64()));
    assert_eq!(
        levels[0]["plan"],
        "depth 1, one of 6 moves within 0.80 of the best"
    );
    assert_eq!(levels.last().unwrap()["plan"], "full strength");
    // A game over: its result and reason, and no moves.
    let over = get_json(a, "/api/state?fen=B:W28:B");
    assert_eq!(over["result"], "1-0");
    assert!(over["reason"].as_str().unwrap().contains("Black"), "{over}");
    assert!(over["legal"].as_array().unwrap().is_empty());
}

fn bad_requests_are_refused_with_a_reason() {
    let server = Served::start(&[], Stdio::inherit());
    let a = &server.address;
    assert!(refused(a, "/api/state?variant=chess", 400).contains("brazilian"));
    assert!(refused(a, "/api/state?fen=W:W99:B1", 400).contains("99"));
    let why = refused(a, "/api/state?moves=32-28+19-23+28-22", 400);
    assert!(why.contains("move 3 '28-22'"), "{why}");
    assert!(refused(a, "/api/play?fen=B:W28:B", 400).contains("the game is over"));
    assert!(refused(a, "/api/play?level=99", 400).contains("level"));
    assert!(refused(a, "/api/analyse?lines=0", 400).contains("lines"));
    assert!(refused(a, "/api/review", 400).contains("no moves"));
    assert!(refused(a, "/nowhere", 404).contains("/nowhere"));
    let (status, _) = request(a, "POST", "/api/state", b"");
    assert_eq!(status, 405);
    let (status, body) = request(a, "POST", "/api/pdn", &vec![b' '; 5 << 20]);
    assert_eq!(status, 413, "{body}");
    let (status, body) = request(
        a,
        "POST",
        "/api/pdn",
        b"[White \"a\"]\n\n1. 32-28 99-98 *\n",
    );
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("99-98"), "{body}");
    let (status, _) = request(a, "POST", "/api/pdn", b"");
    assert_eq!(status, 400);
    // The server still answers after all that.
    assert_eq!(get_json(a, "/api/state")["side"], "white");
}

fn pdn_out_and_back_and_the_engine_move() {
    let server = Served::start(&[], Stdio::inherit());
    let a = &server.address;
    let (status, pdn) = get(a, "/api/pdn?moves=32-28+19-23+28x19&white=Ann");
    assert_eq!(status, 200);
    assert!(
        pdn.contains("[White \"Ann\"]") && pdn.contains("28x19"),
        "{pdn}"
    );
    let (status, body) = request(a, "POST", "/api/pdn", pdn.as_bytes());
    assert_eq!(status, 200, "{body}");
    let read: Value = serde_json::from_str(&body).unwrap();
    let moves: Vec<&str> = read["games"][0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(moves, ["32-28", "19-23", "28x19x23"]);
    // The engine answers with a legal move, in the game's variant.
    for (variant, moves) in [("international", "32-28+19-23"), ("brazilian", "")] {
        let path = format!("/api/play?variant={variant}&moves={moves}&movetime=0.2&level=3");
        let played = get_json(a, &path);
        let hub = played["move"]["hub"].as_str().unwrap();
        let state = get_json(a, &format!("/api/state?variant={variant}&moves={moves}"));
        let legal = legal_moves(&state, "hub");
        assert!(legal.contains(&hub), "{variant}: {hub} not in {legal:?}");
    }
}

fn analysis_streams_until_the_reader_goes_and_frees_its_place() {
    let server = Served::start(&["--max-searches", "1"], Stdio::inherit());
    let a = &server.address;
    let mut events = Events::open(a, "/api/analyse?moves=32-28&lines=2");
    let mut depths = Vec::new();
    while depths.len() < 6 {
        let (name, data) = events.next();
        assert_eq!(name, "line", "{data}");
        assert!(data["pv"].as_array().is_some_and(|pv| !pv.is_empty()));
        depths.push(data["depth"].as_u64().unwrap());
    }
    assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{depths:?}");
    // One search at a time: the second is refused while the first runs.
    assert!(refused(a, "/api/play?movetime=0.05", 503).contains("--max-searches"));
    drop(events);
    // Closing the stream stops the search and frees its place.
    let start = Instant::now();
    loop {
        let (status, body) = get(a, "/api/play?movetime=0.05");
        if status == 200 {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "{status} {body}");
        std::thread::sleep(Duration::from_millis(100));
    }
    // A review: progress for each position, then the report's section.
    let mut review = Events::open(a, "/api/review?moves=32-28+19-23+28x19&depth=4");
    let mut progress = 0;
    loop {
        let (name, data) = review.next();
        match name.as_str() {
            "progress" => progress = data["done"].as_u64().unwrap(),
            "report" => {
                let html = data["html"].as_str().unwrap();
                assert!(html.contains("<svg") && html.contains("28x19"), "{html}");
                break;
            }
            other => panic!("{other}: {data}"),
        }
    }
    assert_eq!(progress, 4);
}

/// Where the screenshot goes: `TEMPO_SCREENSHOT`, or the tests' own folder.
fn screenshot_path() -> PathBuf {
    std::env::var_os("TEMPO_SCREENSHOT").map_or_else(
        || PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("serve.png"),
        PathBuf::from,
    )
}

/// How many moves the page's move list shows.
const MOVES: &str = "document.querySelectorAll('#moves li').length";

/// Runs `test` on a server and its board page in a headless Chromium,
/// loaded, with the engine playing neither side; nothing on a machine
/// without Chromium (`what` says what was not opened).
fn with_board(what: &str, test: impl FnOnce(&Served, browser::Browser)) {
    let Some(chromium) = browser::chromium_for(what) else {
        return;
    };
    let server = Served::start(&[], Stdio::inherit());
    let mut page = browser::Browser::start(&chromium, 1000, 900);
    page.open(
        &format!("http://{}/", server.address),
        "document.querySelectorAll('#board .piece').length > 0 \
         && document.querySelectorAll('#level option').length > 0",
    );
    set(&mut page, "engine-side", "none");
    test(&server, page);
}

/// Sets the form field `id` to `value` as a person does (a change event).
fn set(page: &mut browser::Browser, id: &str, value: &str) {
    let value = serde_json::to_string(value).unwrap();
    page.eval(&format!(
        "(() => {{ const e = document.getElementById('{id}'); e.value = {value}; \
         e.dispatchEvent(new Event('change')); }})()"
    ));
}

/// Plays `from`-`to` by clicking the two squares, and waits for the move
/// list to hold `count` moves.
fn click_move(page: &mut browser::Browser, from: u32, to: u32, count: usize) {
    page.click(&format!("[data-square='{from}']"));
    page.wait_for(
        &format!(
            "document.querySelector('[data-square=\"{from}\"]').classList.contains('selected')"
        ),
        Duration::from_secs(5),
    );
    page.click(&format!("[data-square='{to}']"));
    page.wait_for(&format!("{MOVES} === {count}"), Duration::from_secs(10));
}

/// Pastes `pdn` into the page's PDN box, loads it, and waits for the
/// move list to hold its game's `count` moves.
fn load_pdn(page: &mut browser::Browser, pdn: &str, count: usize) {
    let text = serde_json::to_string(pdn).unwrap();
    page.eval(&format!(
        "document.getElementById('pdn-text').value = {text}"
    ));
    page.click("#load-pdn");
    page.wait_for(&format!("{MOVES} === {count}"), Duration::from_secs(10));
}

/// Waits for the board to hold `pieces` pieces.
fn wait_for_pieces(page: &mut browser::Browser, pieces: usize) {
    page.wait_for(
        &format!("document.querySelectorAll('#board .piece').length === {pieces}"),
        Duration::from_secs(10),
    );
}

/// Types `fen` into the page's FEN box, loads it, and waits for the
/// board to hold its `pieces` pieces and no moves.
fn load_fen(page: &mut browser::Browser, fen: &str, pieces: usize) {
    let text = serde_json::to_string(fen).unwrap();
    page.eval(&format!("document.getElementById('fen').value = {text}"));
    page.click("#load-fen");
    page.wait_for(
        &format!("document.querySelectorAll('#board .piece').length === {pieces} && {MOVES} === 0"),
        Duration::from_secs(10),
    );
}

/// Whether the page shows `text` to a reader (rendered, not hidden).
fn shows(page: &mut browser::Browser, text: &str) -> bool {
    let text = serde_json::to_string(text).unwrap();
    page.eval(&format!("document.body.innerText.includes({text})")) == serde_json::json!(true)
}

/// A game of `plies` moves (fewer if it ends), each the first legal move,
/// in Hub form.
fn a_long_game(address: &str, plies: usize) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    while moves.len() < plies {
        let state = get_json(address, &format!("/api/state?moves={}", moves.join("+")));
        let Some(first) = legal_moves(&state, "hub").first().map(|m| m.to_string()) else {
            break;
        };
        moves.push(first);
    }
    moves
}

fn the_page_plays_and_analyses_in_a_browser() {
    with_board("the page", |server, mut page| {
        // Both sides by clicks: a move each, then White's capture.
        for (from, to, count) in [(32, 28, 1), (19, 23, 2), (28, 19, 3)] {
            click_move(&mut page, from, to, count);
        }
        assert_eq!(
            page.eval("document.querySelector('#moves li:last-child .mv').textContent"),
            "28x19"
        );
        assert_eq!(
            page.eval("document.querySelectorAll('#board .piece').length"),
            39
        );
        // The engine takes Black and answers with a legal move.
        assert_eq!(
            page.eval("document.querySelectorAll('#level option').length"),
            tempo::engine::strength::MAX_LEVEL
        );
        set(&mut page, "level", "2");
        set(&mut page, "movetime", "0.2");
        set(&mut page, "engine-side", "black");
        page.wait_for(&format!("{MOVES} === 4"), Duration::from_secs(30));
        let answer = page.eval("document.querySelector('#moves li:last-child .mv').textContent");
        let state = get_json(&server.address, "/api/state?moves=32-28+19-23+28x19");
        let legal = legal_moves(&state, "text");
        assert!(
            legal
                .iter()
                .any(|m| answer.as_str().is_some_and(|a| a.ends_with(m))),
            "{answer} not in {legal:?}"
        );
        // Take back: the engine's move and the player's.
        page.click("#undo");
        page.wait_for(
            &format!(
                "{MOVES} === 2 && document.getElementById('status').textContent === 'White to move'"
            ),
            Duration::from_secs(10),
        );
        // A position from a FEN: twelve men and a king each side.
        set(&mut page, "engine-side", "none");
        load_fen(
            &mut page,
            "W:W27,28,31,32,33,34,37,38,39,42,43,44,K46:B3,7,8,9,12,13,14,16,17,18,19,23,K5",
            26,
        );
        assert_eq!(
            page.eval("document.querySelectorAll('#board .piece.king').length"),
            serde_json::json!(2)
        );
        // The board editor: a white king put on an empty square.
        page.click("#edit");
        set(&mut page, "edit-piece", "W");
        page.click("[data-square='50']");
        page.click("#edit-done");
        page.wait_for(
            "document.querySelectorAll('#board .piece').length === 27 \
             && document.querySelector('[data-square=\"50\"] .piece.white.king') !== null \
             && document.getElementById('fen').value.includes('K50')",
            Duration::from_secs(10),
        );
        // Analysis: lines with a depth appear; stopped, they stay as they are.
        set(&mut page, "lines", "2");
        page.click("#analyse");
        page.wait_for(
            "/depth [0-9]+/.test(document.getElementById('analysis').textContent) \
             && document.querySelectorAll('#analysis li').length === 2 \
             && Number((document.querySelector('#analysis .depth')?.textContent ?? '').split(' ')[1]) >= 8",
            Duration::from_secs(30),
        );
        let png = page.screenshot();
        assert!(png.starts_with(b"\x89PNG"), "not a PNG");
        std::fs::write(screenshot_path(), png).unwrap();
        page.click("#analyse");
        page.wait_for(
            "document.getElementById('analysis-state').textContent === 'stopped'",
            Duration::from_secs(5),
        );
        let lines = page.eval("document.getElementById('analysis').textContent");
        std::thread::sleep(Duration::from_millis(800));
        assert_eq!(
            page.eval("document.getElementById('analysis').textContent"),
            lines
        );
        assert!(
            page.errors.is_empty(),
            "errors in the page: {:?}",
            page.errors
        );
    });
}

fn a_bad_fen_is_refused_and_the_game_goes_on() {
    with_board("a bad FEN", |_server, mut page| {
        click_move(&mut page, 32, 28, 1);
        page.eval("document.getElementById('fen').value = 'W:W99:B1'");
        page.click("#load-fen");
        page.wait_for(
            "document.body.innerText.includes('cannot read the position')",
            Duration::from_secs(5),
        );
        // The game is as it was: its move kept, and the next one played.
        assert_eq!(page.eval(MOVES), 1);
        click_move(&mut page, 19, 23, 2);
        // The refusal's 400 is logged; nothing else went wrong in the page.
        let errors: Vec<&String> = page
            .errors
            .iter()
            .filter(|e| !e.contains("status of 400"))
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
    });
}

fn a_pdn_read_error_stays_in_sight() {
    with_board("a PDN with an error", |_server, mut page| {
        load_pdn(
            &mut page,
            "[White \"a\"]\n\n1. 32-28 19-23 *\n\n[White \"b\"]\n\n1. 32-28 99-98 *\n",
            2,
        );
        std::thread::sleep(Duration::from_millis(500));
        assert!(
            shows(&mut page, "could not be read"),
            "{}",
            page.eval("document.body.innerText")
        );
        assert!(shows(&mut page, "99-98"));
    });
}

fn the_moves_after_the_one_shown_keep_their_numbers_and_notation() {
    with_board("a game read from PDN", |_server, mut page| {
        load_pdn(&mut page, "1. 32-28 19-23 2. 28x19 14x23 *\n", 4);
        let texts =
            page.eval("Array.from(document.querySelectorAll('#moves li'), (li) => li.textContent)");
        assert_eq!(
            texts,
            serde_json::json!(["1.32-28", "19-23", "2.28x19", "14x23"])
        );
        // The same once the last move is shown.
        page.click("#last");
        page.wait_for(
            "document.querySelector('#moves li.current')?.dataset.ply === '4'",
            Duration::from_secs(10),
        );
        let shown =
            page.eval("Array.from(document.querySelectorAll('#moves li'), (li) => li.textContent)");
        assert_eq!(shown, texts);
    });
}

fn the_move_list_follows_the_move_shown() {
    with_board("a long game", |server, mut page| {
        let moves = a_long_game(&server.address, 120);
        assert!(moves.len() > 60, "{moves:?}");
        let (status, pdn) = get(
            &server.address,
            &format!("/api/pdn?moves={}", moves.join("+")),
        );
        assert_eq!(status, 200);
        load_pdn(&mut page, &pdn, moves.len());
        page.click("#last");
        let in_sight = "(() => { const li = document.querySelector('#moves li.current'); \
            const list = document.getElementById('moves').getBoundingClientRect(); \
            if (!li) return false; const r = li.getBoundingClientRect(); \
            return r.top >= list.top - 1 && r.bottom <= list.bottom + 1; })()";
        page.wait_for(in_sight, Duration::from_secs(10));
        page.click("#first");
        page.wait_for(
            "document.getElementById('moves').scrollTop === 0",
            Duration::from_secs(10),
        );
    });
}

fn analysis_of_another_position_does_not_linger_after_stop() {
    with_board("analysis stopped", |_server, mut page| {
        click_move(&mut page, 32, 28, 1);
        page.click("#analyse");
        page.wait_for(
            "document.querySelectorAll('#analysis li').length > 0",
            Duration::from_secs(30),
        );
        page.click("#analyse");
        page.wait_for(
            "document.getElementById('analysis-state').textContent === 'stopped'",
            Duration::from_secs(5),
        );
        page.click("#prev");
        page.wait_for(
            "document.querySelector('#moves li.current') === null",
            Duration::from_secs(10),
        );
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(
            page.eval("document.querySelectorAll('#analysis li').length"),
            0
        );
        assert_eq!(
            page.eval("document.getElementById('evalbar').classList.contains('idle')"),
            true
        );
    });
}

fn a_click_on_a_captures_path_keeps_the_piece_picked() {
    with_board("a capture's path", |_server, mut page| {
        click_move(&mut page, 32, 28, 1);
        click_move(&mut page, 19, 23, 2);
        page.click("[data-square='28']");
        page.click("[data-square='23']");
        std::thread::sleep(Duration::from_millis(200));
        assert_eq!(
            page.eval(
                "document.querySelector('[data-square=\"28\"]').classList.contains('selected')"
            ),
            true
        );
        page.click("[data-square='19']");
        page.wait_for(&format!("{MOVES} === 3"), Duration::from_secs(10));
    });
}

fn a_loaded_game_keeps_the_engines_side() {
    with_board("the engine's side", |_server, mut page| {
        set(&mut page, "movetime", "0.2");
        set(&mut page, "engine-side", "black");
        load_pdn(&mut page, "1. 32-28 19-23 2. 28x19 *\n", 3);
        page.click("#last");
        page.wait_for(
            "document.querySelector('#moves li.current')?.dataset.ply === '3'",
            Duration::from_secs(10),
        );
        assert_eq!(
            page.eval("document.getElementById('engine-side').value"),
            "black"
        );
        // Reading a game, the engine does not add to it.
        std::thread::sleep(Duration::from_millis(800));
        assert_eq!(page.eval(MOVES), 3);
    });
}

fn bad_seconds_are_refused_and_the_engine_still_answers() {
    with_board("bad seconds", |_server, mut page| {
        set(&mut page, "movetime", "0.2");
        set(&mut page, "movetime", "500");
        page.wait_for(
            "document.body.innerText.includes('seconds a move: ')",
            Duration::from_secs(5),
        );
        set(&mut page, "engine-side", "black");
        click_move(&mut page, 32, 28, 1);
        page.wait_for(&format!("{MOVES} === 2"), Duration::from_secs(20));
    });
}

fn the_evaluation_bar_turns_with_the_board() {
    with_board("the board flipped", |_server, mut page| {
        // White's part of the bar is at the bottom, then at the top.
        let white_at = "(() => { const bar = document.getElementById('evalbar').getBoundingClientRect(); \
            const fill = document.getElementById('evalfill').getBoundingClientRect(); \
            return Math.abs(fill.top - bar.top) < 2 ? 'top' : Math.abs(fill.bottom - bar.bottom) < 2 ? 'bottom' : 'neither'; })()";
        assert_eq!(page.eval(white_at), "bottom");
        page.click("#flip");
        page.wait_for(&format!("{white_at} === 'top'"), Duration::from_secs(5));
    });
}

fn the_review_names_the_players_of_the_pdn_and_its_graph_is_clickable() {
    with_board("a review", |_server, mut page| {
        load_pdn(
            &mut page,
            "[White \"Ann Smith\"]\n[Black \"Bob Jones\"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n",
            4,
        );
        page.click("#review");
        page.wait_for(
            "document.querySelector('#report h2') !== null",
            Duration::from_secs(60),
        );
        let heading = page.eval("document.querySelector('#report h2').textContent");
        assert!(
            heading
                .as_str()
                .is_some_and(|h| h.contains("Ann Smith") && h.contains("Bob Jones")),
            "{heading}"
        );
        // Its graph clicked in the middle: the position after the second of
        // the four moves, marked on the graph.
        page.click("#report svg.graph");
        page.wait_for(
            "document.querySelector('#moves li.current')?.dataset.ply === '2' \
             && document.querySelector('#report svg.graph .now') !== null",
            Duration::from_secs(10),
        );
    });
}

fn russian_moves_are_written_in_algebraic_notation() {
    with_board("Russian draughts", |server, mut page| {
        set(&mut page, "variant", "russian");
        wait_for_pieces(&mut page, 24);
        let state = get_json(&server.address, "/api/state?variant=russian");
        let first = &state["legal"][0];
        let (from, to) = (
            first["from"].as_u64().unwrap(),
            first["to"].as_u64().unwrap(),
        );
        click_move(&mut page, from as u32, to as u32, 1);
        let text = page.eval("document.querySelector('#moves li .mv').textContent");
        let text = text.as_str().unwrap();
        let b = text.as_bytes();
        // a1 is White's left corner: a first move goes from the third rank
        // to the fourth (c3-d4, say).
        assert!(
            b.len() == 5 && b"aceg".contains(&b[0]) && b[1] == b'3' && b[2] == b'-' && b[4] == b'4',
            "{text}"
        );
    });
}

fn the_result_is_shown_large() {
    with_board("a game over", |_server, mut page| {
        load_fen(&mut page, "B:W28:B", 1);
        page.wait_for(
            "!document.getElementById('result').hidden",
            Duration::from_secs(5),
        );
        let size =
            page.eval("parseFloat(getComputedStyle(document.getElementById('result')).fontSize)");
        let status =
            page.eval("parseFloat(getComputedStyle(document.getElementById('status')).fontSize)");
        assert!(
            size.as_f64() > status.as_f64().map(|s| s * 1.4),
            "{size} {status}"
        );
        assert!(shows(&mut page, "1-0"));
    });
}

fn an_analysis_line_is_drawn_as_an_arrow_and_clicked_onto_the_board() {
    with_board("clickable lines", |_server, mut page| {
        click_move(&mut page, 32, 28, 1);
        page.click("#analyse");
        page.wait_for(
            "document.querySelectorAll('#analysis li:first-child .pv-move').length >= 3 \
             && document.getElementById('arrow') !== null",
            Duration::from_secs(30),
        );
        page.click("#analyse");
        page.wait_for(
            "document.getElementById('analysis-state').textContent === 'stopped'",
            Duration::from_secs(5),
        );
        // The arrow goes from the best move's first square to its last.
        let pv = page.eval(
            "Array.from(document.querySelectorAll('#analysis li:first-child .pv-move'), (a) => a.textContent)",
        );
        let pv: Vec<&str> = pv
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let squares: Vec<&str> = pv[0].split(['-', 'x']).collect();
        let arrow = page.eval(
            "(() => { const l = document.querySelector('#arrow line'); return [l.dataset.from, l.dataset.to]; })()",
        );
        assert_eq!(
            arrow,
            serde_json::json!([squares[0], squares[squares.len() - 1]]),
            "{pv:?}"
        );
        // Its head is on the square arrived at, its tail on the one left.
        let ends = "(() => { const line = document.querySelector('#arrow line'); \
            const b = line.getBoundingClientRect(); \
            const meets = (n) => { const r = document.querySelector(`[data-square='${n}']`).getBoundingClientRect(); \
            return b.left < r.right && b.right > r.left && b.top < r.bottom && b.bottom > r.top; }; \
            return meets(line.dataset.from) && meets(line.dataset.to) && b.width > 0; })()";
        assert_eq!(page.eval(ends), true);
        page.click("#flip");
        page.wait_for(ends, Duration::from_secs(5));
        // The line's second move clicked: both played onto the board.
        page.click("#analysis li:first-child .pv-move:nth-of-type(2)");
        page.wait_for(&format!("{MOVES} === 3"), Duration::from_secs(10));
        let played = page.eval(
            "Array.from(document.querySelectorAll('#moves li .mv'), (m) => m.textContent).slice(1)",
        );
        assert_eq!(played, serde_json::json!(pv[..2]));
    });
}

fn a_capture_is_entered_square_by_square() {
    with_board("a capture by its squares", |_server, mut page| {
        // 33 takes 28 landing on 22, then 17 (to 11) or 18 (to 13).
        load_fen(&mut page, "W:W33,45:B17,18,28,5", 6);
        page.click("[data-square='33']");
        page.click("[data-square='22']");
        let marks = "(() => { const has = (c) => Array.from(document.querySelectorAll(`#board .${c}`), \
            (e) => Number(e.dataset.square)).sort((a, b) => a - b); \
            return { selected: has('selected'), passed: has('passed'), taken: has('taken'), target: has('target') }; })()";
        page.wait_for(
            &format!("{marks}.passed.length === 1"),
            Duration::from_secs(5),
        );
        assert_eq!(
            page.eval(marks),
            serde_json::json!({ "selected": [33], "passed": [22], "taken": [28], "target": [11, 13] })
        );
        page.click("[data-square='13']");
        page.wait_for(&format!("{MOVES} === 1"), Duration::from_secs(10));
        assert_eq!(
            page.eval("document.querySelector('#moves li .mv').textContent"),
            "33x13"
        );
        assert_eq!(
            page.eval("document.querySelectorAll('#board .piece.black').length"),
            2
        );
    });
}

fn a_game_is_saved_with_its_variations() {
    let server = Served::start(&[], Stdio::inherit());
    let a = &server.address;
    let tree = "32-28+(+33-29+)+19-23+(+17-22+(+18-22+)+28x17+)+28x19x23";
    let (status, pdn) = get(a, &format!("/api/pdn?tree={tree}&white=Ann"));
    assert_eq!(status, 200, "{pdn}");
    assert!(pdn.contains("[White \"Ann\"]"), "{pdn}");
    assert!(
        pdn.contains(
            "1. 32-28 (1. 33-29) 1... 19-23 (1... 17-22 (1... 18-22) 2. 28x17) 2. 28x19 *"
        ),
        "{pdn}"
    );
    // Read back, the main line is the game.
    let (status, body) = request(a, "POST", "/api/pdn", pdn.as_bytes());
    assert_eq!(status, 200, "{body}");
    let read: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        read["games"][0]["moves"],
        serde_json::json!(["32-28", "19-23", "28x19x23"])
    );
    // And the variations come back as the page keeps them.
    let mv = |hub: &str, text: &str| serde_json::json!({ "hub": hub, "text": text });
    let with = |mut m: Value, lines: Value| {
        m["variations"] = lines;
        m
    };
    assert_eq!(
        read["games"][0]["tree"],
        serde_json::json!([
            with(
                mv("32-28", "32-28"),
                serde_json::json!([[mv("33-29", "33-29")]])
            ),
            with(
                mv("19-23", "19-23"),
                serde_json::json!([[
                    with(
                        mv("17-22", "17-22"),
                        serde_json::json!([[mv("18-22", "18-22")]])
                    ),
                    mv("28x17x22", "28x17"),
                ]])
            ),
            mv("28x19x23", "28x19"),
        ])
    );
    assert_eq!(read["games"][0]["warnings"], serde_json::json!([]));
    // A variation with an illegal move is left out, with its line.
    let pdn = "1. 32-28 (1. 33-29)\n19-23 (1... 32-26) *";
    let (status, body) = request(a, "POST", "/api/pdn", pdn.as_bytes());
    assert_eq!(status, 200, "{body}");
    let read: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        read["games"][0]["moves"],
        serde_json::json!(["32-28", "19-23"])
    );
    assert_eq!(read["games"][0]["tree"][1], mv("19-23", "19-23"), "{body}");
    let warning = read["games"][0]["warnings"][0].as_str().unwrap();
    assert!(
        warning.starts_with("line 2: a variation is left out: move '32-26'"),
        "{warning}"
    );
    // A tree that does not hold together is refused, and why.
    for (tree, why) in [
        ("(+32-28+)", "must follow"),
        ("32-28+(+33-29", "not closed"),
        ("32-28+)", "closes no"),
        ("32-28+(+32-26+)", "32-26"),
    ] {
        let message = refused(a, &format!("/api/pdn?tree={tree}"), 400);
        assert!(message.contains(why), "{tree}: {message}");
    }
    let deep = format!("32-28{}", "+(+33-29".repeat(40));
    assert!(refused(a, &format!("/api/pdn?tree={deep}"), 400).contains("deep"));
}

fn a_move_tried_beside_the_game_is_kept_as_a_variation_and_saved() {
    with_board("a variation", |_server, mut page| {
        for (from, to, count) in [(32, 28, 1), (19, 23, 2), (28, 19, 3)] {
            click_move(&mut page, from, to, count);
        }
        // Back to Black's first move, and another tried there.
        page.click("#prev");
        page.click("#prev");
        page.wait_for(
            "document.querySelector('#moves li.current')?.dataset.ply === '1'",
            Duration::from_secs(10),
        );
        click_move(&mut page, 17, 22, 4);
        // The moves of the main line, and those of the variations.
        let shown = |page: &mut browser::Browser| {
            let texts = |which: &str| {
                format!("Array.from(document.querySelectorAll('#moves li{which}'), (li) => li.textContent)")
            };
            serde_json::json!([page.eval(&texts(":not(.var)")), page.eval(&texts(".var"))])
        };
        let tree = serde_json::json!([["1.32-28", "19-23", "2.28x19"], ["(1...17-22)"]]);
        assert_eq!(shown(&mut page), tree);
        assert_eq!(
            page.eval("document.querySelector('#moves li.current').textContent"),
            "(1...17-22)"
        );
        // The main line is still there to go back to.
        page.click("#moves li:nth-child(4)");
        page.wait_for(
            "document.querySelector('#moves li.current')?.textContent === '2.28x19'",
            Duration::from_secs(10),
        );
        // Saved, the PDN has the variation.
        let folder = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("downloads-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::create_dir_all(&folder).unwrap();
        page.save_downloads_in(&folder);
        page.click("#save-pdn");
        let saved = folder.join("game.pdn");
        let start = Instant::now();
        while !saved.is_file() && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(100));
        }
        let pdn =
            std::fs::read_to_string(&saved).unwrap_or_else(|e| panic!("{}: {e}", saved.display()));
        assert!(
            pdn.contains("1. 32-28 19-23 (1... 17-22) 2. 28x19 *"),
            "{pdn}"
        );
        let _ = std::fs::remove_dir_all(&folder);
        // A new game, then the PDN saved loaded back: the variation is there.
        page.click("#new");
        page.wait_for(&format!("{MOVES} === 0"), Duration::from_secs(10));
        load_pdn(&mut page, &pdn, 4);
        assert_eq!(shown(&mut page), tree);
        // And it is a line of the game: clicked, its position is on the board.
        page.click("#moves li.var");
        page.wait_for(
            "document.querySelector('#moves li.current')?.textContent === '(1...17-22)'",
            Duration::from_secs(10),
        );
        let black = page.eval(
            "Array.from(document.querySelectorAll('#board .piece.black'), \
             (p) => Number(p.parentElement.dataset.square))",
        );
        let black: Vec<u64> = black
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_u64)
            .collect();
        assert!(black.contains(&22) && !black.contains(&17), "{black:?}");
    });
}

fn two_captures_to_one_square_are_told_apart_by_a_piece_or_a_landing() {
    with_board("two captures to one square", |_server, mut page| {
        // English checkers, Black to move: 6 reaches 22 over 9 and 17
        // (landing on 13) or over 10 and 18 (landing on 15).
        set(&mut page, "variant", "english");
        let position = |page: &mut browser::Browser| {
            // The new game's start on the board first, or it would overwrite
            // the FEN typed.
            wait_for_pieces(page, 24);
            load_fen(page, "B:W9,10,17,18,32:B6,1", 7);
        };
        let white = "Array.from(document.querySelectorAll('#board .piece.white'), \
            (p) => Number(p.parentElement.dataset.square)).sort((a, b) => a - b)";
        // The square reached: the pieces to take offered, one clicked.
        position(&mut page);
        page.click("[data-square='6']");
        page.click("[data-square='22']");
        page.wait_for(
            "document.querySelectorAll('#board .choice').length === 4",
            Duration::from_secs(5),
        );
        page.click("[data-square='17']");
        page.wait_for(&format!("{MOVES} === 1"), Duration::from_secs(10));
        assert_eq!(page.eval(white), serde_json::json!([10, 18, 32]));
        // The landing on the way clicked first: the capture through it.
        page.click("#new");
        position(&mut page);
        page.click("[data-square='6']");
        page.click("[data-square='15']");
        page.click("[data-square='22']");
        page.wait_for(&format!("{MOVES} === 1"), Duration::from_secs(10));
        assert_eq!(page.eval(white), serde_json::json!([9, 17, 32]));
    });
}

/// The tests that open the board in a browser.
const CHROMIUM: Option<harness::Need> = Some(harness::Need {
    name: "Chromium",
    missing: browser::missing,
});

fn main() {
    harness::run(&[
        (
            "the_state_of_a_game_under_the_rules",
            None,
            the_state_of_a_game_under_the_rules,
        ),
        (
            "bad_requests_are_refused_with_a_reason",
            None,
            bad_requests_are_refused_with_a_reason,
        ),
        (
            "pdn_out_and_back_and_the_engine_move",
            None,
            pdn_out_and_back_and_the_engine_move,
        ),
        (
            "analysis_streams_until_the_reader_goes_and_frees_its_place",
            None,
            analysis_streams_until_the_reader_goes_and_frees_its_place,
        ),
        (
            "the_page_plays_and_analyses_in_a_browser",
            CHROMIUM,
            the_page_plays_and_analyses_in_a_browser,
        ),
        (
            "a_bad_fen_is_refused_and_the_game_goes_on",
            CHROMIUM,
            a_bad_fen_is_refused_and_the_game_goes_on,
        ),
        (
            "a_pdn_read_error_stays_in_sight",
            CHROMIUM,
            a_pdn_read_error_stays_in_sight,
        ),
        (
            "the_moves_after_the_one_shown_keep_their_numbers_and_notation",
            CHROMIUM,
            the_moves_after_the_one_shown_keep_their_numbers_and_notation,
        ),
        (
            "the_move_list_follows_the_move_shown",
            CHROMIUM,
            the_move_list_follows_the_move_shown,
        ),
        (
            "analysis_of_another_position_does_not_linger_after_stop",
            CHROMIUM,
            analysis_of_another_position_does_not_linger_after_stop,
        ),
        (
            "a_click_on_a_captures_path_keeps_the_piece_picked",
            CHROMIUM,
            a_click_on_a_captures_path_keeps_the_piece_picked,
        ),
        (
            "a_loaded_game_keeps_the_engines_side",
            CHROMIUM,
            a_loaded_game_keeps_the_engines_side,
        ),
        (
            "bad_seconds_are_refused_and_the_engine_still_answers",
            CHROMIUM,
            bad_seconds_are_refused_and_the_engine_still_answers,
        ),
        (
            "the_evaluation_bar_turns_with_the_board",
            CHROMIUM,
            the_evaluation_bar_turns_with_the_board,
        ),
        (
            "the_review_names_the_players_of_the_pdn_and_its_graph_is_clickable",
            CHROMIUM,
            the_review_names_the_players_of_the_pdn_and_its_graph_is_clickable,
        ),
        (
            "russian_moves_are_written_in_algebraic_notation",
            CHROMIUM,
            russian_moves_are_written_in_algebraic_notation,
        ),
        (
            "the_result_is_shown_large",
            CHROMIUM,
            the_result_is_shown_large,
        ),
        (
            "an_analysis_line_is_drawn_as_an_arrow_and_clicked_onto_the_board",
            CHROMIUM,
            an_analysis_line_is_drawn_as_an_arrow_and_clicked_onto_the_board,
        ),
        (
            "a_capture_is_entered_square_by_square",
            CHROMIUM,
            a_capture_is_entered_square_by_square,
        ),
        (
            "a_game_is_saved_with_its_variations",
            None,
            a_game_is_saved_with_its_variations,
        ),
        (
            "a_move_tried_beside_the_game_is_kept_as_a_variation_and_saved",
            CHROMIUM,
            a_move_tried_beside_the_game_is_kept_as_a_variation_and_saved,
        ),
        (
            "two_captures_to_one_square_are_told_apart_by_a_piece_or_a_landing",
            CHROMIUM,
            two_captures_to_one_square_are_told_apart_by_a_piece_or_a_landing,
        ),
    ]);
}
