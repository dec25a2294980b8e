//! The Rust-written waveform of a lockstep run: the inputs, the model's expected outputs, the
//! RTL's actual outputs and one mismatch marker per output, on the same time base as the RTL's
//! own Verilator waveform (reset edge at 0/1, cycle k at 2 + 2k with clk_i low and 3 + 2k with
//! clk_i high, 1 ps per half cycle), so the two files line up in a viewer.

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

/// Writes the diff waveform of `record` (a run from reset) as VCD to `path`.
pub fn write_diff_vcd<I: Ports, O: Ports>(path: &Path, unit: &str, record: &[Cycle<I, O>]) -> io::Result<()> {
    let mut text = String::new();
    writeln!(text, "$comment gcn-vmem lockstep diff of {unit}: in, expected (model), actual (RTL), mismatch $end")
        .unwrap();
    writeln!(text, "$timescale 1ps $end").unwrap();
    writeln!(text, "$scope module {unit} $end").unwrap();
    let mut next = 0;
    let clk = ident(next);
    next += 1;
    writeln!(text, "$var wire 1 {clk} clk $end").unwrap();
    let cycle_id = ident(next);
    next += 1;
    writeln!(text, "$var wire 32 {cycle_id} cycle [31:0] $end").unwrap();
    let ins = declare(&mut text, "in", I::SIGNALS, &mut next);
    let exp = declare(&mut text, "expected", O::SIGNALS, &mut next);
    let act = declare(&mut text, "actual", O::SIGNALS, &mut next);
    let flags: Vec<Signal> = O::SIGNALS.iter().map(|s| Signal { width: 1, ..*s }).collect();
    let mis = declare(&mut text, "mismatch", &flags, &mut next);
    let any = ident(next);
    writeln!(text, "$var wire 1 {any} any_mismatch $end").unwrap();
    writeln!(text, "$upscope $end\n$enddefinitions $end").unwrap();

    // Reset edge: everything 0.
    writeln!(text, "#0\n$dumpvars").unwrap();
    text.push_str(&value(1, 0, &clk));
    text.push_str(&value(32, 0, &cycle_id));
    for v in ins.iter().chain(&exp).chain(&act).chain(&mis) {
        text.push_str(&value(v.width, 0, &v.id));
    }
    text.push_str(&value(1, 0, &any));
    writeln!(text, "$end\n#1").unwrap();
    text.push_str(&value(1, 1, &clk));

    for (k, c) in record.iter().enumerate() {
        let t = 2 + 2 * k as u64;
        writeln!(text, "#{t}").unwrap();
        text.push_str(&value(1, 0, &clk));
        text.push_str(&value(32, k as u128, &cycle_id));
        for (i, v) in ins.iter().enumerate() {
            text.push_str(&value(v.width, c.input.get(i), &v.id));
        }
        writeln!(text, "#{}", t + 1).unwrap();
        text.push_str(&value(1, 1, &clk));
        let mut differs = false;
        for i in 0..O::SIGNALS.len() {
            let (e, a) = (c.expected.get(i), c.actual.get(i));
            differs |= e != a;
            text.push_str(&value(exp[i].width, e, &exp[i].id));
            text.push_str(&value(act[i].width, a, &act[i].id));
            text.push_str(&value(1, u128::from(e != a), &mis[i].id));
        }
        text.push_str(&value(1, u128::from(differs), &any));
    }
    writeln!(text, "#{}", 2 + 2 * record.len() as u64).unwrap();
    std::fs::write(path, text)
}
