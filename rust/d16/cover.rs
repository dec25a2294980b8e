//! Functional coverage (rust/cover.rs): the bins `make cosim` must hit, from SPEC §6 (and §5's
//! f32 <-> f16 rules) with docs/decisions.md "d16"'s encoding of the ops.

use super::{
    In, Out, OP_LOAD_FORMAT, OP_LOAD_SHORT, OP_LOAD_UBYTE, OP_NAMES, OP_STORE_BYTE, OP_STORE_FORMAT, OP_STORE_SHORT,
};
use crate::cover::{Covergroup, Hits};
use crate::format::{is_integer, NFMT_SINT};

/// The coverpoints, in declaration order.
#[repr(usize)]
enum Point {
    OpHi,
    FormatNfmt,
    FormatCount,
    LoadHalf,
    StoreHalf,
    ByteShort,
}

const FORMAT_OPS: [&str; 2] = ["load_format", "store_format"];
const BYTE_SHORT_OPS: [&str; 5] = ["load_ubyte", "load_sbyte", "load_short", "store_byte", "store_short"];
const NFMTS: [&str; 8] =
    ["unorm", "snorm", "uscaled", "sscaled", "uint", "sint", "reserved 6 (illegal, float-like)", "float"];
const COUNTS: [&str; 8] = [
    "count 0 (illegal: nothing)",
    "count 1",
    "count 2",
    "count 3",
    "count 4",
    "count 5 (illegal, as 4)",
    "count 6 (illegal, as 4)",
    "count 7 (illegal, as 4)",
];
/// What load_format does to one component (k < count): f32 -> f16 for float-like nfmts
/// (SPEC §5's float rule), the low 16 bits for uint/sint.
pub const LOAD_HALF: [&str; 11] = [
    "float-like: +-0",
    "float-like: normal f16 result",
    "float-like: f16 denormal result",
    "float-like: nonzero underflows to +-0",
    "float-like: rounding tie (to even)",
    "float-like: finite overflows to +-inf",
    "float-like: +-inf",
    "float-like: NaN, payload kept (top 10 bits)",
    "float-like: NaN, payload forced to 1",
    "uint/sint: fits 16 bits",
    "uint/sint: upper bits dropped",
];
/// What store_format does to one half (k < count): f16 -> f32 exactly, or zero/sign
/// extension.
pub const STORE_HALF: [&str; 12] = [
    "float-like: +0",
    "float-like: -0",
    "float-like: denormal (kept exactly)",
    "float-like: normal",
    "float-like: +inf",
    "float-like: -inf",
    "float-like: quiet NaN",
    "float-like: signalling NaN",
    "uint: msb 0",
    "uint: msb 1 (zero-extended)",
    "sint: non-negative",
    "sint: negative (sign-extended)",
];

pub fn covergroup() -> Covergroup {
    Covergroup::new()
        .cross(Point::OpHi as usize, "op x hi", &[OP_NAMES, &["hi=0", "hi=1"]])
        .cross(Point::FormatNfmt as usize, "format op x nfmt", &[&FORMAT_OPS, &NFMTS])
        .cross(Point::FormatCount as usize, "format op x count", &[&FORMAT_OPS, &COUNTS])
        .point(Point::LoadHalf as usize, "load_format component -> half", LOAD_HALF)
        .point(Point::StoreHalf as usize, "store_format half -> component", STORE_HALF)
        .cross(
            Point::ByteShort as usize,
            "byte/short op x hi x msb of the moved value",
            &[&BYTE_SHORT_OPS, &["hi=0", "hi=1"], &["msb 0", "msb 1"]],
        )
}

/// Whether rounding the f32 `c` (finite, nonzero) to f16 drops exactly half a unit in the
/// last place: the bits below the f16 precision are 100…0.
#[inline]
fn f16_tie(c: u32) -> bool {
    let exp = ((c >> 23) & 0xff) as i32 - 127;
    if exp >= -14 {
        return c & 0x1fff == 0x1000;
    }
    // f16 denormals: the quantum is 2^−24, so 1.m × 2^exp keeps its top exp + 25 bits.
    let shift = -1 - exp;
    if exp == -127 || shift > 24 {
        return false;
    }
    let sig = (c & 0x007f_ffff) | 0x0080_0000;
    sig & ((1 << shift) - 1) == 1 << (shift - 1)
}

/// The [`LOAD_HALF`] bin of component `c` converted to half `h` under `nfmt`.
#[inline]
fn load_half(c: u32, h: u16, nfmt: u8) -> usize {
    if is_integer(nfmt) {
        let fits = if nfmt & 7 == NFMT_SINT { (c as i32) as i16 as i32 == c as i32 } else { c >> 16 == 0 };
        return if fits { 9 } else { 10 };
    }
    let (exp, man) = ((c >> 23) & 0xff, c & 0x007f_ffff);
    if exp == 0xff {
        return match (man, man >> 13) {
            (0, _) => 6,
            (_, 0) => 8,
            _ => 7,
        };
    }
    if c & 0x7fff_ffff == 0 {
        0
    } else if f16_tie(c) {
        4
    } else if h & 0x7fff == 0x7c00 {
        5
    } else if h & 0x7fff == 0 {
        3
    } else if h & 0x7c00 == 0 {
        2
    } else {
        1
    }
}

/// The [`STORE_HALF`] bin of half `h` under `nfmt`.
#[inline]
fn store_half(h: u16, nfmt: u8) -> usize {
    let msb = usize::from(h >> 15);
    if is_integer(nfmt) {
        return if nfmt & 7 == NFMT_SINT { 10 + msb } else { 8 + msb };
    }
    match (h >> 10 & 0x1f, h & 0x3ff) {
        (0, 0) => msb,
        (0, _) => 2,
        (0x1f, 0) => 4 + msb,
        (0x1f, m) if m & 0x200 != 0 => 6,
        (0x1f, _) => 7,
        _ => 3,
    }
}

#[inline]
pub fn sample(input: &In, out: &Out, hits: &mut Hits) {
    let (op, nfmt, count) = (input.op & 7, input.nfmt & 7, input.count & 7);
    // Cross bins by hand (the last axis fastest, as `cross` lays them out): plain indexing on
    // the hot path.
    hits.hit(Point::OpHi as usize, usize::from(op) * 2 + usize::from(input.hi));
    let k = u32::from(count.min(4));
    match op {
        OP_LOAD_FORMAT | OP_STORE_FORMAT => {
            let f = usize::from(op == OP_STORE_FORMAT);
            hits.hit(Point::FormatNfmt as usize, f * 8 + usize::from(nfmt));
            hits.hit(Point::FormatCount as usize, f * 8 + usize::from(count));
            for i in 0..k {
                if op == OP_LOAD_FORMAT {
                    let c = (input.data >> (32 * i)) as u32;
                    let h = (out.result >> (16 * i)) as u16;
                    hits.hit(Point::LoadHalf as usize, load_half(c, h, nfmt));
                } else {
                    hits.hit(Point::StoreHalf as usize, store_half((input.data >> (16 * i)) as u16, nfmt));
                }
            }
        }
        // Loads move data[7:0] / data[15:0]; stores data[23:16] / data[31:16] (hi) or the low
        // byte / short.
        OP_LOAD_UBYTE..=OP_LOAD_SHORT | OP_STORE_BYTE | OP_STORE_SHORT => {
            let stored = op >= OP_STORE_BYTE;
            let shift = if stored && input.hi { 16 } else { 0 };
            let top = if op == OP_LOAD_SHORT || op == OP_STORE_SHORT { 15 } else { 7 };
            let msb = (input.data >> (shift + top)) as usize & 1;
            let row = if stored { usize::from(op - OP_STORE_BYTE) + 3 } else { usize::from(op - OP_LOAD_UBYTE) };
            hits.hit(Point::ByteShort as usize, (row * 2 + usize::from(input.hi)) * 2 + msb);
        }
        _ => {}
    }
}
