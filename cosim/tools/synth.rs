//! `gcn-vmem synth` / `make synth`: every unit's RTL synthesized to Yosys's generic gates, one
//! table of cells, flops, the longest path in logic levels and the synthesis time.
//!
//! Each unit runs in its own scratch folder, target/synth/<unit>/ (removed and recreated by every
//! run), which holds afterwards the sources it read, the script (synth.ys), Yosys's log
//! (synth.log), the cell statistics (stat.json) and the longest path (ltp.txt). The script:
//!
//! ```text
//! read_slang -j 1 --single-unit -D SYNTHESIS <rtl/*_pkg.sv, sorted> <sub-modules> <unit>.sv --top <unit>
//! hierarchy -check -top <unit>
//! synth -flatten -top <unit>
//! check -assert
//! tee -q -o stat.json stat -json
//! tee -q -o ltp.txt ltp -noff
//! ```
//!
//! - `read_slang` as `gcn-vmem equiv` reads the RTL: the packages and the unit as one compilation
//!   unit (the packages' macros reach the unit), `SYNTHESIS` defined so that no assertion is
//!   compiled (rtl/vmem_prim_pkg.sv), parameters at their defaults (the test-only ones off).
//! - `synth -flatten`: Yosys's generic flow (coarse optimisation, `alumacc`, `share`, `techmap`
//!   to single-bit gates, `abc` on the combinational logic), with no cell library: the cells are
//!   Yosys's internal `$_AND_`, `$_XOR_`, `$_MUX_`, … and flops `$_DFF*`.
//! - `check -assert` makes a design problem (a combinational loop, a multiply driven or undriven
//!   wire) a failure rather than a warning in the log.
//! - `stat -json` counts the cells: cells are all of them, flops included; flops are the cell
//!   types containing `DFF` (one per register bit); latches (`$_DLATCH*`), which no unit should
//!   have, are counted apart and shown.
//! - `ltp -noff`: the longest topological path through the combinational cells, flops cut
//!   (register to register, input to register, register or input to output), in cells: "logic
//!   levels", a technology-independent stand-in for the critical path.
//!
//! The time is the wall-clock time of the Yosys process. Yosys for WebAssembly runs on one
//! thread, so units run in parallel up to `--jobs`; on a busy machine the times grow.
//!
//! # Designs built from other modules (the pipeline)
//!
//! `read_slang` flattens what it reads, so the pipeline, with 16 copies each of buffer_addr,
//! format_pack, format_unpack and swizzle and 32 of d16, would reach `synth` as one module of
//! half a million gates' worth of logic, which Yosys for WebAssembly cannot hold in its 4 GiB.
//! A unit that instantiates other modules ([`Flow::Hierarchical`]) runs in two steps instead:
//!
//! ```text
//! # elaborate.ys: the hierarchy as written, the macros as black boxes
//! read_slang -j 1 --single-unit -D SYNTHESIS --keep-hierarchy --blackboxed-module <macro>… <files> --top <unit>
//! hierarchy -check -top <unit>
//! tee -q -o modules.json stat -json
//! write_rtlil elaborated.il
//! # synth.ys: one copy of each module, synthesized, then flattened
//! read_rtlil elaborated.il
//! chtype -map <copy> <kept>        (every copy but one of each module: see below)
//! hierarchy -top <unit>
//! <synth's coarse steps without its two `check`s, `share -fast` for `share`>
//! synth -run fine:check
//! flatten
//! opt_clean
//! check -assert
//! tee -q -o stat.json stat -json
//! tee -q -o ltp.txt ltp -noff
//! ```
//!
//! - `--keep-hierarchy` gives every instance a module of its own (`d16$vmem_pipe.u_td.g_lane[3].u_d16`).
//!   Instances of one module whose elaborated statistics (`stat -json`: wires, cells by type,
//!   memories) are equal are taken as copies ([`copies`]): all but the first are retyped to it,
//!   so each distinct module is synthesized once. The units take no parameters but test-only
//!   ones left at their defaults, so their copies are equal; copies that differ are kept apart
//!   and synthesized each on its own.
//! - Each module is synthesized as it stands: constants at its ports are not carried into it.
//!   After `flatten`, `opt_clean` removes the gates whose outputs nothing reads.
//! - `synth`'s coarse `check`s are left out: on the TCP's word-level cells (wide `$shiftx`,
//!   `$bmux`, `$demux`) one took more than four minutes without ending; `check -assert` runs on
//!   the gates.
//! - `share -fast`: `share` (merging arithmetic that mutually exclusive conditions use) ran the
//!   TA out of memory after 17 minutes; `-fast` gives its SAT solver only the simple part of the
//!   control logic, so it may merge less, and the TA's share takes 21 s.
//! - [`MACROS`] are storage arrays a GPU builds from SRAM macros, left as black boxes: `stat`
//!   counts their instances apart ([`Stats::macros`]), and `ltp` counts one level through one.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use serde_json::Value;

use crate::tools::yosys;

/// Modules left as black boxes by synthesis: storage arrays that a GPU builds from SRAM macros
/// (rtl/<name>.sv says what each holds). Their instances are counted in [`Stats::macros`].
pub const MACROS: &[&str] = &["vmem_pipe_tcp_ram"];

/// How a unit is synthesized (module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// One module: `synth -flatten`.
    Flat,
    /// Built from other modules: elaborated with its hierarchy, each distinct module synthesized
    /// once, then flattened.
    Hierarchical,
}

/// What one synthesis reads and where it runs.
#[derive(Clone, Debug)]
pub struct Job {
    /// The top module (the unit's name).
    pub top: String,
    /// The sources, read in this order (packages first, the unit last); copied into `work`.
    pub sources: Vec<PathBuf>,
    /// The scratch folder (removed and recreated): Yosys runs there and sees nothing outside.
    pub work: PathBuf,
    /// [`Flow::Hierarchical`] when the unit instantiates other modules.
    pub flow: Flow,
}

impl Job {
    /// `unit` of the working tree: rtl/*_pkg.sv (sorted), the module files it instantiates (the
    /// pipeline's sub-blocks and units, [`yosys::submodules`]) and rtl/<unit>.sv, in
    /// `<root>/target/synth/<unit>`.
    pub fn for_unit(root: &Path, unit: &str) -> anyhow::Result<Job> {
        let rtl = root.join("rtl");
        let sources = yosys::unit_sources(&rtl, unit)?;
        let flow = if yosys::submodules(&rtl, unit)?.is_empty() { Flow::Flat } else { Flow::Hierarchical };
        Ok(Job { top: unit.to_string(), sources, work: root.join("target").join("synth").join(unit), flow })
    }
}

/// A synthesized design's numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Every cell of the generic netlist, flops included.
    pub cells: u64,
    /// Flip-flop cells (types containing `DFF`): one per register bit.
    pub flops: u64,
    /// Latch cells (`$_DLATCH*`).
    pub latches: u64,
    /// Instances of [`MACROS`] (black boxes, not in `cells`).
    pub macros: u64,
    /// Cells on the longest combinational path (`ltp -noff`).
    pub levels: u64,
}

/// One unit's synthesis.
#[derive(Debug)]
pub struct Report {
    pub top: String,
    /// The numbers, or why there are none (Yosys failed, or its reports could not be read).
    pub outcome: Result<Stats, String>,
    /// Wall-clock time of the Yosys run.
    pub elapsed: Duration,
    /// Yosys's log.
    pub log: PathBuf,
}

/// The Yosys script of [`Job`] (module documentation).
pub fn script(top: &str, files: &[String]) -> String {
    format!(
        "# gcn-vmem synth (cosim/tools/synth.rs): {top} to generic gates\n\
         read_slang -j 1 --single-unit -D SYNTHESIS {} --top {top}\n\
         hierarchy -check -top {top}\n\
         synth -flatten -top {top}\n\
         check -assert\n\
         tee -q -o stat.json stat -json\n\
         tee -q -o ltp.txt ltp -noff\n",
        files.join(" ")
    )
}

/// The scripts of a [`Flow::Hierarchical`] job's first step (module documentation).
pub fn elaborate_script(top: &str, files: &[String]) -> String {
    let macros: String = MACROS.iter().map(|m| format!("--blackboxed-module {m} ")).collect();
    format!(
        "# gcn-vmem synth (cosim/tools/synth.rs): {top} elaborated with its hierarchy\n\
         read_slang -j 1 --single-unit -D SYNTHESIS --keep-hierarchy {macros}{} --top {top}\n\
         hierarchy -check -top {top}\n\
         tee -q -o modules.json stat -json\n\
         write_rtlil elaborated.il\n",
        files.join(" ")
    )
}

/// The copies to retype, `(copy, kept)`, in the modules of an elaboration's `stat -json`
/// (module documentation): modules named `<name>$<instance path>` whose statistics equal an
/// earlier one's (in the order of their names) of the same `<name>`.
pub fn copies(json: &str) -> anyhow::Result<Vec<(String, String)>> {
    let value: Value = serde_json::from_str(json).context("stat output is not JSON")?;
    let modules = value.get("modules").and_then(Value::as_object).context("stat output has no modules")?;
    let mut kept: Vec<(&str, &Value, &String)> = Vec::new();
    let mut out = Vec::new();
    for (name, stats) in modules {
        let Some((base, _)) = name.trim_start_matches('\\').split_once('$') else { continue };
        match kept.iter().find(|(b, s, _)| *b == base && *s == stats) {
            Some((_, _, first)) => out.push((name.clone(), (*first).clone())),
            None => kept.push((base, stats, name)),
        }
    }
    Ok(out)
}

/// The second step's script of a [`Flow::Hierarchical`] job (module documentation).
pub fn hierarchical_script(top: &str, copies: &[(String, String)]) -> String {
    let mut s = format!(
        "# gcn-vmem synth (cosim/tools/synth.rs): {top} to generic gates, one copy of each module\n\
         read_rtlil elaborated.il\n"
    );
    for (copy, kept) in copies {
        s.push_str(&format!("chtype -map {} {}\n", escaped(copy), escaped(kept)));
    }
    s.push_str(&format!(
        "hierarchy -top {top}\n\
         proc\n\
         opt_expr\n\
         opt_clean\n\
         opt -nodffe -nosdff\n\
         fsm\n\
         opt\n\
         wreduce\n\
         peepopt\n\
         opt_clean\n\
         alumacc\n\
         share -fast\n\
         opt\n\
         memory -nomap\n\
         opt_clean\n\
         synth -run fine:check\n\
         flatten\n\
         opt_clean\n\
         check -assert\n\
         tee -q -o stat.json stat -json\n\
         tee -q -o ltp.txt ltp -noff\n"
    ));
    s
}

/// A module name as a script argument: public names with their leading backslash.
fn escaped(name: &str) -> String {
    if name.starts_with('\\') || name.starts_with('$') {
        name.to_string()
    } else {
        format!("\\{name}")
    }
}

/// Cells, flops, latches and macros of module `top` in `stat -json` output (levels left 0).
pub fn parse_stat(json: &str, top: &str) -> anyhow::Result<Stats> {
    let value: Value = serde_json::from_str(json).context("stat output is not JSON")?;
    let module = value
        .get("modules")
        .and_then(|m| m.get(format!("\\{top}")))
        .with_context(|| format!("stat output has no module `{top}`"))?;
    let cells = module.get("num_cells").and_then(Value::as_u64).context("stat output has no num_cells")?;
    let by_type =
        module.get("num_cells_by_type").and_then(Value::as_object).context("stat output has no num_cells_by_type")?;
    let (mut flops, mut latches, mut macros, mut listed) = (0, 0, 0, 0);
    for (kind, count) in by_type {
        let count = count.as_u64().with_context(|| format!("stat output: count of {kind} is not a number"))?;
        listed += count;
        if MACROS.contains(&kind.trim_start_matches('\\')) {
            macros += count;
        } else if kind.contains("DFF") {
            flops += count;
        } else if kind.contains("DLATCH") {
            latches += count;
        }
    }
    if listed != cells {
        anyhow::bail!("stat output: the cell types add up to {listed}, not num_cells = {cells}");
    }
    Ok(Stats { cells: cells - macros, flops, latches, macros, levels: 0 })
}

/// The length of the longest path in `ltp` output ("Longest topological path in m (length=N):").
pub fn parse_ltp(text: &str, top: &str) -> anyhow::Result<u64> {
    let prefix = format!("Longest topological path in {top} (length=");
    let line = text
        .lines()
        .find_map(|l| l.trim().strip_prefix(prefix.as_str()))
        .with_context(|| format!("ltp output has no longest path of `{top}`"))?;
    let digits = line.strip_suffix("):").with_context(|| format!("ltp output: unexpected line `{prefix}{line}`"))?;
    digits.parse().with_context(|| format!("ltp output: `{digits}` is not a path length"))
}

/// Synthesizes one job. Never panics: every problem is a failed [`Report`] naming the log.
pub fn synthesize(job: &Job) -> Report {
    let start = Instant::now();
    let log = job.work.join("synth.log");
    let outcome = run_job(job).map_err(|e| format!("{e:#}"));
    Report { top: job.top.clone(), outcome, elapsed: start.elapsed(), log }
}

fn run_job(job: &Job) -> anyhow::Result<Stats> {
    let work = &job.work;
    if work.exists() {
        std::fs::remove_dir_all(work).with_context(|| format!("cannot clear {}", work.display()))?;
    }
    std::fs::create_dir_all(work).with_context(|| format!("cannot create {}", work.display()))?;
    let mut files = Vec::new();
    for source in &job.sources {
        let name = source.file_name().with_context(|| format!("{} is not a file", source.display()))?;
        std::fs::copy(source, work.join(name)).with_context(|| format!("cannot copy {}", source.display()))?;
        files.push(name.to_string_lossy().into_owned());
    }
    let log = work.join("synth.log");
    let read = |name: &str| {
        let path = work.join(name);
        std::fs::read_to_string(&path)
            .with_context(|| format!("{} wrote no {} (log {})", yosys::YOSYS, path.display(), log.display()))
    };
    let step = |name: &str, script: String| -> anyhow::Result<()> {
        let path = work.join(format!("{name}.ys"));
        std::fs::write(&path, script).with_context(|| format!("cannot write {}", path.display()))?;
        if !yosys::run(work, name, None)? {
            let log = work.join(format!("{name}.log"));
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            anyhow::bail!(
                "{} failed (log {}):\n{}{}",
                yosys::YOSYS,
                log.display(),
                yosys::tail(&text, 8),
                yosys::crash_note(work, name)
            );
        }
        Ok(())
    };
    match job.flow {
        Flow::Flat => step("synth", script(&job.top, &files))?,
        Flow::Hierarchical => {
            step("elaborate", elaborate_script(&job.top, &files))?;
            let copies = copies(&read("modules.json")?)
                .with_context(|| format!("log {}", work.join("elaborate.log").display()))?;
            step("synth", hierarchical_script(&job.top, &copies))?;
        }
    }
    let mut stats = parse_stat(&read("stat.json")?, &job.top).with_context(|| format!("log {}", log.display()))?;
    stats.levels = parse_ltp(&read("ltp.txt")?, &job.top).with_context(|| format!("log {}", log.display()))?;
    Ok(stats)
}

/// Synthesizes every job, up to `jobs` at once; reports in the order of `list`. `done` is called
/// as each finishes (progress).
pub fn synthesize_all(list: &[Job], jobs: usize, done: &(dyn Fn(&Report) + Sync)) -> Vec<Report> {
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<Report>>> = list.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, list.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = list.get(i) else { break };
                let report = synthesize(job);
                done(&report);
                *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(report);
            });
        }
    });
    slots
        .into_iter()
        .zip(list)
        .map(|(slot, job)| {
            slot.into_inner().unwrap_or_else(|e| e.into_inner()).unwrap_or_else(|| Report {
                top: job.top.clone(),
                outcome: Err("not run (a worker stopped)".to_string()),
                elapsed: Duration::ZERO,
                log: job.work.join("synth.log"),
            })
        })
        .collect()
}

/// `n` with thousands separators (7018 → "7,018").
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The table header.
pub const HEADER: &str = "unit                cells    flops   levels    seconds";

/// One table row: the numbers, or FAILED with the reason (which names the log).
pub fn row(report: &Report) -> String {
    let seconds = report.elapsed.as_secs_f64();
    match &report.outcome {
        Ok(s) => {
            let mut line = format!(
                "{:<14} {:>10} {:>8} {:>8} {:>10.1}",
                report.top,
                grouped(s.cells),
                grouped(s.flops),
                s.levels,
                seconds
            );
            if s.macros > 0 {
                line.push_str(&format!("   (+ {} macro instance(s): {})", s.macros, MACROS.join(", ")));
            }
            if s.latches > 0 {
                line.push_str(&format!("   ({} latch cells)", s.latches));
            }
            line
        }
        Err(why) => {
            let mut line = format!("{:<14} FAILED after {seconds:.1} s: ", report.top);
            let mut lines = why.lines();
            line.push_str(lines.next().unwrap_or(""));
            for l in lines {
                line.push_str("\n    ");
                line.push_str(l);
            }
            line
        }
    }
}
