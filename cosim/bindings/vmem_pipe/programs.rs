//! Random programs for the VMEM pipeline (SPEC §14, §15): buffer loads, stores and
//! atomics on a wave whose addresses are biased to reuse lines (hits after misses), straddle
//! blocks, conflict on banks, interleave loads after stores to the same bytes, and to wait with
//! `s_waitcnt vmcnt(N)`; in half the cases also image loads (formatted, PCK and PCK_SGN), stores
//! and atomics (every operation, with and without return, 32- and 64-bit) on one surface (linear
//! or tiled, every type and element size, mips and arrays, an unbound T# now and then) whose
//! lanes' coordinates are biased to 2×2 quads, quads of one texel, rows, block and level edges
//! and texels outside the level, on a quarter of the surfaces (2D R8, R16 or RG8) also
//! multi-texel loads with groups at the level's right edge; in a quarter of the cases also loads
//! into the LDS (M0 and LDS allocations that leave lanes outside it, an unbound V# now and then);
//! each with its own testbench configuration (L2 latency spread and
//! back-pressure, VGPR-port back-pressure, a reset in mid-run, the default or the small
//! pipeline). Every drawn instruction is one the executor runs
//! (an instruction the executor rejects is drawn again), so a program's result is always defined.
//! Drawing only: the binding ([`super`]) records traces of them, and the suite ([`super::suite`])
//! runs them against the RTL.

use gcn_vmem_model::exec::{self, Models, Wave, LANES};
use gcn_vmem_model::isa::{self, Instruction, MimgOp, MtbufOp, MubufOp, Waitcnt};
use gcn_vmem_model::tsharp;

use crate::engine::stimulus::Rng;
use super::testbench::Config;

/// One random program for the pipeline: its wave, its instructions and its testbench.
#[derive(Clone, Debug)]
pub struct PipeCase {
    pub wave: Wave,
    pub program: Vec<Instruction>,
    pub config: Config,
}

/// VGPRs the programs use: addresses v1..v4, data v8..v15.
const VADDR: u8 = 1;
const VDATA: u8 = 8;
/// The V#'s SGPRs.
const VSHARP_SGPR: usize = 4;
/// The T#'s SGPRs (s[8:15]).
const TSHARP_SGPR: usize = 8;
/// An image's address VGPRs: the layout's components one a dword (v16..v19, mipid last) and,
/// for A16, two a dword (v20, v21).
const VCOORD: u8 = 16;
const VCOORD16: u8 = 20;
/// Where an image surface starts, and the bytes of it filled with random data (the rest reads 0).
/// Its T# base field (0x1000) has bits 11:6 zero: the break-asserts build reads its key from the
/// resource's bits 11:6 (rtl/test/vmem_pipe_brk_*.svh), so the surface picks none until
/// [`with_key`] moves it.
const SURFACE: u64 = 0x10_0000;
const SURFACE_FILL: u64 = 0x2000;
/// The registers of a program's exec file ([`super::suite::to_exec_file`]), as `(first, count)`:
/// s1 (SOFFSET), the V#'s, and s[8:15], the executor suite's T# (the two suites' files have one
/// layout, `crate::exec::suite::FILE_SGPRS`).
pub const FILE_SGPRS: [(usize, usize); 3] = [(1, 1), (VSHARP_SGPR, 4), (TSHARP_SGPR, 8)];
/// The VGPRs of a program's exec file: the addresses, the data and the image coordinates.
pub const FILE_VGPRS: [u8; 18] = [
    VADDR,
    VADDR + 1,
    VADDR + 2,
    VADDR + 3,
    VDATA,
    VDATA + 1,
    VDATA + 2,
    VDATA + 3,
    VDATA + 4,
    VDATA + 5,
    VDATA + 6,
    VDATA + 7,
    VCOORD,
    VCOORD + 1,
    VCOORD + 2,
    VCOORD + 3,
    VCOORD16,
    VCOORD16 + 1,
];
/// The memory the V# points at, filled with random bytes.
const REGION: u64 = 0x4000;

/// A V# (SPEC §1.1): base, stride, num_records, dfmt/nfmt, no swizzle, no add_tid.
fn vsharp(base: u64, stride: u64, num_records: u32, dfmt: u8, nfmt: u8) -> u128 {
    u128::from(base & ((1 << 48) - 1))
        | u128::from(stride & 0x3fff) << 48
        | u128::from(num_records) << 64
        | 0xfac_u128 << 96 // dst_sel x, y, z, w
        | u128::from(nfmt & 7) << 108
        | u128::from(dfmt & 0xf) << 111
}

/// Lane addresses (offset VGPRs) with the patterns that matter to the TA and TCP.
fn offsets(rng: &mut Rng) -> [u32; LANES] {
    let pattern = rng.below(10);
    let shift = rng.below(4) as u32 * 4;
    std::array::from_fn(|l| {
        let l32 = l as u32;
        match pattern {
            // Consecutive dwords: one block per quad, fully coalesced.
            0 | 1 => 4 * l32,
            // Consecutive 8 and 16 bytes (multi-dword elements).
            2 => 8 * l32,
            3 => 16 * l32,
            // One line per lane, banks in turn; one bank, a new line each lane (conflicts).
            4 => 64 * l32,
            5 => 256 * l32 % 0x2000,
            // Misaligned: lanes straddle blocks.
            6 => 4 * l32 + 1 + shift % 3,
            // A few lines, reused.
            7 => 4 * (rng.below(48) as u32),
            // One bank, 1 KiB apart: 64 lines of one bank in one instruction, so the next
            // instruction to that bank evicts.
            9 => 1024 * l32 + 64 * shift,
            // Anywhere in the region.
            _ => (rng.below(REGION) as u32) & !3,
        }
    })
}

/// Draws one case; `len` is the number of buffer instructions (waits come on top).
pub fn draw(rng: &mut Rng, len: usize) -> PipeCase {
    let mut wave = Wave::default();
    let base = 0x10000 + 64 * rng.below(64) + if rng.chance(0.125) { 4 * rng.below(16) } else { 0 };
    let stride = rng.pick(&[0u64, 4, 16, 64, 256]);
    let num_records = if rng.chance(0.75) { 0x10_0000 } else { rng.below(0x2000) as u32 };
    let dfmt = rng.pick(&[1u8, 2, 4, 5, 7, 10, 11, 13, 14]);
    let nfmt = rng.pick(&[0u8, 1, 4, 5, 7]);
    let v = vsharp(base, stride, num_records, dfmt, nfmt);
    for i in 0..4 {
        wave.sgprs[VSHARP_SGPR + i] = (v >> (32 * i)) as u32;
    }
    wave.sgprs[1] = if rng.bit() { 0 } else { 4 * rng.below(16) as u32 };
    wave.exec = match rng.below(6) {
        0..=2 => u64::MAX,
        3 => rng.next_u64(),
        4 => 1 << rng.below(64),
        _ => 0xffff_ffff << (32 * rng.below(2)),
    };
    for v in VADDR..VADDR + 4 {
        wave.vgprs[usize::from(v)] = if v == VADDR + 3 {
            std::array::from_fn(|l| l as u32 % 8) // small indices
        } else {
            offsets(rng)
        };
    }
    for v in VDATA..VDATA + 8 {
        wave.vgprs[usize::from(v)] = std::array::from_fn(|_| rng.next_u32());
    }
    for k in 0..REGION / 4 {
        wave.memory.write(base + 4 * k, 4, u128::from(rng.next_u32()));
    }

    let config = Config {
        latency: match rng.below(3) {
            0 => (50, 50),
            1 => (1, 8),
            _ => (20, 120),
        },
        seed: rng.next_u64(),
        l2_stall: if rng.bit() { 0.0 } else { 0.3 },
        vgpr_stall: if rng.bit() { 0.0 } else { 0.3 },
        // A quarter reset in mid-run (with responses still owed, mostly), a third run at the
        // small configuration.
        reset: rng.chance(0.25).then(|| (1 + rng.below(400), 1 + rng.below(3) as u8)),
        small: rng.chance(1.0 / 3.0),
        ..Config::default()
    };

    let surface = rng.bit().then(|| Surface::draw(rng, &mut wave));
    // A quarter of the cases also load into the LDS (SPEC §2.5): M0 and an allocation that
    // leave lanes outside it at times; now and then an unbound V#.
    let lds = rng.chance(0.25);
    if lds {
        draw_lds(rng, &mut wave);
    }

    let mut program: Vec<Instruction> = Vec::new();
    let mut state = wave.clone();
    let mut models = Models::default();
    let mut placed = 0;
    let mut attempts = 0;
    while placed < len && attempts < 8 * len {
        attempts += 1;
        if !program.is_empty() && rng.chance(1.0 / 6.0) {
            let mut w = Waitcnt::new();
            w.vmcnt = rng.below(4) as u8;
            program.push(Instruction::Waitcnt(w));
        }
        let inst = match (rng.below(8), &surface) {
            // The same instruction again (hits), or a load with a store's addressing (reads
            // what it wrote).
            (0, _) if !program.is_empty() => repeat(rng, &program),
            (1..=4, Some(s)) => s.instruction(rng),
            (5 | 6, _) if lds => lds_instruction(rng),
            _ => instruction(rng),
        };
        let mut next = state.clone();
        if exec::run(&mut next, &inst, &mut models).is_ok() {
            state = next;
            program.push(inst);
            placed += 1;
        }
    }
    if rng.chance(0.125) {
        lru_scenario(&mut wave, &mut program);
    }
    PipeCase { wave, program, config }
}

/// M0 and the wave's LDS allocation of a case with LDS loads (SPEC §2.5; lane l's LDS dword at
/// 128·base + M0[15:0] + OFFSET + 4l, inside when its 4 bytes lie below 128·(base + size)): mostly
/// a small allocation that the 64 lanes' 256 bytes overrun at some M0 and OFFSET values (lanes
/// outside it), at times none, one that runs past the 64 KiB LDS (bytes dropped), or a large
/// one; now and then the V# unbound or only a few records long (LDS lanes without a memory
/// access write 0 or 1).
fn draw_lds(rng: &mut Rng, wave: &mut Wave) {
    let (base, size) = match rng.below(8) {
        0 => (rng.below(4), 0),
        1 => (511, 1 + rng.below(4)),
        2 => (rng.below(16), 511),
        _ => (rng.below(4), 1 + rng.below(3)),
    };
    wave.lds.base = base as u16;
    wave.lds.size = size as u16;
    let low = match rng.below(4) {
        0 => 0,
        1 => 4 * rng.below(32) as u32,
        2 => rng.below(0x400) as u32 & !3,
        _ => 0x80,
    };
    wave.m0 = (rng.next_u32() & 0xffff_0000) | low;
    match rng.below(8) {
        // dfmt (bits 114:111) 0: unbound.
        0 => wave.sgprs[VSHARP_SGPR + 3] &= !(0xf << 15),
        // num_records (bits 95:64) small: lanes out of memory range inside the allocation.
        1 | 2 => wave.sgprs[VSHARP_SGPR + 2] = rng.below(0x100) as u32,
        _ => {}
    }
}

/// A random load into the LDS: BUFFER_LOAD_{UBYTE, SBYTE, USHORT, SSHORT, DWORD, FORMAT_X} with
/// `lds` = 1 (no TFE: SPEC §2.5).
fn lds_instruction(rng: &mut Rng) -> Instruction {
    let op = rng.pick(&[
        MubufOp::LoadUbyte,
        MubufOp::LoadSbyte,
        MubufOp::LoadUshort,
        MubufOp::LoadSshort,
        MubufOp::LoadDword,
        MubufOp::LoadFormatX,
    ]);
    let Instruction::Mubuf(base) = instruction_of(rng, Some(op)) else { unreachable!("a MUBUF op") };
    Instruction::Mubuf(isa::Mubuf { lds: true, tfe: false, ..base })
}

/// The image surface of a case: its T# in s[8:15] and its lanes' coordinates in v16..v21.
#[derive(Clone, Copy, Debug)]
struct Surface {
    /// DA for every image instruction of the case (the coordinate VGPRs follow its layout).
    da: bool,
    /// The element bytes of its dfmt (SPEC §1.4; 0 for an unbound T#).
    bytes: u32,
    /// A surface the multi-texel loads read ([`multi_texel_surface`]): its dfmt and nfmt.
    multi: Option<(u8, u8)>,
}

impl Surface {
    /// Draws a surface (SPEC §1.2, §4.5) and writes its T#, coordinates and texels into `wave`.
    fn draw(rng: &mut Rng, wave: &mut Wave) -> Surface {
        use tsharp::{TYPE_1D, TYPE_1D_ARRAY, TYPE_2D, TYPE_2D_ARRAY, TYPE_3D, TYPE_CUBE};
        // Half linear; tiled modes only on 2D surfaces of 1-, 2-, 4-, 8- or 16-byte elements.
        let sw_mode = if rng.bit() { 0 } else { rng.pick(&[1u8, 5, 9]) };
        let (kind, dfmt) = if sw_mode == 0 {
            (
                rng.pick(&[TYPE_1D, TYPE_2D, TYPE_2D, TYPE_3D, TYPE_CUBE, TYPE_1D_ARRAY, TYPE_2D_ARRAY]),
                1 + rng.below(14) as u8,
            )
        } else {
            (rng.pick(&[TYPE_2D, TYPE_2D, TYPE_2D_ARRAY]), rng.pick(&[1u8, 2, 3, 4, 5, 10, 11, 12, 14]))
        };
        // One in sixteen unbound (dfmt 0): loads read 0, stores are dropped.
        let dfmt = if rng.chance(1.0 / 16.0) { 0 } else { dfmt };
        let nfmt = rng.pick(&[0u8, 1, 4, 4, 5, 7]);
        let multi = rng.chance(0.25).then(|| multi_texel_surface(rng));
        let (kind, dfmt, nfmt) = multi.unwrap_or((kind, dfmt, nfmt));
        let multi = multi.map(|(_, dfmt, nfmt)| (dfmt, nfmt));
        let width = 1 + rng.below(48);
        let height = 1 + rng.below(40);
        let pitch = width + rng.pick(&[0, 0, 1, 16]);
        let depth = 1 + rng.below(3);
        let last_level = rng.below(4);
        let base_level = rng.below(last_level + 1).min(1);
        let max_mip = if rng.chance(0.25) { rng.below(4) } else { 15 };
        let dst_sel: u128 = if rng.chance(0.75) {
            0xfac // x, y, z, w
        } else {
            (0..4).fold(0, |acc, c| acc | u128::from(rng.pick(&[0u8, 1, 4, 5, 6, 7])) << (3 * c))
        };
        let lo = u128::from(SURFACE >> 8)
            | u128::from(dfmt) << 52
            | u128::from(nfmt) << 58
            | u128::from(width - 1) << 64
            | u128::from(height - 1) << 78
            | dst_sel << 96
            | u128::from(base_level) << 108
            | u128::from(last_level) << 112
            | u128::from(sw_mode) << 116
            | u128::from(kind) << 124;
        let hi = u128::from(depth - 1) | u128::from(pitch - 1) << 13 | u128::from(max_mip) << 60;
        for k in 0..4 {
            wave.sgprs[TSHARP_SGPR + k] = (lo >> (32 * k)) as u32;
            wave.sgprs[TSHARP_SGPR + 4 + k] = (hi >> (32 * k)) as u32;
        }
        for k in 0..SURFACE_FILL / 4 {
            wave.memory.write(SURFACE + 4 * k, 4, u128::from(rng.next_u32()));
        }

        // The coordinates: x and y by a pattern, the layer and the mip mostly inside.
        let array = matches!(kind, TYPE_1D_ARRAY | TYPE_2D_ARRAY);
        let da = if array { rng.chance(0.9) } else { multi.is_none() && rng.chance(0.1) };
        let layers = match kind {
            TYPE_CUBE => 6 * depth,
            TYPE_3D | TYPE_1D_ARRAY | TYPE_2D_ARRAY => depth,
            _ => 1,
        };
        let (mut x, y) = coordinates(rng, width as u32, height as u32);
        if multi.is_some() && rng.bit() {
            // Groups at the level's right edge: x from width − 4 to width + 1, unaligned.
            x = std::array::from_fn(|_| (width as u32).saturating_sub(4) + rng.below(6) as u32);
        }
        let near = |rng: &mut Rng, n: u64| if rng.chance(0.875) { rng.below(n) } else { n + rng.below(2) } as u32;
        let slice: [u32; LANES] = std::array::from_fn(|_| near(rng, layers));
        let mip: [u32; LANES] = std::array::from_fn(|_| near(rng, last_level + 1));
        // SPEC §4.1's layout (rust/exec/image_vaddr.rs): x, then y (not 1D), then the layer
        // (3D z and cube face_id always, array slice and the ignored one with DA), then mipid.
        let mut components = vec![x];
        if !matches!(kind, TYPE_1D | TYPE_1D_ARRAY) {
            components.push(y);
        }
        if matches!(kind, TYPE_3D | TYPE_CUBE) || da {
            components.push(slice);
        }
        components.push(mip);
        for (i, c) in components.iter().enumerate() {
            wave.vgprs[usize::from(VCOORD) + i] = *c;
            let packed = &mut wave.vgprs[usize::from(VCOORD16) + i / 2];
            for l in 0..LANES {
                let half = (c[l] & 0xffff) << (16 * (i % 2));
                packed[l] = if i % 2 == 0 { half } else { packed[l] | half };
            }
        }
        Surface { da, bytes: gcn_vmem_model::format::element_bytes(dfmt), multi }
    }

    /// A random IMAGE_LOAD, LOAD_MIP, STORE or STORE_MIP, PCK load (`pck`) or atomic (`atomic`)
    /// on the surface; on a multi-texel surface half of them multi-texel loads
    /// ([`multi_texel_instruction`]).
    fn instruction(&self, rng: &mut Rng) -> Instruction {
        if let Some((dfmt, nfmt)) = self.multi.filter(|_| rng.bit()) {
            return multi_texel_instruction(rng, dfmt, nfmt);
        }
        let k = rng.weighted(&[6, 1, 2, 1, 2, 3, 1]);
        let op = match k {
            4 => return self.pck(rng),
            6 => return self.resinfo(rng),
            5 => match self.atomic(rng) {
                Some(m) => return m,
                None => MimgOp::Load,
            },
            _ => [MimgOp::Load, MimgOp::LoadMip, MimgOp::Store, MimgOp::StoreMip][k],
        };
        let store = op.info().is_store();
        let dmask = match rng.below(4) {
            0 => 0x1,
            1 => 0xf,
            _ if store => 1 + rng.below(15) as u8,
            _ => rng.below(16) as u8,
        };
        let mut m = self.mimg(rng, op);
        m.dmask = dmask;
        m.d16 = rng.chance(0.15);
        m.tfe = !store && rng.chance(0.125);
        m.glc = rng.chance(0.25);
        Instruction::Mimg(m)
    }

    /// The image bits every instruction on the surface shares: UNRM (stores and atomics need
    /// it, SPEC §4.4), DA, A16 now and then, the T# and the coordinate VGPRs.
    fn mimg(&self, rng: &mut Rng, op: MimgOp) -> isa::Mimg {
        let mut m = isa::Mimg::new(op);
        m.unorm = true;
        m.da = self.da;
        m.a16 = rng.chance(0.2);
        m.vaddr = if m.a16 { VCOORD16 } else { VCOORD };
        m.vdata = VDATA + rng.below(4) as u8;
        m.srsrc = (TSHARP_SGPR / 4) as u8;
        m.slc = rng.chance(0.25);
        m
    }

    /// A random IMAGE_GET_RESINFO: its mipid is the lane's first coordinate dword (small x:
    /// levels that exist; larger ones and A16's packed pairs: levels that do not), any DMASK,
    /// TFE now and then.
    fn resinfo(&self, rng: &mut Rng) -> Instruction {
        let mut m = self.mimg(rng, MimgOp::GetResinfo);
        m.dmask = rng.below(16) as u8;
        m.tfe = rng.chance(0.25);
        Instruction::Mimg(m)
    }

    /// A random IMAGE_LOAD_PCK, LOAD_PCK_SGN, LOAD_MIP_PCK or LOAD_MIP_PCK_SGN (no D16: SPEC §6),
    /// any DMASK (0 reads component 0), TFE and GLC now and then.
    fn pck(&self, rng: &mut Rng) -> Instruction {
        let op = [MimgOp::LoadPck, MimgOp::LoadPckSgn, MimgOp::LoadMipPck, MimgOp::LoadMipPckSgn][rng.below(4) as usize];
        let mut m = self.mimg(rng, op);
        m.dmask = match rng.below(4) {
            0 => 0x1,
            1 => 0xf,
            _ => rng.below(16) as u8,
        };
        m.tfe = rng.chance(0.125);
        m.glc = rng.chance(0.25);
        Instruction::Mimg(m)
    }

    /// A random IMAGE_ATOMIC_* (every operation), GLC half the time, 32- or 64-bit (SPEC §10.1:
    /// DMASK 0x1 or 0x3, compare-swap 0x3 or 0xF); `None` when the surface's elements would put
    /// the atomic's bytes off its alignment. A 32-bit atomic needs elements of a multiple of 4
    /// bytes (its dword aligned); a 64-bit one elements of 8 or 16 bytes (8-byte aligned, so
    /// never across a 64-byte line, which the executor refuses); an unbound T# (no element)
    /// takes both.
    fn atomic(&self, rng: &mut Rng) -> Option<Instruction> {
        const OPS: [MimgOp; 13] = [
            MimgOp::AtomicSwap,
            MimgOp::AtomicCmpswap,
            MimgOp::AtomicAdd,
            MimgOp::AtomicSub,
            MimgOp::AtomicSmin,
            MimgOp::AtomicUmin,
            MimgOp::AtomicSmax,
            MimgOp::AtomicUmax,
            MimgOp::AtomicAnd,
            MimgOp::AtomicOr,
            MimgOp::AtomicXor,
            MimgOp::AtomicInc,
            MimgOp::AtomicDec,
        ];
        if !self.bytes.is_multiple_of(4) {
            return None;
        }
        // Compare-swaps a quarter of the time (the two-lanes-a-cycle bundles).
        let op = if rng.chance(0.25) { MimgOp::AtomicCmpswap } else { rng.pick(&OPS) };
        let wide = matches!(self.bytes, 0 | 8 | 16) && rng.chance(0.4);
        let mut m = self.mimg(rng, op);
        m.dmask = match (wide, op == MimgOp::AtomicCmpswap) {
            (false, false) => 0x1,
            (false, true) | (true, false) => 0x3,
            (true, true) => 0xf,
        };
        m.glc = rng.bit();
        Some(Instruction::Mimg(m))
    }
}

/// The type, dfmt and nfmt of a surface the multi-texel loads read (SPEC §4.3's table): 2D, R8,
/// R16 or RG8 in an nfmt of one of its rows (unorm, uint, sint take every op; snorm the BY ops;
/// float BY2 on R16 only); one in eight unbound (dfmt 0, or a type below 8).
fn multi_texel_surface(rng: &mut Rng) -> (u8, u8, u8) {
    use gcn_vmem_model::image_addr::FORMAT_TABLE;
    let row = rng.pick(&FORMAT_TABLE);
    let nfmt = rng.pick(row.nfmts);
    match rng.below(16) {
        0 => (tsharp::TYPE_2D, 0, nfmt),
        1 => (rng.below(8) as u8, row.dfmt, nfmt),
        _ => (tsharp::TYPE_2D, row.dfmt, nfmt),
    }
}

/// A multi-texel load (IMAGE_LOAD_BY2, BY4, PCK2, PCK4 or a _MIP form) on a surface of `dfmt`
/// and `nfmt`: an op whose row takes them, with the row's DMASK (an unbound surface: any row's
/// op, now and then any DMASK); TFE, D16 and DA 0, A16 now and then.
fn multi_texel_instruction(rng: &mut Rng, dfmt: u8, nfmt: u8) -> Instruction {
    use gcn_vmem_model::image_addr::FORMAT_TABLE;
    let rows: Vec<_> = FORMAT_TABLE.iter().filter(|r| r.dfmt == dfmt && r.nfmts.contains(&nfmt)).collect();
    let row = if rows.is_empty() { rng.pick(&FORMAT_TABLE) } else { *rng.pick(&rows) };
    let mip = rng.bit();
    let op = match (row.op, mip) {
        (0, false) => MimgOp::LoadBy2,
        (1, false) => MimgOp::LoadBy4,
        (2, false) => MimgOp::LoadPck2,
        (3, false) => MimgOp::LoadPck4,
        (0, true) => MimgOp::LoadMipBy2,
        (1, true) => MimgOp::LoadMipBy4,
        (2, true) => MimgOp::LoadMipPck2,
        _ => MimgOp::LoadMipPck4,
    };
    let mut m = isa::Mimg::new(op);
    m.dmask = if rows.is_empty() && rng.bit() { rng.below(16) as u8 } else { row.dmask };
    m.unorm = true;
    m.a16 = rng.chance(0.2);
    m.vaddr = if m.a16 { VCOORD16 } else { VCOORD };
    m.vdata = VDATA + rng.below(4) as u8;
    m.srsrc = (TSHARP_SGPR / 4) as u8;
    m.glc = rng.chance(0.25);
    m.slc = rng.chance(0.25);
    Instruction::Mimg(m)
}

/// Per-lane (x, y) of an image access in a `width` × `height` level 0: 2×2 quads (lane 4q + i at
/// (x0 + 2(q mod 4) + i mod 2, y0 + 2⌊q/4⌋ + ⌊i/2⌋), as a pixel shader's quads), quads whose
/// four lanes read one texel (x0 + 2(q mod 4), y0 + 2⌊q/4⌋): atomics of one quad on one address),
/// rows of eight, the texels around a tiled block's edge (16 and 32 texels), or anywhere, a texel
/// or two past the level now and then.
fn coordinates(rng: &mut Rng, width: u32, height: u32) -> ([u32; LANES], [u32; LANES]) {
    let (x0, y0) = (rng.below(u64::from(width)) as u32 & !1, rng.below(u64::from(height)) as u32 & !1);
    let mut x = [0; LANES];
    let mut y = [0; LANES];
    let pattern = rng.below(5);
    for l in 0..LANES {
        let (q, i) = (l as u32 / 4, l as u32 % 4);
        (x[l], y[l]) = match pattern {
            0 => (x0 + 2 * (q % 4) + i % 2, y0 + 2 * (q / 4) + i / 2),
            1 => (x0 + l as u32 % 8, y0 + l as u32 / 8),
            4 => (x0 + 2 * (q % 4), y0 + 2 * (q / 4)),
            2 => {
                let edge = rng.pick(&[16u32, 32]);
                (edge - 2 + l as u32 % 4, edge - 2 + l as u32 / 4 % 4)
            }
            _ => (rng.below(u64::from(width) + 2) as u32, rng.below(u64::from(height) + 2) as u32),
        };
    }
    (x, y)
}

/// One bank's LRU order at work, which random addresses rarely reach: 32 lines of bank 0 from
/// v1 (lane stride 1 KiB, lanes 32..63 repeating 0..31), 32 more from v2 (the bank is full), a
/// hit on the first line from v3 (consecutive dwords: it becomes the most recently used), 32
/// new lines from v4 (32 evictions: the least recently used, not the line just hit), then v3
/// again (a hit only if the LRU order kept that line). Replaces the program and those VGPRs.
pub fn lru_scenario(wave: &mut Wave, program: &mut Vec<Instruction>) {
    let lines = |offset: u32| -> [u32; LANES] { std::array::from_fn(|l| 1024 * (l as u32 % 32) + offset) };
    wave.vgprs[usize::from(VADDR)] = lines(0);
    wave.vgprs[usize::from(VADDR + 1)] = lines(256);
    wave.vgprs[usize::from(VADDR + 2)] = std::array::from_fn(|l| 4 * l as u32);
    wave.vgprs[usize::from(VADDR + 3)] = lines(512);
    wave.exec = u64::MAX;
    wave.sgprs[1] = 0;
    program.clear();
    for (vaddr, vdata) in [(0, 0), (1, 1), (2, 2), (3, 3), (2, 4)] {
        let mut m = isa::Mubuf::new(MubufOp::LoadDword);
        (m.offen, m.vaddr, m.vdata, m.soffset) = (true, VADDR + vaddr, VDATA + vdata, 128);
        m.srsrc = (VSHARP_SGPR / 4) as u8;
        program.push(Instruction::Mubuf(m));
    }
}

/// A buffer instruction of the program again, or the load of a store's bytes.
fn repeat(rng: &mut Rng, program: &[Instruction]) -> Instruction {
    let buffers: Vec<&Instruction> = program.iter().filter(|i| !matches!(i, Instruction::Waitcnt(_))).collect();
    let Some(&&prev) = buffers.get(rng.below(buffers.len().max(1) as u64) as usize) else {
        return instruction(rng);
    };
    match prev {
        Instruction::Mubuf(m) if m.info().is_store() && rng.bit() => {
            let load = MubufOp::ALL
                .iter()
                .copied()
                .find(|op| {
                    op.info().is_load() && op.info().bytes == m.info().bytes && op.info().format == m.info().format
                })
                .unwrap_or(MubufOp::ALL[0]);
            let mut l = isa::Mubuf::new(load);
            (l.offset, l.offen, l.idxen, l.vaddr, l.srsrc, l.soffset) =
                (m.offset, m.offen, m.idxen, m.vaddr, m.srsrc, m.soffset);
            l.vdata = VDATA + 4;
            Instruction::Mubuf(l)
        }
        other => other,
    }
}

/// A random MUBUF or MTBUF load, store or atomic (no LDS loads).
fn instruction(rng: &mut Rng) -> Instruction {
    instruction_of(rng, None)
}

/// [`instruction`], or with `op` that MUBUF operation and random operands.
fn instruction_of(rng: &mut Rng, op: Option<MubufOp>) -> Instruction {
    let inline = 129 + rng.below(16) as u8;
    let soffset = rng.pick(&[128u8, 1, inline]);
    let offset = if rng.chance(0.75) { 4 * rng.below(16) as u16 } else { rng.below(4096) as u16 };
    let vaddr = VADDR + rng.below(3) as u8;
    let idxen = rng.chance(0.2);
    // With idxen the index comes from v4 (small indices); the offset after it.
    let vaddr = if idxen { VADDR + 3 } else { vaddr };
    let offen = !idxen || rng.bit();
    let vdata = VDATA + rng.below(4) as u8;
    if let Some(op) = op {
        let mut m = isa::Mubuf::new(op);
        (m.offset, m.offen, m.idxen, m.vaddr, m.vdata, m.soffset) = (offset, offen, idxen, vaddr, vdata, soffset);
        m.srsrc = (VSHARP_SGPR / 4) as u8;
        m.glc = rng.chance(0.25);
        m.slc = rng.chance(0.25);
        Instruction::Mubuf(m)
    } else if rng.chance(0.8) {
        let kind = rng.weighted(&[5, 3, 2]);
        let ops: Vec<MubufOp> = MubufOp::ALL
            .iter()
            .copied()
            .filter(|op| {
                let i = op.info();
                match kind {
                    0 => i.is_load(),
                    1 => i.is_store(),
                    _ => i.is_atomic(),
                }
            })
            .collect();
        let mut m = isa::Mubuf::new(rng.pick(&ops));
        (m.offset, m.offen, m.idxen, m.vaddr, m.vdata, m.soffset) = (offset, offen, idxen, vaddr, vdata, soffset);
        m.srsrc = (VSHARP_SGPR / 4) as u8;
        m.glc = rng.chance(0.25);
        m.slc = rng.chance(0.25);
        m.tfe = m.info().is_load() && rng.chance(0.125);
        Instruction::Mubuf(m)
    } else {
        let mut m = isa::Mtbuf::new(rng.pick(MtbufOp::ALL));
        (m.offset, m.offen, m.idxen, m.vaddr, m.vdata, m.soffset) = (offset, offen, idxen, vaddr, vdata, soffset);
        m.srsrc = (VSHARP_SGPR / 4) as u8;
        m.dfmt = rng.pick(&[1u8, 2, 4, 5, 7, 10, 11, 13, 14]);
        m.nfmt = rng.pick(&[0u8, 1, 4, 5, 7]);
        m.glc = rng.chance(0.25);
        m.tfe = !m.info().store && rng.chance(0.125);
        Instruction::Mtbuf(m)
    }
}

/// `n` cases of up to `length` buffer instructions from `seed` (chunk c of the seed for case c,
/// so a case depends on the seed and its number only).
pub fn draw_cases(n: u64, length: usize, seed: u64) -> Vec<PipeCase> {
    (0..n).map(|c| draw_case(seed, length, c)).collect()
}

/// Case `index` of the cases of up to `length` buffer instructions from `seed` ([`draw_cases`]).
pub fn draw_case(seed: u64, length: usize, index: u64) -> PipeCase {
    let mut rng = Rng::for_chunk(seed ^ 0x7069_7065, index);
    let len = 1 + rng.below(length as u64) as usize;
    draw(&mut rng, len)
}

/// `case` with the break-asserts key `key` (rtl/test/vmem_pipe_brk_*.svh: bits 11:6 of the
/// resource in the header of the TA's instruction buffer 0) in its V#, the base address's bits
/// 11:6, and, when it has a surface, in its T#, the base field's bits 11:6 (the address's bits
/// 19:14), the surface's filled bytes moved along. The program stays one the executor runs:
/// nothing in it depends on those bits.
pub fn with_key(case: &PipeCase, key: u32) -> PipeCase {
    let mut case = case.clone();
    let wave = &mut case.wave;
    wave.sgprs[VSHARP_SGPR] = (wave.sgprs[VSHARP_SGPR] & !0xfc0) | key << 6;
    if wave.sgprs[TSHARP_SGPR..TSHARP_SGPR + 8].iter().any(|&d| d != 0) {
        debug_assert_eq!(wave.sgprs[TSHARP_SGPR] & 0xfc0, 0, "the surface starts at SURFACE");
        wave.sgprs[TSHARP_SGPR] |= key << 6;
        let moved = SURFACE + (u64::from(key) << 14);
        for a in 0..SURFACE_FILL {
            let byte = wave.memory.read_byte(SURFACE + a);
            wave.memory.write_byte(SURFACE + a, 0);
            wave.memory.write_byte(moved + a, byte);
        }
    }
    case
}

/// A program with the text of each instruction (for errors and timings).
pub fn with_text(program: &[Instruction]) -> Vec<(Instruction, String)> {
    program.iter().map(|i| (*i, isa::disassemble(i))).collect()
}

/// The executor's result of `program` on `wave` (SPEC §10): the reference every pipeline run
/// must equal. `Err`: the executor's error, naming the instruction (SPEC §13.1).
pub fn reference(program: &[(Instruction, String)], wave: &Wave) -> Result<Wave, String> {
    let mut w = wave.clone();
    let mut models = Models::default();
    for (n, (inst, text)) in program.iter().enumerate() {
        let name = || format!("instruction {n} (`{text}`)");
        exec::run(&mut w, inst, &mut models).map_err(|e| format!("{}: {e}", name()))?;
    }
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawn_programs_mix_buffer_and_image_instructions_the_executor_runs() {
        let cases = draw_cases(1000, 8, 1);
        let mut ops = std::collections::BTreeMap::new();
        let (mut buffers, mut images, mut tiled, mut d16, mut a16) = (0, 0, 0, 0, 0);
        let mut atomics = [0usize; 4];
        let (mut multi_texel, mut multi_mip) = (std::collections::BTreeSet::new(), false);
        for case in &cases {
            reference(&with_text(&case.program), &case.wave).expect("every drawn program runs on the executor");
            let t = tsharp::TSharp::decode(
                case.wave.descriptor(TSHARP_SGPR as u8).unwrap(),
                case.wave.descriptor(TSHARP_SGPR as u8 + 4).unwrap(),
            );
            for inst in &case.program {
                match inst {
                    Instruction::Mimg(m) if m.op.info().kind == isa::ImageKind::MultiTexel => {
                        multi_texel.insert(m.op.info().mnemonic.replace("_mip", ""));
                        multi_mip |= m.op.info().mip;
                    }
                    Instruction::Mimg(m) => {
                        images += 1;
                        *ops.entry(m.op.info().mnemonic).or_insert(0) += 1;
                        tiled += usize::from(t.sw_mode != 0);
                        d16 += usize::from(m.d16);
                        a16 += usize::from(m.a16);
                        if m.op.info().atomic.is_some() {
                            // [no return, return, 64-bit, compare-swap]
                            for (k, on) in [!m.glc, m.glc, m.dmask == 0xf || (m.dmask == 0x3 && m.op != MimgOp::AtomicCmpswap), m.op == MimgOp::AtomicCmpswap].into_iter().enumerate() {
                                atomics[k] += usize::from(on);
                            }
                        }
                    }
                    Instruction::Mubuf(_) | Instruction::Mtbuf(_) => buffers += 1,
                    Instruction::Waitcnt(_) => {}
                }
            }
        }
        assert!(images * 5 > buffers, "{images} image and {buffers} buffer instructions");
        // Loads, stores, their _MIP forms, the four PCK loads, every atomic operation and
        // GET_RESINFO.
        assert_eq!(ops.len(), 8 + 13 + 1, "{ops:?}");
        assert!(multi_texel.len() == 4 && multi_mip, "BY2, BY4, PCK2, PCK4 and a _MIP form: {multi_texel:?}");
        assert!(tiled * 4 > images && d16 * 20 > images && a16 * 10 > images, "{tiled} {d16} {a16} of {images}");
        assert!(atomics.iter().all(|&n| n * 100 > images), "atomics [no return, return, 64-bit, compare-swap] {atomics:?} of {images}");
    }

    #[test]
    fn drawn_programs_load_into_the_lds_with_lanes_outside_the_allocation() {
        let cases = draw_cases(200, 8, 2);
        let (mut lds_loads, mut outside, mut inside) = (0, 0, 0);
        for case in &cases {
            let mut wave = case.wave.clone();
            let mut models = Models::default();
            for inst in &case.program {
                // Image instructions are not buffer instructions (lower_buffer refuses them);
                // exec::run below checks every instruction.
                let buffer = matches!(inst, Instruction::Mubuf(_) | Instruction::Mtbuf(_));
                if let Some(b) = buffer.then(|| exec::lower_buffer(inst).unwrap()).flatten().filter(|b| b.lds) {
                    lds_loads += 1;
                    assert!(!b.tfe && b.kind == exec::BufferKind::Load);
                    for (_, a) in exec::lane_addresses(&wave, &b).unwrap() {
                        if a.lds_in_range {
                            inside += 1;
                        } else {
                            outside += 1;
                        }
                    }
                }
                exec::run(&mut wave, inst, &mut models).expect("every drawn program runs on the executor");
            }
        }
        assert!(lds_loads > 20 && outside > 0 && inside > outside / 4, "{lds_loads} {outside} {inside}");
    }

    /// The drawn multi-texel loads run on the model (the testbench and the model alone, no RTL)
    /// as on the executor, and reach every "multi-texel" coverage bin.
    #[test]
    fn drawn_multi_texel_loads_run_on_the_model_as_on_the_executor_and_reach_their_bins() {
        use super::super::testbench::{first_difference, Testbench};
        use gcn_vmem_model::cover::{Covered as _, Hits};
        use gcn_vmem_model::unit::Unit as _;
        use gcn_vmem_model::vmem_pipe::{cover, In, Out, VmemPipe};
        let multi = |i: &Instruction| matches!(i, Instruction::Mimg(m) if m.op.info().kind == isa::ImageKind::MultiTexel);
        let group = VmemPipe::covergroup();
        let point = group.points.iter().position(|p| p.name == "multi-texel").expect("the multi-texel point");
        let mut hits = Hits::new(&group);
        for case in draw_cases(400, 8, 3).iter().filter(|c| c.program.iter().any(multi)) {
            let program = with_text(&case.program);
            let expected = reference(&program, &case.wave).expect("the executor runs every drawn program");
            let mut tb = Testbench::new(&program, &case.wave, case.config).expect("the pipeline takes the program");
            let mut model = super::super::model_for(case.config.small);
            model.set_reset(true);
            model.step(&In::default());
            let (mut out, mut before, mut held) = (model.set_reset(false), Out::default(), false);
            while !tb.finished() {
                assert!(tb.cycle() < case.config.max_cycles, "{}", super::super::testbench::hang_message(&tb));
                tb.see_stages(&model);
                let step = tb.step(&out);
                out = crate::engine::lockstep::drive_unit(&mut model, &mut held, &step);
                cover::sample_events(model.events(), &mut hits);
                cover::sample_cycle(&before, &step.input, &out, &mut hits);
                before = out;
            }
            assert_eq!(first_difference(&tb.final_wave(), &expected), None, "{program:#?}");
        }
        let missed: Vec<&String> =
            group.points[point].bins.iter().zip(hits.counts(point)).filter(|(_, &n)| n == 0).map(|(b, _)| b).collect();
        assert!(missed.is_empty(), "multi-texel bins not reached: {missed:?}");
    }
}
