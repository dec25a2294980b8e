//! The wave-level executor (SPEC §10): whole buffer instructions on a wave's state, the per-lane
//! work done by the units through a [`Backend`].
//!
//! Spec: docs/spec.md §10, §10.1, §2–§6  Tests: rust/tests/exec.rs
//!
//! This module holds the wave's state ([`Wave`]: SGPRs, 256 VGPRs × 64 lanes, EXEC, M0, the LDS
//! allocation and bytes, a sparse memory), the buffer instructions in executor terms
//! ([`BufferInst`]), and their semantics. An instruction runs in three steps, so that every
//! address and data VGPR is read before any result is written:
//! 1. every active lane's unit inputs are gathered from the state,
//! 2. the units compute, all lanes of one unit in one batch ([`Backend`]: the Rust models here;
//!    the harness crate plugs in the Verilated RTL, or both in lockstep),
//! 3. the results are applied lane by lane in ascending order (the highest lane wins where
//!    stores overlap; atomics are serialised in lane order).
//!
//! Inactive lanes are untouched. An instruction that SPEC names illegal (§2.5: LDS with TFE or
//! with another opcode) is an [`ExecError`] and nothing of it is applied.
//!
//! Layout, one concern a file under `rust/exec/`: `state.rs` (the wave: registers, LDS, memory),
//! `error.rs` ([`ExecError`]), `backend.rs` ([`Backend`], [`pipeline`], [`Models`]), `buffer.rs`
//! (MUBUF/MTBUF: [`run_buffer`]), `image.rs` (MIMG: [`run_image`]), `atomics.rs` (§10.1's
//! operations), `lower.rs` (decoded instructions to these terms), and `image_vaddr.rs` (SPEC §4.1's address
//! VGPRs, [`decode_vaddr`]); SPEC §4.3's instruction-level check of multi-texel loads and §4.5's
//! sw_mode check are the unit's (`crate::image_addr::check_multi_texel`, `check_sw_mode`), and
//! every image address (linear or tiled) and level size is the `image_addr` unit's, through the
//! backend. Every public item is re-exported here, so its
//! path is `gcn_vmem_model::exec::<item>`; [`run`] is the entry point for a decoded instruction. With the crate's `json`
//! feature, `document.rs` is `exec::document`: SPEC §13.1's exec documents as JSON, parsed, run
//! and answered.

mod atomics;
mod backend;
mod buffer;
#[cfg(feature = "json")]
pub mod document;
mod error;
mod image;
mod image_vaddr;
mod lower;
mod state;

pub use atomics::atomic_result;
// The operation of an atomic: the decoded instruction's.
pub use crate::isa::AtomicOp;
pub use backend::{pipeline, Backend, Models};
pub use buffer::{lane_addresses, run_buffer, Access, BufferInst, BufferKind, D16};
pub use error::ExecError;
pub use image::{run_image, ImageInst, ImageKind};
pub use image_vaddr::{decode_vaddr, Coords};
pub use lower::{lower_buffer, lower_image};
pub use state::{Lds, Memory, Wave, LANES, VGPRS};

/// Runs one decoded instruction on `wave`. On error nothing is applied. `s_waitcnt` does nothing
/// here: every instruction completes before the next (SPEC §14.1; the pipeline of §14 waits on it).
pub fn run(wave: &mut Wave, inst: &crate::isa::Instruction, backend: &mut impl Backend) -> Result<(), ExecError> {
    match inst {
        crate::isa::Instruction::Mimg(m) => run_image(wave, &lower_image(m)?, backend),
        crate::isa::Instruction::Waitcnt(_) => Ok(()),
        _ => match lower_buffer(inst)? {
            Some(b) => run_buffer(wave, &b, backend),
            None => Ok(()),
        },
    }
}
