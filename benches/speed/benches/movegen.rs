//! Move generation: the legal moves of positions from the opening to the
//! endgame (captures by the majority rule included), listed over and over.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use tempo::rules::notation::parse_fen;
use tempo::rules::{International, Position};
use tempo_speed::INTERNATIONAL;

fn movegen(c: &mut Criterion) {
    let positions: Vec<Position<International>> = INTERNATIONAL
        .iter()
        .map(|fen| parse_fen(fen).expect("a benchmark FEN"))
        .collect();
    let moves: usize = positions.iter().map(|p| p.legal_moves().len()).sum();
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("international_legal_moves", |b| {
        b.iter(|| {
            let listed: usize = positions
                .iter()
                .map(|p| black_box(p).legal_moves().len())
                .sum();
            assert_eq!(listed, moves);
        })
    });
    group.finish();
}

criterion_group!(benches, movegen);
criterion_main!(benches);
