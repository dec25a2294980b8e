//! MUBUF and MTBUF instructions (SPEC §2–§6, §10, §10.1) in executor terms ([`BufferInst`]) and
//! their semantics ([`run_buffer`]): gather every active lane's addresses and data, run the
//! units, then apply loads (to VGPRs or LDS), stores and atomics lane by lane.

use super::atomics::{atomic_across_lines, atomic_result};
use super::backend::{d16_narrow, d16_widen};
use super::state::{dwords, vgpr, Memory, Wave, LANES, VGPRS};
use super::{Backend, ExecError};
use crate::buffer_addr::{self, ACCESS_ATOMIC, ACCESS_FORMAT, ACCESS_NON_FORMAT};
use crate::d16::{self, OP_LOAD_SBYTE, OP_LOAD_SHORT, OP_LOAD_UBYTE};
use crate::format::{element_bytes, is_integer, NFMT_SINT, NFMT_UINT};
use crate::isa::AtomicOp;
use crate::vsharp::{self, VSharp};
use crate::{format_pack, format_unpack, swizzle};

/// What a buffer instruction does with its data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferKind {
    Load,
    Store,
    Atomic(AtomicOp),
}

/// How a buffer instruction's data is formatted (SPEC §2.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// BUFFER_{LOAD,STORE}_{UBYTE,SBYTE,USHORT,SSHORT,BYTE,SHORT,DWORD,DWORDX2..X4} and atomics:
    /// the format is implied by the size.
    Sized { bytes: u8, signed: bool },
    /// BUFFER_*_FORMAT_* (`format: None`: dfmt, nfmt and dst_sel from the V#) and TBUFFER_*
    /// (`format: Some((dfmt, nfmt))` from the instruction, identity dst_sel); `count` is the
    /// opcode's component count (X 1 … XYZW 4).
    Format { count: u8, format: Option<(u8, u8)> },
}

/// Which half of a VGPR a D16 instruction uses (SPEC §6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum D16 {
    #[default]
    None,
    /// D16 format instructions, and byte/short D16 loads and stores into bits 15:0.
    Lo,
    /// The _D16_HI byte/short forms: bits 31:16 (stores: the byte at 23:16 or the short at 31:16).
    Hi,
}

/// A MUBUF or MTBUF instruction in executor terms (the decoded fields it uses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferInst {
    pub kind: BufferKind,
    pub access: Access,
    pub d16: D16,
    /// 64-bit atomics (the _X2 forms).
    pub wide: bool,
    pub vaddr: u8,
    pub vdata: u8,
    /// First SGPR of the V# (a multiple of 4).
    pub srsrc: u8,
    /// SOFFSET operand code (SGPR, M0 or inline constant).
    pub soffset: u8,
    /// 12 bits.
    pub offset: u16,
    pub offen: bool,
    pub idxen: bool,
    pub glc: bool,
    pub slc: bool,
    pub lds: bool,
    pub tfe: bool,
}

/// The implied (dfmt, nfmt) of a sized access (SPEC §2.6).
fn implied_format(bytes: u8, signed: bool) -> (u8, u8) {
    let nfmt = if signed { NFMT_SINT } else { NFMT_UINT };
    let dfmt = match bytes {
        1 => 1,
        2 => 2,
        4 => 4,
        8 => 11,
        12 => 13,
        _ => 14,
    };
    (dfmt, nfmt)
}

/// Identity dst_sel for `count` components (X000, XY00, XYZ0, XYZW), as swizzle's 12-bit port.
fn identity_dst_sel(count: u8) -> u16 {
    (0..4u16).fold(0, |acc, c| {
        let sel = if c < u16::from(count) { u16::from(vsharp::SEL_X) + c } else { u16::from(vsharp::SEL_0) };
        acc | sel << (3 * c)
    })
}

/// Everything one lane's memory access needs, gathered before any result is written.
struct Lane {
    lane: usize,
    addr: buffer_addr::Out,
    /// The data VGPRs the instruction reads (stores, atomics; D16 byte/short loads: the old VGPR).
    data: [u32; 4],
}

impl BufferInst {
    /// The effective element format (SPEC §2.6): `(dfmt, nfmt, buffer_addr's access, element
    /// bytes)`; FORMAT accesses take it from the instruction (TBUFFER) or the V#.
    pub fn element_format(&self, vsharp: &VSharp) -> (u8, u8, u8, u8) {
        match (self.kind, self.access) {
            (BufferKind::Atomic(_), _) => (4, NFMT_UINT, ACCESS_ATOMIC, if self.wide { 8 } else { 4 }),
            (_, Access::Sized { bytes, signed }) => {
                let (d, n) = implied_format(bytes, signed);
                (d, n, ACCESS_NON_FORMAT, bytes)
            }
            (_, Access::Format { format, .. }) => {
                let (d, n) = format.unwrap_or((vsharp.dfmt, vsharp.nfmt));
                // An invalid effective format is caught by format_unpack/format_pack; its size
                // then does not matter (the access behaves as unbound).
                let b = match element_bytes(d) {
                    0 => 4,
                    b => b as u8,
                };
                (d, n, ACCESS_FORMAT, b)
            }
        }
    }

    /// The dst_sel a load's swizzle takes: the V#'s for BUFFER_*_FORMAT_*, else the identity
    /// for the components of `dfmt` (format_unpack's count; 4 for an invalid format).
    pub fn load_dst_sel(&self, vsharp: &VSharp, dfmt: u8, nfmt: u8) -> u16 {
        match self.access {
            Access::Format { format: None, .. } => {
                vsharp.dst_sel.iter().enumerate().fold(0u16, |acc, (c, &s)| acc | u16::from(s) << (3 * c))
            }
            _ => {
                let unpacked = format_unpack::compute(&format_unpack::In { valid: true, dfmt, nfmt, data: 0 });
                identity_dst_sel(unpacked.count.max(1))
            }
        }
    }

    /// The component count the instruction moves (buffers have no DMASK: SPEC §3 step 4).
    pub fn components(&self) -> u8 {
        match self.access {
            Access::Format { count, .. } => count,
            Access::Sized { bytes, .. } => bytes.div_ceil(4).max(1),
        }
    }

    /// SPEC §2.5: which instructions may load into LDS.
    fn check(&self) -> Result<(), ExecError> {
        if self.lds {
            if self.tfe {
                return Err(ExecError("lds = 1 with tfe = 1 is illegal (SPEC §2.5)".into()));
            }
            let allowed = self.kind == BufferKind::Load
                && self.d16 == D16::None
                && match self.access {
                    Access::Sized { bytes, .. } => matches!(bytes, 1 | 2 | 4),
                    Access::Format { count, format } => count == 1 && format.is_none(),
                };
            if !allowed {
                return Err(ExecError(
                    "lds = 1 is allowed only on BUFFER_LOAD_{UBYTE, SBYTE, USHORT, SSHORT, DWORD, FORMAT_X} (SPEC §2.5)"
                        .into(),
                ));
            }
        }
        if matches!(self.kind, BufferKind::Atomic(_)) && self.tfe {
            return Err(ExecError("tfe = 1 on a buffer atomic is not modelled".into()));
        }
        Ok(())
    }
}

/// buffer_addr's inputs for `lanes` of `inst` on `wave` (SPEC §2), the V# and SOFFSET value given.
fn address_inputs(
    wave: &Wave,
    inst: &BufferInst,
    lanes: &[usize],
    vsharp: u128,
    sgpr_offset: u32,
) -> Vec<buffer_addr::In> {
    let (_, _, access, bytes) = inst.element_format(&VSharp::decode(vsharp));
    lanes
        .iter()
        .map(|&l| {
            let (index, offset) = match (inst.idxen, inst.offen) {
                (true, true) => (vgpr(wave, inst.vaddr, l), vgpr(wave, inst.vaddr.wrapping_add(1), l)),
                (true, false) => (vgpr(wave, inst.vaddr, l), 0),
                (false, true) => (0, vgpr(wave, inst.vaddr, l)),
                (false, false) => (0, 0),
            };
            buffer_addr::In {
                valid: true,
                vsharp,
                inst_offset: inst.offset & 0xfff,
                offen: inst.offen,
                idxen: inst.idxen,
                access,
                bytes,
                lds: inst.lds,
                sgpr_offset,
                vgpr_index: index,
                vgpr_offset: offset,
                tid: l as u8,
                m0: wave.m0,
                lds_base: wave.lds.base,
                lds_size: wave.lds.size,
            }
        })
        .collect()
}

/// Every active lane's SPEC §2 address computation for `inst` on `wave` (the buffer_addr
/// model), lane by lane: what the instruction would access, for callers that check accesses
/// before running them (the pipeline's testbench).
pub fn lane_addresses(wave: &Wave, inst: &BufferInst) -> Result<Vec<(usize, buffer_addr::Out)>, ExecError> {
    let vsharp = wave.descriptor(inst.srsrc).map_err(ExecError)?;
    let sgpr_offset = wave.scalar(inst.soffset).map_err(ExecError)?;
    let lanes: Vec<usize> = (0..LANES).filter(|&l| wave.active(l)).collect();
    let inputs = address_inputs(wave, inst, &lanes, vsharp, sgpr_offset);
    Ok(lanes.into_iter().zip(inputs.iter().map(buffer_addr::compute)).collect())
}

/// Runs one buffer instruction on `wave`. On error nothing is applied.
pub fn run_buffer(wave: &mut Wave, inst: &BufferInst, backend: &mut impl Backend) -> Result<(), ExecError> {
    inst.check()?;
    let vsharp_bits = wave.descriptor(inst.srsrc).map_err(ExecError)?;
    let vsharp = VSharp::decode(vsharp_bits);
    let sgpr_offset = wave.scalar(inst.soffset).map_err(ExecError)?;
    let (dfmt, nfmt, _, _) = inst.element_format(&vsharp);

    // 1. Gather: addresses and data from the state, for every active lane.
    let lanes: Vec<usize> = (0..LANES).filter(|&l| wave.active(l)).collect();
    let addr_in = address_inputs(wave, inst, &lanes, vsharp_bits, sgpr_offset);
    let addrs = backend.buffer_addr(&addr_in);
    let gathered: Vec<Lane> = lanes
        .iter()
        .zip(addrs)
        .map(|(&lane, addr)| {
            let data = std::array::from_fn(|i| vgpr(wave, inst.vdata.wrapping_add(i as u8), lane));
            Lane { lane, addr, data }
        })
        .collect();

    // SPEC §13.1: a swizzled access that §2.3 marks illegal, on an active lane of a bound V#,
    // cannot run; nothing of the instruction is applied.
    if let Some((l, input)) = gathered.iter().zip(&addr_in).find(|(l, _)| l.addr.illegal && !l.addr.unbound) {
        return Err(swizzle_illegal(l.lane, input, &vsharp));
    }

    // SPEC §10.1: a 64-bit atomic whose 8 bytes lie in two 64-byte lines cannot be atomic.
    if matches!(inst.kind, BufferKind::Atomic(_)) && inst.wide {
        let live = gathered.iter().filter(|l| !l.addr.unbound && l.addr.in_range & 1 != 0);
        if let Some(e) = live.map(|l| (l.lane, l.addr.address)).find_map(atomic_across_lines) {
            return Err(e);
        }
    }

    match inst.kind {
        BufferKind::Load => load(wave, inst, &gathered, (dfmt, nfmt), &vsharp, backend),
        BufferKind::Store => store(wave, inst, &gathered, (dfmt, nfmt), backend),
        BufferKind::Atomic(op) => {
            atomic(wave, inst, op, &gathered);
            Ok(())
        }
    }
}

/// The error of a swizzled access that SPEC §2.3 marks illegal on `lane`, naming which of the
/// three conditions holds (an access may not cross an element; the stride must be a multiple of
/// the element size).
fn swizzle_illegal(lane: usize, input: &buffer_addr::In, vsharp: &VSharp) -> ExecError {
    let e = vsharp.element_bytes();
    let offset = u32::from(input.inst_offset).wrapping_add(if input.offen { input.vgpr_offset } else { 0 });
    let bytes = u32::from(input.bytes);
    let reason = if bytes > e {
        format!("the access is {bytes} bytes, more than the element size E = {e}")
    } else if offset % e + bytes > e {
        format!(
            "at offset {offset:#x} the {bytes} bytes start at byte {} of a {e}-byte element and cross it",
            offset % e
        )
    } else {
        format!("stride {} is not a multiple of the element size E = {e}", vsharp.stride)
    };
    ExecError(format!("lane {lane}: swizzled access is illegal (SPEC §2.3): {reason}"))
}

/// The element bytes a lane reads, each dword 0 where it is out of range (SPEC §2.4).
fn read_element(memory: &Memory, addr: &buffer_addr::Out, bytes: u8) -> u128 {
    if addr.unbound {
        return 0;
    }
    let per_dword = bytes > 4;
    let raw = memory.read(addr.address, u32::from(bytes));
    (0..u32::from(bytes).div_ceil(4)).fold(0u128, |acc, i| {
        let in_range = addr.in_range >> (if per_dword { i } else { 0 }) & 1 != 0;
        let mask = if bytes >= 4 { 0xffff_ffffu128 } else { (1u128 << (8 * bytes)) - 1 };
        if in_range {
            acc | (raw >> (32 * i) & mask) << (32 * i)
        } else {
            acc
        }
    })
}

fn load(
    wave: &mut Wave,
    inst: &BufferInst,
    lanes: &[Lane],
    (dfmt, nfmt): (u8, u8),
    vsharp: &VSharp,
    backend: &mut impl Backend,
) -> Result<(), ExecError> {
    let bytes = match inst.access {
        Access::Sized { bytes, .. } => bytes,
        Access::Format { .. } => element_bytes(dfmt).max(1) as u8,
    };
    let data: Vec<u128> = lanes.iter().map(|l| read_element(&wave.memory, &l.addr, bytes)).collect();

    // D16 byte/short loads keep the other half of the VGPR: the d16 unit does it.
    if let (Access::Sized { bytes: b @ (1 | 2), signed }, D16::Lo | D16::Hi) = (inst.access, inst.d16) {
        let op = match (b, signed) {
            (1, false) => OP_LOAD_UBYTE,
            (1, true) => OP_LOAD_SBYTE,
            _ => OP_LOAD_SHORT,
        };
        let inputs: Vec<d16::In> = lanes
            .iter()
            .zip(&data)
            .map(|(l, &d)| d16::In {
                valid: true,
                op,
                hi: inst.d16 == D16::Hi,
                nfmt: 0,
                count: 0,
                data: d,
                old: l.data[0],
            })
            .collect();
        let results: Vec<Vec<u32>> = backend.d16(&inputs).iter().map(|o| dwords(o.result, 1)).collect();
        write_results(wave, inst, lanes, &results);
        return Ok(());
    }

    let unpacked = backend.format_unpack(
        &data.iter().map(|&d| format_unpack::In { valid: true, dfmt, nfmt, data: d }).collect::<Vec<_>>(),
    );
    let per_dword = matches!(inst.access, Access::Sized { bytes, .. } if bytes > 4);
    let dst_sel = inst.load_dst_sel(vsharp, dfmt, nfmt);
    let n = inst.components();
    let swizzle_in: Vec<swizzle::In> = lanes
        .iter()
        .zip(&unpacked)
        .map(|(l, u)| {
            let oor = if per_dword {
                !l.addr.in_range & 0xf
            } else if l.addr.in_range & 1 != 0 {
                0
            } else {
                0xf
            };
            swizzle::In {
                valid: true,
                components: u.components,
                count: u.count,
                dst_sel,
                integer: is_integer(nfmt),
                dmask: (1u8 << n) - 1,
                oor,
                unbound: l.addr.unbound || !u.fmt_valid,
                tfe: false,
            }
        })
        .collect();
    let swizzled = backend.swizzle(&swizzle_in);
    let mut results: Vec<Vec<u32>> = swizzled.iter().map(|s| dwords(s.result, s.result_count)).collect();
    if inst.d16 == D16::Lo {
        results = d16_narrow(backend, nfmt, &swizzled);
    }
    if inst.tfe {
        // SPEC §3 step 5: one status dword after the data dwords; no PRT here, so 0.
        for r in &mut results {
            r.push(0);
        }
    }
    if inst.lds {
        // SPEC §2.5: the value a VGPR load would have received, to LDS, never to VGPRs.
        for (l, r) in lanes.iter().zip(&results) {
            if l.addr.lds_in_range {
                let at = l.addr.lds_address as usize;
                for (i, b) in r[0].to_le_bytes().into_iter().enumerate() {
                    if let Some(slot) = wave.lds.bytes.get_mut(at + i) {
                        *slot = b;
                    }
                }
            }
        }
        return Ok(());
    }
    write_results(wave, inst, lanes, &results);
    Ok(())
}

fn write_results(wave: &mut Wave, inst: &BufferInst, lanes: &[Lane], results: &[Vec<u32>]) {
    for (l, r) in lanes.iter().zip(results) {
        for (i, &d) in r.iter().enumerate() {
            let v = usize::from(inst.vdata) + i;
            if v < VGPRS {
                wave.vgprs[v][l.lane] = d;
                wave.written[v] = true;
            }
        }
    }
}

fn store(
    wave: &mut Wave,
    inst: &BufferInst,
    lanes: &[Lane],
    (dfmt, nfmt): (u8, u8),
    backend: &mut impl Backend,
) -> Result<(), ExecError> {
    match inst.access {
        Access::Sized { bytes, .. } => {
            // Byte and short stores take the low bits, or with D16_HI the byte at 23:16 / the
            // short at 31:16 (d16 unit); wider stores the VGPRs as they are.
            let values: Vec<u128> = if bytes <= 2 && inst.d16 == D16::Hi {
                let op = if bytes == 1 { d16::OP_STORE_BYTE } else { d16::OP_STORE_SHORT };
                let inputs: Vec<d16::In> = lanes
                    .iter()
                    .map(|l| d16::In {
                        valid: true,
                        op,
                        hi: true,
                        nfmt: 0,
                        count: 0,
                        data: u128::from(l.data[0]),
                        old: 0,
                    })
                    .collect();
                backend.d16(&inputs).iter().map(|o| o.result).collect()
            } else {
                lanes.iter().map(|l| l.data.iter().rev().fold(0u128, |acc, &d| acc << 32 | u128::from(d))).collect()
            };
            for (l, value) in lanes.iter().zip(values) {
                write_element(&mut wave.memory, &l.addr, bytes, value);
            }
        }
        Access::Format { count, .. } => {
            // Stores ignore dst_sel: VGPR i is component i, components past the count are 0
            // (D16: k halves from VDATA, widened by the d16 unit).
            let components: Vec<u128> = if inst.d16 == D16::Lo {
                d16_widen(backend, nfmt, count, lanes.iter().map(|l| l.data))
            } else {
                lanes
                    .iter()
                    .map(|l| {
                        (0..usize::from(count.min(4))).fold(0u128, |acc, i| acc | u128::from(l.data[i]) << (32 * i))
                    })
                    .collect()
            };
            let packed = backend.format_pack(
                &components
                    .iter()
                    .map(|&c| format_pack::In { valid: true, dfmt, nfmt, components: c })
                    .collect::<Vec<_>>(),
            );
            let bytes = element_bytes(dfmt) as u8;
            for (l, p) in lanes.iter().zip(packed) {
                if p.fmt_valid {
                    write_element(&mut wave.memory, &l.addr, bytes, p.data);
                }
            }
        }
    }
    Ok(())
}

/// Writes a lane's element where it is in range and bound: per dword for sized accesses above 4
/// bytes, all or nothing otherwise (SPEC §2.4).
fn write_element(memory: &mut Memory, addr: &buffer_addr::Out, bytes: u8, value: u128) {
    if addr.unbound {
        return;
    }
    if bytes <= 4 {
        if addr.in_range & 1 != 0 {
            memory.write(addr.address, u32::from(bytes), value);
        }
        return;
    }
    for i in 0..u32::from(bytes) / 4 {
        if addr.in_range >> i & 1 != 0 {
            memory.write(addr.address.wrapping_add(u64::from(4 * i)), 4, value >> (32 * i));
        }
    }
}

fn atomic(wave: &mut Wave, inst: &BufferInst, op: AtomicOp, lanes: &[Lane]) {
    let width = if inst.wide { 2 } else { 1 };
    let join = |d: &[u32]| if inst.wide { u64::from(d[0]) | u64::from(d[1]) << 32 } else { u64::from(d[0]) };
    let mut returns = Vec::with_capacity(lanes.len());
    for l in lanes {
        let data = join(&l.data[..width]);
        let cmp =
            if matches!(op, AtomicOp::Cmpswap | AtomicOp::Fcmpswap) { join(&l.data[width..2 * width]) } else { 0 };
        let live = !l.addr.unbound && l.addr.in_range & 1 != 0;
        let bytes = 4 * width as u32;
        let old = if live { wave.memory.read(l.addr.address, bytes) as u64 } else { 0 };
        if live {
            wave.memory.write(l.addr.address, bytes, u128::from(atomic_result(op, inst.wide, old, data, cmp)));
        }
        returns.push(if inst.wide { vec![old as u32, (old >> 32) as u32] } else { vec![old as u32] });
    }
    if inst.glc {
        write_results(wave, inst, lanes, &returns);
    }
}
