//! gcn-vmem: the co-simulation harness. It runs every model of the `gcn-vmem-model` crate
//! (rust/, re-exported here as [`model`]) in lockstep against the unit's Verilated RTL (rtl/)
//! and compares every output every cycle (docs/spec.md §11).
//!
//! - [`engine`]: how a unit plugs in ([`engine::Binding`]), the one bridge to the Verilated RTL,
//!   the lockstep driver, random runs, shrinking, the RNG, vector files.
//! - [`bindings`]: one binding per unit of cosim/units.txt (`bindings::swizzle` is the harness's
//!   side of `model::swizzle`).
//! - [`report`]: waveforms, SVG pictures, JUnit, functional and Verilator coverage reports.
//! - [`exec`]: whole instructions: the executor's RTL and lockstep backends, the random program
//!   suite, `gcn-vmem exec` files, the cost model's JSON lines.
//! - [`tools`]: drivers of other tools: Yosys (synth, equiv), mutation testing, llvm-mc.
//! - [`unit_list`]: the reader of cosim/units.txt, shared with the build scripts.
//!
//! This crate needs Verilator 5 and a C++ compiler (build.rs); a project that wants only the
//! models depends on `gcn-vmem-model`.

pub use gcn_vmem_model as model;

pub mod actions;
pub mod bindings;
pub mod engine;
pub mod exec;
pub mod report;
pub mod tools;
pub mod unit_list;

/// The Verilator runtime version linked into this build (also keeps the runtime linked).
pub fn verilator_version() -> String {
    verilated::version()
}
