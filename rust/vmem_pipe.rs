//! `vmem_pipe`: the VMEM pipeline of SPEC §14 (SQ → TA → TCP → TD → SQ) for buffer instructions,
//! as a cycle-accurate model. Contract: docs/decisions.md "vmem_pipe (SPEC §14)".
//! RTL: rtl/vmem_pipe.sv  Binding: cosim/bindings/vmem_pipe.rs  Tests: tests/vmem_pipe.rs

pub mod ports;
