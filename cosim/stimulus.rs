//! Stimulus pieces shared by the unit bindings: f32 patterns that sit on the conversion corners
//! of SPEC §5/§6, and the u128 <-> four-dword conversions of component ports.

use proptest::prelude::*;

/// The four 32-bit words of a 128-bit port, word 0 = bits 31:0.
pub fn words(v: u128) -> [u32; 4] {
    [v as u32, (v >> 32) as u32, (v >> 64) as u32, (v >> 96) as u32]
}

/// The inverse of [`words`].
pub fn from_words(w: [u32; 4]) -> u128 {
    w.iter().enumerate().fold(0, |acc, (i, &x)| acc | u128::from(x) << (32 * i))
}

/// f32 bit patterns every conversion must get right: signed zeros, infinities, quiet and
/// signalling NaNs (with payloads whose top bits are zero, so narrowing must force a 1), the
/// smallest and largest denormals and normals, ±1, ±0.5, and the f16/f11/f10 overflow edges.
pub const SPECIAL_F32: &[u32] = &[
    0x0000_0000,
    0x8000_0000, // ±0
    0x7f80_0000,
    0xff80_0000, // ±inf
    0x7fc0_0000,
    0xffc0_0000,
    0x7f80_0001,
    0xff80_0001,
    0x7f80_1fff,
    0x7fbf_ffff,
    0x7fa0_0000, // NaNs
    0x0000_0001,
    0x8000_0001,
    0x007f_ffff,
    0x0080_0000,
    0x7f7f_ffff,
    0xff7f_ffff, // denormal/normal edges
    0x3f80_0000,
    0xbf80_0000,
    0x3f00_0000,
    0xbf00_0000,
    0x3f7f_ffff,
    0x3f80_0001,
    0xbf80_0001, // ±1, ±0.5
    0x477f_e000,
    0x477f_efff,
    0x477f_f000,
    0x4780_0000, // 65504, just below 65520, 65520, 65536
    0x477e_0000,
    0x477f_0000,
    0x477e_ffff, // f11 max 65024, 65280 (tie to inf), below it
    0x477c_0000,
    0x477d_ffff,
    0x477e_0001, // f10 max 64512 and its rounding edge
    0x3380_0000,
    0x3300_0000,
    0x3300_0001,
    0x387f_c000,
    0x3880_0000, // f16 denormal/normal edges
    0x3580_0000,
    0x3500_0000,
    0x3500_0001, // f11/f10 smallest denormal 2^-20 (f11) and halves
    0x4f80_0000,
    0x4f00_0000,
    0xcf00_0000,
    0x4effffff,
    0x477f_ff00,
    0x477f_ff80,
    0xc700_0000, // scaled saturation
];

/// f32 patterns for conversions: uniform bits, the specials above, small values, integers,
/// points of the unorm8/unorm16 grids and their neighbours, and f16 halfway points.
pub fn f32_bits() -> impl Strategy<Value = u32> {
    prop_oneof![
        4 => any::<u32>(),
        3 => proptest::sample::select(SPECIAL_F32),
        2 => (-2.5f32..2.5f32).prop_map(f32::to_bits),
        1 => (-70000i32..70000).prop_map(|v| (v as f32).to_bits()),
        // k / (2^w - 1) for w = 8 or 16, then nudged by -2..=2 ulp: the unorm/snorm pack edges,
        // and (k + 0.5) / (2^w - 1), the ties.
        2 => (0u32..65536, any::<bool>(), any::<bool>(), -2i32..=2).prop_map(|(k, wide, half, ulp)| {
            let max = if wide { 65535.0 } else { 255.0 };
            let k = if wide { f64::from(k) } else { f64::from(k % 256) };
            let v = (k + if half { 0.5 } else { 0.0 }) / max;
            (v as f32).to_bits().wrapping_add_signed(ulp)
        }),
        // An f16 value widened, plus a remainder at or around the halfway point of f32 -> f16.
        2 => (any::<u16>(), prop_oneof![Just(0x1000u32), Just(0x0fff), Just(0x1001), Just(0x0001), 0u32..0x2000])
            .prop_map(|(h, rest)| {
                let sign = u32::from(h >> 15) << 31;
                let exp = u32::from(h >> 10 & 0x1f);
                let man = u32::from(h & 0x3ff);
                if exp == 0 || exp == 31 {
                    sign | (exp << 23) | (man << 13) | rest
                } else {
                    sign | ((exp + 112) << 23) | (man << 13) | rest
                }
            }),
        1 => any::<u32>().prop_map(|m| m & 0x807f_ffff),
    ]
}

/// dfmt names of SPEC §1.4, for mismatch lines.
pub const DFMT_NAMES: [&str; 16] = [
    "0:INVALID",
    "1:8",
    "2:16",
    "3:8_8",
    "4:32",
    "5:16_16",
    "6:10_11_11",
    "7:11_11_10",
    "8:10_10_10_2",
    "9:2_10_10_10",
    "10:8_8_8_8",
    "11:32_32",
    "12:16_16_16_16",
    "13:32_32_32",
    "14:32_32_32_32",
    "15:reserved",
];

/// nfmt names of SPEC §1.4, for mismatch lines.
pub const NFMT_NAMES: [&str; 8] =
    ["0:unorm", "1:snorm", "2:uscaled", "3:sscaled", "4:uint", "5:sint", "6:reserved", "7:float"];
