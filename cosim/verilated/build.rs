//! Compiles Verilator's runtime once for every profile (a content-addressed cache under
//! target/verilated/), for every model of the build. Tells dependents (through
//! `links = "verilated"`) where the runtime headers and the `verilator` binary are:
//! `DEP_VERILATED_INCLUDE`, `DEP_VERILATED_BIN`, `DEP_VERILATED_SHIM`.

use std::path::PathBuf;
use std::process::Command;

/// Runtime sources a Verilator 5 model needs (`VM_GLOBAL_FAST`/`SLOW` of a traced, covered
/// model): `verilated_threads.cpp` is needed even single-threaded.
const RUNTIME: &[&str] = &["verilated.cpp", "verilated_threads.cpp", "verilated_fst_c.cpp", "verilated_cov.cpp"];

/// Compiles Verilator's runtime (RUNTIME) into `<target>/verilated/runtime-<key>/` unless a
/// build with the same key is there, and returns that directory. The key hashes the runtime's
/// sources, this script, the compiler and the flags.
fn runtime_library(include: &std::path::Path) -> PathBuf {
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let root = match std::env::var_os("GCN_VMEM_VERILATED_CACHE") {
        Some(dir) => PathBuf::from(dir),
        None => out
            .ancestors()
            .find(|d| d.join("CACHEDIR.TAG").is_file())
            .map_or_else(|| out.join("verilated"), |t| t.join("verilated")),
    };
    let compiler = cc::Build::new().cpp(true).get_compiler();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    feed(compiler.path().display().to_string().as_bytes());
    feed(&Command::new(compiler.path()).arg("--version").output().map(|o| o.stdout).unwrap_or_default());
    feed(&std::fs::read("build.rs").unwrap_or_default());
    for file in RUNTIME {
        let path = include.join(file);
        feed(path.display().to_string().as_bytes());
        feed(&std::fs::read(&path).unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", path.display()))));
    }
    let dir = root.join(format!("runtime-{hash:016x}"));
    if dir.join("libverilated_runtime.a").is_file() {
        return dir;
    }
    let tmp = root.join(format!(".runtime-{hash:016x}.{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let mut build = cc::Build::new();
    runtime_flags(&mut build, include).debug(false).cargo_metadata(false).out_dir(&tmp);
    for file in RUNTIME {
        build.file(include.join(file));
    }
    if let Err(e) = build.try_compile("verilated_runtime") {
        fail(&format!("compiling Verilator's runtime: {e}"));
    }
    for entry in std::fs::read_dir(&tmp).into_iter().flatten().flatten() {
        if entry.path().extension().is_some_and(|e| e == "o") {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    if std::fs::rename(&tmp, &dir).is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
        if !dir.join("libverilated_runtime.a").is_file() {
            fail(&format!("cannot move {} to {}", tmp.display(), dir.display()));
        }
    }
    dir
}

/// The flags every C++ file of this crate is compiled with: the runtime's, and the shim's, which
/// includes the runtime's headers.
fn runtime_flags<'a>(build: &'a mut cc::Build, include: &std::path::Path) -> &'a mut cc::Build {
    build
        .cpp(true)
        .std("c++17")
        .opt_level(2)
        .include(include)
        .include(include.join("vltstd"))
        .define("VM_COVERAGE", "1")
        .define("VM_SC", "0")
        .define("VM_TRACE", "1")
        .define("VM_TRACE_FST", "1")
        .define("VM_TRACE_VCD", "0")
        .flag_if_supported("-faligned-new")
        .warnings(false)
}

fn fail(message: &str) -> ! {
    println!("cargo::error={message}");
    std::process::exit(1);
}

fn main() {
    println!("cargo::rerun-if-env-changed=VERILATOR");
    println!("cargo::rerun-if-env-changed=VERILATOR_ROOT");
    println!("cargo::rerun-if-changed=include/verilated_rs.h");
    println!("cargo::rerun-if-changed=src/lib.rs");

    let bin = std::env::var("VERILATOR").unwrap_or_else(|_| "verilator".to_string());
    let root = match std::env::var("VERILATOR_ROOT") {
        Ok(root) => root,
        Err(_) => match Command::new(&bin).args(["--getenv", "VERILATOR_ROOT"]).output() {
            Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).trim().to_string(),
            Ok(out) => fail(&format!(
                "`{bin} --getenv VERILATOR_ROOT` failed ({}): {}. Fix: install Verilator 5 \
                 (`apt-get install -y verilator zlib1g-dev`) or set VERILATOR_ROOT.",
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            )),
            Err(e) => fail(&format!(
                "cannot run `{bin}`: {e}. Fix: `apt-get install -y verilator zlib1g-dev` \
                 (or `make deps`), or point VERILATOR at the binary."
            )),
        },
    };
    let include = PathBuf::from(&root).join("include");
    if !include.join("verilated_threads.cpp").exists() {
        fail(&format!(
            "{} has no verilated_threads.cpp: gcn-vmem needs Verilator 5 (found runtime at {root}). \
             Fix: `apt-get install -y verilator` on Debian 12 or newer.",
            include.display()
        ));
    }
    let zlib = ["/usr/include/zlib.h", "/usr/local/include/zlib.h"];
    if !zlib.iter().any(|p| std::path::Path::new(p).exists()) {
        fail("zlib.h not found: FST tracing needs it. Fix: `apt-get install -y zlib1g-dev`.");
    }

    // The runtime is the same for every profile: it is compiled once into a content-addressed
    // cache beside the units' (target/verilated/, see the harness's build.rs) and linked from
    // there, so `cargo test`, `cargo clippy` and a release build share one copy.
    let runtime = runtime_library(&include);
    let mut build = cxx_build::bridge("src/lib.rs");
    runtime_flags(&mut build, &include).include("include").file("src/shim.cc");
    build.compile("verilated");
    // After the shim, which calls into it.
    println!("cargo::rustc-link-search=native={}", runtime.display());
    println!("cargo::rustc-link-lib=static=verilated_runtime");
    println!("cargo::rerun-if-changed=src/shim.cc");
    println!("cargo::rustc-link-lib=z");
    println!("cargo::rustc-link-lib=pthread");

    let shim = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("include");
    println!("cargo::metadata=include={}", include.display());
    println!("cargo::metadata=bin={bin}");
    println!("cargo::metadata=shim={}", shim.display());
}
