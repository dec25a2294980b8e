//! `inline_const`: the CTM 7-bit unsigned-float inline constants of the R5xx ALU, as f32 bits.
//!
//! Spec: docs/spec.md §9 (seed 004)  RTL: rtl/inline_const.sv  Tests: tests/inline_const.rs
//!
//! A code is bits 6:3 exponent e (bias 7) and bits 2:0 mantissa m:
//! e > 0 gives `(1 + m/8) · 2^(e−7)`; e = 0 gives the denormal `m/8 · 2^−6`, except that code 0
//! is `2^−10` rather than zero. Every value is a small integer times a power of two, so the f32
//! arithmetic below is exact and its bit pattern is the output.
//!
//! Timing: `LATENCY = 2`, the shared [`Pipeline`](crate::unit::Pipeline): stage 1 registers the
//! value with the input's valid, the output stage registers stage 1; data registers hold when no
//! valid input reaches them; reset clears every register.

use bitvec::prelude::{BitArray, Lsb0};

use crate::bits::Field;
use crate::ports;
use crate::unit::{eval_object, pipelined_unit};

ports! {
    /// Inputs of `inline_const`, in RTL port order.
    pub struct In {
        valid: bool;
        code: u8 = 7;
    }
}
ports! {
    /// Outputs of `inline_const`, in RTL port order: the constant's f32 bit pattern.
    pub struct Out {
        valid: bool;
        bits: u32;
    }
}

/// 6:3, the exponent e (bias 7).
pub const EXPONENT: Field = Field::new(3..7);
/// 2:0, the mantissa m (eighths).
pub const MANTISSA: Field = Field::new(0..3);

/// The code's fields (SPEC §9): (exponent bits 6:3, mantissa bits 2:0).
#[inline]
pub fn fields(code: u8) -> (u8, u8) {
    let bits: BitArray<[u64; 1], Lsb0> = BitArray::new([u64::from(code & 0x7f)]);
    (EXPONENT.load_le(&bits), MANTISSA.load_le(&bits))
}

/// 2^k as an f32, for the normal exponents k of this unit (−10..=8): exact, and without the
/// loop of `powi` (which was a fifth of the model's time).
#[inline]
fn pow2(k: i32) -> f32 {
    debug_assert!((-126..=127).contains(&k));
    f32::from_bits(((k + 127) as u32) << 23)
}

/// The constant of `code` (bits above 6 ignored) as an f32.
#[inline]
pub fn value(code: u8) -> f32 {
    let (e, m) = fields(code);
    let fraction = f32::from(m) / 8.0;
    match (e, m) {
        (0, 0) => pow2(-10),
        (0, _) => fraction * pow2(-6),
        _ => (1.0 + fraction) * pow2(i32::from(e) - 7),
    }
}

/// Every code's constant bits, by [`value`], computed once, so that a step is a lookup rather
/// than the f32 arithmetic.
static VALUES: std::sync::LazyLock<[u32; 128]> =
    std::sync::LazyLock::new(|| std::array::from_fn(|code| value(code as u8).to_bits()));

/// The combinational function: a code to its constant's bits (bit 7 of `code` ignored).
#[inline]
pub fn compute(input: &In) -> Out {
    Out { valid: input.valid, bits: VALUES[usize::from(input.code & 0x7f)] }
}

pipelined_unit! {
    /// The cycle-accurate model: two register stages, compute before stage 1.
    #[derive(Copy)]
    pub struct InlineConst { NAME: "inline_const", LATENCY: 2 }
}

// Functional coverage bins: rust/inline_const/cover.rs.
pub mod cover;

// The unit's `eval` object (SPEC §13): its input ports in, this object out.
eval_object!(InlineConst, |_input, out| eval::object([("bits", Value::from(out.bits))]));

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unit::Unit;

    #[test]
    fn fields_split_the_code() {
        assert_eq!(fields(0b101_1011), (0b1011, 0b011));
        assert_eq!(fields(0xff), (0xf, 7), "bit 7 is ignored");
    }

    #[test]
    fn values_grow_with_the_code() {
        // The encoding is monotonic: a larger code is a larger constant (code 0 aside, 2^-10 is
        // above codes 1.. only in name: 2^-10 < 2^-9).
        for code in 1..127u8 {
            assert!(value(code + 1) > value(code), "code {code}");
        }
        assert!(value(0) < value(1));
    }

    #[test]
    fn latency_two_and_reset() {
        let mut u = InlineConst::new();
        assert!(!u.step(&In { valid: true, code: 0x38 }).valid);
        let out = u.step(&In::default());
        assert_eq!(out, Out { valid: true, bits: 0x3f80_0000 });
        assert_eq!(u.set_reset(true), Out::default());
    }
}
