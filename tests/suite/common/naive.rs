//! A deliberately simple second rules implementation (board, make, legal moves, perft)
//! written straight from RULES.md, to cross-check `Position::legal_moves` and `perft`.
//!
//! Readable over fast: a plain `board[rank][file]` array, explicit loops, its own combat
//! table, lakes, two-squares rule and more-squares rule. It reads a starting state from
//! a `Position` through the public accessors only (never its move generator), then plays
//! moves on its own state.
//!
//! Interpretations (RULES.md plus the calibrations checked against the oracle data):
//! - More-squares rule: with L = the mover's chase counter before the move, the move is
//!   compared with the placements of the positions k = 1..=L plies before the position
//!   it produces (k = 1 is the current position); the rule only bites when L >= 2.
//! - The placement a move "produces" includes combat and a rescued piece, so attacks and
//!   rescues never recreate an earlier placement (they change the material).
//! - A rescue is chosen together with the move (before any combat), so an attack onto the
//!   enemy back row has rescue versions too; the rescue happens only if the mover lives.
//! - Chase counters: RULES.md (step 2) resets both after an attack and does not say what
//!   a rescue does; like protocol.md, a rescue resets them too. (Read literally, without
//!   that reset a chaser's window could reach back past a rescue, and a losing attack,
//!   which removes the rescued material again, could "recreate" a placement from before
//!   the rescue; the engine never forbids attacks under this rule.)

use marshal::rules::position::RESCUER;
use marshal::rules::{Color, Move, Position, Rank, Rules, Square};

/// A square as (file, rank), both from 0.
pub type Sq = (usize, usize);

/// A piece on the naive board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NPiece {
    pub color: Color,
    pub rank: Rank,
    /// Has performed a rescue (may not perform another).
    pub rescuer: bool,
}

/// Owner and rank of every square, `[rank][file]`: what the more-squares rule compares.
pub type Placement = Vec<Vec<Option<(Color, Rank)>>>;

/// A move on the naive board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NMove {
    pub from: Sq,
    pub to: Sq,
    /// Rescued rank and where it is placed.
    pub rescue: Option<(Rank, Sq)>,
}

impl NMove {
    pub fn to_move(self) -> Move {
        let from = to_square(self.from);
        let to = to_square(self.to);
        match self.rescue {
            None => Move::new(from, to),
            Some((r, place)) => Move::with_rescue(from, to, r, to_square(place)),
        }
    }

    pub fn from_move(m: Move) -> NMove {
        NMove {
            from: from_square(m.from()),
            to: from_square(m.to()),
            rescue: m.rescue().map(|(r, s)| (r, from_square(s))),
        }
    }
}

pub fn to_square(s: Sq) -> Square {
    Square::new(s.0 as u8, s.1 as u8)
}

pub fn from_square(s: Square) -> Sq {
    (s.file() as usize, s.rank() as usize)
}

fn side_index(c: Color) -> usize {
    match c {
        Color::Red => 0,
        Color::Blue => 1,
    }
}

fn other(c: Color) -> Color {
    match c {
        Color::Red => Color::Blue,
        Color::Blue => Color::Red,
    }
}

fn adjacent(a: Sq, b: Sq) -> bool {
    a.0.abs_diff(b.0) + a.1.abs_diff(b.1) == 1
}

/// Is the move along a file (vertical)?
fn vertical(from: Sq, to: Sq) -> bool {
    from.0 == to.0
}

/// The result of one combat, straight from the RULES.md table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fight {
    AttackerWins,
    DefenderWins,
    BothDie,
    FlagTaken,
}

pub fn fight(att: Rank, def: Rank, attacker_advantage: bool) -> Fight {
    if def == Rank::Flag {
        return Fight::FlagTaken;
    }
    if def == Rank::Bomb {
        return if att == Rank::Miner {
            Fight::AttackerWins
        } else {
            Fight::DefenderWins
        };
    }
    if att == Rank::Spy && def == Rank::Marshal {
        return Fight::AttackerWins;
    }
    let strength = |r: Rank| r as u8; // European numbering: Spy 1 .. Marshal 10
    if strength(att) == strength(def) {
        if attacker_advantage {
            Fight::AttackerWins
        } else {
            Fight::BothDie
        }
    } else if strength(att) > strength(def) {
        Fight::AttackerWins
    } else {
        Fight::DefenderWins
    }
}

/// The naive game state.
#[derive(Clone, Debug)]
pub struct NaiveGame {
    pub files: usize,
    pub ranks: usize,
    /// `board[rank][file]`.
    pub board: Vec<Vec<Option<NPiece>>>,
    pub rules: Rules,
    pub side: Color,
    pub ply: u32,
    pub quiet: u32,
    /// Captured ranks per side (index 0 Red).
    pub captured: [Vec<Rank>; 2],
    pub rescues: [u32; 2],
    pub flag_taken: bool,
    /// Per side: the moves of its last-moved piece while it kept to one axis, oldest first.
    pub trail: [Vec<(Sq, Sq)>; 2],
    pub chase: [u32; 2],
    pub last: [Option<(Sq, Sq)>; 2],
    /// Placements after each known ply, the current one last.
    pub history: Vec<Placement>,
}

impl NaiveGame {
    /// Reads a full (arbiter's) position through the public accessors.
    pub fn from_position(pos: &Position) -> NaiveGame {
        assert!(pos.view_of().is_none(), "the naive generator reads full positions only");
        let v = pos.variant();
        let (files, ranks) = (v.files as usize, v.ranks as usize);
        let mut board = vec![vec![None; files]; ranks];
        for (r, row) in board.iter_mut().enumerate() {
            for (f, cell) in row.iter_mut().enumerate() {
                let sq = to_square((f, r));
                if let Some(p) = pos.piece_at(sq) {
                    *cell = Some(NPiece {
                        color: p.color(),
                        rank: p.rank(),
                        rescuer: pos.flags_at(sq) & RESCUER != 0,
                    });
                }
            }
        }
        let mut captured = [Vec::new(), Vec::new()];
        let mut trail = [Vec::new(), Vec::new()];
        let mut chase = [0, 0];
        let mut last = [None, None];
        let mut rescues = [0, 0];
        for c in [Color::Red, Color::Blue] {
            let i = side_index(c);
            for r in Rank::ALL {
                for _ in 0..pos.captured(c, r) {
                    captured[i].push(r);
                }
            }
            let mut squares: Vec<Sq> = pos.trail(c).squares().map(from_square).collect();
            squares.reverse(); // oldest first
            for w in squares.windows(2) {
                trail[i].push((w[0], w[1]));
            }
            chase[i] = pos.chase_counter(c) as u32;
            let m = pos.last_move(c);
            if !m.is_null() {
                last[i] = Some((from_square(m.from()), from_square(m.to())));
            }
            rescues[i] = pos.rescues(c) as u32;
        }
        let mut g = NaiveGame {
            files,
            ranks,
            board,
            rules: *pos.rules(),
            side: pos.side_to_move(),
            ply: pos.ply(),
            quiet: pos.quiet_plies(),
            captured,
            rescues,
            flag_taken: pos.flag_taken_by().is_some(),
            trail,
            chase,
            last,
            history: Vec::new(),
        };
        // Earlier placements: walk the known moves back from the current board, as far as
        // the last attack or rescue (before those the material differed, so no earlier
        // placement can come back).
        let mut scratch = g.board.clone();
        let mut hist = vec![placement_of(&scratch)];
        for (m, attack) in pos.recent_moves().iter().rev() {
            if *attack || m.rescue().is_some() {
                break;
            }
            let (f, t) = (from_square(m.from()), from_square(m.to()));
            assert!(
                scratch[t.1][t.0].is_some() && scratch[f.1][f.0].is_none(),
                "recent move {m} does not fit the board"
            );
            scratch[f.1][f.0] = scratch[t.1][t.0].take();
            hist.push(placement_of(&scratch));
        }
        hist.reverse();
        g.history = hist;
        g
    }

    pub fn at(&self, s: Sq) -> Option<NPiece> {
        self.board[s.1][s.0]
    }

    fn set(&mut self, s: Sq, p: Option<NPiece>) {
        self.board[s.1][s.0] = p;
    }

    /// Lakes: two 2x2 blocks in files c-d and g-h on the two middle ranks.
    pub fn is_lake(&self, s: Sq) -> bool {
        let middle = [self.ranks / 2 - 1, self.ranks / 2];
        middle.contains(&s.1) && [2, 3, 6, 7].contains(&s.0)
    }

    /// The square one step from `s` in direction `(df, dr)`, if it is on the board and not
    /// a lake.
    fn step(&self, s: Sq, df: i32, dr: i32) -> Option<Sq> {
        let f = s.0 as i32 + df;
        let r = s.1 as i32 + dr;
        if f < 0 || r < 0 || f >= self.files as i32 || r >= self.ranks as i32 {
            return None;
        }
        let n = (f as usize, r as usize);
        if self.is_lake(n) {
            None
        } else {
            Some(n)
        }
    }

    fn next_to_color(&self, s: Sq, color: Color) -> bool {
        for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
            if let Some(n) = self.step(s, df, dr) {
                if self.at(n).is_some_and(|p| p.color == color) {
                    return true;
                }
            }
        }
        false
    }

    /// Is the game over by a Flag capture or a cap (then nobody has moves)?
    pub fn over_early(&self) -> bool {
        if self.flag_taken {
            return true;
        }
        if let Some(n) = self.rules.max_quiet_plies {
            if self.quiet > n {
                return true;
            }
        }
        if let Some(n) = self.rules.max_plies {
            if self.ply > n {
                return true;
            }
        }
        false
    }

    /// Every move a piece could make by the movement rules alone (no repetition rules,
    /// no rescue versions).
    pub fn basic_moves(&self) -> Vec<NMove> {
        let mut out = Vec::new();
        for r in 0..self.ranks {
            for f in 0..self.files {
                let Some(p) = self.board[r][f] else { continue };
                if p.color != self.side || p.rank == Rank::Bomb || p.rank == Rank::Flag {
                    continue;
                }
                let reach = if p.rank == Rank::Scout { usize::MAX } else { 1 };
                for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                    let mut cur = (f, r);
                    let mut steps = 0;
                    while steps < reach {
                        let Some(n) = self.step(cur, df, dr) else { break };
                        steps += 1;
                        match self.at(n) {
                            None => {
                                out.push(NMove {
                                    from: (f, r),
                                    to: n,
                                    rescue: None,
                                });
                                cur = n;
                            }
                            Some(q) => {
                                if q.color != self.side {
                                    out.push(NMove {
                                        from: (f, r),
                                        to: n,
                                        rescue: None,
                                    });
                                }
                                break;
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// The rescue versions of a basic move (empty unless the move may rescue).
    pub fn rescue_versions(&self, m: NMove) -> Vec<NMove> {
        let mut out = Vec::new();
        let us = self.side;
        let i = side_index(us);
        if !self.rules.rescue || self.rescues[i] >= 2 {
            return out;
        }
        let enemy_back = if us == Color::Red { self.ranks - 1 } else { 0 };
        if m.to.1 != enemy_back {
            return out;
        }
        let mover = self.at(m.from).expect("mover");
        if mover.rank == Rank::Scout || mover.rescuer {
            return out;
        }
        for r in Rank::ALL {
            if r == Rank::Bomb || r == Rank::Flag || !self.captured[i].contains(&r) {
                continue;
            }
            for rank in 0..self.ranks {
                let own_half = if us == Color::Red {
                    rank < self.ranks / 2
                } else {
                    rank >= self.ranks / 2
                };
                if !own_half {
                    continue;
                }
                for file in 0..self.files {
                    let s = (file, rank);
                    // Empty once the mover has left its square and arrived on `to`.
                    let empty_after = s != m.to && (self.at(s).is_none() || s == m.from);
                    if !self.is_lake(s) && empty_after {
                        out.push(NMove {
                            rescue: Some((r, s)),
                            ..m
                        });
                    }
                }
            }
        }
        out
    }

    /// Two-squares rule: follow the last-moved piece's moves along one axis; if its last
    /// n moves alternated direction and their spans share a square boundary, a move of
    /// that piece on that axis crossing a shared boundary again is illegal.
    pub fn two_squares_forbids(&self, m: NMove) -> bool {
        let Some(limit) = self.rules.two_squares else {
            return false;
        };
        let n = limit as usize;
        let trail = &self.trail[side_index(self.side)];
        if n == 0 || trail.len() < n {
            return false;
        }
        let (first_from, first_to) = trail[0];
        let (_, last_to) = trail[trail.len() - 1];
        if last_to != m.from {
            return false; // another piece
        }
        let axis_vertical = vertical(first_from, first_to);
        if vertical(m.from, m.to) != axis_vertical {
            return false; // the other axis
        }
        let coord = |s: Sq| if axis_vertical { s.1 } else { s.0 };
        let recent = &trail[trail.len() - n..];
        for w in recent.windows(2) {
            let up0 = coord(w[0].1) > coord(w[0].0);
            let up1 = coord(w[1].1) > coord(w[1].0);
            if up0 == up1 {
                return false; // did not alternate
            }
        }
        // Boundary b lies between coordinates b and b + 1.
        let crosses = |(a, b): (Sq, Sq), boundary: usize| {
            let lo = coord(a).min(coord(b));
            let hi = coord(a).max(coord(b));
            lo <= boundary && boundary < hi
        };
        let size = if axis_vertical { self.ranks } else { self.files };
        for boundary in 0..size {
            let shared = recent.iter().all(|&mv| crosses(mv, boundary));
            if shared && crosses((m.from, m.to), boundary) {
                return true;
            }
        }
        false
    }

    /// More-squares rule for the side to move with counter L (see the module docs).
    pub fn more_squares_forbids(&self, m: NMove) -> bool {
        if !self.rules.more_squares {
            return false;
        }
        let us = self.side;
        let l = self.chase[side_index(us)] as usize;
        if l < 2 {
            return false;
        }
        if !self.next_to_color(m.to, other(us)) {
            return false;
        }
        if self.last[side_index(us)] == Some((m.to, m.from)) {
            return false; // the exact reverse of its own previous move
        }
        let after = self.placement_after(m);
        let h = self.history.len();
        for k in 1..=l {
            if k > h {
                break; // not known: before an attack, so different material
            }
            if self.history[h - k] == after {
                return true;
            }
        }
        false
    }

    /// The placement a move produces (combat and rescue included).
    pub fn placement_after(&self, m: NMove) -> Placement {
        let mut b = self.board.clone();
        let mover = b[m.from.1][m.from.0].take().expect("mover");
        let survives = match b[m.to.1][m.to.0] {
            None => true,
            Some(def) => match fight(mover.rank, def.rank, self.rules.attacker_advantage) {
                Fight::AttackerWins | Fight::FlagTaken => true,
                Fight::DefenderWins => false,
                Fight::BothDie => {
                    b[m.to.1][m.to.0] = None;
                    false
                }
            },
        };
        if survives {
            b[m.to.1][m.to.0] = Some(mover);
            if let Some((r, place)) = m.rescue {
                b[place.1][place.0] = Some(NPiece {
                    color: mover.color,
                    rank: r,
                    rescuer: false,
                });
            }
        }
        placement_of(&b)
    }

    /// The legal moves, with the repetition rules switched on or off for the test's
    /// statistics (both on is the real thing).
    pub fn moves_with(&self, two_squares: bool, more_squares: bool) -> Vec<NMove> {
        let mut out = Vec::new();
        if self.over_early() {
            return out;
        }
        for m in self.basic_moves() {
            if two_squares && self.two_squares_forbids(m) {
                continue;
            }
            let mut all = vec![m];
            all.extend(self.rescue_versions(m));
            for v in all {
                if more_squares && self.more_squares_forbids(v) {
                    continue;
                }
                out.push(v);
            }
        }
        out
    }

    pub fn legal(&self) -> Vec<NMove> {
        self.moves_with(true, true)
    }

    /// The legal moves as engine moves, sorted.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut v: Vec<Move> = self.legal().into_iter().map(NMove::to_move).collect();
        v.sort();
        v
    }

    /// Plays a move (assumed legal) on the naive state.
    pub fn play(&mut self, m: NMove) {
        let us = self.side;
        let them = other(us);
        let (ui, ti) = (side_index(us), side_index(them));
        let (from, to) = (m.from, m.to);
        let mut mover = self.at(from).expect("a piece on the from-square");
        let target = self.at(to);
        self.set(from, None);
        let mut survives = true;
        let mut defender_removed = false;
        match target {
            None => self.quiet += 1,
            Some(def) => {
                self.quiet = 0;
                match fight(mover.rank, def.rank, self.rules.attacker_advantage) {
                    Fight::AttackerWins => {
                        self.captured[ti].push(def.rank);
                        defender_removed = true;
                    }
                    Fight::FlagTaken => {
                        self.captured[ti].push(def.rank);
                        defender_removed = true;
                        self.flag_taken = true;
                    }
                    Fight::DefenderWins => {
                        self.captured[ui].push(mover.rank);
                        survives = false;
                    }
                    Fight::BothDie => {
                        self.captured[ui].push(mover.rank);
                        self.captured[ti].push(def.rank);
                        self.set(to, None);
                        survives = false;
                        defender_removed = true;
                    }
                }
            }
        }
        if survives {
            if let Some((r, place)) = m.rescue {
                mover.rescuer = true;
                let k = self.captured[ui]
                    .iter()
                    .position(|&c| c == r)
                    .expect("the rescued rank was captured");
                self.captured[ui].remove(k);
                self.set(
                    place,
                    Some(NPiece {
                        color: us,
                        rank: r,
                        rescuer: false,
                    }),
                );
                self.rescues[ui] += 1;
            }
            self.set(to, Some(mover));
        }
        // Two-squares trails.
        if survives {
            let continues = match self.trail[ui].last() {
                Some(&(pf, pt)) => pt == from && vertical(pf, pt) == vertical(from, to),
                None => false,
            };
            if !continues {
                self.trail[ui].clear();
            }
            self.trail[ui].push((from, to));
        } else {
            self.trail[ui].clear();
        }
        if defender_removed && self.trail[ti].last().map(|mv| mv.1) == Some(to) {
            self.trail[ti].clear();
        }
        // More-squares counters, RULES.md steps (1)-(3).
        let fled = match self.last[ti] {
            Some((_, q_to)) => adjacent(from, q_to),
            None => false,
        };
        self.chase[ti] = if fled { self.chase[ti] + 1 } else { 0 };
        if target.is_some() || m.rescue.is_some() {
            self.chase = [0, 0];
        }
        self.chase[ui] = if self.next_to_color(to, them) {
            self.chase[ui] + 1
        } else {
            0
        };
        self.last[ui] = Some((from, to));
        self.side = them;
        self.ply += 1;
        let now = placement_of(&self.board);
        self.history.push(now);
    }

    /// Plays an engine move.
    pub fn play_move(&mut self, m: Move) {
        self.play(NMove::from_move(m));
    }

    /// Leaf count `depth` plies ahead.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut n = 0;
        for m in moves {
            let mut next = self.clone();
            next.play(m);
            n += next.perft(depth - 1);
        }
        n
    }

    /// The trail squares, newest first (as `Trail::squares` lists them).
    pub fn trail_squares(&self, c: Color) -> Vec<Sq> {
        let t = &self.trail[side_index(c)];
        let mut v: Vec<Sq> = Vec::new();
        if let Some(&(f, _)) = t.first() {
            v.push(f);
        }
        for &(_, to) in t {
            v.push(to);
        }
        v.reverse();
        v
    }
}

/// Owner and rank of every square of a board.
pub fn placement_of(board: &[Vec<Option<NPiece>>]) -> Placement {
    board
        .iter()
        .map(|row| row.iter().map(|c| c.map(|p| (p.color, p.rank))).collect())
        .collect()
}
