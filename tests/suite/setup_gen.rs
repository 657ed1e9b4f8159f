//! The setup generator: hard checks always pass, variety, Flag spread, determinism, priors.

use marshal::rules::{Rank, Setup, Variant};
use marshal::setup::{explain, generate, human, prior, Kind, Report};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::collections::HashSet;

use crate::common;

fn many(v: &Variant, n: usize, seed: u64) -> Vec<marshal::rules::Setup> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n).map(|_| generate(v, &mut rng)).collect()
}

fn assert_valid(v: &Variant, n: usize) -> Vec<marshal::rules::Setup> {
    let setups = many(v, n, 7);
    for s in &setups {
        s.check()
            .unwrap_or_else(|e| panic!("{} setup {s} is invalid: {e}", v.name()));
        for c in explain(s) {
            assert!(c.kind != Kind::Hard || c.pass, "{} setup {s} fails {c}", v.name());
        }
        // Round trip through the notation.
        assert_eq!(&marshal::rules::Setup::parse(&s.to_string(), v).unwrap(), s);
    }
    setups
}

#[test]
fn classic_10000_hard_checks_variety_and_flag_spread() {
    let v = Variant::CLASSIC;
    let setups = assert_valid(&v, 10_000);
    let distinct: HashSet<String> = setups.iter().map(|s| s.to_string()).collect();
    assert_eq!(distinct.len(), setups.len(), "duplicate setups");
    let r = Report::new(&setups);
    assert_eq!(r.flags_forward, 0);
    assert!(r.flag_max_share() <= 0.25, "flag max share {}", r.flag_max_share());
    let cols: HashSet<usize> = r.flag_squares.keys().map(|k| k.1).collect();
    assert!(cols.len() >= 6, "flag in only {} columns", cols.len());
}

#[test]
fn other_variants_1000_each() {
    let custom = Variant::parse("custom:10x10:F=1,B=6,S=1,2=6,3=5,4=5,5=4,6=4,7=3,8=2,9=1,M=1").unwrap();
    let small = Variant::parse("custom:10x8:F=1,B=2,S=1,2=4,3=2,M=1").unwrap();
    for v in [
        Variant::COMPACT,
        Variant::DUEL,
        Variant::DUEL_COMPACT,
        Variant::BARRAGE,
        custom,
        small,
    ] {
        let setups = assert_valid(&v, 1000);
        let r = Report::new(&setups);
        assert_eq!(r.flags_forward, 0, "{}", v.name());
        assert!(
            r.flag_max_share() <= 0.25,
            "{} flag max share {}",
            v.name(),
            r.flag_max_share()
        );
        let distinct: HashSet<String> = setups.iter().map(|s| s.to_string()).collect();
        assert!(distinct.len() >= 990, "{}: {} distinct", v.name(), distinct.len());
    }
}

#[test]
fn same_seed_same_setups_other_seed_differs() {
    for v in [Variant::CLASSIC, Variant::DUEL] {
        let a = many(&v, 50, 42);
        assert_eq!(a, many(&v, 50, 42));
        let b = many(&v, 50, 43);
        assert!(a.iter().zip(&b).all(|(x, y)| x != y));
    }
}

#[test]
fn every_check_has_a_tip_name_and_a_threshold() {
    let mut rng = StdRng::seed_from_u64(1);
    let s = generate(&Variant::CLASSIC, &mut rng);
    let checks = explain(&s);
    assert!(checks.len() >= 10);
    for c in &checks {
        assert!(c.name.starts_with('T'), "{}", c.name);
        assert!(c.min.is_some() || c.max.is_some(), "{}", c.name);
    }
    // A Flag on the front row fails the hard T1 check.
    let mut bad = s.clone();
    let (fr, fc) = (0..4)
        .flat_map(|r| (0..10).map(move |c| (r, c)))
        .find(|&(r, c)| s.at(r, c) == Some(Rank::Flag))
        .unwrap();
    let front = bad.rows[3][0];
    bad.rows[3][0] = Some(Rank::Flag);
    bad.rows[fr][fc] = front;
    assert!(explain(&bad).iter().any(|c| c.name == "T1 flag-back" && !c.pass));
}

/// A sparse army's Flag with an empty file in front is open to a Scout on move one.
#[test]
fn flag_lane_in_sparse_armies() {
    let v = Variant::parse("barrage").unwrap();
    let lane = |s: &Setup| explain(s).into_iter().find(|c| c.name == "T1 flag-lane").unwrap();
    let mut s = generate(&v, &mut StdRng::seed_from_u64(5));
    assert!(lane(&s).pass, "generated setups pass");
    // Move every piece out of the Flag's file in front of it: now it fails.
    let (fr, fc) = (0..4)
        .flat_map(|r| (0..10).map(move |c| (r, c)))
        .find(|&(r, c)| s.at(r, c) == Some(Rank::Flag))
        .unwrap();
    let lake_file = matches!(fc, 2 | 3 | 6 | 7);
    for r in fr + 1..4 {
        if let Some(p) = s.rows[r][fc].take() {
            let free = (0..4)
                .flat_map(|r| (0..10).map(move |c| (r, c)))
                .find(|&(a, c)| c != fc && s.rows[a][c].is_none())
                .unwrap();
            s.rows[free.0][free.1] = Some(p);
        }
    }
    assert_eq!(lane(&s).pass, lake_file, "{s:?}");
}

/// The embedded prior tables are exactly the counts of the human data files (`data/`).
#[test]
fn prior_tables_match_the_human_data() {
    for (file, v, table, n) in [
        (
            marshal::data::classic_human_setups(),
            Variant::CLASSIC,
            &prior::CLASSIC,
            prior::CLASSIC_SETUPS,
        ),
        (
            marshal::data::barrage_human_setups(),
            Variant::BARRAGE,
            &prior::BARRAGE,
            prior::BARRAGE_SETUPS,
        ),
    ] {
        let setups = marshal::formats::gravon::parse_gravon_text(file, &v).unwrap();
        assert_eq!(setups.len(), n as usize);
        let counts = human::square_counts(&setups);
        for k in 0..12 {
            for r in 0..4 {
                for c in 0..10 {
                    assert_eq!(
                        counts[k][r][c],
                        table[k][r][c] as u32,
                        "{} rank {k} row {r} col {c}",
                        v.name()
                    );
                }
            }
        }
    }
}

/// `marshal setup --compare-human` needs no file: classic and barrage humans are built in;
/// other variants and unreadable `--human` files are errors that say why.
#[test]
fn compare_human_uses_the_built_in_setups() {
    let (code, out, err) = common::run_marshal(&["setup", "--count", "300", "--compare-human"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(
            "variant classic seed 1 human file data/classic-human-setups.txt (built in)\ngenerated 300 human 32292\n"
        ),
        "{out}"
    );
    let (code, out, err) = common::run_marshal(&["setup", "--variant", "barrage", "--count", "300", "--compare-human"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("generated 300 human 3944\n"), "{out}");
    let (code, _, err) = common::run_marshal(&["setup", "--variant", "duel", "--compare-human"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no built-in human setups for duel; pass --human FILE"),
        "{err}"
    );
    let (code, _, err) = common::run_marshal(&["setup", "--compare-human", "--human", "/nonexistent/h.txt"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read /nonexistent/h.txt"), "{err}");
}

/// A sparse army's Flag that a Scout reaches in two moves (down an empty file, then along
/// an empty row to it) fails `T1 flag-scout`; a walled corner passes; generated ones pass.
#[test]
fn flag_scout_in_sparse_armies() {
    let v = Variant::parse("barrage").unwrap();
    let scout = |s: &str| {
        let s = Setup::parse(s, &v).unwrap();
        explain(&s).into_iter().find(|c| c.name == "T1 flag-scout").unwrap()
    };
    // Lost at ply 4 against builtin:greedy: a Scout went down the a-file, then along the
    // back row to f1 (the b-file has our Miner, the c-, d- and g-files end in lakes).
    let lost = scout(".....F..9./.....B.S../........../.3..M2...2");
    assert!(!lost.pass && lost.value == 1.0, "{lost:?}");
    // Without the Miner on b4, b1 is a route too.
    assert_eq!(scout(".....F..9./.....B.S../........../....M2..32").value, 2.0);
    // The back row closed on both sides of the Flag: no route.
    assert!(scout("....3F2.9./.....B.S../........../....M....2").pass);
    assert!(scout("F3......9./B......S../........../....M2...2").pass);
    for seed in 0..200 {
        let s = generate(&v, &mut StdRng::seed_from_u64(seed));
        assert!(explain(&s).iter().all(|c| c.kind != Kind::Hard || c.pass), "{s:?}");
    }
}

/// A dense army's Flag may leave one side open, but never the front: the front is the one
/// side a piece from the enemy reaches without taking a second piece first.
#[test]
fn flag_guard_never_leaves_the_front_open() {
    let v = Variant::CLASSIC;
    let guard = |s: &str| {
        let s = Setup::parse(s, &v).unwrap();
        explain(&s).into_iter().find(|c| c.name == "T1 flag-guard").unwrap()
    };
    // Flag on d1: the left side (a Scout) open, the front and the right bombed.
    let side_open = guard("342FBBBB23/223B28B634/5M53628S57/5277244966");
    assert!(side_open.pass, "{side_open}");
    // The same with the Scout and the front Bomb swapped: both sides bombed, front open.
    let front_open = guard("34BFBBBB23/223228B634/5M53628S57/5277244966");
    assert!(!front_open.pass, "{front_open}");
    // Generated setups never leave it open (2,000 of them, each kind of army that fills its
    // zone).
    for name in ["classic", "compact"] {
        let v = Variant::parse(name).unwrap();
        for s in many(&v, 2000, 11) {
            let g = explain(&s).into_iter().find(|c| c.name == "T1 flag-guard").unwrap();
            assert!(g.pass, "{name} {s}: {g}");
        }
    }
}
