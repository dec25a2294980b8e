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
    // Seed 184: programs that write memory and VGPRs and stop on executor errors, one of them a
    // §2.3-illegal swizzled access (§13.1), and image instructions on a tiled (64KB_S) T#.
    for (p, case) in draw_cases(6, 4, 184).iter().enumerate() {
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

// ---------------------------------------------------------------------------------------------
// Tiled surfaces (SPEC §4.5) and the sw_mode errors (§4.5, §13.1). Memory is laid out by hand at
// the addresses §4.5's formula gives, worked out in each test's comments.

/// A 256-bit T# (SPEC §1.2's bit table, written here from the spec) as the `sgprs` entries
/// `s[8:11]` and `s[12:15]`: dst_sel XYZW, base_level 0, `levels` − 1 as last_level and max_mip,
/// `sw_mode` at bits 120:116.
struct Image {
    base256: u64,
    dfmt: u8,
    nfmt: u8,
    kind: u8,
    width: u32,
    height: u32,
    pitch: u32,
    depth: u32,
    levels: u8,
    sw_mode: u8,
}

impl Image {
    /// A 2D uint image of one level.
    fn new_2d(base256: u64, dfmt: u8, (width, height): (u32, u32), sw_mode: u8) -> Image {
        Image { base256, dfmt, nfmt: 4, kind: 9, width, height, pitch: width, depth: 1, levels: 1, sw_mode }
    }

    fn sgprs(&self) -> Value {
        let mut lo = u128::from(self.base256) | u128::from(self.dfmt) << 52 | u128::from(self.nfmt) << 58;
        lo |= u128::from(self.width - 1) << 64 | u128::from(self.height - 1) << 78;
        lo |= u128::from(4u32 | 5 << 3 | 6 << 6 | 7 << 9) << 96;
        lo |= u128::from(self.levels - 1) << 112 | u128::from(self.sw_mode) << 116 | u128::from(self.kind) << 124;
        let hi = u128::from(self.depth - 1) | u128::from(self.pitch - 1) << 13 | u128::from(self.levels - 1) << 60;
        json!({"s[8:11]": format!("{lo:#034x}"), "s[12:15]": format!("{hi:#034x}")})
    }
}

/// A per-lane VGPR value: `values[l]` for the first lanes, 0 after.
fn per_lane(values: &[u32]) -> Value {
    lanes(|l| values.get(l).copied().unwrap_or(0))
}

/// An exec document over `image` (T# in s[8:15]) with the lanes `exec`, VGPRs and memory given.
fn image_document(image: &Image, exec: u64, vgprs: Value, memory: Value, program: Value) -> String {
    json!({"sgprs": image.sgprs(), "vgprs": vgprs, "exec": format!("{exec:#x}"), "memory": memory, "program": program})
        .to_string()
}

/// The 64-lane list of a result VGPR: `values[l]` for the first lanes, 0 after.
fn expect_lanes(values: &[u32]) -> Value {
    per_lane(values)
}

#[test]
fn image_load_from_a_4kb_s_32_bit_surface_reads_the_tiled_address() {
    // 4KB_S (sw_mode 5), dfmt 4 (32) uint, 64 × 64, pitch 64, base 0x10000 (field 0x100).
    // §4.5, 4-byte elements (e = 2): bits 2..7 = x0 x1 y0 y1 y2 x2; bits 8..11 (K = 12) = y3 x3
    // y4 x4: a block is 32 × 32 texels; P_0 = ⌈64/32⌉ = 2 blocks a row.
    // - lane 0, (37, 45): block (45/32)·2 + 37/32 = 3 → 0x3000; within(5, 13): x = 0b00101,
    //   y = 0b01101: bit 2 (x0) 4 + bit 4 (y0) 16 + bit 6 (y2) 64 + bit 7 (x2) 128 + bit 8 (y3) 256
    //   = 0x1d4 → 0x131d4 (linear would be 0x10000 + (45·64 + 37)·4 = 0x12d94);
    // - lane 1, (1, 0): x0 → bit 2 → 0x10004; lane 2, (0, 1): y0 → bit 4 → 0x10010;
    // - lane 3, (8, 0): x3 → bit 9 → 0x10200; lane 4, (0, 8): y3 → bit 8 → 0x10100;
    // - lane 5, (64, 0): x >= width_0 = 64: out of range, 0 (§4.4).
    let image = Image::new_2d(0x100, 4, (64, 64), 5);
    let words = [(0x131d4, "d4c3b2a1"), (0x10004, "01000000"), (0x10010, "02000000"), (0x10200, "03000000")];
    let mut memory: Vec<Value> = words.iter().map(|(a, d)| json!({"address": a, "data": d})).collect();
    memory.push(json!({"address": 0x10100, "data": "04000000"}));
    // Linear-layout decoys: lane 0's linear address and lane 1's neighbours hold other values.
    memory.push(json!({"address": 0x12d94, "data": "eeeeeeee"}));
    let doc = image_document(
        &image,
        0x3f,
        json!({"v4": per_lane(&[37, 1, 0, 8, 0, 64]), "v5": per_lane(&[45, 0, 1, 0, 8, 0])}),
        Value::Array(memory),
        json!(["image_load v0, v[4:5], s[8:15] dmask:0x1 unorm"]),
    );
    let out = program::execute(&doc, Mode::Model).unwrap();
    assert_eq!(out["vgprs"]["v0"], expect_lanes(&[0xa1b2_c3d4, 1, 2, 3, 4, 0]));
}

#[test]
fn sw_mode_0_is_the_linear_layout_unchanged() {
    // The same surface linear (sw_mode 0): (37, 45) at 0x10000 + (45·64 + 37)·4 = 0x12d94 (§4.4),
    // (1, 0) at 0x10004.
    let image = Image::new_2d(0x100, 4, (64, 64), 0);
    let doc = image_document(
        &image,
        0x3,
        json!({"v4": per_lane(&[37, 1]), "v5": per_lane(&[45, 0])}),
        json!([{"address": 0x131d4, "data": "d4c3b2a1"}, {"address": 0x12d94, "data": "eeeeeeee"},
               {"address": 0x10004, "data": "01000000"}]),
        json!(["image_load v0, v[4:5], s[8:15] dmask:0x1 unorm"]),
    );
    let out = program::execute(&doc, Mode::Model).unwrap();
    assert_eq!(out["vgprs"]["v0"], expect_lanes(&[0xeeee_eeee, 1]));
}

#[test]
fn image_store_to_a_256b_s_8_bit_surface_writes_the_tiled_bytes() {
    // 256B_S (sw_mode 1), dfmt 1 (8) uint, 40 × 20, pitch 40, base 0x20000 (field 0x200).
    // §4.5, 1-byte elements: bits 0..7 = x0 x1 x2 x3 y0 y1 y2 y3, K = 8: one 16 × 16 micro-block
    // a block, within(x, y) = x + 16·y; P_0 = ⌈40/16⌉ = 3.
    // - lane 0, (35, 17), 0xab: block (17/16)·3 + 35/16 = 5 → 0x500; within(3, 1) = 19 = 0x13
    //   → 0x20513;
    // - lane 1, (17, 2), 0xcd: block 1 → 0x100; within(1, 2) = 33 = 0x21 → 0x20121;
    // - lane 2, (40, 0), 0xef: x >= 40, dropped (§4.4).
    let image = Image::new_2d(0x200, 1, (40, 20), 1);
    let doc = image_document(
        &image,
        0x7,
        json!({"v0": per_lane(&[0xab, 0xcd, 0xef]), "v4": per_lane(&[35, 17, 40]), "v5": per_lane(&[17, 2, 0])}),
        json!([]),
        json!(["image_store v0, v[4:5], s[8:15] dmask:0x1 unorm"]),
    );
    for mode in [Mode::Model, Mode::Both] {
        let out = program::execute(&doc, mode).unwrap();
        assert_eq!(
            out["memory"],
            json!([{"address": 0x20121, "data": "cd"}, {"address": 0x20513, "data": "ab"}]),
            "{mode:?}"
        );
    }
}

#[test]
fn image_load_from_a_64kb_s_16_byte_surface() {
    // 64KB_S (sw_mode 9), dfmt 14 (32_32_32_32) uint, 100 × 70, pitch 100, base 0x1000000 (field
    // 0x10000). §4.5, 16-byte elements (e = 4): bits 4..7 = y0 y1 x0 x1; bits 8..15 (K = 16) =
    // y2 x2 y3 x3 y4 x4 y5 x5: a block is 64 × 64 texels; P_0 = ⌈100/64⌉ = 2.
    // Lane 0, (70, 66): block (66/64)·2 + 70/64 = 3 → 0x30000; within(6, 2): x = 0b110, y = 0b10:
    // bit 5 (y1) 0x20 + bit 7 (x1) 0x80 + bit 9 (x2) 0x200 = 0x2a0 → 0x10302a0.
    // Lane 1, (70, 70): y >= height_0 = 70, out of range: zeros.
    let image = Image::new_2d(0x10000, 14, (100, 70), 9);
    let doc = image_document(
        &image,
        0x3,
        json!({"v4": per_lane(&[70, 70]), "v5": per_lane(&[66, 70])}),
        json!([{"address": 0x10302a0, "data": "11111111222222223333333344444444"}]),
        json!(["image_load v[0:3], v[4:5], s[8:15] dmask:0xf unorm"]),
    );
    for mode in [Mode::Model, Mode::Both] {
        let out = program::execute(&doc, mode).unwrap();
        for (v, want) in [("v0", 0x1111_1111u32), ("v1", 0x2222_2222), ("v2", 0x3333_3333), ("v3", 0x4444_4444)] {
            assert_eq!(out["vgprs"][v], expect_lanes(&[want, 0]), "{mode:?} {v}");
        }
    }
}

#[test]
fn a_tiled_2d_array_addresses_its_slice_in_whole_blocks() {
    // 4KB_S (sw_mode 5), 2D array (type 13), dfmt 11 (32_32) uint, 40 × 20, pitch 40, 3 layers,
    // base 0x40000 (field 0x400). §4.5, 8-byte elements (e = 3): bits 3..7 = x0 y0 y1 x1 x2;
    // bits 8..11 = y2 x3 y3 x4: a block is 32 × 16; P_0 = ⌈40/32⌉ = 2, R_0 = ⌈20/16⌉ = 2.
    // Lane 0, (33, 17, slice 2), DA: block ((2·2 + 17/16)·2 + 33/32) = 11 → 0xb000;
    // within(1, 1) = bit 3 (x0) 8 + bit 4 (y0) 16 = 0x18 → 0x4b018.
    // Lane 1, slice 3 >= 3 layers: out of range, zeros. Lane 2, the same (33, 17, 2) without DA:
    // slice 0 (§4.1): block (0·2 + 1)·2 + 1 = 3 → 0x3000 + 0x18 → 0x43018.
    let image = Image { kind: 13, depth: 3, ..Image::new_2d(0x400, 11, (40, 20), 5) };
    let doc = image_document(
        &image,
        0x3,
        json!({"v4": per_lane(&[33, 33]), "v5": per_lane(&[17, 17]), "v6": per_lane(&[2, 3])}),
        json!([{"address": 0x4b018, "data": "0100000002000000"}, {"address": 0x43018, "data": "0300000004000000"}]),
        json!([
            "image_load v[0:1], v[4:6], s[8:15] dmask:0x3 unorm da",
            "image_load v[2:3], v[4:6], s[8:15] dmask:0x3 unorm"
        ]),
    );
    for mode in [Mode::Model, Mode::Both] {
        let out = program::execute(&doc, mode).unwrap();
        assert_eq!([&out["vgprs"]["v0"], &out["vgprs"]["v1"]], [&expect_lanes(&[1, 0]), &expect_lanes(&[2, 0])]);
        assert_eq!([&out["vgprs"]["v2"], &out["vgprs"]["v3"]], [&expect_lanes(&[3, 3]), &expect_lanes(&[4, 4])]);
    }
}

#[test]
fn a_tiled_level_1_starts_after_level_0s_whole_blocks() {
    // 4KB_S (sw_mode 5), dfmt 4 (32) uint, 20 × 10, pitch 20, levels 0..1, base 0x50000 (field
    // 0x500). Blocks of 32 × 32 (as in the 4KB_S test above). Level 0: P_0 = ⌈20/32⌉ = 1,
    // R_0 = ⌈10/32⌉ = 1: S_0 = 1·1·1·4096, so mip_offset(1) = 0x1000 (linear: 20·10·4 = 0x320).
    // Level 1 is 10 × 5, pitch 10. Lane 0, (9, 4) of mip 1: block 0; within(9, 4): x = 0b1001,
    // y = 0b100: bit 2 (x0) 4 + bit 6 (y2) 64 + bit 9 (x3) 512 = 0x244 → 0x51244.
    // Lane 1, (10, 0) of mip 1: x >= width_1 = 10, zeros. Lane 2, (9, 4) of mip 2: no level 2.
    let image = Image { levels: 2, ..Image::new_2d(0x500, 4, (20, 10), 5) };
    let doc = image_document(
        &image,
        0x7,
        json!({"v4": per_lane(&[9, 10, 9]), "v5": per_lane(&[4, 0, 4]), "v6": per_lane(&[1, 1, 2])}),
        json!([{"address": 0x51244, "data": "78563412"}, {"address": 0x50244, "data": "eeeeeeee"}]),
        json!([
            "image_load_mip v0, v[4:6], s[8:15] dmask:0x1 unorm",
            "image_get_resinfo v[1:4], v6, s[8:15] dmask:0xf"
        ]),
    );
    for mode in [Mode::Model, Mode::Both] {
        let out = program::execute(&doc, mode).unwrap();
        assert_eq!(out["vgprs"]["v0"], expect_lanes(&[0x1234_5678, 0, 0]), "{mode:?}");
        // GET_RESINFO of mips 1, 1, 2: 10 × 5, 1 layer, 2 levels; mip 2 does not exist: its
        // dimensions read 0 (docs/decisions.md), the level count 2.
        let got: Vec<&Value> = (1..=4).map(|v| &out["vgprs"][format!("v{v}")]).collect();
        assert_eq!(
            got,
            [
                &expect_lanes(&[10, 10, 0]),
                &expect_lanes(&[5, 5, 0]),
                &expect_lanes(&[1, 1, 0]),
                &expect_lanes(&[2, 2, 2])
            ]
        );
    }
}

#[test]
fn sw_mode_errors_name_the_mode_and_apply_to_every_image_instruction() {
    let modes = "0 linear, 1 256B_S, 5 4KB_S, 9 64KB_S (SPEC §4.5)";
    let run = |image: &Image, inst: &str| {
        program::execute(&image_document(image, 1, json!({}), json!([]), json!([inst])), Mode::Model)
    };
    // An unmodelled mode, for every kind of image instruction.
    let bad = Image::new_2d(0x100, 1, (16, 16), 3);
    for inst in [
        "image_load v0, v[4:5], s[8:15] dmask:0x1 unorm",
        "image_load_pck v0, v[4:5], s[8:15] dmask:0x1 unorm",
        "image_load_mip v0, v[4:6], s[8:15] dmask:0x1 unorm",
        "image_load_pck2 v0, v[4:5], s[8:15] dmask:0x1 unorm",
        "image_store v0, v[4:5], s[8:15] dmask:0x1 unorm",
        "image_atomic_add v0, v[4:5], s[8:15] dmask:0x1 unorm glc",
        "image_get_resinfo v[0:3], v4, s[8:15] dmask:0xf",
    ] {
        let e = run(&bad, inst).unwrap_err();
        let e = e["error"].as_str().unwrap();
        assert!(e.starts_with(&format!("instruction 0 (`{inst}`)")), "{e}");
        assert!(e.contains(&format!("T# sw_mode 3 is not modelled: {modes}")), "{e}");
    }
    // A tiled mode on a 3D image (type 10), and on a 12-byte element (dfmt 13).
    let volume = Image { kind: 10, depth: 4, ..Image::new_2d(0x100, 4, (16, 16), 5) };
    let e = run(&volume, "image_load v0, v[4:6], s[8:15] dmask:0x1 unorm").unwrap_err();
    let e = e["error"].as_str().unwrap();
    assert!(e.contains("sw_mode 5 (4KB_S) on a 3D T# (type 10)") && e.contains("SPEC §4.5"), "{e}");
    let rgb = Image::new_2d(0x100, 13, (16, 16), 9);
    let e = run(&rgb, "image_store v[0:2], v[4:5], s[8:15] dmask:0x7 unorm").unwrap_err();
    let e = e["error"].as_str().unwrap();
    assert!(e.contains("sw_mode 9 (64KB_S) with dfmt 13 (32_32_32, 12-byte elements)") && e.contains("§4.5"), "{e}");
    // The same 12-byte format linear is fine, and an unbound T# (dfmt 0) is never refused for
    // its sw_mode: its load reads 0.
    run(&Image { sw_mode: 0, ..rgb }, "image_store v[0:2], v[4:5], s[8:15] dmask:0x7 unorm").unwrap();
    let unbound = Image { dfmt: 0, ..bad };
    let out = run(&unbound, "image_load v0, v[4:5], s[8:15] dmask:0x1 unorm").unwrap();
    assert_eq!(out["vgprs"]["v0"], expect_lanes(&[0]));
}
