//! The functional-coverage verdict of a `gcn-vmem cosim` invocation: per unit, the bins its
//! runs hit (random run and X runs merged) and, with `required`, a failure for an unhit bin.

use gcn_vmem_model::cover::{Covered as _, Hits};
use gcn_vmem_model::unit::Unit;

use crate::bindings::{with_unit, Visit};
use crate::engine::run::Summary;
use crate::engine::Binding;

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

struct Report<'a>(&'a [Summary], bool);

impl Visit for Report<'_> {
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
pub fn report(summaries: &[Summary], required: bool) -> Vec<UnitBins> {
    let mut units: Vec<&'static str> = Vec::new();
    for s in summaries {
        if !units.contains(&s.unit) {
            units.push(s.unit);
        }
    }
    let rows: Vec<UnitBins> = units.iter().filter_map(|u| with_unit(u, Report(summaries, required))).collect();
    println!("functional coverage (bins declared next to each model, rust/<unit>/cover.rs):");
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
