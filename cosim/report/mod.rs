//! Reports of finished runs for people and CI: the timing diagram around a mismatch ([`svg`]),
//! where a pipeline run's cycles went ([`timeline`]),
//! JUnit XML ([`junit`]), the functional-coverage verdict ([`bins`]) and Verilator's
//! line/toggle coverage ([`coverage`]), and a run's results as a file and the merge of a run's
//! shards ([`results`]). (The waveforms a failing run writes are the engine's:
//! [`crate::engine::wave`].)

pub mod bins;
pub mod coverage;
pub mod junit;
pub mod results;
pub mod svg;
pub mod timeline;

use std::path::Path;

/// Checks before a run that the report the option `option` names can be written at `path` (its
/// folder is created), so a bad path fails at once rather than after the run; `what` names the
/// report in the error.
fn check_writable(path: &Path, option: &str, what: &str) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("cannot create {} for {option}: {e}; choose another path", dir.display()))?;
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map(drop)
        .map_err(|e| anyhow::anyhow!("cannot write {what} {}: {e}; choose another path", path.display()))
}

/// `text` escaped for XML content and attribute values: the five markup characters become
/// entities, and the control characters XML 1.0 cannot hold even escaped (those below U+0020 but
/// tab, newline and carriage return) become `invalid`.
pub(crate) fn escape_xml(text: &str, invalid: char) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 => out.push(invalid),
            c => out.push(c),
        }
    }
    out
}
