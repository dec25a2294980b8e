//! `d16`: the 16-bit packing of D16 loads and stores between 32-bit components and VGPR halves.
//!
//! Spec: docs/spec.md §6  RTL: rtl/d16.sv  Tests: tests/d16.rs
//!
//! One operation per input, chosen by `op` (docs/decisions.md "d16"):
//!
//! | op | name | result |
//! |---|---|---|
//! | 0 | load_format | the first k = count components (`data` dwords) as halves, two per dword |
//! | 1 | load_ubyte | `data[7:0]` zero-extended into one half of `old`, the other half kept |
//! | 2 | load_sbyte | as 1, sign-extended |
//! | 3 | load_short | as 1 with `data[15:0]` |
//! | 4 | store_format | the first k halves of `data` widened to four 32-bit components |
//! | 5 | store_byte | `data[23:16]` (hi) or `data[7:0]` |
//! | 6 | store_short | `data[31:16]` (hi) or `data[15:0]` |
//! | 7 | reserved | 0, `illegal` |
//!
//! Conversions: float-like nfmts (unorm, snorm, uscaled, sscaled, float, and the reserved 6) go
//! f32 → f16 (SPEC §5's rule: nearest even, overflow → infinity, NaN kept) and f16 → f32 (exact);
//! uint/sint keep the low 16 bits, and widen by zero/sign extension.
//!
//! Decisions (docs/decisions.md "d16"): count 0 on a format op gives no halves and raises
//! `illegal` (loads: result 0, result_count 0; stores: four 0 components, result_count 4); count
//! above 4 is taken as 4 and raises `illegal`; nfmt 6 raises `illegal` on the format ops and
//! converts as float-like. `hi` is ignored by the format ops; `nfmt` and `count` by the byte/short
//! ops. Result dwords beyond the operation's output are 0.
//!
//! Timing: `LATENCY = 2`. Stage 1 registers the computed outputs with the input's valid; the
//! output stage registers stage 1. `valid` shifts every edge; each stage's data registers load
//! only when the valid entering it is 1 and hold otherwise. Reset clears every register.

use crate::float;
use crate::format::{is_integer, sign_extend, NFMT_RESERVED, NFMT_SINT};
use crate::ports;
use crate::unit::{eval_object, pipelined_unit, Kind};

/// `op` codes, named as `eval` writes them.
pub const OP_NAMES: &[&str] =
    &["load_format", "load_ubyte", "load_sbyte", "load_short", "store_format", "store_byte", "store_short", "reserved"];
/// BUFFER_LOAD_FORMAT_D16_*, TBUFFER_LOAD_FORMAT_D16_*, image D16 loads.
pub const OP_LOAD_FORMAT: u8 = 0;
/// BUFFER_LOAD_UBYTE_D16(_HI).
pub const OP_LOAD_UBYTE: u8 = 1;
/// BUFFER_LOAD_SBYTE_D16(_HI).
pub const OP_LOAD_SBYTE: u8 = 2;
/// BUFFER_LOAD_SHORT_D16(_HI).
pub const OP_LOAD_SHORT: u8 = 3;
/// D16 format stores (buffer and image).
pub const OP_STORE_FORMAT: u8 = 4;
/// BUFFER_STORE_BYTE(_D16_HI).
pub const OP_STORE_BYTE: u8 = 5;
/// BUFFER_STORE_SHORT(_D16_HI).
pub const OP_STORE_SHORT: u8 = 6;
/// Reserved: raises `illegal`, result 0.
pub const OP_RESERVED: u8 = 7;

ports! {
    /// Inputs of `d16`, in RTL port order. `data`: dword i at bits 32i+31:32i (components for
    /// load_format, the loaded bytes for the byte/short loads, VDATA for stores); `old`: the
    /// destination VGPR before a byte/short load; `count`: components (loads) or halves (stores)
    /// of the format ops.
    pub struct In {
        valid: bool;
        op: u8 = 3, Kind::Enum(OP_NAMES);
        hi: bool;
        nfmt: u8 = 3;
        count: u8 = 3;
        data: u128, Kind::Hex;
        old: u32, Kind::Hex;
    }
}
ports! {
    /// Outputs of `d16`, in RTL port order. `result`: dword i at bits 32i+31:32i (VGPRs for
    /// loads, components for store_format, the store data for byte/short stores), 0 at and above
    /// `result_count`; `illegal`: a reserved op, or a format op's count outside 1..4 or nfmt 6.
    pub struct Out {
        valid: bool;
        result: u128, Kind::Hex;
        result_count: u8 = 3;
        illegal: bool;
    }
}

/// Dword `i` of a 128-bit bundle.
fn dword(data: u128, i: u32) -> u32 {
    (data >> (32 * i)) as u32
}

/// Half `i` of a 128-bit bundle (bits 16i+15:16i).
fn half(data: u128, i: u32) -> u16 {
    (data >> (16 * i)) as u16
}

/// The combinational function of SPEC §6 as docs/decisions.md "d16" defines it; `valid` is
/// passed through.
pub fn compute(input: &In) -> Out {
    let (op, nfmt, count) = (input.op & 0x7, input.nfmt & 0x7, input.count & 0x7);
    let integer = is_integer(nfmt);
    // Format ops: k = count, at most 4; count 0 or above 4, and nfmt 6, are illegal.
    let k = u32::from(count.min(4));
    let format_illegal = count == 0 || count > 4 || nfmt == NFMT_RESERVED;
    // Byte/short loads: the value v for one half; the other half of `old` is kept.
    let load_half = |v: u16| {
        let old = input.old;
        let vgpr = if input.hi { (u32::from(v) << 16) | (old & 0xffff) } else { (old & 0xffff_0000) | u32::from(v) };
        (u128::from(vgpr), 1, false)
    };
    let (result, result_count, illegal) = match op {
        OP_LOAD_FORMAT => {
            // Component i < k becomes half i (f32 → f16, or its low 16 bits); dword j holds
            // halves 2j (bits 15:0) and 2j + 1 (bits 31:16); an odd last half leaves 31:16 at 0.
            let mut result = 0u128;
            for i in 0..k {
                let c = dword(input.data, i);
                let h = if integer { c as u16 } else { float::f32_to_f16(c) };
                result |= u128::from(h) << (16 * i);
            }
            (result, k.div_ceil(2) as u8, format_illegal)
        }
        // ubyte: data[7:0] zero-extended; sbyte: sign-extended; short: data[15:0] as it is.
        OP_LOAD_UBYTE => load_half(u16::from(input.data as u8)),
        OP_LOAD_SBYTE => load_half(i16::from(input.data as u8 as i8) as u16),
        OP_LOAD_SHORT => load_half(input.data as u16),
        OP_STORE_FORMAT => {
            // Half i < k of VDATA (15:0, then 31:16, then the next dword) becomes component i:
            // f16 → f32 exactly, or zero-/sign-extended; components i >= k are 0.
            let mut result = 0u128;
            for i in 0..k {
                let h = half(input.data, i);
                let c = if !integer {
                    float::f16_to_f32(h)
                } else if nfmt == NFMT_SINT {
                    sign_extend(u32::from(h), 16) as u32
                } else {
                    u32::from(h)
                };
                result |= u128::from(c) << (32 * i);
            }
            (result, 4, format_illegal)
        }
        // Byte/short stores (the _D16_HI forms with hi): the stored bits, the rest 0.
        OP_STORE_BYTE => {
            let shift = if input.hi { 16 } else { 0 };
            (u128::from((dword(input.data, 0) >> shift) & 0xff), 1, false)
        }
        OP_STORE_SHORT => {
            let shift = if input.hi { 16 } else { 0 };
            (u128::from((dword(input.data, 0) >> shift) & 0xffff), 1, false)
        }
        // op 7 (OP_RESERVED): illegal, nothing produced.
        _ => (0, 0, true),
    };
    Out { valid: input.valid, result, result_count, illegal }
}

pipelined_unit! {
    /// The cycle-accurate model: two register stages, compute before stage 1.
    pub struct D16 { NAME: "d16", LATENCY: 2 }
}

// Functional coverage bins: rust/d16/cover.rs.
pub mod cover;

// The unit's `eval` object (SPEC §13): its input ports in, this object out.
eval_object!(D16, |_input, out| {
    let n = usize::from(out.result_count).min(4);
    let result: Vec<String> = crate::unit::words(out.result)[..n].iter().map(|w| format!("0x{w:08x}")).collect();
    eval::object([
        ("result", Value::from(result)),
        ("result_count", Value::from(out.result_count)),
        ("illegal", Value::from(out.illegal)),
    ])
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{NFMT_FLOAT, NFMT_SNORM, NFMT_UINT, NFMT_UNORM};
    use crate::unit::{from_words, testing};
    use proptest::prelude::*;

    fn d16(op: u8, hi: bool, nfmt: u8, count: u8, data: u128, old: u32) -> Out {
        compute(&In { valid: true, op, hi, nfmt, count, data, old })
    }

    /// (result, result_count, illegal).
    fn r(o: Out) -> (u128, u8, bool) {
        (o.result, o.result_count, o.illegal)
    }

    #[test]
    fn port_tables_match_the_rtl() {
        assert_eq!(
            testing::port_widths::<In>(),
            [("valid", 1), ("op", 3), ("hi", 1), ("nfmt", 3), ("count", 3), ("data", 128), ("old", 32)]
        );
        assert_eq!(testing::port_widths::<Out>(), [("valid", 1), ("result", 128), ("result_count", 3), ("illegal", 1)]);
        assert_eq!(OP_NAMES[usize::from(OP_RESERVED)], "reserved");
    }

    /// load_format, float: 1.0 → 0x3c00, 0.5 → 0x3800, −2.0 → 0xc000: dword 0 = 0x3800_3c00,
    /// dword 1 = 0x0000_c000 (odd last half, 31:16 at 0); result_count 2. Component 3 (beyond
    /// count) is ignored. unorm converts the same way (its components are already f32).
    #[test]
    fn load_format_float() {
        let data = from_words([0x3f80_0000, 0x3f00_0000, 0xc000_0000, 0xdead_beef]);
        for nfmt in [NFMT_FLOAT, NFMT_UNORM, NFMT_SNORM] {
            assert_eq!(r(d16(OP_LOAD_FORMAT, true, nfmt, 3, data, 0xffff_ffff)), (0xc000_3800_3c00, 2, false));
        }
        // count 4: 0xdead_beef (−6.26e18) overflows → −inf 0xfc00 in bits 31:16 of dword 1.
        assert_eq!(r(d16(OP_LOAD_FORMAT, false, NFMT_FLOAT, 4, data, 0)), (0xfc00_c000_3800_3c00, 2, false));
        // count 1: one half, one VGPR.
        assert_eq!(r(d16(OP_LOAD_FORMAT, false, NFMT_FLOAT, 1, data, 0)), (0x3c00, 1, false));
    }

    /// load_format, uint/sint: the low 16 bits, no saturation.
    #[test]
    fn load_format_integer() {
        let data = from_words([0x1234_5678, 0xffff_0001, 0, 0]);
        assert_eq!(r(d16(OP_LOAD_FORMAT, false, NFMT_UINT, 2, data, 0)), (0x0001_5678, 1, false));
        assert_eq!(r(d16(OP_LOAD_FORMAT, false, NFMT_SINT, 2, data, 0)), (0x0001_5678, 1, false));
    }

    /// Illegal format ops: count 0 (nothing), count 6 (as 4), nfmt 6 (float-like); reserved op.
    #[test]
    fn illegal_cases() {
        let data = from_words([0x3f80_0000, 0x4000_0000, 0x4040_0000, 0x4080_0000]);
        assert_eq!(r(d16(OP_LOAD_FORMAT, false, NFMT_FLOAT, 0, data, 0)), (0, 0, true));
        // 1.0, 2.0, 3.0, 4.0 → 0x3c00, 0x4000, 0x4200, 0x4400.
        assert_eq!(r(d16(OP_LOAD_FORMAT, false, NFMT_FLOAT, 6, data, 0)), (0x4400_4200_4000_3c00, 2, true));
        assert_eq!(r(d16(OP_LOAD_FORMAT, false, NFMT_RESERVED, 1, data, 0)), (0x3c00, 1, true));
        assert_eq!(r(d16(OP_STORE_FORMAT, false, NFMT_FLOAT, 0, 0x3c00, 0)), (0, 4, true));
        assert_eq!(r(d16(OP_STORE_FORMAT, false, NFMT_RESERVED, 1, 0x3c00, 0)), (0x3f80_0000, 4, true));
        assert_eq!(r(d16(OP_RESERVED, true, NFMT_FLOAT, 2, u128::MAX, u32::MAX)), (0, 0, true));
        // Byte/short ops ignore nfmt and count: nfmt 6 and count 0 are fine there.
        assert_eq!(r(d16(OP_LOAD_UBYTE, false, NFMT_RESERVED, 0, 0x12, 0)), (0x12, 1, false));
        assert_eq!(r(d16(OP_STORE_SHORT, false, NFMT_RESERVED, 7, 0x1234, 0)), (0x1234, 1, false));
    }

    /// Byte/short loads into old = 0xaabb_ccdd: ubyte 0x80 → 0xaabb_0080 (lo) / 0x0080_ccdd (hi);
    /// sbyte 0x80 → 0xff80; short 0x1234_beef → 0xbeef. Data bits above are ignored.
    #[test]
    fn byte_short_loads() {
        let old = 0xaabb_ccdd;
        let data = 0xffff_ffff_1234_be80u128;
        assert_eq!(r(d16(OP_LOAD_UBYTE, false, 0, 0, data, old)), (0xaabb_0080, 1, false));
        assert_eq!(r(d16(OP_LOAD_UBYTE, true, 0, 0, data, old)), (0x0080_ccdd, 1, false));
        assert_eq!(r(d16(OP_LOAD_SBYTE, false, 0, 0, data, old)), (0xaabb_ff80, 1, false));
        assert_eq!(r(d16(OP_LOAD_SBYTE, true, 0, 0, data, old)), (0xff80_ccdd, 1, false));
        assert_eq!(r(d16(OP_LOAD_SBYTE, false, 0, 0, 0x7f, old)), (0xaabb_007f, 1, false));
        assert_eq!(r(d16(OP_LOAD_SHORT, false, 0, 0, data, old)), (0xaabb_be80, 1, false));
        assert_eq!(r(d16(OP_LOAD_SHORT, true, 0, 0, data, old)), (0xbe80_ccdd, 1, false));
    }

    /// store_format: halves 0x3c00 (1.0), 0xc000 (−2.0), 0x7e00 (NaN), count 3 → 0x3f80_0000,
    /// 0xc000_0000, 0x7fc0_0000, 0; the fourth half (0x1234) is ignored. sint 0x8000 →
    /// 0xffff_8000, uint 0x8000 → 0x0000_8000. The third half comes from dword 1 bits 15:0.
    #[test]
    fn store_format() {
        let data = from_words([0xc000_3c00, 0x1234_7e00, 0, 0]);
        let expect = from_words([0x3f80_0000, 0xc000_0000, 0x7fc0_0000, 0]);
        assert_eq!(r(d16(OP_STORE_FORMAT, true, NFMT_FLOAT, 3, data, 0)), (expect, 4, false));
        assert_eq!(r(d16(OP_STORE_FORMAT, false, NFMT_SINT, 1, 0x8000, 0)), (0xffff_8000, 4, false));
        assert_eq!(r(d16(OP_STORE_FORMAT, false, NFMT_UINT, 2, 0x8000_8000, 0)), (0x8000_0000_8000, 4, false));
        // Denormal half 0x0001 → 2^−24 = 0x3380_0000 (exact, not flushed).
        assert_eq!(r(d16(OP_STORE_FORMAT, false, NFMT_UNORM, 1, 0x0001, 0)), (0x3380_0000, 4, false));
    }

    /// Byte/short stores: data 0x00ab_12cd → byte lo 0xcd, hi 0xab; short lo 0x12cd, hi 0x00ab.
    #[test]
    fn byte_short_stores() {
        let data = 0xffff_ffff_00ab_12cdu128;
        assert_eq!(r(d16(OP_STORE_BYTE, false, 0, 0, data, 0)), (0xcd, 1, false));
        assert_eq!(r(d16(OP_STORE_BYTE, true, 0, 0, data, 0)), (0xab, 1, false));
        assert_eq!(r(d16(OP_STORE_SHORT, false, 0, 0, data, 0)), (0x12cd, 1, false));
        assert_eq!(r(d16(OP_STORE_SHORT, true, 0, 0, data, 0)), (0x00ab, 1, false));
    }

    /// Call j's valid input comes back from call j + 1; valid shifts every edge; data hold;
    /// reset clears both stages.
    #[test]
    fn timing() {
        let a = In { valid: true, op: OP_STORE_SHORT, data: 0x1234, ..In::default() };
        let b = In { data: 0x5678, ..a };
        let junk = In { valid: false, op: OP_RESERVED, ..In::default() };
        let out = |result| Out { valid: true, result, result_count: 1, illegal: false };
        testing::assert_two_stage_timing(&mut D16::new(), &a, &b, &junk, out(0x1234), out(0x5678));
    }

    fn any_in() -> impl Strategy<Value = In> {
        (any::<bool>(), 0u8..8, any::<bool>(), 0u8..8, 0u8..8, any::<u128>(), any::<u32>())
            .prop_map(|(valid, op, hi, nfmt, count, data, old)| In { valid, op, hi, nfmt, count, data, old })
    }

    proptest! {
        /// result_count fits and result is 0 at and above it.
        #[test]
        fn result_is_shaped(i in any_in()) {
            let o = compute(&i);
            prop_assert!(o.result_count <= 4);
            if o.result_count < 4 {
                prop_assert_eq!(o.result >> (32 * u32::from(o.result_count)), 0);
            }
        }

        /// A D16 store of the halves a D16 load produced gives back the load's components
        /// whenever those are exactly representable: here f16 values widened from random halves
        /// (float-like) and 16-bit integers (uint/sint, sign- or zero-extended).
        #[test]
        fn store_inverts_load(halves in any::<[u16; 4]>(), nfmt in 0u8..8, count in 1u8..=4) {
            let components: [u32; 4] = std::array::from_fn(|i| {
                let h = halves[i];
                if i >= usize::from(count) {
                    0
                } else if !is_integer(nfmt) {
                    float::f16_to_f32(h)
                } else if nfmt == NFMT_SINT {
                    i32::from(h as i16) as u32
                } else {
                    u32::from(h)
                }
            });
            let loaded = d16(OP_LOAD_FORMAT, false, nfmt, count, from_words(components), 0);
            let stored = d16(OP_STORE_FORMAT, false, nfmt, count, loaded.result, 0);
            prop_assert_eq!(stored.result, from_words(components));
        }

        /// The two-stage model equals "compute, delayed one call, holding on invalid".
        #[test]
        fn model_matches_delayed_compute(inputs in prop::collection::vec(any_in(), 1..40)) {
            testing::matches_delayed_compute::<D16>(&inputs, compute)?;
        }
    }
}
