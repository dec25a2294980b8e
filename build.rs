//! Builds the RTL side of every unit listed in cosim/units.txt and generates its binding. This
//! file is the entry point and the order of the steps; each step is a module of cosim/build/.
//!
//! Per unit, from `verilator --xml-only` of rtl/<unit>.sv (cosim/build/port_list.rs):
//! - the **port list** (names, directions, widths, packed arrays), from which this script
//!   generates both sides of the port copying (cosim/build/generate.rs): C++ that moves 32-bit
//!   words into and out of the Verilated model, and Rust (`OUT_DIR/ports/<unit>.rs`, included by
//!   the unit's binding in cosim/bindings/) that moves the model's `In`/`Out` fields into and out
//!   of the same words, with the unit's port table and a test that it equals the model's
//!   (`gcn_vmem_model::unit::Ports::SIGNALS`);
//! - the **files Verilator read**, whose contents (with the Verilator version, the compiler, the
//!   flags and the build script, build.rs and cosim/build/) make the unit's build key.
//!
//! A unit's Verilated builds live in a content-addressed cache, `target/verilated/<unit>-<key>/`
//! (cosim/build/cache.rs), shared by every Cargo profile (release, test, clippy, coverage builds
//! that set another key): a key seen before is linked as it is, so `make test` after `make cosim`
//! verilates nothing, and an edit to rtl/<unit>.sv rebuilds that unit alone (and the units that
//! instantiate it, unless `GCN_VMEM_UNITS` leaves them out: `units::wanted_units`). The variants
//! of a unit (cosim/engine `Variant`; cosim/build/units.rs): the RTL as written (0) untraced and
//! FST-traced; its assertions broken on purpose (1), untraced; and its test-only mutant (2) when
//! units.txt names one, untraced and traced. The test-only code of a variant is not in the design:
//! it is the variant's test hook, rtl/test/<unit>_brk.svh or <unit>_mut.svh, which the design's
//! empty hook point `VMEM_TEST_HOOK(<unit>_brk)` (rtl/vmem_prim_pkg.sv) becomes only in that
//! variant's builds (`+define+VMEM_TEST_HOOKS +define+VMEM_TEST_<unit>_brk`); the hook files are
//! part of the unit's build key, and each build checks that it read its hooks and nothing else
//! outside the key. A VCD is converted from the FST by the harness, so no VCD build exists. A
//! `builds=one` unit (units.txt; the pipeline) has the same variants from one FST-traced build
//! with every hook of its variants: its test-only switches are plusargs, which the generated C++
//! passes and its hooks and test-only parameters read. Every build compiles the
//! assertions (`--assert`) and keeps unknown values randomisable (`--x-assign unique
//! --x-initial unique`; they read 0 unless a run asks for random ones). Units build in parallel
//! (cosim/build/verilate.rs); each model's C++ is one unity file, compiled at -O3 for the build
//! that random runs and the benchmark use and -O0 for the others, whatever the profile; a model
//! of more than `LARGE_MODEL_BYTES` of C++ is compiled in chunks of Verilator's files instead
//! (each at most `CHUNK_BYTES`: in parallel, within the machine's memory, and the model's headers
//! parsed once a chunk), its hot build at `LARGE_OPT`.
//!
//! With `GCN_VMEM_GLS=1` (`make gls`), each unit with a netlist of `make gls`
//! (target/gls/netlist/<unit>.v) also gets its gate-level builds, a library of their own beside
//! the unit's (cosim/build/gls/); without it nothing of them is built or linked.
//!
//! The generic cxx bridge (cosim/engine/rtl.rs, rtl.cc) and the table of units it opens are
//! compiled per profile; they are small.

use std::fs;
use std::path::{Path, PathBuf};

#[path = "cosim/build/cache.rs"]
mod cache;
#[path = "cosim/build/generate.rs"]
mod generate;
// The gate-level builds of `make gls` (GCN_VMEM_GLS=1): the netlists Yosys synthesized from the
// units (target/gls/netlist/<unit>.v), each a library beside the unit's own, which stays as it is.
#[path = "cosim/build/gls/mod.rs"]
mod gls;
// The port list of a unit from Verilator's XML (the test binary includes it too, and tries it on
// malformed and unusual port lists).
#[path = "cosim/build/port_list.rs"]
mod port_list;
// The one reader of cosim/units.txt; its `generate` serves the build scripts of rust/python and
// rust/dpi, not this one.
#[path = "cosim/unit_list.rs"]
#[allow(dead_code)]
mod unit_list;
#[path = "cosim/build/units.rs"]
mod units;
#[path = "cosim/build/verilate.rs"]
mod verilate;

/// Stops the build with `message` as Cargo's error.
fn fail(message: &str) -> ! {
    println!("cargo::error={message}");
    std::process::exit(1);
}

fn main() {
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    watch_inputs();
    let tools = verilate::Toolchain::from_env();
    println!("cargo::rustc-env=GCN_VMEM_COVERAGE_BUILT={}", u8::from(tools.coverage));
    let units = units::read_units(Path::new("cosim/units.txt"));
    units::check_sources(&units);

    let root = cache::cache_root(&out);
    fs::create_dir_all(&root).unwrap_or_else(|e| fail(&format!("cannot create {}: {e}", root.display())));
    let wanted = units::wanted_units(&units);
    let built = verilate::build_all(&units, &tools, &root, &out.join("elaborate"), wanted.as_deref());
    warn_stale(&units, &built, &root);

    // `make gls` (GCN_VMEM_GLS=1): each unit's gate-level builds, a library of their own; none
    // otherwise, and then nothing above differs from a build without them.
    let gate_level: Vec<Option<PathBuf>> = if gls::enabled() {
        gls::build_all(&units, &built, &tools, &root, wanted.as_deref())
    } else {
        units.iter().map(|_| None).collect()
    };

    generate::compile_bridge(&out, &tools, &units, &built, &gate_level, wanted.as_deref());
    generate::write_unit_lists(&out, &units, &built, &gate_level);
}

/// What reruns this script besides its own sources and the files each unit's build read (those
/// are printed with the unit, `generate::write_unit_lists`).
fn watch_inputs() {
    for path in
        ["cosim/units.txt", "rtl", "rust/lib.rs", "cosim/engine/rtl.rs", "cosim/engine/rtl.cc", "cosim/engine/rtl.h"]
    {
        println!("cargo::rerun-if-changed={path}");
    }
    for var in ["VERILATOR", "GCN_VMEM_COVERAGE", "GCN_VMEM_VERILATED_CACHE", "GCN_VMEM_UNITS", "CXX", gls::ENV] {
        println!("cargo::rerun-if-env-changed={var}");
    }
}

/// A cargo warning for each unit linked from a previous build (`units::wanted_units`): the cache
/// `root` holds no build of its sources and flags as they are now.
fn warn_stale(units: &[units::UnitLine], built: &[verilate::Built], root: &Path) {
    for (unit, b) in units.iter().zip(built) {
        if b.stale {
            println!(
                "cargo::warning={}: {} holds no build of its current sources and flags, and GCN_VMEM_UNITS \
                 (UNIT=) leaves it out: linked its most recent build there, which the harness will not run; {}",
                unit.name,
                root.display(),
                units::rebuild_advice(&unit.name, gls::enabled())
            );
        }
    }
}
