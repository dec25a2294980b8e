//! `gcn-vmem equiv` (`make equiv`): formal equivalence of rtl/<unit>.sv against a git revision,
//! one line per unit; a counterexample's vector file and the replay command.

use std::path::{Path, PathBuf};

use gcn_vmem::tools::equiv;

use crate::common::resolve_units;

#[derive(clap::Args)]
pub struct Args {
    /// Unit to check (repeatable); all units of cosim/units.txt by default.
    #[arg(long)]
    unit: Vec<String>,
    /// The git revision to compare with.
    #[arg(long, default_value = "HEAD")]
    base: String,
    /// Cycles from reset of the bounded proof, when register correspondence does not settle it
    /// (default: latency + 2, at least 4; coalescer 8).
    #[arg(long)]
    depth: Option<usize>,
    /// Compare this file instead of the working tree's rtl/<unit>.sv (one --unit only).
    #[arg(long)]
    gate: Option<PathBuf>,
    /// Bounded proof only (no register correspondence, no induction).
    #[arg(long)]
    no_induction: bool,
    /// Stop a unit's Yosys run after this many seconds (then exit 2).
    #[arg(long)]
    timeout: Option<u64>,
}

/// Ok(false) when a unit differs; an error (exit 2) when a check could not run.
pub fn run(args: Args) -> anyhow::Result<bool> {
    let Args { unit, base, depth, gate, no_induction, timeout } = args;
    let units = resolve_units(&unit)?;
    if gate.is_some() && units.len() != 1 {
        anyhow::bail!("--gate needs exactly one --unit");
    }
    if !equiv::yosys_available() {
        anyhow::bail!("`{}` does not run: {}", equiv::YOSYS, gcn_vmem::tools::yosys::install_hint());
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let shown = |p: &Path| -> String {
        let cwd = std::env::current_dir().unwrap_or_default();
        p.strip_prefix(&cwd).unwrap_or(p).display().to_string()
    };
    println!("gcn-vmem equiv: working tree against {base} ({})", equiv::YOSYS);
    let (mut equal, mut failed) = (true, 0);
    for &name in &units {
        let config = equiv::Config {
            unit: name.to_string(),
            base: base.clone(),
            gate: gate.clone(),
            depth,
            induction: !no_induction,
            root: root.clone(),
            work: None,
            timeout: timeout.map(std::time::Duration::from_secs),
        };
        match equiv::check(&config) {
            Ok(report) => {
                println!("{}", report.line());
                equal &= report.is_equal();
                if let equiv::Verdict::Different { cex, .. } = &report.verdict {
                    println!("    counterexample: {} (inputs per cycle; yosys log {})", shown(cex), shown(&report.log));
                    println!("    replay with: gcn-vmem replay {} --unit {name}", shown(cex));
                }
            }
            Err(e) => {
                failed += 1;
                println!("{name:<14} could not run: {e:#}");
            }
        }
    }
    if failed > 0 {
        anyhow::bail!("{failed} of {} unit check(s) could not run", units.len());
    }
    Ok(equal)
}
