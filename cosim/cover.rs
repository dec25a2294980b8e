//! Functional coverage in the lockstep run: pairs each valid input with the model's result for it
//! and hands the pair to the unit's sampler ([`crate::cover::Covered`], declared next to each
//! model). The pairing follows the cycle contract of rust/unit.rs: a unit presents results in the
//! order it took the inputs, and a reset (pulsed between edges or held across one) discards
//! everything in flight. A unit whose inputs are not one-per-result (the coalescer's handshake)
//! overrides [`super::Binding::cover_cycle`].

use std::collections::VecDeque;

use super::lockstep::{Reset, Step};
use super::stimulus::Rng;
use super::Binding;
use crate::cover::{Covered, Hits};
use crate::unit::{valid_of, Unit};

/// What the pairing remembers between cycles of one case.
#[derive(Debug, Default)]
pub struct InFlight<I, O> {
    /// Inputs taken and not yet presented, oldest first.
    pub queue: VecDeque<I>,
    /// The model's outputs after the previous edge (for units with a handshake).
    pub last_out: O,
}

impl<I, O: Default> InFlight<I, O> {
    /// Forgets everything: a case opens with a reset.
    pub fn clear(&mut self) {
        self.queue.clear();
        self.last_out = O::default();
    }
}

/// The default pairing of [`super::Binding::cover_cycle`]: a valid input that is not held in
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
/// exactly the cases a lockstep run of that seed drives (cosim/run.rs), through the same pairing.
/// For tests and quick checks of the stimulus, at the model's speed.
pub fn model_only<B: Binding>(seed: u64, chunks: impl Iterator<Item = u64>) -> (Hits, u64) {
    let mut hits = Hits::new(&B::Model::covergroup());
    let mut model = B::Model::default();
    let mut in_flight = InFlight::default();
    let mut vectors = 0;
    for chunk in chunks {
        let mut rng: Rng = super::run::chunk_rng(seed, chunk);
        let mut chunk_vectors = 0;
        while chunk_vectors < super::run::CHUNK_VECTORS {
            let case = B::generate_case(&mut rng);
            chunk_vectors += case.iter().filter(|s| valid_of(&s.input)).count() as u64;
            model.reset();
            in_flight.clear();
            let mut held = false;
            let drain = Step::default();
            for step in case.iter().chain(std::iter::repeat_n(&drain, <B::Model as Unit>::LATENCY)) {
                let out = super::lockstep::drive_unit(&mut model, &mut held, step);
                B::cover_cycle(&mut in_flight, step, &out, &mut hits);
            }
        }
        vectors += chunk_vectors;
    }
    (hits, vectors)
}

/// The functional coverage of one unit over a `gcn-vmem cosim` invocation (its random run and
/// any X runs, merged).
#[derive(Debug, Clone)]
pub struct UnitBins {
    pub unit: &'static str,
    pub declared: usize,
    pub hit: usize,
    /// `point: bin` of every bin never hit.
    pub unhit: Vec<String>,
    /// Whether the unit passes: every bin hit, or holes allowed at this budget.
    pub passed: bool,
}

struct Report<'a>(&'a [super::run::Summary], bool);

impl super::Visit for Report<'_> {
    type Output = UnitBins;
    fn visit<B: Binding>(self) -> UnitBins {
        let unit = <B::Model as Unit>::NAME;
        let group = B::Model::covergroup();
        let mut hits = Hits::new(&group);
        for s in self.0.iter().filter(|s| s.unit == unit) {
            hits.merge(&s.hits);
        }
        let unhit: Vec<String> = hits.unhit(&group).iter().map(|(p, b)| format!("{p}: {b}")).collect();
        UnitBins { unit, declared: group.bins(), hit: hits.hit_bins(), passed: unhit.is_empty() || !self.1, unhit }
    }
}

/// Prints the functional coverage of each unit of `summaries` and lists its unhit bins; with
/// `required`, a unit with an unhit bin fails.
pub fn report(summaries: &[super::run::Summary], required: bool) -> Vec<UnitBins> {
    let mut units: Vec<&'static str> = Vec::new();
    for s in summaries {
        if !units.contains(&s.unit) {
            units.push(s.unit);
        }
    }
    let rows: Vec<UnitBins> = units.iter().filter_map(|u| super::with_unit(u, Report(summaries, required))).collect();
    println!("functional coverage (bins declared next to each model, rust/<unit>.rs `cover`):");
    for r in &rows {
        let pct = 100.0 * r.hit as f64 / r.declared.max(1) as f64;
        let verdict = match (r.unhit.is_empty(), r.passed) {
            (true, _) => "",
            (false, false) => "  FAIL: unhit bins at the default budget",
            (false, true) => "  (holes allowed: below the default budget or sharded)",
        };
        println!("{:<25} {:>11} bins {pct:>5.1} %{verdict}", r.unit, format!("{}/{}", r.hit, r.declared));
        for bin in &r.unhit {
            println!("    unhit {}: {bin}", r.unit);
        }
    }
    rows
}
