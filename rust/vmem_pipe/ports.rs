//! The ports of `vmem_pipe` (docs/decisions.md "vmem_pipe", its port declaration), in RTL order:
//! [`In`] and [`Out`]. Shared by the model, the testbench and the harness.
//!
//! Three shapes of field: a scalar (one port), a *packed* array (one port whose element k sits at
//! bits `w·k ..`, e.g. the four banks' 3-bit tags), and a *split* array (one port per element,
//! named `<field><k>`, e.g. the 64 dwords of the four banks' lines: the harness compares at most
//! 128 bits per port).

use crate::exec::{decode_vaddr, Access, BufferInst, BufferKind, ImageInst, ImageKind, Wave, D16};
use crate::image_addr::{group_size, texel_bytes};
use crate::multi_texel;
use crate::tsharp::TSharp;
use crate::unit::{Kind, Ports, Signal};
use crate::vsharp::VSharp;

/// Lanes per issue beat and per VGPR write (one group).
pub const GROUP_LANES: usize = 16;
/// L2 channels: channel c serves TCP bank c (a two-bank configuration leaves channels 2 and 3
/// idle), so the ports do not change with the parameters.
pub const BANKS: usize = 4;
/// Dwords of a 64-byte line.
pub const LINE_DWORDS: usize = 16;

/// `"<prefix>0" .. "<prefix>{n-1}"` as a static table.
macro_rules! element_names {
    ($prefix:literal; $($k:literal)*) => { [$(concat!($prefix, stringify!($k))),*] };
}
macro_rules! names4 {
    ($prefix:literal) => { element_names!($prefix; 0 1 2 3) };
}
macro_rules! names8 {
    ($prefix:literal) => { element_names!($prefix; 0 1 2 3 4 5 6 7) };
}
macro_rules! names16 {
    ($prefix:literal) => { element_names!($prefix; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15) };
}
macro_rules! names64 {
    ($prefix:literal) => {
        element_names!($prefix;
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
            32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60
            61 62 63)
    };
}

/// All-ones in the low `width` bits (1..=128).
const fn width_mask(width: u32) -> u128 {
    u128::MAX >> (128 - width)
}

/// Declares a port bundle with scalar, packed-array and split-array fields, its `Default` (all
/// zero) and its [`Ports`] table.
macro_rules! pipe_ports {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$fmeta:meta])* $field:ident : $ty:ty = $shape:ident $width:literal $(x $n:literal)? $(, $names:expr)?; )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }

        impl Default for $name {
            fn default() -> Self {
                // Every field type is a number, a bool or an array of numbers.
                $name { $( $field: pipe_ports!(@zero $shape $ty $(; $n)?), )* }
            }
        }

        impl $name {
            const TABLE: &'static [Signal] = &{
                const N: usize = 0 $( + pipe_ports!(@count $shape $($n)?) )*;
                let mut table = [Signal { name: "", width: 0, kind: Kind::Hex }; N];
                let mut i = 0;
                $(
                    pipe_ports!(@push table i $field $shape $width $($n)? $(, $names)?);
                )*
                let _ = i;
                table
            };
        }

        impl Ports for $name {
            const SIGNALS: &'static [Signal] = Self::TABLE;

            #[inline]
            fn get(&self, index: usize) -> u128 {
                let mut base = 0usize;
                $(
                    let n = pipe_ports!(@count $shape $($n)?);
                    if index < base + n {
                        return pipe_ports!(@get self.$field, $shape $width, index - base);
                    }
                    base += n;
                )*
                let _ = base;
                0
            }

            #[inline]
            fn set(&mut self, index: usize, value: u128) {
                let mut base = 0usize;
                $(
                    let n = pipe_ports!(@count $shape $($n)?);
                    if index < base + n {
                        pipe_ports!(@set self.$field, $shape $width, index - base, value);
                        return;
                    }
                    base += n;
                )*
                let _ = base;
            }
        }
    };

    (@zero scalar $ty:ty) => { <$ty>::default() };
    (@zero packed $ty:ty; $n:literal) => { <$ty>::default() };
    (@zero split $ty:ty; $n:literal) => { [0; $n] };

    (@count scalar) => { 1 };
    (@count packed $n:literal) => { 1 };
    (@count split $n:literal) => { $n };

    (@push $t:ident $i:ident $field:ident scalar $width:literal) => {
        $t[$i] = Signal { name: stringify!($field), width: $width, kind: if $width == 1 { Kind::Bool } else { Kind::Hex } };
        $i += 1;
    };
    (@push $t:ident $i:ident $field:ident packed $width:literal $n:literal) => {
        $t[$i] = Signal { name: stringify!($field), width: $width * $n, kind: Kind::Hex };
        $i += 1;
    };
    (@push $t:ident $i:ident $field:ident split $width:literal $n:literal, $names:expr) => {
        let names: [&str; $n] = $names;
        let mut k = 0;
        while k < $n {
            $t[$i] = Signal { name: names[k], width: $width, kind: Kind::Hex };
            $i += 1;
            k += 1;
        }
    };

    (@get $f:expr, scalar $width:literal, $k:expr) => { $crate::unit::Bits::to_bits($f) };
    (@get $f:expr, packed $width:literal, $k:expr) => {{
        let _ = $k;
        $f.iter().enumerate().fold(0u128, |acc, (e, &v)| acc | (u128::from(v) & width_mask($width)) << ($width * e))
    }};
    (@get $f:expr, split $width:literal, $k:expr) => { u128::from($f[$k]) & width_mask($width) };

    (@set $f:expr, scalar $width:literal, $k:expr, $v:expr) => {{
        let _ = $k;
        $f = $crate::unit::Bits::from_bits($v & width_mask($width));
    }};
    (@set $f:expr, packed $width:literal, $k:expr, $v:expr) => {{
        let _ = $k;
        for (e, slot) in $f.iter_mut().enumerate() {
            // Truncation to the element's width is the point of the cast.
            *slot = ($v >> ($width * e) & width_mask($width)) as _;
        }
    }};
    (@set $f:expr, split $width:literal, $k:expr, $v:expr) => {{
        // Truncation to the element's width is the point of the cast.
        $f[$k] = ($v & width_mask($width)) as _;
    }};
}

pipe_ports! {
    /// Inputs of `vmem_pipe`: the issue port (one beat per cycle), the L2 channels' ready and
    /// responses, the VGPR and LDS ports' ready.
    pub struct In {
        /// A beat is offered.
        iss_valid: bool = scalar 1;
        /// The instruction's last beat.
        iss_last: bool = scalar 1;
        /// 0 load, 1 store, 2 atomic.
        iss_kind: u8 = scalar 2;
        /// Atomics: the `AtomicOp` index (rust/exec/atomics.rs).
        iss_op: u8 = scalar 5;
        /// 64-bit atomic.
        iss_wide: bool = scalar 1;
        /// 1: sized access (and atomics); 0: FORMAT access.
        iss_sized: bool = scalar 1;
        /// buffer_addr's `access`.
        iss_access: u8 = scalar 2;
        /// buffer_addr's `bytes`: the element size.
        iss_bytes: u8 = scalar 5;
        /// Components the opcode moves.
        iss_count: u8 = scalar 3;
        /// Effective data format.
        iss_dfmt: u8 = scalar 4;
        /// Effective numeric format.
        iss_nfmt: u8 = scalar 3;
        /// Effective dst_sel (swizzle's encoding).
        iss_dst_sel: u16 = scalar 12;
        /// 0 none, 1 D16, 2 D16_HI.
        iss_d16: u8 = scalar 2;
        iss_offen: bool = scalar 1;
        iss_idxen: bool = scalar 1;
        iss_glc: bool = scalar 1;
        iss_tfe: bool = scalar 1;
        /// The instruction's OFFSET (12 bits).
        iss_offset: u16 = scalar 12;
        /// VDATA.
        iss_vdata: u8 = scalar 8;
        /// The SOFFSET operand's value.
        iss_soffset: u32 = scalar 32;
        /// The resource's dwords in SGPR order: the V# in 0..4 (4..8 zero), or the T# (128-bit:
        /// 4..8 zero).
        iss_rsrc: [u32; 8] = split 32 x 8, names8!("iss_rsrc");
        /// An image instruction (MIMG).
        iss_image: bool = scalar 1;
        /// Images: DMASK.
        iss_dmask: u8 = scalar 4;
        /// Images: DA (declare array).
        iss_da: bool = scalar 1;
        /// Images: 16-bit address components.
        iss_a16: bool = scalar 1;
        /// Images: the _MIP form.
        iss_mip: bool = scalar 1;
        /// Images: a 128-bit T#.
        iss_r128: bool = scalar 1;
        /// MUBUF `lds`: a load to the LDS (SPEC §2.5).
        iss_lds: bool = scalar 1;
        /// With `iss_lds`: M0; 0 otherwise.
        iss_m0: u32 = scalar 32;
        /// With `iss_lds`: the wave's LDS allocation (base, size) in units of 128 bytes; 0
        /// otherwise.
        iss_lds_base: u16 = scalar 9;
        iss_lds_size: u16 = scalar 9;
        /// EXEC.
        iss_exec: u64 = scalar 64;
        /// This beat's address dwords, lane 16g+j at j.
        iss_addr: [u32; GROUP_LANES] = split 32 x 16, names16!("iss_addr");
        /// This beat's data dwords, lane 16g+j at j.
        iss_data: [u32; GROUP_LANES] = split 32 x 16, names16!("iss_data");
        /// Bit b: the L2 accepts bank b's request.
        l2_req_ready: u8 = scalar 4;
        /// Bit b: a response on bank b's channel.
        l2_rsp_valid: u8 = scalar 4;
        /// Bank b's response tag: {0, MSHR} or {1, instruction id}.
        l2_rsp_tag: [u8; BANKS] = packed 5 x 4;
        /// Bank b's response dword i at 16b+i.
        l2_rsp_data: [u32; BANKS * LINE_DWORDS] = split 32 x 64, names64!("l2_rsp_data");
        /// The L2 owes the pipe no response.
        l2_idle: bool = scalar 1;
        /// The VGPR port accepts this cycle's write.
        vgpr_ready: bool = scalar 1;
        /// The LDS port accepts this cycle's write.
        lds_ready: bool = scalar 1;
    }
}

pipe_ports! {
    /// Outputs of `vmem_pipe`: issue ready, the four L2 channels' requests, the VGPR and LDS
    /// write ports, and one `done` per instruction with its counters.
    pub struct Out {
        /// A beat offered this cycle is accepted.
        iss_ready: bool = scalar 1;
        /// Bit b: bank b presents a request.
        l2_req_valid: u8 = scalar 4;
        /// 0 line read, 1 masked line write, 2 atomic.
        l2_req_kind: [u8; BANKS] = packed 2 x 4;
        /// {0, MSHR} (reads, atomics with return) or {1, instruction id} (posted).
        l2_req_tag: [u8; BANKS] = packed 5 x 4;
        /// Line address (reads, writes) or byte address (atomics).
        l2_req_addr: [u64; BANKS] = split 48 x 4, names4!("l2_req_addr");
        /// Writes: bit i = byte i of the line.
        l2_req_mask: [u64; BANKS] = split 64 x 4, names4!("l2_req_mask");
        /// Bank b's dword i at 16b+i.
        l2_req_data: [u32; BANKS * LINE_DWORDS] = split 32 x 64, names64!("l2_req_data");
        l2_req_op: [u8; BANKS] = packed 5 x 4;
        /// Bit b: 64-bit atomic.
        l2_req_wide: u8 = scalar 4;
        /// Bit b: the atomic returns its pre-op value.
        l2_req_return: u8 = scalar 4;
        vgpr_valid: bool = scalar 1;
        vgpr_addr: u8 = scalar 8;
        vgpr_group: u8 = scalar 2;
        vgpr_mask: u16 = scalar 16;
        vgpr_data: [u32; GROUP_LANES] = split 32 x 16, names16!("vgpr_data");
        /// An LDS write is presented (LDS loads).
        lds_valid: bool = scalar 1;
        /// Lanes written, bit j = lane 16g+j of the group written.
        lds_mask: u16 = scalar 16;
        /// Lane 16g+j's LDS byte address at j (0 for lanes not in the mask).
        lds_addr: [u32; GROUP_LANES] = split 18 x 16, names16!("lds_addr");
        /// Lane 16g+j's dword at j, written as 4 bytes little-endian (0 for lanes not in the
        /// mask).
        lds_data: [u32; GROUP_LANES] = split 32 x 16, names16!("lds_data");
        done_valid: bool = scalar 1;
        done_issue: u16 = scalar 16;
        done_ta: u16 = scalar 16;
        done_tcp: u16 = scalar 16;
        done_l2: u16 = scalar 16;
        done_td: u16 = scalar 16;
        done_total: u16 = scalar 16;
        done_requests: u16 = scalar 16;
        done_hits: u16 = scalar 16;
        done_misses: u16 = scalar 16;
        done_merged: u16 = scalar 16;
        done_conflicts: u16 = scalar 16;
        done_mshr_wait: u16 = scalar 16;
    }
}

/// `iss_kind` codes.
pub const KIND_LOAD: u8 = 0;
pub const KIND_STORE: u8 = 1;
pub const KIND_ATOMIC: u8 = 2;
/// `iss_d16` codes.
/// `iss_op` of an image load: formatted (unpack, swizzle), PCK (raw fields, zero-extended),
/// PCK_SGN (raw fields, sign-extended), GET_RESINFO (the level's dimensions, no memory request);
/// docs/decisions.md "Images".
pub const IMAGE_OP_FORMAT: u8 = 0;
pub const IMAGE_OP_PCK: u8 = 1;
pub const IMAGE_OP_PCK_SGN: u8 = 2;
pub const IMAGE_OP_RESINFO: u8 = 3;
/// `iss_op` of a multi-texel load (IMAGE_LOAD_BY2, BY4, PCK2, PCK4 and their _MIP forms): this
/// base plus the `image_addr` / `multi_texel` op (0 BY2, 1 BY4, 2 PCK2, 3 PCK4), so 4..=7;
/// docs/decisions.md "Images", *Multi-texel loads*.
pub const IMAGE_OP_MULTI_TEXEL: u8 = 4;
pub const D16_NONE: u8 = 0;
pub const D16_LO: u8 = 1;
pub const D16_HI: u8 = 2;
/// `l2_req_kind` codes.
pub const L2_READ: u8 = 0;
pub const L2_WRITE: u8 = 1;
pub const L2_ATOMIC: u8 = 2;
/// Tag bit 4: a posted request (its low bits name the instruction), else an MSHR's.
pub const TAG_POSTED: u8 = 0x10;

/// `iss_rsrc`'s dwords of a resource whose bits 127:0 are `lo` and 255:128 `hi`.
pub fn rsrc_dwords(lo: u128, hi: u128) -> [u32; 8] {
    // Truncation to each dword is the point of the casts.
    std::array::from_fn(|k| if k < 4 { (lo >> (32 * k)) as u32 } else { (hi >> (32 * (k - 4))) as u32 })
}

/// The resource's bits 127:0 and 255:128 from `iss_rsrc`'s dwords.
pub fn rsrc_halves(d: &[u32; 8]) -> (u128, u128) {
    let half = |h: &[u32]| h.iter().rev().fold(0u128, |acc, &w| acc << 32 | u128::from(w));
    (half(&d[..4]), half(&d[4..]))
}

impl In {
    /// The header the SQ sends with every issue beat of `inst` (docs/decisions.md "vmem_pipe",
    /// ports), given the V# it names (`vsharp`), its SOFFSET operand's value and the wave
    /// (EXEC; for an LDS load also M0 and the LDS allocation, "LDS loads"). The beats'
    /// `iss_valid`, `iss_last` and address and data dwords are left 0.
    pub fn issue_header(inst: &BufferInst, vsharp: u128, soffset: u32, wave: &Wave) -> In {
        let v = VSharp::decode(vsharp);
        let (dfmt, nfmt, access, bytes) = inst.element_format(&v);
        let (kind, op) = match inst.kind {
            BufferKind::Load => (KIND_LOAD, 0),
            BufferKind::Store => (KIND_STORE, 0),
            BufferKind::Atomic(op) => (KIND_ATOMIC, op as u8),
        };
        In {
            iss_kind: kind,
            iss_op: op,
            iss_wide: inst.wide,
            iss_sized: matches!(inst.access, Access::Sized { .. }) || kind == KIND_ATOMIC,
            iss_access: access,
            iss_bytes: bytes,
            iss_count: inst.components(),
            iss_dfmt: dfmt,
            iss_nfmt: nfmt,
            iss_dst_sel: inst.load_dst_sel(&v, dfmt, nfmt),
            iss_d16: match inst.d16 {
                D16::None => D16_NONE,
                D16::Lo => D16_LO,
                D16::Hi => D16_HI,
            },
            iss_offen: inst.offen,
            iss_idxen: inst.idxen,
            iss_glc: inst.glc,
            iss_tfe: inst.tfe,
            iss_offset: inst.offset & 0xfff,
            iss_vdata: inst.vdata,
            iss_soffset: soffset,
            iss_rsrc: rsrc_dwords(vsharp, 0),
            iss_lds: inst.lds,
            iss_m0: if inst.lds { wave.m0 } else { 0 },
            iss_lds_base: if inst.lds { wave.lds.base & 0x1ff } else { 0 },
            iss_lds_size: if inst.lds { wave.lds.size & 0x1ff } else { 0 },
            iss_exec: wave.exec,
            ..In::default()
        }
    }
}

/// What the SQ sends for an image instruction the pipeline takes (docs/decisions.md "vmem_pipe",
/// "Images"): the header, and the address and data dwords per lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageIssue {
    pub header: In,
    /// A: address dwords (SPEC §4.1's layout; 1 for a type without one; GET_RESINFO: 1, the
    /// mipid).
    pub addr_dwords: u8,
    /// D: data dwords (stores: k, or ⌈k/2⌉ with D16).
    pub data_dwords: u8,
    /// Result dwords a load writes per lane (k, or ⌈k/2⌉ with D16, plus TFE; GET_RESINFO k plus
    /// TFE; a multi-texel load R, the `multi_texel` unit's `result_count`); 0 for stores.
    pub result_dwords: u8,
}

impl ImageIssue {
    /// The issue of `inst` with its T# (`lo`: bits 127:0, `hi`: 255:128, 0 for a 128-bit T#)
    /// and EXEC (docs/decisions.md "vmem_pipe", "Images"; GET_RESINFO: a load with `iss_op` 3
    /// and `iss_mip` 1, its mipid as the one address dword; the multi-texel loads as its
    /// *Multi-texel loads*); `None` for an image instruction the pipeline does not take (none of
    /// the kinds the executor models).
    pub fn of(inst: &ImageInst, (lo, hi): (u128, u128), exec: u64) -> Option<ImageIssue> {
        let t = TSharp::decode(lo, hi);
        let dmask = inst.dmask & 0xf;
        let dfmt = t.dfmt & 0xf;
        let addr_dwords = decode_vaddr(t.kind, inst.da, inst.mip, inst.a16, &[0; 4]).map_or(1, |c| c.dwords as u8);
        let header = In {
            iss_kind: KIND_LOAD,
            iss_bytes: crate::format::element_bytes(dfmt) as u8,
            iss_dfmt: dfmt,
            iss_nfmt: t.nfmt & 0x7,
            iss_dst_sel: t.dst_sel.iter().enumerate().fold(0, |acc, (c, &s)| acc | u16::from(s & 7) << (3 * c)),
            iss_d16: if inst.d16 { D16_LO } else { D16_NONE },
            iss_glc: inst.glc,
            iss_tfe: inst.tfe,
            iss_vdata: inst.vdata,
            iss_rsrc: rsrc_dwords(lo, hi),
            iss_image: true,
            iss_dmask: dmask,
            iss_da: inst.da,
            iss_a16: inst.a16,
            iss_mip: inst.mip,
            iss_r128: inst.r128,
            iss_exec: exec,
            ..In::default()
        };
        let issue = match inst.kind {
            ImageKind::Load { pck, sgn } => {
                // A load's DMASK 0 reads component 0 (SPEC §3).
                let k = dmask.max(1).count_ones() as u8;
                let halves = if inst.d16 { k.div_ceil(2) } else { k };
                let op = match (pck, sgn) {
                    (false, _) => IMAGE_OP_FORMAT,
                    (true, false) => IMAGE_OP_PCK,
                    (true, true) => IMAGE_OP_PCK_SGN,
                };
                ImageIssue {
                    header: In { iss_count: k, iss_op: op, ..header },
                    addr_dwords,
                    data_dwords: 0,
                    result_dwords: halves + u8::from(inst.tfe),
                }
            }
            ImageKind::Store => {
                // A store's DMASK 0 writes nothing: k = 0.
                let k = dmask.count_ones() as u8;
                let halves = if inst.d16 { k.div_ceil(2) } else { k };
                ImageIssue {
                    header: In { iss_kind: KIND_STORE, iss_count: k, ..header },
                    addr_dwords,
                    data_dwords: halves,
                    result_dwords: 0,
                }
            }
            ImageKind::Atomic(op) => {
                // SPEC §10.1: 64-bit with DMASK 0xF, or 0x3 on an operation without a compare.
                let wide = dmask == 0xf || (dmask == 0x3 && !op.compares());
                let width = 1 + u8::from(wide);
                ImageIssue {
                    header: In {
                        iss_kind: KIND_ATOMIC,
                        iss_op: op as u8,
                        iss_wide: wide,
                        iss_bytes: 4 * width,
                        iss_d16: D16_NONE,
                        iss_tfe: false,
                        ..header
                    },
                    addr_dwords,
                    data_dwords: width * (1 + u8::from(op.compares())),
                    result_dwords: if inst.glc { width } else { 0 },
                }
            }
            ImageKind::GetResinfo => {
                // DMASK 0 reads component 0, as a load's (SPEC §3); the executor asks image_addr
                // for the level of the lane's mipid (_MIP), the one address dword.
                let k = dmask.max(1).count_ones() as u8;
                ImageIssue {
                    header: In { iss_count: k, iss_op: IMAGE_OP_RESINFO, iss_mip: true, iss_d16: D16_NONE, ..header },
                    addr_dwords: 1,
                    data_dwords: 0,
                    result_dwords: k + u8::from(inst.tfe),
                }
            }
            ImageKind::MultiTexel { op } => {
                // The group's n · bpp bytes (bound T#s: every row's bpp is 1 or 2), 0 unbound; R
                // is the unit's `result_count` for the T#'s fields at their full widths (0 for a
                // combination that is no row).
                let op = op & 0x3;
                let bytes = if t.is_bound() { group_size(op) * texel_bytes(t.dfmt) } else { 0 };
                let r = multi_texel::compute(&multi_texel::In {
                    valid: true,
                    op,
                    dmask,
                    dfmt: t.dfmt,
                    nfmt: t.nfmt,
                    group_valid: false,
                    texels: 0,
                })
                .result_count;
                ImageIssue {
                    header: In {
                        iss_op: IMAGE_OP_MULTI_TEXEL + op,
                        iss_bytes: bytes as u8,
                        iss_count: r,
                        iss_d16: D16_NONE,
                        iss_tfe: false,
                        ..header
                    },
                    addr_dwords,
                    data_dwords: 0,
                    result_dwords: r,
                }
            }
        };
        Some(issue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_have_the_declared_ports() {
        assert_eq!(In::SIGNALS.len(), 21 + 8 + 6 + 4 + 16 + 16 + 3 + 64 + 3);
        assert_eq!(Out::SIGNALS.len(), 1 + 1 + 2 + 4 + 4 + 64 + 3 + 4 + 16 + 2 + 16 + 16 + 13);
        assert_eq!(In::SIGNALS[0].name, "iss_valid");
        assert_eq!(In::SIGNALS[20].name, "iss_rsrc0");
        assert_eq!(In::SIGNALS[34].name, "iss_lds");
        assert_eq!(In::SIGNALS[39].name, "iss_addr0");
        assert_eq!(In::SIGNALS.last().map(|s| s.name), Some("lds_ready"));
        assert_eq!(Out::SIGNALS.iter().find(|s| s.name == "lds_addr15").map(|s| s.width), Some(18));
        assert_eq!(Out::SIGNALS.iter().position(|s| s.name == "lds_valid"), Some(1 + 1 + 2 + 4 + 4 + 64 + 3 + 4 + 16));
        assert_eq!(Out::SIGNALS[8].name, "l2_req_mask0");
        assert_eq!(Out::SIGNALS.iter().find(|s| s.name == "l2_req_tag").map(|s| s.width), Some(20));
    }

    #[test]
    fn get_and_set_round_trip_every_port() {
        let mut input = In::default();
        for (i, s) in In::SIGNALS.iter().enumerate() {
            let value = 0x5a5a_5a5a_5a5a_5a5a_5a5a_5a5a_5a5a_5a5a_u128.rotate_left(i as u32) & s.mask();
            input.set(i, value);
            assert_eq!(input.get(i), value, "{}", s.name);
        }
        let mut out = Out { l2_req_tag: [1, 2, 3, 31], ..Out::default() };
        let i = Out::SIGNALS.iter().position(|s| s.name == "l2_req_tag").unwrap();
        assert_eq!(out.get(i), 1 | 2 << 5 | 3 << 10 | 31 << 15);
        out.l2_req_data[17] = 0xdead_beef;
        let d = Out::SIGNALS.iter().position(|s| s.name == "l2_req_data17").unwrap();
        assert_eq!(out.get(d), 0xdead_beef);
    }
}
