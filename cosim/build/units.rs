//! The units of cosim/units.txt as the build script reads them: their columns, the variants and
//! Verilator builds each gets with the test hooks each compiles (rtl/test/), the subset a build is
//! asked for (`GCN_VMEM_UNITS`), and the check that every unit has its model, RTL, binding and
//! hooks.

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

/// The variants of a unit: (code, name suffix, switch, FST-traced build too). The RTL as written
/// (0, no suffix, no switch); its assertions broken on purpose (1, `_brk`, `TestBreakAsserts`);
/// its deliberate mutant when units.txt names one (2, `_mut`, the name of `mutant=Name`). A
/// variant's test-only code is its test hooks ([`variant_hooks`]: rtl/test/<unit><suffix>*.svh), which
/// only its own builds compile. A `builds=one` unit has the same variants, all served by its one
/// traced build, which compiles every hook of the unit: there the switch is the plusarg that
/// selects the variant in simulation (`+TestBreakAsserts`, `+Name`), which its hook code and
/// test-only parameters read.
pub fn variants(unit: &UnitLine) -> Vec<(u8, &'static str, Option<String>, bool)> {
    let mut v = vec![(0, "", None, true), (1, "_brk", Some("TestBreakAsserts".to_string()), false)];
    if let Some(name) = &unit.mutant {
        v.push((2, "_mut", Some(name.clone()), true));
    }
    v
}

/// Where the test hooks live (relative to the repository root): each hook point
/// `` `VMEM_TEST_HOOK(name) `` of the RTL (rtl/vmem_prim_pkg.sv) becomes rtl/test/<name>.svh in
/// a build that defines `VMEM_TEST_HOOKS` and `VMEM_TEST_<name>`, and nothing elsewhere.
pub const HOOK_DIR: &str = "rtl/test";

/// The test hooks of variant `suffix` (`_brk`, `_mut`) of unit `name`: the stems of
/// rtl/test/<name><suffix>.svh and rtl/test/<name><suffix>_<part>.svh (a variant whose code sits
/// in several places, e.g. several files of a unit), sorted. None for the RTL as written.
pub fn variant_hooks(name: &str, suffix: &str) -> Vec<String> {
    if suffix.is_empty() {
        return Vec::new();
    }
    let stem = format!("{name}{suffix}");
    hook_files()
        .into_iter()
        .filter(|h| h == &stem || h.strip_prefix(&stem).is_some_and(|rest| rest.starts_with('_')))
        .collect()
}

/// The stems of every rtl/test/*.svh, sorted; none when the folder is missing.
fn hook_files() -> Vec<String> {
    let Ok(dir) = fs::read_dir(HOOK_DIR) else { return Vec::new() };
    let mut stems: Vec<String> = dir
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_suffix(".svh")).map(str::to_string))
        .collect();
    stems.sort();
    stems
}

/// The file of test hook `hook`: rtl/test/<hook>.svh.
pub fn hook_file(hook: &str) -> PathBuf {
    Path::new(HOOK_DIR).join(format!("{hook}.svh"))
}

/// The Verilator flags that compile `hooks` into a build: `+define+VMEM_TEST_HOOKS` and
/// `+define+VMEM_TEST_<hook>` for each; none for a build without hooks.
pub fn hook_defines(hooks: &[String]) -> Vec<String> {
    if hooks.is_empty() {
        return Vec::new();
    }
    std::iter::once("+define+VMEM_TEST_HOOKS".to_string())
        .chain(hooks.iter().map(|h| format!("+define+VMEM_TEST_{h}")))
        .collect()
}

/// One Verilator build of a unit: its class prefix, the test hooks it compiles, whether traced,
/// whether it is the build that random runs and the benchmark use, and the parameters it
/// overrides (the small configuration's).
pub struct Build {
    pub prefix: String,
    pub hooks: Vec<String>,
    pub traced: bool,
    pub hot: bool,
    pub params: Vec<(String, u64)>,
}

impl Build {
    /// Its evaluation compiled optimised, as the hot build's: the builds random runs spend their
    /// time in (the hot one, and the small configuration's, which runs a third of the pipeline's
    /// programs).
    pub fn optimised(&self) -> bool {
        self.hot || !self.params.is_empty()
    }
}

/// The variant code of a unit's small configuration (cosim/units.txt `small=`; the engine's
/// `Variant::Small`) and its build's suffix.
pub const SMALL_CODE: u8 = 6;
pub const SMALL_SUFFIX: &str = "_small";

/// The Verilator flags that set `params` on the top module: `-G<P>=<V>`.
pub fn param_flags(params: &[(String, u64)]) -> Vec<String> {
    params.iter().map(|(p, v)| format!("-G{p}={v}")).collect()
}

/// The Verilator builds of a unit: one per variant and waveform kind, or the one of a
/// `builds=one` unit (with every hook of its variants).
pub fn builds(unit: &UnitLine) -> Vec<Build> {
    let name = &unit.name;
    if unit.one_build {
        let hooks = variants(unit).into_iter().flat_map(|(_, suffix, _, _)| variant_hooks(name, suffix)).collect();
        let mut v = vec![Build { prefix: format!("V{name}"), hooks, traced: true, hot: true, params: Vec::new() }];
        if !unit.small.is_empty() {
            v.push(small_build(unit, true));
        }
        return v;
    }
    let mut v = Vec::new();
    for (code, suffix, _, traced) in variants(unit) {
        let hooks = variant_hooks(name, suffix);
        v.push(Build {
            prefix: format!("V{name}{suffix}"),
            hooks: hooks.clone(),
            traced: false,
            hot: code == 0,
            params: Vec::new(),
        });
        if traced {
            v.push(Build {
                prefix: format!("V{name}{suffix}_fst"),
                hooks,
                traced: true,
                hot: false,
                params: Vec::new(),
            });
        }
    }
    if !unit.small.is_empty() {
        v.push(small_build(unit, true));
    }
    v
}

/// The build of the unit's small configuration: the RTL as written with its `small=` parameters,
/// FST-traced (a failing program's waveform comes from it; untraced unless one is asked for).
fn small_build(unit: &UnitLine, traced: bool) -> Build {
    Build {
        prefix: format!("V{}{SMALL_SUFFIX}", unit.name),
        hooks: Vec::new(),
        traced,
        hot: false,
        params: unit.small.clone(),
    }
}

/// The files of every test hook the unit's builds compile, sorted: part of its build key.
pub fn unit_hook_files(unit: &UnitLine) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = builds(unit).iter().flat_map(|b| b.hooks.iter().map(|h| hook_file(h))).collect();
    files.sort();
    files.dedup();
    files
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
/// binding; unless every variant of a unit of several builds has its test hook (its break-asserts
/// build would be the RTL as written without one); and unless every rtl/test/*.svh is a hook of
/// some unit's variant.
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
        for (_, suffix, _, _) in variants(unit) {
            if !unit.one_build && !suffix.is_empty() && variant_hooks(name, suffix).is_empty() {
                let what = if suffix == "_brk" { "break-asserts" } else { "mutant" };
                fail(&format!(
                    "cosim/units.txt lists `{name}`, whose {what} build needs its test hook {} (and \
                     `VMEM_TEST_HOOK({name}{suffix})` in rtl/{name}.sv; CONTRIBUTING.md \"Adding a unit\")",
                    hook_file(&format!("{name}{suffix}")).display()
                ));
            }
        }
    }
    for stem in hook_files() {
        let owned = units
            .iter()
            .any(|u| variants(u).iter().any(|(_, suffix, _, _)| variant_hooks(&u.name, suffix).contains(&stem)));
        if !owned {
            fail(&format!(
                "{} is the test hook of no variant in cosim/units.txt: name it <unit>_brk.svh (break-asserts) or \
                 <unit>_mut.svh (a unit with mutant=), with an optional _<part>",
                hook_file(&stem).display()
            ));
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
