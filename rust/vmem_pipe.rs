//! `vmem_pipe`: the VMEM pipeline of SPEC §14 (SQ → TA → TCP → TD → SQ) for buffer instructions
//! and SPEC §15's IMAGE_LOAD, IMAGE_LOAD_MIP (and their PCK / PCK_SGN forms), IMAGE_STORE,
//! IMAGE_STORE_MIP, the IMAGE_ATOMIC_*s, IMAGE_GET_RESINFO and the multi-texel loads
//! (IMAGE_LOAD_BY2, BY4, PCK2, PCK4 and their _MIP forms), and the MUBUF loads with `lds` = 1,
//! as a cycle-accurate model. Contract: docs/decisions.md "vmem_pipe (SPEC §14)" (images: its
//! "Images (SPEC §15)"; LDS loads: its "LDS loads").
//! RTL: rtl/vmem_pipe.sv  Binding: cosim/bindings/vmem_pipe/mod.rs  Tests: rust/vmem_pipe/tests.rs
//!
//! [`VmemPipe`] is the clocked model ([`Unit`]): each [`Unit::step`] is one cycle t. Every
//! decision of cycle t reads the state at the start of t plus t's inputs; the new state is taken
//! at the edge that ends t; the outputs returned are then a function of that state alone (Moore),
//! the outputs of cycle t + 1. Its sizes are a [`Config`] (the RTL's parameters). Structure (one
//! file per stage under rust/vmem_pipe/):
//! - `ta.rs`: the issue receiver's two instruction buffers; the address stage's per-lane work
//!   (buffer_addr, or for images the address dwords decoded as the executor's `decode_vaddr`
//!   and `image_addr` with op 4, a multi-texel load's ops 0–3; the store element through d16
//!   and format_pack, participation
//!   and byte masks) and the instruction's SPEC §7 requests and steps, through the coalescer's
//!   grouping (`coalescer::merged_group`, `coalescer::per_lane_requests`); the step stage's
//!   cursor (bundles of at most four requests, two for an image atomic with GLC or a
//!   compare-swap);
//! - `tcp.rs`: bundle acceptance, the banks (line entries with pins and LRU, the single-port line
//!   RAM, MSHRs and their register file, lookup / return / L2 queues, fill and return registers),
//!   the TCP → TD taking, `quiet`;
//! - `td.rs`: the gather instruction, the two element and result buffers, the converter and the
//!   VGPR writes; the result dwords (format_unpack → swizzle → d16, or d16 alone; a PCK load's
//!   raw fields; a multi-texel load's from the `multi_texel` unit; an atomic's returned value);
//! - `inst.rs`: what they share: the header, requests, steps and the in-flight slot (id mod
//!   `InFlight`);
//! - `config.rs`: [`Config`], its legal values and [`ConfigError`];
//! - `ports.rs`: the port tables [`ports::In`], [`ports::Out`]. The testbench (SQ and L2) is the
//!   harness's, cosim/bindings/vmem_pipe/testbench.rs.
//!
//! The order of one cycle (rust/vmem_pipe.rs `step`): the TD's conversion start, the VGPR write's
//! acceptance, the TD's taking of return registers, each TCP bank (lookup, return stage,
//! response, L2 acceptance), the step stage's bundle, G's gathering, the address stage, the issue
//! receiver, the done. Each reads what the contract says it reads at the start of the cycle (the
//! counts are taken first where a later part changes them).
//!
//! The address stage's results are computed in the cycle it takes the instruction, from the
//! buffer it then holds unchanged for four cycles (an image's sixteen); the contract fixes when
//! they may be used (group g from a + g + 3; an image's from a + 4g + 6), so nothing of this
//! shows at the ports. Likewise the TD computes an
//! instruction's results in the cycle s it starts it, the first write being presented from s + 4.
//!
//! Readings of the contract where its text admits more than one (the most literal chosen):
//! - A store lane above 4 bytes with some dwords out of range still has both its blocks'
//!   requests when its access straddles ("the first block, then the second when the access
//!   straddles"), even when its byte mask leaves one of them empty: such a request is a masked
//!   line write with mask 0 on the L2 port.
//! - A 32-bit atomic's data operand is dword 0 (dword 1 is 0); a 32-bit compare-swap's compare
//!   operand (its second data dword) is dword 2, dword 3 0.
//! - D16 byte/short loads with TFE write one dword, as the contract's last paragraph decides.
//! - An atomic's line, for the pending wait and the invalidation, is the line of its first byte
//!   (address bits 47:6), also for an 8-byte atomic whose bytes reach into the next line.
//! - A line entry is in one of three states: invalid, pending, valid ("E becomes valid (not
//!   pending)", "E becomes invalid (not pending)"); so the victim rule's "invalid and unpinned"
//!   excludes pending entries.
//! - *Finished* for an instruction that does not write: its step stage has ended and it has as
//!   many acknowledgements as it has posted accesses (stores, atomics without GLC, counted when
//!   its bundles are accepted) — not merely "every posted request already sent is
//!   acknowledged", which would let a store finish while its accesses still wait in a lookup
//!   queue.
//! - "An instruction with no posted request outstanding" (a response ignored): outstanding =
//!   pushed into an L2 queue and not yet acknowledged (as an MSHR waits for its response from
//!   the lookup that made it busy, not from the L2's acceptance).
//! - A response's effect on a lined MSHR (fill or invalidate) follows whether it was open at the
//!   start of the cycle: a store or atomic closing it at the same edge does not stop that fill
//!   (its lookup saw the entry pending; in the next cycle it sees it valid and goes on as a
//!   store to a valid line).
//! - `done_mshr_wait_o` counts a miss (or GLC read, or GLC atomic) at a lookup head with no free
//!   MSHR even when something else it needs is also missing; a merge whose MSHR is full counts
//!   (the contract calls it an MSHR wait); waiting for a closed MSHR's fill does not.
//! - The gather instruction changes at the edge where it is gathered: a following writing
//!   instruction with nothing to take is G from the next cycle and gathered at that cycle's edge
//!   at the earliest (one instruction is gathered per edge).
//! - `done_conflicts_o` counts a bundle once, when it is accepted (a stalled bundle is not counted
//!   again); `done_l2_o` counts only the instruction's own requests (a load whose accesses all
//!   merged into another instruction's MSHRs has 0).
//! - Images: the coordinates are decoded by the T#'s type bits alone ("a type without a layout:
//!   all 0" for types below 8 and the MSAA types), also for a T# of a 2D-or-higher type whose
//!   dfmt is 0 (the executor decodes none for an unbound T#; nothing shows: `group_valid` is 0).
//!   The D16 store widening's count is `iss_count_i` (k as the SQ sends it). An image with EXEC
//!   0 still takes its 16 quad steps, one cycle each with no request (`done_ta_o` = 16).
//! - GET_RESINFO (`iss_op_i` 3 on an image load; docs/decisions.md "Images"): its address stage
//!   computes each lane's (width, height, layers, levels) with `image_addr` (op 4, _MIP,
//!   coordinates 0, mipid = the lane's address dword, the header's other bits) into the lane's
//!   element; the TD compacts it by DMASK. Like any writing instruction it becomes G only once
//!   every older writing instruction is gathered ("so it is gathered at the edge that ends its
//!   fourth step" read as the general rule for an instruction with nothing to take), so its
//!   step stage never waits for memory but its writes follow an older load's. With EXEC 0 it is
//!   not writing and is done once its four steps have ended.
//! - LDS loads: `iss_lds_i` acts only on a buffer load (the SQ sends it on nothing else); the
//!   result dword of an LDS lane that takes no part (memory out of range or V# unbound) is the
//!   load's as for any such lane (0, or 1 for a SEL_1 component); an LDS write whose group has
//!   EXEC lanes but no LDS lane is presented with mask 0 and takes its cycle like any other.

pub mod config;
pub mod cover;
pub mod ports;

mod inst;
mod ta;
mod tcp;
mod td;

#[cfg(test)]
mod tests;

pub use config::{Config, ConfigError};
use inst::Slot;
pub use ports::{In, Out};
use ta::{Cursor, Receiver};
use tcp::Tcp;
use td::Td;

use crate::unit::Unit;

/// Where a done instruction's cycles went: the first and last cycle behind each of its `done`
/// counters (docs/decisions.md "vmem_pipe"; each span's length, last − first + 1, is the counter)
/// and the cycles of its TCP events, in the model's cycles ([`VmemPipe::cycle`]). Not a port: the
/// harness reads it from the model ([`VmemPipe::done_stages`]) to draw where the cycles went.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stages {
    /// The accepting edges of its first and last beats (`done_issue_o`).
    pub issue: (u64, u64),
    /// The step stage's first and last cycle on it (`done_ta_o`).
    pub ta: (u64, u64),
    /// The first and last cycle one of its accesses was at a lookup-queue head (`done_tcp_o`);
    /// `None` with no access.
    pub tcp: Option<(u64, u64)>,
    /// The first cycle one of its L2 requests was accepted, the last a response to one arrived
    /// (`done_l2_o`); `None` with none.
    pub l2: Option<(u64, u64)>,
    /// s and e of `done_td_o` (conversion start, last write accepted); `None` when not writing.
    pub td: Option<(u64, u64)>,
    /// The cycle its `done_valid_o` shows.
    pub done: u64,
    /// The cycles in which lookups of it missed, with the requests that missed (`done_misses_o`).
    pub misses: Vec<(u64, u64)>,
    /// The cycles in which its bundles with a bank conflict were accepted, with their conflict
    /// cycles (`done_conflicts_o`).
    pub conflicts: Vec<(u64, u64)>,
}

/// The cycle-accurate model of `vmem_pipe` (see the module documentation).
///
/// `LATENCY` is 1 in the sense of rust/unit.rs: every output is a register, so an input of the
/// cycle a [`Unit::step`] applies can change the outputs that step returns, and no earlier ones.
/// The pipe is not a fixed-latency unit: how long an instruction takes from its first beat to its
/// `done` depends on the L2, the VGPR port and what else is in flight (docs/decisions.md
/// "vmem_pipe"), so nothing should pair inputs with outputs by a fixed delay.
#[derive(Clone, Debug)]
pub struct VmemPipe {
    config: Config,
    /// rst_ni is low: every register is clear and edges change nothing.
    in_reset: bool,
    /// The cycle the next [`Unit::step`] applies (cycles since the model was built or reset).
    cycle: u64,
    /// The output registers (the outputs of cycle `cycle`).
    out: Out,
    rx: Box<Receiver>,
    /// The address stage: while it works (a .. a + 3; an image a .. a + 15), its last cycle.
    address: Option<u64>,
    /// One per id (`InFlight`).
    slots: Vec<Slot>,
    /// Instructions taken by the address stage, stepped to the end by the step stage, and done
    /// (the ids: taken mod `InFlight`; they finish in order); writing instructions taken.
    taken: u64,
    stepped: u64,
    finished: u64,
    writing: u64,
    /// In flight (taken, not done) and held by the step stage (taken, not stepped to the end).
    in_flight: usize,
    held: usize,
    /// The step stage's instruction, step and bundle.
    cursor: Option<Cursor>,
    tcp: Tcp,
    td: Td,
    /// The `done` ports of the cycle of the outputs (its other ports 0; `done_valid` 0: none),
    /// and where the done instruction's cycles went.
    done: Out,
    done_stages: Option<Stages>,
    /// TCP and TD events of the last cycle (cover.rs `event`) and its address stage's
    /// (`IMAGE_ATOMIC_OUTSIDE`, `lds_event`, `mt_event`).
    events: u64,
}

impl Default for VmemPipe {
    /// The default configuration, just out of reset.
    fn default() -> Self {
        VmemPipe::new()
    }
}

impl VmemPipe {
    /// A model of the default configuration just out of reset.
    pub fn new() -> Self {
        Self::build(Config::default())
    }

    /// A model of `config` just out of reset; an illegal configuration is refused, naming the
    /// parameter.
    pub fn with_config(config: Config) -> Result<Self, ConfigError> {
        config.validate()?;
        Ok(Self::build(config))
    }

    fn build(config: Config) -> Self {
        VmemPipe {
            config,
            in_reset: false,
            cycle: 0,
            out: Out::default(),
            rx: Box::default(),
            address: None,
            slots: vec![Slot::default(); config.in_flight],
            taken: 0,
            stepped: 0,
            finished: 0,
            writing: 0,
            in_flight: 0,
            held: 0,
            cursor: None,
            tcp: Tcp::new(&config),
            td: Td::default(),
            done: Out::default(),
            done_stages: None,
            events: 0,
        }
    }

    /// The sizes.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Instructions in flight: taken by the address stage and not done.
    pub fn in_flight(&self) -> usize {
        self.in_flight
    }

    /// Nothing held: no beat in a buffer, no instruction in flight, no write or `done` pending in
    /// the outputs.
    pub fn idle(&self) -> bool {
        self.rx.bufs.iter().all(|b| b.beats == 0) && self.in_flight == 0 && !self.out.done_valid
    }

    /// The cycle the next [`Unit::step`] applies, counted from construction or the last reset.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// The TCP and TD events of the last cycle stepped ([`cover::event`] bits), its TA events
    /// ([`cover::IMAGE_ATOMIC_OUTSIDE`], [`cover::mt_event`] bits) and its address stage's LDS
    /// events ([`cover::lds_event`] bits), for functional coverage.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Where the cycles went of the instruction whose `done` the outputs show now (`None` when
    /// they show none).
    pub fn done_stages(&self) -> Option<&Stages> {
        self.done_stages.as_ref()
    }

    fn id(&self, n: u64) -> usize {
        (n % self.config.in_flight as u64) as usize
    }

    /// At the edge ending cycle `t`: the oldest instruction in flight, when finished, leaves the
    /// in-flight set; its `done` shows in t + 1 (one per cycle, in order).
    fn done_cycle(&mut self, t: u64) {
        if self.in_flight == 0 {
            return;
        }
        let s = &self.slots[self.id(self.finished)];
        if !s.finished() {
            return;
        }
        let c = &s.c;
        let span = |first: Option<u64>, last: u64| first.map_or(0, |f| last + 1 - f);
        // Counters wrap at 2^16.
        self.done = Out {
            done_valid: true,
            done_issue: (s.last_beat + 1 - s.first_beat) as u16,
            done_ta: (c.ta_last + 1 - c.ta_first) as u16,
            done_tcp: span(c.tcp_first, c.tcp_last) as u16,
            done_l2: span(c.l2_first, c.l2_last) as u16,
            done_td: if s.writing { c.td as u16 } else { 0 },
            done_total: (t + 1 - s.first_beat) as u16,
            done_requests: s.n_reqs as u16,
            done_hits: c.hits as u16,
            done_misses: c.misses as u16,
            done_merged: c.merged as u16,
            done_conflicts: c.conflicts as u16,
            done_mshr_wait: c.mshr_wait as u16,
            ..Out::default()
        };
        self.done_stages = Some(Stages {
            issue: (s.first_beat, s.last_beat),
            ta: (c.ta_first, c.ta_last),
            tcp: c.tcp_first.map(|f| (f, c.tcp_last)),
            l2: c.l2_first.map(|f| (f, c.l2_last)),
            td: s.writing.then_some((c.td_first, c.td_last)),
            done: t + 1,
            misses: c.miss_cycles.clone(),
            conflicts: c.conflict_cycles.clone(),
        });
        self.in_flight -= 1;
        self.finished += 1;
    }

    /// The step stage in cycle `t`; `free`: each bank's free lookup-queue entries at the start
    /// of `t`.
    fn step_stage(&mut self, free: &[usize; ports::BANKS], t: u64) {
        if self.cursor.is_none() && self.stepped < self.taken {
            // The next instruction starts once its group 0 is available (a + 3; images a + 6).
            let id = self.id(self.stepped);
            let slot = &self.slots[id];
            if t >= slot.hdr.group_available(slot.taken, 0) {
                self.cursor = Some(Cursor { id, step: 0, bundle: 0 });
                self.slots[id].c.ta_first = t;
            }
        }
        let Some(mut c) = self.cursor else {
            return;
        };
        let slot = &mut self.slots[c.id];
        let step = slot.steps[c.step];
        if t < slot.hdr.group_available(slot.taken, step.group) {
            // Its group is not available yet (never after the first step).
            return;
        }
        let range = c.bundle_range(slot);
        let step_done = if range.is_empty() {
            // A step with no request takes one cycle, sending nothing.
            true
        } else if self.tcp.offer(slot, c.id, range.clone(), free) {
            c.bundle += 1;
            let conflicts = slot.c.conflicts - slot.c.conflict_cycles.iter().map(|&(_, n)| n).sum::<u64>();
            if conflicts > 0 {
                slot.c.conflict_cycles.push((t, conflicts));
            }
            range.end == usize::from(step.end)
        } else {
            // Stall: the bundle is presented again in t + 1.
            false
        };
        if step_done {
            c.step += 1;
            c.bundle = 0;
        }
        if c.step == slot.n_steps {
            slot.step_ended = true;
            slot.c.ta_last = t;
            self.cursor = None;
            self.held -= 1;
            self.stepped += 1;
        } else {
            self.cursor = Some(c);
        }
    }

    /// The address stage in cycle `t`, from the counts at the start of `t`: it frees its buffer
    /// at the edge ending its last cycle (the fourth; an image's sixteenth), and when idle takes
    /// the oldest complete buffer. Returns its coverage events (`IMAGE_ATOMIC_OUTSIDE`,
    /// `lds_event`, `mt_event` bits).
    fn address_stage(&mut self, in_flight: usize, held: usize, t: u64) -> u64 {
        let mut events = 0;
        match self.address {
            Some(last) => {
                if t == last {
                    self.rx.free();
                    self.address = None;
                }
            }
            None => {
                if in_flight < self.config.in_flight && held < 2 {
                    if let Some(buf) = self.rx.oldest() {
                        let id = self.id(self.taken);
                        let slot = &mut self.slots[id];
                        ta::take(slot, buf, t);
                        let outside =
                            (0..crate::coalescer::LANES).any(|l| slot.hdr.exec >> l & 1 != 0 && slot.in_range[l] == 0);
                        if slot.hdr.image && slot.hdr.kind == inst::Op::Atomic && slot.unbound == 0 && outside {
                            events |= cover::IMAGE_ATOMIC_OUTSIDE;
                        }
                        if slot.hdr.lds_load() {
                            events |= cover::lds_events(slot.hdr.exec, slot.lds_lanes, slot.part);
                        }
                        events |= cover::multi_texel_events(slot);
                        if slot.hdr.returns_data() && slot.hdr.exec != 0 {
                            slot.writing = true;
                            slot.wseq = self.writing;
                            self.writing += 1;
                            self.td.gather.push_back(id);
                        }
                        self.address = Some(t + slot.hdr.address_cycles() - 1);
                        self.taken += 1;
                        self.in_flight += 1;
                        self.held += 1;
                    }
                }
            }
        }
        events
    }

    /// The outputs of cycle `self.cycle`, from the state.
    fn outputs(&self) -> Out {
        let mut out = Out { iss_ready: self.rx.ready(), ..self.done };
        self.tcp.outputs(&mut out);
        match self.td.presented(self.cycle) {
            Some(w) if w.lds => {
                out.lds_valid = true;
                out.lds_mask = w.mask;
                out.lds_addr = w.addr;
                out.lds_data = w.data;
            }
            Some(w) => {
                out.vgpr_valid = true;
                out.vgpr_addr = w.vgpr;
                out.vgpr_group = w.group;
                out.vgpr_mask = w.mask;
                out.vgpr_data = w.data;
            }
            None => {}
        }
        out
    }
}

crate::cover::impl_covered!(VmemPipe);

impl Unit for VmemPipe {
    const NAME: &'static str = "vmem_pipe";
    /// Moore outputs: see [`VmemPipe`]; not a fixed latency.
    const LATENCY: usize = 1;
    type In = In;
    type Out = Out;

    /// Reset empties everything and keeps the configuration.
    fn set_reset(&mut self, asserted: bool) -> Out {
        if asserted {
            *self = VmemPipe::build(self.config);
        }
        self.in_reset = asserted;
        self.out
    }

    fn step(&mut self, input: &In) -> Out {
        if self.in_reset {
            return self.out;
        }
        let t = self.cycle;
        // What later parts of the cycle change but earlier ones must see as at the start of t.
        let (in_flight, held) = (self.in_flight, self.held);
        let lookup_free = self.tcp.lookup_free();
        self.done = Out::default();
        self.done_stages = None;
        self.tcp.events = 0;
        // TD: a conversion starts; the write presented now is accepted; G takes return registers.
        self.td.convert(&self.slots, t);
        if (self.out.vgpr_valid && input.vgpr_ready) || (self.out.lds_valid && input.lds_ready) {
            self.td.accept_write(&mut self.slots, t);
        }
        let taken = match self.td.gatherer(&self.slots, t) {
            Some(g) => self.tcp.take(&mut self.slots[g], g),
            None => [false; ports::BANKS],
        };
        // TCP banks, then the step stage offering its bundle.
        self.tcp.cycle(&mut self.slots, input, &taken, t);
        self.step_stage(&lookup_free, t);
        self.td.gathered(&mut self.slots);
        let ta_events = self.address_stage(in_flight, held, t);
        if input.iss_valid && self.out.iss_ready {
            self.rx.accept(input, t);
        }
        self.done_cycle(t);
        self.events = self.tcp.events | ta_events;
        self.cycle = t + 1;
        self.out = self.outputs();
        self.out
    }
}

// No `eval` object (SPEC §13): the pipeline's inputs answer its outputs, so one input has no
// result of its own; it runs programs (SPEC §14.1).
#[cfg(feature = "json")]
impl crate::eval::EvalObject for VmemPipe {
    const NO_OBJECT: Option<&'static str> = Some("it runs programs; use `gcn-vmem exec FILE --pipeline` (SPEC §14.1)");

    fn result(_input: &In) -> Vec<Out> {
        Vec::new()
    }

    fn object(_input: &In, _outs: &[Out]) -> serde_json::Map<String, serde_json::Value> {
        serde_json::Map::new()
    }
}
