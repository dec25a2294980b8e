//! The VMEM cost model of seed 003: what a fetch costs to issue on the TA bus, how fast the TA
//! requests its data and the TD filters it, and what that makes per wave and GPU-wide.
//!
//! Spec: docs/spec.md §8 (interface §13.2: `cost::json`, with the crate's `json` feature)
//! Tests: tests/cost.rs (seed 003's tables, transcribed in tests/data/cost/)  Decisions:
//! docs/decisions.md "Cost model".
//!
//! A fetch is described by its instruction kind, descriptor sizes, address and data dwords
//! (after A16/D16 packing) and, for texture fetches, its filter and texel format. The format is
//! given by channels — `(fixed | float | int, bits)` — rather than a dfmt code, so that formats
//! without one (BC1, 6E4, 7E3, sRGB) can be costed.
//!
//! Rules (SPEC §8):
//! - **Issue** = max(command, address, data): command 4 per 128 bits of descriptor (V# 4,
//!   T# 4 or 8, + 4 for the S# of SAMPLE/GATHER), address 4 per address dword, data 4 per
//!   store-data dword.
//! - **TA divisor**: point 1; bilinear 1 up to 32 bpp, 2 up to 64, 4 above; trilinear 2 ×
//!   bilinear; N× anisotropic N × (bilinear or trilinear).
//! - **TD divisor**: point and integer formats 1. With f32 channels: their number. Otherwise
//!   `ceil(lanes / 4)` with one 12-bit filter lane per channel of ≤ 12 bits (fixed, or float
//!   significand) and two per 13–16-bit fixed channel, doubled when more than three float
//!   channels are filtered. Then × 2 trilinear, × N anisotropic.
//! - **Texture fetch**: `16 × max(TA, TD)` cycles per wave; `48 / max(TA, TD)` fetches per clock
//!   on the 12-CU GPU (4 per CU per clock at divisor 1).
//! - **Buffers**: the coalescer's (§7) cycle count of a fully coalesced wave: single-component
//!   accesses 16 lanes per clock (4 cycles), others and atomics 4 lanes per clock (16 cycles);
//!   their divisor is cycles / 16 against the 4-lanes-per-clock rate of a texture fetch, for the
//!   TA and the TD alike (the TD passes buffer data unfiltered at 16 dwords per clock).

use std::str::FromStr;

use crate::coalescer;

/// SPEC §13.2's JSON lines (the crate's `json` feature).
#[cfg(feature = "json")]
pub mod json;

/// CUs of the GPU seed 003 describes.
pub const CUS: u32 = 12;
/// Lanes (pixels) one CU's TA serves per clock at divisor 1.
pub const LANES_PER_CLOCK: u32 = 4;
/// Lanes of a wave.
pub const WAVE_LANES: u32 = 64;

/// The instruction kind (SPEC §13.2 `op`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    BufferLoad,
    BufferStore,
    BufferAtomic,
    ImageLoad,
    ImageStore,
    ImageAtomic,
    ImageSample,
    ImageGather4,
}

impl Op {
    pub const NAMES: [(&'static str, Op); 8] = [
        ("buffer_load", Op::BufferLoad),
        ("buffer_store", Op::BufferStore),
        ("buffer_atomic", Op::BufferAtomic),
        ("image_load", Op::ImageLoad),
        ("image_store", Op::ImageStore),
        ("image_atomic", Op::ImageAtomic),
        ("image_sample", Op::ImageSample),
        ("image_gather4", Op::ImageGather4),
    ];

    pub fn name(self) -> &'static str {
        Self::NAMES.iter().find(|(_, op)| *op == self).map_or("?", |(n, _)| n)
    }

    pub fn is_buffer(self) -> bool {
        matches!(self, Op::BufferLoad | Op::BufferStore | Op::BufferAtomic)
    }

    /// SAMPLE and GATHER read an S# and go through the filter path.
    pub fn uses_sampler(self) -> bool {
        matches!(self, Op::ImageSample | Op::ImageGather4)
    }

    pub fn is_atomic(self) -> bool {
        matches!(self, Op::BufferAtomic | Op::ImageAtomic)
    }

    pub fn is_store(self) -> bool {
        matches!(self, Op::BufferStore | Op::ImageStore)
    }
}

/// The value that `s` names in `table`, or the error that lists the names:
/// `"<s>" is not <a>; the <plural> are "<name>", …`.
fn by_name<T: Copy>(table: &[(&str, T)], s: &str, a: &str, plural: &str) -> Result<T, String> {
    table.iter().find(|(n, _)| *n == s).map(|&(_, v)| v).ok_or_else(|| {
        let names: Vec<String> = table.iter().map(|(n, _)| format!("\"{n}\"")).collect();
        format!("\"{s}\" is not {a}; the {plural} are {}", names.join(", "))
    })
}

/// `FromStr` for `$ty` by [`by_name`]: `$names` its `(name, value)` table, `$a` and `$plural` the
/// words of the error.
macro_rules! from_str_by_name {
    ($ty:ty, $names:expr, $a:literal, $plural:literal) => {
        impl FromStr for $ty {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                by_name(&$names, s, $a, $plural)
            }
        }
    };
}

from_str_by_name!(Op, Self::NAMES, "an op", "ops");

/// The texture filter (SPEC §13.2 `filter`); for an anisotropic fetch, its mip filter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Filter {
    #[default]
    Point,
    Bilinear,
    Trilinear,
}

from_str_by_name!(
    Filter,
    [("point", Filter::Point), ("bilinear", Filter::Bilinear), ("trilinear", Filter::Trilinear)],
    "a filter",
    "filters"
);

/// How a channel's bits are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChannelKind {
    /// Normalized fixed point (unorm/snorm, sRGB): filtered on 12-bit lanes.
    Fixed,
    /// Floating point; `bits` counts the significand (23 for f32, 10 for f16).
    Float,
    /// Integer: never filtered.
    Int,
}

from_str_by_name!(
    ChannelKind,
    [("fixed", ChannelKind::Fixed), ("float", ChannelKind::Float), ("int", ChannelKind::Int)],
    "a channel kind",
    "kinds"
);

/// One channel of a texel format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Channel {
    pub kind: ChannelKind,
    pub bits: u32,
}

/// A texel format by its size and channels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TexelFormat {
    /// Bits per texel (4 for BC1).
    pub bpp: u32,
    pub channels: Vec<Channel>,
}

/// One fetch to cost (SPEC §13.2's input).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fetch {
    pub op: Op,
    /// T# size for images: 128 or 256.
    pub tsharp_bits: u32,
    /// An S# is sent (SAMPLE/GATHER only).
    pub sampler: bool,
    /// After A16 packing.
    pub address_dwords: u32,
    /// Store or atomic data, after D16 packing.
    pub data_dwords: u32,
    pub filter: Filter,
    /// 1, 2, 4, 8 or 16.
    pub aniso: u32,
    /// Needed by filtered fetches (SAMPLE with bilinear or trilinear).
    pub format: Option<TexelFormat>,
    /// Buffers: a single-component access (SPEC §7).
    pub single: bool,
}

impl Default for Fetch {
    fn default() -> Self {
        Fetch {
            op: Op::BufferLoad,
            tsharp_bits: 128,
            sampler: false,
            address_dwords: 1,
            data_dwords: 0,
            filter: Filter::Point,
            aniso: 1,
            format: None,
            single: false,
        }
    }
}

/// What a fetch costs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cost {
    /// Cycles on each of the three issue buses.
    pub command_cycles: u32,
    pub address_cycles: u32,
    pub data_cycles: u32,
    /// max(command, address, data).
    pub issue_cycles: u32,
    /// Throughput divisors against 4 lanes per clock (fractional for coalesced buffers).
    pub ta_divisor: f64,
    pub td_divisor: f64,
    pub cycles_per_wave: f64,
    /// GPU-wide (12 CUs).
    pub fetches_per_clock: f64,
}

/// Seed 003's other figures, reported where they apply (SPEC §8 "also report").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Notes {
    /// Gather4: texels per clock per CU, for any format.
    pub gather4_texels_per_clock: Option<u32>,
    /// Worst-case extra TA cycles per 2×2 quad for filtered fetches: border colour, custom
    /// gradients, cube corners, non-power-of-two wrap.
    pub quad_surcharges: Option<Surcharges>,
    /// TCC (L2) peak operations per clock for this kind of access.
    pub tcc_peak: Option<TccPeak>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Surcharges {
    pub border_color: u32,
    pub custom_gradients: u32,
    pub cube_corners: u32,
    pub npot_wrap: u32,
}

/// Seed 003's per-quad worst cases ("jusqu'à").
pub const SURCHARGES: Surcharges = Surcharges { border_color: 2, custom_gradients: 3, cube_corners: 5, npot_wrap: 3 };

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TccPeak {
    Reads(u32),
    Writes(u32),
    /// Atomics without and with return.
    Atomics {
        without_return: u32,
        with_return: u32,
    },
}

fn fail<T>(message: String) -> Result<T, String> {
    Err(message)
}

/// The issue buses: (command, address, data) cycles.
fn issue(fetch: &Fetch) -> Result<(u32, u32, u32), String> {
    let descriptor = if fetch.op.is_buffer() {
        4
    } else {
        match fetch.tsharp_bits {
            128 => 4,
            256 => 8,
            other => return fail(format!("tsharp_bits is {other}; a T# is 128 or 256 bits")),
        }
    };
    if fetch.sampler && !fetch.op.uses_sampler() {
        return fail(format!(
            "{} sends no S#: only image_sample and image_gather4 do (set sampler to false)",
            fetch.op.name()
        ));
    }
    if !fetch.sampler && fetch.op.uses_sampler() {
        return fail(format!("{} needs an S# (set sampler to true)", fetch.op.name()));
    }
    let command = descriptor + if fetch.sampler { 4 } else { 0 };
    Ok((command, 4 * fetch.address_dwords, 4 * fetch.data_dwords))
}

/// The channel's filter lanes of 12 bits, for a format without f32 channels.
fn filter_lanes(channel: &Channel) -> u32 {
    channel.bits.div_ceil(12).max(1)
}

/// TD divisor of a bilinear fetch of `format` (before trilinear and anisotropy).
fn td_bilinear(format: &TexelFormat) -> u32 {
    if format.channels.iter().any(|c| c.kind == ChannelKind::Int) {
        return 1; // integer formats are not filtered
    }
    // A float channel with more than 12 significand bits takes the f32 path.
    let wide_floats = format.channels.iter().filter(|c| c.kind == ChannelKind::Float && c.bits > 12).count() as u32;
    if wide_floats > 0 {
        return wide_floats;
    }
    let lanes: u32 = format.channels.iter().map(filter_lanes).sum();
    let floats = format.channels.iter().filter(|c| c.kind == ChannelKind::Float).count();
    let divisor = lanes.div_ceil(4).max(1);
    if floats > 3 {
        divisor * 2
    } else {
        divisor
    }
}

fn check_format(format: &TexelFormat) -> Result<(), String> {
    if format.bpp == 0 || format.bpp > 128 {
        return fail(format!("format bpp is {}; it must be 1..=128", format.bpp));
    }
    if format.channels.is_empty() || format.channels.len() > 4 {
        return fail(format!("a format has 1 to 4 channels, this one {}", format.channels.len()));
    }
    for (i, c) in format.channels.iter().enumerate() {
        let max = if c.kind == ChannelKind::Float { 23 } else { 32 };
        if c.bits == 0 || c.bits > max {
            return fail(format!(
                "channel {i} ({:?}) has {} bits; it must be 1..={max}{}",
                c.kind,
                c.bits,
                if c.kind == ChannelKind::Float { " (float bits count the significand: f32 23, f16 10)" } else { "" }
            ));
        }
    }
    Ok(())
}

/// SPEC §8: the cost of `fetch`, or why the rules cannot cost it.
pub fn cost(fetch: &Fetch) -> Result<Cost, String> {
    let (command, address, data) = issue(fetch)?;
    if !matches!(fetch.aniso, 1 | 2 | 4 | 8 | 16) {
        return fail(format!("aniso is {}; it must be 1, 2, 4, 8 or 16", fetch.aniso));
    }
    let filtered = fetch.op == Op::ImageSample && fetch.filter != Filter::Point;
    if fetch.aniso > 1 && !filtered {
        return fail(format!(
            "aniso {} needs a filtered image_sample (bilinear or trilinear), not {} with {:?}",
            fetch.aniso,
            fetch.op.name(),
            fetch.filter
        ));
    }
    if let Some(format) = &fetch.format {
        check_format(format)?;
    }

    let (ta, td) = if fetch.op.is_buffer() {
        // The coalescer's count for a fully coalesced wave, against 16 cycles at 4 lanes per clock.
        // The TD passes buffer data unfiltered, 16 dwords per clock: one dword for each of 16
        // coalesced lanes, or four for each of 4 lanes, so it keeps the TA's pace either way.
        let cycles = coalescer::coalesced_wave_cycles(4, fetch.single && !fetch.op.is_atomic());
        let ta = f64::from(cycles) / 16.0;
        (ta, ta)
    } else if filtered {
        let format =
            fetch.format.as_ref().ok_or_else(|| format!("a {:?} image_sample needs the texel format", fetch.filter))?;
        let trilinear = if fetch.filter == Filter::Trilinear { 2 } else { 1 };
        let ta_bilinear = match format.bpp {
            0..=32 => 1,
            33..=64 => 2,
            _ => 4,
        };
        let td = if format.channels.iter().any(|c| c.kind == ChannelKind::Int) {
            1 // not filtered: costed as a point fetch
        } else {
            td_bilinear(format) * trilinear * fetch.aniso
        };
        (f64::from(ta_bilinear * trilinear * fetch.aniso), f64::from(td))
    } else {
        // Point sampling, plain loads/stores/atomics and Gather4: 4 pixels per clock, any format.
        (1.0, 1.0)
    };
    let divisor = ta.max(td);
    Ok(Cost {
        command_cycles: command,
        address_cycles: address,
        data_cycles: data,
        issue_cycles: command.max(address).max(data),
        ta_divisor: ta,
        td_divisor: td,
        cycles_per_wave: f64::from(WAVE_LANES / LANES_PER_CLOCK) * divisor,
        fetches_per_clock: f64::from(CUS * LANES_PER_CLOCK) / divisor,
    })
}

/// Seed 003's other figures for `fetch` (see [`Notes`]).
pub fn notes(fetch: &Fetch) -> Notes {
    Notes {
        gather4_texels_per_clock: (fetch.op == Op::ImageGather4).then_some(16),
        quad_surcharges: fetch.op.uses_sampler().then_some(SURCHARGES),
        tcc_peak: Some(if fetch.op.is_atomic() {
            TccPeak::Atomics { without_return: 3, with_return: 1 }
        } else if fetch.op.is_store() {
            TccPeak::Writes(3)
        } else {
            TccPeak::Reads(4)
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_buffer_read_issues_in_four_cycles() {
        let c = cost(&Fetch::default()).unwrap();
        assert_eq!((c.command_cycles, c.address_cycles, c.data_cycles, c.issue_cycles), (4, 4, 0, 4));
        assert_eq!(c.cycles_per_wave, 16.0);
    }

    #[test]
    fn single_component_buffer_loads_coalesce_to_four_cycles() {
        let c = cost(&Fetch { single: true, ..Fetch::default() }).unwrap();
        assert_eq!((c.ta_divisor, c.cycles_per_wave, c.fetches_per_clock), (0.25, 4.0, 192.0));
        let atomic = cost(&Fetch { op: Op::BufferAtomic, single: true, data_dwords: 1, ..Fetch::default() }).unwrap();
        assert_eq!(atomic.cycles_per_wave, 16.0, "atomics are not single-component (SPEC §12)");
    }

    #[test]
    fn bad_fetches_name_the_problem() {
        let e = cost(&Fetch { op: Op::ImageLoad, tsharp_bits: 192, ..Fetch::default() }).unwrap_err();
        assert!(e.contains("128 or 256"), "{e}");
        let e = cost(&Fetch { op: Op::ImageSample, sampler: true, filter: Filter::Bilinear, ..Fetch::default() })
            .unwrap_err();
        assert!(e.contains("texel format"), "{e}");
        let e = cost(&Fetch { op: Op::ImageLoad, sampler: true, ..Fetch::default() }).unwrap_err();
        assert!(e.contains("sends no S#"), "{e}");
        let e = cost(&Fetch {
            op: Op::ImageSample,
            sampler: true,
            filter: Filter::Bilinear,
            format: Some(TexelFormat { bpp: 8, channels: vec![Channel { kind: ChannelKind::Fixed, bits: 0 }] }),
            ..Fetch::default()
        })
        .unwrap_err();
        assert!(e.contains("channel 0"), "{e}");
    }
}
