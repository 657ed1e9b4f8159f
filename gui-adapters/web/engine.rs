//! The `marshal` engine child process of one game: protocol lines in on stdin, answers
//! out on stdout (read by a thread into a channel, so that waits have deadlines).

use crossbeam_channel::{unbounded, Receiver, RecvTimeoutError, TryRecvError};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
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

/// A running engine. The child sits behind a shared lock so that the connection's
/// watchdog can kill it while the connection thread waits for the page.
pub struct Engine {
    child: Arc<Mutex<Child>>,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    pub fn start() -> Result<Engine, String> {
        let (path, args) = engine_command();
        let mut child = Command::new(&path)
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start the engine '{}': {e}", path.display()))?;
        let out = child.stdout.take().ok_or("the engine has no stdout")?;
        let stdin = child.stdin.take();
        let (tx, rx) = unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                tracing::debug!("engine> {line}");
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Engine {
            child: Arc::new(Mutex::new(child)),
            stdin,
            lines: rx,
        })
    }

    /// The handle the watchdog kills through.
    pub fn handle(&self) -> Arc<Mutex<Child>> {
        Arc::clone(&self.child)
    }

    pub fn send(&mut self, line: &str) -> Result<(), String> {
        tracing::debug!("engine< {line}");
        let stdin = self.stdin.as_mut().ok_or("the engine is stopped")?;
        writeln!(stdin, "{line}")
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("the engine stopped (cannot write to it: {e})"))
    }

    /// The next line, waiting until `deadline`.
    pub fn recv(&self, deadline: Instant) -> Result<String, String> {
        match self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err("the engine did not answer in time".into()),
            Err(RecvTimeoutError::Disconnected) => Err("the engine stopped (it closed its output)".into()),
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
        if matches!(self.lines.try_recv(), Err(TryRecvError::Disconnected)) {
            return true;
        }
        match self.child.lock() {
            Ok(mut c) => !matches!(c.try_wait(), Ok(None)),
            Err(_) => true,
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        let Ok(mut c) = self.child.lock() else { return };
        let deadline = Instant::now() + Duration::from_millis(300);
        while Instant::now() < deadline {
            if !matches!(c.try_wait(), Ok(None)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = c.kill();
        let _ = c.wait();
    }
}
