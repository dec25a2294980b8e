//! `format_pack`: four 32-bit components of a format store converted to one element (the store
//! half of SPEC §5's unit `format`).
//!
//! Spec: docs/spec.md §1.4, §5  RTL: rtl/format_pack.sv  Tests: tests/format_pack.rs
//!
//! From a (dfmt, nfmt) pair and the components (X at bits 31:0, Y at 63:32, Z at 95:64, W at
//! 127:96) it gives the element's bits, each component converted into its field, and
//! `fmt_valid` = format_valid(dfmt, nfmt).
//!
//! Per field of w bits (SPEC §5), the component read as an f32 for the float-like nfmts:
//! - w = 32: the raw bits, whatever the nfmt.
//! - unorm: NaN → 0, clamp to [0, 1], round_half_even(v × (2^w − 1)).
//! - snorm: NaN → 0, clamp to [−1, 1], round_half_even(v × (2^(w−1) − 1)), two's complement.
//! - uscaled / sscaled: NaN → 0, round toward zero, saturate to the field's range.
//! - uint / sint: the low w bits.
//! - float: f32 → f16 / f11 / f10, round to nearest even, overflow → infinity, NaN kept (numpy's
//!   payload rule); f11/f10: NaN first, then negative → 0.
//!
//! The unorm/snorm products are exact before their one rounding: v is an f32 (a 24-bit
//! significand times a power of two) and 2^w − 1 < 2^16, so v × (2^w − 1) is a 40-bit integer
//! significand times a power of two, which an f64 (53-bit significand, exponents far beyond the
//! f32 range) holds exactly; `f64::round_ties_even` then rounds that exact product once.
//!
//! Decisions where the spec is silent (docs/decisions.md "format_unpack and format_pack"):
//! - An invalid pair gives all-zero data and `fmt_valid = 0`.
//! - Data bits above the element's size are 0; components the format lacks are ignored.
//! - uscaled/sscaled: ±infinity saturate; uscaled negatives → 0.
//!
//! Timing: `LATENCY = 2`. Stage 1 registers the computed outputs with the input's valid; the
//! output stage registers stage 1. `valid` shifts every edge; each stage's data registers load
//! only when the valid entering it is 1 and hold otherwise. Reset clears every register.

use crate::float;
use crate::format::{
    fields, format_valid, low_mask, NFMT_FLOAT, NFMT_SINT, NFMT_SNORM, NFMT_SSCALED, NFMT_UINT, NFMT_UNORM,
    NFMT_USCALED,
};
use crate::ports;
use crate::unit::{Kind, Pipeline, Unit};

ports! {
    /// Inputs of `format_pack`, in RTL port order. `components`: component k (X, Y, Z, W) at bits
    /// 32k+31:32k; those the format lacks are ignored.
    pub struct In {
        valid: bool = 1, Kind::Bool;
        dfmt: u8 = 4, Kind::Int;
        nfmt: u8 = 3, Kind::Int;
        components: u128 = 128, Kind::List { width: 32, len: 4 };
    }
}
ports! {
    /// Outputs of `format_pack`, in RTL port order. `data`: the element's bits (bit k = element
    /// bit k; 0 above its size, and all 0 when invalid); `fmt_valid`: format_valid(dfmt, nfmt).
    pub struct Out {
        valid: bool = 1, Kind::Bool;
        data: u128 = 128, Kind::Hex;
        fmt_valid: bool = 1, Kind::Bool;
    }
}

/// The combinational function of SPEC §5's pack; `valid` is passed through.
pub fn compute(input: &In) -> Out {
    let (dfmt, nfmt) = (input.dfmt & 0xf, input.nfmt & 0x7);
    // §1.4: an invalid pair packs to all-zero data.
    if !format_valid(dfmt, nfmt) {
        return Out { valid: input.valid, ..Out::default() };
    }
    // §1.4: component k, X first, goes into field k of the format.
    let mut data = 0u128;
    for (k, field) in fields(dfmt).iter().enumerate() {
        let component = (input.components >> (32 * k)) as u32;
        data |= u128::from(pack_field(component, field.width, nfmt)) << field.offset;
    }
    Out { valid: input.valid, data, fmt_valid: true }
}

/// One 32-bit component as a field of `width` bits (returned in the low bits, 0 above), for a
/// pair that format_valid accepts.
pub fn pack_field(component: u32, width: u32, nfmt: u8) -> u32 {
    // w = 32: raw copy whatever the nfmt.
    if width == 32 {
        return component;
    }
    let mask = low_mask(width);
    // The component as a number (float-like nfmts), NaN read as 0 by the rules that clamp.
    let v = f64::from(f32::from_bits(component));
    let v = if v.is_nan() { 0.0 } else { v };
    match nfmt {
        // unorm: clamp to [0, 1], then one rounding of the exact product (see the module doc).
        NFMT_UNORM => (v.clamp(0.0, 1.0) * f64::from(mask)).round_ties_even() as u32,
        // snorm: clamp to [−1, 1], one rounding of the exact product, two's complement in w bits.
        NFMT_SNORM => {
            let max = f64::from(low_mask(width - 1));
            ((v.clamp(-1.0, 1.0) * max).round_ties_even() as i32 as u32) & mask
        }
        // uscaled: round toward zero, saturate to [0, 2^w − 1] (negatives and −inf → 0).
        NFMT_USCALED => v.trunc().clamp(0.0, f64::from(mask)) as u32,
        // sscaled: round toward zero, saturate to [−2^(w−1), 2^(w−1) − 1], two's complement.
        NFMT_SSCALED => {
            let max = f64::from(low_mask(width - 1));
            ((v.trunc().clamp(-max - 1.0, max) as i32) as u32) & mask
        }
        // uint / sint: keep the low w bits.
        NFMT_UINT | NFMT_SINT => component & mask,
        // float: f32 → f16 / f11 / f10 (the only widths format_valid allows).
        NFMT_FLOAT => match width {
            16 => u32::from(float::f32_to_f16(component)),
            11 => u32::from(float::f32_to_f11(component)),
            10 => u32::from(float::f32_to_f10(component)),
            _ => 0,
        },
        // nfmt 6 (reserved) is excluded by format_valid.
        _ => 0,
    }
}

/// The cycle-accurate model: two register stages, compute before stage 1.
#[derive(Clone, Debug, Default)]
pub struct FormatPack {
    /// Stage 1 and the output stage, each holding the last valid result to reach it.
    pipe: Pipeline<Out, 2>,
}

impl FormatPack {
    /// A model just out of reset.
    pub fn new() -> Self {
        Self::default()
    }
}

impl Unit for FormatPack {
    const NAME: &'static str = "format_pack";
    const LATENCY: usize = 2;
    type In = In;
    type Out = Out;

    fn set_reset(&mut self, asserted: bool) -> Out {
        self.pipe.set_reset(asserted)
    }

    fn step(&mut self, input: &In) -> Out {
        self.pipe.step(input.valid, || compute(input))
    }
}

/// Functional coverage (rust/cover.rs): the bins `make cosim` must hit, from SPEC §1.4 and §5.
///
/// - `format`, `illegal`: as format_unpack's (the same pairs and refusals).
/// - `value`: per valid pair, per component the format has, the class of the component under
///   the field's rule ([`classes`]): NaN, infinities, clamping and saturation, the rounding
///   direction and ties of unorm/snorm, truncation of the scaled nfmts, integers wider than the
///   field, and for float the f16/f11/f10 results (denormal, underflow, overflow, ties, NaN
///   payloads). Only classes a field of that width can receive are declared: the only
///   unorm/snorm ties are ±0.5 (2^w − 1 and 2^(w−1) − 1 are odd, so v · max is a half-integer
///   only for v = ±0.5), and a 2-bit sscaled/sint field has no positive value besides its max.
pub mod cover {
    use super::{In, Out};
    use crate::cover::{Covergroup, Hits};
    use crate::format::{
        format_valid, FIELDS, NFMT_FLOAT, NFMT_SINT, NFMT_SNORM, NFMT_SSCALED, NFMT_UINT, NFMT_UNORM, NFMT_USCALED,
    };
    use crate::format_unpack::cover::{illegal_bin, illegal_bins, valid, COMPONENT, DFMT, NFMT};

    /// The coverpoints, in declaration order.
    #[repr(usize)]
    enum Point {
        Format,
        Illegal,
        Value,
    }

    /// 32-bit fields: raw copies whatever the nfmt.
    pub const RAW32: &[&str] = &["zero", "all ones", "NaN pattern (copied raw)", "other"];
    pub const UNORM: &[&str] = &[
        "NaN -> 0",
        "-inf -> 0",
        "negative -> 0",
        "+-0",
        "rounds down",
        "rounds up",
        "tie 0.5 (to even)",
        "1.0 -> max",
        "above 1 -> max",
        "+inf -> max",
    ];
    pub const SNORM: &[&str] = &[
        "NaN -> 0",
        "-inf -> -max",
        "below -1 -> -max",
        "-1.0",
        "negative rounds toward 0",
        "negative rounds away from 0",
        "tie -0.5 (to even)",
        "+-0",
        "positive rounds down",
        "positive rounds up",
        "tie 0.5 (to even)",
        "1.0 -> max",
        "above 1 -> max",
        "+inf -> max",
    ];
    pub const USCALED: &[&str] = &[
        "NaN -> 0",
        "-inf -> 0",
        "negative -> 0",
        "+-0",
        "integer in range",
        "fraction truncated",
        "max exactly",
        "above max -> max",
        "+inf -> max",
    ];
    pub const SSCALED: &[&str] = &[
        "NaN -> 0",
        "-inf -> min",
        "below min -> min",
        "min exactly",
        "negative integer",
        "negative fraction truncated toward 0",
        "+-0",
        "positive integer",
        "positive fraction truncated",
        "max exactly",
        "above max -> max",
        "+inf -> max",
    ];
    /// sscaled on a 2-bit field (range −2..1): no positive integer besides the max.
    pub const SSCALED2: &[&str] = &[
        "NaN -> 0",
        "-inf -> min",
        "below min -> min",
        "min exactly",
        "negative integer",
        "negative fraction truncated toward 0",
        "+-0",
        "positive fraction truncated",
        "max exactly",
        "above max -> max",
        "+inf -> max",
    ];
    pub const UINT: &[&str] = &["0", "fits", "max (all ones)", "wider: upper bits dropped"];
    pub const SINT: &[&str] =
        &["0", "fits, positive", "fits, negative", "max positive", "most negative", "wider: upper bits dropped"];
    /// sint on a 2-bit field (−2..1): no positive value besides the max.
    pub const SINT2: &[&str] = &["0", "fits, negative", "max positive", "most negative", "wider: upper bits dropped"];
    pub const F16: &[&str] = &[
        "NaN, payload kept",
        "NaN, payload forced to 1",
        "-NaN (sign kept)",
        "+inf",
        "-inf",
        "+-0",
        "f32 denormal -> +-0",
        "rounding tie (to even)",
        "finite overflows -> inf",
        "underflows -> +-0",
        "f16 denormal result",
        "max finite result",
        "+normal",
        "-normal",
    ];
    /// f11 and f10: no sign, NaN tested before the sign.
    pub const F11: &[&str] = &[
        "NaN, payload kept",
        "NaN, payload forced to 1",
        "-NaN -> NaN (NaN before sign)",
        "+inf",
        "-inf -> 0",
        "negative -> 0",
        "+-0",
        "f32 denormal -> 0",
        "rounding tie (to even)",
        "finite overflows -> inf",
        "underflows -> 0",
        "denormal result",
        "max finite result",
        "normal",
    ];

    /// The value classes of a field of `width` bits under a valid `nfmt`.
    pub const fn classes(width: u32, nfmt: u8) -> &'static [&'static str] {
        if width == 32 {
            return RAW32;
        }
        match nfmt {
            NFMT_UNORM => UNORM,
            NFMT_SNORM => SNORM,
            NFMT_USCALED => USCALED,
            NFMT_SSCALED if width == 2 => SSCALED2,
            NFMT_SSCALED => SSCALED,
            NFMT_UINT => UINT,
            NFMT_SINT if width == 2 => SINT2,
            NFMT_SINT => SINT,
            NFMT_FLOAT if width == 16 => F16,
            _ => F11,
        }
    }

    /// The bin tables of the `format` and `value` points.
    struct Tables {
        /// The first `value` bin of (dfmt, nfmt, component).
        base: [[[u16; 4]; 8]; 16],
        /// The `format` bin of each valid (dfmt, nfmt).
        pair: [[u8; 8]; 16],
        /// Bins of the `value` point.
        bins: usize,
    }

    const fn tables() -> Tables {
        let (mut base, mut pair) = ([[[0u16; 4]; 8]; 16], [[u8::MAX; 8]; 16]);
        let (mut next, mut pairs) = (0usize, 0u8);
        let mut dfmt = 0;
        while dfmt < 16 {
            let mut nfmt = 0;
            while nfmt < 8 {
                if valid(dfmt, nfmt) {
                    pair[dfmt][nfmt] = pairs;
                    pairs += 1;
                    let mut k = 0;
                    while k < FIELDS[dfmt].len() {
                        base[dfmt][nfmt][k] = next as u16;
                        next += classes(FIELDS[dfmt][k].width, nfmt as u8).len();
                        k += 1;
                    }
                }
                nfmt += 1;
            }
            dfmt += 1;
        }
        Tables { base, pair, bins: next }
    }
    const TABLES: Tables = tables();
    const BASE: [[[u16; 4]; 8]; 16] = TABLES.base;
    const PAIR: [[u8; 8]; 16] = TABLES.pair;
    /// Bins of the `value` point.
    pub const VALUE_BINS: usize = TABLES.bins;

    pub fn covergroup() -> Covergroup {
        let pairs = (0..16).flat_map(|d| (0..8).filter(move |&n| valid(d, n)).map(move |n| (d, n)));
        let format = pairs.clone().map(|(d, n)| format!("{}/{}", DFMT[d], NFMT[n]));
        let illegal = illegal_bins();
        let value = pairs.flat_map(|(d, n)| {
            FIELDS[d].iter().enumerate().flat_map(move |(k, f)| {
                classes(f.width, n as u8)
                    .iter()
                    .map(move |c| format!("{}/{} {}({}b) {c}", DFMT[d], NFMT[n], COMPONENT[k], f.width))
            })
        });
        Covergroup::new()
            .point(Point::Format as usize, "format", format)
            .point(Point::Illegal as usize, "illegal (fmt_valid = 0)", illegal)
            .point(Point::Value as usize, "value", value)
    }

    /// Whether narrowing the finite nonzero f32 `c` to a float of `p` mantissa bits (5-bit
    /// exponent, bias 15, denormals below 2^−14) drops exactly half a unit in the last place.
    #[inline]
    fn tie(c: u32, p: u32) -> bool {
        let exp = ((c >> 23) & 0xff) as i32 - 127;
        if exp == -127 {
            return false;
        }
        // Bits of the 24-bit significand below the target's last place.
        let shift = 23 - p as i32 + (-14 - exp).max(0);
        if shift > 24 {
            return false;
        }
        let sig = (c & 0x007f_ffff) | 0x0080_0000;
        sig & ((1 << shift) - 1) == 1 << (shift - 1)
    }

    /// `down` when the positive product `x` (below 2^16) rounds down to nearest, `down + 1` when
    /// it rounds up (the fraction by a truncating conversion: no libm `floor` on the hot path).
    #[inline]
    fn rounds_up(x: f64, down: usize) -> usize {
        down + usize::from(x - (x as u32) as f64 >= 0.5)
    }

    /// The class of a float-like component `v` under unorm (`snorm` false) or snorm, for a
    /// field of `max` = 2^w − 1 or 2^(w−1) − 1.
    #[inline]
    fn norm(c: u32, max: f64, snorm: bool) -> usize {
        let v = f32::from_bits(c);
        if v.is_nan() {
            return 0;
        }
        let (neg_inf, below) = (1, 2);
        if !snorm {
            return if v == f32::NEG_INFINITY {
                neg_inf
            } else if v < 0.0 {
                below
            } else if v == 0.0 {
                3
            } else if v == 0.5 {
                6
            } else if v < 1.0 {
                rounds_up(f64::from(v) * max, 4)
            } else if v == 1.0 {
                7
            } else if v == f32::INFINITY {
                9
            } else {
                8
            };
        }
        if v == f32::NEG_INFINITY {
            neg_inf
        } else if v < -1.0 {
            below
        } else if v == -1.0 {
            3
        } else if v == -0.5 {
            6
        } else if v < 0.0 {
            rounds_up(-f64::from(v) * max, 4)
        } else if v == 0.0 {
            7
        } else if v == 0.5 {
            10
        } else if v < 1.0 {
            rounds_up(f64::from(v) * max, 8)
        } else if v == 1.0 {
            11
        } else if v == f32::INFINITY {
            13
        } else {
            12
        }
    }

    /// The class of a float-like component under uscaled (`min` 0) or sscaled.
    #[inline]
    fn scaled(c: u32, min: f32, max: f32, width: u32) -> usize {
        let v = f32::from_bits(c);
        // Only read inside the field's range (|v| <= 65535), where the conversion is exact.
        let integer = || v == (v as i32) as f32;
        let signed = min < 0.0;
        let full = if v.is_nan() {
            0
        } else if v == f32::NEG_INFINITY {
            1
        } else if v < min {
            2
        } else if signed && v == min {
            3
        } else if v < 0.0 {
            if integer() {
                4
            } else {
                5
            }
        } else if v == 0.0 {
            6
        } else if v < max {
            if integer() {
                7
            } else {
                8
            }
        } else if v == max {
            9
        } else if v == f32::INFINITY {
            11
        } else {
            10
        };
        if !signed {
            // USCALED has no "min exactly" and one "negative" class: NaN, −inf, negative, ±0,
            // integer, fraction, max, above, +inf.
            [0, 1, 2, 2, 2, 2, 3, 4, 5, 6, 7, 8][full]
        } else if width == 2 {
            [0, 1, 2, 3, 4, 5, 6, 7, 7, 8, 9, 10][full]
        } else {
            full
        }
    }

    /// The class of an f32 component narrowed into the float field `field` of `width` bits.
    #[inline]
    fn narrow(c: u32, field: u32, width: u32) -> usize {
        let (exp, man, neg) = ((c >> 23) & 0xff, c & 0x007f_ffff, c >> 31 != 0);
        let p = if width == 16 { 10 } else { width - 5 };
        let magnitude = if width == 16 { field & 0x7fff } else { field };
        let inf = 0x1f << p;
        let max_finite = inf - 1;
        if exp == 0xff && man != 0 {
            return if neg {
                2
            } else if man >> (23 - p) == 0 {
                1
            } else {
                0
            };
        }
        if exp == 0xff {
            return if neg { 4 } else { 3 };
        }
        if width != 16 && neg && c & 0x7fff_ffff != 0 {
            return 5;
        }
        let body = if c & 0x7fff_ffff == 0 {
            5
        } else if exp == 0 {
            6
        } else if tie(c, p) {
            7
        } else if magnitude == inf {
            8
        } else if magnitude == 0 {
            9
        } else if magnitude >> p == 0 {
            10
        } else if magnitude == max_finite {
            11
        } else if width == 16 && neg {
            13
        } else {
            12
        };
        // f11/f10 have "negative -> 0" before "+-0": the rest shift by one.
        if width == 16 {
            body
        } else {
            body + 1
        }
    }

    /// The class of component `c` packed into `field` (its bits in the output), an index into
    /// [`classes`]`(width, nfmt)`.
    #[inline]
    pub fn classify(c: u32, field: u32, width: u32, nfmt: u8) -> usize {
        if width == 32 {
            return match c {
                0 => 0,
                u32::MAX => 1,
                r if r & 0x7f80_0000 == 0x7f80_0000 && r & 0x007f_ffff != 0 => 2,
                _ => 3,
            };
        }
        let ones = u32::MAX >> (32 - width);
        let half = 1u32 << (width - 1);
        match nfmt {
            NFMT_UNORM => norm(c, f64::from(ones), false),
            NFMT_SNORM => norm(c, f64::from(half - 1), true),
            NFMT_USCALED => scaled(c, 0.0, ones as f32, width),
            NFMT_SSCALED => scaled(c, -(half as f32), (half - 1) as f32, width),
            NFMT_UINT => match c {
                0 => 0,
                c if c == ones => 2,
                c if c < ones => 1,
                _ => 3,
            },
            NFMT_SINT => {
                let s = c as i32;
                let (lo, hi) = (-(half as i32), half as i32 - 1);
                let full = if s == 0 {
                    0
                } else if s == hi {
                    3
                } else if s == lo {
                    4
                } else if s > 0 && s < hi {
                    1
                } else if s < 0 && s > lo {
                    2
                } else {
                    5
                };
                if width == 2 {
                    [0, 0, 1, 2, 3, 4][full]
                } else {
                    full
                }
            }
            _ => narrow(c, field, width),
        }
    }

    #[inline]
    pub fn sample(input: &In, out: &Out, hits: &mut Hits) {
        let (dfmt, nfmt) = (input.dfmt & 0xf, input.nfmt & 0x7);
        if !format_valid(dfmt, nfmt) {
            hits.hit(Point::Illegal as usize, illegal_bin(dfmt, nfmt));
            return;
        }
        let (d, n) = (usize::from(dfmt), usize::from(nfmt));
        hits.hit(Point::Format as usize, usize::from(PAIR[d][n]));
        for (k, f) in FIELDS[d].iter().enumerate() {
            let c = (input.components >> (32 * k)) as u32;
            let field = (out.data >> f.offset) as u32 & (u32::MAX >> (32 - f.width));
            hits.hit(Point::Value as usize, usize::from(BASE[d][n][k]) + classify(c, field, f.width, nfmt));
        }
    }
}

impl crate::cover::Covered for FormatPack {
    fn covergroup() -> crate::cover::Covergroup {
        cover::covergroup()
    }
    fn sample(input: &In, out: &Out, hits: &mut crate::cover::Hits) {
        cover::sample(input, out, hits);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{element_bytes, sign_extend, NFMT_RESERVED};
    use crate::format_unpack;
    use crate::unit::Ports;
    use proptest::prelude::*;

    fn pack(dfmt: u8, nfmt: u8, components: [u32; 4]) -> Out {
        let components = components.iter().enumerate().fold(0u128, |acc, (k, &c)| acc | u128::from(c) << (32 * k));
        compute(&In { valid: true, dfmt, nfmt, components })
    }

    fn pack1(dfmt: u8, nfmt: u8, x: f32) -> u128 {
        pack(dfmt, nfmt, [x.to_bits(), 0, 0, 0]).data
    }

    const NAN: u32 = 0x7fc0_0000;
    const NEG_NAN: u32 = 0xffc0_0001;
    const INF: u32 = 0x7f80_0000;
    const NEG_INF: u32 = 0xff80_0000;

    #[test]
    fn port_tables_match_the_rtl() {
        let names =
            |s: &[crate::unit::Signal]| -> Vec<(&'static str, u32)> { s.iter().map(|s| (s.name, s.width)).collect() };
        assert_eq!(names(In::SIGNALS), [("valid", 1), ("dfmt", 4), ("nfmt", 3), ("components", 128)]);
        assert_eq!(names(Out::SIGNALS), [("valid", 1), ("data", 128), ("fmt_valid", 1)]);
    }

    /// unorm8: 0.5 × 255 = 127.5, a tie → even 128 = 0x80; 1.0 → 0xff; 2.0 clamps to 0xff;
    /// −1.0 clamps to 0; NaN → 0; 1/255 rounded (0x3b80_8081, just above 1/255) × 255 = 1.0000…
    /// → 1. 0.501 × 255 = 127.755 → 128; 0.499 × 255 = 127.245 → 127.
    #[test]
    fn unorm8() {
        assert_eq!(pack1(1, NFMT_UNORM, 0.5), 0x80);
        assert_eq!(pack1(1, NFMT_UNORM, 1.0), 0xff);
        assert_eq!(pack1(1, NFMT_UNORM, 2.0), 0xff);
        assert_eq!(pack1(1, NFMT_UNORM, -1.0), 0);
        assert_eq!(pack(1, NFMT_UNORM, [NAN, 0, 0, 0]).data, 0);
        assert_eq!(pack(1, NFMT_UNORM, [INF, 0, 0, 0]).data, 0xff);
        assert_eq!(pack(1, NFMT_UNORM, [0x3b80_8081, 0, 0, 0]).data, 1);
        assert_eq!(pack1(1, NFMT_UNORM, 0.501), 128);
        assert_eq!(pack1(1, NFMT_UNORM, 0.499), 127);
        // 8_8_8_8: X = 0 → 0x00, Y = 1 → 0xff, Z = 0.5 → 0x80, W = 0.25 × 255 = 63.75 → 0x40.
        let o = pack(10, NFMT_UNORM, [0, 0x3f80_0000, 0x3f00_0000, 0x3e80_0000]);
        assert_eq!((o.data, o.fmt_valid), (0x4080_ff00, true));
        // unorm2 (dfmt 8's X) and unorm10 (its Y): 0.5 × 3 = 1.5 → 2; 0.5 × 1023 = 511.5 → 512.
        let o = pack(8, NFMT_UNORM, [0x3f00_0000, 0x3f00_0000, 0, 0]);
        assert_eq!(o.data, 0b10 | 512 << 2);
    }

    /// The product is rounded once, exactly: x = 0x3eea_63ea = 0xea63ea × 2^−25 = 15361002 × 2^−25;
    /// x × 65535 = 1006683266070 × 2^−25 = 30001 + 16751638 × 2^−25, and 16751638 < 2^24 (half):
    /// 30001.49923… → 30001 = 0x7531. An f32 multiply would first round the product to 30001.5
    /// (its ulp there is 2^−9) and then tie to the even 30002. And true ties: 0.5 × 65535 =
    /// 32767.5 → even 32768; 0.75 × 65535 = 49151.25 → 49151.
    #[test]
    fn unorm16_single_rounding() {
        assert_eq!(pack(2, NFMT_UNORM, [0x3eea_63ea, 0, 0, 0]).data, 0x7531);
        assert_eq!(pack1(2, NFMT_UNORM, 0.5), 0x8000);
        assert_eq!(pack1(2, NFMT_UNORM, 0.75), 0xbfff);
    }

    /// snorm8: −1.0 → −127 = 0x81 (never −128); 0.5 × 127 = 63.5 → even 64 = 0x40; −0.5 → −64 =
    /// 0xc0; −2.0 and −inf clamp to 0x81; NaN → 0; snorm16 1.0 → 0x7fff.
    #[test]
    fn snorm() {
        assert_eq!(pack1(1, NFMT_SNORM, -1.0), 0x81);
        assert_eq!(pack1(1, NFMT_SNORM, 0.5), 0x40);
        assert_eq!(pack1(1, NFMT_SNORM, -0.5), 0xc0);
        assert_eq!(pack1(1, NFMT_SNORM, -2.0), 0x81);
        assert_eq!(pack(1, NFMT_SNORM, [NEG_NAN, 0, 0, 0]).data, 0);
        assert_eq!(pack(1, NFMT_SNORM, [NEG_INF, 0, 0, 0]).data, 0x81);
        assert_eq!(pack1(2, NFMT_SNORM, 1.0), 0x7fff);
        // −0.0 → 0 (not a field of ones).
        assert_eq!(pack1(2, NFMT_SNORM, -0.0), 0);
        // snorm2 (dfmt 9's W, bits 31:30): −1.0 → −1 = 0b11.
        assert_eq!(pack(9, NFMT_SNORM, [0, 0, 0, 0xbf80_0000]).data, 0b11 << 30);
    }

    /// Scaled: truncation toward zero, then saturation; NaN → 0; ±inf saturate.
    #[test]
    fn scaled() {
        assert_eq!(pack1(1, NFMT_USCALED, 254.9), 254);
        assert_eq!(pack1(1, NFMT_USCALED, 300.7), 255);
        assert_eq!(pack1(1, NFMT_USCALED, -3.9), 0);
        assert_eq!(pack(1, NFMT_USCALED, [INF, 0, 0, 0]).data, 255);
        assert_eq!(pack(1, NFMT_USCALED, [NAN, 0, 0, 0]).data, 0);
        assert_eq!(pack1(1, NFMT_SSCALED, -3.9), 0xfd);
        assert_eq!(pack1(1, NFMT_SSCALED, 3.9), 0x03);
        assert_eq!(pack1(1, NFMT_SSCALED, -1000.0), 0x80);
        assert_eq!(pack1(1, NFMT_SSCALED, 1000.0), 0x7f);
        assert_eq!(pack(2, NFMT_SSCALED, [NEG_INF, 0, 0, 0]).data, 0x8000);
        assert_eq!(pack(2, NFMT_SSCALED, [NEG_NAN, 0, 0, 0]).data, 0);
        // 10-bit sscaled (dfmt 9 Y, bits 19:10): −512.5 → −512 = 0x200.
        assert_eq!(pack(9, NFMT_SSCALED, [0, (-512.5f32).to_bits(), 0, 0]).data, 0x200 << 10);
    }

    /// Integer: the low w bits, whatever the sign.
    #[test]
    fn integer() {
        assert_eq!(pack(3, NFMT_UINT, [0x1234_5678, 0xffff_ff80, 0, 0]).data, 0x8078);
        assert_eq!(pack(3, NFMT_SINT, [0x1234_5678, 0xffff_ff80, 0, 0]).data, 0x8078);
        // dfmt 8: X[1:0] = 3 & 0b11, Y[11:2] = 0x7ff & 0x3ff.
        assert_eq!(pack(8, NFMT_UINT, [3, 0x7ff, 0, 0]).data, 0b11 | 0x3ff << 2);
    }

    /// Float: f16 pair; f11/f10 with negative → 0 and −NaN kept.
    #[test]
    fn float() {
        // 1.0 → 0x3c00; 65520 ties to infinity 0x7c00.
        assert_eq!(pack(5, NFMT_FLOAT, [0x3f80_0000, 0x477f_f000, 0, 0]).data, 0x7c00_3c00);
        // dfmt 6: X f11(1.0) = 0x3c0, Y f11(−1.0) = 0, Z f10(−NaN 0xffc0_0001) = 0x3f0.
        let o = pack(6, NFMT_FLOAT, [0x3f80_0000, 0xbf80_0000, NEG_NAN, 0]);
        assert_eq!(o.data, 0x3c0 | 0x3f0 << 22);
        // dfmt 7: X f10(inf) = 0x3e0, Y f11(1.0) = 0x3c0, Z f11(NaN payload 0x40_0000) = 0x7e0.
        let o = pack(7, NFMT_FLOAT, [INF, 0x3f80_0000, NAN, 0]);
        assert_eq!(o.data, 0x3e0 | 0x3c0 << 10 | 0x7e0 << 21);
    }

    /// 32-bit fields are raw; data above the element is 0; invalid pairs give 0.
    #[test]
    fn raw_and_invalid() {
        let c = [0x7fc0_0001, 0x8000_0000, 0xffff_ffff, 0x1234_5678];
        for nfmt in [0, 1, 2, 3, 4, 5, 7] {
            assert_eq!(pack(11, nfmt, c).data, 0x8000_0000_7fc0_0001);
            assert_eq!(pack(14, nfmt, c).data, 0x1234_5678_ffff_ffff_8000_0000_7fc0_0001);
        }
        for (dfmt, nfmt) in [(0, 0), (15, 4), (2, NFMT_RESERVED), (3, NFMT_FLOAT), (9, NFMT_FLOAT)] {
            assert_eq!(pack(dfmt, nfmt, c), Out { valid: true, ..Out::default() }, "dfmt {dfmt} nfmt {nfmt}");
        }
    }

    /// Call j's valid input comes back from call j + 1; valid shifts every edge; data hold.
    #[test]
    fn timing() {
        let mut m = FormatPack::new();
        let a = In { valid: true, dfmt: 1, nfmt: NFMT_UINT, components: 0x5a };
        let junk = In { valid: false, dfmt: 4, nfmt: 4, components: 0x77 };
        assert_eq!(m.step(&a), Out::default());
        let first = m.step(&junk);
        assert_eq!(first, Out { valid: true, data: 0x5a, fmt_valid: true });
        for _ in 0..3 {
            assert_eq!(m.step(&junk), Out { valid: false, ..first });
        }
        let b = In { components: 0x5b, ..a };
        m.step(&a);
        assert_eq!(m.step(&b).data, 0x5a);
        assert_eq!(m.step(&junk), Out { valid: true, data: 0x5b, fmt_valid: true });
        m.step(&a);
        m.reset();
        assert_eq!(m.step(&junk), Out::default());
        assert_eq!(m.step(&junk), Out::default());
    }

    /// What pack(unpack(x)) gives back: x itself, except that a snorm field's most negative code
    /// unpacks to −1.0 and so packs to the code one above (−(2^(w−1) − 1)).
    fn round_trip_expect(dfmt: u8, nfmt: u8, data: u128) -> u128 {
        let mut expect = 0u128;
        for field in fields(dfmt) {
            let mut code = (data >> field.offset) as u32 & low_mask(field.width);
            if nfmt == NFMT_SNORM && field.width < 32 && code == 1 << (field.width - 1) {
                code += 1;
            }
            expect |= u128::from(code) << field.offset;
        }
        expect
    }

    fn round_trip(dfmt: u8, nfmt: u8, data: u128) -> u128 {
        let u = format_unpack::compute(&format_unpack::In { valid: true, dfmt, nfmt, data });
        compute(&In { valid: true, dfmt, nfmt, components: u.components }).data
    }

    /// Every 8- and 16-bit element (dfmt 1, 2, 3) of every valid nfmt survives unpack then pack
    /// (unorm: |f − v/d| <= half an f32 ulp, so |f × d − v| <= d × 2^−25 < 1/2; snorm likewise;
    /// scaled and integer exactly; float by the exact widening).
    #[test]
    fn pack_inverts_unpack_for_every_small_element() {
        for dfmt in [1u8, 2, 3] {
            for nfmt in 0..8u8 {
                if !format_valid(dfmt, nfmt) {
                    continue;
                }
                for data in 0..1u128 << (8 * element_bytes(dfmt)) {
                    assert_eq!(
                        round_trip(dfmt, nfmt, data),
                        round_trip_expect(dfmt, nfmt, data),
                        "{dfmt} {nfmt} {data:#x}"
                    );
                }
            }
        }
    }

    /// Every snorm code of width w maps back to itself through the f32 (symmetry check of the
    /// sign handling): −v packs to the negation of v's code.
    #[test]
    fn snorm_is_symmetric() {
        for s in 1..128u32 {
            let pos = pack1(1, NFMT_SNORM, f32::from_bits(format_unpack::unpack_field(s, 8, NFMT_SNORM))) as u32;
            let neg = pack1(1, NFMT_SNORM, -f32::from_bits(format_unpack::unpack_field(s, 8, NFMT_SNORM))) as u32;
            assert_eq!((pos, sign_extend(neg, 8)), (s, -(s as i32)));
        }
    }

    /// f32 patterns with |x| in [2^−27, 2^1): the range where unorm/snorm rounding happens.
    fn near_one() -> impl Strategy<Value = u32> {
        (any::<bool>(), 100u32..128, 0u32..1 << 23).prop_map(|(s, e, m)| u32::from(s) << 31 | e << 23 | m)
    }

    proptest! {
        /// pack(unpack(x)) == x (snorm's most negative code excepted) for every valid format.
        #[test]
        fn pack_inverts_unpack(dfmt in 0u8..16, nfmt in 0u8..8, data in any::<u128>()) {
            let bits = 8 * element_bytes(dfmt);
            let data = if bits == 128 { data } else { data & ((1u128 << bits) - 1) };
            if format_valid(dfmt, nfmt) {
                prop_assert_eq!(round_trip(dfmt, nfmt, data), round_trip_expect(dfmt, nfmt, data));
            } else {
                prop_assert_eq!(round_trip(dfmt, nfmt, data), 0);
            }
        }

        /// unorm/snorm pack is the nearest code, ties to even, computed independently in exact
        /// integer arithmetic on the f32's significand: x = m × 2^(e − 150), so x × d in units of
        /// 2^−43 is m × d × 2^(e − 107) (exact for e >= 107, i.e. |x| >= 2^−20; below that
        /// |x × d| < 2^−4 packs to 0).
        #[test]
        fn norm_pack_is_nearest(bits in prop_oneof![any::<u32>(), near_one()], field in 0usize..5, signed in any::<bool>()) {
            // (width, dfmt whose X field has that width).
            let (w, dfmt) = [(2u32, 8u8), (8, 1), (10, 7), (11, 6), (16, 2)][field];
            let nfmt = if signed { NFMT_SNORM } else { NFMT_UNORM };
            let got = pack(dfmt, nfmt, [bits, 0, 0, 0]).data as u32;
            let x = f32::from_bits(bits);
            let d: i128 = if signed { (1 << (w - 1)) - 1 } else { (1 << w) - 1 };
            let lowest = if signed { -1.0 } else { 0.0 };
            let e = ((bits >> 23) & 0xff) as i32;
            let expect: i128 = if x.is_nan() || (x < 1.0 && x > -1.0 && e < 107) {
                0
            } else if x >= 1.0 {
                d
            } else if x <= lowest {
                -d * i128::from(signed)
            } else {
                let m = i128::from(bits & 0x7f_ffff | 0x80_0000);
                let scaled = (m * d) << (e - 107);
                let (q, r, half) = (scaled >> 43, scaled & ((1 << 43) - 1), 1i128 << 42);
                let q = if r > half || (r == half && q & 1 == 1) { q + 1 } else { q };
                if x < 0.0 { -q } else { q }
            };
            prop_assert_eq!(got, (expect as i32 as u32) & low_mask(w), "{:#x} w {} signed {}", bits, w, signed);
        }
    }
}
