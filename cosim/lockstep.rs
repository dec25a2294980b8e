//! The lockstep driver: one model and one RTL instance of a unit, fed the same inputs every
//! cycle, every output compared every cycle. Mismatches are collected as values; the driver
//! never stops at the first one.

use crate::unit::{Ports, Unit};

/// One output that differed in one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Cycle number since the last reset (0 = the first step after reset).
    pub cycle: u64,
    /// Index of the output port in `Out::SIGNALS`.
    pub signal: usize,
    pub expected: u128,
    pub actual: u128,
}

/// One cycle as both sides saw it: the input and both outputs after the edge.
#[derive(Clone, Copy, Debug)]
pub struct Cycle<I, O> {
    pub input: I,
    pub expected: O,
    pub actual: O,
}

/// Steps a model and an RTL instance together.
pub struct Lockstep<M: Unit, R: Unit<In = M::In, Out = M::Out>> {
    pub model: M,
    pub rtl: R,
    cycle: u64,
    /// Every mismatch since the last reset, in cycle order.
    pub mismatches: Vec<Mismatch>,
    /// When `Some`, every cycle since the last reset (for traces and waveforms).
    pub record: Option<Vec<Cycle<M::In, M::Out>>>,
}

impl<M: Unit, R: Unit<In = M::In, Out = M::Out>> Lockstep<M, R> {
    pub fn new(model: M, rtl: R) -> Self {
        Lockstep { model, rtl, cycle: 0, mismatches: Vec::new(), record: None }
    }

    /// Keeps a per-cycle record from now on (cleared by every reset).
    pub fn recording(mut self) -> Self {
        self.record = Some(Vec::new());
        self
    }

    /// Resets both sides and forgets the mismatches and record of the previous run.
    pub fn reset(&mut self) {
        self.model.reset();
        self.rtl.reset();
        self.cycle = 0;
        self.mismatches.clear();
        if let Some(record) = &mut self.record {
            record.clear();
        }
    }

    /// One cycle on both sides; returns whether every output agreed.
    #[inline]
    pub fn step(&mut self, input: &M::In) -> bool {
        self.step_out(input).0
    }

    /// One cycle on both sides; returns whether every output agreed, and the model's outputs.
    #[inline]
    pub fn step_out(&mut self, input: &M::In) -> (bool, M::Out) {
        let expected = self.model.step(input);
        let actual = self.rtl.step(input);
        let same = expected == actual;
        if !same {
            for (signal, _) in M::Out::SIGNALS.iter().enumerate() {
                let (e, a) = (expected.get(signal), actual.get(signal));
                if e != a {
                    self.mismatches.push(Mismatch { cycle: self.cycle, signal, expected: e, actual: a });
                }
            }
        }
        if let Some(record) = &mut self.record {
            record.push(Cycle { input: *input, expected, actual });
        }
        self.cycle += 1;
        (same, expected)
    }

    /// Resets, drives `inputs` one per cycle, then idles (all-zero inputs, valid = 0) for the
    /// unit's latency so the last result reaches the outputs. Returns whether all cycles agreed.
    pub fn run(&mut self, inputs: &[M::In]) -> bool {
        self.reset();
        let mut same = true;
        for input in inputs {
            same &= self.step(input);
        }
        let idle = M::In::default();
        for _ in 0..M::LATENCY {
            same &= self.step(&idle);
        }
        same
    }

    /// Cycles stepped since the last reset.
    pub fn cycles(&self) -> u64 {
        self.cycle
    }
}

/// The index of the input that produced the outputs of `cycle`: a result appears LATENCY − 1
/// steps after its input (rust/unit.rs).
pub fn source_cycle(cycle: u64, latency: usize) -> Option<u64> {
    cycle.checked_sub(latency.saturating_sub(1) as u64)
}

/// The stable text trace of a recorded run: one line per cycle, inputs then outputs, in hex.
/// Lines where the RTL differed carry the RTL's values too.
pub fn trace<I: Ports, O: Ports>(record: &[Cycle<I, O>]) -> String {
    let mut text = String::new();
    for (n, c) in record.iter().enumerate() {
        text.push_str(&format!("{n:04} in: {} | out: {}", c.input.render(), c.expected.render()));
        if c.actual != c.expected {
            text.push_str(&format!(" | RTL: {}", c.actual.render()));
        }
        text.push('\n');
    }
    text
}
