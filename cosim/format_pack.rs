//! `format_pack` in the harness: the cxx binding of the Verilated RTL (rtl/format_pack.sv), its
//! random stimulus and its `eval` objects (SPEC §13).
//! Model: rust/format_pack.rs  RTL: rtl/format_pack.sv  Tests: tests/format_pack.rs  Spec: docs/spec.md §5

use serde_json::{json, Map, Value};

use super::stimulus::{f32_bits, from_words, words, Rng, DFMT_NAMES, NFMT_NAMES};
use super::Binding;
use crate::one_of;
use crate::format_pack::{FormatPack, In, Out};

#[cxx::bridge(namespace = "cosim::format_pack")]
mod ffi {
    // Shared structs: the RTL ports as plain integers, named like the ports without _i/_o.
    #[derive(Clone, Copy, Debug, Default)]
    struct PortsIn {
        valid: bool,
        dfmt: u8,
        nfmt: u8,
        components: [u32; 4],
    }

    #[derive(Clone, Copy, Debug, Default)]
    struct PortsOut {
        valid: bool,
        data: [u32; 4],
        fmt_valid: bool,
    }

    // C++ exposed to Rust: cosim/format_pack.h states each function's contract.
    unsafe extern "C++" {
        include!("gcn-vmem/cosim/format_pack.h");

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
        ffi::PortsIn { valid: i.valid, dfmt: i.dfmt, nfmt: i.nfmt, components: words(i.components) }
    }
}

impl From<&ffi::PortsOut> for Out {
    fn from(o: &ffi::PortsOut) -> Self {
        Out { valid: o.valid, data: from_words(o.data), fmt_valid: o.fmt_valid }
    }
}

verilated_rtl!(FormatPack);

/// The unit's place in the harness.
pub struct Harness;

impl Binding for Harness {
    type Model = FormatPack;
    type Rtl = Rtl;

    fn generate(rng: &mut Rng) -> In {
        generate(rng)
    }

    fn describe(input: &In) -> String {
        format!("dfmt={} nfmt={}", DFMT_NAMES[usize::from(input.dfmt & 15)], NFMT_NAMES[usize::from(input.nfmt & 7)])
    }

    fn eval_output(input: &In, out: &Out) -> Map<String, Value> {
        // The element's bytes (SPEC §1.4); no element for dfmt 0 and 15: one zero byte.
        let bytes = crate::format::element_bytes(input.dfmt).max(1) as usize;
        let mut map = Map::new();
        map.insert("data".into(), json!(format!("0x{:0width$x}", out.data, width = 2 * bytes)));
        map.insert("valid".into(), json!(out.fmt_valid));
        map
    }
}

/// A random sign bit.
fn sign(rng: &mut Rng) -> u32 {
    u32::from(rng.bool()) << 31
}

/// A component aimed at a value class of SPEC §5's pack rule for a field of `width` bits under
/// `nfmt` (format_pack's `value` bins): NaNs, infinities, the clamp and saturation edges, ±0.5
/// (the only unorm/snorm ties), values rounding either way, integers and fractions of the
/// scaled range, integers of the field's width and wider, and for float targets the f16/f11/f10
/// ties, overflow and max-finite edges, underflow, denormal results and forced NaN payloads.
fn component_corner(rng: &mut Rng, width: u32, nfmt: u8) -> u32 {
    use crate::format::{NFMT_SINT, NFMT_SNORM, NFMT_SSCALED, NFMT_UINT, NFMT_UNORM, NFMT_USCALED};
    let nan = |rng: &mut Rng| 0x7f80_0001 | (rng.next_u32() & 0x807f_ffff);
    let inf = |rng: &mut Rng| 0x7f80_0000 | sign(rng);
    if width == 32 {
        return one_of!(rng; 1 => 0u32, 1 => u32::MAX, 1 => nan(rng), 2 => rng.next_u32());
    }
    let ones = u32::MAX >> (32 - width);
    let half = 1u32 << (width - 1);
    // Uniform in [0, 1) with 24 random bits.
    let unit = |rng: &mut Rng| (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32;
    match nfmt {
        NFMT_UNORM | NFMT_SNORM => one_of!(rng;
            1 => nan(rng),
            1 => inf(rng),
            2 => rng.pick(&[-1.0f32, -0.5, -0.0, 0.0, 0.5, 1.0]).to_bits(),
            4 => unit(rng).to_bits() | sign(rng),
            1 => (1.0 + 1000.0 * unit(rng)).to_bits() | sign(rng),
        ),
        NFMT_USCALED | NFMT_SSCALED => {
            let (min, max) =
                if nfmt == NFMT_SSCALED { (-(half as f32), (half - 1) as f32) } else { (0.0, ones as f32) };
            let int = |rng: &mut Rng| min + rng.below((max - min) as u64 + 1) as f32;
            one_of!(rng;
                1 => nan(rng),
                1 => inf(rng),
                2 => rng.pick(&[min, max, 0.0, -0.0]).to_bits(),
                1 => (max + 1.0 + 1000.0 * unit(rng)).to_bits(),
                1 => (min - 1.0 - 1000.0 * unit(rng)).to_bits(),
                2 => int(rng).to_bits(),
                2 => (int(rng) + rng.pick(&[0.25f32, 0.5, 0.75])).min(max - 0.5).to_bits(),
                1 => (unit(rng)).to_bits() | sign(rng),
            )
        }
        NFMT_UINT | NFMT_SINT => {
            let r = rng.next_u32();
            one_of!(rng;
                1 => 0u32,
                1 => ones,
                1 => half - 1,
                1 => half.wrapping_neg(),
                1 => u32::MAX,
                2 => r & ones,
                2 => crate::format::sign_extend(r & ones, width) as u32,
                1 => r,
            )
        }
        // Float on a field no float format has (2- and 8-bit fields: an illegal pair): any f32.
        _ if width < 10 => f32_bits(rng),
        _ => {
            // Float: p mantissa bits, 5-bit exponent of bias 15 (f16 / f11 / f10).
            let p = if width == 16 { 10 } else { width - 5 };
            let man = rng.next_u32() & 0x007f_ffff;
            let at = |e: i32, man: u32| ((e + 127) as u32) << 23 | man;
            one_of!(rng;
                1 => 0x7f80_0000 | sign(rng) | (man & ((1 << (23 - p)) - 1)).max(1),
                1 => nan(rng),
                1 => inf(rng),
                1 => sign(rng),
                1 => sign(rng) | man.max(1),
                // A tie: the bits below the target's last place are 100…0, normal or denormal.
                3 => {
                    let e = rng.range_i64(-15 - i64::from(p)..=15) as i32;
                    let shift = 23 - p as i32 + (-14 - e).max(0);
                    let m = if shift >= 24 { 0 } else { (man & !((1u32 << shift) - 1)) | 1 << (shift - 1) };
                    sign(rng) | at(e, m)
                },
                // Overflow: at and above max finite + half an ulp; max finite itself.
                1 => sign(rng) | at(15, (0x007f_ffff << (23 - p)) & 0x007f_ffff | 1 << (22 - p) | (man & ((1 << (22 - p)) - 1))),
                1 => sign(rng) | at(rng.range_i64(16..=127) as i32, man),
                1 => sign(rng) | at(15, (0x007f_ffff << (23 - p)) & 0x007f_ffff),
                // Underflow to 0, denormal results, normals.
                1 => sign(rng) | at(rng.range_i64(-126..=-16 - i64::from(p)) as i32, man),
                2 => sign(rng) | at(rng.range_i64(-14 - i64::from(p)..=-15) as i32, man),
                3 => sign(rng) | at(rng.range_i64(-14..=15) as i32, man),
            )
        }
    }
}

/// Every dfmt (mostly valid ones) under every nfmt, components from the f32 corner patterns
/// (and raw integers for uint/sint), or aimed at the value classes of each field of the format
/// under its nfmt, drawn from `rng`.
pub fn generate(rng: &mut Rng) -> In {
    let dfmt = one_of!(rng; 12 => rng.range(1..15) as u8, 1 => 0u8, 1 => 15u8);
    let nfmt = rng.below(8) as u8;
    let fields = crate::format::fields(dfmt);
    let aimed = rng.bool();
    let c: [u32; 4] = std::array::from_fn(|k| match fields.get(k) {
        Some(f) if aimed => component_corner(rng, f.width, nfmt),
        _ => f32_bits(rng),
    });
    In { valid: true, dfmt, nfmt, components: from_words(c) }
}
