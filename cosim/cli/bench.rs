//! `gcn-vmem bench`: side-by-side throughput per unit (model, RTL through cxx, plain C++ loop,
//! lockstep harness, `cosim` on one thread), then the executor's row.

use std::time::{Duration, Instant};

use gcn_vmem::actions;
use gcn_vmem::engine::policy;

use crate::common::resolve_units;

#[derive(clap::Args)]
pub struct Args {
    #[arg(long)]
    unit: Vec<String>,
    #[arg(long, default_value_t = 2_000_000)]
    vectors: u64,
}

pub fn run(args: Args) -> anyhow::Result<bool> {
    let Args { unit, vectors } = args;
    let units = resolve_units(&unit)?;
    let cpu = match gcn_vmem::engine::rtl::pin_to_current_cpu() {
        Some(cpu) => format!("pinned to CPU {cpu}"),
        None => "not pinned to a CPU (sched_setaffinity failed): expect noisier ratios".to_string(),
    };
    println!("gcn-vmem bench: {vectors} vectors per unit, one thread, {cpu}, release build expected (make bench)");
    println!(
        "{:<14} {:>12} {:>12} {:>12} {:>12} {:>12} {:>8} {:>8} {:>8} {:>8}",
        "unit",
        "model v/s",
        "rtl(cxx) v/s",
        "C++ loop v/s",
        "lockstep v/s",
        "cosim v/s",
        "ratio",
        "cosim/ls",
        "cosim/C++",
        "model/rtl"
    );
    let mut breakdowns = Vec::new();
    for name in units {
        breakdowns.push(actions::bench_row(name, vectors)?);
    }
    println!("ratio = lockstep harness / plain C++ loop (target >= 0.8); cosim = `gcn-vmem cosim` on one thread: random cases drawn, run in lockstep from reset, checked, coverage counted, shrinking ready, as many vectors as the other columns and at least 0.5 s (counts valid vectors only); C++ loop and cosim are measured in 5 alternating rounds, each column the median of its rounds; cosim/ls = cosim / lockstep; cosim/C++ = the median of the rounds' cosim / plain C++ loop, how much of the simulator's speed a user gets from `gcn-vmem cosim` (target >= 0.5); model/rtl = model v/s / rtl(cxx) v/s (target >= 10); a closed-loop unit (vmem_pipe) counts cycles, not vectors, and drives 1/{} of them", gcn_vmem::actions::CLOSED_LOOP_SHARE);
    print_breakdowns(&breakdowns);
    if unit.is_empty() {
        bench_exec(vectors)?;
    }
    Ok(true)
}

/// The second table: where a cosim vector's time goes, beside the C++ loop's vector.
fn print_breakdowns(rows: &[actions::Breakdown]) {
    println!();
    println!(
        "{:<14} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "ns a vector", "C++ loop", "generate", "model", "rtl", "rest", "cosim", "rtl/C++"
    );
    for r in rows {
        let rest = r.total - r.generate - r.model - r.rtl;
        let model = if r.interleaved { "in rtl".to_string() } else { format!("{:.1}", r.model) };
        println!(
            "{:<14} {:>9.1} {:>9.1} {:>9} {:>9.1} {:>9.1} {:>9.1} {:>9.2}",
            r.unit,
            r.cpp,
            r.generate,
            model,
            r.rtl,
            rest,
            r.total,
            r.rtl / r.cpp
        );
    }
    println!("where a cosim vector's time goes, in nanoseconds a counted vector (medians of the rounds): generate = drawing the cases; model = the model through them with coverage sampled; rtl = the RTL through them and every comparison, with the evaluations the C++ loop does not make (each case's opening reset, idle cycles, reset activity, the drain); rest = the run's own bookkeeping (chunks, counting, start-up); rtl/C++ = what a cosim vector's RTL costs against the plain loop's vector. cosim/C++ >= 0.5 needs generate + model + rest <= 2 x C++ loop - rtl");
}

/// The executor's row of `bench`: wave-instructions per second on the models and with model
/// and RTL in lockstep (`--both`), and the share of the lockstep run spent in the units' own
/// lockstep steps (the rest is the executor's glue: gathering, memory, writing back).
fn bench_exec(vectors: u64) -> anyhow::Result<()> {
    use gcn_vmem::exec::backends::LockstepBackend;
    use gcn_vmem::exec::suite::draw_cases;
    // About one wave-instruction per 64 lane-vectors of the unit rows.
    let programs = ((vectors / 64 / 4) as usize).max(100);
    let cases = draw_cases(programs, policy::PROGRAM_LENGTH, 1);
    // Only the instructions are timed, not copying each program's initial wave.
    let run_all =
        |backend: &mut dyn FnMut(&mut gcn_vmem_model::exec::Wave, &gcn_vmem_model::isa::Instruction) -> bool| {
            let mut executed = 0u64;
            let mut elapsed = Duration::ZERO;
            for case in &cases {
                let mut wave = case.wave.clone();
                for inst in &case.program {
                    let t = Instant::now();
                    let ok = backend(&mut wave, inst);
                    elapsed += t.elapsed();
                    if !ok {
                        break;
                    }
                    executed += 1;
                }
            }
            (executed, elapsed)
        };
    let mut models = gcn_vmem_model::exec::Models::default();
    let (model_count, model_time) = run_all(&mut |w, i| gcn_vmem_model::exec::run(w, i, &mut models).is_ok());
    let model_rate = model_count as f64 / model_time.as_secs_f64();
    let mut both = LockstepBackend::open()?;
    let (both_count, elapsed) = run_all(&mut |w, i| gcn_vmem_model::exec::run(w, i, &mut both).is_ok());
    anyhow::ensure!(
        gcn_vmem::exec::backends::CheckedBackend::take_failures(&mut both).is_empty(),
        "exec: the bench programs mismatched; run make cosim first"
    );
    println!(
        "{:<14} {:>12.0} {:>12} {:>12} {:>12.0} {:>12} {:>8.2}",
        "exec",
        model_rate,
        "",
        "",
        both_count as f64 / elapsed.as_secs_f64(),
        "",
        both.log.unit_time.as_secs_f64() / elapsed.as_secs_f64()
    );
    println!(
        "exec: wave-instructions/s ({} programs, {both_count} instructions) on the models and with --both (in the lockstep column); ratio = the units' lockstep steps ({} cycles) / the whole --both run (target >= 0.7)",
        cases.len(),
        both.log.unit_cycles
    );
    Ok(())
}
