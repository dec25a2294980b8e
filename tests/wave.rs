//! The Rust-written diff waveform (cosim/wave.rs) and its GTKWave save file: a long run's VCD
//! parses back with every signal and the time base of the RTL waveform, the save file names
//! exactly the VCD's signals, grouped per output, and what writing a diff VCD costs.

use std::path::{Path, PathBuf};
use std::time::Instant;

use gcn_vmem::buffer_addr::{BufferAddr, In, Out};
use gcn_vmem::cosim::buffer_addr::Harness;
use gcn_vmem::cosim::lockstep::{Lockstep, Step};
use gcn_vmem::cosim::stimulus::Rng;
use gcn_vmem::cosim::{run, wave, RtlOptions, RtlUnit, Variant};
use gcn_vmem::unit::{Ports, Unit};

/// A fresh folder under cargo's per-test scratch space.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `cycles` random cycles (with the generator's resets and idle cycles) on the mutant build, so
/// that the record holds mismatches, recorded as `replay` records them.
fn mutant_run(cycles: usize, seed: u64) -> Lockstep<BufferAddr, <Harness as gcn_vmem::cosim::Binding>::Rtl> {
    let mut rng = Rng::new(seed);
    let mut steps: Vec<Step<In>> = Vec::with_capacity(cycles);
    while steps.len() < cycles {
        steps.extend(run::generate_cycles::<Harness>(&mut rng));
    }
    steps.truncate(cycles - BufferAddr::LATENCY);
    let options = RtlOptions { variant: Variant::Mutant, ..RtlOptions::default() };
    let rtl = <Harness as gcn_vmem::cosim::Binding>::Rtl::open(&options).unwrap();
    let mut lockstep = Lockstep::new(BufferAddr::default(), rtl).recording();
    assert!(!lockstep.run_steps(&steps), "the mutant agreed with the model on {cycles} random cycles");
    lockstep
}

/// The full names of every variable of a waveform, as `scope.sub.name`.
fn var_names(wave: &wellen::simple::Waveform) -> Vec<String> {
    let h = wave.hierarchy();
    h.all_vars().map(|v| h[v].full_name(h)).collect()
}

#[test]
fn a_long_diff_vcd_parses_back_and_its_cost_is_measured() {
    const CYCLES: usize = 10_000;
    let dir = scratch("wave_long");
    let lockstep = mutant_run(CYCLES, 7);
    let record = lockstep.record.as_ref().unwrap();
    assert_eq!(record.len(), CYCLES);
    let path = dir.join("long.diff.vcd");
    // The median of a few writes: one write is a few milliseconds, noisy on a shared machine.
    let mut times: Vec<f64> = (0..5)
        .map(|_| {
            let start = Instant::now();
            wave::write_diff_vcd(&path, "buffer_addr", &lockstep.opening, record).unwrap();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let bytes = std::fs::metadata(&path).unwrap().len();
    eprintln!("diff VCD of {CYCLES} cycles: {:.2} ms (median of 5), {bytes} bytes", times[2]);

    let mut vcd = wellen::simple::read(&path).unwrap();
    let names = var_names(&vcd);
    let expected_vars = 3 + In::SIGNALS.len() + 3 * Out::SIGNALS.len() + 1;
    assert_eq!(names.len(), expected_vars, "{names:?}");
    for s in Out::SIGNALS {
        for scope in ["expected", "actual", "mismatch"] {
            let name = format!("buffer_addr.{scope}.{}", s.name);
            assert!(names.contains(&name), "{name} missing from {names:?}");
        }
    }
    // The time base: 4 steps of opening reset, 2 per cycle, 1 per change of rst_ni inside the
    // run, and the closing time stamp.
    let resets: usize = record.iter().map(|c| c.at_reset.iter().flatten().count()).sum();
    let last = *vcd.time_table().last().unwrap();
    assert_eq!(last as usize, 4 + 2 * CYCLES + resets, "time base changed");

    // The marker is set exactly at the cycles where the record's two sides differ.
    let h = vcd.hierarchy();
    let any = h.all_vars().find(|v| h[*v].full_name(h) == "buffer_addr.any_mismatch").unwrap();
    let any = h[any].signal_ref();
    vcd.load_signals(&[any]);
    let set = vcd.get_signal(any).unwrap().iter_changes().filter(|(_, v)| v.to_bit_string().as_deref() == Some("1")).count();
    assert!(set > 0, "no mismatch marked in {CYCLES} cycles of the mutant");
}
