//! Functional coverage (rust/cover.rs): the bins `make cosim` must hit, declared from SPEC §1.1
//! and §2 (not from the RTL). Range, kind and swizzle bins count only bound, legal accesses
//! (`unbound` and `illegal` low): their verdicts are the ones §2.4 defines.

use std::hint::select_unpredictable;

use super::{In, Out, ACCESS_ATOMIC, ACCESS_FORMAT, ACCESS_NAMES, ACCESS_NON_FORMAT, BYTES_LEGAL};
use crate::cover::{Covergroup, Hits};
use crate::vsharp::VSharp;

/// The coverpoints, in declaration order.
#[repr(usize)]
enum Point {
    Access,
    Addressing,
    KindRange,
    StrideZero,
    ScratchStride,
    Dfmt0,
    AccessBytes,
    RawRange,
    PerDword,
    RangeEdge,
    Wrap,
    ElementIndexStride,
    Illegal,
    Lds,
    LdsMemory,
}

/// §2.4's buffer kinds, in table order.
const KIND_SCRATCH: usize = 0;
const KIND_STRUCTURED: usize = 1;
const KIND_STRUCTURED_TID: usize = 2;
const KIND_RAW: usize = 3;

const KIND_RANGE: &[&str] = &[
    "linear scratch: in range (never checked)",
    "linear structured: in range",
    "linear structured: out of range",
    "linear structured tid: in range",
    "linear structured tid: out of range",
    "linear raw: in range",
    "linear raw: out of range",
    "swizzled scratch: in range (never checked)",
    "swizzled structured: in range",
    "swizzled structured: out of range",
    "swizzled structured tid: in range",
    "swizzled structured tid: out of range",
    "swizzled raw: in range",
    "swizzled raw: out of range",
];
/// Index into [`KIND_RANGE`] of (kind, out of range) within one addressing half; scratch has
/// no out-of-range bin.
const fn kind_range_bin(kind: usize, out: bool) -> usize {
    match kind {
        KIND_SCRATCH => 0,
        _ => 2 * kind - 1 + out as usize,
    }
}

const ACCESS_BYTES: &[&str] = &[
    "format 1",
    "format 2",
    "format 4",
    "format 8",
    "format 12",
    "format 16",
    "non_format 1 (byte)",
    "non_format 2 (short)",
    "non_format 4 (dword)",
    "non_format 8 (dwordx2)",
    "non_format 12 (dwordx3)",
    "non_format 16 (dwordx4)",
    "atomic 4",
    "atomic 8 (_X2)",
];

pub fn covergroup() -> Covergroup {
    Covergroup::new()
        .point(Point::Access as usize, "access", ACCESS_NAMES)
        .cross(
            Point::Addressing as usize,
            "swizzle x idxen x offen x add_tid",
            &[&["linear", "swizzled"], &["idxen=0", "idxen=1"], &["offen=0", "offen=1"], &["add_tid=0", "add_tid=1"]],
        )
        .point(Point::KindRange as usize, "buffer kind x range (§2.4)", KIND_RANGE)
        .point(
            Point::StrideZero as usize,
            "stride 0 with idxen=1 (§2.4, §12)",
            ["add_tid=0: checked as raw", "add_tid=1: checked by index (tid row)"],
        )
        .point(
            Point::ScratchStride as usize,
            "add_tid stride (§2.2)",
            [
                "format: 14-bit stride",
                "non_format/atomic: 18-bit stride, dfmt != 0",
                "non_format/atomic: 18-bit stride, dfmt = 0",
            ],
        )
        .point(
            Point::Dfmt0 as usize,
            "dfmt 0 (§1.1, §2.2)",
            [
                "format: unbound",
                "format, add_tid: unbound",
                "non_format: unbound",
                "non_format, add_tid: bound (18-bit stride)",
                "atomic: unbound",
                "atomic, add_tid: bound (18-bit stride)",
            ],
        )
        .point(Point::AccessBytes as usize, "access x bytes", ACCESS_BYTES)
        .cross(
            Point::RawRange as usize,
            "raw single range x verdict",
            &[
                &["non_format 1/2/4", "format", "atomic"],
                &["in range", "out: straddles num_records", "out: starts at or past num_records"],
            ],
        )
        .point(
            Point::PerDword as usize,
            "raw non_format per-dword in_range",
            [
                "x2: 0 of 2 in range",
                "x2: 1 of 2 in range (partial)",
                "x2: 2 of 2 in range",
                "x3: 0 of 3 in range",
                "x3: 1 of 3 in range (partial)",
                "x3: 2 of 3 in range (partial)",
                "x3: 3 of 3 in range",
                "x4: 0 of 4 in range",
                "x4: 1 of 4 in range (partial)",
                "x4: 2 of 4 in range (partial)",
                "x4: 3 of 4 in range (partial)",
                "x4: 4 of 4 in range",
            ],
        )
        .point(
            Point::RangeEdge as usize,
            "range limit edges",
            [
                "raw: last byte = num_records - 1 (in)",
                "raw: last byte = num_records (out)",
                "structured: vgpr_index = num_records - 1 (in)",
                "structured: vgpr_index = num_records (out)",
                "structured tid: index = num_records - 1 (in)",
                "structured tid: index = num_records (out)",
            ],
        )
        .point(
            Point::Wrap as usize,
            "wraps",
            [
                "offset wraps at 2^32 (vgpr_offset + inst_offset)",
                "structured tid: index wraps at 2^32 (vgpr_index + tid)",
                "raw: range ends past 2^32 (exact, out of range)",
                "base + sgpr_offset carries past 2^48",
                "buffer_offset carries the address past 2^48",
            ],
        )
        .cross(
            Point::ElementIndexStride as usize,
            "swizzled element_size x index_stride",
            &[&["E=2", "E=4", "E=8", "E=16"], &["S=8", "S=16", "S=32", "S=64"]],
        )
        .point(
            Point::Illegal as usize,
            "illegal reason",
            [
                "access reserved (3)",
                "bytes outside {1, 2, 4, 8, 12, 16}",
                "swizzled: bytes > element_size",
                "swizzled: offset_lsb + bytes > element_size (bytes <= element_size)",
                "swizzled: stride not a multiple of element_size",
            ],
        )
        .point(
            Point::Lds as usize,
            "LDS (§2.5)",
            [
                "lds = 0",
                "in range",
                "in range, last byte at the window's last byte",
                "out: straddles the window end",
                "out: wholly past the window end",
                "out: empty window (lds_size 0)",
            ],
        )
        .cross(
            Point::LdsMemory as usize,
            "LDS x memory verdict",
            &[&["lds in range", "lds out of range"], &["memory in range", "memory out of range", "unbound"]],
        )
}

/// Where each `bytes` value is in [`BYTES_LEGAL`], by value ([`NOT_LEGAL`] for the others).
const BYTES_POSITION: [u8; 32] = {
    let mut table = [NOT_LEGAL; 32];
    let mut k = 0;
    while k < BYTES_LEGAL.len() {
        table[BYTES_LEGAL[k] as usize] = k as u8;
        k += 1;
    }
    table
};
const NOT_LEGAL: u8 = u8::MAX;

/// The `access x bytes` bin of (access, position of bytes in [`BYTES_LEGAL`]), or [`NOT_LEGAL`]
/// where the pair has no bin (atomics are 4 or 8 bytes; access 3 is reserved).
const ACCESS_BYTES_BIN: [[u8; 6]; 4] =
    [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11], [NOT_LEGAL, NOT_LEGAL, 12, 13, NOT_LEGAL, NOT_LEGAL], [NOT_LEGAL; 6]];

/// Counts one access's bins. The conditions that random stimulus makes a coin toss (the V# and
/// instruction flags, the reserved codes) go to [`Hits::hit_if`] and table lookups rather than
/// branches: a mispredicted branch costs more than counting into the unowned slot. The rare and
/// the nested conditions stay branches.
pub fn sample(input: &In, out: &Out, hits: &mut Hits) {
    // The V#'s fields (shifts and masks: rust/bits.rs).
    let v = VSharp::decode(input.vsharp);
    let access = input.access & 0x3;
    let bytes = u32::from(input.bytes) & 0x1f;
    let tid = u32::from(input.tid) & 0x3f;
    let inst_offset = u32::from(input.inst_offset) & 0xfff;
    hits.hit(Point::Access as usize, usize::from(access));
    let coords = [v.swizzle_en, input.idxen, input.offen, v.add_tid_en].map(usize::from);
    hits.hit_cross(Point::Addressing as usize, &coords);

    // §2.2: the stride in force.
    let extended = v.add_tid_en & (access != ACCESS_FORMAT);
    let stride = u32::from(v.stride) | select_unpredictable(extended, u32::from(v.dfmt) << 14, 0);
    let legal_access = access <= ACCESS_ATOMIC;
    hits.hit_if(
        (v.dfmt == 0) & legal_access,
        Point::Dfmt0 as usize,
        2 * usize::from(access) + usize::from(v.add_tid_en),
    );
    let position = BYTES_POSITION[bytes as usize];
    let legal_bytes = position != NOT_LEGAL;
    let access_bytes = ACCESS_BYTES_BIN[usize::from(access)][usize::from(position) % 6];
    hits.hit_if(legal_bytes & (access_bytes != NOT_LEGAL), Point::AccessBytes as usize, usize::from(access_bytes));

    // §2.1, §2.3: the offset, and the illegal reasons.
    let (offset_vgpr, offset_wraps) =
        select_unpredictable(input.offen, input.vgpr_offset, 0).overflowing_add(inst_offset);
    let offset = u64::from(offset_vgpr);
    hits.hit_if(offset_wraps, Point::Wrap as usize, 0);
    let e = 2u64 << v.element_size;
    hits.hit_if(!legal_access, Point::Illegal as usize, 0);
    hits.hit_if(!legal_bytes, Point::Illegal as usize, 1);
    let b = u64::from(bytes);
    let wider = b > e;
    hits.hit_if(v.swizzle_en & wider, Point::Illegal as usize, 2);
    hits.hit_if(v.swizzle_en & !wider & ((offset & (e - 1)) + b > e), Point::Illegal as usize, 3);
    hits.hit_if(v.swizzle_en & (u64::from(stride) & (e - 1) != 0), Point::Illegal as usize, 4);

    // §2.3: the 48-bit address wraps.
    let base_sgpr = v.base + u64::from(input.sgpr_offset);
    let carries = base_sgpr >> 48 != 0;
    hits.hit_if(carries, Point::Wrap as usize, 3);
    hits.hit_if(!carries & (out.address < base_sgpr & !0x3), Point::Wrap as usize, 4);

    // §2.5.
    let start = u32::from(input.lds_base & 0x1ff) * 128;
    let size = u32::from(input.lds_size & 0x1ff);
    let (a, end) = (out.lds_address, start + size * 128);
    let fits = a + 4 <= end;
    let outside = select_unpredictable(size == 0, 5, select_unpredictable(a < end, 3, 4));
    hits.hit(Point::Lds as usize, select_unpredictable(input.lds, select_unpredictable(fits, 1, outside), 0));
    hits.hit_if(input.lds & (a + 4 == end), Point::Lds as usize, 2);

    if out.illegal {
        return;
    }
    let memory = select_unpredictable(out.unbound, 2, usize::from(out.in_range & 1 == 0));
    hits.hit_cross_if(input.lds & (bytes <= 4), Point::LdsMemory as usize, &[usize::from(!out.lds_in_range), memory]);
    if out.unbound {
        return;
    }

    // §2.4 on a bound, legal access.
    let sizes = [usize::from(v.element_size), usize::from(v.index_stride)];
    hits.hit_cross_if(v.swizzle_en, Point::ElementIndexStride as usize, &sizes);
    let scratch_stride = usize::from(extended) * (1 + usize::from(v.dfmt == 0));
    hits.hit_if(v.add_tid_en, Point::ScratchStride as usize, scratch_stride);
    hits.hit_if(input.idxen & (stride == 0), Point::StrideZero as usize, usize::from(v.add_tid_en));
    let kind = match (v.add_tid_en, input.idxen) {
        (true, false) => KIND_SCRATCH,
        (true, true) => KIND_STRUCTURED_TID,
        (false, true) if stride != 0 => KIND_STRUCTURED,
        _ => KIND_RAW,
    };
    let dwords = bytes.div_ceil(4);
    let all = (1u8 << dwords) - 1;
    let half = if v.swizzle_en { KIND_RANGE.len() / 2 } else { 0 };
    let num_records = u64::from(v.num_records);
    match kind {
        KIND_SCRATCH => hits.hit(Point::KindRange as usize, half),
        KIND_STRUCTURED | KIND_STRUCTURED_TID => {
            hits.hit(Point::KindRange as usize, half + kind_range_bin(kind, out.in_range == 0));
            let (index, wrapped) = if kind == KIND_STRUCTURED {
                (u64::from(input.vgpr_index), false)
            } else {
                let (index, wrapped) = input.vgpr_index.overflowing_add(tid);
                (u64::from(index), wrapped)
            };
            if wrapped {
                hits.hit(Point::Wrap as usize, 1);
            }
            let edge = 2 * (kind - KIND_STRUCTURED) + 2;
            if index + 1 == num_records {
                hits.hit(Point::RangeEdge as usize, edge);
            } else if index == num_records {
                hits.hit(Point::RangeEdge as usize, edge + 1);
            }
        }
        _ => {
            hits.hit(Point::KindRange as usize, half + kind_range_bin(KIND_RAW, out.in_range != all));
            let last = offset + u64::from(bytes) - 1;
            if last + 1 == num_records {
                hits.hit(Point::RangeEdge as usize, 0);
            } else if last == num_records {
                hits.hit(Point::RangeEdge as usize, 1);
            }
            if last >> 32 != 0 {
                hits.hit(Point::Wrap as usize, 2);
            }
            if access == ACCESS_NON_FORMAT && bytes >= 8 {
                let first = match dwords {
                    2 => 0,
                    3 => 3,
                    _ => 7,
                };
                hits.hit(Point::PerDword as usize, first + out.in_range.count_ones() as usize);
            } else {
                let class = match access {
                    ACCESS_NON_FORMAT => 0,
                    ACCESS_FORMAT => 1,
                    _ => 2,
                };
                let verdict = if last < num_records {
                    0
                } else if offset < num_records {
                    1
                } else {
                    2
                };
                hits.hit_cross(Point::RawRange as usize, &[class, verdict]);
            }
        }
    }
}
