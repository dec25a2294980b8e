//! Bit-exact float conversions of the format units: f32 to and from the small floats of SPEC §1.4
//! (IEEE half `f16`; the unsigned `f11` and `f10` of R11G11B10_FLOAT), and the correctly rounded
//! f32 of a ratio of integers (unorm/snorm unpack).
//!
//! Spec: docs/spec.md §5 (float rules), §12 (rounding choices)  Used by: rust/format_unpack.rs,
//! rust/format_pack.rs, rust/d16.rs
//!
//! Every value here is raw bits: an f32 is a `u32`; a small float is a `u16` holding its bits at
//! the bottom (f16: 15:0 = sign, 5-bit exponent, 10-bit mantissa; f11: 10:0 = 5-bit exponent,
//! 6-bit mantissa; f10: 9:0 = 5-bit exponent, 5-bit mantissa). Inputs are masked to their width;
//! outputs have 0 above it. The three small floats share one shape: exponent bias 15, exponent 0 =
//! zero or denormal, exponent 31 = infinity (mantissa 0) or NaN, so one widening and one rounding
//! routine, parameterised by the mantissa width, serve all three.
//!
//! Rules (SPEC §5, docs/decisions.md "format_unpack and format_pack"):
//! - Widening is exact: denormals are kept, the sign is kept (f16), a NaN's payload goes to the
//!   top of the f32 mantissa as it is (no quieting).
//! - Narrowing rounds to nearest, ties to even, overflow → infinity, no denormal flushing (f32
//!   denormals round like any value). A NaN stays a NaN: mantissa = the top bits of the f32
//!   mantissa, forced to 1 when those are all 0 (numpy's rule); f16 keeps the sign.
//! - f11/f10 have no sign: the NaN test comes first (the sign is dropped), then every other
//!   negative value (−0, −denormal, −infinity included) becomes +0.

/// f32 sign bit.
pub const F32_SIGN: u32 = 0x8000_0000;
/// f32 exponent field (all ones: infinity or NaN).
pub const F32_EXP_MASK: u32 = 0x7f80_0000;
/// f32 mantissa field.
pub const F32_MAN_MASK: u32 = 0x007f_ffff;
/// f32 mantissa width.
const F32_MAN_BITS: u32 = 23;
/// f32 hidden bit of a normal number's significand.
const F32_HIDDEN: u32 = 1 << F32_MAN_BITS;
/// f32 exponent bias.
const F32_BIAS: u32 = 127;
/// f32 1.0.
pub const F32_ONE: u32 = 0x3f80_0000;

/// Exponent bias of f16, f11 and f10.
const SMALL_BIAS: u32 = 15;
/// Exponent field value of infinity and NaN in f16, f11 and f10.
const SMALL_EXP_MAX: u32 = 31;
/// Distance between the two biases: f32 biased exponent = small biased exponent + 112.
const REBIAS: u32 = F32_BIAS - SMALL_BIAS;

/// Mantissa widths.
const F16_MAN_BITS: u32 = 10;
const F11_MAN_BITS: u32 = 6;
const F10_MAN_BITS: u32 = 5;
/// f16 sign bit.
pub const F16_SIGN: u16 = 0x8000;
/// f16 exponent and mantissa (the magnitude).
const F16_MAGNITUDE: u16 = 0x7fff;
/// The 11 bits of an f11 and the 10 bits of an f10.
const F11_MASK: u16 = 0x7ff;
const F10_MASK: u16 = 0x3ff;

/// f16 → f32, exact (sign, denormals and NaN payload kept).
pub fn f16_to_f32(h: u16) -> u32 {
    let sign = u32::from(h & F16_SIGN) << 16;
    sign | widen(u32::from(h & F16_MAGNITUDE), F16_MAN_BITS)
}

/// f11 (bits 10:0; bits above are ignored) → f32, exact. Never negative.
pub fn f11_to_f32(bits: u16) -> u32 {
    widen(u32::from(bits & F11_MASK), F11_MAN_BITS)
}

/// f10 (bits 9:0; bits above are ignored) → f32, exact. Never negative.
pub fn f10_to_f32(bits: u16) -> u32 {
    widen(u32::from(bits & F10_MASK), F10_MAN_BITS)
}

/// f32 → f16: round to nearest even, overflow → infinity, sign kept (−0 → 0x8000); NaN → NaN with
/// the top 10 mantissa bits (1 when those are 0).
pub fn f32_to_f16(f: u32) -> u16 {
    let sign = ((f & F32_SIGN) >> 16) as u16;
    let magnitude = f & !F32_SIGN;
    let bits = if is_nan(f) { nan_bits(f, F16_MAN_BITS) } else { round_magnitude(magnitude, F16_MAN_BITS) };
    // Both branches give at most 15 bits (exponent 31 and a 10-bit mantissa).
    sign | bits as u16
}

/// f32 → f11 (bits 10:0): NaN first (sign dropped, top 6 mantissa bits, 1 when 0), then any
/// negative value → 0, then round to nearest even with overflow → infinity.
pub fn f32_to_f11(f: u32) -> u16 {
    narrow_unsigned(f, F11_MAN_BITS)
}

/// f32 → f10 (bits 9:0): as [`f32_to_f11`] with 5 mantissa bits.
pub fn f32_to_f10(f: u32) -> u16 {
    narrow_unsigned(f, F10_MAN_BITS)
}

/// True for an f32 NaN (exponent all ones, mantissa not 0), whatever the sign.
pub fn is_nan(f: u32) -> bool {
    f & !F32_SIGN > F32_EXP_MASK
}

/// The exact f32 of a small-float magnitude `bits` (5-bit exponent, then `man_bits` mantissa bits).
fn widen(bits: u32, man_bits: u32) -> u32 {
    let exp = bits >> man_bits;
    let man = bits & ((1 << man_bits) - 1);
    // The mantissa's top bit lines up with the f32 mantissa's top bit.
    let align = F32_MAN_BITS - man_bits;
    if exp == SMALL_EXP_MAX {
        // Infinity or NaN: the payload goes to the top of the f32 mantissa, unchanged (no quieting).
        F32_EXP_MASK | (man << align)
    } else if exp != 0 {
        // Normal: same value 2^(exp − 15) × 1.man, re-biased.
        ((exp + REBIAS) << F32_MAN_BITS) | (man << align)
    } else if man == 0 {
        // Zero.
        0
    } else {
        // Denormal: man × 2^(−14 − man_bits). With the top set bit of man at position p this is
        // 1.f × 2^(p − 14 − man_bits), a normal f32 of biased exponent p − 14 − man_bits + 127
        // (103 at the least); the bits below p become the fraction's top bits.
        let p = 31 - man.leading_zeros();
        let exp32 = p + F32_BIAS + 1 - SMALL_BIAS - man_bits;
        let fraction = (man ^ (1 << p)) << (F32_MAN_BITS - p);
        (exp32 << F32_MAN_BITS) | fraction
    }
}

/// The NaN of a small float for the f32 NaN `f`: exponent 31 and the top `man_bits` of f's
/// mantissa, forced to 1 when those are all 0 so that it stays a NaN (numpy's rule). No sign.
fn nan_bits(f: u32, man_bits: u32) -> u32 {
    let payload = (f & F32_MAN_MASK) >> (F32_MAN_BITS - man_bits);
    (SMALL_EXP_MAX << man_bits) | payload.max(1)
}

/// f32 → f11/f10: NaN first, then negative → 0, then round.
fn narrow_unsigned(f: u32, man_bits: u32) -> u16 {
    let bits = if is_nan(f) {
        nan_bits(f, man_bits)
    } else if f & F32_SIGN != 0 {
        0
    } else {
        round_magnitude(f, man_bits)
    };
    // At most 11 bits (exponent 31 and a 6-bit mantissa).
    bits as u16
}

/// Rounds a non-NaN f32 magnitude (sign bit 0) to the small float with a 5-bit exponent (bias 15)
/// and `man_bits` mantissa bits: to nearest, ties to even; overflow gives infinity (31 << man_bits).
///
/// Derivation. Write the f32 as an integer significand times a power of two,
/// `S × 2^(E − 150)`, with E its biased exponent and S = 1.mantissa × 2^23 (a 24-bit integer);
/// an f32 denormal (E = 0) is `mantissa × 2^(1 − 150)`, so it takes E = 1 and no hidden bit.
/// The result's exponent field is t = E − 112 (same value of 2^(E − 127) = 2^(t − 15)) when that
/// is at least 1; below that the value falls in the small float's denormal range, whose spacing is
/// that of exponent field 1, so t = max(E − 112, 1). Either way a result unit (ulp) is
/// `2^(t − 15 − man_bits)`, and the value in ulps is `S × 2^(E − 135 + man_bits − t)`: S shifted
/// right by `sh = 135 − man_bits + t − E` bits, which is `23 − man_bits` for normals and more for
/// denormals. The dropped bits `r` decide the rounding against half an ulp `h = 2^(sh − 1)`:
/// up when r > h, and when r = h only if the kept value q is odd (ties to even). Since S < 2^24,
/// any shift of 25 or more drops S entirely with r = S < h, giving 0; capping sh at 31 keeps the
/// shift inside a u32 without changing that outcome.
///
/// The bits are then `((t − 1) << man_bits) + q`: for a normal q holds the hidden bit (2^man_bits)
/// which lifts the exponent field from t − 1 to t, and a q that rounded up to 2^(man_bits+1) lifts
/// it once more (carry into the exponent, exactly the next binade); for a denormal (t = 1) q is
/// the denormal's mantissa, and a q that rounded up to 2^man_bits becomes the smallest normal.
/// Any field of 31 or more, i.e. bits >= 31 << man_bits, overflowed: infinity.
fn round_magnitude(magnitude: u32, man_bits: u32) -> u32 {
    let infinity = SMALL_EXP_MAX << man_bits;
    let e = magnitude >> F32_MAN_BITS;
    if e == F32_EXP_MASK >> F32_MAN_BITS {
        // f32 infinity (NaN is excluded by the caller).
        return infinity;
    }
    // Step 1: integer significand and its exponent (denormals: E = 1, no hidden bit).
    let (s, e) = if e == 0 { (magnitude, 1) } else { ((magnitude & F32_MAN_MASK) | F32_HIDDEN, e) };
    // Step 2: the result's exponent field before rounding.
    let t = if e > REBIAS { e - REBIAS } else { 1 };
    // Step 3: drop the bits below the result's ulp: the normal shift 23 − man_bits, plus how far
    // E lies below the small float's smallest normal (t + 112 − E, 0 for normals).
    let sh = (F32_MAN_BITS - man_bits + (t + REBIAS - e)).min(31);
    let q = s >> sh;
    let r = s & ((1 << sh) - 1);
    let half = 1 << (sh - 1);
    // Step 4: round to nearest, ties to even.
    let q = if r > half || (r == half && q & 1 == 1) { q + 1 } else { q };
    // Step 5: assemble (q carries the hidden bit into the exponent field); overflow → infinity.
    (((t - 1) << man_bits) + q).min(infinity)
}

/// The f32 nearest to `num / den` (ties to even), for `num <= den`, `den >= 1`; 0 for num = 0.
/// Exact integer arithmetic: no intermediate rounding. The quotient lies in [2^-32, 1], always a
/// normal f32.
///
/// Method: choose k with 2^23 <= floor(num × 2^k / den) < 2^24, the 24-bit significand q of
/// num/den = q × 2^-k plus the remainder rem / (den × 2^k). Round q up when 2 rem > den, or on a
/// tie (2 rem = den) when q is odd. (For unorm and snorm den = 2^w − 1 or 2^(w−1) − 1 is odd, so
/// ties never happen there, but the rule is the general one.) A q that rounds up to 2^24 is the
/// next binade. The bits are `((149 − k) << 23) + q`: biased exponent 150 − k for q in
/// [2^23, 2^24), the hidden bit adding the 1 back, and a carry of q = 2^24 giving 151 − k.
pub fn ratio_to_f32(num: u32, den: u32) -> u32 {
    debug_assert!(den >= 1 && num <= den, "ratio_to_f32({num}, {den})");
    if num == 0 {
        return 0;
    }
    let (n, d) = (u64::from(num), u64::from(den));
    // bit length: num ∈ [2^(a−1), 2^a), den ∈ [2^(b−1), 2^b) ⇒ num/den ∈ (2^(a−b−1), 2^(a−b+1)),
    // so with k = 23 + b − a the quotient num × 2^k / den lies in (2^22, 2^24); one more bit when
    // it is below 2^23. k <= 23 + 32 and num × 2^(k+1) < 2^(a + 24 + b − a + 1) <= 2^57: fits.
    let (a, b) = (64 - n.leading_zeros(), 64 - d.leading_zeros());
    let mut k = F32_MAN_BITS + b - a;
    // floor(num × 2^k / den) < 2^23 exactly when num × 2^k < den × 2^23 (no division needed).
    if n << k < d << F32_MAN_BITS {
        k += 1;
    }
    let scaled = n << k;
    let (q, rem) = (scaled / d, scaled % d);
    let q = if 2 * rem > d || (2 * rem == d && q & 1 == 1) { q + 1 } else { q };
    // q <= 2^24 and k <= 56; 149 − k can wrap only for quotients below 2^-126, excluded above.
    ((149 - k) << F32_MAN_BITS) + q as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Checks `convert` on each `(input, expected, what)` row; a failing row names itself.
    fn assert_cases<A: Copy + std::fmt::LowerHex, B: PartialEq + std::fmt::Debug>(
        convert: impl Fn(A) -> B,
        cases: &[(A, B, &str)],
    ) {
        for (input, want, what) in cases {
            assert_eq!(convert(*input), *want, "{what}: {input:#x}");
        }
    }

    /// Widening, hand-derived.
    #[test]
    fn f16_widening() {
        let cases: &[(u16, u32, &str)] = &[
            (0x0000, 0x0000_0000, "+0"),
            (0x8000, 0x8000_0000, "−0 keeps its sign"),
            // 0 01111 0000000000 = 2^0 → f32 exponent 127 = 0x3f8 << 20.
            (0x3c00, 0x3f80_0000, "1.0"),
            // 1 10000 1000000000 = −1.5 × 2 = −3.0 → 0xc040_0000.
            (0xc200, 0xc040_0000, "−3.0"),
            // 0 11110 1111111111 = 65504 = 1.1111111111 × 2^15 → exponent 142 = 0x8e: 0x477f_e000.
            (0x7bff, 0x477f_e000, "largest finite"),
            // 0 00001 0000000000 = 2^−14 → exponent 113 = 0x71: 0x3880_0000.
            (0x0400, 0x3880_0000, "smallest normal"),
            // 0 00000 0000000001 = 2^−24 → exponent 103 = 0x67: 0x3380_0000.
            (0x0001, 0x3380_0000, "smallest denormal"),
            // 0 00000 1111111111 = 1.111111111 × 2^−15 → exponent 112 = 0x70, fraction
            // 111111111 << 14 = 0x7f_c000: 0x387f_c000.
            (0x03ff, 0x387f_c000, "largest denormal"),
            // 0 00000 0000000011 = 1.1 × 2^−23 → exponent 104 = 0x68, fraction 1 << 22.
            (0x0003, 0x3440_0000, "denormal 3"),
            (0x7c00, 0x7f80_0000, "+inf"),
            (0xfc00, 0xff80_0000, "−inf"),
            // Quiet NaN 1000000000 → f32 mantissa 1 << 22.
            (0x7e00, 0x7fc0_0000, "quiet NaN"),
            // Signaling NaN payload 0000000001 → 1 << 13, not quieted.
            (0x7c01, 0x7f80_2000, "signaling NaN kept"),
            // −NaN payload 0101010101 → 0x155 << 13 = 0x2a_a000.
            (0xfd55, 0xffaa_a000, "negative NaN payload"),
        ];
        assert_cases(f16_to_f32, cases);
    }

    /// f11 (5e6m) and f10 (5e5m), hand-derived.
    #[test]
    fn f11_f10_widening() {
        // f11 01111 000000 = 1.0; 11110 111111 = 1.111111 × 2^15 = 65024 = 0x477e_0000.
        assert_eq!(f11_to_f32(0x3c0), 0x3f80_0000);
        assert_eq!(f11_to_f32(0x7bf), 0x477e_0000);
        // f11 00000 000001 = 2^−14 × 2^−6 = 2^−20 → exponent 107 = 0x6b: 0x3580_0000.
        assert_eq!(f11_to_f32(0x001), 0x3580_0000);
        // f11 00000 100000 = 2^−15 → exponent 112: 0x3800_0000.
        assert_eq!(f11_to_f32(0x020), 0x3800_0000);
        // Infinity and NaN (payload 000001 → 1 << 17); bits above 10 are ignored.
        assert_eq!(f11_to_f32(0x7c0), 0x7f80_0000);
        assert_eq!(f11_to_f32(0x7c1), 0x7f82_0000);
        assert_eq!(f11_to_f32(0xf800 | 0x3c0), 0x3f80_0000);
        // f10 01111 00000 = 1.0; 11110 11111 = 1.11111 × 2^15 = 64512 = 0x477c_0000.
        assert_eq!(f10_to_f32(0x1e0), 0x3f80_0000);
        assert_eq!(f10_to_f32(0x3df), 0x477c_0000);
        // f10 00000 00001 = 2^−19 → exponent 108 = 0x6c: 0x3600_0000.
        assert_eq!(f10_to_f32(0x001), 0x3600_0000);
        // f10 NaN 10000 → 1 << 22; bits above 9 are ignored.
        assert_eq!(f10_to_f32(0x3f0), 0x7fc0_0000);
        assert_eq!(f10_to_f32(0xfc00 | 0x1e0), 0x3f80_0000);
    }

    /// f32 → f16 rounding, hand-derived.
    #[test]
    fn f16_narrowing() {
        let cases: &[(u32, u16, &str)] = &[
            (0x3f80_0000, 0x3c00, "1.0"),
            (0x8000_0000, 0x8000, "−0"),
            // 1 + 2^−11 is halfway between 0x3c00 and 0x3c01: even → 0x3c00.
            (0x3f80_1000, 0x3c00, "tie down to even"),
            // 1 + 3 × 2^−11 is halfway between 0x3c01 and 0x3c02: even → 0x3c02.
            (0x3f80_3000, 0x3c02, "tie up to even"),
            // 1 + 2^−11 + 2^−23: just above the tie → up.
            (0x3f80_1001, 0x3c01, "above a tie"),
            // 1 + 2^−11 − 2^−23: just below the tie → down.
            (0x3f80_0fff, 0x3c00, "below a tie"),
            (0x477f_e000, 0x7bff, "65504, largest finite"),
            // 65504 + 16 = 65520 is halfway to 65536 (= infinity's place); 0x7bff is odd → up →
            // exponent 31: infinity.
            (0x477f_f000, 0x7c00, "65520 ties to infinity"),
            (0x477f_efff, 0x7bff, "just below 65520"),
            (0x4780_0000, 0x7c00, "65536 overflows"),
            (0x7f7f_ffff, 0x7c00, "f32 max overflows"),
            (0xff7f_ffff, 0xfc00, "−f32 max → −inf"),
            (0x7f80_0000, 0x7c00, "+inf"),
            // 2^−14 = smallest normal.
            (0x3880_0000, 0x0400, "smallest normal"),
            // 2^−24 = smallest denormal.
            (0x3380_0000, 0x0001, "smallest denormal"),
            // 2^−25 is halfway between 0 and 2^−24: even → 0.
            (0x3300_0000, 0x0000, "half the smallest denormal → 0"),
            (0xb300_0000, 0x8000, "…and −0 for its negative"),
            (0x3300_0001, 0x0001, "above half the smallest denormal"),
            // 1.5 × 2^−25 = 0.75 × 2^−24: nearer to 2^−24 than to 0.
            (0x3340_0000, 0x0001, "0.75 of the smallest denormal"),
            // 3 × 2^−25 = 1.5 × 2^−24 is halfway between denormals 1 and 2: even → 2.
            (0x33c0_0000, 0x0002, "denormal tie to even"),
            // 1.11111111111 × 2^−15 = 1023.75 × 2^−24 → 1024 × 2^−24 = smallest normal.
            (0x387f_f000, 0x0400, "denormal rounds up into the normals"),
            // 1.111111111 × 2^−15 = 1023 × 2^−24: the largest denormal, exact.
            (0x387f_c000, 0x03ff, "largest denormal"),
            (0x0000_0001, 0x0000, "f32 denormal → 0"),
            (0x8000_0001, 0x8000, "−f32 denormal → −0"),
            // −1.5 × 2^3 = −12: 1 10010 1000000000.
            (0xc140_0000, 0xca00, "−12"),
            (0x7fc0_0000, 0x7e00, "quiet NaN"),
            // Payload 1 << 13 → top 10 bits 0000000001: kept, not quieted.
            (0x7f80_2000, 0x7c01, "signaling NaN"),
            // Payload only below the top 10 bits: forced to 1, sign kept.
            (0xff80_0001, 0xfc01, "NaN payload forced to 1"),
            (0xffff_ffff, 0xffff, "all-ones NaN"),
        ];
        assert_cases(f32_to_f16, cases);
    }

    /// f32 → f11/f10, hand-derived.
    #[test]
    fn f11_f10_narrowing() {
        assert_eq!(f32_to_f11(0x3f80_0000), 0x3c0);
        assert_eq!(f32_to_f10(0x3f80_0000), 0x1e0);
        // Negative values, −0 and −inf → 0; NaN first: −NaN keeps its payload, sign dropped.
        for f in [0xbf80_0000, 0x8000_0000, 0xff80_0000, 0x8000_0001] {
            assert_eq!((f32_to_f11(f), f32_to_f10(f)), (0, 0), "{f:#010x}");
        }
        // Quiet −NaN: top 6 / 5 bits 100000 / 10000.
        assert_eq!(f32_to_f11(0xffc0_0000), 0x7e0);
        assert_eq!(f32_to_f10(0xffc0_0000), 0x3f0);
        // NaN payload only in low bits → forced to 1.
        assert_eq!(f32_to_f11(0x7f80_0001), 0x7c1);
        assert_eq!(f32_to_f10(0x7f80_0001), 0x3e1);
        // f11 ulp at exponent 15 is 2^15 / 64 = 512: 65024 + 256 = 65280 (0x477f_0000) is a tie
        // with the odd 0x7bf → up → infinity; one below stays.
        assert_eq!(f32_to_f11(0x477e_0000), 0x7bf);
        assert_eq!(f32_to_f11(0x477f_0000), 0x7c0);
        assert_eq!(f32_to_f11(0x477e_ffff), 0x7bf);
        assert_eq!(f32_to_f11(0x7f80_0000), 0x7c0);
        // f10 ulp there is 1024: 64512 + 512 = 65024 (0x477e_0000) ties to infinity.
        assert_eq!(f32_to_f10(0x477c_0000), 0x3df);
        assert_eq!(f32_to_f10(0x477e_0000), 0x3e0);
        // 1 + 2^−7 is an f11 tie between 0x3c0 and 0x3c1 → 0x3c0; 1 + 3 × 2^−7 → 0x3c2.
        assert_eq!(f32_to_f11(0x3f81_0000), 0x3c0);
        assert_eq!(f32_to_f11(0x3f83_0000), 0x3c2);
        // f11 smallest denormal 2^−20 (0x3580_0000), its half 2^−21 (tie → 0), and 1.5 × 2^−20
        // (exponent 107, mantissa 0x40_0000: tie between 1 and 2 → 2).
        assert_eq!(f32_to_f11(0x3580_0000), 0x001);
        assert_eq!(f32_to_f11(0x3500_0000), 0x000);
        assert_eq!(f32_to_f11(0x35c0_0000), 0x002);
        // f10 smallest denormal 2^−19.
        assert_eq!(f32_to_f10(0x3600_0000), 0x001);
    }

    /// The correctly rounded quotients SPEC §5 names, and a few derived by hand.
    #[test]
    fn ratios() {
        // 3/255 = 0.00000011 00000011 00000011 …₂ = 2^−7 × 1.1000000110000001100000011…: the
        // 24-bit significand 1.10000001100000011000000 is followed by 11… > half an ulp → up:
        // fraction 0x40c0c0 + 1, exponent −7 + 127 = 0x78: 0x3c40_c0c1.
        assert_eq!(ratio_to_f32(3, 255), 0x3c40_c0c1);
        // 1/255 = 0.00000001 00000001 …₂ = 2^−8 × 1.00000001000000010000000|100000001…: fraction
        // 0x008080, and the bits after it (1000…) are above half an ulp → up: 0x008081, exponent
        // −8 + 127 = 0x77: 0x3b80_8081.
        assert_eq!(ratio_to_f32(1, 255), 0x3b80_8081);
        // 2/3 = 0.101010…₂ = 2^−1 × 1.0101…: fraction 0x2aaaaa, next bits 1010… > half → 0x2aaaab.
        assert_eq!(ratio_to_f32(2, 3), 0x3f2a_aaab);
        // 1/127 = 0.0000001 0000001 …₂ = 2^−7 × 1.0000001000000100000010|0001…: fraction 0x010204,
        // and the bits after it (0001…) are below half an ulp → down; exponent 0x78.
        assert_eq!(ratio_to_f32(1, 127), 0x3c01_0204);
        assert_eq!(ratio_to_f32(0, 255), 0);
        assert_eq!(ratio_to_f32(255, 255), F32_ONE);
        assert_eq!(ratio_to_f32(1, 1), F32_ONE);
        // Exact powers of two, down to 2^−31 (biased exponent 96 = 0x60).
        assert_eq!(ratio_to_f32(1, 2), 0x3f00_0000);
        assert_eq!(ratio_to_f32(1, 0x8000_0000), 0x3000_0000);
        // A tie (even den): 0x1000001 / 2^25 = 0.5 + 2^−25 needs 25 bits → tie → even 0.5.
        assert_eq!(ratio_to_f32(0x100_0001, 0x200_0000), 0x3f00_0000);
        assert_eq!(ratio_to_f32(0x100_0003, 0x200_0000), 0x3f00_0002);
    }

    /// The exact value of a finite f32 as m × 2^p (m a signed integer).
    fn exact(f: u32) -> (i128, i32) {
        let e = ((f & F32_EXP_MASK) >> 23) as i32;
        let man = i128::from(f & F32_MAN_MASK);
        let (m, p) = if e == 0 { (man, -149) } else { (man | 1 << 23, e - 150) };
        (if f & F32_SIGN != 0 { -m } else { m }, p)
    }

    /// Every f16, f11 and f10 widens to the value its fields spell (computed in f64, where all of
    /// them are exact), and NaNs keep their payload at the top.
    #[test]
    fn widening_matches_the_formula_for_every_code() {
        for (man_bits, signed, widen) in [
            (10u32, true, f16_to_f32 as fn(u16) -> u32),
            (6, false, f11_to_f32 as fn(u16) -> u32),
            (5, false, f10_to_f32 as fn(u16) -> u32),
        ] {
            let width = 5 + man_bits + u32::from(signed);
            for code in 0..1u32 << width {
                let f = widen(code as u16);
                let negative = signed && code >> (width - 1) != 0;
                let exp = (code >> man_bits) & 31;
                let man = code & ((1 << man_bits) - 1);
                if exp == 31 {
                    let sign = if negative { F32_SIGN } else { 0 };
                    assert_eq!(f, sign | F32_EXP_MASK | man << (23 - man_bits), "{code:#x}");
                    continue;
                }
                let magnitude = if exp == 0 {
                    f64::from(man) * 2f64.powi(-14 - man_bits as i32)
                } else {
                    (1.0 + f64::from(man) / f64::from(1u32 << man_bits)) * 2f64.powi(exp as i32 - 15)
                };
                let value = if negative { -magnitude } else { magnitude };
                assert_eq!(f64::from(f32::from_bits(f)), value, "{code:#x}");
                assert_eq!(f & F32_SIGN != 0, negative, "{code:#x}");
            }
        }
    }

    /// Round trip: every f16, f11 and f10 code survives widen then narrow bit for bit (NaNs
    /// included: their payload is non-zero and comes back from the top mantissa bits).
    #[test]
    fn narrow_inverts_widen() {
        for h in 0..=u16::MAX {
            assert_eq!(f32_to_f16(f16_to_f32(h)), h, "{h:#06x}");
        }
        for b in 0..1u16 << 11 {
            assert_eq!(f32_to_f11(f11_to_f32(b)), b, "{b:#05x}");
        }
        for b in 0..1u16 << 10 {
            assert_eq!(f32_to_f10(f10_to_f32(b)), b, "{b:#05x}");
        }
    }

    /// Checks that `small` is the round-to-nearest-even small float of the non-NaN f32 `f`, using
    /// only exact integer arithmetic on values and the neighbours of `small` (independent of the
    /// shift-and-round path). `widen`: the exact f32 of a small-float magnitude.
    fn check_nearest(f: u32, small: u32, man_bits: u32, widen: impl Fn(u32) -> u32) -> Result<(), TestCaseError> {
        let infinity = 31 << man_bits;
        let magnitude = small & ((1 << (5 + man_bits)) - 1);
        let fm = f & !F32_SIGN;
        // Values are compared as integers in units of 2^-53, which holds every f32 in
        // [2^-30, 2^18) exactly (24-bit significand, lowest bit >= 2^-53) in under 2^71.
        // Below 2^-30 every small float rounds to 0 (half the smallest denormal is 2^-25 or
        // more); from 2^18 on to infinity (the largest finite is below 2^16).
        if fm < 0x3080_0000 {
            prop_assert_eq!(magnitude, 0);
            return Ok(());
        }
        if fm >= 0x4880_0000 {
            prop_assert_eq!(magnitude, infinity);
            return Ok(());
        }
        let scaled = |bits: u32| {
            let (m, p) = exact(bits);
            // Zero is the only value here below 2^-30 (p < −53).
            if m == 0 {
                0
            } else {
                m << (p + 53)
            }
        };
        let x = scaled(fm);
        // The largest finite value plus half its ulp is the overflow threshold (a tie there goes
        // up, since the largest finite mantissa is odd).
        let max = scaled(widen(infinity - 1));
        let top = max + (max - scaled(widen(infinity - 2))) / 2;
        if magnitude == infinity {
            prop_assert!(x >= top, "{:#x} overflowed", f);
            return Ok(());
        }
        prop_assert!(x < top);
        let err = (x - scaled(widen(magnitude))).abs();
        for neighbour in [magnitude.wrapping_sub(1), magnitude + 1] {
            if neighbour >= infinity {
                continue;
            }
            let other = (x - scaled(widen(neighbour))).abs();
            prop_assert!(err <= other, "{:#x}: {:#x} farther than {:#x}", f, magnitude, neighbour);
            if err == other {
                prop_assert_eq!(magnitude & 1, 0, "tie not even: {:#x}", f);
            }
        }
        Ok(())
    }

    /// f32 with exponents around the small floats' range (denormals through overflow).
    fn near_range() -> impl Strategy<Value = u32> {
        (any::<bool>(), 90u32..150, 0u32..1 << 23, prop::sample::select(vec![0u32, 1, 0x7f_ffff, 0x40_0000])).prop_map(
            |(s, e, m, special)| {
                let m = if m % 7 == 0 { special } else { m };
                (u32::from(s) << 31) | (e << 23) | m
            },
        )
    }

    proptest! {
        /// f32 → f16 is the nearest f16, ties to even, with the sign kept.
        #[test]
        fn f16_is_nearest(f in prop_oneof![near_range(), any::<u32>()]) {
            let h = f32_to_f16(f);
            if is_nan(f) {
                prop_assert_eq!(u32::from(h) & 0x7c00, 0x7c00);
                prop_assert_ne!(h & 0x3ff, 0);
                prop_assert_eq!(h & F16_SIGN != 0, f & F32_SIGN != 0);
            } else {
                prop_assert_eq!(h & F16_SIGN != 0, f & F32_SIGN != 0);
                check_nearest(f, u32::from(h), 10, |b| f16_to_f32(b as u16))?;
            }
        }

        /// f32 → f11/f10 is NaN, 0 for negatives, else the nearest, ties to even.
        #[test]
        fn f11_f10_are_nearest(f in prop_oneof![near_range(), any::<u32>()]) {
            let (b11, b10) = (u32::from(f32_to_f11(f)), u32::from(f32_to_f10(f)));
            prop_assert!(b11 < 1 << 11 && b10 < 1 << 10);
            if is_nan(f) {
                prop_assert!(b11 > 0x7c0 && b10 > 0x3e0);
            } else if f & F32_SIGN != 0 {
                prop_assert_eq!((b11, b10), (0, 0));
            } else {
                check_nearest(f, b11, 6, |b| f11_to_f32(b as u16))?;
                check_nearest(f, b10, 5, |b| f10_to_f32(b as u16))?;
            }
        }

        /// ratio_to_f32 is the nearest f32 to num/den: checked against its neighbours with
        /// exact cross-multiplication.
        #[test]
        fn ratio_is_nearest((den, num) in (1u32..=u32::MAX).prop_flat_map(|d| (Just(d), 0..=d))) {
            check_ratio(num, den)?;
        }
    }

    /// `ratio_to_f32(num, den)` is no farther from num/den than either neighbour, even on ties.
    fn check_ratio(num: u32, den: u32) -> Result<(), TestCaseError> {
        let f = ratio_to_f32(num, den);
        if num == 0 {
            prop_assert_eq!(f, 0);
            return Ok(());
        }
        // |m × 2^p − num/den| × den × 2^-p' compared with p' = the smallest exponent involved.
        let dist = |bits: u32| -> (i128, i32) {
            let (m, p) = exact(bits);
            (m * i128::from(den), p)
        };
        let target = i128::from(num);
        let err = |bits: u32| {
            let (md, p) = dist(bits);
            // Scale both to 2^-80 units: p >= -56 for quotients >= 2^-33.
            ((md << (p + 80)) - (target << 80)).abs()
        };
        let here = err(f);
        for neighbour in [f - 1, f + 1] {
            let other = err(neighbour);
            prop_assert!(here <= other, "{}/{}: {:#x} vs {:#x}", num, den, f, neighbour);
            if here == other {
                prop_assert_eq!(f & 1, 0);
            }
        }
        Ok(())
    }

    /// Every quotient unorm and snorm unpack can ask for (v / (2^w − 1), w = 2..16) is nearest.
    #[test]
    fn ratio_is_nearest_for_every_unorm_code() {
        for w in 2..=16 {
            let den = (1u32 << w) - 1;
            for num in 0..=den {
                check_ratio(num, den).unwrap();
            }
        }
    }
}
