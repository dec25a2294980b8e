//! The Rust-written waveform of a lockstep run: the inputs, the model's expected outputs, the
//! RTL's actual outputs and one mismatch marker per output, on the same time base as the RTL's
//! own Verilator waveform (1 ps per evaluation, cosim/verilated/include/verilated_rs.h): every
//! change of rst_ni takes one step, every clock cycle two (clk_i low, then high). A run opens
//! with rst_ni falling at 0, an edge with it held at 1/2 and rst_ni rising at 3; cycle 0 follows.
//! So the two files line up in a viewer.

use std::fmt::Write as _;
use std::io;
use std::path::Path;

use super::lockstep::Cycle;
use crate::unit::{Ports, Signal};

/// VCD identifier for the n-th signal (printable ASCII 33..=126).
fn ident(mut n: usize) -> String {
    let mut id = String::new();
    loop {
        id.push(char::from(33 + (n % 94) as u8));
        n /= 94;
        if n == 0 {
            return id;
        }
        n -= 1;
    }
}

fn value(width: u32, v: u128, id: &str) -> String {
    if width == 1 {
        format!("{}{id}\n", v & 1)
    } else {
        format!("b{v:b} {id}\n")
    }
}

struct Var {
    id: String,
    width: u32,
}

fn declare(text: &mut String, scope: &str, signals: &[Signal], next: &mut usize) -> Vec<Var> {
    writeln!(text, "$scope module {scope} $end").unwrap();
    let vars = signals
        .iter()
        .map(|s| {
            let id = ident(*next);
            *next += 1;
            let range = if s.width > 1 { format!(" [{}:0]", s.width - 1) } else { String::new() };
            writeln!(text, "$var wire {} {id} {}{range} $end", s.width, s.name).unwrap();
            Var { id, width: s.width }
        })
        .collect();
    writeln!(text, "$upscope $end").unwrap();
    vars
}

/// The VCD under construction: the declared variables and the text.
struct Writer {
    text: String,
    time: u64,
    clk: String,
    rst: String,
    cycle: String,
    ins: Vec<Var>,
    exp: Vec<Var>,
    act: Vec<Var>,
    mis: Vec<Var>,
    any: String,
}

impl Writer {
    fn set(&mut self, width: u32, v: u128, id: &str) {
        self.text.push_str(&value(width, v, id));
    }

    /// Opens the next time step.
    fn tick(&mut self) {
        writeln!(self.text, "#{}", self.time).unwrap();
        self.time += 1;
    }

    fn outputs<O: Ports>(&mut self, expected: &O, actual: &O) {
        let mut differs = false;
        for i in 0..O::SIGNALS.len() {
            let (e, a) = (expected.get(i), actual.get(i));
            differs |= e != a;
            let (ew, eid) = (self.exp[i].width, self.exp[i].id.clone());
            self.set(ew, e, &eid);
            let aid = self.act[i].id.clone();
            self.set(ew, a, &aid);
            let mid = self.mis[i].id.clone();
            self.set(1, u128::from(e != a), &mid);
        }
        let any = self.any.clone();
        self.set(1, u128::from(differs), &any);
    }

    fn inputs<I: Ports>(&mut self, input: &I) {
        for i in 0..I::SIGNALS.len() {
            let (w, id) = (self.ins[i].width, self.ins[i].id.clone());
            self.set(w, input.get(i), &id);
        }
    }

    /// A change of rst_ni between edges, with the outputs right after it.
    fn reset<O: Ports>(&mut self, asserted: bool, outputs: &(O, O)) {
        self.tick();
        let rst = self.rst.clone();
        self.set(1, u128::from(!asserted), &rst);
        self.outputs(&outputs.0, &outputs.1);
    }

    /// A clock cycle: inputs with clk_i low, outputs after the rising edge.
    fn edge<I: Ports, O: Ports>(&mut self, cycle: Option<u64>, input: &I, outputs: &(O, O)) {
        self.tick();
        let (clk, cyc) = (self.clk.clone(), self.cycle.clone());
        self.set(1, 0, &clk);
        if let Some(n) = cycle {
            self.set(32, u128::from(n), &cyc);
        }
        self.inputs(input);
        self.tick();
        self.set(1, 1, &clk);
        self.outputs(&outputs.0, &outputs.1);
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
    let mut text = String::new();
    writeln!(text, "$comment gcn-vmem lockstep diff of {unit}: in, expected (model), actual (RTL), mismatch $end")
        .unwrap();
    writeln!(text, "$timescale 1ps $end").unwrap();
    writeln!(text, "$scope module {unit} $end").unwrap();
    let mut next = 0;
    let mut fresh = || {
        let id = ident(next);
        next += 1;
        id
    };
    let (clk, rst, cycle) = (fresh(), fresh(), fresh());
    writeln!(text, "$var wire 1 {clk} clk $end").unwrap();
    writeln!(text, "$var wire 1 {rst} rst_ni $end").unwrap();
    writeln!(text, "$var wire 32 {cycle} cycle [31:0] $end").unwrap();
    let ins = declare(&mut text, "in", I::SIGNALS, &mut next);
    let exp = declare(&mut text, "expected", O::SIGNALS, &mut next);
    let act = declare(&mut text, "actual", O::SIGNALS, &mut next);
    let flags: Vec<Signal> = O::SIGNALS.iter().map(|s| Signal { width: 1, ..*s }).collect();
    let mis = declare(&mut text, "mismatch", &flags, &mut next);
    let any = ident(next);
    writeln!(text, "$var wire 1 {any} any_mismatch $end").unwrap();
    writeln!(text, "$upscope $end\n$enddefinitions $end").unwrap();
    let mut w = Writer { text, time: 0, clk, rst, cycle, ins, exp, act, mis, any };

    // Before the run: clock high, reset released, inputs 0.
    w.text.push_str("$dumpvars\n");
    let (clk, rst, cyc) = (w.clk.clone(), w.rst.clone(), w.cycle.clone());
    w.set(1, 1, &clk);
    w.set(1, 1, &rst);
    w.set(32, 0, &cyc);
    w.inputs(&I::default());
    w.outputs(&O::default(), &O::default());
    w.text.push_str("$end\n");

    w.reset(true, &opening[0]);
    w.edge(None, &I::default(), &opening[1]);
    w.reset(false, &opening[2]);
    for (k, c) in record.iter().enumerate() {
        for (asserted, outputs) in c.at_reset.iter().flatten() {
            w.reset(*asserted, outputs);
        }
        w.edge(Some(k as u64), &c.input, &(c.expected, c.actual));
    }
    writeln!(w.text, "#{}", w.time).unwrap();
    std::fs::write(path, w.text)
}
