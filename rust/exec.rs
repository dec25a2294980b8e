//! The wave-level executor (SPEC §10): whole buffer instructions on a wave's state, the per-lane
//! work done by the units through a [`Backend`].
//!
//! Spec: docs/spec.md §10, §10.1, §2–§6  Tests: rust/tests/exec.rs
//!
//! This module holds the wave's state ([`Wave`]: SGPRs, 256 VGPRs × 64 lanes, EXEC, M0, the LDS
//! allocation and bytes, a sparse memory), the buffer instructions in executor terms
//! ([`BufferInst`]), and their semantics. An instruction runs in three steps, so that every
//! address and data VGPR is read before any result is written:
//! 1. every active lane's unit inputs are gathered from the state,
//! 2. the units compute, all lanes of one unit in one batch ([`Backend`]: the Rust models here;
//!    the harness crate plugs in the Verilated RTL, or both in lockstep),
//! 3. the results are applied lane by lane in ascending order (the highest lane wins where
//!    stores overlap; atomics are serialised in lane order).
//!
//! Inactive lanes are untouched. An instruction that SPEC names illegal (§2.5: LDS with TFE or
//! with another opcode) is an [`ExecError`] and nothing of it is applied.

use std::collections::BTreeMap;
use std::fmt;

use crate::buffer_addr::{self, ACCESS_ATOMIC, ACCESS_FORMAT, ACCESS_NON_FORMAT};
use crate::d16::{self, OP_LOAD_FORMAT, OP_LOAD_SBYTE, OP_LOAD_SHORT, OP_LOAD_UBYTE, OP_STORE_FORMAT};
use crate::format::{element_bytes, is_integer, NFMT_SINT, NFMT_UINT};
use crate::unit::Unit;
use crate::vsharp::{self, VSharp};
use crate::{format_pack, format_unpack, image_addr, multi_texel, swizzle};

/// Lanes of a wave.
pub const LANES: usize = 64;
/// VGPRs of a wave.
pub const VGPRS: usize = 256;
/// Addresses wrap modulo 2^48 (SPEC conventions).
const ADDRESS_MASK: u64 = (1 << 48) - 1;
const PAGE: u64 = 4096;

/// A sparse byte-addressed memory: unwritten bytes read 0, addresses wrap modulo 2^48.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    pages: BTreeMap<u64, Box<[u8; PAGE as usize]>>,
}

impl Memory {
    pub fn read_byte(&self, address: u64) -> u8 {
        let a = address & ADDRESS_MASK;
        self.pages.get(&(a / PAGE)).map_or(0, |p| p[(a % PAGE) as usize])
    }

    pub fn write_byte(&mut self, address: u64, value: u8) {
        let a = address & ADDRESS_MASK;
        self.pages.entry(a / PAGE).or_insert_with(|| Box::new([0; PAGE as usize]))[(a % PAGE) as usize] = value;
    }

    /// The runs of an access of `n` bytes (at most 16) from `address`: (page, offset in the page,
    /// first byte of the access, length), one per page it touches.
    fn chunks(address: u64, n: u32) -> impl Iterator<Item = (u64, usize, u32, u32)> {
        let mut i = 0;
        std::iter::from_fn(move || {
            (i < n).then(|| {
                let a = address.wrapping_add(u64::from(i)) & ADDRESS_MASK;
                let offset = (a % PAGE) as u32;
                let len = (PAGE as u32 - offset).min(n - i);
                let chunk = (a / PAGE, offset as usize, i, len);
                i += len;
                chunk
            })
        })
    }

    /// `n` bytes (at most 16) from `address` upward (wrapping), little-endian into the low bits.
    pub fn read(&self, address: u64, n: u32) -> u128 {
        Self::chunks(address, n.min(16)).fold(0u128, |acc, (page, offset, first, len)| match self.pages.get(&page) {
            Some(p) => (0..len).fold(acc, |acc, k| acc | u128::from(p[offset + k as usize]) << (8 * (first + k))),
            None => acc,
        })
    }

    /// The low `n` bytes (at most 16) of `value` at `address` upward (wrapping).
    pub fn write(&mut self, address: u64, n: u32, value: u128) {
        for (page, offset, first, len) in Self::chunks(address, n.min(16)) {
            let p = self.pages.entry(page).or_insert_with(|| Box::new([0; PAGE as usize]));
            for k in 0..len {
                p[offset + k as usize] = (value >> (8 * (first + k))) as u8;
            }
        }
    }

    /// Every byte that differs from `before` (unwritten bytes count as 0), as runs of consecutive
    /// addresses: `(first address, bytes)`, sorted by address.
    pub fn changes_since(&self, before: &Memory) -> Vec<(u64, Vec<u8>)> {
        let mut runs: Vec<(u64, Vec<u8>)> = Vec::new();
        let pages: std::collections::BTreeSet<u64> = self.pages.keys().chain(before.pages.keys()).copied().collect();
        for page in pages {
            for offset in 0..PAGE {
                let a = page * PAGE + offset;
                let now = self.read_byte(a);
                if now != before.read_byte(a) {
                    match runs.last_mut() {
                        Some((start, bytes)) if *start + bytes.len() as u64 == a => bytes.push(now),
                        _ => runs.push((a, vec![now])),
                    }
                }
            }
        }
        runs
    }
}

/// The wave's LDS allocation (SPEC §2.5): `base` and `size` in 128-byte units, and the LDS bytes
/// (64 KiB, addressed from 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lds {
    pub base: u16,
    pub size: u16,
    pub bytes: Vec<u8>,
}

impl Default for Lds {
    fn default() -> Self {
        Lds { base: 0, size: 0, bytes: vec![0; 1 << 16] }
    }
}

/// A wave's architectural state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wave {
    /// SGPRs by operand code 0..=127 (s0–s101, then flat_scratch, xnack_mask, vcc, ttmp0–15 at
    /// 108–123, m0 at 124 (kept in [`Wave::m0`]), exec at 126–127 (kept in [`Wave::exec`])).
    pub sgprs: [u32; 128],
    /// VGPR `v` of lane `l` is `vgprs[v][l]`.
    pub vgprs: Vec<[u32; LANES]>,
    pub exec: u64,
    pub m0: u32,
    pub lds: Lds,
    pub memory: Memory,
    /// VGPRs some instruction wrote (in any lane), for reporting.
    pub written: Vec<bool>,
}

impl Default for Wave {
    fn default() -> Self {
        Wave {
            sgprs: [0; 128],
            vgprs: vec![[0; LANES]; VGPRS],
            exec: u64::MAX,
            m0: 0,
            lds: Lds::default(),
            memory: Memory::default(),
            written: vec![false; VGPRS],
        }
    }
}

/// SOFFSET codes that are not SGPRs (GFX9 scalar operand encoding).
const M0_CODE: u8 = 124;
const EXEC_LO_CODE: u8 = 126;
const EXEC_HI_CODE: u8 = 127;

impl Wave {
    /// A scalar operand as SOFFSET reads it (SPEC §10: an SGPR, M0 or an inline constant).
    pub fn scalar(&self, code: u8) -> Result<u32, String> {
        Ok(match code {
            0..=123 => self.sgprs[usize::from(code)],
            M0_CODE => self.m0,
            EXEC_LO_CODE => self.exec as u32,
            EXEC_HI_CODE => (self.exec >> 32) as u32,
            128..=192 => u32::from(code - 128),
            193..=208 => (-(i32::from(code) - 192)) as u32,
            240 => 0.5f32.to_bits(),
            241 => (-0.5f32).to_bits(),
            242 => 1.0f32.to_bits(),
            243 => (-1.0f32).to_bits(),
            244 => 2.0f32.to_bits(),
            245 => (-2.0f32).to_bits(),
            246 => 4.0f32.to_bits(),
            247 => (-4.0f32).to_bits(),
            248 => 0x3e22_f983, // 1 / (2 * pi)
            other => return Err(format!("soffset operand code {other} is not an SGPR, M0 or an inline constant")),
        })
    }

    /// Four consecutive SGPRs from `first` as a 128-bit descriptor, the first in bits 31:0.
    fn descriptor(&self, first: u8) -> Result<u128, String> {
        if first % 4 != 0 || usize::from(first) + 4 > 124 {
            return Err(format!("srsrc s{first} is not an aligned group of four SGPRs"));
        }
        Ok((0..4).fold(0u128, |acc, i| acc | u128::from(self.sgprs[usize::from(first) + i]) << (32 * i)))
    }

    fn active(&self, lane: usize) -> bool {
        self.exec >> lane & 1 != 0
    }
}

/// What a buffer instruction does with its data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferKind {
    Load,
    Store,
    Atomic(AtomicOp),
}

/// §10.1's atomic operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    Swap,
    Cmpswap,
    Add,
    Sub,
    Rsub,
    Smin,
    Umin,
    Smax,
    Umax,
    And,
    Or,
    Xor,
    Inc,
    Dec,
    Fcmpswap,
    Fmin,
    Fmax,
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

/// An instruction that cannot run: names the rule it breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecError(pub String);

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ExecError {}

/// Who computes the per-lane work: one batch of lanes per unit and call, outputs in input order.
pub trait Backend {
    fn buffer_addr(&mut self, inputs: &[buffer_addr::In]) -> Vec<buffer_addr::Out>;
    fn format_unpack(&mut self, inputs: &[format_unpack::In]) -> Vec<format_unpack::Out>;
    fn format_pack(&mut self, inputs: &[format_pack::In]) -> Vec<format_pack::Out>;
    fn swizzle(&mut self, inputs: &[swizzle::In]) -> Vec<swizzle::Out>;
    fn d16(&mut self, inputs: &[d16::In]) -> Vec<d16::Out>;
    fn image_addr(&mut self, inputs: &[image_addr::In]) -> Vec<image_addr::Out>;
    fn multi_texel(&mut self, inputs: &[multi_texel::In]) -> Vec<multi_texel::Out>;
}

/// Drives `inputs` back to back through a clocked unit (any [`Unit`]: a model or an RTL) and
/// returns each one's output, draining the pipeline with idle cycles.
pub fn pipeline<U: Unit>(unit: &mut U, inputs: &[U::In]) -> Vec<U::Out> {
    let lag = U::LATENCY - 1;
    let idle = U::In::default();
    let mut outputs = Vec::with_capacity(inputs.len());
    for (n, input) in inputs.iter().chain(std::iter::repeat_n(&idle, lag)).enumerate() {
        let out = unit.step(input);
        if n >= lag {
            outputs.push(out);
        }
    }
    outputs
}

/// The Rust models as the backend.
#[derive(Default)]
pub struct Models {
    pub buffer_addr: buffer_addr::BufferAddr,
    pub format_unpack: format_unpack::FormatUnpack,
    pub format_pack: format_pack::FormatPack,
    pub swizzle: swizzle::Swizzle,
    pub d16: d16::D16,
    pub image_addr: image_addr::ImageAddr,
    pub multi_texel: multi_texel::MultiTexel,
}

impl Backend for Models {
    fn buffer_addr(&mut self, inputs: &[buffer_addr::In]) -> Vec<buffer_addr::Out> {
        pipeline(&mut self.buffer_addr, inputs)
    }
    fn format_unpack(&mut self, inputs: &[format_unpack::In]) -> Vec<format_unpack::Out> {
        pipeline(&mut self.format_unpack, inputs)
    }
    fn format_pack(&mut self, inputs: &[format_pack::In]) -> Vec<format_pack::Out> {
        pipeline(&mut self.format_pack, inputs)
    }
    fn swizzle(&mut self, inputs: &[swizzle::In]) -> Vec<swizzle::Out> {
        pipeline(&mut self.swizzle, inputs)
    }
    fn d16(&mut self, inputs: &[d16::In]) -> Vec<d16::Out> {
        pipeline(&mut self.d16, inputs)
    }
    fn image_addr(&mut self, inputs: &[image_addr::In]) -> Vec<image_addr::Out> {
        pipeline(&mut self.image_addr, inputs)
    }
    fn multi_texel(&mut self, inputs: &[multi_texel::In]) -> Vec<multi_texel::Out> {
        pipeline(&mut self.multi_texel, inputs)
    }
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
    /// The component count the instruction moves (buffers have no DMASK: SPEC §3 step 4).
    fn components(&self) -> u8 {
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

/// Runs one buffer instruction on `wave`. On error nothing is applied.
pub fn run_buffer(wave: &mut Wave, inst: &BufferInst, backend: &mut impl Backend) -> Result<(), ExecError> {
    inst.check()?;
    let vsharp_bits = wave.descriptor(inst.srsrc).map_err(ExecError)?;
    let vsharp = VSharp::decode(vsharp_bits);
    let sgpr_offset = wave.scalar(inst.soffset).map_err(ExecError)?;
    let (dfmt, nfmt, access, bytes) = match (inst.kind, inst.access) {
        (BufferKind::Atomic(_), _) => (4, NFMT_UINT, ACCESS_ATOMIC, if inst.wide { 8 } else { 4 }),
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
    };

    // 1. Gather: addresses and data from the state, for every active lane.
    let lanes: Vec<usize> = (0..LANES).filter(|&l| wave.active(l)).collect();
    let addr_in: Vec<buffer_addr::In> = lanes
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
                vsharp: vsharp_bits,
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
        .collect();
    let addrs = backend.buffer_addr(&addr_in);
    let gathered: Vec<Lane> = lanes
        .iter()
        .zip(addrs)
        .map(|(&lane, addr)| {
            let data = std::array::from_fn(|i| vgpr(wave, inst.vdata.wrapping_add(i as u8), lane));
            Lane { lane, addr, data }
        })
        .collect();

    match inst.kind {
        BufferKind::Load => load(wave, inst, &gathered, (dfmt, nfmt), &vsharp, backend),
        BufferKind::Store => store(wave, inst, &gathered, (dfmt, nfmt), backend),
        BufferKind::Atomic(op) => {
            atomic(wave, inst, op, &gathered);
            Ok(())
        }
    }
}

fn vgpr(wave: &Wave, v: u8, lane: usize) -> u32 {
    wave.vgprs[usize::from(v)][lane]
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
    let dst_sel = match inst.access {
        Access::Format { format: None, .. } => {
            vsharp.dst_sel.iter().enumerate().fold(0u16, |acc, (c, &s)| acc | u16::from(s) << (3 * c))
        }
        _ => identity_dst_sel(unpacked.first().map_or(4, |u| u.count.max(1))),
    };
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
        let inputs: Vec<d16::In> = swizzled
            .iter()
            .map(|s| d16::In {
                valid: true,
                op: OP_LOAD_FORMAT,
                hi: false,
                nfmt,
                count: s.result_count,
                data: s.result,
                old: 0,
            })
            .collect();
        results = backend.d16(&inputs).iter().map(|o| dwords(o.result, o.result_count)).collect();
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

/// The first `count` dwords of a 128-bit result.
fn dwords(result: u128, count: u8) -> Vec<u32> {
    (0..u32::from(count.min(4))).map(|i| (result >> (32 * i)) as u32).collect()
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
                let inputs: Vec<d16::In> = lanes
                    .iter()
                    .map(|l| d16::In {
                        valid: true,
                        op: OP_STORE_FORMAT,
                        hi: false,
                        nfmt,
                        count,
                        data: u128::from(l.data[0]) | u128::from(l.data[1]) << 32,
                        old: 0,
                    })
                    .collect();
                backend.d16(&inputs).iter().map(|o| o.result).collect()
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

/// §10.1's result of one atomic on `tmp` with operand `data` (and `cmp` for the compare-swaps),
/// at 32 or 64 bits.
pub fn atomic_result(op: AtomicOp, wide: bool, tmp: u64, data: u64, cmp: u64) -> u64 {
    let mask = if wide { u64::MAX } else { u64::from(u32::MAX) };
    let signed = |v: u64| if wide { v as i64 } else { i64::from(v as u32 as i32) };
    let float = |v: u64| if wide { f64::from_bits(v) } else { f64::from(f32::from_bits(v as u32)) };
    let r = match op {
        AtomicOp::Swap => data,
        AtomicOp::Cmpswap => {
            if tmp == cmp {
                data
            } else {
                tmp
            }
        }
        AtomicOp::Add => tmp.wrapping_add(data),
        AtomicOp::Sub => tmp.wrapping_sub(data),
        AtomicOp::Rsub => data.wrapping_sub(tmp),
        AtomicOp::Smin => {
            if signed(data) < signed(tmp) {
                data
            } else {
                tmp
            }
        }
        AtomicOp::Smax => {
            if signed(data) > signed(tmp) {
                data
            } else {
                tmp
            }
        }
        AtomicOp::Umin => tmp.min(data),
        AtomicOp::Umax => tmp.max(data),
        AtomicOp::And => tmp & data,
        AtomicOp::Or => tmp | data,
        AtomicOp::Xor => tmp ^ data,
        AtomicOp::Inc => {
            if tmp >= data {
                0
            } else {
                tmp + 1
            }
        }
        AtomicOp::Dec => {
            if tmp == 0 || tmp > data {
                data
            } else {
                tmp - 1
            }
        }
        // +0 == -0 and NaN never equal: IEEE equality.
        AtomicOp::Fcmpswap => {
            if float(tmp) == float(cmp) {
                data
            } else {
                tmp
            }
        }
        // IEEE minNum/maxNum: a NaN operand yields the other operand.
        AtomicOp::Fmin => pick_num(tmp, data, float, |a, b| a < b || (a == b && a.is_sign_negative())),
        AtomicOp::Fmax => pick_num(tmp, data, float, |a, b| a > b || (a == b && a.is_sign_positive())),
    };
    r & mask
}

fn pick_num(tmp: u64, data: u64, float: impl Fn(u64) -> f64, better: impl Fn(f64, f64) -> bool) -> u64 {
    let (t, d) = (float(tmp), float(data));
    match (t.is_nan(), d.is_nan()) {
        (true, _) => data,
        (_, true) => tmp,
        _ if better(d, t) => data,
        _ => tmp,
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

// ---------------------------------------------------------------------------------------------
// Image instructions (SPEC §4, §1.2, §6, §10.1).

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

impl Wave {
    /// The T# at `first`: (bits 127:0, bits 255:128 or 0 for a 128-bit T#).
    fn tsharp(&self, first: u8, r128: bool) -> Result<(u128, u128), String> {
        let lo = self.descriptor(first)?;
        let hi = if r128 { 0 } else { self.descriptor(first.wrapping_add(4))? };
        Ok((lo, hi))
    }
}

/// Dimensions of level `level` (SPEC §4.2): (width, height, layers or depth, pitch).
fn level_size(t: &crate::tsharp::TSharp, r128: bool, level: u32) -> (u32, u32, u32, u32) {
    use crate::tsharp::{TYPE_1D, TYPE_1D_ARRAY, TYPE_2D_ARRAY, TYPE_3D, TYPE_CUBE};
    let shrink = |size: u32| (size >> level.min(31)).max(1);
    let width = shrink(t.width());
    let height = if matches!(t.kind, TYPE_1D | TYPE_1D_ARRAY) { 1 } else { shrink(t.height()) };
    let depth_field = if r128 { 1 } else { t.depth() };
    let layers = match t.kind {
        TYPE_3D => shrink(depth_field),
        TYPE_1D_ARRAY | TYPE_2D_ARRAY => depth_field,
        TYPE_CUBE => 6 * depth_field,
        _ => 1,
    };
    let pitch = if r128 { width } else { shrink(t.pitch()) };
    (width, height, layers, pitch)
}

/// SPEC §4.4: the byte address of texel (x, y, slice) of level `level`, modulo 2^48.
fn texel_address(t: &crate::tsharp::TSharp, r128: bool, level: u32, x: u32, y: u32, slice: u32) -> u64 {
    let bpp = u64::from(element_bytes(t.dfmt));
    let mip_offset: u64 = (0..level)
        .map(|l| {
            let (_, h, layers, p) = level_size(t, r128, l);
            u64::from(p) * u64::from(h) * u64::from(layers) * bpp
        })
        .fold(0u64, u64::wrapping_add);
    let (_, h, _, p) = level_size(t, r128, level);
    let inner = (u64::from(slice) * u64::from(h) + u64::from(y)) * u64::from(p) + u64::from(x);
    (t.base.wrapping_mul(256).wrapping_add(mip_offset).wrapping_add(inner.wrapping_mul(bpp))) & ADDRESS_MASK
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
    }
    match inst.kind {
        ImageKind::MultiTexel { op } => {
            let access = image_addr::MultiTexelAccess {
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
            image_addr::check_multi_texel(&access).map_err(ExecError)?;
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
    // Every active lane's address VGPRs, then its element (or none, out of the level).
    let lanes: Vec<usize> = (0..LANES).filter(|&l| wave.active(l)).collect();
    if inst.kind == ImageKind::GetResinfo {
        get_resinfo(wave, inst, &t, &lanes);
        return Ok(());
    }
    let mut gathered = Vec::with_capacity(lanes.len());
    for &lane in &lanes {
        let vgprs: Vec<u32> = (0..4).map(|i| vgpr(wave, inst.vaddr.wrapping_add(i), lane)).collect();
        let data = std::array::from_fn(|i| vgpr(wave, inst.vdata.wrapping_add(i as u8), lane));
        let address = if bound {
            let c = image_addr::decode_vaddr(t.kind, inst.da, inst.mip, inst.a16, &vgprs).map_err(ExecError)?;
            // SPEC §4.2: L = base_level + mipid exactly (33 bits); an existing level is <= 15.
            let level = u64::from(t.base_level) + u64::from(c.mipid);
            let exists = level <= u64::from(t.last_level) && (inst.r128 || level <= u64::from(t.max_mip));
            let level = level.min(15) as u32;
            let (w, h, layers, _) = level_size(&t, inst.r128, level);
            (exists && c.x < w && c.y < h && c.slice < layers)
                .then(|| texel_address(&t, inst.r128, level, c.x, c.y, c.slice))
        } else {
            None
        };
        gathered.push(ImageLane { lane, address, data });
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
            let inputs: Vec<d16::In> = swizzled
                .iter()
                .map(|s| d16::In {
                    valid: true,
                    op: OP_LOAD_FORMAT,
                    hi: false,
                    nfmt: t.nfmt,
                    count: s.result_count,
                    data: s.result,
                    old: 0,
                })
                .collect();
            backend.d16(&inputs).iter().map(|o| dwords(o.result, o.result_count)).collect()
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
        let inputs: Vec<d16::In> = lanes
            .iter()
            .map(|l| d16::In {
                valid: true,
                op: OP_STORE_FORMAT,
                hi: false,
                nfmt: t.nfmt,
                count: k,
                data: u128::from(l.data[0]) | u128::from(l.data[1]) << 32,
                old: 0,
            })
            .collect();
        backend.d16(&inputs).iter().map(|o| o.result).collect()
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

fn image_atomic(wave: &mut Wave, inst: &ImageInst, op: AtomicOp, lanes: &[ImageLane]) {
    let cmp_op = matches!(op, AtomicOp::Cmpswap | AtomicOp::Fcmpswap);
    let wide = inst.dmask == 0xf || (inst.dmask == 0x3 && !cmp_op);
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

fn get_resinfo(wave: &mut Wave, inst: &ImageInst, t: &crate::tsharp::TSharp, lanes: &[usize]) {
    // SPEC §4.4: (width, height, depth or layers, levels) of the mip in the address VGPR,
    // compacted by DMASK (DMASK = 0 as 0001, SPEC §3).
    let dmask = if inst.dmask == 0 { 1 } else { inst.dmask };
    let results: Vec<Vec<u32>> = lanes
        .iter()
        .map(|&lane| {
            let mipid = vgpr(wave, inst.vaddr, lane);
            let level = u32::from(t.base_level).saturating_add(mipid);
            let (w, h, layers, _) = level_size(t, inst.r128, level);
            let levels = u32::from(t.last_level).wrapping_sub(u32::from(t.base_level)).wrapping_add(1);
            let all = [w, h, layers, levels];
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

fn multi_texel_load(
    wave: &mut Wave,
    inst: &ImageInst,
    (lo, hi): (u128, u128),
    op: u8,
    backend: &mut impl Backend,
) -> Result<(), ExecError> {
    let t = crate::tsharp::TSharp::decode(lo, hi);
    let lanes: Vec<usize> = (0..LANES).filter(|&l| wave.active(l)).collect();
    let mut addr_in = Vec::with_capacity(lanes.len());
    for &lane in &lanes {
        let vgprs: Vec<u32> = (0..3).map(|i| vgpr(wave, inst.vaddr.wrapping_add(i), lane)).collect();
        // An unbound T# has no layout; its lanes read zeros (image_addr's group_valid is 0).
        let c = if t.is_bound() {
            image_addr::decode_vaddr(t.kind, inst.da, inst.mip, inst.a16, &vgprs).map_err(ExecError)?
        } else {
            image_addr::Coords::default()
        };
        addr_in.push(image_addr::In {
            valid: true,
            tsharp_lo: lo,
            tsharp_hi: hi,
            r128: inst.r128,
            op,
            mip: inst.mip,
            dmask: inst.dmask,
            d16: inst.d16,
            tfe: inst.tfe,
            da: inst.da,
            x: c.x,
            y: c.y,
            mipid: c.mipid,
        });
    }
    let addrs = backend.image_addr(&addr_in);
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

// ---------------------------------------------------------------------------------------------
// Decoded instructions (crate::isa) to the executor's terms.

fn atomic_op(op: crate::isa::AtomicOp) -> AtomicOp {
    use crate::isa::AtomicOp as A;
    match op {
        A::Swap => AtomicOp::Swap,
        A::Cmpswap => AtomicOp::Cmpswap,
        A::Add => AtomicOp::Add,
        A::Sub => AtomicOp::Sub,
        A::Smin => AtomicOp::Smin,
        A::Umin => AtomicOp::Umin,
        A::Smax => AtomicOp::Smax,
        A::Umax => AtomicOp::Umax,
        A::And => AtomicOp::And,
        A::Or => AtomicOp::Or,
        A::Xor => AtomicOp::Xor,
        A::Inc => AtomicOp::Inc,
        A::Dec => AtomicOp::Dec,
    }
}

fn d16_of(d: crate::isa::D16) -> D16 {
    match d {
        crate::isa::D16::No => D16::None,
        crate::isa::D16::Lo => D16::Lo,
        crate::isa::D16::Hi => D16::Hi,
    }
}

/// A decoded MUBUF or MTBUF instruction in executor terms; `Ok(None)` for the cache
/// invalidations, which change no state here.
pub fn lower_buffer(inst: &crate::isa::Instruction) -> Result<Option<BufferInst>, ExecError> {
    use crate::isa::{BufKind, Instruction};
    let b = match inst {
        Instruction::Mubuf(m) => {
            let info = m.info();
            let kind = match info.kind {
                BufKind::Load => BufferKind::Load,
                BufKind::Store => BufferKind::Store,
                BufKind::Atomic => BufferKind::Atomic(atomic_op(
                    info.atomic.ok_or_else(|| ExecError(format!("{} has no atomic operation", info.mnemonic)))?,
                )),
                BufKind::Invalidate => return Ok(None),
                BufKind::StoreLds => {
                    return Err(ExecError(format!("{}: LDS-to-memory stores are not in SPEC §10", info.mnemonic)))
                }
            };
            let access = match (info.format, info.bytes) {
                (true, _) => Access::Format { count: info.components, format: None },
                (false, Some(bytes)) => Access::Sized { bytes, signed: info.signed },
                (false, None) => return Err(ExecError(format!("{} moves no data", info.mnemonic))),
            };
            BufferInst {
                kind,
                access,
                d16: d16_of(info.d16),
                wide: info.x2,
                vaddr: m.vaddr,
                vdata: m.vdata,
                srsrc: m.srsrc.wrapping_mul(4),
                soffset: m.soffset,
                offset: m.offset,
                offen: m.offen,
                idxen: m.idxen,
                glc: m.glc,
                slc: m.slc,
                lds: m.lds,
                tfe: m.tfe,
            }
        }
        Instruction::Mtbuf(m) => {
            let info = m.info();
            BufferInst {
                kind: if info.store { BufferKind::Store } else { BufferKind::Load },
                access: Access::Format { count: info.components, format: Some((m.dfmt, m.nfmt)) },
                d16: if info.d16 { D16::Lo } else { D16::None },
                wide: false,
                vaddr: m.vaddr,
                vdata: m.vdata,
                srsrc: m.srsrc.wrapping_mul(4),
                soffset: m.soffset,
                offset: m.offset,
                offen: m.offen,
                idxen: m.idxen,
                glc: m.glc,
                slc: m.slc,
                lds: false,
                tfe: m.tfe,
            }
        }
        Instruction::Mimg(_) => return Err(ExecError("not a buffer instruction".into())),
    };
    Ok(Some(b))
}

/// A decoded MIMG instruction in executor terms. GFX9 encodes no r128 bit (bit 15 is A16), so
/// its T# is always 256 bits (docs/decisions.md). Sampling, gathers and GET_LOD need a filtering
/// texture unit that SPEC does not define: an error saying so.
pub fn lower_image(m: &crate::isa::Mimg) -> Result<ImageInst, ExecError> {
    use crate::isa::ImageKind as K;
    let info = m.info();
    let kind = match info.kind {
        K::Load => ImageKind::Load { pck: info.pck, sgn: info.sgn },
        K::Store if info.pck => {
            return Err(ExecError(format!("{}: image stores of raw (PCK) data are not in SPEC §4.4", info.mnemonic)))
        }
        K::Store => ImageKind::Store,
        K::Atomic => ImageKind::Atomic(atomic_op(
            info.atomic.ok_or_else(|| ExecError(format!("{} has no atomic operation", info.mnemonic)))?,
        )),
        K::Resinfo => ImageKind::GetResinfo,
        K::MultiTexel => ImageKind::MultiTexel {
            op: match (info.group, info.pck) {
                (2, false) => image_addr::OP_BY2,
                (4, false) => image_addr::OP_BY4,
                (2, true) => image_addr::OP_PCK2,
                _ => image_addr::OP_PCK4,
            },
        },
        K::Sample | K::Gather | K::GetLod => {
            return Err(ExecError(format!(
                "{}: sampling needs a filtering texture unit, whose semantics SPEC does not define; not executed",
                info.mnemonic
            )))
        }
    };
    Ok(ImageInst {
        kind,
        mip: info.mip,
        vaddr: m.vaddr,
        vdata: m.vdata,
        srsrc: m.srsrc.wrapping_mul(4),
        dmask: m.dmask,
        unorm: m.unorm,
        glc: m.glc,
        slc: m.slc,
        r128: false,
        tfe: m.tfe,
        lwe: m.lwe,
        da: m.da,
        d16: m.d16,
        a16: m.a16,
    })
}

/// Runs one decoded instruction on `wave`. On error nothing is applied.
pub fn run(wave: &mut Wave, inst: &crate::isa::Instruction, backend: &mut impl Backend) -> Result<(), ExecError> {
    match inst {
        crate::isa::Instruction::Mimg(m) => run_image(wave, &lower_image(m)?, backend),
        _ => match lower_buffer(inst)? {
            Some(b) => run_buffer(wave, &b, backend),
            None => Ok(()),
        },
    }
}
