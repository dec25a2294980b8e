//! The harness itself: that a broken RTL is caught, shrunk, saved and traced; that vector files
//! and `eval` reject bad input with errors that name the problem; that the command line's exit
//! statuses mean what the README says.

use crate::common;
use crate::common::gcn_vmem;

use std::path::Path;

use gcn_vmem::bindings::buffer_addr::Harness;
use gcn_vmem::engine::lockstep::{At, Lockstep, Reset, Step};
use gcn_vmem::engine::run::{self, RunConfig};
use gcn_vmem::engine::vectors::{self, Strictness};
use gcn_vmem::engine::RtlOptions;
use gcn_vmem::engine::RtlUnit;
use gcn_vmem::engine::Variant;
use gcn_vmem::engine::Wave;
use gcn_vmem::engine::{case, replay, stimulus};
use gcn_vmem_model::buffer_addr::In;
use gcn_vmem_model::unit::Unit;

/// Every (time, value) change of the first variable whose full name ends with `suffix`.
fn changes(wave: &mut wellen::simple::Waveform, suffix: &str) -> Vec<(u64, String)> {
    let h = wave.hierarchy();
    let var = h
        .all_vars()
        .map(|v| &h[v])
        .find(|v| v.full_name(h).ends_with(suffix))
        .unwrap_or_else(|| panic!("no variable ending in {suffix}"));
    let signal_ref = var.signal_ref();
    wave.load_signals(&[signal_ref]);
    let times = wave.time_table().to_vec();
    let signal = wave.get_signal(signal_ref).unwrap();
    signal.iter_changes().map(|(t, v)| (times[t as usize], v.to_bit_string().unwrap_or_default())).collect()
}

fn bits_to_u128(bits: &str) -> u128 {
    u128::from_str_radix(bits, 2).unwrap_or_else(|_| panic!("not a binary value: {bits}"))
}

/// The value a signal holds at `time` (its last change at or before it).
fn value_at(changes: &[(u64, String)], time: u64) -> u128 {
    let (_, bits) = changes.iter().rev().find(|(t, _)| *t <= time).expect("no value before time");
    bits_to_u128(bits)
}

#[test]
fn mutant_buffer_addr_rtl_is_caught_shrunk_saved_and_traced() {
    let artifacts = common::scratch("mutant");
    let config =
        RunConfig { vectors: 50_000, seed: 11, ..common::first_failure_run(Variant::Mutant, artifacts.clone()) };
    let summary = run::random::<Harness>(&config).unwrap();
    assert!(summary.failing_cases >= 1, "the broken swizzle term went unnoticed in {} vectors", summary.vectors);
    assert_eq!(summary.failures.len(), 1);
    let failure = &summary.failures[0];
    assert!(failure.lines.iter().all(|l| l.starts_with("MISMATCH buffer_addr cycle=")), "{:?}", failure.lines);
    assert!(failure.lines.iter().any(|l| l.contains("signal=address")), "{:?}", failure.lines);
    assert!(failure.lines[0].contains("repro: make wave UNIT=buffer_addr VECTOR="), "{}", failure.lines[0]);

    // Saved under <artifacts>/buffer_addr/, unshrunk first, and replayable.
    assert_eq!(failure.vector_file.parent().unwrap(), artifacts.join("buffer_addr"));
    let unshrunk: Vec<Step<In>> = vectors::read_file(&failure.unshrunk_files[0]).unwrap();
    let shrunk: Vec<Step<In>> = vectors::read_file(&failure.vector_file).unwrap();
    assert_eq!(unshrunk.len(), failure.cycles_before);
    assert_eq!(shrunk.len(), failure.cycles_after);

    // Shrinking reached the essence of the bug: one valid, swizzled vector whose index has a
    // nonzero index_lsb (the term the mutant drops is index_lsb * element_size).
    assert_eq!(shrunk.len(), 1, "not shrunk to one vector: {shrunk:?}");
    assert_eq!(shrunk[0].reset, Reset::None, "the reset activity was not shrunk away: {shrunk:?}");
    let v = shrunk[0].input;
    assert!(v.valid);
    assert_eq!(v.vsharp >> 63 & 1, 1, "shrunk vector is not swizzled: {v:?}");
    let index_stride = 8u32 << (v.vsharp >> 117 & 3);
    let add_tid = v.vsharp >> 119 & 1 == 1;
    let index = (if v.idxen { v.vgpr_index } else { 0 }).wrapping_add(if add_tid { u32::from(v.tid) } else { 0 });
    assert_ne!(index % index_stride, 0, "index_lsb is 0, the mutant could not differ: {v:?}");
    // Values are shrunk too, not only cycles: every field the bug does not need is 0, and the
    // index keeps only the bits below the swizzle stride that make index_lsb nonzero.
    assert_eq!((v.m0, v.sgpr_offset, v.lds_base, v.lds_size), (0, 0, 0, 0), "unneeded fields not cleared: {v:?}");
    assert!(index < index_stride, "index {index:#x} not shrunk below the index stride {index_stride}: {v:?}");

    // The bug is in the mutant, not in the model: the correct RTL agrees on the same vector.
    let good = replay::replay::<Harness>(&shrunk, &RtlOptions::default(), None, None).unwrap();
    assert!(good.mismatches.is_empty(), "{:?}", good.lines);
    let mutant = RtlOptions { variant: Variant::Mutant, ..RtlOptions::default() };
    let bad = replay::replay::<Harness>(&shrunk, &mutant, None, None).unwrap();
    assert!(!bad.mismatches.is_empty());

    // Both waveforms exist and parse; they show the mismatch where the lines say it is.
    let rtl_wave = failure.rtl_wave.clone().expect("no RTL waveform");
    let diff_wave = failure.diff_wave.clone().expect("no diff waveform");
    assert_eq!(rtl_wave.extension().unwrap(), "fst");
    let mut fst = wellen::simple::read(&rtl_wave).unwrap();
    let address_o = changes(&mut fst, "address_o");
    let mut diff = wellen::simple::read(&diff_wave).unwrap();
    let expected = changes(&mut diff, "expected.address");
    let actual = changes(&mut diff, "actual.address");
    let marker = changes(&mut diff, "mismatch.address");
    let (t, _) = marker.iter().find(|(_, b)| b == "1").expect("no mismatch marker set");
    assert_ne!(value_at(&expected, *t), value_at(&actual, *t));
    // The RTL waveform (written by Verilator) and the diff waveform's actual value agree.
    assert_eq!(value_at(&address_o, *t), value_at(&actual, *t), "time {t}");
}

/// Several failing cases of one bug shrink to the same minimal vector: it is saved and reported
/// once, with the count, and every case as found is kept beside it.
#[test]
fn one_bug_is_reported_once_with_a_count() {
    let artifacts = common::scratch("dedup");
    let config = RunConfig {
        vectors: 200_000,
        seed: 5,
        jobs: 2,
        max_failures: 6,
        variant: Variant::Mutant,
        artifacts: artifacts.clone(),
        ..RunConfig::default()
    };
    let summary = run::random::<Harness>(&config).unwrap();
    assert!(summary.failing_cases >= 6, "{summary:?}");
    let shrunk: u64 = summary.failures.iter().map(|f| f.count).sum();
    assert_eq!(shrunk, 6, "every shrunk case is counted once: {summary:?}");
    assert!(summary.failures.len() < 6, "the same minimal case was reported more than once: {:#?}", summary.failures);
    for f in &summary.failures {
        assert_eq!(f.unshrunk_files.len() as u64, f.count);
        assert!(f.unshrunk_files.iter().all(|u| u.exists()), "an unshrunk case was lost: {f:?}");
    }
    let files: Vec<_> = summary.failures.iter().map(|f| &f.vector_file).collect();
    let mut unique = files.clone();
    unique.dedup();
    assert_eq!(files.len(), unique.len());
}

#[test]
fn replay_writes_vcd_on_request_and_fst_by_default() {
    let dir = common::scratch("replay_vcd");
    let file = dir.join("one.jsonl");
    std::fs::write(
        &file,
        r#"{"vsharp":"0x00020000000001008010000000001000","inst_offset":6,"offen":false,"idxen":true,"access":"non_format","bytes":2,"lds":false,"sgpr_offset":0,"vgpr_index":10,"vgpr_offset":0,"tid":0,"m0":0,"lds_base":0,"lds_size":0}
{"valid":false,"vsharp":"0x0","inst_offset":0,"offen":false,"idxen":false,"access":"format","bytes":1,"lds":false,"sgpr_offset":0,"vgpr_index":0,"vgpr_offset":0,"tid":0,"m0":0,"lds_base":0,"lds_size":0}
"#,
    )
    .unwrap();
    let inputs: Vec<Step<In>> = vectors::read_file(&file).unwrap();
    assert_eq!(inputs.len(), 2);
    assert!(!inputs[1].input.valid);
    let mutant = RtlOptions { variant: Variant::Mutant, ..RtlOptions::default() };
    for (ext, format) in [("vcd", Wave::Vcd), ("fst", Wave::Fst)] {
        let path = dir.join(format!("one.{ext}"));
        let r = replay::replay::<Harness>(&inputs, &mutant, Some(&file), Some(&path)).unwrap();
        assert!(r.wave_error.is_none(), "{:?}", r.wave_error);
        assert_eq!(replay::wave_paths(&path).0, format);
        assert_eq!(r.rtl_wave.as_deref(), Some(path.as_path()));
        assert_eq!(r.diff_wave, Some(dir.join("one.diff.vcd")));
        let mut w = wellen::simple::read(&path).unwrap();
        assert!(!changes(&mut w, "valid_o").is_empty());
        // 2 inputs + 2 drain cycles, each two dumps, after the reset edge.
        assert_eq!(r.cycles, 4);
    }
}

#[test]
fn vector_files_reject_bad_input_with_line_and_field() {
    let dir = common::scratch("bad_vectors");
    let good = r#"{"vsharp":"0x0","inst_offset":0,"offen":false,"idxen":false,"access":"format","bytes":4,"lds":false,"sgpr_offset":0,"vgpr_index":0,"vgpr_offset":0,"tid":0,"m0":0,"lds_base":0,"lds_size":0}"#;
    let cases: &[(&str, String, &str)] = &[
        ("malformed", format!("{good}\n{{\"vsharp\": "), "2: malformed JSON"),
        ("unknown", good.replace("\"m0\":0", "\"m1\":0"), "unknown field `m1`"),
        ("missing", good.replace(",\"m0\":0", ""), "missing field `m0`"),
        ("wide_int", good.replace("\"tid\":0", "\"tid\":64"), "field `tid`"),
        (
            "wide_hex",
            good.replace("\"vsharp\":\"0x0\"", &format!("\"vsharp\":\"0x1{}\"", "0".repeat(32))),
            "wider than",
        ),
        ("bad_enum", good.replace("\"format\"", "\"texture\""), "field `access`: \"texture\" is not one of"),
        ("bad_bool", good.replace("\"lds\":false", "\"lds\":\"no\""), "field `lds`: expected true or false"),
        ("not_object", "[1, 2]".to_string(), "expected a JSON object"),
        ("empty", "\n\n".to_string(), "holds no vectors"),
    ];
    for (name, text, needle) in cases {
        let path = dir.join(format!("{name}.jsonl"));
        std::fs::write(&path, text).unwrap();
        let err = vectors::read_file::<In>(&path).expect_err(name).to_string();
        assert!(err.contains(needle), "{name}: {err}");
        assert!(err.contains(&path.display().to_string()), "{name}: error does not name the file: {err}");
    }
    // Replay files accept reserved encodings that eval rejects (so every generated input saves).
    let reserved = good.replace("\"bytes\":4", "\"bytes\":3");
    assert!(vectors::parse_object::<In>(&reserved, Strictness::Replay).is_ok());
    let err = vectors::parse_object::<In>(&reserved, Strictness::Strict).unwrap_err();
    assert!(err.contains("field `bytes`: 3 is not one of 1, 2, 4, 8, 12, 16"), "{err}");
}

const EVAL_GOOD: &str = r#"{"vsharp":"0x00020000000001000010000000001000","inst_offset":4,"offen":false,"idxen":true,"access":"non_format","bytes":4,"lds":false,"sgpr_offset":0,"vgpr_index":3,"vgpr_offset":0,"tid":0,"m0":0,"lds_base":0,"lds_size":0}"#;

#[test]
fn eval_answers_in_order_and_reports_each_bad_line() {
    // V#: base 0x1000, stride 16, num_records 0x100, dfmt 4 (bound). index 3, offset 4:
    // address = 0x1000 + 3 * 16 + 4 = 0x1034; structured check: 3 < 0x100, in range.
    let lines = [
        EVAL_GOOD.to_string(),
        "{not json".to_string(),
        EVAL_GOOD.replace("\"bytes\":4", "\"bytes\":3"),
        EVAL_GOOD.replace("\"tid\":0", "\"tid\":64"),
        EVAL_GOOD.replace("\"inst_offset\":4", "\"inst_offset\":4096"),
        EVAL_GOOD.replace("\"lds_base\":0", "\"lds_base\":512"),
        EVAL_GOOD.replace("\"m0\":0,", ""),
        EVAL_GOOD.replace("\"m0\":0", "\"m0\":0,\"glc\":true"),
        EVAL_GOOD.replace("\"vsharp\":\"0x", "\"vsharp\":\"0x1"),
        EVAL_GOOD.replace("\"bytes\":4", "\"bytes\":16"),
    ];
    let input = lines.join("\n") + "\n";
    for mode in [&[][..], &["--rtl"][..], &["--both"][..]] {
        let mut args = vec!["eval", "buffer_addr"];
        args.extend_from_slice(mode);
        let (code, stdout, _) = gcn_vmem(&args, &input);
        assert_eq!(code, 1, "{mode:?}: bad lines must make the exit status non-zero");
        let out: Vec<&str> = stdout.lines().collect();
        assert_eq!(out.len(), lines.len(), "{mode:?}: {stdout}");
        assert_eq!(
            out[0],
            r#"{"address":4148,"in_range":[true],"unbound":false,"illegal":false,"lds_address":0,"lds_in_range":false}"#
        );
        let expect_error = [
            (1, "line 2: malformed JSON"),
            (2, "line 3: field `bytes`: 3 is not one of"),
            (3, "line 4: field `tid`"),
            (4, "line 5: field `inst_offset`"),
            (5, "line 6: field `lds_base`"),
            (6, "line 7: missing field `m0`"),
            (7, "line 8: unknown field `glc`"),
            (8, "line 9: field `vsharp`"),
        ];
        for (i, needle) in expect_error {
            assert!(
                out[i].starts_with("{\"error\":") && out[i].contains(needle),
                "{mode:?} line {}: {}",
                i + 1,
                out[i]
            );
        }
        // dwordx4: four dwords, 0x1034 already dword aligned.
        assert_eq!(
            out[9],
            r#"{"address":4148,"in_range":[true,true,true,true],"unbound":false,"illegal":false,"lds_address":0,"lds_in_range":false}"#
        );
    }
}

#[test]
fn command_line_errors_name_the_problem() {
    let (code, _, stderr) = gcn_vmem(&["eval", "texture_filter"], "");
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown unit `texture_filter`") && stderr.contains("buffer_addr"), "{stderr}");

    let (code, _, stderr) = gcn_vmem(&["replay", "/nonexistent/buffer_addr/x.jsonl"], "");
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot read vector file /nonexistent/buffer_addr/x.jsonl"), "{stderr}");

    let (code, _, stderr) = gcn_vmem(&["replay", "/tmp/x.jsonl"], "");
    assert_eq!(code, 2);
    assert!(stderr.contains("pass --unit"), "{stderr}");
}

#[test]
fn cosim_command_passes_clean_rtl_and_fails_broken_rtl() {
    let (code, stdout, _) = gcn_vmem(&["cosim", "--vectors", "3000", "--seed", "5", "--no-progress"], "");
    assert_eq!(code, 0, "{stdout}");
    let row = stdout.lines().find(|l| l.starts_with("buffer_addr")).expect(&stdout);
    let cols: Vec<&str> = row.split_whitespace().collect();
    assert!(cols[1].parse::<u64>().unwrap() >= 3000, "{row}");
    assert_eq!(cols[3], "0", "{row}");
    for unit in gcn_vmem::bindings::UNITS {
        assert!(stdout.lines().any(|l| l.starts_with(unit)), "no row for {unit}: {stdout}");
    }

    let broken = ["cosim", "--unit", "buffer_addr", "--vectors", "3000", "--seed", "5", "--no-progress", "--mutant"];
    let (code, stdout, _) = gcn_vmem(&broken, "");
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("MISMATCH buffer_addr"), "{stdout}");
    assert!(stdout.contains("saved "), "{stdout}");

    // A unit without a mutant build says so instead of running the wrong RTL.
    let (code, _, stderr) = gcn_vmem(&["cosim", "--unit", "swizzle", "--vectors", "10", "--mutant"], "");
    assert_eq!(code, 2);
    assert!(stderr.contains("swizzle has no mutant build"), "{stderr}");
}

// ---------------------------------------------------------------------------------------------
// Assertions, reset and unknown initial state (docs/spec.md "Clocking of units").
// ---------------------------------------------------------------------------------------------

/// Random cases of buffer_addr's own stimulus, from a fixed seed.
fn cases(n: usize) -> Vec<Vec<Step<In>>> {
    use proptest::strategy::{Strategy, ValueTree};
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = case::case_strategy::<Harness>();
    (0..n).map(|_| strategy.new_tree(&mut runner).unwrap().current()).collect()
}

/// A failing assertion fails the run by itself: with the break-asserts RTL on both sides the
/// outputs always agree, yet the cases whose values violate an assertion fail, and only on the
/// side whose assertions are collected.
#[test]
fn an_assertion_alone_fails_a_run() {
    let broken = RtlOptions { variant: Variant::BreakAsserts, ..RtlOptions::default() };
    let open = || gcn_vmem::bindings::buffer_addr::Rtl::open(&broken).unwrap();
    let mut l = Lockstep::new(open(), open());
    let mut failed = 0;
    for case in cases(2000) {
        let clean = l.run_steps(&case);
        assert!(l.mismatches.is_empty(), "two copies of one RTL disagree: {:?}", l.mismatches);
        if !clean {
            assert!(!l.assertions.is_empty());
            failed += 1;
        }
    }
    assert!(failed > 0, "no assertion fired in 2000 cases of the break-asserts build");
}

/// A model whose `valid` comes out of reset as 1: the wrong reset value a register can have.
#[derive(Default)]
struct ValidOutOfReset(gcn_vmem_model::buffer_addr::BufferAddr, bool);

impl Unit for ValidOutOfReset {
    const NAME: &'static str = "buffer_addr";
    const LATENCY: usize = 2;
    type In = In;
    type Out = gcn_vmem_model::buffer_addr::Out;
    fn set_reset(&mut self, asserted: bool) -> Self::Out {
        self.1 = true;
        Self::Out { valid: true, ..self.0.set_reset(asserted) }
    }
    fn step(&mut self, input: &In) -> Self::Out {
        let out = self.0.step(input);
        // Until the first edge with reset released moves a valid input through.
        if std::mem::take(&mut self.1) {
            Self::Out { valid: true, ..out }
        } else {
            out
        }
    }
}

/// Outputs are compared while reset is asserted, across the edge it is held for, and right
/// after it is released, before any further edge — so a register that leaves reset with the
/// wrong value is caught even when the first edge would overwrite it.
#[test]
fn outputs_are_compared_during_and_right_after_reset() {
    let rtl = gcn_vmem::bindings::buffer_addr::Rtl::open(&RtlOptions::default()).unwrap();
    let mut l = Lockstep::new(ValidOutOfReset::default(), rtl);
    assert!(!l.run(&[]));
    let at: Vec<At> = l.mismatches.iter().map(|m| m.at).collect();
    assert_eq!(at[..3], [At::ResetAsserted, At::ResetEdge, At::ResetReleased], "{:?}", l.mismatches);
    assert!(l.mismatches.iter().all(|m| m.signal == 0 && m.expected == 1 && m.actual == 0));

    // The same check inside a run: a pulse between two edges, then a held reset.
    let idle = In::default();
    let steps = [Step::from(idle), Step { reset: Reset::Pulse, input: idle }, Step { reset: Reset::Hold, input: idle }];
    let mut l = Lockstep::new(ValidOutOfReset::default(), l.rtl);
    assert!(!l.run_steps(&steps));
    let in_run: Vec<(u64, At)> = l.mismatches.iter().filter(|m| m.cycle > 0).map(|m| (m.cycle, m.at)).collect();
    assert!(in_run.contains(&(1, At::ResetAsserted)), "{in_run:?}");
    assert!(in_run.contains(&(1, At::ResetReleased)), "{in_run:?}");
    assert!(in_run.contains(&(2, At::ResetAsserted)), "{in_run:?}");
    assert!(in_run.contains(&(3, At::ResetReleased)), "{in_run:?}");
}

/// A run that is not recorded drives the model through the whole case first and the RTL after it
/// (cosim/engine/lockstep.rs `run_steps_with`); a recorded run, and one made `cycle_by_cycle` (a
/// binding's `SIDE_BY_SIDE = false`), alternate every cycle. All must find the same mismatches
/// and assertion failures, at the same cycles and evaluations, in the same order: checked on the
/// break-asserts and mutant builds (which differ from the model at edges and fire assertions), on
/// cases with pulsed and held resets, and with a model that is wrong only at the reset
/// evaluations.
#[test]
fn a_run_side_by_side_finds_what_a_cycle_by_cycle_run_finds() {
    let mut faults = (0, 0);
    for variant in [Variant::BreakAsserts, Variant::Mutant] {
        let options = RtlOptions { variant, ..RtlOptions::default() };
        let open = || gcn_vmem::bindings::buffer_addr::Rtl::open(&options).unwrap();
        let mut batched = Lockstep::new(gcn_vmem_model::buffer_addr::BufferAddr::default(), open());
        let mut recorded = Lockstep::new(gcn_vmem_model::buffer_addr::BufferAddr::default(), open()).recording();
        let mut alternating =
            Lockstep::new(gcn_vmem_model::buffer_addr::BufferAddr::default(), open()).cycle_by_cycle();
        for case in cases(300) {
            let clean = (batched.run_steps(&case), recorded.run_steps(&case), alternating.run_steps(&case));
            assert_eq!((clean.0, clean.0), (clean.1, clean.2));
            assert_eq!(batched.mismatches, recorded.mismatches);
            assert_eq!(batched.assertions, recorded.assertions);
            assert_eq!(batched.mismatches, alternating.mismatches);
            assert_eq!(batched.assertions, alternating.assertions);
            assert_eq!(batched.cycles(), recorded.cycles());
            faults.0 += batched.mismatches.len();
            faults.1 += batched.assertions.len();
        }
    }
    assert!(faults.0 > 0 && faults.1 > 0, "the broken builds produced no mismatch or no assertion: {faults:?}");

    let rtl = || gcn_vmem::bindings::buffer_addr::Rtl::open(&RtlOptions::default()).unwrap();
    let idle = In::default();
    let steps = [Step::from(idle), Step { reset: Reset::Pulse, input: idle }, Step { reset: Reset::Hold, input: idle }];
    let mut batched = Lockstep::new(ValidOutOfReset::default(), rtl());
    let mut recorded = Lockstep::new(ValidOutOfReset::default(), rtl()).recording();
    assert!(!batched.run_steps(&steps) && !recorded.run_steps(&steps));
    assert_eq!(batched.mismatches, recorded.mismatches);
    assert!(batched.mismatches.iter().any(|m| m.cycle > 0 && m.at == At::ResetReleased));
}

/// Mid-run resets travel through vector files, the trace, both waveforms and the mismatch lines.
#[test]
fn mid_run_resets_replay_from_vector_files_into_both_waveforms() {
    let dir = common::scratch("resets");
    let file = dir.join("resets.jsonl");
    let line = r#""vsharp":"0x00020000000001008010000000001000","inst_offset":6,"offen":false,"idxen":true,"access":"non_format","bytes":2,"lds":false,"sgpr_offset":0,"vgpr_index":10,"vgpr_offset":0,"tid":0,"m0":0,"lds_base":0,"lds_size":0"#;
    std::fs::write(
        &file,
        format!("{{{line}}}\n{{\"reset\":\"pulse\",{line}}}\n{{{line}}}\n{{\"reset\":\"hold\",{line}}}\n{{{line}}}\n"),
    )
    .unwrap();
    let steps: Vec<Step<In>> = vectors::read_file(&file).unwrap();
    let resets: Vec<Reset> = steps.iter().map(|s| s.reset).collect();
    assert_eq!(resets, [Reset::None, Reset::Pulse, Reset::None, Reset::Hold, Reset::None]);
    assert_eq!(vectors::read_file::<In>(&file).unwrap(), steps);
    assert_eq!(vectors::to_text(&steps).lines().filter(|l| l.contains("\"reset\"")).count(), 2);

    let wave = dir.join("resets.fst");
    let r = replay::replay::<Harness>(&steps, &RtlOptions::default(), Some(&file), Some(&wave)).unwrap();
    assert!(r.lines.is_empty(), "{:?}", r.lines);
    assert!(r.trace.contains("0001 rst=pulse in:") && r.trace.contains("0003 rst=hold in:"), "{}", r.trace);

    // rst_ni: released at start, falls at 0, rises at 3 (opening reset); cycle 0 at 4/5; the
    // pulse falls at 6 and rises at 7; cycle 1 at 8/9, cycle 2 at 10/11; the hold falls at 12,
    // cycle 3 at 13/14; it rises at 15 before cycle 4.
    let want = [(0, 0), (3, 1), (6, 0), (7, 1), (12, 0), (15, 1)];
    let mut fst = wellen::simple::read(&wave).unwrap();
    let mut diff = wellen::simple::read(dir.join("resets.diff.vcd")).unwrap();
    let rtl_rst = changes(&mut fst, "rst_ni");
    let diff_rst = changes(&mut diff, "rst_ni");
    for (t, v) in want {
        assert_eq!(value_at(&rtl_rst, t), v, "RTL rst_ni at {t}: {rtl_rst:?}");
        assert_eq!(value_at(&diff_rst, t), v, "diff rst_ni at {t}: {diff_rst:?}");
    }
    // The valid output: the pulse clears it at once; the held cycle's input is lost.
    let rtl_valid = changes(&mut fst, "valid_o");
    let diff_valid = changes(&mut diff, "expected.valid");
    for t in 0..18 {
        assert_eq!(value_at(&rtl_valid, t), value_at(&diff_valid, t), "valid at time {t}");
    }
    // Cycle 0's input would reach valid_o at cycle 1's edge (9): the pulse cleared it first.
    assert_eq!(value_at(&diff_valid, 9), 0, "the pulse did not clear the first stage");
    // Cycle 1's input reaches it at cycle 2's edge (11); the held reset clears it at once (12).
    assert_eq!((value_at(&diff_valid, 11), value_at(&diff_valid, 12)), (1, 0));

    let bad = dir.join("bad_reset.jsonl");
    std::fs::write(&bad, format!("{{\"reset\":\"sometimes\",{line}}}\n")).unwrap();
    let e = vectors::read_file::<In>(&bad).unwrap_err().to_string();
    assert!(e.contains("bad_reset.jsonl:1") && e.contains("field `reset`"), "{e}");
}

/// Unknown initial state: with an X seed the RTL starts from random register values (visible
/// before the first reset), without one from zeros; either way a run from reset agrees with the
/// model, and the X run is reproducible from its seed.
#[test]
fn x_seeded_runs_start_random_and_agree_after_reset() {
    use gcn_vmem::bindings::buffer_addr::Rtl;
    let before_reset = |x_seed| {
        let mut rtl = Rtl::open(&RtlOptions { x_seed, ..RtlOptions::default() }).unwrap();
        rtl.set_reset(false)
    };
    assert_eq!(before_reset(None), gcn_vmem_model::buffer_addr::Out::default());
    let seeded: Vec<_> = (1..=4).map(|s| before_reset(Some(s))).collect();
    assert!(seeded.iter().any(|o| *o != gcn_vmem_model::buffer_addr::Out::default()), "{seeded:?}");
    assert_eq!(before_reset(Some(3)), seeded[2], "the X seed does not reproduce the state");

    let config = RunConfig {
        vectors: 20_000,
        seed: 5,
        jobs: 1,
        x_seed: Some(9),
        artifacts: common::scratch("xseed"),
        ..RunConfig::default()
    };
    let summary = run::random::<Harness>(&config).unwrap();
    assert_eq!(summary.failing_cases, 0, "{:?}", summary.failures);
}

/// A failure that needs the state earlier cases left behind is saved as those cases run back to
/// back (`case::concatenate`): on a correct RTL that one run shows every case exactly as the
/// cases run one by one did, each from its own reset.
#[test]
fn concatenated_cases_replay_each_case_as_run_alone() {
    let cases = cases(40);
    let latency = gcn_vmem_model::buffer_addr::BufferAddr::LATENCY;
    let mut alone = Vec::new();
    let mut l = Lockstep::new(
        gcn_vmem_model::buffer_addr::BufferAddr::default(),
        gcn_vmem::bindings::buffer_addr::Rtl::open(&RtlOptions::default()).unwrap(),
    )
    .recording();
    for case in &cases {
        assert!(l.run_steps(case));
        alone.push(l.record.take().unwrap());
        l.record = Some(Vec::new());
    }
    let sequence = case::concatenate(&cases, latency);
    assert!(l.run_steps(&sequence));
    let whole = l.record.take().unwrap();
    // Case n starts after n earlier cases, their idle tails and n opening-reset cycles.
    let mut at = 0;
    for (n, record) in alone.iter().enumerate() {
        if n > 0 {
            at += 1; // the held-reset cycle that opens case n
        }
        for (k, c) in record.iter().enumerate() {
            assert_eq!(whole[at + k].expected, c.expected, "case {n} cycle {k}");
        }
        at += cases[n].len() + latency;
    }
    assert_eq!(at + latency, whole.len());
}

/// A run's cases depend on (seed, chunk) alone — not on which worker draws them or how many
/// there are: regenerating a chunk gives the same cases, other chunks and seeds give others.
#[test]
fn random_cases_depend_on_the_seed_and_chunk_only() {
    let a = run::chunk_cases::<Harness>(3, 5, 0..20);
    assert_eq!(a.len(), 20);
    assert_eq!(a, run::chunk_cases::<Harness>(3, 5, 0..20));
    assert_eq!(a[7..], run::chunk_cases::<Harness>(3, 5, 7..20)[..]);
    assert_ne!(a, run::chunk_cases::<Harness>(3, 6, 0..20));
    assert_ne!(a, run::chunk_cases::<Harness>(4, 5, 0..20));
    // And a clean run finds nothing with one worker or several.
    for jobs in [1, 3] {
        let config = RunConfig { vectors: 20_000, seed: 9, jobs, ..RunConfig::default() };
        let summary = run::random::<Harness>(&config).unwrap();
        assert_eq!(summary.failing_cases, 0);
        assert!(summary.vectors >= 20_000);
    }
}

/// `RunConfig::time_phases` (the bench's breakdown of a cosim vector): off, a run reports no
/// phases; on, each phase of a side-by-side run took time, together no more than the run's
/// workers did, and the hits and vectors are those of the untimed run (timing changes nothing
/// it measures). A unit that alternates model and RTL every cycle (inline_const) reports its
/// model time inside the RTL's.
#[test]
fn a_timed_run_reports_where_its_time_went_and_runs_the_same() {
    let config = RunConfig { vectors: 20_000, seed: 4, jobs: 1, ..RunConfig::default() };
    let plain = run::random::<Harness>(&config).unwrap();
    assert_eq!(plain.phases, None);
    let timed = run::random::<Harness>(&RunConfig { time_phases: true, ..config.clone() }).unwrap();
    let phases = timed.phases.expect("a timed run reports its phases");
    assert!(!phases.interleaved);
    for (name, d) in [("generate", phases.generate), ("model", phases.model), ("rtl", phases.rtl)] {
        assert!(!d.is_zero(), "{name} took no time: {phases:?}");
    }
    assert!(phases.generate + phases.model + phases.rtl <= timed.elapsed, "{phases:?} in {:?}", timed.elapsed);
    assert_eq!((timed.vectors, timed.cycles, &timed.hits), (plain.vectors, plain.cycles, &plain.hits));

    let interleaved =
        run::random::<gcn_vmem::bindings::inline_const::Harness>(&RunConfig { time_phases: true, ..config })
            .unwrap()
            .phases
            .unwrap();
    assert!(interleaved.interleaved && interleaved.model.is_zero() && !interleaved.rtl.is_zero(), "{interleaved:?}");
}

// ---------------------------------------------------------------------------------------------
// Shards, JUnit reports and functional coverage (docs/checks.md "Shards").
// ---------------------------------------------------------------------------------------------

/// `--shard K/N` splits a run's chunks: the N shards together drive exactly the unsharded run —
/// the same vectors and cycles, the same failing cases (saved under the same names, since a case
/// depends on its seed and chunk only) and the same functional-coverage hits.
#[test]
fn the_shards_of_a_run_together_are_the_unsharded_run() {
    assert_eq!(run::shard_chunks(5 * stimulus::CHUNK_VECTORS - 1, None).collect::<Vec<_>>(), [0, 1, 2, 3, 4]);
    let shards = |n| -> Vec<Vec<u64>> {
        (1..=n)
            .map(|k| run::shard_chunks(5 * stimulus::CHUNK_VECTORS, Some(run::Shard { index: k, count: n })).collect())
            .collect()
    };
    assert_eq!(shards(2), [vec![0, 2, 4], vec![1, 3]]);
    assert!(shards(7)[5..].iter().all(Vec::is_empty), "shards past the chunks run nothing");
    for bad in ["0/3", "4/3", "3", "a/b", "1/0", ""] {
        assert!(bad.parse::<run::Shard>().is_err(), "{bad} was accepted");
    }
    assert_eq!("2/8".parse::<run::Shard>(), Ok(run::Shard { index: 2, count: 8 }));

    // A run with many failures (the mutant), saved as found so that every failing case is a file.
    let base = RunConfig {
        vectors: 3 * stimulus::CHUNK_VECTORS,
        seed: 11,
        jobs: 2,
        max_failures: 100_000,
        variant: Variant::Mutant,
        shrink: false,
        ..RunConfig::default()
    };
    let files = |dir: &Path| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir.join("buffer_addr"))
            .map(|d| d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect())
            .unwrap_or_default();
        names.retain(|n| n.ends_with(".jsonl"));
        names.sort();
        names
    };
    let whole_dir = common::scratch("shard_whole");
    let whole = run::random::<Harness>(&RunConfig { artifacts: whole_dir.clone(), ..base.clone() }).unwrap();
    assert!(whole.failing_cases > 0, "the mutant run found nothing to compare: {whole:?}");
    assert_eq!(whole.chunks, 3);
    let shard_dir = common::scratch("shard_parts");
    let parts: Vec<_> = (1..=2)
        .map(|k| {
            let shard = Some(run::Shard { index: k, count: 2 });
            run::random::<Harness>(&RunConfig { artifacts: shard_dir.clone(), shard, ..base.clone() }).unwrap()
        })
        .collect();
    assert_eq!(parts.iter().map(|p| p.chunks).collect::<Vec<_>>(), [2, 1]);
    assert_eq!(parts.iter().map(|p| p.vectors).sum::<u64>(), whole.vectors);
    assert_eq!(parts.iter().map(|p| p.cycles).sum::<u64>(), whole.cycles);
    assert_eq!(parts.iter().map(|p| p.failing_cases).sum::<u64>(), whole.failing_cases);
    assert_eq!(files(&shard_dir), files(&whole_dir));
    let mut hits = parts[0].hits.clone();
    hits.merge(&parts[1].hits);
    assert_eq!(hits, whole.hits);
}

/// `--junit` writes one test case per unit and suite; a failing vector is a <failure> carrying
/// its report line and the paths of its files.
#[test]
fn junit_report_lists_units_and_failures_with_their_files() {
    let dir = common::scratch("junit");
    let report = dir.join("reports").join("cosim.xml");
    let report_arg = report.to_str().unwrap();
    let args = ["cosim", "--unit", "buffer_addr", "--unit", "d16", "--vectors", "5000", "--seed", "5", "--no-progress"];
    let (code, stdout, _) = gcn_vmem(&[&args[..], &["--junit", report_arg]].concat(), "");
    assert_eq!(code, 0, "{stdout}");
    let xml = std::fs::read_to_string(&report).unwrap();
    assert!(xml.starts_with("<?xml"), "{xml}");
    assert!(xml.contains(r#"<testsuite name="random" tests="2" failures="0""#), "{xml}");
    assert!(xml.contains(r#"<testcase classname="random" name="d16""#), "{xml}");
    assert!(xml.contains(r#"<testsuite name="bins" tests="2""#), "{xml}");
    assert!(!xml.contains("<failure"), "{xml}");

    let (code, stdout, _) = gcn_vmem(&[&args[..], &["--mutant", "--junit", report_arg]].concat(), "");
    assert_eq!(code, 2, "d16 has no mutant build: {stdout}");
    let broken = ["cosim", "--unit", "buffer_addr", "--vectors", "5000", "--seed", "5", "--no-progress", "--mutant"];
    let (code, stdout, _) = gcn_vmem(&[&broken[..], &["--junit", report_arg]].concat(), "");
    assert_eq!(code, 1, "{stdout}");
    let xml = std::fs::read_to_string(&report).unwrap();
    assert!(xml.contains(r#"<testsuite name="random" tests="1" failures="1""#), "{xml}");
    let failure = xml.split("<failure ").nth(1).expect(&xml);
    assert!(failure.starts_with(r#"message="MISMATCH buffer_addr"#), "{failure}");
    assert!(failure.contains("vector: ") && failure.contains(".jsonl"), "{failure}");
    assert!(failure.contains("diff waveform: ") && failure.contains(".diff.gtkw"), "{failure}");
    // A report that cannot be written stops the command before it runs anything.
    let (code, stdout, stderr) = gcn_vmem(&[&args[..], &["--junit", "/proc/gcn-vmem-nowhere/r.xml"]].concat(), "");
    assert_eq!(code, 2, "{stdout}");
    assert!(stderr.contains("for --junit") && !stdout.contains("vectors/s"), "{stderr}{stdout}");
    // Well-formed XML whose one failing case is the mutant's unit.
    let doc = roxmltree::Document::parse(&xml).expect("the JUnit report is not well-formed XML");
    let failing: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase") && n.children().any(|c| c.has_tag_name("failure")))
        .filter_map(|n| n.attribute("name"))
        .collect();
    assert_eq!(failing, ["buffer_addr"], "{xml}");
}

/// Unhit bins are listed; they fail the run only when required (at the default budget,
/// unsharded, or with --require-bins); a unit's runs (random and X) count together.
#[test]
fn unhit_bins_are_listed_and_fail_only_when_required() {
    use gcn_vmem_model::cover::{Covered, Hits};
    let config = RunConfig { vectors: 1, seed: 3, jobs: 1, ..RunConfig::default() };
    let run = run::random::<Harness>(&config).unwrap();
    let group = <Harness as gcn_vmem::engine::UnitTypes>::Model::covergroup();
    let declared = group.bins();
    // The same run with no hits counted: every bin is a hole.
    let empty = run::Summary { hits: Hits::new(&group), ..run.clone() };
    for required in [false, true] {
        let rows = gcn_vmem::report::bins::report(std::slice::from_ref(&empty), required);
        assert_eq!(rows.len(), 1);
        assert_eq!((rows[0].hit, rows[0].declared, rows[0].unhit.len()), (0, declared, declared));
        assert_eq!(rows[0].passed, !required);
        assert!(rows[0].unhit.iter().any(|b| b.starts_with("access: ")), "{:?}", rows[0].unhit);
    }
    // Hits of another run of the unit fill the holes.
    let rows = gcn_vmem::report::bins::report(&[empty, run.clone()], true);
    assert_eq!(rows[0].hit, run.hits.hit_bins());

    let (code, stdout, _) =
        gcn_vmem(&["cosim", "--unit", "buffer_addr", "--vectors", "1", "--seed", "3", "--no-progress"], "");
    assert_eq!(code, 0, "holes never fail a run below the default budget: {stdout}");
    let row = stdout.lines().rev().find(|l| l.starts_with("buffer_addr") && l.contains(" bins ")).expect(&stdout);
    assert_eq!(row.split_whitespace().nth(1), Some(format!("{}/{declared}", rows[0].hit).as_str()), "{row}");
}

/// The lockstep run samples a fixed-latency unit's result with its input at the edge that
/// computes it (cosim/engine/cover.rs `result_cycle`, through the model's `computed` stage); a
/// unit without one (the coalescer's handshake, the pipeline) pairs through its binding. For
/// every unit of cosim/units.txt this counts exactly the hits of the pairing that remembers
/// inputs in flight and samples each result as it reaches the outputs (`fifo_cycle`), on the
/// same random cases (their resets, pulsed and held, idle cycles and drains included); and the
/// fixed-latency units, which all units but those two are, do pair by result.
#[test]
fn pairing_by_result_is_the_fifo_pairing() {
    use gcn_vmem::bindings::{with_unit, Visit, UNITS};
    use gcn_vmem::engine::cover::model_only_paired;
    use gcn_vmem::engine::Binding;
    use gcn_vmem_model::cover::Covered;
    struct Compare;
    impl Visit for Compare {
        type Output = (bool, u64);
        fn visit<B: Binding>(self) -> (bool, u64) {
            let (by_result, vectors) = model_only_paired::<B>(5, 0..6, true);
            let (fifo, fifo_vectors) = model_only_paired::<B>(5, 0..6, false);
            let name = <B::Model as Unit>::NAME;
            assert_eq!(vectors, fifo_vectors, "{name}");
            assert_eq!(by_result, fifo, "{name}: the two pairings count different hits");
            let total = (0..B::Model::covergroup().points.len()).map(|p| by_result.counts(p).iter().sum::<u64>()).sum();
            (B::Model::default().computed().is_some(), total)
        }
    }
    let mut fixed = Vec::new();
    for unit in UNITS {
        let (by_result, total) = with_unit(unit, Compare).unwrap();
        // (The pipeline's random cases are few and long: its 6 chunks count tens of hits.)
        let least = if by_result { 1000 } else { 10 };
        assert!(total >= least, "{unit}: only {total} hits; the comparison saw too little");
        if by_result {
            fixed.push(*unit);
        }
    }
    let handshake = ["coalescer", "vmem_pipe"];
    assert_eq!(fixed, UNITS.iter().copied().filter(|u| !handshake.contains(u)).collect::<Vec<_>>());
}

/// SPEC §14 "Hardware, not only behaviour": test-only code stays out of the design. A unit of
/// several builds declares no parameter (its break-asserts corruption and mutant are test hooks,
/// rtl/test/<unit>_brk.svh and <unit>_mut.svh, compiled only into those builds), names no
/// `TestBreak` switch, and holds its break-asserts hook point. (The pipeline, `builds=one`, keeps
/// its test-only parameters for now.)
#[test]
fn test_hooks_stay_out_of_the_design() {
    use gcn_vmem::bindings::{properties, UNITS};
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for unit in UNITS.iter().filter(|u| !properties(u).unwrap().one_build) {
        let text = std::fs::read_to_string(root.join(format!("rtl/{unit}.sv"))).unwrap();
        let code: String = text.lines().map(|l| l.split("//").next().unwrap()).collect::<Vec<_>>().join("\n");
        assert!(!code.contains("parameter"), "rtl/{unit}.sv declares a parameter");
        assert!(!text.contains("TestBreak"), "rtl/{unit}.sv names a TestBreak switch");
        assert_eq!(code.matches(&format!("`VMEM_TEST_HOOK({unit}_brk)")).count(), 1, "rtl/{unit}.sv: its hook point");
        assert!(root.join(format!("rtl/test/{unit}_brk.svh")).is_file(), "rtl/test/{unit}_brk.svh");
    }
}
