//! Runs the `marshal` binary's perft and replay subcommands and checks what they print.

use marshal::formats::{record::describe_end, GameRecord};
use marshal::rules::{Position, Rules, Setup, Variant};
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::path::PathBuf;

use crate::common;
use common::run_marshal as marshal;

fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
        .display()
        .to_string()
}

/// Writes `text` to a file `name` in a fresh temp folder: the folder (removed when dropped,
/// also when the test fails) and the file's path.
fn tmp_file(name: &str, text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::Builder::new()
        .prefix("marshal-cli-")
        .tempdir()
        .expect("temp dir");
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    (dir, p.display().to_string())
}

/// A finished random game of `variant` (seeded), as a record.
fn random_game(variant: &str, seed: u64) -> GameRecord {
    let v = Variant::parse(variant).unwrap();
    let (r, b) = v.sample_setups();
    let (red, blue) = (Setup::parse(&r, &v).unwrap(), Setup::parse(&b, &v).unwrap());
    let rules = Rules {
        max_plies: Some(600),
        ..Rules::default()
    };
    let mut pos = Position::from_setups(v, rules, &red, &blue).unwrap();
    let mut rec = GameRecord::new(&v, rules, &red, &blue);
    let mut rng = StdRng::seed_from_u64(seed);
    while pos.game_end().is_none() {
        let moves = pos.legal_moves();
        let mv = moves[rng.gen_range(0..moves.len())];
        let out = pos.make(mv);
        rec.push(mv, out.combat);
    }
    rec.result = pos.game_end();
    rec
}

#[test]
fn perft_prints_divide_and_summary() {
    let (code, out, _) = marshal(&["perft", "3", "--variant", "barrage"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    let last = lines.last().unwrap();
    let fields: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(fields[0], "nodes");
    assert_eq!(fields[2], "time_ms");
    assert_eq!(fields[4], "nps");
    let total: u64 = fields[1].parse().unwrap();
    let sum: u64 = lines[..lines.len() - 1]
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, total);
    assert!(total > 0);
}

#[test]
fn perft_accepts_a_position_and_rejects_a_bad_one() {
    let v = Variant::COMPACT;
    let (r, b) = v.sample_setups();
    let pos = Position::from_setups(
        v,
        Rules::default(),
        &Setup::parse(&r, &v).unwrap(),
        &Setup::parse(&b, &v).unwrap(),
    )
    .unwrap();
    let line = pos.to_text();
    let (code, out, _) = marshal(&["perft", "2", "--position", &line]);
    assert_eq!(code, 0);
    let (_, out2, _) = marshal(&["perft", "2", "--variant", "compact"]);
    assert_eq!(
        out.lines().last().unwrap().split_whitespace().nth(1),
        out2.lines().last().unwrap().split_whitespace().nth(1)
    );
    let (code, _, err) = marshal(&["perft", "2", "--position", "classic full nonsense"]);
    assert_eq!(code, 2);
    assert!(err.contains("bad --position"), "{err}");
    let (code, _, err) = marshal(&["perft", "2", "--variant", "chess"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown variant 'chess'"), "{err}");
}

#[test]
fn replay_reports_an_interrupted_game() {
    let (code, out, _) = marshal(&["replay", &data("interrupted.json")]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.trim(), "result unfinished after 3 plies (blue to move)");
}

#[test]
fn replay_reaches_the_recorded_result_and_lists_legal_moves() {
    for (variant, seed) in [("classic", 1), ("barrage", 2), ("duel-compact", 3)] {
        let rec = random_game(variant, seed);
        let (_dir, path) = tmp_file(&format!("{variant}.json"), &rec.to_json());
        let (code, out, _) = marshal(&["replay", &path, "--legal"]);
        assert_eq!(code, 0, "{out}");
        let end = rec.result.unwrap();
        let last = out.lines().last().unwrap();
        assert_eq!(
            last,
            format!("result {} after {} plies", describe_end(&end), rec.moves.len())
        );
        let legal_lines: Vec<&str> = out.lines().filter(|l| l.starts_with("ply ")).collect();
        assert_eq!(legal_lines.len(), rec.moves.len());
        // Each listed set contains the move that was played, and is sorted.
        for (line, m) in legal_lines.iter().zip(&rec.moves) {
            let moves: Vec<&str> = line.split(" legal ").nth(1).unwrap().split(' ').collect();
            assert!(moves.contains(&m.mv.as_str()), "{line} lacks {}", m.mv);
            let mut sorted = moves.clone();
            sorted.sort();
            assert_eq!(sorted, moves);
        }
    }
}

#[test]
fn replay_names_the_first_illegal_move() {
    let mut rec = random_game("classic", 4);
    // Replace ply 5 by a move of a Bomb (never legal).
    rec.moves[4].mv = "a1a2".into();
    rec.moves[4].attacker = None;
    rec.moves[4].defender = None;
    rec.moves[4].combat = None;
    let (_dir, path) = tmp_file("bad.json", &rec.to_json());
    let (code, out, _) = marshal(&["replay", &path]);
    assert_eq!(code, 1);
    assert!(out.starts_with("error move 5 (a1a2) is illegal:"), "{out}");
}

#[test]
fn replay_checks_recorded_outcomes_and_results() {
    let mut rec = random_game("barrage", 5);
    let attack = rec.moves.iter().position(|m| m.combat.is_some()).expect("an attack");
    let mut wrong = rec.clone();
    wrong.moves[attack].defender = Some(
        if wrong.moves[attack].defender.as_deref() == Some("F") {
            "B"
        } else {
            "F"
        }
        .into(),
    );
    let (_dir, path) = tmp_file("wrong-outcome.json", &wrong.to_json());
    let (code, out, _) = marshal(&["replay", &path]);
    assert_eq!(code, 1);
    assert!(out.contains(&format!("error move {}", attack + 1)), "{out}");
    assert!(out.contains("disagrees"), "{out}");
    // A wrong recorded result is reported too.
    let end = rec.result.unwrap();
    rec.result = Some(marshal::rules::GameEnd {
        winner: end.winner.map(|c| c.flip()).or(Some(marshal::rules::Color::Red)),
        ..end
    });
    let (_dir, path) = tmp_file("wrong-result.json", &rec.to_json());
    let (code, out, _) = marshal(&["replay", &path]);
    assert_eq!(code, 1);
    assert!(out.contains("recorded result"), "{out}");
}

#[test]
fn replay_rejects_garbage_and_rule_overrides_apply() {
    let (_dir, path) = tmp_file("garbage.json", "{ not json");
    let (code, out, _) = marshal(&["replay", &path]);
    assert_eq!(code, 1);
    assert!(out.starts_with("error not a valid game record"), "{out}");
    let (code, _, err) = marshal(&["replay", &data("interrupted.json"), "--rule", "two-squares=maybe"]);
    assert_eq!(code, 2);
    assert!(err.contains("two-squares"), "{err}");
    let (code, out, _) = marshal(&["replay", &data("interrupted.json"), "--rule", "more-squares=off"]);
    assert_eq!(code, 0, "{out}");
    let (code, _, err) = marshal(&["replay", "/nonexistent/file.json"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read /nonexistent/file.json"), "{err}");
}

#[test]
fn replay_reads_gravon_files() {
    let (code, out, _) = marshal(&["replay", &data("gravon/classic-flag.xml")]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.trim(), "result red wins (flag_captured) after 25 plies");
    let (code, out, _) = marshal(&["replay", &data("gravon/classic-flag-corrupt.xml")]);
    assert_eq!(code, 1);
    assert!(out.starts_with("error move 9 (f4f5) is illegal"), "{out}");
    let (_dir, path) = tmp_file(
        "broken.xml",
        "<stratego><game type=\"classic\"><field content=\"AB\"/></game>",
    );
    let (code, out, _) = marshal(&["replay", &path]);
    assert_eq!(code, 1);
    assert!(out.starts_with("error not a valid Gravon file"), "{out}");
}
