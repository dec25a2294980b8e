//! gcn-vmem: bit- and cycle-accurate models of a GCN/RDNA vector-memory path, and the harness
//! that co-simulates them in lockstep against their Verilog RTL (SPEC.md).
//!
//! Layout: one name per unit everywhere — the model `rust/<unit>.rs` (module `gcn_vmem::<unit>`),
//! the RTL `rtl/<unit>.sv`, the binding `cosim/<unit>.{rs,h,cc}` (module
//! `gcn_vmem::cosim::<unit>`), the tests `tests/<unit>.rs`. The units are listed once, in
//! `cosim/units.txt`.

pub mod float;
pub mod format;
pub mod tsharp;
pub mod unit;
pub mod vsharp;

// `pub mod <unit>;` (rust/<unit>.rs, the models) for every unit of cosim/units.txt.
include!(concat!(env!("OUT_DIR"), "/models.rs"));

#[path = "../cosim/mod.rs"]
pub mod cosim;

/// The Verilator runtime version linked into this build (also keeps the runtime linked).
pub fn verilator_version() -> String {
    verilated::version()
}
