//! Work the TUI must not do on its own thread (it draws at 60 frames a second, and a key must
//! never wait on a search through millions of names): each kind of job runs on a thread of its
//! own, and only the newest request's result counts, as gitui's async jobs do. A search typed
//! letter by letter starts one job per letter; the answers to the earlier letters are dropped
//! when they arrive, whatever order they arrive in.

use std::sync::mpsc::{self, Receiver, Sender};

/// One kind of job: requests numbered in order, results kept only for the newest.
pub struct Latest<T> {
    /// The number of the newest request.
    generation: u64,
    /// The number of the newest request whose result was taken (or that is not awaited).
    settled: u64,
    tx: Sender<(u64, T)>,
    rx: Receiver<(u64, T)>,
}

impl<T: Send + 'static> Default for Latest<T> {
    fn default() -> Self {
        let (tx, rx) = mpsc::channel();
        Self {
            generation: 0,
            settled: 0,
            tx,
            rx,
        }
    }
}

impl<T: Send + 'static> Latest<T> {
    /// Starts `work` on a thread of its own; any earlier request's result is void from now on.
    pub fn request(&mut self, work: impl FnOnce() -> T + Send + 'static) {
        self.generation += 1;
        let (n, tx) = (self.generation, self.tx.clone());
        std::thread::spawn(move || {
            // The receiver may be gone (the TUI quit): nothing to do then.
            let _ = tx.send((n, work()));
        });
    }

    /// Whether the newest request's result has yet to be taken.
    pub fn pending(&self) -> bool {
        self.settled < self.generation
    }

    /// The newest request's result, once it has arrived and if not taken yet; the results of
    /// earlier requests are dropped on the way.
    pub fn take(&mut self) -> Option<T> {
        let mut newest = None;
        for (n, result) in self.rx.try_iter() {
            if n == self.generation {
                newest = Some(result);
            }
        }
        if newest.is_some() {
            self.settled = self.generation;
        }
        newest
    }

    /// Waits (at most `timeout`) for the newest request's result: for tests and for callers
    /// that cannot go on without it.
    pub fn wait(&mut self, timeout: std::time::Duration) -> Option<T> {
        let deadline = std::time::Instant::now() + timeout;
        while self.pending() {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.rx.recv_timeout(left) {
                Ok((n, result)) if n == self.generation => {
                    self.settled = n;
                    return Some(result);
                }
                Ok(_) => {}
                Err(_) => return None,
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn only_the_newest_request_counts_whatever_finishes_first() {
        let mut job = Latest::default();
        assert!(!job.pending());
        // The first request is slow and finishes last; the second is the one that counts.
        job.request(|| {
            std::thread::sleep(Duration::from_millis(200));
            "old"
        });
        job.request(|| "new");
        assert!(job.pending());
        assert_eq!(job.wait(Duration::from_secs(5)), Some("new"));
        assert!(!job.pending());
        std::thread::sleep(Duration::from_millis(300));
        // The slow one arrived afterwards and is dropped.
        assert_eq!(job.take(), None);
        assert!(!job.pending());
    }
}
