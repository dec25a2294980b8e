//! `d16` in the harness: the cxx binding of the Verilated RTL (rtl/d16.sv), its random stimulus
//! and its `eval` objects.
//! Model: rust/d16.rs  RTL: rtl/d16.sv  Tests: tests/d16.rs  Spec: docs/spec.md §6

use serde_json::{json, Map, Value};

use super::stimulus::{f32_bits, from_words, words, Rng, NFMT_NAMES};
use super::Binding;
use crate::one_of;
use crate::d16::{In, Out, D16, OP_NAMES};

#[cxx::bridge(namespace = "cosim::d16")]
mod ffi {
    // Shared structs: the RTL ports as plain integers, named like the ports without _i/_o.
    #[derive(Clone, Copy, Debug, Default)]
    struct PortsIn {
        valid: bool,
        op: u8,
        hi: bool,
        nfmt: u8,
        count: u8,
        data: [u32; 4],
        old: u32,
    }

    #[derive(Clone, Copy, Debug, Default)]
    struct PortsOut {
        valid: bool,
        result: [u32; 4],
        result_count: u8,
        illegal: bool,
    }

    // C++ exposed to Rust: cosim/d16.h states each function's contract.
    unsafe extern "C++" {
        include!("gcn-vmem/cosim/d16.h");

        type Rtl;

        fn new_rtl(variant: u8, wave: u8, path: &str, x_random: bool, x_seed: u64) -> Result<UniquePtr<Rtl>>;
        fn set_reset(self: Pin<&mut Rtl>, asserted: bool, output: &mut PortsOut) -> u32;
        fn step(self: Pin<&mut Rtl>, input: &PortsIn, output: &mut PortsOut) -> u32;
        fn take_assertions(self: Pin<&mut Rtl>) -> Vec<String>;
        fn finish(self: Pin<&mut Rtl>);
        fn write_coverage(self: Pin<&mut Rtl>, path: &str);
        fn plain_loop(inputs: &[PortsIn], rounds: u64) -> u64;
    }
}

impl From<&In> for ffi::PortsIn {
    fn from(i: &In) -> Self {
        ffi::PortsIn {
            valid: i.valid,
            op: i.op,
            hi: i.hi,
            nfmt: i.nfmt,
            count: i.count,
            data: words(i.data),
            old: i.old,
        }
    }
}

impl From<&ffi::PortsOut> for Out {
    fn from(o: &ffi::PortsOut) -> Self {
        Out { valid: o.valid, result: from_words(o.result), result_count: o.result_count, illegal: o.illegal }
    }
}

verilated_rtl!(D16);

/// The unit's place in the harness.
pub struct Harness;

impl Binding for Harness {
    type Model = D16;
    type Rtl = Rtl;

    fn generate(rng: &mut Rng) -> In {
        generate(rng)
    }

    fn describe(input: &In) -> String {
        format!(
            "op={} hi={} nfmt={} count={}",
            OP_NAMES[usize::from(input.op & 7)],
            u8::from(input.hi),
            NFMT_NAMES[usize::from(input.nfmt & 7)],
            input.count
        )
    }

    fn eval_output(_input: &In, out: &Out) -> Map<String, Value> {
        let n = usize::from(out.result_count).min(4);
        let result: Vec<String> = words(out.result)[..n].iter().map(|w| format!("0x{w:08x}")).collect();
        let mut map = Map::new();
        map.insert("result".into(), json!(result));
        map.insert("result_count".into(), json!(out.result_count));
        map.insert("illegal".into(), json!(out.illegal));
        map
    }
}

/// Every op (the reserved one rarely), both halves, every nfmt, counts 1–4 mostly (0 and the
/// reserved 5–7 sometimes); load data from the f32 corners and 16-bit integers, store data from
/// f16 corners; drawn from `rng`.
pub fn generate(rng: &mut Rng) -> In {
    let half = |rng: &mut Rng| {
        one_of!(rng;
            2 => rng.next_u32() as u16,
            1 => rng.pick(&[0x0000u16, 0x8000, 0x7c00, 0xfc00, 0x7c01, 0x7e00, 0xfdff, 0x0001, 0x03ff, 0x0400, 0x3c00, 0x7bff, 0xffff]),
        )
    };
    let op = one_of!(rng; 14 => rng.below(7) as u8, 1 => 7u8);
    let hi = rng.bool();
    let nfmt = rng.below(8) as u8;
    let count = one_of!(rng; 12 => rng.range(1..5) as u8, 1 => 0u8, 1 => rng.range(5..8) as u8);
    // Store ops read halves from data; the loads read f32 patterns (the byte/short loads its low
    // bits). Only the form the op reads is drawn: the other would never be seen.
    let data = if op >= 4 {
        (0..8).fold(0u128, |acc, i| acc | u128::from(half(rng)) << (16 * i))
    } else {
        // f32 corners, or integers of 16 bits zero- or sign-extended (the usual uint/sint
        // components, which keep their low 16 bits unchanged).
        let component = |rng: &mut Rng| {
            one_of!(rng;
                5 => f32_bits(rng),
                1 => rng.next_u32() & 0xffff,
                1 => rng.next_u32() as i16 as u32,
            )
        };
        from_words([component(rng), component(rng), component(rng), component(rng)])
    };
    let old = rng.next_u32();
    In { valid: true, op, hi, nfmt, count, data, old }
}
