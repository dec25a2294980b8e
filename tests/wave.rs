//! The Rust-written diff waveform (cosim/engine/wave.rs) and its GTKWave save file: a long run's VCD
//! parses back with every signal and the time base of the RTL waveform, the save file names
//! exactly the VCD's signals, grouped per output, and what writing a diff VCD costs.

use crate::common;

use std::time::Instant;

use gcn_vmem::bindings::buffer_addr::Harness;
use gcn_vmem::engine::lockstep::{Lockstep, Step};
use gcn_vmem::engine::stimulus::Rng;
use gcn_vmem::engine::wave;
use gcn_vmem::engine::RtlOptions;
use gcn_vmem::engine::RtlUnit;
use gcn_vmem::engine::Variant;
use gcn_vmem::engine::{case, replay};
use gcn_vmem_model::buffer_addr::{BufferAddr, In, Out};
use gcn_vmem_model::unit::{Ports, Unit};

/// `cycles` random cycles (with the generator's resets and idle cycles) on the mutant build, so
/// that the record holds mismatches, recorded as `replay` records them.
fn mutant_run(cycles: usize, seed: u64) -> Lockstep<BufferAddr, <Harness as gcn_vmem::engine::UnitTypes>::Rtl> {
    let mut rng = Rng::new(seed);
    let mut steps: Vec<Step<In>> = Vec::with_capacity(cycles);
    while steps.len() < cycles {
        steps.extend(case::generate_cycles::<Harness>(&mut rng));
    }
    steps.truncate(cycles - BufferAddr::LATENCY);
    let options = RtlOptions { variant: Variant::Mutant, ..RtlOptions::default() };
    let rtl = <Harness as gcn_vmem::engine::UnitTypes>::Rtl::open(&options).unwrap();
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
    let dir = common::scratch("wave_long");
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
    let set =
        vcd.get_signal(any).unwrap().iter_changes().filter(|(_, v)| v.to_bit_string().as_deref() == Some("1")).count();
    assert!(set > 0, "no mismatch marked in {CYCLES} cycles of the mutant");
}

/// The trace lines of a save file (neither a `[tag]`, a `@flags` line nor a `-comment`) with the
/// group each sits in and the flags line before it.
fn gtkw_traces(text: &str) -> Vec<(Option<String>, String, String)> {
    let mut traces = Vec::new();
    let mut group = None;
    let mut flags = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if let Some(f) = line.strip_prefix('@') {
            flags = f.to_string();
            if f == "800200" {
                group = lines.next().and_then(|l| l.strip_prefix('-')).map(str::to_string);
            } else if f == "1000200" {
                let closed = lines.next().and_then(|l| l.strip_prefix('-')).map(str::to_string);
                assert_eq!(closed, group, "group closed under another name");
                group = None;
            }
        } else if !line.starts_with('[') && !line.starts_with('-') && !line.is_empty() {
            traces.push((group.clone(), line.to_string(), flags.clone()));
        }
    }
    assert_eq!(group, None, "a group is left open");
    traces
}

#[test]
fn the_gtkw_save_file_names_every_signal_of_the_diff_vcd_grouped_per_output() {
    let dir = common::scratch("wave_gtkw");
    let lockstep = mutant_run(200, 3);
    let vcd_path = dir.join("run.diff.vcd");
    wave::write_diff_vcd(&vcd_path, "buffer_addr", &lockstep.opening, lockstep.record.as_ref().unwrap()).unwrap();
    let gtkw = wave::write_gtkw::<In, Out>(&vcd_path, "buffer_addr").unwrap();
    assert_eq!(gtkw, dir.join("run.diff.gtkw"));
    let text = std::fs::read_to_string(&gtkw).unwrap();

    // It loads the diff waveform by its absolute path.
    let dumpfile = text.lines().find_map(|l| l.strip_prefix("[dumpfile] ")).expect("no [dumpfile] line");
    let absolute = std::fs::canonicalize(&vcd_path).unwrap();
    assert_eq!(dumpfile, format!("\"{}\"", absolute.display()));

    // Every variable of the VCD is a trace, named as GTKWave names it (a vector with its range),
    // and nothing else is.
    let vcd = wellen::simple::read(&vcd_path).unwrap();
    let h = vcd.hierarchy();
    let mut in_vcd: Vec<String> = h
        .all_vars()
        .map(|v| {
            let var = &h[v];
            let width = var.length(h).unwrap_or(1);
            let range = if width > 1 { format!("[{}:0]", width - 1) } else { String::new() };
            format!("{}{range}", var.full_name(h))
        })
        .collect();
    let traces = gtkw_traces(&text);
    let mut in_gtkw: Vec<String> = traces.iter().map(|(_, t, _)| t.clone()).collect();
    in_vcd.sort();
    in_gtkw.sort();
    assert_eq!(in_gtkw, in_vcd);

    // Vectors in hex, single bits in binary (the cycle counter in decimal).
    for (_, trace, flags) in &traces {
        let want = if trace.ends_with("cycle[31:0]") {
            "24"
        } else if trace.ends_with(']') {
            "22"
        } else {
            "28"
        };
        assert_eq!(flags, want, "{trace}");
    }
    // The inputs in a group of their own; each output's expected, actual and mismatch together,
    // in that order, in a group named after it.
    let group = |name: &str| -> Vec<&str> {
        traces.iter().filter(|(g, _, _)| g.as_deref() == Some(name)).map(|(_, t, _)| t.as_str()).collect()
    };
    assert_eq!(group("in").len(), In::SIGNALS.len());
    assert!(group("in").iter().all(|t| t.starts_with("buffer_addr.in.")));
    for s in Out::SIGNALS {
        let range = if s.width > 1 { format!("[{}:0]", s.width - 1) } else { String::new() };
        assert_eq!(
            group(s.name),
            [
                format!("buffer_addr.expected.{}{range}", s.name),
                format!("buffer_addr.actual.{}{range}", s.name),
                format!("buffer_addr.mismatch.{}", s.name),
            ],
            "group {}",
            s.name
        );
    }
}

/// `replay` with a waveform writes the save file beside the diff waveform.
#[test]
fn replay_writes_the_save_file_beside_the_diff_waveform() {
    let dir = common::scratch("wave_replay_gtkw");
    let mut rng = Rng::new(1);
    let steps = case::generate_cycles::<Harness>(&mut rng);
    let wave_path = dir.join("case.vcd");
    let r = replay::replay::<Harness>(&steps, &RtlOptions::default(), None, Some(&wave_path)).unwrap();
    assert!(r.wave_error.is_none(), "{:?}", r.wave_error);
    let diff = r.diff_wave.expect("no diff waveform");
    assert_eq!(wave::gtkw_path(&diff), dir.join("case.diff.gtkw"));
    let text = std::fs::read_to_string(wave::gtkw_path(&diff)).unwrap();
    assert!(text.contains("case.diff.vcd\""), "{text}");
}
