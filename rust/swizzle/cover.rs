//! Functional coverage (rust/cover.rs): the bins `make cosim` must hit, from SPEC §3's steps.
//!
//! Channel points are sampled over the channels DMASK enables (DMASK 0 read as 0001, step 4):
//! the others never reach a result dword. The sampler is table lookups and selects: random
//! dst_sel codes and masks would make every branch a misprediction on the lockstep run's hot
//! path.

use std::hint::select_unpredictable;

use super::{In, Out, DMASK_ZERO_AS};
use crate::cover::{Covergroup, Hits};

/// The coverpoints, in declaration order.
#[repr(usize)]
enum Point {
    ChannelSel,
    Pattern,
    Compaction,
    Dmask,
    Source,
    Count,
    Oor,
    Dwords,
    Status,
}

const CHANNELS: [&str; 4] = ["R", "G", "B", "A"];
const CODES: [&str; 8] = ["SEL_0", "SEL_1", "reserved 2", "reserved 3", "X", "Y", "Z", "W"];
/// dst_sel patterns over the four channels (all of them, enabled or not).
pub const PATTERNS: [&str; 5] = [
    "identity XYZW",
    "a component selected twice or more",
    "components reordered, none repeated",
    "constants and components",
    "constants only (0, 1, reserved)",
];
/// Out-of-range masks: none, all four (all-or-nothing accesses), the dwords from some k on
/// (1000, 1100, 1110: a per-dword raw range ending inside the access), any other.
pub const OOR: [&str; 4] = ["none", "all four", "a suffix (1000, 1100, 1110)", "other partial mask"];
const OOR_BIN: [u8; 16] = [0, 3, 3, 3, 3, 3, 3, 3, 2, 3, 3, 3, 2, 3, 2, 1];
const STATES: [&str; 3] = ["in range", "out of range", "unbound"];
const READS: [&str; 4] = ["present", "absent (k >= count)", "out of range", "unbound"];
/// First `compaction` bin of each channel (channel c has dwords 0..=c).
const COMPACTION: [usize; 4] = [0, 1, 3, 6];
/// `source` bins of the constant codes: SEL_0, SEL_1, reserved 2 and 3 (read as SEL_0).
const CONSTANT: [usize; 8] = [0, 1, 2, 2, 0, 0, 0, 0];
/// First `source` bin of the components (after 3 constants x 2 nfmt classes x 3 states).
const COMPONENTS: usize = 18;
/// Bit of component k for the codes X..W, 0 for the constants.
const COMPONENT_BIT: [u8; 8] = [0, 0, 0, 0, 1, 2, 4, 8];

pub fn covergroup() -> Covergroup {
    let compaction = (0..4).flat_map(|c| (0..=c).map(move |d| format!("{} -> dword {d}", CHANNELS[c])));
    let dmask = (0..16u8).map(|m| {
        let names: Vec<&str> = (0..4).filter(|c| m >> c & 1 != 0).map(|c| CHANNELS[c]).collect();
        if m == 0 {
            "0000 (as 0001: R)".to_string()
        } else {
            format!("{m:04b} ({})", names.join(","))
        }
    });
    // What an enabled channel reads: a constant (SEL_0, SEL_1, a reserved code read as
    // SEL_0) under each nfmt class and lane state, or component k present, absent, out of
    // range or unbound.
    let constants = ["SEL_0", "SEL_1", "reserved 2/3 (as SEL_0)"].into_iter().flat_map(|sel| {
        ["float-like", "integer"].into_iter().flat_map(move |class| STATES.map(|s| format!("{sel} {class} {s}")))
    });
    let components = ["X", "Y", "Z", "W"].into_iter().flat_map(|k| READS.map(|r| format!("{k} {r}")));
    let counts = ["0 (no component)", "1", "2", "3", "4", "5 (as 4)", "6 (as 4)", "7 (as 4)"];
    Covergroup::new()
        .cross(Point::ChannelSel as usize, "enabled channel x dst_sel", &[&CHANNELS, &CODES])
        .point(Point::Pattern as usize, "dst_sel pattern", PATTERNS)
        .point(Point::Compaction as usize, "compaction: channel -> result dword", compaction)
        .point(Point::Dmask as usize, "dmask", dmask)
        .point(Point::Source as usize, "channel source x state", constants.chain(components))
        .point(Point::Count as usize, "count", counts)
        .point(Point::Oor as usize, "oor mask", OOR)
        .cross(Point::Dwords as usize, "tfe x data dwords", &[&["tfe=0", "tfe=1"], &["1", "2", "3", "4"]])
        .cross(Point::Status as usize, "lane state x tfe", &[&STATES, &["tfe=0", "tfe=1"]])
}

#[inline]
pub fn sample(input: &In, _out: &Out, hits: &mut Hits) {
    let dmask = select_unpredictable(input.dmask & 0xf == 0, DMASK_ZERO_AS, input.dmask & 0xf);
    let oor = input.oor & 0xf;
    let count = input.count & 0x7;
    let integer = usize::from(input.integer);
    let unbound = input.unbound;
    let state = select_unpredictable(unbound, 2, usize::from(oor != 0));
    let codes: [usize; 4] = std::array::from_fn(|c| usize::from(input.dst_sel >> (3 * c) & 7));
    // Cross bins by hand (the last axis fastest, as `cross` lays them out). Every channel is
    // looked at and an enabled one counted (`hit_if`): DMASK is a coin toss per channel, and a
    // loop over its set bits mispredicts its exit.
    for (c, &code) in codes.iter().enumerate() {
        let on = dmask >> c & 1 != 0;
        // The dword this channel writes: the enabled channels below it.
        let dword = (dmask & ((1 << c) - 1)).count_ones() as usize;
        hits.hit_if(on, Point::ChannelSel as usize, c * 8 + code);
        hits.hit_if(on, Point::Compaction as usize, COMPACTION[c] + dword);
        let k = (code & 3) as u8;
        let read =
            select_unpredictable(unbound, 3, select_unpredictable(oor >> k & 1 != 0, 2, usize::from(k >= count)));
        let constant = (CONSTANT[code] * 2 + integer) * 3 + state;
        let source = select_unpredictable(code >= 4, COMPONENTS + usize::from(k) * 4 + read, constant);
        hits.hit_if(on, Point::Source as usize, source);
    }
    let dword = dmask.count_ones() as usize;
    // Pattern: the components' bits, whether one repeats, how many channels select one.
    let (mut seen, mut repeated, mut components) = (0u8, 0u8, 0);
    for &code in &codes {
        let bit = COMPONENT_BIT[code];
        repeated |= seen & bit;
        seen |= bit;
        components += usize::from(bit != 0);
    }
    let distinct = [4, 3, 3, 3, 2][components];
    let pattern =
        select_unpredictable(input.dst_sel & 0xfff == 0o7654, 0, select_unpredictable(repeated != 0, 1, distinct));
    hits.hit(Point::Pattern as usize, pattern);
    hits.hit(Point::Dmask as usize, usize::from(input.dmask & 0xf));
    hits.hit(Point::Count as usize, usize::from(count));
    hits.hit(Point::Oor as usize, usize::from(OOR_BIN[usize::from(oor)]));
    hits.hit(Point::Dwords as usize, usize::from(input.tfe) * 4 + dword - 1);
    hits.hit(Point::Status as usize, state * 2 + usize::from(input.tfe));
}
