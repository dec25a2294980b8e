//! Functional coverage of `vmem_pipe` (rust/cover.rs): the pipeline's situations the random
//! programs must reach — the TCP's hits, misses, merges, MSHR and target waits, closed MSHRs,
//! pins, the RAM port, the queues, quiet after reset, stale and out-of-order responses, the TD's
//! four-block rule — back-pressure from the L2 and from the VGPR port, every `bound` stage
//! (SPEC §14.1), the image accesses of SPEC §15 as the issue port shows them: every surface
//! layout × element size, every type, and the instruction's forms; the image atomics (without
//! and with return, compare-swap, 64-bit, and — a TA event of the model — a lane outside its
//! level), the PCK loads (PCK, PCK_SGN, each field count), GET_RESINFO, the multi-texel loads'
//! ops and _MIP forms and (from the address stage) their groups crossing a block or invalid, and
//! the LDS loads (SPEC §2.5): lanes outside the allocation, LDS lanes without a memory access,
//! empty LDS writes and the LDS port's back-pressure.
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
    ImageOp,
    Resinfo,
    Lds,
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

/// The "image atomic and PCK" bins: the atomics' forms as the issue port shows them (and a lane
/// outside its level, from the model's [`IMAGE_ATOMIC_OUTSIDE`] event), the PCK loads and their
/// fields (SPEC §1.4's field count of a bound T#'s dfmt).
const IMAGE_OP_BINS: [&str; 11] = [
    "atomic without return",
    "atomic with return",
    "atomic compare-swap",
    "atomic 64-bit",
    "atomic lane outside the level",
    "PCK",
    "PCK_SGN",
    "PCK 1 field",
    "PCK 2 fields",
    "PCK 3 fields",
    "PCK 4 fields",
];

/// A TA event of [`VmemPipe::events`](super::VmemPipe::events), above the TCP events' bits: the
/// address stage took an image atomic with a bound T# and an EXEC lane outside its level (not
/// `group_valid`).
pub const IMAGE_ATOMIC_OUTSIDE: u64 = 1 << 61;
/// The "image resinfo" bins: an IMAGE_GET_RESINFO, and one of a bound T# whose beat carries a
/// lane's mipid naming a missing level (beyond last_level or max_mip: dimensions 0).
const RESINFO_BINS: [&str; 2] = ["get_resinfo", "missing level"];

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

/// The address stage's LDS events (docs/decisions.md "LDS loads"), as bits of
/// [`VmemPipe::events`](super::VmemPipe::events) above the TCP events: bit `k` of this module is
/// bin `LDS_EVENT_BIN + k` of the "lds load" point.
pub mod lds_event {
    /// A lane in EXEC whose LDS dword lies outside the allocation (`lds_in_range` = 0): masked.
    pub const OUTSIDE: u64 = 1 << 48;
    /// An LDS lane whose memory access does not take place (out of range, or the V# unbound):
    /// it writes 0 (or 1).
    pub const NO_MEMORY: u64 = 1 << 49;
}

/// Bit of the first [`lds_event`] in the events, and its bin of the "lds load" point.
const LDS_EVENT_BIT: u32 = 48;
const LDS_EVENT_BIN: usize = 1;

/// The "lds load" bins: an LDS load issued, the two [`lds_event`]s, an LDS write with an empty
/// mask, `lds_ready_i` back-pressure on an LDS write.
const LDS_BINS: [&str; 5] = [
    "LDS load",
    "lane outside the LDS allocation",
    "LDS lane without a memory access",
    "LDS write with an empty mask",
    "LDS port back-pressure",
];

/// The [`lds_event`]s of an LDS load the address stage takes: EXEC, its LDS lanes, the lanes
/// taking part.
pub fn lds_events(exec: u64, lds_lanes: u64, part: u64) -> u64 {
    let outside = if exec & !lds_lanes != 0 { lds_event::OUTSIDE } else { 0 };
    let no_memory = if lds_lanes & !part != 0 { lds_event::NO_MEMORY } else { 0 };
    outside | no_memory
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
        .point(Point::ImageOp as usize, "image atomic and PCK", IMAGE_OP_BINS)
        .point(Point::Resinfo as usize, "image resinfo", RESINFO_BINS)
        .point(Point::Lds as usize, "lds load", LDS_BINS)
        .point(Point::MultiTexel as usize, "multi-texel", MULTI_TEXEL_BINS)
}

/// An image instruction's beat on the issue port: its surface and its form.
fn sample_image(input: &In, hits: &mut Hits) {
    // T# bits 120:116 (sw_mode) and 127:124 (type) are bits 20..24 and 28..31 of dword 3; the
    // base 40 bits of dwords 0-1, dfmt bits 57:52.
    let (sw_mode, kind) = (input.iss_rsrc[3] >> 20 & 0x1f, input.iss_rsrc[3] >> 28);
    let bound = input.iss_rsrc[1] >> 20 & 0x3f != 0 && kind >= 8;
    // GET_RESINFO reads no surface: its own bins only.
    if input.iss_kind == super::ports::KIND_LOAD && input.iss_op == super::ports::IMAGE_OP_RESINFO {
        sample_resinfo(input, bound, hits);
        return;
    }
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
    let op = Point::ImageOp as usize;
    if input.iss_kind == super::ports::KIND_ATOMIC {
        hits.hit(op, usize::from(input.iss_glc));
        if matches!(input.iss_op, 1 | 14) {
            hits.hit(op, 2);
        }
        if input.iss_wide {
            hits.hit(op, 3);
        }
    } else {
        hits.hit(image, 2 * usize::from(store) + usize::from(input.iss_mip));
    }
    if input.iss_kind == super::ports::KIND_LOAD
        && matches!(input.iss_op, super::ports::IMAGE_OP_PCK | super::ports::IMAGE_OP_PCK_SGN)
    {
        hits.hit(op, 5 + usize::from(input.iss_op == super::ports::IMAGE_OP_PCK_SGN));
        let fields = crate::format::fields(input.iss_dfmt).len();
        if bound && (1..=4).contains(&fields) {
            hits.hit(op, 6 + fields);
        }
    }
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

/// A GET_RESINFO beat: the instruction, and whether a lane's mipid (its address dword) names a
/// level `image_addr` reports missing (`level_ok` = 0) on a bound T#.
fn sample_resinfo(input: &In, bound: bool, hits: &mut Hits) {
    let resinfo = Point::Resinfo as usize;
    hits.hit(resinfo, 0);
    let (lo, hi) = super::ports::rsrc_halves(&input.iss_rsrc);
    let missing = |mipid: u32| {
        !crate::image_addr::compute(&crate::image_addr::In {
            valid: true,
            tsharp_lo: lo,
            tsharp_hi: hi,
            r128: input.iss_r128,
            op: crate::image_addr::OP_ELEMENT,
            mip: true,
            mipid,
            ..Default::default()
        })
        .level_ok
    };
    if bound && input.iss_addr.iter().any(|&m| missing(m)) {
        hits.hit(resinfo, 1);
    }
}

/// The model's TCP events of one cycle.
#[inline]
pub fn sample_events(events: u64, hits: &mut Hits) {
    if events & IMAGE_ATOMIC_OUTSIDE != 0 {
        hits.hit(Point::ImageOp as usize, 4);
    }
    for (bin, bit) in [(5, mt_event::GROUP_CROSSES), (6, mt_event::INVALID_GROUP)] {
        if events & bit != 0 {
            hits.hit(Point::MultiTexel as usize, bin);
        }
    }
    let mut bits = events & !IMAGE_ATOMIC_OUTSIDE & !MT_EVENTS;
    while bits != 0 {
        let k = bits.trailing_zeros();
        if k >= LDS_EVENT_BIT {
            hits.hit(Point::Lds as usize, LDS_EVENT_BIN + (k - LDS_EVENT_BIT) as usize);
        } else {
            hits.hit(Point::Tcp as usize, k as usize);
        }
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
    if before.lds_valid {
        if before.lds_mask == 0 {
            hits.hit(Point::Lds as usize, 3);
        }
        if !input.lds_ready {
            hits.hit(Point::Lds as usize, 4);
        }
    }
    if input.iss_valid {
        hits.hit(Point::Issue as usize, usize::from(!before.iss_ready));
        if input.iss_image && before.iss_ready {
            sample_image(input, hits);
        }
        if input.iss_lds && input.iss_last && before.iss_ready {
            hits.hit(Point::Lds as usize, 0);
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
        assert!(EVENTS.len() <= LDS_EVENT_BIT as usize);
        assert_eq!(lds_event::OUTSIDE, 1 << LDS_EVENT_BIT);
        assert_eq!(group.points[Point::Lds as usize].bins.len(), LDS_BINS.len());
    }

    #[test]
    fn lds_events_go_to_the_lds_bins() {
        assert_eq!(lds_events(0xff, 0xff, 0xff), 0);
        assert_eq!(lds_events(0xff, 0x0f, 0x0f), lds_event::OUTSIDE);
        assert_eq!(lds_events(0xff, 0xff, 0x0f), lds_event::NO_MEMORY);
        let mut hits = Hits::new(&covergroup());
        sample_events(lds_event::OUTSIDE | lds_event::NO_MEMORY | event::HIT, &mut hits);
        let before = Out { lds_valid: true, ..Out::default() };
        sample_cycle(&before, &In::default(), &Out::default(), &mut hits);
        let lds = Point::Lds as usize;
        assert_eq!(hits.counts(lds)[1..], [1, 1, 1, 1]);
    }

    #[test]
    fn a_get_resinfo_beat_hits_its_bins_and_no_image_access_bin() {
        use crate::exec::{ImageInst, ImageKind};
        use crate::tsharp::{TSharp, TYPE_2D};
        let t = TSharp {
            dfmt: 4,
            width_minus_1: 7,
            height_minus_1: 7,
            last_level: 1,
            max_mip: 1,
            kind: TYPE_2D,
            ..TSharp::default()
        };
        let inst = ImageInst::new(ImageKind::GetResinfo);
        let beat = |mipid: u32| In {
            iss_valid: true,
            iss_addr: [mipid; 16],
            ..super::super::ports::ImageIssue::of(&inst, t.encode(), u64::MAX).unwrap().header
        };
        let group = covergroup();
        let ready = Out { iss_ready: true, ..Out::default() };
        let mut hits = Hits::new(&group);
        // Level 0 + mipid 1 exists (last_level = max_mip = 1); mipid 2 names a missing level.
        sample_cycle(&ready, &beat(1), &Out::default(), &mut hits);
        assert_eq!(hits.counts(Point::Resinfo as usize), [1, 0]);
        sample_cycle(&ready, &beat(2), &Out::default(), &mut hits);
        assert_eq!(hits.counts(Point::Resinfo as usize), [2, 1]);
        assert!(hits.counts(Point::Image as usize).iter().all(|&n| n == 0));
        assert!(hits.counts(Point::Surface as usize).iter().all(|&n| n == 0));
    }

    #[test]
    fn bound_takes_the_largest_and_ties_go_upstream() {
        assert_eq!(bound([4, 4, 0, 0, 0]), 0);
        assert_eq!(bound([4, 16, 3, 0, 16]), 1);
        assert_eq!(bound([4, 4, 5, 60, 8]), 3);
        assert_eq!(bound([0, 0, 0, 0, 1]), 4);
    }
}
