//! `marshal replay` on UCC 2012 manager logs: the hand-written logs of `tests/data/ucc-logs/`
//! (a crash of an AI, the manager's end rule), and the 192 real ones of the 2012
//! competition in `tests/data/ucc-2012-logs/`.

use marshal::formats::record::describe_end;
use marshal::formats::ucc_log::{self, META_CRASH, META_REASON};
use marshal::rules::{Rules, Variant};
use std::path::{Path, PathBuf};

use crate::common;
use common::run_marshal as marshal;

fn log_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/ucc-logs")
        .join(name)
}

/// Replays one log with the binary: the exit code and the output without `ply` lines.
fn replay(path: &Path) -> (i32, String) {
    let (code, out, err) = marshal(&["replay", &path.display().to_string()]);
    assert!(err.is_empty() || code != 0, "{err}");
    (code, out)
}

#[test]
fn a_side_walled_in_after_its_move_plays_on_under_the_managers_rule() {
    let path = log_path("walled-in-then-freed.log");
    let (code, out) = replay(&path);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        out,
        "ucc log alice (red) vs bob (blue), result line 26: alice RED VICTORY 8 5 0\n\
         result red wins (no_moves) after 14 plies\n"
    );
    // The record carries the manager's end rule; under ours the game is over after Blue's
    // 6th move (ply 12), so Red's Miner (ply 13) may not open the wall.
    let rec = ucc_log::read(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert!(rec.rules.end_on_turn);
    assert!(
        Variant::parse(&rec.variant).unwrap().army_size() == 6,
        "{}",
        rec.variant
    );
    let ours = Rules {
        end_on_turn: false,
        ..rec.rules
    };
    let err = rec.replay(Some(ours)).unwrap_err().to_string();
    assert!(err.contains("move 13") && err.contains("already over"), "{err}");
    let (pos, end) = rec.replay(None).unwrap();
    assert_eq!(pos.ply(), 14);
    assert_eq!(end.map(|e| describe_end(&e)).as_deref(), Some("red wins (no_moves)"));
}

#[test]
fn an_ai_that_died_after_a_bad_reply() {
    let path = log_path("sigpipe-after-a-bad-reply.log");
    let (code, out) = replay(&path);
    assert_eq!(code, 0, "{out}");
    assert!(out.ends_with("result red wins (forfeit) after 1 plies\n"), "{out}");
    let rec = ucc_log::read(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        rec.meta.get(META_CRASH).map(String::as_str),
        Some(
            "SIGPIPE - Broken pipe (AI program no longer running) | \
             Strange; BLUE still appears valid. | RED also appears valid. Exiting with ERROR."
        )
    );
    assert_eq!(
        rec.meta.get(META_REASON).map(String::as_str),
        Some(
            "on BLUE's turn - REASON: Unintelligable response | \
             on BLUE's turn - REASON: Internal controller error - Unspecified ERROR"
        )
    );
    // Only the manager's own notes are skipped: any other line is an error naming it.
    let text = std::fs::read_to_string(&path).unwrap();
    let bad = text.replace("Strange; BLUE still appears valid.", "Strange; GREEN is here.");
    let err = ucc_log::read(&bad).unwrap_err().to_string();
    assert_eq!(err, "UCC log line 15: unexpected line 'Strange; GREEN is here.'");
}

#[test]
fn an_ai_that_died_while_the_manager_waited_for_its_move() {
    let path = log_path("sigpipe-while-waiting.log");
    let (code, out) = replay(&path);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.ends_with("no result line\nresult blue wins (forfeit) after 4 plies\n"),
        "{out}"
    );
    let rec = ucc_log::read(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        rec.meta.get(META_CRASH).map(String::as_str),
        Some("SIGPIPE - Broken pipe (AI program no longer running)")
    );
}

/// The number of game logs of the 2012 competition in `tests/data/ucc-2012-logs/`.
const UCC_2012_LOGS: usize = 192;

/// Every real log of the 2012 competition replays to the result it records (the reader
/// checks each move, combat and the result line against our rules on the way).
#[test]
fn every_log_of_the_2012_competition_replays_to_its_result() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ucc-2012-logs");
    let mut files: Vec<PathBuf> = walk(&dir)
        .into_iter()
        .filter(|p| p.parent() != Some(dir.as_path()))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    for f in &files {
        let (code, out) = replay(f);
        let last = out.lines().last().unwrap_or_default();
        if code != 0 || !last.starts_with("result ") {
            failures.push(format!("{}: {}", f.display(), out.trim()));
        }
    }
    println!("{} UCC 2012 logs replayed, {} failed", files.len(), failures.len());
    assert_eq!(files.len(), UCC_2012_LOGS, "logs found in {}", dir.display());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The files under `dir`, in every subfolder.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}
