//! `gcn-vmem exec` files (SPEC §13.1): a wave's initial state and a program as one JSON
//! document in, the state the program changed as one JSON object out, run on the models, on the
//! RTL or on both in lockstep, or on the VMEM pipeline (§14.1).
//!
//! The document's parse, the output object and the decoding of its entries are the model
//! crate's (`gcn_vmem_model::exec::document`, its `json` feature), re-exported here.

use serde_json::{json, Value};

use gcn_vmem_model::exec::LANES;

pub use gcn_vmem_model::exec::document::{decode, output, parse, Program, Source};

/// Who computes the per-lane work of `gcn-vmem exec` (SPEC §13.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Model,
    Rtl,
    Both,
}

/// Runs an exec document on the chosen backend. `Ok`: the output object; `Err`: the error
/// object, naming the failing instruction's index and text and the rule (or, with `--both`, the
/// lane, unit and signal where model and RTL parted, and the saved vector file). Nothing of a
/// failing instruction is applied; the instructions before it were.
pub fn execute(text: &str, mode: Mode) -> Result<Value, Value> {
    use crate::exec::backends::{LockstepBackend, RtlBackend};
    let error = |m: String| json!({ "error": m });
    let program = parse(text).map_err(error)?;
    let open = |e: anyhow::Error| error(format!("cannot open the RTL: {e:#}"));
    match mode {
        Mode::Model => run_all(&program, &mut gcn_vmem_model::exec::Models::default()),
        Mode::Rtl => run_all(&program, &mut RtlBackend::open().map_err(open)?),
        Mode::Both => run_all(&program, &mut LockstepBackend::open().map_err(open)?),
    }
    .map_err(error)
}

fn run_all(program: &Program, backend: &mut impl crate::exec::backends::CheckedBackend) -> Result<Value, String> {
    gcn_vmem_model::exec::document::run(program, backend, |backend, exec_before| {
        match backend.take_failures().into_iter().next() {
            None => Ok(()),
            Some(f) => {
                // The batch held the active lanes in ascending order.
                let lane = (0..LANES).filter(|l| exec_before >> l & 1 != 0).nth(f.lane_index).unwrap_or(0);
                Err(format!(
                    "model and RTL differ at lane {lane}, unit {}, signal {}: {} (vector file {})",
                    f.unit,
                    f.signal,
                    f.line,
                    f.vector_file.display()
                ))
            }
        }
    })
}

/// The testbench options of `gcn-vmem exec --pipeline` (SPEC §14.1).
pub use crate::bindings::vmem_pipe::testbench::Config as PipelineConfig;

/// An exec document's run on the VMEM pipeline ([`run_pipeline`]): its output object and what it
/// came from, for the timeline ([`crate::report::timeline`]).
#[derive(Clone, Debug)]
pub struct PipelineRun {
    /// The output object (`"timing"` included).
    pub value: Value,
    /// Per VMEM instruction, in program order, its counters (and, with the model, its stages).
    pub timings: Vec<crate::bindings::vmem_pipe::testbench::Timing>,
    /// Every instruction's text, by program index.
    pub texts: Vec<String>,
}

/// Runs an exec document on the VMEM pipeline (SPEC §14.1): the executor's output object plus
/// `"timing"`, one object per VMEM instruction (in [`PipelineRun::value`], with the run's timings
/// and the instructions' texts). The executor runs the program first (its errors
/// are this command's errors, SPEC §13.1), and the pipeline's final state must equal the
/// executor's (a difference is an error naming the VGPR lane or memory byte). `build` picks the
/// pipeline's RTL build for `Mode::Rtl` and `Mode::Both`: its variant (the test-only builds replay
/// the failures `gcn-vmem cosim --unit vmem_pipe --mutant` or `--break-asserts` saved) or its
/// gate-level netlist (`--gls`, in the binary `make gls` builds); its wave and X seed are not used.
pub fn run_pipeline(
    text: &str,
    mode: Mode,
    config: PipelineConfig,
    build: &crate::engine::RtlOptions,
) -> Result<PipelineRun, Value> {
    use crate::bindings::vmem_pipe::programs::reference;
    use crate::bindings::vmem_pipe::testbench::{first_difference, run, run_both};
    let error = |m: String| json!({ "error": m });
    let program = parse(text).map_err(error)?;
    let mut decoded = Vec::new();
    for (n, source) in program.instructions.iter().enumerate() {
        let inst = decode(source).map_err(|e| error(format!("instruction {n} (`{}`): {e}", source.text())))?;
        decoded.push((inst, source.text()));
    }
    let expected = reference(&decoded, &program.wave).map_err(error)?;
    let open = |e: anyhow::Error| error(format!("cannot open the RTL: {e:#}"));
    use crate::bindings::vmem_pipe::{model_for, variant_for};
    let model = || model_for(config.small);
    let opts = crate::engine::RtlOptions {
        variant: variant_for(config.small, build.variant),
        gls: build.gls,
        ..crate::engine::RtlOptions::default()
    };
    let result = match mode {
        Mode::Model => run(&mut model(), &decoded, &program.wave, config),
        Mode::Rtl => {
            let mut rtl = <crate::bindings::vmem_pipe::Rtl as crate::engine::RtlUnit>::open(&opts).map_err(open)?;
            let r = run(&mut rtl, &decoded, &program.wave, config);
            crate::engine::RtlUnit::finish(&mut rtl);
            r
        }
        Mode::Both => {
            let rtl = <crate::bindings::vmem_pipe::Rtl as crate::engine::RtlUnit>::open(&opts).map_err(open)?;
            let mut ls = crate::engine::lockstep::Lockstep::new(model(), rtl);
            let r = run_both(&mut ls, &decoded, &program.wave, config, |_, _, _| {});
            crate::engine::RtlUnit::finish(&mut ls.rtl);
            r
        }
    }
    .map_err(error)?;
    if let Some(d) = first_difference(&result.wave, &expected) {
        return Err(error(format!("the pipeline's result differs from the executor's: {d}")));
    }
    let mut value = output(&program.wave, &result.wave);
    let timing: Vec<Value> = result.timings.iter().map(|t| t.json(&decoded[t.index].1)).collect();
    value["timing"] = Value::Array(timing);
    value["cycles"] = json!(result.cycles);
    let texts = decoded.into_iter().map(|(_, text)| text).collect();
    Ok(PipelineRun { value, timings: result.timings, texts })
}
