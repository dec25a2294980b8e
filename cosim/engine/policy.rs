//! The harness's defaults, stated once for every front end (`gcn-vmem`, `make`, tests): the
//! budgets of a run and when unhit functional-coverage bins fail it.

use super::run::Shard;
use super::stimulus::Rng;
use super::Variant;

/// Valid input vectors per unit of `gcn-vmem cosim` (and `make cosim`): every declared
/// functional-coverage bin must be hit within it.
pub const DEFAULT_VECTORS: u64 = 8_000_000;

/// Failing cases a unit may collect before its run stops (each is shrunk and saved).
pub const DEFAULT_MAX_FAILURES: usize = 5;

/// Random programs of whole instructions a `gcn-vmem cosim` of every unit runs after the units.
pub(crate) const DEFAULT_PROGRAMS: u64 = 20_000;

/// Instructions per random program.
pub const PROGRAM_LENGTH: usize = 8;

/// Random pipeline programs (vmem_pipe) at the default vector budget, and their length in
/// buffer instructions: about 20 s on the project's 2-core machine (docs/perf.md).
pub(crate) const DEFAULT_PIPE_PROGRAMS: u64 = 800;
pub const PIPE_PROGRAM_LENGTH: usize = 8;

/// Pipeline programs for a run of `vectors` per unit: in proportion to the default budget, at
/// least 10.
pub fn pipe_programs(vectors: u64) -> u64 {
    (u128::from(DEFAULT_PIPE_PROGRAMS) * u128::from(vectors) / u128::from(DEFAULT_VECTORS)).max(10) as u64
}

/// The fewest vectors an X run (`--x-seeds`) drives.
pub(crate) const MIN_X_VECTORS: u64 = 1_000;

/// Programs to run when `--programs` is not given: the default suite when every unit runs,
/// none when the run names units.
pub fn default_programs(all_units: bool) -> u64 {
    if all_units {
        DEFAULT_PROGRAMS
    } else {
        0
    }
}

/// Vectors of each of `x_seeds` X runs after a random run of `vectors`.
pub fn x_run_vectors(vectors: u64, x_seeds: u64) -> u64 {
    (vectors / x_seeds.max(1)).max(MIN_X_VECTORS)
}

/// The X seed of the k-th X run of a run with stimulus seed `seed` (31 bits, as Verilator's
/// randSeed takes them).
pub fn x_seed_of(seed: u64, k: u64) -> u64 {
    Rng::mix(seed.wrapping_add(k.wrapping_mul(0x9e37_79b9_7f4a_7c15))) & 0x7fff_ffff
}

/// Whether a functional-coverage hole fails the run: always with `--require-bins`; otherwise
/// at the default budget or above, unsharded, on the RTL as written (the stimulus promises to
/// reach every bin there).
pub fn bins_required(require_bins: bool, vectors: u64, shard: Option<Shard>, variant: Variant) -> bool {
    require_bins || (vectors >= DEFAULT_VECTORS && shard.is_none() && variant == Variant::AsWritten)
}
