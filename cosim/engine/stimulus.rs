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
    pub(crate) fn for_chunk(seed: u64, chunk: u64) -> Self {
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
    pub(crate) fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    #[inline]
    pub(crate) fn next_u128(&mut self) -> u128 {
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

    /// True with probability `p`.
    #[inline]
    pub(crate) fn chance(&mut self, p: f64) -> bool {
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
    pub(crate) fn weighted(&mut self, weights: &[u32]) -> usize {
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

/// The sum of `weights` (the length of [`weight_table`]'s table), at compile time.
pub(crate) const fn weight_total(weights: &[u32]) -> usize {
    let (mut total, mut i) = (0usize, 0);
    while i < weights.len() {
        total += weights[i] as usize;
        i += 1;
    }
    total
}

/// The lookup table of [`one_of!`](crate::one_of): entry `x` (for `x` in `0..total`) is the index
/// that [`Rng::weighted`] returns when its draw below the total is `x` (index i covers the
/// `weights[i]` entries after those of the indices before it), built at compile time.
pub(crate) const fn weight_table<const N: usize>(weights: &[u32]) -> [u8; N] {
    assert!(weights.len() <= 256, "one_of!: at most 256 alternatives");
    assert!(N == weight_total(weights), "one_of!: the table is as long as the weights' sum");
    let mut table = [0u8; N];
    let (mut i, mut at) = (0, 0);
    while i < weights.len() {
        let mut k = 0;
        while k < weights[i] {
            table[at] = i as u8;
            at += 1;
            k += 1;
        }
        i += 1;
    }
    table
}

/// The thresholds of [`pick!`](crate::pick) and [`pick_at!`](crate::pick_at): for uniform `u` of
/// `bits` bits, alternative `k` is taken when `u >= thresholds[k]` and no later one's threshold is
/// reached, exactly when [`scaled`]`(u, bits, total)` (for 64 bits: [`Rng::below`]`(total)`) falls in
/// `k`'s share of [`weight_table`]: `floor(u * total / 2^bits) >= C` (C the weights before `k`)
/// holds from `u = ceil(C * 2^bits / total)` on. The same choice as the table's from the same
/// bits, taken with compares and conditional moves, no table load and no multiply.
pub(crate) const fn thresholds<const N: usize>(weights: &[u32], bits: u32) -> [u64; N] {
    assert!(N == weights.len(), "pick!: one threshold per alternative");
    assert!(bits >= 1 && bits <= 64, "pick!: 1 to 64 bits");
    let total = weight_total(weights) as u128;
    assert!(total > 0, "pick!: the weights sum to more than 0");
    let mut out = [0u64; N];
    let (mut k, mut before) = (0, 0u128);
    while k < N {
        out[k] = (before << bits).div_ceil(total) as u64;
        before += weights[k] as u128;
        k += 1;
    }
    out
}

/// Evaluates one of the expressions, chosen with probability proportional to its weight, the
/// way proptest's `prop_oneof!` picks a strategy; only the chosen expression runs. The weights
/// are constants: the choice is one draw and one lookup in a table built at compile time
/// ([`weight_table`]), the same choice [`Rng::weighted`] makes from the same draw, without its
/// loop (on the lockstep run's hot path, stimulus is drawn for every cycle).
///
/// ```ignore
/// let size = one_of!(rng; 6 => rng.pick(&[0u8, 1, 3]), 1 => rng.below(16) as u8);
/// ```
#[macro_export]
macro_rules! one_of {
    ($rng:expr; $($weight:expr => $value:expr),+ $(,)?) => {{
        const __WEIGHTS: &[u32] = &[$($weight),+];
        const __TABLE: [u8; $crate::engine::stimulus::weight_total(__WEIGHTS)] =
            $crate::engine::stimulus::weight_table(__WEIGHTS);
        let mut __choice = __TABLE[$rng.below(__TABLE.len() as u64) as usize];
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

/// [`one_of!`](crate::one_of) for cheap alternatives that draw nothing themselves: every
/// expression is evaluated (from bits drawn before) and the chosen one is taken by comparing the
/// draw with [`thresholds`] and conditional moves, so the choice costs no branch. Random choices
/// are unpredictable branches: one mispredicted costs more than computing a few alternatives, and
/// stimulus is drawn for every cycle of a run.
///
/// ```ignore
/// let r = rng.next_u64();
/// let count = pick!(rng; 8 => 1 + (r & 3) as u8, 1 => 0, 1 => 5 + (r >> 2) as u8 % 3);
/// ```
#[macro_export]
macro_rules! pick {
    ($rng:expr; $($weight:expr => $value:expr),+ $(,)?) => {{
        $crate::pick_at!($rng.next_u64(), 64; $($weight => $value),+)
    }};
}

/// [`pick!`](crate::pick) that chooses with bits already drawn: the low `bits` bits of `x`
/// (uniform, at most 64), against [`thresholds`]: the choice of [`scaled`]`(x, bits, total)` in
/// [`weight_table`]. Every expression is evaluated and the chosen one selected: no draw, no
/// branch, no load.
///
/// ```ignore
/// let r = rng.next_u64();
/// let count = pick_at!(r >> 48, 16; 8 => 1 + (r & 3) as u8, 1 => 0, 1 => 5 + (r >> 2) as u8 % 3);
/// ```
#[macro_export]
macro_rules! pick_at {
    ($x:expr, $bits:expr; $($weight:expr => $value:expr),+ $(,)?) => {{
        const __WEIGHTS: &[u32] = &[$($weight),+];
        const __N: usize = __WEIGHTS.len();
        const __BITS: u32 = $bits;
        const __AT: [u64; __N] = $crate::engine::stimulus::thresholds::<__N>(__WEIGHTS, __BITS);
        let __u: u64 = if __BITS == 64 { $x } else { $x & ((1u64 << (__BITS % 64)) - 1) };
        let __values = [$($value),+];
        // The last alternative whose threshold `__u` reaches (the thresholds rise).
        let mut __chosen = __values[0];
        let mut __k = 1;
        while __k < __N {
            __chosen = std::hint::select_unpredictable(__u >= __AT[__k], __values[__k], __chosen);
            __k += 1;
        }
        __chosen
    }};
}

/// The DMASK of SPEC §4.3's row for `op` with `dfmt` (BY2 R8/R16 0x3, BY2 RG8 and BY4 0xF, PCK
/// 0x1), for the image units' stimulus; selected rather than matched, (op, dfmt) being a coin toss.
#[inline]
pub fn row_dmask(op: u8, dfmt: u8) -> u8 {
    let by_op = std::hint::select_unpredictable(op == 0, 0x3, 0x1);
    std::hint::select_unpredictable(((op == 0) & (dfmt == 3)) | (op == 1), 0xf, by_op)
}

/// The low `bits` bits of `x` (uniform, part of a draw already taken) scaled to `0..n` by
/// multiply-shift (bias below n / 2^bits): `below(n)` from a field of a draw.
#[inline(always)]
pub fn scaled(x: u64, bits: u32, n: u64) -> u64 {
    debug_assert!(bits <= 32 && n <= 1 << 32, "scaled: at most 32 bits, n at most 2^32");
    ((x & ((1 << bits) - 1)) * n) >> bits
}

/// The four 32-bit words of a 128-bit port (word 0 = bits 31:0) and back.
pub use gcn_vmem_model::unit::{from_words, words};

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
/// points of the unorm8/unorm16 grids and their neighbours, and f16 halfway points: [`f32_of`]
/// one draw.
#[inline]
pub fn f32_bits(rng: &mut Rng) -> u32 {
    f32_of(rng.next_u64())
}

/// [`f32_bits`] of the draw `r`: its top byte (bits 63:56) picks the kind (weights 4, 3, 2, 1, 2,
/// 2, 1 of 15, as a table), bits 47:0 are the kind's fields, and bits 55:48 are not read (a
/// caller may choose between this and other values with them). Every kind is computed and the
/// chosen one indexed, so that the choice is no branch.
#[inline]
pub fn f32_of(r: u64) -> u32 {
    const KINDS: [u8; 15] = weight_table(&[4, 3, 2, 1, 2, 2, 1]);
    let kind = usize::from(KINDS[scaled(r >> 56, 8, 15) as usize]);
    // k / (2^w - 1) for w = 8 or 16, then nudged by -2..=2 ulp: the unorm/snorm pack edges,
    // and (k + 0.5) / (2^w - 1), the ties.
    let grid = {
        let (k, wide, half) = (r & 0xffff, r >> 16 & 1 != 0, r >> 17 & 1 != 0);
        let ulp = scaled(r >> 32, 16, 5) as i32 - 2;
        // Times the reciprocal rather than over the maximum: a division costs as much as the rest
        // of this function, and the ±2 ulp nudge below covers a last-place difference.
        let (k, inv_max) = if wide { (k as f64, 1.0 / 65535.0) } else { ((k & 0xff) as f64, 1.0 / 255.0) };
        let v = (k + std::hint::select_unpredictable(half, 0.5, 0.0)) * inv_max;
        (v as f32).to_bits().wrapping_add_signed(ulp)
    };
    // An f16 value widened, plus a remainder at or around the halfway point of f32 -> f16
    // (the four edges, or any remainder, one in five each).
    let halfway = {
        let h = r as u16;
        let rests = [0x1000u32, 0x0fff, 0x1001, 0x0001, (r >> 16) as u32 & 0x1fff];
        let rest = rests[scaled(r >> 32, 16, 5) as usize];
        let sign = u32::from(h >> 15) << 31;
        let exp = u32::from(h >> 10 & 0x1f);
        let man = u32::from(h & 0x3ff);
        let exp = if exp == 0 || exp == 31 { exp } else { exp + 112 };
        sign | (exp << 23) | (man << 13) | rest
    };
    [
        r as u32,
        SPECIAL_F32[scaled(r >> 32, 16, SPECIAL_F32.len() as u64) as usize],
        (-2.5f32 + 5.0 * ((r as u32) >> 8) as f32 / (1u32 << 24) as f32).to_bits(),
        ((scaled(r, 32, 140_000) as i64 - 70_000) as f32).to_bits(),
        grid,
        halfway,
        r as u32 & 0x807f_ffff,
    ][kind]
}

/// Four dwords of data, one draw each: the first `read` (those the unit reads: a format's
/// components, an element's dwords) from `corner(k, draw)`, the others the draw's uniform bits,
/// which the unit must ignore (and is checked to). The corners cost; the ignored dwords need none.
#[inline]
pub(crate) fn read_dwords(rng: &mut Rng, read: usize, mut corner: impl FnMut(usize, u64) -> u32) -> [u32; 4] {
    std::array::from_fn(|k| {
        let r = rng.next_u64();
        if k < read {
            corner(k, r)
        } else {
            r as u32
        }
    })
}

/// A dword for a unit that moves its data without converting it (swizzle): uniform bits three
/// times in four, else one of [`SPECIAL_F32`]; one draw and no branch.
#[inline]
pub(crate) fn data_dword(rng: &mut Rng) -> u32 {
    let r = rng.next_u64();
    let special = SPECIAL_F32[scaled(r >> 32, 30, SPECIAL_F32.len() as u64) as usize];
    if r >> 62 == 0 {
        special
    } else {
        r as u32
    }
}

/// dfmt names of SPEC §1.4, for mismatch lines.
pub(crate) const DFMT_NAMES: [&str; 16] = [
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
pub(crate) const NFMT_NAMES: [&str; 8] =
    ["0:unorm", "1:snorm", "2:uscaled", "3:sscaled", "4:uint", "5:sint", "6:reserved", "7:float"];

#[cfg(test)]
mod tests {
    use super::*;

    /// `one_of!`'s table makes the choice `Rng::weighted` makes from the same draw.
    #[test]
    fn the_weight_table_chooses_as_weighted_does() {
        const WEIGHTS: &[u32] = &[4, 3, 2, 1, 2, 2, 1];
        let table: [u8; 15] = weight_table(WEIGHTS);
        assert_eq!(table, [0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 4, 4, 5, 5, 6]);
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..1000 {
            let chosen = crate::one_of!(a; 4 => 0, 3 => 1, 2 => 2, 1 => 3, 2 => 4, 2 => 5, 1 => 6);
            assert_eq!(chosen, b.weighted(WEIGHTS));
        }
    }

    /// `pick_at!`'s thresholds make the choice of `scaled` in the weight table, for every value
    /// of 8, 10 and 16 bits, and `pick!`'s that of `Rng::below` in the table, from the same draws
    /// (at the edges of each share and at random).
    #[test]
    fn the_thresholds_choose_as_the_weight_table_does() {
        fn table_choice(weights: &[u32], u: u64, bits: u32) -> usize {
            let total = weight_total(weights) as u64;
            let x = ((u128::from(u) * u128::from(total)) >> bits) as u64;
            // The table's entry x: the alternative whose share holds x.
            let mut before = 0;
            weights
                .iter()
                .position(|&w| {
                    before += u64::from(w);
                    x < before
                })
                .unwrap()
        }
        fn threshold_choice<const N: usize>(at: &[u64; N], u: u64) -> usize {
            (0..N).rev().find(|&k| u >= at[k]).unwrap()
        }
        const A: &[u32] = &[4, 3, 2, 1, 2, 2, 1];
        const B: &[u32] = &[20, 2, 1];
        const C: &[u32] = &[1, 0, 7, 1];
        for bits in [8, 10, 16] {
            let (a, b, c) = (thresholds::<7>(A, bits), thresholds::<3>(B, bits), thresholds::<4>(C, bits));
            for u in 0..1u64 << bits {
                assert_eq!(threshold_choice(&a, u), table_choice(A, u, bits), "A, {bits} bits, u = {u}");
                assert_eq!(threshold_choice(&b, u), table_choice(B, u, bits), "B, {bits} bits, u = {u}");
                assert_eq!(threshold_choice(&c, u), table_choice(C, u, bits), "C, {bits} bits, u = {u}");
            }
        }
        let a = thresholds::<7>(A, 64);
        let mut rng = Rng::new(3);
        let edges = a.iter().flat_map(|&t| [t.wrapping_sub(1), t, t + 1]);
        for u in edges.chain((0..100_000).map(|_| rng.next_u64())) {
            assert_eq!(threshold_choice(&a, u), table_choice(A, u, 64), "64 bits, u = {u:#x}");
        }
        // The macros themselves: alternative 1 of C (weight 0) is never taken.
        let mut rng = Rng::new(5);
        for _ in 0..10_000 {
            let r = rng.next_u64();
            let chosen = crate::pick_at!(r, 10; 1 => 0, 0 => 1, 7 => 2, 1 => 3);
            assert_eq!(chosen, table_choice(C, r & 1023, 10));
        }
    }

    /// Every f32 kind comes out of `f32_bits`, and `data_dword` gives specials and other bits.
    #[test]
    fn f32_bits_and_data_dwords_reach_their_kinds() {
        let mut rng = Rng::new(1);
        let draws: Vec<u32> = (0..20_000).map(|_| f32_bits(&mut rng)).collect();
        // A special that uniform bits almost never give, f16 halfway points, unorm8 grid points
        // (about 1 draw in 150: narrow, not a tie, no ulp nudge).
        assert!(draws.contains(&0x7f80_0001));
        assert!(draws.iter().any(|&d| d & 0x1fff == 0x1000));
        let grid: Vec<u32> = (0..256).map(|k| (f64::from(k) / 255.0) as f32).map(f32::to_bits).collect();
        let on_grid = draws.iter().filter(|d| grid.contains(d)).count();
        assert!(on_grid > 60, "{on_grid} unorm8 grid points in 20000 draws");
        let dwords: Vec<u32> = (0..4000).map(|_| data_dword(&mut rng)).collect();
        let specials = dwords.iter().filter(|d| SPECIAL_F32.contains(d)).count();
        assert!((800..1200).contains(&specials), "{specials} specials in 4000 dwords");
    }
}
