//! GFX9 (gfx900, Vega) vector-memory instructions (and `s_waitcnt`, [`Waitcnt`]) in three equivalent forms: decoded fields
//! ([`Instruction`]), raw encodings ([`decode`], [`encode`]) and LLVM assembly ([`disassemble`],
//! [`assemble`]).
//!
//! Spec: docs/spec.md §10, §13.1; seed 000 tables 26 (MUBUF/MTBUF fields) and 35 (MIMG fields).
//! Tests: rust/tests/isa.rs (LLVM's MC test vectors), tests/isa_llvm.rs (llvm-mc-14 differential).
//!
//! Bit layout (LSB0; dword 0 holds bits 31:0, dword 1 bits 63:32):
//!
//! | field | MUBUF | MTBUF | MIMG |
//! |---|---|---|---|
//! | OFFSET | 11:0 | 11:0 | — |
//! | OFFEN, IDXEN, GLC | 12, 13, 14 | 12, 13, 14 | — |
//! | DMASK, UNORM, GLC, DA, A16 | — | — | 11:8, 12, 13, 14, 15 |
//! | LDS | 16 | — | — |
//! | SLC | 17 | 54 | 25 |
//! | OP | 24:18 (7) | 18:15 (4) | 24:18 (7) |
//! | DFMT, NFMT | — | 22:19, 25:23 | — |
//! | TFE, LWE | 55, — | 55, — | 16, 17 |
//! | ENCODING (31:26) | 0b111000 | 0b111010 | 0b111100 |
//! | VADDR, VDATA | 39:32, 47:40 | 39:32, 47:40 | 39:32, 47:40 |
//! | SRSRC (SGPR / 4) | 52:48 | 52:48 | 52:48 |
//! | SSAMP (SGPR / 4) | — | — | 57:53 |
//! | SOFFSET | 63:56 | 63:56 | — |
//! | D16 | — | — | 63 |
//! | reserved (must be 0) | 15, 25, 54:53 | 53 | 7:0, 62:58 |
//!
//! Bit 15 of MIMG is A16 on GFX9 (it was R128 on GFX8; GFX9 has no R128, the T# is always eight
//! SGPRs in its encoding). The reserved bits are rejected by [`decode`] (LLVM ignores most of
//! them; docs/decisions.md "Instruction encodings").
//!
//! `s_waitcnt` (SPEC §14.1) is the one scalar instruction: SOPP (bits 31:23 = 0b1_0111_1111),
//! OP (22:16) = 12, SIMM16 (15:0) with vmcnt in bits 3:0 and 15:14 (its high bits), expcnt in
//! 6:4 and lgkmcnt in 11:8; one dword. Bits 7, 12 and 13 of SIMM16 belong to no counter: a bare
//! immediate (`s_waitcnt 0x3f70`) keeps them, the text drops them.
//!
//! Which encodings are valid follows LLVM's gfx900 disassembler (llvm-mc-14): an opcode GFX9 has,
//! register tuples that exist, SSAMP = 0 without a sampler, D16 only where the opcode allows it,
//! LDS only on the loads that can target LDS. Fields that LLVM's assembly cannot express (VADDR
//! with `off`, TFE on atomics and LDS loads, the operands of BUFFER_WBINVL1) are kept by
//! [`decode`] and [`encode`] but dropped by [`disassemble`]; [`Instruction::canonical`] clears
//! them, giving what assembling the text encodes.
//!
//! ```
//! use gcn_vmem_model::isa::{self, Instruction, MubufOp};
//!
//! let inst = isa::assemble("buffer_load_dword v1, v2, s[4:7], s1 offen offset:4 glc").unwrap();
//! let Instruction::Mubuf(m) = &inst else { unreachable!() };
//! assert_eq!((m.op, m.vdata, m.vaddr, m.srsrc, m.soffset, m.offset), (MubufOp::LoadDword, 1, 2, 1, 1, 4));
//! assert!(m.offen && m.glc);
//! let words = isa::encode(&inst);
//! assert_eq!(words, [0xe050_5004, 0x0101_0102]);
//! assert_eq!(isa::decode(&words).unwrap(), (inst.clone(), 2));
//! assert_eq!(isa::disassemble(&inst), "buffer_load_dword v1, v2, s[4:7], s1 offen offset:4 glc");
//! ```

mod asm;
mod disasm;
pub mod operand;
mod ops;

use std::fmt;

pub use asm::{assemble, AsmError};
pub use disasm::disassemble;
pub use ops::*;

/// ENCODING (bits 31:26 of dword 0) of each format.
pub const ENCODING_MUBUF: u32 = 0b11_1000;
pub const ENCODING_MTBUF: u32 = 0b11_1010;
pub const ENCODING_MIMG: u32 = 0b11_1100;
/// SOPP's ENCODING (bits 31:23 of the dword) and S_WAITCNT's OP (bits 22:16).
pub const ENCODING_SOPP: u32 = 0b1_0111_1111;
pub const SOPP_OP_WAITCNT: u32 = 12;

/// A decoded GFX9 vector-memory instruction, or `s_waitcnt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Instruction {
    Mubuf(Mubuf),
    Mtbuf(Mtbuf),
    Mimg(Mimg),
    Waitcnt(Waitcnt),
}

/// `s_waitcnt` (SOPP op 12): wait until at most this many operations of each kind are
/// outstanding. A counter at its maximum does not wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Waitcnt {
    /// VM_CNT (6 bits: SIMM16 bits 3:0 and 15:14): vector-memory operations.
    pub vmcnt: u8,
    /// EXP_CNT (3 bits: SIMM16 6:4): exports and GDS.
    pub expcnt: u8,
    /// LGKM_CNT (4 bits: SIMM16 11:8): LDS, GDS, constant and message operations.
    pub lgkmcnt: u8,
    /// SIMM16 bits 7, 12 and 13, which no counter uses, in place ([`Waitcnt::UNUSED_BITS`]):
    /// kept by [`decode`], [`encode`] and a bare immediate; the text drops them.
    pub unused: u16,
}

impl Waitcnt {
    pub const VMCNT_MAX: u8 = 63;
    pub const EXPCNT_MAX: u8 = 7;
    pub const LGKMCNT_MAX: u8 = 15;
    /// The SIMM16 bits no counter uses.
    pub const UNUSED_BITS: u16 = 0x3080;

    /// Every counter at its maximum (waits for nothing): what the counters not named in the
    /// text are.
    pub fn new() -> Waitcnt {
        Waitcnt { vmcnt: Self::VMCNT_MAX, expcnt: Self::EXPCNT_MAX, lgkmcnt: Self::LGKMCNT_MAX, unused: 0 }
    }

    /// The fields of SIMM16.
    pub fn from_simm16(simm16: u16) -> Waitcnt {
        Waitcnt {
            vmcnt: (simm16 & 0xf | (simm16 >> 14 & 3) << 4) as u8,
            expcnt: (simm16 >> 4 & 7) as u8,
            lgkmcnt: (simm16 >> 8 & 0xf) as u8,
            unused: simm16 & Self::UNUSED_BITS,
        }
    }

    /// SIMM16 (wider field values are masked).
    pub fn simm16(&self) -> u16 {
        let vm = u16::from(self.vmcnt);
        vm & 0xf
            | u16::from(self.expcnt & 7) << 4
            | u16::from(self.lgkmcnt & 0xf) << 8
            | (vm >> 4 & 3) << 14
            | self.unused & Self::UNUSED_BITS
    }
}

impl Default for Waitcnt {
    fn default() -> Waitcnt {
        Waitcnt::new()
    }
}

/// An untyped buffer instruction (seed 000 table 26). Every field holds its encoded value; the
/// widths in parentheses are exact (wider values are masked by [`encode`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mubuf {
    /// OP (7 bits).
    pub op: MubufOp,
    /// OFFSET (12 bits): unsigned byte offset.
    pub offset: u16,
    /// OFFEN (1 bit): VADDR supplies an offset (after the index when IDXEN is also set).
    pub offen: bool,
    /// IDXEN (1 bit): VADDR supplies an index.
    pub idxen: bool,
    /// GLC (1 bit): globally coherent; for atomics, return the pre-op value.
    pub glc: bool,
    /// LDS (1 bit): load into LDS instead of VGPRs.
    pub lds: bool,
    /// SLC (1 bit): system-level coherent.
    pub slc: bool,
    /// VADDR (8 bits): first address VGPR.
    pub vaddr: u8,
    /// VDATA (8 bits): first data VGPR.
    pub vdata: u8,
    /// SRSRC (5 bits): the V#'s first SGPR / 4.
    pub srsrc: u8,
    /// TFE (1 bit): texel-fail enable (a status dword after the data).
    pub tfe: bool,
    /// SOFFSET (8 bits): scalar source code of the SGPR offset (SGPR, M0 or inline constant).
    pub soffset: u8,
}

/// A typed buffer instruction (seed 000 table 26; the format comes from DFMT and NFMT).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mtbuf {
    /// OP (4 bits).
    pub op: MtbufOp,
    /// OFFSET (12 bits).
    pub offset: u16,
    /// OFFEN (1 bit).
    pub offen: bool,
    /// IDXEN (1 bit).
    pub idxen: bool,
    /// GLC (1 bit).
    pub glc: bool,
    /// DFMT (4 bits): data format (SPEC §1.4; 0 invalid, 15 reserved).
    pub dfmt: u8,
    /// NFMT (3 bits): numeric format (6 reserved).
    pub nfmt: u8,
    /// VADDR (8 bits).
    pub vaddr: u8,
    /// VDATA (8 bits).
    pub vdata: u8,
    /// SRSRC (5 bits).
    pub srsrc: u8,
    /// SLC (1 bit).
    pub slc: bool,
    /// TFE (1 bit).
    pub tfe: bool,
    /// SOFFSET (8 bits).
    pub soffset: u8,
}

/// An image instruction (seed 000 table 35).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mimg {
    /// OP (7 bits).
    pub op: MimgOp,
    /// DMASK (4 bits): components returned or written (atomics: data dwords; multi-texel loads: the
    /// result dword count).
    pub dmask: u8,
    /// UNORM (1 bit): unnormalised coordinates (seed 000: UNRM).
    pub unorm: bool,
    /// GLC (1 bit).
    pub glc: bool,
    /// DA (1 bit): declare array (the address has a slice).
    pub da: bool,
    /// A16 (1 bit): 16-bit address components, two per VGPR (GFX8's R128 bit).
    pub a16: bool,
    /// TFE (1 bit).
    pub tfe: bool,
    /// LWE (1 bit): LOD warning enable.
    pub lwe: bool,
    /// SLC (1 bit).
    pub slc: bool,
    /// VADDR (8 bits).
    pub vaddr: u8,
    /// VDATA (8 bits).
    pub vdata: u8,
    /// SRSRC (5 bits): the T#'s first SGPR / 4 (eight SGPRs).
    pub srsrc: u8,
    /// SSAMP (5 bits): the S#'s first SGPR / 4 (four SGPRs); 0 for opcodes without a sampler.
    pub ssamp: u8,
    /// D16 (1 bit): 16-bit data, two components per VGPR.
    pub d16: bool,
}

impl Mubuf {
    /// `op` with every other field 0.
    pub fn new(op: MubufOp) -> Mubuf {
        Mubuf {
            op,
            offset: 0,
            offen: false,
            idxen: false,
            glc: false,
            lds: false,
            slc: false,
            vaddr: 0,
            vdata: 0,
            srsrc: 0,
            tfe: false,
            soffset: 0,
        }
    }

    pub fn info(&self) -> &'static MubufInfo {
        self.op.info()
    }

    /// Address VGPRs read: 0, 1 (index or offset) or 2 (index, then offset).
    pub fn vaddr_count(&self) -> u32 {
        u32::from(self.offen) + u32::from(self.idxen)
    }
}

impl Mtbuf {
    /// `op` with DFMT = 1 (BUF_DATA_FORMAT_8, LLVM's default) and every other field 0.
    pub fn new(op: MtbufOp) -> Mtbuf {
        Mtbuf {
            op,
            offset: 0,
            offen: false,
            idxen: false,
            glc: false,
            dfmt: 1,
            nfmt: 0,
            vaddr: 0,
            vdata: 0,
            srsrc: 0,
            slc: false,
            tfe: false,
            soffset: 0,
        }
    }

    pub fn info(&self) -> &'static MtbufInfo {
        self.op.info()
    }

    /// Address VGPRs read: 0, 1 or 2.
    pub fn vaddr_count(&self) -> u32 {
        u32::from(self.offen) + u32::from(self.idxen)
    }
}

impl Mimg {
    /// `op` with every other field 0.
    pub fn new(op: MimgOp) -> Mimg {
        Mimg {
            op,
            dmask: 0,
            unorm: false,
            glc: false,
            da: false,
            a16: false,
            tfe: false,
            lwe: false,
            slc: false,
            vaddr: 0,
            vdata: 0,
            srsrc: 0,
            ssamp: 0,
            d16: false,
        }
    }

    pub fn info(&self) -> &'static MimgInfo {
        self.op.info()
    }

    /// The data VGPRs the instruction moves: DMASK's component count (at least 1; four for
    /// gathers), halved rounding up with D16, plus TFE's status dword.
    pub fn data_vgprs(&self) -> u32 {
        let mut n = if self.info().kind == ImageKind::Gather { 4 } else { self.dmask.count_ones().max(1) };
        if self.d16 {
            n = n.div_ceil(2);
        }
        n + u32::from(self.tfe)
    }
}

impl Instruction {
    pub fn mnemonic(&self) -> &'static str {
        match self {
            Instruction::Mubuf(m) => m.op.mnemonic(),
            Instruction::Mtbuf(m) => m.op.mnemonic(),
            Instruction::Mimg(m) => m.op.mnemonic(),
            Instruction::Waitcnt(_) => "s_waitcnt",
        }
    }

    /// The dwords the encoding takes: 2 for MUBUF, MTBUF and MIMG, 1 for `s_waitcnt`.
    pub fn dwords(&self) -> usize {
        match self {
            Instruction::Waitcnt(_) => 1,
            _ => 2,
        }
    }

    /// The dwords of the encoding; the first [`Instruction::dwords`] of them are the
    /// instruction (a one-dword `s_waitcnt` has 0 after it; [`encode`] gives the exact length).
    pub fn encode(&self) -> [u32; 2] {
        match self {
            Instruction::Waitcnt(w) => [ENCODING_SOPP << 23 | SOPP_OP_WAITCNT << 16 | u32::from(w.simm16()), 0],
            Instruction::Mubuf(m) => {
                let w0 = u32::from(m.offset & 0xfff)
                    | u32::from(m.offen) << 12
                    | u32::from(m.idxen) << 13
                    | u32::from(m.glc) << 14
                    | u32::from(m.lds) << 16
                    | u32::from(m.slc) << 17
                    | u32::from(m.op.code() & 0x7f) << 18
                    | ENCODING_MUBUF << 26;
                let w1 = u32::from(m.vaddr)
                    | u32::from(m.vdata) << 8
                    | u32::from(m.srsrc & 0x1f) << 16
                    | u32::from(m.tfe) << 23
                    | u32::from(m.soffset) << 24;
                [w0, w1]
            }
            Instruction::Mtbuf(m) => {
                let w0 = u32::from(m.offset & 0xfff)
                    | u32::from(m.offen) << 12
                    | u32::from(m.idxen) << 13
                    | u32::from(m.glc) << 14
                    | u32::from(m.op.code() & 0xf) << 15
                    | u32::from(m.dfmt & 0xf) << 19
                    | u32::from(m.nfmt & 0x7) << 23
                    | ENCODING_MTBUF << 26;
                let w1 = u32::from(m.vaddr)
                    | u32::from(m.vdata) << 8
                    | u32::from(m.srsrc & 0x1f) << 16
                    | u32::from(m.slc) << 22
                    | u32::from(m.tfe) << 23
                    | u32::from(m.soffset) << 24;
                [w0, w1]
            }
            Instruction::Mimg(m) => {
                let w0 = u32::from(m.dmask & 0xf) << 8
                    | u32::from(m.unorm) << 12
                    | u32::from(m.glc) << 13
                    | u32::from(m.da) << 14
                    | u32::from(m.a16) << 15
                    | u32::from(m.tfe) << 16
                    | u32::from(m.lwe) << 17
                    | u32::from(m.op.code() & 0x7f) << 18
                    | u32::from(m.slc) << 25
                    | ENCODING_MIMG << 26;
                let w1 = u32::from(m.vaddr)
                    | u32::from(m.vdata) << 8
                    | u32::from(m.srsrc & 0x1f) << 16
                    | u32::from(m.ssamp & 0x1f) << 21
                    | u32::from(m.d16) << 31;
                [w0, w1]
            }
        }
    }

    /// The instruction with the fields LLVM's assembly cannot express set to 0: what assembling
    /// [`disassemble`]'s text gives (and what llvm-mc re-encodes).
    pub fn canonical(&self) -> Instruction {
        match *self {
            Instruction::Mubuf(mut m) => {
                let kind = m.info().kind;
                if !m.offen && !m.idxen {
                    m.vaddr = 0;
                }
                if kind == BufKind::Atomic || m.lds {
                    m.tfe = false;
                }
                match kind {
                    BufKind::StoreLds => {
                        m.vaddr = 0;
                        m.vdata = 0;
                        m.tfe = false;
                    }
                    BufKind::Invalidate => m = Mubuf::new(m.op),
                    _ => {}
                }
                Instruction::Mubuf(m)
            }
            Instruction::Mtbuf(mut m) => {
                if !m.offen && !m.idxen {
                    m.vaddr = 0;
                }
                Instruction::Mtbuf(m)
            }
            Instruction::Mimg(m) => Instruction::Mimg(m),
            Instruction::Waitcnt(w) => Instruction::Waitcnt(Waitcnt { unused: 0, ..w }),
        }
    }

    /// Checks what [`decode`] checks beyond the bit layout: register tuples that exist, SSAMP,
    /// D16 and LDS only where the opcode allows them, operand-less opcodes without operands.
    pub fn validate(&self) -> Result<(), DecodeError> {
        match self {
            Instruction::Mubuf(m) => validate_mubuf(m),
            Instruction::Mtbuf(m) => validate_mtbuf(m),
            Instruction::Mimg(m) => validate_mimg(m),
            Instruction::Waitcnt(w) => validate_waitcnt(w),
        }
    }
}

/// Why dwords are not a valid GFX9 vector-memory instruction: the field at fault and a message
/// naming it and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// The field (seed 000's name, e.g. "OP", "SRSRC", "bit 15"), or "dwords".
    pub field: &'static str,
    pub message: String,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DecodeError {}

fn err(field: &'static str, message: String) -> DecodeError {
    DecodeError { field, message }
}

/// The dwords of `inst` (2 for MUBUF, MTBUF and MIMG, 1 for `s_waitcnt`).
pub fn encode(inst: &Instruction) -> Vec<u32> {
    inst.encode()[..inst.dwords()].to_vec()
}

/// Decodes the instruction at the start of `words`; returns it and the dwords it takes (2, or 1
/// for `s_waitcnt`).
pub fn decode(words: &[u32]) -> Result<(Instruction, usize), DecodeError> {
    let Some(&w0) = words.first() else {
        return Err(err("dwords", "no dword to decode".to_string()));
    };
    let sopp = w0 >> 23 == ENCODING_SOPP;
    if sopp && w0 >> 16 & 0x7f == SOPP_OP_WAITCNT {
        return Ok((Instruction::Waitcnt(Waitcnt::from_simm16(w0 as u16)), 1));
    }
    let encoding = w0 >> 26;
    let format = match encoding {
        ENCODING_MUBUF => "MUBUF",
        ENCODING_MTBUF => "MTBUF",
        ENCODING_MIMG => "MIMG",
        _ => {
            let sopp = if sopp {
                format!("; a SOPP instruction (op {}), of which only S_WAITCNT (op 12) is decoded", w0 >> 16 & 0x7f)
            } else {
                String::new()
            };
            return Err(err(
                "ENCODING",
                format!(
                    "not a MUBUF/MTBUF/MIMG encoding: bits 31:26 = 0b{encoding:06b} (MUBUF 0b111000, MTBUF 0b111010, MIMG 0b111100){sopp}"
                ),
            ));
        }
    };
    let Some(&w1) = words.get(1) else {
        return Err(err("dwords", format!("a {format} instruction is 2 dwords; only 1 given")));
    };
    let bit = |w: u32, b: u32| w >> b & 1 != 0;
    let reserved = |bits: &[(u32, u32, &'static str)]| -> Result<(), DecodeError> {
        for &(word, b, name) in bits {
            let w = if word == 0 { w0 } else { w1 };
            if bit(w, b) {
                let pos = word * 32 + b;
                return Err(err(name, format!("{format} bit {pos} is reserved and must be 0")));
            }
        }
        Ok(())
    };
    let inst = match encoding {
        ENCODING_MUBUF => {
            reserved(&[(0, 15, "bit 15"), (0, 25, "bit 25"), (1, 21, "bit 53"), (1, 22, "bit 54")])?;
            let code = (w0 >> 18 & 0x7f) as u8;
            let op = MubufOp::from_code(code)
                .ok_or_else(|| err("OP", format!("MUBUF op {code:#04x} is not a GFX9 opcode")))?;
            Instruction::Mubuf(Mubuf {
                op,
                offset: (w0 & 0xfff) as u16,
                offen: bit(w0, 12),
                idxen: bit(w0, 13),
                glc: bit(w0, 14),
                lds: bit(w0, 16),
                slc: bit(w0, 17),
                vaddr: w1 as u8,
                vdata: (w1 >> 8) as u8,
                srsrc: (w1 >> 16 & 0x1f) as u8,
                tfe: bit(w1, 23),
                soffset: (w1 >> 24) as u8,
            })
        }
        ENCODING_MTBUF => {
            reserved(&[(1, 21, "bit 53")])?;
            let code = (w0 >> 15 & 0xf) as u8;
            let op = MtbufOp::from_code(code)
                .ok_or_else(|| err("OP", format!("MTBUF op {code:#03x} is not a GFX9 opcode")))?;
            Instruction::Mtbuf(Mtbuf {
                op,
                offset: (w0 & 0xfff) as u16,
                offen: bit(w0, 12),
                idxen: bit(w0, 13),
                glc: bit(w0, 14),
                dfmt: (w0 >> 19 & 0xf) as u8,
                nfmt: (w0 >> 23 & 0x7) as u8,
                vaddr: w1 as u8,
                vdata: (w1 >> 8) as u8,
                srsrc: (w1 >> 16 & 0x1f) as u8,
                slc: bit(w1, 22),
                tfe: bit(w1, 23),
                soffset: (w1 >> 24) as u8,
            })
        }
        _ => {
            if w0 & 0xff != 0 {
                return Err(err(
                    "bits 7:0",
                    format!("MIMG bits 7:0 are reserved and must be 0 (are {:#04x})", w0 & 0xff),
                ));
            }
            if w1 >> 26 & 0x1f != 0 {
                return Err(err(
                    "bits 62:58",
                    format!("MIMG bits 62:58 are reserved and must be 0 (are {:#04x})", w1 >> 26 & 0x1f),
                ));
            }
            let code = (w0 >> 18 & 0x7f) as u8;
            let op = MimgOp::from_code(code).ok_or_else(|| {
                let what = match code {
                    0x4a => " (AMD's IMAGE_GATHER4H_PCK, which no LLVM assembles; not supported here)",
                    0x4b => " (AMD's IMAGE_GATHER8H_PCK, which no LLVM assembles; not supported here)",
                    _ => "",
                };
                err("OP", format!("MIMG op {code:#04x} is not a GFX9 opcode{what}"))
            })?;
            Instruction::Mimg(Mimg {
                op,
                dmask: (w0 >> 8 & 0xf) as u8,
                unorm: bit(w0, 12),
                glc: bit(w0, 13),
                da: bit(w0, 14),
                a16: bit(w0, 15),
                tfe: bit(w0, 16),
                lwe: bit(w0, 17),
                slc: bit(w0, 25),
                vaddr: w1 as u8,
                vdata: (w1 >> 8) as u8,
                srsrc: (w1 >> 16 & 0x1f) as u8,
                ssamp: (w1 >> 21 & 0x1f) as u8,
                d16: bit(w1, 31),
            })
        }
    };
    inst.validate()?;
    Ok((inst, 2))
}

fn validate_waitcnt(w: &Waitcnt) -> Result<(), DecodeError> {
    for (field, value, max) in [
        ("vmcnt", w.vmcnt, Waitcnt::VMCNT_MAX),
        ("expcnt", w.expcnt, Waitcnt::EXPCNT_MAX),
        ("lgkmcnt", w.lgkmcnt, Waitcnt::LGKMCNT_MAX),
    ] {
        if value > max {
            return Err(err(field, format!("s_waitcnt: {field} {value} is out of range (0..{max})")));
        }
    }
    if w.unused & !Waitcnt::UNUSED_BITS != 0 {
        return Err(err(
            "SIMM16",
            format!("s_waitcnt: unused {:#06x} has bits outside SIMM16's unused bits 7, 12, 13", w.unused),
        ));
    }
    Ok(())
}

fn check_soffset(format: &str, soffset: u8) -> Result<(), DecodeError> {
    if operand::scalar_source_name(soffset).is_none() {
        let what = if soffset == 0xff { " (a literal constant, which these formats cannot carry)" } else { "" };
        return Err(err(
            "SOFFSET",
            format!("{format} SOFFSET {soffset:#04x} is not a scalar source GFX9 decodes{what}"),
        ));
    }
    Ok(())
}

fn check_srsrc4(format: &str, srsrc: u8) -> Result<(), DecodeError> {
    if operand::sgpr_tuple4_name(srsrc).is_none() {
        return Err(err(
            "SRSRC",
            format!(
                "{format} SRSRC {srsrc} (s[{}:{}]) is not a 4-SGPR tuple GFX9 can encode",
                srsrc * 4,
                srsrc * 4 + 3
            ),
        ));
    }
    Ok(())
}

fn check_vgprs(format: &str, field: &'static str, first: u8, count: u32, why: &str) -> Result<(), DecodeError> {
    if u32::from(first) + count > 256 {
        return Err(err(
            field,
            format!(
                "{format} {field} v{first} with {count} registers{why} runs past v255 (v[{first}:{}])",
                u32::from(first) + count - 1
            ),
        ));
    }
    Ok(())
}

fn validate_mubuf(m: &Mubuf) -> Result<(), DecodeError> {
    let info = m.info();
    let mn = info.mnemonic;
    let must_be_0 = |field: &'static str, set: bool, why: &str| -> Result<(), DecodeError> {
        if set {
            return Err(err(field, format!("{mn}: {field} must be 0{why}")));
        }
        Ok(())
    };
    match info.kind {
        BufKind::Invalidate => {
            must_be_0("GLC", m.glc, " (no operands)")?;
            must_be_0("LDS", m.lds, " (no operands)")?;
            must_be_0("OFFEN", m.offen, " (no operands)")?;
            must_be_0("IDXEN", m.idxen, " (no operands)")?;
            return Ok(());
        }
        BufKind::StoreLds => {
            if !m.lds {
                return Err(err("LDS", format!("{mn}: LDS must be 1 (the data comes from LDS)")));
            }
            must_be_0("OFFEN", m.offen, " (no address VGPR)")?;
            must_be_0("IDXEN", m.idxen, " (no address VGPR)")?;
        }
        _ => {
            if m.lds && !info.lds {
                return Err(err(
                    "LDS",
                    format!(
                        "{mn}: LDS = 1 is only for the loads that can target LDS (ubyte, sbyte, ushort, sshort, dword, dwordx2..x4, format_x)"
                    ),
                ));
            }
            check_vgprs("MUBUF", "VDATA", m.vdata, u32::from(info.vgprs), &format!(" ({mn})"))?;
            check_vgprs("MUBUF", "VADDR", m.vaddr, m.vaddr_count(), " (IDXEN and OFFEN)")?;
        }
    }
    check_srsrc4("MUBUF", m.srsrc)?;
    check_soffset("MUBUF", m.soffset)
}

fn validate_mtbuf(m: &Mtbuf) -> Result<(), DecodeError> {
    check_vgprs("MTBUF", "VDATA", m.vdata, u32::from(m.info().vgprs), &format!(" ({})", m.op.mnemonic()))?;
    check_vgprs("MTBUF", "VADDR", m.vaddr, m.vaddr_count(), " (IDXEN and OFFEN)")?;
    check_srsrc4("MTBUF", m.srsrc)?;
    check_soffset("MTBUF", m.soffset)
}

fn validate_mimg(m: &Mimg) -> Result<(), DecodeError> {
    let info = m.info();
    let mn = info.mnemonic;
    if operand::sgpr_tuple8_name(m.srsrc).is_none() {
        return Err(err(
            "SRSRC",
            format!(
                "MIMG SRSRC {} (s[{}:{}]) is not an 8-SGPR tuple GFX9 can encode",
                m.srsrc,
                m.srsrc * 4,
                m.srsrc * 4 + 7
            ),
        ));
    }
    if info.sampler {
        if operand::sgpr_tuple4_name(m.ssamp).is_none() {
            return Err(err(
                "SSAMP",
                format!(
                    "MIMG SSAMP {} (s[{}:{}]) is not a 4-SGPR tuple GFX9 can encode",
                    m.ssamp,
                    m.ssamp * 4,
                    m.ssamp * 4 + 3
                ),
            ));
        }
    } else if m.ssamp != 0 {
        return Err(err("SSAMP", format!("{mn}: SSAMP must be 0 (no sampler; is {})", m.ssamp)));
    }
    if m.d16 && !info.d16 {
        return Err(err("D16", format!("{mn}: D16 must be 0 (the opcode has no 16-bit data form)")));
    }
    check_vgprs("MIMG", "VADDR", m.vaddr, u32::from(info.vaddr_print), &format!(" ({mn})"))?;
    if disasm::mimg_vdata_print(m).is_none() {
        return Err(err(
            "VDATA",
            format!("MIMG VDATA v{} with the {} data registers of {mn} runs past v255", m.vdata, m.data_vgprs()),
        ));
    }
    Ok(())
}
