//! Builds the RTL side of every unit listed in cosim/units.txt and generates its binding.
//!
//! Per unit, from `verilator --xml-only` of rtl/<unit>.sv:
//! - the **port list** (names, directions, widths, packed arrays), from which this script
//!   generates both sides of the port copying: C++ that moves 32-bit words into and out of the
//!   Verilated model, and Rust (`OUT_DIR/ports/<unit>.rs`, included by cosim/bindings/<unit>.rs)
//!   that moves the model's `In`/`Out` fields into and out of the same words, with the unit's
//!   port table and a test that it equals the model's (`gcn_vmem_model::unit::Ports::SIGNALS`);
//! - the **files Verilator read**, whose contents (with the Verilator version, the compiler, the
//!   flags and this script) make the unit's build key.
//!
//! A unit's Verilated builds live in a content-addressed cache, `target/verilated/<unit>-<key>/`,
//! shared by every Cargo profile (release, test, clippy, coverage builds that set another key):
//! a key seen before is linked as it is, so `make test` after `make cosim` verilates nothing, and
//! an edit to rtl/<unit>.sv rebuilds that unit alone (and the units that instantiate it, unless
//! `GCN_VMEM_UNITS` leaves them out: [`wanted_units`]). The variants of a unit (cosim/engine `Variant`):
//! the RTL as written (0) untraced and FST-traced; its assertions broken on purpose by the
//! test-only `TestBreakAsserts` parameter (1), untraced; and its test-only mutant (2) when
//! units.txt names one, untraced and traced. A VCD is converted from the FST by the harness, so
//! no VCD build exists. A `builds=one` unit (units.txt; the pipeline) has the same variants from
//! one FST-traced build: its test-only parameters are also plusargs, which the generated C++
//! passes. Every build compiles the assertions (`--assert`) and keeps unknown values
//! randomisable (`--x-assign unique --x-initial unique`; they read 0 unless a run asks for random
//! ones). Units build in parallel; each model's C++ is one unity file, compiled at -O3 for the
//! build that random runs and the benchmark use and -O0 for the others, whatever the profile; a
//! model of more than `LARGE_MODEL_BYTES` of C++ is compiled file by file instead (in parallel,
//! and within the machine's memory), its hot build at `LARGE_OPT`.
//!
//! With `GCN_VMEM_GLS=1` (`make gls`), each unit with a netlist of `make gls`
//! (target/gls/netlist/<unit>.v) also gets its gate-level builds, a library of their own beside
//! the unit's (cosim/engine/gls_build.rs); without it nothing of them is built or linked.
//!
//! The generic cxx bridge (cosim/engine/rtl.rs, rtl.cc) and the table of units it opens are
//! compiled per profile; they are small.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

// The port list of a unit from Verilator's XML: shared with the library's tests
// (cosim/engine/port_list.rs), which try it on malformed and unusual port lists.
#[path = "cosim/engine/port_list.rs"]
mod port_list;
use port_list::{Elaborated, Port};

// The gate-level builds of `make gls` (GCN_VMEM_GLS=1): the netlists Yosys synthesized from the
// units (target/gls/<unit>.v), each a library beside the unit's own, which stays as it is.
#[path = "cosim/engine/gls_build.rs"]
mod gls_build;

struct UnitLine {
    name: String,
    mutant: Option<String>,
    /// `builds=one`: one FST-traced build serves every variant, the test-only parameters set
    /// through plusargs of their names.
    one_build: bool,
}

/// A model whose generated C++ is larger than this is compiled file by file, not as one unit.
const LARGE_MODEL_BYTES: u64 = 8 << 20;

/// The optimisation level of a large model's build that random runs use: -O3 on 55 MB of C++
/// costs minutes more compile (a 2 MB file of the pipeline: 5 s at -O0, 7 s at -O1, 12 s at
/// -O2), and the pipeline's random run at -O1 is as fast as it was at -O3 (docs/perf.md).
const LARGE_OPT: u32 = 1;

/// A unit ready to link: its cache directory (with `libcosim_<unit>.a`) and its ports.
struct Built {
    dir: PathBuf,
    ports: Vec<Port>,
    files: Vec<PathBuf>,
    /// Linked from a build of older sources (see [`wanted_units`]): the harness refuses to open
    /// it and says how to rebuild it.
    stale: bool,
}

/// The file in a unit's cache directory that records the ports it was built with.
const PORTS_FILE: &str = "ports.txt";

/// `GCN_VMEM_UNITS` (the Makefile's `UNIT=`): the units a run needs, or every unit when unset
/// or empty. A unit outside the list whose sources changed is not rebuilt: its most recent
/// cached build with the same ports is linked and marked stale, so an edit to
/// rtl/swizzle.sv followed by `make cosim UNIT=swizzle` does not wait for the pipeline, which
/// instantiates swizzle. The next build without the list (`make cosim`, `make test`) builds it.
fn wanted_units(units: &[UnitLine]) -> Option<Vec<String>> {
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

/// The most recent cached build of `name` whose recorded ports are `ports`.
fn latest_build(root: &Path, name: &str, ports: &str) -> Option<PathBuf> {
    let prefix = format!("{name}-");
    let mut dirs: Vec<(std::time::SystemTime, PathBuf)> = fs::read_dir(root)
        .ok()?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .filter(|e| e.path().join(format!("libcosim_{name}.a")).is_file())
        .filter(|e| fs::read_to_string(e.path().join(PORTS_FILE)).is_ok_and(|p| p == ports))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    dirs.sort();
    dirs.pop().map(|(_, dir)| dir)
}

/// The variants of a unit: (code, name suffix, `-G` parameter set to 1, FST-traced build too).
/// A `builds=one` unit has the same variants, all served by its one traced build.
fn variants(unit: &UnitLine) -> Vec<(u8, &'static str, Option<String>, bool)> {
    let mut v = vec![(0, "", None, true), (1, "_brk", Some("TestBreakAsserts".to_string()), false)];
    if let Some(param) = &unit.mutant {
        v.push((2, "_mut", Some(param.clone()), true));
    }
    v
}

/// One Verilator build of a unit: its class prefix, the parameter set to 1, whether traced, and
/// whether it is the build that random runs and the benchmark use.
struct Build {
    prefix: String,
    param: Option<String>,
    traced: bool,
    hot: bool,
}

/// The Verilator builds of a unit: one per variant and waveform kind, or the one of a
/// `builds=one` unit.
fn builds(unit: &UnitLine) -> Vec<Build> {
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

fn fail(message: &str) -> ! {
    println!("cargo::error={message}");
    std::process::exit(1);
}

fn read_units(path: &Path) -> Vec<UnitLine> {
    let text = fs::read_to_string(path).unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", path.display())));
    let mut units = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut words = line.split_whitespace();
        let name = words.next().unwrap_or_default().to_string();
        if !name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') {
            fail(&format!("{}:{}: unit name `{name}` must be lower_snake_case", path.display(), n + 1));
        }
        let mut mutant = None;
        let mut one_build = false;
        for word in words {
            if let Some(param) = word.strip_prefix("mutant=") {
                mutant = Some(param.to_string());
            } else if word == "builds=one" {
                one_build = true;
            } else {
                fail(&format!(
                    "{}:{}: unknown column `{word}` (expected mutant=Param or builds=one)",
                    path.display(),
                    n + 1
                ));
            }
        }
        units.push(UnitLine { name, mutant, one_build });
    }
    units
}

/// The shared packages, rtl/*_pkg.sv, in name order (they must not depend on each other).
fn packages() -> Vec<PathBuf> {
    let mut pkgs: Vec<PathBuf> = fs::read_dir("rtl")
        .unwrap_or_else(|e| fail(&format!("cannot read rtl/: {e}")))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_str().is_some_and(|s| s.ends_with("_pkg.sv")))
        .collect();
    pkgs.sort();
    pkgs
}

/// `verilator <common flags> <extra> rtl/<unit>.sv` into `mdir`; the error carries stderr.
fn run_verilator(bin: &str, unit: &str, prefix: &str, extra: &[String], mdir: &Path) -> Result<(), String> {
    let _ = fs::remove_dir_all(mdir);
    fs::create_dir_all(mdir).map_err(|e| format!("cannot create {}: {e}", mdir.display()))?;
    let out = Command::new(bin)
        .args(["-Wall", "--assert", "--x-assign", "unique", "--x-initial", "unique"])
        .arg("--prefix")
        .arg(prefix)
        .arg("--top-module")
        .arg(unit)
        .arg("-Mdir")
        .arg(mdir)
        .args(extra)
        .args(["-y", "rtl", "rtl/lint/verilator.vlt"])
        .args(packages())
        .arg(format!("rtl/{unit}.sv"))
        .output()
        .map_err(|e| format!("cannot run `{bin}`: {e}. Fix: `apt-get install -y verilator zlib1g-dev`."))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "verilator failed on rtl/{unit}.sv ({prefix}); fix the RTL or run `make lint`:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Runs `verilator --xml-only` on the unit and reads its top's ports and the files it read.
fn elaborate(bin: &str, unit: &str, mdir: &Path) -> Result<Elaborated, String> {
    run_verilator(bin, unit, &format!("V{unit}"), &["--xml-only".to_string()], mdir)?;
    let path = mdir.join(format!("V{unit}.xml"));
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut elaborated = port_list::read(&text, unit).map_err(|e| format!("{}: {e}", path.display()))?;
    elaborated.files.retain(|f| f.is_file());
    Ok(elaborated)
}

/// 64-bit FNV-1a of `bytes`, folded into `hash`.
fn fnv(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// A hash of every file (path and contents) and of `extra` (flags, tool versions).
fn build_key(files: &[PathBuf], extra: &str) -> Result<String, String> {
    let mut h = fnv(0xcbf2_9ce4_8422_2325, extra.as_bytes());
    for f in files {
        h = fnv(h, f.display().to_string().as_bytes());
        h = fnv(h, &fs::read(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?);
    }
    Ok(format!("{h:016x}"))
}

/// The C++ mask of the top word of a port of `width` bits.
fn top_mask(width: u32) -> String {
    match width % 32 {
        0 => "0xffffffffu".to_string(),
        r => format!("0x{:x}u", (1u64 << r) - 1),
    }
}

/// The C++ `Ports` struct of a unit (verilated_rs::Rtl's port copying), in an anonymous
/// namespace: shared by the unit's glue and its gate-level builds' (gls_build.rs).
fn cpp_ports(ports: &[Port]) -> String {
    let (mut apply, mut sample) = (String::new(), String::new());
    let (mut in_words, mut out_words) = (0u32, 0u32);
    for p in ports {
        let (rtl, words, mask) = (&p.rtl, p.words(), top_mask(p.width));
        let at = if p.input { in_words } else { out_words };
        if p.input {
            match words {
                1 => writeln!(apply, "    top.{rtl} = w[{at}] & {mask};"),
                2 => {
                    writeln!(apply, "    top.{rtl} = (static_cast<uint64_t>(w[{}] & {mask}) << 32) | w[{at}];", at + 1)
                }
                _ => writeln!(
                    apply,
                    "    for (int k = 0; k < {}; ++k) top.{rtl}[k] = w[{at} + k];\n    top.{rtl}[{}] = w[{}] & {mask};",
                    words - 1,
                    words - 1,
                    at + words - 1
                ),
            }
            .unwrap();
            in_words += words;
        } else {
            match words {
                1 => writeln!(sample, "    w[{at}] = top.{rtl};"),
                2 => writeln!(
                    sample,
                    "    w[{at}] = static_cast<uint32_t>(top.{rtl});\n    w[{}] = static_cast<uint32_t>(top.{rtl} >> 32);",
                    at + 1
                ),
                _ => writeln!(sample, "    for (int k = 0; k < {words}; ++k) w[{at} + k] = top.{rtl}[k];"),
            }
            .unwrap();
            out_words += words;
        }
    }
    format!(
        "\nnamespace {{\n\n\
         // Ports as words (verilated_rs::Rtl): each port from a word of its own, least significant first.\n\
         struct Ports {{\n\
         \x20 static constexpr size_t kInWords = {in_words};\n\
         \x20 static constexpr size_t kOutWords = {out_words};\n\n\
         \x20 template <class M>\n\
         \x20 static void apply(M &top, const uint32_t *w) {{\n{apply}\x20 }}\n\n\
         \x20 template <class M>\n\
         \x20 static void sample(const M &top, uint32_t *w) {{\n{sample}\x20 }}\n\
         }};\n\n\
         }}  // namespace\n\n"
    )
}

/// The generated C++ of a unit: port copying, variant selection and the plain benchmark loop.
fn cpp_binding(unit: &UnitLine, ports: &[Port]) -> String {
    let name = &unit.name;
    let mut s = format!(
        "// Generated by build.rs from the ports of rtl/{name}.sv: do not edit.\n\
         #include <cstddef>\n#include <cstdint>\n#include <memory>\n#include <stdexcept>\n#include <string>\n\n\
         #include \"verilated_rs.h\"\n"
    );
    for build in builds(unit) {
        writeln!(s, "#include \"{}.h\"", build.prefix).unwrap();
    }
    let mut cases = String::new();
    for (code, suffix, param, traced) in variants(unit) {
        if unit.one_build {
            // The one traced build, untraced unless a waveform is asked for; the variant's
            // parameter as the plusarg of its name.
            match param {
                None => writeln!(cases, "    case {code}: return verilated_rs::open<Ports, V{name}, V{name}>(wave, options);"),
                Some(p) => writeln!(
                    cases,
                    "    case {code}: {{\n      verilated_rs::Options o = options;\n      o.plusargs.push_back(\"+{p}\");\n      \
                     return verilated_rs::open<Ports, V{name}, V{name}>(wave, o);\n    }}"
                ),
            }
            .unwrap();
            continue;
        }
        let fst = if traced { format!("V{name}{suffix}_fst") } else { "void".to_string() };
        writeln!(cases, "    case {code}: return verilated_rs::open<Ports, V{name}{suffix}, {fst}>(wave, options);")
            .unwrap();
    }
    s.push_str(&cpp_ports(ports));
    write!(
        s,
        "namespace gcn_vmem_units {{\n\n\
         std::unique_ptr<verilated_rs::Rtl> open_{name}(uint8_t variant, uint8_t wave, const verilated_rs::Options &options) {{\n\
         \x20 switch (variant) {{\n{cases}\x20   default: break;\n\x20 }}\n\
         \x20 if (variant == 2) {{\n\
         \x20   throw std::invalid_argument(\"{name} has no mutant build (cosim/units.txt gives it no mutant=Param)\");\n\
         \x20 }}\n\
         \x20 throw std::invalid_argument(\"{name} has no RTL variant \" + std::to_string(variant));\n\
         }}\n\n\
         uint64_t plain_{name}(const uint32_t *inputs, size_t count, uint64_t rounds) {{\n\
         \x20 return verilated_rs::plain_loop<Ports, V{name}>(inputs, count, rounds);\n\
         }}\n\n\
         }}  // namespace gcn_vmem_units\n"
    )
    .unwrap();
    s
}

/// `buffer_addr` -> `BufferAddr`, the model type's name (rust/<unit>.rs).
fn camel(name: &str) -> String {
    name.split('_').map(|w| w[..1].to_ascii_uppercase() + &w[1..]).collect()
}

/// The generated Rust of a unit: its RTL port table and the word copying of its `In`/`Out`.
fn rust_binding(unit: &str, ports: &[Port]) -> String {
    let model = camel(unit);
    let mut s = format!(
        "// Generated by build.rs from the ports of rtl/{unit}.sv: do not edit. Included by\n\
         // cosim/bindings/{unit}.rs.\n\n\
         /// The ports of rtl/{unit}.sv and how the model's `In`/`Out` travel to and from them.\n\
         pub struct Ports;\n\n\
         /// `{unit}` in the harness: its types here, its own part in its `Binding` impl.\n\
         pub struct Harness;\n\n\
         impl crate::engine::UnitTypes for Harness {{\n\
         \x20   type Model = gcn_vmem_model::{unit}::{model};\n\
         \x20   type Rtl = Rtl;\n\
         }}\n\n\
         /// The Verilated RTL of `{unit}`; every instance has its own simulation context.\n\
         pub type Rtl = crate::engine::rtl::Rtl<Ports>;\n\n\
         impl crate::engine::rtl::RtlPorts for Ports {{\n\
         \x20   type Model = gcn_vmem_model::{unit}::{model};\n"
    );
    for input in [true, false] {
        let (konst, words) = if input { ("INPUTS", "IN_WORDS") } else { ("OUTPUTS", "OUT_WORDS") };
        let total: u32 = ports.iter().filter(|p| p.input == input).map(Port::words).sum();
        writeln!(s, "    const {words}: usize = {total};").unwrap();
        writeln!(s, "    const {konst}: &'static [crate::engine::rtl::RtlPort] = &[").unwrap();
        for p in ports.iter().filter(|p| p.input == input) {
            writeln!(
                s,
                "        crate::engine::rtl::RtlPort {{ rtl: {:?}, name: {:?}, width: {}, elems: {} }},",
                p.rtl, p.name, p.width, p.elems
            )
            .unwrap();
        }
        writeln!(s, "    ];").unwrap();
    }
    let in_words: u32 = ports.iter().filter(|p| p.input).map(Port::words).sum();
    let out_words: u32 = ports.iter().filter(|p| !p.input).map(Port::words).sum();
    write!(
        s,
        "\n    #[inline]\n    fn pack(i: &gcn_vmem_model::{unit}::In, w: &mut [u32]) {{\n\
         \x20       use crate::engine::rtl::PortField as _;\n\
         \x20       let w: &mut [u32; {in_words}] = w.try_into().expect(\"{in_words} input words\");\n"
    )
    .unwrap();
    let mut at = 0;
    for p in ports.iter().filter(|p| p.input) {
        let end = at + p.words();
        writeln!(s, "        i.{}.put(&mut w[{at}..{end}], {});", p.name, p.elem_width()).unwrap();
        at = end;
    }
    write!(
        s,
        "    }}\n\n    #[inline]\n    fn unpack(w: &[u32]) -> gcn_vmem_model::{unit}::Out {{\n\
         \x20       use crate::engine::rtl::PortField;\n\
         \x20       let w: &[u32; {out_words}] = w.try_into().expect(\"{out_words} output words\");\n\
         \x20       gcn_vmem_model::{unit}::Out {{\n"
    )
    .unwrap();
    let mut at = 0;
    for p in ports.iter().filter(|p| !p.input) {
        let end = at + p.words();
        writeln!(s, "            {}: PortField::take(&w[{at}..{end}], {}),", p.name, p.elem_width()).unwrap();
        at = end;
    }
    write!(
        s,
        "        }}\n    }}\n}}\n\n\
         /// The model's port tables (rust/{unit}.rs) name the RTL's ports, in order, with their widths.\n\
         #[cfg(test)]\n\
         #[test]\n\
         fn model_ports_equal_rtl_ports() {{\n\
         \x20   if let Err(e) = crate::engine::rtl::check_ports::<Ports>() {{\n\
         \x20       panic!(\"{{e}}\");\n\
         \x20   }}\n\
         }}\n"
    )
    .unwrap();
    s
}

/// The directory under which every profile's build shares the Verilated units: `target/verilated`
/// (found as the ancestor of OUT_DIR that Cargo marked with CACHEDIR.TAG), or
/// `GCN_VMEM_VERILATED_CACHE`.
fn cache_root(out: &Path) -> PathBuf {
    if let Some(dir) = std::env::var_os("GCN_VMEM_VERILATED_CACHE") {
        return PathBuf::from(dir);
    }
    out.ancestors()
        .find(|d| d.join("CACHEDIR.TAG").is_file())
        .map_or_else(|| out.join("verilated"), |t| t.join("verilated"))
}

/// Whatever a unit's libraries are made from beyond the files Verilator read.
struct Toolchain {
    bin: String,
    version: String,
    compiler: String,
    include: String,
    shim: String,
    coverage: bool,
}

/// The C++ build of Verilated models: Verilator's runtime headers and the shim, FST tracing
/// compiled in, objects into `out` at `-O<opt>`; `coverage` for `make coverage`'s builds. Shared
/// by the units' builds and their gate-level ones (gls_build.rs).
fn verilated_cc(tools: &Toolchain, out: &Path, opt: u32, coverage: bool) -> cc::Build {
    let mut b = cc::Build::new();
    b.cpp(true)
        .std("c++17")
        .opt_level(opt)
        .debug(false)
        .cargo_metadata(false)
        .out_dir(out)
        .include(&tools.include)
        .include(Path::new(&tools.include).join("vltstd"))
        .include(&tools.shim)
        .define("VM_COVERAGE", if coverage { "1" } else { "0" })
        .define("VM_SC", "0")
        .define("VM_TRACE", "1")
        .define("VM_TRACE_FST", "1")
        .define("VM_TRACE_VCD", "0")
        .flag("-faligned-new")
        .flag("-Wno-unused-parameter")
        .flag("-Wno-unused-variable")
        .flag("-Wno-sign-compare")
        .flag("-Wno-bool-operation")
        // Verilator 5.006 leaves cell-output copies it never reads (vmem_pipe's sub-units' valid_o).
        .flag("-Wno-unused-but-set-variable");
    b
}

/// Finds the unit's build in the cache, or verilates and compiles it there.
fn build_unit(
    unit: &UnitLine,
    tools: &Toolchain,
    root: &Path,
    scratch: &Path,
    wanted: Option<&[String]>,
) -> Result<Built, String> {
    let name = &unit.name;
    let elaborated = elaborate(&tools.bin, name, &scratch.join(format!("xml_{name}")))?;
    let mut inputs = elaborated.files.clone();
    inputs.push(PathBuf::from("rtl/lint/verilator.vlt"));
    inputs.push(PathBuf::from("build.rs"));
    inputs.push(PathBuf::from("cosim/engine/port_list.rs"));
    inputs.extend(files_in(Path::new(&tools.shim)));
    let key = build_key(
        &inputs,
        &format!(
            "{} {} {} coverage={} mutant={:?} include={}",
            tools.bin, tools.version, tools.compiler, tools.coverage, unit.mutant, tools.include
        ),
    )?;
    let dir = root.join(format!("{name}-{key}"));
    let library = dir.join(format!("libcosim_{name}.a"));
    let built = Built { dir: dir.clone(), ports: elaborated.ports.clone(), files: inputs, stale: false };
    if library.is_file() {
        return Ok(built);
    }
    let ports = format!("{:?}\n", elaborated.ports);
    if wanted.is_some_and(|w| !w.contains(name)) {
        if let Some(old) = latest_build(root, name, &ports) {
            return Ok(Built { dir: old, stale: true, ..built });
        }
    }
    // Built in a private directory, then renamed into place: two profiles building at once
    // never see each other's half-built unit.
    let tmp = root.join(format!(".{name}-{key}.{}", std::process::id()));
    let _ = fs::remove_dir_all(&tmp);
    // The build as written, untraced, runs every random vector and the benchmark: -O3, like
    // the generated glue. The others (traced builds for failing vectors' waveforms, the
    // break-asserts and mutant builds for short test runs) are compiled at -O0: half the
    // compile time, and no run of theirs is long.
    let configure = |opt: u32, obj: &str| verilated_cc(tools, &tmp.join(obj), opt, tools.coverage);
    let mut build = configure(3, "obj");
    let mut slow = configure(0, "obj_slow");
    let mut large = configure(LARGE_OPT, "obj_large");
    let (mut slow_files, mut large_files) = (0, 0);
    for b in builds(unit) {
        let prefix = &b.prefix;
        let mut args: Vec<String> = vec!["--cc".into(), "-O3".into()];
        args.extend(b.param.iter().map(|p| format!("-G{p}=1'b1")));
        if b.traced {
            args.push("--trace-fst".into());
        }
        // `make coverage`: the build that random runs use carries Verilator's line, toggle and
        // user coverage points.
        if tools.coverage && b.hot {
            args.push("--coverage".into());
        }
        let mdir = tmp.join("vl").join(prefix);
        run_verilator(&tools.bin, name, prefix, &args, &mdir)?;
        build.include(&mdir);
        let files = model_files(&mdir, prefix)?;
        let bytes: u64 = files.iter().map(|f| fs::metadata(f).map_or(0, |m| m.len())).sum();
        if bytes > LARGE_MODEL_BYTES {
            // One object per file, compiled in parallel: one translation unit of tens of
            // megabytes takes more memory than the machine has (vmem_pipe: 55 MB of C++).
            // Of the hot build, only the evaluation runs long: Verilator's `__Slow` files
            // (construction, initial blocks, first settle) and the trace functions (run only
            // while a waveform is recorded) are compiled at -O0, as Verilator's own makefiles
            // compile their OPT_SLOW part.
            for file in files {
                let cold = file
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.contains("__Slow") || n.contains("__Trace"));
                if b.hot && !cold {
                    large.include(&mdir).file(&file);
                    large_files += 1;
                } else {
                    slow.include(&mdir).file(&file);
                    slow_files += 1;
                }
            }
        } else if b.hot {
            build.file(unity(&mdir, prefix, &files)?);
        } else {
            slow.include(&mdir).file(unity(&mdir, prefix, &files)?);
            slow_files += 1;
        }
    }
    for (config, count) in [(&slow, slow_files), (&large, large_files)] {
        if count > 0 {
            let objects =
                config.try_compile_intermediates().map_err(|e| format!("compiling {name}'s Verilated C++: {e}"))?;
            build.objects(objects);
        }
    }
    fs::write(tmp.join(PORTS_FILE), &ports).map_err(|e| format!("{}: {e}", tmp.display()))?;
    let glue = tmp.join(format!("{name}_rtl.cc"));
    fs::write(&glue, cpp_binding(unit, &elaborated.ports)).map_err(|e| format!("{}: {e}", glue.display()))?;
    build.file(&glue);
    build.try_compile(&format!("cosim_{name}")).map_err(|e| format!("compiling {name}'s Verilated C++: {e}"))?;
    fs::rename(tmp.join("obj").join(format!("libcosim_{name}.a")), tmp.join(format!("libcosim_{name}.a")))
        .map_err(|e| format!("{}: {e}", tmp.display()))?;
    // The objects are in the archive; the generated C++ stays for reading.
    let _ = fs::remove_dir_all(tmp.join("obj"));
    let _ = fs::remove_dir_all(tmp.join("obj_slow"));
    let _ = fs::remove_dir_all(tmp.join("obj_large"));
    if fs::rename(&tmp, &dir).is_err() {
        // Another build put the same key in place first: use it.
        let _ = fs::remove_dir_all(&tmp);
        if !library.is_file() {
            return Err(format!("cannot move {} to {}", tmp.display(), dir.display()));
        }
    }
    prune(root, name, &dir);
    Ok(built)
}

/// Keeps the cache small: a unit's three most recent builds stay (another profile may still
/// link an older one until its build script runs again), older ones go.
fn prune(root: &Path, name: &str, keep: &Path) {
    let prefix = format!("{name}-");
    let mut dirs: Vec<(std::time::SystemTime, PathBuf)> = fs::read_dir(root)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .filter(|e| {
                    let f = e.file_name();
                    let f = f.to_string_lossy();
                    f.strip_prefix(&prefix).is_some_and(|k| k.len() == 16 && k.chars().all(|c| c.is_ascii_hexdigit()))
                })
                .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs.reverse();
    for (_, dir) in dirs.into_iter().skip(3) {
        if dir != keep {
            let _ = fs::remove_dir_all(dir);
        }
    }
}

/// A model's C++ files (those `<prefix>_classes.mk` lists), in its order.
fn model_files(mdir: &Path, prefix: &str) -> Result<Vec<PathBuf>, String> {
    let mk_path = mdir.join(format!("{prefix}_classes.mk"));
    let mk = fs::read_to_string(&mk_path).map_err(|e| format!("{}: {e}", mk_path.display()))?;
    let mut files = Vec::new();
    let mut in_list = false;
    for line in mk.lines() {
        let trimmed = line.trim();
        if ["VM_CLASSES_FAST", "VM_CLASSES_SLOW", "VM_SUPPORT_FAST", "VM_SUPPORT_SLOW"]
            .iter()
            .any(|k| trimmed.starts_with(k))
        {
            in_list = trimmed.ends_with('\\');
            continue;
        }
        if in_list {
            let file = trimmed.trim_end_matches('\\').trim();
            if !file.is_empty() {
                files.push(mdir.join(format!("{file}.cpp")));
            }
            in_list = trimmed.ends_with('\\');
        }
    }
    Ok(files)
}

/// Writes a model's C++ files as one translation unit (one compiler start, headers parsed once).
fn unity(mdir: &Path, prefix: &str, files: &[PathBuf]) -> Result<PathBuf, String> {
    let mut unity = String::from("// Generated by build.rs: the model's C++ as one translation unit.\n");
    for file in files {
        writeln!(unity, "#include \"{}\"", file.file_name().unwrap_or_default().to_string_lossy()).unwrap();
    }
    let path = mdir.join(format!("{prefix}__unity.cpp"));
    fs::write(&path, unity).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// The files of a directory (not recursing), sorted.
fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file()).collect())
        .unwrap_or_default();
    files.sort();
    files
}

/// The C++ compiler cc will use, as `path: first line of --version`.
fn compiler_identity() -> String {
    let tool = cc::Build::new().cpp(true).get_compiler();
    let version = Command::new(tool.path())
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).lines().next().unwrap_or_default().to_string())
        .unwrap_or_default();
    format!("{}: {version}", tool.path().display())
}

fn main() {
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let include = std::env::var("DEP_VERILATED_INCLUDE")
        .unwrap_or_else(|_| fail("DEP_VERILATED_INCLUDE unset: the verilated crate did not build"));
    let shim = std::env::var("DEP_VERILATED_SHIM").unwrap_or_else(|_| fail("DEP_VERILATED_SHIM unset"));
    let bin = std::env::var("DEP_VERILATED_BIN").unwrap_or_else(|_| "verilator".to_string());
    for path in
        ["cosim/units.txt", "rtl", "rust/lib.rs", "cosim/engine/rtl.rs", "cosim/engine/rtl.cc", "cosim/engine/rtl.h"]
    {
        println!("cargo::rerun-if-changed={path}");
    }
    for var in ["VERILATOR", "GCN_VMEM_COVERAGE", "GCN_VMEM_VERILATED_CACHE", "GCN_VMEM_UNITS", "CXX", gls_build::ENV] {
        println!("cargo::rerun-if-env-changed={var}");
    }
    let coverage = std::env::var("GCN_VMEM_COVERAGE").is_ok_and(|v| v == "1");
    println!("cargo::rustc-env=GCN_VMEM_COVERAGE_BUILT={}", u8::from(coverage));

    let version = Command::new(&bin)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|e| fail(&format!("cannot run `{bin}`: {e}. Fix: `apt-get install -y verilator zlib1g-dev`.")));
    let tools = Toolchain { bin, version, compiler: compiler_identity(), include, shim, coverage };
    let units = read_units(Path::new("cosim/units.txt"));
    // The models live in the gcn-vmem-model crate (rust/), which has no build script: its
    // lib.rs declares each unit by hand, so check here that none is missing.
    let model_lib =
        fs::read_to_string("rust/lib.rs").unwrap_or_else(|e| fail(&format!("cannot read rust/lib.rs: {e}")));
    for unit in &units {
        let name = &unit.name;
        if !model_lib.lines().any(|l| l.trim() == format!("pub mod {name};")) {
            fail(&format!("cosim/units.txt lists `{name}` but rust/lib.rs does not declare `pub mod {name};`"));
        }
        for file in [format!("rust/{name}.rs"), format!("rtl/{name}.sv"), format!("cosim/bindings/{name}.rs")] {
            if !Path::new(&file).exists() {
                fail(&format!("cosim/units.txt lists `{name}` but {file} is missing"));
            }
        }
    }

    let root = cache_root(&out);
    fs::create_dir_all(&root).unwrap_or_else(|e| fail(&format!("cannot create {}: {e}", root.display())));
    let scratch = out.join("elaborate");
    let wanted = wanted_units(&units);
    let results: Vec<Result<Built, String>> = std::thread::scope(|s| {
        let handles: Vec<_> =
            units.iter().map(|u| s.spawn(|| build_unit(u, &tools, &root, &scratch, wanted.as_deref()))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("a unit's build thread panicked".into()))).collect()
    });
    let errors: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    if !errors.is_empty() {
        fail(&errors.iter().map(|e| e.as_str()).collect::<Vec<_>>().join("\n"));
    }
    let built: Vec<Built> = results.into_iter().map(Result::unwrap).collect();
    for (unit, b) in units.iter().zip(&built) {
        if b.stale {
            println!(
                "cargo::warning={}: its sources changed, but GCN_VMEM_UNITS (UNIT=) leaves it out: linked its \
                 previous build, which the harness will not run (`make build` rebuilds it)",
                unit.name
            );
        }
    }

    // `make gls` (GCN_VMEM_GLS=1): each unit's gate-level builds, a library of their own; none
    // otherwise, and then nothing above differs from a build without them.
    let gls: Vec<Option<PathBuf>> = if gls_build::enabled() {
        gls_build::build_all(&units, &built, &tools, &root, wanted.as_deref())
    } else {
        units.iter().map(|_| None).collect()
    };

    // The table of units the generic bridge opens by name.
    let mut registry = String::from(
        "// Generated by build.rs from cosim/units.txt: the units cosim/engine/rtl.cc opens by name.\n\
         #include <cstddef>\n#include <cstdint>\n#include <memory>\n\n#include \"verilated_rs.h\"\n\
         #include \"gcn-vmem/cosim/engine/rtl.h\"\n\nnamespace gcn_vmem_units {\n",
    );
    for unit in &units {
        let n = &unit.name;
        writeln!(
            registry,
            "std::unique_ptr<verilated_rs::Rtl> open_{n}(uint8_t, uint8_t, const verilated_rs::Options &);\n\
             uint64_t plain_{n}(const uint32_t *, size_t, uint64_t);"
        )
        .unwrap();
    }
    for (unit, g) in units.iter().zip(&gls) {
        if g.is_some() {
            writeln!(
                registry,
                "std::unique_ptr<verilated_rs::Rtl> open_{}_gls(uint8_t, uint8_t, const verilated_rs::Options &);",
                unit.name
            )
            .unwrap();
        }
    }
    let units_arg = wanted.as_deref().unwrap_or_default().join(" ");
    registry.push_str("\nconst UnitEntry kUnits[] = {\n");
    for ((unit, b), g) in units.iter().zip(&built).zip(&gls) {
        let n = &unit.name;
        let stale = if b.stale {
            format!(
                "\"this binary links a build of rtl/{n}.sv's sources from before they changed \
                 (it was built for UNIT={units_arg} only); run `make build` (or `make cosim` without UNIT=) \
                 to rebuild it\""
            )
        } else {
            "nullptr".to_string()
        };
        let open_gls = if g.is_some() { format!("open_{n}_gls") } else { "nullptr".to_string() };
        writeln!(registry, "    {{\"{n}\", open_{n}, plain_{n}, {stale}, {open_gls}}},").unwrap();
    }
    registry.push_str(
        "};\nconst size_t kUnitCount = sizeof(kUnits) / sizeof(kUnits[0]);\n\n}  // namespace gcn_vmem_units\n",
    );
    let registry_path = out.join("rtl_units.cc");
    fs::write(&registry_path, registry).unwrap_or_else(|e| fail(&format!("{}: {e}", registry_path.display())));
    cxx_build::bridge("cosim/engine/rtl.rs")
        .std("c++17")
        .opt_level(3)
        .include(&tools.include)
        .include(Path::new(&tools.include).join("vltstd"))
        .include(&tools.shim)
        .define("VM_TRACE", "1")
        .define("VM_TRACE_FST", "1")
        .define("VM_TRACE_VCD", "0")
        .define("VM_SC", "0")
        .flag_if_supported("-Wno-unused-parameter")
        .file("cosim/engine/rtl.cc")
        .file(&registry_path)
        .compile("gcn_vmem_rtl");

    let ports_dir = out.join("ports");
    fs::create_dir_all(&ports_dir).unwrap_or_else(|e| fail(&format!("{}: {e}", ports_dir.display())));
    let mut list = String::from("// Generated by build.rs from cosim/units.txt.\nunits! {\n");
    let mut bindings = String::from("// Generated by build.rs from cosim/units.txt: the unit bindings.\n");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    for ((unit, b), g) in units.iter().zip(&built).zip(&gls) {
        let name = &unit.name;
        println!("cargo::rustc-link-search=native={}", b.dir.display());
        println!("cargo::rustc-link-lib=static=cosim_{name}");
        if let Some(dir) = g {
            println!("cargo::rustc-link-search=native={}", dir.display());
            println!("cargo::rustc-link-lib=static=cosim_{name}_gls");
        }
        for file in &b.files {
            println!("cargo::rerun-if-changed={}", file.display());
        }
        writeln!(list, "    {name},").unwrap();
        writeln!(
            bindings,
            "#[path = {:?}]\npub mod {name};",
            manifest.join("cosim/bindings").join(format!("{name}.rs"))
        )
        .unwrap();
        let path = ports_dir.join(format!("{name}.rs"));
        let text = rust_binding(name, &b.ports);
        // Rewritten only when it changed, so an unchanged unit does not recompile the crate.
        if fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            fs::write(&path, text).unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
        }
    }
    list.push_str("}\n");
    fs::write(out.join("units.rs"), list).unwrap();
    fs::write(out.join("bindings.rs"), bindings).unwrap();
}
