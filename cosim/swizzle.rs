//! `swizzle` in the harness: the cxx binding of the Verilated RTL (rtl/swizzle.sv), its random
//! stimulus and its `eval` objects.
//! Model: rust/swizzle.rs  RTL: rtl/swizzle.sv  Tests: tests/swizzle.rs  Spec: docs/spec.md §3

use serde_json::{json, Map, Value};

use super::stimulus::{f32_bits, words, Rng};
use super::Binding;
use crate::one_of;
use crate::swizzle::{In, Out, Swizzle};

#[cxx::bridge(namespace = "cosim::swizzle")]
mod ffi {
    // Shared structs: the RTL ports as plain integers, named like the ports without _i/_o.
    #[derive(Clone, Copy, Debug, Default)]
    struct PortsIn {
        valid: bool,
        components: [u32; 4],
        count: u8,
        dst_sel: u16,
        integer: bool,
        dmask: u8,
        oor: u8,
        unbound: bool,
        tfe: bool,
    }

    #[derive(Clone, Copy, Debug, Default)]
    struct PortsOut {
        valid: bool,
        result: [u32; 4],
        result_count: u8,
    }

    // C++ exposed to Rust: cosim/swizzle.h states each function's contract.
    unsafe extern "C++" {
        include!("gcn-vmem/cosim/swizzle.h");

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
            components: words(i.components),
            count: i.count,
            dst_sel: i.dst_sel,
            integer: i.integer,
            dmask: i.dmask,
            oor: i.oor,
            unbound: i.unbound,
            tfe: i.tfe,
        }
    }
}

impl From<&ffi::PortsOut> for Out {
    fn from(o: &ffi::PortsOut) -> Self {
        Out { valid: o.valid, result: super::stimulus::from_words(o.result), result_count: o.result_count }
    }
}

verilated_rtl!(Swizzle);

/// The unit's place in the harness.
pub struct Harness;

impl Binding for Harness {
    type Model = Swizzle;
    type Rtl = Rtl;

    fn generate(rng: &mut Rng) -> In {
        generate(rng)
    }

    fn describe(input: &In) -> String {
        let sel = |c: u16| ["0", "1", "r2", "r3", "X", "Y", "Z", "W"][usize::from(input.dst_sel >> (3 * c) & 7)];
        format!(
            "dst_sel={}{}{}{} dmask={:04b} oor={:04b} count={} {}",
            sel(0),
            sel(1),
            sel(2),
            sel(3),
            input.dmask,
            input.oor,
            input.count,
            if input.integer { "integer" } else { "float-like" }
        )
    }

    fn eval_output(_input: &In, out: &Out) -> Map<String, Value> {
        let dwords = usize::from(out.result_count);
        let result: Vec<u64> =
            (0..dwords).map(|i| if i < 4 { (out.result >> (32 * i)) as u32 as u64 } else { 0 }).collect();
        let mut map = Map::new();
        map.insert("result".into(), json!(result));
        map.insert("result_count".into(), json!(out.result_count));
        map
    }
}

/// Identity dst_sel (X, Y, Z, W) and the other patterns formats use, or any codes at all.
fn dst_sel(rng: &mut Rng) -> u16 {
    let code = |c: [u16; 4]| c[0] | c[1] << 3 | c[2] << 6 | c[3] << 9;
    one_of!(rng;
        2 => code([4, 5, 6, 7]),
        1 => code([4, 0, 0, 0]),
        1 => code([4, 5, 0, 0]),
        1 => code([4, 5, 6, 0]),
        1 => code([4, 5, 6, 1]),
        1 => code([6, 5, 4, 7]),
        4 => rng.below(1 << 12) as u16,
    )
}

/// Inputs biased to the rules of SPEC §3: formats of 1–4 components (and the reserved counts),
/// SEL_0/SEL_1/reserved codes, DMASK 0 and the full mask, all-or-nothing out-of-range masks.
pub fn generate(rng: &mut Rng) -> In {
    let c: [u32; 4] = std::array::from_fn(|_| f32_bits(rng));
    let count = one_of!(rng; 8 => rng.range(1..5) as u8, 1 => 0u8, 1 => rng.range(5..8) as u8);
    let dst_sel = dst_sel(rng);
    let integer = rng.bool();
    let dmask = one_of!(rng; 1 => 0u8, 1 => 0xfu8, 4 => rng.below(16) as u8);
    let oor = one_of!(rng; 6 => 0u8, 2 => 0xfu8, 2 => rng.below(16) as u8);
    let unbound = rng.chance(0.1);
    let tfe = rng.bool();
    In { valid: true, components: super::stimulus::from_words(c), count, dst_sel, integer, dmask, oor, unbound, tfe }
}
