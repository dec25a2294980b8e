//! gcn-vmem: the co-simulation harness. It runs every model of the `gcn-vmem-model` crate
//! (rust/) in lockstep against the unit's Verilated RTL (rtl/) and compares every output every
//! cycle (docs/spec.md §11).
//!
//! The models are re-exported at this crate's root (`gcn_vmem::buffer_addr` is
//! `gcn_vmem_model::buffer_addr`), so tests and tools name a unit the same way in both crates;
//! the harness itself is [`cosim`]. This crate needs Verilator 5 and a C++ compiler (build.rs);
//! a project that wants only the models depends on `gcn-vmem-model`.

pub use gcn_vmem_model::*;

#[path = "mod.rs"]
pub mod cosim;

/// The Verilator runtime version linked into this build (also keeps the runtime linked).
pub fn verilator_version() -> String {
    verilated::version()
}
