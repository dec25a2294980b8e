//! What a failing case leaves behind: saved as found (`<artifacts>/<unit>/<hash>.unshrunk.jsonl`),
//! shrunk field by field by the generic shrinker ([`crate::engine::shrink`]), saved as
//! `<id>.jsonl` with `id` a hash of the minimal case (so the same bug found again is one file,
//! counted), then re-run with tracing into `<id>.fst` (or `.vcd`) plus the Rust-written
//! `<id>.diff.vcd` and its GTKWave save file `<id>.diff.gtkw` ([`crate::engine::replay`]).

use std::path::{Path, PathBuf};

use crate::engine::case::{concatenate, Case};
use crate::engine::lockstep::{Lockstep, Step};
use crate::engine::replay::replay;
use crate::engine::stimulus::hash;
use crate::engine::vectors;
use crate::engine::RtlOptions;
use crate::engine::RtlUnit;
use crate::engine::Wave;
use crate::engine::{Binding, UnitTypes};
use gcn_vmem_model::unit::Unit;

type In<B> = <<B as UnitTypes>::Model as Unit>::In;

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

/// Adds a shrunk failure to the run's list, or counts it against an earlier one with the same
/// minimal case (the same bug found again).
pub(crate) fn record_failure(failures: &mut Vec<Failure>, failure: Failure) {
    match failures.iter_mut().find(|f| f.vector_file == failure.vector_file) {
        Some(known) => {
            known.count += 1;
            known.unshrunk_files.extend(failure.unshrunk_files);
        }
        None => failures.push(failure),
    }
}

/// How a run saves its failing cases: under `artifacts` (`<artifacts>/<unit>/`), each shrunk
/// (unless `shrink` is false) and replayed on the build `rtl` names (its variant, gate-level build
/// and X seed; no waveform), whose re-run writes a waveform of format `wave`.
pub(crate) struct Saving<'a> {
    pub(crate) artifacts: &'a Path,
    pub(crate) rtl: RtlOptions,
    pub(crate) wave: Wave,
    pub(crate) shrink: bool,
}

/// Saves a failing case and shrinks it, each candidate on a fresh RTL instance of the run's
/// build and X seed, so that the saved vector fails from reset alone, as its replay does. A case
/// that fails only after the earlier cases of its chunk (`history`: a register the reset does not
/// clear kept their values) is saved as the whole sequence, unshrunk, which does fail from reset.
/// Then re-runs the result with its waveforms.
pub(crate) fn shrink_and_save<B: Binding>(
    history: &[Case<B>],
    original: Case<B>,
    config: &Saving,
) -> anyhow::Result<Failure> {
    // Save the unshrunk case first: whatever happens next, it is not lost.
    let (dir, _, unshrunk_file) = save_unshrunk::<B>(&original, config.artifacts)?;
    let options = config.rtl.clone();
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
    let options = config.rtl.clone();
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
pub(crate) fn save_unshrunk<B: Binding>(
    case: &[Step<In<B>>],
    artifacts: &Path,
) -> anyhow::Result<(PathBuf, String, PathBuf)> {
    let dir = artifacts.join(<B::Model as Unit>::NAME);
    std::fs::create_dir_all(&dir).map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    let text = vectors::to_text(case);
    let id = format!("{:016x}", hash(text.as_bytes()));
    let file = dir.join(format!("{id}.unshrunk.jsonl"));
    std::fs::write(&file, &text).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", file.display()))?;
    Ok((dir, id, file))
}
