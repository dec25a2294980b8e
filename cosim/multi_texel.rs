//! `multi_texel` in the harness: the cxx binding of the Verilated RTL (rtl/multi_texel.sv), its
//! random stimulus and its `eval` objects.
//! Model: rust/multi_texel.rs  RTL: rtl/multi_texel.sv  Tests: tests/multi_texel.rs  Spec: docs/spec.md §4.3

use serde_json::{json, Map, Value};

use super::stimulus::{from_words, words, Rng, NFMT_NAMES};
use super::Binding;
use crate::image_addr::OP_NAMES;
use crate::multi_texel::{In, MultiTexel, Out};
use crate::one_of;

#[cxx::bridge(namespace = "cosim::multi_texel")]
mod ffi {
    // Shared structs: the RTL ports as plain integers, named like the ports without _i/_o.
    #[derive(Clone, Copy, Debug, Default)]
    struct PortsIn {
        valid: bool,
        op: u8,
        dmask: u8,
        dfmt: u8,
        nfmt: u8,
        group_valid: bool,
        texels: u64,
    }

    #[derive(Clone, Copy, Debug, Default)]
    struct PortsOut {
        valid: bool,
        result: [u32; 4],
        result_count: u8,
        illegal: bool,
    }

    // C++ exposed to Rust: cosim/multi_texel.h states each function's contract.
    unsafe extern "C++" {
        include!("gcn-vmem/cosim/multi_texel.h");

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
            dmask: i.dmask,
            dfmt: i.dfmt,
            nfmt: i.nfmt,
            group_valid: i.group_valid,
            texels: i.texels,
        }
    }
}

impl From<&ffi::PortsOut> for Out {
    fn from(o: &ffi::PortsOut) -> Self {
        Out { valid: o.valid, result: from_words(o.result), result_count: o.result_count, illegal: o.illegal }
    }
}

verilated_rtl!(MultiTexel);

/// The unit's place in the harness.
pub struct Harness;

impl Binding for Harness {
    type Model = MultiTexel;
    type Rtl = Rtl;

    fn generate(rng: &mut Rng) -> In {
        generate(rng)
    }

    fn describe(input: &In) -> String {
        let format = match input.dfmt {
            1 => "R8",
            2 => "R16",
            3 => "RG8",
            _ => "not a multi-texel format",
        };
        format!(
            "op={} dmask={:#x} dfmt={} ({format}) nfmt={} group_valid={}",
            OP_NAMES[usize::from(input.op & 3)],
            input.dmask,
            input.dfmt,
            NFMT_NAMES.get(usize::from(input.nfmt)).unwrap_or(&"reserved"),
            u8::from(input.group_valid)
        )
    }

    fn eval_output(_input: &In, out: &Out) -> Map<String, Value> {
        let n = usize::from(out.result_count).min(4);
        let mut map = Map::new();
        map.insert("result".into(), json!(words(out.result)[..n]));
        map.insert("result_count".into(), json!(out.result_count));
        map.insert("illegal".into(), json!(out.illegal));
        map
    }
}

/// Bytes on the conversion corners of 8-bit fields (0, 1, 3, 0x7f, 0x80, 0x81, 0xff) and halves
/// on those of 16-bit ones (snorm −1, f16 infinities, NaNs, denormals).
fn texel_word(rng: &mut Rng) -> u16 {
    const BYTE: &[u8] = &[0x00, 0x01, 0x03, 0x7f, 0x80, 0x81, 0xfe, 0xff];
    one_of!(rng;
        3 => rng.next_u32() as u16,
        2 => {
            let (a, b) = (rng.pick(BYTE), rng.pick(BYTE));
            u16::from(a) | u16::from(b) << 8
        },
        2 => rng.pick(&[0x8000u16, 0x8001, 0x7fff, 0x7c00, 0xfc00, 0x7c01, 0xfe00, 0x0001, 0x03ff, 0x3c00]),
    )
}

/// The table's rows mostly (with their DMASK), their neighbours sometimes, invalid groups now
/// and then; texels from corner patterns.
pub fn generate(rng: &mut Rng) -> In {
    let op = rng.below(4) as u8;
    let dmask_override = one_of!(rng; 8 => None, 1 => Some(rng.below(16) as u8));
    let dfmt = one_of!(rng; 12 => rng.range(1..4) as u8, 1 => 0u8, 2 => rng.range(4..64) as u8);
    let nfmt = one_of!(rng; 10 => rng.pick(&[0u8, 1, 4, 5, 7]), 2 => rng.below(16) as u8);
    let group_valid = rng.chance(0.9);
    let t: [u16; 4] = std::array::from_fn(|_| texel_word(rng));
    let dmask = dmask_override.unwrap_or(match (op, dfmt) {
        (0, 3) | (1, _) => 0xf,
        (0, _) => 0x3,
        _ => 0x1,
    });
    let texels = t.iter().enumerate().fold(0u64, |acc, (i, &w)| acc | u64::from(w) << (16 * i));
    In { valid: true, op, dmask, dfmt, nfmt, group_valid, texels }
}
