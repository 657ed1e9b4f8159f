//! Rules tests for RULES.md "Tournament options": attacker advantage, silent defence, rescue, alone and combined.

use marshal::rules::position::{MOVED, RESCUER, REVEALED};

use crate::common;
use common::*;
use marshal::rules::{Color, Combat, Move, Piece, Position, Rank, Rules, Variant};

/// Repetition rules off; the tournament options as given.
fn opts(attacker_advantage: bool, silent_defence: bool, rescue: bool) -> Rules {
    Rules {
        two_squares: None,
        more_squares: false,
        attacker_advantage,
        silent_defence,
        rescue,
        ..Rules::default()
    }
}

const CAPTURED: usize = 6;
const RESCUES: usize = 7;

/// The legal moves that carry a rescue.
fn rescues_offered(pos: &Position) -> Vec<Move> {
    pos.legal_moves().into_iter().filter(|m| m.rescue().is_some()).collect()
}

fn red(r: Rank) -> Option<Piece> {
    Some(Piece::new(Color::Red, r))
}

fn blue(r: Rank) -> Option<Piece> {
    Some(Piece::new(Color::Blue, r))
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

/// Red's `att` on e4 attacks Blue's `def` on e5 (spare pieces keep both sides mobile).
fn duel(rules: Rules, att: Rank, def: Rank) -> Position {
    let mut pos = build(Variant::CLASSIC, rules, "r4a1 b4j10");
    pos.put(sq("e4"), Piece::new(Color::Red, att), 0).unwrap();
    pos.put(sq("e5"), Piece::new(Color::Blue, def), 0).unwrap();
    pos
}

#[test]
fn tournament_options_are_off_by_default() {
    let r = Rules::default();
    assert!(!r.attacker_advantage && !r.silent_defence && !r.rescue);
}

// "Attacker advantage: equal ranks: the attacker wins."
#[test]
fn attacker_advantage_equal_ranks_the_attacker_wins() {
    for r in MOVABLE {
        let mut pos = duel(opts(true, false, false), r, r);
        let before = pos.to_text();
        assert_eq!(pos.make(mv("e4e5")).combat, Some((r, r, Combat::AttackerWins)), "{r:?}");
        assert_eq!(pos.piece_at(sq("e4")), None);
        assert_eq!(pos.piece_at(sq("e5")), red(r));
        assert_eq!(pos.captured(Color::Blue, r), 1);
        assert_eq!(pos.captured(Color::Red, r), 0);
        pos.unmake();
        assert_eq!(pos.to_text(), before);
        // Without the option both go.
        let mut pos = duel(opts(false, false, false), r, r);
        assert_eq!(pos.make(mv("e4e5")).combat, Some((r, r, Combat::BothDie)));
    }
    // Blue attacking, and a Scout striking from afar.
    let mut pos = build(
        Variant::CLASSIC,
        opts(true, false, false),
        "r2a2 r9e4 b9e6 b2h2 bFj10 rFa1",
    );
    play(&mut pos, &["e4e5", "e6e5"]);
    assert_eq!(pos.piece_at(sq("e5")), blue(Rank::General));
    play(&mut pos, &["a2h2"]);
    assert_eq!(pos.piece_at(sq("h2")), red(Rank::Scout));
    assert_eq!(pos.captured(Color::Blue, Rank::Scout), 1);
}

// Attacker advantage changes only equal ranks.
#[test]
fn attacker_advantage_leaves_unequal_combats_alone() {
    for att in MOVABLE {
        for def in Rank::ALL {
            if att == def {
                continue;
            }
            let mut with = duel(opts(true, false, false), att, def);
            let mut without = duel(opts(false, false, false), att, def);
            assert_eq!(with.make(mv("e4e5")), without.make(mv("e4e5")), "{att:?} x {def:?}");
            assert_eq!(with.to_text().split(' ').nth(2), without.to_text().split(' ').nth(2));
        }
    }
    let mut pos = duel(opts(true, false, false), Rank::Spy, Rank::Marshal);
    assert_eq!(pos.make(mv("e4e5")).combat.unwrap().2, Combat::AttackerWins);
    let mut pos = duel(opts(true, false, false), Rank::Marshal, Rank::Bomb);
    assert_eq!(pos.make(mv("e4e5")).combat.unwrap().2, Combat::DefenderWins);
}

// "Silent defence: only the attacker announces its rank. ... the lower piece is simply removed, and
// each player keeps their own captured pieces (so a loser's rank stays unknown to the winner)."
#[test]
fn silent_defence_a_winning_attacker_does_not_learn_the_losers_rank() {
    let mut pos = duel(opts(false, true, false), Rank::Major, Rank::Captain);
    let out = pos.make(mv("e4e5"));
    // The arbiter knows everything.
    assert_eq!(out.combat, Some((Rank::Major, Rank::Captain, Combat::AttackerWins)));
    assert_eq!(pos.piece_at(sq("e5")), red(Rank::Major));
    assert_eq!(pos.captured(Color::Blue, Rank::Captain), 1);
    assert_eq!(pos.to_text().split(' ').nth(CAPTURED), Some("-/6'"));
    // Red only knows it took something.
    let red_view = pos.view(Color::Red);
    assert_eq!(red_view.captured(Color::Blue, Rank::Captain), 0);
    assert_eq!(red_view.captured(Color::Blue, Rank::Unknown), 1);
    // Blue keeps its Captain and saw the attacker.
    let blue_view = pos.view(Color::Blue);
    assert_eq!(blue_view.captured(Color::Blue, Rank::Captain), 1);
    assert_eq!(blue_view.piece_at(sq("e5")), red(Rank::Major));
    assert_eq!(pos.flags_at(sq("e5")), MOVED | REVEALED);
}

// "The defender does not reveal"
#[test]
fn silent_defence_a_winning_defender_stays_hidden() {
    let mut pos = duel(opts(false, true, false), Rank::Captain, Rank::Major);
    assert_eq!(
        pos.make(mv("e4e5")).combat,
        Some((Rank::Captain, Rank::Major, Combat::DefenderWins))
    );
    assert_eq!(pos.piece_at(sq("e5")), blue(Rank::Major));
    assert_eq!(pos.flags_at(sq("e5")) & REVEALED, 0);
    assert_eq!(pos.view(Color::Red).piece_at(sq("e5")).unwrap().rank(), Rank::Unknown);
    // The attacker announced itself: Blue knows what it removed.
    assert_eq!(pos.view(Color::Blue).captured(Color::Red, Rank::Captain), 1);
    assert_eq!(pos.view(Color::Red).captured(Color::Red, Rank::Captain), 1);
    // A Bomb does not show itself either.
    let mut pos = duel(opts(false, true, false), Rank::Major, Rank::Bomb);
    pos.make(mv("e4e5"));
    assert_eq!(pos.flags_at(sq("e5")) & REVEALED, 0);
    assert_eq!(pos.view(Color::Red).piece_at(sq("e5")).unwrap().rank(), Rank::Unknown);
}

// "Exception: when a Scout attacks, the defender must reveal its rank."
#[test]
fn silent_defence_a_scouts_defender_reveals_its_rank() {
    let mut pos = build(Variant::CLASSIC, opts(false, true, false), "r2e1 b7e7 r4a1 b4j10");
    assert_eq!(
        pos.make(mv("e1e7")).combat,
        Some((Rank::Scout, Rank::Major, Combat::DefenderWins))
    );
    assert_ne!(pos.flags_at(sq("e7")) & REVEALED, 0);
    assert_eq!(pos.view(Color::Red).piece_at(sq("e7")), blue(Rank::Major));
    // A Scout that wins learns what it took.
    let mut pos = build(Variant::CLASSIC, opts(false, true, false), "r2e1 bSe7 r4a1 b4j10");
    assert_eq!(
        pos.make(mv("e1e7")).combat,
        Some((Rank::Scout, Rank::Spy, Combat::AttackerWins))
    );
    assert_eq!(pos.view(Color::Red).captured(Color::Blue, Rank::Spy), 1);
    assert_eq!(pos.view(Color::Red).captured(Color::Blue, Rank::Unknown), 0);
}

// Silent defence hides only what was hidden: a defender already revealed is known when it falls.
#[test]
fn silent_defence_an_already_revealed_defender_is_known_when_it_falls() {
    let mut pos = build(Variant::CLASSIC, opts(false, true, false), "r7e4 r4a1 b4j10");
    pos.put(sq("e5"), Piece::new(Color::Blue, Rank::Captain), MOVED | REVEALED)
        .unwrap();
    pos.make(mv("e4e5"));
    assert_eq!(pos.view(Color::Red).captured(Color::Blue, Rank::Captain), 1);
    assert_eq!(pos.view(Color::Red).captured(Color::Blue, Rank::Unknown), 0);
}

/// Red to move with a Major on d9 (Blue's back row is rank 10), Red having lost a Marshal,
/// a Lieutenant and a Bomb.
fn rescue_position(rules: Rules, extra: &str) -> Position {
    let pos = build(Variant::CLASSIC, rules, &format!("r7d9 rFa1 b4j10 bFa10 {extra}"));
    retext(&pos, &[(CAPTURED, "5MB/-")])
}

// "Rescue: a piece that moves onto a square of the opponent's back row may rescue one of its
// player's captured pieces: it is placed on any empty square of the player's own half, and that
// ends the turn."
#[test]
fn rescue_a_piece_reaching_the_enemy_back_row_brings_back_a_captured_piece() {
    let mut pos = rescue_position(opts(false, false, true), "");
    let offered = rescues_offered(&pos);
    // Two ranks (not the Bomb) times the 45 empty squares of ranks 1-5 (46 without lakes, a1 taken).
    assert_eq!(offered.len(), 2 * 45);
    for m in &offered {
        assert_eq!(m.base(), mv("d9d10"));
        let (r, place) = m.rescue().unwrap();
        assert!(matches!(r, Rank::Marshal | Rank::Lieutenant));
        assert!(place.rank() < 5 && !Variant::CLASSIC.is_lake(place) && pos.piece_at(place).is_none());
    }
    assert!(pos.is_legal(mv("d9d10")), "rescuing is a choice");
    let before = pos.to_text();
    assert_eq!(pos.make(mv("d9d10+Mc3")).combat, None);
    assert_eq!(pos.piece_at(sq("c3")), red(Rank::Marshal));
    assert_eq!(pos.flags_at(sq("c3")), MOVED | REVEALED);
    assert_eq!(pos.piece_at(sq("d10")), red(Rank::Major));
    assert_eq!(pos.flags_at(sq("d10")), MOVED | RESCUER);
    assert_eq!(pos.rescues(Color::Red), 1);
    assert_eq!(pos.captured(Color::Red, Rank::Marshal), 0);
    assert_eq!(pos.count(Color::Red, Rank::Marshal), 1);
    assert_eq!(pos.captured(Color::Red, Rank::Lieutenant), 1);
    assert_eq!(pos.side_to_move(), Color::Blue, "the rescue ends the turn");
    pos.unmake();
    assert_eq!(pos.to_text(), before);
    // Blue likewise, onto Red's back row, placing in ranks 6-10.
    let mut pos = build(Variant::CLASSIC, opts(false, false, true), "r4j1 rFj3 b6e2 bFa10");
    let mut pos2 = retext(&pos, &[(CAPTURED, "-/9")]);
    pos.make(mv("j1i1"));
    pos2.make(mv("j1i1"));
    assert!(rescues_offered(&pos).is_empty(), "nothing captured, nothing to rescue");
    assert!(pos2.is_legal(mv("e2e1+9e6")));
    assert!(!pos2.is_legal(mv("e2e1+9e5")));
    pos2.make(mv("e2e1+9e6"));
    assert_eq!(pos2.piece_at(sq("e6")), blue(Rank::General));
    assert_eq!(pos2.rescues(Color::Blue), 1);
}

// "... placed on any empty square of the player's own half"; only moves onto the back row rescue.
#[test]
fn rescue_only_onto_an_empty_square_of_the_own_half_after_reaching_the_back_row() {
    let pos = rescue_position(opts(false, false, true), "r6b3");
    for bad in [
        "d9d10+Mc7",  // Blue's half
        "d9d10+Mf6",  // Blue's half
        "d9d10+Ma1",  // the Flag stands there
        "d9d10+Mb3",  // the Captain stands there
        "d9d10+Mc5",  // a lake
        "d9d10+Bc3",  // a Bomb
        "d9d10+9c3",  // no General was captured
        "d9d8+Mc3",   // not the back row
        "d9c9+Mc3",   // not the back row
        "d9d10+Md10", // not the own half
    ] {
        assert!(!pos.is_legal(mv(bad)), "{bad}");
        assert!(
            pos.illegal_reason(mv(bad))
                .unwrap()
                .starts_with("this rescue is not allowed"),
            "{bad}"
        );
    }
    assert!(pos.is_legal(mv("d9d10+Mj5")));
    assert!(pos.is_legal(mv("d9d10+5e5")));
    // The 10x8 board: Blue's back row is rank 8, Red's half ranks 1-4.
    let pos = build(Variant::COMPACT, opts(false, false, true), "r7d7 rFa1 b4j8 bFa8");
    let pos = retext(&pos, &[(CAPTURED, "M/-")]);
    assert!(pos.is_legal(mv("d7d8+Ma4")));
    assert!(!pos.is_legal(mv("d7d8+Ma5")));
    // Ranks 1-4: 40 squares less the lakes c4 d4 g4 h4 and the Flag's square.
    assert_eq!(rescues_offered(&pos).len(), 40 - 4 - 1);
}

// "Limits: Scouts cannot rescue"
#[test]
fn rescue_scouts_cannot_rescue() {
    let pos = rescue_position(opts(false, false, true), "r2e2 r2f9");
    assert!(pos.is_legal(mv("e2e10")));
    assert!(pos.is_legal(mv("f9f10")));
    assert!(rescues_offered(&pos).iter().all(|m| m.from() == sq("d9")));
    assert!(!pos.is_legal(mv("e2e10+Mc3")));
    assert!(!pos.is_legal(mv("f9f10+Mc3")));
}

// "Bombs cannot be rescued"
#[test]
fn rescue_bombs_cannot_be_rescued() {
    let pos = build(Variant::CLASSIC, opts(false, false, true), "r7d9 rFa1 b4j10 bFa10");
    let pos = retext(&pos, &[(CAPTURED, "BB/-")]);
    assert!(rescues_offered(&pos).is_empty());
    assert!(!pos.is_legal(mv("d9d10+Bc3")));
}

// "at most 2 rescues per player per game"
#[test]
fn rescue_at_most_two_per_player() {
    let mut pos = build(
        Variant::CLASSIC,
        opts(false, false, true),
        "r7d9 r6f9 r5h9 rFa1 b4j10 bFa10",
    );
    pos = retext(&pos, &[(CAPTURED, "M98/-")]);
    play(&mut pos, &["d9d10+Mc3", "j10j9", "f9f10+9e3", "j9j8"]);
    assert_eq!(pos.rescues(Color::Red), 2);
    assert_eq!(pos.captured(Color::Red, Rank::Colonel), 1);
    assert!(pos.is_legal(mv("h9h10")));
    assert!(rescues_offered(&pos).is_empty());
    // The count comes from the position text as well.
    let pos = rescue_position(opts(false, false, true), "");
    assert!(rescues_offered(&retext(&pos, &[(RESCUES, "2/0")])).is_empty());
    assert!(!rescues_offered(&retext(&pos, &[(RESCUES, "1/0")])).is_empty());
}

// "the same piece cannot perform both rescues"
#[test]
fn rescue_the_same_piece_cannot_rescue_twice() {
    let mut pos = build(
        Variant::CLASSIC,
        opts(false, false, true),
        "r7d9 r6f9 rFa1 b4j10 b4j8 bFa10",
    );
    pos = retext(&pos, &[(CAPTURED, "M9/-")]);
    play(&mut pos, &["d9d10+Mc3", "j10j9", "d10d9", "j9j10", "d9d10"]);
    assert_eq!(pos.flags_at(sq("d10")) & RESCUER, RESCUER);
    assert_eq!(pos.rescues(Color::Red), 1);
    play(&mut pos, &["j8j7", "d10e10"]);
    assert!(!pos.is_legal(mv("e10e9+9c3")), "not the back row anyway");
    play(&mut pos, &["j7j8", "e10d10"]);
    assert!(rescues_offered(&pos).is_empty(), "the Major has rescued once");
    // Another piece still may.
    play(&mut pos, &["j8j7"]);
    assert!(pos.is_legal(mv("f9f10+9c2")));
}

// "the rescue happens only if the mover survives its attack" (the brief's reading)
#[test]
fn rescue_happens_only_if_the_mover_survives_its_attack() {
    // Loses: no rescue.
    let mut pos = rescue_position(opts(false, false, true), "bMd10");
    let before = pos.to_text();
    assert!(pos.is_legal(mv("d9d10+5c3")));
    assert_eq!(
        pos.make(mv("d9d10+5c3")).combat,
        Some((Rank::Major, Rank::Marshal, Combat::DefenderWins))
    );
    assert_eq!(pos.piece_at(sq("c3")), None);
    assert_eq!(pos.rescues(Color::Red), 0);
    assert_eq!(pos.captured(Color::Red, Rank::Lieutenant), 1);
    assert_eq!(pos.captured(Color::Red, Rank::Major), 1);
    pos.unmake();
    assert_eq!(pos.to_text(), before);
    // Both die: no rescue.
    let mut pos = rescue_position(opts(false, false, true), "b7d10");
    assert_eq!(pos.make(mv("d9d10+5c3")).combat.unwrap().2, Combat::BothDie);
    assert_eq!(pos.piece_at(sq("c3")), None);
    assert_eq!(pos.rescues(Color::Red), 0);
    // Wins: rescue.
    let mut pos = rescue_position(opts(false, false, true), "b4d10");
    let before = pos.to_text();
    assert_eq!(pos.make(mv("d9d10+5c3")).combat.unwrap().2, Combat::AttackerWins);
    assert_eq!(pos.piece_at(sq("c3")), red(Rank::Lieutenant));
    assert_eq!(pos.piece_at(sq("d10")), red(Rank::Major));
    assert_eq!(pos.rescues(Color::Red), 1);
    pos.unmake();
    assert_eq!(pos.to_text(), before);
}

#[test]
fn rescue_is_an_option() {
    let pos = rescue_position(opts(false, false, false), "");
    assert!(rescues_offered(&pos).is_empty());
    assert!(!pos.is_legal(mv("d9d10+Mc3")));
}

// Combination: attacker advantage + silent defence.
#[test]
fn attacker_advantage_with_silent_defence() {
    let mut pos = duel(opts(true, true, false), Rank::Major, Rank::Major);
    assert_eq!(
        pos.make(mv("e4e5")).combat,
        Some((Rank::Major, Rank::Major, Combat::AttackerWins))
    );
    assert_eq!(pos.piece_at(sq("e5")), red(Rank::Major));
    assert_eq!(pos.view(Color::Red).captured(Color::Blue, Rank::Unknown), 1);
    assert_eq!(pos.view(Color::Red).captured(Color::Blue, Rank::Major), 0);
    assert_eq!(pos.view(Color::Blue).piece_at(sq("e5")), red(Rank::Major));
}

// Combination: attacker advantage + rescue (the tie is won, so the rescue happens).
#[test]
fn attacker_advantage_with_rescue() {
    let mut pos = rescue_position(opts(true, false, true), "b7d10");
    assert_eq!(pos.make(mv("d9d10+Mc3")).combat.unwrap().2, Combat::AttackerWins);
    assert_eq!(pos.piece_at(sq("c3")), red(Rank::Marshal));
    assert_eq!(pos.rescues(Color::Red), 1);
    let mut pos = rescue_position(opts(false, false, true), "b7d10");
    assert_eq!(pos.make(mv("d9d10+Mc3")).combat.unwrap().2, Combat::BothDie);
    assert_eq!(pos.piece_at(sq("c3")), None);
}

// Combination: silent defence + rescue.
#[test]
fn silent_defence_with_rescue() {
    let mut pos = rescue_position(opts(false, true, true), "b4d10");
    assert_eq!(pos.make(mv("d9d10+Mc3")).combat.unwrap().2, Combat::AttackerWins);
    assert_eq!(pos.piece_at(sq("c3")), red(Rank::Marshal));
    assert_eq!(pos.view(Color::Red).captured(Color::Blue, Rank::Unknown), 1);
    assert_eq!(pos.view(Color::Red).captured(Color::Blue, Rank::Sergeant), 0);
    let blue_view = pos.view(Color::Blue);
    assert_eq!(blue_view.piece_at(sq("d10")), red(Rank::Major));
    assert_eq!(blue_view.piece_at(sq("c3")), red(Rank::Marshal));
}

// Combination: all three options at once, and unmake.
#[test]
fn all_three_options_together() {
    let mut pos = rescue_position(opts(true, true, true), "b7d10");
    let before = pos.to_text();
    let legal_before = pos.legal_moves();
    assert_eq!(
        pos.make(mv("d9d10+5b2")).combat,
        Some((Rank::Major, Rank::Major, Combat::AttackerWins))
    );
    assert_eq!(pos.piece_at(sq("d10")), red(Rank::Major));
    assert_eq!(pos.flags_at(sq("d10")), MOVED | REVEALED | RESCUER);
    assert_eq!(pos.piece_at(sq("b2")), red(Rank::Lieutenant));
    assert_eq!(pos.rescues(Color::Red), 1);
    let red_view = pos.view(Color::Red);
    assert_eq!(red_view.captured(Color::Blue, Rank::Unknown), 1);
    assert_eq!(red_view.captured(Color::Red, Rank::Lieutenant), 0);
    assert_eq!(red_view.captured(Color::Red, Rank::Marshal), 1);
    pos.unmake();
    assert_eq!(pos.to_text(), before);
    assert_eq!(pos.legal_moves(), legal_before);
}
