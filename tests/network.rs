//! The network evaluation end to end: a small fit lowers the loss on its
//! data, the file it writes is what the engine then searches with (its
//! scores are those of the evaluator), and the bad files and settings are
//! refused with a message.

#![cfg(feature = "trainer")]

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

use tempo::engine::EngineHost;
use tempo::eval::network::{read_network, write_network};
use tempo::eval::weights_file::builtin;
use tempo::eval::Evaluator;
use tempo::rules::notation::parse_fen;
use tempo::rules::{Brazilian, VariantKind};
use tempo::search::resources::{EvalSource, ResourceSettings};
use tempo::search::SearchResources;
use tempo::train::data::{read_file, DataWriter};
use tempo::train::distinct::distinct;
use tempo::train::driver::EpochReport;
use tempo::train::network_fit::{fit_network, NetworkConfig, NetworkSamples};
use tempo::train::recipe::Recipe;
use tempo::train::selfplay::{run as selfplay, SelfplayConfig};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tempo-network-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Brazilian self-play data of `games` games at 300 nodes a move.
fn data(name: &str, games: u64) -> PathBuf {
    let path = scratch(name);
    let _ = std::fs::remove_file(&path);
    let config = SelfplayConfig::<Brazilian> {
        games,
        batch_games: 4,
        nodes: Some(300),
        vary_nodes: 0,
        depth: None,
        random_plies: 6,
        seed: 7,
        threads: 2,
        shard: (0, 1),
        max_plies: 200,
        hash_mib: 1,
        resources: SearchResources::builtin(),
    };
    let (mut writer, existing) =
        DataWriter::open(&path, VariantKind::Brazilian, &Recipe::default()).unwrap();
    selfplay::<Brazilian>(&config, &mut writer, &existing, &mut |_| {}).unwrap();
    path
}

#[test]
fn a_fitted_network_lowers_the_loss_and_the_engine_scores_with_it() {
    let path = data("fit.spd", 80);
    let records: Vec<_> = read_file(&path, VariantKind::Brazilian)
        .unwrap()
        .into_iter()
        .flat_map(|c| c.records)
        .collect();
    let positions = distinct(records, Vec::new()).train;
    let patterns = builtin(VariantKind::Brazilian);
    let samples = NetworkSamples::of::<Brazilian>(&positions, &patterns).unwrap();
    let config = NetworkConfig {
        hidden: 16,
        dense: 8,
        epochs: 8,
        batch: 128,
        learning_rate: 0.01,
        final_learning_rate: 0.002,
        lambda: 0.0,
        seed: 3,
        start: None,
    };
    let mut losses = Vec::new();
    // Fitted to the samples, validated on the same.
    let fit = |epoch_done: &mut dyn FnMut(EpochReport)| {
        fit_network::<Brazilian>(
            &patterns,
            &samples,
            &samples,
            &config,
            epoch_done,
            &mut |_, _| std::ops::ControlFlow::Continue(()),
        )
    };
    let fitted = fit(&mut |r| losses.push(r.validation_loss));
    assert_eq!(losses.len(), 8);
    // On the data it was fitted to the loss falls; the integer network
    // loses almost nothing against the floating-point one.
    assert!(fitted.best.0 < fitted.start_loss - 0.002, "{losses:?}");
    assert!((fitted.integer_loss - fitted.best.0).abs() < 0.001);
    // The same seed gives the same network.
    let again = fit(&mut |_| {});
    assert_eq!(again.network, fitted.network);
    // A fit from the fitted network starts where it ended: at a step too
    // small to move a weight, its loss and its network are the fitted ones.
    let refit = fit_network::<Brazilian>(
        &patterns,
        &samples,
        &samples,
        &NetworkConfig {
            epochs: 1,
            learning_rate: 1e-9,
            final_learning_rate: 1e-9,
            start: Some(fitted.network.clone()),
            ..config.clone()
        },
        &mut |_| {},
        &mut |_, _| std::ops::ControlFlow::Continue(()),
    );
    assert!((refit.start_loss - fitted.integer_loss).abs() < 0.001);
    assert_eq!(refit.network, fitted.network);

    // The file loads as the engine's evaluator, whose score is the
    // patterns' plus the network's.
    let file = scratch("fit.tnn");
    write_network(&fitted.network, &file).unwrap();
    let settings = ResourceSettings {
        eval: EvalSource::File(file.clone()),
        ..ResourceSettings::default()
    };
    let resources = SearchResources::<Brazilian>::load(&settings).unwrap();
    let evaluator = &resources.evaluator;
    let network = evaluator.network().expect("a network is loaded");
    let pos = parse_fen::<Brazilian>("W:W21,22,23,25,K30:B9,10,12,K2").unwrap();
    let plain = Evaluator::of_patterns(Arc::clone(evaluator.patterns()));
    assert_eq!(
        evaluator.score_afresh(&pos),
        plain.score_afresh(&pos) + network.score(&pos)
    );
    assert_ne!(network.score(&pos), 0);

    // The Hub parameter takes it, for its own variant only.
    let mut engine = EngineHost::new();
    let err = engine
        .set_param("eval-file", file.to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(err.contains("for brazilian, not international"), "{err}");
    engine.set_param("variant", "brazilian").unwrap();
    engine
        .set_param("eval-file", file.to_str().unwrap())
        .unwrap();
    // A damaged file is refused and the network in use stays.
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[100] ^= 4;
    let damaged = scratch("damaged.tnn");
    std::fs::write(&damaged, &bytes).unwrap();
    let err = engine
        .set_param("eval-file", damaged.to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(err.contains("checksum"), "{err}");
    assert_eq!(read_network(&file).unwrap(), fitted.network);
}

/// Runs `tempo train` on `data` with `args`; returns success and stderr.
fn train(data: &PathBuf, out: &PathBuf, args: &[&str]) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .arg("train")
        .arg(data)
        .args(["--variant", "brazilian", "--out"])
        .arg(out)
        .args(args)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn train_network_writes_a_file_the_bench_searches_with() {
    let path = data("cli.spd", 24);
    let out = scratch("cli.tnn");
    let (ok, stderr) = train(
        &path,
        &out,
        &[
            "--network",
            "--hidden",
            "16",
            "--dense",
            "8",
            "--epochs",
            "1",
        ],
    );
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains("a network 256 -> 16 (x2) -> 8 -> 1"),
        "{stderr}"
    );
    assert_eq!(read_network(&out).unwrap().hidden, 16);
    let bench = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(["bench", "--depth", "3", "--quiet", "--eval-file"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        bench.status.success(),
        "{}",
        String::from_utf8_lossy(&bench.stderr)
    );
    // A fine-tune from that network keeps its widths.
    let tuned = scratch("tuned.tnn");
    let init = out.to_str().unwrap();
    let (ok, stderr) = train(
        &path,
        &tuned,
        &[
            "--network",
            "--init",
            init,
            "--epochs",
            "1",
            "--lr",
            "0.0001",
        ],
    );
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains("a network 256 -> 16 (x2) -> 8 -> 1 on top of the built-in patterns, from"),
        "{stderr}"
    );
    assert_eq!(read_network(&tuned).unwrap().dense, 8);
    // A network of another variant is refused as a start.
    let international = scratch("international.tnn");
    let shipped = tempo::eval::network::builtin_network(VariantKind::International).unwrap();
    write_network(&shipped, &international).unwrap();
    for (args, says) in [
        (
            &["--network", "--init", init, "--hidden", "32"][..],
            "cannot be used with",
        ),
        (
            &["--network", "--init", international.to_str().unwrap()][..],
            "the network is for international, not brazilian",
        ),
        (&["--network", "--hidden", "24"][..], "multiple of 16"),
        (&["--network", "--dense", "12"][..], "multiple of 8"),
        (
            &["--network", "--windows", "4x6"][..],
            "cannot be used with",
        ),
        (&["--hidden", "32"][..], "--network"),
    ] {
        let (ok, stderr) = train(&path, &scratch("refused.tnn"), args);
        assert!(!ok && stderr.contains(says), "{args:?}: {stderr}");
    }
}

#[test]
fn the_built_in_evaluation_adds_the_shipped_network() {
    use tempo::eval::network::{builtin_network, network_checksum};
    use tempo::rules::{International, Russian};
    // International and Brazilian ship a network fitted on their built-in
    // patterns; the other variants ship none.
    for kind in [VariantKind::International, VariantKind::Brazilian] {
        let network = builtin_network(kind).expect("a network ships");
        assert_eq!(network.variant, kind);
        assert_eq!(network.base, network_checksum(&builtin(kind)));
    }
    assert!(builtin_network(VariantKind::Russian).is_none());
    let network = builtin_network(VariantKind::International).unwrap();

    // The default settings search with it; `BuiltinPatterns` without it.
    let load = |eval: EvalSource| {
        SearchResources::<International>::load(&ResourceSettings {
            eval,
            ..ResourceSettings::default()
        })
        .unwrap()
        .evaluator
    };
    let with = load(EvalSource::Builtin);
    let without = load(EvalSource::BuiltinPatterns);
    assert!(with.network().is_some());
    assert!(without.network().is_none());
    assert!(SearchResources::<International>::builtin()
        .evaluator
        .network()
        .is_some());
    // The network's part is added wherever it is; some positions score
    // 0 by chance, so it must differ from 0 in one of several.
    let positions = [
        "W:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,20,23",
        "B:W27,28,32,33,36,37,38,39,41,43,44,45,47,48,49:B3,6,7,8,9,12,13,14,16,17,18,19,21,22,23",
        "W:W24,29,31,36,38,K46:B4,13,19,K10",
    ];
    let mut parts = Vec::new();
    for fen in positions {
        let pos = parse_fen::<International>(fen).unwrap();
        assert_eq!(
            with.score_afresh(&pos),
            without.score_afresh(&pos) + network.score(&pos),
            "{fen}"
        );
        parts.push(network.score(&pos));
    }
    assert!(parts.iter().any(|&p| p != 0), "{parts:?}");
    let brazilian = SearchResources::<Brazilian>::load(&ResourceSettings::default()).unwrap();
    assert!(brazilian.evaluator.network().is_some());
    let russian = SearchResources::<Russian>::load(&ResourceSettings::default()).unwrap();
    assert!(russian.evaluator.network().is_none());

    // The Hub parameter turns it off and on; a bad value is refused.
    let mut engine = EngineHost::new();
    let param = |engine: &EngineHost| {
        engine
            .params()
            .into_iter()
            .find(|p| p.name == "eval-network")
            .expect("the parameter is listed")
            .value
    };
    assert_eq!(param(&engine), "true");
    engine.set_param("eval-network", "false").unwrap();
    assert_eq!(param(&engine), "false");
    let err = engine
        .set_param("eval-network", "maybe")
        .unwrap_err()
        .to_string();
    assert!(err.contains("eval-network"), "{err}");
    engine.set_param("eval-network", "true").unwrap();
    assert_eq!(param(&engine), "true");
}
