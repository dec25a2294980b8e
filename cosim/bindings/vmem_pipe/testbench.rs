//! The testbench of `vmem_pipe` (SPEC §14; docs/decisions.md "vmem_pipe", "Testbench"): the SQ
//! that issues a §13.1 program's buffer instructions as beats, and the L2 (TCC) with the
//! executor's memory behind the four channels. One [`Testbench`] drives one pipeline — the model,
//! the Verilated RTL, or both in lockstep — through [`Testbench::input`], which turns the outputs
//! at the start of a cycle into that cycle's inputs.
//!
//! Random draws (L2 back-pressure and latency, VGPR-port back-pressure) come from the harness's
//! one RNG, seeded by `--l2-seed`, in a fixed order per cycle, so a run is a function of the
//! program, the configuration and the seed.

use std::collections::VecDeque;

use gcn_vmem_model::exec::{
    self, atomic_result, Access, AtomicOp, BufferInst, BufferKind, ImageInst, Memory, Wave, D16, LANES, VGPRS,
};
use gcn_vmem_model::isa::Instruction;
use gcn_vmem_model::unit::Unit;
use gcn_vmem_model::vmem_pipe::ports::{ImageIssue, In, Out, BANKS, GROUP_LANES, L2_ATOMIC, L2_READ, L2_WRITE, LINE_DWORDS};
use gcn_vmem_model::vmem_pipe::{Stages, VmemPipe};

use crate::engine::lockstep::{Reset, Step};
use crate::engine::stimulus::Rng;

/// What the testbench does besides the program: the L2's latency and back-pressure, the VGPR
/// and LDS ports' back-pressure, the seed of their draws, a reset in mid-run, and the pipeline's
/// configuration (its RTL build and the model's parameters).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// Latency of every L2 request, drawn uniformly from `MIN..=MAX` cycles (MIN ≥ 1).
    pub latency: (u32, u32),
    /// Seed of the draws.
    pub seed: u64,
    /// Probability that a channel refuses a request it could take (per channel and cycle).
    pub l2_stall: f64,
    /// Probability that the VGPR port refuses a presented write (per cycle); the LDS port's
    /// writes are refused with the same probability.
    pub vgpr_stall: f64,
    /// A run that has not finished after this many cycles is an error (a hang).
    pub max_cycles: u64,
    /// `Some((R, H))`: `rst_ni` falls after cycle R and stays low for H cycles (1..=3); the L2
    /// keeps running and the program starts again from its first instruction
    /// (docs/decisions.md "vmem_pipe", testbench). No reset when the program is done by then.
    pub reset: Option<(u64, u8)>,
    /// The small configuration (`Config::small()` of the model, the RTL build with
    /// cosim/units.txt's `small=` parameters) instead of the defaults.
    pub small: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            latency: (50, 50),
            seed: 0,
            l2_stall: 0.0,
            vgpr_stall: 0.0,
            max_cycles: 1_000_000,
            reset: None,
            small: false,
        }
    }
}

/// seed 003's TCC peaks per cycle (SPEC §8, §14): line reads, writes, atomics without and with
/// return.
const TCC_READS: u32 = 4;
const TCC_WRITES: u32 = 3;
const TCC_ATOMICS: u32 = 3;
const TCC_ATOMICS_RETURN: u32 = 1;

/// The stage that kept an instruction longest (SPEC §14.1 `bound`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Issue,
    Ta,
    Tcp,
    L2,
    Td,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Issue => "issue",
            Stage::Ta => "ta",
            Stage::Tcp => "tcp",
            Stage::L2 => "l2",
            Stage::Td => "td",
        }
    }
}

/// One VMEM instruction's counters as the pipeline reported them with its `done`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timing {
    /// The instruction's index in the program.
    pub index: usize,
    /// The cycle of its first beat and of its done.
    pub issued: u64,
    pub done: u64,
    pub issue: u16,
    pub ta: u16,
    pub tcp: u16,
    pub l2: u16,
    pub td: u16,
    pub total: u16,
    pub requests: u16,
    pub hits: u16,
    pub misses: u16,
    pub merged: u16,
    pub conflicts: u16,
    pub mshr_wait: u16,
    /// Where its cycles went, in this run's cycles (those of `issued` and `done`): the cycle
    /// model's [`Stages`] when the run has the model (alone or in lockstep with the RTL, whose
    /// counters then equal the model's); `None` on the RTL alone, which reports only counters.
    pub stages: Option<Stages>,
}

/// A pipeline as the testbench drives it, with what it tells of a done instruction's stages
/// besides its counters: the cycle model its [`Stages`], the RTL nothing.
pub trait StageSource {
    /// The stages of the instruction whose `done` the outputs show now.
    fn done_stages(&self) -> Option<&Stages> {
        None
    }
}

impl StageSource for VmemPipe {
    fn done_stages(&self) -> Option<&Stages> {
        VmemPipe::done_stages(self)
    }
}

impl StageSource for super::Rtl {}

/// `stages` moved from the model's cycles to the testbench's, whose first beat is `issued` (the
/// model counts from its last reset; the testbench from the run's start).
fn in_run_cycles(stages: &Stages, issued: u64) -> Stages {
    let d = issued - stages.issue.0;
    let span = |(a, b): (u64, u64)| (a + d, b + d);
    Stages {
        issue: span(stages.issue),
        ta: span(stages.ta),
        tcp: stages.tcp.map(span),
        l2: stages.l2.map(span),
        td: stages.td.map(span),
        done: stages.done + d,
        misses: stages.misses.iter().map(|&(c, n)| (c + d, n)).collect(),
        conflicts: stages.conflicts.iter().map(|&(c, n)| (c + d, n)).collect(),
    }
}

impl Timing {
    /// The stage with the most cycles; ties go to the earlier stage.
    pub fn bound(&self) -> Stage {
        let stages = [
            (Stage::Issue, self.issue),
            (Stage::Ta, self.ta),
            (Stage::Tcp, self.tcp),
            (Stage::L2, self.l2),
            (Stage::Td, self.td),
        ];
        stages.iter().fold((Stage::Issue, 0u16), |best, &(s, c)| if c > best.1 { (s, c) } else { best }).0
    }

    /// The §14.1 object of the instruction.
    pub fn json(&self, text: &str) -> serde_json::Value {
        serde_json::json!({
            "index": self.index,
            "instruction": text,
            "issue_cycles": self.issue,
            "ta_cycles": self.ta,
            "tcp_cycles": self.tcp,
            "l2_cycles": self.l2,
            "td_cycles": self.td,
            "tcp_requests": self.requests,
            "hits": self.hits,
            "misses": self.misses,
            "merged": self.merged,
            "bank_conflict_cycles": self.conflicts,
            "mshr_wait_cycles": self.mshr_wait,
            "cycles": self.total,
            "issued_at": self.issued,
            "done_at": self.done,
            "bound": self.bound().name(),
        })
    }
}

/// One program entry as the SQ sees it.
#[derive(Clone, Debug)]
enum Item {
    /// A buffer or image instruction and its program index.
    Vmem(usize, Mem),
    /// `s_waitcnt vmcnt(N)`.
    Wait(u8),
}

/// A VMEM instruction the pipeline takes.
#[derive(Clone, Debug)]
enum Mem {
    Buffer(BufferInst),
    Image(ImageInst),
}

/// The instruction whose beats are going out.
#[derive(Clone, Debug)]
struct Sending {
    index: usize,
    header: In,
    addr: Vec<[u32; LANES]>,
    data: Vec<[u32; LANES]>,
    beats: usize,
    next: usize,
    writes: Vec<u8>,
    first_cycle: Option<u64>,
}

/// An instruction sent and not yet done.
#[derive(Clone, Debug)]
struct Outstanding {
    index: usize,
    writes: Vec<u8>,
    issued: u64,
}

/// A request the L2 took, with its response.
#[derive(Clone, Debug)]
struct Response {
    due: u64,
    seq: u64,
    tag: u8,
    data: [u32; LINE_DWORDS],
}

/// The SQ and the L2 around one pipeline.
pub struct Testbench {
    config: Config,
    rng: Rng,
    items: Vec<Item>,
    next_item: usize,
    sending: Option<Sending>,
    outstanding: VecDeque<Outstanding>,
    /// The wave as the SQ sees it: VGPRs and the LDS change when a write is accepted.
    pub wave: Wave,
    /// The L2's memory.
    pub memory: Memory,
    /// The wave the program starts from (again after a mid-run reset).
    initial: Wave,
    /// The mid-run reset has happened.
    restarted: bool,
    responses: [Vec<Response>; BANKS],
    seq: u64,
    cycle: u64,
    timings: Vec<Timing>,
    /// The stages the pipeline tells of the `done` in the outputs the next step reads
    /// ([`Testbench::see_stages`]).
    stages: Option<Stages>,
}

/// What the SQ sends for one instruction (docs/decisions.md "vmem_pipe", ports).
struct Plan {
    header: In,
    /// The VGPRs of the `A` address dwords and of the `D` data dwords.
    addr: Vec<u8>,
    data: Vec<u8>,
    /// The VGPRs the instruction writes.
    writes: Vec<u8>,
}

fn plan(inst: &Mem, wave: &Wave) -> Result<Plan, String> {
    match inst {
        Mem::Buffer(b) => plan_buffer(b, wave),
        Mem::Image(i) => plan_image(i, wave),
    }
}

/// An image instruction's plan (docs/decisions.md "vmem_pipe", "Images"): A address VGPRs from
/// VADDR, D data VGPRs from VDATA, the result VGPRs from VDATA.
fn plan_image(inst: &ImageInst, wave: &Wave) -> Result<Plan, String> {
    let issue = ImageIssue::of(inst, wave.tsharp(inst.srsrc, inst.r128)?, wave.exec)
        .ok_or("the pipeline does not take this image instruction")?;
    let regs = |first: u8, n: u8| -> Vec<u8> { (0..n).map(|i| first.wrapping_add(i)).collect() };
    let writes = regs(inst.vdata, issue.result_dwords).into_iter().filter(|&v| usize::from(v) < VGPRS).collect();
    Ok(Plan {
        header: issue.header,
        addr: regs(inst.vaddr, issue.addr_dwords),
        data: regs(inst.vdata, issue.data_dwords),
        writes,
    })
}

fn plan_buffer(inst: &BufferInst, wave: &Wave) -> Result<Plan, String> {
    let header = In::issue_header(inst, wave.descriptor(inst.srsrc)?, wave.scalar(inst.soffset)?, wave);
    let count = inst.components();
    let addr: Vec<u8> = (0..u8::from(inst.idxen) + u8::from(inst.offen)).map(|i| inst.vaddr.wrapping_add(i)).collect();
    let byte_short_d16 = matches!(inst.access, Access::Sized { bytes: 1 | 2, .. }) && inst.d16 != D16::None;
    let data_dwords = match inst.kind {
        BufferKind::Store => match inst.access {
            Access::Sized { bytes, .. } => u8::max(1, bytes / 4),
            Access::Format { count, .. } if inst.d16 == D16::Lo => count.div_ceil(2),
            Access::Format { count, .. } => count,
        },
        BufferKind::Atomic(op) => (1 + u8::from(inst.wide)) * (1 + u8::from(op.compares())),
        BufferKind::Load if byte_short_d16 => 1,
        BufferKind::Load => 0,
    };
    let data: Vec<u8> = (0..data_dwords).map(|i| inst.vdata.wrapping_add(i)).collect();
    let results = match inst.kind {
        // An LDS load writes the LDS, no VGPR (docs/decisions.md "LDS loads").
        BufferKind::Load if inst.lds => 0,
        BufferKind::Load if byte_short_d16 => 1,
        BufferKind::Load => {
            let n = if inst.d16 == D16::Lo { count.div_ceil(2) } else { count };
            n + u8::from(inst.tfe)
        }
        BufferKind::Atomic(_) if inst.glc => 1 + u8::from(inst.wide),
        _ => 0,
    };
    let writes: Vec<u8> = (0..results)
        .map(|i| usize::from(inst.vdata) + usize::from(i))
        .filter(|&v| v < VGPRS)
        .map(|v| v as u8)
        .collect();
    Ok(Plan { header, addr, data, writes })
}

impl Testbench {
    /// A testbench for `program` (decoded instructions with their text, for errors) starting
    /// from `wave`. Instructions the pipeline does not take yet are an error naming them.
    pub fn new(program: &[(Instruction, String)], wave: &Wave, config: Config) -> Result<Self, String> {
        if config.latency.0 == 0 || config.latency.0 > config.latency.1 {
            return Err(format!(
                "L2 latency {}:{}: MIN must be at least 1 and at most MAX",
                config.latency.0, config.latency.1
            ));
        }
        let mut items = Vec::new();
        for (index, (inst, text)) in program.iter().enumerate() {
            let name = || format!("instruction {index} (`{text}`)");
            match inst {
                Instruction::Waitcnt(w) => items.push(Item::Wait(w.vmcnt)),
                Instruction::Mimg(m) => {
                    let image = exec::lower_image(m).map_err(|e| format!("{}: {e}", name()))?;
                    // The T# does not matter here: only the instruction's kind decides.
                    if ImageIssue::of(&image, (0, 0), 0).is_none() {
                        return Err(format!(
                            "{}: the pipeline does not take {} yet (it takes IMAGE_LOAD, IMAGE_STORE, IMAGE_ATOMIC_*, their _MIP and PCK forms, the multi-texel loads IMAGE_LOAD_BY2, BY4, PCK2, PCK4 and their _MIP forms, and IMAGE_GET_RESINFO; SPEC §15, docs/decisions.md \"vmem_pipe\", Scope)",
                            name(),
                            m.op.mnemonic().to_uppercase()
                        ));
                    }
                    items.push(Item::Vmem(index, Mem::Image(image)));
                }
                other => {
                    if let Some(b) = exec::lower_buffer(other).map_err(|e| format!("{}: {e}", name()))? {
                        items.push(Item::Vmem(index, Mem::Buffer(b)));
                    }
                }
            }
        }
        Ok(Testbench {
            config,
            rng: Rng::new(config.seed),
            items,
            next_item: 0,
            sending: None,
            outstanding: VecDeque::new(),
            wave: wave.clone(),
            memory: wave.memory.clone(),
            initial: wave.clone(),
            restarted: false,
            responses: Default::default(),
            seq: 0,
            cycle: 0,
            timings: Vec::new(),
            stages: None,
        })
    }

    /// Cycles driven so far.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// What `pipe` tells of the stages of the `done` in its outputs, for the next
    /// [`Testbench::step`] to record with that instruction's counters.
    pub fn see_stages(&mut self, pipe: &impl StageSource) {
        self.stages = pipe.done_stages().cloned();
    }

    /// Whether every instruction was sent and is done.
    pub fn finished(&self) -> bool {
        self.next_item == self.items.len() && self.sending.is_none() && self.outstanding.is_empty()
    }

    /// The timings of the instructions done so far, in order.
    pub fn timings(&self) -> &[Timing] {
        &self.timings
    }

    /// The wave at the end: the SQ's VGPRs and the L2's memory.
    pub fn final_wave(&self) -> Wave {
        Wave { memory: self.memory.clone(), ..self.wave.clone() }
    }

    /// A draw only when the probability is not 0, so runs without back-pressure draw nothing
    /// for it.
    fn chance(&mut self, p: f64) -> bool {
        p > 0.0 && self.rng.chance(p)
    }

    /// The next cycle (its reset activity and inputs) from the outputs at its start (`out`: the
    /// outputs after the previous edge). Also does the testbench's side of that cycle's edge:
    /// beats, VGPR writes and L2 requests accepted, the done taken. In the cycles of a mid-run
    /// reset ([`Config::reset`]) `rst_ni` is held low, the L2 goes on delivering what it owes
    /// (into inputs the pipe ignores), and at the last of them the SQ starts the program again
    /// from the initial wave, with the L2's memory restored for the requests that follow.
    pub fn step(&mut self, out: &Out) -> Step<In> {
        if let (Some((at, hold)), false) = (self.config.reset, self.restarted) {
            let cycle = self.cycle;
            if cycle > at && cycle <= at + u64::from(hold) {
                self.cycle += 1;
                let mut input = In { l2_idle: self.l2_idle(), ..In::default() };
                self.l2(&Out::default(), &mut input, cycle);
                if cycle == at + u64::from(hold) {
                    self.restart();
                }
                return Step { reset: Reset::Hold, input };
            }
        }
        Step::from(self.input(out))
    }

    /// The SQ starts over from the initial wave (after a mid-run reset).
    fn restart(&mut self) {
        self.restarted = true;
        self.wave = self.initial.clone();
        self.memory = self.initial.memory.clone();
        self.next_item = 0;
        self.sending = None;
        self.outstanding.clear();
        self.timings.clear();
    }

    /// `l2_idle_i`: every request accepted before this cycle has had its response.
    fn l2_idle(&self) -> bool {
        self.responses.iter().all(Vec::is_empty)
    }

    /// The inputs of the next cycle outside a reset ([`Testbench::step`]).
    fn input(&mut self, out: &Out) -> In {
        let cycle = self.cycle;
        self.cycle += 1;
        let mut input = In { l2_idle: self.l2_idle(), ..In::default() };

        if out.done_valid {
            if let Some(o) = self.outstanding.pop_front() {
                self.timings.push(Timing {
                    index: o.index,
                    issued: o.issued,
                    done: cycle,
                    issue: out.done_issue,
                    ta: out.done_ta,
                    tcp: out.done_tcp,
                    l2: out.done_l2,
                    td: out.done_td,
                    total: out.done_total,
                    requests: out.done_requests,
                    hits: out.done_hits,
                    misses: out.done_misses,
                    merged: out.done_merged,
                    conflicts: out.done_conflicts,
                    mshr_wait: out.done_mshr_wait,
                    stages: self.stages.take().map(|s| in_run_cycles(&s, o.issued)),
                });
            }
        }

        if out.vgpr_valid {
            let stall = self.config.vgpr_stall;
            input.vgpr_ready = !self.chance(stall);
            if input.vgpr_ready {
                let v = usize::from(out.vgpr_addr);
                let base = GROUP_LANES * usize::from(out.vgpr_group & 3);
                for j in 0..GROUP_LANES {
                    if out.vgpr_mask >> j & 1 != 0 {
                        self.wave.vgprs[v][base + j] = out.vgpr_data[j];
                    }
                }
                self.wave.written[v] = true;
            }
        }
        if out.lds_valid {
            // Drawn as the VGPR port's ready is (the two are never presented together).
            let stall = self.config.vgpr_stall;
            input.lds_ready = !self.chance(stall);
            if input.lds_ready {
                self.apply_lds_write(out);
            }
        }

        self.issue(out, &mut input, cycle);
        self.l2(out, &mut input, cycle);
        input
    }

    /// An accepted LDS write into the wave's LDS: its lanes in ascending order (the highest lane
    /// wins where addresses overlap), each dword's 4 bytes little-endian, bytes beyond the LDS
    /// dropped, as the executor writes them (docs/decisions.md "LDS loads").
    fn apply_lds_write(&mut self, out: &Out) {
        for j in (0..GROUP_LANES).filter(|&j| out.lds_mask >> j & 1 != 0) {
            let at = out.lds_addr[j] as usize;
            for (i, b) in out.lds_data[j].to_le_bytes().into_iter().enumerate() {
                if let Some(slot) = self.wave.lds.bytes.get_mut(at + i) {
                    *slot = b;
                }
            }
        }
    }

    /// The SQ: the next beat, when the program and the scoreboard allow one.
    fn issue(&mut self, out: &Out, input: &mut In, cycle: u64) {
        while self.sending.is_none() && self.next_item < self.items.len() {
            match &self.items[self.next_item] {
                Item::Wait(n) => {
                    if self.outstanding.len() > usize::from(*n) {
                        return;
                    }
                    self.next_item += 1;
                }
                Item::Vmem(index, inst) => {
                    // Validated by the executor already, so the plan cannot fail; an error
                    // here would be a testbench bug, reported as a hang.
                    let Ok(Plan { header, addr, data, writes }) = plan(inst, &self.wave) else { return };
                    let busy = |v: &u8| self.outstanding.iter().any(|o| o.writes.contains(v));
                    if addr.iter().chain(&data).chain(&writes).any(busy) {
                        return;
                    }
                    let beats = 4 * addr.len().max(data.len()).max(1);
                    let rows = |regs: &[u8]| regs.iter().map(|&r| self.wave.vgprs[usize::from(r)]).collect();
                    self.sending = Some(Sending {
                        index: *index,
                        header,
                        addr: rows(&addr),
                        data: rows(&data),
                        beats,
                        next: 0,
                        writes,
                        first_cycle: None,
                    });
                }
            }
        }
        let Some(s) = &mut self.sending else { return };
        let k = s.next;
        *input = In { l2_idle: input.l2_idle, vgpr_ready: input.vgpr_ready, lds_ready: input.lds_ready, ..s.header };
        input.iss_valid = true;
        input.iss_last = k + 1 == s.beats;
        let group = GROUP_LANES * (k % 4);
        if let Some(row) = s.addr.get(k / 4) {
            input.iss_addr.copy_from_slice(&row[group..group + GROUP_LANES]);
        }
        if let Some(row) = s.data.get(k / 4) {
            input.iss_data.copy_from_slice(&row[group..group + GROUP_LANES]);
        }
        if out.iss_ready {
            s.first_cycle.get_or_insert(cycle);
            s.next += 1;
            if s.next == s.beats {
                let s = self.sending.take().expect("sending");
                self.outstanding.push_back(Outstanding {
                    index: s.index,
                    writes: s.writes,
                    issued: s.first_cycle.unwrap_or(cycle),
                });
                self.next_item += 1;
            }
        }
    }

    /// The L2: takes what the channels present within the TCC's rates, applies it to memory in
    /// acceptance order, and returns each channel's earliest due response.
    fn l2(&mut self, out: &Out, input: &mut In, cycle: u64) {
        let (mut reads, mut writes, mut atomics, mut returns) = (0, 0, 0, 0);
        for b in 0..BANKS {
            if out.l2_req_valid >> b & 1 == 0 {
                continue;
            }
            let kind = out.l2_req_kind[b];
            let returning = out.l2_req_return >> b & 1 != 0;
            let room = match kind {
                L2_READ => reads < TCC_READS,
                L2_WRITE => writes < TCC_WRITES,
                L2_ATOMIC if returning => returns < TCC_ATOMICS_RETURN,
                _ => atomics < TCC_ATOMICS,
            };
            let stall = self.config.l2_stall;
            if !room || self.chance(stall) {
                continue;
            }
            match kind {
                L2_READ => reads += 1,
                L2_WRITE => writes += 1,
                L2_ATOMIC if returning => returns += 1,
                _ => atomics += 1,
            }
            input.l2_req_ready |= 1 << b;
            let data = self.apply(out, b);
            let (lo, hi) = self.config.latency;
            let latency = lo + self.rng.below(u64::from(hi - lo) + 1) as u32;
            self.seq += 1;
            self.responses[b].push(Response {
                due: cycle + u64::from(latency),
                seq: self.seq,
                tag: out.l2_req_tag[b],
                data,
            });
        }
        for b in 0..BANKS {
            let queue = &mut self.responses[b];
            let pick = queue
                .iter()
                .enumerate()
                .filter(|(_, r)| r.due <= cycle)
                .min_by_key(|(_, r)| (r.due, r.seq))
                .map(|(i, _)| i);
            if let Some(i) = pick {
                let r = queue.swap_remove(i);
                input.l2_rsp_valid |= 1 << b;
                input.l2_rsp_tag[b] = r.tag;
                input.l2_rsp_data[LINE_DWORDS * b..LINE_DWORDS * (b + 1)].copy_from_slice(&r.data);
            }
        }
    }

    /// Applies bank `b`'s presented request to memory; returns its response data.
    fn apply(&mut self, out: &Out, b: usize) -> [u32; LINE_DWORDS] {
        let address = out.l2_req_addr[b];
        let words = &out.l2_req_data[LINE_DWORDS * b..LINE_DWORDS * (b + 1)];
        let mut data = [0u32; LINE_DWORDS];
        match out.l2_req_kind[b] {
            L2_READ => {
                for (i, d) in data.iter_mut().enumerate() {
                    *d = self.memory.read(address + 4 * i as u64, 4) as u32;
                }
            }
            L2_WRITE => {
                let mask = out.l2_req_mask[b];
                for i in 0..64u64 {
                    if mask >> i & 1 != 0 {
                        let byte = (words[(i / 4) as usize] >> (8 * (i % 4))) as u8;
                        self.memory.write_byte(address + i, byte);
                    }
                }
            }
            _ => {
                let op = AtomicOp::ALL.get(usize::from(out.l2_req_op[b])).copied().unwrap_or(AtomicOp::Swap);
                let wide = out.l2_req_wide >> b & 1 != 0;
                let join = |lo: u32, hi: u32| if wide { u64::from(lo) | u64::from(hi) << 32 } else { u64::from(lo) };
                let (value, cmp) = (join(words[0], words[1]), join(words[2], words[3]));
                let bytes = if wide { 8 } else { 4 };
                let old = self.memory.read(address, bytes) as u64;
                self.memory.write(address, bytes, u128::from(atomic_result(op, wide, old, value, cmp)));
                data[0] = old as u32;
                data[1] = if wide { (old >> 32) as u32 } else { 0 };
            }
        }
        data
    }
}

/// A run's result: the final wave and each VMEM instruction's timing, in program order.
#[derive(Clone, Debug)]
pub struct PipeRun {
    pub wave: Wave,
    pub timings: Vec<Timing>,
    pub cycles: u64,
}

/// Runs `program` on one pipeline (`unit`, from reset) to the end.
pub fn run<U: Unit<In = In, Out = Out> + StageSource>(
    unit: &mut U,
    program: &[(Instruction, String)],
    wave: &Wave,
    config: Config,
) -> Result<PipeRun, String> {
    let mut tb = Testbench::new(program, wave, config)?;
    unit.set_reset(true);
    unit.step(&In::default());
    let mut out = unit.set_reset(false);
    let mut held = false;
    while !tb.finished() {
        if tb.cycle() >= config.max_cycles {
            return Err(hang_message(&tb));
        }
        tb.see_stages(unit);
        let step = tb.step(&out);
        out = crate::engine::lockstep::drive_unit(unit, &mut held, &step);
    }
    Ok(PipeRun { wave: tb.final_wave(), timings: tb.timings, cycles: tb.cycle })
}

/// What a run that did not finish was waiting for.
pub fn hang_message(tb: &Testbench) -> String {
    let sent = tb.outstanding.iter().map(|o| o.index.to_string()).collect::<Vec<_>>().join(", ");
    format!(
        "the pipeline did not finish within {} cycles (instructions outstanding: [{sent}]; {} of {} program \
         entries issued)",
        tb.config.max_cycles,
        tb.next_item,
        tb.items.len()
    )
}

/// Runs `program` on the model and the RTL in lockstep (`ls`, reset here), every output compared
/// every cycle; the testbench follows the model's outputs. `observe` sees the model after each
/// cycle with that cycle's inputs and the model's outputs (functional coverage). `Err` names the
/// first cycle and signal where they parted (or the RTL assertion that failed), or the hang.
pub fn run_both<M, R>(
    ls: &mut crate::engine::lockstep::Lockstep<M, R>,
    program: &[(Instruction, String)],
    wave: &Wave,
    config: Config,
    mut observe: impl FnMut(&M, &In, &Out),
) -> Result<PipeRun, String>
where
    M: Unit<In = In, Out = Out> + StageSource,
    R: crate::engine::RtlUnit<In = In, Out = Out>,
{
    use gcn_vmem_model::unit::Ports as _;
    let mut tb = Testbench::new(program, wave, config)?;
    ls.reset();
    let mut out = ls.opening[2].0;
    loop {
        if !ls.clean() {
            // A concurrent assertion samples a cycle's values at the edge that ends it, one drive
            // after the comparison of that cycle's (Moore) outputs: an assertion on an output, or
            // one that fails in the cycle a corruption reaches an output, shows in the next drive.
            // It is driven before the report, so the assertion is named rather than the mismatch.
            if ls.assertions.is_empty() {
                let step = tb.step(&out);
                ls.drive(&step);
            }
            if let Some(a) = ls.assertions.first() {
                return Err(format!("cycle {}: RTL assertion {} failed", a.cycle, a.name));
            }
            let m = ls.mismatches[0];
            let signal = Out::SIGNALS[m.signal];
            return Err(format!(
                "cycle {} ({}): model and RTL differ on {}: model {}, RTL {} ({} signal(s) differ that cycle)",
                m.cycle,
                m.at,
                signal.name,
                signal.hex(m.expected),
                signal.hex(m.actual),
                ls.mismatches.iter().filter(|x| x.cycle == m.cycle).count()
            ));
        }
        if tb.finished() {
            break;
        }
        if tb.cycle() >= config.max_cycles {
            return Err(hang_message(&tb));
        }
        tb.see_stages(&ls.model);
        let step = tb.step(&out);
        out = ls.drive(&step).1;
        observe(&ls.model, &step.input, &out);
    }
    Ok(PipeRun { wave: tb.final_wave(), timings: tb.timings, cycles: tb.cycle })
}

/// The first difference between the pipeline's final state and the executor's: a VGPR lane,
/// an LDS byte or a memory byte; `None` when they agree.
pub fn first_difference(pipe: &Wave, executor: &Wave) -> Option<String> {
    for (v, (p, e)) in pipe.vgprs.iter().zip(&executor.vgprs).enumerate() {
        if let Some(l) = (0..LANES).find(|&l| p[l] != e[l]) {
            return Some(format!("v{v} lane {l}: pipeline {:#010x}, executor {:#010x}", p[l], e[l]));
        }
    }
    if let Some(a) = (0..pipe.lds.bytes.len().max(executor.lds.bytes.len()))
        .find(|&a| pipe.lds.bytes.get(a) != executor.lds.bytes.get(a))
    {
        let byte = |w: &Wave| w.lds.bytes.get(a).map_or("none".into(), |b| format!("{b:#04x}"));
        return Some(format!("LDS byte {a:#x}: pipeline {}, executor {}", byte(pipe), byte(executor)));
    }
    let changed = |w: &Wave| w.memory.changes_since(&Memory::default());
    let (pm, em) = (changed(pipe), changed(executor));
    if pm != em {
        let bytes = |runs: &[(u64, Vec<u8>)]| -> Vec<(u64, u8)> {
            runs.iter().flat_map(|(a, d)| d.iter().enumerate().map(move |(i, &b)| (a + i as u64, b))).collect()
        };
        let (p, e) = (bytes(&pm), bytes(&em));
        let at = p.iter().zip(&e).find(|(x, y)| x != y).map_or_else(
            || format!("{} changed bytes against {}", p.len(), e.len()),
            |(x, y)| format!("byte {:#x}: pipeline {:#04x}, executor at {:#x} {:#04x}", x.0, x.1, y.0, y.1),
        );
        return Some(format!("memory differs: {at}"));
    }
    None
}
