//! Functional coverage of `vmem_pipe` (rust/cover.rs): the pipeline's events the random
//! programs must reach — TCP hit, miss, hit under miss, fill wait, bank conflict,
//! combine, straddle, eviction, GLC bypass, out-of-order L2 response, back-pressure from the L2
//! and from the VGPR port, every `bound` stage (SPEC §14.1).
//!
//! The pipeline is closed-loop and not one-result-per-input, so it is sampled per cycle: the TCP
//! events the model reports for the cycle ([`VmemPipe::events`](super::VmemPipe::events)), and
//! the handshakes as the ports show them (the outputs at the start of the cycle, that cycle's
//! inputs, the outputs after its edge).

use super::ports::{In, Out, BANKS, L2_ATOMIC, L2_READ, L2_WRITE};
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
        pub const $name: u32 = 1 << $k;
        tcp_events!(@bit $k + 1; $($rest)*);
    };
    (@bit $k:expr;) => {};
}

tcp_events! {
    /// A load access found its line valid and filled.
    HIT => "hit",
    /// A load access allocated its line and sent the line read.
    MISS => "miss",
    /// A hit while a fill is outstanding in the same bank.
    HIT_UNDER_MISS => "hit under miss",
    /// An access waited for its line's fill.
    FILL_WAIT => "fill wait",
    /// A bundle loaded with two or more accesses in one bank.
    BANK_CONFLICT => "bank conflict",
    /// An access of two or more requests (same line, same bundle) done.
    COMBINE => "combine",
    /// A bundle loaded with a lane's second block (its access straddles two blocks).
    STRADDLE => "straddle",
    /// A miss took a valid line as its victim.
    EVICTION => "eviction",
    /// A GLC = 1 load read the L2 without allocating.
    GLC_BYPASS => "GLC bypass",
    /// A store wrote into a resident line.
    WRITE_HIT => "write to a resident line",
    /// An atomic invalidated a resident line.
    ATOMIC_INVALIDATE => "atomic invalidates a line",
    /// A response arrived for a request accepted after another of its bank still outstanding.
    OUT_OF_ORDER => "out-of-order response",
    /// A miss found all 64 lines of its bank pending, or no free tag, and waited.
    NO_VICTIM_OR_TAG => "miss waits for a victim or a tag",
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
        .point(Point::Done as usize, "done", ["with hits", "with misses", "with bank conflicts", "without requests"])
}

/// The model's TCP events of one cycle.
#[inline]
pub fn sample_events(events: u32, hits: &mut Hits) {
    let mut bits = events;
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
    if out.done_conflicts > 0 {
        hits.hit(Point::Done as usize, 2);
    }
    if out.done_requests == 0 {
        hits.hit(Point::Done as usize, 3);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_group_builds_and_events_name_their_bins() {
        let group = covergroup();
        assert_eq!(group.points[Point::Tcp as usize].bins.len(), EVENTS.len());
        assert_eq!(event::NO_VICTIM_OR_TAG, 1 << (EVENTS.len() - 1));
    }

    #[test]
    fn bound_takes_the_largest_and_ties_go_upstream() {
        assert_eq!(bound([4, 4, 0, 0, 0]), 0);
        assert_eq!(bound([4, 16, 3, 0, 16]), 1);
        assert_eq!(bound([4, 4, 5, 60, 8]), 3);
        assert_eq!(bound([0, 0, 0, 0, 1]), 4);
    }
}
