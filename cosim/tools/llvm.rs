//! LLVM's AMDGPU assembler as a differential peer of [`gcn_vmem_model::isa`]: a driver for
//! `llvm-mc-14 --disassemble` (batched, one instruction per input line) and the random
//! differential used by tests/isa_llvm.rs and `gcn-vmem llvm-diff`.
//!
//! Each sample is an encoding; llvm-mc prints its text and its own re-encoding. They agree when
//! 1. decode(encoding) is accepted exactly when llvm-mc decodes it (the opcodes llvm-mc-14 does
//!    not have, the project's own and image_gather4h, must be rejected by it), apart from the
//!    differences kept on purpose ([`explained`]),
//! 2. our [`disassemble`] text equals llvm-mc's,
//! 3. our [`assemble`] of llvm-mc's text encodes to llvm-mc's encoding (= our
//!    [`Instruction::canonical`]), and
//! 4. our encode(decode(encoding)) gives the encoding back.
//!
//! Batching: llvm-mc reads all lines as one byte stream, so a word it rejects can make it lose
//! step with the following bytes (TOOLCHAIN.md). Every instruction line is therefore followed by
//! two numbered separator instructions that put it back in step and say whose output precedes
//! them ([`map_output`]), and stderr's warnings name the lines it rejected; output of any other
//! shape is split in halves and rerun.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context as _};

use gcn_vmem_model::isa::operand::{scalar_source_name, sgpr_tuple4_name, sgpr_tuple8_name};
use gcn_vmem_model::isa::{
    assemble, decode, disassemble, encode, BufKind, ImageKind, Instruction, Mimg, MimgOp, Mtbuf, MtbufOp, Mubuf,
    MubufOp, ENCODING_MIMG, ENCODING_MTBUF, ENCODING_MUBUF, OWN_MIMG_OPCODES,
};

/// The llvm-mc the project tests against (Debian package `llvm-14`).
pub const DEFAULT_LLVM_MC: &str = "llvm-mc-14";

/// A located llvm-mc of LLVM 14.
#[derive(Clone, Debug)]
pub struct LlvmMc {
    pub path: PathBuf,
    /// The first line of `--version` naming the release, e.g. "Debian LLVM version 14.0.6".
    pub version: String,
}

/// What llvm-mc made of one encoding: its text and its own re-encoding, or `None` when it
/// rejected the bytes as an invalid instruction encoding.
pub type Disassembly = Option<(String, [u32; 2])>;

impl LlvmMc {
    /// `$LLVM_MC`, else `llvm-mc-14` on PATH. Fails with the fix (`make deps`) when missing.
    pub fn find() -> anyhow::Result<LlvmMc> {
        let name = std::env::var("LLVM_MC").unwrap_or_else(|_| DEFAULT_LLVM_MC.to_string());
        LlvmMc::at(&name)
    }

    /// The llvm-mc called `name` (a path or a name on PATH).
    pub fn at(name: &str) -> anyhow::Result<LlvmMc> {
        let out = Command::new(name).arg("--version").output().map_err(|e| {
            anyhow::anyhow!(
                "cannot run `{name}` ({e}): LLVM's assembler is the differential peer of the instruction codec; \
                 run `make deps` (installs Debian's llvm-14, which provides llvm-mc-14) or set LLVM_MC to an llvm-mc"
            )
        })?;
        let text = String::from_utf8_lossy(&out.stdout);
        let version = text.lines().find(|l| l.contains("LLVM version")).unwrap_or("").trim().to_string();
        let major: u32 = version
            .split("version ")
            .nth(1)
            .and_then(|v| v.split('.').next())
            .and_then(|v| v.parse().ok())
            .with_context(|| format!("`{name} --version` names no LLVM version: {text}"))?;
        if major != 14 {
            bail!("`{name}` is LLVM {major}; the codec prints LLVM 14's text (later releases differ): use llvm-mc-14");
        }
        Ok(LlvmMc { path: PathBuf::from(name), version })
    }

    /// Disassembles every encoding (one llvm-mc run when all decode; see the module docs).
    pub fn disassemble(&self, encodings: &[[u32; 2]]) -> anyhow::Result<Vec<Disassembly>> {
        let mut out = vec![None; encodings.len()];
        self.disassemble_into(encodings, &mut out)?;
        Ok(out)
    }

    fn disassemble_into(&self, encodings: &[[u32; 2]], out: &mut [Disassembly]) -> anyhow::Result<()> {
        if encodings.is_empty() {
            return Ok(());
        }
        if encodings.len() > MAX_BATCH {
            let (lo, hi) = out.split_at_mut(MAX_BATCH);
            self.disassemble_into(&encodings[..MAX_BATCH], lo)?;
            return self.disassemble_into(&encodings[MAX_BATCH..], hi);
        }
        let (stdout, stderr) = self.run(encodings)?;
        if let Some(result) = map_output(encodings.len(), &stdout, &stderr) {
            out.clone_from_slice(&result);
            return Ok(());
        }
        // Unexpected output (it never happened in testing): halve until each part maps.
        if encodings.len() == 1 {
            out[0] = None;
            return Ok(());
        }
        let half = encodings.len() / 2;
        let (lo, hi) = out.split_at_mut(half);
        self.disassemble_into(&encodings[..half], lo)?;
        self.disassemble_into(&encodings[half..], hi)
    }

    /// One llvm-mc run over the encodings, line k followed by two separators `s_nop k`.
    fn run(&self, encodings: &[[u32; 2]]) -> anyhow::Result<(String, String)> {
        let mut input = String::with_capacity(encodings.len() * 80);
        for (k, e) in encodings.iter().enumerate() {
            let sep = separator_line(k);
            input.push_str(&byte_line(e));
            input.push('\n');
            input.push_str(&sep);
            input.push_str(&sep);
        }
        let mut child = Command::new(&self.path)
            .args(["-arch=amdgcn", "-mcpu=gfx900", "--disassemble", "-show-encoding"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("starting {}", self.path.display()))?;
        let mut stdin = child.stdin.take().context("llvm-mc stdin")?;
        let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
        let output = child.wait_with_output().context("waiting for llvm-mc")?;
        writer.join().map_err(|_| anyhow::anyhow!("llvm-mc stdin writer panicked"))?.context("writing to llvm-mc")?;
        Ok((String::from_utf8_lossy(&output.stdout).into_owned(), String::from_utf8_lossy(&output.stderr).into_owned()))
    }
}

/// Batches larger than this are split (the separators number the lines in 16 bits).
const MAX_BATCH: usize = 1 << 16;

/// The separator after line k: `s_nop k` (bytes k, k >> 8, 0x80, 0xbf). After a word it rejects,
/// llvm-mc skips 4 bytes and decodes the second dword as whatever it is, which swallows at most
/// the next 4 bytes (a 64-bit instruction, or a 32-bit one with a literal): one of the two
/// separators is always printed, and it names the line whose output precedes it.
fn separator_line(k: usize) -> String {
    format!("{:#04x},{:#04x},0x80,0xbf\n", k & 0xff, (k >> 8) & 0xff)
}

/// Maps llvm-mc's output to the `n` input encodings. A printed line belongs to the line after the
/// last separator printed before it (line 0 before any); stderr's `<stdin>:L:1: warning: invalid
/// instruction encoding` marks the lines llvm-mc rejected (line k is input line 3k + 1), whose
/// output is the junk of their second dword. `None` when the output has another shape.
fn map_output(n: usize, stdout: &str, stderr: &str) -> Option<Vec<Disassembly>> {
    let mut rejected = vec![false; n];
    for line in stderr.lines() {
        let Some(rest) = line.strip_prefix("<stdin>:") else { continue };
        let mut parts = rest.splitn(3, ':');
        let (Some(l), Some(c), Some(what)) = (parts.next(), parts.next(), parts.next()) else { continue };
        let (l, c): (usize, usize) = (l.parse().ok()?, c.parse().ok()?);
        if !what.contains("invalid instruction encoding") {
            return None;
        }
        if c == 1 && l % 3 == 1 && l / 3 < n {
            rejected[l / 3] = true;
        }
    }
    let mut lines: Vec<Vec<(String, Vec<u8>)>> = vec![Vec::new(); n];
    let mut owner = 0usize;
    for line in stdout.lines() {
        let Some((text, bytes)) = parse_output_line(line) else { continue };
        if bytes.len() == 4 && bytes[2..] == [0x80, 0xbf] && text.starts_with("s_nop") {
            owner = (usize::from(bytes[0]) | usize::from(bytes[1]) << 8) + 1;
        } else if owner < n {
            lines[owner].push((text, bytes));
        } else {
            return None;
        }
    }
    let mut out = Vec::with_capacity(n);
    for (group, rejected) in lines.into_iter().zip(rejected) {
        if rejected {
            out.push(None);
            continue;
        }
        let [(text, bytes)] = <[_; 1]>::try_from(group).ok()?;
        if bytes.len() != 8 {
            return None;
        }
        let w0 = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        let w1 = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]);
        out.push(Some((text, [w0, w1])));
    }
    Some(out)
}

/// `0x04,0x50,0x50,0xe0,…`: the little-endian bytes llvm-mc reads.
pub fn byte_line(words: &[u32; 2]) -> String {
    let bytes: Vec<String> = words.iter().flat_map(|w| w.to_le_bytes()).map(|b| format!("{b:#04x}")).collect();
    bytes.join(",")
}

/// `\tbuffer_load_dword v1, …   ; encoding: [0x00,…]` → (text, bytes).
fn parse_output_line(line: &str) -> Option<(String, Vec<u8>)> {
    let (text, enc) = line.split_once("; encoding:")?;
    let bytes = enc
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split(',')
        .map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).ok())
        .collect::<Option<Vec<u8>>>()?;
    Some((text.trim().to_string(), bytes))
}

/// The differential's seedable generator: the harness's SplitMix64 ([`crate::engine::stimulus::Rng`]),
/// with the draws the samplers below use, so the samples depend on the seed only.
#[derive(Clone, Debug)]
pub struct Rng(crate::engine::stimulus::Rng);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(crate::engine::stimulus::Rng::new(seed))
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// Uniform in 0..n (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    pub fn bool(&mut self) -> bool {
        self.next_u64() & 1 != 0
    }
    /// `true` with probability 1/n.
    pub fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }
    pub fn byte(&mut self) -> u8 {
        self.next_u64() as u8
    }
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

/// Every opcode the peer knows: GFX9's, without the project's own and image_gather4h (added to
/// LLVM after release 14).
pub fn peer_opcodes() -> (Vec<MubufOp>, Vec<MtbufOp>, Vec<MimgOp>) {
    let mimg = MimgOp::ALL.iter().copied().filter(|op| !op.info().own && *op != MimgOp::Gather4h).collect();
    (MubufOp::ALL.to_vec(), MtbufOp::ALL.to_vec(), mimg)
}

/// The encodings where the codec and llvm-mc disagree on purpose (docs/decisions.md
/// "Instruction encodings"), with the reason:
/// - MUBUF op 0x71: llvm-mc prints `buffer_wbinvl1` (SI's number for it) and keeps 0x71, but
///   assembles that text to GFX9's 0x3e; GFX9 has no op 0x71, the codec rejects it (only raw
///   words reach it).
/// - a gather with D16 whose registers fit below v256 but four would not (VDATA v253, v254):
///   llvm-mc's disassembler rejects it (it tries the four-register variant first) though its
///   assembler writes it; the codec accepts it.
pub fn explained(encoding: [u32; 2]) -> Option<&'static str> {
    let w0 = encoding[0];
    if w0 >> 26 == ENCODING_MUBUF && (w0 >> 18 & 0x7f) == 0x71 {
        return Some("MUBUF op 0x71 (SI's buffer_wbinvl1): rejected by the codec, decoded by llvm-mc");
    }
    if let Ok((Instruction::Mimg(m), _)) = decode(&encoding) {
        if m.info().kind == ImageKind::Gather && m.d16 && u32::from(m.vdata) + 4 > 256 {
            return Some("gather with D16 at v253/v254: accepted by the codec, rejected by llvm-mc's disassembler");
        }
    }
    None
}

/// Whether the peer has the instruction's opcode ([`peer_opcodes`]).
pub fn peer_knows(inst: &Instruction) -> bool {
    match inst {
        Instruction::Mimg(m) => !m.info().own && m.op != MimgOp::Gather4h,
        _ => true,
    }
}

fn soffset(rng: &mut Rng) -> u8 {
    loop {
        let code = match rng.below(4) {
            0 => rng.below(0x66) as u8,
            1 => 0x80 + rng.below(0x51) as u8,
            _ => rng.byte(),
        };
        if scalar_source_name(code).is_some() {
            return code;
        }
    }
}

fn tuple4(rng: &mut Rng) -> u8 {
    loop {
        let f = rng.below(32) as u8;
        if sgpr_tuple4_name(f).is_some() {
            return f;
        }
    }
}

fn tuple8(rng: &mut Rng) -> u8 {
    loop {
        let f = rng.below(32) as u8;
        if sgpr_tuple8_name(f).is_some() {
            return f;
        }
    }
}

/// A VGPR number biased to the ends of the file.
fn vgpr(rng: &mut Rng) -> u8 {
    match rng.below(8) {
        0 => 255 - rng.below(4) as u8,
        1 => rng.below(4) as u8,
        _ => rng.byte(),
    }
}

fn offset(rng: &mut Rng) -> u16 {
    match rng.below(4) {
        0 => 0,
        1 => 4095,
        _ => rng.below(4096) as u16,
    }
}

/// A random instruction of `op` with every field drawn within what the encoding allows (valid
/// for [`Instruction::validate`]); the fields llvm-mc ignores are drawn too.
pub fn random_mubuf(rng: &mut Rng, op: MubufOp) -> Instruction {
    loop {
        let info = op.info();
        let mut m = Mubuf {
            op,
            offset: offset(rng),
            offen: rng.bool(),
            idxen: rng.bool(),
            glc: rng.bool(),
            lds: info.lds && rng.one_in(3),
            slc: rng.bool(),
            vaddr: vgpr(rng),
            vdata: vgpr(rng),
            srsrc: tuple4(rng),
            tfe: rng.bool(),
            soffset: soffset(rng),
        };
        match info.kind {
            BufKind::Invalidate => {
                m.glc = false;
                m.lds = false;
                m.offen = false;
                m.idxen = false;
            }
            BufKind::StoreLds => {
                m.lds = true;
                m.offen = false;
                m.idxen = false;
            }
            _ => {}
        }
        let inst = Instruction::Mubuf(m);
        if inst.validate().is_ok() {
            return inst;
        }
    }
}

pub fn random_mtbuf(rng: &mut Rng, op: MtbufOp) -> Instruction {
    loop {
        let inst = Instruction::Mtbuf(Mtbuf {
            op,
            offset: offset(rng),
            offen: rng.bool(),
            idxen: rng.bool(),
            glc: rng.bool(),
            dfmt: if rng.one_in(4) { 1 } else { rng.below(16) as u8 },
            nfmt: if rng.one_in(4) { 0 } else { rng.below(8) as u8 },
            vaddr: vgpr(rng),
            vdata: vgpr(rng),
            srsrc: tuple4(rng),
            slc: rng.bool(),
            tfe: rng.bool(),
            soffset: soffset(rng),
        });
        if inst.validate().is_ok() {
            return inst;
        }
    }
}

pub fn random_mimg(rng: &mut Rng, op: MimgOp) -> Instruction {
    loop {
        let info = op.info();
        let inst = Instruction::Mimg(Mimg {
            op,
            dmask: rng.below(16) as u8,
            unorm: rng.bool(),
            glc: rng.bool(),
            da: rng.bool(),
            a16: rng.bool(),
            tfe: rng.bool(),
            lwe: rng.bool(),
            slc: rng.bool(),
            vaddr: vgpr(rng),
            vdata: vgpr(rng),
            srsrc: tuple8(rng),
            ssamp: if info.sampler { tuple4(rng) } else { 0 },
            d16: info.d16 && rng.bool(),
        });
        if inst.validate().is_ok() {
            return inst;
        }
    }
}

/// One sample: a random valid instruction of a random opcode the peer knows (formats weighted
/// by their opcode counts), or with `raw`, every fourth sample a random word pair with a
/// format's ENCODING and its reserved bits clear (valid or not: both sides must agree).
pub fn random_encoding(rng: &mut Rng, raw: bool) -> [u32; 2] {
    let (mubuf, mtbuf, mimg) = peer_opcodes();
    if raw && rng.one_in(4) {
        let w0 = rng.next_u64() as u32;
        let w1 = rng.next_u64() as u32;
        return match rng.below(3) {
            0 => [(w0 & 0x03ff_7fff & !(1 << 25)) | ENCODING_MUBUF << 26, w1 & !(3 << 21)],
            1 => [(w0 & 0x03ff_ffff) | ENCODING_MTBUF << 26, w1 & !(1 << 21)],
            _ => [(w0 & 0x03ff_ff00) | ENCODING_MIMG << 26, w1 & !(0x1f << 26)],
        };
    }
    let total = (mubuf.len() + mtbuf.len() + mimg.len()) as u64;
    let k = rng.below(total) as usize;
    let inst = if k < mubuf.len() {
        random_mubuf(rng, mubuf[k])
    } else if k < mubuf.len() + mtbuf.len() {
        random_mtbuf(rng, mtbuf[k - mubuf.len()])
    } else {
        random_mimg(rng, mimg[k - mubuf.len() - mtbuf.len()])
    };
    inst.encode()
}

/// Compares the codec with llvm-mc's result for one encoding; `Err` is the disagreement as one
/// line naming the encoding, both sides and the check.
pub fn compare(encoding: [u32; 2], peer: &Disassembly) -> Result<(), String> {
    let hex = format!("{:#010x} {:#010x}", encoding[0], encoding[1]);
    let ours = decode(&encoding);
    let (inst, (text, peer_words)) = match (ours, peer) {
        (Err(_), None) => return Ok(()),
        (Err(_), Some(_)) if explained(encoding).is_some() => return Ok(()),
        (Err(e), Some((text, _))) => {
            return Err(format!("DISAGREE {hex}: llvm-mc decodes `{text}`, the codec rejects it: {e}"));
        }
        (Ok((inst, _)), None) if !peer_knows(&inst) || explained(encoding).is_some() => return Ok(()),
        (Ok((inst, _)), Some((text, _))) if !peer_knows(&inst) => {
            return Err(format!(
                "DISAGREE {hex}: llvm-mc decodes `{text}` where the codec has `{}`, an opcode it should not know",
                disassemble(&inst)
            ));
        }
        (Ok((inst, _)), None) => {
            return Err(format!("DISAGREE {hex}: llvm-mc rejects it, the codec decodes `{}`", disassemble(&inst)));
        }
        (Ok((inst, _)), Some(p)) => (inst, p),
    };
    let ours_text = disassemble(&inst);
    if &ours_text != text {
        return Err(format!("DISAGREE {hex}: text: llvm-mc `{text}`, codec `{ours_text}`"));
    }
    if encode(&inst) != encoding {
        return Err(format!("DISAGREE {hex}: codec re-encodes {:x?}", encode(&inst)));
    }
    let canonical = inst.canonical().encode();
    if canonical != *peer_words {
        return Err(format!(
            "DISAGREE {hex}: canonical encoding: llvm-mc {:#010x} {:#010x}, codec {:#010x} {:#010x} (`{text}`)",
            peer_words[0], peer_words[1], canonical[0], canonical[1]
        ));
    }
    match assemble(text) {
        Ok(a) if a.encode() == *peer_words => Ok(()),
        Ok(a) => Err(format!(
            "DISAGREE {hex}: assembling llvm-mc's `{text}` gives {:#010x} {:#010x}, llvm-mc {:#010x} {:#010x}",
            a.encode()[0],
            a.encode()[1],
            peer_words[0],
            peer_words[1]
        )),
        Err(e) => Err(format!("DISAGREE {hex}: the codec cannot assemble llvm-mc's `{text}`: {e}")),
    }
}

/// The result of a differential run.
#[derive(Clone, Debug, Default)]
pub struct DiffSummary {
    pub samples: u64,
    /// Samples llvm-mc decoded (the rest were raw words both sides rejected).
    pub decoded: u64,
    /// Samples where the two sides differ on purpose ([`explained`]).
    pub explained: u64,
    pub disagreements: u64,
    /// The first disagreement lines (at most `max_report`).
    pub lines: Vec<String>,
    pub seconds: f64,
}

/// Runs `count` samples from `seed` in batches of `batch` on `jobs` threads; `report` is called
/// with every disagreement line as it is found (at most `max_report` times). The samples
/// depend on the seed and the count, not on `jobs` or `batch`.
#[allow(clippy::too_many_arguments)]
pub fn differential(
    mc: &LlvmMc,
    count: u64,
    seed: u64,
    jobs: usize,
    batch: usize,
    raw: bool,
    max_report: usize,
    report: &(dyn Fn(&str) + Sync),
) -> anyhow::Result<DiffSummary> {
    let start = Instant::now();
    let batch = batch.max(1) as u64;
    let batches = count.div_ceil(batch);
    let next = AtomicU64::new(0);
    let decoded = AtomicU64::new(0);
    let explained_count = AtomicU64::new(0);
    let disagreements = AtomicU64::new(0);
    let lines = Mutex::new(Vec::new());
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let b = next.fetch_add(1, Ordering::Relaxed);
                if b >= batches || failure.lock().map(|f| f.is_some()).unwrap_or(true) {
                    return;
                }
                // Each batch has its own stream, so the samples do not depend on the threads.
                let mut rng = Rng::new(seed ^ b.wrapping_mul(0xa076_1d64_78bd_642f));
                let n = batch.min(count - b * batch);
                let encodings: Vec<[u32; 2]> = (0..n).map(|_| random_encoding(&mut rng, raw)).collect();
                let peer = match mc.disassemble(&encodings) {
                    Ok(p) => p,
                    Err(e) => {
                        if let Ok(mut f) = failure.lock() {
                            f.get_or_insert(e);
                        }
                        return;
                    }
                };
                for (e, p) in encodings.iter().zip(&peer) {
                    if p.is_some() {
                        decoded.fetch_add(1, Ordering::Relaxed);
                    }
                    if explained(*e).is_some() {
                        explained_count.fetch_add(1, Ordering::Relaxed);
                    }
                    if let Err(line) = compare(*e, p) {
                        let k = disagreements.fetch_add(1, Ordering::Relaxed);
                        if (k as usize) < max_report {
                            report(&line);
                            if let Ok(mut l) = lines.lock() {
                                l.push(line);
                            }
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    Ok(DiffSummary {
        samples: count,
        decoded: decoded.into_inner(),
        explained: explained_count.into_inner(),
        disagreements: disagreements.into_inner(),
        lines: lines.into_inner().unwrap_or_default(),
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Encodings of the project's own MIMG opcodes with assorted fields: llvm-mc must reject every
/// one (the slots are free in GFX9).
pub fn own_opcode_encodings(seed: u64, per_opcode: usize) -> Vec<[u32; 2]> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for &(op, _, _) in OWN_MIMG_OPCODES {
        out.push(Instruction::Mimg(Mimg { dmask: 1, ..Mimg::new(op) }).encode());
        for _ in 0..per_opcode {
            out.push(random_mimg(&mut rng, op).encode());
        }
    }
    out
}
