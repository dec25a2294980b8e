//! Data and numeric formats: SPEC §1.4's dfmt table as field layouts, the nfmt codes,
//! `format_valid` and the element size.
//!
//! Spec: docs/spec.md §1.4  Used by: rust/format_unpack.rs, rust/format_pack.rs, rust/d16.rs
//!
//! A format name lists its fields from the most significant end, so the rightmost number is X at
//! bit 0: dfmt 6 "10_11_11" is X[10:0] Y[21:11] Z[31:22] (11, 11, 10 bits) and dfmt 9
//! "2_10_10_10" is X[9:0] Y[19:10] Z[29:20] W[31:30] (docs/decisions.md lists the widths X first).

/// dfmt 0: INVALID (an unbound V#).
pub const DFMT_INVALID: u8 = 0;
/// dfmt 15: reserved, treated as invalid.
pub const DFMT_RESERVED: u8 = 15;

/// nfmt codes (SPEC §1.4).
pub const NFMT_UNORM: u8 = 0;
pub const NFMT_SNORM: u8 = 1;
pub const NFMT_USCALED: u8 = 2;
pub const NFMT_SSCALED: u8 = 3;
pub const NFMT_UINT: u8 = 4;
pub const NFMT_SINT: u8 = 5;
/// Reserved: format_valid is false.
pub const NFMT_RESERVED: u8 = 6;
pub const NFMT_FLOAT: u8 = 7;

/// One field of an element: `width` bits starting at element bit `offset` (bits
/// `offset + width − 1 : offset`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub offset: u32,
    pub width: u32,
}

const fn field(offset: u32, width: u32) -> Field {
    Field { offset, width }
}

/// One row of SPEC §1.4's dfmt table: the format's name, its fields X first (component k is entry
/// k), and its element bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dfmt {
    pub name: &'static str,
    pub fields: &'static [Field],
    pub bytes: u8,
}

const fn dfmt(name: &'static str, fields: &'static [Field], bytes: u8) -> Dfmt {
    Dfmt { name, fields, bytes }
}

/// SPEC §1.4's dfmt table, indexed by code. dfmt 0 (INVALID) and 15 (reserved) have no fields and
/// no element.
pub const DFMTS: [Dfmt; 16] = [
    dfmt("INVALID", &[], 0),
    // X[7:0]
    dfmt("8", &[field(0, 8)], 1),
    // X[15:0]
    dfmt("16", &[field(0, 16)], 2),
    // X[7:0] Y[15:8]
    dfmt("8_8", &[field(0, 8), field(8, 8)], 2),
    // X[31:0]
    dfmt("32", &[field(0, 32)], 4),
    // X[15:0] Y[31:16]
    dfmt("16_16", &[field(0, 16), field(16, 16)], 4),
    // X[10:0] Y[21:11] Z[31:22]
    dfmt("10_11_11", &[field(0, 11), field(11, 11), field(22, 10)], 4),
    // X[9:0] Y[20:10] Z[31:21]
    dfmt("11_11_10", &[field(0, 10), field(10, 11), field(21, 11)], 4),
    // X[1:0] Y[11:2] Z[21:12] W[31:22]
    dfmt("10_10_10_2", &[field(0, 2), field(2, 10), field(12, 10), field(22, 10)], 4),
    // X[9:0] Y[19:10] Z[29:20] W[31:30]
    dfmt("2_10_10_10", &[field(0, 10), field(10, 10), field(20, 10), field(30, 2)], 4),
    // X[7:0] Y[15:8] Z[23:16] W[31:24]
    dfmt("8_8_8_8", &[field(0, 8), field(8, 8), field(16, 8), field(24, 8)], 4),
    // X[31:0] Y[63:32]
    dfmt("32_32", &[field(0, 32), field(32, 32)], 8),
    // X[15:0] Y[31:16] Z[47:32] W[63:48]
    dfmt("16_16_16_16", &[field(0, 16), field(16, 16), field(32, 16), field(48, 16)], 8),
    // X, Y, Z
    dfmt("32_32_32", &[field(0, 32), field(32, 32), field(64, 32)], 12),
    // X, Y, Z, W
    dfmt("32_32_32_32", &[field(0, 32), field(32, 32), field(64, 32), field(96, 32)], 16),
    dfmt("reserved 15", &[], 0),
];

/// [`DFMTS`]' name column: each dfmt code's name as SPEC §1.4 writes it.
pub const DFMT_NAMES: [&str; 16] = {
    let mut t = [""; 16];
    let mut d = 0;
    while d < 16 {
        t[d] = DFMTS[d].name;
        d += 1;
    }
    t
};

/// [`DFMTS`]' fields column.
pub const FIELDS: [&[Field]; 16] = {
    let mut t: [&[Field]; 16] = [&[]; 16];
    let mut d = 0;
    while d < 16 {
        t[d] = DFMTS[d].fields;
        d += 1;
    }
    t
};

/// The fields of `dfmt` (bits above 3 are ignored), X first.
#[inline]
pub fn fields(dfmt: u8) -> &'static [Field] {
    DFMTS[usize::from(dfmt & 0xf)].fields
}

/// The element size of `dfmt` in bytes (bits above 3 are ignored); 0 for dfmt 0 and 15.
#[inline]
pub fn element_bytes(dfmt: u8) -> u32 {
    u32::from(DFMTS[usize::from(dfmt & 0xf)].bytes)
}

/// SPEC §1.4: false for dfmt 0 or 15, for nfmt 6, and for nfmt float on a format with a field
/// that is not 32, 16, 11 or 10 bits wide (dfmt 1, 3, 8, 9, 10). Bits above the 4-bit dfmt and
/// the 3-bit nfmt are ignored.
#[inline]
pub fn format_valid(dfmt: u8, nfmt: u8) -> bool {
    let (dfmt, nfmt) = (dfmt & 0xf, nfmt & 0x7);
    // dfmt 0 (INVALID) and 15 (reserved) have no fields; nfmt 6 is reserved.
    let codes_valid = !matches!(dfmt, DFMT_INVALID | DFMT_RESERVED) && nfmt != NFMT_RESERVED;
    // float takes fields of 32, 16, 11 or 10 bits only: not dfmt 1, 3, 8, 9, 10
    // (`float_formats_are_those_of_float_widths` checks the list against DFMTS).
    codes_valid && !(nfmt == NFMT_FLOAT && matches!(dfmt, 1 | 3 | 8 | 9 | 10))
}

/// The pair of a 4-bit dfmt and a 3-bit nfmt port (bits above them ignored) when it is a valid
/// format ([`format_valid`]); `None` otherwise.
#[inline]
pub fn valid_pair(dfmt: u8, nfmt: u8) -> Option<(u8, u8)> {
    let (dfmt, nfmt) = (dfmt & 0xf, nfmt & 0x7);
    format_valid(dfmt, nfmt).then_some((dfmt, nfmt))
}

/// True for the integer nfmts (uint, sint); the others (unorm, snorm, uscaled, sscaled, float and
/// the reserved 6) are float-like. Bits above 2 are ignored.
#[inline]
pub fn is_integer(nfmt: u8) -> bool {
    matches!(nfmt & 0x7, NFMT_UINT | NFMT_SINT)
}

/// The low `width` bits set (`width` 1..=32).
pub const fn low_mask(width: u32) -> u32 {
    u32::MAX >> (32 - width)
}

/// The `width`-bit two's-complement value in the low bits of `raw`, sign-extended.
#[inline]
pub const fn sign_extend(raw: u32, width: u32) -> i32 {
    let unused = 32 - width;
    ((raw << unused) as i32) >> unused
}

/// f32 bit patterns the models' tests name (format_unpack, format_pack, multi_texel), each
/// written out from its definition, not computed by the code under test.
#[cfg(test)]
pub(crate) mod f32_patterns {
    pub const ONE: u32 = 0x3f80_0000;
    pub const MINUS_ONE: u32 = 0xbf80_0000;
    pub const INF: u32 = 0x7f80_0000;
    pub const NEG_INF: u32 = 0xff80_0000;
    /// The default quiet NaN.
    pub const NAN: u32 = 0x7fc0_0000;
    /// A negative quiet NaN with a payload.
    pub const NEG_NAN: u32 = 0xffc0_0001;
    /// unorm8 3 → 3/255 (SPEC §5's example; rust/float.rs gives the binary expansion).
    pub const UNORM8_3: u32 = 0x3c40_c0c1;
    /// snorm8 1 → 1/127.
    pub const SNORM8_1: u32 = 0x3c01_0204;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fields of every format tile its element exactly, LSB first, and each component count
    /// and element size is the table's.
    #[test]
    fn fields_tile_the_element() {
        let counts = [0, 1, 1, 2, 1, 2, 3, 3, 4, 4, 4, 2, 4, 3, 4, 0];
        for dfmt in 0..16u8 {
            let f = fields(dfmt);
            assert_eq!(f.len(), counts[usize::from(dfmt)], "dfmt {dfmt}");
            let mut next = 0;
            for field in f {
                assert_eq!(field.offset, next, "dfmt {dfmt}");
                next += field.width;
            }
            assert_eq!(next, 8 * element_bytes(dfmt), "dfmt {dfmt}");
        }
    }

    /// format_valid over the whole table: the float exclusions are dfmt 1, 3, 8, 9, 10.
    #[test]
    fn format_valid_table() {
        for dfmt in 0..16u8 {
            for nfmt in 0..8u8 {
                let expect =
                    !matches!(dfmt, 0 | 15) && nfmt != 6 && !(nfmt == NFMT_FLOAT && matches!(dfmt, 1 | 3 | 8 | 9 | 10));
                assert_eq!(format_valid(dfmt, nfmt), expect, "dfmt {dfmt} nfmt {nfmt}");
            }
        }
        // Bits above the port widths are ignored: dfmt 0x12 is 2, nfmt 0xf is 7.
        assert!(format_valid(0x12, 0xf));
    }

    /// The formats format_valid refuses float for are those with a field not 32, 16, 11 or 10
    /// bits wide.
    #[test]
    fn float_formats_are_those_of_float_widths() {
        for dfmt in 1..15u8 {
            let float_widths = fields(dfmt).iter().all(|f| matches!(f.width, 32 | 16 | 11 | 10));
            assert_eq!(format_valid(dfmt, NFMT_FLOAT), float_widths, "dfmt {dfmt}");
        }
    }

    #[test]
    fn bit_helpers() {
        assert_eq!(low_mask(2), 0b11);
        assert_eq!(low_mask(32), u32::MAX);
        assert_eq!(sign_extend(0b10, 2), -2);
        assert_eq!(sign_extend(0x7f, 8), 127);
        assert_eq!(sign_extend(0x180, 8), -128);
        assert_eq!(sign_extend(0x8000_0000, 32), i32::MIN);
        assert!(is_integer(NFMT_UINT) && is_integer(NFMT_SINT) && !is_integer(NFMT_RESERVED));
    }
}
