//! Translation between the UCC 2012 manager's conventions and Marshal's (see README.md):
//! squares (manager `x = 9 - file`, `y = rank - 1`, a half turn of our diagram), piece
//! characters (American order), setups (four rows, top row first), moves and outcomes.
#![allow(dead_code)]

use marshal::rules::{Color, Combat, Move, Position, Rank, Setup, Square, Variant};

/// The manager's board size (classic only).
pub const SIZE: u8 = 10;

/// Our square as the manager's `(x, y)`: `x = 9 - file`, `y = rank index` (a1 is (9, 0)).
pub fn to_xy(sq: Square) -> (u8, u8) {
    (SIZE - 1 - sq.file(), sq.rank())
}

/// The manager's `(x, y)` as our square, if on the board.
pub fn from_xy(x: i32, y: i32) -> Option<Square> {
    if (0..SIZE as i32).contains(&x) && (0..SIZE as i32).contains(&y) {
        Some(Square::new(SIZE - 1 - x as u8, y as u8))
    } else {
        None
    }
}

/// The manager's piece character of a rank: `1` Marshal .. `9` Scout, `s` Spy, `B`, `F`.
pub fn ucc_char(r: Rank) -> char {
    match r {
        Rank::Flag => 'F',
        Rank::Bomb => 'B',
        Rank::Spy => 's',
        Rank::Unknown => '#',
        r => (b'0' + 11 - r as u8) as char,
    }
}

/// The rank of a manager piece character (`S` accepted for the Spy).
pub fn rank_of_ucc(c: char) -> Option<Rank> {
    Some(match c {
        'F' => Rank::Flag,
        'B' => Rank::Bomb,
        's' | 'S' => Rank::Spy,
        d @ '1'..='9' => Rank::from_index(11 - (d as u8 - b'0') as usize)?,
        _ => return None,
    })
}

/// The four setup lines the manager expects, top row (y smallest) first: Red's back row
/// first, Blue's front row first; each line from x = 0 to 9.
pub fn setup_to_rows(setup: &Setup, color: Color) -> Vec<String> {
    let v = &setup.variant;
    let ys: Vec<u8> = match color {
        Color::Red => (0..4).collect(),
        Color::Blue => (6..10).collect(),
    };
    ys.iter()
        .map(|&y| {
            (0..SIZE)
                .map(|x| {
                    let sq = from_xy(x as i32, y as i32).expect("on board");
                    let (row, col) = zone_slot(v, color, sq);
                    setup.at(row, col).map_or('.', ucc_char)
                })
                .collect()
        })
        .collect()
}

/// The setup slot `(row from the owner's back, col from the owner's left)` of a zone square.
fn zone_slot(v: &Variant, color: Color, sq: Square) -> (usize, usize) {
    match color {
        Color::Red => (sq.rank() as usize, sq.file() as usize),
        Color::Blue => ((v.ranks - 1 - sq.rank()) as usize, (v.files - 1 - sq.file()) as usize),
    }
}

/// Reads the manager's four setup lines (as `setup_to_rows` writes them) into our setup,
/// checked against the classic army.
pub fn setup_from_rows(lines: &[String], color: Color) -> Result<Setup, String> {
    let v = Variant::parse("classic").map_err(|e| e.0)?;
    if lines.len() != 4 {
        return Err(format!("expected 4 setup lines, got {}", lines.len()));
    }
    let mut rows = vec![vec![None; 10]; 4];
    let y0 = if color == Color::Red { 0 } else { 6 };
    for (i, line) in lines.iter().enumerate() {
        let chars: Vec<char> = line.trim_end().chars().collect();
        if chars.len() != SIZE as usize {
            return Err(format!("setup line '{line}' is not {SIZE} characters"));
        }
        for (x, c) in chars.iter().enumerate() {
            let sq = from_xy(x as i32, (y0 + i) as i32).expect("on board");
            let (row, col) = zone_slot(&v, color, sq);
            rows[row][col] = match c {
                '.' => None,
                c => Some(rank_of_ucc(*c).ok_or_else(|| format!("'{c}' is not a UCC piece character"))?),
            };
        }
    }
    Setup::from_rows(&v, rows).map_err(|e| e.0)
}

/// A step direction of the manager.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    Up,
    Down,
    Left,
    Right,
}

impl Dir {
    pub fn name(self) -> &'static str {
        match self {
            Dir::Up => "UP",
            Dir::Down => "DOWN",
            Dir::Left => "LEFT",
            Dir::Right => "RIGHT",
        }
    }

    pub fn parse(s: &str) -> Option<Dir> {
        Some(match s {
            "UP" => Dir::Up,
            "DOWN" => Dir::Down,
            "LEFT" => Dir::Left,
            "RIGHT" => Dir::Right,
            _ => return None,
        })
    }

    /// `(dx, dy)` in manager coordinates (`UP` is y - 1).
    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::Up => (0, -1),
            Dir::Down => (0, 1),
            Dir::Left => (-1, 0),
            Dir::Right => (1, 0),
        }
    }
}

/// Our move as the manager's `x y DIR [n]` (`n` only when above 1).
pub fn move_to_ucc(mv: Move) -> Result<String, String> {
    let (fx, fy) = to_xy(mv.from());
    let (tx, ty) = to_xy(mv.to());
    let (dx, dy) = (tx as i32 - fx as i32, ty as i32 - fy as i32);
    let (dir, n) = match (dx.signum(), dy.signum()) {
        (0, -1) => (Dir::Up, -dy),
        (0, 1) => (Dir::Down, dy),
        (-1, 0) => (Dir::Left, -dx),
        (1, 0) => (Dir::Right, dx),
        _ => return Err(format!("move {mv} is not along a line")),
    };
    Ok(if n > 1 {
        format!("{fx} {fy} {} {n}", dir.name())
    } else {
        format!("{fx} {fy} {}", dir.name())
    })
}

/// Reads `x y DIR [n]` from the front of `tokens`; returns the move and the tokens used.
pub fn move_from_ucc(tokens: &[&str]) -> Result<(Move, usize), String> {
    if tokens.len() < 3 {
        return Err(format!("'{}' is not 'x y DIR [n]'", tokens.join(" ")));
    }
    let num = |t: &str| t.parse::<i32>().map_err(|_| format!("'{t}' is not a number"));
    let (x, y) = (num(tokens[0])?, num(tokens[1])?);
    let dir = Dir::parse(tokens[2]).ok_or_else(|| format!("'{}' is not UP, DOWN, LEFT or RIGHT", tokens[2]))?;
    let (n, used) = match tokens.get(3).and_then(|t| t.parse::<i32>().ok()) {
        Some(n) if n >= 1 => (n, 4),
        Some(n) => return Err(format!("multiplier {n} is not positive")),
        None => (1, 3),
    };
    let (dx, dy) = dir.delta();
    let from = from_xy(x, y).ok_or_else(|| format!("({x}, {y}) is off the board"))?;
    let to = from_xy(x + dx * n, y + dy * n).ok_or_else(|| format!("the move from ({x}, {y}) leaves the board"))?;
    Ok((Move::new(from, to), used))
}

/// The result of a move as the manager reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    Illegal,
    Kills(Rank, Rank),
    Dies(Rank, Rank),
    BothDie(Rank, Rank),
    VictoryFlag,
    VictoryAttrition,
}

impl Outcome {
    /// Parses the outcome tokens (`OK`, `KILLS a d`, ...).
    pub fn parse(tokens: &[&str]) -> Result<Outcome, String> {
        let ranks = || -> Result<(Rank, Rank), String> {
            let r = |i: usize| {
                tokens
                    .get(i)
                    .and_then(|t| t.chars().next().filter(|_| t.len() == 1))
                    .and_then(rank_of_ucc)
                    .ok_or_else(|| format!("outcome '{}' needs two piece characters", tokens.join(" ")))
            };
            Ok((r(1)?, r(2)?))
        };
        Ok(match tokens.first().copied() {
            Some("OK") => Outcome::Ok,
            Some("ILLEGAL") => Outcome::Illegal,
            Some("KILLS") => ranks().map(|(a, d)| Outcome::Kills(a, d))?,
            Some("DIES") => ranks().map(|(a, d)| Outcome::Dies(a, d))?,
            Some("BOTHDIE") => ranks().map(|(a, d)| Outcome::BothDie(a, d))?,
            Some("VICTORY_FLAG") => Outcome::VictoryFlag,
            Some("VICTORY_ATTRITION") => Outcome::VictoryAttrition,
            _ => return Err(format!("unknown outcome '{}'", tokens.join(" "))),
        })
    }

    /// The manager's text of an outcome.
    pub fn text(self) -> String {
        match self {
            Outcome::Ok => "OK".into(),
            Outcome::Illegal => "ILLEGAL".into(),
            Outcome::Kills(a, d) => format!("KILLS {} {}", ucc_char(a), ucc_char(d)),
            Outcome::Dies(a, d) => format!("DIES {} {}", ucc_char(a), ucc_char(d)),
            Outcome::BothDie(a, d) => format!("BOTHDIE {} {}", ucc_char(a), ucc_char(d)),
            Outcome::VictoryFlag => "VICTORY_FLAG".into(),
            Outcome::VictoryAttrition => "VICTORY_ATTRITION".into(),
        }
    }

    /// The outcome of a combat of our rules core.
    pub fn of_combat(combat: Option<(Rank, Rank, Combat)>) -> Outcome {
        match combat {
            None => Outcome::Ok,
            Some((a, d, Combat::AttackerWins)) => Outcome::Kills(a, d),
            Some((a, d, Combat::DefenderWins)) => Outcome::Dies(a, d),
            Some((a, d, Combat::BothDie)) => Outcome::BothDie(a, d),
            Some((_, _, Combat::FlagCaptured)) => Outcome::VictoryFlag,
        }
    }

    /// The move in our observed notation (`protocol.md`, `position`): `e4e5`, or
    /// `e4e5:<a>x<d>` for an attack; `None` for an illegal move (not played). A
    /// VICTORY_ATTRITION move's combat is unknown: it is written as a quiet move (the game is
    /// over anyway).
    pub fn observed(self, mv: Move) -> Option<String> {
        match self {
            Outcome::Illegal => None,
            Outcome::Ok | Outcome::VictoryAttrition => Some(mv.to_string()),
            Outcome::Kills(a, d) | Outcome::Dies(a, d) | Outcome::BothDie(a, d) => {
                Some(format!("{mv}:{}x{}", a.to_char(), d.to_char()))
            }
            Outcome::VictoryFlag => Some(format!("{mv}:?xF")),
        }
    }
}

/// The ten board rows the manager shows `viewer`, top (y = 0) first: own pieces by
/// character, enemy pieces `#`, lakes `+`, empty `.`.
pub fn board_rows(pos: &Position, viewer: Color) -> Vec<String> {
    (0..SIZE as i32)
        .map(|y| {
            (0..SIZE as i32)
                .map(|x| {
                    let sq = from_xy(x, y).expect("on board");
                    if pos.variant().is_lake(sq) {
                        '+'
                    } else {
                        match pos.piece_at(sq) {
                            None => '.',
                            Some(p) if p.color() == viewer => ucc_char(p.rank()),
                            Some(_) => '#',
                        }
                    }
                })
                .collect()
        })
        .collect()
}
