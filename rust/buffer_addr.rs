//! `buffer_addr`: the per-lane buffer address calculator of MUBUF/MTBUF accesses.
//!
//! Spec: docs/spec.md §2  RTL: rtl/buffer_addr.sv  Tests: tests/buffer_addr.rs
//!
//! From a V# (§1.1) and one lane's offsets it computes the 48-bit memory address (linear or
//! swizzled, §2.1–§2.3), a per-dword range verdict (§2.4), the unbound and illegal flags, and for
//! MUBUF `lds = 1` loads the LDS address and its range verdict (§2.5).
//!
//! Decisions where the spec is silent (docs/decisions.md):
//! - `access = 3` is reserved: it raises `illegal` and otherwise behaves as `non_format`.
//! - `bytes` outside {1, 2, 4, 8, 12, 16} raises `illegal` and gives `in_range = 0`; the address
//!   (with `bytes >= 4` forcing bits 1:0 to 0 on the literal count) and the LDS outputs are
//!   computed normally.
//! - An access covers max(1, ceil(bytes / 4)) dwords; `in_range` bits above those are 0.
//!
//! Timing: `LATENCY = 2`. Stage 1 registers the computed outputs with the input's valid; the
//! output stage registers stage 1. `valid` shifts every edge; the data registers of a stage load
//! only when the valid entering it is 1 and hold otherwise, so the data outputs show the most
//! recent valid result to reach the output stage (0 after reset). Reset clears every register.

use crate::ports;
use crate::unit::{eval_object, pick, pipelined_unit, Kind};

use crate::vsharp::VSharp;

/// `access` codes (SPEC §2); 3 is reserved (computes as non_format and raises `illegal`).
pub const ACCESS_NAMES: &[&str] = &["format", "non_format", "atomic", "reserved"];
/// Legal `bytes` values (SPEC §2).
pub const BYTES_LEGAL: &[u32] = &[1, 2, 4, 8, 12, 16];

/// `access` code of MUBUF *_FORMAT_* and MTBUF accesses.
pub const ACCESS_FORMAT: u8 = 0;
/// `access` code of MUBUF non-format accesses (ubyte … dwordx4).
pub const ACCESS_NON_FORMAT: u8 = 1;
/// `access` code of buffer atomics.
pub const ACCESS_ATOMIC: u8 = 2;
/// Reserved `access` code.
pub const ACCESS_RESERVED: u8 = 3;

ports! {
    /// Inputs of `buffer_addr`, in RTL port order.
    pub struct In {
        valid: bool;
        vsharp: u128, Kind::Hex;
        inst_offset: u16 = 12;
        offen: bool;
        idxen: bool;
        access: u8 = 2, Kind::Enum(ACCESS_NAMES);
        bytes: u8 = 5, Kind::OneOf(BYTES_LEGAL);
        lds: bool;
        sgpr_offset: u32;
        vgpr_index: u32;
        vgpr_offset: u32;
        tid: u8 = 6;
        m0: u32;
        lds_base: u16 = 9;
        lds_size: u16 = 9;
    }
}
ports! {
    /// Outputs of `buffer_addr`, in RTL port order.
    pub struct Out {
        valid: bool;
        address: u64 = 48;
        in_range: u8 = 4;
        unbound: bool;
        illegal: bool;
        lds_address: u32 = 18;
        lds_in_range: bool;
    }
}

/// Addresses are modulo 2^48.
const ADDRESS_MASK: u64 = (1 << 48) - 1;
/// LDS allocations are in units of 128 bytes.
const LDS_GRANULE: u32 = 128;

/// SPEC §2.4's buffer kinds, in the table's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BufferKind {
    /// add_tid_en = 1, idxen = 0: never out of range.
    Scratch,
    /// add_tid_en = 0, idxen = 1, stride != 0: `vgpr_index >= num_records` is out of range.
    Structured,
    /// add_tid_en = 1, idxen = 1, any stride: `index >= num_records` (tid included).
    StructuredTid,
    /// Every other case: a byte range is out of range when its last byte `>= num_records`.
    Raw,
}

impl BufferKind {
    /// SPEC §2.4: the table's rows tried top to bottom, the first that matches decides; `stride`
    /// is §2.2's.
    fn of(add_tid_en: bool, idxen: bool, stride: u64) -> BufferKind {
        match (add_tid_en, idxen) {
            (true, false) => BufferKind::Scratch,
            (false, true) if stride != 0 => BufferKind::Structured,
            (true, true) => BufferKind::StructuredTid,
            _ => BufferKind::Raw,
        }
    }
}

/// The combinational function of SPEC §2 for one lane; `valid` is passed through.
pub fn compute(input: &In) -> Out {
    // Inputs narrower than their Rust type are masked to the port width first.
    let inst_offset = u32::from(input.inst_offset) & 0xfff;
    let access = input.access & 0x3;
    let bytes = u32::from(input.bytes) & 0x1f;
    let tid = u32::from(input.tid) & 0x3f;
    let lds_base = u32::from(input.lds_base) & 0x1ff;
    let lds_size = u32::from(input.lds_size) & 0x1ff;
    let v = VSharp::decode(input.vsharp);

    // Reserved encodings: access 3 computes as non_format; bytes outside the legal set compute
    // the address and LDS outputs but are never in range.
    let access_reserved = access == ACCESS_RESERVED;
    let bytes_reserved = !BYTES_LEGAL.contains(&bytes);
    // §2: atomics (and the reserved code) count as MUBUF non-format accesses for §1.1 and §2.2.
    let non_format_like = access != ACCESS_FORMAT;

    // §2.2: the 18-bit scratch stride {dfmt, stride} when add_tid_en and non-format/atomic.
    let extended_stride = v.add_tid_en && non_format_like;
    let stride = if extended_stride { u64::from(v.dfmt) << 14 | u64::from(v.stride) } else { u64::from(v.stride) };

    // §1.1: dfmt 0 is unbound, except when dfmt holds stride bits (§2.2).
    let unbound = v.dfmt == 0 && !extended_stride;

    // §2.1: index and offset, 32 bits, wrapping.
    let index_vgpr = pick(input.idxen, input.vgpr_index, 0);
    let index_tid = if v.add_tid_en { tid } else { 0 };
    let index = index_vgpr.wrapping_add(index_tid);
    let offset_vgpr = pick(input.offen, input.vgpr_offset, 0);
    let offset = offset_vgpr.wrapping_add(inst_offset);

    // §2.3: buffer_offset, exact (at most 54 bits): linear, or swizzled with E = element_size
    // bytes and S = index_stride records (both powers of two).
    let (index, offset) = (u64::from(index), u64::from(offset));
    let e = 2u64 << v.element_size;
    let s = 8u64 << v.index_stride;
    let linear = index * stride + offset;
    let (index_msb, index_lsb) = (index / s, index % s);
    let (offset_msb, offset_lsb) = (offset / e, offset % e);
    let swizzled = (index_msb * stride + offset_msb * e) * s + index_lsb * e + offset_lsb;
    let buffer_offset = pick(v.swizzle_en, swizzled, linear);

    // §2.3: a swizzled access may not cross an element, and the stride must be a multiple of E.
    let bytes64 = u64::from(bytes);
    let crosses_element = bytes64 > e || offset_lsb + bytes64 > e || stride % e != 0;
    let illegal = access_reserved || bytes_reserved || (v.swizzle_en && crosses_element);

    // §2.3: address = base + sgpr_offset + buffer_offset, modulo 2^48; dword-aligned when
    // bytes >= 4 (the literal count, reserved values included).
    let address = (v.base + u64::from(input.sgpr_offset) + buffer_offset) & ADDRESS_MASK;
    let address = if bytes >= 4 { address & !0x3 } else { address };

    // §2.4: the access's dwords, max(1, ceil(bytes / 4)), and one verdict applied to all of them.
    let dwords = bytes.div_ceil(4).clamp(1, 4);
    let access_mask: u8 = (1 << dwords) - 1;
    let all_or_nothing = |in_range: bool| if in_range { access_mask } else { 0 };

    // §2.4: the verdict of each row of the table, compared exactly with num_records.
    let num_records = u64::from(v.num_records);
    // The structured rows: §2.1's index, vgpr_index (+ tid in the tid row), >= num_records is out.
    let structured = all_or_nothing(index < num_records);
    // Raw: non-format dwordx2/x3/x4 (and the reserved access code, which checks as non_format)
    // check each dword i, [offset + 4i, offset + 4i + 3]; the other accesses, atomics included,
    // one range [offset, offset + bytes - 1].
    let dword_in_range = |i: u64| u8::from(offset + 4 * i + 3 < num_records) << i;
    let raw_per_dword = (dword_in_range(0) | dword_in_range(1) | dword_in_range(2) | dword_in_range(3)) & access_mask;
    let raw_single = all_or_nothing(offset + bytes64 <= num_records);
    let per_dword = matches!(access, ACCESS_NON_FORMAT | ACCESS_RESERVED) & (bytes >= 8);
    let raw = if per_dword { raw_per_dword } else { raw_single };
    // The first row that matches decides (scratch is never out of range); unbound accesses and
    // reserved byte counts are never in range.
    let kind = BufferKind::of(v.add_tid_en, input.idxen, stride);
    let checked = pick(kind == BufferKind::Raw, raw, structured);
    let by_kind = pick(kind == BufferKind::Scratch, access_mask, checked);
    let in_range = if unbound || bytes_reserved { 0 } else { by_kind };

    // §2.5: lds = 1: the LDS address, exact (at most 18 bits), in range when its 4 bytes lie
    // inside the wave's allocation; lds = 0 outputs 0.
    let lds_address = lds_base * LDS_GRANULE + (input.m0 & 0xffff) + inst_offset + tid * 4;
    let lds_fits = lds_address + 4 <= (lds_base + lds_size) * LDS_GRANULE;
    let (lds_address, lds_in_range) = pick(input.lds, (lds_address, lds_fits), (0, false));

    Out { valid: input.valid, address, in_range, unbound, illegal, lds_address, lds_in_range }
}

pipelined_unit! {
    /// The cycle-accurate model: two register stages, compute before stage 1.
    pub struct BufferAddr { NAME: "buffer_addr", LATENCY: 2 }
}

// Functional coverage bins: rust/buffer_addr/cover.rs.
pub mod cover;

// The unit's `eval` object (SPEC §13): its input ports in, this object out.
eval_object!(BufferAddr, |input, out| {
    // One range bit per dword the access reads (SPEC §2.4).
    let dwords = usize::from(input.bytes).div_ceil(4).clamp(1, 4);
    let in_range: Vec<bool> = (0..dwords).map(|i| out.in_range >> i & 1 != 0).collect();
    eval::object([
        ("address", Value::from(out.address)),
        ("in_range", Value::from(in_range)),
        ("unbound", Value::from(out.unbound)),
        ("illegal", Value::from(out.illegal)),
        ("lds_address", Value::from(out.lds_address)),
        ("lds_in_range", Value::from(out.lds_in_range)),
    ])
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unit::{testing, Unit};
    use crate::vsharp::VSharp;
    use proptest::prelude::*;

    /// A bound (dfmt 4 = 32, nfmt 4 = uint) linear V#, identity dst_sel.
    fn vsharp(base: u64, stride: u16, num_records: u32) -> VSharp {
        VSharp { base, stride, num_records, dst_sel: [4, 5, 6, 7], nfmt: 4, dfmt: 4, ..VSharp::default() }
    }

    fn input(v: VSharp) -> In {
        In { valid: true, vsharp: v.encode(), access: ACCESS_NON_FORMAT, bytes: 4, ..In::default() }
    }

    #[test]
    fn port_tables_match_the_rtl() {
        assert_eq!(testing::port_widths::<In>().len(), 15);
        assert_eq!(
            testing::port_widths::<Out>(),
            [
                ("valid", 1),
                ("address", 48),
                ("in_range", 4),
                ("unbound", 1),
                ("illegal", 1),
                ("lds_address", 18),
                ("lds_in_range", 1),
            ]
        );
    }

    /// Raw dword load: offset = vgpr_offset 0x40 + inst_offset 4 = 0x44; address = base 0x1000 +
    /// sgpr_offset 0x10 + 0x44 = 0x1054. Range [0x44, 0x47], 0x47 < 0x100: in range (1 dword).
    #[test]
    fn raw_dword() {
        let i =
            In { offen: true, vgpr_offset: 0x40, inst_offset: 4, sgpr_offset: 0x10, ..input(vsharp(0x1000, 0, 0x100)) };
        let o = compute(&i);
        assert_eq!(o.address, 0x1054);
        assert_eq!(o.in_range, 0b0001);
        assert!(o.valid && !o.unbound && !o.illegal);
        assert_eq!((o.lds_address, o.lds_in_range), (0, false));
    }

    /// Raw non-format ranges end at the last byte: num_records 0x48.
    /// - ushort at 0x46: [0x46, 0x47] in; at 0x47: [0x47, 0x48], 0x48 >= 0x48 out.
    /// - dwordx4 at 0x3c: dwords end at 0x3f, 0x43, 0x47 (in) and 0x4b (out) → 0b0111.
    /// - dwordx3 at 0x3e (unaligned): ends 0x41, 0x45 in, 0x49 out → 0b011; address 0x3c.
    /// - the same ranges as a format access (bytes 16) or an atomic x2 at 0x44 ([0x44, 0x4b]):
    ///   all or nothing → 0.
    #[test]
    fn raw_granularity() {
        let v = vsharp(0, 0, 0x48);
        let run = |access, bytes, off| compute(&In { access, bytes, inst_offset: off, ..input(v) });
        assert_eq!(run(ACCESS_NON_FORMAT, 2, 0x46).in_range, 0b1);
        assert_eq!(run(ACCESS_NON_FORMAT, 2, 0x47).in_range, 0b0);
        assert_eq!(run(ACCESS_NON_FORMAT, 16, 0x3c).in_range, 0b0111);
        let x3 = run(ACCESS_NON_FORMAT, 12, 0x3e);
        assert_eq!((x3.in_range, x3.address), (0b011, 0x3c));
        assert_eq!(run(ACCESS_FORMAT, 16, 0x3c).in_range, 0);
        assert_eq!(run(ACCESS_FORMAT, 16, 0x38).in_range, 0b1111); // ends 0x47
        assert_eq!(run(ACCESS_ATOMIC, 8, 0x44).in_range, 0);
        assert_eq!(run(ACCESS_ATOMIC, 8, 0x40).in_range, 0b11); // ends 0x47
    }

    /// Raw checks are exact from the wrapped 32-bit offset: vgpr_offset 0xffff_fff0 +
    /// inst_offset 0x20 wraps to offset 0x10 (in range of 0x100); offset 0xffff_fffe with 4 bytes
    /// ends at 0x1_0000_0001, which does not wrap and is out of range even of 0xffff_ffff.
    #[test]
    fn raw_offset_wraps_but_range_does_not() {
        let o = compute(&In {
            offen: true,
            vgpr_offset: 0xffff_fff0,
            inst_offset: 0x20,
            ..input(vsharp(0x5000, 0, 0x100))
        });
        assert_eq!((o.address, o.in_range), (0x5010, 1));
        let o = compute(&In { offen: true, vgpr_offset: 0xffff_fffe, ..input(vsharp(0, 0, u32::MAX)) });
        assert_eq!((o.address, o.in_range), (0xffff_fffc, 0));
    }

    /// Structured: stride 16, vgpr_index 4, offset 8: address = 0x2000 + 4*16 + 8 = 0x2048.
    /// num_records 5 records: index 4 in, index 5 out, whatever the offset (0x1000 here).
    /// With stride 0 the same access is raw: range [8, 11], 11 >= 5 → out.
    #[test]
    fn structured() {
        let s = In { idxen: true, vgpr_index: 4, inst_offset: 8, ..input(vsharp(0x2000, 16, 5)) };
        let o = compute(&s);
        assert_eq!((o.address, o.in_range), (0x2048, 1));
        assert_eq!(compute(&In { vgpr_index: 5, ..s }).in_range, 0);
        assert_eq!(compute(&In { inst_offset: 0xfff, ..s }).in_range, 1);
        let raw = In { vsharp: vsharp(0x2000, 0, 5).encode(), ..s };
        assert_eq!(compute(&raw).in_range, 0);
    }

    /// Swizzled: E = 4 (element_size 1), S = 16 (index_stride 1), stride 16, index 37, offset 6.
    /// index_msb 2, index_lsb 5, offset_msb 1, offset_lsb 2:
    /// buffer_offset = (2*16 + 1*4)*16 + 5*4 + 2 = 576 + 22 = 598 = 0x256 → address 0x1256
    /// (ushort: not aligned). offset_lsb + bytes = 4 <= E: legal. Offset 7 → lsb 3, 3 + 2 > 4:
    /// illegal, address 0x1257 still computed. A dword at offset 8 (lsb 0, 0 + 4 <= E) is legal;
    /// a dwordx2 (8 > E) is illegal; stride 18 (18 mod 4 = 2) is illegal.
    #[test]
    fn swizzled() {
        let v = VSharp { swizzle_en: true, element_size: 1, index_stride: 1, ..vsharp(0x1000, 16, 64) };
        let base = In { idxen: true, vgpr_index: 37, inst_offset: 6, bytes: 2, ..input(v) };
        let o = compute(&base);
        assert_eq!((o.address, o.illegal, o.in_range), (0x1256, false, 1));
        let o = compute(&In { inst_offset: 7, ..base });
        assert_eq!((o.address, o.illegal), (0x1257, true));
        // offset 8: lsb 0, msb 2 → (32 + 8)*16 + 20 + 0 = 660 = 0x294.
        let o = compute(&In { inst_offset: 8, bytes: 4, ..base });
        assert_eq!((o.address, o.illegal), (0x1294, false));
        assert!(compute(&In { inst_offset: 8, bytes: 8, ..base }).illegal);
        let v18 = VSharp { stride: 18, ..v };
        assert!(compute(&In { vsharp: v18.encode(), ..base }).illegal);
    }

    /// Scratch: add_tid_en, non-format, dfmt 1 and stride field 0x20 → 18-bit stride
    /// 1 << 14 | 0x20 = 0x4020. index = tid 3; address = 0x10_0000 + 3*0x4020 + 8 = 0x10_c068.
    /// No range check even with num_records 0; dfmt holds stride bits so it is bound.
    /// The same V# with dfmt 0 is still bound (stride 0x20: address 0x10_0068); as a format access
    /// the stride is 14 bits and dfmt 0 makes it unbound (in_range 0, address still computed).
    #[test]
    fn scratch() {
        let v = VSharp { add_tid_en: true, dfmt: 1, ..vsharp(0x10_0000, 0x20, 0) };
        let i = In { tid: 3, inst_offset: 8, bytes: 16, ..input(v) };
        let o = compute(&i);
        assert_eq!((o.address, o.in_range, o.unbound, o.illegal), (0x10_c068, 0b1111, false, false));
        let v0 = VSharp { dfmt: 0, ..v };
        let o = compute(&In { vsharp: v0.encode(), ..i });
        assert_eq!((o.address, o.in_range, o.unbound), (0x10_0068, 0b1111, false));
        let o = compute(&In { vsharp: v0.encode(), access: ACCESS_FORMAT, ..i });
        assert_eq!((o.address, o.in_range, o.unbound), (0x10_0068, 0, true));
    }

    /// Structured with tid: add_tid_en and idxen, index = vgpr_index 6 + tid 2 = 8; num_records 8
    /// → out; num_records 9 → in. Stride (14-bit, format) 4: address = 8*4 = 0x20.
    #[test]
    fn structured_tid() {
        let v = VSharp { add_tid_en: true, ..vsharp(0, 4, 8) };
        let i = In { idxen: true, vgpr_index: 6, tid: 2, access: ACCESS_FORMAT, ..input(v) };
        let o = compute(&i);
        assert_eq!((o.address, o.in_range), (0x20, 0));
        let v9 = VSharp { num_records: 9, ..v };
        assert_eq!(compute(&In { vsharp: v9.encode(), ..i }).in_range, 1);
    }

    /// Unbound (dfmt 0, no scratch): in_range 0, the rest computed: address 0x3000 + 0x14.
    #[test]
    fn unbound() {
        let v = VSharp { dfmt: 0, ..vsharp(0x3000, 0, 0x100) };
        let o = compute(&In { inst_offset: 0x14, ..input(v) });
        assert_eq!((o.address, o.in_range, o.unbound, o.illegal), (0x3014, 0, true, false));
    }

    /// Address modulo 2^48: 0xffff_ffff_fff0 + sgpr 0x20 + offset 4 = 0x1_0000_0000_0014 → 0x14.
    #[test]
    fn address_wraps_at_48_bits() {
        let i = In { sgpr_offset: 0x20, inst_offset: 4, ..input(vsharp(0xffff_ffff_fff0, 0, 0x10)) };
        assert_eq!(compute(&i).address, 0x14);
    }

    /// Reserved encodings: access 3 is illegal and checks like non_format: dwordx2 at 0x40 of
    /// num_records 0x44 has dword 0 ending at 0x43 (in) and dword 1 at 0x47 (out) → 0b01, where a
    /// format access would give 0; address 0x100 + 0x40. bytes 3: illegal, in_range 0, address
    /// 0x101 unaligned; bytes 5: illegal, in_range 0, aligned to 0x100.
    #[test]
    fn reserved_encodings() {
        let v = vsharp(0x100, 0, 0x44);
        let o = compute(&In { access: ACCESS_RESERVED, bytes: 8, inst_offset: 0x40, ..input(v) });
        assert_eq!((o.illegal, o.in_range, o.address), (true, 0b01, 0x140));
        let o = compute(&In { access: ACCESS_FORMAT, bytes: 8, inst_offset: 0x40, ..input(v) });
        assert_eq!((o.illegal, o.in_range), (false, 0));
        let o = compute(&In { bytes: 3, inst_offset: 1, ..input(v) });
        assert_eq!((o.illegal, o.in_range, o.address), (true, 0, 0x101));
        let o = compute(&In { bytes: 5, inst_offset: 1, ..input(v) });
        assert_eq!((o.illegal, o.in_range, o.address), (true, 0, 0x100));
    }

    /// Port-width masking: inst_offset 0x1004 → 4, tid 0x43 → 3, access 5 → 1, bytes 0x24 → 4.
    #[test]
    fn inputs_are_masked_to_port_width() {
        let v = VSharp { add_tid_en: true, ..vsharp(0, 0x10, 0) };
        let o = compute(&In { inst_offset: 0x1004, tid: 0x43, access: 5, bytes: 0x24, ..input(v) });
        // index 3, stride 0x10 (18-bit, dfmt 4 << 14 = 0x1_0000 | 0x10): 3*0x1_0010 + 4.
        assert_eq!((o.address, o.in_range, o.illegal), (0x3_0034, 1, false));
    }

    /// LDS: lds_base 2, lds_size 1 (bytes [256, 383]); m0 0xffff_0010 uses 0x10; inst_offset 0x60;
    /// tid 3: 256 + 16 + 96 + 12 = 380, and 380 + 4 <= 384: in range. tid 4: 384, out.
    /// lds_size 0 holds nothing. lds = 0 outputs 0.
    #[test]
    fn lds() {
        let i = In {
            lds: true,
            lds_base: 2,
            lds_size: 1,
            m0: 0xffff_0010,
            inst_offset: 0x60,
            tid: 3,
            ..input(vsharp(0, 0, 0x1000))
        };
        let o = compute(&i);
        assert_eq!((o.lds_address, o.lds_in_range), (380, true));
        let o = compute(&In { tid: 4, ..i });
        assert_eq!((o.lds_address, o.lds_in_range), (384, false));
        let o = compute(&In { lds_size: 0, tid: 0, m0: 0, inst_offset: 0, ..i });
        assert_eq!((o.lds_address, o.lds_in_range), (256, false));
        // Largest: 511*128 + 0xffff + 0xfff + 63*4 = 65408 + 65535 + 4095 + 252 = 135290, fits
        // 18 bits; the allocation ends at (511 + 511)*128 = 130816 < 135290 + 4: out.
        let o = compute(&In { lds_base: 511, lds_size: 511, m0: 0xffff, inst_offset: 0xfff, tid: 63, ..i });
        assert_eq!((o.lds_address, o.lds_in_range), (135_290, false));
        let o = compute(&In { lds: false, ..i });
        assert_eq!((o.lds_address, o.lds_in_range), (0, false));
    }

    /// Call j's valid input comes back from call j + 1; valid shifts every edge.
    #[test]
    fn latency() {
        let mut m = BufferAddr::new();
        let a = In { inst_offset: 0x10, ..input(vsharp(0x1000, 0, 0x100)) };
        assert_eq!(m.step(&a), Out::default());
        let o = m.step(&In::default());
        assert!(o.valid);
        assert_eq!(o.address, 0x1010);
        assert!(!m.step(&In::default()).valid);
    }

    /// Back-to-back inputs stream one per cycle.
    #[test]
    fn throughput() {
        let mut m = BufferAddr::new();
        let v = vsharp(0x1000, 0, 0x100);
        let mut got = Vec::new();
        for k in 0..5u16 {
            got.push(m.step(&In { inst_offset: 4 * k, ..input(v) }));
        }
        let addresses: Vec<_> = got.iter().map(|o| (o.valid, o.address)).collect();
        assert_eq!(addresses, [(false, 0), (true, 0x1000), (true, 0x1004), (true, 0x1008), (true, 0x100c)]);
    }

    /// Without valid, data registers hold the last valid result while valid drops to 0.
    #[test]
    fn hold() {
        let mut m = BufferAddr::new();
        let a = In { inst_offset: 0x20, ..input(vsharp(0x1000, 0, 0x100)) };
        let junk = In { valid: false, inst_offset: 0x40, bytes: 3, ..a };
        let first = testing::first_output_then_hold(&mut m, &a, &junk);
        assert!(first.valid);
        // A bubble between two valid inputs: the output shows a, holds a, then b.
        let b = In { inst_offset: 0x30, ..a };
        m.step(&a);
        m.step(&junk);
        m.step(&b);
        let o = m.step(&junk);
        assert_eq!((o.valid, o.address), (true, 0x1030));
    }

    /// Reset clears valid and data in both stages.
    #[test]
    fn reset_clears_everything() {
        let mut m = BufferAddr::new();
        let a = In { inst_offset: 0x20, lds: true, lds_size: 4, ..input(vsharp(0x1000, 0, 0x100)) };
        m.step(&a);
        testing::assert_reset_clears(&mut m, &a, &In::default());
    }

    /// Every port over its width; `bytes` from the legal counts and three reserved ones.
    fn any_in() -> impl Strategy<Value = In> {
        (testing::any_ports::<In>(), prop::sample::select(vec![1u8, 2, 3, 4, 8, 12, 16, 31]))
            .prop_map(|(i, bytes)| In { bytes, ..i })
    }

    proptest! {
        /// Outputs always fit their port widths, and in_range never names a dword beyond the
        /// access.
        #[test]
        fn outputs_fit_ports(i in any_in()) {
            let o = compute(&i);
            testing::fits_ports(&o)?;
            let dwords = u32::from(i.bytes).div_ceil(4).clamp(1, 4);
            prop_assert_eq!(u32::from(o.in_range) >> dwords, 0);
            if i.bytes >= 4 {
                prop_assert_eq!(o.address & 3, 0);
            }
        }

        /// The two-stage model equals "compute, delayed one call, holding on invalid".
        #[test]
        fn model_matches_delayed_compute(inputs in prop::collection::vec(any_in(), 1..40)) {
            testing::matches_delayed_compute::<BufferAddr>(&inputs, compute)?;
        }
    }
}
