//! What one side knows and guesses of the other's ranks: for every hidden enemy piece a
//! distribution over ranks consistent with everything seen, and seeded sampling of
//! full-information positions (determinizations) from it.
//!
//! Two kinds of belief share one type. [`Belief::from_view`] knows only what the view
//! shows (the pool of hidden ranks, which pieces moved, how many were captured unseen):
//! every consistent assignment is equally likely. [`Tracker::belief`] adds what the
//! engine remembered over the game: each piece's start square (the setup prior of
//! `prior.rs`), ranks ruled out by combat outcomes that did not reveal the piece (silent
//! defence), and soft evidence from behaviour (`tracker.rs`).
//!
//! # Marginals
//! Each hidden piece `i` gets a weight `W[i][r]` per rank: prior times behaviour
//! likelihood, zero where a hard constraint rules the rank out (a moved piece is no Bomb
//! or Flag; a piece captured unseen was no Flag; a piece that survived or lost a silent
//! combat is consistent with its outcome) or no piece of that rank is left. The matrix is
//! scaled (Sinkhorn: alternately normalise the rows to 1 and the columns to the number
//! of hidden pieces of each rank) so that the probabilities of every piece sum to 1 and
//! the expected number of pieces of each rank equals the number hidden.
//!
//! # Sampling
//! Pieces are drawn one by one, most constrained first (moved pieces, then pieces
//! captured unseen, then the rest; random order within a group): piece `i` takes rank `r`
//! with probability proportional to `W[i][r]` times the rank's column factor per piece,
//! times the pieces of rank `r` still undrawn. The constraint sets are nested, so this
//! never fails when a consistent assignment exists; where combat outcomes make them
//! overlap otherwise, each draw is checked with Hall's condition first.

pub mod prior;
pub mod tracker;

pub use tracker::Tracker;

use crate::rules::piece::NUM_RANKS;
use crate::rules::position::MOVED;
use crate::rules::{Color, Position, PositionError, Rank, Square};
use rand::Rng;

/// A set of ranks, bit `Rank::index()`.
pub type RankMask = u16;
/// Every real rank.
pub const ALL_RANKS: RankMask = (1 << NUM_RANKS) - 1;
/// The ranks that can move (no Bomb, no Flag).
pub const MOVABLE: RankMask = ALL_RANKS & !(1 << Rank::Flag as u16) & !(1 << Rank::Bomb as u16);
/// The ranks a piece captured while the game goes on may have had.
pub const NOT_FLAG: RankMask = ALL_RANKS & !(1 << Rank::Flag as u16);

/// Most Sinkhorn iterations.
const MAX_SCALING: usize = 300;
/// Largest error of an expected rank count at which the scaling stops.
const SCALING_TOLERANCE: f64 = 1e-4;
/// Most distinct constraint sets whose overlaps are checked exactly while sampling.
const MAX_HALL_TYPES: usize = 10;

/// The hidden part of a player's view: which enemy pieces are unknown and which ranks
/// they may take, with per-piece weights when built by a [`Tracker`]. Built once per
/// view; sampling is cheap.
#[derive(Clone, Debug, PartialEq)]
pub struct Belief {
    /// The enemy.
    them: Color,
    /// Hidden enemy ranks still unaccounted for, by `Rank::index()`.
    pool: [u8; NUM_RANKS],
    /// Unknown enemy pieces on the board, in the order of the view's text form (top rank
    /// first, files left to right), with whether each has moved.
    unknown: Vec<(Square, bool)>,
    /// Enemy pieces captured without their rank being seen.
    captured_unknown: u8,
    /// Per-piece weights (`None`: every consistent assignment is equally likely).
    weights: Option<Box<Weights>>,
}

/// One hidden piece's constraint and weights.
#[derive(Clone, Debug, PartialEq)]
struct Row {
    /// The ranks it may have (hard constraints, and ranks still in the pool).
    mask: RankMask,
    /// Prior times evidence, zero outside `mask`.
    w: [f64; NUM_RANKS],
    /// Its probability of each rank (after scaling).
    marg: [f64; NUM_RANKS],
}

/// The scaled weights of every hidden piece.
#[derive(Clone, Debug, PartialEq)]
struct Weights {
    /// The unknown pieces on the board (in `unknown` order), then those captured unseen.
    rows: Vec<Row>,
    /// Per rank: the scaling's column factor divided by the pool count, so that a draw
    /// weighs `w * col * pieces of that rank left`.
    col: [f64; NUM_RANKS],
    /// Whether the masks are nested (then the greedy draw always succeeds).
    chain: bool,
}

/// One guess at the hidden ranks: one per unknown piece on the board (text order) and one
/// per enemy piece captured unseen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    /// Each unknown enemy square with its guessed rank.
    pub board: Vec<(Square, Rank)>,
    /// Guessed ranks of the enemy pieces captured unseen.
    pub captured: Vec<Rank>,
}

/// The ranks of `mask`.
fn ranks_of(mask: RankMask) -> impl Iterator<Item = Rank> {
    Rank::ALL.into_iter().filter(move |r| mask & (1 << r.index()) != 0)
}

/// The ranks with pieces left in `pool`.
fn in_pool(pool: &[u8; NUM_RANKS]) -> RankMask {
    Rank::ALL
        .iter()
        .filter(|r| pool[r.index()] > 0)
        .fold(0, |m, r| m | (1 << r.index()))
}

/// Sinkhorn scaling of `w` (rows: pieces, columns: ranks) towards row sums 1 and column
/// sums `pool` (rescaled to the number of rows). Returns each row's probabilities and the
/// column factors.
fn scale(w: &[[f64; NUM_RANKS]], pool: &[u8; NUM_RANKS]) -> (Vec<[f64; NUM_RANKS]>, [f64; NUM_RANKS]) {
    let n = w.len();
    let total: f64 = pool.iter().map(|&p| p as f64).sum();
    let mut target = [0f64; NUM_RANKS];
    let mut c = [0f64; NUM_RANKS];
    for k in 0..NUM_RANKS {
        if total > 0.0 && pool[k] > 0 {
            target[k] = pool[k] as f64 * n as f64 / total;
            c[k] = 1.0;
        }
    }
    let mut a = vec![0f64; n];
    for _ in 0..MAX_SCALING {
        for (ai, wi) in a.iter_mut().zip(w) {
            let s: f64 = wi.iter().zip(&c).map(|(x, y)| x * y).sum();
            *ai = if s > 0.0 { 1.0 / s } else { 0.0 };
        }
        let mut colsum = [0f64; NUM_RANKS];
        for (ai, wi) in a.iter().zip(w) {
            for k in 0..NUM_RANKS {
                colsum[k] += ai * wi[k];
            }
        }
        let mut err = 0f64;
        for k in 0..NUM_RANKS {
            if colsum[k] > 0.0 && target[k] > 0.0 {
                err = err.max((colsum[k] * c[k] - target[k]).abs());
                c[k] = target[k] / colsum[k];
            } else {
                c[k] = 0.0;
            }
        }
        if err < SCALING_TOLERANCE {
            break;
        }
    }
    let marg = w
        .iter()
        .map(|wi| {
            let mut m = [0f64; NUM_RANKS];
            let mut s = 0.0;
            for k in 0..NUM_RANKS {
                m[k] = wi[k] * c[k];
                s += m[k];
            }
            if s > 0.0 {
                m.iter_mut().for_each(|x| *x /= s);
            }
            m
        })
        .collect();
    (marg, c)
}

/// Do the masks form a chain under inclusion?
fn is_chain(masks: impl Iterator<Item = RankMask>) -> bool {
    let mut distinct: Vec<RankMask> = Vec::new();
    for m in masks {
        if !distinct.contains(&m) {
            distinct.push(m);
        }
    }
    distinct
        .iter()
        .all(|&a| distinct.iter().all(|&b| a & b == a || a & b == b))
}

/// Hall's condition: can the pieces, `types[j].1` of them restricted to `types[j].0`,
/// all get distinct ranks from `pool`? Only unions of the types' masks need checking.
fn feasible(types: &[(RankMask, u32)], pool: &[u8; NUM_RANKS]) -> bool {
    let t = types.len();
    for subset in 1u32..(1 << t) {
        let union = (0..t).filter(|j| subset & (1 << j) != 0).fold(0, |u, j| u | types[j].0);
        let need: u32 = types.iter().filter(|(m, _)| m & !union == 0).map(|(_, n)| n).sum();
        let have: u32 = ranks_of(union).map(|r| pool[r.index()] as u32).sum();
        if need > have {
            return false;
        }
    }
    true
}

impl Belief {
    /// Reads the hidden information of `view` (the searcher is the view's owner; a full
    /// position has nothing hidden).
    pub fn from_view(view: &Position) -> Belief {
        let us = view.view_of().unwrap_or(view.side_to_move());
        let them = us.flip();
        let v = *view.variant();
        let mut pool = v.army;
        for r in Rank::ALL {
            let known = view.count(them, r) as usize + view.captured(them, r) as usize;
            pool[r.index()] = (pool[r.index()] as usize).saturating_sub(known) as u8;
        }
        let mut unknown = Vec::new();
        for rank in (0..v.ranks).rev() {
            for file in 0..v.files {
                let sq = Square::new(file, rank);
                if let Some(p) = view.piece_at(sq) {
                    if p.color() == them && p.rank() == Rank::Unknown {
                        unknown.push((sq, view.flags_at(sq) & MOVED != 0));
                    }
                }
            }
        }
        Belief {
            them,
            pool,
            unknown,
            captured_unknown: view.captured(them, Rank::Unknown),
            weights: None,
        }
    }

    /// Whether any enemy rank is hidden (otherwise one determinization is the truth).
    pub fn has_hidden(&self) -> bool {
        !self.unknown.is_empty() || self.captured_unknown > 0
    }

    /// The hidden ranks still unaccounted for, by `Rank::index()`.
    pub fn pool(&self) -> &[u8; NUM_RANKS] {
        &self.pool
    }

    /// The unknown enemy squares (text order: top rank first, files left to right).
    pub fn unknown_squares(&self) -> impl Iterator<Item = Square> + '_ {
        self.unknown.iter().map(|&(sq, _)| sq)
    }

    /// Enemy pieces captured without their rank being seen.
    pub fn captured_unknown(&self) -> usize {
        self.captured_unknown as usize
    }

    /// Whether this belief has per-piece weights (built by a tracker).
    pub fn is_weighted(&self) -> bool {
        self.weights.is_some()
    }

    /// The ranks each hidden piece may have by the view alone: the unknown pieces on the
    /// board (moved ones are movable), then the pieces captured unseen (no Flag).
    fn base_masks(&self) -> impl Iterator<Item = RankMask> + '_ {
        let avail = in_pool(&self.pool);
        let board = self
            .unknown
            .iter()
            .map(move |&(_, moved)| avail & if moved { MOVABLE } else { ALL_RANKS });
        board.chain(std::iter::repeat_n(avail & NOT_FLAG, self.captured_unknown as usize))
    }

    /// Adds per-piece knowledge: for each hidden piece in the order of `base_masks`, the
    /// ranks it may have and its unnormalised weight per rank. A piece whose constraint
    /// leaves nothing of the view's own keeps the view's (a contradicting `reveal` wins).
    pub(crate) fn set_rows(&mut self, rows: Vec<(RankMask, [f64; NUM_RANKS])>) {
        let base: Vec<RankMask> = self.base_masks().collect();
        if rows.len() != base.len() {
            tracing::warn!("belief rows ({}) do not match the view ({})", rows.len(), base.len());
            return;
        }
        let mut out: Vec<Row> = Vec::with_capacity(rows.len());
        for ((mask, w), b) in rows.into_iter().zip(base) {
            let mut m = mask & b;
            if m == 0 {
                m = b;
            }
            let mut wi = [0f64; NUM_RANKS];
            for r in ranks_of(m) {
                let x = w[r.index()];
                wi[r.index()] = if x.is_finite() && x > 1e-300 { x } else { 1e-300 };
            }
            out.push(Row {
                mask: m,
                w: wi,
                marg: [0.0; NUM_RANKS],
            });
        }
        let ws: Vec<[f64; NUM_RANKS]> = out.iter().map(|r| r.w).collect();
        let (marg, c) = scale(&ws, &self.pool);
        let mut col = [0f64; NUM_RANKS];
        for k in 0..NUM_RANKS {
            if self.pool[k] > 0 {
                col[k] = c[k] / self.pool[k] as f64;
            }
        }
        for (row, m) in out.iter_mut().zip(marg) {
            row.marg = m;
        }
        let chain = is_chain(out.iter().map(|r| r.mask));
        self.weights = Some(Box::new(Weights { rows: out, col, chain }));
    }

    /// The probability of each rank for every hidden enemy piece: the unknown pieces on
    /// the board with their squares (text order), then the pieces captured unseen (`None`).
    /// Each piece's probabilities sum to 1; summed over the pieces they give the hidden
    /// count of every rank.
    pub fn marginals(&self) -> Vec<(Option<Square>, [f64; NUM_RANKS])> {
        let probs: Vec<[f64; NUM_RANKS]> = match &self.weights {
            Some(w) => w.rows.iter().map(|r| r.marg).collect(),
            None => {
                let ws: Vec<[f64; NUM_RANKS]> = self
                    .base_masks()
                    .map(|m| {
                        let mut w = [0f64; NUM_RANKS];
                        for r in ranks_of(m) {
                            w[r.index()] = 1.0;
                        }
                        w
                    })
                    .collect();
                scale(&ws, &self.pool).0
            }
        };
        let squares = self
            .unknown
            .iter()
            .map(|&(sq, _)| Some(sq))
            .chain(std::iter::repeat(None));
        squares.zip(probs).collect()
    }

    /// Draws an assignment: with per-piece weights as described in the module docs;
    /// without, uniformly piece by piece: moved pieces first (from the movable ranks),
    /// then the pieces captured unseen (anything but a Flag, which would have ended the
    /// game), then the unmoved pieces (anything left). The constraint sets are nested, so
    /// this greedy order succeeds whenever any consistent assignment exists; `None` when
    /// none does (a contradictory view).
    pub fn sample<R: Rng>(&self, rng: &mut R) -> Option<Assignment> {
        if let Some(w) = &self.weights {
            let tries = if w.chain { 1 } else { 4 };
            for _ in 0..tries {
                if let Some(a) = self.sample_weighted(w, rng) {
                    return Some(a);
                }
            }
        }
        self.sample_uniform(rng)
    }

    fn sample_weighted<R: Rng>(&self, w: &Weights, rng: &mut R) -> Option<Assignment> {
        let n = w.rows.len();
        let mut order: Vec<(u32, u32, usize)> = w
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| (r.mask.count_ones(), rng.gen::<u32>(), i))
            .collect();
        order.sort_unstable();
        let mut pool = self.pool;
        // Pieces left per distinct constraint, for Hall's condition when masks overlap.
        let mut types: Vec<(RankMask, u32)> = Vec::new();
        let check = !w.chain;
        if check {
            for r in &w.rows {
                match types.iter_mut().find(|t| t.0 == r.mask) {
                    Some(t) => t.1 += 1,
                    None => types.push((r.mask, 1)),
                }
            }
        }
        let exact = check && types.len() <= MAX_HALL_TYPES;
        let mut got = vec![Rank::Unknown; n];
        for &(_, _, i) in &order {
            let row = &w.rows[i];
            let ti = if check {
                types.iter().position(|t| t.0 == row.mask)
            } else {
                None
            };
            let mut weight = [0f64; NUM_RANKS];
            let mut total = 0.0;
            for r in ranks_of(row.mask) {
                let k = r.index();
                if pool[k] == 0 {
                    continue;
                }
                if exact {
                    if let Some(ti) = ti {
                        types[ti].1 -= 1;
                        pool[k] -= 1;
                        let ok = feasible(&types, &pool);
                        pool[k] += 1;
                        types[ti].1 += 1;
                        if !ok {
                            continue;
                        }
                    }
                }
                let x = (row.w[k] * w.col[k]).max(1e-300) * pool[k] as f64;
                weight[k] = x;
                total += x;
            }
            if total <= 0.0 || !total.is_finite() {
                return None;
            }
            let mut u = rng.gen::<f64>() * total;
            let mut pick = None;
            for (k, &x) in weight.iter().enumerate() {
                if x > 0.0 {
                    pick = Some(k);
                    if u < x {
                        break;
                    }
                    u -= x;
                }
            }
            let k = pick?;
            pool[k] -= 1;
            if let Some(ti) = ti {
                types[ti].1 -= 1;
            }
            got[i] = Rank::ALL[k];
        }
        let board = self.unknown.iter().zip(&got).map(|(&(sq, _), &r)| (sq, r)).collect();
        let captured = got[self.unknown.len()..].to_vec();
        Some(Assignment { board, captured })
    }

    fn sample_uniform<R: Rng>(&self, rng: &mut R) -> Option<Assignment> {
        let mut pool = self.pool;
        let mut draw = |ok: &dyn Fn(Rank) -> bool, rng: &mut R| -> Option<Rank> {
            let total: u32 = Rank::ALL
                .iter()
                .filter(|r| ok(**r))
                .map(|r| pool[r.index()] as u32)
                .sum();
            if total == 0 {
                return None;
            }
            let mut k = rng.gen_range(0..total);
            for r in Rank::ALL {
                if !ok(r) {
                    continue;
                }
                let n = pool[r.index()] as u32;
                if k < n {
                    pool[r.index()] -= 1;
                    return Some(r);
                }
                k -= n;
            }
            None
        };
        let mut board = vec![(Square(0), Rank::Unknown); self.unknown.len()];
        for (i, &(sq, moved)) in self.unknown.iter().enumerate() {
            if moved {
                board[i] = (sq, draw(&|r: Rank| r.is_movable(), rng)?);
            }
        }
        let mut captured = Vec::with_capacity(self.captured_unknown as usize);
        for _ in 0..self.captured_unknown {
            captured.push(draw(&|r: Rank| r != Rank::Flag, rng)?);
        }
        for (i, &(sq, moved)) in self.unknown.iter().enumerate() {
            if !moved {
                board[i] = (sq, draw(&|_| true, rng)?);
            }
        }
        Some(Assignment { board, captured })
    }

    /// The full-information position (`view_of` = `None`) that `view` becomes when the
    /// hidden ranks are those of `a` (built through the text form, which keeps flags,
    /// counters, trails and the recent moves the repetition rules look back on).
    pub fn determinize(&self, view: &Position, a: &Assignment) -> Result<Position, PositionError> {
        let text = view.to_text();
        let mut fields: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        if fields.len() != 11 {
            return Err(PositionError(format!("unexpected position text '{text}'")));
        }
        fields[1] = "full".to_string();
        let mut ranks = a.board.iter().map(|&(_, r)| r);
        let mut board = String::with_capacity(fields[2].len());
        for ch in fields[2].chars() {
            if ch == '?' {
                let r = ranks
                    .next()
                    .ok_or_else(|| PositionError("more unknown pieces than guesses".into()))?;
                board.push(r.to_char());
            } else {
                board.push(ch);
            }
        }
        fields[2] = board;
        let (red, blue) = fields[6]
            .split_once('/')
            .ok_or_else(|| PositionError(format!("bad captured field '{}'", fields[6])))?;
        let mut caps = [red.to_string(), blue.to_string()];
        let mut guesses = a.captured.iter();
        let mut out = String::new();
        for ch in caps[self.them.index()].chars() {
            if ch == '?' {
                let r = guesses
                    .next()
                    .ok_or_else(|| PositionError("more unseen captures than guesses".into()))?;
                out.push(r.to_char());
                out.push('\'');
            } else {
                out.push(ch);
            }
        }
        caps[self.them.index()] = out;
        fields[6] = format!("{}/{}", caps[0], caps[1]);
        Position::from_text(&fields.join(" "), *view.rules())
    }

    /// Samples and builds one determinization; `None` if the view is contradictory.
    pub fn sample_position<R: Rng>(&self, view: &Position, rng: &mut R) -> Option<Position> {
        if view.view_of().is_none() {
            return Some(view.clone());
        }
        let a = self.sample(rng)?;
        self.determinize(view, &a).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::tracker::Evidence;
    use super::*;
    use crate::rules::{Rules, Setup, Variant};
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    /// Positions from seeded random games of `variant`, as the arbiter sees them.
    fn random_positions(name: &str, games: usize, seed: u64) -> Vec<Position> {
        let v = Variant::parse(name).unwrap();
        let (r, b) = v.sample_setups();
        let mut rng = StdRng::seed_from_u64(seed);
        let mut out = Vec::new();
        for _ in 0..games {
            let red = Setup::parse(&r, &v).unwrap();
            let blue = Setup::parse(&b, &v).unwrap();
            let mut pos = Position::from_setups(v, Rules::default(), &red, &blue).unwrap();
            let plies = rng.gen_range(0..200);
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.game_end().is_some() {
                    break;
                }
                pos.make(moves[rng.gen_range(0..moves.len())]);
            }
            if pos.game_end().is_none() {
                out.push(pos);
            }
        }
        out
    }

    /// Draws an assignment for `view` and checks that it becomes a world (`what` names the
    /// view in the panic).
    fn assert_determinizes(what: &str, view: &Position, rng: &mut StdRng) {
        let belief = Belief::from_view(view);
        let a = belief.sample(rng).expect("an assignment");
        if let Err(e) = belief.determinize(view, &a) {
            panic!("{what}: {e}\n{}", view.to_text());
        }
    }

    /// Every player's view of seeded random games, before every ply, becomes a world under
    /// each set of repetition rules (the UCC manager's has none): a view that cannot be
    /// determinized leaves the search no world to search.
    #[test]
    fn every_view_of_random_games_determinizes_under_every_rule_set() {
        let mut rng = StdRng::seed_from_u64(3);
        let rule_sets = [
            Rules::default(),
            Rules::ucc(),
            Rules {
                two_squares: None,
                ..Rules::default()
            },
            Rules {
                more_squares: false,
                ..Rules::default()
            },
            Rules {
                two_squares: Some(5),
                ..Rules::default()
            },
        ];
        for rules in rule_sets {
            for name in ["classic", "barrage"] {
                tracked_games(name, rules, 12, 9, 1, |truth, c, view, _| {
                    assert_determinizes(
                        &format!("{name} {rules:?} ply {} for {c:?}", truth.ply()),
                        view,
                        &mut rng,
                    );
                });
            }
        }
    }

    /// The same for games where each side mostly steps its last-moved piece back: long
    /// trails and repeated placements (no two-squares rule to cut them short).
    #[test]
    fn views_of_shuffling_games_determinize() {
        let mut rng = StdRng::seed_from_u64(4);
        for rules in [
            Rules::ucc(),
            Rules {
                two_squares: None,
                ..Rules::default()
            },
        ] {
            for name in ["classic", "barrage", "duel"] {
                let v = Variant::parse(name).unwrap();
                for _ in 0..12 {
                    let red = crate::setup::generate(&v, &mut rng);
                    let blue = crate::setup::generate(&v, &mut rng);
                    let mut pos = Position::from_setups(v, rules, &red, &blue).unwrap();
                    let mut last: [Option<crate::rules::Move>; 2] = [None, None];
                    for _ in 0..600 {
                        let moves = pos.legal_moves();
                        if moves.is_empty() || pos.game_end().is_some() {
                            break;
                        }
                        for c in Color::BOTH {
                            assert_determinizes(&format!("{name} ply {} for {c:?}", pos.ply()), &pos.view(c), &mut rng);
                        }
                        let us = pos.side_to_move().index();
                        let back = last[us]
                            .and_then(|m| moves.iter().copied().find(|x| x.from() == m.to() && x.to() == m.from()));
                        let mv = match back {
                            Some(b) if rng.gen_bool(0.8) => b,
                            _ => moves[rng.gen_range(0..moves.len())],
                        };
                        last[us] = Some(mv);
                        pos.make(mv);
                    }
                }
            }
        }
    }

    #[test]
    fn samples_agree_with_the_view() {
        let mut rng = StdRng::seed_from_u64(11);
        for name in ["classic", "compact", "duel", "duel-compact", "barrage"] {
            let v = Variant::parse(name).unwrap();
            for pos in random_positions(name, 12, 5) {
                let side = pos.side_to_move();
                let view = pos.view(side);
                let belief = Belief::from_view(&view);
                for _ in 0..5 {
                    let world = belief.sample_position(&view, &mut rng).expect("consistent view");
                    check_world(name, &pos, &view, &world);
                    assert_eq!(world.side_to_move(), side);
                    for r in Rank::ALL {
                        assert_eq!(world.count(side, r), pos.count(side, r));
                    }
                    for sq in v.squares() {
                        assert_eq!(world.flags_at(sq), view.flags_at(sq));
                    }
                }
            }
        }
    }

    /// Plays seeded random games of `variant` under `rules`, with both players' trackers
    /// following them; calls `check(full position, viewer, view, tracker)` before every
    /// `every`-th ply.
    fn tracked_games(
        name: &str,
        rules: Rules,
        games: usize,
        seed: u64,
        every: u32,
        mut check: impl FnMut(&Position, Color, &Position, &Tracker),
    ) {
        let v = Variant::parse(name).unwrap();
        let mut rng = StdRng::seed_from_u64(seed);
        for _ in 0..games {
            let red = crate::setup::generate(&v, &mut rng);
            let blue = crate::setup::generate(&v, &mut rng);
            let mut pos = Position::from_setups(v, rules, &red, &blue).unwrap();
            let mut trackers = [
                Tracker::new(&pos.view(Color::Red)),
                Tracker::new(&pos.view(Color::Blue)),
            ];
            let plies = rng.gen_range(20..300);
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.game_end().is_some() {
                    break;
                }
                let views = [pos.view(Color::Red), pos.view(Color::Blue)];
                if pos.ply().is_multiple_of(every) {
                    for c in Color::BOTH {
                        check(&pos, c, &views[c.index()], &trackers[c.index()]);
                    }
                }
                let mv = moves[rng.gen_range(0..moves.len())];
                let pending = [trackers[0].prepare(&views[0], mv), trackers[1].prepare(&views[1], mv)];
                pos.make(mv);
                for (c, p) in Color::BOTH.into_iter().zip(pending) {
                    trackers[c.index()].commit(p, &pos.view(c));
                }
            }
        }
    }

    /// Checks the marginals of `b` against the view and the truth: rows sum to 1, the
    /// expected count of every rank is the hidden count, ruled-out ranks get nothing, the
    /// true rank of every unknown piece keeps a positive probability.
    fn check_marginals(name: &str, truth: &Position, view: &Position, b: &Belief) {
        let m = b.marginals();
        assert_eq!(m.len(), b.unknown.len() + b.captured_unknown as usize);
        let mut cols = [0f64; NUM_RANKS];
        for (sq, p) in &m {
            let sum: f64 = p.iter().sum();
            assert!((sum - 1.0).abs() < 1e-9, "{name}: row sums to {sum}");
            for k in 0..NUM_RANKS {
                cols[k] += p[k];
                if b.pool[k] == 0 {
                    assert_eq!(p[k], 0.0, "{name}: rank {k} has none left");
                }
            }
            match sq {
                Some(sq) => {
                    if view.flags_at(*sq) & MOVED != 0 {
                        assert_eq!(p[Rank::Bomb.index()] + p[Rank::Flag.index()], 0.0, "{name}: moved");
                    }
                    let t = truth.piece_at(*sq).unwrap().rank();
                    assert!(p[t.index()] > 0.0, "{name}: the true rank {t:?} on {sq} is ruled out");
                }
                None => assert_eq!(p[Rank::Flag.index()], 0.0, "{name}: a captured Flag"),
            }
        }
        for (k, c) in cols.iter().enumerate() {
            assert!(
                (c - b.pool[k] as f64).abs() < 0.02,
                "{name}: rank {k}: {c} vs {}",
                b.pool[k]
            );
        }
    }

    /// Checks that `world` is a determinization of `view`.
    fn check_world(name: &str, truth: &Position, view: &Position, world: &Position) {
        let v = *view.variant();
        let side = view.view_of().unwrap();
        let them = side.flip();
        assert_eq!(world.view_of(), None);
        for r in Rank::ALL {
            let n = world.count(them, r) as usize + world.captured(them, r) as usize;
            assert!(n <= v.army[r.index()] as usize, "{name}: too many {r:?}");
        }
        assert_eq!(world.count(them, Rank::Unknown), 0);
        for sq in v.squares() {
            let (w, vp) = (world.piece_at(sq), view.piece_at(sq));
            assert_eq!(w.map(|p| p.color()), vp.map(|p| p.color()));
            let (Some(w), Some(vp)) = (w, vp) else { continue };
            if vp.rank() == Rank::Unknown {
                if world.flags_at(sq) & MOVED != 0 {
                    assert!(w.rank().is_movable(), "{name}: moved piece guessed {:?}", w.rank());
                }
            } else {
                assert_eq!(w.rank(), vp.rank());
                if w.color() == them {
                    assert_eq!(Some(w.rank()), truth.piece_at(sq).map(|p| p.rank()));
                }
            }
        }
        if view.side_to_move() == side {
            assert_eq!(world.legal_moves(), view.legal_moves(), "{name}");
        }
    }

    #[test]
    fn tracked_beliefs_are_consistent_in_every_variant() {
        let silent = Rules {
            silent_defence: true,
            ..Rules::default()
        };
        let odd = Rules {
            silent_defence: true,
            attacker_advantage: true,
            rescue: true,
            ..Rules::default()
        };
        let mut rng = StdRng::seed_from_u64(3);
        let mut seen_captured = 0;
        for (name, rules) in [
            ("classic", Rules::default()),
            ("classic", silent),
            ("compact", odd),
            ("duel", silent),
            ("duel-compact", Rules::default()),
            ("barrage", odd),
            ("custom:10x8:F=1,B=2,S=1,2=4,3=2,M=1", silent),
        ] {
            tracked_games(name, rules, 6, 17, 7, |truth, _, view, tracker| {
                let b = tracker.belief(view);
                assert!(b.is_weighted() || !b.has_hidden());
                seen_captured += b.captured_unknown();
                check_marginals(name, truth, view, &b);
                check_marginals(name, truth, view, &tracker.belief_with(view, Evidence::PRIOR));
                check_marginals(name, truth, view, &Belief::from_view(view));
                for _ in 0..3 {
                    let world = b.sample_position(view, &mut rng).expect("consistent view");
                    check_world(name, truth, view, &world);
                }
            });
        }
        assert!(seen_captured > 0, "silent defence never hid a captured piece");
    }

    #[test]
    fn weighted_samples_follow_the_marginals() {
        let mut rng = StdRng::seed_from_u64(5);
        let mut done = false;
        tracked_games("classic", Rules::default(), 1, 9, 1, |_, c, view, tracker| {
            if done || view.ply() < 60 || c != Color::Red {
                return;
            }
            done = true;
            let b = tracker.belief(view);
            let m = b.marginals();
            let n = 4000;
            let mut freq = vec![[0f64; NUM_RANKS]; b.unknown.len()];
            for _ in 0..n {
                let a = b.sample(&mut rng).unwrap();
                for (i, (_, r)) in a.board.iter().enumerate() {
                    freq[i][r.index()] += 1.0 / n as f64;
                }
            }
            let mut worst = 0f64;
            for (i, f) in freq.iter().enumerate() {
                for (k, fk) in f.iter().enumerate() {
                    worst = worst.max((fk - m[i].1[k]).abs());
                }
            }
            // The sequential draw approximates the scaled marginals.
            assert!(
                worst < 0.08,
                "largest gap between sampled and computed marginals {worst}"
            );
        });
        assert!(done);
    }

    #[test]
    fn sampling_is_reproducible() {
        let mut views = Vec::new();
        tracked_games("classic", Rules::default(), 1, 4, 25, |_, _, view, tracker| {
            views.push((view.clone(), tracker.belief(view)));
        });
        for (view, b) in &views {
            let a = b
                .sample_position(view, &mut StdRng::seed_from_u64(8))
                .map(|p| p.to_text());
            let c = b
                .sample_position(view, &mut StdRng::seed_from_u64(8))
                .map(|p| p.to_text());
            assert_eq!(a, c);
        }
    }

    #[test]
    fn hall_condition_decides_overlapping_constraints() {
        let one = |r: Rank| 1u16 << r.index();
        let mut pool = [0u8; NUM_RANKS];
        pool[Rank::Marshal.index()] = 1;
        pool[Rank::Bomb.index()] = 1;
        pool[Rank::Scout.index()] = 1;
        let hi = one(Rank::Marshal) | one(Rank::Bomb);
        let lo = one(Rank::Scout) | one(Rank::Spy);
        assert!(feasible(&[(hi, 2), (lo, 1)], &pool));
        assert!(!feasible(&[(hi, 1), (lo, 2)], &pool));
        assert!(!feasible(&[(one(Rank::Marshal), 2)], &pool));
        assert!(is_chain([MOVABLE, NOT_FLAG, ALL_RANKS, MOVABLE].into_iter()));
        assert!(!is_chain([hi, lo].into_iter()));
    }

    #[test]
    fn full_positions_pass_through() {
        let pos = &random_positions("barrage", 1, 3)[0];
        let belief = Belief::from_view(pos);
        assert!(!belief.has_hidden());
        let mut rng = StdRng::seed_from_u64(1);
        let w = belief.sample_position(pos, &mut rng).unwrap();
        assert_eq!(w.to_text(), pos.to_text());
    }
}
