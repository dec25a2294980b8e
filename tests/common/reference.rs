//! An independent reference of SPEC §5 (format unpack and pack) for the tests, written from the
//! spec alone with exact rational arithmetic. It deliberately does not follow the structure of a
//! straightforward port (shift mantissas, add rounding bits):
//!
//! - Rounding to a binary float format (f32 for unpack, f16/f11/f10 for pack) is a binary search
//!   over the format's non-negative codes (whose order is the order of their values) for the
//!   largest code whose exact value is <= the exact target `num / den * 2^exp`, followed by an
//!   exact comparison of the target with the midpoint of that code and the next one; ties go to
//!   the even code. Every comparison is an integer cross-multiplication in u128.
//! - The next code after the largest finite one is the infinity code; it is given the value
//!   2^(emax + 1) (the value the next binade would start at), which makes "round to nearest even,
//!   overflow to infinity" fall out of the same search (the largest finite code has an odd
//!   mantissa, so the tie at max + ulp/2 goes to infinity, as IEEE 754 requires).
//! - Widening (f16/f11/f10 → f32) computes the exact value m·2^e and encodes it with the same
//!   search, asserting that no rounding happened.
//! - Pack's unorm/snorm `round_half_even(v * (2^w - 1))` and the scaled truncations work on the
//!   f32's integer mantissa and exponent (no f64 anywhere).
//!
//! Nothing here reads rust/float.rs, rust/format.rs or the models.

use std::cmp::Ordering;

// ---------------------------------------------------------------------------------------------
// SPEC §1.4: layouts and format_valid.
// ---------------------------------------------------------------------------------------------

/// The fields of a data format, X first, as (lowest bit, width) — SPEC §1.4's table. Empty for
/// dfmt 0 (INVALID) and 15 (reserved).
pub fn fields(dfmt: u8) -> &'static [(u32, u32)] {
    match dfmt {
        1 => &[(0, 8)],
        2 => &[(0, 16)],
        3 => &[(0, 8), (8, 8)],
        4 => &[(0, 32)],
        5 => &[(0, 16), (16, 16)],
        6 => &[(0, 11), (11, 11), (22, 10)],
        7 => &[(0, 10), (10, 11), (21, 11)],
        8 => &[(0, 2), (2, 10), (12, 10), (22, 10)],
        9 => &[(0, 10), (10, 10), (20, 10), (30, 2)],
        10 => &[(0, 8), (8, 8), (16, 8), (24, 8)],
        11 => &[(0, 32), (32, 32)],
        12 => &[(0, 16), (16, 16), (32, 16), (48, 16)],
        13 => &[(0, 32), (32, 32), (64, 32)],
        14 => &[(0, 32), (32, 32), (64, 32), (96, 32)],
        _ => &[],
    }
}

/// Element size in bits (the sum of the field widths).
pub fn element_bits(dfmt: u8) -> u32 {
    fields(dfmt).iter().map(|&(_, w)| w).sum()
}

pub const UNORM: u8 = 0;
pub const SNORM: u8 = 1;
pub const USCALED: u8 = 2;
pub const SSCALED: u8 = 3;
pub const UINT: u8 = 4;
pub const SINT: u8 = 5;
pub const RESERVED: u8 = 6;
pub const FLOAT: u8 = 7;

/// SPEC §1.4 format_valid: false for dfmt 0 or 15, nfmt 6, and float on a format with a field
/// that is not 32, 16, 11 or 10 bits wide.
pub fn format_valid(dfmt: u8, nfmt: u8) -> bool {
    let f = fields(dfmt);
    if f.is_empty() || nfmt == RESERVED {
        return false;
    }
    !(nfmt == FLOAT && f.iter().any(|&(_, w)| ![32, 16, 11, 10].contains(&w)))
}

/// Every valid (dfmt, nfmt) pair.
pub fn valid_pairs() -> Vec<(u8, u8)> {
    (0..16u8).flat_map(|d| (0..8u8).map(move |n| (d, n))).filter(|&(d, n)| format_valid(d, n)).collect()
}

/// Asserts what a directed table of `(name, dfmt, nfmt, fmt_valid)` rows of unpack or pack must
/// hold: distinct names; a valid row for every dfmt 1..=14; for every nfmt but the reserved one a
/// valid row on a field narrower than 32 bits and a row of dfmt 4 (32: the raw bits); and each
/// row's `fmt_valid` is [`format_valid`]'s.
pub fn assert_format_rows_well_formed(rows: &[(&str, u8, u8, bool)]) {
    crate::common::assert_unique_names(rows.iter().map(|r| r.0));
    for dfmt in 1..=14u8 {
        assert!(rows.iter().any(|r| r.1 == dfmt && r.3), "no valid row for dfmt {dfmt}");
    }
    for nfmt in [UNORM, SNORM, USCALED, SSCALED, UINT, SINT, FLOAT] {
        assert!(rows.iter().any(|r| r.2 == nfmt && r.3 && r.1 != 4), "no row for nfmt {nfmt}");
        assert!(rows.iter().any(|r| r.2 == nfmt && r.1 == 4), "no w = 32 row for nfmt {nfmt}");
    }
    for &(name, dfmt, nfmt, fmt_valid) in rows {
        assert_eq!(fmt_valid, format_valid(dfmt, nfmt), "{name}: fmt_valid");
    }
}

fn mask(width: u32) -> u32 {
    if width >= 32 {
        u32::MAX
    } else {
        (1 << width) - 1
    }
}

// ---------------------------------------------------------------------------------------------
// Exact arithmetic.
// ---------------------------------------------------------------------------------------------

/// Compares a·2^s with b exactly (a, b < 2^127).
fn cmp_scaled(a: u128, s: i32, b: u128) -> Ordering {
    if a == 0 || b == 0 {
        return a.cmp(&b);
    }
    if s >= 0 {
        if a.leading_zeros() < s.unsigned_abs() {
            Ordering::Greater // a·2^s >= 2^128 > b
        } else {
            (a << s).cmp(&b)
        }
    } else {
        let t = s.unsigned_abs();
        if b.leading_zeros() < t {
            Ordering::Less // b·2^t >= 2^128 > a
        } else {
            a.cmp(&(b << t))
        }
    }
}

/// A non-negative rational `num / den * 2^exp` (den > 0).
#[derive(Clone, Copy, Debug)]
pub struct Q {
    pub num: u128,
    pub den: u128,
    pub exp: i32,
}

impl Q {
    pub fn int(n: u128) -> Q {
        Q { num: n, den: 1, exp: 0 }
    }
    pub fn ratio(num: u128, den: u128) -> Q {
        Q { num, den, exp: 0 }
    }
    pub fn dyadic(m: u128, e: i32) -> Q {
        Q { num: m, den: 1, exp: e }
    }
}

/// m·2^e compared with q: m·den·2^(e − q.exp) against q.num.
fn cmp_dyadic_q(m: u128, e: i32, q: Q) -> Ordering {
    cmp_scaled(m * q.den, e - q.exp, q.num)
}

/// A binary floating-point format without its sign: `exp_bits` exponent bits (bias
/// 2^(exp_bits−1) − 1), `man_bits` fraction bits, denormals at exponent field 0.
#[derive(Clone, Copy, Debug)]
pub struct Fmt {
    pub exp_bits: u32,
    pub man_bits: u32,
}

pub const F32: Fmt = Fmt { exp_bits: 8, man_bits: 23 };
pub const F16: Fmt = Fmt { exp_bits: 5, man_bits: 10 };
pub const F11: Fmt = Fmt { exp_bits: 5, man_bits: 6 };
pub const F10: Fmt = Fmt { exp_bits: 5, man_bits: 5 };

impl Fmt {
    fn bias(self) -> i32 {
        (1 << (self.exp_bits - 1)) - 1
    }

    /// The code of +infinity (exponent field all ones, fraction 0).
    pub fn inf(self) -> u32 {
        ((1 << self.exp_bits) - 1) << self.man_bits
    }

    /// The exact value m·2^e of a non-negative finite code; the infinity code reads as
    /// 2^(emax+1), the start of the binade the format does not have.
    pub fn value(self, code: u32) -> (u128, i32) {
        let frac = code & mask(self.man_bits);
        let field = (code >> self.man_bits) as i32;
        let m = self.man_bits as i32;
        if field == 0 {
            (u128::from(frac), 1 - self.bias() - m)
        } else {
            (u128::from(frac | 1 << self.man_bits), field - self.bias() - m)
        }
    }

    /// The non-negative code nearest to q, ties to the even code, overflow to infinity.
    pub fn round(self, q: Q) -> u32 {
        let top = self.inf();
        // Largest code c in [0, top] with value(c) <= q (value(0) = 0 <= q).
        let (mut lo, mut hi) = (0u32, top);
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            let (m, e) = self.value(mid);
            if cmp_dyadic_q(m, e, q) == Ordering::Greater {
                hi = mid - 1;
            } else {
                lo = mid;
            }
        }
        let c = lo;
        if c == top {
            return top; // q >= 2^(emax+1)
        }
        // Midpoint of c and c+1 against q: (v(c) + v(c+1)) vs 2q, over a common exponent.
        let (m1, e1) = self.value(c);
        let (m2, e2) = self.value(c + 1);
        let e = e1.min(e2);
        let sum = (m1 << (e1 - e)) + (m2 << (e2 - e));
        match cmp_dyadic_q(sum, e, Q { num: 2 * q.num, ..q }) {
            Ordering::Greater => c,
            Ordering::Less => c + 1,
            Ordering::Equal => {
                if c & 1 == 0 {
                    c
                } else {
                    c + 1
                }
            }
        }
    }

    /// The code whose value is exactly q; panics if q is not representable (a reference bug).
    pub fn exact(self, q: Q) -> u32 {
        let c = self.round(q);
        let (m, e) = self.value(c);
        assert_eq!(cmp_dyadic_q(m, e, q), Ordering::Equal, "{q:?} is not exact in {self:?}");
        c
    }
}

/// The decoded f32: NaN, ±infinity, or a finite signed m·2^e.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum F32Val {
    Nan { neg: bool, frac: u32 },
    Inf { neg: bool },
    Finite { neg: bool, m: u128, e: i32 },
}

pub fn decode_f32(bits: u32) -> F32Val {
    let neg = bits >> 31 != 0;
    let field = bits >> 23 & 0xff;
    let frac = bits & 0x7f_ffff;
    if field == 0xff {
        if frac == 0 {
            F32Val::Inf { neg }
        } else {
            F32Val::Nan { neg, frac }
        }
    } else {
        let (m, e) = F32.value(bits & 0x7fff_ffff);
        F32Val::Finite { neg, m, e }
    }
}

/// The correctly rounded f32 of ±q.
pub fn f32_of(neg: bool, q: Q) -> u32 {
    u32::from(neg) << 31 | F32.round(q)
}

/// round_half_even(x·2^e) for x < 2^100, as an integer (saturating nothing: callers keep the
/// result in range).
fn round_half_even_scaled(x: u128, e: i32) -> u128 {
    if e >= 0 {
        return x << e;
    }
    let t = e.unsigned_abs();
    if t >= 120 {
        return 0; // x·2^e < 2^100·2^-120 < 1/2
    }
    let q = x >> t;
    let r = x - (q << t);
    let half = 1u128 << (t - 1);
    match r.cmp(&half) {
        Ordering::Less => q,
        Ordering::Greater => q + 1,
        Ordering::Equal => q + (q & 1),
    }
}

/// min(floor(m·2^e), limit) for m·2^e >= 0.
fn trunc_saturate(m: u128, e: i32, limit: u128) -> u128 {
    if cmp_scaled(m, e, limit) != Ordering::Less {
        return limit;
    }
    if e >= 0 {
        m << e
    } else if e.unsigned_abs() >= 128 {
        0
    } else {
        m >> e.unsigned_abs()
    }
}

// ---------------------------------------------------------------------------------------------
// Small floats ↔ f32.
// ---------------------------------------------------------------------------------------------

/// Widens a small float code of `fmt` (no sign bit) to f32 exactly: infinity and NaN when the
/// exponent field is all ones (payload in the top fraction bits, as it is), otherwise the exact
/// value m·2^e encoded as f32.
fn widen_unsigned(code: u32, fmt: Fmt) -> u32 {
    let frac = code & mask(fmt.man_bits);
    if code >> fmt.man_bits == mask(fmt.exp_bits) {
        return 0x7f80_0000 | frac << (23 - fmt.man_bits);
    }
    let (m, e) = fmt.value(code);
    F32.exact(Q::dyadic(m, e))
}

/// SPEC §5: an IEEE half widened exactly (sign kept, denormals kept, NaN payload kept).
pub fn f16_to_f32(h: u16) -> u32 {
    u32::from(h >> 15) << 31 | widen_unsigned(u32::from(h & 0x7fff), F16)
}

/// SPEC §5: an unsigned 11-bit float (5-bit exponent, 6-bit fraction) widened exactly.
pub fn f11_to_f32(code: u32) -> u32 {
    widen_unsigned(code & 0x7ff, F11)
}

/// SPEC §5: an unsigned 10-bit float (5-bit exponent, 5-bit fraction) widened exactly.
pub fn f10_to_f32(code: u32) -> u32 {
    widen_unsigned(code & 0x3ff, F10)
}

/// SPEC §5 pack, f32 → f16: NaN keeps its sign and the top 10 fraction bits (forced to 1 when
/// they are 0); otherwise the sign is kept and the magnitude rounds to nearest even with
/// overflow to infinity (f32 denormals included, no flushing).
pub fn f32_to_f16(bits: u32) -> u16 {
    let sign = (bits >> 16 & 0x8000) as u16;
    let code = match decode_f32(bits) {
        F32Val::Nan { frac, .. } => 0x7c00 | (frac >> 13).max(1),
        F32Val::Inf { .. } => F16.inf(),
        F32Val::Finite { m, e, .. } => F16.round(Q::dyadic(m, e)),
    };
    sign | code as u16
}

/// SPEC §5 pack for the unsigned small floats: NaN first (sign dropped, top fraction bits forced
/// to 1 when 0), then any negative value → 0, then round to nearest even, overflow → infinity.
fn f32_to_unsigned(bits: u32, fmt: Fmt) -> u32 {
    match decode_f32(bits) {
        F32Val::Nan { frac, .. } => fmt.inf() | (frac >> (23 - fmt.man_bits)).max(1),
        F32Val::Inf { neg: true } | F32Val::Finite { neg: true, .. } => 0,
        F32Val::Inf { neg: false } => fmt.inf(),
        F32Val::Finite { m, e, .. } => fmt.round(Q::dyadic(m, e)),
    }
}

pub fn f32_to_f11(bits: u32) -> u32 {
    f32_to_unsigned(bits, F11)
}

pub fn f32_to_f10(bits: u32) -> u32 {
    f32_to_unsigned(bits, F10)
}

// ---------------------------------------------------------------------------------------------
// Unpack (SPEC §5).
// ---------------------------------------------------------------------------------------------

/// One field of `width` bits (in the low bits of `code`) as a 32-bit component, for a valid
/// (width, nfmt) pair.
pub fn unpack_field(code: u32, width: u32, nfmt: u8) -> u32 {
    let code = code & mask(width);
    if width == 32 {
        return code; // raw, whatever the nfmt
    }
    let big = u128::from(code);
    // Two's complement value of the field: (negative?, magnitude).
    let top = 1u128 << (width - 1);
    let (neg, mag) = if big >= top { (true, (top << 1) - big) } else { (false, big) };
    match nfmt {
        UNORM => f32_of(false, Q::ratio(big, (1 << width) - 1)),
        SNORM => {
            let den = top - 1;
            if mag >= den {
                // |s| >= 2^(w−1) − 1: ±1.0 exactly, and the most negative code clamps to −1.0.
                f32_of(neg, Q::int(1))
            } else {
                f32_of(neg, Q::ratio(mag, den))
            }
        }
        USCALED => F32.exact(Q::int(big)),
        SSCALED => u32::from(neg) << 31 | F32.exact(Q::int(mag)),
        UINT => code,
        SINT => {
            if neg {
                code | !mask(width)
            } else {
                code
            }
        }
        FLOAT => match width {
            16 => f16_to_f32(code as u16),
            11 => f11_to_f32(code),
            10 => f10_to_f32(code),
            _ => panic!("float on a {width}-bit field is not a valid pair"),
        },
        _ => panic!("nfmt {nfmt} is not a valid pair"),
    }
}

/// SPEC §5 unpack of a whole element: (components X..W, count, fmt_valid).
pub fn unpack(dfmt: u8, nfmt: u8, data: u128) -> ([u32; 4], u8, bool) {
    let mut out = [0u32; 4];
    if !format_valid(dfmt, nfmt) {
        return (out, 0, false);
    }
    let f = fields(dfmt);
    for (k, &(lsb, width)) in f.iter().enumerate() {
        out[k] = unpack_field((data >> lsb) as u32, width, nfmt);
    }
    (out, f.len() as u8, true)
}

// ---------------------------------------------------------------------------------------------
// Pack (SPEC §5).
// ---------------------------------------------------------------------------------------------

/// One 32-bit component as a field of `width` bits (in the low bits, 0 above), for a valid
/// (width, nfmt) pair.
pub fn pack_field(component: u32, width: u32, nfmt: u8) -> u32 {
    if width == 32 {
        return component; // raw, whatever the nfmt
    }
    let w_mask = u128::from(mask(width));
    let v = decode_f32(component);
    // Two's complement of a magnitude in the field.
    let signed = |neg: bool, mag: u128| -> u32 {
        let x = if neg { ((w_mask + 1) - mag) & w_mask } else { mag };
        x as u32
    };
    match nfmt {
        UNORM => {
            let d = w_mask; // 2^w − 1
            match v {
                F32Val::Nan { .. } | F32Val::Inf { neg: true } | F32Val::Finite { neg: true, .. } => 0,
                F32Val::Inf { neg: false } => d as u32,
                F32Val::Finite { m, e, .. } => {
                    if cmp_scaled(m, e, 1) != Ordering::Less {
                        d as u32 // clamp to 1.0
                    } else {
                        round_half_even_scaled(m * d, e) as u32
                    }
                }
            }
        }
        SNORM => {
            let d = (1u128 << (width - 1)) - 1;
            match v {
                F32Val::Nan { .. } => 0,
                F32Val::Inf { neg } => signed(neg, d),
                F32Val::Finite { neg, m, e } => {
                    let mag = if cmp_scaled(m, e, 1) != Ordering::Less { d } else { round_half_even_scaled(m * d, e) };
                    signed(neg, mag)
                }
            }
        }
        USCALED => match v {
            F32Val::Nan { .. } | F32Val::Inf { neg: true } | F32Val::Finite { neg: true, .. } => 0,
            F32Val::Inf { neg: false } => w_mask as u32,
            F32Val::Finite { m, e, .. } => trunc_saturate(m, e, w_mask) as u32,
        },
        SSCALED => {
            let max_pos = (1u128 << (width - 1)) - 1;
            let max_neg = 1u128 << (width - 1);
            match v {
                F32Val::Nan { .. } => 0,
                F32Val::Inf { neg: false } => max_pos as u32,
                F32Val::Inf { neg: true } => signed(true, max_neg),
                F32Val::Finite { neg: false, m, e } => trunc_saturate(m, e, max_pos) as u32,
                F32Val::Finite { neg: true, m, e } => signed(true, trunc_saturate(m, e, max_neg)),
            }
        }
        UINT | SINT => component & mask(width),
        FLOAT => match width {
            16 => u32::from(f32_to_f16(component)),
            11 => f32_to_f11(component),
            10 => f32_to_f10(component),
            _ => panic!("float on a {width}-bit field is not a valid pair"),
        },
        _ => panic!("nfmt {nfmt} is not a valid pair"),
    }
}

/// SPEC §5 pack of a whole element: (data, fmt_valid). Components the format lacks are ignored;
/// data above the element is 0; an invalid pair packs to 0.
pub fn pack(dfmt: u8, nfmt: u8, components: [u32; 4]) -> (u128, bool) {
    if !format_valid(dfmt, nfmt) {
        return (0, false);
    }
    let mut data = 0u128;
    for (k, &(lsb, width)) in fields(dfmt).iter().enumerate() {
        data |= u128::from(pack_field(components[k], width, nfmt)) << lsb;
    }
    (data, true)
}

/// The four 32-bit words of a 128-bit component port, X first.
pub fn words(v: u128) -> [u32; 4] {
    [v as u32, (v >> 32) as u32, (v >> 64) as u32, (v >> 96) as u32]
}

/// The inverse of [`words`].
pub fn from_words(w: [u32; 4]) -> u128 {
    w.iter().enumerate().fold(0, |acc, (i, &x)| acc | u128::from(x) << (32 * i))
}
