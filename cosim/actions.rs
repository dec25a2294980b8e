//! The command line's per-unit actions, by unit name. Each is generic over the unit's
//! [`Binding`] inside and plain outside: instantiated here, once for every unit, they are
//! compiled with this library, not again in the `gcn-vmem` binary (a generic engine
//! instantiated for ten units in the binary costs minutes of compile; docs/perf-history.md).

use std::io::{BufRead, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use serde_json::{json, Value};

use crate::bindings::{unknown_unit, with_unit, Visit};
use crate::engine::lockstep::Lockstep;
use crate::engine::rtl_sources::assertion_file;
use crate::engine::run::{self, RunConfig, Summary};
use crate::engine::{vectors, wave, Binding, RtlOptions, RtlUnit};
use crate::report::svg;
use gcn_vmem_model::eval::EvalObject;
use gcn_vmem_model::unit::{Ports, Unit};

/// One unit's random run (`cosim`), its failures printed as found.
pub fn random(name: &str, config: &RunConfig) -> anyhow::Result<Summary> {
    with_unit(name, RandomRun(config)).ok_or_else(|| unknown_unit(name))?
}

/// One unit's random run, printing nothing (`scaling`).
pub fn random_quiet(name: &str, config: &RunConfig) -> anyhow::Result<Summary> {
    with_unit(name, QuietRun(config)).ok_or_else(|| unknown_unit(name))?
}

/// One unit's row of `bench`, printed; returns where its cosim vector's time went.
pub fn bench_row(name: &str, vectors: u64) -> anyhow::Result<Breakdown> {
    with_unit(name, BenchRun(vectors)).ok_or_else(|| unknown_unit(name))?
}

/// Where one cosim vector's time goes (`gcn-vmem bench`'s second table): nanoseconds per
/// counted vector, each the median of the bench's rounds, beside the plain C++ loop's vector.
#[derive(Clone, Debug)]
pub struct Breakdown {
    pub unit: &'static str,
    /// The plain C++ loop's nanoseconds a vector.
    pub cpp: f64,
    /// Drawing the cases.
    pub generate: f64,
    /// The model through them, with the functional coverage sampled.
    pub model: f64,
    /// The RTL through them and every comparison (the cases' opening resets, the idle cycles,
    /// the reset activity and the drains included: the RTL evaluations the C++ loop does not make).
    pub rtl: f64,
    /// A whole cosim vector.
    pub total: f64,
    /// Model and RTL took turns every cycle (`model` is then inside `rtl`).
    pub interleaved: bool,
}

/// `eval` of one unit: stdin lines in, stdout lines out; false when a line failed.
pub fn eval(name: &str, mode: EvalMode) -> anyhow::Result<bool> {
    with_unit(name, EvalRun(mode)).ok_or_else(|| unknown_unit(name))?
}

/// `replay` of a saved vector file; false when it mismatched or an assertion failed.
pub fn replay(name: &str, what: Replay<'_>) -> anyhow::Result<bool> {
    with_unit(name, what).ok_or_else(|| unknown_unit(name))?
}

/// One unit's random run, its failures printed as found.
struct RandomRun<'a>(&'a RunConfig);

impl Visit for RandomRun<'_> {
    type Output = anyhow::Result<Summary>;
    fn visit<B: Binding>(self) -> Self::Output {
        let summary = run::random::<B>(self.0)?;
        for f in &summary.failures {
            run::print_failure(f);
        }
        Ok(summary)
    }
}

struct QuietRun<'a>(&'a RunConfig);

impl Visit for QuietRun<'_> {
    type Output = anyhow::Result<Summary>;
    fn visit<B: Binding>(self) -> Self::Output {
        run::random::<B>(self.0)
    }
}

struct BenchRun(u64);

/// Distinct vectors in a bench working set (the set is driven repeatedly).
const BENCH_SET: usize = 1 << 16;

/// The shortest cosim time the bench adds up over its rounds (seconds): against about 1.5 ms
/// of start-up a round.
const COSIM_BENCH_SECONDS: f64 = 0.5;

/// A closed-loop unit's bench row drives this share of `--vectors` (cycles): 10,000 of the
/// default 2,000,000, and at least one recorded run of programs (16 or more), driven in every
/// column: under a minute for the pipeline's row on the 2-core machine (about 8 minutes at 1/20).
pub const CLOSED_LOOP_SHARE: u64 = 200;

/// Rounds of the plain C++ loop and of cosim, alternating (the cosim/C++ column).
const PAIRED_ROUNDS: usize = 5;
// The bench's medians are then one round's value each (`Breakdown` relies on it).
const _: () = assert!(PAIRED_ROUNDS % 2 == 1, "an odd number of paired rounds");

/// The median of `values` (the upper one of an even count); sorts them.
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(0.0)
}

impl Visit for BenchRun {
    type Output = anyhow::Result<Breakdown>;
    fn visit<B: Binding>(self) -> Self::Output {
        // A closed-loop unit's vectors are cycles of the whole pipeline (16 lanes of units and
        // the cache each cycle, about 7,000 a second through cxx): it drives a share of them.
        let vectors = if B::CLOSED_LOOP { (self.0 / CLOSED_LOOP_SHARE).max(1) } else { self.0 };
        let set = BENCH_SET.min(vectors as usize);
        let mut rng = crate::engine::stimulus::Rng::new(1);
        let inputs = B::bench_inputs(&mut rng, set);
        let (set, rounds) = (inputs.len(), (vectors as usize).div_ceil(inputs.len().max(1)) as u64);
        let n = set as f64 * rounds as f64;
        let rate = |elapsed: Duration| n / elapsed.as_secs_f64();

        let mut model = B::Model::default();
        model.reset();
        let t = Instant::now();
        for _ in 0..rounds {
            for i in &inputs {
                std::hint::black_box(model.step(std::hint::black_box(i)));
            }
        }
        let model_rate = rate(t.elapsed());

        let mut rtl = B::Rtl::open(&RtlOptions::default())?;
        rtl.reset();
        let t = Instant::now();
        for _ in 0..rounds {
            for i in &inputs {
                std::hint::black_box(rtl.step(i));
            }
        }
        let rtl_rate = rate(t.elapsed());

        let mut lockstep = Lockstep::new(B::Model::default(), rtl);
        lockstep.reset();
        let t = Instant::now();
        let mut same = true;
        for _ in 0..rounds {
            if B::CLOSED_LOOP {
                // A recorded run is valid from reset only.
                lockstep.reset();
            }
            for i in &inputs {
                same &= lockstep.step(i);
            }
        }
        let lockstep_rate = rate(t.elapsed());
        anyhow::ensure!(same, "{}: the bench vectors mismatched; run make cosim first", <B::Model as Unit>::NAME);
        lockstep.rtl.finish();

        // The C++ loop and cosim columns, measured in PAIRED_ROUNDS alternating rounds (a pass
        // of the plain loop over its share of the vectors, then a cosim run of as many), so that
        // both sides of cosim/C++ see the machine in the same state; each column is the median
        // of its rounds, cosim/C++ the median of the rounds' ratios. A cosim round runs at least
        // COSIM_BENCH_SECONDS / PAIRED_ROUNDS, so that its fixed start-up (opening the RTL, the
        // thread, about 1.5 ms) stays near 1 % of what it times: the steady state.
        let cosim = |vectors: u64, round: usize| {
            let config = RunConfig {
                vectors,
                seed: 1 + round as u64,
                jobs: 1,
                artifacts: std::env::temp_dir().join("gcn-vmem-bench"),
                time_phases: true,
                ..RunConfig::default()
            };
            run::random::<B>(&config)
        };
        // A closed-loop unit's other columns are cycles/s (its vectors are cycles of a recorded
        // run), and so is its cosim column; its `vectors` are programs' instructions.
        let cosim_rate_of = |summary: &run::Summary| {
            if B::CLOSED_LOOP {
                summary.cycles as f64 / summary.elapsed.as_secs_f64().max(1e-9)
            } else {
                summary.vectors_per_second()
            }
        };
        let passes = rounds.div_ceil(PAIRED_ROUNDS as u64).max(1);
        let mut cosim_vectors = (vectors / PAIRED_ROUNDS as u64).max(1);
        let least = COSIM_BENCH_SECONDS / PAIRED_ROUNDS as f64;
        let (mut cpp, mut cos, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        // Nanoseconds a vector of each round's cosim phases: generate, model, rtl.
        let mut ns: [Vec<f64>; 3] = Default::default();
        let mut interleaved = false;
        for round in 0..PAIRED_ROUNDS {
            let elapsed = B::Rtl::plain_loop(&inputs, passes)?;
            let cpp_round = (set as f64 * passes as f64) / elapsed.as_secs_f64().max(1e-9);
            let mut summary = cosim(cosim_vectors, round)?;
            let seconds = summary.elapsed.as_secs_f64();
            if round == 0 && seconds < least {
                let scale = (least / seconds.max(1e-6)).ceil() as u64;
                cosim_vectors = cosim_vectors.saturating_mul(scale.clamp(2, 1000));
                summary = cosim(cosim_vectors, round)?;
            }
            let cosim_round = cosim_rate_of(&summary);
            let phases = summary.phases.unwrap_or_default();
            // Per counted vector: a closed-loop unit's cosim column counts cycles.
            let counted = if B::CLOSED_LOOP { summary.cycles } else { summary.vectors };
            let per = |d: Duration| d.as_nanos() as f64 / counted.max(1) as f64;
            for (column, value) in ns.iter_mut().zip([phases.generate, phases.model, phases.rtl]) {
                column.push(per(value));
            }
            interleaved |= phases.interleaved;
            cpp.push(cpp_round);
            cos.push(cosim_round);
            ratios.push(cosim_round / cpp_round);
        }
        let (cpp_rate, cosim_rate) = (median(&mut cpp), median(&mut cos));
        let cosim_cpp = median(&mut ratios);

        println!(
            "{:<14} {:>12.0} {:>12.0} {:>12.0} {:>12.0} {:>12.0} {:>8.2} {:>8.2} {:>8.2} {:>8.1}",
            <B::Model as Unit>::NAME,
            model_rate,
            rtl_rate,
            cpp_rate,
            lockstep_rate,
            cosim_rate,
            lockstep_rate / cpp_rate,
            cosim_rate / lockstep_rate,
            cosim_cpp,
            model_rate / rtl_rate
        );
        // The loop's and cosim's whole vectors: the reciprocals of their median rates (the
        // median of an odd number of rounds, PAIRED_ROUNDS, is one of them).
        let [generate, model, rtl] = ns.map(|mut column| median(&mut column));
        let (cpp_ns, total) = (1e9 / cpp_rate, 1e9 / cosim_rate);
        Ok(Breakdown { unit: <B::Model as Unit>::NAME, cpp: cpp_ns, generate, model, rtl, total, interleaved })
    }
}

/// Which side `eval` computes with.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum EvalMode {
    Model,
    Rtl,
    Both,
}

struct EvalRun(EvalMode);

/// The first cycle where two output sequences differ, with both sides rendered ("none" past
/// the end of the shorter one).
fn first_difference<O: Ports>(expected: &[O], actual: &[O]) -> (usize, String, String) {
    let render = |o: Option<&O>| o.map_or_else(|| "none".to_string(), Ports::render);
    let cycle = (0..expected.len().max(actual.len())).find(|&i| expected.get(i) != actual.get(i)).unwrap_or(0);
    (cycle, render(expected.get(cycle)), render(actual.get(cycle)))
}

impl Visit for EvalRun {
    type Output = anyhow::Result<bool>;
    fn visit<B: Binding>(self) -> Self::Output {
        let mode = self.0;
        let mut model = B::Model::default();
        model.reset();
        let mut rtl = match mode {
            EvalMode::Model => None,
            _ => {
                let mut r = B::Rtl::open(&RtlOptions::default())?;
                r.reset();
                Some(r)
            }
        };
        let stdin = std::io::stdin();
        let mut stdout = std::io::stdout().lock();
        let mut ok = true;
        for (n, line) in stdin.lock().lines().enumerate() {
            let line = line.context("reading stdin")?;
            if line.trim().is_empty() {
                continue;
            }
            let reply = match B::parse_eval(&line) {
                Err(e) => {
                    ok = false;
                    json!({ "error": format!("line {}: {e}", n + 1) })
                }
                Ok(input) => {
                    let expected = (mode != EvalMode::Rtl).then(|| B::eval_cycles(&mut model, &input));
                    let actual = rtl.as_mut().map(|r| B::eval_cycles(r, &input));
                    let failed = rtl.as_mut().map(|r| r.take_assertions()).unwrap_or_default();
                    match (expected, actual) {
                        _ if !failed.is_empty() => {
                            ok = false;
                            let unit = <B::Model as Unit>::NAME;
                            let named: Vec<String> =
                                failed.iter().map(|a| format!("{a} ({})", assertion_file(unit, a))).collect();
                            json!({ "error": format!("line {}: RTL assertion(s) failed: {}", n + 1, named.join(", ")) })
                        }
                        (Some(e), Some(a)) if e != a => {
                            ok = false;
                            let (cycle, e, a) = first_difference(&e, &a);
                            json!({ "error": format!(
                                "line {}: model and RTL differ (output cycle {cycle}): model {{{e}}} rtl {{{a}}}",
                                n + 1,
                            ) })
                        }
                        (Some(outs), _) | (None, Some(outs)) => {
                            Value::Object(<B::Model as EvalObject>::object(&input, &outs))
                        }
                        (None, None) => unreachable!("eval runs at least one side"),
                    }
                }
            };
            writeln!(stdout, "{reply}")?;
            stdout.flush()?;
        }
        if let Some(r) = rtl.as_mut() {
            r.finish();
        }
        Ok(ok)
    }
}

/// What `replay` replays and writes.
pub struct Replay<'a> {
    pub file: &'a Path,
    pub wave: Option<&'a Path>,
    pub svg: Option<&'a Path>,
    pub trace: bool,
    pub rtl: RtlOptions,
}

impl Visit for Replay<'_> {
    type Output = anyhow::Result<bool>;
    fn visit<B: Binding>(self) -> Self::Output {
        let inputs = vectors::read_file::<<B::Model as Unit>::In>(self.file)?;
        let r = crate::engine::replay::replay::<B>(&inputs, &self.rtl, Some(self.file), self.wave)?;
        if self.trace {
            print!("{}", r.trace);
        }
        for line in &r.lines {
            println!("{line}");
        }
        for line in wave::file_lines(r.rtl_wave.as_deref(), r.diff_wave.as_deref()) {
            println!("{line}");
        }
        if let Some(e) = &r.wave_error {
            eprintln!("warning: waveform not written: {e}");
        }
        if let Some(path) = self.svg {
            svg::write(path, &svg::replay_svg::<B>(&inputs, &self.rtl, self.file)?)?;
            println!("timing diagram {}", path.display());
        }
        println!(
            "{}: {} vectors, {} cycles, {} mismatches, {} assertion failures",
            <B::Model as Unit>::NAME,
            inputs.len(),
            r.cycles,
            r.mismatches.len(),
            r.assertions.len()
        );
        Ok(r.mismatches.is_empty() && r.assertions.is_empty() && r.wave_error.is_none())
    }
}

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn median_is_the_middle_value_of_the_rounds() {
        assert_eq!(median(&mut [0.9, 0.3, 0.5, 0.7, 0.1]), 0.5);
        assert_eq!(median(&mut [2.0, 1.0]), 2.0);
        assert_eq!(median(&mut []), 0.0);
    }
}
