//! Helpers shared by the unit test files: run inputs through model and RTL in lockstep and hand
//! back the (agreed) outputs, or the text trace for a snapshot.
#![allow(dead_code)] // each test file uses a subset

pub mod spec43;

use std::cell::RefCell;

use gcn_vmem::cosim::lockstep::{trace, Lockstep};
use gcn_vmem::cosim::run::case_strategy;
use gcn_vmem::cosim::{Binding, RtlOptions, RtlUnit};
use gcn_vmem::unit::{Ports, Unit};
use proptest::test_runner::{Config, TestRunner};

pub type In<B> = <<B as Binding>::Model as Unit>::In;
pub type Out<B> = <<B as Binding>::Model as Unit>::Out;

/// A model and a fresh untraced RTL instance of the unit, side by side.
pub fn lockstep<B: Binding>() -> Lockstep<B::Model, B::Rtl> {
    let rtl = B::Rtl::open(&RtlOptions::default()).expect("open the Verilated RTL");
    Lockstep::new(B::Model::default(), rtl)
}

/// Drives `inputs` back to back (all with valid = 1) from reset, asserts that model and RTL
/// agreed on every output of every cycle, and returns the output each input produced.
pub fn outputs<B: Binding>(inputs: &[In<B>]) -> Vec<Out<B>> {
    let mut ls = lockstep::<B>().recording();
    let mut driven = inputs.to_vec();
    for input in &mut driven {
        input.set(0, 1);
    }
    let same = ls.run(&driven);
    assert!(same, "model and RTL differ: {:?}", &ls.mismatches[..ls.mismatches.len().min(8)]);
    let record = ls.record.take().unwrap();
    let lag = <B::Model as Unit>::LATENCY - 1;
    (0..driven.len()).map(|j| record[j + lag].expected).collect()
}

/// The lockstep trace of `inputs` driven back to back from reset (for insta snapshots); asserts
/// that model and RTL agreed.
pub fn trace_of<B: Binding>(inputs: &[In<B>]) -> String {
    let mut ls = lockstep::<B>().recording();
    let same = ls.run(inputs);
    assert!(same, "model and RTL differ: {:?}", &ls.mismatches[..ls.mismatches.len().min(8)]);
    trace(&ls.record.take().unwrap())
}

/// Runs many inputs (all valid) through lockstep from one reset, without recording (for
/// exhaustive tests); panics with the first mismatches if model and RTL part. Returns the
/// output each input produced.
pub fn sweep<B: Binding>(inputs: &[In<B>]) -> Vec<Out<B>> {
    let mut ls = lockstep::<B>();
    ls.reset();
    let lag = <B::Model as Unit>::LATENCY - 1;
    let idle = In::<B>::default();
    let mut outs = Vec::with_capacity(inputs.len() + lag);
    for input in inputs.iter().chain(std::iter::repeat_n(&idle, lag)) {
        outs.push(ls.step_out(input).1);
        assert!(
            ls.mismatches.is_empty(),
            "model and RTL differ at input {}: {:?}",
            outs.len() - 1 - lag,
            &ls.mismatches
        );
    }
    outs.split_off(lag)
}

/// The random lockstep property of every unit: `cases` random cycle sequences of the unit's own
/// stimulus (idle cycles included) from reset, model and RTL agreeing on every output of every
/// cycle and the run lasting the inputs plus the latency. A failure is shrunk by proptest and
/// reported with the mismatches and the cycle trace.
pub fn random_cases_agree<B: Binding>(cases: u32) {
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    let ls = RefCell::new(lockstep::<B>().recording());
    let result = TestRunner::new(config).run(&case_strategy::<B>(), |case| {
        let mut l = ls.borrow_mut();
        let same = l.run(&case);
        proptest::prop_assert!(
            same,
            "{} mismatch(es): {:?}\n{}",
            l.mismatches.len(),
            &l.mismatches[..l.mismatches.len().min(8)],
            trace(l.record.as_ref().unwrap())
        );
        proptest::prop_assert_eq!(l.cycles(), (case.len() + <B::Model as Unit>::LATENCY) as u64);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{}: {e}", <B::Model as Unit>::NAME);
    }
}
