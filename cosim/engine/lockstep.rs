//! The lockstep driver: one model and one RTL instance of a unit, fed the same inputs every
//! cycle, every output compared every cycle — and also at every change of the asynchronous reset,
//! before any clock edge — with the RTL's assertions checked at every evaluation. Mismatches and
//! assertion failures are collected as values; the driver never stops at the first one.
//!
//! A run starts from reset: `rst_ni` falls (outputs compared), is held across one edge (compared)
//! and rises (compared); then cycle 0 is the first input. A [`Step`] can pulse or hold the reset
//! again in the middle of a run.

use std::fmt;
use std::time::{Duration, Instant};

use crate::engine::RtlUnit;
use gcn_vmem_model::unit::{Ports, Unit};

/// What `rst_ni` does in one cycle, before that cycle's clock edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Reset {
    /// High (released) across the edge; if it was held low in the cycle before, it rises first.
    #[default]
    None,
    /// Falls and rises again between the previous edge and this one (an asynchronous pulse that
    /// spans no edge): the registers clear, then this cycle runs normally.
    Pulse,
    /// Low across this cycle's edge (falling first if it was high): the registers stay clear
    /// and the cycle's input is lost.
    Hold,
}

impl Reset {
    /// The vector-file spelling (`"reset": "pulse"` / `"hold"`); `None` is not written.
    pub const NAMES: [&'static str; 3] = ["none", "pulse", "hold"];

    /// The changes of rst_ni before the edge of a cycle with this activity, in order (`true`:
    /// it falls, `false`: it rises), when rst_ni was `held` low across the previous edge or not:
    /// the one statement of the protocol that [`Lockstep::drive`] and [`drive_unit`] follow.
    pub fn changes(self, held: bool) -> &'static [bool] {
        match (self, held) {
            (Reset::None, false) | (Reset::Hold, true) => &[],
            (Reset::None, true) | (Reset::Pulse, true) => &[false],
            (Reset::Pulse, false) => &[true, false],
            (Reset::Hold, false) => &[true],
        }
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// One cycle of a run: the reset activity before its edge, and its input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Step<I> {
    pub reset: Reset,
    pub input: I,
}

impl<I> From<I> for Step<I> {
    fn from(input: I) -> Self {
        Step { reset: Reset::None, input }
    }
}

/// When an output was compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum At {
    /// After the rising edge of the cycle.
    Edge,
    /// Right after `rst_ni` fell, before the cycle's edge.
    ResetAsserted,
    /// After an edge with `rst_ni` held low, before the run's first cycle (the opening reset).
    ResetEdge,
    /// Right after `rst_ni` rose, before the cycle's edge.
    ResetReleased,
}

impl At {
    /// The comparison right after rst_ni moved: fell (`asserted`) or rose.
    fn reset_change(asserted: bool) -> At {
        if asserted {
            At::ResetAsserted
        } else {
            At::ResetReleased
        }
    }
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            At::Edge => "edge",
            At::ResetAsserted => "reset-asserted",
            At::ResetEdge => "reset-edge",
            At::ResetReleased => "reset-released",
        })
    }
}

/// One output that differed at one comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Cycle number since the start of the run (0 = the first input). Comparisons before a
    /// cycle's edge (reset changes) carry that cycle's number.
    pub cycle: u64,
    pub at: At,
    /// Index of the output port in `Out::SIGNALS`.
    pub signal: usize,
    pub expected: u128,
    pub actual: u128,
}

/// An RTL assertion that failed (`VMEM_ASSERT` in rtl/<unit>.sv).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssertionFailure {
    /// The cycle whose evaluation reported it, numbered as in [`Mismatch`]. A concurrent
    /// assertion samples the values from just before that cycle's edge.
    pub cycle: u64,
    pub at: At,
    /// The assertion's name, e.g. `InRangePrefix_A`.
    pub name: String,
}

/// One cycle as both sides saw it: the reset activity before its edge, the input, and both
/// outputs after the edge. For the waveform, also each change of rst_ni before the edge, in order:
/// whether it was asserted, and both outputs right after.
#[derive(Clone, Copy, Debug)]
pub struct Cycle<I, O> {
    pub reset: Reset,
    pub input: I,
    pub expected: O,
    pub actual: O,
    pub at_reset: [Option<(bool, (O, O))>; 2],
}

/// Steps a model and an RTL instance together.
pub struct Lockstep<M: Unit, R: RtlUnit<In = M::In, Out = M::Out>> {
    pub model: M,
    pub rtl: R,
    cycle: u64,
    /// rst_ni is held low (a `Reset::Hold` cycle was the last one).
    held: bool,
    /// Every mismatch since the last reset, in order.
    pub mismatches: Vec<Mismatch>,
    /// Every assertion failure since the last reset, in order.
    pub assertions: Vec<AssertionFailure>,
    /// When `Some`, every cycle since the last reset (for traces and waveforms).
    pub record: Option<Vec<Cycle<M::In, M::Out>>>,
    /// Both sides' outputs (model, RTL) at the opening reset of the run: rst_ni fallen, the
    /// edge with it held, rst_ni risen.
    pub opening: [(M::Out, M::Out); 3],
    /// Whether [`Lockstep::run_steps_with`] runs the sides one after the other (the default)
    /// or cycle by cycle ([`Lockstep::cycle_by_cycle`]).
    side_by_side: bool,
    /// The model's outputs of a run, in evaluation order ([`Lockstep::run_steps_with`]).
    expected: Vec<M::Out>,
    /// When `Some`, [`Lockstep::run_steps_with`] adds where each run's time went.
    pub phases: Option<Phases>,
}

/// Where the time of random runs went (`gcn-vmem bench`'s breakdown of a cosim vector):
/// drawing the cases, the model through them (with the observer, the functional coverage), and
/// the RTL through them with every comparison (the opening reset of both sides included).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Phases {
    pub generate: Duration,
    pub model: Duration,
    pub rtl: Duration,
    /// Some runs took the sides in turn every cycle ([`Lockstep::cycle_by_cycle`] or recorded):
    /// their model time is counted in `rtl`.
    pub interleaved: bool,
}

impl Phases {
    /// Adds `other`'s times to these.
    pub fn add(&mut self, other: &Phases) {
        self.generate += other.generate;
        self.model += other.model;
        self.rtl += other.rtl;
        self.interleaved |= other.interleaved;
    }
}

impl<M: Unit, R: RtlUnit<In = M::In, Out = M::Out>> Lockstep<M, R> {
    pub fn new(model: M, rtl: R) -> Self {
        Lockstep {
            model,
            rtl,
            cycle: 0,
            held: false,
            mismatches: Vec::new(),
            assertions: Vec::new(),
            record: None,
            opening: Default::default(),
            side_by_side: true,
            expected: Vec::new(),
            phases: None,
        }
    }

    /// Keeps a per-cycle record from now on (cleared by every reset).
    pub fn recording(mut self) -> Self {
        self.record = Some(Vec::new());
        self
    }

    /// Runs [`Lockstep::run_steps_with`] cycle by cycle, both sides in turn each cycle, as a
    /// recorded run does: for a unit whose Verilated step is so short that the side-by-side
    /// run's extra pass over the case costs more than it gains ([`crate::engine::Binding::SIDE_BY_SIDE`]).
    pub fn cycle_by_cycle(mut self) -> Self {
        self.side_by_side = false;
        self
    }

    /// Whether nothing differed and no assertion failed since the last reset.
    pub fn clean(&self) -> bool {
        self.mismatches.is_empty() && self.assertions.is_empty()
    }

    /// Compares one pair of outputs and collects the RTL's assertion failures; returns whether
    /// both were clean. The common case, equal outputs and no assertion failed, is inlined; the
    /// rest is [`Lockstep::record_failures`].
    #[inline(always)]
    fn check(&mut self, at: At, expected: &M::Out, actual: &M::Out) -> bool {
        let clean = expected == actual && !self.rtl.assertion_failed();
        if !clean {
            self.record_failures(at, expected, actual);
        }
        clean
    }

    /// The mismatches and assertion failures of one comparison that was not clean.
    #[cold]
    #[inline(never)]
    fn record_failures(&mut self, at: At, expected: &M::Out, actual: &M::Out) {
        if expected != actual {
            self.push_mismatches(at, expected, actual);
        }
        if self.rtl.assertion_failed() {
            let cycle = self.cycle;
            self.assertions.extend(self.rtl.take_assertions().into_iter().map(|name| AssertionFailure {
                cycle,
                at,
                name,
            }));
        }
    }

    /// One mismatch per output that differs between `expected` and `actual`, at this cycle.
    fn push_mismatches(&mut self, at: At, expected: &M::Out, actual: &M::Out) {
        for (signal, _) in M::Out::SIGNALS.iter().enumerate() {
            let (e, a) = (expected.get(signal), actual.get(signal));
            if e != a {
                self.mismatches.push(Mismatch { cycle: self.cycle, at, signal, expected: e, actual: a });
            }
        }
    }

    /// Moves rst_ni on both sides and compares the outputs right after.
    fn set_reset(&mut self, asserted: bool) -> (bool, (M::Out, M::Out)) {
        let expected = self.model.set_reset(asserted);
        let actual = self.rtl.set_reset(asserted);
        (self.check(At::reset_change(asserted), &expected, &actual), (expected, actual))
    }

    /// Starts a run: forgets the previous one's mismatches and record, then asserts reset
    /// (compared), holds it across one edge with all-zero inputs (compared) and releases it
    /// (compared). The next cycle is cycle 0.
    pub fn reset(&mut self) {
        self.cycle = 0;
        self.held = false;
        self.mismatches.clear();
        self.assertions.clear();
        if let Some(record) = &mut self.record {
            record.clear();
        }
        let (_, fallen) = self.set_reset(true);
        let idle = M::In::default();
        let expected = self.model.step(&idle);
        let actual = self.rtl.step(&idle);
        self.check(At::ResetEdge, &expected, &actual);
        let (_, risen) = self.set_reset(false);
        self.opening = [fallen, (expected, actual), risen];
    }

    /// One cycle on both sides; returns whether every output agreed and no assertion failed.
    #[inline]
    pub fn step(&mut self, input: &M::In) -> bool {
        self.step_out(input).0
    }

    /// One cycle on both sides; returns whether every output agreed and no assertion failed,
    /// and the model's outputs.
    #[inline]
    pub fn step_out(&mut self, input: &M::In) -> (bool, M::Out) {
        self.drive(&Step::from(*input))
    }

    /// One cycle with its reset activity (see [`Reset`]); returns whether every comparison of
    /// the cycle agreed and no assertion failed, and the model's outputs after the edge.
    #[inline]
    pub fn drive(&mut self, step: &Step<M::In>) -> (bool, M::Out) {
        let mut clean = true;
        let mut at_reset = [None, None];
        let mut change = |this: &mut Self, asserted: bool| {
            let (ok, outs) = this.set_reset(asserted);
            clean &= ok;
            let slot = usize::from(at_reset[0].is_some());
            at_reset[slot] = Some((asserted, outs));
        };
        for &asserted in step.reset.changes(self.held) {
            change(self, asserted);
        }
        self.held = step.reset == Reset::Hold;
        let expected = self.model.step(&step.input);
        let actual = self.rtl.step(&step.input);
        clean &= self.check(At::Edge, &expected, &actual);
        if let Some(record) = &mut self.record {
            record.push(Cycle { reset: step.reset, input: step.input, expected, actual, at_reset });
        }
        self.cycle += 1;
        (clean, expected)
    }

    /// Resets, drives `inputs` one per cycle, then idles (all-zero inputs, valid = 0) for the
    /// unit's latency so the last result reaches the outputs. Returns whether the whole run,
    /// opening reset included, agreed with no assertion failing.
    pub fn run(&mut self, inputs: &[M::In]) -> bool {
        self.reset();
        for input in inputs {
            self.step(input);
        }
        self.finish_run()
    }

    /// [`Lockstep::run`] over cycles that may pulse or hold the reset.
    pub fn run_steps(&mut self, steps: &[Step<M::In>]) -> bool {
        self.run_steps_with(steps, |_, _, _, _| {})
    }

    /// [`Lockstep::run_steps`] that shows `observe` each cycle driven (the case's, then the idle
    /// cycles of the drain: its index from 0 at the case's first step, and the step) with the
    /// model's outputs after its edge and the model itself: the functional coverage's hook
    /// ([`crate::engine::cover`]).
    ///
    /// Unless the run is recorded or [`Lockstep::cycle_by_cycle`], the model takes the whole run
    /// first and the RTL then takes it, each of its evaluations compared with the model's output
    /// of the same evaluation: the same comparisons as cycle-by-cycle [`Lockstep::drive`], with
    /// the same cycle numbers and in the same order, so the same mismatches and assertion
    /// failures. Neither side reads the other's outputs (the case is fixed before it runs), so
    /// the order of the sides cannot change what they compute; running each side's code back to
    /// back for a whole case instead of alternating every cycle keeps each side's code and branch
    /// history warm: on the 16-core machine image_addr's cosim/C++ rose from 0.47 to 0.53 and
    /// buffer_addr's from 0.53 to 0.55, on the 2-core machine the format units' by 0.03-0.06
    /// (docs/perf-history.md "Round 9").
    pub fn run_steps_with(
        &mut self,
        steps: &[Step<M::In>],
        mut observe: impl FnMut(usize, &Step<M::In>, &M::Out, &M),
    ) -> bool {
        let start = self.phases.is_some().then(Instant::now);
        self.reset();
        let idle = Step::default();
        // The case's cycles, then the drain: idle cycles for the latency.
        let cycles = steps.len() + M::LATENCY;
        if self.record.is_some() || !self.side_by_side {
            for i in 0..cycles {
                let step = steps.get(i).unwrap_or(&idle);
                let (_, out) = self.drive(step);
                observe(i, step, &out, &self.model);
            }
            if let (Some(phases), Some(start)) = (&mut self.phases, start) {
                phases.rtl += start.elapsed();
                phases.interleaved = true;
            }
            return self.clean();
        }
        let model_start = start.map(|_| Instant::now());
        // The model: every evaluation's outputs, in order (the reset changes before an edge,
        // then the edge).
        let mut expected = std::mem::take(&mut self.expected);
        expected.clear();
        let mut held = self.held;
        for i in 0..cycles {
            let step = steps.get(i).unwrap_or(&idle);
            for &asserted in step.reset.changes(held) {
                expected.push(self.model.set_reset(asserted));
            }
            held = step.reset == Reset::Hold;
            let out = self.model.step(&step.input);
            expected.push(out);
            observe(i, step, &out, &self.model);
        }
        let rtl_start = start.map(|_| Instant::now());
        // The RTL: the same evaluations, each compared with the model's.
        let mut k = 0;
        for i in 0..cycles {
            let step = steps.get(i).unwrap_or(&idle);
            for &asserted in step.reset.changes(self.held) {
                let actual = self.rtl.set_reset(asserted);
                self.check(At::reset_change(asserted), &expected[k], &actual);
                k += 1;
            }
            self.held = step.reset == Reset::Hold;
            let actual = self.rtl.step(&step.input);
            self.check(At::Edge, &expected[k], &actual);
            k += 1;
            self.cycle += 1;
        }
        self.expected = expected;
        if let (Some(phases), Some(start), Some(model_start), Some(rtl_start)) =
            (&mut self.phases, start, model_start, rtl_start)
        {
            phases.model += rtl_start - model_start;
            phases.rtl += (model_start - start) + rtl_start.elapsed();
        }
        self.clean()
    }

    fn finish_run(&mut self) -> bool {
        let idle = Step::default();
        for _ in 0..M::LATENCY {
            self.drive(&idle);
        }
        self.clean()
    }

    /// Cycles stepped since the last reset.
    pub fn cycles(&self) -> u64 {
        self.cycle
    }
}

/// Drives one cycle of `step` into a single unit (no comparison), with the reset semantics of
/// [`Lockstep::drive`]; `held` tracks whether rst_ni is low across edges. Returns the outputs
/// after the edge. For stimulus that reacts to the model's outputs.
pub fn drive_unit<U: Unit>(unit: &mut U, held: &mut bool, step: &Step<U::In>) -> U::Out {
    for &asserted in step.reset.changes(*held) {
        unit.set_reset(asserted);
    }
    *held = step.reset == Reset::Hold;
    unit.step(&step.input)
}

/// The index of the input that produced the outputs of `cycle`: a result appears LATENCY − 1
/// steps after its input (rust/unit.rs).
pub(crate) fn source_cycle(cycle: u64, latency: usize) -> Option<u64> {
    cycle.checked_sub(latency.saturating_sub(1) as u64)
}

/// The stable text trace of a recorded run: one line per cycle, inputs then outputs, in hex.
/// A cycle with reset activity is marked (`rst=pulse`, `rst=hold`); lines where the RTL differed
/// carry the RTL's values too.
pub fn trace<I: Ports, O: Ports>(record: &[Cycle<I, O>]) -> String {
    trace_with(record, I::render)
}

/// [`trace`] with the inputs of each cycle rendered by `render_input`.
pub(crate) fn trace_with<I: Ports, O: Ports>(record: &[Cycle<I, O>], render_input: impl Fn(&I) -> String) -> String {
    let mut text = String::new();
    for (n, c) in record.iter().enumerate() {
        let reset = match c.reset {
            Reset::None => String::new(),
            other => format!("rst={} ", other.name()),
        };
        text.push_str(&format!("{n:04} {reset}in: {} | out: {}", render_input(&c.input), c.expected.render()));
        if c.actual != c.expected {
            text.push_str(&format!(" | RTL: {}", c.actual.render()));
        }
        text.push('\n');
    }
    text
}
