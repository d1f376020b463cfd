//! Single-threaded perft speed: International and Brazilian positions, and
//! the start position of every other 8x8 variant at the same depth as
//! Brazilian, so their leaf nodes per second compare in one run. Each
//! measured run asserts the published node count, so a change that is fast
//! but wrong fails here.
//!
//! Run with `cargo bench` (about two minutes); the throughput criterion
//! prints is leaf nodes per second.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use tempo::rules::notation::parse_fen;
use tempo::rules::perft::perft;
use tempo::rules::{Brazilian, English, International, Italian, Position, Rules, Russian};

/// One benchmark: a position, a depth and the published count there.
fn bench_one<R: Rules>(c: &mut Criterion, name: &str, fen: &str, depth: u32, nodes: u64) {
    let pos: Position<R> = parse_fen(fen).expect("benchmark FEN");
    // Check once before timing, so a wrong count fails fast and plainly.
    assert_eq!(perft(&pos, depth), nodes, "{name}: perft({depth}) of {fen}");
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(nodes));
    group.bench_function(name, |b| {
        b.iter(|| {
            let n = perft(black_box(&pos), black_box(depth));
            assert_eq!(n, nodes, "{name}");
            n
        })
    });
    group.finish();
}

fn perft_benches(c: &mut Criterion) {
    bench_one::<International>(c, "international_start_d9", "W:W31-50:B1-20", 9, 41_022_423);
    bench_one::<Brazilian>(c, "brazilian_start_d10", "W:W21-32:B1-12", 10, 21_560_022);
    bench_one::<Russian>(c, "russian_start_d10", "W:W21-32:B1-12", 10, 22_444_032);
    bench_one::<English>(c, "english_start_d10", "W:W21-32:B1-12", 10, 18_391_564);
    bench_one::<Italian>(c, "italian_start_d10", "W:W21-32:B1-12", 10, 17_761_384);
    // 40 kings: flying moves and long king captures dominate.
    bench_one::<International>(
        c,
        "international_allkings_d8",
        "W:WK31-50:BK1-20",
        8,
        1_333_217,
    );
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
