//! Squares on a padded mailbox board, and their names (`a1`..`j10`).
//!
//! Boards are at most 10 files by 10 ranks. Cells are laid out with a stride of 11 and
//! one border row below and above, so that the border column between two rows and the
//! border rows stop every ray without a bounds check.

use std::fmt;

/// Cells per board row, one more than the widest board (the extra one is a border).
pub const STRIDE: usize = 11;
/// Cells of the padded board: 12 rows (10 ranks and two border rows) of 11.
pub const CELLS: usize = STRIDE * 12;
/// The widest and tallest boards supported.
pub const MAX_FILES: u8 = 10;
pub const MAX_RANKS: u8 = 10;

/// The four step directions as index offsets: up (towards Blue), down, left, right.
pub const DIRS: [i8; 4] = [STRIDE as i8, -(STRIDE as i8), -1, 1];

/// A square: a mailbox index. Files and ranks count from 0 internally.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub(crate) u8);

impl Square {
    /// The square at `file` (0 = a) and `rank` (0 = rank 1).
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        Square(((rank as usize + 1) * STRIDE + file as usize) as u8)
    }

    /// File, 0 = a.
    #[inline]
    pub const fn file(self) -> u8 {
        (self.0 as usize % STRIDE) as u8
    }

    /// Rank, 0 = rank 1.
    #[inline]
    pub const fn rank(self) -> u8 {
        (self.0 as usize / STRIDE - 1) as u8
    }

    /// The mailbox index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square from a mailbox index (no check that it lies on a board).
    #[inline]
    pub const fn from_index(i: usize) -> Square {
        Square(i as u8)
    }

    /// Parses `a1`..`j10` (any case of the file letter). Checks only the letter and number
    /// ranges; whether the square is on a given board is the variant's question.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() < 2 || b.len() > 3 {
            return None;
        }
        let f = b[0].to_ascii_lowercase();
        if !(b'a'..=b'j').contains(&f) {
            return None;
        }
        let num = &s[1..];
        if num.starts_with('0') || !num.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let r: u8 = num.parse().ok()?;
        if !(1..=MAX_RANKS).contains(&r) {
            return None;
        }
        Some(Square::new(f - b'a', r - 1))
    }

    /// Reads a square from the front of `s`; returns it and the bytes consumed.
    /// Takes two digits only when they make 10.
    pub fn take(s: &[u8]) -> Option<(Square, usize)> {
        let f = s.first()?.to_ascii_lowercase();
        if !(b'a'..=b'j').contains(&f) {
            return None;
        }
        let d1 = *s.get(1)?;
        if !(b'1'..=b'9').contains(&d1) {
            return None;
        }
        if d1 == b'1' && s.get(2) == Some(&b'0') {
            return Some((Square::new(f - b'a', 9), 3));
        }
        Some((Square::new(f - b'a', d1 - b'1'), 2))
    }

    /// Manhattan distance (steps along files and ranks).
    #[inline]
    pub fn distance(self, other: Square) -> u32 {
        u32::from(self.file().abs_diff(other.file()) + self.rank().abs_diff(other.rank()))
    }

    /// Manhattan neighbours test.
    #[inline]
    pub fn is_adjacent(self, other: Square) -> bool {
        let d = (self.0 as i16 - other.0 as i16).abs();
        d == 1 || d == STRIDE as i16
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for r in 0..10 {
            for f in 0..10 {
                let s = Square::new(f, r);
                assert_eq!(s.file(), f);
                assert_eq!(s.rank(), r);
                assert_eq!(Square::parse(&s.to_string()), Some(s));
                let txt = s.to_string();
                assert_eq!(Square::take(txt.as_bytes()), Some((s, txt.len())));
            }
        }
        for bad in ["", "a", "k1", "a0", "a11", "a01", "aa", "a1x"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
    }
}
