//! The build script's modules that run without Verilator, compiled here for their tests: the
//! reader of a unit's port list (cosim/build/port_list.rs, tried on malformed and unusual port
//! lists) and the Verilator flags of the gate-level builds (cosim/build/gls/flags.rs, which
//! tests/gls.rs Verilates a netlist with).

#[path = "../cosim/build/port_list.rs"]
mod port_list;

#[path = "../cosim/build/gls/flags.rs"]
pub mod gls_flags;
