//! `format_unpack` (SPEC §5 "Unpack", §1.4 layouts and format_valid; docs/decisions.md
//! "format_unpack and format_pack"): a directed table with hand-computed expectations, a
//! snapshot of its cycle-by-cycle trace, pipeline hold behaviour, exhaustive sweeps of every code
//! of every field of 16 bits or fewer under every nfmt, every f16/f11/f10 widening, and random
//! lockstep properties.
//!
//! Expected values come from the hand arithmetic in each row's comment, and independently from
//! tests/common/reference.rs (exact rational arithmetic written from SPEC §5); the two are
//! checked against each other. Nothing here calls rust/float.rs, rust/format.rs or the model's
//! `compute`: the model and the RTL are only observed through the lockstep harness.

use crate::common;
use crate::common::reference;

use std::time::Instant;

use common::f32_consts::{INF, M_ONE, ONE};
use common::sweep;
use gcn_vmem::bindings::format_unpack::Harness;
use gcn_vmem_model::format_unpack::{FormatUnpack, In, Out};
use reference::{fields, format_valid, from_words, words, FLOAT, RESERVED, SINT, SNORM, SSCALED, UINT, UNORM, USCALED};

// ---------------------------------------------------------------------------------------------
// Directed table.
// ---------------------------------------------------------------------------------------------

struct Row {
    name: &'static str,
    dfmt: u8,
    nfmt: u8,
    data: u128,
    expect: [u32; 4],
    count: u8,
    fmt_valid: bool,
}

/// A valid pair: `expect` holds the format's components, 0 beyond `count`.
const fn ok(name: &'static str, dfmt: u8, nfmt: u8, data: u128, expect: [u32; 4], count: u8) -> Row {
    Row { name, dfmt, nfmt, data, expect, count, fmt_valid: true }
}

/// An invalid pair (SPEC §5): four 0 components, count 0, fmt_valid 0, whatever the data.
const fn bad(name: &'static str, dfmt: u8, nfmt: u8, data: u128) -> Row {
    Row { name, dfmt, nfmt, data, expect: [0; 4], count: 0, fmt_valid: false }
}

/// A valid pair of dfmt 4 (one 32-bit field): `expect` is X, the only component (count 1).
const fn raw32(name: &'static str, nfmt: u8, data: u128, expect: u32) -> Row {
    ok(name, 4, nfmt, data, [expect, 0, 0, 0], 1)
}

/// Junk for the bits above a 32-bit element (SPEC/decisions: bits above the element are ignored).
const HI_JUNK: u128 = 0xdead_beef_0bad_f00d_cafe_babe << 32;

/// f32 arithmetic used in the comments: an f32 with biased exponent E and fraction F is
/// (E << 23) | F; for q in [2^k, 2^(k+1)), E = 127 + k and F = round(q / 2^k * 2^23) − 2^23.
const ROWS: &[Row] = &[
    // ---- unorm: the f32 nearest to v / (2^w − 1), ties to even.
    // 3/255 = 1/85 = 2^-7 · 128/85; 2^23·128/85 = 12632256.75 → 12632257 = 0xc0c0c1;
    // E = 120 = 0x78 → 0x3c000000 | 0x40c0c1 = 0x3c40c0c1 (SPEC §5's own example). The bits above
    // the 8-bit element are ignored.
    ok("unorm8 code 3 (SPEC example), high bits ignored", 1, UNORM, !0u128 << 8 | 3, [0x3c40_c0c1, 0, 0, 0], 1),
    // 0 → +0.0.
    ok("unorm8 0", 1, UNORM, 0, [0; 4], 1),
    // X: 1/255 = 2^-8·256/255: 2^23/255 = 32896.502 → 32897 = 0x8081, E = 119 → 0x3b808081.
    // Y: 128/255 = 2^-1·256/255 → same fraction, E = 126 → 0x3f008081.
    // Z: 255/255 = 1.0. W: 254/255 = 2^-1·(1 + 253/255): 2^23·253/255 = 2122317824/255 =
    // 8322814.996 (255·8322815 = 2122317825) → 8322815 = 0x7efeff, E = 126 → 0x3f7efeff.
    ok("unorm8 dfmt 10: 1, 128, 255, 254", 10, UNORM, 0xfeff_8001, [0x3b80_8081, 0x3f00_8081, ONE, 0x3f7e_feff], 4),
    // dfmt 3: X = 255 → 1.0; Y = 3 → 0x3c40c0c1.
    ok("unorm8 dfmt 3 layout", 3, UNORM, 0x03ff | HI_JUNK, [ONE, 0x3c40_c0c1, 0, 0], 2),
    // unorm16 dfmt 12: X = 1: 1/65535 = 2^-16·65536/65535: 2^23/65535 = 128.002 → 128, E = 111 =
    // 0x6f → 0x37800080. Y = 0xffff → 1.0. Z = 0x8000: 2^-1·65536/65535 → 0x3f000080. W = 0.
    ok("unorm16 extremes dfmt 12", 12, UNORM, 0x0000_8000_ffff_0001, [0x3780_0080, ONE, 0x3f00_0080, 0], 4),
    // dfmt 2: 0xffff → 1.0 (bits 127:16 ignored).
    ok("unorm16 dfmt 2 max", 2, UNORM, !0u128, [ONE, 0, 0, 0], 1),
    // dfmt 5: X = 0 → 0; Y = 1 → 0x37800080.
    ok("unorm16 dfmt 5 layout", 5, UNORM, 0x0001_0000 | HI_JUNK, [0, 0x3780_0080, 0, 0], 2),
    // dfmt 9 (X[9:0] Y[19:10] Z[29:20] W[31:30]): X = 1: 1/1023 = 2^-10·1024/1023: 2^23/1023 =
    // 8200.008 → 8200 = 0x2008, E = 117 = 0x75 → 0x3a802008. Y = 1023 → 1.0. Z = 512:
    // 2^-1·1024/1023 → 0x3f002008. W = 1 (2-bit): 1/3 = 2^-2·4/3: 2^23/3 = 2796202.67 → 2796203
    // = 0x2aaaab, E = 125 → 0x3eaaaaab.
    // data = 1<<30 | 512<<20 | 1023<<10 | 1 = 0x40000000 | 0x20000000 | 0xffc00 | 1 = 0x600ffc01.
    ok("unorm10/unorm2 dfmt 9", 9, UNORM, 0x600f_fc01, [0x3a80_2008, ONE, 0x3f00_2008, 0x3eaa_aaab], 4),
    // unorm2 W = 2: 2/3 = 2^-1·4/3 → 0x3f2aaaab; W = 3 → 1.0 (dfmt 8 X: w = 2 too).
    // dfmt 8 (X[1:0] Y[11:2] Z[21:12] W[31:22]): X = 3 → 1.0; Y = 0; Z = 0; W = 0x3ff → 1.0.
    ok("unorm2 W = 2 dfmt 9", 9, UNORM, 0x8000_0000, [0, 0, 0, 0x3f2a_aaab], 4),
    ok("unorm2/unorm10 dfmt 8", 8, UNORM, 0xffc0_0003, [ONE, 0, 0, ONE], 4),
    // dfmt 6 (X[10:0] Y[21:11] Z[31:22]): X = 1: 1/2047 = 2^-11·2048/2047: 2^23/2047 = 4098.002
    // → 4098 = 0x1002, E = 116 = 0x74 → 0x3a001002. Y = 0x7ff → 1.0. Z = 0x3ff → 1.0.
    // data = 0x3ff<<22 | 0x7ff<<11 | 1 = 0xffc00000 | 0x3ff800 | 1 = 0xfffff801.
    ok("unorm11/unorm10 dfmt 6", 6, UNORM, 0xffff_f801, [0x3a00_1002, ONE, ONE, 0], 3),
    // ---- snorm: max(s / (2^(w−1) − 1), −1.0).
    // dfmt 10: X = 1: 1/127 = 2^-7·128/127: 2^23/127 = 66052.03 → 66052 = 0x10204, E = 120 →
    // 0x3c010204. Y = 0x7f → 1.0. Z = 0x81 (−127) → −1.0. W = 0x80 (−128) → −128/127 < −1 → −1.0.
    ok("snorm8 extremes dfmt 10", 10, SNORM, 0x8081_7f01, [0x3c01_0204, ONE, M_ONE, M_ONE], 4),
    // dfmt 3: X = 0xff (−1) → −1/127 = 0xbc010204; Y = 0 → +0.
    ok("snorm8 −1 dfmt 3", 3, SNORM, 0x00ff, [0xbc01_0204, 0, 0, 0], 2),
    // dfmt 1: 0x80 → −1.0 (0xbf800000), the most negative code.
    ok("snorm8 most negative → −1.0", 1, SNORM, 0x80, [M_ONE, 0, 0, 0], 1),
    // dfmt 12: X = 1: 1/32767 = 2^-15·32768/32767: 2^23/32767 = 256.008 → 256 = 0x100, E = 112 =
    // 0x70 → 0x38000100. Y = 0x7fff → 1.0. Z = 0x8001 → −1.0. W = 0x8000 → −1.0 (clamped).
    ok("snorm16 extremes dfmt 12", 12, SNORM, 0x8000_8001_7fff_0001, [0x3800_0100, ONE, M_ONE, M_ONE], 4),
    // dfmt 2: 0x8000 → −1.0.
    ok("snorm16 most negative → −1.0", 2, SNORM, 0x8000, [M_ONE, 0, 0, 0], 1),
    // dfmt 8 (w = 2 X, 10-bit Y Z W): X = 2 (−2 → −2/1 clamped) → −1.0; Y = 0x200 (−512 → −512/511
    // clamped) → −1.0; Z = 0x1ff (511) → 1.0; W = 0x3ff (−1): −1/511 = −2^-9·512/511: 2^23/511 =
    // 16416.03 → 16416 = 0x4020, E = 118 = 0x76 → 0xbb004020.
    // data = 0x3ff<<22 | 0x1ff<<12 | 0x200<<2 | 2 = 0xffc00000 | 0x1ff000 | 0x800 | 2 = 0xffdff802.
    ok("snorm2/snorm10 dfmt 8 most negative", 8, SNORM, 0xffdf_f802, [M_ONE, M_ONE, ONE, 0xbb00_4020], 4),
    // w = 2: X = 1 → 1/1 = 1.0; Y = 1 → 1/511 = 0x3b004020. data = 1<<2 | 1 = 5.
    ok("snorm2 +1 dfmt 8", 8, SNORM, 5, [ONE, 0x3b00_4020, 0, 0], 4),
    // w = 2 as W of dfmt 9: 3 (−1) → −1.0.
    ok("snorm2 −1 dfmt 9", 9, SNORM, 0xc000_0000, [0, 0, 0, M_ONE], 4),
    // dfmt 7 (X[9:0] Y[20:10] Z[31:21]): X = 0x200 (−512) → −1.0; Y = 0x3ff (1023 = 2^10 − 1 =
    // max of 11 bits signed) → 1.0; Z = 0x401 (−1023) → −1.0.
    // data = 0x401<<21 | 0x3ff<<10 | 0x200 = 0x80200000 | 0xffc00 | 0x200 = 0x802ffe00.
    ok("snorm10/snorm11 dfmt 7", 7, SNORM, 0x802f_fe00, [M_ONE, ONE, M_ONE, 0], 3),
    // ---- uscaled: the integer as f32.
    // dfmt 10: 0 → 0; 1 → 1.0; 0x80 → 128.0 = 0x43000000; 0xff → 255.0 = 2^7·1.9921875: E = 134 =
    // 0x86, F = 0.9921875·2^23 = 0x7f0000 → 0x437f0000.
    ok("uscaled8 dfmt 10", 10, USCALED, 0xff80_0100, [0, ONE, 0x4300_0000, 0x437f_0000], 4),
    // dfmt 5: X = 0xffff → 65535.0 = 2^15·(2 − 2^-15): E = 142 = 0x8e, F = 0x7fff00 → 0x477fff00;
    // Y = 0x8000 → 32768.0 = 0x47000000.
    ok("uscaled16 dfmt 5", 5, USCALED, 0x8000_ffff, [0x477f_ff00, 0x4700_0000, 0, 0], 2),
    // dfmt 9: X = 1023 → 1023.0 = 2^9·1.998046875: E = 136 = 0x88, F = 0x7fc000 → 0x447fc000;
    // Y = 0; Z = 1 → 1.0; W = 3 → 3.0 = 0x40400000. data = 3<<30 | 1<<20 | 0x3ff = 0xc01003ff.
    ok("uscaled10/uscaled2 dfmt 9", 9, USCALED, 0xc010_03ff, [0x447f_c000, 0, ONE, 0x4040_0000], 4),
    // ---- sscaled: the signed integer as f32.
    // dfmt 10: X = 0x80 → −128.0 = 0xc3000000; Y = 0x7f → 127.0 = 2^6·1.984375: E = 133 = 0x85,
    // F = 0x7e0000 → 0x42fe0000; Z = 0xff → −1.0; W = 1 → 1.0.
    ok("sscaled8 dfmt 10", 10, SSCALED, 0x01ff_7f80, [0xc300_0000, 0x42fe_0000, M_ONE, ONE], 4),
    // dfmt 5: X = 0x8000 → −32768.0 = 0xc7000000; Y = 0x7fff → 32767.0 = 2^14·(2 − 2^-14): E = 141
    // = 0x8d, F = 0x7ffe00 → 0x46fffe00.
    ok("sscaled16 dfmt 5", 5, SSCALED, 0x7fff_8000, [0xc700_0000, 0x46ff_fe00, 0, 0], 2),
    // dfmt 8 (data as in the snorm row): X = 2 → −2.0 = 0xc0000000; Y = 0x200 → −512.0 =
    // 0xc4000000; Z = 0x1ff → 511.0 = 2^8·1.99609375: E = 135 = 0x87, F = 0x7f8000 → 0x43ff8000;
    // W = 0x3ff → −1.0.
    ok("sscaled2/sscaled10 dfmt 8", 8, SSCALED, 0xffdf_f802, [0xc000_0000, 0xc400_0000, 0x43ff_8000, M_ONE], 4),
    // ---- uint: zero-extended.
    ok("uint8 dfmt 10", 10, UINT, 0x80ff_7f01, [0x01, 0x7f, 0xff, 0x80], 4),
    ok("uint16 dfmt 12", 12, UINT, 0xffff_8000_7fff_0001, [0x0001, 0x7fff, 0x8000, 0xffff], 4),
    // dfmt 8: X = 3, Y = 0x3ff, Z = 0x200, W = 0x155:
    // 0x155<<22 | 0x200<<12 | 0x3ff<<2 | 3 = 0x55400000 | 0x200000 | 0xffc | 3 = 0x55600fff.
    ok("uint2/uint10 dfmt 8", 8, UINT, 0x5560_0fff, [3, 0x3ff, 0x200, 0x155], 4),
    // dfmt 6: X = 0x7ff, Y = 0x400, Z = 0x3ff: 0x3ff<<22 | 0x400<<11 | 0x7ff = 0xffc00000 |
    // 0x200000 | 0x7ff = 0xffe007ff.
    ok("uint11/uint10 dfmt 6", 6, UINT, 0xffe0_07ff, [0x7ff, 0x400, 0x3ff, 0], 3),
    // dfmt 7: X = 0x3ff, Y = 0x7ff, Z = 0x401: 0x401<<21 | 0x7ff<<10 | 0x3ff = 0x80200000 |
    // 0x1ffc00 | 0x3ff = 0x803fffff.
    ok("uint10/uint11 dfmt 7", 7, UINT, 0x803f_ffff, [0x3ff, 0x7ff, 0x401, 0], 3),
    // dfmt 3: X = 0x34, Y = 0x12.
    ok("uint8 dfmt 3", 3, UINT, 0x1234 | HI_JUNK, [0x34, 0x12, 0, 0], 2),
    // ---- sint: sign-extended.
    ok("sint8 dfmt 10", 10, SINT, 0x80ff_7f01, [0x01, 0x7f, 0xffff_ffff, 0xffff_ff80], 4),
    ok("sint16 dfmt 12", 12, SINT, 0xffff_8000_7fff_0001, [0x0001, 0x7fff, 0xffff_8000, 0xffff_ffff], 4),
    // dfmt 9: X = 0x200 (−512), Y = 0x1ff (511), Z = 0x3ff (−1), W = 2 (−2):
    // 2<<30 | 0x3ff<<20 | 0x1ff<<10 | 0x200 = 0x80000000 | 0x3ff00000 | 0x7fc00 | 0x200 = 0xbff7fe00.
    ok("sint10/sint2 dfmt 9", 9, SINT, 0xbff7_fe00, [0xffff_fe00, 0x1ff, 0xffff_ffff, 0xffff_fffe], 4),
    // dfmt 6: X = 0x400 (−1024), Y = 0x3ff (1023), Z = 0x200 (−512): 0x200<<22 | 0x3ff<<11 |
    // 0x400 = 0x80000000 | 0x1ff800 | 0x400 = 0x801ffc00.
    ok("sint11/sint10 dfmt 6", 6, SINT, 0x801f_fc00, [0xffff_fc00, 0x3ff, 0xffff_fe00, 0], 3),
    // dfmt 1: 0x7f → 127; dfmt 2: 0x8000 → 0xffff8000.
    ok("sint8 dfmt 1 positive", 1, SINT, 0x7f, [0x7f, 0, 0, 0], 1),
    ok("sint16 dfmt 2 negative", 2, SINT, 0x8000, [0xffff_8000, 0, 0, 0], 1),
    // ---- w = 32: the raw bits under every nfmt (a NaN pattern would be 0 through unorm).
    raw32("raw32 unorm", UNORM, 0xffc0_0001 | HI_JUNK, 0xffc0_0001),
    raw32("raw32 snorm", SNORM, 0xffc0_0001, 0xffc0_0001),
    raw32("raw32 uscaled", USCALED, 0xffc0_0001, 0xffc0_0001),
    raw32("raw32 sscaled", SSCALED, 0xffc0_0001, 0xffc0_0001),
    raw32("raw32 uint", UINT, 0xffc0_0001, 0xffc0_0001),
    raw32("raw32 sint", SINT, 0xffc0_0001, 0xffc0_0001),
    raw32("raw32 float", FLOAT, 0xffc0_0001, 0xffc0_0001),
    // dfmt 11: X, Y raw; bits 127:64 ignored.
    ok("raw32x2 dfmt 11 unorm", 11, UNORM, 0xdead_beef_0000_0000_ffff_ffff_1234_5678, [0x1234_5678, !0, 0, 0], 2),
    // dfmt 13: X, Y, Z raw; bits 127:96 ignored.
    ok(
        "raw32x3 dfmt 13 snorm",
        13,
        SNORM,
        0xdead_beef_7f80_0000_8000_0000_0000_0001,
        [0x0000_0001, 0x8000_0000, INF, 0],
        3,
    ),
    ok(
        "raw32x4 dfmt 14 float",
        14,
        FLOAT,
        0x4444_4444_3333_3333_2222_2222_1111_1111,
        [0x1111_1111, 0x2222_2222, 0x3333_3333, 0x4444_4444],
        4,
    ),
    ok("raw32x4 dfmt 14 sscaled", 14, SSCALED, !0u128, [!0, !0, !0, !0], 4),
    // ---- float, w = 16: IEEE half widened exactly.
    // X = 0x0001: 2^-24 → E = 103 = 0x67 → 0x33800000. Y = 0x03ff: 1023·2^-24 = 2^-15·1.998046875:
    // E = 112 = 0x70, F = 0x7fc000 → 0x387fc000. Z = 0x8001 → −2^-24 = 0xb3800000. W = 0x0400:
    // 2^-14 → E = 113 = 0x71 → 0x38800000.
    ok(
        "f16 denormals dfmt 12",
        12,
        FLOAT,
        0x0400_8001_03ff_0001,
        [0x3380_0000, 0x387f_c000, 0xb380_0000, 0x3880_0000],
        4,
    ),
    // X = 0x7c00 → +inf; Y = 0xfc00 → −inf; Z = 0x7c01 (signalling, payload 1) → 0x7f800000 |
    // 1<<13 = 0x7f802000 (not quieted); W = 0xfe00 (negative quiet NaN) → 0xffc00000.
    ok("f16 inf/NaN dfmt 12", 12, FLOAT, 0xfe00_7c01_fc00_7c00, [INF, 0xff80_0000, 0x7f80_2000, 0xffc0_0000], 4),
    // X = 0x7bff: 65504 = 2^15·1.99902344: E = 142, F = 0x7fe000 → 0x477fe000. Y = 0x8000 → −0.0.
    ok("f16 max and −0 dfmt 5", 5, FLOAT, 0x8000_7bff | HI_JUNK, [0x477f_e000, 0x8000_0000, 0, 0], 2),
    // 0x7fff: NaN, payload 0x3ff → fraction 0x3ff<<13 = 0x7fe000 → 0x7fffe000.
    ok("f16 NaN all ones dfmt 2", 2, FLOAT, 0x1234_7fff, [0x7fff_e000, 0, 0, 0], 1),
    // 0x3c00 → 1.0; 0xc000 (−2.0) → 0xc0000000.
    ok("f16 1.0 and −2.0 dfmt 5", 5, FLOAT, 0xc000_3c00, [ONE, 0xc000_0000, 0, 0], 2),
    // ---- float, w = 11 and 10 (no sign, 5-bit exponent).
    // dfmt 6: X = f11 0x7c0 → +inf; Y = f11 0x7c0 → +inf; Z = f10 0x3e0 → +inf.
    // data = 0x3e0<<22 | 0x7c0<<11 | 0x7c0 = 0xf8000000 | 0x3e0000 | 0x7c0 = 0xf83e07c0.
    ok("f11/f10 inf dfmt 6", 6, FLOAT, 0xf83e_07c0, [INF, INF, INF, 0], 3),
    // X = f11 0x7c1: NaN, payload 1 → 1<<(23−6) = 0x20000 → 0x7f820000; Y = f11 0x7ff: payload
    // 0x3f<<17 = 0x7e0000 → 0x7ffe0000; Z = f10 0x3e1: payload 1<<18 → 0x7f840000.
    // data = 0x3e1<<22 | 0x7ff<<11 | 0x7c1 = 0xf8400000 | 0x3ff800 | 0x7c1 = 0xf87fffc1.
    ok("f11/f10 NaN dfmt 6", 6, FLOAT, 0xf87f_ffc1, [0x7f82_0000, 0x7ffe_0000, 0x7f84_0000, 0], 3),
    // X = f11 0x3c0 (exponent 15, fraction 0) → 1.0; Y = f11 0x7bf (exponent 30, fraction 63):
    // 2^15·(1 + 63/64) = 65024 → E = 142, F = 63/64·2^23 = 0x7e0000 → 0x477e0000; Z = f10 0x3df
    // (exponent 30, fraction 31): 2^15·(1 + 31/32) = 64512 → 0x477c0000.
    // data = 0x3df<<22 | 0x7bf<<11 | 0x3c0 = 0xf7c00000 | 0x3df800 | 0x3c0 = 0xf7fdfbc0.
    ok("f11/f10 max finite dfmt 6", 6, FLOAT, 0xf7fd_fbc0, [ONE, 0x477e_0000, 0x477c_0000, 0], 3),
    // dfmt 7: X = f10 0x01f (largest denormal): 31·2^-19 = 2^-15·1.9375: E = 112, F = 0x780000 →
    // 0x38780000; Y = f11 0x001 (smallest denormal): 2^-20 → E = 107 = 0x6b → 0x35800000;
    // Z = f11 0x7bf → 0x477e0000. data = 0x7bf<<21 | 1<<10 | 0x1f = 0xf7e00000 | 0x400 | 0x1f.
    ok("f10/f11 denormals dfmt 7", 7, FLOAT, 0xf7e0_041f, [0x3878_0000, 0x3580_0000, 0x477e_0000, 0], 3),
    // dfmt 7: X = f10 0x3ff: NaN, payload 0x1f<<18 = 0x7c0000 → 0x7ffc0000; Y = f11 0x040
    // (smallest normal, 2^-14) → 0x38800000; Z = 0 → 0. data = 0x40<<10 | 0x3ff = 0x103ff.
    ok("f10 NaN, f11 smallest normal dfmt 7", 7, FLOAT, 0x0001_03ff, [0x7ffc_0000, 0x3880_0000, 0, 0], 3),
    // ---- invalid pairs: zeros, count 0, fmt_valid 0.
    bad("dfmt 0 unorm", 0, UNORM, !0u128),
    bad("dfmt 0 uint", 0, UINT, 0x1234_5678),
    bad("dfmt 15 float", 15, FLOAT, !0u128),
    bad("dfmt 15 sint", 15, SINT, 0x8000_0000),
    bad("nfmt 6 on dfmt 10", 10, RESERVED, 0x8081_7f01),
    bad("nfmt 6 on dfmt 4 (raw)", 4, RESERVED, 0xffff_ffff),
    bad("nfmt 6 on dfmt 14", 14, RESERVED, !0u128),
    bad("float on dfmt 1 (8)", 1, FLOAT, 0x3c),
    bad("float on dfmt 3 (8_8)", 3, FLOAT, 0x3c3c),
    bad("float on dfmt 8 (10_10_10_2)", 8, FLOAT, 0xffff_ffff),
    bad("float on dfmt 9 (2_10_10_10)", 9, FLOAT, 0x3c00_3c00),
    bad("float on dfmt 10 (8_8_8_8)", 10, FLOAT, 0x3f80_0000),
];

fn input(r: &Row) -> In {
    In { valid: true, dfmt: r.dfmt, nfmt: r.nfmt, data: r.data }
}

fn expected(r: &Row) -> Out {
    Out { valid: true, components: from_words(r.expect), count: r.count, fmt_valid: r.fmt_valid }
}

/// The reference's outputs for a valid input (tests/common/reference.rs).
fn reference_out(i: &In) -> Out {
    let (c, count, fmt_valid) = reference::unpack(i.dfmt, i.nfmt, i.data);
    Out { valid: true, components: from_words(c), count, fmt_valid }
}

/// The table as the helpers of tests/common take it.
fn rows() -> Vec<common::Row<'static, Harness>> {
    ROWS.iter().map(|r| (r.name, input(r), expected(r))).collect()
}

#[test]
fn directed_table_is_well_formed() {
    // Every dfmt 1..=14 has a valid row and every valid nfmt has a row on a field narrower than 32;
    // the rows' fmt_valid and count are SPEC §1.4's.
    reference::assert_format_rows_well_formed(
        &ROWS.iter().map(|r| (r.name, r.dfmt, r.nfmt, r.fmt_valid)).collect::<Vec<_>>(),
    );
    for r in ROWS {
        let count = if r.fmt_valid { fields(r.dfmt).len() as u8 } else { 0 };
        assert_eq!(r.count, count, "{}: count", r.name);
        assert!(r.expect[usize::from(r.count)..].iter().all(|&c| c == 0), "{}: components beyond count", r.name);
    }
}

// The hand-computed rows against the exact-arithmetic reference (two independent witnesses), and
// through model and RTL in lockstep; the trace of the table as a reviewed snapshot.
common::unit_tests! {
    directed_table: (rows(), reference_out),
    pipeline_bubbles_hold_last_result: (junk, rows(), ROWS[0].name, "f16 inf/NaN dfmt 12"),
}

/// An invalid cycle whose other inputs would change every output if they were taken.
fn junk(k: u32) -> In {
    In { valid: false, dfmt: 12, nfmt: 7, data: !u128::from(k) }
}

// ---------------------------------------------------------------------------------------------
// Exhaustive sweeps.
// ---------------------------------------------------------------------------------------------

/// The reference result of every code of a `width`-bit field under `nfmt` (indexed by code).
fn field_table(width: u32, nfmt: u8) -> Vec<u32> {
    (0..1u32 << width).map(|c| reference::unpack_field(c, width, nfmt)).collect()
}

/// Odd multipliers: field k of vector i holds (i·MULT[k] + ADD[k]) mod 2^w, a permutation of the
/// codes, so over 2^(widest field) vectors every field position sees every one of its codes
/// while the fields of one vector differ.
const MULT: [u32; 4] = [1, 0x9b5, 0x3b, 0x2a7];
const ADD: [u32; 4] = [0, 0x5a5a, 0x1234, 0x7e7e];

fn field_code(i: u32, k: usize, width: u32) -> u32 {
    i.wrapping_mul(MULT[k]).wrapping_add(ADD[k]) & ((1 << width) - 1)
}

/// Vector i of a dfmt's sweep: the permuted field codes, and junk above the element.
fn sweep_data(dfmt: u8, i: u32) -> u128 {
    let mut data = 0u128;
    let mut top = 0;
    for (k, &(lsb, width)) in fields(dfmt).iter().enumerate() {
        data |= u128::from(field_code(i, k, width)) << lsb;
        top = lsb + width;
    }
    data | (u128::from(i).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835) << top)
}

/// Sweeps every code of every field of `dfmt` under every nfmt 0..7 through model and RTL
/// (sweep asserts their agreement) and compares every result with the reference. Returns the
/// number of vectors.
fn sweep_dfmt(dfmt: u8) -> usize {
    let f = fields(dfmt);
    let widest = f.iter().map(|&(_, w)| w).max().unwrap();
    assert!(widest <= 16);
    let mut vectors = 0;
    let mut failures = Vec::new();
    for nfmt in 0..8u8 {
        let valid = format_valid(dfmt, nfmt);
        let tables: Vec<Vec<u32>> =
            if valid { f.iter().map(|&(_, w)| field_table(w, nfmt)).collect() } else { Vec::new() };
        let inputs: Vec<In> =
            (0..1u32 << widest).map(|i| In { valid: true, dfmt, nfmt, data: sweep_data(dfmt, i) }).collect();
        let outs = sweep::<Harness>(&inputs);
        assert_eq!(outs.len(), inputs.len());
        for (i, (inp, o)) in inputs.iter().zip(&outs).enumerate() {
            let mut want = [0u32; 4];
            if valid {
                for (k, &(_, w)) in f.iter().enumerate() {
                    want[k] = tables[k][field_code(i as u32, k, w) as usize];
                }
            }
            let want = Out {
                valid: true,
                components: from_words(want),
                count: if valid { f.len() as u8 } else { 0 },
                fmt_valid: valid,
            };
            if *o != want && failures.len() < 20 {
                failures.push(format!(
                    "dfmt {dfmt} nfmt {nfmt} data {:#x}:\n  reference: {}\n  got:       {}",
                    inp.data,
                    common::show(&want),
                    common::show(o)
                ));
            }
        }
        vectors += inputs.len();
    }
    assert!(failures.is_empty(), "{} failure(s) (first 20):\n{}", failures.len(), failures.join("\n"));
    vectors
}

/// Every code of every field of the 8-bit formats (dfmt 1, 3, 10) under every nfmt 0..7.
#[test]
fn exhaustive_unpack_8bit_fields() {
    common::timed("exhaustive_unpack_8bit_fields", || [1, 3, 10].into_iter().map(sweep_dfmt).sum());
}

/// Every code of the 16-bit field of dfmt 2 under every nfmt.
#[test]
fn exhaustive_unpack_16bit_dfmt2() {
    common::timed("exhaustive_unpack_16bit_dfmt2", || sweep_dfmt(2));
}

/// Every code of both 16-bit fields of dfmt 5 under every nfmt.
#[test]
fn exhaustive_unpack_16bit_dfmt5() {
    common::timed("exhaustive_unpack_16bit_dfmt5", || sweep_dfmt(5));
}

/// Every code of the four 16-bit fields of dfmt 12 under every nfmt.
#[test]
fn exhaustive_unpack_16bit_dfmt12() {
    common::timed("exhaustive_unpack_16bit_dfmt12", || sweep_dfmt(12));
}

/// Every code of every field of the packed formats (11/11/10, 10/11/11, 2/10/10/10,
/// 10/10/10/2) under every nfmt.
#[test]
fn exhaustive_unpack_packed_fields() {
    common::timed("exhaustive_unpack_packed_fields", || [6, 7, 8, 9].into_iter().map(sweep_dfmt).sum());
}

/// All 65,536 f16 → f32 widenings (dfmt 2, float) through model and RTL, against the reference
/// and, for every non-NaN code, against the `half` crate as a second witness.
#[test]
fn exhaustive_f16_to_f32() {
    let start = Instant::now();
    let inputs: Vec<In> = (0..=u16::MAX)
        .map(|h| In { valid: true, dfmt: 2, nfmt: FLOAT, data: u128::from(h) | (u128::from(!h) << 16) })
        .collect();
    let outs = sweep::<Harness>(&inputs);
    let mut failures = Vec::new();
    let mut nans = 0;
    for (h, o) in (0..=u16::MAX).zip(&outs) {
        let got = words(o.components)[0];
        let want = reference::f16_to_f32(h);
        let is_nan = h & 0x7c00 == 0x7c00 && h & 0x3ff != 0;
        if is_nan {
            nans += 1;
            // NaN: sign, all-ones exponent, payload in the top fraction bits, nothing quieted.
            assert_eq!(want, u32::from(h >> 15) << 31 | 0x7f80_0000 | u32::from(h & 0x3ff) << 13);
        } else {
            let witness = half::f16::from_bits(h).to_f32().to_bits();
            assert_eq!(want, witness, "reference and half disagree on f16 {h:#06x}");
        }
        if got != want || o.count != 1 || !o.fmt_valid || words(o.components)[1..] != [0, 0, 0] {
            failures.push(format!("f16 {h:#06x}: reference {want:#010x} got {}", common::show(o)));
        }
    }
    assert_eq!(nans, 2 * 1023);
    common::assert_no_failures(&failures);
    println!("exhaustive_f16_to_f32: 65536 vectors in {:.2?}", start.elapsed());
}

/// The textbook value of an unsigned small float (5-bit exponent, bias 15), in f64 then f32
/// (exact: every such value is an f32): a second witness independent of the reference's
/// rational encoding.
fn small_float_witness(code: u32, man_bits: u32) -> u32 {
    let exp = (code >> man_bits) as i32;
    let man = code & ((1 << man_bits) - 1);
    if exp == 31 {
        return 0x7f80_0000 | man << (23 - man_bits);
    }
    let scale = f64::from(1u32 << man_bits);
    let v = if exp == 0 {
        f64::from(man) / scale * 2f64.powi(-14)
    } else {
        (1.0 + f64::from(man) / scale) * 2f64.powi(exp - 15)
    };
    let f = v as f32;
    assert_eq!(f64::from(f), v, "not exact");
    f.to_bits()
}

/// All 2,048 f11 codes, in both f11 positions of dfmt 6 (X, Y) and of dfmt 7 (Y, Z).
#[test]
fn exhaustive_f11_to_f32() {
    let start = Instant::now();
    let mut failures = Vec::new();
    for (dfmt, slots, f10_slot) in [(6u8, [0usize, 1], 2usize), (7, [1, 2], 0)] {
        let f = fields(dfmt);
        let inputs: Vec<In> = (0..2048u32)
            .map(|c| {
                // The two f11 fields hold c and its bitwise complement; the f10 field c's low bits.
                let mut data = u128::from(c & 0x3ff) << f[f10_slot].0;
                for (slot, code) in slots.iter().zip([c, 0x7ff ^ c]) {
                    data |= u128::from(code) << f[*slot].0;
                }
                In { valid: true, dfmt, nfmt: FLOAT, data }
            })
            .collect();
        let outs = sweep::<Harness>(&inputs);
        for (c, o) in (0..2048u32).zip(&outs) {
            let comps = words(o.components);
            for (slot, code) in slots.iter().zip([c, 0x7ff ^ c]) {
                let want = reference::f11_to_f32(code);
                assert_eq!(want, small_float_witness(code, 6), "reference and witness disagree on f11 {code:#05x}");
                if comps[*slot] != want {
                    failures.push(format!(
                        "dfmt {dfmt} f11 {code:#05x} in field {slot}: reference {want:#010x} got {}",
                        common::show(o)
                    ));
                }
            }
        }
    }
    common::assert_no_failures(&failures);
    println!("exhaustive_f11_to_f32: 4096 vectors in {:.2?}", start.elapsed());
}

/// All 1,024 f10 codes, in the f10 positions of dfmt 6 (Z) and dfmt 7 (X).
#[test]
fn exhaustive_f10_to_f32() {
    let start = Instant::now();
    let mut failures = Vec::new();
    for (dfmt, slot) in [(6u8, 2usize), (7, 0)] {
        let f = fields(dfmt);
        let inputs: Vec<In> = (0..1024u32)
            .map(|c| {
                // The f11 fields hold other codes (c·0x9b5 and its complement, 11 bits).
                let mut data = u128::from(c) << f[slot].0;
                let others: Vec<usize> = (0..3).filter(|&k| k != slot).collect();
                data |= u128::from(c.wrapping_mul(0x9b5) & 0x7ff) << f[others[0]].0;
                data |= u128::from(!c.wrapping_mul(0x9b5) & 0x7ff) << f[others[1]].0;
                In { valid: true, dfmt, nfmt: FLOAT, data }
            })
            .collect();
        let outs = sweep::<Harness>(&inputs);
        for (c, o) in (0..1024u32).zip(&outs) {
            let want = reference::f10_to_f32(c);
            assert_eq!(want, small_float_witness(c, 5), "reference and witness disagree on f10 {c:#05x}");
            if words(o.components)[slot] != want {
                failures.push(format!("dfmt {dfmt} f10 {c:#05x}: reference {want:#010x} got {}", common::show(o)));
            }
        }
    }
    common::assert_no_failures(&failures);
    println!("exhaustive_f10_to_f32: 2048 vectors in {:.2?}", start.elapsed());
}

/// A self-check of the reference's unorm/snorm/scaled unpack against a second method: the f64
/// quotient (correctly rounded to 53 bits) cast to f32. The cast rounds twice, which could only
/// differ from correct rounding if an f64 quotient landed exactly on an f32 midpoint; for these
/// widths none does, so every code of every width must agree.
#[test]
fn reference_unorm_snorm_against_f64_quotient() {
    for width in [2u32, 8, 10, 11, 16] {
        let d = f64::from((1u32 << width) - 1);
        let sd = f64::from((1u32 << (width - 1)) - 1);
        for code in 0..1u32 << width {
            let un = (f64::from(code) / d) as f32;
            assert_eq!(reference::unpack_field(code, width, UNORM), un.to_bits(), "unorm{width} code {code}");
            let s = if code >> (width - 1) != 0 { i64::from(code) - (1i64 << width) } else { i64::from(code) };
            let sn = ((s as f64 / sd).max(-1.0)) as f32;
            assert_eq!(reference::unpack_field(code, width, SNORM), sn.to_bits(), "snorm{width} code {code}");
            assert_eq!(reference::unpack_field(code, width, USCALED), (code as f32).to_bits());
            assert_eq!(reference::unpack_field(code, width, SSCALED), (s as f32).to_bits());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Random lockstep properties.
// ---------------------------------------------------------------------------------------------

common::unit_tests! {
    random_cases_agree_in_lockstep: 1000,
    every_assertion_fires_and_is_reported: ["CountBound_A", "InvalidZero_A", "ValidCount_A"],
    random_stimulus_hits_every_bin: 62,
    random_cases_match_reference: (1000, reference_out),
}

// ---------------------------------------------------------------------------------------------
// Functional coverage (rust/format_unpack.rs `cover`).
// ---------------------------------------------------------------------------------------------

/// Asserts that `input` lands in every bin of `expected` (and, with `exactly`, in no other).
fn assert_bins(input: In, expected: &[&str], exactly: bool) {
    let out = gcn_vmem_model::format_unpack::compute(&input);
    common::assert_input_bins::<FormatUnpack>(&format!("{input:?}"), &input, &out, expected, exactly);
}

/// Hand-chosen elements land in the bins SPEC §1.4 and §5 name for them.
#[test]
fn directed_inputs_land_in_their_bins() {
    let i = |dfmt: u8, nfmt: u8, data: u128| In { valid: true, dfmt, nfmt, data };
    // 8_8_8_8 unorm: X = 0 (0.0), Y = 0xff (1.0), Z = 0x80 and W = 0x01 between.
    assert_bins(
        i(10, UNORM, 0x0180_ff00),
        &[
            "format: 8_8_8_8/unorm",
            "value: 8_8_8_8/unorm X(8b) 0 -> 0.0",
            "value: 8_8_8_8/unorm Y(8b) max code -> 1.0",
            "value: 8_8_8_8/unorm Z(8b) between",
            "value: 8_8_8_8/unorm W(8b) between",
        ],
        true,
    );
    // 10_10_10_2 snorm: X[1:0] = 2 (the most negative 2-bit code), Y = 0x201 (−511 = −max),
    // Z = 0x1ff (+511, max), W = 0x200 (−512, most negative).
    let data = 2 | 0x201 << 2 | 0x1ff << 12 | 0x200 << 22;
    assert_bins(
        i(8, SNORM, data),
        &[
            "format: 10_10_10_2/snorm",
            "value: 10_10_10_2/snorm X(2b) most negative -> -1.0 (clamped)",
            "value: 10_10_10_2/snorm Y(10b) -max -> -1.0",
            "value: 10_10_10_2/snorm Z(10b) max positive -> 1.0",
            "value: 10_10_10_2/snorm W(10b) most negative -> -1.0 (clamped)",
        ],
        true,
    );
    // 2_10_10_10 sint: W[31:30] = 3 is −1; X = 0x123 is an ordinary positive code.
    assert_bins(
        i(9, SINT, 0xC000_0123),
        &["value: 2_10_10_10/sint W(2b) -1", "value: 2_10_10_10/sint X(10b) other positive"],
        false,
    );
    // 16 float: 0xfc00 is −inf; bits above the 2-byte element are set (and ignored).
    assert_bins(
        i(2, FLOAT, 0xdead_fc00),
        &["format: 16/float", "junk: bits above a 2-byte element", "value: 16/float X(16b) -inf"],
        true,
    );
    // 10_11_11 float: X (11 bits) 0x7c0 = exponent 31, mantissa 0: inf; Y (11 bits) 0x7e0: quiet
    // NaN; Z (10 bits) 0x001: denormal.
    let data = 0x7c0 | 0x7e0 << 11 | 0x001 << 22;
    assert_bins(
        i(6, FLOAT, data),
        &[
            "value: 10_11_11/float X(11b) inf",
            "value: 10_11_11/float Y(11b) quiet NaN",
            "value: 10_11_11/float Z(10b) denormal",
        ],
        false,
    );
    // 32 uint: a NaN pattern is copied raw.
    assert_bins(i(4, UINT, 0x7fc0_0000), &["format: 32/uint", "value: 32/uint X(32b) NaN pattern (copied raw)"], true);
    // Refused pairs, each named by its dfmt.
    assert_bins(i(10, FLOAT, 0), &["illegal (fmt_valid = 0): 8_8_8_8/float (a field not 32, 16, 11 or 10 bits)"], true);
    assert_bins(i(0, UNORM, 0), &["illegal (fmt_valid = 0): 0:INVALID (any nfmt)"], true);
    assert_bins(i(5, RESERVED, 0), &["illegal (fmt_valid = 0): 16_16/reserved 6"], true);
    assert_bins(i(15, FLOAT, 0), &["illegal (fmt_valid = 0): 15:reserved (any nfmt)"], true);
}

/// The declared value classes are exactly the reachable ones: every code of every field width
/// the formats use (2, 8, 10, 11, 16), under every nfmt valid on it, classifies into the
/// width's class list and reaches each class of it; the `format` point has one bin per pair
/// that SPEC §1.4 accepts.
#[test]
fn every_declared_value_class_is_reachable() {
    use gcn_vmem_model::cover::Covered;
    use gcn_vmem_model::format_unpack::cover::{classes, classify};
    let integer_like = [UNORM, SNORM, USCALED, SSCALED, UINT, SINT];
    for width in [2u32, 8, 10, 11, 16] {
        let float = if matches!(width, 10 | 11 | 16) { &[FLOAT][..] } else { &[][..] };
        for &nfmt in integer_like.iter().chain(float) {
            let names = classes(width, nfmt);
            let mut seen = vec![false; names.len()];
            for raw in 0..1u32 << width {
                let c = classify(raw, width, nfmt);
                assert!(c < names.len(), "width {width} nfmt {nfmt}: code {raw:#x} -> class {c}");
                seen[c] = true;
            }
            for (name, seen) in names.iter().zip(seen) {
                assert!(seen, "width {width} nfmt {nfmt}: class `{name}` declared but unreachable");
            }
        }
    }
    let group = FormatUnpack::covergroup();
    assert_eq!(group.points[0].bins.len(), reference::valid_pairs().len());
    assert_eq!(group.points[0].bins.len(), 93);
}
