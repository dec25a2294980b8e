//! Verilating and compiling a unit: `verilator --xml-only` for its port list and the files it
//! reads, then its Verilated builds (one per variant and waveform kind, cosim/units.txt) compiled
//! with the generated glue into `libcosim_<unit>.a` in its cache directory.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cache::{build_key, files_in, latest_build, prune, script_files, PORTS_FILE};
use crate::fail;
use crate::generate::cpp_binding;
use crate::port_list::{self, Elaborated, Port};
use crate::units::{builds, hook_defines, hook_file, param_flags, unit_hook_files, UnitLine};

/// A model whose generated C++ is larger than this is compiled in chunks, not as one unit.
const LARGE_MODEL_BYTES: u64 = 8 << 20;

/// The most C++ in one chunk of a large model. Every one of Verilator's files includes the
/// model's headers (about 1 s of a compiler's time each), so a file of the pipeline alone spends
/// a third of its compile on them; a chunk of several files parses them once, and at this size
/// one compile stays within half a gigabyte.
const CHUNK_BYTES: u64 = 6 << 20;

/// The optimisation level of a large model's build that random runs use: -O3 on 55 MB of C++
/// costs minutes more compile (a 2 MB file of the pipeline: 5 s at -O0, 7 s at -O1, 12 s at
/// -O2), and the pipeline's random run is as fast at -O1 as at -O3 (docs/perf.md).
const LARGE_OPT: u32 = 1;

/// A unit ready to link: its cache directory (with `libcosim_<unit>.a`), its ports and the files
/// it was made from.
pub struct Built {
    pub dir: PathBuf,
    pub ports: Vec<Port>,
    pub files: Vec<PathBuf>,
    /// Linked from a build of older sources (see [`crate::units::wanted_units`]): the harness
    /// refuses to open it and says how to rebuild it.
    pub stale: bool,
}

/// The shared packages, rtl/*_pkg.sv, in name order (they must not depend on each other).
pub fn packages() -> Vec<PathBuf> {
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

/// Whatever a unit's libraries are made from beyond the files Verilator read.
pub struct Toolchain {
    pub bin: String,
    pub version: String,
    pub compiler: String,
    pub include: String,
    pub shim: String,
    pub coverage: bool,
}

impl Toolchain {
    /// The toolchain the verilated crate found (its `DEP_VERILATED_*` metadata), the C++
    /// compiler, and `GCN_VMEM_COVERAGE`.
    pub fn from_env() -> Self {
        let include = std::env::var("DEP_VERILATED_INCLUDE")
            .unwrap_or_else(|_| fail("DEP_VERILATED_INCLUDE unset: the verilated crate did not build"));
        let shim = std::env::var("DEP_VERILATED_SHIM").unwrap_or_else(|_| fail("DEP_VERILATED_SHIM unset"));
        let bin = std::env::var("DEP_VERILATED_BIN").unwrap_or_else(|_| "verilator".to_string());
        let version = Command::new(&bin)
            .arg("--version")
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_else(|e| {
                fail(&format!("cannot run `{bin}`: {e}. Fix: `apt-get install -y verilator zlib1g-dev`."))
            });
        let coverage = std::env::var("GCN_VMEM_COVERAGE").is_ok_and(|v| v == "1");
        Toolchain { bin, version, compiler: compiler_identity(), include, shim, coverage }
    }
}

/// The C++ build of Verilated models: Verilator's runtime headers and the shim, FST tracing
/// compiled in, objects into `out` at `-O<opt>`; `coverage` for `make coverage`'s builds. Shared
/// by the units' builds and their gate-level ones (cosim/build/gls/).
pub fn verilated_cc(tools: &Toolchain, out: &Path, opt: u32, coverage: bool) -> cc::Build {
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

/// Every unit's build, in parallel: each found in the cache, or verilated and compiled there.
/// A unit that cannot be built fails the build, with every unit's error.
pub fn build_all(
    units: &[UnitLine],
    tools: &Toolchain,
    root: &Path,
    scratch: &Path,
    wanted: Option<&[String]>,
) -> Vec<Built> {
    let results: Vec<Result<Built, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = units.iter().map(|u| s.spawn(|| build_unit(u, tools, root, scratch, wanted))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("a unit's build thread panicked".into()))).collect()
    });
    let errors: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    if !errors.is_empty() {
        fail(&errors.iter().map(|e| e.as_str()).collect::<Vec<_>>().join("\n"));
    }
    results.into_iter().map(Result::unwrap).collect()
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
    // The test hooks its break-asserts and mutant builds compile, which the elaboration of the
    // RTL as written does not read (each build checks that it read nothing else: `check_read`).
    inputs.extend(unit_hook_files(unit));
    inputs.push(PathBuf::from("rtl/lint/verilator.vlt"));
    inputs.extend(script_files(false));
    inputs.extend(files_in(Path::new(&tools.shim)));
    let key = build_key(
        &inputs,
        &format!(
            "{} {} {} coverage={} mutant={:?} small={:?} include={}",
            tools.bin, tools.version, tools.compiler, tools.coverage, unit.mutant, unit.small, tools.include
        ),
    )?;
    let dir = root.join(format!("{name}-{key}"));
    let library = format!("libcosim_{name}.a");
    let built = Built { dir: dir.clone(), ports: elaborated.ports.clone(), files: inputs, stale: false };
    if dir.join(&library).is_file() {
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
    compile(unit, tools, &tmp, &elaborated.ports, &built.files)?;
    fs::write(tmp.join(PORTS_FILE), &ports).map_err(|e| format!("{}: {e}", tmp.display()))?;
    publish(&tmp, &dir, &library)?;
    prune(root, name, &dir);
    Ok(built)
}

/// The compilations of a unit's C++ (or of its gate-level builds'): the build random runs use
/// (with the generated glue, archived as the unit's library), the others at -O0, and a large
/// model's hot files one by one.
pub struct Compilations {
    pub hot: cc::Build,
    pub slow: cc::Build,
    large: cc::Build,
    slow_files: usize,
    large_files: usize,
}

impl Compilations {
    /// The compilations into `tmp`: the hot build at `-O<hot>`, the others at -O0, a large
    /// model's hot files at [`LARGE_OPT`].
    pub fn new(tools: &Toolchain, tmp: &Path, hot: u32, coverage: bool) -> Self {
        let configure = |opt: u32, obj: &str| verilated_cc(tools, &tmp.join(obj), opt, coverage);
        Compilations {
            hot: configure(hot, "obj"),
            slow: configure(0, "obj_slow"),
            large: configure(LARGE_OPT, "obj_large"),
            slow_files: 0,
            large_files: 0,
        }
    }

    /// Adds one verilated model (`prefix` in `mdir`): as one unity file ([`Compilations::add_unity`]),
    /// or in chunks of at most [`CHUNK_BYTES`] when its C++ is larger than [`LARGE_MODEL_BYTES`].
    /// `optimised`: a build random runs spend their time in (`units::Build::optimised`).
    fn add(&mut self, mdir: &Path, prefix: &str, optimised: bool) -> Result<(), String> {
        let files = model_files(mdir, prefix)?;
        let size = |f: &PathBuf| fs::metadata(f).map_or(0, |m| m.len());
        let bytes: u64 = files.iter().map(size).sum();
        if bytes <= LARGE_MODEL_BYTES {
            return self.add_unity(mdir, prefix, &files, optimised);
        }
        self.hot.include(mdir);
        // Chunks compiled in parallel: one translation unit of tens of megabytes takes more
        // memory than the machine has (vmem_pipe: 90 MB of C++ a configuration). Of an optimised
        // build, only the evaluation runs long: Verilator's `__Slow` files (construction, initial
        // blocks, first settle) and the trace functions (run only while a waveform is recorded)
        // are compiled at -O0, as Verilator's own makefiles compile their OPT_SLOW part.
        let (cold, eval): (Vec<PathBuf>, Vec<PathBuf>) = files.into_iter().partition(|file| {
            let name = file.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            !optimised || name.contains("__Slow") || name.contains("__Trace")
        });
        for (class, files) in [("eval", eval), ("cold", cold)] {
            for (n, chunk) in chunks(&files, size, CHUNK_BYTES).into_iter().enumerate() {
                let file = unity(mdir, &format!("{prefix}__{class}{n}"), chunk)?;
                if class == "eval" {
                    self.large.include(mdir).file(file);
                    self.large_files += 1;
                } else {
                    self.slow.include(mdir).file(file);
                    self.slow_files += 1;
                }
            }
        }
        Ok(())
    }

    /// Adds the model `prefix` of `mdir`, its C++ `files`, as one unity file: to the hot build,
    /// or to the slow ones.
    pub fn add_unity(&mut self, mdir: &Path, prefix: &str, files: &[PathBuf], hot: bool) -> Result<(), String> {
        self.hot.include(mdir);
        let file = unity(mdir, prefix, files)?;
        if hot {
            self.hot.file(file);
        } else {
            self.slow.include(mdir).file(file);
            self.slow_files += 1;
        }
        Ok(())
    }

    /// Compiles everything with `glue` into `<tmp>/lib<library>.a`; `what` names the C++ in errors.
    pub fn archive(mut self, tmp: &Path, glue: &Path, library: &str, what: &str) -> Result<(), String> {
        for (config, count) in [(&self.slow, self.slow_files), (&self.large, self.large_files)] {
            if count > 0 {
                let objects = config.try_compile_intermediates().map_err(|e| format!("compiling {what}: {e}"))?;
                self.hot.objects(objects);
            }
        }
        self.hot.file(glue);
        self.hot.try_compile(library).map_err(|e| format!("compiling {what}: {e}"))?;
        let archive = format!("lib{library}.a");
        fs::rename(tmp.join("obj").join(&archive), tmp.join(&archive)).map_err(|e| format!("{}: {e}", tmp.display()))
    }
}

/// Verilates every build of the unit into `tmp` (ports as `ports`; `inputs` the files of its
/// build key) and compiles them, with the generated glue, into `tmp/libcosim_<unit>.a`.
fn compile(unit: &UnitLine, tools: &Toolchain, tmp: &Path, ports: &[Port], inputs: &[PathBuf]) -> Result<(), String> {
    let name = &unit.name;
    // The build as written, untraced, runs every random vector and the benchmark: -O3, like
    // the generated glue. The others (traced builds for failing vectors' waveforms, the
    // break-asserts and mutant builds for short test runs) are compiled at -O0: half the
    // compile time, and no run of theirs is long.
    let mut compilations = Compilations::new(tools, tmp, 3, tools.coverage);
    for b in builds(unit) {
        let prefix = &b.prefix;
        let mut args: Vec<String> = vec!["--cc".into(), "-O3".into()];
        // The test hooks of its variant (rtl/test/, rtl/vmem_prim_pkg.sv `VMEM_TEST_HOOK`).
        args.extend(hook_defines(&b.hooks));
        // The small configuration's parameters (cosim/units.txt `small=`).
        args.extend(param_flags(&b.params));
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
        check_read(&mdir, prefix, &b.hooks, inputs)?;
        compilations.add(&mdir, prefix, b.optimised())?;
    }
    let glue = tmp.join(format!("{name}_rtl.cc"));
    fs::write(&glue, cpp_binding(unit, ports)).map_err(|e| format!("{}: {e}", glue.display()))?;
    compilations.archive(tmp, &glue, &format!("cosim_{name}"), &format!("{name}'s Verilated C++"))
}

/// Checks what Verilator read for the build `prefix` in `mdir` (its `<prefix>__ver.d`): every one of
/// its test `hooks` (a hook file nothing read means its `VMEM_TEST_HOOK` point is missing, and the
/// variant would be the RTL as written), and no file of the repository outside `inputs`, the
/// files of the unit's build key (a hook file that includes another file would change the build
/// without changing its key).
fn check_read(mdir: &Path, prefix: &str, hooks: &[String], inputs: &[PathBuf]) -> Result<(), String> {
    let path = mdir.join(format!("{prefix}__ver.d"));
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let read: Vec<PathBuf> = text
        .split_once(" : ")
        .map(|(_, deps)| deps.split_whitespace().map(PathBuf::from).collect())
        .unwrap_or_default();
    for hook in hooks {
        let file = hook_file(hook);
        if !read.contains(&file) {
            return Err(format!(
                "{prefix}: the build defines VMEM_TEST_{hook} but never read {}: add `VMEM_TEST_HOOK({hook})` where its \
                 code goes (rtl/vmem_prim_pkg.sv)",
                file.display()
            ));
        }
    }
    if let Some(extra) = read.iter().find(|f| f.is_relative() && !inputs.contains(f)) {
        return Err(format!(
            "{prefix}: Verilator read {}, which is not part of the unit's build key (a test hook includes nothing; \
             cosim/build/units.rs `unit_hook_files`)",
            extra.display()
        ));
    }
    Ok(())
}

/// Moves a finished build from `tmp` to its cache directory `dir`, without its objects (they
/// are in the archive; the generated C++ stays for reading). A build of the same key that got
/// there first is used instead.
pub fn publish(tmp: &Path, dir: &Path, library: &str) -> Result<(), String> {
    for objects in ["obj", "obj_slow", "obj_large", "objects"] {
        let _ = fs::remove_dir_all(tmp.join(objects));
    }
    if fs::rename(tmp, dir).is_err() {
        // Another build put the same key in place first: use it.
        let _ = fs::remove_dir_all(tmp);
        if !dir.join(library).is_file() {
            return Err(format!("cannot move {} to {}", tmp.display(), dir.display()));
        }
    }
    Ok(())
}

/// A model's C++ files (those `<prefix>_classes.mk` lists), in its order.
pub fn model_files(mdir: &Path, prefix: &str) -> Result<Vec<PathBuf>, String> {
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

/// `files` in order, cut into runs of at most `limit` bytes (`size` of each; a larger file is a
/// run of its own).
fn chunks(files: &[PathBuf], size: impl Fn(&PathBuf) -> u64, limit: u64) -> Vec<&[PathBuf]> {
    let mut runs = Vec::new();
    let (mut start, mut bytes) = (0, 0);
    for (i, file) in files.iter().enumerate() {
        let b = size(file);
        if i > start && bytes + b > limit {
            runs.push(&files[start..i]);
            (start, bytes) = (i, 0);
        }
        bytes += b;
    }
    if start < files.len() {
        runs.push(&files[start..]);
    }
    runs
}

/// Writes C++ files of a model as one translation unit `<name>__unity.cpp` (one compiler start,
/// headers parsed once).
pub fn unity(mdir: &Path, prefix: &str, files: &[PathBuf]) -> Result<PathBuf, String> {
    let mut unity = String::from("// Generated by build.rs: the model's C++ as one translation unit.\n");
    for file in files {
        writeln!(unity, "#include \"{}\"", file.file_name().unwrap_or_default().to_string_lossy()).unwrap();
    }
    let path = mdir.join(format!("{prefix}__unity.cpp"));
    fs::write(&path, unity).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
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
