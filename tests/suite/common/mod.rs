//! Helpers shared by the tests: squares and moves from text, positions from piece tokens,
//! playing checked moves, editing fields of a position line, running the binary; seeded
//! random setups, armies and games, and a move policy biased to shuttle and chase so that
//! the repetition rules fire.
#![allow(dead_code)]

pub mod naive;

use marshal::rules::{Color, Move, Piece, Position, Rank, Rules, Setup, Square, Variant};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

pub fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

/// The custom army the tests use besides random ones (the 39-piece misprint of seeds
/// 002/003 would not fit a 10x8 board; this one exercises a sparse 10x8 army).
pub const CUSTOM: &str = "custom:10x8:F=1,B=3,S=1,2=5,3=2,4=2,7=1,9=1,M=1";

/// The five built-in variants and `CUSTOM`.
pub fn variants() -> Vec<Variant> {
    ["classic", "compact", "duel", "duel-compact", "barrage", CUSTOM]
        .iter()
        .map(|n| Variant::parse(n).unwrap())
        .collect()
}

/// A random valid setup: the army shuffled over the setup zone.
pub fn random_setup(v: &Variant, rng: &mut StdRng) -> Setup {
    let mut slots: Vec<Option<Rank>> = Vec::new();
    for r in Rank::ALL {
        for _ in 0..v.army[r.index()] {
            slots.push(Some(r));
        }
    }
    slots.resize(v.zone_size(), None);
    slots.shuffle(rng);
    let rows = slots.chunks(v.files as usize).map(|c| c.to_vec()).collect();
    Setup::from_rows(v, rows).expect("a shuffled army is a valid setup")
}

/// A random custom army on a random board (at least one Flag, fits the zone).
pub fn random_army(rng: &mut StdRng) -> Variant {
    let ranks = if rng.gen_bool(0.5) { 10 } else { 8 };
    let zone = if ranks == 10 { 40 } else { 30 };
    loop {
        let mut army = [0u8; 12];
        for r in Rank::ALL {
            army[r.index()] = match r {
                Rank::Flag => rng.gen_range(1..=2),
                Rank::Scout => rng.gen_range(0..=8),
                _ => rng.gen_range(0..=4),
            };
        }
        let total: usize = army.iter().map(|&c| c as usize).sum();
        if total <= zone {
            return Variant::custom(ranks, army).expect("a valid custom army");
        }
    }
}

/// The start from the variant's built-in sample setups.
pub fn sample_start(v: Variant, rules: Rules) -> Position {
    let (r, b) = v.sample_setups();
    let red = Setup::parse(&r, &v).unwrap();
    let blue = Setup::parse(&b, &v).unwrap();
    Position::from_setups(v, rules, &red, &blue).unwrap()
}

/// A start from random setups; returns the setups too.
pub fn random_start(v: Variant, rules: Rules, rng: &mut StdRng) -> (Position, Setup, Setup) {
    let red = random_setup(&v, rng);
    let blue = random_setup(&v, rng);
    let pos = Position::from_setups(v, rules, &red, &blue).unwrap();
    (pos, red, blue)
}

/// A move policy that makes the repetition rules fire. A side whose piece stands next to
/// where the enemy just moved usually flees, preferably by turning the same way as last
/// time (running in circles); a side whose enemy just fled usually follows it onto the
/// square it left (chasing); otherwise it often undoes its own previous move
/// (shuttling), else plays a uniform random move. `moves` must not be empty.
pub fn pick_move(pos: &Position, moves: &[Move], rng: &mut StdRng) -> Move {
    let us = pos.side_to_move();
    let mine = pos.last_move(us);
    let theirs = pos.last_move(us.flip());
    let quiet: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.rescue().is_none() && pos.piece_at(m.to()).is_none())
        .collect();
    let is_reverse = |m: &Move| !mine.is_null() && m.from() == mine.to() && m.to() == mine.from();
    if !theirs.is_null() && rng.gen_bool(0.85) {
        let flee: Vec<Move> = quiet
            .iter()
            .copied()
            .filter(|m| m.from().is_adjacent(theirs.to()))
            .collect();
        if !mine.is_null() && rng.gen_bool(0.85) {
            // One step from where the own last move ended, turned clockwise.
            let (df, dr) = (
                (mine.to().file() as i32 - mine.from().file() as i32).signum(),
                (mine.to().rank() as i32 - mine.from().rank() as i32).signum(),
            );
            let (tf, tr) = (mine.to().file() as i32 + dr, mine.to().rank() as i32 - df);
            if let Some(m) = flee
                .iter()
                .find(|m| m.from() == mine.to() && m.to().file() as i32 == tf && m.to().rank() as i32 == tr)
            {
                return *m;
            }
        }
        if let Some(m) = flee.choose(rng) {
            return *m;
        }
        if rng.gen_bool(0.85) {
            if let Some(m) = quiet
                .iter()
                .find(|m| m.to() == theirs.from() && m.to().is_adjacent(theirs.to()))
            {
                return *m;
            }
        }
        // Chase, preferring not to simply step back (the reverse is exempt from the rule).
        let chase: Vec<Move> = quiet
            .iter()
            .copied()
            .filter(|m| m.to().is_adjacent(theirs.to()) && !is_reverse(m))
            .collect();
        if let Some(m) = chase.choose(rng) {
            return *m;
        }
    }
    if rng.gen_bool(0.4) {
        if let Some(m) = quiet.iter().find(|m| is_reverse(m)) {
            return *m;
        }
    }
    *moves.choose(rng).unwrap()
}

/// A uniform random move. `moves` must not be empty.
pub fn random_move(moves: &[Move], rng: &mut StdRng) -> Move {
    moves[rng.gen_range(0..moves.len())]
}

/// Rule sets the cross-checks run under, with a short name each.
pub fn rule_sets() -> Vec<(&'static str, Rules)> {
    let d = Rules::default();
    vec![
        ("default", d),
        (
            "repetition-off",
            Rules {
                two_squares: None,
                more_squares: false,
                ..d
            },
        ),
        (
            "two-squares-only",
            Rules {
                more_squares: false,
                ..d
            },
        ),
        ("more-squares-only", Rules { two_squares: None, ..d }),
        (
            "two-squares-5",
            Rules {
                two_squares: Some(5),
                ..d
            },
        ),
        ("rescue", Rules { rescue: true, ..d }),
        (
            "attacker-advantage",
            Rules {
                attacker_advantage: true,
                ..d
            },
        ),
        (
            "silent-defence",
            Rules {
                silent_defence: true,
                ..d
            },
        ),
        (
            "all-options-short-caps",
            Rules {
                two_squares: Some(2),
                rescue: true,
                attacker_advantage: true,
                silent_defence: true,
                max_plies: Some(150),
                max_quiet_plies: Some(40),
                ..d
            },
        ),
    ]
}

pub fn sq(s: &str) -> Square {
    Square::parse(s).unwrap_or_else(|| panic!("bad square {s}"))
}

pub fn mv(s: &str) -> Move {
    Move::parse(s).unwrap()
}

/// Both repetition rules off, so only the rule under test acts.
pub fn plain() -> Rules {
    Rules {
        two_squares: None,
        more_squares: false,
        ..Rules::default()
    }
}

/// A position from tokens `<colour><piece><square>`, e.g. `r7e4 bFj10` (Red to move).
pub fn build(variant: Variant, rules: Rules, pieces: &str) -> Position {
    let mut pos = Position::empty(variant, rules);
    for tok in pieces.split_whitespace() {
        let color = Color::parse(&tok[..1]).unwrap();
        let rank = Rank::from_char(tok[1..2].chars().next().unwrap()).unwrap();
        pos.put(sq(&tok[2..]), Piece::new(color, rank), 0).unwrap();
    }
    pos
}

/// Plays the moves, each of which must be legal.
pub fn play(pos: &mut Position, moves: &[&str]) {
    for m in moves {
        assert!(
            pos.is_legal(mv(m)),
            "{m} should be legal: {:?} in {}",
            pos.illegal_reason(mv(m)),
            pos.to_text()
        );
        pos.make(mv(m));
    }
}

/// The position with some fields of its text form replaced (index as in `to_text`).
pub fn retext(pos: &Position, fields: &[(usize, &str)]) -> Position {
    let text = pos.to_text();
    let mut parts: Vec<&str> = text.split(' ').collect();
    for &(i, v) in fields {
        parts[i] = v;
    }
    Position::from_text(&parts.join(" "), *pos.rules()).unwrap()
}

/// Runs the `marshal` binary with `args`: its exit code, stdout and stderr.
pub fn run_marshal(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_marshal"))
        .args(args)
        .output()
        .expect("run marshal");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
