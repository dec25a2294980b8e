//! `coalescer`: the TA request coalescer of seed 003 — one wave of 64 lane addresses in, the
//! stream of 16-byte block requests the TA sends the TCP out, one per cycle, with the wave's TA
//! cycle count.
//!
//! Spec: docs/spec.md §7 (cost: §8)  RTL: rtl/coalescer.sv  Tests: tests/coalescer.rs
//! Cycle-level contract: docs/decisions.md "coalescer (SPEC §7)".
//!
//! [`coalesce`] is the unit's function (a wave to its requests and cycle count); [`Coalescer`]
//! is the clocked model with the RTL's `valid_i`/`ready_o` handshake:
//! - idle: an edge that sees `valid` with `ready` high captures the wave and lowers `ready`;
//!   otherwise `ready` rises (it is 0 from reset until the first edge).
//! - busy: each edge registers the next request as an output beat; the edge that registers the
//!   last one (`last`, with `cycles`) releases the wave and raises `ready`. Inputs are ignored.
//!
//! A wave with no request (no active lane) is one beat with `lanes = 0` that only carries the
//! cycle count. Between beats every beat output is 0. Reset clears every register and drops a
//! wave in flight.

use bitvec::prelude::{BitArray, Lsb0};

use crate::ports;
use crate::unit::{Kind, Ports, Signal, Unit};

/// Lanes of a wave.
pub const LANES: usize = 64;
/// Requests a wave can make: every lane touching two blocks.
pub const MAX_REQUESTS: usize = 2 * LANES;
/// Addresses are 48 bits (SPEC: addresses modulo 2^48); a block address is bits 47:4.
const ADDRESS_MASK: u64 = (1 << 48) - 1;
const BLOCK_MASK: u64 = (1 << 44) - 1;

/// Inputs of `coalescer`, in RTL port order. (Not declared with `ports!`: the 64 lane addresses
/// are 64 ports `addr0`..`addr63` of 48 bits, one RTL port `addr_i[63:0][47:0]`.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct In {
    /// A wave is offered this cycle.
    pub valid: bool,
    /// Lane k's byte address (48 bits; higher bits are ignored).
    pub addr: [u64; LANES],
    /// Active lanes (EXEC, in range, bound), bit k = lane k.
    pub active: u64,
    /// The access size in bytes minus one (4 bits: 1..16 bytes).
    pub size: u8,
    /// Single-component access (SPEC §7): merged in groups of 16 lanes.
    pub single: bool,
}

impl Default for In {
    fn default() -> Self {
        In { valid: false, addr: [0; LANES], active: 0, size: 0, single: false }
    }
}

const ADDR_NAMES: [&str; LANES] = [
    "addr0", "addr1", "addr2", "addr3", "addr4", "addr5", "addr6", "addr7", "addr8", "addr9", "addr10", "addr11",
    "addr12", "addr13", "addr14", "addr15", "addr16", "addr17", "addr18", "addr19", "addr20", "addr21", "addr22",
    "addr23", "addr24", "addr25", "addr26", "addr27", "addr28", "addr29", "addr30", "addr31", "addr32", "addr33",
    "addr34", "addr35", "addr36", "addr37", "addr38", "addr39", "addr40", "addr41", "addr42", "addr43", "addr44",
    "addr45", "addr46", "addr47", "addr48", "addr49", "addr50", "addr51", "addr52", "addr53", "addr54", "addr55",
    "addr56", "addr57", "addr58", "addr59", "addr60", "addr61", "addr62", "addr63",
];

const fn in_signals() -> [Signal; LANES + 4] {
    let mut s = [Signal { name: "valid", width: 1, kind: Kind::Bool }; LANES + 4];
    let mut k = 0;
    while k < LANES {
        s[1 + k] = Signal { name: ADDR_NAMES[k], width: 48, kind: Kind::Hex };
        k += 1;
    }
    s[LANES + 1] = Signal { name: "active", width: 64, kind: Kind::Hex };
    s[LANES + 2] = Signal { name: "size", width: 4, kind: Kind::Int };
    s[LANES + 3] = Signal { name: "single", width: 1, kind: Kind::Bool };
    s
}

const IN_SIGNALS: [Signal; LANES + 4] = in_signals();

impl Ports for In {
    const SIGNALS: &'static [Signal] = &IN_SIGNALS;

    fn get(&self, index: usize) -> u128 {
        match index {
            0 => u128::from(self.valid),
            i if i <= LANES => u128::from(self.addr[i - 1]),
            i if i == LANES + 1 => u128::from(self.active),
            i if i == LANES + 2 => u128::from(self.size),
            i if i == LANES + 3 => u128::from(self.single),
            _ => 0,
        }
    }

    fn set(&mut self, index: usize, value: u128) {
        // Truncation to the port's width is the point of these casts.
        match index {
            0 => self.valid = value & 1 != 0,
            i if i <= LANES => self.addr[i - 1] = value as u64 & ADDRESS_MASK,
            i if i == LANES + 1 => self.active = value as u64,
            i if i == LANES + 2 => self.size = value as u8 & 0xf,
            i if i == LANES + 3 => self.single = value & 1 != 0,
            _ => {}
        }
    }
}

ports! {
    /// Outputs of `coalescer`, in RTL port order: one beat per cycle.
    pub struct Out {
        /// A beat (a request, or the empty wave's cost-only beat) this cycle.
        valid: bool = 1, Kind::Bool;
        /// A wave would be accepted at the next edge.
        ready: bool = 1, Kind::Bool;
        /// The request's 16-byte block: address bits 47:4.
        addr: u64 = 44, Kind::Hex;
        /// Bytes of the block the request reads, bit b = byte b.
        bytes: u16 = 16, Kind::Hex;
        /// Lanes served by the request, bit k = lane k (0: the empty wave's beat).
        lanes: u64 = 64, Kind::Hex;
        /// The wave's last beat.
        last: bool = 1, Kind::Bool;
        /// With `last`: the wave's TA cycle count (SPEC §7), 4..16; 0 otherwise.
        cycles: u8 = 5, Kind::Int;
    }
}

/// One wave as the unit sees it (the fields of [`In`] without the handshake), with its access
/// size in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wave {
    pub addr: [u64; LANES],
    pub active: u64,
    /// Bytes per lane access, 1..=16.
    pub bytes: u8,
    pub single: bool,
}

impl Wave {
    /// The wave an input offers.
    pub fn of(input: &In) -> Wave {
        Wave { addr: input.addr, active: input.active, bytes: (input.size & 0xf) + 1, single: input.single }
    }
}

/// One request: a 16-byte block, the bytes read from it and the lanes it serves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Request {
    /// Address bits 47:4 of the block.
    pub block: u64,
    /// Bit b = byte b of the block.
    pub bytes: u16,
    /// Bit k = lane k.
    pub lanes: u64,
}

/// A wave's requests in issue order and its TA cycle count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coalesced {
    pub requests: Vec<Request>,
    pub cycles: u8,
}

/// Bytes `from..to` (to ≤ 16) as a block byte mask.
fn byte_mask(from: u32, to: u32) -> u16 {
    let upper = if to >= 16 { u32::MAX } else { (1u32 << to) - 1 };
    (upper & !((1u32 << from) - 1)) as u16
}

// The SPEC §7 grouping, shared by this unit and the TA of `vmem_pipe` (rust/vmem_pipe/ta.rs):
// a lane's blocks, a group's quad merging, the per-lane requests. Addresses are indexed by lane
// (`addr[k]` = lane k's byte address) and `active` has bit k for lane k.

/// The one or two (block, bytes) pairs an access of `bytes` bytes (1..=16) from `address`
/// touches, modulo 2^48 (docs/decisions.md "coalescer", *Requests of a wave*): the first block
/// `address[47:4]` with bytes `o .. min(o + bytes, 16)`, and when `o + bytes > 16` the next block
/// (modulo 2^44) with bytes `0 .. o + bytes − 16`, `o` being `address[3:0]`.
#[inline]
pub fn lane_blocks(address: u64, bytes: u8) -> [Option<(u64, u16)>; 2] {
    let address = address & ADDRESS_MASK;
    let block = address >> 4;
    let offset = (address & 0xf) as u32;
    let end = offset + u32::from(bytes);
    if end <= 16 {
        [Some((block, byte_mask(offset, end))), None]
    } else {
        [Some((block, byte_mask(offset, 16))), Some(((block + 1) & BLOCK_MASK, byte_mask(0, end - 16)))]
    }
}

/// The active lanes of `lanes` (bit k = lane k), ascending.
fn active_lanes(active: u64, lanes: std::ops::Range<usize>) -> impl Iterator<Item = usize> {
    let bits: BitArray<[u64; 1], Lsb0> = BitArray::new([active]);
    bits.into_iter().enumerate().skip(lanes.start).take(lanes.len()).filter(|&(_, on)| on).map(|(k, _)| k)
}

/// One per-lane request (SPEC §7): lane `lane`'s `second` (false: first) block `block`, the
/// `bytes` of it that the lane's access covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneRequest {
    pub lane: usize,
    pub second: bool,
    pub block: u64,
    pub bytes: u16,
}

/// The per-lane requests of the active lanes among `lanes`, in order (each active lane
/// ascending, its first block, then its second when the access straddles), passed to `emit`.
#[inline]
pub fn per_lane_requests(
    addr: &[u64; LANES],
    active: u64,
    bytes: u8,
    lanes: std::ops::Range<usize>,
    mut emit: impl FnMut(LaneRequest),
) {
    for lane in active_lanes(active, lanes) {
        for (k, blk) in lane_blocks(addr[lane], bytes).into_iter().enumerate() {
            if let Some((block, mask)) = blk {
                emit(LaneRequest { lane, second: k == 1, block, bytes: mask });
            }
        }
    }
}

/// Quad `first..first + 4` as one request, or `None` when it has no active lane; `Err(())` when
/// it is not mergeable (an active lane touches two blocks, or two active lanes different ones).
fn merged_quad(addr: &[u64; LANES], active: u64, bytes: u8, first: usize) -> Result<Option<Request>, ()> {
    let mut merged: Option<Request> = None;
    for lane in active_lanes(active, first..first + 4) {
        let [Some((block, mask)), None] = lane_blocks(addr[lane], bytes) else {
            return Err(());
        };
        match &mut merged {
            None => merged = Some(Request { block, bytes: mask, lanes: 1 << lane }),
            Some(r) if r.block == block => {
                r.bytes |= mask;
                r.lanes |= 1 << lane;
            }
            Some(_) => return Err(()),
        }
    }
    Ok(merged)
}

/// Group `group` (lanes 16·group .. 16·group + 15) of a single-component access: when all four of
/// its quads are mergeable (SPEC §7), quad q's merged request at element q (`None` for a quad with
/// no active lane); `None` when some quad is not mergeable (the group is then per-lane).
#[inline]
pub fn merged_group(addr: &[u64; LANES], active: u64, bytes: u8, group: usize) -> Option<[Option<Request>; 4]> {
    let mut quads = [None; 4];
    for (q, slot) in quads.iter_mut().enumerate() {
        *slot = merged_quad(addr, active, bytes, 16 * group + 4 * q).ok()?;
    }
    Some(quads)
}

/// SPEC §7: the requests of `wave` in issue order and its cycle count.
pub fn coalesce(wave: &Wave) -> Coalesced {
    let mut requests = Vec::with_capacity(MAX_REQUESTS);
    let request = |r: LaneRequest| Request { block: r.block, bytes: r.bytes, lanes: 1 << r.lane };
    if !wave.single {
        // Four lanes per cycle, one request per block each active lane touches.
        per_lane_requests(&wave.addr, wave.active, wave.bytes, 0..LANES, |r| requests.push(request(r)));
        return Coalesced { requests, cycles: 16 };
    }
    let mut cycles = 0;
    for group in 0..LANES / 16 {
        match merged_group(&wave.addr, wave.active, wave.bytes, group) {
            Some(quads) => {
                cycles += 1;
                requests.extend(quads.into_iter().flatten());
            }
            None => {
                cycles += 4;
                let first = 16 * group;
                per_lane_requests(&wave.addr, wave.active, wave.bytes, first..first + 16, |r| {
                    requests.push(request(r))
                });
            }
        }
    }
    Coalesced { requests, cycles }
}

/// The TA cycles of a fully coalesced wave of `bytes`-byte accesses (all 64 lanes active,
/// consecutive elements from an aligned address), as the cost model (SPEC §8) uses them.
pub fn coalesced_wave_cycles(bytes: u8, single: bool) -> u8 {
    let bytes = bytes.clamp(1, 16);
    let mut addr = [0u64; LANES];
    for (k, a) in addr.iter_mut().enumerate() {
        *a = k as u64 * u64::from(bytes);
    }
    coalesce(&Wave { addr, active: u64::MAX, bytes, single }).cycles
}

/// The clocked model (see the module documentation).
#[derive(Clone, Debug)]
pub struct Coalescer {
    /// The output registers, `ready` included.
    out: Out,
    /// Beats of the wave in flight, and the next one to register.
    beats: Vec<Out>,
    next: usize,
    /// rst_ni is low.
    in_reset: bool,
}

impl Default for Coalescer {
    fn default() -> Self {
        Coalescer { out: Out::default(), beats: Vec::with_capacity(MAX_REQUESTS), next: 0, in_reset: false }
    }
}

impl Coalescer {
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether a wave is held (its beats are not all out yet).
    pub fn busy(&self) -> bool {
        self.next < self.beats.len()
    }

    /// `ready_o` now: whether an offered wave is taken at the next edge.
    pub fn ready(&self) -> bool {
        self.out.ready
    }

    /// Turns a wave into its output beats.
    fn load(&mut self, wave: &Wave) {
        beats(wave, &mut self.beats);
        self.next = 0;
    }
}

/// The output beats of a wave, into `beats` (cleared first): one per request, in issue order,
/// the last with `last`, `ready` and the wave's cycle count (see docs/decisions.md: the empty
/// wave is one beat).
pub fn beats(wave: &Wave, beats: &mut Vec<Out>) {
    let Coalesced { requests, cycles } = coalesce(wave);
    beats.clear();
    beats.extend(requests.iter().map(|r| Out {
        valid: true,
        ready: false,
        addr: r.block,
        bytes: r.bytes,
        lanes: r.lanes,
        last: false,
        cycles: 0,
    }));
    if beats.is_empty() {
        beats.push(Out { valid: true, ..Out::default() });
    }
    let last = beats.last_mut().expect("a wave has at least one beat");
    last.last = true;
    last.ready = true;
    last.cycles = cycles;
}

impl Unit for Coalescer {
    const NAME: &'static str = "coalescer";
    /// Acceptance to first beat: the step after the accepting one shows it.
    const LATENCY: usize = 2;
    type In = In;
    type Out = Out;

    fn set_reset(&mut self, asserted: bool) -> Out {
        if asserted {
            self.out = Out::default();
            self.beats.clear();
            self.next = 0;
        }
        self.in_reset = asserted;
        self.out
    }

    fn step(&mut self, input: &In) -> Out {
        if self.in_reset {
            return self.out;
        }
        if self.busy() {
            // The beat carries ready = 1 when it is the last one: the wave is released.
            self.out = self.beats[self.next];
            self.next += 1;
        } else if input.valid && self.out.ready {
            self.load(&Wave::of(input));
            self.out = Out::default();
        } else {
            self.out = Out { ready: true, ..Out::default() };
        }
        self.out
    }
}

// Functional coverage bins: rust/coalescer/cover.rs.
pub mod cover;

crate::cover::impl_covered!(Coalescer);

/// The access sizes of an eval object's `bytes` (SPEC §13): ubyte, ushort, dword, dwordx2/x3/x4.
pub const EVAL_BYTES: &[u32] = &[1, 2, 4, 8, 12, 16];

// The unit's `eval` object (SPEC §13): one wave in (its lane addresses, active mask, access size
// and `single`), its request list and cycle count out.
#[cfg(feature = "json")]
mod eval_object {
    use serde_json::{Map, Value};

    use super::*;
    use crate::eval::{self, EvalObject, Field, FieldValue};

    impl EvalObject for Coalescer {
        fn fields() -> Vec<Field> {
            let field = |name, width, kind, len| Field { signal: Signal { name, width, kind }, len };
            vec![
                field("addresses", 48, Kind::Int, Some(LANES)),
                field("active", 64, Kind::Hex, None),
                field("bytes", 5, Kind::OneOf(EVAL_BYTES), None),
                field("single", 1, Kind::Bool, None),
            ]
        }

        fn input(values: &[FieldValue]) -> In {
            let value = |i: usize| values.get(i).map_or(0, FieldValue::one);
            let mut input = In { valid: true, ..In::default() };
            let addresses = values.first().map_or(&[][..], FieldValue::list);
            for (a, &v) in input.addr.iter_mut().zip(addresses) {
                *a = v as u64 & ADDRESS_MASK;
            }
            input.active = value(1) as u64;
            input.size = (value(2) as u8).wrapping_sub(1) & 0xf;
            input.single = value(3) != 0;
            input
        }

        fn result(input: &In) -> Vec<Out> {
            let mut out = Vec::with_capacity(MAX_REQUESTS);
            beats(&Wave::of(input), &mut out);
            out
        }

        /// `requests` (the beats with lanes, in order) and `cycles` (from the last beat).
        fn object(_input: &In, outs: &[Out]) -> Map<String, Value> {
            let requests: Vec<Value> = outs
                .iter()
                .filter(|o| o.valid && o.lanes != 0)
                .map(|o| {
                    Value::Object(eval::object([
                        ("address", Value::from(o.addr << 4)),
                        ("bytes", Value::from(o.bytes)),
                        ("lanes", Value::from(format!("0x{:016x}", o.lanes))),
                    ]))
                })
                .collect();
            let cycles = outs.iter().find(|o| o.valid && o.last).map_or(0, |o| o.cycles);
            eval::object([("requests", Value::Array(requests)), ("cycles", Value::from(cycles))])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wave(bytes: u8, single: bool, addr: impl Fn(usize) -> u64) -> Wave {
        let mut a = [0u64; LANES];
        for (k, x) in a.iter_mut().enumerate() {
            *x = addr(k);
        }
        Wave { addr: a, active: u64::MAX, bytes, single }
    }

    #[test]
    fn byte_masks() {
        for (from, to, mask) in [(0, 16, 0xffff), (4, 8, 0x00f0), (15, 16, 0x8000), (0, 1, 0x0001)] {
            assert_eq!(byte_mask(from, to), mask, "byte_mask({from}, {to})");
        }
    }

    #[test]
    fn consecutive_dwords_take_four_cycles_and_one_request_per_quad() {
        let c = coalesce(&wave(4, true, |k| 0x1000 + 4 * k as u64));
        assert_eq!(c.cycles, 4);
        assert_eq!(c.requests.len(), 16);
        for (q, r) in c.requests.iter().enumerate() {
            assert_eq!(*r, Request { block: 0x100 + q as u64, bytes: 0xffff, lanes: 0xf << (4 * q) });
        }
    }

    #[test]
    fn multi_component_is_sixteen_cycles_and_per_lane() {
        let c = coalesce(&wave(16, false, |k| 0x2000 + 16 * k as u64));
        assert_eq!(c.cycles, 16);
        assert_eq!(c.requests.len(), 64);
        assert!(c.requests.iter().enumerate().all(|(k, r)| r.lanes == 1 << k && r.bytes == 0xffff));
    }

    #[test]
    fn a_straddling_lane_unmerges_its_group_only() {
        let mut w = wave(4, true, |k| 0x1000 + 4 * k as u64);
        w.addr[5] = 0x100e; // bytes 0x100e..0x1011: two blocks
        let c = coalesce(&w);
        assert_eq!(c.cycles, 4 + 1 + 1 + 1);
        // Group 0: 16 lanes, lane 5 twice; then 12 quads.
        assert_eq!(c.requests.len(), 17 + 12);
        assert_eq!(c.requests[5], Request { block: 0x100, bytes: 0xc000, lanes: 1 << 5 });
        assert_eq!(c.requests[6], Request { block: 0x101, bytes: 0x0003, lanes: 1 << 5 });
    }

    #[test]
    fn the_top_of_the_address_space_wraps_to_block_zero() {
        let mut w = wave(16, false, |_| 0);
        w.active = 1;
        w.addr[0] = 0xffff_ffff_fff8;
        let c = coalesce(&w);
        assert_eq!(
            c.requests,
            vec![
                Request { block: 0xfff_ffff_ffff, bytes: 0xff00, lanes: 1 },
                Request { block: 0, bytes: 0x00ff, lanes: 1 }
            ]
        );
    }

    #[test]
    fn an_empty_wave_costs_one_cycle_per_group() {
        let mut w = wave(4, true, |_| 0);
        w.active = 0;
        assert_eq!(coalesce(&w), Coalesced { requests: vec![], cycles: 4 });
        w.single = false;
        assert_eq!(coalesce(&w).cycles, 16);
    }

    #[test]
    fn handshake_timing() {
        let mut unit = Coalescer::new();
        unit.reset();
        assert!(!unit.ready(), "ready rises at the first edge after reset");
        let mut input = In { valid: true, active: 0b11, size: 3, single: false, ..In::default() };
        input.addr[1] = 0x40;
        // Not ready yet: not taken.
        assert_eq!(unit.step(&input), Out { ready: true, ..Out::default() });
        // Taken at this edge.
        assert_eq!(unit.step(&input), Out::default());
        let b0 = unit.step(&In::default());
        assert_eq!((b0.valid, b0.ready, b0.lanes, b0.bytes, b0.last), (true, false, 1, 0x000f, false));
        let b1 = unit.step(&input);
        assert_eq!((b1.valid, b1.ready, b1.addr, b1.lanes, b1.last, b1.cycles), (true, true, 4, 2, true, 16));
        // The input held during the stream is taken again now that ready is up.
        assert_eq!(unit.step(&input), Out::default());
    }
}
