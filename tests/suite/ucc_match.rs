//! `marshal match --engine ucc:<path>`: UCC 2012 AI programs play under our arbiter. The
//! real binary plays 20 games against a UCC-protocol random bot (`tests/ucc/random_bot.py`)
//! and records them so that `marshal replay` reaches the recorded results; bots that answer
//! garbage, illegal moves, nothing, a bad setup, or die, lose by a recorded forfeit; bad
//! paths and variants are refused with a clear error. Needs `python3` for the bots.

use marshal::formats::{record::describe_end, GameRecord};
use marshal::rules::{Color, EndReason};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

const RANDOM_BOT: &str = "ucc:tests/ucc/random_bot.py";
const FAULTY_BOT: &str = "ucc:tests/ucc/faulty_bot.py";

fn have_python() -> bool {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: python3 is needed for the UCC test bots (tests/ucc/*.py)");
    }
    ok
}

/// A fresh folder in the system temp directory, removed when dropped (also when the
/// test fails).
fn tmp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("marshal-ucc-match-{name}-"))
        .tempdir()
        .expect("temp dir")
}

/// What a `marshal` run left behind.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `marshal` in the crate folder (the bots' paths are relative to it).
fn marshal(args: &[&str], env: &[(&str, &str)]) -> Run {
    let o = Command::new(env!("CARGO_BIN_EXE_marshal"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("run marshal");
    let run = Run {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    };
    assert!(!run.stderr.contains("panicked"), "marshal panicked:\n{}", run.stderr);
    run
}

/// Runs a match with `--out`; returns the run and the records (ordered by game number).
fn play(args: &[&str], env: &[(&str, &str)], out: &Path) -> (Run, Vec<GameRecord>) {
    let mut all = vec!["match", "--out", out.to_str().unwrap()];
    all.extend_from_slice(args);
    let run = marshal(&all, env);
    let text = std::fs::read_to_string(out).unwrap_or_default();
    let mut records: Vec<GameRecord> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a record per line"))
        .collect();
    records.sort_by_key(game_of);
    (run, records)
}

fn game_of(r: &GameRecord) -> usize {
    r.meta.get("game").and_then(|g| g.parse().ok()).expect("game number")
}

/// `marshal replay` of the whole file reaches every recorded result.
fn check_replay(out: &Path) {
    let text = std::fs::read_to_string(out).unwrap();
    let records: Vec<GameRecord> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let run = marshal(&["replay", out.to_str().unwrap()], &[]);
    assert_eq!(run.code, 0, "replay failed:\n{}{}", run.stdout, run.stderr);
    for (i, r) in records.iter().enumerate() {
        let end = r.result.expect("a finished game");
        let want = format!("result {} after {} plies", describe_end(&end), r.moves.len());
        let prefix = if records.len() > 1 {
            format!("game {}: ", i + 1)
        } else {
            String::new()
        };
        assert!(
            run.stdout.lines().any(|l| l == format!("{prefix}{want}")),
            "replay of record {} does not reach '{want}':\n{}",
            i + 1,
            run.stdout
        );
    }
}

/// The colour the engine `spec` played in a record.
fn colour_of(r: &GameRecord, spec: &str) -> Color {
    if r.meta.get("red").map(String::as_str) == Some(spec) {
        Color::Red
    } else {
        assert_eq!(r.meta.get("blue").map(String::as_str), Some(spec));
        Color::Blue
    }
}

#[test]
fn twenty_games_against_a_ucc_bot_are_recorded_and_replay() {
    if !have_python() {
        return;
    }
    let tmp = tmp_dir("twenty");
    let dir = tmp.path();
    let out = dir.join("games.jsonl");
    let t = Instant::now();
    let (run, records) = play(
        &[
            "--engine",
            "builtin:greedy",
            "--engine",
            RANDOM_BOT,
            "--games",
            "20",
            "--movetime",
            "100",
            "--concurrency",
            "2",
        ],
        &[],
        &out,
    );
    eprintln!("20 games against the UCC random bot in {:?}", t.elapsed());
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // One clear note that the UCC rules are played.
    let notes: Vec<&str> = run.stderr.lines().filter(|l| l.starts_with("note:")).collect();
    assert_eq!(notes.len(), 1, "{}", run.stderr);
    assert!(
        notes[0].contains(RANDOM_BOT) && notes[0].contains("two-squares"),
        "{}",
        notes[0]
    );
    assert_eq!(records.len(), 20, "{}", run.stderr);
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for (i, r) in records.iter().enumerate() {
        assert_eq!(game_of(r), i);
        assert!(!r.meta.contains_key("forfeit"), "game {i}: {:?}", r.meta);
        assert_eq!(r.variant, "classic");
        assert_eq!((r.rules.two_squares, r.rules.more_squares), (None, false));
        assert!(!r.moves.is_empty());
        let end = r.result.expect("finished");
        let greedy = colour_of(r, "builtin:greedy");
        match end.winner {
            None => draws += 1,
            Some(c) if c == greedy => wins += 1,
            Some(_) => losses += 1,
        }
    }
    // The summary agrees with the records.
    let summary = format!("W/D/L {wins}/{draws}/{losses}");
    assert!(run.stdout.contains(&summary), "want '{summary}' in:\n{}", run.stdout);
    // The bot chose its own setups: a random bot's 20 setups are all different.
    let bot_setups: std::collections::BTreeSet<String> = records
        .iter()
        .map(|r| match colour_of(r, RANDOM_BOT) {
            Color::Red => r.red_setup.clone(),
            Color::Blue => r.blue_setup.clone(),
        })
        .collect();
    assert_eq!(bot_setups.len(), 20);
    check_replay(&out);
}

#[test]
fn marshal_plays_a_ucc_bot() {
    if !have_python() {
        return;
    }
    let tmp = tmp_dir("engine");
    let dir = tmp.path();
    let out = dir.join("games.jsonl");
    let (run, records) = play(
        &[
            "--engine",
            "marshal",
            "--engine",
            RANDOM_BOT,
            "--games",
            "2",
            "--movetime",
            "20",
            "--concurrency",
            "2",
        ],
        &[],
        &out,
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(records.len(), 2, "{}", run.stderr);
    for r in &records {
        assert!(!r.meta.contains_key("forfeit"), "{:?}", r.meta);
        assert!(r.result.is_some());
    }
    check_replay(&out);
}

/// Two games (the bot once as Red, once as Blue) of `builtin:random` against the faulty
/// bot with `UCC_FAULT=fault`: the bot loses both by `reason`, recorded with text that
/// contains all of `words`.
fn faulty(fault: &str, reason: EndReason, words: &[&str]) {
    if !have_python() {
        return;
    }
    let tmp = tmp_dir(fault);
    let dir = tmp.path();
    let out = dir.join("games.jsonl");
    let (run, records) = play(
        &[
            "--engine",
            "builtin:random",
            "--engine",
            FAULTY_BOT,
            "--games",
            "2",
            "--movetime",
            "50",
        ],
        &[("UCC_FAULT", fault)],
        &out,
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(records.len(), 2, "{}", run.stderr);
    for r in &records {
        let bot = colour_of(r, FAULTY_BOT);
        let end = r.result.expect("finished");
        assert_eq!((end.winner, end.reason), (Some(bot.flip()), reason), "{:?}", r.meta);
        let why = r.meta.get("forfeit").expect("the reason is recorded");
        assert!(why.starts_with(&format!("{bot}: ")), "{why}");
        for w in words {
            assert!(why.contains(w), "'{w}' not in '{why}'");
        }
    }
    assert!(run.stdout.contains("W/D/L 2/0/0"), "{}", run.stdout);
    check_replay(&out);
}

#[test]
fn a_bot_answering_garbage_forfeits() {
    faulty("garbage", EndReason::Forfeit, &["garbage", "'hello there'"]);
}

#[test]
fn a_bot_moving_its_flag_forfeits() {
    faulty("illegal", EndReason::Forfeit, &["illegal move", "Flag"]);
}

#[test]
fn a_hung_bot_loses_on_time() {
    let t = Instant::now();
    faulty("hang", EndReason::Forfeit, &["time forfeit", "no move within"]);
    assert!(
        t.elapsed().as_secs() < 20,
        "a hung bot held the match for {:?}",
        t.elapsed()
    );
}

#[test]
fn a_bad_setup_forfeits_naming_the_line() {
    faulty(
        "badsetup",
        EndReason::Forfeit,
        &["garbage", "bad setup: setup line", "one Flag ('F') too many"],
    );
}

#[test]
fn a_crashing_bot_forfeits_with_its_last_words() {
    faulty("crash", EndReason::Forfeit, &["crash", "giving up on purpose"]);
}

#[test]
fn surrender_is_a_resignation() {
    faulty("surrender", EndReason::Resignation, &["SURRENDER"]);
}

#[test]
fn bad_programs_and_variants_are_refused() {
    let tmp = tmp_dir("refused");
    let dir = tmp.path();
    let plain = dir.join("not_executable");
    std::fs::write(&plain, "#!/bin/sh\n").unwrap();
    let plain_spec = format!("ucc:{}", plain.display());
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (
            vec!["--engine", "marshal", "--engine", "ucc:tests/ucc/no_such_bot"],
            vec!["ucc:tests/ucc/no_such_bot", "cannot use"],
        ),
        (
            vec!["--engine", &plain_spec, "--engine", "marshal"],
            vec![&plain_spec, "not executable"],
        ),
        (
            vec!["--engine", "ucc:tests/ucc", "--engine", "marshal"],
            vec!["ucc:tests/ucc", "not a file"],
        ),
        (vec!["--engine", "ucc:", "--engine", "marshal"], vec!["path"]),
        (
            vec!["--engine", "marshal", "--engine", RANDOM_BOT, "--variant", "duel"],
            vec![RANDOM_BOT, "classic"],
        ),
        (
            vec![
                "--engine",
                "marshal",
                "--engine",
                RANDOM_BOT,
                "--rule",
                "silent-defence=on",
            ],
            vec![RANDOM_BOT, "silent-defence"],
        ),
    ];
    for (args, words) in cases {
        let mut all = vec!["match", "--games", "2"];
        all.extend(args.iter().copied());
        let run = marshal(&all, &[]);
        assert_eq!(run.code, 2, "{args:?} should be refused:\n{}{}", run.stdout, run.stderr);
        let first = run.stderr.lines().next().unwrap_or_default();
        assert!(first.starts_with("marshal: "), "{args:?}: {}", run.stderr);
        for w in words {
            assert!(first.contains(w), "{args:?}: '{w}' not in '{first}'");
        }
        assert!(!run.stderr.contains("game 1/"), "{args:?} played a game");
    }
}
