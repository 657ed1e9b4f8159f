//! Rules tests for RULES.md "Hidden information": what `Position::view(color)` shows, and that a view's legal moves are the full position's.

use marshal::rules::position::{MOVED, REVEALED};

use crate::common;
use common::*;
use marshal::rules::{Color, Move, Piece, Position, Rank, Rules, Setup, Variant};

fn start(variant: Variant, rules: Rules) -> Position {
    let (r, b) = variant.sample_setups();
    let red = Setup::parse(&r, &variant).unwrap();
    let blue = Setup::parse(&b, &variant).unwrap();
    Position::from_setups(variant, rules, &red, &blue).unwrap()
}

fn sorted(moves: Vec<Move>) -> Vec<Move> {
    let mut v = moves;
    v.sort();
    v
}

// "Each player sees where every piece is but only the ranks of their own pieces"
#[test]
fn view_hides_the_ranks_of_unrevealed_enemy_pieces() {
    for variant in [Variant::CLASSIC, Variant::COMPACT] {
        let pos = start(variant, Rules::default());
        for me in Color::BOTH {
            let them = me.flip();
            let view = pos.view(me);
            assert_eq!(view.view_of(), Some(me));
            assert_eq!(pos.view_of(), None);
            for s in variant.squares() {
                let (full, seen) = (pos.piece_at(s), view.piece_at(s));
                match full {
                    None => assert_eq!(seen, None),
                    Some(p) if p.color() == me => assert_eq!(seen, Some(p), "own piece on {s}"),
                    Some(_) => assert_eq!(seen, Some(Piece::new(them, Rank::Unknown)), "enemy on {s}"),
                }
            }
            assert_eq!(view.count(them, Rank::Unknown) as usize, variant.army_size());
            for r in Rank::ALL {
                assert_eq!(view.count(them, r), 0);
                assert_eq!(view.count(me, r), pos.count(me, r));
            }
            let text = view.to_text();
            assert!(text.starts_with(&format!("{} {} ", variant.name(), me.letter())));
            assert!(text.contains(&format!("{}?", them.letter())));
        }
    }
}

// "... and of enemy pieces that have been revealed (by combat, or by a multi-square Scout move)"
#[test]
fn view_shows_enemy_ranks_revealed_by_combat_or_a_long_scout_move() {
    let mut pos = build(Variant::CLASSIC, plain(), "r6e4 r4a1 b8e6 b2j2 b4h8 bFj10 rFa10");
    play(&mut pos, &["e4e5", "j2j7", "e5e6"]);
    // The Colonel won on e6 and showed itself; the Scout showed itself by moving five squares.
    let red_view = pos.view(Color::Red);
    assert_eq!(
        red_view.piece_at(sq("e6")),
        Some(Piece::new(Color::Blue, Rank::Colonel))
    );
    assert_eq!(red_view.piece_at(sq("j7")), Some(Piece::new(Color::Blue, Rank::Scout)));
    assert_eq!(red_view.piece_at(sq("h8")).unwrap().rank(), Rank::Unknown);
    assert_eq!(red_view.count(Color::Blue, Rank::Colonel), 1);
    assert_eq!(red_view.count(Color::Blue, Rank::Unknown), 2);
    // Blue saw the attacker before it died.
    assert_eq!(pos.view(Color::Blue).captured(Color::Red, Rank::Captain), 1);
}

// "Everyone can remember which pieces have moved (so are not Bombs or the Flag)"
#[test]
fn view_shows_which_enemy_pieces_have_moved() {
    let mut pos = start(Variant::CLASSIC, Rules::default());
    play(&mut pos, &["a4a5", "b7b6", "a5a4", "b6b7"]);
    let red_view = pos.view(Color::Red);
    let b7 = sq("b7");
    assert_eq!(red_view.piece_at(b7).unwrap().rank(), Rank::Unknown);
    assert_eq!(red_view.flags_at(b7), MOVED);
    for s in Variant::CLASSIC.squares().filter(|&s| s != b7) {
        if red_view.piece_at(s).is_some_and(|p| p.color() == Color::Blue) {
            assert_eq!(red_view.flags_at(s), 0, "{s}");
        }
    }
    assert!(red_view.to_text().contains("b?'"));
    let blue_view = pos.view(Color::Blue);
    assert_eq!(blue_view.flags_at(sq("a4")), MOVED);
    assert_eq!(blue_view.piece_at(sq("a4")).unwrap().rank(), Rank::Unknown);
}

// "... and which pieces are gone"
#[test]
fn view_shows_the_captured_pieces() {
    let mut pos = build(
        Variant::CLASSIC,
        plain(),
        "r7e4 r3a4 r5h3 b6e5 b9a5 bBh4 b4j8 rFa1 bFj10",
    );
    play(&mut pos, &["e4e5", "a5a4", "h3h4"]);
    for me in Color::BOTH {
        let view = pos.view(me);
        assert_eq!(view.captured(Color::Blue, Rank::Captain), 1, "{me}");
        assert_eq!(view.captured(Color::Red, Rank::Miner), 1, "{me}");
        assert_eq!(view.captured(Color::Red, Rank::Lieutenant), 1, "{me}");
        assert_eq!(view.captured(Color::Blue, Rank::Unknown), 0, "{me}");
        assert_eq!(view.captured(Color::Red, Rank::Unknown), 0, "{me}");
    }
}

// "Silent defence: ... a loser's rank stays unknown to the winner"
#[test]
fn view_silent_defence_captures_stay_unknown() {
    let rules = Rules {
        silent_defence: true,
        ..plain()
    };
    let mut pos = build(Variant::CLASSIC, rules, "r7e4 r3a4 r5h3 b6e5 b9a5 b8h4 b4j8 rFa1 bFj10");
    // Red's Major takes a Captain, Blue's General takes a Miner, Red's Lieutenant dies on a Colonel.
    play(&mut pos, &["e4e5", "a5a4", "h3h4"]);
    let red_view = pos.view(Color::Red);
    assert_eq!(red_view.captured(Color::Blue, Rank::Captain), 0);
    assert_eq!(red_view.captured(Color::Blue, Rank::Unknown), 1);
    assert_eq!(red_view.captured(Color::Red, Rank::Miner), 1, "own losses are known");
    assert_eq!(red_view.captured(Color::Red, Rank::Lieutenant), 1);
    let blue_view = pos.view(Color::Blue);
    assert_eq!(blue_view.captured(Color::Red, Rank::Miner), 0);
    assert_eq!(blue_view.captured(Color::Red, Rank::Unknown), 1);
    assert_eq!(
        blue_view.captured(Color::Red, Rank::Lieutenant),
        1,
        "an attacker announces itself"
    );
    assert_eq!(blue_view.captured(Color::Blue, Rank::Captain), 1);
    // Attackers are known, the winning defender on h4 is not.
    assert_eq!(blue_view.piece_at(sq("e5")), Some(Piece::new(Color::Red, Rank::Major)));
    assert_eq!(blue_view.flags_at(sq("e5")), MOVED | REVEALED);
    assert_eq!(
        red_view.piece_at(sq("a4")),
        Some(Piece::new(Color::Blue, Rank::General))
    );
    assert_eq!(red_view.piece_at(sq("h4")).unwrap().rank(), Rank::Unknown);
    assert_eq!(red_view.flags_at(sq("h4")), 0);
}

// A view is a snapshot: no taking moves back through it.
#[test]
fn view_has_no_undo_stack_but_knows_the_recent_moves() {
    let mut pos = start(Variant::CLASSIC, Rules::default());
    play(&mut pos, &["a4a5", "b7b6"]);
    let mut view = pos.view(Color::Red);
    assert_eq!(view.undo_depth(), 0);
    assert_eq!(view.recent_moves(), pos.recent_moves());
    let text = view.to_text();
    view.unmake();
    assert_eq!(view.to_text(), text);
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Plays a pseudo-random game, comparing at every ply the legal moves of the side to move
/// in the full position and in that side's view, and the view's text form round trip.
fn compare_views_along_a_game(variant: Variant, rules: Rules, seed: u64, plies: usize) -> usize {
    let mut pos = start(variant, rules);
    let mut rng = Rng(seed);
    let mut compared = 0;
    for _ in 0..plies {
        if pos.game_end().is_some() {
            break;
        }
        let side = pos.side_to_move();
        let full = sorted(pos.legal_moves());
        let view = pos.view(side);
        assert_eq!(
            sorted(view.legal_moves()),
            full,
            "{} ply {}: {}",
            variant.name(),
            pos.ply(),
            pos.to_text()
        );
        let again = Position::from_text(&view.to_text(), rules).unwrap();
        assert_eq!(again.to_text(), view.to_text());
        assert_eq!(sorted(again.legal_moves()), full, "view text of {}", pos.to_text());
        compared += 1;
        // Prefer quiet moves, so games last and repetition state builds up.
        let quiet: Vec<Move> = full
            .iter()
            .copied()
            .filter(|m| pos.piece_at(m.to()).is_none())
            .collect();
        let m = if !quiet.is_empty() && rng.below(4) != 0 {
            quiet[rng.below(quiet.len())]
        } else {
            full[rng.below(full.len())]
        };
        pos.make(m);
    }
    compared
}

// "a view's legal moves equal the full position's for the side to move"
#[test]
fn view_legal_moves_equal_the_full_positions_along_games() {
    let all_options = Rules {
        attacker_advantage: true,
        silent_defence: true,
        rescue: true,
        ..Rules::default()
    };
    let mut total = 0;
    for (i, variant) in [Variant::CLASSIC, Variant::COMPACT, Variant::DUEL, Variant::BARRAGE]
        .into_iter()
        .enumerate()
    {
        for (j, rules) in [Rules::default(), all_options].into_iter().enumerate() {
            total += compare_views_along_a_game(variant, rules, 0x9e37_79b9 + (i * 2 + j) as u64 * 7919, 300);
        }
    }
    assert!(total > 1000, "compared {total} positions");
}

// The same during a chase, where the more-squares rule removes moves.
#[test]
fn view_legal_moves_equal_the_full_positions_during_a_chase() {
    let mut pos = build(
        Variant::CLASSIC,
        Rules::default(),
        "r7f5 rBe4 rBf4 b4e6 bBe7 bBf7 rFa1 bFj10",
    );
    let mut refused = 0;
    for _ in 0..40 {
        let full = sorted(pos.legal_moves());
        assert_eq!(
            sorted(pos.view(pos.side_to_move()).legal_moves()),
            full,
            "{}",
            pos.to_text()
        );
        let mut off = pos.clone();
        off.set_rules(plain());
        if sorted(off.legal_moves()).len() > full.len() {
            refused += 1;
        }
        // Chaser and runner both go round the ring e5 f5 f6 e6; never attack.
        let Some(m) = full
            .iter()
            .copied()
            .find(|m| pos.piece_at(m.to()).is_none() && m.to().rank() >= 4 && m.to().rank() <= 5)
        else {
            break;
        };
        pos.make(m);
    }
    assert!(refused > 0, "the repetition rules did remove moves");
}

// A view compares placements by owner and rank like the full position ("the same placement of
// all pieces (owner and rank of every square)"), so three blue Majors going round in a circle
// recreate a placement for Blue's view as they do for the arbiter.
#[test]
fn view_legal_moves_equal_the_full_positions_when_same_rank_pieces_swap_places() {
    let text = "classic full .........rF/........../........../........../..~~..~~../..~~..~~../rBrBrB......./.r7'.rB....../r7'b7'b7'rB....../.b7'.rB.....bF b 35 35 -/- 0/0 b3-c3-b3/c1-c2 1/8 b1b2,a2a1,b2b1,a1a2,c2b2,b3c3,c1c2,c3b3";
    let rules = Rules {
        two_squares: None,
        max_quiet_plies: None,
        ..Rules::default()
    };
    let pos = Position::from_text(text, rules).unwrap();
    // b1c1 gives back the placement after b1b2, eight plies earlier, with Blue's counter at 8.
    assert_eq!(
        pos.illegal_reason(mv("b1c1")).as_deref(),
        Some("more-squares rule (chasing)")
    );
    let names = |moves: Vec<Move>| sorted(moves).iter().map(|m| m.to_string()).collect::<Vec<_>>();
    assert_eq!(names(pos.view(Color::Blue).legal_moves()), names(pos.legal_moves()));
}

/// Plays `mv` in `pos` and tells both `views` what their owners learn from it.
fn play_observed(pos: &mut Position, views: &mut [Position; 2], m: Move) {
    let mover = pos.side_to_move();
    let (a, b) = (m.from(), m.to());
    let long = a.file().abs_diff(b.file()) + a.rank().abs_diff(b.rank()) > 1;
    let scout = pos.piece_at(a).unwrap().rank() == Rank::Scout;
    let defender_shown = pos.flags_at(b) & REVEALED != 0;
    let silent = pos.rules().silent_defence && !scout;
    let out = pos.make(m);
    for c in Color::BOTH {
        let (combat, ranks) = match out.combat {
            None => (None, (long.then_some(Rank::Scout), None)),
            Some((att, def, res)) => {
                // Silent defence: the attacker's side does not learn a hidden defender's rank.
                let def_known = !silent || c != mover || defender_shown;
                (Some(res), (Some(att), def_known.then_some(def)))
            }
        };
        views[c.index()].make_observed(m, combat, ranks);
    }
}

// A view kept up to date move by move (`make_observed`, with only what its owner learns)
// shows the same as a fresh view of the full position, and has the same legal moves.
#[test]
fn view_followed_move_by_move_matches_a_fresh_view() {
    let silent = Rules {
        silent_defence: true,
        attacker_advantage: true,
        ..Rules::default()
    };
    for (variant, rules, seed) in [
        (Variant::CLASSIC, Rules::default(), 11u64),
        (Variant::COMPACT, silent, 12),
        (Variant::BARRAGE, silent, 13),
    ] {
        let mut pos = start(variant, rules);
        let mut views = [pos.view(Color::Red), pos.view(Color::Blue)];
        let mut rng = Rng(0x5151_0000 + seed);
        for _ in 0..300 {
            if pos.game_end().is_some() {
                break;
            }
            for c in Color::BOTH {
                assert_eq!(views[c.index()].to_text(), pos.view(c).to_text(), "{c}'s view");
            }
            let full = sorted(pos.legal_moves());
            assert_eq!(sorted(views[pos.side_to_move().index()].legal_moves()), full);
            let m = full[rng.below(full.len())];
            play_observed(&mut pos, &mut views, m);
        }
    }
}

// Silent defence + rescue: Red's view must follow Blue rescuing a piece whose rank Red never
// learnt (the rescue names the rank).
#[test]
fn view_follows_an_enemy_rescue_of_a_piece_captured_in_silence() {
    let rules = Rules {
        silent_defence: true,
        rescue: true,
        ..plain()
    };
    let mut pos = build(Variant::CLASSIC, rules, "rMe4 b9e5 b7d2 bFa10 rFj1");
    let mut views = [pos.view(Color::Red), pos.view(Color::Blue)];
    // Red's Marshal takes the General in silence.
    play_observed(&mut pos, &mut views, mv("e4e5"));
    assert_eq!(views[0].captured(Color::Blue, Rank::Unknown), 1);
    // Blue's Major reaches Red's back row and brings the General back to e7.
    assert!(pos.is_legal(mv("d2d1+9e7")));
    play_observed(&mut pos, &mut views, mv("d2d1+9e7"));
    let red_view = &views[0];
    assert_eq!(
        red_view.piece_at(sq("e7")),
        Some(Piece::new(Color::Blue, Rank::General))
    );
    assert_eq!(red_view.captured(Color::Blue, Rank::General), 0);
    assert_eq!(red_view.captured(Color::Blue, Rank::Unknown), 0);
    assert_eq!(red_view.rescues(Color::Blue), 1);
    assert_eq!(red_view.to_text(), pos.view(Color::Red).to_text());
}
