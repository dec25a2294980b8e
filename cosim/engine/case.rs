//! The shape of a random case and the stimulus helpers a binding builds its cases from.
//!
//! A random *case* is a short sequence of cycles (a valid input or an idle cycle with random
//! inputs, now and then with the asynchronous reset pulsed or held before the cycle's edge),
//! drawn by the unit's generator ([`Binding::generate_case`]) straight from a fast RNG: by
//! default independent cycles of [`Binding::generate`] ([`generate_cycles`]); for a unit whose
//! lanes come in runs of one kind, [`generate_runs`]. [`concatenate`] makes several cases one
//! run, as the lockstep driver runs them.

use proptest::strategy::BoxedStrategy;

use crate::engine::lockstep::{Reset, Step};
use crate::engine::stimulus::Rng;
use crate::engine::{Binding, UnitTypes};
use gcn_vmem_model::unit::{valid_of, Ports, Unit};

type In<B> = <<B as UnitTypes>::Model as Unit>::In;
/// One random case: its cycles.
pub type Case<B> = Vec<Step<In<B>>>;

/// Longest random case, in cycles. Cases average 512.5 cycles, so that what each costs besides
/// its cycles (its opening reset, four evaluations on both sides; its drain, the latency; its
/// allocation and the switches between stimulus, model and RTL) is small against its vectors;
/// shrinking shortens a failing one (a mutant's 395-cycle case to its one failing cycle in
/// milliseconds).
pub(crate) const CASE_CYCLES: usize = 1024;

/// The strategy of one random case of unit `B` ([`Binding::case_strategy`]).
pub fn case_strategy<B: Binding>() -> BoxedStrategy<Case<B>> {
    B::case_strategy()
}

/// The default case: 1..=CASE_CYCLES independent cycles, one in thirty-two idle (an idle cycle
/// keeps its random data), each with the reset activity of [`reset_activity`] (one in 80). With
/// cases of 512.5 cycles on average, 97 % of cases hold an idle cycle.
pub fn generate_cycles<B: Binding>(rng: &mut Rng) -> Case<B> {
    generate_cycles_with::<B>(rng, B::generate)
}

/// [`generate_cycles`] with each cycle's inputs from `generate` (called once a cycle, in order,
/// after the cycle's own draw): for a unit whose stimulus keeps a state along a case.
#[inline]
pub(crate) fn generate_cycles_with<B: Binding>(rng: &mut Rng, mut generate: impl FnMut(&mut Rng) -> In<B>) -> Case<B> {
    let len = 1 + rng.below(CASE_CYCLES as u64) as usize;
    (0..len)
        .map(|_| {
            // One draw for the cycle's valid (bits 63:40) and reset activity (bits 31:0), the
            // latter as `reset_activity` draws it, without a branch.
            let r = rng.next_u64();
            let valid = r >> 40 < VALID_BELOW;
            let reset = RESETS[crate::engine::stimulus::scaled(r, 32, RESETS.len() as u64) as usize];
            let mut input = generate(rng);
            input.set(0, u128::from(valid));
            Step { reset, input }
        })
        .collect()
}

/// A default case whose valid inputs come in runs of one *kind* (what an instruction gives
/// every lane of its wave: a format, an op), as the lanes of a wave reach a unit: `kind` draws
/// a kind at the case's start and again for one vector in [`KIND_RUN`] (runs of that many on
/// average, so a 1,024-cycle case still changes kind about 60 times); `vector` draws the
/// cycle's input of the kind, given the cycle's draw `r` (whose low bits decided the switch;
/// its bits 63:8 are free). Each vector still draws its own data.
#[inline]
pub(crate) fn generate_runs<B: Binding, K: Copy>(
    rng: &mut Rng,
    mut kind: impl FnMut(&mut Rng) -> K,
    mut vector: impl FnMut(&mut Rng, K, u64) -> In<B>,
) -> Case<B> {
    let mut current = kind(rng);
    generate_cycles_with::<B>(rng, |rng| {
        let r = rng.next_u64();
        if r % KIND_RUN == 0 {
            current = kind(rng);
        }
        vector(rng, current, r)
    })
}

/// The average run of one kind in [`generate_runs`]: a power of two, so the switch reads only
/// the low bits of the cycle's draw.
pub(crate) const KIND_RUN: u64 = 16;
const _: () = assert!(KIND_RUN.is_power_of_two() && KIND_RUN <= 256);

/// `n` inputs for `gcn-vmem bench` drawn as `B`'s random cases draw them: the valid inputs of
/// consecutive cases, so that the plain C++ loop drives what `gcn-vmem cosim` drives (for a
/// unit whose cases are not independent draws of [`Binding::generate`]).
pub(crate) fn case_inputs<B: Binding>(rng: &mut Rng, n: usize) -> Vec<In<B>> {
    let mut inputs = Vec::with_capacity(n);
    while inputs.len() < n {
        let case = B::generate_case(rng);
        inputs.extend(case.iter().filter(|s| valid_of(&s.input)).map(|s| s.input).take(n - inputs.len()));
    }
    inputs
}

/// A cycle is valid when 24 bits of its draw are below this: 31/32 of 2^24.
const VALID_BELOW: u64 = 31 << 19;

/// One in this many cycles of a default case pulses rst_ni, and one in this many holds it.
const RESET_ONE_IN: usize = 80;

/// [`generate_cycles`]'s reset activity ([`reset_activity`] with [`RESET_ONE_IN`]) as a table.
const RESETS: [Reset; RESET_ONE_IN] = {
    let mut table = [Reset::None; RESET_ONE_IN];
    let mut k = 0;
    while k < RESET_ONE_IN {
        table[k] = reset_of(k as u64);
        k += 1;
    }
    table
};

/// Draw `k` of `0..n` as reset activity: 0 pulses, 1 holds, the rest none.
const fn reset_of(k: u64) -> Reset {
    match k {
        0 => Reset::Pulse,
        1 => Reset::Hold,
        _ => Reset::None,
    }
}

/// The reset activity of one random cycle or handshake: one in `one_in` pulses rst_ni between
/// edges, one in `one_in` holds it low across the edge (runs of held cycles arise from
/// neighbours). The default case draws it as [`RESETS`] does, one in 80 each, so that nearly
/// every default case (96 %, of 512.5 cycles on average) resets somewhere inside or between
/// its bursts of valid inputs; the coalescer's handshakes (cosim/bindings/coalescer.rs) one in
/// 40 each.
pub(crate) fn reset_activity(rng: &mut Rng, one_in: u64) -> Reset {
    reset_of(rng.below(one_in))
}

/// `cases` as one run: each case after the first opens with the reset `Lockstep::run_steps`
/// gives it (rst_ni held low across one idle edge, released before its first edge), and ends
/// with the unit's latency of idle cycles.
pub fn concatenate<I: Ports>(cases: &[Vec<Step<I>>], latency: usize) -> Vec<Step<I>> {
    let mut steps = Vec::new();
    for (n, case) in cases.iter().enumerate() {
        if n > 0 {
            steps.push(Step { reset: Reset::Hold, input: I::default() });
        }
        steps.extend_from_slice(case);
        steps.extend(std::iter::repeat_n(Step::default(), latency));
    }
    steps
}
