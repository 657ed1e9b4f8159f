//! `ucc:<path>` players: an AI program of the UCC 2012 Stratego manager (started with no
//! arguments, as the manager does) playing under our arbiter. It speaks the manager's
//! protocol (its manual, `web/doc/manager_manual.txt` of `ucc/progcomp2012`; translation in `crate::ucc`), chooses its own
//! setup, and loses by a fault when it answers late, wrongly or illegally, like `Engine`.

use super::{board_rows, colour_name, move_from_ucc, move_to_ucc, setup_from_rows, Outcome};
use crate::player::{Clock, Fault, GameStart, Player};
use crate::process::{Process, ReadError, Stderr};
use crate::rules::view::ObservedMove;
use crate::rules::{Color, Move, Position, Rules, Setup, Variant};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The `--engine` prefix of a UCC AI.
pub const PREFIX: &str = "ucc:";

/// How long the program may take to start and send its setup (the manager allows 2 s; a
/// little more here for slow interpreters on a busy machine).
const SETUP_TIMEOUT: Duration = Duration::from_secs(10);

/// Lines of the program's stderr kept to explain a crash.
const STDERR_LINES: usize = 4;

/// A UCC 2012 AI program.
pub struct UccPlayer {
    /// The program as given after `ucc:`.
    path: String,
    process: Option<Process>,
    color: Color,
    setup: Option<Setup>,
    attacker_advantage: bool,
    /// How many moves of the game the program has been told.
    told: usize,
    /// Its last move as it sent it: the manager echoes it back with the outcome.
    last_reply: String,
}

impl UccPlayer {
    /// `spec` is `ucc:<path>`.
    pub fn new(spec: &str) -> UccPlayer {
        UccPlayer {
            path: spec.strip_prefix(PREFIX).unwrap_or(spec).to_string(),
            process: None,
            color: Color::Red,
            setup: None,
            attacker_advantage: false,
            told: 0,
            last_reply: String::new(),
        }
    }

    fn spawn(&mut self) -> Result<(), Fault> {
        let program = program_path(&self.path).map_err(Fault::Crash)?;
        let process = Process::start(Command::new(&program), Stderr::Keep(STDERR_LINES))
            .map_err(|e| Fault::Crash(format!("cannot start '{}': {e}", self.path)))?;
        self.process = Some(process);
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        let p = self
            .process
            .as_mut()
            .ok_or_else(|| Fault::Crash("not running".into()))?;
        if let Err(e) = p.send(line) {
            return Err(self.crash(format!("cannot write to it: {e}")));
        }
        Ok(())
    }

    /// A crash fault, with the last lines the program wrote to stderr.
    fn crash(&self, what: String) -> Fault {
        let tail = self.process.as_ref().map(|p| p.stderr_tail()).unwrap_or_default();
        if tail.is_empty() {
            Fault::Crash(what)
        } else {
            Fault::Crash(format!("{what} (its stderr: {})", tail.join(" / ")))
        }
    }

    /// The next line the program writes, by `deadline` (`allowed` after it was asked);
    /// `what` says what was asked for.
    fn read(&mut self, deadline: Instant, allowed: Duration, what: &str) -> Result<String, Fault> {
        let p = self
            .process
            .as_ref()
            .ok_or_else(|| Fault::Crash("not running".into()))?;
        match p.read_line(Some(deadline)) {
            Ok(l) => Ok(l.trim_end().to_string()),
            Err(ReadError::Timeout) => Err(Fault::Timeout(format!("no {what} within {} ms", allowed.as_millis()))),
            Err(ReadError::Closed) => Err(self.crash(format!("it closed its output before its {what}"))),
        }
    }
}

impl Player for UccPlayer {
    fn own_setup(&mut self, variant: &Variant, color: Color, opponent: &str) -> Result<Option<Setup>, Fault> {
        if *variant != Variant::CLASSIC {
            return Err(Fault::Crash(format!(
                "a UCC AI plays only the classic variant, not {}",
                variant.name()
            )));
        }
        self.color = color;
        self.spawn()?;
        self.send(&format!("{} {} 10 10", colour_name(color), program_name(opponent)))?;
        let deadline = Instant::now() + SETUP_TIMEOUT;
        let mut rows = Vec::with_capacity(4);
        for i in 0..4 {
            rows.push(self.read(deadline, SETUP_TIMEOUT, &format!("setup line {}", i + 1))?);
        }
        let setup = setup_from_rows(&rows, color).map_err(|e| Fault::Garbage(format!("bad setup: {e}")))?;
        self.setup = Some(setup.clone());
        Ok(Some(setup))
    }

    fn start(&mut self, game: &GameStart) -> Result<(), Fault> {
        if self.process.is_none() {
            self.own_setup(&game.variant, game.color, "unknown")?;
        }
        if self.color != game.color || self.setup.as_ref() != Some(&game.setup) {
            return Err(Fault::Crash("the arbiter did not play the AI's own setup".into()));
        }
        self.attacker_advantage = game.rules.attacker_advantage;
        Ok(())
    }

    fn choose(&mut self, view: &Position, observed: &[ObservedMove], clock: Clock) -> Result<Move, Fault> {
        let allowed = clock.deadline(self.color);
        let deadline = Instant::now() + allowed;
        let mut message = Vec::new();
        if observed.is_empty() {
            message.push("START".to_string());
        }
        // What happened since its last turn, as the manager tells it: the echo of its own
        // move, then the opponent's move, each with the outcome.
        for (ply, om) in observed.iter().enumerate().skip(self.told) {
            let internal = |e: String| Fault::Crash(format!("internal: move {} '{om}': {e}", ply + 1));
            let mv = om.mv;
            let outcome = Outcome::of_observed(om, self.attacker_advantage).map_err(internal)?;
            let mover = if ply % 2 == 0 { Color::Red } else { Color::Blue };
            let text = if mover == self.color && !self.last_reply.is_empty() {
                self.last_reply.clone()
            } else {
                move_to_ucc(mv).map_err(internal)?
            };
            message.push(format!("{text} {outcome}"));
        }
        self.told = observed.len();
        message.extend(board_rows(view, self.color));
        for line in &message {
            self.send(line)?;
        }
        let line = self.read(deadline, allowed, "move")?;
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens == ["SURRENDER"] {
            return Err(Fault::Resigned("SURRENDER".into()));
        }
        if tokens.len() < 3 {
            return Err(Fault::Garbage(format!(
                "'{line}' is neither 'x y DIR [n]' nor SURRENDER"
            )));
        }
        let (mv, used) = move_from_ucc(&tokens).map_err(|e| Fault::Garbage(format!("'{line}': {e}")))?;
        if used != tokens.len() {
            return Err(Fault::Garbage(format!("'{line}': not 'x y DIR [n]'")));
        }
        if let Some(reason) = view.illegal_reason(mv) {
            return Err(Fault::Illegal(format!("'{line}' ({mv}): {reason}")));
        }
        self.last_reply = tokens.join(" ");
        Ok(mv)
    }

    fn finish(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.stop(Some("QUIT"), Duration::from_millis(500));
        }
    }
}

/// The program to start for the path after `ucc:`: it must be an executable file. A bare
/// name means the file in the current folder (as the manager takes it), not one on PATH.
pub fn program_path(path: &str) -> Result<PathBuf, String> {
    if path.is_empty() {
        return Err("give the AI program's path after 'ucc:', e.g. ucc:./bots/mybot".into());
    }
    let p = Path::new(path);
    let meta = std::fs::metadata(p).map_err(|e| format!("cannot use '{path}': {e}"))?;
    if !meta.is_file() {
        return Err(format!("'{path}' is not a file"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if meta.permissions().mode() & 0o111 == 0 {
            return Err(format!("'{path}' is not executable (chmod +x {path})"));
        }
    }
    Ok(if p.is_absolute() || p.components().count() > 1 {
        p.to_path_buf()
    } else {
        Path::new(".").join(p)
    })
}

/// A player's name as one word for the colour line (`RED <opponent> 10 10`): the program's
/// path for a UCC AI, the `--engine` text otherwise.
fn program_name(spec: &str) -> String {
    let name: String = spec
        .strip_prefix(PREFIX)
        .unwrap_or(spec)
        .chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect();
    if name.is_empty() {
        "unknown".into()
    } else {
        name
    }
}

/// The rules of a match with `ucc:` players among `engines`: their programs must be
/// executable files, the variant classic, and the rules the UCC 2012 manager's (the
/// two-squares and more-squares rules are switched off; other rule options are refused).
/// Returns the rules and a note for the user, or `None` when no player is a UCC AI.
pub fn match_rules(engines: &[&str], variant: &Variant, rules: Rules) -> Result<Option<(Rules, String)>, String> {
    let ucc: Vec<&str> = engines.iter().copied().filter(|e| e.starts_with(PREFIX)).collect();
    let Some(first) = ucc.first() else {
        return Ok(None);
    };
    for spec in &ucc {
        program_path(&spec[PREFIX.len()..]).map_err(|e| format!("--engine {spec}: {e}"))?;
    }
    if *variant != Variant::CLASSIC {
        return Err(format!(
            "--engine {first}: UCC 2012 AIs play only the classic variant, not {}",
            variant.name()
        ));
    }
    for (on, name) in [
        (rules.attacker_advantage, "attacker-advantage"),
        (rules.silent_defence, "silent-defence"),
        (rules.rescue, "rescue"),
    ] {
        if on {
            return Err(format!(
                "--engine {first}: UCC 2012 AIs play classic combat only; drop --rule {name}=on"
            ));
        }
    }
    let played = Rules {
        two_squares: None,
        more_squares: false,
        ..rules
    };
    let note = format!(
        "note: {} {} UCC 2012 AI: playing classic with the two-squares and more-squares rules off (the UCC manager has no repetition rules)",
        ucc.join(" and "),
        if ucc.len() > 1 { "are" } else { "is a" }
    );
    Ok(Some((played, note)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ucc_matches_are_classic_without_repetition_rules() {
        let classic = Variant::CLASSIC;
        assert_eq!(
            match_rules(&["marshal", "builtin:greedy"], &classic, Rules::default()),
            Ok(None)
        );
        let sh = if Path::new("/bin/sh").exists() {
            "ucc:/bin/sh"
        } else {
            return;
        };
        let (r, note) = match_rules(&["marshal", sh], &classic, Rules::default())
            .unwrap()
            .unwrap();
        assert_eq!((r.two_squares, r.more_squares), (None, false));
        assert!(note.contains("/bin/sh") && note.contains("two-squares"), "{note}");
        let duel = Variant::parse("duel").unwrap();
        let e = match_rules(&["marshal", sh], &duel, Rules::default()).unwrap_err();
        assert!(e.contains(sh) && e.contains("classic"), "{e}");
        let silent = Rules {
            silent_defence: true,
            ..Rules::default()
        };
        assert!(match_rules(&[sh, "marshal"], &classic, silent).is_err());
        let e = match_rules(&["ucc:/no/such/bot", "marshal"], &classic, Rules::default()).unwrap_err();
        assert!(e.contains("/no/such/bot"), "{e}");
        assert!(match_rules(&["ucc:", "marshal"], &classic, Rules::default()).is_err());
        assert!(match_rules(&["ucc:/", "marshal"], &classic, Rules::default()).is_err());
    }

    #[test]
    fn names_are_one_word() {
        assert_eq!(program_name("ucc:bots/a b"), "bots/a_b");
        assert_eq!(program_name("builtin:greedy"), "builtin:greedy");
        assert_eq!(program_name(""), "unknown");
    }
}
