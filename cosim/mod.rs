//! The co-simulation harness: everything that is not a unit's model.
//!
//! - [`Binding`]: how a unit plugs in (its model type, its Verilated RTL type, its stimulus, its
//!   `eval` objects). One per unit, in `cosim/<unit>.rs`, listed in `cosim/units.txt`.
//! - [`lockstep`]: the generic driver that steps model and RTL together and compares every
//!   output every cycle.
//! - [`vectors`]: vector files and `eval` JSON (SPEC §11, §13).
//! - [`wave`]: the Rust-written waveform of expected against actual values.
//! - [`run`]: random runs with shrinking, failure artifacts and replay.

pub mod coverage;
pub mod lockstep;
pub mod run;
pub mod stimulus;
pub mod sweep;
pub mod vectors;
pub mod wave;

use std::path::PathBuf;

use proptest::strategy::BoxedStrategy;
use serde_json::{Map, Value};

use crate::unit::Unit;

pub use verilated::Wave;

/// Which RTL build to open and whether it dumps a waveform.
#[derive(Clone, Debug, Default)]
pub struct RtlOptions {
    /// The test-only broken variant (cosim/units.txt `mutant=`).
    pub mutant: bool,
    /// Dump a waveform of this format to this path.
    pub wave: Option<(Wave, PathBuf)>,
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
    type Model: Unit + Default + Send;
    type Rtl: RtlUnit<In = <Self::Model as Unit>::In, Out = <Self::Model as Unit>::Out>;

    /// Random inputs for one cycle (valid = 1), biased to the unit's corners.
    fn stimulus() -> BoxedStrategy<<Self::Model as Unit>::In>;
    /// A decoded view of the inputs for mismatch lines (e.g. the V# fields).
    fn describe(input: &<Self::Model as Unit>::In) -> String;
    /// The unit's `eval` output object (SPEC §13).
    fn eval_output(input: &<Self::Model as Unit>::In, out: &<Self::Model as Unit>::Out) -> Map<String, Value>;
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
        }

        // SAFETY: an `Rtl` owns its VerilatedContext and model exclusively (instances share no
        // state), so moving it to another thread is sound; it is not `Sync`.
        unsafe impl Send for Rtl {}

        impl $crate::unit::Unit for Rtl {
            const NAME: &'static str = <$model as $crate::unit::Unit>::NAME;
            const LATENCY: usize = <$model as $crate::unit::Unit>::LATENCY;
            type In = <$model as $crate::unit::Unit>::In;
            type Out = <$model as $crate::unit::Unit>::Out;

            fn reset(&mut self) {
                self.sim.pin_mut().reset();
            }

            #[inline]
            fn step(&mut self, input: &Self::In) -> Self::Out {
                self.sim.pin_mut().step(&ffi::PortsIn::from(input), &mut self.out);
                Self::Out::from(&self.out)
            }
        }

        impl $crate::cosim::RtlUnit for Rtl {
            fn open(options: &$crate::cosim::RtlOptions) -> anyhow::Result<Self> {
                let (wave, path) = options.wave_code();
                let sim = ffi::new_rtl(options.mutant, wave, &path)
                    .map_err(|e| anyhow::anyhow!("{} RTL: {}", <$model as $crate::unit::Unit>::NAME, e.what()))?;
                Ok(Rtl { sim, out: ffi::PortsOut::default() })
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
