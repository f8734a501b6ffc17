//! llama.cpp's own programs that `kgscope bench llama` compares with: finding them, and
//! running llama-server on a free loopback port.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use kgscope::process::Server;
use kgscope::run::config;

/// `llama-server` (what tools/setup.sh builds), else the PyPI package's launcher.
pub(super) fn find_llama_server() -> Option<PathBuf> {
    find_tool(
        "KGSCOPE_LLAMA_SERVER",
        &["llama-server", "llama-cpp-server"],
    )
}

/// A llama.cpp tool: the path `$env` names, else the first of `names` on PATH or in
/// `$KGSCOPE_VENV/bin` (where tools/setup.sh installs them).
pub(super) fn find_tool(env: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(env) {
        return Some(PathBuf::from(p));
    }
    let venv = std::env::var_os("KGSCOPE_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| config::kgscope_home().join("venv"))
        .join("bin");
    let path: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    names.iter().find_map(|name| {
        path.iter()
            .chain(std::iter::once(&venv))
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

/// llama.cpp's server on a free loopback port, killed (with the launcher's children) on drop.
/// Its output goes to a log file, quoted if it dies before it is ready.
pub(super) struct LlamaServer {
    _server: Server,
    port: u16,
    _logs: tempfile::TempDir,
}

impl LlamaServer {
    /// Starts `bin` (the `llama-cpp-server` launcher, whose own flags end at `--`, or a
    /// `llama-server` binary) with the settings kgscope's backend uses: `parallel` slots of
    /// 1024 tokens each, the same threads and offload, the prompt cache on.
    pub(super) fn start(
        bin: &PathBuf,
        model: &PathBuf,
        parallel: usize,
        gpu_layers: u32,
        threads: i32,
        ctx_per_seq: u32,
        flash_attn: Option<bool>,
    ) -> anyhow::Result<Self> {
        let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let logs = tempfile::tempdir()?;
        let mut cmd = Command::new(bin);
        cmd.arg("-m").arg(model).args(["--port", &port.to_string()]);
        if bin.file_name().is_some_and(|n| n == "llama-cpp-server") {
            cmd.arg("--");
        }
        cmd.args([
            "--host",
            "127.0.0.1",
            "-np",
            &parallel.to_string(),
            "-c",
            &(parallel * ctx_per_seq as usize).to_string(),
            "-t",
            &threads.to_string(),
            "-ngl",
            &gpu_layers.to_string(),
        ]);
        if let Some(on) = flash_attn {
            cmd.args(["-fa", if on { "on" } else { "off" }]);
        }
        let mut server = Server::spawn(&mut cmd, &logs.path().join("llama-server.log"))?;
        server.wait_ready(
            &format!("http://127.0.0.1:{port}/health"),
            Duration::from_secs(300),
        )?;
        Ok(Self {
            _server: server,
            port,
            _logs: logs,
        })
    }

    pub(super) fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }
}
