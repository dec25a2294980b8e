//! The content-addressed cache of Verilated builds, `target/verilated/<unit>-<key>/` (or
//! `GCN_VMEM_VERILATED_CACHE`), shared by every Cargo profile: where it is, the key of a build (a
//! hash of the files it is made from and of its flags), finding a unit's previous build, and
//! keeping the cache small.

use std::fs;
use std::path::{Path, PathBuf};

/// The file in a unit's cache directory that records the ports it was built with.
pub const PORTS_FILE: &str = "ports.txt";

/// The most recent cached build of `name` whose recorded ports are `ports`.
pub fn latest_build(root: &Path, name: &str, ports: &str) -> Option<PathBuf> {
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

/// The FNV-1a offset basis: [`fnv`] of no bytes.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// 64-bit FNV-1a of `bytes`, folded into `hash`.
pub fn fnv(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// A hash of every file (path and contents) and of `extra` (flags, tool versions).
pub fn build_key(files: &[PathBuf], extra: &str) -> Result<String, String> {
    let mut h = fnv(FNV_OFFSET, extra.as_bytes());
    for f in files {
        h = fnv(h, f.display().to_string().as_bytes());
        h = fnv(h, &fs::read(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?);
    }
    Ok(format!("{h:016x}"))
}

/// The directory under which every profile's build shares the Verilated units: `target/verilated`
/// (found as the ancestor of OUT_DIR that Cargo marked with CACHEDIR.TAG), or
/// `GCN_VMEM_VERILATED_CACHE`.
pub fn cache_root(out: &Path) -> PathBuf {
    if let Some(dir) = std::env::var_os("GCN_VMEM_VERILATED_CACHE") {
        return PathBuf::from(dir);
    }
    out.ancestors()
        .find(|d| d.join("CACHEDIR.TAG").is_file())
        .map_or_else(|| out.join("verilated"), |t| t.join("verilated"))
}

/// Keeps the cache small: a unit's three most recent builds stay (another profile may still
/// link an older one until its build script runs again), older ones go.
pub fn prune(root: &Path, name: &str, keep: &Path) {
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

/// The files of a directory (not recursing), sorted.
pub fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file()).collect())
        .unwrap_or_default();
    files.sort();
    files
}

/// The build script's own files, which every key hashes: build.rs and cosim/build/*.rs, and for
/// a gate-level build (`gls`) cosim/build/gls/*.rs as well, so that an edit to the gate-level
/// builds rebuilds no unit's own library.
pub fn script_files(gls: bool) -> Vec<PathBuf> {
    let mut files = vec![PathBuf::from("build.rs")];
    files.extend(files_in(Path::new("cosim/build")));
    if gls {
        files.extend(files_in(Path::new("cosim/build/gls")));
    }
    files
}
