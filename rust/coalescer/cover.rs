//! Functional coverage (rust/cover.rs): the bins `make cosim` must hit, declared from SPEC §7 and
//! the handshake of docs/decisions.md "coalescer" (not from the RTL).
//!
//! A wave is a result of many beats, so the harness pairs it itself (cosim/bindings/coalescer.rs
//! `cover_cycle`): [`Covered::sample`](crate::cover::Covered::sample) takes the wave with its
//! last beat (per-wave bins), [`sample_beat`] each beat with the one before it, [`sample_requests`]
//! the wave's request count, and [`sample_handshake`] the handshake events of each cycle.

use super::{In, Out, ADDRESS_MASK, BLOCK_MASK, LANES};
use crate::cover::{Covergroup, Hits};

/// The coverpoints, in declaration order.
#[repr(usize)]
enum Point {
    Cycles,
    SingleBytes,
    Active,
    Requests,
    Merge,
    Wrap,
    Beat,
    Handshake,
}

const KINDS: &[&str] = &["single", "multi-component"];

/// Handshake events of one cycle (bins of the `handshake` point, in order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Handshake {
    /// Taken at the edge right after the previous wave's last beat.
    BackToBack,
    /// Taken after cycles with `ready` high and no beat.
    AfterIdle,
    /// Taken after being offered (and held) while not ready.
    HeldUntilTaken,
    /// Offered while not ready: not taken.
    OfferedWhileBusy,
    /// An offer made while not ready, dropped (valid low) before it was taken.
    Withdrawn,
    /// Offered with the reset active: not taken.
    OfferedInReset,
    /// Reset pulsed while a wave's beats were pending: they are dropped.
    ResetPulseMidWave,
    /// Reset held while a wave's beats were pending.
    ResetHoldMidWave,
    /// Reset with no wave in flight.
    ResetIdle,
}

pub fn covergroup() -> Covergroup {
    Covergroup::new()
        .point(
            Point::Cycles as usize,
            "cycles (§7)",
            ["single 4", "single 7", "single 10", "single 13", "single 16", "multi-component 16"],
        )
        .cross(
            Point::SingleBytes as usize,
            "single x bytes",
            &[KINDS, &["1", "2", "4", "8", "12", "16", "other (3, 5-7, 9-11, 13-15)"]],
        )
        .cross(
            Point::Active as usize,
            "single x active lanes",
            &[KINDS, &["all 64", "one", "EXEC holes (2..63)", "none (cost-only beat)"]],
        )
        .point(
            Point::Requests as usize,
            "requests per wave",
            ["0", "1", "2..15", "16", "17..63", "64", "65..127", "128 (every lane straddles)"],
        )
        .point(
            Point::Merge as usize,
            "single: group merging",
            [
                "every group merged (4 cycles)",
                "a group unmerged by an active straddling lane",
                "a group unmerged by two blocks in a quad (no straddler)",
                "an inactive straddling lane ignored (every group merged)",
                "a group with no active lane among unmerged ones",
            ],
        )
        .cross(Point::Wrap as usize, "2^48 wrap", &[KINDS, &["an active lane straddles block 2^44-1 to block 0"]])
        .point(
            Point::Beat as usize,
            "request",
            [
                "merged quad: 2 lanes",
                "merged quad: 3 lanes",
                "merged quad: 4 lanes",
                "merged quad: all 16 bytes",
                "single: second block of a straddling lane",
                "multi: second block of a straddling lane",
                "multi: same block as the previous request, another lane (not merged)",
                "block 0 right after block 2^44-1 (wrap)",
            ],
        )
        .point(
            Point::Handshake as usize,
            "handshake",
            [
                "taken right after the previous wave's last beat (back to back)",
                "taken after idle cycles with ready high",
                "offered while not ready, held until taken",
                "offered while not ready (not taken)",
                "offer withdrawn before it was taken",
                "offered with reset active (not taken)",
                "reset pulse mid-wave (beats dropped)",
                "reset held mid-wave (beats dropped)",
                "reset with no wave in flight",
            ],
        )
}

/// Per-wave bins: `input` is the wave taken, `last` its last beat.
pub fn sample(input: &In, last: &Out, hits: &mut Hits) {
    let bytes = u32::from(input.size & 0xf) + 1;
    let kind = usize::from(!input.single);
    let cycles = usize::from(last.cycles);
    hits.hit(Point::Cycles as usize, if input.single { cycles.saturating_sub(4) / 3 } else { 5 });
    let bytes_bin = match bytes {
        1 => 0,
        2 => 1,
        4 => 2,
        8 => 3,
        12 => 4,
        16 => 5,
        _ => 6,
    };
    hits.hit_cross(Point::SingleBytes as usize, &[kind, bytes_bin]);
    let active_bin = match input.active.count_ones() {
        64 => 0,
        1 => 1,
        0 => 3,
        _ => 2,
    };
    hits.hit_cross(Point::Active as usize, &[kind, active_bin]);

    // Lanes whose access straddles two blocks (one pass over the addresses, no merging).
    let mut straddle = 0u64;
    let mut wraps = false;
    for (k, &a) in input.addr.iter().enumerate() {
        let a = a & ADDRESS_MASK;
        if (a & 0xf) as u32 + bytes > 16 {
            straddle |= 1 << k;
            wraps |= input.active >> k & 1 != 0 && a >> 4 == BLOCK_MASK;
        }
    }
    if wraps {
        hits.hit_cross(Point::Wrap as usize, &[kind, 0]);
    }
    if !input.single {
        return;
    }
    let group_has = |mask: u64| (0..LANES / 16).filter(|g| mask >> (16 * g) & 0xffff != 0).count();
    let unmerged = cycles.saturating_sub(4) / 3;
    let active_straddlers = group_has(straddle & input.active);
    if unmerged == 0 {
        hits.hit(Point::Merge as usize, 0);
        if straddle & !input.active != 0 {
            hits.hit(Point::Merge as usize, 3);
        }
    } else {
        if active_straddlers > 0 {
            hits.hit(Point::Merge as usize, 1);
        }
        if unmerged > active_straddlers {
            hits.hit(Point::Merge as usize, 2);
        }
        if group_has(input.active) < LANES / 16 {
            hits.hit(Point::Merge as usize, 4);
        }
    }
}

/// The wave's request count (its beats with lanes).
pub fn sample_requests(requests: u32, hits: &mut Hits) {
    let bin = match requests {
        0 => 0,
        1 => 1,
        2..=15 => 2,
        16 => 3,
        17..=63 => 4,
        64 => 5,
        65..=127 => 6,
        _ => 7,
    };
    hits.hit(Point::Requests as usize, bin);
}

/// One beat `beat` of wave `input`; `prev` is the outputs of the cycle before it.
pub fn sample_beat(input: &In, beat: &Out, prev: &Out, hits: &mut Hits) {
    let p = Point::Beat as usize;
    let lanes = beat.lanes.count_ones();
    if input.single && lanes > 1 {
        hits.hit(p, lanes as usize - 2);
        if beat.bytes == 0xffff {
            hits.hit(p, 3);
        }
    }
    if !prev.valid || beat.lanes == 0 {
        return;
    }
    if prev.lanes == beat.lanes && lanes == 1 && beat.addr == (prev.addr + 1) & BLOCK_MASK {
        hits.hit(p, if input.single { 4 } else { 5 });
        if beat.addr == 0 {
            hits.hit(p, 7);
        }
    } else if !input.single && prev.addr == beat.addr {
        hits.hit(p, 6);
    }
}

/// One handshake event.
pub fn sample_handshake(event: Handshake, hits: &mut Hits) {
    hits.hit(Point::Handshake as usize, event as usize);
}
