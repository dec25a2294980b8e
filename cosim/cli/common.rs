//! What several subcommands share: naming units, a fresh seed, the RTL build and waveform flags,
//! the flags of the Yosys runs.

use std::path::Path;

use clap::ValueEnum;

use gcn_vmem::bindings::unknown_unit;
use gcn_vmem::bindings::UNITS;
use gcn_vmem::engine::Wave;
use gcn_vmem::engine::{Gls, Variant};

/// The units named by `--unit` flags: all units of cosim/units.txt when none is named.
pub fn resolve_units(names: &[String]) -> anyhow::Result<Vec<&'static str>> {
    if names.is_empty() {
        return Ok(UNITS.to_vec());
    }
    names.iter().map(|n| UNITS.iter().copied().find(|u| u == n).ok_or_else(|| unknown_unit(n))).collect()
}

/// A seed for runs given none (printed by the caller, so the run can be repeated).
pub fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}

/// The unit of a saved vector file, from its folder (target/cosim/<unit>/).
pub fn unit_from_path(file: &Path) -> anyhow::Result<String> {
    let dir = file.parent().and_then(|p| p.file_name()).and_then(|n| n.to_str()).unwrap_or("");
    if UNITS.contains(&dir) {
        Ok(dir.to_string())
    } else {
        anyhow::bail!(
            "cannot tell the unit of {} from its folder; pass --unit (one of: {})",
            file.display(),
            UNITS.join(", ")
        )
    }
}

/// The hardware threads, at least 1.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Waveform format of re-run failures.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum WaveArg {
    Fst,
    Vcd,
}

impl From<WaveArg> for Wave {
    fn from(w: WaveArg) -> Wave {
        match w {
            WaveArg::Fst => Wave::Fst,
            WaveArg::Vcd => Wave::Vcd,
        }
    }
}

/// Which RTL build `cosim` and `replay` run.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct RtlArgs {
    /// Run against the unit's deliberately broken test-only RTL (to see the harness catch a bug).
    #[arg(long, conflicts_with = "break_asserts")]
    mutant: bool,
    /// Run against the unit's test-only build whose register inputs are corrupted so that each of
    /// its assertions fails (to see every assertion fire and be reported).
    #[arg(long)]
    break_asserts: bool,
    /// Run against the gate-level netlist Yosys synthesized from the unit (`make gls UNIT=u`,
    /// whose binary has it built in) instead of its RTL; only outputs are compared (a netlist has
    /// no assertions).
    #[arg(long, conflicts_with_all = ["mutant", "break_asserts"])]
    gls: bool,
}

impl RtlArgs {
    pub fn variant(self) -> Variant {
        if self.mutant {
            Variant::Mutant
        } else if self.break_asserts {
            Variant::BreakAsserts
        } else {
            Variant::AsWritten
        }
    }

    pub fn gls(self) -> Gls {
        if self.gls {
            Gls::Netlist
        } else {
            Gls::Off
        }
    }
}

/// The flags of a subcommand that runs Yosys once a unit (`synth`, `netlist`).
#[derive(clap::Args)]
pub struct YosysArgs {
    /// Unit to synthesize (repeatable); by default every unit the command takes (cosim/units.txt;
    /// `netlist` leaves out the `builds=one` units, which run when named).
    #[arg(long)]
    pub unit: Vec<String>,
    /// Yosys runs at once (each on one thread); default: the cores.
    #[arg(long)]
    pub jobs: Option<usize>,
}
