//! Work on a run's threads: a random run's workers ([`on_threads`]), the program suites' chunks
//! in chunk order ([`chunks`]), independent jobs such as one Yosys run a unit ([`each`]), and the
//! progress bar a run shows.
//!
//! Chunk `c` of a suite seeded `s` draws its programs from generators of its own (from `s` and
//! `c` alone), and the chunks run on as many threads as the run has jobs; what a suite reports
//! depends on its seed only, never on the number of threads (tests/exec_program.rs checks it).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// `work` on every item of `items`, on up to `jobs` threads that claim items in order; `done`
/// sees each result as it comes (a progress line). The results in item order.
pub fn each<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    work: impl Fn(&T) -> R + Sync,
    done: impl Fn(&R) + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let result = work(item);
                done(&result);
                *slots[i].lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(result);
            });
        }
    });
    // Every slot is filled: the threads claim every index before they stop, and a panic in
    // `work` ends the scope with that panic.
    slots.into_iter().filter_map(|slot| slot.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner)).collect()
}

/// Runs chunks `0..chunks` on up to `jobs` threads, each thread with its own state from
/// `open` (a backend: its simulations are not shared). `work` runs one chunk and says whether it
/// failed. Threads claim chunks in order; once chunk `f` has failed no chunk above `f` is
/// started, and the results are those of chunks `0..=f` (`f` the lowest failing chunk) or of
/// all chunks, in chunk order: the same for every `jobs`. The first error (in chunk order) of
/// `open` or `work` is returned instead.
pub fn chunks<S, T: Send>(
    chunks: u64,
    jobs: usize,
    open: impl Fn() -> anyhow::Result<S> + Sync,
    work: impl Fn(&mut S, u64) -> anyhow::Result<(T, bool)> + Sync,
) -> anyhow::Result<Vec<T>> {
    let next = AtomicU64::new(0);
    // The lowest chunk that failed or gave an error (u64::MAX: none yet).
    let lowest_failed = AtomicU64::new(u64::MAX);
    let done: Mutex<Vec<(u64, anyhow::Result<T>)>> = Mutex::new(Vec::new());
    let threads = jobs.clamp(1, chunks.max(1) as usize);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let record = |chunk: u64, result: anyhow::Result<T>| {
                    done.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push((chunk, result));
                };
                let mut state = None;
                loop {
                    let chunk = next.fetch_add(1, Ordering::Relaxed);
                    if chunk >= chunks || chunk > lowest_failed.load(Ordering::Relaxed) {
                        break;
                    }
                    if state.is_none() {
                        match open() {
                            Ok(s) => state = Some(s),
                            Err(e) => {
                                lowest_failed.fetch_min(chunk, Ordering::Relaxed);
                                record(chunk, Err(e));
                                break;
                            }
                        }
                    }
                    let Some(s) = state.as_mut() else { break };
                    let result = work(s, chunk);
                    if result.as_ref().map_or(true, |(_, failed)| *failed) {
                        lowest_failed.fetch_min(chunk, Ordering::Relaxed);
                    }
                    record(chunk, result.map(|(t, _)| t));
                }
            });
        }
    });
    let last = lowest_failed.into_inner();
    let mut done = done.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    done.retain(|(chunk, _)| *chunk <= last);
    done.sort_by_key(|(chunk, _)| *chunk);
    done.into_iter().map(|(_, result)| result).collect()
}

/// A progress bar of `len` (`{pos}/{len}` then `what`, e.g. " vectors") named `prefix`.
pub(crate) fn progress_bar(prefix: &str, len: u64, what: &str) -> indicatif::ProgressBar {
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
pub(crate) fn on_threads(
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

#[cfg(test)]
mod tests {
    use super::chunks;

    /// Chunk 5 and chunk 9 fail: whatever the threads, the results stop at chunk 5.
    #[test]
    fn results_stop_at_the_lowest_failing_chunk_for_every_job_count() {
        for jobs in [1, 2, 3, 8] {
            let results = chunks(20, jobs, || Ok(()), |_, c| Ok((c, c == 5 || c == 9))).unwrap();
            assert_eq!(results, vec![0, 1, 2, 3, 4, 5], "jobs {jobs}");
        }
        let all = chunks(7, 3, || Ok(()), |_, c| Ok((c * 10, false))).unwrap();
        assert_eq!(all, vec![0, 10, 20, 30, 40, 50, 60]);
    }

    #[test]
    fn an_error_is_returned_in_chunk_order() {
        let e = chunks(10, 4, || Ok(()), |_, c| if c == 3 { anyhow::bail!("chunk {c}") } else { Ok(((), false)) });
        assert_eq!(e.unwrap_err().to_string(), "chunk 3");
        let e = chunks(10, 2, || -> anyhow::Result<()> { anyhow::bail!("cannot open") }, |_, _| Ok(((), false)));
        assert_eq!(e.unwrap_err().to_string(), "cannot open");
    }
}
