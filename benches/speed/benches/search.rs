//! Search: `tempo bench` at depth 7 (its 32 positions, one thread, a
//! cleared table each), in nodes a second; every run must search the same
//! number of nodes, the search's deterministic signature.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tempo::cli::bench::{bench, BenchArgs};

fn search(c: &mut Criterion) {
    let args = BenchArgs {
        depth: 7,
        threads: 1,
        hash: 16,
        quiet: true,
        eval_files: Vec::new(),
        eval_network: true,
        options: Vec::new(),
    };
    let nodes = bench(&args, &mut |_| {}).expect("the bench runs").nodes;
    let mut group = c.benchmark_group("search");
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(10);
    group.bench_function("bench_depth_7", |b| {
        b.iter(|| {
            assert_eq!(
                bench(&args, &mut |_| {}).expect("the bench runs").nodes,
                nodes
            )
        })
    });
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
