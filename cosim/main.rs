//! `gcn-vmem`: the command line of the co-simulation harness (README.md "Command line").

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context as _;
use clap::{Parser, Subcommand, ValueEnum};
use serde_json::{json, Value};

use gcn_vmem::cosim::lockstep::Lockstep;
use gcn_vmem::cosim::run::{self, RunConfig, Summary};
use gcn_vmem::cosim::sweep;
use gcn_vmem::cosim::vectors::{self, Strictness};
use gcn_vmem::cosim::{unknown_unit, with_unit, Binding, RtlOptions, RtlUnit, Variant, Visit, Wave, UNITS};
use gcn_vmem::unit::{Ports, Unit};

#[derive(Parser)]
#[command(
    name = "gcn-vmem",
    version,
    about = "Lockstep co-simulation of the gcn-vmem Rust models against their Verilated RTL"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum WaveArg {
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

#[derive(Subcommand)]
enum Command {
    /// Random vectors through model and RTL in lockstep; exits 1 on any mismatch.
    Cosim {
        /// Unit to run (repeatable); all units of cosim/units.txt by default.
        #[arg(long)]
        unit: Vec<String>,
        /// Valid input vectors per unit.
        #[arg(long, default_value_t = 1_000_000)]
        vectors: u64,
        /// RNG seed; a fresh one (printed) when omitted.
        #[arg(long)]
        seed: Option<u64>,
        /// Worker threads (each with its own model and RTL instance).
        #[arg(long)]
        jobs: Option<usize>,
        /// Stop a unit after this many failing cases (each is shrunk and saved).
        #[arg(long, default_value_t = 5)]
        max_failures: usize,
        /// Waveform format of re-run failures.
        #[arg(long, value_enum, env = "WAVE", default_value = "fst")]
        wave: WaveArg,
        /// Folder of failure artifacts (default target/cosim).
        #[arg(long)]
        artifacts: Option<PathBuf>,
        #[command(flatten)]
        rtl: RtlArgs,
        /// Then run each unit N more times (stimulus seeds SEED+1 … SEED+N) on RTL instances whose
        /// initial register values and X assignments are random: X seed k derives from --seed,
        /// and every chunk of 256 cases starts from a fresh instance with a seed derived from
        /// it. VECTORS / N vectors each (at least 1,000).
        #[arg(long, default_value_t = 0)]
        x_seeds: u64,
        /// Never show a progress bar.
        #[arg(long)]
        no_progress: bool,
        /// Write Verilator coverage databases (<unit>-<worker>.dat) into this folder; needs a
        /// coverage build (`make coverage`).
        #[arg(long)]
        coverage: Option<PathBuf>,
    },
    /// Replays a vector file on model and RTL; exits 1 on any mismatch.
    Replay {
        file: PathBuf,
        /// The unit (default: the name of the file's folder, as in target/cosim/<unit>/).
        #[arg(long)]
        unit: Option<String>,
        /// Trace the RTL into this file (.fst, or .vcd for VCD) and write the diff waveform beside it.
        #[arg(long)]
        wave: Option<PathBuf>,
        /// Print the cycle-by-cycle trace.
        #[arg(long)]
        trace: bool,
        #[command(flatten)]
        rtl: RtlArgs,
        /// Random initial register values and X assignments in the RTL, from this seed (as the
        /// `cosim --x-seeds` run that saved the vector printed it).
        #[arg(long)]
        x_seed: Option<u64>,
    },
    /// SPEC §13: one JSON object per stdin line in, one per stdout line out.
    Eval {
        unit: String,
        /// Compute with the Verilated RTL instead of the model.
        #[arg(long, conflicts_with = "both")]
        rtl: bool,
        /// Compute with both; a difference is an error line.
        #[arg(long)]
        both: bool,
    },
    /// Side-by-side throughput: model, RTL through cxx, plain C++ loop, lockstep harness.
    Bench {
        #[arg(long)]
        unit: Vec<String>,
        #[arg(long, default_value_t = 2_000_000)]
        vectors: u64,
    },
    /// Exhaustive sweeps, model against RTL (README "Exhaustive sweeps"); exits 1 on any mismatch.
    Sweep {
        /// Sweep name (f32-to-f16).
        name: String,
        #[arg(long)]
        jobs: Option<usize>,
        /// Only the first N vectors of the sweep (a quick look; the full sweep is the default).
        #[arg(long)]
        limit: Option<u64>,
        #[arg(long)]
        no_progress: bool,
    },
    /// Summarises the coverage databases of `cosim --coverage DIR`: points hit per kind and unit,
    /// and the points never hit.
    Coverage {
        dir: PathBuf,
        #[arg(long)]
        unit: Vec<String>,
        /// Uncovered points listed per unit.
        #[arg(long, default_value_t = 12)]
        show: usize,
    },
    /// Lists the units.
    Units,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match execute(cli.command) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn resolve_units(names: &[String]) -> anyhow::Result<Vec<&'static str>> {
    if names.is_empty() {
        return Ok(UNITS.to_vec());
    }
    names.iter().map(|n| UNITS.iter().copied().find(|u| u == n).ok_or_else(|| unknown_unit(n))).collect()
}

fn execute(command: Command) -> anyhow::Result<bool> {
    match command {
        Command::Cosim {
            unit,
            vectors,
            seed,
            jobs,
            max_failures,
            wave,
            artifacts,
            rtl,
            x_seeds,
            no_progress,
            coverage,
        } => {
            let units = resolve_units(&unit)?;
            let seed = seed.unwrap_or_else(fresh_seed);
            let variant = rtl.variant();
            let mut config =
                RunConfig { vectors, seed, max_failures, variant, wave: wave.into(), coverage, ..RunConfig::default() };
            if let Some(j) = jobs {
                config.jobs = j.max(1);
            }
            if let Some(a) = artifacts {
                config.artifacts = a;
            }
            config.progress =
                !no_progress && vectors >= 100_000 && std::io::IsTerminal::is_terminal(&std::io::stderr());
            println!(
                "gcn-vmem cosim: seed {seed}, {} thread(s), Verilator {}",
                config.jobs,
                gcn_vmem::verilator_version()
            );
            let mut summaries = Vec::new();
            for name in units {
                let summary = with_unit(name, RandomRun(&config)).ok_or_else(|| unknown_unit(name))??;
                summaries.push(summary);
                for k in 1..=x_seeds {
                    let x_config = RunConfig {
                        vectors: (vectors / x_seeds).max(1_000),
                        seed: seed.wrapping_add(k),
                        x_seed: Some(x_seed_of(seed, k)),
                        progress: false,
                        ..config.clone()
                    };
                    let summary = with_unit(name, RandomRun(&x_config)).ok_or_else(|| unknown_unit(name))??;
                    summaries.push(summary);
                }
            }
            print_summary(&summaries);
            let ok = summaries.iter().all(|s| s.failing_cases == 0);
            if !ok {
                println!("rerun with: gcn-vmem cosim --seed {seed}; replay a saved vector with: make wave UNIT=<unit> VECTOR=<file>");
            }
            Ok(ok)
        }
        Command::Replay { file, unit, wave, trace, rtl, x_seed } => {
            let name = match unit {
                Some(u) => u,
                None => unit_from_path(&file)?,
            };
            let rtl = RtlOptions { variant: rtl.variant(), wave: None, x_seed };
            with_unit(&name, ReplayRun { file: &file, wave: wave.as_deref(), trace, rtl })
                .ok_or_else(|| unknown_unit(&name))?
        }
        Command::Eval { unit, rtl, both } => {
            let mode = if both {
                EvalMode::Both
            } else if rtl {
                EvalMode::Rtl
            } else {
                EvalMode::Model
            };
            with_unit(&unit, EvalRun(mode)).ok_or_else(|| unknown_unit(&unit))?
        }
        Command::Bench { unit, vectors } => {
            let units = resolve_units(&unit)?;
            println!("gcn-vmem bench: {vectors} vectors per unit, one thread, release build expected (make bench)");
            println!(
                "{:<14} {:>14} {:>14} {:>14} {:>14} {:>14} {:>8}",
                "unit", "model v/s", "rtl(cxx) v/s", "C++ loop v/s", "lockstep v/s", "cosim v/s", "ratio"
            );
            for name in units {
                with_unit(name, BenchRun(vectors)).ok_or_else(|| unknown_unit(name))??;
            }
            println!("ratio = lockstep harness / plain C++ loop (target >= 0.8); cosim = lockstep with proptest generation and shrinking ready");
            Ok(true)
        }
        Command::Sweep { name, jobs, limit, no_progress } => {
            let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
            let progress = !no_progress && std::io::IsTerminal::is_terminal(&std::io::stderr());
            let artifacts = run::default_artifacts();
            let summary = match name.as_str() {
                // format_pack on 16_16_16_16 float: four f32 -> f16 conversions per vector, so
                // 2^30 vectors cover every one of the 2^32 f32 patterns.
                "f32-to-f16" => {
                    use gcn_vmem::format_pack::In;
                    sweep::sweep::<gcn_vmem::cosim::format_pack::Harness>(
                        &name,
                        limit.unwrap_or(1 << 30).min(1 << 30),
                        jobs,
                        &artifacts,
                        progress,
                        |i| {
                            let base = (i as u32) << 2;
                            let c = |k: u32| u128::from(base | k) << (32 * k);
                            In { valid: true, dfmt: 12, nfmt: 7, components: c(0) | c(1) | c(2) | c(3) }
                        },
                    )?
                }
                other => anyhow::bail!("unknown sweep `{other}`; the sweeps are: f32-to-f16"),
            };
            println!(
                "sweep {} on {}: {} vectors, {} failing, {:.1} s ({:.0} vectors/s, {} thread(s))",
                summary.name,
                summary.unit,
                summary.vectors,
                summary.failing,
                summary.elapsed.as_secs_f64(),
                summary.vectors as f64 / summary.elapsed.as_secs_f64(),
                jobs
            );
            if let Some(file) = &summary.saved {
                println!(
                    "first failing inputs saved to {}; replay with make wave UNIT={} VECTOR={}",
                    file.display(),
                    summary.unit,
                    file.display()
                );
            }
            Ok(summary.failing == 0)
        }
        Command::Coverage { dir, unit, show } => {
            for name in resolve_units(&unit)? {
                let points = gcn_vmem::cosim::coverage::read_unit(&dir, name)?;
                let kinds: Vec<String> = gcn_vmem::cosim::coverage::summary(&points)
                    .iter()
                    .map(|(kind, hit, total)| format!("{} {hit}/{total}", kind.trim_start_matches("v_")))
                    .collect();
                println!("{name:<14} {}", kinds.join("  "));
                for p in points.iter().filter(|p| p.count == 0).take(show) {
                    println!("    never hit: {} {}:{} {}", p.kind.trim_start_matches("v_"), p.file, p.line, p.name);
                }
            }
            Ok(true)
        }
        Command::Units => {
            for u in UNITS {
                println!("{u}");
            }
            Ok(true)
        }
    }
}

/// The X seed of the k-th X run of a `cosim` run with stimulus seed `seed` (SplitMix64).
fn x_seed_of(seed: u64, k: u64) -> u64 {
    let mut z = seed.wrapping_add(k.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) & 0x7fff_ffff
}

/// Which RTL build `cosim` and `replay` run.
#[derive(clap::Args, Clone, Copy, Debug)]
struct RtlArgs {
    /// Run against the unit's deliberately broken test-only RTL (to see the harness catch a bug).
    #[arg(long, conflicts_with = "break_asserts")]
    mutant: bool,
    /// Run against the unit's test-only build whose register inputs are corrupted so that each of
    /// its assertions fails (to see every assertion fire and be reported).
    #[arg(long)]
    break_asserts: bool,
}

impl RtlArgs {
    fn variant(self) -> Variant {
        if self.mutant {
            Variant::Mutant
        } else if self.break_asserts {
            Variant::BreakAsserts
        } else {
            Variant::AsWritten
        }
    }
}

fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}

fn unit_from_path(file: &Path) -> anyhow::Result<String> {
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

fn print_summary(summaries: &[Summary]) {
    println!("{:<25} {:>12} {:>12} {:>9} {:>12} {:>9}", "unit", "vectors", "cycles", "failing", "vectors/s", "seconds");
    for s in summaries {
        let unit = match s.x_seed {
            Some(x) => format!("{} xseed={x}", s.unit),
            None => s.unit.to_string(),
        };
        println!(
            "{:<25} {:>12} {:>12} {:>9} {:>12.0} {:>9.2}{}",
            unit,
            s.vectors,
            s.cycles,
            s.failing_cases,
            s.vectors_per_second(),
            s.elapsed.as_secs_f64(),
            if s.stopped { "  (stopped at --max-failures)" } else { "" }
        );
    }
}

struct RandomRun<'a>(&'a RunConfig);

impl Visit for RandomRun<'_> {
    type Output = anyhow::Result<Summary>;
    fn visit<B: Binding>(self) -> Self::Output {
        let summary = run::random::<B>(self.0)?;
        if !self.0.progress {
            for f in &summary.failures {
                run::print_failure(f);
            }
        }
        Ok(summary)
    }
}

struct ReplayRun<'a> {
    file: &'a Path,
    wave: Option<&'a Path>,
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
        if let Some(w) = &r.rtl_wave {
            println!("RTL waveform {}", w.display());
        }
        if let Some(w) = &r.diff_wave {
            println!("diff waveform {}", w.display());
        }
        if let Some(e) = &r.wave_error {
            eprintln!("warning: waveform not written: {e}");
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

#[derive(Clone, Copy, PartialEq, Eq)]
enum EvalMode {
    Model,
    Rtl,
    Both,
}

struct EvalRun(EvalMode);

/// Drives one input to the outputs: the vector, then idle cycles until valid_o.
fn drive<U: Unit>(unit: &mut U, input: &U::In) -> U::Out {
    let mut out = unit.step(input);
    let idle = U::In::default();
    for _ in 1..U::LATENCY {
        out = unit.step(&idle);
    }
    out
}

impl Visit for EvalRun {
    type Output = anyhow::Result<bool>;
    fn visit<B: Binding>(self) -> Self::Output {
        let mode = self.0;
        let mut model = B::Model::default();
        model.reset();
        let mut rtl = match mode {
            EvalMode::Model => None,
            _ => {
                let mut r = B::Rtl::open(&RtlOptions::default())?;
                r.reset();
                Some(r)
            }
        };
        let stdin = std::io::stdin();
        let mut stdout = std::io::stdout().lock();
        let mut ok = true;
        for (n, line) in stdin.lock().lines().enumerate() {
            let line = line.context("reading stdin")?;
            if line.trim().is_empty() {
                continue;
            }
            let reply = match vectors::parse_object::<<B::Model as Unit>::In>(&line, Strictness::Strict) {
                Err(e) => {
                    ok = false;
                    json!({ "error": format!("line {}: {e}", n + 1) })
                }
                Ok(input) => {
                    let expected = (mode != EvalMode::Rtl).then(|| drive(&mut model, &input));
                    let actual = rtl.as_mut().map(|r| drive(r, &input));
                    let failed = rtl.as_mut().map(|r| r.take_assertions()).unwrap_or_default();
                    match (expected, actual) {
                        _ if !failed.is_empty() => {
                            ok = false;
                            json!({ "error": format!(
                                "line {}: RTL assertion(s) failed: {} (rtl/{}.sv)",
                                n + 1,
                                failed.join(", "),
                                <B::Model as Unit>::NAME
                            ) })
                        }
                        (Some(e), Some(a)) if e != a => {
                            ok = false;
                            json!({ "error": format!(
                                "line {}: model and RTL differ: model {{{}}} rtl {{{}}}",
                                n + 1,
                                e.render(),
                                a.render()
                            ) })
                        }
                        (Some(out), _) | (None, Some(out)) => Value::Object(B::eval_output(&input, &out)),
                        (None, None) => unreachable!("eval runs at least one side"),
                    }
                }
            };
            writeln!(stdout, "{reply}")?;
            stdout.flush()?;
        }
        if let Some(r) = rtl.as_mut() {
            r.finish();
        }
        Ok(ok)
    }
}

struct BenchRun(u64);

/// Distinct vectors in a bench working set (the set is driven repeatedly).
const BENCH_SET: usize = 1 << 16;

impl Visit for BenchRun {
    type Output = anyhow::Result<()>;
    fn visit<B: Binding>(self) -> Self::Output {
        use proptest::strategy::{Strategy, ValueTree};
        let set = BENCH_SET.min(self.0.max(1) as usize);
        let rounds = (self.0 as usize).div_ceil(set) as u64;
        let n = set as f64 * rounds as f64;
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let strategy = B::stimulus();
        let mut inputs = Vec::with_capacity(set);
        while inputs.len() < set {
            let tree = strategy.new_tree(&mut runner).map_err(|e| anyhow::anyhow!("stimulus: {e}"))?;
            inputs.push(tree.current());
        }
        let rate = |elapsed: std::time::Duration| n / elapsed.as_secs_f64();

        let mut model = B::Model::default();
        model.reset();
        let t = Instant::now();
        for _ in 0..rounds {
            for i in &inputs {
                std::hint::black_box(model.step(std::hint::black_box(i)));
            }
        }
        let model_rate = rate(t.elapsed());

        let mut rtl = B::Rtl::open(&RtlOptions::default())?;
        rtl.reset();
        let t = Instant::now();
        for _ in 0..rounds {
            for i in &inputs {
                std::hint::black_box(rtl.step(i));
            }
        }
        let rtl_rate = rate(t.elapsed());

        let cpp_rate = rate(B::Rtl::plain_loop(&inputs, rounds));

        let mut lockstep = Lockstep::new(B::Model::default(), rtl);
        lockstep.reset();
        let t = Instant::now();
        let mut same = true;
        for _ in 0..rounds {
            for i in &inputs {
                same &= lockstep.step(i);
            }
        }
        let lockstep_rate = rate(t.elapsed());
        anyhow::ensure!(same, "{}: the bench vectors mismatched; run make cosim first", <B::Model as Unit>::NAME);
        lockstep.rtl.finish();

        let config = RunConfig {
            vectors: self.0 / 8,
            seed: 1,
            jobs: 1,
            artifacts: std::env::temp_dir().join("gcn-vmem-bench"),
            ..RunConfig::default()
        };
        let summary = run::random::<B>(&config)?;

        println!(
            "{:<14} {:>14.0} {:>14.0} {:>14.0} {:>14.0} {:>14.0} {:>8.2}",
            <B::Model as Unit>::NAME,
            model_rate,
            rtl_rate,
            cpp_rate,
            lockstep_rate,
            summary.vectors_per_second(),
            lockstep_rate / cpp_rate
        );
        Ok(())
    }
}
