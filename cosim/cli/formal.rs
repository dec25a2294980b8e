//! `gcn-vmem formal` (`make formal`): property proofs of a module's assertions (bounded from
//! reset, then k-induction), one line per assertion: proven, refuted with its counterexample's VCD,
//! or unknown.

use std::path::{Path, PathBuf};

use gcn_vmem::tools::formal;

#[derive(clap::Args)]
pub struct Args {
    /// The module whose assertions to prove: rtl/<top>.sv (with formal/<top>_props.sv when it
    /// exists), or a module of a --file.
    #[arg(long)]
    top: String,
    /// A parameter of the top, NAME=VALUE (repeatable).
    #[arg(long = "param", value_parser = formal::parse_param)]
    params: Vec<(String, String)>,
    /// A macro to define, NAME or NAME=VALUE (repeatable).
    #[arg(long = "define")]
    defines: Vec<String>,
    /// A test hook to compile: NAME (rtl/test/NAME.svh at the hook point NAME) or NAME=FILE (the
    /// file's text there instead, e.g. a planted bug of formal/test/; repeatable).
    #[arg(long = "hook", value_parser = formal::parse_hook)]
    hooks: Vec<(String, Option<PathBuf>)>,
    /// Another source file, read after the RTL (repeatable).
    #[arg(long = "file")]
    files: Vec<PathBuf>,
    /// Cycles from reset of the bounded check, and the longest induction tried.
    #[arg(long, default_value_t = formal::DEFAULT_DEPTH)]
    depth: usize,
    /// Stop after this many seconds (then exit 2).
    #[arg(long)]
    timeout: Option<u64>,
    /// The bounded check alone (no induction): exits 0 when no assertion is refuted.
    #[arg(long)]
    bmc_only: bool,
}

/// Ok(false) when an assertion is refuted or unproven; an error (exit 2) when the proof could not
/// run.
pub fn run(args: Args) -> anyhow::Result<bool> {
    let Args { top, params, defines, hooks, files, depth, timeout, bmc_only } = args;
    formal::check_tools()?;
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let cwd = std::env::current_dir().unwrap_or_default();
    let shown = |p: &Path| -> String { p.strip_prefix(&cwd).unwrap_or(p).display().to_string() };
    let absolute = |f: PathBuf| if f.is_absolute() { f } else { cwd.join(f) };
    let files = files.into_iter().map(absolute).collect();
    let hooks = hooks.into_iter().map(|(h, f)| (h, f.map(absolute))).collect();
    let config = formal::Config {
        top: top.clone(),
        files,
        params: params.clone(),
        defines,
        hooks,
        depth,
        root,
        work: None,
        timeout: timeout.map(std::time::Duration::from_secs),
        induction: !bmc_only,
    };
    let shown_params: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    println!(
        "gcn-vmem formal: {top}{} (bounded {depth} cycles from reset{}; {} + {})",
        if shown_params.is_empty() { String::new() } else { format!(" #({})", shown_params.join(", ")) },
        if bmc_only { "" } else { ", then k-induction" },
        formal::SMTBMC,
        formal::BOOLECTOR
    );
    let report = formal::check(&config)?;
    for line in report.lines(&shown) {
        println!("{line}");
    }
    println!("logs and traces: {}", shown(&report.work));
    Ok(if bmc_only { report.none_refuted() } else { report.all_proven() })
}
