//! What a unit's binding (cosim/bindings/<unit>.rs) takes from the engine, in one import:
//! `use crate::engine::prelude::*;`. The trait it implements ([`Binding`]), the cycle it builds
//! cases from ([`Step`], [`Reset`]), the case shapes ([`generate_cycles`], [`generate_runs`],
//! [`case_inputs`], [`reset_activity`]), the RNG and the draws the bindings share
//! ([`crate::engine::stimulus`]), the weighted-choice macros, the pairing state of a unit with a
//! handshake ([`InFlight`], [`drive_unit`]) and the parsing of `eval` objects.

pub use crate::engine::case::{case_inputs, generate_cycles, generate_cycles_with, generate_runs, reset_activity};
pub use crate::engine::cover::InFlight;
pub use crate::engine::lockstep::{drive_unit, Reset, Step};
pub use crate::engine::stimulus::{
    data_dword, f32_of, from_words, read_dwords, row_dmask, scaled, words, Rng, DFMT_NAMES, NFMT_NAMES,
};
pub use crate::engine::vectors::{parse_map, parse_value, Strictness};
pub use crate::engine::Binding;
pub use crate::{one_of, pick, pick_at};
