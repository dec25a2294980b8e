//! The TCP (L1) of `vmem_pipe` (docs/decisions.md "vmem_pipe": *TCP (L1): banks that look up
//! independently, MSHRs, lines as the reorder buffer*, *L2 requests*, *Responses*, *Line RAM
//! port*, *Return stage*, *TCP → TD*, the `quiet` register of *Quiet after reset*).
//!
//! Per bank: line entries (valid / pending / invalid, pins, an LRU order), the line RAM (single
//! port, synchronous read), MSHRs and their data register file, the lookup, return and L2 request
//! queues, the fill register and the return register. Every cycle each bank *decides* from the
//! state at the start of the cycle (its lookup-queue head, its return-queue head, a response on
//! its channel, whether the L2 accepts its presented request), then *applies* the decisions at
//! the edge — so no decision sees another's effect of the same cycle, as the contract's
//! "a decision inside the pipe in cycle t uses the state at the start of cycle t" says.

use std::collections::VecDeque;

use super::config::Config;
use super::cover::event;
use super::inst::{Op, Slot, ADDRESS_MASK, BUNDLE};
use super::ports::{In, Out, BANKS, L2_ATOMIC, L2_READ, L2_WRITE, LINE_DWORDS, TAG_POSTED};

/// A line's 64 bytes: dword i = bytes 4i .. 4i + 3.
type Line = [u32; LINE_DWORDS];

/// How a bank handles an access (the instruction's kind and GLC).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AccessKind {
    Load,
    LoadGlc,
    Store,
    Atomic { glc: bool },
}

impl AccessKind {
    fn of(slot: &Slot) -> AccessKind {
        match slot.hdr.kind {
            Op::Load if slot.hdr.glc => AccessKind::LoadGlc,
            Op::Load => AccessKind::Load,
            Op::Store => AccessKind::Store,
            Op::Atomic => AccessKind::Atomic { glc: slot.hdr.glc },
        }
    }

    /// Its access returns data to the TD (a return-queue entry).
    fn returns(self) -> bool {
        matches!(self, AccessKind::Load | AccessKind::LoadGlc | AccessKind::Atomic { glc: true })
    }

    /// Its L2 request is posted (tag {1, id}, acknowledged).
    fn posted(self) -> bool {
        matches!(self, AccessKind::Store | AccessKind::Atomic { glc: false })
    }
}

/// One access: the requests of a bundle to one bank and one line (atomics: one request).
#[derive(Clone, Copy, Debug)]
pub(super) struct Access {
    /// The instruction's id.
    pub id: u8,
    pub kind: AccessKind,
    /// Address bits 47:6 (atomics: of the first byte).
    pub line: u64,
    /// Its requests, indices into the instruction's requests, in bundle order.
    pub reqs: [u8; BUNDLE],
    pub n: u8,
}

impl Access {
    fn reqs(&self) -> &[u8] {
        &self.reqs[..usize::from(self.n)]
    }
}

/// A line entry's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum State {
    /// Neither valid nor pending.
    #[default]
    Invalid,
    /// MSHR m is filling it.
    Pending(u8),
    Valid,
}

/// One line entry.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    state: State,
    /// Address bits 47:6.
    line: u64,
    /// Queued hits that will read it.
    pins: u32,
    /// LRU order: the stamp of its last MRU update (larger = more recent).
    stamp: u64,
}

/// One MSHR.
#[derive(Clone, Copy, Debug, Default)]
struct Mshr {
    busy: bool,
    /// Lined: the entry it fills; lineless: none.
    entry: Option<u8>,
    /// Loads may join.
    open: bool,
    /// Accesses that will read its data.
    targets: u32,
    /// Its response has come.
    arrived: bool,
    /// The instruction whose access sent its request (`done_l2_o`).
    id: u8,
}

/// A return-queue entry's source of data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// A hit: line entry E, read from the line RAM.
    Hit(u8),
    /// MSHR m's data register.
    Mshr(u8),
}

#[derive(Clone, Copy, Debug)]
struct ReturnEntry {
    access: Access,
    source: Source,
}

/// One L2 request as the channel presents it.
#[derive(Clone, Copy, Debug, Default)]
struct L2Request {
    kind: u8,
    tag: u8,
    addr: u64,
    mask: u64,
    data: Line,
    op: u8,
    wide: bool,
    ret: bool,
    /// The instruction it is for (`done_l2_o`).
    id: u8,
}

/// One bank.
#[derive(Clone, Debug)]
struct Bank {
    entries: Vec<Entry>,
    /// The line RAM, one row per entry.
    ram: Vec<Line>,
    mshrs: Vec<Mshr>,
    /// The MSHRs' data register file, one row per MSHR.
    rf: Vec<Line>,
    lookup: VecDeque<Access>,
    returns: VecDeque<ReturnEntry>,
    l2: VecDeque<L2Request>,
    /// The fill register: an entry and its data, written into the line RAM in the next cycle.
    fill: Option<(u8, Line)>,
    /// The return register: an access and its line's 512 bits.
    reg: Option<(Access, Line)>,
    /// The next LRU stamp.
    clock: u64,
    /// Coverage only: the tags of accepted, unanswered requests in acceptance order.
    outstanding: VecDeque<u8>,
}

impl Bank {
    fn new(c: &Config) -> Bank {
        Bank {
            entries: vec![Entry::default(); c.lines],
            ram: vec![[0; LINE_DWORDS]; c.lines],
            mshrs: vec![Mshr::default(); c.mshrs],
            rf: vec![[0; LINE_DWORDS]; c.mshrs],
            lookup: VecDeque::with_capacity(c.lookup_depth),
            returns: VecDeque::with_capacity(c.return_depth),
            l2: VecDeque::with_capacity(c.l2_depth),
            fill: None,
            reg: None,
            clock: 0,
            outstanding: VecDeque::new(),
        }
    }

    /// The entry holding `line`, valid or pending.
    fn find(&self, line: u64) -> Option<usize> {
        self.entries.iter().position(|e| e.state != State::Invalid && e.line == line)
    }

    /// The lowest free MSHR.
    fn free_mshr(&self) -> Option<u8> {
        self.mshrs.iter().position(|m| !m.busy).map(|m| m as u8)
    }

    /// A miss's victim: the lowest-numbered entry that is invalid and unpinned, else the least
    /// recently used entry that is valid and unpinned (valid entries are not pending).
    fn victim(&self) -> usize {
        if let Some(e) = self.entries.iter().position(|e| e.state == State::Invalid && e.pins == 0) {
            return e;
        }
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.state == State::Valid && e.pins == 0)
            .min_by_key(|(_, e)| e.stamp)
            .map(|(k, _)| k)
            .expect("Lines > Mshrs + ReturnDepth leaves a victim")
    }

    fn mru(&mut self, e: usize) {
        self.clock += 1;
        self.entries[e].stamp = self.clock;
    }
}

/// What a bank's lookup does in a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lookup {
    /// No access at the head, or it waits.
    Wait,
    /// A store or atomic found its line pending: it closes MSHR m and waits for the fill.
    Close(u8),
    Hit(usize),
    /// Merge into MSHR m filling entry E.
    Merge(u8, usize),
    /// Miss: MSHR m, victim entry.
    Miss(u8, usize),
    GlcRead(u8),
    /// A store, writing entry E when valid.
    Store(Option<usize>),
    /// An atomic: its MSHR with GLC, the valid entry it invalidates.
    Atomic(Option<u8>, Option<usize>),
}

/// What a response does at the edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Response {
    Ignored,
    /// Tag {0, m}, and whether m was open at the start of the cycle (a store closing it at the
    /// same edge does not change what its response does).
    Mshr(u8, bool),
    /// Tag {1, id}.
    Ack(u8),
}

/// The TCP.
#[derive(Clone, Debug)]
pub(super) struct Tcp {
    config: Config,
    banks: Vec<Bank>,
    /// `quiet`: 0 after reset, 1 from the first edge with `l2_idle_i`.
    pub quiet: bool,
    /// This cycle's events (cover.rs `event`), for functional coverage only.
    pub events: u64,
}

impl Tcp {
    pub fn new(config: &Config) -> Tcp {
        Tcp { config: *config, banks: (0..config.banks).map(|_| Bank::new(config)).collect(), quiet: false, events: 0 }
    }

    /// The free entries of each bank's lookup queue (at the start of a cycle).
    pub fn lookup_free(&self) -> [usize; BANKS] {
        std::array::from_fn(|b| self.banks.get(b).map_or(0, |bank| self.config.lookup_depth - bank.lookup.len()))
    }

    /// *Bundle acceptance*: the bundle of requests `reqs` of instruction `id` presented in cycle
    /// `t` is accepted when each bank's accesses fit the free entries of its lookup queue at the
    /// start of `t` (`free`); then its accesses enter the queues at the edge, in order. Returns
    /// whether it was accepted.
    pub fn offer(&mut self, slot: &mut Slot, id: usize, reqs: std::ops::Range<usize>, free: &[usize; BANKS]) -> bool {
        let kind = AccessKind::of(slot);
        let atomic = slot.hdr.kind == Op::Atomic;
        // The accesses in order of their first request (atomics never combine).
        let mut acc = [(0usize, Access { id: id as u8, kind, line: 0, reqs: [0; BUNDLE], n: 0 }); BUNDLE];
        let mut n = 0usize;
        let mut straddle = false;
        for r in reqs {
            let (bank, line) = slot.reqs[r].bank_line(atomic, self.config.banks);
            straddle |= slot.reqs[r].second;
            let joins = if atomic { None } else { acc[..n].iter().position(|(b, a)| *b == bank && a.line == line) };
            let k = joins.unwrap_or_else(|| {
                acc[n].0 = bank;
                acc[n].1.line = line;
                n += 1;
                n - 1
            });
            let a = &mut acc[k].1;
            a.reqs[usize::from(a.n)] = r as u8;
            a.n += 1;
        }
        let mut per_bank = [0usize; BANKS];
        for (b, _) in &acc[..n] {
            per_bank[*b] += 1;
        }
        if (0..BANKS).any(|b| per_bank[b] > free[b]) {
            self.events |= event::LOOKUP_FULL;
            return false;
        }
        let most = per_bank.iter().copied().max().unwrap_or(0);
        slot.c.conflicts += most.saturating_sub(1) as u64;
        if most > 1 {
            self.events |= event::BANK_CONFLICT;
        }
        if straddle {
            self.events |= event::STRADDLE;
        }
        for (b, a) in &acc[..n] {
            if a.n > 1 {
                self.events |= event::COMBINE;
            }
            if kind.returns() {
                slot.returning += 1;
            }
            if kind.posted() {
                slot.posted += 1;
            }
            self.banks[*b].lookup.push_back(*a);
        }
        true
    }

    /// *TCP → TD* in cycle `t`: the TD takes the return registers holding accesses of its gather
    /// instruction `g` (instruction id), for b = 0, 1, … while the blocks taken stay at most 4;
    /// the first that does not fit ends the taking. The blocks go into `g`'s element buffer
    /// (`slot.elem`). Returns the banks whose register is taken (free at the edge).
    pub fn take(&mut self, slot: &mut Slot, g: usize) -> [bool; BANKS] {
        let mut taken = [false; BANKS];
        let mut blocks = 0;
        for (b, bank) in self.banks.iter().enumerate() {
            let Some((access, data)) = &bank.reg else {
                continue;
            };
            if usize::from(access.id) != g {
                continue;
            }
            if blocks + usize::from(access.n) > 4 {
                self.events |= event::TD_STOP;
                break;
            }
            blocks += usize::from(access.n);
            taken[b] = true;
            slot.returned += 1;
            for &r in access.reqs() {
                let req = slot.reqs[usize::from(r)];
                if slot.hdr.kind == Op::Atomic {
                    // The value before the operation: dwords 0–1 of the response.
                    let lane = req.lanes.trailing_zeros() as usize;
                    slot.elem[lane] = u128::from(data[0]) | u128::from(data[1]) << 32;
                } else {
                    slot.gather(&req, block_of(data, (req.block & 0x3) as usize));
                }
            }
        }
        if blocks == 4 {
            self.events |= event::TD_FOUR;
        }
        taken
    }

    /// One cycle `t` of every bank: lookup, return stage, response, L2 acceptance, decided from
    /// the state at the start of `t`, applied at its edge; `taken` the return registers the TD
    /// takes in `t`. Then `quiet` rises with `l2_idle_i`.
    pub fn cycle(&mut self, slots: &mut [Slot], input: &In, taken: &[bool; BANKS], t: u64) {
        for (b, &taken) in taken.iter().enumerate().take(self.config.banks) {
            self.bank_cycle(b, slots, input, taken, t);
        }
        if input.l2_idle {
            self.quiet = true;
        }
    }

    fn bank_cycle(&mut self, b: usize, slots: &mut [Slot], input: &In, taken: bool, t: u64) {
        let quiet = self.quiet;
        // Decisions, from the state at the start of t.
        let lookup = self.decide_lookup(b, slots, t);
        let bank = &self.banks[b];
        let store_writes = matches!(lookup, Lookup::Store(Some(_)));
        let fill_writes = bank.fill.is_some();
        // The return stage: the return register is empty or taken now, and the head is ready.
        let read = if bank.reg.is_none() || taken {
            bank.returns.front().copied().filter(|r| match r.source {
                Source::Hit(_) => {
                    if fill_writes || store_writes {
                        self.events |= event::PORT_DELAY;
                    }
                    !(fill_writes || store_writes)
                }
                Source::Mshr(m) => bank.mshrs[usize::from(m)].arrived,
            })
        } else {
            None
        };
        let accepted = quiet && !bank.l2.is_empty() && input.l2_req_ready >> b & 1 != 0;
        let response = if input.l2_rsp_valid >> b & 1 != 0 {
            self.decide_response(b, input.l2_rsp_tag[b] & 0x1f, slots, quiet)
        } else {
            Response::Ignored
        };

        // The edge. The return stage reads the RAM or the register file as they are at the start
        // of t (no write shares the cycle with a hit's read; the response writes another row).
        let bank = &mut self.banks[b];
        if taken {
            bank.reg = None;
        }
        if let Some(r) = read {
            bank.returns.pop_front();
            let data = match r.source {
                Source::Hit(e) => {
                    bank.entries[usize::from(e)].pins -= 1;
                    bank.ram[usize::from(e)]
                }
                Source::Mshr(m) => {
                    let mshr = &mut bank.mshrs[usize::from(m)];
                    mshr.targets -= 1;
                    if mshr.targets == 0 {
                        // Arrived, no target left: free from t + 1.
                        *mshr = Mshr::default();
                    }
                    bank.rf[usize::from(m)]
                }
            };
            bank.reg = Some((r.access, data));
        }
        if let Some((e, data)) = bank.fill.take() {
            bank.ram[usize::from(e)] = data;
        }
        self.apply_lookup(b, lookup, slots, t);
        let bank = &mut self.banks[b];
        if accepted {
            let req = bank.l2.pop_front().expect("a presented request");
            bank.outstanding.push_back(req.tag);
            slots[usize::from(req.id)].c.l2_first.get_or_insert(t);
        }
        let data: Line = input.l2_rsp_data[LINE_DWORDS * b..LINE_DWORDS * (b + 1)].try_into().expect("a line");
        match response {
            Response::Ignored => {}
            Response::Mshr(m, open) => {
                let mshr = &mut bank.mshrs[usize::from(m)];
                mshr.arrived = true;
                bank.rf[usize::from(m)] = data;
                slots[usize::from(mshr.id)].c.l2_last = t;
                if let Some(e) = mshr.entry {
                    let entry = &mut bank.entries[usize::from(e)];
                    if open {
                        // The fill: valid now (no LRU change), the line RAM written in t + 1.
                        entry.state = State::Valid;
                        bank.fill = Some((e, data));
                    } else {
                        entry.state = State::Invalid;
                    }
                }
            }
            Response::Ack(id) => {
                let slot = &mut slots[usize::from(id)];
                slot.acks += 1;
                slot.c.l2_last = t;
            }
        }
    }

    /// Bank `b`'s lookup in cycle `t`: what the access at the head of its lookup queue does,
    /// from the state at the start of `t` (counters and events recorded here).
    fn decide_lookup(&mut self, b: usize, slots: &mut [Slot], t: u64) -> Lookup {
        let bank = &self.banks[b];
        let Some(access) = bank.lookup.front() else {
            return Lookup::Wait;
        };
        let slot = &mut slots[usize::from(access.id)];
        slot.c.tcp_first.get_or_insert(t);
        slot.c.tcp_last = t;
        let quiet = self.quiet;
        let return_free = bank.returns.len() < self.config.return_depth;
        let l2_free = bank.l2.len() < self.config.l2_depth;
        let free_mshr = bank.free_mshr();
        let found = bank.find(access.line);
        let mut events = 0;
        if !return_free && access.kind.returns() {
            events |= event::RETURN_FULL;
        }
        if !quiet {
            events |= event::QUIET_WAIT;
        }
        let pending = found.and_then(|e| match bank.entries[e].state {
            State::Pending(m) => Some(m),
            _ => None,
        });
        let mut mshr_wait = false;
        let decision = match (access.kind, found, pending) {
            (AccessKind::Load, Some(e), None) => {
                // Hit.
                events &= !event::QUIET_WAIT;
                if return_free {
                    Lookup::Hit(e)
                } else {
                    Lookup::Wait
                }
            }
            (AccessKind::Load, Some(e), Some(m)) => {
                events &= !event::QUIET_WAIT;
                let mshr = &bank.mshrs[usize::from(m)];
                if !mshr.open {
                    events |= event::FILL_WAIT;
                    events &= !event::RETURN_FULL;
                    Lookup::Wait
                } else if mshr.targets as usize >= self.config.targets {
                    events |= event::TARGET_WAIT;
                    mshr_wait = true;
                    Lookup::Wait
                } else if return_free {
                    Lookup::Merge(m, e)
                } else {
                    Lookup::Wait
                }
            }
            (AccessKind::Load | AccessKind::LoadGlc, _, _) => match free_mshr {
                None => {
                    events |= event::MSHR_WAIT;
                    mshr_wait = true;
                    Lookup::Wait
                }
                Some(m) if quiet && return_free && l2_free => {
                    if access.kind == AccessKind::Load {
                        Lookup::Miss(m, bank.victim())
                    } else {
                        Lookup::GlcRead(m)
                    }
                }
                Some(_) => Lookup::Wait,
            },
            (AccessKind::Store | AccessKind::Atomic { .. }, _, Some(m)) => {
                events &= !(event::QUIET_WAIT | event::RETURN_FULL);
                events |= event::FILL_WAIT;
                if bank.mshrs[usize::from(m)].open {
                    events |= event::STORE_CLOSES;
                }
                Lookup::Close(m)
            }
            (AccessKind::Store, found, None) => {
                let pinned = found.is_some_and(|e| bank.entries[e].pins > 0);
                if pinned {
                    events |= event::PINS_WAIT;
                }
                // A valid line is written this cycle: pins 0 and the port free of the fill.
                let port = found.is_none() || (!pinned && bank.fill.is_none());
                if quiet && l2_free && port {
                    Lookup::Store(found)
                } else {
                    Lookup::Wait
                }
            }
            (AccessKind::Atomic { glc }, found, None) => {
                let mshr = if glc { free_mshr } else { None };
                if glc && mshr.is_none() {
                    events |= event::MSHR_WAIT;
                    mshr_wait = true;
                }
                if quiet && l2_free && (!glc || (mshr.is_some() && return_free)) {
                    Lookup::Atomic(mshr, found)
                } else {
                    Lookup::Wait
                }
            }
        };
        if mshr_wait {
            slot.c.mshr_wait += 1;
        }
        self.events |= events;
        decision
    }

    /// Applies bank `b`'s lookup at the edge of `t`: the access leaves the queue when done.
    fn apply_lookup(&mut self, b: usize, lookup: Lookup, slots: &mut [Slot], t: u64) {
        let bank = &mut self.banks[b];
        let Some(&access) = bank.lookup.front() else {
            return;
        };
        let slot = &mut slots[usize::from(access.id)];
        let n = u64::from(access.n);
        let id = access.id;
        let line_addr = access.line << 6 & ADDRESS_MASK;
        let busy_mshr = bank.mshrs.iter().any(|m| m.busy);
        let mut ret = None;
        match lookup {
            Lookup::Wait => return,
            Lookup::Close(m) => {
                bank.mshrs[usize::from(m)].open = false;
                return;
            }
            Lookup::Hit(e) => {
                self.events |= event::HIT | if busy_mshr { event::HIT_UNDER_MISS } else { 0 };
                bank.entries[e].pins += 1;
                bank.mru(e);
                slot.c.hits += n;
                ret = Some(Source::Hit(e as u8));
            }
            Lookup::Merge(m, e) => {
                self.events |= event::MERGE;
                bank.mshrs[usize::from(m)].targets += 1;
                bank.mru(e);
                slot.c.merged += n;
                ret = Some(Source::Mshr(m));
            }
            Lookup::Miss(m, victim) => {
                self.events |= event::MISS;
                if bank.entries[victim].state == State::Valid {
                    // A valid victim is dropped.
                    self.events |= event::EVICTION;
                }
                bank.entries[victim].state = State::Pending(m);
                bank.entries[victim].line = access.line;
                bank.mru(victim);
                bank.mshrs[usize::from(m)] =
                    Mshr { busy: true, entry: Some(victim as u8), open: true, targets: 1, arrived: false, id };
                bank.l2.push_back(L2Request { kind: L2_READ, tag: m, addr: line_addr, id, ..L2Request::default() });
                slot.c.misses += n;
                slot.c.miss_at(t, n);
                ret = Some(Source::Mshr(m));
            }
            Lookup::GlcRead(m) => {
                self.events |= event::GLC_BYPASS;
                bank.mshrs[usize::from(m)] =
                    Mshr { busy: true, entry: None, open: false, targets: 1, arrived: false, id };
                bank.l2.push_back(L2Request { kind: L2_READ, tag: m, addr: line_addr, id, ..L2Request::default() });
                slot.c.misses += n;
                slot.c.miss_at(t, n);
                ret = Some(Source::Mshr(m));
            }
            Lookup::Store(found) => {
                let (mask, data) = line_write(slot, access.reqs());
                if let Some(e) = found {
                    self.events |= event::WRITE_HIT;
                    let row = &mut bank.ram[e];
                    for (i, d) in row.iter_mut().enumerate() {
                        let m = dword_mask(mask, i);
                        *d = (*d & !m) | (data[i] & m);
                    }
                    bank.mru(e);
                }
                bank.l2.push_back(L2Request {
                    kind: L2_WRITE,
                    tag: TAG_POSTED | id,
                    addr: line_addr,
                    mask,
                    data,
                    id,
                    ..L2Request::default()
                });
                slot.pushed += 1;
            }
            Lookup::Atomic(mshr, found) => {
                if let Some(e) = found {
                    // Invalid, no LRU change; it keeps its pins.
                    self.events |= event::ATOMIC_INVALIDATE;
                    bank.entries[e].state = State::Invalid;
                }
                let req = slot.reqs[usize::from(access.reqs[0])];
                let mut data = [0u32; LINE_DWORDS];
                for (i, d) in data.iter_mut().take(4).enumerate() {
                    *d = (req.data >> (32 * i)) as u32;
                }
                let tag = match mshr {
                    Some(m) => {
                        bank.mshrs[usize::from(m)] =
                            Mshr { busy: true, entry: None, open: false, targets: 1, arrived: false, id };
                        ret = Some(Source::Mshr(m));
                        m
                    }
                    None => {
                        slot.pushed += 1;
                        TAG_POSTED | id
                    }
                };
                bank.l2.push_back(L2Request {
                    kind: L2_ATOMIC,
                    tag,
                    addr: req.block & ADDRESS_MASK,
                    data,
                    op: slot.hdr.op,
                    wide: slot.hdr.wide,
                    ret: slot.hdr.glc,
                    id,
                    ..L2Request::default()
                });
            }
        }
        if let Some(source) = ret {
            bank.returns.push_back(ReturnEntry { access, source });
        }
        bank.lookup.pop_front();
    }

    /// A response on bank `b`'s channel: ignored while `quiet` = 0 and when its tag names
    /// nothing that waits for one (a free MSHR or one whose response has arrived, an MSHR
    /// beyond `Mshrs`, an instruction with no posted request outstanding).
    fn decide_response(&mut self, b: usize, tag: u8, slots: &[Slot], quiet: bool) -> Response {
        let bank = &mut self.banks[b];
        let response = if !quiet {
            Response::Ignored
        } else if tag & TAG_POSTED == 0 {
            let m = tag & 0xf;
            match bank.mshrs.get(usize::from(m)) {
                Some(mshr) if mshr.busy && !mshr.arrived => Response::Mshr(m, mshr.open),
                _ => Response::Ignored,
            }
        } else {
            let id = tag & 0xf;
            match slots.get(usize::from(id)) {
                Some(slot) if slot.posted_outstanding() => Response::Ack(id),
                _ => Response::Ignored,
            }
        };
        if response == Response::Ignored {
            self.events |= event::STALE;
        } else if let Some(k) = bank.outstanding.iter().position(|&g| g == tag) {
            if k > 0 {
                self.events |= event::OUT_OF_ORDER;
            }
            bank.outstanding.remove(k);
        }
        response
    }

    /// The L2 channels' outputs from the state after an edge: with `quiet`, each bank presents
    /// the head of its L2 queue.
    pub fn outputs(&self, out: &mut Out) {
        if !self.quiet {
            return;
        }
        for (b, bank) in self.banks.iter().enumerate() {
            let Some(r) = bank.l2.front() else {
                continue;
            };
            out.l2_req_valid |= 1 << b;
            out.l2_req_kind[b] = r.kind;
            out.l2_req_tag[b] = r.tag;
            out.l2_req_addr[b] = r.addr;
            out.l2_req_mask[b] = r.mask;
            out.l2_req_data[LINE_DWORDS * b..LINE_DWORDS * (b + 1)].copy_from_slice(&r.data);
            out.l2_req_op[b] = r.op;
            out.l2_req_wide |= u8::from(r.wide) << b;
            out.l2_req_return |= u8::from(r.ret) << b;
        }
    }
}

/// Dwords 4q .. 4q + 3 of a line (block q of it) as 16 bytes.
fn block_of(line: &Line, q: usize) -> u128 {
    (0..4).fold(0u128, |acc, i| acc | u128::from(line[4 * q + i]) << (32 * i))
}

/// A store access's masked line write: all its requests' bytes, a later request overwriting an
/// earlier one's; returns the line's byte mask and its dwords (0 where not written).
fn line_write(slot: &Slot, reqs: &[u8]) -> (u64, Line) {
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
