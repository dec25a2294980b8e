//! `format_unpack` in the harness: the cxx binding of the Verilated RTL (rtl/format_unpack.sv),
//! its random stimulus and its `eval` objects (SPEC §13).
//! Model: rust/format_unpack.rs  RTL: rtl/format_unpack.sv  Tests: tests/format_unpack.rs  Spec: docs/spec.md §5

use serde_json::{json, Map, Value};

use super::stimulus::{f32_bits, from_words, words, Rng};
use super::Binding;
use crate::one_of;
use crate::format_unpack::{FormatUnpack, In, Out};

#[cxx::bridge(namespace = "cosim::format_unpack")]
mod ffi {
    // Shared structs: the RTL ports as plain integers, named like the ports without _i/_o.
    #[derive(Clone, Copy, Debug, Default)]
    struct PortsIn {
        valid: bool,
        dfmt: u8,
        nfmt: u8,
        data: [u32; 4],
    }

    #[derive(Clone, Copy, Debug, Default)]
    struct PortsOut {
        valid: bool,
        components: [u32; 4],
        count: u8,
        fmt_valid: bool,
    }

    // C++ exposed to Rust: cosim/format_unpack.h states each function's contract.
    unsafe extern "C++" {
        include!("gcn-vmem/cosim/format_unpack.h");

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
        ffi::PortsIn { valid: i.valid, dfmt: i.dfmt, nfmt: i.nfmt, data: words(i.data) }
    }
}

impl From<&ffi::PortsOut> for Out {
    fn from(o: &ffi::PortsOut) -> Self {
        Out { valid: o.valid, components: from_words(o.components), count: o.count, fmt_valid: o.fmt_valid }
    }
}

verilated_rtl!(FormatUnpack);

/// The unit's place in the harness.
pub struct Harness;

impl Binding for Harness {
    type Model = FormatUnpack;
    type Rtl = Rtl;

    fn generate(rng: &mut Rng) -> In {
        generate(rng)
    }

    fn describe(input: &In) -> String {
        format!("dfmt={} nfmt={}", super::stimulus::DFMT_NAMES[usize::from(input.dfmt & 15)], super::stimulus::NFMT_NAMES[usize::from(input.nfmt & 7)])
    }

    fn eval_output(_input: &In, out: &Out) -> Map<String, Value> {
        let mut map = Map::new();
        map.insert("components".into(), json!(words(out.components)));
        map.insert("count".into(), json!(out.count));
        map.insert("valid".into(), json!(out.fmt_valid));
        map
    }
}

/// 16-bit patterns on the corners of the field conversions: zero, all ones, the most negative
/// snorm codes, f16 infinities, NaNs (quiet, signalling, payload 1), denormals and normal edges,
/// and the same shapes for 8-bit fields in the low byte.
const SPECIAL_U16: &[u16] = &[
    0x0000, 0xffff, 0x8000, 0x7fff, 0x8001, 0x7c00, 0xfc00, 0x7c01, 0x7e00, 0xfe01, 0x7fff, 0x0001, 0x03ff, 0x0400,
    0x8400, 0x3c00, 0xbc00, 0x0080, 0x007f, 0x00ff, 0x0081, 0x0003, 0x7bff,
];

/// 32-bit patterns for the packed formats (10_11_11, 11_11_10, 10_10_10_2, 2_10_10_10): all-ones
/// and single-field extremes, and f11/f10 infinities and NaNs in every position.
const SPECIAL_U32: &[u32] = &[
    0x0000_0000, 0xffff_ffff, 0x8000_0000, 0x7fff_ffff, 0xc000_0000, 0x0000_0003, 0x0000_0200, 0x0008_0200,
    0x2008_0200, 0x0000_07c0, 0x0000_07c1, 0x003e_0000, 0x003e_0800, 0xf800_0000, 0xf840_0000, 0x0000_03e0,
    0x0000_03e1, 0x001f_0000, 0xffc0_0000, 0x0000_07ff, 0x0000_003f,
];

/// One data dword: uniform bits, a packed-format corner, two 16-bit corners side by side, or an
/// f32 corner.
fn data_word(rng: &mut Rng) -> u32 {
    one_of!(rng;
        3 => rng.next_u32(),
        2 => rng.pick(SPECIAL_U32),
        2 => {
            let (lo, hi) = (rng.pick(SPECIAL_U16), rng.pick(SPECIAL_U16));
            u32::from(lo) | u32::from(hi) << 16
        },
        1 => f32_bits(rng),
    )
}

/// One field of `width` bits aimed at a value class of SPEC §5 (format_unpack's `value` bins):
/// zero, all ones, the sign bit alone (most negative), the largest positive, −max (sign | 1),
/// any code; for 10-, 11- and 16-bit fields also the float codes (denormal, max finite,
/// infinity, quiet and signalling NaN, either sign); for 32-bit fields the NaN patterns copied
/// raw.
fn field_corner(rng: &mut Rng, width: u32) -> u32 {
    if width == 32 {
        return one_of!(rng;
            1 => 0u32,
            1 => u32::MAX,
            1 => 0x7f80_0001 | (rng.next_u32() & 0x807f_ffff),
            2 => rng.next_u32(),
        );
    }
    let ones = u32::MAX >> (32 - width);
    let msb = 1u32 << (width - 1);
    let code = one_of!(rng;
        1 => 0u32,
        1 => ones,
        1 => msb,
        1 => msb - 1,
        1 => msb | 1,
        3 => rng.next_u32() & ones,
        // Float codes: exponent 0 (denormal), 30 (max finite), 31 (inf, NaN); the mantissa's top
        // bit is the quiet bit.
        3 => {
            let mbits = if width == 16 { 10 } else { width.saturating_sub(5).max(1) };
            let man_mask = (1u32 << mbits) - 1;
            let man = rng.next_u32() & man_mask;
            let (exp, man) = one_of!(rng;
                1 => (0u32, man.max(1)),
                1 => (30, man_mask),
                1 => (31, 0),
                1 => (31, man | 1 << (mbits - 1)),
                1 => (31, (man & (man_mask >> 1)).max(1)),
                1 => (rng.range(1..31) as u32, man),
            );
            (exp << mbits | man) & (ones >> u32::from(width == 16)) | if width == 16 && rng.bool() { msb } else { 0 }
        },
    );
    code & ones
}

/// Every dfmt (mostly valid ones) under every nfmt, with data built from corner patterns, or
/// field by field from each field's value classes (bits above the element random or 0), drawn
/// from `rng`.
pub fn generate(rng: &mut Rng) -> In {
    let dfmt = one_of!(rng; 12 => rng.range(1..15) as u8, 1 => 0u8, 1 => 15u8);
    let nfmt = rng.below(8) as u8;
    let data = if rng.bool() {
        from_words([data_word(rng), data_word(rng), data_word(rng), data_word(rng)])
    } else {
        let bytes = crate::format::element_bytes(dfmt);
        let mut data = if bytes < 16 && rng.bool() { rng.next_u128() << (8 * bytes) } else { 0 };
        for f in crate::format::fields(dfmt) {
            data |= u128::from(field_corner(rng, f.width)) << f.offset;
        }
        data
    };
    In { valid: true, dfmt, nfmt, data }
}
