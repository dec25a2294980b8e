//! The harness's one RNG ([`Rng`]) and one hash ([`hash`]), and the stimulus pieces shared by the
//! unit bindings: the RNG every unit draws its random inputs from ([`one_of!`](crate::one_of)), f32 patterns that sit on the conversion corners
//! of SPEC §5/§6, and the u128 <-> four-dword conversions of component ports.
//!
//! Random inputs are drawn straight from an RNG, not through proptest value trees: a value tree
//! per vector cost 15–80 times the simulation of the vector. A failing case is minimised by the
//! generic shrinker of `run` instead, which works on port fields.

/// The stimulus RNG: SplitMix64 (one 64-bit word of state, a few cycles per draw, good enough
/// statistics for stimulus; not for cryptography). The same seed gives the same stream on every
/// machine.
#[derive(Clone, Debug)]
pub struct Rng(u64);

/// The harness's one hash: 64-bit FNV-1a. Stable across machines and releases, so it names
/// vector files by their contents and derives per-chunk seeds.
pub fn hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// Valid vectors per chunk of work (one RNG seed each, [`Rng::for_chunk`]): a chunk draws cases
/// until it holds at least this many, so the chunks of a run follow from its budget alone
/// (`ceil(vectors / CHUNK_VECTORS)` of them) and `--shard K/N` can split them without running
/// anything.
pub const CHUNK_VECTORS: u64 = 4096;

/// SplitMix64's increment.
const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The generator of chunk `chunk` of a run seeded `seed` (random runs split their vectors
    /// into chunks, so the cases depend on the seed only, not on threads or shards).
    pub fn for_chunk(seed: u64, chunk: u64) -> Self {
        // 0x6763_6e2d_766d_656d is "gcn-vmem".
        Rng::new(hash(&[seed.to_le_bytes(), (chunk ^ 0x6763_6e2d_766d_656d).to_le_bytes()].concat()))
    }

    /// SplitMix64's output function of state `z`: the `k`-th draw of `Rng::new(s)` is
    /// `mix(s + k·0x9e37_79b9_7f4a_7c15)`, k from 1.
    #[inline]
    pub fn mix(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GOLDEN);
        Self::mix(self.0)
    }

    /// A fair coin.
    #[inline]
    pub fn bit(&mut self) -> bool {
        self.next_u64() >> 63 != 0
    }

    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    #[inline]
    pub fn next_u128(&mut self) -> u128 {
        u128::from(self.next_u64()) << 64 | u128::from(self.next_u64())
    }

    /// Uniform in `0..n` (`n > 0`; 0 for `n == 0`), by Lemire's multiply-shift.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// Uniform in `range` (half-open, `start < end`).
    #[inline]
    pub fn range(&mut self, range: std::ops::Range<u64>) -> u64 {
        range.start + self.below(range.end - range.start)
    }

    /// Uniform in `range` of signed integers (inclusive).
    #[inline]
    pub fn range_i64(&mut self, range: std::ops::RangeInclusive<i64>) -> i64 {
        let span = (*range.end() - *range.start()) as u64 + 1;
        range.start().wrapping_add(self.below(span) as i64)
    }

    /// True with probability `p`.
    #[inline]
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64) < p
    }

    #[inline]
    pub fn bool(&mut self) -> bool {
        self.next_u64() >> 63 != 0
    }

    /// One element of `items` (not empty), uniformly.
    #[inline]
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    /// An index into `weights` with probability proportional to its weight.
    #[inline]
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
        let mut x = self.below(total);
        for (i, &w) in weights.iter().enumerate() {
            if x < u64::from(w) {
                return i;
            }
            x -= u64::from(w);
        }
        weights.len() - 1
    }
}

/// A generator as a proptest strategy: each value is `generate` of a fresh RNG seeded from a
/// drawn `u64` (so it shrinks as a seed).
pub fn from_rng<T: std::fmt::Debug>(generate: fn(&mut Rng) -> T) -> impl proptest::strategy::Strategy<Value = T> {
    use proptest::strategy::Strategy as _;
    proptest::arbitrary::any::<u64>().prop_map(move |seed| generate(&mut Rng::new(seed)))
}

/// Evaluates one of the expressions, chosen with probability proportional to its weight, the
/// way proptest's `prop_oneof!` picks a strategy; only the chosen expression runs.
///
/// ```ignore
/// let size = one_of!(rng; 6 => rng.pick(&[0u8, 1, 3]), 1 => rng.below(16) as u8);
/// ```
#[macro_export]
macro_rules! one_of {
    ($rng:expr; $($weight:expr => $value:expr),+ $(,)?) => {{
        let mut __choice = $rng.weighted(&[$($weight),+]);
        let mut __out = None;
        $(
            if __out.is_none() {
                if __choice == 0 {
                    __out = Some($value);
                } else {
                    __choice -= 1;
                }
            }
        )+
        __out.expect("one_of!: a weight was chosen")
    }};
}

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
pub fn f32_bits(rng: &mut Rng) -> u32 {
    crate::one_of!(rng;
        4 => rng.next_u32(),
        3 => rng.pick(SPECIAL_F32),
        2 => (-2.5f32 + 5.0 * (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32).to_bits(),
        1 => (rng.range_i64(-70000..=69999) as f32).to_bits(),
        // k / (2^w - 1) for w = 8 or 16, then nudged by -2..=2 ulp: the unorm/snorm pack edges,
        // and (k + 0.5) / (2^w - 1), the ties.
        2 => {
            let (k, wide, half, ulp) = (rng.below(65536), rng.bool(), rng.bool(), rng.range_i64(-2..=2));
            let max = if wide { 65535.0 } else { 255.0 };
            let k = if wide { k as f64 } else { (k % 256) as f64 };
            let v = (k + if half { 0.5 } else { 0.0 }) / max;
            (v as f32).to_bits().wrapping_add_signed(ulp as i32)
        },
        // An f16 value widened, plus a remainder at or around the halfway point of f32 -> f16.
        2 => {
            let h = rng.next_u32() as u16;
            let rest = crate::one_of!(rng;
                1 => 0x1000u32, 1 => 0x0fff, 1 => 0x1001, 1 => 0x0001, 1 => rng.below(0x2000) as u32);
            let sign = u32::from(h >> 15) << 31;
            let exp = u32::from(h >> 10 & 0x1f);
            let man = u32::from(h & 0x3ff);
            if exp == 0 || exp == 31 {
                sign | (exp << 23) | (man << 13) | rest
            } else {
                sign | ((exp + 112) << 23) | (man << 13) | rest
            }
        },
        1 => rng.next_u32() & 0x807f_ffff,
    )
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
