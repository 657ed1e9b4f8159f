//! The search thread: a persistent worker driven over crossbeam channels, stopped through
//! a shared atomic flag that the stdin reader may set directly.

use super::think::{think_with, Info, Limits, SearchResult};
use crate::belief::Belief;
use crate::rules::Position;
use crossbeam_channel::{unbounded, Receiver, Sender};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

/// Work for the search thread.
pub struct Job {
    /// Identifies the search in its reports.
    pub id: u64,
    pub view: Position,
    /// What the engine believes of the hidden ranks in `view`.
    pub belief: Belief,
    /// What the enemy can tell of our unseen ranks in `view`, if followed.
    pub exposure: Option<Belief>,
    pub limits: Limits,
    pub seed: u64,
    /// When the clock started (the `go` line was read).
    pub start: Instant,
}

/// What the search thread sends back.
pub enum Report {
    /// An iteration finished.
    Info { id: u64, info: Info },
    /// The search is over; exactly one per job.
    Done { id: u64, result: SearchResult },
}

/// The engine's handle on the search thread.
pub struct SearchThread {
    jobs: Option<Sender<Job>>,
    reports: Receiver<Report>,
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl SearchThread {
    /// Starts the thread; `stop` is the flag shared with whoever may interrupt searches.
    pub fn spawn(stop: Arc<AtomicBool>) -> SearchThread {
        let (job_tx, job_rx) = unbounded::<Job>();
        let (rep_tx, rep_rx) = unbounded::<Report>();
        let flag = Arc::clone(&stop);
        let handle = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                for job in job_rx.iter() {
                    let id = job.id;
                    let tx = rep_tx.clone();
                    let mut report = |info: &Info| {
                        let _ = tx.send(Report::Info { id, info: info.clone() });
                    };
                    let result = think_with(
                        &job.view,
                        &job.belief,
                        job.exposure.as_ref(),
                        &job.limits,
                        job.start,
                        &flag,
                        job.seed,
                        &mut report,
                    );
                    let _ = rep_tx.send(Report::Done { id, result });
                }
            })
            .ok();
        SearchThread {
            jobs: Some(job_tx),
            reports: rep_rx,
            stop,
            handle,
        }
    }

    /// Starts a search (the stop flag is cleared first).
    pub fn start(&self, job: Job) {
        self.stop.store(false, Ordering::SeqCst);
        if let Some(tx) = &self.jobs {
            let _ = tx.send(job);
        }
    }

    /// Asks a running search to stop.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// The channel of reports.
    pub fn reports(&self) -> &Receiver<Report> {
        &self.reports
    }
}

impl Drop for SearchThread {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.jobs = None; // closes the channel: the thread's loop ends
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}
