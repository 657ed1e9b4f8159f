//! `marshal calibrate`: the report's form, reproducibility across thread counts, the
//! held-out human setups, and that the full belief beats counting alone; and that the
//! classic prior table is what its generator makes of the human data.

use std::path::PathBuf;

use crate::common;
use common::run_marshal as marshal;

/// The report without its timing (the header's seconds, the speed line).
fn numbers(report: &str) -> Vec<String> {
    report
        .lines()
        .filter(|l| !l.starts_with("speed:"))
        .map(|l| {
            l.split(" | ")
                .filter(|p| !p.ends_with(" s"))
                .collect::<Vec<_>>()
                .join(" | ")
        })
        .collect()
}

/// The mean log-loss and Brier score of one belief's line.
fn scores(report: &str, belief: &str) -> (f64, f64) {
    let line = report
        .lines()
        .find(|l| l.split_whitespace().next() == Some(belief))
        .unwrap_or_else(|| panic!("no '{belief}' line in:\n{report}"));
    let f: Vec<f64> = line
        .split_whitespace()
        .skip(1)
        .take(2)
        .map(|x| x.parse().unwrap())
        .collect();
    (f[0], f[1])
}

#[test]
fn a_few_classic_games_score_the_beliefs() {
    let args = ["calibrate", "--games", "3", "--seed", "2", "--max-plies", "120"];
    let (code, out, err) = marshal(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("calibrate 3 games of classic (generated setups), seed 2, search depth 2"),
        "{out}"
    );
    assert!(out.contains("scored (ply, unknown piece) pairs"), "{out}");
    assert!(
        out.lines().any(|l| l.starts_with("speed: full belief built in")),
        "{out}"
    );
    let counts = scores(&out, "counts-only");
    let prior = scores(&out, "prior");
    let full = scores(&out, "full");
    assert!(
        full.0 < counts.0 && full.1 < counts.1,
        "full {full:?} vs counts-only {counts:?}"
    );
    assert!(prior.0 < counts.0, "prior {prior:?} vs counts-only {counts:?}");
    // The same numbers on one thread.
    let (code, one, err) = marshal(&[&args[..], &["--threads", "1"]].concat());
    assert_eq!(code, 0, "{err}");
    assert_eq!(numbers(&out), numbers(&one));
}

#[test]
fn other_variants_and_silent_defence() {
    let (code, out, err) = marshal(&[
        "calibrate",
        "--games",
        "2",
        "--variant",
        "barrage",
        "--rule",
        "silent-defence=on",
        "--max-plies",
        "100",
        "--events",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("of barrage"), "{out}");
    assert!(out.contains("events: situation"), "{out}");
}

#[test]
fn held_out_human_setups() {
    // The built-in copy of the Gravon classic file: no file needed.
    let (code, out, err) = marshal(&["calibrate", "--games", "2", "--setups", "human", "--max-plies", "60"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(held-out human setups)"), "{out}");
}

#[test]
fn bad_arguments_are_reported() {
    let (code, _, err) = marshal(&["calibrate", "--games", "1", "--setups", "mine"]);
    assert_eq!(code, 2);
    assert!(err.contains("--setups 'mine' is not generated or human"), "{err}");
    let (code, _, err) = marshal(&["calibrate", "--games", "1", "--variant", "compact", "--setups", "human"]);
    assert_eq!(code, 2);
    assert!(err.contains("needs classic"), "{err}");
    let (code, _, err) = marshal(&[
        "calibrate",
        "--games",
        "1",
        "--setups",
        "human",
        "--human",
        "/nonexistent/x.txt",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read /nonexistent/x.txt"), "{err}");
}

#[test]
fn the_classic_prior_table_is_up_to_date() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let table = marshal::belief::prior::table_text(marshal::data::classic_human_setups()).unwrap();
    let stored = std::fs::read_to_string(root.join("src/belief/prior_classic.txt")).unwrap();
    assert!(
        table == stored,
        "src/belief/prior_classic.txt is stale: cargo run --release --example belief_prior > src/belief/prior_classic.txt"
    );
}

#[test]
fn recorded_games_are_replayed_and_scored_for_the_followed_player() {
    let rec = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/interrupted.json");
    let rec = rec.to_str().unwrap();
    // Both players' beliefs: 3 plies, 40 unknown enemy pieces for each player at each.
    let (code, out, err) = marshal(&["calibrate", "--records", rec]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("calibrate 1 recorded games, beliefs of both players"),
        "{out}"
    );
    assert!(
        out.contains("| plies 3 | scored (ply, unknown piece) pairs 240"),
        "{out}"
    );
    assert!(!out.contains("speed:"), "{out}");
    // Only Red's (named `marshal` in the record): half the pairs.
    let (code, out, err) = marshal(&["calibrate", "--records", rec, "--follow", "marshal"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("calibrate 1 recorded games, beliefs of the players named *marshal*"),
        "{out}"
    );
    assert!(out.contains("scored (ply, unknown piece) pairs 120"), "{out}");
    let counts = scores(&out, "counts-only");
    let prior = scores(&out, "prior");
    assert!(prior.0 < counts.0, "prior {prior:?} vs counts-only {counts:?}");
    // A name no player has, and a file that is not there: errors that name the file.
    let (code, _, err) = marshal(&["calibrate", "--records", rec, "--follow", "nobody"]);
    assert_ne!(code, 0);
    assert!(err.contains("interrupted.json") && err.contains("'nobody'"), "{err}");
    let (code, _, err) = marshal(&["calibrate", "--records", "no/such/record.json"]);
    assert_ne!(code, 0);
    assert!(err.contains("no/such/record.json"), "{err}");
}
