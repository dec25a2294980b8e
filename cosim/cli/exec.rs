//! `gcn-vmem exec` (SPEC §13.1): runs a wave's program and prints the state it changed.

use std::path::PathBuf;

use anyhow::Context as _;

use gcn_vmem::exec::program;

#[derive(clap::Args)]
pub struct Args {
    file: PathBuf,
    /// Per-lane work on the Verilated RTL.
    #[arg(long, conflicts_with_all = ["both", "model"])]
    rtl: bool,
    /// Per-lane work on model and RTL in lockstep; a difference is an error.
    #[arg(long, conflicts_with = "model")]
    both: bool,
    /// Per-lane work on the Rust models (the default).
    #[arg(long)]
    model: bool,
}

/// Ok(false) with `{"error": …}` printed when an instruction cannot run or model and RTL part.
pub fn run(args: Args) -> anyhow::Result<bool> {
    let Args { file, rtl, both, model: _ } = args;
    let text = if file.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).context("reading stdin")?
    } else {
        std::fs::read_to_string(&file).with_context(|| format!("cannot read {}", file.display()))?
    };
    let mode = if both {
        program::Mode::Both
    } else if rtl {
        program::Mode::Rtl
    } else {
        program::Mode::Model
    };
    let (value, ok) = match program::execute(&text, mode) {
        Ok(v) => (v, true),
        Err(e) => (e, false),
    };
    println!("{value}");
    Ok(ok)
}
