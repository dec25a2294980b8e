//! `buffer_addr` (SPEC §2): directed vectors with hand-computed expectations, a snapshot of
//! their cycle-by-cycle trace, pipeline behaviour, a random lockstep property and a check that
//! the random stimulus reaches the unit's corners.
//!
//! Every expected value in [`ROWS`] is derived by hand from SPEC §1.1 and §2 (the arithmetic is
//! in the comment of each row); none comes from the model. V#s are built by [`vsharp`], written
//! here from §1.1's bit table so the test does not depend on `rust/vsharp.rs`.

use crate::common;

use gcn_vmem::bindings::buffer_addr::{Harness, Rtl};
use gcn_vmem::engine::lockstep::{trace, Lockstep};
use gcn_vmem::engine::RtlOptions;
use gcn_vmem::engine::RtlUnit;
use gcn_vmem::engine::Variant;
use gcn_vmem_model::buffer_addr::{BufferAddr, In, Out};
use gcn_vmem_model::unit::{Ports, Unit};

// ---------------------------------------------------------------------------------------------
// V# construction (SPEC §1.1), independent of rust/vsharp.rs.
// ---------------------------------------------------------------------------------------------

/// The fields of a V#, each holding exactly its descriptor bits.
#[derive(Clone, Copy)]
struct Desc {
    base: u64,
    /// 14 bits (61:48).
    stride: u32,
    cache_swizzle: bool,
    swizzle_en: bool,
    num_records: u32,
    dst_sel: [u8; 4],
    nfmt: u8,
    dfmt: u8,
    /// 2-bit code: 2, 4, 8, 16 bytes.
    element_size: u8,
    /// 2-bit code: 8, 16, 32, 64.
    index_stride: u8,
    add_tid_en: bool,
    nv: bool,
    ty: u8,
    /// The bits §1.1 does not name: bits 2:0 go to 122:120, bits 4:3 to 125:124.
    unnamed: u8,
}

/// Packs a [`Desc`] at §1.1's bit positions. A field wider than its slot is a test bug: it
/// fails at compile time (the rows are constants).
const fn vsharp(d: Desc) -> u128 {
    assert!(d.base < 1 << 48);
    assert!(d.stride < 1 << 14);
    assert!(d.nfmt < 8 && d.dfmt < 16 && d.element_size < 4 && d.index_stride < 4);
    assert!(d.ty < 4 && d.unnamed < 32);
    let mut v = d.base as u128;
    v |= (d.stride as u128) << 48;
    v |= (d.cache_swizzle as u128) << 62;
    v |= (d.swizzle_en as u128) << 63;
    v |= (d.num_records as u128) << 64;
    let mut c = 0;
    while c < 4 {
        assert!(d.dst_sel[c] < 8);
        v |= (d.dst_sel[c] as u128) << (96 + 3 * c);
        c += 1;
    }
    v |= (d.nfmt as u128) << 108;
    v |= (d.dfmt as u128) << 111;
    v |= (d.element_size as u128) << 115;
    v |= (d.index_stride as u128) << 117;
    v |= (d.add_tid_en as u128) << 119;
    v |= ((d.unnamed & 0b111) as u128) << 120;
    v |= (d.nv as u128) << 123;
    v |= ((d.unnamed >> 3) as u128) << 124;
    v |= (d.ty as u128) << 126;
    v
}

/// A bound linear V#: base 0x1000, stride 0, num_records 0x100, dfmt 4 (32) / nfmt 4 (uint),
/// identity dst_sel.
const BOUND: Desc = Desc {
    base: 0x1000,
    stride: 0,
    cache_swizzle: false,
    swizzle_en: false,
    num_records: 0x100,
    dst_sel: [4, 5, 6, 7],
    nfmt: 4,
    dfmt: 4,
    element_size: 0,
    index_stride: 0,
    add_tid_en: false,
    nv: false,
    ty: 0,
    unnamed: 0,
};

// ---------------------------------------------------------------------------------------------
// Directed table.
// ---------------------------------------------------------------------------------------------

const FORMAT: u8 = 0;
const NON_FORMAT: u8 = 1;
const ATOMIC: u8 = 2;
const RESERVED: u8 = 3;

/// A raw non-format dword access on [`BOUND`], every lane field 0.
const RAW: In = In {
    valid: true,
    vsharp: vsharp(BOUND),
    inst_offset: 0,
    offen: false,
    idxen: false,
    access: NON_FORMAT,
    bytes: 4,
    lds: false,
    sgpr_offset: 0,
    vgpr_index: 0,
    vgpr_offset: 0,
    tid: 0,
    m0: 0,
    lds_base: 0,
    lds_size: 0,
};

/// A valid result: bound, legal, no LDS.
const fn out(address: u64, in_range: u8) -> Out {
    Out { valid: true, address, in_range, unbound: false, illegal: false, lds_address: 0, lds_in_range: false }
}

struct Row {
    name: &'static str,
    input: In,
    expect: Out,
}

const fn row(name: &'static str, input: In, expect: Out) -> Row {
    Row { name, input, expect }
}

/// Swizzled grid V#: base 0x10000, stride 96 (a multiple of every E), num_records 100.
const fn grid_desc(element_size: u8, index_stride: u8) -> Desc {
    Desc { base: 0x10000, stride: 96, swizzle_en: true, num_records: 100, element_size, index_stride, ..BOUND }
}

/// Swizzled grid access: index = vgpr_index 83, offset = vgpr_offset 40 + inst_offset 3 = 43,
/// sgpr_offset 0x20, ubyte (bytes 1 <= E and offset_lsb + 1 <= E for every E: legal).
/// Structured (idxen, stride 96 != 0): 83 < 100 → in_range 0b1.
/// index 83: S=8 → msb 10 lsb 3; S=16 → 5, 3; S=32 → 2, 19; S=64 → 1, 19.
/// offset 43: E=2 → msb 21 lsb 1; E=4 → 10, 3; E=8 → 5, 3; E=16 → 2, 11.
/// address = 0x10000 + 0x20 + buffer_offset (bytes 1: no alignment).
const fn grid(element_size: u8, index_stride: u8) -> In {
    In {
        vsharp: vsharp(grid_desc(element_size, index_stride)),
        idxen: true,
        offen: true,
        vgpr_index: 83,
        vgpr_offset: 40,
        inst_offset: 3,
        sgpr_offset: 0x20,
        bytes: 1,
        ..RAW
    }
}

/// Scratch V# (§2.2): add_tid_en, stride[13:0] = 0x10, dfmt 3, base 0x100000, num_records 0.
const SCRATCH: Desc = Desc { base: 0x10_0000, stride: 0x10, dfmt: 3, add_tid_en: true, num_records: 0, ..BOUND };
/// The scratch access: offen, vgpr_offset 8 → offset 8; idxen 0, tid 5 → index 5.
const SCRATCH_IN: In = In { vsharp: vsharp(SCRATCH), offen: true, vgpr_offset: 8, tid: 5, ..RAW };

/// Structured V#: base 0x2000, stride 16, num_records 5 (records).
const STRUCT: Desc = Desc { base: 0x2000, stride: 16, num_records: 5, ..BOUND };
/// Structured-with-tid V#: base 0x3000, stride 16, add_tid_en, num_records 5.
const STRUCT_TID: Desc = Desc { base: 0x3000, stride: 16, add_tid_en: true, num_records: 5, ..BOUND };
/// Swizzled V# for the illegal rows: base 0x1000, stride 16, num_records 100 (structured).
const SWZ: Desc = Desc { stride: 16, swizzle_en: true, num_records: 100, ..BOUND };
/// Alignment V#: base 0x1001 (unaligned), num_records 0x17.
const ALIGN: Desc = Desc { base: 0x1001, num_records: 0x17, ..BOUND };
/// The alignment access: sgpr_offset 2, inst_offset 0x13 → sum 0x1001 + 2 + 0x13 = 0x1016.
const ALIGN_IN: In = In { vsharp: vsharp(ALIGN), sgpr_offset: 2, inst_offset: 0x13, ..RAW };

/// One raw access on [`BOUND`] (num_records 0x100) at `inst_offset`.
const fn at(access: u8, bytes: u8, inst_offset: u16) -> In {
    In { access, bytes, inst_offset, ..RAW }
}

/// [`at`] with another dfmt in the V# (format accesses use the matching element size).
const fn fmt_at(dfmt: u8, bytes: u8, inst_offset: u16) -> In {
    In { vsharp: vsharp(Desc { dfmt, ..BOUND }), access: FORMAT, bytes, inst_offset, ..RAW }
}

/// The directed vectors. `address` below always means base + sgpr_offset + buffer_offset
/// (mod 2^48), then bits 1:0 cleared when bytes >= 4.
const ROWS: &[Row] = &[
    // ---- §2.3 swizzle: every element_size × index_stride pair (see `grid`).
    // buffer_offset = (index_msb*96 + offset_msb*E)*S + index_lsb*E + offset_lsb
    // E=2, S=8: (10*96 + 21*2)*8 + 3*2 + 1 = 1002*8 + 7 = 8023
    row("swz E2 S8", grid(0, 0), out(0x10020 + 8023, 0b1)),
    // E=2, S=16: (5*96 + 42)*16 + 7 = 522*16 + 7 = 8359
    row("swz E2 S16", grid(0, 1), out(0x10020 + 8359, 0b1)),
    // E=2, S=32: (2*96 + 42)*32 + 19*2 + 1 = 234*32 + 39 = 7527
    row("swz E2 S32", grid(0, 2), out(0x10020 + 7527, 0b1)),
    // E=2, S=64: (1*96 + 42)*64 + 39 = 138*64 + 39 = 8871
    row("swz E2 S64", grid(0, 3), out(0x10020 + 8871, 0b1)),
    // E=4, S=8: (960 + 10*4)*8 + 3*4 + 3 = 8000 + 15 = 8015
    row("swz E4 S8", grid(1, 0), out(0x10020 + 8015, 0b1)),
    // E=4, S=16: (480 + 40)*16 + 15 = 8320 + 15 = 8335
    row("swz E4 S16", grid(1, 1), out(0x10020 + 8335, 0b1)),
    // E=4, S=32: (192 + 40)*32 + 19*4 + 3 = 7424 + 79 = 7503
    row("swz E4 S32", grid(1, 2), out(0x10020 + 7503, 0b1)),
    // E=4, S=64: (96 + 40)*64 + 79 = 8704 + 79 = 8783
    row("swz E4 S64", grid(1, 3), out(0x10020 + 8783, 0b1)),
    // E=8, S=8: (960 + 5*8)*8 + 3*8 + 3 = 8000 + 27 = 8027
    row("swz E8 S8", grid(2, 0), out(0x10020 + 8027, 0b1)),
    // E=8, S=16: (480 + 40)*16 + 27 = 8320 + 27 = 8347
    row("swz E8 S16", grid(2, 1), out(0x10020 + 8347, 0b1)),
    // E=8, S=32: (192 + 40)*32 + 19*8 + 3 = 7424 + 155 = 7579
    row("swz E8 S32", grid(2, 2), out(0x10020 + 7579, 0b1)),
    // E=8, S=64: (96 + 40)*64 + 155 = 8704 + 155 = 8859
    row("swz E8 S64", grid(2, 3), out(0x10020 + 8859, 0b1)),
    // E=16, S=8: (960 + 2*16)*8 + 3*16 + 11 = 7936 + 59 = 7995
    row("swz E16 S8", grid(3, 0), out(0x10020 + 7995, 0b1)),
    // E=16, S=16: (480 + 32)*16 + 59 = 8192 + 59 = 8251
    row("swz E16 S16", grid(3, 1), out(0x10020 + 8251, 0b1)),
    // E=16, S=32: (192 + 32)*32 + 19*16 + 11 = 7168 + 315 = 7483
    row("swz E16 S32", grid(3, 2), out(0x10020 + 7483, 0b1)),
    // E=16, S=64: (96 + 32)*64 + 315 = 8192 + 315 = 8507
    row("swz E16 S64", grid(3, 3), out(0x10020 + 8507, 0b1)),
    // sgpr_offset is added after swizzling: E=4 (code 1), S=8, stride 16, index 9 → msb 1, lsb 1;
    // offset 1 → msb 0, lsb 1: (1*16 + 0)*8 + 1*4 + 1 = 133; address 0x1000 + 6 + 133 = 0x108b.
    // (Folding sgpr_offset 6 into the offset would give offset 7 → 167.) Structured 9 < 100.
    row(
        "swz sgpr_offset not swizzled",
        In {
            vsharp: vsharp(Desc { element_size: 1, ..SWZ }),
            idxen: true,
            vgpr_index: 9,
            inst_offset: 1,
            sgpr_offset: 6,
            bytes: 1,
            ..RAW
        },
        out(0x108b, 0b1),
    ),
    // ---- §2.2 stride extension.
    // non_format, add_tid_en: stride = {dfmt 3, 0x10} = 3*16384 + 16 = 0xc010; index = tid 5;
    // 5*0xc010 + 8 = 0x3c050 + 8 = 0x3c058 → 0x100000 + 0x3c058 = 0x13c058. Scratch: in range
    // although num_records = 0. dfmt 3: bound.
    row("ext stride non_format scratch", SCRATCH_IN, out(0x13_c058, 0b1)),
    // atomic x2 counts as non-format for §2.2: same address; scratch → both dwords in.
    row("ext stride atomic x2 scratch", In { access: ATOMIC, bytes: 8, ..SCRATCH_IN }, out(0x13_c058, 0b11)),
    // The same V# for a format access: stride = 0x10 only: 5*16 + 8 = 88 = 0x58 → 0x100058.
    row("same V# format: 14-bit stride", In { access: FORMAT, ..SCRATCH_IN }, out(0x10_0058, 0b1)),
    // dfmt 0 under the extension: dfmt holds stride bits → bound; stride {0, 0x10} = 16 →
    // 5*16 + 8 = 0x58 → 0x100058; scratch → in range.
    row(
        "ext dfmt 0 non_format: bound",
        In { vsharp: vsharp(Desc { dfmt: 0, ..SCRATCH }), ..SCRATCH_IN },
        out(0x10_0058, 0b1),
    ),
    // The same dfmt-0 V# as a format access: no extension → unbound, in_range 0; address 0x100058.
    row(
        "ext dfmt 0 format: unbound",
        In { vsharp: vsharp(Desc { dfmt: 0, ..SCRATCH }), access: FORMAT, ..SCRATCH_IN },
        Out { unbound: true, ..out(0x10_0058, 0) },
    ),
    // ---- §2.4 range kinds.
    // structured: 4*16 + 8 = 72 = 0x48 → 0x2048; vgpr_index 4 < 5 → in.
    row(
        "structured in",
        In { vsharp: vsharp(STRUCT), idxen: true, vgpr_index: 4, inst_offset: 8, ..RAW },
        out(0x2048, 1),
    ),
    // structured: 5*16 + 8 = 88 = 0x58 → 0x2058; 5 >= 5 → out.
    row(
        "structured out",
        In { vsharp: vsharp(STRUCT), idxen: true, vgpr_index: 5, inst_offset: 8, ..RAW },
        out(0x2058, 0),
    ),
    // structured ignores the offset: offset = 0x10000 + 0xfff = 0x10fff; 4*16 + 0x10fff = 0x1103f;
    // 0x2000 + 0x1103f = 0x1303f → aligned 0x1303c; dwordx4, 4 < 5 → all four dwords in.
    row(
        "structured ignores offset, x4",
        In {
            vsharp: vsharp(STRUCT),
            idxen: true,
            vgpr_index: 4,
            offen: true,
            vgpr_offset: 0x1_0000,
            inst_offset: 0xfff,
            bytes: 16,
            ..RAW
        },
        out(0x1_303c, 0b1111),
    ),
    // stride 0 → raw: 100*0 + 4 = 4 → 0x2004; range [4, 7], 7 < num_records 0x10 → in
    // (a structured check would say 100 >= 16: out).
    row(
        "structured stride 0 is raw: in",
        In {
            vsharp: vsharp(Desc { stride: 0, num_records: 0x10, ..STRUCT }),
            idxen: true,
            vgpr_index: 100,
            inst_offset: 4,
            ..RAW
        },
        out(0x2004, 1),
    ),
    // stride 0 → raw: offset 0xd, [0xd, 0x10], 0x10 >= 0x10 → out (structured: 2 < 16 in);
    // address 0x200d → 0x200c.
    row(
        "structured stride 0 is raw: out",
        In {
            vsharp: vsharp(Desc { stride: 0, num_records: 0x10, ..STRUCT }),
            idxen: true,
            vgpr_index: 2,
            inst_offset: 0xd,
            ..RAW
        },
        out(0x200c, 0),
    ),
    // raw with a stride but idxen 0: 0*16 + 0xfc → 0x20fc; [0xfc, 0xff] vs num_records 0x100 → in.
    row(
        "raw: stride without idxen, in",
        In { vsharp: vsharp(Desc { stride: 16, num_records: 0x100, ..STRUCT }), inst_offset: 0xfc, ..RAW },
        out(0x20fc, 1),
    ),
    // ... [0xfd, 0x100] → out; 0x20fd → 0x20fc.
    row(
        "raw: stride without idxen, out",
        In { vsharp: vsharp(Desc { stride: 16, num_records: 0x100, ..STRUCT }), inst_offset: 0xfd, ..RAW },
        out(0x20fc, 0),
    ),
    // structured with tid (format: 14-bit stride 16): index 2 + 2 = 4 < 5 in; 4*16 = 0x40 → 0x3040.
    row(
        "structured tid in",
        In { vsharp: vsharp(STRUCT_TID), access: FORMAT, idxen: true, vgpr_index: 2, tid: 2, ..RAW },
        out(0x3040, 1),
    ),
    // index 3 + 2 = 5 >= 5 → out (vgpr_index 3 alone would be in); 5*16 = 0x50 → 0x3050.
    row(
        "structured tid out (tid counted)",
        In { vsharp: vsharp(STRUCT_TID), access: FORMAT, idxen: true, vgpr_index: 3, tid: 2, ..RAW },
        out(0x3050, 0),
    ),
    // index = 0xffffffff + 2 = 1 (32-bit wrap) < 5 → in; 1*16 → 0x3010.
    row(
        "structured tid: index wraps",
        In { vsharp: vsharp(STRUCT_TID), access: FORMAT, idxen: true, vgpr_index: 0xffff_ffff, tid: 2, ..RAW },
        out(0x3010, 1),
    ),
    // non_format on the same V#: stride = {dfmt 4, 16} = 4*16384 + 16 = 65552; index 1 + 1 = 2 < 5
    // in; 2*65552 = 131104 = 0x20020 → 0x3000 + 0x20020 = 0x23020.
    row(
        "structured tid non_format: 18-bit stride",
        In { vsharp: vsharp(STRUCT_TID), idxen: true, vgpr_index: 1, tid: 1, ..RAW },
        out(0x2_3020, 1),
    ),
    // raw dword: offset 0x40 + 4 = 0x44; 0x1000 + 0x10 + 0x44 = 0x1054; [0x44, 0x47] < 0x100 in.
    row("raw dword", In { offen: true, vgpr_offset: 0x40, inst_offset: 4, sgpr_offset: 0x10, ..RAW }, out(0x1054, 1)),
    // ---- §2.4 per-dword raw edges (non_format, num_records 0x100, base 0x1000).
    // x2 at 0xf8: dwords end 0xfb, 0xff (= N-1) → 0b11.
    row("raw x2 last dword at N-1", at(NON_FORMAT, 8, 0xf8), out(0x10f8, 0b11)),
    // x2 at 0xf9: ends 0xfc in, 0x100 (= N) out → 0b01; 0x10f9 → 0x10f8.
    row("raw x2 last dword at N", at(NON_FORMAT, 8, 0xf9), out(0x10f8, 0b01)),
    // x3 at 0xf4: ends 0xf7, 0xfb, 0xff → 0b111.
    row("raw x3 last dword at N-1", at(NON_FORMAT, 12, 0xf4), out(0x10f4, 0b111)),
    // x3 at 0xf5: ends 0xf8, 0xfc, 0x100 → 0b011; 0x10f5 → 0x10f4.
    row("raw x3 last dword at N", at(NON_FORMAT, 12, 0xf5), out(0x10f4, 0b011)),
    // x4 at 0xf0: ends 0xf3, 0xf7, 0xfb, 0xff → 0b1111.
    row("raw x4 last dword at N-1", at(NON_FORMAT, 16, 0xf0), out(0x10f0, 0b1111)),
    // x4 at 0xf1: ends 0xf4, 0xf8, 0xfc, 0x100 → 0b0111; 0x10f1 → 0x10f0.
    row("raw x4 last dword at N", at(NON_FORMAT, 16, 0xf1), out(0x10f0, 0b0111)),
    // x4 at 0xf9: ends 0xfc in; 0x100, 0x104, 0x108 out → 0b0001; 0x10f9 → 0x10f8.
    row("raw x4 three dwords out", at(NON_FORMAT, 16, 0xf9), out(0x10f8, 0b0001)),
    // x4, num_records 0xffffffff, base 0, offset 0xfffffff4: ends 0xfffffff7, 0xfffffffb in;
    // 0xffffffff and 0x1_00000003 (exact, no wrap) out → 0b0011.
    row(
        "raw x4 range does not wrap",
        In {
            vsharp: vsharp(Desc { base: 0, num_records: 0xffff_ffff, ..BOUND }),
            offen: true,
            vgpr_offset: 0xffff_fff4,
            bytes: 16,
            ..RAW
        },
        out(0xffff_fff4, 0b0011),
    ),
    // ---- §2.4 all-or-nothing: format (element size = bytes) and atomics.
    // format dfmt 14 (16 bytes) at 0xf0: [0xf0, 0xff] → 0b1111.
    row("format x4 end N-1", fmt_at(14, 16, 0xf0), out(0x10f0, 0b1111)),
    // at 0xf1: [0xf1, 0x100] → out, all dwords 0 (non_format would give 0b0111); 0x10f0.
    row("format x4 end N", fmt_at(14, 16, 0xf1), out(0x10f0, 0)),
    // format dfmt 13 (12 bytes) at 0xf4: [0xf4, 0xff] → 0b111.
    row("format x3 end N-1", fmt_at(13, 12, 0xf4), out(0x10f4, 0b111)),
    // at 0xf5: [0xf5, 0x100] → 0; 0x10f5 → 0x10f4.
    row("format x3 end N", fmt_at(13, 12, 0xf5), out(0x10f4, 0)),
    // format dfmt 2 (2 bytes) at 0xfe: [0xfe, 0xff] in; bytes 2: no alignment → 0x10fe.
    row("format 2-byte end N-1", fmt_at(2, 2, 0xfe), out(0x10fe, 1)),
    // at 0xff: [0xff, 0x100] out; 0x10ff.
    row("format 2-byte end N", fmt_at(2, 2, 0xff), out(0x10ff, 0)),
    // atomic x2 at 0xf8: [0xf8, 0xff] → 0b11.
    row("atomic x2 end N-1", at(ATOMIC, 8, 0xf8), out(0x10f8, 0b11)),
    // atomic x2 at 0xf9: [0xf9, 0x100] → 0b00 (non_format would give 0b01); 0x10f9 → 0x10f8.
    row("atomic x2 end N", at(ATOMIC, 8, 0xf9), out(0x10f8, 0)),
    // atomic at 0xfc: [0xfc, 0xff] → in.
    row("atomic x1 end N-1", at(ATOMIC, 4, 0xfc), out(0x10fc, 1)),
    // atomic at 0xfd: [0xfd, 0x100] → out; 0x10fd → 0x10fc.
    row("atomic x1 end N", at(ATOMIC, 4, 0xfd), out(0x10fc, 0)),
    // ---- §2.4 non-format 1/2/4 bytes: one range [offset, offset + bytes - 1].
    // ubyte at 0xff: [0xff, 0xff] in; 0x10ff (bytes 1: no alignment).
    row("ubyte end N-1", at(NON_FORMAT, 1, 0xff), out(0x10ff, 1)),
    // ubyte at 0x100: [0x100, 0x100] out; 0x1100.
    row("ubyte end N", at(NON_FORMAT, 1, 0x100), out(0x1100, 0)),
    // ushort at 0xfe: [0xfe, 0xff] in; 0x10fe.
    row("ushort end N-1", at(NON_FORMAT, 2, 0xfe), out(0x10fe, 1)),
    // ushort at 0xff: [0xff, 0x100] out; 0x10ff.
    row("ushort end N", at(NON_FORMAT, 2, 0xff), out(0x10ff, 0)),
    // dword at 0xfc: [0xfc, 0xff] in.
    row("dword end N-1", at(NON_FORMAT, 4, 0xfc), out(0x10fc, 1)),
    // dword at 0xfd: [0xfd, 0x100] out; 0x10fd → 0x10fc.
    row("dword end N", at(NON_FORMAT, 4, 0xfd), out(0x10fc, 0)),
    // ---- §2.1 32-bit offset wrap, §2.3 48-bit address wrap.
    // offset = 0xfffffff0 + 0x20 = 0x1_00000010 → 0x10; [0x10, 0x13] in; 0x1000 + 0x10 = 0x1010.
    row("offset wraps at 2^32", In { offen: true, vgpr_offset: 0xffff_fff0, inst_offset: 0x20, ..RAW }, out(0x1010, 1)),
    // num_records 0xffffffff, base 0, offset 0xfffffffe: hi = 0x1_00000001 (exact) >= N → out;
    // address 0xfffffffe → 0xfffffffc.
    row(
        "raw range computed exactly past 2^32",
        In {
            vsharp: vsharp(Desc { base: 0, num_records: 0xffff_ffff, ..BOUND }),
            offen: true,
            vgpr_offset: 0xffff_fffe,
            ..RAW
        },
        out(0xffff_fffc, 0),
    ),
    // 0xffff_ffff_ff00 + 0x200 + 0x10 = 0x1_0000_0000_0110 → mod 2^48 = 0x110; [0x10, 0x13] in.
    row(
        "address wraps at 2^48",
        In { vsharp: vsharp(Desc { base: 0xffff_ffff_ff00, ..BOUND }), sgpr_offset: 0x200, inst_offset: 0x10, ..RAW },
        out(0x110, 1),
    ),
    // Linear product past 48 bits: add_tid_en, non_format → stride {dfmt 15, 0x3fff} = 0x3ffff;
    // index = 0xffffffc0 + 63 = 0xffffffff; (2^32-1)(2^18-1) = 2^50 - 2^32 - 2^18 + 1 =
    // 0x3_fffe_fffc_0001; + base 0x1000 = 0x3_fffe_fffc_1001 → mod 2^48 0xfffe_fffc_1001 →
    // aligned 0xfffe_fffc_1000. Structured tid: 0xffffffff >= 0xffffffff → out.
    row(
        "linear index*stride past 2^48",
        In {
            vsharp: vsharp(Desc { stride: 0x3fff, dfmt: 15, add_tid_en: true, num_records: 0xffff_ffff, ..BOUND }),
            idxen: true,
            vgpr_index: 0xffff_ffc0,
            tid: 63,
            ..RAW
        },
        out(0xfffe_fffc_1000, 0),
    ),
    // Swizzled past 48 bits: E=16, S=64, stride {dfmt 15, 0x3ff0} = 0x3fff0 (mod 16 = 0), ubyte.
    // index 0xffffffff → msb 0x3ffffff, lsb 63; offset 0xfffffff0 + 0xf = 0xffffffff → msb
    // 0xfffffff, lsb 15 (15 + 1 <= 16: legal). 0x3ffffff*0x3fff0 = 0xfff_bffc_0010;
    // 0xfffffff*16 = 0xffff_fff0; sum 0x1000_bffc_0000; *64 = 0x4_002f_ff00_0000; + 63*16 + 15
    // = 0x3ff → 0x4_002f_ff00_03ff; + base 0x1000 → mod 2^48 = 0x2f_ff00_13ff. Structured tid:
    // out.
    row(
        "swizzled buffer_offset past 2^48",
        In {
            vsharp: vsharp(Desc {
                stride: 0x3ff0,
                dfmt: 15,
                add_tid_en: true,
                swizzle_en: true,
                element_size: 3,
                index_stride: 3,
                num_records: 0xffff_ffff,
                ..BOUND
            }),
            idxen: true,
            vgpr_index: 0xffff_ffc0,
            tid: 63,
            offen: true,
            vgpr_offset: 0xffff_fff0,
            inst_offset: 0xf,
            bytes: 1,
            ..RAW
        },
        out(0x2f_ff00_13ff, 0),
    ),
    // ---- §2.3 dword alignment (bytes >= 4 only); ranges from the unaligned offset.
    // 0x1001 + 2 + 0x13 = 0x1016 → dword: 0x1014; [0x13, 0x16] vs N 0x17 → in.
    row("align dword", ALIGN_IN, out(0x1014, 1)),
    // ushort: 0x1016 unchanged; [0x13, 0x14] in.
    row("align ushort: none", In { bytes: 2, ..ALIGN_IN }, out(0x1016, 1)),
    // ubyte: 0x1016 unchanged; [0x13, 0x13] in.
    row("align ubyte: none", In { bytes: 1, ..ALIGN_IN }, out(0x1016, 1)),
    // dwordx2: 0x1014; dword ends 0x16 in, 0x1a >= 0x17 out → 0b01.
    row("align x2: unaligned ranges", In { bytes: 8, ..ALIGN_IN }, out(0x1014, 0b01)),
    // ---- §2.5 LDS (memory side raw on BOUND: address 0x1000 + inst_offset).
    // 2*128 + m0[15:0] 0x10 + 8 + 3*4 = 256 + 16 + 8 + 12 = 292 = 0x124; window end (2+1)*128 =
    // 384; 296 <= 384 → in. Memory [8, 11] in; 0x1008 (tid not in the index: add_tid_en 0).
    row(
        "lds in",
        In { lds: true, lds_base: 2, lds_size: 1, m0: 0xabcd_0010, inst_offset: 8, tid: 3, ..RAW },
        Out { lds_address: 0x124, lds_in_range: true, ..out(0x1008, 1) },
    ),
    // m0[15:0] 0x68: 256 + 104 + 8 + 12 = 380; 380 + 4 = 384 = (2+1)*128 → in.
    row(
        "lds end of window: in",
        In { lds: true, lds_base: 2, lds_size: 1, m0: 0xffff_0068, inst_offset: 8, tid: 3, ..RAW },
        Out { lds_address: 380, lds_in_range: true, ..out(0x1008, 1) },
    ),
    // m0[15:0] 0x69: 381 (unaligned, kept); 385 > 384 → out.
    row(
        "lds end of window + 1: out",
        In { lds: true, lds_base: 2, lds_size: 1, m0: 0xffff_0069, inst_offset: 8, tid: 3, ..RAW },
        Out { lds_address: 381, lds_in_range: false, ..out(0x1008, 1) },
    ),
    // lds_size 0: 2*128 = 256; window [256, 255] empty; 260 > 256 → out.
    row(
        "lds size 0: out",
        In { lds: true, lds_base: 2, lds_size: 0, ..RAW },
        Out { lds_address: 256, lds_in_range: false, ..out(0x1000, 1) },
    ),
    // Largest lds_address: 511*128 + 0xffff + 0xfff + 63*4 = 65408 + 65535 + 4095 + 252 = 135290
    // = 0x2107a (18 bits); window end (511+511)*128 = 130816 < 135294 → out. Memory: offset 0xfff,
    // [0xfff, 0x1002] >= 0x100 out; 0x1fff → 0x1ffc.
    row(
        "lds max address",
        In { lds: true, lds_base: 511, lds_size: 511, m0: 0xffff_ffff, inst_offset: 0xfff, tid: 63, ..RAW },
        Out { lds_address: 0x2_107a, lds_in_range: false, ..out(0x1ffc, 0) },
    ),
    // Top of the largest window: 511*128 = 65408; 65412 <= 130816 → in.
    row(
        "lds base 511 size 511: in",
        In { lds: true, lds_base: 511, lds_size: 511, ..RAW },
        Out { lds_address: 65408, lds_in_range: true, ..out(0x1000, 1) },
    ),
    // lds = 0: LDS outputs are 0/0 whatever the other LDS inputs.
    row(
        "lds 0 gives 0/0",
        In { lds: false, lds_base: 2, lds_size: 1, m0: 0x10, inst_offset: 8, tid: 3, ..RAW },
        out(0x1008, 1),
    ),
    // ---- §1.1 unbound.
    // dfmt 0: unbound, in_range 0; address 0x1000 + 8 = 0x1008 still computed; LDS still
    // computed: 1*128 + 8 = 136, 140 <= (1+1)*128 = 256 → in.
    row(
        "unbound raw, lds still computed",
        In { vsharp: vsharp(Desc { dfmt: 0, ..BOUND }), inst_offset: 8, lds: true, lds_base: 1, lds_size: 1, ..RAW },
        Out { unbound: true, lds_address: 136, lds_in_range: true, ..out(0x1008, 0) },
    ),
    // dfmt 0, structured format access (1 < 5 would be in): unbound, 0; address 0x2000 + 1*16.
    row(
        "unbound structured format",
        In { vsharp: vsharp(Desc { dfmt: 0, ..STRUCT }), access: FORMAT, idxen: true, vgpr_index: 1, ..RAW },
        Out { unbound: true, ..out(0x2010, 0) },
    ),
    // All-zero V#: base 0, dfmt 0 → unbound; address 0x30 + 8 = 0x38; swizzle off → legal.
    row(
        "all-zero V#",
        In { vsharp: 0, sgpr_offset: 0x30, offen: true, vgpr_offset: 8, ..RAW },
        Out { unbound: true, ..out(0x38, 0) },
    ),
    // dfmt 15 is not 0: bound for this unit (§2.4: the format unit catches invalid formats).
    row("dfmt 15: bound here", In { vsharp: vsharp(Desc { dfmt: 15, ..BOUND }), ..RAW }, out(0x1000, 1)),
    // ---- §2.3 illegal swizzles (address still computed).
    // E=2 (code 0), S=8, stride 16, index 9 → msb 1, lsb 1; offset 0; dword: 4 > E=2 → illegal.
    // (1*16 + 0)*8 + 1*2 + 0 = 130 = 0x82 → 0x1082 → 0x1080. Structured 9 < 100 → in.
    row(
        "swz illegal: bytes > E",
        In { vsharp: vsharp(SWZ), idxen: true, vgpr_index: 9, ..RAW },
        Out { illegal: true, ..out(0x1080, 1) },
    ),
    // E=4, S=8, offset 7 → msb 1, lsb 3; ushort: 3 + 2 = 5 > 4 → illegal.
    // (1*16 + 1*4)*8 + 1*4 + 3 = 160 + 7 = 167 = 0xa7 → 0x10a7.
    row(
        "swz illegal: offset_lsb + bytes > E",
        In {
            vsharp: vsharp(Desc { element_size: 1, ..SWZ }),
            idxen: true,
            vgpr_index: 9,
            inst_offset: 7,
            bytes: 2,
            ..RAW
        },
        Out { illegal: true, ..out(0x10a7, 1) },
    ),
    // Legal neighbour: offset 6 → lsb 2; 2 + 2 = 4 <= 4. 160 + 4 + 2 = 166 = 0xa6 → 0x10a6.
    row(
        "swz legal: offset_lsb + bytes = E",
        In {
            vsharp: vsharp(Desc { element_size: 1, ..SWZ }),
            idxen: true,
            vgpr_index: 9,
            inst_offset: 6,
            bytes: 2,
            ..RAW
        },
        out(0x10a6, 1),
    ),
    // E=8, S=8, stride 20: 20 mod 8 = 4 → illegal. (1*20 + 0)*8 + 1*8 + 0 = 168 = 0xa8 → 0x10a8.
    row(
        "swz illegal: stride mod E",
        In { vsharp: vsharp(Desc { element_size: 2, stride: 20, ..SWZ }), idxen: true, vgpr_index: 9, ..RAW },
        Out { illegal: true, ..out(0x10a8, 1) },
    ),
    // Legal neighbour: stride 24 (mod 8 = 0): 24*8 + 8 = 200 = 0xc8 → 0x10c8.
    row(
        "swz legal: stride multiple of E",
        In { vsharp: vsharp(Desc { element_size: 2, stride: 24, ..SWZ }), idxen: true, vgpr_index: 9, ..RAW },
        out(0x10c8, 1),
    ),
    // swizzle_en 0: element_size/stride rules do not apply; linear 9*20 = 180 = 0xb4 → 0x10b4;
    // dwordx4 (16 > 2 would be illegal if swizzled); structured 9 < 100 → all dwords in.
    row(
        "swizzle off: no element rules",
        In {
            vsharp: vsharp(Desc { swizzle_en: false, element_size: 0, stride: 20, ..SWZ }),
            idxen: true,
            vgpr_index: 9,
            bytes: 16,
            ..RAW
        },
        out(0x10b4, 0b1111),
    ),
    // ---- sgpr_offset is not range-checked: [0, 3] vs num_records 4 → in although
    // sgpr_offset = 0xffffffff; 0x1000 + 0xffffffff = 0x1_00000fff → 0x1_00000ffc.
    row(
        "sgpr_offset not range-checked",
        In { vsharp: vsharp(Desc { num_records: 4, ..BOUND }), sgpr_offset: 0xffff_ffff, ..RAW },
        out(0x1_0000_0ffc, 1),
    ),
    // ---- reserved encodings (rust/buffer_addr.rs module doc).
    // access 3: illegal, range per dword as non_format: x2 at 0xf9 → 0b01 (cf. "raw x2 last dword
    // at N"); 0x10f8.
    row("access 3: per-dword like non_format", at(RESERVED, 8, 0xf9), Out { illegal: true, ..out(0x10f8, 0b01) }),
    // access 3 on the scratch V#: 18-bit stride as non_format → 0x13c058 (cf. row above), illegal.
    row(
        "access 3: 18-bit stride like non_format",
        In { access: RESERVED, ..SCRATCH_IN },
        Out { illegal: true, ..out(0x13_c058, 0b1) },
    ),
    // bytes 3: illegal, in_range 0; 3 < 4 → no alignment: 0x1013.
    row("bytes 3 reserved", at(NON_FORMAT, 3, 0x13), Out { illegal: true, ..out(0x1013, 0) }),
    // bytes 20: illegal, in_range 0 (also bits above dword 3 do not exist); 20 >= 4 → 0x1010.
    row("bytes 20 reserved", at(NON_FORMAT, 20, 0x13), Out { illegal: true, ..out(0x1010, 0) }),
    // bytes 0: illegal, in_range 0 even on a scratch buffer; 0 < 4 → no alignment, and the scratch
    // address 0x100000 + 5*0xc010 + 8 = 0x13c058 (cf. "ext stride non_format scratch").
    row("bytes 0 reserved, scratch", In { bytes: 0, ..SCRATCH_IN }, Out { illegal: true, ..out(0x13_c058, 0) }),
    // ---- bits with no effect: cache_swizzle, nv, type 3, unnamed bits, other dst_sel/nfmt.
    // Same as "raw dword" without sgpr_offset: 0x1000 + 0x44 = 0x1044; in.
    row(
        "ignored V# bits",
        In {
            vsharp: vsharp(Desc {
                cache_swizzle: true,
                nv: true,
                ty: 3,
                unnamed: 0b11111,
                dst_sel: [1, 0, 2, 3],
                nfmt: 7,
                ..BOUND
            }),
            inst_offset: 0x44,
            ..RAW
        },
        out(0x1044, 1),
    ),
];

// ---------------------------------------------------------------------------------------------
// Helpers.
// ---------------------------------------------------------------------------------------------

fn lockstep() -> Lockstep<BufferAddr, Rtl> {
    common::lockstep::<Harness>()
}

fn named(name: &str) -> &'static Row {
    ROWS.iter().find(|r| r.name == name).unwrap_or_else(|| panic!("no row {name}"))
}

fn mismatch_text(l: &Lockstep<BufferAddr, Rtl>) -> String {
    l.mismatches
        .iter()
        .map(|m| {
            let s = &Out::SIGNALS[m.signal];
            format!("cycle {} {}: model {} rtl {}", m.cycle, s.name, s.hex(m.expected), s.hex(m.actual))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Checks the outputs recorded at `cycle` (both sides) against `expect`; returns a complaint.
fn check(l: &Lockstep<BufferAddr, Rtl>, cycle: usize, expect: &Out, what: &str) -> Option<String> {
    let c = &l.record.as_ref().expect("recording")[cycle];
    if c.expected == *expect && c.actual == *expect {
        return None;
    }
    Some(format!(
        "{what} (cycle {cycle}):\n  in:    {}\n  spec:  {}\n  model: {}\n  rtl:   {}",
        c.input.render(),
        expect.render(),
        c.expected.render(),
        c.actual.render()
    ))
}

/// All outputs after reset: every register 0.
const ZERO: Out =
    Out { valid: false, address: 0, in_range: 0, unbound: false, illegal: false, lds_address: 0, lds_in_range: false };

/// An invalid cycle with every other input set to junk that would change every output.
fn junk(k: u32) -> In {
    In {
        valid: false,
        vsharp: !0u128 ^ u128::from(k),
        inst_offset: 0xabc,
        offen: true,
        idxen: true,
        access: 3,
        bytes: 7,
        lds: true,
        sgpr_offset: 0xdead_beef ^ k,
        vgpr_index: 0x1234_5678,
        vgpr_offset: 0x8765_4321,
        tid: 63,
        m0: 0xffff_ffff,
        lds_base: 511,
        lds_size: 3,
    }
}

// ---------------------------------------------------------------------------------------------
// 1. + 2. Directed table: model and RTL agree, both equal the hand-computed values; snapshot.
// ---------------------------------------------------------------------------------------------

#[test]
fn directed_table_is_well_formed() {
    // At least 16 swizzle rows, distinct names, every row a valid input.
    common::assert_unique_names(ROWS.iter().map(|r| r.name));
    assert!(ROWS.iter().all(|r| r.input.valid && r.expect.valid));
    assert_eq!(ROWS.iter().filter(|r| r.name.starts_with("swz E")).count(), 16);
}

/// One lockstep run per row; the result of the input at step 0 is the output of step 1.
#[test]
fn directed_rows_one_by_one() {
    let mut l = lockstep().recording();
    let mut failures = Vec::new();
    for r in ROWS {
        if !l.run(&[r.input]) {
            failures.push(format!("{}: model and RTL disagree:\n{}", r.name, mismatch_text(&l)));
        }
        let lat = BufferAddr::LATENCY - 1;
        failures.extend(check(&l, 0, &ZERO, &format!("{}: output before the result", r.name)));
        failures.extend(check(&l, lat, &r.expect, r.name));
        // After the last valid input the outputs hold its data with valid = 0.
        failures.extend(check(&l, lat + 1, &Out { valid: false, ..r.expect }, &format!("{}: hold", r.name)));
    }
    assert!(failures.is_empty(), "{} failure(s):\n{}", failures.len(), failures.join("\n"));
}

/// The whole table back to back (one valid input per cycle), checked row by row and
/// snapshotted as a trace.
#[test]
fn directed_table_back_to_back_trace() {
    let mut l = lockstep().recording();
    let inputs: Vec<In> = ROWS.iter().map(|r| r.input).collect();
    let same = l.run(&inputs);
    assert!(same, "model and RTL disagree:\n{}", mismatch_text(&l));
    let record = l.record.as_ref().unwrap();
    assert_eq!(record.len(), ROWS.len() + BufferAddr::LATENCY);
    let mut failures = Vec::new();
    failures.extend(check(&l, 0, &ZERO, "first cycle after reset"));
    for (j, r) in ROWS.iter().enumerate() {
        failures.extend(check(&l, j + BufferAddr::LATENCY - 1, &r.expect, r.name));
    }
    assert!(failures.is_empty(), "{} failure(s):\n{}", failures.len(), failures.join("\n"));
    // Row names beside the trace so a reviewer can map cycles to rows.
    let mut text = common::row_headings::<Harness>(ROWS.iter().map(|r| r.name));
    text.push_str(&trace(record));
    insta::assert_snapshot!("directed_trace", text);
}

/// The directed table is sharp enough to catch the test-only broken RTL (cosim/units.txt
/// `mutant=TestBreakSwizzle`, rtl/test/buffer_addr_mut.svh: drops the `index_lsb * E` term), and
/// only on swizzled rows with index_lsb != 0.
#[test]
fn directed_table_catches_the_mutant() {
    let rtl =
        Rtl::open(&RtlOptions { variant: Variant::Mutant, ..RtlOptions::default() }).expect("open the mutant RTL");
    let mut l = Lockstep::new(BufferAddr::default(), rtl);
    let mut caught = Vec::new();
    for r in ROWS {
        if !l.run(&[r.input]) {
            caught.push(r.name);
        }
    }
    assert!(!caught.is_empty(), "the mutant RTL passed the whole directed table");
    for name in ["swz E2 S8", "swz E16 S64", "swz sgpr_offset not swizzled", "swz illegal: stride mod E"] {
        assert!(caught.contains(&name), "mutant not caught by {name}; caught by {caught:?}");
    }
    assert!(caught.iter().all(|n| n.starts_with("swz") || n.contains("swizzled")), "{caught:?}");
}

// ---------------------------------------------------------------------------------------------
// 3. Pipeline behaviour.
// ---------------------------------------------------------------------------------------------

/// Back-to-back valid inputs: one result per cycle, in order, each one step after its input.
#[test]
fn pipeline_back_to_back() {
    let rows =
        ["raw dword", "swz E16 S64", "lds in", "all-zero V#", "swz illegal: bytes > E", "raw x4 last dword at N"];
    let mut l = lockstep().recording();
    let inputs: Vec<In> = rows.iter().map(|n| named(n).input).collect();
    assert!(l.run(&inputs), "{}", mismatch_text(&l));
    let mut failures = Vec::new();
    failures.extend(check(&l, 0, &ZERO, "reset value"));
    for (j, n) in rows.iter().enumerate() {
        failures.extend(check(&l, j + 1, &named(n).expect, n));
    }
    // Then the idle cycle: valid drops, data hold the last result.
    let last = named(rows[rows.len() - 1]).expect;
    failures.extend(check(&l, rows.len() + 1, &Out { valid: false, ..last }, "idle after the stream"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Bubbles: valid = 0 cycles with junk inputs do not disturb the data outputs, which hold the
/// last valid result with valid = 0.
#[test]
fn pipeline_bubbles_hold_last_result() {
    let a = named("lds end of window: in");
    let b = named("format x4 end N-1");
    let c = named("unbound raw, lds still computed");
    let inputs = [a.input, junk(1), junk(2), junk(3), b.input, junk(4), c.input, junk(5)];
    let mut l = lockstep().recording();
    assert!(l.run(&inputs), "{}", mismatch_text(&l));
    let hold = |o: &Out| Out { valid: false, ..*o };
    let expect = [
        ZERO,            // 0: reset
        a.expect,        // 1: result of a
        hold(&a.expect), // 2..4: bubbles
        hold(&a.expect),
        hold(&a.expect),
        b.expect,        // 5: result of b
        hold(&b.expect), // 6: bubble
        c.expect,        // 7: result of c
        hold(&c.expect), // 8: bubble
        hold(&c.expect), // 9: idle (run's drain)
    ];
    let record = l.record.as_ref().unwrap();
    assert_eq!(record.len(), expect.len());
    let failures: Vec<String> =
        expect.iter().enumerate().filter_map(|(k, e)| check(&l, k, e, &format!("cycle {k}"))).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A bubble as the very first cycle keeps the reset values (nothing valid has arrived yet).
#[test]
fn pipeline_bubbles_after_reset_stay_zero() {
    let mut l = lockstep().recording();
    assert!(l.run(&[junk(7), junk(8), junk(9)]), "{}", mismatch_text(&l));
    let failures: Vec<String> = (0..5).filter_map(|k| check(&l, k, &ZERO, &format!("cycle {k}"))).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Reset in the middle of a stream clears both stages: a result in flight (in stage 1) and the
/// one on the outputs never appear afterwards.
#[test]
fn pipeline_reset_mid_stream() {
    let a = named("raw dword");
    let b = named("swz E4 S32");
    let c = named("lds in");
    let mut l = lockstep().recording();
    l.reset();
    let mut ok = true;
    ok &= l.step(&a.input); // a enters stage 1
    ok &= l.step(&b.input); // a on the outputs, b in stage 1
    assert!(ok, "{}", mismatch_text(&l));
    let mut failures = Vec::new();
    failures.extend(check(&l, 1, &a.expect, "a before reset"));
    // Reset (clears the record and mismatches too); b was in flight.
    l.reset();
    let mut ok = true;
    ok &= l.step(&junk(1));
    ok &= l.step(&junk(2));
    ok &= l.step(&c.input);
    ok &= l.step(&junk(3));
    assert!(ok, "{}", mismatch_text(&l));
    failures.extend(check(&l, 0, &ZERO, "first cycle after reset (b must not appear)"));
    failures.extend(check(&l, 1, &ZERO, "second cycle after reset"));
    failures.extend(check(&l, 2, &ZERO, "c in stage 1"));
    failures.extend(check(&l, 3, &c.expect, "c after reset"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// 4. Random lockstep property.
// ---------------------------------------------------------------------------------------------

/// Random cases of the unit's own stimulus (bubbles and mid-run resets included): model and RTL
/// agree on every output of every cycle (tests/common/mod.rs).
#[test]
fn random_cases_agree_in_lockstep() {
    common::random_cases_agree::<Harness>(2000);
}

// ---------------------------------------------------------------------------------------------
// 5. The random stimulus reaches the corners.
// ---------------------------------------------------------------------------------------------

/// The input fields the corner relations need, decoded here from §1.1's bit positions.
struct Fields {
    stride14: u32,
    swizzle_en: bool,
    num_records: u32,
    dfmt: u32,
    element_size: u32,
    index_stride: u32,
    add_tid_en: bool,
}

fn fields(v: u128) -> Fields {
    let bits = |lo: u32, width: u32| ((v >> lo) & ((1u128 << width) - 1)) as u32;
    Fields {
        stride14: bits(48, 14),
        swizzle_en: bits(63, 1) != 0,
        num_records: bits(64, 32),
        dfmt: bits(111, 4),
        element_size: bits(115, 2),
        index_stride: bits(117, 2),
        add_tid_en: bits(119, 1) != 0,
    }
}

#[test]
fn stimulus_reaches_corners() {
    const SAMPLES: u64 = 20_000;
    let (mut raw, mut raw_edge) = (0u64, 0u64);
    let (mut swz, mut swz_edge) = (0u64, 0u64);
    let (mut lds, mut lds_edge) = (0u64, 0u64);
    let (mut dfmt0, mut unbound) = (0u64, 0u64);
    let (mut structured, mut structured_edge) = (0u64, 0u64);
    let mut pairs = [[0u64; 4]; 4];
    for i in common::stimulus_samples::<Harness>(SAMPLES as usize) {
        let f = fields(i.vsharp);
        let offset = i64::from((if i.offen { i.vgpr_offset } else { 0 }).wrapping_add(u32::from(i.inst_offset)));
        let non_format_like = i.access != FORMAT;
        let extended = f.add_tid_en && non_format_like;
        let stride = if extended { f.dfmt << 14 | f.stride14 } else { f.stride14 };
        let nr = i64::from(f.num_records);
        // §2.4 kind.
        let is_raw = !f.add_tid_en && (!i.idxen || stride == 0);
        if is_raw {
            raw += 1;
            let bytes = i64::from(i.bytes);
            let per_dword = (i.access == NON_FORMAT || i.access == RESERVED) && bytes >= 8;
            let ends: Vec<i64> = if per_dword {
                (0..(bytes.min(16) + 3) / 4).map(|k| offset + 4 * k + 3).collect()
            } else {
                vec![offset + bytes - 1]
            };
            if ends.iter().any(|e| (e - nr).abs() <= 8) {
                raw_edge += 1;
            }
        }
        if !f.add_tid_en && i.idxen && stride != 0 {
            structured += 1;
            if (i64::from(i.vgpr_index) - nr).abs() <= 2 {
                structured_edge += 1;
            }
        }
        if f.swizzle_en {
            swz += 1;
            pairs[f.element_size as usize][f.index_stride as usize] += 1;
            let s = 8u32 << f.index_stride;
            let r = i.vgpr_index % s;
            if r.min(s - r) <= 2 {
                swz_edge += 1;
            }
        }
        if i.lds {
            lds += 1;
            let addr = i64::from(i.lds_base) * 128
                + i64::from(i.m0 & 0xffff)
                + i64::from(i.inst_offset)
                + i64::from(i.tid) * 4;
            let end = (i64::from(i.lds_base) + i64::from(i.lds_size)) * 128;
            if (addr + 4 - end).abs() <= 128 {
                lds_edge += 1;
            }
        }
        if f.dfmt == 0 {
            dfmt0 += 1;
            if !extended {
                unbound += 1;
            }
        }
    }
    let report = format!(
        "raw edge {:.1}% of {raw}; swizzled index edge {:.1}% of {swz}; lds window edge {:.1}% of {lds}; \
         dfmt 0 {:.1}%, unbound {:.1}% of {SAMPLES}; structured edge {:.1}% of {structured}; \
         E×S pairs (swizzled) {pairs:?}",
        common::pct(raw_edge, raw),
        common::pct(swz_edge, swz),
        common::pct(lds_edge, lds),
        common::pct(dfmt0, SAMPLES),
        common::pct(unbound, SAMPLES),
        common::pct(structured_edge, structured),
    );
    println!("{report}");
    let mut short = Vec::new();
    if common::pct(raw_edge, raw) < 5.0 {
        short.push("num_records within ±8 of a raw range end < 5% of raw samples");
    }
    if common::pct(swz_edge, swz) < 20.0 {
        short.push("vgpr_index within ±2 of a multiple of index_stride < 20% of swizzled samples");
    }
    if common::pct(lds_edge, lds) < 10.0 {
        short.push("lds_address + 4 within ±128 of the window end < 10% of lds samples");
    }
    if common::pct(unbound, SAMPLES) < 5.0 {
        short.push("unbound (dfmt 0, no §2.2 extension) < 5% of samples");
    }
    if pairs.iter().flatten().any(|&n| n == 0) {
        short.push("an element_size × index_stride pair never seen");
    }
    assert!(short.is_empty(), "under-reached corners: {short:?}\n{report}");
}

/// Every assertion of rtl/buffer_addr.sv is compiled into the lockstep builds and can fire: on the
/// break-asserts build each one fails and is reported by name (docs/checks.md "RTL assertions").
#[test]
fn every_assertion_fires_and_is_reported() {
    common::assertions_fire::<Harness>(&["InRangePrefix_A", "LdsAddressBound_A", "UnboundNotInRange_A"]);
}

// ---------------------------------------------------------------------------------------------
// 6. Functional coverage: the declared bins (rust/buffer_addr.rs `cover`).
// ---------------------------------------------------------------------------------------------

/// The `point: bin` names `input` (with the model's result) falls in.
fn bins_of(input: &In) -> Vec<String> {
    common::bins_hit::<BufferAddr>(input, &gcn_vmem_model::buffer_addr::compute(input))
}

fn assert_bins(what: &str, input: &In, expected: &[&str]) {
    common::assert_in_bins(what, &bins_of(input), expected, false);
}

/// Hand-chosen inputs land in the bins SPEC §2 puts them in (expectations from the spec).
#[test]
fn directed_inputs_hit_their_bins() {
    // Swizzled structured (idxen, add_tid 0, stride 16 ≠ 0, E = 4, S = 8): vgpr_index 10 with
    // num_records 10 is out of range (§2.4: vgpr_index >= num_records), right at the limit.
    let swz = Desc { swizzle_en: true, stride: 16, element_size: 1, index_stride: 0, num_records: 10, ..BOUND };
    let i = In { vsharp: vsharp(swz), idxen: true, vgpr_index: 10, ..RAW };
    assert_bins(
        "swizzled structured past num_records",
        &i,
        &[
            "buffer kind x range (§2.4): swizzled structured: out of range",
            "range limit edges: structured: vgpr_index = num_records (out)",
            "swizzled element_size x index_stride: E=4 S=8",
            "swizzle x idxen x offen x add_tid: swizzled idxen=1 offen=0 add_tid=0",
        ],
    );
    // The same with index 9: in range, last record.
    let i = In { vgpr_index: 9, ..i };
    assert_bins(
        "swizzled structured last record",
        &i,
        &[
            "buffer kind x range (§2.4): swizzled structured: in range",
            "range limit edges: structured: vgpr_index = num_records - 1 (in)",
        ],
    );
    // Raw dwordx4 at 0x3c, num_records 0x48: dwords end 0x3f, 0x43, 0x47 (in), 0x4b (out).
    let i = In { vsharp: vsharp(Desc { num_records: 0x48, ..BOUND }), inst_offset: 0x3c, bytes: 16, ..RAW };
    assert_bins(
        "raw dwordx4 straddling num_records",
        &i,
        &[
            "raw non_format per-dword in_range: x4: 3 of 4 in range (partial)",
            "buffer kind x range (§2.4): linear raw: out of range",
            "access x bytes: non_format 16 (dwordx4)",
        ],
    );
    // A dword at 0x44 ends at 0x47 = num_records − 1 (in); at 0x45 it ends at 0x48 (out).
    let dword = In { inst_offset: 0x44, bytes: 4, ..i };
    assert_bins("raw last byte", &dword, &["range limit edges: raw: last byte = num_records - 1 (in)"]);
    let dword = In { inst_offset: 0x45, ..dword };
    assert_bins(
        "raw one past",
        &dword,
        &[
            "range limit edges: raw: last byte = num_records (out)",
            "raw single range x verdict: non_format 1/2/4 out: straddles num_records",
        ],
    );
    // A format access of the same range is all or nothing (§2.4): out, straddling.
    let i = In { access: FORMAT, ..i };
    assert_bins("raw format straddling", &i, &["raw single range x verdict: format out: straddles num_records"]);
    // Stride 0 with idxen and add_tid 0: checked as raw (§12).
    let i = In { idxen: true, vgpr_index: 1000, ..RAW };
    assert_bins(
        "stride 0 structured",
        &i,
        &[
            "stride 0 with idxen=1 (§2.4, §12): add_tid=0: checked as raw",
            "buffer kind x range (§2.4): linear raw: in range",
        ],
    );
    // dfmt 0 with add_tid on a non-format access: the 18-bit stride, bound (§1.1, §2.2); scratch.
    let scratch = Desc { dfmt: 0, add_tid_en: true, ..BOUND };
    let i = In { vsharp: vsharp(scratch), tid: 5, ..RAW };
    assert_bins(
        "scratch with dfmt 0",
        &i,
        &[
            "dfmt 0 (§1.1, §2.2): non_format, add_tid: bound (18-bit stride)",
            "add_tid stride (§2.2): non_format/atomic: 18-bit stride, dfmt = 0",
            "buffer kind x range (§2.4): linear scratch: in range (never checked)",
        ],
    );
    // The same V# on a format access is unbound.
    let i = In { access: FORMAT, ..i };
    assert_bins("format with dfmt 0", &i, &["dfmt 0 (§1.1, §2.2): format, add_tid: unbound"]);
    // Structured with tid: vgpr_index 0xffff_fffe + tid 3 wraps to 1 (< num_records 0x100).
    let tid_row = Desc { add_tid_en: true, stride: 4, ..BOUND };
    let i = In { vsharp: vsharp(tid_row), idxen: true, vgpr_index: 0xffff_fffe, tid: 3, ..RAW };
    assert_bins(
        "tid index wraps",
        &i,
        &[
            "wraps: structured tid: index wraps at 2^32 (vgpr_index + tid)",
            "buffer kind x range (§2.4): linear structured tid: in range",
        ],
    );
    // Swizzled E = 4 with a dwordx2: bytes > element_size is illegal (§2.3).
    let i = In { vsharp: vsharp(Desc { swizzle_en: true, element_size: 1, stride: 16, ..BOUND }), bytes: 8, ..RAW };
    assert_bins("swizzled x2 on 4-byte elements", &i, &["illegal reason: swizzled: bytes > element_size"]);
    // Swizzled E = 4, stride 6: not a multiple of E.
    let i = In { vsharp: vsharp(Desc { swizzle_en: true, element_size: 1, stride: 6, ..BOUND }), ..RAW };
    assert_bins("swizzled stride 6", &i, &["illegal reason: swizzled: stride not a multiple of element_size"]);
    // LDS (§2.5): base 1, size 1 is [128, 255]; m0 124 puts the dword at [252, 255] (in, at the
    // end); m0 126 at [254, 257] (straddles); size 0 is an empty window.
    let lds = In { lds: true, lds_base: 1, lds_size: 1, m0: 124, ..RAW };
    assert_bins(
        "lds at the window end",
        &lds,
        &[
            "LDS (§2.5): in range",
            "LDS (§2.5): in range, last byte at the window's last byte",
            "LDS x memory verdict: lds in range memory in range",
        ],
    );
    assert_bins("lds straddling", &In { m0: 126, ..lds }, &["LDS (§2.5): out: straddles the window end"]);
    assert_bins("lds empty", &In { lds_size: 0, ..lds }, &["LDS (§2.5): out: empty window (lds_size 0)"]);
    // The address wraps modulo 2^48: base 2^48 − 16, offset 32.
    let i = In { vsharp: vsharp(Desc { base: (1 << 48) - 16, ..BOUND }), inst_offset: 32, ..RAW };
    assert_bins("address wrap", &i, &["wraps: buffer_offset carries the address past 2^48"]);
}

/// The random stimulus hits every declared bin within an eighth of the default budget (250
/// chunks of 4,096 vectors of seed 1, model only, the same cases a lockstep run drives).
#[test]
fn random_stimulus_hits_every_bin() {
    common::every_bin_hit::<Harness>(250);
}
