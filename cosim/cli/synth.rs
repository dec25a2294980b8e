//! `gcn-vmem synth` (`make synth`): synthesis to generic gates, one table row per unit
//! (cosim/tools/synth.rs).

use std::path::PathBuf;
use std::time::Instant;

use gcn_vmem::tools::{synth, yosys};

use crate::common::{cores, resolve_units, YosysArgs};

pub type Args = YosysArgs;

/// Ok(false) when a unit fails to synthesize; an error (exit 2) when Yosys does not run at all.
pub fn run(args: Args) -> anyhow::Result<bool> {
    let units = resolve_units(&args.unit)?;
    let version = yosys::version()?;
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let list = units.iter().map(|u| synth::Job::for_unit(&root, u)).collect::<anyhow::Result<Vec<_>>>()?;
    let jobs = args.jobs.unwrap_or_else(cores).max(1);
    println!("gcn-vmem synth: {version}");
    println!("generic gates, {} unit(s), {jobs} at a time; scripts and logs in target/synth/<unit>/", list.len());
    let started = Instant::now();
    let reports = synth::synthesize_all(&list, jobs, &|r| {
        eprintln!("  {} done after {:.1} s", r.top, r.elapsed.as_secs_f64());
    });
    println!("{}", synth::HEADER);
    for report in &reports {
        println!("{}", synth::row(report));
    }
    let failed = reports.iter().filter(|r| r.outcome.is_err()).count();
    println!(
        "{} synthesized, {failed} failed, {:.1} s in all",
        reports.len() - failed,
        started.elapsed().as_secs_f64()
    );
    Ok(failed == 0)
}
