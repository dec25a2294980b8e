//! The executor's RTL backends (cosim/exec/backends.rs): the models, the RTL alone and both in lockstep
//! give the same outputs for every unit; a batch the RTL gets wrong is recorded with its lane,
//! unit and signal, saved as the unit's vector file and replayed into both waveforms.

use crate::common;

use gcn_vmem::bindings::buffer_addr::Harness;
use gcn_vmem::engine::lockstep::Step;
use gcn_vmem::engine::replay;
use gcn_vmem::engine::vectors;
use gcn_vmem::engine::RtlOptions;
use gcn_vmem::engine::Variant;
use gcn_vmem::engine::{Binding, UnitTypes};
use gcn_vmem::exec::backends::{CheckedBackend, ExecFailure, LockstepBackend, RtlBackend, UnitOptions};
use gcn_vmem_model::exec::{Backend, Models};
use gcn_vmem_model::unit::{valid_of, Unit};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;

type In<B> = <<B as UnitTypes>::Model as Unit>::In;
type Out<B> = <<B as UnitTypes>::Model as Unit>::Out;

/// Random inputs of the unit's own stimulus (valid = 1), one after another.
struct Stimulus<B: Binding> {
    runner: TestRunner,
    strategy: proptest::strategy::BoxedStrategy<In<B>>,
}

impl<B: Binding> Stimulus<B> {
    fn new() -> Self {
        Stimulus { runner: TestRunner::deterministic(), strategy: B::stimulus() }
    }

    fn next(&mut self) -> In<B> {
        self.strategy.new_tree(&mut self.runner).unwrap().current()
    }

    fn take(&mut self, n: usize) -> Vec<In<B>> {
        (0..n).map(|_| self.next()).collect()
    }
}

/// The three backends side by side.
struct Backends {
    models: Models,
    rtl: RtlBackend,
    both: LockstepBackend,
}

fn failures_text(failures: &[ExecFailure]) -> String {
    failures.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
}

/// One unit's method of [`Backend`].
type Call<B> = fn(&mut dyn Backend, &[In<B>]) -> Vec<Out<B>>;

/// Batches of the unit's stimulus (64 inputs, then more back to back on the same instances)
/// give identical outputs on the three backends, one valid output per input, and neither RTL
/// backend records a failure.
fn agree<B: Binding>(backends: &mut Backends, call: Call<B>) {
    let unit = <B::Model as Unit>::NAME;
    let mut stimulus = Stimulus::<B>::new();
    for size in [64, 64, 1, 13] {
        let inputs = stimulus.take(size);
        let want = call(&mut backends.models, &inputs);
        assert_eq!(want.len(), size, "{unit}");
        assert!(want.iter().all(valid_of), "{unit}: an output without valid");
        assert_eq!(call(&mut backends.rtl, &inputs), want, "{unit}: RtlBackend differs from Models");
        assert_eq!(call(&mut backends.both, &inputs), want, "{unit}: LockstepBackend differs from Models");
        let rtl = backends.rtl.take_failures();
        assert!(rtl.is_empty(), "{unit}: RtlBackend recorded\n{}", failures_text(&rtl));
        let both = backends.both.take_failures();
        assert!(both.is_empty(), "{unit}: LockstepBackend recorded\n{}", failures_text(&both));
    }
    assert!(call(&mut backends.both, &[]).is_empty() && call(&mut backends.rtl, &[]).is_empty());
}

#[test]
fn models_rtl_and_lockstep_backends_agree_on_every_unit() {
    let artifacts = common::scratch("exec_agree");
    let mut backends = Backends {
        models: Models::default(),
        rtl: RtlBackend::open().unwrap(),
        both: LockstepBackend::open().unwrap(),
    };
    backends.rtl.log.artifacts = artifacts.clone();
    backends.both.log.artifacts = artifacts;
    use gcn_vmem::bindings::d16;
    use gcn_vmem::bindings::format_pack;
    use gcn_vmem::bindings::format_unpack;
    use gcn_vmem::bindings::image_addr;
    use gcn_vmem::bindings::multi_texel;
    use gcn_vmem::bindings::swizzle;
    agree::<Harness>(&mut backends, |b, i| b.buffer_addr(i));
    agree::<format_unpack::Harness>(&mut backends, |b, i| b.format_unpack(i));
    agree::<format_pack::Harness>(&mut backends, |b, i| b.format_pack(i));
    agree::<swizzle::Harness>(&mut backends, |b, i| b.swizzle(i));
    agree::<d16::Harness>(&mut backends, |b, i| b.d16(i));
    agree::<image_addr::Harness>(&mut backends, |b, i| b.image_addr(i));
    agree::<multi_texel::Harness>(&mut backends, |b, i| b.multi_texel(i));
}

/// What `input` alone, replayed from reset on `options`' build, does: (mismatches, assertion
/// failures).
fn alone(input: &In<Harness>, options: &RtlOptions) -> (bool, bool) {
    let r = replay::replay::<Harness>(&[Step::from(*input)], options, None, None).unwrap();
    (!r.mismatches.is_empty(), !r.assertions.is_empty())
}

/// `clean` inputs of buffer_addr's stimulus that `options`' build handles correctly (no
/// mismatch, no assertion), and `wrong` that it gets wrong: a mismatch, or with `assertions` a
/// failed assertion; `pick` preselects the candidates for the wrong ones.
fn split_stimulus(
    options: &RtlOptions,
    assertions: bool,
    (clean, wrong): (usize, usize),
    pick: impl Fn(&In<Harness>) -> bool,
) -> (Vec<In<Harness>>, Vec<In<Harness>>) {
    let mut stimulus = Stimulus::<Harness>::new();
    let (mut good, mut bad) = (Vec::new(), Vec::new());
    for _ in 0..20_000 {
        if good.len() == clean && bad.len() == wrong {
            break;
        }
        let v = stimulus.next();
        let (mismatch, assertion) = alone(&v, options);
        if (if assertions { assertion } else { mismatch }) && pick(&v) && bad.len() < wrong {
            bad.push(v);
        } else if !mismatch && !assertion && good.len() < clean {
            good.push(v);
        }
    }
    assert_eq!((good.len(), bad.len()), (clean, wrong), "not enough stimulus of each kind");
    (good, bad)
}

#[test]
fn lockstep_backend_records_saves_and_traces_a_mutant_buffer_addr_batch() {
    let artifacts = common::scratch("exec_mutant");
    let mutant = RtlOptions { variant: Variant::Mutant, ..RtlOptions::default() };
    // The mutant drops the index_lsb * element_size term of the swizzled address: swizzled
    // inputs it gets wrong, behind inputs it gets right.
    let swizzled = |v: &In<Harness>| v.vsharp >> 63 & 1 == 1;
    let (plain, wrong) = split_stimulus(&mutant, false, (12, 3), swizzled);
    let batch: Vec<In<Harness>> = [&plain[..10], &wrong[..], &plain[10..]].concat();

    let options = UnitOptions { buffer_addr: mutant.clone(), ..UnitOptions::default() };
    let mut both = LockstepBackend::open_with(&options).unwrap();
    both.log.artifacts = artifacts.clone();
    // The model's outputs, whatever the RTL did.
    assert_eq!(both.buffer_addr(&batch), Models::default().buffer_addr(&batch));
    let failures = both.take_failures();
    assert_eq!(failures.len(), 1, "{}", failures_text(&failures));
    assert!(both.take_failures().is_empty(), "take_failures does not empty the log");
    let f = &failures[0];
    assert_eq!((f.unit, f.lane_index, f.signal.as_str()), ("buffer_addr", 10, "address"), "{f}");
    // The first wrong input is lane 10; its result is compared after cycle 11's edge.
    assert!(f.line.starts_with("MISMATCH buffer_addr cycle=11 signal=address expected(model)="), "{}", f.line);
    assert!(f.line.contains(" | in@10: valid=1 "), "{}", f.line);
    let repro = format!("repro: make wave UNIT=buffer_addr VECTOR={} FLAGS=--mutant", f.vector_file.display());
    assert!(f.line.ends_with(&repro), "{}", f.line);
    assert!(f.note.is_none(), "{f}");

    // The batch is the unit's vector file under <artifacts>/buffer_addr/exec-<hash>.jsonl.
    assert_eq!(f.vector_file.parent().unwrap(), artifacts.join("buffer_addr"));
    let name = f.vector_file.file_name().unwrap().to_str().unwrap();
    assert!(name.starts_with("exec-") && name.ends_with(".jsonl"), "{name}");
    let steps: Vec<Step<In<Harness>>> = vectors::read_file(&f.vector_file).unwrap();
    assert_eq!(steps, batch.iter().map(|&v| Step::from(v)).collect::<Vec<_>>());

    // Replayed on the mutant it mismatches, with the failure's line among its lines; on the RTL
    // as written it does not.
    let replay = replay::replay::<Harness>(&steps, &mutant, Some(&f.vector_file), None).unwrap();
    assert!(!replay.mismatches.is_empty());
    assert!(replay.lines.contains(&f.line), "{} not in {:?}", f.line, replay.lines);
    let good = replay::replay::<Harness>(&steps, &RtlOptions::default(), None, None).unwrap();
    assert!(good.lines.is_empty(), "{:?}", good.lines);

    // Both waveforms exist and parse (FST by default).
    let rtl_wave = f.rtl_wave.clone().expect("no RTL waveform");
    let diff_wave = f.diff_wave.clone().expect("no diff waveform");
    assert_eq!(rtl_wave, f.vector_file.with_extension("fst"));
    assert_eq!(diff_wave, f.vector_file.with_extension("diff.vcd"));
    wellen::simple::read(&rtl_wave).unwrap();
    wellen::simple::read(&diff_wave).unwrap();

    // The backend goes on: clean batches record nothing, on this unit and the others.
    assert_eq!(both.buffer_addr(&plain), Models::default().buffer_addr(&plain));
    let swz = Stimulus::<gcn_vmem::bindings::swizzle::Harness>::new().take(64);
    assert_eq!(both.swizzle(&swz), Models::default().swizzle(&swz));
    assert!(both.take_failures().is_empty());

    // A unit without a mutant build cannot be opened as one.
    let no_mutant = UnitOptions { d16: mutant, ..UnitOptions::default() };
    assert!(LockstepBackend::open_with(&no_mutant).is_err());
}

/// An RTL assertion is an error of RtlBackend, named by lane, even when the last input of the
/// batch is the one that fails it (its output registers are checked on the edge after the batch).
#[test]
fn rtl_backend_records_an_assertion_failure_with_its_lane() {
    let artifacts = common::scratch("exec_assert");
    let broken = RtlOptions { variant: Variant::BreakAsserts, ..RtlOptions::default() };
    let (quiet, firing) = split_stimulus(&broken, true, (6, 1), |_| true);
    let batch: Vec<In<Harness>> = [&quiet[..], &firing[..]].concat();

    let mut rtl =
        RtlBackend::open_with(&UnitOptions { buffer_addr: broken.clone(), ..UnitOptions::default() }).unwrap();
    rtl.log.artifacts = artifacts.clone();
    rtl.buffer_addr(&batch);
    let failures = rtl.take_failures();
    assert_eq!(failures.len(), 1, "{}", failures_text(&failures));
    let f = &failures[0];
    assert_eq!((f.unit, f.lane_index), ("buffer_addr", 6), "{f}");
    assert!(f.line.starts_with(&format!("ASSERTION buffer_addr cycle=8 assertion={} ", f.signal)), "{}", f.line);
    assert!(f.line.contains(" | in@6: valid=1 ") && f.line.contains("FLAGS=--break-asserts"), "{}", f.line);
    let alone = replay::replay::<Harness>(&[Step::from(firing[0])], &broken, None, None).unwrap();
    assert!(alone.assertions.iter().any(|a| a.name == f.signal), "{:?} vs {}", alone.assertions, f.signal);

    // Saved and replayable; the break-asserts build is untraced, so only the note says why
    // there is no RTL waveform.
    assert!(f.vector_file.starts_with(artifacts.join("buffer_addr")));
    let steps: Vec<Step<In<Harness>>> = vectors::read_file(&f.vector_file).unwrap();
    let replay = replay::replay::<Harness>(&steps, &broken, Some(&f.vector_file), None).unwrap();
    assert!(replay.lines.contains(&f.line), "{} not in {:?}", f.line, replay.lines);
    assert!(f.rtl_wave.is_none() && f.note.as_deref().is_some_and(|n| n.contains("waveform not written")), "{f}");

    // In lockstep the same input is named: by the assertion, or by a mismatch of its result
    // (reported first on the same lane) where the corruption also reaches an output.
    let mut both = LockstepBackend::open_with(&UnitOptions { buffer_addr: broken, ..UnitOptions::default() }).unwrap();
    both.log.artifacts = artifacts;
    both.buffer_addr(&batch);
    let failures = both.take_failures();
    assert_eq!(failures.len(), 1, "{}", failures_text(&failures));
    let f = &failures[0];
    assert_eq!(f.lane_index, 6, "{f}");
    assert!(f.line.contains(" | in@6: valid=1 "), "{}", f.line);
}
