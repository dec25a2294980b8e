//! The TCP (L1) of `vmem_pipe` (docs/decisions.md "vmem_pipe": *TCP (L1): four banks, in
//! order*): the bundle register, four banks of 64 fully associative 64-byte lines with an LRU
//! order and 8 tags each, the per-bank handling of one access per cycle, the L2 requests each
//! bank presents (Moore: from the state after the edge, held unchanged until accepted) and the
//! responses.

use super::cover::event;
use super::inst::{Op, Slot, ADDRESS_MASK, BUNDLE, SLOTS};
use super::ports::{In, Out, BANKS, L2_ATOMIC, L2_READ, L2_WRITE, LINE_DWORDS};

/// Lines per bank.
const ENTRIES: usize = 64;
/// Tags per bank.
const TAGS: usize = 8;

/// One line of a bank.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    valid: bool,
    /// A line read for it is outstanding.
    pending: bool,
    /// Address bits 47:6.
    line: u64,
    /// LRU order: the stamp of its last MRU update (larger = more recent).
    stamp: u64,
    /// Dword i = bytes 4i .. 4i + 3 of the line.
    data: [u32; LINE_DWORDS],
}

/// What an outstanding tag's response does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Use {
    #[default]
    Free,
    /// The line read of a GLC = 0 miss: fills this entry.
    Fill(u8),
    /// A GLC = 1 line read.
    Read,
    /// A masked line write's acknowledgement.
    Ack,
    /// An atomic's response.
    Atomic,
}

/// One tag: its use, the instruction and the requests (indices into its slot) it completes.
#[derive(Clone, Copy, Debug, Default)]
struct Tag {
    kind: Use,
    id: u8,
    reqs: [u8; BUNDLE],
    n: u8,
    /// Acceptance order (for the out-of-order coverage event).
    seq: u64,
}

/// One bank.
#[derive(Clone, Debug)]
struct Bank {
    entries: [Entry; ENTRIES],
    tags: [Tag; TAGS],
    /// The tag of the L2 request the bank presents now (`l2_req_valid_o[b]`), latched when first
    /// presented and kept until the accepting edge.
    presented: Option<u8>,
}

impl Default for Bank {
    fn default() -> Self {
        Bank { entries: [Entry::default(); ENTRIES], tags: [Tag::default(); TAGS], presented: None }
    }
}

impl Bank {
    /// The valid entry holding `line`.
    fn find(&self, line: u64) -> Option<usize> {
        self.entries.iter().position(|e| e.valid && e.line == line)
    }

    /// A miss's victim: the lowest-numbered invalid entry; else the least recently used entry that
    /// is not pending; none when all are pending.
    fn victim(&self) -> Option<usize> {
        if let Some(e) = self.entries.iter().position(|e| !e.valid) {
            return Some(e);
        }
        self.entries.iter().enumerate().filter(|(_, e)| !e.pending).min_by_key(|(_, e)| e.stamp).map(|(k, _)| k)
    }

    /// The lowest free tag.
    fn free_tag(&self) -> Option<u8> {
        self.tags.iter().position(|t| t.kind == Use::Free).map(|k| k as u8)
    }
}

/// The requests of a bundle to one bank and one line (atomics: one request each).
#[derive(Clone, Copy, Debug, Default)]
struct Access {
    bank: u8,
    /// Address bits 47:6.
    line: u64,
    reqs: [u8; BUNDLE],
    n: u8,
    done: bool,
}

/// The bundle register's content: one instruction's bundle as accesses in bundle order.
#[derive(Clone, Copy, Debug, Default)]
struct Bundle {
    id: u8,
    acc: [Access; BUNDLE],
    n: u8,
}

/// How a bank handles an access of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Load,
    LoadGlc,
    Store,
    Atomic,
}

fn kind_of(slot: &Slot) -> Kind {
    match slot.hdr.kind {
        Op::Load if slot.hdr.glc => Kind::LoadGlc,
        Op::Load => Kind::Load,
        Op::Store => Kind::Store,
        Op::Atomic => Kind::Atomic,
    }
}

/// Dwords 4q .. 4q + 3 of a line (block q of it) as 16 bytes.
fn block_of(line: &[u32], q: usize) -> u128 {
    (0..4).fold(0u128, |acc, i| acc | u128::from(line[4 * q + i]) << (32 * i))
}

/// The TCP.
#[derive(Clone, Debug, Default)]
pub(super) struct Tcp {
    banks: Box<[Bank; BANKS]>,
    bundle: Option<Bundle>,
    /// The next LRU stamp.
    clock: u64,
    /// The L2 requests accepted so far (their order, for coverage).
    accepted: u64,
    /// This cycle's events (cover.rs `event`), for functional coverage only.
    pub events: u32,
}

impl Tcp {
    /// The first undone access of the current bundle in bank `b`.
    fn current(&self, b: usize) -> Option<usize> {
        let bundle = self.bundle.as_ref()?;
        bundle.acc[..usize::from(bundle.n)].iter().position(|a| usize::from(a.bank) == b && !a.done)
    }

    fn stamp(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    /// One cycle `t` of the banks: each bank with undone accesses of the current bundle handles
    /// its first (state at the start of `t`; the L2 request it presents is accepted with
    /// `l2_req_ready_i`), then the responses of `t` apply. Returns whether a bundle presented in
    /// `t` is accepted at the edge: the register was empty at the start of `t` or its bundle
    /// completes in `t`.
    pub fn cycle(&mut self, slots: &mut [Slot; SLOTS], input: &In, t: u64) -> bool {
        self.events = 0;
        let accepts = match self.bundle {
            None => true,
            Some(bundle) => {
                let slot = &mut slots[usize::from(bundle.id)];
                for b in 0..BANKS {
                    if let Some(k) = self.current(b) {
                        let ready = input.l2_req_ready >> b & 1 != 0;
                        if self.handle(b, k, slot, ready, t) {
                            self.bundle.as_mut().expect("a bundle is held").acc[k].done = true;
                        }
                    }
                }
                let bundle = self.bundle.as_ref().expect("a bundle is held");
                let completes = bundle.acc[..usize::from(bundle.n)].iter().all(|a| a.done);
                if completes {
                    slot.tcp_last = t;
                    self.bundle = None;
                }
                completes
            }
        };
        for b in 0..BANKS {
            if input.l2_rsp_valid >> b & 1 != 0 {
                let data = &input.l2_rsp_data[LINE_DWORDS * b..LINE_DWORDS * (b + 1)];
                self.respond(b, input.l2_rsp_tag[b] & 0x7, data, slots, t);
            }
        }
        accepts
    }

    /// Bank `b` handles access `k` of the bundle in cycle `t`; returns whether it is done in `t`.
    fn handle(&mut self, b: usize, k: usize, slot: &mut Slot, ready: bool, t: u64) -> bool {
        let bundle = self.bundle.expect("a bundle is held");
        let access = bundle.acc[k];
        let reqs = &access.reqs[..usize::from(access.n)];
        let n = reqs.len() as u64;
        let kind = kind_of(slot);
        let found = self.banks[b].find(access.line);
        let pending = found.is_some_and(|e| self.banks[b].entries[e].pending);
        if pending && kind != Kind::LoadGlc {
            self.events |= event::FILL_WAIT;
        }
        if kind == Kind::Load {
            if let Some(e) = found {
                if self.banks[b].entries[e].pending {
                    // Fill wait.
                    return false;
                }
                self.events |= event::HIT;
                if self.banks[b].tags.iter().any(|g| matches!(g.kind, Use::Fill(_))) {
                    self.events |= event::HIT_UNDER_MISS;
                }
                if access.n > 1 {
                    self.events |= event::COMBINE;
                }
                // Hit: the blocks go to the TD, the entry becomes MRU.
                let stamp = self.stamp();
                let entry = &mut self.banks[b].entries[e];
                entry.stamp = stamp;
                for &r in reqs {
                    let req = slot.reqs[usize::from(r)];
                    slot.gather(&req, block_of(&entry.data, (req.block & 0x3) as usize));
                }
                slot.completed += reqs.len();
                slot.hits += n;
                return true;
            }
        }
        // Everything else is done at the edge where the L2 accepts the request it presents.
        let Some(tag) = self.banks[b].presented else {
            if !pending {
                self.events |= event::NO_VICTIM_OR_TAG;
            }
            return false;
        };
        if !ready {
            return false;
        }
        let bank = &mut self.banks[b];
        bank.presented = None;
        let use_ = match kind {
            Kind::Load => {
                let victim = bank.victim().expect("a presented miss has a victim");
                let stamp = {
                    self.clock += 1;
                    self.clock
                };
                let entry = &mut bank.entries[victim];
                self.events |= event::MISS | if entry.valid { event::EVICTION } else { 0 };
                // An evicted valid line is dropped.
                *entry = Entry { valid: true, pending: true, line: access.line, stamp, data: entry.data };
                slot.misses += n;
                Use::Fill(victim as u8)
            }
            Kind::LoadGlc => {
                slot.misses += n;
                self.events |= event::GLC_BYPASS;
                Use::Read
            }
            Kind::Store => {
                if let Some(e) = found {
                    self.events |= event::WRITE_HIT;
                    let (mask, data) = line_write(slot, reqs);
                    self.clock += 1;
                    let entry = &mut bank.entries[e];
                    for (i, d) in entry.data.iter_mut().enumerate() {
                        let m = dword_mask(mask, i);
                        *d = (*d & !m) | (data[i] & m);
                    }
                    entry.stamp = self.clock;
                }
                Use::Ack
            }
            Kind::Atomic => {
                if let Some(e) = found {
                    bank.entries[e].valid = false;
                    self.events |= event::ATOMIC_INVALIDATE;
                }
                Use::Atomic
            }
        };
        if access.n > 1 {
            self.events |= event::COMBINE;
        }
        let mut tag_reqs = [0u8; BUNDLE];
        tag_reqs[..reqs.len()].copy_from_slice(reqs);
        self.accepted += 1;
        let seq = self.accepted;
        self.banks[b].tags[usize::from(tag)] = Tag { kind: use_, id: bundle.id, reqs: tag_reqs, n: access.n, seq };
        slot.l2_first.get_or_insert(t);
        true
    }

    /// A response on bank `b`'s channel in cycle `t`, applied at its edge; the tag is free from
    /// t + 1.
    fn respond(&mut self, b: usize, tag: u8, data: &[u32], slots: &mut [Slot; SLOTS], t: u64) {
        let bank = &mut self.banks[b];
        let entry = bank.tags[usize::from(tag)];
        if entry.kind == Use::Free {
            // Not outstanding: nothing to do (the testbench never sends one).
            return;
        }
        if bank.tags.iter().any(|g| g.kind != Use::Free && g.seq < entry.seq) {
            self.events |= event::OUT_OF_ORDER;
        }
        bank.tags[usize::from(tag)] = Tag::default();
        let slot = &mut slots[usize::from(entry.id)];
        let reqs = &entry.reqs[..usize::from(entry.n)];
        match entry.kind {
            Use::Fill(e) => {
                let line = &mut bank.entries[usize::from(e)];
                line.data.copy_from_slice(data);
                line.pending = false;
                for &r in reqs {
                    let req = slot.reqs[usize::from(r)];
                    slot.gather(&req, block_of(data, (req.block & 0x3) as usize));
                }
            }
            Use::Read => {
                for &r in reqs {
                    let req = slot.reqs[usize::from(r)];
                    slot.gather(&req, block_of(data, (req.block & 0x3) as usize));
                }
            }
            Use::Atomic => {
                for &r in reqs {
                    let lane = slot.reqs[usize::from(r)].lanes.trailing_zeros() as usize;
                    slot.elem[lane] = u128::from(data[0]) | u128::from(data[1]) << 32;
                }
            }
            Use::Ack | Use::Free => {}
        }
        slot.completed += reqs.len();
        slot.l2_last = t;
    }

    /// Loads the bundle of requests `reqs` of instruction `id` at the edge ending cycle `t`
    /// (its lookup starts in t + 1): requests to one bank and one line form one access (atomics
    /// one each); `done_conflicts_o` adds the largest number of accesses of one bank minus 1.
    pub fn load(&mut self, slots: &mut [Slot; SLOTS], id: usize, reqs: std::ops::Range<usize>, t: u64) {
        let slot = &mut slots[id];
        let atomic = slot.hdr.kind == Op::Atomic;
        let mut bundle = Bundle { id: id as u8, ..Bundle::default() };
        let reqs_straddle = reqs.clone().any(|r| slot.reqs[r].second);
        for r in reqs {
            let (bank, line) = slot.reqs[r].bank_line(atomic);
            let n = usize::from(bundle.n);
            let joins = if atomic {
                None
            } else {
                bundle.acc[..n].iter().position(|a| usize::from(a.bank) == bank && a.line == line)
            };
            let access = match joins {
                Some(k) => &mut bundle.acc[k],
                None => {
                    bundle.n += 1;
                    bundle.acc[n] = Access { bank: bank as u8, line, ..Access::default() };
                    &mut bundle.acc[n]
                }
            };
            access.reqs[usize::from(access.n)] = r as u8;
            access.n += 1;
        }
        let mut per_bank = [0u64; BANKS];
        for a in &bundle.acc[..usize::from(bundle.n)] {
            per_bank[usize::from(a.bank)] += 1;
        }
        let most = per_bank.iter().max().copied().unwrap_or(0);
        slot.conflicts += most.saturating_sub(1);
        if most > 1 {
            self.events |= event::BANK_CONFLICT;
        }
        if reqs_straddle {
            self.events |= event::STRADDLE;
        }
        slot.tcp_first.get_or_insert(t + 1);
        self.bundle = Some(bundle);
    }

    /// The L2 channels' outputs from the state after an edge: bank b presents its current access's
    /// request when that access can go but for `l2_req_ready_i[b]`, with the lowest tag free now
    /// when first presented; once presented it stays, unchanged, until accepted.
    pub fn outputs(&mut self, slots: &[Slot; SLOTS], out: &mut Out) {
        for b in 0..BANKS {
            let Some(k) = self.current(b) else {
                continue;
            };
            let bundle = self.bundle.expect("an access has a bundle");
            let access = bundle.acc[k];
            let slot = &slots[usize::from(bundle.id)];
            let kind = kind_of(slot);
            let bank = &mut self.banks[b];
            if bank.presented.is_none() {
                let found = bank.find(access.line);
                let can_go = match kind {
                    Kind::Load => found.is_none() && bank.victim().is_some(),
                    Kind::LoadGlc => true,
                    Kind::Store | Kind::Atomic => found.is_none_or(|e| !bank.entries[e].pending),
                };
                if can_go {
                    bank.presented = bank.free_tag();
                }
            }
            let Some(tag) = bank.presented else {
                continue;
            };
            let reqs = &access.reqs[..usize::from(access.n)];
            out.l2_req_valid |= 1 << b;
            out.l2_req_tag[b] = tag;
            match kind {
                Kind::Load | Kind::LoadGlc => {
                    out.l2_req_kind[b] = L2_READ;
                    out.l2_req_addr[b] = access.line << 6 & ADDRESS_MASK;
                }
                Kind::Store => {
                    let (mask, data) = line_write(slot, reqs);
                    out.l2_req_kind[b] = L2_WRITE;
                    out.l2_req_addr[b] = access.line << 6 & ADDRESS_MASK;
                    out.l2_req_mask[b] = mask;
                    out.l2_req_data[LINE_DWORDS * b..LINE_DWORDS * (b + 1)].copy_from_slice(&data);
                }
                Kind::Atomic => {
                    let req = &slot.reqs[usize::from(reqs[0])];
                    out.l2_req_kind[b] = L2_ATOMIC;
                    out.l2_req_addr[b] = req.block & ADDRESS_MASK;
                    for (i, d) in out.l2_req_data[LINE_DWORDS * b..LINE_DWORDS * b + 4].iter_mut().enumerate() {
                        *d = (req.data >> (32 * i)) as u32;
                    }
                    out.l2_req_op[b] = slot.hdr.op;
                    out.l2_req_wide |= u8::from(slot.hdr.wide) << b;
                    out.l2_req_return |= u8::from(slot.hdr.glc) << b;
                }
            }
        }
    }
}

/// A store access's masked line write: all its requests' bytes, a later request overwriting an
/// earlier one's; returns the line's byte mask and its dwords (0 where not written).
fn line_write(slot: &Slot, reqs: &[u8]) -> (u64, [u32; LINE_DWORDS]) {
    let mut mask = 0u64;
    let mut bytes = [0u8; 64];
    for &r in reqs {
        let req = &slot.reqs[usize::from(r)];
        let base = 16 * (req.block & 0x3) as usize;
        mask |= u64::from(req.bytes) << base;
        for j in 0..16 {
            if req.bytes >> j & 1 != 0 {
                bytes[base + j] = (req.data >> (8 * j)) as u8;
            }
        }
    }
    let data = std::array::from_fn(|i| {
        u32::from_le_bytes([bytes[4 * i], bytes[4 * i + 1], bytes[4 * i + 2], bytes[4 * i + 3]])
    });
    (mask, data)
}

/// The bits of dword `i` of a line that a 64-bit byte mask covers.
fn dword_mask(mask: u64, i: usize) -> u32 {
    (0..4).fold(0u32, |m, j| if mask >> (4 * i + j) & 1 != 0 { m | 0xff << (8 * j) } else { m })
}
