//! `multi_texel` (SPEC §4.3, §5; docs/decisions.md "image_addr and multi_texel"): a directed table
//! with hand-computed expectations (every row of §4.3's table in every listed nfmt, conversion
//! corners, every rejected neighbour, invalid groups), a snapshot of its cycle-by-cycle trace,
//! pipeline hold behaviour, §4.3's reconstruction proof for every 8- and 16-bit code, exhaustive
//! sweeps of every code through the BY and PCK rows and of every (op, DMASK, dfmt, nfmt), and
//! random lockstep properties.
//!
//! No expected value comes from the model: the rows are written by hand from the spec (the
//! arithmetic is in the comment beside each row), [`TABLE`] is transcribed here from §4.3, and
//! [`spec`] is written here from §4.3 and the decisions' port contract, converting components with
//! tests/common/reference.rs (exact rational arithmetic from SPEC §5). Nothing here calls
//! rust/float.rs, rust/format*.rs or the models' `compute`: the model and the RTL are only
//! observed through the lockstep harness.

use crate::common;
use crate::common::reference;

use std::time::Instant;

use common::f32_consts::{M_ONE, ONE};
use common::sweep;
use gcn_vmem::bindings::multi_texel::Harness;
use gcn_vmem_model::image_addr::{DFMT_R16, DFMT_R8, DFMT_RG8, OP_BY2, OP_BY4, OP_PCK2, OP_PCK4};
use gcn_vmem_model::multi_texel::{In, MultiTexel, Out};
use gcn_vmem_model::unit::{Ports, Unit};
use reference::{from_words, FLOAT, SINT, SNORM, UINT, UNORM};

// ---------------------------------------------------------------------------------------------
// Codes and SPEC §4.3's table, transcribed.
// ---------------------------------------------------------------------------------------------

use common::spec43::{group, table_combinations, BY2, BY4, PCK2, PCK4, R16, R8, RG8, TABLE};

/// True when (op, dmask, dfmt, nfmt) is a row of SPEC §4.3's table.
fn legal(op: u8, dmask: u8, dfmt: u8, nfmt: u8) -> bool {
    common::spec43::in_table(op, dmask, dfmt, nfmt)
}

/// Texel bytes of §4.3's formats (§1.4: R8 1, R16 and RG8 2); 0 for any other code.
fn bpp(dfmt: u8) -> u32 {
    match dfmt {
        R8 => 1,
        R16 | RG8 => 2,
        _ => 0,
    }
}

/// Bits of the group's n texels (R8 PCK2: 16, R8 PCK4/BY4, R16 and RG8 ×2: 32).
fn group_bits(op: u8, dfmt: u8) -> u32 {
    8 * bpp(dfmt) * group(op)
}

fn low_mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

// ---------------------------------------------------------------------------------------------
// Independent reference: SPEC §4.3 for one lane, with the ports of docs/decisions.md.
// ---------------------------------------------------------------------------------------------

/// The unit's outputs for one input (valid passed through), from SPEC §4.3 and the decisions:
/// illegal → all 0 with illegal; else result_count = popcount(DMASK); an invalid group gives
/// result 0; BY: each texel's components (channel order, §1.4's fields) converted by §5 to
/// consecutive dwords; PCK: each component reconstructed from its §5 value by §5's pack rule
/// (unorm round_half_even(v·(2^w − 1)), sint/uint truncation to w bits), texel 0 at bit 0.
fn spec(i: &In) -> Out {
    let (op, dmask, dfmt, nfmt) = (i.op & 0x3, i.dmask & 0xf, i.dfmt & 0x3f, i.nfmt & 0xf);
    if !legal(op, dmask, dfmt, nfmt) {
        return Out { valid: i.valid, illegal: true, ..Out::default() };
    }
    let result_count = dmask.count_ones() as u8;
    if !i.group_valid {
        return Out { valid: i.valid, result_count, ..Out::default() };
    }
    let bits = 8 * bpp(dfmt);
    let mut dwords = Vec::new();
    let mut packed = 0u128;
    for t in 0..group(op) {
        let texel = (i.texels >> (bits * t)) & low_mask(bits);
        let mut raw = 0u64;
        for &(lsb, w) in reference::fields(dfmt) {
            let code = (texel >> lsb) as u32 & ((1 << w) - 1);
            let v = reference::unpack_field(code, w, nfmt);
            dwords.push(v);
            raw |= u64::from(reference::pack_field(v, w, nfmt)) << lsb;
        }
        packed |= u128::from(raw) << (bits * t);
    }
    let result = if op == PCK2 || op == PCK4 {
        packed
    } else {
        assert_eq!(dwords.len(), usize::from(result_count));
        dwords.iter().enumerate().fold(0u128, |acc, (k, &d)| acc | u128::from(d) << (32 * k))
    };
    Out { valid: i.valid, result, result_count, illegal: false }
}

// ---------------------------------------------------------------------------------------------
// Directed table.
// ---------------------------------------------------------------------------------------------

/// f32 arithmetic used in the comments: for q in [2^k, 2^(k+1)), biased exponent E = 127 + k
/// and fraction F = round((q / 2^k − 1)·2^23); the f32 is E << 23 | F.
/// unorm8 3 = 3/255 = 1/85 = 2^-7·128/85: F = 2^23·43/85 = 4243648.75 → 4243649 = 0x40c0c1,
/// E = 120 → 0x3c40_c0c1 (SPEC §5's own example).
const UNORM8_3: u32 = 0x3c40_c0c1;
/// unorm8 128 = 2^-1·256/255: F = 2^23/255 = 32896.502 → 32897 = 0x8081, E = 126.
const UNORM8_128: u32 = 0x3f00_8081;
/// unorm8 1 = 2^-8·256/255: same F, E = 119.
const UNORM8_1: u32 = 0x3b80_8081;
/// unorm8 254 = 2^-1·(1 + 253/255): F = 2^23·253/255 = 8322814.996 → 8322815 = 0x7efeff, E = 126.
const UNORM8_254: u32 = 0x3f7e_feff;
/// snorm8 1 = 1/127 = 2^-7·128/127: F = 2^23/127 = 66052.03 → 66052 = 0x10204, E = 120.
const SNORM8_1: u32 = 0x3c01_0204;
/// unorm16 1 = 2^-16·65536/65535: F = 2^23/65535 = 128.002 → 0x80, E = 111 = 0x6f.
const UNORM16_1: u32 = 0x3780_0080;
/// unorm16 0x8000 = 2^-1·65536/65535: F = 0x80, E = 126.
const UNORM16_8000: u32 = 0x3f00_0080;
/// snorm16 1 = 1/32767 = 2^-15·32768/32767: F = 2^23/32767 = 256.008 → 0x100, E = 112 = 0x70.
const SNORM16_1: u32 = 0x3800_0100;

/// Junk for the bits of `texels` above the group (decisions: "texel t at bits 8·bpp·t upward";
/// nothing above the n texels may be read).
const JUNK: u64 = 0x5ac3_96e1_d2b4_f00d;

struct Row {
    name: String,
    input: In,
    /// Result dwords 0..3 as the port carries them.
    result: [u32; 4],
    result_count: u8,
    illegal: bool,
}

/// A lane of the multi-texel unit: `group` holds the n texels' bytes, [`JUNK`] lies above them.
fn lane(op: u8, dmask: u8, dfmt: u8, nfmt: u8, group: u64) -> In {
    let bits = group_bits(op, dfmt);
    assert_eq!(group & !low_mask(bits), 0, "group wider than {bits} bits");
    In { valid: true, op, dmask, dfmt, nfmt, group_valid: true, texels: group | (JUNK & !low_mask(bits)) }
}

/// The DMASK of §4.3's table for (op, dfmt): BY2 R8/R16 0x3, BY2 RG8 and BY4 0xF, PCK 0x1.
fn row_dmask(op: u8, dfmt: u8) -> u8 {
    TABLE.iter().find(|&&(o, _, f, _)| o == op && f == dfmt).map_or_else(|| panic!("no row {op} {dfmt}"), |r| r.1)
}

/// The directed vectors. Unless a comment says otherwise the group is valid and the bits above
/// the group's bytes hold [`JUNK`].
fn rows() -> Vec<Row> {
    let mut rows = Vec::new();
    let mut ok = |name: &str, op: u8, dfmt: u8, nfmt: u8, group: u64, result: [u32; 4]| {
        let dmask = row_dmask(op, dfmt);
        let result_count = dmask.count_ones() as u8;
        let input = lane(op, dmask, dfmt, nfmt, group);
        rows.push(Row { name: name.to_string(), input, result, result_count, illegal: false });
    };

    // ---- BY2, DMASK 0x3, R8: texel 0 = bits 7:0, texel 1 = bits 15:8, one dword each; bits
    // 63:16 junk.
    ok("by2 r8 unorm: 3, 255", BY2, R8, UNORM, 0xff03, [UNORM8_3, ONE, 0, 0]);
    ok("by2 r8 unorm: 0, 128", BY2, R8, UNORM, 0x8000, [0, UNORM8_128, 0, 0]);
    ok("by2 r8 unorm: 254, 1", BY2, R8, UNORM, 0x01fe, [UNORM8_254, UNORM8_1, 0, 0]);
    // snorm: 0x80 = −128 → max(−128/127, −1) = −1.0; 0x81 = −127 → −1.0.
    ok("by2 r8 snorm: 0x80, 0x81 → -1.0", BY2, R8, SNORM, 0x8180, [M_ONE, M_ONE, 0, 0]);
    ok("by2 r8 snorm: 0x7f → 1.0, 0x01 → 1/127", BY2, R8, SNORM, 0x017f, [ONE, SNORM8_1, 0, 0]);
    // 0xff = −1 → −1/127 (sign bit on SNORM8_1); 0x00 → +0.0.
    ok("by2 r8 snorm: 0xff → -1/127, 0", BY2, R8, SNORM, 0x00ff, [SNORM8_1 | 0x8000_0000, 0, 0, 0]);
    ok("by2 r8 uint: 0xfe, 0x7f zero-extended", BY2, R8, UINT, 0x7ffe, [0xfe, 0x7f, 0, 0]);
    ok("by2 r8 sint: 0x80 → -128, 0x7f", BY2, R8, SINT, 0x7f80, [0xffff_ff80, 0x7f, 0, 0]);
    ok("by2 r8 sint: 0xff → -1, 0x01", BY2, R8, SINT, 0x01ff, [0xffff_ffff, 1, 0, 0]);

    // ---- BY2, DMASK 0x3, R16: texel 0 = bits 15:0, texel 1 = 31:16; bits 63:32 junk.
    ok("by2 r16 unorm: 0xffff, 1", BY2, R16, UNORM, 0x0001_ffff, [ONE, UNORM16_1, 0, 0]);
    ok("by2 r16 unorm: 0x8000, 0", BY2, R16, UNORM, 0x0000_8000, [UNORM16_8000, 0, 0, 0]);
    // snorm16: 0x8000 = −32768 → −1.0 (clamped); 0x8001 = −32767 → −1.0.
    ok("by2 r16 snorm: 0x8000, 0x8001 → -1.0", BY2, R16, SNORM, 0x8001_8000, [M_ONE, M_ONE, 0, 0]);
    ok("by2 r16 snorm: 0x7fff → 1.0, 1 → 1/32767", BY2, R16, SNORM, 0x0001_7fff, [ONE, SNORM16_1, 0, 0]);
    ok("by2 r16 uint: 0xffff, 0x8000", BY2, R16, UINT, 0x8000_ffff, [0xffff, 0x8000, 0, 0]);
    ok("by2 r16 sint: 0x8000 → -32768, 0x7fff", BY2, R16, SINT, 0x7fff_8000, [0xffff_8000, 0x7fff, 0, 0]);
    ok("by2 r16 sint: 0xffff → -1, 1", BY2, R16, SINT, 0x0001_ffff, [0xffff_ffff, 1, 0, 0]);
    // f16 → f32 exactly: 0x3c00 = 1.0; 0xc000 = −2.0 (E = 128 → 0xc000_0000).
    ok("by2 r16 float: 1.0, -2.0", BY2, R16, FLOAT, 0xc000_3c00, [ONE, 0xc000_0000, 0, 0]);
    // Denormals kept: 0x0001 = 2^-24 → E = 103 = 0x67 → 0x3380_0000; 0x83ff = −1023·2^-24 =
    // −2^-15·1.111111111b → E = 112, F = 0x1ff << 14 = 0x7fc000 → 0xb87f_c000.
    ok("by2 r16 float: denormals 0x0001, 0x83ff", BY2, R16, FLOAT, 0x83ff_0001, [0x3380_0000, 0xb87f_c000, 0, 0]);
    // ±infinity.
    ok("by2 r16 float: +inf, -inf", BY2, R16, FLOAT, 0xfc00_7c00, [0x7f80_0000, 0xff80_0000, 0, 0]);
    // NaNs not quieted: payload to the top fraction bits: 0x7c01 → 1 << 13 → 0x7f80_2000 (still
    // signalling); 0xfe00 → sign, 0x200 << 13 = 0x40_0000 → 0xffc0_0000.
    ok("by2 r16 float: sNaN 0x7c01, qNaN 0xfe00", BY2, R16, FLOAT, 0xfe00_7c01, [0x7f80_2000, 0xffc0_0000, 0, 0]);
    // 0x7dff → 0x1ff << 13 = 0x3f_e000 → 0x7fbf_e000; −0.0 → 0x8000_0000.
    ok("by2 r16 float: sNaN 0x7dff, -0", BY2, R16, FLOAT, 0x8000_7dff, [0x7fbf_e000, 0x8000_0000, 0, 0]);
    // Largest finite 0x7bff = 65504 = 1.1111111111b·2^15 → E = 142 = 0x8e, F = 0x3ff << 13.
    ok("by2 r16 float: 65504, +0", BY2, R16, FLOAT, 0x0000_7bff, [0x477f_e000, 0, 0, 0]);

    // ---- BY2, DMASK 0xF, RG8: texel t = bits 16t+15:16t with R at its bits 7:0, G at 15:8; the
    // dwords are t0.R, t0.G, t1.R, t1.G; bits 63:32 junk.
    ok("by2 rg8 uint: order t0.R t0.G t1.R t1.G", BY2, RG8, UINT, 0x4433_2211, [0x11, 0x22, 0x33, 0x44]);
    ok("by2 rg8 unorm: 3, 255, 128, 0", BY2, RG8, UNORM, 0x0080_ff03, [UNORM8_3, ONE, UNORM8_128, 0]);
    ok(
        "by2 rg8 snorm: 0x80, 0x7f, 0x01, 0xff",
        BY2,
        RG8,
        SNORM,
        0xff01_7f80,
        [M_ONE, ONE, SNORM8_1, SNORM8_1 | 0x8000_0000],
    );
    ok("by2 rg8 sint: 0x80, 0x01, 0xff, 0x7f", BY2, RG8, SINT, 0x7fff_0180, [0xffff_ff80, 1, 0xffff_ffff, 0x7f]);

    // ---- BY4, DMASK 0xF, R8: texel t = byte t, one dword each; bits 63:32 junk.
    ok("by4 r8 unorm: 3, 255, 0, 128", BY4, R8, UNORM, 0x8000_ff03, [UNORM8_3, ONE, 0, UNORM8_128]);
    ok("by4 r8 unorm: 1, 254, 255, 0", BY4, R8, UNORM, 0x00ff_fe01, [UNORM8_1, UNORM8_254, ONE, 0]);
    ok("by4 r8 snorm: 0x80, 0x81, 0x7f, 0x01", BY4, R8, SNORM, 0x017f_8180, [M_ONE, M_ONE, ONE, SNORM8_1]);
    ok("by4 r8 uint: 1, 0xff, 0x80, 0x7f", BY4, R8, UINT, 0x7f80_ff01, [1, 0xff, 0x80, 0x7f]);
    ok("by4 r8 sint: 1, 0xff, 0x80, 0x7f", BY4, R8, SINT, 0x7f80_ff01, [1, 0xffff_ffff, 0xffff_ff80, 0x7f]);

    // ---- PCK, DMASK 0x1: the stored bits of the n texels, texel 0 lowest, zero above the group
    // (R8 PCK2: bits 31:16 although texels 63:16 hold junk). unorm codes come back through
    // round_half_even(v·(2^w − 1)), sint through truncation: the same bits in every nfmt.
    for (nfmt, tag) in [(UNORM, "unorm"), (UINT, "uint"), (SINT, "sint")] {
        ok(&format!("pck2 r8 {tag}: 0xff, 0x80; 31:16 zero"), PCK2, R8, nfmt, 0x80ff, [0x80ff, 0, 0, 0]);
        ok(&format!("pck2 r8 {tag}: 3, 0x7f"), PCK2, R8, nfmt, 0x7f03, [0x7f03, 0, 0, 0]);
        ok(&format!("pck2 r16 {tag}: 0x7fff, 0x8001"), PCK2, R16, nfmt, 0x8001_7fff, [0x8001_7fff, 0, 0, 0]);
        ok(&format!("pck2 r16 {tag}: 0xffff, 1"), PCK2, R16, nfmt, 0x0001_ffff, [0x0001_ffff, 0, 0, 0]);
        ok(
            &format!("pck2 rg8 {tag}: t0 (3, 1), t1 (0xff, 0x80)"),
            PCK2,
            RG8,
            nfmt,
            0x80ff_0103,
            [0x80ff_0103, 0, 0, 0],
        );
        ok(&format!("pck4 r8 {tag}: 3, 0x7f, 0xff, 0x80"), PCK4, R8, nfmt, 0x80ff_7f03, [0x80ff_7f03, 0, 0, 0]);
    }

    // ---- An invalid group: result 0, result_count as for a valid group, not illegal
    // (decisions: "group_valid = 0: result = 0, result_count as for a valid group"). texels all
    // ones, which would give non-zero dwords in every row.
    for (k, &(op, dmask, dfmt, nfmts)) in TABLE.iter().enumerate() {
        for &nfmt in nfmts {
            let input = In { group_valid: false, texels: u64::MAX, ..lane(op, dmask, dfmt, nfmt, 0) };
            rows.push(Row {
                name: format!("invalid group: row {k} (op {op} dmask {dmask:#x} dfmt {dfmt}) nfmt {nfmt}"),
                input,
                result: [0; 4],
                result_count: dmask.count_ones() as u8,
                illegal: false,
            });
        }
    }

    // ---- Every rejected neighbour of each table row: one of DMASK, nfmt, dfmt or op changed to
    // a value that makes the combination no row of the table → illegal, result 0, result_count 0
    // (decisions), whatever the texels (JUNK everywhere) and group_valid say. The nfmt of the
    // changed rows cycles through the row's listed nfmts.
    let mut bad = |name: String, op: u8, dmask: u8, dfmt: u8, nfmt: u8, group_valid: bool| {
        assert!(!legal(op, dmask, dfmt, nfmt), "{name} is legal");
        let input = In { valid: true, op, dmask, dfmt, nfmt, group_valid, texels: JUNK };
        rows.push(Row { name, input, result: [0; 4], result_count: 0, illegal: true });
    };
    for (k, &(op, dmask, dfmt, nfmts)) in TABLE.iter().enumerate() {
        let base = format!("reject row {k} (op {op} dmask {dmask:#x} dfmt {dfmt})");
        let pick = |j: u8| nfmts[usize::from(j) % nfmts.len()];
        // Another DMASK (0 included): each (op, dfmt) has exactly one DMASK in the table.
        for d in (0..16).filter(|&d| d != dmask) {
            bad(format!("{base}: dmask {d:#x}"), op, d, dfmt, pick(d), true);
        }
        // An nfmt the row does not list: snorm on PCK, uscaled, sscaled, reserved 6, float except
        // BY2 R16, and the codes 8..15 of the T#'s 4-bit field.
        for n in (0..16).filter(|n| !nfmts.contains(n)) {
            bad(format!("{base}: nfmt {n}"), op, dmask, dfmt, n, true);
        }
        // Another dfmt: INVALID 0, 32-bit 4, the other formats of §4.3 where not a row, 16_16,
        // 8_8_8_8, reserved 15, and codes whose low 4 or 5 bits alias a row (0x21 = R8 + 32).
        let dfmts = [0, 4, 0x21, R8, R16, RG8, 5, 10, 15, dfmt + 16, dfmt + 32, 63];
        let mut seen = Vec::new(); // R8 + 32 = 0x21 appears twice
        for (j, f) in (0u8..).zip(dfmts) {
            if seen.contains(&f) {
                continue;
            }
            seen.push(f);
            if f != dfmt && !legal(op, dmask, f, pick(j)) {
                bad(format!("{base}: dfmt {f:#x}"), op, dmask, f, pick(j), true);
            }
        }
        // Another op with the same DMASK, format and nfmt.
        for (j, o) in (0u8..).zip(0..4) {
            if o != op && !legal(o, dmask, dfmt, pick(j)) {
                bad(format!("{base}: op {o}"), o, dmask, dfmt, pick(j), true);
            }
        }
        // Illegal and an invalid group: still result_count 0 (decisions).
        bad(format!("{base}: dmask 0, invalid group"), op, 0, dfmt, nfmts[0], false);
    }
    rows
}

fn expected(r: &Row) -> Out {
    Out { valid: true, result: from_words(r.result), result_count: r.result_count, illegal: r.illegal }
}

/// The table as the helpers of tests/common take it.
fn table(rows: &[Row]) -> Vec<common::Row<'_, Harness>> {
    rows.iter().map(|r| (r.name.as_str(), r.input, expected(r))).collect()
}

#[test]
fn directed_table_is_well_formed() {
    let rows = rows();
    common::assert_unique_names(rows.iter().map(|r| r.name.as_str()));
    assert_eq!(table_combinations().len(), 29);
    for r in &rows {
        let i = &r.input;
        assert!(i.valid, "{}", r.name);
        // The row's verdict is the transcribed table's; illegal rows are all 0.
        assert_eq!(r.illegal, !legal(i.op, i.dmask, i.dfmt, i.nfmt), "{}: illegal", r.name);
        if r.illegal {
            assert_eq!((r.result, r.result_count), ([0; 4], 0), "{}", r.name);
        } else {
            assert_eq!(u32::from(r.result_count), i.dmask.count_ones(), "{}: result_count", r.name);
            assert!(r.result[usize::from(r.result_count)..].iter().all(|&d| d == 0), "{}: above count", r.name);
            // Junk above the group in every legal valid-group row (so ignoring it is tested).
            if i.group_valid {
                assert_ne!(i.texels >> group_bits(i.op, i.dfmt), 0, "{}: no junk", r.name);
            }
        }
    }
    // Every combination of the table has a hand-computed row with a valid group, a non-zero
    // result, and an invalid-group row.
    for (op, dmask, dfmt, nfmt) in table_combinations() {
        let hit = |gv: bool| {
            rows.iter().any(|r| {
                let i = &r.input;
                (i.op, i.dmask, i.dfmt, i.nfmt, i.group_valid) == (op, dmask, dfmt, nfmt, gv)
                    && (!gv || r.result != [0; 4])
            })
        };
        assert!(hit(true) && hit(false), "no row for op {op} dmask {dmask:#x} dfmt {dfmt} nfmt {nfmt}");
    }
    // Neighbours: every other DMASK, every unlisted nfmt (6 and 8..15 included), dfmt 0, 4, 0x21.
    for (k, &(op, dmask, dfmt, nfmts)) in TABLE.iter().enumerate() {
        let rejects: Vec<&In> = rows.iter().filter(|r| r.illegal).map(|r| &r.input).collect();
        let dmasks = rejects.iter().filter(|i| (i.op, i.dfmt) == (op, dfmt) && i.dmask != dmask).count();
        assert!(dmasks >= 15, "row {k}: {dmasks} DMASK neighbours");
        for n in (0..16).filter(|n| !nfmts.contains(n)) {
            assert!(
                rejects.iter().any(|i| (i.op, i.dmask, i.dfmt, i.nfmt) == (op, dmask, dfmt, n)),
                "row {k} nfmt {n}"
            );
        }
        for f in [0, 4, 0x21] {
            assert!(rejects.iter().any(|i| (i.op, i.dmask, i.dfmt) == (op, dmask, f)), "row {k} dfmt {f:#x}");
        }
    }
}

// The hand-computed rows against [`spec`] (with the exact-arithmetic reference; two independent
// witnesses, so `spec`, used on the exhaustive and random inputs below, is itself checked against
// hand derivations), and through model and RTL in lockstep; the trace of the table as a reviewed
// snapshot.
common::unit_tests! {
    directed_rows_match_spec: table(&rows()),
    reference_matches_directed_rows: (table(&rows()), spec),
    directed_table_trace: table(&rows()),
}

/// The codes this file uses are docs/decisions.md's (op) and SPEC §1.4's (dfmt), and the ports
/// are the decisions' list.
#[test]
fn codes_and_ports_match_decisions() {
    assert_eq!((OP_BY2, OP_BY4, OP_PCK2, OP_PCK4), (BY2, BY4, PCK2, PCK4));
    assert_eq!((DFMT_R8, DFMT_R16, DFMT_RG8), (R8, R16, RG8));
    let names = |s: &[gcn_vmem_model::unit::Signal]| s.iter().map(|s| (s.name, s.width)).collect::<Vec<_>>();
    assert_eq!(
        names(In::SIGNALS),
        [("valid", 1), ("op", 2), ("dmask", 4), ("dfmt", 6), ("nfmt", 4), ("group_valid", 1), ("texels", 64)]
    );
    assert_eq!(names(Out::SIGNALS), [("valid", 1), ("result", 128), ("result_count", 3), ("illegal", 1)]);
    assert_eq!(MultiTexel::LATENCY, 2);
}

// ---------------------------------------------------------------------------------------------
// Pipeline: data outputs hold the last valid result through bubbles; reset values are 0.
// ---------------------------------------------------------------------------------------------

/// An invalid cycle whose other inputs would change every output if they were taken.
fn junk(k: u64) -> In {
    In { valid: false, op: BY2, dmask: 0xf, dfmt: RG8, nfmt: UINT, group_valid: true, texels: JUNK ^ k }
}

common::unit_tests! {
    pipeline_bubbles_hold_last_result: (
        |k: u32| junk(u64::from(k)),
        table(&rows()),
        "by4 r8 snorm: 0x80, 0x81, 0x7f, 0x01",
        "pck2 r8 sint: 0xff, 0x80; 31:16 zero",
    ),
}

// ---------------------------------------------------------------------------------------------
// SPEC §4.3's proof: unorm and sint reconstruction give back every 8- and 16-bit code.
// ---------------------------------------------------------------------------------------------

/// round_half_even(x·2^e), exactly, for e <= 0 (x < 2^100).
fn round_half_even_scaled(x: u128, e: i32) -> u128 {
    assert!(e <= 0);
    let t = e.unsigned_abs();
    if t == 0 {
        return x;
    }
    let q = x >> t;
    let r = x & ((1u128 << t) - 1);
    let half = 1u128 << (t - 1);
    if r > half || (r == half && q & 1 == 1) {
        q + 1
    } else {
        q
    }
}

/// A non-negative finite f32 as m·2^e with an integer m < 2^24 (+0.0 as 0·2^0).
fn f32_parts(bits: u32) -> (u128, i32) {
    assert_eq!(bits >> 31, 0, "{bits:#x} is negative");
    if bits == 0 {
        return (0, 0);
    }
    let field = (bits >> 23) as i32;
    assert!(field < 0xff, "{bits:#x} is not finite");
    let frac = u128::from(bits & 0x7f_ffff);
    if field == 0 {
        (frac, -149)
    } else {
        (frac | 1 << 23, field - 150)
    }
}

/// For every code c of w = 8 and 16 bits: v = the correctly rounded f32 of c / (2^w − 1) (from the
/// reference; checked here to lie within half an ulp of the quotient), and round_half_even(v ·
/// (2^w − 1)) computed exactly in integers (v = m·2^e, so v·d = m·d·2^e with m·d < 2^40) gives c
/// back. sint: the sign-extended value truncated to w bits gives the stored bits back; uint
/// likewise. (Why it holds: |v − c/d| <= 2^-24·v, so |v·d − c| <= 2^-24·c < 2^-8, far inside ½.)
#[test]
fn exhaustive_reconstruction_proof() {
    let start = Instant::now();
    let mut codes = 0;
    for w in [8u32, 16] {
        let d = (1u32 << w) - 1;
        let mut worst = (0u128, 1u128); // largest |v·d − c| seen, as a fraction num/den
        for c in 0..=d {
            let v = reference::unpack_field(c, w, UNORM);
            let (m, e) = f32_parts(v);
            let t = e.unsigned_abs();
            assert!(e <= 0 && t < 64);
            // Half an ulp: |m·2^e − c/d| <= 2^(e−1); times d·2^t (t = −e): 2·|m·d − c·2^t| <= d.
            let (md, ct) = (m * u128::from(d), u128::from(c) << t);
            let diff = md.abs_diff(ct);
            assert!(2 * diff <= u128::from(d), "unorm{w} {c}: {v:#x} is not the nearest f32");
            // diff / 2^t = |v·d − c|; keep the largest.
            if diff * worst.1 > worst.0 << t {
                worst = (diff, 1u128 << t);
            }
            assert_eq!(round_half_even_scaled(md, e), u128::from(c), "unorm{w} {c}: v = {v:#x}");
            // The reference's own pack agrees (a second path through SPEC §5's pack rule).
            assert_eq!(reference::pack_field(v, w, UNORM), c, "unorm{w} {c}: reference pack");
            // sint: sign extension written here with an arithmetic shift; truncation gives c.
            let s = reference::unpack_field(c, w, SINT);
            let sign_extended = ((c << (32 - w)) as i32 >> (32 - w)) as u32;
            assert_eq!(s, sign_extended, "sint{w} {c}");
            assert_eq!(s & d, c, "sint{w} {c}: truncation");
            let u = reference::unpack_field(c, w, UINT);
            assert_eq!((u, u & d), (c, c), "uint{w} {c}");
            codes += 1;
        }
        // The margin: the worst |v·d − c| is below 2^-8 (far from the ½ that rounding forgives).
        assert!(worst.0 << 8 < worst.1, "unorm{w}: worst |v·d − c| = {}/{}", worst.0, worst.1);
    }
    assert_eq!(codes, 256 + 65_536);
    println!("exhaustive_reconstruction_proof: {codes} codes in {:.2?}", start.elapsed());
}

// ---------------------------------------------------------------------------------------------
// Exhaustive sweeps through model and RTL (`sweep` checks they agree on every cycle).
// ---------------------------------------------------------------------------------------------

/// Texel t's code in vector i of a 2^16-vector sweep. 16-bit texels: (i·MULT[t] + ADD[t]) mod
/// 2^16, a permutation of the codes (odd multipliers), so every texel position sees every code
/// while the texels differ. 8-bit texels: t0, t1 = the low and high bytes of i (every pair), t2
/// and t3 odd-multiplier permutations of those bytes (every pair again, in another order).
fn texel_code(i: u64, t: usize, bits: u32) -> u64 {
    const MULT: [u64; 4] = [1, 0x9b5, 0x3b, 0xa7];
    const ADD: [u64; 4] = [0, 0x5a5a, 0x34, 0x7e];
    match bits {
        16 => i.wrapping_mul(MULT[t]).wrapping_add(ADD[t]) & 0xffff,
        8 => ((i >> (8 * (t & 1))) & 0xff).wrapping_mul(MULT[t]).wrapping_add(ADD[t]) & 0xff,
        _ => panic!("no {bits}-bit texels in SPEC §4.3's table"),
    }
}

/// Vector i of a sweep over (op, dfmt): the permuted texel codes, junk (varying with i) above.
fn sweep_texels(op: u8, dfmt: u8, i: u64) -> u64 {
    let bits = 8 * bpp(dfmt);
    let mut texels = 0;
    for t in 0..group(op) as usize {
        texels |= texel_code(i, t, bits) << (bits * t as u32);
    }
    let gb = group_bits(op, dfmt);
    texels | (JUNK.rotate_left(i as u32) & !low_mask(gb))
}

/// Sweeps 2^16 vectors of (op, dfmt, nfmt) (every code in every texel position, every pair of
/// 8-bit codes in texels 0 and 1) and checks each output with `check`; returns the vector count.
fn sweep_row(op: u8, dfmt: u8, nfmt: u8, check: impl Fn(u64, &In, &Out) -> Option<String>) -> usize {
    let dmask = row_dmask(op, dfmt);
    assert!(legal(op, dmask, dfmt, nfmt));
    let n = 1u64 << 16;
    let inputs: Vec<In> = (0..n)
        .map(|i| In { valid: true, op, dmask, dfmt, nfmt, group_valid: true, texels: sweep_texels(op, dfmt, i) })
        .collect();
    let outs = sweep::<Harness>(&inputs);
    assert_eq!(outs.len(), inputs.len());
    let failures: Vec<String> =
        (0..n).zip(inputs.iter().zip(&outs)).filter_map(|(i, (inp, o))| check(i, inp, o)).collect();
    assert!(
        failures.is_empty(),
        "op {op} dfmt {dfmt} nfmt {nfmt}: {} failure(s) (first 20):\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
    inputs.len()
}

/// BY: each dword against the reference's conversion of its field code (a table per nfmt),
/// result_count = DMASK's popcount, not illegal.
fn sweep_by(op: u8, dfmt: u8, nfmt: u8) -> usize {
    let fields = reference::fields(dfmt);
    let w = fields[0].1;
    let table: Vec<u32> = (0..1u32 << w).map(|c| reference::unpack_field(c, w, nfmt)).collect();
    let bits = 8 * bpp(dfmt);
    let count = row_dmask(op, dfmt).count_ones() as u8;
    sweep_row(op, dfmt, nfmt, |i, inp, o| {
        let mut want = Vec::new();
        for t in 0..group(op) as usize {
            let texel = texel_code(i, t, bits);
            for &(lsb, fw) in fields {
                want.push(table[((texel >> lsb) & low_mask(fw)) as usize]);
            }
        }
        want.resize(4, 0);
        let want = Out {
            valid: true,
            result: from_words([want[0], want[1], want[2], want[3]]),
            result_count: count,
            illegal: false,
        };
        (*o != want).then(|| {
            format!(
                "texels {:#018x}:\n  reference: {}\n  got:       {}",
                inp.texels,
                common::show(&want),
                common::show(o)
            )
        })
    })
}

/// Every 8-bit code in every texel position of BY4 R8 and BY2 R8 (every pair in texels 0 and 1),
/// and every (R, G) pair of BY2 RG8 in both texels, in every listed nfmt, against the reference.
#[test]
fn exhaustive_by_8bit_codes() {
    common::timed("exhaustive_by_8bit_codes", || {
        let mut n = 0;
        for nfmt in [UNORM, SNORM, UINT, SINT] {
            n += sweep_by(BY4, R8, nfmt) + sweep_by(BY2, R8, nfmt) + sweep_by(BY2, RG8, nfmt);
        }
        n
    });
}

/// Every 16-bit code in both texels of BY2 R16 in every listed nfmt (float included: every f16
/// widened, NaNs unquieted), against the reference.
#[test]
fn exhaustive_by2_r16_codes() {
    common::timed("exhaustive_by2_r16_codes", || {
        [UNORM, SNORM, UINT, SINT, FLOAT].into_iter().map(|n| sweep_by(BY2, R16, n)).sum()
    });
}

/// Every code in every texel position through every PCK row in unorm, uint and sint: the result
/// is the group's texel bytes zero-extended (SPEC §4.3), result_count 1, not illegal.
#[test]
fn exhaustive_pck_codes() {
    common::timed("exhaustive_pck_codes", || {
        let mut n = 0;
        for nfmt in [UNORM, UINT, SINT] {
            for (op, dfmt) in [(PCK2, R8), (PCK2, R16), (PCK2, RG8), (PCK4, R8)] {
                let mask = low_mask(group_bits(op, dfmt));
                n += sweep_row(op, dfmt, nfmt, |_, inp, o| {
                    let want =
                        Out { valid: true, result: u128::from(inp.texels & mask), result_count: 1, illegal: false };
                    (*o != want).then(|| {
                        format!("texels {:#018x}: want {} got {}", inp.texels, common::show(&want), common::show(o))
                    })
                });
            }
        }
        n
    });
}

/// Every op × DMASK × dfmt (0..64) × nfmt (0..16), each with a valid and an invalid group and
/// texels varying with a hash of the index (131,072 vectors): `illegal` exactly off [`TABLE`],
/// and every output equal to [`spec`].
#[test]
fn exhaustive_legality() {
    let start = Instant::now();
    let mut inputs = Vec::with_capacity(1 << 17);
    for op in 0..4u8 {
        for dmask in 0..16u8 {
            for dfmt in 0..64u8 {
                for nfmt in 0..16u8 {
                    for group_valid in [true, false] {
                        let texels = common::mix(inputs.len() as u64);
                        inputs.push(In { valid: true, op, dmask, dfmt, nfmt, group_valid, texels });
                    }
                }
            }
        }
    }
    assert_eq!(inputs.len(), 4 * 16 * 64 * 16 * 2);
    common::assert_sweep_matches::<Harness>(&inputs, spec);
    let mut legal_seen = Vec::new();
    for i in &inputs {
        let is_legal = legal(i.op, i.dmask, i.dfmt, i.nfmt);
        if is_legal && i.group_valid {
            legal_seen.push((i.op, i.dmask, i.dfmt, i.nfmt));
        }
        // The reference's verdict is the table's (so a sweep that matches it checks `illegal`).
        assert_eq!(spec(i).illegal, !is_legal);
    }
    let mut table = table_combinations();
    table.sort_unstable();
    assert_eq!(legal_seen, table, "the legal combinations");
    assert_eq!(legal_seen.len(), 29);
    println!("exhaustive_legality: {} vectors in {:.2?}", inputs.len(), start.elapsed());
}

// ---------------------------------------------------------------------------------------------
// Random lockstep properties.
// ---------------------------------------------------------------------------------------------

common::unit_tests! {
    random_cases_agree_in_lockstep: 1000,
    every_assertion_fires_and_is_reported: [
        "AboveCountZero1_A",
        "AboveCountZero2_A",
        "AboveCountZero3_A",
        "CountRow_A",
        "IllegalZero_A",
    ],
    random_stimulus_hits_every_bin: 250,
    random_cases_match_reference: (1000, spec),
}

// ---------------------------------------------------------------------------------------------
// Functional coverage: the declared bins (rust/multi_texel.rs `cover`).
// ---------------------------------------------------------------------------------------------

/// Asserts that `input` (with the model's result) lands in every bin of `expected`.
fn assert_bins(what: &str, input: &In, expected: &[&str]) {
    let out = gcn_vmem_model::multi_texel::compute(input);
    common::assert_input_bins::<MultiTexel>(what, input, &out, expected, false);
}

fn cover_lane(op: u8, dmask: u8, dfmt: u8, nfmt: u8, group_valid: bool, texels: u64) -> In {
    In { valid: true, op, dmask, dfmt, nfmt, group_valid, texels }
}

/// Hand-chosen lanes land in the bins SPEC §4.3's table and §5 put them in.
#[test]
fn directed_inputs_hit_their_bins() {
    // BY2 R16 float (the only float row): texel 0 = +inf (0x7c00), texel 1 = NaN (0x7e00); the
    // bytes above the two texels are ignored.
    assert_bins(
        "BY2 R16 float",
        &cover_lane(BY2, 0x3, R16, FLOAT, true, 0xabcd_0000_7e00_7c00),
        &[
            "row x nfmt (group valid): BY2 0x3 R16 float",
            "row x group: BY2 0x3 R16 group valid",
            "component values (§5): f16 infinity",
            "component values (§5): f16 NaN",
            "texels above the group (ignored): BY: nonzero bits above the group",
            "op x DMASK: by2 a DMASK of the op's rows",
        ],
    );
    // BY2 RG8 snorm with 0x80 and 0x81 (both −1.0, §5).
    assert_bins(
        "BY2 RG8 snorm",
        &cover_lane(BY2, 0xF, RG8, SNORM, true, 0x7f81_8000),
        &[
            "row x nfmt (group valid): BY2 0xF RG8 snorm",
            "component values (§5): snorm8 0x80 (-128: -1.0)",
            "component values (§5): snorm8 0x81 (-127: -1.0)",
            "component values (§5): snorm8 0x7f (1.0)",
        ],
    );
    // An invalid group of PCK4 R8: zeros (§4.3).
    assert_bins(
        "PCK4 invalid group",
        &cover_lane(PCK4, 0x1, R8, UINT, false, 0x1234),
        &["row x group: PCK4 0x1 R8 group invalid (zeros)"],
    );
    // PCK2 takes no snorm; BY4 takes R8 only; BY2 R8 needs DMASK 0x3; dfmt 0 and 4 are not
    // multi-texel formats; float only on BY2 R16.
    let illegal = "illegal reason (§4.3): ";
    assert_bins("PCK2 snorm", &cover_lane(PCK2, 0x1, R8, SNORM, true, 0), &[&format!("{illegal}nfmt snorm on PCK")]);
    assert_bins("BY4 RG8", &cover_lane(BY4, 0xF, RG8, UNORM, true, 0), &[&format!("{illegal}BY4/PCK4 on R16 or RG8")]);
    assert_bins(
        "BY2 R8 DMASK 0xF",
        &cover_lane(BY2, 0xF, R8, UNORM, true, 0),
        &[&format!("{illegal}DMASK not the row's"), &format!("{illegal}illegal with group_valid = 1 (zeros, count 0)")],
    );
    assert_bins("dfmt 0", &cover_lane(BY2, 0x3, 0, UNORM, false, 0), &[&format!("{illegal}dfmt 0")]);
    assert_bins(
        "dfmt 4",
        &cover_lane(PCK2, 0x1, 4, UINT, true, 0),
        &[&format!("{illegal}dfmt 4..63 (not R8/R16/RG8)")],
    );
    assert_bins(
        "BY2 R8 float",
        &cover_lane(BY2, 0x3, R8, FLOAT, true, 0),
        &[&format!("{illegal}nfmt float outside BY2 R16")],
    );
    assert_bins("DMASK 0", &cover_lane(PCK4, 0, R8, UINT, true, 0), &["op x DMASK: pck4 DMASK 0"]);
}
