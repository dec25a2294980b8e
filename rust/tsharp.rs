//! T#: the image resource descriptor (128 or 256 bits, four or eight SGPRs).
//!
//! Spec: docs/spec.md §1.2  Used by: rust/image_addr.rs
//!
//! The descriptor is held as `BitArray<[u64; 4], Lsb0>`: word 0 is descriptor bits 63:0, word 3
//! bits 255:192, and within a word bit 0 is the least significant bit, so array index k is
//! descriptor bit k. Every field of SPEC §1.2's table lies inside one 64-bit word and is declared
//! once, with its explicit bit range, in the table's order, as a row of `descriptor!`
//! (rust/bits.rs), which derives [`TSharp`] and both conversions from the rows; a [`Field`]'s
//! `load_le` is a shift and a mask and its `store_le` writes through bitvec (plain `load` would
//! depend on the host's byte order). Bits the table does not name are ignored on decode and
//! written as 0 by [`TSharp::encode`].
//!
//! [`TSharp`] holds the raw fields (no interpretation): `width_minus_1` is the 14-bit field, not
//! the width. Whether the descriptor is 128 or 256 bits comes from the instruction (r128), not
//! from the T#; a 128-bit T# is decoded with `hi = 0` and its users apply §1.2's rules (depth
//! reads 0, pitch = width, no max_mip check).

use std::fmt;

use bitvec::prelude::*;

use crate::bits::{descriptor, Field};

/// The raw descriptor: bit k of the array is descriptor bit k.
pub type TSharpBits = BitArray<[u64; 4], Lsb0>;

/// 98:96, 101:99, 104:102, 107:105: dst_sel x, y, z, w, at the same bits as the V#'s (SPEC §1.1,
/// §1.2).
pub use crate::vsharp::{DST_SEL_W, DST_SEL_X, DST_SEL_Y, DST_SEL_Z};

// SPEC §1.2's table, in its order (`hi:lo` there is `lo..hi + 1` here).
descriptor! {
    /// A decoded T#. Every field holds exactly its descriptor bits, so [`TSharp::encode`] gives
    /// back the descriptor with its ignored bits cleared.
    pub struct TSharp(TSharpBits) {
        /// 39:0, base address in units of 256 bytes.
        const BASE: Field = Field::new(0..40) => base: u64;
        /// 51:40, min_lod (u4.8; not used by the modelled loads).
        const MIN_LOD: Field = Field::new(40..52) => min_lod: u16;
        /// 57:52, image data format: 0 = unbound, 1..=14 as SPEC §1.4.
        const DFMT: Field = Field::new(52..58) => dfmt: u8;
        /// 61:58, numeric format: 0..=7 as SPEC §1.4.
        const NFMT: Field = Field::new(58..62) => nfmt: u8;
        /// 77:64, width − 1 (mip 0).
        const WIDTH: Field = Field::new(64..78) => width_minus_1: u16;
        /// 91:78, height − 1 (mip 0).
        const HEIGHT: Field = Field::new(78..92) => height_minus_1: u16;
        /// 98:96, 101:99, 104:102, 107:105: dst_sel x, y, z, w (codes as the V#'s).
        const DST_SEL: [Field; 4] = [DST_SEL_X, DST_SEL_Y, DST_SEL_Z, DST_SEL_W] => dst_sel: [u8; 4];
        /// 111:108, the most detailed level of the view.
        const BASE_LEVEL: Field = Field::new(108..112) => base_level: u8;
        /// 115:112, the least detailed level of the view (MSAA: sample count).
        const LAST_LEVEL: Field = Field::new(112..116) => last_level: u8;
        /// 120:116, the surface's swizzle mode, numbered as GFX9 numbers it: 0 linear, 1 256B_S,
        /// 5 4KB_S, 9 64KB_S (SPEC §4.5); other values are not modelled.
        const SW_MODE: Field = Field::new(116..121) => sw_mode: u8;
        /// 127:124, resource type (see the `TYPE_*` codes).
        const TYPE: Field = Field::new(124..128) => kind: u8;
        /// 140:128, depth − 1 (3D: depth; arrays: layers; cube: cube count); 256-bit form.
        const DEPTH: Field = Field::new(128..141) => depth_minus_1: u16;
        /// 156:141, pitch − 1 in texels; 256-bit form.
        const PITCH: Field = Field::new(141..157) => pitch_minus_1: u16;
        /// 191:188, max_mip (resource mip count − 1); 256-bit form.
        const MAX_MIP: Field = Field::new(188..192) => max_mip: u8;
    }
}

/// The bits of descriptor bits 127:0 that SPEC §1.2 names (62, 63, 92..=95 and 121..=123 are
/// not fields).
pub const DEFINED_MASK_LO: u128 = !((0b11u128 << 62) | (0b1111u128 << 92) | (0b111u128 << 121));
/// The bits of descriptor bits 255:128 that SPEC §1.2 names: depth, pitch (bits 28:0 of the
/// high half) and max_mip (63:60).
pub const DEFINED_MASK_HI: u128 = ((1u128 << 29) - 1) | (0b1111u128 << 60);

/// Resource types (SPEC §1.2); below 8 the T# is unbound.
pub const TYPE_1D: u8 = 8;
pub const TYPE_2D: u8 = 9;
pub const TYPE_3D: u8 = 10;
pub const TYPE_CUBE: u8 = 11;
pub const TYPE_1D_ARRAY: u8 = 12;
pub const TYPE_2D_ARRAY: u8 = 13;
pub const TYPE_2D_MSAA: u8 = 14;
pub const TYPE_2D_MSAA_ARRAY: u8 = 15;

/// The name of a resource type code, for messages (`"2D"`, `"cube"`; below 8: `"unbound"`).
pub fn type_name(kind: u8) -> &'static str {
    match kind & 0xf {
        TYPE_1D => "1D",
        TYPE_2D => "2D",
        TYPE_3D => "3D",
        TYPE_CUBE => "cube",
        TYPE_1D_ARRAY => "1D array",
        TYPE_2D_ARRAY => "2D array",
        TYPE_2D_MSAA => "2D MSAA",
        TYPE_2D_MSAA_ARRAY => "2D MSAA array",
        _ => "unbound",
    }
}

/// The descriptor as a bit array from its two 128-bit halves (`lo` = bits 127:0).
#[inline]
pub fn to_bits(lo: u128, hi: u128) -> TSharpBits {
    // Truncation to each 64-bit word is the point.
    BitArray::new([lo as u64, (lo >> 64) as u64, hi as u64, (hi >> 64) as u64])
}

/// The inverse of [`to_bits`]: `(lo, hi)`.
pub fn from_bits(bits: &TSharpBits) -> (u128, u128) {
    let w = bits.data;
    (u128::from(w[0]) | (u128::from(w[1]) << 64), u128::from(w[2]) | (u128::from(w[3]) << 64))
}

impl TSharp {
    /// Splits a descriptor into its fields: `lo` is bits 127:0 (the first four SGPRs), `hi` bits
    /// 255:128 (pass 0 for a 128-bit T#).
    #[inline]
    pub fn decode(lo: u128, hi: u128) -> TSharp {
        TSharp::decode_bits(&to_bits(lo, hi))
    }

    /// Packs the fields back into `(lo, hi)`; each field is truncated to its width and the
    /// ignored bits are 0. `TSharp::decode(lo, hi) == t` for `(lo, hi) = t.encode()` and every
    /// in-range `t`.
    pub fn encode(&self) -> (u128, u128) {
        from_bits(&self.encode_bits())
    }

    /// SPEC §1.2: bound when dfmt != 0 and type >= 8.
    pub fn is_bound(&self) -> bool {
        self.dfmt != 0 && self.kind >= TYPE_1D
    }

    /// Width of mip 0 in texels (1..=16384).
    pub fn width(&self) -> u32 {
        u32::from(self.width_minus_1) + 1
    }

    /// Height of mip 0 in texels (1..=16384).
    pub fn height(&self) -> u32 {
        u32::from(self.height_minus_1) + 1
    }

    /// Depth, layers or cubes (1..=8192) of a 256-bit T#.
    pub fn depth(&self) -> u32 {
        u32::from(self.depth_minus_1) + 1
    }

    /// Pitch of mip 0 in texels (1..=65536) of a 256-bit T#.
    pub fn pitch(&self) -> u32 {
        u32::from(self.pitch_minus_1) + 1
    }
}

impl fmt::Display for TSharp {
    /// One line, sizes shown as sizes (field + 1), e.g. `base=0x0000001234 dfmt=1 nfmt=0
    /// type=9(2D) width=64 height=32 depth=1 pitch=64 base_level=0 last_level=3 max_mip=3
    /// dst_sel=XYZW min_lod=0x000`; `sw_mode=N` is appended only when non-zero. The base is in
    /// 256-byte units, as the field holds it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sel: String = self.dst_sel.iter().map(|&s| crate::vsharp::sel_char(s)).collect();
        write!(
            f,
            "base={:#012x} dfmt={} nfmt={} type={}({}) width={} height={} depth={} pitch={} \
             base_level={} last_level={} max_mip={} dst_sel={} min_lod={:#05x}",
            self.base,
            self.dfmt,
            self.nfmt,
            self.kind,
            type_name(self.kind),
            self.width(),
            self.height(),
            self.depth(),
            self.pitch(),
            self.base_level,
            self.last_level,
            self.max_mip,
            sel,
            self.min_lod,
        )?;
        if self.sw_mode != 0 {
            write!(f, " sw_mode={}", self.sw_mode)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A 2D R8 unorm image, built by hand: base 0x12_3456_789a (×256), min_lod 0x123,
    /// dfmt 1, nfmt 0, 64 × 32 (fields 63, 31), dst_sel XYZW, levels 1..3, sw_mode 0, type 9,
    /// depth field 0, pitch field 127, max_mip 5.
    /// - word 0 (bits 63:0): base 0x12_3456_789a | min_lod 0x123 << 40 | dfmt 1 << 52 | nfmt 0
    ///   = 0x0011_2312_3456_789a
    /// - word 1 (bits 127:64): width 63 → 0x3f; height 31 << 14 = 0x7_c000; dst_sel at 32..44:
    ///   x 4, y 5 << 3 = 0x28, z 6 << 6 = 0x180, w 7 << 9 = 0xe00 → 0xfac << 32; base_level 1 << 44;
    ///   last_level 3 << 48; type 9 << 60 → 0x9003_1fac_0007_c03f
    /// - word 2 (bits 191:128): depth 0; pitch 127 << 13 = 0xf_e000; max_mip 5 << 60
    ///   → 0x5000_0000_000f_e000
    /// - word 3: 0
    const LO: u128 = 0x9003_1fac_0007_c03f_0011_2312_3456_789a;
    const HI: u128 = 0x5000_0000_000f_e000;

    fn hand_fields() -> TSharp {
        TSharp {
            base: 0x12_3456_789a,
            min_lod: 0x123,
            dfmt: 1,
            nfmt: 0,
            width_minus_1: 63,
            height_minus_1: 31,
            dst_sel: [4, 5, 6, 7],
            base_level: 1,
            last_level: 3,
            sw_mode: 0,
            kind: TYPE_2D,
            depth_minus_1: 0,
            pitch_minus_1: 127,
            max_mip: 5,
        }
    }

    #[test]
    fn hand_built_descriptor_decodes() {
        let t = TSharp::decode(LO, HI);
        assert_eq!(t, hand_fields());
        assert_eq!(t.encode(), (LO, HI));
        assert!(t.is_bound());
        assert_eq!((t.width(), t.height(), t.depth(), t.pitch()), (64, 32, 1, 128));
        assert_eq!(
            t.to_string(),
            "base=0x123456789a dfmt=1 nfmt=0 type=9(2D) width=64 height=32 depth=1 pitch=128 \
             base_level=1 last_level=3 max_mip=5 dst_sel=XYZW min_lod=0x123"
        );
    }

    /// Field edges: all-ones fields by hand.
    /// - dfmt 0x3f (bits 57:52) and nfmt 0xf (61:58): word 0 bits 61:52 = 0x3ff << 52.
    /// - sw_mode 0x1f (bits 120:116 → word 1 bits 56:52), type 15 (127:124 → 63:60).
    /// - depth 0x1fff (bits 140:128 → word 2 bits 12:0), pitch 0xffff (156:141 → 28:13),
    ///   max_mip 15 (191:188 → 63:60).
    #[test]
    fn field_edges() {
        let lo = (0x3ffu128 << 52) | (0x1fu128 << 116) | (0xfu128 << 124);
        let hi = 0x1fffu128 | (0xffffu128 << 13) | (0xfu128 << 60);
        let t = TSharp::decode(lo, hi);
        assert_eq!((t.dfmt, t.nfmt, t.sw_mode, t.kind), (0x3f, 0xf, 0x1f, 15));
        assert_eq!((t.depth_minus_1, t.pitch_minus_1, t.max_mip), (0x1fff, 0xffff, 15));
        assert_eq!((t.depth(), t.pitch()), (8192, 65536));
        assert_eq!(t.base, 0);
        assert_eq!(t.encode(), (lo, hi));
        assert!(t.to_string().ends_with(
            "type=15(2D MSAA array) width=1 height=1 depth=8192 pitch=65536 base_level=0 \
             last_level=0 max_mip=15 dst_sel=0000 min_lod=0x000 sw_mode=31"
        ));
        // Width and height fields at their edges: word 1 bits 13:0 and 27:14.
        let t = TSharp::decode(0x0fff_ffffu128 << 64, 0);
        assert_eq!((t.width(), t.height()), (16384, 16384));
    }

    /// Bits outside the table are ignored on decode and cleared by encode.
    #[test]
    fn ignored_bits() {
        let (lo_ignored, hi_ignored) = (!DEFINED_MASK_LO, !DEFINED_MASK_HI);
        // Lo: 62, 63, 92..=95, 121..=123: 2 + 4 + 3 = 9 bits. Hi: 256 − 128 − 29 − 4 = 95 bits.
        assert_eq!((lo_ignored.count_ones(), hi_ignored.count_ones()), (9, 95));
        assert_eq!(TSharp::decode(lo_ignored, hi_ignored), TSharp::default());
        assert_eq!(TSharp::decode(LO | lo_ignored, HI | hi_ignored).encode(), (LO, HI));
    }

    #[test]
    fn bound_and_type_names() {
        let t = hand_fields();
        assert!(!TSharp { dfmt: 0, ..t }.is_bound());
        assert!(!TSharp { kind: 7, ..t }.is_bound());
        assert!(TSharp { kind: TYPE_1D, ..t }.is_bound());
        assert_eq!(type_name(0), "unbound");
        assert_eq!(type_name(TYPE_CUBE), "cube");
        assert_eq!(type_name(TYPE_2D_ARRAY), "2D array");
    }

    /// Every field, to check it reads as bitvec's own `load_le` of its slice reads it.
    const FIELDS: [Field; 17] = [
        BASE, MIN_LOD, DFMT, NFMT, WIDTH, HEIGHT, DST_SEL_X, DST_SEL_Y, DST_SEL_Z, DST_SEL_W, BASE_LEVEL, LAST_LEVEL,
        SW_MODE, TYPE, DEPTH, PITCH, MAX_MIP,
    ];

    proptest! {
        #[test]
        fn fields_load_as_bitvec_loads_them(lo in any::<u128>(), hi in any::<u128>()) {
            for f in FIELDS {
                crate::bits::tests::loads_like_bitvec(f, &to_bits(lo, hi));
            }
        }

        #[test]
        fn decode_encode_round_trip(lo in any::<u128>(), hi in any::<u128>()) {
            let t = TSharp::decode(lo, hi);
            prop_assert_eq!(t.encode(), (lo & DEFINED_MASK_LO, hi & DEFINED_MASK_HI));
            let (elo, ehi) = t.encode();
            prop_assert_eq!(TSharp::decode(elo, ehi), t);
        }

        #[test]
        fn encode_decode_round_trip(
            base in 0u64..1 << 40, min_lod in 0u16..1 << 12, dfmt in 0u8..64, nfmt in 0u8..16,
            width_minus_1 in 0u16..1 << 14, height_minus_1 in 0u16..1 << 14,
            dst_sel in proptest::array::uniform4(0u8..8), base_level in 0u8..16, last_level in 0u8..16,
            sw_mode in 0u8..32, kind in 0u8..16, depth_minus_1 in 0u16..1 << 13,
            pitch_minus_1: u16, max_mip in 0u8..16,
        ) {
            let t = TSharp {
                base, min_lod, dfmt, nfmt, width_minus_1, height_minus_1, dst_sel, base_level,
                last_level, sw_mode, kind, depth_minus_1, pitch_minus_1, max_mip,
            };
            let (lo, hi) = t.encode();
            prop_assert_eq!(TSharp::decode(lo, hi), t);
        }
    }
}
