//! `multi_texel`: the result dwords of one lane's multi-texel image load (IMAGE_LOAD_BY2, BY4,
//! PCK2, PCK4 and their _MIP forms) from the group's fetched texels.
//!
//! Spec: docs/spec.md §4.3, §5  RTL: rtl/multi_texel.sv  Tests: tests/multi_texel.rs
//!
//! The group's n texels (n = 2 or 4) arrive as fetched from `image_addr`'s address: texel t at
//! bits 8·bpp·t upward, little-endian. Per SPEC §4.3:
//! 1. illegal = (op, DMASK, dfmt, nfmt) is not a row of [`FORMAT_TABLE`]; then result = 0 and
//!    result_count = 0.
//! 2. result_count = popcount(DMASK) of the row (BY2 R8/R16: 2, BY2 RG8: 4, BY4 R8: 4, PCK: 1).
//! 3. An invalid group writes 0 to every result dword (result_count unchanged).
//! 4. BY: texel t's components, in channel order (R, G), each converted as a normal load
//!    (format_unpack, SPEC §5), go to consecutive dwords: RG8 BY2 gives t0.R, t0.G, t1.R, t1.G.
//! 5. PCK: each component's raw bits, reconstructed from its unpacked value (unorm:
//!    round_half_even(v·(2^w − 1)) by format_pack; sint and uint: truncated to w bits), packed
//!    texel 0 first from bit 0; bits above the n texels are 0 (R8 PCK2: bits 31:16). For w = 8
//!    and 16 the reconstruction gives back the stored bits (tested exhaustively below), so the
//!    result is the texel bytes.
//!
//! `texels` bits above the group's n·bpp bytes are ignored. dst_sel is ignored (SPEC §4.3).
//!
//! Timing: `LATENCY = 2`. Stage 1 registers the computed outputs with the input's valid; the
//! output stage registers stage 1. `valid` shifts every edge; each stage's data registers load
//! only when the valid entering it is 1 and hold otherwise. Reset clears every register.

use crate::format::{self, low_mask};
use crate::format_pack;
use crate::format_unpack;
use crate::image_addr::{format_row, group_size, is_pck, texel_bytes, GROUP_OP_NAMES};
use crate::ports;
use crate::unit::{eval_object, pipelined_unit, Kind};

ports! {
    /// Inputs of `multi_texel`, in RTL port order. `dfmt`, `nfmt`: the T#'s; `texels`: the
    /// group's bytes as fetched, texel t at bits 8·bpp·t upward.
    pub struct In {
        valid: bool;
        op: u8 = 2, Kind::Enum(GROUP_OP_NAMES);
        dmask: u8 = 4;
        dfmt: u8 = 6;
        nfmt: u8 = 4;
        group_valid: bool;
        texels: u64, Kind::Hex;
    }
}
ports! {
    /// Outputs of `multi_texel`, in RTL port order. `result`: dword i at bits 32i+31:32i, 0 at
    /// and above `result_count`.
    pub struct Out {
        valid: bool;
        result: u128, Kind::List { width: 32, len: 4 };
        result_count: u8 = 3;
        illegal: bool;
    }
}

/// The combinational function of SPEC §4.3's result formation; `valid` is passed through.
pub fn compute(input: &In) -> Out {
    // Inputs narrower than their Rust type are masked to the port width first.
    let (op, dmask, dfmt, nfmt) = (input.op & 0x3, input.dmask & 0xf, input.dfmt & 0x3f, input.nfmt & 0xf);

    // Step 1: only the table's combinations are legal.
    let Some(row) = format_row(op, dmask, dfmt, nfmt) else {
        return Out { valid: input.valid, illegal: true, ..Out::default() };
    };

    // Step 2: DMASK counts the result dwords.
    let result_count = row.dmask.count_ones() as u8;

    // Step 3: an invalid group writes 0 to every result dword.
    if !input.group_valid {
        return Out { valid: input.valid, result_count, ..Out::default() };
    }

    // Texel t: bits 8·bpp·t upward, bpp 1 or 2 for the table's formats; within it the fields
    // of the dfmt (SPEC §1.4: R, or R then G), each converted on its own as format_unpack and
    // format_pack convert a field (every row's dfmt and nfmt are a pair that §1.4 accepts).
    let n = group_size(op);
    let texel_bits = 8 * texel_bytes(dfmt);
    let fields = format::fields(dfmt);
    let raw = |t: u32, f: &format::Field| (input.texels >> (texel_bits * t + f.offset)) as u32 & low_mask(f.width);

    let mut result = 0u128;
    if is_pck(op) {
        // Step 5, PCK: every component's raw bits, reconstructed from its unpacked value,
        // texel 0 at bit 0.
        for t in 0..n {
            for f in fields {
                let unpacked = format_unpack::unpack_field(raw(t, f), f.width, nfmt);
                let packed = format_pack::pack_field(unpacked, f.width, nfmt);
                result |= u128::from(packed) << (texel_bits * t + f.offset);
            }
        }
    } else {
        // Step 4, BY: every texel's converted components, channel order within the texel.
        let mut dword = 0;
        for t in 0..n {
            for f in fields {
                let component = format_unpack::unpack_field(raw(t, f), f.width, nfmt);
                result |= u128::from(component) << (32 * dword);
                dword += 1;
            }
        }
    }

    Out { valid: input.valid, result, result_count, illegal: false }
}

pipelined_unit! {
    /// The cycle-accurate model: two register stages, compute before stage 1.
    pub struct MultiTexel { NAME: "multi_texel", LATENCY: 2 }
}

// Functional coverage bins: rust/multi_texel/cover.rs.
pub mod cover;

// The unit's `eval` object (SPEC §13): its input ports in, this object out.
eval_object!(MultiTexel, |_input, out| {
    let n = usize::from(out.result_count).min(4);
    eval::object([
        ("result", Value::from(&crate::unit::words(out.result)[..n])),
        ("result_count", Value::from(out.result_count)),
        ("illegal", Value::from(out.illegal)),
    ])
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::f32_patterns::{MINUS_ONE, ONE, SNORM8_1, UNORM8_3};
    use crate::format::{NFMT_FLOAT, NFMT_SINT, NFMT_SNORM, NFMT_UINT, NFMT_UNORM, NFMT_USCALED};
    use crate::format_pack::pack_field;
    use crate::format_unpack::unpack_field;
    use crate::image_addr::{DFMT_R16, DFMT_R8, DFMT_RG8, FORMAT_TABLE, OP_BY2, OP_BY4, OP_PCK2, OP_PCK4};
    use crate::unit::{testing, words};
    use proptest::prelude::*;

    /// `compute` converts a row's fields with format_unpack's and format_pack's per-field
    /// functions, which are defined for the pairs SPEC §1.4 accepts only: every row's are.
    #[test]
    fn every_row_is_a_valid_format_pair() {
        for row in FORMAT_TABLE {
            for &nfmt in row.nfmts {
                assert!(crate::format::format_valid(row.dfmt, nfmt), "dfmt {} nfmt {nfmt}", row.dfmt);
            }
        }
    }

    fn run(op: u8, dmask: u8, dfmt: u8, nfmt: u8, texels: u64) -> Out {
        compute(&In { valid: true, op, dmask, dfmt, nfmt, group_valid: true, texels })
    }

    #[test]
    fn port_tables_match_the_rtl() {
        assert_eq!(
            testing::port_widths::<In>(),
            [("valid", 1), ("op", 2), ("dmask", 4), ("dfmt", 6), ("nfmt", 4), ("group_valid", 1), ("texels", 64)]
        );
        assert_eq!(testing::port_widths::<Out>(), [("valid", 1), ("result", 128), ("result_count", 3), ("illegal", 1)]);
    }

    /// BY2 DMASK 0x3, R8: texel 0 = bits 7:0, texel 1 = bits 15:8, one dword each; bits above
    /// 16 ignored. 0x03, 0xff: unorm 3/255 and 1.0; snorm 0x81 = −127 → −1.0, 0x01 → 1/127;
    /// uint 0xfe → 0xfe; sint 0xfe = −2 → 0xffff_fffe.
    #[test]
    fn by2_r8() {
        let junk = 0xdead_beef_0000_0000 | 0xabcd_0000;
        let o = run(OP_BY2, 0x3, DFMT_R8, NFMT_UNORM, junk | 0xff03);
        assert_eq!((words(o.result), o.result_count, o.illegal), ([UNORM8_3, ONE, 0, 0], 2, false));
        assert_eq!(words(run(OP_BY2, 0x3, DFMT_R8, NFMT_SNORM, junk | 0x0181).result), [MINUS_ONE, SNORM8_1, 0, 0]);
        assert_eq!(words(run(OP_BY2, 0x3, DFMT_R8, NFMT_UINT, junk | 0x7ffe).result), [0xfe, 0x7f, 0, 0]);
        assert_eq!(words(run(OP_BY2, 0x3, DFMT_R8, NFMT_SINT, junk | 0x7ffe).result), [0xffff_fffe, 0x7f, 0, 0]);
    }

    /// BY2 DMASK 0x3, R16: texel 0 = bits 15:0, texel 1 = 31:16. unorm 0xffff → 1.0, 0 → 0;
    /// snorm 0x8000 = −32768 → −1.0, 0x7fff → 1.0; uint/sint 0x8001 → 0x8001 / 0xffff_8001;
    /// float 0x3c00 = 1.0, 0xc000 = −2.0 → 0xc000_0000.
    #[test]
    fn by2_r16() {
        let o = run(OP_BY2, 0x3, DFMT_R16, NFMT_UNORM, 0xffff);
        assert_eq!((words(o.result), o.result_count), ([ONE, 0, 0, 0], 2));
        assert_eq!(words(run(OP_BY2, 0x3, DFMT_R16, NFMT_SNORM, 0x7fff_8000).result), [MINUS_ONE, ONE, 0, 0]);
        assert_eq!(words(run(OP_BY2, 0x3, DFMT_R16, NFMT_UINT, 0x0002_8001).result), [0x8001, 2, 0, 0]);
        assert_eq!(words(run(OP_BY2, 0x3, DFMT_R16, NFMT_SINT, 0x0002_8001).result), [0xffff_8001, 2, 0, 0]);
        assert_eq!(words(run(OP_BY2, 0x3, DFMT_R16, NFMT_FLOAT, 0xc000_3c00).result), [ONE, 0xc000_0000, 0, 0]);
    }

    /// The two rows of four one-byte components, DMASK 0xF: BY2 RG8 (t0.R, t0.G, t1.R, t1.G) and
    /// BY4 R8 (t0 .. t3) both give byte j of the group as dword j, byte 0 from bits 7:0; the bytes
    /// above the group are ignored. Bytes 0x11, 0x22, 0x33, 0x44 → uint dwords 0x11, 0x22, 0x33,
    /// 0x44; 0x01, 0xff, 0x03, 0x80 → uint 1, 0xff, 3, 0x80 and sint 1, −1, 3, −128; 0x01, 0x7f,
    /// 0x80 → sint 1, 0x7f, −128; unorm/snorm per byte (0xff → 1.0, 0x03 → 3/255; snorm 0x7f →
    /// 1.0, 0x80 → −1.0, 0x01 → 1/127).
    #[test]
    fn four_byte_groups_in_byte_order() {
        for (op, dfmt) in [(OP_BY2, DFMT_RG8), (OP_BY4, DFMT_R8)] {
            let by = |nfmt, texels| words(run(op, 0xf, dfmt, nfmt, texels).result);
            let o = run(op, 0xf, dfmt, NFMT_UINT, 0x4433_2211);
            assert_eq!((words(o.result), o.result_count), ([0x11, 0x22, 0x33, 0x44], 4), "op {op}");
            assert_eq!(by(NFMT_UINT, 0xffff_ffff_8003_ff01), [0x01, 0xff, 0x03, 0x80], "op {op}");
            assert_eq!(by(NFMT_SINT, 0x8003_ff01), [1, 0xffff_ffff, 3, 0xffff_ff80], "op {op}");
            assert_eq!(by(NFMT_SINT, 0x0080_7f01), [1, 0x7f, 0xffff_ff80, 0], "op {op}");
            assert_eq!(by(NFMT_UNORM, 0x0003_ff00), [0, ONE, UNORM8_3, 0], "op {op}");
            assert_eq!(by(NFMT_SNORM, 0x0180_7f00), [0, ONE, MINUS_ONE, SNORM8_1], "op {op}");
        }
    }

    /// PCK: the stored bits, texel 0 lowest, one dword, zero above the group. R8 PCK2 reads 2
    /// bytes: 0xbbaa → 0x0000_bbaa (bits 31:16 zero although the texels word has more bytes);
    /// R16 and RG8 PCK2 and R8 PCK4 fill the dword. Every nfmt of the rows gives the same bits.
    #[test]
    fn pck_rows() {
        let texels = 0x1122_3344_8899_bbaa;
        for nfmt in [NFMT_UNORM, NFMT_UINT, NFMT_SINT] {
            for (op, dfmt, expect) in [
                (OP_PCK2, DFMT_R8, 0x0000_bbaa),
                (OP_PCK2, DFMT_R16, 0x8899_bbaa),
                (OP_PCK2, DFMT_RG8, 0x8899_bbaa),
                (OP_PCK4, DFMT_R8, 0x8899_bbaa),
            ] {
                let o = run(op, 0x1, dfmt, nfmt, texels);
                assert_eq!(
                    (o.result, o.result_count, o.illegal),
                    (expect, 1, false),
                    "op {op} dfmt {dfmt} nfmt {nfmt}"
                );
            }
        }
    }

    /// Every row of the table is legal with its DMASK popcount; the neighbours are illegal with
    /// result 0 and result_count 0: another DMASK, another nfmt (snorm on PCK, float except BY2
    /// R16, uscaled, reserved 6, 8..=15), another dfmt (32, 16_16, 8_8_8_8, codes aliasing a row
    /// modulo 16), another op for the format.
    #[test]
    fn table_rows_and_rejected_neighbours() {
        for r in &FORMAT_TABLE {
            for &nfmt in r.nfmts {
                let o = run(r.op, r.dmask, r.dfmt, nfmt, 0x0102_0304);
                assert!(!o.illegal, "{r:?} nfmt {nfmt}");
                assert_eq!(u32::from(o.result_count), r.dmask.count_ones());
                for dmask in (0..16).filter(|&d| d != r.dmask) {
                    let o = run(r.op, dmask, r.dfmt, nfmt, 0x0102_0304);
                    assert_eq!(o, Out { valid: true, illegal: true, ..Out::default() }, "{r:?} dmask {dmask}");
                }
            }
            for nfmt in (0..16).filter(|n| !r.nfmts.contains(n)) {
                assert!(run(r.op, r.dmask, r.dfmt, nfmt, 1).illegal, "{r:?} nfmt {nfmt}");
            }
            for dfmt in [0, 4, 5, 10, r.dfmt + 16, r.dfmt + 32] {
                assert!(run(r.op, r.dmask, dfmt, r.nfmts[0], 1).illegal, "{r:?} dfmt {dfmt}");
            }
        }
        assert!(run(OP_PCK2, 0x1, DFMT_R8, NFMT_SNORM, 1).illegal);
        assert!(run(OP_BY2, 0x3, DFMT_R8, NFMT_FLOAT, 1).illegal);
        assert!(run(OP_BY2, 0x3, DFMT_R16, NFMT_USCALED, 1).illegal);
        assert!(run(OP_BY4, 0xf, DFMT_R16, NFMT_UNORM, 1).illegal);
        assert!(run(OP_BY4, 0xf, DFMT_RG8, NFMT_UNORM, 1).illegal);
        assert!(run(OP_PCK4, 0x1, DFMT_R16, NFMT_UINT, 1).illegal);
        assert!(run(OP_PCK4, 0x1, DFMT_RG8, NFMT_UINT, 1).illegal);
        // Illegal wins over an invalid group: result_count 0.
        let i = In { valid: true, op: OP_BY2, dmask: 0xf, dfmt: DFMT_R8, nfmt: 0, group_valid: false, texels: 1 };
        assert_eq!(compute(&i), Out { valid: true, illegal: true, ..Out::default() });
    }

    /// An invalid group writes zeros to the row's result dwords: result 0, result_count kept.
    #[test]
    fn invalid_group_gives_zeros() {
        for r in &FORMAT_TABLE {
            let i = In {
                valid: true,
                op: r.op,
                dmask: r.dmask,
                dfmt: r.dfmt,
                nfmt: r.nfmts[0],
                group_valid: false,
                texels: !0,
            };
            let o = compute(&i);
            assert_eq!((o.result, o.result_count, o.illegal), (0, r.dmask.count_ones() as u8, false), "{r:?}");
        }
    }

    /// Port-width masking: op 0x6 → 2 (PCK2), dmask 0x11 → 1, dfmt 0x41 → 1, nfmt 0x14 → 4.
    #[test]
    fn inputs_are_masked_to_port_width() {
        let o = run(0x6, 0x11, 0x41, 0x14, 0x1234_5678);
        assert_eq!((o.result, o.result_count, o.illegal), (0x5678, 1, false));
    }

    /// SPEC §4.3: for w = 8 and 16, every code v survives unorm unpack and reconstruction:
    /// round_half_even(f32(v / (2^w − 1)) · (2^w − 1)) = v. The f32 is within 2^−24 relative of
    /// v / (2^w − 1), so the product is within (2^w − 1)·2^−24 < 2^−8 of v, far inside the ±0.5
    /// that rounding forgives; the loop checks it for every code, once with an independent f64
    /// computation (exact: a 24-bit significand times a 16-bit integer) and once with
    /// format_pack's. sint: sign-extended then truncated to w bits gives the stored bits back;
    /// uint: zero-extended then truncated likewise.
    #[test]
    fn reconstruction_is_exact_for_every_8_and_16_bit_code() {
        for w in [8u32, 16] {
            let max = (1u32 << w) - 1;
            for v in 0..=max {
                let f = unpack_field(v, w, NFMT_UNORM);
                let product = f64::from(f32::from_bits(f)) * f64::from(max);
                assert_eq!(product.round_ties_even() as u32, v, "unorm{w} {v}: {f:#x}");
                assert_eq!(pack_field(f, w, NFMT_UNORM), v, "unorm{w} {v}");
                let s = unpack_field(v, w, NFMT_SINT);
                assert_eq!(s & max, v, "sint{w} {v}");
                assert_eq!(pack_field(s, w, NFMT_SINT), v, "sint{w} {v}");
                assert_eq!(pack_field(unpack_field(v, w, NFMT_UINT), w, NFMT_UINT), v, "uint{w} {v}");
            }
        }
    }

    /// The same through the unit: PCK gives the texel bytes for every 8- and 16-bit code in
    /// every position of the group.
    #[test]
    fn pck_returns_stored_bits_for_every_code() {
        for nfmt in [NFMT_UNORM, NFMT_UINT, NFMT_SINT] {
            for v in 0..=0xffffu64 {
                let texels = v | ((v ^ 0xa5a5) << 16);
                assert_eq!(run(OP_PCK2, 0x1, DFMT_R16, nfmt, texels).result, u128::from(texels as u32));
            }
            for v in 0..=0xffu64 {
                let texels = v | (v ^ 0x5a) << 8 | (!v & 0xff) << 16 | v << 24;
                assert_eq!(run(OP_PCK4, 0x1, DFMT_R8, nfmt, texels).result, u128::from(texels));
                assert_eq!(run(OP_PCK2, 0x1, DFMT_R8, nfmt, texels).result, u128::from(texels & 0xffff));
                assert_eq!(run(OP_PCK2, 0x1, DFMT_RG8, nfmt, texels).result, u128::from(texels));
            }
        }
    }

    /// Call j's valid input comes back from call j + 1; valid shifts every edge; data hold.
    #[test]
    fn timing() {
        let a = In {
            valid: true,
            op: OP_BY2,
            dmask: 0xf,
            dfmt: DFMT_RG8,
            nfmt: NFMT_UINT,
            group_valid: true,
            texels: 0x0403_0201,
        };
        let b = In { texels: 0x0807_0605, ..a };
        let junk = In { valid: false, texels: 0x0807_0605, ..a };
        let a_out = Out { valid: true, result: 0x4_0000_0003_0000_0002_0000_0001, result_count: 4, illegal: false };
        let b_out = Out { valid: true, ..compute(&b) };
        testing::assert_two_stage_timing(&mut MultiTexel::new(), &a, &b, &junk, a_out, b_out);
    }

    fn any_in() -> impl Strategy<Value = In> {
        (any::<bool>(), 0u8..4, 0u8..16, 0u8..64, 0u8..16, any::<bool>(), any::<u64>(), any::<bool>()).prop_map(
            |(valid, op, dmask, dfmt, nfmt, group_valid, texels, steer)| {
                if steer {
                    // A legal row half the time.
                    let r = FORMAT_TABLE[usize::from(dmask) % 8];
                    let nfmt = r.nfmts[usize::from(nfmt) % r.nfmts.len()];
                    In { valid, op: r.op, dmask: r.dmask, dfmt: r.dfmt, nfmt, group_valid, texels }
                } else {
                    In { valid, op, dmask, dfmt, nfmt, group_valid, texels }
                }
            },
        )
    }

    proptest! {
        /// Outputs fit their ports; dwords at and above result_count are 0; PCK is the texel
        /// bytes of the group.
        #[test]
        fn outputs_are_shaped(i in any_in()) {
            let o = compute(&i);
            testing::fits_ports(&o)?;
            prop_assert!(o.result_count <= 4);
            if o.result_count < 4 {
                prop_assert_eq!(o.result >> (32 * u32::from(o.result_count)), 0);
            }
            if !o.illegal && i.group_valid && is_pck(i.op) {
                let bits = 8 * texel_bytes(i.dfmt) * group_size(i.op);
                prop_assert_eq!(o.result, u128::from(i.texels) & ((1u128 << bits) - 1));
            }
        }

        /// The two-stage model equals "compute, delayed one call, holding on invalid".
        #[test]
        fn model_matches_delayed_compute(inputs in prop::collection::vec(any_in(), 1..40)) {
            testing::matches_delayed_compute::<MultiTexel>(&inputs, compute)?;
        }
    }
}
