//! `go searchmoves`: the engine only ever answers with one of the listed root moves, and
//! a list with a bad or illegal move is rejected with one error line that changes nothing.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const SETUP: &str = "B3B4BFB272/54S33B2242/772396486B/556582M362";

/// Feeds `lines` to `marshal` like a GUI (waiting for each `go`'s `bestmove` or error)
/// and returns every output line.
fn run(lines: &[String]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_marshal"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("marshal starts");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel::<String>();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut stdin = child.stdin.take().expect("stdin");
    let mut out = Vec::new();
    for line in lines {
        writeln!(stdin, "{line}").expect("write");
        stdin.flush().expect("flush");
        if line.starts_with("go") {
            loop {
                let got = rx
                    .recv_timeout(Duration::from_secs(60))
                    .unwrap_or_else(|e| panic!("no answer to '{line}': {e}; so far {out:?}"));
                let done = got.starts_with("bestmove") || got.starts_with("info string error");
                out.push(got);
                if done {
                    break;
                }
            }
        }
    }
    drop(stdin);
    while let Ok(l) = rx.recv_timeout(Duration::from_secs(60)) {
        out.push(l);
    }
    reader.join().expect("reader");
    assert!(child.wait().expect("wait").success());
    out
}

fn bestmoves(out: &[String]) -> Vec<String> {
    out.iter()
        .filter_map(|l| l.strip_prefix("bestmove ").map(str::to_string))
        .collect()
}

fn errors(out: &[String]) -> Vec<String> {
    out.iter()
        .filter(|l| l.starts_with("info string error"))
        .cloned()
        .collect()
}

fn start(seed: u64) -> Vec<String> {
    vec![
        format!("setoption name Seed value {seed}"),
        format!("setup red {SETUP}"),
    ]
}

#[test]
fn the_answer_is_always_one_of_the_listed_moves() {
    // Without a restriction the engine prefers some move; restricting it to others must
    // change the answer to one of them, whatever the seed and the limit.
    for seed in 0..6u64 {
        let mut free = start(seed);
        free.push("go depth 3".into());
        let best = bestmoves(&run(&free)).pop().expect("a bestmove");
        let others: Vec<&str> = ["a4a5", "b4b5", "j4j5", "e4e5", "f4f5"]
            .into_iter()
            .filter(|m| *m != best)
            .take(2)
            .collect();
        for limit in ["depth 3", "nodes 3000", "movetime 60"] {
            let mut lines = start(seed);
            lines.push(format!("go {limit} searchmoves {}", others.join(" ")));
            let out = run(&lines);
            assert!(errors(&out).is_empty(), "{out:?}");
            let got = bestmoves(&out);
            assert_eq!(got.len(), 1, "{out:?}");
            assert!(
                others.contains(&got[0].as_str()),
                "seed {seed}, {limit}: {got:?} not in {others:?}"
            );
        }
        // One listed move: it is the answer; the keyword may come before the limits too.
        let mut lines = start(seed);
        lines.push("go searchmoves j4j5 depth 2".into());
        assert_eq!(bestmoves(&run(&lines)), vec!["j4j5".to_string()]);
    }
}

#[test]
fn the_same_restricted_search_repeats() {
    let mut lines = start(9);
    lines.push("go nodes 5000 searchmoves a4a5 e4e5 i4i5".into());
    // The `nps` and `time` values of the `info` lines vary; nothing else may.
    let scrub = |out: Vec<String>| -> Vec<String> {
        out.iter()
            .map(|l| {
                let t: Vec<&str> = l.split(' ').collect();
                (0..t.len())
                    .map(|i| {
                        if i > 0 && (t[i - 1] == "nps" || t[i - 1] == "time") {
                            "X"
                        } else {
                            t[i]
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    let first = scrub(run(&lines));
    assert!(first.iter().any(|l| l.starts_with("info depth")), "{first:?}");
    assert_eq!(first, scrub(run(&lines)));
}

#[test]
fn bad_lists_get_one_error_line_and_change_nothing() {
    let cases = [
        (
            "go depth 2 searchmoves a4a6",
            "go searchmoves: 'a4a6' is not a legal move in this position",
        ),
        (
            "go searchmoves e4e5 e5e6",
            "go searchmoves: 'e5e6' is not a legal move in this position",
        ),
        (
            "go searchmoves",
            "go searchmoves needs at least one move, e.g. 'go searchmoves e4e5'",
        ),
        (
            "go searchmoves depth 2",
            "go searchmoves needs at least one move, e.g. 'go searchmoves e4e5'",
        ),
        ("go searchmoves e4e5 frob", "go searchmoves: 'frob' is not a move"),
    ];
    let mut before = start(3);
    before.push("d".into());
    let reference = run(&before);
    for (line, msg) in cases {
        let mut lines = start(3);
        lines.push(line.into());
        lines.push("d".into());
        let out = run(&lines);
        assert_eq!(errors(&out), vec![format!("info string error {msg}")], "{line}");
        let rest: Vec<String> = out
            .into_iter()
            .filter(|l| !l.starts_with("info string error"))
            .collect();
        assert_eq!(rest, reference, "{line} changed the game");
    }
}
