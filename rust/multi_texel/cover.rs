//! Functional coverage (rust/cover.rs): the bins `make cosim` must hit, declared from SPEC §4.3's
//! table and §5's conversion corners (not from the RTL).

use super::{In, Out};
use crate::cover::{Covergroup, Hits};
use crate::format::{
    NFMT_FLOAT, NFMT_RESERVED, NFMT_SINT, NFMT_SNORM, NFMT_SSCALED, NFMT_UINT, NFMT_UNORM, NFMT_USCALED,
};
use crate::image_addr::{group_size, texel_bytes, FORMAT_TABLE, OP_NAMES};

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
            &[OP_NAMES, &["a DMASK of the op's rows", "DMASK 0", "another DMASK"]],
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

pub fn sample(input: &In, out: &Out, hits: &mut Hits) {
    let (op, dmask, dfmt, nfmt) = (input.op & 0x3, input.dmask & 0xf, input.dfmt & 0x3f, input.nfmt & 0xf);
    let dmask_bin = if dmask == 0 {
        1
    } else if FORMAT_TABLE.iter().any(|r| r.op == op && r.dmask == dmask) {
        0
    } else {
        2
    };
    hits.hit_cross(Point::OpDmask as usize, &[usize::from(op), dmask_bin]);

    let mut first = 0;
    let mut found = None;
    for (k, r) in FORMAT_TABLE.iter().enumerate() {
        if r.op == op && r.dfmt == dfmt {
            found = Some((k, r, first));
        }
        first += r.nfmts.len();
    }
    if out.illegal {
        let p = Point::Illegal as usize;
        match found {
            None if dfmt == 0 => hits.hit(p, 6),
            None if dfmt > 3 => hits.hit(p, 7),
            None => hits.hit(p, 8),
            Some((_, r, _)) => {
                if r.dmask != dmask {
                    hits.hit(p, 0);
                }
                if !r.nfmts.contains(&nfmt) {
                    let bin = match nfmt {
                        NFMT_SNORM => 1,
                        NFMT_FLOAT => 2,
                        NFMT_USCALED | NFMT_SSCALED => 3,
                        NFMT_RESERVED => 4,
                        _ => 5,
                    };
                    hits.hit(p, bin);
                }
            }
        }
        if input.group_valid {
            hits.hit(p, 9);
        }
        return;
    }
    let Some((row, r, first)) = found else { return };
    hits.hit_cross(Point::RowGroup as usize, &[row, usize::from(!input.group_valid)]);
    if !input.group_valid {
        return;
    }
    if let Some(k) = r.nfmts.iter().position(|&n| n == nfmt) {
        hits.hit(Point::RowNfmt as usize, first + k);
    }

    // The group's bytes: n texels of bpp bytes; the rest of `texels` is ignored.
    let group_bits = 8 * texel_bytes(dfmt) * group_size(op);
    if group_bits < 64 && input.texels >> group_bits != 0 {
        hits.hit(Point::Above as usize, usize::from(op & 2 != 0));
    }
    let v = Point::Values as usize;
    if dfmt == 2 {
        // R16: one 16-bit component per texel.
        for t in 0..group_size(op) {
            let c = (input.texels >> (16 * t)) as u16;
            match nfmt {
                NFMT_UNORM if c == 0xffff => hits.hit(v, 7),
                NFMT_SNORM if c == 0x8000 => hits.hit(v, 8),
                NFMT_SINT if c & 0x8000 != 0 => hits.hit(v, 9),
                NFMT_UINT if c == 0xffff => hits.hit(v, 10),
                NFMT_FLOAT => match (c >> 10 & 0x1f, c & 0x3ff) {
                    (0x1f, 0) => hits.hit(v, 11),
                    (0x1f, _) => hits.hit(v, 12),
                    (0, 0) if c == 0x8000 => hits.hit(v, 14),
                    (0, m) if m != 0 => hits.hit(v, 13),
                    _ => {}
                },
                _ => {}
            }
        }
    } else {
        // R8 and RG8: every byte of the group is one 8-bit component.
        for b in 0..group_bits / 8 {
            let c = (input.texels >> (8 * b)) as u8;
            match (nfmt, c) {
                (NFMT_UNORM, 0) => hits.hit(v, 0),
                (NFMT_UNORM, 0xff) => hits.hit(v, 1),
                (NFMT_SNORM, 0x80) => hits.hit(v, 2),
                (NFMT_SNORM, 0x81) => hits.hit(v, 3),
                (NFMT_SNORM, 0x7f) => hits.hit(v, 4),
                (NFMT_SINT, c) if c & 0x80 != 0 => hits.hit(v, 5),
                (NFMT_UINT, 0xff) => hits.hit(v, 6),
                _ => {}
            }
        }
    }
}
