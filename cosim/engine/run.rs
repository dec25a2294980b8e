//! Random lockstep runs: a run's settings ([`RunConfig`]), its work cut into chunks of cases,
//! each with its own RNG seeded from (seed, chunk), so a run's vectors depend on `--seed` only,
//! not on the number of threads; its workers ([`crate::engine::pool::on_threads`]), each with its
//! own model and RTL instance; and what it did ([`Summary`]). A failing case is saved, shrunk and
//! re-run with waveforms ([`crate::engine::artifacts`]).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::engine::artifacts::{record_failure, save_unshrunk, shrink_and_save, Failure, Saving};
use crate::engine::case::Case;
use crate::engine::cover::{pair_cycle, InFlight};
use crate::engine::lockstep::{Lockstep, Phases, Step};
use crate::engine::pool::{on_threads, progress_bar};
use crate::engine::stimulus::{hash, Rng, CHUNK_VECTORS};
use crate::engine::wave;
use crate::engine::Binding;
use crate::engine::RtlUnit;
use crate::engine::Variant;
use crate::engine::Wave;
use crate::engine::{Gls, RtlOptions};
use gcn_vmem_model::cover::{Covered as _, Hits};
use gcn_vmem_model::unit::{Ports, Unit};

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
pub(crate) fn coverage_built() -> bool {
    env!("GCN_VMEM_COVERAGE_BUILT") == "1"
}

impl RunConfig {
    /// How this run saves its failing cases.
    fn saving(&self) -> Saving<'_> {
        let rtl = RtlOptions { variant: self.variant, gls: self.gls, wave: None, x_seed: self.x_seed };
        Saving { artifacts: &self.artifacts, rtl, wave: self.wave, shrink: self.shrink }
    }
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
            artifacts: crate::engine::artifacts::default_artifacts(),
            wave: Wave::Fst,
            progress: false,
            coverage: None,
            shrink: true,
            shard: None,
            time_phases: false,
        }
    }
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

/// The valid cycles of `steps`.
fn valid_count<P: Ports>(steps: &[Step<P>]) -> u64 {
    steps.iter().filter(|s| s.input.get(0) & 1 != 0).count() as u64
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
                        save_unshrunk::<B>(&case, &config.artifacts)?;
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                    let history = chunk_cases::<B>(config.seed, chunk, first_case..index);
                    let failure = shrink_and_save::<B>(&history, case, &config.saving())?;
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

/// The X seed of one chunk of an X run (`RunConfig::x_seed`): 31 bits, as Verilator's randSeed
/// takes them.
pub(crate) fn chunk_x_seed(x_seed: u64, chunk: u64) -> u64 {
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
