//! What a unit's binding (cosim/bindings/<unit>.rs) takes from the engine, in one import:
//! `use crate::engine::prelude::*;`. The trait it implements ([`Binding`]), the cycle it builds
//! cases from ([`Step`], [`Reset`]), the case shapes ([`generate_runs`],
//! [`case_inputs`], [`reset_activity`]), the RNG and the draws the bindings share
//! ([`crate::engine::stimulus`]), the weighted-choice macros, the pairing state of a unit with a
//! handshake ([`InFlight`], [`drive_unit`]).

pub(crate) use crate::engine::case::{case_inputs, generate_runs, reset_activity};
pub(crate) use crate::engine::cover::InFlight;
pub(crate) use crate::engine::lockstep::{drive_unit, Reset, Step};
pub(crate) use crate::engine::stimulus::{
    data_dword, f32_of, from_words, read_dwords, row_dmask, scaled, Rng, DFMT_NAMES, NFMT_NAMES,
};
pub(crate) use crate::engine::Binding;
pub(crate) use crate::{one_of, pick, pick_at};
