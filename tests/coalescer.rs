//! `coalescer` (SPEC §7, seed 003): directed waves at the corners the spec names, each checked
//! against an independent byte-by-byte reference written here (not the model) and snapshotted
//! as a compact cycle trace; the handshake (held, withdrawn and back-to-back offers, reset in the
//! middle of a wave); the random lockstep property; `gcn-vmem eval coalescer` (SPEC §13); and
//! every RTL assertion firing.

use crate::common;

use std::collections::BTreeMap;
use std::io::Write as _;
use std::process::{Command, Stdio};

use gcn_vmem::bindings::coalescer::Harness;
use gcn_vmem::engine::lockstep::{Reset, Step};
use gcn_vmem::engine::Binding as _;
use gcn_vmem_model::coalescer::{In, Out, LANES};

/// A request as the reference computes it: (block address bits 47:4, byte mask, lane mask).
type Request = (u64, u16, u64);

/// SPEC §7 from the bytes up: every byte a lane reads, modulo 2^48, grouped into the 16-byte
/// blocks it falls in (in the order the lane reaches them); quads merge when each of their active
/// lanes reads from a single block and all from the same one.
fn reference(input: &In) -> (Vec<Request>, u8) {
    let bytes = u64::from(input.size) + 1;
    let lane_blocks = |lane: usize| -> Vec<(u64, u16)> {
        let mut blocks: Vec<(u64, u16)> = Vec::new();
        for b in 0..bytes {
            let address = (input.addr[lane] + b) % (1 << 48);
            let (block, byte) = (address / 16, address % 16);
            match blocks.iter_mut().find(|(k, _)| *k == block) {
                Some((_, mask)) => *mask |= 1 << byte,
                None => blocks.push((block, 1 << byte)),
            }
        }
        blocks
    };
    let active = |lane: usize| input.active >> lane & 1 == 1;
    let per_lane = |lanes: std::ops::Range<usize>, out: &mut Vec<Request>| {
        for lane in lanes.filter(|&l| active(l)) {
            for (block, mask) in lane_blocks(lane) {
                out.push((block, mask, 1 << lane));
            }
        }
    };
    let mut requests = Vec::new();
    if !input.single {
        per_lane(0..LANES, &mut requests);
        return (requests, 16);
    }
    let mut cycles = 0;
    for group in (0..LANES).step_by(16) {
        let mut merged = Vec::new();
        let mut mergeable = true;
        for quad in (group..group + 16).step_by(4) {
            let lanes: Vec<usize> = (quad..quad + 4).filter(|&l| active(l)).collect();
            let blocks: Vec<Vec<(u64, u16)>> = lanes.iter().map(|&l| lane_blocks(l)).collect();
            if blocks.iter().any(|b| b.len() != 1) || blocks.windows(2).any(|w| w[0][0].0 != w[1][0].0) {
                mergeable = false;
            } else if let Some(first) = blocks.first() {
                let mask = blocks.iter().fold(0, |m, b| m | b[0].1);
                let lane_mask = lanes.iter().fold(0u64, |m, &l| m | 1 << l);
                merged.push((first[0].0, mask, lane_mask));
            }
        }
        if mergeable {
            cycles += 1;
            requests.extend(merged);
        } else {
            cycles += 4;
            per_lane(group..group + 16, &mut requests);
        }
    }
    (requests, cycles)
}

/// A wave: lane k's address from `address(k)`, `bytes` per lane.
fn wave(bytes: u8, single: bool, active: u64, address: impl Fn(u64) -> u64) -> In {
    let mut input = In { valid: true, active, size: bytes - 1, single, ..In::default() };
    for (k, a) in input.addr.iter_mut().enumerate() {
        *a = address(k as u64) % (1 << 48);
    }
    input
}

/// Runs `steps` in lockstep (asserting model and RTL agree on every output of every cycle) and
/// returns the outputs and a compact trace: per cycle the reset activity, `valid_i` with the
/// wave's name, and every output.
fn run(steps: &[Step<In>], names: &[(In, &str)]) -> (Vec<Out>, String) {
    let mut ls = common::lockstep::<Harness>().recording();
    let same = ls.run_steps(steps);
    let record = ls.record.take().unwrap();
    assert!(same, "model and RTL differ: {:?} {:?}", &ls.mismatches[..ls.mismatches.len().min(8)], ls.assertions);
    let mut trace = String::new();
    for (n, c) in record.iter().enumerate() {
        let reset = if c.reset == Reset::None { String::new() } else { format!("rst={} ", c.reset.name()) };
        let offered = if c.input.valid {
            let name = names.iter().find(|(w, _)| In { valid: true, ..c.input } == *w).map_or("?", |(_, n)| n);
            format!("valid=1 {name:<10}")
        } else {
            format!("valid=0 {:<10}", "")
        };
        let o = &c.expected;
        trace.push_str(&format!(
            "{n:04} {reset}in: {offered} | out: valid={} ready={} addr={:#013x} bytes={:#06x} lanes={:#018x} last={} cycles={}\n",
            u8::from(o.valid),
            u8::from(o.ready),
            o.addr,
            o.bytes,
            o.lanes,
            u8::from(o.last),
            o.cycles
        ));
    }
    (record.iter().map(|c| c.expected).collect(), trace)
}

/// The waves in the output beats, in order: each wave's requests (beats with lanes) and cycles.
fn waves_of(outs: &[Out]) -> Vec<(Vec<Request>, u8)> {
    let mut waves = Vec::new();
    let mut current = Vec::new();
    for o in outs.iter().filter(|o| o.valid) {
        if o.lanes != 0 {
            current.push((o.addr, o.bytes, o.lanes));
        }
        if o.last {
            waves.push((std::mem::take(&mut current), o.cycles));
        }
    }
    assert!(current.is_empty(), "beats after the last `last`: {current:?}");
    waves
}

/// One wave offered from reset until taken, then drained: checks its beats against the reference
/// and returns the compact trace for the snapshot.
fn one_wave(input: In) -> String {
    let (steps, _) = offers(&[input]);
    let (outs, trace) = run(&steps, &[(input, "wave")]);
    let expected = reference(&input);
    assert_eq!(waves_of(&outs), vec![expected.clone()], "requests and cycles against the byte-level reference");
    // Beats come back to back, one per cycle, and only after the wave was taken.
    let beats: Vec<usize> = outs.iter().enumerate().filter(|(_, o)| o.valid).map(|(i, _)| i).collect();
    assert!(beats.windows(2).all(|w| w[1] == w[0] + 1), "beats on consecutive cycles: {beats:?}");
    assert_eq!(beats.len(), expected.0.len().max(1));
    trace
}

/// Cycles that offer each wave until the model takes it, then drain; with the cycle of each
/// acceptance.
fn offers(waves: &[In]) -> (Vec<Step<In>>, Vec<usize>) {
    use gcn_vmem_model::coalescer::Coalescer;
    use gcn_vmem_model::unit::Unit as _;
    let mut model = Coalescer::default();
    model.reset();
    let mut steps = Vec::new();
    let mut taken = Vec::new();
    for w in waves {
        loop {
            let ready = model.ready();
            model.step(w);
            steps.push(Step::from(*w));
            if ready {
                taken.push(steps.len() - 1);
                break;
            }
        }
    }
    while model.busy() {
        model.step(&In::default());
        steps.push(Step::default());
    }
    steps.push(Step::default());
    (steps, taken)
}

const ALL: u64 = u64::MAX;

#[test]
fn fully_coalesced_dwords_take_four_cycles() {
    let input = wave(4, true, ALL, |k| 0x1000 + 4 * k);
    let (requests, cycles) = reference(&input);
    // By hand: one request per quad, the whole block, four lanes each.
    assert_eq!(cycles, 4);
    assert_eq!(requests, (0..16).map(|q| (0x100 + q, 0xffff, 0xf << (4 * q))).collect::<Vec<_>>());
    insta::assert_snapshot!(one_wave(input));
}

#[test]
fn ubyte_and_ushort_quads_share_a_block() {
    // ubyte: quad q of group g reads bytes 4q..4q+3 of block 0x200 + g.
    let bytes1 = wave(1, true, ALL, |k| 0x2000 + k);
    assert_eq!(reference(&bytes1).0[5], (0x201, 0x00f0, 0xf << 20));
    // ushort: quad q of group g reads 8 bytes, half a block.
    let bytes2 = wave(2, true, ALL, |k| 0x3000 + 2 * k);
    assert_eq!(reference(&bytes2).0[3], (0x301, 0xff00, 0xf << 12));
    let trace = format!("ubyte:\n{}\nushort:\n{}", one_wave(bytes1), one_wave(bytes2));
    insta::assert_snapshot!(trace);
}

#[test]
fn multi_dword_accesses_take_sixteen_cycles_per_lane() {
    for bytes in [8u8, 12, 16] {
        let input = wave(bytes, false, ALL, |k| 0x4000 + u64::from(bytes) * k);
        let (requests, cycles) = reference(&input);
        assert_eq!(cycles, 16);
        // dwordx3 lanes at 12k straddle a block boundary whenever 12k mod 16 > 4.
        let straddling = (0..64u64).filter(|k| (12 * k) % 16 > 4).count();
        let want = if bytes == 12 { 64 + straddling } else { 64 };
        assert_eq!(requests.len(), want, "{bytes} bytes");
        one_wave(input);
    }
    insta::assert_snapshot!(one_wave(wave(16, false, ALL, |k| 0x4000 + 16 * k)));
}

#[test]
fn one_quad_straddling_a_block_unmerges_its_group() {
    let mut input = wave(4, true, ALL, |k| 0x1000 + 4 * k);
    input.addr[5] = 0x100e; // bytes 0x100e..0x1011
    let (requests, cycles) = reference(&input);
    assert_eq!(cycles, 4 + 1 + 1 + 1);
    assert_eq!(requests.len(), 17 + 12);
    assert_eq!(requests[5..7], [(0x100, 0xc000, 1 << 5), (0x101, 0x0003, 1 << 5)]);
    insta::assert_snapshot!(one_wave(input));
}

#[test]
fn exec_holes_and_the_empty_wave() {
    // Lanes 1, 6 and 17 off and quad 3 (lanes 12..15) off: still mergeable, quad 3 asks nothing.
    let active = ALL & !(1 << 1) & !(1 << 6) & !(1 << 17) & !(0xf << 12);
    let holes = wave(4, true, active, |k| 0x1000 + 4 * k);
    let (requests, cycles) = reference(&holes);
    assert_eq!(cycles, 4);
    assert_eq!(requests[0], (0x100, 0xfff0 & !0x00f0 | 0x000f, 0b1101));
    assert_eq!(requests.len(), 15);
    let empty_single = wave(4, true, 0, |k| 0x1000 + 4 * k);
    let empty_multi = wave(16, false, 0, |k| 0x1000 + 16 * k);
    assert_eq!(reference(&empty_single), (vec![], 4));
    assert_eq!(reference(&empty_multi), (vec![], 16));
    let trace = format!(
        "holes:\n{}\nempty single:\n{}\nempty multi:\n{}",
        one_wave(holes),
        one_wave(empty_single),
        one_wave(empty_multi)
    );
    insta::assert_snapshot!(trace);
}

#[test]
fn lanes_hitting_the_same_block() {
    // Every lane reads the same dword: each quad merges into one request of 4 bytes.
    let single = wave(4, true, ALL, |_| 0x5004);
    let (requests, cycles) = reference(&single);
    assert_eq!((requests.len(), cycles), (16, 4));
    assert!(requests.iter().all(|r| r.0 == 0x500 && r.1 == 0x00f0));
    // Not single-component: one request per lane, even for the same block.
    let multi = wave(8, false, ALL, |_| 0x5000);
    assert_eq!(reference(&multi).0.len(), 64);
    // Single-component lanes of one quad in two blocks: that quad does not merge.
    let split = wave(4, true, ALL, |k| if k == 2 { 0x6010 } else { 0x6000 + 4 * (k % 4) });
    assert_eq!(reference(&split).1, 4 + 1 + 1 + 1);
    let trace = format!("single:\n{}\nmulti:\n{}\nsplit:\n{}", one_wave(single), one_wave(multi), one_wave(split));
    insta::assert_snapshot!(trace);
}

#[test]
fn addresses_wrap_at_2_pow_48() {
    // Dwords from 4 bytes below the top: lane 0 in the last block, lanes 1.. from block 0 on.
    let top = wave(4, true, ALL, |k| (1 << 48) - 4 + 4 * k);
    let (requests, cycles) = reference(&top);
    assert_eq!(requests[0], (0xfff_ffff_ffff, 0xf000, 1));
    assert_eq!(requests[1], (0, 0x000f, 2));
    assert_eq!(cycles, 16, "every quad spans two blocks");
    // A dwordx4 at 8 bytes below the top touches the last block and block 0.
    let straddle = wave(16, false, 1, |_| (1 << 48) - 8);
    assert_eq!(reference(&straddle).0, vec![(0xfff_ffff_ffff, 0xff00, 1), (0, 0x00ff, 1)]);
    let trace = format!("dwords across the top:\n{}\ndwordx4 across the top:\n{}", one_wave(top), one_wave(straddle));
    insta::assert_snapshot!(trace);
}

/// The handshake: waves offered back to back are held while `ready` is low and each taken
/// exactly once; a wave offered and withdrawn while the unit is busy is never captured; a reset
/// in the middle of a wave drops the rest of it.
#[test]
fn handshake_holds_withdrawals_and_reset() {
    let a = wave(4, true, ALL, |k| 0x1000 + 4 * k);
    let b = wave(16, false, 0b1011, |k| 0x8000 + 16 * k);
    let decoy = wave(1, false, ALL, |k| 0x9000 + 64 * k);
    let names = [(a, "A"), (b, "B"), (decoy, "decoy")];

    // A then B back to back: B is held for A's 16 beats and taken once.
    let (steps, taken) = offers(&[a, b]);
    let (outs, held) = run(&steps, &names);
    assert_eq!(waves_of(&outs), vec![reference(&a), reference(&b)]);
    assert_eq!(taken[1] - taken[0], 17, "B is taken at the edge after the cycle that shows A's 16th (last) beat");
    // `ready` is high exactly in idle cycles and during the cycle of a last beat.
    assert!(outs.iter().all(|o| o.ready == (!o.valid || o.last) || (!o.valid && !o.ready)));

    // A, then the decoy offered every other cycle while A streams, then withdrawn; then B.
    let mut steps = vec![Step::from(a), Step::from(a)];
    for i in 0..16 {
        let input = In { valid: i % 2 == 0, ..decoy };
        steps.push(Step::from(input));
    }
    steps.extend(std::iter::repeat_n(Step::from(In { valid: false, ..decoy }), 2));
    steps.extend(std::iter::repeat_n(Step::from(b), 2));
    steps.extend(std::iter::repeat_n(Step::default(), 5));
    let (outs, withdrawn) = run(&steps, &names);
    assert_eq!(waves_of(&outs), vec![reference(&a), reference(&b)], "the withdrawn decoy is never captured");

    // A reset five beats into A: the rest of A is dropped.
    let mut steps = vec![Step::from(a), Step::from(a)];
    steps.extend(std::iter::repeat_n(Step::default(), 5));
    steps.push(Step { reset: Reset::Pulse, input: In::default() });
    steps.extend([Step::from(b), Step::from(b)]);
    steps.extend(std::iter::repeat_n(Step::default(), 5));
    let (outs, reset) = run(&steps, &names);
    assert_eq!(outs.iter().filter(|o| o.valid && o.lanes != 0).count(), 5 + reference(&b).0.len());
    // The pulse (before cycle 7's edge) cleared the unit; that edge, the first after release,
    // raises `ready`, so B offered in cycle 8 is taken there.
    assert!(!outs[7].valid && outs[7].ready && !outs[8].ready && outs[9].valid);

    insta::assert_snapshot!(format!("back to back:\n{held}\nwithdrawn decoy:\n{withdrawn}\nreset mid-wave:\n{reset}"));
}

/// The random cases themselves exercise every corner the issue names (a check on the stimulus:
/// a corner it never drew would be a corner never compared).
#[test]
fn random_stimulus_reaches_the_corners() {
    let mut rng = gcn_vmem::engine::stimulus::Rng::new(2026);
    let mut seen: BTreeMap<&str, u32> = BTreeMap::new();
    for _ in 0..400 {
        let case = Harness::generate_case(&mut rng);
        for (i, step) in case.iter().enumerate() {
            let w = &step.input;
            if step.reset != Reset::None {
                *seen.entry("reset").or_default() += 1;
            }
            if !w.valid {
                // The same wave offered in the cycle before, and dropped now.
                if i > 0 && case[i - 1].input == (In { valid: true, ..*w }) {
                    *seen.entry("withdrawn").or_default() += 1;
                }
                continue;
            }
            if case.get(i + 1).is_some_and(|n| n.input == *w) {
                *seen.entry("held").or_default() += 1;
            }
            let (requests, cycles) = reference(w);
            let bytes = w.size + 1;
            *seen.entry(if w.single { "single" } else { "multi" }).or_default() += 1;
            if w.single && cycles == 4 && w.active == ALL {
                *seen.entry("fully coalesced").or_default() += 1;
            }
            if w.active == 0 {
                *seen.entry("empty").or_default() += 1;
            }
            if w.active != 0 && w.active != ALL {
                *seen.entry("exec holes").or_default() += 1;
            }
            if (0..LANES).any(|k| w.active >> k & 1 == 1 && (w.addr[k] & 0xf) + u64::from(bytes) > 16) {
                *seen.entry("straddling lane").or_default() += 1;
            }
            if (0..LANES).any(|k| w.active >> k & 1 == 1 && w.addr[k] + u64::from(bytes) > 1 << 48) {
                *seen.entry("2^48 wrap").or_default() += 1;
            }
            if requests.windows(2).any(|r| r[0].0 == r[1].0 && r[0].2 != r[1].2) {
                *seen.entry("same block").or_default() += 1;
            }
            for (size, name) in
                [(1, "ubyte"), (2, "ushort"), (4, "dword"), (8, "dwordx2"), (12, "dwordx3"), (16, "dwordx4")]
            {
                if bytes == size {
                    *seen.entry(name).or_default() += 1;
                }
            }
        }
    }
    let corners = [
        "reset",
        "held",
        "withdrawn",
        "single",
        "multi",
        "fully coalesced",
        "empty",
        "exec holes",
        "straddling lane",
        "2^48 wrap",
        "same block",
        "ubyte",
        "ushort",
        "dword",
        "dwordx2",
        "dwordx3",
        "dwordx4",
    ];
    for corner in corners {
        assert!(seen.get(corner).copied().unwrap_or(0) >= 5, "corner `{corner}` drawn too rarely: {seen:?}");
    }
}

#[test]
fn random_cases_agree_in_lockstep() {
    common::random_cases_agree::<Harness>(300);
}

/// `gcn-vmem eval coalescer` (SPEC §13): requests and cycles of one wave per line; model and RTL
/// agree (`--both`); bad lines get an error naming the field, the other lines still run.
#[test]
fn eval_follows_spec_13() {
    let addresses: Vec<u64> = (0..64).map(|k| 0x1000 + 4 * k).collect();
    let good =
        serde_json::json!({ "addresses": addresses, "active": "0xffffffffffffffff", "bytes": 4, "single": true });
    let mut hex_addresses: Vec<String> = (0..64).map(|_| "0x0".to_string()).collect();
    hex_addresses[0] = "0xFFFFFFFFFFF8".to_string();
    let wrap = serde_json::json!({ "addresses": hex_addresses, "active": "0x1", "bytes": 16, "single": false });
    let lines = [
        good.to_string(),
        r#"{"addresses": [1, 2], "active": "0x1", "bytes": 4, "single": true}"#.to_string(),
        good.to_string().replace("\"bytes\":4", "\"bytes\":3"),
        good.to_string().replace("\"single\":true", "\"single\":true,\"glc\":true"),
        good.to_string().replace("4096,", "281474976710656,"),
        wrap.to_string(),
    ];
    let binary = env!("CARGO_BIN_EXE_gcn-vmem");
    let mut child = Command::new(binary)
        .args(["eval", "coalescer", "--both"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(lines.join("\n").as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success(), "bad lines make the exit status non-zero");
    let replies: Vec<serde_json::Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(replies.len(), lines.len());

    let first = &replies[0];
    assert_eq!(first["cycles"], 4);
    let requests = first["requests"].as_array().unwrap();
    assert_eq!(requests.len(), 16);
    assert_eq!(requests[1], serde_json::json!({ "address": 0x1010, "bytes": 0xffff, "lanes": "0x00000000000000f0" }));
    let keys: Vec<&String> = first.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["requests", "cycles"], "output keys in SPEC §13's order");

    for (line, field) in [(2, "addresses"), (3, "bytes"), (4, "glc"), (5, "addresses")] {
        let error = replies[line - 1]["error"].as_str().unwrap_or_else(|| panic!("line {line}: {}", replies[line - 1]));
        assert!(error.starts_with(&format!("line {line}:")) && error.contains(field), "line {line}: {error}");
    }
    assert_eq!(
        replies[5]["requests"],
        serde_json::json!([
            { "address": 0xffff_ffff_fff0u64, "bytes": 0xff00, "lanes": "0x0000000000000001" },
            { "address": 0, "bytes": 0x00ff, "lanes": "0x0000000000000001" },
        ])
    );
    assert_eq!(replies[5]["cycles"], 16);
}

/// Every assertion of rtl/coalescer.sv is compiled into the lockstep builds and can fire: on the
/// break-asserts build each one fails and is reported by name (docs/checks.md).
#[test]
fn every_assertion_fires_and_is_reported() {
    common::assertions_fire::<Harness>(&[
        "BytesWithLanes_A",
        "CyclesMax_A",
        "CyclesMin_A",
        "CyclesOnLast_A",
        "IdleZero_A",
        "LanesOneQuad_A",
        "ReadyOnLast_A",
    ]);
}

// ---------------------------------------------------------------------------------------------
// Functional coverage: the declared bins (rust/coalescer.rs `cover`, paired by
// cosim/bindings/coalescer.rs `cover_cycle`).
// ---------------------------------------------------------------------------------------------

/// Drives `steps` through the model from reset, pairing every cycle as the lockstep run does;
/// returns the `point: bin` names hit.
fn bins_of_steps(steps: &[Step<In>]) -> Vec<String> {
    use gcn_vmem::engine::cover::InFlight;
    use gcn_vmem::engine::lockstep::drive_unit;
    use gcn_vmem_model::coalescer::Coalescer;
    use gcn_vmem_model::cover::{Covered, Hits};
    use gcn_vmem_model::unit::Unit;
    let group = Coalescer::covergroup();
    let mut hits = Hits::new(&group);
    let mut model = Coalescer::default();
    model.reset();
    let mut in_flight = InFlight::default();
    let mut held = false;
    for step in steps {
        let out = drive_unit(&mut model, &mut held, step);
        gcn_vmem::bindings::coalescer::cover_cycle(&mut in_flight, step, &out, &mut hits);
    }
    let mut names = Vec::new();
    for (p, point) in group.points.iter().enumerate() {
        for (b, bin) in point.bins.iter().enumerate() {
            if hits.counts(p)[b] > 0 {
                names.push(format!("{}: {bin}", point.name));
            }
        }
    }
    names
}

fn assert_bins(what: &str, got: &[String], expected: &[&str]) {
    common::assert_in_bins(what, got, expected, false);
}

fn wave_of(size: u8, single: bool, active: u64, addr: impl Fn(u64) -> u64) -> In {
    let mut input = In { valid: true, active, size: size - 1, single, ..In::default() };
    for (k, a) in input.addr.iter_mut().enumerate() {
        *a = addr(k as u64);
    }
    input
}

/// Offers `waves` one after the other, each held until taken, then idles long enough to drain.
fn offer(waves: &[In]) -> Vec<Step<In>> {
    let mut steps = vec![Step::from(In::default())];
    for w in waves {
        steps.push(Step::from(*w));
        steps.extend(std::iter::repeat_n(Step::from(In::default()), 2 * LANES + 4));
    }
    steps
}

/// Hand-chosen waves land in the bins SPEC §7 puts them in.
#[test]
fn directed_inputs_hit_their_bins() {
    // 64 consecutive dwords from 0x1000, single: every quad is one block → one request per quad
    // (16 requests of 4 lanes and 16 bytes), one cycle per group: 4 cycles.
    let dwords = wave_of(4, true, u64::MAX, |k| 0x1000 + 4 * k);
    assert_bins(
        "consecutive dwords",
        &bins_of_steps(&offer(&[dwords])),
        &[
            "cycles (§7): single 4",
            "single: group merging: every group merged (4 cycles)",
            "requests per wave: 16",
            "request: merged quad: 4 lanes",
            "request: merged quad: all 16 bytes",
            "single x bytes: single 4",
            "single x active lanes: single all 64",
            "handshake: taken after idle cycles with ready high",
        ],
    );
    // The same with lane 5 at 0x100e: its 4 bytes straddle two blocks, so group 0 takes 4
    // cycles (7 in all) and issues per-lane requests, lane 5 twice.
    let mut straddle = dwords;
    straddle.addr[5] = 0x100e;
    assert_bins(
        "one straddling lane",
        &bins_of_steps(&offer(&[straddle])),
        &[
            "cycles (§7): single 7",
            "single: group merging: a group unmerged by an active straddling lane",
            "request: single: second block of a straddling lane",
            "requests per wave: 17..63",
        ],
    );
    // Lanes 0 and 1 in different blocks without straddling: quad 0 unmergeable.
    let two_blocks = wave_of(4, true, u64::MAX, |k| if k == 1 { 0x2000 } else { 0x1000 + 4 * k });
    assert_bins(
        "two blocks in a quad",
        &bins_of_steps(&offer(&[two_blocks])),
        &["single: group merging: a group unmerged by two blocks in a quad (no straddler)"],
    );
    // Multi-component 16-byte accesses, every lane from 0x...8: each lane touches two blocks,
    // 128 requests, 16 cycles; lane 0 at 2^48 − 8 wraps to block 0.
    let all_straddle = wave_of(16, false, u64::MAX, |k| ((1 << 48) - 8 + 16 * k) & ((1 << 48) - 1));
    assert_bins(
        "multi-component, every lane straddles, wrap",
        &bins_of_steps(&offer(&[all_straddle])),
        &[
            "cycles (§7): multi-component 16",
            "requests per wave: 128 (every lane straddles)",
            "request: multi: second block of a straddling lane",
            "request: block 0 right after block 2^44-1 (wrap)",
            "2^48 wrap: multi-component an active lane straddles block 2^44-1 to block 0",
        ],
    );
    // No active lane: one cost-only beat, 4 cycles (single).
    let empty = wave_of(1, true, 0, |k| k);
    assert_bins(
        "empty wave",
        &bins_of_steps(&offer(&[empty])),
        &["requests per wave: 0", "single x active lanes: single none (cost-only beat)", "cycles (§7): single 4"],
    );
    // Two waves offered continuously: the second waits while the first streams and is taken at
    // the edge right after the first's last beat (back to back, held until taken).
    let one = wave_of(4, false, 1, |k| 0x40 * k);
    let mut steps = vec![Step::from(In::default())];
    steps.push(Step::from(one));
    steps.extend(std::iter::repeat_n(Step::from(dwords), 24));
    let got = bins_of_steps(&steps);
    assert_bins(
        "back to back",
        &got,
        &[
            "single x active lanes: multi-component one",
            "handshake: offered while not ready (not taken)",
            "handshake: offered while not ready, held until taken",
            "handshake: taken right after the previous wave's last beat (back to back)",
        ],
    );
    // A wave offered, then dropped while the unit is busy: withdrawn.
    let mut steps = vec![Step::from(In::default()), Step::from(one), Step::from(dwords), Step::from(In::default())];
    steps.extend(std::iter::repeat_n(Step::from(In::default()), 8));
    assert_bins("withdrawn", &bins_of_steps(&steps), &["handshake: offer withdrawn before it was taken"]);
    // A reset pulsed while the beats of a 64-request wave stream, with a wave offered.
    let mut steps = vec![Step::from(In::default()), Step::from(all_straddle)];
    steps.extend(std::iter::repeat_n(Step::from(In::default()), 5));
    steps.push(Step { reset: Reset::Pulse, input: dwords });
    steps.extend(std::iter::repeat_n(Step::from(In::default()), 4));
    assert_bins(
        "reset mid-wave",
        &bins_of_steps(&steps),
        &["handshake: reset pulse mid-wave (beats dropped)", "handshake: offered with reset active (not taken)"],
    );
}

/// The random stimulus hits every declared bin within an eighth of the default budget (250
/// chunks of 4,096 vectors of seed 1, model only, the same cases a lockstep run drives).
#[test]
fn random_stimulus_hits_every_bin() {
    common::every_bin_hit::<Harness>(250);
}
