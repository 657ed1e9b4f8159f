//! Helpers shared by the tests: squares and moves from text, positions from piece
//! tokens, playing checked moves, editing fields of a position line, running the binary.
// Each test crate uses a different subset of these helpers.
#![allow(dead_code)]

use marshal::rules::{Color, Move, Piece, Position, Rank, Rules, Square, Variant};

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
