//! Whole instructions through the units: the executor's RTL and lockstep backends
//! ([`backends`]), the random program suite of `make cosim` ([`suite`]) and `gcn-vmem exec`
//! program files ([`program`], on the executor or on the VMEM pipeline's testbench,
//! [`crate::bindings::vmem_pipe::testbench`]).

pub mod backends;
pub mod program;
pub mod suite;
