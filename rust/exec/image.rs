//! MIMG instructions (SPEC §4, §1.2, §6, §10.1) in executor terms ([`ImageInst`]) and their
//! semantics ([`run_image`]): the T# checks (§1.2, §4.5's sw_mode), each lane's element from the
//! backend's `image_addr` (op 4 for a plain access, ops 0–3 for a multi-texel group: level,
//! bounds and address, linear or tiled, all lanes in one batch; the executor computes no address
//! of its own), then loads (formatted, raw PCK, multi-texel), stores, atomics and GET_RESINFO
//! (whose level dimensions are the unit's outputs too).

use super::atomics::{atomic_across_lines, atomic_result};
use super::backend::{d16_narrow, d16_widen};
use super::image_vaddr::{decode_vaddr, Coords};
use super::state::{dwords, vgpr, Wave, LANES, VGPRS};
use super::{Backend, ExecError};
use crate::format::{element_bytes, is_integer};
use crate::image_addr::{check_multi_texel, check_sw_mode, MultiTexelAccess, OP_ELEMENT};
use crate::isa::AtomicOp;
use crate::{format_pack, format_unpack, image_addr, multi_texel, swizzle};

/// What an image instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageKind {
    /// IMAGE_LOAD / _MIP; `pck`: the _PCK forms (raw component bits), `sgn`: _PCK_SGN.
    Load {
        pck: bool,
        sgn: bool,
    },
    /// IMAGE_LOAD_{BY2, BY4, PCK2, PCK4} and their _MIP forms (`op`: image_addr's op code).
    MultiTexel {
        op: u8,
    },
    /// IMAGE_STORE / _MIP.
    Store,
    Atomic(AtomicOp),
    GetResinfo,
}

/// A MIMG instruction in executor terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageInst {
    pub kind: ImageKind,
    /// The _MIP forms: the address gains a mipid after the coordinates.
    pub mip: bool,
    pub vaddr: u8,
    pub vdata: u8,
    /// First SGPR of the T# (a multiple of 4).
    pub srsrc: u8,
    pub dmask: u8,
    pub unorm: bool,
    pub glc: bool,
    pub slc: bool,
    /// 128-bit T# (SPEC §1.2).
    pub r128: bool,
    pub tfe: bool,
    pub lwe: bool,
    pub da: bool,
    pub d16: bool,
    pub a16: bool,
}

impl ImageInst {
    /// An instruction of `kind` with DMASK 0xF, every flag clear, VADDR and VDATA v0 and the T#
    /// at s[0:7].
    pub fn new(kind: ImageKind) -> ImageInst {
        ImageInst {
            kind,
            mip: false,
            vaddr: 0,
            vdata: 0,
            srsrc: 0,
            dmask: 0xf,
            unorm: false,
            glc: false,
            slc: false,
            r128: false,
            tfe: false,
            lwe: false,
            da: false,
            d16: false,
            a16: false,
        }
    }
}

/// One lane's image access after address decoding: where its element is, or `None` when it is
/// outside the level (or the level is missing).
struct ImageLane {
    lane: usize,
    address: Option<u64>,
    data: [u32; 4],
}

/// Runs one image instruction on `wave`. On error nothing is applied.
pub fn run_image(wave: &mut Wave, inst: &ImageInst, backend: &mut impl Backend) -> Result<(), ExecError> {
    use crate::tsharp::{TSharp, TYPE_1D_ARRAY, TYPE_2D_ARRAY, TYPE_2D_MSAA, TYPE_2D_MSAA_ARRAY, TYPE_3D, TYPE_CUBE};
    let (lo, hi) = wave.tsharp(inst.srsrc, inst.r128).map_err(ExecError)?;
    let t = TSharp::decode(lo, hi);
    let bound = t.is_bound();
    let err = |m: String| Err(ExecError(m));

    // SPEC §1.2, §4.4, §6, §10.1: combinations the executor refuses.
    if bound {
        if matches!(t.kind, TYPE_2D_MSAA | TYPE_2D_MSAA_ARRAY) {
            return err(format!("MSAA T# type {} is not modelled (SPEC §1.2)", t.kind));
        }
        if !(1..=14).contains(&t.dfmt) || t.nfmt > 7 {
            return err(format!("T# dfmt {} / nfmt {} is not modelled (SPEC §1.2)", t.dfmt, t.nfmt));
        }
        if inst.r128 && matches!(t.kind, TYPE_3D | TYPE_CUBE | TYPE_1D_ARRAY | TYPE_2D_ARRAY) {
            return err(format!("a {} T# needs 256 bits, but r128 = 1 (SPEC §1.2)", crate::tsharp::type_name(t.kind)));
        }
        // SPEC §4.5: sw_mode 0, 1, 5 or 9, and a tiled mode only on 2D / 2D array surfaces of
        // 1-, 2-, 4-, 8- or 16-byte elements (the unit's `illegal`, checked here for every kind).
        check_sw_mode(&t).map_err(ExecError)?;
    }
    match inst.kind {
        ImageKind::MultiTexel { op } => {
            let access = MultiTexelAccess {
                op,
                mip: inst.mip,
                dmask: inst.dmask,
                dfmt: t.dfmt,
                nfmt: t.nfmt,
                kind: t.kind,
                d16: inst.d16,
                tfe: inst.tfe,
                da: inst.da,
                store: false,
            };
            check_multi_texel(&access).map_err(ExecError)?;
            return multi_texel_load(wave, inst, (lo, hi), op, backend);
        }
        ImageKind::Store | ImageKind::Atomic(_) if !inst.unorm => {
            return err("image stores and atomics require UNRM = 1 (SPEC §4.4)".into());
        }
        ImageKind::Atomic(op) => {
            let cmp = matches!(op, AtomicOp::Cmpswap | AtomicOp::Fcmpswap);
            if !matches!((inst.dmask, cmp), (0x1, false) | (0x3, _) | (0xf, true)) {
                return err(format!(
                    "image atomic DMASK {:#x} is not 0x1 (32-bit), 0x3 (32-bit cmpswap or 64-bit) or 0xf (64-bit cmpswap) (SPEC §10.1)",
                    inst.dmask
                ));
            }
        }
        _ => {}
    }
    if inst.d16 && !matches!(inst.kind, ImageKind::Load { pck: false, .. } | ImageKind::Store) {
        return err("D16 is legal only on IMAGE_LOAD, LOAD_MIP, STORE, STORE_MIP (SPEC §6)".into());
    }

    // The conversion units' ports are 4 (dfmt) and 3 (nfmt) bits wide: a bound T# was checked
    // to fit above; an unbound one's wider codes are cut to the ports (its loads read 0 anyway).
    let t = TSharp { dfmt: t.dfmt & 0xf, nfmt: t.nfmt & 0x7, ..t };
    if inst.kind == ImageKind::GetResinfo {
        get_resinfo(wave, inst, (lo, hi), &t, backend);
        return Ok(());
    }
    // Every active lane's element from image_addr (op 4, SPEC §4.4, §4.5): its address when it
    // is inside the level (group_valid), else none.
    let (lanes, addrs) = lane_addresses(wave, inst, (lo, hi), OP_ELEMENT, backend)?;
    let gathered: Vec<ImageLane> = lanes
        .iter()
        .zip(&addrs)
        .map(|(&lane, a)| ImageLane {
            lane,
            address: a.group_valid.then_some(a.address),
            data: std::array::from_fn(|i| vgpr(wave, inst.vdata.wrapping_add(i as u8), lane)),
        })
        .collect();
    // SPEC §10.1: a 64-bit atomic whose 8 bytes lie in two 64-byte lines cannot be atomic.
    if let ImageKind::Atomic(op) = inst.kind {
        if atomic_is_wide(op, inst.dmask) {
            let mut live = gathered.iter().filter_map(|l| l.address.map(|a| (l.lane, a)));
            if let Some(e) = live.find_map(atomic_across_lines) {
                return Err(e);
            }
        }
    }
    match inst.kind {
        ImageKind::Load { pck, sgn } => image_load(wave, inst, &t, &gathered, pck, sgn, backend),
        ImageKind::Store => image_store(wave, inst, &t, &gathered, backend),
        ImageKind::Atomic(op) => {
            image_atomic(wave, inst, op, &gathered);
            Ok(())
        }
        ImageKind::MultiTexel { .. } | ImageKind::GetResinfo => unreachable!("handled above"),
    }
}

fn write_image_results(wave: &mut Wave, vdata: u8, lanes: impl Iterator<Item = usize>, results: &[Vec<u32>]) {
    for (lane, r) in lanes.zip(results) {
        for (i, &d) in r.iter().enumerate() {
            let v = usize::from(vdata) + i;
            if v < VGPRS {
                wave.vgprs[v][lane] = d;
                wave.written[v] = true;
            }
        }
    }
}

fn image_load(
    wave: &mut Wave,
    inst: &ImageInst,
    t: &crate::tsharp::TSharp,
    lanes: &[ImageLane],
    pck: bool,
    sgn: bool,
    backend: &mut impl Backend,
) -> Result<(), ExecError> {
    let bytes = element_bytes(t.dfmt);
    let data: Vec<u128> = lanes.iter().map(|l| l.address.map_or(0, |a| wave.memory.read(a, bytes))).collect();
    let dmask = if inst.dmask == 0 { 1 } else { inst.dmask };
    let mut results: Vec<Vec<u32>> = if pck {
        // SPEC §4.4: each enabled component's raw bits in its own dword, zero- or sign-extended.
        let fields = crate::format::fields(t.dfmt);
        data.iter()
            .zip(lanes)
            .map(|(&d, l)| {
                (0..4)
                    .filter(|c| dmask >> c & 1 != 0)
                    .map(|c| match fields.get(c) {
                        Some(f) if l.address.is_some() => {
                            let raw = (d >> f.offset) as u32 & crate::format::low_mask(f.width);
                            if sgn {
                                crate::format::sign_extend(raw, f.width) as u32
                            } else {
                                raw
                            }
                        }
                        _ => 0,
                    })
                    .collect()
            })
            .collect()
    } else {
        let unpacked = backend.format_unpack(
            &data
                .iter()
                .map(|&d| format_unpack::In { valid: true, dfmt: t.dfmt, nfmt: t.nfmt, data: d })
                .collect::<Vec<_>>(),
        );
        let dst_sel = t.dst_sel.iter().enumerate().fold(0u16, |acc, (c, &s)| acc | u16::from(s & 7) << (3 * c));
        let inputs: Vec<swizzle::In> = unpacked
            .iter()
            .zip(lanes)
            .map(|(u, l)| swizzle::In {
                valid: true,
                components: u.components,
                count: u.count,
                dst_sel,
                integer: is_integer(t.nfmt),
                dmask,
                oor: if l.address.is_some() { 0 } else { 0xf },
                unbound: !t.is_bound() || !u.fmt_valid,
                tfe: false,
            })
            .collect();
        let swizzled = backend.swizzle(&inputs);
        if inst.d16 {
            // SPEC §6: each DMASK bit one 16-bit element, two per VGPR.
            d16_narrow(backend, t.nfmt, &swizzled)
        } else {
            swizzled.iter().map(|s| dwords(s.result, s.result_count)).collect()
        }
    };
    if inst.tfe {
        for r in &mut results {
            r.push(0);
        }
    }
    write_image_results(wave, inst.vdata, lanes.iter().map(|l| l.lane), &results);
    Ok(())
}

fn image_store(
    wave: &mut Wave,
    inst: &ImageInst,
    t: &crate::tsharp::TSharp,
    lanes: &[ImageLane],
    backend: &mut impl Backend,
) -> Result<(), ExecError> {
    let k = inst.dmask.count_ones() as u8;
    // SPEC §4.4: components from consecutive VGPRs in DMASK order, disabled ones 0; D16 (§6):
    // k halves go to the first k components, DMASK bit positions ignored.
    let components: Vec<u128> = if inst.d16 {
        d16_widen(backend, t.nfmt, k, lanes.iter().map(|l| l.data))
    } else {
        lanes
            .iter()
            .map(|l| {
                let mut next = 0;
                (0..4).fold(0u128, |acc, c| {
                    if inst.dmask >> c & 1 != 0 {
                        next += 1;
                        acc | u128::from(l.data[next - 1]) << (32 * c)
                    } else {
                        acc
                    }
                })
            })
            .collect()
    };
    let packed = backend.format_pack(
        &components
            .iter()
            .map(|&c| format_pack::In { valid: true, dfmt: t.dfmt, nfmt: t.nfmt, components: c })
            .collect::<Vec<_>>(),
    );
    let bytes = element_bytes(t.dfmt);
    for (l, p) in lanes.iter().zip(packed) {
        if let (Some(address), true) = (l.address, p.fmt_valid) {
            wave.memory.write(address, bytes, p.data);
        }
    }
    Ok(())
}

/// Whether an image atomic is 64-bit (SPEC §10.1): DMASK 0xF, or 0x3 on an op without a compare.
fn atomic_is_wide(op: AtomicOp, dmask: u8) -> bool {
    let cmp_op = matches!(op, AtomicOp::Cmpswap | AtomicOp::Fcmpswap);
    dmask == 0xf || (dmask == 0x3 && !cmp_op)
}

fn image_atomic(wave: &mut Wave, inst: &ImageInst, op: AtomicOp, lanes: &[ImageLane]) {
    let cmp_op = matches!(op, AtomicOp::Cmpswap | AtomicOp::Fcmpswap);
    let wide = atomic_is_wide(op, inst.dmask);
    let width = if wide { 2 } else { 1 };
    let join = |d: &[u32]| if wide { u64::from(d[0]) | u64::from(d[1]) << 32 } else { u64::from(d[0]) };
    let mut returns = Vec::with_capacity(lanes.len());
    for l in lanes {
        let data = join(&l.data[..width]);
        let cmp = if cmp_op { join(&l.data[width..2 * width]) } else { 0 };
        let bytes = 4 * width as u32;
        let old = match l.address {
            Some(a) => {
                let old = wave.memory.read(a, bytes) as u64;
                wave.memory.write(a, bytes, u128::from(atomic_result(op, wide, old, data, cmp)));
                old
            }
            None => 0,
        };
        returns.push(if wide { vec![old as u32, (old >> 32) as u32] } else { vec![old as u32] });
    }
    if inst.glc {
        write_image_results(wave, inst.vdata, lanes.iter().map(|l| l.lane), &returns);
    }
}

/// GET_RESINFO (SPEC §4.4): each lane's (width, height, depth or layers, levels) of the mip in
/// its address VGPR, compacted by DMASK (DMASK = 0 as 0001, SPEC §3). The dimensions are
/// image_addr's outputs for that level (op 4, _MIP, coordinates 0), so the executor has no
/// dimension arithmetic of its own; a missing level (beyond last_level or max_mip) has
/// dimensions 0, as the unit reports it (docs/decisions.md "Outside the units"); an unbound T#
/// returns 0 throughout.
fn get_resinfo(
    wave: &mut Wave,
    inst: &ImageInst,
    (lo, hi): (u128, u128),
    t: &crate::tsharp::TSharp,
    backend: &mut impl Backend,
) {
    let dmask = if inst.dmask == 0 { 1 } else { inst.dmask };
    let lanes: Vec<usize> = (0..LANES).filter(|&l| wave.active(l)).collect();
    let inputs: Vec<image_addr::In> = lanes
        .iter()
        .map(|&lane| {
            let mipid = vgpr(wave, inst.vaddr, lane);
            let c = Coords { mipid, ..Coords::default() };
            unit_input(inst, (lo, hi), OP_ELEMENT, true, &c)
        })
        .collect();
    let levels = u32::from(t.last_level).wrapping_sub(u32::from(t.base_level)).wrapping_add(1);
    let results: Vec<Vec<u32>> = backend
        .image_addr(&inputs)
        .iter()
        .map(|a| {
            let all = [u32::from(a.width), u32::from(a.height), u32::from(a.layers), levels];
            let mut r: Vec<u32> =
                (0..4).filter(|c| dmask >> c & 1 != 0).map(|c| if t.is_bound() { all[c] } else { 0 }).collect();
            if inst.tfe {
                r.push(0);
            }
            r
        })
        .collect();
    write_image_results(wave, inst.vdata, lanes.iter().copied(), &results);
}

/// image_addr's inputs for one lane: the T#, the instruction's modifiers, `op`, `mip` and the
/// lane's decoded coordinates (`slice` is 0 with DA = 0, SPEC §4.1, as decode_vaddr gives it).
fn unit_input(inst: &ImageInst, (lo, hi): (u128, u128), op: u8, mip: bool, c: &Coords) -> image_addr::In {
    image_addr::In {
        valid: true,
        tsharp_lo: lo,
        tsharp_hi: hi,
        r128: inst.r128,
        op,
        mip,
        dmask: inst.dmask,
        d16: inst.d16,
        tfe: inst.tfe,
        da: inst.da,
        x: c.x,
        y: c.y,
        slice: c.slice,
        mipid: c.mipid,
    }
}

/// Every active lane's address VGPRs decoded (SPEC §4.1) and run through image_addr with `op`, all
/// lanes in one batch: the active lanes, ascending, and each one's unit outputs. An unbound T#
/// has no layout: its lanes go in with coordinates 0 (the unit's group_valid is 0 for them).
fn lane_addresses(
    wave: &Wave,
    inst: &ImageInst,
    (lo, hi): (u128, u128),
    op: u8,
    backend: &mut impl Backend,
) -> Result<(Vec<usize>, Vec<image_addr::Out>), ExecError> {
    let t = crate::tsharp::TSharp::decode(lo, hi);
    let lanes: Vec<usize> = (0..LANES).filter(|&l| wave.active(l)).collect();
    let mut inputs = Vec::with_capacity(lanes.len());
    for &lane in &lanes {
        let vgprs: Vec<u32> = (0..4).map(|i| vgpr(wave, inst.vaddr.wrapping_add(i), lane)).collect();
        let c = if t.is_bound() {
            decode_vaddr(t.kind, inst.da, inst.mip, inst.a16, &vgprs).map_err(ExecError)?
        } else {
            Coords::default()
        };
        inputs.push(unit_input(inst, (lo, hi), op, inst.mip, &c));
    }
    let outputs = backend.image_addr(&inputs);
    Ok((lanes, outputs))
}

fn multi_texel_load(
    wave: &mut Wave,
    inst: &ImageInst,
    (lo, hi): (u128, u128),
    op: u8,
    backend: &mut impl Backend,
) -> Result<(), ExecError> {
    let t = crate::tsharp::TSharp::decode(lo, hi);
    let (lanes, addrs) = lane_addresses(wave, inst, (lo, hi), op, backend)?;
    let n = image_addr::group_size(op);
    let bpp = image_addr::texel_bytes(t.dfmt);
    let texel_in: Vec<multi_texel::In> = addrs
        .iter()
        .map(|a| multi_texel::In {
            valid: true,
            op,
            dmask: inst.dmask,
            dfmt: t.dfmt,
            nfmt: t.nfmt,
            group_valid: a.group_valid,
            // SPEC §4.3: an invalid group issues no memory access.
            texels: if a.group_valid { wave.memory.read(a.address, n * bpp) as u64 } else { 0 },
        })
        .collect();
    let results: Vec<Vec<u32>> =
        backend.multi_texel(&texel_in).iter().map(|o| dwords(o.result, o.result_count)).collect();
    write_image_results(wave, inst.vdata, lanes.iter().copied(), &results);
    Ok(())
}
