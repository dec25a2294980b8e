//! `format_pack` (SPEC §5 "Pack", §1.4 layouts and format_valid; docs/decisions.md
//! "format_unpack and format_pack"): a directed table with hand-computed expectations, a
//! snapshot of its cycle-by-cycle trace, pipeline hold behaviour, every valid (dfmt, nfmt) pair on
//! the f32 corner values, exhaustive round trips of every 8-, 16-, 11-, 10- and 2-bit code, sweeps
//! of the rounding edges, and random lockstep properties against the reference.
//!
//! Expected values come from the hand arithmetic in each row's comment, and independently from
//! tests/common/reference.rs (exact integer arithmetic written from SPEC §5); the two are checked
//! against each other, and the reference against `half` and f64 witnesses. Nothing here calls
//! rust/float.rs, rust/format.rs or the model's `compute`.

use crate::common;
use crate::common::reference;

use std::cell::RefCell;
use std::time::Instant;

use common::f32_consts::{HALF, INF, M_HALF, M_INF, M_ONE, M_TWO, M_ZERO, ONE, QNAN, TWO};
use common::sweep;
use gcn_vmem::bindings::format_pack::{Harness, Rtl};
use gcn_vmem::engine::lockstep::Lockstep;
use gcn_vmem::engine::stimulus::{f32_bits, from_rng, SPECIAL_F32};
use gcn_vmem_model::format_pack::{FormatPack, In, Out};
use proptest::prelude::*;
use reference::{
    element_bits, fields, format_valid, from_words, valid_pairs, FLOAT, RESERVED, SINT, SNORM, SSCALED, UINT, UNORM,
    USCALED,
};

// ---------------------------------------------------------------------------------------------
// Directed table.
// ---------------------------------------------------------------------------------------------

struct Row {
    name: &'static str,
    dfmt: u8,
    nfmt: u8,
    components: [u32; 4],
    expect: u128,
    fmt_valid: bool,
}

const fn ok(name: &'static str, dfmt: u8, nfmt: u8, components: [u32; 4], expect: u128) -> Row {
    Row { name, dfmt, nfmt, components, expect, fmt_valid: true }
}

/// An invalid pair (SPEC §5): all-zero data, fmt_valid 0.
const fn bad(name: &'static str, dfmt: u8, nfmt: u8, components: [u32; 4]) -> Row {
    Row { name, dfmt, nfmt, components, expect: 0, fmt_valid: false }
}

/// Notation: an f32 with biased exponent E and fraction F has the value 2^(E−127)·(1 + F/2^23).
/// unorm: round_half_even(v·(2^w − 1)); snorm: round_half_even(v·(2^(w−1) − 1)), two's
/// complement in w bits. Data is written W..X from the most significant end.
const ROWS: &[Row] = &[
    // ---- unorm.
    // 0.5·255 = 127.5: a tie, to even → 128 = 0x80. Y, Z, W are not in dfmt 1: ignored, and the
    // data above bit 7 is 0.
    ok("unorm8 0.5 → 128 (127.5 ties to even)", 1, UNORM, [HALF, ONE, ONE, ONE], 0x80),
    // X = 0x3f000001 = 0.5 + 2^-24: 127.5 + 255·2^-24 → 128. Y = 0x3effffff = 0.5 − 2^-25:
    // 127.5 − 255·2^-25 → 127 = 0x7f. Z = 0x3b008081 = 2^-9·(2^23 + 0x8081)/2^23 (the f32 nearest
    // to 0.5/255): ·255 = 255·8421505/2^32 = (2^31 + 127)/2^32 = 0.5 + 127·2^-32 → 1 (an f32
    // product would round to 0.5 and then to 0). W = 0x3b008080: 255·8421504/2^32 = (2^31 −
    // 128)/2^32 → 0. data = 0x00_01_7f_80.
    ok("unorm8 beside halfway points", 10, UNORM, [0x3f00_0001, 0x3eff_ffff, 0x3b00_8081, 0x3b00_8080], 0x0001_7f80),
    // X = 2.0 clamps to 1 → 255; Y = −1.0 clamps to 0; Z = NaN → 0; W = −0.0 → 0.
    ok("unorm8 clamp, NaN, −0", 10, UNORM, [TWO, M_ONE, QNAN, M_ZERO], 0xff),
    // X = +inf → 255; Y = −inf → 0.
    ok("unorm8 ±inf", 3, UNORM, [INF, M_INF, 0, 0], 0x00ff),
    // X = 0x3c40c0c1 = 12632257·2^-30: ·255 = 3221225535/2^30 = 3 + 63/2^30 → 3. Y = 0x3f008081 =
    // 8421505·2^-24: ·255 = 2147483775/2^24 = 128 + 127/2^24 → 128 = 0x80.
    ok("unorm8 unpacked codes 3 and 128 pack back", 3, UNORM, [0x3c40_c0c1, 0x3f00_8081, 0, 0], 0x8003),
    // X = 0.5·65535 = 32767.5 → 32768 = 0x8000 (tie, even); Y = 1.0 → 0xffff; Z = 0x37000080 =
    // 2^-17·(2^23 + 128)/2^23: ·65535 = 65535·8388736/2^40 = (2^39 − 128)/2^40 → 0; W = 0x37000081:
    // 65535·8388737/2^40 = (2^39 + 65407)/2^40 → 1.
    ok("unorm16 halfway and beside 0.5/65535", 12, UNORM, [HALF, ONE, 0x3700_0080, 0x3700_0081], 0x0001_0000_ffff_8000),
    // X = the largest finite f32 clamps → 0xffff.
    ok("unorm16 f32 max clamps", 2, UNORM, [0x7f7f_ffff, 0, 0, 0], 0xffff),
    // X = −inf → 0; Y = 0x3f7fffff = 1 − 2^-24: 65535 − 65535·2^-24 = 65535 − 0.0039 → 65535.
    // (dfmt 5; the f32 denormal case is the next row.)
    ok("unorm16 −inf and just below 1", 5, UNORM, [M_INF, 0x3f7f_ffff, 0, 0], 0xffff_0000),
    // X = 0x00000001 (f32 denormal 2^-149) → 0; Y = 0x80000001 (negative) → 0.
    ok("unorm16 f32 denormals", 5, UNORM, [0x0000_0001, 0x8000_0001, 0, 0], 0),
    // dfmt 9: X = 1.0 → 0x3ff; Y = 0; Z = 0.5·1023 = 511.5 → 512 = 0x200; W (w = 2) = 0.5·3 = 1.5
    // → 2. data = 2<<30 | 0x200<<20 | 0x3ff = 0x80000000 | 0x20000000 | 0x3ff = 0xa00003ff.
    ok("unorm10/unorm2 dfmt 9", 9, UNORM, [ONE, 0, HALF, HALF], 0xa000_03ff),
    // dfmt 8: X (w = 2) = 1.0 → 3; Y = 0.5 → 512 → <<2 = 0x800; Z = 0x3eaaaaab = 11184811·2^-25:
    // ·1023 = 11442061653/2^25 = 341 + 341/2^25 → 341 = 0x155 → <<12 = 0x155000; W = 1.0 → 0x3ff
    // → <<22 = 0xffc00000. data = 0xffd55803.
    ok("unorm2/unorm10 dfmt 8", 8, UNORM, [ONE, HALF, 0x3eaa_aaab, ONE], 0xffd5_5803),
    // dfmt 6: X (11) = 0.5·2047 = 1023.5 → 1024 = 0x400; Y (11) = 1.0 → 0x7ff → <<11 = 0x3ff800;
    // Z (10) = 0.5 → 512 → <<22 = 0x80000000. data = 0x803ffc00.
    ok("unorm11/unorm10 dfmt 6", 6, UNORM, [HALF, ONE, HALF, 0], 0x803f_fc00),
    // ---- snorm.
    // X = 0.5·127 = 63.5 → 64 = 0x40; Y = −63.5 → −64 = 0xc0; Z = 1.0 → 127 = 0x7f; W = −1.0 →
    // −127 = 0x81 (never 0x80).
    ok("snorm8 ±0.5, ±1", 10, SNORM, [HALF, M_HALF, ONE, M_ONE], 0x817f_c040),
    // X = 2.0 → 0x7f; Y = −2.0 → −127 = 0x81; Z = NaN → 0; W = −0.0 → 0.
    ok("snorm8 clamp, NaN, −0", 10, SNORM, [TWO, M_TWO, QNAN, M_ZERO], 0x817f),
    // X = +inf → 0x7f; Y = −inf → 0x81.
    ok("snorm8 ±inf", 3, SNORM, [INF, M_INF, 0, 0], 0x817f),
    // X = −1.0 → −32767 = 0x8001; Y = 1.0 → 0x7fff.
    ok("snorm16 ±1", 5, SNORM, [M_ONE, ONE, 0, 0], 0x7fff_8001),
    // dfmt 8: X (w = 2, scale 1) = 0.5 → tie between 0 and 1 → 0 (even; half-up would give 1);
    // Y = 0.5·511 = 255.5 → 256 = 0x100 → <<2 = 0x400; Z = −255.5 → −256 = 0x300 → <<12 =
    // 0x300000; W = −1.0 → −511 = 0x201 → <<22 = 0x80400000. data = 0x80700400.
    ok("snorm2/snorm10 ties dfmt 8", 8, SNORM, [HALF, HALF, M_HALF, M_ONE], 0x8070_0400),
    // dfmt 8: X = 0xbf000001 = −(0.5 + 2^-24) → −1 = 3; Y = −0.5 → −256 = 0x300 → <<2 = 0xc00;
    // Z = 0x3f000001 → 255.5 + 511·2^-24 → 256 = 0x100 → <<12 = 0x100000; W = −0.5 → 0x300 → <<22
    // = 0xc0000000. data = 0xc0100c03.
    ok("snorm2/snorm10 beside ties dfmt 8", 8, SNORM, [0xbf00_0001, M_HALF, 0x3f00_0001, M_HALF], 0xc010_0c03),
    // dfmt 9: X = 1.0 → 0x1ff; Y = −1.0 → 0x201 → <<10 = 0x80400; Z = 0; W (w = 2) = −0.5 → tie
    // between −1 and 0 → 0 (even; away from zero would give 3). data = 0x805ff.
    ok("snorm2 −0.5 ties to 0 dfmt 9", 9, SNORM, [ONE, M_ONE, 0, M_HALF], 0x0008_05ff),
    // dfmt 9: X = 0x3f000001 → 256 = 0x100; Y = 0x3effffff = 0.5 − 2^-25: 255.5 − 511·2^-25 →
    // 255 = 0xff → <<10 = 0x3fc00; Z = −2.0 → −511 = 0x201 → <<20 = 0x20100000; W = 1.0 → 1 →
    // <<30 = 0x40000000. data = 0x6013fd00.
    ok("snorm10 beside 0.5 dfmt 9", 9, SNORM, [0x3f00_0001, 0x3eff_ffff, M_TWO, ONE], 0x6013_fd00),
    // ---- uscaled: NaN → 0, toward zero, saturate to [0, 2^w − 1].
    // X = 0x3ff33333 (1.9) → 1; Y = 0x437fe666 (255.9) → 255; Z = 256.0 → 255; W = −1.0 → 0.
    ok("uscaled8 truncation and saturation", 10, USCALED, [0x3ff3_3333, 0x437f_e666, 0x4380_0000, M_ONE], 0x00ff_ff01),
    // X = NaN → 0; Y = +inf → 255; Z = −inf → 0; W = −0.5 → 0.
    ok("uscaled8 NaN, ±inf, negative", 10, USCALED, [QNAN, INF, M_INF, M_HALF], 0x0000_ff00),
    // X = 0x477fff80 (65535.5) → 65535; Y = 0x4788b800 (70000) → 0xffff.
    ok("uscaled16 truncation and saturation", 5, USCALED, [0x477f_ff80, 0x4788_b800, 0, 0], 0xffff_ffff),
    // X = f32 max → 0xffff.
    ok("uscaled16 f32 max saturates", 2, USCALED, [0x7f7f_ffff, 0, 0, 0], 0xffff),
    // dfmt 9: X = 0x447ff000 (1023.75) → 1023; Y = 1024.0 → 1023; Z = 0x407f5c29 (3.99) → 3;
    // W (w = 2) = 4.0 → 3. data = 3<<30 | 3<<20 | 0x3ff<<10 | 0x3ff = 0xc03fffff.
    ok("uscaled10/uscaled2 dfmt 9", 9, USCALED, [0x447f_f000, 0x4480_0000, 0x407f_5c29, 0x4080_0000], 0xc03f_ffff),
    // ---- sscaled: NaN → 0, toward zero, saturate to [−2^(w−1), 2^(w−1) − 1].
    // X = 0xbff33333 (−1.9) → −1 = 0xff; Y = 0x42ffcccd (127.9) → 0x7f; Z = 128.0 → 0x7f; W =
    // 0xc300e666 (−128.9) → −128 = 0x80.
    ok(
        "sscaled8 truncation and saturation",
        10,
        SSCALED,
        [0xbff3_3333, 0x42ff_cccd, 0x4300_0000, 0xc300_e666],
        0x807f_7fff,
    ),
    // X = −129.0 → −128 = 0x80; Y = NaN → 0; Z = +inf → 0x7f; W = −inf → 0x80.
    ok("sscaled8 NaN, ±inf", 10, SSCALED, [0xc301_0000, QNAN, INF, M_INF], 0x807f_0080),
    // X = 0xc7000080 (−32768.5) → −32768 = 0x8000; Y = 0x471c4000 (40000) → 0x7fff.
    ok("sscaled16 truncation and saturation", 5, SSCALED, [0xc700_0080, 0x471c_4000, 0, 0], 0x7fff_8000),
    // dfmt 8: X (w = 2, [−2, 1]) = 1.5 → 1; Y = −0.5 → 0; Z = 0xc4004000 (−513) → −512 = 0x200 →
    // <<12 = 0x200000; W = 0x43fff333 (511.9) → 511 = 0x1ff → <<22 = 0x7fc00000. data = 0x7fe00001.
    ok("sscaled2/sscaled10 dfmt 8", 8, SSCALED, [0x3fc0_0000, M_HALF, 0xc400_4000, 0x43ff_f333], 0x7fe0_0001),
    // dfmt 8: X = 0xc0200000 (−2.5) → −2 = 2.
    ok("sscaled2 −2.5 → −2", 8, SSCALED, [0xc020_0000, 0, 0, 0], 2),
    // dfmt 9: W = 5.0 → 1 (saturated) → 0x40000000; X = 0xbff33333 (−1.9) → −1 = 0x3ff.
    ok("sscaled2 saturates, sscaled10 −1.9", 9, SSCALED, [0xbff3_3333, 0, 0, 0x40a0_0000], 0x4000_03ff),
    // ---- uint / sint: the low w bits.
    ok("uint8 low bits, Y..W ignored", 1, UINT, [0x1234_5678, !0, !0, !0], 0x78),
    ok("sint8 low bits", 10, SINT, [0xffff_ff80, 0x7f, 0x180, 0xffff_ffff], 0xff80_7f80),
    ok("uint8 dfmt 3, Z W ignored", 3, UINT, [0x11, 0x22, !0, !0], 0x2211),
    ok("uint16 low bits", 12, UINT, [0xdead_beef, 0x0001_0000, 0xffff, 0x8000_0001], 0x0001_ffff_0000_beef),
    ok("sint16 low bits", 5, SINT, [0xffff_8000, 0x0001_7fff, 0, 0], 0x7fff_8000),
    // dfmt 9: X = 0x12345 → 0x345; Z = 0x7ff → 0x3ff; W = 7 → 3. data = 0xc0000000 | 0x3ff00000
    // | 0x345 = 0xfff00345.
    ok("uint10/uint2 dfmt 9", 9, UINT, [0x1_2345, 0, 0x7ff, 7], 0xfff0_0345),
    // dfmt 7: X = 0x400 → 0; Y = 0xfffff401 → 0x401 → <<10 = 0x100400; Z = 0xfff → 0x7ff → <<21 =
    // 0xffe00000. data = 0xfff00400.
    ok("uint10/uint11 dfmt 7", 7, UINT, [0x400, 0xffff_f401, 0xfff, 0], 0xfff0_0400),
    // dfmt 8: X = −2 → 2; Y = 0x200; Z = 0xfffffdff → 0x1ff → <<12 = 0x1ff000; W = 0x12345678 →
    // 0x278 → <<22 = 0x9e000000. data = 0x9e000000 | 0x1ff000 | 0x800 | 2 = 0x9e1ff802.
    ok("sint2/sint10 dfmt 8", 8, SINT, [0xffff_fffe, 0x200, 0xffff_fdff, 0x1234_5678], 0x9e1f_f802),
    // dfmt 6: X = −1024 → 0x400; Y = 0x3ff → <<11 = 0x1ff800; Z = −512 → 0x200 → <<22 =
    // 0x80000000. data = 0x801ffc00.
    ok("sint11/sint10 dfmt 6", 6, SINT, [0xffff_fc00, 0x3ff, 0xffff_fe00, 0], 0x801f_fc00),
    // ---- float → f16 (round to nearest even, overflow → infinity).
    // X = 1.0 → 0x3c00; Y = 65504 (0x477fe000) → 0x7bff; Z = 0x477fefff = 65504 + 0xfff·2^-8 =
    // 65519.996 < 65520 (the midpoint of 65504 and 2^16) → 0x7bff; W = 0x477ff000 = 65520, a tie
    // between 0x7bff (odd) and infinity (even) → 0x7c00.
    ok(
        "f16 1.0, 65504, 65519.99, 65520",
        12,
        FLOAT,
        [ONE, 0x477f_e000, 0x477f_efff, 0x477f_f000],
        0x7c00_7bff_7bff_3c00,
    ),
    // X = +inf → 0x7c00; Y = −inf → 0xfc00; Z = −0.0 → 0x8000; W = −65520 → 0xfc00.
    ok("f16 ±inf, −0, −65520", 12, FLOAT, [INF, M_INF, M_ZERO, 0xc77f_f000], 0xfc00_8000_fc00_7c00),
    // NaNs: X = 0x7fc00000: top 10 fraction bits 0x200 → 0x7e00; Y = 0x7f800001: top bits 0 →
    // forced to 1 → 0x7c01; Z = 0xff801fff: top bits 0 → 0xfc01 (sign kept); W = 0x7fbfffff: top
    // bits 0x3fffff >> 13 = 0x1ff → 0x7dff.
    ok("f16 NaN payloads", 12, FLOAT, [QNAN, 0x7f80_0001, 0xff80_1fff, 0x7fbf_ffff], 0x7dff_fc01_7c01_7e00),
    // X = 0xffffffff → 0xffff; Y = 0xffc00000 → 0xfe00.
    ok("f16 negative NaNs", 5, FLOAT, [0xffff_ffff, 0xffc0_0000, 0, 0], 0xfe00_ffff),
    // Denormal results (the f16 ulp there is 2^-24): X = 2^-24 (0x33800000) → 0x0001; Y = 2^-25
    // (0x33000000), a tie between 0 and 1 → 0; Z = 0x33000001 (just above) → 0x0001; W =
    // 1.5·2^-24 (0x33c00000), a tie between 1 and 2 → 0x0002.
    ok("f16 denormal results", 12, FLOAT, [0x3380_0000, 0x3300_0000, 0x3300_0001, 0x33c0_0000], 0x0002_0001_0000_0001),
    // X = 1023·2^-24 (0x387fc000) → 0x03ff; Y = 1023.5·2^-24 (0x387fe000), a tie between 0x03ff and
    // 0x0400 → 0x0400; Z = f32 denormal 2^-149 → 0x0000; W = −2^-149 → 0x8000.
    ok(
        "f16 denormal/normal edge, f32 denormals",
        12,
        FLOAT,
        [0x387f_c000, 0x387f_e000, 0x0000_0001, 0x8000_0001],
        0x8000_0000_0400_03ff,
    ),
    // f16 ulp at 1 is 2^-10: X = 1 + 2^-11 (0x3f801000), a tie → 0x3c00 (even); Y = 1 + 3·2^-11
    // (0x3f803000), a tie → 0x3c02; Z = 0x3f801001 → 0x3c01; W = 0x3f800fff → 0x3c00.
    ok("f16 normal ties", 12, FLOAT, [0x3f80_1000, 0x3f80_3000, 0x3f80_1001, 0x3f80_0fff], 0x3c00_3c01_3c02_3c00),
    ok("f16 dfmt 2, Y..W ignored", 2, FLOAT, [ONE, !0, !0, !0], 0x3c00),
    // ---- float → f11/f10 (no sign).
    // dfmt 6: X = 65024 (0x477e0000) = f11 max → 0x7bf; Y = 65280 (0x477f0000), the midpoint of
    // 65024 and 2^16: a tie, infinity is even → 0x7c0; Z = 65024 in f10 (max 64512): the midpoint
    // of 64512 and 2^16 → 0x3e0. data = 0x3e0<<22 | 0x7c0<<11 | 0x7bf = 0xf83e07bf.
    ok("f11/f10 overflow ties dfmt 6", 6, FLOAT, [0x477e_0000, 0x477f_0000, 0x477e_0000, 0], 0xf83e_07bf),
    // dfmt 7: X (f10) = 0x477dffff, just below 65024 → 0x3df; Y (f11) = 0x477effff, just below
    // 65280 → 0x7bf; Z = −1.0 → 0. data = 0x7bf<<10 | 0x3df = 0x1efc00 | 0x3df = 0x1effdf.
    ok("f10/f11 beside overflow dfmt 7", 7, FLOAT, [0x477d_ffff, 0x477e_ffff, M_ONE, 0], 0x001e_ffdf),
    // dfmt 6: X = −0.0 → 0; Y = −2^-149 → 0; Z = −inf → 0.
    ok("f11/f10 −0, −denormal, −inf → 0", 6, FLOAT, [M_ZERO, 0x8000_0001, M_INF, 0], 0),
    // dfmt 7: X = −1.0 → 0; Y = −f32 max → 0; Z = 1.0 → f11 exponent 15 → 0x3c0 → <<21 = 0x78000000.
    ok("f11/f10 negative → 0 dfmt 7", 7, FLOAT, [M_ONE, 0xff7f_ffff, ONE, 0], 0x7800_0000),
    // NaN first, sign dropped: X = 0xffc00000 → 0x7c0 | (0x400000 >> 17 = 0x20) = 0x7e0; Y =
    // 0xff800001 → top 6 bits 0, forced → 0x7c1 (a NaN, not 0); Z = 0xffffffff → f10 0x3e0 |
    // 0x7fffff >> 18 = 0x3ff. data = 0x3ff<<22 | 0x7c1<<11 | 0x7e0 = 0xffc00000 | 0x3e0800 | 0x7e0.
    ok("f11/f10 NaN sign dropped", 6, FLOAT, [0xffc0_0000, 0xff80_0001, 0xffff_ffff, 0], 0xfffe_0fe0),
    // dfmt 7: X (f10) = 0x7fc00000 → 0x3e0 | 0x10 = 0x3f0; Y = +inf → 0x7c0 → <<10 = 0x1f0000; Z =
    // 0x7f800001 → 0x7c1 → <<21 = 0xf8200000. data = 0xf83f03f0.
    ok("f10/f11 NaN payload, +inf dfmt 7", 7, FLOAT, [QNAN, INF, 0x7f80_0001, 0], 0xf83f_03f0),
    // f11 smallest denormal 2^-20, f10's 2^-19. X = 2^-20 (0x35800000) → f11 1; Y = 0x35000001
    // (just above 2^-21, half of it) → 1; Z = 2^-20 in f10: a tie between 0 and 1 → 0.
    // data = 1<<11 | 1 = 0x801.
    ok("f11/f10 denormal results", 6, FLOAT, [0x3580_0000, 0x3500_0001, 0x3580_0000, 0], 0x801),
    // X = 1.0 → 0x3c0; Y = 2.0 → exponent 16 → 0x400 → <<11 = 0x200000; Z = 1.0 → f10 0x1e0 →
    // <<22 = 0x78000000. data = 0x782003c0.
    ok("f11/f10 1.0 and 2.0", 6, FLOAT, [ONE, TWO, ONE, 0], 0x7820_03c0),
    // ---- w = 32: raw under every nfmt (a NaN would be 0 under unorm/snorm/scaled).
    ok("raw32 unorm", 4, UNORM, [0x7fc0_0001, ONE, ONE, ONE], 0x7fc0_0001),
    ok("raw32 snorm", 4, SNORM, [0x7fc0_0001, 0, 0, 0], 0x7fc0_0001),
    ok("raw32 uscaled", 4, USCALED, [0xbf80_0000, 0, 0, 0], 0xbf80_0000),
    ok("raw32 sscaled", 4, SSCALED, [0x7fc0_0001, 0, 0, 0], 0x7fc0_0001),
    ok("raw32 uint", 4, UINT, [0x7fc0_0001, 0, 0, 0], 0x7fc0_0001),
    ok("raw32 sint", 4, SINT, [0x7fc0_0001, 0, 0, 0], 0x7fc0_0001),
    ok("raw32 float", 4, FLOAT, [0x7f80_0001, 0, 0, 0], 0x7f80_0001),
    ok("raw32x2 dfmt 11 unorm", 11, UNORM, [0xffff_ffff, M_ZERO, !0, !0], 0x8000_0000_ffff_ffff),
    ok("raw32x3 dfmt 13 snorm", 13, SNORM, [1, 2, 3, 4], 0x0000_0003_0000_0002_0000_0001),
    ok(
        "raw32x4 dfmt 14 float",
        14,
        FLOAT,
        [0x1111_1111, 0x2222_2222, 0x3333_3333, 0x4444_4444],
        0x4444_4444_3333_3333_2222_2222_1111_1111,
    ),
    // ---- invalid pairs: all-zero data, fmt_valid 0.
    bad("dfmt 0 unorm", 0, UNORM, [ONE; 4]),
    bad("dfmt 0 uint", 0, UINT, [!0; 4]),
    bad("dfmt 15 float", 15, FLOAT, [ONE; 4]),
    bad("dfmt 15 sint", 15, SINT, [!0; 4]),
    bad("nfmt 6 on dfmt 10", 10, RESERVED, [ONE; 4]),
    bad("nfmt 6 on dfmt 4 (raw)", 4, RESERVED, [!0; 4]),
    bad("nfmt 6 on dfmt 14", 14, RESERVED, [!0; 4]),
    bad("float on dfmt 1 (8)", 1, FLOAT, [ONE; 4]),
    bad("float on dfmt 3 (8_8)", 3, FLOAT, [ONE; 4]),
    bad("float on dfmt 8 (10_10_10_2)", 8, FLOAT, [ONE; 4]),
    bad("float on dfmt 9 (2_10_10_10)", 9, FLOAT, [ONE; 4]),
    bad("float on dfmt 10 (8_8_8_8)", 10, FLOAT, [ONE; 4]),
];

fn input(r: &Row) -> In {
    In { valid: true, dfmt: r.dfmt, nfmt: r.nfmt, components: from_words(r.components) }
}

fn expected(r: &Row) -> Out {
    Out { valid: true, data: r.expect, fmt_valid: r.fmt_valid }
}

/// The table as the helpers of tests/common take it.
fn rows() -> Vec<common::Row<'static, Harness>> {
    ROWS.iter().map(|r| (r.name, input(r), expected(r))).collect()
}

/// The reference's outputs for a valid input (tests/common/reference.rs).
fn reference_out(i: &In) -> Out {
    let (data, fmt_valid) = reference::pack(i.dfmt, i.nfmt, reference::words(i.components));
    Out { valid: true, data, fmt_valid }
}

#[test]
fn directed_table_is_well_formed() {
    reference::assert_format_rows_well_formed(
        &ROWS.iter().map(|r| (r.name, r.dfmt, r.nfmt, r.fmt_valid)).collect::<Vec<_>>(),
    );
    for r in ROWS {
        let bits = element_bits(r.dfmt);
        assert!(bits == 128 || r.expect >> bits == 0, "{}: data above the element", r.name);
    }
}

// The hand-computed rows against the exact-arithmetic reference (two independent witnesses), and
// through model and RTL in lockstep; the trace of the table as a reviewed snapshot.
common::unit_tests! {
    directed_table: (rows(), reference_out),
    pipeline_bubbles_hold_last_result: (junk, rows(), ROWS[0].name, "f16 NaN payloads"),
}

/// An invalid cycle whose other inputs would change every output if they were taken.
fn junk(k: u32) -> In {
    In { valid: false, dfmt: 14, nfmt: 4, components: !u128::from(k) }
}

/// Every (dfmt, nfmt) pair, valid or not, on every f32 corner value of the harness's stimulus
/// list (rotated through the four components), through model and RTL, against the reference.
#[test]
fn every_pair_on_special_values() {
    let n = SPECIAL_F32.len();
    let mut inputs = Vec::new();
    for dfmt in 0..16u8 {
        for nfmt in 0..8u8 {
            for i in 0..n {
                let c = [SPECIAL_F32[i], SPECIAL_F32[(i + 1) % n], SPECIAL_F32[(i + 7) % n], SPECIAL_F32[(i + 19) % n]];
                inputs.push(In { valid: true, dfmt, nfmt, components: from_words(c) });
            }
        }
    }
    assert_sweep_matches_reference(&inputs);
    // 14 dfmts × 7 nfmts (6 is reserved), less float on the five formats with 8- or 2-bit fields.
    assert_eq!(valid_pairs().len(), 14 * 7 - 5, "valid pair count");
}

/// Runs `inputs` through model and RTL (which must agree: [`sweep`]) and checks every output
/// against the reference.
fn assert_sweep_matches_reference(inputs: &[In]) {
    let outs = sweep::<Harness>(inputs);
    let failures: Vec<String> = inputs
        .iter()
        .zip(&outs)
        .filter(|(i, o)| **o != reference_out(i))
        .map(|(i, o)| {
            format!("{i:x?}:\n  reference: {}\n  got:       {}", common::show(&reference_out(i)), common::show(o))
        })
        .collect();
    common::assert_no_failures(&failures);
}

// ---------------------------------------------------------------------------------------------
// Self-checks of the reference against other witnesses.
// ---------------------------------------------------------------------------------------------

/// unorm/snorm by f64 (the product v·(2^w − 1) has at most 24 + 16 significant bits, so it is
/// exact in f64) and round_ties_even; scaled by f64 truncation; f16 by `half` (non-NaN).
fn witness_field(bits: u32, width: u32, nfmt: u8) -> Option<u32> {
    let v = f32::from_bits(bits);
    let w_mask = if width == 32 { u32::MAX } else { (1u32 << width) - 1 };
    let to_field = |x: f64| (x as i64 as u32) & w_mask;
    match nfmt {
        UNORM if width < 32 => {
            let v = if v.is_nan() { 0.0 } else { f64::from(v).clamp(0.0, 1.0) };
            Some(to_field((v * f64::from(w_mask)).round_ties_even()))
        }
        SNORM if width < 32 => {
            let v = if v.is_nan() { 0.0 } else { f64::from(v).clamp(-1.0, 1.0) };
            Some(to_field((v * f64::from((1u32 << (width - 1)) - 1)).round_ties_even()))
        }
        USCALED if width < 32 => {
            let v = if v.is_nan() { 0.0 } else { f64::from(v).trunc() };
            Some(to_field(v.clamp(0.0, f64::from(w_mask))))
        }
        SSCALED if width < 32 => {
            let v = if v.is_nan() { 0.0 } else { f64::from(v).trunc() };
            let lim = f64::from(1u32 << (width - 1));
            Some(to_field(v.clamp(-lim, lim - 1.0)))
        }
        FLOAT if width == 16 && !v.is_nan() => Some(u32::from(half::f16::from_f32(v).to_bits())),
        _ => None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20_000, ..ProptestConfig::default() })]

    /// The reference agrees with the f64/`half` witnesses on random f32 patterns, every field
    /// width and every nfmt they cover (no RTL: this checks the test's own reference).
    #[test]
    fn reference_pack_against_witnesses(bits in prop_oneof![from_rng(f32_bits), any::<u32>()]) {
        for width in [2u32, 8, 10, 11, 16] {
            for nfmt in [UNORM, SNORM, USCALED, SSCALED, FLOAT] {
                if let Some(w) = witness_field(bits, width, nfmt) {
                    let got = reference::pack_field(bits, width, nfmt);
                    prop_assert_eq!(got, w, "{:#010x} w {} nfmt {}", bits, width, nfmt);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Exhaustive round trips and rounding edges.
// ---------------------------------------------------------------------------------------------

/// Odd multipliers: field k of vector i holds (i·MULT[k] + ADD[k]) mod 2^w, a permutation of the
/// codes, so over 2^(widest field) vectors every field position sees every one of its codes.
const MULT: [u32; 4] = [1, 0x9b5, 0x3b, 0x2a7];
const ADD: [u32; 4] = [0, 0x5a5a, 0x1234, 0x7e7e];

fn field_code(i: u32, k: usize, width: u32) -> u32 {
    i.wrapping_mul(MULT[k]).wrapping_add(ADD[k]) & ((1 << width) - 1)
}

/// pack(reference_unpack(c)) == c for every code c of every field of `dfmt` under `nfmt`,
/// through model and RTL. The one exception is snorm's most negative code −2^(w−1): SPEC §5
/// unpacks it to −1.0 (clamped, like −(2^(w−1) − 1)), and −1.0 packs to −(2^(w−1) − 1), i.e. the
/// code + 1 (0x80 → 0x81, 0x8000 → 0x8001, 10-bit 0x200 → 0x201, 2-bit 2 → 3): two codes share
/// −1.0, so only one of them can come back. Returns (vectors, exceptions seen).
fn roundtrip(dfmt: u8, nfmt: u8) -> (usize, usize) {
    assert!(format_valid(dfmt, nfmt));
    let f = fields(dfmt);
    let widest = f.iter().map(|&(_, w)| w).max().unwrap();
    let mut inputs = Vec::new();
    let mut want = Vec::new();
    let mut exceptions = 0;
    for i in 0..1u32 << widest {
        let mut data = 0u128;
        let mut back = 0u128;
        for (k, &(lsb, width)) in f.iter().enumerate() {
            let c = field_code(i, k, width);
            data |= u128::from(c) << lsb;
            let most_negative = 1u32 << (width - 1);
            let b = if nfmt == SNORM && c == most_negative {
                exceptions += 1;
                c + 1
            } else {
                c
            };
            back |= u128::from(b) << lsb;
        }
        let (components, count, valid) = reference::unpack(dfmt, nfmt, data);
        assert!(valid && usize::from(count) == f.len());
        inputs.push(In { valid: true, dfmt, nfmt, components: from_words(components) });
        want.push(back);
    }
    let outs = sweep::<Harness>(&inputs);
    let failures: Vec<String> = inputs
        .iter()
        .zip(&want)
        .zip(&outs)
        .filter(|((_, w), o)| o.data != **w || !o.fmt_valid)
        .map(|((i, w), o)| {
            format!("dfmt {dfmt} nfmt {nfmt} components {i:x?}: want data {w:#x}, got {}", common::show(o))
        })
        .collect();
    common::assert_no_failures(&failures);
    (inputs.len(), exceptions)
}

fn roundtrips(name: &str, dfmts: &[u8], nfmts: &[u8]) -> usize {
    let start = Instant::now();
    let mut vectors = 0;
    for &dfmt in dfmts {
        for &nfmt in nfmts {
            if !format_valid(dfmt, nfmt) {
                continue;
            }
            let (n, exceptions) = roundtrip(dfmt, nfmt);
            vectors += n;
            // Every field's most negative snorm code came by (once per 2^w vectors).
            let expect = if nfmt == SNORM {
                let widest = fields(dfmt).iter().map(|&(_, w)| w).max().unwrap();
                fields(dfmt).iter().map(|&(_, w)| 1usize << (widest - w)).sum()
            } else {
                0
            };
            assert_eq!(exceptions, expect, "dfmt {dfmt} nfmt {nfmt}: most negative snorm codes seen");
        }
    }
    println!("{name}: {vectors} vectors in {:.2?}", start.elapsed());
    vectors
}

const ROUNDTRIP_NFMTS: [u8; 7] = [UNORM, SNORM, USCALED, SSCALED, UINT, SINT, FLOAT];

/// Every 8-bit code of dfmt 1, 3 and 10 (every field) under unorm, snorm, uscaled, sscaled,
/// uint and sint (float is not valid on 8-bit fields).
#[test]
fn exhaustive_pack_roundtrip_8bit() {
    assert_eq!(roundtrips("exhaustive_pack_roundtrip_8bit", &[1, 3, 10], &ROUNDTRIP_NFMTS), 3 * 6 * 256);
}

/// Every 16-bit code of dfmt 2, 5 and 12 (every field) under every nfmt, f16 (NaN payloads
/// included) among them.
#[test]
fn exhaustive_pack_roundtrip_16bit() {
    assert_eq!(roundtrips("exhaustive_pack_roundtrip_16bit", &[2, 5, 12], &ROUNDTRIP_NFMTS), 3 * 7 * 65536);
}

/// Every 11-, 10- and 2-bit code of dfmt 6, 7, 8 and 9 under every valid nfmt (f11/f10 on 6, 7).
#[test]
fn exhaustive_pack_roundtrip_10_11_2bit() {
    assert_eq!(
        roundtrips("exhaustive_pack_roundtrip_10_11_2bit", &[6, 7, 8, 9], &ROUNDTRIP_NFMTS),
        2 * 7 * 2048 + 2 * 6 * 1024
    );
}

/// The f32 `bits` moved by `d` ulps (within one sign).
fn nudge(bits: u32, d: i32) -> u32 {
    bits.wrapping_add_signed(d)
}

/// For every code k of the 8- and 16-bit unorm/snorm grids: the f32s around k/D and around the
/// rounding point (k + 0.5)/D (±2 ulps), under both signs for snorm — through model and RTL,
/// against the reference. The f64 quotient only picks the stimulus.
#[test]
fn exhaustive_pack_unorm_snorm_rounding_edges() {
    let start = Instant::now();
    let mut inputs = Vec::new();
    for (dfmt, width) in [(10u8, 8u32), (12, 16)] {
        for nfmt in [UNORM, SNORM] {
            let d = if nfmt == UNORM { (1u32 << width) - 1 } else { (1u32 << (width - 1)) - 1 };
            let mut values = Vec::new();
            for k in 0..=d {
                for q in [f64::from(k), f64::from(k) + 0.5] {
                    let centre = ((q / f64::from(d)) as f32).to_bits();
                    for dd in -2..=2 {
                        values.push(nudge(centre, dd));
                        if nfmt == SNORM {
                            values.push(nudge(centre, dd) | 0x8000_0000);
                        }
                    }
                }
            }
            for chunk in values.chunks(4) {
                let mut c = [0u32; 4];
                c[..chunk.len()].copy_from_slice(chunk);
                inputs.push(In { valid: true, dfmt, nfmt, components: from_words(c) });
            }
        }
    }
    assert_sweep_matches_reference(&inputs);
    println!("exhaustive_pack_unorm_snorm_rounding_edges: {} vectors in {:.2?}", inputs.len(), start.elapsed());
}

/// For every finite f16/f11/f10 code: its value, the midpoint to the next code (the rounding
/// tie) and the f32s one ulp either side of both, under both signs — through model and RTL,
/// against the reference (and `half` for f16).
#[test]
fn exhaustive_pack_small_float_rounding_edges() {
    let start = Instant::now();
    // f32 bits of a small-float code: exponent bias 15 re-biased to 127, fraction shifted up.
    let widen = |code: u32, man_bits: u32| -> u32 {
        let exp = code >> man_bits;
        let man = code & ((1 << man_bits) - 1);
        let v = if exp == 0 {
            f64::from(man) * 2f64.powi(-14 - man_bits as i32)
        } else {
            (1.0 + f64::from(man) / f64::from(1u32 << man_bits)) * 2f64.powi(exp as i32 - 15)
        };
        (v as f32).to_bits()
    };
    let mut total = 0;
    let mut failures = Vec::new();
    for (man_bits, dfmt, slot) in [(10u32, 2u8, 0usize), (6, 6, 0), (5, 6, 2)] {
        let finite = 31u32 << man_bits; // codes below infinity
        let mut values = Vec::new();
        for code in 0..finite {
            let lo = widen(code, man_bits);
            // The next code's value (2^16 for the largest finite code); the midpoint is exact in f32.
            let hi = if code + 1 == finite { 0x4780_0000 } else { widen(code + 1, man_bits) };
            let mid = ((f64::from(f32::from_bits(lo)) + f64::from(f32::from_bits(hi))) / 2.0) as f32;
            for b in [lo, mid.to_bits()] {
                for dd in -1..=1 {
                    let v = nudge(b, dd);
                    values.push(v);
                    values.push(v | 0x8000_0000);
                }
            }
        }
        let inputs: Vec<In> = values
            .iter()
            .map(|&v| {
                let mut c = [0u32; 4];
                c[slot] = v;
                In { valid: true, dfmt, nfmt: FLOAT, components: from_words(c) }
            })
            .collect();
        let outs = sweep::<Harness>(&inputs);
        let lsb = fields(dfmt)[slot].0;
        let field_mask = (1u128 << fields(dfmt)[slot].1) - 1;
        for ((i, &v), o) in inputs.iter().zip(&values).zip(&outs) {
            let want = reference_out(i);
            if man_bits == 10 && !f32::from_bits(v).is_nan() {
                assert_eq!(want.data, u128::from(half::f16::from_f32(f32::from_bits(v)).to_bits()), "{v:#010x}");
            }
            if *o != want && failures.len() < 20 {
                failures.push(format!(
                    "f32 {v:#010x} (dfmt {dfmt} field {slot}): reference {:#x} got {:#x}",
                    want.data >> lsb & field_mask,
                    o.data >> lsb & field_mask
                ));
            }
        }
        total += inputs.len();
    }
    assert!(failures.is_empty(), "failures (first 20):\n{}", failures.join("\n"));
    println!("exhaustive_pack_small_float_rounding_edges: {total} vectors in {:.2?}", start.elapsed());
}

// ---------------------------------------------------------------------------------------------
// Random lockstep properties.
// ---------------------------------------------------------------------------------------------

thread_local! {
    /// One recording lockstep per test thread; `Lockstep::run` resets it before every case.
    static LOCKSTEP: RefCell<Lockstep<FormatPack, Rtl>> = RefCell::new(common::lockstep::<Harness>().recording());
}

/// Runs `case` in lockstep and checks every cycle's output against the reference: a valid
/// input's result one step later; an idle cycle's output holds the last valid result with
/// valid = 0.
fn check_case(case: &[In]) -> Result<(), TestCaseError> {
    LOCKSTEP.with(|l| common::case_matches_reference::<Harness>(&mut l.borrow_mut(), case, reference_out))
}

/// A valid (dfmt, nfmt) pair with four components: mostly the harness's f32 corner patterns.
fn valid_pair_input() -> impl Strategy<Value = In> {
    let component = prop_oneof![3 => from_rng(f32_bits), 1 => any::<u32>()];
    (proptest::sample::select(valid_pairs()), proptest::array::uniform4(component)).prop_map(|((dfmt, nfmt), c)| In {
        valid: true,
        dfmt,
        nfmt,
        components: from_words(c),
    })
}

// The unit's random cases (invalid pairs and idle cycles included) with their mid-run reset
// pulses and holds: model and RTL agree on every output of every cycle; and without the resets,
// against the reference.
common::unit_tests! {
    random_cases_agree_in_lockstep: 1000,
    random_cases_match_reference: (1000, reference_out),
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// Back-to-back random components on every valid (dfmt, nfmt) pair: model and RTL agree and
    /// equal the reference.
    #[test]
    fn random_valid_pairs_match_reference(case in proptest::collection::vec(valid_pair_input(), 1..24)) {
        check_case(&case)?;
    }
}

// ---------------------------------------------------------------------------------------------
// Functional coverage (rust/format_pack.rs `cover`).
// ---------------------------------------------------------------------------------------------

/// Asserts that `input` lands in every bin of `expected` (and, with `exactly`, in no other).
fn assert_bins(input: In, expected: &[&str], exactly: bool) {
    let out = gcn_vmem_model::format_pack::compute(&input);
    common::assert_input_bins::<FormatPack>(&format!("{input:?}"), &input, &out, expected, exactly);
}

/// Hand-chosen components land in the bins SPEC §1.4 and §5 name for them.
#[test]
fn directed_inputs_land_in_their_bins() {
    let i = |dfmt: u8, nfmt: u8, c: [u32; 4]| In { valid: true, dfmt, nfmt, components: from_words(c) };
    let f = |x: f32| x.to_bits();
    // 8_8_8_8 unorm: 0.5 · 255 = 127.5 is a tie; NaN → 0; −3 clamps to 0; 2 clamps to 1.
    assert_bins(
        i(10, UNORM, [f(0.5), 0x7fc0_0000, f(-3.0), f(2.0)]),
        &[
            "format: 8_8_8_8/unorm",
            "value: 8_8_8_8/unorm X(8b) tie 0.5 (to even)",
            "value: 8_8_8_8/unorm Y(8b) NaN -> 0",
            "value: 8_8_8_8/unorm Z(8b) negative -> 0",
            "value: 8_8_8_8/unorm W(8b) above 1 -> max",
        ],
        true,
    );
    // 16_16_16_16 snorm: −0.5 · 32767 is a tie; −1.0; (1/3) · 32767 = 10922.33 rounds down;
    // +inf clamps to max.
    assert_bins(
        i(12, SNORM, [f(-0.5), f(-1.0), f(1.0 / 3.0), 0x7f80_0000]),
        &[
            "value: 16_16_16_16/snorm X(16b) tie -0.5 (to even)",
            "value: 16_16_16_16/snorm Y(16b) -1.0",
            "value: 16_16_16_16/snorm Z(16b) positive rounds down",
            "value: 16_16_16_16/snorm W(16b) +inf -> max",
        ],
        false,
    );
    // 16_16 float: 65520 is halfway between 65504 and 65536 (a tie, to +inf); 65504 is the max
    // finite f16. 16 float: 1e−8 < 2^−25 underflows to 0; 70000 overflows.
    assert_bins(
        i(5, FLOAT, [f(65520.0), f(65504.0), 0, 0]),
        &[
            "format: 16_16/float",
            "value: 16_16/float X(16b) rounding tie (to even)",
            "value: 16_16/float Y(16b) max finite result",
        ],
        true,
    );
    assert_bins(i(2, FLOAT, [f(1e-8), 0, 0, 0]), &["value: 16/float X(16b) underflows -> +-0"], false);
    assert_bins(i(2, FLOAT, [f(-70000.0), 0, 0, 0]), &["value: 16/float X(16b) finite overflows -> inf"], false);
    // 11_11_10 float: X (10 bits) −1.0 → 0; Y (11 bits) a negative NaN stays NaN (NaN before
    // sign); Z (11 bits) a NaN whose top 6 mantissa bits are 0 gets payload 1.
    assert_bins(
        i(7, FLOAT, [f(-1.0), 0xffc0_0000, 0x7f80_0001, 0]),
        &[
            "value: 11_11_10/float X(10b) negative -> 0",
            "value: 11_11_10/float Y(11b) -NaN -> NaN (NaN before sign)",
            "value: 11_11_10/float Z(11b) NaN, payload forced to 1",
        ],
        false,
    );
    // 2_10_10_10 sscaled: X −600 is below −512; Y −3.5 truncates toward 0; Z 100 is an
    // integer; W (2 bits, −2..1) 1.0 is its max.
    assert_bins(
        i(9, SSCALED, [f(-600.0), f(-3.5), f(100.0), f(1.0)]),
        &[
            "format: 2_10_10_10/sscaled",
            "value: 2_10_10_10/sscaled X(10b) below min -> min",
            "value: 2_10_10_10/sscaled Y(10b) negative fraction truncated toward 0",
            "value: 2_10_10_10/sscaled Z(10b) positive integer",
            "value: 2_10_10_10/sscaled W(2b) max exactly",
        ],
        true,
    );
    // 8_8 sint: −128 is the most negative; 0x100 does not fit 8 bits. 8 uscaled: 255.0 is max.
    assert_bins(
        i(3, SINT, [0xffff_ff80, 0x100, 0, 0]),
        &["value: 8_8/sint X(8b) most negative", "value: 8_8/sint Y(8b) wider: upper bits dropped"],
        false,
    );
    assert_bins(i(1, USCALED, [f(255.0), 0, 0, 0]), &["value: 8/uscaled X(8b) max exactly"], false);
    // 32_32 float: raw copies, a NaN pattern included.
    assert_bins(
        i(11, FLOAT, [0x7f80_0001, 0, 0, 0]),
        &["value: 32_32/float X(32b) NaN pattern (copied raw)", "value: 32_32/float Y(32b) zero"],
        false,
    );
    // Refused pairs; one `format` bin per pair SPEC §1.4 accepts.
    assert_bins(i(15, UINT, [0; 4]), &["illegal (fmt_valid = 0): 15:reserved (any nfmt)"], true);
    let group = <FormatPack as gcn_vmem_model::cover::Covered>::covergroup();
    assert_eq!(group.points[0].bins.len(), valid_pairs().len());
    assert_bins(
        i(9, FLOAT, [0; 4]),
        &["illegal (fmt_valid = 0): 2_10_10_10/float (a field not 32, 16, 11 or 10 bits)"],
        true,
    );
}

common::unit_tests! {
    every_assertion_fires_and_is_reported: ["FieldInElement_A", "InvalidZero_A"],
    random_stimulus_hits_every_bin: 62,
}
