//! StraDos3 positions: the one-line board strings of the Yorktown, CrazyAra and Ataraxos
//! code bases, read into and printed from our full positions.
//!
//! # The format
//!
//! Three fields separated by spaces: the board, the side to move (`r` or `b`) and the
//! number of plies played (`0` at the start). The board has exactly 100 characters, the
//! squares row by row from Red's back row (our rank 1) to Blue's (rank 10), each row from
//! file a to file j:
//!
//! | character | square |
//! |---|---|
//! | `A` (or `a`) | empty |
//! | `_` | lake |
//! | `B`, `C`..`L`, `M` | Red Bomb, Spy, Scout, Miner, Sergeant, Lieutenant, Captain, Major, Colonel, General, Marshal, Flag |
//! | `N`, `O`..`X`, `Y` | Blue Bomb, Spy .. Marshal, Flag |
//!
//! A piece letter is upper case while the piece's rank is hidden from the opponent and
//! lower case once it has been revealed. We print empty squares as `A`.
//!
//! # What a StraDos3 string does not hold
//!
//! Which pieces have moved, the captured pieces, the repetition state and the recent
//! moves. Reading one, a piece outside its own setup zone counts as moved and every
//! other as unmoved; the captured pieces are the army less the pieces on the board (the
//! army of the variant given, classic by default); the plies since the last attack, the
//! two-squares trails, the chase counters and the recent moves start empty. Printing
//! drops them. Only the 10x10 board and full positions (every rank known) can be written.

use crate::rules::piece::{Color, Rank};
use crate::rules::position::{Position, PositionError, REVEALED};
use crate::rules::square::Square;
use crate::rules::variant::{Rules, Variant};

/// The ranks in StraDos3 letter order after the colour's first letter (Bomb, Spy ..
/// Marshal, Flag): the letters are Gravon's.
use super::gravon::LETTER_ORDER as ORDER;

fn err<T>(msg: String) -> Result<T, PositionError> {
    Err(PositionError(msg))
}

/// The letter of a piece: upper case while hidden, lower case once revealed.
fn letter(color: Color, rank: Rank, revealed: bool) -> Option<char> {
    let i = ORDER.iter().position(|&r| r == rank)? as u8;
    let base = if color == Color::Red { b'B' } else { b'N' };
    let c = (base + i) as char;
    Some(if revealed { c.to_ascii_lowercase() } else { c })
}

/// The piece of a board letter: `None` for an empty square or a lake.
fn piece_of(c: char) -> Option<(Color, Rank, bool)> {
    let up = c.to_ascii_uppercase();
    let (color, i) = match up {
        'B'..='M' => (Color::Red, up as u8 - b'B'),
        'N'..='Y' => (Color::Blue, up as u8 - b'N'),
        _ => return None,
    };
    Some((color, ORDER[i as usize], c.is_ascii_lowercase()))
}

/// A character of a StraDos3 board: `A`-`Y` in either case, or `_`.
fn is_strados3_char(c: char) -> bool {
    matches!(c.to_ascii_uppercase(), 'A'..='Y') || c == '_'
}

/// Does `s` look like a StraDos3 string (three fields, a 100-character board of StraDos3
/// letters)? Used to tell it from our own position line.
pub fn is_strados3(s: &str) -> bool {
    let f: Vec<&str> = s.split_whitespace().collect();
    f.len() == 3 && f[0].chars().count() == 100 && f[0].chars().all(is_strados3_char)
}

/// The StraDos3 string of a full position on the 10x10 board.
pub fn to_strados3(pos: &Position) -> Result<String, PositionError> {
    let v = pos.variant();
    if v.files != 10 || v.ranks != 10 {
        return err(format!("StraDos3 holds only the 10x10 board, not {}", v.name()));
    }
    if pos.view_of().is_some() {
        return err("StraDos3 needs every rank: give a full position, not a player's view".into());
    }
    let mut board = String::with_capacity(100);
    for rank in 0..10 {
        for file in 0..10 {
            let sq = Square::new(file, rank);
            board.push(if v.is_lake(sq) {
                '_'
            } else {
                match pos.piece_at(sq) {
                    None => 'A',
                    Some(p) => letter(p.color(), p.rank(), pos.flags_at(sq) & REVEALED != 0)
                        .ok_or_else(|| PositionError(format!("{sq} holds a piece of unknown rank")))?,
                }
            });
        }
    }
    Ok(format!("{board} {} {}", pos.side_to_move().letter(), pos.ply()))
}

/// Reads a StraDos3 string as a full position of `variant` (whose board must be 10x10)
/// under `rules`. Errors name the field or the square that is wrong.
pub fn from_strados3(s: &str, variant: &Variant, rules: Rules) -> Result<Position, PositionError> {
    let f: Vec<&str> = s.split_whitespace().collect();
    if f.len() != 3 {
        return err(format!(
            "a StraDos3 position has 3 fields (board side plies), found {}",
            f.len()
        ));
    }
    if variant.files != 10 || variant.ranks != 10 {
        return err(format!("StraDos3 holds only the 10x10 board, not {}", variant.name()));
    }
    let chars: Vec<char> = f[0].chars().collect();
    if chars.len() != 100 {
        return err(format!("a StraDos3 board has 100 characters, found {}", chars.len()));
    }
    let side = match f[1] {
        "r" => Color::Red,
        "b" => Color::Blue,
        other => return err(format!("StraDos3 side to move '{other}' is not r or b")),
    };
    let ply: u32 = f[2]
        .parse()
        .map_err(|_| PositionError(format!("StraDos3 ply count '{}' is not a number", f[2])))?;
    // Rows of our position line run from rank 10 down; StraDos3 runs from rank 1 up.
    let mut rows: Vec<String> = Vec::with_capacity(10);
    let mut on_board = [[0u8; 13]; 2];
    for rank in 0..10u8 {
        let mut row = String::new();
        for file in 0..10u8 {
            let sq = Square::new(file, rank);
            let c = chars[rank as usize * 10 + file as usize];
            let lake = variant.is_lake(sq);
            match (c, lake) {
                ('_', true) => row.push('~'),
                ('_', false) => return err(format!("StraDos3 square {sq}: '_' (lake) on a land square")),
                (_, true) => return err(format!("StraDos3 square {sq}: '{c}' on a lake (expected '_')")),
                ('A' | 'a', false) => row.push('.'),
                _ => {
                    let (color, r, revealed) = piece_of(c).ok_or_else(|| {
                        PositionError(format!("StraDos3 square {sq}: '{c}' is not a StraDos3 letter"))
                    })?;
                    on_board[color.index()][r.index()] += 1;
                    row.push(color.letter());
                    row.push(r.to_char());
                    // Outside its own setup zone a piece must have moved.
                    let home = variant.in_zone(color, sq);
                    if !home {
                        if !r.is_movable() {
                            return err(format!(
                                "StraDos3 square {sq}: a {} {} outside its setup zone",
                                color.name(),
                                r.name()
                            ));
                        }
                        row.push('\'');
                    }
                    if revealed {
                        row.push('!');
                    }
                }
            }
        }
        rows.push(row);
    }
    rows.reverse();
    let mut captured = Vec::new();
    for color in Color::BOTH {
        let mut s = String::new();
        for r in Rank::ALL {
            let army = variant.army[r.index()];
            let have = on_board[color.index()][r.index()];
            if have > army {
                return err(format!(
                    "StraDos3: {} has {have} {} on the board, {} has {army}",
                    color.name(),
                    r.name(),
                    variant.name()
                ));
            }
            (have..army).for_each(|_| s.push(r.to_char()));
        }
        captured.push(if s.is_empty() { "-".to_string() } else { s });
    }
    let line = format!(
        "{} full {} {} {ply} 0 {}/{} 0/0 -/- 0/0 -",
        variant.name(),
        rows.join("/"),
        side.letter(),
        captured[0],
        captured[1]
    );
    Position::from_text(&line, rules)
}

/// Reads a full position in either notation: our position line (protocol.md 1.7) or a
/// StraDos3 string (read as `variant`).
pub fn parse_any(s: &str, variant: &Variant, rules: Rules) -> Result<Position, PositionError> {
    if is_strados3(s) {
        from_strados3(s, variant, rules)
    } else {
        Position::from_text(s, rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_cover_both_armies() {
        assert_eq!(letter(Color::Red, Rank::Bomb, false), Some('B'));
        assert_eq!(letter(Color::Red, Rank::Spy, false), Some('C'));
        assert_eq!(letter(Color::Red, Rank::Marshal, true), Some('l'));
        assert_eq!(letter(Color::Red, Rank::Flag, false), Some('M'));
        assert_eq!(letter(Color::Blue, Rank::Bomb, false), Some('N'));
        assert_eq!(letter(Color::Blue, Rank::Scout, true), Some('p'));
        assert_eq!(letter(Color::Blue, Rank::Flag, false), Some('Y'));
        for c in ('B'..='Y').chain('b'..='y') {
            let (color, rank, revealed) = piece_of(c).unwrap();
            assert_eq!(letter(color, rank, revealed), Some(c));
        }
        assert_eq!(piece_of('A'), None);
        assert_eq!(piece_of('_'), None);
        assert_eq!(piece_of('Z'), None);
    }
}
