//! Unit tests of the `vmem_pipe` model against cycles and values derived by hand from the
//! contract (docs/decisions.md "vmem_pipe (SPEC §14)"; each expectation carries its derivation),
//! with a tiny inline driver: an SQ that offers queued beats while `iss_ready_o` is 1, and an L2
//! over a byte memory that accepts every presented request and answers it `latency` cycles after
//! accepting it (per line when asked), one response per channel and cycle, with `l2_idle_i` as
//! the testbench computes it. Cycle 0 is the first cycle after reset (outputs all 0), so an
//! instruction's first beat is accepted in cycle 1 at the earliest.

use std::collections::{HashMap, VecDeque};

use super::config::{Config, ConfigError};
use super::cover::{event, EVENTS};
use super::ports::{ImageIssue, In, Out, KIND_ATOMIC, KIND_LOAD, KIND_STORE, L2_ATOMIC, L2_READ, L2_WRITE, TAG_POSTED};
use super::VmemPipe;
use crate::exec::{atomic_result, Access, AtomicOp, BufferInst, BufferKind, ImageInst, ImageKind, Wave, D16};
use crate::tsharp::{TSharp, TYPE_2D};
use crate::unit::Unit;
use crate::vmem_pipe::cover::lds_event;
use crate::vsharp::VSharp;

/// A bound raw buffer at `base` (dfmt 4 = 32, nfmt 4 = uint), large enough for every test.
fn vsharp(base: u64) -> u128 {
    sized_vsharp(base, 0x10_0000, 4)
}

/// A bound raw buffer at `base` of `num_records` bytes, format `dfmt` under nfmt 4 (uint),
/// dst_sel XYZW.
fn sized_vsharp(base: u64, num_records: u32, dfmt: u8) -> u128 {
    VSharp { base, num_records, dst_sel: [4, 5, 6, 7], nfmt: 4, dfmt, ..VSharp::default() }.encode()
}

/// A BUFFER_LOAD_DWORD's header with OFFEN (one address dword per lane): sized, 4 bytes, the
/// implied 32/uint format, identity dst_sel X000.
fn load_dword(exec: u64, vdata: u8) -> In {
    In {
        iss_kind: KIND_LOAD,
        iss_sized: true,
        iss_access: 1,
        iss_bytes: 4,
        iss_count: 1,
        iss_dfmt: 4,
        iss_nfmt: 4,
        iss_dst_sel: 4,
        iss_offen: true,
        iss_vdata: vdata,
        iss_rsrc: super::ports::rsrc_dwords(vsharp(0x1000), 0),
        iss_exec: exec,
        ..In::default()
    }
}

/// The B beats of an instruction: `header` on each, lane l's address dword `addr[l]` and data
/// dwords `data[d][l]` (beat k: dword ⌊k/4⌋ of lanes 16(k mod 4) ..).
fn beats(header: &In, addr: &[u32; 64], data: &[[u32; 64]]) -> Vec<In> {
    let b = 4 * data.len().max(1);
    (0..b)
        .map(|k| {
            let mut beat = In { iss_valid: true, iss_last: k + 1 == b, ..*header };
            let first = 16 * (k % 4);
            if k / 4 == 0 {
                beat.iss_addr.copy_from_slice(&addr[first..first + 16]);
            }
            if let Some(d) = data.get(k / 4) {
                beat.iss_data.copy_from_slice(&d[first..first + 16]);
            }
            beat
        })
        .collect()
}

/// Offsets 4l: 64 consecutive dwords from the V#'s base.
fn consecutive() -> [u32; 64] {
    std::array::from_fn(|l| 4 * l as u32)
}

/// A BUFFER_LOAD_DWORDX2's header with OFFEN (per-lane requests: not single-component): sized,
/// 8 bytes, the implied 32_32 uint format, identity dst_sel XY00.
fn load_dwordx2(exec: u64, vdata: u8) -> In {
    In { iss_bytes: 8, iss_count: 2, iss_dfmt: 11, iss_dst_sel: 4 | 5 << 3, ..load_dword(exec, vdata) }
}

/// A BUFFER_STORE_DWORD's header with OFFEN.
fn store_dword(exec: u64) -> In {
    In { iss_kind: KIND_STORE, ..load_dword(exec, 0) }
}

/// Lane addresses (offsets from the V#'s base 0x1000): `lanes` given, 0 elsewhere.
fn offsets(lanes: &[(usize, u32)]) -> [u32; 64] {
    let mut a = [0u32; 64];
    for &(l, o) in lanes {
        a[l] = o;
    }
    a
}

/// An L2 request as the driver saw it accepted: (cycle, channel, kind, tag, address).
type Accepted = (u64, usize, u8, u8, u64);

/// The driver: SQ, L2, VGPR file.
struct Bench {
    pipe: VmemPipe,
    /// The outputs of cycle `t`.
    out: Out,
    t: u64,
    queue: VecDeque<In>,
    memory: HashMap<u64, u8>,
    latency: u64,
    /// Latency per line address (reads, writes and atomics of that line), over `latency`.
    line_latency: HashMap<u64, u64>,
    l2_ready: bool,
    vgpr_ready: bool,
    /// Per channel: (due cycle, tag, line dwords), in acceptance order.
    responses: [Vec<(u64, u8, [u32; 16])>; 4],
    /// Responses to present in a given cycle on a channel whatever is due: (cycle, channel, tag).
    inject: Vec<(u64, usize, u8)>,
    accepted: Vec<Accepted>,
    /// Every request's outputs when accepted.
    requests: Vec<(u64, usize, Out)>,
    vgprs: HashMap<(u8, usize), u32>,
    writes: Vec<(u64, Out)>,
    /// The LDS port: its ready, the LDS (64 KiB), the accepted LDS writes.
    lds_ready: bool,
    lds: Vec<u8>,
    lds_writes: Vec<(u64, Out)>,
    dones: Vec<(u64, Out)>,
    ready_trace: Vec<bool>,
    /// The union of the model's events.
    events: u64,
    /// Random L2 latencies (1..=latency), L2 and VGPR back-pressure, when set (a SplitMix64
    /// state).
    rng: Option<u64>,
}

/// SplitMix64.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Bench {
    fn new() -> Bench {
        Bench::with(Config::default())
    }

    fn with(config: Config) -> Bench {
        let mut pipe = VmemPipe::with_config(config).unwrap();
        pipe.reset();
        Bench {
            pipe,
            out: Out::default(),
            t: 0,
            queue: VecDeque::new(),
            memory: HashMap::new(),
            latency: 50,
            line_latency: HashMap::new(),
            l2_ready: true,
            vgpr_ready: true,
            responses: Default::default(),
            inject: Vec::new(),
            accepted: Vec::new(),
            requests: Vec::new(),
            vgprs: HashMap::new(),
            writes: Vec::new(),
            lds_ready: true,
            lds: vec![0; 1 << 16],
            lds_writes: Vec::new(),
            dones: Vec::new(),
            ready_trace: Vec::new(),
            events: 0,
            rng: None,
        }
    }

    fn read32(&self, a: u64) -> u32 {
        u32::from_le_bytes(std::array::from_fn(|i| self.memory.get(&(a + i as u64)).copied().unwrap_or(0)))
    }

    fn write32(&mut self, a: u64, v: u32) {
        for (i, b) in v.to_le_bytes().into_iter().enumerate() {
            self.memory.insert(a + i as u64, b);
        }
    }

    /// Writes `count` consecutive dwords from `a` up: `first`, `first + 1`, ….
    fn write_ramp(&mut self, a: u64, count: u32, first: u32) {
        for l in 0..count {
            self.write32(a + 4 * u64::from(l), first + l);
        }
    }

    /// The L2's inputs of cycle `t` into `input`: acceptance of presented requests (applied to
    /// memory at once), the due response of each channel, `l2_idle`.
    fn l2(&mut self, input: &mut In, reset: bool) {
        let t = self.t;
        // Every request accepted before t has had its response before t.
        input.l2_idle = self.responses.iter().all(|r| r.is_empty());
        let mut draw = |n: u64| self.rng.as_mut().map(|r| next(r) % n);
        let l2_ready: [bool; 4] = std::array::from_fn(|_| self.l2_ready && draw(4) != Some(0));
        let random_latency = draw(self.latency).map(|l| l + 1);
        for (b, &ready) in l2_ready.iter().enumerate() {
            if !reset && self.out.l2_req_valid >> b & 1 != 0 && ready {
                input.l2_req_ready |= 1 << b;
                let (kind, tag, addr) = (self.out.l2_req_kind[b], self.out.l2_req_tag[b], self.out.l2_req_addr[b]);
                self.accepted.push((t, b, kind, tag, addr));
                self.requests.push((t, b, self.out));
                let mut rsp = [0u32; 16];
                match kind {
                    L2_READ => rsp = std::array::from_fn(|i| self.read32(addr + 4 * i as u64)),
                    L2_WRITE => {
                        for i in 0..64 {
                            if self.out.l2_req_mask[b] >> i & 1 != 0 {
                                let byte = (self.out.l2_req_data[16 * b + i / 4] >> (8 * (i % 4))) as u8;
                                self.memory.insert(addr + i as u64, byte);
                            }
                        }
                    }
                    L2_ATOMIC => {
                        let wide = self.out.l2_req_wide >> b & 1 != 0;
                        let op = AtomicOp::ALL[usize::from(self.out.l2_req_op[b])];
                        let d = &self.out.l2_req_data[16 * b..16 * b + 4];
                        let (data, cmp) =
                            (u64::from(d[0]) | u64::from(d[1]) << 32, u64::from(d[2]) | u64::from(d[3]) << 32);
                        let old = u64::from(self.read32(addr))
                            | if wide { u64::from(self.read32(addr + 4)) << 32 } else { 0 };
                        let new = atomic_result(op, wide, old, data, cmp);
                        self.write32(addr, new as u32);
                        if wide {
                            self.write32(addr + 4, (new >> 32) as u32);
                        }
                        if self.out.l2_req_return >> b & 1 != 0 {
                            rsp[0] = old as u32;
                            rsp[1] = (old >> 32) as u32;
                        }
                    }
                    _ => panic!("kind {kind}"),
                }
                let latency = random_latency
                    .unwrap_or_else(|| self.line_latency.get(&(addr & !0x3f)).copied().unwrap_or(self.latency));
                self.responses[b].push((t + latency, tag, rsp));
            }
            if let Some(k) = self.inject.iter().position(|&(c, ch, _)| c == t && ch == b) {
                let (_, _, tag) = self.inject.remove(k);
                input.l2_rsp_valid |= 1 << b;
                input.l2_rsp_tag[b] = tag;
                continue;
            }
            // The earliest due (ties: accepted first).
            let due = self.responses[b].iter().enumerate().filter(|(_, r)| r.0 <= t).min_by_key(|(_, r)| r.0);
            if let Some((k, _)) = due {
                let (_, tag, data) = self.responses[b].remove(k);
                input.l2_rsp_valid |= 1 << b;
                input.l2_rsp_tag[b] = tag;
                input.l2_rsp_data[16 * b..16 * b + 16].copy_from_slice(&data);
            }
        }
    }

    /// One cycle: inputs from the outputs of this cycle, one step.
    fn tick(&mut self) {
        let t = self.t;
        let mut input = In::default();
        self.ready_trace.push(self.out.iss_ready);
        if self.out.iss_ready {
            if let Some(beat) = self.queue.pop_front() {
                input = beat;
            }
        }
        self.l2(&mut input, false);
        if let Some(r) = self.rng.as_mut() {
            self.vgpr_ready = !next(r).is_multiple_of(3);
            self.lds_ready = self.vgpr_ready;
        }
        input.vgpr_ready = self.vgpr_ready;
        input.lds_ready = self.lds_ready;
        if self.out.lds_valid && self.lds_ready {
            // Lanes ascending, bytes beyond the LDS dropped.
            for j in (0..16).filter(|&j| self.out.lds_mask >> j & 1 != 0) {
                let at = self.out.lds_addr[j] as usize;
                for (i, b) in self.out.lds_data[j].to_le_bytes().into_iter().enumerate() {
                    if let Some(slot) = self.lds.get_mut(at + i) {
                        *slot = b;
                    }
                }
            }
            self.lds_writes.push((t, self.out));
        }
        if self.out.vgpr_valid && self.vgpr_ready {
            for j in 0..16 {
                if self.out.vgpr_mask >> j & 1 != 0 {
                    self.vgprs
                        .insert((self.out.vgpr_addr, 16 * usize::from(self.out.vgpr_group) + j), self.out.vgpr_data[j]);
                }
            }
            self.writes.push((t, self.out));
        }
        if self.out.done_valid {
            self.dones.push((t, self.out));
        }
        self.out = self.pipe.step(&input);
        self.events |= self.pipe.events();
        self.t += 1;
        // Idle zero: payloads are 0 where their valid is 0.
        let o = &self.out;
        if !o.vgpr_valid {
            assert_eq!((o.vgpr_addr, o.vgpr_group, o.vgpr_mask, o.vgpr_data), (0, 0, 0, [0; 16]));
        }
        if !o.lds_valid {
            assert_eq!((o.lds_mask, o.lds_addr, o.lds_data), (0, [0; 16], [0; 16]));
        }
        assert!(!(o.vgpr_valid && o.lds_valid), "one write port at a time");
        if !o.done_valid {
            assert_eq!(counters(o), [0; 12]);
        }
        for b in 0..4 {
            if o.l2_req_valid >> b & 1 == 0 {
                assert_eq!((o.l2_req_kind[b], o.l2_req_tag[b], o.l2_req_addr[b], o.l2_req_mask[b]), (0, 0, 0, 0));
                assert_eq!(o.l2_req_data[16 * b..16 * b + 16], [0; 16]);
                assert_eq!((o.l2_req_op[b], o.l2_req_wide >> b & 1, o.l2_req_return >> b & 1), (0, 0, 0));
            }
        }
    }

    /// `cycles` cycles with rst_ni low (the L2 goes on delivering its responses, which are
    /// lost), then released: the SQ's queue and the VGPR file start again.
    fn reset_for(&mut self, cycles: u64) {
        assert_eq!(self.pipe.set_reset(true), Out::default());
        for _ in 0..cycles {
            let mut input = In::default();
            self.l2(&mut input, true);
            assert_eq!(self.pipe.step(&input), Out::default());
            self.t += 1;
        }
        self.out = self.pipe.set_reset(false);
        assert_eq!(self.out, Out::default());
        self.queue.clear();
        self.vgprs.clear();
        self.writes.clear();
        self.lds.fill(0);
        self.lds_writes.clear();
        self.dones.clear();
    }

    /// Ticks until `n` instructions are done (at most until cycle `limit`).
    fn run_until_done(&mut self, n: usize, limit: u64) {
        while self.dones.len() < n {
            assert!(self.t < limit, "not done by cycle {limit}");
            self.tick();
        }
    }

    fn run_until(&mut self, t: u64) {
        while self.t < t {
            self.tick();
        }
    }

    fn send(&mut self, b: Vec<In>) {
        self.queue.extend(b);
    }

    /// Sends a program's `issue`; with `reset` (at, cycles), runs to cycle `at`, resets for
    /// `cycles` and sends the program again on the `initial` memory.
    fn send_program(&mut self, issue: Vec<In>, reset: Option<(u64, u64)>, initial: &HashMap<u64, u8>) {
        self.send(issue.clone());
        if let Some((at, cycles)) = reset {
            self.run_until(at);
            self.reset_for(cycles);
            self.memory = initial.clone();
            self.send(issue);
        }
    }

    /// Holds the VGPRs written equal to the `executor`'s and the others as they were `before`;
    /// the memory the pipeline holds equal to the executor's and, with `changes`, every byte the
    /// executor changed in the pipeline's memory too.
    fn check_program(&self, executor: &Wave, before: &Wave, changes: bool, context: &dyn Fn() -> String) {
        for (&(v, l), &d) in &self.vgprs {
            assert_eq!(d, executor.vgprs[usize::from(v)][l], "v{v} lane {l}; {}", context());
        }
        for v in 0..256 {
            for l in 0..64 {
                if !self.vgprs.contains_key(&(v as u8, l)) {
                    assert_eq!(before.vgprs[v][l], executor.vgprs[v][l], "v{v} lane {l} not written; {}", context());
                }
            }
        }
        if changes {
            for (a, bytes) in executor.memory.changes_since(&before.memory) {
                for (k, &b) in bytes.iter().enumerate() {
                    let at = a + k as u64;
                    assert_eq!(self.memory.get(&at).copied().unwrap_or(0), b, "memory {at:#x}; {}", context());
                }
            }
        }
        for (&a, &b) in &self.memory {
            assert_eq!(executor.memory.read_byte(a), b, "memory {a:#x}; {}", context());
        }
    }

    /// The cycles of the accepted VGPR writes to `vgpr`.
    fn write_cycles(&self, vgpr: u8) -> Vec<u64> {
        self.writes.iter().filter(|w| w.1.vgpr_addr == vgpr).map(|w| w.0).collect()
    }
}

/// The done counters of one output: (issue, ta, tcp, l2, td, total, requests, hits, misses,
/// merged, conflicts, mshr_wait).
fn counters(o: &Out) -> [u16; 12] {
    [
        o.done_issue,
        o.done_ta,
        o.done_tcp,
        o.done_l2,
        o.done_td,
        o.done_total,
        o.done_requests,
        o.done_hits,
        o.done_misses,
        o.done_merged,
        o.done_conflicts,
        o.done_mshr_wait,
    ]
}

// Common timeline of one instruction alone (contract: issue receiver, TA, TCP, TD):
// beats accepted at 1..4 (iss_ready is 0 in cycle 0, the cycle after reset); the last completes
// buffer 0, so the address stage takes it at a = 5; group g is available from a + g + 3 = 8 + g,
// so the step stage's first step is at 8 and a single-component coalesced group's one bundle is
// presented (and accepted: queues empty) in 8 + g; its access is at its bank's lookup head in
// 9 + g. A request pushed at the edge of a lookup in cycle L is presented in L + 1 and accepted
// then (the test L2 is always ready); its response comes 50 cycles after acceptance.

#[test]
fn a_cold_coalesced_load_misses_then_hits_warm() {
    let mut bench = Bench::new();
    bench.write_ramp(0x1000, 64, 0xabc0_0000);
    bench.send(beats(&load_dword(u64::MAX, 10), &consecutive(), &[]));
    bench.run_until_done(1, 200);
    assert_eq!(bench.ready_trace[..6], [false, true, true, true, true, true]);
    // Group g = lanes 16g..16g+15 = line 0x1000 + 64g, bank g (bits 7:6): one bundle of four
    // requests (one per quad) = one access. Lookup 9 + g: miss, the lowest free MSHR 0, the line
    // read tagged {0, 0} pushed; presented and accepted in 10 + g on channel g.
    assert_eq!(
        bench.accepted,
        [
            (10, 0, L2_READ, 0, 0x1000),
            (11, 1, L2_READ, 0, 0x1040),
            (12, 2, L2_READ, 0, 0x1080),
            (13, 3, L2_READ, 0, 0x10c0)
        ]
    );
    // Responses 60 + g: MSHR 0 arrived. Return stage: {MSHR 0} ready in 61 + g (a response edge
    // before), read then; the return register holds it from 62 + g; the TD takes it in 62 + g
    // (4 blocks). G is gathered at the edge of 65 (step stage ended at 11): s = 66; group g's
    // write from s + 4 + g = 70 + g; done d = e + 1 = 74.
    assert_eq!(bench.write_cycles(10), [70, 71, 72, 73]);
    for (g, (_, w)) in bench.writes.iter().enumerate() {
        assert_eq!((w.vgpr_addr, w.vgpr_group, w.vgpr_mask), (10, g as u8, 0xffff));
        assert_eq!(w.vgpr_data, std::array::from_fn(|j| 0xabc0_0000 + (16 * g + j) as u32));
    }
    let (done_cycle, done) = bench.dones[0];
    assert_eq!(done_cycle, 74);
    // issue 1..4 = 4; TA 8..11 = 4; TCP heads 9..12 = 4; L2 10..63 = 54; TD 66..73 = 8;
    // total 74 − 1 = 73; 16 requests, all misses.
    assert_eq!(counters(&done), [4, 4, 4, 54, 8, 73, 16, 0, 16, 0, 0, 0]);

    // The same load again, first beat at t0: a = t0 + 4, bundles t0 + 7 + g, lookups (hits)
    // t0 + 8 + g, return reads t0 + 9 + g (no fill), registers and takes t0 + 10 + g; gathered at
    // the edge of t0 + 13: s = t0 + 14, writes t0 + 18 .. t0 + 21, done t0 + 22.
    let t0 = bench.t;
    bench.send(beats(&load_dword(u64::MAX, 20), &consecutive(), &[]));
    bench.run_until_done(2, t0 + 100);
    assert_eq!(bench.write_cycles(20), [t0 + 18, t0 + 19, t0 + 20, t0 + 21]);
    let (done_cycle, done) = bench.dones[1];
    assert_eq!(done_cycle, t0 + 22);
    assert_eq!(counters(&done), [4, 4, 4, 0, 8, 22, 16, 16, 0, 0, 0, 0]);
    assert_eq!(bench.accepted.len(), 4, "no L2 request");
    for l in 0..64 {
        assert_eq!(bench.vgprs[&(20, l)], 0xabc0_0000 + l as u32);
    }
    assert_ne!(bench.events & event::TD_FOUR, 0);
}

#[test]
fn back_to_back_warm_loads_finish_one_every_four_cycles() {
    let mut bench = Bench::new();
    bench.write_ramp(0x1000, 64, 7);
    bench.send(beats(&load_dword(u64::MAX, 0), &consecutive(), &[]));
    bench.run_until_done(1, 200);
    let t0 = bench.t;
    for k in 0..6 {
        bench.send(beats(&load_dword(u64::MAX, 10 + k), &consecutive(), &[]));
    }
    bench.run_until_done(7, t0 + 200);
    // Load k's beats t0 + 4k .. + 3 (the buffer it fills was freed at the edge of the address
    // stage's last cycle on its previous instruction, a_{k−2} + 3 < t0 + 4k). a_k = t0 + 4 + 4k
    // (the address stage is idle from a_{k−1} + 4 and the step stage holds only load k − 1).
    // Step stage from max(a_k + 3, the previous one's last step + 1) = t0 + 7 + 4k, 4 cycles;
    // lookups t0 + 8 + 4k + g, reads t0 + 9 + 4k + g, registers t0 + 10 + 4k + g; gathered at the
    // edge of t0 + 13 + 4k. Its element buffer (k mod 2 + 1) is free from s_{k−2} + 4 =
    // t0 + 10 + 4k, when its first register is there. s_k = max(gathered + 1 = t0 + 14 + 4k,
    // s_{k−1} + 4, its result buffer free from e_{k−2} + 1 = t0 + 14 + 4k) = t0 + 14 + 4k; writes
    // t0 + 18 + 4k + g, each after the previous (e_{k−1} = t0 + 17 + 4k); done t0 + 22 + 4k.
    let done: Vec<u64> = bench.dones[1..].iter().map(|d| d.0).collect();
    assert_eq!(done, (0..6).map(|k| t0 + 22 + 4 * k).collect::<Vec<_>>());
    for (k, (_, d)) in bench.dones[1..].iter().enumerate() {
        assert_eq!(counters(d), [4, 4, 4, 0, 8, 22, 16, 16, 0, 0, 0, 0], "load {k}");
    }
    let writes: Vec<u64> = bench.writes[4..].iter().map(|w| w.0).collect();
    assert_eq!(writes, (0..24).map(|i| t0 + 18 + i).collect::<Vec<_>>(), "a write every cycle");
}

#[test]
fn a_second_load_of_pending_lines_merges_and_the_td_takes_four_blocks_a_cycle() {
    let mut bench = Bench::new();
    bench.write_ramp(0x1000, 64, 0x100);
    bench.send(beats(&load_dword(u64::MAX, 10), &consecutive(), &[]));
    bench.send(beats(&load_dword(u64::MAX, 20), &consecutive(), &[]));
    bench.run_until_done(2, 300);
    // A as alone: misses in 9 + g, responses 60 + g, registers and takes 62 + g, gathered at the
    // edge of 65, s = 66, writes 70..73, done 74.
    assert_eq!(bench.dones[0].0, 74);
    assert_eq!(counters(&bench.dones[0].1), [4, 4, 4, 54, 8, 73, 16, 0, 16, 0, 0, 0]);
    // B: beats 5..8, a = 9, steps from max(12, 11 + 1) = 12, lookups 13 + g: the line pending,
    // MSHR 0 open with 1 target < 8: merge (return entry {MSHR 0}, 2 targets). No request.
    assert_eq!(bench.accepted.len(), 4);
    // Bank g's return queue: A's {0}, B's {0}. A's read 61 + g (register from 62 + g, taken
    // then); B's read 62 + g (MSHR 0 then free), register from 63 + g. B is G from 66 (A
    // gathered at the edge of 65): in 66 the TD takes bank 0 (4 blocks) and stops at bank 1
    // (it does not fit); 67 bank 1, 68 bank 2, 69 bank 3; gathered at the edge of 69. s = 70
    // (≥ 66 + 4), writes 74..77, done 78. TCP 13..16, TD 70..77, total 78 − 5.
    assert_eq!(bench.write_cycles(20), [74, 75, 76, 77]);
    assert_eq!(bench.dones[1].0, 78);
    assert_eq!(counters(&bench.dones[1].1), [4, 4, 4, 0, 8, 73, 16, 0, 0, 16, 0, 0]);
    assert_ne!(bench.events & event::MERGE, 0);
    assert_ne!(bench.events & event::TD_STOP, 0);
    assert_eq!(bench.vgprs[&(20, 63)], 0x100 + 63);
}

#[test]
fn a_younger_miss_sends_its_read_while_the_older_is_outstanding() {
    let mut bench = Bench::new();
    bench.write_ramp(0x2000, 64, 0x200);
    bench.send(beats(&load_dword(u64::MAX, 10), &consecutive(), &[]));
    // B: lines 0x2000 + 64g (offsets 0x1000 + 4l), bank g again, other lines.
    let far: [u32; 64] = std::array::from_fn(|l| 0x1000 + 4 * l as u32);
    bench.send(beats(&load_dword(u64::MAX, 20), &far, &[]));
    bench.run_until_done(2, 300);
    // A: reads accepted 10 + g (MSHR 0). B: lookups 13 + g miss with the lowest free MSHR, 1,
    // accepted 14 + g while A's are outstanding (responses 60 + g).
    let b_reads: Vec<Accepted> = bench.accepted[4..].to_vec();
    assert_eq!(
        b_reads,
        [
            (14, 0, L2_READ, 1, 0x2000),
            (15, 1, L2_READ, 1, 0x2040),
            (16, 2, L2_READ, 1, 0x2080),
            (17, 3, L2_READ, 1, 0x20c0)
        ]
    );
    // B's responses 64 + g, reads 65 + g, registers 66 + g; B is G from 66: taken 66 + g,
    // gathered at the edge of 69, s = 70, writes 74..77, done 78. L2 14..67.
    assert_eq!(bench.dones[1].0, 78);
    assert_eq!(counters(&bench.dones[1].1), [4, 4, 4, 54, 8, 73, 16, 0, 16, 0, 0, 0]);
    assert_eq!(bench.vgprs[&(20, 5)], 0x205);
}

#[test]
fn mshr_exhaustion_at_the_small_configuration() {
    let mut bench = Bench::with(Config::small());
    bench.write32(0x1100, 0x33);
    // Lanes 0, 4, 8 (quads 0..2 of group 0) at lines 0x1000, 0x1080, 0x1100: all bank 0 with two
    // banks (bit 6). Every quad mergeable: one step of three requests, one bundle, three accesses
    // in bank 0 (conflicts 3 − 1 = 2), accepted at 8 (4 free entries).
    let addr = offsets(&[(0, 0), (4, 0x80), (8, 0x100)]);
    bench.send(beats(&load_dword(1 | 1 << 4 | 1 << 8, 1), &addr, &[]));
    bench.run_until_done(1, 300);
    // 9: miss, MSHR 0, L2 queue 1/1, return queue 1/2; read accepted 10, answered 60.
    // 10: the L2 queue is full at the start of 10 (its request leaves at that edge): waits.
    // 11: miss, MSHR 1, return queue 2/2; accepted 12, answered 62.
    // 12 .. 61: no free MSHR: an MSHR wait each cycle (50).
    // 61: {MSHR 0} read (arrived at 60), no target left: MSHR 0 free from 62.
    // 62: miss, MSHR 0 (the lowest free); accepted 63, answered 113.
    assert_eq!(bench.accepted, [(10, 0, L2_READ, 0, 0x1000), (12, 0, L2_READ, 1, 0x1080), (63, 0, L2_READ, 0, 0x1100)]);
    // Reads: {0} in 61 (register 62, taken 62), {1} in 63 (arrived 62), {0} in 114; taken 115,
    // gathered at the edge of 115, s = 116, one write (group 0, one dword) at 120, done 121.
    // TA 8..11; TCP heads 9..62 = 54; L2 10..113 = 104; TD 116..120 = 5; total 121 − 1.
    assert_eq!(bench.write_cycles(1), [120]);
    assert_eq!(bench.dones[0].0, 121);
    assert_eq!(counters(&bench.dones[0].1), [4, 4, 54, 104, 5, 120, 3, 0, 3, 0, 2, 50]);
    assert_eq!(bench.vgprs[&(1, 8)], 0x33);
    assert_ne!(bench.events & event::MSHR_WAIT, 0);
}

#[test]
fn a_full_mshr_makes_a_target_wait_at_the_small_configuration() {
    let mut bench = Bench::with(Config::small());
    bench.write32(0x1000, 0x11);
    bench.write32(0x1004, 0x22);
    // DWORDX2 (not single-component): one step per quad, per-lane requests. Lanes 0, 4, 8 all at
    // 0x1000: bundles of one request at 8, 9, 10 (quads 0..2), quad 3's empty step 11, groups
    // 1..3 12..23 (TA 16).
    let addr = offsets(&[(0, 0), (4, 0), (8, 0)]);
    bench.send(beats(&load_dwordx2(1 | 1 << 4 | 1 << 8, 2), &addr, &[]));
    bench.run_until_done(1, 300);
    // 9: miss, MSHR 0 (accepted 10, answered 60). 10: merge (2 targets). 11 .. 60: pending,
    // open, 2 = Targets: a target wait (an MSHR wait) each cycle, 50. 61: the line is valid, a
    // hit, but the return queue is full at the start of 61 ({0} is read then): waits. 62: hit.
    // Reads: {0} 61, {0} 62 (register taken 62), the hit 63 (no fill: it wrote in 61). Gathered
    // at the edge of 64, s = 65, writes (2 dwords, group 0) 69, 70; done 71.
    assert_eq!(bench.accepted, [(10, 0, L2_READ, 0, 0x1000)]);
    assert_eq!(bench.write_cycles(2), [69]);
    assert_eq!(bench.write_cycles(3), [70]);
    assert_eq!(bench.dones[0].0, 71);
    // TCP 9..62 = 54; L2 10..60 = 51; TD 65..70 = 6; total 70.
    assert_eq!(counters(&bench.dones[0].1), [4, 16, 54, 51, 6, 70, 3, 1, 1, 1, 0, 50]);
    assert_eq!((bench.vgprs[&(2, 8)], bench.vgprs[&(3, 8)]), (0x11, 0x22));
    assert_ne!(bench.events & event::TARGET_WAIT, 0);
    assert_ne!(bench.events & event::RETURN_FULL, 0);
}

#[test]
fn a_store_to_a_pending_line_closes_its_mshr_and_waits_for_the_fill() {
    let mut bench = Bench::new();
    bench.write32(0x1000, 0x55);
    // L: load lane 0 at 0x1000; S: store lane 0 at 0x1004; L3: load lane 0 at 0x1004.
    bench.send(beats(&load_dword(1, 1), &offsets(&[]), &[]));
    let mut data = [0u32; 64];
    data[0] = 0x77;
    bench.send(beats(&store_dword(1), &offsets(&[(0, 4)]), &[data]));
    bench.send(beats(&load_dword(1, 2), &offsets(&[(0, 4)]), &[]));
    bench.run_until_done(3, 400);
    // L: bundle 8 (steps 9..11 empty), lookup 9: miss MSHR 0, accepted 10, answered 60.
    // S: beats 5..8, a = 9, steps 12..15, lookup 13: the line pending, MSHR 0 open: closed at
    // the edge of 13; S waits. 60: the response finds MSHR 0 closed: the entry becomes invalid.
    // 61: S finds no entry: the masked write {1, id 1} pushed; accepted 62; acknowledged 112.
    // L3: beats 9..12, a = 13, steps 16..19, its access behind S in bank 0's lookup queue; at
    // the head in 62: no entry (invalid after the fill): a miss, MSHR 0 (free from 62: its one
    // target was read in 61), accepted 63 (S's write left the L2 queue at the edge of 62).
    assert_eq!(
        bench.accepted,
        [(10, 0, L2_READ, 0, 0x1000), (62, 0, L2_WRITE, TAG_POSTED | 1, 0x1000), (63, 0, L2_READ, 0, 0x1000)]
    );
    let write = bench.requests[1].2;
    assert_eq!((write.l2_req_mask[0], write.l2_req_data[1]), (0xf0, 0x77));
    // L: read 61, register 62, taken 62, s = 63, write 67, done 68.
    assert_eq!(bench.dones[0].0, 68);
    assert_eq!(counters(&bench.dones[0].1), [4, 4, 1, 51, 5, 67, 1, 0, 1, 0, 0, 0]);
    // S: finished at the start of 113 (its one posted access acknowledged in 112): done 113.
    // TCP 13..61 = 49; L2 62..112 = 51; total 113 − 5.
    assert_eq!(bench.dones[1].0, 113);
    assert_eq!(counters(&bench.dones[1].1), [4, 4, 49, 51, 0, 108, 1, 0, 0, 0, 0, 0]);
    // L3: answered 113 (the stored value), read 114, taken 115, s = 116, write 120, done 121.
    // TCP 62..62; L2 63..113; total 121 − 9.
    assert_eq!(bench.dones[2].0, 121);
    assert_eq!(counters(&bench.dones[2].1), [4, 4, 1, 51, 5, 112, 1, 0, 1, 0, 0, 0]);
    assert_eq!((bench.vgprs[&(1, 0)], bench.vgprs[&(2, 0)]), (0x55, 0x77));
    assert_ne!(bench.events & event::STORE_CLOSES, 0);
    assert_ne!(bench.events & event::FILL_WAIT, 0);
}

#[test]
fn a_store_to_a_valid_line_waits_for_its_pins() {
    let mut bench = Bench::new();
    bench.write32(0x1000, 0x10);
    bench.write32(0x1004, 0x11);
    // Warm line 0x1000 (bank 0) first.
    bench.send(beats(&load_dword(1, 0), &offsets(&[]), &[]));
    bench.run_until_done(1, 200);
    let t0 = bench.t;
    // X0: load lane 0 at 0x1040 (bank 1, cold). H: DWORDX2 lanes 0 and 4 at 0x1000 (two
    // accesses, hits). S: store lane 0 at 0x1000.
    bench.send(beats(&load_dword(1, 10), &offsets(&[(0, 0x40)]), &[]));
    bench.send(beats(&load_dwordx2(1 | 1 << 4, 20), &offsets(&[]), &[]));
    let mut data = [0u32; 64];
    data[0] = 0x99;
    bench.send(beats(&store_dword(1), &offsets(&[]), &[data]));
    bench.run_until_done(4, t0 + 300);
    // X0: a = t0 + 4, bundle t0 + 7, lookup t0 + 8 (miss), accepted t0 + 9, answered t0 + 59,
    // read t0 + 60, taken t0 + 61 (gathered then): s = t0 + 62, write t0 + 66, done t0 + 67.
    // H: a = t0 + 8, steps t0 + 11 .. t0 + 26 (quad 0 at t0 + 11, quad 1 at t0 + 12): hits in
    // t0 + 12, t0 + 13 (pins 2). Its first is read in t0 + 13 (pins 1) and its register waits:
    // H is not G (X0 is) until t0 + 62. S: a = t0 + 12, steps t0 + 27 .. (after H's last step),
    // lookup from t0 + 28: the line valid with pins 1: waits. t0 + 62: the TD takes H's first,
    // the return stage reads its second (pins 0 at that edge). t0 + 63: S writes the line and
    // pushes its write ({1, id}: S is the fourth instruction taken, id 3), accepted t0 + 64,
    // acknowledged t0 + 114, done t0 + 115. TCP t0 + 28 .. t0 + 63 = 36; total t0 + 115 − (t0 + 8).
    assert_eq!(bench.accepted[1..], [(t0 + 9, 1, L2_READ, 0, 0x1040), (t0 + 64, 0, L2_WRITE, TAG_POSTED | 3, 0x1000)]);
    assert_eq!(bench.dones[1].0, t0 + 67);
    // H: its second taken t0 + 63, gathered then; s = t0 + 66 (X0's s + 4); writes t0 + 70, 71;
    // done t0 + 72. It read the bytes before the store: 0x10, 0x11.
    assert_eq!(bench.dones[2].0, t0 + 72);
    assert_eq!(counters(&bench.dones[2].1), [4, 16, 2, 0, 6, 68, 2, 2, 0, 0, 0, 0]);
    assert_eq!((bench.vgprs[&(20, 0)], bench.vgprs[&(21, 4)]), (0x10, 0x11));
    assert_eq!(bench.dones[3].0, t0 + 115);
    assert_eq!(counters(&bench.dones[3].1), [4, 4, 36, 51, 0, 107, 1, 0, 0, 0, 0, 0]);
    assert_ne!(bench.events & (event::PINS_WAIT | event::WRITE_HIT), 0);
    // The resident line has the stored dword: a load now hits it.
    let t1 = bench.t;
    bench.send(beats(&load_dword(1, 30), &offsets(&[]), &[]));
    bench.run_until_done(5, t1 + 100);
    assert_eq!((bench.vgprs[&(30, 0)], counters(&bench.dones[4].1)[7]), (0x99, 1));
}

#[test]
fn posted_stores_are_tagged_by_id_and_done_after_the_last_acknowledgement() {
    let mut bench = Bench::new();
    // Channel 1's line answers after 70 cycles, the others after 50.
    bench.line_latency.insert(0x1040, 70);
    let data: [u32; 64] = std::array::from_fn(|l| 0x5000 + l as u32);
    bench.send(beats(&store_dword(u64::MAX), &consecutive(), &[data]));
    bench.send(beats(&store_dword(u64::MAX), &consecutive(), &[data]));
    bench.run_until_done(2, 300);
    // Store 0 (id 0): lookups 9 + g (no line: quiet, a free L2 entry), writes {1, 0} accepted
    // 10 + g; acknowledged 60, 81 (70 cycles), 62, 63. Finished at the start of 82: done 82.
    // L2 10..81 = 72; TCP 9..12; total 81.
    assert_eq!(
        bench.accepted[..4].iter().map(|a| (a.0, a.1, a.2, a.3)).collect::<Vec<_>>(),
        [
            (10, 0, L2_WRITE, TAG_POSTED),
            (11, 1, L2_WRITE, TAG_POSTED),
            (12, 2, L2_WRITE, TAG_POSTED),
            (13, 3, L2_WRITE, TAG_POSTED)
        ]
    );
    let o = bench.requests[0].2;
    assert_eq!((o.l2_req_mask[0], o.l2_req_data[0], o.l2_req_data[15]), (u64::MAX, 0x5000, 0x500f));
    assert_eq!(bench.dones[0].0, 82);
    assert_eq!(counters(&bench.dones[0].1), [4, 4, 4, 72, 0, 81, 16, 0, 0, 0, 0, 0]);
    // Store 1 (id 1): beats 5..8, a = 9, bundles 12 + g, accepted 14 + g with {1, 1};
    // acknowledged 64, 85, 66, 67: done 86 (after 82).
    assert_eq!(
        bench.accepted[4..].iter().map(|a| (a.0, a.3)).collect::<Vec<_>>(),
        [(14, TAG_POSTED | 1), (15, TAG_POSTED | 1), (16, TAG_POSTED | 1), (17, TAG_POSTED | 1)]
    );
    assert_eq!(bench.dones[1].0, 86);
    assert_eq!(bench.read32(0x10fc), 0x503f);
    assert!(bench.writes.is_empty());
}

#[test]
fn atomics_with_and_without_return() {
    let mut bench = Bench::new();
    bench.write32(0x1004, 100);
    // BUFFER_ATOMIC_ADD GLC, OFFEN, lane 0 at 0x1004, data 5: 4 beats, a = 5; one step per quad
    // (16, 8..23); quad 0's bundle at 8; lookup 9: no line, MSHR 0 free: pushed {0, 0} with its
    // byte address; accepted 10, answered 60; read 61, taken 62, gathered then (its step stage
    // ended at 23): s = 63, write 67, done 68.
    let add = In { iss_kind: KIND_ATOMIC, iss_op: 2, iss_access: 2, iss_glc: true, iss_vdata: 7, ..load_dword(1, 0) };
    let mut data = [0u32; 64];
    data[0] = 5;
    bench.send(beats(&add, &offsets(&[(0, 4)]), &[data]));
    bench.run_until_done(1, 200);
    assert_eq!(bench.accepted, [(10, 0, L2_ATOMIC, 0, 0x1004)]);
    let o = bench.requests[0].2;
    assert_eq!((&o.l2_req_data[..4], o.l2_req_op[0], o.l2_req_wide, o.l2_req_return), (&[5u32, 0, 0, 0][..], 2, 0, 1));
    assert_eq!(bench.read32(0x1004), 105);
    assert_eq!(bench.writes.len(), 1);
    let (t, w) = bench.writes[0];
    assert_eq!((t, w.vgpr_addr, w.vgpr_group, w.vgpr_mask, w.vgpr_data[0]), (67, 7, 0, 1, 100));
    assert_eq!(counters(&bench.dones[0].1), [4, 16, 1, 51, 5, 67, 1, 0, 0, 0, 0, 0]);

    // Without GLC, after warming the line (a load): the atomic invalidates it and is posted
    // {1, id 2}; done after its acknowledgement; a load of the line then misses.
    let t0 = bench.t;
    bench.send(beats(&load_dword(1, 8), &offsets(&[(0, 4)]), &[]));
    bench.run_until_done(2, t0 + 200);
    let t1 = bench.t;
    bench.send(beats(&In { iss_glc: false, ..add }, &offsets(&[(0, 4)]), &[data]));
    bench.run_until_done(3, t1 + 200);
    // Beats t1 .. t1 + 3, a = t1 + 4, quad 0's bundle t1 + 7, lookup t1 + 8: the line valid: it
    // becomes invalid; the atomic pushed {1, 2}, accepted t1 + 9, acknowledged t1 + 59; the step
    // stage ended at t1 + 22: finished at the start of t1 + 60, done then (no write).
    assert_eq!(bench.accepted[2], (t1 + 9, 0, L2_ATOMIC, TAG_POSTED | 2, 0x1004));
    assert_eq!(bench.requests[2].2.l2_req_return, 0);
    assert_eq!(bench.dones[2].0, t1 + 60);
    assert_eq!(counters(&bench.dones[2].1), [4, 16, 1, 51, 0, 60, 1, 0, 0, 0, 0, 0]);
    assert_eq!(bench.writes.len(), 2);
    assert_eq!(bench.read32(0x1004), 110);
    let t2 = bench.t;
    bench.send(beats(&load_dword(1, 9), &offsets(&[(0, 4)]), &[]));
    bench.run_until_done(4, t2 + 200);
    assert_eq!((counters(&bench.dones[3].1)[8], bench.vgprs[&(9, 0)]), (1, 110));
    assert_ne!(bench.events & event::ATOMIC_INVALIDATE, 0);
}

#[test]
fn glc_loads_read_the_l2_and_do_not_allocate() {
    let mut bench = Bench::new();
    bench.write32(0x1000, 0x42);
    let glc = In { iss_glc: true, ..load_dword(1, 10) };
    bench.send(beats(&glc, &offsets(&[]), &[]));
    bench.run_until_done(1, 200);
    // Lookup 9: MSHR 0 (lineless, closed), read {0, 0} accepted 10, answered 60, read 61,
    // taken 62, s = 63, write 67, done 68; the read counts as a miss.
    assert_eq!(bench.accepted, [(10, 0, L2_READ, 0, 0x1000)]);
    assert_eq!((bench.dones[0].0, counters(&bench.dones[0].1)), (68, [4, 4, 1, 51, 5, 67, 1, 0, 1, 0, 0, 0]));
    // A GLC = 0 load of the same line misses: nothing was allocated.
    let t0 = bench.t;
    bench.send(beats(&load_dword(1, 11), &offsets(&[]), &[]));
    bench.run_until_done(2, t0 + 200);
    assert_eq!(bench.accepted[1], (t0 + 9, 0, L2_READ, 0, 0x1000));
    // A GLC = 1 load of the now resident line still reads the L2.
    let t1 = bench.t;
    bench.send(beats(&glc, &offsets(&[]), &[]));
    bench.run_until_done(3, t1 + 200);
    assert_eq!(bench.accepted.len(), 3);
    assert_eq!(counters(&bench.dones[2].1)[7..9], [0, 1]);
    assert_eq!(bench.vgprs[&(10, 0)], 0x42);
    assert_ne!(bench.events & event::GLC_BYPASS, 0);
}

#[test]
fn a_fill_write_delays_a_hit_read_by_one_cycle() {
    let mut bench = Bench::new();
    bench.write32(0x1000, 0xb0);
    bench.write32(0x1100, 0xc0);
    // Warm line 0x1000 (bank 0).
    bench.send(beats(&load_dword(1, 0), &offsets(&[]), &[]));
    bench.run_until_done(1, 200);
    let t0 = bench.t;
    // X0: load lane 0 at 0x1040 (bank 1, cold, answered 54 cycles after acceptance).
    // X1: DWORDX2, lanes 0, 4 at 0x1000 (hits), lane 8 at 0x1100 (bank 0, cold, 50 cycles),
    // lane 12 at 0x1000 (hit).
    bench.line_latency.insert(0x1040, 54);
    bench.send(beats(&load_dword(1, 10), &offsets(&[(0, 0x40)]), &[]));
    let addr = offsets(&[(0, 0), (4, 0), (8, 0x100), (12, 0)]);
    bench.send(beats(&load_dwordx2(1 | 1 << 4 | 1 << 8 | 1 << 12, 20), &addr, &[]));
    bench.run_until_done(3, t0 + 300);
    // X0: lookup t0 + 8, accepted t0 + 9, answered r0 = t0 + 63, read t0 + 64, taken t0 + 65
    // (gathered then): s = t0 + 66, write t0 + 70, done t0 + 71.
    // X1: a = t0 + 8, quads' bundles t0 + 11 .. t0 + 14, lookups in bank 0: t0 + 12 hit,
    // t0 + 13 hit, t0 + 14 miss (MSHR 0; accepted t0 + 15, answered t0 + 65: the fill register
    // writes the line in t0 + 66), t0 + 15 hit. The first hit is read in t0 + 13; its register
    // waits for X1 to be G (t0 + 66). In t0 + 66 the TD takes it, but the fill register writes
    // the RAM: the second hit's read waits to t0 + 67 (register t0 + 68); {MSHR 0} t0 + 68; the
    // last hit t0 + 69, taken t0 + 70: gathered at the edge of t0 + 70, s = t0 + 71 (X0's
    // s + 4 = t0 + 70 would allow one cycle earlier): writes t0 + 75, t0 + 76, done t0 + 77.
    assert_eq!(bench.accepted[1..], [(t0 + 9, 1, L2_READ, 0, 0x1040), (t0 + 15, 0, L2_READ, 0, 0x1100)]);
    assert_eq!(bench.dones[1].0, t0 + 71);
    assert_eq!(counters(&bench.dones[1].1), [4, 4, 1, 55, 5, 71, 1, 0, 1, 0, 0, 0]);
    assert_eq!(bench.write_cycles(20), [t0 + 75]);
    assert_eq!(bench.dones[2].0, t0 + 77);
    // TA t0 + 11 .. t0 + 26 = 16; TCP t0 + 12 .. t0 + 15 = 4; L2 t0 + 15 .. t0 + 65 = 51;
    // TD t0 + 71 .. t0 + 76 = 6; total t0 + 77 − (t0 + 4).
    assert_eq!(counters(&bench.dones[2].1), [4, 16, 4, 51, 6, 73, 4, 3, 1, 0, 0, 0]);
    assert_eq!((bench.vgprs[&(20, 8)], bench.vgprs[&(20, 12)]), (0xc0, 0xb0));
    assert_ne!(bench.events & event::PORT_DELAY, 0);
}

#[test]
fn the_td_takes_at_most_four_blocks_a_cycle() {
    let mut bench = Bench::new();
    // Lanes 0..7 at 0x1000 (bank 0, two blocks), 8..15 at 0x1040 (bank 1, two blocks), 16..23
    // at 0x1080 (bank 2, two blocks): group 0's bundle (8) has two accesses of two requests,
    // group 1's (9) one. Misses at 9, 9, 10; accepted 10, 10, 11; line 0x1080 answers after 49
    // cycles, so all three at 60; read 61, registers from 62.
    bench.line_latency.insert(0x1080, 49);
    bench.write_ramp(0x1000, 64, 0x900);
    let addr: [u32; 64] = std::array::from_fn(|l| if l < 24 { [0, 0x40, 0x80][l / 8] + 4 * (l as u32 % 8) } else { 0 });
    bench.send(beats(&load_dword(0xff_ffff, 4), &addr, &[]));
    bench.run_until_done(1, 200);
    // 62: banks 0 and 1 taken (2 + 2 = 4 blocks), bank 2's does not fit: the taking stops.
    // 63: bank 2. Gathered at the edge of 63, s = 64, writes (groups 0, 1) 68, 69, done 70.
    // TCP 9..10 = 2; L2 10..60 = 51; TD 64..69 = 6; total 69.
    assert_eq!(bench.write_cycles(4), [68, 69]);
    assert_eq!(bench.dones[0].0, 70);
    assert_eq!(counters(&bench.dones[0].1), [4, 4, 2, 51, 6, 69, 6, 0, 6, 0, 0, 0]);
    assert_eq!(bench.vgprs[&(4, 23)], 0x900 + 0x20 + 7);
    assert_ne!(bench.events & event::TD_FOUR, 0);
    assert_ne!(bench.events & event::TD_STOP, 0);
}

#[test]
fn quiet_after_a_mid_program_reset() {
    let mut bench = Bench::new();
    bench.write_ramp(0x1000, 64, 0xdead_0000);
    bench.send(beats(&load_dword(u64::MAX, 10), &consecutive(), &[]));
    // Cycle 0: l2_idle = 1, so quiet = 1 from 1. Reads accepted 10..13, owed at 60..63.
    bench.run_until(20);
    assert!(bench.pipe.in_flight() == 1);
    // rst_ni low in 20 and 21; memory reloaded for new requests; released: outputs 0 in 22,
    // iss_ready from 23. quiet = 0 (the L2 owes 4 responses).
    bench.reset_for(2);
    assert!(bench.pipe.idle() && bench.pipe.in_flight() == 0);
    bench.write_ramp(0x1000, 64, 0xbeef_0000);
    bench.send(beats(&load_dword(u64::MAX, 20), &consecutive(), &[]));
    // Beats 23..26, a = 27, bundles 30..33, lookups from 31 + g: misses that need quiet wait.
    // The stale responses (tag 0, the old bytes) come in 60..63 and are ignored (quiet = 0).
    // l2_idle = 1 in 64 (every response given before 64): quiet = 1 from 65. In 65 all four
    // banks' misses go (MSHR 0); presented and accepted in 66; nothing is presented before.
    bench.run_until(66);
    assert!(bench.accepted[4..].is_empty(), "no request while quiet = 0");
    assert_eq!(bench.out.l2_req_valid, 0xf);
    bench.run_until_done(1, 300);
    assert_eq!(
        bench.accepted[4..],
        [
            (66, 0, L2_READ, 0, 0x1000),
            (66, 1, L2_READ, 0, 0x1040),
            (66, 2, L2_READ, 0, 0x1080),
            (66, 3, L2_READ, 0, 0x10c0)
        ]
    );
    // Answered 116 on every channel; read 117; registers from 118, four of 4 blocks: the TD
    // takes one a cycle, 118..121; gathered at the edge of 121, s = 122, writes 126..129,
    // done 130. TCP 31..65 = 35; L2 66..116 = 51; total 130 − 23.
    assert_eq!(bench.write_cycles(20), [126, 127, 128, 129]);
    assert_eq!(bench.dones[0].0, 130);
    assert_eq!(counters(&bench.dones[0].1), [4, 4, 35, 51, 8, 107, 16, 0, 16, 0, 0, 0]);
    for l in 0..64 {
        assert_eq!(bench.vgprs[&(20, l)], 0xbeef_0000 + l as u32, "the new bytes, not the stale response's");
    }
    assert_ne!(bench.events & event::QUIET_WAIT, 0);
    assert_ne!(bench.events & event::STALE, 0);
}

#[test]
fn responses_naming_nothing_that_waits_are_ignored() {
    let mut bench = Bench::new();
    let data: [u32; 64] = std::array::from_fn(|l| l as u32);
    bench.send(beats(&store_dword(0xffff), &consecutive(), &[data]));
    // Lanes 0..15: one write (id 0) pushed at 9, accepted at 10, acknowledged at 60. Injected on
    // channel 0: in 40 {0, 3} (MSHR 3 is free), in 45 {1, 5} (no instruction 5): ignored.
    bench.inject = vec![(40, 0, 3), (45, 0, TAG_POSTED | 5)];
    bench.run_until_done(1, 200);
    // Done at 61 as without them: finished at the start of 61 (steps 8..11, acknowledged 60).
    assert_eq!(bench.dones[0].0, 61);
    assert_ne!(bench.events & event::STALE, 0);
    // {1, 0} after its done: instruction 0 has no posted request outstanding.
    bench.inject = vec![(bench.t + 2, 0, TAG_POSTED)];
    for _ in 0..5 {
        bench.tick();
    }
    assert!(bench.pipe.idle() && bench.dones.len() == 1);
}

#[test]
fn a_steady_store_stream_completes_one_every_four_cycles_at_50_cycles_of_latency() {
    let mut bench = Bench::new();
    let data: [u32; 64] = std::array::from_fn(|l| l as u32);
    for _ in 0..32 {
        bench.send(beats(&store_dword(u64::MAX), &consecutive(), &[data]));
    }
    bench.run_until_done(32, 1000);
    // Store k: beats 4k + 1 .. 4k + 4, a = 4k + 5 (in flight at the start of a: k taken minus
    // those done by then, d_j = 4j + 64 ≤ 4k + 5 for j ≤ k − 15: 14 < InFlight = 16), bundles
    // 4k + 8 + g, lookups 4k + 9 + g, writes accepted 4k + 10 + g, acknowledged 4k + 60 + g;
    // finished at the start of 4k + 64: done d_k = 4k + 64, one every 4 cycles.
    let done: Vec<u64> = bench.dones.iter().map(|d| d.0).collect();
    assert_eq!(done, (0..32).map(|k| 4 * k + 64).collect::<Vec<_>>());
    for (_, d) in &bench.dones {
        assert_eq!(counters(d), [4, 4, 4, 54, 0, 63, 16, 0, 0, 0, 0, 0]);
    }
    let tags: Vec<u8> = bench.accepted.iter().step_by(4).map(|a| a.3).collect();
    assert_eq!(tags, (0..32).map(|k| TAG_POSTED | (k % 16)).collect::<Vec<_>>());
}

#[test]
fn config_validation_names_the_parameter() {
    assert_eq!(Config::default().validate(), Ok(()));
    assert_eq!(Config::small().validate(), Ok(()));
    let err = |c: Config| c.validate().unwrap_err();
    assert_eq!(err(Config { lookup_depth: 2, ..Config::default() }).parameter, "LookupDepth");
    let lines = err(Config { return_depth: 6, ..Config::small() });
    assert_eq!(lines.parameter, "Lines");
    assert!(lines.to_string().starts_with("vmem_pipe parameter Lines = 8: must exceed Mshrs + ReturnDepth (2 + 6 = 8"));
    assert!(lines.to_string().contains("set Lines to 9 or more"));
    assert_eq!(err(Config { banks: 3, ..Config::default() }).parameter, "Banks");
    let mshrs = err(Config { mshrs: 17, ..Config::default() });
    assert_eq!(mshrs.parameter, "Mshrs");
    assert_eq!(mshrs.to_string(), format!("vmem_pipe parameter Mshrs = {}", mshrs.reason));
    assert!(matches!(
        VmemPipe::with_config(Config { in_flight: 0, ..Config::default() }),
        Err(ConfigError { parameter: "InFlight", .. })
    ));
    let e: Box<dyn std::error::Error> = Box::new(mshrs);
    assert!(e.to_string().contains("17"));
    assert_eq!(
        Config::default().params(),
        [
            ("Banks", 4),
            ("Lines", 64),
            ("Mshrs", 16),
            ("Targets", 8),
            ("InFlight", 16),
            ("LookupDepth", 4),
            ("ReturnDepth", 32),
            ("L2Depth", 2)
        ]
    );
    assert_eq!(*VmemPipe::with_config(Config::small()).unwrap().config(), Config::small());
}

#[test]
fn reset_clears_every_output_and_keeps_the_configuration() {
    let mut bench = Bench::with(Config::small());
    bench.l2_ready = false;
    bench.send(beats(&load_dword(u64::MAX, 0), &consecutive(), &[]));
    bench.run_until(12);
    assert!(bench.out.iss_ready && bench.out.l2_req_valid != 0);
    assert_eq!(bench.pipe.set_reset(true), Out::default());
    // Edges while reset is held change nothing, whatever the inputs.
    let beat = beats(&load_dword(u64::MAX, 0), &consecutive(), &[])[0];
    assert_eq!(bench.pipe.step(&beat), Out::default());
    assert_eq!(bench.pipe.set_reset(false), Out::default());
    // iss_ready rises at the first edge after the release; nothing else is left.
    let out = bench.pipe.step(&In::default());
    assert_eq!(out, Out { iss_ready: true, ..Out::default() });
    assert!(bench.pipe.idle());
    assert_eq!(*bench.pipe.config(), Config::small());
}

#[test]
fn the_model_is_a_send_unit_named_vmem_pipe() {
    fn send<T: Send>() {}
    send::<VmemPipe>();
    assert_eq!(<VmemPipe as Unit>::NAME, "vmem_pipe");
    // Built, it is as just out of reset: every output 0 until the first edge.
    let mut pipe = VmemPipe::default();
    assert!(pipe.idle() && pipe.in_flight() == 0 && pipe.cycle() == 0);
    assert_eq!(*pipe.config(), Config::default());
    assert_eq!(pipe.step(&In::default()), Out { iss_ready: true, ..Out::default() });
    assert_eq!(pipe.cycle(), 1);
}

/// A random buffer instruction for slot `i` of a program (its own V# at s[4i], address VGPRs at
/// 16i, data VGPRs at 16i + 4, so that no instruction reads what another writes).
fn random_inst(rng: &mut u64, i: u8) -> BufferInst {
    let r = &mut *rng;
    let mut pick = |n: u64| next(r) % n;
    let kind = match pick(10) {
        0..5 => BufferKind::Load,
        5..8 => BufferKind::Store,
        _ => BufferKind::Atomic(AtomicOp::ALL[pick(17) as usize]),
    };
    let access = if matches!(kind, BufferKind::Atomic(_)) || pick(2) == 0 {
        Access::Sized { bytes: [1, 2, 4, 8, 12, 16][pick(6) as usize], signed: pick(2) == 0 }
    } else {
        let format = (pick(2) == 0).then(|| (pick(16) as u8, pick(8) as u8));
        Access::Format { count: 1 + pick(4) as u8, format }
    };
    let d16 = match (kind, access) {
        (BufferKind::Load, Access::Sized { bytes: 1 | 2, .. }) => [D16::None, D16::Lo, D16::Hi][pick(3) as usize],
        (BufferKind::Store, Access::Sized { bytes: 1 | 2, .. }) => [D16::None, D16::Hi][pick(2) as usize],
        (BufferKind::Load | BufferKind::Store, Access::Format { .. }) => [D16::None, D16::Lo][pick(2) as usize],
        _ => D16::None,
    };
    BufferInst {
        kind,
        access,
        d16,
        wide: matches!(kind, BufferKind::Atomic(_)) && pick(2) == 0,
        vaddr: 16 * i,
        vdata: 16 * i + 4,
        srsrc: 4 * i,
        soffset: [100, 128, 130][pick(3) as usize],
        offset: pick(40) as u16,
        offen: pick(3) != 0,
        idxen: pick(3) == 0,
        glc: pick(2) == 0,
        slc: false,
        lds: false,
        tfe: kind == BufferKind::Load && pick(4) == 0,
    }
}

/// The header the SQ sends for `inst` (docs/decisions.md "vmem_pipe", ports) and its address and
/// data dword VGPRs.
fn issue_of(inst: &BufferInst, wave: &Wave) -> Vec<In> {
    let header = In::issue_header(inst, wave.descriptor(inst.srsrc).unwrap(), wave.scalar(inst.soffset).unwrap(), wave);
    let a = usize::from(inst.idxen) + usize::from(inst.offen);
    let d = match (inst.kind, inst.access) {
        (BufferKind::Store, Access::Sized { bytes, .. }) => usize::from(bytes / 4).max(1),
        (BufferKind::Store, Access::Format { count, .. }) if inst.d16 == D16::Lo => usize::from(count.div_ceil(2)),
        (BufferKind::Store, Access::Format { count, .. }) => usize::from(count),
        (BufferKind::Atomic(op), _) => (1 + usize::from(inst.wide)) * (1 + usize::from(op.compares())),
        (BufferKind::Load, Access::Sized { bytes: 1 | 2, .. }) if inst.d16 != D16::None => 1,
        (BufferKind::Load, _) => 0,
    };
    let b = 4 * a.max(d).max(1);
    (0..b)
        .map(|k| {
            let first = 16 * (k % 4);
            // (Field by field: struct-update syntax here trips a rustc ICE, "broken MIR".)
            let mut beat = header;
            beat.iss_valid = true;
            beat.iss_last = k + 1 == b;
            if k / 4 < a {
                beat.iss_addr.copy_from_slice(&wave.vgprs[usize::from(inst.vaddr) + k / 4][first..first + 16]);
            }
            if k / 4 < d {
                beat.iss_data.copy_from_slice(&wave.vgprs[usize::from(inst.vdata) + k / 4][first..first + 16]);
            }
            beat
        })
        .collect()
}

/// A random program's start: a bench of `config` with program `program`'s L2 latency (1, 8 or
/// 60 cycles by turns) and a back-pressure seed from `rng`, and random dwords over 0x10000 ..
/// `end` in its memory and in the wave's.
fn program_start(config: Config, program: usize, rng: &mut u64, end: u64) -> (Wave, Bench) {
    let mut wave = Wave::default();
    let mut bench = Bench::with(config);
    bench.latency = [1, 8, 60][program % 3];
    bench.rng = Some(next(rng));
    for a in (0x10000..end).step_by(4) {
        let v = next(rng) as u32;
        wave.memory.write(a, 4, u128::from(v));
        bench.write32(a, v);
    }
    (wave, bench)
}

/// Random programs of up to 12 buffer instructions, issued back to back under random L2
/// latencies and back-pressure, at the default and the small configuration, a quarter of them
/// reset in mid-run and run again (the L2 keeping its owed responses): the VGPRs and memory the
/// pipe leaves equal the executor's. Returns the union of the events.
fn random_programs(config: Config, seed: u64, programs: usize) -> u64 {
    let mut rng = seed;
    let mut events = 0;
    for program in 0..programs {
        let (mut wave, mut bench) = program_start(config, program, &mut rng, 0x12000);
        let initial = bench.memory.clone();
        wave.sgprs[100] = next(&mut rng) as u32 % 64;
        let n = 1 + next(&mut rng) as usize % 12;
        // Every other program is dense: one V# base and offsets within 256 bytes, so that its
        // instructions meet each other's lines while they are being filled or read.
        let dense = program % 2 == 0;
        // A 64-bit atomic whose bytes lie in two 64-byte lines is an executor error (SPEC §10.1):
        // the wide atomics' addresses are kept 8-byte aligned (V# base and stride, soffset 0,
        // offset, and the offset VGPRs below).
        let insts: Vec<BufferInst> = (0..n as u8)
            .map(|i| random_inst(&mut rng, i))
            .map(|inst| match (inst.kind, inst.wide) {
                (BufferKind::Atomic(_), true) => BufferInst { soffset: 128, offset: inst.offset & !7, ..inst },
                _ => inst,
            })
            .collect();
        for (i, inst) in insts.iter().enumerate() {
            let pick = |rng: &mut u64, n: u64| next(rng) % n;
            let wide_mask = if matches!(inst.kind, BufferKind::Atomic(_)) && inst.wide { 7 } else { 0 };
            let v = VSharp {
                base: (0x10000 + if dense { 0 } else { pick(&mut rng, 0x400) })
                    & !(if pick(&mut rng, 2) == 0 { 3 } else { 0 })
                    & !wide_mask,
                stride: [0, 4, 8, 12, 16, 64][pick(&mut rng, 6) as usize] & !(wide_mask as u16),
                num_records: [0x40, 0x180, 0x1000, 0x10_0000][pick(&mut rng, 4) as usize],
                dst_sel: std::array::from_fn(|_| pick(&mut rng, 8) as u8),
                nfmt: pick(&mut rng, 8) as u8,
                dfmt: if pick(&mut rng, 8) == 0 { 0 } else { 1 + pick(&mut rng, 14) as u8 },
                add_tid_en: pick(&mut rng, 6) == 0,
                ..VSharp::default()
            };
            let bits = v.encode();
            for k in 0..4 {
                wave.sgprs[4 * i + k] = (bits >> (32 * k)) as u32;
            }
            for r in 0..16 {
                for l in 0..64 {
                    let x = next(&mut rng);
                    wave.vgprs[16 * i + r][l] = match r {
                        // Index and offset: small, offsets unaligned at times.
                        0..4 if dense => (x % [4, 256, 256, 256][r]) as u32,
                        0..4 => (x % [16, 300, 300, 300][r]) as u32,
                        _ => x as u32,
                    };
                }
            }
            // 64-bit atomics' offsets 8-byte aligned (SPEC §10.1, above).
            if matches!(inst.kind, BufferKind::Atomic(_)) && inst.wide {
                for r in 0..2 {
                    for l in 0..64 {
                        wave.vgprs[16 * i + r][l] &= !7;
                    }
                }
            }
        }
        wave.exec = [u64::MAX, next(&mut rng), next(&mut rng) & next(&mut rng), 0xffff_0000][program % 4];
        let before = wave.clone();
        let issue: Vec<In> = insts.iter().flat_map(|inst| issue_of(inst, &wave)).collect();
        // Reset in mid-run, 1..3 cycles, then the program again on the initial memory.
        let reset = (program % 4 == 1).then(|| (10 + next(&mut rng) % 80, 1 + next(&mut rng) % 3));
        bench.send_program(issue, reset, &initial);
        let mut executor = wave.clone();
        let mut models = crate::exec::Models::default();
        for inst in &insts {
            crate::exec::run_buffer(&mut executor, inst, &mut models).unwrap();
        }
        bench.run_until_done(n, bench.t + 40_000);
        let context = || format!("{config:?} program {program}: {insts:#?}");
        bench.check_program(&executor, &before, true, &context);
        // Done in order, one per cycle.
        assert!(bench.dones.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(bench.pipe.idle(), "{}", context());
        events |= bench.events;
    }
    events
}

#[test]
fn random_programs_match_the_executor_at_the_default_configuration() {
    random_programs(Config::default(), 0x5eed, 120);
}

#[test]
fn random_programs_match_the_executor_at_the_small_configuration() {
    random_programs(Config::small(), 0x5_3a11, 120);
}

/// Every "tcp event" bin is reached by the random programs: at the default configuration all
/// but "eviction" and "return queue full", which need the small one (cover.rs): the programs'
/// 8 KB of memory fit the 16 KB TCP, and 32 accesses a bank are more than they keep waiting.
#[test]
fn every_event_is_reached() {
    let default = random_programs(Config::default(), 0xc0_7e12, 60);
    let small = random_programs(Config::small(), 0xc0_7e13, 60);
    let missing =
        |bits: u64| -> Vec<&str> { (0..EVENTS.len()).filter(|&k| bits >> k & 1 == 0).map(|k| EVENTS[k]).collect() };
    assert_eq!(missing(default | small), Vec::<&str>::new());
    assert_eq!(missing(default), ["eviction", "return queue full"], "at the default configuration");
}

// ---------------------------------------------------------------------------------------------
// Images (docs/decisions.md "vmem_pipe", "Images (SPEC §15)").

/// A linear 2D 32-bit uint image (dfmt 4, nfmt 4, dst_sel XYZW) of `width` × `height` texels,
/// pitch = width, one level, at `base` (a multiple of 256): the T#'s two halves.
fn image_2d_32(base: u64, width: u16, height: u16) -> (u128, u128) {
    TSharp {
        base: base >> 8,
        dfmt: 4,
        nfmt: 4,
        width_minus_1: width - 1,
        height_minus_1: height - 1,
        dst_sel: [4, 5, 6, 7],
        kind: TYPE_2D,
        pitch_minus_1: width - 1,
        ..TSharp::default()
    }
    .encode()
}

/// An IMAGE_LOAD / IMAGE_STORE (or their _MIP forms) of T# s[8:15] with DMASK `dmask`, UNRM, the
/// other bits clear; address VGPRs from v0, data / results from `vdata`.
fn image_inst(store: bool, dmask: u8, vdata: u8) -> ImageInst {
    let kind = if store { ImageKind::Store } else { ImageKind::Load { pck: false, sgn: false } };
    ImageInst { vdata, srsrc: 8, dmask, unorm: true, ..ImageInst::new(kind) }
}

/// The B = max(4, 4A, 4D) beats of an image instruction: `header` on each, address dword d of
/// lane l at `addr[d][l]`, data dword d at `data[d][l]`.
fn image_beats(header: &In, addr: &[[u32; 64]], data: &[[u32; 64]]) -> Vec<In> {
    let b = 4 * addr.len().max(data.len()).max(1);
    (0..b)
        .map(|k| {
            let mut beat = *header;
            beat.iss_valid = true;
            beat.iss_last = k + 1 == b;
            let first = 16 * (k % 4);
            if let Some(a) = addr.get(k / 4) {
                beat.iss_addr.copy_from_slice(&a[first..first + 16]);
            }
            if let Some(d) = data.get(k / 4) {
                beat.iss_data.copy_from_slice(&d[first..first + 16]);
            }
            beat
        })
        .collect()
}

/// A 64 × 4 2D image read by lanes in row-major quads: lane 16g + 4q + j reads texel
/// (x, y) = (4q + j, g), so quad q of group g is the 16-byte block 16q of row g; row g is the line
/// base + 256g (all four rows in bank 0, bits 7:6 of 256g being 0).
fn rows_of_quads() -> [[u32; 64]; 2] {
    [std::array::from_fn(|l| (l % 16) as u32), std::array::from_fn(|l| (l / 16) as u32)]
}

// Timeline of one image load alone, A = 2 (x, y): B = 8 beats. Beats accepted t0 .. t0 + 7; the
// last completes the buffer, so the address stage takes it at a = t0 + 8 and works a .. a + 15
// (quad q of group g in a + 4g + q), freeing the buffer at the edge ending a + 15; group g is
// available from a + 4g + 6, so the step stage starts at a + 6 = t0 + 14. Never single-component:
// 16 quad steps of 4 per-lane requests (one bundle each; the four requests of a quad are one
// 16-byte block of one line, so one access), one step a cycle without a stall: t0 + 14 ..
// t0 + 29, done_ta = 16.

#[test]
fn a_cold_then_warm_2d_image_load_takes_16_ta_cycles() {
    let mut bench = Bench::new();
    bench.write_ramp(0x10000, 256, 0x5150_0000);
    let t = image_2d_32(0x10000, 64, 4);
    let issue = |vdata| ImageIssue::of(&image_inst(false, 0x1, vdata), t, u64::MAX).unwrap();
    assert_eq!((issue(10).addr_dwords, issue(10).data_dwords, issue(10).result_dwords), (2, 0, 1));
    bench.send(image_beats(&issue(10).header, &rows_of_quads(), &[]));
    bench.run_until_done(1, 300);
    // Cold, t0 = 1 (iss_ready is 0 in cycle 0): a = 9, steps 15 .. 30, lookups 16 .. 31. Row g's
    // line is at the lookup head in 16 + 4g: a miss (MSHR g, the line read pushed, presented and
    // accepted in 17 + 4g on channel 0); its quads 1–3 merge in 17 + 4g .. 19 + 4g (4 targets).
    assert_eq!(
        bench.accepted,
        [
            (17, 0, L2_READ, 0, 0x10000),
            (21, 0, L2_READ, 1, 0x10100),
            (25, 0, L2_READ, 2, 0x10200),
            (29, 0, L2_READ, 3, 0x10300)
        ]
    );
    // Responses in 67 + 4g (MSHR g arrived at that edge); the return stage reads MSHR 0's four
    // targets in 68 .. 71, MSHR 1's in 72 .. 75 (arrived at 71's edge), … MSHR 3's in 80 .. 83;
    // the TD takes each a cycle later, the last in 84: gathered at the edge of 84, s = 85, group
    // g written in 89 + g, done 93.
    assert_eq!(bench.write_cycles(10), [89, 90, 91, 92]);
    let (done_cycle, done) = bench.dones[0];
    assert_eq!(done_cycle, 93);
    // issue 1 .. 8 = 8; TA 15 .. 30 = 16; TCP heads 16 .. 31 = 16; L2 17 .. 79 = 63; TD 85 .. 92
    // = 8; total 93 − 1 = 92; 64 requests: 16 missed (4 accesses of 4), 48 merged.
    assert_eq!(counters(&done), [8, 16, 16, 63, 8, 92, 64, 0, 16, 48, 0, 0]);

    // Warm, first beat at t0: a = t0 + 8, steps t0 + 14 .. t0 + 29 (hits in t0 + 15 .. t0 + 30,
    // return reads t0 + 16 .. t0 + 31, taken t0 + 17 .. t0 + 32); gathered at the edge of t0 +
    // 32, s = t0 + 33, writes t0 + 37 .. t0 + 40, done t0 + 41.
    let t0 = bench.t;
    bench.send(image_beats(&issue(20).header, &rows_of_quads(), &[]));
    bench.run_until_done(2, t0 + 100);
    assert_eq!(bench.write_cycles(20), [t0 + 37, t0 + 38, t0 + 39, t0 + 40]);
    let (done_cycle, done) = bench.dones[1];
    assert_eq!(done_cycle, t0 + 41);
    assert_eq!(counters(&done), [8, 16, 16, 0, 8, 41, 64, 64, 0, 0, 0, 0]);
    assert_eq!(bench.accepted.len(), 4, "no L2 request");
    // Lane 16g + 4q + j read texel (4q + j, g): dword 64g + 4q + j of the ramp.
    for l in 0..64 {
        assert_eq!(bench.vgprs[&(10, l)], 0x5150_0000 + (64 * (l / 16) + l % 16) as u32);
        assert_eq!(bench.vgprs[&(20, l)], bench.vgprs[&(10, l)]);
    }
}

#[test]
fn back_to_back_image_loads_hold_the_address_stage_16_cycles() {
    let mut bench = Bench::new();
    bench.write_ramp(0x10000, 256, 7);
    let t = image_2d_32(0x10000, 64, 4);
    let header = |vdata| ImageIssue::of(&image_inst(false, 0x1, vdata), t, u64::MAX).unwrap().header;
    bench.send(image_beats(&header(10), &rows_of_quads(), &[]));
    bench.run_until_done(1, 300);
    // Four warm loads offered back to back from t0. The first's beats t0 .. t0 + 7 fill buffer 0,
    // the second's t0 + 8 .. t0 + 15 buffer 1. Load k (k ≥ 1) is taken when the address stage
    // is idle, a_k = a_{k−1} + 16 (the step stage then holds one instruction: load k − 1, whose
    // steps run to a_{k−1} + 21 = a_k + 5; load k − 2's have ended at a_{k−1} + 5), so
    // a = t0 + 8, t0 + 24, t0 + 40, t0 + 56; buffer 0 is freed at
    // the edge ending t0 + 23, buffer 1 at t0 + 39, buffer 0 again at t0 + 55. So iss_ready is 0
    // in t0 + 16 .. t0 + 23 and t0 + 32 .. t0 + 39; the third load's beats are t0 + 24 ..
    // t0 + 31, the fourth's t0 + 40 .. t0 + 47.
    let t0 = bench.t;
    for k in 0..4 {
        bench.send(image_beats(&header(20 + k), &rows_of_quads(), &[]));
    }
    bench.run_until_done(5, t0 + 200);
    let ready = &bench.ready_trace[t0 as usize..(t0 + 48) as usize];
    let want: Vec<bool> = (0..48).map(|c| !(16..24).contains(&c) && !(32..40).contains(&c)).collect();
    assert_eq!(ready, want);
    // Steps of load k: a_k + 6 .. a_k + 21 = t0 + 14 + 16k .. t0 + 29 + 16k (one after the
    // other, no gap); each is done 12 cycles after its last step (as the warm load above):
    // t0 + 41 + 16k. Issue 8 cycles each; total = done − first beat: 41, 57 − 8 = 49,
    // 73 − 24 = 49, 89 − 40 = 49.
    let dones: Vec<(u64, [u16; 12])> = bench.dones[1..].iter().map(|(c, o)| (c - t0, counters(o))).collect();
    assert_eq!(
        dones,
        [
            (41, [8, 16, 16, 0, 8, 41, 64, 64, 0, 0, 0, 0]),
            (57, [8, 16, 16, 0, 8, 49, 64, 64, 0, 0, 0, 0]),
            (73, [8, 16, 16, 0, 8, 49, 64, 64, 0, 0, 0, 0]),
            (89, [8, 16, 16, 0, 8, 49, 64, 64, 0, 0, 0, 0])
        ]
    );
}

/// A 2D 32_32_32_32 uint image (dfmt 14, 16-byte texels) of 8 × 2 texels and two levels
/// (last_level = max_mip = 1), pitch 8, linear, at 0x10000, dst_sel X Y Z 1.
fn image_2d_128_two_levels() -> (u128, u128) {
    TSharp {
        base: 0x100,
        dfmt: 14,
        nfmt: 4,
        width_minus_1: 7,
        height_minus_1: 1,
        dst_sel: [4, 5, 6, 1],
        last_level: 1,
        kind: TYPE_2D,
        pitch_minus_1: 7,
        max_mip: 1,
        ..TSharp::default()
    }
    .encode()
}

#[test]
fn an_image_store_mip_places_components_by_dmask_and_skips_a_lane_outside_its_level() {
    let mut bench = Bench::new();
    bench.write_ramp(0x10000, 256, 0x7700_0000);
    let t = image_2d_128_two_levels();
    // Lanes 0–3 (EXEC 0xF): (x, y, mipid) = (0, 0, 0), (3, 1, 0), (1, 0, 1), (0, 1, 1). Level 1
    // is 4 × 1 (pitch 4), so lane 3 (y = 1) is outside it. Addresses (§4.4, 16-byte texels):
    // level 0 (y·8 + x)·16: lane 0 0x10000, lane 1 0x10000 + 11·16 = 0x100b0; level 1 at
    // mip_offset 8·2·16 = 0x100: lane 2 0x10100 + 16 = 0x10110 (lane 3's would be 0x10140).
    let mut addr = [[0u32; 64]; 3];
    for (l, (x, y, mip)) in [(0, 0, 0), (3, 1, 0), (1, 0, 1), (0, 1, 1)].into_iter().enumerate() {
        (addr[0][l], addr[1][l], addr[2][l]) = (x, y, mip);
    }
    // IMAGE_STORE_MIP DMASK 0x5: data dword 0 → X, dword 1 → Z, Y and W 0.
    let data: [[u32; 64]; 2] = [std::array::from_fn(|l| 0xa0 + l as u32), std::array::from_fn(|l| 0xb0 + l as u32)];
    let store = ImageInst { mip: true, ..image_inst(true, 0x5, 20) };
    let issue = ImageIssue::of(&store, t, 0xf).unwrap();
    assert_eq!((issue.addr_dwords, issue.data_dwords), (3, 2));
    bench.send(image_beats(&issue.header, &addr, &data));
    bench.run_until_done(1, 300);
    for (l, a) in [(0u32, 0x10000u64), (1, 0x100b0), (2, 0x10110)] {
        let element: Vec<u32> = (0..4).map(|i| bench.read32(a + 4 * i)).collect();
        assert_eq!(element, [0xa0 + l, 0, 0xb0 + l, 0], "lane {l}");
    }
    // Lane 3's texel keeps the ramp: dwords (0x10140 − 0x10000) / 4 = 80 ...
    assert_eq!(bench.read32(0x10140), 0x7700_0000 + 80);
    // One quad step with three per-lane requests, one bundle: lanes 0 and 2 to bank 0 (lines
    // 0x10000 and 0x10100: two accesses), lane 1 to bank 2 (line 0x10080): 1 conflict cycle.
    // Not writing: done_td 0.
    let c = counters(&bench.dones[0].1);
    assert_eq!((c[4], c[6], c[10]), (0, 3, 1));
    assert_eq!(bench.accepted.iter().filter(|a| a.2 == L2_WRITE).count(), 3);

    // IMAGE_LOAD_MIP DMASK 0xd with TFE at the same coordinates: X, Z, W (SEL_1: 1 for an
    // integer nfmt, kept by an out-of-range lane), then the status 0. Lane 3 is outside its
    // level: X and Z read 0.
    let load = ImageInst { mip: true, tfe: true, ..image_inst(false, 0xd, 30) };
    let issue = ImageIssue::of(&load, t, 0xf).unwrap();
    assert_eq!(issue.result_dwords, 4);
    bench.send(image_beats(&issue.header, &addr, &[]));
    bench.run_until_done(2, bench.t + 300);
    for l in 0..4usize {
        let got: Vec<u32> = (30..34).map(|v| bench.vgprs[&(v, l)]).collect();
        let want = if l < 3 { [0xa0 + l as u32, 0xb0 + l as u32, 1, 0] } else { [0, 0, 1, 0] };
        assert_eq!(got, want, "lane {l}");
    }
    // Only EXEC lanes are written (group 0, mask 0xF).
    assert!(bench.writes.iter().all(|(_, w)| w.vgpr_group == 0 && w.vgpr_mask == 0xf));
    assert_eq!(counters(&bench.dones[1].1)[6], 3, "three requests: lane 3 takes no part");
}

/// An IMAGE_ATOMIC_* of T# s[8:15] (`op`, DMASK `dmask`, GLC `glc`), UNRM, address VGPRs from
/// v0, data / returns from `vdata`.
fn image_atomic(op: AtomicOp, dmask: u8, glc: bool, vdata: u8) -> ImageInst {
    ImageInst { kind: ImageKind::Atomic(op), glc, ..image_inst(false, dmask, vdata) }
}

/// Lane 4q + i at texel (x, 0) of a linear surface of `bytes`-byte texels (4 or 8), n = 64 /
/// `bytes` texels a line, x = n(4⌊q/n⌋ + i) + q mod n (4-byte texels: x = 16i + q): its element
/// (at base + bytes·x, base a multiple of 256) lies in bank i (address bits 7:6), every lane its
/// own, x < 64.
fn quads_across_banks(bytes: usize) -> [[u32; 64]; 2] {
    let n = 64 / bytes;
    [std::array::from_fn(|l| (n * (4 * (l / 4 / n) + l % 4) + l / 4 % n) as u32), [0; 64]]
}

/// A linear 2D `dfmt` uint image (dst_sel XYZW) of `width` × `height` texels, pitch = width, one
/// level, at `base` (a multiple of 256).
fn image_2d(base: u64, width: u16, height: u16, dfmt: u8) -> (u128, u128) {
    let (lo, hi) = image_2d_32(base, width, height);
    TSharp { dfmt, ..TSharp::decode(lo, hi) }.encode()
}

/// A wave for the executor with the T# `t` in s[8:15] and `vgprs` (first VGPR, its rows) set,
/// over the bench's memory.
fn image_wave(bench: &Bench, t: (u128, u128), exec: u64, vgprs: &[(u8, &[[u32; 64]])]) -> Wave {
    let mut wave = Wave { exec, ..Wave::default() };
    for k in 0..4 {
        wave.sgprs[8 + k] = (t.0 >> (32 * k)) as u32;
        wave.sgprs[12 + k] = (t.1 >> (32 * k)) as u32;
    }
    for &(first, rows) in vgprs {
        for (k, row) in rows.iter().enumerate() {
            wave.vgprs[usize::from(first) + k] = *row;
        }
    }
    for (&a, &b) in &bench.memory {
        wave.memory.write(a, 1, u128::from(b));
    }
    wave
}

/// `wave` after the executor ran `inst` on it.
fn executor_after(wave: &Wave, inst: &ImageInst) -> Wave {
    let mut w = wave.clone();
    crate::exec::run_image(&mut w, inst, &mut crate::exec::Models::default()).expect("the executor runs it");
    w
}

// Image atomics (docs/decisions.md "Images": take part = EXEC & group_valid; per-lane requests
// with the lane's byte address; bundles of at most 4 requests, at most 2 with GLC or a
// compare-swap; the TD writes the returned dwords with GLC). Timeline of one alone on
// `quads_across_banks` (A = 2: x, y; D = 1 per operand): B = max(4, 4·2, 4·D) = 8 beats (D ≤ 2),
// accepted 1 .. 8; a = 9; group 0 available from a + 6 = 15, so the step stage starts at 15.

#[test]
fn an_image_atomic_without_return_takes_four_lanes_a_cycle() {
    let mut bench = Bench::new();
    bench.write_ramp(0x10000, 256, 1000);
    let t = image_2d_32(0x10000, 64, 4);
    let inst = image_atomic(AtomicOp::Add, 0x1, false, 20);
    let issue = ImageIssue::of(&inst, t, u64::MAX).unwrap();
    assert_eq!((issue.addr_dwords, issue.data_dwords, issue.result_dwords), (2, 1, 0));
    let (addr, data) = (quads_across_banks(4), [std::array::from_fn(|l| l as u32 + 1)]);
    let wave = image_wave(&bench, t, u64::MAX, &[(0, &addr), (20, &data)]);
    bench.send(image_beats(&issue.header, &addr, &data));
    bench.run_until_done(1, 300);
    // 16 quad steps of 4 requests, one bundle each (one request per bank: no conflict, the
    // lookup queues never hold more than one): steps 15 .. 30, done_ta 16. Lookups 16 .. 31,
    // the atomics posted {1, id 0}, accepted 17 .. 32 (four channels a cycle), acknowledged
    // 67 .. 82: finished at the start of 83, done then (not writing: done_td 0). L2 17 .. 82
    // = 66; total 83 − 1 = 82.
    assert_eq!(bench.dones[0].0, 83);
    assert_eq!(counters(&bench.dones[0].1), [8, 16, 16, 66, 0, 82, 64, 0, 0, 0, 0, 0]);
    let firsts: Vec<Accepted> = bench.accepted.iter().take(4).copied().collect();
    assert_eq!(firsts, (0..4).map(|b| (17, b, L2_ATOMIC, TAG_POSTED, 0x10000 + 64 * b as u64)).collect::<Vec<_>>());
    assert!(bench.requests.iter().all(|(_, b, o)| o.l2_req_return >> b & 1 == 0 && o.l2_req_wide == 0));
    assert!(bench.writes.is_empty());
    // Lane 4q + i added 4q + i + 1 to dword 16i + q: memory as the executor leaves it.
    let after = executor_after(&wave, &inst);
    for k in 0..64u64 {
        assert_eq!(bench.read32(0x10000 + 4 * k), after.memory.read(0x10000 + 4 * k, 4) as u32, "dword {k}");
    }
    assert_eq!(bench.read32(0x10000 + 4 * 17), 1000 + 17 + (4 + 1) + 1);
}

#[test]
fn an_image_atomic_with_return_takes_two_lanes_a_cycle_and_writes_the_old_values() {
    let mut bench = Bench::new();
    bench.write_ramp(0x10000, 256, 1000);
    let t = image_2d_32(0x10000, 64, 4);
    let inst = image_atomic(AtomicOp::Add, 0x1, true, 20);
    let issue = ImageIssue::of(&inst, t, u64::MAX).unwrap();
    assert_eq!(issue.result_dwords, 1);
    let (addr, data) = (quads_across_banks(4), [std::array::from_fn(|l| l as u32 + 1)]);
    let wave = image_wave(&bench, t, u64::MAX, &[(0, &addr), (20, &data)]);
    bench.send(image_beats(&issue.header, &addr, &data));
    bench.run_until_done(1, 400);
    // GLC: bundles of at most 2, two per quad step: lanes 4q, 4q + 1 (banks 0, 1) in 15 + 2q,
    // lanes 4q + 2, 4q + 3 (banks 2, 3) in 16 + 2q; steps 15 .. 46, done_ta 32. Lookups 16 ..
    // 47 (bank 0's sixteen at 16, 18, .., 46 each take an MSHR: all 16, none freed before the
    // first response), accepted 17 .. 48, answered 67 .. 98. The last (banks 2, 3) is read in
    // 99, taken in 100: gathered at that edge, s = 101, group g written in 105 + g, done 109.
    // L2 17 .. 98 = 82; TCP heads 16 .. 47 = 32; TD 101 .. 108 = 8; total 109 − 1 = 108.
    assert_eq!(bench.write_cycles(20), [105, 106, 107, 108]);
    assert_eq!(bench.dones[0].0, 109);
    assert_eq!(counters(&bench.dones[0].1), [8, 32, 32, 82, 8, 108, 64, 0, 0, 0, 0, 0]);
    assert_eq!(bench.accepted[..2], [(17, 0, L2_ATOMIC, 0, 0x10000), (17, 1, L2_ATOMIC, 0, 0x10040)]);
    assert_eq!(bench.accepted[2..4], [(18, 2, L2_ATOMIC, 0, 0x10080), (18, 3, L2_ATOMIC, 0, 0x100c0)]);
    // Each lane gets its dword's value before the add (the ramp: 1000 + 16i + q).
    let after = executor_after(&wave, &inst);
    for l in 0..64 {
        assert_eq!(bench.vgprs[&(20, l)], 1000 + (16 * (l % 4) + l / 4) as u32, "lane {l}");
        assert_eq!(bench.vgprs[&(20, l)], after.vgprs[20][l]);
    }
}

#[test]
fn image_compare_swaps_and_64_bit_atomics_equal_the_executor() {
    // The 4-byte surface and a 32_32 uint one (8-byte texels), both 64 × 4 at 0x10000, with
    // `quads_across_banks`: lane 4q + i's element in bank i.
    let (t32, t64) = (image_2d_32(0x10000, 64, 4), image_2d(0x10000, 64, 4, 11));
    // Lanes 0..32 compare with the ramp's value (they swap), the others with 0 (they keep it);
    // EXEC leaves lanes 5 and 40 out; lane 9 lies outside the level (y = 4): it takes no part
    // and returns 0.
    let with_lane_9_out = |mut addr: [[u32; 64]; 2]| {
        addr[1][9] = 4;
        addr
    };
    let exec = !(1u64 << 5 | 1 << 40);
    let ramp_cmp: [u32; 64] = std::array::from_fn(|l| if l < 32 { 1000 + quads_across_banks(4)[0][l] } else { 0 });
    let value: [u32; 64] = std::array::from_fn(|l| 0xabc0_0000 | l as u32);
    // (name, T#, instruction, data dwords, done_ta)
    type Case<'a> = (&'a str, (u128, u128), ImageInst, Vec<[u32; 64]>, u16);
    let cases: [Case; 5] = [
        ("cmpswap, GLC", t32, image_atomic(AtomicOp::Cmpswap, 0x3, true, 20), vec![value, ramp_cmp], 32),
        ("cmpswap, no return", t32, image_atomic(AtomicOp::Cmpswap, 0x3, false, 20), vec![value, ramp_cmp], 32),
        ("fcmpswap, GLC", t32, image_atomic(AtomicOp::Fcmpswap, 0x3, true, 20), vec![value, ramp_cmp], 32),
        // 64-bit: DMASK 0x3 (two data dwords), compare-swap 0xF (data, then compare).
        ("64-bit umax, GLC", t64, image_atomic(AtomicOp::Umax, 0x3, true, 20), vec![value, value], 32),
        ("64-bit xor, no return", t64, image_atomic(AtomicOp::Xor, 0x3, false, 20), vec![value, value], 16),
    ];
    for (name, t, inst, data, ta) in cases {
        let bytes = if t == t64 { 8 } else { 4 };
        let addr_out = with_lane_9_out(quads_across_banks(bytes));
        let mut bench = Bench::new();
        bench.write_ramp(0x10000, 1024, 1000);
        let wave = image_wave(&bench, t, exec, &[(0, &addr_out), (20, &data)]);
        let issue = ImageIssue::of(&inst, t, exec).unwrap();
        bench.send(image_beats(&issue.header, &addr_out, &data));
        bench.run_until_done(1, 600);
        let after = executor_after(&wave, &inst);
        for (a, bytes) in after.memory.changes_since(&wave.memory) {
            for (k, &b) in bytes.iter().enumerate() {
                assert_eq!(
                    bench.memory.get(&(a + k as u64)).copied().unwrap_or(0),
                    b,
                    "{name}: byte {:#x}",
                    a + k as u64
                );
            }
        }
        for l in (0..64).filter(|&l| exec >> l & 1 != 0) {
            for v in 20..20 + issue.result_dwords {
                assert_eq!(
                    bench.vgprs.get(&(v, l)).copied(),
                    Some(after.vgprs[usize::from(v)][l]),
                    "{name}: v{v} lane {l}"
                );
            }
        }
        assert_eq!(bench.vgprs.len(), usize::from(issue.result_dwords) * 62, "{name}: EXEC lanes only");
        if inst.glc {
            assert_eq!(bench.vgprs[&(20, 9)], 0, "{name}: lane 9 is outside the level");
        }
        // 61 lanes take part (EXEC less lane 9). Every quad step has 3 or 4 of them, each in
        // its own bank, and this bench's L2 takes every request: a quad step is ⌈n/4⌉ = 1
        // bundle (no GLC, no compare-swap) or ⌈n/2⌉ = 2 (GLC or compare-swap), one a cycle
        // (a bank's lookup queue never holds more than one access at a cycle's start): done_ta
        // 16 or 32.
        let c = counters(&bench.dones[0].1);
        assert_eq!((c[1], c[6]), (ta, 61), "{name}: done_ta, requests");
    }
}

#[test]
fn pck_loads_write_the_raw_fields_zero_or_sign_extended() {
    // 4-byte texels of three formats: 8_8_8_8 (four 8-bit fields), 16_16 (two 16-bit fields:
    // components 2 and 3 have none) and 11_11_10 (dfmt 7: fields of 10, 11 and 11 bits from
    // bit 0).
    // `rows_of_quads` (lane 16g + 4q + j at texel (4q + j, g)), lane 63 moved outside the level
    // (y = 4): it takes no part and reads 0. Memory: dword k = 0x8f7f_80f0 ^ k·0x0101_0101.
    let mut addr = rows_of_quads();
    addr[1][63] = 4;
    let cases = [
        ("8_8_8_8 PCK_SGN DMASK 0xB TFE", 10u8, true, 0xbu8, true),
        ("16_16 PCK DMASK 0xF", 5, false, 0xf, false),
        ("11_11_10 PCK_SGN DMASK 0x7", 7, true, 0x7, false),
        ("16_16 PCK_SGN DMASK 0", 5, true, 0x0, false),
    ];
    for (name, dfmt, sgn, dmask, tfe) in cases {
        let mut bench = Bench::new();
        for k in 0..256u32 {
            bench.write32(0x10000 + 4 * u64::from(k), 0x8f7f_80f0 ^ k.wrapping_mul(0x0101_0101));
        }
        let t = image_2d(0x10000, 64, 4, dfmt);
        let inst = ImageInst { kind: ImageKind::Load { pck: true, sgn }, tfe, ..image_inst(false, dmask, 20) };
        let issue = ImageIssue::of(&inst, t, u64::MAX).unwrap();
        let wave = image_wave(&bench, t, u64::MAX, &[(0, &addr)]);
        bench.send(image_beats(&issue.header, &addr, &[]));
        bench.run_until_done(1, 400);
        let after = executor_after(&wave, &inst);
        for l in 0..64 {
            for v in 20..20 + issue.result_dwords {
                assert_eq!(bench.vgprs[&(v, l)], after.vgprs[usize::from(v)][l], "{name}: v{v} lane {l}");
            }
        }
        // Lane 0: texel (0, 0), dword 0x8f7f_80f0.
        let lane0: Vec<u32> = (20..20 + issue.result_dwords).map(|v| bench.vgprs[&(v, 0)]).collect();
        let want: &[u32] = match dfmt {
            // Fields 0, 1, 3 (0xf0, 0x80, 0x8f) sign-extended; the status dword 0.
            10 => &[0xffff_fff0, 0xffff_ff80, 0xffff_ff8f, 0],
            // DMASK 0xF: 0x80f0, 0x8f7f zero-extended; no field 2 or 3: 0.
            5 if dmask == 0xf => &[0x80f0, 0x8f7f, 0, 0],
            // DMASK 0 reads component 0: 0x80f0 sign-extended.
            5 => &[0xffff_80f0],
            // 0x8f7f_80f0: bits 9:0 0x0f0 (bit 9 clear), 20:10 0x7e0 and 31:21 0x47b (bit 10
            // set: sign-extended).
            _ => &[0x0f0, 0xffff_ffe0, 0xffff_fc7b],
        };
        assert_eq!(lane0, want, "{name}");
        assert!((20..20 + issue.result_dwords).all(|v| bench.vgprs[&(v, 63)] == 0), "{name}: lane 63 reads 0");
        // As a formatted load: 16 quad steps, one a cycle (lane 63's quad has three requests).
        let c = counters(&bench.dones[0].1);
        assert_eq!((c[1], c[6]), (16, 63), "{name}: done_ta, requests");
    }
}

/// A random bound (now and then unbound) T# for slot `i`'s image instruction, with its
/// instruction: every type the executor takes, 128-bit T#s on 1D and 2D, tiled 2D / 2D array
/// surfaces of 1-, 2-, 4-, 8- and 16-byte texels, up to three levels, any DMASK, D16, TFE, DA, A16,
/// GLC and the _MIP forms; loads formatted, PCK or PCK_SGN; atomics of every operation (with and
/// without GLC, 32-bit on elements of a multiple of 4 bytes, 64-bit on 8- and 16-byte ones, so
/// that no atomic leaves its alignment or crosses a line: SPEC §10.1). Surfaces lie from 0x10000
/// up.
fn random_image(rng: &mut u64, i: u8) -> (TSharp, ImageInst) {
    use crate::tsharp::{TYPE_1D, TYPE_1D_ARRAY, TYPE_2D_ARRAY, TYPE_3D, TYPE_CUBE};
    let mut pick = |n: u64| next(rng) % n;
    let kind = [TYPE_1D, TYPE_2D, TYPE_3D, TYPE_CUBE, TYPE_1D_ARRAY, TYPE_2D_ARRAY][pick(6) as usize];
    let dfmt = 1 + pick(14) as u8;
    let tiled =
        matches!(kind, TYPE_2D | TYPE_2D_ARRAY) && matches!(crate::format::element_bytes(dfmt), 1 | 2 | 4 | 8 | 16);
    let sw_mode = if tiled && pick(2) == 0 { [1, 5, 9][pick(3) as usize] } else { 0 };
    let last_level = pick(3) as u8;
    let width_minus_1 = pick(16) as u16;
    let mut t = TSharp {
        base: 0x100 + pick(16),
        dfmt,
        nfmt: pick(8) as u8,
        width_minus_1,
        height_minus_1: pick(8) as u16,
        dst_sel: std::array::from_fn(|_| pick(8) as u8),
        base_level: pick(2) as u8 & last_level,
        last_level,
        sw_mode,
        kind,
        depth_minus_1: pick(3) as u16,
        pitch_minus_1: width_minus_1 + [0, 0, 3][pick(3) as usize],
        max_mip: last_level.saturating_sub(pick(2) as u8),
        ..TSharp::default()
    };
    match pick(16) {
        0 => t.dfmt = 0,
        1 => t.kind = pick(8) as u8,
        _ => {}
    }
    let bytes = crate::format::element_bytes(t.dfmt);
    let inst_kind = match pick(8) {
        0 | 1 => ImageKind::Store,
        2 | 3 if bytes.is_multiple_of(4) => ImageKind::Atomic(AtomicOp::ALL[pick(17) as usize]),
        4 => ImageKind::Load { pck: true, sgn: pick(2) == 0 },
        _ => ImageKind::Load { pck: false, sgn: false },
    };
    let store = inst_kind == ImageKind::Store;
    let inst = ImageInst {
        kind: inst_kind,
        mip: pick(2) == 0,
        vaddr: 16 * i,
        vdata: 16 * i + 4,
        srsrc: 8 * i,
        dmask: pick(16) as u8,
        unorm: true,
        glc: pick(3) == 0,
        slc: false,
        r128: matches!(kind, TYPE_1D | TYPE_2D) && pick(3) == 0,
        tfe: !store && pick(3) == 0,
        lwe: false,
        da: pick(2) == 0,
        d16: pick(3) == 0,
        a16: pick(4) == 0,
    };
    let inst = match inst_kind {
        ImageKind::Atomic(op) => {
            // SPEC §10.1: 32-bit DMASK 0x1 (compare-swap 0x3), 64-bit 0x3 (compare-swap 0xF).
            let wide = matches!(bytes, 0 | 8 | 16) && pick(2) == 0;
            let dmask = match (wide, op.compares()) {
                (false, false) => 0x1,
                (false, true) | (true, false) => 0x3,
                (true, true) => 0xf,
            };
            ImageInst { dmask, tfe: false, d16: false, ..inst }
        }
        ImageKind::Load { pck: true, .. } => ImageInst { d16: false, ..inst },
        _ => inst,
    };
    (t, inst)
}

/// Random lane coordinates for `inst` on `t` into its address VGPRs: mostly inside level 0's
/// dimensions, now and then a little outside, mipids mostly present levels; with A16 two
/// 16-bit components a dword.
fn random_coordinates(rng: &mut u64, t: &TSharp, inst: &ImageInst, wave: &mut Wave) {
    use crate::tsharp::{TYPE_1D, TYPE_1D_ARRAY, TYPE_3D, TYPE_CUBE};
    let depth = u64::from(t.depth_minus_1) + 1;
    let layers = if t.kind == TYPE_CUBE { 6 * depth } else { depth };
    let mut ranges = vec![u64::from(t.width_minus_1) + 1];
    if !matches!(t.kind, TYPE_1D | TYPE_1D_ARRAY) {
        ranges.push(u64::from(t.height_minus_1) + 1);
    }
    if matches!(t.kind, TYPE_3D | TYPE_CUBE) || inst.da {
        ranges.push(layers);
    }
    if inst.mip {
        ranges.push(u64::from(t.last_level) + 1);
    }
    for l in 0..64 {
        let c: Vec<u32> = ranges
            .iter()
            .map(|&n| {
                let r = next(rng);
                (if r.is_multiple_of(8) { r % (n + 2) } else { r % n }) as u32
            })
            .collect();
        // Components past the layout: arbitrary (read by nobody).
        let comp: [u32; 8] = std::array::from_fn(|k| c.get(k).copied().unwrap_or(k as u32 * 0x1_2345));
        for d in 0..4 {
            wave.vgprs[usize::from(inst.vaddr) + d][l] =
                if inst.a16 { comp[2 * d] & 0xffff | comp[2 * d + 1] << 16 } else { comp[d] };
        }
    }
}

/// One instruction of a random program.
#[derive(Clone, Copy, Debug)]
enum AnyInst {
    Buffer(BufferInst),
    Image(ImageInst),
}

/// The beats the SQ sends for an image instruction (its header from `ImageIssue`, A address
/// VGPRs from VADDR, D data VGPRs from VDATA).
fn image_issue_of(inst: &ImageInst, wave: &Wave) -> Vec<In> {
    let issue = ImageIssue::of(inst, wave.tsharp(inst.srsrc, inst.r128).unwrap(), wave.exec).unwrap();
    let regs = |first: u8, n: u8| -> Vec<[u32; 64]> { (0..n).map(|k| wave.vgprs[usize::from(first + k)]).collect() };
    image_beats(&issue.header, &regs(inst.vaddr, issue.addr_dwords), &regs(inst.vdata, issue.data_dwords))
}

/// Random programs of up to 10 instructions, about three in four image loads and stores (the
/// rest buffer instructions over the same memory), issued back to back under random L2
/// latencies and back-pressure, a quarter of them reset in mid-run: the VGPRs and memory the pipe
/// leaves equal the executor's (`run_image`, `run_buffer`).
fn random_image_programs(config: Config, seed: u64, programs: usize) {
    let mut rng = seed;
    for program in 0..programs {
        let (mut wave, mut bench) = program_start(config, program, &mut rng, 0x14000);
        let initial = bench.memory.clone();
        wave.sgprs[100] = next(&mut rng) as u32 % 64;
        for v in wave.vgprs.iter_mut() {
            *v = std::array::from_fn(|_| next(&mut rng) as u32);
        }
        let n = 1 + next(&mut rng) as usize % 10;
        let mut insts = Vec::new();
        for i in 0..n as u8 {
            if !next(&mut rng).is_multiple_of(4) {
                let (t, inst) = random_image(&mut rng, i);
                let (lo, hi) = t.encode();
                for k in 0..4 {
                    wave.sgprs[8 * usize::from(i) + k] = (lo >> (32 * k)) as u32;
                    wave.sgprs[8 * usize::from(i) + 4 + k] = (hi >> (32 * k)) as u32;
                }
                random_coordinates(&mut rng, &t, &inst, &mut wave);
                insts.push(AnyInst::Image(inst));
            } else {
                let inst = random_inst(&mut rng, i);
                // 32-bit atomics only (a 64-bit one may not straddle a line, SPEC §10.1).
                let inst = BufferInst { srsrc: 8 * i, wide: false, ..inst };
                let v = VSharp {
                    base: 0x10000 + next(&mut rng) % 0x400,
                    stride: [0, 4, 16][(next(&mut rng) % 3) as usize],
                    num_records: 0x2000,
                    dst_sel: std::array::from_fn(|_| (next(&mut rng) % 8) as u8),
                    nfmt: (next(&mut rng) % 8) as u8,
                    dfmt: (next(&mut rng) % 15) as u8,
                    ..VSharp::default()
                };
                let bits = v.encode();
                for k in 0..4 {
                    wave.sgprs[8 * usize::from(i) + k] = (bits >> (32 * k)) as u32;
                }
                for r in 0..4 {
                    wave.vgprs[16 * usize::from(i) + r] = std::array::from_fn(|_| (next(&mut rng) % 300) as u32);
                }
                insts.push(AnyInst::Buffer(inst));
            }
        }
        wave.exec = [u64::MAX, next(&mut rng), next(&mut rng) & next(&mut rng), 0xffff_0000][program % 4];
        let before = wave.clone();
        let issue: Vec<In> = insts
            .iter()
            .flat_map(|inst| match inst {
                AnyInst::Buffer(b) => issue_of(b, &wave),
                AnyInst::Image(m) => image_issue_of(m, &wave),
            })
            .collect();
        let reset = (program % 4 == 1).then(|| (10 + next(&mut rng) % 120, 1 + next(&mut rng) % 3));
        bench.send_program(issue, reset, &initial);
        let mut executor = wave.clone();
        let mut models = crate::exec::Models::default();
        let context = || format!("{config:?} program {program}: {insts:#?}");
        for inst in &insts {
            match inst {
                AnyInst::Buffer(b) => crate::exec::run_buffer(&mut executor, b, &mut models),
                AnyInst::Image(m) => crate::exec::run_image(&mut executor, m, &mut models),
            }
            .unwrap_or_else(|e| panic!("{e:?}; {}", context()));
        }
        bench.run_until_done(n, bench.t + 40_000);
        bench.check_program(&executor, &before, true, &context);
        assert!(bench.dones.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(bench.pipe.idle(), "{}", context());
    }
}

#[test]
fn random_image_programs_match_the_executor_at_the_default_configuration() {
    random_image_programs(Config::default(), 0x1_3a6e, 150);
}

#[test]
fn random_image_programs_match_the_executor_at_the_small_configuration() {
    random_image_programs(Config::small(), 0x2_3a6e, 150);
}

// GET_RESINFO (docs/decisions.md "Images", **GET_RESINFO**): a load with iss_op 3 and iss_mip 1,
// A = 1 (the mipid), B = 4 beats; taken as a buffer instruction (group g available from
// a + g + 3), one empty step per group, no memory request; its results the executor's
// `get_resinfo`.

/// A linear T# of type `kind`, dfmt 4 (32) / nfmt 4 (uint), `width` × `height` × `depth`,
/// levels `base_level` ..= `last_level`, max_mip `max_mip`, at 0x10000: its two halves.
fn resinfo_tsharp(kind: u8, (width, height, depth): (u16, u16, u16), levels: (u8, u8), max_mip: u8) -> (u128, u128) {
    TSharp {
        base: 0x100,
        dfmt: 4,
        nfmt: 4,
        width_minus_1: width - 1,
        height_minus_1: height - 1,
        depth_minus_1: depth - 1,
        pitch_minus_1: width - 1,
        dst_sel: [4, 5, 6, 7],
        base_level: levels.0,
        last_level: levels.1,
        max_mip,
        kind,
        ..TSharp::default()
    }
    .encode()
}

/// IMAGE_GET_RESINFO of T# s[8:15] with DMASK `dmask`, mipids in v0, results from v20.
fn resinfo_inst(dmask: u8) -> ImageInst {
    ImageInst { kind: ImageKind::GetResinfo, mip: false, ..image_inst(false, dmask, 20) }
}

/// A wave whose s[8:15] hold `t`, v0 the lanes' mipids, with EXEC `exec`.
fn resinfo_wave((lo, hi): (u128, u128), mipids: &[u32; 64], exec: u64) -> Wave {
    let mut wave = Wave::default();
    for k in 0..4 {
        wave.sgprs[8 + k] = (lo >> (32 * k)) as u32;
        wave.sgprs[12 + k] = (hi >> (32 * k)) as u32;
    }
    wave.vgprs[0] = *mipids;
    wave.exec = exec;
    wave
}

/// `inst` (a GET_RESINFO) alone through the pipe and through the executor on the same wave: the
/// pipe writes exactly v20 .. v20 + R − 1 of the EXEC lanes (R = k + TFE), with the executor's
/// values. Returns the pipe's bench (its VGPRs, writes and done).
fn resinfo_against_executor(t: (u128, u128), inst: &ImageInst, mipids: &[u32; 64], exec: u64) -> Bench {
    let wave = resinfo_wave(t, mipids, exec);
    let issue = ImageIssue::of(inst, t, exec).unwrap();
    assert_eq!((issue.addr_dwords, issue.data_dwords), (1, 0));
    assert_eq!((issue.header.iss_kind, issue.header.iss_op, issue.header.iss_mip), (KIND_LOAD, 3, true));
    let beats = image_issue_of(inst, &wave);
    assert_eq!(beats.len(), 4);
    let mut bench = Bench::new();
    bench.send(beats);
    bench.run_until_done(1, 200);
    let mut executor = wave.clone();
    crate::exec::run_image(&mut executor, inst, &mut crate::exec::Models::default()).unwrap();
    let r = issue.result_dwords;
    for v in inst.vdata..inst.vdata + r {
        for l in (0..64).filter(|&l| exec >> l & 1 != 0) {
            assert_eq!(bench.vgprs.get(&(v, l)), Some(&executor.vgprs[usize::from(v)][l]), "v{v} lane {l}");
        }
    }
    assert_eq!(bench.vgprs.len(), exec.count_ones() as usize * usize::from(r), "only v20 .. v20 + R − 1 of EXEC");
    assert!(bench.accepted.is_empty(), "no memory request");
    assert_eq!(bench.dones[0].1.done_requests, 0);
    bench
}

/// Lane l's mipid `m[l % m.len()]`.
fn mipids(m: &[u32]) -> [u32; 64] {
    std::array::from_fn(|l| m[l % m.len()])
}

#[test]
fn get_resinfo_reports_each_lanes_level_as_the_executor_does() {
    use crate::tsharp::{TYPE_1D, TYPE_1D_ARRAY, TYPE_2D_ARRAY, TYPE_3D, TYPE_CUBE};
    // 2D 64 × 32, levels 1 ..= 3 (max_mip 3): levels = 3 − 1 + 1 = 3. Lane mipids 0, 2, 3,
    // 0xffff_ffff: L = 1 (32 × 16), 3 (8 × 4), 4 and 2^32 (exact: missing, 0 × 0 × 0); layers 1.
    let t = resinfo_tsharp(TYPE_2D, (64, 32, 1), (1, 3), 3);
    let m = mipids(&[0, 2, 3, u32::MAX]);
    let bench = resinfo_against_executor(t, &resinfo_inst(0xf), &m, u64::MAX);
    let got = |l: usize| -> Vec<u32> { (20..24).map(|v| bench.vgprs[&(v, l)]).collect() };
    assert_eq!([got(0), got(1), got(2), got(3)], [[32, 16, 1, 3], [8, 4, 1, 3], [0, 0, 0, 3], [0, 0, 0, 3]]);

    // 3D 16 × 8 × 4, levels 0 ..= 2: the depth shrinks with the level; max_mip 1 leaves level 2
    // missing (a 256-bit T#). DMASK 0b0111 with TFE: width, height, depth, status 0.
    let t = resinfo_tsharp(TYPE_3D, (16, 8, 4), (0, 2), 1);
    let inst = ImageInst { tfe: true, ..resinfo_inst(0x7) };
    let bench = resinfo_against_executor(t, &inst, &mipids(&[0, 1, 2, 7]), u64::MAX);
    let got = |l: usize| -> Vec<u32> { (20..24).map(|v| bench.vgprs[&(v, l)]).collect() };
    assert_eq!([got(0), got(1), got(2)], [[16, 8, 4, 0], [8, 4, 2, 0], [0, 0, 0, 0]]);

    // Cube 8 × 8 (depth 1: six faces), levels 0 ..= 3: layers 6 at every level; DA as the
    // shader sets it. DMASK 0b1010: height, levels.
    let t = resinfo_tsharp(TYPE_CUBE, (8, 8, 1), (0, 3), 3);
    let inst = ImageInst { da: true, ..resinfo_inst(0xa) };
    let bench = resinfo_against_executor(t, &inst, &mipids(&[0, 1, 3, 4]), u64::MAX);
    let got = |l: usize| -> Vec<u32> { (20..22).map(|v| bench.vgprs[&(v, l)]).collect() };
    assert_eq!([got(0), got(1), got(2), got(3)], [[8, 4], [4, 4], [1, 4], [0, 4]]);
    let bench = resinfo_against_executor(t, &resinfo_inst(0x4), &mipids(&[0, 2, 9]), u64::MAX);
    assert_eq!([bench.vgprs[&(20, 0)], bench.vgprs[&(20, 1)], bench.vgprs[&(20, 2)]], [6, 6, 0]);

    // Arrays: 1D array 32 wide, 5 layers (height 1); 2D array 8 × 4, 3 layers; the layers do not
    // shrink. DMASK 0 reads as 1 (width only).
    let t = resinfo_tsharp(TYPE_1D_ARRAY, (32, 1, 5), (0, 2), 2);
    let bench = resinfo_against_executor(t, &ImageInst { da: true, ..resinfo_inst(0xf) }, &mipids(&[2]), u64::MAX);
    assert_eq!((20..24).map(|v| bench.vgprs[&(v, 5)]).collect::<Vec<_>>(), [8, 1, 5, 3]);
    let t = resinfo_tsharp(TYPE_2D_ARRAY, (8, 4, 3), (0, 1), 1);
    let bench = resinfo_against_executor(t, &resinfo_inst(0), &mipids(&[0, 1, 2]), u64::MAX);
    assert_eq!([bench.vgprs[&(20, 0)], bench.vgprs[&(20, 1)], bench.vgprs[&(20, 2)]], [8, 4, 0]);
    assert!(!bench.vgprs.contains_key(&(21, 0)), "DMASK 0: one dword");

    // A 128-bit 1D T# (R128): max_mip is not read, only last_level decides; 1D's height 1.
    let t = resinfo_tsharp(TYPE_1D, (100, 1, 1), (0, 2), 0);
    let t = (t.0, 0);
    let inst = ImageInst { r128: true, ..resinfo_inst(0xf) };
    let bench = resinfo_against_executor(t, &inst, &mipids(&[0, 1, 2, 3]), u64::MAX);
    let got = |l: usize| -> Vec<u32> { (20..24).map(|v| bench.vgprs[&(v, l)]).collect() };
    assert_eq!([got(0), got(1), got(2), got(3)], [[100, 1, 1, 3], [50, 1, 1, 3], [25, 1, 1, 3], [0, 0, 0, 3]]);

    // base_level above last_level: no level exists, levels = 1 − 3 + 1 mod 2^32.
    let t = resinfo_tsharp(TYPE_2D, (16, 16, 1), (3, 1), 3);
    let bench = resinfo_against_executor(t, &resinfo_inst(0x9), &mipids(&[0]), u64::MAX);
    assert_eq!((bench.vgprs[&(20, 0)], bench.vgprs[&(21, 0)]), (0, u32::MAX));

    // Unbound T# (dfmt 0): every component 0, levels too; with TFE the status 0.
    let mut t = resinfo_tsharp(TYPE_2D, (16, 16, 1), (0, 3), 3);
    t.0 &= !(0x3fu128 << 52);
    let inst = ImageInst { tfe: true, ..resinfo_inst(0xf) };
    let bench = resinfo_against_executor(t, &inst, &mipids(&[0, 1]), 0x8000_0000_0001_0001);
    assert!(bench.vgprs.values().all(|&d| d == 0));

    // Partial EXEC: only its lanes are written, one group write per dword and group with a lane.
    let t = resinfo_tsharp(TYPE_2D, (64, 32, 1), (0, 5), 5);
    let exec = 0x0000_00f0_0000_8001;
    let bench = resinfo_against_executor(t, &resinfo_inst(0x3), &mipids(&[0, 1, 2, 3, 4, 5, 6]), exec);
    assert_eq!(
        bench.writes.iter().map(|(_, w)| (w.vgpr_addr, w.vgpr_group, w.vgpr_mask)).collect::<Vec<_>>(),
        [(20, 0, 0x8001), (21, 0, 0x8001), (20, 2, 0x00f0), (21, 2, 0x00f0)]
    );
}

/// The pipe alone runs `beats`, one instruction after another, until `n` are done: each done's
/// cycle, counters and step-stage span (`Stages::ta`).
fn run_with_stages(bench: &mut Bench, n: usize, limit: u64) -> Vec<(u64, [u16; 12], (u64, u64))> {
    let mut stages = Vec::new();
    while bench.dones.len() < n {
        assert!(bench.t < limit, "not done by cycle {limit}");
        bench.tick();
        if let Some(s) = bench.pipe.done_stages() {
            stages.push(s.ta);
        }
    }
    bench.dones.iter().zip(stages).map(|((c, o), ta)| (*c, counters(o), ta)).collect()
}

#[test]
fn get_resinfo_takes_four_ta_cycles_and_writes_16_lanes_a_cycle() {
    // Alone, full EXEC, DMASK 0x3 (R = 2): beats accepted 1 .. 4 (iss_ready 0 in cycle 0); the
    // last completes buffer 0, a = 5; group g available from a + g + 3 = 8 + g; the step stage
    // starts in 8 and gives group g its empty step in 8 + g (available then): steps 8 .. 11,
    // done_ta = 4. No access to take: gathered at the edge ending 11; s = 12 (converter idle,
    // result buffer free). Writes group-major, group g's from s + 4 + g, each after the edge
    // accepting the previous: (v20, g0) 16, (v21, g0) 17, (v20, g1) 18, … (v21, g3) 23 = e.
    // Done d = e + 1 = 24: issue 1 .. 4 = 4, TA 4, TCP 0, L2 0, TD e − s + 1 = 12, total 24 − 1.
    let t = resinfo_tsharp(TYPE_2D, (64, 32, 1), (0, 5), 5);
    let wave = resinfo_wave(t, &mipids(&[0, 1]), u64::MAX);
    let mut bench = Bench::new();
    bench.send(image_issue_of(&resinfo_inst(0x3), &wave));
    let done = run_with_stages(&mut bench, 1, 200);
    assert_eq!(done, [(24, [4, 4, 0, 0, 12, 23, 0, 0, 0, 0, 0, 0], (8, 11))]);
    let writes: Vec<(u64, u8, u8)> = bench.writes.iter().map(|(c, w)| (*c, w.vgpr_addr, w.vgpr_group)).collect();
    let want: Vec<(u64, u8, u8)> = (0..8).map(|k| (16 + k, 20 + (k % 2) as u8, (k / 2) as u8)).collect();
    assert_eq!(writes, want);

    // Groups 0 and 2 in EXEC, DMASK 0xF with TFE (R = 5): group 0's five writes 16 .. 20, group
    // 2's from max(s + 4 + 2 = 18, 21) = 21 .. 25 = e; done 26, TD 25 − 12 + 1 = 14.
    let wave = resinfo_wave(t, &mipids(&[0, 1]), 0x0000_0001_0000_8000);
    let mut bench = Bench::new();
    bench.send(image_issue_of(&ImageInst { tfe: true, ..resinfo_inst(0xf) }, &wave));
    let done = run_with_stages(&mut bench, 1, 200);
    assert_eq!(done, [(26, [4, 4, 0, 0, 14, 25, 0, 0, 0, 0, 0, 0], (8, 11))]);
    assert_eq!(bench.write_cycles(20), [16, 21]);
    assert_eq!(bench.write_cycles(24), [20, 25]);

    // EXEC 0: not writing; finished once its step stage has ended (edge of 11): done 12, TD 0.
    let wave = resinfo_wave(t, &mipids(&[0]), 0);
    let mut bench = Bench::new();
    bench.send(image_issue_of(&resinfo_inst(0xf), &wave));
    let done = run_with_stages(&mut bench, 1, 200);
    assert_eq!(done, [(12, [4, 4, 0, 0, 0, 11, 0, 0, 0, 0, 0, 0], (8, 11))]);
    assert!(bench.writes.is_empty());
}

#[test]
fn get_resinfo_after_a_load_or_a_store_does_not_wait_for_memory() {
    let t = resinfo_tsharp(TYPE_2D, (64, 32, 1), (0, 5), 5);
    let wave = resinfo_wave(t, &mipids(&[1]), u64::MAX);
    let resinfo = image_issue_of(&resinfo_inst(0x1), &wave);

    // A cold load (its timeline: a_cold_coalesced_load_misses_then_hits_warm: beats 1 .. 4,
    // a = 5, steps 8 .. 11, line reads accepted 10 .. 13, gathered at the edge of 65, s = 66,
    // writes 70 .. 73, done 74), then the GET_RESINFO. Its beats fill buffer 1 in 5 .. 8; the
    // address stage is idle from 9 and the step stage holds one instruction: a = 9; groups
    // available from 12 + g; the load's last step was 11, so its steps are 12 .. 15 (done_ta 4,
    // not waiting for the load's data). It is G once the load is gathered (edge of 65) and is
    // gathered at the next edge (66); the converter is idle from the load's s + 4 = 70: s = 70.
    // Writes (DMASK 1: one dword) of group g from s + 4 + g = 74 + g, after the load's last (73):
    // 74 .. 77 = e; done 78 (after the load's 74). TD 77 − 70 + 1 = 8; total 78 − 5 = 73.
    let mut bench = Bench::new();
    bench.send(beats(&load_dword(u64::MAX, 10), &consecutive(), &[]));
    bench.send(resinfo.clone());
    let done = run_with_stages(&mut bench, 2, 300);
    assert_eq!(done[0], (74, [4, 4, 4, 54, 8, 73, 16, 0, 16, 0, 0, 0], (8, 11)));
    assert_eq!(done[1], (78, [4, 4, 0, 0, 8, 73, 0, 0, 0, 0, 0, 0], (12, 15)));
    assert_eq!(bench.write_cycles(20), [74, 75, 76, 77]);
    assert!((0..64).all(|l| bench.vgprs[&(20, l)] == 32), "level 1 of 64 wide");

    // A store (posted writes accepted 10 .. 13, acknowledged 60 .. 63: done 64), then the
    // GET_RESINFO: a = 9, steps 12 .. 15; the store is not writing, so the GET_RESINFO is G at
    // once and gathered at the edge of 15: s = 16, writes 20 .. 23 — long before the store's
    // acknowledgements. Finished at the start of 24, done in order after the store's: 65.
    let mut bench = Bench::new();
    let data: [u32; 64] = std::array::from_fn(|l| l as u32);
    bench.send(beats(&store_dword(u64::MAX), &consecutive(), &[data]));
    bench.send(resinfo);
    let done = run_with_stages(&mut bench, 2, 300);
    assert_eq!(done[0], (64, [4, 4, 4, 54, 0, 63, 16, 0, 0, 0, 0, 0], (8, 11)));
    assert_eq!(done[1], (65, [4, 4, 0, 0, 8, 60, 0, 0, 0, 0, 0, 0], (12, 15)));
    assert_eq!(bench.write_cycles(20), [20, 21, 22, 23]);
}

/// Runs the image instructions `insts` from `wave` on `bench` (every fourth program reset in
/// mid-run, within `window` cycles, and run again from `initial` memory) and on the executor,
/// and holds the two equal; `id` names the program in errors.
fn run_image_program(
    bench: &mut Bench,
    id: (Config, usize),
    rng: &mut u64,
    wave: &Wave,
    insts: &[ImageInst],
    window: u64,
    initial: &HashMap<u64, u8>,
) {
    let (config, program) = id;
    let issue: Vec<In> = insts.iter().flat_map(|m| image_issue_of(m, wave)).collect();
    let reset = (program % 4 == 1).then(|| (10 + next(rng) % window, 1 + next(rng) % 3));
    bench.send_program(issue, reset, initial);
    let mut executor = wave.clone();
    let mut models = crate::exec::Models::default();
    let context = || format!("{config:?} program {program}: {insts:#?}");
    for m in insts {
        crate::exec::run_image(&mut executor, m, &mut models).unwrap_or_else(|e| panic!("{e:?}; {}", context()));
    }
    bench.run_until_done(insts.len(), bench.t + 40_000);
    bench.check_program(&executor, wave, false, &context);
    assert!(bench.pipe.idle(), "{}", context());
}

/// Random programs of image loads (random_image's T#s and coordinates) with a GET_RESINFO in
/// about every other slot (its T# random_image's, mipids mostly present levels, some beyond,
/// some huge), under random L2 latencies, back-pressure and mid-run resets: the VGPRs the pipe
/// leaves equal the executor's.
fn random_resinfo_programs(config: Config, seed: u64, programs: usize) {
    let mut rng = seed;
    for program in 0..programs {
        let (mut wave, mut bench) = program_start(config, program, &mut rng, 0x14000);
        let initial = bench.memory.clone();
        for v in wave.vgprs.iter_mut() {
            *v = std::array::from_fn(|_| next(&mut rng) as u32);
        }
        let n = 1 + next(&mut rng) as usize % 8;
        let mut insts = Vec::new();
        for i in 0..n as u8 {
            let (t, mut inst) = random_image(&mut rng, i);
            let (lo, hi) = t.encode();
            for k in 0..4 {
                wave.sgprs[8 * usize::from(i) + k] = (lo >> (32 * k)) as u32;
                wave.sgprs[8 * usize::from(i) + 4 + k] = (hi >> (32 * k)) as u32;
            }
            if next(&mut rng).is_multiple_of(2) {
                inst = ImageInst { kind: ImageKind::GetResinfo, d16: false, ..inst };
                let levels = u64::from(t.last_level) + 2;
                wave.vgprs[usize::from(inst.vaddr)] = std::array::from_fn(|_| match next(&mut rng) % 16 {
                    0 => next(&mut rng) as u32,
                    r => (r % levels) as u32,
                });
            } else {
                if inst.kind == ImageKind::Store {
                    inst.kind = ImageKind::Load { pck: false, sgn: false };
                }
                random_coordinates(&mut rng, &t, &inst, &mut wave);
            }
            insts.push(inst);
        }
        wave.exec = [u64::MAX, next(&mut rng), next(&mut rng) & next(&mut rng), 0][program % 4];
        run_image_program(&mut bench, (config, program), &mut rng, &wave, &insts, 60, &initial);
    }
}

#[test]
fn random_resinfo_programs_match_the_executor() {
    random_resinfo_programs(Config::default(), 0x3_5e51, 120);
    random_resinfo_programs(Config::small(), 0x4_5e51, 120);
}

#[test]
fn an_element_buffer_is_free_only_after_its_latest_gathered_user_converted() {
    // Element buffers alternate by writing order (buffer n mod 2). Six GET_RESINFOs (R = 5:
    // DMASK 0xF with TFE, 20 writes each), then a cold load. The VGPR port refuses every write
    // until cycle 40, so GET_RESINFO 0 holds result buffer 0 and GET_RESINFO 2 waits, gathered,
    // for it; GET_RESINFO 4 (buffer 0 too, nothing to take) is gathered before 2 is converted.
    // Buffer 0 is then GET_RESINFO 4's until its s + 4 (docs/decisions.md "TD and completion":
    // "G's element buffer is free from s+4"), not GET_RESINFO 2's s + 4: the load (writing
    // instruction 6, buffer 0) may take its first block only from s_4 + 4.
    // By hand (each GET_RESINFO 4 beats, 20 writes): R_k's beats 1 + 4k .. 4 + 4k, taken
    // a_k = 5 + 4k, steps 8 + 4k .. 11 + 4k, gathered at that edge (G in order; nothing to take).
    // Writes are accepted from 40 on, one a cycle, in order: R_0's 40 .. 59 (s_0 = 12), R_1's
    // 60 .. 79 (s_1 = 16), so e_k = 59 + 20k. s_k = max(s_{k−1} + 4, e_{k−2} + 1): s_2 = 60,
    // s_3 = 80, s_4 = 100, s_5 = 120. The load's beats 25 .. 28 (buffer 0, freed at the edge
    // of 24), a = 29, steps 32 .. 35, misses 33 + g, reads accepted 34 + g, responses 84 + g,
    // return registers full from 86 + g; G from 32 (R_5 gathered at 31). Its element buffer
    // (0) is free from s_4 + 4 = 104: it takes one register (four blocks) a cycle, 104 .. 107,
    // and is gathered at that edge; s = max(108, s_5 + 4, e_4 + 1 = 140) = 140; its writes follow
    // R_5's last (159): 160 .. 163, done 164. The GET_RESINFOs are done at e_k + 1 = 60 + 20k.
    let t = resinfo_tsharp(TYPE_2D, (64, 32, 1), (0, 5), 5);
    let wave = resinfo_wave(t, &mipids(&[0, 1, 2]), u64::MAX);
    let mut bench = Bench::new();
    bench.write_ramp(0x1000, 64, 0x600d_0000);
    for k in 0..6 {
        bench.send(image_issue_of(&ImageInst { tfe: true, vdata: 20 + 5 * k, ..resinfo_inst(0xf) }, &wave));
    }
    bench.send(beats(&load_dword(u64::MAX, 10), &consecutive(), &[]));
    bench.vgpr_ready = false;
    bench.run_until(40);
    bench.vgpr_ready = true;
    let load = 6 % bench.pipe.config().in_flight;
    let mut takes = Vec::new();
    let mut td_start = Vec::new();
    while bench.dones.len() < 7 {
        assert!(bench.t < 1000, "not done");
        let before = bench.pipe.slots[load].returned;
        bench.tick();
        if bench.pipe.slots[load].returned > before {
            takes.push(bench.t - 1);
        }
        if let Some(s) = bench.pipe.done_stages() {
            td_start.push(s.td.map(|(s, _)| s));
        }
    }
    assert_eq!(td_start[..6], [Some(12), Some(16), Some(60), Some(80), Some(100), Some(120)]);
    assert_eq!(takes, [104, 105, 106, 107]);
    assert_eq!(td_start[6], Some(140));
    assert_eq!(bench.write_cycles(10), [160, 161, 162, 163]);
    assert_eq!(bench.dones.iter().map(|d| d.0).collect::<Vec<_>>(), [60, 80, 100, 120, 140, 160, 164]);
    assert!((0..64).all(|l| bench.vgprs[&(10, l)] == 0x600d_0000 + l as u32));
}

// ---------------------------------------------------------------------------------------------
// LDS loads (docs/decisions.md "vmem_pipe", "LDS loads (SPEC §2.5, §15)").

/// A BUFFER_LOAD_DWORD with `lds` = 1, OFFEN: [`load_dword`]'s header with `iss_lds`, M0 and the
/// LDS allocation (base, size in 128-byte units).
fn lds_load_dword(exec: u64, m0: u32, base: u16, size: u16) -> In {
    In { iss_lds: true, iss_m0: m0, iss_lds_base: base, iss_lds_size: size, ..load_dword(exec, 30) }
}

#[test]
fn an_lds_load_writes_one_lds_write_a_group_with_a_vgpr_writes_timing() {
    let mut bench = Bench::new();
    bench.write_ramp(0x1000, 64, 0x5150_0000);
    // M0 0x1_0040 (bits 15:0 used: 0x40), base 2 (256), size 4 (bytes 256 .. 767): lane l's LDS
    // dword at 256 + 0x40 + 4l = 320 + 4l, its 4 bytes inside (320 + 4·63 + 4 = 576 ≤ 768).
    bench.send(beats(&lds_load_dword(u64::MAX, 0x1_0040, 2, 4), &consecutive(), &[]));
    bench.run_until_done(1, 200);
    // Everything before the TD as a cold BUFFER_LOAD_DWORD (a_cold_coalesced_load_...): lookups
    // 9 + g miss, line reads accepted 10 + g, responses 60 + g, taken 62 + g, gathered at the
    // edge of 65, s = 66. The TD: one LDS write per group (R = 1), group g from s + 4 + g =
    // 70 + g, every one accepted at once; done e + 1 = 74. No VGPR write.
    assert_eq!(bench.accepted.len(), 4);
    assert!(bench.writes.is_empty(), "no VGPR write");
    let cycles: Vec<u64> = bench.lds_writes.iter().map(|w| w.0).collect();
    assert_eq!(cycles, [70, 71, 72, 73]);
    for (g, (_, w)) in bench.lds_writes.iter().enumerate() {
        assert_eq!(w.lds_mask, 0xffff);
        assert_eq!(w.lds_addr, std::array::from_fn(|j| 320 + 4 * (16 * g + j) as u32));
        assert_eq!(w.lds_data, std::array::from_fn(|j| 0x5150_0000 + (16 * g + j) as u32));
    }
    assert_eq!(bench.dones[0].0, 74);
    assert_eq!(counters(&bench.dones[0].1), [4, 4, 4, 54, 8, 73, 16, 0, 16, 0, 0, 0]);
    for l in 0..64 {
        let at = 320 + 4 * l;
        assert_eq!(u32::from_le_bytes(std::array::from_fn(|i| bench.lds[at + i])), 0x5150_0000 + l as u32);
    }
    assert_eq!(bench.lds[316..320], [0; 4]);
    assert_eq!(bench.lds[576..580], [0; 4]);
}

#[test]
fn lanes_outside_the_allocation_read_nothing_and_lds_ready_holds_the_writes() {
    let mut bench = Bench::new();
    bench.write_ramp(0x1000, 64, 0x7000);
    // Base 1, size 2: bytes 128 .. 383; M0 0x40: lane l's dword at 192 + 4l, inside for
    // 192 + 4l + 4 ≤ 384, l ≤ 47. Group 3 (lanes 48..63) is outside: its lanes take no part,
    // so its step has no request (one merged step of one cycle, sending nothing). EXEC leaves
    // lane 5 out.
    let exec = !(1u64 << 5);
    bench.lds_ready = false;
    bench.send(beats(&lds_load_dword(exec, 0x40, 1, 2), &consecutive(), &[]));
    bench.run_until(72);
    bench.lds_ready = true;
    bench.run_until_done(1, 200);
    // Steps 8..11 (group 3's in 11, empty); lookups 9, 10, 11 (banks 0..2) miss, line reads
    // accepted 10, 11, 12, responses 60, 61, 62, taken 62, 63, 64; gathered at the edge of 64,
    // s = 65. Write g presented from s + 4 + g = 69 + g; lds_ready is 0 until cycle 72: write 0
    // accepted in 72, write 1 presented from 73 (after that edge), accepted 73, then 74, 75.
    // Done 76: issue 4, TA 8..11 = 4, TCP 9..11 = 3, L2 10..62 = 53, TD 65..75 = 11, total 75,
    // 12 requests, 12 misses.
    assert_eq!(bench.accepted.len(), 3);
    let cycles: Vec<u64> = bench.lds_writes.iter().map(|w| w.0).collect();
    assert_eq!(cycles, [72, 73, 74, 75]);
    let masks: Vec<u16> = bench.lds_writes.iter().map(|w| w.1.lds_mask).collect();
    assert_eq!(masks, [0xffdf, 0xffff, 0xffff, 0x0000], "lane 5 not in EXEC; group 3 outside");
    assert_eq!(bench.lds_writes[3].1.lds_addr, [0; 16]);
    assert_eq!(bench.lds_writes[3].1.lds_data, [0; 16]);
    assert_eq!(bench.dones[0].0, 76);
    assert_eq!(counters(&bench.dones[0].1), [4, 4, 3, 53, 11, 75, 12, 0, 12, 0, 0, 0]);
    let dword = |at: usize| u32::from_le_bytes(std::array::from_fn(|i| bench.lds[at + i]));
    assert_eq!(dword(192 + 4 * 5), 0, "lane 5 not written");
    assert_eq!(dword(192 + 4 * 47), 0x7000 + 47);
    assert_eq!(dword(192 + 4 * 48), 0, "outside the allocation");
    assert_ne!(bench.events & lds_event::OUTSIDE, 0);
}

#[test]
fn an_lds_lane_out_of_memory_range_writes_zero_or_one() {
    // num_records 0x80: lanes whose dword starts at or past 0x80 are out of range, but inside
    // the LDS allocation: they take no part and write 0 (the FORMAT_X load of a V# whose dst_sel
    // x is SEL_1 writes 1).
    for (dst_x, expect) in [(4u8, 0u32), (1, 1)] {
        let mut bench = Bench::new();
        bench.write_ramp(0x1000, 64, 0x900);
        let v = VSharp {
            base: 0x1000,
            num_records: 0x80,
            dst_sel: [dst_x, 0, 0, 0],
            nfmt: 4,
            dfmt: 4,
            ..VSharp::default()
        };
        let header = In {
            iss_sized: false,
            iss_access: 0,
            iss_dst_sel: u16::from(dst_x),
            iss_rsrc: super::ports::rsrc_dwords(v.encode(), 0),
            ..lds_load_dword(u64::MAX, 0, 0, 4)
        };
        bench.send(beats(&header, &consecutive(), &[]));
        bench.run_until_done(1, 300);
        let dword = |at: usize| u32::from_le_bytes(std::array::from_fn(|i| bench.lds[at + i]));
        for l in 0..64 {
            let want = if l < 32 {
                if dst_x == 4 {
                    0x900 + l as u32
                } else {
                    1
                }
            } else {
                expect
            };
            assert_eq!(dword(4 * l), want, "lane {l}, dst_sel x {dst_x}");
        }
        assert_ne!(bench.events & lds_event::NO_MEMORY, 0);
    }
}

/// A random LDS load (BUFFER_LOAD_UBYTE, SBYTE, USHORT, SSHORT, DWORD, FORMAT_X) for slot `i`
/// ([`random_inst`]'s registers).
fn random_lds_inst(rng: &mut u64, i: u8) -> BufferInst {
    let base = random_inst(rng, i);
    let access = match next(rng) % 6 {
        0 => Access::Sized { bytes: 1, signed: false },
        1 => Access::Sized { bytes: 1, signed: true },
        2 => Access::Sized { bytes: 2, signed: false },
        3 => Access::Sized { bytes: 2, signed: true },
        4 => Access::Sized { bytes: 4, signed: false },
        _ => Access::Format { count: 1, format: None },
    };
    BufferInst { kind: BufferKind::Load, access, d16: D16::None, wide: false, lds: true, tfe: false, ..base }
}

/// Random programs of LDS loads (with a plain load now and then) under random M0, LDS
/// allocations, EXEC, V#s (out of range, unbound, SEL_1) and back-pressure: the LDS the pipe
/// leaves equals the executor's, and no VGPR is written by an LDS load.
fn random_lds_programs(config: Config, seed: u64, programs: usize) -> u64 {
    let mut rng = seed;
    let mut events = 0;
    for program in 0..programs {
        let (mut wave, mut bench) = program_start(config, program, &mut rng, 0x11000);
        wave.sgprs[100] = next(&mut rng) as u32 % 64;
        // M0 (bits 15:0 used) and the allocation: small so that lanes fall outside at times.
        wave.m0 = (next(&mut rng) as u32 & 0xffff_0000) | [0, 4, 0x100, 0x3f0][program % 4];
        wave.lds.base = (next(&mut rng) % 8) as u16;
        wave.lds.size = [0, 1, 2, 3, 8, 511][(next(&mut rng) % 6) as usize];
        let n = 1 + next(&mut rng) as usize % 6;
        let insts: Vec<BufferInst> =
            (0..n as u8)
                .map(|i| {
                    if next(&mut rng).is_multiple_of(5) {
                        random_inst(&mut rng, i)
                    } else {
                        random_lds_inst(&mut rng, i)
                    }
                })
                .collect();
        for (i, inst) in insts.iter().enumerate() {
            let pick = |rng: &mut u64, n: u64| next(rng) % n;
            let wide_mask = if matches!(inst.kind, BufferKind::Atomic(_)) && inst.wide { 7 } else { 0 };
            let v = VSharp {
                base: 0x10000 & !wide_mask,
                stride: [0, 4, 16][pick(&mut rng, 3) as usize],
                num_records: [0x40, 0x180, 0x1000][pick(&mut rng, 3) as usize],
                dst_sel: std::array::from_fn(|_| pick(&mut rng, 8) as u8),
                nfmt: pick(&mut rng, 8) as u8,
                dfmt: if pick(&mut rng, 6) == 0 { 0 } else { 1 + pick(&mut rng, 14) as u8 },
                ..VSharp::default()
            };
            let bits = v.encode();
            for k in 0..4 {
                wave.sgprs[4 * i + k] = (bits >> (32 * k)) as u32;
            }
            for r in 0..16 {
                for l in 0..64 {
                    let x = next(&mut rng);
                    wave.vgprs[16 * i + r][l] = if r < 4 { (x % [8, 0x200, 0x200, 0x200][r]) as u32 } else { x as u32 };
                }
            }
            if matches!(inst.kind, BufferKind::Atomic(_)) && inst.wide {
                for r in 0..2 {
                    for l in 0..64 {
                        wave.vgprs[16 * i + r][l] &= !7;
                    }
                }
            }
        }
        wave.exec = [u64::MAX, next(&mut rng), 0xffff_0000_0000_ffff, 1 << (next(&mut rng) % 64)][program % 4];
        let issue: Vec<In> = insts.iter().flat_map(|inst| issue_of(inst, &wave)).collect();
        bench.send(issue);
        let mut executor = wave.clone();
        let mut models = crate::exec::Models::default();
        for inst in &insts {
            crate::exec::run_buffer(&mut executor, inst, &mut models).unwrap();
        }
        bench.run_until_done(n, bench.t + 40_000);
        let context = || {
            format!(
                "{config:?} program {program}: m0 {:#x}, lds {}/{}, {insts:#?}",
                wave.m0, wave.lds.base, wave.lds.size
            )
        };
        for (a, (&p, &e)) in bench.lds.iter().zip(&executor.lds.bytes).enumerate() {
            assert_eq!(p, e, "LDS byte {a:#x}; {}", context());
        }
        for (&(v, l), &d) in &bench.vgprs {
            assert_eq!(d, executor.vgprs[usize::from(v)][l], "v{v} lane {l}; {}", context());
        }
        for (i, inst) in insts.iter().enumerate() {
            if inst.lds {
                let vdata = 16 * i as u8 + 4;
                assert!(
                    bench.writes.iter().all(|w| w.1.vgpr_addr != vdata),
                    "an LDS load wrote v{vdata}; {}",
                    context()
                );
            }
        }
        for (&a, &b) in &bench.memory {
            assert_eq!(executor.memory.read_byte(a), b, "memory {a:#x}; {}", context());
        }
        assert!(bench.pipe.idle(), "{}", context());
        events |= bench.events;
    }
    events
}

#[test]
fn random_lds_programs_match_the_executor() {
    let events = random_lds_programs(Config::default(), 0x1d5, 80) | random_lds_programs(Config::small(), 0x1d6, 40);
    assert_ne!(events & lds_event::OUTSIDE, 0);
    assert_ne!(events & lds_event::NO_MEMORY, 0);
}

// Multi-texel loads (docs/decisions.md "Images", *Multi-texel loads*).

/// A linear 2D R8 uint image (dfmt 1, nfmt 4) of `width` × 4 texels, pitch `pitch`, one level,
/// at 0x10000: the T#'s two halves.
fn image_2d_r8(width: u16, pitch: u16) -> (u128, u128) {
    TSharp {
        base: 0x100,
        dfmt: 1,
        nfmt: 4,
        width_minus_1: width - 1,
        height_minus_1: 3,
        dst_sel: [4, 5, 6, 7],
        kind: TYPE_2D,
        pitch_minus_1: pitch - 1,
        ..TSharp::default()
    }
    .encode()
}

/// A multi-texel load (`op`: 0 BY2, 1 BY4, 2 PCK2, 3 PCK4) of T# s[8:15], address VGPRs from
/// v0, results from `vdata`.
fn multi_texel_inst(op: u8, dmask: u8, vdata: u8) -> ImageInst {
    ImageInst { kind: ImageKind::MultiTexel { op }, ..image_inst(false, dmask, vdata) }
}

/// `t` in s[8:15], the lanes' (x, y) in v0, v1 and `exec`, over `memory`'s bytes: the wave the
/// executor runs a multi-texel load of, and its VGPRs from `vdata` after running `inst`.
fn executor_multi_texel(t: (u128, u128), xy: &[[u32; 64]; 2], exec: u64, bench: &Bench, inst: &ImageInst) -> Wave {
    let mut wave = Wave::default();
    for k in 0..4 {
        wave.sgprs[8 + k] = (t.0 >> (32 * k)) as u32;
        wave.sgprs[12 + k] = (t.1 >> (32 * k)) as u32;
    }
    wave.vgprs[0] = xy[0];
    wave.vgprs[1] = xy[1];
    wave.exec = exec;
    for (&a, &b) in &bench.memory {
        wave.memory.write(a, 1, u128::from(b));
    }
    crate::exec::run_image(&mut wave, inst, &mut crate::exec::Models::default()).unwrap();
    wave
}

// IMAGE_LOAD_BY4 of a 64 × 4 R8 uint image (pitch 64, row y = the line 0x10000 + 64y, bank y),
// DMASK 0xF, R = 4, iss_bytes = 4 · 1 = 4; lane 16g + 4q + j reads the group at (x, y) =
// (16q + 4j, g): quad q of group g is the 16-byte block 16q of line g, so each quad step's four
// requests are one access of bank g, and x + 4 ≤ 64 for every lane (all groups valid).
//
// Cold, first beat in cycle 1: A = 2, B = 8 beats (1 .. 8); a = 9; group g available from
// a + 4g + 6; quad steps 15 .. 30 (quad q of group g in 15 + 4g + q, one bundle each, accepted:
// bank g's lookup queue holds at most the one access of the step before). Quad 0 of group g is at
// its lookup head in 16 + 4g: a miss (bank g's MSHR 0), its line read presented and accepted in
// 17 + 4g on channel g; quads 1–3 merge: 16 requests missed, 48 merged.
//
// Warm, first beat t0: a = t0 + 8, steps t0 + 14 .. t0 + 29 (no stall: done_ta = 16, SPEC §15's
// four texels a cycle), hits t0 + 15 .. t0 + 30, return reads t0 + 16 .. t0 + 31, the TD takes
// each access (4 blocks) in t0 + 17 .. t0 + 32; gathered at the edge of t0 + 32, s = t0 + 33.
// Writes group-major, R = 4 dwords a group: group g's dword i in s + 4 + 4g + i = t0 + 37 + 4g + i
// (each after the previous accepted, each ≥ s + 4 + g), the last e = t0 + 52: done_td =
// e − s + 1 = 20, done t0 + 53, total 53; issue 8, TCP heads t0 + 15 .. t0 + 30 = 16.

#[test]
fn a_warm_by4_load_of_a_wave_takes_16_ta_cycles_and_returns_each_texel() {
    let mut bench = Bench::new();
    // Dword k at 0x10000 + 4k = 0x4030_2010 + k: lane l's group is dword l, bytes 0x10 + l, 0x20,
    // 0x30, 0x40.
    bench.write_ramp(0x10000, 64, 0x4030_2010);
    let t = image_2d_r8(64, 64);
    let xy: [[u32; 64]; 2] = [
        std::array::from_fn(|l| 16 * (l as u32 % 16 / 4) + 4 * (l as u32 % 4)),
        std::array::from_fn(|l| l as u32 / 16),
    ];
    let inst = |vdata| multi_texel_inst(1, 0xf, vdata);
    let issue = ImageIssue::of(&inst(10), t, u64::MAX).unwrap();
    assert_eq!((issue.addr_dwords, issue.data_dwords, issue.result_dwords), (2, 0, 4));
    assert_eq!((issue.header.iss_op, issue.header.iss_bytes, issue.header.iss_count), (5, 4, 4));
    bench.send(image_beats(&issue.header, &xy, &[]));
    bench.run_until_done(1, 300);
    assert_eq!(
        bench.accepted,
        [
            (17, 0, L2_READ, 0, 0x10000),
            (21, 1, L2_READ, 0, 0x10040),
            (25, 2, L2_READ, 0, 0x10080),
            (29, 3, L2_READ, 0, 0x100c0)
        ]
    );
    let c = counters(&bench.dones[0].1);
    assert_eq!((c[1], c[6], c[7], c[8], c[9], c[10]), (16, 64, 0, 16, 48, 0));

    let t0 = bench.t;
    bench.send(image_beats(&ImageIssue::of(&inst(20), t, u64::MAX).unwrap().header, &xy, &[]));
    bench.run_until_done(2, t0 + 100);
    let want: Vec<u64> = (37..53).map(|c| t0 + c).collect();
    assert_eq!([20, 21, 22, 23].map(|v| bench.write_cycles(v)).concat().len(), 16);
    let mut all: Vec<u64> = bench.writes.iter().filter(|(c, _)| *c >= t0).map(|(c, _)| *c).collect();
    all.sort();
    assert_eq!(all, want);
    // Group-major: the write in t0 + 37 + 4g + i is v(20 + i) of group g.
    for (c, w) in bench.writes.iter().filter(|(c, _)| *c >= t0) {
        let k = (c - t0 - 37) as u8;
        assert_eq!((w.vgpr_addr, w.vgpr_group, w.vgpr_mask), (20 + k % 4, k / 4, 0xffff));
    }
    let (done_cycle, done) = bench.dones[1];
    assert_eq!(done_cycle, t0 + 53);
    assert_eq!(counters(&done), [8, 16, 16, 0, 20, 53, 64, 64, 0, 0, 0, 0]);
    let executor = executor_multi_texel(t, &xy, u64::MAX, &bench, &inst(20));
    for l in 0..64 {
        let got: Vec<u32> = (0..4).map(|i| bench.vgprs[&(20 + i, l)]).collect();
        assert_eq!(got, [0x10 + l as u32, 0x20, 0x30, 0x40], "lane {l}");
        assert_eq!(got, (0..4).map(|i| executor.vgprs[20 + i][l]).collect::<Vec<_>>(), "lane {l}");
        assert_eq!((10..14).map(|v| bench.vgprs[&(v, l)]).collect::<Vec<_>>(), got, "lane {l} (cold)");
    }
}

// IMAGE_LOAD_BY4 on a 64 × 4 R8 image of pitch 70: row 1 starts at 0x10000 + 70 = 0x10046.
// EXEC 0x1F; lanes 0–3 at (x, y) = (0, 1), (5, 1), (8, 1), (12, 1): groups xa = 0, 4, 8, 12 at
// 0x10046, 0x1004a, 0x1004e, 0x10052 — lane 1's x is unaligned (xa = 4), lane 2's group, bytes
// 0x4e .. 0x51, crosses the block at 0x10050: its first block's request, then its second. Lane 4
// at (61, 1): x + 4 = 65 > 64, an invalid group (takes no part, reads 0).
// Requests of quad 0, ascending lanes, first block then second: lane 0 (block 0x1004), lane 1
// (0x1004), lane 2 (0x1004), lane 2's second (0x1005), lane 3 (0x1005): 5 requests, two bundles
// (4 + 1), each one access of line 0x10040 (bank 1), both accepted at once (queue empty or
// holding one). Steps: quad 0 two cycles, every other quad step one cycle with no request (15):
// done_ta = 17 with no stall. Cold, first beat in cycle 1: beats 1 .. 8, a = 9, quad 0's first
// bundle in a + 6 = 15, its access at bank 1's lookup head in 16: a miss (MSHR 0), the line read
// presented and accepted in 17 on channel 1; the second bundle (16), looked up in 17, merges into
// the open MSHR: 4 requests missed, 1 merged.

#[test]
fn a_group_crossing_a_block_sends_two_requests_and_an_invalid_group_reads_0() {
    let mut bench = Bench::new();
    bench.write_ramp(0x10000, 64, 0x0706_0504);
    let t = image_2d_r8(64, 70);
    let mut xy = [[0u32; 64]; 2];
    for (l, x) in [0, 5, 8, 12, 61].into_iter().enumerate() {
        (xy[0][l], xy[1][l]) = (x, 1);
    }
    let inst = multi_texel_inst(1, 0xf, 10);
    let issue = ImageIssue::of(&inst, t, 0x1f).unwrap();
    bench.send(image_beats(&issue.header, &xy, &[]));
    bench.run_until_done(1, 300);
    let c = counters(&bench.dones[0].1);
    // ta, requests, hits, misses, merged, conflicts.
    assert_eq!((c[1], c[6], c[7], c[8], c[9], c[10]), (17, 5, 0, 4, 1, 0));
    assert_eq!(bench.accepted, [(17, 1, L2_READ, 0, 0x10040)]);
    assert_ne!(bench.events & super::cover::mt_event::GROUP_CROSSES, 0);
    assert_ne!(bench.events & super::cover::mt_event::INVALID_GROUP, 0);
    let executor = executor_multi_texel(t, &xy, 0x1f, &bench, &inst);
    let byte = |a: u64| (bench.read32(a & !3) >> (8 * (a & 3))) & 0xff;
    for (l, a) in [0x10046u64, 0x1004a, 0x1004e, 0x10052].into_iter().enumerate() {
        let got: Vec<u32> = (0..4).map(|i| bench.vgprs[&(10 + i, l)]).collect();
        assert_eq!(got, (0..4).map(|i| byte(a + i)).collect::<Vec<_>>(), "lane {l}");
        assert_eq!(got, (0..4).map(|i| executor.vgprs[10 + i as usize][l]).collect::<Vec<_>>(), "lane {l}");
    }
    assert_eq!((10..14).map(|v| bench.vgprs[&(v, 4)]).collect::<Vec<_>>(), [0; 4]);
    assert!(!bench.vgprs.contains_key(&(10, 5)), "only EXEC lanes are written");
}

/// A random multi-texel T# and load for slot `i` (T# s[16i .. 16i + 7], address VGPRs from 16i,
/// results from 16i + 4): a 2D surface of R8, R16 or RG8 (width 1..=40, height 1..=8, pitch a
/// little wider, up to four levels, linear or now and then tiled, a 128-bit T# now and then) in
/// one of the rows' nfmts, one of the ops whose row takes it with the row's DMASK, the _MIP form
/// half the time, A16 now and then; one in eight unbound (dfmt 0 with any DMASK: R = 0, or a type
/// below 8: R of the row, all 0).
fn random_multi_texel(rng: &mut u64, i: u8) -> (TSharp, ImageInst) {
    use crate::image_addr::{format_row, FORMAT_TABLE};
    let mut pick = |n: u64| next(rng) % n;
    let row = FORMAT_TABLE[pick(FORMAT_TABLE.len() as u64) as usize];
    let nfmt = row.nfmts[pick(row.nfmts.len() as u64) as usize];
    let width_minus_1 = pick(40) as u16;
    let last_level = pick(4) as u8;
    let r128 = pick(4) == 0;
    let mut t = TSharp {
        base: 0x100 + pick(16),
        dfmt: row.dfmt,
        nfmt,
        width_minus_1,
        height_minus_1: pick(8) as u16,
        dst_sel: std::array::from_fn(|_| pick(8) as u8),
        base_level: pick(2) as u8 & last_level,
        last_level,
        sw_mode: if pick(4) == 0 { [1, 5, 9][pick(3) as usize] } else { 0 },
        kind: TYPE_2D,
        pitch_minus_1: width_minus_1 + [0, 1, 3, 5][pick(4) as usize],
        max_mip: last_level.saturating_sub(pick(2) as u8),
        ..TSharp::default()
    };
    let mut dmask = row.dmask;
    match pick(8) {
        0 => (t.dfmt, dmask) = (0, pick(16) as u8),
        1 => t.kind = pick(8) as u8,
        _ => {}
    }
    debug_assert!(t.dfmt == 0 || format_row(row.op, dmask, row.dfmt, nfmt).is_some());
    let inst = ImageInst {
        mip: pick(2) == 0,
        vaddr: 16 * i,
        srsrc: 16 * i,
        r128,
        glc: pick(3) == 0,
        a16: pick(4) == 0,
        ..multi_texel_inst(row.op, dmask, 16 * i + 4)
    };
    (t, inst)
}

/// Random programs of up to 8 multi-texel loads (every row of SPEC §4.3's table, _MIP forms,
/// groups past the level's right edge, unaligned x, missing mips, unbound T#s), a few image
/// stores to the same surfaces between them, issued back to back under random L2 latencies and
/// back-pressure, a quarter reset in mid-run: the VGPRs and memory the pipe leaves equal the
/// executor's.
fn random_multi_texel_programs(config: Config, seed: u64, programs: usize) {
    let mut rng = seed;
    let mut forms = [false; 8];
    let mut events = 0;
    for program in 0..programs {
        let (mut wave, mut bench) = program_start(config, program, &mut rng, 0x12000);
        let initial = bench.memory.clone();
        for v in wave.vgprs.iter_mut() {
            *v = std::array::from_fn(|_| next(&mut rng) as u32);
        }
        let n = 1 + next(&mut rng) as usize % 8;
        let mut insts = Vec::new();
        for i in 0..n as u8 {
            let (t, mut inst) = random_multi_texel(&mut rng, i);
            if next(&mut rng).is_multiple_of(6) {
                // An IMAGE_STORE of the surface's element (R8, R16 or RG8: DMASK 0x1 or 0x3).
                inst = ImageInst { kind: ImageKind::Store, dmask: 1 + (next(&mut rng) % 3) as u8, ..inst };
            } else if let ImageKind::MultiTexel { op } = inst.kind {
                forms[usize::from(op) + 4 * usize::from(inst.mip)] = true;
            }
            let (lo, hi) = t.encode();
            for k in 0..4 {
                wave.sgprs[16 * usize::from(i) + k] = (lo >> (32 * k)) as u32;
                wave.sgprs[16 * usize::from(i) + 4 + k] = (hi >> (32 * k)) as u32;
            }
            // x: anywhere in the level-0 row and two past it, a quarter at the right edge
            // (x + n > width for the last n − 1); y and the mip mostly inside.
            let width = u64::from(t.width_minus_1) + 1;
            for l in 0..64 {
                let x = match next(&mut rng) % 4 {
                    0 => width.saturating_sub(4) + next(&mut rng) % 6,
                    _ => next(&mut rng) % (width + 2),
                } as u32;
                let r = next(&mut rng);
                let y = (if r.is_multiple_of(8) {
                    r % (u64::from(t.height_minus_1) + 3)
                } else {
                    r % (u64::from(t.height_minus_1) + 1)
                }) as u32;
                let mip = (next(&mut rng) % (u64::from(t.last_level) + 2)) as u32;
                let comp = [x, y, if inst.mip { mip } else { 0x1_2345 }, 0x2_3456];
                for d in 0..4 {
                    wave.vgprs[usize::from(inst.vaddr) + d][l] =
                        if inst.a16 { comp[(2 * d) % 4] & 0xffff | comp[(2 * d + 1) % 4] << 16 } else { comp[d] };
                }
            }
            insts.push(inst);
        }
        wave.exec = [u64::MAX, next(&mut rng), next(&mut rng) & next(&mut rng), 0xffff_0000][program % 4];
        run_image_program(&mut bench, (config, program), &mut rng, &wave, &insts, 120, &initial);
        events |= bench.events;
    }
    assert_eq!(forms, [true; 8], "BY2, BY4, PCK2, PCK4, each with and without _MIP");
    assert_eq!(events & super::cover::MT_EVENTS, super::cover::MT_EVENTS, "groups crossing a block, invalid groups");
}

#[test]
fn random_multi_texel_programs_match_the_executor_at_the_default_configuration() {
    random_multi_texel_programs(Config::default(), 0x1_b7e4, 120);
}

#[test]
fn random_multi_texel_programs_match_the_executor_at_the_small_configuration() {
    random_multi_texel_programs(Config::small(), 0x2_b7e4, 120);
}
