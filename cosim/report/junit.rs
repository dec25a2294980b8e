//! `gcn-vmem cosim --junit PATH`: the run as a JUnit XML report, for CI systems and batch
//! schedulers that collect test results (GitLab, Jenkins, GitHub's test reporters).
//!
//! One `<testsuite>` per suite of the run — `random` (each unit's random lockstep run), `x`
//! (the runs with random initial state, one test case per unit and X seed), `bins` (each unit's
//! functional coverage) and `programs` (the executor's random programs) — and in each one
//! `<testcase>` per unit. Every failing vector is a `<failure>` whose message is its first
//! report line and whose text holds all its lines and the paths of its artifacts (the minimal
//! vector, the cases as found, both waveforms), so a CI page links straight to the replay.
//! The `hostname`-free, timestamp-free output depends on the run alone.

use std::fmt::Write as _;
use std::path::Path;

use crate::engine::artifacts::Failure;
use crate::engine::run::{Shard, Summary};
use crate::exec::suite::SuiteSummary;
use crate::report::bins::UnitBins;

/// Escapes text for an XML attribute or element; a control character XML 1.0 cannot carry, even
/// escaped, becomes `?`.
fn escape(text: &str) -> String {
    super::escape_xml(text, '?')
}

struct Case {
    name: String,
    time: f64,
    /// (message, text) of each failure.
    failures: Vec<(String, String)>,
    /// Output of a passing case worth keeping (counts).
    out: String,
}

fn failure_entry(f: &Failure) -> (String, String) {
    let message = f.lines.first().cloned().unwrap_or_else(|| "mismatch".to_string());
    let mut text = f.lines.join("\n");
    let _ = write!(text, "\nvector: {}", f.vector_file.display());
    if f.count > 1 {
        let _ = write!(text, " ({} failing cases shrank to it)", f.count);
    }
    for u in &f.unshrunk_files {
        let _ = write!(text, "\nas found: {}", u.display());
    }
    if let Some(w) = &f.rtl_wave {
        let _ = write!(text, "\nRTL waveform: {}", w.display());
    }
    if let Some(w) = &f.diff_wave {
        let _ = write!(text, "\ndiff waveform: {}", w.display());
        let _ = write!(text, "\nGTKWave save file: {}", crate::engine::wave::gtkw_path(w).display());
    }
    if let Some(e) = &f.wave_error {
        let _ = write!(text, "\nwaveform not written: {e}");
    }
    (message, text)
}

fn random_case(s: &Summary) -> Case {
    let mut failures: Vec<(String, String)> = s.failures.iter().map(failure_entry).collect();
    let unsaved = s.failing_cases.saturating_sub(s.failures.iter().map(|f| f.count).sum());
    if unsaved > 0 || (s.failing_cases > 0 && failures.is_empty()) {
        failures.push((
            format!("{unsaved} more failing case(s) past --max-failures"),
            "saved unshrunk as <hash>.unshrunk.jsonl in the unit's artifact folder".to_string(),
        ));
    }
    Case {
        name: match s.x_seed {
            Some(x) => format!("{} xseed={x}", s.unit),
            None => s.unit.to_string(),
        },
        time: s.elapsed.as_secs_f64(),
        failures,
        out: format!("{} vectors, {} cycles, {} chunks", s.vectors, s.cycles, s.chunks),
    }
}

fn suite(xml: &mut String, name: &str, cases: &[Case]) {
    let failures = cases.iter().filter(|c| !c.failures.is_empty()).count();
    let time: f64 = cases.iter().map(|c| c.time).sum();
    let _ = writeln!(
        xml,
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\" time=\"{time:.3}\">",
        escape(name),
        cases.len()
    );
    for c in cases {
        let _ = write!(
            xml,
            "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\"",
            escape(name),
            escape(&c.name),
            c.time
        );
        if c.failures.is_empty() && c.out.is_empty() {
            xml.push_str("/>\n");
            continue;
        }
        xml.push_str(">\n");
        for (message, text) in &c.failures {
            let _ = writeln!(
                xml,
                "      <failure message=\"{}\" type=\"mismatch\">{}</failure>",
                escape(message),
                escape(text)
            );
        }
        if !c.out.is_empty() {
            let _ = writeln!(xml, "      <system-out>{}</system-out>", escape(&c.out));
        }
        xml.push_str("    </testcase>\n");
    }
    xml.push_str("  </testsuite>\n");
}

/// The JUnit XML of a `gcn-vmem cosim` invocation.
pub fn render(
    seed: u64,
    shard: Option<Shard>,
    summaries: &[Summary],
    bins: &[UnitBins],
    programs: Option<&SuiteSummary>,
) -> String {
    let name = match shard {
        Some(s) => format!("gcn-vmem cosim seed={seed} shard={s}"),
        None => format!("gcn-vmem cosim seed={seed}"),
    };
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(xml, "<testsuites name=\"{}\">", escape(&name));
    let random: Vec<Case> = summaries.iter().filter(|s| s.x_seed.is_none()).map(random_case).collect();
    suite(&mut xml, "random", &random);
    let x: Vec<Case> = summaries.iter().filter(|s| s.x_seed.is_some()).map(random_case).collect();
    if !x.is_empty() {
        suite(&mut xml, "x", &x);
    }
    let bins: Vec<Case> = bins
        .iter()
        .map(|b| Case {
            name: b.unit.to_string(),
            time: 0.0,
            failures: if b.passed {
                Vec::new()
            } else {
                vec![(format!("{} of {} bins unhit", b.unhit.len(), b.declared), b.unhit.join("\n"))]
            },
            out: if b.unhit.is_empty() || !b.passed {
                format!("{}/{} bins hit", b.hit, b.declared)
            } else {
                format!(
                    "{}/{} bins hit; unhit (allowed below the default budget):\n{}",
                    b.hit,
                    b.declared,
                    b.unhit.join("\n")
                )
            },
        })
        .collect();
    suite(&mut xml, "bins", &bins);
    if let Some(p) = programs {
        let case = Case {
            name: "exec".to_string(),
            time: p.elapsed.as_secs_f64(),
            failures: p
                .failures
                .iter()
                .map(|f| (f.line.clone(), format!("{}\nprogram: {}", f.unit_failure, f.file.display())))
                .collect(),
            out: format!("{} programs, {} instructions", p.programs, p.instructions),
        };
        suite(&mut xml, "programs", std::slice::from_ref(&case));
    }
    xml.push_str("</testsuites>\n");
    xml
}

/// Checks before a run that the report can be written at `path` (its folder is created), so a
/// bad `--junit` fails at once rather than after hours of simulation.
pub fn check_writable(path: &Path) -> anyhow::Result<()> {
    super::check_writable(path, "--junit", "the JUnit report")
}

/// Writes [`render`]'s report to `path` (its folder is created).
pub fn write(
    path: &Path,
    seed: u64,
    shard: Option<Shard>,
    summaries: &[Summary],
    bins: &[UnitBins],
    programs: Option<&SuiteSummary>,
) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("cannot create {} for --junit: {e}", dir.display()))?;
    }
    std::fs::write(path, render(seed, shard, summaries, bins, programs))
        .map_err(|e| anyhow::anyhow!("cannot write the JUnit report {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escapes_markup_and_control_characters() {
        assert_eq!(escape("a<b & \"c\" 'd'>\u{1}\n"), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;?\n");
    }
}
