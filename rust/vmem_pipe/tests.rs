//! Unit tests of the `vmem_pipe` model against cycle counts derived by hand from the contract
//! (docs/decisions.md "vmem_pipe"), with a tiny inline driver: an SQ that offers queued beats
//! while `iss_ready_o` is 1, and an L2 with a fixed latency over a byte memory.

use std::collections::{HashMap, VecDeque};

use super::ports::{In, Out, KIND_ATOMIC, KIND_LOAD, KIND_STORE, L2_ATOMIC, L2_READ, L2_WRITE};
use super::VmemPipe;
use crate::exec::{atomic_result, AtomicOp};
use crate::unit::Unit;
use crate::vsharp::VSharp;

/// A bound raw buffer at `base` (dfmt 4 = 32, nfmt 4 = uint), large enough for every test.
fn vsharp(base: u64) -> u128 {
    VSharp { base, num_records: 0x10_0000, dst_sel: [4, 5, 6, 7], nfmt: 4, dfmt: 4, ..VSharp::default() }.encode()
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
        for b in 0..4 {
            if self.out.l2_req_valid >> b & 1 != 0 && self.l2_ready {
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
                        // 32-bit operations only here.
                        assert!(self.out.l2_req_wide == 0);
                        let op = [AtomicOp::Swap, AtomicOp::Cmpswap, AtomicOp::Add][usize::from(self.out.l2_req_op[b])];
                        let old = self.read32(addr);
                        let data = u64::from(self.out.l2_req_data[16 * b]);
                        let cmp = u64::from(self.out.l2_req_data[16 * b + 2]);
                        self.write32(addr, atomic_result(op, false, u64::from(old), data, cmp) as u32);
                        if self.out.l2_req_return >> b & 1 != 0 {
                            rsp[0] = old;
                        }
                    }
                    _ => panic!("kind {kind}"),
                }
                self.responses[b].push((t + self.latency, tag, rsp));
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
    for l in 0..64u64 {
        bench.write32(0x1000 + 4 * l, 0xabc0_0000 + l as u32);
    }
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
    for l in 0..16u64 {
        bench.write32(0x2000 + 4 * l, 0x5500 + l as u32);
    }
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
    let v = VSharp { base: 0x1000, num_records: 0x100, dst_sel: [4, 5, 6, 7], nfmt: 4, dfmt: 10, ..VSharp::default() };
    let header = In {
        iss_sized: false,
        iss_access: 0,
        iss_count: 4,
        iss_dfmt: 10,
        iss_dst_sel: 4 | 5 << 3 | 6 << 6 | 7 << 9,
        iss_offen: false,
        iss_vsharp: v.encode(),
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
