//! Exhaustive sweeps: every input of an enumerable space through model and RTL in lockstep,
//! split over threads in fixed chunks. A sweep is a unit plus a function from an index to an
//! input; failing inputs are saved as a vector file like any other failure.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::engine::lockstep::{Lockstep, Step};
use crate::engine::pool;
use crate::engine::vectors;
use crate::engine::RtlOptions;
use crate::engine::RtlUnit;
use crate::engine::{Binding, UnitTypes};
use gcn_vmem_model::unit::Unit;

type In<B> = <<B as UnitTypes>::Model as Unit>::In;

/// Indices per chunk of work.
const CHUNK: u64 = 1 << 16;
/// Failing inputs kept (and saved) per sweep.
const KEEP: usize = 64;

/// What a sweep did.
#[derive(Debug)]
pub struct SweepSummary {
    pub name: String,
    pub unit: &'static str,
    pub vectors: u64,
    pub failing: u64,
    pub elapsed: Duration,
    /// The first failing inputs, saved here (none when the sweep is clean).
    pub saved: Option<PathBuf>,
}

/// Drives `input(i)` for every i in 0..total through model and RTL, one cycle each (the unit's
/// pipeline is full, so every cycle compares the result of an earlier index).
pub fn sweep<B: Binding>(
    name: &str,
    total: u64,
    jobs: usize,
    artifacts: &std::path::Path,
    progress: bool,
    input: impl Fn(u64) -> In<B> + Sync,
) -> anyhow::Result<SweepSummary> {
    let unit = <B::Model as Unit>::NAME;
    let start = Instant::now();
    let next = AtomicU64::new(0);
    let failing = AtomicU64::new(0);
    let kept: Mutex<Vec<(u64, In<B>)>> = Mutex::new(Vec::new());
    let bar = progress.then(|| pool::progress_bar(name, total, ""));
    let work = |_worker: usize| -> anyhow::Result<()> {
        let rtl = B::Rtl::open(&RtlOptions::default())?;
        let mut lockstep = Lockstep::new(B::Model::default(), rtl);
        let mut window: Vec<In<B>> = Vec::with_capacity(CHUNK as usize);
        loop {
            let first = next.fetch_add(CHUNK, Ordering::Relaxed);
            if first >= total {
                break;
            }
            window.clear();
            window.extend((first..(first + CHUNK).min(total)).map(&input));
            if !lockstep.run(&window) {
                // Find the inputs whose results differed (a mismatch in cycle c
                // reports the input of cycle c - LATENCY + 1).
                // A failed assertion samples the outputs of the cycle before.
                let lag = <B::Model as Unit>::LATENCY as u64 - 1;
                let mut bad: Vec<u64> = lockstep
                    .mismatches
                    .iter()
                    .map(|m| m.cycle)
                    .chain(lockstep.assertions.iter().map(|a| a.cycle.saturating_sub(1)))
                    .filter_map(|c| c.checked_sub(lag))
                    .collect();
                bad.sort_unstable();
                bad.dedup();
                failing.fetch_add(bad.len() as u64, Ordering::Relaxed);
                let mut kept = kept.lock().unwrap();
                for c in bad {
                    if kept.len() < KEEP {
                        if let Some(v) = window.get(c as usize) {
                            kept.push((first + c, *v));
                        }
                    }
                }
            }
            if let Some(bar) = &bar {
                bar.inc(window.len() as u64);
            }
        }
        lockstep.rtl.finish();
        Ok(())
    };
    pool::on_threads(jobs, bar.as_ref(), work, || {})?;
    let mut kept = kept.into_inner().unwrap();
    kept.sort_by_key(|(i, _)| *i);
    let saved = if kept.is_empty() {
        None
    } else {
        let dir = artifacts.join(unit);
        std::fs::create_dir_all(&dir).map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
        let file = dir.join(format!("sweep-{name}.jsonl"));
        let inputs: Vec<Step<In<B>>> = kept.iter().map(|(_, v)| Step::from(*v)).collect();
        std::fs::write(&file, vectors::to_text(&inputs))
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", file.display()))?;
        Some(file)
    };
    Ok(SweepSummary {
        name: name.to_string(),
        unit,
        vectors: total,
        failing: failing.load(Ordering::Relaxed),
        elapsed: start.elapsed(),
        saved,
    })
}
