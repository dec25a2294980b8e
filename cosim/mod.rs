//! The co-simulation harness: everything that is not a unit's model.
//!
//! - [`Binding`]: how a unit plugs in (its model type, its Verilated RTL type, its stimulus, its
//!   `eval` objects). One per unit, in `cosim/<unit>.rs`, listed in `cosim/units.txt`.
//! - [`lockstep`]: the generic driver that steps model and RTL together and compares every
//!   output every cycle.
//! - [`vectors`]: vector files and `eval` JSON (SPEC §11, §13).
//! - [`wave`]: the Rust-written waveform of expected against actual values, and its GTKWave
//!   save file; [`svg`]: the same run as a timing diagram around the first mismatch.
//! - [`run`]: random runs with shrinking, failure artifacts and replay; [`shrink`]: the generic
//!   shrinker they use; [`stimulus`]: the fast RNG the units draw their inputs from.
//! - [`cost`]: `gcn-vmem cost`, the JSON lines of the cost model (SPEC §13.2).
//! - [`exec`]: the executor's RTL and lockstep backends; [`program`]: `gcn-vmem exec` files.
//! - [`equiv`]: `gcn-vmem equiv`, formal equivalence of a unit's RTL against a git revision
//!   (Yosys), counterexamples as vector files.
//! - [`synth`]: `gcn-vmem synth`, every unit synthesized to generic gates (Yosys): cells, flops,
//!   logic levels, time; [`yosys`]: finding and running the Yosys both use.

pub mod cost;
pub mod cover;
pub mod coverage;
pub mod equiv;
pub mod exec;
pub mod exec_suite;
pub mod junit;
pub mod llvm;
pub mod lockstep;
pub mod mutants;
pub mod program;
pub mod run;
pub mod shrink;
pub mod stimulus;
pub mod svg;
pub mod sweep;
pub mod synth;
pub mod vectors;
pub mod wave;
pub mod yosys;

use std::path::PathBuf;

use proptest::strategy::{BoxedStrategy, Strategy as _};
use serde_json::{Map, Value};

use crate::cover::{Covered, Hits};
use crate::unit::Unit;

pub use verilated::Wave;

/// Which RTL of a unit a simulation runs (build.rs builds each).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Variant {
    /// rtl/<unit>.sv as written.
    #[default]
    AsWritten,
    /// The unit with its test-only `TestBreakAsserts` parameter set: its register inputs are
    /// corrupted so that each of its assertions fails on some input (untraced build only).
    BreakAsserts,
    /// The unit's test-only mutant (cosim/units.txt `mutant=Param`), a deliberate bug.
    Mutant,
}

impl Variant {
    /// The code the C++ side takes (the `case`s of the generated `<unit>_variants.h`).
    pub fn code(self) -> u8 {
        match self {
            Variant::AsWritten => 0,
            Variant::BreakAsserts => 1,
            Variant::Mutant => 2,
        }
    }
}

/// Which RTL build to open, whether it dumps a waveform, and how unknown values start.
#[derive(Clone, Debug, Default)]
pub struct RtlOptions {
    pub variant: Variant,
    /// Dump a waveform of this format to this path.
    pub wave: Option<(Wave, PathBuf)>,
    /// `Some(seed)`: every register's initial value and every X assignment of the RTL is random
    /// (Verilator's randReset(2), i.e. `+verilator+rand+reset+2`), drawn from `seed`; `None`:
    /// they read 0.
    pub x_seed: Option<u64>,
}

impl RtlOptions {
    /// The (kind, path) pair the C++ side takes: 0 none, 1 FST, 2 VCD.
    pub fn wave_code(&self) -> (u8, String) {
        match &self.wave {
            None => (0, String::new()),
            Some((Wave::Fst, p)) => (1, p.display().to_string()),
            Some((Wave::Vcd, p)) => (2, p.display().to_string()),
        }
    }
}

/// The Verilated side of a unit.
pub trait RtlUnit: Unit + Sized + Send {
    /// Opens a fresh simulation (own context). Fails when the variant was not built or the
    /// waveform file cannot be created.
    fn open(options: &RtlOptions) -> anyhow::Result<Self>;
    /// Whether an assertion of the RTL failed since the last [`RtlUnit::take_assertions`]
    /// (cheap: no call into C++).
    fn assertion_failed(&self) -> bool;
    /// The names of the assertions that failed since the last call, oldest first (as named in
    /// rtl/<unit>.sv: `VMEM_ASSERT(Name, …)`).
    fn take_assertions(&mut self) -> Vec<String>;
    /// Runs final blocks and flushes the waveform.
    fn finish(&mut self);
    /// Writes the coverage database of the context.
    fn write_coverage(&mut self, path: &str);
    /// Benchmark baseline: drives `inputs` `rounds` times from a plain C++ loop on a fresh
    /// untraced instance; returns the time the loop took.
    fn plain_loop(inputs: &[Self::In], rounds: u64) -> std::time::Duration;
}

/// How a unit plugs into the harness.
pub trait Binding: 'static {
    type Model: Unit + Covered + Default + Send;
    type Rtl: RtlUnit<In = <Self::Model as Unit>::In, Out = <Self::Model as Unit>::Out>;

    /// One random input (valid = 1), biased to the unit's corners, drawn straight from `rng`
    /// (no proptest value tree: see [`stimulus`]).
    fn generate(rng: &mut stimulus::Rng) -> <Self::Model as Unit>::In;

    /// [`Binding::generate`] as a proptest strategy, for property tests: each value is drawn
    /// from a seed (it shrinks as a seed, not as fields; the harness's own shrinker minimises
    /// failing cases field by field).
    fn stimulus() -> BoxedStrategy<<Self::Model as Unit>::In>
    where
        Self: Sized,
    {
        stimulus::from_rng(Self::generate).boxed()
    }
    /// A decoded view of the inputs for mismatch lines (e.g. the V# fields).
    fn describe(input: &<Self::Model as Unit>::In) -> String;
    /// The inputs of one cycle in report lines and traces. Default: every port
    /// ([`crate::unit::Ports::render`]); a unit with very wide inputs shortens it.
    fn render_input(input: &<Self::Model as Unit>::In) -> String {
        crate::unit::Ports::render(input)
    }
    /// The unit's `eval` output object (SPEC §13) from the outputs of [`Binding::eval_cycles`].
    /// Default: [`Binding::eval_output`] of the last outputs.
    fn eval_result(input: &<Self::Model as Unit>::In, outs: &[<Self::Model as Unit>::Out]) -> Map<String, Value> {
        Self::eval_output(input, &outs.last().copied().unwrap_or_default())
    }
    /// The `eval` output object (SPEC §13) of a unit with one result per input.
    fn eval_output(input: &<Self::Model as Unit>::In, out: &<Self::Model as Unit>::Out) -> Map<String, Value>;

    /// Parses one `eval` line (SPEC §13) into the unit's inputs; the error names the field.
    /// Default: the input ports by name, strictly.
    fn parse_eval(line: &str) -> Result<<Self::Model as Unit>::In, String> {
        vectors::parse_object(line, vectors::Strictness::Strict)
    }

    /// Drives one `eval` input through `unit` (model or RTL, from reset or from the end of the
    /// previous input) and returns the outputs its result spans. Default: the input, then idle
    /// cycles for the latency; the outputs of the last cycle.
    fn eval_cycles<U>(unit: &mut U, input: &<Self::Model as Unit>::In) -> Vec<<Self::Model as Unit>::Out>
    where
        U: Unit<In = <Self::Model as Unit>::In, Out = <Self::Model as Unit>::Out>,
    {
        let mut out = unit.step(input);
        let idle = <Self::Model as Unit>::In::default();
        for _ in 1..<Self::Model as Unit>::LATENCY {
            out = unit.step(&idle);
        }
        vec![out]
    }

    /// One random case (a sequence of cycles) drawn from `rng`. Default: independent cycles of
    /// [`Binding::generate`] ([`run::generate_cycles`]).
    fn generate_case(rng: &mut stimulus::Rng) -> Vec<lockstep::Step<<Self::Model as Unit>::In>>
    where
        Self: Sized,
    {
        run::generate_cycles::<Self>(rng)
    }

    /// Functional coverage of one cycle of a random case: `step` was driven and `out` is the
    /// model's outputs after its edge; `in_flight` carries what the pairing remembers. Default:
    /// results in input order ([`cover::fifo_cycle`]); a unit with a handshake overrides it.
    #[inline]
    fn cover_cycle(
        in_flight: &mut cover::InFlight<<Self::Model as Unit>::In, <Self::Model as Unit>::Out>,
        step: &lockstep::Step<<Self::Model as Unit>::In>,
        out: &<Self::Model as Unit>::Out,
        hits: &mut Hits,
    ) {
        cover::fifo_cycle::<Self::Model>(in_flight, step, out, hits);
    }

    /// [`Binding::generate_case`] as a proptest strategy (drawn from a seed), for property tests.
    fn case_strategy() -> BoxedStrategy<Vec<lockstep::Step<<Self::Model as Unit>::In>>>
    where
        Self: Sized,
    {
        stimulus::from_rng(Self::generate_case).boxed()
    }
}

/// The Rust side of a unit's Verilated RTL: `pub struct Rtl` over the bridge's `ffi::Rtl`,
/// implementing [`Unit`] and [`RtlUnit`] with the model's port bundles. Expects, in the calling
/// module, `mod ffi` (the unit's `#[cxx::bridge]` with `PortsIn`, `PortsOut`, `Rtl`, `new_rtl`,
/// `plain_loop`) and `From<&In> for ffi::PortsIn`, `From<&ffi::PortsOut> for Out`.
macro_rules! verilated_rtl {
    ($model:ty) => {
        /// The Verilated RTL of this unit; every instance has its own simulation context.
        pub struct Rtl {
            sim: cxx::UniquePtr<ffi::Rtl>,
            out: ffi::PortsOut,
            /// Assertion failures not yet taken, as the last call into the simulation reported.
            failed: u32,
        }

        // SAFETY: an `Rtl` owns its VerilatedContext and model exclusively (instances share no
        // state), so moving it to another thread is sound; it is not `Sync`.
        unsafe impl Send for Rtl {}

        impl $crate::unit::Unit for Rtl {
            const NAME: &'static str = <$model as $crate::unit::Unit>::NAME;
            const LATENCY: usize = <$model as $crate::unit::Unit>::LATENCY;
            type In = <$model as $crate::unit::Unit>::In;
            type Out = <$model as $crate::unit::Unit>::Out;

            fn set_reset(&mut self, asserted: bool) -> Self::Out {
                self.failed = self.sim.pin_mut().set_reset(asserted, &mut self.out);
                Self::Out::from(&self.out)
            }

            #[inline]
            fn step(&mut self, input: &Self::In) -> Self::Out {
                self.failed = self.sim.pin_mut().step(&ffi::PortsIn::from(input), &mut self.out);
                Self::Out::from(&self.out)
            }
        }

        impl $crate::cosim::RtlUnit for Rtl {
            fn open(options: &$crate::cosim::RtlOptions) -> anyhow::Result<Self> {
                let (wave, path) = options.wave_code();
                let sim = ffi::new_rtl(
                    options.variant.code(),
                    wave,
                    &path,
                    options.x_seed.is_some(),
                    options.x_seed.unwrap_or(0),
                )
                .map_err(|e| anyhow::anyhow!("{} RTL: {}", <$model as $crate::unit::Unit>::NAME, e.what()))?;
                Ok(Rtl { sim, out: ffi::PortsOut::default(), failed: 0 })
            }

            #[inline]
            fn assertion_failed(&self) -> bool {
                self.failed != 0
            }

            fn take_assertions(&mut self) -> Vec<String> {
                self.failed = 0;
                self.sim.pin_mut().take_assertions()
            }

            fn finish(&mut self) {
                self.sim.pin_mut().finish();
            }

            fn write_coverage(&mut self, path: &str) {
                self.sim.pin_mut().write_coverage(path);
            }

            fn plain_loop(inputs: &[Self::In], rounds: u64) -> std::time::Duration {
                let ports: Vec<ffi::PortsIn> = inputs.iter().map(ffi::PortsIn::from).collect();
                std::time::Duration::from_nanos(ffi::plain_loop(&ports, rounds))
            }
        }
    };
}

// `pub mod <unit>;` (cosim/<unit>.rs) for every unit of cosim/units.txt; each defines
// `pub struct Harness: Binding`.
include!(concat!(env!("OUT_DIR"), "/bindings.rs"));

/// Something to do with one unit's binding; see [`with_unit`].
pub trait Visit {
    type Output;
    fn visit<B: Binding>(self) -> Self::Output;
}

// The name -> binding dispatch over cosim/units.txt.
macro_rules! units {
    ($($unit:ident),* $(,)?) => {
        /// Every unit of cosim/units.txt, in its order.
        pub const UNITS: &[&str] = &[$(stringify!($unit)),*];

        /// Runs `visitor` on the binding of the unit called `name`; `None` for an unknown name.
        pub fn with_unit<V: Visit>(name: &str, visitor: V) -> Option<V::Output> {
            $(
                if name == stringify!($unit) {
                    return Some(visitor.visit::<$unit::Harness>());
                }
            )*
            None
        }
    };
}

include!(concat!(env!("OUT_DIR"), "/units.rs"));

/// An error for an unknown unit name that lists the known ones.
pub fn unknown_unit(name: &str) -> anyhow::Error {
    anyhow::anyhow!("unknown unit `{name}`; the units are: {}", UNITS.join(", "))
}
