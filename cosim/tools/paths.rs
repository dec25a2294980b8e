//! `gcn-vmem paths` / `make paths`: the deepest register-to-register paths of a unit's
//! **flattened** design in generic gate levels, each with its start and end registers named and
//! whether it stays inside one module instance or crosses module boundaries (SPEC §14 "Hardware,
//! not only behaviour"; docs/formal-and-synthesis.md "Flattened paths").
//!
//! `make synth` measures a unit built from modules module by module, so a path that leaves one
//! module for another is never followed. Here the whole hierarchy is one netlist. Yosys only
//! produces it; the paths are computed here, from the netlist's JSON, and the longest of them is
//! checked against Yosys's own `ltp -noff` on every run (a disagreement fails the run).
//!
//! # The netlist
//!
//! Each run works in target/paths/<unit>/work/ (target/paths/<unit>/<module>/work/ with
//! `--module`; removed and recreated), with the sources copied in, as Yosys for WebAssembly
//! sees only the folder it runs in:
//!
//! ```text
//! [read_verilog -sv -lib <macro>.sv]…   (each macro among the boxes: synth::macro_declarations)
//! read_slang -j 1 --single-unit -D SYNTHESIS --keep-hierarchy [--blackboxed-module <box>]… <files> --top <top>
//! hierarchy -check -top <top>
//! tee -q -o ports.txt select -list x:*
//! synth -top <top> -noabc
//! flatten
//! opt -fast -full
//! [abc; opt -fast]                                  (--abc)
//! opt_clean
//! check -assert
//! write_json netlist.json
//! tee -q -o ltp.txt ltp -noff w:* t:$* %u
//! ```
//!
//! The RTL is read as `make synth` reads it (packages, sub-modules, the unit; no assertions;
//! parameters at their defaults), but with its hierarchy kept, each module synthesized to
//! Yosys's generic gates (`$_AND_`, `$_OR_`, `$_XOR_`, `$_MUX_`, `$_NOT_`, … and `$_DFF*` flops)
//! **without ABC**, and only then flattened and optimised again on the gates (`opt -fast -full`:
//! constants carried across the former module ports, equal gates merged, dead gates removed).
//! Synthesizing before flattening keeps every gate's instance in its name
//! (`$flatten\u_ta.\u_ba.$auto$…`), which is how a path's instances are known; ABC would rename
//! the gates (with `--abc` the instances of the gates between the two registers are unknown).
//!
//! [`MACROS`] (storage arrays a GPU builds from SRAM macros) and the modules named by `--box` are
//! read as black boxes: a box's outputs start paths as a register's output does and its inputs
//! end them (its instance is named with the port, `u_tcp.g_bank[0].u_ram/rdata_o[5]`).
//! `ltp` leaves them out of its selection (`w:* t:$* %u`: every wire and the internal cells):
//! it would take a box as a path through it.
//!
//! # Levels and paths
//!
//! A path's **levels** are the combinational cells on it, each generic gate one level (an
//! inverter too, as `ltp` counts it). Flops and latches cut paths: every input of one (D, and
//! enable, set and reset pins, the pin named) ends a path, its output starts one. A path starts
//! at a register or box output (**reg**) or a primary input (**in**), and ends at a register or
//! box input (**reg**) or a primary output (**out**); reg→reg, in→reg, reg→out and in→out are
//! reported apart. The deepest path to each net that ends paths (a flop's D, E, … pin, a box's
//! input, an output port) is followed back to its start; those are ranked, deepest first: the N
//! deepest paths end at N different registers (a register being its name without bit or
//! generate indices, and the pin: the 64 bits of a result, or one queue in each of four banks,
//! are one register), each at its deepest bit with its deepest start, and the register's other
//! bits are counted ("+63 more bits of u_tcp.g_bank.u_bank.lq_q"). A net read by several ends
//! (an enable net of 64 flops) is one path, named by its first end, "+63 more".
//!
//! A register is named by its output net (`u_ta.addr_q[37]`): of the names of that net, one
//! declared in the flop's own instance, not one of that instance's ports, and whose every bit
//! is a register's (where Yosys found `beat_d[130]` equal to the flop `busy_q`, `busy_q`). A path's
//! instances are those of its start flop, each gate on it and its end flop, in path order;
//! a path is **within** when they are one instance, else it **crosses** (a path between two
//! registers of one module that leaves it for its parent's logic crosses).
//!
//! The longest path of any kind (including chains that start at an undriven net or end at an
//! unused net or a clock pin, counted as "other") must equal `ltp -noff`'s length on the same
//! netlist.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use serde_json::{json, Value};

use crate::engine::rtl_sources;
use crate::tools::synth::{self, MACROS};
use crate::tools::{scratch, yosys};

/// What one measurement reads and where it writes.
#[derive(Clone, Debug)]
pub struct Job {
    /// The unit (the folder under target/paths/).
    pub unit: String,
    /// The top module of the measured design (the unit, or `--module`).
    pub top: String,
    /// The sources, read in this order; copied into the work folder.
    pub sources: Vec<PathBuf>,
    /// Modules read as black boxes: the [`MACROS`] of the hierarchy and `--box`.
    pub boxes: Vec<String>,
    /// Where the report goes (paths.txt, paths.json); Yosys runs in its `work/`.
    pub out: PathBuf,
    /// Paths listed per kind.
    pub paths: usize,
    /// ABC after flattening (`--abc`).
    pub abc: bool,
}

impl Job {
    /// `unit` of the checkout at `root` (its sources as `make synth` reads them), measured from
    /// `module` (one of its hierarchy; default the unit) with `boxes` black boxes too.
    pub fn for_unit(
        root: &Path,
        unit: &str,
        module: Option<&str>,
        boxes: &[String],
        paths: usize,
        abc: bool,
    ) -> anyhow::Result<Job> {
        let rtl = root.join("rtl");
        let sources = rtl_sources::unit_sources(&rtl, unit)?;
        let hierarchy: Vec<String> =
            rtl_sources::submodules(&rtl, unit)?.iter().map(|f| f.trim_end_matches(".sv").to_string()).collect();
        let top = module.unwrap_or(unit).to_string();
        if top != unit && !hierarchy.contains(&top) {
            anyhow::bail!("`{top}` is not a module of {unit}'s hierarchy; its modules: {}", listing(unit, &hierarchy));
        }
        let below: Vec<String> = if top == unit {
            hierarchy.clone()
        } else {
            rtl_sources::submodules(&rtl, &top)?.iter().map(|f| f.trim_end_matches(".sv").to_string()).collect()
        };
        for b in boxes {
            if !below.contains(b) {
                anyhow::bail!(
                    "--box `{b}` is not a module instantiated under {top}; {}",
                    if below.is_empty() {
                        format!("{top} instantiates no module")
                    } else {
                        format!("its modules: {}", below.join(", "))
                    }
                );
            }
        }
        let mut all: Vec<String> = below.iter().filter(|m| MACROS.contains(&m.as_str())).cloned().collect();
        for b in boxes {
            if !all.contains(b) {
                all.push(b.clone());
            }
        }
        let mut out = root.join("target").join("paths").join(unit);
        if top != unit {
            out = out.join(&top);
        }
        Ok(Job { unit: unit.to_string(), top, sources, boxes: all, out, paths: paths.max(1), abc })
    }

    /// The work folder (Yosys's script, log, netlist and reports).
    pub fn work(&self) -> PathBuf {
        self.out.join("work")
    }
}

fn listing(unit: &str, hierarchy: &[String]) -> String {
    if hierarchy.is_empty() {
        format!("{unit} alone (it instantiates no module)")
    } else {
        format!("{unit}, {}", hierarchy.join(", "))
    }
}

/// The Yosys script (module documentation).
pub fn script(top: &str, files: &[String], boxes: &[String], abc: bool) -> String {
    let boxed: String = boxes.iter().map(|m| format!("--blackboxed-module {m} ")).collect();
    let macros = synth::macro_declarations(boxes, "");
    format!(
        "# gcn-vmem paths (cosim/tools/paths.rs): {top} to generic gates, then flattened\n\
         {macros}read_slang -j 1 --single-unit -D SYNTHESIS --keep-hierarchy {boxed}{} --top {top}\n\
         hierarchy -check -top {top}\n\
         tee -q -o ports.txt select -list x:*\n\
         synth -top {top} -noabc\n\
         flatten\n\
         opt -fast -full\n\
         {}opt_clean\n\
         check -assert\n\
         write_json netlist.json\n\
         tee -q -o ltp.txt ltp -noff w:* t:$* %u\n",
        files.join(" "),
        if abc { "abc\nopt -fast\n" } else { "" }
    )
}

/// What one end of a path is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndKind {
    /// A flip-flop (`$_DFF*`, `$_SDFF*`, …).
    Register,
    /// A latch (`$_DLATCH*`, `$_SR_*`).
    Latch,
    /// A port of a black box (a macro or `--box`).
    Box,
    /// A primary input of the top.
    Input,
    /// A primary output of the top.
    Output,
    /// An undriven net, or one driven by gates of constants only (a start).
    Undriven,
    /// A net nothing reads (an end).
    Unused,
}

impl EndKind {
    pub fn as_str(&self) -> &'static str {
        match self {
            EndKind::Register => "register",
            EndKind::Latch => "latch",
            EndKind::Box => "box",
            EndKind::Input => "input",
            EndKind::Output => "output",
            EndKind::Undriven => "undriven",
            EndKind::Unused => "unused",
        }
    }
}

/// One end of a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    pub kind: EndKind,
    /// The register, port or net (flattened, hierarchical: `u_leaf.w_q`; a box's port
    /// `u_tcp.u_ram/rdata_o`), without the bit.
    pub name: String,
    /// The bit, for a name of more than one bit.
    pub bit: Option<i64>,
    /// The module instance it is in ("" for the top).
    pub instance: String,
    /// The pin of a flop or latch a path ends at (`D`, `E`, `R`, …).
    pub pin: Option<String>,
    /// The cell (flop, latch, box), when it is one.
    pub cell: Option<String>,
}

impl End {
    /// `name[bit]` (or `name`), with the pin when it is not the data input.
    pub fn label(&self) -> String {
        let mut s = match self.bit {
            Some(b) => format!("{}[{b}]", self.name),
            None => self.name.clone(),
        };
        if let Some(pin) = self.pin.as_deref().filter(|p| *p != "D") {
            s.push_str(&format!(" (pin {pin})"));
        }
        s
    }
}

/// One cell on a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub cell: String,
    pub kind: String,
    /// Its instance ("" the top), or None when its name does not tell (ABC's gates).
    pub instance: Option<String>,
    /// A name of the net it drives on the path, when the net has one.
    pub net: Option<String>,
}

/// One path (named so as not to be taken for `std::path::Path`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimingPath {
    pub levels: usize,
    pub start: End,
    pub end: End,
    /// Other ends (pins of other flops, boxes or outputs) that read the same net as `end`.
    pub more_ends: usize,
    /// The end register's other bits (and the same register in the other instances of a
    /// generate loop) whose deepest paths of this kind are not deeper: not listed apart.
    pub more_bits: usize,
    pub steps: Vec<Step>,
    /// The instances it passes through, in path order ("" the top).
    pub instances: Vec<String>,
    /// Whether every cell's instance is known (not after ABC).
    pub instances_complete: bool,
}

impl TimingPath {
    /// Whether it stays inside one module instance.
    pub fn within(&self) -> bool {
        self.instances.len() <= 1
    }
}

/// The kinds of path reported apart.
pub const CLASSES: [(&str, &str); 4] = [
    ("reg_to_reg", "register -> register"),
    ("in_to_reg", "input -> register"),
    ("reg_to_out", "register -> output"),
    ("in_to_out", "input -> output"),
];

/// The measurement of one netlist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub top: String,
    /// Combinational cells.
    pub gates: usize,
    /// Flip-flop bits.
    pub flops: usize,
    /// Latch bits.
    pub latches: usize,
    /// Black-box instances, by module.
    pub boxes: Vec<(String, usize)>,
    /// The longest chain of combinational cells of any kind.
    pub longest: usize,
    /// The deepest paths of each of [`CLASSES`], in that order.
    pub classes: Vec<Vec<TimingPath>>,
    /// The longest "other" path (from an undriven net, or to an unused net or a clock pin), if any.
    pub other: Option<usize>,
}

impl Analysis {
    /// The deepest paths of a class of [`CLASSES`] by its key.
    pub fn class(&self, key: &str) -> &[TimingPath] {
        CLASSES.iter().position(|(k, _)| *k == key).map_or(&[], |i| &self.classes[i])
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CellClass {
    Comb,
    Storage,
    Box,
    Ignore,
}

/// Yosys's storage cells (what `ltp -noff` cuts: CellTypes' internal and standard cells with
/// memory).
fn is_storage(kind: &str) -> bool {
    const COARSE: &[&str] = &[
        "$sr",
        "$ff",
        "$dff",
        "$dffe",
        "$dffsr",
        "$dffsre",
        "$adff",
        "$adffe",
        "$aldff",
        "$aldffe",
        "$sdff",
        "$sdffe",
        "$sdffce",
        "$dlatch",
        "$adlatch",
        "$dlatchsr",
        "$memrd",
        "$memrd_v2",
        "$memwr",
        "$memwr_v2",
        "$meminit",
        "$meminit_v2",
        "$mem",
        "$mem_v2",
        "$fsm",
    ];
    COARSE.contains(&kind)
        || (kind.starts_with("$_")
            && (kind.contains("DFF")
                || kind.contains("DLATCH")
                || kind.starts_with("$_SR_")
                || kind.starts_with("$_FF_")))
}

fn classify(kind: &str) -> CellClass {
    if kind == "$scopeinfo" {
        CellClass::Ignore
    } else if !kind.starts_with('$') {
        CellClass::Box
    } else if is_storage(kind) {
        CellClass::Storage
    } else {
        CellClass::Comb
    }
}

/// The instance of a flattened cell from its name: `$flatten\u_a.\u_b.$auto$…` is in `u_a.u_b`,
/// a name without the prefix in the top (""); None for ABC's gates (`$abc$…`), whose names do
/// not tell.
pub fn cell_instance(name: &str) -> Option<String> {
    if let Some(rest) = name.strip_prefix("$flatten") {
        let inst = match rest.find(".$") {
            Some(at) => &rest[..at],
            None => rest.rsplit_once('.').map_or(rest, |(a, _)| a),
        };
        return Some(inst.replace('\\', ""));
    }
    if name.starts_with("$abc$") {
        return None;
    }
    if name.starts_with('$') {
        return Some(String::new());
    }
    // A public cell (a box instance): its parent.
    Some(name.rsplit_once('.').map_or(String::new(), |(a, _)| a.to_string()))
}

struct Net {
    name: String,
    instance: String,
    leaf: String,
    width: usize,
    offset: i64,
    upto: bool,
    /// Every bit of it is a flop's, latch's or box's output (a register's own net).
    registered: bool,
}

struct Cell {
    name: String,
    kind: String,
    class: CellClass,
    instance: Option<String>,
    inputs: Vec<(String, Vec<Option<usize>>)>,
    outputs: Vec<(String, Vec<Option<usize>>)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Src {
    None,
    Comb(usize),
    /// A storage or box cell's output: cell, output port index, bit position.
    Cell(usize, usize, usize),
    /// A primary input: port index, bit position.
    Input(usize, usize),
}

#[derive(Clone, Copy, Debug)]
enum EndAt {
    /// A storage or box cell's input: cell, input port index, position.
    Cell(usize, usize, usize),
    /// A primary output: port index, position.
    Output(usize, usize),
    /// An unused net.
    Unused(usize),
}

/// Which ends a kind of path takes.
type EndFilter<'a> = &'a dyn Fn(&EndAt) -> bool;

const REG: usize = 0;
const INP: usize = 1;
const OTHER: usize = 2;
const NONE: u32 = u32::MAX;

struct Graph {
    top: String,
    cells: Vec<Cell>,
    nets: Vec<Net>,
    /// Per bit, the public nets holding it: (net, position).
    names: Vec<Vec<(usize, usize)>>,
    src: Vec<Src>,
    ports: Vec<(String, bool, Vec<Option<usize>>)>,
    /// Instance → its module's port names (from ports.txt and the `$scopeinfo` cells).
    instance_ports: HashMap<String, HashSet<String>>,
}

/// `bits` of a JSON connection: indices of the bits (None for constants).
fn bits_of(value: &Value, index: &mut HashMap<u64, usize>) -> anyhow::Result<Vec<Option<usize>>> {
    let list = value.as_array().context("a connection is not a list of bits")?;
    let mut out = Vec::with_capacity(list.len());
    for b in list {
        match b {
            Value::Number(n) => {
                let id = n.as_u64().context("a bit is not a number")?;
                let next = index.len();
                out.push(Some(*index.entry(id).or_insert(next)));
            }
            Value::String(_) => out.push(None),
            _ => anyhow::bail!("a bit is neither a number nor a constant: {b}"),
        }
    }
    Ok(out)
}

/// The port names of each module from `select -list x:*` (`module/port` a line).
fn parse_ports_list(text: &str) -> HashMap<String, HashSet<String>> {
    let mut out: HashMap<String, HashSet<String>> = HashMap::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some((module, port)) = line.rsplit_once('/') {
            out.entry(module.to_string()).or_default().insert(port.trim_start_matches('\\').to_string());
        }
    }
    out
}

impl Graph {
    fn parse(json: &str, ports_list: &str, top: &str) -> anyhow::Result<Graph> {
        let value: Value = serde_json::from_str(json).context("the netlist is not JSON")?;
        let module = value
            .get("modules")
            .and_then(|m| m.get(top))
            .with_context(|| format!("the netlist has no module `{top}`"))?;
        let mut index: HashMap<u64, usize> = HashMap::new();
        let mut ports = Vec::new();
        if let Some(list) = module.get("ports").and_then(Value::as_object) {
            for (name, p) in list {
                let dir = p.get("direction").and_then(Value::as_str).unwrap_or("");
                let bits = bits_of(p.get("bits").context("a port has no bits")?, &mut index)?;
                match dir {
                    "input" => ports.push((name.clone(), true, bits)),
                    "output" => ports.push((name.clone(), false, bits)),
                    _ => anyhow::bail!("port `{name}` of {top} is `{dir}`; only inputs and outputs are measured"),
                }
            }
        }
        let module_ports = parse_ports_list(ports_list);
        let mut instance_ports: HashMap<String, HashSet<String>> = HashMap::new();
        instance_ports.insert(String::new(), module_ports.get(top).cloned().unwrap_or_default());
        let mut cells = Vec::new();
        let list = module.get("cells").and_then(Value::as_object).context("the netlist's module has no cells")?;
        for (name, c) in list {
            let kind = c.get("type").and_then(Value::as_str).context("a cell has no type")?.to_string();
            let class = classify(&kind);
            if class == CellClass::Ignore {
                if kind == "$scopeinfo" {
                    let module_name = c.get("attributes").and_then(|a| a.get("module")).and_then(Value::as_str);
                    if let Some(m) = module_name {
                        instance_ports.insert(name.replace('\\', ""), module_ports.get(m).cloned().unwrap_or_default());
                    }
                }
                continue;
            }
            let dirs = c.get("port_directions").and_then(Value::as_object);
            let conns = c.get("connections").and_then(Value::as_object).context("a cell has no connections")?;
            let (mut inputs, mut outputs) = (Vec::new(), Vec::new());
            for (port, bits) in conns {
                let dir = dirs.and_then(|d| d.get(port)).and_then(Value::as_str).with_context(|| {
                    format!("the direction of port {port} of cell {name} ({kind}) is not in the netlist")
                })?;
                let bits = bits_of(bits, &mut index)?;
                match dir {
                    "input" => inputs.push((port.clone(), bits)),
                    "output" => outputs.push((port.clone(), bits)),
                    _ => anyhow::bail!("port {port} of cell {name} ({kind}) is `{dir}`"),
                }
            }
            let instance = if class == CellClass::Box {
                // A box is named by its own path; its parent is its instance.
                let hdl = c.get("attributes").and_then(|a| a.get("hdlname")).and_then(Value::as_str);
                Some(match hdl {
                    Some(h) => {
                        let parts: Vec<&str> = h.split(' ').collect();
                        parts[..parts.len() - 1].join(".")
                    }
                    None => cell_instance(name).unwrap_or_default(),
                })
            } else {
                cell_instance(name)
            };
            cells.push(Cell { name: name.clone(), kind, class, instance, inputs, outputs });
        }
        let mut nets = Vec::new();
        let mut net_bits: Vec<Vec<Option<usize>>> = Vec::new();
        let mut names: Vec<Vec<(usize, usize)>> = Vec::new();
        if let Some(list) = module.get("netnames").and_then(Value::as_object) {
            for (name, n) in list {
                if n.get("hide_name").and_then(Value::as_u64).unwrap_or(1) != 0 {
                    continue;
                }
                let bits = bits_of(n.get("bits").context("a net has no bits")?, &mut index)?;
                let hdl = n.get("attributes").and_then(|a| a.get("hdlname")).and_then(Value::as_str);
                let (instance, leaf) = match hdl {
                    Some(h) => match h.rsplit_once(' ') {
                        Some((inst, leaf)) => (inst.replace(' ', "."), leaf.to_string()),
                        None => (String::new(), h.to_string()),
                    },
                    None => (String::new(), name.clone()),
                };
                let id = nets.len();
                nets.push(Net {
                    name: name.clone(),
                    instance,
                    leaf,
                    width: bits.len(),
                    offset: n.get("offset").and_then(Value::as_i64).unwrap_or(0),
                    upto: n.get("upto").and_then(Value::as_u64).unwrap_or(0) != 0,
                    registered: false,
                });
                net_bits.push(bits.clone());
                for (pos, b) in bits.iter().enumerate() {
                    if let Some(b) = b {
                        if names.len() <= *b {
                            names.resize(*b + 1, Vec::new());
                        }
                        names[*b].push((id, pos));
                    }
                }
            }
        }
        let count = index.len();
        names.resize(count, Vec::new());
        let mut src = vec![Src::None; count];
        for (p, (_, input, bits)) in ports.iter().enumerate() {
            if *input {
                for (pos, b) in bits.iter().enumerate() {
                    if let Some(b) = b {
                        src[*b] = Src::Input(p, pos);
                    }
                }
            }
        }
        for (i, cell) in cells.iter().enumerate() {
            for (o, (port, bits)) in cell.outputs.iter().enumerate() {
                for (pos, b) in bits.iter().enumerate() {
                    let Some(b) = b else { continue };
                    if src[*b] != Src::None {
                        anyhow::bail!(
                            "bit {pos} of {port} of cell {} ({}) has a second driver; `check -assert` should have \
                             refused the netlist",
                            cell.name,
                            cell.kind
                        );
                    }
                    src[*b] = match cell.class {
                        CellClass::Comb => Src::Comb(i),
                        _ => Src::Cell(i, o, pos),
                    };
                }
            }
        }
        for (net, bits) in nets.iter_mut().zip(&net_bits) {
            net.registered = bits.iter().flatten().all(|b| matches!(src[*b], Src::Cell(..)));
        }
        Ok(Graph { top: top.to_string(), cells, nets, names, src, ports, instance_ports })
    }

    /// The name of a bit, preferring one declared in `instance` that is not a port of it.
    fn bit_name(&self, bit: usize, instance: Option<&str>) -> Option<(String, Option<i64>, String)> {
        let best = self.names[bit].iter().min_by_key(|(net, _)| {
            let n = &self.nets[*net];
            let elsewhere = instance.is_some_and(|i| i != n.instance);
            let port = self.instance_ports.get(&n.instance).is_some_and(|p| p.contains(&n.leaf));
            (elsewhere, port, !n.registered, n.name.len(), n.name.clone())
        })?;
        let n = &self.nets[best.0];
        let bit = (n.width > 1).then(|| {
            let pos = best.1 as i64;
            if n.upto {
                n.offset + (n.width as i64 - 1 - pos)
            } else {
                n.offset + pos
            }
        });
        Some((n.name.clone(), bit, n.instance.clone()))
    }

    fn storage_kind(kind: &str) -> EndKind {
        if kind.contains("DLATCH") || kind.starts_with("$_SR_") || kind.contains("latch") || kind == "$sr" {
            EndKind::Latch
        } else {
            EndKind::Register
        }
    }

    /// The register a storage cell holds, named by its first output bit (`(name, bit)`).
    fn register_name(&self, cell: usize) -> (String, Option<i64>) {
        let c = &self.cells[cell];
        let first = c.outputs.iter().flat_map(|(_, bits)| bits.iter()).flatten().next();
        match first.and_then(|b| self.bit_name(*b, c.instance.as_deref())) {
            Some((name, bit, _)) => (name, bit),
            None => (c.name.clone(), None),
        }
    }

    fn box_port(&self, cell: usize, port: &str, pos: usize, width: usize) -> End {
        let c = &self.cells[cell];
        End {
            kind: EndKind::Box,
            name: format!("{}/{port}", c.name),
            bit: (width > 1).then_some(pos as i64),
            instance: c.instance.clone().unwrap_or_default(),
            pin: None,
            cell: Some(format!("{} ({})", c.name, c.kind)),
        }
    }

    /// A flop or latch as the end of a path: its register, and `pin` where the path enters it.
    fn storage_end(&self, cell: usize, pin: Option<String>) -> End {
        let c = &self.cells[cell];
        let (name, bit) = self.register_name(cell);
        End {
            kind: Self::storage_kind(&c.kind),
            name,
            bit,
            instance: c.instance.clone().unwrap_or_default(),
            pin,
            cell: Some(c.name.clone()),
        }
    }

    /// Bit `pos` of the top's port `p` as the end of a path (`kind`: input or output).
    fn port_end(&self, kind: EndKind, p: usize, pos: usize) -> End {
        let (name, _, bits) = &self.ports[p];
        End {
            kind,
            name: name.clone(),
            bit: (bits.len() > 1).then_some(pos as i64),
            instance: String::new(),
            pin: None,
            cell: None,
        }
    }

    /// A net that no cell drives or none reads as the end of a path (`kind`: which of the two).
    fn net_end(&self, kind: EndKind, bit: usize) -> End {
        let (name, b, inst) = self.bit_name(bit, None).unwrap_or((format!("bit {bit}"), None, String::new()));
        End { kind, name, bit: b, instance: inst, pin: None, cell: None }
    }

    fn start_of(&self, bit: usize) -> End {
        match self.src[bit] {
            Src::Cell(cell, o, pos) => {
                let c = &self.cells[cell];
                if c.class == CellClass::Box {
                    let (port, bits) = &c.outputs[o];
                    return self.box_port(cell, port, pos, bits.len());
                }
                self.storage_end(cell, None)
            }
            Src::Input(p, pos) => self.port_end(EndKind::Input, p, pos),
            Src::None | Src::Comb(_) => self.net_end(EndKind::Undriven, bit),
        }
    }

    fn end_of(&self, at: EndAt) -> End {
        match at {
            EndAt::Cell(cell, i, pos) => {
                let c = &self.cells[cell];
                let (port, bits) = &c.inputs[i];
                if c.class == CellClass::Box {
                    return self.box_port(cell, port, pos, bits.len());
                }
                self.storage_end(cell, Some(port.clone()))
            }
            EndAt::Output(p, pos) => self.port_end(EndKind::Output, p, pos),
            EndAt::Unused(bit) => self.net_end(EndKind::Unused, bit),
        }
    }

    /// The bit an end reads (`usize::MAX` for an unconnected pin).
    fn end_bit(&self, e: &EndAt) -> usize {
        match *e {
            EndAt::Cell(c, p, pos) => self.cells[c].inputs[p].1[pos].unwrap_or(usize::MAX),
            EndAt::Output(p, pos) => self.ports[p].2[pos].unwrap_or(usize::MAX),
            EndAt::Unused(b) => b,
        }
    }

    /// Whether an end is a flop's or latch's clock pin: it ends a path too, but not one of the
    /// kinds reported (it is counted with the "other" paths).
    fn is_clock(&self, e: &EndAt) -> bool {
        match *e {
            EndAt::Cell(c, p, _) => {
                self.cells[c].class == CellClass::Storage && matches!(self.cells[c].inputs[p].0.as_str(), "C" | "CLK")
            }
            _ => false,
        }
    }

    /// Every end of a path (storage and box input pins, output bits, nets no cell reads), each
    /// bit's fan-out to combinational cells, and each such cell's inputs driven by another.
    fn ends(&self) -> (Vec<EndAt>, Vec<Vec<usize>>, Vec<usize>) {
        let count = self.src.len();
        let mut fanout: Vec<Vec<usize>> = vec![Vec::new(); count];
        let mut pending = vec![0usize; self.cells.len()];
        let mut consumed = vec![false; count];
        let mut ends: Vec<EndAt> = Vec::new();
        for (i, c) in self.cells.iter().enumerate() {
            for (p, (_, bits)) in c.inputs.iter().enumerate() {
                for (pos, b) in bits.iter().enumerate() {
                    let Some(b) = *b else { continue };
                    consumed[b] = true;
                    match c.class {
                        CellClass::Comb => {
                            fanout[b].push(i);
                            if matches!(self.src[b], Src::Comb(_)) {
                                pending[i] += 1;
                            }
                        }
                        _ => ends.push(EndAt::Cell(i, p, pos)),
                    }
                }
            }
        }
        for (p, (_, input, bits)) in self.ports.iter().enumerate() {
            if !*input {
                for (pos, b) in bits.iter().enumerate() {
                    if let Some(b) = *b {
                        consumed[b] = true;
                        ends.push(EndAt::Output(p, pos));
                    }
                }
            }
        }
        for (b, s) in self.src.iter().enumerate() {
            if matches!(s, Src::Comb(_)) && !consumed[b] {
                ends.push(EndAt::Unused(b));
            }
        }
        (ends, fanout, pending)
    }

    /// The longest chains of combinational cells to every bit, per kind of start, in topological
    /// order of the cells; an error for a combinational loop.
    fn depths(&self, fanout: &[Vec<usize>], mut pending: Vec<usize>) -> anyhow::Result<Depths> {
        let count = self.src.len();
        let mut depth = vec![[-1i64; 3]; count];
        let mut pred = vec![[NONE; 3]; count];
        let mut any = vec![0i64; count];
        for (b, s) in self.src.iter().enumerate() {
            match s {
                Src::Cell(..) => depth[b][REG] = 0,
                Src::Input(..) => depth[b][INP] = 0,
                Src::None => depth[b][OTHER] = 0,
                Src::Comb(_) => {}
            }
        }
        let mut ready: Vec<usize> =
            (0..self.cells.len()).filter(|&i| self.cells[i].class == CellClass::Comb && pending[i] == 0).collect();
        let mut done = 0usize;
        while let Some(i) = ready.pop() {
            done += 1;
            let c = &self.cells[i];
            let mut best = [(-1i64, NONE); 3];
            let mut best_any = -1i64;
            for (_, bits) in &c.inputs {
                for b in bits.iter().flatten() {
                    for k in 0..3 {
                        if depth[*b][k] > best[k].0 {
                            best[k] = (depth[*b][k], *b as u32);
                        }
                    }
                    best_any = best_any.max(any[*b]);
                }
            }
            for (_, bits) in &c.outputs {
                for o in bits.iter().flatten() {
                    if best_any < 0 {
                        // Only constants in: the chain starts here, as `ltp` counts it.
                        any[*o] = 0;
                        depth[*o][OTHER] = 0;
                    } else {
                        any[*o] = best_any + 1;
                        for k in 0..3 {
                            if best[k].0 >= 0 {
                                depth[*o][k] = best[k].0 + 1;
                                pred[*o][k] = best[k].1;
                            }
                        }
                    }
                    for &next in &fanout[*o] {
                        pending[next] -= 1;
                        if pending[next] == 0 {
                            ready.push(next);
                        }
                    }
                }
            }
        }
        let comb = self.cells.iter().filter(|c| c.class == CellClass::Comb).count();
        if done != comb {
            let stuck: Vec<&str> = self
                .cells
                .iter()
                .enumerate()
                .filter(|(i, c)| c.class == CellClass::Comb && pending[*i] > 0)
                .map(|(_, c)| c.name.as_str())
                .take(5)
                .collect();
            anyhow::bail!(
                "the netlist has a combinational loop through {} cells (e.g. {})",
                comb - done,
                stuck.join(", ")
            );
        }
        let longest = any.iter().copied().max().unwrap_or(0).max(0) as usize;
        Ok(Depths { depth, pred, comb, longest })
    }

    /// The path of `levels` levels from a start of kind `start` to `end`, followed back through
    /// `pred`; `more`: the other ends reading the same net.
    fn path(&self, depths: &Depths, start: usize, end: EndAt, levels: i64, more: usize) -> anyhow::Result<TimingPath> {
        let end_end = self.end_of(end);
        let mut bit = self.end_bit(&end);
        let mut chain = Vec::new();
        while let Src::Comb(cell) = self.src[bit] {
            let p = depths.pred[bit][start];
            if p == NONE {
                break;
            }
            chain.push((cell, bit));
            bit = p as usize;
        }
        chain.reverse();
        anyhow::ensure!(
            chain.len() as i64 == levels,
            "internal error: a path of {levels} levels has {} cells",
            chain.len()
        );
        let start_end = self.start_of(bit);
        let steps: Vec<Step> = chain
            .iter()
            .map(|&(cell, out)| {
                let c = &self.cells[cell];
                Step {
                    cell: c.name.clone(),
                    kind: c.kind.clone(),
                    instance: c.instance.clone(),
                    net: self.bit_name(out, c.instance.as_deref()).map(|(name, b, _)| match b {
                        Some(b) => format!("{name}[{b}]"),
                        None => name,
                    }),
                }
            })
            .collect();
        let (instances, complete) = path_instances(&start_end, &steps, &end_end);
        Ok(TimingPath {
            levels: levels as usize,
            start: start_end,
            end: end_end,
            more_ends: more,
            more_bits: 0,
            steps,
            instances,
            instances_complete: complete,
        })
    }
}

/// The longest chains of combinational cells ([`Graph::depths`]).
struct Depths {
    /// Per bit and kind of start (`REG`, `INP`, `OTHER`): the longest chain's cells, -1 for none.
    depth: Vec<[i64; 3]>,
    /// Per bit and kind of start: the input bit that chain comes through (`NONE` at a start).
    pred: Vec<[u32; 3]>,
    /// Combinational cells.
    comb: usize,
    /// The longest chain of any start.
    longest: usize,
}

/// A register's name without its generate indices (`u_tcp.g_bank[2].u_bank.lq_q` ->
/// `u_tcp.g_bank.u_bank.lq_q`): the register the bits of every instance of one loop share.
fn register_of(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut depth = 0usize;
    for c in name.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// The instances a path passes through, in path order, each once (a path that comes back to an
/// instance it left still passes through it once); and whether every cell's instance is known.
fn path_instances(start: &End, steps: &[Step], end: &End) -> (Vec<String>, bool) {
    let mut instances: Vec<String> = Vec::new();
    let mut complete = true;
    let all = std::iter::once(Some(start.instance.clone()))
        .chain(steps.iter().map(|s| s.instance.clone()))
        .chain(std::iter::once(Some(end.instance.clone())));
    for inst in all {
        match inst {
            Some(i) => {
                if instances.last() != Some(&i) {
                    instances.push(i);
                }
            }
            None => complete = false,
        }
    }
    let mut unique: Vec<String> = Vec::new();
    for i in instances {
        if !unique.contains(&i) {
            unique.push(i);
        }
    }
    (unique, complete)
}

/// Measures a netlist: `json` is Yosys's `write_json` of the flattened design whose top is
/// `top`, `ports_list` its `select -list x:*` before flattening (to tell ports from registers
/// in names); `n` paths per kind.
pub fn analyse(json: &str, ports_list: &str, top: &str, n: usize) -> anyhow::Result<Analysis> {
    let g = Graph::parse(json, ports_list, top)?;
    let (ends, fanout, pending) = g.ends();
    let depths = g.depths(&fanout, pending)?;
    let depth = &depths.depth;
    let longest = depths.longest;
    let to_reg = |e: &EndAt| matches!(e, EndAt::Cell(..)) && !g.is_clock(e);
    let to_out = |e: &EndAt| matches!(e, EndAt::Output(..));
    // (start kind, which ends) of each class.
    let wanted: [(usize, EndFilter); 4] = [(REG, &to_reg), (INP, &to_reg), (REG, &to_out), (INP, &to_out)];
    let mut classes = Vec::new();
    for (start, keep) in wanted {
        // One path per net that ends paths: the first end reading it names it, the others are
        // counted (an enable net read by 64 flops is one path, "+63 more").
        let mut first: HashMap<usize, (usize, usize)> = HashMap::new();
        for (i, e) in ends.iter().enumerate().filter(|(_, e)| keep(e)) {
            let b = g.end_bit(e);
            if b != usize::MAX && depth[b][start] >= 0 {
                first.entry(b).or_insert((i, 0)).1 += 1;
            }
        }
        let mut cands: Vec<(i64, usize, usize)> =
            first.into_iter().map(|(b, (i, readers))| (depth[b][start], i, readers - 1)).collect();
        cands.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        // One path per register (its name without bit or generate indices, and the pin): the
        // deepest of its bits; the others are counted. The bits of one register, or the same
        // register in the instances of one generate loop, are one chain of logic, not N.
        let mut seen: HashMap<(String, Option<String>), usize> = HashMap::new();
        let mut picked: Vec<(i64, usize, usize, usize)> = Vec::new();
        for (d, i, more) in cands {
            let end = g.end_of(ends[i]);
            match seen.entry((register_of(&end.name), end.pin)) {
                std::collections::hash_map::Entry::Occupied(k) => picked[*k.get()].3 += 1,
                std::collections::hash_map::Entry::Vacant(k) => {
                    if picked.len() < n {
                        k.insert(picked.len());
                        picked.push((d, i, more, 0));
                    }
                }
            }
        }
        let mut paths = Vec::new();
        for (d, i, more, bits) in picked {
            let mut p = g.path(&depths, start, ends[i], d, more)?;
            p.more_bits = bits;
            paths.push(p);
        }
        classes.push(paths);
    }
    // The longest "other" path: from an undriven net, or to an unused one.
    let mut other: Option<usize> = None;
    for e in &ends {
        let b = g.end_bit(e);
        if b == usize::MAX {
            continue;
        }
        let ks: &[usize] = if matches!(e, EndAt::Unused(_)) || g.is_clock(e) { &[REG, INP, OTHER] } else { &[OTHER] };
        for &k in ks {
            if depth[b][k] >= 0 {
                other = Some(other.unwrap_or(0).max(depth[b][k] as usize));
            }
        }
    }
    let mut boxes: Vec<(String, usize)> = Vec::new();
    for c in g.cells.iter().filter(|c| c.class == CellClass::Box) {
        match boxes.iter_mut().find(|(k, _)| *k == c.kind) {
            Some(entry) => entry.1 += 1,
            None => boxes.push((c.kind.clone(), 1)),
        }
    }
    let storage = |latch: bool| {
        g.cells
            .iter()
            .filter(|c| c.class == CellClass::Storage && (Graph::storage_kind(&c.kind) == EndKind::Latch) == latch)
            .map(|c| c.outputs.iter().map(|(_, b)| b.len()).sum::<usize>())
            .sum::<usize>()
    };
    let analysis = Analysis {
        top: g.top.clone(),
        gates: depths.comb,
        flops: storage(false),
        latches: storage(true),
        boxes,
        longest,
        classes,
        other,
    };
    // Every chain is one of the kinds above: their deepest must be the longest chain.
    let deepest = analysis.classes.iter().filter_map(|c| c.first().map(|p| p.levels)).chain(other).max().unwrap_or(0);
    anyhow::ensure!(
        deepest == longest,
        "internal error: the deepest path of any kind has {deepest} levels, the longest chain of cells {longest}"
    );
    Ok(analysis)
}

/// A measurement and its cross-check.
#[derive(Debug)]
pub struct Report {
    pub job: Job,
    /// The analysis (cross-checked), or why there is none.
    pub outcome: Result<Analysis, String>,
    /// `ltp -noff`'s length, when it was read.
    pub ltp: Option<u64>,
    pub elapsed: Duration,
}

/// Runs the job (never panics: every problem is a failed [`Report`]); writes paths.txt and
/// paths.json into the job's folder when it succeeds.
pub fn measure(job: &Job, yosys_version: &str) -> Report {
    let start = Instant::now();
    let mut ltp = None;
    let outcome = run_job(job, &mut ltp).and_then(|analysis| {
        let report = Report { job: job.clone(), outcome: Ok(analysis.clone()), ltp, elapsed: start.elapsed() };
        let text = text(&report, yosys_version);
        let json = serde_json::to_string_pretty(&to_json(&report, yosys_version))?;
        for (name, body) in [("paths.txt", text), ("paths.json", json)] {
            let path = job.out.join(name);
            std::fs::write(&path, body + "\n").with_context(|| format!("cannot write {}", path.display()))?;
        }
        Ok(analysis)
    });
    Report { job: job.clone(), outcome: outcome.map_err(|e| format!("{e:#}")), ltp, elapsed: start.elapsed() }
}

/// Measures every job, up to `jobs` at once, in the order of `list`; `done` as each finishes.
pub fn measure_all(list: &[Job], jobs: usize, version: &str, done: &(dyn Fn(&Report) + Sync)) -> Vec<Report> {
    crate::engine::pool::each(list, jobs, |job| measure(job, version), done)
}

fn run_job(job: &Job, ltp: &mut Option<u64>) -> anyhow::Result<Analysis> {
    let work = job.work();
    for stale in [job.out.join("paths.txt"), job.out.join("paths.json")] {
        let _ = std::fs::remove_file(stale);
    }
    scratch::fresh(&work)?;
    let files = scratch::copy_sources(&job.sources, &work)?;
    let path = work.join("paths.ys");
    std::fs::write(&path, script(&job.top, &files, &job.boxes, job.abc))
        .with_context(|| format!("cannot write {}", path.display()))?;
    if let Err(e) = synth::run_yosys(&work, "paths") {
        if !yosys::crash_note(&work, "paths").is_empty() {
            let rtl = job.sources.last().and_then(|p| p.parent()).map(Path::to_path_buf).unwrap_or_default();
            let modules: Vec<String> = rtl_sources::submodules(&rtl, &job.top)
                .unwrap_or_default()
                .iter()
                .map(|f| f.trim_end_matches(".sv").to_string())
                .filter(|m| !job.boxes.contains(m))
                .collect();
            let hint = if modules.is_empty() {
                "the design has no module left to black-box; measure a smaller --module".to_string()
            } else {
                format!(
                    "black-box its largest modules with --box (those under {}: {}), or measure one of them with \
                     --module",
                    job.top,
                    modules.join(", ")
                )
            };
            return Err(e.context(format!(
                "the flattened {} does not fit Yosys for WebAssembly's 4 GiB of memory; {hint}",
                job.top
            )));
        }
        return Err(e);
    }
    let log = work.join("paths.log");
    let read = |name: &str| {
        let path = work.join(name);
        std::fs::read_to_string(&path)
            .with_context(|| format!("{} wrote no {} (log {})", yosys::YOSYS, path.display(), log.display()))
    };
    let length = synth::parse_ltp(&read("ltp.txt")?, &job.top).with_context(|| format!("log {}", log.display()))?;
    *ltp = Some(length);
    let analysis = analyse(&read("netlist.json")?, &read("ports.txt")?, &job.top, job.paths)
        .with_context(|| format!("netlist {}", work.join("netlist.json").display()))?;
    if analysis.longest as u64 != length {
        anyhow::bail!(
            "CROSS-CHECK FAILED: the longest path computed here has {} levels, Yosys's `ltp -noff` says {length} \
             ({}); the measurement is not trusted",
            analysis.longest,
            work.join("ltp.txt").display()
        );
    }
    Ok(analysis)
}

fn instance_label(top: &str, i: &str) -> String {
    if i.is_empty() {
        top.to_string()
    } else {
        i.to_string()
    }
}

/// "within buffer_addr" or "crosses paths_top > u_leaf".
pub fn scope(top: &str, p: &TimingPath) -> String {
    let list: Vec<String> = p.instances.iter().map(|i| instance_label(top, i)).collect();
    let mut s = if p.within() { format!("within {}", list.join("")) } else { format!("crosses {}", list.join(" > ")) };
    if !p.instances_complete {
        s.push_str(" (gates' instances unknown after ABC)");
    }
    s
}

/// "Yosys 0.70 (git sha1 28ba3cb92)" of Yosys's whole `-V` line.
pub fn short_version(version: &str) -> String {
    match version.split_once(", ") {
        Some((head, _)) if head.contains('(') => format!("{head})"),
        _ => version.to_string(),
    }
}

/// The report as text (paths.txt and the command's output).
pub fn text(report: &Report, yosys_version: &str) -> String {
    let yosys_version = short_version(yosys_version);
    let job = &report.job;
    let mut out = format!(
        "gcn-vmem paths: {} (top {}), flattened, generic gates{}; {yosys_version}\n",
        job.unit,
        job.top,
        if job.abc { " after ABC" } else { " (no ABC)" }
    );
    let a = match &report.outcome {
        Ok(a) => a,
        Err(why) => {
            out.push_str(&format!("FAILED after {:.1} s: {why}\n", report.elapsed.as_secs_f64()));
            return out;
        }
    };
    out.push_str(&format!("{} gates, {} flop bits", a.gates, a.flops));
    if a.latches > 0 {
        out.push_str(&format!(", {} latch bits", a.latches));
    }
    for (m, k) in &a.boxes {
        out.push_str(&format!(", {k} x {m} (black box)"));
    }
    out.push_str(&format!(
        "; longest path {} levels (`ltp -noff` agrees: {}); {:.1} s\n",
        a.longest,
        report.ltp.map_or("?".to_string(), |l| l.to_string()),
        report.elapsed.as_secs_f64()
    ));
    for (i, (_, title)) in CLASSES.iter().enumerate() {
        let paths = &a.classes[i];
        out.push_str(&format!("\n{title}:{}\n", if paths.is_empty() { " none" } else { "" }));
        for (k, p) in paths.iter().enumerate() {
            let mut more = if p.more_ends > 0 { format!(" (+{} more)", p.more_ends) } else { String::new() };
            if p.more_bits > 0 {
                more.push_str(&format!(" (+{} more bits of {})", p.more_bits, register_of(&p.end.name)));
            }
            out.push_str(&format!(
                "  {:>2}. {:>4} levels  {} -> {}{more}   {}\n",
                k + 1,
                p.levels,
                p.start.label(),
                p.end.label(),
                scope(&a.top, p)
            ));
            let mut via: Vec<&str> = Vec::new();
            for s in &p.steps {
                if let Some(n) = s.net.as_deref() {
                    let word = n.split('[').next().unwrap_or(n);
                    if via.last().is_none_or(|l| l.split('[').next() != Some(word)) {
                        via.push(n);
                    }
                }
            }
            if !via.is_empty() {
                const SHOWN: usize = 8;
                let more = via.len().saturating_sub(SHOWN);
                let mut line = via.iter().take(SHOWN).copied().collect::<Vec<_>>().join(", ");
                if more > 0 {
                    line.push_str(&format!(", … ({more} more in paths.json)"));
                }
                out.push_str(&format!("          via {line}\n"));
            }
        }
    }
    if let Some(o) = a.other.filter(|o| *o > 0) {
        out.push_str(&format!(
            "\nother paths (from an undriven net, or to an unused net or a clock pin): longest {o} levels\n"
        ));
    }
    out
}

fn end_json(e: &End) -> Value {
    json!({
        "kind": e.kind.as_str(),
        "name": e.name,
        "bit": e.bit,
        "label": e.label(),
        "instance": e.instance,
        "pin": e.pin,
        "cell": e.cell,
    })
}

/// The report as JSON (paths.json).
pub fn to_json(report: &Report, yosys_version: &str) -> Value {
    let job = &report.job;
    let yosys_version = short_version(yosys_version);
    let mut v = json!({
        "tool": "gcn-vmem paths",
        "unit": job.unit,
        "top": job.top,
        "yosys": yosys_version,
        "abc": job.abc,
        "black_boxes": job.boxes,
        "seconds": report.elapsed.as_secs_f64(),
        "ltp": report.ltp,
    });
    match &report.outcome {
        Err(why) => v["error"] = json!(why),
        Ok(a) => {
            v["gates"] = json!(a.gates);
            v["flops"] = json!(a.flops);
            v["latches"] = json!(a.latches);
            v["box_instances"] =
                json!(a.boxes.iter().map(|(m, k)| json!({"module": m, "instances": k})).collect::<Vec<_>>());
            v["longest"] = json!(a.longest);
            v["other"] = json!(a.other);
            for (i, (key, _)) in CLASSES.iter().enumerate() {
                v[*key] = json!(a.classes[i]
                    .iter()
                    .map(|p| json!({
                        "levels": p.levels,
                        "start": end_json(&p.start),
                        "end": end_json(&p.end),
                        "more_ends": p.more_ends,
                        "more_bits": p.more_bits,
                        "scope": if p.within() { "within" } else { "crosses" },
                        "instances": p.instances.iter().map(|i| instance_label(&a.top, i)).collect::<Vec<_>>(),
                        "instances_complete": p.instances_complete,
                        "cells": p.steps.iter().map(|s| json!({
                            "cell": s.cell,
                            "type": s.kind,
                            "instance": s.instance.as_deref().map(|i| instance_label(&a.top, i)),
                            "net": s.net,
                        })).collect::<Vec<_>>(),
                    }))
                    .collect::<Vec<_>>());
            }
        }
    }
    v
}
