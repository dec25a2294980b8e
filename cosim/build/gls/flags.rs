//! The Verilator flags of a netlist's gate-level build, beside the shared ones (`--assert`,
//! `--x-assign unique`, `--x-initial unique`). One file, a module of the build script's
//! gate-level builds (cosim/build/gls/) and of the test binary (tests/build_script.rs), so that
//! tests/gls.rs Verilates netlists as the build does.

/// Yosys's netlist: Verilator's lint is about its naming (unused `_15_` bits, signals it splits),
/// not the design, so its warnings are not fatal. `-fno-const-bit-op-tree`: Verilator 5.006's
/// bit-op-tree optimisation rewrites trees of single-bit gates wrongly (verilator/verilator
/// issue 4059, fixed after 5.008 by pull request 4070; later faults of the same optimisation,
/// such as issue 4709, were fixed in later releases): buffer_addr's gates fed from
/// registers, as the pipeline's TA feeds them, gave addresses with bit 47 lost
/// (docs/integrations/gls.md, "The cause"; tests/gls.rs checks it). Verilator's DFG optimisation
/// hides the fault in a unit's own build; the pipeline's is built without DFG
/// ([`LARGE_NETLIST_VERILATOR_FLAGS`]), where it showed.
pub const NETLIST_VERILATOR_FLAGS: &[&str] = &["-Wno-fatal", "-Wno-lint", "-Wno-style", "-fno-const-bit-op-tree"];

/// For a large netlist (the pipeline's): without Verilator's DFG optimisation it takes 6.6 GB of
/// memory to Verilate instead of 16.5 GB (7 min 5 s against 8 min 21 s, 3 % more C++).
pub const LARGE_NETLIST_VERILATOR_FLAGS: &[&str] = &["-fno-dfg"];
