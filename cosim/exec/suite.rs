//! The random-program suite of `make cosim`: random waves and random MUBUF, MTBUF and
//! MIMG instructions run on the executor with the units' model and RTL in lockstep
//! ([`LockstepBackend`]). A failing program is shrunk (fewer instructions, then fewer active
//! lanes), saved as an exec file (SPEC §13.1) that `gcn-vmem exec FILE --both` replays, and
//! reported in one line with that command.
//!
//! Descriptors come from the units' own stimulus (so they reach the same corners: range edges,
//! unbound V#s and T#s, swizzling, mip levels); VGPRs are small offsets and indices, corner
//! values or random words; memory around the descriptors' bases is random; EXEC is all lanes,
//! one lane or random.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::bindings::buffer_addr;
use crate::bindings::image_addr;
use crate::engine::Binding;
use crate::exec::backends::{CheckedBackend, ExecFailure, LockstepBackend, UnitOptions};
use gcn_vmem_model::exec::{self, document, Wave, LANES};
use gcn_vmem_model::isa::{self, ImageKind, Instruction, MimgOp, MtbufOp, MubufOp};

/// One random program: its wave and instructions.
#[derive(Clone, Debug)]
pub struct Case {
    pub wave: Wave,
    pub program: Vec<Instruction>,
}

/// What a suite run did.
#[derive(Debug, Default)]
pub struct SuiteSummary {
    pub programs: u64,
    /// Instructions drawn.
    pub instructions: u64,
    /// Instructions executed (a program stops at its first executor error).
    pub executed: u64,
    /// Programs stopped by an executor error (an illegal combination), by rule.
    pub errors: std::collections::BTreeMap<String, u64>,
    pub failures: Vec<SuiteFailure>,
    pub elapsed: Duration,
}

/// A failing program after shrinking.
#[derive(Debug)]
pub struct SuiteFailure {
    pub file: PathBuf,
    pub line: String,
    pub unit_failure: ExecFailure,
}

/// The suite draws programs from the harness's one RNG (the cases depend on the seed only).
pub use crate::engine::stimulus::Rng;

const VADDR: u8 = 1;
const VDATA: u8 = 8;
const VSHARP_SGPR: usize = 4;
const TSHARP_SGPR: usize = 8;

/// Draws a case: descriptors from the units' stimulus, random state, `len` instructions.
pub fn draw(rng: &mut Rng, units: &mut crate::engine::stimulus::Rng, len: usize) -> Case {
    let mut wave = Wave::default();
    let mut vsharp = <buffer_addr::Harness as Binding>::generate(units).vsharp;
    let image = Some(<image_addr::Harness as Binding>::generate(units));
    let (mut tlo, thi) = image.map_or((0, 0), |i| (i.tsharp_lo, i.tsharp_hi));
    // Half the waves get descriptors whose accesses mostly land in range, on bound formats, in
    // the memory filled below: the corners alone leave most loads out of range or unbound.
    if rng.bit() {
        let base = rng.below(1 << 20) * 4;
        let stride: u64 = [0, 4, 16, 48][rng.below(4) as usize];
        let dfmt = 1 + rng.below(14) as u128;
        vsharp = (vsharp & !((1u128 << 62) - 1)) | u128::from(base) | u128::from(stride) << 48;
        vsharp = (vsharp & !(0xffff_ffffu128 << 64)) | u128::from(0x1000 + rng.below(0x1000)) << 64;
        vsharp = (vsharp & !(0xfu128 << 111) & !(1u128 << 119)) | dfmt << 111;
    }
    // Swizzled V#s (bit 63) make most drawn accesses illegal (SPEC §2.3: an access may not cross
    // an element), which stops the program (§13.1); one wave in eight keeps its swizzle_en so
    // the error path and the legal swizzled accesses still run.
    if rng.below(8) != 0 {
        vsharp &= !(1u128 << 63);
    }
    if rng.bit() {
        // A bound 2D T# (type 9) of a modelled format, near the V#'s memory; half of them in the
        // multi-texel table's formats (R8, R16, RG8); linear or one of SPEC §4.5's tiled modes
        // (linear for the 12-byte format, which no tiled mode takes).
        let dfmt = if rng.bit() { 1 + rng.below(3) as u128 } else { 1 + rng.below(14) as u128 };
        let sw_mode: u128 = if dfmt == 13 { 0 } else { [0, 0, 1, 5, 9][rng.below(5) as usize] };
        tlo = (tlo & !((1u128 << 40) - 1)) | u128::from(rng.below(1 << 12));
        tlo = (tlo & !(0x3fu128 << 52) & !(0xfu128 << 58) & !(0x1fu128 << 116) & !(0xfu128 << 124))
            | dfmt << 52
            | u128::from(rng.below(8)) << 58
            | sw_mode << 116
            | 9u128 << 124;
    }
    for i in 0..4 {
        wave.sgprs[VSHARP_SGPR + i] = (vsharp >> (32 * i)) as u32;
        wave.sgprs[TSHARP_SGPR + i] = (tlo >> (32 * i)) as u32;
        wave.sgprs[TSHARP_SGPR + 4 + i] = (thi >> (32 * i)) as u32;
    }
    wave.sgprs[1] = match rng.below(3) {
        0 => 0,
        1 => rng.below(64) as u32,
        _ => rng.next_u64() as u32,
    };
    wave.m0 = rng.next_u64() as u32;
    wave.lds.base = rng.below(512) as u16;
    wave.lds.size = rng.below(512) as u16;
    wave.exec = match rng.below(4) {
        0 => u64::MAX,
        1 => 1 << rng.below(64),
        _ => rng.next_u64(),
    };
    // Address VGPRs: small offsets and indices mostly, corners and random words sometimes.
    for v in VADDR..VADDR + 4 {
        for l in 0..LANES {
            wave.vgprs[usize::from(v)][l] = match rng.below(8) {
                0..=3 => rng.below(64) as u32 * 4,
                4 => l as u32,
                5 => [0, 1, 0xffff_ffff, 0x8000_0000][rng.below(4) as usize],
                _ => rng.next_u64() as u32,
            };
        }
    }
    for v in VDATA..VDATA + 8 {
        for l in 0..LANES {
            wave.vgprs[usize::from(v)][l] = match rng.below(4) {
                0 => [0, 0x3f80_0000, 0xbf80_0000, 0x7fc0_0000, 0x3c00_4000][rng.below(5) as usize],
                _ => rng.next_u64() as u32,
            };
        }
    }
    // Random memory where the descriptors point.
    let vbase = (vsharp as u64) & ((1 << 48) - 1);
    let tbase = ((tlo as u64) & ((1 << 40) - 1)) << 8;
    for base in [vbase, tbase] {
        for k in 0..1024u64 {
            wave.memory.write(base.wrapping_add(4 * k), 4, u128::from(rng.next_u64() as u32));
        }
    }
    let program = (0..len).map(|_| instruction(rng)).collect();
    Case { wave, program }
}

/// Sets the operand fields that MUBUF and MTBUF share on `m`: the suite's registers, SOFFSET
/// `soffset`, then OFFSET, OFFEN and IDXEN drawn from `rng` in that order.
macro_rules! buffer_operands {
    ($m:ident, $rng:ident, $soffset:expr) => {
        $m.vaddr = VADDR;
        $m.vdata = VDATA;
        $m.srsrc = (VSHARP_SGPR / 4) as u8;
        $m.soffset = $soffset;
        $m.offset = if $rng.bit() { $rng.below(64) as u16 * 4 } else { $rng.below(4096) as u16 };
        $m.offen = $rng.bit();
        $m.idxen = $rng.bit();
    };
}

/// A random instruction the executor runs (sampling, gathers and LDS-to-memory stores excluded).
fn instruction(rng: &mut Rng) -> Instruction {
    let soffset = [128, 1, 124, 129 + rng.below(63) as u8][rng.below(4) as usize];
    match rng.below(3) {
        0 => {
            let ops: Vec<MubufOp> = MubufOp::ALL
                .iter()
                .copied()
                .filter(|op| matches!(op.info().kind, isa::BufKind::Load | isa::BufKind::Store | isa::BufKind::Atomic))
                .collect();
            let mut m = isa::Mubuf::new(ops[rng.below(ops.len() as u64) as usize]);
            buffer_operands!(m, rng, soffset);
            m.glc = rng.bit();
            m.slc = rng.bit();
            m.lds = m.info().lds && rng.below(4) == 0;
            m.tfe = !m.lds && m.info().is_load() && rng.below(4) == 0;
            Instruction::Mubuf(m)
        }
        1 => {
            let mut m = isa::Mtbuf::new(MtbufOp::ALL[rng.below(MtbufOp::ALL.len() as u64) as usize]);
            buffer_operands!(m, rng, soffset);
            m.dfmt = rng.below(16) as u8;
            m.nfmt = rng.below(8) as u8;
            m.tfe = !m.info().store && rng.below(4) == 0;
            Instruction::Mtbuf(m)
        }
        _ => {
            let ops: Vec<MimgOp> = MimgOp::ALL
                .iter()
                .copied()
                .filter(|op| {
                    // Sampling has no SPEC semantics; raw (PCK) image stores are not in SPEC §4.4.
                    let info = op.info();
                    let sampling = matches!(info.kind, ImageKind::Sample | ImageKind::Gather | ImageKind::GetLod);
                    let raw_store = info.kind == ImageKind::Store && info.pck;
                    !(sampling || raw_store)
                })
                .collect();
            let mut m = isa::Mimg::new(ops[rng.below(ops.len() as u64) as usize]);
            m.vaddr = VADDR;
            m.vdata = VDATA;
            m.srsrc = (TSHARP_SGPR / 4) as u8;
            m.dmask = [1, 3, 0xf, 9, rng.below(16) as u8][rng.below(5) as usize];
            m.unorm = rng.below(16) != 0;
            if let Some(op) = m.info().atomic {
                // SPEC §10.1's DMASKs, now and then another (an executor error).
                let cmp = op == isa::AtomicOp::Cmpswap;
                m.dmask = match (rng.below(8), cmp) {
                    (0, _) => rng.below(16) as u8,
                    (1..=4, false) => 1,
                    (_, false) => 3,
                    (1..=4, true) => 3,
                    _ => 0xf,
                };
            }
            m.glc = rng.bit();
            m.da = rng.below(4) == 0;
            m.a16 = rng.below(4) == 0;
            m.d16 = m.info().d16 && rng.below(4) == 0;
            m.tfe = rng.below(6) == 0;
            if m.info().kind == ImageKind::MultiTexel {
                // SPEC §4.3's DMASKs for the op, and mostly none of D16, TFE, DA.
                m.dmask = match (m.info().group, m.info().pck, rng.below(8)) {
                    (_, _, 0) => m.dmask,
                    (_, true, _) => 1,
                    (2, false, k) => [3, 0xf][(k & 1) as usize],
                    _ => 0xf,
                };
                if rng.below(8) != 0 {
                    (m.d16, m.tfe, m.da) = (false, false, false);
                }
            }
            Instruction::Mimg(m)
        }
    }
}

/// A saved program file as a case again (its instructions decoded).
pub fn case_of(program: &crate::exec::program::Program) -> Result<Case, String> {
    let program_insts = program.instructions.iter().map(crate::exec::program::decode).collect::<Result<Vec<_>, _>>()?;
    Ok(Case { wave: program.wave.clone(), program: program_insts })
}

/// Runs a case with model and RTL in lockstep; the first instruction whose unit batches parted,
/// with the failure. Executor errors (illegal combinations) stop the program, as `exec` does.
pub fn first_failure(case: &Case, backend: &mut LockstepBackend) -> Option<(usize, ExecFailure)> {
    run_case(case, backend).0
}

/// [`first_failure`], the instructions executed and the executor error that stopped the program.
fn run_case(case: &Case, backend: &mut LockstepBackend) -> (Option<(usize, ExecFailure)>, u64, Option<String>) {
    let mut wave = case.wave.clone();
    for (n, inst) in case.program.iter().enumerate() {
        let result = exec::run(&mut wave, inst, backend);
        if let Some(f) = backend.take_failures().into_iter().next() {
            return (Some((n, f)), n as u64 + 1, None);
        }
        if let Err(e) = result {
            return (None, n as u64, Some(e.0));
        }
    }
    (None, case.program.len() as u64, None)
}

/// Shrinks a failing case: drops every instruction it can, then every active lane it can.
fn shrink(mut case: Case, backend: &mut LockstepBackend) -> Case {
    let fails = |c: &Case, b: &mut LockstepBackend| first_failure(c, b).is_some();
    if let Some((n, _)) = first_failure(&case, backend) {
        case.program.truncate(n + 1);
    }
    let mut i = 0;
    while i < case.program.len() {
        let mut candidate = case.clone();
        candidate.program.remove(i);
        if !candidate.program.is_empty() && fails(&candidate, backend) {
            case = candidate;
        } else {
            i += 1;
        }
    }
    for lane in 0..LANES {
        if case.wave.exec >> lane & 1 != 0 && case.wave.exec.count_ones() > 1 {
            let mut candidate = case.clone();
            candidate.wave.exec &= !(1 << lane);
            if fails(&candidate, backend) {
                case = candidate;
            }
        }
    }
    case
}

/// The case as an exec file (SPEC §13.1): every SGPR and VGPR the suite sets, memory as written,
/// the program as encodings.
pub fn to_exec_file(case: &Case) -> String {
    document::write(&case.wave, &case.program, &FILE_SGPRS, &file_vgprs())
}

/// The SGPRs of the suite's exec files, `(first, count)`: s1 (SOFFSET), the V#'s, the T#'s.
pub const FILE_SGPRS: [(usize, usize); 3] = [(1, 1), (VSHARP_SGPR, 4), (TSHARP_SGPR, 8)];

/// The VGPRs of the suite's exec files: the addresses and the data.
fn file_vgprs() -> Vec<u8> {
    (VADDR..VADDR + 4).chain(VDATA..VDATA + 8).collect()
}

/// Programs per chunk of the suite ([`pool::chunks`](crate::engine::pool::chunks)): a chunk's programs come
/// from its own generators, so the suite's programs and verdict depend on its seed only.
pub const SUITE_CHUNK: u64 = 256;

/// Chunk `chunk`'s program stream and the stream the units' generators draw its descriptors
/// from, both from `seed` (two chunks of the harness's RNG, so no two streams overlap).
fn generators(seed: u64, chunk: u64) -> (Rng, Rng) {
    (Rng::for_chunk(seed, 2 * chunk), Rng::for_chunk(seed, 2 * chunk + 1))
}

/// Programs `chunk * SUITE_CHUNK ..` of a suite of `programs`: how many.
fn chunk_len(programs: u64, chunk: u64) -> u64 {
    programs.saturating_sub(chunk * SUITE_CHUNK).min(SUITE_CHUNK)
}

/// The cases of chunk `chunk` of a suite of `programs` of up to `length` instructions.
fn chunk_cases(programs: u64, length: usize, seed: u64, chunk: u64) -> impl Iterator<Item = Case> {
    let (mut rng, mut units) = generators(seed, chunk);
    (0..chunk_len(programs, chunk)).map(move |_| {
        let len = 1 + rng.below(length as u64) as usize;
        draw(&mut rng, &mut units, len)
    })
}

/// The first `n` random cases of up to `length` instructions from `seed`, as `run_suite` draws
/// them.
pub fn draw_cases(n: usize, length: usize, seed: u64) -> Vec<Case> {
    let n = n as u64;
    (0..n.div_ceil(SUITE_CHUNK)).flat_map(|c| chunk_cases(n, length, seed, c)).collect()
}

/// Shrinks a failing case, saves it (and the case as drawn) under `<artifacts>/exec/` and
/// makes its report line.
fn save_failure(
    case: Case,
    backend: &mut LockstepBackend,
    artifacts: &std::path::Path,
) -> anyhow::Result<SuiteFailure> {
    let dir = artifacts.join("exec");
    std::fs::create_dir_all(&dir)?;
    let unshrunk =
        dir.join(format!("{:016x}.unshrunk.json", crate::engine::stimulus::hash(to_exec_file(&case).as_bytes())));
    std::fs::write(&unshrunk, to_exec_file(&case))?;
    let small = shrink(case, backend);
    let text = to_exec_file(&small);
    let file = dir.join(format!("{:016x}.json", crate::engine::stimulus::hash(text.as_bytes())));
    std::fs::write(&file, &text)?;
    let Some((n, f)) = first_failure(&small, backend) else {
        anyhow::bail!(
            "the shrunk program {} no longer fails (the case as drawn: {})",
            file.display(),
            unshrunk.display()
        );
    };
    let line = format!(
        "PROGRAM exec instruction={n} `{}` lanes={} unit={} signal={} | {} | repro: gcn-vmem exec {} --both",
        isa::disassemble(&small.program[n]),
        small.wave.exec.count_ones(),
        f.unit,
        f.signal,
        f.line,
        file.display()
    );
    Ok(SuiteFailure { file, line, unit_failure: f })
}

/// Runs `programs` random programs of up to `length` instructions from `seed`, in chunks on
/// `jobs` threads; stops at the first failing program (the lowest, whatever `jobs`), which it
/// shrinks, saves under `<artifacts>/exec/` and reports. The counts are of the programs up to
/// that one, or of all.
pub fn run_suite(
    programs: u64,
    length: usize,
    seed: u64,
    artifacts: &std::path::Path,
    options: &UnitOptions,
    jobs: usize,
) -> anyhow::Result<SuiteSummary> {
    let start = Instant::now();
    let open = || {
        let mut backend = LockstepBackend::open_with(options)?;
        backend.log.artifacts = artifacts.to_path_buf();
        Ok(backend)
    };
    let chunk = |backend: &mut LockstepBackend, chunk: u64| -> anyhow::Result<(SuiteSummary, bool)> {
        let mut tally = SuiteSummary::default();
        for case in chunk_cases(programs, length, seed, chunk) {
            tally.programs += 1;
            tally.instructions += case.program.len() as u64;
            let (outcome, executed, error) = run_case(&case, backend);
            tally.executed += executed;
            if let Some(e) = error {
                // The rule, without the instruction-specific numbers.
                let rule: String = e.chars().take_while(|c| !c.is_ascii_digit()).collect();
                *tally.errors.entry(rule).or_default() += 1;
            }
            if outcome.is_some() {
                tally.failures.push(save_failure(case, backend, artifacts)?);
                return Ok((tally, true));
            }
        }
        Ok((tally, false))
    };
    let tallies = crate::engine::pool::chunks(programs.div_ceil(SUITE_CHUNK), jobs, open, chunk)?;
    let mut summary = SuiteSummary::default();
    for t in tallies {
        summary.programs += t.programs;
        summary.instructions += t.instructions;
        summary.executed += t.executed;
        for (rule, n) in t.errors {
            *summary.errors.entry(rule).or_default() += n;
        }
        summary.failures.extend(t.failures);
    }
    summary.elapsed = start.elapsed();
    Ok(summary)
}
