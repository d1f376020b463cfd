//! A search's result does not depend on what was prepared before it: the
//! solved kings-only draws the search uses are built before its workers
//! start, whether the engine had time to build them ahead (after `init`) or
//! the search comes first thing in a fresh process.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use tempo::referee::Game;
use tempo::rules::notation::{parse_fen, to_hub};
use tempo::rules::International;
use tempo::search::tt::Table;
use tempo::search::{search, Control, Limits, SearchSetup};

/// Two kings against one: every node of the tree is a solved ending.
const KINGS: &str = "W:WK1,K3:BK36";
const DEPTH: u32 = 7;

/// The node count of a fixed-depth analysis in a fresh `tempo hub`
/// process, after `init` (and its `ready`) or without any.
fn hub_nodes(init: bool) -> u64 {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .arg("hub")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start tempo hub");
    let mut input = child.stdin.take().expect("stdin");
    let mut output = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut next = || {
        output
            .next()
            .expect("tempo hub ended early")
            .expect("read tempo's output")
    };
    let mut send = |line: &str| writeln!(input, "{line}").expect("write to tempo hub");
    send("hub");
    while next() != "wait" {}
    if init {
        send("init");
        while next() != "ready" {}
    }
    let pos = to_hub(&parse_fen::<International>(KINGS).unwrap());
    send(&format!("pos pos={pos}"));
    send(&format!("level depth={DEPTH}"));
    send("go analyze");
    let mut nodes = None;
    loop {
        let line = next();
        if line.starts_with("done") {
            break;
        }
        if line.starts_with("info") {
            nodes = line
                .split_whitespace()
                .find_map(|w| w.strip_prefix("nodes="))
                .and_then(|n| n.parse().ok());
        }
    }
    send("quit");
    child.wait().expect("tempo hub exits");
    nodes.expect("an info line with nodes")
}

#[test]
fn a_search_first_thing_in_a_fresh_process_counts_the_nodes_of_a_prepared_one() {
    let fresh = hub_nodes(false);
    let prepared = hub_nodes(true);
    assert_eq!(fresh, prepared, "fresh process against one after init");
    // And in this process, as a library: the same tree.
    let game = Game::new(parse_fen::<International>(KINGS).unwrap());
    let mut setup = SearchSetup::for_game(
        &game,
        Limits {
            depth: Some(DEPTH),
            ..Limits::default()
        },
    );
    setup.search_single_move = true;
    let table = Table::new(64);
    let result = search(&setup, &table, &Control::new(false), &mut |_| {});
    assert_eq!(result.nodes, fresh, "library search against tempo hub");
}
