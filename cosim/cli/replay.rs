//! `gcn-vmem replay`: a saved vector file through model and RTL, with its waveform, timing
//! diagram and trace on request.

use std::path::PathBuf;

use gcn_vmem::actions::{self, Replay};
use gcn_vmem::engine::RtlOptions;

use crate::common::{unit_from_path, RtlArgs};

#[derive(clap::Args)]
pub struct Args {
    file: PathBuf,
    /// The unit (default: the name of the file's folder, as in target/cosim/<unit>/).
    #[arg(long)]
    unit: Option<String>,
    /// Trace the RTL into this file (.fst, or .vcd for VCD) and write the diff waveform beside it.
    #[arg(long)]
    wave: Option<PathBuf>,
    /// Draw the cycles around the first mismatch as an SVG timing diagram into this file.
    #[arg(long)]
    svg: Option<PathBuf>,
    /// Print the cycle-by-cycle trace.
    #[arg(long)]
    trace: bool,
    #[command(flatten)]
    rtl: RtlArgs,
    /// Random initial register values and X assignments in the RTL, from this seed (as the
    /// `cosim --x-seeds` run that saved the vector printed it).
    #[arg(long)]
    x_seed: Option<u64>,
}

pub fn run(args: Args) -> anyhow::Result<bool> {
    let Args { file, unit, wave, svg, trace, rtl, x_seed } = args;
    let name = match unit {
        Some(u) => u,
        None => unit_from_path(&file)?,
    };
    let rtl = RtlOptions { variant: rtl.variant(), gls: rtl.gls(), wave: None, x_seed };
    actions::replay(&name, Replay { file: &file, wave: wave.as_deref(), svg: svg.as_deref(), trace, rtl })
}
