//! `image_addr` (SPEC §1.2, §4.2–§4.5; docs/decisions.md "image_addr"): a directed table with
//! hand-computed expectations (multi-texel groups, one element of every type and element size,
//! linear and tiled layouts, illegal layouts), a snapshot of its cycle-by-cycle trace, an exhaustive
//! legality sweep and stimulus batches against [`reference`] (an independent transcription of the
//! decisions' port contract), the executor helpers (`check_multi_texel`, the format table,
//! `decode_vaddr` against SPEC §4.1, `check_sw_mode`), an exhaustive sweep of ops × layouts ×
//! types, the tiled multi-texel group's contiguity, a random lockstep property and a check that
//! the random stimulus reaches the unit's corners.
//!
//! No expected value comes from the model: every directed row is derived by hand (the arithmetic
//! is in the comment beside it, or, for the rows generated in loops over the §4.3 table, in the
//! comment above the loop), T#s are packed by [`Tsh::lo`]/[`Tsh::hi`] from §1.2's bit table
//! (not by rust/tsharp.rs), and [`reference`] and [`TABLE`] are written here from the spec.

use crate::common;

use gcn_vmem::bindings::image_addr::Harness;
use gcn_vmem_model::exec::{decode_vaddr, Coords};
use gcn_vmem_model::image_addr::{
    check_multi_texel, ImageAddr, In, MultiTexelAccess, Out, FORMAT_TABLE, OP_BY2, OP_BY4, OP_ELEMENT, OP_PCK2, OP_PCK4,
};

// ---------------------------------------------------------------------------------------------
// Codes (SPEC §1.2, §1.4; docs/decisions.md for `op`).
// ---------------------------------------------------------------------------------------------

use common::spec43::*;

/// T# types (§1.2).
const TYPE_1D: u8 = 8;
const TYPE_2D: u8 = 9;
const TYPE_3D: u8 = 10;
const TYPE_CUBE: u8 = 11;
const TYPE_1D_ARRAY: u8 = 12;
const TYPE_2D_ARRAY: u8 = 13;

/// Element bytes of a dfmt (§1.4's last column); 0 outside 1–14 (decisions: bpp of the address).
fn bpp(dfmt: u8) -> u64 {
    const BYTES: [u64; 15] = [0, 1, 2, 2, 4, 4, 4, 4, 4, 4, 4, 8, 8, 12, 16];
    BYTES.get(usize::from(dfmt)).copied().unwrap_or(0)
}

// ---------------------------------------------------------------------------------------------
// T# construction (SPEC §1.2), independent of rust/tsharp.rs.
// ---------------------------------------------------------------------------------------------

/// The fields of a T#, sizes given as counts (the descriptor holds count − 1).
#[derive(Clone, Copy)]
struct Tsh {
    /// 40 bits, units of 256 bytes (39:0).
    base: u64,
    /// 12 bits (51:40).
    min_lod: u16,
    /// 6 bits (57:52).
    dfmt: u8,
    /// 4 bits (61:58).
    nfmt: u8,
    /// Mip-0 width, 1..=16384 (77:64 hold width − 1).
    width: u32,
    /// Mip-0 height, 1..=16384 (91:78 hold height − 1).
    height: u32,
    /// 3 bits each (98:96 … 107:105).
    dst_sel: [u8; 4],
    /// 4 bits each (111:108, 115:112).
    base_level: u8,
    last_level: u8,
    /// 5 bits (120:116): 0 linear, 1 256B_S, 5 4KB_S, 9 64KB_S (§4.5), others not modelled.
    sw_mode: u8,
    /// 4 bits (127:124).
    ty: u8,
    /// 1..=8192 (140:128 hold depth − 1; 256-bit form).
    depth: u32,
    /// 1..=65536 (156:141 hold pitch − 1; 256-bit form).
    pitch: u32,
    /// 4 bits (191:188; 256-bit form).
    max_mip: u8,
    /// Sets every bit §1.2 does not name (lo 63:62, 95:92, 123:121; hi 187:157, 255:192).
    junk: bool,
}

impl Tsh {
    /// Bits 127:0.
    fn lo(&self) -> u128 {
        assert!(self.base < 1 << 40 && self.min_lod < 1 << 12 && self.dfmt < 64 && self.nfmt < 16);
        assert!((1..=16384).contains(&self.width) && (1..=16384).contains(&self.height));
        assert!(self.base_level < 16 && self.last_level < 16 && self.sw_mode < 32 && self.ty < 16);
        let mut v = u128::from(self.base);
        v |= u128::from(self.min_lod) << 40;
        v |= u128::from(self.dfmt) << 52;
        v |= u128::from(self.nfmt) << 58;
        v |= u128::from(self.width - 1) << 64;
        v |= u128::from(self.height - 1) << 78;
        for (c, &s) in self.dst_sel.iter().enumerate() {
            assert!(s < 8);
            v |= u128::from(s) << (96 + 3 * c);
        }
        v |= u128::from(self.base_level) << 108;
        v |= u128::from(self.last_level) << 112;
        v |= u128::from(self.sw_mode) << 116;
        v |= u128::from(self.ty) << 124;
        if self.junk {
            v |= 0b11 << 62 | 0b1111 << 92 | 0b111 << 121;
        }
        v
    }

    /// Bits 255:128 (bit k here is descriptor bit 128 + k).
    fn hi(&self) -> u128 {
        assert!((1..=8192).contains(&self.depth) && (1..=65536).contains(&self.pitch) && self.max_mip < 16);
        let mut v = u128::from(self.depth - 1);
        v |= u128::from(self.pitch - 1) << 13;
        v |= u128::from(self.max_mip) << 60;
        if self.junk {
            v |= ((1u128 << 31) - 1) << 29 | (u128::from(u64::MAX) << 64);
        }
        v
    }
}

/// The main image: 2D R8 unorm, 13 × 7 texels (odd), pitch 16 > width, base 0x10 → byte
/// 0x1000, levels 0..15, max_mip 15. Level 0: texel (x, y) at 0x1000 + 16y + x.
const IMG: Tsh = Tsh {
    base: 0x10,
    min_lod: 0,
    dfmt: R8,
    nfmt: UNORM,
    width: 13,
    height: 7,
    dst_sel: [4, 5, 6, 7],
    base_level: 0,
    last_level: 15,
    sw_mode: 0,
    ty: TYPE_2D,
    depth: 1,
    pitch: 16,
    max_mip: 15,
    junk: false,
};

/// An even-sized image: 12 × 5, pitch 20, base byte 0x2000; texel (x, y) at 0x2000 + 20y + x.
const EVEN: Tsh = Tsh { base: 0x20, width: 12, height: 5, pitch: 20, ..IMG };

/// A non-square odd mip chain: R16 (2 bytes), 37 × 11, pitch 40, base byte 0x10000.
const MIPS: Tsh = Tsh { base: 0x100, dfmt: R16, width: 37, height: 11, pitch: 40, ..IMG };

/// The top of the address space: base 0xff_ffff_ffff → byte 0xffff_ffff_ff00; R16 uint 13 × 7,
/// pitch 200.
const WRAP: Tsh = Tsh { base: 0xff_ffff_ffff, dfmt: R16, nfmt: UINT, pitch: 200, ..IMG };

/// The largest image: R16 uint, 16384 × 16384, pitch 65536, base 0.
const BIG: Tsh = Tsh { base: 0, dfmt: R16, nfmt: UINT, width: 16384, height: 16384, pitch: 65536, ..IMG };

// ---------------------------------------------------------------------------------------------
// Lanes and expectations.
// ---------------------------------------------------------------------------------------------

/// One lane: the T# (256-bit form), op, DMASK and coordinates; mip = d16 = tfe = da = 0.
fn lane(t: Tsh, op: u8, dmask: u8, x: u32, y: u32) -> In {
    In {
        valid: true,
        tsharp_lo: t.lo(),
        tsharp_hi: t.hi(),
        r128: false,
        op,
        mip: false,
        dmask,
        d16: false,
        tfe: false,
        da: false,
        x,
        y,
        slice: 0,
        mipid: 0,
    }
}

/// The row DMASKs of R8/R16 (BY2 0x3), BY4 0xF and PCK 0x1.
fn by2(t: Tsh, x: u32, y: u32) -> In {
    lane(t, BY2, 0x3, x, y)
}
fn by4(t: Tsh, x: u32, y: u32) -> In {
    lane(t, BY4, 0xF, x, y)
}
fn pck2(t: Tsh, x: u32, y: u32) -> In {
    lane(t, PCK2, 0x1, x, y)
}
fn pck4(t: Tsh, x: u32, y: u32) -> In {
    lane(t, PCK4, 0x1, x, y)
}

/// The _MIP form with `mipid`.
fn mip(i: In, mipid: u32) -> In {
    In { mip: true, mipid, ..i }
}

/// A 128-bit T#: the high half is replaced by junk (pitch 100, max_mip 0, depth 7, every
/// unnamed bit set), which must be ignored.
fn r128(i: In) -> In {
    let junk = Tsh { pitch: 100, max_mip: 0, depth: 7, junk: true, ..IMG };
    In { r128: true, tsharp_hi: junk.hi(), ..i }
}

/// A lane whose level exists: the level, its width, height and pitch, xa, the group verdict and
/// the address; legal.
fn lv(level: u8, width: u16, height: u16, pitch: u32, xa: u32, group_valid: bool, address: u64) -> Out {
    Out {
        valid: true,
        level_ok: true,
        level,
        width,
        height,
        layers: 1,
        pitch,
        xa,
        group_valid,
        address,
        illegal: false,
    }
}

/// A lane whose level does not exist: level, width, height, pitch, address 0; only xa.
fn none(xa: u32) -> Out {
    Out { valid: true, xa, ..Out::default() }
}

/// The same outputs with `illegal` (which forces group_valid = 0).
fn illegal(o: Out) -> Out {
    Out { illegal: true, group_valid: false, ..o }
}

/// Level 0 of [`IMG`]: 13 × 7, pitch 16.
fn img0(xa: u32, group_valid: bool, address: u64) -> Out {
    lv(0, 13, 7, 16, xa, group_valid, address)
}

/// Level 0 of [`EVEN`]: 12 × 5, pitch 20.
fn even0(xa: u32, group_valid: bool, address: u64) -> Out {
    lv(0, 12, 5, 20, xa, group_valid, address)
}

/// One element (op 4) at (x, y, slice); DMASK, D16, TFE, DA 0 (op 4 ignores them).
fn elem(t: Tsh, x: u32, y: u32, slice: u32) -> In {
    In { slice, ..lane(t, ELEMENT, 0, x, y) }
}

/// An op-4 lane whose level exists: level, width, height, layers, pitch, xa (= x), inside the
/// level, address; legal.
#[allow(clippy::too_many_arguments)]
fn el(level: u8, width: u16, height: u16, layers: u16, pitch: u32, x: u32, inside: bool, address: u64) -> Out {
    Out { layers, ..lv(level, width, height, pitch, x, inside, address) }
}

/// The element-size family images: 2D, 600 × 520, pitch 600, base 0x100 → byte 0x10000, nfmt
/// uint, levels 0..15, max_mip 15, with the given dfmt and sw_mode.
fn fam(dfmt: u8, sw_mode: u8) -> Tsh {
    Tsh { base: 0x100, dfmt, nfmt: UINT, width: 600, height: 520, pitch: 600, sw_mode, ..IMG }
}

/// Level 0 of a [`fam`] image, op 4 at x.
fn fam0(x: u32, inside: bool, address: u64) -> Out {
    el(0, 600, 520, 1, 600, x, inside, address)
}

/// dfmts of each element size (§1.4): 1 (8), 2 (16), 4 (32), 8 (32_32), 12 (32_32_32), 16
/// (32_32_32_32).
const D1: u8 = 1;
const D2: u8 = 2;
const D4: u8 = 4;
const D8: u8 = 11;
const D12: u8 = 13;
const D16: u8 = 14;

/// sw_mode codes (§1.2, §4.5).
const LINEAR: u8 = 0;
const S256B: u8 = 1;
const S4KB: u8 = 5;
const S64KB: u8 = 9;

/// The op code of one element (decisions "image_addr").
const ELEMENT: u8 = 4;

struct Row {
    name: String,
    input: In,
    expect: Out,
}

/// `row(name, input, expect)`, adding a row to `rows`.
fn adder(rows: &mut Vec<Row>) -> impl FnMut(&str, In, Out) + '_ {
    |name, input, expect| rows.push(Row { name: name.to_string(), input, expect })
}

// ---------------------------------------------------------------------------------------------
// Directed table.
// ---------------------------------------------------------------------------------------------

/// The directed vectors. Unless a comment says otherwise: xa = x & ~(n − 1); the group is valid
/// when x + n <= width_L (exact) and y < height_L (bound, legal, level exists); address =
/// base·256 + mip_offset(L) + (y·pitch_L + xa)·bpp mod 2^48, computed whatever the verdict.
fn rows() -> Vec<Row> {
    let mut rows = Vec::new();
    alignment_rows(&mut rows);
    mip_rows(&mut rows);
    unbound_and_wrap_rows(&mut rows);
    format_table_rows(&mut rows);
    element_rows(&mut rows);
    tiled_rows(&mut rows);
    rows
}

/// Alignment and fit: the aligned group start and whether the group fits the level.
fn alignment_rows(rows: &mut Vec<Row>) {
    let mut row = adder(rows);
    // ---- Alignment: every x mod 4, n = 2 and 4. IMG level 0, y = 2 → row offset 2·16 = 0x20.
    // BY2: xa = x & ~1: 4→4, 5→4, 6→6, 7→6; x + 2 <= 9 <= 13.
    // x = 4: 0x1000 + 0x20 + 4 = 0x1024.
    row("align by2 x=4 (x%4=0)", by2(IMG, 4, 2), img0(4, true, 0x1024));
    row("align by2 x=5 (x%4=1)", by2(IMG, 5, 2), img0(4, true, 0x1024));
    // x = 6: 0x1000 + 0x20 + 6 = 0x1026.
    row("align by2 x=6 (x%4=2)", by2(IMG, 6, 2), img0(6, true, 0x1026));
    row("align by2 x=7 (x%4=3)", by2(IMG, 7, 2), img0(6, true, 0x1026));
    // BY4: xa = x & ~3 = 4 for x = 4..7; x + 4 <= 11 <= 13; 0x1000+0x20+4.
    row("align by4 x=4 (x%4=0)", by4(IMG, 4, 2), img0(4, true, 0x1024));
    row("align by4 x=5 (x%4=1)", by4(IMG, 5, 2), img0(4, true, 0x1024));
    row("align by4 x=6 (x%4=2)", by4(IMG, 6, 2), img0(4, true, 0x1024));
    row("align by4 x=7 (x%4=3)", by4(IMG, 7, 2), img0(4, true, 0x1024));
    // PCK2: 8→8, 9→8, 10→10, 11→10; x + 2 <= 13 (x = 11 = width − n: the last column, unaligned).
    // x = 8: 0x1000 + 0x20 + 8 = 0x1028.
    row("align pck2 x=8 (x%4=0)", pck2(IMG, 8, 2), img0(8, true, 0x1028));
    row("align pck2 x=9 (x%4=1)", pck2(IMG, 9, 2), img0(8, true, 0x1028));
    // x = 10: 0x1000 + 0x20 + 10 = 0x102a.
    row("align pck2 x=10 (x%4=2)", pck2(IMG, 10, 2), img0(10, true, 0x102a));
    row("align pck2 x=11 (x%4=3) = width-n", pck2(IMG, 11, 2), img0(10, true, 0x102a));
    // PCK4 at y = 0: xa = 0 for x = 0..3; x + 4 <= 7; address 0x1000.
    row("align pck4 x=0 (x%4=0)", pck4(IMG, 0, 0), img0(0, true, 0x1000));
    row("align pck4 x=1 (x%4=1)", pck4(IMG, 1, 0), img0(0, true, 0x1000));
    row("align pck4 x=2 (x%4=2)", pck4(IMG, 2, 0), img0(0, true, 0x1000));
    row("align pck4 x=3 (x%4=3)", pck4(IMG, 3, 0), img0(0, true, 0x1000));

    // ---- The group must fit with the unaligned x. IMG width 13, y = 2 (0x1020 + xa).
    // BY4 x = 9 = width − n: 9 & ~3 = 8, 9 + 4 = 13 <= 13 → valid (last column, unaligned).
    row("by4 x=9 = width-n, unaligned", by4(IMG, 9, 2), img0(8, true, 0x1028));
    // x = 10, 11: xa = 8 and the aligned group 8..11 lies inside 0..12, but 14, 15 > 13 → invalid.
    row("by4 x=10 fits aligned only", by4(IMG, 10, 2), img0(8, false, 0x1028));
    row("by4 x=11 fits aligned only", by4(IMG, 11, 2), img0(8, false, 0x1028));
    // BY2 x = 11 = width − n: xa 10, 13 <= 13 → valid.
    row("by2 x=11 = width-n, unaligned", by2(IMG, 11, 2), img0(10, true, 0x102a));
    // x = 12: xa 12 < 13 in range, 14 > 13 → invalid; x = 13 = width: xa 12, 15 > 13.
    row("by2 x=12: 14 > 13", by2(IMG, 12, 2), img0(12, false, 0x102c));
    row("by2 x=13 = width", by2(IMG, 13, 2), img0(12, false, 0x102c));
    // EVEN (12 × 5, pitch 20): address 0x2000 + 20y + xa. y = 4 is the last row (4 < 5).
    // BY2 x = 10 = width − n, aligned: 12 <= 12 → valid; 4·20 + 10 = 90 = 0x5a.
    row("even by2 x=10 = width-n aligned, last row", by2(EVEN, 10, 4), even0(10, true, 0x205a));
    // x = 11: xa 10, aligned group 10..11 fits, 11 + 2 = 13 > 12 → invalid.
    row("even by2 x=11 fits aligned only", by2(EVEN, 11, 4), even0(10, false, 0x205a));
    // BY4 x = 8 = width − n, aligned: 12 <= 12 → valid; 80 + 8 = 88 = 0x58.
    row("even by4 x=8 = width-n aligned, last row", by4(EVEN, 8, 4), even0(8, true, 0x2058));
    // x = 9, 10, 11: xa 8 (group 8..11 fits), 13, 14, 15 > 12 → invalid.
    row("even by4 x=9 fits aligned only", by4(EVEN, 9, 4), even0(8, false, 0x2058));
    row("even by4 x=10 fits aligned only", by4(EVEN, 10, 4), even0(8, false, 0x2058));
    row("even by4 x=11 fits aligned only", by4(EVEN, 11, 4), even0(8, false, 0x2058));
    // PCK forms at y = 0: pck2 x = 11 → xa 10, 13 > 12 invalid; pck4 x = 8 valid; x = 10 invalid.
    row("even pck2 x=11 fits aligned only", pck2(EVEN, 11, 0), even0(10, false, 0x200a));
    row("even pck4 x=8 = width-n aligned", pck4(EVEN, 8, 0), even0(8, true, 0x2008));
    row("even pck4 x=10 fits aligned only", pck4(EVEN, 10, 0), even0(8, false, 0x2008));
    // y = 5 = height → invalid; 5·20 = 100 = 0x64.
    row("even by2 y=5 = height", by2(EVEN, 0, 5), even0(0, false, 0x2064));

    // ---- x + n computed exactly (33 bits): a 32-bit sum would wrap into the image.
    // 0xfffffffe + 2 = 2^32 > 13 (32-bit: 0 <= 13); xa = 0xfffffffe; 0x1000 + 0xfffffffe.
    row("by2 x=0xfffffffe: x+2 = 2^32", by2(IMG, 0xffff_fffe, 0), img0(0xffff_fffe, false, 0x1_0000_0ffe));
    // 0xfffffffd + 4 = 2^32 + 1 > 13; xa = 0xfffffffc; 0x1000 + 0xfffffffc.
    row("by4 x=0xfffffffd: x+4 = 2^32+1", by4(IMG, 0xffff_fffd, 0), img0(0xffff_fffc, false, 0x1_0000_0ffc));
    // y = 1: 0x1000 + 16 + 0xfffffffc = 0x1_0000_100c.
    row("pck4 x=0xffffffff", pck4(IMG, 0xffff_ffff, 1), img0(0xffff_fffc, false, 0x1_0000_100c));

    // ---- The last row and y = height (IMG height 7).
    // y = 6 < 7: 6·16 = 96 = 0x60.
    row("by2 y=6 = height-1", by2(IMG, 0, 6), img0(0, true, 0x1060));
    // x = 9 = width − 4, y = 6: xa 8, 96 + 8 = 0x68.
    row("by4 last row, last column", by4(IMG, 9, 6), img0(8, true, 0x1068));
    // y = 7 = height: invalid; 7·16 = 112 = 0x70.
    row("by2 y=7 = height", by2(IMG, 0, 7), img0(0, false, 0x1070));
    // 0xffffffff·16 = 0xf_ffff_fff0; + 0x1000 = 0x10_0000_0ff0.
    row("by2 y=0xffffffff", by2(IMG, 0, 0xffff_ffff), img0(0, false, 0x10_0000_0ff0));
}

/// Mip levels: the level's dimensions, pitch and offset, and whether the level exists.
fn mip_rows(rows: &mut Vec<Row>) {
    let mut row = adder(rows);
    // ---- Mip levels of IMG (256-bit, pitch 16 > width 13, R8 = 1 byte):
    //   L0 13×7 pitch 16, offset 0
    //   L1 (13>>1=6)×(7>>1=3) pitch 16>>1=8, offset 16·7 = 112
    //   L2 (13>>2=3)×(7>>2=1) pitch 4, offset 112 + 8·3 = 136
    //   L3 (13>>3=1)×max(1,0)=1 pitch 2, offset 136 + 4·1 = 140
    //   L4 1×1 pitch 1, offset 140 + 2·1 = 142; L5..L14 add 1 each: L15 offset 142 + 11 = 153.
    // L0 x = 11, y = 6: xa 10, 13 <= 13; 6·16 + 10 = 106 = 0x6a.
    row("img mip L0", mip(by2(IMG, 11, 6), 0), img0(10, true, 0x106a));
    // L1 x = 4 = width_1 − 2: 6 <= 6; y 2 < 3; 112 + 2·8 + 4 = 132 = 0x84.
    row("img mip L1 last column", mip(by2(IMG, 4, 2), 1), lv(1, 6, 3, 8, 4, true, 0x1084));
    // x = 5: xa 4, 5 + 2 = 7 > 6 → invalid; address as above.
    row("img mip L1 x=5 beyond", mip(by2(IMG, 5, 2), 1), lv(1, 6, 3, 8, 4, false, 0x1084));
    // y = 3 = height_1: invalid; 112 + 3·8 = 136 = 0x88.
    row("img mip L1 y=3 = height", mip(by2(IMG, 0, 3), 1), lv(1, 6, 3, 8, 0, false, 0x1088));
    // L2 x = 1: xa 0, 3 <= 3 → valid; 136 = 0x88.
    row("img mip L2", mip(by2(IMG, 1, 0), 2), lv(2, 3, 1, 4, 0, true, 0x1088));
    // y = 1 = height_2: invalid; 136 + 1·4 = 140 = 0x8c.
    row("img mip L2 y=1 = height", mip(by2(IMG, 1, 1), 2), lv(2, 3, 1, 4, 0, false, 0x108c));
    // L3 1×1: 0 + 2 > 1 → invalid; 140 = 0x8c.
    row("img mip L3 1x1", mip(by2(IMG, 0, 0), 3), lv(3, 1, 1, 2, 0, false, 0x108c));
    // L4 1×1: offset 142 = 0x8e.
    row("img mip L4 1x1 pitch 1", mip(by2(IMG, 0, 0), 4), lv(4, 1, 1, 1, 0, false, 0x108e));
    // L15 1×1 (L = last_level = max_mip = 15): offset 153 = 0x99.
    row("img mip L15 = last_level = max_mip", mip(by2(IMG, 0, 0), 15), lv(15, 1, 1, 1, 0, false, 0x1099));

    // ---- MIPS: non-square odd chain down to 1×1 (37 × 11, log2(37) = 5), R16 = 2 bytes, base
    // 0x10000. 256-bit, pitch 40 > width 37:
    //   L0 37×11 p40 off 0;  L1 18×5 p20 off 40·11·2 = 880;  L2 9×2 p10 off 880 + 20·5·2 = 1080;
    //   L3 4×1 p5 off 1080 + 10·2·2 = 1120;  L4 2×1 p2 off 1120 + 5·1·2 = 1130;
    //   L5 1×1 p1 off 1130 + 2·1·2 = 1134.
    // Each lane is the level's last BY2 group (x = width_L − 2, y = height_L − 1) while it fits.
    // L0 x 35 y 10: xa 34, (10·40 + 34)·2 = 868 = 0x364.
    row("mips256 L0", mip(by2(MIPS, 35, 10), 0), lv(0, 37, 11, 40, 34, true, 0x1_0364));
    // L1 x 16 y 4: 880 + (4·20 + 16)·2 = 1072 = 0x430.
    row("mips256 L1", mip(by2(MIPS, 16, 4), 1), lv(1, 18, 5, 20, 16, true, 0x1_0430));
    // x = 17: xa 16, 19 > 18 → invalid; address as above.
    row("mips256 L1 x=17 beyond", mip(by2(MIPS, 17, 4), 1), lv(1, 18, 5, 20, 16, false, 0x1_0430));
    // L2 x 7 y 1: xa 6, 1080 + (10 + 6)·2 = 1112 = 0x458.
    row("mips256 L2", mip(by2(MIPS, 7, 1), 2), lv(2, 9, 2, 10, 6, true, 0x1_0458));
    // L3 x 2 y 0: 1120 + 2·2 = 1124 = 0x464.
    row("mips256 L3", mip(by2(MIPS, 2, 0), 3), lv(3, 4, 1, 5, 2, true, 0x1_0464));
    // L4 x 0: 2 <= 2 → valid; 1130 = 0x46a.
    row("mips256 L4", mip(by2(MIPS, 0, 0), 4), lv(4, 2, 1, 2, 0, true, 0x1_046a));
    // L5 1×1: 2 > 1 → invalid; 1134 = 0x46e.
    row("mips256 L5 1x1", mip(by2(MIPS, 0, 0), 5), lv(5, 1, 1, 1, 0, false, 0x1_046e));
    // 128-bit (r128, junk high half ignored: pitch_L = width_L, no max_mip check although the junk
    // max_mip is 0):
    //   L0 37×11 p37 off 0;  L1 18×5 p18 off 37·11·2 = 814;  L2 9×2 p9 off 814 + 18·5·2 = 994;
    //   L3 4×1 p4 off 994 + 9·2·2 = 1030;  L4 2×1 p2 off 1030 + 4·1·2 = 1038;
    //   L5 1×1 p1 off 1038 + 2·1·2 = 1042.
    // L0: (10·37 + 34)·2 = 808 = 0x328.
    row("mips128 L0", r128(mip(by2(MIPS, 35, 10), 0)), lv(0, 37, 11, 37, 34, true, 0x1_0328));
    // L1: 814 + (4·18 + 16)·2 = 990 = 0x3de.
    row("mips128 L1", r128(mip(by2(MIPS, 16, 4), 1)), lv(1, 18, 5, 18, 16, true, 0x1_03de));
    // L2: 994 + (9 + 6)·2 = 1024 = 0x400.
    row("mips128 L2", r128(mip(by2(MIPS, 7, 1), 2)), lv(2, 9, 2, 9, 6, true, 0x1_0400));
    // L3: 1030 + 2·2 = 1034 = 0x40a.
    row("mips128 L3", r128(mip(by2(MIPS, 2, 0), 3)), lv(3, 4, 1, 4, 2, true, 0x1_040a));
    // L4 x 0: 2 <= 2 → valid; 1038 = 0x40e.
    row("mips128 L4", r128(mip(by2(MIPS, 0, 0), 4)), lv(4, 2, 1, 2, 0, true, 0x1_040e));
    // L5 1×1: 2 > 1 → invalid; 1042 = 0x412.
    row("mips128 L5 1x1", r128(mip(by2(MIPS, 0, 0), 5)), lv(5, 1, 1, 1, 0, false, 0x1_0412));

    // ---- Whether the level exists.
    let ll3 = Tsh { last_level: 3, ..IMG };
    // L = 4 > last_level 3: level, dims, address 0, group invalid; xa still 5 & ~1 = 4.
    row("beyond last_level: L=4 > 3", mip(by2(ll3, 5, 0), 4), none(4));
    // as "img mip L3"
    row("at last_level: L=3", mip(by2(ll3, 0, 0), 3), lv(3, 1, 1, 2, 0, false, 0x108c));
    let mm2 = Tsh { max_mip: 2, ..IMG };
    // as "img mip L2"
    row("at max_mip: L=2", mip(by2(mm2, 1, 0), 2), lv(2, 3, 1, 4, 0, true, 0x1088));
    row("beyond max_mip (256-bit): L=3 > 2", mip(by2(mm2, 0, 0), 3), none(0));
    // r128 = 1 reads no max_mip (the lane's own high half holds max_mip 2; r128() swaps in junk
    // with max_mip 0): L3 exists. pitch = width: offsets 13·7 = 91, + 6·3 = 109, + 3·1 = 112.
    row("r128 ignores max_mip: L=3", r128(mip(by2(mm2, 0, 0), 3)), lv(3, 1, 1, 1, 0, false, 0x1070));
    // The same T# with r128 = 1 but the lane's own high half (max_mip 2 there): still L3.
    row(
        "r128 ignores max_mip in its own high half",
        In { r128: true, ..mip(by2(mm2, 0, 0), 3) },
        lv(3, 1, 1, 1, 0, false, 0x1070),
    );
    // base_level alone beyond max_mip (non-MIP): L = 3 > 2.
    row("beyond max_mip by base_level alone", by2(Tsh { base_level: 3, ..mm2 }, 0, 0), none(0));
    // base_level 5 > last_level 4.
    row("base_level > last_level", by2(Tsh { base_level: 5, last_level: 4, ..IMG }, 0, 0), none(0));
    // L = base_level 1 + mipid 2 = 3; mip_offset counts from level 0: as "img mip L3".
    row(
        "base_level 1 + mipid 2 = L3",
        mip(by2(Tsh { base_level: 1, ..IMG }, 0, 0), 2),
        lv(3, 1, 1, 2, 0, false, 0x108c),
    );
    // Non-MIP: L = base_level 2, mipid 7 ignored: as "img mip L2".
    row(
        "base_level 2, non-MIP ignores mipid",
        In { mipid: 7, ..by2(Tsh { base_level: 2, ..IMG }, 1, 0) },
        lv(2, 3, 1, 4, 0, true, 0x1088),
    );
    let ll0 = Tsh { last_level: 0, ..IMG };
    // mip = 0: mipid 0xffffffff ignored, L = 0 <= last_level 0: as "img mip L0".
    row("mip=0 ignores mipid 0xffffffff", In { mipid: 0xffff_ffff, ..by2(ll0, 11, 6) }, img0(10, true, 0x106a));
    row("mip=1 mipid 1 > last_level 0", mip(by2(ll0, 11, 6), 1), none(10));
    // L = 15 + 0xffffffff = 0x1_0000_000e > 15 (a 32-bit sum wraps to 14 <= 15).
    row("L overflow: 15 + 0xffffffff", mip(by2(Tsh { base_level: 15, ..IMG }, 0, 0), 0xffff_ffff), none(0));
    // L = 1 + 0xffffffff = 2^32 (32-bit: 0).
    row("L overflow: 1 + 0xffffffff = 2^32", mip(by2(Tsh { base_level: 1, ..IMG }, 0, 0), 0xffff_ffff), none(0));
    // L = 16 > 15 (a 4-bit level would be 0).
    row("mipid 16 > last_level 15", mip(by2(IMG, 0, 0), 16), none(0));
    // 128-bit: L = 15 + 0xfffffff1 = 2^32 > 15.
    row("r128 L overflow: 15 + 0xfffffff1", r128(mip(by2(Tsh { base_level: 15, ..IMG }, 0, 0), 0xffff_fff1)), none(0));
    // Illegal (DMASK 7) and no level: both flags.
    row("illegal and no level", In { dmask: 0x7, ..mip(by2(ll3, 0, 0), 9) }, illegal(none(0)));
}

/// Unbound T#s, addresses modulo 2^48, fields with no effect.
fn unbound_and_wrap_rows(rows: &mut Vec<Row>) {
    let mut row = adder(rows);
    // ---- Unbound T#s: never illegal, the group is invalid, the level and address still computed.
    let u0 = Tsh { dfmt: 0, ..IMG };
    // dfmt 0: bpp 0, so the address is the base: 0x1000.
    row("unbound dfmt 0: bpp 0", by2(u0, 5, 3), img0(4, false, 0x1000));
    row(
        "unbound dfmt 0 with wrong DMASK, D16, TFE, DA",
        In { dmask: 0x6, d16: true, tfe: true, da: true, ..by2(u0, 5, 3) },
        img0(4, false, 0x1000),
    );
    // bpp 0: no mip offset and no texel offset, the address is the base.
    row("unbound dfmt 0 mip L1", mip(by2(u0, 0, 0), 1), lv(1, 6, 3, 8, 0, false, 0x1000));
    row("unbound dfmt 0 beyond last_level", mip(by2(u0, 0, 0), 16), none(0));
    // type < 8 with R8: bpp 1: 0x1000 + 3·16 + 4 = 0x1034.
    for ty in 0..8 {
        row(&format!("unbound type {ty}"), by2(Tsh { ty, ..IMG }, 5, 3), img0(4, false, 0x1034));
    }
    // type 3 with everything else wrong (dfmt 13 = 12 bytes, nfmt 6, DMASK 0, D16, TFE, DA):
    // 0x1000 + (3·16 + 4)·12 = 0x1000 + 624 = 0x1270.
    row(
        "unbound type 3 with every other field wrong",
        In { dmask: 0, d16: true, tfe: true, da: true, ..lane(Tsh { ty: 3, dfmt: 13, nfmt: 6, ..IMG }, BY4, 0, 5, 3) },
        img0(4, false, 0x1270),
    );
    // The all-zero T#: dfmt 0, type 0; width = height = pitch = 1; last_level = max_mip = 0.
    row("all-zero T#", In { tsharp_lo: 0, tsharp_hi: 0, ..by2(IMG, 0, 0) }, lv(0, 1, 1, 1, 0, false, 0));

    // ---- Addresses modulo 2^48. WRAP: base byte 0xffff_ffff_ff00, 13×7, pitch 200, 2 bytes.
    row("wrap: x=0 y=0 at the base", by2(WRAP, 0, 0), lv(0, 13, 7, 200, 0, true, 0xffff_ffff_ff00));
    // (2·200 + 4)·2 = 808 = 0x328; 0xffff_ffff_ff00 + 0x328 = 2^48 + 0x228.
    row("wrap: y=2 x=5 past 2^48", by2(WRAP, 5, 2), lv(0, 13, 7, 200, 4, true, 0x228));
    // x = 127: 126·2 = 0xfc → 0xffff_ffff_fffc, the last dword below 2^48 (129 > 13: invalid).
    row("wrap: x=127 just below 2^48", by2(WRAP, 127, 0), lv(0, 13, 7, 200, 126, false, 0xffff_ffff_fffc));
    // x = 128: 256 = 0x100 → exactly 2^48 → 0.
    row("wrap: x=128 exactly 2^48", by2(WRAP, 128, 0), lv(0, 13, 7, 200, 128, false, 0));
    // L1: 6×3 pitch 100, offset 200·7·2 = 2800 = 0xaf0; 0xff00 + 0xaf0 = 0x1_09f0 → 0x9f0.
    row("wrap: mip offset past 2^48", mip(by2(WRAP, 0, 0), 1), lv(1, 6, 3, 100, 0, true, 0x9f0));
    // BIG: the largest width, height (15-bit outputs) and pitch (17 bits).
    // x 16382 y 16383: 16384 <= 16384; (16383·65536 + 16382)·2 = 0x3fff_3ffe·2 = 0x7ffe_7ffc.
    row("big: last group", by2(BIG, 16382, 16383), lv(0, 16384, 16384, 65536, 16382, true, 0x7ffe_7ffc));
    // (0xffffffff·0x10000 + 0xfffffffe)·2 = 0x1_0000_fffe_fffe·2 = 0x2_0001_fffd_fffc, beyond 2^48
    // before the truncation → 0x1_fffd_fffc.
    row(
        "big: x=y=0xffffffff, product beyond 2^48",
        by2(BIG, 0xffff_ffff, 0xffff_ffff),
        lv(0, 16384, 16384, 65536, 0xffff_fffe, false, 0x1_fffd_fffc),
    );
    // 128-bit: pitch = width = 16384: (16383·16384 + 16382)·2 = 0xfff_fffe·2 = 0x1fff_fffc.
    row("big r128: pitch = width", r128(by2(BIG, 16382, 16383)), lv(0, 16384, 16384, 16384, 16382, true, 0x1fff_fffc));

    // ---- Fields with no effect: min_lod, dst_sel, depth (2D: one layer), unnamed bits. (sw_mode
    // has one since the tiled layouts: §4.5; its rows are in `tiled_rows`.)
    // As the table row BY2 R8 unorm below: 0x1000 + 3·16 + 4 = 0x1034.
    row(
        "ignored T# fields",
        by2(Tsh { min_lod: 0xfff, dst_sel: [0, 1, 2, 3], depth: 8192, junk: true, ..IMG }, 5, 3),
        img0(4, true, 0x1034),
    );
}

/// SPEC §4.3's table: every legal combination and every rejected neighbour.
fn format_table_rows(rows: &mut Vec<Row>) {
    let mut row = adder(rows);
    // ---- Every combination of SPEC §4.3's table is legal, plain and _MIP.
    // Plain: IMG with the row's dfmt/nfmt, (x, y) = (5, 3): xa = 4 for n = 2 and 4 (5 & ~1,
    // 5 & ~3); 7 or 9 <= 13, 3 < 7 → valid; address 0x1000 + (3·16 + 4)·bpp = 0x1000 + 52·bpp
    // (R8 0x1034; R16, RG8 0x1068).
    // _MIP, mipid 1: L1 6×3 pitch 8, (x, y) = (1, 2): xa 0; 3 or 5 <= 6, 2 < 3 → valid; address
    // 0x1000 + 16·7·bpp + (2·8 + 0)·bpp = 0x1000 + 128·bpp (R8 0x1080; R16, RG8 0x1100).
    for (op, dmask, dfmt, nfmt) in table_combinations() {
        let t = Tsh { dfmt, nfmt, ..IMG };
        let b = bpp(dfmt);
        let name = format!("table op {op} dmask {dmask:#x} dfmt {dfmt} nfmt {nfmt}");
        row(&name, lane(t, op, dmask, 5, 3), img0(4, true, 0x1000 + 52 * b));
        row(&format!("{name} mip L1"), mip(lane(t, op, dmask, 1, 2), 1), lv(1, 6, 3, 8, 0, true, 0x1000 + 128 * b));
    }

    // ---- Every rejected neighbour of each table row (nfmt unorm, listed by every row): one
    // field changed to a value no row allows → illegal, group invalid; the level, dims, xa and
    // address as for the legal lane: IMG (5, 3), xa 4, 0x1000 + 52·bpp of the lane's dfmt.
    for &(op, dmask, dfmt, _) in &TABLE {
        let t = Tsh { dfmt, nfmt: UNORM, ..IMG };
        let base = format!("op {op} dmask {dmask:#x} dfmt {dfmt}");
        let bad = |b: u64| illegal(img0(4, false, 0x1000 + 52 * b));
        // Another DMASK: each (op, dfmt) has exactly one DMASK in the table.
        for d in (0..16).filter(|&d| d != dmask) {
            row(&format!("reject {base}: dmask {d:#x}"), lane(t, op, d, 5, 3), bad(bpp(dfmt)));
        }
        // An nfmt this (op, dmask, dfmt) does not list (0..15, reserved codes included).
        for n in (0..16).filter(|&n| !in_table(op, dmask, dfmt, n)) {
            row(&format!("reject {base}: nfmt {n}"), lane(Tsh { nfmt: n, ..t }, op, dmask, 5, 3), bad(bpp(dfmt)));
        }
        // Another format: every bound dfmt 1..14 that (op, dmask, unorm) does not allow, and the
        // unmodelled 15, 16, 63 (bpp 0).
        for f in (1..=16).chain([63]).filter(|&f| !in_table(op, dmask, f, UNORM)) {
            row(&format!("reject {base}: dfmt {f}"), lane(Tsh { dfmt: f, ..t }, op, dmask, 5, 3), bad(bpp(f)));
        }
        // Another bound type (1D, 3D, cube, arrays, MSAA): the dims follow the type (decisions:
        // height 1 for 1D and 1D array — it was height_field + 1 before op 4 widened the unit —
        // layers 6·(depth field + 1) = 6 for a cube, depth 1 for 3D and the arrays, else 1). Ops
        // 0–3 address slice 0, so the address is the 2D one, y·pitch + xa: 0x1000 + 52·bpp.
        for ty in (8..16).filter(|&ty| ty != TYPE_2D) {
            let one_d = ty == TYPE_1D || ty == TYPE_1D_ARRAY;
            let o = bad(bpp(dfmt));
            let o = Out { height: if one_d { 1 } else { o.height }, layers: if ty == TYPE_CUBE { 6 } else { 1 }, ..o };
            row(&format!("reject {base}: type {ty}"), lane(Tsh { ty, ..t }, op, dmask, 5, 3), o);
        }
        let legal = lane(t, op, dmask, 5, 3);
        row(&format!("reject {base}: d16"), In { d16: true, ..legal }, bad(bpp(dfmt)));
        row(&format!("reject {base}: tfe"), In { tfe: true, ..legal }, bad(bpp(dfmt)));
        row(&format!("reject {base}: da"), In { da: true, ..legal }, bad(bpp(dfmt)));
    }
}

/// One element (op 4) on linear surfaces (§4.2, §4.4): every element size, every type's layers,
/// slices, the level's edges, 1D heights, mips with layers.
fn element_rows(rows: &mut Vec<Row>) {
    let mut row = adder(rows);
    // ---- Linear, every element size: fam(·, 0) at (17, 18): address = 0x10000 + (18·600 + 17)·bpp
    // = 0x10000 + 10817·bpp, 10817 = 0x2a41.
    row("linear 1 byte (17, 18)", elem(fam(D1, LINEAR), 17, 18, 0), fam0(17, true, 0x1_2a41));
    // 2 bytes: 0x2a41·2 = 0x5482.
    row("linear 2 bytes (17, 18)", elem(fam(D2, LINEAR), 17, 18, 0), fam0(17, true, 0x1_5482));
    // 4 bytes: 0x2a41·4 = 0xa904.
    row("linear 4 bytes (17, 18)", elem(fam(D4, LINEAR), 17, 18, 0), fam0(17, true, 0x1_a904));
    // 8 bytes: 0x2a41·8 = 0x1_5208.
    row("linear 8 bytes (17, 18)", elem(fam(D8, LINEAR), 17, 18, 0), fam0(17, true, 0x2_5208));
    // 12 bytes: 10817·12 = 129804 = 0x1_fb0c.
    row("linear 12 bytes (17, 18)", elem(fam(D12, LINEAR), 17, 18, 0), fam0(17, true, 0x2_fb0c));
    // 16 bytes: 0x2a41·16 = 0x2_a410.
    row("linear 16 bytes (17, 18)", elem(fam(D16, LINEAR), 17, 18, 0), fam0(17, true, 0x3_a410));
    // op 4 does not align x (n = 1): x = 17 stays 17 (above); xa = x for every x.
    // The level's edges, 4 bytes: x = 599 (last), y = 519 (last): (519·600 + 599)·4 = 311999·4
    // = 1247996 = 0x13_0afc.
    row("linear last texel (599, 519)", elem(fam(D4, LINEAR), 599, 519, 0), fam0(599, true, 0x14_0afc));
    // x = 600 = width (first out): (519·600 + 600)·4 = 312000·4 = 1248000 = 0x13_0b00.
    row("linear x = width", elem(fam(D4, LINEAR), 600, 519, 0), fam0(600, false, 0x14_0b00));
    // y = 520 = height: (520·600)·4 = 1248000 = 0x13_0b00.
    row("linear y = height", elem(fam(D4, LINEAR), 0, 520, 0), fam0(0, false, 0x14_0b00));
    // 2D: one layer, slice 1 is out (its address: (1·520 + 0)·600·4 = 0x13_0b00 as above).
    row("linear 2D slice 1 = layers", elem(fam(D4, LINEAR), 0, 0, 1), fam0(0, false, 0x14_0b00));
    // DMASK, D16, TFE, DA do not matter to op 4 (the executor checks them): as "linear 4 bytes".
    row(
        "op 4 ignores dmask, d16, tfe, da",
        In { dmask: 0x9, d16: true, tfe: true, da: true, ..elem(fam(D4, LINEAR), 17, 18, 0) },
        fam0(17, true, 0x1_a904),
    );

    // ---- 2D array, 3 layers (depth field 2), linear 4 bytes: slice 2 at (17, 18):
    // ((2·520 + 18)·600 + 17)·4 = 634817·4 = 2539268 = 0x26_bf04.
    let arr = Tsh { ty: TYPE_2D_ARRAY, depth: 3, ..fam(D4, LINEAR) };
    row("2D array slice 2 = layers-1", elem(arr, 17, 18, 2), el(0, 600, 520, 3, 600, 17, true, 0x27_bf04));
    // slice 3 = layers: out; ((3·520 + 18)·600 + 17)·4 = 946817·4 = 3787268 = 0x39_ca04.
    row("2D array slice 3 = layers", elem(arr, 17, 18, 3), el(0, 600, 520, 3, 600, 17, false, 0x3a_ca04));
    // A 128-bit T# reads depth field 0: one layer (the executor refuses arrays with r128; the unit
    // computes): slice 0 as 2D.
    row("2D array r128: one layer", r128(elem(arr, 17, 18, 0)), el(0, 600, 520, 1, 600, 17, true, 0x1_a904));

    // ---- Cube, 8 × 8, pitch 8, 4 bytes, base 0x10000: layers 6·(depth field + 1).
    let cube = Tsh { ty: TYPE_CUBE, width: 8, height: 8, pitch: 8, depth: 1, ..fam(D4, LINEAR) };
    // face 5 at (1, 2): ((5·8 + 2)·8 + 1)·4 = 337·4 = 1348 = 0x544.
    row("cube face 5 = layers-1", elem(cube, 1, 2, 5), el(0, 8, 8, 6, 8, 1, true, 0x1_0544));
    // face 6 = layers: ((6·8 + 2)·8 + 1)·4 = 401·4 = 1604 = 0x644.
    row("cube face 6 = layers", elem(cube, 1, 2, 6), el(0, 8, 8, 6, 8, 1, false, 0x1_0644));
    // Two cubes (depth field 1): 12 layers at every level. Level 1: 4 × 4, pitch 4; mip_offset(1)
    // = 8·8·12·4 = 3072 = 0xc00. face_id 11 at (3, 3): ((11·4 + 3)·4 + 3)·4 = 191·4 = 764 = 0x2fc.
    let cubes = Tsh { depth: 2, ..cube };
    row("cube array L1 face 11", mip(elem(cubes, 3, 3, 11), 1), el(1, 4, 4, 12, 4, 3, true, 0x1_0efc));

    // ---- 3D, 16 × 8 × 5, pitch 16, 4 bytes, base 0x10000: layers_L = max(1, 5 >> L).
    let vol = Tsh { ty: TYPE_3D, width: 16, height: 8, pitch: 16, depth: 5, ..fam(D4, LINEAR) };
    // L0 z 4 at (3, 2): ((4·8 + 2)·16 + 3)·4 = 547·4 = 2188 = 0x88c.
    row("3D L0 z=4 = layers-1", elem(vol, 3, 2, 4), el(0, 16, 8, 5, 16, 3, true, 0x1_088c));
    // L1: 8 × 4 × 2, pitch 8; mip_offset(1) = 16·8·5·4 = 2560 = 0xa00. z 1 at (7, 3):
    // ((1·4 + 3)·8 + 7)·4 = 63·4 = 252 = 0xfc.
    row("3D L1 z=1 = layers-1", mip(elem(vol, 7, 3, 1), 1), el(1, 8, 4, 2, 8, 7, true, 0x1_0afc));
    // z 2 = layers_1: out; ((2·4 + 3)·8 + 7)·4 = 95·4 = 380 = 0x17c.
    row("3D L1 z=2 = layers", mip(elem(vol, 7, 3, 2), 1), el(1, 8, 4, 2, 8, 7, false, 0x1_0b7c));
    // L2: 4 × 2 × max(1, 5 >> 2 = 1); mip_offset(2) = 0xa00 + 8·4·2·4 = 2560 + 256 = 0xb00.
    row("3D L2 one layer", mip(elem(vol, 0, 0, 0), 2), el(2, 4, 2, 1, 4, 0, true, 0x1_0b00));
    // L3: 2 × 1 × max(1, 0) = 1; mip_offset(3) = 0xb00 + 4·2·1·4 = 0xb20; x 1: + 4 = 0xb24.
    row("3D L3 depth clamped to 1", mip(elem(vol, 1, 0, 0), 3), el(3, 2, 1, 1, 2, 1, true, 0x1_0b24));

    // ---- 1D: height 1 whatever the height field (here 8). Width 50, pitch 50, 4 bytes.
    let line = Tsh { ty: TYPE_1D, width: 50, height: 8, pitch: 50, ..fam(D4, LINEAR) };
    // x 49 (last): 49·4 = 196 = 0xc4.
    row("1D height 1, last texel", elem(line, 49, 0, 0), el(0, 50, 1, 1, 50, 49, true, 0x1_00c4));
    // y 1 = height 1: out; (1·50 + 49)·4 = 396 = 0x18c.
    row("1D y=1 = height", elem(line, 49, 1, 0), el(0, 50, 1, 1, 50, 49, false, 0x1_018c));
    // Level 1 of 1D: width 25, height still 1, pitch 25; mip_offset(1) = 50·1·1·4 = 200 = 0xc8;
    // x 24: 96 = 0x60 → 0x10000 + 0xc8 + 0x60 = 0x1_0128.
    row("1D L1 height 1", mip(elem(line, 24, 0, 0), 1), el(1, 25, 1, 1, 25, 24, true, 0x1_0128));
    // 1D array, 4 layers: slice 3 at x 10: ((3·1 + 0)·50 + 10)·4 = 640 = 0x280.
    let lines = Tsh { ty: TYPE_1D_ARRAY, depth: 4, ..line };
    row("1D array slice 3", elem(lines, 10, 0, 3), el(0, 50, 1, 4, 50, 10, true, 0x1_0280));
    // MSAA types are the executor's to refuse; the unit computes: 2D MSAA one layer, MSAA array d.
    row("2D MSAA: one layer", elem(Tsh { ty: 14, ..fam(D4, LINEAR) }, 17, 18, 0), fam0(17, true, 0x1_a904));
    row(
        "2D MSAA array: depth layers",
        elem(Tsh { ty: 15, depth: 3, ..fam(D4, LINEAR) }, 17, 18, 2),
        el(0, 600, 520, 3, 600, 17, true, 0x27_bf04),
    );

    // ---- Reserved ops 5–7: illegal on a bound T#, xa = x, address with s = slice (decisions).
    for op in 5..8 {
        row(
            &format!("reserved op {op}"),
            In { op, ..elem(fam(D4, LINEAR), 17, 18, 0) },
            illegal(fam0(17, false, 0x1_a904)),
        );
    }
    // Unbound (type 7): never illegal, not even with a reserved op; bpp 4, linear, layers 1.
    row(
        "reserved op on an unbound T#",
        In { op: 6, ..elem(Tsh { ty: 7, ..fam(D4, LINEAR) }, 17, 18, 0) },
        fam0(17, false, 0x1_a904),
    );
}

/// Tiled surfaces (§4.5). Blocks (bw × bh texels, 2^K bytes): 256B_S 16×16, 16×8, 8×8, 8×4, 4×4
/// (1, 2, 4, 8, 16 bytes); 4KB_S 64×64, 64×32, 32×32, 32×16, 16×16; 64KB_S 256×256, 256×128,
/// 128×128, 128×64, 64×64. Images fam(·, mode): 600 × 520, pitch 600, base 0x10000.
fn tiled_rows(rows: &mut Vec<Row>) {
    let mut row = adder(rows);
    // ---- A 4-byte 4KB_S texel at (37, 21), level 0, worked bit by bit (e = 2, K = 12):
    //   bits 2..7 = x0 x1 y0 y1 y2 x2; bits 8..11 = y3 x3 y4 x4 (even: y, odd: x); bw = bh = 32.
    //   x = 37: block column 1, x mod 32 = 5 = 0b00101: x0 1, x1 0, x2 1, x3 0, x4 0.
    //   y = 21: block row 0, y mod 32 = 21 = 0b10101: y0 1, y1 0, y2 1, y3 0, y4 1.
    //   within = bit 2 (x0) 4 + bit 4 (y0) 16 + bit 6 (y2) 64 + bit 7 (x2) 128 + bit 10 (y4) 1024
    //          = 1236 = 0x4d4.
    //   P_0 = ⌈600 / 32⌉ = 19; block index (0·R + 0)·19 + 1 = 1 → 1·4096 = 0x1000.
    //   address = 0x10000 + 0x1000 + 0x4d4 = 0x1_14d4.
    row("4KB_S 4 bytes (37, 21)", elem(fam(D4, S4KB), 37, 21, 0), fam0(37, true, 0x1_14d4));
    // ---- 64KB_S 4 bytes at (100, 77) (e = 2, K = 16; bits 8..15 = y3 x3 y4 x4 y5 x5 y6 x6):
    //   x = 100 = 0b1100100: x2, x5, x6; y = 77 = 0b1001101: y0, y2, y3, y6.
    //   within = x2@7 128 + x5@13 8192 + x6@15 32768 + y0@4 16 + y2@6 64 + y3@8 256 + y6@14 16384
    //          = 57808 = 0xe1d0; block 0 (x < 128, y < 128). address 0x10000 + 0xe1d0.
    row("64KB_S 4 bytes (100, 77)", elem(fam(D4, S64KB), 100, 77, 0), fam0(100, true, 0x1_e1d0));

    // ---- Every (mode × element size) at (bw + 1, bh + 2): block (1, 1), index P + 1, within(1, 2)
    // = x0's bit + y1's bit: 1 byte x0@0 y1@5 → 0x21; 2 bytes x0@1 y1@5 → 0x22; 4 bytes x0@2 y1@5
    // → 0x24; 8 bytes x0@3 y1@5 → 0x28; 16 bytes y1@5 x0@6 → 0x60. (All inside 600 × 520.)
    // 256B_S (K = 8): P = ⌈600/16⌉ = 38, ⌈600/8⌉ = 75, ⌈600/4⌉ = 150.
    //   1 byte 16×16 (17, 18): 39·256 = 0x2700 → 0x1_2721.
    row("256B_S 1 byte", elem(fam(D1, S256B), 17, 18, 0), fam0(17, true, 0x1_2721));
    //   2 bytes 16×8 (17, 10): 39·256 = 0x2700 → 0x1_2722.
    row("256B_S 2 bytes", elem(fam(D2, S256B), 17, 10, 0), fam0(17, true, 0x1_2722));
    //   4 bytes 8×8 (9, 10): 76·256 = 0x4c00 → 0x1_4c24.
    row("256B_S 4 bytes", elem(fam(D4, S256B), 9, 10, 0), fam0(9, true, 0x1_4c24));
    //   8 bytes 8×4 (9, 6): 76·256 = 0x4c00 → 0x1_4c28.
    row("256B_S 8 bytes", elem(fam(D8, S256B), 9, 6, 0), fam0(9, true, 0x1_4c28));
    //   16 bytes 4×4 (5, 6): 151·256 = 0x9700 → 0x1_9760.
    row("256B_S 16 bytes", elem(fam(D16, S256B), 5, 6, 0), fam0(5, true, 0x1_9760));
    // 4KB_S (K = 12): P = ⌈600/64⌉ = 10, ⌈600/32⌉ = 19, ⌈600/16⌉ = 38.
    //   1 byte 64×64 (65, 66): 11·4096 = 0xb000 → 0x1_b021.
    row("4KB_S 1 byte", elem(fam(D1, S4KB), 65, 66, 0), fam0(65, true, 0x1_b021));
    //   2 bytes 64×32 (65, 34): 0xb000 → 0x1_b022.
    row("4KB_S 2 bytes", elem(fam(D2, S4KB), 65, 34, 0), fam0(65, true, 0x1_b022));
    //   4 bytes 32×32 (33, 34): 20·4096 = 0x1_4000 → 0x2_4024.
    row("4KB_S 4 bytes", elem(fam(D4, S4KB), 33, 34, 0), fam0(33, true, 0x2_4024));
    //   8 bytes 32×16 (33, 18): 0x1_4000 → 0x2_4028.
    row("4KB_S 8 bytes", elem(fam(D8, S4KB), 33, 18, 0), fam0(33, true, 0x2_4028));
    //   16 bytes 16×16 (17, 18): 39·4096 = 0x2_7000 → 0x3_7060.
    row("4KB_S 16 bytes", elem(fam(D16, S4KB), 17, 18, 0), fam0(17, true, 0x3_7060));
    // 64KB_S (K = 16): P = ⌈600/256⌉ = 3, ⌈600/128⌉ = 5, ⌈600/64⌉ = 10.
    //   1 byte 256×256 (257, 258): 4·65536 = 0x4_0000 → 0x5_0021.
    row("64KB_S 1 byte", elem(fam(D1, S64KB), 257, 258, 0), fam0(257, true, 0x5_0021));
    //   2 bytes 256×128 (257, 130): 0x4_0000 → 0x5_0022.
    row("64KB_S 2 bytes", elem(fam(D2, S64KB), 257, 130, 0), fam0(257, true, 0x5_0022));
    //   4 bytes 128×128 (129, 130): 6·65536 = 0x6_0000 → 0x7_0024.
    row("64KB_S 4 bytes", elem(fam(D4, S64KB), 129, 130, 0), fam0(129, true, 0x7_0024));
    //   8 bytes 128×64 (129, 66): 0x6_0000 → 0x7_0028.
    row("64KB_S 8 bytes", elem(fam(D8, S64KB), 129, 66, 0), fam0(129, true, 0x7_0028));
    //   16 bytes 64×64 (65, 66): 11·65536 = 0xb_0000 → 0xc_0060.
    row("64KB_S 16 bytes", elem(fam(D16, S64KB), 65, 66, 0), fam0(65, true, 0xc_0060));

    // ---- Block edges, 4KB_S 4 bytes (32 × 32; x bits at 2, 3, 7, 9, 11; y bits at 4, 5, 6, 8, 10).
    // x = 31 = bw − 1: every x bit: 4 + 8 + 128 + 512 + 2048 = 2700 = 0xa8c.
    row("4KB_S x = bw-1", elem(fam(D4, S4KB), 31, 0, 0), fam0(31, true, 0x1_0a8c));
    // x = 32 = bw: the next block, within 0: 1·4096.
    row("4KB_S x = bw", elem(fam(D4, S4KB), 32, 0, 0), fam0(32, true, 0x1_1000));
    // y = 31 = bh − 1: 16 + 32 + 64 + 256 + 1024 = 1392 = 0x570.
    row("4KB_S y = bh-1", elem(fam(D4, S4KB), 0, 31, 0), fam0(0, true, 0x1_0570));
    // y = 32 = bh: block row 1, index 19 → 19·4096 = 0x1_3000.
    row("4KB_S y = bh", elem(fam(D4, S4KB), 0, 32, 0), fam0(0, true, 0x2_3000));
    // Level edge: x = 599: block column 18 (576), x mod 32 = 23 = 0b10111: x0, x1, x2, x4 → 4 + 8
    // + 128 + 2048 = 2188 = 0x88c; 18·4096 = 0x1_2000 → 0x10000 + 0x1_2000 + 0x88c.
    row("4KB_S x = width-1", elem(fam(D4, S4KB), 599, 0, 0), fam0(599, true, 0x2_288c));
    // x = 600 = width (in the padding of block 18): 600 mod 32 = 24 = 0b11000: x3, x4 → 512 + 2048
    // = 0xa00; out.
    row("4KB_S x = width", elem(fam(D4, S4KB), 600, 0, 0), fam0(600, false, 0x2_2a00));

    // ---- Tiled mip levels, 4KB_S 4 bytes (32 × 32 blocks):
    //   L0 600×520: P 19, R ⌈520/32⌉ = 17: S_0 = 19·17·4096 = 323·4096 = 0x14_3000.
    //   L1 300×260 pitch 300: P ⌈300/32⌉ = 10, R ⌈260/32⌉ = 9: S_1 = 90·4096 = 0x5_a000.
    //   L2 150×130 pitch 150.
    // L1 at (33, 34): block index 1·10 + 1 = 11 → 0xb000; within(1, 2) 0x24;
    // 0x10000 + 0x14_3000 + 0xb000 + 0x24.
    row("4KB_S L1 mip_offset", mip(elem(fam(D4, S4KB), 33, 34, 0), 1), el(1, 300, 260, 1, 300, 33, true, 0x15_e024));
    // L2 at (0, 0): 0x10000 + 0x14_3000 + 0x5_a000 = 0x1a_d000.
    row("4KB_S L2 mip_offset", mip(elem(fam(D4, S4KB), 0, 0, 0), 2), el(2, 150, 130, 1, 150, 0, true, 0x1a_d000));
    // No mip tail: a small 64KB_S 4-byte image, 40 × 24 pitch 40, takes one 64 KiB block a level
    // (P = R = 1 while the level is below 128 × 128). L2 is 10 × 6: mip_offset 2·65536 = 0x2_0000;
    // (3, 5): x0@2 4 + x1@3 8 + y0@4 16 + y2@6 64 = 92 = 0x5c.
    let small = Tsh { width: 40, height: 24, pitch: 40, ..fam(D4, S64KB) };
    row("64KB_S small L2: whole blocks", mip(elem(small, 3, 5, 0), 2), el(2, 10, 6, 1, 10, 3, true, 0x3_005c));
    // A 128-bit T#: pitch = width (here equal) and no max_mip; the same address.
    row("64KB_S small L2 r128", r128(mip(elem(small, 3, 5, 0), 2)), el(2, 10, 6, 1, 10, 3, true, 0x3_005c));

    // ---- 2D array, 3 layers, 4KB_S 4 bytes: slice s adds s·R_0 = s·17 block rows.
    // slice 2 at (33, 34): block row 2·17 + 1 = 35, index 35·19 + 1 = 666 = 0x29a → 0x29_a000;
    // + 0x24 + 0x10000.
    let tarr = Tsh { ty: TYPE_2D_ARRAY, depth: 3, ..fam(D4, S4KB) };
    row("4KB_S 2D array slice 2", elem(tarr, 33, 34, 2), el(0, 600, 520, 3, 600, 33, true, 0x2a_a024));
    // slice 3 = layers: out; block row 3·17 + 1 = 52, index 52·19 + 1 = 989 = 0x3dd → 0x3d_d000.
    row("4KB_S 2D array slice 3 = layers", elem(tarr, 33, 34, 3), el(0, 600, 520, 3, 600, 33, false, 0x3e_d024));

    // ---- Multi-texel groups on tiled surfaces: BY4 on R8 64KB_S (1 byte, 256 × 256) at (6, 3):
    // xa 4; within(4, 3) = x2@2 4 + y0@4 16 + y1@5 32 = 52 = 0x34 (texels 4..7 at + 0..3: x0, x1
    // are bits 0, 1). Group valid (10 <= 600).
    let r8 = Tsh { nfmt: UNORM, ..fam(D1, S64KB) };
    row("64KB_S BY4 R8", by4(r8, 6, 3), lv(0, 600, 520, 600, 4, true, 0x1_0034));
    // BY2 R16 on 256B_S (2 bytes, 16 × 8) at (19, 9): xa 18 = block column 1 (16..31), x mod 16 = 2
    // (x1@2: 4); y 9: block row 1, y mod 8 = 1 (y0@4: 16). index 1·38 + 1 = 39 → 0x2700; 0x14.
    let r16 = Tsh { dfmt: R16, nfmt: UNORM, ..fam(D2, S256B) };
    row("256B_S BY2 R16", by2(r16, 19, 9), lv(0, 600, 520, 600, 18, true, 0x1_2714));
    // A slice is ignored by ops 0–3 (slice 0).
    row("256B_S BY2 R16 ignores slice", In { slice: 7, ..by2(r16, 19, 9) }, lv(0, 600, 520, 600, 18, true, 0x1_2714));

    // ---- Illegal layouts: the linear address is computed (decisions). fam(D4, ·) at (37, 21):
    // linear (21·600 + 37)·4 = 12637·4 = 50548 = 0xc574.
    // sw_mode 3 (not modelled).
    row("sw_mode 3 not modelled", elem(fam(D4, 3), 37, 21, 0), illegal(fam0(37, false, 0x1_c574)));
    // Every other unmodelled mode: 2, 4, 6..8, 10..31 — as above.
    for mode in (2..32).filter(|m| ![3, 5, 9].contains(m)) {
        row(
            &format!("sw_mode {mode} not modelled"),
            elem(fam(D4, mode), 37, 21, 0),
            illegal(fam0(37, false, 0x1_c574)),
        );
    }
    // A tiled 12-byte element: as "linear 12 bytes".
    row("4KB_S 12 bytes illegal", elem(fam(D12, S4KB), 17, 18, 0), illegal(fam0(17, false, 0x2_fb0c)));
    // Tiled 3D: as "3D L0 z=4 = layers-1", linear.
    let tvol = Tsh { ty: TYPE_3D, width: 16, height: 8, pitch: 16, depth: 5, ..fam(D4, S64KB) };
    row("64KB_S 3D illegal", elem(tvol, 3, 2, 4), illegal(el(0, 16, 8, 5, 16, 3, false, 0x1_088c)));
    // Tiled 1D and cube: linear too. 1D 50 wide at x 49: 0xc4.
    let tline = Tsh { ty: TYPE_1D, width: 50, height: 8, pitch: 50, ..fam(D4, S256B) };
    row("256B_S 1D illegal", elem(tline, 49, 0, 0), illegal(el(0, 50, 1, 1, 50, 49, false, 0x1_00c4)));
    // Tiled with an unmodelled dfmt (15, bpp 0): illegal, linear with bpp 0: the base.
    row("4KB_S dfmt 15 illegal", elem(fam(15, S4KB), 37, 21, 0), illegal(fam0(37, false, 0x1_0000)));
    // A multi-texel row on an unmodelled mode: illegal although the table allows it; linear
    // address (y·pitch + xa) = 3·600 + 4 = 1804 = 0x70c.
    row(
        "BY4 R8 on sw_mode 2 illegal",
        by4(Tsh { sw_mode: 2, ..r8 }, 6, 3),
        illegal(lv(0, 600, 520, 600, 4, false, 0x1_070c)),
    );
    // Unbound (dfmt 0) with a tiled mode: not illegal; bpp 0: linear, the base.
    row("unbound dfmt 0 on 4KB_S", elem(fam(0, S4KB), 37, 21, 0), fam0(37, false, 0x1_0000));
    // Unbound (type 3) with an unmodelled mode: not illegal; bpp 4 linear.
    row("unbound type 3 on sw_mode 3", elem(Tsh { ty: 3, ..fam(D4, 3) }, 37, 21, 0), fam0(37, false, 0x1_c574));
}

/// The table as the helpers of tests/common take it.
fn table(rows: &[Row]) -> Vec<common::Row<'_, Harness>> {
    rows.iter().map(|r| (r.name.as_str(), r.input, r.expect)).collect()
}

#[test]
fn directed_table_is_well_formed() {
    let rows = rows();
    common::assert_rows_well_formed::<Harness>(&table(&rows));
    // 29 legal combinations, plain and _MIP.
    assert_eq!(table_combinations().len(), 29);
    assert_eq!(rows.iter().filter(|r| r.name.starts_with("table ")).count(), 58);
    // Every expectation obeys the port contract: no level → level, dims, address 0; illegal →
    // group invalid; a valid group has a level.
    for r in &rows {
        let e = &r.expect;
        if !e.level_ok {
            assert_eq!((e.level, e.width, e.height, e.pitch, e.address), (0, 0, 0, 0, 0), "{}", r.name);
        }
        assert!(!(e.illegal && e.group_valid), "{}", r.name);
        assert!(!e.group_valid || e.level_ok, "{}", r.name);
    }
}

// The rows through model and RTL in lockstep and against the independent reference (used on the
// exhaustive and random inputs below); the trace of the table as a reviewed snapshot.
common::unit_tests! {
    directed_rows_match_spec: table(&rows()),
    reference_matches_directed_rows: (table(&rows()), reference),
    directed_table_trace: table(&rows()),
}

// ---------------------------------------------------------------------------------------------
// Pipeline: data outputs hold the last valid result through bubbles; reset values are 0.
// ---------------------------------------------------------------------------------------------

/// An invalid cycle whose other inputs would change every output if they were taken.
fn junk(k: u32) -> In {
    In {
        valid: false,
        tsharp_lo: !0u128 ^ u128::from(k),
        tsharp_hi: !0u128,
        r128: true,
        op: 3,
        mip: true,
        dmask: 0x7,
        d16: true,
        tfe: true,
        da: true,
        x: 0x1234_5678 ^ k,
        y: 0x9abc_def0,
        slice: 0x55,
        mipid: 1,
    }
}

common::unit_tests! {
    pipeline_bubbles_hold_last_result: (junk, table(&rows()), "mips256 L2", "reject op 1 dmask 0xf dfmt 1: d16"),
}

// ---------------------------------------------------------------------------------------------
// Independent reference: docs/decisions.md "image_addr", from SPEC §1.2 and §4.2–§4.4.
// ---------------------------------------------------------------------------------------------

/// SPEC §4.5's micro-block table: address bits e .. 7, low to high, by e = log2(element bytes).
const MICRO_BLOCK: [&str; 5] = [
    "x0 x1 x2 x3 y0 y1 y2 y3", // 1 byte
    "x0 x1 x2 y0 y1 y2 x3",    // 2 bytes
    "x0 x1 y0 y1 y2 x2",       // 4 bytes
    "x0 y0 y1 x1 x2",          // 8 bytes
    "y0 y1 x0 x1",             // 16 bytes
];

/// SPEC §4.5, address bit by address bit: for i in e .. K, the coordinate bit it holds, `('x',
/// j)` or `('y', j)`: the micro-block's table below bit 8, then the next unused bit of y when i
/// is even, of x when i is odd.
fn swizzle_pattern(k: u32, e: u32) -> Vec<(char, u32)> {
    let mut bits: Vec<(char, u32)> =
        MICRO_BLOCK[e as usize].split(' ').map(|t| (t.chars().next().unwrap(), t[1..].parse().unwrap())).collect();
    for i in 8..k {
        let axis = if i % 2 == 0 { 'y' } else { 'x' };
        let next = bits.iter().filter(|b| b.0 == axis).count() as u32;
        bits.push((axis, next));
    }
    assert_eq!(bits.len() as u32, k - e);
    bits
}

/// The unit's outputs for one lane, from the decisions' port contract ("image_addr"), written
/// from SPEC §1.2 and §4.2–§4.5: exact arithmetic in u128, then modulo 2^48.
fn reference(i: &In) -> Out {
    let lo = i.tsharp_lo;
    // §1.2: a 128-bit T# has no high half (depth 0, pitch = width, no max_mip check).
    let hi = if i.r128 { 0 } else { i.tsharp_hi };
    let field = |v: u128, at: u32, width: u32| ((v >> at) & ((1u128 << width) - 1)) as u64;
    let base = field(lo, 0, 40);
    let dfmt = field(lo, 52, 6) as u8;
    let nfmt = field(lo, 58, 4) as u8;
    let width_field = field(lo, 64, 14);
    let height_field = field(lo, 78, 14);
    let base_level = field(lo, 108, 4);
    let last_level = field(lo, 112, 4);
    let sw_mode = field(lo, 116, 5);
    let ty = field(lo, 124, 4) as u8;
    let depth_field = field(hi, 0, 13); // bits 140:128
    let pitch_field = field(hi, 13, 16); // bits 156:141
    let max_mip = field(hi, 60, 4); // bits 191:188

    let op = i.op & 7;
    let dmask = i.dmask & 0xf;
    let b = bpp(dfmt);
    let bound = dfmt != 0 && ty >= 8;
    // §4.5: the layout. K by mode; a tiled mode needs 2D or 2D array and 1, 2, 4, 8 or 16 bytes.
    let k = match sw_mode {
        1 => Some(8),
        5 => Some(12),
        9 => Some(16),
        _ => None,
    };
    let mode_ok =
        sw_mode == 0 || (k.is_some() && (ty == TYPE_2D || ty == TYPE_2D_ARRAY) && [1, 2, 4, 8, 16].contains(&b));
    let tiled = k.is_some() && mode_ok;
    // §4.3's table for ops 0–3; ops 5–7 reserved.
    let table_ok = op >= 4 || (ty == TYPE_2D && !i.d16 && !i.tfe && !i.da && in_table(op, dmask, dfmt, nfmt));
    let illegal = bound && (op >= 5 || !mode_ok || !table_ok);

    // §4.2: L exact; the level exists when L <= last_level and (256-bit) L <= max_mip.
    let l = base_level + if i.mip { u64::from(i.mipid) } else { 0 };
    let level_ok = l <= last_level && (i.r128 || l <= max_mip);
    let dims = |level: u64| {
        let w = ((width_field + 1) >> level).max(1);
        let h = if ty == TYPE_1D || ty == TYPE_1D_ARRAY { 1 } else { ((height_field + 1) >> level).max(1) };
        let d = depth_field + 1;
        let layers = match ty {
            TYPE_3D => (d >> level).max(1),
            TYPE_1D_ARRAY | TYPE_2D_ARRAY | 15 => d,
            TYPE_CUBE => 6 * d,
            _ => 1,
        };
        let p = if i.r128 { w } else { ((pitch_field + 1) >> level).max(1) };
        (w, h, layers, p)
    };
    let (width, height, layers, pitch) = if level_ok { dims(l) } else { (0, 0, 0, 0) };

    // §4.3, §4.4: ops 0–3 a group aligned down to n, which must fit with the unaligned x; op 4 one
    // element inside the level (x, y, slice).
    let n: u32 = [2, 4, 2, 4, 1, 1, 1, 1][usize::from(op)];
    let xa = i.x & !(n - 1);
    let (x, y, slice) = (u64::from(i.x), u64::from(i.y), u64::from(i.slice));
    let inside =
        if op < 4 { x + u64::from(n) <= width && y < height } else { x < width && y < height && slice < layers };
    let group_valid = bound && !illegal && level_ok && inside;

    // §4.4 linear, §4.5 tiled: texel (xa, y, s) of level L, exact, then modulo 2^48.
    let s = if op < 4 { 0 } else { u128::from(i.slice) };
    let (xa128, y128) = (u128::from(xa), u128::from(i.y));
    let address = if !level_ok {
        0
    } else if tiled {
        let k = k.unwrap();
        let pattern = swizzle_pattern(k, b.trailing_zeros());
        let bw = 1u128 << pattern.iter().filter(|p| p.0 == 'x').count();
        let bh = 1u128 << pattern.iter().filter(|p| p.0 == 'y').count();
        let blocks = |m: u64| {
            let (_, h, layers, p) = dims(m);
            (u128::from(p).div_ceil(bw), u128::from(h).div_ceil(bh), u128::from(layers))
        };
        let mip_offset: u128 = (0..l)
            .map(|m| {
                let (p, r, layers) = blocks(m);
                (p * r * layers) << k
            })
            .sum();
        let (p, r, _) = blocks(l);
        let (xb, yb) = (xa128 % bw, y128 % bh);
        let mut within = 0u128;
        for (bit, &(axis, j)) in pattern.iter().enumerate() {
            let c = if axis == 'x' { xb } else { yb };
            within |= (c >> j & 1) << (b.trailing_zeros() + bit as u32);
        }
        let block = (s * r + y128 / bh) * p + xa128 / bw;
        (u128::from(base) * 256 + mip_offset + (block << k) + within) % (1u128 << 48)
    } else {
        let b = u128::from(b);
        let mip_offset: u128 = (0..l)
            .map(|m| {
                let (_, h, layers, p) = dims(m);
                u128::from(p) * u128::from(h) * u128::from(layers) * b
            })
            .sum();
        let texel = (s * u128::from(height) + y128) * u128::from(pitch) + xa128;
        (u128::from(base) * 256 + mip_offset + texel * b) % (1u128 << 48)
    };
    Out {
        valid: i.valid,
        level_ok,
        level: if level_ok { l as u8 } else { 0 },
        width: width as u16,
        height: height as u16,
        layers: layers as u16,
        pitch: pitch as u32,
        xa,
        group_valid,
        address: address as u64,
        illegal,
    }
}

/// Every (op, DMASK, dfmt 0..63, nfmt 0..15) on a 2D image (65,536 lanes, plain), then every
/// table combination under every type and D16/TFE/DA setting, plain and _MIP, 256- and 128-bit
/// (29 × 16 × 8 × 4 = 14,848 lanes): model and RTL (`sweep` checks they agree) against the
/// reference. Coordinates and levels vary with a hash of the index.
#[test]
fn legality_exhaustive_matches_reference() {
    let mut inputs = Vec::new();
    for op in 0..4 {
        for dmask in 0..16 {
            for dfmt in 0..64 {
                for nfmt in 0..16 {
                    let h = common::mix(inputs.len() as u64);
                    let t = Tsh { dfmt, nfmt, ..IMG };
                    inputs.push(lane(t, op, dmask, (h % 16) as u32, ((h >> 8) % 9) as u32));
                }
            }
        }
    }
    for (op, dmask, dfmt, nfmt) in table_combinations() {
        for ty in 0..16 {
            for modifiers in 0..8u8 {
                for (mipped, wide) in [(false, false), (false, true), (true, false), (true, true)] {
                    let h = common::mix(inputs.len() as u64);
                    let t = Tsh { dfmt, nfmt, ty, max_mip: (h >> 20) as u8 & 0xf, ..MIPS };
                    let mut i = lane(t, op, dmask, (h % 40) as u32, ((h >> 8) % 12) as u32);
                    i.d16 = modifiers & 1 != 0;
                    i.tfe = modifiers & 2 != 0;
                    i.da = modifiers & 4 != 0;
                    i.mip = mipped;
                    i.mipid = ((h >> 16) % 7) as u32;
                    i.r128 = !wide;
                    inputs.push(i);
                }
            }
        }
    }
    assert_eq!(inputs.len(), 65_536 + 29 * 16 * 8 * 4);
    common::assert_sweep_matches::<Harness>(&inputs, reference);
    let legal = inputs
        .iter()
        .filter(|i| {
            let want = reference(i);
            want.valid && !want.illegal && i.tsharp_lo >> 52 & 0x3f != 0 && i.tsharp_lo >> 124 >= 8
        })
        .count();
    // Bound and legal: the 29 combinations in the first part; type 9 without modifiers in the
    // second (29 × 4).
    assert_eq!(legal, 29 + 29 * 4);
}

common::unit_tests! {
    stimulus_matches_reference: (300, reference),
}

/// The layouts and ops (§4.5, decisions): every op 0..7 × sw_mode 0..31 × type 0..15 × dfmt of each
/// element size, 0 and an unmodelled one (8 × 32 × 16 × 8 = 32,768 lanes), R8/R16 unorm with the
/// row's DMASK for ops 0–3, 256- and 128-bit, _MIP or not, coordinates, slices and levels from a
/// hash of the index: model and RTL (`sweep` checks they agree) against the reference. Legal
/// lanes: the linear ones (every bound type for op 4, the 2D table rows for ops 0–3) and the
/// tiled ones on 2D and 2D array.
#[test]
fn layouts_exhaustive_match_reference() {
    let mut inputs = Vec::new();
    for op in 0..8u8 {
        for sw_mode in 0..32 {
            for ty in 0..16 {
                for dfmt in [D1, D2, D4, D8, D12, D16, 0, 40] {
                    let h = common::mix(inputs.len() as u64);
                    // Ops 0–3 take R8 (BY2, BY4, PCK2, PCK4) or R16 (BY2, PCK2) in unorm.
                    let dfmt = if op < 4 { [R8, R16][usize::from(dfmt == D2 && op % 2 == 0)] } else { dfmt };
                    let t = Tsh { dfmt, nfmt: UNORM, ty, sw_mode, depth: 3, max_mip: (h >> 20) as u8 & 0xf, ..MIPS };
                    let dmask = [0x3, 0xf, 0x1, 0x1, 0, 0, 0, 0][usize::from(op)];
                    let mut i = lane(t, op, dmask, (h % 42) as u32, ((h >> 8) % 13) as u32);
                    i.slice = ((h >> 28) % 20) as u32;
                    i.mip = h >> 36 & 1 != 0;
                    i.mipid = ((h >> 16) % 7) as u32;
                    i.r128 = h >> 40 & 1 != 0;
                    inputs.push(i);
                }
            }
        }
    }
    assert_eq!(inputs.len(), 8 * 32 * 16 * 8);
    common::assert_sweep_matches::<Harness>(&inputs, reference);
    // Illegal exactly when the executor would refuse it (In::rejection: the reserved op, then
    // check_sw_mode, then check_multi_texel); a bound lane only.
    for i in &inputs {
        let want = reference(i);
        assert_eq!(want.illegal, i.rejection().is_err(), "{i:?}: {:?}", i.rejection());
    }
}

/// The multi-texel group is contiguous on a tiled surface (decisions "image_addr": texel t of the
/// group at `address + t·bpp`): for every tiled mode, every table combination's format, x 0..40 at
/// y 0..20 on level 0 and 1 of a 37 × 23 image, texel t of the group (op 0–3) is the element
/// (op 4) at (xa + t, y), through model and RTL.
#[test]
fn multi_texel_group_is_contiguous_on_a_tiled_surface() {
    let mut groups = Vec::new();
    for sw_mode in [S256B, S4KB, S64KB] {
        for (op, dmask, dfmt, nfmt) in table_combinations() {
            for x in 0..40 {
                for y in 0..20 {
                    let t = Tsh { dfmt, nfmt, sw_mode, width: 37, height: 23, pitch: 37, ..IMG };
                    groups.push(mip(lane(t, op, dmask, x, y), (x + y) % 2));
                }
            }
        }
    }
    let group_out = common::sweep::<Harness>(&groups);
    let mut elements = Vec::new();
    for (g, o) in groups.iter().zip(&group_out) {
        for t in 0..group(g.op) {
            elements.push(In { op: ELEMENT, dmask: 0, x: o.xa + t, ..*g });
        }
    }
    let element_out = common::sweep::<Harness>(&elements);
    let mut k = 0;
    let mut valid = 0;
    for (g, o) in groups.iter().zip(&group_out) {
        assert!(!o.illegal, "{g:?}");
        let b = bpp((g.tsharp_lo >> 52) as u8 & 0x3f);
        for t in 0..group(g.op) {
            let e = &element_out[k];
            k += 1;
            assert_eq!(e.address, o.address + u64::from(t) * b, "texel {t} of {g:?}");
            if o.group_valid {
                assert!(e.group_valid, "texel {t} of a valid group outside the level: {g:?}");
            }
        }
        valid += usize::from(o.group_valid);
    }
    assert!(valid > groups.len() / 2, "{valid} valid groups of {}", groups.len());
}

/// check_sw_mode, the executor's gate of §4.5: accepts sw_mode 0 on any type and element and
/// 1, 5, 9 on 2D or 2D array with 1, 2, 4, 8, 16-byte elements; the error names the mode and the
/// type or the format.
#[test]
fn check_sw_mode_accepts_the_modelled_layouts() {
    use gcn_vmem_model::tsharp::TSharp;
    for sw_mode in 0..32u8 {
        for kind in 8..16u8 {
            for dfmt in 1..=14u8 {
                let t = TSharp::decode(Tsh { dfmt, ty: kind, sw_mode, ..IMG }.lo(), 0);
                let tiled = [1, 5, 9].contains(&sw_mode);
                let want = sw_mode == 0 || (tiled && [TYPE_2D, TYPE_2D_ARRAY].contains(&kind) && bpp(dfmt) != 12);
                match gcn_vmem_model::image_addr::check_sw_mode(&t) {
                    Ok(()) => assert!(want, "accepted sw_mode {sw_mode} type {kind} dfmt {dfmt}"),
                    Err(e) => {
                        assert!(!want, "refused sw_mode {sw_mode} type {kind} dfmt {dfmt}: {e}");
                        assert!(e.contains(&format!("sw_mode {sw_mode}")), "{e}");
                        if !tiled {
                            assert!(e.contains("0 linear, 1 256B_S, 5 4KB_S, 9 64KB_S"), "{e}");
                        } else if ![TYPE_2D, TYPE_2D_ARRAY].contains(&kind) {
                            assert!(e.contains(&format!("type {kind}")), "{e}");
                        } else {
                            assert!(e.contains("dfmt 13") && e.contains("12-byte"), "{e}");
                        }
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Executor helpers: the format table, check_multi_texel and its message, decode_vaddr.
// ---------------------------------------------------------------------------------------------

/// The op codes are docs/decisions.md's.
#[test]
fn op_codes_match_decisions() {
    assert_eq!((OP_BY2, OP_BY4, OP_PCK2, OP_PCK4, OP_ELEMENT), (BY2, BY4, PCK2, PCK4, ELEMENT));
}

/// The library's FORMAT_TABLE holds exactly the 29 combinations of this file's transcription.
#[test]
fn format_table_is_spec_table() {
    let mut lib: Vec<(u8, u8, u8, u8)> =
        FORMAT_TABLE.iter().flat_map(|r| r.nfmts.iter().map(move |&n| (r.op, r.dmask, r.dfmt, n))).collect();
    let mut ours = table_combinations();
    lib.sort_unstable();
    ours.sort_unstable();
    assert_eq!(lib, ours);
}

/// A plain load of the multi-texel forms on a 2D image, no modifiers.
fn access(op: u8, mip: bool, dmask: u8, dfmt: u8, nfmt: u8) -> MultiTexelAccess {
    MultiTexelAccess { op, mip, dmask, dfmt, nfmt, kind: TYPE_2D, ..MultiTexelAccess::default() }
}

/// The name of a dfmt as §4.3 (R8, R16, RG8) or §1.4 (the others) writes it.
fn dfmt_name(dfmt: u8) -> Option<&'static str> {
    const NAMES: [&str; 15] = [
        "INVALID",
        "R8",
        "R16",
        "RG8",
        "32",
        "16_16",
        "10_11_11",
        "11_11_10",
        "10_10_10_2",
        "2_10_10_10",
        "8_8_8_8",
        "32_32",
        "16_16_16_16",
        "32_32_32",
        "32_32_32_32",
    ];
    NAMES.get(usize::from(dfmt)).copied()
}

/// §1.4's nfmt names; None for reserved codes.
fn nfmt_name(nfmt: u8) -> Option<&'static str> {
    ["unorm", "snorm", "uscaled", "sscaled", "uint", "sint"].get(usize::from(nfmt)).copied().or(match nfmt {
        7 => Some("float"),
        _ => None,
    })
}

/// The instruction name of an access (`IMAGE_LOAD_MIP_PCK2`).
fn instruction(op: u8, mip: bool, store: bool) -> String {
    let op = ["BY2", "BY4", "PCK2", "PCK4"][usize::from(op)];
    format!("IMAGE_{}_{}{op}", if store { "STORE" } else { "LOAD" }, if mip { "MIP_" } else { "" })
}

/// Whitespace/comma separated tokens of a line, lowercase.
fn tokens(line: &str) -> Vec<String> {
    line.split(|c: char| c.is_whitespace() || c == ',' || c == '|' || c == ':' || c == ';')
        .filter(|t| !t.is_empty())
        .map(|t| t.to_ascii_lowercase())
        .collect()
}

/// The message's first line names the instruction, the DMASK, the format and the nfmt; the
/// rest lists every combination of the table (each on a line with its op, DMASK, format and
/// nfmt).
fn assert_message(msg: &str, a: &MultiTexelAccess) {
    let (first, rest) = msg.split_once('\n').unwrap_or_else(|| panic!("one-line message: {msg}"));
    let ctx = || format!("{a:?}:\n{msg}");
    assert!(first.contains(&instruction(a.op, a.mip, a.store)), "instruction not named: {}", ctx());
    let t = tokens(first);
    assert!(first.contains("DMASK") && t.contains(&format!("{:#x}", a.dmask)), "DMASK not named: {}", ctx());
    if let Some(name) = dfmt_name(a.dfmt) {
        assert!(t.iter().any(|w| w.trim_matches(|c| c == '(' || c == ')') == name.to_ascii_lowercase()), "{}", ctx());
    }
    if let Some(name) = nfmt_name(a.nfmt) {
        assert!(t.iter().any(|w| w.trim_matches(|c| c == '(' || c == ')') == name), "nfmt not named: {}", ctx());
    }
    let lines: Vec<Vec<String>> = rest.lines().map(tokens).collect();
    for (op, dmask, dfmt, nfmt) in table_combinations() {
        let want = [
            ["by2", "by4", "pck2", "pck4"][usize::from(op)].to_string(),
            format!("{dmask:#x}"),
            dfmt_name(dfmt).unwrap().to_ascii_lowercase(),
            nfmt_name(nfmt).unwrap().to_string(),
        ];
        assert!(
            lines.iter().any(|l| want.iter().all(|w| l.contains(w))),
            "table combination {want:?} not listed: {}",
            ctx()
        );
    }
}

/// Every op × DMASK × dfmt 0..15 × nfmt 0..15 on a 2D image, plain and _MIP: accepted exactly
/// when the combination is a table row or the T# is unbound (dfmt 0); 29 bound combinations
/// accepted per form; every rejection's message names the combination and lists the table.
#[test]
fn check_multi_texel_accepts_exactly_the_table() {
    for mip in [false, true] {
        let mut accepted_bound = Vec::new();
        for op in 0..4 {
            for dmask in 0..16 {
                for dfmt in 0..16 {
                    for nfmt in 0..16 {
                        let a = access(op, mip, dmask, dfmt, nfmt);
                        let want = dfmt == 0 || in_table(op, dmask, dfmt, nfmt);
                        match check_multi_texel(&a) {
                            Ok(()) => {
                                assert!(want, "accepted: {a:?}");
                                if dfmt != 0 {
                                    accepted_bound.push((op, dmask, dfmt, nfmt));
                                }
                            }
                            Err(msg) => {
                                assert!(!want, "rejected: {a:?}: {msg}");
                                assert_message(&msg, &a);
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(accepted_bound, table_combinations(), "mip {mip}");
    }
}

/// Each table combination under every type and D16/TFE/DA (the _MIP form alternating with D16):
/// accepted only on a 2D image without modifiers, or when the type makes the T# unbound (< 8).
#[test]
fn check_multi_texel_type_and_modifiers() {
    for (op, dmask, dfmt, nfmt) in table_combinations() {
        for kind in 0..16 {
            for m in 0..8u8 {
                let a = MultiTexelAccess {
                    kind,
                    d16: m & 1 != 0,
                    tfe: m & 2 != 0,
                    da: m & 4 != 0,
                    ..access(op, m & 1 != 0, dmask, dfmt, nfmt)
                };
                let want = kind < 8 || (kind == TYPE_2D && m == 0);
                match check_multi_texel(&a) {
                    Ok(()) => assert!(want, "accepted: {a:?}"),
                    Err(msg) => {
                        assert!(!want, "rejected: {a:?}: {msg}");
                        assert_message(&msg, &a);
                    }
                }
            }
        }
    }
}

/// Every image store of these forms is rejected: every table combination, op × DMASK × dfmt ×
/// nfmt, plain and _MIP, bound or unbound, and the message names the store.
#[test]
fn check_multi_texel_rejects_every_store() {
    for mip in [false, true] {
        for op in 0..4 {
            for dmask in 0..16 {
                for dfmt in 0..16 {
                    for nfmt in 0..16 {
                        for kind in [0, TYPE_1D, TYPE_2D, TYPE_2D_ARRAY] {
                            let a = MultiTexelAccess { store: true, kind, ..access(op, mip, dmask, dfmt, nfmt) };
                            let msg = check_multi_texel(&a).expect_err("a store was accepted");
                            assert!(msg.contains(&instruction(op, mip, true)), "{a:?}: {msg}");
                            if kind == TYPE_2D && dfmt != 0 {
                                assert_message(&msg, &a);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// One example rejection printed for the report (also asserted).
#[test]
fn check_multi_texel_message_example() {
    let a = access(BY2, true, 0x7, R16, FLOAT);
    let msg = check_multi_texel(&a).expect_err("DMASK 0x7 accepted");
    println!("{msg}");
    assert_message(&msg, &a);
    assert!(msg.starts_with("IMAGE_LOAD_MIP_BY2"), "{msg}");
}

fn coords(x: u32, y: u32, slice: u32, mipid: u32, dwords: usize) -> Coords {
    Coords { x, y, slice, mipid, dwords }
}

/// SPEC §4.1: the layouts by type (table 36 of seed 000), _MIP forms, DA, A16.
#[test]
fn decode_vaddr_layouts() {
    // Each VGPR holds a distinct value, so the position a component came from is visible.
    let v = [10, 20, 30, 40, 50];
    let d = |kind, da, mip| decode_vaddr(kind, da, mip, false, &v);
    // Non-MIP: 1D (x); 1D array (x, slice); 2D (x, y); 2D array (x, y, slice); 3D (x, y, z);
    // cube (x, y, face_id).
    assert_eq!(d(TYPE_1D, false, false), Ok(coords(10, 0, 0, 0, 1)));
    assert_eq!(d(TYPE_1D_ARRAY, true, false), Ok(coords(10, 0, 20, 0, 2)));
    assert_eq!(d(TYPE_2D, false, false), Ok(coords(10, 20, 0, 0, 2)));
    assert_eq!(d(TYPE_2D_ARRAY, true, false), Ok(coords(10, 20, 30, 0, 3)));
    assert_eq!(d(TYPE_3D, false, false), Ok(coords(10, 20, 30, 0, 3)));
    // _MIP: mipid after the other components.
    assert_eq!(d(TYPE_1D, false, true), Ok(coords(10, 0, 0, 20, 2)));
    assert_eq!(d(TYPE_1D_ARRAY, true, true), Ok(coords(10, 0, 20, 30, 3)));
    assert_eq!(d(TYPE_2D, false, true), Ok(coords(10, 20, 0, 30, 3)));
    assert_eq!(d(TYPE_2D_ARRAY, true, true), Ok(coords(10, 20, 30, 40, 4)));
    assert_eq!(d(TYPE_3D, false, true), Ok(coords(10, 20, 30, 40, 4)));
    // DA = 0 on an array type: no slice component is read, slice = 0 (mipid moves up).
    assert_eq!(d(TYPE_1D_ARRAY, false, false), Ok(coords(10, 0, 0, 0, 1)));
    assert_eq!(d(TYPE_1D_ARRAY, false, true), Ok(coords(10, 0, 0, 20, 2)));
    assert_eq!(d(TYPE_2D_ARRAY, false, false), Ok(coords(10, 20, 0, 0, 2)));
    assert_eq!(d(TYPE_2D_ARRAY, false, true), Ok(coords(10, 20, 0, 30, 3)));
    // DA = 1 on a non-array type: the slice component is read (mipid after it) and ignored.
    assert_eq!(d(TYPE_1D, true, false), Ok(coords(10, 0, 0, 0, 2)));
    assert_eq!(d(TYPE_1D, true, true), Ok(coords(10, 0, 0, 30, 3)));
    assert_eq!(d(TYPE_2D, true, false), Ok(coords(10, 20, 0, 0, 3)));
    assert_eq!(d(TYPE_2D, true, true), Ok(coords(10, 20, 0, 40, 4)));
}

/// Cube: (x, y, face_id), face_id = slice·6 + face. With DA = 1 (a cube array) the layer is
/// face_id; with DA = 0 the slice is 0, so the layer is the face, face_id mod 6.
#[test]
fn decode_vaddr_cube() {
    // face_id 20 = slice 3 · 6 + face 2.
    let v = [7, 8, 20, 5];
    assert_eq!(decode_vaddr(TYPE_CUBE, true, false, false, &v), Ok(coords(7, 8, 20, 0, 3)));
    assert_eq!(decode_vaddr(TYPE_CUBE, true, true, false, &v), Ok(coords(7, 8, 20, 5, 4)));
    assert_eq!(decode_vaddr(TYPE_CUBE, false, false, false, &v), Ok(coords(7, 8, 2, 0, 3)));
    assert_eq!(decode_vaddr(TYPE_CUBE, false, true, false, &v), Ok(coords(7, 8, 2, 5, 4)));
    // 3D with DA = 1 still reads z as the third component (only x, y, z asserted: SPEC §4.1 does
    // not say whether DA adds a component to 3D).
    let c = decode_vaddr(TYPE_3D, true, false, false, &[1, 2, 3, 4]).expect("3D, DA 1");
    assert_eq!((c.x, c.y, c.slice), (1, 2, 3));
}

/// A16: every component 16 bits, two per dword, low half first, zero-extended.
#[test]
fn decode_vaddr_a16() {
    let pair = |lo: u32, hi: u32| hi << 16 | lo;
    let a = |kind, da, mip, v: &[u32]| decode_vaddr(kind, da, mip, true, v);
    // 1D: x in the low half of one dword; the high half is unused.
    assert_eq!(a(TYPE_1D, false, false, &[pair(0xffff, 0x1234)]), Ok(coords(0xffff, 0, 0, 0, 1)));
    // 1D _MIP: (x, mipid) in one dword.
    assert_eq!(a(TYPE_1D, false, true, &[pair(3, 4)]), Ok(coords(3, 0, 0, 4, 1)));
    // 2D: (x, y) in one dword.
    assert_eq!(a(TYPE_2D, false, false, &[pair(0x8001, 0x7ffe)]), Ok(coords(0x8001, 0x7ffe, 0, 0, 1)));
    // 2D _MIP: (x, y), (mipid, unused).
    assert_eq!(a(TYPE_2D, false, true, &[pair(10, 20), pair(3, 0xdead)]), Ok(coords(10, 20, 0, 3, 2)));
    // 2D array DA = 1 _MIP: (x, y), (slice, mipid).
    assert_eq!(a(TYPE_2D_ARRAY, true, true, &[pair(1, 2), pair(3, 4)]), Ok(coords(1, 2, 3, 4, 2)));
    // 2D array DA = 0 _MIP: (x, y), (mipid, unused): no slice.
    assert_eq!(a(TYPE_2D_ARRAY, false, true, &[pair(1, 2), pair(3, 4)]), Ok(coords(1, 2, 0, 3, 2)));
    // 2D DA = 1 _MIP: (x, y), (ignored slice, mipid).
    assert_eq!(a(TYPE_2D, true, true, &[pair(1, 2), pair(3, 4)]), Ok(coords(1, 2, 0, 4, 2)));
    // 3D _MIP: (x, y), (z, mipid); cube: (x, y), (face_id, mipid).
    assert_eq!(a(TYPE_3D, false, true, &[pair(5, 6), pair(7, 8)]), Ok(coords(5, 6, 7, 8, 2)));
    assert_eq!(a(TYPE_CUBE, true, true, &[pair(5, 6), pair(13, 8)]), Ok(coords(5, 6, 13, 8, 2)));
    // 1D array DA = 1: (x, slice).
    assert_eq!(a(TYPE_1D_ARRAY, true, false, &[pair(9, 11)]), Ok(coords(9, 0, 11, 0, 1)));
}

/// Too few address VGPRs: an error naming the missing components.
#[test]
fn decode_vaddr_missing_components() {
    let err = |kind, da, mip, a16, v: &[u32]| decode_vaddr(kind, da, mip, a16, v).expect_err("accepted a short list");
    let e = err(TYPE_2D, false, true, false, &[1, 2]);
    assert!(e.contains("mipid"), "{e}");
    let e = err(TYPE_2D_ARRAY, true, false, false, &[1, 2]);
    assert!(e.contains("slice"), "{e}");
    let e = err(TYPE_2D_ARRAY, true, true, false, &[1, 2]);
    assert!(e.contains("slice") && e.contains("mipid"), "{e}");
    let e = err(TYPE_CUBE, true, false, false, &[1, 2]);
    assert!(e.contains("face_id"), "{e}");
    let e = err(TYPE_3D, false, false, false, &[1, 2]);
    assert!(e.contains('z'), "{e}");
    // A16: 2D array DA = 1 _MIP needs two dwords; with one, slice and mipid are missing.
    let e = err(TYPE_2D_ARRAY, true, true, true, &[1]);
    assert!(e.contains("slice") && e.contains("mipid"), "{e}");
    // No VGPR at all: x is missing.
    let e = err(TYPE_1D, false, false, false, &[]);
    assert!(tokens(&e).iter().any(|t| t.trim_matches(|c: char| !c.is_alphanumeric()) == "x"), "{e}");
    // Exactly enough is fine; extra VGPRs are ignored.
    assert_eq!(decode_vaddr(TYPE_2D, false, true, false, &[1, 2, 3]), Ok(coords(1, 2, 0, 3, 3)));
    assert_eq!(decode_vaddr(TYPE_2D, false, false, false, &[1, 2, 3, 4]), Ok(coords(1, 2, 0, 0, 2)));
}

// ---------------------------------------------------------------------------------------------
// Random lockstep property (bubbles included).
// ---------------------------------------------------------------------------------------------

/// Random cycle sequences of the unit's stimulus (bubbles included): model and RTL agree on
/// every output of every cycle (tests/common/mod.rs).
#[test]
fn random_cases_agree_in_lockstep() {
    common::random_cases_agree::<Harness>(1000);
}

// ---------------------------------------------------------------------------------------------
// The random stimulus reaches the corners.
// ---------------------------------------------------------------------------------------------

/// Samples 20,000 stimulus inputs and measures, with this file's own decoding of the inputs
/// (and [`reference`], never the model), how often each corner happens: the multi-texel ones
/// among the multi-texel lanes (ops 0–3), the one-element and tiled ones among op 4's.
#[test]
fn stimulus_reaches_corners() {
    const SAMPLES: u64 = 20_000;
    let mut c = Counts::default();
    let mut e = ElementCounts::default();
    let mut combos = std::collections::BTreeMap::new();
    let mut families = std::collections::BTreeMap::new();
    for i in common::stimulus_samples::<Harness>(SAMPLES as usize) {
        let o = reference(&i);
        let field = |v: u128, at: u32, w: u32| ((v >> at) & ((1u128 << w) - 1)) as u64;
        let dfmt = field(i.tsharp_lo, 52, 6) as u8;
        let nfmt = field(i.tsharp_lo, 58, 4) as u8;
        let ty = field(i.tsharp_lo, 124, 4);
        let sw_mode = field(i.tsharp_lo, 116, 5) as u8;
        let last_level = field(i.tsharp_lo, 112, 4);
        let max_mip = field(i.tsharp_hi, 60, 4);
        let l = field(i.tsharp_lo, 108, 4) + if i.mip { u64::from(i.mipid) } else { 0 };
        let bound = dfmt != 0 && ty >= 8;
        let op = i.op & 7;
        c.illegal += u64::from(o.illegal);
        c.unbound += u64::from(!bound);
        c.beyond_last += u64::from(l > last_level);
        c.beyond_max += u64::from(!i.r128 && l <= last_level && l > max_mip);
        c.r128 += u64::from(i.r128);
        c.mip += u64::from(i.mip && i.mipid != 0 && o.level_ok);
        c.reserved += u64::from(op >= 5);
        if op >= 4 {
            e.lanes += 1;
            e.valid += u64::from(o.group_valid);
            let tiled = [1, 5, 9].contains(&sw_mode);
            e.tiled_valid += u64::from(o.group_valid && tiled);
            e.unmodelled += u64::from(![0, 1, 5, 9].contains(&sw_mode));
            if o.group_valid {
                *families.entry((sw_mode, bpp(dfmt))).or_insert(0u64) += 1;
                e.slice_valid += u64::from(i.slice > 0);
                e.level_above_0 += u64::from(o.level > 0 && tiled);
            }
            if o.level_ok && !o.illegal && bound {
                let (x, y, s) = (u64::from(i.x), u64::from(i.y), u64::from(i.slice));
                let (w, h, n) = (u64::from(o.width), u64::from(o.height), u64::from(o.layers));
                e.x_edge += u64::from(x + 1 == w || x == w);
                e.y_edge += u64::from(y + 1 == h || y == h);
                e.slice_edge += u64::from(n > 1 && (s + 1 == n || s == n));
            }
            continue;
        }
        let n = group(op);
        c.group += 1;
        c.valid += u64::from(o.group_valid);
        c.invalid += u64::from(!o.group_valid);
        if o.level_ok {
            let (x, y, w, h) = (u64::from(i.x), u64::from(i.y), u64::from(o.width), u64::from(o.height));
            c.edge += u64::from(x + u64::from(n) == w);
            c.edge_valid += u64::from(x + u64::from(n) == w && o.group_valid);
            // The aligned group fits but the unaligned one does not.
            c.aligned_only += u64::from(u64::from(o.xa) + u64::from(n) <= w && x + u64::from(n) > w && y < h);
            c.last_row += u64::from(y + 1 == h);
            c.y_is_height += u64::from(y == h);
            c.pitch_beyond_width += u64::from(u64::from(o.pitch) > w);
        }
        if bound && !o.illegal {
            *combos.entry((op, i.dmask & 0xf, dfmt, nfmt)).or_insert(0u64) += 1;
        }
        if o.group_valid {
            c.unaligned_valid += u64::from(i.x % n != 0);
            c.tiled_group_valid += u64::from([1, 5, 9].contains(&sw_mode));
        }
    }
    let missing: Vec<_> = table_combinations().into_iter().filter(|k| !combos.contains_key(k)).collect();
    let rare = combos.values().min().copied().unwrap_or(0);
    let family_list: Vec<(u8, u64)> = [0, 1, 5, 9].iter().flat_map(|&m| [1, 2, 4, 8, 16].map(|b| (m, b))).collect();
    let rare_family = family_list.iter().map(|k| families.get(k).copied().unwrap_or(0)).min().unwrap_or(0);
    let g = c.group;
    let report = format!(
        "of {SAMPLES}: multi-texel lanes {g}: group_valid {:.1}%, invalid {:.1}%, x+n == width {:.1}% (valid \
         {:.1}%), fits aligned only {:.1}%, y = height-1 {:.1}%, y = height {:.1}%, pitch_L > width_L {:.1}%, \
         valid groups with unaligned x {:.1}%, valid groups on tiles {:.1}%; all lanes: illegal {:.1}%, unbound \
         {:.1}%, L > last_level {:.1}%, L > max_mip (256-bit, L <= last_level) {:.1}%, 128-bit {:.1}%, _MIP \
         with mipid > 0 and a level {:.1}%, reserved ops {:.1}%; one-element lanes {}: inside {:.1}%, inside \
         on a tile {:.1}%, unmodelled sw_mode {:.1}%, inside at slice > 0 {:.1}%, inside on a tiled level > 0 \
         {:.1}%, x at the level's edge {:.1}%, y {:.1}%, slice {:.1}%; legal combinations seen {} of 29 (rarest \
         {rare} samples); (mode, element size) families inside: rarest {rare_family}",
        common::pct(c.valid, g),
        common::pct(c.invalid, g),
        common::pct(c.edge, g),
        common::pct(c.edge_valid, g),
        common::pct(c.aligned_only, g),
        common::pct(c.last_row, g),
        common::pct(c.y_is_height, g),
        common::pct(c.pitch_beyond_width, g),
        common::pct(c.unaligned_valid, c.valid),
        common::pct(c.tiled_group_valid, c.valid),
        common::pct(c.illegal, SAMPLES),
        common::pct(c.unbound, SAMPLES),
        common::pct(c.beyond_last, SAMPLES),
        common::pct(c.beyond_max, SAMPLES),
        common::pct(c.r128, SAMPLES),
        common::pct(c.mip, SAMPLES),
        common::pct(c.reserved, SAMPLES),
        e.lanes,
        common::pct(e.valid, e.lanes),
        common::pct(e.tiled_valid, e.lanes),
        common::pct(e.unmodelled, e.lanes),
        common::pct(e.slice_valid, e.valid),
        common::pct(e.level_above_0, e.valid),
        common::pct(e.x_edge, e.lanes),
        common::pct(e.y_edge, e.lanes),
        common::pct(e.slice_edge, e.lanes),
        29 - missing.len(),
    );
    println!("{report}");
    let mut short = Vec::new();
    let mut need = |ok: bool, what: &'static str| {
        if !ok {
            short.push(what);
        }
    };
    need(common::pct(g, SAMPLES) >= 20.0, "multi-texel lanes < 20%");
    need(common::pct(e.lanes, SAMPLES) >= 50.0, "one-element lanes < 50%");
    need(common::pct(c.valid, g) >= 10.0, "group_valid = 1 < 10%");
    need(common::pct(c.invalid, g) >= 20.0, "group_valid = 0 < 20%");
    need(common::pct(c.edge, g) >= 5.0, "x + n == width_L < 5%");
    need(common::pct(c.edge_valid, g) >= 1.0, "x + n == width_L on a valid group < 1%");
    need(common::pct(c.aligned_only, g) >= 2.0, "aligned group fits, unaligned does not < 2%");
    need(common::pct(c.last_row, g) >= 5.0, "y = height_L − 1 < 5%");
    need(common::pct(c.y_is_height, g) >= 3.0, "y = height_L < 3%");
    need(common::pct(c.pitch_beyond_width, g) >= 5.0, "pitch_L > width_L < 5%");
    need(common::pct(c.unaligned_valid, c.valid) >= 20.0, "valid groups with unaligned x < 20% of valid");
    need(common::pct(c.tiled_group_valid, c.valid) >= 10.0, "valid groups on tiled surfaces < 10% of valid");
    need(common::pct(c.illegal, SAMPLES) >= 5.0, "illegal < 5%");
    need(common::pct(c.unbound, SAMPLES) >= 2.0, "unbound < 2%");
    need(common::pct(c.beyond_last, SAMPLES) >= 5.0, "L > last_level < 5%");
    need(common::pct(c.beyond_max, SAMPLES) >= 1.0, "L > max_mip on a 256-bit T# < 1%");
    need(common::pct(c.r128, SAMPLES) >= 30.0 && common::pct(c.r128, SAMPLES) <= 70.0, "128-bit T# not 30–70%");
    need(common::pct(c.mip, SAMPLES) >= 5.0, "_MIP lanes on an existing level > 0 < 5%");
    need(c.reserved > 0, "no reserved op");
    need(common::pct(e.valid, e.lanes) >= 10.0, "one element inside its level < 10%");
    need(common::pct(e.tiled_valid, e.lanes) >= 5.0, "one element inside a tiled level < 5%");
    need(common::pct(e.unmodelled, e.lanes) >= 1.0, "unmodelled sw_mode < 1% of one-element lanes");
    need(common::pct(e.slice_valid, e.valid) >= 5.0, "inside at slice > 0 < 5% of inside");
    need(common::pct(e.level_above_0, e.valid) >= 5.0, "inside a tiled level > 0 < 5% of inside");
    need(common::pct(e.x_edge, e.lanes) >= 3.0, "x at width − 1 or width < 3%");
    need(common::pct(e.y_edge, e.lanes) >= 3.0, "y at height − 1 or height < 3%");
    need(common::pct(e.slice_edge, e.lanes) >= 2.0, "slice at layers − 1 or layers < 2%");
    need(missing.is_empty(), "a legal table combination never sampled");
    need(rare >= 10, "a legal table combination sampled fewer than 10 times");
    need(rare_family >= 10, "a (sw_mode, element size) family inside its level fewer than 10 times");
    assert!(short.is_empty(), "under-reached corners: {short:?}\n{report}\nmissing combinations: {missing:?}");
}

#[derive(Default)]
struct Counts {
    group: u64,
    valid: u64,
    invalid: u64,
    illegal: u64,
    unbound: u64,
    beyond_last: u64,
    beyond_max: u64,
    r128: u64,
    mip: u64,
    reserved: u64,
    edge: u64,
    edge_valid: u64,
    aligned_only: u64,
    last_row: u64,
    y_is_height: u64,
    pitch_beyond_width: u64,
    unaligned_valid: u64,
    tiled_group_valid: u64,
}

#[derive(Default)]
struct ElementCounts {
    lanes: u64,
    valid: u64,
    tiled_valid: u64,
    unmodelled: u64,
    slice_valid: u64,
    level_above_0: u64,
    x_edge: u64,
    y_edge: u64,
    slice_edge: u64,
}

/// Every assertion of rtl/image_addr.sv is compiled into the lockstep builds and can fire: on the
/// break-asserts build each one fails and is reported by name (docs/checks.md "RTL assertions").
#[test]
fn every_assertion_fires_and_is_reported() {
    common::assertions_fire::<Harness>(&[
        "GroupInColumn_A",
        "GroupInLayers_A",
        "GroupInRow_A",
        "GroupValidLegal_A",
        "LevelMissingZero_A",
        "LevelOkDims_A",
        "MipSumNarrow_A",
        "WithinBlock_A",
    ]);
}

// ---------------------------------------------------------------------------------------------
// Functional coverage: the declared bins (rust/image_addr.rs `cover`).
// ---------------------------------------------------------------------------------------------

/// Asserts that `input` (with the model's result) lands in every bin of `expected`.
fn assert_bins(what: &str, input: &In, expected: &[&str]) {
    let out = gcn_vmem_model::image_addr::compute(input);
    common::assert_input_bins::<ImageAddr>(what, input, &out, expected, false);
}

/// Hand-chosen multi-texel lanes land in the bins SPEC §1.2 and §4.2–§4.4 put them in.
#[test]
fn directed_inputs_hit_their_bins() {
    // IMG is 13 texels wide (odd). BY2 at x = 11: x + 2 = 13 = width, the last group (xa 10).
    assert_bins(
        "last BY2 group",
        &by2(IMG, 11, 0),
        &[
            "x (§4.3, unaligned x): x + n = width (last group)",
            "op x outcome: by2 group valid",
            "x alignment: n=2: x odd",
            "width_L: not a power of two >= 5",
            "pitch_L: 256-bit: pitch > width",
            "y (§4.3): y < height - 1",
        ],
    );
    // BY4 at x = 10: xa = 8 and the aligned group 8..11 fits (8 + 4 <= 13), but x + 4 = 14 > 13:
    // invalid by the unaligned rule (§4.3); y = 6 is the last row.
    assert_bins(
        "BY4 unaligned overhang",
        &by4(IMG, 10, 6),
        &[
            "x alignment: aligned group fits but unaligned x + n > width (invalid)",
            "x (§4.3, unaligned x): x < width < x + n (group overhangs)",
            "x alignment: n=4: x%4=2",
            "op x outcome: by4 group out of bounds",
            "y (§4.3): y = height - 1",
            "x fits x y fits: x out y fits",
        ],
    );
    // y = 7 = height: out of bounds on y only.
    assert_bins("y at height", &pck2(IMG, 0, 7), &["y (§4.3): y = height", "x fits x y fits: x fits y out"]);
    // x near 2^32: x + n is computed exactly and does not wrap (§4.3).
    assert_bins("x past 2^32", &pck4(IMG, u32::MAX - 1, 0), &["x (§4.3, unaligned x): x + n >= 2^32 (exact, no wrap)"]);
    // Type 1D (8) is bound but not 2D: illegal (§4.3), whatever the rest.
    assert_bins(
        "1D image",
        &by2(Tsh { ty: TYPE_1D, ..IMG }, 0, 0),
        &["illegal reason (§4.3): type not 2D", "type (§1.2): 1D (8)", "op x outcome: by2 illegal"],
    );
    // BY4 takes R8 only: R16 is illegal; PCK2 on R8 with snorm is not in the row.
    assert_bins("BY4 R16", &by4(Tsh { dfmt: R16, ..IMG }, 0, 0), &["illegal reason (§4.3): BY4/PCK4 on R16 or RG8"]);
    assert_bins("PCK2 snorm", &pck2(Tsh { nfmt: SNORM, ..IMG }, 0, 0), &["illegal reason (§4.3): nfmt not in the row"]);
    assert_bins("BY2 DMASK 0xF on R8", &lane(IMG, BY2, 0xF, 0, 0), &["illegal reason (§4.3): DMASK not the row's"]);
    assert_bins(
        "DA",
        &In { da: true, ..by2(IMG, 0, 0) },
        &["illegal reason (§4.3): DA", "op x mip x da: by2 mip=0 da=1"],
    );
    // dfmt 0 is unbound (§1.2): never illegal, even with D16 set.
    assert_bins(
        "dfmt 0",
        &In { d16: true, ..by2(Tsh { dfmt: 0, ..IMG }, 0, 0) },
        &[
            "unbound reason (§1.2): dfmt 0 (type >= 8)",
            "unbound reason (§1.2): unsupported combination on an unbound T#: not illegal",
            "op x outcome: by2 unbound",
        ],
    );
    // Levels (§4.2): last_level 2 and mipid 3 → L = 3 > last_level; a 256-bit T# with max_mip 1
    // and mipid 2 (last_level 15) → missing; the same on a 128-bit T# exists (no max_mip check).
    let chain = Tsh { last_level: 2, ..IMG };
    assert_bins(
        "L > last_level",
        &mip(by2(chain, 0, 0), 3),
        &["mip level (§4.2): L > last_level", "op x outcome: by2 level missing"],
    );
    let short = Tsh { max_mip: 1, ..IMG };
    assert_bins(
        "L > max_mip",
        &mip(by2(short, 0, 0), 2),
        &["mip level (§4.2): 256-bit: L > max_mip (L <= last_level)"],
    );
    assert_bins(
        "r128 ignores max_mip",
        &r128(mip(by2(short, 0, 0), 2)),
        &[
            "mip level (§4.2): 128-bit: L > max_mip field, ignored (exists)",
            "pitch_L: 128-bit: pitch = width",
            "level x mip: L=1..14 mip=1",
            "address (§4.4): level > 0 (mip_offset)",
        ],
    );
    // Level 3 of a 13-wide image: 13 >> 3 = 1; of 7 rows: 7 >> 3 = 0, clamped to 1.
    assert_bins("clamped height", &mip(by2(IMG, 0, 0), 3), &["height_L (not 1D): 1 clamped ((field + 1) >> L = 0)"]);
    // mipid 0xffff_ffff with base_level 1: L = 2^32, exact (§4.2).
    assert_bins(
        "L past 2^32",
        &mip(by2(Tsh { base_level: 1, ..IMG }, 0, 0), u32::MAX),
        &["mip level (§4.2): L >= 2^32 (base_level + mipid, exact)"],
    );
    // The top of the address space: row 1 of WRAP starts 400 bytes past 0xffff_ffff_ff00.
    assert_bins("address wrap", &by2(WRAP, 0, 1), &["address (§4.4): wraps past 2^48 (below base)"]);
    // The largest image at level 0: 16384 wide and high, pitch 65536.
    assert_bins(
        "largest",
        &by2(BIG, 0, 0),
        &["width_L: 16384 (largest)", "height_L (not 1D): 16384 (largest)", "pitch_L: 256-bit: pitch 65536 (largest)"],
    );
}

/// Hand-chosen elements (op 4) land in the bins SPEC §4.4 and §4.5 put them in.
#[test]
fn directed_elements_hit_their_bins() {
    // One element (op 4) on a 4KB_S 4-byte surface (32 × 32 blocks), level 0: the layout's cross,
    // the block's last column (x = 31 = bw − 1) inside the level.
    assert_bins(
        "4KB_S element at bw - 1",
        &elem(fam(D4, S4KB), 31, 0, 0),
        &[
            "element on 2D/2D array: sw_mode x element bytes (§4.5): 4KB_S (5) 4 bytes",
            "tiled: sw_mode x element bytes x edge of a block inside the level (§4.5): 4KB_S 4 bytes x = bw - 1",
            "tiled: level (§4.5): 4KB_S L = 0",
            "element: type (§4.2 layers): 2D (9)",
            "op x outcome: element group valid",
        ],
    );
    // y = 32 = bh: the next block row.
    assert_bins(
        "4KB_S element at bh",
        &elem(fam(D4, S4KB), 0, 32, 0),
        &["tiled: sw_mode x element bytes x edge of a block inside the level (§4.5): 4KB_S 4 bytes y = bh"],
    );
    // A tiled 12-byte element is illegal (§4.5): the cross's bin is reached by illegal lanes.
    assert_bins(
        "64KB_S 12 bytes",
        &elem(fam(D12, S64KB), 0, 0, 0),
        &[
            "element on 2D/2D array: sw_mode x element bytes (§4.5): 64KB_S (9) 12 bytes (tiled: illegal)",
            "illegal reason (§4.5, op): tiled 12-byte element (dfmt 13)",
            "op x outcome: element illegal",
        ],
    );
    assert_bins(
        "sw_mode 3",
        &elem(fam(D4, 3), 0, 0, 0),
        &[
            "element on 2D/2D array: sw_mode x element bytes (§4.5): unmodelled (illegal) 4 bytes",
            "illegal reason (§4.5, op): sw_mode not modelled",
        ],
    );
    let tvol = Tsh { ty: TYPE_3D, depth: 4, ..fam(D4, S4KB) };
    assert_bins("tiled 3D", &elem(tvol, 0, 0, 0), &["illegal reason (§4.5, op): tiled on 3D"]);
    // Level 1 of a tiled 2D array, slice 1 of 2: the tiled mip_offset, a slice above 0.
    let tarr = Tsh { ty: TYPE_2D_ARRAY, depth: 2, ..fam(D4, S64KB) };
    assert_bins(
        "64KB_S array L1 slice 1",
        &mip(elem(tarr, 0, 0, 1), 1),
        &[
            "tiled: level (§4.5): 64KB_S L > 0 (mip_offset of whole blocks)",
            "tiled: level (§4.5): 64KB_S slice > 0 (2D array)",
            "element, tiled: sw_mode x element bytes x edge of the level (§4.4, §4.5): 64KB_S 4 bytes slice = layers - 1",
            "element: type (§4.2 layers): 2D array (13)",
        ],
    );
    // The level's edges on a linear cube: x = width, slice = layers (6).
    let cube = Tsh { ty: TYPE_CUBE, width: 8, height: 8, pitch: 8, depth: 1, ..fam(D4, LINEAR) };
    assert_bins(
        "cube slice 6",
        &elem(cube, 8, 0, 6),
        &[
            "element, linear: element bytes x edge of the level (§4.4): 4 bytes x = width",
            "element, linear: element bytes x edge of the level (§4.4): 4 bytes slice = layers",
            "element: type (§4.2 layers): cube (11, layers = 6 x depth)",
            "op x outcome: element group out of bounds",
        ],
    );
    // A multi-texel group on a tiled surface; a reserved op.
    assert_bins(
        "BY4 on 64KB_S",
        &by4(Tsh { nfmt: UNORM, ..fam(D1, S64KB) }, 4, 0),
        &["multi-texel group valid on a tiled surface: by4 64KB_S"],
    );
    assert_bins(
        "reserved op",
        &In { op: 6, ..elem(fam(D4, LINEAR), 0, 0, 0) },
        &["illegal reason (§4.5, op): reserved op (5..7)"],
    );
}

/// The random stimulus hits every declared bin within an eighth of the default budget (250
/// chunks of 4,096 vectors of seed 1, model only, the same cases a lockstep run drives).
#[test]
fn random_stimulus_hits_every_bin() {
    common::every_bin_hit::<Harness>(250);
}

// ---------------------------------------------------------------------------------------------
// The Rust side of a cosim vector, timed (not a check).
// ---------------------------------------------------------------------------------------------

/// Not a check, a timing (`--ignored`): the Rust side of a `gcn-vmem cosim` vector of this unit,
/// ns a valid vector over 1,000,000 of them on one thread: the stimulus (`generate_case`), then
/// the model through each case with its coverage sampled as the lockstep run samples it (the
/// model's half of `Lockstep::run_steps_with`: reset, each cycle's outputs kept, the sampler at
/// the edge that computes). The `generate` and `model` columns of `gcn-vmem bench` without the
/// RTL and its noise (docs/perf.md "image_addr"):
/// `cargo test --release --test suite image_addr::rust_side_speed -- --ignored --nocapture`.
#[test]
#[ignore = "a timing: run with --ignored --nocapture"]
fn rust_side_speed() {
    use gcn_vmem::engine::cover::result_cycle;
    use gcn_vmem::engine::lockstep::{drive_unit, Step};
    use gcn_vmem::engine::stimulus::Rng;
    use gcn_vmem::engine::Binding;
    use gcn_vmem_model::cover::{Covered, Hits};
    use gcn_vmem_model::unit::{valid_of, Unit};
    use std::time::{Duration, Instant};

    const VECTORS: u64 = 1_000_000;
    let mut rng = Rng::new(1);
    let mut model = ImageAddr::new();
    let mut hits = Hits::new(&ImageAddr::covergroup());
    let mut outs = Vec::new();
    let (mut generate, mut run, mut vectors) = (Duration::ZERO, Duration::ZERO, 0u64);
    while vectors < VECTORS {
        let start = Instant::now();
        let case = Harness::generate_case(&mut rng);
        let generated = Instant::now();
        model.reset();
        let (mut held, idle) = (false, Step::default());
        for cycle in 0..case.len() + ImageAddr::LATENCY {
            let step = case.get(cycle).unwrap_or(&idle);
            outs.push(drive_unit(&mut model, &mut held, step));
            if let Some(result) = model.computed() {
                result_cycle::<ImageAddr>(&case, cycle, &step.input, result, &mut hits);
            }
        }
        std::hint::black_box(&outs);
        outs.clear();
        run += generated.elapsed();
        generate += generated - start;
        vectors += case.iter().filter(|s| valid_of(&s.input)).count() as u64;
    }
    let ns = |d: Duration| d.as_secs_f64() * 1e9 / vectors as f64;
    println!(
        "image_addr, {vectors} vectors: generate {:.1} ns, model with its sampler {:.1} ns, together {:.1} ns a vector",
        ns(generate),
        ns(run),
        ns(generate + run)
    );
    assert!(hits.hit_bins() > 0);
}
