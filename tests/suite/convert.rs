//! `marshal convert`: the examples in protocol.md are golden tests (each `$ marshal
//! convert ...` line there is run and must print exactly the lines below it), and games
//! survive conversion between records, Gravon files and UCC logs.

use marshal::formats::ucc_log::write as write_ucc_log;
use marshal::formats::{gravon, ucc_log, GameRecord};
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `$ marshal convert` examples of protocol.md: (command, expected output lines).
fn examples() -> Vec<(String, Vec<String>)> {
    let doc = std::fs::read_to_string(repo().join("protocol.md")).expect("protocol.md");
    let lines: Vec<&str> = doc.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let indent = line.len() - line.trim_start().len();
        if let Some(cmd) = line.trim_start().strip_prefix("$ marshal convert ") {
            let mut want = Vec::new();
            i += 1;
            while i < lines.len()
                && !lines[i].trim().is_empty()
                && lines[i].len() - lines[i].trim_start().len() >= indent
                && !lines[i].trim_start().starts_with("$ ")
            {
                want.push(lines[i][indent..].to_string());
                i += 1;
            }
            out.push((format!("convert {cmd}"), want));
        } else {
            i += 1;
        }
    }
    out
}

/// Runs `marshal <args>` through `sh` (the examples quote their arguments as a shell
/// does) in the repository's top folder; stdout and stderr together.
fn run(args: &str) -> Vec<String> {
    let bin = env!("CARGO_BIN_EXE_marshal");
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("'{bin}' {args} 2>&1"))
        .current_dir(repo())
        .output()
        .expect("sh runs");
    lines(&out.stdout)
}

fn lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes).lines().map(str::to_string).collect()
}

#[test]
fn protocol_examples_are_golden() {
    let examples = examples();
    assert!(examples.len() >= 6, "found {} examples", examples.len());
    let mut failures = Vec::new();
    for (cmd, want) in &examples {
        assert!(!want.is_empty(), "{cmd}: no expected output in protocol.md");
        let got = run(cmd);
        if &got != want {
            failures.push(format!(
                "marshal {cmd}\n--- protocol.md\n{}\n--- printed\n{}",
                want.join("\n"),
                got.join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_same_conversions_repeat() {
    for (cmd, _) in examples() {
        assert_eq!(run(&cmd), run(&cmd), "{cmd}");
    }
}

fn same_game(a: &GameRecord, b: &GameRecord, what: &str) {
    assert_eq!(a.variant, b.variant, "{what}: variant");
    assert_eq!(a.red_setup, b.red_setup, "{what}: red setup");
    assert_eq!(a.blue_setup, b.blue_setup, "{what}: blue setup");
    let moves = |g: &GameRecord| g.moves.iter().map(|m| m.mv.clone()).collect::<Vec<_>>();
    assert_eq!(moves(a), moves(b), "{what}: moves");
    let result = |g: &GameRecord| g.replay(None).map(|(_, e)| e).expect("replays");
    assert_eq!(result(a), result(b), "{what}: result");
}

#[test]
fn games_survive_gravon_and_ucc_logs() {
    let mut checked = 0;
    for name in ["classic-flag.xml", "barrage-generated.xml"] {
        let path: &Path = &repo().join("tests/data/gravon").join(name);
        let original = gravon::read(&std::fs::read_to_string(path).unwrap()).unwrap();
        let back = gravon::read(&gravon::write(&original).unwrap()).unwrap();
        same_game(&original, &back, &format!("{name} via Gravon"));
        let log = write_ucc_log(&original).unwrap();
        let mut from_log = ucc_log::read(&log).unwrap_or_else(|e| panic!("{name}: {e}\n{log}"));
        // The manager's log has no variant: a partial army comes back as a custom one.
        if original.variant != "classic" {
            assert!(from_log.variant.starts_with("custom:10x10:"), "{}", from_log.variant);
            from_log.variant = original.variant.clone();
        }
        same_game(&original, &from_log, &format!("{name} via a UCC log"));
        assert!(log.lines().last().unwrap().contains(" VICTORY "), "{log}");
        checked += 1;
    }
    assert_eq!(checked, 2);
}

#[test]
fn bad_input_is_named() {
    assert_eq!(
        run("convert --position 'x y' --to strados3"),
        vec!["marshal: bad --position: a position has 11 fields (variant view board side ply quiet captured rescues trails chase recent), found 2"]
    );
    assert_eq!(
        run("convert tests/data/interrupted.json --to pgn"),
        vec!["marshal: --to 'pgn' is not record, gravon, ucc, position, strados3 or commands"]
    );
    assert_eq!(
        run("convert tests/data/interrupted.json --to commands"),
        vec!["marshal: --to commands needs --side red or --side blue"]
    );
    assert_eq!(
        run("convert tests/data/interrupted.json --to commands --side green"),
        vec!["marshal: --side 'green' is not a colour (red or blue)"]
    );
    assert_eq!(
        run("convert tests/data/interrupted.json --to commands --side red --ply 4"),
        vec!["marshal: --ply 4: the game has 3 plies"]
    );
    assert_eq!(
        run("convert tests/data/interrupted.json --to ucc --ply 2"),
        vec!["marshal: --ply goes with --to commands only"]
    );
    let lake = format!("{}_{} r 0", "A".repeat(40), "A".repeat(59));
    assert_eq!(
        run(&format!("convert --position '{lake}' --to position")),
        vec!["marshal: bad --position: StraDos3 square a5: '_' (lake) on a land square"]
    );
    assert_eq!(
        run("convert tests/data/interrupted.json --game 2 --to ucc"),
        vec!["marshal: --game 2: the file holds 1 game(s)"]
    );
}

#[test]
fn perft_reads_strados3_positions() {
    // The same position in both notations gives the same move-tree counts.
    let strados =
        "FEBMBEFEEFBGIBHIBEDBGJDDDHCGJGDHDLIFKDDHAA__AA__AAAA__AA__AASTPQNSQPTSUPWPVRPXPURNQONNQSNVPTNQRRTYUP r 0";
    let ours = run(&format!("convert --position '{strados}' --to position"));
    assert_eq!(ours.len(), 1, "{ours:?}");
    let counts = |pos: &str| -> Vec<String> {
        run(&format!("perft 3 --position \"{pos}\""))
            .into_iter()
            .filter(|l| !l.starts_with("nodes"))
            .collect()
    };
    let a = counts(strados);
    assert!(a.len() > 5 && a.iter().all(|l| l.contains(": ")), "{a:?}");
    assert_eq!(a, counts(&ours[0]));
}

/// Runs `marshal` (the protocol loop) on `input`; its stdout lines.
fn engine(input: &str) -> Vec<String> {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_marshal"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("marshal runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    lines(&child.wait_with_output().expect("marshal ends").stdout)
}

#[test]
fn commands_bring_the_engine_to_any_ply_from_either_side() {
    // A game record, a UCC log, a barrage game (the enemy's squares matter) and a classic
    // game from Gravon files: at every tenth ply and the last, from both sides, the engine
    // takes the lines without an error and stands at that ply, its own view the same as
    // the game's view of that side.
    for file in [
        "tests/data/interrupted.json",
        "tests/data/interrupted-ucc.log",
        "tests/data/gravon/barrage-generated.xml",
        "tests/data/gravon/classic-flag.xml",
    ] {
        let text = std::fs::read_to_string(repo().join(file)).unwrap();
        let game = marshal::formats::read_games(&text).unwrap().remove(0);
        let n = game.moves.len();
        let mut views = Vec::new();
        game.replay_with(None, |ply, p| {
            if (ply - 1) % 10 == 0 {
                views.push((ply - 1, p.clone()));
            }
        })
        .unwrap();
        views.push((n, game.replay(None).unwrap().0));
        let mut checked = 0;
        for (ply, pos) in &views {
            for side in ["red", "blue"] {
                let lines = run(&format!("convert {file} --to commands --side {side} --ply {ply}"));
                assert!(
                    lines.last().unwrap().starts_with(&format!("position {side} ")),
                    "{file} {ply}: {lines:?}"
                );
                let out = engine(&(lines.join("\n") + "\nd\n"));
                assert!(
                    !out.iter().any(|l| l.contains("error")),
                    "{file} ply {ply} {side}: {out:?}"
                );
                let colour = if side == "red" {
                    marshal::rules::Color::Red
                } else {
                    marshal::rules::Color::Blue
                };
                let want = format!("info string position {}", pos.view(colour).to_text());
                assert!(out.contains(&want), "{file} ply {ply} {side}: {out:?}\nwant {want}");
                checked += 1;
            }
        }
        assert!(checked >= 4, "{file}: {checked}");
    }
}
