//! Functional coverage in the lockstep run: pairs each valid input with the model's result for it
//! and hands the pair to the unit's sampler ([`gcn_vmem_model::cover::Covered`], declared next to each
//! model). The pairing follows the cycle contract of rust/unit.rs: a unit presents results in the
//! order it took the inputs, and a reset (pulsed between edges or held across one) discards
//! everything in flight. A unit whose inputs are not one-per-result (the coalescer's handshake)
//! overrides [`crate::engine::Binding::cover_cycle`].

use crate::engine::lockstep::{Reset, Step};
use crate::engine::stimulus::Rng;
use crate::engine::Binding;
use gcn_vmem_model::cover::{Covered, Hits};
use gcn_vmem_model::unit::{valid_of, Unit};

/// What the pairing remembers between cycles of one case.
#[derive(Debug)]
pub struct InFlight<I, O> {
    /// Inputs taken and not yet presented, oldest first.
    pub queue: Ring<I>,
    /// The model's outputs after the previous edge, for units with a handshake, whose pairing
    /// keeps it (the coalescer's); [`fifo_cycle`] neither reads nor writes it.
    pub last_out: O,
    /// A count and a flag for a unit's own pairing (the coalescer: the requests of the wave in
    /// flight so far, and whether the previous cycle offered a wave its edge did not take).
    pub count: u32,
    pub flag: bool,
}

impl<I: Default + Copy, O: Default> Default for InFlight<I, O> {
    fn default() -> Self {
        InFlight { queue: Ring::default(), last_out: O::default(), count: 0, flag: false }
    }
}

impl<I, O: Default> InFlight<I, O> {
    /// Forgets everything: a case opens with a reset.
    pub fn clear(&mut self) {
        self.queue.clear();
        self.last_out = O::default();
        self.count = 0;
        self.flag = false;
    }
}

/// Inputs in flight, oldest first: a queue of at most [`Ring::CAPACITY`] entries in place, so
/// that pushing and popping one a cycle costs no allocation and no growth check. A unit keeps at
/// most its latency in flight ([`fifo_cycle`] checks at compile time that the latency is below
/// the capacity). Past its capacity a push forgets the oldest entry: only a model that broke its
/// own cycle contract gets there, and its run's coverage is then not to be trusted, while the
/// lockstep still compares its outputs with the RTL's.
#[derive(Clone, Copy, Debug)]
pub struct Ring<I> {
    slots: [I; Ring::<()>::CAPACITY],
    head: usize,
    len: usize,
}

impl<I> Ring<I> {
    /// Entries the ring holds.
    pub(crate) const CAPACITY: usize = 8;
}

impl<I: Default + Copy> Default for Ring<I> {
    fn default() -> Self {
        Ring { slots: [I::default(); Ring::<()>::CAPACITY], head: 0, len: 0 }
    }
}

impl<I> Ring<I> {
    pub fn clear(&mut self) {
        self.len = 0;
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn len(&self) -> usize {
        self.len
    }
    /// The oldest entry.
    #[inline]
    pub(crate) fn front(&self) -> Option<&I> {
        (self.len > 0).then(|| &self.slots[self.head])
    }
}

impl<I: Copy> Ring<I> {
    /// Appends `input`; a full ring forgets its oldest entry first.
    #[inline]
    pub(crate) fn push_back(&mut self, input: I) {
        let mask = Self::CAPACITY - 1;
        self.slots[(self.head + self.len) & mask] = input;
        if self.len == Self::CAPACITY {
            self.head = (self.head + 1) & mask;
        } else {
            self.len += 1;
        }
    }
    /// Removes and returns the oldest entry.
    #[inline]
    pub(crate) fn pop_front(&mut self) -> Option<I> {
        if self.len == 0 {
            return None;
        }
        let input = self.slots[self.head];
        self.head = (self.head + 1) & (Self::CAPACITY - 1);
        self.len -= 1;
        Some(input)
    }
}

/// Functional coverage of cycle `cycle` of a random case's run (`case`'s steps, then idle
/// cycles for the drain): `step` was driven, `out` is the model's outputs after its edge. A unit
/// of fixed latency (every `pipelined_unit!`: [`Unit::computed`] is `Some`) pairs the result its
/// edge computed with that edge's own input ([`result_cycle`]); any other unit pairs through its
/// [`Binding::cover_cycle`]. Both pairings give the same samples for a unit of fixed latency
/// (tests/harness.rs `pairing_by_result_is_the_fifo_pairing`).
#[inline(always)]
pub(crate) fn pair_cycle<B: Binding>(
    in_flight: &mut InFlight<<B::Model as Unit>::In, <B::Model as Unit>::Out>,
    case: &[Step<<B::Model as Unit>::In>],
    cycle: usize,
    step: &Step<<B::Model as Unit>::In>,
    out: &<B::Model as Unit>::Out,
    model: &B::Model,
    hits: &mut Hits,
) {
    match model.computed() {
        Some(result) => result_cycle::<B::Model>(case, cycle, &step.input, result, hits),
        None => B::cover_cycle(in_flight, step, out, hits),
    }
}

/// The pairing of a unit of fixed latency: the valid result that the edge of step `cycle`
/// computed from `input` is sampled with it then, if it will reach the outputs, that is, if no
/// reset comes in the `LATENCY − 1` steps that carry it there (the idle steps of the drain have
/// none). This samples the same pairs as [`fifo_cycle`], each `LATENCY − 1` cycles earlier,
/// without copying inputs into a queue, and right after the model computed the result, while
/// the branches it took on that input are the latest in the branch predictor's history.
#[inline(always)]
pub fn result_cycle<M: Covered>(case: &[Step<M::In>], cycle: usize, input: &M::In, result: &M::Out, hits: &mut Hits) {
    if valid_of(result) && (1..M::LATENCY).all(|k| case.get(cycle + k).is_none_or(|s| s.reset == Reset::None)) {
        M::sample(input, result, hits);
    }
}

/// The default pairing of [`crate::engine::Binding::cover_cycle`]: a valid input that is not held in
/// reset enters the queue; a valid output takes the oldest entry and is sampled with it.
#[inline]
pub fn fifo_cycle<M: Covered>(
    in_flight: &mut InFlight<M::In, M::Out>,
    step: &Step<M::In>,
    out: &M::Out,
    hits: &mut Hits,
) {
    const { assert!(M::LATENCY < Ring::<()>::CAPACITY, "fifo_cycle: a latency the in-flight ring cannot hold") };
    match step.reset {
        Reset::None => {}
        Reset::Pulse => in_flight.queue.clear(),
        Reset::Hold => in_flight.queue.clear(),
    }
    if step.reset != Reset::Hold && valid_of(&step.input) {
        in_flight.queue.push_back(step.input);
    }
    if valid_of(out) {
        if let Some(input) = in_flight.queue.pop_front() {
            M::sample(&input, out, hits);
        }
    }
}

/// Functional coverage of the model alone on a run's random cases: `chunks` chunks of `seed`,
/// exactly the cases a lockstep run of that seed drives (cosim/engine/run.rs and case.rs), through the same pairing.
/// For tests and quick checks of the stimulus, at the model's speed.
pub fn model_only<B: Binding>(seed: u64, chunks: impl Iterator<Item = u64>) -> (Hits, u64) {
    model_only_paired::<B>(seed, chunks, true)
}

/// [`model_only`] with the pairing chosen: `by_result` pairs as the lockstep run does
/// ([`pair_cycle`]), otherwise always through [`Binding::cover_cycle`] (by default
/// [`fifo_cycle`]). For the test that the two agree.
pub fn model_only_paired<B: Binding>(seed: u64, chunks: impl Iterator<Item = u64>, by_result: bool) -> (Hits, u64) {
    let mut hits = Hits::new(&B::Model::covergroup());
    let mut model = B::Model::default();
    let mut in_flight = InFlight::default();
    let mut vectors = 0;
    for chunk in chunks {
        let mut rng = Rng::for_chunk(seed, chunk);
        let mut chunk_vectors = 0;
        while chunk_vectors < crate::engine::stimulus::CHUNK_VECTORS {
            let case = B::generate_case(&mut rng);
            chunk_vectors += case.iter().filter(|s| valid_of(&s.input)).count() as u64;
            model.reset();
            in_flight.clear();
            let mut held = false;
            let drain = Step::default();
            for (cycle, step) in case.iter().chain(std::iter::repeat_n(&drain, <B::Model as Unit>::LATENCY)).enumerate()
            {
                let out = crate::engine::lockstep::drive_unit(&mut model, &mut held, step);
                if by_result {
                    pair_cycle::<B>(&mut in_flight, &case, cycle, step, &out, &model, &mut hits);
                } else {
                    B::cover_cycle(&mut in_flight, step, &out, &mut hits);
                }
            }
        }
        vectors += chunk_vectors;
    }
    (hits, vectors)
}

#[cfg(test)]
mod tests {
    use super::Ring;

    /// The ring against a `VecDeque` that forgets its oldest entry when pushed past the ring's
    /// capacity: the same entries in the same order through every push, pop and clear of a long
    /// random sequence, across wrap-arounds and overflows.
    #[test]
    fn the_ring_is_a_bounded_fifo() {
        let mut ring = Ring::<u32>::default();
        let mut reference = std::collections::VecDeque::new();
        let mut rng = crate::engine::stimulus::Rng::new(7);
        let mut overflows = 0;
        for n in 0..100_000u32 {
            // Pushes outnumber pops, so that the ring fills and overflows between clears.
            match rng.below(32) {
                0 => {
                    ring.clear();
                    reference.clear();
                }
                1..=18 => {
                    ring.push_back(n);
                    reference.push_back(n);
                    if reference.len() > Ring::<u32>::CAPACITY {
                        reference.pop_front();
                        overflows += 1;
                    }
                }
                _ => assert_eq!(ring.pop_front(), reference.pop_front(), "pop {n}"),
            }
            assert_eq!(ring.len(), reference.len());
            assert_eq!(ring.is_empty(), reference.is_empty());
            assert_eq!(ring.front(), reference.front());
        }
        assert!(overflows > 1000, "only {overflows} overflows exercised");
    }
}
