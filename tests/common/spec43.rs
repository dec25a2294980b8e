//! SPEC §4.3's table of multi-texel combinations, transcribed for the tests (independently of
//! rust/image_addr.rs's `FORMAT_TABLE`, which tests/image_addr.rs compares against it).

/// `op` port codes (docs/decisions.md "image_addr and multi_texel"): n = 2, 4, 2, 4.
pub const BY2: u8 = 0;
pub const BY4: u8 = 1;
pub const PCK2: u8 = 2;
pub const PCK4: u8 = 3;

/// dfmt codes of §4.3's formats (§1.4: 8, 16, 8_8).
pub const R8: u8 = 1;
pub const R16: u8 = 2;
pub const RG8: u8 = 3;

/// nfmt codes (§1.4).
pub const UNORM: u8 = 0;
pub const SNORM: u8 = 1;
pub const UINT: u8 = 4;
pub const SINT: u8 = 5;
pub const FLOAT: u8 = 7;

/// SPEC §4.3's table: (op, DMASK, dfmt, nfmts).
pub const TABLE: [(u8, u8, u8, &[u8]); 8] = [
    (BY2, 0x3, R8, &[UNORM, SNORM, UINT, SINT]),
    (BY2, 0x3, R16, &[UNORM, SNORM, UINT, SINT, FLOAT]),
    (BY2, 0xF, RG8, &[UNORM, SNORM, UINT, SINT]),
    (BY4, 0xF, R8, &[UNORM, SNORM, UINT, SINT]),
    (PCK2, 0x1, R8, &[UNORM, UINT, SINT]),
    (PCK2, 0x1, R16, &[UNORM, UINT, SINT]),
    (PCK2, 0x1, RG8, &[UNORM, UINT, SINT]),
    (PCK4, 0x1, R8, &[UNORM, UINT, SINT]),
];

/// True when (op, dmask, dfmt, nfmt), compared at full port widths, is one of [`TABLE`]'s 29
/// combinations.
pub fn in_table(op: u8, dmask: u8, dfmt: u8, nfmt: u8) -> bool {
    TABLE.iter().any(|&(o, d, f, ns)| o == op && d == dmask && f == dfmt && ns.contains(&nfmt))
}

/// Every (op, DMASK, dfmt, nfmt) of [`TABLE`], in table order.
pub fn table_combinations() -> Vec<(u8, u8, u8, u8)> {
    TABLE.iter().flat_map(|&(o, d, f, ns)| ns.iter().map(move |&n| (o, d, f, n))).collect()
}

/// Group size n (§4.3): 2 for BY2 and PCK2, 4 for BY4 and PCK4.
pub fn group(op: u8) -> u32 {
    if op == BY2 || op == PCK2 {
        2
    } else {
        4
    }
}
