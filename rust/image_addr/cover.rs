//! Functional coverage (rust/cover.rs): the bins `make cosim` must hit, declared from SPEC §1.2,
//! §4.2–§4.5 and docs/decisions.md "image_addr" (not from the RTL). Level, size and coordinate
//! bins count only lanes whose verdict they decide: a bound, legal lane whose level exists. The
//! layout's cross (sw_mode × element bytes) counts every one-element lane on a 2D or 2D array
//! T#, legal or not: its tiled 12-byte and unmodelled-mode bins are reached by `illegal` lanes.

use std::hint::select_unpredictable;

use super::{
    group_size, row_index, supported, table_allows, texel_bytes, tile_block, In, Out, FORMAT_TABLE, GROUP_OP_NAMES,
    OP_ELEMENT, OP_NAMES, OP_PCK4, SW_256B_S, SW_4KB_S, SW_64KB_S,
};
use crate::cover::{Covergroup, Hits};
use crate::tsharp::{self, TSharp};

/// The coverpoints, in declaration order.
#[repr(usize)]
enum Point {
    OpMipDa,
    OpOutcome,
    R128Outcome,
    Type,
    Unbound,
    Illegal,
    LayoutIllegal,
    Level,
    LevelValue,
    Width,
    Height,
    Pitch,
    X,
    Y,
    Fits,
    Alignment,
    Address,
    ModeSize,
    ElementType,
    ElementEdge,
    TiledEdge,
    BlockEdge,
    TiledLevel,
    TiledGroup,
}

const OUTCOMES: &[&str] = &["unbound", "illegal", "level missing", "group out of bounds", "group valid"];
const SIZE_CLASSES: &[&str] = &[
    "1 at level 0",
    "1 clamped ((field + 1) >> L = 0)",
    "2 or 3",
    "power of two 4..8192",
    "not a power of two >= 5",
    "16384 (largest)",
];
/// Ops 0–4 (the reserved 5–7 have a bin of their own in [`Point::LayoutIllegal`] and
/// [`Point::Unbound`]).
const OPS: &[&str] = OP_NAMES.split_at(5).0;
/// The layouts: linear, the three tiled modes, and one bin for every unmodelled mode.
const MODES: &[&str] = &["linear (0)", "256B_S (1)", "4KB_S (5)", "64KB_S (9)", "unmodelled (illegal)"];
const TILED: &[&str] = &["256B_S", "4KB_S", "64KB_S"];
const LEVEL_EDGES: &[&str] =
    &["x = width - 1", "x = width", "y = height - 1", "y = height", "slice = layers - 1", "slice = layers"];
/// The element sizes of §1.4.
const SIZES: &[&str] = &["1 byte", "2 bytes", "4 bytes", "8 bytes", "12 bytes (tiled: illegal)", "16 bytes"];
/// The element sizes a tiled mode takes (§4.5), index log2(bytes).
const TILED_SIZES: &[&str] = &["1 byte", "2 bytes", "4 bytes", "8 bytes", "16 bytes"];

pub fn covergroup() -> Covergroup {
    element_points(group_points(Covergroup::new()))
}

/// The points of the op, the T#, the level and the multi-texel group (§1.2, §4.2, §4.3).
fn group_points(cg: Covergroup) -> Covergroup {
    cg.cross(Point::OpMipDa as usize, "op x mip x da", &[OPS, &["mip=0", "mip=1"], &["da=0", "da=1"]])
        .cross(Point::OpOutcome as usize, "op x outcome", &[OPS, OUTCOMES])
        .cross(Point::R128Outcome as usize, "T# size x outcome", &[&["256-bit", "128-bit (r128)"], OUTCOMES])
        .point(
            Point::Type as usize,
            "type (§1.2)",
            [
                "below 8 (unbound)",
                "1D (8)",
                "2D (9)",
                "3D (10)",
                "cube (11)",
                "1D array (12)",
                "2D array (13)",
                "2D MSAA (14)",
                "2D MSAA array (15)",
            ],
        )
        .point(
            Point::Unbound as usize,
            "unbound reason (§1.2)",
            [
                "dfmt 0 (type >= 8)",
                "type < 8 (dfmt != 0)",
                "dfmt 0 and type < 8",
                "unsupported combination on an unbound T#: not illegal",
                "reserved op on an unbound T#: not illegal",
                "unmodelled sw_mode on an unbound T#: not illegal",
            ],
        )
        .point(
            Point::Illegal as usize,
            "illegal reason (§4.3)",
            [
                "type not 2D",
                "dfmt not R8/R16/RG8",
                "BY4/PCK4 on R16 or RG8",
                "DMASK not the row's",
                "nfmt not in the row",
                "D16",
                "TFE",
                "DA",
            ],
        )
        .point(
            Point::LayoutIllegal as usize,
            "illegal reason (§4.5, op)",
            [
                "reserved op (5..7)",
                "sw_mode not modelled",
                "tiled on 3D",
                "tiled on 1D, cube, 1D array or MSAA",
                "tiled 12-byte element (dfmt 13)",
                "tiled dfmt outside 1..14 (no element)",
                "multi-texel table row on an illegal layout",
            ],
        )
        .point(
            Point::Level as usize,
            "mip level (§4.2)",
            [
                "exists",
                "L > last_level",
                "256-bit: L > max_mip (L <= last_level)",
                "128-bit: L > max_mip field, ignored (exists)",
                "L > 15 (mipid)",
                "L >= 2^32 (base_level + mipid, exact)",
                "mip=0: mipid != 0 ignored",
            ],
        )
        .cross(Point::LevelValue as usize, "level x mip", &[&["L=0", "L=1..14", "L=15"], &["mip=0", "mip=1"]])
        .point(Point::Width as usize, "width_L", SIZE_CLASSES)
        .point(Point::Height as usize, "height_L (not 1D)", SIZE_CLASSES)
        .point(
            Point::Pitch as usize,
            "pitch_L",
            [
                "128-bit: pitch = width",
                "256-bit: pitch = width",
                "256-bit: pitch > width",
                "256-bit: pitch < width",
                "256-bit: pitch 65536 (largest)",
            ],
        )
        .point(
            Point::X as usize,
            "x (§4.3, unaligned x)",
            [
                "x + n < width",
                "x + n = width (last group)",
                "x < width < x + n (group overhangs)",
                "x >= width",
                "x + n >= 2^32 (exact, no wrap)",
            ],
        )
        .point(Point::Y as usize, "y (§4.3)", ["y < height - 1", "y = height - 1", "y = height", "y > height"])
        .cross(Point::Fits as usize, "x fits x y fits", &[&["x fits", "x out"], &["y fits", "y out"]])
        .point(
            Point::Alignment as usize,
            "x alignment",
            [
                "n=2: x even",
                "n=2: x odd",
                "n=4: x%4=0",
                "n=4: x%4=1",
                "n=4: x%4=2",
                "n=4: x%4=3",
                "aligned group fits but unaligned x + n > width (invalid)",
            ],
        )
        .point(
            Point::Address as usize,
            "address (§4.4)",
            ["level 0 (no mip_offset)", "level > 0 (mip_offset)", "wraps past 2^48 (below base)"],
        )
}

/// The points of one-element accesses and tiled surfaces (§4.4, §4.5).
fn element_points(cg: Covergroup) -> Covergroup {
    cg.cross(Point::ModeSize as usize, "element on 2D/2D array: sw_mode x element bytes (§4.5)", &[MODES, SIZES])
        .point(
            Point::ElementType as usize,
            "element: type (§4.2 layers)",
            [
                "1D (8, height 1)",
                "2D (9)",
                "3D (10, layers = depth_L)",
                "cube (11, layers = 6 x depth)",
                "1D array (12, height 1)",
                "2D array (13)",
                "2D MSAA (14)",
                "2D MSAA array (15)",
            ],
        )
        .cross(
            Point::ElementEdge as usize,
            "element, linear: element bytes x edge of the level (§4.4)",
            &[SIZES, LEVEL_EDGES],
        )
        .cross(
            Point::TiledEdge as usize,
            "element, tiled: sw_mode x element bytes x edge of the level (§4.4, §4.5)",
            &[TILED, TILED_SIZES, LEVEL_EDGES],
        )
        .cross(
            Point::BlockEdge as usize,
            "tiled: sw_mode x element bytes x edge of a block inside the level (§4.5)",
            &[TILED, TILED_SIZES, &["x = bw - 1", "x = bw", "y = bh - 1", "y = bh"]],
        )
        .cross(
            Point::TiledLevel as usize,
            "tiled: level (§4.5)",
            &[
                TILED,
                &[
                    "L = 0",
                    "L > 0 (mip_offset of whole blocks)",
                    "pitch_L < bw (one block a row)",
                    "height_L < bh (one block row a layer)",
                    "slice > 0 (2D array)",
                ],
            ],
        )
        .cross(Point::TiledGroup as usize, "multi-texel group valid on a tiled surface", &[GROUP_OP_NAMES, TILED])
}

fn size_class(size: u32, field_plus_1: u32, level: u32) -> usize {
    // The classes in the order they are tested, each selected rather than branched on.
    let large = select_unpredictable(size == 16384, 5, select_unpredictable(size.is_power_of_two(), 3, 4));
    let small = select_unpredictable((size == 2) | (size == 3), 2, large);
    select_unpredictable(size == 1, usize::from(field_plus_1 >> level == 0), small)
}

/// The outcomes' crosses (op, T# size); `op` <= 4.
#[inline(always)]
fn hit_outcome(hits: &mut Hits, op: u8, r128: bool, outcome: usize) {
    hits.hit_cross(Point::OpOutcome as usize, &[usize::from(op), outcome]);
    hits.hit_cross(Point::R128Outcome as usize, &[usize::from(r128), outcome]);
}

/// [`MODES`]'s index of an `sw_mode` code.
const MODE_INDEX: [u8; 32] = {
    let mut t = [4; 32];
    t[0] = 0;
    t[SW_256B_S as usize] = 1;
    t[SW_4KB_S as usize] = 2;
    t[SW_64KB_S as usize] = 3;
    t
};

/// [`SIZES`]'s index of an element size in bytes (1, 2, 4, 8, 12, 16; others unused).
const SIZE_INDEX: [u8; 17] = [0, 0, 1, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 5];

pub fn sample(input: &In, out: &Out, hits: &mut Hits) {
    let op = input.op & 0x7;
    let t = TSharp::decode(input.tsharp_lo, select_unpredictable(input.r128, 0, input.tsharp_hi));
    hits.hit(Point::Type as usize, usize::from(t.kind.saturating_sub(7)));

    // Whether the T# is bound, the op and the combination legal are the instruction's, the same
    // for each of its lanes, which come in runs (cosim/bindings/image_addr.rs): these branches
    // are predicted, and only their own lanes count the bins under them. A lane's own conditions
    // (its level, coordinates) are counted with `hit_when` (an add, no branch) and selects.
    let reserved = op > OP_ELEMENT;
    if !reserved {
        hits.hit_cross(Point::OpMipDa as usize, &[usize::from(op), usize::from(input.mip), usize::from(input.da)]);
    }
    if !t.is_bound() {
        sample_unbound(input, &t, hits);
        if !reserved {
            hit_outcome(hits, op, input.r128, 0);
        }
        return;
    }
    let bpp = texel_bytes(t.dfmt);
    let tile_type = matches!(t.kind, tsharp::TYPE_2D | tsharp::TYPE_2D_ARRAY);
    if (op == OP_ELEMENT) & tile_type & (bpp != 0) {
        let mode = MODE_INDEX[usize::from(t.sw_mode & 0x1f)];
        hits.hit_cross(Point::ModeSize as usize, &[usize::from(mode), usize::from(SIZE_INDEX[bpp as usize])]);
    }
    if out.illegal {
        sample_illegal(input, &t, hits);
        if !reserved {
            hit_outcome(hits, op, input.r128, 1);
        }
        return;
    }

    // §4.2: the level, exact.
    let level = u64::from(t.base_level) + select_unpredictable(input.mip, u64::from(input.mipid), 0);
    hits.hit_when(!input.mip & (input.mipid != 0), Point::Level as usize, 6);
    let ok = out.level_ok;
    hit_outcome(hits, op, input.r128, select_unpredictable(ok, select_unpredictable(out.group_valid, 4, 3), 2));
    if !ok {
        let wide = level >> 32 != 0;
        hits.hit_when(wide, Point::Level as usize, 5);
        hits.hit_when(!wide & (level > 15), Point::Level as usize, 4);
        hits.hit(Point::Level as usize, select_unpredictable(level > u64::from(t.last_level), 1, 2));
        return;
    }
    hits.hit(Point::Level as usize, 0);
    hits.hit_when(input.r128 & (level > u64::from(t.max_mip)), Point::Level as usize, 3);
    let l = u32::from(out.level);
    let level_class = select_unpredictable(l == 0, 0, select_unpredictable(l == 15, 2, 1));
    hits.hit_cross(Point::LevelValue as usize, &[level_class, usize::from(input.mip)]);

    // §4.2: the level's dimensions (a 1D level's height is 1 whatever its field).
    let (width, height, pitch) = (u32::from(out.width), u32::from(out.height), out.pitch);
    hits.hit(Point::Width as usize, size_class(width, t.width(), l));
    let one_d = matches!(t.kind, tsharp::TYPE_1D | tsharp::TYPE_1D_ARRAY);
    if !one_d {
        hits.hit(Point::Height as usize, size_class(height, t.height(), l));
    }
    let unequal = select_unpredictable(pitch > width, 2, 3);
    let pitch_bin = select_unpredictable(input.r128, 0, select_unpredictable(pitch == width, 1, unequal));
    hits.hit(Point::Pitch as usize, pitch_bin);
    hits.hit_when(pitch == 65536, Point::Pitch as usize, 4);

    // §4.4: the address.
    hits.hit(Point::Address as usize, usize::from(l > 0));
    hits.hit_when(out.address < t.base * 256, Point::Address as usize, 2);

    // §4.5: the tiled layout's level and blocks (a legal lane: its mode is modelled and its type
    // and element can take it).
    let block = tile_block(t.sw_mode, bpp);
    if let Some(b) = block {
        let mode = usize::from(MODE_INDEX[usize::from(t.sw_mode & 0x1f)]) - 1;
        let (bw, bh) = (1u32 << b.bw_log2, 1u32 << b.bh_log2);
        let tiled_level = |hits: &mut Hits, cond: bool, bin: usize| {
            hits.hit_when(cond, Point::TiledLevel as usize, mode * 5 + bin);
        };
        tiled_level(hits, true, usize::from(l > 0));
        tiled_level(hits, pitch < bw, 2);
        tiled_level(hits, height < bh, 3);
        tiled_level(hits, (op == OP_ELEMENT) & (input.slice > 0) & out.group_valid, 4);
        // A block's last and next column and row, the lane inside the level.
        let (x, y) = (input.x, input.y);
        let at = (mode * 5 + bpp.trailing_zeros() as usize) * 4;
        let edge = |hits: &mut Hits, cond: bool, bin: usize| {
            hits.hit_when(cond & out.group_valid, Point::BlockEdge as usize, at + bin);
        };
        edge(hits, x == bw - 1, 0);
        edge(hits, x == bw, 1);
        edge(hits, y == bh - 1, 2);
        edge(hits, y == bh, 3);
    }

    if op == OP_ELEMENT {
        // The level-edge cross: linear by element size, tiled by mode and element size.
        // (A dfmt without an element, bpp 0, has no size bin.)
        let edges = match block {
            Some(_) => {
                let mode = usize::from(MODE_INDEX[usize::from(t.sw_mode & 0x1f)]) - 1;
                Some((Point::TiledEdge, (mode * 5 + bpp.trailing_zeros() as usize) * 6))
            }
            None if bpp != 0 => Some((Point::ElementEdge, usize::from(SIZE_INDEX[bpp as usize]) * 6)),
            None => None,
        };
        sample_element(input, out, t.kind, edges, hits);
    } else {
        if block.is_some() {
            let mode = usize::from(MODE_INDEX[usize::from(t.sw_mode & 0x1f)]) - 1;
            hits.hit_when(out.group_valid, Point::TiledGroup as usize, usize::from(op) * 3 + mode);
        }
        sample_group(input, out, op, hits);
    }
}

/// A legal one-element lane whose level exists (§4.4): its type and the edges of its level.
/// `edges`: the level-edge coverpoint of the lane's layout and the first of its six bins.
fn sample_element(input: &In, out: &Out, kind: u8, edges: Option<(Point, usize)>, hits: &mut Hits) {
    hits.hit(Point::ElementType as usize, usize::from(kind - tsharp::TYPE_1D));
    let Some((point, at)) = edges else { return };
    let point = point as usize;
    let (width, height, layers) = (u32::from(out.width), u32::from(out.height), u32::from(out.layers));
    let (x, y, s) = (input.x, input.y, input.slice);
    hits.hit_when(x.wrapping_add(1) == width, point, at);
    hits.hit_when(x == width, point, at + 1);
    hits.hit_when(y.wrapping_add(1) == height, point, at + 2);
    hits.hit_when(y == height, point, at + 3);
    hits.hit_when(s.wrapping_add(1) == layers, point, at + 4);
    hits.hit_when(s == layers, point, at + 5);
}

/// A legal multi-texel lane whose level exists (§4.3): the group against the level, with the
/// unaligned x.
fn sample_group(input: &In, out: &Out, op: u8, hits: &mut Hits) {
    let (width, height) = (u32::from(out.width), u32::from(out.height));
    let n = group_size(op);
    let (x, y) = (u64::from(input.x), input.y);
    let (end, width) = (x + u64::from(n), u64::from(width));
    let fits_x = end <= width;
    let fits_y = y < height;
    let inside = select_unpredictable(end > width, 2, usize::from(end == width));
    let x_bin = select_unpredictable(end >> 32 != 0, 4, select_unpredictable(x >= width, 3, inside));
    hits.hit(Point::X as usize, x_bin);
    // (y < height: y + 1 cannot overflow.)
    let below = usize::from(y.wrapping_add(1) == height);
    let y_bin = select_unpredictable(fits_y, below, select_unpredictable(y == height, 2, 3));
    hits.hit(Point::Y as usize, y_bin);
    hits.hit_cross(Point::Fits as usize, &[usize::from(!fits_x), usize::from(!fits_y)]);
    // n = 2: x even, odd (bins 0, 1); n = 4: x % 4 (bins 2..=5).
    hits.hit(Point::Alignment as usize, (x & u64::from(n - 1)) as usize + (n as usize - 2));
    hits.hit_when((u64::from(out.xa) + u64::from(n) <= width) & !fits_x, Point::Alignment as usize, 6);
}

/// An unbound T#'s lane: why it is unbound, and whether its combination is one the unit would
/// otherwise call illegal (which makes no unbound lane illegal: §1.2).
fn sample_unbound(input: &In, t: &TSharp, hits: &mut Hits) {
    let (dfmt_0, buffer_kind) = (t.dfmt == 0, t.kind < 8);
    let unbound_bin = select_unpredictable(dfmt_0 & !buffer_kind, 0, select_unpredictable(!dfmt_0 & buffer_kind, 1, 2));
    hits.hit(Point::Unbound as usize, unbound_bin);
    let op = input.op & 0x7;
    if op <= OP_PCK4 {
        let no_modifiers = !input.d16 & !input.tfe & !input.da;
        let supported = supported(op, input.dmask & 0xf, t.dfmt, t.nfmt, t.kind, no_modifiers);
        hits.hit_when(!supported, Point::Unbound as usize, 3);
    }
    hits.hit_when(op > OP_ELEMENT, Point::Unbound as usize, 4);
    hits.hit_when(MODE_INDEX[usize::from(t.sw_mode & 0x1f)] == 4, Point::Unbound as usize, 5);
}

/// An illegal lane: why it is illegal. The reserved op and the layout (§4.5) first; then, for a
/// multi-texel op (§4.3), its row of the table (none for an op without the dfmt), the row's
/// DMASK and nfmts, the image type and the modifiers.
fn sample_illegal(input: &In, t: &TSharp, hits: &mut Hits) {
    let op = input.op & 0x7;
    hits.hit_when(op > OP_ELEMENT, Point::LayoutIllegal as usize, 0);
    let mode = MODE_INDEX[usize::from(t.sw_mode & 0x1f)];
    let tiled = (1..=3).contains(&mode);
    hits.hit_when(mode == 4, Point::LayoutIllegal as usize, 1);
    let tile_type = matches!(t.kind, tsharp::TYPE_2D | tsharp::TYPE_2D_ARRAY);
    hits.hit_when(tiled & (t.kind == tsharp::TYPE_3D), Point::LayoutIllegal as usize, 2);
    hits.hit_when(tiled & !tile_type & (t.kind != tsharp::TYPE_3D), Point::LayoutIllegal as usize, 3);
    let bpp = texel_bytes(t.dfmt);
    hits.hit_when(tiled & (bpp == 12), Point::LayoutIllegal as usize, 4);
    hits.hit_when(tiled & (bpp == 0), Point::LayoutIllegal as usize, 5);
    if op > OP_PCK4 {
        return;
    }
    let dmask = input.dmask & 0xf;
    let no_modifiers = !input.d16 & !input.tfe & !input.da;
    let layout_ok = (mode == 0) | (tiled & tile_type & (bpp != 0) & (bpp != 12));
    hits.hit_when(
        !layout_ok & supported(op, dmask, t.dfmt, t.nfmt, t.kind, no_modifiers),
        Point::LayoutIllegal as usize,
        6,
    );
    hits.hit_when(t.kind != tsharp::TYPE_2D, Point::Illegal as usize, 0);
    match row_index(op, t.dfmt) {
        None => hits.hit(Point::Illegal as usize, if (1..=3).contains(&t.dfmt) { 2 } else { 1 }),
        Some(row) => {
            let r = &FORMAT_TABLE[row];
            hits.hit_when(r.dmask != dmask, Point::Illegal as usize, 3);
            // The row's own DMASK: whether the nfmt is one of its nfmts.
            hits.hit_when(!table_allows(op, r.dmask, t.dfmt, t.nfmt), Point::Illegal as usize, 4);
        }
    }
    for (k, set) in [input.d16, input.tfe, input.da].into_iter().enumerate() {
        hits.hit_when(set, Point::Illegal as usize, 5 + k);
    }
}
