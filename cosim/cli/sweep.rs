//! `gcn-vmem sweep`: exhaustive sweeps, model against RTL (docs/tests.md).

use gcn_vmem::engine::artifacts;
use gcn_vmem::engine::sweep;

use crate::common::cores;

#[derive(clap::Args)]
pub struct Args {
    /// Sweep name (f32-to-f16).
    name: String,
    #[arg(long)]
    jobs: Option<usize>,
    /// Only the first N vectors of the sweep (a quick look; the full sweep is the default).
    #[arg(long)]
    limit: Option<u64>,
    #[arg(long)]
    no_progress: bool,
}

/// Ok(false) on any mismatch.
pub fn run(args: Args) -> anyhow::Result<bool> {
    let Args { name, jobs, limit, no_progress } = args;
    let jobs = jobs.unwrap_or_else(cores).max(1);
    let progress = !no_progress && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let artifacts = artifacts::default_artifacts();
    let summary = match name.as_str() {
        // format_pack on 16_16_16_16 float: four f32 -> f16 conversions per vector, so
        // 2^30 vectors cover every one of the 2^32 f32 patterns.
        "f32-to-f16" => {
            use gcn_vmem_model::format_pack::In;
            sweep::sweep::<gcn_vmem::bindings::format_pack::Harness>(
                &name,
                limit.unwrap_or(1 << 30).min(1 << 30),
                jobs,
                &artifacts,
                progress,
                |i| {
                    let base = (i as u32) << 2;
                    let c = |k: u32| u128::from(base | k) << (32 * k);
                    In { valid: true, dfmt: 12, nfmt: 7, components: c(0) | c(1) | c(2) | c(3) }
                },
            )?
        }
        other => anyhow::bail!("unknown sweep `{other}`; the sweeps are: f32-to-f16"),
    };
    println!(
        "sweep {} on {}: {} vectors, {} failing, {:.1} s ({:.0} vectors/s, {} thread(s))",
        summary.name,
        summary.unit,
        summary.vectors,
        summary.failing,
        summary.elapsed.as_secs_f64(),
        summary.vectors as f64 / summary.elapsed.as_secs_f64(),
        jobs
    );
    if let Some(file) = &summary.saved {
        println!(
            "first failing inputs saved to {}; replay with make wave UNIT={} VECTOR={}",
            file.display(),
            summary.unit,
            file.display()
        );
    }
    Ok(summary.failing == 0)
}
