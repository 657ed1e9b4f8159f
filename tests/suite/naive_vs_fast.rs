//! Cross-checks `Position::legal_moves` (and `count_legal`) against the naive generator of
//! `common/naive.rs` at every ply of seeded random games, in every variant and under many
//! rule combinations, and checks that the repetition rules really fire in those games.

use crate::common;

use common::naive::{NaiveGame, Sq};
use common::{pick_move, random_move, random_start, rng, rule_sets, sample_start};
use marshal::rules::{Color, Move, Position, Rules, Variant};

#[derive(Default, Debug)]
struct Stats {
    games: usize,
    plies: usize,
    /// Plies where the two-squares rule removed at least one move.
    two_fired: usize,
    /// Plies where the more-squares rule removed at least one move.
    more_fired: usize,
    /// Plies where rescue moves were legal, and rescues played.
    rescue_offered: usize,
    rescues_played: usize,
}

fn sorted(mut v: Vec<Move>) -> Vec<Move> {
    v.sort();
    v
}

fn diff_message(what: &str, fast: &[Move], naive: &[Move], pos: &Position) -> String {
    let only_fast: Vec<String> = fast
        .iter()
        .filter(|m| !naive.contains(m))
        .map(|m| m.to_string())
        .collect();
    let only_naive: Vec<String> = naive
        .iter()
        .filter(|m| !fast.contains(m))
        .map(|m| m.to_string())
        .collect();
    format!(
        "{what}: legal moves differ; engine only {only_fast:?}, naive only {only_naive:?}\nposition: {}\nrules: {:?}",
        pos.to_text(),
        pos.rules()
    )
}

/// Compares the engine with a naive state that has followed the game on its own, and
/// (every few plies) with one freshly read from the position.
fn check_ply(pos: &Position, naive: &NaiveGame, fresh: bool, label: &str) -> Vec<Move> {
    let fast = sorted(pos.legal_moves());
    let mine = naive.legal_moves();
    assert!(fast == mine, "{}", diff_message(label, &fast, &mine, pos));
    assert_eq!(pos.count_legal(), fast.len(), "{label}: count_legal\n{}", pos.to_text());
    // State the two keep separately.
    for c in Color::BOTH {
        let theirs: Vec<Sq> = pos
            .trail(c)
            .squares()
            .map(|s| (s.file() as usize, s.rank() as usize))
            .collect();
        let ours = naive.trail_squares(c);
        let n = theirs.len();
        assert!(
            n <= ours.len() && ours[..n] == theirs[..] && (n == ours.len() || n >= 13),
            "{label}: {c} trail {theirs:?} vs naive {ours:?}\n{}",
            pos.to_text()
        );
        assert_eq!(
            pos.chase_counter(c) as u32,
            naive.chase[c.index()],
            "{label}: {c} chase counter\n{}",
            pos.to_text()
        );
    }
    if fresh {
        let read = NaiveGame::from_position(pos).legal_moves();
        assert!(
            fast == read,
            "{}",
            diff_message(&format!("{label} (fresh)"), &fast, &read, pos)
        );
    }
    fast
}

/// Plays `games` seeded games; half from the sample setups, half from random ones.
fn play_games(v: Variant, rules: Rules, label: &str, games: usize, max_plies: usize, seed: u64) -> Stats {
    let mut st = Stats::default();
    for g in 0..games {
        let mut r = rng(seed.wrapping_mul(1_000_003).wrapping_add(g as u64));
        let mut pos = if g % 2 == 0 {
            sample_start(v, rules)
        } else {
            random_start(v, rules, &mut r).0
        };
        let mut naive = NaiveGame::from_position(&pos);
        let shuttle = g % 4 != 3; // a quarter of the games play uniformly at random
        for ply in 0..max_plies {
            let tag = format!("{label} game {g} ply {ply}");
            let moves = check_ply(&pos, &naive, ply % 5 == 0, &tag);
            let legal = moves.len();
            if naive.moves_with(false, true).len() > legal {
                st.two_fired += 1;
            }
            if naive.moves_with(true, false).len() > legal {
                st.more_fired += 1;
            }
            if moves.iter().any(|m| m.rescue().is_some()) {
                st.rescue_offered += 1;
            }
            st.plies += 1;
            if moves.is_empty() || pos.game_end().is_some() {
                break;
            }
            // Prefer a rescue when one is on offer, so that rescued pieces get into play.
            let rescue = moves.iter().copied().filter(|m| m.rescue().is_some()).nth(ply % 7);
            let mv = match rescue {
                Some(m) => {
                    st.rescues_played += 1;
                    m
                }
                None if shuttle => pick_move(&pos, &moves, &mut r),
                None => random_move(&moves, &mut r),
            };
            pos.make(mv);
            naive.play_move(mv);
        }
        st.games += 1;
    }
    st
}

/// Runs every rule set on one variant and checks that the repetition rules fired.
fn cross_check(name: &str, games_per_rule_set: usize, max_plies: usize, seed: u64) {
    let v = Variant::parse(name).unwrap();
    let (mut two, mut more, mut games, mut plies, mut offered) = (0, 0, 0, 0, 0);
    for (i, (label, rules)) in rule_sets().into_iter().enumerate() {
        let st = play_games(
            v,
            rules,
            &format!("{name}/{label}"),
            games_per_rule_set,
            max_plies,
            seed * 100 + i as u64,
        );
        if rules.two_squares.is_none() {
            assert_eq!(st.two_fired, 0, "{label}: two-squares rule off but fired");
        }
        if !rules.more_squares {
            assert_eq!(st.more_fired, 0, "{label}: more-squares rule off but fired");
        }
        if !rules.rescue {
            assert_eq!(st.rescue_offered, 0, "{label}: rescue off but offered");
        }
        two += st.two_fired;
        more += st.more_fired;
        games += st.games;
        plies += st.plies;
        offered += st.rescue_offered;
        eprintln!("{name}/{label}: {st:?}");
    }
    eprintln!("{name}: {games} games, {plies} plies, two-squares fired {two}, more-squares fired {more}, rescue offered {offered}");
    assert!(two > 0, "{name}: the two-squares rule never fired");
    assert!(more > 0, "{name}: the more-squares rule never fired");
}

#[test]
fn classic_agrees() {
    cross_check("classic", 24, 200, 1);
}

#[test]
fn compact_agrees() {
    cross_check("compact", 24, 200, 2);
}

#[test]
fn duel_agrees() {
    cross_check("duel", 24, 250, 3);
}

#[test]
fn duel_compact_agrees() {
    cross_check("duel-compact", 24, 250, 4);
}

#[test]
fn barrage_agrees() {
    cross_check("barrage", 24, 250, 5);
}

#[test]
fn custom_army_agrees() {
    cross_check(common::CUSTOM, 24, 250, 6);
}

/// Random custom armies on both boards (a few games each).
#[test]
fn random_armies_agree() {
    let mut r = rng(77);
    for i in 0..30 {
        let v = common::random_army(&mut r);
        let rules = rule_sets()[i % rule_sets().len()].1;
        play_games(v, rules, &v.name(), 2, 150, 7000 + i as u64);
    }
}

/// Rescues are offered and played somewhere in the rescue games (so that path is tested).
#[test]
fn rescues_happen() {
    let rules = Rules {
        rescue: true,
        ..Rules::default()
    };
    let mut offered = 0;
    let mut played = 0;
    for (i, name) in ["duel", "barrage", "duel-compact"].iter().enumerate() {
        let st = play_games(Variant::parse(name).unwrap(), rules, name, 30, 300, 900 + i as u64);
        offered += st.rescue_offered;
        played += st.rescues_played;
    }
    assert!(offered > 0 && played > 0, "no rescue in {offered} offers");
}

/// Small armies meet quickly and chase a lot: the more-squares rule fires often there.
#[test]
fn small_armies_agree() {
    for (i, army) in [
        "custom:10x8:F=1,4=1,5=1,2=1",
        "custom:10x8:F=1,6=2,7=1",
        "custom:10x10:F=1,B=2,2=1,5=2,8=1",
    ]
    .iter()
    .enumerate()
    {
        let v = Variant::parse(army).unwrap();
        let st = play_games(v, Rules::default(), army, 30, 300, 55 + i as u64);
        assert!(st.more_fired > 0 && st.two_fired > 0, "{army}: {st:?}");
    }
}
