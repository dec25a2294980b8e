//! The VMEM pipeline's random programs ([`super::programs`]) as `make cosim` runs them: each in
//! lockstep, model against RTL, every output every cycle, and against the executor at the end; a
//! failing program shrunk as a program and saved as an exec file. The programs run in chunks over
//! the run's threads ([`pool::chunks`](crate::engine::pool::chunks)); what the suite reports
//! depends on its seed only.

use gcn_vmem_model::exec::{document, LANES};
use gcn_vmem_model::isa::Instruction;
use gcn_vmem_model::vmem_pipe::ports::{In, Out};

use super::programs::{draw_case, reference, with_text, PipeCase, FILE_SGPRS, FILE_VGPRS};
use super::testbench::{first_difference, run_both, Config, PipeRun};

/// Runs a case in lockstep and checks the final state against the executor's.
pub fn check_case<M, R>(
    ls: &mut crate::engine::lockstep::Lockstep<M, R>,
    case: &PipeCase,
    observe: impl FnMut(&M, &In, &Out),
) -> Result<PipeRun, String>
where
    M: gcn_vmem_model::unit::Unit<In = In, Out = Out> + super::testbench::StageSource,
    R: crate::engine::RtlUnit<In = In, Out = Out>,
{
    let program = with_text(&case.program);
    let expected = reference(&program, &case.wave)?;
    let run = run_both(ls, &program, &case.wave, case.config, observe)?;
    match first_difference(&run.wave, &expected) {
        Some(d) => Err(format!("the pipeline's result differs from the executor's: {d}")),
        None => Ok(run),
    }
}

/// Shrinks a failing case: drops every instruction it can (waits included), then tries the
/// plainest testbench (fixed latency 50, no back-pressure) and fewer active lanes.
pub fn shrink_case(mut case: PipeCase, fails: &mut impl FnMut(&PipeCase) -> bool) -> PipeCase {
    let mut i = 0;
    while i < case.program.len() {
        let mut candidate = case.clone();
        candidate.program.remove(i);
        if !candidate.program.is_empty() && fails(&candidate) {
            case = candidate;
        } else {
            i += 1;
        }
    }
    let plainer: [fn(Config) -> Config; 4] = [
        |c| Config { reset: None, ..c },
        |c| Config { latency: (50, 50), ..c },
        |c| Config { l2_stall: 0.0, ..c },
        |c| Config { vgpr_stall: 0.0, ..c },
    ];
    for plainer in plainer {
        let plain = plainer(case.config);
        let candidate = PipeCase { config: plain, ..case.clone() };
        if plain != case.config && fails(&candidate) {
            case = candidate;
        }
    }
    for lane in 0..LANES {
        if case.wave.exec >> lane & 1 != 0 && case.wave.exec.count_ones() > 1 {
            let mut candidate = case.clone();
            candidate.wave.exec &= !(1 << lane);
            if fails(&candidate) {
                case = candidate;
            }
        }
    }
    case
}

/// The `gcn-vmem exec` flags that replay a case's testbench.
pub fn replay_flags(config: &Config) -> String {
    let mut flags = format!(
        "--pipeline --both --l2-latency {}:{} --l2-seed {} --l2-stall {} --vgpr-stall {}",
        config.latency.0, config.latency.1, config.seed, config.l2_stall, config.vgpr_stall
    );
    if let Some((at, hold)) = config.reset {
        flags.push_str(&format!(" --reset-at {at}:{hold}"));
    }
    if config.small {
        flags.push_str(" --small");
    }
    flags
}

/// The `gcn-vmem exec` flags that replay a case on the RTL build `build` ([`replay_flags`],
/// then `--mutant` or `--break-asserts` for the test-only builds, `--gls` for the netlist).
pub fn repro_flags(config: &Config, build: &crate::engine::RtlOptions) -> String {
    use crate::engine::{Gls, Variant};
    let flag = match (build.gls, build.variant) {
        (Gls::Netlist, _) => " --gls",
        (_, Variant::AsWritten) => "",
        (_, Variant::Mutant) => " --mutant",
        (_, Variant::BreakAsserts) => " --break-asserts",
        // The small build is chosen by the case's configuration (`--small` in replay_flags).
        (_, Variant::Small) => "",
    };
    format!("{}{flag}", replay_flags(config))
}

/// The binary that replays a failure of `build`: the gate-level netlist is only in the binary
/// `make gls` builds.
pub fn repro_binary(build: &crate::engine::RtlOptions) -> &'static str {
    if build.gls == crate::engine::Gls::Netlist {
        "target/gls/build/release/gcn-vmem"
    } else {
        "gcn-vmem"
    }
}

/// The report line of a failing program: an `ASSERTION` line, as every unit's, when the RTL failed
/// an assertion (its name and the file that declares it, [`crate::engine::rtl_sources::assertion_file`]),
/// else a `PIPELINE` line with the error (a mismatch, a hang, a result the executor disagrees
/// with); both end with the command that replays the saved program on the same RTL build.
pub fn failure_line(
    instructions: usize,
    error: &str,
    assertion: Option<&crate::engine::lockstep::AssertionFailure>,
    repro: &str,
) -> String {
    let unit = <gcn_vmem_model::vmem_pipe::VmemPipe as gcn_vmem_model::unit::Unit>::NAME;
    match assertion {
        Some(a) => {
            let at = if a.at == crate::engine::lockstep::At::Edge { String::new() } else { format!(" at={}", a.at) };
            format!(
                "ASSERTION {unit} cycle={}{at} assertion={} ({}) | program of {instructions} instruction(s) | repro: {repro}",
                a.cycle,
                a.name,
                crate::engine::rtl_sources::assertion_file(unit, &a.name)
            )
        }
        None => format!("PIPELINE {unit} program of {instructions} instruction(s) | {error} | repro: {repro}"),
    }
}

/// The case as an exec file (SPEC §13.1), the registers the programs use.
pub fn to_exec_file(case: &PipeCase) -> String {
    document::write(&case.wave, &case.program, &FILE_SGPRS, &FILE_VGPRS)
}

/// A model and an RTL of the pipeline in lockstep.
type PipeLockstep = crate::engine::lockstep::Lockstep<gcn_vmem_model::vmem_pipe::VmemPipe, super::Rtl>;

/// Programs per chunk of the suite ([`pool::chunks`](crate::engine::pool::chunks)).
pub const PIPE_CHUNK: u64 = 32;

/// The pipeline's random programs as `gcn-vmem cosim` runs them: `programs`
/// cases of up to `length` buffer instructions from `seed`, each in lockstep (model against the
/// RTL build `build` (its variant or gate-level netlist), every output every cycle) and against the executor at the end, with the
/// pipeline's functional coverage counted. A failing program is saved as found, shrunk as a
/// program (cases with fewer instructions, a plainer testbench, fewer lanes), saved again as an
/// exec file with the command that replays it, and re-run with an FST waveform of the RTL
/// (`shrink` false: saved and reported as found, as `cosim --no-shrink` asks). The programs run
/// in chunks of [`PIPE_CHUNK`] on `jobs` threads; the run stops after the lowest chunk with a
/// failing program (at most `max_failures` of them), so what it reports depends on the seed
/// only. The result is an engine [`Summary`](crate::engine::run::Summary) of unit `vmem_pipe`:
/// vectors are instructions, cycles the pipeline's, chunks the programs run. Each failure's line
/// is [`failure_line`].
#[allow(clippy::too_many_arguments)] // The run's settings, each a plain value of its own.
pub fn run_pipe_suite(
    programs: u64,
    length: usize,
    seed: u64,
    artifacts: &std::path::Path,
    build: &crate::engine::RtlOptions,
    max_failures: u64,
    shrink: bool,
    jobs: usize,
) -> anyhow::Result<crate::engine::run::Summary> {
    use crate::engine::run::Summary;

    let start = std::time::Instant::now();
    let options =
        crate::engine::RtlOptions { variant: build.variant, gls: build.gls, ..crate::engine::RtlOptions::default() };
    // The test-only builds and the netlist exist at the defaults only: there every case runs at
    // the defaults.
    let as_written = options.variant == crate::engine::Variant::AsWritten && options.gls == crate::engine::Gls::Off;
    let open = || -> anyhow::Result<_> { Pair::open(&options, as_written) };
    let run = |pair: &mut Pair, chunk: u64| -> anyhow::Result<(Summary, bool)> {
        let first = chunk * PIPE_CHUNK;
        let cases = (first..programs.min(first + PIPE_CHUNK)).map(|c| {
            let mut case = draw_case(seed, length, c);
            case.config.small &= as_written;
            case
        });
        let tally = run_cases(pair, cases, artifacts, &options, max_failures, shrink)?;
        let failed = tally.failing_cases > 0;
        Ok((tally, failed))
    };
    let tallies = crate::engine::pool::chunks(programs.div_ceil(PIPE_CHUNK), jobs, open, run)?;
    let mut summary = empty_summary();
    for t in tallies {
        summary.vectors += t.vectors;
        summary.cycles += t.cycles;
        summary.chunks += t.chunks;
        summary.failing_cases += t.failing_cases;
        summary.failures.extend(t.failures);
        summary.hits.merge(&t.hits);
    }
    summary.stopped = summary.chunks < programs;
    summary.elapsed = start.elapsed();
    Ok(summary)
}

/// The model and RTL pairs a chunk runs its cases on: the defaults, and the small configuration
/// (opened only for the RTL as written).
pub struct Pair {
    default: PipeLockstep,
    small: Option<PipeLockstep>,
}

impl Pair {
    fn open(options: &crate::engine::RtlOptions, with_small: bool) -> anyhow::Result<Pair> {
        let small = if with_small { Some(open_at(options, true)?) } else { None };
        Ok(Pair { default: open_at(options, false)?, small })
    }

    /// The pair a case runs on.
    fn at(&mut self, small: bool) -> &mut PipeLockstep {
        match (small, &mut self.small) {
            (true, Some(ls)) => ls,
            _ => &mut self.default,
        }
    }
}

/// A model and an RTL of `options`' build at the configuration `small` asks for.
pub fn open_at(options: &crate::engine::RtlOptions, small: bool) -> anyhow::Result<PipeLockstep> {
    use crate::engine::RtlUnit as _;
    let options = crate::engine::RtlOptions { variant: super::variant_for(small, options.variant), ..options.clone() };
    Ok(crate::engine::lockstep::Lockstep::new(super::model_for(small), super::Rtl::open(&options)?))
}

/// A `vmem_pipe` summary of nothing yet.
fn empty_summary() -> crate::engine::run::Summary {
    use gcn_vmem_model::cover::{Covered as _, Hits};
    use gcn_vmem_model::unit::Unit as _;
    use gcn_vmem_model::vmem_pipe::VmemPipe;
    crate::engine::run::Summary {
        unit: VmemPipe::NAME,
        x_seed: None,
        vectors: 0,
        cycles: 0,
        failing_cases: 0,
        failures: Vec::new(),
        elapsed: std::time::Duration::ZERO,
        stopped: false,
        shard: None,
        chunks: 0,
        hits: Hits::new(&VmemPipe::covergroup()),
        phases: None,
    }
}

/// Runs `cases` on `ls` (see [`run_pipe_suite`]): the tally of one chunk, its `chunks` the
/// programs run; stops after `max_failures` failing programs.
fn run_cases(
    pair: &mut Pair,
    cases: impl Iterator<Item = PipeCase>,
    artifacts: &std::path::Path,
    options: &crate::engine::RtlOptions,
    max_failures: u64,
    shrink: bool,
) -> anyhow::Result<crate::engine::run::Summary> {
    use super::Rtl;
    use crate::engine::artifacts::Failure;
    use crate::engine::{RtlOptions, RtlUnit as _};
    use gcn_vmem_model::cover::{Covered as _, Hits};
    use gcn_vmem_model::vmem_pipe::{cover, VmemPipe};

    let mut hits = Hits::new(&VmemPipe::covergroup());
    let mut summary = empty_summary();
    let dir = artifacts.join(<VmemPipe as gcn_vmem_model::unit::Unit>::NAME);
    for case in cases {
        let mut before = Out::default();
        let ls = pair.at(case.config.small);
        let result = check_case(ls, &case, |model: &VmemPipe, input, out| {
            cover::sample_events(model.events(), &mut hits);
            cover::sample_cycle(&before, input, out, &mut hits);
            before = *out;
        });
        summary.chunks += 1;
        summary.vectors += case.program.iter().filter(|i| !matches!(i, Instruction::Waitcnt(_))).count() as u64;
        summary.cycles += ls.cycles();
        let Err(error) = result else { continue };
        summary.failing_cases += 1;
        std::fs::create_dir_all(&dir)?;
        let save = |c: &PipeCase, suffix: &str| -> anyhow::Result<std::path::PathBuf> {
            let text = to_exec_file(c);
            let file = dir.join(format!("{:016x}{suffix}.json", crate::engine::stimulus::hash(text.as_bytes())));
            std::fs::write(&file, text).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", file.display()))?;
            Ok(file)
        };
        let unshrunk = save(&case, ".unshrunk")?;
        let mut fresh = open_at(options, case.config.small)?;
        let small = if shrink {
            shrink_case(case.clone(), &mut |c| check_case(&mut fresh, c, |_, _, _| {}).is_err())
        } else {
            case.clone()
        };
        let file = save(&small, "")?;
        let error = check_case(&mut fresh, &small, |_, _, _| {}).err().unwrap_or(error);
        let assertion = fresh.assertions.first().cloned();
        let wave = file.with_extension("fst");
        let wave_options = RtlOptions {
            wave: Some((crate::engine::Wave::Fst, wave.clone())),
            variant: super::variant_for(small.config.small, options.variant),
            ..options.clone()
        };
        let (rtl_wave, wave_error) = match Rtl::open(&wave_options) {
            Ok(rtl) => {
                let mut traced = crate::engine::lockstep::Lockstep::new(super::model_for(small.config.small), rtl);
                let _ = check_case(&mut traced, &small, |_, _, _| {});
                traced.rtl.finish();
                (Some(wave), None)
            }
            Err(e) => (None, Some(format!("{e:#}"))),
        };
        let repro =
            format!("{} exec {} {}", repro_binary(options), file.display(), repro_flags(&small.config, options));
        let line = failure_line(small.program.len(), &error, assertion.as_ref(), &repro);
        summary.failures.push(Failure {
            vector_file: file,
            count: 1,
            unshrunk_files: vec![unshrunk],
            rtl_wave,
            diff_wave: None,
            shrunk: shrink,
            cycles_before: case.program.len(),
            cycles_after: small.program.len(),
            lines: vec![line],
            wave_error,
            note: Some(if shrink {
                "is a program: the counts above are instructions, not cycles".into()
            } else {
                "is a program of instructions, saved as found (--no-shrink)".into()
            }),
        });
        if summary.failing_cases >= max_failures {
            summary.stopped = true;
            break;
        }
    }
    summary.hits = hits;
    Ok(summary)
}
