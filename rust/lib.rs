//! gcn-vmem-model: bit- and cycle-accurate Rust models of the vector-memory (VMEM) path of a
//! GCN/RDNA-class GPU, written from the project's contract, `docs/spec.md` ("SPEC §n" in the
//! documentation of every module refers to its sections).
//!
//! This crate is the models alone: it needs no simulator, no C++ toolchain and no build script,
//! so an emulator or driver can depend on it directly. The co-simulation harness that runs each
//! model in lockstep against its Verilog RTL is the `gcn-vmem` crate at the repository root.
//!
//! Every unit is a [`unit::Unit`]: a clocked model with the RTL's ports (`In`/`Out` bundles),
//! latency and reset behaviour. Each also exposes its combinational function for direct use
//! (e.g. [`buffer_addr::compute`]). Layout: one name per unit everywhere — this crate's
//! `rust/<unit>.rs` (its coverage bins in `rust/<unit>/cover.rs`), the RTL `rtl/<unit>.sv`, the
//! binding `cosim/<unit>.{rs,h,cc}`, the tests `tests/<unit>.rs`; the units are listed once, in
//! `cosim/units.txt` (the harness's build script checks that every unit listed there is declared
//! below). The executor is `rust/exec.rs` with one file per concern under `rust/exec/`.
//!
//! ```
//! use gcn_vmem_model::buffer_addr::{self, ACCESS_NON_FORMAT};
//! use gcn_vmem_model::vsharp::VSharp;
//!
//! // A structured buffer: base 0x1000, 16-byte records, 8 records (SPEC §1.1, §2.4).
//! let vsharp = VSharp { base: 0x1000, stride: 16, num_records: 8, dfmt: 4, nfmt: 4, ..VSharp::default() };
//! let input = buffer_addr::In {
//!     valid: true,
//!     vsharp: vsharp.encode(),
//!     idxen: true,
//!     vgpr_index: 3,
//!     inst_offset: 4,
//!     access: ACCESS_NON_FORMAT,
//!     bytes: 4,
//!     ..Default::default()
//! };
//! let out = buffer_addr::compute(&input);
//! assert_eq!(out.address, 0x1000 + 3 * 16 + 4); // index * stride + offset (SPEC §2.3)
//! assert_eq!(out.in_range, 0b0001); // record 3 < num_records 8: the one dword is in range
//! ```

// Shared pieces: descriptor fields over bitvec, small-float conversions, SPEC §1.4's formats,
// the descriptors.
pub mod bits;
pub mod float;
pub mod format;
pub mod isa;
pub mod tsharp;
pub mod unit;
pub mod vsharp;

// The wave-level executor (SPEC §10) over the units.
pub mod exec;

// The cost model of seed 003 (SPEC §8).
pub mod cost;

// Functional coverage bins, declared by each unit next to its model.
pub mod cover;

// The units' `eval` objects (SPEC §13), each declared at the end of its unit's module.
#[cfg(feature = "json")]
pub mod eval;

// The units (cosim/units.txt lists them in their pipeline order).
pub mod buffer_addr;
pub mod coalescer;
pub mod d16;
pub mod format_pack;
pub mod format_unpack;
pub mod image_addr;
pub mod inline_const;
pub mod multi_texel;
pub mod swizzle;
pub mod vmem_pipe;
