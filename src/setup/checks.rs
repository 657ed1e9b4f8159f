//! The deployment tips as named, measurable checks on a finished setup.

use crate::rules::{Rank, Setup};
use std::fmt;

/// Whether a check must pass for every generated setup or is a preference to score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Every generated setup passes it (the generator rejects the others).
    Hard,
    /// A preference: the generator favours setups that pass it, but not every one does.
    Scored,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Hard => "hard",
            Kind::Scored => "scored",
        })
    }
}

/// One tip measured on one setup: `pass` is `min <= value <= max`.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// Tip id and a short name, e.g. `T1 flag-back`.
    pub name: &'static str,
    /// Hard constraint or scored preference.
    pub kind: Kind,
    /// The measured value.
    pub value: f64,
    /// Smallest passing value, if bounded below.
    pub min: Option<f64>,
    /// Largest passing value, if bounded above.
    pub max: Option<f64>,
    /// Whether the value lies within the bounds.
    pub pass: bool,
}

impl Check {
    fn new(name: &'static str, kind: Kind, value: f64, min: Option<f64>, max: Option<f64>) -> Check {
        let pass = min.is_none_or(|m| value >= m - 1e-9) && max.is_none_or(|m| value <= m + 1e-9);
        Check {
            name,
            kind,
            value,
            min,
            max,
            pass,
        }
    }

    /// The passing range as text, e.g. `>= 0.5`, `<= 2`, `1..3`.
    pub fn threshold(&self) -> String {
        match (self.min, self.max) {
            (Some(a), Some(b)) => format!("{}..{}", num(a), num(b)),
            (Some(a), None) => format!(">= {}", num(a)),
            (None, Some(b)) => format!("<= {}", num(b)),
            (None, None) => "any".into(),
        }
    }
}

/// Integers without decimals, fractions with three.
pub(crate) fn num(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{}", x.round() as i64)
    } else {
        format!("{x:.3}")
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}) value {} threshold {} {}",
            self.name,
            self.kind,
            num(self.value),
            self.threshold(),
            if self.pass { "pass" } else { "FAIL" }
        )
    }
}

/// The thresholds of every check for one variant (module docs justify the numbers).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Thresholds {
    /// Most Bombs allowed in the front row (T3).
    pub front_bombs: usize,
    /// Fewest Miners in the back two rows (T11).
    pub miners_back: usize,
    /// Whether T11 is hard (armies with three or more Miners).
    pub miners_hard: bool,
    /// Whether T5 is hard (zone-filling armies with two or more Scouts).
    pub scouts_hard: bool,
    /// Smallest share of the Flag's neighbours that are Bombs (T1/T9).
    pub flag_bombs: f64,
    /// Smallest covered share of the front two rows (T4).
    pub cover: f64,
    /// Allowed count of Majors or higher in the front row (T10).
    pub high_front: (usize, usize),
    /// Largest Spy-General distance (T6).
    pub spy_general: usize,
    /// Largest left/right strength imbalance (T12).
    pub spread: f64,
    /// Fewest friendly movable pieces beside the Marshal (T13).
    pub marshal_guard: usize,
}

impl Thresholds {
    pub(crate) fn for_setup(v: &crate::rules::Variant) -> Thresholds {
        let bombs = v.army[Rank::Bomb.index()] as usize;
        let flags = v.army[Rank::Flag.index()] as usize;
        let miners = v.army[Rank::Miner.index()] as usize;
        let scouts = v.army[Rank::Scout.index()] as usize;
        let dense = v.fills_zone();
        // Immovable pieces beyond the squares behind the front row must go in front.
        let behind = v.zone_size() - v.files as usize;
        let forced = (bombs + flags).saturating_sub(behind);
        Thresholds {
            front_bombs: (bombs / 3).max(forced),
            miners_back: (2 * miners).div_ceil(5),
            miners_hard: miners >= 3,
            scouts_hard: dense && scouts >= 2,
            flag_bombs: if dense { 0.5 } else { 0.3 },
            cover: if dense { 0.6 } else { 0.3 },
            high_front: if dense { (1, 3) } else { (0, 1) },
            spy_general: 2,
            spread: 0.25,
            marshal_guard: if dense { 3 } else { 1 },
        }
    }
}

/// A setup as a grid of ranks with the geometry the checks need.
struct Grid<'a> {
    s: &'a Setup,
    rows: usize,
    cols: usize,
}

impl Grid<'_> {
    fn at(&self, r: usize, c: usize) -> Option<Rank> {
        self.s.at(r, c)
    }

    fn squares(&self) -> impl Iterator<Item = (usize, usize, Rank)> + '_ {
        (0..self.rows).flat_map(move |r| (0..self.cols).filter_map(move |c| self.at(r, c).map(|k| (r, c, k))))
    }

    fn find(&self, rank: Rank) -> Vec<(usize, usize)> {
        self.squares().filter(|t| t.2 == rank).map(|t| (t.0, t.1)).collect()
    }

    /// Orthogonal neighbours inside the zone.
    fn neighbours(&self, r: usize, c: usize) -> Vec<(usize, usize)> {
        neighbours(self.rows, self.cols, r, c)
    }

    fn front(&self) -> usize {
        self.rows - 1
    }
}

/// Orthogonal neighbours of `(r, c)` inside a `rows` x `cols` zone.
pub(crate) fn neighbours(rows: usize, cols: usize, r: usize, c: usize) -> Vec<(usize, usize)> {
    let mut v = Vec::with_capacity(4);
    if r > 0 {
        v.push((r - 1, c));
    }
    if r + 1 < rows {
        v.push((r + 1, c));
    }
    if c > 0 {
        v.push((r, c - 1));
    }
    if c + 1 < cols {
        v.push((r, c + 1));
    }
    v
}

/// The squares from which a Scout coming from beyond the zone in one move takes the Flag
/// at `flag` with its next: those with a clear line to the Flag whose file is clear
/// from them to a playable square beyond the zone.
fn scout_routes(g: &Grid, v: &crate::rules::Variant, flag: (usize, usize)) -> usize {
    let (fr, fc) = (flag.0 as isize, flag.1 as isize);
    let inside = |r: isize, c: isize| r >= 0 && c >= 0 && (r as usize) < g.rows && (c as usize) < g.cols;
    let mut count = 0;
    for (dr, dc) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
        let (mut r, mut c) = (fr + dr, fc + dc);
        while inside(r, c) && open(g, v, r as usize, c as usize) {
            count += usize::from(from_beyond(g, v, r as usize, c as usize));
            r += dr;
            c += dc;
        }
    }
    count
}

/// Can a Scout come from beyond the zone to `(r, c)` in one move: its file clear (no piece,
/// no lake) from there to the zone's front and a playable square beyond?
fn from_beyond(g: &Grid, v: &crate::rules::Variant, r: usize, c: usize) -> bool {
    (r + 1..g.rows).all(|a| open(g, v, a, c)) && v.is_playable(crate::rules::Square::new(c as u8, v.setup_rows))
}

/// Is `(r, c)` a square a Scout can cross: on the board, no lake, no piece of the setup?
fn open(g: &Grid, v: &crate::rules::Variant, r: usize, c: usize) -> bool {
    g.at(r, c).is_none() && v.is_playable(crate::rules::Square::new(c as u8, r as u8))
}

fn strength(r: Rank) -> Option<u8> {
    r.is_movable().then_some(r as u8)
}

/// Measures every deployment tip that applies to this setup's variant.
pub fn explain(setup: &Setup) -> Vec<Check> {
    let v = &setup.variant;
    let t = Thresholds::for_setup(v);
    let g = Grid {
        s: setup,
        rows: v.setup_rows as usize,
        cols: v.files as usize,
    };
    let front = g.front();
    let in_front2 = |r: usize| r + 2 >= g.rows;
    let in_back2 = |r: usize| r < 2;
    let dense = v.fills_zone();
    let mut out = Vec::new();
    let flags = g.find(Rank::Flag);
    let bombs = g.find(Rank::Bomb);

    // T1: the Flag on the back row(s).
    let flag_row = flags.iter().map(|f| f.0).max().unwrap_or(0);
    out.push(Check::new("T1 flag-back", Kind::Hard, flag_row as f64, None, Some(1.0)));

    // T1: only Miners should reach the Flag; a Flag with an empty file in front of it (up
    // to the zone's edge, and no lake beyond) is open to a Scout from the enemy side on
    // the first move. Always passes in armies that fill the zone.
    let open = flags.iter().filter(|&&(r, c)| from_beyond(&g, v, r, c)).count();
    out.push(Check::new("T1 flag-lane", Kind::Hard, open as f64, None, Some(0.0)));

    // T1: nor in two Scout moves. A square with a clear line to the Flag (along its row
    // or file) whose own file is clear up to the enemy side lets a Scout come down to it
    // and take the Flag next move, before a reply can block both lines. Our movable pieces
    // count as blockers (they stand there at the start). Barrage games against
    // `builtin:greedy` were lost so at plies 4 and 15: the Flag on the back row beside
    // an empty row, the file at its end empty.
    let routes = if v.army[Rank::Scout.index()] == 0 {
        0
    } else {
        flags.iter().map(|&f| scout_routes(&g, v, f)).sum::<usize>()
    };
    out.push(Check::new("T1 flag-scout", Kind::Hard, routes as f64, None, Some(0.0)));

    // T3: few Bombs in the front row.
    let fb = bombs.iter().filter(|b| b.0 == front).count();
    out.push(Check::new(
        "T3 front-bombs",
        Kind::Hard,
        fb as f64,
        None,
        Some(t.front_bombs as f64),
    ));

    // T11: Miners kept back.
    let miners = g.find(Rank::Miner);
    if !miners.is_empty() {
        let back = miners.iter().filter(|m| in_back2(m.0)).count();
        let kind = if t.miners_hard { Kind::Hard } else { Kind::Scored };
        out.push(Check::new(
            "T11 miners-back",
            kind,
            back as f64,
            Some(t.miners_back as f64),
            None,
        ));
    }

    // T5: Scouts in the front rows and at the back.
    let scouts = g.find(Rank::Scout);
    if scouts.len() >= 2 {
        let f = scouts.iter().filter(|s| in_front2(s.0)).count();
        let b = scouts.iter().filter(|s| in_back2(s.0)).count();
        let kind = if t.scouts_hard { Kind::Hard } else { Kind::Scored };
        out.push(Check::new(
            "T5 scouts-front-back",
            kind,
            f.min(b) as f64,
            Some(1.0),
            None,
        ));
    }

    // T1/T9: Bombs around the Flag.
    if !bombs.is_empty() {
        let (mut nb, mut nn) = (0usize, 0usize);
        for &(r, c) in &flags {
            for (a, b) in g.neighbours(r, c) {
                nn += 1;
                nb += usize::from(g.at(a, b) == Some(Rank::Bomb));
            }
        }
        let share = if nn == 0 { 0.0 } else { nb as f64 / nn as f64 };
        // T1: a dense army's Flag keeps at most one side free of Bombs, never its front
        // and none in a corner: games lost to a lone Miner or Scout walking in through
        // the open side of a corner Flag with one Bomb, or a Flag with no Bomb at all,
        // and to a Captain walking in over the Scout in front of a Flag bombed on both
        // sides (the front is the one side an attacker reaches without first taking a
        // second piece).
        if dense {
            let open = flags
                .iter()
                .map(|&(r, c)| {
                    let n = g.neighbours(r, c);
                    let free = n.iter().filter(|&&(a, b)| g.at(a, b) != Some(Rank::Bomb)).count();
                    let front_open = r < g.front() && g.at(r + 1, c) != Some(Rank::Bomb);
                    if (n.len() <= 2 && free > 0) || front_open {
                        free.max(2)
                    } else {
                        free
                    }
                })
                .max()
                .unwrap_or(0);
            out.push(Check::new("T1 flag-guard", Kind::Hard, open as f64, None, Some(1.0)));
        }
        out.push(Check::new(
            "T1/T9 flag-bombs",
            Kind::Scored,
            share,
            Some(t.flag_bombs),
            None,
        ));

        // T2/T9: a Bomb or two away from the Flag, to confuse.
        let decoys = bombs
            .iter()
            .filter(|&&(r, c)| !flags.iter().any(|&(a, b)| r.abs_diff(a) + c.abs_diff(b) == 1))
            .count();
        out.push(Check::new(
            "T2/T9 decoy-bombs",
            Kind::Scored,
            decoys as f64,
            Some(1.0),
            None,
        ));
    }

    // T3: Bombs must not wall in your own movable pieces.
    let trapped = g
        .squares()
        .filter(|&(r, c, k)| {
            k.is_movable()
                && r != front
                && g.neighbours(r, c)
                    .iter()
                    .all(|&(a, b)| matches!(g.at(a, b), Some(Rank::Bomb | Rank::Flag)))
        })
        .count();
    // Hard for armies that fill the zone: pieces walled in by their own Bombs stayed out
    // of lost games (they have room to avoid it); sparse armies rarely meet it.
    out.push(Check::new(
        "T3 walled-in",
        if dense { Kind::Hard } else { Kind::Scored },
        trapped as f64,
        None,
        Some(0.0),
    ));

    // T4: pieces in the first two rows covered by a piece two ranks higher beside or behind.
    let (mut total, mut covered) = (0usize, 0usize);
    for (r, c, k) in g.squares() {
        let Some(s) = strength(k) else { continue };
        if !in_front2(r) || s >= Rank::General as u8 {
            continue;
        }
        total += 1;
        let mut guards = vec![];
        if c > 0 {
            guards.push((r, c - 1));
        }
        if c + 1 < g.cols {
            guards.push((r, c + 1));
        }
        if r > 0 {
            guards.push((r - 1, c));
        }
        if guards
            .iter()
            .any(|&(a, b)| g.at(a, b).and_then(strength).is_some_and(|h| h >= s + 2))
        {
            covered += 1;
        }
    }
    if total > 0 {
        out.push(Check::new(
            "T4 cover",
            Kind::Scored,
            covered as f64 / total as f64,
            Some(t.cover),
            None,
        ));
    }

    // T10: a few high pieces (Major or higher) in the front line.
    let high = g
        .squares()
        .filter(|&(r, _, k)| r == front && strength(k).is_some_and(|s| s >= Rank::Major as u8))
        .count();
    out.push(Check::new(
        "T10 high-front",
        Kind::Scored,
        high as f64,
        Some(t.high_front.0 as f64),
        Some(t.high_front.1 as f64),
    ));

    // T6: the Spy near the General.
    let spies = g.find(Rank::Spy);
    let generals = g.find(Rank::General);
    if !spies.is_empty() && !generals.is_empty() {
        let d = spies
            .iter()
            .flat_map(|s| generals.iter().map(move |gg| s.0.abs_diff(gg.0) + s.1.abs_diff(gg.1)))
            .min()
            .unwrap_or(0);
        out.push(Check::new(
            "T6 spy-general",
            Kind::Scored,
            d as f64,
            None,
            Some(t.spy_general as f64),
        ));
    }

    // T12: strength spread over the width (classic/compact).
    if dense {
        let half = g.cols / 2;
        let (mut l, mut rr) = (0u32, 0u32);
        for (_, c, k) in g.squares() {
            if let Some(s) = strength(k).filter(|&s| s >= Rank::Lieutenant as u8) {
                if c < half {
                    l += s as u32;
                } else {
                    rr += s as u32;
                }
            }
        }
        if l + rr > 0 {
            let imb = (l as f64 - rr as f64).abs() / (l + rr) as f64;
            out.push(Check::new("T12 spread", Kind::Scored, imb, None, Some(t.spread)));
        }
    }

    // T13: the Marshal protected (friendly movable pieces beside it keep the Spy away).
    for (r, c) in g.find(Rank::Marshal).into_iter().take(1) {
        let guards = g
            .neighbours(r, c)
            .iter()
            .filter(|&&(a, b)| g.at(a, b).is_some_and(|k| k.is_movable()))
            .count();
        out.push(Check::new(
            "T13 marshal-guard",
            Kind::Scored,
            guards as f64,
            Some(t.marshal_guard as f64),
            None,
        ));
    }

    // T14 (duel and other sparse armies): a corner Flag only behind a full guard.
    if !dense {
        let corner = |&(r, c): &(usize, usize)| r == 0 && (c == 0 || c + 1 == g.cols);
        let (mut fortress, mut open) = (0.0, 0usize);
        for f in flags.iter().filter(|f| corner(f)) {
            let ns = g.neighbours(f.0, f.1);
            if ns.iter().all(|&(a, b)| g.at(a, b) == Some(Rank::Bomb)) {
                fortress = 1.0;
            } else if ns.iter().any(|&(a, b)| g.at(a, b).is_none()) {
                open += 1;
            }
        }
        out.push(Check::new(
            "T14 open-corner",
            Kind::Scored,
            open as f64,
            None,
            Some(0.0),
        ));
        // The trade-off itself: how often the fortress is chosen (no pass/fail).
        out.push(Check::new("T14 corner-fortress", Kind::Scored, fortress, None, None));
    }
    out
}
