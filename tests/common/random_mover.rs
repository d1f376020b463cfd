//! The random mover example (`examples/random_mover.rs`): an opponent for
//! the referee's tests that answers at once, in Hub v2 or, with `--scan2`,
//! in Scan 2.0's first Hub protocol.

/// The random mover next to the tempo binary (the full `cargo test`
/// builds it).
pub fn random_mover() -> std::path::PathBuf {
    let mover = std::path::Path::new(env!("CARGO_BIN_EXE_tempo"))
        .parent()
        .unwrap()
        .join("examples")
        .join("random_mover");
    assert!(
        mover.exists(),
        "build the example first: {}",
        mover.display()
    );
    mover
}
