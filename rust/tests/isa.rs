//! The instruction codec (rust/isa/) against LLVM's facts, with no simulator and no llvm-mc:
//! - every row of tests/data/llvm-gfx9-vmem.tsv (3,203 assembly/encoding pairs from LLVM's MC
//!   tests): the bytes decode, re-encode to themselves and disassemble to LLVM's canonical text
//!   (tests/data/llvm-gfx9-vmem.canonical.tsv, printed by llvm-mc), and the asm column and the
//!   canonical text assemble to the bytes;
//! - the opcode tables, the project's own opcodes, random round trips, and the error messages.
//!
//! The differential against llvm-mc itself is tests/isa_llvm.rs (harness crate).

use std::collections::HashMap;

use gcn_vmem_model::isa::{
    self, assemble, decode, disassemble, encode, ImageKind, Instruction, Mimg, MimgOp, Mtbuf, MtbufOp, Mubuf, MubufOp,
    Waitcnt, MIMG_OPCODES, MTBUF_OPCODES, MUBUF_OPCODES, OWN_MIMG_OPCODES,
};
use proptest::prelude::*;

const TABLE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/llvm-gfx9-vmem.tsv"));
const CANONICAL: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/llvm-gfx9-vmem.canonical.tsv"));

/// Encodings of the table that no llvm-mc disassembles, with the reason (docs/decisions.md
/// "Instruction encodings"): the codec's text for them is checked to assemble back instead.
const NO_PEER_TEXT: &[(&str, &str)] = &[(
    "00f40af3fefedd83",
    "image_gather4h with D16 at VDATA v254: LLVM's assembler writes it (gfx9_asm_mimg.s), its disassembler rejects it",
)];

/// Data lines of a TSV file (comments and the header skipped).
fn rows(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).skip(1).map(|l| l.split('\t').collect())
}

/// `ff0f00e000050203` (bytes in LLVM's order) → the two little-endian dwords.
fn words(hex: &str) -> [u32; 2] {
    let b: Vec<u8> = (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
    assert_eq!(b.len(), 8, "{hex}");
    [u32::from_le_bytes([b[0], b[1], b[2], b[3]]), u32::from_le_bytes([b[4], b[5], b[6], b[7]])]
}

#[test]
fn every_llvm_table_row_decodes_disassembles_and_assembles() {
    let canonical: HashMap<&str, (&str, &str)> =
        rows(CANONICAL).map(|r| (r[0], (r[1], r.get(2).copied().unwrap_or("")))).collect();
    let mut failures = Vec::new();
    let mut count = 0;
    let mut by_peer: HashMap<&str, usize> = HashMap::new();
    for row in rows(TABLE) {
        let [source, asm, hex] = row[..] else { panic!("malformed row {row:?}") };
        count += 1;
        let w = words(hex);
        let Some(&(text, peer)) = canonical.get(hex) else {
            failures.push(format!("{hex}: not in llvm-gfx9-vmem.canonical.tsv (rerun its script)"));
            continue;
        };
        *by_peer.entry(peer).or_default() += 1;
        let inst = match decode(&w) {
            Ok((inst, 2)) => inst,
            Ok((_, n)) => {
                failures.push(format!("{source} {hex}: decode took {n} dwords"));
                continue;
            }
            Err(e) => {
                failures.push(format!("{source} {hex} (`{asm}`): decode fails: {e}"));
                continue;
            }
        };
        if encode(&inst) != w {
            failures.push(format!("{source} {hex}: re-encodes to {:08x?}", encode(&inst)));
        }
        let ours = disassemble(&inst);
        if peer == "none" {
            if !NO_PEER_TEXT.iter().any(|(h, _)| *h == hex) {
                failures.push(format!("{source} {hex}: no llvm-mc text and not in NO_PEER_TEXT"));
            }
        } else if ours != text {
            failures.push(format!("{source} {hex}: disassembles to `{ours}`, {peer} prints `{text}`"));
        }
        for (what, line) in [("asm column", asm), ("canonical text", if peer == "none" { ours.as_str() } else { text })]
        {
            match assemble(line) {
                Ok(a) if a.encode() == w => {}
                Ok(a) => failures.push(format!("{source} {hex}: {what} `{line}` assembles to {:08x?}", a.encode())),
                Err(e) => failures.push(format!("{source} {hex}: {what} `{line}` does not assemble: {e}")),
            }
        }
    }
    assert_eq!(count, 3203, "rows of llvm-gfx9-vmem.tsv");
    assert!(failures.is_empty(), "{} of {count} rows fail:\n{}", failures.len(), failures.join("\n"));
    // 3195 rows are llvm-mc-14's text, 7 llvm-mc-16's (image_gather4h), 1 none (NO_PEER_TEXT).
    assert_eq!(by_peer.get("llvm-mc-16"), Some(&7), "{by_peer:?}");
    assert_eq!(by_peer.get("none"), Some(&NO_PEER_TEXT.len()), "{by_peer:?}");
}

#[test]
fn opcode_tables_are_consistent() {
    macro_rules! check {
        ($table:expr, $Op:ident) => {{
            let mut last = None;
            for info in $table {
                assert_eq!(info.op.code(), info.code, "{}", info.mnemonic);
                assert_eq!($Op::from_code(info.code), Some(info.op));
                assert_eq!($Op::from_mnemonic(info.mnemonic), Some(info.op));
                assert_eq!(info.op.info(), info);
                assert_eq!(info.op.to_string(), info.mnemonic);
                assert!(last < Some(info.code), "{} out of order", info.mnemonic);
                last = Some(info.code);
            }
            assert_eq!($Op::ALL.len(), $table.len());
        }};
    }
    check!(MUBUF_OPCODES, MubufOp);
    check!(MTBUF_OPCODES, MtbufOp);
    check!(MIMG_OPCODES, MimgOp);
    // GFX9 per llvm-mc-14: 69 MUBUF, 16 MTBUF, 89 MIMG opcodes; plus image_gather4h and the
    // project's eight.
    assert_eq!(MUBUF_OPCODES.len(), 69);
    assert_eq!(MTBUF_OPCODES.len(), 16);
    assert_eq!(MIMG_OPCODES.len(), 89 + 1 + 8);
    let mut names: Vec<&str> = MUBUF_OPCODES.iter().map(|i| i.mnemonic).collect();
    names.extend(MTBUF_OPCODES.iter().map(|i| i.mnemonic));
    names.extend(MIMG_OPCODES.iter().map(|i| i.mnemonic));
    let n = names.len();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), n, "mnemonics are unique");
}

#[test]
fn opcode_metadata_spot_checks() {
    let i = MubufOp::LoadSbyteD16Hi.info();
    assert!(i.is_load() && i.signed && i.d16 == isa::D16::Hi && i.bytes == Some(1) && !i.lds);
    let i = MubufOp::LoadFormatD16Xyz.info();
    assert!(i.format && i.bytes.is_none() && i.components == 3 && i.vgprs == 2);
    let i = MubufOp::AtomicCmpswapX2.info();
    assert!(i.is_atomic() && i.x2 && i.bytes == Some(8) && i.vgprs == 4 && i.atomic == Some(isa::AtomicOp::Cmpswap));
    assert!(i.returns(true, false) && !i.returns(false, false));
    assert!(MubufOp::LoadDword.info().lds && !MubufOp::StoreDword.info().lds);
    let i = MtbufOp::StoreFormatD16Xyzw.info();
    assert!(i.store && i.d16 && i.components == 4 && i.vgprs == 2);
    let i = MimgOp::LoadMipPckSgn.info();
    assert!(i.kind == ImageKind::Load && i.mip && i.pck && i.sgn && !i.d16);
    let i = MimgOp::SampleCDClO.info();
    assert!(i.kind == ImageKind::Sample && i.sampler && i.vaddr_print == 4);
    let i = MimgOp::AtomicDec.info();
    assert!(i.is_atomic() && i.atomic == Some(isa::AtomicOp::Dec) && !i.sampler);
    assert_eq!(MimgOp::GetResinfo.info().kind, ImageKind::Resinfo);
}

#[test]
fn own_opcodes_take_free_slots_and_round_trip() {
    assert_eq!(OWN_MIMG_OPCODES.len(), 8);
    for (k, &(op, code, mnemonic)) in OWN_MIMG_OPCODES.iter().enumerate() {
        let info = op.info();
        assert_eq!((info.code, info.mnemonic, op.code()), (code, mnemonic, code));
        assert_eq!(code, 0x70 + k as u8);
        assert!(info.own && info.kind == ImageKind::MultiTexel && !info.sampler);
        assert_eq!(info.mip, k >= 4, "{mnemonic}");
        assert_eq!(info.pck, k % 4 >= 2, "{mnemonic}");
        assert_eq!(info.group, if k % 2 == 0 { 2 } else { 4 }, "{mnemonic}");
        for (dmask, tfe, d16, da, vdata, vaddr) in
            [(0x3, false, false, false, 5, 1), (0xf, false, false, false, 252, 255), (0x1, true, true, true, 0, 0)]
        {
            let inst =
                Instruction::Mimg(Mimg { dmask, tfe, d16, da, vdata, vaddr, unorm: true, srsrc: 27, ..Mimg::new(op) });
            let w = encode(&inst);
            assert_eq!(w[0] >> 18 & 0x7f, u32::from(code));
            assert_eq!(decode(&w), Ok((inst, 2)));
            let text = disassemble(&inst);
            assert!(text.starts_with(&format!("{mnemonic} v")), "{text}");
            assert_eq!(assemble(&text), Ok(inst), "{text}");
        }
    }
    assert_eq!(
        disassemble(&assemble("image_load_mip_pck2 v7, v[2:4], s[8:15] dmask:0x1 unorm").unwrap()),
        "image_load_mip_pck2 v7, v2, s[8:15] dmask:0x1 unorm"
    );
    assert_eq!(
        assemble("image_load_by4 v[4:7], v[0:1], s[16:23] dmask:0xf unorm").unwrap().encode(),
        [0xf1c4_1f00, 0x0004_0400]
    );
}

/// Decoding fails with an error naming the field.
fn decode_error(w: [u32; 2]) -> (String, String) {
    let e = decode(&w).expect_err("must not decode");
    (e.field.to_string(), e.message)
}

#[test]
fn decode_errors_name_the_field() {
    let load_dword =
        encode(&Instruction::Mubuf(Mubuf { vdata: 5, srsrc: 2, soffset: 3, ..Mubuf::new(MubufOp::LoadDword) }));
    let image_load =
        encode(&Instruction::Mimg(Mimg { dmask: 1, vdata: 5, vaddr: 1, srsrc: 2, ..Mimg::new(MimgOp::Load) }));
    let cases: Vec<([u32; 2], &str, &str)> = vec![
        ([0xbf80_0000, 0], "ENCODING", "not a MUBUF/MTBUF/MIMG encoding: bits 31:26 = 0b101111"),
        ([load_dword[0] | 0x7f << 18, load_dword[1]], "OP", "MUBUF op 0x7f is not a GFX9 opcode"),
        ([load_dword[0] | 0x28 << 18, load_dword[1]], "OP", "MUBUF op 0x3c is not a GFX9 opcode"),
        ([image_load[0] | 0x4a << 18, image_load[1]], "OP", "IMAGE_GATHER4H_PCK"),
        ([load_dword[0] | 1 << 15, load_dword[1]], "bit 15", "MUBUF bit 15 is reserved"),
        ([load_dword[0], load_dword[1] | 1 << 22], "bit 54", "MUBUF bit 54 is reserved"),
        ([image_load[0] | 0x80, image_load[1]], "bits 7:0", "MIMG bits 7:0 are reserved"),
        ([load_dword[0], load_dword[1] | 31 << 16], "SRSRC", "SRSRC 31"),
        ([load_dword[0], load_dword[1] | 0xff << 24], "SOFFSET", "literal constant"),
        ([load_dword[0], load_dword[1] & !(0xff << 24) | 0xd1 << 24], "SOFFSET", "SOFFSET 0xd1"),
        (
            [load_dword[0] & !(0x7f << 18) | 0x08 << 18 | 1 << 16, load_dword[1]],
            "LDS",
            "buffer_load_format_d16_x: LDS = 1",
        ),
        ([load_dword[0] | 0x03 << 18, load_dword[1] | 0xfd << 8], "VDATA", "v253 with 4 registers"),
        ([load_dword[0] | 3 << 12, load_dword[1] | 0xff], "VADDR", "VADDR v255 with 2 registers"),
        ([image_load[0], image_load[1] | 3 << 21], "SSAMP", "image_load: SSAMP must be 0"),
        ([image_load[0] | 0x10 << 18, image_load[1] | 1 << 31], "D16", "image_atomic_swap: D16 must be 0"),
        ([image_load[0], image_load[1] & !(0x1f << 16) | 25 << 16], "SRSRC", "MIMG SRSRC 25"),
        ([image_load[0] | 0x20 << 18, image_load[1] | 31 << 21], "SSAMP", "MIMG SSAMP 31"),
        ([load_dword[0] & !(0x7f << 18) | 0x3e << 18 | 1 << 14, load_dword[1]], "GLC", "buffer_wbinvl1: GLC must be 0"),
        ([load_dword[0] & !(0x7f << 18) | 0x3d << 18, load_dword[1]], "LDS", "buffer_store_lds_dword: LDS must be 1"),
    ];
    for (w, field, text) in cases {
        let (f, message) = decode_error(w);
        assert_eq!(f, field, "{w:08x?}: {message}");
        assert!(message.contains(text), "{w:08x?}: `{message}` should contain `{text}`");
    }
    let e = decode(&[load_dword[0]]).unwrap_err();
    assert_eq!((e.field, e.message.as_str()), ("dwords", "a MUBUF instruction is 2 dwords; only 1 given"));
    assert_eq!(decode(&[]).unwrap_err().field, "dwords");
}

#[test]
fn assemble_errors_name_the_operand() {
    let cases: &[(&str, &str, &str)] = &[
        ("buffer_load_dwordz v1, off, s[4:7], s1", "mnemonic", "unknown mnemonic `buffer_load_dwordz`"),
        ("buffer_load_dword v[1:2], off, s[4:7], s1", "vdata", "buffer_load_dword takes 1"),
        ("buffer_load_dwordx2 s[2:3], off, s[4:7], s1", "vdata", "not a VGPR"),
        ("buffer_load_dword v1, v2, s[4:7], s1", "vaddr", "needs idxen or offen"),
        ("buffer_load_dword v1, off, s[4:7], s1 offen", "vaddr", "vaddr is `off`"),
        ("buffer_load_dword v1, v2, s[4:7], s1 idxen offen", "vaddr", "idxen/offen need 2"),
        ("buffer_load_dword v1, off, s[5:8], s1", "srsrc", "multiple of 4"),
        ("buffer_load_dword v1, off, s[4:6], s1", "srsrc", "4 consecutive SGPRs"),
        ("buffer_load_dword v1, off, s[4:7], 65", "soffset", "soffset: `65`"),
        ("buffer_load_dword v1, off, s[4:7], v1", "soffset", "soffset: `v1`"),
        ("buffer_load_dword v1, off, s[4:7], s1 offset:4096", "offset", "12 bits"),
        ("buffer_load_dword v1, off, s[4:7], s1 glc glc", "glc", "duplicate modifier `glc`"),
        ("buffer_store_dword v1, off, s[4:7], s1 lds", "lds", "`lds` is not a modifier of buffer_store_dword"),
        ("buffer_load_dword v1, off, s[4:7], s1 lds tfe", "tfe", "tfe cannot go with lds"),
        ("buffer_atomic_add v1, off, s[4:7], s1 tfe", "tfe", "not a modifier of buffer_atomic_add"),
        ("buffer_load_dword v1, off, s[4:7]", "operands", "takes 4 operands"),
        ("buffer_load_dword v1, off, s[4:7], s1 dmask:0x1", "dmask", "not a modifier"),
        ("tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_64]", "format", "BUF_DATA_FORMAT_64"),
        ("tbuffer_load_format_x v1, off, s[4:7], s1 format:128", "format", "0..127"),
        (
            "tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_8,BUF_DATA_FORMAT_16]",
            "format",
            "two data formats",
        ),
        ("image_load v[1:2], v2, s[8:15] dmask:0x1", "vdata", "takes 1"),
        ("image_load v1, v2, s[8:15] dmask:0x10", "dmask", "4 bits"),
        ("image_load v1, v2, s[8:11] dmask:0x1", "srsrc", "8 consecutive SGPRs"),
        ("image_load v1, v2, s[8:15] dmask:0x1 r128", "r128", "GFX9 has no R128 bit"),
        ("image_load v1, v2, s[8:15], s[0:3] dmask:0x1", "operands", "takes 3 operands"),
        ("image_sample v1, v2, s[8:15] dmask:0x1", "operands", "takes 4 operands"),
        ("image_atomic_add v1, v2, s[8:15] dmask:0x1 d16", "d16", "not a modifier of image_atomic_add"),
        ("image_load v1, v[0:16], s[8:15] dmask:0x1", "vaddr", "at most 16"),
        ("image_sample v1, v2, s[8:15], s[124:127] dmask:0x1", "ssamp", "not a tuple GFX9 can encode"),
        ("buffer_wbinvl1 v1", "operands", "takes no operand"),
        // s_waitcnt: llvm-mc-14 says "too large value for vmcnt" and "invalid counter name foo".
        ("s_waitcnt vmcnt(64)", "vmcnt", "vmcnt is 0..63"),
        ("s_waitcnt expcnt(8)", "expcnt", "expcnt is 0..7"),
        ("s_waitcnt vmcnt(0) lgkmcnt(16)", "lgkmcnt", "lgkmcnt is 0..15"),
        ("s_waitcnt vmcnt(-1)", "vmcnt", "vmcnt is 0..63"),
        ("s_waitcnt vmcnt(x)", "vmcnt", "not an integer"),
        ("s_waitcnt foo(1)", "counter", "unknown counter `foo`"),
        ("s_waitcnt vmcnt(0) bar", "counter", "`bar` is not a counter"),
        ("s_waitcnt vmcnt(0", "counter", "is not a counter"),
        ("s_waitcnt", "operands", "none given"),
        ("s_waitcnt 0x10000", "simm16", "16 bits"),
    ];
    assert_assembly_errors(cases);
}

/// Each `(text, field, part)`: assembling `text` fails on `field` with a message containing `part`.
fn assert_assembly_errors(cases: &[(&str, &str, &str)]) {
    for &(text, field, part) in cases {
        let e = assemble(text).expect_err(text);
        assert_eq!(e.field, field, "`{text}`: {e}");
        assert!(e.message.contains(part), "`{text}`: `{}` should contain `{part}`", e.message);
    }
}

#[test]
fn assembler_accepts_llvm_spellings() {
    let same = |a: &str, b: &str| {
        let (x, y) =
            (assemble(a).unwrap_or_else(|e| panic!("{a}: {e}")), assemble(b).unwrap_or_else(|e| panic!("{b}: {e}")));
        assert_eq!(x, y, "`{a}` vs `{b}`");
    };
    same("buffer_load_dword v5, off, s[8:11], s3 glc offset:4", "buffer_load_dword v5, off, s[8:11], s3 offset:4 glc");
    same("buffer_load_dword [v5], off, [s8,s9,s10,s11], s[3:3]", "buffer_load_dword v5, off, s[8:11], s3");
    same("buffer_load_dword v[5:5], off, s[8:11], s[3]", "buffer_load_dword v5, off, s[8:11], s3");
    same("BUFFER_LOAD_DWORD V5, OFF, S[8:11], S3 GLC", "buffer_load_dword v5, off, s[8:11], s3 glc");
    same("buffer_load_dword v5, off, s[8:11], 0x3f800000", "buffer_load_dword v5, off, s[8:11], 1.0");
    same("buffer_load_dword v5, off, s[8:11], 0x40", "buffer_load_dword v5, off, s[8:11], 64");
    same("buffer_load_dword v5, off, s[8:11], 0.15915494309189532", "buffer_load_dword v5, off, s[8:11], 0.15915494");
    same("buffer_load_dword v5, off, s[8:11], shared_base", "buffer_load_dword v5, off, s[8:11], src_shared_base");
    same("buffer_load_dword v5, off, s[8:11], scc", "buffer_load_dword v5, off, s[8:11], src_scc");
    same("buffer_load_dword v5, off, s[8:11], s3 offset:0xfff", "buffer_load_dword v5, off, s[8:11], s3 offset:4095");
    same("buffer_load_dword v5, off, s[8:11], s3 ; encoding: [0x00]", "buffer_load_dword v5, off, s[8:11], s3");
    same("buffer_load_dword v[1:2], off, s[4:7], s1 tfe", "buffer_load_dword v1, off, s[4:7], s1 tfe");
    same("buffer_load_dword off, s[8:11], s3 lds", "buffer_load_dword v0, off, s[8:11], s3 lds");
    same(
        "buffer_load_sbyte v[0:1], s[8:11], s3 idxen offen lds",
        "buffer_load_sbyte v0, v[0:1], s[8:11], s3 idxen offen lds",
    );
    same("buffer_store_lds_dword s[4:7], s0 offset:4095", "buffer_store_lds_dword s[4:7], s0 offset:4095 lds");
    same(
        "tbuffer_load_format_x v5, off, s[8:11], s3 format:[BUF_NUM_FORMAT_FLOAT, BUF_DATA_FORMAT_32] offset:4",
        "tbuffer_load_format_x v5, off, s[8:11], s3 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offset:4",
    );
    same(
        "tbuffer_load_format_x v5, off, s[8:11], s3 format:116",
        "tbuffer_load_format_x v5, off, s[8:11], s3 dfmt:4 nfmt:7",
    );
    same(
        "tbuffer_load_format_x v5, off, s[8:11], s3 format:[BUF_DATA_FORMAT_8]",
        "tbuffer_load_format_x v5, off, s[8:11], s3",
    );
    same("image_load v5, v[1:4], s[8:15] dmask:1 a16 unorm", "image_load v5, v1, s[8:15] unorm dmask:0x1 a16");
    same(
        "image_atomic_cmpswap v[5:6], v1, s[8:15] dmask:0x3 unorm glc",
        "image_atomic_cmpswap v[5:6], v1, s[8:15] glc dmask:3 unorm",
    );
    same(
        "image_sample v5, v1, ttmp[8:15], xnack_mask dmask:0x1",
        "image_sample v5, v1, s[116:123], s[104:107] dmask:0x1",
    );
}

#[test]
fn format_and_soffset_printing() {
    let t = |s: &str| disassemble(&assemble(s).unwrap());
    assert_eq!(
        t("tbuffer_store_format_xy v[1:2], v[2:3], s[4:7], m0 format:[BUF_NUM_FORMAT_SINT] idxen offen offset:7 glc slc tfe"),
        "tbuffer_store_format_xy v[1:2], v[2:3], s[4:7], m0 format:[BUF_NUM_FORMAT_SINT] idxen offen offset:7 glc slc tfe"
    );
    assert_eq!(
        t("tbuffer_load_format_x v1, off, s[4:7], -16 format:[BUF_NUM_FORMAT_UNORM,BUF_DATA_FORMAT_INVALID]"),
        "tbuffer_load_format_x v1, off, s[4:7], -16 format:[BUF_DATA_FORMAT_INVALID]"
    );
    assert_eq!(
        t("buffer_atomic_add v1, v2, s[4:7], -1.0 offen glc slc"),
        "buffer_atomic_add v1, v2, s[4:7], -1.0 offen glc slc"
    );
    assert_eq!(t("buffer_wbinvl1_vol"), "buffer_wbinvl1_vol");
    assert_eq!(
        t("image_gather4 v[5:8], v1, s[8:15], s[12:15] dmask:0x1 d16 tfe"),
        "image_gather4 v[5:8], v1, s[8:15], s[12:15] dmask:0x1 tfe d16"
    );
}

/// What LLVM cannot express (VADDR with `off`, TFE on atomics and LDS loads, the operands of the
/// cache invalidations) survives decode/encode but not the text: assembling the text gives
/// [`Instruction::canonical`].
#[test]
fn dropped_fields_survive_the_encoding_not_the_text() {
    let m = Mubuf { vaddr: 9, tfe: true, vdata: 3, srsrc: 1, ..Mubuf::new(MubufOp::AtomicSwap) };
    let inst = Instruction::Mubuf(m);
    assert_eq!(decode(&encode(&inst)), Ok((inst, 2)));
    assert_eq!(disassemble(&inst), "buffer_atomic_swap v3, off, s[4:7], s0");
    let canonical = Instruction::Mubuf(Mubuf { vaddr: 0, tfe: false, ..m });
    assert_eq!(inst.canonical(), canonical);
    assert_eq!(assemble(&disassemble(&inst)), Ok(canonical));
    let wb = Instruction::Mubuf(Mubuf { offset: 7, slc: true, vdata: 4, soffset: 9, ..Mubuf::new(MubufOp::Wbinvl1) });
    assert_eq!(disassemble(&wb), "buffer_wbinvl1");
    assert_eq!(wb.canonical(), Instruction::Mubuf(Mubuf::new(MubufOp::Wbinvl1)));
    let t = Instruction::Mtbuf(Mtbuf { vaddr: 77, ..Mtbuf::new(MtbufOp::LoadFormatX) });
    assert_eq!(disassemble(&t), "tbuffer_load_format_x v0, off, s[0:3], s0");
}

/// `s_waitcnt` (SPEC §14.1): (source text, llvm-mc's text, its dword). Produced by
/// `echo SOURCE | llvm-mc-14 -arch=amdgcn -mcpu=gfx900 -show-encoding` (Debian LLVM 14.0.6); the
/// text is also what `llvm-mc-14 … -disassemble` prints for the dword.
const WAITCNT_LLVM: &[(&str, &str, u32)] = &[
    ("s_waitcnt vmcnt(0)", "s_waitcnt vmcnt(0)", 0xbf8c_0f70),
    ("s_waitcnt vmcnt(3) lgkmcnt(0)", "s_waitcnt vmcnt(3) lgkmcnt(0)", 0xbf8c_0073),
    ("s_waitcnt vmcnt(0) & lgkmcnt(0)", "s_waitcnt vmcnt(0) lgkmcnt(0)", 0xbf8c_0070),
    ("s_waitcnt vmcnt(0),lgkmcnt(0)", "s_waitcnt vmcnt(0) lgkmcnt(0)", 0xbf8c_0070),
    ("s_waitcnt vmcnt(1) expcnt(2) lgkmcnt(3)", "s_waitcnt vmcnt(1) expcnt(2) lgkmcnt(3)", 0xbf8c_0321),
    ("s_waitcnt expcnt(0)", "s_waitcnt expcnt(0)", 0xbf8c_cf0f),
    ("s_waitcnt lgkmcnt(0)", "s_waitcnt lgkmcnt(0)", 0xbf8c_c07f),
    ("s_waitcnt vmcnt(15)", "s_waitcnt vmcnt(15)", 0xbf8c_0f7f),
    ("s_waitcnt vmcnt(16)", "s_waitcnt vmcnt(16)", 0xbf8c_4f70),
    ("s_waitcnt vmcnt(63)", "s_waitcnt vmcnt(63) expcnt(7) lgkmcnt(15)", 0xbf8c_cf7f),
    ("s_waitcnt vmcnt(63) expcnt(7) lgkmcnt(15)", "s_waitcnt vmcnt(63) expcnt(7) lgkmcnt(15)", 0xbf8c_cf7f),
    ("s_waitcnt vmcnt(0) vmcnt(1)", "s_waitcnt vmcnt(1)", 0xbf8c_0f71),
    ("s_waitcnt vmcnt_sat(70)", "s_waitcnt vmcnt(63) expcnt(7) lgkmcnt(15)", 0xbf8c_cf7f),
    ("s_waitcnt 0", "s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)", 0xbf8c_0000),
    ("s_waitcnt 0x3f70", "s_waitcnt vmcnt(0)", 0xbf8c_3f70),
    ("s_waitcnt 16240", "s_waitcnt vmcnt(0)", 0xbf8c_3f70),
    ("s_waitcnt 0xffff", "s_waitcnt vmcnt(63) expcnt(7) lgkmcnt(15)", 0xbf8c_ffff),
    ("s_waitcnt -1", "s_waitcnt vmcnt(63) expcnt(7) lgkmcnt(15)", 0xbf8c_ffff),
];

/// Dwords llvm-mc-14 only disassembles (`echo BYTES | llvm-mc-14 -arch=amdgcn -mcpu=gfx900
/// -disassemble -show-encoding`): bit 7 and vmcnt's high bits.
const WAITCNT_LLVM_DISASM: &[(u32, &str)] =
    &[(0xbf8c_0ff0, "s_waitcnt vmcnt(0)"), (0xbf8c_8f7f, "s_waitcnt vmcnt(47)"), (0xbf8c_3f7f, "s_waitcnt vmcnt(15)")];

#[test]
fn s_waitcnt_matches_llvm_mc() {
    for &(source, text, dword) in WAITCNT_LLVM {
        let inst = assemble(source).unwrap_or_else(|e| panic!("`{source}`: {e}"));
        assert_eq!(inst.mnemonic(), "s_waitcnt");
        let words = encode(&inst);
        assert_eq!(words, [dword], "`{source}` encodes to {words:08x?}");
        assert_eq!(decode(&words), Ok((inst, 1)), "`{source}`");
        // A trailing dword is the next instruction's, not this one's.
        assert_eq!(decode(&[dword, 0xe050_5004]), Ok((inst, 1)));
        assert_eq!(disassemble(&inst), text, "`{source}`");
        // The text assembles back to the instruction without the unused SIMM16 bits.
        assert_eq!(assemble(text), Ok(inst.canonical()), "`{text}`");
    }
    for &(dword, text) in WAITCNT_LLVM_DISASM {
        let (inst, 1) = decode(&[dword]).unwrap() else { panic!("{dword:#x}: not one dword") };
        assert_eq!(disassemble(&inst), text, "{dword:#x}");
        assert_eq!(encode(&inst), [dword]);
    }
    let Instruction::Waitcnt(w) = assemble("s_waitcnt vmcnt(3) lgkmcnt(0)").unwrap() else { panic!("not a waitcnt") };
    assert_eq!(w, Waitcnt { vmcnt: 3, lgkmcnt: 0, ..Waitcnt::new() });
    assert_eq!(Waitcnt::new(), Waitcnt { vmcnt: 63, expcnt: 7, lgkmcnt: 15, unused: 0 });
}

#[test]
fn s_waitcnt_errors_name_the_counter() {
    // Out-of-range fields built by hand are rejected by validate, naming the counter.
    let e = Instruction::Waitcnt(Waitcnt { vmcnt: 64, ..Waitcnt::new() }).validate().unwrap_err();
    assert_eq!(e.field, "vmcnt");
    // Other SOPP instructions stay unknown (s_nop 0, s_sethalt).
    for w in [0xbf80_0000, 0xbf8d_cf7f] {
        let e = decode(&[w]).unwrap_err();
        assert_eq!(e.field, "ENCODING");
        assert!(e.message.contains("only S_WAITCNT (op 12)"), "{}", e.message);
    }
}

fn any_instruction() -> impl Strategy<Value = Instruction> {
    // Each field drawn uniformly over its width; SRSRC and SSAMP are 5 bits, SSAMP 0 without a sampler.
    let mubuf = (0..MUBUF_OPCODES.len(), 0u16..4096, any::<[bool; 6]>(), any::<[u8; 3]>(), 0u8..32).prop_map(
        |(k, offset, [offen, idxen, glc, lds, slc, tfe], [vaddr, vdata, soffset], srsrc)| {
            let op = MUBUF_OPCODES[k].op;
            Instruction::Mubuf(Mubuf { op, offset, offen, idxen, glc, lds, slc, tfe, vaddr, vdata, srsrc, soffset })
        },
    );
    let mtbuf = (0..MTBUF_OPCODES.len(), 0u16..4096, any::<[bool; 5]>(), any::<[u8; 3]>(), 0u8..32, 0u8..16, 0u8..8)
        .prop_map(|(k, offset, [offen, idxen, glc, slc, tfe], [vaddr, vdata, soffset], srsrc, dfmt, nfmt)| {
            let op = MTBUF_OPCODES[k].op;
            let m = Mtbuf { op, offset, offen, idxen, glc, slc, tfe, dfmt, nfmt, vaddr, vdata, srsrc, soffset };
            Instruction::Mtbuf(m)
        });
    let mimg = (0..MIMG_OPCODES.len(), 0u8..16, any::<[bool; 8]>(), any::<[u8; 2]>(), 0u8..32, 0u8..32).prop_map(
        |(k, dmask, [unorm, glc, da, a16, tfe, lwe, slc, d16], [vaddr, vdata], srsrc, ssamp)| {
            let (op, ssamp) = (MIMG_OPCODES[k].op, if MIMG_OPCODES[k].sampler { ssamp } else { 0 });
            Instruction::Mimg(Mimg { op, dmask, unorm, glc, da, a16, tfe, lwe, slc, d16, vaddr, vdata, srsrc, ssamp })
        },
    );
    let waitcnt = any::<u16>().prop_map(|simm16| Instruction::Waitcnt(Waitcnt::from_simm16(simm16)));
    prop_oneof![mubuf, mtbuf, mimg, waitcnt]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    /// Every valid instruction survives encode/decode exactly and text/assemble up to the
    /// fields the text drops; every invalid one is rejected by decode and by assemble alike.
    #[test]
    fn round_trips(inst in any_instruction()) {
        let words = encode(&inst);
        match inst.validate() {
            Ok(()) => {
                prop_assert_eq!(words.len(), inst.dwords());
                prop_assert_eq!(decode(&words), Ok((inst, inst.dwords())));
                let text = disassemble(&inst);
                prop_assert_eq!(assemble(&text), Ok(inst.canonical()), "{}", text);
                prop_assert_eq!(disassemble(&inst.canonical()), text);
            }
            Err(e) => {
                prop_assert_eq!(decode(&words), Err(e));
            }
        }
    }
}
