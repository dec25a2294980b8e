//! Buffer instructions on a wave (SPEC §10, §10.1): scenarios whose expected values are worked
//! out by hand from docs/spec.md (the arithmetic is in the comments), run on the Rust models.

use gcn_vmem_model::exec::{run_buffer, Access, AtomicOp, BufferInst, BufferKind, ExecError, Models, Wave, D16, LANES};

/// V# (SPEC §1.1 bit table, written here independently of rust/vsharp.rs): base, stride,
/// num_records, dst_sel x/y/z/w, nfmt, dfmt.
fn vsharp(base: u64, stride: u64, num_records: u32, dst_sel: [u8; 4], nfmt: u8, dfmt: u8) -> [u32; 4] {
    let mut v: u128 = u128::from(base & ((1 << 48) - 1)) | u128::from(stride & 0x3fff) << 48;
    v |= u128::from(num_records) << 64;
    for (i, s) in dst_sel.iter().enumerate() {
        v |= u128::from(*s & 7) << (96 + 3 * i);
    }
    v |= u128::from(nfmt & 7) << 108 | u128::from(dfmt & 15) << 111;
    [v as u32, (v >> 32) as u32, (v >> 64) as u32, (v >> 96) as u32]
}

const XYZW: [u8; 4] = [4, 5, 6, 7];

/// A wave with V# `v` in s[4:7], soffset s1 = 0, every VGPR preset to 0xdead_beef.
fn wave(v: [u32; 4]) -> Wave {
    let mut w = Wave::default();
    w.sgprs[4..8].copy_from_slice(&v);
    for r in w.vgprs.iter_mut() {
        *r = [0xdead_beef; LANES];
    }
    w
}

/// [`wave`] with the lanes of `exec` active and v1 (the address VGPR) of lane `l` `v1[l]`.
fn wave_at(v: [u32; 4], exec: u64, v1: &[u32]) -> Wave {
    let mut w = wave(v);
    w.exec = exec;
    for (l, &a) in v1.iter().enumerate() {
        w.vgprs[1][l] = a;
    }
    w
}

fn inst(kind: BufferKind, access: Access) -> BufferInst {
    BufferInst {
        kind,
        access,
        d16: D16::None,
        wide: false,
        vaddr: 1,
        vdata: 5,
        srsrc: 4,
        soffset: 1,
        offset: 0,
        offen: true,
        idxen: false,
        glc: false,
        slc: false,
        lds: false,
        tfe: false,
    }
}

fn run(w: &mut Wave, i: &BufferInst) -> Result<(), ExecError> {
    run_buffer(w, i, &mut Models::default())
}

const DWORD: Access = Access::Sized { bytes: 4, signed: false };

#[test]
fn load_dword_raw_buffer_with_range_check_and_exec() {
    // Raw buffer (idxen 0, add_tid 0): 64 bytes at 0x1000, dfmt 4/nfmt 4 so it is bound.
    let mut w = wave(vsharp(0x1000, 0, 64, XYZW, 4, 4));
    for k in 0..32u64 {
        w.memory.write(0x1000 + 4 * k, 4, u128::from(0x1111_0000 + k as u32));
    }
    // Lanes 0..3 and 15 and 16 active; v1 = lane * 4 (the byte offset).
    w.exec = 0b1_1000_0000_0000_1111;
    for l in 0..LANES {
        w.vgprs[1][l] = 4 * l as u32;
    }
    run(&mut w, &inst(BufferKind::Load, DWORD)).unwrap();
    for l in 0..4 {
        assert_eq!(w.vgprs[5][l], 0x1111_0000 + l as u32, "lane {l}");
    }
    // Lane 15: bytes 60..63 < 64: in range. Lane 16: 64..67, hi = 67 >= 64: out of range -> 0.
    assert_eq!(w.vgprs[5][15], 0x1111_000f);
    assert_eq!(w.vgprs[5][16], 0);
    // Inactive lanes untouched.
    assert_eq!(w.vgprs[5][4], 0xdead_beef);
    assert_eq!(w.vgprs[5][17], 0xdead_beef);
}

#[test]
fn structured_index_and_offset_come_from_consecutive_vgprs() {
    // Structured (idxen 1, stride 16 != 0): address = base + index*16 + offset + inst_offset.
    let mut w = wave(vsharp(0x2000, 16, 4, XYZW, 4, 4));
    w.exec = 0b11;
    w.memory.write(0x2000 + 2 * 16 + 8 + 4, 4, 0xcafe_f00d); // lane 0: index 2, offset 8, inst 4
    w.memory.write(0x2000 + 3 * 16 + 4, 4, 0x0bad_cafe); // lane 1: index 3, offset 0
    w.vgprs[1][0] = 2;
    w.vgprs[2][0] = 8;
    w.vgprs[1][1] = 3;
    w.vgprs[2][1] = 0;
    let i = BufferInst { idxen: true, offen: true, offset: 4, ..inst(BufferKind::Load, DWORD) };
    run(&mut w, &i).unwrap();
    assert_eq!(w.vgprs[5][0], 0xcafe_f00d);
    assert_eq!(w.vgprs[5][1], 0x0bad_cafe);
    // Index 4 >= num_records 4: out of range.
    w.vgprs[1][0] = 4;
    run(&mut w, &i).unwrap();
    assert_eq!(w.vgprs[5][0], 0);
}

#[test]
fn byte_loads_extend_and_d16_hi_keeps_the_low_half() {
    let mut w = wave_at(vsharp(0x100, 0, 256, XYZW, 4, 4), 1, &[3]);
    w.memory.write(0x103, 1, 0x9c);
    run(&mut w, &inst(BufferKind::Load, Access::Sized { bytes: 1, signed: false })).unwrap();
    assert_eq!(w.vgprs[5][0], 0x0000_009c); // ubyte: zero-extended
    run(&mut w, &inst(BufferKind::Load, Access::Sized { bytes: 1, signed: true })).unwrap();
    assert_eq!(w.vgprs[5][0], 0xffff_ff9c); // sbyte: sign-extended
                                            // BUFFER_LOAD_SBYTE_D16_HI: sign-extended to 16 bits into 31:16, bits 15:0 kept.
    w.vgprs[5][0] = 0x1234_5678;
    let hi = BufferInst { d16: D16::Hi, ..inst(BufferKind::Load, Access::Sized { bytes: 1, signed: true }) };
    run(&mut w, &hi).unwrap();
    assert_eq!(w.vgprs[5][0], 0xff9c_5678);
    // BUFFER_LOAD_UBYTE_D16: zero-extended into 15:0, bits 31:16 kept.
    let lo = BufferInst { d16: D16::Lo, ..inst(BufferKind::Load, Access::Sized { bytes: 1, signed: false }) };
    run(&mut w, &lo).unwrap();
    assert_eq!(w.vgprs[5][0], 0xff9c_009c);
}

#[test]
fn format_load_applies_the_vsharp_format_and_dst_sel() {
    // 8_8_8_8 unorm (dfmt 10, nfmt 0), dst_sel x = B, y = G, z = R, w = SEL_1 (float 1.0).
    // Lane 1 at offset 4: bytes 4..7 < 8, in range. Element bytes R = 0x00, G = 0x80, B = 0xff,
    // A = 0x33.
    let mut w = wave_at(vsharp(0x400, 0, 8, [6, 5, 4, 1], 0, 10), 0b11, &[0, 4]);
    w.memory.write(0x400, 4, 0x33ff_8000);
    w.memory.write(0x404, 4, 0x0000_0033);
    run(&mut w, &inst(BufferKind::Load, Access::Format { count: 4, format: None })).unwrap();
    // x = B = 255/255 = 1.0; y = G = 128/255 = 0x3f008081 (nearest f32); z = R = 0; w = 1.0.
    let got: Vec<u32> = (5..9).map(|v| w.vgprs[v][0]).collect();
    assert_eq!(got, [0x3f80_0000, 0x3f00_8081, 0, 0x3f80_0000]);
    // Lane 1: R = 0x33 -> 51/255 = 0.2 -> 0x3e4ccccd in z; B = G = 0.
    let got: Vec<u32> = (5..9).map(|v| w.vgprs[v][1]).collect();
    assert_eq!(got, [0, 0, 0x3e4c_cccd, 0x3f80_0000]);
    // Out of range (offset 8): every component 0 except SEL_1, which keeps 1.0 (SPEC §2.4, §3).
    w.vgprs[1][0] = 8;
    run(&mut w, &inst(BufferKind::Load, Access::Format { count: 4, format: None })).unwrap();
    let got: Vec<u32> = (5..9).map(|v| w.vgprs[v][0]).collect();
    assert_eq!(got, [0, 0, 0, 0x3f80_0000]);
    // TFE appends a status dword 0 after the data dwords.
    let tfe = BufferInst { tfe: true, ..inst(BufferKind::Load, Access::Format { count: 2, format: None }) };
    w.vgprs[7][0] = 0xdead_beef;
    run(&mut w, &tfe).unwrap();
    assert_eq!(w.vgprs[7][0], 0);
}

#[test]
fn unbound_vsharp_reads_zero_even_for_sel_1() {
    // dfmt 0: unbound (SPEC §1.1), whatever the instruction's own format.
    let mut w = wave_at(vsharp(0x400, 0, 64, [1, 1, 1, 1], 0, 0), 1, &[0]);
    w.memory.write(0x400, 4, 0xffff_ffff);
    let t = inst(BufferKind::Load, Access::Format { count: 2, format: Some((4, 4)) });
    run(&mut w, &t).unwrap();
    assert_eq!([w.vgprs[5][0], w.vgprs[6][0]], [0, 0]);
    // Stores to an unbound buffer are dropped.
    w.vgprs[5][0] = 7;
    run(&mut w, &inst(BufferKind::Store, DWORD)).unwrap();
    assert_eq!(w.memory.read(0x400, 4), 0xffff_ffff);
}

#[test]
fn tbuffer_store_packs_with_the_instruction_format_and_d16_stores_use_halves() {
    let mut w = wave_at(vsharp(0x800, 0, 64, XYZW, 4, 4), 1, &[0]);
    // TBUFFER_STORE_FORMAT_XY, 16_16 float: 1.0 -> 0x3c00, -2.0 -> 0xc000.
    w.vgprs[5][0] = 1.0f32.to_bits();
    w.vgprs[6][0] = (-2.0f32).to_bits();
    let t = inst(BufferKind::Store, Access::Format { count: 2, format: Some((5, 7)) });
    run(&mut w, &t).unwrap();
    assert_eq!(w.memory.read(0x800, 4), 0xc000_3c00);
    // TBUFFER_STORE_FORMAT_D16_XY, 16_16 float: halves 0x4000 (2.0) and 0xbc00 (-1.0) from v5.
    w.vgprs[5][0] = 0xbc00_4000;
    let d = BufferInst { d16: D16::Lo, ..t };
    run(&mut w, &d).unwrap();
    assert_eq!(w.memory.read(0x800, 4), 0xbc00_4000);
    // BUFFER_STORE_SHORT_D16_HI stores bits 31:16; BUFFER_STORE_BYTE writes one byte.
    w.vgprs[5][0] = 0xabcd_1234;
    let hi = BufferInst { d16: D16::Hi, ..inst(BufferKind::Store, Access::Sized { bytes: 2, signed: false }) };
    run(&mut w, &hi).unwrap();
    assert_eq!(w.memory.read(0x800, 4), 0xbc00_abcd);
    run(&mut w, &inst(BufferKind::Store, Access::Sized { bytes: 1, signed: false })).unwrap();
    assert_eq!(w.memory.read(0x800, 4), 0xbc00_ab34);
}

#[test]
fn overlapping_stores_apply_in_lane_order_and_dwordx2_checks_per_dword() {
    let mut w = wave(vsharp(0x1000, 0, 12, XYZW, 4, 4));
    w.exec = 0b111;
    for l in 0..3 {
        w.vgprs[1][l] = 0; // all three lanes store to 0x1000
        w.vgprs[5][l] = 0x100 + l as u32;
    }
    run(&mut w, &inst(BufferKind::Store, DWORD)).unwrap();
    assert_eq!(w.memory.read(0x1000, 4), 0x102, "the highest lane wins");
    // DWORDX2 at offset 8: dword 0 covers 8..11 < 12 (in), dword 1 covers 12..15 (out).
    w.exec = 1;
    w.vgprs[1][0] = 8;
    w.vgprs[5][0] = 0xaaaa_aaaa;
    w.vgprs[6][0] = 0xbbbb_bbbb;
    run(&mut w, &inst(BufferKind::Store, Access::Sized { bytes: 8, signed: false })).unwrap();
    assert_eq!(w.memory.read(0x1008, 8), 0xaaaa_aaaa);
}

#[test]
fn atomics_serialise_in_lane_order_and_return_pre_op_values_with_glc() {
    let mut w = wave(vsharp(0x3000, 0, 16, XYZW, 4, 4));
    w.exec = 0b1011; // lanes 0, 1, 3
    w.memory.write(0x3000, 4, 10);
    for l in 0..4 {
        w.vgprs[1][l] = 0;
        w.vgprs[5][l] = l as u32 + 1; // add 1, 2, (3), 4
    }
    let add = BufferInst { glc: true, ..inst(BufferKind::Atomic(AtomicOp::Add), DWORD) };
    run(&mut w, &add).unwrap();
    assert_eq!(w.memory.read(0x3000, 4), 10 + 1 + 2 + 4);
    assert_eq!([w.vgprs[5][0], w.vgprs[5][1], w.vgprs[5][3]], [10, 11, 13]);
    assert_eq!(w.vgprs[5][2], 3, "inactive lane untouched");
    // CMPSWAP: data = {src, cmp}; memory 17: lane 0 compares 17 (swaps in 99), lane 1 compares
    // 17 against 99 (keeps it).
    w.exec = 0b11;
    for l in 0..2 {
        w.vgprs[5][l] = 99 + l as u32;
        w.vgprs[6][l] = 17;
    }
    let cas = BufferInst { glc: true, ..inst(BufferKind::Atomic(AtomicOp::Cmpswap), DWORD) };
    run(&mut w, &cas).unwrap();
    assert_eq!(w.memory.read(0x3000, 4), 99);
    assert_eq!([w.vgprs[5][0], w.vgprs[5][1]], [17, 99]);
    // Out of range (offset 16 >= 16): nothing written, 0 returned. Without GLC nothing returns.
    w.vgprs[1][0] = 16;
    w.vgprs[5][0] = 5;
    w.exec = 1;
    run(&mut w, &BufferInst { glc: true, ..inst(BufferKind::Atomic(AtomicOp::Swap), DWORD) }).unwrap();
    assert_eq!(w.vgprs[5][0], 0);
    w.vgprs[1][0] = 0;
    w.vgprs[5][0] = 5;
    run(&mut w, &inst(BufferKind::Atomic(AtomicOp::Swap), DWORD)).unwrap();
    assert_eq!((w.memory.read(0x3000, 4), w.vgprs[5][0]), (5, 5));
}

#[test]
fn a_64_bit_atomic_across_two_lines_is_an_error_naming_the_lane() {
    // SPEC §10.1. Raw buffer of 256 bytes at 0x3000. Lane 0 at offset 56 (bytes 0x3038..0x303f,
    // one line), lane 2 at offset 60 (bytes 0x303c..0x3043: lines 0x3000 and 0x3040).
    let mut w = wave(vsharp(0x3000, 0, 256, XYZW, 4, 4));
    w.exec = 0b101;
    (w.vgprs[1][0], w.vgprs[1][2]) = (56, 60);
    let swap_x2 = BufferInst { wide: true, ..inst(BufferKind::Atomic(AtomicOp::Swap), DWORD) };
    let before = w.clone();
    let e = run(&mut w, &swap_x2).unwrap_err();
    assert!(e.0.contains("lane 2") && e.0.contains("0x303c") && e.0.contains("§10.1"), "{e}");
    assert_eq!(w, before, "nothing of the instruction is applied");
    // A 32-bit atomic at offset 60 lies in one line (bytes 0x303c..0x303f).
    run(&mut w, &inst(BufferKind::Atomic(AtomicOp::Swap), DWORD)).unwrap();
    // Offset 62: the address is dword-aligned (§2.3) to 0x303c, which still crosses.
    w.vgprs[1][2] = 62;
    assert!(run(&mut w, &swap_x2).unwrap_err().0.contains("lane 2"));
    // The lane out of range (offset 252 + 8 > 256) or not in EXEC: no access, no error.
    w.vgprs[1][2] = 252;
    run(&mut w, &swap_x2).unwrap();
    (w.vgprs[1][2], w.exec) = (60, 0b001);
    run(&mut w, &swap_x2).unwrap();
    // Offset 120 (0x3078..0x307f) ends at the line's last byte: one line.
    (w.vgprs[1][0], w.exec) = (120, 0b001);
    run(&mut w, &swap_x2).unwrap();
}

#[test]
fn atomic_operations_follow_spec_10_1() {
    use gcn_vmem_model::exec::atomic_result as r;
    use AtomicOp::*;
    assert_eq!(r(Inc, false, 5, 5, 0), 0); // tmp >= data -> 0
    assert_eq!(r(Inc, false, 4, 5, 0), 5);
    assert_eq!(r(Dec, false, 0, 7, 0), 7); // tmp == 0 -> data
    assert_eq!(r(Dec, false, 9, 7, 0), 7); // tmp > data -> data
    assert_eq!(r(Dec, false, 3, 7, 0), 2);
    assert_eq!(r(Smin, false, 1, 0xffff_ffff, 0), 0xffff_ffff); // -1 < 1
    assert_eq!(r(Umin, false, 1, 0xffff_ffff, 0), 1);
    assert_eq!(r(Rsub, false, 3, 10, 0), 7);
    assert_eq!(r(Sub, false, 3, 10, 0), 0xffff_fff9);
    assert_eq!(r(Add, true, u64::MAX, 2, 0), 1);
    // fcmpswap: +0 == -0; NaN never equal.
    assert_eq!(r(Fcmpswap, false, 0x8000_0000, 7, 0), 7);
    assert_eq!(r(Fcmpswap, false, 0x7fc0_0000, 7, 0x7fc0_0000), 0x7fc0_0000);
    // fmin/fmax: a NaN operand yields the other.
    assert_eq!(r(Fmin, false, 0x7fc0_0000, 1.5f32.to_bits().into(), 0), u64::from(1.5f32.to_bits()));
    assert_eq!(r(Fmax, false, 2.0f32.to_bits().into(), 0x7fc0_0000, 0), u64::from(2.0f32.to_bits()));
    assert_eq!(r(Fmin, false, 2.0f32.to_bits().into(), (-3.0f32).to_bits().into(), 0), u64::from((-3.0f32).to_bits()));
}

#[test]
fn lds_loads_write_the_wave_allocation_only() {
    // lds_base 1, lds_size 1: the window is bytes 128..255; m0 = 0, inst_offset 0:
    // lds_address = 128 + 4 * tid, in range for tid 0..31 (SPEC §2.5).
    let mut w = wave(vsharp(0x100, 0, 4096, XYZW, 4, 4));
    w.lds.base = 1;
    w.lds.size = 1;
    w.exec = 1 | 1 << 31 | 1 << 32;
    for l in 0..LANES {
        w.vgprs[1][l] = 4 * l as u32;
        w.memory.write(0x100 + 4 * l as u64, 4, 0x5000_0000 + l as u128);
    }
    let i = BufferInst { lds: true, ..inst(BufferKind::Load, DWORD) };
    run(&mut w, &i).unwrap();
    let lds = |a: usize| u32::from_le_bytes(w.lds.bytes[a..a + 4].try_into().unwrap());
    assert_eq!(lds(128), 0x5000_0000);
    assert_eq!(lds(128 + 31 * 4), 0x5000_001f);
    assert_eq!(lds(256), 0, "lane 32 is outside the allocation");
    assert_eq!(w.vgprs[5][0], 0xdead_beef, "LDS loads write no VGPR");
    // TFE with LDS is an error, and nothing is applied.
    let before = w.clone();
    let e = run(&mut w, &BufferInst { tfe: true, ..i }).unwrap_err();
    assert!(e.0.contains("tfe") && e.0.contains("§2.5"), "{e}");
    assert_eq!(w, before);
    let e = run(&mut w, &BufferInst { lds: true, ..inst(BufferKind::Load, Access::Sized { bytes: 8, signed: false }) })
        .unwrap_err();
    assert!(e.0.contains("allowed only"), "{e}");
}

#[test]
fn soffset_reads_sgprs_m0_and_inline_constants() {
    let mut w = wave_at(vsharp(0x1000, 0, 64, XYZW, 4, 4), 1, &[0]);
    w.memory.write(0x1000 + 16, 4, 0x1616);
    w.memory.write(0x1000 + 40, 4, 0x4040);
    // soffset = inline constant 16 (code 128 + 16); sgpr_offset is not range-checked.
    run(&mut w, &BufferInst { soffset: 128 + 16, ..inst(BufferKind::Load, DWORD) }).unwrap();
    assert_eq!(w.vgprs[5][0], 0x1616);
    w.m0 = 40;
    run(&mut w, &BufferInst { soffset: 124, ..inst(BufferKind::Load, DWORD) }).unwrap();
    assert_eq!(w.vgprs[5][0], 0x4040);
    assert!(run(&mut w, &BufferInst { soffset: 250, ..inst(BufferKind::Load, DWORD) }).is_err());
}

// ---------------------------------------------------------------------------------------------
// Image instructions.

use gcn_vmem_model::exec::{run_image, ImageInst, ImageKind};

/// A 256-bit T# (SPEC §1.2's bit table, written here independently of rust/tsharp.rs), as eight
/// SGPR values.
#[allow(clippy::too_many_arguments)]
fn tsharp(
    base256: u64,
    dfmt: u8,
    nfmt: u8,
    (width, height): (u32, u32),
    kind: u8,
    (base_level, last_level, max_mip): (u8, u8, u8),
    pitch: u32,
    depth: u32,
) -> [u32; 8] {
    let mut lo: u128 = u128::from(base256) | u128::from(dfmt) << 52 | u128::from(nfmt) << 58;
    lo |= u128::from(width - 1) << 64 | u128::from(height - 1) << 78;
    for (i, s) in XYZW.iter().enumerate() {
        lo |= u128::from(*s) << (96 + 3 * i);
    }
    lo |= u128::from(base_level) << 108 | u128::from(last_level) << 112 | u128::from(kind) << 124;
    let hi: u128 = u128::from(depth - 1) | u128::from(pitch - 1) << 13 | u128::from(max_mip) << 60;
    std::array::from_fn(|i| if i < 4 { (lo >> (32 * i)) as u32 } else { (hi >> (32 * (i - 4))) as u32 })
}

fn image(kind: ImageKind, dmask: u8) -> ImageInst {
    ImageInst { vaddr: 1, vdata: 5, srsrc: 8, dmask, unorm: true, ..ImageInst::new(kind) }
}

/// 2D RGBA8 unorm at byte 0x1000: 4 × 4, pitch 8, levels 0..1.
fn image_wave() -> Wave {
    let mut w = wave(vsharp(0, 0, 0, XYZW, 0, 0));
    w.sgprs[8..16].copy_from_slice(&tsharp(0x10, 10, 0, (4, 4), 9, (0, 1, 1), 8, 1));
    w.exec = 1;
    w
}

fn run_i(w: &mut Wave, i: &ImageInst) -> Result<(), ExecError> {
    run_image(w, i, &mut Models::default())
}

#[test]
fn image_load_mip_addresses_the_level_and_checks_its_bounds() {
    let mut w = image_wave();
    // Level 1: width 2, height 2, pitch 8 >> 1 = 4; mip_offset(1) = pitch_0 · height_0 · 1 · bpp
    // = 8 · 4 · 4 = 128. Texel (1, 1): 0x1000 + 128 + ((0 · 2 + 1) · 4 + 1) · 4 = 0x1094.
    w.memory.write(0x1094, 4, 0x33ff_8000);
    (w.vgprs[1][0], w.vgprs[2][0], w.vgprs[3][0]) = (1, 1, 1);
    let load = ImageInst { mip: true, ..image(ImageKind::Load { pck: false, sgn: false }, 0b1001) };
    run_i(&mut w, &load).unwrap();
    // DMASK 1001: R (0x00 -> 0) in v5, A (0x33 -> 0.2) in v6.
    assert_eq!([w.vgprs[5][0], w.vgprs[6][0]], [0, 0x3e4c_cccd]);
    // x = 2 >= width_1 = 2, and mip 2 > last_level 1: out of range, zeros.
    w.vgprs[1][0] = 2;
    run_i(&mut w, &load).unwrap();
    assert_eq!([w.vgprs[5][0], w.vgprs[6][0]], [0, 0]);
    (w.vgprs[1][0], w.vgprs[3][0]) = (0, 2);
    w.vgprs[5][0] = 7;
    run_i(&mut w, &load).unwrap();
    assert_eq!(w.vgprs[5][0], 0);
}

#[test]
fn image_store_fills_disabled_components_with_zero_and_pck_loads_raw_bits() {
    let mut w = image_wave();
    // Texel (1, 2) of level 0: 0x1000 + (2 · 8 + 1) · 4 = 0x1044. DMASK 1001: R = v5 = 1.0,
    // A = v6 = 0.5; G = B = 0. unorm8: 1.0 -> 255, 0.5 -> round_half_even(127.5) = 128.
    (w.vgprs[1][0], w.vgprs[2][0]) = (1, 2);
    w.vgprs[5][0] = 1.0f32.to_bits();
    w.vgprs[6][0] = 0.5f32.to_bits();
    run_i(&mut w, &image(ImageKind::Store, 0b1001)).unwrap();
    assert_eq!(w.memory.read(0x1044, 4), 0x8000_00ff);
    // IMAGE_LOAD_PCK_SGN of R and A: raw bits sign-extended: 0xff -> -1, 0x80 -> -128.
    run_i(&mut w, &image(ImageKind::Load { pck: true, sgn: true }, 0b1001)).unwrap();
    assert_eq!([w.vgprs[5][0], w.vgprs[6][0]], [0xffff_ffff, 0xffff_ff80]);
    run_i(&mut w, &image(ImageKind::Load { pck: true, sgn: false }, 0b1001)).unwrap();
    assert_eq!([w.vgprs[5][0], w.vgprs[6][0]], [0xff, 0x80]);
    // D16 store, DMASK 0011: two halves to R and G (f16 1.0 = 0x3c00 -> 255, 0 -> 0).
    w.vgprs[5][0] = 0x0000_3c00;
    run_i(&mut w, &ImageInst { d16: true, ..image(ImageKind::Store, 0b0011) }).unwrap();
    assert_eq!(w.memory.read(0x1044, 4), 0x0000_00ff);
    // Stores need UNRM = 1.
    let e = run_i(&mut w, &ImageInst { unorm: false, ..image(ImageKind::Store, 1) }).unwrap_err();
    assert!(e.0.contains("UNRM"), "{e}");
}

#[test]
fn image_atomics_check_dmask_and_return_pre_op_values() {
    let mut w = image_wave();
    w.memory.write(0x1000, 4, 40);
    w.exec = 0b11;
    for l in 0..2 {
        (w.vgprs[1][l], w.vgprs[2][l]) = (0, 0);
        w.vgprs[5][l] = 2;
    }
    let add = ImageInst { glc: true, ..image(ImageKind::Atomic(AtomicOp::Add), 1) };
    run_i(&mut w, &add).unwrap();
    assert_eq!(w.memory.read(0x1000, 4), 44);
    assert_eq!([w.vgprs[5][0], w.vgprs[5][1]], [40, 42]);
    let e = run_i(&mut w, &image(ImageKind::Atomic(AtomicOp::Add), 0x2)).unwrap_err();
    assert!(e.0.contains("DMASK") && e.0.contains("§10.1"), "{e}");
    let e = run_i(&mut w, &image(ImageKind::Atomic(AtomicOp::Cmpswap), 0x1)).unwrap_err();
    assert!(e.0.contains("DMASK"), "{e}");
}

#[test]
fn a_64_bit_image_atomic_across_two_lines_is_an_error() {
    // SPEC §10.1 with §4.4's linear address: 4-byte texels (dfmt 10), 16 × 4, pitch 16, at
    // 0x1000. Texel (15, 0) is at 0x1000 + 15·4 = 0x103c: 8 bytes to 0x1043 cross into the
    // line at 0x1040. Texel (14, 0) at 0x1038 ends at 0x103f: one line.
    let mut w = wave(vsharp(0, 0, 0, XYZW, 0, 0));
    w.sgprs[8..16].copy_from_slice(&tsharp(0x10, 10, 4, (16, 4), 9, (0, 0, 0), 16, 1));
    w.exec = 0b10;
    (w.vgprs[1][1], w.vgprs[2][1]) = (15, 0);
    // DMASK 0x3 without a compare: 64-bit; 0xF cmpswap: 64-bit; 0x3 cmpswap: 32-bit.
    for (op, dmask, wide) in
        [(AtomicOp::Add, 0x3, true), (AtomicOp::Cmpswap, 0xf, true), (AtomicOp::Cmpswap, 0x3, false)]
    {
        let r = run_i(&mut w, &image(ImageKind::Atomic(op), dmask));
        assert_eq!(r.is_err(), wide, "{op:?} DMASK {dmask:#x}: {r:?}");
        if let Err(e) = r {
            assert!(e.0.contains("lane 1") && e.0.contains("0x103c"), "{e}");
        }
    }
    w.vgprs[1][1] = 14;
    run_i(&mut w, &image(ImageKind::Atomic(AtomicOp::Add), 0x3)).unwrap();
}

#[test]
fn get_resinfo_reports_the_level_dimensions_and_level_count() {
    let mut w = image_wave();
    w.vgprs[1][0] = 0;
    run_i(&mut w, &image(ImageKind::GetResinfo, 0xf)).unwrap();
    // 4 × 4, 1 layer, last_level − base_level + 1 = 2 levels.
    assert_eq!([w.vgprs[5][0], w.vgprs[6][0], w.vgprs[7][0], w.vgprs[8][0]], [4, 4, 1, 2]);
    w.vgprs[1][0] = 1;
    run_i(&mut w, &image(ImageKind::GetResinfo, 0b1010)).unwrap();
    assert_eq!([w.vgprs[5][0], w.vgprs[6][0]], [2, 2]); // height, levels
}

#[test]
fn multi_texel_by2_loads_an_aligned_group_and_zeros_an_invalid_one() {
    // R8 unorm 2D (dfmt 1, nfmt 0), 8 × 2, pitch 8, at 0x2000; row 0 = 00 33 66 ff ...
    let mut w = wave(vsharp(0, 0, 0, XYZW, 0, 0));
    w.sgprs[8..16].copy_from_slice(&tsharp(0x20, 1, 0, (8, 2), 9, (0, 0, 0), 8, 1));
    w.memory.write(0x2000, 4, 0xff66_3300);
    w.exec = 0b11;
    (w.vgprs[1][0], w.vgprs[2][0]) = (3, 0); // x = 3: xa = 2, 3 + 2 <= 8: valid
    (w.vgprs[1][1], w.vgprs[2][1]) = (7, 0); // x = 7: 7 + 2 > 8: invalid
    let by2 = image(ImageKind::MultiTexel { op: 0 }, 0x3);
    run_i(&mut w, &by2).unwrap();
    // Texels 2, 3 = 0x66 (102/255 = 0.4 -> 0x3ecccccd) and 0xff (1.0).
    assert_eq!([w.vgprs[5][0], w.vgprs[6][0]], [0x3ecc_cccd, 0x3f80_0000]);
    assert_eq!([w.vgprs[5][1], w.vgprs[6][1]], [0, 0]);
    // BY2 with DMASK 0x1 is not in SPEC §4.3's table: an error naming the combination.
    let e = run_i(&mut w, &image(ImageKind::MultiTexel { op: 0 }, 0x1)).unwrap_err();
    assert!(e.0.contains("IMAGE_LOAD_BY2"), "{e}");
}

#[test]
fn format_stores_ignore_dst_sel_and_addresses_wrap_at_2_pow_48() {
    // BUFFER_STORE_FORMAT_XY on a 16_16 uint V# whose dst_sel is (G, R, 0, 0): stores ignore
    // dst_sel, VGPR i is component i (SPEC §10): v5 -> X (bits 15:0), v6 -> Y (bits 31:16).
    let mut w = wave_at(vsharp(0x1000, 0, 64, [5, 4, 0, 0], 4, 5), 1, &[0]);
    w.vgprs[5][0] = 0x1111;
    w.vgprs[6][0] = 0x2222;
    run(&mut w, &inst(BufferKind::Store, Access::Format { count: 2, format: None })).unwrap();
    assert_eq!(w.memory.read(0x1000, 4), 0x2222_1111);
    // Base 2^48 − 4, offset 4, a dword: the address wraps to 0 (SPEC conventions), and bytes
    // written across the top of the address space wrap too.
    let mut w = wave_at(vsharp((1 << 48) - 4, 0, 64, XYZW, 4, 4), 1, &[4]);
    w.vgprs[5][0] = 0xfeed_f00d;
    run(&mut w, &inst(BufferKind::Store, DWORD)).unwrap();
    assert_eq!(w.memory.read(0, 4), 0xfeed_f00d);
    w.vgprs[1][0] = 2; // 2^48 − 2: two bytes at the top, two at 0 (the dword is aligned down to 2^48 − 4)
    run(&mut w, &inst(BufferKind::Load, DWORD)).unwrap();
    assert_eq!(w.vgprs[5][0], 0, "dword-aligned down to 2^48 − 4, never written");
    w.memory.write((1 << 48) - 2, 4, 0xaabb_ccdd);
    assert_eq!(w.memory.read(0, 2), 0xaabb, "a write across the top wraps to address 0");
}

/// `v` with swizzle_en (bit 63), element_size code `es` (bits 116:115) and index_stride code
/// `is` (bits 118:117) set, per the SPEC §1.1 bit table.
fn swizzled(v: [u32; 4], es: u32, is: u32) -> [u32; 4] {
    [v[0], v[1] | 1 << 31, v[2], v[3] | (es & 3) << 19 | (is & 3) << 21]
}

#[test]
fn a_swizzled_access_that_spec_2_3_marks_illegal_is_an_error_and_applies_nothing() {
    // E = 4 bytes (code 1), S = 8 (code 0), stride 16 (a multiple of E), 1 KiB of records.
    let v = swizzled(vsharp(0x1000, 16, 1024, XYZW, 4, 4), 1, 0);
    let dwordx2 = Access::Sized { bytes: 8, signed: false };
    let run_with = |v: [u32; 4], access: Access, offset: u32, exec: u64| {
        let mut w = wave(v);
        w.exec = exec;
        w.vgprs[1] = [offset; LANES];
        let before = w.clone();
        let r = run(&mut w, &inst(BufferKind::Load, access));
        (r, w.vgprs == before.vgprs)
    };
    // bytes 8 > E = 4.
    let (r, unchanged) = run_with(v, dwordx2, 0, 1);
    let e = r.unwrap_err().to_string();
    assert!(e.contains("SPEC §2.3") && e.contains("8 bytes, more than the element size E = 4"), "{e}");
    assert!(unchanged, "the failing load wrote VGPRs");
    // offset 2: offset mod E (2) + 4 bytes > E; on lane 3 only (exec bit 3), so lane 3 is named.
    let (r, _) = run_with(v, DWORD, 2, 1 << 3);
    let e = r.unwrap_err().to_string();
    assert!(e.starts_with("lane 3:") && e.contains("start at byte 2 of a 4-byte element"), "{e}");
    // Stride 6 is not a multiple of E = 4, whatever the access.
    let (r, _) = run_with(swizzled(vsharp(0x1000, 6, 1024, XYZW, 4, 4), 1, 0), DWORD, 0, 1);
    assert!(r.unwrap_err().to_string().contains("stride 6 is not a multiple of the element size E = 4"));
    // Not errors: the same illegal access with no active lane, on an unbound V# (dfmt 0), and a
    // legal one (a dword at offset 4 of E = 4, or E = 16 holding the dwordx2).
    assert!(run_with(v, dwordx2, 0, 0).0.is_ok());
    assert!(run_with(swizzled(vsharp(0x1000, 16, 1024, XYZW, 4, 0), 1, 0), dwordx2, 0, 1).0.is_ok());
    assert!(run_with(v, DWORD, 4, u64::MAX).0.is_ok());
    assert!(run_with(swizzled(vsharp(0x1000, 16, 1024, XYZW, 4, 4), 3, 0), dwordx2, 8, u64::MAX).0.is_ok());
}

#[test]
fn s_waitcnt_between_a_store_and_a_load_changes_nothing() {
    use gcn_vmem_model::isa::{assemble, decode, Instruction};
    // SPEC §14.1: the executor completes every instruction before the next, so `s_waitcnt` (text
    // or its SOPP dword 0xbf8c0f70, `s_waitcnt vmcnt(0)`) does nothing.
    let store = assemble("buffer_store_dword v5, v1, s[4:7], s1 offen").unwrap();
    let load = assemble("buffer_load_dword v6, v1, s[4:7], s1 offen offset:4").unwrap();
    let wait_text = assemble("s_waitcnt vmcnt(0) & lgkmcnt(0)").unwrap();
    let (wait_dword, used) = decode(&[0xbf8c_0f70]).unwrap();
    assert_eq!(used, 1);
    assert!(matches!(wait_text, Instruction::Waitcnt(_)) && matches!(wait_dword, Instruction::Waitcnt(_)));
    // Raw buffer of 256 bytes at 0x2000, bound (dfmt 4, nfmt 4); v1 = lane * 4; v5 = 0x5000 + lane.
    let mut start = wave(vsharp(0x2000, 0, 256, XYZW, 4, 4));
    start.exec = 0xffff_ffff_ffff_ffff;
    for l in 0..LANES {
        start.vgprs[1][l] = 4 * l as u32;
        start.vgprs[5][l] = 0x5000 + l as u32;
    }
    let program = |between: &[Instruction]| {
        let mut w = start.clone();
        let mut models = Models::default();
        let mut all = vec![store];
        all.extend_from_slice(between);
        all.push(load);
        for i in &all {
            gcn_vmem_model::exec::run(&mut w, i, &mut models).unwrap();
        }
        w
    };
    let plain = program(&[]);
    // The load reads lane + 1's stored dword (offset:4) for lanes 0..62; lane 63 reads bytes
    // 256..259, past num_records = 256: 0.
    for l in 0..63 {
        assert_eq!(plain.vgprs[6][l], 0x5000 + l as u32 + 1, "lane {l}");
    }
    assert_eq!(plain.vgprs[6][63], 0);
    assert_eq!(program(&[wait_text]), plain);
    assert_eq!(program(&[wait_dword, wait_text]), plain);
    // Alone, on the starting wave: nothing changes.
    let mut w = start.clone();
    gcn_vmem_model::exec::run(&mut w, &wait_dword, &mut Models::default()).unwrap();
    assert_eq!(w, start);
}

/// A backend that runs the models and records each image_addr batch's ops (one entry per call).
#[derive(Default)]
struct RecordingImageAddr {
    models: Models,
    image_addr_batches: Vec<Vec<u8>>,
}

impl gcn_vmem_model::exec::Backend for RecordingImageAddr {
    fn buffer_addr(&mut self, i: &[gcn_vmem_model::buffer_addr::In]) -> Vec<gcn_vmem_model::buffer_addr::Out> {
        self.models.buffer_addr(i)
    }
    fn format_unpack(&mut self, i: &[gcn_vmem_model::format_unpack::In]) -> Vec<gcn_vmem_model::format_unpack::Out> {
        self.models.format_unpack(i)
    }
    fn format_pack(&mut self, i: &[gcn_vmem_model::format_pack::In]) -> Vec<gcn_vmem_model::format_pack::Out> {
        self.models.format_pack(i)
    }
    fn swizzle(&mut self, i: &[gcn_vmem_model::swizzle::In]) -> Vec<gcn_vmem_model::swizzle::Out> {
        self.models.swizzle(i)
    }
    fn d16(&mut self, i: &[gcn_vmem_model::d16::In]) -> Vec<gcn_vmem_model::d16::Out> {
        self.models.d16(i)
    }
    fn image_addr(&mut self, i: &[gcn_vmem_model::image_addr::In]) -> Vec<gcn_vmem_model::image_addr::Out> {
        self.image_addr_batches.push(i.iter().map(|x| x.op).collect());
        self.models.image_addr(i)
    }
    fn multi_texel(&mut self, i: &[gcn_vmem_model::multi_texel::In]) -> Vec<gcn_vmem_model::multi_texel::Out> {
        self.models.multi_texel(i)
    }
}

#[test]
fn plain_image_accesses_ask_image_addr_op_4_once_per_instruction_for_every_active_lane() {
    // docs/decisions.md "Outside the units": IMAGE_LOAD (and PCK), STORE, ATOMIC and GET_RESINFO
    // take their addresses and dimensions from image_addr, op 4, all active lanes in one batch;
    // the multi-texel loads their op (BY2 = 0). Three active lanes (exec 0b1011).
    let mut w = image_wave();
    w.exec = 0b1011;
    for kind in [
        ImageKind::Load { pck: false, sgn: false },
        ImageKind::Load { pck: true, sgn: false },
        ImageKind::Store,
        ImageKind::Atomic(AtomicOp::Add),
        ImageKind::GetResinfo,
    ] {
        let mut backend = RecordingImageAddr::default();
        run_image(&mut w, &image(kind, 1), &mut backend).unwrap();
        assert_eq!(backend.image_addr_batches, [vec![4u8; 3]], "{kind:?}");
    }
    // An R8 2D surface for BY2 (SPEC §4.3's table).
    w.sgprs[8..16].copy_from_slice(&tsharp(0x20, 1, 0, (8, 2), 9, (0, 0, 0), 8, 1));
    let mut backend = RecordingImageAddr::default();
    run_image(&mut w, &image(ImageKind::MultiTexel { op: 0 }, 0x3), &mut backend).unwrap();
    assert_eq!(backend.image_addr_batches, [vec![0u8; 3]]);
}

#[test]
fn a_tiled_store_and_load_on_the_models() {
    // 4KB_S (sw_mode 5 at T# bits 120:116 = SGPR 11 bits 24:20), RGBA8 (dfmt 10, 4 bytes), 4 × 4,
    // pitch 8, at 0x1000 (image_wave's surface). §4.5, 4-byte elements: bits 2..7 = x0 x1 y0 y1
    // y2 x2, so texel (1, 2) is at within = 4 (x0) + 32 (y1) = 0x24: 0x1024 (linear: 0x1044).
    // DMASK 0001 stores R = 1.0 → 0xff, G = B = A = 0.
    let mut w = image_wave();
    w.sgprs[11] |= 5 << 20;
    (w.vgprs[1][0], w.vgprs[2][0]) = (1, 2);
    w.vgprs[5][0] = 1.0f32.to_bits();
    run_i(&mut w, &image(ImageKind::Store, 1)).unwrap();
    assert_eq!((w.memory.read(0x1024, 4), w.memory.read(0x1044, 4)), (0xff, 0));
    // A tiled mode on a 1D image (type 8, SGPR 11 bits 31:28) is refused before anything runs.
    w.sgprs[11] = w.sgprs[11] & !(0xf << 28) | 8 << 28;
    let before = w.clone();
    let e = run_i(&mut w, &image(ImageKind::Store, 1)).unwrap_err();
    assert!(e.0.contains("sw_mode 5 (4KB_S) on a 1D T# (type 8)"), "{e}");
    assert_eq!(w, before);
}
