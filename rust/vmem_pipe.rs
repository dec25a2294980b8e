//! `vmem_pipe`: the VMEM pipeline of SPEC §14 (SQ → TA → TCP → TD → SQ) for buffer instructions,
//! as a cycle-accurate model. Contract: docs/decisions.md "vmem_pipe (SPEC §14)".
//! RTL: rtl/vmem_pipe.sv  Binding: cosim/bindings/vmem_pipe/mod.rs  Tests: tests/vmem_pipe.rs
//!
//! [`VmemPipe`] is the clocked model ([`Unit`]): each [`Unit::step`] is one cycle t. Every
//! decision of cycle t reads the state at the start of t plus t's inputs; the new state is taken
//! at the edge that ends t; the outputs returned are then a function of that state alone (Moore),
//! the outputs of cycle t + 1. Structure (one file per stage under rust/vmem_pipe/):
//! - `ta.rs`: the issue receiver's two instruction buffers; the address stage's per-lane work
//!   (buffer_addr, the store element through d16 and format_pack, participation and byte
//!   masks) and the instruction's SPEC §7 requests and steps, through the coalescer's grouping
//!   (`coalescer::merged_group`, `coalescer::per_lane_requests`); the step stage's cursor;
//! - `tcp.rs`: the bundle register, the four banks (64 lines, LRU, 8 tags each), the L2 channels;
//! - `td.rs`: the result dwords (format_unpack → swizzle → d16, or d16 alone) and VGPR writes;
//! - `inst.rs`: what they share: the header, requests, steps and the in-flight slot (id mod 4);
//! - `ports.rs`: the port tables [`ports::In`], [`ports::Out`]. The testbench (SQ and L2) is the
//!   harness's, cosim/bindings/vmem_pipe/testbench.rs.
//!
//! The address stage's results are computed in the cycle it takes the instruction, from the
//! buffer it then holds unchanged for four cycles; the contract fixes when they may be used (group
//! g from a + g + 3), so nothing of this shows at the ports. Likewise the TD computes an
//! instruction's results in the cycle s it starts it, the first write being presented in s + 4.
//!
//! Readings of the contract where its text admits more than one (the most literal chosen):
//! - A store lane above 4 bytes with some dwords out of range still has both its blocks'
//!   requests when its access straddles ("the first block, then the second when the access
//!   straddles"), even when its byte mask leaves one of them empty: such a request is a masked
//!   line write with mask 0 on the L2 port.
//! - A 32-bit atomic's data operand is dword 0 (dword 1 is 0); a 32-bit compare-swap's compare
//!   operand (its second data dword) is dword 2, dword 3 0.
//! - D16 byte/short loads with TFE write one dword, as the executor does (it returns before
//!   appending the TFE dword on that path); the TD's results are "exactly as the executor
//!   computes them".
//! - An atomic's line, for the pending wait and the invalidation, is the line of its first byte
//!   (address bits 47:6), also for an 8-byte atomic whose bytes reach into the next line.

pub mod cover;
pub mod ports;

mod inst;
mod ta;
mod tcp;
mod td;

#[cfg(test)]
mod tests;

use inst::{Slot, SLOTS};
pub use ports::{In, Out};
use ta::{Cursor, Receiver};
use tcp::Tcp;
use td::Job;

use crate::unit::Unit;

/// The counters of a done instruction, shown for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Done {
    issue: u64,
    ta: u64,
    tcp: u64,
    l2: u64,
    td: u64,
    total: u64,
    requests: u64,
    hits: u64,
    misses: u64,
    conflicts: u64,
}

/// The cycle-accurate model of `vmem_pipe` (see the module documentation).
///
/// `LATENCY` is 1 in the sense of rust/unit.rs: every output is a register, so an input of the
/// cycle a [`Unit::step`] applies can change the outputs that step returns, and no earlier ones.
/// The pipe is not a fixed-latency unit: how long an instruction takes from its first beat to its
/// `done` depends on the L2, the VGPR port and what else is in flight (docs/decisions.md
/// "vmem_pipe"), so nothing should pair inputs with outputs by a fixed delay.
#[derive(Clone, Debug, Default)]
pub struct VmemPipe {
    /// rst_ni is low: every register is clear and edges change nothing.
    in_reset: bool,
    /// The cycle the next [`Unit::step`] applies (cycles since the model was built or reset).
    cycle: u64,
    /// The output registers (the outputs of cycle `cycle`).
    out: Out,
    rx: Box<Receiver>,
    /// The address stage: the cycle `a` it took its instruction in, while it works (a .. a + 3).
    address: Option<u64>,
    slots: Box<[Slot; SLOTS]>,
    /// Instructions taken by the address stage, stepped to the end by the step stage, and done
    /// (the ids: taken mod 4; they finish in order).
    taken: u64,
    stepped: u64,
    finished: u64,
    /// In flight (taken, not done) and held by the step stage (taken, not stepped to the end).
    in_flight: usize,
    held: usize,
    /// The step stage's instruction, step and bundle.
    cursor: Option<Cursor>,
    tcp: Tcp,
    /// The TD's writing instruction.
    td: Option<Job>,
    /// The instruction done in the cycle of the outputs.
    done: Option<Done>,
}

impl VmemPipe {
    /// A model just out of reset.
    pub fn new() -> Self {
        Self::default()
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

    /// The TCP events of the last cycle stepped ([`cover::event`] bits), for functional coverage.
    pub fn events(&self) -> u32 {
        self.tcp.events
    }

    /// The TD in cycle `t`: a write presented in `t` (the output register) is accepted with
    /// `vgpr_ready_i`; after the last, the instruction is done. An idle TD starts the oldest
    /// unfinished instruction when it is complete.
    fn td_cycle(&mut self, input: &In, t: u64) {
        if let Some(job) = &mut self.td {
            if self.out.vgpr_valid && input.vgpr_ready {
                job.next += 1;
                if job.next == job.total {
                    let (id, s) = (job.id, job.start);
                    self.td = None;
                    self.finish(id, t, t - s + 1);
                }
            }
            return;
        }
        if self.finished == self.taken {
            return;
        }
        let id = (self.finished % SLOTS as u64) as usize;
        let slot = &self.slots[id];
        if !slot.complete() {
            return;
        }
        if slot.hdr.returns_data() {
            let job = Job::new(slot, id, t);
            if job.total > 0 {
                self.td = Some(job);
                return;
            }
        }
        // Stores, atomics without GLC, loads with no write: done in t + 1.
        self.finish(id, t, 0);
    }

    /// Instruction `id` leaves the in-flight set at the edge ending cycle `t`; its `done` shows in
    /// t + 1.
    fn finish(&mut self, id: usize, t: u64, td: u64) {
        let s = &self.slots[id];
        let span = |first: Option<u64>, last: u64| first.map_or(0, |f| last + 1 - f);
        self.done = Some(Done {
            issue: s.last_beat + 1 - s.first_beat,
            ta: s.ta_last + 1 - s.ta_first,
            tcp: span(s.tcp_first, s.tcp_last),
            l2: span(s.l2_first, s.l2_last),
            td,
            total: t + 1 - s.first_beat,
            requests: s.n_reqs as u64,
            hits: s.hits,
            misses: s.misses,
            conflicts: s.conflicts,
        });
        self.in_flight -= 1;
        self.finished += 1;
    }

    /// The step stage in cycle `t`; `accepts`: a bundle presented now is accepted by the TCP.
    fn step_stage(&mut self, accepts: bool, t: u64) {
        if self.cursor.is_none() && self.stepped < self.taken {
            // The next instruction starts once its group 0 is available (a + 3).
            let id = (self.stepped % SLOTS as u64) as usize;
            if t >= self.slots[id].taken + 3 {
                self.cursor = Some(Cursor { id, step: 0, bundle: 0 });
                self.slots[id].ta_first = t;
            }
        }
        let Some(mut c) = self.cursor else {
            return;
        };
        let slot = &self.slots[c.id];
        let step = slot.steps[c.step];
        if t < slot.taken + u64::from(step.group) + 3 {
            // Its group is not available yet (never after the first step).
            return;
        }
        let range = c.bundle_range(slot);
        let step_done = if range.is_empty() {
            // A step with no request takes one cycle, sending nothing.
            true
        } else if accepts {
            let last = range.end == usize::from(step.end);
            self.tcp.load(&mut self.slots, c.id, range, t);
            c.bundle += 1;
            last
        } else {
            // Stall: the bundle is presented again in t + 1.
            false
        };
        if step_done {
            c.step += 1;
            c.bundle = 0;
        }
        let slot = &mut self.slots[c.id];
        if c.step == slot.n_steps {
            slot.step_ended = true;
            slot.ta_last = t;
            self.cursor = None;
            self.held -= 1;
            self.stepped += 1;
        } else {
            self.cursor = Some(c);
        }
    }

    /// The address stage in cycle `t`, from the counts at the start of `t`: it frees its buffer
    /// at the edge ending its fourth cycle, and when idle takes the oldest complete buffer.
    fn address_stage(&mut self, in_flight: usize, held: usize, t: u64) {
        match self.address {
            Some(a) => {
                if t == a + 3 {
                    self.rx.free();
                    self.address = None;
                }
            }
            None => {
                if in_flight < SLOTS && held < 2 {
                    if let Some(buf) = self.rx.oldest() {
                        let id = (self.taken % SLOTS as u64) as usize;
                        ta::take(&mut self.slots[id], buf, t);
                        self.address = Some(t);
                        self.taken += 1;
                        self.in_flight += 1;
                        self.held += 1;
                    }
                }
            }
        }
    }

    /// The outputs of cycle `self.cycle`, from the state (latching the tag of a request a bank
    /// presents for the first time).
    fn outputs(&mut self) -> Out {
        let mut out = Out { iss_ready: self.rx.ready(), ..Out::default() };
        self.tcp.outputs(&self.slots, &mut out);
        if let Some(job) = &self.td {
            if self.cycle >= job.start + 4 && job.next < job.total {
                let w = job.write(job.next);
                out.vgpr_valid = true;
                out.vgpr_addr = w.vgpr;
                out.vgpr_group = w.group;
                out.vgpr_mask = w.mask;
                out.vgpr_data = w.data;
            }
        }
        if let Some(d) = self.done {
            // Counters wrap at 2^16.
            out.done_valid = true;
            out.done_issue = d.issue as u16;
            out.done_ta = d.ta as u16;
            out.done_tcp = d.tcp as u16;
            out.done_l2 = d.l2 as u16;
            out.done_td = d.td as u16;
            out.done_total = d.total as u16;
            out.done_requests = d.requests as u16;
            out.done_hits = d.hits as u16;
            out.done_misses = d.misses as u16;
            out.done_conflicts = d.conflicts as u16;
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

    fn set_reset(&mut self, asserted: bool) -> Out {
        if asserted {
            *self = VmemPipe::default();
        }
        self.in_reset = asserted;
        self.out
    }

    fn step(&mut self, input: &In) -> Out {
        if self.in_reset {
            return self.out;
        }
        let t = self.cycle;
        // The counts at the start of t, for the address stage.
        let (in_flight, held) = (self.in_flight, self.held);
        self.done = None;
        self.td_cycle(input, t);
        let accepts = self.tcp.cycle(&mut self.slots, input, t);
        self.step_stage(accepts, t);
        self.address_stage(in_flight, held, t);
        if input.iss_valid && self.out.iss_ready {
            self.rx.accept(input, t);
        }
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
