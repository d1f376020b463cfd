use super::file::{decode, encode};
use super::*;
use crate::rules::notation::parse_fen;
use crate::rules::{Brazilian, International};

/// A network of random weights in the ranges a fit gives.
fn random_network(variant: VariantKind, hidden: usize, dense: usize, seed: u64) -> Network {
    let mut state = seed;
    let mut next = move |range: i32| -> i32 {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) % (2 * range as u64 + 1)) as i32 - range
    };
    Network {
        variant,
        base: 7,
        hidden,
        dense,
        w1: (0..INPUTS * hidden).map(|_| next(40) as i16).collect(),
        b1: (0..hidden).map(|_| (next(60) + 60) as i16).collect(),
        w2: (0..dense * 2 * hidden).map(|_| next(127) as i8).collect(),
        b2: (0..dense).map(|_| next(QA * QW)).collect(),
        // Outputs mostly within the bound, so that they differ.
        w3: (0..dense).map(|_| next(6) as i16).collect(),
        b3: next(QA * QO / 4),
    }
}

/// The positions of a game of pseudo-random moves from the start.
fn walk<R: Rules>(plies: usize, seed: u64) -> Vec<Position<R>> {
    let mut pos = Position::<R>::start();
    let mut out = vec![pos];
    let mut state = seed;
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        pos = pos.play(moves.as_slice()[(state >> 33) as usize % moves.len()]);
        out.push(pos);
    }
    out
}

#[test]
fn kept_accumulators_give_the_fresh_score() {
    let net = random_network(VariantKind::International, 32, 8, 1);
    for seed in 1..6 {
        let line = walk::<International>(120, seed);
        let mut kept = Accumulators::new(net.hidden, 8);
        // Plies of a search that goes down and up again, with jumps.
        for (i, pos) in line.iter().enumerate() {
            let ply = (i * 7 + seed as usize) % 9;
            assert_eq!(
                kept.score(&net, pos, ply),
                net.score(pos),
                "seed {seed}, ply {i}"
            );
            // The same position again, from its own slot.
            assert_eq!(kept.score(&net, pos, ply), net.score(pos));
        }
    }
}

#[test]
fn the_score_does_not_depend_on_the_colours() {
    // A position and the same turned half a circle with the colours and
    // the side to move swapped are the same for the side to move.
    let net = random_network(VariantKind::International, 32, 8, 2);
    let a = parse_fen::<International>("W:W28,33,K45,36:B12,19,K3").unwrap();
    let b = parse_fen::<International>("B:B23,18,K6,15:W39,32,K48").unwrap();
    assert_eq!(net.score(&a), net.score(&b));
    assert_ne!(net.score(&a), net.score(&a.with_side_to_move(Side::Black)));
    let net8 = random_network(VariantKind::Brazilian, 16, 8, 3);
    let c = parse_fen::<Brazilian>("W:W21,22,K30:B9,K2").unwrap();
    let d = parse_fen::<Brazilian>("B:B12,11,K3:W24,K31").unwrap();
    assert_eq!(net8.score(&c), net8.score(&d));
}

#[test]
fn every_build_of_the_dense_layers_agrees() {
    // Layer 2 at several widths, and layer 1's activations mostly
    // clipped to 0 as well as mostly not.
    for (hidden, dense, bias) in [(64, 16, 0), (16, 8, 0), (32, 24, -90)] {
        let mut net = random_network(VariantKind::International, hidden, dense, 4);
        net.b1.iter_mut().for_each(|b| *b += bias);
        for (i, pos) in walk::<International>(100, 9).iter().enumerate() {
            let mut views = [net.b1.clone(), net.b1.clone()];
            for (acc, side) in views.iter_mut().zip([Side::White, Side::Black]) {
                for_each_input(pos, side, |x| net.add_input(acc, x));
            }
            let mut scratch = vec![0u8; 2 * net.hidden];
            let fastest = net.output(&views[0], &views[1], &mut scratch);
            for build in dense::builds() {
                let score = dense::output_by(build, &net, &views[0], &views[1], &mut scratch);
                assert_eq!(score, fastest, "{build:?}, {hidden}-{dense}, ply {i}");
            }
        }
    }
}

#[test]
fn a_network_file_reads_back_and_damage_is_refused() {
    let net = random_network(VariantKind::Brazilian, 16, 8, 5);
    let bytes = encode(&net);
    assert_eq!(decode(&bytes, "t").unwrap(), net);
    let mut damaged = bytes.clone();
    damaged[HEADER_PROBE] ^= 1;
    let err = decode(&damaged, "t").unwrap_err().to_string();
    assert!(err.contains("checksum"), "{err}");
    let err = decode(&bytes[..bytes.len() - 3], "t")
        .unwrap_err()
        .to_string();
    assert!(err.contains("truncated"), "{err}");
    let err = decode(b"TEMPOEVL and more bytes than a header holds, surely", "t")
        .unwrap_err()
        .to_string();
    assert!(err.contains("not a tempo network"), "{err}");
    // Layer 1 said to be 24 wide (the header's bytes 44-45).
    let mut wide = bytes.clone();
    wide[44..46].copy_from_slice(&24u16.to_le_bytes());
    let end = wide.len() - 8;
    let sum = crate::checksum::fnv1a(&wide[..end]);
    wide[end..].copy_from_slice(&sum.to_le_bytes());
    let err = decode(&wide, "t").unwrap_err().to_string();
    assert!(err.contains("multiple of 16"), "{err}");
}

/// A byte inside the weights.
const HEADER_PROBE: usize = 60;
