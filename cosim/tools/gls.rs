//! `gcn-vmem netlist` / `make gls`: each unit synthesized by Yosys to a generic-gate Verilog
//! netlist that Verilator builds as the unit's gate-level variant (docs/integrations/gls.md).
//!
//! Each netlist is synthesized in its own scratch folder, target/gls/work/<name>/ (removed and
//! recreated by every run; Yosys for WebAssembly sees only the folder it runs in), with the same
//! frontend and flow as `make synth` ([`crate::tools::synth`]), then written as plain Verilog:
//!
//! ```text
//! read_slang -j 1 --single-unit -D SYNTHESIS <rtl/*_pkg.sv, sorted> <sub-modules> <unit>.sv --top <unit>
//! hierarchy -check -top <unit>
//! synth -flatten -top <unit>
//! check -assert
//! opt_clean -purge
//! write_verilog -noattr netlist.v
//! ```
//!
//! `write_verilog` prints Yosys's generic cells as expressions (`assign _07_ = _00_ | s1_q[1];`,
//! `$_MUX_` as `?:`) and each flop as its own `always @(posedge clk_i, negedge rst_ni)` block
//! with the asynchronous active-low reset the RTL's `VMEM_FF` describes, so Verilator reads it
//! with no cell library. `-D SYNTHESIS` leaves the assertions out (a netlist has none; only
//! outputs are compared). `opt_clean -purge` drops the internal names Yosys keeps for debugging.
//!
//! The netlist is copied to target/gls/netlist/<name>.v, beside <name>.sources: one line per
//! source read, `<FNV-1a 64 of its contents, hex> <path>`, so that build.rs
//! (cosim/engine/gls_build.rs) can tell a netlist synthesized from sources that changed since.
//!
//! A unit with a test-only trap, tests/gls/<unit>_trap.sv, also gets <unit>_trap.v there,
//! the netlist of the trap (top `<unit>_trap`, which instantiates the unit).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context as _;

use crate::tools::yosys;

/// Units with no gate-level run, and why (docs/integrations/gls.md).
pub const EXCLUDED: &[(&str, &str)] = &[(
    "vmem_pipe",
    "it is synthesized module by module (`make synth UNIT=vmem_pipe`: 4.6 million cells, 64 of \
     its modules one gather row), while the netlist flow writes one flat netlist per unit, and the whole \
     pipeline in one Yosys process ran out of Yosys for WebAssembly's 4 GiB (docs/formal-and-synthesis.md); \
     and its random runs are whole programs \
     (cosim/exec/pipe_suite.rs) that open its RTL builds only",
)];

/// Why `unit` has no gate-level run, if it has none.
pub fn excluded(unit: &str) -> Option<&'static str> {
    EXCLUDED.iter().find(|(u, _)| *u == unit).map(|(_, why)| *why)
}

/// One netlist to synthesize.
#[derive(Clone, Debug)]
pub struct Job {
    /// The netlist's name: the unit's, or `<unit>_trap`.
    pub name: String,
    /// The top module (`name`).
    pub top: String,
    /// The sources, read in this order (packages first); copied into `work`.
    pub sources: Vec<PathBuf>,
    /// The scratch folder (removed and recreated).
    pub work: PathBuf,
    /// Where the netlist goes: `<out>/<name>.v` and `<out>/<name>.sources`.
    pub out: PathBuf,
}

impl Job {
    /// The netlist of rtl/<unit>.sv of the working tree (its packages and sub-modules, as
    /// [`crate::tools::synth::Job::for_unit`] reads them).
    pub fn for_unit(root: &Path, unit: &str) -> anyhow::Result<Job> {
        let sources = yosys::unit_sources(&root.join("rtl"), unit)?;
        Ok(Job::named(root, unit, sources))
    }

    /// The netlist of the unit's test-only trap, tests/gls/<unit>_trap.sv, when it exists.
    pub fn trap(root: &Path, unit: &str) -> anyhow::Result<Option<Job>> {
        let file = trap_file(root, unit);
        if !file.is_file() {
            return Ok(None);
        }
        let mut job = Job::for_unit(root, unit)?;
        job.sources.push(file);
        Ok(Some(Job::named(root, &format!("{unit}_trap"), job.sources)))
    }

    fn named(root: &Path, name: &str, sources: Vec<PathBuf>) -> Job {
        let gls = root.join("target").join("gls");
        Job {
            name: name.to_string(),
            top: name.to_string(),
            sources,
            work: gls.join("work").join(name),
            out: gls.join("netlist"),
        }
    }

    /// target/gls/netlist/<name>.v.
    pub fn netlist(&self) -> PathBuf {
        self.out.join(format!("{}.v", self.name))
    }
}

/// tests/gls/<unit>_trap.sv.
pub fn trap_file(root: &Path, unit: &str) -> PathBuf {
    root.join("tests").join("gls").join(format!("{unit}_trap.sv"))
}

/// The Yosys script of a [`Job`] (module documentation).
pub fn script(top: &str, files: &[String]) -> String {
    format!(
        "# gcn-vmem netlist (cosim/tools/gls.rs): {top} to a generic-gate Verilog netlist\n\
         read_slang -j 1 --single-unit -D SYNTHESIS {} --top {top}\n\
         hierarchy -check -top {top}\n\
         synth -flatten -top {top}\n\
         check -assert\n\
         opt_clean -purge\n\
         write_verilog -noattr netlist.v\n",
        files.join(" ")
    )
}

/// 64-bit FNV-1a, as build.rs hashes files.
pub fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// One netlist's outcome.
#[derive(Debug)]
pub struct Report {
    pub name: String,
    /// The netlist written, or why there is none (names the log).
    pub outcome: Result<PathBuf, String>,
    pub elapsed: Duration,
}

/// Synthesizes one job into its netlist. Never panics.
pub fn synthesize(job: &Job, root: &Path) -> Report {
    let start = Instant::now();
    let outcome = run_job(job, root).map_err(|e| format!("{e:#}"));
    Report { name: job.name.clone(), outcome, elapsed: start.elapsed() }
}

fn run_job(job: &Job, root: &Path) -> anyhow::Result<PathBuf> {
    let work = &job.work;
    if work.exists() {
        std::fs::remove_dir_all(work).with_context(|| format!("cannot clear {}", work.display()))?;
    }
    std::fs::create_dir_all(work).with_context(|| format!("cannot create {}", work.display()))?;
    let mut files = Vec::new();
    let mut listing = String::new();
    for source in &job.sources {
        let name = source.file_name().with_context(|| format!("{} is not a file", source.display()))?;
        let bytes = std::fs::read(source).with_context(|| format!("cannot read {}", source.display()))?;
        std::fs::write(work.join(name), &bytes).with_context(|| format!("cannot copy {}", source.display()))?;
        files.push(name.to_string_lossy().into_owned());
        let relative = source.strip_prefix(root).unwrap_or(source);
        listing.push_str(&format!("{:016x} {}\n", fnv(&bytes), relative.display()));
    }
    std::fs::write(work.join("netlist.ys"), script(&job.top, &files))
        .with_context(|| format!("cannot write {}", work.join("netlist.ys").display()))?;
    let ok = yosys::run(work, "netlist", None)?;
    let log = work.join("netlist.log");
    if !ok {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        anyhow::bail!("{} failed (log {}):\n{}", yosys::YOSYS, log.display(), yosys::tail(&text, 8));
    }
    let written = work.join("netlist.v");
    anyhow::ensure!(written.is_file(), "{} wrote no netlist.v (log {})", yosys::YOSYS, log.display());
    std::fs::create_dir_all(&job.out).with_context(|| format!("cannot create {}", job.out.display()))?;
    let netlist = job.netlist();
    std::fs::copy(&written, &netlist)
        .with_context(|| format!("cannot copy {} to {}", written.display(), netlist.display()))?;
    let sources = job.out.join(format!("{}.sources", job.name));
    std::fs::write(&sources, listing).with_context(|| format!("cannot write {}", sources.display()))?;
    Ok(netlist)
}
