//! Functional coverage: the bins a unit declares next to its model, and their hit counts.
//!
//! Each unit's module declares a [`Covergroup`] (its coverpoints, each a list of named bins, a
//! cross being the product of its axes) and a sampler, together in an implementation of
//! [`Covered`]. The co-simulation harness pairs every valid input of a random run with the
//! model's result for it and calls [`Covered::sample`], which says which bin of each point the
//! pair falls in ([`Hits::hit`]). A bin is declared only when the unit can reach it: a bin that
//! stays at zero after the default budget is a hole in the stimulus, and `make cosim` fails on it.
//!
//! Sampling is on the lockstep run's hot path, so it is plain indexing: a point is named by its
//! position (each unit keeps an enum of its points, checked against the declaration order by
//! [`Covergroup::point`]), a bin by its index, a cross bin by its coordinates.

use std::fmt;

use crate::unit::Unit;

/// One coverpoint: its name and the names of its bins. A cross keeps its axes' sizes so that
/// coordinates can be turned into a bin index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coverpoint {
    pub name: &'static str,
    pub bins: Vec<String>,
    /// The size of each axis (one axis of `bins.len()` for a plain point).
    pub dims: Vec<usize>,
}

/// A unit's declared coverpoints, in the order of its point enum.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Covergroup {
    pub points: Vec<Coverpoint>,
}

impl Covergroup {
    pub fn new() -> Self {
        Covergroup::default()
    }

    /// Adds a point with the given bins. `id` is the point's position, the value its sampler
    /// passes to [`Hits::hit`]; it must equal the number of points declared before it (a unit
    /// declares its points in the order of its enum), or this panics when the group is built —
    /// which every unit's tests do.
    pub fn point<S: ToString>(mut self, id: usize, name: &'static str, bins: impl IntoIterator<Item = S>) -> Self {
        let bins: Vec<String> = bins.into_iter().map(|b| b.to_string()).collect();
        self.check(id, name, bins.len());
        self.points.push(Coverpoint { name, dims: vec![bins.len()], bins });
        self
    }

    /// Adds a cross: one bin per combination of the axes' bins, named by joining theirs with
    /// spaces, the last axis varying fastest (see [`Hits::hit_cross`]).
    pub fn cross(mut self, id: usize, name: &'static str, axes: &[&[&str]]) -> Self {
        assert!(axes.len() <= MAX_AXES, "cross `{name}` has {} axes, at most {MAX_AXES}", axes.len());
        let mut bins = vec![String::new()];
        for axis in axes {
            bins = bins
                .iter()
                .flat_map(|prefix| {
                    axis.iter().map(move |b| if prefix.is_empty() { (*b).to_string() } else { format!("{prefix} {b}") })
                })
                .collect();
        }
        self.check(id, name, bins.len());
        self.points.push(Coverpoint { name, dims: axes.iter().map(|a| a.len()).collect(), bins });
        self
    }

    fn check(&self, id: usize, name: &str, bins: usize) {
        assert_eq!(
            id,
            self.points.len(),
            "coverpoint `{name}` declared at position {} but its id is {id}",
            self.points.len()
        );
        assert!(bins > 0, "coverpoint `{name}` has no bins");
        assert!(self.points.iter().all(|p| p.name != name), "coverpoint `{name}` declared twice");
    }

    /// Bins over all points.
    pub fn bins(&self) -> usize {
        self.points.iter().map(|p| p.bins.len()).sum()
    }
}

/// Hit counts of a [`Covergroup`]'s bins: one flat array, point by point, so that a hit is one
/// indexed add (samplers run for every vector of a lockstep run).
#[derive(Clone, Debug)]
pub struct Hits {
    /// The bins' counts, point by point, each point's bins followed by a slot that no bin owns:
    /// where [`Hits::hit_if`] counts a hit of the point whose condition is false, so that a
    /// conditional hit is an add and no branch. One such slot a point, not one for all: the
    /// false hits of one sample would otherwise be a chain of dependent adds to one address.
    /// Never read. A fixed number of slots, [`SLOTS`], a power of two: a slot's index is taken
    /// modulo it, which costs an `and` where a slice's bounds check would cost a compare and a
    /// branch on every hit; [`Hits::new`] refuses a group that does not fit, so the modulo
    /// never changes an index.
    counts: Box<[u64; SLOTS]>,
    /// The number of points.
    points: usize,
    /// Each point's first slot and its number of bins (its spare slot is at `start + len`),
    /// kept inline: a sampler names its points by constants, so reading a span is one load with
    /// no bounds check. Points past `points` have no bins.
    spans: [(u32, u32); MAX_POINTS],
    /// Each point's axis sizes, unused axes 1 (a plain point: one axis of all its bins).
    dims: [[u32; MAX_AXES]; MAX_POINTS],
}

/// Equal when the same group's bins have the same counts (the slots no bin owns are not compared).
impl PartialEq for Hits {
    fn eq(&self, other: &Self) -> bool {
        self.points == other.points
            && self.spans == other.spans
            && (0..self.points).all(|k| self.counts(k) == other.counts(k))
    }
}

impl Eq for Hits {}

/// The most axes a cross may have.
pub const MAX_AXES: usize = 4;

/// The most points a group may declare.
pub const MAX_POINTS: usize = 32;

/// Count slots of a [`Hits`]: the bins of every point and a spare slot each. The largest group,
/// format_pack's, has 2,112 bins.
pub const SLOTS: usize = 4096;

impl Hits {
    /// All-zero counts for `group`. Panics if the group has more than [`MAX_POINTS`] points or
    /// more bins (and a spare slot per point) than [`SLOTS`]: every unit's tests build its group.
    pub fn new(group: &Covergroup) -> Self {
        assert!(group.points.len() <= MAX_POINTS, "a covergroup has at most {MAX_POINTS} points");
        let slots = group.bins() + group.points.len();
        assert!(slots <= SLOTS, "a covergroup has {slots} bins and spare slots, at most {SLOTS}");
        let mut spans = [(0, 0); MAX_POINTS];
        let mut dims = [[1; MAX_AXES]; MAX_POINTS];
        let mut next = 0;
        for (k, p) in group.points.iter().enumerate() {
            // (Both fit in u32: at most SLOTS.)
            spans[k] = (next as u32, p.bins.len() as u32);
            for (d, &n) in dims[k].iter_mut().zip(&p.dims) {
                *d = n as u32;
            }
            next += p.bins.len() + 1;
        }
        Hits { counts: Box::new([0; SLOTS]), points: group.points.len(), spans, dims }
    }

    /// Counts one hit of bin `bin` of point `point`.
    #[inline]
    pub fn hit(&mut self, point: usize, bin: usize) {
        let (start, len) = self.spans[point];
        assert!(bin < len as usize, "bin {bin} outside point {point}");
        self.counts[(start as usize + bin) % SLOTS] += 1;
    }

    /// Counts one hit of bin `bin` of point `point` when `cond` holds: [`Hits::hit`] without a
    /// branch on `cond`, for the conditions that random stimulus makes unpredictable (a
    /// mispredicted branch costs more than the add). `bin` is checked only when `cond` holds.
    #[inline]
    pub fn hit_if(&mut self, cond: bool, point: usize, bin: usize) {
        let (start, len) = self.spans[point];
        // The bin is checked as 0 when `cond` is false: the check's only branch never goes the
        // other way (`!cond | (bin < len)` compiles to a branch on `cond`).
        let checked = std::hint::select_unpredictable(cond, bin, 0);
        assert!(checked < len as usize, "bin {bin} outside point {point}");
        let at = start as usize + std::hint::select_unpredictable(cond, checked, len as usize);
        self.counts[at % SLOTS] += 1;
    }

    /// Counts one hit of bin `bin` of point `point` when `cond` holds, for a bin that is valid
    /// whatever `cond` (a constant): adds `cond` to the bin, no branch on it and no spare slot.
    /// ([`Hits::hit_if`] checks the bin only when `cond` holds; given a constant bin the compiler
    /// may fold its select into that check and branch on `cond` after all, as it did for several
    /// of image_addr's under callgrind: docs/perf.md "image_addr".)
    #[inline]
    pub fn hit_when(&mut self, cond: bool, point: usize, bin: usize) {
        let (start, len) = self.spans[point];
        assert!(bin < len as usize, "bin {bin} outside point {point}");
        self.counts[(start as usize + bin) % SLOTS] += u64::from(cond);
    }

    /// The bin of a cross given its coordinate on each axis (in the order the axes were
    /// declared, the last varying fastest).
    #[inline]
    fn cross_bin<const N: usize>(&self, point: usize, coords: &[usize; N]) -> usize {
        const { assert!(N <= MAX_AXES, "a cross has at most MAX_AXES axes") };
        let dims = &self.dims[point];
        let mut bin = 0;
        for (&c, &d) in coords.iter().zip(dims) {
            debug_assert!(c < d as usize, "cross coordinate {c} outside an axis of {d} bins");
            bin = bin * d as usize + c;
        }
        bin
    }

    /// Counts one hit of a cross bin given its coordinate on each axis (in the order the axes
    /// were declared).
    #[inline]
    pub fn hit_cross<const N: usize>(&mut self, point: usize, coords: &[usize; N]) {
        self.hit(point, self.cross_bin(point, coords));
    }

    /// [`Hits::hit_cross`] when `cond` holds, without a branch on it (see [`Hits::hit_if`]).
    #[inline]
    pub fn hit_cross_if<const N: usize>(&mut self, cond: bool, point: usize, coords: &[usize; N]) {
        self.hit_if(cond, point, self.cross_bin(point, coords));
    }

    /// Adds `n` hits to bin `bin` of point `point` (counts read back from a saved run,
    /// `gcn-vmem cosim --results`).
    pub fn add(&mut self, point: usize, bin: usize, n: u64) {
        let (start, len) = self.spans[point];
        assert!(bin < len as usize, "bin {bin} outside point {point}");
        self.counts[start as usize + bin] += n;
    }

    /// The count of each bin of point `point`.
    pub fn counts(&self, point: usize) -> &[u64] {
        let (start, len) = self.spans[point];
        &self.counts[start as usize..(start + len) as usize]
    }

    /// Adds `other`'s counts (of the same group) to these.
    pub fn merge(&mut self, other: &Hits) {
        // The spare slots too: they are never read.
        for (a, b) in self.counts.iter_mut().zip(other.counts.iter()) {
            *a += b;
        }
    }

    /// Bins hit at least once.
    pub fn hit_bins(&self) -> usize {
        (0..self.points).map(|k| self.counts(k).iter().filter(|&&c| c > 0).count()).sum()
    }

    /// `(point, bin)` names of the bins never hit, in declaration order.
    pub fn unhit<'g>(&self, group: &'g Covergroup) -> Vec<(&'g str, &'g str)> {
        let mut out = Vec::new();
        for (k, point) in group.points.iter().enumerate() {
            for (bin, &c) in point.bins.iter().zip(self.counts(k)) {
                if c == 0 {
                    out.push((point.name, bin.as_str()));
                }
            }
        }
        out
    }
}

/// The coverage summary of one unit: `hit/declared bins (percent)`.
pub struct Summary<'a> {
    pub group: &'a Covergroup,
    pub hits: &'a Hits,
}

impl fmt::Display for Summary<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (hit, all) = (self.hits.hit_bins(), self.group.bins());
        write!(f, "{hit}/{all} bins ({:.1} %)", 100.0 * hit as f64 / all.max(1) as f64)
    }
}

/// A unit with declared functional coverage.
pub trait Covered: Unit {
    /// The unit's coverpoints and bins.
    fn covergroup() -> Covergroup;
    /// Counts the bins that one valid input and the model's result for it fall in (`out` is
    /// the output bundle at the cycle the result is presented).
    fn sample(input: &Self::In, out: &Self::Out, hits: &mut Hits);
}

/// Implements [`Covered`] for a unit's model by forwarding to the `covergroup()` and `sample()`
/// of its coverage bins, the `cover` module every unit declares next to its model
/// (`rust/<unit>/cover.rs`, `pub mod cover;`). Invoked in the unit's module, where `cover` is.
macro_rules! impl_covered {
    ($model:ty) => {
        impl $crate::cover::Covered for $model {
            fn covergroup() -> $crate::cover::Covergroup {
                cover::covergroup()
            }
            #[inline]
            fn sample(input: &Self::In, out: &Self::Out, hits: &mut $crate::cover::Hits) {
                cover::sample(input, out, hits);
            }
        }
    };
}
pub(crate) use impl_covered;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cross_bins_are_named_and_indexed_last_axis_fastest() {
        let g = Covergroup::new().point(0, "p", ["a", "b"]).cross(1, "x", &[&["l", "s"], &["0", "1", "2"]]);
        assert_eq!(g.points[1].bins, ["l 0", "l 1", "l 2", "s 0", "s 1", "s 2"]);
        assert_eq!(g.bins(), 8);
        let mut h = Hits::new(&g);
        h.hit_cross(1, &[1, 2]);
        h.hit_cross(1, &[0, 1]);
        h.hit(0, 1);
        assert_eq!(h.counts(1), [0, 1, 0, 0, 0, 1]);
        assert_eq!(h.hit_bins(), 3);
        assert_eq!(h.unhit(&g), [("p", "a"), ("x", "l 0"), ("x", "l 2"), ("x", "s 0"), ("x", "s 1")]);
        let mut total = Hits::new(&g);
        total.merge(&h);
        total.merge(&h);
        assert_eq!(total.counts(1), [0, 2, 0, 0, 0, 2]);
        assert_eq!(Summary { group: &g, hits: &h }.to_string(), "3/8 bins (37.5 %)");
    }

    #[test]
    fn a_conditional_hit_counts_only_when_its_condition_holds() {
        let g = Covergroup::new().point(0, "p", ["a", "b"]).cross(1, "x", &[&["l", "s"], &["0", "1", "2"]]);
        let mut h = Hits::new(&g);
        h.hit_if(true, 0, 1);
        h.hit_if(false, 0, 0);
        // A false condition's bin is not checked: it may be any value the sampler computed.
        h.hit_if(false, 0, 99);
        h.hit_cross_if(true, 1, &[1, 0]);
        h.hit_cross_if(false, 1, &[0, 0]);
        assert_eq!(h.counts(0), [0, 1]);
        assert_eq!(h.counts(1), [0, 0, 0, 1, 0, 0]);
        assert_eq!(h.hit_bins(), 2);
        let mut plain = Hits::new(&g);
        plain.hit(0, 1);
        plain.hit_cross(1, &[1, 0]);
        assert_eq!(h, plain, "the false conditions' hits are nowhere");
    }

    #[test]
    #[should_panic(expected = "bin 2 outside point 0")]
    fn a_conditional_hit_outside_its_point_is_refused_when_it_counts() {
        let g = Covergroup::new().point(0, "p", ["a", "b"]).point(1, "q", ["c"]);
        Hits::new(&g).hit_if(true, 0, 2);
    }

    #[test]
    fn a_counted_condition_adds_itself_to_its_bin() {
        let g = Covergroup::new().point(0, "p", ["a", "b"]).point(1, "q", ["c"]);
        let mut h = Hits::new(&g);
        h.hit_when(true, 0, 1);
        h.hit_when(false, 0, 0);
        h.hit_when(false, 1, 0);
        assert_eq!((h.counts(0), h.counts(1)), (&[0, 1][..], &[0][..]));
        let mut plain = Hits::new(&g);
        plain.hit(0, 1);
        assert_eq!(h, plain);
    }

    #[test]
    #[should_panic(expected = "bin 2 outside point 0")]
    fn a_counted_condition_outside_its_point_is_refused_even_when_false() {
        let g = Covergroup::new().point(0, "p", ["a", "b"]);
        Hits::new(&g).hit_when(false, 0, 2);
    }

    #[test]
    #[should_panic(expected = "at most 4096")]
    fn a_group_with_more_bins_than_the_slots_is_refused() {
        let g = Covergroup::new().point(0, "p", (0..SLOTS).map(|b| b.to_string()));
        let _ = Hits::new(&g);
    }

    #[test]
    #[should_panic(expected = "bin 0 outside point 1")]
    fn a_hit_of_an_undeclared_point_is_refused() {
        // Points past the group's have no bins: a sampler naming one is caught, not counted in
        // another point's slots.
        let g = Covergroup::new().point(0, "p", ["a", "b"]);
        Hits::new(&g).hit(1, 0);
    }

    #[test]
    fn the_largest_group_fits_its_slots() {
        // Every bin and a spare slot each: one group at the limit is accepted and counts.
        let g = Covergroup::new().point(0, "p", (0..SLOTS - 1).map(|b| b.to_string()));
        let mut h = Hits::new(&g);
        h.hit(0, SLOTS - 2);
        h.hit_if(false, 0, 0);
        assert_eq!(h.counts(0)[SLOTS - 2], 1);
        assert_eq!(h.hit_bins(), 1);
    }

    #[test]
    #[should_panic(expected = "declared at position 1 but its id is 0")]
    fn a_point_out_of_enum_order_is_refused() {
        let _ = Covergroup::new().point(0, "a", ["x"]).point(0, "b", ["y"]);
    }
}
