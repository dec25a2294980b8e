//! The instruction codec (gcn_vmem_model::isa) against LLVM's own tool, llvm-mc-14 (Debian
//! package `llvm-14`; `make deps` installs it): random valid encodings of every opcode llvm-mc
//! knows, random raw words, and the project's own opcode slots, which llvm-mc must reject.
//! Fails (never skips) when llvm-mc-14 is missing. The driver is gcn_vmem::tools::llvm, shared
//! with `gcn-vmem llvm-diff`; the command line's decode and asm are tested here too.

use std::process::Command;

use gcn_vmem::tools::llvm::{
    self, own_opcode_encodings, peer_opcodes, random_mimg, random_mtbuf, random_mubuf, LlvmMc, Rng,
};
use gcn_vmem_model::isa::{assemble, decode, disassemble, encode, Instruction};

fn mc() -> LlvmMc {
    LlvmMc::find().unwrap_or_else(|e| panic!("{e:#}"))
}

/// Every opcode llvm-mc-14 has, 24 random instances each (all fields drawn), in one batch.
#[test]
fn every_opcode_agrees_with_llvm_mc() {
    let mc = mc();
    let mut rng = Rng::new(0x015a_110c);
    let (mubuf, mtbuf, mimg) = peer_opcodes();
    let mut encodings = Vec::new();
    for _ in 0..24 {
        encodings.extend(mubuf.iter().map(|&op| random_mubuf(&mut rng, op).encode()));
        encodings.extend(mtbuf.iter().map(|&op| random_mtbuf(&mut rng, op).encode()));
        encodings.extend(mimg.iter().map(|&op| random_mimg(&mut rng, op).encode()));
    }
    let peer = mc.disassemble(&encodings).expect("llvm-mc runs");
    let failures: Vec<String> = encodings.iter().zip(&peer).filter_map(|(e, p)| llvm::compare(*e, p).err()).collect();
    assert!(failures.is_empty(), "{} of {} disagree:\n{}", failures.len(), encodings.len(), failures.join("\n"));
    let decoded = peer.iter().filter(|p| p.is_some()).count();
    // Only the explained gathers (D16 at v253/v254) are rejected by llvm-mc.
    assert!(decoded * 100 >= encodings.len() * 99, "llvm-mc decoded only {decoded} of {}", encodings.len());
}

/// The differential as `make llvm-diff` runs it, smaller: random valid encodings, then random
/// raw words with a format's ENCODING (valid or not: decode must accept exactly what llvm-mc
/// accepts, except the explained cases).
#[test]
fn random_differential_agrees() {
    let mc = mc();
    for (seed, count, raw) in [(1, 3_000, false), (2, 3_000, true)] {
        let summary = llvm::differential(&mc, count, seed, 2, 500, raw, 20, &|_| {}).expect("llvm-mc runs");
        assert_eq!(summary.samples, count);
        assert!(
            summary.disagreements == 0,
            "seed {seed}, raw {raw}: {} disagreement(s):\n{}",
            summary.disagreements,
            summary.lines.join("\n")
        );
    }
}

/// The project's own MIMG opcodes (0x70..0x77) are free: llvm-mc-14 rejects every encoding.
#[test]
fn llvm_mc_rejects_the_own_opcode_slots() {
    let mc = mc();
    let encodings = own_opcode_encodings(7, 16);
    assert_eq!(encodings.len(), 8 * 17);
    for (e, p) in encodings.iter().zip(mc.disassemble(&encodings).expect("llvm-mc runs")) {
        let (inst, _) = decode(e).expect("the codec decodes its own opcodes");
        assert!(p.is_none(), "llvm-mc decodes the own slot of `{}` as `{}`", disassemble(&inst), p.unwrap().0);
    }
}

/// The batching survives words llvm-mc rejects (it loses step without the separators).
#[test]
fn batches_map_rejected_words() {
    let mc = mc();
    let valid = Instruction::Mubuf(gcn_vmem_model::isa::Mubuf {
        vdata: 5,
        srsrc: 2,
        soffset: 3,
        ..gcn_vmem_model::isa::Mubuf::new(gcn_vmem_model::isa::MubufOp::LoadDword)
    })
    .encode();
    // MIMG op 0x06 (free), whose second dword llvm-mc then reads as a 64-bit VOP3 instruction.
    let rejected = [0xf018_0000, 0xd100_0000];
    let encodings = [valid, rejected, valid, rejected, rejected, valid];
    let peer = mc.disassemble(&encodings).expect("llvm-mc runs");
    let texts: Vec<Option<&str>> = peer.iter().map(|p| p.as_ref().map(|(t, _)| t.as_str())).collect();
    let load = Some("buffer_load_dword v5, off, s[8:11], s3");
    assert_eq!(texts, [load, None, load, None, None, load]);
}

/// Runs llvm-mc over `input` (one line each) with `args`; its lines without `.text`.
fn llvm_mc_lines(mc: &LlvmMc, args: &[&str], input: &str) -> Vec<String> {
    use std::io::Write as _;
    let mut child = Command::new(&mc.path)
        .args(["-arch=amdgcn", "-mcpu=gfx900", "-show-encoding"])
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("start llvm-mc");
    child.stdin.take().unwrap().write_all(input.as_bytes()).expect("write to llvm-mc");
    let out = child.wait_with_output().expect("llvm-mc runs");
    assert!(out.status.success(), "llvm-mc failed on {input}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with(".text"))
        .map(str::to_string)
        .collect()
}

/// `s_waitcnt` (SPEC §14.1; one SOPP dword, so outside the two-dword batches above): the
/// codec's text for assorted dwords (every counter value, the unused SIMM16 bits set) is what
/// llvm-mc disassembles them to, and llvm-mc assembles that text to the codec's encoding of it.
#[test]
fn s_waitcnt_agrees_with_llvm_mc() {
    let mc = mc();
    let mut rng = Rng::new(0x5a17_c0de);
    let mut dwords: Vec<u32> = vec![0xbf8c_0f70, 0xbf8c_0073, 0xbf8c_cf7f, 0xbf8c_3f70, 0xbf8c_ffff, 0xbf8c_0000];
    dwords.extend((0..64u32).map(|vm| 0xbf8c_0f70 | (vm & 15) | (vm >> 4) << 14));
    dwords.extend((0..64).map(|_| 0xbf8c_0000 | rng.next_u64() as u32 & 0xffff));
    let le_bytes = |w: u32| w.to_le_bytes().iter().map(|b| format!("{b:#04x}")).collect::<Vec<_>>().join(",");
    let bytes: String = dwords.iter().map(|&w| le_bytes(w) + "\n").collect();
    let peer = llvm_mc_lines(&mc, &["-disassemble"], &bytes);
    assert_eq!(peer.len(), dwords.len(), "{peer:?}");
    let mut texts = Vec::new();
    for (w, line) in dwords.iter().zip(&peer) {
        let (inst, used) = decode(&[*w]).unwrap_or_else(|e| panic!("{w:#010x}: {e}"));
        assert_eq!(used, 1);
        let (peer_text, _) = line.split_once(" ;").unwrap_or((line, ""));
        assert_eq!(disassemble(&inst), peer_text.trim(), "{w:#010x}");
        texts.push(disassemble(&inst));
    }
    let peer = llvm_mc_lines(&mc, &[], &(texts.join("\n") + "\n"));
    assert_eq!(peer.len(), texts.len(), "{peer:?}");
    for (text, line) in texts.iter().zip(&peer) {
        let words = encode(&assemble(text).unwrap());
        assert_eq!(words.len(), 1);
        assert!(line.ends_with(&format!("; encoding: [{}]", le_bytes(words[0]))), "`{text}`: llvm-mc says `{line}`");
    }
}

fn gcn_vmem(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gcn-vmem")).args(args).output().expect("run gcn-vmem");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_decode_and_asm() {
    assert_eq!(
        gcn_vmem(&["decode", "0xe0505004", "0x01010102"]),
        (0, "buffer_load_dword v1, v2, s[4:7], s1 offen offset:4 glc\n".to_string(), String::new())
    );
    assert_eq!(
        gcn_vmem(&["decode", "e0505004 01010102"]).1,
        "buffer_load_dword v1, v2, s[4:7], s1 offen offset:4 glc\n"
    );
    assert_eq!(
        gcn_vmem(&["asm", "buffer_load_dword v1, v2, s[4:7], s1 offen offset:4 glc"]),
        (0, "0xe0505004 0x01010102\n".to_string(), String::new())
    );
    assert_eq!(
        gcn_vmem(&["asm", "image_load_by2", "v[4:5],", "v0,", "s[16:23]", "dmask:0x3", "unorm"]).1,
        "0xf1c01300 0x00040400\n"
    );
    let (code, out, err) = gcn_vmem(&["decode", "0xe1fc0000", "0x00000000"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains("MUBUF op 0x7f is not a GFX9 opcode"), "{err}");
    let (code, out, err) = gcn_vmem(&["decode", "0xbf800000", "0"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains("bits 31:26 = 0b101111"), "{err}");
    let (code, _, err) = gcn_vmem(&["decode", "0xe0505004"]);
    assert_eq!(code, 1);
    assert!(err.contains("2 dwords"), "{err}");
    assert_eq!(gcn_vmem(&["asm", "s_waitcnt", "vmcnt(0)"]), (0, "0xbf8c0f70\n".to_string(), String::new()));
    assert_eq!(gcn_vmem(&["decode", "0xbf8c0073"]), (0, "s_waitcnt vmcnt(3) lgkmcnt(0)\n".to_string(), String::new()));
    let (code, out, err) = gcn_vmem(&["asm", "buffer_load_dword v[1:2], v2, s[4:7], s1 offen"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains("vdata"), "{err}");
}
