//! The executor's RTL backends (SPEC §10, §13.1 `--rtl` / `--both`): [`exec::Backend`] on the
//! Verilated units, alone ([`RtlBackend`]) or in lockstep with the models ([`LockstepBackend`]).
//!
//! Spec: docs/spec.md §10, §11, §13.1  Tests: tests/exec_backends.rs
//!
//! The executor (`gcn_vmem::exec`, the model crate) hands a backend one batch of lane inputs per
//! unit and call and expects one output per input, in input order; the trait returns plain
//! `Vec`s, so these backends cannot fail a call. A batch that goes wrong on the RTL is recorded
//! instead, as an [`ExecFailure`], and the caller asks for them with
//! [`CheckedBackend::take_failures`] after each instruction (an empty list: every batch since the
//! last call was clean). The outputs of a failing batch are still returned — the model's from
//! [`LockstepBackend`], the RTL's from [`RtlBackend`] — so the caller decides what to do.
//!
//! A failure is saved exactly as a failing random case of `make cosim` is (docs/checks.md "When a
//! vector fails"): the batch's inputs, one valid input per cycle, become the unit's vector file
//! `<artifacts>/<unit>/exec-<hash>.jsonl` (`hash`: FNV-1a of its text, so an identical batch
//! reuses the file), which is then replayed from reset on model and RTL of the same RTL build with
//! both waveforms: `exec-<hash>.fst` (or `.vcd`, [`FailureLog::wave`]) by Verilator and
//! `exec-<hash>.diff.vcd` by the harness. `make wave UNIT=<unit> VECTOR=<file>` (the repro of the
//! failure's line) regenerates them. The batch is not shrunk: a unit's output depends on its own
//! input only, so the line's `in@k` and [`ExecFailure::lane_index`] already name the input.
//!
//! [`exec::Backend`]: gcn_vmem_model::exec::Backend

use std::fmt;
use std::path::PathBuf;

use crate::engine::artifacts::default_artifacts;
use crate::engine::lockstep::{source_cycle, AssertionFailure, At, Lockstep, Mismatch, Step};
use crate::engine::replay;
use crate::engine::vectors;
use crate::engine::RtlOptions;
use crate::engine::RtlUnit;
use crate::engine::Wave;
use crate::engine::{Binding, UnitTypes};
use gcn_vmem_model::exec::{pipeline, Backend, Models};
use gcn_vmem_model::unit::{valid_of, Ports, Unit};

type In<B> = <<B as UnitTypes>::Model as Unit>::In;
type Out<B> = <<B as UnitTypes>::Model as Unit>::Out;

/// One batch that went wrong on the RTL: the first thing that did, and where its files are.
#[derive(Clone, Debug)]
pub struct ExecFailure {
    /// The unit, as in cosim/units.txt.
    pub unit: &'static str,
    /// Index in the batch (the executor's list of active lanes for that unit call) of the input
    /// whose result differed or whose values the assertion sampled; 0 for a comparison at the
    /// opening reset, which no input produced (the line says `in: none (the opening reset)`).
    pub lane_index: usize,
    /// The output that differed (its §13 name, e.g. `address`) or, for an RTL assertion, the
    /// assertion's name (e.g. `InRangePrefix_A`).
    pub signal: String,
    /// The one-line report: `MISMATCH <unit> cycle=… signal=… expected(model)=… actual(rtl)=… |
    /// in@k: … | repro: make wave UNIT=… VECTOR=…` or `ASSERTION <unit> cycle=… assertion=… | … |
    /// repro: …`, cycles counted in the vector file (cycle 0 is the batch's first input).
    pub line: String,
    /// The batch as the unit's vector file (written unless `note` says it could not be).
    pub vector_file: PathBuf,
    /// The RTL's waveform of the replay (FST or VCD), when written.
    pub rtl_wave: Option<PathBuf>,
    /// The Rust-written expected/actual waveform of the replay, when written.
    pub diff_wave: Option<PathBuf>,
    /// Anything that went differently: a file that could not be written, or a replay from reset
    /// that did not fail (possible for [`RtlBackend`], which does not reset between batches).
    pub note: Option<String>,
}

impl fmt::Display for ExecFailure {
    /// The line, then the files, one per line (indented), as `make cosim` prints a failure.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\n  saved {}", self.line, self.vector_file.display())?;
        if let Some(w) = &self.rtl_wave {
            write!(f, "\n  RTL waveform {}", w.display())?;
        }
        if let Some(w) = &self.diff_wave {
            write!(f, "\n  diff waveform {}", w.display())?;
        }
        if let Some(n) = &self.note {
            write!(f, "\n  note: {n}")?;
        }
        Ok(())
    }
}

/// A [`Backend`] that can report what went wrong in its batches since the last call.
pub trait CheckedBackend: Backend {
    /// The failures recorded since the last call, oldest first, at most one per batch; empty
    /// when every batch was clean.
    fn take_failures(&mut self) -> Vec<ExecFailure>;
}

/// The models never fail.
impl CheckedBackend for Models {
    fn take_failures(&mut self) -> Vec<ExecFailure> {
        Vec::new()
    }
}

/// Which RTL build each unit's instance opens (all `RtlOptions::default()` unless set): e.g.
/// `UnitOptions { buffer_addr: RtlOptions { variant: Variant::Mutant, .. }, ..Default::default() }`.
/// A unit's `wave` traces every batch of that instance into one file, closed when the backend is
/// dropped (failures get their own waveforms regardless); its variant and X seed are also those
/// of a failure's replay and repro.
#[derive(Clone, Debug, Default)]
pub struct UnitOptions {
    pub buffer_addr: RtlOptions,
    pub format_unpack: RtlOptions,
    pub format_pack: RtlOptions,
    pub swizzle: RtlOptions,
    pub d16: RtlOptions,
    pub image_addr: RtlOptions,
    pub multi_texel: RtlOptions,
}

impl UnitOptions {
    /// The same options for every unit (without a `wave`: the seven instances would trace into
    /// one file).
    pub fn all(options: RtlOptions) -> Self {
        UnitOptions {
            buffer_addr: options.clone(),
            format_unpack: options.clone(),
            format_pack: options.clone(),
            swizzle: options.clone(),
            d16: options.clone(),
            image_addr: options.clone(),
            multi_texel: options,
        }
    }
}

/// Declares a backend of one `slot` per unit (the units of [`Backend`]) and a [`FailureLog`]:
/// the struct, its `open`/`open_with`, its [`Backend`] (each batch through the log's `batch`
/// method) and its [`CheckedBackend`].
macro_rules! slot_backend {
    ($(#[$meta:meta])* pub struct $name:ident { slot: $slot:ident, batch: FailureLog::$batch:ident }) => {
        slot_backend!(@units $(#[$meta])* $name $slot $batch
            [buffer_addr format_unpack format_pack swizzle d16 image_addr multi_texel]);
    };
    (@units $(#[$meta:meta])* $name:ident $slot:ident $batch:ident [$($unit:ident)*]) => {
        $(#[$meta])*
        pub struct $name {
            pub log: FailureLog,
            $($unit: $slot<crate::bindings::$unit::Harness>,)*
        }

        impl $name {
            /// Every unit's RTL as written (`RtlOptions::default()`).
            pub fn open() -> anyhow::Result<Self> {
                Self::open_with(&UnitOptions::default())
            }

            /// Every unit's RTL as `options` says (e.g. buffer_addr's test-only mutant). Fails
            /// when a build does not exist (e.g. a mutant of a unit that has none) or a waveform
            /// file cannot be created.
            pub fn open_with(options: &UnitOptions) -> anyhow::Result<Self> {
                Ok($name { log: FailureLog::default(), $($unit: $slot::open(&options.$unit)?,)* })
            }
        }

        gcn_vmem_model::impl_backend_per_unit!($name, |log, unit, inputs| log.$batch(unit, inputs));

        impl CheckedBackend for $name {
            fn take_failures(&mut self) -> Vec<ExecFailure> {
                std::mem::take(&mut self.log.failures)
            }
        }
    };
}

/// Where a backend saves failing batches, and what it has recorded.
#[derive(Clone, Debug)]
pub struct FailureLog {
    /// Root of the failure files (`<artifacts>/<unit>/exec-<hash>.*`); [`default_artifacts`]
    /// unless changed.
    pub artifacts: PathBuf,
    /// Format of the RTL waveform of a failure's replay (FST unless changed).
    pub wave: Wave,
    /// Recorded and not yet taken ([`CheckedBackend::take_failures`]).
    pub failures: Vec<ExecFailure>,
    /// Lockstep cycles the unit batches took (reset, inputs and drain), and the time they took:
    /// the benchmark's measure of what the executor's own glue adds.
    pub unit_cycles: u64,
    pub unit_time: std::time::Duration,
}

impl Default for FailureLog {
    fn default() -> Self {
        FailureLog {
            artifacts: default_artifacts(),
            wave: Wave::Fst,
            failures: Vec::new(),
            unit_cycles: 0,
            unit_time: std::time::Duration::ZERO,
        }
    }
}

slot_backend! {
    /// The Verilated RTL of every unit as the backend: one instance per unit, opened once and reset
    /// once. Each batch is driven back to back with
    /// [`exec::pipeline`](gcn_vmem_model::exec::pipeline), then one more idle edge, so that
    /// assertions on the last result's output registers are evaluated (a concurrent assertion
    /// samples the values from before the edge that evaluates it). The RTL is not reset between
    /// batches.
    ///
    /// An RTL assertion failure during a batch is an error: the batch's first one (lowest input
    /// index) is recorded in [`RtlBackend::log`] as an [`ExecFailure`] whose `signal` is the
    /// assertion's name, its files written as the module documentation says; the RTL's outputs are
    /// returned regardless. (Without the model nothing else can be checked.)
    pub struct RtlBackend { slot: RtlSlot, batch: FailureLog::rtl }
}

slot_backend! {
    /// Models and RTL of every unit in lockstep as the backend; returns the models' outputs.
    ///
    /// One [`Lockstep`] per unit, opened once. Every batch runs as its own lockstep run, exactly as
    /// [`Lockstep::run`] and the replay of its vector file do: the opening reset (compared), the
    /// inputs back to back (one per cycle), then the unit's latency of idle cycles, every output
    /// compared every cycle and every RTL assertion checked. Resetting per batch makes each batch
    /// reproducible from its own vector file, cycle for cycle: the failure's line is the line its
    /// replay prints.
    ///
    /// A batch with a mismatch or a failed assertion is recorded in [`LockstepBackend::log`] as one
    /// [`ExecFailure`]: the event with the lowest input index (a mismatch before an assertion on
    /// the same input), its files written as the module documentation says.
    pub struct LockstepBackend { slot: LockstepSlot, batch: FailureLog::lockstep }
}

/// One unit's RTL instance and the options it was opened with.
struct RtlSlot<B: Binding> {
    rtl: B::Rtl,
    options: RtlOptions,
}

impl<B: Binding> RtlSlot<B> {
    fn open(options: &RtlOptions) -> anyhow::Result<Self> {
        let mut rtl = B::Rtl::open(options)?;
        rtl.reset();
        Ok(RtlSlot { rtl, options: options.clone() })
    }
}

/// One unit's model and RTL in lockstep, and the options the RTL was opened with.
struct LockstepSlot<B: Binding> {
    lockstep: Lockstep<B::Model, B::Rtl>,
    options: RtlOptions,
}

impl<B: Binding> LockstepSlot<B> {
    fn open(options: &RtlOptions) -> anyhow::Result<Self> {
        let mut lockstep = Lockstep::new(B::Model::default(), B::Rtl::open(options)?);
        lockstep.reset();
        Ok(LockstepSlot { lockstep, options: options.clone() })
    }
}

/// An RTL instance that notes every assertion failure with the step that reported it, counted
/// from 0 at the batch's first input (the cycle numbers of the batch's vector file).
struct Watched<'a, R> {
    rtl: &'a mut R,
    cycle: u64,
    assertions: Vec<AssertionFailure>,
}

impl<R: RtlUnit> Unit for Watched<'_, R> {
    const NAME: &'static str = R::NAME;
    const LATENCY: usize = R::LATENCY;
    type In = R::In;
    type Out = R::Out;

    fn set_reset(&mut self, asserted: bool) -> R::Out {
        self.rtl.set_reset(asserted)
    }

    fn step(&mut self, input: &R::In) -> R::Out {
        let out = self.rtl.step(input);
        if self.rtl.assertion_failed() {
            let cycle = self.cycle;
            let failed = self.rtl.take_assertions().into_iter();
            self.assertions.extend(failed.map(|name| AssertionFailure { cycle, at: At::Edge, name }));
        }
        self.cycle += 1;
        out
    }
}

/// What a failing batch is reported by.
enum Event<'a> {
    Mismatch(&'a Mismatch),
    Assertion(&'a AssertionFailure),
}

impl FailureLog {
    /// [`RtlBackend`]'s batch: see there.
    fn rtl<B: Binding>(&mut self, slot: &mut RtlSlot<B>, inputs: &[In<B>]) -> Vec<Out<B>> {
        if inputs.is_empty() {
            return Vec::new();
        }
        let mut watched = Watched { rtl: &mut slot.rtl, cycle: 0, assertions: Vec::new() };
        let outputs = pipeline(&mut watched, inputs);
        watched.step(&In::<B>::default());
        let assertions = watched.assertions;
        // Lanes grow with cycles: the first failure is the lowest lane's.
        if let Some(a) = assertions.first() {
            let failure = self.save::<B>(inputs, &slot.options, Event::Assertion(a));
            self.failures.push(failure);
        }
        outputs
    }

    /// [`LockstepBackend`]'s batch: see there.
    fn lockstep<B: Binding>(&mut self, slot: &mut LockstepSlot<B>, inputs: &[In<B>]) -> Vec<Out<B>> {
        if inputs.is_empty() {
            return Vec::new();
        }
        let latency = <B::Model as Unit>::LATENCY;
        let started = std::time::Instant::now();
        let l = &mut slot.lockstep;
        l.reset();
        let idle = In::<B>::default();
        let mut outputs = Vec::with_capacity(inputs.len());
        for (n, input) in inputs.iter().chain(std::iter::repeat_n(&idle, latency)).enumerate() {
            let (_, out) = l.step_out(input);
            if n + 1 >= latency && outputs.len() < inputs.len() {
                outputs.push(out);
            }
        }
        self.unit_time += started.elapsed();
        self.unit_cycles += l.cycles();
        if !l.clean() {
            // Lanes grow with cycles: the first of each kind is its lowest lane's; on a tie the
            // mismatch (it comes first in the list) is reported.
            let mismatch = l.mismatches.first().map(|m| (mismatch_lane::<B>(m, inputs), Event::Mismatch(m)));
            let assertion = l.assertions.first().map(|a| (assertion_lane::<B>(a, inputs), Event::Assertion(a)));
            if let Some((_, event)) = mismatch.into_iter().chain(assertion).min_by_key(|(lane, _)| *lane) {
                let failure = self.save::<B>(inputs, &slot.options, event);
                self.failures.push(failure);
            }
        }
        outputs
    }

    /// Saves the batch as the unit's vector file, replays it with both waveforms on the build
    /// `options` names, and describes `event`.
    fn save<B: Binding>(&self, inputs: &[In<B>], options: &RtlOptions, event: Event<'_>) -> ExecFailure {
        let unit = <B::Model as Unit>::NAME;
        let steps: Vec<Step<In<B>>> = inputs.iter().map(|&input| Step::from(input)).collect();
        let text = vectors::to_text(&steps);
        let dir = self.artifacts.join(unit);
        let id = format!("exec-{:016x}", crate::engine::stimulus::hash(text.as_bytes()));
        let vector_file = dir.join(format!("{id}.jsonl"));
        let options = RtlOptions { wave: None, ..options.clone() };
        let repro = replay::repro_command(unit, &vector_file, &options);
        let (lane_index, signal, line) = match event {
            Event::Mismatch(m) => (
                mismatch_lane::<B>(m, inputs),
                <Out<B> as Ports>::SIGNALS[m.signal].name.to_string(),
                replay::mismatch_line::<B>(m, &steps, &repro),
            ),
            Event::Assertion(a) => {
                (assertion_lane::<B>(a, inputs), a.name.clone(), replay::assertion_line::<B>(a, &steps, &repro))
            }
        };
        let mut failure =
            ExecFailure { unit, lane_index, signal, line, vector_file, rtl_wave: None, diff_wave: None, note: None };
        if let Err(e) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&failure.vector_file, &text)) {
            failure.note = Some(format!("cannot write {}: {e}", failure.vector_file.display()));
            return failure;
        }
        let wave_file = dir.join(format!("{id}.{}", self.wave.extension()));
        let mut notes = Vec::new();
        match replay::replay::<B>(&steps, &options, Some(&failure.vector_file), Some(&wave_file)) {
            Ok(replay) => {
                failure.rtl_wave = replay.rtl_wave;
                failure.diff_wave = replay.diff_wave;
                notes.extend(replay.wave_error.map(|e| format!("waveform not written: {e}")));
                if replay.lines.is_empty() {
                    notes.push("the replay from reset does not fail (state left by earlier batches?)".to_string());
                }
            }
            Err(e) => notes.push(format!("replay failed: {e:#}")),
        }
        failure.note = (!notes.is_empty()).then(|| notes.join("; "));
        failure
    }
}

/// The batch index of the input behind the values of cycle `source` (`None`: the opening reset,
/// index 0): past the batch the data registers hold the last input's result, and an invalid
/// input leaves the previous valid one's in place.
fn lane_of<P: Ports>(source: Option<u64>, inputs: &[P]) -> usize {
    let Some(cycle) = source else { return 0 };
    let last = usize::try_from(cycle).unwrap_or(usize::MAX).min(inputs.len() - 1);
    (0..=last).rev().find(|&k| valid_of(&inputs[k])).unwrap_or(last)
}

/// The input behind a mismatch: its result appears LATENCY − 1 steps after it.
fn mismatch_lane<B: Binding>(m: &Mismatch, inputs: &[In<B>]) -> usize {
    lane_of(source_cycle(m.cycle, <B::Model as Unit>::LATENCY), inputs)
}

/// The input behind an assertion failure: the assertion evaluated at cycle c's edge sampled the
/// values from before it, i.e. cycle c − 1's outputs; one on a register inside the pipeline can
/// sample a younger input (then the last input before the edge), as `replay::assertion_line` says.
fn assertion_lane<B: Binding>(a: &AssertionFailure, inputs: &[In<B>]) -> usize {
    let sampled = a.cycle.saturating_sub(1);
    lane_of(source_cycle(sampled, <B::Model as Unit>::LATENCY).or(Some(sampled)), inputs)
}
