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
//!   compiled (rtl/vmem_prim_pkg.sv), parameters at their defaults, and no test hook
//!   (`VMEM_TEST_HOOK` points are empty without VMEM_TEST_HOOKS).
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
//! half a million gates' worth of logic, which Yosys for WebAssembly cannot hold in its 4 GiB;
//! kept whole with its hierarchy (`--keep-hierarchy`), the design still runs out of memory in
//! `share`. A unit that instantiates other modules ([`Flow::Hierarchical`]) is therefore
//! synthesized **module by module**: each distinct module of its hierarchy (the units it uses,
//! its sub-blocks, the top) in a Yosys run of its own, in target/synth/<unit>/<module>/, up to
//! `--jobs` at a time, with the modules it instantiates as black boxes:
//!
//! ```text
//! [read_verilog -sv -lib <macro>.sv]…   (each child among MACROS: macro_declarations)
//! read_slang -j 1 --single-unit -D SYNTHESIS --blackboxed-module <child>… <files> --top <module>
//! hierarchy -check -top <module>
//! <synth's coarse steps without its two `check`s, `share -fast` for `share`>
//! synth -run fine:check
//! write_rtlil synth.il
//! ```
//!
//! then, in a second Yosys process (report.ys), the gate netlist alone:
//!
//! ```text
//! read_rtlil synth.il
//! check -assert
//! tee -q -o stat.json stat -json
//! tee -q -o ltp.txt ltp -noff * t:<child> %d …
//! ```
//!
//! Two processes because Yosys for WebAssembly keeps the memory it has grown to: the TD
//! (vmem_pipe_td) reaches its gates with most of its 4 GiB spent. `ltp` leaves the children's
//! instances out of its selection: it takes a cell it does not know as a path from each of its
//! input bits to each of its output bits, and the TD's 64 gather rows (4,384 input bits and 1,024
//! output bits each) would make that 287 million pairs, far past 4 GiB; so a path ends at a
//! child's ports, as the levels below say.
//!
//! The unit's row adds the modules up, each times its number of instances (from the instance
//! cells in its parents' statistics): cells and flops are the sum; levels are the longest path
//! **inside one module** (paths that cross a module's ports are not followed, and a module's
//! constant inputs are not carried into it: the figure is a hierarchical synthesis's). Under the
//! row, one line per module gives its own numbers and instance count.
//!
//! - `synth`'s coarse `check`s are left out: on the TCP's word-level cells (wide `$shiftx`,
//!   `$bmux`, `$demux`) one runs more than four minutes without ending; `check -assert` runs on
//!   the gates.
//! - `share -fast`: `share` (merging arithmetic that mutually exclusive conditions use) runs the
//!   pipeline out of memory; `-fast` gives its SAT solver only the simple part of the control
//!   logic, so it may merge less.
//! - [`MACROS`] are storage arrays a GPU builds from SRAM macros: never synthesized, their
//!   instances are counted apart ([`Stats::macros`]).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use serde_json::Value;

use crate::engine::rtl_sources;
use crate::tools::{scratch, yosys};

/// Modules left as black boxes by synthesis: storage arrays that a GPU builds from SRAM macros
/// (rtl/<name>.sv says what each holds). Their instances are counted in [`Stats::macros`].
pub const MACROS: &[&str] = &["vmem_pipe_tcp_ram", "vmem_pipe_rf"];

/// The lines that read the [`MACROS`] among `boxes` as parametric black boxes, before
/// `read_slang` (which is then told to leave them as black boxes): `read_verilog -sv -lib
/// <dir><macro>.sv`. A black box that `read_slang` declares itself has the ports of one parameter
/// set, and Yosys resizes every other instance's connections to them ("Resizing cell port"),
/// silently cutting the read data, write data or address of a second register file of another
/// shape; declared from its source, the box keeps each instance's own widths. (A macro's
/// parameter list therefore holds no `localparam`: an instance's value for one is refused.)
pub fn macro_declarations(boxes: &[String], dir: &str) -> String {
    boxes
        .iter()
        .filter(|m| MACROS.contains(&m.as_str()))
        .map(|m| format!("read_verilog -sv -lib {dir}{m}.sv\n"))
        .collect()
}

/// The instances whose ports Yosys resized to their module's ports, from a log ("Warning:
/// Resizing cell port top.u_x.rdata_o from 608 bits to 2128 bits."): each one a connection cut
/// or padded, so a run that shows one measures a different design.
pub fn resized_ports(log: &str) -> Vec<String> {
    log.lines()
        .filter_map(|l| l.split_once("Resizing cell port ").map(|(_, rest)| rest.trim_end_matches('.').to_string()))
        .collect()
}

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
    /// pipeline's sub-blocks and units, [`crate::engine::rtl_sources::submodules`]) and rtl/<unit>.sv, in
    /// `<root>/target/synth/<unit>`.
    pub fn for_unit(root: &Path, unit: &str) -> anyhow::Result<Job> {
        let rtl = root.join("rtl");
        let sources = rtl_sources::unit_sources(&rtl, unit)?;
        let flow = if rtl_sources::submodules(&rtl, unit)?.is_empty() { Flow::Flat } else { Flow::Hierarchical };
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
    /// A [`Flow::Hierarchical`] unit's modules, in synthesis order (empty for a flat unit).
    pub parts: Vec<PartReport>,
}

/// One module's synthesis within a [`Flow::Hierarchical`] unit.
#[derive(Debug)]
pub struct PartReport {
    pub module: String,
    /// Instances of it in the unit (0 when the count is unknown: a module failed; shown `x?`).
    pub instances: u64,
    /// Its own numbers (what it instantiates left out), or why there are none.
    pub outcome: Result<Stats, String>,
    pub elapsed: Duration,
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

/// The script of one module of a [`Flow::Hierarchical`] job (module documentation): `children`
/// are read as black boxes.
pub fn module_script(module: &str, files: &[String], children: &[String]) -> String {
    let boxes: String = children.iter().map(|m| format!("--blackboxed-module {m} ")).collect();
    let macros = macro_declarations(children, "");
    format!(
        "# gcn-vmem synth (cosim/tools/synth.rs): {module} to generic gates, what it instantiates as black boxes\n\
         {macros}read_slang -j 1 --single-unit -D SYNTHESIS {boxes}{} --top {module}\n\
         hierarchy -check -top {module}\n\
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
         write_rtlil synth.il\n",
        files.join(" ")
    )
}

/// The second script of one module of a [`Flow::Hierarchical`] job (module documentation): the
/// checks and numbers of the netlist that [`module_script`] wrote, in a fresh Yosys process.
/// `ltp` leaves out the instances of `children`: paths end at a child's ports.
pub fn report_script(module: &str, children: &[String]) -> String {
    let without: String = children.iter().map(|c| format!(" t:{c} %d")).collect();
    let selection = if children.is_empty() { String::new() } else { format!(" *{without}") };
    format!(
        "# gcn-vmem synth (cosim/tools/synth.rs): the checks and numbers of {module}'s gates\n\
         read_rtlil synth.il\n\
         check -assert\n\
         tee -q -o stat.json stat -json\n\
         tee -q -o ltp.txt ltp -noff{selection}\n"
    )
}

/// One module of a [`Flow::Hierarchical`] job: its own numbers (its children's instances not
/// in `cells`), how many instances of it the unit has, and the instances of each child it holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Part {
    pub module: String,
    pub instances: u64,
    pub stats: Stats,
    pub children: Vec<(String, u64)>,
}

/// Adds up a hierarchy's parts (module documentation): `parts` each with its own numbers and
/// children; the instance counts are filled in from `top` down. An error when a child has no
/// part (it failed) or the hierarchy has a loop.
pub fn combine(top: &str, parts: &mut [Part]) -> anyhow::Result<Stats> {
    for p in parts.iter_mut() {
        p.instances = u64::from(p.module == top);
    }
    // Parents before children: repeat until nothing changes (the hierarchy is small).
    let mut order: Vec<String> = vec![top.to_string()];
    let mut at = 0;
    while at < order.len() {
        let module = order[at].clone();
        let part = parts.iter().find(|p| p.module == module).with_context(|| format!("no synthesis of {module}"))?;
        for (child, _) in &part.children {
            if !order.contains(child) {
                order.push(child.clone());
            }
        }
        at += 1;
        anyhow::ensure!(order.len() <= parts.len() + 1, "the hierarchy of {top} has a loop");
    }
    for module in &order {
        let (count, children) = {
            let p = parts.iter().find(|p| &p.module == module).with_context(|| format!("no synthesis of {module}"))?;
            (p.instances, p.children.clone())
        };
        for (child, n) in children {
            let c = parts.iter_mut().find(|p| p.module == child).with_context(|| format!("no synthesis of {child}"))?;
            c.instances += count * n;
        }
    }
    let mut total = Stats::default();
    for p in parts.iter().filter(|p| p.instances > 0) {
        total.cells += p.instances * p.stats.cells;
        total.flops += p.instances * p.stats.flops;
        total.latches += p.instances * p.stats.latches;
        total.macros += p.instances * p.stats.macros;
        total.levels = total.levels.max(p.stats.levels);
    }
    Ok(total)
}

/// The instances of `children` in module `top`'s `stat -json` output.
pub fn child_instances(json: &str, top: &str, children: &[String]) -> anyhow::Result<Vec<(String, u64)>> {
    let value: Value = serde_json::from_str(json).context("stat output is not JSON")?;
    let by_type = value
        .get("modules")
        .and_then(|m| m.get(format!("\\{top}")))
        .and_then(|m| m.get("num_cells_by_type"))
        .and_then(Value::as_object)
        .with_context(|| format!("stat output has no cell types of `{top}`"))?;
    let mut out = Vec::new();
    for child in children {
        let n = by_type.get(child.as_str()).or_else(|| by_type.get(&format!("\\{child}"))).and_then(Value::as_u64);
        out.push((child.clone(), n.unwrap_or(0)));
    }
    Ok(out)
}

/// Cells, flops, latches and macros of module `top` in `stat -json` output (levels left 0).
pub fn parse_stat(json: &str, top: &str) -> anyhow::Result<Stats> {
    parse_stat_boxed(json, top, &[])
}

/// [`parse_stat`] of a module whose `boxes` (other modules' instances) are left out of its cells.
pub fn parse_stat_boxed(json: &str, top: &str, boxes: &[String]) -> anyhow::Result<Stats> {
    let value: Value = serde_json::from_str(json).context("stat output is not JSON")?;
    let module = value
        .get("modules")
        .and_then(|m| m.get(format!("\\{top}")))
        .with_context(|| format!("stat output has no module `{top}`"))?;
    let cells = module.get("num_cells").and_then(Value::as_u64).context("stat output has no num_cells")?;
    let by_type =
        module.get("num_cells_by_type").and_then(Value::as_object).context("stat output has no num_cells_by_type")?;
    let (mut flops, mut latches, mut macros, mut boxed, mut listed) = (0, 0, 0, 0, 0);
    for (kind, count) in by_type {
        let count = count.as_u64().with_context(|| format!("stat output: count of {kind} is not a number"))?;
        listed += count;
        let name = kind.trim_start_matches('\\');
        if MACROS.contains(&name) {
            macros += count;
        } else if boxes.iter().any(|b| b == name) {
            boxed += count;
        } else if kind.contains("DFF") {
            flops += count;
        } else if kind.contains("DLATCH") {
            latches += count;
        }
    }
    if listed != cells {
        anyhow::bail!("stat output: the cell types add up to {listed}, not num_cells = {cells}");
    }
    Ok(Stats { cells: cells - macros - boxed, flops, latches, macros, levels: 0 })
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
    let (outcome, parts) = match job.flow {
        Flow::Flat => (run_job(job).map_err(|e| format!("{e:#}")), Vec::new()),
        Flow::Hierarchical => run_modules(job),
    };
    Report { top: job.top.clone(), outcome, elapsed: start.elapsed(), log, parts }
}

fn run_job(job: &Job) -> anyhow::Result<Stats> {
    let work = &job.work;
    scratch::fresh(work)?;
    let files = scratch::copy_sources(&job.sources, work)?;
    let log = work.join("synth.log");
    let read = |name: &str| {
        let path = work.join(name);
        std::fs::read_to_string(&path)
            .with_context(|| format!("{} wrote no {} (log {})", yosys::YOSYS, path.display(), log.display()))
    };
    std::fs::write(work.join("synth.ys"), script(&job.top, &files))
        .with_context(|| format!("cannot write {}", work.join("synth.ys").display()))?;
    run_yosys(work, "synth")?;
    let mut stats = parse_stat(&read("stat.json")?, &job.top).with_context(|| format!("log {}", log.display()))?;
    stats.levels = parse_ltp(&read("ltp.txt")?, &job.top).with_context(|| format!("log {}", log.display()))?;
    Ok(stats)
}

/// The file names of `paths` (the scratch folders hold the sources by name).
fn source_names(paths: &[PathBuf]) -> anyhow::Result<Vec<String>> {
    paths
        .iter()
        .map(|p| {
            p.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .with_context(|| format!("{} is not a file", p.display()))
        })
        .collect()
}

/// Runs `work/<name>.ys`; an error naming the log (and a crash) when Yosys fails.
pub fn run_yosys(work: &Path, name: &str) -> anyhow::Result<()> {
    let ok = yosys::run(work, name, None)?;
    let log = work.join(format!("{name}.log"));
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    if !ok {
        anyhow::bail!(
            "{} failed (log {}):\n{}{}",
            yosys::YOSYS,
            log.display(),
            yosys::tail(&text, 8),
            yosys::crash_note(work, name)
        );
    }
    refuse_resized_ports(&text, &log)
}

/// An error when the Yosys log `text` (at `log`) shows resized instance ports ([`resized_ports`]):
/// the run measured, or compared, a different design than the one written.
pub fn refuse_resized_ports(text: &str, log: &Path) -> anyhow::Result<()> {
    let resized = resized_ports(text);
    if let Some(first) = resized.first() {
        anyhow::bail!(
            "{} resized {} instance port(s) to their module's width, first {first} (log {}): a black \
             box declared with one parameter set serves instances of another; read it as a macro \
             (cosim/tools/synth.rs MACROS, macro_declarations)",
            yosys::YOSYS,
            resized.len(),
            log.display()
        );
    }
    Ok(())
}

/// A [`Flow::Hierarchical`] job, module by module (module documentation). Every module is tried,
/// so that the parts show which of them fail.
fn run_modules(job: &Job) -> (Result<Stats, String>, Vec<PartReport>) {
    let rtl = match job.sources.last().and_then(|p| p.parent()) {
        Some(dir) => dir.to_path_buf(),
        None => return (Err("the job has no sources".to_string()), Vec::new()),
    };
    let modules = match rtl_sources::submodules(&rtl, &job.top) {
        Ok(files) => {
            let mut list: Vec<String> = files.iter().map(|f| f.trim_end_matches(".sv").to_string()).collect();
            list.retain(|m| !MACROS.contains(&m.as_str()));
            list.push(job.top.clone());
            list
        }
        Err(e) => return (Err(format!("{e:#}")), Vec::new()),
    };
    if let Err(e) = std::fs::remove_dir_all(&job.work).or_else(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Ok(()),
        _ => Err(e),
    }) {
        return (Err(format!("cannot clear {}: {e}", job.work.display())), Vec::new());
    }
    let mut parts = Vec::new();
    let mut reports = Vec::new();
    for module in &modules {
        let start = Instant::now();
        let outcome = run_module(&rtl, &job.work.join(module), module);
        let elapsed = start.elapsed();
        match outcome {
            Ok((stats, children)) => {
                parts.push(Part { module: module.clone(), instances: 0, stats, children });
                reports.push(PartReport { module: module.clone(), instances: 0, outcome: Ok(stats), elapsed });
            }
            Err(e) => reports.push(PartReport {
                module: module.clone(),
                instances: 0,
                outcome: Err(format!("{e:#}")),
                elapsed,
            }),
        }
    }
    let total = combine(&job.top, &mut parts);
    for r in &mut reports {
        // Counts only when the whole hierarchy is known (a failed module's children are not).
        r.instances = match total {
            Ok(_) => parts.iter().find(|p| p.module == r.module).map_or(0, |p| p.instances),
            Err(_) => 0,
        };
    }
    let failed: Vec<&str> = reports.iter().filter(|r| r.outcome.is_err()).map(|r| r.module.as_str()).collect();
    let outcome = if failed.is_empty() {
        total.map_err(|e| format!("{e:#}"))
    } else {
        Err(format!(
            "{} of {} modules failed: {} (see the lines below)",
            failed.len(),
            reports.len(),
            failed.join(", ")
        ))
    };
    (outcome, reports)
}

/// One module of a hierarchical job in `work`: its own numbers and its children's instances.
fn run_module(rtl: &Path, work: &Path, module: &str) -> anyhow::Result<(Stats, Vec<(String, u64)>)> {
    std::fs::create_dir_all(work).with_context(|| format!("cannot create {}", work.display()))?;
    let sources = source_names(&rtl_sources::unit_sources(rtl, module)?)?;
    for name in &sources {
        std::fs::copy(rtl.join(name), work.join(name)).with_context(|| format!("cannot copy {name}"))?;
    }
    let children = rtl_sources::children(rtl, module)?;
    for (name, text) in
        [("synth", module_script(module, &sources, &children)), ("report", report_script(module, &children))]
    {
        let path = work.join(format!("{name}.ys"));
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    for stale in ["synth.il", "stat.json", "ltp.txt"] {
        let _ = std::fs::remove_file(work.join(stale));
    }
    run_yosys(work, "synth")?;
    run_yosys(work, "report")?;
    let log = work.join("report.log");
    let read = |name: &str| {
        let path = work.join(name);
        std::fs::read_to_string(&path)
            .with_context(|| format!("{} wrote no {} (log {})", yosys::YOSYS, path.display(), log.display()))
    };
    let units: Vec<String> = children.iter().filter(|c| !MACROS.contains(&c.as_str())).cloned().collect();
    let stat = read("stat.json")?;
    let mut stats = parse_stat_boxed(&stat, module, &units).with_context(|| format!("log {}", log.display()))?;
    stats.levels = parse_ltp(&read("ltp.txt")?, module).with_context(|| format!("log {}", log.display()))?;
    let instances = child_instances(&stat, module, &units).with_context(|| format!("log {}", log.display()))?;
    Ok((stats, instances))
}

/// Synthesizes every job, up to `jobs` at once; reports in the order of `list`. `done` is called
/// as each finishes (progress).
pub fn synthesize_all(list: &[Job], jobs: usize, done: &(dyn Fn(&Report) + Sync)) -> Vec<Report> {
    crate::engine::pool::each(list, jobs, synthesize, done)
}

/// `n` with thousands separators (7018 → "7,018").
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The table header.
pub const HEADER: &str = "unit                cells    flops   levels    seconds";

/// One table row: the numbers, or FAILED with the reason (which names the log); for a
/// [`Flow::Hierarchical`] unit, then a line per module.
pub fn row(report: &Report) -> String {
    let seconds = report.elapsed.as_secs_f64();
    let mut out = match &report.outcome {
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
    };
    for part in &report.parts {
        let secs = part.elapsed.as_secs_f64();
        out.push_str(&match &part.outcome {
            Ok(st) => format!(
                "\n  {:<22} x{:<3} {:>10} {:>8} {:>8} {:>10.1}",
                part.module,
                if part.instances == 0 { "?".to_string() } else { part.instances.to_string() },
                grouped(st.cells),
                grouped(st.flops),
                st.levels,
                secs
            ),
            Err(why) => {
                format!("\n  {:<22} FAILED after {secs:.1} s: {}", part.module, why.lines().next().unwrap_or("").trim())
            }
        });
    }
    out
}
