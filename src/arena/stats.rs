//! Match statistics for `marshal match`: score, Elo difference with a 95% interval,
//! likelihood of superiority (LOS) and a sequential probability ratio test (SPRT).
//!
//! Everything is seen from the first engine's point of view: a win is a game the first
//! engine won. All functions are pure and need no crate beyond `std`.
//!
//! Model: each game gives the first engine 1, 0.5 or 0 points. The mean score `p` over
//! `N` games estimates the expected score; its per-game variance is estimated from the
//! observed trinomial distribution of results (wins, draws, losses), and the standard
//! error of the mean is `sqrt(var / N)`. Elo differences use the logistic model
//! `score = 1 / (1 + 10^(-elo / 400))`.

use std::fmt::Write as _;

/// Two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959964;

/// Result counts of a match, from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Games the first engine won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

impl Score {
    /// A score from its three counts.
    pub fn new(wins: u32, draws: u32, losses: u32) -> Self {
        Score { wins, draws, losses }
    }

    /// Number of games played: `wins + draws + losses`.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points of the first engine: 1 per win, 0.5 per draw.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Mean score per game, `points / games`, in `[0, 1]`. With no games played it is
    /// 0.5 (no evidence either way), so that the Elo estimate of an empty match is 0.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.5
        } else {
            self.points() / n as f64
        }
    }

    /// Estimated per-game variance of the score under the observed trinomial
    /// distribution: `(W (1-p)^2 + D (0.5-p)^2 + L (0-p)^2) / N`. Zero with no games.
    pub fn variance(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        let p = self.score();
        let (w, d, l) = (self.wins as f64, self.draws as f64, self.losses as f64);
        (w * (1.0 - p).powi(2) + d * (0.5 - p).powi(2) + l * p.powi(2)) / n as f64
    }

    /// Standard error of the mean score: `sqrt(variance / N)`. Zero with no games.
    pub fn std_error(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.0
        } else {
            (self.variance() / n as f64).sqrt()
        }
    }
}

/// Elo difference implied by an expected score `p` under the logistic model:
/// `-400 * log10(1/p - 1)`.
///
/// Scores at or beyond the ends of the range map to infinities: `p >= 1` gives
/// `f64::INFINITY`, `p <= 0` gives `f64::NEG_INFINITY` (a perfect score carries no finite
/// Elo estimate). A NaN input gives NaN.
pub fn elo_from_score(p: f64) -> f64 {
    if p.is_nan() {
        f64::NAN
    } else if p >= 1.0 {
        f64::INFINITY
    } else if p <= 0.0 {
        f64::NEG_INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// Expected score of an Elo difference under the logistic model:
/// `1 / (1 + 10^(-elo / 400))`. The inverse of [`elo_from_score`].
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo estimate and 95% confidence interval: `(elo, lower, upper)`.
///
/// The estimate is `elo_from_score(p)`; the bounds are `elo_from_score(p ∓ 1.959964 * se)`
/// with `se` the standard error of the mean score ([`Score::std_error`]). A bound whose
/// score leaves `(0, 1)` is infinite. With no games the result is `(0, -inf, +inf)`.
/// When every game had the same result the variance is zero and the interval collapses
/// onto the estimate.
pub fn elo_interval(s: &Score) -> (f64, f64, f64) {
    if s.games() == 0 {
        return (0.0, f64::NEG_INFINITY, f64::INFINITY);
    }
    let p = s.score();
    let half = Z95 * s.std_error();
    (elo_from_score(p), elo_from_score(p - half), elo_from_score(p + half))
}

/// Error function, accurate to about 1e-15 absolute.
///
/// For `|x| < 6` it sums the everywhere-convergent series
/// `erf(x) = 2/sqrt(pi) * exp(-x^2) * sum_{n>=0} 2^n x^(2n+1) / (1*3*5*...*(2n+1))`
/// (Abramowitz and Stegun 7.1.6), whose terms are all positive, so nothing cancels.
/// For `|x| >= 6`, `1 - |erf(x)| < 2.2e-17` and the result is `±1`.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let a = x.abs();
    if a >= 6.0 {
        return x.signum();
    }
    let two_x2 = 2.0 * a * a;
    let mut term = a;
    let mut sum = a;
    let mut k = 1.0;
    loop {
        k += 2.0;
        term *= two_x2 / k;
        sum += term;
        if term <= sum * 1e-17 {
            break;
        }
    }
    let r = 2.0 / std::f64::consts::PI.sqrt() * (-a * a).exp() * sum;
    r.min(1.0).copysign(x)
}

/// Likelihood of superiority: the probability that the first engine is the stronger,
/// `0.5 * (1 + erf((W - L) / sqrt(2 (W + L))))`. Draws carry no information here.
/// With no decisive games it is 0.5.
pub fn los(s: &Score) -> f64 {
    let (w, l) = (s.wins as f64, s.losses as f64);
    if w + l == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
}

/// A sequential probability ratio test of H0 "Elo difference = `elo0`" against
/// H1 "Elo difference = `elo1`", with error rates `alpha` (false H1) and `beta` (false H0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference under the null hypothesis H0.
    pub elo0: f64,
    /// Elo difference under the alternative hypothesis H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// The decision of an [`Sprt`] after some games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtStatus {
    /// The log-likelihood ratio lies between the bounds: play on.
    Continue,
    /// The LLR reached the lower bound: accept H0 (`elo0`).
    AcceptH0,
    /// The LLR reached the upper bound: accept H1 (`elo1`).
    AcceptH1,
}

impl Sprt {
    /// A test of `elo0` against `elo1` with error rates `alpha` and `beta`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Self {
        Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        }
    }

    /// Wald's stopping bounds on the LLR: `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Log-likelihood ratio of H1 over H0 for the results so far.
    ///
    /// This is the normal approximation to the generalized SPRT used by chess testing
    /// frameworks (fishtest, cutechess-cli, fastchess), after a derivation by Michel
    /// Van den Bergh. The expected scores under the two hypotheses are
    /// `s0 = 1 / (1 + 10^(-elo0/400))` and `s1` likewise for `elo1`. Treating the mean
    /// score `p` of `N` games as normal with the observed per-game variance `var`
    /// ([`Score::variance`]), the log of the ratio of the two normal likelihoods,
    /// centred at `s1` and at `s0`, is
    ///
    /// `LLR = N * (s1 - s0) * (2p - s0 - s1) / (2 var)`.
    ///
    /// It is positive when `p` lies nearer `s1` than `s0`. When the variance is zero
    /// (no games, or every game the same result) the LLR is 0: no decision is taken on
    /// such a degenerate sample.
    pub fn llr(&self, s: &Score) -> f64 {
        let n = s.games() as f64;
        let var = s.variance();
        if n == 0.0 || var <= 0.0 {
            return 0.0;
        }
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        n * (s1 - s0) * (2.0 * s.score() - s0 - s1) / (2.0 * var)
    }

    /// The test's decision: H0 at or below the lower bound, H1 at or above the upper one,
    /// otherwise continue.
    pub fn status(&self, s: &Score) -> SprtStatus {
        let llr = self.llr(s);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtStatus::AcceptH1
        } else if llr <= lower {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }
}

/// Formats an Elo value with an explicit sign and one decimal: `+127.0`, `-8.3`, `+inf`.
fn fmt_elo(e: f64) -> String {
    if e.is_nan() {
        "nan".to_string()
    } else if e == f64::INFINITY {
        "+inf".to_string()
    } else if e == f64::NEG_INFINITY {
        "-inf".to_string()
    } else {
        // Avoid printing "-0.0".
        let e = if e.abs() < 0.05 { 0.0 } else { e };
        format!("{:+.1}", e)
    }
}

/// A human-readable summary, one line, plus a second line when an SPRT is given:
///
/// ```text
/// W/D/L 12/3/5  score 0.675  Elo +127.0 [-8.3, +318.1] (95%)  LOS 95.5%
/// SPRT elo0 +0.0 elo1 +10.0 alpha 0.05 beta 0.05  LLR 0.33 [-2.94, +2.94]  continue
/// ```
pub fn summary(s: &Score, sprt: Option<&Sprt>) -> String {
    let (elo, lo, hi) = elo_interval(s);
    let mut out = format!(
        "W/D/L {}/{}/{}  score {:.3}  Elo {} [{}, {}] (95%)  LOS {:.1}%",
        s.wins,
        s.draws,
        s.losses,
        s.score(),
        fmt_elo(elo),
        fmt_elo(lo),
        fmt_elo(hi),
        100.0 * los(s),
    );
    if let Some(t) = sprt {
        let (lower, upper) = t.bounds();
        let status = match t.status(s) {
            SprtStatus::Continue => "continue",
            SprtStatus::AcceptH0 => "H0 accepted",
            SprtStatus::AcceptH1 => "H1 accepted",
        };
        let _ = write!(
            out,
            "\nSPRT elo0 {} elo1 {} alpha {} beta {}  LLR {:.2} [{:.2}, {:+.2}]  {}",
            fmt_elo(t.elo0),
            fmt_elo(t.elo1),
            t.alpha,
            t.beta,
            t.llr(s),
            lower,
            upper,
            status
        );
    }
    out
}
