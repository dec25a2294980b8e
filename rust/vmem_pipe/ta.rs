//! The TA side of `vmem_pipe` (docs/decisions.md "vmem_pipe": *Issue receiver*, *TA: address
//! stage*, *TA: step stage*): the two instruction buffers the issue port fills ([`Receiver`]),
//! what the address stage computes for an instruction it takes ([`take`]: buffer_addr per lane,
//! the store element through d16/format_pack, which lanes take part, their byte masks, then the
//! SPEC §7 requests and steps through the coalescer's grouping), and the step stage's position
//! ([`Cursor`]). The cycle-by-cycle sequencing is in rust/vmem_pipe.rs. Unchanged by the contract's
//! TCP with MSHRs, except that the address stage's limit is `InFlight` (rust/vmem_pipe.rs).

use super::inst::{expand, Counters, Header, Op, Request, Slot, Step, ADDRESS_MASK};
use super::ports::{In, GROUP_LANES};
use crate::coalescer::{self, LaneRequest, LANES};
use crate::exec::decode_vaddr;
use crate::image_addr::{self, OP_ELEMENT};
use crate::tsharp::TSharp;
use crate::{buffer_addr, d16, format_pack};

/// Beats a buffer keeps: B = max(4, 4A, 4D) ≤ 16 (A ≤ 2, D ≤ 4).
const BEATS: usize = 16;
/// Address or data dwords per lane a buffer keeps (beat k carries dword ⌊k/4⌋).
const DWORDS: usize = BEATS / 4;

/// One instruction buffer of the issue receiver.
#[derive(Clone, Debug)]
pub(super) struct IssueBuffer {
    /// Beats accepted so far.
    pub beats: usize,
    /// Holding a complete instruction (its last beat accepted), until the address stage frees it.
    pub complete: bool,
    pub hdr: Header,
    /// Address dword d of lane l at `addr[d][l]`; data likewise.
    pub addr: [[u32; LANES]; DWORDS],
    pub data: [[u32; LANES]; DWORDS],
    /// Cycles of the accepting edges of the first and last beats.
    pub first_beat: u64,
    pub last_beat: u64,
}

impl Default for IssueBuffer {
    fn default() -> Self {
        IssueBuffer {
            beats: 0,
            complete: false,
            hdr: Header::default(),
            addr: [[0; LANES]; DWORDS],
            data: [[0; LANES]; DWORDS],
            first_beat: 0,
            last_beat: 0,
        }
    }
}

/// The issue receiver: two buffers written alternately (`w`) and read by the address stage in
/// the same order (`r`).
#[derive(Clone, Debug, Default)]
pub(super) struct Receiver {
    pub bufs: [IssueBuffer; 2],
    pub w: usize,
    pub r: usize,
}

impl Receiver {
    /// `iss_ready_o` from the state: buffer w is not holding a complete instruction.
    pub fn ready(&self) -> bool {
        !self.bufs[self.w].complete
    }

    /// Accepts a beat at the edge ending cycle `t` (the caller checked valid & ready).
    pub fn accept(&mut self, input: &In, t: u64) {
        let buf = &mut self.bufs[self.w];
        let k = buf.beats;
        if k == 0 {
            buf.hdr = Header::of(input);
            buf.first_beat = t;
            // A fresh instruction: dwords its beats do not carry read 0.
            buf.addr = [[0; LANES]; DWORDS];
            buf.data = [[0; LANES]; DWORDS];
        }
        if k < BEATS {
            // Beat k: dword ⌊k/4⌋ of lanes 16(k mod 4) .. +15.
            let (d, first) = (k / 4, GROUP_LANES * (k % 4));
            buf.addr[d][first..first + GROUP_LANES].copy_from_slice(&input.iss_addr);
            buf.data[d][first..first + GROUP_LANES].copy_from_slice(&input.iss_data);
        }
        buf.beats = k + 1;
        if input.iss_last {
            buf.complete = true;
            buf.last_beat = t;
            self.w ^= 1;
        }
    }

    /// The oldest complete buffer, the one the address stage takes next.
    pub fn oldest(&self) -> Option<&IssueBuffer> {
        let buf = &self.bufs[self.r];
        buf.complete.then_some(buf)
    }

    /// Frees buffer r (the address stage's last cycle on it ends) and moves r on.
    pub fn free(&mut self) {
        let buf = &mut self.bufs[self.r];
        buf.beats = 0;
        buf.complete = false;
        self.r ^= 1;
    }
}

/// The address stage's work on an instruction taken in cycle `a` from `buf`, all of it at once
/// (its timing is fixed: group g's results are available from a + g + 3, an image's from
/// a + 4g + 6, which the step stage checks): per lane buffer_addr (images: `image_addr`),
/// participation, byte mask and store element, then the instruction's requests and steps, into
/// `slot`.
pub(super) fn take(slot: &mut Slot, buf: &IssueBuffer, a: u64) {
    let hdr = buf.hdr;
    slot.hdr = hdr;
    slot.first_beat = buf.first_beat;
    slot.last_beat = buf.last_beat;
    slot.taken = a;
    slot.elem = [0; LANES];
    slot.writing = false;
    slot.wseq = 0;
    slot.step_ended = false;
    slot.returning = 0;
    slot.returned = 0;
    slot.gathered = false;
    slot.posted = 0;
    slot.pushed = 0;
    slot.acks = 0;
    slot.written = false;
    slot.c = Counters::default();

    // Per lane: the element's byte mask (element byte j = bit j) and, for stores, its value
    // (byte j at bits 8j+7:8j); atomics: the operand dwords as the L2 request carries them.
    let mut mask = [0u16; LANES];
    let mut value = [0u128; LANES];
    if hdr.resinfo() {
        resinfo_lanes(slot, buf);
        return;
    }
    if hdr.image {
        image_lanes(slot, buf, &mut mask, &mut value);
    } else {
        buffer_lanes(slot, buf, &mut mask, &mut value);
    }
    build_requests(slot, &mask, &value);
}

/// A buffer instruction's per-lane work (docs/decisions.md "TA: address stage"): buffer_addr,
/// the store element or atomic operands, whether the lane takes part and its byte mask.
fn buffer_lanes(slot: &mut Slot, buf: &IssueBuffer, mask: &mut [u16; LANES], value: &mut [u128; LANES]) {
    let hdr = buf.hdr;
    let bytes = hdr.bytes;
    let mut part = 0u64;
    let mut unbound = 0u64;
    let mut lds_lanes = 0u64;
    slot.lds_addr = [0; LANES];
    for lane in 0..LANES {
        let dword = |d: usize| buf.addr[d][lane];
        let (index, offset) = match (hdr.idxen, hdr.offen) {
            (true, true) => (dword(0), dword(1)),
            (true, false) => (dword(0), 0),
            (false, true) => (0, dword(0)),
            (false, false) => (0, 0),
        };
        let out = buffer_addr::compute(&buffer_addr::In {
            valid: true,
            vsharp: hdr.vsharp,
            inst_offset: hdr.offset,
            offen: hdr.offen,
            idxen: hdr.idxen,
            access: hdr.access,
            bytes,
            lds: hdr.lds,
            sgpr_offset: hdr.soffset,
            vgpr_index: index,
            vgpr_offset: offset,
            tid: lane as u8,
            m0: hdr.m0,
            lds_base: hdr.lds_base,
            lds_size: hdr.lds_size,
        });
        slot.addr[lane] = out.address & ADDRESS_MASK;
        slot.in_range[lane] = out.in_range;
        slot.old[lane] = buf.data[0][lane];
        unbound |= u64::from(out.unbound) << lane;

        let data: [u32; 4] = std::array::from_fn(|d| buf.data[d][lane]);
        let exec = hdr.exec >> lane & 1 != 0;
        let bound = !out.unbound;
        // Elements of at most 4 bytes: in_range[0]; larger: any dword in range.
        let in_range = if bytes <= 4 || hdr.kind == Op::Atomic { out.in_range & 1 != 0 } else { out.in_range != 0 };
        let full = element_mask(u32::from(bytes));
        // LDS loads (docs/decisions.md "LDS loads"): a lane whose LDS dword lies outside the
        // allocation neither reads memory nor writes the LDS; an LDS lane (EXEC, lds_in_range)
        // writes the LDS whether or not its memory access is in range or bound.
        let lds_ok = !hdr.lds_load() || out.lds_in_range;
        if hdr.lds_load() && exec && out.lds_in_range {
            lds_lanes |= 1 << lane;
            slot.lds_addr[lane] = out.lds_address;
        }
        let takes_part = match hdr.kind {
            Op::Load => {
                mask[lane] = full;
                exec && bound && in_range && lds_ok
            }
            Op::Atomic => {
                mask[lane] = full;
                value[lane] = atomic_operands(&hdr, data);
                exec && bound && in_range
            }
            Op::Store => {
                let (v, fmt_valid) = store_element(&hdr, data);
                value[lane] = v;
                mask[lane] = if bytes <= 4 {
                    full
                } else {
                    // Only the bytes of the dwords in range.
                    (0..u32::from(bytes).div_ceil(4).min(4))
                        .filter(|&i| out.in_range >> i & 1 != 0)
                        .fold(0, |m, i| m | (0xf << (4 * i)))
                        & full
                };
                exec && bound && in_range && fmt_valid && mask[lane] != 0
            }
        };
        part |= u64::from(takes_part) << lane;
    }
    slot.part = part;
    slot.unbound = unbound;
    slot.lds_lanes = lds_lanes;
}

/// An image instruction's per-lane work (docs/decisions.md "Images", *Address stage*): the
/// lane's coordinates decoded from its address dwords as the executor's `decode_vaddr` decodes
/// them (by the T#'s type, DA, MIP and A16; a type without a layout: all 0), then `image_addr`
/// with op 4 (one element; a multi-texel load: `iss_op_i` − 4, its group); the lane takes part
/// when in EXEC and `group_valid` (stores: and format_pack's `fmt_valid`), its element (a
/// multi-texel load's: the group) is `iss_bytes_i` bytes at `address_o` (an atomic: its 4 or 8
/// bytes there), all of them in its byte mask, and its `in_range` is `group_valid` for every
/// dword. An atomic's operands come from its data dwords as a buffer atomic's.
fn image_lanes(slot: &mut Slot, buf: &IssueBuffer, mask: &mut [u16; LANES], value: &mut [u128; LANES]) {
    let hdr = buf.hdr;
    let t = TSharp::decode(hdr.vsharp, if hdr.r128 { 0 } else { hdr.rsrc_hi });
    let mut part = 0u64;
    slot.lds_lanes = 0;
    slot.lds_addr = [0; LANES];
    for lane in 0..LANES {
        let vaddr: [u32; DWORDS] = std::array::from_fn(|d| buf.addr[d][lane]);
        let c = decode_vaddr(t.kind, hdr.da, hdr.mip, hdr.a16, &vaddr).unwrap_or_default();
        let out = image_addr::compute(&image_addr::In {
            valid: true,
            tsharp_lo: hdr.vsharp,
            tsharp_hi: hdr.rsrc_hi,
            r128: hdr.r128,
            // A multi-texel load's group (ops 0–3), any other access one element (op 4).
            op: hdr.multi_texel().unwrap_or(OP_ELEMENT),
            mip: hdr.mip,
            dmask: hdr.dmask,
            d16: hdr.d16_lo(),
            tfe: hdr.tfe,
            da: hdr.da,
            x: c.x,
            y: c.y,
            slice: c.slice,
            mipid: c.mipid,
        });
        slot.addr[lane] = out.address & ADDRESS_MASK;
        slot.in_range[lane] = if out.group_valid { 0xf } else { 0 };
        slot.old[lane] = buf.data[0][lane];
        mask[lane] = element_mask(u32::from(hdr.bytes));
        let exec = hdr.exec >> lane & 1 != 0;
        let data: [u32; 4] = std::array::from_fn(|d| buf.data[d][lane]);
        let takes_part = match hdr.kind {
            Op::Store => {
                let (v, fmt_valid) = store_element(&hdr, data);
                value[lane] = v;
                exec && out.group_valid && fmt_valid
            }
            Op::Atomic => {
                value[lane] = atomic_operands(&hdr, data);
                exec && out.group_valid
            }
            Op::Load => exec && out.group_valid,
        };
        part |= u64::from(takes_part) << lane;
    }
    slot.part = part;
    slot.unbound = if t.is_bound() { 0 } else { u64::MAX };
}

/// GET_RESINFO's work (docs/decisions.md "Images", **GET_RESINFO**), taken as a buffer
/// instruction's (four cycles): no lane takes part; lane l's element is its (width, height,
/// layers, levels), component c in dword c: `image_addr`'s `width_o`, `height_o`, `layers_o` for
/// op 4 with _MIP, coordinates 0 and mipid = its address dword (level base_level + mipid; 0 for
/// a missing level), and levels = last_level − base_level + 1 mod 2^32; all 0 for an unbound T#.
/// Its steps: one empty step per group.
fn resinfo_lanes(slot: &mut Slot, buf: &IssueBuffer) {
    let hdr = buf.hdr;
    let t = TSharp::decode(hdr.vsharp, if hdr.r128 { 0 } else { hdr.rsrc_hi });
    let levels = u32::from(t.last_level).wrapping_sub(u32::from(t.base_level)).wrapping_add(1);
    for lane in 0..LANES {
        let out = image_addr::compute(&image_addr::In {
            valid: true,
            tsharp_lo: hdr.vsharp,
            tsharp_hi: hdr.rsrc_hi,
            r128: hdr.r128,
            op: OP_ELEMENT,
            mip: true,
            dmask: hdr.dmask,
            d16: hdr.d16_lo(),
            tfe: hdr.tfe,
            da: hdr.da,
            x: 0,
            y: 0,
            slice: 0,
            mipid: buf.addr[0][lane],
        });
        let dims = [u32::from(out.width), u32::from(out.height), u32::from(out.layers), levels];
        slot.elem[lane] = if t.is_bound() { dims.iter().rev().fold(0, |acc, &d| acc << 32 | u128::from(d)) } else { 0 };
    }
    slot.addr = [0; LANES];
    slot.in_range = [0; LANES];
    slot.old = [0; LANES];
    slot.part = 0;
    slot.unbound = if t.is_bound() { 0 } else { u64::MAX };
    for group in 0..LANES / GROUP_LANES {
        slot.steps[group] = Step { group: group as u8, start: 0, end: 0 };
    }
    slot.n_reqs = 0;
    slot.n_steps = LANES / GROUP_LANES;
}

/// Bits 0 .. n − 1 (n ≤ 16) of a 16-bit mask.
fn element_mask(n: u32) -> u16 {
    if n >= 16 {
        u16::MAX
    } else {
        (1u16 << n) - 1
    }
}

/// A store lane's element value exactly as the executor's `store` builds it (sized: the data
/// dwords, or the d16 unit's OP_STORE_BYTE/SHORT with `hi` for D16_HI byte/short; format: the
/// d16 unit's OP_STORE_FORMAT widening when D16, then format_pack), and whether it is written
/// (format_pack's `fmt_valid`; sized: always). Images as the executor's `image_store`: a format
/// store of `count` = k components, without D16 placed by DMASK (component c is the data dword
/// of its rank among the DMASK bits, 0 where the bit is clear).
fn store_element(hdr: &Header, data: [u32; 4]) -> (u128, bool) {
    let dwords = |n: usize| data.iter().take(n).rev().fold(0u128, |acc, &d| acc << 32 | u128::from(d));
    if hdr.sized {
        if hdr.bytes <= 2 && hdr.d16_hi() {
            let op = if hdr.bytes == 1 { d16::OP_STORE_BYTE } else { d16::OP_STORE_SHORT };
            let out = d16::compute(&d16::In {
                valid: true,
                op,
                hi: true,
                nfmt: 0,
                count: 0,
                data: u128::from(data[0]),
                old: 0,
            });
            (out.result, true)
        } else {
            (dwords(4), true)
        }
    } else {
        let components = if hdr.d16_lo() {
            d16::compute(&d16::In {
                valid: true,
                op: d16::OP_STORE_FORMAT,
                hi: false,
                nfmt: hdr.nfmt,
                count: hdr.count,
                data: u128::from(data[0]) | u128::from(data[1]) << 32,
                old: 0,
            })
            .result
        } else if hdr.image {
            // Component c: the data dword of rank r (the DMASK bits below c) when DMASK bit c
            // is set, else 0.
            (0..4)
                .filter(|&c| hdr.dmask >> c & 1 != 0)
                .enumerate()
                .fold(0u128, |acc, (r, c)| acc | u128::from(data[r]) << (32 * c))
        } else {
            dwords(usize::from(hdr.count.min(4)))
        };
        let out = format_pack::compute(&format_pack::In { valid: true, dfmt: hdr.dfmt, nfmt: hdr.nfmt, components });
        (out.data, out.fmt_valid)
    }
}

/// An atomic lane's `l2_req_data` dwords 0–3: the data operand (1 or 2 dwords from the first data
/// dwords), then for the compare-swaps the compare operand (the next 1 or 2); 0 elsewhere.
fn atomic_operands(hdr: &Header, data: [u32; 4]) -> u128 {
    let width = if hdr.wide { 2 } else { 1 };
    let operand = |first: usize| {
        if hdr.wide {
            u128::from(data[first]) | u128::from(data[first + 1]) << 32
        } else {
            u128::from(data[first])
        }
    };
    let cmp = if hdr.compare_swap() { operand(width) } else { 0 };
    operand(0) | cmp << 64
}

/// A lane's element (`value`, element-relative byte `mask`) placed in its first or second block:
/// the block's byte mask and bytes.
fn place(address: u64, value: u128, mask: u16, second: bool) -> (u16, u128) {
    let o = (address & 0xf) as u32;
    let shifted = u32::from(mask) << o;
    if second {
        let m = (shifted >> 16) as u16;
        let v = value.checked_shr(8 * (16 - o)).unwrap_or(0);
        (m, v & expand(m))
    } else {
        let m = shifted as u16;
        (m, (value << (8 * o)) & expand(m))
    }
}

/// The instruction's requests and steps (docs/decisions.md "TA: step stage"), for groups 0..3:
/// a single-component group whose four quads are mergeable is one step of one request per quad
/// with a lane taking part; otherwise four steps, one per quad, of per-lane requests (atomics:
/// one per lane, never split). Store data is placed with lanes in ascending order, so the highest
/// lane wins where lanes overlap.
fn build_requests(slot: &mut Slot, mask: &[u16; LANES], value: &[u128; LANES]) {
    let hdr = slot.hdr;
    let (bytes, part, addr) = (hdr.bytes.min(16), slot.part, slot.addr);
    let store = hdr.kind == Op::Store;
    let mut n = 0usize;
    let mut steps = 0usize;
    fn push(slot: &mut Slot, n: &mut usize, r: Request) {
        slot.reqs[*n] = r;
        *n += 1;
    }
    for group in 0..LANES / GROUP_LANES {
        let first = GROUP_LANES * group;
        let merged = if hdr.single() { coalescer::merged_group(&addr, part, bytes, group) } else { None };
        if let Some(quads) = merged {
            let start = n;
            for q in quads.into_iter().flatten() {
                let mut r = Request { block: q.block, bytes: 0, lanes: q.lanes, second: false, data: 0 };
                let mut lanes = q.lanes;
                while lanes != 0 {
                    let lane = lanes.trailing_zeros() as usize;
                    lanes &= lanes - 1;
                    let (m, v) = place(addr[lane], value[lane], mask[lane], false);
                    r.bytes |= m;
                    if store {
                        r.data = (r.data & !expand(m)) | v;
                    }
                }
                push(slot, &mut n, r);
            }
            slot.steps[steps] = Step { group: group as u8, start: start as u8, end: n as u8 };
            steps += 1;
            continue;
        }
        for quad in 0..4 {
            let start = n;
            let lanes = first + 4 * quad..first + 4 * quad + 4;
            if hdr.kind == Op::Atomic {
                for lane in lanes.filter(|&l| part >> l & 1 != 0) {
                    let (m, _) = place(addr[lane], 0, mask[lane], false);
                    push(
                        slot,
                        &mut n,
                        Request { block: addr[lane], bytes: m, lanes: 1 << lane, second: false, data: value[lane] },
                    );
                }
            } else {
                coalescer::per_lane_requests(
                    &addr,
                    part,
                    bytes,
                    lanes,
                    |LaneRequest { lane, second, block, .. }| {
                        let (m, v) = place(addr[lane], value[lane], mask[lane], second);
                        let data = if store { v } else { 0 };
                        push(slot, &mut n, Request { block, bytes: m, lanes: 1 << lane, second, data });
                    },
                );
            }
            slot.steps[steps] = Step { group: group as u8, start: start as u8, end: n as u8 };
            steps += 1;
        }
    }
    slot.n_reqs = n;
    slot.n_steps = steps;
}

/// The step stage's position on the instruction it works on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Cursor {
    pub id: usize,
    /// The current step.
    pub step: usize,
    /// The current bundle of the step.
    pub bundle: usize,
}

impl Cursor {
    /// The requests of the current bundle (empty for a step with no request): at most
    /// [`Header::bundle_size`] consecutive requests of the step.
    pub fn bundle_range(&self, slot: &Slot) -> std::ops::Range<usize> {
        let s = slot.steps[self.step];
        let size = slot.hdr.bundle_size();
        let start = usize::from(s.start) + size * self.bundle;
        start.min(usize::from(s.end))..(start + size).min(usize::from(s.end))
    }
}
