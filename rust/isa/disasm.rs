//! Instructions as LLVM's AMDGPU disassembler prints them for gfx900.
//!
//! The text is LLVM's canonical form: operands, then the modifiers that are set in LLVM's fixed
//! order, default values omitted (`offset:0`, DMASK 0, MTBUF's default format
//! BUF_DATA_FORMAT_8 / BUF_NUM_FORMAT_UNORM).

use std::fmt::Write as _;

use super::operand::{scalar_source_name, sgpr_tuple4_name, sgpr_tuple8_name, vgpr_tuple};
use super::{BufKind, ImageKind, Instruction, Mimg, Mtbuf, Mubuf, Waitcnt};

/// LLVM's data format names (MTBUF DFMT), indexed by code.
pub const DFMT_NAMES: [&str; 16] = [
    "BUF_DATA_FORMAT_INVALID",
    "BUF_DATA_FORMAT_8",
    "BUF_DATA_FORMAT_16",
    "BUF_DATA_FORMAT_8_8",
    "BUF_DATA_FORMAT_32",
    "BUF_DATA_FORMAT_16_16",
    "BUF_DATA_FORMAT_10_11_11",
    "BUF_DATA_FORMAT_11_11_10",
    "BUF_DATA_FORMAT_10_10_10_2",
    "BUF_DATA_FORMAT_2_10_10_10",
    "BUF_DATA_FORMAT_8_8_8_8",
    "BUF_DATA_FORMAT_32_32",
    "BUF_DATA_FORMAT_16_16_16_16",
    "BUF_DATA_FORMAT_32_32_32",
    "BUF_DATA_FORMAT_32_32_32_32",
    "BUF_DATA_FORMAT_RESERVED_15",
];

/// LLVM's numeric format names (MTBUF NFMT), indexed by code.
pub const NFMT_NAMES: [&str; 8] = [
    "BUF_NUM_FORMAT_UNORM",
    "BUF_NUM_FORMAT_SNORM",
    "BUF_NUM_FORMAT_USCALED",
    "BUF_NUM_FORMAT_SSCALED",
    "BUF_NUM_FORMAT_UINT",
    "BUF_NUM_FORMAT_SINT",
    "BUF_NUM_FORMAT_RESERVED_6",
    "BUF_NUM_FORMAT_FLOAT",
];

/// MTBUF's default format, omitted from the text: DFMT 1 (8), NFMT 0 (unorm).
pub const DEFAULT_DFMT: u8 = 1;
pub const DEFAULT_NFMT: u8 = 0;

/// The instruction as llvm-mc-14 prints it (without the `; encoding` comment). Later LLVM
/// releases print TFE loads with the status dword in VDATA and loads into LDS without VDATA;
/// [`super::assemble`] accepts those forms too.
pub fn disassemble(inst: &Instruction) -> String {
    let mut s = String::new();
    match inst {
        Instruction::Mubuf(m) => mubuf(&mut s, m),
        Instruction::Mtbuf(m) => mtbuf(&mut s, m),
        Instruction::Mimg(m) => mimg(&mut s, m),
        Instruction::Waitcnt(w) => waitcnt(&mut s, w),
    }
    s
}

/// LLVM's printWaitFlag: the counters below their maximum, all three when none is.
fn waitcnt(s: &mut String, w: &Waitcnt) {
    s.push_str("s_waitcnt");
    let counters = [
        ("vmcnt", w.vmcnt, Waitcnt::VMCNT_MAX),
        ("expcnt", w.expcnt, Waitcnt::EXPCNT_MAX),
        ("lgkmcnt", w.lgkmcnt, Waitcnt::LGKMCNT_MAX),
    ];
    let all = counters.iter().all(|&(_, value, max)| value == max);
    for (name, value, max) in counters {
        if all || value != max {
            let _ = write!(s, " {name}({value})");
        }
    }
}

fn flag(s: &mut String, on: bool, name: &str) {
    if on {
        s.push(' ');
        s.push_str(name);
    }
}

fn name_or_raw(name: Option<String>, raw: u8) -> String {
    // Validated instructions always have a name; keep the text total for any field value.
    name.unwrap_or_else(|| format!("<invalid {raw:#x}>"))
}

fn buffer_vaddr(offen: bool, idxen: bool, vaddr: u8) -> String {
    if offen || idxen {
        vgpr_tuple(vaddr, u32::from(offen) + u32::from(idxen))
    } else {
        "off".to_string()
    }
}

/// The modifiers MUBUF and MTBUF print alike, in LLVM's order: idxen, offen, offset (when not
/// 0), glc, slc.
fn buffer_modifiers(s: &mut String, idxen: bool, offen: bool, offset: u16, glc: bool, slc: bool) {
    flag(s, idxen, "idxen");
    flag(s, offen, "offen");
    if offset != 0 {
        let _ = write!(s, " offset:{offset}");
    }
    flag(s, glc, "glc");
    flag(s, slc, "slc");
}

fn mubuf(s: &mut String, m: &Mubuf) {
    let info = m.info();
    s.push_str(info.mnemonic);
    let srsrc = name_or_raw(sgpr_tuple4_name(m.srsrc), m.srsrc);
    let soffset = name_or_raw(scalar_source_name(m.soffset), m.soffset);
    match info.kind {
        BufKind::Invalidate => return,
        BufKind::StoreLds => {
            let _ = write!(s, " {srsrc}, {soffset}");
            if m.offset != 0 {
                let _ = write!(s, " offset:{}", m.offset);
            }
            s.push_str(" lds");
            flag(s, m.glc, "glc");
            flag(s, m.slc, "slc");
            return;
        }
        _ => {}
    }
    let _ = write!(
        s,
        " {}, {}, {srsrc}, {soffset}",
        vgpr_tuple(m.vdata, u32::from(info.vgprs)),
        buffer_vaddr(m.offen, m.idxen, m.vaddr)
    );
    buffer_modifiers(s, m.idxen, m.offen, m.offset, m.glc, m.slc);
    flag(s, m.lds, "lds");
    flag(s, m.tfe && !m.lds && info.kind != BufKind::Atomic, "tfe");
}

fn mtbuf(s: &mut String, m: &Mtbuf) {
    let info = m.info();
    let _ = write!(
        s,
        "{} {}, {}, {}, {}",
        info.mnemonic,
        vgpr_tuple(m.vdata, u32::from(info.vgprs)),
        buffer_vaddr(m.offen, m.idxen, m.vaddr),
        name_or_raw(sgpr_tuple4_name(m.srsrc), m.srsrc),
        name_or_raw(scalar_source_name(m.soffset), m.soffset),
    );
    let dfmt = DFMT_NAMES[usize::from(m.dfmt & 0xf)];
    let nfmt = NFMT_NAMES[usize::from(m.nfmt & 0x7)];
    match (m.dfmt != DEFAULT_DFMT, m.nfmt != DEFAULT_NFMT) {
        (true, true) => {
            let _ = write!(s, " format:[{dfmt},{nfmt}]");
        }
        (true, false) => {
            let _ = write!(s, " format:[{dfmt}]");
        }
        (false, true) => {
            let _ = write!(s, " format:[{nfmt}]");
        }
        (false, false) => {}
    }
    buffer_modifiers(s, m.idxen, m.offen, m.offset, m.glc, m.slc);
    flag(s, m.tfe, "tfe");
}

/// The VDATA register count LLVM prints for a MIMG instruction, `None` when the instruction has
/// no printable form (its registers would run past v255).
///
/// LLVM selects the variant of the opcode with [`Mimg::data_vgprs`] registers; when the opcode
/// has no such variant, or its registers would pass v255, it keeps the variant it decodes first.
///
/// One difference, on purpose: llvm-mc's disassembler also rejects a gather with D16 whose two
/// (three with TFE) registers fit but whose first variant's four would not (VDATA v253, v254);
/// its assembler writes those encodings (LLVM's gfx9_asm_mimg.s has one), and the hardware reads
/// them as any other, so the codec accepts them (docs/decisions.md "Instruction encodings").
/// Variants: atomics 1 and 2 (first 1), cmpswap 2 and 4 (first 2), gathers 2, 4 and 5 (first 4),
/// every other opcode 1 to 5 (first 1).
pub(super) fn mimg_vdata_print(m: &Mimg) -> Option<u32> {
    let info = m.info();
    let (sizes, first): (&[u32], u32) = match (info.kind, info.atomic) {
        (ImageKind::Atomic, Some(super::AtomicOp::Cmpswap)) => (&[2, 4], 2),
        (ImageKind::Atomic, _) => (&[1, 2], 1),
        (ImageKind::Gather, _) => (&[2, 4, 5], 4),
        _ => (&[1, 2, 3, 4, 5], 1),
    };
    let fits = |n: u32| u32::from(m.vdata) + n <= 256;
    let n = m.data_vgprs();
    if sizes.contains(&n) && fits(n) {
        Some(n)
    } else if fits(first) {
        Some(first)
    } else {
        None
    }
}

fn mimg(s: &mut String, m: &Mimg) {
    let info = m.info();
    let vdata = mimg_vdata_print(m).unwrap_or(1);
    let _ = write!(
        s,
        "{} {}, {}, {}",
        info.mnemonic,
        vgpr_tuple(m.vdata, vdata),
        vgpr_tuple(m.vaddr, u32::from(info.vaddr_print)),
        name_or_raw(sgpr_tuple8_name(m.srsrc), m.srsrc),
    );
    if info.sampler {
        let _ = write!(s, ", {}", name_or_raw(sgpr_tuple4_name(m.ssamp), m.ssamp));
    }
    if m.dmask != 0 {
        let _ = write!(s, " dmask:{:#x}", m.dmask);
    }
    flag(s, m.unorm, "unorm");
    flag(s, m.glc, "glc");
    flag(s, m.slc, "slc");
    flag(s, m.a16, "a16");
    flag(s, m.tfe, "tfe");
    flag(s, m.lwe, "lwe");
    flag(s, m.da, "da");
    flag(s, m.d16, "d16");
}
