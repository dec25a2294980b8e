//! `format_pack` in the harness: the cxx binding of the Verilated RTL (rtl/format_pack.sv), its
//! random stimulus and its `eval` objects (SPEC §13).
//! Model: rust/format_pack.rs  RTL: rtl/format_pack.sv  Tests: tests/format_pack.rs  Spec: docs/spec.md §5

use serde_json::{json, Map, Value};

use super::stimulus::{f32_bits, from_words, words, Rng, DFMT_NAMES, NFMT_NAMES};
use super::Binding;
use crate::one_of;
use crate::format_pack::{FormatPack, In, Out};

#[cxx::bridge(namespace = "cosim::format_pack")]
mod ffi {
    // Shared structs: the RTL ports as plain integers, named like the ports without _i/_o.
    #[derive(Clone, Copy, Debug, Default)]
    struct PortsIn {
        valid: bool,
        dfmt: u8,
        nfmt: u8,
        components: [u32; 4],
    }

    #[derive(Clone, Copy, Debug, Default)]
    struct PortsOut {
        valid: bool,
        data: [u32; 4],
        fmt_valid: bool,
    }

    // C++ exposed to Rust: cosim/format_pack.h states each function's contract.
    unsafe extern "C++" {
        include!("gcn-vmem/cosim/format_pack.h");

        type Rtl;

        fn new_rtl(variant: u8, wave: u8, path: &str, x_random: bool, x_seed: u64) -> Result<UniquePtr<Rtl>>;
        fn set_reset(self: Pin<&mut Rtl>, asserted: bool, output: &mut PortsOut) -> u32;
        fn step(self: Pin<&mut Rtl>, input: &PortsIn, output: &mut PortsOut) -> u32;
        fn take_assertions(self: Pin<&mut Rtl>) -> Vec<String>;
        fn finish(self: Pin<&mut Rtl>);
        fn write_coverage(self: Pin<&mut Rtl>, path: &str);
        fn plain_loop(inputs: &[PortsIn], rounds: u64) -> u64;
    }
}

impl From<&In> for ffi::PortsIn {
    fn from(i: &In) -> Self {
        ffi::PortsIn { valid: i.valid, dfmt: i.dfmt, nfmt: i.nfmt, components: words(i.components) }
    }
}

impl From<&ffi::PortsOut> for Out {
    fn from(o: &ffi::PortsOut) -> Self {
        Out { valid: o.valid, data: from_words(o.data), fmt_valid: o.fmt_valid }
    }
}

verilated_rtl!(FormatPack);

/// The unit's place in the harness.
pub struct Harness;

impl Binding for Harness {
    type Model = FormatPack;
    type Rtl = Rtl;

    fn generate(rng: &mut Rng) -> In {
        generate(rng)
    }

    fn describe(input: &In) -> String {
        format!("dfmt={} nfmt={}", DFMT_NAMES[usize::from(input.dfmt & 15)], NFMT_NAMES[usize::from(input.nfmt & 7)])
    }

    fn eval_output(input: &In, out: &Out) -> Map<String, Value> {
        // The element's bytes (SPEC §1.4); no element for dfmt 0 and 15: one zero byte.
        let bytes = crate::format::element_bytes(input.dfmt).max(1) as usize;
        let mut map = Map::new();
        map.insert("data".into(), json!(format!("0x{:0width$x}", out.data, width = 2 * bytes)));
        map.insert("valid".into(), json!(out.fmt_valid));
        map
    }
}

/// Every dfmt (mostly valid ones) under every nfmt, components from the f32 corner patterns
/// (and raw integers for uint/sint), drawn from `rng`.
pub fn generate(rng: &mut Rng) -> In {
    let dfmt = one_of!(rng; 12 => rng.range(1..15) as u8, 1 => 0u8, 1 => 15u8);
    let nfmt = rng.below(8) as u8;
    let c = [f32_bits(rng), f32_bits(rng), f32_bits(rng), f32_bits(rng)];
    In { valid: true, dfmt, nfmt, components: from_words(c) }
}
