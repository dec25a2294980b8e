//! Functional coverage (rust/cover.rs): the bins `make cosim` must hit, declared from SPEC §4.3's
//! table and §5's conversion corners (not from the RTL).

use std::hint::select_unpredictable;

use super::{In, Out};
use crate::cover::{Covergroup, Hits};
use crate::format::{
    NFMT_FLOAT, NFMT_RESERVED, NFMT_SINT, NFMT_SNORM, NFMT_SSCALED, NFMT_UINT, NFMT_UNORM, NFMT_USCALED,
};
use crate::image_addr::{group_size, row_index, texel_bytes, FORMAT_TABLE, GROUP_OP_NAMES};

/// The coverpoints, in declaration order.
#[repr(usize)]
enum Point {
    RowNfmt,
    RowGroup,
    OpDmask,
    Illegal,
    Values,
    Above,
}

/// SPEC §4.3's rows, in [`FORMAT_TABLE`] order.
const ROWS: &[&str] = &[
    "BY2 0x3 R8",
    "BY2 0x3 R16",
    "BY2 0xF RG8",
    "BY4 0xF R8",
    "PCK2 0x1 R8",
    "PCK2 0x1 R16",
    "PCK2 0x1 RG8",
    "PCK4 0x1 R8",
];

fn nfmt_name(nfmt: u8) -> &'static str {
    ["unorm", "snorm", "uscaled", "sscaled", "uint", "sint", "reserved", "float"][usize::from(nfmt & 7)]
}

/// Value classes of the group's components (SPEC §5's corners), in bin order.
const VALUES: &[&str] = &[
    "unorm8 0x00 (0.0)",
    "unorm8 0xff (1.0)",
    "snorm8 0x80 (-128: -1.0)",
    "snorm8 0x81 (-127: -1.0)",
    "snorm8 0x7f (1.0)",
    "sint8 negative",
    "uint8 0xff",
    "unorm16 0xffff (1.0)",
    "snorm16 0x8000 (-32768: -1.0)",
    "sint16 negative",
    "uint16 0xffff",
    "f16 infinity",
    "f16 NaN",
    "f16 denormal",
    "f16 -0.0",
];

pub fn covergroup() -> Covergroup {
    let row_nfmts: Vec<String> = FORMAT_TABLE
        .iter()
        .zip(ROWS)
        .flat_map(|(r, name)| r.nfmts.iter().map(move |&n| format!("{name} {}", nfmt_name(n))))
        .collect();
    Covergroup::new()
        .point(Point::RowNfmt as usize, "row x nfmt (group valid)", row_nfmts)
        .cross(Point::RowGroup as usize, "row x group", &[ROWS, &["group valid", "group invalid (zeros)"]])
        .cross(
            Point::OpDmask as usize,
            "op x DMASK",
            &[GROUP_OP_NAMES, &["a DMASK of the op's rows", "DMASK 0", "another DMASK"]],
        )
        .point(
            Point::Illegal as usize,
            "illegal reason (§4.3)",
            [
                "DMASK not the row's",
                "nfmt snorm on PCK",
                "nfmt float outside BY2 R16",
                "nfmt uscaled or sscaled",
                "nfmt reserved (6)",
                "nfmt 8..15 (not modelled)",
                "dfmt 0",
                "dfmt 4..63 (not R8/R16/RG8)",
                "BY4/PCK4 on R16 or RG8",
                "illegal with group_valid = 1 (zeros, count 0)",
            ],
        )
        .point(Point::Values as usize, "component values (§5)", VALUES)
        .point(
            Point::Above as usize,
            "texels above the group (ignored)",
            ["BY: nonzero bits above the group", "PCK: nonzero bits above the group"],
        )
}

/// No row, no position, no bin: a table entry that counts nothing.
const NONE: u8 = 0xff;

/// Where each row's nfmts start in the RowNfmt point.
const ROW_FIRST: [usize; FORMAT_TABLE.len()] = {
    let mut t = [0; FORMAT_TABLE.len()];
    let mut k = 1;
    while k < FORMAT_TABLE.len() {
        t[k] = t[k - 1] + FORMAT_TABLE[k - 1].nfmts.len();
        k += 1;
    }
    t
};

/// Each row's position of each nfmt in its list, or [`NONE`] for an nfmt the row does not have.
const NFMT_AT: [[u8; 16]; FORMAT_TABLE.len()] = {
    let mut t = [[NONE; 16]; FORMAT_TABLE.len()];
    let mut k = 0;
    while k < FORMAT_TABLE.len() {
        let mut i = 0;
        while i < FORMAT_TABLE[k].nfmts.len() {
            t[k][FORMAT_TABLE[k].nfmts[i] as usize] = i as u8;
            i += 1;
        }
        k += 1;
    }
    t
};

/// The Illegal bin of an nfmt that the group's row does not have, by nfmt (4 bits): snorm 1,
/// float 2, the scaled ones 3, the reserved code 4, any other 5.
const NFMT_ILLEGAL_BIN: [usize; 16] = {
    let mut t = [5; 16];
    t[NFMT_SNORM as usize] = 1;
    t[NFMT_FLOAT as usize] = 2;
    t[NFMT_USCALED as usize] = 3;
    t[NFMT_SSCALED as usize] = 3;
    t[NFMT_RESERVED as usize] = 4;
    t
};

/// The OpDmask axis of each (op, DMASK): 0 a DMASK of one of the op's rows, 1 DMASK 0, 2 another.
const DMASK_BIN: [[u8; 16]; 4] = {
    let mut t = [[2; 16]; 4];
    let mut k = 0;
    while k < FORMAT_TABLE.len() {
        t[FORMAT_TABLE[k].op as usize][FORMAT_TABLE[k].dmask as usize] = 0;
        k += 1;
    }
    let mut op = 0;
    while op < 4 {
        t[op][0] = 1;
        op += 1;
    }
    t
};

/// The Values bin of an 8-bit component (R8, RG8) by nfmt and value, or [`NONE`].
const BYTE_BIN: [[u8; 256]; 16] = {
    let mut t = [[NONE; 256]; 16];
    t[NFMT_UNORM as usize][0] = 0;
    t[NFMT_UNORM as usize][0xff] = 1;
    t[NFMT_SNORM as usize][0x80] = 2;
    t[NFMT_SNORM as usize][0x81] = 3;
    t[NFMT_SNORM as usize][0x7f] = 4;
    let mut c = 0x80;
    while c < 0x100 {
        t[NFMT_SINT as usize][c] = 5;
        c += 1;
    }
    t[NFMT_UINT as usize][0xff] = 6;
    t
};

/// The Values bin of a 16-bit component (R16) of format `nfmt`, or [`NONE`].
fn half_bin(nfmt: u8, c: u16) -> u8 {
    match nfmt {
        NFMT_UNORM if c == 0xffff => 7,
        NFMT_SNORM if c == 0x8000 => 8,
        NFMT_SINT if c & 0x8000 != 0 => 9,
        NFMT_UINT if c == 0xffff => 10,
        NFMT_FLOAT => match (c >> 10 & 0x1f, c & 0x3ff) {
            (0x1f, 0) => 11,
            (0x1f, _) => 12,
            (0, 0) if c == 0x8000 => 14,
            (0, m) if m != 0 => 13,
            _ => NONE,
        },
        _ => NONE,
    }
}

/// Counts the bins of one group. The row ([`row_index`]), the nfmt's position and the
/// component classes are looked up in tables built at compile time from [`FORMAT_TABLE`] and the
/// bins' definitions; the components' bins are counted with [`Hits::hit_if`] (no branch on
/// random data).
pub fn sample(input: &In, out: &Out, hits: &mut Hits) {
    let (op, dmask, dfmt, nfmt) = (input.op & 0x3, input.dmask & 0xf, input.dfmt & 0x3f, input.nfmt & 0xf);
    let dmask_bin = DMASK_BIN[usize::from(op)][usize::from(dmask)];
    hits.hit_cross(Point::OpDmask as usize, &[usize::from(op), usize::from(dmask_bin)]);

    let row = row_index(op, dfmt);
    // Why an illegal group is illegal, counted with `hit_if` (legality is a coin toss here).
    let p = Point::Illegal as usize;
    let illegal = out.illegal;
    let no_row = select_unpredictable(dfmt == 0, 6, select_unpredictable(dfmt > 3, 7, 8));
    hits.hit_if(illegal & row.is_none(), p, no_row);
    let k = row.unwrap_or(0);
    let in_row = illegal & row.is_some();
    hits.hit_if(in_row & (FORMAT_TABLE[k].dmask != dmask), p, 0);
    let nfmt_bin = NFMT_ILLEGAL_BIN[usize::from(nfmt)];
    hits.hit_if(in_row & (NFMT_AT[k][usize::from(nfmt)] == NONE), p, nfmt_bin);
    hits.hit_if(illegal & input.group_valid, p, 9);
    if illegal {
        return;
    }
    let Some(row) = row else { return };
    hits.hit_cross(Point::RowGroup as usize, &[row, usize::from(!input.group_valid)]);
    if !input.group_valid {
        return;
    }
    let at = NFMT_AT[row][usize::from(nfmt)];
    hits.hit_if(at != NONE, Point::RowNfmt as usize, ROW_FIRST[row] + usize::from(at));

    // The group's bytes: n texels of bpp bytes; the rest of `texels` is ignored.
    let group_bits = 8 * texel_bytes(dfmt) * group_size(op);
    hits.hit_if(
        group_bits < 64 && input.texels >> (group_bits & 63) != 0,
        Point::Above as usize,
        usize::from(op & 2 != 0),
    );
    let v = Point::Values as usize;
    if dfmt == 2 {
        // R16: one 16-bit component per texel.
        for t in 0..group_size(op) {
            let bin = half_bin(nfmt, (input.texels >> (16 * t)) as u16);
            hits.hit_if(bin != NONE, v, usize::from(bin));
        }
    } else {
        // R8 and RG8: every byte of the group is one 8-bit component (2 or 4 of them).
        let bytes = &BYTE_BIN[usize::from(nfmt)];
        for b in 0..4 {
            let bin = bytes[usize::from((input.texels >> (8 * b)) as u8)];
            hits.hit_if((b < group_bits / 8) & (bin != NONE), v, usize::from(bin));
        }
    }
}
