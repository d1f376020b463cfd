//! Perft: leaves of the legal-move tree from the start of International
//! and Brazilian, each run checked against the published count.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use tempo::rules::notation::parse_fen;
use tempo::rules::perft::perft;
use tempo::rules::{Brazilian, International, Position, Rules};

fn one<R: Rules>(c: &mut Criterion, name: &str, fen: &str, depth: u32, leaves: u64) {
    let pos: Position<R> = parse_fen(fen).expect("a benchmark FEN");
    assert_eq!(perft(&pos, depth), leaves, "{name}: perft({depth})");
    let mut group = c.benchmark_group("perft");
    group.throughput(Throughput::Elements(leaves));
    group.sample_size(10);
    group.bench_function(name, |b| {
        b.iter(|| assert_eq!(perft(black_box(&pos), black_box(depth)), leaves))
    });
    group.finish();
}

fn perfts(c: &mut Criterion) {
    one::<International>(c, "international_start_d7", "W:W31-50:B1-20", 7, 1_049_442);
    one::<Brazilian>(c, "brazilian_start_d8", "W:W21-32:B1-12", 8, 907_830);
    // 40 kings: flying moves and long king captures dominate.
    one::<International>(
        c,
        "international_allkings_d8",
        "W:WK31-50:BK1-20",
        8,
        1_333_217,
    );
}

criterion_group!(benches, perfts);
criterion_main!(benches);
