//! The game state: board, whose turn, counters, repetition state; make and unmake.
//!
//! One type serves two views. The arbiter's position knows every rank. A player's view
//! (`view_of` set) holds `Rank::Unknown` for enemy pieces it has not seen, and is enough
//! to generate that player's legal moves.

use super::moves::Move;
use super::piece::{resolve_combat, Color, Combat, Piece, Rank, BLUE_BIT, EMPTY, RANK_MASK, RED_BIT, WALL};
use super::square::{Square, CELLS, DIRS, STRIDE};
use super::variant::{Rules, Variant};

/// Per-square flag: the piece has moved (so it is neither Bomb nor Flag).
pub const MOVED: u8 = 1;
/// Per-square flag: the piece's rank is known to the opponent.
pub const REVEALED: u8 = 2;
/// Per-square flag: the piece has performed a rescue.
pub const RESCUER: u8 = 4;

/// Identifiers of pieces: Red's from 0, Blue's from `ID_BLUE`.
pub const ID_BLUE: u8 = 64;
/// Room for piece identities in the hash table.
const ID_SPACE: usize = 128;

/// Ranks per colour counted in `counts`/`captured`, `Unknown` included.
pub const COUNT_SLOTS: usize = 13;

/// Most squares a two-squares trail remembers (limit + 1).
const TRAIL_MAX: usize = super::variant::MAX_TWO_SQUARES as usize + 1;

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Hash keys: `RANK_KEYS[sq][colour * 16 + rank]` for placements by owner and rank.
static RANK_KEYS: [[u64; 32]; CELLS] = {
    let mut t = [[0u64; 32]; CELLS];
    let mut s = 0;
    while s < CELLS {
        let mut k = 0;
        while k < 32 {
            t[s][k] = splitmix((s * 32 + k) as u64 ^ 0x5eed_0001);
            k += 1;
        }
        s += 1;
    }
    t
};

/// Hash keys by piece identity: `ID_KEYS[sq][id]`.
static ID_KEYS: [[u64; ID_SPACE]; CELLS] = {
    let mut t = [[0u64; ID_SPACE]; CELLS];
    let mut s = 0;
    while s < CELLS {
        let mut k = 0;
        while k < ID_SPACE {
            t[s][k] = splitmix((s * ID_SPACE + k) as u64 ^ 0x1d00_0000_0000);
            k += 1;
        }
        s += 1;
    }
    t
};

#[inline]
fn rank_key(sq: usize, cell: u8) -> u64 {
    let colour = if cell & RED_BIT != 0 { 0 } else { 16 };
    RANK_KEYS[sq][colour + (cell & RANK_MASK) as usize]
}

#[inline]
fn id_key(sq: usize, id: u8) -> u64 {
    ID_KEYS[sq][id as usize]
}

pub(crate) fn rank_key_pub(sq: usize, cell: u8) -> u64 {
    rank_key(sq, cell)
}

pub(crate) fn id_key_pub(sq: usize, id: u8) -> u64 {
    id_key(sq, id)
}

/// The squares a player's last-moved piece stood on, newest first, while it keeps moving
/// along one axis; and the boundary interval its next move may not cross.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Trail {
    pub(crate) sq: [u8; TRAIL_MAX],
    pub(crate) len: u8,
    /// Forbidden boundaries along the trail's axis for the next move from `sq[0]`:
    /// boundary `i` lies between coordinate `i` and `i + 1`; empty when `lo > hi`.
    pub(crate) lo: u8,
    pub(crate) hi: u8,
}

impl Trail {
    const EMPTY: Trail = Trail {
        sq: [0; TRAIL_MAX],
        len: 0,
        lo: 1,
        hi: 0,
    };

    /// The squares, newest first.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        self.sq[..self.len as usize].iter().map(|&s| Square(s))
    }

    /// Whether the trail's last move ran along a file.
    #[inline]
    fn vertical(&self) -> bool {
        Square(self.sq[0]).file() == Square(self.sq[1]).file()
    }

    /// Recomputes the forbidden interval for a two-squares limit of `limit` moves.
    fn update_block(&mut self, limit: Option<u8>) {
        self.lo = 1;
        self.hi = 0;
        let Some(n) = limit else { return };
        let n = n as usize;
        if n == 0 || (self.len as usize) < n + 1 {
            return;
        }
        let vertical = self.vertical();
        let coord = |s: u8| if vertical { Square(s).rank() } else { Square(s).file() };
        let (mut lo, mut hi) = (0u8, u8::MAX);
        for i in 0..n {
            let (a, b) = (coord(self.sq[i]), coord(self.sq[i + 1]));
            lo = lo.max(a.min(b));
            hi = hi.min(a.max(b) - 1);
        }
        if lo <= hi {
            self.lo = lo;
            self.hi = hi;
        }
    }

    /// Records that this player's piece moved `from` -> `to` and survived there.
    fn push(&mut self, from: Square, to: Square, limit: Option<u8>) {
        let same_axis_piece = self.len >= 2 && self.sq[0] == from.0 && (from.file() == to.file()) == self.vertical();
        if same_axis_piece {
            let keep = (self.len as usize).min(TRAIL_MAX - 1);
            self.sq.copy_within(0..keep, 1);
            self.sq[0] = to.0;
            self.len = (keep + 1) as u8;
        } else {
            self.sq[0] = to.0;
            self.sq[1] = from.0;
            self.len = 2;
        }
        self.update_block(limit);
    }

    /// Would a move `from` -> `to` cross a boundary the rule forbids?
    #[inline]
    pub(crate) fn forbids(&self, from: Square, to: Square) -> bool {
        if self.lo > self.hi || self.sq[0] != from.0 {
            return false;
        }
        let vertical = from.file() == to.file();
        if vertical != self.vertical() {
            return false;
        }
        let (a, b) = if vertical {
            (from.rank(), to.rank())
        } else {
            (from.file(), to.file())
        };
        let (mn, mx) = (a.min(b), a.max(b) - 1);
        mn <= self.hi && mx >= self.lo
    }
}

/// How the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The winner took the Flag.
    FlagCaptured,
    /// The loser had no legal move on its turn.
    NoMoves,
    /// Neither side could move.
    NeitherCanMove,
    /// The ply cap was passed.
    MoveCap,
    /// Too many plies in a row without an attack.
    NoAttackCap,
    /// The loser resigned.
    Resignation,
    /// Both sides agreed.
    Agreement,
    /// The loser broke a rule (an arbiter's verdict: illegal move, time, crash).
    Forfeit,
}

impl EndReason {
    pub fn name(self) -> &'static str {
        match self {
            EndReason::FlagCaptured => "flag_captured",
            EndReason::NoMoves => "no_moves",
            EndReason::NeitherCanMove => "neither_can_move",
            EndReason::MoveCap => "move_cap",
            EndReason::NoAttackCap => "no_attack_cap",
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::Forfeit => "forfeit",
        }
    }
}

/// A finished game: the winner (none for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct GameEnd {
    pub winner: Option<Color>,
    pub reason: EndReason,
}

/// What a move did, as both players learn it (subject to silent defence for ranks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveOutcome {
    /// The attacker's and defender's ranks and the result, for attacks.
    pub combat: Option<(Rank, Rank, Combat)>,
}

/// Bitboard of a mailbox square (bit = index - STRIDE, so 10 ranks fit in 110 bits).
#[inline]
pub(crate) fn bit(sq: usize) -> u128 {
    1u128 << (sq - STRIDE)
}

/// Which bitboard besides "all pieces" a cell belongs to: 1 one-step movers (unknown
/// pieces included), 2 Scouts, 0 none (Bomb, Flag).
#[inline]
fn kind(cell: u8) -> usize {
    match cell & RANK_MASK {
        r if r == Rank::Scout as u8 => 2,
        r if r == Rank::Flag as u8 || r == Rank::Bomb as u8 => 0,
        _ => 1,
    }
}

#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Move,
    bb: [[u128; 3]; 2],
    from_cell: u8,
    from_flags: u8,
    from_id: u8,
    to_cell: u8,
    to_flags: u8,
    to_id: u8,
    trail: [Trail; 2],
    chase: [u16; 2],
    last: [Move; 2],
    quiet: u32,
    parts: [u64; 4],
    flag_taken: Option<Color>,
    counts: [[u8; COUNT_SLOTS]; 2],
    captured: [[u8; COUNT_SLOTS]; 2],
    captured_seen: [[u8; COUNT_SLOTS]; 2],
    rescues: [u8; 2],
    next_id: [u8; 2],
}

/// Why a position or setup could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError(pub String);

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PositionError {}

/// A game position with its history (for unmake and the repetition rules).
#[derive(Clone, Debug)]
pub struct Position {
    pub(crate) variant: Variant,
    pub(crate) rules: Rules,
    pub(crate) cells: [u8; CELLS],
    pub(crate) flags: [u8; CELLS],
    pub(crate) ids: [u8; CELLS],
    /// Per colour: all pieces, one-step movers, Scouts (see `bit`).
    pub(crate) bb: [[u128; 3]; 2],
    /// Squares no piece may enter: lakes, the border column, everything above the board.
    pub(crate) walls: u128,
    pub(crate) side: Color,
    pub(crate) ply: u32,
    pub(crate) quiet: u32,
    pub(crate) counts: [[u8; COUNT_SLOTS]; 2],
    pub(crate) captured: [[u8; COUNT_SLOTS]; 2],
    /// Captured pieces whose rank the opponent learnt (all of them unless silent defence).
    pub(crate) captured_seen: [[u8; COUNT_SLOTS]; 2],
    pub(crate) rescues: [u8; 2],
    pub(crate) next_id: [u8; 2],
    /// Placement hash parts: owner-and-rank keys of Red's and Blue's pieces, then
    /// identity keys of Red's and Blue's pieces (see `placement`).
    pub(crate) parts: [u64; 4],
    pub(crate) trail: [Trail; 2],
    pub(crate) chase: [u16; 2],
    pub(crate) last: [Move; 2],
    pub(crate) flag_taken: Option<Color>,
    pub(crate) view_of: Option<Color>,
    undo: Vec<Undo>,
    /// Moves known to precede the undo stack (from a position's text form, or a view's
    /// origin), with whether each was an attack.
    pub(crate) prefix: Vec<(Move, bool)>,
    /// Placement hash parts after each ply, the current position last.
    /// Only the part since the last attack is ever consulted.
    pub(crate) history: Vec<[u64; 4]>,
}

impl Position {
    /// An empty board of `variant` with Red to move.
    pub fn empty(variant: Variant, rules: Rules) -> Position {
        let mut cells = [WALL; CELLS];
        let mut walls = u128::MAX;
        for sq in variant.squares() {
            cells[sq.index()] = EMPTY;
            walls &= !bit(sq.index());
        }
        Position {
            variant,
            rules,
            cells,
            flags: [0; CELLS],
            ids: [0; CELLS],
            bb: [[0; 3]; 2],
            walls,
            side: Color::Red,
            ply: 0,
            quiet: 0,
            counts: [[0; COUNT_SLOTS]; 2],
            captured: [[0; COUNT_SLOTS]; 2],
            captured_seen: [[0; COUNT_SLOTS]; 2],
            rescues: [0; 2],
            next_id: [0, ID_BLUE],
            parts: [0; 4],
            trail: [Trail::EMPTY; 2],
            chase: [0; 2],
            last: [Move::NULL; 2],
            flag_taken: None,
            view_of: None,
            undo: Vec::new(),
            prefix: Vec::new(),
            history: vec![[0; 4]],
        }
    }

    /// Puts a piece on an empty playable square (building positions; not a move).
    pub fn put(&mut self, sq: Square, piece: Piece, flags: u8) -> Result<(), PositionError> {
        if !self.variant.is_playable(sq) {
            return Err(PositionError(format!("{sq} is not a playable square")));
        }
        if self.cells[sq.index()] != EMPTY {
            return Err(PositionError(format!("{sq} is already occupied")));
        }
        let c = piece.color().index();
        if self.next_id[c] >= ID_BLUE * (c as u8 + 1) {
            return Err(PositionError(format!("too many {} pieces", piece.color())));
        }
        let id = self.next_id[c];
        self.next_id[c] += 1;
        self.cells[sq.index()] = piece.code();
        self.bb_add(sq.index(), piece.code());
        self.flags[sq.index()] = flags;
        self.ids[sq.index()] = id;
        self.counts[c][piece.rank().index()] += 1;
        self.toggle(sq.index(), piece.code(), id);
        self.reset_history();
        Ok(())
    }

    /// Makes this position a view of `color` (building a view piece by piece).
    pub fn set_view_of(&mut self, color: Option<Color>) {
        self.view_of = color;
    }

    /// Forgets the move history (after building a position by hand).
    pub(crate) fn reset_history(&mut self) {
        self.undo.clear();
        self.prefix.clear();
        self.history.clear();
        self.history.push(self.parts);
    }

    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Changes the rule options (for replaying under other rules).
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
        for t in &mut self.trail {
            t.update_block(rules.two_squares);
        }
    }

    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Plies played.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Plies in a row without an attack.
    pub fn quiet_plies(&self) -> u32 {
        self.quiet
    }

    /// Whose view this is, or `None` for the arbiter's full position.
    pub fn view_of(&self) -> Option<Color> {
        self.view_of
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_cell(*self.cells.get(sq.index())?)
    }

    /// The flags (`MOVED`, `REVEALED`, `RESCUER`) of the piece on `sq`.
    pub fn flags_at(&self, sq: Square) -> u8 {
        self.flags.get(sq.index()).copied().unwrap_or(0)
    }

    /// The identity of the piece on `sq` (stable while it lives).
    pub fn id_at(&self, sq: Square) -> u8 {
        self.ids.get(sq.index()).copied().unwrap_or(0)
    }

    /// Pieces of `color` and `rank` on the board.
    pub fn count(&self, color: Color, rank: Rank) -> u8 {
        self.counts[color.index()][rank.index()]
    }

    /// Pieces of `color` and `rank` that have been captured (and not rescued).
    pub fn captured(&self, color: Color, rank: Rank) -> u8 {
        self.captured[color.index()][rank.index()]
    }

    /// Rescues `color` has made.
    pub fn rescues(&self, color: Color) -> u8 {
        self.rescues[color.index()]
    }

    /// The two-squares trail of `color`'s last-moved piece.
    pub fn trail(&self, color: Color) -> &Trail {
        &self.trail[color.index()]
    }

    /// The more-squares chase counter of `color`.
    pub fn chase_counter(&self, color: Color) -> u16 {
        self.chase[color.index()]
    }

    /// The previous move of `color`.
    pub fn last_move(&self, color: Color) -> Move {
        self.last[color.index()]
    }

    /// Who took a Flag, if anyone.
    pub fn flag_taken_by(&self) -> Option<Color> {
        self.flag_taken
    }

    /// The moves this position knows of, oldest first, each with whether it attacked.
    pub fn recent_moves(&self) -> Vec<(Move, bool)> {
        let mut v = self.prefix.clone();
        v.extend(self.undo.iter().map(|u| (u.mv, u.to_cell != EMPTY)));
        v
    }

    /// Moves that `unmake` can take back.
    pub fn undo_depth(&self) -> usize {
        self.undo.len()
    }

    /// Does any piece of `color` stand next to `sq`?
    /// Adds or removes a piece's keys in the placement hash parts.
    #[inline]
    fn toggle(&mut self, sq: usize, cell: u8, id: u8) {
        let c = Piece(cell).color().index();
        self.parts[c] ^= rank_key(sq, cell);
        self.parts[2 + c] ^= id_key(sq, id);
    }

    /// The placement hash the repetition rule compares: owner and rank of every piece for
    /// the arbiter; in a view, the viewer's pieces by rank and the enemy's by identity
    /// (their ranks may be unknown).
    #[inline]
    pub(crate) fn placement(&self, parts: &[u64; 4]) -> u64 {
        match self.view_of {
            None => parts[0] ^ parts[1],
            Some(c) => parts[c.index()] ^ parts[2 + c.flip().index()],
        }
    }

    #[inline]
    fn bb_add(&mut self, sq: usize, cell: u8) {
        let c = Piece(cell).color().index();
        let b = bit(sq);
        self.bb[c][0] |= b;
        self.bb[c][kind(cell)] |= b;
    }

    #[inline]
    fn bb_del(&mut self, sq: usize, cell: u8) {
        let c = Piece(cell).color().index();
        let b = !bit(sq);
        self.bb[c][0] &= b;
        self.bb[c][kind(cell)] &= b;
    }

    /// Recomputes the bitboards from the cells (after bulk edits of a view).
    fn rebuild_bitboards(&mut self) {
        self.bb = [[0; 3]; 2];
        let variant = self.variant;
        for sq in variant.squares() {
            let cell = self.cells[sq.index()];
            if Piece::from_cell(cell).is_some() {
                self.bb_add(sq.index(), cell);
            }
        }
    }

    #[inline]
    pub(crate) fn next_to(&self, sq: usize, color: Color) -> bool {
        let bit = color.cell_bit();
        DIRS.iter()
            .any(|&d| self.cells[(sq as isize + d as isize) as usize] & bit != 0)
    }

    /// Is this move forbidden by a repetition rule for the side to move? (The move must
    /// be geometrically possible.)
    #[inline]
    pub(crate) fn repetition_forbids(&self, from: Square, to: Square) -> bool {
        let us = self.side.index();
        if self.trail[us].forbids(from, to) {
            return true;
        }
        self.rules.more_squares && self.chase[us] >= 2 && self.chase_forbids(from, to)
    }

    /// How many times the placement after the quiet move `mv` of the side to move stood
    /// before with the other side to move, in the last `window` plies since the last
    /// attack; 0 for an attack.
    pub fn repeats_after(&self, mv: Move, window: usize) -> usize {
        let (f, t) = (mv.from().index(), mv.to().index());
        if self.cells[t] != EMPTY || mv.rescue().is_some() {
            return 0;
        }
        let new_hash = self.placement_after(f, t);
        let n = self.history.len();
        (2..=n.min(window))
            .step_by(2)
            .filter(|&k| self.placement(&self.history[n - k]) == new_hash)
            .count()
    }

    /// The placement hash after the side to move's piece on `f` steps to the empty `t`.
    #[inline]
    fn placement_after(&self, f: usize, t: usize) -> u64 {
        let us = self.side.index();
        let (p, id) = (self.cells[f], self.ids[f]);
        let mut parts = self.parts;
        parts[us] ^= rank_key(f, p) ^ rank_key(t, p);
        parts[2 + us] ^= id_key(f, id) ^ id_key(t, id);
        self.placement(&parts)
    }

    /// The more-squares rule for a chaser whose counter is at least 2 (with a smaller one the
    /// only placement in reach is the current one, which a move always changes).
    fn chase_forbids(&self, from: Square, to: Square) -> bool {
        let us = self.side.index();
        let cell = self.cells[to.index()];
        if cell != EMPTY {
            return false; // an attack changes the material: no earlier placement recurs
        }
        if !self.next_to(to.index(), self.side.flip()) {
            return false;
        }
        let last = self.last[us];
        if !last.is_null() && last.from() == to && last.to() == from {
            return false;
        }
        let new_hash = self.placement_after(from.index(), to.index());
        let history = &self.history;
        // The move itself would raise the chaser's counter to L + 1; it may not recreate
        // any of the placements of the last L plies (agrees with the oracle's games).
        let l = self.chase[us] as usize;
        let n = history.len();
        (1..=l)
            .take_while(|&k| k <= n)
            .any(|k| self.placement(&history[n - k]) == new_hash)
    }

    /// Plays `mv`, which must be legal (or at least geometrically possible), and returns
    /// what happened. In a view, attacks on unknown pieces need `make_observed`.
    pub fn make(&mut self, mv: Move) -> MoveOutcome {
        let att = Piece(self.cells[mv.from().index()]).rank();
        let def_cell = self.cells[mv.to().index()];
        let combat = if def_cell == EMPTY {
            None
        } else {
            let def = Piece(def_cell).rank();
            Some((att, def, resolve_combat(att, def, self.rules.attacker_advantage)))
        };
        self.apply(mv, combat.map(|c| c.2), None);
        MoveOutcome { combat }
    }

    /// Plays a move whose combat result is given from outside (a view, where ranks may be
    /// unknown). `ranks` are the attacker's and defender's ranks as far as they became
    /// known; unknown ones stay as they are.
    pub fn make_observed(&mut self, mv: Move, combat: Option<Combat>, ranks: (Option<Rank>, Option<Rank>)) {
        self.apply(mv, combat, Some(ranks));
    }

    fn apply(&mut self, mv: Move, combat: Option<Combat>, known: Option<(Option<Rank>, Option<Rank>)>) {
        let (from, to) = (mv.from(), mv.to());
        let (f, t) = (from.index(), to.index());
        let us = self.side;
        let them = us.flip();
        self.undo.push(Undo {
            mv,
            bb: self.bb,
            from_cell: self.cells[f],
            from_flags: self.flags[f],
            from_id: self.ids[f],
            to_cell: self.cells[t],
            to_flags: self.flags[t],
            to_id: self.ids[t],
            trail: self.trail,
            chase: self.chase,
            last: self.last,
            quiet: self.quiet,
            parts: self.parts,
            flag_taken: self.flag_taken,
            counts: self.counts,
            captured: self.captured,
            captured_seen: self.captured_seen,
            rescues: self.rescues,
            next_id: self.next_id,
        });
        if let Some((ka, kd)) = known {
            // Ranks learnt from the combat replace unknown ones before the board changes.
            if let Some(r) = ka {
                self.set_rank(f, r);
            }
            if let Some(r) = kd {
                self.set_rank(t, r);
            }
        }
        let p = self.cells[f];
        let pid = self.ids[f];
        let mut pflags = self.flags[f] | MOVED;
        let dist = (f as i32 - t as i32).unsigned_abs();
        if dist != 1 && dist != STRIDE as u32 {
            pflags |= REVEALED; // a Scout that moves more than one square shows itself
        }
        self.toggle(f, p, pid);
        self.bb_del(f, p);
        self.cells[f] = EMPTY;
        self.flags[f] = 0;
        let mut survivor = true;
        match combat {
            None => self.quiet += 1,
            Some(c) => {
                self.quiet = 0;
                let d = self.cells[t];
                let did = self.ids[t];
                // Silent defence: the defender keeps its secret unless a Scout attacked.
                let silent = self.rules.silent_defence && Piece(p).rank() != Rank::Scout;
                pflags |= REVEALED;
                match c {
                    Combat::AttackerWins | Combat::FlagCaptured => {
                        // A Flag capture ends the game in plain sight.
                        let seen = !silent || self.flags[t] & REVEALED != 0 || c == Combat::FlagCaptured;
                        self.remove(t, d, did, them, seen);
                        if c == Combat::FlagCaptured {
                            self.flag_taken = Some(us);
                        }
                    }
                    Combat::DefenderWins => {
                        survivor = false;
                        self.capture_count(us, p, true);
                        if !silent {
                            self.flags[t] |= REVEALED;
                        }
                    }
                    Combat::BothDie => {
                        survivor = false;
                        self.capture_count(us, p, true);
                        let seen = !silent || self.flags[t] & REVEALED != 0;
                        self.remove(t, d, did, them, seen);
                    }
                }
            }
        }
        if survivor {
            if let Some((r, place)) = mv.rescue() {
                pflags |= RESCUER;
                self.rescue(place, r);
            }
            self.cells[t] = p;
            self.bb_add(t, p);
            self.flags[t] = pflags;
            self.ids[t] = pid;
            self.toggle(t, p, pid);
        }
        // Two-squares trails: the mover's piece extends or restarts its trail; a piece
        // that is captured loses it.
        if survivor {
            self.trail[us.index()].push(from, to, self.rules.two_squares);
        } else {
            self.trail[us.index()] = Trail::EMPTY;
        }
        if let Some(c) = combat {
            let defender_gone = c != Combat::DefenderWins;
            let tt = &mut self.trail[them.index()];
            if defender_gone && tt.len > 0 && tt.sq[0] == to.0 {
                *tt = Trail::EMPTY;
            }
        }
        // More-squares counters (RULES.md, in this order).
        let prev = self.last[them.index()];
        let fled = !prev.is_null() && from.is_adjacent(prev.to());
        let ti = them.index();
        self.chase[ti] = if fled { self.chase[ti].saturating_add(1) } else { 0 };
        if combat.is_some() || mv.rescue().is_some() {
            self.chase = [0, 0];
        }
        let ui = us.index();
        self.chase[ui] = if self.next_to(t, them) {
            self.chase[ui].saturating_add(1)
        } else {
            0
        };
        self.last[ui] = mv;
        self.side = them;
        self.ply += 1;
        self.history.push(self.parts);
    }

    /// Records in a view that the enemy piece on `sq` has rank `rank`. Rejects anything
    /// that contradicts what the view knows: no enemy piece there, a different known rank,
    /// a Bomb or Flag that has moved, more pieces of that rank than the army holds.
    pub fn reveal(&mut self, sq: Square, rank: Rank) -> Result<(), PositionError> {
        let Some(viewer) = self.view_of else {
            return Err(PositionError("reveal needs a player's view".into()));
        };
        let enemy = viewer.flip();
        let p = self
            .piece_at(sq)
            .filter(|p| p.color() == enemy)
            .ok_or_else(|| PositionError(format!("{sq} holds no {enemy} piece")))?;
        if rank == Rank::Unknown {
            return Err(PositionError("cannot reveal an unknown rank".into()));
        }
        if p.rank() != Rank::Unknown {
            if p.rank() == rank {
                return Ok(());
            }
            return Err(PositionError(format!("{sq} is already known as a {}", p.rank().name())));
        }
        if !rank.is_movable() && self.flags[sq.index()] & MOVED != 0 {
            return Err(PositionError(format!(
                "the piece on {sq} has moved, so it is no {}",
                rank.name()
            )));
        }
        let e = enemy.index();
        let known = self.counts[e][rank.index()] + self.captured[e][rank.index()];
        if known >= self.variant.army[rank.index()] {
            return Err(PositionError(format!(
                "{enemy} has only {} {} and all are accounted for",
                self.variant.army[rank.index()],
                rank.name()
            )));
        }
        self.set_rank(sq.index(), rank);
        self.flags[sq.index()] |= REVEALED;
        Ok(())
    }

    /// Exchanges the ranks of the pieces on two squares (mailbox indices) of one colour:
    /// another guess at hidden ranks for a search; flags and identities stay where they are.
    pub(crate) fn swap_ranks(&mut self, a: usize, b: usize) {
        let (ra, rb) = (Piece(self.cells[a]).rank(), Piece(self.cells[b]).rank());
        self.set_rank(a, rb);
        self.set_rank(b, ra);
        if let Some(h) = self.history.last_mut() {
            *h = self.parts;
        }
    }

    fn set_rank(&mut self, sq: usize, r: Rank) {
        let cell = self.cells[sq];
        let Some(p) = Piece::from_cell(cell) else { return };
        if p.rank() == r {
            return;
        }
        let c = p.color().index();
        self.counts[c][p.rank().index()] -= 1;
        self.counts[c][r.index()] += 1;
        let new = Piece::new(p.color(), r).code();
        self.parts[c] ^= rank_key(sq, cell) ^ rank_key(sq, new);
        self.bb_del(sq, cell);
        self.bb_add(sq, new);
        self.cells[sq] = new;
    }

    fn remove(&mut self, sq: usize, cell: u8, id: u8, color: Color, seen: bool) {
        self.toggle(sq, cell, id);
        self.bb_del(sq, cell);
        self.cells[sq] = EMPTY;
        self.flags[sq] = 0;
        self.capture_count(color, cell, seen);
    }

    fn capture_count(&mut self, color: Color, cell: u8, seen: bool) {
        let r = (cell & RANK_MASK) as usize;
        self.counts[color.index()][r] -= 1;
        self.captured[color.index()][r] += 1;
        if seen {
            self.captured_seen[color.index()][r] += 1;
        }
    }

    fn rescue(&mut self, place: Square, r: Rank) {
        let us = self.side;
        let c = us.index();
        let code = Piece::new(us, r).code();
        let id = self.next_id[c];
        self.next_id[c] += 1;
        let s = place.index();
        self.cells[s] = code;
        self.bb_add(s, code);
        self.flags[s] = MOVED | REVEALED;
        self.ids[s] = id;
        self.toggle(s, code, id);
        self.counts[c][r.index()] += 1;
        // In a view, a rank the viewer never saw captured comes out of the unknown ones.
        let slot = if self.captured[c][r.index()] == 0 {
            Rank::Unknown.index()
        } else {
            r.index()
        };
        self.captured[c][slot] = self.captured[c][slot].saturating_sub(1);
        let seen = &mut self.captured_seen[c][r.index()];
        *seen = seen.saturating_sub(1);
        self.rescues[c] += 1;
    }

    /// Takes back the last move (nothing happens when there is none to take back).
    pub fn unmake(&mut self) {
        let Some(u) = self.undo.pop() else { return };
        self.history.pop();
        self.ply -= 1;
        self.side = self.side.flip();
        if let Some((_, place)) = u.mv.rescue() {
            if self.rescues != u.rescues {
                let s = place.index();
                self.cells[s] = EMPTY;
                self.flags[s] = 0;
                self.ids[s] = 0;
            }
        }
        let (f, t) = (u.mv.from().index(), u.mv.to().index());
        self.cells[f] = u.from_cell;
        self.flags[f] = u.from_flags;
        self.ids[f] = u.from_id;
        self.cells[t] = u.to_cell;
        self.flags[t] = u.to_flags;
        self.ids[t] = u.to_id;
        self.bb = u.bb;
        self.trail = u.trail;
        self.chase = u.chase;
        self.last = u.last;
        self.quiet = u.quiet;
        self.parts = u.parts;
        self.flag_taken = u.flag_taken;
        self.counts = u.counts;
        self.captured = u.captured;
        self.captured_seen = u.captured_seen;
        self.rescues = u.rescues;
        self.next_id = u.next_id;
    }

    /// The end of the game, if it has ended: flag captured; the side that just moved left
    /// with no piece that can move (it loses at once, as the oracle rules it: the next turn
    /// would find it stuck; with `Rules::end_on_turn` only if it has no movable piece at
    /// all, as blocked pieces may be freed before its turn); the caps; or a side to move
    /// with no legal move (a draw if the other side cannot move either).
    pub fn game_end(&self) -> Option<GameEnd> {
        if let Some(c) = self.flag_taken {
            return Some(GameEnd {
                winner: Some(c),
                reason: EndReason::FlagCaptured,
            });
        }
        let side = self.side;
        let other = side.flip();
        let other_stuck = if self.rules.end_on_turn {
            !self.has_movable_piece(other)
        } else {
            !self.can_move_geometrically(other)
        };
        if other_stuck {
            let side_stuck = if self.rules.end_on_turn {
                !self.has_movable_piece(side)
            } else {
                self.count_legal() == 0
            };
            return Some(if side_stuck {
                GameEnd {
                    winner: None,
                    reason: EndReason::NeitherCanMove,
                }
            } else {
                GameEnd {
                    winner: Some(side),
                    reason: EndReason::NoMoves,
                }
            });
        }
        if let Some(e) = self.cap_end() {
            return Some(e);
        }
        if self.count_legal() == 0 {
            return Some(if self.can_move_geometrically(other) {
                GameEnd {
                    winner: Some(other),
                    reason: EndReason::NoMoves,
                }
            } else {
                GameEnd {
                    winner: None,
                    reason: EndReason::NeitherCanMove,
                }
            });
        }
        None
    }

    /// Has `color` any piece that is not a Bomb or a Flag (unknown pieces count)?
    pub fn has_movable_piece(&self, color: Color) -> bool {
        let c = &self.counts[color.index()];
        (Rank::Spy.index()..=Rank::Marshal.index()).any(|r| c[r] > 0) || c[Rank::Unknown.index()] > 0
    }

    /// A draw by the ply caps, if one applies.
    #[inline]
    pub(crate) fn cap_end(&self) -> Option<GameEnd> {
        if matches!(self.rules.max_quiet_plies, Some(n) if self.quiet > n) {
            return Some(GameEnd {
                winner: None,
                reason: EndReason::NoAttackCap,
            });
        }
        if matches!(self.rules.max_plies, Some(n) if self.ply > n) {
            return Some(GameEnd {
                winner: None,
                reason: EndReason::MoveCap,
            });
        }
        None
    }

    /// Plies left before `cap_end` draws the game, if a cap applies.
    pub(crate) fn plies_to_cap(&self) -> Option<u32> {
        let quiet = self.rules.max_quiet_plies.map(|n| n.saturating_sub(self.quiet));
        let all = self.rules.max_plies.map(|n| n.saturating_sub(self.ply));
        quiet.into_iter().chain(all).min()
    }

    /// Is the game over by flag or caps (so no moves are generated)?
    #[inline]
    pub(crate) fn is_over_early(&self) -> bool {
        self.flag_taken.is_some() || self.cap_end().is_some()
    }

    /// Could `color` move some piece, repetition rules aside?
    pub fn can_move_geometrically(&self, color: Color) -> bool {
        let bit = color.cell_bit();
        let blocked = bit | WALL;
        self.variant.squares().any(|sq| {
            let c = self.cells[sq.index()];
            c & bit != 0
                && Piece(c).rank().is_movable()
                && DIRS
                    .iter()
                    .any(|&d| self.cells[(sq.index() as isize + d as isize) as usize] & blocked == 0)
        })
    }

    /// The colour bits of both sides, for move generation.
    #[inline]
    pub(crate) fn bits(&self) -> (u8, u8) {
        match self.side {
            Color::Red => (RED_BIT, BLUE_BIT),
            Color::Blue => (BLUE_BIT, RED_BIT),
        }
    }

    /// The view of `color`: enemy pieces whose rank has not been revealed become unknown.
    /// The view has no undo stack (taking moves back could show hidden ranks).
    pub fn view(&self, color: Color) -> Position {
        let mut v = self.clone();
        v.view_of = Some(color);
        v.prefix = self.recent_moves();
        v.undo.clear();
        let them = color.flip();
        let mut on_board = [0u8; COUNT_SLOTS];
        for sq in self.variant.squares() {
            let s = sq.index();
            if let Some(p) = Piece::from_cell(self.cells[s]) {
                if p.color() == them {
                    let r = if self.flags[s] & REVEALED == 0 {
                        Rank::Unknown
                    } else {
                        p.rank()
                    };
                    v.cells[s] = Piece::new(them, r).code();
                    on_board[r.index()] += 1;
                }
            }
        }
        v.counts[them.index()] = on_board;
        v.rebuild_bitboards();
        // The winner of a silent defence does not learn what it removed.
        let total: u8 = self.captured[them.index()].iter().sum();
        let seen = self.captured_seen[them.index()];
        let mut cap = seen;
        cap[Rank::Unknown.index()] = total - seen.iter().sum::<u8>();
        v.captured[them.index()] = cap;
        v
    }
}
