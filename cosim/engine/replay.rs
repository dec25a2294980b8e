//! Replaying a case from reset on model and RTL, with its waveforms, and the report lines of what
//! it found: one greppable line per mismatch ([`mismatch_line`]) and per failed assertion
//! ([`assertion_line`]), each ending with the command that reproduces it ([`repro_command`]).

use std::path::{Path, PathBuf};

use crate::engine::lockstep::{source_cycle, AssertionFailure, At, Lockstep, Mismatch, Step};
use crate::engine::rtl_sources::assertion_file;
use crate::engine::wave;
use crate::engine::RtlUnit;
use crate::engine::Variant;
use crate::engine::Wave;
use crate::engine::{Binding, UnitTypes};
use crate::engine::{Gls, RtlOptions};
use gcn_vmem_model::unit::{Ports, Unit};

type In<B> = <<B as UnitTypes>::Model as Unit>::In;
type Out<B> = <<B as UnitTypes>::Model as Unit>::Out;

/// The result of replaying a vector file.
#[derive(Debug, Clone)]
pub struct Replay {
    pub cycles: u64,
    pub mismatches: Vec<Mismatch>,
    pub assertions: Vec<AssertionFailure>,
    /// One line per assertion failure and per mismatch (all of them), as printed.
    pub lines: Vec<String>,
    pub trace: String,
    pub rtl_wave: Option<PathBuf>,
    pub diff_wave: Option<PathBuf>,
    pub wave_error: Option<String>,
}

/// The command that regenerates a vector's waveforms (on the same RTL build and X seed).
pub(crate) fn repro_command(unit: &str, vector_file: &Path, rtl: &RtlOptions) -> String {
    // The gate-level netlist runs in the binary `make gls` builds (mk/gls.mk).
    let target = if rtl.gls == Gls::Netlist { "gls-wave" } else { "wave" };
    let mut command = format!("make {target} UNIT={unit} VECTOR={}", vector_file.display());
    match rtl.variant {
        Variant::AsWritten => {}
        Variant::Mutant => command.push_str(" FLAGS=--mutant"),
        Variant::BreakAsserts => command.push_str(" FLAGS=--break-asserts"),
        Variant::Small => command.push_str(" FLAGS=--small"),
    }
    if matches!(rtl.gls, Gls::TrapRtl | Gls::TrapNetlist) {
        // The test-only trap builds have no flag: tests/gls.rs opens them.
        command.push_str(&format!(" (on the test-only build Gls::{:?} of tests/gls.rs)", rtl.gls));
    }
    if let Some(seed) = rtl.x_seed {
        command.push_str(&format!(" XSEED={seed}"));
    }
    command
}

/// Where the waveforms of a replay go: the RTL's own (FST or VCD, by Verilator) at `path`, and
/// the Rust-written diff beside it as `<path without extension>.diff.vcd` (with its GTKWave save
/// file `<path without extension>.diff.gtkw`).
pub fn wave_paths(path: &Path) -> (Wave, PathBuf, PathBuf) {
    let format = match path.extension().and_then(|e| e.to_str()) {
        Some("vcd") => Wave::Vcd,
        _ => Wave::Fst,
    };
    let diff = PathBuf::from(format!("{}.diff.vcd", path.with_extension("").display()));
    (format, path.to_path_buf(), diff)
}

/// Replays `steps` on model and RTL from reset, on the RTL build `rtl` names (its `wave` is
/// ignored). With `wave`, the RTL run is traced into that file and the diff waveform written
/// beside it (see [`wave_paths`]); a waveform that cannot be written (or a variant built
/// untraced) is reported in `wave_error`, never an error of the replay itself.
pub fn replay<B: Binding>(
    steps: &[Step<In<B>>],
    rtl: &RtlOptions,
    vector_file: Option<&Path>,
    wave: Option<&Path>,
) -> anyhow::Result<Replay> {
    let unit = <B::Model as Unit>::NAME;
    let paths = wave.map(wave_paths);
    let mut wave_error = None;
    let mut options = RtlOptions { wave: None, ..rtl.clone() };
    if let Some((format, path, _)) = &paths {
        match path.parent().map(std::fs::create_dir_all) {
            Some(Err(e)) => wave_error = Some(format!("cannot create the folder of {}: {e}", path.display())),
            _ => options.wave = Some((*format, path.clone())),
        }
    }
    let rtl = match B::Rtl::open(&options) {
        Ok(rtl) => rtl,
        Err(e) if options.wave.is_some() => {
            wave_error = Some(format!("{e:#}"));
            options.wave = None;
            B::Rtl::open(&options)?
        }
        Err(e) => return Err(e),
    };
    let mut lockstep = Lockstep::new(B::Model::default(), rtl).recording();
    lockstep.run_steps(steps);
    lockstep.rtl.finish();
    let record = lockstep.record.take().unwrap_or_default();
    let repro = vector_file.map(|f| repro_command(unit, f, &options)).unwrap_or_else(|| "(no vector file)".to_string());
    let lines = lockstep
        .assertions
        .iter()
        .map(|a| assertion_line::<B>(a, steps, &repro))
        .chain(lockstep.mismatches.iter().map(|m| mismatch_line::<B>(m, steps, &repro)))
        .collect();
    let mut rtl_wave = None;
    let mut diff_wave = None;
    if let (Some((_, path, diff)), Some(_)) = (&paths, &options.wave) {
        rtl_wave = Some(path.clone());
        // The diff waveform and its GTKWave save file (`wave::gtkw_path`) beside it.
        let written = wave::write_diff_vcd(diff, unit, &lockstep.opening, &record)
            .and_then(|()| wave::write_gtkw::<In<B>, Out<B>>(diff, unit));
        match written {
            Ok(_) => diff_wave = Some(diff.clone()),
            Err(e) => wave_error = Some(format!("cannot write {} or its GTKWave save file: {e}", diff.display())),
        }
    }
    Ok(Replay {
        cycles: lockstep.cycles(),
        mismatches: lockstep.mismatches.clone(),
        assertions: lockstep.assertions.clone(),
        lines,
        trace: crate::engine::lockstep::trace_with(&record, B::render_input),
        rtl_wave,
        diff_wave,
        wave_error,
    })
}

/// The inputs behind the outputs of `cycle`, for a report line: the last valid input that
/// reached them (data registers hold otherwise), with a field breakdown.
fn source_text<B: Binding>(cycle: u64, at: At, steps: &[Step<In<B>>]) -> String {
    if at == At::ResetEdge || (at == At::ResetAsserted && cycle == 0) {
        return "in: none (the opening reset)".to_string();
    }
    let source = source_cycle(cycle, <B::Model as Unit>::LATENCY).and_then(|last| {
        let last = (last as usize).min(steps.len().checked_sub(1)?);
        (0..=last).rev().find(|&c| steps[c].input.get(0) & 1 != 0).map(|c| (c, &steps[c].input))
    });
    // An assertion on a register inside the pipeline can sample a value younger than the
    // outputs: then show the last valid input before the edge.
    let source = source.or_else(|| {
        let last = (cycle as usize).min(steps.len().checked_sub(1)?);
        (0..=last).rev().find(|&c| steps[c].input.get(0) & 1 != 0).map(|c| (c, &steps[c].input))
    });
    match source {
        Some((c, i)) => format!("in@{c}: {} [{}]", B::render_input(i), B::describe(i)),
        None => "in: none valid yet (reset values)".to_string(),
    }
}

/// One greppable line: unit, cycle (and when in it, for comparisons at a reset change),
/// signal, expected and actual (and their XOR), the inputs that produced them with a field
/// breakdown, and the command that reproduces it.
pub(crate) fn mismatch_line<B: Binding>(m: &Mismatch, steps: &[Step<In<B>>], repro: &str) -> String {
    let unit = <B::Model as Unit>::NAME;
    let signal = &<Out<B> as Ports>::SIGNALS[m.signal];
    let at = if m.at == At::Edge { String::new() } else { format!(" at={}", m.at) };
    format!(
        "MISMATCH {unit} cycle={}{at} signal={} expected(model)={} actual(rtl)={} xor={} | {} | repro: {repro}",
        m.cycle,
        signal.name,
        signal.hex(m.expected),
        signal.hex(m.actual),
        signal.hex(m.expected ^ m.actual),
        source_text::<B>(m.cycle, m.at, steps),
    )
}

/// One greppable line for a failed RTL assertion: unit, cycle, the assertion's name and where it
/// is declared ([`assertion_file`]), the inputs behind the values it sampled, and the command that
/// reproduces it.
pub(crate) fn assertion_line<B: Binding>(a: &AssertionFailure, steps: &[Step<In<B>>], repro: &str) -> String {
    let unit = <B::Model as Unit>::NAME;
    let at = if a.at == At::Edge { String::new() } else { format!(" at={}", a.at) };
    // A concurrent assertion samples the values from before the edge that evaluates it.
    let sampled = a.cycle.saturating_sub(1);
    format!(
        "ASSERTION {unit} cycle={}{at} assertion={} ({}) | {} | repro: {repro}",
        a.cycle,
        a.name,
        assertion_file(unit, &a.name),
        source_text::<B>(sampled, a.at, steps),
    )
}
