//! Golden protocol transcripts: every `tests/transcripts/<name>.in` is fed to `marshal`
//! and its stdout, with the timing fields scrubbed, must equal `<name>.out`.
//!
//! The input is fed like a GUI feeds it: line by line, and after a `go` line (other than
//! `go infinite`) nothing more is sent until its `bestmove` (or its one
//! `info string error go...` rejection) has been read, so that no later line stops the
//! search early. Searches use `go nodes` / `go depth` and a fixed `Seed`, so the output
//! is deterministic once the values after `nps` and `time` (in `info depth` lines) and
//! after `time_ms` and `nps` (perft and bench summaries) are replaced by `X`. Every
//! transcript is run twice and both runs must agree.
//!
//! After a deliberate change of the output, regenerate the `.out` files with
//! `MARSHAL_BLESS=1 cargo test --release --test suite -- transcripts::` and read the diff.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// How long any one answer may take before the transcript fails.
const TIMEOUT: Duration = Duration::from_secs(60);

fn transcript_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts")
}

/// Is `line` a `go` that answers with `bestmove` without needing a `stop`?
fn is_finite_go(line: &str) -> bool {
    let mut toks = line.split_whitespace();
    toks.next() == Some("go") && !toks.any(|t| t == "infinite")
}

/// Runs `marshal` on `input` (GUI-style, see the module comment); returns its stdout lines.
fn run(input: &str) -> Result<Vec<String>, String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_marshal"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start marshal: {e}"))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let (tx, rx) = mpsc::channel::<String>();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let mut out = Vec::new();
    for line in input.lines() {
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("writing '{line}': {e}"))?;
        if is_finite_go(line) {
            loop {
                let got = rx
                    .recv_timeout(TIMEOUT)
                    .map_err(|e| format!("no answer to '{line}': {e}; output so far:\n{}", out.join("\n")))?;
                let done = got.starts_with("bestmove") || got.starts_with("info string error go");
                out.push(got);
                if done {
                    break;
                }
            }
        }
    }
    drop(stdin);
    while let Ok(line) = rx.recv_timeout(TIMEOUT) {
        out.push(line);
    }
    let _ = reader.join();
    let status = child.wait().map_err(|e| format!("waiting for marshal: {e}"))?;
    if !status.success() {
        return Err(format!("marshal exited with {status}; output:\n{}", out.join("\n")));
    }
    Ok(out)
}

/// Replaces the timing-dependent values with `X`.
fn scrub(line: &str) -> String {
    let keys: &[&str] = if line.starts_with("info ") && !line.starts_with("info string") {
        &["nps", "time"]
    } else if line.contains(" time_ms ") {
        &["time_ms", "nps"]
    } else {
        return line.to_string();
    };
    let toks: Vec<&str> = line.split(' ').collect();
    let mut out: Vec<&str> = Vec::with_capacity(toks.len());
    for (i, t) in toks.iter().enumerate() {
        if i > 0 && keys.contains(&toks[i - 1]) {
            out.push("X");
        } else {
            out.push(t);
        }
    }
    out.join(" ")
}

/// A line diff of `want` and `got` (longest common subsequence): `-` lines are expected
/// but missing, `+` lines are printed but not expected, with two lines of context.
fn diff(want: &[String], got: &[String]) -> String {
    let (n, m) = (want.len(), got.len());
    let mut lcs = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if want[i] == got[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut ops: Vec<(char, &str)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && want[i] == got[j] {
            ops.push((' ', &want[i]));
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
            ops.push(('-', &want[i]));
            i += 1;
        } else {
            ops.push(('+', &got[j]));
            j += 1;
        }
    }
    let near_change = |k: usize| {
        ops[k.saturating_sub(2)..(k + 3).min(ops.len())]
            .iter()
            .any(|o| o.0 != ' ')
    };
    let mut text = String::new();
    let mut skipped = false;
    for (k, (op, line)) in ops.iter().enumerate() {
        if near_change(k) {
            if skipped {
                text.push_str("  ...\n");
                skipped = false;
            }
            text.push_str(&format!("{op} {line}\n"));
        } else {
            skipped = true;
        }
    }
    if skipped {
        text.push_str("  ...\n");
    }
    text
}

fn lines_of(text: &str) -> Vec<String> {
    text.lines().map(str::to_string).collect()
}

/// Checks one transcript; `Err` holds a readable report.
fn check(input_path: &Path) -> Result<(), String> {
    let name = input_path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("?")
        .to_string();
    let input = std::fs::read_to_string(input_path).map_err(|e| format!("{name}: {e}"))?;
    let first: Vec<String> = run(&input)
        .map_err(|e| format!("{name}: {e}"))?
        .iter()
        .map(|l| scrub(l))
        .collect();
    let second: Vec<String> = run(&input)
        .map_err(|e| format!("{name}: {e}"))?
        .iter()
        .map(|l| scrub(l))
        .collect();
    if first != second {
        return Err(format!(
            "{name}: two runs differ (not deterministic); first run -, second run +:\n{}",
            diff(&first, &second)
        ));
    }
    let out_path = input_path.with_extension("out");
    if std::env::var_os("MARSHAL_BLESS").is_some() {
        let mut text = first.join("\n");
        text.push('\n');
        std::fs::write(&out_path, text).map_err(|e| format!("{name}: writing {}: {e}", out_path.display()))?;
        return Ok(());
    }
    let want = std::fs::read_to_string(&out_path)
        .map_err(|e| format!("{name}: {}: {e} (MARSHAL_BLESS=1 writes it)", out_path.display()))?;
    let want = lines_of(&want);
    if want != first {
        return Err(format!(
            "{name}: output differs from {} (expected -, printed +):\n{}",
            out_path.display(),
            diff(&want, &first)
        ));
    }
    Ok(())
}

#[test]
fn transcripts_match_golden_output() {
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(transcript_dir())
        .expect("tests/transcripts exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "in"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 3, "expected the transcripts, found {inputs:?}");
    let failures: Vec<String> = inputs.iter().filter_map(|p| check(p).err()).collect();
    assert!(
        failures.is_empty(),
        "{} of {} transcripts failed:\n\n{}",
        failures.len(),
        inputs.len(),
        failures.join("\n\n")
    );
}

#[test]
fn scrub_replaces_timing_values() {
    assert_eq!(
        scrub("info depth 3 nodes 9808 nps 4904000 time 2 score 34 pv e5e6"),
        "info depth 3 nodes 9808 nps X time X score 34 pv e5e6"
    );
    assert_eq!(scrub("nodes 140 time_ms 0 nps 140000"), "nodes 140 time_ms X nps X");
    assert_eq!(
        scrub("bench nodes 5 time_ms 7 nps 714"),
        "bench nodes 5 time_ms X nps X"
    );
    assert_eq!(scrub("info string time 5 nps 3"), "info string time 5 nps 3");
    assert_eq!(scrub("bestmove e4e5"), "bestmove e4e5");
}

#[test]
fn diff_shows_changed_lines() {
    let a = lines_of("a\nb\nc\nd\ne\nf\ng\nh");
    let b = lines_of("a\nb\nc\nD\ne\nf\ng\nh");
    assert_eq!(diff(&a, &b), "  ...\n  b\n  c\n- d\n+ D\n  e\n  f\n  ...\n");
}

/// The transcripts printed in protocol.md section 4 are those of the golden files: every
/// `>` line there is a line of `<name>.in` and every `<` line one of `<name>.out`, in
/// order (lines ending in `...`, or holding only `...` or a comment in brackets, are
/// elisions; a bracketed comment after three spaces is dropped before comparing).
#[test]
fn protocol_md_transcripts_are_the_golden_ones() {
    let doc = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("protocol.md")).unwrap();
    let mut sections = 0;
    // The section's transcript: its name, the golden input and output, and how far each
    // has been matched.
    type Golden = (String, Vec<String>, Vec<String>, usize, usize);
    let mut golden: Option<Golden> = None;
    let mut problems = Vec::new();
    for line in doc.lines() {
        if line.starts_with("## ") {
            golden = None;
        }
        if line.starts_with("### 4.") {
            let name = line
                .split('`')
                .nth(1)
                .expect("a transcript section names its files")
                .to_string();
            let read = |ext: &str| {
                let text = std::fs::read_to_string(transcript_dir().join(format!("{name}.{ext}"))).unwrap();
                text.lines().map(|l| l.trim_end().to_string()).collect::<Vec<_>>()
            };
            let (input, output) = (read("in"), read("out"));
            golden = Some((name, input, output, 0, 0));
            sections += 1;
            continue;
        }
        let Some((name, input, output, at_in, at_out)) = golden.as_mut() else {
            continue;
        };
        let (lines, at, body) = if let Some(b) = line.strip_prefix("    > ") {
            (&*input, at_in, b)
        } else if line == "    >" {
            (&*input, at_in, "")
        } else if let Some(b) = line.strip_prefix("    < ") {
            (&*output, at_out, b)
        } else {
            continue;
        };
        let body = match body.find("   (") {
            Some(k) if body.trim_end().ends_with(')') => &body[..k],
            _ => body,
        }
        .trim_end();
        let elided =
            body.trim_start().starts_with("...") || body.trim_start().starts_with('(') || body.ends_with("...");
        if elided || (body.is_empty() && !std::ptr::eq(lines, input)) {
            continue;
        }
        // "first items, ... (N pieces)": the line starts with the items shown.
        let body = body.find("... (").map_or(body, |k| &body[..k]).to_string();
        let found = lines[*at..].iter().position(|l| {
            if body.ends_with(", ") {
                l.starts_with(body.as_str())
            } else {
                *l == body
            }
        });
        match found {
            Some(k) => *at += k + 1,
            None => problems.push(format!("{name}: not in the golden file (in order): {body}")),
        }
    }
    assert_eq!(sections, 4, "protocol.md section 4 has four transcripts");
    assert!(
        problems.is_empty(),
        "protocol.md section 4 differs from tests/transcripts:\n{}",
        problems.join("\n")
    );
}
