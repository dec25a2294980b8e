//! `gcn-vmem exec` (SPEC §13.1): runs a wave's program and prints the state it changed; with
//! `--pipeline` (SPEC §14.1) on the VMEM pipeline, with each instruction's timing.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Context as _;

use gcn_vmem::bindings::vmem_pipe::testbench::Config;
use gcn_vmem::engine::{Gls, RtlOptions, Variant};
use gcn_vmem::exec::program;
use gcn_vmem::report::{svg, timeline};

#[derive(clap::Args)]
pub struct Args {
    file: PathBuf,
    /// Per-lane work on the Verilated RTL (with --pipeline: the pipeline's RTL).
    #[arg(long, conflicts_with_all = ["both", "model"])]
    rtl: bool,
    /// Model and RTL in lockstep; a difference is an error.
    #[arg(long, conflicts_with = "model")]
    both: bool,
    /// The Rust models (the default).
    #[arg(long)]
    model: bool,
    /// Run the program on the VMEM pipeline (SPEC §14): the same output plus `"timing"`.
    #[arg(long)]
    pipeline: bool,
    /// With --pipeline: L2 latency in cycles, `MIN` or `MIN:MAX` (drawn per request).
    #[arg(long, value_name = "MIN[:MAX]", default_value = "50", requires = "pipeline")]
    l2_latency: String,
    /// With --pipeline: the seed of the L2's latency and back-pressure draws.
    #[arg(long, default_value_t = 0, requires = "pipeline")]
    l2_seed: u64,
    /// With --pipeline: probability that an L2 channel refuses a request in a cycle.
    #[arg(long, default_value_t = 0.0, requires = "pipeline")]
    l2_stall: f64,
    /// With --pipeline: probability that the VGPR port (and the LDS port, for LDS loads) refuses
    /// a write in a cycle.
    #[arg(long, default_value_t = 0.0, requires = "pipeline")]
    vgpr_stall: f64,
    /// With --pipeline and --rtl or --both: the pipeline's deliberately broken test-only RTL
    /// (`TestBreakLru`), as `cosim --unit vmem_pipe --mutant` ran it.
    #[arg(long, requires = "pipeline", conflicts_with = "break_asserts")]
    mutant: bool,
    /// With --pipeline and --rtl or --both: the pipeline's break-asserts build
    /// (`TestBreakAsserts`), as `cosim --unit vmem_pipe --break-asserts` ran it.
    #[arg(long, requires = "pipeline")]
    break_asserts: bool,
    /// With --pipeline and --rtl or --both: the pipeline's gate-level netlist instead of its RTL
    /// (in the binary `make gls UNIT=vmem_pipe` builds, target/gls/build/release/gcn-vmem), as
    /// `cosim --gls --unit vmem_pipe` ran it.
    #[arg(long, requires = "pipeline", conflicts_with_all = ["mutant", "break_asserts"])]
    gls: bool,
    /// With --pipeline: drop rst_ni after cycle CYCLE for HOLD cycles (1 to 3, default 1); the L2
    /// keeps running and the program starts again (docs/decisions.md "vmem_pipe", testbench).
    #[arg(long, value_name = "CYCLE[:HOLD]", requires = "pipeline")]
    reset_at: Option<String>,
    /// With --pipeline: the pipeline's small configuration (the model's `Config::small()`, the
    /// RTL built with cosim/units.txt's `small=` parameters) instead of the defaults.
    #[arg(long, requires = "pipeline", conflicts_with_all = ["mutant", "break_asserts", "gls"])]
    small: bool,
    /// With --pipeline (and --model or --both): also draw each VMEM instruction's stages over
    /// cycles (issue, TA, TCP with misses and bank conflicts, L2, TD) as an SVG into FILE.
    #[arg(long, value_name = "FILE.svg")]
    timeline: Option<PathBuf>,
}

/// How a pipeline run ran, for the timeline's header: the backend and the testbench's options.
fn how(args: &Args, mode: program::Mode) -> String {
    let mut how = match mode {
        program::Mode::Both => "model and RTL in lockstep (--both)".to_string(),
        _ => "cycle model (--model)".to_string(),
    };
    write!(how, ", L2 latency {}, L2 seed {}", args.l2_latency, args.l2_seed).unwrap();
    if args.l2_stall > 0.0 {
        write!(how, ", L2 stall {}", args.l2_stall).unwrap();
    }
    if args.vgpr_stall > 0.0 {
        write!(how, ", VGPR stall {}", args.vgpr_stall).unwrap();
    }
    if let Some(r) = &args.reset_at {
        write!(how, ", reset at {r}").unwrap();
    }
    if args.small {
        how.push_str(", small configuration");
    }
    how
}

/// `CYCLE` or `CYCLE:HOLD`.
fn reset_at(text: &str) -> anyhow::Result<(u64, u8)> {
    let (at, hold) = text.split_once(':').unwrap_or((text, "1"));
    let at = at.trim().parse::<u64>().with_context(|| format!("--reset-at {text}: `{at}` is not a cycle number"))?;
    match hold.trim().parse::<u8>() {
        Ok(h @ 1..=3) => Ok((at, h)),
        _ => anyhow::bail!("--reset-at {text}: HOLD `{hold}` must be 1, 2 or 3 cycles"),
    }
}

/// `MIN` or `MIN:MAX`.
fn latency(text: &str) -> anyhow::Result<(u32, u32)> {
    let parse =
        |s: &str| s.trim().parse::<u32>().with_context(|| format!("--l2-latency {text}: `{s}` is not a cycle count"));
    let (lo, hi) = match text.split_once(':') {
        Some((a, b)) => (parse(a)?, parse(b)?),
        None => {
            let v = parse(text)?;
            (v, v)
        }
    };
    if lo == 0 || lo > hi {
        anyhow::bail!("--l2-latency {text}: MIN must be at least 1 and at most MAX");
    }
    Ok((lo, hi))
}

fn probability(name: &str, p: f64) -> anyhow::Result<f64> {
    if (0.0..1.0).contains(&p) {
        Ok(p)
    } else {
        anyhow::bail!("--{name} {p}: a probability in [0, 1)")
    }
}

/// Ok(false) with `{"error": …}` printed when an instruction cannot run or model and RTL part.
pub fn run(args: Args) -> anyhow::Result<bool> {
    let text = if args.file.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).context("reading stdin")?
    } else {
        std::fs::read_to_string(&args.file).with_context(|| format!("cannot read {}", args.file.display()))?
    };
    if args.timeline.is_some() && !args.pipeline {
        anyhow::bail!(
            "--timeline draws the stages of a run on the VMEM pipeline, and this is a run on the executor: \
             add --pipeline"
        );
    }
    if args.timeline.is_some() && args.rtl {
        anyhow::bail!(
            "--timeline needs the stage boundaries the cycle model records, and --rtl reports only the RTL's \
             counters: use --both (model and RTL in lockstep, their counters equal) or --model"
        );
    }
    let mode = if args.both {
        program::Mode::Both
    } else if args.rtl {
        program::Mode::Rtl
    } else {
        program::Mode::Model
    };
    let result = if args.pipeline {
        let variant = match (args.mutant, args.break_asserts) {
            (true, _) => Variant::Mutant,
            (_, true) => Variant::BreakAsserts,
            _ => Variant::AsWritten,
        };
        if (variant != Variant::AsWritten || args.gls) && mode == program::Mode::Model {
            anyhow::bail!("--mutant, --break-asserts and --gls pick an RTL build: add --rtl or --both");
        }
        let gls = if args.gls { Gls::Netlist } else { Gls::Off };
        let build = RtlOptions { variant, gls, ..RtlOptions::default() };
        let config = Config {
            latency: latency(&args.l2_latency)?,
            seed: args.l2_seed,
            l2_stall: probability("l2-stall", args.l2_stall)?,
            vgpr_stall: probability("vgpr-stall", args.vgpr_stall)?,
            reset: args.reset_at.as_deref().map(reset_at).transpose()?,
            small: args.small,
            ..Config::default()
        };
        match program::run_pipeline(&text, mode, config, &build) {
            Ok(run) => {
                if let Some(path) = &args.timeline {
                    let title = timeline::Title { file: args.file.display().to_string(), how: how(&args, mode) };
                    let svg = timeline::render(&title, &run.timings, &run.texts).map_err(anyhow::Error::msg)?;
                    svg::write_for(path, &svg, "--timeline")?;
                }
                Ok(run.value)
            }
            Err(e) => Err(e),
        }
    } else {
        program::execute(&text, mode)
    };
    let (value, ok) = match result {
        Ok(v) => (v, true),
        Err(e) => (e, false),
    };
    println!("{value}");
    Ok(ok)
}
