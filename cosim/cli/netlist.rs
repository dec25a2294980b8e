//! `gcn-vmem netlist` (`make gls`): each unit synthesized to a generic-gate Verilog netlist,
//! target/gls/netlist/<unit>.v, for the gate-level builds (cosim/tools/gls.rs).

use std::path::PathBuf;
use std::time::Instant;

use gcn_vmem::tools::{gls, yosys};

use crate::common::{cores, resolve_units, YosysArgs};

pub type Args = YosysArgs;

/// Ok(false) when a netlist fails; an error (exit 2) when Yosys does not run or a unit is unknown.
pub fn run(args: Args) -> anyhow::Result<bool> {
    let units = resolve_units(&args.unit)?;
    let mut list = Vec::new();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for unit in units {
        if args.unit.is_empty() && gls::named_only(unit) {
            println!("{}", gls::named_only_note(unit));
            continue;
        }
        list.push(gls::Job::for_unit(&root, unit)?);
        list.extend(gls::Job::trap(&root, unit)?);
    }
    let version = yosys::version()?;
    let jobs = args.jobs.unwrap_or_else(cores).clamp(1, list.len().max(1));
    println!("gcn-vmem netlist: {version}");
    println!(
        "{} netlist(s), {jobs} at a time, into target/gls/netlist/; scripts and logs in target/gls/work/<name>/",
        list.len()
    );
    let started = Instant::now();
    let reports = gls::synthesize_all(&list, &root, jobs, &|report| {
        eprintln!("  {} done after {:.1} s", report.name, report.elapsed.as_secs_f64());
    });
    let mut failed = 0;
    for r in &reports {
        match &r.outcome {
            Ok(path) => {
                let lines = std::fs::read_to_string(path).map_or(0, |t| t.lines().count());
                println!("{:<18} {:>8.1} s  {} ({lines} lines)", r.name, r.elapsed.as_secs_f64(), path.display());
            }
            Err(why) => {
                failed += 1;
                println!("{:<18} FAILED after {:.1} s: {why}", r.name, r.elapsed.as_secs_f64());
            }
        }
    }
    println!("{} written, {failed} failed, {:.1} s in all", reports.len() - failed, started.elapsed().as_secs_f64());
    Ok(failed == 0)
}
