//! `gcn-vmem exec` documents (SPEC §13.1) end to end: parsed, assembled or decoded, run on the
//! models, on the RTL and on both in lockstep; expected values worked out by hand from SPEC.

use gcn_vmem::exec::program::{self, Mode};
use serde_json::{json, Value};

/// The V# of SPEC §1.1 as the `s[a:b]` hex value (dword 0 = bits 31:0 in s_a): base 0x1000,
/// stride 0, 64 records (bytes), dst_sel XYZW, nfmt 4 (uint), dfmt 4 (32): bound, raw.
fn vsharp_hex() -> String {
    let v: u128 = 0x1000 | 64u128 << 64 | (4 | 5 << 3 | 6 << 6 | 7 << 9) << 96 | 4u128 << 108 | 4u128 << 111;
    format!("{v:#034x}")
}

fn lanes(f: impl Fn(usize) -> u32) -> Value {
    Value::Array((0..64).map(|l| json!(f(l))).collect())
}

fn document(program: Value) -> String {
    json!({
        "sgprs": {"s[4:7]": vsharp_hex()},
        "vgprs": {"v1": lanes(|l| 4 * l as u32), "v2": "0xaabbccdd"},
        "exec": "0x3",
        "memory": [{"address": 0x1000, "data": "0100000002000000"}],
        "program": program,
    })
    .to_string()
}

#[test]
fn a_load_and_a_store_on_the_models_the_rtl_and_both() {
    // Lanes 0 and 1: offsets 0 and 4 -> dwords 1 and 2. Then both store 0xaabbccdd at
    // offset + 8: bytes 0x1008..0x100f (in range: 15 < 64), little-endian.
    let doc = document(json!([
        "buffer_load_dword v5, v1, s[4:7], 0 offen",
        {"encoding": "0xe0701008 0x80010201"}, // buffer_store_dword v2, v1, s[4:7], 0 offen offset:8
    ]));
    let mut v5 = vec![json!(0); 64];
    v5[0] = json!(1);
    v5[1] = json!(2);
    let want = json!({
        "vgprs": {"v5": v5},
        "memory": [{"address": 0x1008, "data": "ddccbbaaddccbbaa"}],
        "lds": [],
    });
    for mode in [Mode::Model, Mode::Rtl, Mode::Both] {
        assert_eq!(program::execute(&doc, mode), Ok(want.clone()), "{mode:?}");
    }
}

#[test]
fn errors_name_the_instruction_and_the_rule_and_apply_nothing() {
    let e = program::execute(
        &document(json!(["buffer_load_dword v5, v1, s[4:7], 0 offen", "buffer_frobnicate v1"])),
        Mode::Model,
    )
    .unwrap_err();
    let e = e["error"].as_str().unwrap();
    assert!(e.starts_with("instruction 1 (`buffer_frobnicate v1`)"), "{e}");

    let e =
        program::execute(&document(json!(["image_sample v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf"])), Mode::Model)
            .unwrap_err();
    assert!(e["error"].as_str().unwrap().contains("sampling"), "{e}");

    for (doc, what) in [
        (r#"{"program": [], "registers": {}}"#, "unknown key `registers`"),
        (r#"{"vgprs": {"v256": 1}, "program": []}"#, "v256"),
        (r#"{"vgprs": {"v1": [1, 2]}, "program": []}"#, "expected 64 values"),
        (r#"{"memory": [{"address": 1, "data": "abc"}], "program": []}"#, "odd number"),
        // A character of two bytes: an error, not a panic slicing the string inside it.
        (r#"{"program": [], "memory": [{"address": 0, "data": "aéb"}]}"#, r#"memory[0].data: "aéb" is not hex"#),
        (r#"{"sgprs": {"s[4:7]": "0x1ffffffffffffffffffffffffffffffff"}, "program": []}"#, "does not fit"),
        (r#"{"program": [{"encoding": "0xe0501000"}]}"#, "instruction 0"),
        ("{", "malformed JSON"),
    ] {
        let e = program::execute(doc, Mode::Model).unwrap_err();
        assert!(e["error"].as_str().unwrap().contains(what), "{doc}: {e}");
    }
}

#[test]
fn vector_memory_round_trip_through_an_image() {
    // 2D RGBA8 unorm T# in s[8:15]: base 0x2000 (field 0x20), 4 × 4, pitch 4, one level.
    let lo: u128 =
        0x20 | 10u128 << 52 | 3u128 << 64 | 3u128 << 78 | (4 | 5 << 3 | 6 << 6 | 7 << 9) << 96 | 9u128 << 124;
    let hi: u128 = 3u128 << 13; // pitch − 1 = 3, depth − 1 = 0, max_mip 0
    let doc = json!({
        "sgprs": {"s[8:11]": format!("{lo:#034x}"), "s[12:15]": format!("{hi:#034x}")},
        "vgprs": {"v1": 1, "v2": 2, "v5": "0x3f800000", "v6": "0x3f000000"},
        "exec": "0x1",
        "program": [
            // DMASK 1001: R = 1.0 -> 0xff, A = 0.5 -> 128; G = B = 0. Texel (1, 2):
            // 0x2000 + (2 · 4 + 1) · 4 = 0x2024.
            "image_store v[5:6], v[1:2], s[8:15] dmask:0x9 unorm",
            "image_load v[5:6], v[1:2], s[8:15] dmask:0x9 unorm",
        ],
    })
    .to_string();
    let out = program::execute(&doc, Mode::Both).unwrap();
    // Only bytes whose value changed are reported: G and B were 0 and stay 0.
    assert_eq!(out["memory"], json!([{"address": 0x2024, "data": "ff"}, {"address": 0x2027, "data": "80"}]));
    // Read back: R = 255/255 = 1.0, A = 128/255 = 0x3f008081.
    assert_eq!(out["vgprs"]["v5"][0], json!(0x3f80_0000u32));
    assert_eq!(out["vgprs"]["v6"][0], json!(0x3f00_8081u32));
}

/// The random-program suite: clean on the RTL as written; against the test-only buffer_addr
/// mutant it finds a program whose unit batches part, shrinks it to one instruction, saves it as
/// an exec file that decodes and, run again on the mutant, fails the same way (and, on the models
/// alone, runs or stops only at a §2.3-illegal swizzled access).
#[test]
fn random_programs_agree_and_a_mutant_is_found_shrunk_and_saved() {
    use gcn_vmem::engine::RtlOptions;
    use gcn_vmem::engine::Variant;
    use gcn_vmem::exec::backends::LockstepBackend;
    use gcn_vmem::exec::backends::UnitOptions;
    use gcn_vmem::exec::suite::{case_of, first_failure, run_suite};

    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("exec_suite");
    let _ = std::fs::remove_dir_all(&dir);
    let clean = run_suite(300, 6, 7, &dir, &UnitOptions::default(), 2).unwrap();
    assert!(clean.failures.is_empty(), "{:?}", clean.failures.first().map(|f| &f.line));
    assert_eq!(clean.programs, 300);
    eprintln!(
        "{} instructions drawn, {} executed; stopped by: {:#?}",
        clean.instructions, clean.executed, clean.errors
    );
    // Most programs run to the end: illegal combinations are a minority of what is drawn.
    assert!(clean.executed * 2 > clean.instructions, "{clean:?}");

    let mutant = UnitOptions {
        buffer_addr: RtlOptions { variant: Variant::Mutant, ..RtlOptions::default() },
        ..UnitOptions::default()
    };
    let found = run_suite(3000, 6, 7, &dir, &mutant, 2).unwrap();
    let failure = found.failures.first().expect("the mutant survived 3000 random programs");
    assert!(failure.line.starts_with("PROGRAM exec instruction=0 "), "{}", failure.line);
    assert!(failure.line.contains("unit=buffer_addr"), "{}", failure.line);
    assert!(failure.line.contains(&format!("repro: gcn-vmem exec {} --both", failure.file.display())));
    let text = std::fs::read_to_string(&failure.file).unwrap();
    let saved = program::parse(&text).unwrap();
    assert_eq!(saved.instructions.len(), 1, "not shrunk to one instruction");
    let case = case_of(&saved).unwrap();
    let mut backend = LockstepBackend::open_with(&mutant).unwrap();
    assert!(first_failure(&case, &mut backend).is_some(), "the saved program does not fail on the mutant");
    // On the models alone it runs, or stops at an access that SPEC §2.3 marks illegal (§13.1):
    // the unit computes an illegal swizzled access's address all the same (§2.3), so the
    // mutant's wrong address is a real difference even there.
    match program::execute(&text, Mode::Model) {
        Ok(_) => {}
        Err(e) => assert!(e["error"].as_str().is_some_and(|m| m.contains("SPEC §2.3")), "{e}"),
    }
}

/// A whole-program trace, snapshot-compared (tests/snapshots/, reviewed by a human): one program
/// of every class the suite draws, run with --both; per instruction its LLVM text and what it
/// changed (VGPRs of the active lanes, memory, LDS).
#[test]
fn whole_program_trace_snapshot() {
    use gcn_vmem::exec::backends::LockstepBackend;
    use gcn_vmem::exec::suite::draw_cases;
    use gcn_vmem_model::exec;
    use gcn_vmem_model::isa;

    let mut backend = LockstepBackend::open().unwrap();
    let mut trace = String::new();
    // Seed 28: programs that write memory and VGPRs and stop on executor errors, one of them a
    // §2.3-illegal swizzled access (§13.1).
    for (p, case) in draw_cases(6, 4, 28).iter().enumerate() {
        let mut wave = case.wave.clone();
        wave.exec &= 0xf; // four lanes keep the trace readable
        trace.push_str(&format!("program {p}: exec {:#x}\n", wave.exec));
        for inst in &case.program {
            let before = wave.clone();
            wave.written = vec![false; exec::VGPRS];
            let result = exec::run(&mut wave, inst, &mut backend);
            trace.push_str(&format!("  {}\n", isa::disassemble(inst)));
            if let Err(e) = result {
                trace.push_str(&format!("    error: {e}\n"));
                break;
            }
            let out = program::output(&before, &wave);
            for (v, lanes) in out["vgprs"].as_object().unwrap() {
                let shown: Vec<String> = (0..4)
                    .filter(|l| wave.exec >> l & 1 != 0)
                    .map(|l| format!("{l}:{:#010x}", lanes[l].as_u64().unwrap()))
                    .collect();
                trace.push_str(&format!("    {v} {}\n", shown.join(" ")));
            }
            for kind in ["memory", "lds"] {
                for run in out[kind].as_array().unwrap() {
                    trace.push_str(&format!(
                        "    {kind} {:#x}: {}\n",
                        run["address"].as_u64().unwrap(),
                        run["data"].as_str().unwrap()
                    ));
                }
            }
        }
    }
    assert!(backend.log.failures.is_empty(), "{:?}", backend.log.failures);
    insta::assert_snapshot!(trace);
}

/// The random program suite spreads its chunks over threads, and what it reports
/// depends on the seed only. Without a bug: the same counts with one, two and five threads. With
/// buffer_addr's test-only mutant (swizzled addresses wrong): the same first failing program,
/// shrunk to the same saved file, and the same counts up to it.
#[test]
fn program_suite_results_do_not_depend_on_jobs() {
    use gcn_vmem::engine::{RtlOptions, Variant};
    use gcn_vmem::exec::backends::UnitOptions;
    use gcn_vmem::exec::suite::{run_suite, SUITE_CHUNK};

    let counts = |s: &gcn_vmem::exec::suite::SuiteSummary| {
        (s.programs, s.instructions, s.executed, s.errors.clone(), s.failures.len())
    };
    let dir = crate::common::scratch("suite_jobs");
    let programs = 3 * SUITE_CHUNK + 17;
    let runs: Vec<_> = [1, 2, 5]
        .iter()
        .map(|&jobs| {
            run_suite(programs, 6, 0x2121, &dir.join(format!("clean{jobs}")), &UnitOptions::default(), jobs).unwrap()
        })
        .collect();
    assert_eq!(runs[0].programs, programs);
    assert!(runs[0].failures.is_empty(), "{:?}", runs[0].failures);
    for r in &runs[1..] {
        assert_eq!(counts(r), counts(&runs[0]));
    }

    let mutant = UnitOptions {
        buffer_addr: RtlOptions { variant: Variant::Mutant, ..RtlOptions::default() },
        ..UnitOptions::default()
    };
    let failing: Vec<_> = [1, 3]
        .iter()
        .map(|&jobs| run_suite(20 * SUITE_CHUNK, 6, 0x2121, &dir.join(format!("mutant{jobs}")), &mutant, jobs).unwrap())
        .collect();
    let file = |s: &gcn_vmem::exec::suite::SuiteSummary| {
        assert_eq!(s.failures.len(), 1, "the mutant is caught, once");
        (s.failures[0].file.file_name().unwrap().to_owned(), std::fs::read_to_string(&s.failures[0].file).unwrap())
    };
    assert!(failing[0].programs < 20 * SUITE_CHUNK, "the suite stops at the failing program");
    assert_eq!(counts(&failing[1]), counts(&failing[0]));
    assert_eq!(file(&failing[1]), file(&failing[0]));
}
