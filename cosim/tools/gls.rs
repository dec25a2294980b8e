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
//! splitnets
//! opt_clean -purge
//! write_verilog -noattr netlist.v
//! ```
//!
//! `splitnets` writes every internal multi-bit net as single-bit wires (ports stay vectors, as
//! the harness binds them). Yosys reuses a net's bits as each other's inputs (buffer_addr's
//! `product[2] = _03916_ ^ _03917_` with `_03916_ = _03871_ & product[0]`), which Verilator,
//! ordering whole variables, reads as a combinational cycle (UNOPTFLAT) and schedules as
//! "hybrid" logic, re-evaluated only when a variable of the cycle changes, which can leave a bit
//! stale (docs/integrations/gls.md, "A wrong lead": a hazard; the pipeline's wrong bits come from
//! Verilator's bit-op-tree optimisation, off for netlists). With single-bit nets no internal net is such a cycle;
//! those through an output port are removed as "Output ports" says, and the build reports, with a
//! cargo warning and a list beside the build, any Verilator still finds
//! (cosim/build/gls/).
//!
//! # Output ports
//!
//! `splitnets` leaves ports as vectors, as the harness and the parent modules bind them. Where
//! two output bits are one net, Yosys writes one as a copy of the other (the TCP's
//! `assign ret_o[4510] = ret_o[4087];`): the port reads itself, a cycle to Verilator again. A
//! netlist whose `assign`s or instance connections read one of its module's output ports
//! ([`outputs_read`]) is written a second time with the module renamed `<module>__gates` and its
//! ports split too (`splitnets -ports`), and the module becomes a wrapper with its own vector
//! ports around one instance of those gates ([`port_wrapper`]); no other netlist changes.
//!
//! `write_verilog` prints Yosys's generic cells as expressions (`assign _07_ = _00_ | s1_q[1];`,
//! `$_MUX_` as `?:`) and each flop as its own `always @(posedge clk_i, negedge rst_ni)` block
//! with the asynchronous active-low reset the RTL's `VMEM_FF` describes, so Verilator reads it
//! with no cell library. `-D SYNTHESIS` leaves the assertions out (a netlist has none; only
//! outputs are compared). `opt_clean -purge` drops the internal names Yosys keeps for debugging.
//!
//! The netlist is copied to target/gls/netlist/<name>.v, beside <name>.sources: one line per
//! source read, `<FNV-1a 64 of its contents, hex> <path>`, so that build.rs
//! (cosim/build/gls/) can tell a netlist synthesized from sources that changed since.
//!
//! A unit with a test-only trap, tests/gls/<unit>_trap.sv, also gets <unit>_trap.v there,
//! the netlist of the trap (top `<unit>_trap`, which instantiates the unit).
//!
//! # A unit built from other modules (the pipeline)
//!
//! The pipeline does not fit one Yosys for WebAssembly process (4 GiB), so its netlist is built
//! as `make synth` builds it ([`crate::tools::synth`], "Designs built from other modules"):
//! module by module, each distinct module of its hierarchy synthesized in a process of its own
//! (target/gls/work/<unit>/<module>/, the modules it instantiates as black boxes, the same script
//! as `make synth`'s, which ends in `write_rtlil synth.il`), then written by a second process:
//!
//! ```text
//! read_rtlil synth.il
//! check -assert
//! splitnets
//! opt_clean -purge
//! write_verilog -noattr netlist.v
//! ```
//!
//! The unit's netlist is the modules' netlists side by side (children first, one module each,
//! instances by name as the RTL has them), followed by the RTL of the storage arrays that
//! synthesis leaves to macros ([`crate::tools::synth::MACROS`]: a gate-level flow simulates a
//! macro by its model) and of the modules of [`RTL_IN_NETLIST`], after the packages they import.
//! Each module is synthesized at its parameters' defaults, so a parent that overrides a child's
//! parameter is refused; the black boxes' instances carry the defaults `read_slang` elaborated,
//! which the netlist drops (a synthesized module has no parameters).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context as _;

use crate::engine::rtl_sources;
use crate::tools::synth::{self, Flow, MACROS};
use crate::tools::{scratch, yosys};

/// Modules of a hierarchical unit that its netlist holds as RTL, not gates, and why
/// (docs/integrations/gls.md "The pipeline"): none since the pipeline's TD takes at most four
/// blocks a cycle (its 32-way gather rows, 3.5 of 4.6 million gates, were held as RTL).
pub const RTL_IN_NETLIST: &[(&str, &str)] = &[];

/// Whether a unit's gate-level run is left out of `make gls` unless named: a `builds=one` unit
/// of cosim/units.txt, too large to build more than once (`make gls UNIT=vmem_pipe`: its netlist
/// and build take hours on two cores).
pub fn named_only(unit: &str) -> bool {
    crate::bindings::properties(unit).is_some_and(|p| p.one_build)
}

/// The line that says a [`named_only`] unit was left out of a run that named no unit.
pub fn named_only_note(unit: &str) -> String {
    format!(
        "{unit}: left out of a gate-level run that names no unit (hours of synthesis and build on two cores): \
         `make gls UNIT={unit}` runs it (docs/integrations/gls.md)"
    )
}

/// Whether a hierarchical unit's netlist holds `module` as RTL ([`RTL_IN_NETLIST`]).
pub fn rtl_in_netlist(module: &str) -> bool {
    RTL_IN_NETLIST.iter().any(|(m, _)| *m == module)
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
    /// [`Flow::Hierarchical`]: synthesized module by module (module documentation).
    pub flow: Flow,
}

impl Job {
    /// The netlist of rtl/<unit>.sv of the working tree: the sources and flow of
    /// [`crate::tools::synth::Job::for_unit`].
    pub fn for_unit(root: &Path, unit: &str) -> anyhow::Result<Job> {
        let synth = synth::Job::for_unit(root, unit)?;
        let mut job = Job::named(root, unit, synth.sources);
        job.flow = synth.flow;
        Ok(job)
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
            flow: Flow::Flat,
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

/// The Yosys script of a [`Job`] (module documentation); `ports_split`: written as
/// [`GATES_SUFFIX`]'s module with its ports split too ([`writing`]).
pub fn script(top: &str, files: &[String], ports_split: bool) -> String {
    format!(
        "# gcn-vmem netlist (cosim/tools/gls.rs): {top} to a generic-gate Verilog netlist\n\
         read_slang -j 1 --single-unit -D SYNTHESIS {} --top {top}\n\
         hierarchy -check -top {top}\n\
         synth -flatten -top {top}\n\
         check -assert\n\
         {}",
        files.join(" "),
        writing(top, ports_split)
    )
}

/// The name of a module's gates when its netlist is written with its ports split: the module
/// itself is then a wrapper of that name's instance (module documentation, "Output ports").
pub const GATES_SUFFIX: &str = "__gates";

/// How a netlist script writes `module`: every net as single-bit wires (`splitnets`), the
/// internal names dropped, as Verilog. With `ports_split`, the module is first renamed
/// `<module>__gates` and its ports are split as well (`splitnets -ports`), for [`port_wrapper`].
pub fn writing(module: &str, ports_split: bool) -> String {
    let split = if ports_split {
        format!("rename {module} {module}{GATES_SUFFIX}\nsplitnets -ports\n")
    } else {
        "splitnets\n".to_string()
    };
    format!("{split}opt_clean -purge\nwrite_verilog -noattr netlist.v\n")
}

/// The output ports of `module` that its netlist `netlist` (Yosys `write_verilog`) reads where
/// a read is combinational: on the right of an `assign` or in an instance's connection. To
/// Verilator, ordering whole variables, such a read is a combinational cycle through the port
/// (Yosys writes an output bit equal to another as a copy of it: `assign ret_o[4510] =
/// ret_o[4087];`).
pub fn outputs_read(netlist: &str, module: &str) -> Vec<String> {
    let Ok(ports) = declared_ports(netlist, module) else {
        return Vec::new();
    };
    let reads = |line: &str, name: &str| {
        let t = line.trim_start();
        let right = match t.strip_prefix("assign ") {
            Some(rest) => rest.split_once(" = ").map(|(_, r)| r),
            None => t.starts_with('.').then_some(t),
        };
        right.is_some_and(|r| has_identifier(r, name))
    };
    ports.iter().filter(|p| !p.input && netlist.lines().any(|l| reads(l, &p.name))).map(|p| p.name.clone()).collect()
}

/// Whether `text` holds `name` as a whole simple identifier (not part of a longer one, of an
/// escaped one such as `\\name[3]`, or a `.name(` connection's port).
fn has_identifier(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(|c| ident(c) || c == '\\' || c == '.') && !after.is_some_and(ident)
    })
}

/// A port of a netlist's module, as `write_verilog` declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetlistPort {
    pub name: String,
    pub input: bool,
    /// `[hi:lo]`, or `None` for one bit.
    pub range: Option<(u32, u32)>,
}

/// `module`'s ports in header order, with their directions and ranges from their declarations.
pub fn declared_ports(netlist: &str, module: &str) -> anyhow::Result<Vec<NetlistPort>> {
    let head = format!("module {module}(");
    let start = netlist.find(&head).with_context(|| format!("no `{head}` in the netlist"))? + head.len();
    let end = start + netlist[start..].find(");").with_context(|| format!("`{head}` has no end"))?;
    let names: Vec<&str> = netlist[start..end].split(',').map(str::trim).filter(|n| !n.is_empty()).collect();
    let body = &netlist[end..netlist[end..].find("endmodule").map_or(netlist.len(), |e| end + e)];
    let mut declared = std::collections::HashMap::new();
    for line in body.lines() {
        let t = line.trim();
        let (input, rest) = match (t.strip_prefix("input "), t.strip_prefix("output ")) {
            (Some(rest), _) => (true, rest),
            (_, Some(rest)) => (false, rest),
            _ => continue,
        };
        let rest = rest.trim_end_matches(';').trim();
        let (range, name) = match rest.strip_prefix('[') {
            Some(r) => {
                let (bounds, name) = r.split_once(']').with_context(|| format!("cannot read `{t}`"))?;
                let (hi, lo) = bounds.split_once(':').with_context(|| format!("cannot read `{t}`"))?;
                (Some((hi.trim().parse()?, lo.trim().parse()?)), name.trim())
            }
            None => (None, rest),
        };
        declared.insert(name.to_string(), (input, range));
    }
    names
        .iter()
        .map(|n| {
            let &(input, range) = declared
                .get(*n)
                .with_context(|| format!("port `{n}` of `{module}` has no input/output declaration"))?;
            Ok(NetlistPort { name: n.to_string(), input, range })
        })
        .collect()
}

/// `module` as a wrapper with the ports `netlist` declares for it, around one instance of
/// `<module>__gates`, the same gates written with their ports split (`splitnets -ports` names
/// bit k of port `p` `\\p[k]`): outside, the module is unchanged; inside, no port is read by
/// the logic that drives it.
pub fn port_wrapper(netlist: &str, module: &str) -> anyhow::Result<String> {
    let ports = declared_ports(netlist, module)?;
    let names: Vec<&str> = ports.iter().map(|p| p.name.as_str()).collect();
    let mut text = format!("module {module}({});\n", names.join(", "));
    let mut connections = Vec::new();
    for p in &ports {
        let direction = if p.input { "input" } else { "output" };
        match p.range {
            None => {
                text.push_str(&format!("  {direction} {};\n", p.name));
                connections.push(format!("    .{0}({0})", p.name));
            }
            Some((hi, lo)) => {
                text.push_str(&format!("  {direction} [{hi}:{lo}] {};\n", p.name));
                for k in hi.min(lo)..=hi.max(lo) {
                    connections.push(format!("    .\\{0}[{k}] ({0}[{k}])", p.name));
                }
            }
        }
    }
    text.push_str(&format!("  {module}{GATES_SUFFIX} u_gates (\n{}\n  );\nendmodule\n", connections.join(",\n")));
    Ok(text)
}

/// Runs `script` (its `ports_split` argument) in `work` and returns the netlist of `module`:
/// as written, or, when that reads one of the module's output ports ([`outputs_read`]), written
/// again with its ports split, under [`port_wrapper`].
fn write_gates(work: &Path, module: &str, script: impl Fn(bool) -> String) -> anyhow::Result<String> {
    run_script(work, "netlist", &script(false))?;
    let gates = written(work, "netlist.log")?;
    let read = outputs_read(&gates, module);
    if read.is_empty() {
        return Ok(gates);
    }
    let wrapper = port_wrapper(&gates, module)?;
    run_script(work, "netlist_ports", &script(true))?;
    let split = written(work, "netlist_ports.log")?;
    Ok(format!(
        "{split}\n// {module}: its gates read its output port(s) {} (a cycle to Verilator: cosim/tools/gls.rs),\n\
         // so they are {module}{GATES_SUFFIX} with every port split, and {module} is this wrapper.\n{wrapper}",
        read.join(", ")
    ))
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

/// Synthesizes every job into its netlist, up to `jobs` at once; reports in the order of `list`.
/// `done` is called as each finishes (progress).
pub fn synthesize_all(list: &[Job], root: &Path, jobs: usize, done: &(dyn Fn(&Report) + Sync)) -> Vec<Report> {
    crate::engine::pool::each(list, jobs, |job| synthesize(job, root), done)
}

/// Synthesizes one job into its netlist. Never panics.
pub fn synthesize(job: &Job, root: &Path) -> Report {
    let start = Instant::now();
    let outcome = run_job(job, root).map_err(|e| format!("{e:#}"));
    Report { name: job.name.clone(), outcome, elapsed: start.elapsed() }
}

/// Copies `sources` into `work`: their file names, and the `.sources` listing of their hashes.
fn copy_sources(sources: &[PathBuf], work: &Path, root: &Path) -> anyhow::Result<(Vec<String>, String)> {
    let mut files = Vec::new();
    let mut listing = String::new();
    for source in sources {
        let name = source.file_name().with_context(|| format!("{} is not a file", source.display()))?;
        let bytes = std::fs::read(source).with_context(|| format!("cannot read {}", source.display()))?;
        std::fs::write(work.join(name), &bytes).with_context(|| format!("cannot copy {}", source.display()))?;
        files.push(name.to_string_lossy().into_owned());
        let relative = source.strip_prefix(root).unwrap_or(source);
        listing.push_str(&format!("{:016x} {}\n", fnv(&bytes), relative.display()));
    }
    Ok((files, listing))
}

/// Writes `text` as `work/<name>.ys` and runs it; an error naming the log when Yosys fails.
fn run_script(work: &Path, name: &str, text: &str) -> anyhow::Result<()> {
    let script = work.join(format!("{name}.ys"));
    std::fs::write(&script, text).with_context(|| format!("cannot write {}", script.display()))?;
    synth::run_yosys(work, name)
}

/// Writes the netlist and its `.sources` listing into `job.out`.
fn publish(job: &Job, netlist: &str, listing: &str) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(&job.out).with_context(|| format!("cannot create {}", job.out.display()))?;
    let path = job.netlist();
    std::fs::write(&path, netlist).with_context(|| format!("cannot write {}", path.display()))?;
    let sources = job.out.join(format!("{}.sources", job.name));
    std::fs::write(&sources, listing).with_context(|| format!("cannot write {}", sources.display()))?;
    Ok(path)
}

/// `work/netlist.v`, which the script run there must have written.
fn written(work: &Path, log: &str) -> anyhow::Result<String> {
    let path = work.join("netlist.v");
    std::fs::read_to_string(&path)
        .with_context(|| format!("{} wrote no netlist.v (log {})", yosys::YOSYS, work.join(log).display()))
}

fn run_job(job: &Job, root: &Path) -> anyhow::Result<PathBuf> {
    if job.flow == Flow::Hierarchical {
        return run_hierarchical(job, root);
    }
    let work = &job.work;
    scratch::fresh(work)?;
    let (files, listing) = copy_sources(&job.sources, work, root)?;
    let gates = write_gates(work, &job.top, |ports_split| script(&job.top, &files, ports_split))?;
    publish(job, &gates, &listing)
}

/// The second script of one module of a hierarchical unit: its gates (from the first script's
/// synth.il) as Verilog ([`writing`]).
pub fn module_netlist_script(module: &str, ports_split: bool) -> String {
    format!(
        "# gcn-vmem netlist (cosim/tools/gls.rs): {module}'s gates as Verilog\n\
         read_rtlil synth.il\n\
         check -assert\n\
         {}",
        writing(module, ports_split)
    )
}

/// A unit built from other modules (module documentation, "A unit built from other modules").
fn run_hierarchical(job: &Job, root: &Path) -> anyhow::Result<PathBuf> {
    let rtl = root.join("rtl");
    let mut modules: Vec<String> =
        rtl_sources::submodules(&rtl, &job.top)?.iter().map(|f| f.trim_end_matches(".sv").to_string()).collect();
    let as_rtl: Vec<String> =
        modules.iter().filter(|m| MACROS.contains(&m.as_str()) || rtl_in_netlist(m)).cloned().collect();
    modules.retain(|m| !as_rtl.contains(m));
    modules.push(job.top.clone());
    scratch::fresh(&job.work)?;
    let (_, listing) = copy_sources(&job.sources, &job.work, root)?;
    let mut netlist = format!(
        "// The gate-level netlist of {top} (gcn-vmem netlist, cosim/tools/gls.rs): each module's gates\n\
         // from a Yosys run of its own, then the RTL of the storage arrays left to macros and of\n\
         // the modules held as RTL (RTL_IN_NETLIST), after the packages. Generated.\n",
        top = job.top
    );
    if as_rtl.iter().any(|m| rtl_in_netlist(m)) {
        for package in rtl_sources::packages(&rtl)? {
            let text =
                std::fs::read_to_string(rtl.join(&package)).with_context(|| format!("cannot read rtl/{package}"))?;
            netlist.push_str(&format!("\n// ---- {package}: a package the RTL below imports\n"));
            netlist.push_str(&text);
        }
    }
    for module in &modules {
        let work = job.work.join(module);
        scratch::fresh(&work)?;
        let sources = rtl_sources::unit_sources(&rtl, module)?;
        let (files, _) = copy_sources(&sources, &work, root)?;
        let children = rtl_sources::children(&rtl, module)?;
        let boxes: Vec<String> = children.iter().filter(|c| !MACROS.contains(&c.as_str())).cloned().collect();
        let text = std::fs::read_to_string(rtl.join(format!("{module}.sv")))
            .with_context(|| format!("cannot read rtl/{module}.sv"))?;
        if let Some(child) = boxes.iter().find(|c| overrides_parameters(&text, c)) {
            anyhow::bail!(
                "rtl/{module}.sv sets parameters of `{child}`, which the module-by-module netlist \
                 synthesizes at its defaults only (cosim/tools/gls.rs)"
            );
        }
        run_script(&work, "synth", &synth::module_script(module, &files, &children))?;
        let gates = write_gates(&work, module, |ports_split| module_netlist_script(module, ports_split))?;
        netlist.push_str(&format!("\n// ---- {module} (target/gls/work/{}/{module}/)\n", job.name));
        netlist.push_str(&drop_instance_parameters(&gates, &boxes));
    }
    for module in &as_rtl {
        let file = rtl.join(format!("{module}.sv"));
        let text = std::fs::read_to_string(&file).with_context(|| format!("cannot read {}", file.display()))?;
        let why = if rtl_in_netlist(module) { "held as RTL, RTL_IN_NETLIST" } else { "a macro's model" };
        netlist.push_str(&format!("\n// ---- {module}: its RTL, rtl/{module}.sv ({why})\n"));
        netlist.push_str(&text);
    }
    publish(job, &netlist, &listing)
}

/// Whether RTL `text` instantiates `child` with a parameter list (`child #(`).
fn overrides_parameters(text: &str, child: &str) -> bool {
    text.lines().map(|l| l.split("//").next().unwrap_or("")).any(|l| {
        l.split(child).skip(1).any(|rest| {
            let before = &l[..l.len() - rest.len() - child.len()];
            !before.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                && !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                && rest.trim_start().starts_with('#')
        })
    })
}

/// `netlist` (Yosys `write_verilog`) with the parameter lists of the instances of `boxes` removed:
/// `<box> #(\n .P(v)\n ) <name> (` becomes `<box> <name> (`.
pub fn drop_instance_parameters(netlist: &str, boxes: &[String]) -> String {
    let mut out = String::with_capacity(netlist.len());
    let mut skipping = false;
    for line in netlist.lines() {
        let trimmed = line.trim();
        if skipping {
            // The list ends at `) <instance> (`.
            if let Some(rest) = trimmed.strip_prefix(')') {
                out.push_str(rest.trim_start());
                out.push('\n');
                skipping = false;
            }
            continue;
        }
        if let Some(head) = trimmed.strip_suffix("#(") {
            if boxes.iter().any(|b| head.trim() == b) {
                out.push_str(&line[..line.len() - 2]);
                skipping = true;
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}
