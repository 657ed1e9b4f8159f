//! Text forms: setups and one-line positions (full or a player's view), parsed into
//! checked types with precise errors and printed back identically.
//!
//! A position line has eleven space-separated fields:
//! `<variant> <view> <board> <side> <ply> <quiet> <captured> <rescues> <trails> <chase> <recent>`
//! (see `protocol.md`, "Position notation").

use super::moves::Move;
use super::piece::{take_rank_token, Color, Piece, Rank, EMPTY};
use super::position::{Position, PositionError, Trail, MOVED, RESCUER, REVEALED};
use super::square::Square;
use super::variant::{Rules, Variant};
use std::fmt;

fn err<T>(msg: impl Into<String>) -> Result<T, PositionError> {
    Err(PositionError(msg.into()))
}

/// A deployment: `rows[0]` is the owner's back row, each row from the owner's left.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    pub variant: Variant,
    pub rows: Vec<Vec<Option<Rank>>>,
}

impl Setup {
    /// Parses `row/row/...` (back row first) and checks it against the variant's zone and
    /// army. Pieces: `F B S 2-9 M`, also `1` and `10`; `.` for an empty square.
    pub fn parse(s: &str, variant: &Variant) -> Result<Setup, PositionError> {
        let s = s.trim();
        let parts: Vec<&str> = s.split('/').collect();
        if parts.len() != variant.setup_rows as usize {
            return err(format!(
                "setup '{s}' has {} rows, {} needs {} (back row first, separated by '/')",
                parts.len(),
                variant.name(),
                variant.setup_rows
            ));
        }
        let mut rows = Vec::with_capacity(parts.len());
        for (i, part) in parts.iter().enumerate() {
            let b = part.as_bytes();
            let mut row = Vec::new();
            let mut j = 0;
            while j < b.len() {
                if b[j] == b'.' {
                    row.push(None);
                    j += 1;
                    continue;
                }
                match take_rank_token(&b[j..]) {
                    Some((r, n)) => {
                        row.push(Some(r));
                        j += n;
                    }
                    None => {
                        return err(format!(
                            "setup row {} '{part}': '{}' is not a piece (F B S 2-9 M or .)",
                            i + 1,
                            b[j] as char
                        ))
                    }
                }
            }
            if row.len() != variant.files as usize {
                return err(format!(
                    "setup row {} '{part}' has {} squares, the board has {} files",
                    i + 1,
                    row.len(),
                    variant.files
                ));
            }
            rows.push(row);
        }
        let setup = Setup {
            variant: *variant,
            rows,
        };
        setup.check()?;
        Ok(setup)
    }

    /// Checks the army and, where the variant fills its zone, that no square is empty.
    pub fn check(&self) -> Result<(), PositionError> {
        let mut counts = [0u8; 12];
        for r in self.rows.iter().flatten().flatten() {
            if *r == Rank::Unknown {
                return err("a setup cannot hold unknown pieces");
            }
            counts[r.index()] += 1;
        }
        for r in Rank::ALL {
            let (have, want) = (counts[r.index()], self.variant.army[r.index()]);
            if have != want {
                return err(format!(
                    "setup has {have} {} ({}), {} has {want}",
                    r.name(),
                    r.to_char(),
                    self.variant.name()
                ));
            }
        }
        Ok(())
    }

    /// Builds a setup from `(row, col, rank)` slots of the owner's zone.
    pub fn from_rows(variant: &Variant, rows: Vec<Vec<Option<Rank>>>) -> Result<Setup, PositionError> {
        if rows.len() != variant.setup_rows as usize || rows.iter().any(|r| r.len() != variant.files as usize) {
            return err("setup rows do not match the variant's zone");
        }
        let s = Setup {
            variant: *variant,
            rows,
        };
        s.check()?;
        Ok(s)
    }

    /// The rank on the owner's `row` (0 = back) and `col` (0 = owner's left).
    pub fn at(&self, row: usize, col: usize) -> Option<Rank> {
        self.rows.get(row).and_then(|r| r.get(col)).copied().flatten()
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, row) in self.rows.iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            for sq in row {
                match sq {
                    Some(r) => write!(f, "{}", r.to_char())?,
                    None => f.write_str(".")?,
                }
            }
        }
        Ok(())
    }
}

impl Position {
    /// The starting position from two setups (Red to move).
    pub fn from_setups(variant: Variant, rules: Rules, red: &Setup, blue: &Setup) -> Result<Position, PositionError> {
        for (c, s) in [(Color::Red, red), (Color::Blue, blue)] {
            if s.variant != variant {
                return err(format!(
                    "the {c} setup is for {}, not {}",
                    s.variant.name(),
                    variant.name()
                ));
            }
        }
        let mut pos = Position::empty(variant, rules);
        for (color, setup) in [(Color::Red, red), (Color::Blue, blue)] {
            for row in 0..variant.setup_rows {
                for col in 0..variant.files {
                    if let Some(r) = setup.at(row as usize, col as usize) {
                        let sq = variant.zone_square(color, row, col);
                        pos.put(sq, Piece::new(color, r), 0)?;
                    }
                }
            }
        }
        Ok(pos)
    }

    /// The setup `color` deployed, read back from an unmoved starting position.
    pub fn setup_of(&self, color: Color) -> Result<Setup, PositionError> {
        let v = self.variant;
        let mut rows = Vec::new();
        for row in 0..v.setup_rows {
            let mut r = Vec::new();
            for col in 0..v.files {
                let sq = v.zone_square(color, row, col);
                r.push(self.piece_at(sq).filter(|p| p.color() == color).map(|p| p.rank()));
            }
            rows.push(r);
        }
        Setup::from_rows(&v, rows)
    }

    /// The one-line text form (see the module docs and `protocol.md`).
    pub fn to_text(&self) -> String {
        let v = &self.variant;
        let mut out = String::new();
        out.push_str(&v.name());
        out.push(' ');
        out.push_str(match self.view_of {
            None => "full",
            Some(Color::Red) => "r",
            Some(Color::Blue) => "b",
        });
        out.push(' ');
        for rank in (0..v.ranks).rev() {
            for file in 0..v.files {
                let sq = Square::new(file, rank);
                if v.is_lake(sq) {
                    out.push('~');
                    continue;
                }
                match self.piece_at(sq) {
                    None => out.push('.'),
                    Some(p) => {
                        out.push(p.color().letter());
                        out.push(p.rank().to_char());
                        let fl = self.flags_at(sq);
                        if fl & MOVED != 0 {
                            out.push('\'');
                        }
                        if fl & REVEALED != 0 {
                            out.push('!');
                        }
                        if fl & RESCUER != 0 {
                            out.push('*');
                        }
                    }
                }
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(self.side.letter());
        out.push_str(&format!(" {} {} ", self.ply, self.quiet));
        let caps: Vec<String> = Color::BOTH
            .iter()
            .map(|&c| {
                let mut s = String::new();
                for r in Rank::ALL.iter().chain(std::iter::once(&Rank::Unknown)) {
                    let n = self.captured[c.index()][r.index()];
                    let seen = self.captured_seen[c.index()][r.index()];
                    for k in 0..n {
                        s.push(r.to_char());
                        if k >= seen && *r != Rank::Unknown {
                            s.push('\'');
                        }
                    }
                }
                if s.is_empty() {
                    s.push('-');
                }
                s
            })
            .collect();
        out.push_str(&caps.join("/"));
        out.push_str(&format!(" {}/{} ", self.rescues[0], self.rescues[1]));
        let trails: Vec<String> = self
            .trail
            .iter()
            .map(|t| {
                if t.len == 0 {
                    "-".to_string()
                } else {
                    let mut sq: Vec<String> = t.squares().map(|s| s.to_string()).collect();
                    sq.reverse();
                    sq.join("-")
                }
            })
            .collect();
        out.push_str(&trails.join("/"));
        out.push_str(&format!(" {}/{} ", self.chase[0], self.chase[1]));
        let recent = self.recent_moves();
        let keep = self.recent_needed().min(recent.len());
        let shown: Vec<String> = recent[recent.len() - keep..]
            .iter()
            .map(|(m, attack)| if *attack { format!("{m}x") } else { m.to_string() })
            .collect();
        if shown.is_empty() {
            out.push('-');
        } else {
            out.push_str(&shown.join(","));
        }
        out
    }

    /// How many recent moves the text form must keep: the last two (previous move of each
    /// side) and every ply the more-squares rule may still look back on.
    fn recent_needed(&self) -> usize {
        let l = self.chase[0].max(self.chase[1]) as usize;
        l.max(2)
    }

    /// Parses a position line. `rules` are the game's rule options (not part of the line).
    pub fn from_text(s: &str, rules: Rules) -> Result<Position, PositionError> {
        let fields: Vec<&str> = s.split_whitespace().collect();
        if fields.len() != 11 {
            return err(format!(
                "a position has 11 fields (variant view board side ply quiet captured rescues trails chase recent), found {}",
                fields.len()
            ));
        }
        let variant = Variant::parse(fields[0]).map_err(|e| PositionError(e.0))?;
        let view_of = match fields[1] {
            "full" => None,
            "r" => Some(Color::Red),
            "b" => Some(Color::Blue),
            other => return err(format!("view '{other}' is not full, r or b")),
        };
        let mut pos = Position::empty(variant, rules);
        pos.view_of = view_of;
        // Board.
        let ranks: Vec<&str> = fields[2].split('/').collect();
        if ranks.len() != variant.ranks as usize {
            return err(format!(
                "board has {} ranks, {} has {}",
                ranks.len(),
                variant.name(),
                variant.ranks
            ));
        }
        for (i, row) in ranks.iter().enumerate() {
            let rank = variant.ranks - 1 - i as u8;
            let b = row.as_bytes();
            let mut j = 0;
            let mut file = 0u8;
            while j < b.len() {
                if file >= variant.files {
                    return err(format!(
                        "rank {} '{row}' has more than {} squares",
                        rank + 1,
                        variant.files
                    ));
                }
                let sq = Square::new(file, rank);
                match b[j] {
                    b'.' | b'~' => {
                        let lake = variant.is_lake(sq);
                        if lake != (b[j] == b'~') {
                            return err(format!(
                                "{sq}: '{}' but the square {} a lake",
                                b[j] as char,
                                if lake { "is" } else { "is not" }
                            ));
                        }
                        j += 1;
                    }
                    c @ (b'r' | b'b') => {
                        let color = if c == b'r' { Color::Red } else { Color::Blue };
                        j += 1;
                        let (rank_, n) = if b.get(j) == Some(&b'?') {
                            (Rank::Unknown, 1)
                        } else {
                            take_rank_token(&b[j..]).ok_or_else(|| {
                                PositionError(format!("{sq}: no piece character after '{}'", c as char))
                            })?
                        };
                        j += n;
                        if rank_ == Rank::Unknown && view_of != Some(color.flip()) {
                            return err(format!(
                                "{sq}: an unknown piece is only allowed for the enemy in a view"
                            ));
                        }
                        let mut fl = 0u8;
                        for (ch, bit) in [(b'\'', MOVED), (b'!', REVEALED), (b'*', RESCUER)] {
                            if b.get(j) == Some(&ch) {
                                fl |= bit;
                                j += 1;
                            }
                        }
                        if fl & MOVED != 0 && !rank_.is_movable() {
                            return err(format!("{sq}: a {} cannot have moved", rank_.name()));
                        }
                        pos.put(sq, Piece::new(color, rank_), fl)?;
                    }
                    other => return err(format!("{sq}: unexpected '{}' in the board", other as char)),
                }
                file += 1;
            }
            if file != variant.files {
                return err(format!(
                    "rank {} '{row}' has {file} squares, not {}",
                    rank + 1,
                    variant.files
                ));
            }
        }
        pos.side =
            Color::parse(fields[3]).ok_or_else(|| PositionError(format!("side '{}' is not r or b", fields[3])))?;
        pos.ply = fields[4]
            .parse()
            .map_err(|_| PositionError(format!("ply '{}' is not a number", fields[4])))?;
        pos.quiet = fields[5]
            .parse()
            .map_err(|_| PositionError(format!("quiet plies '{}' is not a number", fields[5])))?;
        if pos.quiet > pos.ply {
            return err("quiet plies exceed plies played");
        }
        // Captured.
        let caps = split_pair(fields[6], "captured")?;
        for (c, txt) in caps.iter().enumerate() {
            if *txt == "-" {
                continue;
            }
            let b = txt.as_bytes();
            let mut j = 0;
            while j < b.len() {
                let (r, n) = if b[j] == b'?' {
                    (Rank::Unknown, 1)
                } else {
                    take_rank_token(&b[j..])
                        .ok_or_else(|| PositionError(format!("captured '{txt}': bad piece '{}'", b[j] as char)))?
                };
                j += n;
                let unseen = b.get(j) == Some(&b'\'');
                if unseen {
                    j += 1;
                }
                pos.captured[c][r.index()] += 1;
                if !unseen && r != Rank::Unknown {
                    pos.captured_seen[c][r.index()] += 1;
                }
            }
        }
        // A captured Flag means the game ended with its capture.
        for c in Color::BOTH {
            if pos.captured[c.index()][Rank::Flag.index()] > 0 {
                pos.flag_taken = Some(c.flip());
            }
        }
        // Every piece must come from the army.
        for color in Color::BOTH {
            let ci = color.index();
            let mut unknown = 0i32;
            for r in Rank::ALL {
                let total = pos.counts[ci][r.index()] as i32 + pos.captured[ci][r.index()] as i32;
                let army = variant.army[r.index()] as i32;
                if total > army {
                    return err(format!(
                        "{color} has {total} {} on board and captured, the army has {army}",
                        r.name()
                    ));
                }
                unknown += army - total;
            }
            let u = pos.counts[ci][Rank::Unknown.index()] as i32 + pos.captured[ci][Rank::Unknown.index()] as i32;
            if u > unknown {
                return err(format!("{color} has more unknown pieces than its army leaves room for"));
            }
        }
        let resc = split_pair(fields[7], "rescues")?;
        for (c, txt) in resc.iter().enumerate() {
            pos.rescues[c] = txt
                .parse()
                .ok()
                .filter(|&n: &u8| n <= 2)
                .ok_or_else(|| PositionError(format!("rescues '{txt}' is not 0, 1 or 2")))?;
        }
        // Trails (oldest square first).
        let trails = split_pair(fields[8], "trails")?;
        for (c, txt) in trails.iter().enumerate() {
            if *txt == "-" {
                continue;
            }
            let mut sqs = Vec::new();
            for part in txt.split('-') {
                let sq = Square::parse(part).filter(|s| variant.is_playable(*s));
                sqs.push(sq.ok_or_else(|| PositionError(format!("trail square '{part}' is not on the board")))?);
            }
            if sqs.len() < 2 || sqs.len() > pos.trail[c].sq.len() {
                return err(format!("trail '{txt}' must have 2..{} squares", pos.trail[c].sq.len()));
            }
            let vertical = sqs[0].file() == sqs[1].file();
            for w in sqs.windows(2) {
                let same_line = if vertical {
                    w[0].file() == w[1].file()
                } else {
                    w[0].rank() == w[1].rank()
                };
                if w[0] == w[1] || !same_line {
                    return err(format!("trail '{txt}' does not run along one line"));
                }
            }
            let last = *sqs.last().unwrap_or(&sqs[0]);
            if pos.piece_at(last).map(|p| p.color().index()) != Some(c) {
                return err(format!(
                    "trail '{txt}' ends on {last}, which holds no piece of that side"
                ));
            }
            let mut t = Trail::default();
            for (i, s) in sqs.iter().rev().enumerate() {
                t.sq[i] = s.0;
            }
            t.len = sqs.len() as u8;
            pos.trail[c] = t;
        }
        let chase = split_pair(fields[9], "chase")?;
        for (c, txt) in chase.iter().enumerate() {
            pos.chase[c] = txt
                .parse()
                .map_err(|_| PositionError(format!("chase counter '{txt}' is not a number")))?;
        }
        // Recent moves.
        let mut recent = Vec::new();
        if fields[10] != "-" {
            for tok in fields[10].split(',') {
                let (body, attack) = match tok.strip_suffix('x') {
                    Some(b) => (b, true),
                    None => (tok, false),
                };
                let m = Move::parse(body).map_err(PositionError)?;
                recent.push((m, attack));
            }
        }
        if recent.len() > pos.ply as usize {
            return err("more recent moves than plies played");
        }
        pos.set_recent(recent)?;
        pos.set_rules(rules);
        Ok(pos)
    }
}

fn split_pair<'a>(s: &'a str, what: &str) -> Result<[&'a str; 2], PositionError> {
    match s.split_once('/') {
        Some((a, b)) if !a.is_empty() && !b.is_empty() && !b.contains('/') => Ok([a, b]),
        _ => err(format!("{what} '{s}' is not <red>/<blue>")),
    }
}

impl Position {
    /// Installs moves known to precede this position (from its text form): they give each
    /// side's previous move and, walking back over non-attacks, the placements the
    /// more-squares rule compares with.
    fn set_recent(&mut self, recent: Vec<(Move, bool)>) -> Result<(), PositionError> {
        let n = recent.len();
        let mut side = self.side;
        for (i, (m, _)) in recent.iter().enumerate().rev() {
            side = side.flip();
            if i + 2 >= n {
                self.last[side.index()] = *m;
            }
        }
        // Undo the reversible tail on a scratch board to recover the placement hashes.
        let mut scratch = self.cells;
        let mut ids = self.ids;
        let mut parts = self.parts;
        let mut hashes = vec![parts];
        for (m, attack) in recent.iter().rev() {
            if *attack || m.rescue().is_some() {
                break;
            }
            let (f, t) = (m.from().index(), m.to().index());
            if scratch[t] == EMPTY || scratch[f] != EMPTY {
                return err(format!(
                    "recent move {m} does not fit the board (walking back from the current position)"
                ));
            }
            let code = scratch[t];
            let id = ids[t];
            let c = Piece(code).color().index();
            parts[c] ^= super::position::rank_key_pub(t, code) ^ super::position::rank_key_pub(f, code);
            parts[2 + c] ^= super::position::id_key_pub(t, id) ^ super::position::id_key_pub(f, id);
            scratch[f] = code;
            scratch[t] = EMPTY;
            ids[f] = id;
            ids[t] = 0;
            hashes.push(parts);
        }
        hashes.reverse();
        self.history = hashes;
        self.prefix = recent;
        Ok(())
    }
}
