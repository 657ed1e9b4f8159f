//! The sampler: Flag, Bombs and decoys by plan, every other piece from the human prior.

use super::checks::{explain, neighbours, Kind, Thresholds};
use super::prior;
use crate::rules::{Rank, Setup, Variant};
use rand::Rng;

/// Share of setups whose Flag gets a Bomb on every side (T1); humans: 44%.
const P_FLAG_FULL: f64 = 0.60;
/// Share of dense armies' (classic, compact) Flags with a Bomb on every side; the others
/// leave one side open, never the front (T1 flag-guard allows no more).
const P_FLAG_FULL_DENSE: f64 = 0.75;
/// Share with some but not all sides bombed; the rest (10%) leave the Flag bare as a bluff.
const P_FLAG_PARTIAL: f64 = 0.30;
/// Share of zone-filling setups with a bombed decoy square on the back row (T2).
const P_DECOY: f64 = 0.35;
/// Share of sparse (duel) setups that choose the corner fortress of T14.
const P_FORTRESS: f64 = 0.30;
/// Weight factor for Spy squares within the T6 distance of the General.
const SPY_NEAR: f64 = 4.0;
/// Valid candidates drawn per setup; the one passing most scored checks is kept.
const CANDIDATES: usize = 3;
/// Give up looking for a candidate that passes every hard check after this many draws
/// (only reachable with odd custom armies) and return the one failing fewest.
const MAX_DRAWS: usize = 200;

/// Sampling weight of each rank on each zone square, `[rank][row][col]`.
struct Weights {
    rows: usize,
    cols: usize,
    w: Vec<f64>,
}

impl Weights {
    fn new(v: &Variant) -> Weights {
        let rows = v.setup_rows as usize;
        let cols = v.files as usize;
        let dense = v.fills_zone();
        let mut w = vec![0.0; 12 * rows * cols];
        for rank in Rank::ALL {
            let k = rank.index();
            // Sparse armies learn from Barrage players for the ranks Barrage has.
            let table = if !dense && prior::BARRAGE_HAS[k] {
                &prior::BARRAGE
            } else {
                &prior::CLASSIC
            };
            let t = &table[k];
            let mut total = 0.0;
            for r in 0..rows {
                // Map this zone row onto the four human rows (back = 0, front = 3).
                let x = if rows > 1 {
                    r as f64 * 3.0 / (rows - 1) as f64
                } else {
                    3.0
                };
                let (lo, frac) = (x.floor() as usize, x - x.floor());
                let hi = (lo + 1).min(3);
                for c in 0..cols {
                    let hc = (c * 10 / cols).min(9);
                    let m = 9 - hc;
                    let at = |row: usize| (t[row][hc] as f64 + t[row][m] as f64) / 2.0;
                    let val = at(lo) * (1.0 - frac) + at(hi) * frac;
                    w[(k * rows + r) * cols + c] = val;
                    total += val;
                }
            }
            // A floor of 0.3% of the mean keeps every square possible.
            let floor = 0.003 * total / (rows * cols) as f64 + 1e-6;
            for x in &mut w[k * rows * cols..(k + 1) * rows * cols] {
                *x += floor;
            }
        }
        Weights { rows, cols, w }
    }

    fn get(&self, rank: Rank, r: usize, c: usize) -> f64 {
        self.w[(rank.index() * self.rows + r) * self.cols + c]
    }
}

/// Picks one of `cands` with probability proportional to `weight`.
fn pick<R: Rng>(rng: &mut R, cands: &[(usize, usize)], weight: impl Fn(usize, usize) -> f64) -> Option<(usize, usize)> {
    let total: f64 = cands.iter().map(|&(r, c)| weight(r, c)).sum();
    if cands.is_empty() || total <= 0.0 {
        return None;
    }
    let mut x = rng.gen::<f64>() * total;
    for &(r, c) in cands {
        x -= weight(r, c);
        if x < 0.0 {
            return Some((r, c));
        }
    }
    cands.last().copied()
}

/// One draw, before any check.
fn draw<R: Rng>(v: &Variant, w: &Weights, t: &Thresholds, rng: &mut R) -> Setup {
    let (rows, cols) = (w.rows, w.cols);
    let front = rows - 1;
    let dense = v.fills_zone();
    let mut grid: Vec<Vec<Option<Rank>>> = vec![vec![None; cols]; rows];
    let mut left = v.army;
    let free = |g: &Vec<Vec<Option<Rank>>>| -> Vec<(usize, usize)> {
        (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .filter(|&(r, c)| g[r][c].is_none())
            .collect()
    };
    let front_bombs = |g: &Vec<Vec<Option<Rank>>>| g[front].iter().filter(|x| **x == Some(Rank::Bomb)).count();
    let bomb_ok = |g: &Vec<Vec<Option<Rank>>>, r: usize| r != front || front_bombs(g) < t.front_bombs;
    let place = |g: &mut Vec<Vec<Option<Rank>>>, left: &mut [u8; 12], k: Rank, (r, c): (usize, usize)| {
        g[r][c] = Some(k);
        left[k.index()] -= 1;
    };

    // Flags first: a T14 corner fortress, or a back-two-rows square from the prior.
    let corner_ok = v.army[Rank::Bomb.index()] >= 2 && rows >= 2 && cols >= 2;
    while left[Rank::Flag.index()] > 0 {
        let fortress = !dense && corner_ok && left[Rank::Bomb.index()] >= 2 && rng.gen_bool(P_FORTRESS);
        let sq = if fortress {
            let c = if rng.gen_bool(0.5) { 0 } else { cols - 1 };
            if grid[0][c].is_some() {
                None
            } else {
                Some((0, c))
            }
        } else {
            let cands: Vec<_> = free(&grid)
                .into_iter()
                .filter(|&(r, c)| r < 2 && (dense || !(r == 0 && (c == 0 || c + 1 == cols))))
                .collect();
            pick(rng, &cands, |r, c| w.get(Rank::Flag, r, c))
        };
        let Some(sq) = sq.or_else(|| free(&grid).first().copied()) else {
            break;
        };
        place(&mut grid, &mut left, Rank::Flag, sq);
        // Bombs beside it: all sides, some sides, or none (a bluff).
        let mut sides: Vec<_> = neighbours(rows, cols, sq.0, sq.1)
            .into_iter()
            .filter(|&(r, c)| grid[r][c].is_none())
            .collect();
        let x = rng.gen::<f64>();
        let want = if fortress || (dense && (sides.len() <= 2 || x < P_FLAG_FULL_DENSE)) {
            // T1 flag-guard: a dense army's Flag is bombed on every side but at most one,
            // and fully in a corner (one open side there is the only way in).
            sides.len()
        } else if dense {
            sides.len() - 1
        } else if x < P_FLAG_FULL {
            sides.len()
        } else if x < P_FLAG_FULL + P_FLAG_PARTIAL {
            rng.gen_range(1..=sides.len().max(1))
        } else {
            0
        };
        for _ in 0..want {
            if left[Rank::Bomb.index()] == 0 || sides.is_empty() {
                break;
            }
            let i = rng.gen_range(0..sides.len());
            let s = sides.swap_remove(i);
            if bomb_ok(&grid, s.0) {
                place(&mut grid, &mut left, Rank::Bomb, s);
            }
        }
        // T1 flag-guard: a dense army's open side is never the front. Moving a side Bomb
        // there (rather than drawing the sides anew) leaves every other setup unchanged.
        let ahead = (sq.0 + 1, sq.1);
        if dense && ahead.0 < rows && grid[ahead.0][ahead.1].is_none() && bomb_ok(&grid, ahead.0) {
            let side = neighbours(rows, cols, sq.0, sq.1)
                .into_iter()
                .find(|&(r, c)| r == sq.0 && grid[r][c] == Some(Rank::Bomb));
            if let Some((r, c)) = side {
                grid[r][c] = None;
                left[Rank::Bomb.index()] += 1;
                place(&mut grid, &mut left, Rank::Bomb, ahead);
            }
        }
    }

    // T2: a decoy, a back-row square with Bombs on its sides but no Flag.
    if dense && left[Rank::Bomb.index()] >= 2 && rng.gen_bool(P_DECOY) {
        let cands: Vec<_> = (0..cols)
            .filter(|&c| grid[0][c].is_none())
            .filter(|&c| !(0..cols).any(|f| grid[0][f] == Some(Rank::Flag) && f.abs_diff(c) < 3))
            .map(|c| (0, c))
            .collect();
        if let Some((r, c)) = pick(rng, &cands, |r, c| w.get(Rank::Flag, r, c)) {
            for s in neighbours(rows, cols, r, c) {
                if left[Rank::Bomb.index()] > 0 && grid[s.0][s.1].is_none() && bomb_ok(&grid, s.0) {
                    place(&mut grid, &mut left, Rank::Bomb, s);
                }
            }
        }
    }

    // Remaining Bombs from the prior, within the front-row cap.
    while left[Rank::Bomb.index()] > 0 {
        let all = free(&grid);
        let ok: Vec<_> = all.iter().copied().filter(|&(r, _)| bomb_ok(&grid, r)).collect();
        let cands = if ok.is_empty() { all } else { ok };
        let Some(s) = pick(rng, &cands, |r, c| w.get(Rank::Bomb, r, c)) else {
            break;
        };
        place(&mut grid, &mut left, Rank::Bomb, s);
    }

    // Movable pieces in a random order (the General before the Spy, for T6).
    let mut pieces: Vec<Rank> = Vec::with_capacity(40);
    for k in Rank::ALL {
        if k.is_movable() {
            pieces.extend(std::iter::repeat_n(k, left[k.index()] as usize));
        }
    }
    for i in (1..pieces.len()).rev() {
        let j = rng.gen_range(0..=i);
        pieces.swap(i, j);
    }
    if let (Some(s), Some(g)) = (
        pieces.iter().position(|&k| k == Rank::Spy),
        pieces.iter().position(|&k| k == Rank::General),
    ) {
        if s < g {
            pieces.swap(s, g);
        }
    }
    let mut general: Option<(usize, usize)> = None;
    for k in pieces {
        let cands = free(&grid);
        let d = t.spy_general;
        let s = pick(rng, &cands, |r, c| {
            let base = w.get(k, r, c);
            match (k, general) {
                (Rank::Spy, Some((gr, gc))) if r.abs_diff(gr) + c.abs_diff(gc) <= d => base * SPY_NEAR,
                _ => base,
            }
        });
        let Some(s) = s else { break };
        if k == Rank::General {
            general = Some(s);
        }
        place(&mut grid, &mut left, k, s);
    }
    Setup {
        variant: *v,
        rows: grid,
    }
}

/// A setup for `variant` that passes every hard check of [`explain`](super::explain) and
/// tends to pass the scored ones; the same RNG state gives the same setup.
pub fn generate(variant: &Variant, rng: &mut impl Rng) -> Setup {
    let w = Weights::new(variant);
    let t = Thresholds::for_setup(variant);
    let mut best: Option<(usize, usize, Setup)> = None; // (hard fails, scored fails, setup)
    let mut valid = 0;
    for _ in 0..MAX_DRAWS {
        let s = draw(variant, &w, &t, rng);
        let checks = explain(&s);
        let hard = checks.iter().filter(|c| c.kind == Kind::Hard && !c.pass).count();
        let scored = checks.iter().filter(|c| c.kind == Kind::Scored && !c.pass).count();
        if best.as_ref().is_none_or(|b| (hard, scored) < (b.0, b.1)) {
            best = Some((hard, scored, s));
        }
        if hard == 0 {
            valid += 1;
            if valid >= CANDIDATES {
                break;
            }
        }
    }
    best.map(|b| b.2).expect("MAX_DRAWS > 0")
}
