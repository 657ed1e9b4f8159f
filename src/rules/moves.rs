//! Moves: a from and a to square, and for the rescue option the rank brought back and
//! where it is placed. Notation `e4e5`, `b4b8`, `d9d10+Mc3` (rescue a Marshal onto c3).

use super::piece::{take_rank_token, Rank};
use super::square::Square;
use std::fmt;

/// A move packed in 32 bits: from (bits 0-7), to (8-15), rescued rank + 1 (16-19, 0 when
/// no rescue), rescue square (24-31).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Move(pub(crate) u32);

impl Move {
    /// No move (used where a previous move does not exist yet).
    pub const NULL: Move = Move(0);

    #[inline]
    pub fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u32 | (to.0 as u32) << 8)
    }

    /// A move that also rescues a captured `rank` onto `place`.
    #[inline]
    pub fn with_rescue(from: Square, to: Square, rank: Rank, place: Square) -> Move {
        Move(Move::new(from, to).0 | (rank as u32 + 1) << 16 | (place.0 as u32) << 24)
    }

    #[inline]
    pub fn from(self) -> Square {
        Square(self.0 as u8)
    }

    #[inline]
    pub fn to(self) -> Square {
        Square((self.0 >> 8) as u8)
    }

    #[inline]
    pub fn is_null(self) -> bool {
        self.0 == 0
    }

    /// The rescued rank and where it goes, if this move rescues.
    #[inline]
    pub fn rescue(self) -> Option<(Rank, Square)> {
        let r = (self.0 >> 16) & 0xf;
        if r == 0 {
            None
        } else {
            Some((Rank::from_index(r as usize - 1)?, Square((self.0 >> 24) as u8)))
        }
    }

    /// The same move without its rescue part.
    #[inline]
    pub fn base(self) -> Move {
        Move(self.0 & 0xffff)
    }

    /// Parses `e4e5` or `e9e10+Mc3`. Squares are only range-checked (a-j, 1-10); whether
    /// the move is legal is the position's question.
    pub fn parse(s: &str) -> Result<Move, String> {
        let b = s.as_bytes();
        let (from, n1) = Square::take(b).ok_or_else(|| format!("move '{s}': bad from-square"))?;
        let (to, n2) = Square::take(&b[n1..]).ok_or_else(|| format!("move '{s}': bad to-square"))?;
        let mut i = n1 + n2;
        if from == to {
            return Err(format!("move '{s}': from and to are the same square"));
        }
        if i == b.len() {
            return Ok(Move::new(from, to));
        }
        if b[i] != b'+' {
            return Err(format!("move '{s}': unexpected '{}' after the squares", &s[i..]));
        }
        i += 1;
        let (rank, n3) = take_rank_token(&b[i..]).ok_or_else(|| format!("move '{s}': bad rescued piece after '+'"))?;
        i += n3;
        let (place, n4) = Square::take(&b[i..]).ok_or_else(|| format!("move '{s}': bad rescue square"))?;
        if i + n4 != b.len() {
            return Err(format!("move '{s}': trailing characters"));
        }
        Ok(Move::with_rescue(from, to, rank, place))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return f.write_str("0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some((r, sq)) = self.rescue() {
            write!(f, "+{}{}", r.to_char(), sq)?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Move {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Move::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation() {
        for s in ["e4e5", "b4b8", "a10a1", "d9d10+Mc3", "j7j10+2a1"] {
            assert_eq!(Move::parse(s).unwrap().to_string(), s);
        }
        assert_eq!(Move::parse("d9d10+10c3").unwrap().to_string(), "d9d10+Mc3");
        for bad in [
            "",
            "e4",
            "e4e4",
            "e4e5x",
            "e4e5+",
            "e4e5+Mk3",
            "e4e5+Xc3",
            "e4e5+Mc3x",
            "z1a1",
        ] {
            assert!(Move::parse(bad).is_err(), "{bad}");
        }
    }
}
