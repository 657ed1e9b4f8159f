//! Static evaluation of a full-information position, from the side to move's point of view.
//!
//! Units: a Captain is worth 100. Material uses Stratego piece values that change with the
//! game (Miners while enemy Bombs remain, the Spy while the enemy Marshal lives), plus a
//! bonus for every own piece whose rank the opponent has not seen.

use super::params::*;
use crate::rules::piece::{resolve_combat, EMPTY, RANK_MASK, WALL};
use crate::rules::position::{bit, MOVED, REVEALED};
use crate::rules::square::{CELLS, DIRS, STRIDE};
use crate::rules::{Color, Combat, Piece, Position, Rank};

/// Score of a won game (minus the plies it takes, so faster wins score higher).
pub const WIN: i32 = 30_000;

/// Scores at least this large (in absolute value) announce a won or lost game.
pub const WIN_BOUND: i32 = WIN - 1_000;

/// Base piece values by `Rank::index()` (Flag .. Bomb, then Unknown).
pub const VALUES: [i32; 13] = [
    1000, // Flag
    100,  // Spy
    30,   // Scout
    60,   // Miner
    40,   // Sergeant
    60,   // Lieutenant
    100,  // Captain
    150,  // Major
    200,  // Colonel
    300,  // General
    400,  // Marshal
    20,   // Bomb
    80,   // Unknown (never in a determinized position)
];

/// The value of a piece of `rank` for its owner, given what the enemy has left.
#[inline]
pub fn piece_value(pos: &Position, owner: Color, rank: Rank) -> i32 {
    let them = owner.flip();
    match rank {
        Rank::Miner if pos.count(them, Rank::Bomb) > 0 => {
            let n = pos.count(owner, Rank::Miner).max(1) as usize;
            miners_value(n) - miners_value(n - 1)
        }
        Rank::Spy if pos.count(them, Rank::Marshal) == 0 => SPY_WITHOUT_MARSHAL,
        r => VALUES[r.index()],
    }
}

/// What `n` Miners are worth together while the enemy has Bombs.
#[inline]
fn miners_value(n: usize) -> i32 {
    match MINERS_WITH_BOMBS.get(n) {
        Some(&v) => v,
        None => MINERS_WITH_BOMBS[5] + 60 * (n as i32 - 5),
    }
}

/// Mailbox square of a bitboard bit.
#[inline]
fn square_of(bits: u128) -> usize {
    bits.trailing_zeros() as usize + STRIDE
}

/// Row and file of every mailbox square.
const ROW_FILE: [(i8, i8); CELLS] = {
    let mut t = [(0i8, 0i8); CELLS];
    let mut sq = 0;
    while sq < CELLS {
        t[sq] = ((sq / STRIDE) as i8, (sq % STRIDE) as i8);
        sq += 1;
    }
    t
};

/// Manhattan distance between two mailbox squares.
#[inline]
fn dist(a: usize, b: usize) -> i32 {
    let ((ar, af), (br, bf)) = (ROW_FILE[a], ROW_FILE[b]);
    (ar as i32 - br as i32).abs() + (af as i32 - bf as i32).abs()
}

/// The four mailbox squares next to `sq` (walls included).
#[inline]
fn neighbours(sq: usize) -> impl Iterator<Item = usize> {
    DIRS.into_iter().map(move |d| (sq as isize + d as isize) as usize)
}

/// The square of `color`'s Flag, if it has one on the board.
#[inline]
pub(super) fn flag_square(pos: &Position, color: Color) -> Option<usize> {
    let c = color.index();
    let mut still = pos.bb[c][0] & !(pos.bb[c][1] | pos.bb[c][2]);
    let flag = Rank::Flag as u8;
    while still != 0 {
        let sq = square_of(still);
        still &= still - 1;
        if pos.cells[sq] & RANK_MASK == flag {
            return Some(sq);
        }
    }
    None
}

/// One step in every direction from the squares of `b` (bits that leave the board land on
/// walls, which callers mask out).
#[inline]
fn spread(b: u128) -> u128 {
    b | b << 1 | b >> 1 | b << STRIDE | b >> STRIDE
}

/// What a Flag's race needs to know of the board around it. An entry is a square beside
/// the Flag (in `DIRS` order); pieces walk around the Flag owner's Bombs and Flag and
/// around water, except an enemy Miner, which goes through Bombs (counted by Manhattan
/// distance). The maps change only when a Bomb of the owner's falls, so they are kept
/// between evaluations.
struct EntryMaps {
    /// The owner's Bombs and Flag, the walls, the Flag's square and the owner they were
    /// made for.
    key: (u128, u128, usize, usize),
    /// Per entry: 0 off the board or water, 1 open, 2 a Bomb of the owner's.
    kind: [u8; 4],
    /// Per square and entry, the steps a piece needs to stand on the entry or beside it
    /// (`u8::MAX`: no walk leads there).
    steps: [[u8; 4]; CELLS],
    /// Per square, the steps an enemy piece other than a Miner, and an enemy Miner, needs
    /// to take the Flag by its nearest entry.
    to_flag: [[u8; 2]; CELLS],
}

impl EntryMaps {
    fn new(pos: &Position, color: Color, still: u128, flag: usize) -> EntryMaps {
        let open = !pos.walls & !still;
        let bomb = Piece::new(color, Rank::Bomb).code();
        let mut m = EntryMaps {
            key: (still, pos.walls, flag, color.index()),
            kind: [0; 4],
            steps: [[u8::MAX; 4]; CELLS],
            to_flag: [[u8::MAX; 2]; CELLS],
        };
        for (k, e) in neighbours(flag).enumerate() {
            if pos.cells[e] == WALL {
                continue;
            }
            m.kind[k] = if pos.cells[e] == bomb { 2 } else { 1 };
            // A walk of n steps to the entry stands beside it after n - 1, and takes the
            // Flag after n + 1.
            m.steps[e][k] = 0;
            if m.kind[k] == 1 {
                m.to_flag[e][0] = 1;
            }
            let mut reached = bit(e);
            if m.kind[k] == 2 && spread(reached) & open == 0 {
                // A Bomb walled in by the owner's Bombs and Flag (a corner behind the Flag):
                // a Miner digs its way to it through the Bombs beside it, and a stopper
                // beside those stands in its way. Counted as unreachable, every Miner won
                // its race there and a whole game was played 1,200 points down.
                let bombs = still & !bit(flag);
                loop {
                    let grow = spread(reached) & bombs & !reached;
                    if grow == 0 {
                        break;
                    }
                    reached |= grow;
                }
            }
            let mut layer = 0u8;
            loop {
                let mut new = spread(reached) & open & !reached;
                if new == 0 {
                    break;
                }
                reached |= new;
                while new != 0 {
                    let sq = square_of(new);
                    new &= new - 1;
                    m.steps[sq][k] = layer;
                    if m.kind[k] == 1 {
                        m.to_flag[sq][0] = m.to_flag[sq][0].min(layer + 2);
                    }
                }
                layer += 1;
            }
            // A Miner goes through Bombs: Manhattan distance.
            let mut board = !pos.walls;
            while board != 0 {
                let sq = square_of(board);
                board &= board - 1;
                m.to_flag[sq][1] = m.to_flag[sq][1].min(dist(sq, e) as u8 + 1);
            }
        }
        m
    }

    /// The steps an enemy piece on `sq` needs to take the Flag through entry `k`, if it can.
    #[inline]
    fn take(&self, sq: usize, k: usize, miner: bool) -> Option<i32> {
        let e = (self.key.2 as isize + DIRS[k] as isize) as usize;
        match self.kind[k] {
            2 | 1 if miner => Some(dist(sq, e) + 1),
            1 if sq == e => Some(1),
            1 if self.steps[sq][k] < u8::MAX => Some(self.steps[sq][k] as i32 + 2),
            _ => None,
        }
    }
}

/// How many entry maps each thread keeps (a search meets its own Flag and one enemy Flag
/// per sampled world).
const ENTRY_SLOTS: usize = 128;

thread_local! {
    static ENTRY_MAPS: std::cell::RefCell<Vec<Option<Box<EntryMaps>>>> =
        std::cell::RefCell::new((0..ENTRY_SLOTS).map(|_| None).collect());
}

/// How threatened `color`'s Flag is by enemy pieces that could take it, more so by those
/// that win the race to it. The race is run per square next to the Flag (an entry): the
/// enemy piece needs its walk to the entry (taking what stands there: a Bomb only for a
/// Miner), and our piece able to stop it must by then stand on the entry or beside it
/// (walks counted exactly, from the kept maps). A stopper behind its own Bombs, or beside
/// the wrong side of the Flag, is no stopper; who moves next decides a tie. `own`: the
/// movable ranks the enemy hides (bit `Rank as u8`), when this is the searcher's own Flag
/// in a sampled world (`OWN_RACE_FACTOR`).
fn flag_danger(pos: &Position, color: Color, flag: usize, guessed: bool, own: Option<u16>) -> i32 {
    let c = color.index();
    let movers = pos.bb[c][1] | pos.bb[c][2];
    let still = pos.bb[c][0] & !movers;
    ENTRY_MAPS.with(|slots| {
        let mut slots = slots.borrow_mut();
        let key = (still, pos.walls, flag, color.index());
        let slot = ((still ^ still >> 64) as u64 ^ flag as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 57;
        let maps = match &mut slots[slot as usize % ENTRY_SLOTS] {
            Some(m) if m.key == key => m,
            Some(m) => {
                **m = EntryMaps::new(pos, color, still, flag);
                m
            }
            s => s.insert(Box::new(EntryMaps::new(pos, color, still, flag))),
        };
        race(pos, color, movers, maps, guessed, own)
    })
}

/// `flag_danger` with the Flag's maps at hand.
fn race(pos: &Position, color: Color, movers: u128, maps: &EntryMaps, guessed: bool, own: Option<u16>) -> i32 {
    const MARSHAL: usize = Rank::Marshal as usize;
    const MINER: usize = Rank::Miner as usize;
    const SPY: usize = Rank::Spy as usize;
    // The enemy's pieces that could take the Flag within reach: (square, rank, steps, raced
    // as a Miner instead of its rank). In a sampled world, while the enemy hides a Miner,
    // the searcher's own Flag also races each unseen enemy mover as one.
    let fear_miners = own.is_some_and(|hidden| hidden & 1 << MINER != 0);
    let mut intruders = [(0usize, 0usize, 0i32, false); 40];
    let mut n_in = 0;
    let mut bits = pos.bb[color.flip().index()][1] | pos.bb[color.flip().index()][2];
    while bits != 0 && n_in < intruders.len() {
        let sq = square_of(bits);
        bits &= bits - 1;
        let r = ((pos.cells[sq] & RANK_MASK) as usize).min(11);
        let d = maps.to_flag[sq][usize::from(r == MINER)] as i32;
        if d < RACE_DANGER.len() as i32 {
            intruders[n_in] = (sq, r, d, false);
            n_in += 1;
        }
        if fear_miners && r != MINER && pos.flags[sq] & REVEALED == 0 && n_in < intruders.len() {
            let d = maps.to_flag[sq][1] as i32;
            if d < RACE_DANGER.len() as i32 {
                intruders[n_in] = (sq, MINER, d, true);
                n_in += 1;
            }
        }
    }
    if n_in == 0 {
        return 0;
    }
    // Per entry, the steps our nearest stopper of each rank (suffix minimum: a piece stops
    // every enemy of its rank or lower; the Spy stops only the Marshal) needs to stand on
    // it or beside it.
    // (Kept as i32: bytes written one by one and read back four at once stall the CPU.)
    const NONE: i32 = u8::MAX as i32;
    let mut near = [[NONE; 4]; 12];
    let mut spy = [NONE; 4];
    let mut ours = movers;
    while ours != 0 {
        let sq = square_of(ours);
        ours &= ours - 1;
        let r = (pos.cells[sq] & RANK_MASK) as usize;
        let row = if r == SPY { &mut spy } else { &mut near[r.min(11)] };
        for (n, &s) in row.iter_mut().zip(&maps.steps[sq]) {
            *n = (*n).min(s as i32);
        }
    }
    for r in (0..11).rev() {
        let above = near[r + 1];
        for (n, s) in near[r].iter_mut().zip(above) {
            *n = (*n).min(s);
        }
    }
    for (n, s) in near[MARSHAL].iter_mut().zip(spy) {
        *n = (*n).min(s);
    }
    // Per rank, the slowest of our stoppers over the entries that rank may use (a Bomb's
    // square only a Miner): a piece at least that far from the Flag wins no race. An entry
    // none of our pieces can walk to is walled in by our Bombs, and only a Miner gets there.
    let mut usable = [[0i32; 4]; 2];
    for k in 0..4 {
        usable[0][k] = -i32::from(maps.kind[k] == 1 && near[0][k] < NONE);
        usable[1][k] = -i32::from(maps.kind[k] != 0);
    }
    let mut slowest = [0i32; 12];
    for (r, l) in slowest.iter_mut().enumerate() {
        let u = &usable[usize::from(r == MINER)];
        let row = &near[r];
        *l = (row[0] & u[0]).max(row[1] & u[1]).max(row[2] & u[2]).max(row[3] & u[3]);
    }
    let their_move = i32::from(pos.side_to_move() != color);
    let (mut danger, mut top, mut as_miner) = (0, 0, 0);
    // The square and weight of the last piece raced as its own rank.
    let mut own_rank = (usize::MAX, 0);
    for &(sq, r, to_flag, miner_too) in &intruders[..n_in] {
        // The nearest entry where the piece wins the race (by most), if it can win one.
        let mut race: Option<(i32, i32)> = None;
        if to_flag - 1 - their_move < slowest[r] {
            for (k, &stopper) in near[r].iter().enumerate() {
                let Some(d) = maps.take(sq, k, r == MINER) else {
                    continue;
                };
                let gap = stopper - (d - 1 - their_move);
                if gap > 0 && race.is_none_or(|(rd, rg)| d < rd || (d == rd && gap > rg)) {
                    race = Some((d, gap));
                }
            }
        }
        let mut w = match race {
            Some((d, gap)) => RACE_DANGER
                .get(d as usize)
                .map_or(0, |&w| w + RACE_STEP * gap.min(RACE_GAP)),
            None => FLAG_DANGER.get(to_flag as usize).copied().unwrap_or(0),
        };
        if own.is_some() && race.is_some() {
            w *= OWN_RACE_FACTOR;
        }
        if miner_too {
            // What racing as a Miner adds to the piece's own race; only the worst such
            // piece counts (many unseen pieces mill near a Flag, few are Miners).
            let extra = if sq == own_rank.0 { (w - own_rank.1).max(0) } else { w };
            as_miner = as_miner.max(extra);
            continue;
        }
        own_rank = (sq, w);
        danger += w;
        top = top.max(w);
    }
    if guessed {
        top >> GUESSED_FLAG_SHIFT
    } else {
        danger + as_miner
    }
}

/// For a side ahead on material: how near its nearest piece that could take the enemy
/// Flag (a Miner while Bombs stand beside it, else any mover) is to it.
fn hunt(pos: &Position, color: Color, flag: usize) -> i32 {
    let c = color.index();
    let bomb = Piece::new(color.flip(), Rank::Bomb).code();
    let bombed = neighbours(flag).any(|n| pos.cells[n] == bomb);
    let miners = pos.counts[c][Rank::Miner.index()] > 0;
    let mut best = HUNT_REACH;
    let mut bits = pos.bb[c][1] | pos.bb[c][2];
    while bits != 0 {
        let sq = square_of(bits);
        bits &= bits - 1;
        if bombed && miners && pos.cells[sq] & RANK_MASK != Rank::Miner as u8 {
            continue;
        }
        best = best.min(dist(sq, flag));
    }
    HUNT * (HUNT_REACH - best)
}

/// What `color`'s piece of value `v` on `sq` has at stake in a pocket (`POCKET_SHIFT`):
/// next to an enemy wall (unmoved and unseen), counting the empty squares beside it that
/// no enemy piece able to take it (one that has moved or been seen) stands next to.
#[inline]
fn pocket(pos: &Position, color: Color, sq: usize, v: i32) -> i32 {
    let them = color.flip();
    let mut wall = false;
    let mut empties = [0usize; 4];
    let mut n_empty = 0;
    for n in neighbours(sq) {
        let cell = pos.cells[n];
        if cell == EMPTY {
            empties[n_empty] = n;
            n_empty += 1;
        } else if Piece::from_cell(cell).is_some_and(|p| p.color() == them) && pos.flags[n] & (REVEALED | MOVED) == 0 {
            wall = true;
        }
    }
    if !wall {
        return 0;
    }
    let rank = Piece(pos.cells[sq]).rank();
    let adv = pos.rules.attacker_advantage;
    let watched = |e: usize| {
        neighbours(e).any(|n| {
            Piece::from_cell(pos.cells[n]).is_some_and(|p| {
                p.color() == them
                    && pos.flags[n] & (REVEALED | MOVED) != 0
                    && p.rank().is_movable()
                    && resolve_combat(p.rank(), rank, adv) == Combat::AttackerWins
            })
        })
    };
    let exits = empties[..n_empty].iter().filter(|&&e| !watched(e)).count();
    POCKET_SHIFT.get(exits).map_or(0, |&k| v >> k)
}

/// Material and hidden-rank bonus of `color`, and its chase (`evaluate` shares the work).
#[cfg(test)]
fn side_score(pos: &Position, color: Color) -> i32 {
    let movers = pos.bb[color.index()][1] | pos.bb[color.index()][2];
    let hunters = free_hunters(pos, color, side_material(pos, color.flip()).1);
    side_material(pos, color).0 + chase(pos, color, movers, hunters, false)
}

/// What each rank of `color`'s is worth, given what the enemy has left: Miners while
/// enemy Bombs remain, the Spy while the enemy Marshal lives, and every movable rank by
/// how many enemy pieces outrank it (`OUTRANKED_BY`).
#[inline]
fn side_values(pos: &Position, color: Color) -> [i32; 13] {
    let mut values = VALUES;
    let enemy = &pos.counts[color.flip().index()];
    if enemy[Rank::Bomb.index()] > 0 {
        values[Rank::Miner.index()] = MINER_WITH_BOMBS;
    }
    if enemy[Rank::Marshal.index()] == 0 {
        values[Rank::Spy.index()] = SPY_WITHOUT_MARSHAL;
    }
    let mut above = 0usize;
    for r in (Rank::Scout.index()..=Rank::Marshal.index()).rev() {
        if let Some(&k) = OUTRANKED_BY.get(above) {
            values[r] += values[r] * k / 100;
        }
        above += enemy[r] as usize;
    }
    values
}

/// Material and hidden-rank bonus of `color` (all but the chase), and the movable ranks of
/// `color` the enemy has not seen (bit `Rank as u8`).
#[cfg(test)]
fn side_material(pos: &Position, color: Color) -> (i32, u16) {
    let (s, hidden, exposed) = side_parts(pos, color);
    let hunters = free_hunters(pos, color.flip(), hidden);
    (s - exposed_cost(exposed, hunters), hidden)
}

/// What `color` loses for the value of its unseen pieces that have moved (`exposed`,
/// from `side_parts`) while the enemy has free hunters (`free_hunters`) for them.
#[inline]
fn exposed_cost(exposed: i32, hunters: u16) -> i32 {
    if exposed > 0 && hunters != 0 {
        exposed * EXPOSED_PERCENT / 100
    } else {
        0
    }
}

/// `side_material` in parts: the score before `exposed_cost`, the movable ranks of
/// `color` the enemy has not seen (bit `Rank as u8`), and the value of `color`'s unseen
/// pieces that have moved.
#[inline]
fn side_parts(pos: &Position, color: Color) -> (i32, u16, i32) {
    let c = color.index();
    let counts = &pos.counts[c];
    let values = side_values(pos, color);
    let them = color.flip().index();
    let bombs = pos.counts[them][Rank::Bomb.index()] > 0;
    let mut s: i32 = counts.iter().zip(values.iter()).map(|(&n, &v)| n as i32 * v).sum();
    if bombs {
        let n = counts[Rank::Miner.index()] as usize;
        s += miners_value(n) - n as i32 * MINER_WITH_BOMBS;
    }
    let mut bits = pos.bb[c][0];
    let movers = pos.bb[c][1] | pos.bb[c][2];
    let top = pos.variant.ranks as i32 - 1;
    // The movable ranks unseen, and the value of the unseen pieces that have moved; an
    // unseen mover that has not moved keeps its secret (`UNMOVED`).
    let mut hidden = 0u16;
    let mut exposed = 0;
    while bits != 0 {
        let sq = square_of(bits);
        let b = bits & bits.wrapping_neg();
        bits &= bits - 1;
        let r = (pos.cells[sq] & RANK_MASK) as usize;
        if pos.flags[sq] & REVEALED == 0 {
            s += values[r] >> HIDDEN_SHIFT;
            let moved = pos.flags[sq] & MOVED != 0;
            if movers & b != 0 {
                hidden |= 1 << r;
                if !moved {
                    s += UNMOVED;
                }
            }
            if moved {
                exposed += values[r];
            }
        }
        if movers & b != 0 {
            // Rows advanced towards the enemy: pieces that never come forward never win.
            let row = ROW_FILE[sq].0 as i32 - 1;
            s += ADVANCE * if color == Color::Red { row } else { top - row };
            let v = values[r];
            if v >= POCKET_VALUE {
                s -= pocket(pos, color, sq, v);
            }
        }
    }
    (s, hidden, exposed)
}

/// How near `color`'s pieces able to take the enemy's seen movable pieces stand to them
/// (`CHASE_REACH`, and `CHASE_TOP` for the enemy's top pieces); `movers` are `color`'s
/// movable pieces, `hunters` their ranks that are free hunters (`free_hunters`).
fn chase(pos: &Position, color: Color, movers: u128, hunters: u16, bold: bool) -> i32 {
    let them = color.flip().index();
    let adv = pos.rules.attacker_advantage;
    // Drawn by the plain pull only: the Spy, and the seen Marshal while the enemy Spy lives
    // (unless `bold`: see `evaluate_full`); the enemy cannot aim its Spy at a Marshal it has
    // not seen.
    let spy_feared = !bold && pos.counts[them][Rank::Spy.index()] > 0;
    // Our movers by rank, and the careful ones among them.
    let mut by_rank = [0u128; 16];
    let mut careful = 0u128;
    let mut ours = movers;
    while ours != 0 {
        let sq = square_of(ours);
        let b = ours & ours.wrapping_neg();
        ours &= ours - 1;
        let r = (pos.cells[sq] & RANK_MASK) as usize;
        by_rank[r] |= b;
        if r == Rank::Spy as usize || (r == Rank::Marshal as usize && spy_feared && pos.flags[sq] & REVEALED != 0) {
            careful |= b;
        }
    }
    let of_ranks = |mask: u16| {
        let mut m = mask;
        let mut out = 0u128;
        while m != 0 {
            out |= by_rank[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        out
    };
    // Our free hunters, those drawn to unseen pieces (not the careful ones): their squares.
    let hunting = if hunters != 0 { of_ranks(hunters) & !careful } else { 0 };
    let beaten_by = &beaten_by_table()[usize::from(adv)];
    let mut targets = pos.bb[them][1] | pos.bb[them][2];
    let mut s = 0;
    while targets != 0 {
        let t = square_of(targets);
        targets &= targets - 1;
        if pos.flags[t] & REVEALED == 0 {
            if pos.flags[t] & MOVED == 0 {
                continue;
            }
            // Fair game: the nearest free hunter.
            let mut near = FAIR_REACH;
            let mut h = hunting;
            while h != 0 {
                near = near.min(dist(square_of(h), t));
                h &= h - 1;
            }
            s += FAIR_STEP * (FAIR_REACH - near);
            continue;
        }
        let tr = Piece(pos.cells[t]).rank();
        let v = VALUES[tr.index()];
        // The nearest of ours that beats it, of those the nearest drawn hard (not the Spy,
        // nor the Marshal while the enemy Spy lives), and the nearest of its rank.
        let beats = of_ranks(beaten_by[tr.index()]);
        let hard_bb = beats & !careful;
        let trade_bb = if resolve_combat(tr, tr, adv) == Combat::BothDie {
            by_rank[tr.index()] & !careful
        } else {
            0
        };
        let (mut beat, mut hard, mut trade) = (i32::MAX, i32::MAX, i32::MAX);
        let mut near = beats | trade_bb;
        while near != 0 {
            let sq = square_of(near);
            let b = near & near.wrapping_neg();
            near &= near - 1;
            let d = dist(sq, t);
            if beats & b != 0 {
                beat = beat.min(d);
                if hard_bb & b != 0 {
                    hard = hard.min(d);
                }
            } else {
                trade = trade.min(d);
            }
        }
        let plain = (v >> CHASE_SHIFT) * (CHASE_REACH - beat.min(CHASE_REACH));
        // A seen Scout is no fair game: it outruns any walker. A bold side (a locked game)
        // is drawn to trades as well: a trade is progress.
        let fair = if tr == Rank::Scout {
            0
        } else {
            let near = if bold { hard.min(trade) } else { hard };
            FAIR_STEP * (FAIR_REACH - near.min(FAIR_REACH))
        };
        s += if v >= CHASE_TOP {
            let near = hard.min(trade).min(CHASE_TOP_REACH);
            plain.max((v >> CHASE_TOP_SHIFT) * (CHASE_TOP_REACH - near)).max(fair)
        } else {
            plain.max(fair)
        };
    }
    s
}

/// `hunter_ranks`, or none while the other side hides no movable rank.
#[inline]
fn free_hunters(pos: &Position, hunter: Color, hidden: u16) -> u16 {
    if hidden == 0 {
        0
    } else {
        hunter_ranks(pos, hunter, hidden)
    }
}

/// The ranks of `hunter`'s movable pieces that take every movable rank the other side
/// still has unseen (`hidden`, bit `Rank as u8`; by counting, an unseen piece that has
/// moved is one of those, and no Bomb): free hunters, for which every moved piece of the
/// other side's that has not been seen is fair game.
fn hunter_ranks(pos: &Position, hunter: Color, hidden: u16) -> u16 {
    let beats = &beats_table()[usize::from(pos.rules.attacker_advantage)];
    let mut out = 0;
    for r in Rank::ALL
        .into_iter()
        .filter(|r| r.is_movable() && pos.count(hunter, *r) > 0)
    {
        if hidden & !beats[r.index()] == 0 {
            out |= 1 << r as u8;
        }
    }
    out
}

/// Per attacker's advantage (0 without, 1 with) and attacking rank, the ranks it beats
/// (bit `Rank as u8`), from `resolve_combat`.
fn beats_table() -> &'static [[u16; 12]; 2] {
    static TABLE: std::sync::OnceLock<[[u16; 12]; 2]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [[0u16; 12]; 2];
        for (adv, row) in t.iter_mut().enumerate() {
            for r in Rank::ALL {
                for q in Rank::ALL {
                    if resolve_combat(r, q, adv == 1) == Combat::AttackerWins {
                        row[r.index()] |= 1 << q as u8;
                    }
                }
            }
        }
        t
    })
}

/// Per attacker's advantage (0 without, 1 with) and defending rank, the ranks that beat
/// it when attacking (bit `Rank as u8`, `Unknown` included), from `resolve_combat`.
fn beaten_by_table() -> &'static [[u16; 13]; 2] {
    static TABLE: std::sync::OnceLock<[[u16; 13]; 2]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [[0u16; 13]; 2];
        let ranks = || Rank::ALL.into_iter().chain([Rank::Unknown]);
        for (adv, row) in t.iter_mut().enumerate() {
            for q in ranks() {
                for r in ranks() {
                    if resolve_combat(r, q, adv == 1) == Combat::AttackerWins {
                        row[q.index()] |= 1 << r as u8;
                    }
                }
            }
        }
        t
    })
}

/// The static score of `pos` for the side to move (a draw-ish position is near 0).
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_guessing(pos, None)
}

/// `evaluate` for a searcher that does not know where `guessed`'s Flag stands (the enemy
/// of the side searching, in a sampled world): while that Flag is unseen, its race counts
/// only its most dangerous intruder, a quarter of it (`GUESSED_FLAG_SHIFT`).
#[inline]
pub fn evaluate_guessing(pos: &Position, guessed: Option<Color>) -> i32 {
    evaluate_full(pos, guessed, None)
}

/// `evaluate_guessing` with `bold`'s Marshal drawn to seen enemy pieces as hard as any
/// other piece even while the enemy Spy lives, and `bold`'s pieces drawn to seen enemy
/// pieces of their own rank (a trade) below a Colonel too: the searcher's side, once the
/// game is locked (see `LOCK_FROM` in the search).
#[inline]
pub fn evaluate_full(pos: &Position, guessed: Option<Color>, bold: Option<Color>) -> i32 {
    let us = pos.side_to_move();
    let them = us.flip();
    let ((ours, our_hidden, our_exposed), (theirs, their_hidden, their_exposed)) =
        (side_parts(pos, us), side_parts(pos, them));
    // The free hunters of each side, for the other's moved pieces (its exposure and its
    // chase share them).
    let (our_hunters, their_hunters) = (free_hunters(pos, us, their_hidden), free_hunters(pos, them, our_hidden));
    let movers = |c: Color| pos.bb[c.index()][1] | pos.bb[c.index()][2];
    let mut s = ours - exposed_cost(our_exposed, their_hunters)
        + chase(pos, us, movers(us), our_hunters, bold == Some(us))
        - (theirs - exposed_cost(their_exposed, our_hunters))
        - chase(pos, them, movers(them), their_hunters, bold == Some(them));
    let (our_flag, their_flag) = (flag_square(pos, us), flag_square(pos, them));
    let unseen = |c: Color, f: usize| guessed == Some(c) && pos.flags[f] & REVEALED == 0;
    let own = |c: Color, hidden: u16| (guessed == Some(c.flip())).then_some(hidden);
    if let Some(f) = our_flag {
        s -= flag_danger(pos, us, f, unseen(us, f), own(us, their_hidden));
    }
    if let Some(f) = their_flag {
        s += flag_danger(pos, them, f, unseen(them, f), own(them, our_hidden));
    }
    // The hunt goes to the side ahead (the material and secrecy part of the score).
    if s >= HUNT_LEAD {
        if let Some(f) = their_flag {
            s += hunt(pos, us, f);
        }
    } else if s <= -HUNT_LEAD {
        if let Some(f) = our_flag {
            s -= hunt(pos, them, f);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Piece, Rules, Setup, Square, Variant};

    fn start(name: &str) -> Position {
        let v = Variant::parse(name).unwrap();
        let (r, b) = v.sample_setups();
        let red = Setup::parse(&r, &v).unwrap();
        let blue = Setup::parse(&b, &v).unwrap();
        Position::from_setups(v, Rules::default(), &red, &blue).unwrap()
    }

    #[test]
    fn symmetric_at_the_start() {
        for name in ["classic", "compact", "duel", "barrage"] {
            assert_eq!(evaluate(&start(name)), 0, "{name}");
        }
    }

    #[test]
    fn material_and_secrecy_count() {
        let mut p = Position::empty(Variant::CLASSIC, Rules::default());
        p.put(Square::new(0, 0), Piece::new(Color::Red, Rank::Marshal), REVEALED)
            .unwrap();
        p.put(Square::new(9, 0), Piece::new(Color::Red, Rank::Flag), 0).unwrap();
        p.put(Square::new(0, 9), Piece::new(Color::Blue, Rank::General), 0)
            .unwrap();
        p.put(Square::new(9, 9), Piece::new(Color::Blue, Rank::Flag), 0)
            .unwrap();
        // Red: 400 + 200 (nothing of Blue's outranks it) + 1000 + 125 (hidden Flag); Blue:
        // 300 + 75 (one piece of Red's outranks it) + 46 (its hidden rank) + `UNMOVED` (it
        // has not moved) + 1000 + 125; nobody advanced.
        assert_eq!(evaluate(&p), 1725 - 1546 - UNMOVED);
    }

    #[test]
    fn a_first_move_tells_what_a_piece_is_not() {
        // Red's unseen Captain on e4, unmoved or moved; everything else as it stands.
        let eval = |flags: u8| {
            evaluate(&board(&[
                (0, 0, Color::Red, Rank::Flag, 0),
                (9, 9, Color::Blue, Rank::Flag, 0),
                (4, 3, Color::Red, Rank::Captain, flags),
                (4, 8, Color::Blue, Rank::Captain, 0),
            ]))
        };
        assert_eq!(eval(0) - eval(MOVED), UNMOVED);
        // A seen piece has no secret left to keep.
        assert_eq!(eval(REVEALED) - eval(REVEALED | MOVED), 0);
    }

    /// A classic position holding `pieces` (file, rank from 0, colour, rank, flags).
    fn board(pieces: &[(u8, u8, Color, Rank, u8)]) -> Position {
        let mut p = Position::empty(Variant::CLASSIC, Rules::default());
        for &(f, r, c, k, fl) in pieces {
            p.put(Square::new(f, r), Piece::new(c, k), fl).unwrap();
        }
        p
    }

    #[test]
    fn a_piece_that_takes_a_seen_enemy_piece_is_drawn_to_it() {
        // Blue's General on f6, seen or not; Red's Marshal (which takes it) eight steps
        // away on b2 or three on e4; or instead a Red General (which trades with it, and
        // nothing of Red's beats it) or a Red Colonel (which loses to it) moved the same
        // way. The Marshal's and the General's walks to the seen General score more than
        // the same walks to the unseen one (a top piece: `CHASE_TOP`); the Colonel's not.
        let with = |seen: u8, mover: Rank, at: (u8, u8)| {
            evaluate(&board(&[
                (0, 0, Color::Red, Rank::Flag, 0),
                (9, 9, Color::Blue, Rank::Flag, 0),
                (5, 5, Color::Blue, Rank::General, seen | MOVED),
                // Red ahead whatever the walk: its hunt stays on, led by the Colonel on j1.
                (9, 0, Color::Red, Rank::Colonel, 0),
                (8, 0, Color::Red, Rank::Major, 0),
                (at.0, at.1, Color::Red, mover, MOVED),
            ]))
        };
        let walk = |seen: u8, mover: Rank| with(seen, mover, (4, 3)) - with(seen, mover, (1, 1));
        let step = VALUES[Rank::General.index()] >> CHASE_TOP_SHIFT;
        // Unseen, the General (Blue's only hidden mover) is fair game for the Marshal that
        // beats every rank Blue hides: `FAIR_STEP` a step.
        assert_eq!(
            walk(REVEALED, Rank::Marshal) - walk(0, Rank::Marshal),
            5 * step - 5 * FAIR_STEP
        );
        assert_eq!(walk(REVEALED, Rank::General) - walk(0, Rank::General), 5 * step);
        assert_eq!(walk(REVEALED, Rank::Colonel), walk(0, Rank::Colonel));
    }

    /// What Red's `mover` gains walking from b2 to e4 (8 and 3 steps from f6) towards
    /// Blue's seen piece of the same rank on f6, with `extra` Blue pieces and `bold` as
    /// given.
    fn bold_walk(mover: Rank, seen: bool, extra: &[(u8, u8, Color, Rank, u8)], bold: Option<Color>) -> i32 {
        let flags = if seen { REVEALED | MOVED } else { MOVED };
        let with = |at: (u8, u8)| {
            let mut pieces = vec![
                (0, 0, Color::Red, Rank::Flag, 0),
                (0, 9, Color::Blue, Rank::Flag, 0),
                (5, 5, Color::Blue, mover, REVEALED | MOVED),
                (at.0, at.1, Color::Red, mover, flags),
            ];
            pieces.extend_from_slice(extra);
            evaluate_full(&board(&pieces), None, bold)
        };
        with((4, 3)) - with((1, 1))
    }

    #[test]
    fn a_bold_marshal_is_drawn_to_trade_with_the_seen_marshal_despite_the_spy() {
        // Blue's seen Marshal on f6, its unseen Spy unmoved on j10; Red's seen Marshal
        // walks from b2 to e4. Careful (the Spy lives) it is drawn by nothing it beats;
        // bold, it is drawn to the trade as any other piece: 1/32 of a Marshal a step.
        let spy = [(9, 9, Color::Blue, Rank::Spy, 0)];
        let walk = |bold| bold_walk(Rank::Marshal, true, &spy, bold);
        let step = VALUES[Rank::Marshal.index()] >> CHASE_TOP_SHIFT;
        assert_eq!(walk(Some(Color::Red)) - walk(None), 5 * step);
        // Only the side named bold: Blue bold changes nothing for Red's walk.
        assert_eq!(walk(Some(Color::Blue)), walk(None));
    }

    #[test]
    fn an_unseen_marshal_is_drawn_despite_the_spy() {
        // As above, with Red's Marshal seen or not, and Blue's Spy there or a Captain
        // (worth as much) in its place. Blue cannot aim its Spy at a Marshal it has not
        // seen: the Spy changes nothing for the unseen Marshal's walk, and takes the seen
        // one's pull to the trade, 5 steps.
        let spy = [(9, 9, Color::Blue, Rank::Spy, 0)];
        let no_spy = [(9, 9, Color::Blue, Rank::Captain, 0)];
        let step = VALUES[Rank::Marshal.index()] >> CHASE_TOP_SHIFT;
        let walk = |seen, extra: &[(u8, u8, Color, Rank, u8)]| bold_walk(Rank::Marshal, seen, extra, None);
        assert_eq!(walk(false, &spy), walk(false, &no_spy));
        assert_eq!(walk(true, &no_spy) - walk(true, &spy), 5 * step);
    }

    #[test]
    fn a_bold_side_is_drawn_to_trade_below_a_colonel() {
        // Blue's seen Captain on f6; Red's Captain walks from b2 to e4 (8 and 3 steps).
        // Careful, nothing of Red's takes it: no pull. Bold, the trade draws the Captain
        // `FAIR_STEP` a step within `FAIR_REACH`.
        let walk = |bold| bold_walk(Rank::Captain, false, &[], bold);
        assert_eq!(walk(Some(Color::Red)) - walk(None), 5 * FAIR_STEP);
    }

    #[test]
    fn a_free_hunter_is_drawn_to_unseen_pieces_that_moved() {
        // Blue's movers: an unseen Miner that has moved on f6, and on j10 an unseen
        // Sergeant, or General; Red's Captain walks from b2 to e4. While Blue hides only
        // ranks the Captain beats, the Captain is a free hunter and its walk to the Miner
        // scores `FAIR_STEP` a step more; with a General hidden it is not. Blue's Flag on
        // a10 is closed to the Captain by Bombs, and the other piece on j10 stands out of
        // reach of the Captain.
        let with = |other: Rank, at: (u8, u8), miner: u8| {
            evaluate(&board(&[
                (0, 0, Color::Red, Rank::Flag, 0),
                (0, 9, Color::Blue, Rank::Flag, 0),
                (1, 9, Color::Blue, Rank::Bomb, 0),
                (0, 8, Color::Blue, Rank::Bomb, 0),
                (5, 5, Color::Blue, Rank::Miner, miner),
                (9, 9, Color::Blue, other, 0),
                (at.0, at.1, Color::Red, Rank::Captain, MOVED),
            ]))
        };
        let walk = |other: Rank, miner: u8| with(other, (4, 3), miner) - with(other, (1, 1), miner);
        // Steps from b2 and from e4 to f6: 8 and 3, both within FAIR_REACH.
        assert_eq!(walk(Rank::Sergeant, MOVED) - walk(Rank::General, MOVED), 5 * FAIR_STEP);
        // An unseen piece that never moved may be a Bomb: no pull.
        assert_eq!(walk(Rank::Sergeant, 0), walk(Rank::General, 0));
        // A seen Miner draws the pieces that beat it whatever else Blue hides.
        assert_eq!(
            walk(Rank::General, MOVED | REVEALED) - walk(Rank::General, MOVED),
            5 * FAIR_STEP
        );
    }

    #[test]
    fn an_unseen_enemy_flag_counts_its_worst_intruder_a_quarter() {
        // Blue's unseen Flag on e10 with three Red Captains beside it (d10, f10, e9), or one.
        let position = |n: usize| {
            let mut v = vec![
                (0, 0, Color::Red, Rank::Flag, 0),
                (4, 9, Color::Blue, Rank::Flag, 0),
                (9, 6, Color::Blue, Rank::Scout, REVEALED | MOVED),
            ];
            for &(f, r) in &[(3, 9), (5, 9), (4, 8)][..n] {
                v.push((f, r, Color::Red, Rank::Captain, REVEALED | MOVED));
            }
            board(&v)
        };
        let (three, one) = (position(3), position(1));
        let flag = Square::new(4, 9).index();
        let single = flag_danger(&one, Color::Blue, flag, false, None);
        assert!(single >= RACE_DANGER[1], "{single}");
        assert_eq!(flag_danger(&three, Color::Blue, flag, false, None), 3 * single);
        assert_eq!(
            flag_danger(&three, Color::Blue, flag, true, None),
            single >> GUESSED_FLAG_SHIFT
        );
        // Red to move: a searcher guessing Blue's Flag sees the smaller race; an
        // evaluation without guesses sees all of it, and Blue's searcher, whose own Flag
        // it is, weighs it OWN_RACE_FACTOR times.
        let gap = 3 * single - (single >> GUESSED_FLAG_SHIFT);
        assert_eq!(evaluate(&three) - evaluate_guessing(&three, Some(Color::Blue)), gap);
        assert_eq!(
            evaluate_guessing(&three, Some(Color::Red)) - evaluate(&three),
            (OWN_RACE_FACTOR - 1) * 3 * single
        );
        // Once seen, the Flag is no guess.
        let mut seen = three.clone();
        seen.flags[flag] |= REVEALED;
        assert_eq!(evaluate(&seen), evaluate_guessing(&seen, Some(Color::Blue)));
    }

    #[test]
    fn the_last_miners_are_worth_most() {
        let base = [
            (0, 0, Color::Red, Rank::Flag, 0),
            (9, 9, Color::Blue, Rank::Flag, 0),
            (8, 9, Color::Blue, Rank::Bomb, 0),
        ];
        let with = |n: u8| {
            let mut v = base.to_vec();
            v.extend((0..n).map(|i| (2 + i, 0, Color::Red, Rank::Miner, REVEALED)));
            evaluate(&board(&v))
        };
        let (m0, m1, m2, m3) = (with(0), with(1), with(2), with(3));
        assert!(m1 - m0 > m2 - m1 && m2 - m1 > m3 - m2, "{m0} {m1} {m2} {m3}");
        assert!(m1 - m0 >= 2 * VALUES[Rank::Miner.index()], "{m0} {m1}");
    }

    #[test]
    fn an_enemy_nearer_the_flag_than_any_stopper_is_a_danger() {
        // A revealed blue Scout three steps from Red's Flag on a1; a red Sergeant that
        // would stop it stands two steps from the Flag, or ten.
        let with = |sergeant_file: u8| {
            evaluate(&board(&[
                (0, 0, Color::Red, Rank::Flag, 0),
                (sergeant_file, 1, Color::Red, Rank::Sergeant, REVEALED),
                (0, 3, Color::Blue, Rank::Scout, REVEALED),
                (9, 9, Color::Blue, Rank::Flag, 0),
            ]))
        };
        let (near, far) = (with(1), with(9));
        assert!(near > far + 30, "near {near} far {far}");
    }

    #[test]
    fn only_a_miner_races_to_a_bombed_flag_and_a_nearer_stopper_helps() {
        // Red's Flag on a1 behind Bombs on b1 and a2; a seen blue piece three steps away
        // on b3 (a Miner or a General); a red Captain (it stops the Miner, not the General)
        // eight steps from the Flag on e5, or six on e3. Blue's Flag is closed to Red.
        let pos = |blue: Rank, captain_rank: u8| {
            board(&[
                (0, 0, Color::Red, Rank::Flag, 0),
                (1, 0, Color::Red, Rank::Bomb, 0),
                (0, 1, Color::Red, Rank::Bomb, 0),
                (4, captain_rank, Color::Red, Rank::Captain, REVEALED),
                (1, 2, Color::Blue, blue, REVEALED),
                (9, 9, Color::Blue, Rank::Flag, 0),
                (8, 9, Color::Blue, Rank::Bomb, 0),
                (9, 8, Color::Blue, Rank::Bomb, 0),
            ])
        };
        let with = |blue: Rank, captain_rank: u8| evaluate(&pos(blue, captain_rank));
        // The score less both sides' material, hidden-rank bonuses and advance.
        let rest = |blue: Rank| {
            let p = pos(blue, 4);
            evaluate(&p) - side_material(&p, Color::Red).0 + side_material(&p, Color::Blue).0
        };
        // Material aside, the Miner costs a race. (The Captain, five steps from the seen
        // Miner it beats, is drawn to it.)
        let race = rest(Rank::General) - rest(Rank::Miner) + FAIR_STEP * (FAIR_REACH - 5);
        assert!(race >= RACE_DANGER[3], "race {race}");
        // Two steps nearer (still farther than the Miner) is two steps of the race less
        // (less the two rows the Captain gave up), and two steps nearer the Miner.
        let nearer = with(Rank::Miner, 2) - with(Rank::Miner, 4);
        assert_eq!(nearer, 2 * RACE_STEP - 2 * ADVANCE + 2 * FAIR_STEP);
    }

    #[test]
    fn a_stopper_behind_its_own_bombs_does_not_stop() {
        // Red's Flag on a3 with Bombs on a4 and b3; a seen blue Miner on a7 takes a4 in
        // three steps and the Flag in four. A red Captain on a1 is two steps from the
        // Flag, but the Bombs and the Flag wall it off: six steps to b4 or a5, beside a4.
        // On d4 it stands two steps from b4 and stops the Miner in time.
        let position = |captain: (u8, u8)| {
            board(&[
                (0, 2, Color::Red, Rank::Flag, 0),
                (0, 3, Color::Red, Rank::Bomb, 0),
                (1, 2, Color::Red, Rank::Bomb, 0),
                (captain.0, captain.1, Color::Red, Rank::Captain, REVEALED),
                (0, 6, Color::Blue, Rank::Miner, REVEALED),
                (9, 9, Color::Blue, Rank::Flag, 0),
                (8, 9, Color::Blue, Rank::Bomb, 0),
                (9, 8, Color::Blue, Rank::Bomb, 0),
            ])
        };
        let with = |captain: (u8, u8)| evaluate(&position(captain));
        let (walled, guarding) = (with((0, 0)), with((3, 3)));
        // Three rows of advance aside, the walled-off Captain loses the race.
        assert!(
            guarding - 3 * ADVANCE - walled >= RACE_DANGER[4] - FLAG_DANGER[4],
            "walled {walled} guarding {guarding}"
        );
        // With Blue to move the Captain on d4 is still in time (two steps against the
        // Miner's two before it reaches a4); one square farther, on e4, it is not.
        let blue_to_move = |captain: (u8, u8)| {
            let mut p = position(captain);
            p.side = Color::Blue;
            flag_danger(&p, Color::Red, Square::new(0, 2).index(), false, None)
        };
        assert_eq!(blue_to_move((3, 3)), FLAG_DANGER[4]);
        assert_eq!(blue_to_move((4, 3)), RACE_DANGER[4] + RACE_STEP);
    }

    #[test]
    fn a_bomb_walled_in_behind_the_flag_is_reached_through_its_neighbours() {
        // Red's Flag on i1 with Bombs on h1, i2, j1 and j2: no piece of Red's can stand
        // beside j1, but a Miner must dig j2 to reach it, and Red's Captain on j3 stands
        // beside j2. At the start of a game the setup must not read as a lost race.
        let red = [
            (8, 0, Color::Red, Rank::Flag, 0),
            (7, 0, Color::Red, Rank::Bomb, 0),
            (8, 1, Color::Red, Rank::Bomb, 0),
            (9, 0, Color::Red, Rank::Bomb, 0),
            (9, 1, Color::Red, Rank::Bomb, 0),
            (9, 2, Color::Red, Rank::Captain, 0),
            (6, 0, Color::Red, Rank::Captain, 0),
            (7, 1, Color::Red, Rank::Captain, 0),
        ];
        let mut pieces = red.to_vec();
        // Blue mirrored: the same walled corner, the same guards.
        pieces.extend(red.iter().map(|&(f, r, _, k, fl)| (f, 9 - r, Color::Blue, k, fl)));
        pieces.push((9, 5, Color::Blue, Rank::Miner, REVEALED));
        let pos = board(&pieces);
        let danger = flag_danger(&pos, Color::Red, Square::new(8, 0).index(), false, None);
        // The Miner on j6 is five steps from j1 through j2, and the Captain on j3 is beside j2
        // already: no race is lost, only the plain danger of a Miner that near.
        assert!(danger <= FLAG_DANGER[4], "danger {danger}");
    }

    #[test]
    fn only_a_miner_walks_into_a_pocket_of_bombs() {
        // Red's Flag on a1 with Bombs on b1, b2 and a3: the one open square beside it, a2,
        // is walled in. A blue Lieutenant on a5, two squares from a2 as the crow flies,
        // cannot walk there; a blue Miner on a5 takes a3 and walks in, and no red piece can
        // stand in its way.
        let with = |rank: Rank| {
            let p = board(&[
                (0, 0, Color::Red, Rank::Flag, 0),
                (1, 0, Color::Red, Rank::Bomb, 0),
                (1, 1, Color::Red, Rank::Bomb, 0),
                (0, 2, Color::Red, Rank::Bomb, 0),
                (5, 3, Color::Red, Rank::Captain, REVEALED),
                (0, 4, Color::Blue, rank, REVEALED),
                (9, 9, Color::Blue, Rank::Flag, 0),
            ]);
            flag_danger(&p, Color::Red, Square::new(0, 0).index(), false, None)
        };
        assert_eq!(with(Rank::Lieutenant), 0);
        // Four steps to a2 (a4, a3, a2 and the Flag: the Bomb on a3 is one of them).
        assert_eq!(with(Rank::Miner), RACE_DANGER[4] + RACE_STEP * RACE_GAP);
    }

    #[test]
    fn the_searchers_own_flag_fears_an_unseen_walker_as_a_miner() {
        // The pocket above: Red's Flag on a1, its one open neighbour a2 walled in by Bombs.
        // Blue Lieutenants walk down the a-file (one on a5, maybe one on a6) and Blue keeps
        // a Miner far away on j9. In a world Red samples (own), each unseen Lieutenant may be
        // that Miner: the worst one races as a Miner, and a race lost to Red's own Flag
        // weighs OWN_RACE_FACTOR times.
        let danger = |walkers: &[(u8, u8)], walker_flags: u8, miner_flags: u8, own: bool| {
            let mut pieces = vec![
                (0, 0, Color::Red, Rank::Flag, 0),
                (1, 0, Color::Red, Rank::Bomb, 0),
                (1, 1, Color::Red, Rank::Bomb, 0),
                (0, 2, Color::Red, Rank::Bomb, 0),
                (5, 3, Color::Red, Rank::Captain, REVEALED),
                (9, 8, Color::Blue, Rank::Miner, miner_flags),
                (9, 9, Color::Blue, Rank::Flag, 0),
            ];
            pieces.extend(
                walkers
                    .iter()
                    .map(|&(f, r)| (f, r, Color::Blue, Rank::Lieutenant, walker_flags)),
            );
            let p = board(&pieces);
            let blue_hides = own.then(|| side_material(&p, Color::Blue).1);
            flag_danger(&p, Color::Red, Square::new(0, 0).index(), false, blue_hides)
        };
        let as_miner = OWN_RACE_FACTOR * (RACE_DANGER[4] + RACE_STEP * RACE_GAP);
        assert_eq!(danger(&[(0, 4)], MOVED, 0, true), as_miner);
        // Only the worst of two walkers counts.
        assert_eq!(danger(&[(0, 4), (0, 5)], MOVED, 0, true), as_miner);
        // Not in the enemy's own search, not for a walker seen, not once every Miner of
        // the enemy has been seen.
        assert_eq!(danger(&[(0, 4)], MOVED, 0, false), 0);
        assert_eq!(danger(&[(0, 4)], REVEALED, 0, true), 0);
        assert_eq!(danger(&[(0, 4)], MOVED, REVEALED, true), 0);
    }

    #[test]
    fn a_side_a_little_ahead_sends_its_miner_to_the_flag() {
        // Red's last Miner against Blue's Scout and Sergeant: Red is ahead by a little. The
        // Miner stands 14 or 12 steps from Blue's bombed Flag, on the same row (beyond the
        // reach of the Flag danger, as Red's Flag is beyond the reach of Blue's pieces).
        let at = |miner_file: u8| {
            board(&[
                (9, 0, Color::Red, Rank::Flag, 0),
                (miner_file, 1, Color::Red, Rank::Miner, REVEALED),
                (0, 9, Color::Blue, Rank::Scout, REVEALED),
                (1, 9, Color::Blue, Rank::Sergeant, REVEALED),
                (9, 9, Color::Blue, Rank::Flag, 0),
                (8, 9, Color::Blue, Rank::Bomb, 0),
                (9, 8, Color::Blue, Rank::Bomb, 0),
            ])
        };
        let lead = side_score(&at(3), Color::Red) - side_score(&at(3), Color::Blue);
        assert!((HUNT_LEAD..150).contains(&lead), "lead {lead}");
        let (far, near) = (evaluate(&at(3)), evaluate(&at(5)));
        assert!(near >= far + 2 * HUNT, "near {near} far {far}");
    }

    #[test]
    fn a_top_piece_boxed_in_by_unmoved_enemies_is_at_stake() {
        // Red's General on e9, among Blue's unmoved, unseen pieces on d9, f9 and e10; below
        // it e8 is empty, or holds a Red Sergeant (no way out but through the Blue pieces).
        let with = |blocked: bool| {
            let mut v = vec![
                (0, 0, Color::Red, Rank::Flag, 0),
                (4, 8, Color::Red, Rank::General, REVEALED | MOVED),
                (3, 8, Color::Blue, Rank::Bomb, 0),
                (5, 8, Color::Blue, Rank::Bomb, 0),
                (4, 9, Color::Blue, Rank::Sergeant, 0),
                (9, 9, Color::Blue, Rank::Flag, 0),
            ];
            if blocked {
                v.push((4, 7, Color::Red, Rank::Sergeant, REVEALED | MOVED));
            }
            board(&v)
        };
        let (open, boxed) = (with(false), with(true));
        let general = side_values(&open, Color::Red)[Rank::General.index()];
        let at = Square::new(4, 8).index();
        assert_eq!(pocket(&open, Color::Red, at, general), general >> 3);
        assert_eq!(pocket(&boxed, Color::Red, at, general), general >> 2);
        // A seen Blue Marshal next to the empty square shuts it; a Blue Colonel does not.
        let beside_exit = |rank: Rank| {
            let mut p = open.clone();
            p.put(Square::new(4, 6), Piece::new(Color::Blue, rank), REVEALED | MOVED)
                .unwrap();
            pocket(&p, Color::Red, at, general)
        };
        assert_eq!(beside_exit(Rank::Marshal), general >> 2);
        assert_eq!(beside_exit(Rank::Colonel), general >> 3);
        // Blue's pieces once seen are no wall: the pocket's cost leaves the score, as do
        // the hidden-rank bonuses of the two Bombs and the Sergeant and the unmoved
        // Sergeant's secret (`UNMOVED`); and the seen Sergeant draws the General beside it.
        let mut seen = open.clone();
        for sq in [Square::new(3, 8), Square::new(5, 8), Square::new(4, 9)] {
            seen.flags[sq.index()] |= REVEALED;
        }
        let blue = side_values(&open, Color::Blue);
        let bonuses = 2 * (blue[Rank::Bomb.index()] >> 3) + (blue[Rank::Sergeant.index()] >> 3) + UNMOVED;
        let drawn = FAIR_STEP * (FAIR_REACH - 1);
        assert_eq!(evaluate(&seen) - evaluate(&open), (general >> 3) + bonuses + drawn);
        assert_eq!(pocket(&seen, Color::Red, Square::new(4, 8).index(), general), 0);
    }

    #[test]
    fn a_seen_scout_draws_no_walker() {
        // Red's Captain eight or three steps from a seen Blue Scout, or a seen Blue
        // Sergeant: the Sergeant draws it (fair game), the Scout, which outruns it, not.
        let with = |target: Rank, captain_rank: u8| {
            let p = board(&[
                (0, 0, Color::Red, Rank::Flag, 0),
                (5, captain_rank, Color::Red, Rank::Captain, REVEALED | MOVED),
                (5, 8, Color::Blue, target, REVEALED | MOVED),
                (9, 9, Color::Blue, Rank::Flag, 0),
            ]);
            chase(&p, Color::Red, p.bb[0][1] | p.bb[0][2], 0, false)
        };
        assert_eq!(with(Rank::Scout, 0), with(Rank::Scout, 5));
        assert!(with(Rank::Sergeant, 5) >= with(Rank::Sergeant, 0) + 5 * FAIR_STEP);
    }

    #[test]
    fn moved_unseen_pieces_are_fair_game_for_a_free_hunter() {
        // Red's Marshal (seen or not), a moved unseen Captain and a moved unseen Major;
        // Blue's Marshal alive or not. With Red's Marshal seen, Blue's Marshal beats every
        // rank Red's unseen pieces can be.
        let with = |marshal_flags: u8, hunter: bool| {
            let mut v = vec![
                (0, 0, Color::Red, Rank::Flag, 0),
                (1, 0, Color::Red, Rank::Marshal, marshal_flags),
                (2, 2, Color::Red, Rank::Captain, MOVED),
                (4, 2, Color::Red, Rank::Major, MOVED),
                (9, 9, Color::Blue, Rank::Flag, 0),
            ];
            if hunter {
                // Out of the chase's reach of Red's Marshal, and Red's moved pieces out of
                // its own (a free hunter once Red's Marshal is seen).
                v.push((8, 9, Color::Blue, Rank::Marshal, 0));
            }
            board(&v)
        };
        let diff = |hunter: bool| evaluate(&with(MOVED, hunter)) - evaluate(&with(MOVED | REVEALED, hunter));
        let red = |hunter: bool| side_values(&with(MOVED, hunter), Color::Red);
        let r = red(true);
        let bonus = r[Rank::Marshal.index()] >> HIDDEN_SHIFT;
        let at_stake = (r[Rank::Captain.index()] + r[Rank::Major.index()]) * EXPOSED_PERCENT / 100;
        assert_eq!(diff(true), bonus + at_stake);
        // Without Blue's Marshal there is no hunter: only the hidden-rank bonus differs.
        assert_eq!(diff(false), red(false)[Rank::Marshal.index()] >> HIDDEN_SHIFT);
    }
}
