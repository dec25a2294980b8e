//! Functional coverage (rust/cover.rs): the bins `make cosim` must hit.
//!
//! SPEC §9 defines every one of the 128 codes (no reserved or illegal code exists), so the bins
//! are each code's constant and the value classes of the table: code 0's special 2^−10, the
//! denormals (e = 0, m > 0), normals below 1, exactly 1, and above 1 the integers and the values
//! with a fraction.

use super::{In, Out};
use crate::cover::{Covergroup, Hits};

/// The coverpoints, in declaration order.
#[repr(usize)]
enum Point {
    Code,
    Class,
}

/// Value classes of SPEC §9, in bin order.
pub const CLASSES: [&str; 6] = [
    "code 0 = 2^-10",
    "denormal m/8*2^-6 (e=0, m>0)",
    "normal below 1 (e=1..6)",
    "exactly 1 (0x38)",
    "above 1 with a fraction",
    "integer above 1",
];

pub fn covergroup() -> Covergroup {
    let codes = (0..128u32).map(|c| format!("0x{c:02x} (e={} m={})", c >> 3, c & 7));
    Covergroup::new().point(Point::Code as usize, "code", codes).point(Point::Class as usize, "value class", CLASSES)
}

/// The class of a result (cheap decoding of the f32 bits; the code tells code 0 and the
/// denormals apart from the normals below 1). A select chain, last class first, so that the
/// class of a random code costs no branch.
#[inline]
fn class(code: u8, bits: u32) -> usize {
    let e = code >> 3;
    let exp = (bits >> 23) as i32 - 127;
    // Fraction bits below the binary point: the mantissa bits under 2^exp (none from 2^23 on;
    // a negative exponent does not reach this class).
    let fraction = 0x007f_ffffu32.checked_shr(exp as u32).unwrap_or(0);
    let mut c = sel(bits & fraction != 0, 4, 5);
    c = sel(bits == 0x3f80_0000, 3, c);
    c = sel(exp < 0, 2, c);
    c = sel(e == 0, 1, c);
    sel(code == 0, 0, c)
}

/// `cond ? a : b` as a conditional move.
#[inline(always)]
fn sel(cond: bool, a: usize, b: usize) -> usize {
    std::hint::select_unpredictable(cond, a, b)
}

#[inline]
pub fn sample(input: &In, out: &Out, hits: &mut Hits) {
    let code = input.code & 0x7f;
    hits.hit(Point::Code as usize, usize::from(code));
    hits.hit(Point::Class as usize, class(code, out.bits));
}
