//! Statistics over many setups: check pass rates and distributions, variety, the Flag's
//! squares, and a comparison with human setups (per-square distances, a classifier).

use super::checks::{explain, num, Kind};
use super::human::square_counts;
use crate::rules::{Rank, Setup};
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::{BTreeMap, HashSet};
use std::fmt;

/// Distribution of one check over a set of setups.
#[derive(Clone, Debug)]
pub struct CheckStats {
    /// The check's name.
    pub name: &'static str,
    /// Hard or scored.
    pub kind: Kind,
    /// The passing range, as text.
    pub threshold: String,
    /// Setups the check applied to.
    pub n: usize,
    /// Share of those that passed.
    pub pass_rate: f64,
    /// Smallest, median, mean, largest value.
    pub min: f64,
    pub median: f64,
    pub mean: f64,
    pub max: f64,
}

/// Per-check statistics of a set of setups, in the order `explain` gives the checks.
pub fn check_stats(setups: &[Setup]) -> Vec<CheckStats> {
    let mut by: BTreeMap<usize, (&'static str, Kind, String, Vec<f64>, usize)> = BTreeMap::new();
    let mut order: Vec<&'static str> = Vec::new();
    for s in setups {
        for c in explain(s) {
            let i = match order.iter().position(|n| *n == c.name) {
                Some(i) => i,
                None => {
                    order.push(c.name);
                    order.len() - 1
                }
            };
            let e = by
                .entry(i)
                .or_insert_with(|| (c.name, c.kind, c.threshold(), Vec::new(), 0));
            e.3.push(c.value);
            e.4 += usize::from(c.pass);
        }
    }
    by.into_values()
        .map(|(name, kind, threshold, mut vals, pass)| {
            vals.sort_by(f64::total_cmp);
            let n = vals.len();
            CheckStats {
                name,
                kind,
                threshold,
                n,
                pass_rate: pass as f64 / n as f64,
                min: vals[0],
                median: vals[n / 2],
                mean: vals.iter().sum::<f64>() / n as f64,
                max: vals[n - 1],
            }
        })
        .collect()
}

/// The `--report` summary of a set of setups.
#[derive(Clone, Debug)]
pub struct Report {
    /// Setups summarised.
    pub n: usize,
    /// Distinct setups among them.
    pub distinct: usize,
    /// Per-check statistics.
    pub checks: Vec<CheckStats>,
    /// How many Flags stood on each `(row, col)`, row 0 = back.
    pub flag_squares: BTreeMap<(usize, usize), usize>,
    /// Flags outside the back two rows.
    pub flags_forward: usize,
}

impl Report {
    /// Summarises `setups`.
    pub fn new(setups: &[Setup]) -> Report {
        let distinct = setups.iter().map(|s| s.to_string()).collect::<HashSet<_>>().len();
        let mut flag_squares = BTreeMap::new();
        let mut flags_forward = 0;
        for s in setups {
            for (r, row) in s.rows.iter().enumerate() {
                for (c, sq) in row.iter().enumerate() {
                    if *sq == Some(Rank::Flag) {
                        *flag_squares.entry((r, c)).or_insert(0) += 1;
                        flags_forward += usize::from(r >= 2);
                    }
                }
            }
        }
        Report {
            n: setups.len(),
            distinct,
            checks: check_stats(setups),
            flag_squares,
            flags_forward,
        }
    }

    /// The largest share of setups with their Flag on one square.
    pub fn flag_max_share(&self) -> f64 {
        let m = self.flag_squares.values().copied().max().unwrap_or(0);
        m as f64 / self.n.max(1) as f64
    }
}

fn square_name(r: usize, c: usize) -> String {
    // Row 1 is the owner's back row, columns a.. from the owner's left.
    format!("{}{}", (b'a' + c as u8) as char, r + 1)
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "setups {} distinct {}", self.n, self.distinct)?;
        writeln!(
            f,
            "{:<22} {:<6} {:<10} {:>6} {:>7} {:>7} {:>7} {:>7}",
            "check", "kind", "threshold", "pass%", "min", "median", "mean", "max"
        )?;
        for c in &self.checks {
            writeln!(
                f,
                "{:<22} {:<6} {:<10} {:>6.1} {:>7} {:>7} {:>7.3} {:>7}",
                c.name,
                c.kind,
                c.threshold,
                100.0 * c.pass_rate,
                num(c.min),
                num(c.median),
                c.mean,
                num(c.max)
            )?;
        }
        let mut sq: Vec<_> = self.flag_squares.iter().collect();
        sq.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let hist: Vec<String> = sq
            .iter()
            .map(|(&(r, c), &n)| format!("{}:{:.1}%", square_name(r, c), 100.0 * n as f64 / self.n.max(1) as f64))
            .collect();
        writeln!(f, "flag squares (row 1 = back, a = owner's left) {}", hist.join(" "))?;
        write!(
            f,
            "flag max share {:.1}% on {} squares; flags outside the back two rows {}",
            100.0 * self.flag_max_share(),
            self.flag_squares.len(),
            self.flags_forward
        )
    }
}

/// Total variation distance between the per-square distributions of each rank.
fn tv_by_rank(a: &[Setup], b: &[Setup]) -> [f64; 12] {
    let (ta, tb) = (square_counts(a), square_counts(b));
    let mut out = [0.0; 12];
    for k in 0..12 {
        let sa: u32 = ta[k].iter().flatten().sum();
        let sb: u32 = tb[k].iter().flatten().sum();
        if sa == 0 || sb == 0 {
            continue;
        }
        let mut d = 0.0;
        for r in 0..4 {
            for c in 0..10 {
                d += (ta[k][r][c] as f64 / sa as f64 - tb[k][r][c] as f64 / sb as f64).abs();
            }
        }
        out[k] = d / 2.0;
    }
    out
}

/// Per-square naive Bayes, trained on `train_a` vs `train_b`, scored on balanced test sets.
fn naive_bayes(train_a: &[Setup], train_b: &[Setup], test_a: &[Setup], test_b: &[Setup]) -> f64 {
    let (ca, cb) = (square_counts(train_a), square_counts(train_b));
    let ll = |t: &[[[u32; 10]; 4]; 12], n: usize, s: &Setup| -> f64 {
        let mut x = 0.0;
        for (r, row) in s.rows.iter().enumerate().take(4) {
            for (c, sq) in row.iter().enumerate().take(10) {
                if let Some(k) = sq {
                    x += ((t[k.index()][r][c] as f64 + 1.0) / (n as f64 + 12.0)).ln();
                }
            }
        }
        x
    };
    let n = test_a.len().min(test_b.len());
    let mut right = 0;
    for s in &test_a[..n] {
        right += usize::from(ll(&ca, train_a.len(), s) > ll(&cb, train_b.len(), s));
    }
    for s in &test_b[..n] {
        right += usize::from(ll(&cb, train_b.len(), s) > ll(&ca, train_a.len(), s));
    }
    right as f64 / (2 * n).max(1) as f64
}

/// The `--compare-human` numbers.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// Generated and human setups compared.
    pub n_generated: usize,
    pub n_human: usize,
    /// Per rank: TV distance generated vs human.
    pub tv_generated: [f64; 12],
    /// Per rank: TV distance between two halves of the human set (sampling noise).
    pub tv_human_halves: [f64; 12],
    /// Per rank: TV distance of uniformly shuffled armies vs human (a prior-free baseline).
    pub tv_uniform: [f64; 12],
    /// Held-out accuracy of a per-square naive Bayes telling generated from human (0.5 = chance).
    pub nb_generated: f64,
    /// The same classifier telling uniform shuffles from human.
    pub nb_uniform: f64,
    /// Per check: (name, generated pass rate, human pass rate).
    pub pass_rates: Vec<(&'static str, f64, f64)>,
}

impl Comparison {
    /// Compares `generated` with `human` (same variant); `rng` draws the uniform baseline
    /// and the train/test split.
    pub fn new(generated: &[Setup], human: &[Setup], rng: &mut impl Rng) -> Comparison {
        let mut human: Vec<Setup> = human.to_vec();
        human.shuffle(rng);
        let (h1, h2) = human.split_at(human.len() / 2);
        let uniform: Vec<Setup> = generated
            .iter()
            .map(|s| {
                let mut cells: Vec<Option<Rank>> = s.rows.iter().flatten().copied().collect();
                cells.shuffle(rng);
                let cols = s.variant.files as usize;
                Setup {
                    variant: s.variant,
                    rows: cells.chunks(cols).map(|c| c.to_vec()).collect(),
                }
            })
            .collect();
        let (g1, g2) = generated.split_at(generated.len() / 2);
        let (u1, u2) = uniform.split_at(uniform.len() / 2);
        let gen_stats = check_stats(generated);
        let hum_stats = check_stats(&human);
        let pass_rates = gen_stats
            .iter()
            .map(|g| {
                let h = hum_stats
                    .iter()
                    .find(|h| h.name == g.name)
                    .map_or(f64::NAN, |h| h.pass_rate);
                (g.name, g.pass_rate, h)
            })
            .collect();
        Comparison {
            n_generated: generated.len(),
            n_human: human.len(),
            tv_generated: tv_by_rank(generated, &human),
            tv_human_halves: tv_by_rank(h1, h2),
            tv_uniform: tv_by_rank(&uniform, &human),
            nb_generated: naive_bayes(g1, h1, g2, h2),
            nb_uniform: naive_bayes(u1, h1, u2, h2),
            pass_rates,
        }
    }
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "generated {} human {}", self.n_generated, self.n_human)?;
        writeln!(
            f,
            "per-square TV distance by rank: {:<10} {:>9} {:>11} {:>8}",
            "rank", "generated", "human-half", "uniform"
        )?;
        let mut sums = [0.0; 3];
        for k in Rank::ALL {
            let i = k.index();
            writeln!(
                f,
                "{:>32} {:<10} {:>9.3} {:>11.3} {:>8.3}",
                "",
                k.name(),
                self.tv_generated[i],
                self.tv_human_halves[i],
                self.tv_uniform[i]
            )?;
            sums[0] += self.tv_generated[i] / 12.0;
            sums[1] += self.tv_human_halves[i] / 12.0;
            sums[2] += self.tv_uniform[i] / 12.0;
        }
        writeln!(
            f,
            "{:>32} {:<10} {:>9.3} {:>11.3} {:>8.3}",
            "", "mean", sums[0], sums[1], sums[2]
        )?;
        writeln!(
            f,
            "naive Bayes (per square, held-out half) accuracy vs human: generated {:.1}%, uniform {:.1}% (50% = indistinguishable)",
            100.0 * self.nb_generated,
            100.0 * self.nb_uniform
        )?;
        writeln!(f, "{:<22} {:>10} {:>7}", "check pass rate", "generated", "human")?;
        let rows: Vec<String> = self
            .pass_rates
            .iter()
            .map(|(n, g, h)| format!("{:<22} {:>9.1}% {:>6.1}%", n, 100.0 * g, 100.0 * h))
            .collect();
        write!(f, "{}", rows.join("\n"))
    }
}
