//! Rules tests for RULES.md "Moving" (steps, Scout lines, immobile pieces, attacks) and the lakes of both boards.

use marshal::rules::position::{MOVED, REVEALED};

use crate::common;
use common::*;
use marshal::rules::{Color, Combat, Piece, Position, Rank, Rules, Square, Variant};
use std::collections::BTreeSet;

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// The destination squares of the legal moves starting on `from`.
fn targets(pos: &Position, from: &str) -> BTreeSet<String> {
    pos.legal_moves()
        .into_iter()
        .filter(|m| m.from() == sq(from))
        .map(|m| m.to().to_string())
        .collect()
}

const STEPPERS: [Rank; 9] = [
    Rank::Spy,
    Rank::Miner,
    Rank::Sergeant,
    Rank::Lieutenant,
    Rank::Captain,
    Rank::Major,
    Rank::Colonel,
    Rank::General,
    Rank::Marshal,
];

// "One piece per turn, one square left, right, forward or back"
#[test]
fn moving_one_square_left_right_forward_or_back() {
    for rank in STEPPERS {
        let mut pos = build(Variant::CLASSIC, plain(), "rFa1 bFj10 b4j8");
        pos.put(sq("e4"), Piece::new(Color::Red, rank), 0).unwrap();
        assert_eq!(targets(&pos, "e4"), set(&["d4", "e3", "e5", "f4"]), "{rank:?}");
        assert_eq!(pos.legal_moves().len(), 4, "{rank:?}: only the piece on e4 can move");
    }
    // The same for Blue, whose forward is down the board.
    let mut pos = build(Variant::CLASSIC, plain(), "r4a1 b7e7");
    pos.make(mv("a1a2"));
    assert_eq!(targets(&pos, "e7"), set(&["d7", "e6", "e8", "f7"]));
}

// "One piece per turn"
#[test]
fn moving_one_piece_per_turn() {
    let mut pos = build(Variant::CLASSIC, plain(), "r7e4 r4a1 rFj1 b4j8 b5a8 bFj10");
    let before: Vec<_> = Variant::CLASSIC.squares().map(|s| pos.piece_at(s)).collect();
    assert_eq!(pos.side_to_move(), Color::Red);
    let out = pos.make(mv("e4e5"));
    assert_eq!(out.combat, None);
    let changed: Vec<String> = Variant::CLASSIC
        .squares()
        .zip(before)
        .filter(|(s, p)| pos.piece_at(*s) != *p)
        .map(|(s, _)| s.to_string())
        .collect();
    assert_eq!(changed, vec!["e4", "e5"]);
    assert_eq!(pos.piece_at(sq("e5")), Some(Piece::new(Color::Red, Rank::Major)));
    assert_eq!(pos.side_to_move(), Color::Blue);
    assert_eq!(pos.ply(), 1);
    // Now only Blue moves: every legal move starts on a blue piece, red ones are refused.
    assert!(pos
        .legal_moves()
        .iter()
        .all(|m| pos.piece_at(m.from()).unwrap().color() == Color::Blue));
    assert!(!pos.is_legal(mv("e5e6")));
    assert!(pos.illegal_reason(mv("e5e6")).unwrap().contains("not blue's"));
}

// "... left, right, forward or back" (the edge of the board ends a direction)
#[test]
fn moving_stops_at_the_board_edge() {
    let pos = build(Variant::CLASSIC, plain(), "r4a1 r5j10 rFe1 bFe10 b4e8");
    assert_eq!(targets(&pos, "a1"), set(&["a2", "b1"]));
    assert_eq!(targets(&pos, "j10"), set(&["i10", "j9"]));
    let pos = build(Variant::COMPACT, plain(), "r4j8 r5a1 rFe1 bFe8 b4e6");
    assert_eq!(targets(&pos, "j8"), set(&["i8", "j7"]));
    assert_eq!(targets(&pos, "a1"), set(&["a2", "b1"]));
}

// "never diagonal"
#[test]
fn moving_never_diagonal() {
    let pos = build(Variant::CLASSIC, plain(), "r7e3 rFa1 bFj10 b4j8");
    for m in ["e3f4", "e3d4", "e3f2", "e3d2"] {
        assert!(!pos.is_legal(mv(m)), "{m}");
        assert_eq!(
            pos.illegal_reason(mv(m)).unwrap(),
            "moves are along a rank or file",
            "{m}"
        );
    }
    // Not even a Scout.
    let pos = build(Variant::CLASSIC, plain(), "r2e4 rFa1 bFj10 b4j8");
    assert!(!pos.is_legal(mv("e4g6")));
    assert!(pos
        .legal_moves()
        .iter()
        .all(|m| m.from().file() == m.to().file() || m.from().rank() == m.to().rank()));
}

// "one square": no piece but the Scout moves further
#[test]
fn moving_one_square_only_for_non_scouts() {
    for rank in STEPPERS {
        let mut pos = build(Variant::CLASSIC, plain(), "rFa1 bFj10 b4j8");
        pos.put(sq("e4"), Piece::new(Color::Red, rank), 0).unwrap();
        for m in ["e4e6", "e4e2", "e4g4", "e4a4"] {
            assert!(!pos.is_legal(mv(m)), "{rank:?} {m}");
            assert_eq!(
                pos.illegal_reason(mv(m)).unwrap(),
                format!("a {} moves one square", rank.name())
            );
        }
    }
}

// "never onto a friendly piece"
#[test]
fn moving_never_onto_a_friendly_piece() {
    let pos = build(Variant::CLASSIC, plain(), "r7e4 r4e5 rBd4 rFa1 bFj10 b4j8");
    assert_eq!(targets(&pos, "e4"), set(&["e3", "f4"]));
    assert_eq!(pos.illegal_reason(mv("e4e5")).unwrap(), "e5 holds a red piece");
    assert_eq!(pos.illegal_reason(mv("e4d4")).unwrap(), "d4 holds a red piece");
    // A Scout stops in front of a friendly piece as well.
    let pos = build(Variant::CLASSIC, plain(), "r2e1 r4e5 rFa1 bFj10 b4j8");
    let up: BTreeSet<String> = targets(&pos, "e1").into_iter().filter(|t| t.starts_with('e')).collect();
    assert_eq!(up, set(&["e2", "e3", "e4"]));
}

// "never onto a lake" (10x10 board: lakes c5 d5 g5 h5 / c6 d6 g6 h6)
#[test]
fn moving_never_onto_a_lake_classic() {
    let pos = build(Variant::CLASSIC, plain(), "r4c4 r4b6 r4e5 r4h7 r4i5 rFa1 bFj10 b4j8");
    assert_eq!(targets(&pos, "c4"), set(&["b4", "c3", "d4"]));
    assert_eq!(targets(&pos, "b6"), set(&["a6", "b5", "b7"]));
    assert_eq!(targets(&pos, "e5"), set(&["e4", "e6", "f5"]));
    assert_eq!(targets(&pos, "h7"), set(&["g7", "h8", "i7"]));
    assert_eq!(targets(&pos, "i5"), set(&["i4", "i6", "j5"]));
    for (m, lake) in [
        ("c4c5", "c5"),
        ("b6c6", "c6"),
        ("e5d5", "d5"),
        ("h7h6", "h6"),
        ("i5h5", "h5"),
    ] {
        assert!(!pos.is_legal(mv(m)));
        assert_eq!(pos.illegal_reason(mv(m)).unwrap(), format!("{lake} is a lake"));
    }
}

// "never onto a lake" (10x8 board: lakes c4 d4 g4 h4 / c5 d5 g5 h5)
#[test]
fn moving_never_onto_a_lake_compact() {
    let pos = build(Variant::COMPACT, plain(), "r4c3 r4e4 r4h6 r4b5 rFa1 bFj8 b4j7");
    assert_eq!(targets(&pos, "c3"), set(&["b3", "c2", "d3"]));
    assert_eq!(targets(&pos, "e4"), set(&["e3", "e5", "f4"]));
    assert_eq!(targets(&pos, "h6"), set(&["g6", "h7", "i6"]));
    assert_eq!(targets(&pos, "b5"), set(&["a5", "b4", "b6"]));
    for (m, lake) in [("c3c4", "c4"), ("e4d4", "d4"), ("h6h5", "h5"), ("b5c5", "c5")] {
        assert_eq!(pos.illegal_reason(mv(m)).unwrap(), format!("{lake} is a lake"));
    }
}

// "never jumping"
#[test]
fn moving_never_jumping() {
    // A one-step piece cannot hop over a neighbour, friend or foe.
    let pos = build(Variant::CLASSIC, plain(), "r7e4 r4e5 b4f4 rFa1 bFj10 b4j8");
    assert!(!pos.is_legal(mv("e4e6")));
    assert!(!pos.is_legal(mv("e4g4")));
    // A Scout cannot pass a friendly piece ...
    let pos = build(Variant::CLASSIC, plain(), "r2e2 r4e3 rFa1 bFj10 b4j8");
    assert!(targets(&pos, "e2").iter().all(|t| !t.starts_with('e') || t == "e1"));
    assert_eq!(pos.illegal_reason(mv("e2e4")).unwrap(), "the path is blocked");
    // ... nor an enemy one: it may strike it, not jump it.
    let pos = build(Variant::CLASSIC, plain(), "r2e2 b4e3 rFa1 bFj10 b4j8");
    assert!(pos.is_legal(mv("e2e3")));
    assert_eq!(pos.illegal_reason(mv("e2e4")).unwrap(), "the path is blocked");
}

// "A Scout moves any number of empty squares in one straight line"
#[test]
fn scout_moves_any_number_of_empty_squares_in_one_line() {
    let pos = build(Variant::CLASSIC, plain(), "r2a1 rFj1 bFj10 b4j8");
    assert_eq!(
        targets(&pos, "a1"),
        set(&["a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1"])
    );
    // From the middle, in all four directions (the e-file runs between the lakes).
    let pos = build(Variant::CLASSIC, plain(), "r2e4 rFa1 bFj10 b4j8");
    assert_eq!(
        targets(&pos, "e4"),
        set(&[
            "e1", "e2", "e3", "e5", "e6", "e7", "e8", "e9", "e10", "a4", "b4", "c4", "d4", "f4", "g4", "h4", "i4", "j4"
        ])
    );
    let mut pos = pos;
    assert_eq!(pos.make(mv("e4e10")).combat, None);
    assert_eq!(pos.piece_at(sq("e10")), Some(Piece::new(Color::Red, Rank::Scout)));
}

// "and may end that move by attacking the piece just beyond the last empty square"
#[test]
fn scout_may_end_its_move_by_attacking_the_piece_beyond_the_last_empty_square() {
    let pos = build(Variant::CLASSIC, plain(), "r2e1 b4e7 b3e9 rFa1 bFj10");
    let up: BTreeSet<String> = targets(&pos, "e1").into_iter().filter(|t| t.starts_with('e')).collect();
    assert_eq!(up, set(&["e2", "e3", "e4", "e5", "e6", "e7"]));
    assert_eq!(pos.illegal_reason(mv("e1e8")).unwrap(), "the path is blocked");
    assert_eq!(pos.illegal_reason(mv("e1e9")).unwrap(), "the path is blocked");
    let mut lose = pos.clone();
    assert_eq!(
        lose.make(mv("e1e7")).combat,
        Some((Rank::Scout, Rank::Sergeant, Combat::DefenderWins))
    );
    assert_eq!(lose.piece_at(sq("e1")), None);
    assert_eq!(lose.piece_at(sq("e7")), Some(Piece::new(Color::Blue, Rank::Sergeant)));
    // Striking a weaker piece at the end of the line: the Scout takes its square.
    let mut pos = build(Variant::CLASSIC, plain(), "r2a2 bSh2 rFa1 bFj10 b4j8");
    assert!(pos.is_legal(mv("a2h2")));
    assert_eq!(
        pos.make(mv("a2h2")).combat,
        Some((Rank::Scout, Rank::Spy, Combat::AttackerWins))
    );
    assert_eq!(pos.piece_at(sq("h2")), Some(Piece::new(Color::Red, Rank::Scout)));
    assert_eq!(pos.captured(Color::Blue, Rank::Spy), 1);
}

// A Scout's line is blocked by pieces: it stops before a friend, strikes the first foe.
#[test]
fn scout_line_blocked_by_pieces() {
    let pos = build(Variant::CLASSIC, plain(), "r2e5 r4e8 b4b5 rFa1 bFj10");
    assert_eq!(targets(&pos, "e5"), set(&["e1", "e2", "e3", "e4", "e6", "e7", "f5"]));
    let pos = build(Variant::CLASSIC, plain(), "r2a5 b4b5 rFa1 bFj10");
    // b5 is struck from a5 (a one-square attack is fine too); nothing behind it is reachable.
    assert!(targets(&pos, "a5").contains("b5"));
}

// A Scout's line is blocked by lakes (10x10).
#[test]
fn scout_line_blocked_by_lakes_classic() {
    let pos = build(Variant::CLASSIC, plain(), "r2c1 b4c7 rFa2 bFj10 b4j8");
    let up: BTreeSet<String> = targets(&pos, "c1").into_iter().filter(|t| t.starts_with('c')).collect();
    assert_eq!(up, set(&["c2", "c3", "c4"]));
    assert_eq!(pos.illegal_reason(mv("c1c5")).unwrap(), "c5 is a lake");
    assert_eq!(pos.illegal_reason(mv("c1c7")).unwrap(), "the path is blocked");
    assert_eq!(pos.illegal_reason(mv("c1c8")).unwrap(), "the path is blocked");
    // Across the lake rows: from a5 only b5, from e5 only f5, from j6 only i6.
    let pos = build(Variant::CLASSIC, plain(), "r2a5 r2e5 r2j6 rFa1 bFj10 b4j8");
    let across = |from: &str| -> BTreeSet<String> {
        let r = &from[1..];
        targets(&pos, from).into_iter().filter(|t| &t[1..] == r).collect()
    };
    assert_eq!(across("a5"), set(&["b5"]));
    assert_eq!(across("e5"), set(&["f5"]));
    assert_eq!(across("j6"), set(&["i6"]));
    assert!(!pos.is_legal(mv("e5i5")));
    assert!(!pos.is_legal(mv("a5e5")));
}

// A Scout's line is blocked by lakes (10x8).
#[test]
fn scout_line_blocked_by_lakes_compact() {
    let pos = build(Variant::COMPACT, plain(), "r2c1 r2a4 r2e5 rFa1 bFj8 b4j7");
    let up: BTreeSet<String> = targets(&pos, "c1").into_iter().filter(|t| t.starts_with('c')).collect();
    assert_eq!(up, set(&["c2", "c3"]));
    assert_eq!(pos.illegal_reason(mv("c1c4")).unwrap(), "c4 is a lake");
    assert_eq!(pos.illegal_reason(mv("c1c6")).unwrap(), "the path is blocked");
    assert_eq!(targets(&pos, "a4"), set(&["a2", "a3", "a5", "a6", "a7", "a8", "b4"]));
    assert_eq!(
        targets(&pos, "e5"),
        set(&["e1", "e2", "e3", "e4", "e6", "e7", "e8", "f5"])
    );
}

// "A Scout that moves more than one square reveals itself as a Scout."
#[test]
fn scout_moving_more_than_one_square_reveals_itself() {
    let mut pos = build(Variant::CLASSIC, plain(), "r2e1 r2a3 r7j1 rFa1 bFj10 b4j8 b4i8");
    // One square: moved, still hidden.
    pos.make(mv("e1e2"));
    assert_eq!(pos.flags_at(sq("e2")), MOVED);
    assert_eq!(pos.view(Color::Blue).piece_at(sq("e2")).unwrap().rank(), Rank::Unknown);
    pos.make(mv("j8j7"));
    // Four squares up the file: revealed.
    pos.make(mv("e2e6"));
    assert_eq!(pos.flags_at(sq("e6")), MOVED | REVEALED);
    assert_eq!(
        pos.view(Color::Blue).piece_at(sq("e6")),
        Some(Piece::new(Color::Red, Rank::Scout))
    );
    pos.make(mv("i8i7"));
    // Sideways two squares: revealed too.
    pos.make(mv("a3c3"));
    assert_eq!(pos.flags_at(sq("c3")), MOVED | REVEALED);
    pos.make(mv("j7j6"));
    // Once revealed it stays revealed after a one-square move.
    pos.make(mv("e6e7"));
    assert_eq!(pos.flags_at(sq("e7")), MOVED | REVEALED);
    pos.make(mv("i7i6"));
    // Other pieces never reveal by moving.
    pos.make(mv("j1j2"));
    assert_eq!(pos.flags_at(sq("j2")), MOVED);
    assert_eq!(pos.view(Color::Blue).piece_at(sq("j2")).unwrap().rank(), Rank::Unknown);
}

// "Bombs and the Flag never move."
#[test]
fn bombs_and_the_flag_never_move() {
    let pos = build(Variant::CLASSIC, plain(), "rBe4 rFg2 b4e5 b4g3 r7a1 bFj10");
    let froms: BTreeSet<String> = pos.legal_moves().iter().map(|m| m.from().to_string()).collect();
    assert_eq!(froms, set(&["a1"]));
    assert_eq!(pos.illegal_reason(mv("e4e3")).unwrap(), "a Bomb cannot move");
    assert_eq!(pos.illegal_reason(mv("e4e5")).unwrap(), "a Bomb cannot move");
    assert_eq!(pos.illegal_reason(mv("g2g1")).unwrap(), "a Flag cannot move");
    assert_eq!(pos.illegal_reason(mv("g2g3")).unwrap(), "a Flag cannot move");
    // Blue's as well.
    let mut pos = build(Variant::CLASSIC, plain(), "bBe6 bFg7 r7a1 b7j10");
    pos.make(mv("a1a2"));
    let froms: BTreeSet<String> = pos.legal_moves().iter().map(|m| m.from().to_string()).collect();
    assert_eq!(froms, set(&["j10"]));
}

// "Moving onto an enemy piece is an attack."
#[test]
fn moving_onto_an_enemy_piece_is_an_attack() {
    let mut pos = build(Variant::CLASSIC, plain(), "r7e4 b6e6 rFa1 bFj10 b4j8");
    assert_eq!(pos.make(mv("e4e5")).combat, None);
    assert_eq!(pos.quiet_plies(), 1);
    assert_eq!(pos.make(mv("j8j7")).combat, None);
    assert_eq!(pos.quiet_plies(), 2);
    assert!(pos.is_legal(mv("e5e6")));
    assert_eq!(
        pos.make(mv("e5e6")).combat,
        Some((Rank::Major, Rank::Captain, Combat::AttackerWins))
    );
    assert_eq!(pos.quiet_plies(), 0);
    assert_eq!(pos.recent_moves().last(), Some(&(mv("e5e6"), true)));
}

// "Attacking is never compulsory."
#[test]
fn attacking_is_never_compulsory() {
    let pos = build(Variant::CLASSIC, plain(), "r7e4 b6e5 b6d4 b6f4 rFa1 bFj10");
    assert_eq!(targets(&pos, "e4"), set(&["d4", "e3", "e5", "f4"]));
    let mut p = pos.clone();
    assert_eq!(p.make(mv("e4e3")).combat, None);
    assert_eq!(p.piece_at(sq("e5")), Some(Piece::new(Color::Blue, Rank::Captain)));
    // A Scout that could strike may also stop short.
    let mut pos = build(Variant::CLASSIC, plain(), "r2e1 b6e7 rFa1 bFj10");
    assert!(pos.is_legal(mv("e1e7")));
    assert!(pos.is_legal(mv("e1e6")));
    assert_eq!(pos.make(mv("e1e6")).combat, None);
}

// Lakes: "two 2x2 lakes in files c-d and g-h (10x10: ranks 5-6; 10x8: ranks 4-5)"
#[test]
fn lakes_lie_in_files_c_d_and_g_h_of_the_middle_ranks_on_both_boards() {
    for (variant, lakes, playable) in [
        (Variant::CLASSIC, ["c5", "d5", "g5", "h5", "c6", "d6", "g6", "h6"], 92),
        (Variant::COMPACT, ["c4", "d4", "g4", "h4", "c5", "d5", "g5", "h5"], 72),
        (Variant::DUEL, ["c5", "d5", "g5", "h5", "c6", "d6", "g6", "h6"], 92),
        (
            Variant::DUEL_COMPACT,
            ["c4", "d4", "g4", "h4", "c5", "d5", "g5", "h5"],
            72,
        ),
    ] {
        let mut found = BTreeSet::new();
        for r in 0..variant.ranks {
            for f in 0..variant.files {
                let s = Square::new(f, r);
                if variant.is_lake(s) {
                    found.insert(s.to_string());
                }
            }
        }
        assert_eq!(found, set(&lakes), "{}", variant.name());
        assert_eq!(variant.squares().count(), playable);
        let mut pos = Position::empty(variant, plain());
        for l in lakes {
            assert!(pos.put(sq(l), Piece::new(Color::Red, Rank::Major), 0).is_err());
        }
    }
}

/// What a lone piece on `from` may reach, worked out square by square from the rules.
fn expected_reach(variant: &Variant, pos: &Position, from: Square, scout: bool) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (df, dr) in [(0i8, 1i8), (0, -1), (1, 0), (-1, 0)] {
        let (mut f, mut r) = (from.file() as i8, from.rank() as i8);
        loop {
            f += df;
            r += dr;
            if f < 0 || r < 0 || f >= variant.files as i8 || r >= variant.ranks as i8 {
                break;
            }
            let s = Square::new(f as u8, r as u8);
            if variant.is_lake(s) {
                break;
            }
            match pos.piece_at(s) {
                Some(p) if p.color() == Color::Red => break,
                Some(_) => {
                    out.insert(s.to_string());
                    break;
                }
                None => {
                    out.insert(s.to_string());
                }
            }
            if !scout {
                break;
            }
        }
    }
    out
}

// "Nothing enters or crosses a lake", checked from every square of both boards.
#[test]
fn nothing_enters_or_crosses_a_lake_on_either_board() {
    for variant in [Variant::CLASSIC, Variant::COMPACT] {
        let top = variant.ranks - 1;
        for from in variant.squares() {
            for rank in [Rank::Scout, Rank::Major] {
                let mut pos = Position::empty(variant, plain());
                pos.put(from, Piece::new(Color::Red, rank), 0).unwrap();
                // Flags in two corners the piece does not stand on.
                let corners = [
                    Square::new(0, 0),
                    Square::new(9, 0),
                    Square::new(0, top),
                    Square::new(9, top),
                ];
                let mut free = corners.iter().filter(|&&c| c != from);
                pos.put(*free.next().unwrap(), Piece::new(Color::Red, Rank::Flag), 0)
                    .unwrap();
                pos.put(*free.next().unwrap(), Piece::new(Color::Blue, Rank::Flag), 0)
                    .unwrap();
                let moves = pos.legal_moves();
                for m in &moves {
                    assert!(!variant.is_lake(m.to()), "{} {m} ends on a lake", variant.name());
                    // Every square passed over is open.
                    let (a, b) = (m.from(), m.to());
                    let (df, dr) = (
                        (b.file() as i8 - a.file() as i8).signum(),
                        (b.rank() as i8 - a.rank() as i8).signum(),
                    );
                    let (mut f, mut r) = (a.file() as i8 + df, a.rank() as i8 + dr);
                    while (f, r) != (b.file() as i8, b.rank() as i8) {
                        let s = Square::new(f as u8, r as u8);
                        assert!(!variant.is_lake(s), "{} {m} crosses the lake {s}", variant.name());
                        assert!(pos.piece_at(s).is_none(), "{m} jumps {s}");
                        f += df;
                        r += dr;
                    }
                }
                let got: BTreeSet<String> = moves.iter().map(|m| m.to().to_string()).collect();
                assert_eq!(
                    got,
                    expected_reach(&variant, &pos, from, rank == Rank::Scout),
                    "{} {rank:?} on {from}",
                    variant.name()
                );
            }
        }
    }
}

// Unmake restores quiet moves exactly (one-square and Scout moves, both sides).
#[test]
fn unmake_restores_quiet_moves_exactly() {
    let mut pos = build(Variant::CLASSIC, Rules::default(), "r2e1 r7a3 rFa1 bFj10 b2j9 b4b8");
    let mut texts = vec![pos.to_text()];
    for m in ["e1e8", "j9b9", "a3a4", "b8c8", "e8e7", "b9b10", "a4a3", "c8b8"] {
        assert!(pos.is_legal(mv(m)), "{m}");
        pos.make(mv(m));
        texts.push(pos.to_text());
    }
    let moves_at_end = pos.legal_moves();
    texts.pop();
    while let Some(t) = texts.pop() {
        pos.unmake();
        assert_eq!(pos.to_text(), t);
    }
    assert_eq!(pos.undo_depth(), 0);
    for m in ["e1e8", "j9b9", "a3a4", "b8c8", "e8e7", "b9b10", "a4a3", "c8b8"] {
        pos.make(mv(m));
    }
    assert_eq!(pos.legal_moves(), moves_at_end);
}
