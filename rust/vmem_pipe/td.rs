//! The TD of `vmem_pipe` (docs/decisions.md "vmem_pipe": *TD and completion*): the gather
//! instruction, the two element buffers and two result buffers used alternately by the writing
//! instructions, the converter (group k of an instruction in cycle s + k, its results writable
//! from s + 4 + k), and the VGPR writes in order, group-major (an LDS load's on the LDS port,
//! one a group, docs/decisions.md "LDS loads"). The result dwords are exactly as
//! the executor computes them from the gathered element bytes (format_unpack → swizzle → d16, the
//! d16 unit alone for D16 byte/short loads, TFE's 0 dword; an image PCK load's raw fields;
//! atomics the returned value; a multi-texel load's group through the `multi_texel` unit).
//!
//! The model computes an instruction's results all at once in its cycle s (the element buffer
//! holds them unchanged until s + 4); when each may be written is what the ports show.

use std::collections::VecDeque;

use super::inst::{byte_mask, Op, Slot};
use super::ports::{GROUP_LANES, IMAGE_OP_PCK_SGN};
use crate::coalescer::LANES;
use crate::d16::{self, OP_LOAD_FORMAT, OP_LOAD_SBYTE, OP_LOAD_SHORT, OP_LOAD_UBYTE};
use crate::format::{self, is_integer, NFMT_SINT};
use crate::{format_unpack, multi_texel, swizzle};

/// Result dwords a lane can have: four data dwords and the TFE status dword.
const MAX_DWORDS: usize = 5;

/// The TD's state besides the instructions' own records.
#[derive(Clone, Debug, Default)]
pub(super) struct Td {
    /// Writing instructions not yet gathered, in order (ids): the front is the gather
    /// instruction G.
    pub gather: VecDeque<usize>,
    /// Gathered writing instructions whose conversion has not started, in order.
    convert: VecDeque<usize>,
    /// Converted instructions whose writes are not all accepted, in order (at most 2).
    writes: VecDeque<Job>,
    /// Element buffer j is free from this cycle (u64::MAX: it holds a gathered instruction).
    elem_free_from: [u64; 2],
    /// Result buffer j is free.
    res_busy: [bool; 2],
    /// The converter is idle from this cycle (the previous s + 4).
    conv_free_from: u64,
}

impl Td {
    /// The gather instruction G of cycle `t` when it may take blocks (its element buffer free).
    pub fn gatherer(&self, slots: &[Slot], t: u64) -> Option<usize> {
        let g = *self.gather.front()?;
        (t >= self.elem_free_from[(slots[g].wseq % 2) as usize]).then_some(g)
    }

    /// The conversion of cycle `t`, from the state at its start: the oldest gathered,
    /// unconverted instruction starts when the converter is idle and its result buffer free.
    pub fn convert(&mut self, slots: &[Slot], t: u64) {
        let Some(&id) = self.convert.front() else {
            return;
        };
        let buf = (slots[id].wseq % 2) as usize;
        if t < self.conv_free_from || self.res_busy[buf] {
            return;
        }
        self.convert.pop_front();
        // The element buffer is free from s + 4 unless a younger instruction with nothing to
        // take (gathered at once) already holds it; its own conversion frees it then.
        if !self.convert.iter().any(|&j| slots[j].wseq % 2 == buf as u64) {
            self.elem_free_from[buf] = t + 4;
        }
        self.conv_free_from = t + 4;
        self.res_busy[buf] = true;
        self.writes.push_back(Job::new(&slots[id], id, t, buf));
    }

    /// The write presented in cycle `t` is accepted at its edge: after the instruction's last,
    /// its result buffer is free from t + 1 and its `done_td_o` is e − s + 1.
    pub fn accept_write(&mut self, slots: &mut [Slot], t: u64) {
        let job = self.writes.front_mut().expect("a write is presented");
        job.next += 1;
        if job.next == job.total {
            let slot = &mut slots[job.id];
            slot.written = true;
            slot.c.td = t - job.start + 1;
            (slot.c.td_first, slot.c.td_last) = (job.start, t);
            self.res_busy[job.buf] = false;
            self.writes.pop_front();
        }
    }

    /// At the edge of cycle `t`: G is gathered when its step stage has ended and the TD has
    /// taken every access of it that returns data; the next writing instruction is G from t + 1.
    pub fn gathered(&mut self, slots: &mut [Slot]) {
        let Some(&g) = self.gather.front() else {
            return;
        };
        let slot = &mut slots[g];
        if slot.step_ended && slot.returned == slot.returning {
            slot.gathered = true;
            self.gather.pop_front();
            self.elem_free_from[(slot.wseq % 2) as usize] = u64::MAX;
            self.convert.push_back(g);
        }
    }

    /// The write presented in cycle `t` (the output register): the next write of the oldest
    /// converted instruction once `t` ≥ s + 4 + its group.
    pub fn presented(&self, t: u64) -> Option<Write> {
        let job = self.writes.front()?;
        let w = job.write(job.next);
        (t >= job.start + 4 + u64::from(w.group)).then_some(w)
    }
}

/// The TD's work on a writing instruction whose conversion started in cycle `start`.
#[derive(Clone, Debug)]
pub(super) struct Job {
    pub id: usize,
    pub start: u64,
    /// Its element and result buffer.
    buf: usize,
    /// Result dword i of lane l at `results[i][l]` (0 for lanes not in EXEC).
    results: [[u32; LANES]; MAX_DWORDS],
    /// Dwords written per group: those i with VDATA + i ≤ 255.
    dwords: usize,
    /// The groups with an EXEC lane, ascending.
    groups: [u8; 4],
    vdata: u8,
    exec: u64,
    /// An LDS load: its writes go to the LDS port, the LDS lanes with their LDS addresses.
    lds: bool,
    lds_lanes: u64,
    lds_addr: [u32; LANES],
    /// Writes in all, and the next one to present.
    pub total: usize,
    pub next: usize,
}

/// One VGPR write: (VGPR, group, lanes, lane 16g+j's dword at j); or, `lds`, one LDS write:
/// (lanes, lane 16g+j's LDS address and dword at j).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Write {
    pub lds: bool,
    pub vgpr: u8,
    pub group: u8,
    pub mask: u16,
    pub addr: [u32; GROUP_LANES],
    pub data: [u32; GROUP_LANES],
}

impl Job {
    /// The TD's work on `slot` (instruction `id`, buffer `buf`), started in cycle `start`.
    pub fn new(slot: &Slot, id: usize, start: u64, buf: usize) -> Job {
        let hdr = slot.hdr;
        let mut results = [[0u32; LANES]; MAX_DWORDS];
        let mut count = 0usize;
        for lane in (0..LANES).filter(|&l| hdr.exec >> l & 1 != 0) {
            let (dwords, n) = lane_result(slot, lane);
            for (i, d) in dwords.iter().take(n).enumerate() {
                results[i][lane] = *d;
            }
            count = n;
        }
        // An LDS load writes one dword per lane, dword 0 of the load's result (R = 1), to the
        // LDS: no VGPR limit.
        let lds = hdr.lds_load();
        let dwords = if lds { 1 } else { count.min(256 - usize::from(hdr.vdata)) };
        let mut groups = [0u8; 4];
        let mut n_groups = 0;
        for g in 0..LANES / GROUP_LANES {
            if hdr.exec >> (GROUP_LANES * g) & 0xffff != 0 {
                groups[n_groups] = g as u8;
                n_groups += 1;
            }
        }
        Job {
            id,
            start,
            buf,
            results,
            dwords,
            groups,
            vdata: hdr.vdata,
            exec: hdr.exec,
            lds,
            lds_lanes: slot.lds_lanes,
            lds_addr: slot.lds_addr,
            total: n_groups * dwords,
            next: 0,
        }
    }

    /// Write `k` (< total): for each group with an EXEC lane, for each result dword i; an LDS
    /// load's: for each group with an EXEC lane, its LDS lanes (possibly none) with their LDS
    /// addresses and result dword 0.
    pub fn write(&self, k: usize) -> Write {
        let group = usize::from(self.groups[k / self.dwords]);
        let i = k % self.dwords;
        let first = GROUP_LANES * group;
        let lanes = if self.lds { self.lds_lanes } else { self.exec };
        let mask = (lanes >> first) as u16;
        let data = std::array::from_fn(|j| if mask >> j & 1 != 0 { self.results[i][first + j] } else { 0 });
        let addr = std::array::from_fn(|j| if self.lds && mask >> j & 1 != 0 { self.lds_addr[first + j] } else { 0 });
        let vgpr = if self.lds { 0 } else { self.vdata.wrapping_add(i as u8) };
        Write { lds: self.lds, vgpr, group: group as u8, mask, addr, data }
    }
}

/// Lane `lane`'s result dwords and their count, as the executor computes them.
fn lane_result(slot: &Slot, lane: usize) -> ([u32; MAX_DWORDS], usize) {
    let hdr = slot.hdr;
    let mut out = [0u32; MAX_DWORDS];
    let elem = slot.elem[lane];
    if hdr.kind == Op::Atomic {
        // The returned value; 0 for a lane that did not take part (nothing was gathered).
        out[0] = elem as u32;
        out[1] = (elem >> 32) as u32;
        return (out, if hdr.wide { 2 } else { 1 });
    }
    if hdr.pck() {
        return pck_result(slot, lane);
    }
    if hdr.resinfo() {
        // Dword j: component c of the lane's (width, height, layers, levels) for c the j-th set
        // bit of DMASK (0 read as 1); then TFE's 0 status dword.
        let dmask = if hdr.dmask == 0 { 1 } else { hdr.dmask };
        let mut n = 0;
        for c in (0..4).filter(|&c| dmask >> c & 1 != 0) {
            out[n] = (elem >> (32 * c)) as u32;
            n += 1;
        }
        if hdr.tfe {
            out[n] = 0;
            n += 1;
        }
        return (out, n);
    }
    if let Some(op) = hdr.multi_texel() {
        // The unit's R = `iss_count_i` result dwords from the lane's group (0 where the lane did
        // not take part, nothing gathered) and its `group_valid`; no TFE dword.
        let r = multi_texel::compute(&multi_texel::In {
            valid: true,
            op,
            dmask: hdr.dmask,
            dfmt: hdr.dfmt,
            nfmt: hdr.nfmt,
            group_valid: slot.in_range[lane] & 1 != 0,
            texels: elem as u64,
        });
        let n = usize::from(hdr.count).min(4);
        for (i, d) in out.iter_mut().take(n).enumerate() {
            *d = (r.result >> (32 * i)) as u32;
        }
        return (out, n);
    }
    let bytes = u32::from(hdr.bytes.min(16));
    let in_range = slot.in_range[lane];
    let unbound = slot.unbound >> lane & 1 != 0;
    // The element bytes, each dword 0 where it is out of range (and 0 for a lane that did not
    // take part, whose `elem` is 0).
    let per_dword = bytes > 4;
    let data = if unbound {
        0
    } else {
        (0..bytes.div_ceil(4)).fold(0u128, |acc, i| {
            let ok = in_range >> (if per_dword { i } else { 0 }) & 1 != 0;
            let mask = byte_mask(bytes.min(4)) << (32 * i);
            if ok {
                acc | (elem & mask)
            } else {
                acc
            }
        })
    };

    if hdr.d16_byte_short_load() {
        let op = match (bytes, hdr.nfmt == NFMT_SINT) {
            (1, false) => OP_LOAD_UBYTE,
            (1, true) => OP_LOAD_SBYTE,
            _ => OP_LOAD_SHORT,
        };
        let r =
            d16::compute(&d16::In { valid: true, op, hi: hdr.d16_hi(), nfmt: 0, count: 0, data, old: slot.old[lane] });
        out[0] = r.result as u32;
        return (out, 1);
    }

    let u = format_unpack::compute(&format_unpack::In { valid: true, dfmt: hdr.dfmt, nfmt: hdr.nfmt, data });
    let sized_per_dword = hdr.sized && bytes > 4;
    let oor = if sized_per_dword {
        !in_range & 0xf
    } else if in_range & 1 != 0 {
        0
    } else {
        0xf
    };
    // Buffers: the first `count` components; images: DMASK, 0 read as 1 (SPEC §3).
    let dmask = if hdr.image {
        if hdr.dmask == 0 {
            1
        } else {
            hdr.dmask
        }
    } else {
        ((1u16 << hdr.count.min(4)) - 1) as u8
    };
    let s = swizzle::compute(&swizzle::In {
        valid: true,
        components: u.components,
        count: u.count,
        dst_sel: hdr.dst_sel,
        integer: is_integer(hdr.nfmt),
        dmask,
        oor,
        unbound: unbound || !u.fmt_valid,
        tfe: false,
    });
    let (result, mut n) = if hdr.d16_lo() {
        let r = d16::compute(&d16::In {
            valid: true,
            op: OP_LOAD_FORMAT,
            hi: false,
            nfmt: hdr.nfmt,
            count: s.result_count,
            data: s.result,
            old: 0,
        });
        (r.result, usize::from(r.result_count))
    } else {
        (s.result, usize::from(s.result_count))
    };
    n = n.min(4);
    for (i, d) in out.iter_mut().take(n).enumerate() {
        *d = (result >> (32 * i)) as u32;
    }
    if hdr.tfe {
        // SPEC §3 step 5: one status dword after the data dwords, always 0.
        out[n] = 0;
        n += 1;
    }
    (out, n)
}

/// A PCK load's result dwords for `lane` (docs/decisions.md "Images", *TD*): for each DMASK
/// component c (DMASK 0 read as 1) in ascending order, the raw bits of field c of the element
/// (SPEC §1.4's fields of `iss_dfmt_i`, field 0 in the lowest bits), zero-extended (PCK) or
/// sign-extended from the field's top bit (PCK_SGN); 0 when the dfmt has no field c or the lane
/// did not take part (its element buffer holds 0 then, and a lane that takes part is inside the
/// level); then a 0 status dword with TFE.
fn pck_result(slot: &Slot, lane: usize) -> ([u32; MAX_DWORDS], usize) {
    let hdr = slot.hdr;
    let mut out = [0u32; MAX_DWORDS];
    let elem = slot.elem[lane];
    let part = slot.part >> lane & 1 != 0;
    let fields = format::fields(hdr.dfmt);
    let dmask = if hdr.dmask == 0 { 1 } else { hdr.dmask };
    let mut n = 0usize;
    for c in 0..4 {
        if dmask >> c & 1 == 0 {
            continue;
        }
        out[n] = match fields.get(c) {
            Some(f) if part => {
                let raw = (elem >> f.offset) as u32 & format::low_mask(f.width);
                if hdr.op == IMAGE_OP_PCK_SGN {
                    format::sign_extend(raw, f.width) as u32
                } else {
                    raw
                }
            }
            _ => 0,
        };
        n += 1;
    }
    if hdr.tfe {
        out[n] = 0;
        n += 1;
    }
    (out, n)
}
