//! `coalescer` in the harness: the cxx binding of the Verilated RTL (rtl/coalescer.sv), its
//! random stimulus — whole handshakes, not independent cycles — and its `eval` objects (SPEC §13:
//! one wave in, its request list and cycle count out).
//! Model: rust/coalescer.rs  RTL: rtl/coalescer.sv  Tests: tests/coalescer.rs  Spec: docs/spec.md §7
//! Contract: docs/decisions.md "coalescer (SPEC §7)".


use serde_json::{json, Map, Value};

use super::cover::InFlight;
use super::lockstep::{drive_unit, Reset, Step};
use super::run::generate_reset;
use super::stimulus::Rng;
use super::vectors::{parse_map, parse_value, Strictness};
use super::Binding;
use crate::coalescer::{Coalescer, In, Out, LANES};
use crate::cover::{Covered, Hits};
use crate::one_of;
use crate::unit::{Kind, Signal, Unit};

#[cxx::bridge(namespace = "cosim::coalescer")]
mod ffi {
    // Shared structs: the RTL ports as plain integers, named like the ports without _i/_o.
    #[derive(Clone, Copy, Debug)]
    struct PortsIn {
        valid: bool,
        addr: [u64; 64],
        active: u64,
        size: u8,
        single: bool,
    }

    #[derive(Clone, Copy, Debug, Default)]
    struct PortsOut {
        valid: bool,
        ready: bool,
        addr: u64,
        bytes: u16,
        lanes: u64,
        last: bool,
        cycles: u8,
    }

    // C++ exposed to Rust: cosim/coalescer.h states each function's contract.
    unsafe extern "C++" {
        include!("gcn-vmem/cosim/coalescer.h");

        type Rtl;

        fn new_rtl(variant: u8, wave: u8, path: &str, x_random: bool, x_seed: u64) -> Result<UniquePtr<Rtl>>;
        fn set_reset(self: Pin<&mut Rtl>, asserted: bool, output: &mut PortsOut) -> u32;
        fn step(self: Pin<&mut Rtl>, input: &PortsIn, output: &mut PortsOut) -> u32;
        fn take_assertions(self: Pin<&mut Rtl>) -> Vec<String>;
        fn finish(self: Pin<&mut Rtl>);
        fn write_coverage(self: Pin<&mut Rtl>, path: &str);
        fn plain_loop(inputs: &[PortsIn], rounds: u64) -> u64;
    }
}

impl From<&In> for ffi::PortsIn {
    fn from(i: &In) -> Self {
        ffi::PortsIn { valid: i.valid, addr: i.addr, active: i.active, size: i.size, single: i.single }
    }
}

impl From<&ffi::PortsOut> for Out {
    fn from(o: &ffi::PortsOut) -> Self {
        Out {
            valid: o.valid,
            ready: o.ready,
            addr: o.addr,
            bytes: o.bytes,
            lanes: o.lanes,
            last: o.last,
            cycles: o.cycles,
        }
    }
}

verilated_rtl!(Coalescer);

/// Access sizes `eval` accepts (SPEC §13): ubyte, ushort, dword, dwordx2/x3/x4.
pub const EVAL_BYTES: &[u32] = &[1, 2, 4, 8, 12, 16];

/// Cycles a wave can take to drain: its beats plus slack.
const DRAIN_LIMIT: usize = 2 * LANES + 8;

/// The unit's place in the harness.
pub struct Harness;

impl Binding for Harness {
    type Model = Coalescer;
    type Rtl = Rtl;

    fn generate(rng: &mut Rng) -> In {
        generate(rng)
    }

    fn describe(input: &In) -> String {
        format!(
            "{} lanes active, {} bytes, {}",
            input.active.count_ones(),
            input.size + 1,
            if input.single { "single-component" } else { "multi-component" }
        )
    }

    /// The handshake and wave fields, and the 64 addresses as a pattern when they form one
    /// (`addr0 + k·d`), else the first active lane's and a count of distinct blocks; the vector
    /// file has every address.
    fn render_input(input: &In) -> String {
        let a = &input.addr;
        let step = a[1].wrapping_sub(a[0]) & ((1 << 48) - 1);
        let pattern = if (1..LANES).all(|k| a[k] == (a[0] + step * k as u64) & ((1 << 48) - 1)) {
            format!("addr=0x{:012x}+k*{step}", a[0])
        } else {
            let mut blocks: Vec<u64> = a.iter().map(|x| x >> 4).collect();
            blocks.sort_unstable();
            blocks.dedup();
            let lane = (input.active.trailing_zeros() as usize).min(LANES - 1);
            format!("addr{lane}=0x{:012x} ({} distinct blocks over 64 lanes)", a[lane], blocks.len())
        };
        format!(
            "valid={} {pattern} active=0x{:016x} size={} single={}",
            u8::from(input.valid),
            input.active,
            input.size,
            u8::from(input.single)
        )
    }

    fn eval_output(input: &In, out: &Out) -> Map<String, Value> {
        Self::eval_result(input, std::slice::from_ref(out))
    }

    /// `requests` (the beats with lanes, in order) and `cycles` (from the last beat).
    fn eval_result(_input: &In, outs: &[Out]) -> Map<String, Value> {
        let requests: Vec<Value> = outs
            .iter()
            .filter(|o| o.valid && o.lanes != 0)
            .map(|o| json!({ "address": o.addr << 4, "bytes": o.bytes, "lanes": format!("0x{:016x}", o.lanes) }))
            .collect();
        let cycles = outs.iter().find(|o| o.valid && o.last).map_or(0, |o| o.cycles);
        let mut map = Map::new();
        map.insert("requests".into(), Value::Array(requests));
        map.insert("cycles".into(), json!(cycles));
        map
    }

    fn parse_eval(line: &str) -> Result<In, String> {
        parse_wave(line)
    }

    /// Waits for `ready`, offers the wave for one edge, then collects its beats up to `last`.
    fn eval_cycles<U>(unit: &mut U, input: &In) -> Vec<Out>
    where
        U: Unit<In = In, Out = Out>,
    {
        let idle = In::default();
        let mut ready = false;
        for _ in 0..DRAIN_LIMIT {
            if unit.step(&idle).ready {
                ready = true;
                break;
            }
        }
        if !ready {
            return Vec::new();
        }
        unit.step(&In { valid: true, ..*input });
        let mut beats = Vec::new();
        for _ in 0..DRAIN_LIMIT {
            let out = unit.step(&idle);
            beats.push(out);
            if out.last {
                break;
            }
        }
        beats
    }

    /// One to four handshakes, realized against the model ([`realize`]).
    fn generate_case(rng: &mut Rng) -> Vec<Step<In>> {
        let count = 1 + rng.below(4);
        let transactions: Vec<Transaction> = (0..count).map(|_| transaction(rng)).collect();
        realize(&transactions)
    }

    /// A wave is many beats: see [`cover_cycle`].
    #[inline]
    fn cover_cycle(in_flight: &mut InFlight<In, Out>, step: &Step<In>, out: &Out, hits: &mut Hits) {
        cover_cycle(in_flight, step, out, hits);
    }
}

/// The coalescer's functional-coverage pairing (docs/decisions.md "coalescer"): a wave is taken
/// at an edge that sees `valid_i` with the previous cycle's `ready_o` high and no reset
/// (`in_flight.last_out` holds that cycle's outputs); its beats follow, each sampled with the one
/// before it, and the last one with the wave ([`crate::coalescer::cover`]); a reset drops the
/// wave in flight. The handshake events of every cycle are sampled too.
pub fn cover_cycle(in_flight: &mut InFlight<In, Out>, step: &Step<In>, out: &Out, hits: &mut Hits) {
    use crate::coalescer::cover::{sample_beat, sample_handshake, sample_requests, Handshake};
    let prev = in_flight.last_out;
    let (mut requests, offered_before) = (in_flight.count, in_flight.flag);
    let valid = step.input.valid;
    let mut offered = false;
    if step.reset != Reset::None {
        let event = match (in_flight.queue.is_empty(), step.reset) {
            (true, _) => Handshake::ResetIdle,
            (false, Reset::Pulse) => Handshake::ResetPulseMidWave,
            (false, _) => Handshake::ResetHoldMidWave,
        };
        sample_handshake(event, hits);
        in_flight.queue.clear();
        if valid {
            sample_handshake(Handshake::OfferedInReset, hits);
        }
    } else if valid && prev.ready {
        sample_handshake(if prev.last { Handshake::BackToBack } else { Handshake::AfterIdle }, hits);
        if offered_before {
            sample_handshake(Handshake::HeldUntilTaken, hits);
        }
        in_flight.queue.clear();
        in_flight.queue.push_back(step.input);
        requests = 0;
    } else if valid {
        sample_handshake(Handshake::OfferedWhileBusy, hits);
        offered = true;
    } else if offered_before {
        sample_handshake(Handshake::Withdrawn, hits);
    }
    if out.valid {
        if let Some(wave) = in_flight.queue.front() {
            sample_beat(wave, out, &prev, hits);
            requests += u32::from(out.lanes != 0);
            if out.last {
                <Coalescer as Covered>::sample(wave, out, hits);
                sample_requests(requests, hits);
                in_flight.queue.clear();
            }
        }
    }
    (in_flight.count, in_flight.flag) = (requests, offered);
    in_flight.last_out = *out;
}

/// Parses a SPEC §13 `eval` line: `addresses` (64 integers or "0x…" strings of 48 bits),
/// `active` (64-bit hex), `bytes` (1, 2, 4, 8, 12 or 16), `single`.
fn parse_wave(line: &str) -> Result<In, String> {
    const FIELDS: [&str; 4] = ["addresses", "active", "bytes", "single"];
    let map = parse_map(line)?;
    if let Some(key) = map.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(format!("unknown field `{key}`; the fields are: {}", FIELDS.join(", ")));
    }
    let field = |name: &str| map.get(name).ok_or_else(|| format!("missing field `{name}`"));
    let parse = |name: &'static str, width: u32, kind: Kind| -> Result<u128, String> {
        parse_value(&Signal { name, width, kind }, field(name)?, Strictness::Strict)
            .map_err(|e| format!("field `{name}`: {e}"))
    };
    let mut input = In { valid: true, ..In::default() };
    let Value::Array(items) = field("addresses")? else {
        return Err(format!("field `addresses`: expected a list of {LANES} addresses"));
    };
    if items.len() != LANES {
        return Err(format!("field `addresses`: expected a list of {LANES} addresses, got {}", items.len()));
    }
    let address = Signal { name: "addresses", width: 48, kind: Kind::Int };
    for (lane, item) in items.iter().enumerate() {
        let a = parse_value(&address, item, Strictness::Strict)
            .map_err(|e| format!("field `addresses`: element {lane}: {e}"))?;
        input.addr[lane] = a as u64;
    }
    input.active = parse("active", 64, Kind::Hex)? as u64;
    input.size = parse("bytes", 5, Kind::OneOf(EVAL_BYTES))? as u8 - 1;
    input.single = parse("single", 1, Kind::Bool)? != 0;
    Ok(input)
}

/// How a wave's lane addresses are laid out.
#[derive(Clone, Copy, Debug)]
enum Layout {
    /// Lane k at base + k·bytes: consecutive elements.
    Consecutive,
    /// Lane k at base + k·stride.
    Stride(u64),
    /// Lane k at base + a random offset below the window (lanes sharing and straddling blocks).
    Window(u64),
    /// Every lane anywhere in the 48-bit space.
    Scattered,
}

/// One random wave (valid = 1), biased to SPEC §7's corners: fully coalesced consecutive
/// elements, one lane or quad straddling a 16-byte boundary, EXEC holes and empty waves, the
/// one active lane, the access sizes of ubyte..dwordx4, lanes sharing a block, and the 2^48 wrap.
pub fn generate(rng: &mut Rng) -> In {
    const MASK48: u64 = (1 << 48) - 1;
    let size = one_of!(rng; 6 => rng.pick(&[0u8, 1, 3, 7, 11, 15]), 1 => rng.below(16) as u8);
    let base = one_of!(rng;
        3 => rng.below(1 << 20) & !0xf,
        2 => rng.next_u64() & MASK48,
        1 => 0x1000 + rng.below(16),
        2 => (1u64 << 48) - rng.range(1..512),
    );
    let layout = one_of!(rng;
        4 => Layout::Consecutive,
        1 => Layout::Stride(0),
        1 => Layout::Stride(rng.pick(&[1u64, 2, 4, 8, 12, 16, 32, 64])),
        2 => Layout::Window(rng.pick(&[16u64, 32, 64, 256])),
        1 => Layout::Scattered,
    );
    let active = one_of!(rng;
        4 => u64::MAX,
        3 => rng.next_u64(),
        1 => 0u64,
        2 => !(1u64 << rng.below(64)) & !(1u64 << rng.below(64)),
        1 => 0xf << (4 * rng.below(16)),
        1 => 0xffff << (16 * rng.below(4)),
        1 => 1u64 << rng.below(64),
    );
    // A lane moved to the last bytes of its block so that its access straddles (when it can).
    let straddle = one_of!(rng; 3 => None, 1 => Some((rng.below(LANES as u64) as usize, rng.below(4))));
    let single = rng.chance(0.6);
    let bytes = u64::from(size) + 1;
    let mut input = In { valid: true, active, size, single, ..In::default() };
    for (k, a) in input.addr.iter_mut().enumerate() {
        let k = k as u64;
        *a = match layout {
            Layout::Consecutive => base.wrapping_add(k * bytes),
            Layout::Stride(s) => base.wrapping_add(k * s),
            Layout::Window(w) => base.wrapping_add(rng.below(w)),
            Layout::Scattered => rng.next_u64(),
        } & MASK48;
    }
    if let Some((lane, back)) = straddle {
        input.addr[lane] = (input.addr[lane] | 0xf).wrapping_sub(back) & MASK48;
    }
    input
}

/// One handshake of a random case: what the sender does around one wave.
#[derive(Clone, Debug)]
pub struct Transaction {
    /// Reset activity in the first cycle of the transaction (mostly none).
    reset: Reset,
    /// Idle cycles before the wave is offered (their inputs: the decoy with valid = 0).
    gap: u8,
    /// While `ready` is low before the offer: bit i = valid in the i-th waiting cycle, with the
    /// decoy wave's data (a sender that withdraws); `None` holds the real wave instead.
    withdraw: Option<u32>,
    wave: In,
    decoy: In,
    /// A reset this many cycles after the acceptance, in the middle of the wave's beats.
    stream_reset: Option<(u8, Reset)>,
    /// The sender offers the decoy wave (valid = 1) in the cycles with reset activity (it must
    /// not be taken).
    offer_in_reset: bool,
}

/// One random handshake.
pub fn transaction(rng: &mut Rng) -> Transaction {
    Transaction {
        reset: generate_reset(rng),
        gap: one_of!(rng; 3 => 0u8, 2 => rng.range(1..4) as u8),
        withdraw: one_of!(rng; 2 => None, 1 => Some(rng.next_u32())),
        wave: generate(rng),
        decoy: generate(rng),
        stream_reset: one_of!(rng; 24 => None, 1 => Some((rng.below(40) as u8, generate_reset(rng)))),
        offer_in_reset: rng.chance(0.25),
    }
}

/// Turns handshakes into cycles by running them against the model, so that the sender reacts
/// to `ready` as a real one would; the cycles are what the lockstep run (and a vector file)
/// replays, on both sides. The case ends once the last wave has drained.
pub fn realize(transactions: &[Transaction]) -> Vec<Step<In>> {
    let mut model = Coalescer::default();
    model.reset();
    let mut held = false;
    let mut steps = Vec::new();
    let mut push = |model: &mut Coalescer, steps: &mut Vec<Step<In>>, step: Step<In>| {
        drive_unit(model, &mut held, &step);
        steps.push(step);
    };
    for t in transactions {
        let idle = In { valid: false, ..t.decoy };
        let in_reset = In { valid: t.offer_in_reset, ..t.decoy };
        let gap = if t.reset == Reset::None { t.gap } else { t.gap.max(1) };
        for i in 0..gap {
            let step = if i == 0 { Step { reset: t.reset, input: in_reset } } else { Step::from(idle) };
            push(&mut model, &mut steps, step);
        }
        if let Some(pattern) = t.withdraw {
            for i in 0..32 {
                if model.ready() {
                    break;
                }
                let input = In { valid: pattern >> i & 1 != 0, ..t.decoy };
                push(&mut model, &mut steps, Step::from(input));
            }
        }
        // Offer the wave until an edge takes it (at most one wave's beats plus reset release).
        for _ in 0..DRAIN_LIMIT {
            let taken = model.ready();
            push(&mut model, &mut steps, Step::from(t.wave));
            if taken {
                break;
            }
        }
        if let Some((after, reset)) = t.stream_reset {
            for _ in 0..after {
                if !model.busy() {
                    break;
                }
                push(&mut model, &mut steps, Step::from(idle));
            }
            push(&mut model, &mut steps, Step { reset, input: in_reset });
        }
    }
    // Drain the last wave, then one more cycle so `ready` is seen to rise.
    for _ in 0..DRAIN_LIMIT {
        if !model.busy() {
            break;
        }
        push(&mut model, &mut steps, Step::default());
    }
    push(&mut model, &mut steps, Step::default());
    steps
}
