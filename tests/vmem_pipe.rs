//! `vmem_pipe` (SPEC §14): the pipeline's timing against seed 003's buffer rows and the cost
//! model, on the model and the RTL in lockstep; instruction-level equality with the executor on
//! random programs; the test-only mutant caught; every assertion of
//! the RTL fires on the break-asserts build; `exec --pipeline`.

use gcn_vmem::bindings::vmem_pipe::programs::{self, PipeCase};
use gcn_vmem::bindings::vmem_pipe::suite;
use gcn_vmem::bindings::vmem_pipe::testbench::{Config, PipeRun, Timing};
use gcn_vmem::engine::lockstep::Lockstep;
use gcn_vmem::engine::{RtlOptions, RtlUnit as _, Variant};
use gcn_vmem_model::cost::{self, Fetch, Op};
use gcn_vmem_model::exec::Wave;
use gcn_vmem_model::isa::{self, Instruction};
use gcn_vmem_model::vmem_pipe::{In, Out, VmemPipe};

type Rtl = gcn_vmem::bindings::vmem_pipe::Rtl;

/// A wave whose V# (s[4:7]) is a raw buffer of 1 MiB at 0x10000, v1 = lane × `stride` bytes,
/// v8..v11 data, and memory filled with a byte pattern.
fn wave(stride: u32) -> Wave {
    let mut w = Wave::default();
    let vsharp: u128 = 0x10000 | 0x10_0000u128 << 64 | 0xfacu128 << 96 | 4u128 << 108 | 4u128 << 111;
    for i in 0..4 {
        w.sgprs[4 + i] = (vsharp >> (32 * i)) as u32;
    }
    for l in 0..64 {
        w.vgprs[1][l] = l as u32 * stride;
        for v in 8..12 {
            w.vgprs[v][l] = (v as u32) << 24 | l as u32;
        }
    }
    for k in 0..0x4000u64 {
        w.memory.write(0x10000 + k, 1, u128::from((k * 7 + 3) as u8));
    }
    w
}

fn asm(text: &str) -> Instruction {
    isa::assemble(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn no_coverage(_: &VmemPipe, _: &In, _: &Out) {}

/// Runs `case` on model and RTL (`variant`; the small build when the case asks for it) in
/// lockstep, then against the executor.
fn check(case: &PipeCase, variant: Variant) -> Result<PipeRun, String> {
    let options = RtlOptions { variant, ..RtlOptions::default() };
    let mut ls = suite::open_at(&options, case.config.small).expect("the vmem_pipe RTL opens");
    suite::check_case(&mut ls, case, no_coverage)
}

/// Runs `program` on model and RTL in lockstep with the default testbench; the timings.
fn timings(program: &[&str], wave: &Wave) -> Vec<Timing> {
    let insts: Vec<Instruction> = program.iter().map(|t| asm(t)).collect();
    let case = PipeCase { wave: wave.clone(), program: insts, config: Config::default() };
    check(&case, Variant::AsWritten).unwrap_or_else(|e| panic!("{program:?}: {e}")).timings
}

/// One of seed 003's buffer rows: the instruction measured (after a warm-up copy of it and
/// `s_waitcnt vmcnt(0)`, so every load hits), the lane stride, and the cost model's fetch.
struct Row {
    name: &'static str,
    inst: &'static str,
    stride: u32,
    fetch: Fetch,
}

/// A row whose fetch is a buffer load (`data_dwords` 0) or store of `data_dwords` dwords, one
/// address dword, single-component (`single`) or not.
fn row(name: &'static str, inst: &'static str, stride: u32, data_dwords: u32, single: bool) -> Row {
    let op = if data_dwords == 0 { Op::BufferLoad } else { Op::BufferStore };
    Row { name, inst, stride, fetch: Fetch { op, address_dwords: 1, data_dwords, single, ..Fetch::default() } }
}

#[test]
fn seed003_buffer_rows_meet_the_cost_model_on_the_rtl() {
    let rows = [
        row("single-channel load, coalesced", "buffer_load_dword v20, v1, s[4:7], 0 offen", 4, 0, true),
        row("single-channel ushort load, coalesced", "buffer_load_ushort v20, v1, s[4:7], 0 offen", 2, 0, true),
        row("multi-channel load (dwordx4)", "buffer_load_dwordx4 v[20:23], v1, s[4:7], 0 offen", 16, 0, false),
        row("multi-channel load (dwordx2)", "buffer_load_dwordx2 v[20:21], v1, s[4:7], 0 offen", 8, 0, false),
        row("single-channel store, coalesced", "buffer_store_dword v8, v1, s[4:7], 0 offen", 4, 1, true),
        row("multi-channel store (dwordx4)", "buffer_store_dwordx4 v[8:11], v1, s[4:7], 0 offen", 16, 4, false),
    ];
    let mut report = String::new();
    for row in &rows {
        let w = wave(row.stride);
        let t = timings(&[row.inst, "s_waitcnt vmcnt(0)", row.inst], &w);
        let measured = t.last().expect("the measured instruction is done");
        let cost = cost::cost(&row.fetch).expect("the row costs");
        report.push_str(&format!(
            "{}: issue {} (model {}), TA {} (model {}), hits {}, misses {}, conflicts {}\n",
            row.name,
            measured.issue,
            cost.issue_cycles,
            measured.ta,
            cost.cycles_per_wave,
            measured.hits,
            measured.misses,
            measured.conflicts
        ));
        assert_eq!(u32::from(measured.issue), cost.issue_cycles, "{}: issue cycles", row.name);
        assert_eq!(f64::from(measured.ta), cost.cycles_per_wave, "{}: TA cycles", row.name);
        assert_eq!(measured.conflicts, 0, "{}", row.name);
        if row.fetch.op == Op::BufferLoad {
            assert_eq!((measured.misses, measured.hits > 0), (0, true), "{}: all hits after the warm-up", row.name);
        }
    }
    insta::assert_snapshot!(report);
}

#[test]
fn a_straddling_lane_costs_ta_cycles_and_a_miss_then_hit_shows_the_l2() {
    // dwordx2 (multi-component: four lanes a cycle, 16 cycles): lane 5's 8 bytes at 44 cover
    // bytes 12..15 of block 2 and 0..3 of block 3, so quad 1's step has five requests: two
    // cycles. (Single-component accesses cannot straddle: SPEC §2 aligns them to their size.)
    let mut w = wave(8);
    w.vgprs[1][5] = 44;
    let load = "buffer_load_dwordx2 v[20:21], v1, s[4:7], 0 offen";
    let t = timings(&[load, "s_waitcnt vmcnt(0)", load], &w);
    // Cold: 65 requests (one per lane, lane 5 two) over 8 lines; the first access of each line
    // misses, and later accesses of that line join its MSHR (8 targets: at most 7 join) instead
    // of waiting, so the L2's latency, not the TCP, holds the instruction longest.
    assert_eq!(t[0].requests, 65);
    assert_eq!(t[0].misses + t[0].merged + t[0].hits, t[0].requests, "{:?}", t[0]);
    assert!(t[0].misses >= 8 && t[0].merged > 0, "eight lines at least, and merges: {:?}", t[0]);
    assert_eq!(t[0].bound().name(), "l2", "{:?}", t[0]);
    // Warm: every request hits, and the TA takes 16 + 1 cycles.
    assert_eq!((t[1].misses, t[1].hits), (0, 65));
    assert_eq!(t[1].ta, 17, "{:?}", t[1]);
    assert_eq!(t[1].conflicts, 0);
}

#[test]
fn atomics_run_at_the_tcc_rates() {
    // Seed 003: the TA takes 4 atomic lanes per cycle (16 cycles a wave, the cost model's row),
    // and the TCC executes at most 3 atomics without return, 1 with return, per cycle. With one
    // lane per line and the four lanes of a step in four banks, each step's bundle waits for the
    // L2: ceil(4 / rate) cycles a step, so the TA takes 16 × 2 and 16 × 4 cycles, bound by the L2.
    let cost =
        cost::cost(&Fetch { op: Op::BufferAtomic, address_dwords: 1, data_dwords: 1, ..Fetch::default() }).unwrap();
    assert_eq!(cost.cycles_per_wave, 16.0);
    // A short L2 latency, so that MSHRs (atomics with return) never run out.
    for (inst, rate) in
        [("buffer_atomic_add v8, v1, s[4:7], 0 offen", 3u16), ("buffer_atomic_add v8, v1, s[4:7], 0 offen glc", 1)]
    {
        let case = PipeCase {
            wave: wave(64),
            program: vec![asm(inst)],
            config: Config { latency: (1, 1), ..Config::default() },
        };
        let t = check(&case, Variant::AsWritten).unwrap_or_else(|e| panic!("{inst}: {e}")).timings;
        let measured = &t[0];
        assert_eq!(u32::from(measured.issue), cost.issue_cycles, "{inst}");
        // 64 atomics, one per lane and line, at most `rate` taken a cycle: the L2 takes the
        // last at least ⌈64 / rate⌉ − 1 cycles after the first and answers it a cycle later, so
        // the L2 cycles (first acceptance to last response, inclusive) exceed ⌈64 / rate⌉.
        assert!(measured.l2 > 64u16.div_ceil(rate), "{inst}: the L2's rate binds: {measured:?}");
        // The TA is held back by the lookup and L2 queues once they fill: more than its 16
        // cycles of four lanes, but the queues (4 + 2 per bank) let it run ahead of the L2.
        assert!(measured.ta > 16 && measured.ta <= measured.l2, "{inst}: {measured:?}");
        assert_eq!(measured.conflicts, 0, "{inst}");
    }
}

/// A wave whose T# (s[8:15], 256 bits) is a `size` × `size` 2D surface of 32-bit uint texels
/// (dfmt 4) at 0x20000 with `sw_mode` and a pitch of `pitch` texels, every texel in memory
/// (written through the executor's own image path, so the layout is SPEC §4.4's or §4.5's), and
/// v16/v17 the lanes' (x, y): lane 4q + i at (x0 + 2(q mod 4) + i mod 2, y0 + 2⌊q/4⌋ + ⌊i/2⌋) —
/// sixteen 2×2 quads, row-major over an 8 × 8 tile, as a pixel shader's quads.
fn image_wave(size: u32, sw_mode: u8, pitch: u32, (x0, y0): (u32, u32)) -> Wave {
    let mut w = Wave::default();
    let lo: u128 = 0x200
        | 4u128 << 52
        | 4u128 << 58
        | u128::from(size - 1) << 64
        | u128::from(size - 1) << 78
        | 0xfacu128 << 96
        | u128::from(sw_mode) << 116
        | 9u128 << 124;
    let hi: u128 = u128::from(pitch - 1) << 13 | 15u128 << 60;
    for k in 0..4 {
        w.sgprs[8 + k] = (lo >> (32 * k)) as u32;
        w.sgprs[12 + k] = (hi >> (32 * k)) as u32;
    }
    // Every texel (x, y) holds y << 16 | x: stored by image_store from a scratch wave.
    let mut fill = w.clone();
    let mut models = gcn_vmem_model::exec::Models::default();
    for row in 0..size {
        for l in 0..64u32 {
            let x = l % size.min(64);
            fill.vgprs[16][l as usize] = x;
            fill.vgprs[17][l as usize] = row;
            fill.vgprs[0][l as usize] = row << 16 | x;
        }
        gcn_vmem_model::exec::run(&mut fill, &asm("image_store v0, v[16:17], s[8:15] dmask:0x1 unorm"), &mut models)
            .expect("the surface is filled");
    }
    w.memory = fill.memory;
    for l in 0..64u32 {
        let (q, i) = (l / 4, l % 4);
        w.vgprs[16][l as usize] = x0 + 2 * (q % 4) + i % 2;
        w.vgprs[17][l as usize] = y0 + 2 * (q / 4) + i / 2;
        w.vgprs[0][l as usize] = 0xd000_0000 | l;
    }
    w
}

#[test]
fn seed003_image_point_rows_meet_the_cost_model_on_the_rtl() {
    // Seed 003: point-sampled image loads and stores, any format, 4 texels a cycle: a wave whose
    // every request hits takes 16 TA cycles; a 2D access with a 256-bit T# issues in
    // max(command, 2 address, data) cycles. Each row after a warm-up copy and
    // `s_waitcnt vmcnt(0)` (stores: every line resident, written through).
    let rows = [
        ("image load, one component", "image_load v20, v[16:17], s[8:15] dmask:0x1 unorm", 0),
        ("image load, DMASK 0xF", "image_load v[20:23], v[16:17], s[8:15] dmask:0xf unorm", 0),
        ("image store, one component", "image_store v0, v[16:17], s[8:15] dmask:0x1 unorm", 1),
    ];
    // Linear with a pitch of 80 texels (a quad's two rows in neighbouring banks) and 4KB_S (a
    // quad in one line): no bank conflict either way.
    for (sw_mode, pitch, layout) in [(0u8, 80, "linear"), (5, 64, "4KB_S")] {
        let w = image_wave(64, sw_mode, pitch, (8, 8));
        for (name, inst, data_dwords) in rows {
            let t = timings(&[inst, "s_waitcnt vmcnt(0)", inst], &w);
            let measured = t.last().expect("the measured instruction is done");
            let op = if data_dwords == 0 { Op::ImageLoad } else { Op::ImageStore };
            let fetch = Fetch { op, tsharp_bits: 256, address_dwords: 2, data_dwords, ..Fetch::default() };
            let cost = cost::cost(&fetch).expect("the row costs");
            assert_eq!(u32::from(measured.issue), cost.issue_cycles, "{layout} {name}: issue cycles {measured:?}");
            assert_eq!(f64::from(measured.ta), cost.cycles_per_wave, "{layout} {name}: TA cycles {measured:?}");
            assert_eq!(measured.conflicts, 0, "{layout} {name}: {measured:?}");
            if op == Op::ImageLoad {
                assert_eq!((measured.misses, measured.requests), (0, 64), "{layout} {name}: all hits {measured:?}");
            }
        }
    }
}

/// An image atomic scenario: the instruction, its EXEC, and the done_ta / done_l2 / done_issue /
/// requests derived by hand (`image_atomic_cases`).
struct AtomicCase {
    name: &'static str,
    inst: &'static str,
    exec: u64,
    ta: u16,
    l2: u16,
    issue: u16,
    requests: u16,
}

/// Image atomics on `image_wave`'s linear 64 × 64 surface of 4-byte texels (pitch 64, at
/// 0x20000), lane 4q + i at texel (16i + q, 0): its dword 0x20000 + 4(16i + q) lies in bank i
/// (address bits 7:6 = i), each lane its own. Testbench L2: latency 1, no back-pressure, at
/// most 3 atomics a cycle without return and 1 with return, channels in order 0..3.
///
/// Common timeline (docs/decisions.md "vmem_pipe", "Images"): A = 2 address dwords (x, y), D =
/// 1 data dword per operand, B = max(4, 4A, 4D) = 8 beats (done_issue 8). The step stage
/// starts at s = a + 6 and takes 16 quad steps; a quad step of n requests is ⌈n/4⌉ bundles, or
/// ⌈n/2⌉ with GLC or a compare-swap, one bundle a cycle unless a lookup queue (4 entries) is
/// full at the start of the cycle. An access accepted at the edge of t is looked up in t + 1
/// when at its queue's head; an atomic's lookup needs a free entry of its bank's L2 queue (2) at
/// the start of the cycle (and with GLC an MSHR and a return entry: with latency 1 an MSHR is
/// free again three cycles after its lookup, so they never run out here); the request is
/// presented from the next cycle and leaves at the edge that accepts it; its response comes one
/// cycle after its acceptance. done_l2 = first acceptance .. last response, inclusive.
///
/// 1. add, no return, EXEC 0x7777…: three lanes a quad (banks 0, 1, 2), 48 atomics. A quad step
///    is one bundle of 3, one request per bank: the lookup queues never hold more than one
///    access, each bank looks up one a cycle and pushes one a cycle, and the L2 takes the
///    three channels' requests every cycle (its rate, 3). Steps s .. s + 15: done_ta 16 (the
///    TA's four lanes a cycle). Acceptances s + 2 .. s + 17, the last response s + 18: done_l2
///    = 17 (48 / 3 = 16 cycles of acceptances, + 1 of latency).
/// 2. compare-swap, no return, EXEC all: 64 atomics, two bundles of 2 a quad step (lanes 4q,
///    4q + 1 in banks 0, 1 at s + 2q; 4q + 2, 4q + 3 in banks 2, 3 at s + 2q + 1): each bank
///    gets an access every other cycle and at most two channels present a cycle (under the
///    rate 3): done_ta 32 (two lanes a cycle). Acceptances s + 2 .. s + 33: done_l2 = 33.
/// 3. add with return (GLC), EXEC 0x1111…: one lane a quad, all in bank 0: 16 bundles of 1 in
///    s .. s + 15 (done_ta 16), bank 0 looks up one a cycle, channel 0 presents one a cycle and
///    the L2 takes it (its rate with return, 1): acceptances s + 2 .. s + 17, done_l2 17.
/// 4. add with return, EXEC 0x3333…: lanes 4q, 4q + 1 in banks 0, 1, 32 atomics, one bundle of
///    2 a quad step, but the L2 takes one a cycle and channel 0 first: channel 1 is taken only
///    in a cycle where channel 0 presents nothing. State at the start of each cycle, (lookup
///    queue 0, lookup queue 1; L2 queue 0, L2 queue 1):
///    s (0,0;0,0) bundle 0; s+1 (1,1;0,0) bundle 1, both banks push; s+2 (1,1;1,1) bundle 2,
///    ch0 taken; s+3 (1,1;1,2) bundle 3, bank 1 waits (L2 queue full); s+4 (1,2;1,2) bundle 4;
///    s+5 (1,3;1,2) bundle 5; s+6 (1,4;1,2) stall (queue 1 full), bank 0 pushes its last;
///    s+7 (0,4;1,2) stall, ch0 taken; s+8 (0,4;0,2) stall, ch1 taken, bank 1 still waits;
///    s+9 (0,4;0,1) stall, bank 1 pushes, ch1 taken; s+10 (0,3;0,1) bundle 6, bank 1 pushes,
///    ch1 taken; s+11 (1,3;0,1) bundle 7, both push, ch1 taken (ch0 empty at the start);
///    s+12 (1,3;1,1) bundle 8, both push, ch0 taken; s+13 (1,3;1,2) bundle 9, bank 1 waits;
///    s+14 (1,4;1,2) stall, bank 0 pushes; s+15 stall, ch0 taken; s+16 stall, ch1 taken;
///    s+17 (0,4;0,1) stall, bank 1 pushes, ch1 taken; s+18 = the state of s+10. So four
///    bundles every 8 cycles from s+10: bundles 6–9 at s+10..13, 10–13 at s+18..21, 14 and 15
///    at s+26, s+27: done_ta 28 (the L2's rate holds the TA back). The L2 takes one every cycle
///    from s+2 (an L2 queue, once it holds a request, is refilled by its bank's lookup in the
///    cycle its head leaves, and bank 1's stays backed up): acceptances s+2 .. s+33, done_l2 =
///    32 + 1 = 33 (the L2's one atomic with return a cycle).
/// 5. add, no return, EXEC all: four lanes a quad in banks 0..3, 64 atomics, one bundle of 4 a
///    quad step, the L2 taking 3 a cycle, channels 0..3 in order. Banks 0, 1, 2 see the same
///    accesses at the same cycles, so channels 0–2 present together (all three taken: the rate
///    is 3) or not at all, and channel 3 is taken only in a cycle where they present nothing:
///    case 4's timeline with banks 0–2 as its bank 0 and bank 3 as its bank 1. done_ta 28;
///    acceptances in each cycle s+2 .. s+33 (three or one), done_l2 33.
fn image_atomic_cases() -> [AtomicCase; 5] {
    let every = |quad: u64| (0..16).fold(0u64, |e, q| e | quad << (4 * q));
    [
        AtomicCase {
            name: "add, no return, 3 lanes a quad",
            inst: "image_atomic_add v0, v[16:17], s[8:15] dmask:0x1 unorm",
            exec: every(0x7),
            ta: 16,
            l2: 17,
            issue: 8,
            requests: 48,
        },
        AtomicCase {
            name: "cmpswap, no return",
            inst: "image_atomic_cmpswap v[0:1], v[16:17], s[8:15] dmask:0x3 unorm",
            exec: u64::MAX,
            ta: 32,
            l2: 33,
            issue: 8,
            requests: 64,
        },
        AtomicCase {
            name: "add with return, 1 lane a quad",
            inst: "image_atomic_add v0, v[16:17], s[8:15] dmask:0x1 unorm glc",
            exec: every(0x1),
            ta: 16,
            l2: 17,
            issue: 8,
            requests: 16,
        },
        AtomicCase {
            name: "add with return, 2 lanes a quad",
            inst: "image_atomic_add v0, v[16:17], s[8:15] dmask:0x1 unorm glc",
            exec: every(0x3),
            ta: 28,
            l2: 33,
            issue: 8,
            requests: 32,
        },
        AtomicCase {
            name: "add, no return, 4 lanes a quad",
            inst: "image_atomic_add v0, v[16:17], s[8:15] dmask:0x1 unorm",
            exec: u64::MAX,
            ta: 28,
            l2: 33,
            issue: 8,
            requests: 64,
        },
    ]
}

/// The wave and program of an image atomic case.
fn image_atomic_case(case: &AtomicCase) -> PipeCase {
    let mut w = image_wave(64, 0, 64, (0, 0));
    for l in 0..64u32 {
        w.vgprs[16][l as usize] = 16 * (l % 4) + l / 4;
        w.vgprs[17][l as usize] = 0;
        w.vgprs[0][l as usize] = l + 1;
        // The compare operand: the texel's value (y << 16 | x = x) for even lanes (they swap).
        w.vgprs[1][l as usize] = if l % 2 == 0 { 16 * (l % 4) + l / 4 } else { 0xffff };
    }
    w.exec = case.exec;
    PipeCase { wave: w, program: vec![asm(case.inst)], config: Config { latency: (1, 1), ..Config::default() } }
}

/// The counters of a case's run against its derivation.
fn check_atomic_timing(case: &AtomicCase, t: &[gcn_vmem::bindings::vmem_pipe::testbench::Timing]) {
    let m = &t[0];
    assert_eq!(
        (m.ta, m.l2, m.issue, m.requests, m.conflicts),
        (case.ta, case.l2, case.issue, case.requests, 0),
        "{}: (ta, l2, issue, requests, conflicts) {m:?}",
        case.name
    );
}

#[test]
fn image_atomics_run_at_the_ta_and_l2_rates_on_the_model() {
    use gcn_vmem::bindings::vmem_pipe::testbench;
    for case in image_atomic_cases() {
        let c = image_atomic_case(&case);
        let program = programs::with_text(&c.program);
        let run = testbench::run(&mut VmemPipe::new(), &program, &c.wave, c.config).expect("the model runs it");
        let reference = programs::reference(&program, &c.wave).expect("the executor runs it");
        assert_eq!(testbench::first_difference(&run.wave, &reference), None, "{}", case.name);
        check_atomic_timing(&case, &run.timings);
    }
}

#[test]
fn image_atomics_run_at_the_ta_and_l2_rates_on_the_rtl() {
    for case in image_atomic_cases() {
        let c = image_atomic_case(&case);
        let t = check(&c, Variant::AsWritten).unwrap_or_else(|e| panic!("{}: {e}", case.name)).timings;
        check_atomic_timing(&case, &t);
    }
}

/// The "image atomic and PCK" bins (rust/vmem_pipe/cover.rs) are each hit by `make cosim`'s
/// default budget (800 random programs of up to 8 instructions), whatever its seed: checked on
/// the model alone (the bins are sampled from the model's events and the issue port, which the
/// lockstep run shares) for three seeds.
#[test]
fn image_atomic_and_pck_bins_are_hit_by_the_default_budget_on_the_model() {
    use gcn_vmem::bindings::vmem_pipe::{model_for, testbench::Testbench};
    use gcn_vmem_model::cover::{Covered as _, Hits};
    use gcn_vmem_model::unit::Unit as _;
    use gcn_vmem_model::vmem_pipe::cover;
    let group = VmemPipe::covergroup();
    let point = group.points.iter().position(|p| p.name == "image atomic and PCK").expect("the point exists");
    for seed in [1u64, 0x5eed, 0xc0ffee] {
        let mut hits = Hits::new(&group);
        for case in programs::draw_cases(800, gcn_vmem::engine::policy::PIPE_PROGRAM_LENGTH, seed) {
            let program = programs::with_text(&case.program);
            let mut tb = Testbench::new(&program, &case.wave, case.config).expect("a drawn program runs");
            let mut model = model_for(case.config.small);
            model.set_reset(true);
            model.step(&In::default());
            let mut out = model.set_reset(false);
            let mut held = false;
            while !tb.finished() {
                assert!(tb.cycle() < case.config.max_cycles, "seed {seed}: a hang");
                let step = tb.step(&out);
                let before = out;
                out = gcn_vmem::engine::lockstep::drive_unit(&mut model, &mut held, &step);
                cover::sample_events(model.events(), &mut hits);
                cover::sample_cycle(&before, &step.input, &out, &mut hits);
            }
        }
        let counts = hits.counts(point);
        let missed: Vec<&str> =
            group.points[point].bins.iter().zip(counts).filter(|(_, &n)| n == 0).map(|(b, _)| b.as_str()).collect();
        assert_eq!(missed, Vec::<&str>::new(), "seed {seed:#x}: {counts:?}");
    }
}

#[test]
fn every_aligned_quad_of_a_tiled_4_byte_surface_is_looked_up_without_a_bank_conflict() {
    // SPEC §15: the four texels of a 2×2-aligned quad of a 4-byte 4KB_S or 64KB_S surface lie in
    // one 64-byte line (§4.5: x0 and y0 are address bits 2 and 4), so the quad's step is one
    // bundle with one access. Every quad of a 64 × 64 surface: 1,024 quads, sixteen a load, 64
    // loads, each with no bank-conflict cycle. The linear surface with a pitch of 64 texels
    // (256 bytes: rows y and y+1 in one bank, different lines) conflicts on every quad.
    for (sw_mode, pitch, conflicts) in [(5u8, 64, false), (9, 64, false), (0, 64, true)] {
        let mut w = image_wave(64, sw_mode, pitch, (0, 0));
        let mut program = Vec::new();
        for tile in 0..64u32 {
            let (x0, y0) = (8 * (tile % 8), 8 * (tile / 8));
            let v = 20 + 2 * (tile % 16) as usize;
            for l in 0..64u32 {
                let (q, i) = (l / 4, l % 4);
                w.vgprs[v][l as usize] = x0 + 2 * (q % 4) + i % 2;
                w.vgprs[v + 1][l as usize] = y0 + 2 * (q / 4) + i / 2;
            }
            if tile % 16 == 15 {
                // Sixteen tiles' coordinates in v20..v51, then their loads into v60..v75.
                for t in 0..16 {
                    program.push(format!(
                        "image_load v{}, v[{}:{}], s[8:15] dmask:0x1 unorm",
                        60 + t,
                        20 + 2 * t,
                        21 + 2 * t
                    ));
                }
                program.push("s_waitcnt vmcnt(0)".to_string());
            }
            if tile % 16 == 15 {
                let texts: Vec<&str> = program.iter().map(String::as_str).collect();
                for (n, t) in timings(&texts, &w).iter().enumerate() {
                    assert_eq!(t.requests, 64, "sw_mode {sw_mode}, load {n}: {t:?}");
                    assert_eq!(t.conflicts > 0, conflicts, "sw_mode {sw_mode}, load {n}: {t:?}");
                }
                program.clear();
            }
        }
    }
}

#[test]
fn random_programs_equal_the_executor_cycle_for_cycle() {
    let cases = programs::draw_cases(40, 6, 0x19);
    let options = RtlOptions::default();
    let mut pairs = [false, true].map(|small| suite::open_at(&options, small).expect("the vmem_pipe RTL opens"));
    let (mut small, mut reset) = (0, 0);
    for (n, case) in cases.iter().enumerate() {
        small += usize::from(case.config.small);
        reset += usize::from(case.config.reset.is_some());
        let ls = &mut pairs[usize::from(case.config.small)];
        if let Err(e) = suite::check_case(ls, case, no_coverage) {
            panic!("case {n}: {e}\n{} ({})", suite::to_exec_file(case), suite::replay_flags(&case.config));
        }
    }
    assert!(small > 0 && reset > 0, "the cases include the small configuration ({small}) and resets ({reset})");
}

/// The model's small configuration is the one cosim/units.txt builds the RTL with.
#[test]
fn small_configuration_matches_the_unit_list() {
    let units = gcn_vmem::unit_list::read(std::path::Path::new("cosim/units.txt")).unwrap();
    let line = units.iter().find(|u| u.name == "vmem_pipe").expect("vmem_pipe is listed");
    let want: Vec<(String, u64)> =
        gcn_vmem_model::vmem_pipe::Config::small().params().iter().map(|&(p, v)| (p.to_string(), v as u64)).collect();
    assert_eq!(line.small, want);
    assert_eq!(gcn_vmem_model::vmem_pipe::Config::small().validate(), Ok(()));
}

/// `n` copies of `inst` with VDATA v20, v21, … (`{}` in `inst`), after a warm-up copy and
/// `s_waitcnt vmcnt(0)`: back to back, every load a hit.
fn warm_stream(inst: &str, n: usize) -> Vec<String> {
    let mut program = vec![inst.replace("{}", "v60"), "s_waitcnt vmcnt(0)".to_string()];
    program.extend((0..n).map(|i| inst.replace("{}", &format!("v{}", 20 + i))));
    program
}

/// SPEC §14: back-to-back coalesced dword loads that hit finish one every 4 cycles (the TD
/// converts one while it writes the previous one's four groups), as do coalesced dword stores
/// at the default 50-cycle L2 latency (posted writes: the issue bus's rate).
#[test]
fn warm_loads_and_stores_stream_one_every_four_cycles() {
    let load = warm_stream("buffer_load_dword {}, v1, s[4:7], 0 offen", 16);
    let t = timings(&load.iter().map(String::as_str).collect::<Vec<_>>(), &wave(4));
    let done: Vec<u64> = t[1..].iter().map(|t| t.done).collect();
    let gaps: Vec<u64> = done.windows(2).map(|w| w[1] - w[0]).collect();
    // The first few settle; from the fourth on the write port is busy every cycle.
    assert!(gaps[3..].iter().all(|&g| g == 4), "warm dword loads: done cycles {done:?}");

    let stores: Vec<&str> = (0..32).map(|_| "buffer_store_dword v8, v1, s[4:7], 0 offen").collect();
    let t = timings(&stores, &wave(4));
    let done: Vec<u64> = t.iter().map(|t| t.done).collect();
    let issued: Vec<u64> = t.iter().map(|t| t.issued).collect();
    let gaps: Vec<u64> = done.windows(2).map(|w| w[1] - w[0]).collect();
    let issue_gaps: Vec<u64> = issued.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(issue_gaps.iter().all(|&g| g == 4), "stores issue one every 4 cycles: {issued:?}");
    assert!(gaps.iter().all(|&g| g == 4), "stores complete one every 4 cycles: {done:?}");
}

/// SPEC §14 "Reset": rst_ni falls with four line reads owed by the L2; the testbench's L2 keeps
/// running and answers them after the reset, and the program runs again from the start, its
/// first load sending the same four requests with the same tags (MSHR 0 of each bank). The pipe
/// sends nothing until the L2 is idle (`l2_idle_i`), so every response owed at the reset arrives
/// before the first request after it: none can complete a request sent after the reset. The
/// result equals the executor's.
#[test]
fn a_response_owed_at_a_reset_cannot_complete_a_later_request() {
    use gcn_vmem::bindings::vmem_pipe::testbench::Testbench;
    let load = asm("buffer_load_dword v20, v1, s[4:7], 0 offen");
    let w = wave(4);
    let program = programs::with_text(&[load]);
    // The four requests are accepted by cycle 20 (4 beats, 3 cycles of address, 4 bundles, a
    // lookup each) and answered 50 cycles later.
    let config = Config { reset: Some((20, 2)), ..Config::default() };
    let options = RtlOptions::default();
    let mut ls = suite::open_at(&options, false).expect("the RTL opens");
    let mut tb = Testbench::new(&program, &w, config).unwrap();
    ls.reset();
    let mut out = ls.opening[2].0;
    let (mut owed, mut owed_at_reset) = (0i64, None);
    let mut events = Vec::new();
    while !tb.finished() {
        assert!(tb.cycle() < 10_000, "hang");
        let cycle = tb.cycle();
        if cycle == 21 {
            owed_at_reset = Some(owed);
        }
        let step = tb.step(&out);
        let accepted = (out.l2_req_valid & step.input.l2_req_ready).count_ones() as i64;
        let answered = step.input.l2_rsp_valid.count_ones() as i64;
        owed += accepted - answered;
        if accepted > 0 {
            events.push((cycle, 'q', accepted));
        }
        if answered > 0 {
            events.push((cycle, 'r', answered));
        }
        out = ls.drive(&step).1;
        assert!(ls.clean(), "cycle {cycle}: {:?} {:?}", ls.mismatches.first(), ls.assertions.first());
    }
    let owed_at_reset = owed_at_reset.expect("the run reached the reset");
    assert_eq!(owed_at_reset, 4, "four line reads owed at the reset: {events:?}");
    let first_after = events.iter().find(|e| e.0 > 22 && e.1 == 'q').expect("requests after the reset").0;
    let stale: i64 = events.iter().filter(|e| e.0 > 20 && e.0 < first_after && e.1 == 'r').map(|e| e.2).sum();
    assert_eq!(stale, 4, "every owed response arrived before the first new request: {events:?}");
    let expected = programs::reference(&program, &w).unwrap();
    assert_eq!(gcn_vmem::bindings::vmem_pipe::testbench::first_difference(&tb.final_wave(), &expected), None);
}

#[test]
fn the_lru_mutant_is_caught_and_the_correct_rtl_is_not() {
    // The LRU scenario the random programs draw one time in eight (cosim/bindings/vmem_pipe/programs.rs):
    // fill bank 0, hit its oldest line, evict 32 lines, hit that line again. TestBreakLru's hit
    // does not refresh the line, so the mutant evicts it and misses where the model hits.
    let mut case = programs::draw(&mut gcn_vmem::engine::stimulus::Rng::new(7), 1);
    programs::lru_scenario(&mut case.wave, &mut case.program);
    let run = check(&case, Variant::AsWritten).expect("the RTL as written agrees with the model");
    assert_eq!(run.timings[4].misses, 0, "the refreshed line survived the evictions: the last load hits");
    let Err(err) = check(&case, Variant::Mutant) else { panic!("the LRU mutant was not caught") };
    assert!(err.contains("model and RTL differ"), "{err}");
}

#[test]
fn exec_pipeline_prints_the_timing_and_names_what_it_cannot_run() {
    use crate::common::gcn_vmem;
    let example = std::fs::read_to_string("docs/examples/pipeline-load-miss-then-hit.json").unwrap();
    let (code, out, err) = gcn_vmem(&["exec", "-", "--pipeline", "--both"], &example);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let timing = v["timing"].as_array().expect("a timing list");
    assert_eq!(timing.len(), 2, "two VMEM instructions (the s_waitcnt has none)");
    // SPEC §8/§7: a coalesced dword load issues in 4 cycles and takes 4 TA cycles; the second,
    // after s_waitcnt vmcnt(0), hits every line the first brought in.
    assert_eq!((timing[0]["issue_cycles"].as_u64(), timing[0]["ta_cycles"].as_u64()), (Some(4), Some(4)));
    assert_eq!((timing[0]["misses"].as_u64(), timing[0]["bound"].as_str()), (Some(16), Some("l2")));
    assert_eq!((timing[1]["hits"].as_u64(), timing[1]["misses"].as_u64()), (Some(16), Some(0)));
    // The SQ sees the done in the cycle it is shown and issues in that same cycle.
    assert_eq!(timing[1]["issued_at"], timing[0]["done_at"], "s_waitcnt held the second load back");
    // The executor's output object is the same as plain `exec`'s.
    let (_, plain, _) = gcn_vmem(&["exec", "-"], &example);
    let plain: serde_json::Value = serde_json::from_str(&plain).unwrap();
    assert_eq!(v["vgprs"], plain["vgprs"]);

    // Every image instruction the executor runs goes through the pipeline; the samplers are
    // refused, naming the instruction (SPEC §14.1).
    let cases = [
        (r#"["image_sample v20, v1, s[8:15], s[0:3] dmask:0x1"]"#, "image_sample: sampling needs a filtering"),
        (r#"["image_gather4 v[20:23], v1, s[8:15], s[0:3] dmask:0x1"]"#, "image_gather4: sampling needs a filtering"),
    ];
    for (program, expected) in cases {
        let mut doc: serde_json::Value = serde_json::from_str(&example).unwrap();
        doc["program"] = serde_json::from_str(program).unwrap();
        let (code, out, _) = gcn_vmem(&["exec", "-", "--pipeline"], &doc.to_string());
        assert_eq!(code, 1, "{out}");
        assert!(out.contains(expected) && out.contains("instruction 0"), "{out}");
    }
    let (code, _, err) = gcn_vmem(&["exec", "-", "--pipeline", "--l2-latency", "9:3"], &example);
    assert_ne!(code, 0);
    assert!(err.contains("MIN must be at least 1 and at most MAX"), "{err}");
}

/// LDS loads (docs/decisions.md "LDS loads"): every form the executor takes, lanes outside the
/// allocation (M0 0x40, base 1, size 2: lanes 48..63 of an OFFSET 0 load), lanes out of memory
/// range inside it (num_records 0x80), overlapping and misaligned LDS addresses, an EXEC hole, an
/// allocation past the 64 KiB LDS; model and RTL in lockstep, then the LDS, VGPRs and memory
/// against the executor's, with and without back-pressure on the LDS port, at both
/// configurations. An LDS load writes no VGPR.
#[test]
fn lds_loads_agree_model_rtl_and_executor() {
    let mut w = wave(4);
    let vsharp: u128 = 0x10000 | 0x80u128 << 64 | 0xfacu128 << 96 | 4u128 << 108 | 4u128 << 111;
    for i in 0..4 {
        w.sgprs[4 + i] = (vsharp >> (32 * i)) as u32;
    }
    w.exec = !(0xf << 16);
    w.m0 = 0xabcd_0040;
    (w.lds.base, w.lds.size) = (1, 2);
    let program = [
        "buffer_load_dword v20, v1, s[4:7], 0 offen lds",
        "buffer_load_ubyte v20, v1, s[4:7], 0 offen offset:2 lds",
        "buffer_load_sbyte v20, v1, s[4:7], 0 offen offset:61 lds",
        "buffer_load_ushort v20, v1, s[4:7], 0 offen offset:64 lds",
        "buffer_load_sshort v20, v1, s[4:7], 0 offen offset:6 lds",
        "buffer_load_format_x v20, v1, s[4:7], 0 offen offset:128 lds",
        "buffer_load_dword v21, v1, s[4:7], 0 offen",
    ];
    let insts: Vec<Instruction> = program.iter().map(|t| asm(t)).collect();
    for (config, past_the_end) in [
        (Config::default(), false),
        (Config { vgpr_stall: 0.5, seed: 3, latency: (1, 40), ..Config::default() }, false),
        (Config { small: true, vgpr_stall: 0.3, seed: 5, ..Config::default() }, true),
    ] {
        let mut wave = w.clone();
        if past_the_end {
            (wave.lds.base, wave.lds.size) = (511, 4);
        }
        let case = PipeCase { wave: wave.clone(), program: insts.clone(), config };
        let run = check(&case, Variant::AsWritten).unwrap_or_else(|e| panic!("{config:?}: {e}"));
        assert_eq!(run.timings.len(), program.len());
        assert_eq!(run.wave.vgprs[20], wave.vgprs[20], "an LDS load writes no VGPR");
        assert!(run.wave.lds.bytes.iter().any(|&b| b != 0), "the LDS was written");
    }
}

/// The image examples (docs/examples/pipeline-image-*.json: 2D quads on linear and tiled
/// surfaces; DMASK, MIP levels, out-of-level lanes, D16, TFE; every type with DA and A16, an
/// unbound T#; tiled surfaces and 12-byte texels between buffer instructions) on the pipeline's
/// model leave the executor's VGPRs and memory, and a warm 4-byte 2D load whose requests all hit
/// without a bank conflict takes 16 TA cycles (docs/decisions.md "Images": four texels a cycle).
#[test]
fn exec_pipeline_model_runs_the_image_examples_as_the_executor() {
    use crate::common::gcn_vmem;
    let mut files: Vec<_> = std::fs::read_dir("docs/examples")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_str().unwrap().starts_with("pipeline-image-"))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 6, "{files:?}");
    for file in &files {
        let doc = std::fs::read_to_string(file).unwrap();
        let (code, out, err) = gcn_vmem(&["exec", "-", "--pipeline", "--model"], &doc);
        assert_eq!(code, 0, "{file:?}: {out}{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let (code, plain, _) = gcn_vmem(&["exec", "-"], &doc);
        assert_eq!(code, 0, "{file:?}: {plain}");
        let plain: serde_json::Value = serde_json::from_str(&plain).unwrap();
        assert_eq!((&v["vgprs"], &v["memory"]), (&plain["vgprs"], &plain["memory"]), "{file:?}");
        let name = file.file_name().unwrap().to_str().unwrap();
        if name.ends_with("4kb-s.json") || name.ends_with("pitch80.json") {
            // The second load, after s_waitcnt vmcnt(0), hits every line the first brought in.
            let warm = &v["timing"][1];
            assert_eq!((warm["hits"].as_u64(), warm["ta_cycles"].as_u64()), (Some(64), Some(16)), "{name}");
        }
    }
}

/// The break-asserts keys of the pipeline's test hooks (rtl/test/vmem_pipe_brk_*.svh), as their
/// headers list them: a line `//  k: <corruption> -> Name_A`, the arrow possibly on a later
/// comment line of the same entry. Key k (V# base bits 11:6) breaks Name_A.
fn break_asserts_keys() -> Vec<(u32, String)> {
    let mut keys = Vec::new();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rtl/test");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("vmem_pipe_brk_"))
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let mut key = None;
        for line in text.lines().map_while(|l| l.strip_prefix("//")) {
            let line = line.trim();
            if let Some((k, _)) =
                line.split_once(':').filter(|(k, _)| k.chars().all(|c| c.is_ascii_digit()) && !k.is_empty())
            {
                key = k.parse::<u32>().ok();
            }
            if let (Some(k), Some((_, name))) = (key, line.split_once("-> ")) {
                let name: String = name.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                keys.push((k, name));
                key = None;
            }
        }
    }
    keys.sort();
    keys
}

/// Every assertion of the pipeline's RTL fires and is reported by name: the list
/// above is exactly the `VMEM_ASSERT`s of rtl/vmem_pipe*.sv; on the break-asserts build, for
/// each key, ordinary random programs (the suite's, their V# and T# keyed by
/// `programs::with_key`) are run until one fails, and it must fail on that key's assertion alone
/// ("RTL assertion … failed", the pipe suite's report), be reported first, alone, in an
/// `ASSERTION vmem_pipe … assertion=<name>` line by the replay of its recorded trace (no mismatch
/// in an earlier cycle), and pass on the RTL as written, in lockstep and against the executor.
#[test]
fn every_assertion_fires_and_is_reported() {
    use gcn_vmem::engine::replay;
    let files: Vec<String> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rtl"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|f| f.starts_with("vmem_pipe") && f.ends_with(".sv"))
        .map(|f| format!("rtl/{f}"))
        .collect();
    // The top, the TA, the TCP, its bank, the bank's line RAM and MSHR register file, the TD.
    assert_eq!(files.len(), 7, "{files:?}");
    let declared = crate::common::declared_assertions(&files.iter().map(String::as_str).collect::<Vec<_>>());
    let keys = break_asserts_keys();
    let mut listed: Vec<String> = keys.iter().map(|(_, n)| n.clone()).collect();
    listed.sort_unstable();
    listed.dedup();
    assert_eq!(listed.len(), keys.len(), "an assertion keyed twice: {keys:?}");
    let numbers: Vec<u32> = keys.iter().map(|(k, _)| *k).collect();
    assert!(numbers.windows(2).all(|w| w[0] < w[1]) && numbers.iter().all(|&k| (1..64).contains(&k)), "{numbers:?}");
    assert_eq!(declared, listed, "the assertions rtl/vmem_pipe*.sv declare, each with a key");

    let broken = RtlOptions { variant: Variant::BreakAsserts, ..RtlOptions::default() };
    let mut good = Lockstep::new(VmemPipe::default(), Rtl::open(&RtlOptions::default()).expect("the RTL opens"));
    let pool = programs::draw_cases(48, 3, 0x1919);
    let mut tried = 0;
    // Every key is tried; the problems are reported together at the end.
    let mut problems: Vec<String> = Vec::new();
    for (k, (key, name)) in keys.iter().enumerate() {
        let key = *key;
        // Each key starts at another program of the pool.
        let mut fired = None;
        for n in 0..pool.len() {
            // The break-asserts corruptions are in the build of the default configuration.
            let mut case = programs::with_key(&pool[(k + n) % pool.len()], key);
            case.config.small = false;
            tried += 1;
            // A fresh break-asserts RTL per program, as the replay below starts: a corruption
            // that shows storage the design never reads unwritten (a queue's payload) must not
            // show an earlier program's values.
            let mut bad = Lockstep::new(VmemPipe::default(), Rtl::open(&broken).expect("the break-asserts RTL opens"));
            match suite::check_case(&mut bad, &case, no_coverage) {
                Ok(_) => continue,
                Err(e) => {
                    let names: Vec<&str> = bad.assertions.iter().map(|a| a.name.as_str()).collect();
                    if !(e.contains(&format!("RTL assertion {name} failed")) && names.iter().all(|a| a == name)) {
                        problems.push(format!(
                            "key {key} should break {name} alone (program {}): {e}; failing: {names:?}",
                            (k + n) % pool.len()
                        ));
                    } else {
                        fired = Some(case);
                    }
                    break;
                }
            }
        }
        let Some(case) = fired else {
            if !problems.last().is_some_and(|p| p.starts_with(&format!("key {key} "))) {
                problems.push(format!("key {key}: {name} never fired in {} programs", pool.len()));
            }
            continue;
        };
        if let Err(e) = suite::check_case(&mut good, &case, no_coverage) {
            problems.push(format!("key {key}: the RTL as written fails the program that breaks {name}: {e}"));
            continue;
        }
        let steps = gcn_vmem::bindings::vmem_pipe::record(&case);
        let replay = replay::replay::<gcn_vmem::bindings::vmem_pipe::Harness>(&steps, &broken, None, None).unwrap();
        // The corruptions change the design's registers, so the run goes on to differ from the
        // model after the assertion; what counts is the first failing cycle, as the suite's
        // check reads it: this assertion alone, no mismatch before the cycle it samples (the
        // assertion of cycle c samples the values the outputs compared in cycle c - 1 show: one
        // there, of an output the corruption drives, is reported after it), its ASSERTION line.
        let tag = format!(" assertion={name} ");
        let first = replay.assertions.first().map(|a| a.cycle);
        let at_first = |c: u64| replay.assertions.iter().filter(move |a| a.cycle == c);
        let reported = first.is_some_and(|c| {
            at_first(c).all(|a| a.name == *name)
                && replay.mismatches.iter().all(|m| m.cycle + 1 >= c)
                && replay
                    .lines
                    .iter()
                    .any(|l| l.starts_with(&format!("ASSERTION vmem_pipe cycle={c}")) && l.contains(&tag))
        });
        if !reported {
            problems.push(format!(
                "key {key}: {name} is not reported alone first: {:?}",
                &replay.lines[..replay.lines.len().min(4)]
            ));
        }
    }
    assert!(problems.is_empty(), "{} of {} keys fail:\n{}", problems.len(), keys.len(), problems.join("\n"));
    eprintln!("{} assertions fired in {tried} programs", keys.len());
}

/// Where each assertion of the pipeline is declared, as the failure lines name it: the assertions
/// of each of rtl/vmem_pipe*.sv (read here by `common::declared_assertions`) map to that file,
/// never to rtl/vmem_pipe.sv for a sub-block's; a name several units share maps to all of them;
/// a name nothing declares falls back to the unit's file.
#[test]
fn assertion_lines_name_the_file_that_declares_the_assertion() {
    use gcn_vmem::engine::rtl_sources::assertion_file;
    for file in ["rtl/vmem_pipe_ta.sv", "rtl/vmem_pipe_tcp.sv", "rtl/vmem_pipe_tcp_bank.sv", "rtl/vmem_pipe_td.sv"] {
        let names = crate::common::declared_assertions(&[file]);
        assert!(!names.is_empty(), "{file} declares no assertion");
        for name in names {
            assert_eq!(assertion_file("vmem_pipe", &name), file, "{name}");
        }
    }
    // CountBound_A is declared by d16, format_unpack and swizzle; of those the pipeline
    // instantiates d16 alone (a name several instantiated units share: engine::rtl_sources'
    // tests).
    assert_eq!(assertion_file("vmem_pipe", "CountBound_A"), "rtl/d16.sv");
    assert_eq!(assertion_file("swizzle", "CountBound_A"), "rtl/swizzle.sv", "a unit alone: its own file");
    assert_eq!(assertion_file("vmem_pipe", "NoSuch_A"), "rtl/vmem_pipe.sv");
}

/// `cosim --unit vmem_pipe --break-asserts` reports each failing program as an `ASSERTION` line
/// (what `make mutants` reads) naming the assertion and its file, whose repro command replays
/// the saved program on the break-asserts build (`exec … --break-asserts`), where it fails on
/// that assertion, and on the RTL as written, where it passes.
#[test]
fn break_asserts_failures_are_assertion_lines_that_replay() {
    let dir = crate::common::scratch("vmem_pipe_break_asserts");
    let _ = std::fs::remove_dir_all(&dir);
    let bin = env!("CARGO_BIN_EXE_gcn-vmem");
    // 10 programs (the fewest a run draws); the V# picks one of 35 corruptions in 64, so some
    // program of the ten fails.
    let out = std::process::Command::new(bin)
        .args(["cosim", "--unit", "vmem_pipe", "--break-asserts", "--no-shrink", "--no-progress"])
        .args(["--vectors", "1000", "--seed", "19", "--max-failures", "3", "--wave", "vcd", "--artifacts"])
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<&str> = stdout.lines().filter(|l| l.starts_with("ASSERTION vmem_pipe ")).collect();
    assert!(!lines.is_empty(), "no ASSERTION line:\n{stdout}");
    assert!(!stdout.contains("PIPELINE vmem_pipe"), "an assertion reported as a PIPELINE line:\n{stdout}");
    assert!(stdout.contains("saved as found (--no-shrink)"), "{stdout}");
    let reported = gcn_vmem::tools::mutants::assertions_reported(&stdout);
    let keys = break_asserts_keys();
    assert!(!reported.is_empty() && reported.iter().all(|n| keys.iter().any(|(_, k)| k == n)), "{reported:?}");
    for line in lines {
        let name = line.split_whitespace().find_map(|w| w.strip_prefix("assertion=")).unwrap();
        let file = line.split(" (").nth(1).and_then(|r| r.split(')').next()).unwrap();
        assert!(
            crate::common::declared_assertions(&[file]).iter().any(|n| n == name),
            "{file} does not declare {name}"
        );
        let repro = line.split(" | repro: ").nth(1).unwrap_or_else(|| panic!("no repro in {line}"));
        let args: Vec<&str> = repro.split_whitespace().collect();
        assert_eq!(args[0], "gcn-vmem", "{repro}");
        assert!(args.contains(&"--break-asserts"), "{repro}");
        let broken = std::process::Command::new(bin).args(&args[1..]).output().unwrap();
        let text = String::from_utf8_lossy(&broken.stdout);
        assert_eq!(broken.status.code(), Some(1), "{repro}: {text}");
        assert!(text.contains(&format!("RTL assertion {name} failed")), "{repro}: {text}");
        let written: Vec<&str> = args[1..].iter().copied().filter(|a| *a != "--break-asserts").collect();
        let fine = std::process::Command::new(bin).args(&written).output().unwrap();
        assert_eq!(fine.status.code(), Some(0), "{written:?}: {}", String::from_utf8_lossy(&fine.stdout));
    }
}

/// `exec --break-asserts` picks an RTL build: without --rtl or --both it is an error that says so.
#[test]
fn exec_break_asserts_needs_the_rtl() {
    let dir = crate::common::scratch("vmem_pipe_exec_flags");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("empty.json");
    std::fs::write(&file, "{\"program\": []}\n").unwrap();
    let exec = |flags: [&str; 2]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_gcn-vmem")).arg("exec").arg(&file).args(flags).output().unwrap()
    };
    let out = exec(["--pipeline", "--break-asserts"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("add --rtl or --both"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Without --pipeline the flag is refused by the parser.
    assert_eq!(exec(["--both", "--break-asserts"]).status.code(), Some(2));
}

/// The pipeline's random programs spread their chunks over threads, and what the
/// suite reports depends on the seed only: the same counts and bins with one and three threads
/// on the RTL as written, and on the LRU mutant the same failing programs, saved to the same
/// files, and the same counts up to them.
#[test]
fn pipe_suite_results_do_not_depend_on_jobs() {
    use gcn_vmem::bindings::vmem_pipe::suite::{run_pipe_suite, PIPE_CHUNK};
    let dir = crate::common::scratch("pipe_suite_jobs");
    let build = |variant| gcn_vmem::engine::RtlOptions { variant, ..Default::default() };
    let run = |variant, jobs: usize, programs| {
        run_pipe_suite(programs, 6, 0x2121, &dir.join(format!("{variant:?}{jobs}")), &build(variant), 3, true, jobs)
            .unwrap()
    };
    let key = |s: &gcn_vmem::engine::run::Summary| {
        let files: Vec<_> = s.failures.iter().map(|f| f.vector_file.file_name().unwrap().to_owned()).collect();
        (s.vectors, s.cycles, s.chunks, s.failing_cases, files, s.hits.clone())
    };
    let programs = 2 * PIPE_CHUNK + 5;
    let one = run(Variant::AsWritten, 1, programs);
    assert_eq!((one.chunks, one.failing_cases), (programs, 0));
    assert_eq!(key(&run(Variant::AsWritten, 3, programs)), key(&one));

    let one = run(Variant::Mutant, 1, 20 * PIPE_CHUNK);
    assert!(one.failing_cases > 0, "the LRU mutant survived {} programs", 20 * PIPE_CHUNK);
    assert!(one.chunks < 20 * PIPE_CHUNK, "the run stops after the chunk of its first failure");
    assert_eq!(key(&run(Variant::Mutant, 3, 20 * PIPE_CHUNK)), key(&one));
}
