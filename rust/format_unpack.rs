//! `format_unpack`: one element of a format load converted to 32-bit components (the load half
//! of SPEC §5's unit `format`).
//!
//! Spec: docs/spec.md §1.4, §5  RTL: rtl/format_unpack.sv  Tests: tests/format_unpack.rs
//!
//! From a (dfmt, nfmt) pair and the element's bits it gives each field of the format as a 32-bit
//! component (X at bits 31:0, Y at 63:32, Z at 95:64, W at 127:96), the component count and
//! `fmt_valid` = format_valid(dfmt, nfmt).
//!
//! Per field of w bits (SPEC §5):
//! - w = 32: the raw bits, whatever the nfmt.
//! - unorm: the f32 nearest (ties to even) to v / (2^w − 1), from exact integer division
//!   ([`float::ratio_to_f32`]).
//! - snorm: max(s / (2^(w−1) − 1), −1.0), correctly rounded the same way.
//! - uscaled / sscaled: the integer as f32 (exact: w <= 16 < 24).
//! - uint / sint: zero- / sign-extended.
//! - float: f16 (w = 16), f11 (w = 11), f10 (w = 10) widened exactly, NaN payload kept.
//!
//! Decisions where the spec is silent (docs/decisions.md "format_unpack and format_pack"):
//! - An invalid pair gives four 0 components, `count = 0`, `fmt_valid = 0`.
//! - Components the format lacks are 0; data bits above the element's size are ignored.
//!
//! Timing: `LATENCY = 2`. Stage 1 registers the computed outputs with the input's valid; the
//! output stage registers stage 1. `valid` shifts every edge; each stage's data registers load
//! only when the valid entering it is 1 and hold otherwise. Reset clears every register.

use crate::float;
use crate::format::{
    fields, low_mask, sign_extend, valid_pair, NFMT_FLOAT, NFMT_SINT, NFMT_SNORM, NFMT_SSCALED, NFMT_UINT, NFMT_UNORM,
    NFMT_USCALED,
};
use crate::ports;
use crate::unit::{eval_object, pipelined_unit, Kind};

ports! {
    /// Inputs of `format_unpack`, in RTL port order. `data`: the element, bit k = element bit k
    /// (bits above the element's size are ignored).
    pub struct In {
        valid: bool;
        dfmt: u8 = 4;
        nfmt: u8 = 3;
        data: u128, Kind::Hex;
    }
}
ports! {
    /// Outputs of `format_unpack`, in RTL port order. `components`: component k (X, Y, Z, W) at
    /// bits 32k+31:32k, 0 beyond `count`; `count`: the format's component count, 0 when invalid;
    /// `fmt_valid`: format_valid(dfmt, nfmt).
    pub struct Out {
        valid: bool;
        components: u128, Kind::List { width: 32, len: 4 };
        count: u8 = 3;
        fmt_valid: bool;
    }
}

/// The combinational function of SPEC §5's unpack; `valid` is passed through.
pub fn compute(input: &In) -> Out {
    // §1.4: an invalid pair unpacks to nothing (four 0 components, count 0).
    let Some((dfmt, nfmt)) = valid_pair(input.dfmt, input.nfmt) else {
        return Out { valid: input.valid, ..Out::default() };
    };
    // §1.4: each field of the format, X first, becomes component k at bits 32k+31:32k.
    let mut components = 0u128;
    let layout = fields(dfmt);
    for (k, field) in layout.iter().enumerate() {
        let raw = (input.data >> field.offset) as u32 & low_mask(field.width);
        components |= u128::from(unpack_field(raw, field.width, nfmt)) << (32 * k);
    }
    Out { valid: input.valid, components, count: layout.len() as u8, fmt_valid: true }
}

/// One field of `width` bits (its value in the low bits of `raw`) as a 32-bit component, for a
/// pair that format_valid accepts.
pub fn unpack_field(raw: u32, width: u32, nfmt: u8) -> u32 {
    // w = 32: raw copy whatever the nfmt (32-bit data are not converted).
    if width == 32 {
        return raw;
    }
    match nfmt {
        // unorm: v / (2^w − 1), correctly rounded (0 → 0, 2^w − 1 → 1.0).
        NFMT_UNORM => float::ratio_to_f32(raw, low_mask(width)),
        // snorm: s / (2^(w−1) − 1) clamped at −1.0: the most negative code (and −(2^(w−1) − 1))
        // gives −1.0. Sign and magnitude separately, the magnitude correctly rounded.
        NFMT_SNORM => {
            let s = sign_extend(raw, width);
            let max = low_mask(width - 1);
            let magnitude = s.unsigned_abs().min(max);
            let sign = if s < 0 { float::F32_SIGN } else { 0 };
            sign | float::ratio_to_f32(magnitude, max)
        }
        // uscaled / sscaled: the integer as f32, exact for w <= 16 (a 24-bit significand).
        NFMT_USCALED => (raw as f32).to_bits(),
        NFMT_SSCALED => (sign_extend(raw, width) as f32).to_bits(),
        // uint: zero-extended (raw already is); sint: sign-extended.
        NFMT_UINT => raw,
        NFMT_SINT => sign_extend(raw, width) as u32,
        // float: exact widening of f16 / f11 / f10 (the only widths format_valid allows).
        NFMT_FLOAT => match width {
            16 => float::f16_to_f32(raw as u16),
            11 => float::f11_to_f32(raw as u16),
            10 => float::f10_to_f32(raw as u16),
            _ => 0,
        },
        // nfmt 6 (reserved) is excluded by format_valid.
        _ => 0,
    }
}

pipelined_unit! {
    /// The cycle-accurate model: two register stages, compute before stage 1.
    pub struct FormatUnpack { NAME: "format_unpack", LATENCY: 2 }
}

// Functional coverage bins: rust/format_unpack/cover.rs.
pub mod cover;

// The unit's `eval` object (SPEC §13): its input ports in, this object out.
eval_object!(FormatUnpack, |_input, out| {
    eval::object([
        ("components", Value::from(&crate::unit::words(out.components)[..])),
        ("count", Value::from(out.count)),
        ("valid", Value::from(out.fmt_valid)),
    ])
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::f32_patterns::{INF, MINUS_ONE, NEG_INF, ONE, SNORM8_1, UNORM8_3};
    use crate::format::{element_bytes, format_valid, NFMT_RESERVED};
    use crate::unit::testing;
    use proptest::prelude::*;

    fn unpack(dfmt: u8, nfmt: u8, data: u128) -> Out {
        compute(&In { valid: true, dfmt, nfmt, data })
    }

    /// Component k of an output.
    fn c(o: &Out, k: usize) -> u32 {
        (o.components >> (32 * k)) as u32
    }

    #[test]
    fn port_tables_match_the_rtl() {
        assert_eq!(testing::port_widths::<In>(), [("valid", 1), ("dfmt", 4), ("nfmt", 3), ("data", 128)]);
        assert_eq!(testing::port_widths::<Out>(), [("valid", 1), ("components", 128), ("count", 3), ("fmt_valid", 1)]);
    }

    /// unorm8: code 3 → 3/255 = 0x3c40_c0c1 (SPEC §5's example; see float.rs for the binary
    /// expansion); 255 → 1.0; 0 → 0; 128 → 128/255 = 0x3f00_8081 (checked with Python's
    /// correctly rounded float division then f32 packing, exact here: see float.rs' test
    /// `ratio_is_nearest_for_every_unorm_code`).
    #[test]
    fn unorm8() {
        let o = unpack(10, NFMT_UNORM, 0x0080_ff03);
        assert_eq!((c(&o, 0), c(&o, 1), c(&o, 2), c(&o, 3)), (UNORM8_3, ONE, 0x3f00_8081, 0));
        assert_eq!((o.count, o.fmt_valid), (4, true));
    }

    /// unorm2 (dfmt 8's X): codes 0..3 → 0, 1/3, 2/3, 1. 1/3 = 0.010101…₂ = 2^−2 × 1.0101…:
    /// fraction 0x2aaaaa, next bits 1010… > half → 0x2aaaab, exponent 125: 0x3eaa_aaab.
    /// 2/3 = 0x3f2a_aaab likewise. dfmt 8 = X[1:0] Y[11:2] Z[21:12] W[31:22]: data 0x1 | 0x3ff << 2
    /// gives X = 1/3, Y = 1.0 (unorm10 1023).
    #[test]
    fn unorm2_and_10() {
        let o = unpack(8, NFMT_UNORM, 0x1 | 0x3ff << 2);
        assert_eq!((c(&o, 0), c(&o, 1), c(&o, 2), c(&o, 3)), (0x3eaa_aaab, ONE, 0, 0));
        let o = unpack(8, NFMT_UNORM, 0x2);
        assert_eq!(c(&o, 0), 0x3f2a_aaab);
        assert_eq!(o.count, 4);
    }

    /// snorm8: 127 → 1.0; −127 (0x81) and −128 (0x80) → −1.0; 1 → 1/127 = 0x3c01_0204; −1 (0xff)
    /// → 0xbc01_0204. snorm2 (dfmt 9's W, bits 31:30): 0b10 = −2 → −1.0, 0b01 → 1.0.
    #[test]
    fn snorm() {
        let o = unpack(10, NFMT_SNORM, 0x7f_81_80_01);
        assert_eq!((c(&o, 0), c(&o, 1), c(&o, 2), c(&o, 3)), (SNORM8_1, MINUS_ONE, MINUS_ONE, ONE));
        let o = unpack(3, NFMT_SNORM, 0x00ff);
        assert_eq!((c(&o, 0), c(&o, 1), o.count), (0xbc01_0204, 0, 2));
        assert_eq!(c(&unpack(9, NFMT_SNORM, 0b10 << 30), 3), MINUS_ONE);
        assert_eq!(c(&unpack(9, NFMT_SNORM, 0b01 << 30), 3), ONE);
    }

    /// Scaled and integer: 16-bit 0xfffe is 65534.0 = 1.1111111111111110 × 2^15 = 0x477f_fe00
    /// uscaled, −2.0 = 0xc000_0000 sscaled, 0x0000_fffe uint, 0xffff_fffe sint.
    #[test]
    fn scaled_and_integer() {
        assert_eq!(c(&unpack(2, NFMT_USCALED, 0xfffe), 0), 0x477f_fe00);
        assert_eq!(c(&unpack(2, NFMT_SSCALED, 0xfffe), 0), 0xc000_0000);
        assert_eq!(c(&unpack(2, NFMT_UINT, 0xfffe), 0), 0x0000_fffe);
        assert_eq!(c(&unpack(2, NFMT_SINT, 0xfffe), 0), 0xffff_fffe);
        // 10-bit sint 0x200 = −512; dfmt 9 Z is bits 29:20.
        assert_eq!(c(&unpack(9, NFMT_SINT, 0x200 << 20), 2), (-512i32) as u32);
    }

    /// float: dfmt 5 (16_16) halves 0x3c00 (1.0) and 0xfc00 (−inf); dfmt 6 (X f11, Y f11,
    /// Z f10): X = 0x3c0 (1.0), Y = 0x7c1 (NaN payload 1 → 1 << 17), Z = 0x1e0 (1.0).
    #[test]
    fn float() {
        let o = unpack(5, NFMT_FLOAT, 0xfc00_3c00);
        assert_eq!((c(&o, 0), c(&o, 1), o.count), (ONE, NEG_INF, 2));
        let o = unpack(6, NFMT_FLOAT, 0x3c0 | 0x7c1 << 11 | 0x1e0 << 22);
        assert_eq!((c(&o, 0), c(&o, 1), c(&o, 2)), (ONE, 0x7f82_0000, ONE));
        // dfmt 7: X f10, Y f11, Z f11.
        let o = unpack(7, NFMT_FLOAT, 0x1e0 | 0x3c0 << 10 | 0x7c0 << 21);
        assert_eq!((c(&o, 0), c(&o, 1), c(&o, 2)), (ONE, ONE, INF));
    }

    /// 32-bit fields are raw whatever the nfmt; dfmt 14 carries all four dwords.
    #[test]
    fn raw_32() {
        let data = 0x7fc0_0001_8000_0000_ffff_ffff_1234_5678u128;
        for nfmt in [0, 1, 2, 3, 4, 5, 7] {
            let o = unpack(14, nfmt, data);
            assert_eq!((o.components, o.count), (data, 4));
            let o = unpack(13, nfmt, data);
            assert_eq!((o.components, o.count), (data & ((1 << 96) - 1), 3));
        }
    }

    /// Invalid pairs: everything 0 but valid; data above the element is ignored.
    #[test]
    fn invalid_and_ignored_bits() {
        for (dfmt, nfmt) in [(0, 0), (15, 4), (10, NFMT_RESERVED), (10, NFMT_FLOAT), (8, NFMT_FLOAT)] {
            let o = unpack(dfmt, nfmt, u128::MAX);
            assert_eq!(o, Out { valid: true, ..Out::default() }, "dfmt {dfmt} nfmt {nfmt}");
        }
        let o = unpack(1, NFMT_UINT, 0xffff_ff12);
        assert_eq!((o.components, o.count), (0x12, 1));
        // Port-width masking: dfmt 0x11 → 1, nfmt 0xc → 4.
        assert_eq!(unpack(0x11, 0xc, 0x34).components, 0x34);
    }

    /// Call j's valid input comes back from call j + 1; valid shifts every edge; data hold.
    #[test]
    fn timing() {
        let a = In { valid: true, dfmt: 1, nfmt: NFMT_UINT, data: 0x5a };
        let b = In { data: 0x5b, ..a };
        let junk = In { valid: false, dfmt: 4, nfmt: 4, data: 0x77 };
        let out = |components| Out { valid: true, components, count: 1, fmt_valid: true };
        testing::assert_two_stage_timing(&mut FormatUnpack::new(), &a, &b, &junk, out(0x5a), out(0x5b));
    }

    /// Every unorm and snorm code of every width 2..16 (the table's 2, 8, 10, 11, 16 and the
    /// rest) unpacks to a correctly rounded quotient (checked independently in float.rs'
    /// `ratio_is_nearest_for_every_unorm_code`); here: unorm8 and unorm16 against a direct
    /// comparison of the neighbours in exact rational arithmetic, and snorm symmetry.
    #[test]
    fn unorm_8_16_every_code_is_nearest() {
        for (dfmt, w) in [(1u8, 8u32), (2, 16)] {
            let d = (1i128 << w) - 1;
            for v in 0..1u32 << w {
                let f = c(&unpack(dfmt, NFMT_UNORM, u128::from(v)), 0);
                // f32 value = m × 2^p; distance to v/d scaled by d × 2^60: |m d 2^(p+60) − v 2^60|.
                let dist = |bits: u32| {
                    let (m, p) = (i128::from(bits & 0x7f_ffff | 0x80_0000), ((bits >> 23) as i32) - 150);
                    ((m * d) << (p + 60)) - (i128::from(v) << 60)
                };
                if v == 0 {
                    assert_eq!(f, 0);
                    continue;
                }
                let here = dist(f).abs();
                assert!(here <= dist(f + 1).abs() && here <= dist(f - 1).abs(), "unorm{w} {v}: {f:#x}");
                assert!(here != dist(f + 1).abs() && here != dist(f - 1).abs(), "no ties: d is odd");
            }
        }
        for w in [8u32, 16] {
            let dfmt = if w == 8 { 1 } else { 2 };
            for s in 1..1u32 << (w - 1) {
                let pos = c(&unpack(dfmt, NFMT_SNORM, u128::from(s)), 0);
                let neg = c(&unpack(dfmt, NFMT_SNORM, u128::from(s.wrapping_neg() & low_mask(w))), 0);
                assert_eq!(neg, pos | float::F32_SIGN);
                assert_eq!(pos, float::ratio_to_f32(s, low_mask(w - 1)));
            }
        }
    }

    proptest! {
        /// Outputs fit their ports; components beyond count are 0; count is the table's.
        #[test]
        fn outputs_are_shaped(dfmt in 0u8..16, nfmt in 0u8..8, data in any::<u128>()) {
            let o = unpack(dfmt, nfmt, data);
            prop_assert_eq!(o.fmt_valid, format_valid(dfmt, nfmt));
            prop_assert_eq!(usize::from(o.count), if o.fmt_valid { fields(dfmt).len() } else { 0 });
            if o.count < 4 {
                prop_assert_eq!(o.components >> (32 * u32::from(o.count)), 0);
            }
            // Bits above the element are ignored.
            let bits = 8 * element_bytes(dfmt);
            let low = if bits == 128 { data } else { data & ((1u128 << bits) - 1) };
            prop_assert_eq!(unpack(dfmt, nfmt, low), o);
        }

        /// The two-stage model equals "compute, delayed one call, holding on invalid".
        #[test]
        fn model_matches_delayed_compute(
            inputs in prop::collection::vec((any::<bool>(), 0u8..16, 0u8..8, any::<u128>()), 1..40)
        ) {
            let inputs: Vec<In> =
                inputs.into_iter().map(|(valid, dfmt, nfmt, data)| In { valid, dfmt, nfmt, data }).collect();
            testing::matches_delayed_compute::<FormatUnpack>(&inputs, compute)?;
        }
    }
}
