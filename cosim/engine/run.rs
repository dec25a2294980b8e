//! Random lockstep runs with shrinking, failure artifacts and replay.
//!
//! A random *case* is a short sequence of cycles (a valid input or an idle cycle with random
//! inputs, now and then with the asynchronous reset pulsed or held before the cycle's edge),
//! drawn by the unit's generator ([`Binding::generate_case`]) straight from a fast RNG. Work is
//! cut into fixed chunks of cases, each with its own RNG seeded from (seed, chunk), so a run's
//! vectors depend on `--seed` only, not on the number of threads. A failing case is saved as
//! found (`<artifacts>/<unit>/<hash>.unshrunk.jsonl`), shrunk field by field by the generic
//! shrinker ([`crate::engine::shrink`]), saved as `<id>.jsonl` with `id` a hash of the minimal case (so
//! the same bug found again is one file, counted), then re-run with tracing into `<id>.fst`
//! (or `.vcd`) plus the Rust-written `<id>.diff.vcd` and its GTKWave save file `<id>.diff.gtkw`.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use proptest::strategy::BoxedStrategy;

use super::wave;
use crate::engine::cover::{pair_cycle, InFlight};
use crate::engine::lockstep::{source_cycle, AssertionFailure, At, Lockstep, Mismatch, Phases, Reset, Step};
use crate::engine::stimulus::{hash, Rng};
use crate::engine::vectors;
use crate::engine::RtlUnit;
use crate::engine::Variant;
use crate::engine::Wave;
use crate::engine::{Binding, UnitTypes};
use crate::engine::{Gls, RtlOptions};
use gcn_vmem_model::cover::{Covered as _, Hits};
use gcn_vmem_model::unit::{valid_of, Ports, Unit};

type In<B> = <<B as UnitTypes>::Model as Unit>::In;
type Out<B> = <<B as UnitTypes>::Model as Unit>::Out;
/// One random case: its cycles.
pub type Case<B> = Vec<Step<In<B>>>;

pub use super::policy::DEFAULT_VECTORS;

pub use super::stimulus::CHUNK_VECTORS;
/// Longest random case, in cycles. Cases average 512.5 cycles, so that what each costs besides
/// its cycles (its opening reset, four evaluations on both sides; its drain, the latency; its
/// allocation and the switches between stimulus, model and RTL) is small against its vectors;
/// shrinking shortens a failing one (a mutant's 395-cycle case to its one failing cycle in
/// milliseconds). (64 until issue 21's second round, 256 until its eleventh: docs/perf.md.)
pub const CASE_CYCLES: usize = 1024;

/// Settings of one random run.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Valid input vectors to drive (idle cycles not counted).
    pub vectors: u64,
    pub seed: u64,
    pub jobs: usize,
    /// Stop after this many failing cases (each is shrunk and saved).
    pub max_failures: usize,
    /// Which RTL to run against (the unit as written, or one of its test-only broken builds).
    pub variant: Variant,
    /// Run a gate-level netlist of the unit instead of its RTL (`cosim --gls`, `make gls`).
    pub gls: Gls,
    /// Random initial state and X values in the RTL, from this seed (`make cosim XSEEDS=n`).
    pub x_seed: Option<u64>,
    /// Root of the failure artifacts (`<root>/<unit>/…`).
    pub artifacts: PathBuf,
    /// Waveform format of re-run failures.
    pub wave: Wave,
    pub progress: bool,
    /// Write each worker's Verilator coverage database into this folder (needs a build with
    /// `GCN_VMEM_COVERAGE=1`, see [`coverage_built`]).
    pub coverage: Option<PathBuf>,
    /// Shrink failing cases (`--no-shrink` saves and reports them as found: quicker triage, and
    /// every distinct failure stays distinct).
    pub shrink: bool,
    /// Run only the chunks of one shard: `(k, n)` takes chunks `k-1, k-1+n, …` (1 <= k <= n), so
    /// the `n` shards of a run together drive exactly the run's chunks ([`Shard`]).
    pub shard: Option<Shard>,
    /// Time where each case's time goes ([`Summary::phases`]): `gcn-vmem bench`'s breakdown.
    pub time_phases: bool,
}

/// One slice of a run (`--shard K/N`): shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let usage = || format!("`{text}` is not a shard: write K/N with 1 <= K <= N, e.g. --shard 3/8");
        let (k, n) = text.split_once('/').ok_or_else(usage)?;
        let (index, count) =
            (k.trim().parse::<u64>().map_err(|_| usage())?, n.trim().parse::<u64>().map_err(|_| usage())?);
        if index == 0 || count == 0 || index > count {
            return Err(usage());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The chunks of a run of `vectors` vectors that `shard` drives, in order.
pub fn shard_chunks(vectors: u64, shard: Option<Shard>) -> impl Iterator<Item = u64> {
    let total = vectors.div_ceil(CHUNK_VECTORS);
    let Shard { index, count } = shard.unwrap_or(Shard { index: 1, count: 1 });
    (index - 1..total).step_by(count as usize)
}

/// Whether this binary's RTL models were verilated with `--coverage` (`make coverage`).
pub fn coverage_built() -> bool {
    env!("GCN_VMEM_COVERAGE_BUILT") == "1"
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            vectors: 10_000,
            seed: 0,
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_failures: 5,
            variant: Variant::AsWritten,
            gls: Gls::Off,
            x_seed: None,
            artifacts: default_artifacts(),
            wave: Wave::Fst,
            progress: false,
            coverage: None,
            shrink: true,
            shard: None,
            time_phases: false,
        }
    }
}

/// `target/cosim` of this checkout, unless `GCN_VMEM_ARTIFACTS` names another folder.
pub fn default_artifacts() -> PathBuf {
    match std::env::var_os("GCN_VMEM_ARTIFACTS") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("target").join("cosim"),
    }
}

/// A failing case after shrinking, with where its files went.
#[derive(Debug, Clone)]
pub struct Failure {
    /// The minimal case, named by a hash of its contents.
    pub vector_file: PathBuf,
    /// Failing cases of the run that shrank to this same minimal case.
    pub count: u64,
    /// Each of those cases as found, unshrunk (`<hash>.unshrunk.jsonl`).
    pub unshrunk_files: Vec<PathBuf>,
    pub rtl_wave: Option<PathBuf>,
    pub diff_wave: Option<PathBuf>,
    /// Whether the saved case is the shrunk one (false: saved as found, see `note`).
    pub shrunk: bool,
    /// Cycles of the case before and after shrinking.
    pub cycles_before: usize,
    pub cycles_after: usize,
    /// The mismatch lines of the shrunk case (at most a few).
    pub lines: Vec<String>,
    /// Why a waveform could not be written, if it could not (the vector is saved regardless).
    pub wave_error: Option<String>,
    /// Why the case was saved unshrunk, when it was (it needs its chunk's earlier cases).
    pub note: Option<String>,
}

/// What a random run did.
#[derive(Debug, Clone)]
pub struct Summary {
    pub unit: &'static str,
    /// The X seed of an X run (`RunConfig::x_seed`).
    pub x_seed: Option<u64>,
    pub vectors: u64,
    pub cycles: u64,
    /// Failing cases seen (each one saved).
    pub failing_cases: u64,
    pub failures: Vec<Failure>,
    pub elapsed: Duration,
    /// The run stopped early at `max_failures`.
    pub stopped: bool,
    /// The run's shard, when it ran one.
    pub shard: Option<Shard>,
    /// Chunks driven (all of the run's, or the shard's).
    pub chunks: u64,
    /// Hits of the unit's functional coverage bins ([`gcn_vmem_model::cover`]).
    pub hits: Hits,
    /// Where the workers' time went, summed over them, when [`RunConfig::time_phases`] asked.
    pub phases: Option<Phases>,
}

impl Summary {
    pub fn vectors_per_second(&self) -> f64 {
        self.vectors as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The strategy of one random case of unit `B` ([`Binding::case_strategy`]).
pub fn case_strategy<B: Binding>() -> BoxedStrategy<Case<B>> {
    B::case_strategy()
}

/// The default case: 1..=CASE_CYCLES independent cycles, one in thirty-two idle (an idle cycle
/// keeps its random data), each with the reset activity of [`reset_activity`] (one in 80). With
/// cases of 512.5 cycles on average, 97 % of cases hold an idle cycle.
pub fn generate_cycles<B: Binding>(rng: &mut Rng) -> Case<B> {
    generate_cycles_with::<B>(rng, B::generate)
}

/// [`generate_cycles`] with each cycle's inputs from `generate` (called once a cycle, in order,
/// after the cycle's own draw): for a unit whose stimulus keeps a state along a case.
#[inline]
pub fn generate_cycles_with<B: Binding>(rng: &mut Rng, mut generate: impl FnMut(&mut Rng) -> In<B>) -> Case<B> {
    let len = 1 + rng.below(CASE_CYCLES as u64) as usize;
    (0..len)
        .map(|_| {
            // One draw for the cycle's valid (bits 63:40) and reset activity (bits 31:0), the
            // latter as `reset_activity` draws it, without a branch.
            let r = rng.next_u64();
            let valid = r >> 40 < VALID_BELOW;
            let reset = RESETS[crate::engine::stimulus::scaled(r, 32, RESETS.len() as u64) as usize];
            let mut input = generate(rng);
            input.set(0, u128::from(valid));
            Step { reset, input }
        })
        .collect()
}

/// A default case whose valid inputs come in runs of one *kind* (what an instruction gives
/// every lane of its wave: a format, an op), as the lanes of a wave reach a unit: `kind` draws
/// a kind at the case's start and again for one vector in [`KIND_RUN`] (runs of that many on
/// average, so a 1,024-cycle case still changes kind about 60 times); `vector` draws the
/// cycle's input of the kind, given the cycle's draw `r` (whose low bits decided the switch;
/// its bits 63:8 are free). Each vector still draws its own data.
#[inline]
pub fn generate_runs<B: Binding, K: Copy>(
    rng: &mut Rng,
    mut kind: impl FnMut(&mut Rng) -> K,
    mut vector: impl FnMut(&mut Rng, K, u64) -> In<B>,
) -> Case<B> {
    let mut current = kind(rng);
    generate_cycles_with::<B>(rng, |rng| {
        let r = rng.next_u64();
        if r % KIND_RUN == 0 {
            current = kind(rng);
        }
        vector(rng, current, r)
    })
}

/// The average run of one kind in [`generate_runs`]: a power of two, so the switch reads only
/// the low bits of the cycle's draw.
pub const KIND_RUN: u64 = 16;
const _: () = assert!(KIND_RUN.is_power_of_two() && KIND_RUN <= 256);

/// `n` inputs for `gcn-vmem bench` drawn as `B`'s random cases draw them: the valid inputs of
/// consecutive cases, so that the plain C++ loop drives what `gcn-vmem cosim` drives (for a
/// unit whose cases are not independent draws of [`Binding::generate`]).
pub fn case_inputs<B: Binding>(rng: &mut Rng, n: usize) -> Vec<In<B>> {
    let mut inputs = Vec::with_capacity(n);
    while inputs.len() < n {
        let case = B::generate_case(rng);
        inputs.extend(case.iter().filter(|s| valid_of(&s.input)).map(|s| s.input).take(n - inputs.len()));
    }
    inputs
}

/// A cycle is valid when 24 bits of its draw are below this: 31/32 of 2^24.
const VALID_BELOW: u64 = 31 << 19;

/// One in this many cycles of a default case pulses rst_ni, and one in this many holds it.
const RESET_ONE_IN: usize = 80;

/// [`generate_cycles`]'s reset activity ([`reset_activity`] with [`RESET_ONE_IN`]) as a table.
const RESETS: [Reset; RESET_ONE_IN] = {
    let mut table = [Reset::None; RESET_ONE_IN];
    let mut k = 0;
    while k < RESET_ONE_IN {
        table[k] = reset_of(k as u64);
        k += 1;
    }
    table
};

/// Draw `k` of `0..n` as reset activity: 0 pulses, 1 holds, the rest none.
const fn reset_of(k: u64) -> Reset {
    match k {
        0 => Reset::Pulse,
        1 => Reset::Hold,
        _ => Reset::None,
    }
}

/// The reset activity of one random cycle or handshake: one in `one_in` pulses rst_ni between
/// edges, one in `one_in` holds it low across the edge (runs of held cycles arise from
/// neighbours). The default case draws it as [`RESETS`] does, one in 80 each, so that nearly
/// every default case (96 %, of 512.5 cycles on average) resets somewhere inside or between
/// its bursts of valid inputs; the coalescer's handshakes (cosim/bindings/coalescer.rs) one in
/// 40 each.
pub fn reset_activity(rng: &mut Rng, one_in: u64) -> Reset {
    reset_of(rng.below(one_in))
}

/// The RNG of one chunk, seeded from (seed, chunk): the vectors of a run depend on its seed and
/// not on which worker takes which chunk.
fn valid_count<P: Ports>(steps: &[Step<P>]) -> u64 {
    steps.iter().filter(|s| s.input.get(0) & 1 != 0).count() as u64
}

/// A progress bar of `len` (`{pos}/{len}` then `what`, e.g. " vectors") named `prefix`.
pub fn progress_bar(prefix: &str, len: u64, what: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{prefix:>12}} [{{bar:40}}] {{pos}}/{{len}}{what} {{per_sec}} eta {{eta}}"
        ))
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar.set_prefix(prefix.to_string());
    bar
}

/// Runs `work` on `jobs` threads (at least one), each given its index, then clears `bar`, and
/// returns the first error a thread returned; `failed` runs as soon as one fails (e.g. to stop
/// the others early).
pub fn on_threads(
    jobs: usize,
    bar: Option<&indicatif::ProgressBar>,
    work: impl Fn(usize) -> anyhow::Result<()> + Sync,
    failed: impl Fn() + Sync,
) -> anyhow::Result<()> {
    let first_error = Mutex::new(None);
    std::thread::scope(|scope| {
        for index in 0..jobs.max(1) {
            let (work, failed, first_error) = (&work, &failed, &first_error);
            scope.spawn(move || {
                if let Err(e) = work(index) {
                    failed();
                    first_error.lock().unwrap().get_or_insert(e);
                }
            });
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    first_error.into_inner().unwrap().map_or(Ok(()), Err)
}

/// Runs `config.vectors` random vectors through model and RTL in lockstep.
pub fn random<B: Binding>(config: &RunConfig) -> anyhow::Result<Summary> {
    let unit = <B::Model as Unit>::NAME;
    if let Some(dir) = &config.coverage {
        anyhow::ensure!(
            coverage_built(),
            "this build has no coverage points; run `make coverage` (it builds with GCN_VMEM_COVERAGE=1)"
        );
        std::fs::create_dir_all(dir).map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    }
    let start = Instant::now();
    let chunks: Vec<u64> = shard_chunks(config.vectors, config.shard).collect();
    let expected_vectors = chunks.len() as u64 * CHUNK_VECTORS;
    let group = B::Model::covergroup();
    let hits_total = Mutex::new(Hits::new(&group));
    let chunks_done = AtomicU64::new(0);
    let next_chunk = AtomicU64::new(0);
    let vectors_done = AtomicU64::new(0);
    let cycles_done = AtomicU64::new(0);
    let failing = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let failures = Mutex::new(Vec::new());
    let phases_total = Mutex::new(Phases::default());
    let bar = config.progress.then(|| progress_bar(unit, expected_vectors, " vectors"));
    let jobs = config.jobs.max(1);

    let work = |worker_index: usize| -> anyhow::Result<()> {
        let rtl =
            B::Rtl::open(&RtlOptions { variant: config.variant, gls: config.gls, wave: None, x_seed: config.x_seed })?;
        let mut lockstep = Lockstep::new(B::Model::default(), rtl);
        if !B::SIDE_BY_SIDE {
            lockstep = lockstep.cycle_by_cycle();
        }
        lockstep.phases = config.time_phases.then(Phases::default);
        let mut hits = Hits::new(&group);
        let mut in_flight = InFlight::default();
        while !stop.load(Ordering::Relaxed) {
            let Some(&chunk) = chunks.get(next_chunk.fetch_add(1, Ordering::Relaxed) as usize) else {
                break;
            };
            let mut rng = Rng::for_chunk(config.seed, chunk);
            // X runs: every chunk starts from a fresh RTL instance with its own random
            // initial state; its failures replay with that chunk's X seed.
            let chunk_config;
            let config = match config.x_seed {
                Some(x) => {
                    let x_seed = Some(chunk_x_seed(x, chunk));
                    lockstep.rtl =
                        B::Rtl::open(&RtlOptions { variant: config.variant, gls: config.gls, wave: None, x_seed })?;
                    chunk_config = RunConfig { x_seed, ..config.clone() };
                    &chunk_config
                }
                None => config,
            };
            // Counted per chunk, not per case: the shared counters stay off the hot path.
            let mut chunk_vectors = 0;
            let mut chunk_cycles = 0;
            // Where the cases since the RTL instance was opened begin in this chunk: a
            // failure that needs the state they left behind (a register reset does not
            // clear) is saved with them, regenerated from the chunk's seed.
            let mut first_case = 0;
            let mut index = 0;
            while chunk_vectors < CHUNK_VECTORS {
                let generate_start = lockstep.phases.is_some().then(Instant::now);
                let case = B::generate_case(&mut rng);
                if let (Some(phases), Some(t)) = (&mut lockstep.phases, generate_start) {
                    phases.generate += t.elapsed();
                }
                in_flight.clear();
                let same = lockstep.run_steps_with(&case, |cycle, step, out, model| {
                    pair_cycle::<B>(&mut in_flight, &case, cycle, step, out, model, &mut hits);
                });
                chunk_cycles += lockstep.cycles();
                chunk_vectors += valid_count(&case);
                if !same {
                    let n = failing.fetch_add(1, Ordering::Relaxed) + 1;
                    if n as usize > config.max_failures {
                        // Past the budget for shrinking: keep the case, unshrunk.
                        save_unshrunk::<B>(&case, config)?;
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                    let history = chunk_cases::<B>(config.seed, chunk, first_case..index);
                    let failure = shrink_and_save::<B>(&history, case, config)?;
                    // Later cases start from a state nothing else has seen.
                    let options =
                        RtlOptions { variant: config.variant, gls: config.gls, wave: None, x_seed: config.x_seed };
                    lockstep.rtl = B::Rtl::open(&options)?;
                    first_case = index + 1;
                    record_failure(&mut failures.lock().unwrap(), failure);
                    if n as usize >= config.max_failures {
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                }
                index += 1;
            }
            chunks_done.fetch_add(1, Ordering::Relaxed);
            vectors_done.fetch_add(chunk_vectors, Ordering::Relaxed);
            cycles_done.fetch_add(chunk_cycles, Ordering::Relaxed);
            if let Some(bar) = &bar {
                bar.inc(chunk_vectors);
            }
        }
        if let Some(dir) = &config.coverage {
            let file = dir.join(format!("{unit}-{worker_index}.dat"));
            lockstep.rtl.write_coverage(&file.display().to_string());
        }
        lockstep.rtl.finish();
        hits_total.lock().unwrap().merge(&hits);
        if let Some(phases) = &lockstep.phases {
            phases_total.lock().unwrap().add(phases);
        }
        Ok(())
    };
    on_threads(jobs, bar.as_ref(), work, || stop.store(true, Ordering::Relaxed))?;
    let mut failures = failures.into_inner().unwrap();
    failures.sort_by(|a, b| a.vector_file.cmp(&b.vector_file));
    let failing_cases = failing.load(Ordering::Relaxed);
    Ok(Summary {
        unit,
        x_seed: config.x_seed,
        vectors: vectors_done.load(Ordering::Relaxed),
        cycles: cycles_done.load(Ordering::Relaxed),
        failing_cases,
        stopped: stop.load(Ordering::Relaxed) && failing_cases > 0,
        failures,
        elapsed: start.elapsed(),
        shard: config.shard,
        chunks: chunks_done.load(Ordering::Relaxed),
        hits: hits_total.into_inner().unwrap(),
        phases: config.time_phases.then(|| phases_total.into_inner().unwrap()),
    })
}

/// Cases `range` of chunk `chunk` of a run with seed `seed`, generated again: the same cases
/// whichever worker ran that chunk, with however many workers.
pub fn chunk_cases<B: Binding>(seed: u64, chunk: u64, range: std::ops::Range<u64>) -> Vec<Case<B>> {
    let mut rng = Rng::for_chunk(seed, chunk);
    (0..range.end).map(|_| B::generate_case(&mut rng)).skip(range.start as usize).collect()
}

/// Adds a shrunk failure to the run's list, or counts it against an earlier one with the same
/// minimal case (the same bug found again).
fn record_failure(failures: &mut Vec<Failure>, failure: Failure) {
    match failures.iter_mut().find(|f| f.vector_file == failure.vector_file) {
        Some(known) => {
            known.count += 1;
            known.unshrunk_files.extend(failure.unshrunk_files);
        }
        None => failures.push(failure),
    }
}

/// `cases` as one run: each case after the first opens with the reset `Lockstep::run_steps`
/// gives it (rst_ni held low across one idle edge, released before its first edge), and ends
/// with the unit's latency of idle cycles.
pub fn concatenate<I: Ports>(cases: &[Vec<Step<I>>], latency: usize) -> Vec<Step<I>> {
    let mut steps = Vec::new();
    for (n, case) in cases.iter().enumerate() {
        if n > 0 {
            steps.push(Step { reset: Reset::Hold, input: I::default() });
        }
        steps.extend_from_slice(case);
        steps.extend(std::iter::repeat_n(Step::default(), latency));
    }
    steps
}

/// Saves a failing case and shrinks it, each candidate on a fresh RTL instance of the run's
/// build and X seed, so that the saved vector fails from reset alone, as its replay does. A case
/// that fails only after the earlier cases of its chunk (`history`: a register the reset does not
/// clear kept their values) is saved as the whole sequence, unshrunk, which does fail from reset.
/// Then re-runs the result with its waveforms.
fn shrink_and_save<B: Binding>(history: &[Case<B>], original: Case<B>, config: &RunConfig) -> anyhow::Result<Failure> {
    // Save the unshrunk case first: whatever happens next, it is not lost.
    let (dir, _, unshrunk_file) = save_unshrunk::<B>(&original, config)?;
    let options = RtlOptions { variant: config.variant, gls: config.gls, wave: None, x_seed: config.x_seed };
    let fails = |steps: &[Step<In<B>>]| -> anyhow::Result<bool> {
        let mut fresh = Lockstep::new(B::Model::default(), B::Rtl::open(&options)?);
        Ok(!fresh.run_steps(steps))
    };

    let mut best = original.clone();
    let mut note = None;
    let shrinkable = config.shrink && fails(&original)?;
    if !config.shrink {
        note = Some("saved as found (--no-shrink)".to_string());
    } else if shrinkable {
        let shrunk = if B::CLOSED_LOOP {
            crate::engine::shrink::truncate(&original, fails)?
        } else {
            crate::engine::shrink::shrink(&original, crate::engine::shrink::Budget::default(), fails)?
        };
        if shrunk.exhausted {
            note = Some(format!("the shrinker's budget ran out after {} candidates; smaller may exist", shrunk.tried));
        }
        best = shrunk.steps;
    } else {
        let mut cases = history.to_vec();
        cases.push(original.clone());
        let sequence = concatenate(&cases, <B::Model as Unit>::LATENCY);
        note = Some(if fails(&sequence)? {
            best = sequence;
            format!(
                "fails only after the {} earlier case(s) of its chunk (state a reset did not clear?): saved them all, unshrunk",
                history.len()
            )
        } else {
            "does not fail on a fresh RTL instance, even after its chunk's earlier cases; saved unshrunk".to_string()
        });
    }
    // The minimal case names its files, so the same bug found again lands in the same files.
    let id = format!("{:016x}", hash(vectors::to_text(&best).as_bytes()));
    let vector_file = dir.join(format!("{id}.jsonl"));
    std::fs::write(&vector_file, vectors::to_text(&best))
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", vector_file.display()))?;
    let wave_file = dir.join(format!("{id}.{}", config.wave.extension()));
    let options = RtlOptions { variant: config.variant, gls: config.gls, wave: None, x_seed: config.x_seed };
    let replay = replay::<B>(&best, &options, Some(&vector_file), Some(&wave_file));
    let (rtl_wave, diff_wave, wave_error, lines) = match replay {
        Ok(r) => (r.rtl_wave, r.diff_wave, r.wave_error, r.lines),
        Err(e) => (None, None, Some(format!("{e:#}")), Vec::new()),
    };

    Ok(Failure {
        vector_file,
        count: 1,
        unshrunk_files: vec![unshrunk_file],
        shrunk: shrinkable,
        rtl_wave,
        diff_wave,
        cycles_before: original.len(),
        cycles_after: best.len(),
        lines,
        wave_error,
        note,
    })
}

/// Saves a failing case as `<artifacts>/<unit>/<id>.unshrunk.jsonl`, `id` being a hash of its
/// contents; returns the folder, the id and the file.
fn save_unshrunk<B: Binding>(case: &[Step<In<B>>], config: &RunConfig) -> anyhow::Result<(PathBuf, String, PathBuf)> {
    let dir = config.artifacts.join(<B::Model as Unit>::NAME);
    std::fs::create_dir_all(&dir).map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    let text = vectors::to_text(case);
    let id = format!("{:016x}", hash(text.as_bytes()));
    let file = dir.join(format!("{id}.unshrunk.jsonl"));
    std::fs::write(&file, &text).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", file.display()))?;
    Ok((dir, id, file))
}

/// The X seed of one chunk of an X run (`RunConfig::x_seed`): 31 bits, as Verilator's randSeed
/// takes them.
pub fn chunk_x_seed(x_seed: u64, chunk: u64) -> u64 {
    hash(&[x_seed.to_le_bytes(), chunk.to_le_bytes()].concat()) & 0x7fff_ffff
}

/// Prints a failure's lines and files to stdout.
pub fn print_failure(failure: &Failure) {
    for line in &failure.lines {
        println!("{line}");
    }
    let how = if failure.shrunk {
        format!("shrunk {} -> {} cycles", failure.cycles_before, failure.cycles_after)
    } else {
        format!("{} cycles: not shrunk, see below", failure.cycles_after)
    };
    let times = if failure.count > 1 {
        format!("; {} failing cases shrank to this same vector", failure.count)
    } else {
        String::new()
    };
    println!("  saved {} ({how}{times})", failure.vector_file.display());
    let unshrunk: Vec<String> = failure.unshrunk_files.iter().map(|f| f.display().to_string()).collect();
    println!("  unshrunk, as found: {}", unshrunk.join(" "));
    for line in wave::file_lines(failure.rtl_wave.as_deref(), failure.diff_wave.as_deref()) {
        println!("  {line}");
    }
    if let Some(e) = &failure.wave_error {
        println!("  waveform not written: {e}");
    }
    if let Some(n) = &failure.note {
        println!("  the case {n}");
    }
}

/// The result of replaying a vector file.
#[derive(Debug, Clone)]
pub struct Replay {
    pub cycles: u64,
    pub mismatches: Vec<Mismatch>,
    pub assertions: Vec<AssertionFailure>,
    /// One line per assertion failure and per mismatch (all of them), as printed.
    pub lines: Vec<String>,
    pub trace: String,
    pub rtl_wave: Option<PathBuf>,
    pub diff_wave: Option<PathBuf>,
    pub wave_error: Option<String>,
}

/// The command that regenerates a vector's waveforms (on the same RTL build and X seed).
pub fn repro_command(unit: &str, vector_file: &Path, rtl: &RtlOptions) -> String {
    // The gate-level netlist runs in the binary `make gls` builds (mk/gls.mk).
    let target = if rtl.gls == Gls::Netlist { "gls-wave" } else { "wave" };
    let mut command = format!("make {target} UNIT={unit} VECTOR={}", vector_file.display());
    match rtl.variant {
        Variant::AsWritten => {}
        Variant::Mutant => command.push_str(" FLAGS=--mutant"),
        Variant::BreakAsserts => command.push_str(" FLAGS=--break-asserts"),
    }
    if matches!(rtl.gls, Gls::TrapRtl | Gls::TrapNetlist) {
        // The test-only trap builds have no flag: tests/gls.rs opens them.
        command.push_str(&format!(" (on the test-only build Gls::{:?} of tests/gls.rs)", rtl.gls));
    }
    if let Some(seed) = rtl.x_seed {
        command.push_str(&format!(" XSEED={seed}"));
    }
    command
}

/// Where the waveforms of a replay go: the RTL's own (FST or VCD, by Verilator) at `path`, and
/// the Rust-written diff beside it as `<path without extension>.diff.vcd` (with its GTKWave save
/// file `<path without extension>.diff.gtkw`).
pub fn wave_paths(path: &Path) -> (Wave, PathBuf, PathBuf) {
    let format = match path.extension().and_then(|e| e.to_str()) {
        Some("vcd") => Wave::Vcd,
        _ => Wave::Fst,
    };
    let diff = PathBuf::from(format!("{}.diff.vcd", path.with_extension("").display()));
    (format, path.to_path_buf(), diff)
}

/// Replays `steps` on model and RTL from reset, on the RTL build `rtl` names (its `wave` is
/// ignored). With `wave`, the RTL run is traced into that file and the diff waveform written
/// beside it (see [`wave_paths`]); a waveform that cannot be written (or a variant built
/// untraced) is reported in `wave_error`, never an error of the replay itself.
pub fn replay<B: Binding>(
    steps: &[Step<In<B>>],
    rtl: &RtlOptions,
    vector_file: Option<&Path>,
    wave: Option<&Path>,
) -> anyhow::Result<Replay> {
    let unit = <B::Model as Unit>::NAME;
    let paths = wave.map(wave_paths);
    let mut wave_error = None;
    let mut options = RtlOptions { wave: None, ..rtl.clone() };
    if let Some((format, path, _)) = &paths {
        match path.parent().map(std::fs::create_dir_all) {
            Some(Err(e)) => wave_error = Some(format!("cannot create the folder of {}: {e}", path.display())),
            _ => options.wave = Some((*format, path.clone())),
        }
    }
    let rtl = match B::Rtl::open(&options) {
        Ok(rtl) => rtl,
        Err(e) if options.wave.is_some() => {
            wave_error = Some(format!("{e:#}"));
            options.wave = None;
            B::Rtl::open(&options)?
        }
        Err(e) => return Err(e),
    };
    let mut lockstep = Lockstep::new(B::Model::default(), rtl).recording();
    lockstep.run_steps(steps);
    lockstep.rtl.finish();
    let record = lockstep.record.take().unwrap_or_default();
    let repro = vector_file.map(|f| repro_command(unit, f, &options)).unwrap_or_else(|| "(no vector file)".to_string());
    let lines = lockstep
        .assertions
        .iter()
        .map(|a| assertion_line::<B>(a, steps, &repro))
        .chain(lockstep.mismatches.iter().map(|m| mismatch_line::<B>(m, steps, &repro)))
        .collect();
    let mut rtl_wave = None;
    let mut diff_wave = None;
    if let (Some((_, path, diff)), Some(_)) = (&paths, &options.wave) {
        rtl_wave = Some(path.clone());
        // The diff waveform and its GTKWave save file (`wave::gtkw_path`) beside it.
        let written = wave::write_diff_vcd(diff, unit, &lockstep.opening, &record)
            .and_then(|()| wave::write_gtkw::<In<B>, Out<B>>(diff, unit));
        match written {
            Ok(_) => diff_wave = Some(diff.clone()),
            Err(e) => wave_error = Some(format!("cannot write {} or its GTKWave save file: {e}", diff.display())),
        }
    }
    Ok(Replay {
        cycles: lockstep.cycles(),
        mismatches: lockstep.mismatches.clone(),
        assertions: lockstep.assertions.clone(),
        lines,
        trace: crate::engine::lockstep::trace_with(&record, B::render_input),
        rtl_wave,
        diff_wave,
        wave_error,
    })
}

/// The inputs behind the outputs of `cycle`, for a report line: the last valid input that
/// reached them (data registers hold otherwise), with a field breakdown.
fn source_text<B: Binding>(cycle: u64, at: At, steps: &[Step<In<B>>]) -> String {
    if at == At::ResetEdge || (at == At::ResetAsserted && cycle == 0) {
        return "in: none (the opening reset)".to_string();
    }
    let source = source_cycle(cycle, <B::Model as Unit>::LATENCY).and_then(|last| {
        let last = (last as usize).min(steps.len().checked_sub(1)?);
        (0..=last).rev().find(|&c| steps[c].input.get(0) & 1 != 0).map(|c| (c, &steps[c].input))
    });
    // An assertion on a register inside the pipeline can sample a value younger than the
    // outputs: then show the last valid input before the edge.
    let source = source.or_else(|| {
        let last = (cycle as usize).min(steps.len().checked_sub(1)?);
        (0..=last).rev().find(|&c| steps[c].input.get(0) & 1 != 0).map(|c| (c, &steps[c].input))
    });
    match source {
        Some((c, i)) => format!("in@{c}: {} [{}]", B::render_input(i), B::describe(i)),
        None => "in: none valid yet (reset values)".to_string(),
    }
}

/// One greppable line: unit, cycle (and when in it, for comparisons at a reset change),
/// signal, expected and actual (and their XOR), the inputs that produced them with a field
/// breakdown, and the command that reproduces it.
pub fn mismatch_line<B: Binding>(m: &Mismatch, steps: &[Step<In<B>>], repro: &str) -> String {
    let unit = <B::Model as Unit>::NAME;
    let signal = &<Out<B> as Ports>::SIGNALS[m.signal];
    let at = if m.at == At::Edge { String::new() } else { format!(" at={}", m.at) };
    format!(
        "MISMATCH {unit} cycle={}{at} signal={} expected(model)={} actual(rtl)={} xor={} | {} | repro: {repro}",
        m.cycle,
        signal.name,
        signal.hex(m.expected),
        signal.hex(m.actual),
        signal.hex(m.expected ^ m.actual),
        source_text::<B>(m.cycle, m.at, steps),
    )
}

/// One greppable line for a failed RTL assertion: unit, cycle, the assertion's name and where it
/// is declared ([`assertion_file`]), the inputs behind the values it sampled, and the command that
/// reproduces it.
pub fn assertion_line<B: Binding>(a: &AssertionFailure, steps: &[Step<In<B>>], repro: &str) -> String {
    let unit = <B::Model as Unit>::NAME;
    let at = if a.at == At::Edge { String::new() } else { format!(" at={}", a.at) };
    // A concurrent assertion samples the values from before the edge that evaluates it.
    let sampled = a.cycle.saturating_sub(1);
    format!(
        "ASSERTION {unit} cycle={}{at} assertion={} ({}) | {} | repro: {repro}",
        a.cycle,
        a.name,
        assertion_file(unit, &a.name),
        source_text::<B>(sampled, a.at, steps),
    )
}

/// The names of the assertions a SystemVerilog text declares (`` `VMEM_ASSERT(Name, …) `` and the
/// `VMEM_ASSERT_*` variants), in order, outside `//` comments.
pub fn declared_assertions(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        for (at, m) in code.match_indices("`VMEM_ASSERT") {
            let rest = &code[at + m.len()..];
            let rest = rest.trim_start_matches(|c: char| c.is_ascii_uppercase() || c == '_');
            let Some(args) = rest.strip_prefix('(') else { continue };
            let name = args.split(',').next().unwrap_or("").trim();
            if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                names.push(name.to_string());
            }
        }
    }
    names
}

/// Where assertion `name` of `unit` is declared, as `rtl/<file>.sv`: the file of the unit's source
/// set (rtl/<unit>.sv, then the modules it instantiates, [`crate::tools::yosys::submodules`])
/// that declares it, e.g. `rtl/vmem_pipe_tcp.sv` for a TCP assertion of the pipeline. Units that
/// share an assertion name (`CountBound_A` of d16, format_unpack and swizzle) give every file
/// that declares it (`rtl/d16.sv or rtl/swizzle.sv`); when no file can be read or none declares
/// it, `rtl/<unit>.sv`.
pub fn assertion_file(unit: &str, name: &str) -> String {
    assertion_file_in(&Path::new(env!("CARGO_MANIFEST_DIR")).join("rtl"), unit, name)
}

/// [`assertion_file`] with the RTL read from `rtl_dir`.
pub fn assertion_file_in(rtl_dir: &Path, unit: &str, name: &str) -> String {
    let own = format!("{unit}.sv");
    let mut files = vec![own.clone()];
    files.extend(crate::tools::yosys::submodules(rtl_dir, unit).unwrap_or_default());
    let declaring: Vec<String> = files
        .iter()
        .filter(|f| {
            std::fs::read_to_string(rtl_dir.join(f))
                .is_ok_and(|text| declared_assertions(&text).iter().any(|n| n == name))
        })
        .map(|f| format!("rtl/{f}"))
        .collect();
    if declaring.is_empty() {
        format!("rtl/{own}")
    } else {
        declaring.join(" or ")
    }
}
