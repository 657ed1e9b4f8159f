//! Rules tests for RULES.md "Combat": reveals, who is removed, equal ranks, Bombs and Miners, Spy and Marshal, the Flag.

use marshal::rules::position::{MOVED, REVEALED};

use crate::common;
use common::*;
use marshal::rules::{Color, Combat, EndReason, GameEnd, Piece, Position, Rank, Rules, Variant};

fn red(r: Rank) -> Option<Piece> {
    Some(Piece::new(Color::Red, r))
}

fn blue(r: Rank) -> Option<Piece> {
    Some(Piece::new(Color::Blue, r))
}

/// Red's piece of `att` on e4 attacks Blue's `def` on e5 (spare pieces keep both sides mobile).
fn duel(att: Rank, def: Rank) -> Position {
    let mut pos = build(Variant::CLASSIC, plain(), "r4a1 b4j10");
    pos.put(sq("e4"), Piece::new(Color::Red, att), 0).unwrap();
    pos.put(sq("e5"), Piece::new(Color::Blue, def), 0).unwrap();
    pos
}

const MOVABLE: [Rank; 10] = [
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
];

// "Both ranks are revealed (classic rules). The lower rank is removed; the attacker, if it
// wins, takes the defender's square"
#[test]
fn combat_lower_rank_removed_winning_attacker_takes_the_square_both_revealed() {
    let mut pos = duel(Rank::Major, Rank::Captain);
    let out = pos.make(mv("e4e5"));
    assert_eq!(out.combat, Some((Rank::Major, Rank::Captain, Combat::AttackerWins)));
    assert_eq!(pos.piece_at(sq("e4")), None);
    assert_eq!(pos.piece_at(sq("e5")), red(Rank::Major));
    assert_eq!(pos.flags_at(sq("e5")), MOVED | REVEALED);
    assert_eq!(pos.count(Color::Blue, Rank::Captain), 0);
    assert_eq!(pos.captured(Color::Blue, Rank::Captain), 1);
    assert_eq!(pos.count(Color::Red, Rank::Major), 1);
    assert_eq!(pos.captured(Color::Red, Rank::Major), 0);
    // Both players know both ranks.
    let blue_view = pos.view(Color::Blue);
    assert_eq!(blue_view.piece_at(sq("e5")), red(Rank::Major));
    let red_view = pos.view(Color::Red);
    assert_eq!(red_view.captured(Color::Blue, Rank::Captain), 1);
    assert_eq!(red_view.captured(Color::Blue, Rank::Unknown), 0);
}

// "a winning defender stays" (and is revealed)
#[test]
fn combat_winning_defender_stays_and_is_revealed() {
    let mut pos = duel(Rank::Captain, Rank::Major);
    assert_eq!(pos.flags_at(sq("e5")), 0);
    let out = pos.make(mv("e4e5"));
    assert_eq!(out.combat, Some((Rank::Captain, Rank::Major, Combat::DefenderWins)));
    assert_eq!(pos.piece_at(sq("e4")), None);
    assert_eq!(pos.piece_at(sq("e5")), blue(Rank::Major));
    assert_eq!(pos.flags_at(sq("e5")), REVEALED, "revealed, not moved");
    assert_eq!(pos.captured(Color::Red, Rank::Captain), 1);
    assert_eq!(pos.count(Color::Red, Rank::Captain), 0);
    assert_eq!(pos.view(Color::Red).piece_at(sq("e5")), blue(Rank::Major));
    assert_eq!(pos.view(Color::Blue).captured(Color::Red, Rank::Captain), 1);
    // Blue attacking Red works the same way.
    let mut pos = build(Variant::CLASSIC, plain(), "r4a1 r5e4 b8e6 b4j10");
    pos.make(mv("a1a2"));
    pos.make(mv("e6e5"));
    let out = pos.make(mv("e4e5"));
    assert_eq!(
        out.combat,
        Some((Rank::Lieutenant, Rank::Colonel, Combat::DefenderWins))
    );
    assert_eq!(pos.piece_at(sq("e5")), blue(Rank::Colonel));
    assert_eq!(pos.flags_at(sq("e5")), MOVED | REVEALED);
}

// "Equal ranks: both removed."
#[test]
fn combat_equal_ranks_both_removed() {
    for r in MOVABLE {
        let mut pos = duel(r, r);
        let (red_before, blue_before) = (pos.count(Color::Red, r), pos.count(Color::Blue, r));
        let out = pos.make(mv("e4e5"));
        assert_eq!(out.combat, Some((r, r, Combat::BothDie)), "{r:?}");
        assert_eq!(pos.piece_at(sq("e4")), None);
        assert_eq!(pos.piece_at(sq("e5")), None);
        assert_eq!(pos.captured(Color::Red, r), 1);
        assert_eq!(pos.captured(Color::Blue, r), 1);
        assert_eq!(pos.count(Color::Red, r), red_before - 1);
        assert_eq!(pos.count(Color::Blue, r), blue_before - 1);
    }
    // Two Scouts meeting at the end of a long line.
    let mut pos = build(Variant::CLASSIC, plain(), "r2a2 b2h2 r4a1 b4j10");
    assert_eq!(
        pos.make(mv("a2h2")).combat,
        Some((Rank::Scout, Rank::Scout, Combat::BothDie))
    );
    assert_eq!(pos.piece_at(sq("h2")), None);
}

// "Any piece but a Miner that attacks a Bomb is removed; the Bomb stays."
#[test]
fn combat_any_piece_but_a_miner_attacking_a_bomb_is_removed_and_the_bomb_stays() {
    for r in MOVABLE.into_iter().filter(|&r| r != Rank::Miner) {
        let mut pos = duel(r, Rank::Bomb);
        let out = pos.make(mv("e4e5"));
        assert_eq!(out.combat, Some((r, Rank::Bomb, Combat::DefenderWins)), "{r:?}");
        assert_eq!(pos.piece_at(sq("e4")), None);
        assert_eq!(pos.piece_at(sq("e5")), blue(Rank::Bomb));
        assert_eq!(pos.flags_at(sq("e5")), REVEALED);
        assert_eq!(pos.captured(Color::Red, r), 1);
        assert_eq!(pos.count(Color::Blue, Rank::Bomb), 1);
    }
    // A Scout hitting a Bomb at the end of a long line.
    let mut pos = build(Variant::CLASSIC, plain(), "r2e1 bBe9 r4a1 b4j10");
    assert_eq!(
        pos.make(mv("e1e9")).combat,
        Some((Rank::Scout, Rank::Bomb, Combat::DefenderWins))
    );
    assert_eq!(pos.piece_at(sq("e9")), blue(Rank::Bomb));
}

// "A Miner removes the Bomb and takes its square."
#[test]
fn combat_miner_removes_the_bomb_and_takes_its_square() {
    let mut pos = duel(Rank::Miner, Rank::Bomb);
    let out = pos.make(mv("e4e5"));
    assert_eq!(out.combat, Some((Rank::Miner, Rank::Bomb, Combat::AttackerWins)));
    assert_eq!(pos.piece_at(sq("e4")), None);
    assert_eq!(pos.piece_at(sq("e5")), red(Rank::Miner));
    assert_eq!(pos.captured(Color::Blue, Rank::Bomb), 1);
    assert_eq!(pos.count(Color::Blue, Rank::Bomb), 0);
}

// "A Spy that attacks the Marshal wins."
#[test]
fn combat_spy_attacking_the_marshal_wins() {
    let mut pos = duel(Rank::Spy, Rank::Marshal);
    assert_eq!(
        pos.make(mv("e4e5")).combat,
        Some((Rank::Spy, Rank::Marshal, Combat::AttackerWins))
    );
    assert_eq!(pos.piece_at(sq("e5")), red(Rank::Spy));
    assert_eq!(pos.captured(Color::Blue, Rank::Marshal), 1);
    // Only the Marshal: a Spy attacking anything else movable loses.
    for def in MOVABLE.into_iter().filter(|&r| r > Rank::Spy && r < Rank::Marshal) {
        let mut pos = duel(Rank::Spy, def);
        assert_eq!(
            pos.make(mv("e4e5")).combat,
            Some((Rank::Spy, def, Combat::DefenderWins)),
            "{def:?}"
        );
        assert_eq!(pos.piece_at(sq("e5")), blue(def));
    }
}

// "A Marshal (or anything) that attacks the Spy wins."
#[test]
fn combat_marshal_or_anything_attacking_the_spy_wins() {
    for att in MOVABLE.into_iter().filter(|&r| r != Rank::Spy) {
        let mut pos = duel(att, Rank::Spy);
        assert_eq!(
            pos.make(mv("e4e5")).combat,
            Some((att, Rank::Spy, Combat::AttackerWins)),
            "{att:?}"
        );
        assert_eq!(pos.piece_at(sq("e5")), red(att));
        assert_eq!(pos.captured(Color::Blue, Rank::Spy), 1);
    }
    // The Marshal defending against a Spy is the one exception the other way round.
    let mut pos = build(Variant::CLASSIC, plain(), "r4a1 rMe4 bSe6 b4j10");
    pos.make(mv("a1a2"));
    pos.make(mv("e6e5"));
    assert_eq!(
        pos.make(mv("e4e5")).combat,
        Some((Rank::Marshal, Rank::Spy, Combat::AttackerWins))
    );
}

// "Any movable piece that attacks the Flag captures it: the game is over."
#[test]
fn combat_any_movable_piece_attacking_the_flag_captures_it_game_over() {
    for att in MOVABLE {
        let mut pos = duel(att, Rank::Flag);
        assert_eq!(pos.game_end(), None);
        assert_eq!(
            pos.make(mv("e4e5")).combat,
            Some((att, Rank::Flag, Combat::FlagCaptured)),
            "{att:?}"
        );
        assert_eq!(pos.piece_at(sq("e5")), red(att));
        assert_eq!(pos.captured(Color::Blue, Rank::Flag), 1);
        assert_eq!(pos.flag_taken_by(), Some(Color::Red));
        assert_eq!(
            pos.game_end(),
            Some(GameEnd {
                winner: Some(Color::Red),
                reason: EndReason::FlagCaptured
            })
        );
        assert!(pos.legal_moves().is_empty(), "no move after the Flag falls");
    }
    // A Scout from afar.
    let mut pos = build(Variant::CLASSIC, plain(), "r2a9 bFj9 r4a1 b4j10");
    assert_eq!(
        pos.make(mv("a9j9")).combat,
        Some((Rank::Scout, Rank::Flag, Combat::FlagCaptured))
    );
    assert_eq!(pos.game_end().unwrap().winner, Some(Color::Red));
}

/// The result RULES.md prescribes, written out independently of the engine.
fn prescribed(att: Rank, def: Rank) -> Combat {
    let strength = |r: Rank| r as u8; // European numbering: higher is stronger
    match def {
        Rank::Flag => Combat::FlagCaptured,
        Rank::Bomb if att == Rank::Miner => Combat::AttackerWins,
        Rank::Bomb => Combat::DefenderWins,
        Rank::Marshal if att == Rank::Spy => Combat::AttackerWins,
        _ if strength(att) > strength(def) => Combat::AttackerWins,
        _ if strength(att) < strength(def) => Combat::DefenderWins,
        _ => Combat::BothDie,
    }
}

// The whole table: every movable attacker against every defender.
#[test]
fn combat_table_for_every_pair_of_ranks() {
    for att in MOVABLE {
        for def in Rank::ALL {
            let mut pos = duel(att, def);
            let before = pos.to_text();
            let want = prescribed(att, def);
            let out = pos.make(mv("e4e5"));
            assert_eq!(out.combat, Some((att, def, want)), "{att:?} x {def:?}");
            let (e4, e5) = (pos.piece_at(sq("e4")), pos.piece_at(sq("e5")));
            assert_eq!(e4, None);
            match want {
                Combat::AttackerWins | Combat::FlagCaptured => assert_eq!(e5, red(att)),
                Combat::DefenderWins => assert_eq!(e5, blue(def)),
                Combat::BothDie => assert_eq!(e5, None),
            }
            assert_eq!(pos.quiet_plies(), 0);
            pos.unmake();
            assert_eq!(pos.to_text(), before, "unmake after {att:?} x {def:?}");
        }
    }
}

// Unmake restores every kind of combat exactly, deep in a game with repetition state.
#[test]
fn unmake_restores_combats_exactly() {
    let mut pos = build(
        Variant::CLASSIC,
        Rules::default(),
        "r7e4 r5a4 r3g2 r2b1 rSi4 rFa1 b6e6 b7a6 bBg3 bBb8 bMi6 b7i5 bFj10 b4j9",
    );
    let line = [
        ("e4e5", None),
        ("j9j8", None),
        ("e5e6", Some(Combat::AttackerWins)),
        ("a6a5", None),
        ("a4a5", Some(Combat::DefenderWins)),
        ("j8j7", None),
        ("g2g3", Some(Combat::AttackerWins)),
        ("i5i4", Some(Combat::AttackerWins)),
        ("b1b8", Some(Combat::DefenderWins)),
        ("i6i5", None),
        ("e6e7", None),
        ("a5a4", None),
    ];
    let mut texts = vec![pos.to_text()];
    for (m, want) in line {
        assert!(pos.is_legal(mv(m)), "{m} in {}", pos.to_text());
        assert_eq!(pos.make(mv(m)).combat.map(|c| c.2), want, "{m}");
        texts.push(pos.to_text());
    }
    let end_moves = pos.legal_moves();
    texts.pop();
    while let Some(t) = texts.pop() {
        pos.unmake();
        assert_eq!(pos.to_text(), t);
    }
    for (m, _) in line {
        pos.make(mv(m));
    }
    assert_eq!(pos.legal_moves(), end_moves);
}
