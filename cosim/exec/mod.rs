//! Whole instructions through the units: the executor's RTL and lockstep backends
//! ([`backends`]), the random program suite of `make cosim` ([`suite`]), the suites' chunks on
//! threads ([`chunks`]), `gcn-vmem exec` program files ([`program`]), the VMEM pipeline's
//! testbench ([`pipeline`], SPEC §14) and the cost model's JSON lines ([`cost`], SPEC §13.2).

pub mod backends;
pub mod chunks;
pub mod cost;
pub mod pipe_programs;
pub mod pipe_suite;
pub mod pipeline;
pub mod program;
pub mod suite;
