//! Functional coverage (rust/cover.rs): the bins `make cosim` must hit, from SPEC §1.4 and §5.
//!
//! - `format`, `illegal`: as format_unpack's (the same pairs and refusals).
//! - `value`: per valid pair, per component the format has, the class of the component under
//!   the field's rule ([`classes`]): NaN, infinities, clamping and saturation, the rounding
//!   direction and ties of unorm/snorm, truncation of the scaled nfmts, integers wider than the
//!   field, and for float the f16/f11/f10 results (denormal, underflow, overflow, ties, NaN
//!   payloads). Only classes a field of that width can receive are declared: the only
//!   unorm/snorm ties are ±0.5 (2^w − 1 and 2^(w−1) − 1 are odd, so v · max is a half-integer
//!   only for v = ±0.5), and a 2-bit sscaled/sint field has no positive value besides its max.

use super::{In, Out};
use crate::cover::{Covergroup, Hits};
use crate::format::{FIELDS, NFMT_FLOAT, NFMT_SINT, NFMT_SNORM, NFMT_SSCALED, NFMT_UINT, NFMT_UNORM, NFMT_USCALED};
use crate::format_unpack::cover::{format_tables, hit_pair, illegal_bins, pair_and_value_bins, raw32_class, Tables};

/// The coverpoints, in declaration order.
#[repr(usize)]
enum Point {
    Format,
    Illegal,
    Value,
}
// `hit_pair` counts the first two points by format_unpack's numbering: the same.
const _: () = assert!(Point::Format as usize == 0 && Point::Illegal as usize == 1);

/// 32-bit fields: raw copies whatever the nfmt (the classes of format_unpack's).
pub use crate::format_unpack::cover::RAW32;
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
const SSCALED_ALL: [&str; 12] = [
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
pub const SSCALED: &[&str] = &SSCALED_ALL;
/// sscaled on a 2-bit field (range −2..1): SSCALED less "positive integer" (none besides the max).
pub const SSCALED2: &[&str] = &without::<12, 11>(SSCALED_ALL, 7);
pub const UINT: &[&str] = &["0", "fits", "max (all ones)", "wider: upper bits dropped"];
const SINT_ALL: [&str; 6] =
    ["0", "fits, positive", "fits, negative", "max positive", "most negative", "wider: upper bits dropped"];
pub const SINT: &[&str] = &SINT_ALL;
/// sint on a 2-bit field (−2..1): SINT less "fits, positive" (no positive value besides the max).
pub const SINT2: &[&str] = &without::<6, 5>(SINT_ALL, 1);
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

/// `classes` less entry `skip`: a 2-bit field's classes are the wider field's but for one it
/// cannot receive.
const fn without<const N: usize, const M: usize>(classes: [&'static str; N], skip: usize) -> [&'static str; M] {
    assert!(M + 1 == N && skip < N);
    let mut out = [""; M];
    let mut i = 0;
    while i < M {
        out[i] = classes[if i < skip { i } else { i + 1 }];
        i += 1;
    }
    out
}

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

const TABLES: Tables = format_tables!(classes);
const BASE: [[[u16; 4]; 8]; 16] = TABLES.base;
/// Bins of the `value` point.
pub const VALUE_BINS: usize = TABLES.bins;

pub fn covergroup() -> Covergroup {
    let (format, value) = pair_and_value_bins(classes);
    Covergroup::new()
        .point(Point::Format as usize, "format", format)
        .point(Point::Illegal as usize, "illegal (fmt_valid = 0)", illegal_bins())
        .point(Point::Value as usize, "value", value)
}

/// `a` when `cond` holds, else `b`, as a conditional move: the classifiers below test the random
/// stimulus's values, on which a branch is mispredicted about as often as it is taken. Each
/// classifier states its cases in the order they take precedence, the first that holds giving
/// the class, and evaluates them as a chain of these from the last case up.
#[inline(always)]
fn sel(cond: bool, a: usize, b: usize) -> usize {
    std::hint::select_unpredictable(cond, a, b)
}

/// Whether narrowing the finite nonzero f32 `c` to a float of `p` mantissa bits (5-bit
/// exponent, bias 15, denormals below 2^−14) drops exactly half a unit in the last place.
#[inline]
fn tie(c: u32, p: u32) -> bool {
    let exp = ((c >> 23) & 0xff) as i32 - 127;
    // Bits of the 24-bit significand below the target's last place (1..=24 where it matters).
    let shift = (23 - p as i32 + (-14 - exp).max(0)).clamp(1, 25) as u32;
    let sig = u64::from((c & 0x007f_ffff) | 0x0080_0000);
    let below = sig & ((1u64 << shift) - 1) == 1u64 << (shift - 1);
    // An f32 zero or denormal (exponent field 0) and a shift past the significand are no tie.
    (exp != -127) & (shift <= 24) & below
}

/// `down` when the positive product `x` (below 2^16) rounds down to nearest, `down + 1` when
/// it rounds up (the fraction by a truncating conversion: no libm `floor` on the hot path).
/// Outside that range (a case a later one overrides) the answer is meaningless but defined.
#[inline]
fn rounds_up(x: f64, down: usize) -> usize {
    down + usize::from(x - (x as u32) as f64 >= 0.5)
}

/// The class of a float-like component `v` under unorm (`snorm` false) or snorm, for a
/// field of `max` = 2^w − 1 or 2^(w−1) − 1.
#[inline]
fn norm(c: u32, max: f64, snorm: bool) -> usize {
    let v = f32::from_bits(c);
    let (nan, neg_inf, below) = (0, 1, 2);
    if !snorm {
        // NaN, −inf, negative, then the non-negative classes from 3.
        let class = non_negative(v, max, 3);
        let class = sel(v < 0.0, below, class);
        let class = sel(v == f32::NEG_INFINITY, neg_inf, class);
        return sel(v.is_nan(), nan, class);
    }
    // NaN, −inf, below −1, −1, −0.5 (6), other negatives rounding toward (4) or away from (5)
    // zero, then the non-negative classes from 7.
    let class = non_negative(v, max, 7);
    let class = sel(v < 0.0, rounds_up(-f64::from(v) * max, 4), class);
    let class = sel(v == -0.5, 6, class);
    let class = sel(v == -1.0, 3, class);
    let class = sel(v < -1.0, below, class);
    let class = sel(v == f32::NEG_INFINITY, neg_inf, class);
    sel(v.is_nan(), nan, class)
}

/// The class of a component `v` >= 0 (or −0) under unorm or snorm, the classes of the
/// non-negative values being `zero` (0), `zero + 1` and `zero + 2` (below 1 but not 0.5, rounding
/// down and up), `zero + 3` (0.5), `zero + 4` (1.0), `zero + 5` (above 1) and `zero + 6` (+inf).
#[inline]
fn non_negative(v: f32, max: f64, zero: usize) -> usize {
    let class = sel(v == f32::INFINITY, zero + 6, zero + 5);
    let class = sel(v == 1.0, zero + 4, class);
    let class = sel(v < 1.0, rounds_up(f64::from(v) * max, zero + 1), class);
    let class = sel(v == 0.5, zero + 3, class);
    sel(v == 0.0, zero, class)
}

/// The class of a float-like component under uscaled (`min` 0) or sscaled.
#[inline]
fn scaled(c: u32, min: f32, max: f32, width: u32) -> usize {
    let v = f32::from_bits(c);
    // Read only inside the field's range (|v| <= 65535), where the conversion is exact.
    let integer = v == (v as i32) as f32;
    let signed = min < 0.0;
    // NaN, −inf, below min, min exactly (sscaled), negative integer or fraction, ±0, positive
    // integer or fraction, max, +inf, above max.
    let full = sel(v == f32::INFINITY, 11, 10);
    let full = sel(v == max, 9, full);
    let full = sel(v < max, sel(integer, 7, 8), full);
    let full = sel(v == 0.0, 6, full);
    let full = sel(v < 0.0, sel(integer, 4, 5), full);
    let full = sel(signed & (v == min), 3, full);
    let full = sel(v < min, 2, full);
    let full = sel(v == f32::NEG_INFINITY, 1, full);
    let full = sel(v.is_nan(), 0, full);
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
    let f16 = width == 16;
    // Finite values: ±0, an f32 denormal, a tie, overflow to inf, underflow to 0, a denormal
    // result, max finite, then normal (f16: positive 12, negative 13). f11/f10 have "negative ->
    // 0" (5) before "+-0": their finite classes are one higher.
    let body = sel(f16 & neg, 13, 12);
    let body = sel(magnitude == max_finite, 11, body);
    let body = sel(magnitude >> p == 0, 10, body);
    let body = sel(magnitude == 0, 9, body);
    let body = sel(magnitude == inf, 8, body);
    let body = sel(tie(c, p), 7, body);
    let body = sel(exp == 0, 6, body);
    let body = sel(c & 0x7fff_ffff == 0, 5, body);
    let finite = body + usize::from(!f16);
    // NaN (negative; payload lost below the target's mantissa; kept), ±inf, and for f11/f10 any
    // other negative nonzero value, in that order.
    let class = sel(!f16 & neg & (c & 0x7fff_ffff != 0), 5, finite);
    let class = sel(exp == 0xff, sel(neg, 4, 3), class);
    let nan = sel(neg, 2, sel(man >> (23 - p) == 0, 1, 0));
    sel((exp == 0xff) & (man != 0), nan, class)
}

/// The class of component `c` packed into `field` (its bits in the output), an index into
/// [`classes`]`(width, nfmt)`.
#[inline(always)]
pub fn classify(c: u32, field: u32, width: u32, nfmt: u8) -> usize {
    if width == 32 {
        return raw32_class(c);
    }
    let ones = u32::MAX >> (32 - width);
    let half = 1u32 << (width - 1);
    match nfmt {
        NFMT_UNORM => norm(c, f64::from(ones), false),
        NFMT_SNORM => norm(c, f64::from(half - 1), true),
        NFMT_USCALED => scaled(c, 0.0, ones as f32, width),
        NFMT_SSCALED => scaled(c, -(half as f32), (half - 1) as f32, width),
        // 0, fits, all ones, wider.
        NFMT_UINT => sel(c == 0, 0, sel(c == ones, 2, sel(c < ones, 1, 3))),
        NFMT_SINT => {
            let s = c as i32;
            let (lo, hi) = (-(half as i32), half as i32 - 1);
            // 0, max positive, most negative, fits positive, fits negative, wider.
            let full = sel((s < 0) & (s > lo), 2, 5);
            let full = sel((s > 0) & (s < hi), 1, full);
            let full = sel(s == lo, 4, full);
            let full = sel(s == hi, 3, full);
            let full = sel(s == 0, 0, full);
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
    let Some((d, n)) = hit_pair(input.dfmt, input.nfmt, hits) else {
        return;
    };
    // The nfmt matched once a sample rather than once a component (random stimulus makes the
    // branch on it a coin toss): a copy of the loop for each nfmt, `classify` inlined into it.
    match n {
        0 => sample_values::<0>(input, out, d, hits),
        1 => sample_values::<1>(input, out, d, hits),
        2 => sample_values::<2>(input, out, d, hits),
        3 => sample_values::<3>(input, out, d, hits),
        4 => sample_values::<4>(input, out, d, hits),
        5 => sample_values::<5>(input, out, d, hits),
        6 => sample_values::<6>(input, out, d, hits),
        _ => sample_values::<7>(input, out, d, hits),
    }
}

/// The `value` bins of a sample of the valid pair (`d`, `NFMT`).
#[inline(always)]
fn sample_values<const NFMT: u8>(input: &In, out: &Out, d: usize, hits: &mut Hits) {
    let n = usize::from(NFMT);
    for (k, f) in FIELDS[d].iter().enumerate() {
        let c = (input.components >> (32 * k)) as u32;
        let field = (out.data >> f.offset) as u32 & (u32::MAX >> (32 - f.width));
        hits.hit(Point::Value as usize, usize::from(BASE[d][n][k]) + classify(c, field, f.width, NFMT));
    }
}
