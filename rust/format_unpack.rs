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
    fields, format_valid, low_mask, sign_extend, NFMT_FLOAT, NFMT_SINT, NFMT_SNORM, NFMT_SSCALED, NFMT_UINT,
    NFMT_UNORM, NFMT_USCALED,
};
use crate::ports;
use crate::unit::{Kind, Pipeline, Unit};

ports! {
    /// Inputs of `format_unpack`, in RTL port order. `data`: the element, bit k = element bit k
    /// (bits above the element's size are ignored).
    pub struct In {
        valid: bool = 1, Kind::Bool;
        dfmt: u8 = 4, Kind::Int;
        nfmt: u8 = 3, Kind::Int;
        data: u128 = 128, Kind::Hex;
    }
}
ports! {
    /// Outputs of `format_unpack`, in RTL port order. `components`: component k (X, Y, Z, W) at
    /// bits 32k+31:32k, 0 beyond `count`; `count`: the format's component count, 0 when invalid;
    /// `fmt_valid`: format_valid(dfmt, nfmt).
    pub struct Out {
        valid: bool = 1, Kind::Bool;
        components: u128 = 128, Kind::List { width: 32, len: 4 };
        count: u8 = 3, Kind::Int;
        fmt_valid: bool = 1, Kind::Bool;
    }
}

/// The combinational function of SPEC §5's unpack; `valid` is passed through.
pub fn compute(input: &In) -> Out {
    let (dfmt, nfmt) = (input.dfmt & 0xf, input.nfmt & 0x7);
    // §1.4: an invalid pair unpacks to nothing (four 0 components, count 0).
    if !format_valid(dfmt, nfmt) {
        return Out { valid: input.valid, ..Out::default() };
    }
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

/// The cycle-accurate model: two register stages, compute before stage 1.
#[derive(Clone, Debug, Default)]
pub struct FormatUnpack {
    /// Stage 1 and the output stage, each holding the last valid result to reach it.
    pipe: Pipeline<Out, 2>,
}

impl FormatUnpack {
    /// A model just out of reset.
    pub fn new() -> Self {
        Self::default()
    }
}

impl Unit for FormatUnpack {
    const NAME: &'static str = "format_unpack";
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
/// - `format`: every pair format_valid accepts (93: dfmt 1–14 under the seven non-reserved
///   nfmts, less float on dfmt 1, 3, 8, 9, 10).
/// - `illegal`: each way a pair is refused, per dfmt (dfmt 0, dfmt 15, nfmt 6 on dfmt 1–14,
///   float on a format with an 8- or 2-bit field).
/// - `junk`: data bits set above the element, per element size (they must be ignored).
/// - `value`: per valid pair, per component, the value classes of that component's field
///   under that nfmt ([`classes`]): only classes a field of that width can hold are declared
///   (a 2-bit snorm field has no "other positive" code).
pub mod cover {
    use super::{In, Out};
    use crate::cover::{Covergroup, Hits};
    use crate::format::{
        format_valid, FIELDS, NFMT_FLOAT, NFMT_SINT, NFMT_SNORM, NFMT_SSCALED, NFMT_UINT, NFMT_UNORM, NFMT_USCALED,
    };

    /// The coverpoints, in declaration order.
    #[repr(usize)]
    enum Point {
        Format,
        Illegal,
        Junk,
        Value,
    }

    /// dfmt names of SPEC §1.4.
    pub const DFMT: [&str; 16] = [
        "INVALID",
        "8",
        "16",
        "8_8",
        "32",
        "16_16",
        "10_11_11",
        "11_11_10",
        "10_10_10_2",
        "2_10_10_10",
        "8_8_8_8",
        "32_32",
        "16_16_16_16",
        "32_32_32",
        "32_32_32_32",
        "reserved 15",
    ];
    /// nfmt names of SPEC §1.4.
    pub const NFMT: [&str; 8] = ["unorm", "snorm", "uscaled", "sscaled", "uint", "sint", "reserved 6", "float"];
    /// Component names.
    pub const COMPONENT: [&str; 4] = ["X", "Y", "Z", "W"];

    /// 32-bit fields: raw copies whatever the nfmt.
    pub const RAW32: &[&str] = &["zero", "all ones", "NaN pattern (copied raw)", "other"];
    pub const UNORM: &[&str] = &["0 -> 0.0", "max code -> 1.0", "between"];
    pub const SNORM: &[&str] = &[
        "0",
        "max positive -> 1.0",
        "other positive",
        "most negative -> -1.0 (clamped)",
        "-max -> -1.0",
        "other negative",
    ];
    /// snorm on a 2-bit field (codes 0, 1, -2, -1): no "other" codes.
    pub const SNORM2: &[&str] = &["0", "max positive -> 1.0", "most negative -> -1.0 (clamped)", "-max -> -1.0"];
    pub const USCALED: &[&str] = &["0", "max code", "between"];
    pub const SIGNED: &[&str] = &["0", "max positive", "other positive", "most negative", "-1", "other negative"];
    /// sscaled/sint on a 2-bit field (codes 0, 1, -2, -1).
    pub const SIGNED2: &[&str] = &["0", "max positive", "most negative", "-1"];
    pub const UINT: &[&str] = &["0", "msb 0", "msb 1 (zero-extended)", "all ones"];
    pub const F16: &[&str] = &[
        "+0",
        "-0",
        "+denormal",
        "-denormal",
        "+normal",
        "-normal",
        "+-max finite",
        "+inf",
        "-inf",
        "+quiet NaN",
        "-quiet NaN",
        "signalling NaN",
    ];
    /// f11 and f10 (no sign bit).
    pub const F11: &[&str] = &["0", "denormal", "normal", "max finite", "inf", "quiet NaN", "signalling NaN"];

    /// The value classes of a field of `width` bits under a valid `nfmt`.
    pub const fn classes(width: u32, nfmt: u8) -> &'static [&'static str] {
        if width == 32 {
            return RAW32;
        }
        match nfmt {
            NFMT_UNORM => UNORM,
            NFMT_SNORM if width == 2 => SNORM2,
            NFMT_SNORM => SNORM,
            NFMT_USCALED => USCALED,
            NFMT_SSCALED | NFMT_SINT if width == 2 => SIGNED2,
            NFMT_SSCALED | NFMT_SINT => SIGNED,
            NFMT_UINT => UINT,
            NFMT_FLOAT if width == 16 => F16,
            _ => F11,
        }
    }

    /// format_valid as a const fn over the port values (SPEC §1.4), for the bin tables (also
    /// format_pack's: the pairs are the same both ways).
    pub(crate) const fn valid(dfmt: usize, nfmt: usize) -> bool {
        if dfmt == 0 || dfmt == 15 || nfmt == 6 {
            return false;
        }
        nfmt != 7 || !matches!(dfmt, 1 | 3 | 8 | 9 | 10)
    }

    /// The first `value` bin of (dfmt, nfmt, component), and the total in [`VALUE_BINS`];
    /// also the index of each valid pair in `format`.
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

    /// The `illegal` bin of an invalid pair: dfmt 0, dfmt 15, then nfmt 6 on dfmt 1–14, then
    /// float on dfmt 1, 3, 8, 9, 10.
    pub(crate) fn illegal_bin(dfmt: u8, nfmt: u8) -> usize {
        match (dfmt, nfmt) {
            (0, _) => 0,
            (15, _) => 1,
            (d, 6) => 1 + usize::from(d),
            (d, _) => 16 + [1, 3, 8, 9, 10].iter().position(|&x| x == d).unwrap_or(0),
        }
    }

    /// The names of the `illegal` bins, in [`illegal_bin`]'s order.
    pub(crate) fn illegal_bins() -> Vec<String> {
        let mut illegal = vec!["0:INVALID (any nfmt)".to_string(), "15:reserved (any nfmt)".to_string()];
        illegal.extend((1..15).map(|d| format!("{}/reserved 6", DFMT[d])));
        illegal.extend([1, 3, 8, 9, 10].map(|d| format!("{}/float (a field not 32, 16, 11 or 10 bits)", DFMT[d])));
        illegal
    }

    pub fn covergroup() -> Covergroup {
        let pairs = (0..16).flat_map(|d| (0..8).filter(move |&n| valid(d, n)).map(move |n| (d, n)));
        let format = pairs.clone().map(|(d, n)| format!("{}/{}", DFMT[d], NFMT[n]));
        let illegal = illegal_bins();
        let junk = ["1-byte", "2-byte", "4-byte", "8-byte", "12-byte"].map(|b| format!("bits above a {b} element"));
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
            .point(Point::Junk as usize, "junk", junk)
            .point(Point::Value as usize, "value", value)
    }

    /// Signed codes of `width` bits: index into [`SIGNED`] (or [`SNORM`], whose fifth class is
    /// −max rather than −1).
    #[inline]
    fn signed(raw: u32, width: u32, nfmt: u8) -> usize {
        let msb = 1u32 << (width - 1);
        let max = msb - 1;
        let ones = (msb << 1).wrapping_sub(1);
        let special = if nfmt == NFMT_SNORM { msb + 1 } else { ones };
        let full = if raw == 0 {
            0
        } else if raw == max {
            1
        } else if raw < msb {
            2
        } else if raw == msb {
            3
        } else if raw == special {
            4
        } else {
            5
        };
        if width == 2 {
            // 0, 1, 2 (most negative), 3 (−1 = −max): the full list less "other" classes.
            [0, 1, 1, 2, 3, 3][full]
        } else {
            full
        }
    }

    /// The class of a field's raw bits (an index into [`classes`]`(width, nfmt)`).
    #[inline]
    pub fn classify(raw: u32, width: u32, nfmt: u8) -> usize {
        if width == 32 {
            return match raw {
                0 => 0,
                u32::MAX => 1,
                r if r & 0x7f80_0000 == 0x7f80_0000 && r & 0x007f_ffff != 0 => 2,
                _ => 3,
            };
        }
        let ones = u32::MAX >> (32 - width);
        match nfmt {
            NFMT_UNORM | NFMT_USCALED => match raw {
                0 => 0,
                r if r == ones => 1,
                _ => 2,
            },
            NFMT_SNORM | NFMT_SSCALED | NFMT_SINT => signed(raw, width, nfmt),
            NFMT_UINT => match raw {
                0 => 0,
                r if r == ones => 3,
                r => 1 + (r >> (width - 1)) as usize,
            },
            _ if width == 16 => {
                let sign = (raw >> 15) as usize;
                match ((raw >> 10) & 0x1f, raw & 0x3ff) {
                    (0, 0) => sign,
                    (0, _) => 2 + sign,
                    (0x1f, 0) => 7 + sign,
                    (0x1f, m) if m & 0x200 != 0 => 9 + sign,
                    (0x1f, _) => 11,
                    (0x1e, 0x3ff) => 6,
                    _ => 4 + sign,
                }
            }
            _ => {
                // f11: 5-bit exponent over a 6-bit mantissa; f10: over a 5-bit one.
                let mbits = width - 5;
                let (e, m) = (raw >> mbits, raw & ((1 << mbits) - 1));
                let quiet = 1 << (mbits - 1);
                match (e, m) {
                    (0, 0) => 0,
                    (0, _) => 1,
                    (0x1f, 0) => 4,
                    (0x1f, m) if m & quiet != 0 => 5,
                    (0x1f, _) => 6,
                    (0x1e, m) if m == (1 << mbits) - 1 => 3,
                    _ => 2,
                }
            }
        }
    }

    #[inline]
    pub fn sample(input: &In, _out: &Out, hits: &mut Hits) {
        let (dfmt, nfmt) = (input.dfmt & 0xf, input.nfmt & 0x7);
        if !format_valid(dfmt, nfmt) {
            hits.hit(Point::Illegal as usize, illegal_bin(dfmt, nfmt));
            return;
        }
        let (d, n) = (usize::from(dfmt), usize::from(nfmt));
        hits.hit(Point::Format as usize, usize::from(PAIR[d][n]));
        let bytes = crate::format::element_bytes(dfmt);
        if bytes < 16 && input.data >> (8 * bytes) != 0 {
            let size = match bytes {
                1 => 0,
                2 => 1,
                4 => 2,
                8 => 3,
                _ => 4,
            };
            hits.hit(Point::Junk as usize, size);
        }
        for (k, f) in FIELDS[d].iter().enumerate() {
            let raw = (input.data >> f.offset) as u32 & (u32::MAX >> (32 - f.width));
            hits.hit(Point::Value as usize, usize::from(BASE[d][n][k]) + classify(raw, f.width, nfmt));
        }
    }
}

impl crate::cover::Covered for FormatUnpack {
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
    use crate::format::{element_bytes, NFMT_RESERVED};
    use crate::unit::Ports;
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
        let names =
            |s: &[crate::unit::Signal]| -> Vec<(&'static str, u32)> { s.iter().map(|s| (s.name, s.width)).collect() };
        assert_eq!(names(In::SIGNALS), [("valid", 1), ("dfmt", 4), ("nfmt", 3), ("data", 128)]);
        assert_eq!(names(Out::SIGNALS), [("valid", 1), ("components", 128), ("count", 3), ("fmt_valid", 1)]);
    }

    /// unorm8: code 3 → 3/255 = 0x3c40_c0c1 (SPEC §5's example; see float.rs for the binary
    /// expansion); 255 → 1.0; 0 → 0; 128 → 128/255 = 0x3f00_8081 (checked with Python's
    /// correctly rounded float division then f32 packing, exact here: see float.rs' test
    /// `ratio_is_nearest_for_every_unorm_code`).
    #[test]
    fn unorm8() {
        let o = unpack(10, NFMT_UNORM, 0x0080_ff03);
        assert_eq!((c(&o, 0), c(&o, 1), c(&o, 2), c(&o, 3)), (0x3c40_c0c1, 0x3f80_0000, 0x3f00_8081, 0));
        assert_eq!((o.count, o.fmt_valid), (4, true));
    }

    /// unorm2 (dfmt 8's X): codes 0..3 → 0, 1/3, 2/3, 1. 1/3 = 0.010101…₂ = 2^−2 × 1.0101…:
    /// fraction 0x2aaaaa, next bits 1010… > half → 0x2aaaab, exponent 125: 0x3eaa_aaab.
    /// 2/3 = 0x3f2a_aaab likewise. dfmt 8 = X[1:0] Y[11:2] Z[21:12] W[31:22]: data 0x1 | 0x3ff << 2
    /// gives X = 1/3, Y = 1.0 (unorm10 1023).
    #[test]
    fn unorm2_and_10() {
        let o = unpack(8, NFMT_UNORM, 0x1 | 0x3ff << 2);
        assert_eq!((c(&o, 0), c(&o, 1), c(&o, 2), c(&o, 3)), (0x3eaa_aaab, 0x3f80_0000, 0, 0));
        let o = unpack(8, NFMT_UNORM, 0x2);
        assert_eq!(c(&o, 0), 0x3f2a_aaab);
        assert_eq!(o.count, 4);
    }

    /// snorm8: 127 → 1.0; −127 (0x81) and −128 (0x80) → −1.0; 1 → 1/127 = 0x3c01_0204; −1 (0xff)
    /// → 0xbc01_0204. snorm2 (dfmt 9's W, bits 31:30): 0b10 = −2 → −1.0, 0b01 → 1.0.
    #[test]
    fn snorm() {
        let o = unpack(10, NFMT_SNORM, 0x7f_81_80_01);
        assert_eq!((c(&o, 0), c(&o, 1), c(&o, 2), c(&o, 3)), (0x3c01_0204, 0xbf80_0000, 0xbf80_0000, 0x3f80_0000));
        let o = unpack(3, NFMT_SNORM, 0x00ff);
        assert_eq!((c(&o, 0), c(&o, 1), o.count), (0xbc01_0204, 0, 2));
        assert_eq!(c(&unpack(9, NFMT_SNORM, 0b10 << 30), 3), 0xbf80_0000);
        assert_eq!(c(&unpack(9, NFMT_SNORM, 0b01 << 30), 3), 0x3f80_0000);
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
        assert_eq!((c(&o, 0), c(&o, 1), o.count), (0x3f80_0000, 0xff80_0000, 2));
        let o = unpack(6, NFMT_FLOAT, 0x3c0 | 0x7c1 << 11 | 0x1e0 << 22);
        assert_eq!((c(&o, 0), c(&o, 1), c(&o, 2)), (0x3f80_0000, 0x7f82_0000, 0x3f80_0000));
        // dfmt 7: X f10, Y f11, Z f11.
        let o = unpack(7, NFMT_FLOAT, 0x1e0 | 0x3c0 << 10 | 0x7c0 << 21);
        assert_eq!((c(&o, 0), c(&o, 1), c(&o, 2)), (0x3f80_0000, 0x3f80_0000, 0x7f80_0000));
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
        let mut m = FormatUnpack::new();
        let a = In { valid: true, dfmt: 1, nfmt: NFMT_UINT, data: 0x5a };
        let junk = In { valid: false, dfmt: 4, nfmt: 4, data: 0x77 };
        assert_eq!(m.step(&a), Out::default());
        let first = m.step(&junk);
        assert_eq!(first, Out { valid: true, components: 0x5a, count: 1, fmt_valid: true });
        for _ in 0..3 {
            assert_eq!(m.step(&junk), Out { valid: false, ..first });
        }
        // Back to back: one result per cycle.
        let b = In { data: 0x5b, ..a };
        m.step(&a);
        assert_eq!(m.step(&b).components, 0x5a);
        assert_eq!(m.step(&junk), Out { valid: true, components: 0x5b, count: 1, fmt_valid: true });
        // Reset clears both stages.
        m.step(&a);
        m.reset();
        assert_eq!(m.step(&junk), Out::default());
        assert_eq!(m.step(&junk), Out::default());
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
            let mut m = FormatUnpack::new();
            let mut expect = Out::default();
            for &(valid, dfmt, nfmt, data) in &inputs {
                let i = In { valid, dfmt, nfmt, data };
                prop_assert_eq!(m.step(&i), expect);
                expect = if valid { compute(&i) } else { Out { valid: false, ..expect } };
            }
        }
    }
}
