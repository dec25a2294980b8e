//! The generic shrinker: minimises a failing case of any unit by editing its cycles and port
//! fields, keeping every edit after which the case still fails.
//!
//! It needs nothing from the unit but its port table (`Ports::SIGNALS`), so every unit, and any
//! unit added later, shrinks the same way. Passes, repeated until one changes nothing:
//! 1. drop runs of cycles (halves, then quarters, … then single cycles);
//! 2. remove each cycle's reset activity;
//! 3. clear idle cycles' data (an idle cycle's inputs are don't-cares to a correct unit);
//! 4. simplify each field of each cycle toward 0: try 0, then clear its set bits one at a time
//!    from the top (so `0xffffffff` becomes `1` when only bit 0 matters, and a value that needs
//!    its top bit keeps only that one).
//!
//! The result is a local minimum: no single edit above keeps it failing.

use crate::engine::lockstep::{Reset, Step};
use gcn_vmem_model::unit::Ports;

/// How much a shrink may try.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Candidate runs at most.
    pub candidates: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget { candidates: 20_000 }
    }
}

/// What a shrink did.
#[derive(Clone, Debug)]
pub struct Shrunk<I> {
    pub steps: Vec<Step<I>>,
    /// Candidates run.
    pub tried: usize,
    /// The budget ran out before a pass changed nothing.
    pub exhausted: bool,
}

struct Search<'f, I, F> {
    best: Vec<Step<I>>,
    fails: &'f mut F,
    tried: usize,
    budget: usize,
}

impl<I: Ports, F: FnMut(&[Step<I>]) -> anyhow::Result<bool>> Search<'_, I, F> {
    fn out_of_budget(&self) -> bool {
        self.tried >= self.budget
    }

    /// Runs `candidate`; keeps it when it still fails.
    fn try_keep(&mut self, candidate: Vec<Step<I>>) -> anyhow::Result<bool> {
        if self.out_of_budget() || candidate == self.best {
            return Ok(false);
        }
        self.tried += 1;
        if (self.fails)(&candidate)? {
            self.best = candidate;
            return Ok(true);
        }
        Ok(false)
    }

    fn drop_cycles(&mut self) -> anyhow::Result<bool> {
        let mut changed = false;
        let mut size = self.best.len().div_ceil(2).max(1);
        loop {
            let mut start = 0;
            while start < self.best.len() && self.best.len() > 1 && !self.out_of_budget() {
                let end = (start + size).min(self.best.len());
                let mut candidate = self.best.clone();
                candidate.drain(start..end);
                if !candidate.is_empty() && self.try_keep(candidate)? {
                    changed = true;
                } else {
                    start += size;
                }
            }
            if size == 1 {
                return Ok(changed);
            }
            size = size.div_ceil(2);
        }
    }

    fn drop_resets(&mut self) -> anyhow::Result<bool> {
        let mut changed = false;
        for i in 0..self.best.len() {
            if self.best[i].reset != Reset::None {
                let mut candidate = self.best.clone();
                candidate[i].reset = Reset::None;
                changed |= self.try_keep(candidate)?;
            }
        }
        Ok(changed)
    }

    fn clear_idle(&mut self) -> anyhow::Result<bool> {
        let mut changed = false;
        for i in 0..self.best.len() {
            let input = self.best[i].input;
            if input.get(0) & 1 == 0 && input != I::default() {
                let mut candidate = self.best.clone();
                candidate[i].input = I::default();
                changed |= self.try_keep(candidate)?;
            }
        }
        Ok(changed)
    }

    fn simplify_fields(&mut self) -> anyhow::Result<bool> {
        let mut changed = false;
        for i in 0..self.best.len() {
            for field in 1..I::SIGNALS.len() {
                let value = self.best[i].input.get(field);
                if value == 0 {
                    continue;
                }
                let with = |this: &Self, v: u128| {
                    let mut candidate = this.best.clone();
                    candidate[i].input.set(field, v);
                    candidate
                };
                if self.try_keep(with(self, 0))? {
                    changed = true;
                    continue;
                }
                for bit in (0..128).rev() {
                    let v = self.best[i].input.get(field);
                    if v >> bit & 1 == 0 {
                        continue;
                    }
                    // Clear the bit; a lone bit moves one place down instead (halving).
                    let cleared = v & !(1u128 << bit);
                    let candidate = if cleared == 0 { v >> 1 } else { cleared };
                    if candidate != 0 {
                        changed |= self.try_keep(with(self, candidate))?;
                    }
                    if self.out_of_budget() {
                        return Ok(changed);
                    }
                }
            }
        }
        Ok(changed)
    }
}

/// Shrinks `case`, which `fails` (a fresh run of a candidate: true when it still fails).
/// `case` itself is assumed to fail.
pub fn shrink<I: Ports>(
    case: &[Step<I>],
    budget: Budget,
    mut fails: impl FnMut(&[Step<I>]) -> anyhow::Result<bool>,
) -> anyhow::Result<Shrunk<I>> {
    let mut search = Search { best: case.to_vec(), fails: &mut fails, tried: 0, budget: budget.candidates };
    loop {
        let mut changed = search.drop_cycles()?;
        changed |= search.drop_resets()?;
        changed |= search.clear_idle()?;
        changed |= search.simplify_fields()?;
        if !changed || search.out_of_budget() {
            break;
        }
    }
    Ok(Shrunk { exhausted: search.out_of_budget(), tried: search.tried, steps: search.best })
}

/// The shrinker of a closed-loop unit's case (a trace recorded with a testbench that answered
/// the unit's outputs, e.g. vmem_pipe's): any edit of a cycle would make the trace inconsistent
/// with what the unit asked for, so the only sound cut is the tail. Keeps the shortest failing
/// prefix (a binary search over its length: a prefix that fails stays failing when extended).
pub fn truncate<I: Ports>(
    case: &[Step<I>],
    mut fails: impl FnMut(&[Step<I>]) -> anyhow::Result<bool>,
) -> anyhow::Result<Shrunk<I>> {
    let (mut lo, mut hi) = (0usize, case.len());
    let mut tried = 0;
    while lo + 1 < hi {
        let mid = lo + (hi - lo) / 2;
        tried += 1;
        if fails(&case[..mid])? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(Shrunk { steps: case[..hi].to_vec(), tried, exhausted: false })
}

#[cfg(test)]
mod tests {
    use super::*;
    use gcn_vmem_model::buffer_addr::In;

    fn step(vgpr_index: u32, tid: u8) -> Step<In> {
        Step::from(In { valid: true, vgpr_index, tid, m0: 0xdead_beef, ..In::default() })
    }

    #[test]
    fn drops_cycles_and_minimises_values() {
        // "Fails" when some valid cycle has vgpr_index >= 0x100 and tid odd.
        let bad = |s: &[Step<In>]| -> anyhow::Result<bool> {
            Ok(s.iter().any(|s| s.input.valid && s.input.vgpr_index >= 0x100 && s.input.tid & 1 == 1))
        };
        let case: Vec<Step<In>> =
            vec![step(5, 2), step(0xffff_ffff, 63), step(7, 1), Step { reset: Reset::Pulse, input: In::default() }];
        let shrunk = shrink(&case, Budget::default(), bad).unwrap();
        assert!(!shrunk.exhausted);
        assert_eq!(shrunk.steps.len(), 1);
        let v = shrunk.steps[0].input;
        assert_eq!((v.vgpr_index, v.tid, v.m0), (0x100, 1, 0), "{v:?}");
    }

    #[test]
    fn stops_at_the_budget() {
        let case: Vec<Step<In>> = (0..50).map(|i| step(i, 1)).collect();
        let shrunk = shrink(&case, Budget { candidates: 3 }, |_| Ok(true)).unwrap();
        assert_eq!(shrunk.tried, 3);
        assert!(shrunk.exhausted);
    }
}
