//! The gate-level builds of `make gls` (docs/integrations/gls.md): a module of build.rs, used only
//! when the environment sets `GCN_VMEM_GLS=1`.
//!
//! `make gls` has Yosys synthesize each unit to a generic-gate netlist,
//! target/gls/netlist/<unit>.v (cosim/tools/gls.rs), beside a list of the sources it read and
//! their hashes (<unit>.sources), then builds the harness with `GCN_VMEM_GLS=1` in its own target
//! directory. For every unit with a current netlist, this module verilates it and compiles it,
//! with its own copy of the unit's port copying (`generate::cpp_ports`), into a library of its own,
//! `target/verilated/<unit>_gls-<key>/libcosim_<unit>_gls.a`, whose `open_<unit>_gls` the table
//! of units (`generate::compile_bridge`) points at. The unit's own library, key and cache directory are untouched,
//! so a build without `GCN_VMEM_GLS` is what it was, and switching it on rebuilds no unit.
//!
//! The builds, by the variant code of cosim/engine/rtl.h `open_rtl`:
//!
//! - 3: the netlist, untraced (the build random runs use) and FST-traced (failing vectors'
//!   waveforms);
//! - 4 (test only, when tests/gls/<unit>_trap.sv exists): that file under Verilator, the unit
//!   wrapped with a construct that simulates differently from what synthesis builds;
//! - 5 (test only, when target/gls/netlist/<unit>_trap.v exists): its netlist, untraced and traced.
//!
//! A netlist is a plain Verilog file (Yosys `write_verilog -noattr`: `assign` expressions and one
//! `always @(posedge clk_i, negedge rst_ni)` per flop), read alone, with Verilator's lint warnings
//! off: they are about Yosys's naming, not the design. Its ports must be the unit's (names,
//! directions and widths; a packed array or struct port is a flat vector there, which Verilator
//! gives the same C++ type). A netlist whose recorded sources changed since `make gls` wrote it is
//! left out with a warning (the harness then names `make gls UNIT=<unit>`).

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cache::{build_key, files_in, fnv, prune, script_files, FNV_OFFSET};
use crate::fail;
use crate::generate::cpp_ports;
use crate::port_list::{self, Port};
use crate::units::UnitLine;
use crate::verilate::{model_files, packages, publish, Built, Compilations, Toolchain};

// The Verilator flags of a netlist (the test binary includes the same file: tests/gls.rs).
mod flags;
use flags::{LARGE_NETLIST_VERILATOR_FLAGS, NETLIST_VERILATOR_FLAGS};

/// The environment variable that turns the gate-level builds on (`1`).
pub const ENV: &str = "GCN_VMEM_GLS";

/// A netlist larger than this (bytes; the pipeline's, 40 MB against at most 3 MB for a unit's) is
/// built once, traced, and compiled file by file.
const LARGE_NETLIST: u64 = 8 << 20;

/// The environment variable that sets [`LARGE_NETLIST`] instead (bytes).
const LARGE_ENV: &str = "GCN_VMEM_GLS_LARGE_BYTES";

/// Where `make gls` writes the netlists (relative to the repository root).
pub const NETLIST_DIR: &str = "target/gls/netlist";

/// Whether `GCN_VMEM_GLS=1`.
pub fn enabled() -> bool {
    std::env::var(ENV).is_ok_and(|v| v == "1")
}

/// What one Verilator build reads.
enum Source {
    /// A Yosys netlist, read alone.
    Netlist(PathBuf),
    /// A test-only RTL file that instantiates units: read with the packages and `-y rtl`.
    Rtl(PathBuf),
}

/// One gate-level build: its variant code, class prefix, top module, source, whether traced and
/// whether it is the build that random runs use.
struct GateBuild {
    code: u8,
    prefix: String,
    top: String,
    source: Source,
    traced: bool,
    hot: bool,
}

/// Each unit's gate-level library directory, or `None` when it has no current netlist. A unit
/// whose netlist cannot be built fails the build (the error names the netlist).
pub fn build_all(
    units: &[UnitLine],
    built: &[Built],
    tools: &Toolchain,
    root: &Path,
    wanted: Option<&[String]>,
) -> Vec<Option<PathBuf>> {
    println!("cargo::rerun-if-changed={NETLIST_DIR}");
    println!("cargo::rerun-if-changed=tests/gls");
    // `wanted` (GCN_VMEM_UNITS: `make gls UNIT=`, or the nine units when none is named) limits
    // these builds as it limits the units' own: a pipeline netlist left in NETLIST_DIR is not
    // built (hours) by a run that does not name it. A unit left out has no gate-level build, and
    // `--gls` on it names `make gls UNIT=<unit>`.
    let results: Vec<Result<Option<PathBuf>, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = units
            .iter()
            .zip(built)
            .map(|(u, b)| {
                let left_out = wanted.is_some_and(|w| !w.contains(&u.name));
                s.spawn(move || if left_out { Ok(None) } else { build_unit(u, &b.ports, tools, root) })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err("a gate-level build thread panicked".into())))
            .collect()
    });
    let errors: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    if !errors.is_empty() {
        fail(&errors.iter().map(|e| e.as_str()).collect::<Vec<_>>().join("\n"));
    }
    results.into_iter().map(Result::unwrap).collect()
}

/// Whether the sources listed in `<netlist stem>.sources` (`<fnv hex> <path>` per line, written by
/// cosim/tools/gls.rs) still hash as recorded; the error says which changed.
fn current(listing: &Path) -> Result<(), String> {
    let text = fs::read_to_string(listing).map_err(|e| format!("{} is missing ({e})", listing.display()))?;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let (hash, path) = line.split_once(' ').ok_or_else(|| format!("{}: bad line `{line}`", listing.display()))?;
        let now = fs::read(path).ok().map(|b| format!("{:016x}", fnv(FNV_OFFSET, &b)));
        if now.as_deref() != Some(hash) {
            return Err(format!("{path} changed since the netlist was synthesized"));
        }
    }
    Ok(())
}

/// The unit's gate-level library directory, found in the cache or built there; `None` when it
/// has no current netlist.
fn build_unit(unit: &UnitLine, ports: &[Port], tools: &Toolchain, root: &Path) -> Result<Option<PathBuf>, String> {
    let name = &unit.name;
    let netlist = Path::new(NETLIST_DIR).join(format!("{name}.v"));
    if !netlist.is_file() {
        return Ok(None);
    }
    if let Err(why) = current(&Path::new(NETLIST_DIR).join(format!("{name}.sources"))) {
        println!(
            "cargo::warning={name}: no gate-level build: {}: {why}; run `make gls UNIT={name}`",
            netlist.display()
        );
        return Ok(None);
    }
    // GCN_VMEM_GLS_LARGE_BYTES lowers the line, so that a unit's small netlist can take the
    // large netlists' path (tests of the resumable build).
    println!("cargo::rerun-if-env-changed={LARGE_ENV}");
    let line = std::env::var(LARGE_ENV).ok().and_then(|v| v.parse().ok()).unwrap_or(LARGE_NETLIST);
    let large = fs::metadata(&netlist).is_ok_and(|m| m.len() > line);
    let gates = gate_builds(name, &netlist, large);
    let key = gate_key(&gates, tools)?;
    let stem = format!("{name}_gls");
    let out = root.join(format!("{stem}-{key}"));
    let library = format!("libcosim_{stem}.a");
    if out.join(&library).is_file() {
        return Ok(Some(out));
    }
    // A large netlist's build takes hours on two cores, longer than a working session: it works
    // in a folder named by its key alone, keeps each verilated model once done and each object
    // under the hash of its source, so that a build stopped part way resumes where it stopped
    // (`Resumable`). Others work in a folder of their own, removed first.
    let resumable = if large { Some(Resumable::claim(root, &stem, &key)?) } else { None };
    let tmp = match &resumable {
        Some(r) => r.dir.clone(),
        None => {
            let tmp = root.join(format!(".{stem}-{key}.{}", std::process::id()));
            let _ = fs::remove_dir_all(&tmp);
            tmp
        }
    };
    compile(name, &gates, ports, tools, &tmp, resumable.as_ref(), large)?;
    publish(&tmp, &out, &library)?;
    drop(resumable);
    prune(root, &stem, &out);
    Ok(Some(out))
}

/// The gate-level builds of unit `name` with netlist `netlist`: the netlist's (variant 3)
/// untraced for random runs and FST-traced for failures' waveforms, or for a `large` netlist one
/// traced build for both (traced code costs only while a trace is open), compiled file by file;
/// and the test-only trap's (4, 5) when tests/gls/<unit>_trap.sv exists.
fn gate_builds(name: &str, netlist: &Path, large: bool) -> Vec<GateBuild> {
    let netlist_build = |traced: bool, hot: bool| GateBuild {
        code: 3,
        prefix: format!("V{name}_gls{}", if traced { "_fst" } else { "" }),
        top: name.to_string(),
        source: Source::Netlist(netlist.to_path_buf()),
        traced,
        hot,
    };
    let mut gates = if large {
        vec![netlist_build(true, true)]
    } else {
        vec![netlist_build(false, true), netlist_build(true, false)]
    };
    let dir = Path::new(NETLIST_DIR);
    let trap_rtl = PathBuf::from(format!("tests/gls/{name}_trap.sv"));
    let trap_netlist = dir.join(format!("{name}_trap.v"));
    let trap_top = format!("{name}_trap");
    if trap_rtl.is_file() {
        gates.push(GateBuild {
            code: 4,
            prefix: format!("V{name}_trap"),
            top: trap_top.clone(),
            source: Source::Rtl(trap_rtl.clone()),
            traced: false,
            hot: false,
        });
        if trap_netlist.is_file() && current(&dir.join(format!("{name}_trap.sources"))).is_ok() {
            for traced in [false, true] {
                gates.push(GateBuild {
                    code: 5,
                    prefix: format!("V{name}_trap_gls{}", if traced { "_fst" } else { "" }),
                    top: trap_top.clone(),
                    source: Source::Netlist(trap_netlist.clone()),
                    traced,
                    hot: false,
                });
            }
        }
    }
    gates
}

/// The key of a unit's gate-level library: every file its builds read (the trap RTL reads the
/// units' sources and the packages), the build script (gate-level modules included), the shim
/// and the toolchain.
fn gate_key(gates: &[GateBuild], tools: &Toolchain) -> Result<String, String> {
    let mut inputs: Vec<PathBuf> = Vec::new();
    for g in gates {
        match &g.source {
            Source::Netlist(f) => inputs.push(f.clone()),
            Source::Rtl(f) => {
                inputs.push(f.clone());
                inputs.extend(
                    files_in(Path::new("rtl")).into_iter().filter(|p| p.extension().is_some_and(|e| e == "sv")),
                );
                inputs.push(PathBuf::from("rtl/lint/verilator.vlt"));
            }
        }
    }
    inputs.dedup();
    inputs.extend(script_files(true));
    inputs.extend(files_in(Path::new(&tools.shim)));
    let codes: Vec<String> = gates.iter().map(|g| format!("{}:{}", g.code, g.prefix)).collect();
    build_key(
        &inputs,
        &format!(
            "gls {} {} {} coverage={} include={} builds={}",
            tools.bin,
            tools.version,
            tools.compiler,
            tools.coverage,
            tools.include,
            codes.join(",")
        ),
    )
}

/// Verilates each of `gates` into `tmp` and compiles them with their glue into
/// `tmp/libcosim_<unit>_gls.a`: as unity files, or through `resumable` (a large netlist).
fn compile(
    name: &str,
    gates: &[GateBuild],
    ports: &[Port],
    tools: &Toolchain,
    tmp: &Path,
    resumable: Option<&Resumable>,
    large: bool,
) -> Result<(), String> {
    // The netlist random runs use at -O1 (a netlist is long straight-line code: -O3 costs much
    // more compile time for little speed), the others at -O0.
    let mut compilations = Compilations::new(tools, tmp, 1, false);
    let mut headers = String::new();
    for g in gates {
        let mdir = tmp.join("vl").join(&g.prefix);
        let done = mdir.join(".verilated");
        if !(resumable.is_some() && done.is_file()) {
            verilate(tools, g, &mdir, ports, large)?;
            fs::write(&done, "").map_err(|e| format!("{}: {e}", done.display()))?;
        }
        let files = model_files(&mdir, &g.prefix)?;
        if let Some(r) = resumable {
            // Hundreds of files: compiled in parallel, not as one translation unit, each object
            // kept under the hash of its source.
            compilations.hot.include(&mdir);
            compilations.slow.include(&mdir);
            let objects = r.compile(&compilations.hot, &compilations.slow, &files)?;
            compilations.hot.objects(objects);
        } else {
            compilations.add_unity(&mdir, &g.prefix, &files, g.hot)?;
        }
        writeln!(headers, "#include \"{}.h\"", g.prefix).unwrap();
    }
    let stem = format!("{name}_gls");
    let glue = tmp.join(format!("{stem}_rtl.cc"));
    fs::write(&glue, glue_cpp(name, gates, ports, &headers)).map_err(|e| format!("{}: {e}", glue.display()))?;
    compilations.archive(tmp, &glue, &format!("cosim_{stem}"), &format!("{name}'s gate-level C++"))
}

/// The working folder of a large netlist's build, `.<stem>-<key>.work`, held by one build at a
/// time (`.<stem>-<key>.lock` names its process): verilated models stay once done (a
/// `.verilated` marker) and objects under `objects/<hash of source and flags>.o`, so that a
/// build stopped part way (a session's end, a killed cargo) resumes there.
struct Resumable {
    dir: PathBuf,
    lock: PathBuf,
}

impl Resumable {
    fn claim(root: &Path, stem: &str, key: &str) -> Result<Resumable, String> {
        let name = format!("{stem}-{key}");
        let dir = root.join(format!(".{name}.work"));
        let lock = root.join(format!(".{name}.lock"));
        let held = |lock: &Path| {
            fs::read_to_string(lock)
                .ok()
                .map(|pid| pid.trim().to_string())
                .filter(|pid| *pid != std::process::id().to_string() && Path::new("/proc").join(pid).exists())
        };
        // The work of other keys (older netlists or build files) is never resumed: removed
        // unless a live build holds it.
        for entry in fs::read_dir(root).into_iter().flatten().flatten() {
            let file = entry.file_name().to_string_lossy().into_owned();
            let Some(other) = file.strip_prefix(&format!(".{stem}-")).and_then(|f| f.strip_suffix(".work")) else {
                continue;
            };
            let other_lock = root.join(format!(".{stem}-{other}.lock"));
            if other != key && held(&other_lock).is_none() {
                let _ = fs::remove_dir_all(entry.path());
                let _ = fs::remove_file(other_lock);
            }
        }
        if let Some(pid) = held(&lock) {
            return Err(format!(
                "another build (process {pid}) is building {name} in {}; wait for it, or stop it \
                 (its finished objects are kept) and run `make gls` again; if no build is running, \
                 remove {}",
                dir.display(),
                lock.display()
            ));
        }
        fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        fs::write(&lock, std::process::id().to_string()).map_err(|e| format!("{}: {e}", lock.display()))?;
        Ok(Resumable { dir, lock })
    }

    /// Compiles `files` with `build`'s compiler and flags, in parallel (cargo's job count), each
    /// into `objects/<hash>.o` unless there already; returns the objects in `files`' order.
    /// Verilator's `__Slow.cpp` files (construction, the initial settle, the waveform's
    /// declarations and full dumps: code a run executes once) are compiled with `slow`, the rest
    /// with `build`: the pipeline's slow files are long straight-line functions that took GCC
    /// minutes each at -O1 (a 1.8 MB trace dump more than ten), seconds at -O0.
    fn compile(&self, build: &cc::Build, slow: &cc::Build, files: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
        let objects = self.dir.join("objects");
        fs::create_dir_all(&objects).map_err(|e| format!("{}: {e}", objects.display()))?;
        let compiler = |b: &cc::Build| b.try_get_compiler().map_err(|e| format!("no C++ compiler: {e}"));
        let (fast, slow) = (compiler(build)?, compiler(slow)?);
        let mut jobs = Vec::new();
        for file in files {
            let text = fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
            let is_slow = file.file_name().is_some_and(|n| n.to_string_lossy().ends_with("__Slow.cpp"));
            let compiler = if is_slow { &slow } else { &fast };
            let mut keyed = format!("{:?} {:?}", compiler.path(), compiler.args()).into_bytes();
            keyed.extend_from_slice(&text);
            let object = objects.join(format!("{:016x}.o", fnv(FNV_OFFSET, &keyed)));
            jobs.push((file.clone(), object, compiler));
        }
        let todo: Vec<&(PathBuf, PathBuf, &cc::Tool)> = jobs.iter().filter(|(_, o, _)| !o.is_file()).collect();
        let workers = std::env::var("NUM_JOBS")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1);
        let next = std::sync::atomic::AtomicUsize::new(0);
        let failure = std::sync::Mutex::new(None::<String>);
        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((file, object, compiler)) = todo.get(i) else { break };
                    if failure.lock().unwrap().is_some() {
                        break;
                    }
                    // Written beside, then renamed: an object is whole or absent.
                    let partial = object.with_extension("o.partial");
                    let out = compiler.to_command().arg("-c").arg(file).arg("-o").arg(&partial).output();
                    let result = match out {
                        Ok(o) if o.status.success() => fs::rename(&partial, object).map_err(|e| e.to_string()),
                        Ok(o) => Err(String::from_utf8_lossy(&o.stderr).into_owned()),
                        Err(e) => Err(e.to_string()),
                    };
                    if let Err(e) = result {
                        failure.lock().unwrap().get_or_insert(format!("compiling {}: {e}", file.display()));
                    }
                });
            }
        });
        match failure.into_inner().unwrap() {
            Some(e) => Err(e),
            None => Ok(jobs.into_iter().map(|(_, o, _)| o).collect()),
        }
    }
}

impl Drop for Resumable {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.lock);
    }
}

/// Verilates one gate-level build into `mdir`, after checking that its top's ports are `ports`.
/// A `large` netlist is verilated with LARGE_NETLIST_VERILATOR_FLAGS (without DFG: flags.rs).
fn verilate(tools: &Toolchain, g: &GateBuild, mdir: &Path, ports: &[Port], large: bool) -> Result<(), String> {
    let run = |extra: &[&str]| -> Result<(), String> {
        let _ = fs::remove_dir_all(mdir);
        fs::create_dir_all(mdir).map_err(|e| format!("cannot create {}: {e}", mdir.display()))?;
        let mut cmd = Command::new(&tools.bin);
        cmd.args([
            "--assert",
            "--x-assign",
            "unique",
            "--x-initial",
            "unique",
            "--prefix",
            g.prefix.as_str(),
            "--top-module",
        ])
        .arg(&g.top)
        .arg("-Mdir")
        .arg(mdir)
        .args(extra);
        let file = match &g.source {
            // Yosys's netlist: flags.rs says why these. UNOPTFLAT stays on: it is reported
            // below.
            Source::Netlist(f) => {
                // No `no_inline` for the modules a large netlist repeats: it makes the pipeline's
                // C++ 418 MB instead of 583 MB, but an out-of-line buffer_addr's gates then
                // simulate wrongly (docs/integrations/gls.md).
                cmd.args(NETLIST_VERILATOR_FLAGS);
                f
            }
            Source::Rtl(f) => {
                cmd.args(["-Wall", "-y", "rtl", "rtl/lint/verilator.vlt"]).args(packages());
                f
            }
        };
        let out = cmd
            .arg(file)
            .output()
            .map_err(|e| format!("cannot run `{}`: {e}. Fix: `apt-get install -y verilator zlib1g-dev`.", tools.bin))?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.success() && matches!(g.source, Source::Netlist(_)) && stderr.contains("%Warning-UNOPTFLAT") {
            // A variable-level combinational cycle is "hybrid" logic to Verilator 5.006, which can
            // leave a bit stale (the pipeline's first runs: docs/integrations/gls.md, "A wrong lead").
            // `splitnets` removes those of internal nets, and writing a module with its ports split
            // those through its output ports (cosim/tools/gls.rs), so none is expected: any found
            // is kept in the build's folder and shown, so that a failing run can be read against it.
            let cycles: Vec<&str> = stderr.lines().filter(|l| l.contains("%Warning-UNOPTFLAT")).collect();
            let list = mdir.join(format!("{}.unoptflat.txt", g.prefix));
            let _ = fs::write(&list, cycles.join("\n") + "\n");
            println!(
                "cargo::warning={}: Verilator found {} combinational cycle(s) at variable granularity in the netlist, \
                 which Verilator 5.006 may evaluate stale (listed in {}; docs/integrations/gls.md, \"A wrong lead\")",
                g.prefix,
                cycles.len(),
                list.display()
            );
            Ok(())
        } else if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "verilator failed on {} ({}); run `make gls` again:\n{}",
                file.display(),
                g.prefix,
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    };
    run(&["--xml-only"])?;
    let xml_path = mdir.join(format!("{}.xml", g.prefix));
    let xml = fs::read_to_string(&xml_path).map_err(|e| format!("{}: {e}", xml_path.display()))?;
    let found = port_list::read(&xml, &g.top).map_err(|e| format!("{}: {e}", xml_path.display()))?.ports;
    let shape = |p: &Port| (p.rtl.clone(), p.input, p.width);
    let (want, have): (Vec<_>, Vec<_>) = (ports.iter().map(shape).collect(), found.iter().map(shape).collect());
    if want != have {
        let file = match &g.source {
            Source::Netlist(f) | Source::Rtl(f) => f,
        };
        return Err(format!(
            "{} ({}): its top's ports {have:?} are not the unit's {want:?}; run `make gls` again",
            file.display(),
            g.top
        ));
    }
    let mut extra = vec!["--cc", "-O3"];
    if large {
        extra.extend(LARGE_NETLIST_VERILATOR_FLAGS);
    }
    if g.traced {
        extra.push("--trace-fst");
    }
    run(&extra)
}

/// The glue of a unit's gate-level builds: the port copying and `open_<unit>_gls`.
fn glue_cpp(name: &str, gates: &[GateBuild], ports: &[Port], headers: &str) -> String {
    let mut cases = String::new();
    for code in [3u8, 4, 5] {
        // A large netlist has its traced build only, which serves both.
        let plain =
            gates.iter().find(|g| g.code == code && !g.traced).or_else(|| gates.iter().find(|g| g.code == code));
        let traced = gates.iter().find(|g| g.code == code && g.traced);
        if let Some(plain) = plain {
            let fst = traced.map_or("void", |t| t.prefix.as_str());
            writeln!(
                cases,
                "    case {code}: return verilated_rs::open<Ports, {}, {fst}>(wave, options);",
                plain.prefix
            )
            .unwrap();
        }
    }
    format!(
        "// Generated by build.rs (cosim/build/gls/) from the ports of rtl/{name}.sv and the\n\
         // netlists of `make gls`: do not edit.\n\
         #include <cstddef>\n#include <cstdint>\n#include <memory>\n#include <stdexcept>\n#include <string>\n\n\
         #include \"verilated_rs.h\"\n{headers}{}\
         namespace gcn_vmem_units {{\n\n\
         std::unique_ptr<verilated_rs::Rtl> open_{name}_gls(uint8_t variant, uint8_t wave, const verilated_rs::Options &options) {{\n\
         \x20 switch (variant) {{\n{cases}\x20   default: break;\n\x20 }}\n\
         \x20 if (variant == 4 || variant == 5) {{\n\
         \x20   throw std::invalid_argument(\"{name} has no test-only gate-level trap build (tests/gls/{name}_trap.sv, \
         target/gls/netlist/{name}_trap.v from `make gls`)\");\n\
         \x20 }}\n\
         \x20 throw std::invalid_argument(\"{name} has no gate-level variant \" + std::to_string(variant));\n\
         }}\n\n\
         }}  // namespace gcn_vmem_units\n",
        cpp_ports(ports)
    )
}
