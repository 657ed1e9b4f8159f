//! Legal move generation for the side to move, from the full position or a view alike.

use super::moves::Move;
use super::piece::{Color, Rank, EMPTY, RANK_MASK, WALL};
use super::position::{Position, RESCUER};
use super::square::{Square, DIRS, STRIDE};

const SCOUT: u8 = Rank::Scout as u8;

impl Position {
    /// Calls `sink` with every legal move of the side to move. No moves once the game has
    /// ended by Flag capture or a cap.
    #[inline]
    pub fn for_each_legal<F: FnMut(Move)>(&self, mut sink: F) {
        if self.is_over_early() {
            return;
        }
        let (us, them) = self.bits();
        let blocked = us | WALL;
        let rescue = self.rules.rescue && self.rescues[self.side.index()] < 2;
        let check_rep = self.rules.two_squares.is_some() || self.rules.more_squares;
        let emit = |pos: &Position, from: usize, to: usize, sink: &mut F| {
            let (fs, ts) = (Square::from_index(from), Square::from_index(to));
            if check_rep && pos.repetition_forbids(fs, ts) {
                return;
            }
            let mv = Move::new(fs, ts);
            sink(mv);
            if rescue {
                pos.rescue_variants(fs, ts, &mut *sink);
            }
        };
        let ci = self.side.index();
        let mut pieces = self.bb[ci][1] | self.bb[ci][2];
        while pieces != 0 {
            let from = pieces.trailing_zeros() as usize + STRIDE;
            pieces &= pieces - 1;
            let r = self.cells[from] & RANK_MASK;
            if r == SCOUT {
                for d in DIRS {
                    let mut to = (from as isize + d as isize) as usize;
                    while self.cells[to] == EMPTY {
                        emit(self, from, to, &mut sink);
                        to = (to as isize + d as isize) as usize;
                    }
                    if self.cells[to] & them != 0 {
                        emit(self, from, to, &mut sink);
                    }
                }
            } else {
                for d in DIRS {
                    let to = (from as isize + d as isize) as usize;
                    if self.cells[to] & blocked == 0 {
                        emit(self, from, to, &mut sink);
                    }
                }
            }
        }
    }

    /// The legal moves of the side to move, in generation order.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(64);
        self.for_each_legal(|m| v.push(m));
        v
    }

    /// The number of legal moves of the side to move. One-step moves are counted on
    /// bitboards; Scouts, the two-squares piece and rarer rules take the general path.
    #[inline]
    pub fn count_legal(&self) -> usize {
        let ci = self.side.index();
        let slow = self.rules.rescue || (self.rules.more_squares && self.chase[ci] >= 2) || self.is_over_early();
        if slow {
            let mut n = 0;
            self.for_each_legal(|_| n += 1);
            return n;
        }
        let free = !(self.bb[ci][0] | self.walls);
        let ns = self.bb[ci][1];
        let mut n = ((ns << STRIDE) & free).count_ones()
            + ((ns >> STRIDE) & free).count_ones()
            + ((ns << 1) & free).count_ones()
            + ((ns >> 1) & free).count_ones();
        let them = self.side.flip().cell_bit();
        let mut scouts = self.bb[ci][2];
        while scouts != 0 {
            let from = scouts.trailing_zeros() as usize + STRIDE;
            scouts &= scouts - 1;
            for d in DIRS {
                let mut to = (from as isize + d as isize) as usize;
                while self.cells[to] == EMPTY {
                    n += 1;
                    to = (to as isize + d as isize) as usize;
                }
                n += (self.cells[to] & them != 0) as u32;
            }
        }
        // The two-squares rule only ever forbids moves of the trail's piece.
        let t = &self.trail[ci];
        if t.lo <= t.hi {
            let from = t.sq[0] as usize;
            let fs = Square::from_index(from);
            let scout = self.cells[from] & RANK_MASK == SCOUT;
            for d in DIRS {
                let mut to = (from as isize + d as isize) as usize;
                loop {
                    let c = self.cells[to];
                    if c & (self.bits().0 | WALL) != 0 {
                        break;
                    }
                    if t.forbids(fs, Square::from_index(to)) {
                        n -= 1;
                    }
                    if c != EMPTY || !scout {
                        break;
                    }
                    to = (to as isize + d as isize) as usize;
                }
            }
        }
        n as usize
    }

    /// Is `mv` legal for the side to move?
    pub fn is_legal(&self, mv: Move) -> bool {
        let mut found = false;
        self.for_each_legal(|m| found |= m == mv);
        found
    }

    /// Why `mv` is not legal, in words; `None` if it is legal.
    pub fn illegal_reason(&self, mv: Move) -> Option<String> {
        if self.is_legal(mv) {
            return None;
        }
        let (from, to) = (mv.from(), mv.to());
        let side = self.side;
        if let Some(e) = self.game_end() {
            return Some(format!("the game is over ({})", e.reason.name()));
        }
        if !self.variant.on_board(from) || !self.variant.on_board(to) {
            return Some("a square is off the board".into());
        }
        if self.variant.is_lake(to) {
            return Some(format!("{to} is a lake"));
        }
        let Some(p) = self.piece_at(from) else {
            return Some(format!("no piece on {from}"));
        };
        if p.color() != side {
            return Some(format!("the piece on {from} is not {side}'s"));
        }
        if !p.rank().is_movable() {
            return Some(format!("a {} cannot move", p.rank().name()));
        }
        if self.piece_at(to).is_some_and(|q| q.color() == side) {
            return Some(format!("{to} holds a {side} piece"));
        }
        let base = mv.base();
        let mut base_geom = false;
        let mut base_legal = false;
        let mut probe = self.clone();
        probe.rules.two_squares = None;
        probe.rules.more_squares = false;
        probe.trail = Default::default();
        probe.for_each_legal(|m| base_geom |= m == base);
        self.for_each_legal(|m| base_legal |= m == base);
        if !base_geom {
            return Some(if from.file() != to.file() && from.rank() != to.rank() {
                "moves are along a rank or file".into()
            } else if p.rank() == Rank::Scout {
                "the path is blocked".into()
            } else {
                format!("a {} moves one square", p.rank().name())
            });
        }
        if !base_legal {
            return Some(if self.trail[side.index()].forbids(from, to) {
                "two-squares rule".into()
            } else {
                "more-squares rule (chasing)".into()
            });
        }
        Some("this rescue is not allowed (rule off, Scout, limit reached, nothing to rescue, or the square is not free in your half)".into())
    }

    /// Rescue versions of a move `from` -> `to` (the rescue happens only if the mover
    /// survives, so the choice can be made before the combat).
    fn rescue_variants<F: FnMut(Move)>(&self, from: Square, to: Square, mut sink: F) {
        let side = self.side;
        let them = side.flip();
        if to.rank() != self.variant.back_rank(them) {
            return;
        }
        let cell = self.cells[from.index()];
        if cell & RANK_MASK == SCOUT || self.flags[from.index()] & RESCUER != 0 {
            return;
        }
        let captured = &self.captured[side.index()];
        for r in Rank::ALL {
            if matches!(r, Rank::Bomb | Rank::Flag) || captured[r.index()] == 0 {
                continue;
            }
            for sq in self.variant.squares() {
                if sq != to && self.variant.in_half(side, sq) && self.cells[sq.index()] == EMPTY {
                    sink(Move::with_rescue(from, to, r, sq));
                }
            }
        }
    }

    /// Counts leaf nodes `depth` plies ahead (bulk counting at the last ply).
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return self.count_legal() as u64;
        }
        let moves = self.legal_moves();
        let mut n = 0;
        for m in moves {
            self.make(m);
            n += self.perft(depth - 1);
            self.unmake();
        }
        n
    }

    /// Per-root-move leaf counts.
    pub fn perft_divide(&mut self, depth: u32) -> Vec<(Move, u64)> {
        let moves = self.legal_moves();
        let mut out = Vec::with_capacity(moves.len());
        for m in moves {
            self.make(m);
            let n = if depth <= 1 { 1 } else { self.perft(depth - 1) };
            self.unmake();
            out.push((m, n));
        }
        out
    }

    /// The colour of the side to move.
    pub fn to_move(&self) -> Color {
        self.side
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::{Position, Rules, Setup, Variant};
    use rand::{rngs::StdRng, Rng, SeedableRng};

    /// The bitboard counter agrees with the move list along random games of every
    /// variant, with the repetition rules on (biased to shuttle so they fire) and off.
    #[test]
    fn count_matches_list() {
        let mut rng = StdRng::seed_from_u64(7);
        for name in ["classic", "compact", "duel", "duel-compact", "barrage"] {
            let v = Variant::parse(name).unwrap();
            let (r, b) = v.sample_setups();
            for rules in [
                Rules::default(),
                Rules {
                    two_squares: None,
                    more_squares: false,
                    ..Rules::default()
                },
            ] {
                for _ in 0..20 {
                    let red = Setup::parse(&r, &v).unwrap();
                    let blue = Setup::parse(&b, &v).unwrap();
                    let mut pos = Position::from_setups(v, rules, &red, &blue).unwrap();
                    for _ in 0..300 {
                        let moves = pos.legal_moves();
                        assert_eq!(pos.count_legal(), moves.len(), "{}", pos.to_text());
                        if moves.is_empty() || pos.game_end().is_some() {
                            break;
                        }
                        // Half the time undo the own previous move if possible (shuttling).
                        let last = pos.last_move(pos.side_to_move());
                        let back = moves
                            .iter()
                            .find(|m| !last.is_null() && m.from() == last.to() && m.to() == last.from());
                        let mv = match back {
                            Some(m) if rng.gen_bool(0.5) => *m,
                            _ => moves[rng.gen_range(0..moves.len())],
                        };
                        pos.make(mv);
                    }
                }
            }
        }
    }
}
