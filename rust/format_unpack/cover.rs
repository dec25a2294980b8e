//! Functional coverage (rust/cover.rs): the bins `make cosim` must hit, from SPEC §1.4 and §5.
//!
//! - `format`: every pair format_valid accepts (93: dfmt 1–14 under the seven non-reserved
//!   nfmts, less float on dfmt 1, 3, 8, 9, 10).
//! - `illegal`: each way a pair is refused, per dfmt (dfmt 0, dfmt 15, nfmt 6 on dfmt 1–14,
//!   float on a format with an 8- or 2-bit field).
//! - `junk`: data bits set above the element, per element size (they must be ignored).
//! - `value`: per valid pair, per component, the value classes of that component's field
//!   under that nfmt ([`classes`]): only classes a field of that width can hold are declared
//!   (a 2-bit snorm field has no "other positive" code).

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
pub const DFMT: [&str; 16] = crate::format::DFMT_NAMES;
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

/// The bin tables of the `format` and `value` points of a format unit (this one and
/// format_pack: the same pairs, each unit with its own value classes).
pub(crate) struct Tables {
    /// The first `value` bin of (dfmt, nfmt, component).
    pub base: [[[u16; 4]; 8]; 16],
    /// The `format` bin of each valid (dfmt, nfmt).
    pub pair: [[u8; 8]; 16],
    /// Bins of the `value` point.
    pub bins: usize,
}

/// The [`Tables`] of a format unit whose value classes are the `const fn` `$classes(width,
/// nfmt)`: each valid pair gets the next `format` bin, each of its components the next run of
/// `value` bins. A macro because a const fn cannot call through a function pointer.
macro_rules! format_tables {
    ($classes:path) => {{
        let (mut base, mut pair) = ([[[0u16; 4]; 8]; 16], [[u8::MAX; 8]; 16]);
        let (mut next, mut pairs) = (0usize, 0u8);
        let mut dfmt = 0;
        while dfmt < 16 {
            let mut nfmt = 0;
            while nfmt < 8 {
                if $crate::format_unpack::cover::valid(dfmt, nfmt) {
                    pair[dfmt][nfmt] = pairs;
                    pairs += 1;
                    let mut k = 0;
                    while k < $crate::format::FIELDS[dfmt].len() {
                        base[dfmt][nfmt][k] = next as u16;
                        next += $classes($crate::format::FIELDS[dfmt][k].width, nfmt as u8).len();
                        k += 1;
                    }
                }
                nfmt += 1;
            }
            dfmt += 1;
        }
        $crate::format_unpack::cover::Tables { base, pair, bins: next }
    }};
}
pub(crate) use format_tables;

const TABLES: Tables = format_tables!(classes);
const BASE: [[[u16; 4]; 8]; 16] = TABLES.base;
const PAIR: [[u8; 8]; 16] = TABLES.pair;
/// Bins of the `value` point.
pub const VALUE_BINS: usize = TABLES.bins;

/// The `illegal` bin of an invalid pair: dfmt 0, dfmt 15, then nfmt 6 on dfmt 1–14, then
/// float on dfmt 1, 3, 8, 9, 10.
#[inline]
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

/// The bins of a format unit's `format` point (`dfmt/nfmt`, each valid pair) and `value` point
/// (per valid pair, per component of the format, the `classes(width, nfmt)` of its field), in
/// the order of [`format_tables!`]; shared with format_pack.
pub(crate) fn pair_and_value_bins(classes: fn(u32, u8) -> &'static [&'static str]) -> (Vec<String>, Vec<String>) {
    let pairs = (0..16).flat_map(|d| (0..8).filter(move |&n| valid(d, n)).map(move |n| (d, n)));
    let format = pairs.clone().map(|(d, n)| format!("{}/{}", DFMT[d], NFMT[n])).collect();
    let value = pairs
        .flat_map(|(d, n)| {
            FIELDS[d].iter().enumerate().flat_map(move |(k, f)| {
                classes(f.width, n as u8)
                    .iter()
                    .map(move |c| format!("{}/{} {}({}b) {c}", DFMT[d], NFMT[n], COMPONENT[k], f.width))
            })
        })
        .collect();
    (format, value)
}

pub fn covergroup() -> Covergroup {
    let (format, value) = pair_and_value_bins(classes);
    let junk = ["1-byte", "2-byte", "4-byte", "8-byte", "12-byte"].map(|b| format!("bits above a {b} element"));
    Covergroup::new()
        .point(Point::Format as usize, "format", format)
        .point(Point::Illegal as usize, "illegal (fmt_valid = 0)", illegal_bins())
        .point(Point::Junk as usize, "junk", junk)
        .point(Point::Value as usize, "value", value)
}

/// The class of a 32-bit field, copied raw whatever the nfmt: an index into [`RAW32`] (shared
/// with format_pack).
#[inline]
pub(crate) fn raw32_class(raw: u32) -> usize {
    match raw {
        0 => 0,
        u32::MAX => 1,
        r if r & 0x7f80_0000 == 0x7f80_0000 && r & 0x007f_ffff != 0 => 2,
        _ => 3,
    }
}

/// Counts the `format` hit of a valid (dfmt, nfmt) port pair, or the `illegal` hit of an
/// invalid one (the first two points of both format units, `format` then `illegal`); returns
/// the pair as table indices when it is valid.
#[inline]
pub(crate) fn hit_pair(dfmt: u8, nfmt: u8, hits: &mut Hits) -> Option<(usize, usize)> {
    let (dfmt, nfmt) = (dfmt & 0xf, nfmt & 0x7);
    if !format_valid(dfmt, nfmt) {
        hits.hit(Point::Illegal as usize, illegal_bin(dfmt, nfmt));
        return None;
    }
    let (d, n) = (usize::from(dfmt), usize::from(nfmt));
    hits.hit(Point::Format as usize, usize::from(PAIR[d][n]));
    Some((d, n))
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
        return raw32_class(raw);
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
    let Some((d, n)) = hit_pair(input.dfmt, input.nfmt, hits) else {
        return;
    };
    let bytes = crate::format::element_bytes(d as u8);
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
        hits.hit(Point::Value as usize, usize::from(BASE[d][n][k]) + classify(raw, f.width, n as u8));
    }
}
