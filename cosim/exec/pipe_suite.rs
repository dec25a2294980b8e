//! Random programs for the VMEM pipeline (SPEC §14, issue 19 item 5): buffer loads, stores and
//! atomics on a wave whose addresses are biased to reuse lines (hits after misses), straddle
//! blocks, conflict on banks, interleave loads after stores to the same bytes, and to wait with
//! `s_waitcnt vmcnt(N)`; each with its own testbench configuration (L2 latency spread and
//! back-pressure, VGPR-port back-pressure). Every drawn instruction is one the executor runs
//! (an instruction the executor rejects is drawn again), so a program's result is always defined.

use gcn_vmem_model::exec::{self, Models, Wave, LANES};
use gcn_vmem_model::isa::{self, Instruction, MtbufOp, MubufOp, Waitcnt};

use crate::engine::stimulus::Rng;
use crate::exec::pipeline::{first_difference, run_both, Config, PipeRun};
use gcn_vmem_model::vmem_pipe::ports::{In, Out};

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
        if atomic_crossing_a_line(&inst, &state).is_none() && exec::run(&mut next, &inst, &mut models).is_ok() {
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
    (0..n)
        .map(|c| {
            let mut rng = Rng::for_chunk(seed ^ 0x7069_7065, c);
            let len = 1 + rng.below(length as u64) as usize;
            draw(&mut rng, len)
        })
        .collect()
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
        if let Some(e) = atomic_crossing_a_line(inst, &w) {
            return Err(format!("{}: {e}", name()));
        }
        exec::run(&mut w, inst, &mut models).map_err(|e| format!("{}: {e}", name()))?;
    }
    Ok(w)
}

/// The pipeline sends an atomic to the L2 whole, through the bank of its first byte, and
/// invalidates that line only (docs/decisions.md "vmem_pipe"): an atomic whose bytes reach into
/// the next 64-byte line would leave that line stale in the L1, so the pipeline does not take
/// it (the executor does). `Some`: the error naming the first such lane.
pub fn atomic_crossing_a_line(inst: &Instruction, wave: &Wave) -> Option<String> {
    let b = exec::lower_buffer(inst).ok()??;
    if !matches!(b.kind, exec::BufferKind::Atomic(_)) {
        return None;
    }
    let bytes = if b.wide { 8 } else { 4 };
    let lanes = exec::lane_addresses(wave, &b).ok()?;
    lanes.iter().find(|(_, a)| !a.unbound && a.in_range & 1 != 0 && (a.address & 63) + bytes > 64).map(|(l, a)| {
        format!(
            "lane {l}: the {bytes}-byte atomic at {:#x} crosses a 64-byte line; the pipeline takes atomics within \
             one line only (docs/decisions.md \"vmem_pipe\")",
            a.address
        )
    })
}

/// Runs a case in lockstep and checks the final state against the executor's.
pub fn check_case<M, R>(
    ls: &mut crate::engine::lockstep::Lockstep<M, R>,
    case: &PipeCase,
    observe: impl FnMut(&M, &In, &Out),
) -> Result<PipeRun, String>
where
    M: gcn_vmem_model::unit::Unit<In = In, Out = Out>,
    R: crate::engine::RtlUnit<In = In, Out = Out>,
{
    let program = with_text(&case.program);
    let expected = reference(&program, &case.wave)?;
    let run = run_both(ls, &program, &case.wave, case.config, observe)?;
    match first_difference(&run.wave, &expected) {
        Some(d) => Err(format!("the pipeline's result differs from the executor's: {d}")),
        None => Ok(run),
    }
}

/// Shrinks a failing case: drops every instruction it can (waits included), then tries the
/// plainest testbench (fixed latency 50, no back-pressure) and fewer active lanes.
pub fn shrink_case(mut case: PipeCase, fails: &mut impl FnMut(&PipeCase) -> bool) -> PipeCase {
    let mut i = 0;
    while i < case.program.len() {
        let mut candidate = case.clone();
        candidate.program.remove(i);
        if !candidate.program.is_empty() && fails(&candidate) {
            case = candidate;
        } else {
            i += 1;
        }
    }
    for plain in [
        Config { latency: (50, 50), ..case.config },
        Config { l2_stall: 0.0, ..case.config },
        Config { vgpr_stall: 0.0, ..case.config },
    ] {
        let candidate = PipeCase { config: plain, ..case.clone() };
        if plain != case.config && fails(&candidate) {
            case = candidate;
        }
    }
    for lane in 0..LANES {
        if case.wave.exec >> lane & 1 != 0 && case.wave.exec.count_ones() > 1 {
            let mut candidate = case.clone();
            candidate.wave.exec &= !(1 << lane);
            if fails(&candidate) {
                case = candidate;
            }
        }
    }
    case
}

/// The `gcn-vmem exec` flags that replay a case's testbench.
pub fn replay_flags(config: &Config) -> String {
    format!(
        "--pipeline --both --l2-latency {}:{} --l2-seed {} --l2-stall {} --vgpr-stall {}",
        config.latency.0, config.latency.1, config.seed, config.l2_stall, config.vgpr_stall
    )
}

/// The `gcn-vmem exec` flags that replay a case on the RTL build `variant` ([`replay_flags`],
/// then `--mutant` or `--break-asserts` for the test-only builds).
pub fn repro_flags(config: &Config, variant: crate::engine::Variant) -> String {
    use crate::engine::Variant;
    let build = match variant {
        Variant::AsWritten => "",
        Variant::Mutant => " --mutant",
        Variant::BreakAsserts => " --break-asserts",
    };
    format!("{}{build}", replay_flags(config))
}

/// The report line of a failing program: an `ASSERTION` line, as every unit's, when the RTL failed
/// an assertion (its name and the file that declares it, [`crate::engine::run::assertion_file`]),
/// else a `PIPELINE` line with the error (a mismatch, a hang, a result the executor disagrees
/// with); both end with the command that replays the saved program on the same RTL build.
pub fn failure_line(
    instructions: usize,
    error: &str,
    assertion: Option<&crate::engine::lockstep::AssertionFailure>,
    repro: &str,
) -> String {
    match assertion {
        Some(a) => {
            let at = if a.at == crate::engine::lockstep::At::Edge { String::new() } else { format!(" at={}", a.at) };
            format!(
                "ASSERTION vmem_pipe cycle={}{at} assertion={} ({}) | program of {instructions} instruction(s) | repro: {repro}",
                a.cycle,
                a.name,
                crate::engine::run::assertion_file("vmem_pipe", &a.name)
            )
        }
        None => format!("PIPELINE vmem_pipe program of {instructions} instruction(s) | {error} | repro: {repro}"),
    }
}

/// The case as an exec file (SPEC §13.1), the registers the programs use.
pub fn to_exec_file(case: &PipeCase) -> String {
    crate::exec::suite::to_exec_file(&crate::exec::suite::Case {
        wave: case.wave.clone(),
        program: case.program.clone(),
    })
}

/// The pipeline's random programs as `gcn-vmem cosim` runs them (issue 19 item 5): `programs`
/// cases of up to `length` buffer instructions from `seed`, each in lockstep (model against the
/// RTL of `variant`, every output every cycle) and against the executor at the end, with the
/// pipeline's functional coverage counted. A failing program is saved as found, shrunk as a
/// program (cases with fewer instructions, a plainer testbench, fewer lanes), saved again as an
/// exec file with the command that replays it, and re-run with an FST waveform of the RTL
/// (`shrink` false: saved and reported as found, as `cosim --no-shrink` asks). The result is an
/// engine [`Summary`](crate::engine::run::Summary) of unit `vmem_pipe`: vectors are instructions,
/// cycles the pipeline's. Each failure's line is [`failure_line`].
pub fn run_pipe_suite(
    programs: u64,
    length: usize,
    seed: u64,
    artifacts: &std::path::Path,
    variant: crate::engine::Variant,
    max_failures: u64,
    shrink: bool,
) -> anyhow::Result<crate::engine::run::Summary> {
    use crate::bindings::vmem_pipe::Rtl;
    use crate::engine::lockstep::Lockstep;
    use crate::engine::run::{Failure, Summary};
    use crate::engine::{RtlOptions, RtlUnit as _};
    use gcn_vmem_model::cover::{Covered as _, Hits};
    use gcn_vmem_model::vmem_pipe::{cover, VmemPipe};

    let start = std::time::Instant::now();
    let options = RtlOptions { variant, ..RtlOptions::default() };
    let mut ls = Lockstep::new(VmemPipe::default(), Rtl::open(&options)?);
    let mut hits = Hits::new(&VmemPipe::covergroup());
    let mut summary = Summary {
        unit: "vmem_pipe",
        x_seed: None,
        vectors: 0,
        cycles: 0,
        failing_cases: 0,
        failures: Vec::new(),
        elapsed: std::time::Duration::ZERO,
        stopped: false,
        shard: None,
        chunks: programs,
        hits: Hits::new(&VmemPipe::covergroup()),
    };
    let dir = artifacts.join("vmem_pipe");
    for case in draw_cases(programs, length, seed) {
        let mut before = Out::default();
        let result = check_case(&mut ls, &case, |model: &VmemPipe, input, out| {
            cover::sample_events(model.events(), &mut hits);
            cover::sample_cycle(&before, input, out, &mut hits);
            before = *out;
        });
        summary.vectors += case.program.iter().filter(|i| !matches!(i, Instruction::Waitcnt(_))).count() as u64;
        summary.cycles += ls.cycles();
        let Err(error) = result else { continue };
        summary.failing_cases += 1;
        std::fs::create_dir_all(&dir)?;
        let save = |c: &PipeCase, suffix: &str| -> anyhow::Result<std::path::PathBuf> {
            let text = to_exec_file(c);
            let file = dir.join(format!("{:016x}{suffix}.json", crate::engine::stimulus::hash(text.as_bytes())));
            std::fs::write(&file, text).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", file.display()))?;
            Ok(file)
        };
        let unshrunk = save(&case, ".unshrunk")?;
        let mut fresh = Lockstep::new(VmemPipe::default(), Rtl::open(&options)?);
        let small = if shrink {
            shrink_case(case.clone(), &mut |c| check_case(&mut fresh, c, |_, _, _| {}).is_err())
        } else {
            case.clone()
        };
        let file = save(&small, "")?;
        let error = check_case(&mut fresh, &small, |_, _, _| {}).err().unwrap_or(error);
        let assertion = fresh.assertions.first().cloned();
        let wave = file.with_extension("fst");
        let wave_options = RtlOptions { wave: Some((crate::engine::Wave::Fst, wave.clone())), ..options.clone() };
        let (rtl_wave, wave_error) = match Rtl::open(&wave_options) {
            Ok(rtl) => {
                let mut traced = Lockstep::new(VmemPipe::default(), rtl);
                let _ = check_case(&mut traced, &small, |_, _, _| {});
                traced.rtl.finish();
                (Some(wave), None)
            }
            Err(e) => (None, Some(format!("{e:#}"))),
        };
        let repro = format!("gcn-vmem exec {} {}", file.display(), repro_flags(&small.config, variant));
        let line = failure_line(small.program.len(), &error, assertion.as_ref(), &repro);
        summary.failures.push(Failure {
            vector_file: file,
            count: 1,
            unshrunk_files: vec![unshrunk],
            rtl_wave,
            diff_wave: None,
            shrunk: shrink,
            cycles_before: case.program.len(),
            cycles_after: small.program.len(),
            lines: vec![line],
            wave_error,
            note: Some(if shrink {
                "is a program: the counts above are instructions, not cycles".into()
            } else {
                "is a program of instructions, saved as found (--no-shrink)".into()
            }),
        });
        if summary.failing_cases >= max_failures {
            summary.stopped = true;
            break;
        }
    }
    summary.hits = hits;
    summary.elapsed = start.elapsed();
    Ok(summary)
}
