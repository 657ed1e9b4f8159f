//! Setup priors: how likely each rank is on each square of the setup zone, before the
//! game has shown anything.
//!
//! Classic uses counts of human deployments (`prior_classic.txt`, learnt from the Gravon
//! file's training split: lines whose 0-based index is not a multiple of 10; the others
//! are held out for `marshal calibrate --setups human`). Regenerate it with
//!
//! ```text
//! cargo run --release --example belief_prior > src/belief/prior_classic.txt
//! ```
//!
//! Every other variant (compact, duel, barrage, custom armies) counts the setups of our
//! own generator (`crate::setup`, which follows the tips and the human tables), drawn with
//! a fixed seed the first time the variant is used, and mixes in the army's rank shares so
//! that an opponent who deploys differently is not ruled out.

use crate::rules::piece::NUM_RANKS;
use crate::rules::{Color, Rank, Setup, Square, Variant, VariantKind};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::sync::{Arc, Mutex, OnceLock};

/// The classic table: `row col` then counts in `Rank::ALL` order, one line per square.
const CLASSIC_TABLE: &str = include_str!("prior_classic.txt");
/// Weight of the army's rank shares in the classic prior, in setups (of about 29,000):
/// keeps a rank that humans never put on a square possible there.
const CLASSIC_SMOOTHING: f64 = 60.0;
/// Generated setups counted for a variant without human data (about 50 ms for duel,
/// whose generator is the slowest; the engine does it at `setup`).
const GENERATED: usize = 200;
/// Share of the army's rank shares mixed into a generated prior.
const GENERATED_UNIFORM: f64 = 0.25;

/// P(rank | start square) for one variant, by setup slot (`row` 0 = the owner's back row,
/// `col` 0 = the owner's left), as in `Setup`.
#[derive(Clone, Debug, PartialEq)]
pub struct Prior {
    files: u8,
    rows: u8,
    p: Vec<[f32; NUM_RANKS]>,
}

impl Prior {
    /// The prior for `variant` (built once per variant and shared).
    pub fn for_variant(variant: &Variant) -> Arc<Prior> {
        type Cache = Mutex<Vec<(Variant, Arc<Prior>)>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
        let mut c = cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, p)) = c.iter().find(|(v, _)| v == variant) {
            return Arc::clone(p);
        }
        let p = Arc::new(Prior::build(variant));
        c.push((*variant, Arc::clone(&p)));
        p
    }

    fn build(v: &Variant) -> Prior {
        if v.kind == VariantKind::Classic {
            if let Ok(counts) = parse_table(CLASSIC_TABLE) {
                return Prior::from_counts(v, &counts, CLASSIC_SMOOTHING);
            }
            tracing::warn!("the classic prior table does not parse; using the generic prior");
        }
        let mut rng = StdRng::seed_from_u64(0x5e7_0b5e);
        let setups: Vec<Setup> = (0..GENERATED).map(|_| crate::setup::generate(v, &mut rng)).collect();
        let counts = count(v, &setups);
        Prior::from_counts(
            v,
            &counts,
            GENERATED_UNIFORM / (1.0 - GENERATED_UNIFORM) * GENERATED as f64 * share(v),
        )
    }

    /// Per-slot counts with `smoothing` setups' worth of the army's rank shares added:
    /// P(rank | occupied slot).
    fn from_counts(v: &Variant, counts: &[[u32; NUM_RANKS]], smoothing: f64) -> Prior {
        let size = v.army_size().max(1) as f64;
        let p = counts
            .iter()
            .map(|c| {
                let occupied: u32 = c.iter().sum();
                let mut row = [0f32; NUM_RANKS];
                for r in Rank::ALL {
                    let k = r.index();
                    let a = v.army[k] as f64 / size;
                    row[k] = ((c[k] as f64 + smoothing * a) / (occupied as f64 + smoothing).max(1e-9)) as f32;
                }
                row
            })
            .collect();
        Prior {
            files: v.files,
            rows: v.setup_rows,
            p,
        }
    }

    /// The prior of the piece of `color` that started on `sq` (the army's shares when `sq`
    /// is outside the zone).
    pub fn at(&self, color: Color, sq: Square, v: &Variant) -> [f32; NUM_RANKS] {
        match slot(v, color, sq) {
            Some((row, col)) if row < self.rows && col < self.files => {
                self.p[row as usize * self.files as usize + col as usize]
            }
            _ => {
                let size = v.army_size().max(1) as f32;
                let mut out = [0f32; NUM_RANKS];
                for r in Rank::ALL {
                    out[r.index()] = v.army[r.index()] as f32 / size;
                }
                out
            }
        }
    }
}

/// The share of the zone an army fills.
fn share(v: &Variant) -> f64 {
    v.army_size() as f64 / v.zone_size().max(1) as f64
}

/// The setup slot (`row` from the owner's back, `col` from the owner's left) of `sq`.
pub fn slot(v: &Variant, color: Color, sq: Square) -> Option<(u8, u8)> {
    if !v.in_zone(color, sq) {
        return None;
    }
    Some(match color {
        Color::Red => (sq.rank(), sq.file()),
        Color::Blue => (v.ranks - 1 - sq.rank(), v.files - 1 - sq.file()),
    })
}

/// Rank counts per slot (`row * files + col`) of `setups`.
fn count(v: &Variant, setups: &[Setup]) -> Vec<[u32; NUM_RANKS]> {
    let (rows, cols) = (v.setup_rows as usize, v.files as usize);
    let mut t = vec![[0u32; NUM_RANKS]; rows * cols];
    for s in setups {
        for row in 0..rows {
            for col in 0..cols {
                if let Some(r) = s.at(row, col) {
                    t[row * cols + col][r.index()] += 1;
                }
            }
        }
    }
    t
}

/// Reads the text form of a classic count table (see `table_text`).
fn parse_table(text: &str) -> Result<Vec<[u32; NUM_RANKS]>, String> {
    let v = Variant::CLASSIC;
    let mut t = vec![[0u32; NUM_RANKS]; v.zone_size()];
    let mut seen = vec![false; t.len()];
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let nums: Vec<u32> = line
            .split_whitespace()
            .map(|x| x.parse().map_err(|_| format!("bad number '{x}' in '{line}'")))
            .collect::<Result<_, _>>()?;
        if nums.len() != 2 + NUM_RANKS {
            return Err(format!("line '{line}' does not have {} numbers", 2 + NUM_RANKS));
        }
        let (row, col) = (nums[0] as usize, nums[1] as usize);
        if row >= v.setup_rows as usize || col >= v.files as usize {
            return Err(format!("slot {row} {col} is outside the zone"));
        }
        let i = row * v.files as usize + col;
        seen[i] = true;
        t[i].copy_from_slice(&nums[2..]);
    }
    if seen.iter().any(|s| !s) {
        return Err("the table misses slots".into());
    }
    Ok(t)
}

/// Is line `index` (0-based, over the non-empty lines of the human file) held out of the
/// prior's training data?
pub fn held_out(index: usize) -> bool {
    index.is_multiple_of(10)
}

/// The classic count table learnt from the training lines of a Gravon classic setup file
/// (the contents of `prior_classic.txt`).
pub fn table_text(gravon_file: &str) -> Result<String, String> {
    let v = Variant::CLASSIC;
    let mut setups = Vec::new();
    for (i, line) in gravon_file.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        if held_out(i) {
            continue;
        }
        setups.push(crate::formats::gravon::parse_gravon(line, &v).map_err(|e| format!("line {}: {e}", i + 1))?);
    }
    let t = count(&v, &setups);
    let mut out = String::new();
    out.push_str("# Rank counts per setup slot of the human classic setups (Gravon) that the belief\n");
    out.push_str("# prior learns from: the lines of data/classic-human-setups.txt(.gz) whose\n");
    out.push_str("# 0-based index is not a multiple of 10 (the others are held out for calibration).\n");
    out.push_str("# Regenerate: cargo run --release --example belief_prior > src/belief/prior_classic.txt\n");
    out.push_str(&format!("# setups {}\n", setups.len()));
    out.push_str("# row (0 = back) col (0 = owner's left), then counts of F S 2 3 4 5 6 7 8 9 M B\n");
    for row in 0..v.setup_rows as usize {
        for col in 0..v.files as usize {
            let c = &t[row * v.files as usize + col];
            let nums: Vec<String> = c.iter().map(|n| n.to_string()).collect();
            out.push_str(&format!("{row} {col} {}\n", nums.join(" ")));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_table_parses_and_is_a_distribution() {
        let t = parse_table(CLASSIC_TABLE).expect("table");
        let total: u32 = t[0].iter().sum();
        assert!(total > 20_000);
        for c in &t {
            assert_eq!(c.iter().sum::<u32>(), total, "every slot is filled in every setup");
        }
        let p = Prior::for_variant(&Variant::CLASSIC);
        let v = Variant::CLASSIC;
        for sq in v.squares().filter(|s| v.in_zone(Color::Blue, *s)) {
            let row = p.at(Color::Blue, sq, &v);
            let sum: f32 = row.iter().sum();
            assert!((sum - 1.0).abs() < 1e-3);
            assert!(row.iter().all(|&x| x > 0.0));
        }
        // Flags live on the back row: a1 (Red's back-left corner) beats a4 (front row).
        let back = p.at(Color::Red, Square::new(0, 0), &v)[Rank::Flag.index()];
        let front = p.at(Color::Red, Square::new(0, 3), &v)[Rank::Flag.index()];
        assert!(back > 10.0 * front);
        // Blue's back row is rank 10.
        let blue_back = p.at(Color::Blue, Square::new(9, 9), &v)[Rank::Flag.index()];
        assert!((blue_back - back).abs() < 0.05);
    }

    #[test]
    fn generic_priors_cover_the_army() {
        for name in [
            "compact",
            "duel",
            "duel-compact",
            "barrage",
            "custom:10x8:F=1,B=2,S=1,2=4,3=2,M=1",
        ] {
            let v = Variant::parse(name).unwrap();
            let p = Prior::for_variant(&v);
            for sq in v.squares().filter(|s| v.in_zone(Color::Red, *s)) {
                let row = p.at(Color::Red, sq, &v);
                for r in Rank::ALL {
                    assert_eq!(row[r.index()] > 0.0, v.army[r.index()] > 0, "{name} {sq} {r:?}");
                }
                assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-3);
            }
        }
    }
}
