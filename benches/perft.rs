//! Single-threaded perft speed: International and Brazilian positions, and
//! the start position of every other 8x8 variant at the same depth as
//! Brazilian, so their leaf nodes per second compare in one run. Each
//! measured run asserts the published node count, so a change that is fast
//! but wrong fails here.
//!
//! Run with `cargo bench` (about a minute). Each position is run once to
//! warm up, then timed `RUNS` times; the line printed gives the median and
//! the fastest run, in leaf nodes a second. A plain harness of the
//! standard library: a benchmark framework's dependencies cost every test
//! build (dev-dependencies are built for the tests too) more than a minute.

use std::hint::black_box;
use std::time::{Duration, Instant};

use tempo::rules::notation::parse_fen;
use tempo::rules::perft::perft;
use tempo::rules::{Brazilian, English, International, Italian, Position, Rules, Russian};

/// Timed runs of each position.
const RUNS: usize = 7;

/// One benchmark: a position, a depth and the published count there.
fn bench_one<R: Rules>(name: &str, fen: &str, depth: u32, nodes: u64) {
    let pos: Position<R> = parse_fen(fen).expect("benchmark FEN");
    // Check once before timing, so a wrong count fails fast and plainly
    // (and the caches are warm for the timed runs).
    assert_eq!(perft(&pos, depth), nodes, "{name}: perft({depth}) of {fen}");
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let started = Instant::now();
            let n = perft(black_box(&pos), black_box(depth));
            let took = started.elapsed();
            assert_eq!(n, nodes, "{name}");
            took
        })
        .collect();
    times.sort();
    let rate = |t: Duration| nodes as f64 / t.as_secs_f64() / 1e6;
    let median = times[RUNS / 2];
    println!(
        "perft/{name:<28} {nodes:>12} leaves  median {:.3} s ({:.1} M/s)  fastest {:.3} s ({:.1} M/s)",
        median.as_secs_f64(),
        rate(median),
        times[0].as_secs_f64(),
        rate(times[0]),
    );
}

fn main() {
    // `cargo test --benches` runs this in test mode with `--bench` absent:
    // then only the counts are checked, once, at a small depth.
    if !std::env::args().any(|a| a == "--bench") {
        let pos: Position<International> = parse_fen("W:W31-50:B1-20").expect("start");
        assert_eq!(perft(&pos, 4), 4_265);
        return;
    }
    bench_one::<International>("international_start_d9", "W:W31-50:B1-20", 9, 41_022_423);
    bench_one::<Brazilian>("brazilian_start_d10", "W:W21-32:B1-12", 10, 21_560_022);
    bench_one::<Russian>("russian_start_d10", "W:W21-32:B1-12", 10, 22_444_032);
    bench_one::<English>("english_start_d10", "W:W21-32:B1-12", 10, 18_391_564);
    bench_one::<Italian>("italian_start_d10", "W:W21-32:B1-12", 10, 17_761_384);
    // 40 kings: flying moves and long king captures dominate.
    bench_one::<International>(
        "international_allkings_d8",
        "W:WK31-50:BK1-20",
        8,
        1_333_217,
    );
}
