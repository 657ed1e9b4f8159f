//! A player's view of the game rebuilt from what it observed: its own setup, the squares
//! the enemy's pieces started on, and every move as that player saw it (the observed move:
//! the move and, for an attack, the ranks shown and the result). The engine builds its
//! position this way; the arbiter of a match tells each player the moves this way.

use super::piece::resolve_combat;
use super::position::MoveOutcome;
use super::{Color, Combat, EndReason, Move, Piece, Position, Rank, Rules, Setup, Square, Variant};

/// One move as a player observed it: the move, and for an attack the ranks that became
/// known to that player (`None` = not shown) and, where the ranks do not settle it, the
/// result. Its text (`e4e5`, `e4e5:7x5`, `e4e5:?x5:a`) is the protocol's (`protocol.md`,
/// `position`), read and written by the `protocol` module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObservedMove {
    pub mv: Move,
    pub attack: Option<(Option<Rank>, Option<Rank>, Option<Combat>)>,
}

impl ObservedMove {
    /// The move as `receiver` observes it: attacks carry the ranks the receiver may know:
    /// its own pieces', the attacker's (always announced), and the defender's unless silent
    /// defence hides it (a Scout's defender always shows); plus the result where a hidden
    /// rank leaves it open.
    pub fn seen_by(mv: Move, mover: Color, out: &MoveOutcome, rules: &Rules, receiver: Color) -> ObservedMove {
        let Some((a, d, c)) = out.combat else {
            return ObservedMove { mv, attack: None };
        };
        let defender_shown =
            receiver != mover || !rules.silent_defence || a == Rank::Scout || c == Combat::FlagCaptured;
        let attack = if defender_shown {
            (Some(a), Some(d), None)
        } else {
            (Some(a), None, Some(c))
        };
        ObservedMove {
            mv,
            attack: Some(attack),
        }
    }
}

/// The squares holding `color`'s pieces (what a player is told of the enemy's placement).
pub fn occupied(pos: &Position, color: Color) -> Vec<Square> {
    pos.variant
        .squares()
        .filter(|s| pos.piece_at(*s).is_some_and(|p| p.color() == color))
        .collect()
}

/// A player's view at the start of a game: its own setup, and an unknown enemy piece on
/// each of the enemy's occupied squares (`enemy`; its whole zone when omitted, which only
/// variants that fill the zone allow).
pub fn start_view(
    v: Variant,
    rules: Rules,
    color: Color,
    setup: &Setup,
    enemy: Option<&[Square]>,
) -> Result<Position, String> {
    let them = color.flip();
    let mut pos = Position::empty(v, rules);
    pos.set_view_of(Some(color));
    for row in 0..v.setup_rows {
        for col in 0..v.files {
            if let Some(r) = setup.at(row as usize, col as usize) {
                pos.put(v.zone_square(color, row, col), Piece::new(color, r), 0)
                    .map_err(|e| e.0)?;
            }
        }
    }
    let enemy_squares: Vec<Square> = match enemy {
        Some(sq) => sq.to_vec(),
        None if v.fills_zone() => v.squares().filter(|s| v.in_zone(them, *s)).collect(),
        None => {
            return Err(format!(
                "{} does not fill the setup zone: give the enemy's squares with 'enemy'",
                v.name()
            ))
        }
    };
    if enemy_squares.len() != v.army_size() {
        return Err(format!(
            "the enemy has {} pieces, {} given",
            v.army_size(),
            enemy_squares.len()
        ));
    }
    for sq in &enemy_squares {
        if !v.in_zone(them, *sq) || v.is_lake(*sq) {
            return Err(format!("enemy square {sq} is not in {them}'s setup zone"));
        }
        pos.put(*sq, Piece::new(them, Rank::Unknown), 0)
            .map_err(|e| format!("enemy square {sq}: {}", e.0))?;
    }
    Ok(pos)
}

/// Plays one observed move on a player's view (`us` its colour), checking it against what
/// the view knows.
pub fn apply_observed(pos: &mut Position, us: Color, om: &ObservedMove) -> Result<(), String> {
    let mv = om.mv;
    if mv.rescue().is_some() && !pos.rules().rescue {
        return Err("rescue is off".into());
    }
    if let Some(end) = pos.game_end().filter(|e| e.reason == EndReason::FlagCaptured) {
        return Err(format!("the game is over ({:?})", end.reason));
    }
    let side = pos.side_to_move();
    let (from, to) = (mv.from(), mv.to());
    let v = *pos.variant();
    if !v.is_playable(from) || !v.is_playable(to) {
        return Err("a square is not on the board".into());
    }
    let mover = pos
        .piece_at(from)
        .filter(|p| p.color() == side)
        .ok_or_else(|| format!("no {side} piece on {from}"))?;
    if side == us {
        if let Some(reason) = pos.illegal_reason(mv) {
            return Err(reason);
        }
    } else {
        check_enemy_geometry(pos, mover, from, to)?;
    }
    let target = pos.piece_at(to);
    let Some(defender) = target else {
        if om.attack.is_some() {
            return Err(format!("{to} is empty: not an attack"));
        }
        let long = !from.is_adjacent(to);
        if side != us && long && mover.rank() == Rank::Unknown {
            pos.reveal(from, Rank::Scout).map_err(|e| e.0)?;
        }
        pos.make_observed(mv, None, (None, None));
        return Ok(());
    };
    let (ga, gd, given) = om.attack.unwrap_or((None, None, None));
    // What is known of both ranks: the view's, plus what the move line reveals.
    let known = |p: Piece, g: Option<Rank>, sq: Square| -> Result<Option<Rank>, String> {
        match (p.rank(), g) {
            (Rank::Unknown, g) => Ok(g),
            (r, Some(g)) if g != r => Err(format!("{sq} holds a {}, the move says {}", r.name(), g.name())),
            (r, _) => Ok(Some(r)),
        }
    };
    let a = known(mover, ga, from)?;
    let d = known(defender, gd, to)?;
    let combat = match (a, d, given) {
        (Some(a), Some(d), g) => {
            let c = resolve_combat(a, d, pos.rules().attacker_advantage);
            if let Some(g) = g {
                if g != c && !(c == Combat::FlagCaptured && g == Combat::AttackerWins) {
                    return Err(format!(
                        "{}x{} gives :{}, the move says :{}",
                        a.to_char(),
                        d.to_char(),
                        result_letter(c),
                        result_letter(g)
                    ));
                }
            }
            c
        }
        (_, Some(Rank::Flag), _) => Combat::FlagCaptured,
        (_, _, Some(g)) => g,
        _ => return Err("an attack on or by an unknown piece needs its result (:a, :d or :b)".into()),
    };
    // Record newly learnt enemy ranks through the checked path.
    let mut scratch = pos.clone();
    if side != us {
        if let (Some(r), Rank::Unknown) = (a, mover.rank()) {
            scratch.reveal(from, r).map_err(|e| e.0)?;
        }
    } else if let (Some(r), Rank::Unknown) = (d, defender.rank()) {
        scratch.reveal(to, r).map_err(|e| e.0)?;
    }
    scratch.make_observed(mv, Some(combat), (None, None));
    *pos = scratch;
    Ok(())
}

/// The result letter of the observed-move notation (`a`, `d`, `b`).
pub fn result_letter(c: Combat) -> char {
    match c {
        Combat::AttackerWins | Combat::FlagCaptured => 'a',
        Combat::DefenderWins => 'd',
        Combat::BothDie => 'b',
    }
}

/// An enemy move must run along a line over empty squares (more than one square only for
/// a piece that may be a Scout) and may not come from a Bomb or Flag.
fn check_enemy_geometry(pos: &Position, mover: Piece, from: Square, to: Square) -> Result<(), String> {
    if !mover.rank().is_movable() {
        return Err(format!("a {} cannot move", mover.rank().name()));
    }
    if pos.piece_at(to).is_some_and(|p| p.color() == mover.color()) {
        return Err(format!("{to} holds a piece of the mover"));
    }
    if from.file() != to.file() && from.rank() != to.rank() {
        return Err("moves go along a rank or file".into());
    }
    if !from.is_adjacent(to) {
        if !matches!(mover.rank(), Rank::Unknown | Rank::Scout) {
            return Err(format!("a {} moves one square", mover.rank().name()));
        }
        let (df, dr) = (
            (to.file() as i32 - from.file() as i32).signum(),
            (to.rank() as i32 - from.rank() as i32).signum(),
        );
        let (mut f, mut r) = (from.file() as i32 + df, from.rank() as i32 + dr);
        while (f, r) != (to.file() as i32, to.rank() as i32) {
            let sq = Square::new(f as u8, r as u8);
            if pos.variant().is_lake(sq) || pos.piece_at(sq).is_some() {
                return Err(format!("the path is blocked at {sq}"));
            }
            f += df;
            r += dr;
        }
    }
    Ok(())
}
