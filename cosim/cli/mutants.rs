//! `gcn-vmem mutants` (`make mutants`): mutation testing of rtl/<unit>.sv through `cosim`.

use std::path::PathBuf;

use gcn_vmem::engine::policy;

use crate::common::{cores, resolve_units};

#[derive(clap::Args)]
pub struct Args {
    #[arg(long)]
    unit: Vec<String>,
    /// At most this many mutants per unit, spread over the file (0: all).
    #[arg(long, default_value_t = 40)]
    max: usize,
    /// Vectors per mutant run (the default budget of `make cosim`).
    #[arg(long, default_value_t = policy::DEFAULT_VECTORS)]
    vectors: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Mutants built and run at once, each in its own worktree and target directory (the
    /// first build of each costs a full build); default: a quarter of the cores, at least 1.
    #[arg(long)]
    jobs: Option<usize>,
    /// Only the mutants of these operators (comma-separated; a name matches every operator
    /// whose name contains it, e.g. `drop term,slice`).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    operators: Vec<String>,
}

/// Whether no mutant survived.
pub fn run(args: Args) -> anyhow::Result<bool> {
    let Args { unit, max, vectors, seed, jobs, operators } = args;
    let jobs = jobs.unwrap_or_else(|| cores() / 4).max(1);
    let mut clean = true;
    for name in resolve_units(&unit)? {
        let config = gcn_vmem::tools::mutants::Config {
            unit: name.to_string(),
            max,
            vectors,
            seed,
            root: PathBuf::from(env!("CARGO_MANIFEST_DIR")),
            jobs,
            operators: operators.clone(),
        };
        let (report, no_survivor) = gcn_vmem::tools::mutants::run(&config)?;
        print!("{report}");
        clean &= no_survivor;
    }
    Ok(clean)
}
