//! SPSA runs played out (`spsa` has the arithmetic): pairs of games between
//! two processes of one engine, handed to workers by the match scheduler
//! ([`run_workers`](super::run_workers)) under the match's failure rules.
//! Pair `k` plays opening `k - 1` twice, the `plus` side White then Black;
//! its settings come from the estimates when a worker takes it, and its
//! result moves them as soon as both games are over.

use std::sync::Mutex;

use super::spsa::{Pair, Run};
use super::stats::Tally;
use super::{play_game, run_workers, Clients, FailureStreaks, GameRecord, MatchConfig};
use crate::rules::Rules;

/// What sees each finished pair: the run after it, the pair and its two
/// games; an error stops the run.
pub type OnPair<'a> = dyn FnMut(&Run, &Pair, &[GameRecord]) -> Result<(), String> + 'a;

/// Plays the pairs of `run` from the one after its last done up to
/// `pairs`, applying each pair's result as it ends; `on_pair` sees the run
/// after it, the pair and its two games (it saves and reports; an error
/// stops the run). Stops early at an error: an engine that cannot start or
/// refuses a tuned parameter, `on_pair`'s error, or `config.failure_streak`
/// games in a row lost by failures by one engine. Returns the run as far
/// as it got and the error that stopped it.
pub fn run_pairs<R: Rules>(
    config: &MatchConfig,
    run: Run,
    pairs: u64,
    on_pair: &mut OnPair,
) -> (Run, Option<String>) {
    let names: Vec<String> = run.params.iter().map(|p| p.name.clone()).collect();
    let next_pair = run.pairs_done + 1;
    // The run and the next pair to hand out: read by the workers as they
    // take a pair, moved by the results as they come.
    let state = Mutex::new((run, next_pair));
    let mut streaks = FailureStreaks::default();
    let mut error = None;
    run_workers(
        config.concurrency,
        &|| {
            let mut state = state.lock().ok()?;
            let (run, next) = &mut *state;
            if *next > pairs {
                return None;
            }
            let pair = run.pair(*next);
            *next += 1;
            Some(pair)
        },
        &|pair, clients| {
            let records = play_pair::<R>(config, &pair, &names, clients);
            (pair, records)
        },
        &mut |(pair, records)| {
            let records = match records {
                Ok(records) => records,
                Err(e) => {
                    error.get_or_insert(e);
                    return true;
                }
            };
            let mut games = Tally::default();
            let mut stop = None;
            for record in &records {
                games.add(record.first_points());
                if let Some(streak) = streaks.count(record, config.failure_streak) {
                    stop.get_or_insert(streak.to_string());
                }
            }
            let Ok(mut state) = state.lock() else {
                error.get_or_insert("a worker failed".to_string());
                return true;
            };
            let run = &mut state.0;
            run.apply(
                &pair,
                [games.wins, games.draws, games.losses].map(u64::from),
            );
            if let Err(e) = on_pair(run, &pair, &records) {
                stop.get_or_insert(e);
            }
            let stopped = stop.is_some();
            if let Some(why) = stop {
                error.get_or_insert(why);
            }
            stopped
        },
    );
    let run = match state.into_inner() {
        Ok((run, _)) => run,
        Err(poisoned) => poisoned.into_inner().0,
    };
    (run, error)
}

/// Plays pair `pair.k`: the opening `k - 1`, `plus` White then Black.
/// Engines are started where none runs, and every engine is given the
/// pair's values and must take them (an unknown name stops the run); an
/// engine restarted after a failed game starts with them.
fn play_pair<R: Rules>(
    base: &MatchConfig,
    pair: &Pair,
    names: &[String],
    clients: &mut Clients,
) -> Result<Vec<GameRecord>, String> {
    let mut config = base.clone();
    let values = [&pair.plus, &pair.minus];
    for (slot, engine) in config.engines.iter_mut().enumerate() {
        for (name, value) in names.iter().zip(values[slot]) {
            engine.options.push((name.clone(), value.to_string()));
        }
        if clients[slot].is_none() {
            let started =
                super::EngineClient::start(&base.engines[slot], base.variant).map_err(|e| {
                    format!(
                        "engine '{}' ({}) could not start: {e}",
                        engine.name, engine.command
                    )
                })?;
            clients[slot] = Some(started);
        }
        if let Some(client) = clients[slot].as_mut() {
            for (name, value) in names.iter().zip(values[slot]) {
                client
                    .set_param(name, &value.to_string())
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    let first = 2 * (pair.k - 1) as usize;
    (first..first + 2)
        .map(|index| {
            play_game::<R>(&config, index, clients).map_err(|failure| {
                format!(
                    "engine '{}' ({}) could not start: {}",
                    config.engines[failure.engine].name,
                    config.engines[failure.engine].command,
                    failure.error
                )
            })
        })
        .collect()
}
