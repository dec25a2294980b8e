//! `gcn-vmem exec --pipeline --timeline` (cosim/report/timeline.rs): the picture of a real run,
//! reviewed as a snapshot; one row per VMEM instruction; every bar's cycles equal the counters the
//! run printed; the model's and the lockstep run's pictures equal; bad input refused by name.

use serde_json::Value;

use crate::common::{gcn_vmem, scratch};

/// A cold load, `s_waitcnt vmcnt(0)`, the same load warm (docs/pipeline.md's first example).
const MISS_THEN_HIT: &str = "docs/examples/pipeline-load-miss-then-hit.json";

/// Runs `exec FILE --pipeline <extra> --timeline OUT`; the printed object and the SVG.
fn timeline(file: &str, extra: &[&str], name: &str) -> (Value, String) {
    let out = scratch(&format!("timeline_{name}")).join("timeline.svg");
    let out = out.to_str().unwrap();
    let mut args = vec!["exec", file, "--pipeline"];
    args.extend(extra);
    args.extend(["--timeline", out]);
    let (code, stdout, stderr) = gcn_vmem(&args, "");
    assert_eq!(code, 0, "{args:?}: {stderr}");
    let value: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    (value, std::fs::read_to_string(out).unwrap())
}

/// The value of attribute `name` in the tag text `tag`.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    Some(&tag[start..start + tag[start..].find('"')?])
}

/// A stage bar: its stage, first and last cycle.
type Bar = (String, u64, u64);

/// Per row (in order): its program index and its stage bars.
fn rows(svg: &str) -> Vec<(usize, Vec<Bar>)> {
    let mut rows: Vec<(usize, Vec<Bar>)> = Vec::new();
    for tag in svg.split('<').filter(|t| t.starts_with("g ")) {
        match attr(tag, "class") {
            Some("row") => rows.push((attr(tag, "data-index").unwrap().parse().unwrap(), Vec::new())),
            Some("stage") => {
                let n = |a: &str| attr(tag, a).unwrap().parse::<u64>().unwrap();
                let stage = attr(tag, "data-stage").unwrap().to_string();
                rows.last_mut().expect("a stage inside a row").1.push((stage, n("data-first"), n("data-last")));
            }
            _ => {}
        }
    }
    rows
}

#[test]
fn timeline_snapshot_of_a_miss_then_a_hit() {
    let (_, svg) = timeline(MISS_THEN_HIT, &["--model"], "snapshot");
    // Reviewed: two rows; the cold load (#0) issue 1–4, TA 8–11, TCP 9–12 with misses marked in
    // cycles 9–12 (4 requests a cycle: one 64-byte line of one bank, its line read sent), L2 10–63 (54 cycles: its first line
    // read accepted to its last response at 50 cycles of latency), TD 66–73, done at 74; the
    // warm load (#2), issued after the waitcnt at 74, hits (no L2 bar, no miss), TD 88–95,
    // done at 96.
    insta::assert_snapshot!("miss_then_hit_svg", svg);
}

#[test]
fn one_row_per_vmem_instruction_with_the_printed_cycles() {
    for file in [MISS_THEN_HIT, "docs/examples/pipeline-straddle.json", "docs/examples/pipeline-store-stream.json"] {
        let (value, svg) = timeline(file, &["--model"], file.rsplit('/').next().unwrap());
        let timing = value["timing"].as_array().unwrap();
        let rows = rows(&svg);
        assert_eq!(rows.len(), timing.len(), "{file}: one row per VMEM instruction");
        assert_eq!(svg.matches(r#"<g class="row""#).count(), timing.len(), "{file}");
        for ((index, bars), t) in rows.iter().zip(timing) {
            let u = |k: &str| t[k].as_u64().unwrap();
            assert_eq!(*index as u64, u("index"), "{file}: rows in program order");
            let text = t["instruction"].as_str().unwrap();
            assert!(svg.contains(&format!("#{index} {text}")), "{file}: row {index} is labelled with its text");
            // Each bar spans as many cycles as the counter the run printed; an absent bar is a 0.
            for (stage, key) in [
                ("issue", "issue_cycles"),
                ("ta", "ta_cycles"),
                ("tcp", "tcp_cycles"),
                ("l2", "l2_cycles"),
                ("td", "td_cycles"),
            ] {
                let span = bars.iter().find(|b| b.0 == stage).map_or(0, |&(_, a, b)| b + 1 - a);
                assert_eq!(span, u(key), "{file}: #{index} {stage}");
            }
            // The issue bar starts at the printed first beat; the done tick's title names the
            // printed cycles.
            let issue = bars.iter().find(|b| b.0 == "issue").unwrap();
            assert_eq!(issue.1, u("issued_at"), "{file}: #{index}");
            let done = format!(
                "first beat at cycle {}, done at cycle {} ({} cycles, bound: {})",
                u("issued_at"),
                u("done_at"),
                u("cycles"),
                t["bound"].as_str().unwrap()
            );
            assert!(svg.contains(&done), "{file}: #{index}: {done}");
            // No stage outlasts the instruction.
            assert!(bars.iter().all(|&(_, a, b)| a >= u("issued_at") && b < u("done_at")), "{file}: #{index}");
        }
    }
}

#[test]
fn misses_and_conflicts_are_marked_as_counted() {
    let (value, svg) = timeline(MISS_THEN_HIT, &["--model"], "marks");
    let misses: u64 = value["timing"].as_array().unwrap().iter().map(|t| t["misses"].as_u64().unwrap()).sum();
    let marked: u64 = svg
        .split("<title>")
        .filter_map(|t| t.split_once(" request(s) missed").map(|(head, _)| head))
        .map(|head| head.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(marked, misses, "every missed request is in a miss marker's title");
    // Both loads are coalesced (each bundle four lines of four banks): no bank conflict, so the
    // conflict marker appears in the legend only.
    assert_eq!(svg.matches(r#"<g class="conflict">"#).count(), 1);
}

#[test]
fn the_lockstep_run_draws_the_models_picture() {
    let (_, model) = timeline(MISS_THEN_HIT, &["--model"], "model");
    let (_, both) = timeline(MISS_THEN_HIT, &["--both"], "both");
    let body = |svg: &str| -> Vec<String> {
        svg.lines().filter(|l| !l.contains("(--model)") && !l.contains("(--both)")).map(String::from).collect()
    };
    assert_eq!(body(&model), body(&both), "the RTL's counters equal the model's, so the pictures do");
    assert!(both.contains("model and RTL in lockstep (--both)"));
}

#[test]
fn bad_timeline_requests_are_refused_with_the_fix() {
    let dir = scratch("timeline_errors");
    let svg = dir.join("t.svg");
    let svg = svg.to_str().unwrap();
    // Without --pipeline: the executor has no stages.
    let (code, _, stderr) = gcn_vmem(&["exec", MISS_THEN_HIT, "--timeline", svg], "");
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--timeline") && stderr.contains("add --pipeline"), "{stderr}");
    // On the RTL alone: only counters, no stage boundaries.
    let (code, _, stderr) = gcn_vmem(&["exec", MISS_THEN_HIT, "--pipeline", "--rtl", "--timeline", svg], "");
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("use --both") && stderr.contains("--model"), "{stderr}");
    // An unwritable path: its folder is a file.
    let file = dir.join("a-file");
    std::fs::write(&file, "").unwrap();
    let bad = file.join("t.svg");
    let (code, _, stderr) = gcn_vmem(&["exec", MISS_THEN_HIT, "--pipeline", "--timeline", bad.to_str().unwrap()], "");
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains(file.to_str().unwrap()) && stderr.contains("choose another --timeline path"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!std::path::Path::new(svg).exists(), "nothing written on a refusal");
}

#[test]
fn the_timeline_is_deterministic() {
    let (_, a) = timeline(MISS_THEN_HIT, &["--model"], "det_a");
    let (_, b) = timeline(MISS_THEN_HIT, &["--model"], "det_b");
    assert_eq!(a, b);
    assert!(a.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"") && a.ends_with("</svg>\n"));
}
