//! Static evaluation: the hand terms alone and the learned patterns (the
//! built-in weights), over positions from the opening to the endgame.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use tempo::eval::weights_file::builtin;
use tempo::eval::{evaluate_hand, evaluate_learned};
use tempo::rules::notation::parse_fen;
use tempo::rules::{International, Position, VariantKind};
use tempo_speed::INTERNATIONAL;

fn eval(c: &mut Criterion) {
    let positions: Vec<Position<International>> = INTERNATIONAL
        .iter()
        .map(|fen| parse_fen(fen).expect("a benchmark FEN"))
        .collect();
    let patterns = builtin(VariantKind::International);
    let mut group = c.benchmark_group("eval");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("international_hand_terms", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| evaluate_hand(black_box(p)))
                .sum::<i32>()
        })
    });
    group.bench_function("international_patterns", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| evaluate_learned(black_box(p), &patterns))
                .sum::<i32>()
        })
    });
    group.finish();
}

criterion_group!(benches, eval);
criterion_main!(benches);
