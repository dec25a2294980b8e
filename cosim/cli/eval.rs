//! `gcn-vmem eval` (SPEC §13): one JSON object per stdin line in, one per stdout line out, from
//! the model, the RTL or both.

use gcn_vmem::actions::{self, EvalMode as Mode};

#[derive(clap::Args)]
pub struct Args {
    unit: String,
    /// Compute with the Verilated RTL instead of the model.
    #[arg(long, conflicts_with = "both")]
    rtl: bool,
    /// Compute with both; a difference is an error line.
    #[arg(long)]
    both: bool,
}

pub fn run(args: Args) -> anyhow::Result<bool> {
    let mode = if args.both {
        Mode::Both
    } else if args.rtl {
        Mode::Rtl
    } else {
        Mode::Model
    };
    actions::eval(&args.unit, mode)
}
