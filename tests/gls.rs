//! Gate-level lockstep (`make gls`, docs/integrations/gls.md): the netlists Yosys synthesized from
//! the units, run against the models, and a planted construct that simulates differently from
//! what synthesis builds (tests/gls/inline_const_trap.sv), which only the gate-level run catches.
//!
//! The gate-level builds exist only in the binary `make gls` builds (GCN_VMEM_GLS=1, its own
//! target directory, target/gls/build); `make gls-test` runs these tests there. A binary built by
//! `make gls UNIT=u` holds the netlists of the units named: each test runs on those it needs and
//! prints a note for what the binary lacks. In the normal build (`make test`) every test that
//! needs a netlist prints a note and passes, and the one that checks the error naming
//! `make gls UNIT=<unit>` runs on every unit.

use crate::common;

use gcn_vmem::actions;
use gcn_vmem::bindings::inline_const::Harness;
use gcn_vmem::bindings::{with_unit, Visit, UNITS};
use gcn_vmem::engine::run::{self, RunConfig};
use gcn_vmem::engine::{Binding, Gls, RtlOptions, RtlUnit, UnitTypes, Variant};

/// Whether this binary has inline_const's gate-level build `gls`; the error otherwise.
fn inline_const_build(gls: Gls) -> Result<(), String> {
    <Harness as UnitTypes>::Rtl::open(&RtlOptions { gls, ..RtlOptions::default() })
        .map(|_| ())
        .map_err(|e| format!("{e:#}"))
}

#[test]
fn the_gate_level_run_catches_an_out_of_range_read_that_the_rtl_run_cannot() {
    if let Err(e) = inline_const_build(Gls::TrapNetlist) {
        eprintln!("note: no gate-level trap build in this binary (`make gls` runs this test): {e}");
        return;
    }
    // tests/gls/inline_const_trap.sv under Verilator: the out-of-range read gives 0, and the
    // unit's outputs are the model's.
    let rtl_dir = common::scratch("gls_trap_rtl");
    let config = RunConfig {
        vectors: 20_000,
        seed: 5,
        gls: Gls::TrapRtl,
        ..common::first_failure_run(Variant::AsWritten, rtl_dir.clone())
    };
    let summary = run::random::<Harness>(&config).unwrap();
    assert_eq!(summary.failing_cases, 0, "the trap RTL differs from the model in simulation: {:?}", summary.failures);
    assert!(!rtl_dir.join("inline_const").exists(), "the clean run saved a failure");

    // Its netlist: Yosys built the read as 1, so bits_o[31] is set for mantissa bits 6 and 7.
    let gls_dir = common::scratch("gls_trap_netlist");
    let config = RunConfig { gls: Gls::TrapNetlist, artifacts: gls_dir.clone(), ..config };
    let summary = run::random::<Harness>(&config).unwrap();
    assert!(summary.failing_cases >= 1, "the netlist's bit 31 went unnoticed in {} vectors", summary.vectors);
    let failure = &summary.failures[0];
    // Shown by `make gls-test` (docs/integrations/gls.md quotes it).
    eprintln!("the netlist's failure: {}", failure.lines[0]);
    assert!(failure.lines.iter().all(|l| l.starts_with("MISMATCH inline_const cycle=")), "{:?}", failure.lines);
    assert!(failure.lines.iter().any(|l| l.contains("signal=bits")), "{:?}", failure.lines);
    // The same artifacts as any failure: shrunk to the three cycles one constant needs, saved,
    // and traced on the netlist's FST build.
    assert!(failure.shrunk, "{:?}", failure.note);
    assert!(failure.cycles_after <= 3, "shrunk to {} cycles", failure.cycles_after);
    assert_eq!(failure.vector_file.parent().unwrap(), gls_dir.join("inline_const"));
    assert!(failure.vector_file.is_file());
    let wave = failure.rtl_wave.as_ref().unwrap_or_else(|| panic!("no waveform: {:?}", failure.wave_error));
    assert!(wave.is_file() && std::fs::metadata(wave).unwrap().len() > 0, "{}", wave.display());
    assert!(failure.diff_wave.as_ref().is_some_and(|d| d.is_file()));
}

#[test]
fn every_netlist_agrees_with_its_model_in_random_and_x_runs() {
    let mut ran = Vec::new();
    for &unit in UNITS {
        if unit == "vmem_pipe" {
            continue; // Its random runs are programs: the next test.
        }
        let config = RunConfig { vectors: 4_000, seed: 21, jobs: 1, gls: Gls::Netlist, ..RunConfig::default() };
        let summary = match actions::random_quiet(unit, &config) {
            Err(e) if format!("{e:#}").contains("make gls UNIT=") => continue,
            other => other.unwrap(),
        };
        assert_eq!(summary.failing_cases, 0, "{unit}'s netlist differs from its model: {:?}", summary.failures);
        let x = RunConfig { x_seed: Some(77), seed: 22, ..config };
        let summary = actions::random_quiet(unit, &x).unwrap();
        assert_eq!(summary.failing_cases, 0, "{unit}'s netlist, X seed 77: {:?}", summary.failures);
        ran.push(unit);
    }
    if ran.is_empty() {
        eprintln!("note: no gate-level build in this binary (`make gls` runs this test)");
    } else {
        eprintln!("netlists run against their models: {ran:?}");
    }
}

/// The pipeline's netlist (module by module, cosim/tools/gls.rs) runs its random programs as
/// `cosim --gls` runs them: each in lockstep with the model and checked against the executor.
#[test]
fn the_pipeline_netlist_runs_its_programs_with_no_mismatch() {
    use gcn_vmem::bindings::vmem_pipe::suite::run_pipe_suite;
    let build = RtlOptions { gls: Gls::Netlist, ..RtlOptions::default() };
    if let Err(e) = <gcn_vmem::bindings::vmem_pipe::Harness as UnitTypes>::Rtl::open(&build) {
        eprintln!("note: no gate-level build of vmem_pipe in this binary (`make gls UNIT=vmem_pipe`): {e:#}");
        return;
    }
    let dir = common::scratch("gls_vmem_pipe");
    let summary = run_pipe_suite(12, 6, 23, &dir, &build, 1, true, 2).unwrap();
    assert_eq!((summary.chunks, summary.failing_cases), (12, 0), "{:?}", summary.failures);
    assert!(summary.cycles > 12 * 50, "{} cycles", summary.cycles);
}

/// Opens `B`'s gate-level netlist build: `Ok` when this binary has it.
struct OpenNetlist;

impl Visit for OpenNetlist {
    type Output = Result<(), String>;
    fn visit<B: Binding>(self) -> Self::Output {
        B::Rtl::open(&RtlOptions { gls: Gls::Netlist, ..RtlOptions::default() })
            .map(|_| ())
            .map_err(|e| format!("{e:#}"))
    }
}

/// Every unit without a gate-level build in this binary says so and names the command that builds
/// it, whatever else is true of its build: outside `make gls`'s binary no unit has one; in it, a
/// unit `make gls UNIT=…` left out has none, and its own RTL may be a stale build (linked from
/// before an RTL edit, `GCN_VMEM_UNITS`), which a gate-level run does not use.
#[test]
fn a_missing_gate_level_build_names_make_gls() {
    let mut built = Vec::new();
    for &unit in UNITS {
        match with_unit(unit, OpenNetlist).expect("a unit of cosim/units.txt") {
            Ok(()) => built.push(unit),
            Err(e) => assert!(e.contains(&format!("run `make gls UNIT={unit}`")), "{unit}: {e}"),
        }
    }
    eprintln!("gate-level builds in this binary: {built:?}");
    // A gate-level run of a test-only build is refused before anything opens.
    let both = RtlOptions { variant: Variant::Mutant, gls: Gls::Netlist, ..RtlOptions::default() };
    let e = <Harness as UnitTypes>::Rtl::open(&both).err().expect("a gate-level mutant was opened");
    assert!(format!("{e:#}").contains("simulates the netlist of the RTL as written"), "{e:#}");
}

/// The pipeline's netlist joins modules synthesized apart: the black boxes' instances lose the
/// parameter lists `read_slang` gave them (a synthesized module has none), and nothing else.
#[test]
fn a_joined_netlist_drops_only_the_black_boxes_parameter_lists() {
    use gcn_vmem::tools::gls::drop_instance_parameters;
    let written = "module ta(a, y);\n  d16 #(\n    .TestBreakAsserts(1'h0),\n    .i(32'd3)\n  ) \\g_cv[0].u_d16  (\n    .clk_i(a),\n    .y(y)\n  );\n  vmem_pipe_tcp_ram #(\n    .Entries(32'd64)\n  ) u_ram (\n    .clk_i(a)\n  );\nendmodule\n";
    let joined = drop_instance_parameters(written, &["d16".to_string()]);
    assert_eq!(
        joined,
        "module ta(a, y);\n  d16 \\g_cv[0].u_d16  (\n    .clk_i(a),\n    .y(y)\n  );\n  vmem_pipe_tcp_ram #(\n    .Entries(32'd64)\n  ) u_ram (\n    .clk_i(a)\n  );\nendmodule\n"
    );
    assert_eq!(drop_instance_parameters(written, &[]), written);
}

/// A netlist whose gates read one of its output ports (Yosys writes an output bit equal to
/// another as its copy) is a combinational cycle to Verilator: `gcn-vmem netlist` finds the
/// read and writes the module as a wrapper of its ports around its gates with split ports.
#[test]
fn a_netlist_that_reads_its_own_output_port_gets_a_port_wrapper() {
    use gcn_vmem::tools::gls::{declared_ports, outputs_read, port_wrapper, NetlistPort};
    let written = "module tcp(clk_i, a_i, ret_o, ok_o);\n  input clk_i;\n  wire clk_i;\n  input [3:0] a_i;\n  wire [3:0] a_i;\n  output [5:0] ret_o;\n  wire [5:0] ret_o;\n  output ok_o;\n  reg ok_o;\n  wire \\sum[0] ;\n  assign \\sum[0]  = a_i[0] ^ a_i[1];\n  assign ret_o[3:0] = { a_i[2], \\sum[0] , a_i[1:0] };\n  assign { ret_o[5], ret_o[4] } = { ret_o[3], a_i[3] };\n  always @(posedge clk_i)\n    ok_o <= ret_o[0];\nendmodule\n";
    assert_eq!(outputs_read(written, "tcp"), ["ret_o"]);
    // Driving an output, reading it in a flop, an escaped internal name that contains it: no read.
    let clean = written.replace("{ ret_o[3], a_i[3] }", "{ a_i[2], a_i[3] }");
    assert!(outputs_read(&clean, "tcp").is_empty(), "{:?}", outputs_read(&clean, "tcp"));
    assert!(outputs_read(&clean.replace("\\sum[0]", "\\ret_o_x[0]"), "tcp").is_empty());
    // An instance connection reads what it names (a child's input, as far as the text says).
    let instance = clean.replace("endmodule", "  child u (\n    .x_i(ret_o[2]),\n    .y_o(n)\n  );\nendmodule");
    assert_eq!(outputs_read(&instance, "tcp"), ["ret_o"]);
    assert_eq!(
        declared_ports(written, "tcp").unwrap(),
        [
            NetlistPort { name: "clk_i".into(), input: true, range: None },
            NetlistPort { name: "a_i".into(), input: true, range: Some((3, 0)) },
            NetlistPort { name: "ret_o".into(), input: false, range: Some((5, 0)) },
            NetlistPort { name: "ok_o".into(), input: false, range: None },
        ]
    );
    let wrapper = port_wrapper(written, "tcp").unwrap();
    assert!(wrapper.starts_with("module tcp(clk_i, a_i, ret_o, ok_o);\n  input clk_i;\n  input [3:0] a_i;\n  output [5:0] ret_o;\n  output ok_o;\n  tcp__gates u_gates (\n    .clk_i(clk_i),\n    .\\a_i[0] (a_i[0]),\n"), "{wrapper}");
    assert_eq!(wrapper.matches("(ret_o[").count(), 6, "{wrapper}");
    assert!(wrapper.ends_with("    .ok_o(ok_o)\n  );\nendmodule\n"), "{wrapper}");
    assert!(declared_ports("module other(a);\nendmodule\n", "tcp").is_err());
}

/// Verilates tests/gls/buffer_addr_lane.sv (buffer_addr's RTL and its netlist fed from registers,
/// as the pipeline's TA feeds lane 0) with the gate-level build's flags for a large netlist, runs
/// it, and returns the mismatches it counted; `None` without the netlist or Verilator.
fn lane_mismatches(name: &str, flags: &[&str]) -> Option<u64> {
    use std::process::Command;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let netlist = std::fs::read_to_string(root.join("target/gls/netlist/buffer_addr.v")).ok()?;
    // The Verilator the build uses (cosim/verilated/build.rs reads the same variable).
    let verilator = std::env::var("VERILATOR").unwrap_or_else(|_| "verilator".into());
    Command::new(&verilator).arg("--version").output().ok()?;
    let dir = common::scratch(name);
    let gates = dir.join("buffer_addr_gates.v");
    let renamed = netlist.replacen("module buffer_addr(", "module buffer_addr_gates(", 1);
    assert_ne!(renamed, netlist, "the netlist declares no `module buffer_addr(`");
    std::fs::write(&gates, renamed).unwrap();
    let rtl = ["rtl/vmem_fp_pkg.sv", "rtl/vmem_pkg.sv", "rtl/vmem_prim_pkg.sv", "rtl/buffer_addr.sv"];
    let out = Command::new(&verilator)
        .args(["--binary", "-j", "2", "--assert", "--x-assign", "unique", "--x-initial", "unique", "-O3"])
        .args(flags)
        .args(["--top-module", "buffer_addr_lane_tb", "-o", "tb", "-Mdir"])
        .arg(dir.join("obj"))
        .args(rtl.map(|f| root.join(f)))
        .arg(root.join("tests/gls/buffer_addr_lane.sv"))
        .arg(&gates)
        .arg(root.join("tests/dpi/assert_hook.cc"))
        .output()
        .unwrap();
    assert!(out.status.success(), "verilator failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let run = Command::new(dir.join("obj/tb")).output().unwrap();
    let text = String::from_utf8_lossy(&run.stdout).into_owned();
    eprintln!("{name}: {}", text.lines().filter(|l| !l.starts_with('-')).collect::<Vec<_>>().join(" | "));
    assert!(text.contains("cycles 20000"), "the bench did not run to its end:\n{text}");
    let count = text.lines().find_map(|l| l.strip_prefix("mismatches ")).expect("no mismatch count");
    Some(count.trim().parse().unwrap())
}

/// Verilator 5.006's bit-op-tree optimisation misevaluates Yosys's gates (verilator/verilator
/// issue 4059): buffer_addr's netlist fed from registers, built without DFG as the pipeline's
/// is, loses or sets bit 47 of the address. The gate-level build turns it off
/// (cosim/build/gls/flags.rs); with the build's flags the netlist agrees with the RTL every
/// cycle, and under 5.006 the same bench without that one flag does not.
#[test]
fn the_gate_level_flags_keep_verilator_from_misevaluating_the_gates() {
    use crate::build_script::gls_flags::{LARGE_NETLIST_VERILATOR_FLAGS, NETLIST_VERILATOR_FLAGS};
    let flags: Vec<&str> = NETLIST_VERILATOR_FLAGS.iter().chain(LARGE_NETLIST_VERILATOR_FLAGS).copied().collect();
    let Some(with) = lane_mismatches("gls_lane_flags", &flags) else {
        eprintln!("note: no buffer_addr netlist (`make gls` writes target/gls/netlist/) or no Verilator");
        return;
    };
    assert_eq!(with, 0, "buffer_addr's gates differ from its RTL with the build's flags");
    if gcn_vmem::verilator_version().starts_with("5.006") {
        let without: Vec<&str> = flags.iter().copied().filter(|f| *f != "-fno-const-bit-op-tree").collect();
        let wrong = lane_mismatches("gls_lane_no_flag", &without).unwrap();
        assert!(wrong > 0, "Verilator 5.006 evaluated the gates right without -fno-const-bit-op-tree");
    }
}
