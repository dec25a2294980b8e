//! `gcn-vmem cosim --results` and `gcn-vmem merge` (docs/checks.md "Regressions across
//! machines"): the N shards of a seed, merged, are the unsharded run — the same rows, bins and
//! verdict; a bin no shard hits fails the merge as it fails an unsharded run; files that are not
//! the shards of one run are errors that name the file and the fix.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common;

/// Runs `gcn-vmem ARGS` with its failure files under `artifacts`: exit status, stdout, stderr.
fn gcn_vmem_in(artifacts: &Path, args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gcn-vmem"))
        .args(args)
        .env("GCN_VMEM_ARTIFACTS", artifacts)
        .env_remove("GCN_VMEM_RESULTS")
        .output()
        .unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn write_json(path: &Path, doc: &Value) {
    std::fs::write(path, serde_json::to_string_pretty(doc).unwrap()).unwrap();
}

/// A copy of `doc` changed by `edit`, written to `path`; returns `path`.
fn write_edited(doc: &Value, path: PathBuf, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let mut doc = doc.clone();
    edit(&mut doc);
    write_json(&path, &doc);
    path
}

/// `gcn-vmem cosim ARGS --results FILE`, its failures saved in FILE's folder under
/// `artifacts-<FILE stem>`: its exit status and stdout.
fn cosim(args: &[&str], file: &Path) -> (i32, String) {
    let artifacts = file.with_file_name(format!("artifacts-{}", file.file_stem().unwrap().to_string_lossy()));
    let args = [&["cosim", "--no-progress", "--jobs", "2"], args, &["--results", file.to_str().unwrap()]].concat();
    let (code, stdout, stderr) = gcn_vmem_in(&artifacts, &args);
    assert!(code == 0 || code == 1, "cosim {args:?} could not run ({code}): {stderr}{stdout}");
    (code, stdout)
}

/// `gcn-vmem merge FILES EXTRA`: exit status, stdout, stderr.
fn merge(files: &[PathBuf], extra: &[&str]) -> (i32, String, String) {
    let files: Vec<&str> = files.iter().map(|f| f.to_str().unwrap()).collect();
    let dir = std::env::temp_dir();
    gcn_vmem_in(&dir, &[&["merge"], &files[..], extra].concat())
}

/// The rows of a results file, without their seconds and failures' paths: unit, X seed, vectors,
/// cycles, chunks, failing cases, the failures' file names with their counts, every bin's hits.
fn rows(doc: &Value) -> Vec<Value> {
    doc["units"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            let failures: Vec<Value> = u["failures"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| {
                    let name = Path::new(f["vector"].as_str().unwrap()).file_name().unwrap().to_string_lossy();
                    serde_json::json!([name, f["count"]])
                })
                .collect();
            serde_json::json!({
                "unit": u["unit"], "x_seed": u["x_seed"], "vectors": u["vectors"], "cycles": u["cycles"],
                "chunks": u["chunks"], "failing_cases": u["failing_cases"], "failures": failures, "hits": u["hits"],
            })
        })
        .collect()
}

/// The lines of the bins table (`functional coverage …` and each unit's row and unhit bins).
fn bins_table(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("functional coverage"))
        .take_while(|l| l.starts_with("functional coverage") || l.contains(" bins ") || l.starts_with("    unhit"))
        .collect()
}

/// The per-unit table without its two columns of time (vectors/s, seconds).
fn unit_table(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("unit "))
        .take_while(|l| !l.starts_with("functional coverage"))
        .filter(|l| !l.starts_with("MISMATCH") && !l.starts_with("  "))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words[..words.len() - 2].join(" ")
        })
        .collect()
}

/// JUnit XML without its times.
fn untimed(xml: &str) -> String {
    let mut out = String::new();
    let mut rest = xml;
    while let Some(at) = rest.find(" time=\"") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 7..];
        rest = &after[after.find('"').unwrap() + 1..];
    }
    out + rest
}

/// The whole run and its `n` shards, each with a results file in `dir`.
fn whole_and_shards(dir: &Path, args: &[&str], n: u64) -> ((i32, String, PathBuf), Vec<PathBuf>) {
    let whole_file = dir.join("whole.json");
    let (code, stdout) = cosim(args, &whole_file);
    let shards = (1..=n)
        .map(|k| {
            let file = dir.join(format!("shard-{k}.json"));
            let shard = format!("{k}/{n}");
            cosim(&[args, &["--shard", &shard]].concat(), &file);
            file
        })
        .collect();
    ((code, stdout, whole_file), shards)
}

const CLEAN: &[&str] = &[
    "--unit",
    "buffer_addr",
    "--unit",
    "d16",
    "--unit",
    "vmem_pipe",
    "--vectors",
    "12288",
    "--seed",
    "11",
    "--x-seeds",
    "1",
    "--programs",
    "10",
];

/// The N shards of a seed, merged, are the unsharded run: per unit (and X seed) the same vectors,
/// cycles, chunks and failing cases, the same hits of every bin, the same tables, JUnit report
/// and verdict; on a clean run and on the mutant's failing one.
#[test]
fn merging_the_shards_of_a_seed_equals_the_unsharded_run() {
    let dir = common::scratch("merge_clean");
    let ((code, stdout, whole_file), shards) = whole_and_shards(&dir, CLEAN, 3);
    assert_eq!(code, 0, "{stdout}");
    let whole_junit = dir.join("whole.xml");
    let (_, whole_stdout, _) = merge(std::slice::from_ref(&whole_file), &["--junit", whole_junit.to_str().unwrap()]);
    let merged_file = dir.join("merged.json");
    let merged_junit = dir.join("merged.xml");
    let (merged_code, merged_stdout, stderr) =
        merge(&shards, &["--results", merged_file.to_str().unwrap(), "--junit", merged_junit.to_str().unwrap()]);
    assert_eq!(merged_code, code, "{merged_stdout}{stderr}");
    // The closed-loop suites ran once, in shard 1.
    let shard_docs: Vec<Value> = shards.iter().map(|f| read_json(f)).collect();
    assert!(shard_docs[0]["programs"].is_object() && shard_docs[1]["programs"].is_null());
    assert!(!shard_docs[2]["units"].as_array().unwrap().iter().any(|u| u["unit"] == "vmem_pipe"));
    let (whole, merged) = (read_json(&whole_file), read_json(&merged_file));
    assert_eq!(rows(&merged), rows(&whole));
    assert_eq!(rows(&whole).len(), 5, "buffer_addr, d16, their X runs and vmem_pipe: {whole}");
    assert_eq!(merged["shard"], Value::Null);
    for key in ["programs", "instructions", "executed", "errors"] {
        assert_eq!(merged["programs"][key], whole["programs"][key], "{key}");
    }
    assert_eq!(bins_table(&merged_stdout), bins_table(&stdout));
    assert!(!bins_table(&stdout).is_empty(), "{stdout}");
    assert_eq!(unit_table(&merged_stdout), unit_table(&stdout));
    assert_eq!(unit_table(&whole_stdout), unit_table(&stdout), "merging the whole run alone changes nothing");
    let (whole_xml, merged_xml) =
        (std::fs::read_to_string(&whole_junit).unwrap(), std::fs::read_to_string(&merged_junit).unwrap());
    assert_eq!(untimed(&merged_xml), untimed(&whole_xml));

    // The mutant: hundreds of failing cases (saved as found, so each is a file), the same ones.
    let dir = common::scratch("merge_mutant");
    let args = [
        "--unit",
        "buffer_addr",
        "--mutant",
        "--no-shrink",
        "--max-failures",
        "100000",
        "--vectors",
        "8192",
        "--seed",
        "11",
    ];
    let ((code, stdout, whole_file), shards) = whole_and_shards(&dir, &args, 2);
    assert_eq!(code, 1, "{stdout}");
    let merged_file = dir.join("merged.json");
    let (merged_code, merged_stdout, _) = merge(&shards, &["--results", merged_file.to_str().unwrap()]);
    assert_eq!(merged_code, 1, "{merged_stdout}");
    let (whole, merged) = (read_json(&whole_file), read_json(&merged_file));
    assert!(whole["units"][0]["failing_cases"].as_u64().unwrap() > 10, "{stdout}");
    assert_eq!(rows(&merged), rows(&whole));
    assert_eq!(unit_table(&merged_stdout), unit_table(&stdout));
    assert!(merged_stdout.contains("MISMATCH buffer_addr"), "{merged_stdout}");
}

/// A bin that no shard hits fails the merged run exactly when it would fail the unsharded run
/// (policy::bins_required): at the default budget or with --require-bins; a bin that one shard
/// hits is hit.
#[test]
fn a_bin_unhit_in_every_shard_fails_the_merge() {
    let dir = common::scratch("merge_bins");
    let args = ["--unit", "d16", "--vectors", "8192", "--seed", "5"];
    let (_, shards) = whole_and_shards(&dir, &args, 2);
    let docs: Vec<Value> = shards.iter().map(|f| read_json(f)).collect();
    let hits = &docs[0]["units"][0]["hits"];
    let (point, bins) = hits.as_object().unwrap().iter().next().unwrap();
    let bin = bins.as_object().unwrap().keys().next().unwrap().clone();
    let unhit = format!("unhit d16: {point}: {bin}");
    // Every shard misses it.
    let holed: Vec<PathBuf> = docs
        .iter()
        .enumerate()
        .map(|(k, doc)| {
            write_edited(doc, dir.join(format!("holed-{k}.json")), |d| d["units"][0]["hits"][point][&bin] = 0.into())
        })
        .collect();
    let (code, stdout, stderr) = merge(&holed, &[]);
    assert_eq!(code, 0, "below the default budget a hole is allowed, as unsharded: {stdout}{stderr}");
    assert!(stdout.contains(&unhit) && stdout.contains("holes allowed"), "{stdout}");
    let junit = dir.join("bins.xml");
    let (code, stdout, _) = merge(&holed, &["--require-bins", "--junit", junit.to_str().unwrap()]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains(&unhit) && stdout.contains("FAIL: unhit bins"), "{stdout}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains(r#"<testsuite name="bins" tests="1" failures="1""#), "{xml}");
    // At the default budget the unsharded run fails on a hole, and so does the merge.
    let default_budget: Vec<PathBuf> = holed
        .iter()
        .map(|f| {
            write_edited(&read_json(f), f.with_extension("default.json"), |d| {
                d["run"]["vectors"] = gcn_vmem::engine::policy::DEFAULT_VECTORS.into()
            })
        })
        .collect();
    let (code, stdout, _) = merge(&default_budget, &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains(&unhit) && stdout.contains("FAIL: unhit bins"), "{stdout}");
    // Hit in one shard only: hit.
    let once = [holed[0].clone(), shards[1].clone()];
    let (code, stdout, _) = merge(&once, &["--require-bins"]);
    assert!(!stdout.contains(&unhit), "{stdout}");
    assert_eq!(code, i32::from(stdout.contains("FAIL")), "{stdout}");
}

/// Files that are not the shards of one run, each once, are refused (exit status 2) with an error
/// that names the file and says what to do; nothing panics. And the Verilator coverage databases
/// the shards list are merged into one.
#[test]
fn bad_results_files_are_errors_naming_the_file_and_the_fix() {
    let dir = common::scratch("merge_errors");
    let args = ["--unit", "d16", "--unit", "inline_const", "--vectors", "4096", "--seed", "9"];
    let ((_, _, whole), shards) = whole_and_shards(&dir, &args, 2);
    let (a, b) = (&shards[0], &shards[1]);
    let shard_b = read_json(b);
    let edited = |name: &str, edit: &dyn Fn(&mut Value)| -> PathBuf { write_edited(&shard_b, dir.join(name), edit) };
    let other_seed = edited("seed.json", &|d| d["seed"] = 10.into());
    let other_units = edited("units.json", &|d| {
        d["run"]["units"] = serde_json::json!(["d16"]);
        d["units"].as_array_mut().unwrap().retain(|u| u["unit"] == "d16");
    });
    let other_budget = edited("budget.json", &|d| d["run"]["vectors"] = 8192.into());
    let four = edited("four.json", &|d| d["shard"] = "2/4".into());
    let no_cycles = edited("no_cycles.json", &|d| {
        d["units"][0].as_object_mut().unwrap().remove("cycles");
    });
    let wrong_bins = edited("bins.json", &|d| {
        d["units"][0]["hits"].as_object_mut().unwrap().insert("no such point".into(), serde_json::json!({}));
    });
    let unknown_unit = edited("unit.json", &|d| d["units"][0]["unit"] = "no_such_unit".into());
    let not_json = dir.join("not.json");
    std::fs::write(&not_json, "{\"format\": \"gcn-vmem-results 1\", \"seed\"").unwrap();
    let not_results = dir.join("other.json");
    std::fs::write(&not_results, "{\"seed\": 9}").unwrap();
    let mistyped_format = edited("format.json", &|d| d["format"] = 1.into());
    let missing = dir.join("missing.json");

    let cases: Vec<(Vec<PathBuf>, &Path, &str, &str)> = vec![
        (vec![a.clone(), other_seed.clone()], &other_seed, "has seed 10", "--seed 9"),
        (vec![a.clone(), other_units.clone()], &other_units, "ran units d16", "merge the files of one"),
        (vec![a.clone(), other_budget.clone()], &other_budget, "--vectors", "merge the files of one"),
        (vec![a.clone(), four.clone()], &four, "is shard 2/4", "merge the files of one"),
        (vec![a.clone(), a.clone()], a, "are both shard 1/2", "pass each shard's results once"),
        (vec![a.clone()], a, "shard(s) 2/2 missing", "--shard 2/2"),
        (vec![whole.clone(), a.clone()], &whole, "is an unsharded run", "merge either that file alone"),
        (vec![a.clone(), no_cycles.clone()], &no_cycles, "`units[0].cycles` is missing", "rerun that shard"),
        (vec![a.clone(), wrong_bins.clone()], &wrong_bins, "point `no such point`", "merge with the gcn-vmem"),
        (vec![a.clone(), unknown_unit.clone()], &unknown_unit, "unit `no_such_unit`", "merge with the gcn-vmem"),
        (vec![a.clone(), not_json.clone()], &not_json, "is not JSON", "rerun that shard"),
        (vec![a.clone(), not_results.clone()], &not_results, "`format` is missing", "rerun that shard"),
        (vec![a.clone(), mistyped_format.clone()], &mistyped_format, "`format` is 1, not a string", "rerun that shard"),
        (vec![a.clone(), missing.clone()], &missing, "cannot read the results file", "gcn-vmem cosim --results"),
    ];
    for (files, named, problem, fix) in cases {
        let (code, stdout, stderr) = merge(&files, &[]);
        assert_eq!(code, 2, "{files:?}: {stdout}{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        let file = named.display().to_string();
        assert!(stderr.contains(&file) && stderr.contains(problem) && stderr.contains(fix), "{files:?}: {stderr}");
    }

    // Verilator coverage databases listed by the shards (one relative to its results file, as
    // `cosim --coverage` under the results' folder records it) become one merged database.
    let key = |line: u32| {
        format!("C '\u{1}f\u{2}rtl/d16.sv\u{1}l\u{2}{line}\u{1}n\u{2}0\u{1}page\u{2}v_line/d16\u{1}o\u{2}block\u{1}h\u{2}top.d16'")
    };
    std::fs::create_dir_all(dir.join("cov")).unwrap();
    let dat = |name: &str, count: u64| {
        let file = dir.join("cov").join(name);
        std::fs::write(&file, format!("# SystemC::Coverage-3\n{} {count}\n{} 1\n", key(10), key(11))).unwrap();
        file
    };
    let (d1, d2) = (dat("d16-0.dat", 3), dat("d16-1.dat", 4));
    let with_dat = |shard: &Path, dat: &Path, name: &str| -> PathBuf {
        let mut doc = read_json(shard);
        doc["coverage"] = serde_json::json!([dat.to_str().unwrap()]);
        let file = dir.join(name);
        write_json(&file, &doc);
        file
    };
    let relative = {
        let mut doc = read_json(b);
        doc["coverage"] = serde_json::json!(["cov/d16-1.dat"]);
        let file = dir.join("rel.json");
        write_json(&file, &doc);
        file
    };
    let out = dir.join("merged").join("all.dat");
    let files = [with_dat(a, &d1, "abs.json"), relative.clone()];
    let (code, stdout, stderr) = merge(&files, &["--coverage", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("merged Verilator coverage") && stdout.contains("2 databases"), "{stdout}");
    let merged = std::fs::read_to_string(&out).unwrap();
    assert!(merged.contains(&format!("{} 7", key(10))) && merged.contains(&format!("{} 2", key(11))), "{merged}");
    // A database a shard lists but that is gone is an error naming both.
    std::fs::remove_file(&d2).unwrap();
    let (code, _, stderr) = merge(&files, &["--coverage", out.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("rel.json") && stderr.contains("d16-1.dat") && stderr.contains("--coverage folder"),
        "{stderr}"
    );
}
