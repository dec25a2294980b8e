//! V#: the 128-bit buffer resource descriptor (four SGPRs).
//!
//! Spec: docs/spec.md §1.1  Used by: rust/buffer_addr.rs
//!
//! The descriptor is held as `BitArray<[u64; 2], Lsb0>`: word 0 is descriptor bits 63:0 (the first
//! two SGPRs, little-endian), and within a word bit 0 is the least significant bit, so array index
//! k is descriptor bit k. Every field is declared once, with its explicit bit range, in the order
//! of SPEC §1.1's table, as a row of `descriptor!` (rust/bits.rs), which derives [`VSharp`] and
//! both conversions from the rows. Each [`Field`] lies inside one 64-bit word, so that `load_le`
//! compiles to a shift and a mask (the lockstep loop decodes a V# every cycle); `store_le` writes
//! through bitvec (plain `load` would depend on the host's byte order). Bits the
//! table does not name (120..=122, 124..=125) are ignored on decode and written as 0 by
//! [`VSharp::encode`].

use std::fmt;

use bitvec::prelude::*;

use crate::bits::{descriptor, Field};

/// The raw descriptor: bit k of the array is descriptor bit k.
pub type VSharpBits = BitArray<[u64; 2], Lsb0>;

/// 98:96, dst_sel x.
pub const DST_SEL_X: Field = Field::new(96..99);
/// 101:99, dst_sel y.
pub const DST_SEL_Y: Field = Field::new(99..102);
/// 104:102, dst_sel z.
pub const DST_SEL_Z: Field = Field::new(102..105);
/// 107:105, dst_sel w.
pub const DST_SEL_W: Field = Field::new(105..108);

// SPEC §1.1's table, in its order (`hi:lo` there is `lo..hi + 1` here).
descriptor! {
    /// A decoded V#. Every field holds exactly its descriptor bits (no interpretation), so
    /// [`VSharp::encode`] gives back the descriptor with its ignored bits cleared.
    pub struct VSharp(VSharpBits) {
        /// 47:0, byte address.
        const BASE: Field = Field::new(0..48) => base: u64;
        /// 61:48, bytes (§2.2 extends it to 18 bits with dfmt).
        const STRIDE: Field = Field::new(48..62) => stride: u16;
        /// 62, cache-bank hint; no effect.
        const CACHE_SWIZZLE: Field = Field::bit(62) => cache_swizzle: bool;
        /// 63, swizzled addressing.
        const SWIZZLE_EN: Field = Field::bit(63) => swizzle_en: bool;
        /// 95:64, range-check limit.
        const NUM_RECORDS: Field = Field::new(64..96) => num_records: u32;
        /// 98:96, 101:99, 104:102, 107:105: dst_sel x, y, z, w.
        const DST_SEL: [Field; 4] = [DST_SEL_X, DST_SEL_Y, DST_SEL_Z, DST_SEL_W] => dst_sel: [u8; 4];
        /// 110:108, numeric format.
        const NFMT: Field = Field::new(108..111) => nfmt: u8;
        /// 114:111, data format, 0 = INVALID (unbound); stride[17:14] under §2.2's extension.
        const DFMT: Field = Field::new(111..115) => dfmt: u8;
        /// 116:115, swizzled element size code: 2, 4, 8, 16 bytes ([`VSharp::element_bytes`]).
        const ELEMENT_SIZE: Field = Field::new(115..117) => element_size: u8;
        /// 118:117, swizzled index stride code: 8, 16, 32, 64 ([`VSharp::index_stride_records`]).
        const INDEX_STRIDE: Field = Field::new(117..119) => index_stride: u8;
        /// 119, add the lane id to the index.
        const ADD_TID_EN: Field = Field::bit(119) => add_tid_en: bool;
        /// 123, non-volatile hint; no effect.
        const NV: Field = Field::bit(123) => nv: bool;
        /// 127:126, resource type (0 = buffer; other values are treated as 0).
        const TYPE: Field = Field::new(126..128) => kind: u8;
    }
}

/// The descriptor bits SPEC §1.1 names; the rest are ignored.
pub const DEFINED_MASK: u128 = !((0b111u128 << 120) | (0b11u128 << 124));

/// dst_sel codes (SPEC §1.1). 2 and 3 are reserved and read as SEL_0.
pub const SEL_0: u8 = 0;
pub const SEL_1: u8 = 1;
pub const SEL_X: u8 = 4;
pub const SEL_Y: u8 = 5;
pub const SEL_Z: u8 = 6;
pub const SEL_W: u8 = 7;

/// The descriptor as a bit array (word 0 = bits 31:0).
#[inline]
pub fn to_bits(raw: u128) -> VSharpBits {
    // Truncation to each 64-bit word is the point.
    BitArray::new([raw as u64, (raw >> 64) as u64])
}

/// The inverse of [`to_bits`].
pub fn from_bits(bits: &VSharpBits) -> u128 {
    let w = bits.data;
    u128::from(w[0]) | (u128::from(w[1]) << 64)
}

impl VSharp {
    /// Splits a descriptor into its fields (bit k of `raw` = descriptor bit k).
    #[inline]
    pub fn decode(raw: u128) -> VSharp {
        VSharp::decode_bits(&to_bits(raw))
    }

    /// Packs the fields back into a descriptor; each field is truncated to its width and the
    /// ignored bits are 0. `VSharp::decode(v.encode()) == v` for every in-range `v`.
    pub fn encode(&self) -> u128 {
        from_bits(&self.encode_bits())
    }

    /// Swizzle element size E in bytes: 2, 4, 8 or 16 (SPEC §1.1, §2.3).
    pub fn element_bytes(&self) -> u32 {
        2 << (self.element_size & 3)
    }

    /// Swizzle index stride S in records: 8, 16, 32 or 64 (SPEC §1.1, §2.3).
    pub fn index_stride_records(&self) -> u32 {
        8 << (self.index_stride & 3)
    }
}

/// One character per dst_sel code: `0`, `1`, `X`..`W`; reserved codes show as their digit (the
/// T#'s codes are the V#'s).
pub(crate) fn sel_char(code: u8) -> char {
    match code & 7 {
        SEL_0 => '0',
        SEL_1 => '1',
        SEL_X => 'X',
        SEL_Y => 'Y',
        SEL_Z => 'Z',
        SEL_W => 'W',
        2 => '2',
        _ => '3',
    }
}

impl fmt::Display for VSharp {
    /// One line, e.g. `base=0x000012345678 stride=16 swz=1 num_records=0x100 dfmt=4 nfmt=7
    /// elem=4B idx_stride=16 add_tid=0 dst_sel=XYZW`; the no-effect fields (cache_swizzle, nv,
    /// type) are appended only when non-zero.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sel: String = self.dst_sel.iter().map(|&s| sel_char(s)).collect();
        write!(
            f,
            "base={:#014x} stride={} swz={} num_records={:#x} dfmt={} nfmt={} elem={}B \
             idx_stride={} add_tid={} dst_sel={}",
            self.base,
            self.stride,
            u8::from(self.swizzle_en),
            self.num_records,
            self.dfmt,
            self.nfmt,
            self.element_bytes(),
            self.index_stride_records(),
            u8::from(self.add_tid_en),
            sel,
        )?;
        if self.cache_swizzle {
            f.write_str(" cache_swz=1")?;
        }
        if self.nv {
            f.write_str(" nv=1")?;
        }
        if self.kind != 0 {
            write!(f, " type={}", self.kind)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// base 0x0000_1234_5678, stride 16, swizzle_en, num_records 0x100, dst_sel XYZW (4 5 6 7),
    /// nfmt 7 (float), dfmt 4 (32), element_size 1 (4 B), index_stride 1 (16), built by hand:
    /// - word 0 (bits 31:0)  = base[31:0]                                    = 0x1234_5678
    /// - word 1 (bits 63:32) = base[47:32] 0x0000 | stride 16 << 16 | swizzle_en << 31
    ///   = 0x0010_0000 | 0x8000_0000                                        = 0x8010_0000
    /// - word 2 (bits 95:64) = num_records                                   = 0x0000_0100
    /// - word 3 (bits 127:96): x 4 << 0 = 0x004, y 5 << 3 = 0x028, z 6 << 6 = 0x180,
    ///   w 7 << 9 = 0xe00 (sum 0xfac); nfmt 7 << 12 = 0x7000; dfmt 4 << 15 = 0x2_0000;
    ///   element_size 1 << 19 = 0x8_0000; index_stride 1 << 21 = 0x20_0000  = 0x002a_7fac
    const HAND: u128 = 0x002a_7fac_0000_0100_8010_0000_1234_5678;

    fn hand_fields() -> VSharp {
        VSharp {
            base: 0x1234_5678,
            stride: 16,
            cache_swizzle: false,
            swizzle_en: true,
            num_records: 0x100,
            dst_sel: [SEL_X, SEL_Y, SEL_Z, SEL_W],
            nfmt: 7,
            dfmt: 4,
            element_size: 1,
            index_stride: 1,
            add_tid_en: false,
            nv: false,
            kind: 0,
        }
    }

    #[test]
    fn hand_built_descriptor_decodes() {
        let v = VSharp::decode(HAND);
        assert_eq!(v, hand_fields());
        assert_eq!(v.element_bytes(), 4);
        assert_eq!(v.index_stride_records(), 16);
        assert_eq!(v.encode(), HAND);
        assert_eq!(
            v.to_string(),
            "base=0x000012345678 stride=16 swz=1 num_records=0x100 dfmt=4 nfmt=7 elem=4B \
             idx_stride=16 add_tid=0 dst_sel=XYZW"
        );
    }

    /// The single-bit fields and the top word, by hand: word 3 = add_tid_en (bit 119 → 23)
    /// 0x0080_0000 | nv (bit 123 → 27) 0x0800_0000 | type 2 (bits 127:126 → 31:30) 0x8000_0000
    /// = 0x8880_0000; word 1 = base[47:32] 0xffff | stride 0x3fff << 16 | cache_swizzle << 30
    /// = 0x7fff_ffff (swizzle_en clear); word 0 = 0xffff_ffff; word 2 = 0xffff_ffff.
    #[test]
    fn flags_and_field_edges() {
        let raw: u128 = 0x8880_0000_ffff_ffff_7fff_ffff_ffff_ffff;
        let v = VSharp::decode(raw);
        assert_eq!(v.base, 0xffff_ffff_ffff);
        assert_eq!(v.stride, 0x3fff);
        assert!(v.cache_swizzle);
        assert!(!v.swizzle_en);
        assert_eq!(v.num_records, u32::MAX);
        assert_eq!(v.dst_sel, [0; 4]);
        assert_eq!((v.nfmt, v.dfmt, v.element_size, v.index_stride), (0, 0, 0, 0));
        assert!(v.add_tid_en);
        assert!(v.nv);
        assert_eq!(v.kind, 2);
        assert_eq!(v.encode(), raw);
        assert!(v.to_string().ends_with("dst_sel=0000 cache_swz=1 nv=1 type=2"));
    }

    /// Bits 120..=122 and 124..=125 are not fields: decode ignores them, encode clears them.
    #[test]
    fn ignored_bits() {
        let ignored = 0b0011_0111u128 << 120; // bits 120, 121, 122, 124, 125
        assert_eq!(ignored, !DEFINED_MASK);
        assert_eq!(VSharp::decode(ignored), VSharp::default());
        assert_eq!(VSharp::decode(HAND | ignored).encode(), HAND);
    }

    #[test]
    fn reserved_dst_sel_display() {
        let v = VSharp { dst_sel: [SEL_X, 2, 3, SEL_1], ..hand_fields() };
        assert!(v.to_string().ends_with("dst_sel=X231"));
    }

    /// Every field reads as bitvec's own `load_le` of its slice reads it.
    const FIELDS: [Field; 16] = [
        BASE,
        STRIDE,
        CACHE_SWIZZLE,
        SWIZZLE_EN,
        NUM_RECORDS,
        DST_SEL_X,
        DST_SEL_Y,
        DST_SEL_Z,
        DST_SEL_W,
        NFMT,
        DFMT,
        ELEMENT_SIZE,
        INDEX_STRIDE,
        ADD_TID_EN,
        NV,
        TYPE,
    ];

    proptest! {
        #[test]
        fn fields_load_as_bitvec_loads_them(raw in any::<u128>()) {
            for f in FIELDS {
                crate::bits::tests::loads_like_bitvec(f, &to_bits(raw));
            }
        }

        #[test]
        fn decode_encode_round_trip(raw in any::<u128>()) {
            let v = VSharp::decode(raw);
            prop_assert_eq!(v.encode(), raw & DEFINED_MASK);
            prop_assert_eq!(VSharp::decode(v.encode()), v);
        }

        #[test]
        fn encode_decode_round_trip(
            base in 0u64..1 << 48, stride in 0u16..1 << 14, cache_swizzle: bool,
            swizzle_en: bool, num_records: u32, dst_sel in proptest::array::uniform4(0u8..8),
            nfmt in 0u8..8, dfmt in 0u8..16, element_size in 0u8..4, index_stride in 0u8..4,
            add_tid_en: bool, nv: bool, kind in 0u8..4,
        ) {
            let v = VSharp {
                base, stride, cache_swizzle, swizzle_en, num_records, dst_sel, nfmt, dfmt,
                element_size, index_stride, add_tid_en, nv, kind,
            };
            prop_assert_eq!(VSharp::decode(v.encode()), v);
        }
    }
}
