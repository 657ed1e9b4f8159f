//! Static evaluation of a full-information position, from the side to move's point of view.
//!
//! Units: a Captain is worth 100. Material uses Stratego piece values that change with the
//! game (Miners while enemy Bombs remain, the Spy while the enemy Marshal lives), plus a
//! bonus for every own piece whose rank the opponent has not seen.

use crate::rules::piece::RANK_MASK;
use crate::rules::position::REVEALED;
use crate::rules::square::STRIDE;
use crate::rules::{Color, Position, Rank};

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

/// A Miner's value while the enemy still has Bombs.
const MINER_WITH_BOMBS: i32 = 100;
/// The Spy's value once the enemy Marshal is gone.
const SPY_WITHOUT_MARSHAL: i32 = 10;
/// The share of a piece's value that its hidden rank adds (1/8).
const HIDDEN_SHIFT: u32 = 3;

/// Per row a movable piece stands from its own back row.
const ADVANCE: i32 = 2;

/// What an enemy movable piece `d` steps (Manhattan) from a Flag costs its owner: the
/// search sees captures within its horizon; this sees the walks just beyond it.
const FLAG_DANGER: [i32; 7] = [0, 60, 40, 24, 12, 6, 2];

/// The value of a piece of `rank` for its owner, given what the enemy has left.
#[inline]
pub fn piece_value(pos: &Position, owner: Color, rank: Rank) -> i32 {
    let them = owner.flip();
    match rank {
        Rank::Miner if pos.count(them, Rank::Bomb) > 0 => MINER_WITH_BOMBS,
        Rank::Spy if pos.count(them, Rank::Marshal) == 0 => SPY_WITHOUT_MARSHAL,
        r => VALUES[r.index()],
    }
}

/// Mailbox square of a bitboard bit.
#[inline]
fn square_of(bits: u128) -> usize {
    bits.trailing_zeros() as usize + STRIDE
}

/// How threatened `color`'s Flag is by nearby enemy movable pieces.
fn flag_danger(pos: &Position, color: Color) -> i32 {
    let c = color.index();
    let mut still = pos.bb[c][0] & !(pos.bb[c][1] | pos.bb[c][2]);
    let flag = Rank::Flag as u8;
    let mut danger = 0;
    while still != 0 {
        let sq = square_of(still);
        still &= still - 1;
        if pos.cells[sq] & RANK_MASK != flag {
            continue;
        }
        let (fr, ff) = ((sq / STRIDE) as i32, (sq % STRIDE) as i32);
        let them = color.flip().index();
        let mut movers = pos.bb[them][1] | pos.bb[them][2];
        while movers != 0 {
            let m = square_of(movers);
            movers &= movers - 1;
            let d = ((m / STRIDE) as i32 - fr).abs() + ((m % STRIDE) as i32 - ff).abs();
            if let Some(&w) = FLAG_DANGER.get(d as usize) {
                danger += w;
            }
        }
    }
    danger
}

/// Material and hidden-rank bonus of `color`.
fn side_score(pos: &Position, color: Color) -> i32 {
    let c = color.index();
    let counts = &pos.counts[c];
    let mut values = VALUES;
    let them = color.flip().index();
    if pos.counts[them][Rank::Bomb.index()] > 0 {
        values[Rank::Miner.index()] = MINER_WITH_BOMBS;
    }
    if pos.counts[them][Rank::Marshal.index()] == 0 {
        values[Rank::Spy.index()] = SPY_WITHOUT_MARSHAL;
    }
    let mut s: i32 = counts.iter().zip(values.iter()).map(|(&n, &v)| n as i32 * v).sum();
    let mut bits = pos.bb[c][0];
    let movers = pos.bb[c][1] | pos.bb[c][2];
    let top = pos.variant.ranks as i32 - 1;
    while bits != 0 {
        let sq = square_of(bits);
        let b = bits & bits.wrapping_neg();
        bits &= bits - 1;
        if pos.flags[sq] & REVEALED == 0 {
            s += values[(pos.cells[sq] & RANK_MASK) as usize] >> HIDDEN_SHIFT;
        }
        if movers & b != 0 {
            // Rows advanced towards the enemy: pieces that never come forward never win.
            let row = (sq / STRIDE) as i32 - 1;
            s += ADVANCE * if color == Color::Red { row } else { top - row };
        }
    }
    s - flag_danger(pos, color)
}

/// The static score of `pos` for the side to move (a draw-ish position is near 0).
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    side_score(pos, us) - side_score(pos, us.flip())
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
        // Red: 400 + 1000 + 125 (hidden Flag); Blue: 300 + 37 + 1000 + 125; nobody advanced.
        assert_eq!(evaluate(&p), 1525 - 1462);
    }
}
