//! One search from a player's view: determinized alpha-beta under the given limits.
//!
//! The hidden enemy ranks are sampled (`belief`) into a few full-information positions
//! ("worlds"). Iterative deepening: at each depth every world is searched with alpha-beta
//! (negamax, captures first, killers and history, a capture-only quiescence), each root
//! move getting its exact score in every world; the move with the best average wins. An
//! iteration cut short by a limit is discarded. Under a clock or a node budget the
//! deepening stops at `WIDE_DEPTH` while ranks are hidden, and what is left of the budget
//! goes to further batches of worlds at that depth (their scores join the average).
//!
//! Two terms keep a game from standing still (the turn cap of a match is a draw): once
//! many plies have passed without an attack, lines in which we attack to some purpose
//! score more (`STALE_FROM`), and a root move costs for every time the placement it makes
//! stood before (`REPEAT_STEP`).

use super::eval::{evaluate_full, evaluate_guessing, flag_square, piece_value, VALUES, WIN, WIN_BOUND};
use super::params::*;
use crate::belief::Belief;
use crate::rules::piece::{resolve_combat, Piece, EMPTY, NUM_RANKS, RANK_MASK};
use crate::rules::position::{MOVED, REVEALED};
use crate::rules::square::CELLS;
use crate::rules::{Color, Combat, GameEnd, Move, Position, Rank, Square};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What bounds a search. All times in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Think exactly this long (minus the move overhead).
    pub movetime_ms: Option<u64>,
    /// The mover's clock and increment (`go wtime/btime/winc/binc`).
    pub time_left_ms: Option<u64>,
    pub inc_ms: Option<u64>,
    /// Stop after this many iterations / nodes.
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Search until stopped.
    pub infinite: bool,
    /// Subtracted from every time budget (GUI and pipe latency).
    pub move_overhead_ms: u64,
    /// Search threads (0 or 1: one).
    pub threads: u32,
    /// `go searchmoves`: the root moves to consider (empty: every legal move).
    pub searchmoves: Vec<Move>,
}

/// Progress of a search, reported after every completed iteration.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    pub nodes: u64,
    pub time_ms: u64,
    /// From the mover's point of view, in the units of `eval` (a Captain is 100), averaged
    /// over the sampled worlds; beyond `eval::WIN_BOUND` a forced win (or loss if negative).
    pub score: i32,
    pub pv: Vec<Move>,
}

/// The outcome of a search: the move to play (`None` when there is no legal move).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub info: Info,
}

/// Is the game within `CAP_NEAR` plies of a draw by a cap?
fn near_cap(pos: &Position) -> bool {
    pos.plies_to_cap().is_some_and(|n| n <= CAP_NEAR)
}
/// The range of the static part of a `loss_key`, and the shifts that keep its parts
/// apart in a sum over up to 512 worlds (2^9): the static part (at most 2^10 a world)
/// under the ply part, the ply part (less than 2^11 a world, shifted by 20) under one
/// world without a loss (`NO_LOSS_KEY`).
const LOSS_STATIC_SPAN: i32 = 1_024;
const LOSS_PLY_SHIFT: u32 = 20;
const LOSS_PLY_MAX: i64 = 2_047;
const NO_LOSS_KEY: i64 = 1 << 41;
/// Piece identities (`Position::ids`) range below this.
const IDS: usize = 128;
/// Depth when no limit at all is given.
const DEFAULT_DEPTH: u32 = 4;
/// Deepest iteration.
const MAX_DEPTH: u32 = 100;
/// Deepest ply (search plus quiescence).
const MAX_PLY: usize = 160;
/// Larger than any score.
const INF: i32 = 1_000_000;
/// Nodes between polls of the clock and the stop flag.
const POLL_MASK: u64 = 1023;

/// The clock limits in milliseconds since `start`: `soft` (start no new iteration past
/// it) and `hard` (abort the search).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TimePlan {
    soft: Option<u64>,
    hard: Option<u64>,
}

impl TimePlan {
    fn new(l: &Limits) -> TimePlan {
        if l.infinite {
            return TimePlan { soft: None, hard: None };
        }
        if let Some(mt) = l.movetime_ms {
            // A fixed move time is used in full (a protocol promise).
            let t = mt.saturating_sub(l.move_overhead_ms).max(1);
            return TimePlan {
                soft: Some(t),
                hard: Some(t),
            };
        }
        if let Some(left) = l.time_left_ms {
            let inc = l.inc_ms.unwrap_or(0);
            let usable = left.saturating_sub(l.move_overhead_ms);
            let budget = (left / 30 + inc * 3 / 4).saturating_sub(l.move_overhead_ms);
            let hard = (budget * 2).min(usable * 3 / 4).max(1);
            let soft = (budget * 6 / 10).min(hard).max(1);
            return TimePlan {
                soft: Some(soft),
                hard: Some(hard),
            };
        }
        TimePlan { soft: None, hard: None }
    }
}

/// The score of a finished game for the side to move, `ply` plies from the root.
fn end_score(pos: &Position, end: Option<GameEnd>, ply: usize) -> i32 {
    match end.and_then(|e| e.winner) {
        Some(w) if w == pos.side_to_move() => WIN - ply as i32,
        Some(_) => -(WIN - ply as i32),
        None => 0,
    }
}

/// The score if the game is over at this node (cheap tests first).
#[inline]
fn terminal(pos: &Position, ply: usize) -> Option<i32> {
    if let Some(c) = pos.flag_taken {
        let s = WIN - ply as i32;
        return Some(if c == pos.side_to_move() { s } else { -s });
    }
    let side = pos.side_to_move();
    if !pos.has_movable_piece(side) || !pos.has_movable_piece(side.flip()) {
        if let Some(e) = pos.game_end() {
            return Some(end_score(pos, Some(e), ply));
        }
    }
    pos.cap_end().map(|_| 0)
}

/// What an attack gains for the attacker in static values (full information), or `None`
/// for a quiet move.
#[inline]
fn attack_gain(pos: &Position, m: Move) -> Option<i32> {
    let def = pos.cells[m.to().index()];
    if def == 0 {
        return None;
    }
    let att = pos.cells[m.from().index()];
    let (ar, dr) = ((att & RANK_MASK) as usize, (def & RANK_MASK) as usize);
    let (Some(a), Some(d)) = (crate::rules::Rank::from_index(ar), crate::rules::Rank::from_index(dr)) else {
        return Some(0);
    };
    Some(fight_gain(a, d, pos.rules.attacker_advantage))
}

/// What a fight of an `a` attacking a `d` gains the attacker in static values (`adv`: the
/// attacker-advantage rule).
#[inline]
fn fight_gain(a: Rank, d: Rank, adv: bool) -> i32 {
    let (va, vd) = (VALUES[a.index()], VALUES[d.index()]);
    match resolve_combat(a, d, adv) {
        Combat::FlagCaptured => WIN,
        Combat::AttackerWins => vd,
        Combat::BothDie => vd - va,
        Combat::DefenderWins => -va,
    }
}

/// The enemy attacker ranks that expect to lose by attacking a piece of ours that is each
/// rank `d` with chance `p[d]` (one bit per rank). The Flag counts for nothing: an attack
/// on our Flag is always played where the world has it.
fn losing_attackers(p: &[f64; NUM_RANKS], adv: bool) -> u16 {
    let mut out = 0;
    for a in Rank::ALL.into_iter().filter(|r| r.is_movable()) {
        let mut g = 0.0;
        for d in Rank::ALL.into_iter().filter(|&r| r != Rank::Flag && p[r.index()] > 0.0) {
            g += p[d.index()] * f64::from(fight_gain(a, d, adv));
        }
        if g < 0.0 {
            out |= 1 << a.index();
        }
    }
    out
}

/// Which enemy attacks on a piece of ours it has not seen it expects to lose by
/// (`losing_attackers`), as the piece stands unmoved and once it has moved: a sampled
/// world shows the enemy every rank of ours, which no opponent sees, so there its weak
/// pieces would take our weak unseen ones as if it could tell them apart. Its odds are
/// taken from the ranks of our unseen pieces by their numbers (a Bomb or the Flag only
/// among the unmoved ones).
fn blind_odds(world: &Position, us: Color) -> [u16; 2] {
    let mut count = [0f64; NUM_RANKS];
    let mut unmoved = 0f64;
    let mut bits = world.bb[us.index()][0];
    while bits != 0 {
        let sq = bits.trailing_zeros() as usize + crate::rules::square::STRIDE;
        bits &= bits - 1;
        if world.flags[sq] & REVEALED != 0 {
            continue;
        }
        let r = (world.cells[sq] & RANK_MASK) as usize;
        if r < NUM_RANKS {
            count[r] += 1.0;
            unmoved += f64::from(u8::from(world.flags[sq] & MOVED == 0));
        }
    }
    let movable: f64 = Rank::ALL
        .iter()
        .filter(|r| r.is_movable())
        .map(|r| count[r.index()])
        .sum();
    if movable <= 0.0 {
        return [0; 2];
    }
    let (bombs, flags) = (count[Rank::Bomb.index()], count[Rank::Flag.index()]);
    let adv = world.rules.attacker_advantage;
    let odds = |moved: bool| {
        let share = if moved || unmoved <= 0.0 {
            1.0
        } else {
            (1.0 - (bombs + flags) / unmoved).max(0.0)
        };
        let mut p = [0f64; NUM_RANKS];
        for d in Rank::ALL.into_iter().filter(|r| r.is_movable()) {
            p[d.index()] = share * count[d.index()] / movable;
        }
        if !moved && unmoved > 0.0 {
            p[Rank::Bomb.index()] = bombs / unmoved;
        }
        losing_attackers(&p, adv)
    };
    [odds(false), odds(true)]
}

/// The same for one piece of ours, from what the enemy can tell of it (`p`, the chance of
/// each of our ranks): as it stands, and should it have moved (Bombs and the Flag out).
fn exposed_masks(p: &[f64; NUM_RANKS], adv: bool) -> [u16; 2] {
    let mut moved = *p;
    moved[Rank::Bomb.index()] = 0.0;
    moved[Rank::Flag.index()] = 0.0;
    [losing_attackers(p, adv), losing_attackers(&moved, adv)]
}

/// Picks the best-scored move among `moves[i..]` and swaps it to `i`.
#[inline]
fn pick(moves: &mut [(i32, Move)], i: usize) {
    let mut b = i;
    for j in i + 1..moves.len() {
        if moves[j].0 > moves[b].0 {
            b = j;
        }
    }
    moves.swap(i, b);
}

/// The alpha-beta searcher of one `think` call: counters, limits and ordering tables.
struct Searcher<'a> {
    stop: &'a AtomicBool,
    start: Instant,
    hard_ms: Option<u64>,
    node_limit: u64,
    nodes: u64,
    aborted: bool,
    killers: Vec<[Move; 2]>,
    history: Vec<i32>,
    bufs: Vec<Vec<(i32, Move)>>,
    /// The searching side (the side to move at the root).
    us: Color,
    /// By piece identity in the current world: the root belief of each enemy piece whose
    /// rank the searcher has not seen, its Flag and Bomb chances reweighed by
    /// `chance_weights` (zero for every other piece).
    marg: Vec<Chances>,
    /// Whether any unseen enemy piece may be the Spy (root belief).
    spy_unseen: bool,
    /// By piece of ours (identity in the current world) and whether it has moved: the
    /// attacker ranks of the enemy's attacks on it, unseen, that it expects to lose by and
    /// that are left out: by the enemy's view of that piece where it is followed
    /// (`exposed_masks`), else by the numbers of our unseen ranks (`blind_odds`); never a
    /// Miner on a Bomb near our Flag (`FLAG_BOMB_REACH`).
    blind: Vec<[u16; 2]>,
    /// Our unseen pieces' root squares and their `exposed_masks`.
    exposed_rows: Vec<(Square, [u16; 2])>,
    /// The range chance-node outcomes are clamped to, from our side: no loss is clamped;
    /// a win counts `WIN_IN_CHANCE` beyond the static score of the current world's root
    /// (or of an even position).
    chance_lo: i32,
    chance_hi: i32,
    /// The lower clamp of our own attacks' outcomes near a capped draw (`CAP_NEAR`), else
    /// `chance_lo`.
    gamble_lo: i32,
    /// The static score of the current world's root (`new_world`).
    world_eval: i32,
    /// What a line with an attack of ours that makes progress is worth more in this world
    /// (`STALE_FROM`), and how many such attacks the current line holds.
    stale: i32,
    progress: u32,
    /// Whether the game is locked and we are not behind (`LOCK_FROM`).
    bold: bool,
    /// Static scores already computed in this search: a score comes back only for its
    /// full key, so the search is the same with them or without (`bench` unchanged).
    evals: Slots<i32>,
    /// The best move found at each position, tried first when the position comes again
    /// (the next iteration of the same world).
    best_moves: Slots<Move>,
    /// How many times the placement each root move makes stood before (`repeat_cost_of`),
    /// counted once on the view: a sampled world is built from the view's text, which
    /// keeps only the last few moves, so a world knows nothing of the placements before.
    root_repeats: Vec<(Move, usize)>,
}

/// How many static scores a searcher keeps (a power of two). A search meets the same
/// position again and again (iterative deepening, re-searches, the stand-pat of a
/// quiescence after the leaf that led there): about three evaluations in ten in `bench`.
const EVAL_SLOTS: usize = 1 << 16;

/// How many best moves a searcher keeps (a power of two).
const BEST_SLOTS: usize = 1 << 18;

/// A searcher's table of values by position key (`position_key`), one per slot, the
/// newest kept.
struct Slots<T> {
    entries: Vec<(u64, T)>,
}

impl<T: Copy> Slots<T> {
    fn new(n: usize, empty: T) -> Self {
        Slots {
            entries: vec![(0, empty); n],
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key >> 40) as usize % self.entries.len()
    }

    #[inline]
    fn get(&self, key: u64) -> Option<T> {
        let (k, v) = self.entries[self.slot(key)];
        (k == key).then_some(v)
    }

    #[inline]
    fn put(&mut self, key: u64, v: T) {
        let i = self.slot(key);
        self.entries[i] = (key, v);
    }
}

/// The key of `pos` for a searcher with `bold` as given: all a static score reads that a
/// search changes (every square's piece and flags, the side to move, `bold`); the rules
/// and the board stay the same for a searcher's lifetime. Never 0 (an empty slot).
#[inline]
fn position_key(pos: &Position, bold: bool) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut a = (pos.side as u64) << 1 | u64::from(bold);
    let mut b = a.wrapping_mul(K);
    // Eight squares a word; the board's last few squares fill a short word, zero-padded
    // (read whole words by fixed-size copies: a copy of a variable length is a call).
    const FULL: usize = CELLS / 8 * 8;
    let word = |x: &[u8]| u64::from_le_bytes(x.try_into().unwrap_or([0; 8]));
    for (c, f) in pos.cells[..FULL].chunks_exact(8).zip(pos.flags[..FULL].chunks_exact(8)) {
        a = (a ^ word(c)).wrapping_mul(K).rotate_left(27);
        b = (b ^ word(f)).wrapping_mul(K).rotate_left(31);
    }
    if FULL < CELLS {
        let tail = |x: &[u8; CELLS]| {
            let mut w = [0u8; 8];
            w[..CELLS - FULL].copy_from_slice(&x[FULL..]);
            u64::from_le_bytes(w)
        };
        a = (a ^ tail(&pos.cells)).wrapping_mul(K).rotate_left(27);
        b = (b ^ tail(&pos.flags)).wrapping_mul(K).rotate_left(31);
    }
    (a ^ b.rotate_left(17)).wrapping_mul(K) | 1
}

/// One outcome of an attack on an unseen piece: its probability, and the square of the
/// enemy piece whose rank is exchanged with the defender's to play it out (`None`: the
/// defender's rank in this world already gives this outcome).
#[derive(Clone, Copy, Debug)]
struct Outcome {
    p: f32,
    swap: Option<usize>,
}

impl Outcome {
    const NONE: Outcome = Outcome { p: 0.0, swap: None };
}

/// The index of a combat result among the outcomes of an attack.
fn combat_index(c: Combat) -> usize {
    match c {
        Combat::AttackerWins => 0,
        Combat::DefenderWins => 1,
        Combat::BothDie => 2,
        Combat::FlagCaptured => 3,
    }
}

impl<'a> Searcher<'a> {
    fn new(stop: &'a AtomicBool, start: Instant, hard_ms: Option<u64>, node_limit: u64) -> Self {
        Searcher {
            stop,
            start,
            hard_ms,
            node_limit,
            nodes: 0,
            aborted: false,
            killers: vec![[Move::NULL; 2]; MAX_PLY + 1],
            history: vec![0; CELLS * CELLS],
            bufs: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            us: Color::Red,
            marg: vec![[[0.0; NUM_RANKS]; 2]; IDS],
            spy_unseen: false,
            blind: vec![[0; 2]; IDS],
            exposed_rows: Vec::new(),
            chance_lo: -WIN,
            chance_hi: WIN_IN_CHANCE,
            gamble_lo: -WIN,
            world_eval: 0,
            stale: 0,
            progress: 0,
            bold: false,
            evals: Slots::new(EVAL_SLOTS, 0),
            best_moves: Slots::new(BEST_SLOTS, Move::NULL),
            root_repeats: Vec::new(),
        }
    }

    /// Is the stop flag set or the hard time limit reached?
    fn out_of_time(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self
                .hard_ms
                .is_some_and(|h| self.start.elapsed() >= Duration::from_millis(h))
    }

    /// Counts a node; sets `aborted` when a limit is hit.
    #[inline]
    fn count_node(&mut self) -> bool {
        if self.nodes >= self.node_limit {
            self.aborted = true;
            return false;
        }
        self.nodes += 1;
        if self.nodes & POLL_MASK == 0 && self.out_of_time() {
            self.aborted = true;
            return false;
        }
        true
    }

    /// Ages the ordering tables between worlds (they describe one world's board) and
    /// learns the world's identities of the pieces in `unseen` (root squares and beliefs).
    fn new_world(&mut self, world: &Position, unseen: &[(Square, Chances)]) {
        self.killers.iter_mut().for_each(|k| *k = [Move::NULL; 2]);
        self.history.iter_mut().for_each(|h| *h /= 8);
        self.us = world.side_to_move();
        // Only wins are clamped: a loss in one outcome is a loss (clamped, it would let
        // any chance node hide a forced loss found elsewhere in the tree).
        self.chance_lo = -WIN;
        self.world_eval = evaluate_guessing(world, Some(self.us.flip()));
        self.chance_hi = self.world_eval.max(0) + WIN_IN_CHANCE;
        self.gamble_lo = if near_cap(world) {
            self.world_eval.min(0) - WIN_IN_CHANCE
        } else {
            self.chance_lo
        };
        let ramp = world.quiet_plies().saturating_sub(STALE_FROM).min(STALE_SPAN) as i32;
        self.stale = ramp * (STALE_BASE + self.world_eval.max(0) / 4).min(STALE_CAP) / STALE_SPAN as i32;
        self.progress = 0;
        self.bold = world.quiet_plies() >= LOCK_FROM && self.world_eval >= -REPEAT_BEHIND;
        self.marg.iter_mut().for_each(|p| *p = [[0.0; NUM_RANKS]; 2]);
        for (sq, p) in unseen {
            self.marg[world.ids[sq.index()] as usize % IDS] = *p;
        }
        self.spy_unseen = unseen.iter().any(|(_, p)| p[0][Rank::Spy.index()] > 0.0);
        self.blind.fill(blind_odds(world, self.us));
        for (sq, m) in &self.exposed_rows {
            self.blind[world.ids[sq.index()] as usize % IDS] = *m;
        }
        // A Miner's attack on a Bomb of ours within `FLAG_BOMB_REACH` steps of our Flag is
        // never left out: the Bombs that close in a Flag are read as such.
        if let Some(f) = flag_square(world, self.us).map(Square::from_index) {
            let (c, bomb) = (self.us.index(), Piece::new(self.us, Rank::Bomb).code());
            // Our pieces that cannot move: the Bombs and the Flag.
            let mut still = world.bb[c][0] & !(world.bb[c][1] | world.bb[c][2]);
            while still != 0 {
                let i = still.trailing_zeros() as usize + crate::rules::square::STRIDE;
                still &= still - 1;
                if world.cells[i] == bomb && Square::from_index(i).distance(f) <= FLAG_BOMB_REACH {
                    self.blind[world.ids[i] as usize % IDS][0] &= !(1 << Rank::Miner.index());
                }
            }
        }
    }

    /// Is `m` an enemy attack on a piece of ours it has not seen, at odds it would not
    /// take (`blind`)? An attack on our Flag is always feared (and, by the masks, a
    /// Miner's on a Bomb near it: `new_world`).
    #[inline]
    fn blind_attack(&self, pos: &Position, m: Move) -> bool {
        if pos.side == self.us || m.rescue().is_some() {
            return false;
        }
        let t = m.to().index();
        let def = pos.cells[t];
        if def == EMPTY || pos.flags[t] & REVEALED != 0 || (def & RANK_MASK) as usize == Rank::Flag.index() {
            return false;
        }
        let moved = usize::from(pos.flags[t] & MOVED != 0);
        let a = (pos.cells[m.from().index()] & RANK_MASK) as usize;
        a < NUM_RANKS && self.blind[pos.ids[t] as usize % IDS][moved] & (1 << a) != 0
    }

    /// At an enemy node: the chance (root belief) that one of the unseen enemy pieces next
    /// to our seen Marshal is the Spy, when none of them is this world's Spy, with the
    /// enemy's static score after its Spy took our Marshal; `None` if there is no such risk.
    ///
    /// The enemy Spy is one piece: a few sampled worlds mostly put it where our seen
    /// Marshal is not, and the move picked would then be the one whose risk no world
    /// happened to show. So at such a node the enemy also strikes with that chance, for
    /// the static score plus what our Marshal is worth to us, and as much again while the
    /// enemy Marshal lives (with ours gone it has no equal: against the UCC 2012 winner 11
    /// of 17 games whose Marshal the Spy took were lost).
    fn spy_strike(&mut self, pos: &Position) -> Option<(f32, i32)> {
        if !self.spy_unseen || pos.side == self.us {
            return None;
        }
        let (us, them) = (self.us, self.us.flip());
        if pos.count(them, Rank::Spy) == 0 || pos.count(us, Rank::Marshal) == 0 {
            return None;
        }
        if resolve_combat(Rank::Spy, Rank::Marshal, pos.rules.attacker_advantage) != Combat::AttackerWins {
            return None;
        }
        let marshal = Piece::new(us, Rank::Marshal).code();
        let mut bits = pos.bb[us.index()][1];
        let mut at = None;
        while bits != 0 {
            let sq = bits.trailing_zeros() as usize + crate::rules::square::STRIDE;
            bits &= bits - 1;
            if pos.cells[sq] == marshal {
                at = Some(sq);
                break;
            }
        }
        let at = at.filter(|&sq| pos.flags[sq] & REVEALED != 0)?;
        // A Spy strikes at its first chance, so a neighbour that let one pass is no Spy
        // (and each chance is counted once): only where our last move brought the
        // Marshal, the enemy's last move attacked it (and showed its rank), or the
        // neighbour's last move brought it there.
        let (ours, theirs) = (pos.last[us.index()].to().index(), pos.last[them.index()].to().index());
        let fresh = ours == at || theirs == at;
        let mut none = 1f32;
        for d in crate::rules::square::DIRS {
            let n = (at as isize + d as isize) as usize;
            let Some(p) = Piece::from_cell(pos.cells[n]) else {
                continue;
            };
            if p.color() != them || pos.flags[n] & REVEALED != 0 || !(fresh || theirs == n) {
                continue;
            }
            if p.rank() == Rank::Spy {
                // This world's Spy strikes in the search itself.
                return None;
            }
            let mut spy = self.marg[pos.ids[n] as usize % IDS][0][Rank::Spy.index()];
            if spy > 0.0 && pos.flags[n] & MOVED == 0 {
                spy = spy.max(SPY_FLOOR);
            }
            none *= 1.0 - spy;
        }
        let p = 1.0 - none;
        if p <= 0.0 {
            return None;
        }
        let theirs = if pos.count(them, Rank::Marshal) > 0 {
            piece_value(pos, them, Rank::Marshal)
        } else {
            0
        };
        Some((
            p.min(1.0),
            self.evaluate(pos) + piece_value(pos, us, Rank::Marshal) + theirs,
        ))
    }

    /// `inner` searched at an enemy node, mixed with the strike of `spy_strike` (the
    /// window passed on so that the mixed bounds stay exact).
    fn with_spy_strike(
        &mut self,
        pos: &mut Position,
        alpha: i32,
        beta: i32,
        inner: impl FnOnce(&mut Self, &mut Position, i32, i32) -> i32,
    ) -> i32 {
        let Some((p, c)) = self.spy_strike(pos) else {
            return inner(self, pos, alpha, beta);
        };
        let (q, pc) = (1.0 - p, p * c as f32);
        if q <= 0.0 {
            return c;
        }
        let lo = ((alpha as f32 - pc) / q).floor().max(-INF as f32) as i32;
        let hi = ((beta as f32 - pc) / q).ceil().min(INF as f32) as i32;
        let v = inner(self, pos, lo, hi);
        (q * v as f32 + pc).round() as i32
    }

    /// Is `m` our attack on an enemy piece whose rank we have not seen?
    #[inline]
    fn attacks_unseen(&self, pos: &Position, m: Move) -> bool {
        let t = m.to().index();
        let def = pos.cells[t];
        pos.side == self.us
            && Piece::from_cell(def).is_some_and(|p| p.color() != self.us)
            && pos.flags[t] & REVEALED == 0
            && m.rescue().is_none()
    }

    /// The outcomes of our attack `m` on an unseen piece, by the root belief of that piece
    /// (each outcome played out with the likeliest rank that gives it); 0 when `m` is no
    /// such attack or the world's own rank is the only outcome.
    fn outcomes(&self, pos: &Position, m: Move, out: &mut [Outcome; 4]) -> usize {
        if !self.attacks_unseen(pos, m) {
            return 0;
        }
        let (f, t) = (m.from().index(), m.to().index());
        let att = Piece(pos.cells[f]).rank();
        let probs = &self.marg[pos.ids[t] as usize % IDS][usize::from(att == Rank::Miner)];
        let moved = pos.flags[t] & MOVED != 0;
        let truth = Piece(pos.cells[t]).rank();
        let adv = pos.rules.attacker_advantage;
        let mut mass = [0f32; 4];
        // Per outcome: the probability of the rank that plays it out and the square of the
        // piece that rank is exchanged with (the world's own rank first: it needs none).
        let mut pick: [Option<(f32, Option<usize>)>; 4] = [None; 4];
        let mut truth_class = None;
        for r in Rank::ALL {
            let p = probs[r.index()];
            if p <= 0.0 || (moved && !r.is_movable()) {
                continue;
            }
            let k = combat_index(resolve_combat(att, r, adv));
            mass[k] += p;
            if r == truth {
                truth_class = Some(k);
            } else if truth_class != Some(k) && pick[k].is_none_or(|(q, _)| p > q) {
                if let Some(sq) = self.partner(pos, t, r) {
                    pick[k] = Some((p, Some(sq)));
                }
            }
        }
        if let Some(k) = truth_class {
            pick[k] = Some((1.0, None));
        } else {
            let k = combat_index(resolve_combat(att, truth, adv));
            mass[k] = mass[k].max(f32::MIN_POSITIVE);
            pick[k] = Some((1.0, None));
        }
        let total: f32 = (0..4).filter(|&k| pick[k].is_some()).map(|k| mass[k]).sum();
        let mut n = 0;
        for k in 0..4 {
            if let Some((_, swap)) = pick[k] {
                if mass[k] > 0.0 {
                    out[n] = Outcome {
                        p: mass[k] / total,
                        swap,
                    };
                    n += 1;
                }
            }
        }
        if n == 1 && out[0].swap.is_none() {
            return 0;
        }
        n
    }

    /// An unseen enemy piece of rank `r` (not on `def`) that may exchange ranks with the
    /// piece on `def`: a piece that has moved cannot take a Bomb's or a Flag's rank.
    fn partner(&self, pos: &Position, def: usize, r: Rank) -> Option<usize> {
        let them = self.us.flip();
        let immobile = !Piece(pos.cells[def]).rank().is_movable();
        let code = Piece::new(them, r).code();
        let mut bits = pos.bb[them.index()][0];
        while bits != 0 {
            let sq = bits.trailing_zeros() as usize + crate::rules::square::STRIDE;
            bits &= bits - 1;
            if sq != def
                && pos.cells[sq] == code
                && pos.flags[sq] & REVEALED == 0
                && !(immobile && pos.flags[sq] & MOVED != 0)
            {
                return Some(sq);
            }
        }
        None
    }

    /// The score of playing `m` for the side to move, searched to `depth - 1`: an attack
    /// of ours on an unseen piece is a chance node over that piece's rank (each outcome
    /// clamped to `chance_lo..=chance_hi`, searched with the windows of Ballard's Star1 so
    /// that bounds stay exact), anything else a plain alpha-beta child.
    fn child(&mut self, pos: &mut Position, m: Move, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        let progress = self.makes_progress(pos, m);
        self.progress += u32::from(progress);
        let s = self.child_outcomes(pos, m, depth, alpha, beta, ply);
        self.progress -= u32::from(progress);
        s
    }

    /// Is `m` an attack of ours that makes progress in a stale game (`STALE_FROM`)?
    #[inline]
    fn makes_progress(&self, pos: &Position, m: Move) -> bool {
        if self.stale == 0 || pos.side != self.us || m.rescue().is_some() {
            return false;
        }
        let t = m.to().index();
        if pos.cells[t] == EMPTY {
            return false;
        }
        if pos.flags[t] & REVEALED == 0 {
            let attacker = (pos.cells[m.from().index()] & RANK_MASK) as usize;
            return pos.flags[t] & MOVED != 0 || VALUES[attacker.min(12)] < STALE_TOP;
        }
        attack_gain(pos, m).is_some_and(|g| g >= 0)
    }

    /// The static score of `pos` for the side to move, for a searcher that does not know
    /// where the enemy's Flag stands.
    #[inline]
    fn evaluate(&mut self, pos: &Position) -> i32 {
        let key = position_key(pos, self.bold);
        if let Some(s) = self.evals.get(key) {
            return s;
        }
        let s = evaluate_full(pos, Some(self.us.flip()), self.bold.then_some(self.us));
        self.evals.put(key, s);
        s
    }

    /// The static score of `pos` for the side to move, with the worth of progress.
    #[inline]
    fn eval(&mut self, pos: &Position) -> i32 {
        let mut s = self.evaluate(pos);
        // Within `CAP_NEAR` plies of a capped draw a lead counts for what is left of it: a
        // draw scores 0, and waiting toward one is worth less the nearer it comes.
        if let Some(n) = pos.plies_to_cap().filter(|&n| n < CAP_NEAR) {
            s = s * n as i32 / CAP_NEAR as i32;
        }
        if self.progress == 0 {
            s
        } else if pos.side == self.us {
            s + self.stale
        } else {
            s - self.stale
        }
    }

    /// `child` once the progress it makes is counted.
    fn child_outcomes(&mut self, pos: &mut Position, m: Move, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        let mut outs = [Outcome::NONE; 4];
        let n = self.outcomes(pos, m, &mut outs);
        if n == 0 {
            pos.make(m);
            let s = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1);
            pos.unmake();
            return s;
        }
        let t = m.to().index();
        let floor = if pos.side == self.us {
            self.gamble_lo
        } else {
            self.chance_lo
        };
        let (cl, ch) = (floor as f32, self.chance_hi as f32);
        let (mut sum, mut left) = (0f32, 1f32);
        for o in &outs[..n] {
            left = (left - o.p).max(0.0);
            let lo = ((alpha as f32 - sum - ch * left) / o.p).floor().max(-INF as f32) as i32;
            let hi = ((beta as f32 - sum - cl * left) / o.p).ceil().min(INF as f32) as i32;
            if let Some(sq) = o.swap {
                pos.swap_ranks(t, sq);
            }
            pos.make(m);
            let s = -self.negamax(pos, depth - 1, -hi, -lo, ply + 1);
            pos.unmake();
            if let Some(sq) = o.swap {
                pos.swap_ranks(t, sq);
            }
            if self.aborted {
                return 0;
            }
            let v = s.clamp(floor, self.chance_hi) as f32;
            if s <= lo {
                return (sum + o.p * v + ch * left).ceil() as i32;
            }
            if s >= hi {
                return (sum + o.p * v + cl * left).floor() as i32;
            }
            sum += o.p * v;
        }
        sum.round() as i32
    }

    fn order(&self, pos: &Position, moves: &mut [(i32, Move)], ply: usize) {
        let k = self.killers[ply];
        for e in moves.iter_mut() {
            let m = e.1;
            e.0 = match attack_gain(pos, m) {
                Some(g) if g > 0 => 2_000_000 + g,
                Some(0) => 1_500_000,
                Some(g) => -1_000_000 + g,
                None if m == k[0] => 1_200_000,
                None if m == k[1] => 1_100_000,
                None => self.history[m.from().index() * CELLS + m.to().index()],
            };
        }
    }

    fn negamax(&mut self, pos: &mut Position, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiesce(pos, alpha, beta, ply);
        }
        self.with_spy_strike(pos, alpha, beta, |s, pos, a, b| s.negamax_moves(pos, depth, a, b, ply))
    }

    fn negamax_moves(&mut self, pos: &mut Position, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if !self.count_node() {
            return 0;
        }
        if let Some(s) = terminal(pos, ply) {
            return s;
        }
        let mut moves = std::mem::take(&mut self.bufs[ply]);
        moves.clear();
        // The enemy's attacks at bad odds are left out, unless nothing else is left.
        let mut blind = false;
        pos.for_each_legal(|m| {
            if self.blind_attack(pos, m) {
                blind = true;
            } else {
                moves.push((0, m));
            }
        });
        if moves.is_empty() && blind {
            pos.for_each_legal(|m| moves.push((0, m)));
        }
        if moves.is_empty() {
            self.bufs[ply] = moves;
            return end_score(pos, pos.game_end(), ply);
        }
        self.order(pos, &mut moves, ply);
        // The move that was best here last time goes first: the same scores, fewer nodes.
        let key = position_key(pos, false);
        if let Some(hint) = self.best_moves.get(key) {
            if let Some(e) = moves.iter_mut().find(|e| e.1 == hint) {
                e.0 = 3_000_000;
            }
        }
        let mut best = -INF;
        let mut best_move = Move::NULL;
        for i in 0..moves.len() {
            pick(&mut moves, i);
            let m = moves[i].1;
            let quiet = pos.cells[m.to().index()] == 0;
            let s = self.child(pos, m, depth, alpha, beta, ply);
            if self.aborted {
                break;
            }
            if s > best {
                best = s;
                best_move = m;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        if quiet {
                            let k = &mut self.killers[ply];
                            if k[0] != m {
                                k[1] = k[0];
                                k[0] = m;
                            }
                            let h = &mut self.history[m.from().index() * CELLS + m.to().index()];
                            *h = (*h + depth * depth).min(1_000_000);
                        }
                        break;
                    }
                }
            }
        }
        if !self.aborted && !best_move.is_null() {
            self.best_moves.put(key, best_move);
        }
        self.bufs[ply] = moves;
        best
    }

    /// Stand pat or play a winning attack, until the position is quiet.
    fn quiesce(&mut self, pos: &mut Position, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.with_spy_strike(pos, alpha, beta, |s, pos, a, b| s.quiesce_moves(pos, a, b, ply))
    }

    fn quiesce_moves(&mut self, pos: &mut Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if !self.count_node() {
            return 0;
        }
        if let Some(s) = terminal(pos, ply) {
            return s;
        }
        let stand = self.eval(pos);
        if stand >= beta || ply >= MAX_PLY {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut moves = std::mem::take(&mut self.bufs[ply]);
        moves.clear();
        pos.for_each_legal(|m| {
            // Our attacks on unseen pieces are chance events, left to the full-width search.
            if m.rescue().is_none() && !self.attacks_unseen(pos, m) && !self.blind_attack(pos, m) {
                if let Some(g) = attack_gain(pos, m) {
                    if g > 0 {
                        moves.push((g, m));
                    }
                }
            }
        });
        let mut best = stand;
        for i in 0..moves.len() {
            pick(&mut moves, i);
            let m = moves[i].1;
            let progress = self.makes_progress(pos, m);
            self.progress += u32::from(progress);
            pos.make(m);
            let s = -self.quiesce(pos, -beta, -alpha, ply + 1);
            pos.unmake();
            self.progress -= u32::from(progress);
            if self.aborted {
                break;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        self.bufs[ply] = moves;
        best
    }

    /// Exact scores of every root move in `world` at `depth`, and their `loss_key`s;
    /// `false` if aborted.
    fn root(&mut self, world: &mut Position, root: &[Move], depth: u32, scores: &mut [i32], keys: &mut [i64]) -> bool {
        if !self.count_node() {
            return false;
        }
        let mut best = -INF;
        let score = self.evaluate(world);
        for (i, &m) in root.iter().enumerate() {
            // Moves far below this world's best only need a bound: they will not win the
            // average over worlds (the bound stands in for their score).
            let alpha = if best > -INF { best - ROOT_MARGIN } else { -INF };
            let s = self.root_child(world, m, depth as i32, alpha);
            // A decided game pays nothing for repeats: charged to a loss, the cost made a
            // loss four plies away rank below one a ply away (`loss_key`), and against
            // the UCC 2012 AI hunter our last mover, shuffling beside their seen Marshal
            // while in every world an enemy Scout could take our Flag, traded itself.
            let s = if s.abs() >= WIN_BOUND {
                s
            } else {
                let n = self.root_repeats.iter().find(|e| e.0 == m).map_or(0, |e| e.1);
                s - repeat_cost_of(world.quiet_plies(), n, score)
            };
            if self.aborted {
                return false;
            }
            scores[i] = s;
            keys[i] = if s <= -WIN_BOUND {
                world.make(m);
                let after = -self.evaluate(world);
                world.unmake();
                loss_key(s, after)
            } else {
                NO_LOSS_KEY
            };
            best = best.max(s);
        }
        true
    }
}

/// The chance node of an ambush after a root move (`root_child`): the outcomes "a piece
/// beside ours beats it" and "none does", each with the enemy ranks exchanged that play
/// it out in this world (at most one per neighbour).
struct Ambush {
    p: f32,
    swaps: [[(usize, usize); 4]; 2],
    n: [usize; 2],
}

impl Searcher<'_> {
    /// Root move `m` searched to `depth - 1` in `world`. Where it leaves our Major, Colonel
    /// or General beside unseen enemy pieces, the enemy's strike there is weighed by the
    /// root belief, not by this world's draw: a chance node over "one of them beats it"
    /// (`ambush`). In a sampled world the piece beside the one our top piece took is strong
    /// or not as that world drew it, and a few worlds weigh the ambush by luck.
    fn root_child(&mut self, world: &mut Position, m: Move, depth: i32, alpha: i32) -> i32 {
        let Some(a) = self.ambush(world, m) else {
            return self.child(world, m, depth, alpha, INF, 0);
        };
        // Star1 over the two outcomes, each bounded by a won or lost game.
        let w = WIN as f32;
        let (mut sum, mut left) = (0f32, 1f32);
        for k in 0..2 {
            let p = if k == 0 { a.p } else { 1.0 - a.p };
            left = (left - p).max(0.0);
            let lo = ((alpha as f32 - sum - w * left) / p).floor().max(-INF as f32) as i32;
            let swaps = &a.swaps[k][..a.n[k]];
            for &(x, y) in swaps {
                world.swap_ranks(x, y);
            }
            let s = self.child(world, m, depth, lo, INF, 0);
            for &(x, y) in swaps.iter().rev() {
                world.swap_ranks(x, y);
            }
            if self.aborted {
                return 0;
            }
            if s <= lo {
                return (sum + p * s as f32 + w * left).ceil() as i32;
            }
            sum += p * s as f32;
        }
        sum.round() as i32
    }

    /// The ambush chance node after root move `m` (see `root_child`), for our piece of a
    /// Major to a General with the most at stake (its value times the chance that an
    /// unseen neighbour beats it when attacking, by the root belief); `None` where no such
    /// piece stands beside unseen enemy pieces or this world cannot play out both outcomes.
    fn ambush(&self, world: &mut Position, m: Move) -> Option<Ambush> {
        use crate::rules::square::DIRS;
        let (us, them) = (self.us, self.us.flip());
        let adv = world.rules.attacker_advantage;
        let beats = |r: Rank, ours: Rank| resolve_combat(r, ours, adv) == Combat::AttackerWins;
        let to = m.to().index();
        let attack = world.cells[to] != EMPTY;
        world.make(m);
        // Square, rank, chance, and the unseen neighbours with their chances.
        type AtStake = (usize, Rank, f32, [(usize, f32); 4], usize);
        let mut best: Option<AtStake> = None;
        let mut bits = world.bb[us.index()][0];
        while bits != 0 {
            let sq = bits.trailing_zeros() as usize + crate::rules::square::STRIDE;
            bits &= bits - 1;
            let rank = Piece(world.cells[sq]).rank();
            if !matches!(rank, Rank::Major | Rank::Colonel | Rank::General) {
                continue;
            }
            let mut nb = [(0usize, 0f32); 4];
            let (mut k, mut none) = (0, 1f32);
            for d in DIRS {
                let n = (sq as isize + d as isize) as usize;
                let Some(p) = Piece::from_cell(world.cells[n]) else {
                    continue;
                };
                if p.color() != them || world.flags[n] & REVEALED != 0 || (attack && n == to) {
                    continue;
                }
                let probs = &self.marg[world.ids[n] as usize % IDS][0];
                let pb: f32 = Rank::ALL
                    .into_iter()
                    .filter(|&r| beats(r, rank))
                    .map(|r| probs[r.index()])
                    .sum();
                nb[k] = (n, pb.clamp(0.0, 1.0));
                k += 1;
                none *= 1.0 - pb.clamp(0.0, 1.0);
            }
            let p = 1.0 - none;
            let stake = p * VALUES[rank.index()] as f32;
            if k > 0 && p >= AMBUSH_MIN && best.is_none_or(|b| stake > b.2 * VALUES[b.1.index()] as f32) {
                best = Some((sq, rank, p, nb, k));
            }
        }
        world.unmake();
        let (at, rank, p, nb, k) = best?;
        let nb = &nb[..k];
        // Squares no exchange may touch: our piece's neighbours (the outcome is theirs to
        // set), the attacked square and the enemy's Flag.
        let near = |sq: usize| sq == to || sq == at || DIRS.iter().any(|&d| (at as isize + d as isize) as usize == sq);
        // An unseen enemy piece not near ours, of a rank `ok` takes, that may take the
        // rank now on `n` (a piece that has moved cannot become a Bomb or the Flag).
        let partner = |world: &Position, n: usize, ok: &dyn Fn(Rank) -> bool| -> Option<usize> {
            let r_n = Piece(world.cells[n]).rank();
            let probs = &self.marg[world.ids[n] as usize % IDS][0];
            let mut found: Option<(f32, usize)> = None;
            let mut bits = world.bb[them.index()][0];
            while bits != 0 {
                let sq = bits.trailing_zeros() as usize + crate::rules::square::STRIDE;
                bits &= bits - 1;
                if near(sq) || world.flags[sq] & REVEALED != 0 {
                    continue;
                }
                let r = Piece(world.cells[sq]).rank();
                if !ok(r) || r == Rank::Flag || r == r_n {
                    continue;
                }
                // The piece on `n` takes `r`: one that has moved cannot be a Bomb.
                if !r.is_movable() && world.flags[n] & MOVED != 0 {
                    continue;
                }
                if !r_n.is_movable() && world.flags[sq] & MOVED != 0 {
                    continue;
                }
                let q = probs[r.index()];
                if q > 0.0 && found.is_none_or(|(fq, _)| q > fq) {
                    found = Some((q, sq));
                }
            }
            found.map(|(_, sq)| sq)
        };
        let mut out = Ambush {
            p,
            swaps: [[(0, 0); 4]; 2],
            n: [0, 0],
        };
        let beaters: Vec<usize> = nb
            .iter()
            .map(|&(n, _)| n)
            .filter(|&n| beats(Piece(world.cells[n]).rank(), rank))
            .collect();
        if beaters.is_empty() {
            // The world has no ambush: the likeliest beater of them takes a beating rank.
            let mut order: Vec<(usize, f32)> = nb.to_vec();
            order.sort_by(|x, y| y.1.total_cmp(&x.1));
            let (n, sq) = order.iter().filter(|e| e.1 > 0.0).find_map(|&(n, _)| {
                if Piece(world.cells[n]).rank() == Rank::Flag {
                    return None;
                }
                partner(world, n, &|r| beats(r, rank)).map(|sq| (n, sq))
            })?;
            out.swaps[0][0] = (n, sq);
            out.n[0] = 1;
        } else {
            // The world ambushes: the safe outcome gives every beater a rank that does not.
            // The exchanges are made on the world as they are found and undone after: a
            // partner already used holds a beating rank, so it is not picked again.
            for (i, &n) in beaters.iter().enumerate() {
                let Some(sq) = partner(world, n, &|r| !beats(r, rank)) else {
                    break;
                };
                world.swap_ranks(n, sq);
                out.swaps[1][i] = (n, sq);
                out.n[1] = i + 1;
            }
            for &(x, y) in out.swaps[1][..out.n[1]].iter().rev() {
                world.swap_ranks(x, y);
            }
            if out.n[1] < beaters.len() {
                return None;
            }
        }
        Some(out)
    }
}

/// How a root move that loses the game in a world (`score`) compares with other losing ones
/// there: the later loss, then the better static score just after the move (`after`); a
/// move that does not lose there has `NO_LOSS_KEY`, more than any sum of losses.
/// Every loss counts the same in the average over worlds; where every move loses in every
/// world (a seen enemy Miner beside our Flag: in each world the enemy knows which piece it
/// is), the first move in order was played, and against the UCC 2012 winner our Major
/// walked away from such a Miner, which stood there 33 turns not knowing our Flag. Where a
/// loss ties a clamped score that is no loss, the one that may not lose comes first: with
/// 0 for no loss, a sure loss was preferred to a likely one (a Miner beside a likely Flag
/// in duel stood there 190 plies).
fn loss_key(score: i32, after: i32) -> i64 {
    let ply = ((WIN + score) as i64).clamp(0, LOSS_PLY_MAX);
    (ply << LOSS_PLY_SHIFT) + after.clamp(-LOSS_STATIC_SPAN, LOSS_STATIC_SPAN - 1) as i64
}

/// What a root move costs for the placements it repeats (`REPEAT_STEP` for each of the
/// `repeats` times its placement stood before, `Position::repeats_after`), for a side
/// whose static score is `score`, `quiet` plies after the last attack. In a locked game
/// (`LOCK_FROM`) a side ahead pays up to half its lead, reached by the fourth repeat: the
/// cycle is a draw, and a piece given up to break it is worth less than the rest of the
/// lead.
fn repeat_cost_of(quiet: u32, repeats: usize, score: i32) -> i32 {
    let (step, cap) = if quiet >= LOCK_FROM && score / 2 > REPEAT_CAP_EVEN {
        (score / 8, score / 2)
    } else if score >= -REPEAT_BEHIND {
        (REPEAT_STEP, REPEAT_CAP_EVEN)
    } else {
        (REPEAT_STEP, REPEAT_CAP)
    };
    (step * repeats as i32).min(cap)
}

/// The view's legal moves, attacks on known weaker pieces first, then attacks on unknown
/// pieces, quiet moves, and attacks known to lose last (stable within each group).
fn root_moves(view: &Position) -> Vec<Move> {
    let mut v: Vec<(i32, Move)> = Vec::new();
    view.for_each_legal(|m| {
        let key = match attack_gain(view, m) {
            None => 0,
            Some(_) if view.cells[m.to().index()] & RANK_MASK == crate::rules::Rank::Unknown as u8 => 1,
            Some(g) if g >= 0 => 2,
            Some(_) => -1,
        };
        v.push((key, m));
    });
    v.sort_by_key(|e| std::cmp::Reverse(e.0));
    v.into_iter().map(|e| e.1).collect()
}

/// Searches `view` (the side to move is the searcher) until a limit is reached or `stop`
/// is set; `start` is when the clock started (the `go` line was read). Calls `report`
/// after each iteration. Deterministic for a given seed without time limits.
pub fn think(
    view: &Position,
    limits: &Limits,
    start: Instant,
    stop: &AtomicBool,
    seed: u64,
    report: &mut dyn FnMut(&Info),
) -> SearchResult {
    think_with(view, &Belief::from_view(view), None, limits, start, stop, seed, report)
}

/// `think` with what the searcher believes of the hidden enemy ranks (`belief` must have
/// been built for `view`) and, if followed, what the enemy can tell of ours (`exposure`,
/// built for the enemy's view of the same position).
#[allow(clippy::too_many_arguments)]
pub fn think_with(
    view: &Position,
    belief: &Belief,
    exposure: Option<&Belief>,
    limits: &Limits,
    start: Instant,
    stop: &AtomicBool,
    seed: u64,
    report: &mut dyn FnMut(&Info),
) -> SearchResult {
    let result = search(view, belief, exposure, limits, start, stop, seed, report);
    if limits.infinite {
        // `go infinite` answers only after `stop`, even when the search ran out of depth.
        while !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    result
}

#[allow(clippy::too_many_arguments)]
fn search(
    view: &Position,
    belief: &Belief,
    exposure: Option<&Belief>,
    limits: &Limits,
    start: Instant,
    stop: &AtomicBool,
    seed: u64,
    report: &mut dyn FnMut(&Info),
) -> SearchResult {
    let elapsed = || start.elapsed().as_millis() as u64;
    let mut root = root_moves(view);
    if !limits.searchmoves.is_empty() {
        root.retain(|m| limits.searchmoves.contains(m));
    }
    let mut result = SearchResult {
        best: root.first().copied(),
        info: Info::default(),
    };
    if root.len() <= 1 {
        result.info.time_ms = elapsed();
        result.info.pv = result.best.into_iter().collect();
        return result;
    }
    let plan = TimePlan::new(limits);
    let unlimited = limits.depth.is_none() && limits.nodes.is_none() && plan.hard.is_none() && !limits.infinite;
    let max_depth = limits
        .depth
        .unwrap_or(if unlimited { DEFAULT_DEPTH } else { MAX_DEPTH })
        .min(MAX_DEPTH);
    let n_worlds = if belief.has_hidden() { WORLDS } else { 1 };
    let mut rng = StdRng::seed_from_u64(seed);
    let mut worlds = sample_worlds(belief, view, &mut rng, n_worlds);
    if worlds.len() < n_worlds {
        tracing::warn!("no determinization fits the view; playing the first move");
        return result;
    }
    // What the searcher believes of each unseen piece on the board, as chance nodes weigh
    // it (the Flag and Bomb chances reweighed once here, not at every attack).
    let as_is = near_cap(view);
    let unseen: Vec<(Square, Chances)> = if belief.has_hidden() {
        belief
            .marginals()
            .into_iter()
            .filter_map(|(sq, p)| {
                let sq = sq?;
                Some((
                    sq,
                    if as_is {
                        [p.map(|x| x as f32); 2]
                    } else {
                        chance_weights(p)
                    },
                ))
            })
            .collect()
    } else {
        Vec::new()
    };
    // Threads share the worlds; each has its own tables and its share of a node limit.
    let threads = (limits.threads.max(1) as usize).min(n_worlds);
    let share = limits.nodes.map_or(u64::MAX, |n| n / threads as u64);
    let mut searchers: Vec<Searcher> = (0..threads)
        .map(|_| Searcher::new(stop, start, plan.hard, share))
        .collect();
    let repeats: Vec<(Move, usize)> = root
        .iter()
        .map(|&m| (m, view.repeats_after(m, REPEAT_WINDOW)))
        .collect();
    // What the enemy can tell of each of our unseen pieces, as the attacks it would make.
    let adv = view.rules().attacker_advantage;
    let exposed: Vec<(Square, [u16; 2])> = exposure
        .map(|e| {
            e.marginals()
                .into_iter()
                .filter_map(|(sq, p)| Some((sq?, exposed_masks(&p, adv))))
                .collect()
        })
        .unwrap_or_default();
    for s in searchers.iter_mut() {
        s.root_repeats.clone_from(&repeats);
        s.exposed_rows.clone_from(&exposed);
    }
    let nodes = |ss: &[Searcher]| ss.iter().map(|s| s.nodes).sum::<u64>();
    // Past `WIDE_DEPTH`, with hidden ranks and no depth asked for, the time goes to more
    // worlds at that depth, not to deeper searches of the same few.
    let widen = n_worlds > 1 && limits.depth.is_none() && !unlimited;
    let mut total: Option<Tally> = None;
    let mut depth = 0;
    loop {
        // With `MAX_WORLDS` worlds searched, deeper it goes again (on all of them).
        let deepen = !(widen && depth >= WIDE_DEPTH && worlds.len() < MAX_WORLDS);
        if deepen && depth >= max_depth {
            break;
        }
        if searchers[0].out_of_time() || (depth >= 1 && plan.soft.is_some_and(|t| elapsed() >= t)) {
            break;
        }
        if !deepen {
            let mut more = sample_worlds(belief, view, &mut rng, WORLDS);
            if more.is_empty() {
                break;
            }
            let Some(t) = run_batch(&mut searchers, &mut more, &root, depth, &unseen) else {
                break;
            };
            worlds.extend(more);
            let base = total.take().unwrap_or_else(|| Tally::new(root.len()));
            // Root moves keep their order between batches: the tallies line up.
            total = Some(base.merge(&t));
        } else {
            depth += 1;
            let Some(t) = run_batch(&mut searchers, &mut worlds, &root, depth, &unseen) else {
                break;
            };
            total = Some(t);
        }
        let t = total.as_ref().expect("a finished batch");
        let mut bi = 0;
        for i in 1..root.len() {
            if (t.sums[i], t.keys[i]) > (t.sums[bi], t.keys[bi]) {
                bi = i;
            }
        }
        if tracing::enabled!(tracing::Level::TRACE) {
            let n = worlds.len() as i64;
            let all: Vec<String> = (0..root.len())
                .map(|i| format!("{}:{}", root[i], t.sums[i] / n))
                .collect();
            tracing::trace!("depth {depth} worlds {n} root scores {}", all.join(" "));
        }
        result.best = Some(root[bi]);
        result.info = Info {
            depth,
            nodes: nodes(&searchers),
            time_ms: elapsed(),
            // A win (or loss) in every world is reported as the slowest one.
            score: if t.lo[bi] >= WIN_BOUND {
                t.lo[bi]
            } else if t.hi[bi] <= -WIN_BOUND {
                t.hi[bi]
            } else {
                (t.sums[bi] / worlds.len() as i64) as i32
            },
            pv: vec![root[bi]],
        };
        report(&result.info);
        if deepen {
            // The next iteration searches the best moves first (tighter bounds sooner); the
            // sort is stable, so ties keep their order.
            let order = t.ranked();
            root = order.iter().map(|&i| root[i]).collect();
            total = Some(t.permuted(&order));
        }
        // Every world agrees the game is decided: deeper search changes nothing.
        if result.info.score.abs() >= WIN_BOUND && plan.hard.is_none() && !limits.infinite {
            break;
        }
    }
    result.info.nodes = nodes(&searchers);
    result.info.time_ms = elapsed();
    result
}

/// A piece's root belief as the outcomes of an attack on it weigh them (`FLAG_TRUST`,
/// `BOMB_SLOPE`, `BOMB_SHIFT`): for any attacker but a Miner (index 0), and for a Miner
/// (index 1), which loses nothing to a Bomb.
type Chances = [[f32; NUM_RANKS]; 2];

/// `Chances` from the root belief `p` of one piece. The Bomb chance is raised the same for
/// both. For a Miner the raise comes from the movable ranks only and the Flag keeps its
/// chance: taken from the Flag too, a piece that can only be a Bomb or the Flag (late in a
/// game) went from 27% Flag to 0.3%, and against the UCC 2012 AI celsius our Miner stood
/// next to such pieces for 600 turns, 750 ahead, to a draw. For every other attacker the
/// raise comes from every other rank, the Flag too: kept for them as well, our Marshal
/// attacked pieces it gave a 29-53% Flag chance, and died on a Bomb in 10 of 80 games
/// against the UCC 2012 winner (1 of 80 before). Near a capped draw (`CAP_NEAR`) the
/// belief is used as it is instead.
fn chance_weights(p: [f64; NUM_RANKS]) -> Chances {
    let (b, f) = (Rank::Bomb.index(), Rank::Flag.index());
    let pb = p[b];
    let sharp = if pb > 0.0 && pb < 1.0 {
        (1.0 / (1.0 + (-(BOMB_SLOPE * (pb / (1.0 - pb)).ln() + BOMB_SHIFT)).exp())).max(pb)
    } else {
        pb
    };
    // Others: every other rank scaled to fill what the Bomb leaves.
    let mut others = p;
    if pb > 0.0 && pb < 1.0 {
        others.iter_mut().for_each(|x| *x *= (1.0 - sharp) / (1.0 - pb));
        others[b] = sharp;
    }
    // A Miner: from the movable ranks only.
    let mut miner = p;
    let rest = 1.0 - pb - p[f];
    if pb > 0.0 && rest > 1e-9 {
        let sharp = sharp.min(pb + rest);
        let scale = (rest - (sharp - pb)) / rest;
        for (r, x) in miner.iter_mut().enumerate() {
            if r != b && r != f {
                *x *= scale;
            }
        }
        miner[b] = sharp;
    }
    [others, miner].map(|q| {
        let mut w = q.map(|x| x as f32);
        w[f] *= FLAG_TRUST;
        w
    })
}

/// Up to `n` worlds drawn from `belief` (fewer when one cannot be drawn).
fn sample_worlds(belief: &Belief, view: &Position, rng: &mut StdRng, n: usize) -> Vec<Position> {
    (0..n).map_while(|_| belief.sample_position(view, rng)).collect()
}

/// Every root move searched at `depth` in each of `worlds`, the worlds shared out among
/// the searchers (one thread each); `None` if aborted.
fn run_batch(
    searchers: &mut [Searcher],
    worlds: &mut [Position],
    root: &[Move],
    depth: u32,
    unseen: &[(Square, Chances)],
) -> Option<Tally> {
    if searchers.len() == 1 {
        return searchers[0].tally(worlds, root, depth, unseen);
    }
    let per = worlds.len().div_ceil(searchers.len());
    let parts: Vec<Option<Tally>> = std::thread::scope(|sc| {
        let handles: Vec<_> = searchers
            .iter_mut()
            .zip(worlds.chunks_mut(per))
            .map(|(s, ws)| sc.spawn(move || s.tally(ws, root, depth, unseen)))
            .collect();
        handles.into_iter().map(|h| h.join().ok().flatten()).collect()
    });
    parts
        .into_iter()
        .try_fold(Tally::new(root.len()), |acc, p| p.map(|p| acc.merge(&p)))
}

/// Root-move scores summed over some worlds (clamped), with their extremes, and the sums of
/// their `loss_key`s (which break ties).
struct Tally {
    sums: Vec<i64>,
    keys: Vec<i64>,
    lo: Vec<i32>,
    hi: Vec<i32>,
}

impl Tally {
    fn new(n: usize) -> Tally {
        Tally {
            sums: vec![0; n],
            keys: vec![0; n],
            lo: vec![INF; n],
            hi: vec![-INF; n],
        }
    }

    /// Adds one world's root scores. A won or lost game counts `WIN_IN_AVERAGE`, or
    /// `WIN_BEYOND_BASE` beyond the world's static score `base` when that is more (so that
    /// far ahead, a win still beats every other score); every other score counts as it is.
    fn add(&mut self, scores: &[i32], keys: &[i64], base: i32) {
        let lo = (-WIN_IN_AVERAGE).min(base - WIN_BEYOND_BASE);
        let hi = WIN_IN_AVERAGE.max(base + WIN_BEYOND_BASE);
        for (i, &sc) in scores.iter().enumerate() {
            self.sums[i] += sc.clamp(lo, hi) as i64;
            self.keys[i] += keys[i];
            self.lo[i] = self.lo[i].min(sc);
            self.hi[i] = self.hi[i].max(sc);
        }
    }

    /// The root moves' indices, best first (by sum, then loss key; ties keep their order).
    fn ranked(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.sums.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse((self.sums[i], self.keys[i])));
        order
    }

    /// The tally of the root moves taken in `order` (indices into this one).
    fn permuted(&self, order: &[usize]) -> Tally {
        Tally {
            sums: order.iter().map(|&i| self.sums[i]).collect(),
            keys: order.iter().map(|&i| self.keys[i]).collect(),
            lo: order.iter().map(|&i| self.lo[i]).collect(),
            hi: order.iter().map(|&i| self.hi[i]).collect(),
        }
    }

    fn merge(mut self, o: &Tally) -> Tally {
        for i in 0..self.sums.len() {
            self.sums[i] += o.sums[i];
            self.keys[i] += o.keys[i];
            self.lo[i] = self.lo[i].min(o.lo[i]);
            self.hi[i] = self.hi[i].max(o.hi[i]);
        }
        self
    }
}

impl Searcher<'_> {
    /// Searches every root move in each of `worlds` at `depth`; `None` if aborted.
    fn tally(
        &mut self,
        worlds: &mut [Position],
        root: &[Move],
        depth: u32,
        unseen: &[(Square, Chances)],
    ) -> Option<Tally> {
        let mut t = Tally::new(root.len());
        let mut scores = vec![0i32; root.len()];
        let mut keys = vec![0i64; root.len()];
        for w in worlds.iter_mut() {
            self.new_world(w, unseen);
            if !self.root(w, root, depth, &mut scores, &mut keys) {
                return None;
            }
            t.add(&scores, &keys, self.world_eval);
        }
        Some(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Rules, Setup, Variant};
    use rand::Rng;

    #[test]
    fn far_ahead_the_average_still_tells_moves_apart() {
        // A world whose static score is 2300 (far ahead): ordinary scores above
        // `WIN_IN_AVERAGE` keep their order, a won game still counts most, a lost one least.
        let mut t = Tally::new(4);
        t.add(&[2400, 2500, WIN - 5, -WIN + 3], &[0; 4], 2300);
        let win = (2300 + WIN_BEYOND_BASE) as i64;
        assert_eq!(t.sums, vec![2400, 2500, win, -WIN_IN_AVERAGE as i64]);
        // Behind, the same for the loser.
        let mut t = Tally::new(3);
        t.add(&[-2400, WIN - 5, -WIN + 3], &[0; 3], -2300);
        assert_eq!(t.sums, vec![-2400, WIN_IN_AVERAGE as i64, -win]);
        // Near level, a won game counts `WIN_IN_AVERAGE`, however far ahead the world.
        let mut t = Tally::new(2);
        t.add(&[WIN - 5, -WIN + 3], &[0; 2], 400);
        assert_eq!(t.sums, vec![WIN_IN_AVERAGE as i64, -WIN_IN_AVERAGE as i64]);
    }

    fn random_views(name: &str, games: usize, seed: u64) -> Vec<Position> {
        let v = Variant::parse(name).unwrap();
        let (r, b) = v.sample_setups();
        let mut rng = StdRng::seed_from_u64(seed);
        let mut out = Vec::new();
        for _ in 0..games {
            let red = Setup::parse(&r, &v).unwrap();
            let blue = Setup::parse(&b, &v).unwrap();
            let mut pos = Position::from_setups(v, Rules::default(), &red, &blue).unwrap();
            for _ in 0..rng.gen_range(0..120) {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.game_end().is_some() {
                    break;
                }
                pos.make(moves[rng.gen_range(0..moves.len())]);
            }
            if pos.game_end().is_none() {
                out.push(pos.view(pos.side_to_move()));
            }
        }
        out
    }

    /// Two non-attacking moves of the side to move that touch four different squares.
    fn two_quiet_moves(pos: &Position) -> (Move, Move) {
        let quiet: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| pos.cells[m.to().index()] == EMPTY && m.rescue().is_none())
            .collect();
        let a = quiet[0];
        let apart = |m: &&Move| [m.from(), m.to()].iter().all(|s| *s != a.from() && *s != a.to());
        (a, *quiet.iter().find(apart).unwrap())
    }

    #[test]
    fn the_eval_key_tells_apart_what_a_static_score_reads() {
        let v = Variant::parse("classic").unwrap();
        let (r, b) = v.sample_setups();
        let (red, blue) = (Setup::parse(&r, &v).unwrap(), Setup::parse(&b, &v).unwrap());
        let start = Position::from_setups(v, Rules::default(), &red, &blue).unwrap();
        let key = |p: &Position| position_key(p, false);
        // The same squares and flags reached by two move orders: one key.
        let (a, c) = two_quiet_moves(&start);
        let mut after = start.clone();
        after.make(a);
        let (x, y) = two_quiet_moves(&after);
        let (mut one, mut two) = (start.clone(), start.clone());
        for m in [a, x, c, y] {
            one.make(m);
        }
        for m in [c, y, a, x] {
            two.make(m);
        }
        assert_eq!(one.cells, two.cells);
        assert_eq!(key(&one), key(&two));
        // A piece walked there and back stands where it stood, but has moved now.
        let mut back = start.clone();
        back.make(a);
        back.make(x);
        back.make(Move::new(a.to(), a.from()));
        back.make(Move::new(x.to(), x.from()));
        assert_eq!(back.cells, start.cells);
        assert_ne!(back.flags, start.flags);
        assert_ne!(key(&back), key(&start));
        // The side to move, and the searcher's boldness.
        let mut other = start.clone();
        other.side = other.side.flip();
        assert_ne!(key(&other), key(&start));
        assert_ne!(position_key(&start, true), key(&start));
        // A single piece's rank (a sampled world's guess) changes it too.
        let mut swapped = start.clone();
        let s = a.from().index();
        let t = (0..CELLS)
            .find(|&t| {
                Piece::from_cell(start.cells[t]).is_some_and(|p| p.color() == start.side)
                    && start.cells[t] != start.cells[s]
            })
            .unwrap();
        swapped.swap_ranks(s, t);
        assert_ne!(key(&swapped), key(&start));
    }

    fn go(view: &Position, limits: Limits, seed: u64) -> SearchResult {
        let stop = AtomicBool::new(false);
        think(view, &limits, Instant::now(), &stop, seed, &mut |_| {})
    }

    fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    #[test]
    fn legal_move_in_every_variant() {
        for name in ["classic", "compact", "duel", "duel-compact", "barrage"] {
            for view in random_views(name, 4, 9) {
                let r = go(&view, depth(2), 1);
                let best = r.best.expect("a move");
                assert!(view.is_legal(best), "{name}: {best} in {}", view.to_text());
                assert!(r.info.depth == 2 || view.legal_moves().len() == 1);
            }
        }
    }

    /// A classic position from text holding `pieces` (square, token such as `bF!`).
    fn classic(pieces: &[(&str, &str)], side: char, view: &str) -> Position {
        classic_at(pieces, side, view, "10 0 -/-")
    }

    /// `classic` with its plies, quiet plies and captured pieces (`<ply> <quiet> <red>/<blue>`).
    fn classic_at(pieces: &[(&str, &str)], side: char, view: &str, counters: &str) -> Position {
        let mut grid = vec![vec![".".to_string(); 10]; 10];
        for (r, row) in grid.iter_mut().enumerate() {
            for (f, cell) in row.iter_mut().enumerate() {
                if (r == 4 || r == 5) && matches!(f, 2 | 3 | 6 | 7) {
                    *cell = "~".into();
                }
            }
        }
        for (sq, tok) in pieces {
            let sq = crate::rules::Square::parse(sq).unwrap();
            grid[9 - sq.rank() as usize][sq.file() as usize] = tok.to_string();
        }
        let rows: Vec<String> = grid.iter().map(|r| r.concat()).collect();
        let text = format!("classic {view} {} {side} {counters} 0/0 -/- 0/0 -", rows.join("/"));
        Position::from_text(&text, Rules::default()).unwrap()
    }

    #[test]
    fn near_a_capped_draw_the_last_mover_takes_a_likely_flag() {
        // Blue has a seen Scout and three unmoved, unseen pieces on f10, g10 and h10: its
        // Flag and its last two Bombs. Red's seen General, its last mover, stands on g9,
        // beside g10 only. Attacking is a gamble: a Bomb there ends the game (Red has no
        // other mover). Early it waits; near the no-attack cap (200 quiet plies) the draw
        // is what waiting is worth, and it attacks if g10 is more likely the Flag.
        let at = |quiet: u32| {
            classic_at(
                &[
                    ("f10", "b?"),
                    ("g10", "b?"),
                    ("h10", "b?"),
                    ("a5", "b2'!"),
                    ("g9", "r9'!"),
                    ("a1", "rF"),
                    ("a2", "rB"),
                    ("b1", "rB"),
                ],
                'r',
                "r",
                &format!("300 {quiet} S222222223333344445555666677788MBBBB/S222222233333444455556666777889MBBBB"),
            )
        };
        // The belief: g10, between the other two, is likelier the Flag (about 60%).
        let play = |quiet: u32| {
            let view = at(quiet);
            let mut belief = Belief::from_view(&view);
            let g10 = Square::parse("g10").unwrap();
            let rows = belief
                .unknown_squares()
                .map(|sq| {
                    let mut w = [0.0; NUM_RANKS];
                    w[Rank::Bomb.index()] = 1.0;
                    w[Rank::Flag.index()] = if sq == g10 { 8.0 } else { 1.0 };
                    (crate::belief::ALL_RANKS, w)
                })
                .collect();
            belief.set_rows(rows);
            let p = belief
                .marginals()
                .into_iter()
                .find(|(sq, _)| *sq == Some(g10))
                .unwrap()
                .1;
            assert!((0.55..0.7).contains(&p[Rank::Flag.index()]), "{p:?}");
            let stop = AtomicBool::new(false);
            let r = think_with(&view, &belief, None, &depth(3), Instant::now(), &stop, 3, &mut |_| {});
            r.best.expect("a move").to_string()
        };
        assert_ne!(play(20), "g9g10");
        assert_eq!(play(185), "g9g10");
    }

    #[test]
    fn unseen_pieces_are_attacked_by_what_their_likely_ranks_cost() {
        // Blue's five unmoved unknown pieces are three Bombs, the Flag and a Sergeant
        // (everything else is captured). Red's known Marshal and its last Miner both touch
        // e4: the Marshal would win only 40% of the time and lose itself 60% of the time;
        // the Miner wins 80% (a Bomb or the Flag). Sampled worlds where e4 is the Flag or
        // the Sergeant made the Marshal's attack look good; the chance node does not. Of
        // the two attacks the Miner's is better; whether it beats waiting is not asked.
        let mut grid = vec![vec![".".to_string(); 10]; 10];
        for (r, row) in grid.iter_mut().enumerate() {
            for (f, cell) in row.iter_mut().enumerate() {
                if (r == 4 || r == 5) && matches!(f, 2 | 3 | 6 | 7) {
                    *cell = "~".into();
                }
            }
        }
        let put = |g: &mut Vec<Vec<String>>, sq: &str, tok: &str| {
            let sq = crate::rules::Square::parse(sq).unwrap();
            g[9 - sq.rank() as usize][sq.file() as usize] = tok.to_string();
        };
        for sq in ["e4", "a10", "b10", "c10", "d10"] {
            put(&mut grid, sq, "b?");
        }
        put(&mut grid, "j10", "b2'!");
        put(&mut grid, "a1", "rF");
        put(&mut grid, "a2", "rB");
        put(&mut grid, "b1", "rB");
        put(&mut grid, "e3", "rM'!");
        put(&mut grid, "f4", "r3'");
        let rows: Vec<String> = grid.iter().map(|r| r.concat()).collect();
        let red_lost = "BBBBS222222223333444455556666777889";
        let blue_lost = "BBBS22222223333344455556666777889M";
        let text = format!(
            "classic r {} r 10 0 {red_lost}/{blue_lost} 0/0 -/- 0/0 -",
            rows.join("/")
        );
        let view = Position::from_text(&text, Rules::default()).unwrap();
        let marshal = Move::parse("e3e4").unwrap();
        let miner = Move::parse("f4e4").unwrap();
        for d in 1..=3 {
            for seed in 1..=4 {
                let r = go(&view, depth(d), seed);
                assert_ne!(r.best, Some(marshal), "depth {d} seed {seed}");
                let both = Limits {
                    searchmoves: vec![marshal, miner],
                    ..depth(d)
                };
                assert_eq!(go(&view, both, seed).best, Some(miner), "depth {d} seed {seed}");
            }
        }
    }

    /// Red's seen Marshal on e3 either takes a seen Sergeant on e4, next to f4 (`f4`: an
    /// unseen Blue Sergeant, unmoved or moved), or steps back to e2: the two root scores at
    /// depth 2 when the belief gives f4 the chance `spy` of being the Spy (else a
    /// Sergeant), with or without Blue's seen Marshal on j7.
    fn take_or_step_back(f4: &str, blue_marshal: bool, spy: f32) -> [i32; 2] {
        let mut pieces = vec![
            ("e4", "b4'!"),
            ("f4", f4),
            ("a10", "bS"),
            ("j10", "bF"),
            ("i10", "bB"),
            ("e3", "rM'!"),
            ("a1", "rF"),
            ("a2", "rB"),
            ("b1", "rB"),
        ];
        if blue_marshal {
            pieces.push(("j7", "bM'!"));
        }
        let mut w = classic(&pieces, 'r', "full");
        let take = Move::parse("e3e4").unwrap();
        let back = Move::parse("e3e2").unwrap();
        let stop = AtomicBool::new(false);
        let mut p = [0f32; NUM_RANKS];
        p[Rank::Spy.index()] = spy;
        p[Rank::Sergeant.index()] = 1.0 - spy;
        let unseen = [(Square::parse("f4").unwrap(), [p; 2])];
        let mut s = Searcher::new(&stop, Instant::now(), None, u64::MAX);
        s.new_world(&w, &unseen);
        let mut scores = [0; 2];
        assert!(s.root(&mut w, &[take, back], 2, &mut scores, &mut [0; 2]));
        scores
    }

    /// Red's root scores (depth 2) for its seen General on e3 taking Blue's unseen,
    /// unmoved Sergeant on e4 and for stepping back, in the world where Blue's unseen
    /// unmoved piece on f4 (beside e4) is `f4` and the one on j7 is `j7`; the belief gives
    /// both a 40% Marshal, else a Lieutenant. Also the take's plain score (no ambush node).
    fn take_beside(f4: &str, j7: &str) -> ([i32; 2], i32) {
        let pieces = [
            ("e4", "b4"),
            ("f4", f4),
            ("j7", j7),
            ("a10", "bB"),
            ("j10", "bF"),
            ("i10", "bB"),
            ("e3", "r9'!"),
            ("a1", "rF"),
            ("a2", "rB"),
            ("b1", "rB"),
            ("j1", "r6"),
        ];
        let mut w = classic(&pieces, 'r', "full");
        let take = Move::parse("e3e4").unwrap();
        let back = Move::parse("e3e2").unwrap();
        let stop = AtomicBool::new(false);
        let mut p = [0f32; NUM_RANKS];
        p[Rank::Marshal.index()] = 0.4;
        p[Rank::Lieutenant.index()] = 0.6;
        let mut sergeant = [0f32; NUM_RANKS];
        sergeant[Rank::Sergeant.index()] = 1.0;
        let sq = |s: &str| Square::parse(s).unwrap();
        let unseen = [(sq("f4"), [p; 2]), (sq("j7"), [p; 2]), (sq("e4"), [sergeant; 2])];
        let mut s = Searcher::new(&stop, Instant::now(), None, u64::MAX);
        s.new_world(&w, &unseen);
        let mut scores = [0; 2];
        assert!(s.root(&mut w, &[take, back], 2, &mut scores, &mut [0; 2]));
        let plain = s.child(&mut w, take, 2, -INF, INF, 0);
        (scores, plain)
    }

    #[test]
    fn a_top_piece_beside_unseen_pieces_weighs_their_ambush_by_the_belief() {
        // Whether this world put the Marshal beside the square the General takes or far
        // away, the take scores the same: both outcomes are played out in either world,
        // weighed 40:60. Without the ambush node the two worlds score it far apart.
        let (marshal_there, plain_there) = take_beside("bM", "b5");
        let (marshal_away, plain_away) = take_beside("b5", "bM");
        assert_eq!(marshal_there[0], marshal_away[0]);
        assert!(plain_away - plain_there > 200, "{plain_there} {plain_away}");
        assert!(marshal_there[0] < plain_away && marshal_there[0] > plain_there);
        // Where the Marshal is away, the world alone would take; weighed, it steps back.
        assert!(plain_away > marshal_away[1], "{plain_away} {marshal_away:?}");
        assert!(marshal_away[0] < marshal_away[1], "{marshal_away:?}");
    }

    /// Red's root scores for its unseen Lieutenant taking a seen Sergeant and for its unseen
    /// Spy stepping away from a seen Scout next to it, at depth 2 (`blind`: the enemy's
    /// attacks at bad odds left out).
    fn take_or_save_the_spy(blind: bool) -> [i32; 2] {
        take_or_save_the_spy_seen_as(blind, None)
    }

    /// The same, with what the enemy can tell of our Spy (`seen_as`: the chance of each of
    /// our ranks), if given.
    fn take_or_save_the_spy_seen_as(blind: bool, seen_as: Option<[f64; NUM_RANKS]>) -> [i32; 2] {
        let pieces = [
            ("a5", "b4'!"),
            ("e5", "b2'!"),
            ("j10", "bF"),
            ("i10", "bB"),
            ("j8", "bM'!"),
            ("a4", "r5'"),
            ("e4", "rS'"),
            ("h2", "r6'"),
            ("i2", "r7'"),
            ("j2", "r8'"),
            ("j1", "rM"),
            ("a1", "rF"),
            ("a2", "rB"),
            ("b1", "rB"),
        ];
        let mut w = classic(&pieces, 'r', "full");
        let take = Move::parse("a4a5").unwrap();
        let flee = Move::parse("e4d4").unwrap();
        let stop = AtomicBool::new(false);
        let mut s = Searcher::new(&stop, Instant::now(), None, u64::MAX);
        if let Some(p) = seen_as {
            s.exposed_rows = vec![(Square::parse("e4").unwrap(), exposed_masks(&p, false))];
        }
        s.new_world(&w, &[]);
        if !blind {
            s.blind.fill([0; 2]);
        }
        let mut scores = [0; 2];
        assert!(s.root(&mut w, &[take, flee], 2, &mut scores, &mut [0; 2]));
        scores
    }

    #[test]
    fn the_enemy_does_not_take_our_unseen_pieces_at_bad_odds() {
        // In every world the enemy's Scout sees that our unseen piece beside it is the Spy.
        // No opponent does: to it that piece is any of our five unseen movers, and a Scout
        // loses to four of them. So our Lieutenant takes the Sergeant and the Spy stays.
        let [take, flee] = take_or_save_the_spy(true);
        assert!(take > flee, "take {take}, flee {flee}");
        let [take, flee] = take_or_save_the_spy(false);
        assert!(take < flee, "without: take {take}, flee {flee}");
    }

    #[test]
    fn the_enemy_takes_our_unseen_pieces_by_what_it_can_tell_of_them() {
        // As above, but the enemy's odds come from what it can tell of that one piece. Told
        // nine in ten that it is our Spy, its Scout takes it: the Spy flees. Told one in
        // ten (a Major else), it leaves it: our Lieutenant takes the Sergeant.
        let seen_as = |spy: f64| {
            let mut p = [0.0; NUM_RANKS];
            p[Rank::Spy.index()] = spy;
            p[Rank::Major.index()] = 1.0 - spy;
            Some(p)
        };
        let [take, flee] = take_or_save_the_spy_seen_as(true, seen_as(0.9));
        assert!(take < flee, "seen as a Spy: take {take}, flee {flee}");
        let [take, flee] = take_or_save_the_spy_seen_as(true, seen_as(0.1));
        assert!(take > flee, "seen as a Major: take {take}, flee {flee}");
    }

    #[test]
    fn a_miner_beside_a_bomb_that_closes_in_our_flag_is_feared() {
        // Blue's seen Miner, its last, can take its way through Red's unseen Bombs to the
        // Flag unless a Red piece takes it on the way: the unmoved Sergeant beside the Bomb
        // it would take first stands there, and should stay. Stepping up to take the Miner
        // next loses the Flag. By the odds Blue could read from Red's unseen pieces a Miner
        // would not attack those Bombs, but the Bombs around a Flag are read as such
        // (against Demon of Ignorance 12 of 21 Flags lost were taken the move after a Miner
        // took the Bomb beside them). Two cases: the Flag on d1 behind Bombs on c1, e1 and
        // d2, the Miner on d3 beside d2, the Sergeant on e2; the Flag in the a1 corner behind
        // Bombs on b1 and a2, with a3 on top, the Miner on a4 beside a3 (two steps from the
        // Flag), the Sergeant on b3.
        let cases = [
            (
                &[
                    ("d1", "rF"),
                    ("c1", "rB"),
                    ("e1", "rB"),
                    ("d2", "rB"),
                    ("e2", "r4"),
                    ("d3", "b3'!"),
                ],
                "e2e3",
            ),
            (
                &[
                    ("a1", "rF"),
                    ("b1", "rB"),
                    ("a2", "rB"),
                    ("a3", "rB"),
                    ("b3", "r4"),
                    ("a4", "b3'!"),
                ],
                "b3b4",
            ),
        ];
        for (near, lost) in cases {
            let mut pieces = near.to_vec();
            pieces.extend([
                ("h1", "rM"),
                ("i1", "r9"),
                ("j1", "r8"),
                ("a10", "b?"),
                ("b10", "b?"),
                ("c10", "b?"),
                ("j10", "b?"),
            ]);
            let view = classic_at(
                &pieces,
                'r',
                "r",
                "100 1 S2222222233333444555566667778BBB/S222222223333444455556666777889BBBB",
            );
            for seed in 1..4 {
                let best = go(&view, depth(4), seed).best.expect("a move").to_string();
                assert_ne!(best, lost, "seed {seed}");
            }
        }
    }

    #[test]
    fn exposed_masks_weigh_the_enemys_odds_piece_by_piece() {
        // A piece the enemy takes for a Bomb half the time: only its Miner gains by an
        // attack, yet should the piece move, every rank above a Sergeant takes it.
        let mut p = [0.0; NUM_RANKS];
        p[Rank::Bomb.index()] = 0.5;
        p[Rank::Scout.index()] = 0.5;
        let [still, moved] = exposed_masks(&p, false);
        let blind = |m: u16, r: Rank| m & (1 << r.index()) != 0;
        assert!(!blind(still, Rank::Miner) && blind(still, Rank::Major) && blind(still, Rank::Marshal));
        assert!(!blind(moved, Rank::Major) && !blind(moved, Rank::Miner) && blind(moved, Rank::Spy));
    }

    #[test]
    fn a_stale_game_is_broken_by_an_attack() {
        // Blue's Flag on b10 has been seen, with three unseen Bombs around it; two more
        // unseen, unmoved pieces on e8 and j8 are a Bomb and a Sergeant (all else
        // captured). Red, ahead, has a Captain, a Miner and three Scouts; the one on j1
        // could probe j8 and would lose itself either way. After a few plies without an attack
        // Red does not; after 190 it does.
        let pieces = [
            ("a10", "bB"),
            ("b10", "bF!"),
            ("c10", "bB"),
            ("b9", "bB"),
            ("e8", "b4"),
            ("j8", "bB"),
            ("e2", "r6'!"),
            ("f2", "r3'"),
            ("a1", "rF"),
            ("a2", "rB"),
            ("b1", "rB"),
            ("h1", "r2"),
            ("i1", "r2"),
            ("j1", "r2"),
        ];
        let red_lost = "BBBBS2222233334444555566677788 9M".replace(' ', "");
        let blue_lost = "BBS22222222333334445555666677788 9M".replace(' ', "");
        let attacks = |quiet: u32| {
            let counters = format!("300 {quiet} {red_lost}/{blue_lost}");
            let view = classic_at(&pieces, 'r', "r", &counters);
            (1..=4)
                .filter(|&seed| {
                    let best = go(&view, depth(2), seed).best.expect("a move");
                    view.cells[best.to().index()] != EMPTY
                })
                .count()
        };
        assert_eq!(attacks(10), 0, "a fresh game");
        assert_eq!(attacks(190), 4, "a stale game");
    }

    /// `repeat_cost_of` root move `m` in `pos`, its repeats counted in `pos`.
    fn repeat_cost(pos: &Position, m: Move, score: i32) -> i32 {
        repeat_cost_of(pos.quiet_plies(), pos.repeats_after(m, REPEAT_WINDOW), score)
    }

    /// `classic` without the repetition rules (as in the UCC 2012 manager).
    fn classic_unruled(pieces: &[(&str, &str)], side: char, view: &str) -> Position {
        let mut pos = classic(pieces, side, view);
        pos.set_rules(Rules {
            two_squares: None,
            more_squares: false,
            ..Rules::default()
        });
        pos
    }

    /// Red's Colonel on e4 and Blue's on e9, both Flags in corners, without the
    /// repetition rules.
    fn two_colonels() -> Position {
        classic_unruled(&[("a1", "rF"), ("e4", "r8"), ("a10", "bF"), ("e9", "b8")], 'r', "full")
    }

    #[test]
    fn a_move_costs_more_the_more_often_its_placement_stood() {
        let mut pos = two_colonels();
        let mv = |s: &str| Move::parse(s).unwrap();
        // Red's Colonel goes round e4, f4, g4, f4 while Blue's goes round e9, f9.
        let ours = ["e4f4", "f4g4", "g4f4", "f4e4"];
        let theirs = ["e9f9", "f9e9"];
        let mut costs = Vec::new();
        for i in 0..12 {
            costs.push(repeat_cost(&pos, mv(ours[i % 4]), 0));
            pos.make(mv(ours[i % 4]));
            pos.make(mv(theirs[i % 2]));
        }
        // Red's moves to f4 (every second one) make Red f4, Blue e9, which stood after each
        // of them before; the moves to g4 and e4 repeat once every four moves.
        let s = REPEAT_STEP;
        assert_eq!(costs, [0, 0, s, 0, 2 * s, s, 3 * s, s, 4 * s, 2 * s, 5 * s, 2 * s]);
        assert_eq!(repeat_cost(&pos, mv("e4e5"), 0), 0, "a new square");
        for i in 12..60 {
            pos.make(mv(ours[i % 4]));
            pos.make(mv(theirs[i % 2]));
        }
        // Even, a side pays up to about a General to break the cycle; behind, less.
        assert_eq!(repeat_cost(&pos, mv("e4f4"), 0), REPEAT_CAP_EVEN);
        assert_eq!(repeat_cost(&pos, mv("e4f4"), -REPEAT_BEHIND - 1), REPEAT_CAP);
        // Locked (no attack for `LOCK_FROM` plies), a side far ahead pays up to half its
        // lead; one not that far ahead, as before.
        assert!(pos.quiet_plies() >= LOCK_FROM);
        assert_eq!(repeat_cost(&pos, mv("e4f4"), 1000), 500);
        assert_eq!(repeat_cost(&pos, mv("e4f4"), 2 * REPEAT_CAP_EVEN), REPEAT_CAP_EVEN);
        assert_eq!(repeat_cost(&pos, mv("e4e5"), 1000), 0, "a new square");
    }

    #[test]
    fn with_hidden_ranks_a_root_move_still_pays_for_the_placements_it_repeats() {
        // Red's seen General on e4 faces Blue's seen Marshal on e6; Red's unseen Captain
        // steps j2-j3 and back while Blue's seen Captain steps j9-j8 and back, 1 or 6
        // times (no repetition rules). Blue's unseen a10 and b10 are its Flag and last Bomb
        // (everything else is captured), so every world scores the same material. Stepping to j3 again repeats
        // a placement once or six times; the other move searched, the General's step to e5
        // beside the Marshal, loses it. At depth 1 the step's score drops by the cost of
        // five more repeats. Sampled worlds are built from the view's text, which keeps
        // only the last moves: counted in the world, every repeat was free, and against
        // the UCC 2012 AI hunter our Marshal stepped between two squares for 870 turns.
        let mut start = classic_at(
            &[
                ("a1", "rF"),
                ("a2", "rB"),
                ("b1", "rB"),
                ("e4", "r9'!"),
                ("j2", "r6"),
                ("e6", "bM'!"),
                ("j9", "b6'!"),
                ("a10", "b?"),
                ("b10", "b?"),
            ],
            'r',
            "r",
            "10 0 S22222222333334444555566677788MBBBB/S222222223333344445555666777889BBBBB",
        );
        start.set_rules(Rules {
            two_squares: None,
            more_squares: false,
            ..Rules::default()
        });
        let mv = |s: &str| Move::parse(s).unwrap();
        let score = |cycles: usize| {
            let mut view = start.clone();
            for _ in 0..cycles {
                for m in ["j2j3", "j9j8", "j3j2", "j8j9"] {
                    view.make(mv(m));
                }
            }
            assert_eq!(view.repeats_after(mv("j2j3"), REPEAT_WINDOW), cycles);
            let two = Limits {
                searchmoves: vec![mv("j2j3"), mv("e4e5")],
                ..depth(1)
            };
            let r = go(&view, two, 1);
            assert_eq!(r.best, Some(mv("j2j3")));
            r.info.score
        };
        assert_eq!(score(1) - score(6), 5 * REPEAT_STEP);
    }

    #[test]
    fn where_every_move_loses_a_repeat_still_loses_later_than_a_trade_of_the_last_mover() {
        // Red's last mover, its Marshal, has shuffled between a9 and b9 beside Blue's
        // Marshal (a10, b10); a Red Bomb closes a8. Blue's Scout on e8 reaches e2 in one
        // move and takes Red's Flag on e1 (Bombs on d1 and f1) in the next: every move of
        // Red's loses. The shuffle loses at the fourth ply, the trade of Marshals at once
        // (Red is left with nothing to move): the shuffle, a repeat, is still the later loss.
        let mut pos = classic_unruled(
            &[
                ("e1", "rF"),
                ("d1", "rB"),
                ("f1", "rB"),
                ("a8", "rB"),
                ("a9", "rM'!"),
                ("a10", "bM'!"),
                ("e8", "b2'!"),
                ("j10", "bF"),
            ],
            'r',
            "full",
        );
        let mv = |s: &str| Move::parse(s).unwrap();
        for _ in 0..4 {
            for m in ["a9b9", "a10b10", "b9a9", "b10a10"] {
                pos.make(mv(m));
            }
        }
        assert!(repeat_cost(&pos, mv("a9b9"), 0) > 0);
        let r = go(&pos, depth(4), 1);
        assert!(r.info.score <= -WIN_BOUND, "every move loses: {}", r.info.score);
        assert_eq!(r.best, Some(mv("a9b9")));
    }

    #[test]
    fn locked_and_far_ahead_the_fourth_repeat_costs_half_the_lead() {
        let mut pos = two_colonels();
        let mv = |s: &str| Move::parse(s).unwrap();
        // Both sides walk to and fro for LOCK_FROM plies without an attack: Red's Colonel
        // between a4 and j4 (starting towards a4), Blue's between a9 and j9 (starting
        // towards j9). Then Red's step one file towards a4 (to b4 from a4) makes a
        // placement that stood one to three times before: each time costs an eighth of
        // the lead when 1000 ahead, `REPEAT_STEP` when even.
        let (mut f, mut df) = (4i32, -1i32);
        let (mut g, mut dg) = (4i32, 1i32);
        let sq = |file: i32, rank: char| format!("{}{}", (b'a' + file as u8) as char, rank);
        while pos.quiet_plies() < LOCK_FROM {
            if !(0..=9).contains(&(f + df)) {
                df = -df;
            }
            pos.make(mv(&(sq(f, '4') + &sq(f + df, '4'))));
            f += df;
            if !(0..=9).contains(&(g + dg)) {
                dg = -dg;
            }
            pos.make(mv(&(sq(g, '9') + &sq(g + dg, '9'))));
            g += dg;
        }
        let back = mv(&(sq(f, '4') + &sq(f + if f > 0 { -1 } else { 1 }, '4')));
        let n = pos.repeats_after(back, REPEAT_WINDOW) as i32;
        assert!((1..4).contains(&n), "{n} repeats");
        assert_eq!(repeat_cost(&pos, back, 1000), n * 125);
        assert_eq!(repeat_cost(&pos, back, 0), n * REPEAT_STEP);
    }

    #[test]
    fn a_seen_marshal_fears_the_spy_next_to_it_in_every_world() {
        // In this world the unmoved f4 is a Sergeant too; the belief gives it half a chance
        // of being the Spy. The capture is worth it only if that chance is not counted.
        let [t, b] = take_or_step_back("b4", false, 0.5);
        assert!(t < b, "capture {t}, step back {b}");
        // With no Spy chance the capture is good.
        let [t, b] = take_or_step_back("b4", false, 0.0);
        assert!(t > b, "no Spy chance: capture {t}, step back {b}");
    }

    #[test]
    fn an_unmoved_neighbour_of_the_seen_marshal_is_feared_as_a_spy_at_least_somewhat() {
        // With Blue's Marshal alive, the belief gives f4 a 2% chance of being the Spy: taken
        // at its word, the Sergeant on e4 is worth it. Unmoved, f4 counts SPY_FLOOR and the
        // Marshal stays back; once f4 has moved, the belief stands.
        let [t, b] = take_or_step_back("b4", true, 0.02);
        assert!(t < b, "unmoved f4: capture {t}, step back {b}");
        let [t, b] = take_or_step_back("b4'", true, 0.02);
        assert!(t > b, "f4 has moved: capture {t}, step back {b}");
    }

    /// Equal results, the time aside.
    fn same(a: &SearchResult, b: &SearchResult) {
        assert_eq!(
            (a.best, a.info.depth, a.info.nodes, a.info.score),
            (b.best, b.info.depth, b.info.nodes, b.info.score)
        );
        assert_eq!(a.info.pv, b.info.pv);
    }

    #[test]
    fn bomb_chances_are_sharpened_around_a_quarter() {
        let with = |pb: f64| {
            let mut p = [0.0; NUM_RANKS];
            p[Rank::Bomb.index()] = pb;
            p[Rank::Sergeant.index()] = (1.0 - pb) / 2.0;
            p[Rank::Flag.index()] = (1.0 - pb) / 2.0;
            chance_weights(p)
        };
        let (b, f, s) = (Rank::Bomb.index(), Rank::Flag.index(), Rank::Sergeant.index());
        for k in 0..2 {
            // Below about a quarter the belief's chance stands (never lowered).
            assert!((with(0.15)[k][b] - 0.15).abs() < 1e-6, "{:?}", with(0.15));
            assert!((with(0.25)[k][b] - 0.29).abs() < 0.02, "{:?}", with(0.25));
            assert!((with(0.35)[k][b] - 0.63).abs() < 0.02, "{:?}", with(0.35));
        }
        // For any attacker but a Miner the other ranks keep their proportions and fill the
        // rest; the Flag is then trusted at `FLAG_TRUST`.
        let w = with(0.35)[0];
        assert!(
            (w[f] / w[s] - FLAG_TRUST).abs() < 1e-4 && (w[b] + w[s] * 2.0 - 1.0).abs() < 1e-4,
            "{w:?}"
        );
        // For a Miner the raise comes from the movable ranks: the Flag keeps its chance.
        let w = with(0.35)[1];
        assert!((w[f] - 0.325 * FLAG_TRUST).abs() < 1e-4, "{w:?}");
        assert!((w[b] + w[s] + 0.325 - 1.0).abs() < 1e-4, "{w:?}");
        // A piece that can only be a Bomb or the Flag: a Miner sees its chances as they are,
        // any other attacker a raised Bomb chance.
        let mut p = [0.0; NUM_RANKS];
        p[b] = 0.73;
        p[f] = 0.27;
        let [other, miner] = chance_weights(p);
        assert!(
            (miner[b] - 0.73).abs() < 1e-6 && (miner[f] - 0.27 * FLAG_TRUST).abs() < 1e-6,
            "{miner:?}"
        );
        assert!(other[b] > 0.99 && other[f] < 0.01, "{other:?}");
        // No Bomb chance, nothing to sharpen (a piece that has moved).
        let mut p = [0.0; NUM_RANKS];
        p[Rank::Scout.index()] = 1.0;
        assert_eq!(chance_weights(p), [p.map(|x| x as f32); 2]);
    }

    #[test]
    fn takes_a_free_flag() {
        // Blue's Flag is known and next to a red Scout.
        let view = classic(
            &[
                ("a10", "bB"),
                ("d10", "bF!"),
                ("d9", "r2'"),
                ("g4", "b?'"),
                ("a1", "rF"),
                ("j1", "r4'"),
            ],
            'r',
            "r",
        );
        let flag = Move::parse("d9d10").unwrap();
        for d in 1..=3 {
            let r = go(&view, depth(d), 3);
            assert_eq!(r.best, Some(flag), "depth {d}");
            assert!(r.info.score >= WIN_BOUND);
        }
    }

    #[test]
    fn where_every_move_loses_a_stopper_still_comes() {
        // Blue's seen Miner on b1 blew the Bomb beside Red's Flag on a1 and takes it next,
        // whatever Red does: every move loses in every world. Red's Major on f1 is the
        // nearest piece that would take the Miner; it walks towards it (the enemy may not
        // know which of Red's pieces is the Flag). Blue's seen Marshal guards Blue's Flag.
        let view = classic(
            &[
                ("a1", "rF"),
                ("a2", "rB"),
                ("b1", "b3'!"),
                ("f1", "r7'"),
                ("j4", "r4'"),
                ("i9", "b10'!"),
                ("j10", "b?"),
                ("h10", "b?"),
            ],
            'r',
            "r",
        );
        for d in 1..=3 {
            let r = go(&view, depth(d), 3);
            assert!(r.info.score <= -WIN_BOUND, "depth {d}: {}", r.info.score);
            assert_eq!(r.best.map(|m| m.to_string()), Some("f1e1".to_string()), "depth {d}");
        }
    }

    #[test]
    fn a_move_that_may_not_lose_outranks_a_sure_loss_in_a_tie() {
        // Two worlds, two root moves. Move 0 loses in the first world and is far behind
        // but alive in the second; move 1 loses in both, the second time later. Clamped,
        // both sum to two losses: the tie goes to the move that does not lose everywhere.
        // Among losses, the later one, then the better score after the move.
        let key = |s: i32, after: i32| {
            if s <= -WIN_BOUND {
                loss_key(s, after)
            } else {
                NO_LOSS_KEY
            }
        };
        let mut t = Tally::new(2);
        t.add(&[-WIN + 3, -WIN + 3], &[key(-WIN + 3, -50), key(-WIN + 3, -50)], 0);
        t.add(&[-2_600, -WIN + 9], &[key(-2_600, -900), key(-WIN + 9, 400)], 0);
        assert_eq!(t.sums[0], t.sums[1]);
        assert!(t.keys[0] > t.keys[1]);
        // Summed over 512 worlds, one ply later in one world outweighs the best score after
        // the move in all of them against the worst.
        let a = 511 * loss_key(-WIN + 3, -5_000) + loss_key(-WIN + 4, -5_000);
        let b = 512 * loss_key(-WIN + 3, 5_000);
        assert!(a > b);
        assert!(loss_key(-WIN + 5, 0) > loss_key(-WIN + 5, -1));
    }

    #[test]
    fn a_miner_takes_the_last_unmoved_pieces_rather_than_wait_beside_them() {
        // Blue has only a seen Scout, and its Flag and three Bombs, unmoved and unseen on
        // f10, i10, j10 and j9. Red's seen Miner stands beside f10, its seen General beside i10 and j9 and
        // its Colonel beside j10's other Bomb. Waiting beside them wins nothing: the Miner
        // takes f10 (a Bomb or the Flag, both its own).
        let view = classic_at(
            &[
                ("f10", "b?"),
                ("i10", "b?"),
                ("j10", "b?"),
                ("j9", "b?"),
                ("e10", "r3'!"),
                ("i9", "r9'!"),
                ("h10", "r8'!"),
                ("a1", "rF"),
                ("a2", "rB"),
                ("b1", "rB"),
                ("e5", "b2'!"),
            ],
            'r',
            "r",
            "60 0 S222222223333444455556666777M8BBBB/S222222233333444455556666777889MBBB",
        );
        for d in 1..=3 {
            let r = go(&view, depth(d), 3);
            let m = r.best.expect("a move").to_string();
            assert!(
                ["e10f10", "i9i10", "i9j9", "h10i10"].contains(&m.as_str()),
                "depth {d}: {m}"
            );
        }
    }

    #[test]
    fn does_not_attack_a_known_stronger_piece() {
        // A red Sergeant faces a revealed blue General; stepping aside beats attacking.
        let view = classic(
            &[
                ("a10", "b?"),
                ("j10", "b?"),
                ("e6", "b9'!"),
                ("e5", "r4'"),
                ("a1", "rF"),
                ("b1", "rB"),
            ],
            'r',
            "r",
        );
        let attack = Move::parse("e5e6").unwrap();
        for d in 1..=3 {
            let r = go(&view, depth(d), 3);
            assert_ne!(r.best, Some(attack), "depth {d}");
            assert!(view.is_legal(r.best.unwrap()));
        }
    }

    #[test]
    fn no_legal_move_means_none() {
        let view = classic(&[("a10", "b?"), ("a2", "rB"), ("a1", "rF"), ("b1", "rB")], 'r', "r");
        let r = go(&view, depth(3), 1);
        assert_eq!(r.best, None);
    }

    #[test]
    fn movetime_is_used_and_honoured() {
        let view = &random_views("classic", 1, 8)[0];
        let t = Instant::now();
        let stop = AtomicBool::new(false);
        let lim = Limits {
            movetime_ms: Some(120),
            move_overhead_ms: 20,
            ..Limits::default()
        };
        let r = think(view, &lim, t, &stop, 1, &mut |_| {});
        let ms = t.elapsed().as_millis();
        assert!((95..200).contains(&ms), "{ms} ms");
        assert!(view.is_legal(r.best.unwrap()));
    }

    #[test]
    fn past_the_wide_depth_a_budget_buys_worlds_not_depth() {
        let view = &random_views("classic", 1, 12)[0];
        let stop = AtomicBool::new(false);
        let lim = Limits {
            nodes: Some(1_000_000),
            ..Limits::default()
        };
        let mut seen = Vec::new();
        let r = think(view, &lim, Instant::now(), &stop, 3, &mut |i| seen.push(i.depth));
        // Depths 1..=WIDE_DEPTH once each, then batches of worlds at WIDE_DEPTH.
        let wide = seen.iter().filter(|&&d| d == WIDE_DEPTH).count();
        assert!(seen.iter().all(|&d| d <= WIDE_DEPTH), "{seen:?}");
        assert!(wide >= 3, "{seen:?}");
        assert_eq!(r.info.depth, WIDE_DEPTH);
        // An explicit depth is still searched to.
        let d = go(view, depth(WIDE_DEPTH + 1), 3);
        assert_eq!(d.info.depth, WIDE_DEPTH + 1);
    }

    #[test]
    fn determinism_and_node_limit() {
        for view in random_views("classic", 3, 21) {
            let a = go(&view, depth(3), 5);
            let b = go(&view, depth(3), 5);
            same(&a, &b);
            let lim = Limits {
                nodes: Some(5_000),
                ..Limits::default()
            };
            let c = go(&view, lim.clone(), 5);
            let d = go(&view, lim, 5);
            same(&c, &d);
            assert!(c.info.nodes <= 5_000, "{}", c.info.nodes);
            assert!(view.is_legal(c.best.unwrap()));
        }
    }

    #[test]
    fn two_threads_agree_with_one() {
        // Root moves get exact scores in every world, so splitting the worlds among
        // threads changes the node count but neither the move nor the score.
        for view in random_views("classic", 3, 33) {
            let one = go(&view, depth(3), 7);
            let two = go(&view, Limits { threads: 2, ..depth(3) }, 7);
            assert_eq!(
                (one.best, one.info.score, one.info.depth),
                (two.best, two.info.score, two.info.depth)
            );
            let lim = Limits {
                nodes: Some(20_000),
                threads: 2,
                ..Limits::default()
            };
            let (a, b) = (go(&view, lim.clone(), 7), go(&view, lim, 7));
            same(&a, &b);
            assert!(a.info.nodes <= 20_000, "{}", a.info.nodes);
        }
    }

    #[test]
    fn stop_before_the_call() {
        let view = &random_views("classic", 1, 4)[0];
        let stop = AtomicBool::new(true);
        let t = Instant::now();
        let r = think(view, &Limits::default(), t, &stop, 1, &mut |_| {});
        assert!(t.elapsed() < Duration::from_millis(100));
        assert!(view.is_legal(r.best.unwrap()));
    }
}
