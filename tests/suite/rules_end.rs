//! Rules tests for RULES.md "End of the game": Flag capture, no moves, neither can move, the caps, resignation and agreement.

use marshal::formats::{GameRecord, RecordError};
use marshal::rules::{Color, EndReason, GameEnd, Rules, Setup, Variant};

use crate::common;
use common::*;

fn won(c: Color, reason: EndReason) -> Option<GameEnd> {
    Some(GameEnd {
        winner: Some(c),
        reason,
    })
}

fn drawn(reason: EndReason) -> Option<GameEnd> {
    Some(GameEnd { winner: None, reason })
}

// "Capturing the enemy Flag wins."
#[test]
fn capturing_the_enemy_flag_wins() {
    let mut pos = build(Variant::CLASSIC, plain(), "r4e4 bFe5 b7j10 rFa1");
    assert_eq!(pos.game_end(), None);
    play(&mut pos, &["e4e5"]);
    assert_eq!(pos.game_end(), won(Color::Red, EndReason::FlagCaptured));
    assert!(pos.legal_moves().is_empty());
    assert!(pos.illegal_reason(mv("j10j9")).unwrap().contains("the game is over"));
    // Blue taking Red's Flag, on the small board.
    let mut pos = build(Variant::COMPACT, plain(), "rFe4 b3e5 r4a1 bFj8");
    play(&mut pos, &["a1a2", "e5e4"]);
    assert_eq!(pos.game_end(), won(Color::Blue, EndReason::FlagCaptured));
}

// "A player who cannot move on their turn (only Bombs and Flag left ...) loses."
#[test]
fn a_player_with_only_bombs_and_flag_left_loses() {
    let pos = build(Variant::CLASSIC, plain(), "rFa1 rBb1 rBe4 bFj10 b4j8");
    assert!(pos.legal_moves().is_empty());
    assert_eq!(pos.game_end(), won(Color::Blue, EndReason::NoMoves));
    // Blue in the same plight after Red's move.
    let mut pos = build(Variant::CLASSIC, plain(), "rFa1 r4e4 bFj10 bBi10 bBe9");
    play(&mut pos, &["e4e5"]);
    assert_eq!(pos.game_end(), won(Color::Red, EndReason::NoMoves));
}

// The side whose last movable piece just died cannot move on its next turn: it has lost at once.
#[test]
fn a_player_whose_last_movable_piece_dies_loses_at_once() {
    let mut pos = build(Variant::CLASSIC, plain(), "r7e4 rFa1 rBa2 bBe5 bFj10 b4j8");
    play(&mut pos, &["e4e5"]);
    assert_eq!(pos.side_to_move(), Color::Blue);
    assert!(!pos.legal_moves().is_empty(), "Blue could play on");
    assert_eq!(pos.game_end(), won(Color::Blue, EndReason::NoMoves));
    // Likewise when the piece left behind is walled in rather than gone.
    let mut pos = build(Variant::CLASSIC, plain(), "r7e4 r4a1 rBa2 rBb1 rFj1 bBe5 bFj10 b4j8");
    play(&mut pos, &["e4e5"]);
    assert_eq!(pos.game_end(), won(Color::Blue, EndReason::NoMoves));
}

// "(... the last movable pieces walled in by Bombs, lakes or the edge ...) loses."
#[test]
fn a_player_whose_last_movable_pieces_are_walled_in_by_bombs_lakes_or_the_edge_loses() {
    // a1: the edge and two Bombs; b5: the lake c5 and three Bombs.
    let pos = build(
        Variant::CLASSIC,
        plain(),
        "r4a1 rBa2 rBb1 r2b5 rBa5 rBb4 rBb6 rFj1 bFj10 b7j8",
    );
    assert!(!pos.can_move_geometrically(Color::Red));
    assert!(pos.legal_moves().is_empty());
    assert_eq!(pos.game_end(), won(Color::Blue, EndReason::NoMoves));
    // On the 10x8 board: b4 next to the lake c4, j1 in the corner.
    let mut pos = build(
        Variant::COMPACT,
        plain(),
        "r7a1 b4b4 bBa4 bBb3 bBb5 b2j8 bBi8 bBj7 bFe8 rFe1",
    );
    play(&mut pos, &["a1a2"]);
    assert!(pos.legal_moves().is_empty());
    assert_eq!(pos.game_end(), won(Color::Red, EndReason::NoMoves));
    // Enemy pieces do not wall a piece in: it may attack them.
    let pos = build(Variant::CLASSIC, plain(), "r4a1 b4a2 b4b1 rFj1 bFj10");
    assert_eq!(pos.legal_moves().len(), 2);
    assert_eq!(pos.game_end(), None);
}

// "(... or every remaining move forbidden by the repetition rules) loses."
#[test]
fn a_player_whose_every_move_is_forbidden_by_the_repetition_rules_loses() {
    let mut pos = build(
        Variant::CLASSIC,
        Rules::default(),
        "r4a1 rBb1 rBb2 rBa3 rFc1 bFj10 b7j8 b7h8",
    );
    play(&mut pos, &["a1a2", "j8j7", "a2a1", "h8h7", "a1a2", "j7j8"]);
    assert!(pos.can_move_geometrically(Color::Red));
    assert!(pos.legal_moves().is_empty());
    assert_eq!(pos.game_end(), won(Color::Blue, EndReason::NoMoves));
    // a2a1 was the one move left, and only the two-squares rule takes it away.
    let mut off = pos.clone();
    off.set_rules(plain());
    assert_eq!(off.legal_moves(), vec![mv("a2a1")]);
    assert_eq!(off.game_end(), None);
}

// "If neither player can move, the game is a draw."
#[test]
fn neither_player_can_move_is_a_draw() {
    // The last two movable pieces trade.
    let mut pos = build(Variant::CLASSIC, plain(), "r7e4 b7e5 rFa1 rBa2 bFj10 bBj9");
    play(&mut pos, &["e4e5"]);
    assert_eq!(pos.game_end(), drawn(EndReason::NeitherCanMove));
    // Only Bombs and Flags on the board.
    let pos = build(Variant::CLASSIC, plain(), "rFa1 rBe4 bFj10 bBe7");
    assert_eq!(pos.game_end(), drawn(EndReason::NeitherCanMove));
    // Both sides walled in.
    let pos = build(Variant::COMPACT, plain(), "r4a1 rBa2 rBb1 b4j8 bBi8 bBj7 rFe1 bFe8");
    assert_eq!(pos.game_end(), drawn(EndReason::NeitherCanMove));
}

// "Draw ... by a move cap (option: 4000 plies ...)"
#[test]
fn draw_by_the_move_cap() {
    assert_eq!(Rules::default().max_plies, Some(4000));
    let rules = Rules {
        max_plies: Some(4),
        ..plain()
    };
    let mut pos = build(Variant::CLASSIC, rules, "r4a1 rFj1 b4a10 bFj10");
    play(&mut pos, &["a1a2", "a10a9", "a2a3", "a9a8"]);
    assert_eq!(pos.game_end(), None, "4 plies played: not over yet");
    play(&mut pos, &["a3a4"]);
    assert_eq!(pos.game_end(), drawn(EndReason::MoveCap));
    assert!(pos.legal_moves().is_empty());
    // The default cap, from a position 4000 plies into a game.
    let pos = build(Variant::CLASSIC, Rules::default(), "r4a1 rFj1 b4a10 bFj10");
    let mut pos = retext(&pos, &[(4, "4000"), (5, "0")]);
    assert_eq!(pos.ply(), 4000);
    assert_eq!(pos.game_end(), None);
    play(&mut pos, &["a1a2"]);
    assert_eq!(pos.game_end(), drawn(EndReason::MoveCap));
    // Off: no cap.
    let mut pos = retext(
        &build(
            Variant::CLASSIC,
            Rules {
                max_plies: None,
                ..Rules::default()
            },
            "r4a1 rFj1 b4a10 bFj10",
        ),
        &[(4, "100000"), (5, "0")],
    );
    play(&mut pos, &["a1a2"]);
    assert_eq!(pos.game_end(), None);
}

// "Draw ... after a run of plies without any attack (option: 200 plies ...; off allowed)"
#[test]
fn draw_after_a_run_of_plies_without_an_attack() {
    assert_eq!(Rules::default().max_quiet_plies, Some(200));
    let start = build(Variant::CLASSIC, Rules::default(), "r7e4 rFj1 b4e6 b4a10 bFj10");
    let pos = retext(&start, &[(4, "300"), (5, "200")]);
    assert_eq!(pos.quiet_plies(), 200);
    assert_eq!(pos.game_end(), None);
    let mut quiet = pos.clone();
    play(&mut quiet, &["e4e5"]);
    assert_eq!(quiet.game_end(), drawn(EndReason::NoAttackCap));
    assert!(quiet.legal_moves().is_empty());
    // An attack starts the count again.
    let mut fight = retext(&start, &[(4, "300"), (5, "199")]);
    play(&mut fight, &["e4e5"]);
    assert_eq!(fight.quiet_plies(), 200);
    assert_eq!(fight.game_end(), None);
    play(&mut fight, &["e6e5"]);
    assert_eq!(fight.quiet_plies(), 0);
    assert_eq!(fight.game_end(), None);
    // A smaller limit counts every quiet ply of both sides.
    let rules = Rules {
        max_quiet_plies: Some(3),
        ..plain()
    };
    let mut pos = build(Variant::CLASSIC, rules, "r7e4 rFj1 b4e7 b4a10 bFj10");
    play(&mut pos, &["e4e5", "a10a9", "e5e6"]);
    assert_eq!(pos.game_end(), None);
    let mut quiet = pos.clone();
    play(&mut quiet, &["a9a8"]);
    assert_eq!(quiet.game_end(), drawn(EndReason::NoAttackCap));
    play(&mut pos, &["e7e6"]);
    assert_eq!(pos.quiet_plies(), 0);
    assert_eq!(pos.game_end(), None);
    // "off allowed"
    let rules = Rules {
        max_quiet_plies: None,
        max_plies: None,
        ..Rules::default()
    };
    let mut pos = retext(
        &build(Variant::CLASSIC, rules, "r4e4 rFj1 b4a10 bFj10"),
        &[(4, "9000"), (5, "9000")],
    );
    play(&mut pos, &["e4e5"]);
    assert_eq!(pos.game_end(), None);
}

fn sample_record(rules: Rules) -> GameRecord {
    let v = Variant::CLASSIC;
    let (r, b) = v.sample_setups();
    let red = Setup::parse(&r, &v).unwrap();
    let blue = Setup::parse(&b, &v).unwrap();
    let mut rec = GameRecord::new(&v, rules, &red, &blue);
    let mut pos = rec.start(None).unwrap();
    for m in ["a4a5", "a7a6"] {
        let out = pos.make(mv(m));
        rec.push(mv(m), out.combat);
    }
    rec
}

// "Draw by agreement ... A player may resign." (results a record carries; the board cannot show them)
#[test]
fn resignation_and_agreement_end_a_recorded_game() {
    let mut rec = sample_record(Rules::default());
    assert_eq!(rec.replay(None).unwrap().1, None);
    let resigned = GameEnd {
        winner: Some(Color::Blue),
        reason: EndReason::Resignation,
    };
    rec.result = Some(resigned);
    let rec = GameRecord::from_json(&rec.to_json()).unwrap();
    assert_eq!(rec.replay(None).unwrap().1, Some(resigned));
    let mut rec = sample_record(Rules::default());
    let agreed = GameEnd {
        winner: None,
        reason: EndReason::Agreement,
    };
    rec.result = Some(agreed);
    assert_eq!(rec.replay(None).unwrap().1, Some(agreed));
    // A result the board must show cannot merely be claimed.
    rec.result = won(Color::Red, EndReason::FlagCaptured);
    assert!(matches!(rec.replay(None), Err(RecordError::Result { .. })));
}
