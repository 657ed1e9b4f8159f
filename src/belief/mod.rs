//! What one side knows and guesses of the other's ranks: the pool of hidden enemy ranks
//! and seeded sampling of full-information positions (determinizations) consistent with it.

use crate::rules::piece::NUM_RANKS;
use crate::rules::position::MOVED;
use crate::rules::{Color, Position, PositionError, Rank, Square};
use rand::Rng;

/// The hidden part of a player's view: which enemy pieces are unknown and which ranks
/// they may take. Built once per view; sampling is cheap.
#[derive(Clone, Debug, PartialEq, Eq)]
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

    /// Draws an assignment uniformly piece by piece: moved pieces first (from the movable
    /// ranks), then the pieces captured unseen (anything but a Flag, which would have ended
    /// the game), then the unmoved pieces (anything left). The constraint sets are nested,
    /// so this greedy order succeeds whenever any consistent assignment exists; `None`
    /// when none does (a contradictory view).
    pub fn sample<R: Rng>(&self, rng: &mut R) -> Option<Assignment> {
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
    use super::*;
    use crate::rules::position::REVEALED;
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

    #[test]
    fn samples_agree_with_the_view() {
        let mut rng = StdRng::seed_from_u64(11);
        for name in ["classic", "compact", "duel", "duel-compact", "barrage"] {
            let v = Variant::parse(name).unwrap();
            for pos in random_positions(name, 12, 5) {
                let side = pos.side_to_move();
                let them = side.flip();
                let view = pos.view(side);
                let belief = Belief::from_view(&view);
                for _ in 0..5 {
                    let world = belief.sample_position(&view, &mut rng).expect("consistent view");
                    assert_eq!(world.view_of(), None);
                    assert_eq!(world.side_to_move(), side);
                    for r in Rank::ALL {
                        let n = world.count(them, r) as usize + world.captured(them, r) as usize;
                        assert!(n <= v.army[r.index()] as usize, "{name}: too many {r:?}");
                        assert_eq!(world.count(side, r), pos.count(side, r));
                    }
                    assert_eq!(world.count(them, Rank::Unknown), 0);
                    for sq in v.squares() {
                        let (w, vp) = (world.piece_at(sq), view.piece_at(sq));
                        assert_eq!(w.map(|p| p.color()), vp.map(|p| p.color()));
                        assert_eq!(world.flags_at(sq), view.flags_at(sq));
                        let (Some(w), Some(vp)) = (w, vp) else { continue };
                        if vp.rank() == Rank::Unknown {
                            if world.flags_at(sq) & MOVED != 0 {
                                assert!(w.rank().is_movable(), "{name}: moved piece guessed {:?}", w.rank());
                            }
                        } else {
                            assert_eq!(w.rank(), vp.rank());
                        }
                        if w.color() == them && view.flags_at(sq) & REVEALED != 0 {
                            assert_eq!(Some(w.rank()), pos.piece_at(sq).map(|p| p.rank()));
                        }
                    }
                    assert_eq!(world.legal_moves(), view.legal_moves(), "{name}");
                }
            }
        }
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
