//! `gcn-vmem merge FILES…`: the results files of a run's shards (`cosim --shard K/N --results`)
//! as one verdict, as the unsharded run would have given it: the per-unit table, the failures,
//! the functional-coverage bins (failing as an unsharded run fails, `policy::bins_required`),
//! the program suite, a JUnit report and one merged Verilator coverage database.

use std::path::PathBuf;

use gcn_vmem::engine::policy;
use gcn_vmem::engine::run;
use gcn_vmem::report::results;

use crate::cosim::{print_programs, print_summary};

#[derive(clap::Args)]
pub struct Args {
    /// The results files of every shard of one run (`gcn-vmem cosim --shard K/N --results PATH`).
    #[arg(required = true, value_name = "FILES")]
    files: Vec<PathBuf>,
    /// Write the merged run's JUnit XML report here.
    #[arg(long, value_name = "PATH")]
    junit: Option<PathBuf>,
    /// Write the merged results here (the unsharded run's results file, shard null).
    #[arg(long, value_name = "PATH")]
    results: Option<PathBuf>,
    /// Where the merged Verilator coverage database goes, when the shards ran with --coverage
    /// (default: merged.dat beside the first results file).
    #[arg(long, value_name = "PATH")]
    coverage: Option<PathBuf>,
    /// Fail on any functional-coverage bin left unhit, whatever the budget (as `cosim
    /// --require-bins`; a shard that ran with it asks for it too).
    #[arg(long)]
    require_bins: bool,
}

pub fn run(args: Args) -> anyhow::Result<bool> {
    if let Some(path) = &args.junit {
        gcn_vmem::report::junit::check_writable(path)?;
    }
    if let Some(path) = &args.results {
        results::check_writable(path)?;
    }
    let mut files = Vec::new();
    for file in &args.files {
        files.push((file.clone(), results::read(file)?));
    }
    let shards = files.len();
    let merged = results::merge(files)?;
    let run = &merged.run;
    println!(
        "gcn-vmem merge: seed {}, {shards} results file(s) ({}), Verilator {}",
        run.seed,
        args.files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(" "),
        gcn_vmem::verilator_version()
    );
    for s in &merged.summaries {
        for f in &s.failures {
            run::print_failure(f);
        }
    }
    println!("(seconds and vectors/s: the shards' seconds added up)");
    print_summary(&merged.summaries);
    let mut ok = merged.summaries.iter().all(|s| s.failing_cases == 0);
    // The merged run is the unsharded one: its holes fail it as they fail an unsharded run.
    let required = policy::bins_required(args.require_bins || run.require_bins, run.vectors, None, run.variant);
    let bins = gcn_vmem::report::bins::report(&merged.summaries, required);
    ok &= bins.iter().all(|b| b.passed);
    if let Some(suite) = &merged.programs {
        print_programs(suite);
        ok &= suite.failures.is_empty();
    }
    if let Some(path) = &args.junit {
        gcn_vmem::report::junit::write(path, run.seed, None, &merged.summaries, &bins, merged.programs.as_ref())?;
        println!("JUnit report {}", path.display());
    }
    if !merged.coverage.is_empty() {
        let out = args
            .coverage
            .clone()
            .unwrap_or_else(|| args.files[0].parent().unwrap_or(std::path::Path::new("")).join("merged.dat"));
        results::merge_coverage(&merged.coverage, &out)?;
        println!(
            "merged Verilator coverage {} ({} databases; `verilator_coverage --annotate DIR {}`)",
            out.display(),
            merged.coverage.len(),
            out.display()
        );
    } else if args.coverage.is_some() {
        println!("no Verilator coverage databases in the results (the shards ran without --coverage)");
    }
    if let Some(path) = &args.results {
        results::write(path, &merged)?;
        println!("merged results {}", path.display());
    }
    if !ok {
        println!(
            "rerun with: gcn-vmem cosim --seed {} --vectors {}; replay a saved vector with: make wave UNIT=<unit> VECTOR=<file>",
            run.seed, run.vectors
        );
    }
    Ok(ok)
}
