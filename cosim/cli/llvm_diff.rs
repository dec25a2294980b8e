//! `gcn-vmem llvm-diff`: the instruction codec against llvm-mc on random valid encodings.

use gcn_vmem::tools::llvm::{self, LlvmMc};

use crate::common::{cores, fresh_seed};

#[derive(clap::Args)]
pub struct Args {
    /// Random encodings.
    #[arg(long, default_value_t = 100_000)]
    count: u64,
    /// RNG seed; a fresh one (printed) when omitted.
    #[arg(long)]
    seed: Option<u64>,
    /// Concurrent llvm-mc processes.
    #[arg(long)]
    jobs: Option<usize>,
    /// Encodings per llvm-mc run.
    #[arg(long, default_value_t = 2_000)]
    batch: usize,
    /// Make every fourth sample a random word pair (valid or not) with a format's ENCODING.
    #[arg(long)]
    raw: bool,
    /// The llvm-mc to compare with (default $LLVM_MC, else llvm-mc-14).
    #[arg(long)]
    llvm_mc: Option<String>,
}

/// Ok(false) on any disagreement.
pub fn run(args: Args) -> anyhow::Result<bool> {
    let Args { count, seed, jobs, batch, raw, llvm_mc } = args;
    let mc = match &llvm_mc {
        Some(path) => LlvmMc::at(path)?,
        None => LlvmMc::find()?,
    };
    let seed = seed.unwrap_or_else(fresh_seed);
    let jobs = jobs.unwrap_or_else(cores).max(1);
    println!(
        "gcn-vmem llvm-diff: {count} random encodings{}, seed {seed}, {} ({}), {jobs} job(s), batches of {batch}",
        if raw { " (every fourth a raw word pair)" } else { "" },
        mc.path.display(),
        mc.version
    );
    let summary = llvm::differential(&mc, count, seed, jobs, batch, raw, 1_000, &|line| println!("{line}"))?;
    println!(
        "llvm-diff: {} encodings ({} decoded by llvm-mc, {} explained differences: docs/decisions.md), {} disagreement(s), {:.1} s",
        summary.samples, summary.decoded, summary.explained, summary.disagreements, summary.seconds
    );
    if summary.disagreements > 0 {
        println!("rerun with: gcn-vmem llvm-diff --count {count} --seed {seed}{}", if raw { " --raw" } else { "" });
    }
    Ok(summary.disagreements == 0)
}
