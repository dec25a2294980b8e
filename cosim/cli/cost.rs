//! `gcn-vmem cost` (SPEC §13.2): every stdin line through the cost model (SPEC §8), one JSON
//! cost per stdout line; a bad line gets {"error": …}.

use std::io::{BufRead, Write};

use anyhow::Context as _;
use serde_json::{json, Value};

/// Whether every line was good.
pub fn run() -> anyhow::Result<bool> {
    let mut stdout = std::io::stdout().lock();
    let mut ok = true;
    for (n, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line.context("reading stdin")?;
        if line.trim().is_empty() {
            continue;
        }
        let reply = match gcn_vmem::model::cost::json::evaluate(&line) {
            Ok(map) => Value::Object(map),
            Err(e) => {
                ok = false;
                json!({ "error": format!("line {}: {e}", n + 1) })
            }
        };
        writeln!(stdout, "{reply}")?;
        stdout.flush()?;
    }
    Ok(ok)
}
