//! Helpers shared by the unit test files: run inputs through model and RTL in lockstep and hand
//! back the (agreed) outputs, or the text trace for a snapshot.

pub mod reference;
pub mod spec43;

/// f32 bit patterns the directed tables name (IEEE 754 binary32).
pub mod f32_consts {
    pub const ONE: u32 = 0x3f80_0000;
    pub const M_ONE: u32 = 0xbf80_0000;
    pub const HALF: u32 = 0x3f00_0000;
    pub const M_HALF: u32 = 0xbf00_0000;
    pub const TWO: u32 = 0x4000_0000;
    pub const M_TWO: u32 = 0xc000_0000;
    pub const INF: u32 = 0x7f80_0000;
    pub const M_INF: u32 = 0xff80_0000;
    pub const QNAN: u32 = 0x7fc0_0000;
    pub const M_ZERO: u32 = 0x8000_0000;
}

use std::cell::RefCell;

use gcn_vmem::engine::case::case_strategy;
use gcn_vmem::engine::lockstep::{trace, Lockstep};
use gcn_vmem::engine::run::RunConfig;
use gcn_vmem::engine::RtlOptions;
use gcn_vmem::engine::RtlUnit;
use gcn_vmem::engine::{Binding, UnitTypes};
use gcn_vmem_model::unit::{valid_of, Ports, Unit};
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use proptest::{prop_assert, prop_assert_eq};

pub type In<B> = <<B as UnitTypes>::Model as Unit>::In;
pub type Out<B> = <<B as UnitTypes>::Model as Unit>::Out;

/// Whether Yosys (`make yosys`) runs; when it does not, a note that `test` is skipped.
pub fn yosys_or_skip(test: &str) -> bool {
    use gcn_vmem::tools::yosys;
    if yosys::available() {
        return true;
    }
    println!("note: {test} skipped: `{}` does not run; {}", yosys::YOSYS, yosys::install_hint());
    false
}

/// A fresh folder `name` under cargo's per-test scratch space (emptied if a previous run left it).
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The configuration of a random run on the RTL build `variant` that stops at its first failing
/// case (one job) and saves it under `artifacts`; the caller sets the vectors and the seed.
pub fn first_failure_run(variant: gcn_vmem::engine::Variant, artifacts: std::path::PathBuf) -> RunConfig {
    RunConfig { jobs: 1, max_failures: 1, variant, artifacts, ..RunConfig::default() }
}

/// Runs the `gcn-vmem` binary with `args`, `stdin` on its standard input and its artifacts in a
/// fresh scratch folder named after the arguments; returns its exit code (-1 when killed), its
/// standard output and its standard error.
pub fn gcn_vmem(args: &[&str], stdin: &str) -> (i32, String, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_gcn-vmem"))
        .args(args)
        .env("GCN_VMEM_ARTIFACTS", scratch(&format!("cli_{}", args.join("_").replace(['/', ' '], "_"))))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

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

/// A row of a unit's directed table as the helpers below take it: its name, its input (valid)
/// and the output the spec gives for it.
pub type Row<'a, B> = (&'a str, In<B>, Out<B>);

/// Asserts that the rows of a directed table have distinct names.
pub fn assert_unique_names<'a>(names: impl IntoIterator<Item = &'a str>) {
    let mut names: Vec<&str> = names.into_iter().collect();
    let rows = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), rows, "duplicate row names");
}

/// Asserts that a directed table is one the helpers below can drive: distinct row names, and
/// every row's input and output valid.
pub fn assert_rows_well_formed<B: Binding>(rows: &[Row<B>]) {
    assert_unique_names(rows.iter().map(|r| r.0));
    for (name, input, out) in rows {
        assert!(valid_of(input) && valid_of(out), "{name}: input and output must be valid");
    }
}

/// Asserts, for each row (its name, its result dwords and its data count), that the result dwords
/// at and above the data count are 0 (docs/decisions.md: a unit drives 0 above the dwords it
/// returns).
pub fn assert_zero_above_data<'a>(rows: impl IntoIterator<Item = (&'a str, &'a [u32], usize)>) {
    for (name, result, count) in rows {
        assert!(result[count.min(result.len())..].iter().all(|&d| d == 0), "{name}: dwords above the data count");
    }
}

/// The row named `name`.
pub fn named<'r, 'a, I, O>(rows: &'r [(&'a str, I, O)], name: &str) -> &'r (&'a str, I, O) {
    rows.iter().find(|r| r.0 == name).unwrap_or_else(|| panic!("no row {name}"))
}

/// `name=value` for every port of `p`, as a test's failure message shows it: booleans as
/// true/false, integers in decimal, a list as `[…]` of its elements and anything else in hex, each
/// with the digits of its width.
pub fn show<P: Ports>(p: &P) -> String {
    use gcn_vmem_model::unit::{Kind, Signal};
    let ports = P::SIGNALS.iter().enumerate().map(|(i, s)| {
        let v = p.get(i);
        let text = match s.kind {
            Kind::Bool => (v != 0).to_string(),
            Kind::Int | Kind::OneOf(_) => v.to_string(),
            Kind::List { width, len } => {
                let element = Signal { width, ..*s };
                let items: Vec<String> = (0..len).map(|k| element.hex(v >> (width * k) & element.mask())).collect();
                format!("[{}]", items.join(", "))
            }
            Kind::Hex | Kind::Enum(_) => s.hex(v),
        };
        format!("{}={text}", s.name)
    });
    ports.collect::<Vec<_>>().join(" ")
}

/// A row whose output is not the spec's: its name, its input, the spec's output and the one
/// got, port by port.
pub fn row_diff<I: Ports, O: Ports>(name: &str, input: &I, spec: &O, got: &O) -> String {
    format!("{name}:\n  in:   {}\n  spec: {}\n  got:  {}", input.render(), spec.render(), got.render())
}

/// Drives the rows' inputs back to back from reset through model and RTL ([`outputs`], which
/// asserts that the two agree) and asserts that each result equals its row's output.
pub fn assert_rows_match_spec<B: Binding>(rows: &[Row<B>]) {
    let inputs: Vec<In<B>> = rows.iter().map(|r| r.1).collect();
    let outs = outputs::<B>(&inputs);
    let failures: Vec<String> = rows
        .iter()
        .zip(&outs)
        .filter(|((_, _, spec), got)| got != &spec)
        .map(|((name, input, spec), got)| row_diff(name, input, spec, got))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} rows differ from the spec:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

/// Asserts that `reference` gives each row its output: the hand-written rows and an independent
/// reference (used on inputs no row covers) check each other.
pub fn assert_reference_matches_rows<B: Binding>(rows: &[Row<B>], reference: impl Fn(&In<B>) -> Out<B>) {
    let failures: Vec<String> = rows
        .iter()
        .filter_map(|(name, input, spec)| {
            let got = reference(input);
            (got != *spec).then(|| row_diff(name, input, spec, &got))
        })
        .collect();
    assert!(failures.is_empty(), "reference and rows differ:\n{}", failures.join("\n"));
}

/// `# <row> -> out <cycle>: <name>` for each row of a directed table driven back to back from
/// reset (the result of row j is the output of cycle j + LATENCY − 1): the heading of its trace
/// snapshot, so that a reviewer can map cycles to rows.
pub fn row_headings<'a, B: Binding>(names: impl IntoIterator<Item = &'a str>) -> String {
    let lag = <B::Model as Unit>::LATENCY - 1;
    let mut text = String::new();
    for (j, name) in names.into_iter().enumerate() {
        text.push_str(&format!("# {j:04} -> out {:04}: {name}\n", j + lag));
    }
    text
}

/// The snapshot text of a directed table: its [`row_headings`], then the lockstep trace of its
/// inputs driven back to back from reset ([`trace_of`], which asserts that model and RTL agreed).
pub fn directed_trace<B: Binding>(rows: &[Row<B>]) -> String {
    let inputs: Vec<In<B>> = rows.iter().map(|r| r.1).collect();
    let mut text = row_headings::<B>(rows.iter().map(|r| r.0));
    text.push_str(&trace_of::<B>(&inputs));
    text
}

/// Drives `inputs` from reset, asserts that model and RTL agreed, and that the outputs of the
/// run's cycles (the reset cycle, one per input, then the drain) are `expect`.
pub fn assert_cycle_outputs<B: Binding>(inputs: &[In<B>], expect: &[Out<B>]) {
    let mut l = lockstep::<B>().recording();
    assert!(l.run(inputs), "model and RTL differ: {:?}", l.mismatches);
    let record = l.record.as_ref().unwrap();
    assert_eq!(record.len(), expect.len());
    for (k, (c, e)) in record.iter().zip(expect).enumerate() {
        assert_eq!(c.expected, *e, "cycle {k}: got {} want {}", c.expected.render(), e.render());
    }
}

/// The outputs `out` as the data registers hold them through a bubble: valid = 0, data kept.
pub fn held<O: Ports>(out: &O) -> O {
    let mut held = *out;
    held.set(0, 0);
    held
}

/// Bubbles (valid = 0, the other inputs `junk(k)`, which would change every output if they were
/// taken) around the two valid rows of `rows` named `a` and `b`: the data outputs hold the last
/// valid result with valid = 0, and after reset the outputs are 0 (docs/decisions.md "Data
/// registers hold when not valid"). With LATENCY 2 the inputs junk(1), a, junk(2), junk(3), b,
/// junk(4) give the outputs 0, 0, a, a held, a held, b, b held, b held (the result of input j is
/// the output of step j + 1).
pub fn assert_bubbles_hold_last_result<B: Binding>(junk: impl Fn(u32) -> In<B>, rows: &[Row<B>], a: &str, b: &str) {
    assert_eq!(<B::Model as Unit>::LATENCY, 2);
    let (a, b) = (named(rows, a), named(rows, b));
    let (zero, a_out, b_out) = (Out::<B>::default(), a.2, b.2);
    assert_cycle_outputs::<B>(
        &[junk(1), a.1, junk(2), junk(3), b.1, junk(4)],
        &[zero, zero, a_out, held(&a_out), held(&a_out), b_out, held(&b_out), held(&b_out)],
    );
}

/// Runs `case` (a random case's inputs, without its resets) from reset on the recording lockstep
/// `l` and checks every cycle: model and RTL agree, the run lasts the inputs plus the latency,
/// and each output is `reference`'s (a valid input's result LATENCY − 1 steps later; an idle
/// cycle's output holds the last valid result with valid = 0).
pub fn case_matches_reference<B: Binding>(
    l: &mut Lockstep<B::Model, B::Rtl>,
    case: &[In<B>],
    reference: impl Fn(&In<B>) -> Out<B>,
) -> Result<(), TestCaseError> {
    let same = l.run(case);
    prop_assert!(same, "{} mismatch(es): {:?}", l.mismatches.len(), &l.mismatches[..l.mismatches.len().min(8)]);
    let lag = <B::Model as Unit>::LATENCY - 1;
    prop_assert_eq!(l.cycles(), (case.len() + <B::Model as Unit>::LATENCY) as u64);
    let record = l.record.as_ref().unwrap();
    let mut last = Out::<B>::default();
    for (j, input) in case.iter().enumerate() {
        if valid_of(input) {
            last = reference(input);
        }
        let mut want = last;
        want.set(0, u128::from(valid_of(input)));
        let got = record[j + lag].expected;
        prop_assert_eq!(got, want, "cycle {} input {}", j, input.render());
    }
    Ok(())
}

/// Random cases of the unit's own stimulus (idle cycles included; their mid-run resets left out:
/// the reference is of the unit's function, not of its registers), each run from reset and
/// checked cycle by cycle against `reference` ([`case_matches_reference`]).
pub fn random_cases_match_reference<B: Binding>(cases: u32, reference: impl Fn(&In<B>) -> Out<B>) {
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    let ls = RefCell::new(lockstep::<B>().recording());
    let result = TestRunner::new(config).run(&case_strategy::<B>(), |case| {
        let inputs: Vec<In<B>> = case.into_iter().map(|step| step.input).collect();
        case_matches_reference::<B>(&mut ls.borrow_mut(), &inputs, &reference)
    });
    if let Err(e) = result {
        panic!("{}: {e}", <B::Model as Unit>::NAME);
    }
}

/// Drives a batch of valid inputs back to back through model and RTL ([`outputs`], which asserts
/// that the two agree) and checks each result against `reference`.
pub fn batch_matches_reference<B: Binding>(
    batch: &[In<B>],
    reference: impl Fn(&In<B>) -> Out<B>,
) -> Result<(), TestCaseError> {
    for (input, got) in batch.iter().zip(outputs::<B>(batch)) {
        prop_assert_eq!(got, reference(input), "input {}", input.render());
    }
    Ok(())
}

/// Random batches of 1 to 32 inputs of the unit's own stimulus ([`Binding::generate`]), `cases` of
/// them, each driven back to back from reset and checked against `reference`
/// ([`batch_matches_reference`]).
pub fn stimulus_batches_match_reference<B: Binding>(cases: u32, reference: impl Fn(&In<B>) -> Out<B>) {
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    let batches = proptest::collection::vec(gcn_vmem::engine::stimulus::from_rng(B::generate), 1..=32);
    let result = TestRunner::new(config).run(&batches, |batch| batch_matches_reference::<B>(&batch, &reference));
    if let Err(e) = result {
        panic!("{}: {e}", <B::Model as Unit>::NAME);
    }
}

/// Runs `inputs` (all valid) through model and RTL ([`sweep`], which asserts that the two agree;
/// in chunks of 2^18 inputs) and asserts that each output is `want` of its input, listing the
/// first 8 that are not. Returns the number of inputs.
pub fn assert_sweep_matches<B: Binding>(inputs: &[In<B>], want: impl Fn(&In<B>) -> Out<B>) -> usize {
    let mut misses = Vec::new();
    for chunk in inputs.chunks(1 << 18) {
        for (input, got) in chunk.iter().zip(sweep::<B>(chunk)) {
            let w = want(input);
            if got != w && misses.len() < 8 {
                misses.push(format!("in: {}\n  spec: {}\n  got:  {}", input.render(), w.render(), got.render()));
            }
        }
    }
    assert!(misses.is_empty(), "model+RTL differ from the spec:\n{}", misses.join("\n"));
    inputs.len()
}

/// Runs `f` (a sweep that returns how many vectors it drove) and prints that count and the time it
/// took under `name` (`cargo test -- --nocapture`).
pub fn timed(name: &str, f: impl FnOnce() -> usize) {
    let start = std::time::Instant::now();
    let n = f();
    println!("{name}: {n} vectors in {:.2?}", start.elapsed());
}

/// A hash of `n` (SplitMix64's first draw from seed `n`), to vary the fields an exhaustive sweep
/// does not enumerate.
pub fn mix(n: u64) -> u64 {
    gcn_vmem::engine::stimulus::Rng::new(n).next_u64()
}

/// `n` inputs of the unit's own stimulus ([`Binding::stimulus`]), the same ones on every run: for
/// measuring how often the stimulus reaches a corner.
pub fn stimulus_samples<B: Binding>(n: usize) -> Vec<In<B>> {
    use proptest::strategy::{Strategy, ValueTree};
    let strategy = B::stimulus();
    let mut runner = TestRunner::deterministic();
    (0..n).map(|_| strategy.new_tree(&mut runner).expect("stimulus").current()).collect()
}

/// `hits` as a percentage of `of` (of 1 when `of` is 0).
pub fn pct(hits: u64, of: u64) -> f64 {
    100.0 * hits as f64 / of.max(1) as f64
}

/// Asserts that an exhaustive test collected no failures; else panics with their count and the
/// first 20.
pub fn assert_no_failures(failures: &[String]) {
    assert!(failures.is_empty(), "{} failure(s):\n{}", failures.len(), failures[..failures.len().min(20)].join("\n"));
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

/// The names of the `VMEM_ASSERT`s the RTL files `files` (paths from the repository root)
/// declare, sorted, each once (an assertion in a generate loop is one name).
pub fn declared_assertions(files: &[&str]) -> Vec<String> {
    let mut declared = Vec::new();
    for file in files {
        let source = std::fs::read_to_string(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        declared.extend(source.match_indices("`VMEM_ASSERT(").map(|(i, m)| {
            let rest = &source[i + m.len()..];
            rest[..rest.find(',').unwrap()].trim().to_string()
        }));
    }
    declared.sort_unstable();
    declared.dedup();
    declared
}

/// Proves every `VMEM_ASSERT` of the unit can fire and is reported: `names` must be exactly the
/// assertions rtl/<unit>.sv declares; on the unit's break-asserts build (its test hook
/// rtl/test/<unit>_brk.svh compiled in, which corrupts its register inputs so that each assertion
/// fails on some input) random cases of the unit's own stimulus must make each one fail, and the
/// replay of a case that fails it must report it in an `ASSERTION <unit> cycle=… assertion=<name>`
/// line. On the RTL as written the same cases fire no assertion.
pub fn assertions_fire<B: Binding>(names: &[&str]) {
    use gcn_vmem::engine::case::{self, Case};
    use gcn_vmem::engine::replay;
    use gcn_vmem::engine::Variant;
    use proptest::strategy::{Strategy, ValueTree};
    use std::collections::BTreeMap;

    let unit = <B::Model as Unit>::NAME;
    let declared = declared_assertions(&[&format!("rtl/{unit}.sv")]);
    let mut wanted = names.to_vec();
    wanted.sort_unstable();
    assert_eq!(declared, wanted, "{unit}: the assertions rtl/{unit}.sv declares");

    let broken = RtlOptions { variant: Variant::BreakAsserts, ..RtlOptions::default() };
    let mut bad = Lockstep::new(B::Model::default(), B::Rtl::open(&broken).expect("open the break-asserts RTL"));
    let mut good = lockstep::<B>();
    let mut runner = TestRunner::deterministic();
    let strategy = case::case_strategy::<B>();
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
        let replay = replay::replay::<B>(case, &broken, None, None).unwrap();
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

/// Asserts that `input`, sampled with `out` (the model's result for it), lands in every bin of
/// `expected` and, with `exactly`, in no other ([`bins_hit`], [`assert_in_bins`]); `what` names
/// the input in the message.
pub fn assert_input_bins<M: gcn_vmem_model::cover::Covered>(
    what: &str,
    input: &M::In,
    out: &M::Out,
    expected: &[&str],
    exactly: bool,
) {
    assert_in_bins(what, &bins_hit::<M>(input, out), expected, exactly);
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

/// Declares the tests that every unit's file has in the same form, under their usual names and
/// only those named, each on the module's `Harness`:
/// `directed_rows_match_spec: rows` ([`assert_rows_match_spec`]),
/// `reference_matches_directed_rows: (rows, reference)` ([`assert_reference_matches_rows`]),
/// `directed_table_trace: rows` (the insta snapshot `directed_trace` of [`directed_trace`]),
/// `directed_table: (rows, reference)` (the three above),
/// `pipeline_bubbles_hold_last_result: (junk, rows, a, b)` ([`assert_bubbles_hold_last_result`]),
/// `random_cases_agree_in_lockstep: cases` ([`random_cases_agree`]),
/// `random_cases_match_reference: (cases, reference)` ([`random_cases_match_reference`]),
/// `stimulus_matches_reference: (cases, reference)` ([`stimulus_batches_match_reference`]),
/// `every_assertion_fires_and_is_reported: [names]` ([`assertions_fire`]) and
/// `random_stimulus_hits_every_bin: chunks` ([`every_bin_hit`]). `rows` is a directed table as a
/// `Vec` of [`Row`]s, `reference` a function from an input to its output.
///
/// ```ignore
/// common::unit_tests! {
///     random_cases_agree_in_lockstep: 1000,
///     every_assertion_fires_and_is_reported: ["CountBound_A", "ResultBeyondCount_A"],
///     random_stimulus_hits_every_bin: 62,
/// }
/// ```
macro_rules! unit_tests {
    (@ directed_rows_match_spec $rows:expr) => {
        /// All rows back to back through model and RTL in lockstep (`outputs` checks they agree);
        /// both equal the hand-computed rows, every output field.
        #[test]
        fn directed_rows_match_spec() {
            $crate::common::assert_rows_match_spec::<Harness>(&$rows);
        }
    };
    (@ reference_matches_directed_rows $rows_and_reference:expr) => {
        /// The hand-written rows and the independent reference agree (two witnesses: so the
        /// reference, used on the exhaustive and random inputs, is itself checked against hand
        /// derivations).
        #[test]
        fn reference_matches_directed_rows() {
            // (A match, not a let: the scrutinee's temporaries, which `rows` may borrow, live
            // through the arm.)
            match $rows_and_reference {
                (rows, reference) => $crate::common::assert_reference_matches_rows::<Harness>(&rows, reference),
            }
        }
    };
    (@ directed_table $rows_and_reference:expr) => {
        // The three tests of a directed table that has an independent reference, each under its
        // own name: `directed_rows_match_spec`, `reference_matches_directed_rows` and
        // `directed_table_trace`.
        $crate::common::unit_tests!(@ directed_rows_match_spec $rows_and_reference.0);
        $crate::common::unit_tests!(@ reference_matches_directed_rows $rows_and_reference);
        $crate::common::unit_tests!(@ directed_table_trace $rows_and_reference.0);
    };
    (@ directed_table_trace $rows:expr) => {
        /// The cycle-by-cycle trace of the whole table (model and RTL agree), row names first so
        /// that cycles map to rows, as a reviewed snapshot.
        #[test]
        fn directed_table_trace() {
            insta::assert_snapshot!("directed_trace", $crate::common::directed_trace::<Harness>(&$rows));
        }
    };
    (@ pipeline_bubbles_hold_last_result $junk_rows_a_b:expr) => {
        /// Bubbles (valid = 0 with junk inputs) around two rows leave the data outputs holding the
        /// last valid result with valid = 0 (docs/decisions.md "Data registers hold when not
        /// valid"); after reset the outputs are 0.
        #[test]
        fn pipeline_bubbles_hold_last_result() {
            match $junk_rows_a_b {
                (junk, rows, a, b) => $crate::common::assert_bubbles_hold_last_result::<Harness>(junk, &rows, a, b),
            }
        }
    };
    (@ random_cases_match_reference $cases_and_reference:expr) => {
        /// Random cases of the unit's own stimulus against the reference, cycle by cycle: a valid
        /// input's result one step later; an idle cycle's output holds the last valid result with
        /// valid = 0. (Without the cases' mid-run resets: the reference is of the unit's
        /// function, not of its registers.)
        #[test]
        fn random_cases_match_reference() {
            let (cases, reference) = $cases_and_reference;
            $crate::common::random_cases_match_reference::<Harness>(cases, reference);
        }
    };
    (@ stimulus_matches_reference $cases_and_reference:expr) => {
        /// Batches of the unit's own stimulus, back to back: model and RTL agree with each other
        /// (checked by `outputs`) and with the reference.
        #[test]
        fn stimulus_matches_reference() {
            let (cases, reference) = $cases_and_reference;
            $crate::common::stimulus_batches_match_reference::<Harness>(cases, reference);
        }
    };
    (@ random_cases_agree_in_lockstep $cases:expr) => {
        /// Random cases of the unit's own stimulus (its bubbles, idle cycles and mid-run resets
        /// included): model and RTL agree on every output of every cycle (tests/common/mod.rs).
        #[test]
        fn random_cases_agree_in_lockstep() {
            $crate::common::random_cases_agree::<Harness>($cases);
        }
    };
    (@ every_assertion_fires_and_is_reported $names:expr) => {
        /// Every assertion of the unit's RTL is compiled into the lockstep builds and can fire: on
        /// the break-asserts build each one fails and is reported by name (docs/checks.md "RTL
        /// assertions").
        #[test]
        fn every_assertion_fires_and_is_reported() {
            $crate::common::assertions_fire::<Harness>(&$names);
        }
    };
    (@ random_stimulus_hits_every_bin $chunks:expr) => {
        #[doc = concat!(
            "The random stimulus hits every declared bin within ",
            stringify!($chunks),
            " chunks of 4,096 vectors (seed 1, the model alone, the same cases as a lockstep run of \
             that seed; the default budget of `make cosim` is 8,000,000 vectors)."
        )]
        #[test]
        fn random_stimulus_hits_every_bin() {
            $crate::common::every_bin_hit::<Harness>($chunks);
        }
    };
    ($($test:ident: $arg:expr),* $(,)?) => {
        $($crate::common::unit_tests!(@ $test $arg);)*
    };
}
pub(crate) use unit_tests;
