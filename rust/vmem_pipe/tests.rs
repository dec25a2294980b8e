//! Unit tests of the `vmem_pipe` model against cycle counts derived by hand from the contract
//! (docs/decisions.md "vmem_pipe"), with a tiny inline driver: an SQ that offers queued beats
//! while `iss_ready_o` is 1, and an L2 with a fixed latency over a byte memory.

use std::collections::{HashMap, VecDeque};

use super::ports::{In, Out, KIND_ATOMIC, KIND_LOAD, KIND_STORE, L2_ATOMIC, L2_READ, L2_WRITE};
use super::VmemPipe;
use crate::exec::{atomic_result, Access, AtomicOp, BufferInst, BufferKind, Wave, D16};
use crate::unit::Unit;
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
        iss_vsharp: vsharp(0x1000),
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

/// An L2 request as the driver saw it accepted: (cycle, bank, kind, tag, address).
type Accepted = (u64, usize, u8, u8, u64);

/// The driver: SQ, L2 (latency `latency`, accepting while `l2_ready`), VGPR file.
struct Bench {
    pipe: VmemPipe,
    /// The outputs of cycle `t`.
    out: Out,
    t: u64,
    queue: VecDeque<In>,
    memory: HashMap<u64, u8>,
    latency: u64,
    l2_ready: bool,
    vgpr_ready: bool,
    /// Per bank: (due cycle, tag, line dwords).
    responses: [Vec<(u64, u8, [u32; 16])>; 4],
    accepted: Vec<Accepted>,
    vgprs: HashMap<(u8, usize), u32>,
    /// (cycle, outputs) of every cycle with a VGPR write accepted or a done.
    writes: Vec<(u64, Out)>,
    dones: Vec<(u64, Out)>,
    ready_trace: Vec<bool>,
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
        let mut pipe = VmemPipe::new();
        pipe.reset();
        Bench {
            pipe,
            out: Out::default(),
            t: 0,
            queue: VecDeque::new(),
            memory: HashMap::new(),
            latency: 50,
            l2_ready: true,
            vgpr_ready: true,
            responses: Default::default(),
            accepted: Vec::new(),
            vgprs: HashMap::new(),
            writes: Vec::new(),
            dones: Vec::new(),
            ready_trace: Vec::new(),
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
        let mut draw = |n: u64| self.rng.as_mut().map(|r| next(r) % n);
        let l2_ready: [bool; 4] = std::array::from_fn(|_| self.l2_ready && draw(4) != Some(0));
        let latency = draw(self.latency).map_or(self.latency, |l| l + 1);
        self.vgpr_ready = draw(3).map_or(self.vgpr_ready, |v| v != 0);
        for (b, &ready) in l2_ready.iter().enumerate() {
            if self.out.l2_req_valid >> b & 1 != 0 && ready {
                input.l2_req_ready |= 1 << b;
                let (kind, tag, addr) = (self.out.l2_req_kind[b], self.out.l2_req_tag[b], self.out.l2_req_addr[b]);
                self.accepted.push((t, b, kind, tag, addr));
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
                self.responses[b].push((t + latency, tag, rsp));
            }
            let due = self.responses[b].iter().enumerate().filter(|(_, r)| r.0 <= t).min_by_key(|(_, r)| r.0);
            if let Some((k, _)) = due {
                let (_, tag, data) = self.responses[b].remove(k);
                input.l2_rsp_valid |= 1 << b;
                input.l2_rsp_tag[b] = tag;
                input.l2_rsp_data[16 * b..16 * b + 16].copy_from_slice(&data);
            }
        }
        input.vgpr_ready = self.vgpr_ready;
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
        self.t += 1;
        // Idle zero: payloads are 0 where their valid is 0.
        let o = &self.out;
        if !o.vgpr_valid {
            assert_eq!((o.vgpr_addr, o.vgpr_group, o.vgpr_mask, o.vgpr_data), (0, 0, 0, [0; 16]));
        }
        if !o.done_valid {
            assert_eq!((o.done_total, o.done_requests, o.done_ta), (0, 0, 0));
        }
        for b in 0..4 {
            if o.l2_req_valid >> b & 1 == 0 {
                assert_eq!((o.l2_req_kind[b], o.l2_req_tag[b], o.l2_req_addr[b], o.l2_req_mask[b]), (0, 0, 0, 0));
            }
        }
    }

    /// Ticks until `n` instructions are done (at most `limit` cycles).
    fn run_until_done(&mut self, n: usize, limit: u64) {
        while self.dones.len() < n {
            assert!(self.t < limit, "not done by cycle {limit}");
            self.tick();
        }
    }

    fn send(&mut self, b: Vec<In>) {
        self.queue.extend(b);
    }
}

/// The done counters of one output: (issue, ta, tcp, l2, td, total, requests, hits, misses,
/// conflicts).
fn counters(o: &Out) -> [u16; 10] {
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
        o.done_conflicts,
    ]
}

#[test]
fn coalesced_dword_load_misses_then_hits() {
    let mut bench = Bench::new();
    bench.write_ramp(0x1000, 64, 0xabc0_0000);
    bench.send(beats(&load_dword(u64::MAX, 10), &consecutive(), &[]));
    bench.run_until_done(1, 200);

    // Beats at 1..4 (iss_ready is 0 in cycle 0), taken at a = 5, steps from a + 3 = 8: one bundle
    // per group (4 quads of one line each), lines 0x1000, 0x1040, 0x1080, 0x10c0 on banks 0..3,
    // each bank's first tag 0, read in 9..12 (lookup the cycle after each bundle is accepted).
    assert_eq!(bench.ready_trace[..6], [false, true, true, true, true, true]);
    let reads: Vec<Accepted> = bench.accepted.clone();
    assert_eq!(
        reads,
        vec![
            (9, 0, L2_READ, 0, 0x1000),
            (10, 1, L2_READ, 0, 0x1040),
            (11, 2, L2_READ, 0, 0x1080),
            (12, 3, L2_READ, 0, 0x10c0)
        ]
    );
    // Fills at 59..62; complete at the start of s = 63; writes at s + 4 = 67 .. 70; done at 71.
    let write_cycles: Vec<u64> = bench.writes.iter().map(|w| w.0).collect();
    assert_eq!(write_cycles, [67, 68, 69, 70]);
    for (g, (_, w)) in bench.writes.iter().enumerate() {
        assert_eq!((w.vgpr_addr, w.vgpr_group, w.vgpr_mask), (10, g as u8, 0xffff));
        assert_eq!(w.vgpr_data, std::array::from_fn(|j| 0xabc0_0000 + (16 * g + j) as u32));
    }
    let (done_cycle, done) = bench.dones[0];
    assert_eq!(done_cycle, 71);
    // issue 1..4; TA 8..11; TCP 9..12; L2 9..62; TD 63..70 (e − s + 1); total 71 − 1;
    // 16 requests (one per quad), all misses.
    assert_eq!(counters(&done), [4, 4, 4, 54, 8, 70, 16, 0, 16, 0]);

    // The same load again, sent after the first is done: every request hits.
    let t0 = bench.t;
    bench.send(beats(&load_dword(u64::MAX, 20), &consecutive(), &[]));
    bench.run_until_done(2, t0 + 100);
    // Beats t0 .. t0 + 3, a = t0 + 4, bundles accepted t0 + 7 .. t0 + 10, each hitting the cycle
    // after; complete at s = t0 + 12; writes t0 + 16 .. t0 + 19; done t0 + 20.
    let (done_cycle, done) = bench.dones[1];
    assert_eq!(done_cycle, t0 + 20);
    assert_eq!(counters(&done), [4, 4, 4, 0, 8, 20, 16, 16, 0, 0]);
    assert_eq!(bench.accepted.len(), 4, "no L2 request");
    for l in 0..64 {
        assert_eq!(bench.vgprs[&(20, l)], 0xabc0_0000 + l as u32);
    }
}

#[test]
fn a_bank_conflict_costs_one_ta_cycle() {
    let mut bench = Bench::new();
    // Group 0: lanes 0..7 in line 0x1000, lanes 8..15 in line 0x2000 (both bank 0); groups 1..3
    // consecutive from 0x1040 (banks 1..3).
    let addr: [u32; 64] = std::array::from_fn(|l| match l {
        0..8 => 4 * l as u32,
        8..16 => 0x1000 + 4 * (l as u32 - 8),
        _ => 0x40 + 4 * (l as u32 - 16),
    });
    bench.write_ramp(0x2000, 16, 0x5500);
    bench.send(beats(&load_dword(u64::MAX, 1), &addr, &[]));
    bench.run_until_done(1, 200);
    // Misses: the group 0 bundle has two accesses in bank 0, read with tags 0 and 1.
    let bank0: Vec<(u64, u8, u64)> = bench.accepted.iter().filter(|a| a.1 == 0).map(|a| (a.0, a.3, a.4)).collect();
    assert_eq!(bank0, [(9, 0, 0x1000), (10, 1, 0x2000)]);
    assert_eq!(counters(&bench.dones[0].1)[9], 1);

    let t0 = bench.t;
    bench.send(beats(&load_dword(u64::MAX, 2), &addr, &[]));
    bench.run_until_done(2, t0 + 100);
    // Hits: bundle 0 accepted at t0 + 7 takes two lookups (t0 + 8, t0 + 9); bundle 1 stalls once
    // and is accepted at t0 + 9; the last at t0 + 11, hit at t0 + 12: TA 5, TCP 5.
    let (done_cycle, done) = bench.dones[1];
    assert_eq!(counters(&done), [4, 5, 5, 0, 8, 21, 16, 16, 0, 1]);
    assert_eq!(done_cycle, t0 + 21);
    assert_eq!(bench.vgprs[&(2, 9)], 0x5501);
    assert_eq!(bench.vgprs[&(2, 17)], 0);
}

#[test]
fn a_store_is_one_masked_line_write() {
    let mut bench = Bench::new();
    // BUFFER_STORE_DWORD, OFFEN, lanes 0..3: quad 0 merges into one request (block 0x100, all 16
    // lanes' bytes); lanes 1 and 2 write the same dword, the higher lane wins.
    let header = In { iss_kind: KIND_STORE, ..load_dword(0xf, 0) };
    let addr: [u32; 64] = std::array::from_fn(|l| [0, 4, 4, 12][l % 4] + 0x10 * (l as u32 / 4));
    let data: [u32; 64] = std::array::from_fn(|l| 0x1111_0000 + l as u32);
    bench.send(beats(&header, &addr, &[data]));
    bench.tick();
    while bench.out.l2_req_valid == 0 {
        bench.tick();
    }
    // Bundle accepted at 8 (a = 5), the write presented in 9.
    assert_eq!(bench.t, 9);
    let o = bench.out;
    assert_eq!((o.l2_req_valid, o.l2_req_kind[0], o.l2_req_tag[0], o.l2_req_addr[0]), (1, L2_WRITE, 0, 0x1000));
    // Lane 0 at byte 0, lanes 1 and 2 at 4 (lane 2 wins), lane 3 at 12: bytes 8..11 unwritten.
    assert_eq!(o.l2_req_mask[0], 0xf0ff);
    assert_eq!(o.l2_req_data[..5], [0x1111_0000, 0x1111_0002, 0, 0x1111_0003, 0]);
    bench.run_until_done(1, 200);
    // Ack at 59; complete at the start of 60; done at 61 (TD 0). Steps: one request, then three
    // empty groups: TA 8..11.
    let (done_cycle, done) = bench.dones[0];
    assert_eq!(done_cycle, 61);
    assert_eq!(counters(&done), [4, 4, 1, 51, 0, 60, 1, 0, 0, 0]);
    assert_eq!(bench.read32(0x1004), 0x1111_0002);
    assert!(bench.writes.is_empty());
}

#[test]
fn iss_ready_falls_when_both_buffers_are_full() {
    let mut bench = Bench::new();
    bench.l2_ready = false;
    for v in 0..4 {
        bench.send(beats(&load_dword(u64::MAX, 8 * v), &consecutive(), &[]));
    }
    for _ in 0..25 {
        bench.tick();
    }
    // Instruction 1 in buffer 0 (1..4), taken at 5 (freed at the edge of 8); 2 in buffer 1
    // (5..8), taken at 9 (held: 2, the first never finishes its steps); 3 in buffer 0 (9..12);
    // 4 in buffer 1 (13..16); then both buffers hold a complete instruction.
    let mut expected = vec![false];
    expected.extend([true; 16]);
    expected.extend([false; 8]);
    assert_eq!(bench.ready_trace, expected);
    // Bank 0 presents its read from 9 on, unchanged (tag 0).
    assert_eq!((bench.out.l2_req_valid, bench.out.l2_req_tag[0], bench.out.l2_req_addr[0]), (1, 0, 0x1000));
    bench.l2_ready = true;
    bench.run_until_done(4, 600);
    assert!(bench.queue.is_empty());
    assert_eq!(bench.vgprs[&(24, 63)], 0);
}

#[test]
fn an_atomic_with_glc_returns_the_old_value() {
    let mut bench = Bench::new();
    bench.write32(0x1004, 100);
    // BUFFER_ATOMIC_ADD, GLC, OFFEN, lane 0 at 0x1004, data 5.
    let header =
        In { iss_kind: KIND_ATOMIC, iss_op: 2, iss_access: 2, iss_glc: true, iss_vdata: 7, ..load_dword(1, 0) };
    let mut addr = [0u32; 64];
    addr[0] = 4;
    let mut data = [0u32; 64];
    data[0] = 5;
    bench.send(beats(&header, &addr, &[data]));
    bench.run_until_done(1, 200);
    // 16 steps (atomics: one per quad), 8..23; the atomic on bank 0 at 9 (tag 0, its byte
    // address), answered at 59; complete at 60; one write at 64; done at 65.
    assert_eq!(bench.accepted, [(9, 0, L2_ATOMIC, 0, 0x1004)]);
    assert_eq!(bench.read32(0x1004), 105);
    assert_eq!(bench.writes.len(), 1);
    let (t, w) = bench.writes[0];
    assert_eq!((t, w.vgpr_addr, w.vgpr_group, w.vgpr_mask, w.vgpr_data[0]), (64, 7, 0, 1, 100));
    assert_eq!(counters(&bench.dones[0].1), [4, 16, 1, 51, 5, 64, 1, 0, 0, 0]);
}

#[test]
fn a_format_load_unpacks_and_writes_four_dwords() {
    let mut bench = Bench::new();
    bench.write32(0x1000, 0x0403_0201);
    // BUFFER_LOAD_FORMAT_XYZW of an 8_8_8_8 uint V# (dfmt 10), lane 0, no OFFEN.
    let header = In {
        iss_sized: false,
        iss_access: 0,
        iss_count: 4,
        iss_dfmt: 10,
        iss_dst_sel: 4 | 5 << 3 | 6 << 6 | 7 << 9,
        iss_offen: false,
        iss_vsharp: sized_vsharp(0x1000, 0x100, 10),
        ..load_dword(1, 30)
    };
    bench.send(beats(&header, &[0; 64], &[]));
    bench.run_until_done(1, 200);
    // Not single-component (count 4): 16 steps, 8..23; read at 9, fill at 59; s = 60; writes
    // 64..67; done 68.
    let got: Vec<(u64, u8, u32)> = bench.writes.iter().map(|(t, w)| (*t, w.vgpr_addr, w.vgpr_data[0])).collect();
    assert_eq!(got, [(64, 30, 1), (65, 31, 2), (66, 32, 3), (67, 33, 4)]);
    assert_eq!(counters(&bench.dones[0].1), [4, 16, 1, 51, 8, 67, 1, 0, 1, 0]);
}

#[test]
fn a_write_waits_for_vgpr_ready() {
    let mut bench = Bench::new();
    // Lanes 0..15 only: group 0 is one bundle (one read, bank 0, at 9), groups 1..3 empty steps
    // (TA 8..11); the fill at 59 completes it: s = 60, its one write presented from 64.
    bench.send(beats(&load_dword(0xffff, 3), &consecutive(), &[]));
    while bench.t < 64 {
        bench.tick();
    }
    assert!(bench.out.vgpr_valid);
    // Not accepted in 64 and 65: still presented, unchanged, in 66.
    bench.vgpr_ready = false;
    bench.tick();
    bench.tick();
    assert_eq!((bench.out.vgpr_valid, bench.out.vgpr_addr, bench.out.vgpr_mask), (true, 3, 0xffff));
    bench.vgpr_ready = true;
    bench.run_until_done(1, 200);
    // Accepted at e = 66; done at 67; TD 66 − 60 + 1 = 7.
    let (t, done) = bench.dones[0];
    assert_eq!(t, 67);
    assert_eq!(counters(&done), [4, 4, 1, 51, 7, 66, 4, 0, 4, 0]);
    assert_eq!(bench.writes.iter().map(|w| w.0).collect::<Vec<_>>(), [66]);
}

#[test]
fn reset_clears_every_output() {
    let mut bench = Bench::new();
    bench.l2_ready = false;
    bench.send(beats(&load_dword(u64::MAX, 0), &consecutive(), &[]));
    for _ in 0..12 {
        bench.tick();
    }
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
    let header =
        In::issue_header(inst, wave.descriptor(inst.srsrc).unwrap(), wave.scalar(inst.soffset).unwrap(), wave.exec);
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

/// Random programs of up to 12 buffer instructions, issued back to back under random L2
/// latencies and back-pressure: the VGPRs and memory the pipe leaves equal the executor's.
#[test]
fn random_programs_match_the_executor() {
    let mut rng = 0x5eed_u64;
    for program in 0..150 {
        let mut wave = Wave::default();
        let mut bench = Bench::new();
        bench.latency = [1, 8, 60][program % 3];
        bench.rng = Some(next(&mut rng));
        // Memory: random bytes over 0x10000 .. 0x12000.
        for a in (0x10000..0x12000u64).step_by(4) {
            let v = next(&mut rng) as u32;
            wave.memory.write(a, 4, u128::from(v));
            bench.write32(a, v);
        }
        wave.sgprs[100] = next(&mut rng) as u32 % 64;
        let n = 1 + next(&mut rng) as usize % 12;
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
                base: (0x10000 + pick(&mut rng, 0x400)) & !(if pick(&mut rng, 2) == 0 { 3 } else { 0 }) & !wide_mask,
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
        for inst in &insts {
            bench.send(issue_of(inst, &wave));
        }
        let mut executor = wave.clone();
        let mut models = crate::exec::Models::default();
        for inst in &insts {
            crate::exec::run_buffer(&mut executor, inst, &mut models).unwrap();
        }
        bench.run_until_done(n, 20_000);
        let context = || format!("program {program}: {insts:#?}");
        for (&(v, l), &d) in &bench.vgprs {
            assert_eq!(d, executor.vgprs[usize::from(v)][l], "v{v} lane {l}; {}", context());
        }
        for v in 0..256 {
            for l in 0..64 {
                if !bench.vgprs.contains_key(&(v as u8, l)) {
                    assert_eq!(before.vgprs[v][l], executor.vgprs[v][l], "v{v} lane {l} not written; {}", context());
                }
            }
        }
        for (a, bytes) in executor.memory.changes_since(&before.memory) {
            for (k, &b) in bytes.iter().enumerate() {
                let at = a + k as u64;
                assert_eq!(bench.memory.get(&at).copied().unwrap_or(0), b, "memory {at:#x}; {}", context());
            }
        }
        for (&a, &b) in &bench.memory {
            assert_eq!(executor.memory.read_byte(a), b, "memory {a:#x}; {}", context());
        }
        assert!(bench.pipe.idle());
    }
}

#[test]
fn a_partly_out_of_range_dwordx4_store_writes_its_dwords_in_range() {
    let mut bench = Bench::new();
    // BUFFER_STORE_DWORDX4, OFFEN, lane 0 at offset 8 of a 16-byte raw buffer at 0x1000: dwords
    // 0 and 1 (bytes 8..15) in range, 2 and 3 not. The access straddles blocks 0x100 and 0x101:
    // two per-lane requests (the second's mask empty), one access of line 0x1000 on bank 0.
    let header = In {
        iss_kind: KIND_STORE,
        iss_bytes: 16,
        iss_count: 4,
        iss_dfmt: 14,
        iss_vsharp: sized_vsharp(0x1000, 16, 4),
        ..load_dword(1, 0)
    };
    let mut addr = [0u32; 64];
    addr[0] = 8;
    let data: Vec<[u32; 64]> = (0..4).map(|d| std::array::from_fn(|l| if l == 0 { 0xd0 + d } else { 0 })).collect();
    bench.send(beats(&header, &addr, &data));
    // 16 beats (D = 4) at 1..16; a = 17; 16 steps 20..35; the write presented at 21.
    while bench.t < 21 {
        bench.tick();
    }
    let o = bench.out;
    assert_eq!((o.l2_req_valid, o.l2_req_kind[0], o.l2_req_addr[0], o.l2_req_mask[0]), (1, L2_WRITE, 0x1000, 0xff00));
    assert_eq!(o.l2_req_data[..5], [0, 0, 0xd0, 0xd1, 0]);
    bench.run_until_done(1, 200);
    // Ack at 71; complete at 72; done at 73.
    assert_eq!(bench.dones[0].0, 73);
    assert_eq!(counters(&bench.dones[0].1), [16, 16, 1, 51, 0, 72, 2, 0, 0, 0]);
}

#[test]
fn a_load_behind_a_miss_waits_for_the_fills_and_hits() {
    let mut bench = Bench::new();
    bench.write_ramp(0x1000, 64, 0x7700);
    bench.send(beats(&load_dword(u64::MAX, 10), &consecutive(), &[]));
    bench.send(beats(&load_dword(u64::MAX, 20), &consecutive(), &[]));
    bench.run_until_done(2, 200);
    // The first as alone: reads at 9..12, fills at 59..62, s = 63, done 71.
    assert_eq!(bench.dones[0].0, 71);
    assert_eq!(counters(&bench.dones[0].1), [4, 4, 4, 54, 8, 70, 16, 0, 16, 0]);
    // The second: beats 5..8, taken at 9 (one held by the step stage); its steps start at 12
    // (the first's last step is 11; group 0 is available at 9 + 3); its first bundle, accepted
    // at 12, waits for bank 0's fill (59) and hits at 60; the next bundles are accepted at 60,
    // 61, 62 and hit at 61, 62, 63 (each bank's fill visible from the cycle after it). TA 12..62,
    // TCP 13..63. Complete at 64, but the TD is busy with the first until 70: s = 71, writes
    // 75..78, done 79.
    assert_eq!(bench.dones[1].0, 79);
    assert_eq!(counters(&bench.dones[1].1), [4, 51, 51, 0, 8, 74, 16, 16, 0, 0]);
    let second: Vec<u64> = bench.writes.iter().filter(|w| w.1.vgpr_addr == 20).map(|w| w.0).collect();
    assert_eq!(second, [75, 76, 77, 78]);
    assert_eq!(bench.accepted.len(), 4);
    assert_eq!(bench.vgprs[&(20, 33)], 0x7700 + 33);
}

#[test]
fn glc_loads_read_the_l2_and_do_not_allocate() {
    let mut bench = Bench::new();
    let glc = In { iss_glc: true, ..load_dword(u64::MAX, 10) };
    bench.send(beats(&glc, &consecutive(), &[]));
    bench.run_until_done(1, 200);
    // As a GLC = 0 miss: one read per access (4), its 16 requests count as misses.
    assert_eq!(counters(&bench.dones[0].1), [4, 4, 4, 54, 8, 70, 16, 0, 16, 0]);
    // A GLC = 0 load of the same lines still misses (nothing was allocated), tags from 0 again.
    let t0 = bench.t;
    bench.send(beats(&load_dword(u64::MAX, 20), &consecutive(), &[]));
    bench.run_until_done(2, t0 + 200);
    assert_eq!(counters(&bench.dones[1].1), [4, 4, 4, 54, 8, 70, 16, 0, 16, 0]);
    let reads: Vec<(u64, usize, u8)> = bench.accepted[4..].iter().map(|a| (a.0 - t0, a.1, a.3)).collect();
    assert_eq!(reads, [(8, 0, 0), (9, 1, 0), (10, 2, 0), (11, 3, 0)]);
    // A GLC = 1 load of lines now resident still reads the L2.
    let t1 = bench.t;
    bench.send(beats(&glc, &consecutive(), &[]));
    bench.run_until_done(3, t1 + 200);
    assert_eq!(counters(&bench.dones[2].1)[7..], [0, 16, 0]);
    assert_eq!(bench.accepted.len(), 12);
}

#[test]
fn the_model_is_a_send_unit_named_vmem_pipe() {
    fn send<T: Send>() {}
    send::<VmemPipe>();
    assert_eq!(<VmemPipe as Unit>::NAME, "vmem_pipe");
    // Built, it is as just out of reset: every output 0 until the first edge.
    let mut pipe = VmemPipe::default();
    assert!(pipe.idle() && pipe.in_flight() == 0 && pipe.cycle() == 0);
    assert_eq!(pipe.step(&In::default()), Out { iss_ready: true, ..Out::default() });
    assert_eq!(pipe.cycle(), 1);
}
