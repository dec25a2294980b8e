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
    let Args {
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
        results,
    } = args;
    let units = resolve_units(&unit)?;
    if shard.is_some() && seed.is_none() {
        anyhow::bail!(
            "--shard needs --seed: every shard of a run must draw from the same seed (e.g. --seed 1 --shard 2/8)"
        );
    }
    if let Some(path) = &junit {
        gcn_vmem::report::junit::check_writable(path)?;
    }
    if let Some(path) = &results {
        gcn_vmem::report::results::check_writable(path)?;
    }
    let seed = seed.unwrap_or_else(fresh_seed);
    let variant = rtl.variant();
    let gls = rtl.gls();
    if gls != Gls::Off && programs.is_some_and(|p| p > 0) {
        anyhow::bail!("--programs runs the executor on every unit's RTL; it has no gate-level (--gls) run");
    }
    if gls != Gls::Off && results.is_some() {
        // A results file records the RTL build (`run.variant`), not a gate-level run: merging it
        // with an RTL run's shards would pass for one run.
        anyhow::bail!("--results does not record a gate-level (--gls) run; leave one of them out");
    }
    let mut config = RunConfig {
        vectors,
        seed,
        max_failures,
        variant,
        gls,
        wave: wave.into(),
        coverage: coverage.clone(),
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
        !no_progress && vectors >= PROGRESS_MIN_VECTORS && std::io::IsTerminal::is_terminal(&std::io::stderr());
    println!(
        "gcn-vmem cosim: seed {seed}, {} thread(s), Verilator {}{}",
        config.jobs,
        gcn_vmem::verilator_version(),
        shard.map(|s| format!(", shard {s}")).unwrap_or_default()
    );
    // The closed-loop suites (the pipeline's programs, the executor's programs) are not cut into
    // chunks: shard 1 runs them whole, the other shards leave them out, so that the shards of a
    // run together run each program once (`gcn-vmem merge`).
    let closed_loop = shard.is_none_or(|s| s.index == 1);
    let mut summaries = Vec::new();
    let mut databases = Vec::new();
    for &name in &units {
        if name == "vmem_pipe" && !closed_loop {
            println!("vmem_pipe: its random programs run in shard 1/{}", shard.map_or(1, |s| s.count));
            continue;
        }
        if gls != Gls::Off && unit.is_empty() && gcn_vmem::tools::gls::NAMED_ONLY.contains(&name) {
            println!("{}", gcn_vmem::tools::gls::named_only_note(name));
            continue;
        }
        if name == "vmem_pipe" {
            // A closed-loop unit: its random runs are whole programs (cosim/bindings/vmem_pipe/suite.rs).
            let summary = gcn_vmem::bindings::vmem_pipe::suite::run_pipe_suite(
                policy::pipe_programs(vectors),
                policy::PIPE_PROGRAM_LENGTH,
                seed,
                &config.artifacts,
                &gcn_vmem::engine::RtlOptions { variant, gls, ..Default::default() },
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
        let summary = actions::random(name, &config)?;
        summaries.push(summary);
        if let Some(dir) = &config.coverage {
            // Each worker writes <unit>-<worker>.dat (engine::run::random).
            let written = (0..config.jobs).map(|w| dir.join(format!("{name}-{w}.dat"))).filter(|f| f.is_file());
            databases.extend(written);
        }
        for k in 1..=x_seeds {
            let x_config = RunConfig {
                vectors: policy::x_run_vectors(vectors, x_seeds),
                seed: seed.wrapping_add(k),
                x_seed: Some(policy::x_seed_of(seed, k)),
                progress: false,
                ..config.clone()
            };
            let summary = actions::random(name, &x_config)?;
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
    let programs = programs.unwrap_or_else(|| policy::default_programs(unit.is_empty() && gls == Gls::Off));
    if programs > 0 && !closed_loop {
        println!("exec: the random programs run in shard 1/{}", shard.map_or(1, |s| s.count));
    }
    if programs > 0 && closed_loop {
        let suite = gcn_vmem::exec::suite::run_suite(
            programs,
            policy::PROGRAM_LENGTH,
            seed,
            &config.artifacts,
            &gcn_vmem::exec::backends::UnitOptions::default(),
            config.jobs,
        )?;
        print_programs(&suite);
        ok &= suite.failures.is_empty();
        suite_result = Some(suite);
    }
    if let Some(path) = &junit {
        gcn_vmem::report::junit::write(path, seed, shard, &summaries, &bins, suite_result.as_ref())?;
        println!("JUnit report {}", path.display());
    }
    if let Some(path) = &results {
        let settings = gcn_vmem::report::results::RunSettings {
            seed,
            vectors,
            x_seeds,
            programs,
            variant,
            require_bins,
            units: units.clone(),
        };
        let results = gcn_vmem::report::results::Results {
            run: settings,
            shard,
            summaries,
            programs: suite_result,
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
