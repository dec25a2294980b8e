//! Decoded instructions ([`crate::isa`]) to the executor's terms: [`lower_buffer`] for MUBUF and
//! MTBUF, [`lower_image`] for MIMG.

use super::{Access, BufferInst, BufferKind, ExecError, ImageInst, ImageKind, D16};
use crate::image_addr;

fn d16_of(d: crate::isa::D16) -> D16 {
    match d {
        crate::isa::D16::No => D16::None,
        crate::isa::D16::Lo => D16::Lo,
        crate::isa::D16::Hi => D16::Hi,
    }
}

/// A [`BufferInst`] of the MUBUF or MTBUF instruction `m` with the given fields; the operand
/// fields the two encodings share (VADDR, VDATA, SRSRC as an SGPR number, SOFFSET, OFFSET, OFFEN,
/// IDXEN, GLC, SLC, TFE) are `m`'s.
macro_rules! buffer_inst {
    ($m:ident, $($field:ident $(: $value:expr)?),* $(,)?) => {
        BufferInst {
            $($field $(: $value)?,)*
            vaddr: $m.vaddr,
            vdata: $m.vdata,
            srsrc: $m.srsrc.wrapping_mul(4),
            soffset: $m.soffset,
            offset: $m.offset,
            offen: $m.offen,
            idxen: $m.idxen,
            glc: $m.glc,
            slc: $m.slc,
            tfe: $m.tfe,
        }
    };
}

/// A decoded MUBUF or MTBUF instruction in executor terms; `Ok(None)` for the cache
/// invalidations and `s_waitcnt`, which change no state here.
pub fn lower_buffer(inst: &crate::isa::Instruction) -> Result<Option<BufferInst>, ExecError> {
    use crate::isa::{BufKind, Instruction};
    let b = match inst {
        Instruction::Mubuf(m) => {
            let info = m.info();
            let kind = match info.kind {
                BufKind::Load => BufferKind::Load,
                BufKind::Store => BufferKind::Store,
                BufKind::Atomic => BufferKind::Atomic(
                    info.atomic.ok_or_else(|| ExecError(format!("{} has no atomic operation", info.mnemonic)))?,
                ),
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
            buffer_inst!(m, kind, access, d16: d16_of(info.d16), wide: info.x2, lds: m.lds)
        }
        Instruction::Mtbuf(m) => {
            let info = m.info();
            buffer_inst!(
                m,
                kind: if info.store { BufferKind::Store } else { BufferKind::Load },
                access: Access::Format { count: info.components, format: Some((m.dfmt, m.nfmt)) },
                d16: if info.d16 { D16::Lo } else { D16::None },
                wide: false,
                lds: false,
            )
        }
        Instruction::Mimg(_) => return Err(ExecError("not a buffer instruction".into())),
        Instruction::Waitcnt(_) => return Ok(None),
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
        K::Atomic => ImageKind::Atomic(
            info.atomic.ok_or_else(|| ExecError(format!("{} has no atomic operation", info.mnemonic)))?,
        ),
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
