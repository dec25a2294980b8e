//! `inline_const` in the harness: the cxx binding of the Verilated RTL (rtl/inline_const.sv), its
//! random stimulus and its `eval` objects (SPEC §13: `code` in, `bits` out).
//! Model: rust/inline_const.rs  RTL: rtl/inline_const.sv  Tests: tests/inline_const.rs  Spec: docs/spec.md §9

use serde_json::{json, Map, Value};

use super::stimulus::Rng;
use super::Binding;
use crate::one_of;
use crate::inline_const::{fields, In, InlineConst, Out};

#[cxx::bridge(namespace = "cosim::inline_const")]
mod ffi {
    // Shared structs: the RTL ports as plain integers, named like the ports without _i/_o.
    #[derive(Clone, Copy, Debug, Default)]
    struct PortsIn {
        valid: bool,
        code: u8,
    }

    #[derive(Clone, Copy, Debug, Default)]
    struct PortsOut {
        valid: bool,
        bits: u32,
    }

    // C++ exposed to Rust: cosim/inline_const.h states each function's contract.
    unsafe extern "C++" {
        include!("gcn-vmem/cosim/inline_const.h");

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
        ffi::PortsIn { valid: i.valid, code: i.code }
    }
}

impl From<&ffi::PortsOut> for Out {
    fn from(o: &ffi::PortsOut) -> Self {
        Out { valid: o.valid, bits: o.bits }
    }
}

verilated_rtl!(InlineConst);

/// The unit's place in the harness.
pub struct Harness;

impl Binding for Harness {
    type Model = InlineConst;
    type Rtl = Rtl;

    fn generate(rng: &mut Rng) -> In {
        generate(rng)
    }

    fn describe(input: &In) -> String {
        let (e, m) = fields(input.code);
        format!("e={e} m={m}{}", if e == 0 { " (denormal)" } else { "" })
    }

    fn eval_output(_input: &In, out: &Out) -> Map<String, Value> {
        let mut map = Map::new();
        map.insert("bits".into(), json!(out.bits));
        map
    }
}

/// Every code, with the corners of SPEC §9 (code 0, the denormals, e = 1, 1.0, the largest)
/// drawn more often; drawn from `rng`.
pub fn generate(rng: &mut Rng) -> In {
    let code = one_of!(rng;
        4 => rng.below(128) as u8,
        1 => rng.pick(&[0u8, 1, 2, 4, 7, 8, 0x38, 0x78, 0x7f]),
    );
    In { valid: true, code }
}
