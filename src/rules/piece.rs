//! Colours, ranks and the one-byte piece codes the board stores.

use std::fmt;

/// A player's colour. Red sets up on ranks 1.. and moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Color {
    Red = 0,
    Blue = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const BOTH: [Color; 2] = [Color::Red, Color::Blue];

    /// The other colour.
    #[inline]
    pub fn flip(self) -> Color {
        match self {
            Color::Red => Color::Blue,
            Color::Blue => Color::Red,
        }
    }

    /// 0 for Red, 1 for Blue.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The bit this colour sets in a board cell.
    #[inline]
    pub fn cell_bit(self) -> u8 {
        match self {
            Color::Red => RED_BIT,
            Color::Blue => BLUE_BIT,
        }
    }

    /// `r` or `b`.
    pub fn letter(self) -> char {
        match self {
            Color::Red => 'r',
            Color::Blue => 'b',
        }
    }

    /// Parses `r`, `red`, `b`, `blue` (any case).
    pub fn parse(s: &str) -> Option<Color> {
        match s.to_ascii_lowercase().as_str() {
            "r" | "red" => Some(Color::Red),
            "b" | "blue" => Some(Color::Blue),
            _ => None,
        }
    }

    /// `red` or `blue`.
    pub fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Blue => "blue",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rank in European numbering: the number is the strength for Spy (1) to Marshal (10).
/// `Unknown` only appears in a player's view for an enemy piece whose rank is hidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Rank {
    Flag = 0,
    Spy = 1,
    Scout = 2,
    Miner = 3,
    Sergeant = 4,
    Lieutenant = 5,
    Captain = 6,
    Major = 7,
    Colonel = 8,
    General = 9,
    Marshal = 10,
    Bomb = 11,
    Unknown = 12,
}

/// Number of real ranks (Flag..Bomb); `Unknown` is not counted.
pub const NUM_RANKS: usize = 12;

impl Rank {
    /// The twelve real ranks, weakest movable first after the Flag.
    pub const ALL: [Rank; NUM_RANKS] = [
        Rank::Flag,
        Rank::Spy,
        Rank::Scout,
        Rank::Miner,
        Rank::Sergeant,
        Rank::Lieutenant,
        Rank::Captain,
        Rank::Major,
        Rank::Colonel,
        Rank::General,
        Rank::Marshal,
        Rank::Bomb,
    ];

    /// The rank with this index (0..=12).
    #[inline]
    pub fn from_index(i: usize) -> Option<Rank> {
        match i {
            0..=11 => Some(Rank::ALL[i]),
            12 => Some(Rank::Unknown),
            _ => None,
        }
    }

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Bombs, Flags never move; an unknown piece may.
    #[inline]
    pub fn is_movable(self) -> bool {
        !matches!(self, Rank::Flag | Rank::Bomb)
    }

    /// The piece character of our notation: `F B S 2-9 M`, `?` for unknown.
    pub fn to_char(self) -> char {
        match self {
            Rank::Flag => 'F',
            Rank::Bomb => 'B',
            Rank::Spy => 'S',
            Rank::Marshal => 'M',
            Rank::Unknown => '?',
            r => (b'0' + r as u8) as char,
        }
    }

    /// Parses one piece character (`F B S 2-9 M`, also `1` for the Spy); `?` is not accepted.
    pub fn from_char(c: char) -> Option<Rank> {
        Some(match c.to_ascii_uppercase() {
            'F' => Rank::Flag,
            'B' => Rank::Bomb,
            'S' | '1' => Rank::Spy,
            'M' => Rank::Marshal,
            d @ '2'..='9' => Rank::ALL[(d as u8 - b'0') as usize],
            _ => return None,
        })
    }

    /// English name.
    pub fn name(self) -> &'static str {
        match self {
            Rank::Flag => "Flag",
            Rank::Spy => "Spy",
            Rank::Scout => "Scout",
            Rank::Miner => "Miner",
            Rank::Sergeant => "Sergeant",
            Rank::Lieutenant => "Lieutenant",
            Rank::Captain => "Captain",
            Rank::Major => "Major",
            Rank::Colonel => "Colonel",
            Rank::General => "General",
            Rank::Marshal => "Marshal",
            Rank::Bomb => "Bomb",
            Rank::Unknown => "unknown piece",
        }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// Reads one piece token from the front of `s`: a piece character, or the rank numbers
/// `1` (Spy) and `10` (Marshal). Returns the rank and the bytes consumed.
pub fn take_rank_token(s: &[u8]) -> Option<(Rank, usize)> {
    let c = *s.first()?;
    if c == b'1' && s.get(1) == Some(&b'0') {
        return Some((Rank::Marshal, 2));
    }
    Rank::from_char(c as char).map(|r| (r, 1))
}

/// Cell bit of a red piece.
pub const RED_BIT: u8 = 0x20;
/// Cell bit of a blue piece.
pub const BLUE_BIT: u8 = 0x40;
/// Cell value of squares nothing may enter: lakes and the border.
pub const WALL: u8 = 0x80;
/// Cell value of an empty square.
pub const EMPTY: u8 = 0;
/// Mask of the rank in a cell.
pub const RANK_MASK: u8 = 0x0f;

/// A piece: colour and rank, as one byte (`colour bit | rank`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece(pub(crate) u8);

impl Piece {
    #[inline]
    pub fn new(color: Color, rank: Rank) -> Piece {
        Piece(color.cell_bit() | rank as u8)
    }

    #[inline]
    pub fn color(self) -> Color {
        if self.0 & RED_BIT != 0 {
            Color::Red
        } else {
            Color::Blue
        }
    }

    #[inline]
    pub fn rank(self) -> Rank {
        // Cells only ever hold ranks 0..=12, written by `Piece::new`.
        Rank::from_index((self.0 & RANK_MASK) as usize).unwrap_or(Rank::Unknown)
    }

    /// The raw cell byte.
    #[inline]
    pub fn code(self) -> u8 {
        self.0
    }

    /// Interprets a cell byte; `None` for empty squares and walls.
    #[inline]
    pub fn from_cell(cell: u8) -> Option<Piece> {
        if cell & (RED_BIT | BLUE_BIT) != 0 {
            Some(Piece(cell))
        } else {
            None
        }
    }
}

/// What one combat does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Combat {
    /// The defender is removed; the attacker takes its square.
    AttackerWins,
    /// The attacker is removed; the defender stays.
    DefenderWins,
    /// Both are removed.
    BothDie,
    /// The defender was the Flag: the game is over.
    FlagCaptured,
}

/// Resolves an attack of `att` on `def` under the combat rules of RULES.md.
/// `attacker_advantage`: equal ranks are won by the attacker.
#[inline]
pub fn resolve_combat(att: Rank, def: Rank, attacker_advantage: bool) -> Combat {
    match def {
        Rank::Flag => Combat::FlagCaptured,
        Rank::Bomb => {
            if att == Rank::Miner {
                Combat::AttackerWins
            } else {
                Combat::DefenderWins
            }
        }
        _ => {
            if att == Rank::Spy && def == Rank::Marshal {
                Combat::AttackerWins
            } else if att == def {
                if attacker_advantage {
                    Combat::AttackerWins
                } else {
                    Combat::BothDie
                }
            } else if att > def {
                Combat::AttackerWins
            } else {
                Combat::DefenderWins
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_chars_round_trip() {
        for r in Rank::ALL {
            assert_eq!(Rank::from_char(r.to_char()), Some(r));
        }
        assert_eq!(take_rank_token(b"10x"), Some((Rank::Marshal, 2)));
        assert_eq!(take_rank_token(b"1"), Some((Rank::Spy, 1)));
        assert_eq!(take_rank_token(b"x"), None);
    }

    #[test]
    fn combat_table() {
        use Rank::*;
        assert_eq!(resolve_combat(Spy, Marshal, false), Combat::AttackerWins);
        assert_eq!(resolve_combat(Marshal, Spy, false), Combat::AttackerWins);
        assert_eq!(resolve_combat(Miner, Bomb, false), Combat::AttackerWins);
        assert_eq!(resolve_combat(Marshal, Bomb, false), Combat::DefenderWins);
        assert_eq!(resolve_combat(Scout, Scout, false), Combat::BothDie);
        assert_eq!(resolve_combat(Scout, Scout, true), Combat::AttackerWins);
        assert_eq!(resolve_combat(Spy, Flag, false), Combat::FlagCaptured);
        assert_eq!(resolve_combat(Sergeant, General, false), Combat::DefenderWins);
    }
}
