//! `gcn-vmem paths` (cosim/tools/paths.rs): the path search on hand-written netlists, then on
//! tests/data/paths/paths_top.sv, a two-module design whose paths were counted by hand (the
//! counts are written in the file), and the command line. The runs of Yosys are skipped with a
//! note when it is missing, as in tests/synth.rs.

use std::path::{Path, PathBuf};
use std::process::Command;

use gcn_vmem::tools::paths::{self, EndKind, Job};

fn scratch(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("paths").join(name)
}

/// A netlist in the form of Yosys's `write_json`: input a (bit 2), output y (bit 6); r1 <= a;
/// r2 <= ~r1 & r1 (a NOT and an AND: 2 levels); y = r2.
const SMALL: &str = r#"{"modules": {"small": {
  "ports": {"clk": {"direction": "input", "bits": [7]}, "a": {"direction": "input", "bits": [2]},
            "y": {"direction": "output", "bits": [6]}},
  "cells": {
    "$r1": {"type": "$_DFF_P_", "port_directions": {"C": "input", "D": "input", "Q": "output"},
            "connections": {"C": [7], "D": [2], "Q": [3]}},
    "$not": {"type": "$_NOT_", "port_directions": {"A": "input", "Y": "output"}, "connections": {"A": [3], "Y": [4]}},
    "$and": {"type": "$_AND_", "port_directions": {"A": "input", "B": "input", "Y": "output"},
             "connections": {"A": [4], "B": [3], "Y": [5]}},
    "$r2": {"type": "$_DFF_P_", "port_directions": {"C": "input", "D": "input", "Q": "output"},
            "connections": {"C": [7], "D": [5], "Q": [6]}}
  },
  "netnames": {
    "r1_q": {"hide_name": 0, "bits": [3], "attributes": {"hdlname": "r1_q"}},
    "r2_q": {"hide_name": 0, "bits": [6], "attributes": {"hdlname": "r2_q"}},
    "y": {"hide_name": 0, "bits": [6], "attributes": {"hdlname": "y"}},
    "n": {"hide_name": 0, "bits": [4, "0", 5], "offset": 4, "attributes": {"hdlname": "n"}}
  }
}}}"#;

#[test]
fn a_netlist_of_two_registers_has_a_path_of_two_levels() {
    let a = paths::analyse(SMALL, "small/a\nsmall/y\nsmall/clk\n", "small", 5).unwrap();
    assert_eq!((a.gates, a.flops, a.latches, a.longest), (2, 2, 0, 2));
    let rr = a.class("reg_to_reg");
    assert_eq!(rr.len(), 1, "{rr:?}");
    let p = &rr[0];
    assert_eq!(p.levels, 2);
    assert_eq!((p.start.kind.clone(), p.start.label()), (EndKind::Register, "r1_q".to_string()));
    // r2's output is also the port y: the register's own name is preferred to the port's.
    assert_eq!((p.end.kind.clone(), p.end.label()), (EndKind::Register, "r2_q".to_string()));
    assert!(p.within());
    assert_eq!(p.steps.iter().map(|s| s.kind.as_str()).collect::<Vec<_>>(), ["$_NOT_", "$_AND_"]);
    // The NOT drives n[4] and the AND n[6] (bit 1 of n is a constant): offsets count.
    assert_eq!(p.steps.iter().map(|s| s.net.clone().unwrap()).collect::<Vec<_>>(), ["n[4]", "n[6]"]);
    let ir = a.class("in_to_reg");
    assert_eq!((ir.len(), ir[0].levels, ir[0].start.label()), (1, 0, "a".to_string()));
    let ro = a.class("reg_to_out");
    assert_eq!((ro.len(), ro[0].levels, ro[0].end.label()), (1, 0, "y".to_string()));
    assert!(a.class("in_to_out").is_empty());
}

/// r1 <= a; w_q[0] <= ~~~r1 (3 levels), w_q[1] <= ~~r1 (2), v_q <= ~r1 (1).
const BITS: &str = r#"{"modules": {"bits": {
  "ports": {"clk": {"direction": "input", "bits": [7]}, "a": {"direction": "input", "bits": [2]}},
  "cells": {
    "$r1": {"type": "$_DFF_P_", "port_directions": {"C": "input", "D": "input", "Q": "output"},
            "connections": {"C": [7], "D": [2], "Q": [3]}},
    "$n1": {"type": "$_NOT_", "port_directions": {"A": "input", "Y": "output"}, "connections": {"A": [3], "Y": [4]}},
    "$n2": {"type": "$_NOT_", "port_directions": {"A": "input", "Y": "output"}, "connections": {"A": [4], "Y": [5]}},
    "$n3": {"type": "$_NOT_", "port_directions": {"A": "input", "Y": "output"}, "connections": {"A": [5], "Y": [8]}},
    "$w0": {"type": "$_DFF_P_", "port_directions": {"C": "input", "D": "input", "Q": "output"},
            "connections": {"C": [7], "D": [8], "Q": [9]}},
    "$w1": {"type": "$_DFF_P_", "port_directions": {"C": "input", "D": "input", "Q": "output"},
            "connections": {"C": [7], "D": [5], "Q": [10]}},
    "$v": {"type": "$_DFF_P_", "port_directions": {"C": "input", "D": "input", "Q": "output"},
           "connections": {"C": [7], "D": [4], "Q": [11]}}
  },
  "netnames": {
    "r1_q": {"hide_name": 0, "bits": [3], "attributes": {"hdlname": "r1_q"}},
    "w_q": {"hide_name": 0, "bits": [9, 10], "attributes": {"hdlname": "w_q"}},
    "v_q": {"hide_name": 0, "bits": [11], "attributes": {"hdlname": "v_q"}}
  }
}}}"#;

#[test]
fn the_deepest_paths_end_at_different_registers() {
    let a = paths::analyse(BITS, "bits/a\nbits/clk\n", "bits", 5).unwrap();
    let rr = a.class("reg_to_reg");
    let summary: Vec<(usize, String, String, usize)> =
        rr.iter().map(|p| (p.levels, p.start.label(), p.end.label(), p.more_bits)).collect();
    // w_q's two bits are one register: its deepest bit, the other counted; then v_q.
    assert_eq!(
        summary,
        [(3, "r1_q".to_string(), "w_q[0]".to_string(), 1), (1, "r1_q".to_string(), "v_q".to_string(), 0)]
    );
    // With room for one path, the deepest register only.
    let one = paths::analyse(BITS, "bits/a\nbits/clk\n", "bits", 1).unwrap();
    assert_eq!(one.class("reg_to_reg").len(), 1);
    assert_eq!(one.class("reg_to_reg")[0].end.label(), "w_q[0]");
}

#[test]
fn a_loop_or_a_damaged_netlist_is_an_error_not_a_panic() {
    // The AND reads its own output through the NOT.
    let looped = SMALL.replace(r#""connections": {"A": [3], "Y": [4]}"#, r#""connections": {"A": [5], "Y": [4]}"#);
    assert_ne!(looped, SMALL);
    let err = paths::analyse(&looped, "", "small", 5).unwrap_err();
    assert!(format!("{err:#}").contains("combinational loop"), "{err:#}");
    assert!(paths::analyse(SMALL, "", "other", 5).unwrap_err().to_string().contains("no module `other`"));
    assert!(paths::analyse("not json", "", "small", 5).is_err());
    let no_dirs = SMALL.replace(r#""port_directions": {"A": "input", "Y": "output"}, "#, "");
    assert!(format!("{:#}", paths::analyse(&no_dirs, "", "small", 5).unwrap_err()).contains("direction"));
    let two_drivers = SMALL.replace(r#""Q": [6]"#, r#""Q": [5]"#);
    assert!(format!("{:#}", paths::analyse(&two_drivers, "", "small", 5).unwrap_err()).contains("second driver"));
}

#[test]
fn instances_come_from_flattened_names() {
    assert_eq!(paths::cell_instance("$flatten\\u_leaf.$auto$ff.cc:337:slice$85").as_deref(), Some("u_leaf"));
    assert_eq!(paths::cell_instance("$flatten\\u_a.\\u_b.$auto$simplemap.cc:106:x$1").as_deref(), Some("u_a.u_b"));
    assert_eq!(paths::cell_instance("$flatten\\g_lane[3].u_ba.$and$x.sv:4$7").as_deref(), Some("g_lane[3].u_ba"));
    assert_eq!(paths::cell_instance("$auto$simplemap.cc:106:simplemap_bitop$74").as_deref(), Some(""));
    assert_eq!(paths::cell_instance("$abc$86$blif$86$1"), None);
    assert_eq!(paths::cell_instance("u_tcp.g_bank[0].u_ram").as_deref(), Some("u_tcp.g_bank[0]"));
}

#[test]
fn the_script_keeps_the_hierarchy_until_the_gates_and_boxes_macros() {
    let s = paths::script("top", &["a_pkg.sv".into(), "top.sv".into()], &["ram".into()], false);
    assert!(s.contains("read_slang -j 1 --single-unit -D SYNTHESIS --keep-hierarchy --blackboxed-module ram a_pkg.sv top.sv --top top\n"), "{s}");
    let at = |l: &str| s.find(l).unwrap_or_else(|| panic!("no `{l}` in\n{s}"));
    assert!(at("synth -top top -noabc\n") < at("flatten\n"));
    assert!(at("flatten\n") < at("write_json netlist.json\n"));
    assert!(s.contains("tee -q -o ltp.txt ltp -noff w:* t:$* %u\n"), "{s}");
    assert!(!s.contains("\nabc\n"));
    assert!(paths::script("top", &[], &[], true).contains("\nabc\nopt -fast\n"));
}

/// The fixture measured as a design of its own into the scratch folder `name`, for the test
/// `test`: its analysis and `ltp`'s length, or None (the test is skipped, with a note) when Yosys
/// does not run; the measurement must succeed.
fn fixture(test: &str, name: &str, boxes: &[&str], abc: bool) -> Option<(paths::Analysis, Option<u64>)> {
    if !crate::common::yosys_or_skip(test) {
        return None;
    }
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/paths/paths_top.sv");
    let job = Job {
        unit: "paths_top".into(),
        top: "paths_top".into(),
        sources: vec![source],
        boxes: boxes.iter().map(|b| b.to_string()).collect(),
        out: scratch(name),
        paths: 5,
        abc,
    };
    let report = paths::measure(&job, "test");
    Some((report.outcome.unwrap_or_else(|e| panic!("{e}")), report.ltp))
}

#[test]
fn the_hand_counted_design_has_its_counted_paths() {
    let Some((a, ltp)) = fixture("the_hand_counted_design_has_its_counted_paths", "fixture", &[], false) else {
        return;
    };
    // Counts from tests/data/paths/paths_top.sv's header, by hand.
    assert_eq!(a.longest, 5);
    assert_eq!(ltp, Some(5));
    assert_eq!((a.flops, a.gates), (6, 8));
    let rr = a.class("reg_to_reg");
    let summary: Vec<(usize, String, String, bool)> =
        rr.iter().map(|p| (p.levels, p.start.label(), p.end.label(), p.within())).collect();
    assert_eq!(
        summary,
        [
            (5, "b_q".to_string(), "u_leaf.w_q".to_string(), false),
            (2, "u_leaf.c_q".to_string(), "u_leaf.e_q".to_string(), true),
            (0, "u_leaf.c_q".to_string(), "u_leaf.d_q".to_string(), true),
        ]
    );
    let deepest = &rr[0];
    assert_eq!(deepest.instances, ["", "u_leaf"]);
    assert_eq!(paths::scope("paths_top", deepest), "crosses paths_top > u_leaf");
    let gates: Vec<(&str, &str)> =
        deepest.steps.iter().map(|s| (s.kind.as_str(), s.instance.as_deref().unwrap())).collect();
    assert_eq!(gates, [("$_OR_", ""), ("$_AND_", ""), ("$_XOR_", "u_leaf"), ("$_AND_", "u_leaf"), ("$_OR_", "u_leaf")]);
    assert_eq!(rr[1].instances, ["u_leaf"]);
    assert_eq!(paths::scope("paths_top", &rr[1]), "within u_leaf");
    let ir = a.class("in_to_reg");
    assert_eq!(
        (ir[0].levels, ir[0].start.label(), ir[0].end.label()),
        (5, "m_i".to_string(), "u_leaf.w_q".to_string())
    );
    let ro = a.class("reg_to_out");
    assert_eq!((ro.len(), ro[0].levels, ro[0].end.label()), (1, 1, "out_o".to_string()));
    assert!(["u_leaf.w_q", "u_leaf.e_q"].contains(&ro[0].start.label().as_str()), "{:?}", ro[0].start);
    assert!(a.class("in_to_out").is_empty());
    // Both reports are written.
    let text = std::fs::read_to_string(scratch("fixture").join("paths.txt")).unwrap();
    assert!(text.contains("5 levels  b_q -> u_leaf.w_q   crosses paths_top > u_leaf"), "{text}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(scratch("fixture").join("paths.json")).unwrap()).unwrap();
    assert_eq!(json["reg_to_reg"][0]["levels"], 5);
    assert_eq!(json["reg_to_reg"][0]["scope"], "crosses");
    assert_eq!(json["reg_to_reg"][0]["end"]["name"], "u_leaf.w_q");
    assert_eq!(json["ltp"], 5);
}

#[test]
fn a_black_box_ends_and_starts_paths() {
    let Some((a, ltp)) = fixture("a_black_box_ends_and_starts_paths", "boxed", &["paths_leaf"], false) else {
        return;
    };
    // The OR and the AND of paths_top, into the box's x_i.
    assert_eq!((a.longest, ltp), (2, Some(2)));
    assert_eq!(a.boxes, [("paths_leaf".to_string(), 1)]);
    let p = &a.class("reg_to_reg")[0];
    assert_eq!((p.levels, p.start.label(), p.end.label()), (2, "b_q".to_string(), "u_leaf/x_i".to_string()));
    assert_eq!(p.end.kind, EndKind::Box);
    assert!(p.within());
    // A box's output starts a path: e_o or w_o through the AND to out_o.
    let ro = &a.class("reg_to_out")[0];
    assert_eq!((ro.levels, ro.start.kind.clone()), (1, EndKind::Box));
}

#[test]
fn abc_keeps_the_cross_check() {
    // ABC may rebalance the chain (no hand count); the longest path still agrees with `ltp`.
    let Some((a, ltp)) = fixture("abc_keeps_the_cross_check", "abc", &[], true) else {
        return;
    };
    assert_eq!(Some(a.longest as u64), ltp);
    assert!((1..=5).contains(&a.longest), "{}", a.longest);
}

fn gcn_vmem(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gcn-vmem")).args(args).output().unwrap()
}

#[test]
fn paths_command_measures_a_unit() {
    if !crate::common::yosys_or_skip("paths_command_measures_a_unit") {
        return;
    }
    let out = gcn_vmem(&["paths", "--unit", "inline_const", "--paths", "3"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("1 measured, 0 failed"), "{stdout}");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/paths/inline_const");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("paths.json")).unwrap()).unwrap();
    let rr = json["reg_to_reg"].as_array().unwrap();
    assert!(!rr.is_empty() && rr.len() <= 3, "{rr:?}");
    // One module: every path is within it.
    assert!(rr.iter().all(|p| p["scope"] == "within" && p["instances"] == serde_json::json!(["inline_const"])));
    assert_eq!(json["longest"], json["ltp"]);
    assert!(dir.join("paths.txt").is_file() && dir.join("work/netlist.json").is_file());
}

#[test]
fn paths_command_rejects_bad_input_with_the_fix() {
    let out = gcn_vmem(&["paths", "--unit", "nonesuch"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown unit `nonesuch`"));
    let out = gcn_vmem(&["paths", "--unit", "vmem_pipe", "--module", "nonesuch"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("`nonesuch` is not a module of vmem_pipe") && stderr.contains("vmem_pipe_td"), "{stderr}");
    let out = gcn_vmem(&["paths", "--unit", "swizzle", "--box", "d16"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("swizzle instantiates no module"));
    let out = gcn_vmem(&["paths", "--unit", "swizzle", "--paths", "0"]);
    assert_eq!(out.status.code(), Some(2));
    crate::synth::assert_missing_yosys_is_named("paths");
}
