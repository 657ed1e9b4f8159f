//! Rules tests for RULES.md "Repetition rules": the two-squares rule and the more-squares (chase) rule.

use marshal::rules::{Color, EndReason, GameEnd, Move, Piece, Position, Rank, Rules, Variant};

use crate::common;
use common::*;
use std::collections::BTreeSet;

/// Only the two-squares rule (limit `n`).
fn two_squares(n: Option<u8>) -> Rules {
    Rules {
        two_squares: n,
        more_squares: false,
        ..Rules::default()
    }
}

/// Only the more-squares rule.
fn more_squares() -> Rules {
    Rules {
        two_squares: None,
        more_squares: true,
        ..Rules::default()
    }
}

fn sorted(moves: Vec<Move>) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

const TWO_SQ: &str = "two-squares rule";
const CHASE: &str = "more-squares rule (chasing)";

// Two-squares rule: "for a one-step piece a->b, b->a, a->b are allowed and the next b->a is not"
#[test]
fn two_squares_one_step_piece_third_return_is_forbidden() {
    let mut pos = build(Variant::CLASSIC, two_squares(Some(3)), "r7e4 rFa1 bFj10 b4j8 b4a8");
    play(&mut pos, &["e4e5", "j8j7", "e5e4", "a8a7", "e4e5", "j7j8"]);
    assert!(!pos.is_legal(mv("e5e4")));
    assert_eq!(pos.illegal_reason(mv("e5e4")).unwrap(), TWO_SQ);
    // Only that boundary is closed: the piece may go on or sideways.
    assert!(pos.is_legal(mv("e5e6")));
    assert!(pos.is_legal(mv("e5f5")));
}

// "... more than 3 times in a row, attack or not": an attack is one of the moves.
#[test]
fn two_squares_counts_an_attack_among_the_moves() {
    let mut pos = build(Variant::CLASSIC, two_squares(Some(3)), "r7e4 b4e5 rFa1 bFj10 b4j8 b4a8");
    play(&mut pos, &["e4e5", "j8j7", "e5e4", "a8a7", "e4e5", "j7j8"]);
    assert_eq!(
        pos.captured(Color::Blue, Rank::Sergeant),
        1,
        "the first move was an attack"
    );
    assert_eq!(pos.illegal_reason(mv("e5e4")).unwrap(), TWO_SQ);
}

// "... attack or not": the forbidden fourth move stays forbidden when it would be an attack.
#[test]
fn two_squares_forbids_the_fourth_move_even_as_an_attack() {
    let mut pos = build(Variant::CLASSIC, two_squares(Some(3)), "r7e4 b4f4 rFa1 bFj10 b4j8");
    play(&mut pos, &["e4e5", "j8j7", "e5e4", "j7j8", "e4e5", "f4e4"]);
    assert_eq!(pos.piece_at(sq("e4")), Some(Piece::new(Color::Blue, Rank::Sergeant)));
    assert!(!pos.is_legal(mv("e5e4")));
    assert_eq!(pos.illegal_reason(mv("e5e4")).unwrap(), TWO_SQ);
    let mut off = pos.clone();
    off.set_rules(two_squares(None));
    assert!(off.is_legal(mv("e5e4")));
}

// "... whatever the opponent does" / "the opponent's moves do not [reset the count]"
#[test]
fn two_squares_opponent_moves_do_not_reset_the_count() {
    // Blue shuttles too, moves other pieces, and even captures a red piece in between.
    let mut pos = build(Variant::CLASSIC, two_squares(Some(3)), "r7a4 r4j7 rFa1 bFj10 b7j8 b4e8");
    play(&mut pos, &["a4a5", "j8j7", "a5a4", "e8e7", "a4a5", "e7e8"]);
    assert_eq!(pos.captured(Color::Red, Rank::Sergeant), 1);
    assert_eq!(pos.illegal_reason(mv("a5a4")).unwrap(), TWO_SQ);
}

// "after a3->a6, a6->a4, a4->a8 ... the Scout may go back down to a7 or a6 but not to a5 or further"
#[test]
fn two_squares_scout_long_moves_share_boundaries() {
    let mut pos = build(Variant::CLASSIC, two_squares(Some(3)), "r2a3 rFj1 bFj10 b4j8 b4i8");
    play(&mut pos, &["a3a6", "j8j7", "a6a4", "i8i7", "a4a8", "j7j8"]);
    for ok in ["a8a7", "a8a6", "a8a9", "a8a10", "a8b8"] {
        assert!(pos.is_legal(mv(ok)), "{ok}");
    }
    for bad in ["a8a5", "a8a4", "a8a3", "a8a2", "a8a1"] {
        assert_eq!(pos.illegal_reason(mv(bad)).as_deref(), Some(TWO_SQ), "{bad}");
    }
}

// "after a3->a6, a6->a4, a4->a6 it may not move down at all"
#[test]
fn two_squares_scout_back_on_the_same_square_may_not_move_down_at_all() {
    let mut pos = build(Variant::CLASSIC, two_squares(Some(3)), "r2a3 rFj1 bFj10 b4j8 b4i8");
    play(&mut pos, &["a3a6", "j8j7", "a6a4", "i8i7", "a4a6", "j7j8"]);
    for bad in ["a6a5", "a6a4", "a6a3", "a6a2", "a6a1"] {
        assert_eq!(pos.illegal_reason(mv(bad)).as_deref(), Some(TWO_SQ), "{bad}");
    }
    for ok in ["a6a7", "a6a8", "a6a9", "a6a10", "a6b6"] {
        assert!(pos.is_legal(mv(ok)), "{ok}");
    }
}

// "Moving another piece ... resets the count"
#[test]
fn two_squares_moving_another_piece_resets_the_count() {
    let mut pos = build(Variant::CLASSIC, two_squares(Some(3)), "r7e4 r4a2 rFj1 bFj10 b4j8 b4a8");
    play(&mut pos, &["e4e5", "j8j7", "e5e4", "a8a7", "e4e5", "j7j8"]);
    assert!(!pos.is_legal(mv("e5e4")));
    play(&mut pos, &["a2a3", "a7a8"]);
    // A fresh count: three more shuttle moves, then the rule bites again.
    play(&mut pos, &["e5e4", "j8j7", "e4e5", "a8a7", "e5e4", "j7j8"]);
    assert_eq!(pos.illegal_reason(mv("e4e5")).unwrap(), TWO_SQ);
}

// "moving on the other axis ... resets the count"
#[test]
fn two_squares_moving_on_the_other_axis_resets_the_count() {
    let mut pos = build(Variant::CLASSIC, two_squares(Some(3)), "r7e4 rFj1 bFj10 b4j8 b4a8");
    play(&mut pos, &["e4e5", "j8j7", "e5e4", "a8a7", "e4e5", "j7j8"]);
    play(&mut pos, &["e5f5", "a7a8", "f5e5", "j8j7"]);
    play(&mut pos, &["e5e4", "a8a7", "e4e5", "j7j8", "e5e4", "a7a8"]);
    assert_eq!(pos.illegal_reason(mv("e4e5")).unwrap(), TWO_SQ);
}

// "... or the piece's capture resets the count"
#[test]
fn two_squares_the_pieces_capture_resets_the_count() {
    // Captured as a defender.
    let mut pos = build(
        Variant::CLASSIC,
        two_squares(Some(3)),
        "r4e4 rMf5 rFj1 bFj10 b9e6 b4a8 b4j8",
    );
    play(&mut pos, &["e4e5", "a8a7", "e5e4", "j8j7", "e4e5"]);
    assert_eq!(pos.trail(Color::Red).squares().count(), 4);
    play(&mut pos, &["e6e5"]);
    assert_eq!(pos.trail(Color::Red).squares().count(), 0);
    assert_eq!(pos.to_text().split(' ').nth(8).unwrap().split('/').next(), Some("-"));
    // The Marshal that retakes e5 may step to e4 and shuttle three times afresh.
    play(
        &mut pos,
        &["f5e5", "a7a8", "e5e4", "j7j8", "e4e5", "a8a7", "e5e4", "j8j7"],
    );
    assert_eq!(pos.illegal_reason(mv("e4e5")).unwrap(), TWO_SQ);
    // Captured as an attacker.
    let mut pos = build(Variant::CLASSIC, two_squares(Some(3)), "r4e4 rFj1 bFj10 b9f5 b4a8");
    play(&mut pos, &["e4e5", "a8a7", "e5e4", "a7a8", "e4e5", "a8a7", "e5f5"]);
    assert_eq!(pos.captured(Color::Red, Rank::Sergeant), 1);
    assert_eq!(pos.trail(Color::Red).squares().count(), 0);
}

// "The limit 3 is an option (Gravon and older ISF texts use 5)"; "Both are options"
#[test]
fn two_squares_limit_is_an_option() {
    let shuttle = [
        "e4e5", "j8j7", "e5e4", "a8a7", "e4e5", "j7j8", "e5e4", "a7a8", "e4e5", "j8j7",
    ];
    let mut pos = build(Variant::CLASSIC, two_squares(Some(5)), "r7e4 rFj1 bFj10 b4j8 b4a8");
    play(&mut pos, &shuttle);
    assert_eq!(pos.illegal_reason(mv("e5e4")).unwrap(), TWO_SQ);
    // Switched off: the shuttle goes on.
    let mut pos = build(Variant::CLASSIC, two_squares(None), "r7e4 rFj1 bFj10 b4j8 b4a8");
    play(&mut pos, &shuttle);
    play(&mut pos, &["e5e4", "a8a7", "e4e5", "j7j8", "e5e4"]);
    // The default is 3.
    assert_eq!(Rules::default().two_squares, Some(3));
    assert!(Rules::default().more_squares);
}

// "The player who started shuttling hits the limit first"
#[test]
fn two_squares_the_player_who_started_shuttling_hits_the_limit_first() {
    let mut pos = build(Variant::CLASSIC, two_squares(Some(3)), "r7a4 rFa1 bFj10 b7j7");
    play(&mut pos, &["a4a5", "j7j6", "a5a4", "j6j7", "a4a5"]);
    assert!(pos.is_legal(mv("j7j6")), "Blue's third move is still allowed");
    play(&mut pos, &["j7j6"]);
    assert_eq!(pos.illegal_reason(mv("a5a4")).unwrap(), TWO_SQ, "Red is stopped first");
    play(&mut pos, &["a5b5"]);
    assert_eq!(pos.illegal_reason(mv("j6j7")).unwrap(), TWO_SQ, "then Blue");
}

// "Both rules only take moves away from the player who repeats; they never end the game by themselves"
#[test]
fn repetition_rules_only_take_moves_away_and_never_end_the_game() {
    let mut pos = build(Variant::CLASSIC, Rules::default(), "r7e4 rFa1 bFj10 b4j8 b4a8");
    play(&mut pos, &["e4e5", "j8j7", "e5e4", "a8a7", "e4e5", "j7j8"]);
    let mut off = pos.clone();
    off.set_rules(Rules {
        two_squares: None,
        more_squares: false,
        ..Rules::default()
    });
    let with: BTreeSet<String> = sorted(pos.legal_moves()).into_iter().collect();
    let without: BTreeSet<String> = sorted(off.legal_moves()).into_iter().collect();
    assert_eq!(without.difference(&with).cloned().collect::<Vec<_>>(), vec!["e5e4"]);
    assert!(with.is_subset(&without));
    assert_eq!(pos.game_end(), None);
    // The opponent keeps all its moves.
    play(&mut pos, &["e5e6"]);
    off.make(mv("e5e6"));
    assert_eq!(sorted(pos.legal_moves()), sorted(off.legal_moves()));
}

// "(but a player left with no legal move because of them has lost)"
#[test]
fn repetition_rules_a_player_left_without_legal_moves_loses() {
    // Red's only movable piece lives in a corridor a1-a2 walled by its own Bombs.
    let setup = "r4a1 rBb1 rBb2 rBa3 rFc1 bFj10 b7j8 b7h8";
    let mut pos = build(Variant::CLASSIC, Rules::default(), setup);
    play(&mut pos, &["a1a2", "j8j7", "a2a1", "h8h7", "a1a2", "j7j8"]);
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        pos.game_end(),
        Some(GameEnd {
            winner: Some(Color::Blue),
            reason: EndReason::NoMoves
        })
    );
    // Without the rule the game goes on.
    let mut pos = build(Variant::CLASSIC, more_squares(), setup);
    play(&mut pos, &["a1a2", "j8j7", "a2a1", "h8h7", "a1a2", "j7j8", "a2a1"]);
    assert_eq!(pos.game_end(), None);
}

/// The chase of the more-squares tests: a red Major hunts a blue Sergeant round the
/// 2x2 block e5 f5 e6 f6 (next to the lakes).
const CHASE_SETUP: &str = "r7e4 b4e6 rFa1 bFj10";
const CHASE_LINE: [&str; 8] = ["e4e5", "e6f6", "e5e6", "f6f5", "e6f6", "f5e5", "f6f5", "e5e6"];

// More-squares counters: "(1) if s was next to the square where the opponent Q's previous move
// ended (P fled a threat), Q's counter grows by one ... (3) P's counter grows by one if d is now
// next to any of Q's pieces"
#[test]
fn more_squares_counters_grow_while_one_side_chases_and_the_other_flees() {
    let mut pos = build(Variant::CLASSIC, more_squares(), CHASE_SETUP);
    for (i, m) in CHASE_LINE.iter().enumerate() {
        play(&mut pos, &[m]);
        assert_eq!(pos.chase_counter(Color::Red), i as u16 + 1, "after {m}");
        assert_eq!(pos.chase_counter(Color::Blue), 0, "after {m}");
    }
}

// "(1) ... otherwise Q's counter becomes 0"
#[test]
fn more_squares_counter_resets_when_the_opponent_does_not_flee() {
    let mut pos = build(Variant::CLASSIC, more_squares(), "r7e4 b4e6 rFa1 bFj10 b4j8");
    play(&mut pos, &["e4e5", "e6f6", "e5e6"]);
    assert_eq!(pos.chase_counter(Color::Red), 3);
    play(&mut pos, &["j8j7"]);
    assert_eq!(pos.chase_counter(Color::Red), 0);
}

// "(3) ... otherwise it becomes 0"
#[test]
fn more_squares_counter_resets_when_the_mover_ends_away_from_enemy_pieces() {
    let mut pos = build(Variant::CLASSIC, more_squares(), CHASE_SETUP);
    play(&mut pos, &["e4e5", "e6f6"]);
    assert_eq!(pos.chase_counter(Color::Red), 2);
    play(&mut pos, &["e5e4"]);
    assert_eq!(pos.chase_counter(Color::Red), 0);
    // Blue's counter grows when Blue ends next to a red piece, and drops when it does not.
    let mut pos = build(Variant::CLASSIC, more_squares(), "r7e4 b4g3 rFa1 bFj10");
    play(&mut pos, &["e4e3", "g3f3"]);
    assert_eq!(pos.chase_counter(Color::Blue), 1);
    play(&mut pos, &["e3d3", "f3f2"]);
    assert_eq!(pos.chase_counter(Color::Blue), 0);
}

// "(2) if the move was an attack, both counters become 0"
#[test]
fn more_squares_an_attack_resets_both_counters() {
    let mut pos = build(Variant::CLASSIC, more_squares(), "r7e4 b4e5 b4j8 rFa1 bFj10");
    let mut pos2 = retext(&pos, &[(9, "5/3")]);
    assert_eq!(
        (pos2.chase_counter(Color::Red), pos2.chase_counter(Color::Blue)),
        (5, 3)
    );
    play(&mut pos2, &["e4e5"]);
    assert_eq!(
        (pos2.chase_counter(Color::Red), pos2.chase_counter(Color::Blue)),
        (0, 0)
    );
    // After the reset (3) still applies: an attacker that lands next to an enemy piece
    // starts again at 1.
    pos = retext(
        &build(Variant::CLASSIC, more_squares(), "r7e4 b4e5 b4e6 rFa1 bFj10"),
        &[(9, "5/3")],
    );
    play(&mut pos, &["e4e5"]);
    assert_eq!((pos.chase_counter(Color::Red), pos.chase_counter(Color::Blue)), (1, 0));
}

// "When P is to move with counter L, a move is illegal if it ends next to an enemy piece, is not the
// exact reverse of P's own previous move, and produces the same placement ... as the position k
// plies earlier" (k = 1..=L, L the counter before the move, as the oracle rules it)
#[test]
fn more_squares_chaser_may_not_recreate_an_earlier_placement() {
    let mut pos = build(Variant::CLASSIC, more_squares(), CHASE_SETUP);
    play(&mut pos, &CHASE_LINE);
    assert_eq!(pos.chase_counter(Color::Red), 8);
    // f5e5 would give back the placement after e4e5, eight plies earlier.
    assert!(!pos.is_legal(mv("f5e5")));
    assert_eq!(pos.illegal_reason(mv("f5e5")).unwrap(), CHASE);
    assert_eq!(sorted(pos.legal_moves()), vec!["f5f4", "f5f6"]);
    assert_eq!(pos.game_end(), None);
    // "Both are options".
    let mut off = pos.clone();
    off.set_rules(Rules {
        two_squares: None,
        more_squares: false,
        ..Rules::default()
    });
    assert!(off.is_legal(mv("f5e5")));
}

// The look-back ends at L plies: with a counter of 7 the same eight-ply repetition is allowed.
#[test]
fn more_squares_looks_back_no_further_than_the_counter() {
    let mut start = build(Variant::CLASSIC, more_squares(), CHASE_SETUP);
    play(&mut start, &CHASE_LINE[..1]);
    // The same position after e4e5, but with Red's counter at 0 instead of 1.
    let mut pos = retext(&start, &[(9, "0/0")]);
    assert_eq!(pos.recent_moves(), vec![(mv("e4e5"), false)]);
    play(&mut pos, &CHASE_LINE[1..]);
    assert_eq!(pos.chase_counter(Color::Red), 7);
    assert!(pos.is_legal(mv("f5e5")));
    // And with the counter at 1 (as in play) it is refused.
    let mut pos = retext(&start, &[(9, "1/0")]);
    play(&mut pos, &CHASE_LINE[1..]);
    assert_eq!(pos.illegal_reason(mv("f5e5")).unwrap(), CHASE);
}

// "... is not the exact reverse of P's own previous move"
#[test]
fn more_squares_the_exact_reverse_of_the_chasers_previous_move_is_allowed() {
    let mut pos = build(Variant::CLASSIC, more_squares(), CHASE_SETUP);
    play(&mut pos, &["e4e5", "e6f6", "e5f5", "f6e6"]);
    assert_eq!(pos.chase_counter(Color::Red), 4);
    // f5e5 recreates the placement after e4e5 (four plies back) and ends next to e6, but it
    // undoes Red's own last move.
    assert!(pos.is_legal(mv("f5e5")));
    play(&mut pos, &["f5e5", "e6f6"]);
    assert!(pos.is_legal(mv("e5f5")));
}

// "... a move is illegal if it ends next to an enemy piece": other repetitions are free.
#[test]
fn more_squares_only_moves_ending_next_to_an_enemy_piece_are_restricted() {
    // A Scout goes e3-e5-e4 while Blue shuttles j8-j7-j8; e4e3 then recreates the placement
    // five plies back (not the reverse of e5e4).
    for (blue_bomb, forbidden) in [("d3", true), ("a2", false)] {
        let mut pos = build(
            Variant::CLASSIC,
            more_squares(),
            &format!("r2e3 rFa1 bFj10 b4j8 bB{blue_bomb}"),
        );
        play(&mut pos, &["e3e5", "j8j7", "e5e4", "j7j8"]);
        let pos = retext(&pos, &[(9, "6/0"), (10, "e3e5,j8j7,e5e4,j7j8")]);
        assert_eq!(pos.chase_counter(Color::Red), 6);
        if forbidden {
            assert_eq!(
                pos.illegal_reason(mv("e4e3")).unwrap(),
                CHASE,
                "e3 is next to the Bomb on d3"
            );
        } else {
            assert!(pos.is_legal(mv("e4e3")), "e3 is next to no blue piece");
        }
        // The Scout's other moves back down the file pass e3 and change the placement.
        assert!(pos.is_legal(mv("e4e2")));
    }
}

// "The fleeing side is never restricted by this rule."
#[test]
fn more_squares_the_fleeing_side_is_never_restricted() {
    // The Major keeps next to the Sergeant, the Sergeant keeps running, for 60 plies, round
    // the ring e5 f5 f6 e6 closed by the lakes and by Bombs.
    // (The two-squares rule is on too, to stop plain shuttles.)
    let mut pos = build(
        Variant::CLASSIC,
        Rules::default(),
        "r7f5 rBe4 rBf4 b4e6 bBe7 bBf7 rFa1 bFj10",
    );
    let without_rule = |p: &Position| {
        let mut off = p.clone();
        off.set_rules(Rules {
            more_squares: false,
            ..*p.rules()
        });
        sorted(off.legal_moves())
    };
    let (mut chaser_refused, mut top_counter) = (0, 0);
    for _ in 0..60 {
        let moves = pos.legal_moves();
        let enemy = if pos.side_to_move() == Color::Red {
            Color::Blue
        } else {
            Color::Red
        };
        let near_enemy = |m: &Move| {
            Variant::CLASSIC.squares().any(|s| {
                s.is_adjacent(m.to())
                    && pos
                        .piece_at(s)
                        .is_some_and(|p| p.color() == enemy && p.rank().is_movable())
            })
        };
        let pick = if pos.side_to_move() == Color::Red {
            if sorted(moves.clone()) != without_rule(&pos) {
                chaser_refused += 1;
            }
            moves
                .iter()
                .copied()
                .find(|m| near_enemy(m) && pos.piece_at(m.to()).is_none())
        } else {
            assert_eq!(sorted(moves.clone()), without_rule(&pos), "{}", pos.to_text());
            assert!(pos.chase_counter(Color::Blue) < 2);
            moves
                .iter()
                .copied()
                .find(|m| !near_enemy(m) && pos.piece_at(m.to()).is_none())
        };
        let quiet = moves.iter().copied().find(|m| pos.piece_at(m.to()).is_none());
        let Some(m) = pick.or(quiet) else { break };
        pos.make(m);
        top_counter = top_counter.max(pos.chase_counter(Color::Red));
    }
    assert!(top_counter >= 8, "a real chase: counter reached {top_counter}");
    assert!(chaser_refused > 0, "the chaser was refused some move");
}
