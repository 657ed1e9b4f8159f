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
//! Classic also has a mixture of setup styles (`prior_classic_mix.txt`, learnt from the
//! same training lines by expectation-maximisation: `MIX_STYLES` styles, in each the
//! ranks of the slots independent). What the game has shown of the enemy's setup (the
//! ranks seen at their start squares, the pieces that moved and so are no Bomb or Flag)
//! weighs each style by how well it explains it, and the piece's prior is the weighted
//! mix of the styles' tables at its square ([`Mixture`]): Bombs met on one side make
//! the Flag and the other Bombs likelier there. Regenerate it with
//!
//! ```text
//! cargo run --release --example belief_prior -- --mixture > src/belief/prior_classic_mix.txt
//! ```
//!
//! Within a style the slots are independent, so a piece of known rank says little of the
//! pieces that started next to it; people's setups say more (the Spy by the General, tip
//! T6; Bombs by the Flag, T1; seldom two pieces of one rank side by side). Classic has a
//! pair table (`prior_classic_pairs.txt`, the same training lines): for a piece of each
//! known rank, how much likelier each rank is on its neighbours than the styles say. The
//! tracker multiplies it in ([`Prior::pair`]). Regenerate it with
//!
//! ```text
//! cargo run --release --example belief_prior -- --pairs > src/belief/prior_classic_pairs.txt
//! ```
//!
//! Every other variant (compact, duel, barrage, custom armies) counts the setups of our
//! own generator (`crate::setup`, which follows the tips and the human tables), drawn with
//! a fixed seed the first time the variant is used, and mixes in the army's rank shares so
//! that an opponent who deploys differently is not ruled out.

use crate::rules::piece::NUM_RANKS;
use crate::rules::{Color, Rank, Setup, Square, Variant, VariantKind};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::{Arc, Mutex, OnceLock};

/// The classic table: `row col` then counts in `Rank::ALL` order, one line per square.
const CLASSIC_TABLE: &str = include_str!("prior_classic.txt");
/// The classic mixture table: per style a `style <setups>` line, then one line per slot as in
/// `CLASSIC_TABLE` (expected counts, one decimal).
const CLASSIC_MIXTURE: &str = include_str!("prior_classic_mix.txt");
/// The classic pair table (`prior_classic_pairs.txt`): what a piece of known rank says of
/// the ranks of the pieces that started next to it, beyond what the styles say.
const CLASSIC_PAIRS: &str = include_str!("prior_classic_pairs.txt");
/// Setup styles in the classic mixture: on setups outside the training data (the held-out
/// lines not also among the training lines), 32 styles predict the unmoved pieces about as
/// well as on the training lines' own repeats, where more styles begin to recall
/// individual setups (`benches/HISTORY.md`).
pub const MIX_STYLES: usize = 32;
/// The power the facts' likelihoods are raised to when they weigh the styles: within a
/// style the slots are not independent, and a setup seldom is one style, so full weight
/// makes the mix too sure once many pieces are known. Replayed over 60 games against
/// Demon of Ignorance and 71 against four UCC 2012 AIs (`marshal calibrate --records`),
/// the full belief's log-loss was 1.8418 and 1.7907 with one style, 1.8273 and 1.8049 at
/// power 1, 1.8074 and 1.7707 at 0.5, 1.8122 and 1.7663 at 0.3.
const MIX_TEMPER: f64 = 0.5;
/// Weight of "no change" in each entry of the pair table, in neighbours (of about 3,000
/// to 90,000 per known rank).
const PAIR_SMOOTHING: f64 = 20.0;
/// Expectation-maximisation rounds that learn the mixture.
const MIX_ROUNDS: usize = 40;
/// Weight of the army's rank shares in one style's table, in setups.
const MIX_SMOOTHING: f64 = 20.0;
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
    /// Setup styles (classic only).
    mix: Option<Mixture>,
    /// Pair factors by the known rank, then the neighbour's rank (classic only).
    pairs: Option<[[f32; NUM_RANKS]; NUM_RANKS]>,
}

/// One style's weight in setups and its expected rank counts per slot.
type StyleCounts = (f64, Vec<[f64; NUM_RANKS]>);

/// Setup styles: a share and a rank table per slot for each (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Mixture {
    /// Log share of each style.
    log_share: Vec<f64>,
    /// P(rank | slot, style), by style then slot (`row * files + col`).
    p: Vec<Vec<[f32; NUM_RANKS]>>,
}

impl Mixture {
    fn from_counts(v: &Variant, styles: &[StyleCounts]) -> Mixture {
        let size = v.army_size().max(1) as f64;
        let total: f64 = styles.iter().map(|(n, _)| n).sum::<f64>().max(1e-9);
        let p = styles
            .iter()
            .map(|(n, counts)| {
                counts
                    .iter()
                    .map(|c| {
                        let mut row = [0f32; NUM_RANKS];
                        for r in Rank::ALL {
                            let k = r.index();
                            let a = v.army[k] as f64 / size;
                            row[k] = ((c[k] + MIX_SMOOTHING * a) / (n + MIX_SMOOTHING)) as f32;
                        }
                        row
                    })
                    .collect()
            })
            .collect();
        Mixture {
            log_share: styles.iter().map(|(n, _)| (n.max(1e-3) / total).ln()).collect(),
            p,
        }
    }

    /// Number of styles.
    pub fn styles(&self) -> usize {
        self.p.len()
    }

    /// The log-chance under style `k` that slot `slot` holds one of the ranks of `mask`.
    pub fn term(&self, k: usize, slot: usize, mask: u16) -> f64 {
        let row = &self.p[k][slot];
        let mut s = 0f64;
        for r in Rank::ALL {
            if mask & (1 << r.index()) != 0 {
                s += row[r.index()] as f64;
            }
        }
        s.max(1e-12).ln()
    }

    /// What one fact adds to style `k`'s log-weight: `term` tempered by `MIX_TEMPER`.
    pub fn fact(&self, k: usize, slot: usize, mask: u16) -> f64 {
        MIX_TEMPER * self.term(k, slot, mask)
    }

    /// Each style's log-weight (unnormalised) given `facts`: the slots whose rank is known
    /// to be one of a set.
    pub fn log_weights(&self, facts: &[(usize, u16)]) -> Vec<f64> {
        (0..self.styles())
            .map(|k| self.log_share[k] + facts.iter().map(|&(s, m)| self.fact(k, s, m)).sum::<f64>())
            .collect()
    }

    /// The prior of slot `slot` under log-weights `logw` (any scale).
    pub fn at(&self, logw: &[f64], slot: usize) -> [f32; NUM_RANKS] {
        let top = logw.iter().copied().fold(f64::MIN, f64::max);
        let mut out = [0f64; NUM_RANKS];
        let mut sum = 0f64;
        for (k, &lw) in logw.iter().enumerate() {
            let w = (lw - top).exp();
            sum += w;
            for (o, &x) in out.iter_mut().zip(&self.p[k][slot]) {
                *o += w * x as f64;
            }
        }
        out.map(|x| (x / sum.max(1e-300)) as f32)
    }
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
                let mut p = Prior::from_counts(v, &counts, CLASSIC_SMOOTHING);
                match parse_mixture(CLASSIC_MIXTURE) {
                    Ok(styles) => p.mix = Some(Mixture::from_counts(v, &styles)),
                    Err(e) => tracing::warn!("the classic mixture table does not parse ({e}); using one style"),
                }
                match parse_pairs(CLASSIC_PAIRS) {
                    Ok(t) => p.pairs = Some(t),
                    Err(e) => tracing::warn!("the classic pair table does not parse ({e}); no pair factors"),
                }
                return p;
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
            mix: None,
            pairs: None,
        }
    }

    /// How much likelier rank `k` is on a piece that started next to a piece of rank
    /// `known` than the styles say (1 where the variant has no pair table).
    pub fn pair(&self, known: Rank, k: usize) -> f32 {
        self.pairs.as_ref().map_or(1.0, |t| t[known.index()][k])
    }

    /// Whether the variant has a pair table.
    pub fn has_pairs(&self) -> bool {
        self.pairs.is_some()
    }

    /// The setup styles, where the variant has them.
    pub fn mixture(&self) -> Option<&Mixture> {
        self.mix.as_ref()
    }

    /// The slot index (`row * files + col`) of the piece of `color` that started on `sq`.
    pub fn slot_index(&self, color: Color, sq: Square, v: &Variant) -> Option<usize> {
        match slot(v, color, sq) {
            Some((row, col)) if row < self.rows && col < self.files => {
                Some(row as usize * self.files as usize + col as usize)
            }
            _ => None,
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

/// The lines of a table's text form that hold data (not empty, not `#` comments).
fn table_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// The numbers of a slot line of a table: `row col` and one per rank.
fn slot_numbers<T: std::str::FromStr>(line: &str) -> Result<Vec<T>, String> {
    let nums: Vec<T> = line
        .split_whitespace()
        .map(|x| x.parse().map_err(|_| format!("bad number '{x}' in '{line}'")))
        .collect::<Result<_, _>>()?;
    if nums.len() != 2 + NUM_RANKS {
        return Err(format!("line '{line}' does not have {} numbers", 2 + NUM_RANKS));
    }
    Ok(nums)
}

/// Reads the text form of a classic count table (see `table_text`).
fn parse_table(text: &str) -> Result<Vec<[u32; NUM_RANKS]>, String> {
    let v = Variant::CLASSIC;
    let mut t = vec![[0u32; NUM_RANKS]; v.zone_size()];
    let mut seen = vec![false; t.len()];
    for line in table_lines(text) {
        let nums: Vec<u32> = slot_numbers(line)?;
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

/// Reads the text form of the classic mixture (see `mixture_text`): per style its weight
/// in setups and expected counts per slot.
fn parse_mixture(text: &str) -> Result<Vec<StyleCounts>, String> {
    let v = Variant::CLASSIC;
    let slots = v.zone_size();
    let mut styles: Vec<StyleCounts> = Vec::new();
    for line in table_lines(text) {
        if let Some(rest) = line.strip_prefix("style ") {
            let n: f64 = rest.trim().parse().map_err(|_| format!("bad style line '{line}'"))?;
            styles.push((n, Vec::with_capacity(slots)));
            continue;
        }
        let Some((_, rows)) = styles.last_mut() else {
            return Err(format!("line '{line}' before any style"));
        };
        let nums: Vec<f64> = slot_numbers(line)?;
        let i = nums[0] as usize * v.files as usize + nums[1] as usize;
        if i != rows.len() || nums[0] as u8 >= v.setup_rows || nums[1] as u8 >= v.files {
            return Err(format!("line '{line}' is out of order"));
        }
        let mut c = [0f64; NUM_RANKS];
        c.copy_from_slice(&nums[2..]);
        rows.push(c);
    }
    if styles.is_empty() || styles.iter().any(|(_, r)| r.len() != slots) {
        return Err("a style misses slots".into());
    }
    Ok(styles)
}

/// The classic mixture (the contents of `prior_classic_mix.txt`) learnt from the training
/// lines of a Gravon classic setup file by expectation-maximisation over `MIX_STYLES`
/// styles (seeded: the same file gives the same table).
pub fn mixture_text(gravon_file: &str) -> Result<String, String> {
    let v = Variant::CLASSIC;
    let slots = v.zone_size();
    let cols = v.files as usize;
    let mut setups: Vec<Vec<usize>> = Vec::new();
    for (i, line) in gravon_file.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        if held_out(i) {
            continue;
        }
        let s = crate::formats::gravon::parse_gravon(line, &v).map_err(|e| format!("line {}: {e}", i + 1))?;
        let mut ranks = vec![0usize; slots];
        for (j, r) in ranks.iter_mut().enumerate() {
            *r = s.at(j / cols, j % cols).map_or(0, |r| r.index());
        }
        setups.push(ranks);
    }
    let k_n = MIX_STYLES;
    let n = setups.len();
    // Start from random responsibilities (seeded), then alternate.
    let mut rng = StdRng::seed_from_u64(0x57_11e5);
    let mut resp: Vec<Vec<f64>> = (0..n)
        .map(|_| {
            let mut r: Vec<f64> = (0..k_n).map(|_| rng.gen::<f64>() + 0.05).collect();
            let s: f64 = r.iter().sum();
            r.iter_mut().for_each(|x| *x /= s);
            r
        })
        .collect();
    let mut styles: Vec<StyleCounts> = Vec::new();
    for round in 0..=MIX_ROUNDS {
        styles = (0..k_n).map(|_| (0.0, vec![[0f64; NUM_RANKS]; slots])).collect();
        for (s, r) in setups.iter().zip(&resp) {
            for (k, &w) in r.iter().enumerate() {
                styles[k].0 += w;
                for (slot, &rank) in s.iter().enumerate() {
                    styles[k].1[slot][rank] += w;
                }
            }
        }
        if round == MIX_ROUNDS {
            break;
        }
        let mix = Mixture::from_counts(&v, &styles);
        let logp: Vec<Vec<Vec<f64>>> = mix
            .p
            .iter()
            .map(|t| {
                t.iter()
                    .map(|row| row.iter().map(|&x| (x as f64).max(1e-12).ln()).collect())
                    .collect()
            })
            .collect();
        for (s, r) in setups.iter().zip(resp.iter_mut()) {
            let mut l: Vec<f64> = (0..k_n)
                .map(|k| {
                    mix.log_share[k]
                        + s.iter()
                            .enumerate()
                            .map(|(slot, &rank)| logp[k][slot][rank])
                            .sum::<f64>()
                })
                .collect();
            let top = l.iter().copied().fold(f64::MIN, f64::max);
            l.iter_mut().for_each(|x| *x = (*x - top).exp());
            let sum: f64 = l.iter().sum();
            for (x, y) in r.iter_mut().zip(&l) {
                *x = y / sum;
            }
        }
    }
    let mut out = String::new();
    out.push_str("# Setup styles of the human classic setups (Gravon) that the belief prior mixes:\n");
    out.push_str("# the training lines of data/classic-human-setups.txt(.gz), as for prior_classic.txt.\n");
    out.push_str(
        "# Regenerate: cargo run --release --example belief_prior -- --mixture > src/belief/prior_classic_mix.txt\n",
    );
    out.push_str(&format!("# setups {n}, styles {k_n}, rounds {MIX_ROUNDS}\n"));
    out.push_str(
        "# per style: 'style <setups>', then row (0 = back) col, expected counts of F S 2 3 4 5 6 7 8 9 M B\n",
    );
    for (w, rows) in &styles {
        out.push_str(&format!("style {w:.1}\n"));
        for (slot, c) in rows.iter().enumerate() {
            let nums: Vec<String> = c.iter().map(|x| format!("{x:.1}")).collect();
            out.push_str(&format!("{} {} {}\n", slot / cols, slot % cols, nums.join(" ")));
        }
    }
    Ok(out)
}

/// Parses the pair table: one line per known rank, its character then the factors of
/// the neighbour's ranks, in `Rank::ALL` order.
fn parse_pairs(text: &str) -> Result<[[f32; NUM_RANKS]; NUM_RANKS], String> {
    let mut t = [[1f32; NUM_RANKS]; NUM_RANKS];
    let mut seen = 0;
    for line in table_lines(text) {
        let mut w = line.split_whitespace();
        let name = w.next().unwrap_or_default();
        let mut chars = name.chars();
        let r = match (chars.next().and_then(Rank::from_char), chars.next()) {
            (Some(r), None) => r.index(),
            _ => return Err(format!("unknown rank {name:?}")),
        };
        let nums: Vec<f32> = w
            .map(|x| x.parse::<f32>().map_err(|e| format!("{x:?}: {e}")))
            .collect::<Result<_, _>>()?;
        if nums.len() != NUM_RANKS || nums.iter().any(|&x| !(x > 0.0 && x.is_finite())) {
            return Err(format!("rank {name}: expected {NUM_RANKS} positive factors"));
        }
        t[r].copy_from_slice(&nums);
        seen += 1;
    }
    if seen != NUM_RANKS {
        return Err(format!("expected {NUM_RANKS} rows, found {seen}"));
    }
    Ok(t)
}

/// The classic pair table (the contents of `prior_classic_pairs.txt`) learnt from the
/// training lines of a Gravon classic setup file against the shipped mixture: for every
/// piece of every line taken as known (rank `r`), each piece that started next to it
/// adds its rank to the count of `r`'s row and the mixture's prediction for its slot,
/// given the known piece alone, to the expected count; the factor is their ratio.
pub fn pairs_text(gravon_file: &str) -> Result<String, String> {
    let v = Variant::CLASSIC;
    let mix = Mixture::from_counts(&v, &parse_mixture(CLASSIC_MIXTURE)?);
    let cols = v.files as usize;
    let rows = v.setup_rows as usize;
    let mut seen = [[0f64; NUM_RANKS]; NUM_RANKS];
    let mut expected = [[0f64; NUM_RANKS]; NUM_RANKS];
    let mut n = 0;
    for (i, line) in gravon_file.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        if held_out(i) {
            continue;
        }
        let s = crate::formats::gravon::parse_gravon(line, &v).map_err(|e| format!("line {}: {e}", i + 1))?;
        let rank = |slot: usize| s.at(slot / cols, slot % cols).map_or(0, |r| r.index());
        n += 1;
        for slot in 0..rows * cols {
            let r = rank(slot);
            let lw = mix.log_weights(&[(slot, 1 << r)]);
            for j in slot_neighbours(slot, rows, cols) {
                seen[r][rank(j)] += 1.0;
                for (e, p) in expected[r].iter_mut().zip(mix.at(&lw, j)) {
                    *e += p as f64;
                }
            }
        }
    }
    let mut out = String::new();
    out.push_str("# Pair factors of the human classic setups (Gravon): how much likelier each rank is\n");
    out.push_str("# on a piece that started next to a piece of known rank than the setup styles say,\n");
    out.push_str("# learnt from the training lines of data/classic-human-setups.txt(.gz).\n");
    out.push_str(
        "# Regenerate: cargo run --release --example belief_prior -- --pairs > src/belief/prior_classic_pairs.txt\n",
    );
    out.push_str(&format!("# setups {n}, smoothing {PAIR_SMOOTHING}\n"));
    out.push_str("# known rank, then the factors of the neighbour's F S 2 3 4 5 6 7 8 9 M B\n");
    for r in Rank::ALL {
        let k = r.index();
        let nums: Vec<String> = (0..NUM_RANKS)
            .map(|j| {
                format!(
                    "{:.3}",
                    (seen[k][j] + PAIR_SMOOTHING) / (expected[k][j] + PAIR_SMOOTHING)
                )
            })
            .collect();
        out.push_str(&format!("{} {}\n", r.to_char(), nums.join(" ")));
    }
    Ok(out)
}

/// The slots next to `slot` in a zone of `rows` by `cols` slots.
fn slot_neighbours(slot: usize, rows: usize, cols: usize) -> impl Iterator<Item = usize> {
    let (row, col) = (slot / cols, slot % cols);
    [
        (row > 0).then(|| slot - cols),
        (row + 1 < rows).then(|| slot + cols),
        (col > 0).then(|| slot - 1),
        (col + 1 < cols).then(|| slot + 1),
    ]
    .into_iter()
    .flatten()
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
    /// The held-out lines of the human classic setups that are not also training lines, in
    /// order: (line index, setup).
    fn held_out_setups() -> impl Iterator<Item = (usize, Setup)> {
        let text = crate::data::classic_human_setups();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let training: std::collections::HashSet<&str> = lines
            .iter()
            .enumerate()
            .filter(|(i, _)| !held_out(*i))
            .map(|(_, l)| *l)
            .collect();
        let v = Variant::CLASSIC;
        let kept: Vec<(usize, &str)> = lines
            .iter()
            .enumerate()
            .filter(|(i, l)| held_out(*i) && !training.contains(*l))
            .map(|(i, l)| (i, *l))
            .collect();
        kept.into_iter()
            .map(move |(i, l)| (i, crate::formats::gravon::parse_gravon(l, &v).unwrap()))
    }

    /// Log-loss of the true ranks of the pieces next to one known piece of held-out human
    /// setups (every fifth slot taken as known in turn), from the styles given that piece,
    /// with and without its pair factors. The pairs must help, and say what the tips say:
    /// the Spy stands by the General (T6), the Bombs by the Flag (T1).
    #[test]
    fn pairs_predict_the_neighbours_of_a_known_piece() {
        let v = Variant::CLASSIC;
        let p = Prior::for_variant(&v);
        let mix = p.mixture().expect("classic has styles");
        assert!(p.has_pairs());
        assert!(p.pair(Rank::General, Rank::Spy.index()) > 2.0);
        assert!(p.pair(Rank::Flag, Rank::Bomb.index()) > 1.3);
        let cols = v.files as usize;
        let rows = v.setup_rows as usize;
        let (mut styled, mut paired, mut n) = (0f64, 0f64, 0usize);
        for (i, s) in held_out_setups() {
            let rank = |slot: usize| s.at(slot / cols, slot % cols).unwrap();
            for known in (i / 10 % 5..rows * cols).step_by(5) {
                let r = rank(known);
                let w = mix.log_weights(&[(known, 1 << r.index())]);
                for j in slot_neighbours(known, rows, cols) {
                    let at = mix.at(&w, j);
                    let t = rank(j).index();
                    let f: Vec<f64> = (0..NUM_RANKS).map(|k| at[k] as f64 * p.pair(r, k) as f64).collect();
                    styled -= (at[t] as f64).ln();
                    paired -= (f[t] / f.iter().sum::<f64>()).ln();
                    n += 1;
                }
            }
            if n > 20_000 {
                break;
            }
        }
        let (styled, paired) = (styled / n as f64, paired / n as f64);
        assert!(
            paired < styled - 0.02,
            "pairs {paired:.4} against styles {styled:.4} over {n} neighbours"
        );
    }

    /// Log-loss of the true ranks of the back two rows of held-out human setups, given the
    /// front two rows: their movable pieces known to have moved, every other one of them
    /// seen. The styles must beat the one table.
    #[test]
    fn styles_predict_held_out_setups_better_than_one_table() {
        let v = Variant::CLASSIC;
        let p = Prior::for_variant(&v);
        let mix = p.mixture().expect("classic has styles");
        assert_eq!(mix.styles(), MIX_STYLES);
        let cols = v.files as usize;
        let (mut one, mut styled, mut n) = (0f64, 0f64, 0usize);
        for (_, s) in held_out_setups() {
            let rank = |slot: usize| s.at(slot / cols, slot % cols).unwrap();
            let mut facts = Vec::new();
            for slot in 2 * cols..4 * cols {
                let r = rank(slot);
                if r.is_movable() {
                    let mask = if slot % 2 == 0 {
                        1 << r.index()
                    } else {
                        crate::belief::MOVABLE
                    };
                    facts.push((slot, mask));
                }
            }
            let w = mix.log_weights(&facts);
            for slot in 0..2 * cols {
                let r = rank(slot).index();
                one -= (p.p[slot][r] as f64).ln();
                styled -= (mix.at(&w, slot)[r] as f64).ln();
                n += 1;
            }
            if n > 8_000 {
                break;
            }
        }
        let (one, styled) = (one / n as f64, styled / n as f64);
        assert!(
            styled < one - 0.01,
            "styles {styled:.4} against one table {one:.4} over {n} slots"
        );
    }

    /// On a file of two setups the styles learn both, and the pieces seen on one side of a
    /// setup tell which of the two it is.
    #[test]
    fn styles_tell_two_setups_apart() {
        let a = "DFIKFGDLFGDGHCDHIEDHBBEJDIJBEBGHDEDEBMBF";
        let b = "HDGDHDGDFHDJEIEDILDEFGCEJHBBIDKEBBFBMBFG";
        let file: String = (0..400)
            .map(|i| if i % 2 == 0 { a } else { b })
            .collect::<Vec<_>>()
            .join("\n");
        let styles = parse_mixture(&mixture_text(&file).unwrap()).unwrap();
        let v = Variant::CLASSIC;
        let mix = Mixture::from_counts(&v, &styles);
        let cols = v.files as usize;
        let (sa, sb) = (
            crate::formats::gravon::parse_gravon(a, &v).unwrap(),
            crate::formats::gravon::parse_gravon(b, &v).unwrap(),
        );
        // Seen: the front row of `a` (row 3).
        let facts: Vec<(usize, u16)> = (3 * cols..4 * cols)
            .map(|slot| (slot, 1u16 << sa.at(3, slot % cols).unwrap().index()))
            .collect();
        let w = mix.log_weights(&facts);
        let none = mix.log_weights(&[]);
        for slot in 0..3 * cols {
            let (ra, rb) = (
                sa.at(slot / cols, slot % cols).unwrap(),
                sb.at(slot / cols, slot % cols).unwrap(),
            );
            if ra == rb {
                continue;
            }
            let (given, before) = (mix.at(&w, slot), mix.at(&none, slot));
            assert!(
                given[ra.index()] > given[rb.index()],
                "slot {slot}: {ra:?} against {rb:?}"
            );
            assert!(
                given[ra.index()] > before[ra.index()],
                "slot {slot}: {ra:?} no likelier"
            );
        }
    }
}
