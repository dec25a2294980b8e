//! Random programs for the VMEM pipeline (SPEC §14): buffer loads, stores and
//! atomics on a wave whose addresses are biased to reuse lines (hits after misses), straddle
//! blocks, conflict on banks, interleave loads after stores to the same bytes, and to wait with
//! `s_waitcnt vmcnt(N)`; each with its own testbench configuration (L2 latency spread and
//! back-pressure, VGPR-port back-pressure, a reset in mid-run, the default or the small
//! pipeline). Every drawn instruction is one the executor runs
//! (an instruction the executor rejects is drawn again), so a program's result is always defined.
//! Drawing only: the binding ([`super`]) records traces of them, and the suite ([`super::suite`])
//! runs them against the RTL.

use gcn_vmem_model::exec::{self, Models, Wave, LANES};
use gcn_vmem_model::isa::{self, Instruction, MtbufOp, MubufOp, Waitcnt};

use crate::engine::stimulus::Rng;
use super::testbench::Config;

/// One random program for the pipeline: its wave, its instructions and its testbench.
#[derive(Clone, Debug)]
pub struct PipeCase {
    pub wave: Wave,
    pub program: Vec<Instruction>,
    pub config: Config,
}

/// VGPRs the programs use: addresses v1..v4, data v8..v15.
const VADDR: u8 = 1;
const VDATA: u8 = 8;
/// The V#'s SGPRs.
const VSHARP_SGPR: usize = 4;
/// The registers of a program's exec file ([`super::suite::to_exec_file`]), as `(first, count)`:
/// s1 (SOFFSET), the V#'s, and s[8:15], the executor suite's T# (the two suites' files have one
/// layout, `crate::exec::suite::FILE_SGPRS`).
pub const FILE_SGPRS: [(usize, usize); 3] = [(1, 1), (VSHARP_SGPR, 4), (8, 8)];
/// The VGPRs of a program's exec file: the addresses and the data.
pub const FILE_VGPRS: [u8; 12] =
    [VADDR, VADDR + 1, VADDR + 2, VADDR + 3, VDATA, VDATA + 1, VDATA + 2, VDATA + 3, VDATA + 4, VDATA + 5, VDATA + 6, VDATA + 7];
/// The memory the V# points at, filled with random bytes.
const REGION: u64 = 0x4000;

/// A V# (SPEC §1.1): base, stride, num_records, dfmt/nfmt, no swizzle, no add_tid.
fn vsharp(base: u64, stride: u64, num_records: u32, dfmt: u8, nfmt: u8) -> u128 {
    u128::from(base & ((1 << 48) - 1))
        | u128::from(stride & 0x3fff) << 48
        | u128::from(num_records) << 64
        | 0xfac_u128 << 96 // dst_sel x, y, z, w
        | u128::from(nfmt & 7) << 108
        | u128::from(dfmt & 0xf) << 111
}

/// Lane addresses (offset VGPRs) with the patterns that matter to the TA and TCP.
fn offsets(rng: &mut Rng) -> [u32; LANES] {
    let pattern = rng.below(10);
    let shift = rng.below(4) as u32 * 4;
    std::array::from_fn(|l| {
        let l32 = l as u32;
        match pattern {
            // Consecutive dwords: one block per quad, fully coalesced.
            0 | 1 => 4 * l32,
            // Consecutive 8 and 16 bytes (multi-dword elements).
            2 => 8 * l32,
            3 => 16 * l32,
            // One line per lane, banks in turn; one bank, a new line each lane (conflicts).
            4 => 64 * l32,
            5 => 256 * l32 % 0x2000,
            // Misaligned: lanes straddle blocks.
            6 => 4 * l32 + 1 + shift % 3,
            // A few lines, reused.
            7 => 4 * (rng.below(48) as u32),
            // One bank, 1 KiB apart: 64 lines of one bank in one instruction, so the next
            // instruction to that bank evicts.
            9 => 1024 * l32 + 64 * shift,
            // Anywhere in the region.
            _ => (rng.below(REGION) as u32) & !3,
        }
    })
}

/// Draws one case; `len` is the number of buffer instructions (waits come on top).
pub fn draw(rng: &mut Rng, len: usize) -> PipeCase {
    let mut wave = Wave::default();
    let base = 0x10000 + 64 * rng.below(64) + if rng.chance(0.125) { 4 * rng.below(16) } else { 0 };
    let stride = rng.pick(&[0u64, 4, 16, 64, 256]);
    let num_records = if rng.chance(0.75) { 0x10_0000 } else { rng.below(0x2000) as u32 };
    let dfmt = rng.pick(&[1u8, 2, 4, 5, 7, 10, 11, 13, 14]);
    let nfmt = rng.pick(&[0u8, 1, 4, 5, 7]);
    let v = vsharp(base, stride, num_records, dfmt, nfmt);
    for i in 0..4 {
        wave.sgprs[VSHARP_SGPR + i] = (v >> (32 * i)) as u32;
    }
    wave.sgprs[1] = if rng.bit() { 0 } else { 4 * rng.below(16) as u32 };
    wave.exec = match rng.below(6) {
        0..=2 => u64::MAX,
        3 => rng.next_u64(),
        4 => 1 << rng.below(64),
        _ => 0xffff_ffff << (32 * rng.below(2)),
    };
    for v in VADDR..VADDR + 4 {
        wave.vgprs[usize::from(v)] = if v == VADDR + 3 {
            std::array::from_fn(|l| l as u32 % 8) // small indices
        } else {
            offsets(rng)
        };
    }
    for v in VDATA..VDATA + 8 {
        wave.vgprs[usize::from(v)] = std::array::from_fn(|_| rng.next_u32());
    }
    for k in 0..REGION / 4 {
        wave.memory.write(base + 4 * k, 4, u128::from(rng.next_u32()));
    }

    let config = Config {
        latency: match rng.below(3) {
            0 => (50, 50),
            1 => (1, 8),
            _ => (20, 120),
        },
        seed: rng.next_u64(),
        l2_stall: if rng.bit() { 0.0 } else { 0.3 },
        vgpr_stall: if rng.bit() { 0.0 } else { 0.3 },
        // A quarter reset in mid-run (with responses still owed, mostly), a third run at the
        // small configuration.
        reset: rng.chance(0.25).then(|| (1 + rng.below(400), 1 + rng.below(3) as u8)),
        small: rng.chance(1.0 / 3.0),
        ..Config::default()
    };

    let mut program: Vec<Instruction> = Vec::new();
    let mut state = wave.clone();
    let mut models = Models::default();
    let mut placed = 0;
    let mut attempts = 0;
    while placed < len && attempts < 8 * len {
        attempts += 1;
        if !program.is_empty() && rng.chance(1.0 / 6.0) {
            let mut w = Waitcnt::new();
            w.vmcnt = rng.below(4) as u8;
            program.push(Instruction::Waitcnt(w));
        }
        let inst = match rng.below(8) {
            // The same instruction again (hits), or a load with a store's addressing (reads
            // what it wrote).
            0 if !program.is_empty() => repeat(rng, &program),
            _ => instruction(rng),
        };
        let mut next = state.clone();
        if exec::run(&mut next, &inst, &mut models).is_ok() {
            state = next;
            program.push(inst);
            placed += 1;
        }
    }
    if rng.chance(0.125) {
        lru_scenario(&mut wave, &mut program);
    }
    PipeCase { wave, program, config }
}

/// One bank's LRU order at work, which random addresses rarely reach: 32 lines of bank 0 from
/// v1 (lane stride 1 KiB, lanes 32..63 repeating 0..31), 32 more from v2 (the bank is full), a
/// hit on the first line from v3 (consecutive dwords: it becomes the most recently used), 32
/// new lines from v4 (32 evictions: the least recently used, not the line just hit), then v3
/// again (a hit only if the LRU order kept that line). Replaces the program and those VGPRs.
pub fn lru_scenario(wave: &mut Wave, program: &mut Vec<Instruction>) {
    let lines = |offset: u32| -> [u32; LANES] { std::array::from_fn(|l| 1024 * (l as u32 % 32) + offset) };
    wave.vgprs[usize::from(VADDR)] = lines(0);
    wave.vgprs[usize::from(VADDR + 1)] = lines(256);
    wave.vgprs[usize::from(VADDR + 2)] = std::array::from_fn(|l| 4 * l as u32);
    wave.vgprs[usize::from(VADDR + 3)] = lines(512);
    wave.exec = u64::MAX;
    wave.sgprs[1] = 0;
    program.clear();
    for (vaddr, vdata) in [(0, 0), (1, 1), (2, 2), (3, 3), (2, 4)] {
        let mut m = isa::Mubuf::new(MubufOp::LoadDword);
        (m.offen, m.vaddr, m.vdata, m.soffset) = (true, VADDR + vaddr, VDATA + vdata, 128);
        m.srsrc = (VSHARP_SGPR / 4) as u8;
        program.push(Instruction::Mubuf(m));
    }
}

/// A buffer instruction of the program again, or the load of a store's bytes.
fn repeat(rng: &mut Rng, program: &[Instruction]) -> Instruction {
    let buffers: Vec<&Instruction> = program.iter().filter(|i| !matches!(i, Instruction::Waitcnt(_))).collect();
    let Some(&&prev) = buffers.get(rng.below(buffers.len().max(1) as u64) as usize) else {
        return instruction(rng);
    };
    match prev {
        Instruction::Mubuf(m) if m.info().is_store() && rng.bit() => {
            let load = MubufOp::ALL
                .iter()
                .copied()
                .find(|op| {
                    op.info().is_load() && op.info().bytes == m.info().bytes && op.info().format == m.info().format
                })
                .unwrap_or(MubufOp::ALL[0]);
            let mut l = isa::Mubuf::new(load);
            (l.offset, l.offen, l.idxen, l.vaddr, l.srsrc, l.soffset) =
                (m.offset, m.offen, m.idxen, m.vaddr, m.srsrc, m.soffset);
            l.vdata = VDATA + 4;
            Instruction::Mubuf(l)
        }
        other => other,
    }
}

/// A random MUBUF or MTBUF load, store or atomic (no LDS loads).
fn instruction(rng: &mut Rng) -> Instruction {
    let inline = 129 + rng.below(16) as u8;
    let soffset = rng.pick(&[128u8, 1, inline]);
    let offset = if rng.chance(0.75) { 4 * rng.below(16) as u16 } else { rng.below(4096) as u16 };
    let vaddr = VADDR + rng.below(3) as u8;
    let idxen = rng.chance(0.2);
    // With idxen the index comes from v4 (small indices); the offset after it.
    let vaddr = if idxen { VADDR + 3 } else { vaddr };
    let offen = !idxen || rng.bit();
    let vdata = VDATA + rng.below(4) as u8;
    if rng.chance(0.8) {
        let kind = rng.weighted(&[5, 3, 2]);
        let ops: Vec<MubufOp> = MubufOp::ALL
            .iter()
            .copied()
            .filter(|op| {
                let i = op.info();
                match kind {
                    0 => i.is_load(),
                    1 => i.is_store(),
                    _ => i.is_atomic(),
                }
            })
            .collect();
        let mut m = isa::Mubuf::new(rng.pick(&ops));
        (m.offset, m.offen, m.idxen, m.vaddr, m.vdata, m.soffset) = (offset, offen, idxen, vaddr, vdata, soffset);
        m.srsrc = (VSHARP_SGPR / 4) as u8;
        m.glc = rng.chance(0.25);
        m.slc = rng.chance(0.25);
        m.tfe = m.info().is_load() && rng.chance(0.125);
        Instruction::Mubuf(m)
    } else {
        let mut m = isa::Mtbuf::new(rng.pick(MtbufOp::ALL));
        (m.offset, m.offen, m.idxen, m.vaddr, m.vdata, m.soffset) = (offset, offen, idxen, vaddr, vdata, soffset);
        m.srsrc = (VSHARP_SGPR / 4) as u8;
        m.dfmt = rng.pick(&[1u8, 2, 4, 5, 7, 10, 11, 13, 14]);
        m.nfmt = rng.pick(&[0u8, 1, 4, 5, 7]);
        m.glc = rng.chance(0.25);
        m.tfe = !m.info().store && rng.chance(0.125);
        Instruction::Mtbuf(m)
    }
}

/// `n` cases of up to `length` buffer instructions from `seed` (chunk c of the seed for case c,
/// so a case depends on the seed and its number only).
pub fn draw_cases(n: u64, length: usize, seed: u64) -> Vec<PipeCase> {
    (0..n).map(|c| draw_case(seed, length, c)).collect()
}

/// Case `index` of the cases of up to `length` buffer instructions from `seed` ([`draw_cases`]).
pub fn draw_case(seed: u64, length: usize, index: u64) -> PipeCase {
    let mut rng = Rng::for_chunk(seed ^ 0x7069_7065, index);
    let len = 1 + rng.below(length as u64) as usize;
    draw(&mut rng, len)
}

/// A program with the text of each instruction (for errors and timings).
pub fn with_text(program: &[Instruction]) -> Vec<(Instruction, String)> {
    program.iter().map(|i| (*i, isa::disassemble(i))).collect()
}

/// The executor's result of `program` on `wave` (SPEC §10): the reference every pipeline run
/// must equal. `Err`: the executor's error, naming the instruction (SPEC §13.1).
pub fn reference(program: &[(Instruction, String)], wave: &Wave) -> Result<Wave, String> {
    let mut w = wave.clone();
    let mut models = Models::default();
    for (n, (inst, text)) in program.iter().enumerate() {
        let name = || format!("instruction {n} (`{text}`)");
        exec::run(&mut w, inst, &mut models).map_err(|e| format!("{}: {e}", name()))?;
    }
    Ok(w)
}
