//! The Rust-written waveform of a lockstep run: the inputs, the model's expected outputs, the
//! RTL's actual outputs and one mismatch marker per output, on the same time base as the RTL's
//! own Verilator waveform (1 ps per evaluation, cosim/verilated/include/verilated_rs.h): every
//! change of rst_ni takes one step, every clock cycle two (clk_i low, then high). A run opens
//! with rst_ni falling at 0, an edge with it held at 1/2 and rst_ni rising at 3; cycle 0 follows.
//! So the two files line up in a viewer.
//!
//! The VCD is written through the `vcd` crate. Beside it goes a GTKWave save file
//! ([`write_gtkw`]) that opens it with each output's expected, actual and mismatch traces in one
//! group.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use vcd::{IdCode, ReferenceIndex, SimulationCommand, TimescaleUnit, Value, VarType};

use crate::engine::lockstep::Cycle;
use gcn_vmem_model::unit::{Ports, Signal};

/// The scopes under the unit's top scope, in the order they are declared.
const SCOPES: [&str; 4] = ["in", "expected", "actual", "mismatch"];

/// The `$var` range of a port (`[w-1:0]`; none for one bit), as Verilator writes it.
fn range(width: u32) -> Option<ReferenceIndex> {
    (width > 1).then(|| ReferenceIndex::Range(width as i32 - 1, 0))
}

/// A declared variable: its identifier and width.
#[derive(Clone, Copy)]
struct Var {
    id: IdCode,
    width: u32,
}

/// The diff VCD under construction.
struct Writer<W: Write> {
    vcd: vcd::Writer<W>,
    time: u64,
    clk: Var,
    rst: Var,
    cycle: Var,
    ins: Vec<Var>,
    exp: Vec<Var>,
    act: Vec<Var>,
    mis: Vec<Var>,
    any: Var,
}

/// Declares one variable (a wire, with its range when wider than a bit).
fn add<W: Write>(vcd: &mut vcd::Writer<W>, name: &str, width: u32) -> io::Result<Var> {
    Ok(Var { id: vcd.add_var(VarType::Wire, width, name, range(width))?, width })
}

/// Declares a scope of one variable per port.
fn declare<W: Write>(vcd: &mut vcd::Writer<W>, scope: &str, signals: &[Signal]) -> io::Result<Vec<Var>> {
    vcd.add_module(scope)?;
    let vars = signals.iter().map(|s| add(vcd, s.name, s.width)).collect::<io::Result<_>>()?;
    vcd.upscope()?;
    Ok(vars)
}

impl<W: Write> Writer<W> {
    /// Declares every variable (the header) and returns the writer before `$dumpvars`.
    fn new<I: Ports, O: Ports>(out: W, unit: &str) -> io::Result<Self> {
        let mut vcd = vcd::Writer::new(out);
        vcd.comment(&format!("gcn-vmem lockstep diff of {unit}: in, expected (model), actual (RTL), mismatch"))?;
        vcd.timescale(1, TimescaleUnit::PS)?;
        vcd.add_module(unit)?;
        let clk = add(&mut vcd, "clk", 1)?;
        let rst = add(&mut vcd, "rst_ni", 1)?;
        let cycle = add(&mut vcd, "cycle", 32)?;
        let ins = declare(&mut vcd, SCOPES[0], I::SIGNALS)?;
        let exp = declare(&mut vcd, SCOPES[1], O::SIGNALS)?;
        let act = declare(&mut vcd, SCOPES[2], O::SIGNALS)?;
        let flags: Vec<Signal> = O::SIGNALS.iter().map(|s| Signal { width: 1, ..*s }).collect();
        let mis = declare(&mut vcd, SCOPES[3], &flags)?;
        let any = add(&mut vcd, "any_mismatch", 1)?;
        vcd.upscope()?;
        vcd.enddefinitions()?;
        Ok(Writer { vcd, time: 0, clk, rst, cycle, ins, exp, act, mis, any })
    }

    /// Writes `v` as the value of `var`: a scalar, or a vector without leading zeros. Every
    /// value is written at every step (not only changes), as the hand-written writer did: random
    /// inputs change nearly every cycle, so writing only changes saved 15 % of the file.
    fn set(&mut self, var: Var, v: u128) -> io::Result<()> {
        if var.width == 1 {
            self.vcd.change_scalar(var.id, v & 1 == 1)
        } else {
            let bits = (u128::BITS - v.leading_zeros()).max(1);
            self.vcd.change_vector(var.id, (0..bits).rev().map(|i| Value::from(v >> i & 1 == 1)))
        }
    }

    /// Opens the next time step.
    fn tick(&mut self) -> io::Result<()> {
        self.vcd.timestamp(self.time)?;
        self.time += 1;
        Ok(())
    }

    fn outputs<O: Ports>(&mut self, expected: &O, actual: &O) -> io::Result<()> {
        let mut differs = false;
        for i in 0..O::SIGNALS.len() {
            let (e, a) = (expected.get(i), actual.get(i));
            differs |= e != a;
            self.set(self.exp[i], e)?;
            self.set(self.act[i], a)?;
            self.set(self.mis[i], u128::from(e != a))?;
        }
        self.set(self.any, u128::from(differs))
    }

    fn inputs<I: Ports>(&mut self, input: &I) -> io::Result<()> {
        for i in 0..I::SIGNALS.len() {
            self.set(self.ins[i], input.get(i))?;
        }
        Ok(())
    }

    /// A change of rst_ni between edges, with the outputs right after it.
    fn reset<O: Ports>(&mut self, asserted: bool, outputs: &(O, O)) -> io::Result<()> {
        self.tick()?;
        self.set(self.rst, u128::from(!asserted))?;
        self.outputs(&outputs.0, &outputs.1)
    }

    /// A clock cycle: inputs with clk_i low, outputs after the rising edge.
    fn edge<I: Ports, O: Ports>(&mut self, cycle: Option<u64>, input: &I, outputs: &(O, O)) -> io::Result<()> {
        self.tick()?;
        self.set(self.clk, 0)?;
        if let Some(n) = cycle {
            self.set(self.cycle, u128::from(n))?;
        }
        self.inputs(input)?;
        self.tick()?;
        self.set(self.clk, 1)?;
        self.outputs(&outputs.0, &outputs.1)
    }
}

/// Writes the diff waveform of a run as VCD to `path`: `opening` is the run's opening reset
/// (outputs after rst_ni fell, after the held edge, after it rose: `Lockstep::opening`), `record`
/// its cycles.
pub fn write_diff_vcd<I: Ports, O: Ports>(
    path: &Path,
    unit: &str,
    opening: &[(O, O); 3],
    record: &[Cycle<I, O>],
) -> io::Result<()> {
    let mut w = Writer::new::<I, O>(BufWriter::new(File::create(path)?), unit)?;

    // Before the run: clock high, reset released, inputs 0.
    w.vcd.begin(SimulationCommand::Dumpvars)?;
    w.set(w.clk, 1)?;
    w.set(w.rst, 1)?;
    w.set(w.cycle, 0)?;
    w.inputs(&I::default())?;
    w.outputs(&O::default(), &O::default())?;
    w.vcd.end()?;

    w.reset(true, &opening[0])?;
    w.edge(None, &I::default(), &opening[1])?;
    w.reset(false, &opening[2])?;
    for (k, c) in record.iter().enumerate() {
        for (asserted, outputs) in c.at_reset.iter().flatten() {
            w.reset(*asserted, outputs)?;
        }
        w.edge(Some(k as u64), &c.input, &(c.expected, c.actual))?;
    }
    w.vcd.timestamp(w.time)?;
    w.vcd.flush()
}

/// Where the GTKWave save file of a diff waveform goes: `<x>.diff.vcd` → `<x>.diff.gtkw`.
pub fn gtkw_path(diff_vcd: &Path) -> PathBuf {
    diff_vcd.with_extension("gtkw")
}

/// The report lines that name a run's waveforms, those written: `RTL waveform <rtl>`, then
/// `diff waveform <diff>` and the line of its GTKWave save file ([`gtkw_path`]).
pub(crate) fn file_lines(rtl: Option<&Path>, diff: Option<&Path>) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(w) = rtl {
        lines.push(format!("RTL waveform {}", w.display()));
    }
    if let Some(w) = diff {
        lines.push(format!("diff waveform {}", w.display()));
        lines.push(format!("GTKWave save file {} (open with: gtkwave {0})", gtkw_path(w).display()));
    }
    lines
}

/// A trace line of a save file: the variable's hierarchical name as GTKWave reads it from the
/// VCD (`unit.scope.name`, with `[w-1:0]` for a vector).
fn trace(scope: &[&str], signal: &Signal) -> String {
    let range = range(signal.width).map(|r| r.to_string()).unwrap_or_default();
    format!("{}.{}{range}", scope.join("."), signal.name)
}

/// The text of a GTKWave save file for the diff waveform `dumpfile` of unit `unit` with ports
/// `I` and `O`: clk, rst_ni, cycle and any_mismatch first, then a group of the inputs, then one
/// group per output holding its expected, actual and mismatch traces (the marker in red).
/// Vectors show in hex (format flag `@22`), single bits in binary (`@28`).
pub(crate) fn gtkw_text<I: Ports, O: Ports>(dumpfile: &str, unit: &str) -> String {
    const BITS: &str = "@28";
    const HEX: &str = "@22";
    const GROUP_OPEN: &str = "@800200";
    const GROUP_CLOSE: &str = "@1000200";
    // GTKWave's colour index 1 is red.
    const RED: &str = "[color] 1";
    let flag = |s: &Signal| if s.width == 1 { BITS } else { HEX };
    let mut text = String::new();
    let quoted = dumpfile.replace('\\', "\\\\").replace('"', "\\\"");
    writeln!(text, "[*] GTKWave save file written by gcn-vmem for the lockstep diff of {unit}").unwrap();
    writeln!(text, "[dumpfile] \"{quoted}\"").unwrap();
    writeln!(text, "[timestart] 0").unwrap();
    writeln!(text, "[treeopen] {unit}.").unwrap();
    let top = [unit];
    let own = |name, width| Signal { name, width, kind: gcn_vmem_model::unit::Kind::Int };
    for (name, width) in [("clk", 1), ("rst_ni", 1), ("cycle", 32)] {
        writeln!(text, "{}\n{}", if width == 1 { BITS } else { "@24" }, trace(&top, &own(name, width))).unwrap();
    }
    writeln!(text, "{RED}\n{BITS}\n{}", trace(&top, &own("any_mismatch", 1))).unwrap();

    let group = |text: &mut String, name: &str, lines: &[(&str, String, bool)]| {
        writeln!(text, "{GROUP_OPEN}\n-{name}").unwrap();
        for (flag, trace, red) in lines {
            if *red {
                writeln!(text, "{RED}").unwrap();
            }
            writeln!(text, "{flag}\n{trace}").unwrap();
        }
        writeln!(text, "{GROUP_CLOSE}\n-{name}").unwrap();
    };
    let inputs: Vec<_> = I::SIGNALS.iter().map(|s| (flag(s), trace(&[unit, SCOPES[0]], s), false)).collect();
    group(&mut text, "in", &inputs);
    for s in O::SIGNALS {
        let marker = Signal { width: 1, ..*s };
        let lines = [
            (flag(s), trace(&[unit, SCOPES[1]], s), false),
            (flag(s), trace(&[unit, SCOPES[2]], s), false),
            (BITS, trace(&[unit, SCOPES[3]], &marker), true),
        ];
        group(&mut text, s.name, &lines);
    }
    text
}

/// Writes the GTKWave save file of the diff waveform `diff_vcd` beside it ([`gtkw_path`]) and
/// returns its path. The dump file is named by its absolute path (as GTKWave itself writes it),
/// so `gtkwave <id>.diff.gtkw` opens the waveform from any folder.
pub fn write_gtkw<I: Ports, O: Ports>(diff_vcd: &Path, unit: &str) -> io::Result<PathBuf> {
    let dumpfile = std::fs::canonicalize(diff_vcd).unwrap_or_else(|_| diff_vcd.to_path_buf());
    let path = gtkw_path(diff_vcd);
    std::fs::write(&path, gtkw_text::<I, O>(&dumpfile.display().to_string(), unit))?;
    Ok(path)
}

/// Writes `vcd` from the FST at `fst`: the same scopes, variables and value changes. The RTL is
/// built FST-traced only; a run that asks for a VCD records FST and converts it when it ends
/// (cosim/engine/rtl.rs), so a unit needs no VCD-traced build.
pub(crate) fn fst_to_vcd(fst: &Path, vcd: &Path) -> anyhow::Result<()> {
    use anyhow::Context as _;
    use fst_reader::{FstFilter, FstHierarchyEntry, FstReader, FstSignalValue};

    let file = File::open(fst).with_context(|| format!("cannot read {}", fst.display()))?;
    let mut reader = FstReader::open(io::BufReader::new(file))
        .map_err(|e| anyhow::anyhow!("{} is not a readable FST: {e:?}", fst.display()))?;
    let exponent = reader.get_header().timescale_exponent;
    let unit = [(-15, "fs"), (-12, "ps"), (-9, "ns"), (-6, "us"), (-3, "ms"), (0, "s")]
        .iter()
        .rev()
        .find(|(e, _)| *e <= exponent)
        .map_or((-15, "fs"), |&(e, u)| (e, u));
    let mut out = String::from("$comment converted from an FST written by Verilator (gcn-vmem) $end\n");
    writeln!(out, "$timescale {}{} $end", 10u64.pow((exponent - unit.0) as u32), unit.1)?;
    // Every signal handle gets one identifier (several variables may alias one signal).
    let mut ids: Vec<Option<(String, u32)>> = Vec::new();
    let id_code = |n: usize| {
        let (mut n, mut s) = (n, String::new());
        loop {
            s.push((b'!' + (n % 94) as u8) as char);
            n /= 94;
            if n == 0 {
                return s;
            }
        }
    };
    reader
        .read_hierarchy(|entry| {
            let _ = match entry {
                FstHierarchyEntry::Scope { name, .. } => writeln!(out, "$scope module {name} $end"),
                FstHierarchyEntry::UpScope => writeln!(out, "$upscope $end"),
                FstHierarchyEntry::Var { name, length, handle, .. } => {
                    let k = handle.get_index();
                    if ids.len() <= k {
                        ids.resize(k + 1, None);
                    }
                    let id = ids[k].get_or_insert_with(|| (id_code(k), length)).0.clone();
                    // Verilator names a vector `name [msb:lsb]` already; a bare vector gets its range.
                    let range =
                        if length > 1 && !name.contains('[') { format!(" [{}:0]", length - 1) } else { String::new() };
                    writeln!(out, "$var wire {length} {id} {name}{range} $end")
                }
                _ => Ok(()),
            };
        })
        .map_err(|e| anyhow::anyhow!("{}: cannot read the hierarchy: {e:?}", fst.display()))?;
    out.push_str("$enddefinitions $end\n");
    let mut last = None;
    reader
        .read_signals(&FstFilter::all(), |time, handle, value| {
            let Some(Some((id, width))) = ids.get(handle.get_index()) else { return Ok(()) };
            if last != Some(time) {
                writeln!(out, "#{time}")?;
                last = Some(time);
            }
            match value {
                FstSignalValue::String(bits) => {
                    let bits = String::from_utf8_lossy(bits);
                    if *width == 1 {
                        writeln!(out, "{bits}{id}")
                    } else {
                        writeln!(out, "b{bits} {id}")
                    }
                }
                FstSignalValue::Real(r) => writeln!(out, "r{r} {id}"),
            }
        })
        .map_err(|e| anyhow::anyhow!("{}: cannot read the value changes: {e:?}", fst.display()))?;
    std::fs::write(vcd, out).with_context(|| format!("cannot write {}", vcd.display()))?;
    Ok(())
}
