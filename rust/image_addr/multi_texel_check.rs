//! SPEC §4.3 at the instruction level, for the executor's multi-texel loads (IMAGE_LOAD_BY2,
//! BY4, PCK2, PCK4 and their _MIP forms): the instruction's fields and its T#'s
//! ([`MultiTexelAccess`]), the gate ([`check_multi_texel`]: stores rejected, a bound T# whose
//! combination `image_addr` would call `illegal` rejected) and its error message, which names the
//! combination and lists the format table ([`multi_texel_error`], [`format_table_text`]).
//!
//! The table itself is the unit's ([`super::FORMAT_TABLE`]); every public item here is
//! `crate::image_addr`'s.

use std::fmt::Write as _;

use super::{supported, table_allows, FORMAT_TABLE, OP_NAMES};
use crate::tsharp;

/// A multi-texel instruction as the executor sees it: the opcode's fields and the T#'s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MultiTexelAccess {
    /// 0 BY2, 1 BY4, 2 PCK2, 3 PCK4.
    pub op: u8,
    /// The _MIP form.
    pub mip: bool,
    pub dmask: u8,
    /// The T#'s dfmt (6 bits).
    pub dfmt: u8,
    /// The T#'s nfmt (4 bits).
    pub nfmt: u8,
    /// The T#'s type (4 bits).
    pub kind: u8,
    pub d16: bool,
    pub tfe: bool,
    pub da: bool,
    /// An image store of these forms (always rejected).
    pub store: bool,
}

impl MultiTexelAccess {
    /// SPEC §1.2: the T# is bound when dfmt != 0 and type >= 8.
    pub fn bound(&self) -> bool {
        self.dfmt & 0x3f != 0 && self.kind & 0xf >= tsharp::TYPE_1D
    }

    /// The instruction's name, e.g. `IMAGE_LOAD_MIP_PCK2`.
    pub fn name(&self) -> String {
        let op = OP_NAMES[usize::from(self.op & 3)].to_ascii_uppercase();
        let verb = if self.store { "STORE" } else { "LOAD" };
        let mip = if self.mip { "MIP_" } else { "" };
        format!("IMAGE_{verb}_{mip}{op}")
    }
}

/// SPEC §4.3 at the instruction level: stores are rejected; a load is rejected exactly when the
/// unit raises `illegal` (a bound T# whose combination is not supported). A load from an unbound
/// T# is accepted (it returns 0). The error names the combination and lists the table.
pub fn check_multi_texel(a: &MultiTexelAccess) -> Result<(), String> {
    let legal = supported(a.op, a.dmask, a.dfmt, a.nfmt, a.kind, !a.d16 && !a.tfe && !a.da);
    if a.store || (a.bound() && !legal) {
        Err(multi_texel_error(a))
    } else {
        Ok(())
    }
}

/// The name of a T# dfmt: §4.3's R8, R16, RG8, else §1.4's format name; 15..=63 are not
/// modelled.
fn dfmt_name(dfmt: u8) -> &'static str {
    match dfmt {
        1 => "R8",
        2 => "R16",
        3 => "RG8",
        0 | 4..=14 => crate::format::DFMT_NAMES[usize::from(dfmt)],
        _ => "not modelled",
    }
}

/// The name of an nfmt code (SPEC §1.4); 6 and 8..=15 are reserved.
fn nfmt_name(nfmt: u8) -> &'static str {
    const NAMES: [&str; 8] = ["unorm", "snorm", "uscaled", "sscaled", "uint", "sint", "reserved", "float"];
    NAMES.get(usize::from(nfmt)).copied().unwrap_or("reserved")
}

/// SPEC §4.3's table as text, one row per line, each line indented by two spaces.
pub fn format_table_text() -> String {
    let mut text = String::from("  op    DMASK  format  nfmt\n");
    for r in &FORMAT_TABLE {
        let nfmts: Vec<&str> = r.nfmts.iter().map(|&n| nfmt_name(n)).collect();
        let op = OP_NAMES[usize::from(r.op)].to_ascii_uppercase();
        let _ = writeln!(text, "  {op:<5} {:#x}    {:<6}  {}", r.dmask, dfmt_name(r.dfmt), nfmts.join(", "));
    }
    text
}

/// The executor's error for a rejected multi-texel combination: the combination, what is wrong
/// with it, and the supported table.
pub fn multi_texel_error(a: &MultiTexelAccess) -> String {
    let (dmask, dfmt, nfmt, kind) = (a.dmask & 0xf, a.dfmt & 0x3f, a.nfmt & 0xf, a.kind & 0xf);
    let mut reasons: Vec<String> = Vec::new();
    if a.store {
        reasons.push("image stores of these forms are not supported".into());
    }
    if a.bound() {
        if kind != tsharp::TYPE_2D {
            reasons.push(format!("the image type must be 2D (9), not {kind} ({})", tsharp::type_name(kind)));
        }
        if !table_allows(a.op, dmask, dfmt, nfmt) {
            reasons.push("(op, DMASK, format, nfmt) is not a row of the table".into());
        }
        for (set, name) in [(a.d16, "D16"), (a.tfe, "TFE"), (a.da, "DA")] {
            if set {
                reasons.push(format!("{name} must be 0"));
            }
        }
    }
    if reasons.is_empty() {
        reasons.push("nothing: this combination is a supported one".into());
    }
    format!(
        "{} with DMASK {dmask:#x}, dfmt {dfmt} ({}), nfmt {nfmt} ({}), type {kind} ({}), D16 {}, TFE {}, DA {} \
         is not supported: {}. Multi-texel loads (and their _MIP forms) support 2D images (type 9) with \
         D16 = TFE = DA = 0 in these combinations only:\n{}",
        a.name(),
        dfmt_name(dfmt),
        nfmt_name(nfmt),
        tsharp::type_name(kind),
        u8::from(a.d16),
        u8::from(a.tfe),
        u8::from(a.da),
        reasons.join("; "),
        format_table_text().trim_end(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{NFMT_FLOAT, NFMT_UNORM};
    use crate::image_addr::{DFMT_R8, DFMT_RG8, OP_BY2, OP_BY4, OP_PCK2};
    use crate::tsharp::{TYPE_2D, TYPE_2D_ARRAY, TYPE_3D};

    fn access(op: u8, dmask: u8, dfmt: u8, nfmt: u8) -> MultiTexelAccess {
        MultiTexelAccess { op, dmask, dfmt, nfmt, kind: TYPE_2D, ..MultiTexelAccess::default() }
    }

    #[test]
    fn check_accepts_the_table_and_rejects_the_rest() {
        for r in &FORMAT_TABLE {
            for &nfmt in r.nfmts {
                for mip in [false, true] {
                    assert_eq!(
                        check_multi_texel(&MultiTexelAccess { mip, ..access(r.op, r.dmask, r.dfmt, nfmt) }),
                        Ok(())
                    );
                }
            }
        }
        let a = access(OP_BY2, 0x3, DFMT_R8, NFMT_UNORM);
        for bad in [
            MultiTexelAccess { store: true, ..a },
            MultiTexelAccess { d16: true, ..a },
            MultiTexelAccess { tfe: true, ..a },
            MultiTexelAccess { da: true, ..a },
            MultiTexelAccess { kind: TYPE_3D, ..a },
            MultiTexelAccess { dmask: 0x1, ..a },
            MultiTexelAccess { nfmt: NFMT_FLOAT, ..a },
        ] {
            assert!(check_multi_texel(&bad).is_err(), "{bad:?}");
        }
        // Unbound loads are accepted (they return 0); unbound stores are not.
        assert_eq!(check_multi_texel(&MultiTexelAccess { dfmt: 0, dmask: 7, ..a }), Ok(()));
        assert!(check_multi_texel(&MultiTexelAccess { dfmt: 0, store: true, ..a }).is_err());
    }

    /// The message names the instruction and every field of the combination, says what is wrong
    /// and lists all eight rows.
    #[test]
    fn error_message_names_the_combination_and_lists_the_table() {
        let a = MultiTexelAccess { mip: true, da: true, kind: TYPE_2D_ARRAY, ..access(OP_PCK2, 0x3, DFMT_RG8, 1) };
        let e = check_multi_texel(&a).unwrap_err();
        assert!(
            e.starts_with(
                "IMAGE_LOAD_MIP_PCK2 with DMASK 0x3, dfmt 3 (RG8), nfmt 1 (snorm), type 13 (2D array), D16 0, TFE 0, \
             DA 1 is not supported: the image type must be 2D (9), not 13 (2D array); (op, DMASK, format, nfmt) is \
             not a row of the table; DA must be 0."
            ),
            "{e}"
        );
        let table: Vec<&str> = e.lines().skip(1).collect();
        assert_eq!(
            table,
            [
                "  op    DMASK  format  nfmt",
                "  BY2   0x3    R8      unorm, snorm, uint, sint",
                "  BY2   0x3    R16     unorm, snorm, uint, sint, float",
                "  BY2   0xf    RG8     unorm, snorm, uint, sint",
                "  BY4   0xf    R8      unorm, snorm, uint, sint",
                "  PCK2  0x1    R8      unorm, uint, sint",
                "  PCK2  0x1    R16     unorm, uint, sint",
                "  PCK2  0x1    RG8     unorm, uint, sint",
                "  PCK4  0x1    R8      unorm, uint, sint",
            ]
        );
        let e = check_multi_texel(&MultiTexelAccess { store: true, ..access(OP_BY4, 0xf, DFMT_R8, 0) }).unwrap_err();
        assert!(e.starts_with("IMAGE_STORE_BY4 with DMASK 0xf, dfmt 1 (R8), nfmt 0 (unorm), type 9 (2D)"), "{e}");
        assert!(e.contains("is not supported: image stores of these forms are not supported."), "{e}");
        let e = check_multi_texel(&access(OP_BY2, 0x3, 17, 9)).unwrap_err();
        assert!(e.contains("dfmt 17 (not modelled), nfmt 9 (reserved)"), "{e}");
        // Called on a supported combination (not through the checker) it says so.
        assert!(multi_texel_error(&access(OP_BY4, 0xf, DFMT_R8, 0)).contains("is not supported: nothing: this"));
    }
}
