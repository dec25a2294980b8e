//! Whole instructions through the units: the executor's RTL and lockstep backends
//! ([`backends`]), the random program suite of `make cosim` ([`suite`]), `gcn-vmem exec`
//! program files ([`program`]) and the cost model's JSON lines ([`cost`], SPEC §13.2).

pub mod backends;
pub mod cost;
pub mod program;
pub mod suite;
