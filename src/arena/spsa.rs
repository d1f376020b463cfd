//! Simultaneous perturbation stochastic approximation (SPSA) over engine
//! parameters, played out in game pairs: every parameter is moved at once,
//! one way for one engine and the other way for its opponent, and the pair's
//! result moves every parameter toward the side that scored.
//!
//! The schedule is the usual one (Spall; as engine testing frameworks use
//! it), set by what the last pair should do, so that its meaning does not
//! depend on the number of pairs:
//! ```text
//! c_k = c / k^0.101          perturbation of pair k (1-based)
//! a_k = a / (A + k)^0.602    gain of pair k, A = pairs / 10
//! c = step · pairs^0.101     (c_pairs = step)
//! a = rate · step² · (A + pairs)^0.602   (a_pairs / c_pairs² = rate)
//! θ+ = θ + c_k δ, θ- = θ - c_k δ     δ: each ±1, drawn per pair
//! θ ← θ + (a_k / c_k²) · c_k · result · δ,   result = wins - losses of θ+
//! ```
//! The perturbation of a pair depends only on the seed and the pair's
//! number, so a run stopped and resumed draws what an unbroken run would
//! (pairs played at once and unfinished at the stop are played again).
//! The state (the schedule, pairs played, the parameters, the tally) is
//! plain text, saved after every pair.

use crate::rules::random::SplitMix64;
use std::fmt::Write as _;

/// The exponent of the gain's decay.
const ALPHA: f64 = 0.602;
/// The exponent of the perturbation's decay.
const GAMMA: f64 = 0.101;

/// One parameter tuned.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Its name, as the engine lists it.
    pub name: String,
    /// The current estimate.
    pub value: f64,
    /// The least value allowed.
    pub min: f64,
    /// The greatest value allowed.
    pub max: f64,
    /// The perturbation at the last pair.
    pub step: f64,
}

impl Param {
    /// Parses `NAME=START:MIN:MAX:STEP`, e.g. `lmr-divisor=150:100:250:10`.
    pub fn parse(text: &str) -> Result<Param, String> {
        let bad = |why: &str| format!("--param '{text}': {why} (NAME=START:MIN:MAX:STEP)");
        let (name, numbers) = text.split_once('=').ok_or_else(|| bad("no '='"))?;
        let name = name.trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(bad("the name is empty or has spaces"));
        }
        let numbers: Vec<f64> = numbers
            .split(':')
            .map(|n| n.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| bad("a number is not a number"))?;
        let [value, min, max, step] = numbers[..] else {
            return Err(bad("give four numbers"));
        };
        if [value, min, max, step].iter().any(|x| !x.is_finite()) {
            return Err(bad("every number must be finite"));
        }
        if min > max || !(min..=max).contains(&value) {
            return Err(bad("MIN ≤ START ≤ MAX is needed"));
        }
        if step <= 0.0 {
            return Err(bad("STEP must be positive"));
        }
        Ok(Param {
            name: name.to_string(),
            value,
            min,
            max,
            step,
        })
    }

    /// The value sent to an engine: the nearest whole number within bounds
    /// (engine parameters are whole numbers).
    pub fn sent(&self, value: f64) -> i64 {
        value.clamp(self.min, self.max).round() as i64
    }
}

/// The schedule of a run: how many pairs it plays, how fast it moves, and
/// the seed of its signs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// Pairs the run plays in all.
    pub pairs: u64,
    /// The gain over the squared perturbation at the last pair.
    pub rate: f64,
    /// The seed of the perturbations' signs.
    pub seed: u64,
}

impl Schedule {
    /// The stability constant `A`.
    fn stability(&self) -> f64 {
        self.pairs as f64 / 10.0
    }

    /// The perturbation of `param` at pair `k` (1-based).
    pub fn perturbation(&self, param: &Param, k: u64) -> f64 {
        let c = param.step * (self.pairs as f64).powf(GAMMA);
        c / (k.max(1) as f64).powf(GAMMA)
    }

    /// How far one point of result moves `param` at pair `k`, per unit of
    /// its δ: `a_k / c_k`.
    pub fn gain(&self, param: &Param, k: u64) -> f64 {
        let a_end = self.rate * param.step * param.step;
        let a = a_end * (self.stability() + self.pairs as f64).powf(ALPHA);
        let a_k = a / (self.stability() + k.max(1) as f64).powf(ALPHA);
        a_k / self.perturbation(param, k)
    }
}

/// The signs δ of pair `k`: one per parameter, each +1 or -1.
pub fn signs(seed: u64, k: u64, count: usize) -> Vec<f64> {
    let mut random = SplitMix64(seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    (0..count)
        .map(|_| if random.next() & 1 == 0 { 1.0 } else { -1.0 })
        .collect()
}

/// A run in progress: its schedule, the parameters and how many pairs
/// moved them.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// The schedule.
    pub schedule: Schedule,
    /// The parameters with their current estimates.
    pub params: Vec<Param>,
    /// Pairs whose result has been applied.
    pub pairs_done: u64,
    /// Games won, drawn and lost by the side with `θ + c_k δ`.
    pub tally: [u64; 3],
}

/// The two settings of one pair: `plus` and `minus`, as sent.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    /// The pair's number, from 1.
    pub k: u64,
    /// The signs drawn.
    pub signs: Vec<f64>,
    /// `θ + c_k δ`, rounded and bounded.
    pub plus: Vec<i64>,
    /// `θ - c_k δ`, rounded and bounded.
    pub minus: Vec<i64>,
}

impl Run {
    /// A run from the starting values.
    pub fn new(schedule: Schedule, params: Vec<Param>) -> Run {
        Run {
            schedule,
            params,
            pairs_done: 0,
            tally: [0; 3],
        }
    }

    /// The settings of pair `k` from the current estimates.
    pub fn pair(&self, k: u64) -> Pair {
        let schedule = &self.schedule;
        let signs = signs(schedule.seed, k, self.params.len());
        let shifted = |sign: f64| {
            self.params
                .iter()
                .zip(&signs)
                .map(|(p, d)| p.sent(p.value + sign * d * schedule.perturbation(p, k)))
                .collect()
        };
        Pair {
            k,
            plus: shifted(1.0),
            minus: shifted(-1.0),
            signs,
        }
    }

    /// Applies a pair's games: `games` are the wins, draws and losses of
    /// the `plus` side.
    pub fn apply(&mut self, pair: &Pair, games: [u64; 3]) {
        let result = games[0] as f64 - games[2] as f64;
        for (param, sign) in self.params.iter_mut().zip(&pair.signs) {
            let moved = param.value + self.schedule.gain(param, pair.k) * result * sign;
            param.value = moved.clamp(param.min, param.max);
        }
        for (total, n) in self.tally.iter_mut().zip(games) {
            *total += n;
        }
        self.pairs_done += 1;
    }

    /// The state as text (see [`Run::parse`]).
    pub fn to_text(&self) -> String {
        let mut text =
            String::from("# tempo tune: the state of a run; the same command resumes it\n");
        let [w, d, l] = self.tally;
        let Schedule { pairs, rate, seed } = self.schedule;
        let _ = writeln!(text, "schedule {pairs} {rate} {seed}");
        let _ = writeln!(text, "pairs {}", self.pairs_done);
        let _ = writeln!(text, "games {w} {d} {l}");
        for p in &self.params {
            let _ = writeln!(
                text,
                "param {} {} {} {} {}",
                p.name, p.value, p.min, p.max, p.step
            );
        }
        text
    }

    /// Reads a state written by [`Run::to_text`].
    pub fn parse(text: &str) -> Result<Run, String> {
        let mut schedule = None;
        let mut run = Run::new(
            Schedule {
                pairs: 0,
                rate: 0.0,
                seed: 0,
            },
            Vec::new(),
        );
        for (n, line) in text.lines().enumerate() {
            let bad = || format!("line {}: '{line}' is not a line of a tune state", n + 1);
            let words: Vec<&str> = line.split_whitespace().collect();
            let numbers = |from: usize| -> Result<Vec<f64>, String> {
                words[from..]
                    .iter()
                    .map(|w| w.parse::<f64>().map_err(|_| bad()))
                    .collect()
            };
            match words.first() {
                None => {}
                Some(w) if w.starts_with('#') => {}
                Some(&"schedule") if words.len() == 4 => {
                    schedule = Some(Schedule {
                        pairs: words[1].parse().map_err(|_| bad())?,
                        rate: words[2].parse().map_err(|_| bad())?,
                        seed: words[3].parse().map_err(|_| bad())?,
                    });
                }
                Some(&"pairs") if words.len() == 2 => {
                    run.pairs_done = words[1].parse().map_err(|_| bad())?;
                }
                Some(&"games") if words.len() == 4 => {
                    for (total, w) in run.tally.iter_mut().zip(&words[1..]) {
                        *total = w.parse().map_err(|_| bad())?;
                    }
                }
                Some(&"param") if words.len() == 6 => {
                    let [value, min, max, step] = numbers(2)?[..] else {
                        return Err(bad());
                    };
                    run.params.push(Param {
                        name: words[1].to_string(),
                        value,
                        min,
                        max,
                        step,
                    });
                }
                _ => return Err(bad()),
            }
        }
        if run.params.is_empty() {
            return Err("no 'param' line".to_string());
        }
        run.schedule = schedule.ok_or("no 'schedule' line")?;
        Ok(run)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(text: &str) -> Param {
        Param::parse(text).unwrap()
    }

    #[test]
    fn parameters_parse_and_bad_ones_are_refused_with_a_reason() {
        let p = param("lmr-divisor=150:100:250:10");
        assert_eq!((p.value, p.min, p.max, p.step), (150.0, 100.0, 250.0, 10.0));
        assert_eq!(p.name, "lmr-divisor");
        for bad in [
            "lmr-divisor",
            "=1:0:2:1",
            "x=1:0:2",
            "x=3:0:2:1",
            "x=1:2:0:1",
            "x=1:0:2:0",
            "x=a:0:2:1",
            "x=1:0:inf:1",
        ] {
            let e = Param::parse(bad).unwrap_err();
            assert!(e.contains(bad), "{e}");
        }
    }

    #[test]
    fn the_schedule_ends_at_the_step_and_rate_asked() {
        let s = Schedule {
            pairs: 1000,
            rate: 0.05,
            seed: 1,
        };
        let p = param("x=150:100:250:10");
        assert!((s.perturbation(&p, 1000) - 10.0).abs() < 1e-9);
        let last = s.gain(&p, 1000) / s.perturbation(&p, 1000);
        assert!((last - 0.05).abs() < 1e-9);
        // Both decay: the first pair perturbs and moves more than the last.
        assert!(s.perturbation(&p, 1) > 19.0 && s.perturbation(&p, 1) < 21.0);
        assert!(s.gain(&p, 1) > s.gain(&p, 1000));
    }

    #[test]
    fn signs_are_balanced_and_repeat_for_the_same_pair() {
        let a = signs(7, 12, 8);
        assert_eq!(a, signs(7, 12, 8));
        assert_ne!(a, signs(7, 13, 8));
        let plus: usize = (1..=2000)
            .map(|k| signs(1, k, 1)[0])
            .filter(|&s| s > 0.0)
            .count();
        assert!((900..1100).contains(&plus), "{plus}");
    }

    /// A run of 100 pairs over two parameters, at its start.
    fn two_parameter_run() -> Run {
        let s = Schedule {
            pairs: 100,
            rate: 0.05,
            seed: 3,
        };
        Run::new(s, vec![param("a=150:100:250:10"), param("b=75:0:200:5")])
    }

    #[test]
    fn a_pair_won_by_the_plus_side_moves_every_parameter_its_way() {
        let mut run = two_parameter_run();
        let pair = run.pair(1);
        for (i, p) in run.params.iter().enumerate() {
            let toward = (pair.plus[i] - pair.minus[i]).signum() as f64;
            assert_eq!(toward, pair.signs[i]);
            assert!((p.value - f64::from(pair.plus[i] as i32)).abs() > 1.0);
        }
        let before: Vec<f64> = run.params.iter().map(|p| p.value).collect();
        run.apply(&pair, [1, 1, 0]);
        for (i, p) in run.params.iter().enumerate() {
            assert_eq!((p.value - before[i]).signum(), pair.signs[i]);
        }
        // A level pair moves nothing.
        let kept: Vec<f64> = run.params.iter().map(|p| p.value).collect();
        let pair = run.pair(2);
        run.apply(&pair, [1, 0, 1]);
        assert_eq!(kept, run.params.iter().map(|p| p.value).collect::<Vec<_>>());
        assert_eq!((run.pairs_done, run.tally), (2, [2, 1, 1]));
    }

    #[test]
    fn values_stay_within_bounds() {
        let s = Schedule {
            pairs: 10,
            rate: 100.0,
            seed: 5,
        };
        let mut run = Run::new(s, vec![param("a=1:0:2:1")]);
        for k in 1..=10 {
            let pair = run.pair(k);
            assert!(pair.plus[0] >= 0 && pair.plus[0] <= 2);
            run.apply(&pair, [2, 0, 0]);
            assert!((0.0..=2.0).contains(&run.params[0].value));
        }
    }

    #[test]
    fn the_state_survives_text() {
        let mut run = two_parameter_run();
        let pair = run.pair(1);
        run.apply(&pair, [2, 0, 0]);
        let back = Run::parse(&run.to_text()).unwrap();
        assert_eq!(back, run);
        assert!(Run::parse("pairs 3\n").is_err());
        assert!(Run::parse("pairs 3\nparam a 1 0 2 1\n").is_err());
        let e = Run::parse("pairs 3\nparam a 1 0 2\n").unwrap_err();
        assert!(e.contains("line 2"), "{e}");
    }
}
