//! `gcn-vmem eval` (SPEC §13): one JSON object per stdin line in, one per stdout line out, from
//! the model, the RTL or both.

use std::io::{BufRead, Write};

use anyhow::Context as _;
use serde_json::{json, Value};

use gcn_vmem::bindings::{unknown_unit, with_unit, Visit};
use gcn_vmem::engine::{Binding, RtlOptions, RtlUnit};
use gcn_vmem_model::unit::{Ports, Unit};

#[derive(clap::Args)]
pub struct Args {
    unit: String,
    /// Compute with the Verilated RTL instead of the model.
    #[arg(long, conflicts_with = "both")]
    rtl: bool,
    /// Compute with both; a difference is an error line.
    #[arg(long)]
    both: bool,
}

pub fn run(args: Args) -> anyhow::Result<bool> {
    let mode = if args.both {
        Mode::Both
    } else if args.rtl {
        Mode::Rtl
    } else {
        Mode::Model
    };
    with_unit(&args.unit, EvalRun(mode)).ok_or_else(|| unknown_unit(&args.unit))?
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Model,
    Rtl,
    Both,
}

struct EvalRun(Mode);

/// The first cycle where two output sequences differ, with both sides rendered ("none" past
/// the end of the shorter one).
fn first_difference<O: Ports>(expected: &[O], actual: &[O]) -> (usize, String, String) {
    let render = |o: Option<&O>| o.map_or_else(|| "none".to_string(), Ports::render);
    let cycle = (0..expected.len().max(actual.len())).find(|&i| expected.get(i) != actual.get(i)).unwrap_or(0);
    (cycle, render(expected.get(cycle)), render(actual.get(cycle)))
}

impl Visit for EvalRun {
    type Output = anyhow::Result<bool>;
    fn visit<B: Binding>(self) -> Self::Output {
        let mode = self.0;
        let mut model = B::Model::default();
        model.reset();
        let mut rtl = match mode {
            Mode::Model => None,
            _ => {
                let mut r = B::Rtl::open(&RtlOptions::default())?;
                r.reset();
                Some(r)
            }
        };
        let stdin = std::io::stdin();
        let mut stdout = std::io::stdout().lock();
        let mut ok = true;
        for (n, line) in stdin.lock().lines().enumerate() {
            let line = line.context("reading stdin")?;
            if line.trim().is_empty() {
                continue;
            }
            let reply = match B::parse_eval(&line) {
                Err(e) => {
                    ok = false;
                    json!({ "error": format!("line {}: {e}", n + 1) })
                }
                Ok(input) => {
                    let expected = (mode != Mode::Rtl).then(|| B::eval_cycles(&mut model, &input));
                    let actual = rtl.as_mut().map(|r| B::eval_cycles(r, &input));
                    let failed = rtl.as_mut().map(|r| r.take_assertions()).unwrap_or_default();
                    match (expected, actual) {
                        _ if !failed.is_empty() => {
                            ok = false;
                            json!({ "error": format!(
                                "line {}: RTL assertion(s) failed: {} (rtl/{}.sv)",
                                n + 1,
                                failed.join(", "),
                                <B::Model as Unit>::NAME
                            ) })
                        }
                        (Some(e), Some(a)) if e != a => {
                            ok = false;
                            let (cycle, e, a) = first_difference(&e, &a);
                            json!({ "error": format!(
                                "line {}: model and RTL differ (output cycle {cycle}): model {{{e}}} rtl {{{a}}}",
                                n + 1,
                            ) })
                        }
                        (Some(outs), _) | (None, Some(outs)) => Value::Object(B::eval_result(&input, &outs)),
                        (None, None) => unreachable!("eval runs at least one side"),
                    }
                }
            };
            writeln!(stdout, "{reply}")?;
            stdout.flush()?;
        }
        if let Some(r) = rtl.as_mut() {
            r.finish();
        }
        Ok(ok)
    }
}
