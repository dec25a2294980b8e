//! `image_addr` in the harness: the cxx binding of the Verilated RTL (rtl/image_addr.sv), its
//! random stimulus and its `eval` objects.
//! Model: rust/image_addr.rs  RTL: rtl/image_addr.sv  Tests: tests/image_addr.rs  Spec: docs/spec.md §4

use serde_json::{json, Map, Value};

use super::stimulus::{words, Rng};
use super::Binding;
use crate::image_addr::{check_multi_texel, ImageAddr, In, MultiTexelAccess, Out, OP_NAMES};
use crate::one_of;
use crate::tsharp::TSharp;

#[cxx::bridge(namespace = "cosim::image_addr")]
mod ffi {
    // Shared structs: the RTL ports as plain integers, named like the ports without _i/_o.
    #[derive(Clone, Copy, Debug, Default)]
    struct PortsIn {
        valid: bool,
        tsharp_lo: [u32; 4],
        tsharp_hi: [u32; 4],
        r128: bool,
        op: u8,
        mip: bool,
        dmask: u8,
        d16: bool,
        tfe: bool,
        da: bool,
        x: u32,
        y: u32,
        mipid: u32,
    }

    #[derive(Clone, Copy, Debug, Default)]
    struct PortsOut {
        valid: bool,
        level_ok: bool,
        level: u8,
        width: u16,
        height: u16,
        pitch: u32,
        xa: u32,
        group_valid: bool,
        address: u64,
        illegal: bool,
    }

    // C++ exposed to Rust: cosim/image_addr.h states each function's contract.
    unsafe extern "C++" {
        include!("gcn-vmem/cosim/image_addr.h");

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
            tsharp_lo: words(i.tsharp_lo),
            tsharp_hi: words(i.tsharp_hi),
            r128: i.r128,
            op: i.op,
            mip: i.mip,
            dmask: i.dmask,
            d16: i.d16,
            tfe: i.tfe,
            da: i.da,
            x: i.x,
            y: i.y,
            mipid: i.mipid,
        }
    }
}

impl From<&ffi::PortsOut> for Out {
    fn from(o: &ffi::PortsOut) -> Self {
        Out {
            valid: o.valid,
            level_ok: o.level_ok,
            level: o.level,
            width: o.width,
            height: o.height,
            pitch: o.pitch,
            xa: o.xa,
            group_valid: o.group_valid,
            address: o.address,
            illegal: o.illegal,
        }
    }
}

verilated_rtl!(ImageAddr);

/// The executor's view of the lane's instruction, for the rejection message.
fn access(input: &In) -> MultiTexelAccess {
    let t = TSharp::decode(input.tsharp_lo, input.tsharp_hi);
    MultiTexelAccess {
        op: input.op,
        mip: input.mip,
        dmask: input.dmask,
        dfmt: t.dfmt,
        nfmt: t.nfmt,
        kind: t.kind,
        d16: input.d16,
        tfe: input.tfe,
        da: input.da,
        store: false,
    }
}

/// The unit's place in the harness.
pub struct Harness;

impl Binding for Harness {
    type Model = ImageAddr;
    type Rtl = Rtl;

    fn generate(rng: &mut Rng) -> In {
        generate(rng)
    }

    fn describe(input: &In) -> String {
        format!(
            "{} op={} mip={} r128={} {}",
            access(input).name(),
            OP_NAMES[usize::from(input.op & 3)],
            u8::from(input.mip),
            u8::from(input.r128),
            TSharp::decode(input.tsharp_lo, input.tsharp_hi)
        )
    }

    /// The unit's outputs; when `illegal`, also `rejected`: the executor's error naming the
    /// combination and listing SPEC §4.3's table.
    fn eval_output(input: &In, out: &Out) -> Map<String, Value> {
        let mut map = Map::new();
        map.insert("level_ok".into(), json!(out.level_ok));
        map.insert("level".into(), json!(out.level));
        map.insert("width".into(), json!(out.width));
        map.insert("height".into(), json!(out.height));
        map.insert("pitch".into(), json!(out.pitch));
        map.insert("xa".into(), json!(out.xa));
        map.insert("group_valid".into(), json!(out.group_valid));
        map.insert("address".into(), json!(out.address));
        map.insert("illegal".into(), json!(out.illegal));
        if out.illegal {
            if let Err(message) = check_multi_texel(&access(input)) {
                map.insert("rejected".into(), json!(message));
            }
        }
        map
    }
}

/// A 14-bit size field (size − 1): tiny, odd, powers of two (± 1), or anything.
fn size_field(rng: &mut Rng) -> u16 {
    one_of!(rng;
        3 => rng.below(20) as u16,
        2 => (1u16 << rng.below(14)) - 1,
        1 => 1u16 << rng.range(1..14),
        1 => (1u16 << 14) - 1, // the largest image: 16384 texels
        2 => rng.below(1 << 14) as u16,
    )
}

/// T#s of the table's formats on 2D images mostly, with mip chains, odd sizes and pitches, both
/// descriptor sizes; the format and nfmt picked to suit the op most of the time (so that most
/// lanes are legal), coordinates on and beside the right and bottom edges of the level (x + n
/// equal to the width, one less, one more), inside it, or anywhere; the modifiers that make a
/// combination illegal now and then; a pitch below the width now and then.
pub fn generate(rng: &mut Rng) -> In {
    let tsharp = (
        one_of!(rng; 2 => 0u64, 1 => rng.range((1u64 << 40) - 64..(1u64 << 40)), 3 => rng.below(1u64 << 40)),
        // None: a format of the op's rows (below); Some: exactly this dfmt.
        one_of!(rng; 8 => None, 2 => Some(rng.range(1..4) as u8), 1 => Some(0u8), 1 => Some(rng.range(4..64) as u8)),
        one_of!(rng; 8 => None, 2 => Some(rng.below(16) as u8)),
        size_field(rng),
        size_field(rng),
        one_of!(rng; 3 => 0u8, 2 => rng.below(4) as u8, 1 => rng.below(16) as u8), // base_level
        one_of!(rng; 2 => rng.below(6) as u8, 1 => rng.below(16) as u8),           // last_level
        one_of!(rng; 20 => 9u8, 2 => rng.range(8..16) as u8, 1 => rng.below(8) as u8), // type
        one_of!(rng; 3 => 0u16, 2 => rng.below(40) as u16, 1 => rng.next_u32() as u16), // pitch beyond width
        one_of!(rng; 2 => rng.below(6) as u8, 1 => rng.below(16) as u8),           // max_mip
        rng.next_u128(),                                                           // noise for unused fields
    );
    let instruction = (
        rng.below(4) as u8,
        rng.bool(),
        one_of!(rng; 12 => None, 1 => Some(rng.below(16) as u8)), // dmask override
        rng.chance(0.03),
        rng.chance(0.03),
        rng.chance(0.03),
        rng.bool(),     // r128
        rng.next_u32(), // picks the format and nfmt among the op's rows
    );
    let coords = (
        one_of!(rng; 6 => rng.range_i64(-1..=1), 1 => rng.range_i64(-4..=7)),
        one_of!(rng; 4 => 0u8, 3 => 1u8, 3 => 2u8, 1 => 3u8, 1 => 4u8),
        rng.range_i64(-1..=1),
        one_of!(rng; 3 => 0u8, 4 => 1u8, 1 => 2u8),
        one_of!(rng; 6 => rng.below(4) as u32, 1 => rng.next_u32(), 1 => u32::MAX - rng.below(17) as u32), // L past 2^32
        rng.next_u32(),
        rng.next_u32(),
    );
    let (base, dfmt, nfmt, w, h, base_level, last_level, kind, pitch_extra, max_mip, noise) = tsharp;
    let (op, mip, dmask_override, d16, tfe, da, r128, pick) = instruction;
    let (dx, x_mode, dy, y_mode, mipid, x_any, y_any) = coords;
    // A format of the op's rows (SPEC §4.3): BY4 and PCK4 take R8 only.
    let dfmt = dfmt.unwrap_or(if op & 1 == 1 { 1 } else { 1 + (pick % 3) as u8 });
    // An nfmt of the row: unorm, snorm, uint, sint (BY; R16 also float) or unorm, uint, sint (PCK).
    let nfmt = nfmt.unwrap_or({
        let choices: &[u8] = match (op, dfmt) {
            (0, 2) => &[0, 1, 4, 5, 7],
            (0 | 1, _) => &[0, 1, 4, 5],
            _ => &[0, 4, 5],
        };
        choices[(pick >> 8) as usize % choices.len()]
    });
    // Now and then a pitch below the width (SPEC §1.2 does not forbid it; §4.4 still applies).
    let pitch_short = one_of!(rng; 19 => None, 1 => Some(1 + rng.below(8) as u32));
    let pitch = match pitch_short {
        Some(short) => u32::from(w).saturating_sub(short),
        None => u32::from(w).saturating_add(u32::from(pitch_extra)).min(0xffff),
    };
    // The row's DMASK for this op (BY2 R8/R16 0x3, BY2 RG8 and BY4 0xF, PCK 0x1).
    let dmask = dmask_override.unwrap_or(match (op, dfmt) {
        (0, 3) | (1, _) => 0xf,
        (0, _) => 0x3,
        _ => 0x1,
    });
    // Coordinates against the level the lane will address.
    let n = if op & 1 == 1 { 4 } else { 2 };
    let level = u32::from(base_level) + if mip { mipid.min(31) } else { 0 };
    let width_l = ((u32::from(w) + 1) >> level.min(31)).max(1);
    let height_l = ((u32::from(h) + 1) >> level.min(31)).max(1);
    let near = |size: u32, d: i64| (i64::from(size) + d).clamp(0, i64::from(u32::MAX)) as u32;
    let x = match x_mode {
        0 => near(width_l, -(n + dx)), // x + n = width + dx
        1 => x_any % width_l,
        2 => (dx.unsigned_abs() as u32 + x_any) & 7,
        3 => u32::MAX - (x_any & 7), // x + n past 2^32
        _ => x_any,
    };
    let y = match y_mode {
        0 => near(height_l, dy - 1), // height - 2, height - 1, height
        1 => y_any % height_l,
        _ => y_any,
    };
    // The fields set here replace the noise; every other T# bit (min_lod, the perf and
    // dst_sel fields, tiling, depth, the reserved bits) keeps it: the unit must ignore them.
    let field = |lsb: u32, width: u32| ((1u128 << width) - 1) << lsb;
    let lo_set = field(0, 40) | field(52, 10) | field(64, 28) | field(108, 8) | field(124, 4);
    let lo = (noise & !lo_set)
        | u128::from(base)
        | u128::from(dfmt) << 52
        | u128::from(nfmt) << 58
        | u128::from(w) << 64
        | u128::from(h) << 78
        | u128::from(base_level) << 108
        | u128::from(last_level) << 112
        | u128::from(kind) << 124;
    let hi =
        (noise.rotate_left(64) & !(field(13, 16) | field(60, 4))) | u128::from(pitch) << 13 | u128::from(max_mip) << 60;
    In { valid: true, tsharp_lo: lo, tsharp_hi: hi, r128, op, mip, dmask, d16, tfe, da, x, y, mipid }
}
