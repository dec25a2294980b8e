//! Functional coverage in the lockstep run: pairs each valid input with the model's result for it
//! and hands the pair to the unit's sampler ([`gcn_vmem_model::cover::Covered`], declared next to each
//! model). The pairing follows the cycle contract of rust/unit.rs: a unit presents results in the
//! order it took the inputs, and a reset (pulsed between edges or held across one) discards
//! everything in flight. A unit whose inputs are not one-per-result (the coalescer's handshake)
//! overrides [`crate::engine::Binding::cover_cycle`].

use std::collections::VecDeque;

use crate::engine::lockstep::{Reset, Step};
use crate::engine::stimulus::Rng;
use crate::engine::Binding;
use gcn_vmem_model::cover::{Covered, Hits};
use gcn_vmem_model::unit::{valid_of, Unit};

/// What the pairing remembers between cycles of one case.
#[derive(Debug, Default)]
pub struct InFlight<I, O> {
    /// Inputs taken and not yet presented, oldest first.
    pub queue: VecDeque<I>,
    /// The model's outputs after the previous edge (for units with a handshake).
    pub last_out: O,
    /// A count and a flag for a unit's own pairing (the coalescer: the requests of the wave in
    /// flight so far, and whether the previous cycle offered a wave its edge did not take).
    pub count: u32,
    pub flag: bool,
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

/// The default pairing of [`crate::engine::Binding::cover_cycle`]: a valid input that is not held in
/// reset enters the queue; a valid output takes the oldest entry and is sampled with it.
#[inline]
pub fn fifo_cycle<M: Covered>(
    in_flight: &mut InFlight<M::In, M::Out>,
    step: &Step<M::In>,
    out: &M::Out,
    hits: &mut Hits,
) {
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
    in_flight.last_out = *out;
}

/// Functional coverage of the model alone on a run's random cases: `chunks` chunks of `seed`,
/// exactly the cases a lockstep run of that seed drives (cosim/engine/run.rs), through the same pairing.
/// For tests and quick checks of the stimulus, at the model's speed.
pub fn model_only<B: Binding>(seed: u64, chunks: impl Iterator<Item = u64>) -> (Hits, u64) {
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
            for step in case.iter().chain(std::iter::repeat_n(&drain, <B::Model as Unit>::LATENCY)) {
                let out = crate::engine::lockstep::drive_unit(&mut model, &mut held, step);
                B::cover_cycle(&mut in_flight, step, &out, &mut hits);
            }
        }
        vectors += chunk_vectors;
    }
    (hits, vectors)
}
