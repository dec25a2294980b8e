//! Functional coverage of `vmem_pipe` (rust/cover.rs): the pipeline's situations the random
//! programs must reach — the TCP's hits, misses, merges, MSHR and target waits, closed MSHRs,
//! pins, the RAM port, the queues, quiet after reset, stale and out-of-order responses, the TD's
//! four-block rule — back-pressure from the L2 and from the VGPR port, every `bound` stage
//! (SPEC §14.1), and the image accesses of SPEC §15 as the issue port shows them: every surface
//! layout × element size, every type, and the instruction's forms; the multi-texel loads' ops and
//! _MIP forms, and (from the address stage) their groups crossing a block or invalid.
//!
//! The pipeline is closed-loop and not one-result-per-input, so it is sampled per cycle: the
//! events the model reports for the cycle ([`VmemPipe::events`](super::VmemPipe::events)), and
//! the handshakes as the ports show them (the outputs at the start of the cycle, that cycle's
//! inputs, the outputs after its edge).
//!
//! Reachability (unit test `every_event_is_reached` in rust/vmem_pipe/tests.rs drives random
//! programs at both configurations, half of them "dense": one V# base, offsets within 256
//! bytes): at the default configuration every event but "eviction" and "return queue full"; those
//! two need the small configuration (8 lines, 2 return entries): 16 KB of lines hold the
//! programs' 8 KB, and 32 return entries a bank are more than they keep waiting. A busy MSHR
//! always has a target in its bank's return queue (targets are counted down as its entries leave
//! it, and it is free at 0), so ReturnDepth ≥ Mshrs keeps every MSHR usable. "store closes an MSHR" and "fill wait on a
//! closed MSHR" need dense programs (a store meeting a line still being filled). "quiet wait" and
//! "stale response ignored" need a reset in mid-run with L2 responses still owed (the
//! testbench's `--reset-at`).

use super::ports::{In, Out, BANKS, IMAGE_OP_MULTI_TEXEL, KIND_LOAD, L2_ATOMIC, L2_READ, L2_WRITE};
use crate::coalescer::LANES;
use crate::cover::{Covergroup, Hits};

/// The coverpoints, in declaration order.
#[repr(usize)]
enum Point {
    Tcp,
    L2,
    Vgpr,
    Issue,
    Bound,
    Done,
    Surface,
    Image,
    MultiTexel,
}

/// The "image surface" bins: each layout (SPEC §4.5: linear, 256B_S, 4KB_S, 64KB_S) × element
/// size (1, 2, 4, 8, 12, 16 bytes), the tiled modes without 12 (they cannot take it).
const SURFACE_BINS: [&str; 21] = [
    "linear 1 B",
    "linear 2 B",
    "linear 4 B",
    "linear 8 B",
    "linear 12 B",
    "linear 16 B",
    "256B_S 1 B",
    "256B_S 2 B",
    "256B_S 4 B",
    "256B_S 8 B",
    "256B_S 16 B",
    "4KB_S 1 B",
    "4KB_S 2 B",
    "4KB_S 4 B",
    "4KB_S 8 B",
    "4KB_S 16 B",
    "64KB_S 1 B",
    "64KB_S 2 B",
    "64KB_S 4 B",
    "64KB_S 8 B",
    "64KB_S 16 B",
];

/// The "image access" bins: the instruction's forms and the T#'s types.
const IMAGE_BINS: [&str; 16] = [
    "load",
    "load mip",
    "store",
    "store mip",
    "D16 load",
    "D16 store",
    "TFE",
    "A16",
    "DA",
    "DMASK 0",
    "unbound T#",
    "1D",
    "2D",
    "3D",
    "cube",
    "array",
];

/// The "multi-texel" bins (docs/decisions.md *Multi-texel loads*): each op (from `iss_op_i`
/// 4..=7 on the issue port), a _MIP form, and from the address stage's results (the model's
/// [`MT_EVENTS`]) a lane's group crossing a 16-byte block (two requests) and an EXEC lane's
/// invalid group on a bound T# (outside the level: x + n > width, y ≥ height, a missing mip).
const MULTI_TEXEL_BINS: [&str; 7] =
    ["BY2", "BY4", "PCK2", "PCK4", "_MIP form", "group crosses a 16-byte block", "invalid group"];

/// Address-stage events of a multi-texel load, as bits of
/// [`VmemPipe::events`](super::VmemPipe::events) above the TCP's [`event`] bits: a lane taking
/// part whose group crosses a 16-byte block; an EXEC lane with an invalid group on a bound T#.
pub mod mt_event {
    pub const GROUP_CROSSES: u64 = 1 << 62;
    pub const INVALID_GROUP: u64 = 1 << 63;
}
/// Both [`mt_event`] bits.
pub const MT_EVENTS: u64 = mt_event::GROUP_CROSSES | mt_event::INVALID_GROUP;

/// The [`mt_event`]s of an instruction the address stage has taken (0 unless a multi-texel
/// load).
pub(super) fn multi_texel_events(slot: &super::inst::Slot) -> u64 {
    if slot.hdr.multi_texel().is_none() {
        return 0;
    }
    let bytes = u64::from(slot.hdr.bytes);
    let crosses = (0..LANES).any(|l| slot.part >> l & 1 != 0 && (slot.addr[l] & 0xf) + bytes > 16);
    let invalid = slot.unbound == 0 && (0..LANES).any(|l| slot.hdr.exec >> l & 1 != 0 && slot.in_range[l] == 0);
    let mut events = 0;
    if crosses {
        events |= mt_event::GROUP_CROSSES;
    }
    if invalid {
        events |= mt_event::INVALID_GROUP;
    }
    events
}

/// Declares the TCP events once, in bit order: the constant of each in [`event`] (the k-th is
/// bit k) and its bin of the "tcp event" point in [`EVENTS`].
macro_rules! tcp_events {
    ($( $(#[$doc:meta])* $name:ident => $bin:literal, )*) => {
        /// TCP events of one cycle, as bits of [`VmemPipe::events`](super::VmemPipe::events) (bit
        /// k = bin k of the "tcp event" point).
        pub mod event {
            tcp_events!(@bit 0; $( $(#[$doc])* $name, )*);
        }
        /// The "tcp event" bins, in bit order of [`event`].
        pub const EVENTS: &[&str] = &[$($bin),*];
    };
    (@bit $k:expr; $(#[$doc:meta])* $name:ident, $($rest:tt)*) => {
        $(#[$doc])*
        pub const $name: u64 = 1 << $k;
        tcp_events!(@bit $k + 1; $($rest)*);
    };
    (@bit $k:expr;) => {};
}

tcp_events! {
    /// A GLC = 0 load access found its line valid.
    HIT => "hit",
    /// A GLC = 0 load access missed: it allocated a line and an MSHR and sent a line read.
    MISS => "miss",
    /// A GLC = 0 load access joined the open MSHR filling its line.
    MERGE => "merge into an open MSHR",
    /// A hit while an MSHR of its bank is busy.
    HIT_UNDER_MISS => "hit under miss",
    /// An access needing an MSHR found none free.
    MSHR_WAIT => "MSHR wait",
    /// A load access found its line's MSHR open with `Targets` targets.
    TARGET_WAIT => "target wait",
    /// A store or an atomic closed the open MSHR filling its line.
    STORE_CLOSES => "store closes an MSHR",
    /// An access waited for the fill of its line's closed MSHR.
    FILL_WAIT => "fill wait on a closed MSHR",
    /// A bundle accepted with two or more accesses in one bank.
    BANK_CONFLICT => "bank conflict",
    /// A bundle accepted with an access of two or more requests (same bank and line).
    COMBINE => "combine",
    /// A bundle accepted with a lane's second block (its access straddles two blocks).
    STRADDLE => "straddle",
    /// A miss took a valid line as its victim.
    EVICTION => "eviction",
    /// A GLC = 1 load read the L2 without allocating.
    GLC_BYPASS => "GLC bypass",
    /// A store wrote into a resident line.
    WRITE_HIT => "write to a resident line",
    /// A store to a valid line waited for its pins to reach 0.
    PINS_WAIT => "store waits for pins",
    /// An atomic invalidated a resident line.
    ATOMIC_INVALIDATE => "atomic invalidates a line",
    /// The return stage's hit read waited for the line RAM's port (a fill or store write).
    PORT_DELAY => "hit read delayed by the RAM port",
    /// An access that returns data waited for a free return-queue entry.
    RETURN_FULL => "return queue full",
    /// A bundle was not accepted: its accesses did not fit a lookup queue.
    LOOKUP_FULL => "lookup queue full",
    /// An access at a lookup head that needs `quiet` waited for it (after a reset).
    QUIET_WAIT => "quiet wait",
    /// A response was ignored (`quiet` = 0, or its tag names nothing waiting).
    STALE => "stale response ignored",
    /// A response answered a request accepted after another of its channel still unanswered.
    OUT_OF_ORDER => "out-of-order response",
    /// The TD took 4 blocks in one cycle.
    TD_FOUR => "TD takes 4 blocks",
    /// The TD stopped at a return register of G that did not fit the cycle's 4 blocks.
    TD_STOP => "TD stops at a register that does not fit",
}

/// The "l2 channel" bins.
const L2_BINS: [&str; 6] =
    ["line read taken", "write taken", "atomic taken", "atomic with return taken", "back-pressure", "response"];

/// The stages of SPEC §14.1's `bound`, in pipeline order (ties go to the earlier one).
pub const STAGES: [&str; 5] = ["issue", "ta", "tcp", "l2", "td"];

/// The stage with the most cycles among (issue, ta, tcp, l2, td); ties go to the earlier stage.
pub fn bound(cycles: [u16; 5]) -> usize {
    (1..STAGES.len()).fold(0, |best, s| if cycles[s] > cycles[best] { s } else { best })
}

pub fn covergroup() -> Covergroup {
    Covergroup::new()
        .point(Point::Tcp as usize, "tcp event", EVENTS)
        .point(Point::L2 as usize, "l2 channel", L2_BINS)
        .point(Point::Vgpr as usize, "vgpr port", ["write", "back-pressure"])
        .point(Point::Issue as usize, "issue port", ["beat", "back-pressure"])
        .point(Point::Bound as usize, "bound", STAGES)
        .point(
            Point::Done as usize,
            "done",
            ["with hits", "with misses", "with merges", "with bank conflicts", "with MSHR waits", "without requests"],
        )
        .point(Point::Surface as usize, "image surface", SURFACE_BINS)
        .point(Point::Image as usize, "image access", IMAGE_BINS)
        .point(Point::MultiTexel as usize, "multi-texel", MULTI_TEXEL_BINS)
}

/// An image instruction's beat on the issue port: its surface and its form.
fn sample_image(input: &In, hits: &mut Hits) {
    // T# bits 120:116 (sw_mode) and 127:124 (type) are bits 20..24 and 28..31 of dword 3; the
    // base 40 bits of dwords 0-1, dfmt bits 57:52.
    let (sw_mode, kind) = (input.iss_rsrc[3] >> 20 & 0x1f, input.iss_rsrc[3] >> 28);
    let bound = input.iss_rsrc[1] >> 20 & 0x3f != 0 && kind >= 8;
    let size = [1, 2, 4, 8, 12, 16].iter().position(|&b| b == input.iss_bytes);
    let mode = [0, 1, 5, 9].iter().position(|&m| m == sw_mode);
    if let (true, Some(size), Some(mode)) = (bound, size, mode) {
        let bin = if mode == 0 { size } else { 6 + 5 * (mode - 1) + size - usize::from(size > 4) };
        if mode == 0 || size != 4 {
            hits.hit(Point::Surface as usize, bin);
        }
    }
    let store = input.iss_kind == super::ports::KIND_STORE;
    if input.iss_kind == KIND_LOAD && (IMAGE_OP_MULTI_TEXEL..IMAGE_OP_MULTI_TEXEL + 4).contains(&input.iss_op) {
        hits.hit(Point::MultiTexel as usize, usize::from(input.iss_op - IMAGE_OP_MULTI_TEXEL));
        if input.iss_mip {
            hits.hit(Point::MultiTexel as usize, 4);
        }
    }
    let image = Point::Image as usize;
    hits.hit(image, 2 * usize::from(store) + usize::from(input.iss_mip));
    if input.iss_d16 != 0 {
        hits.hit(image, 4 + usize::from(store));
    }
    for (bin, on) in
        [(6, input.iss_tfe), (7, input.iss_a16), (8, input.iss_da), (9, input.iss_dmask == 0), (10, !bound)]
    {
        if on {
            hits.hit(image, bin);
        }
    }
    let kind_bin = match kind {
        8 | 12 => Some(11),
        9 | 13 => Some(12),
        10 => Some(13),
        11 => Some(14),
        _ => None,
    };
    if let (true, Some(b)) = (bound, kind_bin) {
        hits.hit(image, b);
        if matches!(kind, 12 | 13) {
            hits.hit(image, 15);
        }
    }
}

/// The model's TCP events of one cycle.
#[inline]
pub fn sample_events(events: u64, hits: &mut Hits) {
    for (bin, bit) in [(5, mt_event::GROUP_CROSSES), (6, mt_event::INVALID_GROUP)] {
        if events & bit != 0 {
            hits.hit(Point::MultiTexel as usize, bin);
        }
    }
    let mut bits = events & !MT_EVENTS;
    while bits != 0 {
        hits.hit(Point::Tcp as usize, bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
}

/// The handshakes of one cycle: `before` the outputs at its start (what the testbench saw),
/// `input` its inputs, `after` the outputs after its edge.
#[inline]
pub fn sample_cycle(before: &Out, input: &In, after: &Out, hits: &mut Hits) {
    for b in 0..BANKS {
        if before.l2_req_valid >> b & 1 == 0 {
            continue;
        }
        if input.l2_req_ready >> b & 1 == 0 {
            hits.hit(Point::L2 as usize, 4);
            continue;
        }
        let bin = match before.l2_req_kind[b] {
            L2_READ => 0,
            L2_WRITE => 1,
            L2_ATOMIC if before.l2_req_return >> b & 1 != 0 => 3,
            _ => 2,
        };
        hits.hit(Point::L2 as usize, bin);
    }
    if input.l2_rsp_valid != 0 {
        hits.hit(Point::L2 as usize, 5);
    }
    if before.vgpr_valid {
        hits.hit(Point::Vgpr as usize, usize::from(!input.vgpr_ready));
    }
    if input.iss_valid {
        hits.hit(Point::Issue as usize, usize::from(!before.iss_ready));
        if input.iss_image && before.iss_ready {
            sample_image(input, hits);
        }
    }
    sample(input, after, hits);
}

/// A `done` in the outputs: its bound stage and what its counters show.
#[inline]
pub fn sample(_input: &In, out: &Out, hits: &mut Hits) {
    if !out.done_valid {
        return;
    }
    hits.hit(Point::Bound as usize, bound([out.done_issue, out.done_ta, out.done_tcp, out.done_l2, out.done_td]));
    if out.done_hits > 0 {
        hits.hit(Point::Done as usize, 0);
    }
    if out.done_misses > 0 {
        hits.hit(Point::Done as usize, 1);
    }
    if out.done_merged > 0 {
        hits.hit(Point::Done as usize, 2);
    }
    if out.done_conflicts > 0 {
        hits.hit(Point::Done as usize, 3);
    }
    if out.done_mshr_wait > 0 {
        hits.hit(Point::Done as usize, 4);
    }
    if out.done_requests == 0 {
        hits.hit(Point::Done as usize, 5);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_group_builds_and_events_name_their_bins() {
        let group = covergroup();
        assert_eq!(group.points[Point::Tcp as usize].bins.len(), EVENTS.len());
        assert_eq!(event::TD_STOP, 1 << (EVENTS.len() - 1));
    }

    #[test]
    fn bound_takes_the_largest_and_ties_go_upstream() {
        assert_eq!(bound([4, 4, 0, 0, 0]), 0);
        assert_eq!(bound([4, 16, 3, 0, 16]), 1);
        assert_eq!(bound([4, 4, 5, 60, 8]), 3);
        assert_eq!(bound([0, 0, 0, 0, 1]), 4);
    }
}
