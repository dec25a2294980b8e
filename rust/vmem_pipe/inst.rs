//! The records the stages of `vmem_pipe` share: an instruction's [`Header`] (its first beat's
//! fields), its [`Request`]s and [`Step`]s as the TA builds them, and its in-flight [`Slot`]
//! (docs/decisions.md "vmem_pipe": "Ids", at most `InFlight` in flight, slot = id).

use super::ports::{
    rsrc_halves, In, D16_HI, D16_LO, IMAGE_OP_MULTI_TEXEL, IMAGE_OP_PCK, IMAGE_OP_PCK_SGN, IMAGE_OP_RESINFO,
    KIND_ATOMIC, KIND_STORE,
};
use crate::coalescer::LANES;

/// Requests an instruction can make: every lane touching two blocks.
pub(super) const MAX_REQUESTS: usize = 2 * LANES;
/// Steps an instruction can take: four groups of at most four (quad) steps.
pub(super) const MAX_STEPS: usize = 16;
/// Requests per bundle (SPEC §14: "at most four requests per cycle").
pub(super) const BUNDLE: usize = 4;
/// Requests per bundle of an image atomic with GLC = 1 or a compare-swap (docs/decisions.md
/// "Images", *Step stage*: two lanes a cycle, SPEC §15).
pub(super) const BUNDLE_IMAGE_ATOMIC_SLOW: usize = 2;
/// Addresses are modulo 2^48.
pub(super) const ADDRESS_MASK: u64 = (1 << 48) - 1;

/// What the instruction does (`iss_kind_i`; 3 is treated as a load).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Op {
    #[default]
    Load,
    Store,
    Atomic,
}

/// The header fields of an instruction, from its first beat, masked to their port widths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Header {
    pub kind: Op,
    pub op: u8,
    pub wide: bool,
    pub sized: bool,
    pub access: u8,
    pub bytes: u8,
    pub count: u8,
    pub dfmt: u8,
    pub nfmt: u8,
    pub dst_sel: u16,
    pub d16: u8,
    pub offen: bool,
    pub idxen: bool,
    pub glc: bool,
    pub tfe: bool,
    pub offset: u16,
    pub vdata: u8,
    pub soffset: u32,
    /// The resource's bits 127:0: the V#, or a T#'s first half.
    pub vsharp: u128,
    /// The resource's bits 255:128 (a 256-bit T#'s second half).
    pub rsrc_hi: u128,
    pub image: bool,
    pub dmask: u8,
    pub da: bool,
    pub a16: bool,
    pub mip: bool,
    pub r128: bool,
    /// An LDS load (MUBUF `lds`), with M0 and the wave's LDS allocation (0 without `lds`).
    pub lds: bool,
    pub m0: u32,
    pub lds_base: u16,
    pub lds_size: u16,
    pub exec: u64,
}

impl Header {
    /// The header of a first beat.
    pub fn of(i: &In) -> Header {
        let kind = match i.iss_kind & 0x3 {
            KIND_STORE => Op::Store,
            KIND_ATOMIC => Op::Atomic,
            _ => Op::Load,
        };
        Header {
            kind,
            op: i.iss_op & 0x1f,
            wide: i.iss_wide,
            sized: i.iss_sized,
            access: i.iss_access & 0x3,
            bytes: i.iss_bytes & 0x1f,
            count: i.iss_count & 0x7,
            dfmt: i.iss_dfmt & 0xf,
            nfmt: i.iss_nfmt & 0x7,
            dst_sel: i.iss_dst_sel & 0xfff,
            d16: i.iss_d16 & 0x3,
            offen: i.iss_offen,
            idxen: i.iss_idxen,
            glc: i.iss_glc,
            tfe: i.iss_tfe,
            offset: i.iss_offset & 0xfff,
            vdata: i.iss_vdata,
            soffset: i.iss_soffset,
            vsharp: rsrc_halves(&i.iss_rsrc).0,
            rsrc_hi: rsrc_halves(&i.iss_rsrc).1,
            image: i.iss_image,
            dmask: i.iss_dmask & 0xf,
            da: i.iss_da,
            a16: i.iss_a16,
            mip: i.iss_mip,
            r128: i.iss_r128,
            lds: i.iss_lds,
            m0: i.iss_m0,
            lds_base: i.iss_lds_base & 0x1ff,
            lds_size: i.iss_lds_size & 0x1ff,
            exec: i.iss_exec,
        }
    }

    /// SPEC §7's single-component access: sized loads/stores of at most 4 bytes, FORMAT accesses
    /// with `count` = 1 and an element of at most 4 bytes; never atomics, never images
    /// (docs/decisions.md "Images": four quad steps per group).
    pub fn single(&self) -> bool {
        !self.image && self.kind != Op::Atomic && self.bytes <= 4 && (self.sized || self.count == 1)
    }

    /// IMAGE_GET_RESINFO (an image load with `iss_op` 3): no memory request, 16 lanes a cycle
    /// (docs/decisions.md "Images", **GET_RESINFO**).
    pub fn resinfo(&self) -> bool {
        self.image && self.kind == Op::Load && self.op == IMAGE_OP_RESINFO
    }

    /// The cycles the address stage works on the instruction: 4 (one group a cycle; GET_RESINFO
    /// too), 16 for another image (one quad a cycle on four `image_addr` instances).
    pub fn address_cycles(&self) -> u64 {
        if self.image && !self.resinfo() {
            16
        } else {
            4
        }
    }

    /// The cycle from which group `g`'s address-stage results are available to the step stage,
    /// for an instruction taken in cycle `a`: a + g + 3 (GET_RESINFO too); other images
    /// a + 4g + 6 (their last quad's `image_addr` results registered once).
    pub fn group_available(&self, a: u64, g: u8) -> u64 {
        if self.image && !self.resinfo() {
            a + 4 * u64::from(g) + 6
        } else {
            a + u64::from(g) + 3
        }
    }

    /// D16 (low half) as the executor's `D16::Lo`.
    pub fn d16_lo(&self) -> bool {
        self.d16 == D16_LO
    }

    /// D16_HI as the executor's `D16::Hi`.
    pub fn d16_hi(&self) -> bool {
        self.d16 == D16_HI
    }

    /// A D16 byte/short load (BUFFER_LOAD_{UBYTE,SBYTE,SHORT}_D16(_HI)): the d16 unit alone, with
    /// the old VGPR value.
    pub fn d16_byte_short_load(&self) -> bool {
        self.kind == Op::Load && self.sized && matches!(self.bytes, 1 | 2) && (self.d16_lo() || self.d16_hi())
    }

    /// A compare-swap atomic (two operands): Cmpswap (1) or Fcmpswap (14) of `AtomicOp`.
    pub fn compare_swap(&self) -> bool {
        matches!(self.op, 1 | 14)
    }

    /// The most requests in one of its bundles: 4, or 2 for an image atomic with GLC = 1 or a
    /// compare-swap (docs/decisions.md "Images", *Step stage*; buffer atomics keep 4).
    pub fn bundle_size(&self) -> usize {
        if self.image && self.kind == Op::Atomic && (self.glc || self.compare_swap()) {
            BUNDLE_IMAGE_ATOMIC_SLOW
        } else {
            BUNDLE
        }
    }

    /// A PCK or PCK_SGN image load (`iss_op_i` 1 or 2): the TD writes the element's raw fields.
    pub fn pck(&self) -> bool {
        self.image && self.kind == Op::Load && matches!(self.op, IMAGE_OP_PCK | IMAGE_OP_PCK_SGN)
    }

    /// An LDS load (docs/decisions.md "LDS loads"): a buffer load with `lds`; it writes the LDS
    /// port instead of the VGPR port.
    pub fn lds_load(&self) -> bool {
        self.lds && self.kind == Op::Load && !self.image
    }

    /// A multi-texel image load (`iss_op_i` 4..=7): its `image_addr` / `multi_texel` op
    /// (`iss_op_i` − 4: 0 BY2, 1 BY4, 2 PCK2, 3 PCK4); docs/decisions.md *Multi-texel loads*.
    pub fn multi_texel(&self) -> Option<u8> {
        let multi =
            self.image && self.kind == Op::Load && (IMAGE_OP_MULTI_TEXEL..IMAGE_OP_MULTI_TEXEL + 4).contains(&self.op);
        multi.then(|| self.op - IMAGE_OP_MULTI_TEXEL)
    }

    /// A *writing instruction* (loads, but not a multi-texel load of R = `count` = 0 result
    /// dwords; atomics with GLC).
    pub fn returns_data(&self) -> bool {
        match self.kind {
            Op::Load => self.multi_texel().is_none() || self.count != 0,
            Op::Store => false,
            Op::Atomic => self.glc,
        }
    }
}

/// One request from the TA to the TCP.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Request {
    /// Address bits 47:4 of the block; atomics: the lane's byte address (48 bits).
    pub block: u64,
    /// Bit k = byte k of the block (atomics: unused).
    pub bytes: u16,
    /// The lanes served, bit k = lane k.
    pub lanes: u64,
    /// Which block of its lanes it is: false the first, true the second (straddling lanes).
    pub second: bool,
    /// Stores: the block's bytes at the masked positions (byte k at bits 8k+7:8k, 0 elsewhere);
    /// atomics: `l2_req_data` dwords 0–3 (data operand, compare operand); loads: 0.
    pub data: u128,
}

impl Request {
    /// The TCP bank (address bits 7:6 with 4 banks, bit 6 with 2) and line (bits 47:6) of the
    /// request; an atomic's are those of its first byte.
    pub fn bank_line(&self, atomic: bool, banks: usize) -> (usize, u64) {
        let line = if atomic { (self.block & ADDRESS_MASK) >> 6 } else { self.block >> 2 };
        ((line as usize) & (banks - 1), line)
    }
}

/// One step of the step stage: requests `start..end` of the instruction, for group `group`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Step {
    pub group: u8,
    pub start: u8,
    pub end: u8,
}

/// The per-instruction counters of the `done` outputs (cycles are the model's cycle count), and
/// the cycles behind them that [`super::Stages`] reports.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Counters {
    /// The step stage's first and last cycle on the instruction.
    pub ta_first: u64,
    pub ta_last: u64,
    /// The first and last cycle one of its accesses was at a lookup-queue head.
    pub tcp_first: Option<u64>,
    pub tcp_last: u64,
    /// The first cycle one of its L2 requests was accepted, the last a response to one arrived.
    pub l2_first: Option<u64>,
    pub l2_last: u64,
    /// Its load requests whose access hit, sent a line read, merged.
    pub hits: u64,
    pub misses: u64,
    pub merged: u64,
    /// Per bundle, its largest number of accesses to one bank minus 1.
    pub conflicts: u64,
    /// Bank-cycles with an access of it at a lookup-queue head in an MSHR wait.
    pub mshr_wait: u64,
    /// `done_td_o`: e − s + 1 for a writing instruction.
    pub td: u64,
    /// s and e of `done_td_o` (its conversion's first cycle, the cycle its last write was
    /// accepted).
    pub td_first: u64,
    pub td_last: u64,
    /// The cycles in which lookups of it missed, with the requests that missed then (`misses`).
    pub miss_cycles: Vec<(u64, u64)>,
    /// The cycles in which a bundle of it with a bank conflict was accepted, with its conflict
    /// cycles (`conflicts`).
    pub conflict_cycles: Vec<(u64, u64)>,
}

impl Counters {
    /// `n` of its requests missed in a lookup of cycle `t` (two banks in one cycle: one entry).
    pub fn miss_at(&mut self, t: u64, n: u64) {
        match self.miss_cycles.last_mut() {
            Some((c, m)) if *c == t => *m += n,
            _ => self.miss_cycles.push((t, n)),
        }
    }
}

/// One instruction from the address stage taking it to its done: what the TA computed, the
/// element bytes the TD gathers, the completion bookkeeping and the counters.
#[derive(Clone, Debug)]
pub(super) struct Slot {
    pub hdr: Header,
    /// Cycles of the accepting edges of its first and last beats.
    pub first_beat: u64,
    pub last_beat: u64,
    /// The cycle `a` in which the address stage took it (group g available from
    /// [`Header::group_available`]).
    pub taken: u64,
    /// buffer_addr's results per lane (images: `image_addr`'s `address_o`, and `in_range` =
    /// `group_valid` for every dword).
    pub addr: [u64; LANES],
    pub in_range: [u8; LANES],
    /// Bit k: lane k's V# (images: the T#) is unbound.
    pub unbound: u64,
    /// Bit k: lane k takes part in the coalescing.
    pub part: u64,
    /// LDS loads: bit k: lane k is an *LDS lane* (in EXEC, `lds_in_range`); its LDS address.
    pub lds_lanes: u64,
    pub lds_addr: [u32; LANES],
    /// Data dword 0 per lane (D16 byte/short loads: the VDATA VGPR's old value).
    pub old: [u32; LANES],
    pub reqs: [Request; MAX_REQUESTS],
    pub n_reqs: usize,
    pub steps: [Step; MAX_STEPS],
    pub n_steps: usize,
    /// Per lane, the element bytes gathered so far (byte j at bits 8j+7:8j); atomics: the
    /// returned value; GET_RESINFO: the lane's (width, height, layers, levels), component c in
    /// dword c, from the address stage. (The TD's element buffer: the model keeps it with the
    /// instruction; when one of the TD's two buffers is free is modelled in td.rs.)
    pub elem: [u128; LANES],
    /// A *writing* instruction (a load or an atomic with GLC, EXEC not 0), and its number among
    /// the writing instructions taken since reset (its element and result buffer: `wseq` mod 2).
    pub writing: bool,
    pub wseq: u64,
    /// The step stage has stepped it to the end.
    pub step_ended: bool,
    /// Accesses that return data (loads, atomics with GLC) entered into lookup queues, and those
    /// of them the TD has taken.
    pub returning: usize,
    pub returned: usize,
    /// Gathered (the TD has all its blocks).
    pub gathered: bool,
    /// Posted accesses (stores, atomics without GLC) entered into lookup queues; posted requests
    /// pushed into L2 queues; acknowledgements counted.
    pub posted: usize,
    pub pushed: usize,
    pub acks: usize,
    /// Its last VGPR (LDS loads: LDS) write has been accepted.
    pub written: bool,
    pub c: Counters,
}

impl Default for Slot {
    fn default() -> Self {
        Slot {
            hdr: Header::default(),
            first_beat: 0,
            last_beat: 0,
            taken: 0,
            addr: [0; LANES],
            in_range: [0; LANES],
            unbound: 0,
            part: 0,
            lds_lanes: 0,
            lds_addr: [0; LANES],
            old: [0; LANES],
            reqs: [Request::default(); MAX_REQUESTS],
            n_reqs: 0,
            steps: [Step::default(); MAX_STEPS],
            n_steps: 0,
            elem: [0; LANES],
            writing: false,
            wseq: 0,
            step_ended: false,
            returning: 0,
            returned: 0,
            gathered: false,
            posted: 0,
            pushed: 0,
            acks: 0,
            written: false,
            c: Counters::default(),
        }
    }
}

impl Slot {
    /// *Finished* (docs/decisions.md "Done"): a writing instruction when its last write was
    /// accepted; any other when its step stage has ended and each of its posted requests has
    /// been acknowledged.
    pub fn finished(&self) -> bool {
        if self.writing {
            self.written
        } else {
            self.step_ended && self.acks == self.posted
        }
    }

    /// A posted request of it is outstanding (pushed into an L2 queue, not acknowledged).
    pub fn posted_outstanding(&self) -> bool {
        self.pushed > self.acks
    }

    /// A request's block data (16 bytes, byte k at bits 8k+7:8k) goes to the TD: each lane it
    /// serves takes its element's bytes from it (its first block: block bytes o .. 16 to element
    /// bytes 0 ..; its second: block bytes 0 .. to element bytes 16 − o ..; o = address[3:0]).
    pub fn gather(&mut self, req: &Request, block: u128) {
        let n = u32::from(self.hdr.bytes.min(16));
        let mut lanes = req.lanes;
        while lanes != 0 {
            let lane = lanes.trailing_zeros() as usize;
            lanes &= lanes - 1;
            let o = (self.addr[lane] & 0xf) as u32;
            if req.second {
                let take = (o + n).saturating_sub(16);
                self.elem[lane] |= (block & byte_mask(take)) << (8 * (16 - o) % 128);
            } else {
                let take = n.min(16 - o);
                self.elem[lane] |= (block >> (8 * o)) & byte_mask(take);
            }
        }
    }
}

/// The low `n` bytes (0..=16) set.
pub(super) fn byte_mask(n: u32) -> u128 {
    if n >= 16 {
        u128::MAX
    } else {
        (1u128 << (8 * n)) - 1
    }
}

/// A 16-bit byte mask expanded to a 128-bit bit mask (byte k → bits 8k+7:8k).
pub(super) fn expand(mask: u16) -> u128 {
    let mut bits = 0u128;
    let mut m = mask;
    while m != 0 {
        let k = m.trailing_zeros();
        m &= m - 1;
        bits |= 0xffu128 << (8 * k);
    }
    bits
}
