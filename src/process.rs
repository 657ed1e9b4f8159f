//! One child process driven line by line: started with piped stdin and stdout, written a
//! line at a time, read a line at a time by a deadline (so a hung program cannot block its
//! caller), the last lines of its stderr kept to explain a crash, and stopped for sure.
//! The arena's engine and UCC players and the `marshal-ucc` adapter all drive their
//! children through it.

use crossbeam_channel::{unbounded, Receiver, RecvTimeoutError};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What becomes of the child's stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stderr {
    /// Thrown away.
    Null,
    /// Shared with ours.
    Inherit,
    /// Read, and its last `n` non-empty lines kept (see [`Process::stderr_tail`]).
    Keep(usize),
}

/// Why no line came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// None by the deadline.
    Timeout,
    /// The child closed its output (it most likely died).
    Closed,
}

/// A running child process.
pub struct Process {
    /// Shared so that a watchdog on another thread can kill it (`child_handle`).
    child: Arc<Mutex<Child>>,
    /// Whether it has been stopped and reaped.
    stopped: bool,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
}

/// Longest stderr line kept, in characters.
const STDERR_LINE_CHARS: usize = 200;

impl Process {
    /// Starts `cmd` with piped stdin and stdout; a thread reads its output lines.
    pub fn start(mut cmd: Command, stderr: Stderr) -> std::io::Result<Process> {
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(match stderr {
            Stderr::Null => Stdio::null(),
            Stderr::Inherit => Stdio::inherit(),
            Stderr::Keep(_) => Stdio::piped(),
        });
        let mut child = cmd.spawn()?;
        let out = child.stdout.take().ok_or_else(|| std::io::Error::other("no stdout"))?;
        let (tx, rx) = unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        if let (Stderr::Keep(keep), Some(err)) = (stderr, child.stderr.take()) {
            let tail = Arc::clone(&stderr_tail);
            std::thread::spawn(move || {
                // Bytes, not lines of UTF-8: a program may write anything there.
                let mut reader = BufReader::new(err);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.by_ref().take(4096).read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let text = String::from_utf8_lossy(&buf).trim_end().to_string();
                            if text.is_empty() {
                                continue;
                            }
                            if let Ok(mut t) = tail.lock() {
                                if t.len() == keep {
                                    t.pop_front();
                                }
                                t.push_back(text.chars().take(STDERR_LINE_CHARS).collect());
                            }
                        }
                    }
                }
            });
        }
        Ok(Process {
            stdin: child.stdin.take(),
            child: Arc::new(Mutex::new(child)),
            stopped: false,
            lines: rx,
            stderr_tail,
        })
    }

    /// Writes one line and flushes.
    pub fn send(&mut self, line: &str) -> std::io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::other("its input is closed"))?;
        writeln!(stdin, "{line}").and_then(|_| stdin.flush())
    }

    /// The next output line (without its line end), waiting until `deadline`, or for ever
    /// when there is none.
    pub fn read_line(&self, deadline: Option<Instant>) -> Result<String, ReadError> {
        match deadline {
            Some(d) => self
                .lines
                .recv_timeout(d.saturating_duration_since(Instant::now()))
                .map_err(|e| match e {
                    RecvTimeoutError::Timeout => ReadError::Timeout,
                    RecvTimeoutError::Disconnected => ReadError::Closed,
                }),
            None => self.lines.recv().map_err(|_| ReadError::Closed),
        }
    }

    /// The last lines the child wrote to stderr (with [`Stderr::Keep`]), oldest first.
    pub fn stderr_tail(&self) -> Vec<String> {
        // The reader may still be taking in the last words of a dying program.
        std::thread::sleep(Duration::from_millis(20));
        self.stderr_tail
            .lock()
            .map(|t| t.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// The child itself, for a watchdog on another thread that may have to kill it.
    pub fn child_handle(&self) -> Arc<Mutex<Child>> {
        Arc::clone(&self.child)
    }

    /// Whether the child has exited (it is reaped here, so no zombie stays). Lines it wrote
    /// before are still there to read.
    pub fn has_exited(&self) -> bool {
        if self.stopped {
            return true;
        }
        match self.child.lock() {
            Ok(mut c) => !matches!(c.try_wait(), Ok(None)),
            Err(_) => true,
        }
    }

    /// Sends `farewell` (if any), closes the child's input and gives it `grace` to exit
    /// before killing it.
    pub fn stop(&mut self, farewell: Option<&str>, grace: Duration) {
        if self.stopped {
            return;
        }
        if let Some(line) = farewell {
            let _ = self.send(line);
        }
        self.stdin = None;
        self.stopped = true;
        let Ok(mut c) = self.child.lock() else { return };
        let deadline = Instant::now() + grace;
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

impl Drop for Process {
    fn drop(&mut self) {
        if self.stopped {
            return;
        }
        if let Ok(mut c) = self.child.lock() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}
