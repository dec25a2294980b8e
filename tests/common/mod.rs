//! Helpers shared by the unit test files: run inputs through model and RTL in lockstep and hand
//! back the (agreed) outputs, or the text trace for a snapshot.
#![allow(dead_code)] // each test file uses a subset

pub mod spec43;

use std::cell::RefCell;

use gcn_vmem::engine::lockstep::{trace, Lockstep};
use gcn_vmem::engine::run::case_strategy;
use gcn_vmem::engine::Binding;
use gcn_vmem::engine::RtlOptions;
use gcn_vmem::engine::RtlUnit;
use gcn_vmem_model::unit::{Ports, Unit};
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
        if !l.run_steps(&case) {
            // Report the case the harness's shrinker minimises it to (proptest shrinks only
            // the seed it was drawn from).
            let fails = |s: &[gcn_vmem::engine::lockstep::Step<In<B>>]| Ok(!lockstep::<B>().run_steps(s));
            let minimal = gcn_vmem::engine::shrink::shrink(&case, Default::default(), fails).unwrap().steps;
            let mut m = lockstep::<B>().recording();
            m.run_steps(&minimal);
            proptest::prop_assert!(
                false,
                "{} mismatch(es) in the minimal case: {:?}, assertions {:?}\n{}",
                m.mismatches.len(),
                &m.mismatches[..m.mismatches.len().min(8)],
                m.assertions,
                trace(m.record.as_ref().unwrap())
            );
        }
        proptest::prop_assert_eq!(l.cycles(), (case.len() + <B::Model as Unit>::LATENCY) as u64);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{}: {e}", <B::Model as Unit>::NAME);
    }
}

/// Proves every `VMEM_ASSERT` of the unit can fire and is reported: `names` must be exactly the
/// assertions rtl/<unit>.sv declares; on the unit's break-asserts build (`TestBreakAsserts`, whose
/// register inputs are corrupted so that each assertion fails on some input) random cases of the
/// unit's own stimulus must make each one fail, and the replay of a case that fails it must
/// report it in an `ASSERTION <unit> cycle=… assertion=<name>` line. On the RTL as written the
/// same cases fire no assertion.
pub fn assertions_fire<B: Binding>(names: &[&str]) {
    use gcn_vmem::engine::run::{self, Case};
    use gcn_vmem::engine::Variant;
    use proptest::strategy::{Strategy, ValueTree};
    use std::collections::BTreeMap;

    let unit = <B::Model as Unit>::NAME;
    let source = std::fs::read_to_string(format!("{}/rtl/{unit}.sv", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut declared: Vec<&str> = source
        .match_indices("`VMEM_ASSERT(")
        .map(|(i, m)| {
            let rest = &source[i + m.len()..];
            rest[..rest.find(',').unwrap()].trim()
        })
        .collect();
    declared.sort_unstable();
    declared.dedup();
    let mut wanted = names.to_vec();
    wanted.sort_unstable();
    assert_eq!(declared, wanted, "{unit}: the assertions rtl/{unit}.sv declares");

    let broken = RtlOptions { variant: Variant::BreakAsserts, ..RtlOptions::default() };
    let mut bad = Lockstep::new(B::Model::default(), B::Rtl::open(&broken).expect("open the break-asserts RTL"));
    let mut good = lockstep::<B>();
    let mut runner = TestRunner::deterministic();
    let strategy = run::case_strategy::<B>();
    let mut fired: BTreeMap<String, Case<B>> = BTreeMap::new();
    let mut cases = 0;
    while fired.len() < names.len() && cases < 20_000 {
        cases += 1;
        let case = strategy.new_tree(&mut runner).unwrap().current();
        if !bad.run_steps(&case) {
            for a in &bad.assertions {
                fired.entry(a.name.clone()).or_insert_with(|| case.clone());
            }
        }
        assert!(good.run_steps(&case), "{unit}: the RTL as written fails: {:?} {:?}", good.mismatches, good.assertions);
    }
    for name in names {
        let case = fired.get(*name).unwrap_or_else(|| {
            panic!("{unit}: {name} never fired in {cases} cases on the break-asserts build; fired: {:?}", fired.keys())
        });
        let replay = run::replay::<B>(case, &broken, None, None).unwrap();
        let prefix = format!("ASSERTION {unit} cycle=");
        let tag = format!("assertion={name} ");
        assert!(
            replay.lines.iter().any(|l| l.starts_with(&prefix) && l.contains(&tag)),
            "{unit}: {name} is not reported: {:?}",
            replay.lines
        );
    }
}

/// The `point: bin` names one sample of `input` with `out` (the model's result for it) falls in.
pub fn bins_hit<M: gcn_vmem_model::cover::Covered>(input: &M::In, out: &M::Out) -> Vec<String> {
    use gcn_vmem_model::cover::Hits;
    let group = M::covergroup();
    let mut hits = Hits::new(&group);
    M::sample(input, out, &mut hits);
    let mut names = Vec::new();
    for (p, point) in group.points.iter().enumerate() {
        for (bin, &count) in point.bins.iter().zip(hits.counts(p)) {
            if count > 0 {
                names.push(format!("{}: {bin}", point.name));
            }
        }
    }
    names
}

/// Asserts that the random stimulus of `B` hits every declared bin in `chunks` chunks of 4,096
/// vectors of seed 1 (the model alone, the same cases a lockstep run of that seed drives), and
/// prints the least-hit bin for the margin (`cargo test -- --nocapture`).
pub fn every_bin_hit<B: Binding>(chunks: u64) {
    use gcn_vmem_model::cover::Covered;
    let (hits, vectors) = gcn_vmem::engine::cover::model_only::<B>(1, 0..chunks);
    let group = B::Model::covergroup();
    let (mut least, mut name) = (u64::MAX, String::new());
    for (p, point) in group.points.iter().enumerate() {
        for (bin, &count) in point.bins.iter().zip(hits.counts(p)) {
            if count < least {
                (least, name) = (count, format!("{}: {bin}", point.name));
            }
        }
    }
    eprintln!("{} bins, {vectors} vectors; least hit: {least} x `{name}`", group.bins());
    let unhit: Vec<String> = hits.unhit(&group).iter().map(|(p, b)| format!("{p}: {b}")).collect();
    assert!(
        unhit.is_empty(),
        "{} of {} bins unhit after {vectors} vectors:\n  {}",
        unhit.len(),
        group.bins(),
        unhit.join("\n  ")
    );
}

/// Asserts that `got` (bin names, e.g. from [`bins_hit`]) holds every bin of `expected` and,
/// with `exactly`, no other; `what` names the input in the message.
pub fn assert_in_bins(what: &str, got: &[String], expected: &[&str], exactly: bool) {
    for e in expected {
        assert!(got.iter().any(|g| g == e), "{what}: expected bin `{e}`; got:\n  {}", got.join("\n  "));
    }
    if exactly {
        assert_eq!(got.len(), expected.len(), "{what}: other bins hit:\n  {}", got.join("\n  "));
    }
}
