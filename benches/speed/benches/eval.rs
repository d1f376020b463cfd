//! Static evaluation: the hand terms alone, the learned patterns (the
//! built-in weights) and the shipped network, over positions from the
//! opening to the endgame.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use tempo::eval::network::{builtin_network, Accumulators};
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
    // The network as the search meets it: a position at one ply, then
    // each of its children at the next, layer 1 kept from the parent.
    let net = builtin_network(VariantKind::International).expect("a shipped network");
    let families: Vec<(Position<International>, Vec<Position<International>>)> = positions
        .iter()
        .map(|p| (*p, p.legal_moves().iter().map(|&m| p.play(m)).collect()))
        .collect();
    let scores = families.iter().map(|(_, c)| 1 + c.len() as u64).sum();
    group.throughput(Throughput::Elements(scores));
    let mut kept = Accumulators::new(net.hidden, 2);
    for (parent, children) in &families {
        assert_eq!(kept.score(&net, parent, 0), net.score(parent));
        for child in children {
            assert_eq!(kept.score(&net, child, 1), net.score(child));
        }
    }
    group.bench_function("international_network_parent_then_children", |b| {
        b.iter(|| {
            families
                .iter()
                .map(|(parent, children)| {
                    kept.score(&net, black_box(parent), 0)
                        + children
                            .iter()
                            .map(|c| kept.score(&net, black_box(c), 1))
                            .sum::<i32>()
                })
                .sum::<i32>()
        })
    });
    group.finish();
}

criterion_group!(benches, eval);
criterion_main!(benches);
