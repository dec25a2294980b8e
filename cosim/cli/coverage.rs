//! `gcn-vmem coverage`: a summary of the Verilator coverage databases of `cosim --coverage DIR`.

use std::path::PathBuf;

use gcn_vmem::report::coverage;

use crate::common::resolve_units;

#[derive(clap::Args)]
pub struct Args {
    dir: PathBuf,
    #[arg(long)]
    unit: Vec<String>,
    /// Uncovered points listed per unit.
    #[arg(long, default_value_t = 12)]
    show: usize,
}

pub fn run(args: Args) -> anyhow::Result<bool> {
    for name in resolve_units(&args.unit)? {
        let points = coverage::read_unit(&args.dir, name)?;
        let kinds: Vec<String> = coverage::summary(&points)
            .iter()
            .map(|(kind, hit, total)| format!("{} {hit}/{total}", kind.trim_start_matches("v_")))
            .collect();
        println!("{name:<14} {}", kinds.join("  "));
        for p in points.iter().filter(|p| p.count == 0).take(args.show) {
            println!("    never hit: {} {}:{} {}", p.kind.trim_start_matches("v_"), p.file, p.line, p.name);
        }
    }
    Ok(true)
}
