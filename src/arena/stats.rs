//! Match statistics: score, Elo difference with its error margin, and the
//! sequential probability ratio test (SPRT) that decides a match early.
//!
//! The SPRT uses the normal approximation of the generalised SPRT over
//! win/draw/loss results (as the chess testing frameworks do): with mean
//! score `s` and per-game variance `v` over `n` games,
//! `LLR = n (s1 - s0) (2 s - s0 - s1) / (2 v)`, where `s0`, `s1` are the
//! expected scores of the two hypotheses `elo0`, `elo1`.

use std::fmt;

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

impl Tally {
    /// Counts a game in which the first engine scored `points` (1, ½ or 0).
    pub fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points of the first engine (a draw is half a point).
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Mean score per game, 0..1 (0.5 with no games).
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => self.points() / n as f64,
        }
    }

    /// Per-game variance of the score.
    fn variance(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n
    }

    /// Elo difference and the half-width of its 95% interval; `None` while
    /// one side has every point (the difference is then unbounded).
    pub fn elo(&self) -> Option<(f64, f64)> {
        let s = self.score();
        if self.games() == 0 || s <= 0.0 || s >= 1.0 {
            return None;
        }
        let stderr = (self.variance() / self.games() as f64).sqrt();
        let lo = (s - 1.96 * stderr).clamp(1e-6, 1.0 - 1e-6);
        let hi = (s + 1.96 * stderr).clamp(1e-6, 1.0 - 1e-6);
        Some((elo_of(s), (elo_of(hi) - elo_of(lo)) / 2.0))
    }
}

impl Tally {
    /// Likelihood of superiority: the probability that the first engine is
    /// the stronger, from wins and losses (draws carry no information).
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
    }
}

/// The error function (Abramowitz and Stegun 7.1.26, error below 1.5e-7).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x < 0.0 {
        -y
    } else {
        y
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "+{} ={} -{} ({:.1}/{}, {:.1}%)",
            self.wins,
            self.draws,
            self.losses,
            self.points(),
            self.games(),
            self.score() * 100.0
        )?;
        match self.elo() {
            Some((elo, margin)) => write!(
                f,
                " Elo {:+.0} ± {:.0}",
                rounded(elo, 0),
                rounded(margin, 0)
            ),
            None if self.games() > 0 => write!(f, " Elo unbounded"),
            None => Ok(()),
        }
    }
}

/// `x` rounded to `decimals` places, never a negative zero (an even score
/// printed `elo=-0.0`).
pub fn rounded(x: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    // Adding +0.0 turns -0.0 into +0.0 and changes nothing else.
    (x * scale).round() / scale + 0.0
}

/// Elo difference of a mean score.
pub fn elo_of(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Expected mean score of an Elo difference.
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The hypotheses and error rates of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference of the null hypothesis.
    pub elo0: f64,
    /// Elo difference of the alternative hypothesis.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

/// What an SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprtVerdict {
    /// The alternative hypothesis (`elo1`) is accepted.
    H1,
    /// The null hypothesis (`elo0`) is accepted.
    H0,
    /// Not decided yet.
    Continue,
}

impl Sprt {
    /// Parses `elo0=0,elo1=5,alpha=0.05,beta=0.05` (any order; missing
    /// alpha and beta default to 0.05).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, value) = part
                .split_once('=')
                .ok_or_else(|| format!("'{part}' is not name=value"))?;
            let value: f64 = value
                .trim()
                .parse()
                .map_err(|_| format!("'{value}' is not a number"))?;
            match name.trim() {
                "elo0" => sprt.elo0 = value,
                "elo1" => sprt.elo1 = value,
                "alpha" => sprt.alpha = value,
                "beta" => sprt.beta = value,
                other => return Err(format!("unknown SPRT setting '{other}'")),
            }
        }
        if sprt.elo0.is_nan() || sprt.elo1.is_nan() {
            return Err("both elo0 and elo1 are needed".to_string());
        }
        if sprt.elo1 <= sprt.elo0 {
            return Err("elo1 must be larger than elo0".to_string());
        }
        for (name, p) in [("alpha", sprt.alpha), ("beta", sprt.beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("{name} must be between 0 and 0.5"));
            }
        }
        Ok(sprt)
    }

    /// The (lower, upper) bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the results so far.
    pub fn llr(&self, tally: &Tally) -> f64 {
        let n = tally.games() as f64;
        let var = tally.variance();
        if n == 0.0 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of(self.elo0), score_of(self.elo1));
        n * (s1 - s0) * (2.0 * tally.score() - s0 - s1) / (2.0 * var)
    }

    /// The verdict on the results so far.
    pub fn verdict(&self, tally: &Tally) -> SprtVerdict {
        let llr = self.llr(tally);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::H1
        } else if llr <= lower {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tally of `wins`, `draws` and `losses`.
    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn an_even_score_prints_no_negative_zero() {
        let even = tally(0, 2, 0);
        let (elo, _) = even.elo().expect("bounded");
        assert_eq!(format!("{:.1}", rounded(elo, 1)), "0.0");
        assert_eq!(format!("{:.1}", rounded(-0.04, 1)), "0.0");
        assert_eq!(format!("{:.1}", rounded(-0.06, 1)), "-0.1");
        assert!(even.to_string().contains("Elo +0 "), "{even}");
    }

    #[test]
    fn elo_of_common_scores() {
        assert!((elo_of(0.5)).abs() < 1e-9);
        assert!((elo_of(0.75) - 190.85).abs() < 0.1);
        assert!((score_of(elo_of(0.64)) - 0.64).abs() < 1e-9);
    }

    #[test]
    fn elo_interval_shrinks_with_games() {
        let few = tally(6, 8, 4);
        let many = tally(60, 80, 40);
        let (e1, m1) = few.elo().unwrap();
        let (e2, m2) = many.elo().unwrap();
        assert!((e1 - e2).abs() < 1e-9);
        assert!(m2 < m1);
        assert_eq!(tally(3, 0, 0).elo(), None);
    }

    #[test]
    fn sprt_accepts_a_clear_gain_and_rejects_a_clear_loss() {
        let sprt = Sprt::parse("elo0=0,elo1=10").unwrap();
        let gain = tally(700, 600, 500);
        let loss = tally(500, 600, 700);
        assert_eq!(sprt.verdict(&gain), SprtVerdict::H1);
        assert_eq!(sprt.verdict(&loss), SprtVerdict::H0);
        assert_eq!(sprt.verdict(&tally(3, 2, 2)), SprtVerdict::Continue);
    }

    #[test]
    fn los_of_known_results() {
        assert!((tally(10, 5, 10).los() - 0.5).abs() < 1e-9);
        // 60 wins, 40 losses: (W - L) / sqrt(W + L) = 2 deviations, LOS = 0.97725.
        let los = tally(60, 0, 40).los();
        assert!((los - 0.97725).abs() < 1e-4, "{los}");
        assert!((tally(40, 7, 60).los() - (1.0 - los)).abs() < 1e-6);
        assert_eq!(Tally::default().los(), 0.5);
        assert!((erf(0.5) - 0.520_499_9).abs() < 1e-6);
    }

    #[test]
    fn sprt_settings_are_checked() {
        assert!(Sprt::parse("elo0=5,elo1=0").is_err());
        assert!(Sprt::parse("elo0=0").is_err());
        assert!(Sprt::parse("elo0=0,elo1=5,alpha=2").is_err());
        assert!(Sprt::parse("elo0=0,elo1=5,gamma=1").is_err());
        let s = Sprt::parse(" elo1=5 , elo0=-1, beta=0.1 ").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-1.0, 5.0, 0.05, 0.1));
    }
}
