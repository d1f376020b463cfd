//! A search's result does not depend on what was prepared before it: the
//! solved kings-only draws the search uses are built before its workers
//! start, whether the engine had time to build them ahead (after `init`,
//! or idle for a while) or the search comes first thing in a fresh
//! process. (An engine that searched on without them until a background
//! build finished gave 6,324 nodes here when fresh and 128 once built.)
//! Nor on how far a new hash table has been warmed: a search that ends on
//! a depth waits for the whole table (one that used the part warmed so far
//! counted 5,413 nodes where 4,736 were right, on a loaded machine).

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use tempo::game::Game;
use tempo::rules::notation::{parse_fen, to_hub};
use tempo::rules::International;
use tempo::search::tt::Table;
use tempo::search::{search, Control, Limits, SearchSetup};

/// Two kings against one: every node of the tree is a solved ending.
const KINGS: &str = "W:WK1,K3:BK36";
const DEPTH: u32 = 7;

/// How a fresh `tempo hub` process is started before its first search.
#[derive(Clone, Copy, Debug)]
enum Start {
    /// The search comes right after the handshake.
    Fresh,
    /// After `init` and its `ready`.
    Init,
    /// After `init`, then two seconds idle: any background work is done.
    Idle,
}

/// The node count of a fixed-depth analysis of `fen` in a fresh `tempo
/// hub` process that is sent `setup` (Hub lines) after the handshake and
/// is then started as `start` says.
fn hub_nodes(start: Start, setup: &[&str], fen: &str, depth: u32) -> u64 {
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
    for line in setup {
        send(line);
    }
    if !matches!(start, Start::Fresh) {
        send("init");
        while next() != "ready" {}
    }
    if matches!(start, Start::Idle) {
        std::thread::sleep(Duration::from_secs(2));
    }
    let pos = to_hub(&parse_fen::<International>(fen).unwrap());
    send(&format!("pos pos={pos}"));
    send(&format!("level depth={depth}"));
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
    let fresh = hub_nodes(Start::Fresh, &[], KINGS, DEPTH);
    for start in [Start::Init, Start::Idle] {
        let nodes = hub_nodes(start, &[], KINGS, DEPTH);
        assert_eq!(nodes, fresh, "{start:?} against a fresh process");
    }
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

#[test]
fn a_fixed_depth_search_right_after_a_new_hash_size_uses_the_whole_table() {
    // A 1 GiB table takes a good part of a second to warm, far longer than
    // this search; the same search once the table is warm is the reference.
    let setup = ["set-param name=hash value=1024"];
    let start = "W:W31-50:B1-20";
    let warm = hub_nodes(Start::Idle, &setup, start, DEPTH);
    assert_eq!(hub_nodes(Start::Fresh, &setup, start, DEPTH), warm);
}
