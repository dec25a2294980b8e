//! What every tool driver does around its tool: a fresh scratch folder with the sources copied in
//! (the WebAssembly Yosys reads only inside the folder it runs in, [`crate::tools::yosys`]), and
//! a child process started with a clear error when the program is missing and waited for up to a
//! deadline.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus};
use std::time::{Duration, Instant};

use anyhow::Context as _;

/// Removes `dir` with everything in it, when it exists, and creates it empty.
pub fn fresh(dir: &Path) -> anyhow::Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).with_context(|| format!("cannot clear {}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))
}

/// Copies `sources` into `work` under their file names; returns those names, in order.
pub fn copy_sources(sources: &[PathBuf], work: &Path) -> anyhow::Result<Vec<String>> {
    let mut files = Vec::new();
    for source in sources {
        let name = source.file_name().with_context(|| format!("{} is not a file", source.display()))?;
        std::fs::copy(source, work.join(name)).with_context(|| format!("cannot copy {}", source.display()))?;
        files.push(name.to_string_lossy().into_owned());
    }
    Ok(files)
}

/// Starts `command`, which runs `program`; a missing program is an error ending in `install_hint`
/// (the command that installs it).
pub fn spawn(command: &mut Command, program: &OsStr, install_hint: impl FnOnce() -> String) -> anyhow::Result<Child> {
    match command.spawn() {
        Ok(child) => Ok(child),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            anyhow::bail!("`{}` was not found: {}", program.to_string_lossy(), install_hint())
        }
        Err(e) => Err(e).with_context(|| format!("cannot run {}", program.to_string_lossy())),
    }
}

/// Waits for `child` to exit; None once `deadline` has passed with it still running (the caller
/// stops it).
pub fn wait(child: &mut Child, deadline: Option<Instant>) -> anyhow::Result<Option<ExitStatus>> {
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        if deadline.is_some_and(|d| Instant::now() > d) {
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
