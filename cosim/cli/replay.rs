//! `gcn-vmem replay`: a saved vector file through model and RTL, with its waveform, timing
//! diagram and trace on request.

use std::path::{Path, PathBuf};

use gcn_vmem::bindings::{unknown_unit, with_unit, Visit};
use gcn_vmem::engine::run;
use gcn_vmem::engine::vectors;
use gcn_vmem::engine::wave;
use gcn_vmem::engine::{Binding, RtlOptions};
use gcn_vmem::report::svg;
use gcn_vmem_model::unit::Unit;

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
    let rtl = RtlOptions { variant: rtl.variant(), wave: None, x_seed };
    with_unit(&name, ReplayRun { file: &file, wave: wave.as_deref(), svg: svg.as_deref(), trace, rtl })
        .ok_or_else(|| unknown_unit(&name))?
}

struct ReplayRun<'a> {
    file: &'a Path,
    wave: Option<&'a Path>,
    svg: Option<&'a Path>,
    trace: bool,
    rtl: RtlOptions,
}

impl Visit for ReplayRun<'_> {
    type Output = anyhow::Result<bool>;
    fn visit<B: Binding>(self) -> Self::Output {
        let inputs = vectors::read_file::<<B::Model as Unit>::In>(self.file)?;
        let r = run::replay::<B>(&inputs, &self.rtl, Some(self.file), self.wave)?;
        if self.trace {
            print!("{}", r.trace);
        }
        for line in &r.lines {
            println!("{line}");
        }
        for line in wave::file_lines(r.rtl_wave.as_deref(), r.diff_wave.as_deref()) {
            println!("{line}");
        }
        if let Some(e) = &r.wave_error {
            eprintln!("warning: waveform not written: {e}");
        }
        if let Some(path) = self.svg {
            svg::write(path, &svg::replay_svg::<B>(&inputs, &self.rtl, self.file)?)?;
            println!("timing diagram {}", path.display());
        }
        println!(
            "{}: {} vectors, {} cycles, {} mismatches, {} assertion failures",
            <B::Model as Unit>::NAME,
            inputs.len(),
            r.cycles,
            r.mismatches.len(),
            r.assertions.len()
        );
        Ok(r.mismatches.is_empty() && r.assertions.is_empty() && r.wave_error.is_none())
    }
}
