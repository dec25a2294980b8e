//! `d16` (SPEC §6, docs/decisions.md "d16"): a directed table per op with hand-computed
//! expectations, a snapshot of its trace, pipeline hold behaviour, a random lockstep property, and
//! exhaustive sweeps of the f16 → f32 widening (all 65,536 halves under every nfmt), of the
//! f32 → f16 narrowing (2^22 evenly spread f32 patterns plus every f16 halfway neighbourhood) and
//! of the byte/short ops.
//!
//! Independence: no expected value comes from the model, rust/float.rs or rust/format.rs. The
//! directed rows are computed by hand (see each row's comment). For f16 <-> f32 of non-NaN values
//! the witness is the `half` crate, itself checked here to round to nearest even against an exact
//! search ([`nearest_even_f16`]); NaNs follow SPEC §5's rule written here ([`f32_to_f16`],
//! [`f16_to_f32`]), since `half` quiets them.

use crate::common;

use gcn_vmem::bindings::d16::Harness;
use gcn_vmem_model::d16::{In, Out, D16};

// ---------------------------------------------------------------------------------------------
// Port helpers (docs/decisions.md "d16").
// ---------------------------------------------------------------------------------------------

const LOAD_FORMAT: u8 = 0;
const LOAD_UBYTE: u8 = 1;
const LOAD_SBYTE: u8 = 2;
const LOAD_SHORT: u8 = 3;
const STORE_FORMAT: u8 = 4;
const STORE_BYTE: u8 = 5;
const STORE_SHORT: u8 = 6;
const RESERVED_OP: u8 = 7;

/// nfmt codes (SPEC §1.4).
const UNORM: u8 = 0;
const SNORM: u8 = 1;
const USCALED: u8 = 2;
const SSCALED: u8 = 3;
const UINT: u8 = 4;
const SINT: u8 = 5;
const NFMT_RESERVED: u8 = 6;
const FLOAT: u8 = 7;

/// The destination VGPR before a byte/short load; also fed to every other op, which ignore it.
const OLD: u32 = 0x1234_ABCD;
/// Upper data dwords that no row's op may read (byte/short ops read dword 0 only).
const JUNK: [u32; 3] = [0xDEAD_BEEF, 0xFEED_FACE, 0x0123_4567];

/// f32 patterns.
const F1: u32 = 0x3F80_0000; // 1.0
const F2: u32 = 0x4000_0000; // 2.0
const F3: u32 = 0x4040_0000; // 3.0
const F4: u32 = 0x4080_0000; // 4.0

/// Four dwords into a 128-bit port, dword k at bits 32k+31:32k.
const fn pack(w: [u32; 4]) -> u128 {
    (w[0] as u128) | (w[1] as u128) << 32 | (w[2] as u128) << 64 | (w[3] as u128) << 96
}

/// Eight halves into a 128-bit port, half k at bits 16k+15:16k.
const fn pack_halves(h: [u16; 8]) -> u128 {
    let mut v = 0u128;
    let mut k = 0;
    while k < 8 {
        v |= (h[k] as u128) << (16 * k);
        k += 1;
    }
    v
}

/// LOAD_FORMAT with components `d` (dword k = component k).
const fn lf(nfmt: u8, count: u8, d: [u32; 4]) -> In {
    In { valid: true, op: LOAD_FORMAT, hi: false, nfmt, count, data: pack(d), old: OLD }
}

/// A byte/short op with `d0` in data dword 0 and junk above.
const fn bs(op: u8, hi: bool, d0: u32) -> In {
    In { valid: true, op, hi, nfmt: FLOAT, count: 4, data: pack([d0, JUNK[0], JUNK[1], JUNK[2]]), old: OLD }
}

/// STORE_FORMAT with halves `h` (half k at data bits 16k+15:16k).
const fn sf(nfmt: u8, count: u8, h: [u16; 8]) -> In {
    In { valid: true, op: STORE_FORMAT, hi: false, nfmt, count, data: pack_halves(h), old: OLD }
}

/// The store halves of the count rows: 1.0, 2.0, 3.0, 4.0, then 5.0, 6.0, 7.0, 8.0 (never read).
const H1234: [u16; 8] = [0x3C00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600, 0x4700, 0x4800];
/// The load components of the count rows: 1.0, 2.0, 3.0, 4.0 (f16 0x3C00, 0x4000, 0x4200, 0x4400).
const L1234: [u32; 4] = [F1, F2, F3, F4];

// ---------------------------------------------------------------------------------------------
// Directed table.
// ---------------------------------------------------------------------------------------------

struct Row {
    name: &'static str,
    input: In,
    result: [u32; 4],
    result_count: u8,
    illegal: bool,
}

const fn row(name: &'static str, input: In, result: [u32; 4], result_count: u8) -> Row {
    Row { name, input, result, result_count, illegal: false }
}

const fn bad(name: &'static str, input: In, result: [u32; 4], result_count: u8) -> Row {
    Row { name, input, result, result_count, illegal: true }
}

/// A byte/short row (`base`, from [`bs`]) with `nfmt` and `count` set, which the op ignores:
/// one result dword, `d0`.
const fn ignoring(name: &'static str, nfmt: u8, count: u8, base: In, d0: u32) -> Row {
    row(name, In { nfmt, count, ..base }, [d0, 0, 0, 0], 1)
}

/// A STORE_FORMAT float row of four halves (halves 4..7 are 0, never read): four result dwords.
const fn sf_float(name: &'static str, h: [u16; 4], result: [u32; 4]) -> Row {
    row(name, sf(FLOAT, 4, [h[0], h[1], h[2], h[3], 0, 0, 0, 0]), result, 4)
}

/// The load_format rows on float-like nfmts use these components:
/// 1+3·2^-11 (tie → 0x3C02), 65520 (tie → 0x7C00), 2^-25 (tie → 0x0000), sNaN 0x7F800001 (→ 0x7C01).
const LF_MIX: [u32; 4] = [0x3F80_3000, 0x477F_F000, 0x3300_0000, 0x7F80_0001];
/// ... giving halves [0x3C02, 0x7C00, 0x0000, 0x7C01].
const LF_MIX_OUT: [u32; 4] = [0x7C00_3C02, 0x7C01_0000, 0, 0];
/// Integer load_format components, whose low halves are 0x5678, 0x8000, 0xBABE, 0x0001.
const LF_INT: [u32; 4] = [0x1234_5678, 0xFFFF_8000, 0xCAFE_BABE, 0x7F80_0001];
/// Store halves for the float-like nfmt rows: 1.0, 2^-24, sNaN, -inf.
const SF_MIX: [u16; 8] = [0x3C00, 0x0001, 0x7C01, 0xFC00, 0x1111, 0x2222, 0x3333, 0x4444];
/// ... widened: 1.0f, 2^-24 = 0x33800000, NaN payload 1 << 13, -inf.
const SF_MIX_OUT: [u32; 4] = [0x3F80_0000, 0x3380_0000, 0x7F80_2000, 0xFF80_0000];
/// Store halves for the integer rows.
const SF_INT: [u16; 8] = [0x8000, 0xFFFF, 0x0001, 0x7FFF, 0x1111, 0x2222, 0x3333, 0x4444];

const ROWS: &[Row] = &[
    // ================= op 0 LOAD_FORMAT, float-like: f32 → f16 (RNE), two halves per dword.
    // 1.0 → 0x3C00, 2.0 → 0x4000, 3.0 → 0x4200, 4.0 → 0x4400.
    row("lf float count 1: 31:16 zero", lf(FLOAT, 1, L1234), [0x0000_3C00, 0, 0, 0], 1),
    row("lf float count 2", lf(FLOAT, 2, L1234), [0x4000_3C00, 0, 0, 0], 1),
    row("lf float count 3: odd last half", lf(FLOAT, 3, L1234), [0x4000_3C00, 0x0000_4200, 0, 0], 2),
    row("lf float count 4", lf(FLOAT, 4, L1234), [0x4000_3C00, 0x4400_4200, 0, 0], 2),
    // -2.0 → 0xC000, 0.5 → 0x3800, -0.0 → 0x8000, +0.0 → 0.
    row(
        "lf float signs and zeros",
        lf(FLOAT, 4, [0xC000_0000, 0x3F00_0000, 0x8000_0000, 0]),
        [0x3800_C000, 0x0000_8000, 0, 0],
        2,
    ),
    // Mantissa bits 12:0 decide: 0x1000 is the tie. 1+2^-11 → tie, even 0x3C00; 1+3·2^-11 → tie,
    // even 0x3C02; one ulp above a tie → up 0x3C01; one below → down 0x3C00.
    row(
        "lf RNE ties at 1.0",
        lf(FLOAT, 4, [0x3F80_1000, 0x3F80_3000, 0x3F80_1001, 0x3F80_0FFF]),
        [0x3C02_3C00, 0x3C00_3C01, 0, 0],
        2,
    ),
    row(
        "lf RNE ties at -1.0",
        lf(FLOAT, 4, [0xBF80_1000, 0xBF80_3000, 0xBF80_0FFF, 0xBF80_1001]),
        [0xBC02_BC00, 0xBC01_BC00, 0, 0],
        2,
    ),
    // f16 step 2 at 2048 (0x6800): 2049 = 0x45001000 tie → 0x6800; 2051 = 0x45003000 tie →
    // 0x6802; 2048.5 = 0x45000800 → 0x6800; 2050.5 = 0x45002800 → 2050 = 0x6801.
    row(
        "lf RNE ties at 2048",
        lf(FLOAT, 4, [0x4500_1000, 0x4500_3000, 0x4500_0800, 0x4500_2800]),
        [0x6802_6800, 0x6801_6800, 0, 0],
        2,
    ),
    // 65520 = 0x477FF000: tie between 65504 (0x7BFF, odd) and 65536 → 0x7C00 (inf);
    // 65519 = 0x477FEF00 → 0x7BFF; 65504 = 0x477FE000 → 0x7BFF; -65520 → 0xFC00.
    row(
        "lf overflow 65520 inf, 65519 max",
        lf(FLOAT, 4, [0x477F_F000, 0x477F_EF00, 0x477F_E000, 0xC77F_F000]),
        [0x7BFF_7C00, 0xFC00_7BFF, 0, 0],
        2,
    ),
    // 65520 + ulp → 0x7C00; -(65520 - ulp) = 0xC77FEFFF → 0xFBFF; 65536 → 0x7C00;
    // 65504 + ulp → 0x7BFF.
    row(
        "lf overflow neighbours",
        lf(FLOAT, 4, [0x477F_F001, 0xC77F_EFFF, 0x4780_0000, 0x477F_E001]),
        [0xFBFF_7C00, 0x7BFF_7C00, 0, 0],
        2,
    ),
    // +inf → 0x7C00, -inf → 0xFC00, max f32 → 0x7C00, 0x477FEFFF (< 65520) → 0x7BFF.
    row(
        "lf infinities and max f32",
        lf(FLOAT, 4, [0x7F80_0000, 0xFF80_0000, 0x7F7F_FFFF, 0x477F_EFFF]),
        [0xFC00_7C00, 0x7BFF_7C00, 0, 0],
        2,
    ),
    // 2^-24 (0x33800000) → 0x0001; 2^-25 tie between 0 and 1 → 0; 2^-25 + ulp → 0x0001;
    // 1.5·2^-24 (0x33C00000) tie between 1 and 2 → 0x0002.
    row(
        "lf denormal results",
        lf(FLOAT, 4, [0x3380_0000, 0x3300_0000, 0x3300_0001, 0x33C0_0000]),
        [0x0000_0001, 0x0002_0001, 0, 0],
        2,
    ),
    // 2.5·2^-24 (0x34200000) tie → 2; 3.5·2^-24 (0x34600000) tie → 4;
    // 2045·2^-25 = 1022.5·2^-24 (0x387FA000) tie → 0x03FE; 2^-15 (0x38000000) → 0x0200.
    row(
        "lf denormal ties",
        lf(FLOAT, 4, [0x3420_0000, 0x3460_0000, 0x387F_A000, 0x3800_0000]),
        [0x0004_0002, 0x0200_03FE, 0, 0],
        2,
    ),
    // 1023·2^-24 (0x387FC000) → 0x03FF; 2^-14 (0x38800000) → 0x0400;
    // 1023.5·2^-24 (0x387FE000) tie between 0x03FF and 0x0400 → 0x0400; -2^-24 → 0x8001.
    row(
        "lf denormal/normal edge",
        lf(FLOAT, 4, [0x387F_C000, 0x3880_0000, 0x387F_E000, 0xB380_0000]),
        [0x0400_03FF, 0x8001_0400, 0, 0],
        2,
    ),
    // f32 denormals and values below 2^-25 round to (signed) zero.
    row(
        "lf f32 denormals to signed zero",
        lf(FLOAT, 4, [0x0000_0001, 0x8000_0001, 0x007F_FFFF, 0xB2FF_FFFF]),
        [0x8000_0000, 0x8000_0000, 0, 0],
        2,
    ),
    // NaN: sign kept, mantissa = f32 mantissa bits 22:13. 0x7FC00000 → 0x7E00; 0x7F800001 →
    // top bits 0 → forced 1: 0x7C01; 0xFFBFFFFF → 0x1FF: 0xFDFF (not quieted to 0xFFFF);
    // 0x7FA00000 → 0x100: 0x7D00.
    row(
        "lf NaN payloads kept",
        lf(FLOAT, 4, [0x7FC0_0000, 0x7F80_0001, 0xFFBF_FFFF, 0x7FA0_0000]),
        [0x7C01_7E00, 0x7D00_FDFF, 0, 0],
        2,
    ),
    // 0xFF800001 → 0xFC01; 0x7F801FFF → 0x7C01; 0x7F802000 → 1: 0x7C01; 0xFFFFFFFF → 0xFFFF.
    row(
        "lf NaN forced to 1",
        lf(FLOAT, 4, [0xFF80_0001, 0x7F80_1FFF, 0x7F80_2000, 0xFFFF_FFFF]),
        [0x7C01_FC01, 0xFFFF_7C01, 0, 0],
        2,
    ),
    // Signalling NaNs are not quieted: 0x7F804000 → 2: 0x7C02; 0xFF8FE000 → 0x7F: 0xFC7F.
    row("lf sNaN not quieted", lf(FLOAT, 2, [0x7F80_4000, 0xFF8F_E000, F1, F2]), [0xFC7F_7C02, 0, 0, 0], 1),
    // Every float-like nfmt converts the same way (see LF_MIX).
    row("lf unorm is float-like", lf(UNORM, 4, LF_MIX), LF_MIX_OUT, 2),
    row("lf snorm is float-like", lf(SNORM, 4, LF_MIX), LF_MIX_OUT, 2),
    row("lf uscaled is float-like", lf(USCALED, 4, LF_MIX), LF_MIX_OUT, 2),
    row("lf sscaled is float-like", lf(SSCALED, 4, LF_MIX), LF_MIX_OUT, 2),
    bad("lf nfmt 6: illegal, float-like", lf(NFMT_RESERVED, 4, LF_MIX), LF_MIX_OUT, 2),
    // `hi` is ignored by the format ops.
    row("lf hi ignored", In { hi: true, ..lf(FLOAT, 2, L1234) }, [0x4000_3C00, 0, 0, 0], 1),
    // ================= op 0 LOAD_FORMAT, integer: low 16 bits (LF_INT).
    row("lf uint count 1", lf(UINT, 1, LF_INT), [0x0000_5678, 0, 0, 0], 1),
    row("lf uint count 2", lf(UINT, 2, LF_INT), [0x8000_5678, 0, 0, 0], 1),
    row("lf uint count 3", lf(UINT, 3, LF_INT), [0x8000_5678, 0x0000_BABE, 0, 0], 2),
    row("lf uint count 4", lf(UINT, 4, LF_INT), [0x8000_5678, 0x0001_BABE, 0, 0], 2),
    row("lf sint count 1", lf(SINT, 1, LF_INT), [0x0000_5678, 0, 0, 0], 1),
    row("lf sint count 3", lf(SINT, 3, LF_INT), [0x8000_5678, 0x0000_BABE, 0, 0], 2),
    row("lf sint count 4", lf(SINT, 4, LF_INT), [0x8000_5678, 0x0001_BABE, 0, 0], 2),
    // ================= op 0: count 0 → nothing, illegal; count 5..7 → 4, illegal.
    bad("lf count 0 float", lf(FLOAT, 0, L1234), [0; 4], 0),
    bad("lf count 0 uint", lf(UINT, 0, LF_INT), [0; 4], 0),
    bad("lf count 0 nfmt 6", lf(NFMT_RESERVED, 0, L1234), [0; 4], 0),
    bad("lf count 5 as 4", lf(FLOAT, 5, L1234), [0x4000_3C00, 0x4400_4200, 0, 0], 2),
    bad("lf count 6 as 4", lf(FLOAT, 6, L1234), [0x4000_3C00, 0x4400_4200, 0, 0], 2),
    bad("lf count 7 as 4, uint", lf(UINT, 7, LF_INT), [0x8000_5678, 0x0001_BABE, 0, 0], 2),
    // ================= ops 1..3: byte/short loads into one half of OLD = 0x1234ABCD.
    // ubyte 0xF0: lo → {0x1234, 0x00F0}; hi → {0x00F0, 0xABCD}.
    row("load ubyte lo", bs(LOAD_UBYTE, false, 0x5A5A_C3F0), [0x1234_00F0, 0, 0, 0], 1),
    row("load ubyte hi", bs(LOAD_UBYTE, true, 0x5A5A_C3F0), [0x00F0_ABCD, 0, 0, 0], 1),
    row("load ubyte 0xFF lo", bs(LOAD_UBYTE, false, 0x0000_00FF), [0x1234_00FF, 0, 0, 0], 1),
    // sbyte 0xF0 → 0xFFF0; 0x7F → 0x007F; 0x80 → 0xFF80.
    row("load sbyte 0xF0 lo", bs(LOAD_SBYTE, false, 0x5A5A_C3F0), [0x1234_FFF0, 0, 0, 0], 1),
    row("load sbyte 0xF0 hi", bs(LOAD_SBYTE, true, 0x5A5A_C3F0), [0xFFF0_ABCD, 0, 0, 0], 1),
    row("load sbyte 0x7F lo", bs(LOAD_SBYTE, false, 0xFFFF_FF7F), [0x1234_007F, 0, 0, 0], 1),
    row("load sbyte 0x7F hi", bs(LOAD_SBYTE, true, 0xFFFF_FF7F), [0x007F_ABCD, 0, 0, 0], 1),
    row("load sbyte 0x80 hi", bs(LOAD_SBYTE, true, 0x0000_0080), [0xFF80_ABCD, 0, 0, 0], 1),
    // short: data[15:0] raw.
    row("load short lo", bs(LOAD_SHORT, false, 0xDEAD_8001), [0x1234_8001, 0, 0, 0], 1),
    row("load short hi", bs(LOAD_SHORT, true, 0xDEAD_8001), [0x8001_ABCD, 0, 0, 0], 1),
    row("load short hi, old 0", In { old: 0, ..bs(LOAD_SHORT, true, 0xDEAD_8001) }, [0x8001_0000, 0, 0, 0], 1),
    row("load short lo, old all ones", In { old: !0, ..bs(LOAD_SHORT, false, 0x0000_0000) }, [0xFFFF_0000, 0, 0, 0], 1),
    // nfmt and count are ignored by the byte/short ops: no illegal for nfmt 6, count 0 or 7.
    ignoring("load ubyte ignores nfmt 6, count 0", NFMT_RESERVED, 0, bs(LOAD_UBYTE, false, 0x5A5A_C3F0), 0x1234_00F0),
    ignoring("load sbyte ignores count 7", UINT, 7, bs(LOAD_SBYTE, true, 0x0000_0080), 0xFF80_ABCD),
    // ================= op 4 STORE_FORMAT: halves widened to four components.
    // 1.0, -2.0, 65504 (0x477FE000), -0.0; halves 4..7 (junk) are never read.
    row(
        "sf float normals",
        sf(FLOAT, 4, [0x3C00, 0xC000, 0x7BFF, 0x8000, 0x1111, 0x2222, 0x3333, 0x4444]),
        [0x3F80_0000, 0xC000_0000, 0x477F_E000, 0x8000_0000],
        4,
    ),
    // Denormals exact: 1·2^-24 = 0x33800000; 1023·2^-24 = 0x387FC000; -2^-24; 512·2^-24 = 2^-15.
    sf_float(
        "sf float denormals exact",
        [0x0001, 0x03FF, 0x8001, 0x0200],
        [0x3380_0000, 0x387F_C000, 0xB380_0000, 0x3800_0000],
    ),
    // inf, -inf; NaN payload << 13, not quieted: 0x7C01 → 0x7F802000, 0xFDFF → 0xFFBFE000.
    sf_float(
        "sf float infinities and NaNs",
        [0x7C00, 0xFC00, 0x7C01, 0xFDFF],
        [0x7F80_0000, 0xFF80_0000, 0x7F80_2000, 0xFFBF_E000],
    ),
    // 0x7E00 → 0x7FC00000; 0xFFFF → 0xFFFFE000; 2^-14 → 0x38800000;
    // 0x3555 = (1024+341)·2^-12 → exponent 125, mantissa 341 << 13 = 0x2AA000: 0x3EAAA000.
    sf_float(
        "sf float quiet NaN, all ones, smallest normal",
        [0x7E00, 0xFFFF, 0x0400, 0x3555],
        [0x7FC0_0000, 0xFFFF_E000, 0x3880_0000, 0x3EAA_A000],
    ),
    // Components >= k are 0 (1.0, 2.0, 3.0, 4.0 = 0x3F800000, 0x40000000, 0x40400000, 0x40800000).
    row("sf float count 1", sf(FLOAT, 1, H1234), [F1, 0, 0, 0], 4),
    row("sf float count 2", sf(FLOAT, 2, H1234), [F1, F2, 0, 0], 4),
    row("sf float count 3", sf(FLOAT, 3, H1234), [F1, F2, F3, 0], 4),
    row("sf float count 4", sf(FLOAT, 4, H1234), [F1, F2, F3, F4], 4),
    row("sf uint zero-extends", sf(UINT, 4, SF_INT), [0x0000_8000, 0x0000_FFFF, 0x0000_0001, 0x0000_7FFF], 4),
    row("sf sint sign-extends", sf(SINT, 4, SF_INT), [0xFFFF_8000, 0xFFFF_FFFF, 0x0000_0001, 0x0000_7FFF], 4),
    row("sf sint count 2", sf(SINT, 2, SF_INT), [0xFFFF_8000, 0xFFFF_FFFF, 0, 0], 4),
    row("sf uint count 3", sf(UINT, 3, SF_INT), [0x0000_8000, 0x0000_FFFF, 0x0000_0001, 0], 4),
    row("sf unorm widens as float", sf(UNORM, 4, SF_MIX), SF_MIX_OUT, 4),
    row("sf snorm widens as float", sf(SNORM, 4, SF_MIX), SF_MIX_OUT, 4),
    row("sf uscaled widens as float", sf(USCALED, 4, SF_MIX), SF_MIX_OUT, 4),
    row("sf sscaled widens as float", sf(SSCALED, 4, SF_MIX), SF_MIX_OUT, 4),
    bad("sf nfmt 6: illegal, float-like", sf(NFMT_RESERVED, 4, SF_MIX), SF_MIX_OUT, 4),
    row("sf hi ignored", In { hi: true, ..sf(FLOAT, 1, H1234) }, [F1, 0, 0, 0], 4),
    // count 0: four 0 components, result_count 4, illegal; count 5..7 as 4 (5.0 = half 4 unread).
    bad("sf count 0", sf(FLOAT, 0, H1234), [0; 4], 4),
    bad("sf count 0 sint", sf(SINT, 0, SF_INT), [0; 4], 4),
    bad("sf count 5 as 4", sf(FLOAT, 5, H1234), [F1, F2, F3, F4], 4),
    bad("sf count 7 as 4", sf(FLOAT, 7, H1234), [F1, F2, F3, F4], 4),
    // ================= ops 5, 6: byte/short stores; data dword 0 = 0x89ABCDEF.
    row("store byte lo", bs(STORE_BYTE, false, 0x89AB_CDEF), [0x0000_00EF, 0, 0, 0], 1),
    row("store byte hi: bits 23:16", bs(STORE_BYTE, true, 0x89AB_CDEF), [0x0000_00AB, 0, 0, 0], 1),
    row("store short lo", bs(STORE_SHORT, false, 0x89AB_CDEF), [0x0000_CDEF, 0, 0, 0], 1),
    row("store short hi: bits 31:16", bs(STORE_SHORT, true, 0x89AB_CDEF), [0x0000_89AB, 0, 0, 0], 1),
    ignoring("store byte ignores nfmt 6, count 0", NFMT_RESERVED, 0, bs(STORE_BYTE, true, 0x89AB_CDEF), 0x0000_00AB),
    ignoring("store short ignores count 5", SINT, 5, bs(STORE_SHORT, false, 0x89AB_CDEF), 0x0000_CDEF),
    // ================= op 7: reserved → illegal, result 0, result_count 0.
    bad("reserved op 7", In { op: RESERVED_OP, ..lf(FLOAT, 4, L1234) }, [0; 4], 0),
    bad("reserved op 7, hi, uint", In { op: RESERVED_OP, hi: true, ..sf(UINT, 1, SF_INT) }, [0; 4], 0),
];

fn expected(r: &Row) -> Out {
    Out { valid: true, result: pack(r.result), result_count: r.result_count, illegal: r.illegal }
}

/// The table as the helpers of tests/common take it.
fn rows() -> Vec<common::Row<'static, Harness>> {
    ROWS.iter().map(|r| (r.name, r.input, expected(r))).collect()
}

#[test]
fn directed_table_is_well_formed() {
    common::assert_rows_well_formed::<Harness>(&rows());
    // Result dwords at and above result_count are 0 (docs/decisions.md "d16").
    common::assert_zero_above_data(ROWS.iter().map(|r| (r.name, &r.result[..], usize::from(r.result_count))));
    // Every op has rows, and both values of hi for each byte/short op.
    for op in 0..8 {
        assert!(ROWS.iter().any(|r| r.input.op == op), "no row for op {op}");
    }
    for op in [LOAD_UBYTE, LOAD_SBYTE, LOAD_SHORT, STORE_BYTE, STORE_SHORT] {
        for hi in [false, true] {
            assert!(ROWS.iter().any(|r| r.input.op == op && r.input.hi == hi), "op {op} hi {hi}");
        }
    }
}

// All rows back to back through model and RTL in lockstep; both equal the hand-computed rows. The
// trace of the table as a reviewed snapshot.
common::unit_tests! {
    directed_rows_match_spec: rows(),
    directed_table_trace: rows(),
}

/// The hand-computed float rows agree with the witnesses used by the exhaustive tests (so a slip
/// in a row or in a witness shows up here).
#[test]
fn witnesses_match_directed_rows() {
    for r in ROWS.iter().filter(|r| r.input.op == LOAD_FORMAT && r.input.nfmt != UINT && r.input.nfmt != SINT) {
        let k = usize::from(r.input.count.min(4));
        for i in 0..k {
            let f = (r.input.data >> (32 * i)) as u32;
            let want = (r.result[i / 2] >> (16 * (i % 2))) as u16;
            assert_eq!(f32_to_f16(f), want, "{}: component {i} = {f:#010x}", r.name);
        }
    }
    for r in ROWS.iter().filter(|r| r.input.op == STORE_FORMAT && r.input.nfmt != UINT && r.input.nfmt != SINT) {
        let k = usize::from(r.input.count.min(4));
        for i in 0..k {
            let h = (r.input.data >> (16 * i)) as u16;
            assert_eq!(f16_to_f32(h), r.result[i], "{}: half {i} = {h:#06x}", r.name);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Pipeline: data outputs hold the last valid result through bubbles; reset values are 0.
// ---------------------------------------------------------------------------------------------

/// An invalid cycle whose other inputs would change every output if they were taken.
fn junk(k: u32) -> In {
    In { valid: false, op: LOAD_SHORT, hi: true, nfmt: 6, count: 0, data: !0u128 ^ u128::from(k), old: 0x5555_5555 }
}

#[test]
fn pipeline_bubbles_hold_last_result() {
    let rows = rows();
    let a = common::named(&rows, "lf NaN payloads kept");
    let b = common::named(&rows, "reserved op 7");
    let c = common::named(&rows, "sf sint sign-extends");
    let inputs = [junk(1), a.1, junk(2), b.1, junk(3), junk(4), c.1];
    let (zero, hold) = (Out::default(), common::held::<Out>);
    let expect = [zero, zero, a.2, hold(&a.2), b.2, hold(&b.2), hold(&b.2), c.2, hold(&c.2)];
    common::assert_cycle_outputs::<Harness>(&inputs, &expect);
}

// ---------------------------------------------------------------------------------------------
// Independent f16 <-> f32 witnesses.
// ---------------------------------------------------------------------------------------------

fn is_f32_nan(x: u32) -> bool {
    x & 0x7F80_0000 == 0x7F80_0000 && x & 0x007F_FFFF != 0
}

fn is_f16_nan(h: u16) -> bool {
    h & 0x7C00 == 0x7C00 && h & 0x03FF != 0
}

/// SPEC §5 f32 → f16: `half` (round to nearest even, overflow → inf) for non-NaN values; NaN →
/// sign kept, mantissa = f32 mantissa bits 22:13, forced to 1 when those are 0, not quieted.
fn f32_to_f16(x: u32) -> u16 {
    if is_f32_nan(x) {
        let sign = (x >> 16) as u16 & 0x8000;
        let man = (x >> 13) as u16 & 0x03FF;
        sign | 0x7C00 | if man == 0 { 1 } else { man }
    } else {
        half::f16::from_f32(f32::from_bits(x)).to_bits()
    }
}

/// SPEC §5 f16 → f32: `half` (exact) for non-NaN values; NaN → sign kept, payload << 13.
fn f16_to_f32(h: u16) -> u32 {
    if is_f16_nan(h) {
        u32::from(h & 0x8000) << 16 | 0x7F80_0000 | u32::from(h & 0x03FF) << 13
    } else {
        half::f16::from_bits(h).to_f32().to_bits()
    }
}

/// Magnitude of the f16 code `h` (0..=0x7C00; 0x7C00 read as 2^16, the next step past 65504).
fn f16_magnitude(h: u16) -> f64 {
    let e = i32::from(h >> 10);
    let m = f64::from(h & 0x3FF);
    if e == 0 {
        m * 2f64.powi(-24)
    } else {
        (1024.0 + m) * 2f64.powi(e - 25)
    }
}

/// An exact round-to-nearest-even f32 → f16 for non-NaN `x`, by search on the f16 grid. The
/// subtractions are exact (Sterbenz: both neighbours lie within a factor 2 of |x|, or one is 0).
fn nearest_even_f16(x: u32) -> u16 {
    let sign = (x >> 16) as u16 & 0x8000;
    let a = f64::from(f32::from_bits(x & 0x7FFF_FFFF));
    if a >= f16_magnitude(0x7C00) {
        return sign | 0x7C00;
    }
    // Largest h in 0..=0x7BFF with magnitude(h) <= a.
    let (mut lo, mut hi) = (0u16, 0x7BFFu16);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if f16_magnitude(mid) <= a {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let down = a - f16_magnitude(lo);
    let up = f16_magnitude(lo + 1) - a;
    let h = if down < up || (down == up && lo & 1 == 0) { lo } else { lo + 1 };
    sign | h
}

/// The f32 sample of the exhaustive load test: 2^22 patterns spread evenly over all 2^32 (pattern
/// i << 10 plus 10 hashed low bits), then for every f16 step (0..0x7BFF and the overflow step to
/// 65536) the midpoint ±2 ulps, and every finite f16 value ±1 ulp, each with both signs.
fn f32_sample() -> Vec<u32> {
    let mut v = Vec::with_capacity((1 << 22) + 0x7C00 * 16);
    for i in 0u32..1 << 22 {
        let low = i.wrapping_mul(0x9E37_79B9) >> 22; // 10 bits
        v.push(i << 10 | low);
    }
    for h in 0u16..0x7C00 {
        let mid = (f16_magnitude(h) + f16_magnitude(h + 1)) / 2.0;
        let mid_bits = (mid as f32).to_bits();
        assert_eq!(f64::from(f32::from_bits(mid_bits)), mid, "midpoint of {h:#06x} not exact");
        let exact = (f16_magnitude(h) as f32).to_bits();
        for sign in [0, 0x8000_0000u32] {
            for d in -2i32..=2 {
                v.push(sign | mid_bits.wrapping_add_signed(d));
            }
            for d in -1i32..=1 {
                v.push(sign | exact.wrapping_add_signed(d));
            }
        }
    }
    v
}

/// `half` is a fair witness: on the whole sample it rounds to nearest even (ties included) with
/// overflow to infinity, like the exact search.
#[test]
fn half_witness_rounds_to_nearest_even() {
    // Spot checks that do not depend on the search either.
    assert_eq!(half::f16::from_f32(f32::from_bits(0x3F80_1000)).to_bits(), 0x3C00);
    assert_eq!(half::f16::from_f32(f32::from_bits(0x3F80_3000)).to_bits(), 0x3C02);
    assert_eq!(half::f16::from_f32(65520.0).to_bits(), 0x7C00);
    assert_eq!(half::f16::from_f32(65519.0).to_bits(), 0x7BFF);
    assert_eq!(half::f16::from_f32(f32::from_bits(0x3300_0000)).to_bits(), 0x0000);
    let mut checked = 0u64;
    for x in f32_sample().into_iter().filter(|&x| !is_f32_nan(x)) {
        let h = half::f16::from_f32(f32::from_bits(x)).to_bits();
        assert_eq!(h, nearest_even_f16(x), "half and the exact search differ on {x:#010x}");
        checked += 1;
    }
    assert!(checked > 4_000_000, "{checked}");
}

// ---------------------------------------------------------------------------------------------
// Exhaustive sweeps (model vs RTL in `sweep`, both vs the witnesses here).
// ---------------------------------------------------------------------------------------------

/// Widening of half `h` under `nfmt` (SPEC §6 stores): float-like → f32, uint/sint → extension.
fn widen(h: u16, nfmt: u8) -> u32 {
    match nfmt {
        UINT => u32::from(h),
        SINT => h as i16 as i32 as u32,
        _ => f16_to_f32(h),
    }
}

/// All 65,536 halves through STORE_FORMAT under `nfmt`, four per vector (count 4), with the
/// complement of the four halves in the unread data bits 127:64.
fn store_all_halves(nfmt: u8) -> usize {
    let inputs: Vec<In> = (0u32..1 << 14)
        .map(|j| {
            let h = [0, 1, 2, 3].map(|k| (4 * j + k) as u16);
            let low = pack_halves([h[0], h[1], h[2], h[3], 0, 0, 0, 0]);
            In { valid: true, op: STORE_FORMAT, hi: j & 1 == 1, nfmt, count: 4, data: low | !low << 64, old: j }
        })
        .collect();
    common::assert_sweep_matches::<Harness>(&inputs, |i| {
        let c = [0, 1, 2, 3].map(|k| widen((i.data >> (16 * k)) as u16, nfmt));
        Out { valid: true, result: pack(c), result_count: 4, illegal: nfmt == NFMT_RESERVED }
    })
}

#[test]
fn exhaustive_store_format_all_halves_float() {
    assert_eq!(store_all_halves(FLOAT), 1 << 14);
}

#[test]
fn exhaustive_store_format_all_halves_uint() {
    assert_eq!(store_all_halves(UINT), 1 << 14);
}

#[test]
fn exhaustive_store_format_all_halves_sint() {
    assert_eq!(store_all_halves(SINT), 1 << 14);
}

/// The other float-like nfmts (unorm, snorm, uscaled, sscaled and the reserved 6) widen like float.
#[test]
fn exhaustive_store_format_all_halves_other_float_like() {
    for nfmt in [UNORM, SNORM, USCALED, SSCALED, NFMT_RESERVED] {
        assert_eq!(store_all_halves(nfmt), 1 << 14);
    }
}

/// The f32 sample ([`f32_sample`], about 4.7 million patterns, NaNs included) through LOAD_FORMAT,
/// four components per vector, the nfmt cycling through the float-like codes (float, unorm,
/// snorm, uscaled, sscaled, reserved 6: illegal but converted alike).
#[test]
fn exhaustive_load_format_f32_sample() {
    const FLOAT_LIKE: [u8; 6] = [FLOAT, UNORM, SNORM, USCALED, SSCALED, NFMT_RESERVED];
    let sample = f32_sample();
    let inputs: Vec<In> = sample
        .chunks(4)
        .enumerate()
        .map(|(j, c)| {
            let mut d = [0u32; 4];
            d[..c.len()].copy_from_slice(c);
            In {
                valid: true,
                op: LOAD_FORMAT,
                hi: j & 1 == 1,
                nfmt: FLOAT_LIKE[j % FLOAT_LIKE.len()],
                count: c.len() as u8,
                data: pack(d),
                old: j as u32,
            }
        })
        .collect();
    let n = common::assert_sweep_matches::<Harness>(&inputs, |i| {
        let k = usize::from(i.count);
        let mut r = [0u32; 4];
        for c in 0..k {
            r[c / 2] |= u32::from(f32_to_f16((i.data >> (32 * c)) as u32)) << (16 * (c % 2));
        }
        Out { valid: true, result: pack(r), result_count: k.div_ceil(2) as u8, illegal: i.nfmt == NFMT_RESERVED }
    });
    println!("{} f32 patterns in {n} vectors", sample.len());
    assert!(sample.len() > (1 << 22) + 400_000, "{}", sample.len());
}

/// Every 16-bit pattern through each byte/short op (loads: data[15:0]; stores: data[31:16] and
/// data[15:0] both set from it) with both values of hi, and `old` and the unread bits hashed.
#[test]
fn exhaustive_byte_short_ops() {
    let mut inputs = Vec::with_capacity(5 * 2 * 65536);
    for op in [LOAD_UBYTE, LOAD_SBYTE, LOAD_SHORT, STORE_BYTE, STORE_SHORT] {
        for hi in [false, true] {
            for v in 0u32..65536 {
                let hash = v.wrapping_mul(0x9E37_79B9) ^ u32::from(op) << 28;
                let d0 = if op >= STORE_BYTE { v << 16 | (v ^ 0xA5A5) } else { (hash & 0xFFFF_0000) | v };
                inputs.push(In {
                    valid: true,
                    op,
                    hi,
                    nfmt: (hash >> 3) as u8 & 7,
                    count: (hash >> 6) as u8 & 7,
                    data: pack([d0, hash, !hash, hash.rotate_left(7)]),
                    old: hash.rotate_left(13),
                });
            }
        }
    }
    let n = common::assert_sweep_matches::<Harness>(&inputs, |i| {
        let d0 = i.data as u32;
        let merge =
            |v: u16| if i.hi { u32::from(v) << 16 | (i.old & 0xFFFF) } else { (i.old & 0xFFFF_0000) | u32::from(v) };
        let r = match i.op {
            LOAD_UBYTE => merge(d0 as u8 as u16),
            LOAD_SBYTE => merge(d0 as u8 as i8 as i16 as u16),
            LOAD_SHORT => merge(d0 as u16),
            STORE_BYTE => u32::from(if i.hi { (d0 >> 16) as u8 } else { d0 as u8 }),
            STORE_SHORT => u32::from(if i.hi { (d0 >> 16) as u16 } else { d0 as u16 }),
            _ => unreachable!(),
        };
        Out { valid: true, result: u128::from(r), result_count: 1, illegal: false }
    });
    assert_eq!(n, 655_360);
}

// ---------------------------------------------------------------------------------------------
// Functional coverage (rust/d16.rs `cover`).
// ---------------------------------------------------------------------------------------------

/// Asserts that `input` lands in every bin of `expected` (and, with `exactly`, in no other).
fn assert_bins(input: In, expected: &[&str], exactly: bool) {
    let out = gcn_vmem_model::d16::compute(&input);
    common::assert_input_bins::<D16>(&format!("{input:?}"), &input, &out, expected, exactly);
}

/// Hand-chosen inputs land in the bins SPEC §6 (and §5's f32 <-> f16 rule) names for them.
#[test]
fn directed_inputs_land_in_their_bins() {
    // load_format, float, 4 components: 1.0 (normal), 65520 (exactly halfway between 65504
    // and 65536: a tie), an f32 NaN whose top 10 mantissa bits are 0 (payload forced to 1),
    // 2^−20 (an f16 denormal).
    assert_bins(
        lf(FLOAT, 4, [F1, 0x477F_F000, 0x7F80_0001, 0x3580_0000]),
        &[
            "op x hi: load_format hi=0",
            "format op x nfmt: load_format float",
            "format op x count: load_format count 4",
            "load_format component -> half: float-like: normal f16 result",
            "load_format component -> half: float-like: rounding tie (to even)",
            "load_format component -> half: float-like: NaN, payload forced to 1",
            "load_format component -> half: float-like: f16 denormal result",
        ],
        true,
    );
    // 1e10 overflows, 2^−30 underflows, −inf stays; uint keeps the low 16 bits.
    assert_bins(
        lf(UNORM, 3, [0x501502F9, 0x3080_0000, 0xFF80_0000, 0]),
        &[
            "load_format component -> half: float-like: finite overflows to +-inf",
            "load_format component -> half: float-like: nonzero underflows to +-0",
            "load_format component -> half: float-like: +-inf",
        ],
        false,
    );
    assert_bins(
        lf(UINT, 2, [0x0001_0000, 0xFFFF, 0, 0]),
        &[
            "load_format component -> half: uint/sint: upper bits dropped",
            "load_format component -> half: uint/sint: fits 16 bits",
        ],
        false,
    );
    // store_format: sint 0x8000 is negative (sign-extended), 0x0001 not; float 0x7C01 is a
    // signalling NaN, 0x0001 a denormal, 0x8000 is −0.
    assert_bins(
        sf(SINT, 2, [0x8000, 0x0001, 0, 0, 0, 0, 0, 0]),
        &[
            "store_format half -> component: sint: negative (sign-extended)",
            "store_format half -> component: sint: non-negative",
        ],
        false,
    );
    assert_bins(
        sf(FLOAT, 3, [0x7C01, 0x0001, 0x8000, 0, 0, 0, 0, 0]),
        &[
            "store_format half -> component: float-like: signalling NaN",
            "store_format half -> component: float-like: denormal (kept exactly)",
            "store_format half -> component: float-like: -0",
        ],
        false,
    );
    // Byte/short ops: sbyte 0x80 into the high half; short store of bits 31:16 = 0x8000.
    assert_bins(
        bs(LOAD_SBYTE, true, 0x80),
        &["byte/short op x hi x msb of the moved value: load_sbyte hi=1 msb 1"],
        false,
    );
    assert_bins(
        bs(STORE_SHORT, true, 0x8000_0000),
        &["byte/short op x hi x msb of the moved value: store_short hi=1 msb 1"],
        false,
    );
    // Illegal: the reserved op; count 0 gives no halves; nfmt 6.
    assert_bins(bs(RESERVED_OP, false, 0), &["op x hi: reserved hi=0"], true);
    assert_bins(
        lf(FLOAT, 0, [F1, F2, F3, F4]),
        &[
            "op x hi: load_format hi=0",
            "format op x nfmt: load_format float",
            "format op x count: load_format count 0 (illegal: nothing)",
        ],
        true,
    );
    assert_bins(
        sf(NFMT_RESERVED, 6, [0; 8]),
        &[
            "format op x nfmt: store_format reserved 6 (illegal, float-like)",
            "format op x count: store_format count 6 (illegal, as 4)",
        ],
        false,
    );
}

// ---------------------------------------------------------------------------------------------
// Random lockstep property (bubbles included), assertions and the bins' budget.
// ---------------------------------------------------------------------------------------------

common::unit_tests! {
    random_cases_agree_in_lockstep: 1000,
    every_assertion_fires_and_is_reported: [
        "CountBound_A",
        "ResultBeyondCount0_A",
        "ResultBeyondCount1_A",
        "ResultBeyondCount2_A",
        "ResultBeyondCount3_A",
    ],
    random_stimulus_hits_every_bin: 62,
}
