//! Compiles Verilator's runtime once, for every model of the build. Tells dependents (through
//! `links = "verilated"`) where the runtime headers and the `verilator` binary are:
//! `DEP_VERILATED_INCLUDE`, `DEP_VERILATED_BIN`, `DEP_VERILATED_SHIM`.

use std::path::PathBuf;
use std::process::Command;

/// Runtime sources a Verilator 5 model needs (`VM_GLOBAL_FAST`/`SLOW` of a traced, covered
/// model): `verilated_threads.cpp` is needed even single-threaded.
const RUNTIME: &[&str] = &["verilated.cpp", "verilated_threads.cpp", "verilated_fst_c.cpp", "verilated_cov.cpp"];

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

    let mut build = cxx_build::bridge("src/lib.rs");
    build
        .cpp(true)
        .std("c++17")
        .opt_level(2)
        .include(&include)
        .include(include.join("vltstd"))
        .include("include")
        .define("VM_COVERAGE", "1")
        .define("VM_SC", "0")
        .define("VM_TRACE", "1")
        .define("VM_TRACE_FST", "1")
        .define("VM_TRACE_VCD", "0")
        .flag_if_supported("-faligned-new")
        .warnings(false);
    for file in RUNTIME {
        build.file(include.join(file));
    }
    build.file("src/shim.cc");
    build.compile("verilated");
    println!("cargo::rerun-if-changed=src/shim.cc");
    println!("cargo::rustc-link-lib=z");
    println!("cargo::rustc-link-lib=pthread");

    let shim = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("include");
    println!("cargo::metadata=include={}", include.display());
    println!("cargo::metadata=bin={bin}");
    println!("cargo::metadata=shim={}", shim.display());
}
