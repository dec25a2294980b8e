//! `image_addr`: the address of one lane's image access without a sampler: a multi-texel load's
//! group (IMAGE_LOAD_BY2, BY4, PCK2, PCK4 and their _MIP forms, ops 0–3) or one element (op 4:
//! IMAGE_LOAD and its PCK forms, IMAGE_STORE, IMAGE_ATOMIC_* and their _MIP forms), on linear and
//! tiled surfaces; plus SPEC §4.3's format table, which `multi_texel` and the executor share with
//! it, the table's instruction-level checker and error message ([`check_multi_texel`],
//! rust/image_addr/multi_texel_check.rs) and §4.5's layout check ([`check_sw_mode`]). The
//! executor decodes the §4.1 address VGPRs into the coordinates it takes (`exec::decode_vaddr`).
//!
//! Spec: docs/spec.md §1.2, §4.2–§4.5  RTL: rtl/image_addr.sv  Tests: tests/image_addr.rs
//! Contract: docs/decisions.md "image_addr"
//!
//! From a T# (§1.2), the instruction's op, MIP, DMASK, D16, TFE, DA and one lane's unsigned
//! coordinates (x, y, slice, mipid) it finds the mip level and its dimensions (§4.2), the first
//! texel `xa` and whether the access is inside the level (§4.3, §4.4), and the byte address of
//! texel (xa, y, s) on the surface's layout (§4.4 linear, §4.5 tiled):
//! 1. T# = (tsharp_hi, tsharp_lo), with the high half read as 0 when r128 = 1.
//! 2. bound = dfmt != 0 and type >= 8; bpp = §1.4's element bytes (0 outside dfmt 1–14);
//!    tiled = sw_mode 1, 5 or 9; mode_ok = sw_mode 0, or tiled on a 2D or 2D array type with
//!    bpp 1, 2, 4, 8 or 16 (§4.5); illegal = bound and (op 5–7, or not mode_ok, or op 0–3 and the
//!    combination not a row of [`FORMAT_TABLE`] on a 2D image with D16 = TFE = DA = 0).
//! 3. L = base_level + (mip ? mipid : 0), exact; the level exists when L <= last_level and, for a
//!    256-bit T#, L <= max_mip.
//! 4. width_l, pitch_l = max(1, (field + 1) >> l) (128-bit T#: pitch_l = width_l); height_l the
//!    same, 1 for 1D and 1D array; layers_l = max(1, d >> l) for 3D, d for arrays, 6·d for a cube,
//!    else 1 (d = depth field + 1; 128-bit: 1).
//! 5. n = 2, 4, 2, 4 for ops 0–3, else 1; xa = x & ~(n − 1); the access is valid when bound,
//!    legal, the level exists and, ops 0–3: x + n <= width_L with the unaligned x (exact) and
//!    y < height_L; op 4: x < width_L, y < height_L and slice < layers_L.
//! 6. address of texel (xa, y, s), s = slice for op >= 4 and 0 for ops 0–3, modulo 2^48:
//!    - linear (§4.4): base·256 + mip_offset(L) + ((s·height_L + y)·pitch_L + xa)·bpp, with
//!      mip_offset(L) = Σ_{l<L} pitch_l·height_l·layers_l·bpp;
//!    - tiled (§4.5, when tiled and mode_ok): blocks of 2^K bytes (K = 8, 12, 16), bw × bh texels,
//!      P_l = ⌈pitch_l / bw⌉ blocks a row, R_l = ⌈height_l / bh⌉ block rows a layer:
//!      base·256 + mip_offset(L) + ((s·R_L + y / bh)·P_L + xa / bw)·2^K + within(xa mod bw,
//!      y mod bh), with mip_offset(L) = Σ_{l<L} P_l·R_l·layers_l·2^K.
//!
//! Decisions (docs/decisions.md "image_addr"): the executor decodes the address VGPRs
//! ([`decode_vaddr`]) and hands over unsigned coordinates (A16 values zero-extended, slice 0 when
//! DA = 0); an unbound T# is never illegal; an illegal layout computes the linear address; when
//! the level does not exist, level, width, height, layers, pitch and address are 0; otherwise the
//! address is computed whatever the access's verdict.
//!
//! Timing: `LATENCY = 2`. Stage 1 registers the computed outputs with the input's valid; the
//! output stage registers stage 1. `valid` shifts every edge; each stage's data registers load
//! only when the valid entering it is 1 and hold otherwise. Reset clears every register.
//!
//! [`decode_vaddr`]: crate::exec::decode_vaddr

use crate::format::{element_bytes, NFMT_FLOAT, NFMT_SINT, NFMT_SNORM, NFMT_UINT, NFMT_UNORM};

use crate::ports;
use crate::tsharp::{self, TSharp};
use crate::unit::{eval_object, pick, pipelined_unit, Kind};

mod multi_texel_check;
pub use multi_texel_check::{check_multi_texel, format_table_text, multi_texel_error, MultiTexelAccess};

/// `op` codes (docs/decisions.md "image_addr"): 0 BY2, 1 BY4, 2 PCK2, 3 PCK4, 4 one element,
/// 5–7 reserved (`illegal` on a bound T#).
pub const OP_NAMES: &[&str] = &["by2", "by4", "pck2", "pck4", "element", "reserved5", "reserved6", "reserved7"];
/// The multi-texel ops' names (ops 0–3), as `multi_texel`'s 2-bit `op` port takes them.
pub const GROUP_OP_NAMES: &[&str] = OP_NAMES.split_at(4).0;
pub const OP_BY2: u8 = 0;
pub const OP_BY4: u8 = 1;
pub const OP_PCK2: u8 = 2;
pub const OP_PCK4: u8 = 3;
/// One element: every plain image access (load, PCK load, store, atomic; _MIP forms too).
pub const OP_ELEMENT: u8 = 4;

/// The T# dfmt codes of §4.3's formats (§1.4: 8, 16, 8_8).
pub const DFMT_R8: u8 = 1;
pub const DFMT_R16: u8 = 2;
pub const DFMT_RG8: u8 = 3;

/// T# `sw_mode` codes (SPEC §1.2, §4.5; GFX9's numbering): linear and the three tiled modes
/// modelled; every other code is not modelled.
pub const SW_LINEAR: u8 = 0;
pub const SW_256B_S: u8 = 1;
pub const SW_4KB_S: u8 = 5;
pub const SW_64KB_S: u8 = 9;
/// The modelled modes and their names, as the executor's error lists them.
pub const SW_MODES: [(u8, &str); 4] =
    [(SW_LINEAR, "linear"), (SW_256B_S, "256B_S"), (SW_4KB_S, "4KB_S"), (SW_64KB_S, "64KB_S")];

ports! {
    /// Inputs of `image_addr`, in RTL port order. `tsharp_hi` (T# bits 255:128) is read only
    /// when `r128` = 0; `mipid` only when `mip` = 1; `dmask`, `d16`, `tfe`, `da` only by ops 0–3;
    /// `slice` only by ops 4–7 (the executor passes 0 when DA = 0).
    pub struct In {
        valid: bool;
        tsharp_lo: u128, Kind::Hex;
        tsharp_hi: u128, Kind::Hex;
        r128: bool;
        op: u8 = 3, Kind::Enum(OP_NAMES);
        mip: bool;
        dmask: u8 = 4;
        d16: bool;
        tfe: bool;
        da: bool;
        x: u32;
        y: u32;
        slice: u32;
        mipid: u32;
    }
}
ports! {
    /// Outputs of `image_addr`, in RTL port order. `level`, `width`, `height`, `layers`, `pitch`
    /// and `address` are 0 when `level_ok` = 0; `address` is texel (xa, y, s)'s (texel t of a
    /// multi-texel group is at `address + t·bpp`, on either layout).
    pub struct Out {
        valid: bool;
        level_ok: bool;
        level: u8 = 4;
        width: u16 = 15;
        height: u16 = 15;
        layers: u16 = 16;
        pitch: u32 = 17;
        xa: u32;
        group_valid: bool;
        address: u64 = 48;
        illegal: bool;
    }
}

impl In {
    /// The multi-texel load these inputs describe, as the executor checks it
    /// ([`check_multi_texel`]): the instruction's fields and the T#'s dfmt, nfmt and type (the
    /// unit has no stores). Meaningful for ops 0–3.
    pub fn access(&self) -> MultiTexelAccess {
        let t = TSharp::decode(self.tsharp_lo, self.tsharp_hi);
        MultiTexelAccess {
            op: self.op,
            mip: self.mip,
            dmask: self.dmask,
            dfmt: t.dfmt,
            nfmt: t.nfmt,
            kind: t.kind,
            d16: self.d16,
            tfe: self.tfe,
            da: self.da,
            store: false,
        }
    }

    /// The executor's error for these inputs when the unit would call them `illegal`: the
    /// reserved op (5–7), then the layout ([`check_sw_mode`]), then, for ops 0–3, SPEC §4.3's
    /// table ([`check_multi_texel`]). `Ok` for a legal combination and for an unbound T#. The
    /// harness and the Python module name an `illegal` lane's rejection with it.
    pub fn rejection(&self) -> Result<(), String> {
        let t = TSharp::decode(self.tsharp_lo, if self.r128 { 0 } else { self.tsharp_hi });
        if !t.is_bound() {
            return Ok(());
        }
        let op = self.op & 0x7;
        if op > OP_ELEMENT {
            return Err(format!("image_addr op {op} is reserved: 0 BY2, 1 BY4, 2 PCK2, 3 PCK4, 4 one element"));
        }
        check_sw_mode(&t)?;
        if op <= OP_PCK4 {
            check_multi_texel(&self.access())?;
        }
        Ok(())
    }
}

/// Addresses are modulo 2^48.
const ADDRESS_MASK: u64 = (1 << 48) - 1;

/// Group size n of an op: 2 for BY2 and PCK2, 4 for BY4 and PCK4, 1 for ops 4–7 (one element);
/// bits above the 3-bit port are ignored.
pub fn group_size(op: u8) -> u32 {
    const N: [u32; 8] = [2, 4, 2, 4, 1, 1, 1, 1];
    N[usize::from(op & 0x7)]
}

/// True for PCK2 and PCK4 (raw bits packed into one dword); false for BY2 and BY4.
pub fn is_pck(op: u8) -> bool {
    op & 2 != 0
}

/// Element bytes of a T# dfmt (SPEC §1.4): 0 outside 1–14 (the T# field has 6 bits, so codes
/// 15..=63 have no element either).
pub fn texel_bytes(dfmt: u8) -> u32 {
    if (1..=14).contains(&dfmt) {
        element_bytes(dfmt)
    } else {
        0
    }
}

// ---------------------------------------------------------------------------------------------
// SPEC §4.3's format table, shared by `image_addr`, `multi_texel` and the executor.

/// One row of SPEC §4.3's table: `op` with result-dword mask `dmask` supports image format
/// `dfmt` in the numeric formats `nfmts`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormatRow {
    pub op: u8,
    pub dmask: u8,
    pub dfmt: u8,
    pub nfmts: &'static [u8],
}

const BY_NFMTS: &[u8] = &[NFMT_UNORM, NFMT_SNORM, NFMT_UINT, NFMT_SINT];
const BY_R16_NFMTS: &[u8] = &[NFMT_UNORM, NFMT_SNORM, NFMT_UINT, NFMT_SINT, NFMT_FLOAT];
const PCK_NFMTS: &[u8] = &[NFMT_UNORM, NFMT_UINT, NFMT_SINT];

const fn row(op: u8, dmask: u8, dfmt: u8, nfmts: &'static [u8]) -> FormatRow {
    FormatRow { op, dmask, dfmt, nfmts }
}

/// SPEC §4.3: the supported (op, DMASK, format, nfmt) combinations, one row per format. The
/// image type must be 2D and D16, TFE, DA 0; the _MIP forms use the same rows.
pub const FORMAT_TABLE: [FormatRow; 8] = [
    // BY2, DMASK 0x3: R8 and R16 in unorm, snorm, uint, sint; R16 also float.
    row(OP_BY2, 0x3, DFMT_R8, BY_NFMTS),
    row(OP_BY2, 0x3, DFMT_R16, BY_R16_NFMTS),
    // BY2, DMASK 0xF: RG8 in unorm, snorm, uint, sint.
    row(OP_BY2, 0xf, DFMT_RG8, BY_NFMTS),
    // BY4, DMASK 0xF: R8 in unorm, snorm, uint, sint.
    row(OP_BY4, 0xf, DFMT_R8, BY_NFMTS),
    // PCK2, DMASK 0x1: R8, R16 and RG8 in unorm, uint, sint.
    row(OP_PCK2, 0x1, DFMT_R8, PCK_NFMTS),
    row(OP_PCK2, 0x1, DFMT_R16, PCK_NFMTS),
    row(OP_PCK2, 0x1, DFMT_RG8, PCK_NFMTS),
    // PCK4, DMASK 0x1: R8 in unorm, uint, sint.
    row(OP_PCK4, 0x1, DFMT_R8, PCK_NFMTS),
];

/// The table row that supports (op, dmask, dfmt, nfmt), if any. Arguments are taken at their
/// port widths (op 2 bits, dmask 4, dfmt 6, nfmt 4).
///
/// (op, dfmt) names at most one row, found by [`row_index`]; its DMASK and nfmts are then
/// compared (`format_row_is_the_tables_search` checks this against the table's search for every
/// input).
#[inline]
pub fn format_row(op: u8, dmask: u8, dfmt: u8, nfmt: u8) -> Option<&'static FormatRow> {
    let (dmask, nfmt) = (dmask & 0xf, nfmt & 0xf);
    let k = row_index(op, dfmt)?;
    let r = &FORMAT_TABLE[k];
    (r.dmask == dmask && NFMT_MASKS[k] >> nfmt & 1 != 0).then_some(r)
}

/// The index in [`FORMAT_TABLE`] of the row of (op, dfmt), whatever its DMASK and nfmts (no two
/// rows share both); arguments at their port widths (op 2 bits, dfmt 6).
#[inline]
pub fn row_index(op: u8, dfmt: u8) -> Option<usize> {
    let k = ROW_OF[usize::from(op & 0x3)][usize::from(dfmt & 0x3f)];
    (k != NO_ROW).then_some(usize::from(k))
}

const NO_ROW: u8 = u8::MAX;

/// [`row_index`]'s table, built from [`FORMAT_TABLE`] at compile time.
const ROW_OF: [[u8; 64]; 4] = {
    let mut t = [[NO_ROW; 64]; 4];
    let mut k = 0;
    while k < FORMAT_TABLE.len() {
        let r = &FORMAT_TABLE[k];
        assert!(t[r.op as usize][r.dfmt as usize] == NO_ROW, "two rows of FORMAT_TABLE share op and dfmt");
        t[r.op as usize][r.dfmt as usize] = k as u8;
        k += 1;
    }
    t
};

/// Each row's nfmts as a mask (bit n: nfmt n).
const NFMT_MASKS: [u16; FORMAT_TABLE.len()] = {
    let mut t = [0; FORMAT_TABLE.len()];
    let mut k = 0;
    while k < FORMAT_TABLE.len() {
        let mut i = 0;
        while i < FORMAT_TABLE[k].nfmts.len() {
            t[k] |= 1 << FORMAT_TABLE[k].nfmts[i];
            i += 1;
        }
        k += 1;
    }
    t
};

/// True when (op, dmask, dfmt, nfmt) is a row of SPEC §4.3's table (see [`format_row`]).
#[inline]
pub fn table_allows(op: u8, dmask: u8, dfmt: u8, nfmt: u8) -> bool {
    format_row(op, dmask, dfmt, nfmt).is_some()
}

/// True when the whole combination is supported: a table row, a 2D image, D16 = TFE = DA = 0
/// (the unit's `illegal` is `bound && !supported(..)`).
pub fn supported(op: u8, dmask: u8, dfmt: u8, nfmt: u8, kind: u8, no_modifiers: bool) -> bool {
    kind & 0xf == tsharp::TYPE_2D && no_modifiers && table_allows(op, dmask, dfmt, nfmt)
}

// ---------------------------------------------------------------------------------------------
// The unit.

/// SPEC §4.5: a tiled layout's block of one element size: 2^K bytes, `bw` × `bh` texels
/// (log2 widths), and `within`'s bit pattern as the positions of the address bits that x's bits
/// 0, 1, … and y's bits 0, 1, … land in (bits below e are the byte within the element).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// K: the block is 2^K bytes.
    pub k: u32,
    /// log2(bw), log2(bh).
    pub bw_log2: u32,
    pub bh_log2: u32,
    /// Address bit of x bit j (j < bw_log2), of y bit j (j < bh_log2).
    pub x_bits: [u8; 16],
    pub y_bits: [u8; 16],
}

/// SPEC §4.5's micro-block, address bits e .. 7 low to high by element size (e = log2 bytes):
/// `false` an x bit, `true` a y bit, each coordinate's bits taken in order (x0, x1, …).
const MICRO_BLOCK: [&[bool]; 5] = {
    const X: bool = false;
    const Y: bool = true;
    [
        &[X, X, X, X, Y, Y, Y, Y], //  1 byte: x0 x1 x2 x3 y0 y1 y2 y3 (16 × 16)
        &[X, X, X, Y, Y, Y, X],    //  2 bytes: x0 x1 x2 y0 y1 y2 x3 (16 × 8)
        &[X, X, Y, Y, Y, X],       //  4 bytes: x0 x1 y0 y1 y2 x2 (8 × 8)
        &[X, Y, Y, X, X],          //  8 bytes: x0 y0 y1 x1 x2 (8 × 4)
        &[Y, Y, X, X],             // 16 bytes: y0 y1 x0 x1 (4 × 4)
    ]
};

/// The block of K (8, 12, 16) and e (0..=4): address bits e .. 7 from [`MICRO_BLOCK`], then for
/// 8 <= i < K the next unused bit of y when i is even, of x when i is odd.
const fn block(k: u32, e: usize) -> Block {
    let mut b = Block { k, bw_log2: 0, bh_log2: 0, x_bits: [0; 16], y_bits: [0; 16] };
    let mut i = e as u32;
    while i < k {
        let is_y = if i < 8 { MICRO_BLOCK[e][(i as usize) - e] } else { i.is_multiple_of(2) };
        if is_y {
            b.y_bits[b.bh_log2 as usize] = i as u8;
            b.bh_log2 += 1;
        } else {
            b.x_bits[b.bw_log2 as usize] = i as u8;
            b.bw_log2 += 1;
        }
        i += 1;
    }
    b
}

/// [`block`] for every tiled mode (256B_S, 4KB_S, 64KB_S) and element size (1, 2, 4, 8, 16 bytes).
pub const BLOCKS: [[Block; 5]; 3] = {
    let mut t = [[block(8, 0); 5]; 3];
    let ks = [8, 12, 16];
    let mut m = 0;
    while m < 3 {
        let mut e = 0;
        while e < 5 {
            t[m][e] = block(ks[m], e);
            e += 1;
        }
        m += 1;
    }
    t
};

/// The block of a modelled tiled `sw_mode` (1, 5, 9) and element of `bpp` bytes (1, 2, 4, 8, 16);
/// `None` for anything else (linear, an unmodelled mode, an element tiles cannot take).
pub fn tile_block(sw_mode: u8, bpp: u32) -> Option<&'static Block> {
    let m = match sw_mode {
        SW_256B_S => 0,
        SW_4KB_S => 1,
        SW_64KB_S => 2,
        _ => return None,
    };
    (bpp.is_power_of_two() && bpp <= 16).then(|| &BLOCKS[m][bpp.trailing_zeros() as usize])
}

impl Block {
    /// `within(x, y)` (SPEC §4.5): the byte offset in the block of texel (x mod bw, y mod bh)'s
    /// first byte (x's and y's bits deposited at their address bits).
    #[inline]
    pub fn within(&self, x: u32, y: u32) -> u64 {
        let mut w = 0u64;
        for j in 0..self.bw_log2 as usize {
            w |= u64::from(x >> j & 1) << self.x_bits[j];
        }
        for j in 0..self.bh_log2 as usize {
            w |= u64::from(y >> j & 1) << self.y_bits[j];
        }
        w
    }
}

/// SPEC §4.5 at the instruction level (the unit's `mode_ok` as the executor's gate): a bound T#'s
/// `sw_mode` must be 0, 1, 5 or 9, and a tiled one needs type 2D or 2D array and an element of 1,
/// 2, 4, 8 or 16 bytes. The error names the mode and the type or format. The caller handles an
/// unbound T# (never refused for its mode); dfmt outside 1–14 is the executor's own error.
pub fn check_sw_mode(t: &TSharp) -> Result<(), String> {
    let mode = t.sw_mode;
    let Some(&(_, name)) = SW_MODES.iter().find(|&&(code, _)| code == mode) else {
        let modes: Vec<String> = SW_MODES.iter().map(|(code, name)| format!("{code} {name}")).collect();
        return Err(format!("T# sw_mode {mode} is not modelled: {} (SPEC §4.5)", modes.join(", ")));
    };
    if mode == SW_LINEAR {
        return Ok(());
    }
    if !matches!(t.kind, tsharp::TYPE_2D | tsharp::TYPE_2D_ARRAY) {
        return Err(format!(
            "T# sw_mode {mode} ({name}) on a {} T# (type {}): tiled surfaces are 2D or 2D array only (SPEC §4.5)",
            tsharp::type_name(t.kind),
            t.kind
        ));
    }
    let bytes = texel_bytes(t.dfmt);
    if tile_block(mode, bytes).is_none() {
        let format = crate::format::DFMT_NAMES.get(usize::from(t.dfmt)).copied().unwrap_or("not modelled");
        return Err(format!(
            "T# sw_mode {mode} ({name}) with dfmt {} ({format}, {bytes}-byte elements): tiled surfaces need 1, 2, \
             4, 8 or 16-byte elements (SPEC §4.5)",
            t.dfmt
        ));
    }
    Ok(())
}

/// SPEC §4.2's mip chain (docs/decisions.md "image_addr"): level 0's width, height, layers and
/// pitch, each level l's being max(1, size >> l), except a height of 1 for 1D and 1D array at
/// every level and layers that shrink with the level only for 3D. Layers: d for 3D and the arrays,
/// 6·d for a cube, else 1, with d = depth field + 1 (a 128-bit T# is decoded with depth field 0);
/// a 128-bit T#'s pitch is its width.
struct MipChain {
    width: u32,
    height: u32,
    layers: u32,
    /// 3D: layers_l = max(1, d >> l).
    layers_shrink: bool,
    pitch: u32,
}

impl MipChain {
    fn new(t: &TSharp, r128: bool) -> MipChain {
        let one_d = matches!(t.kind, tsharp::TYPE_1D | tsharp::TYPE_1D_ARRAY);
        let d = t.depth();
        let layers = match t.kind {
            tsharp::TYPE_3D | tsharp::TYPE_1D_ARRAY | tsharp::TYPE_2D_ARRAY | tsharp::TYPE_2D_MSAA_ARRAY => d,
            tsharp::TYPE_CUBE => 6 * d,
            _ => 1,
        };
        MipChain {
            width: t.width(),
            height: if one_d { 1 } else { t.height() },
            layers,
            layers_shrink: t.kind == tsharp::TYPE_3D,
            pitch: pick(r128, t.width(), t.pitch()),
        }
    }

    /// Level `l`'s (width, height, layers, pitch); `l` <= 15.
    #[inline]
    fn level(&self, l: u32) -> (u32, u32, u32, u32) {
        let at = |size: u32| (size >> l).max(1);
        let layers = (self.layers >> if self.layers_shrink { l } else { 0 }).max(1);
        (at(self.width), at(self.height), layers, at(self.pitch))
    }
}

/// The combinational function of SPEC §4.2–§4.5 (docs/decisions.md "image_addr") for one lane;
/// `valid` is passed through.
pub fn compute(input: &In) -> Out {
    // Inputs narrower than their Rust type are masked to the port width first.
    let op = input.op & 0x7;
    let dmask = input.dmask & 0xf;

    // Step 1, §1.2: a 128-bit T# reads its high half as 0 (depth 0, pitch and max_mip unused).
    let t = TSharp::decode(input.tsharp_lo, pick(input.r128, 0, input.tsharp_hi));

    // Step 2, §1.2, §4.3, §4.5: bound; the element bytes; the layout; illegal = bound and a
    // reserved op, a layout §4.5 does not model, or a multi-texel combination §4.3 does not list.
    let bound = t.is_bound();
    let bpp = texel_bytes(t.dfmt);
    // The tiled layout (sw_mode 1, 5 or 9) on a type and element it can take: its block; None
    // for linear, an unmodelled mode, or a tiled one on another type or element (illegal).
    let tile_type = matches!(t.kind, tsharp::TYPE_2D | tsharp::TYPE_2D_ARRAY);
    let block = if tile_type { tile_block(t.sw_mode, bpp) } else { None };
    let mode_ok = t.sw_mode == SW_LINEAR || block.is_some();
    let group_op = op <= OP_PCK4;
    let no_modifiers = !input.d16 && !input.tfe && !input.da;
    let table_ok = !group_op || supported(op, dmask, t.dfmt, t.nfmt, t.kind, no_modifiers);
    let illegal = bound && (op > OP_ELEMENT || !mode_ok || !table_ok);

    // Step 3, §4.2: L = base_level + mipid, exact (33 bits); the level exists when L <=
    // last_level and, for a 256-bit T#, L <= max_mip.
    let mipid = if input.mip { u64::from(input.mipid) } else { 0 };
    let level = u64::from(t.base_level) + mipid;
    let level_ok = level <= u64::from(t.last_level) && (input.r128 || level <= u64::from(t.max_mip));

    // Step 4, §4.2: the dimensions of level L; L reads 0 when the level does not exist (level_ok
    // implies L <= last_level <= 15).
    let level = if level_ok { level as u32 } else { 0 };
    let chain = MipChain::new(&t, input.r128);
    let (width, height, layers, pitch) = chain.level(level);

    // Step 5, §4.3, §4.4: the first texel (a multi-texel group aligned down to n) and whether the
    // access is inside the level: a group must fit with the unaligned x (exact, 33 bits); one
    // element must be inside the level's width, height and layers.
    let n = group_size(op);
    let xa = input.x & !(n - 1);
    let inside = if group_op {
        u64::from(input.x) + u64::from(n) <= u64::from(width) && input.y < height
    } else {
        input.x < width && input.y < height && input.slice < layers
    };
    let group_valid = bound && !illegal && level_ok && inside;

    // Step 6, §4.4 and §4.5: the address of texel (xa, y, s) of level L. Sums and products are
    // taken modulo 2^64 (wrapping), which gives the exact result modulo 2^48.
    let s = if group_op { 0 } else { input.slice };
    let offset = match block {
        // §4.4, linear: mip_offset(L) = Σ_{l<L} pitch_l·height_l·layers_l·bpp, then the texel's
        // element ((s·height_L + y)·pitch_L + xa)·bpp.
        None => {
            let bpp = u64::from(bpp);
            let mip_offset: u64 = (0..level)
                .map(|l| {
                    let (_, height_l, layers_l, pitch_l) = chain.level(l);
                    u64::from(pitch_l) * u64::from(height_l) * u64::from(layers_l) * bpp
                })
                .sum();
            let row = u64::from(s).wrapping_mul(u64::from(height)).wrapping_add(u64::from(input.y));
            let texel = row.wrapping_mul(u64::from(pitch)).wrapping_add(u64::from(xa));
            mip_offset.wrapping_add(texel.wrapping_mul(bpp))
        }
        // §4.5, tiled: P_l = ⌈pitch_l / bw⌉ blocks a row and R_l = ⌈height_l / bh⌉ block rows a
        // layer; mip_offset(L) = Σ_{l<L} P_l·R_l·layers_l·2^K; then the texel's block
        // ((s·R_L + y / bh)·P_L + xa / bw)·2^K and its place in the block, within(xa mod bw,
        // y mod bh).
        Some(b) => {
            // (⌈n / 2^k⌉ as a shift: n < 2^17, no overflow.)
            let ceil = |n: u32, k: u32| u64::from((n + (1 << k) - 1) >> k);
            let blocks = |pitch_l: u32, height_l: u32| (ceil(pitch_l, b.bw_log2), ceil(height_l, b.bh_log2));
            let mip_offset: u64 = (0..level)
                .map(|l| {
                    let (_, height_l, layers_l, pitch_l) = chain.level(l);
                    let (p, r) = blocks(pitch_l, height_l);
                    (p * r * u64::from(layers_l)) << b.k
                })
                .sum();
            let (p, r) = blocks(pitch, height);
            let block_row = u64::from(s).wrapping_mul(r).wrapping_add(u64::from(input.y >> b.bh_log2));
            let block_index = block_row.wrapping_mul(p).wrapping_add(u64::from(xa >> b.bw_log2));
            mip_offset.wrapping_add(block_index << b.k).wrapping_add(b.within(xa, input.y))
        }
    };
    let address = (t.base * 256).wrapping_add(offset) & ADDRESS_MASK;

    // When the level does not exist, level, dimensions and address read 0 (docs/decisions.md).
    let (width, height, layers, pitch, address) =
        pick(level_ok, (width, height, layers, pitch, address), (0, 0, 0, 0, 0));

    Out {
        valid: input.valid,
        level_ok,
        level: level as u8,
        width: width as u16,
        height: height as u16,
        layers: layers as u16,
        pitch,
        xa,
        group_valid,
        address,
        illegal,
    }
}

pipelined_unit! {
    /// The cycle-accurate model: two register stages, compute before stage 1.
    pub struct ImageAddr { NAME: "image_addr", LATENCY: 2 }
}

// Functional coverage bins: rust/image_addr/cover.rs.
pub mod cover;

// The unit's `eval` object (SPEC §13): its input ports in, this object out.
eval_object!(ImageAddr, |input, out| {
    let mut map = eval::object([
        ("level_ok", Value::from(out.level_ok)),
        ("level", Value::from(out.level)),
        ("width", Value::from(out.width)),
        ("height", Value::from(out.height)),
        ("layers", Value::from(out.layers)),
        ("pitch", Value::from(out.pitch)),
        ("xa", Value::from(out.xa)),
        ("group_valid", Value::from(out.group_valid)),
        ("address", Value::from(out.address)),
        ("illegal", Value::from(out.illegal)),
    ]);
    // An illegal combination: the executor's error naming it (the layout's, the reserved op's, or
    // the multi-texel table's, which lists SPEC §4.3's table).
    if out.illegal {
        if let Err(message) = input.rejection() {
            map.insert("rejected".into(), Value::from(message));
        }
    }
    map
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tsharp::{TYPE_1D, TYPE_2D, TYPE_2D_ARRAY};
    use crate::unit::testing;
    use proptest::prelude::*;

    /// A bound 2D R8 unorm T#: width × height, pitch field = width − 1, levels 0..15, max_mip 15.
    fn tsharp(width: u16, height: u16) -> TSharp {
        TSharp {
            base: 0x10,
            dfmt: DFMT_R8,
            nfmt: NFMT_UNORM,
            width_minus_1: width - 1,
            height_minus_1: height - 1,
            dst_sel: [4, 5, 6, 7],
            last_level: 15,
            kind: TYPE_2D,
            pitch_minus_1: width - 1,
            max_mip: 15,
            ..TSharp::default()
        }
    }

    /// A valid BY2 (DMASK 0x3) lane at (x, y) on `t`, 256-bit T#.
    fn input(t: TSharp, x: u32, y: u32) -> In {
        let (tsharp_lo, tsharp_hi) = t.encode();
        In { valid: true, tsharp_lo, tsharp_hi, op: OP_BY2, dmask: 0x3, x, y, ..In::default() }
    }

    fn with_op(i: In, op: u8, dmask: u8) -> In {
        In { op, dmask, ..i }
    }

    /// The lookup against SPEC §4.3's table read literally (a search of its rows), for every
    /// (op, DMASK, dfmt, nfmt) at port width and bits above it.
    #[test]
    fn format_row_is_the_tables_search() {
        for code in 0u32..1 << 17 {
            let (op, dmask, dfmt, nfmt) =
                (code as u8 & 3, (code >> 2) as u8 & 0xf, (code >> 6) as u8 & 0x3f, (code >> 12) as u8 & 0x1f);
            let (op_hi, dfmt_hi) = (op | (4 * (code >> 16) as u8), dfmt | (0x40 * (code >> 16) as u8));
            let searched = FORMAT_TABLE
                .iter()
                .find(|r| r.op == op && r.dmask == dmask && r.dfmt == dfmt && r.nfmts.contains(&(nfmt & 0xf)));
            assert_eq!(
                table_allows(op_hi, dmask, dfmt_hi, nfmt),
                searched.is_some(),
                "op {op} dmask {dmask} dfmt {dfmt} nfmt {nfmt}"
            );
            assert_eq!(
                format_row(op_hi, dmask, dfmt_hi, nfmt).map(|r| r as *const _),
                searched.map(|r| r as *const _),
                "op {op} dmask {dmask} dfmt {dfmt} nfmt {nfmt}"
            );
        }
    }

    #[test]
    fn port_tables_match_the_rtl() {
        assert_eq!(
            testing::port_widths::<In>(),
            [
                ("valid", 1),
                ("tsharp_lo", 128),
                ("tsharp_hi", 128),
                ("r128", 1),
                ("op", 3),
                ("mip", 1),
                ("dmask", 4),
                ("d16", 1),
                ("tfe", 1),
                ("da", 1),
                ("x", 32),
                ("y", 32),
                ("slice", 32),
                ("mipid", 32)
            ]
        );
        assert_eq!(
            testing::port_widths::<Out>(),
            [
                ("valid", 1),
                ("level_ok", 1),
                ("level", 4),
                ("width", 15),
                ("height", 15),
                ("layers", 16),
                ("pitch", 17),
                ("xa", 32),
                ("group_valid", 1),
                ("address", 48),
                ("illegal", 1)
            ]
        );
    }

    /// xa = x & ~(n − 1) for every x mod 4 (x = 8..11), n = 2 (BY2, PCK2) and n = 4 (BY4, PCK4):
    /// n = 2 → 8, 8, 10, 10; n = 4 → 8, 8, 8, 8. Width 16, so every group fits (x + 4 <= 15).
    /// R8 pitch 16, base 0x10·256 = 0x1000, y 1: address = 0x1000 + 16 + xa.
    #[test]
    fn alignment_every_x_mod_4() {
        let t = tsharp(16, 4);
        for (op, dmask, dfmt, expect) in [
            (OP_BY2, 0x3, DFMT_R8, [8, 8, 10, 10]),
            (OP_PCK2, 0x1, DFMT_R8, [8, 8, 10, 10]),
            (OP_BY4, 0xf, DFMT_R8, [8, 8, 8, 8]),
            (OP_PCK4, 0x1, DFMT_R8, [8, 8, 8, 8]),
        ] {
            for (k, &xa) in expect.iter().enumerate() {
                let i = with_op(input(TSharp { dfmt, ..t }, 8 + k as u32, 1), op, dmask);
                let o = compute(&i);
                assert_eq!((o.xa, o.group_valid, o.illegal), (xa, true, false), "op {op} x {}", 8 + k);
                assert_eq!(o.address, 0x1000 + 16 + u64::from(xa));
            }
        }
    }

    /// The bound uses the unaligned x. Width 6, BY4: x = 3 aligns to xa = 0, and texels 0..3 lie
    /// inside the row, but x + 4 = 7 > 6: invalid. x = 2: 6 <= 6, valid (xa 0). Likewise BY2 on
    /// width 5: x = 3 → xa 2 (texels 2, 3 inside) but 3 + 2 = 5 <= 5 valid; x = 4 → xa 4, 6 > 5
    /// invalid. The address is computed either way.
    #[test]
    fn group_must_fit_before_alignment() {
        let by4 = |x| compute(&with_op(input(tsharp(6, 1), x, 0), OP_BY4, 0xf));
        assert_eq!((by4(3).xa, by4(3).group_valid), (0, false));
        assert_eq!((by4(2).xa, by4(2).group_valid), (0, true));
        assert_eq!(by4(3).address, 0x1000);
        let by2 = |x| compute(&input(tsharp(5, 1), x, 0));
        assert_eq!((by2(3).xa, by2(3).group_valid), (2, true));
        assert_eq!((by2(4).xa, by2(4).group_valid, by2(4).address), (4, false, 0x1004));
    }

    /// Last column and row: width 7, height 3. BY2 at x = 5 reads 5, 6 (5 + 2 = 7 <= 7): valid;
    /// x = 6 (the last column) cannot hold a pair: invalid. y = 2 valid, y = 3 invalid. The exact
    /// sum: x = 0xffff_ffff + 2 does not wrap to 1, so it is invalid.
    #[test]
    fn last_column_and_row() {
        let t = tsharp(7, 3);
        assert!(compute(&input(t, 5, 2)).group_valid);
        assert!(!compute(&input(t, 6, 2)).group_valid);
        assert!(!compute(&input(t, 5, 3)).group_valid);
        let o = compute(&input(t, u32::MAX, 0));
        assert_eq!((o.xa, o.group_valid), (0xffff_fffe, false));
        let o = compute(&input(tsharp(16384, 1), 16382, 0));
        assert!(o.group_valid);
    }

    /// Mips down to 1×1: 16 × 4 (pitch 16), levels via mipid 0..6: widths 16 >> L = 16, 8, 4, 2,
    /// 1, then max(1, 0) = 1, 1; heights 4, 2, 1, 1, 1, 1, 1. At the 1×1 levels no pair fits
    /// (x = 0: 0 + 2 > 1).
    #[test]
    fn mips_down_to_one_by_one() {
        let t = tsharp(16, 4);
        let widths = [16, 8, 4, 2, 1, 1, 1];
        let heights = [4, 2, 1, 1, 1, 1, 1];
        for l in 0..7u32 {
            let o = compute(&In { mip: true, mipid: l, ..input(t, 0, 0) });
            assert!(o.level_ok);
            assert_eq!(u32::from(o.level), l);
            assert_eq!(
                (o.width, o.height, o.pitch),
                (widths[l as usize], heights[l as usize], widths[l as usize].into())
            );
            assert_eq!(o.group_valid, widths[l as usize] >= 2, "level {l}");
        }
        // Without MIP, mipid is ignored: level 0.
        let o = compute(&In { mipid: 3, ..input(t, 0, 0) });
        assert_eq!((o.level, o.width), (0, 16));
    }

    /// The level must exist: base_level 1, last_level 3, max_mip 4. mipid 2 → L = 3 exists;
    /// mipid 3 → L = 4 > last_level. With last_level 5 and max_mip 4, L = 5 > max_mip on a 256-bit
    /// T#, but a 128-bit T# has no max_mip check. mipid 0xffff_ffff → L = 2^32, exact: no wrap to
    /// 0. A missing level zeroes level, width, height, pitch and address.
    #[test]
    fn level_beyond_last_level_or_max_mip() {
        let t = TSharp { base_level: 1, last_level: 3, max_mip: 4, ..tsharp(32, 32) };
        let at = |t: TSharp, mipid| compute(&In { mip: true, mipid, ..input(t, 0, 0) });
        let o = at(t, 2);
        assert_eq!((o.level_ok, o.level, o.width, o.height), (true, 3, 4, 4));
        let o = at(t, 3);
        assert_eq!(o, Out { valid: true, xa: 0, ..Out::default() });
        let t5 = TSharp { last_level: 5, ..t };
        assert!(at(t5, 3).level_ok); // L = 4 = max_mip
        assert!(!at(t5, 4).level_ok); // L = 5 > max_mip
        assert!(compute(&In { r128: true, mip: true, mipid: 4, ..input(t5, 0, 0) }).level_ok);
        let o = at(TSharp { base_level: 15, last_level: 15, ..t }, u32::MAX);
        assert!(!o.level_ok && !o.group_valid);
        // base_level alone beyond last_level: a non-MIP load has no level either.
        assert!(!compute(&input(TSharp { base_level: 4, ..t }, 0, 0)).level_ok);
    }

    /// r128 = 1: tsharp_hi is not read. A high half with pitch field 99 and max_mip 0 changes
    /// nothing: pitch = width at every level, and L = 2 > max_mip 0 still exists. With r128 = 0
    /// the same T# has pitch 100 and level 2 missing.
    #[test]
    fn r128_ignores_the_high_half() {
        let t = TSharp { pitch_minus_1: 99, max_mip: 0, ..tsharp(10, 8) };
        let i = In { mip: true, mipid: 2, ..input(t, 0, 1) };
        let o = compute(&In { r128: true, ..i });
        assert_eq!((o.level_ok, o.width, o.height, o.pitch), (true, 2, 2, 2));
        let o = compute(&In { r128: true, mipid: 0, ..i });
        assert_eq!((o.width, o.pitch, o.address), (10, 10, 0x1000 + 10));
        assert!(!compute(&i).level_ok);
        let o = compute(&In { mipid: 0, ..i });
        assert_eq!((o.width, o.pitch, o.address), (10, 100, 0x1000 + 100));
    }

    /// mip_offset with odd sizes, R16 (bpp 2): 7 × 5, pitch 9, levels 0..3.
    /// - 256-bit: (pitch_l, height_l) = (9, 5), (4, 2), (2, 1), (1, 1): level sizes 45, 8, 2, 1
    ///   texels → 90, 16, 4 bytes. mip_offset(1..3) = 90, 106, 110.
    /// - 128-bit (pitch = width: 7, 3, 1, 1): 35, 6, 1 texels → 70, 12, 2 bytes: 70, 82, 84.
    ///
    /// Address at (x 1, y 1) of level L (x 1 → xa 0, BY2): base 0x1000 + mip_offset + pitch_L·2.
    #[test]
    fn mip_offset_odd_sizes() {
        let t = TSharp { dfmt: DFMT_R16, pitch_minus_1: 8, ..tsharp(7, 5) };
        let at = |r128, mipid| compute(&In { r128, mip: true, mipid, ..input(t, 1, 1) }).address;
        assert_eq!(
            [at(false, 0), at(false, 1), at(false, 2), at(false, 3)],
            [0x1000 + 18, 0x1000 + 90 + 8, 0x1000 + 106 + 4, 0x1000 + 110 + 2]
        );
        assert_eq!(
            [at(true, 0), at(true, 1), at(true, 2), at(true, 3)],
            [0x1000 + 14, 0x1000 + 70 + 6, 0x1000 + 82 + 2, 0x1000 + 84 + 2]
        );
        // base_level 2 with mipid 1 is level 3: the offset counts every level below 3.
        let t2 = TSharp { base_level: 2, ..t };
        let o = compute(&In { mip: true, mipid: 1, ..input(t2, 1, 0) });
        assert_eq!((o.level, o.address), (3, 0x1000 + 110));
    }

    /// Addresses wrap modulo 2^48: base 0xff_ffff_ffff (·256 = 0xffff_ffff_ff00), R8 pitch 256,
    /// y 1, x 4: 0xffff_ffff_ff00 + 256 + 4 = 2^48 + 4 → 4.
    #[test]
    fn address_wraps_at_48_bits() {
        let t = TSharp { base: 0xff_ffff_ffff, ..tsharp(256, 2) };
        assert_eq!(compute(&input(t, 4, 1)).address, 4);
    }

    /// Every table row is legal on a 2D image with D16 = TFE = DA = 0, MIP or not, 128- or
    /// 256-bit; the neighbours are illegal: another DMASK, nfmt, dfmt or type, D16, TFE, DA.
    #[test]
    fn table_rows_and_rejected_neighbours() {
        for r in &FORMAT_TABLE {
            for &nfmt in r.nfmts {
                let t = TSharp { dfmt: r.dfmt, nfmt, ..tsharp(8, 8) };
                let i = with_op(input(t, 0, 0), r.op, r.dmask);
                for (mip, r128) in [(false, false), (true, false), (false, true)] {
                    let o = compute(&In { mip, r128, ..i });
                    assert!(!o.illegal && o.group_valid, "{r:?} nfmt {nfmt}");
                }
                for bad in [
                    In { dmask: r.dmask ^ 0x2, ..i },
                    In { dmask: 0, ..i },
                    In { d16: true, ..i },
                    In { tfe: true, ..i },
                    In { da: true, ..i },
                    In { tsharp_lo: TSharp { kind: TYPE_2D_ARRAY, ..t }.encode().0, ..i },
                    In { tsharp_lo: TSharp { kind: TYPE_1D, ..t }.encode().0, ..i },
                    In { tsharp_lo: TSharp { nfmt: nfmt | 0x8, ..t }.encode().0, ..i },
                    In { tsharp_lo: TSharp { dfmt: r.dfmt | 0x10, ..t }.encode().0, ..i },
                ] {
                    let o = compute(&bad);
                    assert!(o.illegal && !o.group_valid, "{r:?} nfmt {nfmt}: {bad:?}");
                }
            }
        }
        // Rejected nfmts: uscaled, sscaled, reserved everywhere; snorm on PCK; float except BY2 R16.
        let t = tsharp(8, 8);
        let legal =
            |op, dmask, dfmt, nfmt| !compute(&with_op(input(TSharp { dfmt, nfmt, ..t }, 0, 0), op, dmask)).illegal;
        for nfmt in [2, 3, 6] {
            assert!(!legal(OP_BY2, 0x3, DFMT_R8, nfmt));
        }
        assert!(!legal(OP_PCK2, 0x1, DFMT_R8, NFMT_SNORM));
        assert!(!legal(OP_BY2, 0x3, DFMT_R8, NFMT_FLOAT));
        assert!(legal(OP_BY2, 0x3, DFMT_R16, NFMT_FLOAT));
        assert!(!legal(OP_BY4, 0xf, DFMT_R16, NFMT_UNORM));
        assert!(!legal(OP_PCK4, 0x1, DFMT_RG8, NFMT_UNORM));
        assert!(!legal(OP_BY2, 0x3, DFMT_RG8, NFMT_UNORM)); // RG8 BY2 needs 0xF
        assert!(!legal(OP_BY2, 0xf, DFMT_R8, NFMT_UNORM)); // R8 BY2 needs 0x3
        assert!(!legal(OP_BY2, 0x3, 4, NFMT_UINT)); // dfmt 32
    }

    /// An unbound T# (dfmt 0, or type < 8) is never illegal and never has a valid group; its
    /// level and address are still computed.
    #[test]
    fn unbound_is_not_illegal() {
        for t in [TSharp { dfmt: 0, ..tsharp(8, 8) }, TSharp { kind: 7, ..tsharp(8, 8) }] {
            let o = compute(&In { d16: true, ..input(t, 2, 1) });
            assert!(!o.illegal && !o.group_valid && o.level_ok);
            assert_eq!(o.width, 8);
        }
        // dfmt 0 has no element: address = base·256 (bpp 0).
        assert_eq!(compute(&input(TSharp { dfmt: 0, ..tsharp(8, 8) }, 2, 1)).address, 0x1000);
    }

    /// Port-width masking: op 0x9 → 1 (BY4: x 2 aligns to 0, not 2), dmask 0x1f → 0xf.
    #[test]
    fn inputs_are_masked_to_port_width() {
        let o = compute(&with_op(input(tsharp(8, 1), 2, 0), 0x9, 0x1f));
        assert_eq!((o.illegal, o.xa, o.group_valid), (false, 0, true));
    }

    // --- timing ---

    /// Call j's valid input comes back from call j + 1; valid shifts every edge; data hold.
    #[test]
    fn timing() {
        let a = input(tsharp(16, 4), 3, 1);
        let b = In { x: 6, ..a };
        let junk = In { valid: false, x: 9, ..a };
        let a_out = Out { valid: true, ..compute(&a) };
        assert_eq!((a_out.xa, a_out.address), (2, 0x1012));
        let b_out = Out { valid: true, ..compute(&b) };
        testing::assert_two_stage_timing(&mut ImageAddr::new(), &a, &b, &junk, a_out, b_out);
    }

    fn any_in() -> impl Strategy<Value = In> {
        (
            (any::<bool>(), any::<u128>(), any::<u128>(), any::<bool>(), 0u8..8, any::<bool>(), 0u8..16),
            (any::<bool>(), any::<bool>(), any::<bool>(), 0u32..40, 0u32..40, 0u32..20, 0u32..20),
            // Half the T#s steered to a legal 2D row with small sizes, the rest raw.
            any::<bool>(),
        )
            .prop_map(|((valid, lo, hi, r128, op, mip, dmask), (d16, tfe, da, x, y, slice, mipid), steer)| {
                let mut lo = lo;
                if steer {
                    let mut t = TSharp::decode(lo, hi);
                    let r = FORMAT_TABLE[(lo % 8) as usize];
                    t.dfmt = r.dfmt;
                    t.nfmt = r.nfmts[(hi % r.nfmts.len() as u128) as usize];
                    t.kind = tsharp::TYPE_2D;
                    t.width_minus_1 &= 0x3f;
                    t.height_minus_1 &= 0x3f;
                    lo = t.encode().0;
                }
                In { valid, tsharp_lo: lo, tsharp_hi: hi, r128, op, mip, dmask, d16, tfe, da, x, y, slice, mipid }
            })
    }

    proptest! {
        /// Outputs fit their ports and hang together: a valid group is legal, bound, on an
        /// existing level, inside it; a missing level zeroes its outputs.
        #[test]
        fn outputs_are_consistent(i in any_in()) {
            let o = compute(&i);
            testing::fits_ports(&o)?;
            let n = group_size(i.op);
            prop_assert_eq!(o.xa % n, 0);
            prop_assert!(o.xa <= i.x && i.x - o.xa < n);
            if o.group_valid {
                prop_assert!(o.level_ok && !o.illegal);
                prop_assert!(i.x + n <= u32::from(o.width) && i.y < u32::from(o.height));
            }
            if !o.level_ok {
                prop_assert_eq!((o.level, o.width, o.height, o.pitch, o.address), (0, 0, 0, 0, 0));
            }
        }

        /// The two-stage model equals "compute, delayed one call, holding on invalid".
        #[test]
        fn model_matches_delayed_compute(inputs in prop::collection::vec(any_in(), 1..40)) {
            testing::matches_delayed_compute::<ImageAddr>(&inputs, compute)?;
        }
    }
}
