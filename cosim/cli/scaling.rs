//! `gcn-vmem scaling`: how `cosim` scales with worker threads, each unit run with every job
//! count on the same seed and per-job budget.

use gcn_vmem::actions;
use gcn_vmem::engine::run::RunConfig;

use crate::common::{cores, resolve_units};

#[derive(clap::Args)]
pub struct Args {
    #[arg(long)]
    unit: Vec<String>,
    /// Valid vectors per job: a run of J jobs drives J times as many, so every run lasts
    /// about as long as the one-job run (aim for a few seconds).
    #[arg(long, default_value_t = 4_000_000)]
    vectors: u64,
    /// The job counts, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16")]
    jobs: Vec<usize>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(args: Args) -> anyhow::Result<bool> {
    let Args { unit, vectors, jobs, seed } = args;
    let units = resolve_units(&unit)?;
    println!("gcn-vmem scaling: {vectors} vectors per job and run, seed {seed}, {} hardware threads", cores());
    print!("{:<14}", "unit");
    for j in &jobs {
        print!(" {:>12}", format!("{j} job v/s"));
    }
    for j in jobs.iter().skip(1) {
        print!(" {:>8}", format!("eff {j}"));
    }
    println!();
    let mut clean = true;
    for name in units {
        let mut rates = Vec::new();
        for &j in &jobs {
            let config = RunConfig {
                vectors: vectors * j as u64,
                seed,
                jobs: j,
                artifacts: std::env::temp_dir().join("gcn-vmem-scaling"),
                ..RunConfig::default()
            };
            let summary = actions::random_quiet(name, &config)?;
            clean &= summary.failing_cases == 0;
            rates.push(summary.vectors_per_second());
        }
        print!("{name:<14}");
        for r in &rates {
            print!(" {r:>12.0}");
        }
        for (r, j) in rates.iter().zip(&jobs).skip(1) {
            print!(" {:>8.2}", r / (*j as f64 * rates[0]) * jobs[0] as f64);
        }
        println!();
    }
    println!("eff J = (v/s with J jobs) / (J / {} x v/s with {} job(s)): 1.00 is linear", jobs[0], jobs[0]);
    Ok(clean)
}
