//! The `marshal` engine child process of one game: protocol lines in on stdin, answers
//! out on stdout, with deadlines (through `marshal::process`, the one child driver).

use marshal::process::{Process, ReadError, Stderr};
use std::path::PathBuf;
use std::process::{Child, Command};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The argument that makes this program the engine itself (see `engine_command`).
pub const SELF_ENGINE: &str = "--protocol-engine";

/// The engine to start: MARSHAL_BIN, else `marshal` next to this executable, else this
/// program with `--protocol-engine`, which runs the same library's protocol loop (so that
/// `cargo run --bin marshal-web` in a fresh clone, which builds no `marshal`, can play).
pub fn engine_command() -> (PathBuf, Vec<String>) {
    if let Some(p) = std::env::var_os("MARSHAL_BIN").filter(|p| !p.is_empty()) {
        return (p.into(), Vec::new());
    }
    if let Ok(exe) = std::env::current_exe() {
        let beside = exe.with_file_name(format!("marshal{}", std::env::consts::EXE_SUFFIX));
        if beside.is_file() {
            return (beside, Vec::new());
        }
        return (exe, vec![SELF_ENGINE.to_string()]);
    }
    (PathBuf::from("marshal"), Vec::new())
}

/// The engine command as one line for `sh -c` (quoted), as `marshal match` runs engines.
pub fn engine_shell_command() -> String {
    let (path, args) = engine_command();
    let quote = |s: &str| format!("'{}'", s.replace('\'', "'\\''"));
    let mut line = quote(&path.display().to_string());
    for a in args {
        line.push(' ');
        line.push_str(&quote(&a));
    }
    line
}

/// A running engine, driven through the library's one child-process driver.
pub struct Engine {
    process: Process,
}

impl Engine {
    pub fn start() -> Result<Engine, String> {
        let (path, args) = engine_command();
        let mut cmd = Command::new(&path);
        cmd.args(&args);
        let process = Process::start(cmd, Stderr::Null)
            .map_err(|e| format!("cannot start the engine '{}': {e}", path.display()))?;
        Ok(Engine { process })
    }

    /// The handle the watchdog kills through.
    pub fn handle(&self) -> Arc<Mutex<Child>> {
        self.process.child_handle()
    }

    pub fn send(&mut self, line: &str) -> Result<(), String> {
        tracing::debug!("engine< {line}");
        self.process
            .send(line)
            .map_err(|e| format!("the engine stopped (cannot write to it: {e})"))
    }

    /// The next line, waiting until `deadline`.
    pub fn recv(&self, deadline: Instant) -> Result<String, String> {
        match self.process.read_line(Some(deadline)) {
            Ok(l) => {
                tracing::debug!("engine> {l}");
                Ok(l)
            }
            Err(ReadError::Timeout) => Err("the engine did not answer in time".into()),
            Err(ReadError::Closed) => Err("the engine stopped (it closed its output)".into()),
        }
    }

    /// Reads lines until one starts with `prefix`; an error line from the engine is an error.
    pub fn expect(&self, prefix: &str, deadline: Instant) -> Result<String, String> {
        loop {
            let l = self.recv(deadline)?;
            if l.starts_with(prefix) {
                return Ok(l);
            }
            if l.starts_with("info string error") {
                return Err(format!("the engine refused a line: {l}"));
            }
        }
    }

    /// Whether the process has ended (it is reaped here, so no zombie stays).
    pub fn dead(&self) -> bool {
        self.process.has_exited()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.process.stop(Some("quit"), Duration::from_millis(300));
    }
}
