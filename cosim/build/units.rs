//! The units of cosim/units.txt as the build script reads them: their columns, the variants and
//! Verilator builds each gets, the subset a build is asked for (`GCN_VMEM_UNITS`), and the check
//! that every unit has its model, RTL and binding.

use std::fs;
use std::path::{Path, PathBuf};

use crate::fail;

pub use crate::unit_list::UnitLine;

/// `GCN_VMEM_UNITS` (the Makefile's `UNIT=`): the units a run needs, or every unit when unset
/// or empty. A unit outside the list whose sources changed is not rebuilt: its most recent
/// cached build with the same ports is linked and marked stale, so an edit to
/// rtl/swizzle.sv followed by `make cosim UNIT=swizzle` does not wait for the pipeline, which
/// instantiates swizzle. The next build without the list (`make cosim`, `make test`) builds it.
pub fn wanted_units(units: &[UnitLine]) -> Option<Vec<String>> {
    let list = std::env::var("GCN_VMEM_UNITS").unwrap_or_default();
    let wanted: Vec<String> = list.split([' ', ',']).filter(|w| !w.is_empty()).map(str::to_string).collect();
    for w in &wanted {
        if !units.iter().any(|u| &u.name == w) {
            let known: Vec<&str> = units.iter().map(|u| u.name.as_str()).collect();
            fail(&format!("GCN_VMEM_UNITS (UNIT=) names `{w}`, which is not a unit; the units: {}", known.join(" ")));
        }
    }
    (!wanted.is_empty()).then_some(wanted)
}

/// The variants of a unit: (code, name suffix, `-G` parameter set to 1, FST-traced build too).
/// A `builds=one` unit has the same variants, all served by its one traced build.
pub fn variants(unit: &UnitLine) -> Vec<(u8, &'static str, Option<String>, bool)> {
    let mut v = vec![(0, "", None, true), (1, "_brk", Some("TestBreakAsserts".to_string()), false)];
    if let Some(param) = &unit.mutant {
        v.push((2, "_mut", Some(param.clone()), true));
    }
    v
}

/// One Verilator build of a unit: its class prefix, the parameter set to 1, whether traced, and
/// whether it is the build that random runs and the benchmark use.
pub struct Build {
    pub prefix: String,
    pub param: Option<String>,
    pub traced: bool,
    pub hot: bool,
}

/// The Verilator builds of a unit: one per variant and waveform kind, or the one of a
/// `builds=one` unit.
pub fn builds(unit: &UnitLine) -> Vec<Build> {
    let name = &unit.name;
    if unit.one_build {
        return vec![Build { prefix: format!("V{name}"), param: None, traced: true, hot: true }];
    }
    let mut v = Vec::new();
    for (code, suffix, param, traced) in variants(unit) {
        v.push(Build { prefix: format!("V{name}{suffix}"), param: param.clone(), traced: false, hot: code == 0 });
        if traced {
            v.push(Build { prefix: format!("V{name}{suffix}_fst"), param, traced: true, hot: false });
        }
    }
    v
}

/// The units of `path` (cosim/units.txt), in its order ([`crate::unit_list::read`]); a
/// malformed line fails the build.
pub fn read_units(path: &Path) -> Vec<UnitLine> {
    crate::unit_list::read(path).unwrap_or_else(|e| fail(&e))
}

/// A unit's binding: cosim/bindings/<unit>.rs, or cosim/bindings/<unit>/mod.rs for a unit whose
/// harness side is a folder (vmem_pipe's testbench, programs and suite).
pub fn binding_file(name: &str) -> PathBuf {
    let folder = Path::new("cosim/bindings").join(name).join("mod.rs");
    if folder.is_file() {
        folder
    } else {
        Path::new("cosim/bindings").join(format!("{name}.rs"))
    }
}

/// Fails the build unless every unit has its model declared in rust/lib.rs (the model crate has
/// no build script, so its lib.rs declares each unit by hand), its model file, its RTL and its
/// binding.
pub fn check_sources(units: &[UnitLine]) {
    let model_lib =
        fs::read_to_string("rust/lib.rs").unwrap_or_else(|e| fail(&format!("cannot read rust/lib.rs: {e}")));
    for unit in units {
        let name = &unit.name;
        if !model_lib.lines().any(|l| l.trim() == format!("pub mod {name};")) {
            fail(&format!("cosim/units.txt lists `{name}` but rust/lib.rs does not declare `pub mod {name};`"));
        }
        for file in
            [PathBuf::from(format!("rust/{name}.rs")), PathBuf::from(format!("rtl/{name}.sv")), binding_file(name)]
        {
            if !file.exists() {
                fail(&format!("cosim/units.txt lists `{name}` but {} is missing", file.display()));
            }
        }
    }
}

/// The command that rebuilds a unit a build left out (see [`wanted_units`]) with its current
/// sources: in the binary `make gls` builds (`gls`), `make gls` naming it; elsewhere `make build`.
pub fn rebuild_advice(name: &str, gls: bool) -> String {
    if gls {
        format!(
            "run `make gls UNIT={name}` to build it (and its netlist) into this gate-level binary, or run its RTL \
             from the normal binary (`make build`)"
        )
    } else {
        "run `make build` (or `make cosim` without UNIT=) to rebuild it".to_string()
    }
}
