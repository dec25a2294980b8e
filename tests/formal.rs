//! `gcn-vmem formal` (cosim/tools/formal.rs): property proofs of a fixture, tests/data/formal/
//! fifo.sv, as written (every assertion proven), with its planted bug (`FIFO_BUG`: refuted, named,
//! with a trace) and with a property that is true but not inductive at a small depth
//! (`FIFO_UNKNOWN`); the errors on bad input and on an assertion form Yosys does not read; and the
//! TCP bank at the small configuration with a planted bug at its hook point, refuted (the full
//! proof of the bank, about two minutes, is `make formal-tcp`). The proofs are skipped with a
//! note when Yosys, smtbmc or the solver is missing (`make yosys`).

use std::path::{Path, PathBuf};

use gcn_vmem::tools::formal::{self, Config, Status};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The fixture's proof in the scratch folder `name`, with the macros `defines` (its planted bugs).
fn fifo(name: &str, defines: &[&str]) -> Config {
    let mut config = Config::new("fifo", &root());
    config.defines = defines.iter().map(|d| d.to_string()).collect();
    config.files = vec![root().join("tests/data/formal/fifo.sv")];
    config.params = vec![("Depth".to_string(), "2".to_string())];
    config.work = Some(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("formal").join(name));
    config.timeout = Some(std::time::Duration::from_secs(300));
    config
}

fn tools_or_skip(test: &str) -> bool {
    if formal::available() {
        return true;
    }
    println!("note: {test} skipped: Yosys, smtbmc or the solver does not run; {}", formal::install_hint());
    false
}

fn shown(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn fifo_assertions_are_proven() {
    if !tools_or_skip("fifo_assertions_are_proven") {
        return;
    }
    let report = formal::check(&fifo("proven", &[])).unwrap();
    let lines = report.lines(&shown).join("\n");
    assert!(report.all_proven(), "{lines}");
    assert_eq!(report.assertions.len(), 5, "{lines}");
    assert_eq!(report.assumptions, vec!["Env_M".to_string()], "{lines}");
    for name in ["CountBound_A", "PtrDiff_A", "FullNoPush_A", "Grow_A", "Hold_A"] {
        assert!(matches!(report.get(name).map(|a| &a.status), Some(Status::Proven { .. })), "{name}: {lines}");
    }
    assert!(lines.contains("5 proven, 0 refuted, 0 unknown of 5 assertions (1 assumptions)"), "{lines}");
}

#[test]
fn planted_bug_is_refuted() {
    if !tools_or_skip("planted_bug_is_refuted") {
        return;
    }
    let config = fifo("bug", &["FIFO_BUG"]);
    let report = formal::check(&config).unwrap();
    let lines = report.lines(&shown).join("\n");
    assert!(!report.all_proven(), "{lines}");
    // With Depth = 2, full_o one entry late lets the third push in: the counter reaches 3.
    let Some(Status::Refuted { step, trace }) = report.get("CountBound_A").map(|a| &a.status) else {
        panic!("CountBound_A not refuted:\n{lines}");
    };
    assert!(*step <= 8, "{lines}");
    let vcd = std::fs::read_to_string(trace).unwrap();
    assert!(vcd.contains("count_q"), "the trace {} has no count_q", trace.display());
    assert!(lines.contains("CountBound_A") && lines.contains("REFUTED in cycle"), "{lines}");
    // The rest are still decided: the environment assumption holds, so Hold_A is proven.
    assert!(matches!(report.get("Hold_A").map(|a| &a.status), Some(Status::Proven { .. })), "{lines}");
}

#[test]
fn a_non_inductive_property_is_unknown_until_deep_enough() {
    if !tools_or_skip("a_non_inductive_property_is_unknown_until_deep_enough") {
        return;
    }
    let mut config = fifo("unknown", &["FIFO_UNKNOWN"]);
    config.depth = 4;
    let report = formal::check(&config).unwrap();
    let lines = report.lines(&shown).join("\n");
    assert!(matches!(report.get("Wrap_A").map(|a| &a.status), Some(Status::Unknown { .. })), "{lines}");
    assert_eq!(report.counts(), (5, 0, 1), "{lines}");
    config.depth = 10;
    let report = formal::check(&config).unwrap();
    assert!(report.all_proven(), "{}", report.lines(&shown).join("\n"));
}

#[test]
fn an_implication_yosys_cannot_read_is_a_clear_error() {
    if !tools_or_skip("an_implication_yosys_cannot_read_is_a_clear_error") {
        return;
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("formal").join("sva-src");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("imp.sv");
    std::fs::write(
        &file,
        "module imp (input logic clk_i, input logic rst_ni, input logic a_i, output logic q_o);\n\
         \x20 `VMEM_FF(q_o, a_i, '0)\n\
         \x20 `VMEM_ASSERT(Imp_A, a_i |-> ##1 q_o)\nendmodule\n",
    )
    .unwrap();
    let mut config = Config::new("imp", &root());
    config.files = vec![file];
    config.work = Some(dir.join("work"));
    let err = format!("{:#}", formal::check(&config).unwrap_err());
    assert!(err.contains("unsupported SVA feature") && err.contains("`!(a) || (b)`"), "{err}");
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let mut config = Config::new("1fifo", &root());
    assert!(format!("{:#}", formal::check(&config).unwrap_err()).contains("not a SystemVerilog identifier"));
    config.top = "no_such_module".to_string();
    let err = format!("{:#}", formal::check(&config).unwrap_err());
    assert!(err.contains("there is no rtl/no_such_module.sv"), "{err}");
    let mut config = fifo("bad", &[]);
    config.params = vec![("Depth".to_string(), "2\";x".to_string())];
    assert!(formal::check(&config).is_err());
    config.params.clear();
    config.hooks = vec![("no_such_hook".to_string(), None)];
    assert!(format!("{:#}", formal::check(&config).unwrap_err()).contains("does not exist"));
    config.hooks.clear();
    config.depth = 0;
    assert!(formal::check(&config).is_err());
    assert!(formal::parse_param("Lines").is_err());
    assert!(formal::parse_hook("a b").is_err());
    assert!(formal::parse_hook("h=").is_err());
    assert_eq!(formal::parse_hook("h=x.svh").unwrap(), ("h".to_string(), Some(PathBuf::from("x.svh"))));
}

/// The TCP bank at the small configuration (docs/decisions.md "vmem_pipe": Lines 8, Mshrs 2,
/// Targets 2, InFlight 2, LookupDepth 4, ReturnDepth 2, L2Depth 1).
fn tcp_bank(name: &str) -> Config {
    let mut config = Config::new("vmem_pipe_tcp_bank", &root());
    config.params = [
        ("Lines", "8"),
        ("Mshrs", "2"),
        ("Targets", "2"),
        ("InFlight", "2"),
        ("LookupDepth", "4"),
        ("ReturnDepth", "2"),
        ("L2Depth", "1"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    config.work = Some(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("formal").join(name));
    config.timeout = Some(std::time::Duration::from_secs(900));
    config
}

#[test]
fn tcp_bank_planted_bug_is_refuted() {
    if !tools_or_skip("tcp_bank_planted_bug_is_refuted") {
        return;
    }
    // A miss that leaves its MSHR free (formal/test/vmem_pipe_bank_brk_mshr.svh at the bank's
    // hook point): the next miss takes the MSHR again while the first line read is at the L2.
    let mut config = tcp_bank("tcp-bank-bug");
    config.hooks =
        vec![("vmem_pipe_brk_bank".to_string(), Some(root().join("formal/test/vmem_pipe_bank_brk_mshr.svh")))];
    config.depth = 6;
    config.induction = false;
    let report = formal::check(&config).unwrap();
    let lines = report.lines(&shown).join("\n");
    assert!(matches!(report.get("MshrRealloc_A").map(|a| &a.status), Some(Status::Refuted { .. })), "{lines}");
    assert!(report.assumptions.iter().any(|a| a.ends_with("RspTag_M")), "{lines}");
}
