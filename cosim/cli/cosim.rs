//! `gcn-vmem cosim`: random vectors through model and RTL in lockstep, then the X runs, the
//! functional-coverage bins and the random programs on the executor.

use std::path::PathBuf;

use gcn_vmem::actions;
use gcn_vmem::engine::run::{self, RunConfig, Summary};
use gcn_vmem::engine::{policy, Gls};

use crate::common::{fresh_seed, resolve_units, RtlArgs, WaveArg};

#[derive(clap::Args)]
pub struct Args {
    /// Unit to run (repeatable); all units of cosim/units.txt by default.
    #[arg(long)]
    unit: Vec<String>,
    /// Valid input vectors per unit.
    #[arg(long, default_value_t = policy::DEFAULT_VECTORS)]
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
    /// Write the run's results here as JSON (seed, shard, units, vectors, cycles, failures with
    /// their files, the program suites, every bin's hits, the --coverage databases), for
    /// `gcn-vmem merge` to combine a run's shards into one verdict.
    #[arg(long, value_name = "PATH", env = "GCN_VMEM_RESULTS")]
    results: Option<PathBuf>,
}

/// Runs below this many vectors per unit show no progress bar.
const PROGRESS_MIN_VECTORS: u64 = 100_000;

pub fn run(args: Args) -> anyhow::Result<bool> {
    let units = resolve_units(&args.unit)?;
    check_args(&args)?;
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let config = run_config(&args, seed);
    println!(
        "gcn-vmem cosim: seed {seed}, {} thread(s), Verilator {}{}",
        config.jobs,
        gcn_vmem::verilator_version(),
        args.shard.map(|s| format!(", shard {s}")).unwrap_or_default()
    );
    let (summaries, databases) = run_units(&args, &units, &config)?;
    print_summary(&summaries);
    let mut ok = summaries.iter().all(|s| s.failing_cases == 0);
    // Holes in the functional coverage fail the run at the default budget (the stimulus
    // promises to reach every bin there), on the RTL as written, unsharded.
    let bins_required = policy::bins_required(args.require_bins, args.vectors, args.shard, config.variant);
    let bins = gcn_vmem::report::bins::report(&summaries, bins_required);
    ok &= bins.iter().all(|b| b.passed);
    let programs =
        args.programs.unwrap_or_else(|| policy::default_programs(args.unit.is_empty() && config.gls == Gls::Off));
    let suite = run_programs(&args, programs, &config)?;
    ok &= suite.as_ref().is_none_or(|s| s.failures.is_empty());
    if let Some(path) = &args.junit {
        gcn_vmem::report::junit::write(path, seed, args.shard, &summaries, &bins, suite.as_ref())?;
        println!("JUnit report {}", path.display());
    }
    if let Some(path) = &args.results {
        let results = gcn_vmem::report::results::Results {
            run: gcn_vmem::report::results::RunSettings {
                seed,
                vectors: args.vectors,
                x_seeds: args.x_seeds,
                programs,
                variant: config.variant,
                require_bins: args.require_bins,
                units,
            },
            shard: args.shard,
            summaries,
            programs: suite,
            coverage: databases,
        };
        gcn_vmem::report::results::write(path, &results)?;
        println!("results {} (gcn-vmem merge combines a run's shards)", path.display());
    }
    if !ok {
        println!(
            "rerun with: gcn-vmem cosim --seed {seed}; replay a saved vector with: make wave UNIT=<unit> VECTOR=<file>"
        );
    }
    Ok(ok)
}

/// The combinations of flags a run refuses, and report files it could not write, before it
/// starts.
fn check_args(args: &Args) -> anyhow::Result<()> {
    if args.shard.is_some() && args.seed.is_none() {
        anyhow::bail!(
            "--shard needs --seed: every shard of a run must draw from the same seed (e.g. --seed 1 --shard 2/8)"
        );
    }
    if let Some(path) = &args.junit {
        gcn_vmem::report::junit::check_writable(path)?;
    }
    if let Some(path) = &args.results {
        gcn_vmem::report::results::check_writable(path)?;
    }
    if args.rtl.gls() != Gls::Off && args.programs.is_some_and(|p| p > 0) {
        anyhow::bail!("--programs runs the executor on every unit's RTL; it has no gate-level (--gls) run");
    }
    if args.rtl.gls() != Gls::Off && args.results.is_some() {
        // A results file records the RTL build (`run.variant`), not a gate-level run: merging it
        // with an RTL run's shards would pass for one run.
        anyhow::bail!("--results does not record a gate-level (--gls) run; leave one of them out");
    }
    Ok(())
}

/// The random runs' settings from the flags.
fn run_config(args: &Args, seed: u64) -> RunConfig {
    let mut config = RunConfig {
        vectors: args.vectors,
        seed,
        max_failures: args.max_failures,
        variant: args.rtl.variant(),
        gls: args.rtl.gls(),
        wave: args.wave.into(),
        coverage: args.coverage.clone(),
        shrink: !args.no_shrink,
        shard: args.shard,
        ..RunConfig::default()
    };
    if let Some(j) = args.jobs {
        config.jobs = j.max(1);
    }
    if let Some(a) = &args.artifacts {
        config.artifacts = a.clone();
    }
    config.progress = !args.no_progress
        && args.vectors >= PROGRESS_MIN_VECTORS
        && std::io::IsTerminal::is_terminal(&std::io::stderr());
    config
}

/// Whether this run runs the suites that are not cut into chunks (a closed-loop unit's programs,
/// the executor's programs): shard 1 runs them whole and the other shards leave them out, so
/// that the shards of a run together run each program once (`gcn-vmem merge`).
fn runs_whole_suites(shard: Option<run::Shard>) -> bool {
    shard.is_none_or(|s| s.index == 1)
}

/// Each unit's random runs (and X runs): their summaries, and the Verilator coverage databases
/// the runs wrote.
fn run_units(args: &Args, units: &[&'static str], config: &RunConfig) -> anyhow::Result<(Vec<Summary>, Vec<PathBuf>)> {
    let mut summaries = Vec::new();
    let mut databases = Vec::new();
    for &name in units {
        let closed_loop = gcn_vmem::bindings::properties(name).is_some_and(|p| p.closed_loop);
        if closed_loop && !runs_whole_suites(args.shard) {
            println!("{name}: its random programs run in shard 1/{}", args.shard.map_or(1, |s| s.count));
            continue;
        }
        if config.gls != Gls::Off && args.unit.is_empty() && gcn_vmem::tools::gls::named_only(name) {
            println!("{}", gcn_vmem::tools::gls::named_only_note(name));
            continue;
        }
        if closed_loop {
            // Its random runs are whole programs of the pipeline (cosim/bindings/vmem_pipe/suite.rs).
            let summary = gcn_vmem::bindings::vmem_pipe::suite::run_pipe_suite(
                policy::pipe_programs(config.vectors),
                policy::PIPE_PROGRAM_LENGTH,
                config.seed,
                &config.artifacts,
                &gcn_vmem::engine::RtlOptions { variant: config.variant, gls: config.gls, ..Default::default() },
                config.max_failures as u64,
                config.shrink,
                config.jobs,
            )?;
            for f in &summary.failures {
                run::print_failure(f);
            }
            summaries.push(summary);
            continue;
        }
        summaries.push(actions::random(name, config)?);
        if let Some(dir) = &config.coverage {
            // Each worker writes <unit>-<worker>.dat (engine::run::random).
            let written = (0..config.jobs).map(|w| dir.join(format!("{name}-{w}.dat"))).filter(|f| f.is_file());
            databases.extend(written);
        }
        for k in 1..=args.x_seeds {
            let x_config = RunConfig {
                vectors: policy::x_run_vectors(config.vectors, args.x_seeds),
                seed: config.seed.wrapping_add(k),
                x_seed: Some(policy::x_seed_of(config.seed, k)),
                progress: false,
                ..config.clone()
            };
            summaries.push(actions::random(name, &x_config)?);
        }
    }
    Ok((summaries, databases))
}

/// The executor's random programs (`programs` of them) when this run runs them, printed.
fn run_programs(
    args: &Args,
    programs: u64,
    config: &RunConfig,
) -> anyhow::Result<Option<gcn_vmem::exec::suite::SuiteSummary>> {
    if programs == 0 {
        return Ok(None);
    }
    if !runs_whole_suites(args.shard) {
        println!("exec: the random programs run in shard 1/{}", args.shard.map_or(1, |s| s.count));
        return Ok(None);
    }
    let suite = gcn_vmem::exec::suite::run_suite(
        programs,
        policy::PROGRAM_LENGTH,
        config.seed,
        &config.artifacts,
        &gcn_vmem::exec::backends::UnitOptions::default(),
        config.jobs,
    )?;
    print_programs(&suite);
    Ok(Some(suite))
}

/// The executor's program suite: each failing program's lines, then its row of the table.
pub(crate) fn print_programs(suite: &gcn_vmem::exec::suite::SuiteSummary) {
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
}

/// The per-unit table: unit (and X seed), vectors, cycles, failing cases, vectors/s, seconds.
pub(crate) fn print_summary(summaries: &[Summary]) {
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
