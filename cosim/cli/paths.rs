//! `gcn-vmem paths` (`make paths`): the deepest register-to-register paths of a unit's flattened
//! design in generic gate levels, start and end registers named (cosim/tools/paths.rs).

use std::path::PathBuf;
use std::time::Instant;

use clap::Args as ClapArgs;

use gcn_vmem::tools::{paths, yosys};

use crate::common::{cores, resolve_units};

#[derive(ClapArgs)]
pub struct Args {
    /// Unit to measure (repeatable; at least one).
    #[arg(long, required = true)]
    pub unit: Vec<String>,
    /// Measure this module of the unit's hierarchy as the top instead of the unit (one --unit).
    #[arg(long)]
    pub module: Option<String>,
    /// Paths listed per kind (register -> register, input -> register, register -> output,
    /// input -> output), at most one per pair of start and end registers.
    #[arg(long, default_value_t = 5)]
    pub paths: usize,
    /// Modules of the hierarchy to read as black boxes, comma-separated (besides the RAM macros,
    /// always boxed): their outputs start paths, their inputs end them.
    #[arg(long, value_delimiter = ',')]
    pub r#box: Vec<String>,
    /// Map the flattened gates with ABC first (as `make synth` does); the instances of the gates
    /// between two registers are then unknown.
    #[arg(long)]
    pub abc: bool,
    /// Yosys runs at once (each on one thread); default: the cores.
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// Ok(false) when a unit's measurement fails (Yosys fails, runs out of memory, or disagrees with
/// the paths computed here); an error (exit 2) for bad flags, an unknown unit or no Yosys.
pub fn run(args: Args) -> anyhow::Result<bool> {
    let units = resolve_units(&args.unit)?;
    anyhow::ensure!(args.paths > 0, "--paths must be at least 1");
    if args.module.is_some() && units.len() > 1 {
        anyhow::bail!("--module names a module of one unit; pass a single --unit with it");
    }
    let boxes: Vec<String> = args.r#box.iter().map(|b| b.trim().to_string()).filter(|b| !b.is_empty()).collect();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let list = units
        .iter()
        .map(|u| paths::Job::for_unit(&root, u, args.module.as_deref(), &boxes, args.paths, args.abc))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let version = yosys::version()?;
    let jobs = args.jobs.unwrap_or_else(cores).clamp(1, list.len().max(1));
    println!("gcn-vmem paths: {}", paths::short_version(&version));
    println!(
        "{} design(s) flattened to generic gates, {jobs} at a time; reports in target/paths/<unit>/ (paths.txt, paths.json)",
        list.len()
    );
    let started = Instant::now();
    let reports = paths::measure_all(&list, jobs, &version, &|r| {
        eprintln!("  {} done after {:.1} s", r.job.top, r.elapsed.as_secs_f64());
    });
    for r in &reports {
        println!();
        print!("{}", paths::text(r, &version));
        if r.outcome.is_ok() {
            println!("report: {}", r.job.out.join("paths.txt").display());
        }
    }
    let failed = reports.iter().filter(|r| r.outcome.is_err()).count();
    println!("\n{} measured, {failed} failed, {:.1} s in all", reports.len() - failed, started.elapsed().as_secs_f64());
    Ok(failed == 0)
}
