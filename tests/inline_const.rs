//! `inline_const` (SPEC §9, seed 004): every one of the 128 codes against values computed here
//! with exact integer arithmetic (not from the model), seed 004's table rows by name, a snapshot
//! of the whole table's lockstep trace, the random lockstep property and the assertions.

use crate::common;

use gcn_vmem::bindings::inline_const::Harness;
use gcn_vmem_model::inline_const::In;

use common::{outputs, sweep, trace_of};

/// The f32 bits of `num · 2^pow2` for an integer 1 <= num < 2^24 in f32's normal range, built
/// from the integer: exponent from its highest set bit, mantissa from the bits below it.
fn f32_bits_of(num: u32, pow2: i32) -> u32 {
    assert!(num > 0 && num < 1 << 24);
    let top = 31 - num.leading_zeros() as i32; // num = 1.xxx · 2^top
    let exponent = pow2 + top;
    let mantissa = (num << (23 - top)) & 0x7f_ffff;
    ((exponent + 127) as u32) << 23 | mantissa
}

/// SPEC §9 with exact arithmetic: e > 0: (8 + m) · 2^(e − 7 − 3); e = 0: m · 2^(−6 − 3);
/// code 0: 2^−10.
fn expected(code: u8) -> u32 {
    let (e, m) = (i32::from(code >> 3), u32::from(code & 7));
    match (e, m) {
        (0, 0) => f32_bits_of(1, -10),
        (0, _) => f32_bits_of(m, -9),
        _ => f32_bits_of(8 + m, e - 10),
    }
}

fn input(code: u8) -> In {
    In { valid: true, code }
}

#[test]
fn seed_004_table_rows() {
    // (exponent, mantissa) -> value, as seed 004 lists them; the f32 patterns by hand:
    // 2^k = (127 + k) << 23; 480 = 1.875 · 2^8 = (135 << 23) | 0x700000.
    let rows: [(&str, u8, u8, u32); 8] = [
        ("2^-10", 0x0, 0x0, 117 << 23),
        ("2^-9", 0x0, 0x1, 118 << 23),
        ("2^-8", 0x0, 0x2, 119 << 23),
        ("2^-7", 0x0, 0x4, 120 << 23),
        ("2^-6", 0x1, 0x0, 121 << 23),
        ("1", 0x7, 0x0, 0x3f80_0000),
        ("256", 0xf, 0x0, 0x4380_0000),
        ("480", 0xf, 0x7, 0x43f0_0000),
    ];
    let inputs: Vec<In> = rows.iter().map(|&(_, e, m, _)| input(e << 3 | m)).collect();
    for ((name, e, m, bits), out) in rows.iter().zip(outputs::<Harness>(&inputs)) {
        assert_eq!(out.bits, *bits, "{name}: exponent {e:#x}, mantissa {m:#x}");
        assert_eq!(f32::from_bits(out.bits), f32::from_bits(*bits));
    }
    // The SPEC's own examples by code: 0x00, 0x01, 0x08, 0x38, 0x78, 0x7f.
    let codes = [0x00, 0x01, 0x08, 0x38, 0x78, 0x7f];
    let want = [2f32.powi(-10), 2f32.powi(-9), 2f32.powi(-6), 1.0, 256.0, 480.0];
    let got = outputs::<Harness>(&codes.map(input));
    for ((code, w), out) in codes.iter().zip(want).zip(got) {
        assert_eq!(f32::from_bits(out.bits), w, "code {code:#04x}");
    }
}

#[test]
fn exhaustive_every_code_against_exact_arithmetic() {
    let inputs: Vec<In> = (0..128u8).map(input).collect();
    for (code, out) in (0..128u8).zip(sweep::<Harness>(&inputs)) {
        assert_eq!(out.bits, expected(code), "code {code:#04x}");
    }
    // The reference itself, on the spec's examples.
    assert_eq!(expected(0x38), 1.0f32.to_bits());
    assert_eq!(expected(0x7f), 480.0f32.to_bits());
    assert_eq!(expected(0x05), (5.0f32 / 8.0 / 64.0).to_bits());
}

#[test]
fn whole_table_trace() {
    let inputs: Vec<In> = (0..128u8).map(input).collect();
    insta::assert_snapshot!(trace_of::<Harness>(&inputs));
}

common::unit_tests! {
    random_cases_agree_in_lockstep: 1000,
    every_assertion_fires_and_is_reported: ["ExponentMax_A", "ExponentMin_A", "MantissaLow_A", "SignClear_A"],
    random_stimulus_hits_every_bin: 62,
}

// ---------------------------------------------------------------------------------------------
// Functional coverage (rust/inline_const.rs `cover`).
// ---------------------------------------------------------------------------------------------

/// The `point: bin` names one input (with the model's result for it) falls in.
fn bins_of(input: &In) -> Vec<String> {
    common::bins_hit::<gcn_vmem_model::inline_const::InlineConst>(input, &gcn_vmem_model::inline_const::compute(input))
}

/// Asserts that `input` lands in every bin of `expected` (and, with `exactly`, in no other).
fn assert_bins(input: In, expected: &[&str], exactly: bool) {
    common::assert_in_bins(&format!("{input:?}"), &bins_of(&input), expected, exactly);
}

/// Hand-chosen codes land in the bins SPEC §9 names for them: code 0 is 2^−10, e = 0 codes
/// are denormals, 0x30 = 0.5, 0x38 = 1.0, 0x39 = 1.125, 0x45 = 1.625 · 2 = 3.25,
/// 0x44 = 1.5 · 2 = 3, 0x50 = 8, 0x7f = 480.
#[test]
fn directed_inputs_land_in_their_bins() {
    let rows: [(u8, &str, &str); 9] = [
        (0x00, "0x00 (e=0 m=0)", "code 0 = 2^-10"),
        (0x05, "0x05 (e=0 m=5)", "denormal m/8*2^-6 (e=0, m>0)"),
        (0x30, "0x30 (e=6 m=0)", "normal below 1 (e=1..6)"),
        (0x38, "0x38 (e=7 m=0)", "exactly 1 (0x38)"),
        (0x39, "0x39 (e=7 m=1)", "above 1 with a fraction"),
        (0x45, "0x45 (e=8 m=5)", "above 1 with a fraction"),
        (0x44, "0x44 (e=8 m=4)", "integer above 1"),
        (0x50, "0x50 (e=10 m=0)", "integer above 1"),
        (0x7f, "0x7f (e=15 m=7)", "integer above 1"),
    ];
    for (code, bin, class) in rows {
        assert_bins(input(code), &[&format!("code: {bin}"), &format!("value class: {class}")], true);
    }
}

/// Every code lands in the value class its value has, classed here from the f32 itself (the
/// sampler classes the bits without a branch): 2^−10 for code 0, e = 0 the denormals, then below
/// 1, exactly 1, a fraction, an integer.
#[test]
fn every_code_lands_in_the_class_of_its_value() {
    let classes = gcn_vmem_model::inline_const::cover::CLASSES;
    for code in 0..128u8 {
        let v = f32::from_bits(gcn_vmem_model::inline_const::compute(&input(code)).bits);
        let class = match code {
            0 => 0,
            _ if code >> 3 == 0 => 1,
            _ if v < 1.0 => 2,
            _ if v == 1.0 => 3,
            _ if v.fract() != 0.0 => 4,
            _ => 5,
        };
        assert_bins(input(code), &[&format!("value class: {}", classes[class])], false);
    }
}
