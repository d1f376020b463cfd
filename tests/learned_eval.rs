//! The learned evaluation: pattern indexing against a square-by-square
//! computation, colour symmetry, the weights file, the Hub parameter that
//! loads one, and the self-play generator and trainer on small runs.

#![cfg(feature = "trainer")]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use proptest::prelude::*;

use tempo::engine::EngineHost;
use tempo::eval::patterns::{
    band_states, features, turned, window_states, Layout, Patterns, Shape, MAX_WEIGHT, UNIT,
};
use tempo::eval::weights_file::{builtin, decode, encode, read_file, write_file};
use tempo::eval::{evaluate_learned, table_for};
use tempo::rules::{
    Board10, Board8, Brazilian, Geometry, International, Piece, Position, Rules, Square,
    VariantKind,
};
use tempo::search::tt::Table;
use tempo::search::SearchResources;
use tempo::train::average::average;
use tempo::train::data::{read_file as read_data, DataWriter};
use tempo::train::driver::EpochReport;
use tempo::train::pattern_fit::{fit, FitConfig, Fitted, Samples};
use tempo::train::recipe::Recipe;
use tempo::train::selfplay::{play_game, run as selfplay, SelfplayConfig};

/// The state of each window `pairs` row pairs high whose first row pair is
/// one of `row_pairs`, worked out square by square (see [`states_from_row`]).
fn states_one_by_one(
    per_row: u32,
    row_pairs: std::ops::Range<u32>,
    pairs: u32,
    own: u64,
    other: u64,
) -> Vec<u32> {
    row_pairs
        .flat_map(|j| states_from_row(per_row, 2 * j, 2 * pairs, own, other))
        .collect()
}

/// The state of each window `rows` rows high whose first row is `first`
/// (even or odd), worked out square by square: window `k` covers, on each
/// of its rows, the squares k and k+1 counted from the row's left; its
/// base-3 digits follow the square numbers.
fn states_from_row(per_row: u32, first: u32, rows: u32, own: u64, other: u64) -> Vec<u32> {
    (0..per_row - 1)
        .map(|k| {
            let mut state = 0u32;
            let mut place = 1u32;
            for row in first..first + rows {
                for col in [k, k + 1] {
                    // The padded layout has one bit more after every second row.
                    let bit = 1u64 << (row * per_row + col + row / 2);
                    let digit = if own & bit != 0 {
                        1
                    } else if other & bit != 0 {
                        2
                    } else {
                        0
                    };
                    state += digit * place;
                    place *= 3;
                }
            }
            state
        })
        .collect()
}

/// What `band_states` gives for the band from row `first` of board `G`,
/// and for the same band of the board turned with the colours swapped,
/// each next to what a square-by-square count says: the band's own
/// windows, and the band the half turn maps it onto (from row
/// `ROWS - 6 - first`) in the other order, seen by the other player.
fn band_against_count<G: Geometry, const A: usize>(
    own: u64,
    other: u64,
    first: u32,
) -> [(Vec<u32>, Vec<u32>); 2] {
    let fast = band_states::<G, A>(own, other, first).to_vec();
    let counted = states_from_row(G::PER_ROW, first, 6, own, other);
    let turned_fast = band_states::<G, A>(turned::<G>(other), turned::<G>(own), first).to_vec();
    let mut image: Vec<u32> = states_from_row(G::PER_ROW, G::ROWS - 6 - first, 6, own, other)
        .into_iter()
        .map(mirror12)
        .collect();
    image.reverse();
    [(fast, counted), (turned_fast, image)]
}

/// Random disjoint piece sets on the board of `G`, from two random words.
fn split<G: Geometry>(a: u64, b: u64) -> (u64, u64) {
    let own = a & G::BOARD;
    (own, b & G::BOARD & !own)
}

/// The mirror of a tall window's state: its 12 digits in reverse order,
/// own and other swapped.
fn mirror12(state: u32) -> u32 {
    let mut digits: Vec<u32> = (0..12).map(|i| state / 3u32.pow(i) % 3).collect();
    digits.reverse();
    digits
        .iter()
        .enumerate()
        .map(|(i, &d)| [0, 2, 1][d as usize] * 3u32.pow(i as u32))
        .sum()
}

proptest! {
    #[test]
    fn window_states_match_a_square_by_square_count(a in any::<u64>(), b in any::<u64>()) {
        let (own, other) = split::<Board10>(a, b);
        let fast = window_states::<Board10, 16>(own, other);
        prop_assert_eq!(fast.to_vec(), states_one_by_one(5, 0..4, 2, own, other));
        let (own, other) = split::<Board8>(a, b);
        let fast = window_states::<Board8, 9>(own, other);
        prop_assert_eq!(fast.to_vec(), states_one_by_one(4, 0..3, 2, own, other));
    }

    /// The 4x6 windows of every band: the top rows (whose image under the
    /// half turn is the bottom rows) and the middle rows, on both boards;
    /// on 8x8 the middle band starts on an odd row, across the padding bit
    /// of the row pairs.
    #[test]
    fn band_window_states_match_a_square_by_square_count(a in any::<u64>(), b in any::<u64>()) {
        let (own, other) = split::<Board10>(a, b);
        for first in [0, 2] {
            for (fast, counted) in band_against_count::<Board10, 4>(own, other, first) {
                prop_assert_eq!(fast, counted);
            }
        }
        let (own, other) = split::<Board8>(a, b);
        for first in [0, 1] {
            for (fast, counted) in band_against_count::<Board8, 3>(own, other, first) {
                prop_assert_eq!(fast, counted);
            }
        }
    }
}

/// Weights drawn from a fixed generator, within the stored range.
fn random_patterns(layout: Layout, seed: u64) -> Patterns {
    let mut x = seed | 1;
    let raw = (0..layout.weights_per_phase() * 2)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ((x % (2 * 800 + 1)) as i32 - 800) as i16
        })
        .collect();
    Patterns::from_raw(layout, raw).unwrap()
}

/// `pos` turned half a circle with the colours swapped and the other side
/// to move: the same position for the other player.
fn colour_mirror<R: Rules>(pos: &Position<R>) -> Position<R> {
    let last = <R::Geometry as Geometry>::SQUARES as u8 + 1;
    let pieces: Vec<(Square, Piece)> = pos
        .piece_list()
        .into_iter()
        .map(|(sq, piece)| {
            let turned = Square::new(last - sq.get()).unwrap();
            let swapped = match piece {
                Piece::Man(side) => Piece::Man(side.opponent()),
                Piece::King(side) => Piece::King(side.opponent()),
            };
            (turned, swapped)
        })
        .collect();
    Position::new(&pieces, pos.side_to_move().opponent()).unwrap()
}

/// Calls `visit` with every position of `games` seeded random games of
/// `R`, each of at most `plies` plies.
fn random_games<R: Rules>(
    seed: u64,
    games: usize,
    plies: usize,
    mut visit: impl FnMut(&Position<R>),
) {
    let mut x = seed;
    for _ in 0..games {
        let mut pos = Position::<R>::start();
        for _ in 0..plies {
            visit(&pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            pos = pos.play(moves.as_slice()[(x % moves.len() as u64) as usize]);
        }
    }
}

/// Plays seeded random games and checks every position against its colour
/// mirror under `patterns`; returns the number of positions whose patterns
/// added something.
fn symmetric_in_random_games<R: Rules>(patterns: &Patterns) -> usize {
    let mut nonzero = 0;
    random_games::<R>(0x9E37_79B9_7F4A_7C15, 40, 120, |pos| {
        let mirror = colour_mirror(pos);
        assert_eq!(
            evaluate_learned(pos, patterns),
            evaluate_learned(&mirror, patterns),
            "{pos:?} against {mirror:?}"
        );
        nonzero += usize::from(patterns.white_score(pos) != 0);
    });
    nonzero
}

#[test]
fn the_evaluation_is_colour_symmetric() {
    let ten = random_patterns(Layout::w4x4::<Board10>(), 7);
    assert!(symmetric_in_random_games::<International>(&ten) > 1000);
    let eight = random_patterns(Layout::w4x4::<Board8>(), 11);
    assert!(symmetric_in_random_games::<Brazilian>(&eight) > 1000);
    let tall = random_patterns(Layout::w4x6::<Board10>(), 13);
    assert!(symmetric_in_random_games::<International>(&tall) > 1000);
    let tall = random_patterns(Layout::w4x6::<Board8>(), 17);
    assert!(symmetric_in_random_games::<Brazilian>(&tall) > 1000);
    let banded = Layout::w4x6m::<Board10>();
    assert!(symmetric_in_random_games::<International>(&random_patterns(banded, 19)) > 1000);
    // The middle band alone (the top windows' tables and the king terms
    // 0) scores positions too, and as symmetrically.
    let mut raw = random_patterns(banded, 20).raw().to_vec();
    let top = 2 * banded.across() * banded.states();
    raw[..top].fill(0);
    raw[2 * banded.table_weights()..].fill(0);
    let middle = Patterns::from_raw(banded, raw).unwrap();
    assert!(symmetric_in_random_games::<International>(&middle) > 1000);
    let banded = Layout::w4x6m::<Board8>();
    assert!(symmetric_in_random_games::<Brazilian>(&random_patterns(banded, 29)) > 1000);
    // The shipped weights too.
    symmetric_in_random_games::<International>(&builtin(VariantKind::International));
    symmetric_in_random_games::<Brazilian>(&builtin(VariantKind::Brazilian));
}

/// White's score of `pos` by the fit's model: the features of `layout`
/// times their weights, blended by the stage.
fn model_score<R: Rules>(patterns: &Patterns, pos: &Position<R>) -> f64 {
    let raw = patterns.raw();
    let (mut mg, mut eg) = (0f64, 0f64);
    let p = features(patterns.layout(), pos, |i, c| {
        mg += c as f64 * raw[2 * i as usize] as f64;
        eg += c as f64 * raw[2 * i as usize + 1] as f64;
    }) as f64;
    (p * mg + (1.0 - p) * eg) / UNIT as f64
}

/// In random games of `R`, the evaluation's patterns score what the fit's
/// model scores (to the rounding of the integer blend); returns the
/// positions with kings.
fn model_agrees<R: Rules>(patterns: &Patterns) -> usize {
    let mut with_kings = 0;
    random_games::<R>(0x2545_F491_4F6C_DD1D, 30, 200, |pos| {
        let fast = patterns.white_score(pos) as f64;
        let model = model_score(patterns, pos);
        assert!(
            (fast - model).abs() <= 1.0,
            "{pos:?}: {fast} against {model}"
        );
        with_kings += usize::from(pos.all_kings() != 0);
    });
    with_kings
}

#[test]
fn the_evaluation_computes_the_model_the_fit_fits() {
    model_agrees::<International>(&random_patterns(Layout::w4x4::<Board10>(), 21));
    model_agrees::<Brazilian>(&random_patterns(Layout::w4x4::<Board8>(), 22));
    let kings = model_agrees::<International>(&random_patterns(Layout::w4x6::<Board10>(), 23));
    assert!(kings > 100, "{kings}");
    let kings = model_agrees::<Brazilian>(&random_patterns(Layout::w4x6::<Board8>(), 24));
    assert!(kings > 100, "{kings}");
    let banded = Layout::w4x6m::<Board10>();
    let kings = model_agrees::<International>(&random_patterns(banded, 25));
    assert!(kings > 100, "{kings}");
    let kings = model_agrees::<Brazilian>(&random_patterns(Layout::w4x6m::<Board8>(), 30));
    assert!(kings > 100, "{kings}");
}

/// A tall set given a middle band at 0 scores every position as the tall
/// set does, so a band's fit can start from fitted tall weights; only
/// tall sets can be widened.
#[test]
fn a_tall_set_widened_by_a_band_scores_as_before() {
    let tall = random_patterns(Layout::w4x6::<Board10>(), 26);
    let banded = tall.with_middle_band().unwrap();
    assert_eq!(banded.layout(), Layout::w4x6m::<Board10>());
    let mut scored = 0;
    random_games::<International>(0x5851_F42D_4C95_7F2D, 20, 150, |pos| {
        assert_eq!(banded.white_score(pos), tall.white_score(pos), "{pos:?}");
        scored += usize::from(tall.white_score(pos) != 0);
    });
    assert!(scored > 1000, "{scored}");
    assert!(banded.with_middle_band().is_err());
    let tall = random_patterns(Layout::w4x6::<Board8>(), 27);
    let banded = tall.with_middle_band().unwrap();
    assert_eq!(banded.layout(), Layout::w4x6m::<Board8>());
    random_games::<Brazilian>(0x5851_F42D_4C95_7F2D, 10, 100, |pos| {
        assert_eq!(banded.white_score(pos), tall.white_score(pos), "{pos:?}");
    });
    assert!(random_patterns(Layout::w4x4::<Board10>(), 28)
        .with_middle_band()
        .is_err());
}

#[test]
fn the_patterns_add_to_the_hand_evaluation() {
    let pos = Position::<International>::start()
        .play(Position::<International>::start().legal_moves().as_slice()[0]);
    let zero = Patterns::zero(Layout::w4x4::<Board10>());
    let hand = tempo::eval::evaluate_hand_with(&pos, table_for::<International>());
    assert_eq!(evaluate_learned(&pos, &zero), hand);
    let some = random_patterns(Layout::w4x4::<Board10>(), 3);
    let white = some.white_score(&pos);
    assert_ne!(white, 0);
    // Black is to move: the score is from Black's view.
    assert_eq!(evaluate_learned(&pos, &some), hand - white);
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tempo-learned-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Writes `patterns`, weights of `kind`, to the scratch file `name`;
/// returns its path.
fn weights_file(name: &str, kind: VariantKind, patterns: &Patterns) -> PathBuf {
    let path = scratch(name);
    write_file(kind, patterns, &path).unwrap();
    path
}

#[test]
fn a_weights_file_round_trips_and_a_bad_one_is_refused() {
    let kind = VariantKind::International;
    let patterns = random_patterns(Layout::w4x4::<Board10>(), 5);
    let bytes = encode(kind, &patterns);
    let (read_kind, read) = decode(&bytes, "test").unwrap();
    assert_eq!((read_kind, &read), (kind, &patterns));
    let path = scratch("w.tpw");
    write_file(kind, &patterns, &path).unwrap();
    assert_eq!(read_file(kind, &path).unwrap(), patterns);
    // Tall windows round-trip too, and keep their shape.
    let tall = random_patterns(Layout::w4x6::<Board8>(), 6);
    let (_, read) = decode(&encode(VariantKind::Brazilian, &tall), "tall").unwrap();
    assert_eq!(read, tall);
    assert_eq!(read.layout(), Layout::w4x6::<Board8>());
    // And windows with the middle band, on both boards.
    let banded = random_patterns(Layout::w4x6m::<Board10>(), 8);
    let (_, read) = decode(&encode(kind, &banded), "banded").unwrap();
    assert_eq!(read, banded);
    assert_eq!(read.layout().tables(), 8);
    let banded = random_patterns(Layout::w4x6m::<Board8>(), 9);
    let (_, read) = decode(&encode(VariantKind::Brazilian, &banded), "banded").unwrap();
    assert_eq!(read, banded);
    assert_eq!(read.layout().tables(), 6);
    // Another variant's file.
    let err = read_file(VariantKind::Brazilian, &path)
        .unwrap_err()
        .to_string();
    assert!(err.contains("for international, not brazilian"), "{err}");
    // One byte changed, one byte missing, a foreign file, a newer format.
    let mut changed = bytes.clone();
    changed[1000] ^= 1;
    let err = decode(&changed, "x").unwrap_err().to_string();
    assert!(err.contains("checksum"), "{err}");
    let err = decode(&bytes[..bytes.len() - 1], "x")
        .unwrap_err()
        .to_string();
    assert!(err.contains("truncated"), "{err}");
    let err = decode(
        b"# not weights at all, just some text here ....................",
        "x",
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("not a tempo weights file"), "{err}");
    let mut newer = bytes.clone();
    newer[8] = 9;
    let err = decode(&newer, "x").unwrap_err().to_string();
    assert!(err.contains("version 9"), "{err}");
    // Turkish draughts has no patterns: a file that says so is refused.
    let err = decode(&encode(VariantKind::Turkish, &patterns), "x")
        .unwrap_err()
        .to_string();
    assert!(err.contains("turkish has no learned patterns"), "{err}");
    // Out-of-range weights are refused.
    let too_big = vec![(MAX_WEIGHT + 1) as i16; Layout::w4x4::<Board10>().weights_per_phase() * 2];
    assert!(Patterns::from_raw(Layout::w4x4::<Board10>(), too_big).is_err());
}

#[test]
fn the_hub_parameter_loads_weights_and_keeps_them_on_a_bad_file() {
    let kind = VariantKind::International;
    let path = weights_file(
        "hub.tpw",
        kind,
        &random_patterns(Layout::w4x4::<Board10>(), 9),
    );
    let mut engine = EngineHost::new();
    let value = |engine: &EngineHost| {
        engine
            .params()
            .into_iter()
            .find(|p| p.name == "eval-file")
            .unwrap()
            .value
    };
    assert_eq!(value(&engine), "");
    engine
        .set_param("eval-file", path.to_str().unwrap())
        .unwrap();
    assert_eq!(value(&engine), path.to_str().unwrap());
    let bad = scratch("bad.tpw");
    std::fs::write(&bad, b"nothing").unwrap();
    let err = engine
        .set_param("eval-file", bad.to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(err.contains("not a tempo weights file"), "{err}");
    assert_eq!(value(&engine), path.to_str().unwrap());
    // Brazilian weights are not International ones.
    let brazilian = weights_file(
        "br.tpw",
        VariantKind::Brazilian,
        &random_patterns(Layout::w4x4::<Board8>(), 9),
    );
    assert!(engine
        .set_param("eval-file", brazilian.to_str().unwrap())
        .is_err());
    engine.set_param("eval-file", "").unwrap();
    assert_eq!(value(&engine), "");
}

fn small_config(games: u64) -> SelfplayConfig<Brazilian> {
    SelfplayConfig {
        games,
        batch_games: 2,
        nodes: Some(300),
        vary_nodes: 0,
        depth: None,
        random_plies: 6,
        seed: 42,
        threads: 2,
        shard: (0, 1),
        max_plies: 200,
        hash_mib: 1,
        resources: SearchResources::builtin(),
    }
}

#[test]
fn selfplay_is_reproducible_resumes_and_shards() {
    let kind = VariantKind::Brazilian;
    let mut table = Table::new(1);
    let config = small_config(8);
    let game = play_game::<Brazilian>(&config, 3, &mut table);
    assert!(!game.is_empty());
    assert_eq!(play_game::<Brazilian>(&config, 3, &mut table), game);
    assert_ne!(play_game::<Brazilian>(&config, 4, &mut table), game);
    for record in &game {
        let pos = record.position::<Brazilian>().unwrap();
        assert!(pos.legal_moves().iter().all(|m| m.captured_bits().0 == 0));
    }
    // Node limits drawn at random for each move (the search looks at its
    // count every 1,024 nodes, so around 3,000): the same game again for
    // the seed, another than with the limit fixed.
    let fixed = SelfplayConfig {
        nodes: Some(3000),
        ..small_config(8)
    };
    let varied = SelfplayConfig {
        vary_nodes: 30,
        ..fixed.clone()
    };
    let varied_game = play_game::<Brazilian>(&varied, 3, &mut table);
    assert_eq!(play_game::<Brazilian>(&varied, 3, &mut table), varied_game);
    assert_ne!(varied_game, play_game::<Brazilian>(&fixed, 3, &mut table));
    // All at once, or four games and then the rest: the same batches.
    let whole = scratch("whole.spd");
    let parts = scratch("parts.spd");
    for path in [&whole, &parts] {
        let _ = std::fs::remove_file(path);
    }
    let (mut w, existing) = DataWriter::open(&whole, kind, &Recipe::default()).unwrap();
    let done = selfplay::<Brazilian>(&config, &mut w, &existing, &mut |_| {}).unwrap();
    assert_eq!(done.games_done, 8);
    let (mut w, existing) = DataWriter::open(&parts, kind, &Recipe::default()).unwrap();
    selfplay::<Brazilian>(&small_config(4), &mut w, &existing, &mut |_| {}).unwrap();
    drop(w);
    let (mut w, existing) = DataWriter::open(&parts, kind, &Recipe::default()).unwrap();
    assert_eq!(existing.games, 4);
    let done = selfplay::<Brazilian>(&config, &mut w, &existing, &mut |_| {}).unwrap();
    assert_eq!(done.games_done, 8);
    let sorted = |path: &PathBuf| {
        let mut chunks = read_data(path, kind).unwrap();
        chunks.sort_by_key(|c| c.batch);
        chunks
    };
    assert_eq!(sorted(&whole), sorted(&parts));
    // Two shards make up the whole.
    let mut shards = Vec::new();
    for i in 0..2 {
        let path = scratch(&format!("shard{i}.spd"));
        let _ = std::fs::remove_file(&path);
        let (mut w, existing) = DataWriter::open(&path, kind, &Recipe::default()).unwrap();
        let config = SelfplayConfig {
            shard: (i, 2),
            ..small_config(8)
        };
        selfplay::<Brazilian>(&config, &mut w, &existing, &mut |_| {}).unwrap();
        shards.extend(read_data(&path, kind).unwrap());
    }
    shards.sort_by_key(|c| c.batch);
    assert_eq!(shards, sorted(&whole));
}

/// A fresh Brazilian self-play data file `name` played by `config`.
fn selfplay_file(name: &str, config: &SelfplayConfig<Brazilian>) -> PathBuf {
    let path = scratch(name);
    let _ = std::fs::remove_file(&path);
    let (mut w, existing) =
        DataWriter::open(&path, VariantKind::Brazilian, &Recipe::default()).unwrap();
    selfplay::<Brazilian>(config, &mut w, &existing, &mut |_| {}).unwrap();
    path
}

/// `fit` of `start` to `samples`, validated on the same samples;
/// `epoch_done` hears of each epoch.
fn fit_to(
    layout: Layout,
    samples: &Samples,
    start: &Patterns,
    config: &FitConfig,
    epoch_done: &mut dyn FnMut(EpochReport),
) -> Fitted {
    fit(
        layout,
        samples,
        samples,
        start,
        config,
        epoch_done,
        &mut |_, _| std::ops::ControlFlow::Continue(()),
    )
}

#[test]
fn training_lowers_the_held_out_loss() {
    let kind = VariantKind::Brazilian;
    let config = SelfplayConfig {
        batch_games: 4,
        ..small_config(160)
    };
    let path = selfplay_file("train.spd", &config);
    let layout = Layout::w4x4::<<Brazilian as Rules>::Geometry>();
    let mut train = Samples::new(layout);
    for chunk in read_data(&path, kind).unwrap() {
        train.extend::<Brazilian>(&chunk.records).unwrap();
    }
    let fit_config = FitConfig {
        epochs: 6,
        batch: 256,
        learning_rate: 2.0,
        final_learning_rate: 2.0,
        l2: 1e-6,
        lambda: 0.0,
        seed: 1,
    };
    let start = Patterns::zero(layout);
    let mut reports = Vec::new();
    let fitted = fit_to(layout, &train, &start, &fit_config, &mut |r| {
        reports.push(r)
    });
    // On the data it was fitted to the loss must fall; the fitted weights
    // are then a valid set that round-trips through a file.
    assert_eq!(reports.len(), 6);
    assert!(fitted.best.0 < fitted.start_loss, "{reports:?}");
    assert!(!fitted.patterns.is_zero());
    let out = scratch("fitted.tpw");
    write_file(kind, &fitted.patterns, &out).unwrap();
    assert_eq!(read_file(kind, &out).unwrap(), fitted.patterns);
    // The same seed gives the same weights.
    let again = fit_to(layout, &train, &start, &fit_config, &mut |_| {});
    assert_eq!(again.patterns, fitted.patterns);
    // A step that falls over the fit gives other weights, which also fit.
    let decaying = FitConfig {
        final_learning_rate: 0.02,
        ..fit_config.clone()
    };
    let decayed = fit_to(layout, &train, &start, &decaying, &mut |_| {});
    assert_ne!(decayed.patterns, fitted.patterns);
    assert!(decayed.best.0 < decayed.start_loss);
    // Tall windows fit the same way and keep their shape, and so do the
    // windows with the middle band, which on 8x8 starts on an odd row.
    let fit_whole_file = |layout: Layout, start: &Patterns| {
        let mut samples = Samples::new(layout);
        for chunk in read_data(&path, kind).unwrap() {
            samples.extend::<Brazilian>(&chunk.records).unwrap();
        }
        fit_to(layout, &samples, start, &fit_config, &mut |_| {})
    };
    let tall = Layout::w4x6::<<Brazilian as Rules>::Geometry>();
    let fitted_tall = fit_whole_file(tall, &Patterns::zero(tall));
    assert!(fitted_tall.best.0 < fitted_tall.start_loss);
    assert_eq!(fitted_tall.patterns.layout(), tall);
    let banded = Layout::w4x6m::<<Brazilian as Rules>::Geometry>();
    let fitted_banded = fit_whole_file(banded, &fitted_tall.patterns.with_middle_band().unwrap());
    assert!(fitted_banded.best.0 < fitted_banded.start_loss);
    assert_eq!(fitted_banded.patterns.layout(), banded);
    // The command refuses a start of one shape with --windows of the other
    // and a step size that is not a positive number.
    let refusal = train_refusal(&path, &["--windows", "4x6", "--init"], Some(&out));
    assert!(refusal.contains("leave one out"), "{refusal}");
    let refusal = train_refusal(&path, &["--lr-end", "0"], None);
    assert!(
        refusal.contains("--lr-end 0 must be a positive number"),
        "{refusal}"
    );
}

/// Runs `tempo train` on the Brazilian data at `path` with `args` (then
/// `last`, if given); asserts that it fails, and returns its error output.
fn train_refusal(path: &Path, args: &[&str], last: Option<&Path>) -> String {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tempo"))
        .arg("train")
        .arg(path)
        .args(["--variant", "brazilian", "--out"])
        .arg(scratch("refused.tpw"))
        .args(args)
        .args(last)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!output.status.success(), "{stderr}");
    stderr
}

/// Runs `tempo train` for one epoch on the Brazilian data at `path` with
/// `args`, writing `out`; asserts that it succeeds and wrote a weights
/// file, and returns its error output.
fn train_one_epoch(path: &Path, args: &[&OsStr], out: &Path) -> String {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tempo"))
        .arg("train")
        .arg(path)
        .args(["--variant", "brazilian", "--epochs", "1", "--out"])
        .arg(out)
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stderr}");
    assert!(read_file(VariantKind::Brazilian, out).is_ok());
    stderr
}

/// `tempo train` on a file of fewer batches than `--hold-out` (20) holds
/// out its last batch instead of refusing to train; with no `--windows` it
/// fits the shape of the variant's built-in weights (Brazilian: 4x6).
#[test]
fn train_on_a_small_file_holds_out_its_last_batch() {
    let path = selfplay_file("small.spd", &small_config(4));
    let out = scratch("small.tpw");
    let stderr = train_one_epoch(&path, &[], &out);
    assert!(stderr.contains("holding out the last batch"), "{stderr}");
    assert!(stderr.contains("(4x6 windows)"), "{stderr}");
    let shape = read_file(VariantKind::Brazilian, &out)
        .unwrap()
        .layout()
        .shape;
    assert_eq!(shape, Shape::W4x6);
}

/// `tempo train --egdb` gives the positions within the endgame tables their
/// values and says how many; a folder without tables is refused by name.
#[test]
fn train_takes_the_values_of_the_endgame_tables() {
    let path = selfplay_file("exact.spd", &small_config(4));
    let tables = scratch("exact-tables");
    tempo::egdb::build::<Brazilian>(&tables, 3, &mut |_| {}).unwrap();
    let args = [
        "--egdb".as_ref(),
        tables.as_os_str(),
        "--egdb-pieces".as_ref(),
        "3".as_ref(),
    ];
    let stderr = train_one_epoch(&path, &args, &scratch("exact.tpw"));
    assert!(stderr.contains("the 3-piece tables label"), "{stderr}");
    let refusal = train_refusal(&path, &["--egdb"], Some(&scratch("no-tables")));
    assert!(refusal.contains("--egdb"), "{refusal}");
    let refusal = train_refusal(&path, &["--egdb-pieces", "1", "--egdb"], Some(&tables));
    assert!(refusal.contains("--egdb-pieces"), "{refusal}");
}

/// The mean of weight sets: of a set with itself that set, of two sets
/// each weight's mean rounded half away from 0, of sets of two layouts a
/// refusal.
#[test]
fn the_mean_of_weight_sets_is_taken_entry_by_entry() {
    let layout = Layout::w4x6::<Board8>();
    let a = random_patterns(layout, 11);
    let b = random_patterns(layout, 12);
    assert_eq!(average(&[&a, &a]).unwrap(), a);
    assert_eq!(
        average(&[&a, &b, &a, &b]).unwrap(),
        average(&[&a, &b]).unwrap()
    );
    let mean = average(&[&a, &b]).unwrap();
    assert_eq!(mean.layout(), layout);
    for ((&m, &x), &y) in mean.raw().iter().zip(a.raw()).zip(b.raw()) {
        let sum = i32::from(x) + i32::from(y);
        let expected = if sum % 2 == 0 {
            sum / 2
        } else {
            (sum + sum.signum()) / 2
        };
        assert_eq!(i32::from(m), expected, "the mean of {x} and {y}");
    }
    // Three sets: 1, 1, 0 average to 1 (0.67), -1, 0, 0 to 0 (-0.33).
    let n = layout.weights_per_phase() * 2;
    let set = |v: i16| Patterns::from_raw(layout, vec![v; n]).unwrap();
    let mean = average(&[&set(1), &set(1), &set(0)]).unwrap();
    assert!(mean.raw().iter().all(|&w| w == 1));
    let mean = average(&[&set(-1), &set(0), &set(0)]).unwrap();
    assert!(mean.raw().iter().all(|&w| w == 0));
    // Another window shape, one set, none: refused.
    let small = random_patterns(Layout::w4x4::<Board8>(), 13);
    let err = average(&[&a, &small]).unwrap_err();
    assert!(err.contains("average sets of one layout"), "{err}");
    assert!(average(&[&a]).unwrap_err().contains("at least two"));
    assert!(average(&[]).is_err());
}

/// `tempo weights average` writes the mean of its files, `tempo weights
/// info` says what one holds, and sets of two variants or two window
/// shapes are refused with a message.
#[test]
fn the_weights_command_averages_files_and_refuses_mixed_ones() {
    let tempo = |args: &[&Path]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_tempo"))
            .arg("weights")
            .args(args)
            .output()
            .unwrap()
    };
    let layout = Layout::w4x6::<Board8>();
    let (a, b) = (random_patterns(layout, 21), random_patterns(layout, 22));
    let pa = weights_file("avg-a.tpw", VariantKind::Brazilian, &a);
    let pb = weights_file("avg-b.tpw", VariantKind::Brazilian, &b);
    let out = scratch("avg-out.tpw");
    let average_cmd = Path::new("average");
    let flag = Path::new("--out");
    // `tempo weights` with `args`, which must succeed: its standard output.
    let succeeds = |args: &[&Path]| {
        let run = tempo(args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(run.status.success(), "{args:?}: {stderr}");
        String::from_utf8_lossy(&run.stdout).into_owned()
    };
    let stdout = succeeds(&[average_cmd, flag, &out, &pa, &pb]);
    assert!(
        stdout.contains("the mean of 2 brazilian sets, 4x6 windows"),
        "{stdout}"
    );
    assert_eq!(
        read_file(VariantKind::Brazilian, &out).unwrap(),
        average(&[&a, &b]).unwrap()
    );
    let stdout = succeeds(&[Path::new("info"), &out]);
    assert!(stdout.contains("brazilian, 4x6 windows on 8x8"), "{stdout}");
    // International weights, 4x4 windows, a single file, a missing one.
    let intl = weights_file(
        "avg-intl.tpw",
        VariantKind::International,
        &random_patterns(Layout::w4x6::<Board10>(), 23),
    );
    let small = weights_file(
        "avg-small.tpw",
        VariantKind::Brazilian,
        &random_patterns(Layout::w4x4::<Board8>(), 24),
    );
    let missing = scratch("avg-missing.tpw");
    for (second, message) in [
        (&intl, "the weights are for international, but"),
        (&small, "the weights have 4x4 windows, but"),
        (&missing, "cannot read"),
    ] {
        let run = tempo(&[average_cmd, flag, &out, &pa, second]);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success());
        assert!(stderr.contains(message), "{stderr}");
    }
    let run = tempo(&[average_cmd, flag, &out, &pa]);
    assert!(!run.status.success());
    // The output of a refused run is the last good one.
    assert_eq!(
        read_file(VariantKind::Brazilian, &out).unwrap(),
        average(&[&a, &b]).unwrap()
    );
}
