//! `gcn-vmem units`: the units of cosim/units.txt, one a line, optionally only those with a
//! property (for scripts: mk/bench_ab.sh takes the open-loop units, the Python tests the units
//! with an eval object).

use gcn_vmem::bindings::{properties, UNITS};

#[derive(clap::Args)]
pub struct Args {
    /// Only the units whose stimulus does not answer their outputs: their random runs are random
    /// vectors, `gcn-vmem bench` drives them with independent inputs (all but the closed-loop
    /// pipeline).
    #[arg(long)]
    open_loop: bool,
    /// Only the units with an `eval` object (SPEC §13).
    #[arg(long)]
    eval: bool,
}

pub fn run(args: Args) -> anyhow::Result<bool> {
    for u in UNITS {
        let Some(p) = properties(u) else { continue };
        if (!args.open_loop || !p.closed_loop) && (!args.eval || p.eval_object) {
            println!("{u}");
        }
    }
    Ok(true)
}
