//! `gcn-vmem replay --svg`: the timing diagram is well-formed XML, deterministic, marks the first
//! mismatch (or assertion) at its cycle, windows long runs, escapes what it quotes, and the
//! README's picture is what `make picture` draws today.

use crate::common;

use std::path::Path;
use std::process::Command;

use gcn_vmem::bindings::buffer_addr::Harness;
use gcn_vmem::engine::lockstep::Step;
use gcn_vmem::engine::run::{self, RunConfig};
use gcn_vmem::engine::stimulus::Rng;
use gcn_vmem::engine::vectors;
use gcn_vmem::engine::RtlOptions;
use gcn_vmem::engine::Variant;
use gcn_vmem::engine::{case, replay};
use gcn_vmem::report::svg;
use gcn_vmem_model::buffer_addr::In;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn mutant() -> RtlOptions {
    RtlOptions { variant: Variant::Mutant, ..RtlOptions::default() }
}

/// The minimal failing vector of the mutant (docs/img/buffer_addr_mutant.jsonl).
fn minimal() -> Vec<Step<In>> {
    vectors::read_file(&Path::new(ROOT).join("docs/img/buffer_addr_mutant.jsonl")).unwrap()
}

/// Parses `text` as XML (failing the test when it is not well-formed) and hands the document on.
fn with_xml<T>(text: &str, f: impl FnOnce(&roxmltree::Document) -> T) -> T {
    let doc = roxmltree::Document::parse(text).unwrap_or_else(|e| panic!("not well-formed XML: {e}\n{text}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    f(&doc)
}

/// Attribute `attr` of every element with class `class`, in document order.
fn classed(doc: &roxmltree::Document, class: &str, attr: &str) -> Vec<String> {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .map(|n| n.attribute(attr).unwrap_or_default().to_string())
        .collect()
}

/// Every text element's content, in document order.
fn texts(doc: &roxmltree::Document) -> Vec<String> {
    doc.descendants().filter(|n| n.has_tag_name("text")).map(|n| n.text().unwrap_or_default().to_string()).collect()
}

/// `gcn-vmem replay` of the README picture's vector with `--svg out`, on the mutant build or not.
fn replay_picture_vector(out: &Path, mutant: bool) -> (i32, String, String) {
    let mut args = vec!["replay", "docs/img/buffer_addr_mutant.jsonl", "--unit", "buffer_addr"];
    if mutant {
        args.push("--mutant");
    }
    args.extend(["--svg", out.to_str().unwrap()]);
    gcn_vmem(&args)
}

fn gcn_vmem(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gcn-vmem")).args(args).current_dir(ROOT).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// A `NAME := value` line of the Makefile (the settings of `make picture`).
fn make_variable(name: &str) -> String {
    let makefile = std::fs::read_to_string(Path::new(ROOT).join("Makefile")).unwrap();
    makefile
        .lines()
        .find_map(|l| l.strip_prefix(name).and_then(|r| r.trim_start().strip_prefix(":=")))
        .unwrap_or_else(|| panic!("no `{name} :=` in the Makefile"))
        .trim()
        .to_string()
}

#[test]
fn the_first_mismatch_is_marked_at_its_cycle() {
    let steps = minimal();
    let replay = replay::replay::<Harness>(&steps, &mutant(), None, None).unwrap();
    let first = replay.mismatches.first().expect("the mutant agrees on its minimal vector").cycle;
    let text = svg::replay_svg::<Harness>(&steps, &mutant(), Path::new("docs/img/buffer_addr_mutant.jsonl")).unwrap();
    with_xml(&text, |doc| {
        let markers = classed(doc, "marker", "data-from-cycle");
        assert_eq!(markers.first(), Some(&first.to_string()), "markers: {markers:?}");
        assert_eq!(classed(doc, "first-mismatch", "x1").len(), 1);
        // Both rows of the differing output are underlaid red.
        assert!(!classed(doc, "differs", "x").is_empty());
        let texts = texts(doc);
        let header = format!("first mismatch: MISMATCH buffer_addr cycle={first} signal=address");
        assert!(texts.iter().any(|t| t.starts_with(&header)), "{texts:?}");
        assert!(texts.iter().any(|t| t == "address (RTL)"));
        // The whole short run is drawn: the opening reset and every cycle.
        for label in ["reset", "0", "1", "2"] {
            assert!(texts.iter().any(|t| t == label), "no column {label}: {texts:?}");
        }
    });
    // Deterministic: the same replay draws the same bytes.
    let again = svg::replay_svg::<Harness>(&steps, &mutant(), Path::new("docs/img/buffer_addr_mutant.jsonl")).unwrap();
    assert_eq!(text, again);
}

#[test]
fn a_clean_run_says_so_and_draws_its_start() {
    let steps = minimal();
    let text = svg::replay_svg::<Harness>(&steps, &RtlOptions::default(), Path::new("clean.jsonl")).unwrap();
    with_xml(&text, |doc| {
        assert!(classed(doc, "marker", "data-from-cycle").is_empty());
        assert!(classed(doc, "first-mismatch", "x1").is_empty());
        assert!(classed(doc, "differs", "x").is_empty());
        let texts = texts(doc);
        assert!(texts.iter().any(|t| t.starts_with("no mismatch and no failed assertion")), "{texts:?}");
        assert!(texts.iter().any(|t| t == "reset"));
    });
}

#[test]
fn a_long_run_is_windowed_around_the_first_mismatch() {
    // 20 idle cycles, then the failing vector, then 20 more idle cycles.
    let mut steps: Vec<Step<In>> = vec![Step::default(); 20];
    steps.extend(minimal());
    steps.extend(vec![Step::default(); 20]);
    let replay = replay::replay::<Harness>(&steps, &mutant(), None, None).unwrap();
    let first = replay.mismatches.first().unwrap().cycle;
    assert!(first >= 20, "{first}");
    let text = svg::replay_svg::<Harness>(&steps, &mutant(), Path::new("long.jsonl")).unwrap();
    with_xml(&text, |doc| {
        let texts = texts(doc);
        let columns: Vec<u64> = texts.iter().filter_map(|t| t.parse().ok()).collect();
        let want: Vec<u64> = (first - svg::BEFORE..=first + svg::AFTER).collect();
        assert_eq!(columns, want, "columns drawn");
        assert!(!texts.iter().any(|t| t == "reset"), "the opening reset is outside the window");
        assert_eq!(classed(doc, "marker", "data-from-cycle").first(), Some(&first.to_string()));
    });
}

#[test]
fn a_failed_assertion_is_marked_when_nothing_mismatches() {
    let artifacts = common::scratch("svg_asserts");
    let config = RunConfig { vectors: 20_000, seed: 3, ..common::first_failure_run(Variant::BreakAsserts, artifacts) };
    let summary = run::random::<Harness>(&config).unwrap();
    let failure = summary.failures.first().expect("no assertion fired on the break-asserts build");
    let steps: Vec<Step<In>> = vectors::read_file(&failure.vector_file).unwrap();
    let options = RtlOptions { variant: Variant::BreakAsserts, ..RtlOptions::default() };
    let replay = replay::replay::<Harness>(&steps, &options, None, None).unwrap();
    let first = replay.assertions.first().expect("the saved vector fires no assertion");
    let text = svg::replay_svg::<Harness>(&steps, &options, &failure.vector_file).unwrap();
    with_xml(&text, |doc| {
        let marks = classed(doc, "assertion", "data-cycle");
        assert!(marks.contains(&first.cycle.to_string()), "{marks:?}, first at {}", first.cycle);
        if replay.mismatches.is_empty() {
            let texts = texts(doc);
            assert!(texts.iter().any(|t| t.starts_with("no mismatch; first failed assertion: ASSERTION")), "{texts:?}");
        }
    });
}

#[test]
fn text_from_outside_is_escaped() {
    let dir = common::scratch("svg_escape");
    let odd = dir.join("a&b <c> \"d\" 'e'.jsonl");
    std::fs::write(&odd, vectors::to_text(&minimal())).unwrap();
    let text = svg::replay_svg::<Harness>(&minimal(), &mutant(), &odd).unwrap();
    with_xml(&text, |doc| {
        let texts = texts(doc);
        assert!(texts.iter().any(|t| t.contains("a&b <c> \"d\" 'e'.jsonl")), "{texts:?}");
    });
}

#[test]
fn replay_svg_errors_name_the_problem() {
    let dir = common::scratch("svg_errors");
    let (code, _, err) = gcn_vmem(&["replay", "no/such/file.jsonl", "--unit", "buffer_addr", "--svg", "x.svg"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no/such/file.jsonl"), "{err}");
    // A folder that cannot be created (a file is in the way).
    let blocker = dir.join("file");
    std::fs::write(&blocker, "").unwrap();
    let out = blocker.join("x.svg");
    let (code, _, err) = replay_picture_vector(&out, false);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot create the folder") && err.contains("--svg"), "{err}");
    // Into a new folder it works, and says where.
    let out = dir.join("new").join("x.svg");
    let (code, stdout, err) = replay_picture_vector(&out, true);
    assert_eq!(code, 1, "the mutant's mismatch is exit status 1: {err}");
    assert!(stdout.contains(&format!("timing diagram {}", out.display())), "{stdout}");
    assert!(out.exists());
}

/// The README's picture cannot go stale: the vector is what `make picture`'s seeded mutant run
/// saves, and the SVG is what `replay --svg` draws from it. The fix for a failure is
/// `make picture` (then commit docs/img/).
#[test]
fn the_readme_picture_is_what_make_picture_draws() {
    let stale = "docs/img/buffer_addr_mutant.{jsonl,svg} are stale: run `make picture` and commit docs/img/";
    let artifacts = common::scratch("svg_picture");
    let config = RunConfig {
        vectors: make_variable("PICTURE_VECTORS").parse().unwrap(),
        seed: make_variable("PICTURE_SEED").parse().unwrap(),
        ..common::first_failure_run(Variant::Mutant, artifacts)
    };
    let summary = run::random::<Harness>(&config).unwrap();
    let failure = summary.failures.first().expect("the seeded mutant run found nothing");
    let saved = std::fs::read_to_string(&failure.vector_file).unwrap();
    let committed = std::fs::read_to_string(Path::new(ROOT).join("docs/img/buffer_addr_mutant.jsonl")).unwrap();
    assert_eq!(saved, committed, "{stale}");

    let out = common::scratch("svg_picture_out").join("picture.svg");
    let (code, _, err) = replay_picture_vector(&out, true);
    assert_eq!(code, 1, "{err}");
    let drawn = std::fs::read_to_string(&out).unwrap();
    let committed = std::fs::read_to_string(Path::new(ROOT).join("docs/img/buffer_addr_mutant.svg")).unwrap();
    assert!(drawn == committed, "{stale}");
}

#[test]
fn random_runs_draw_well_formed_diagrams() {
    // Random cases with resets and idle cycles, on the mutant and the RTL as written.
    let mut rng = Rng::new(99);
    for n in 0..20 {
        let steps = case::generate_cycles::<Harness>(&mut rng);
        let options = if n % 2 == 0 { mutant() } else { RtlOptions::default() };
        let text = svg::replay_svg::<Harness>(&steps, &options, Path::new("random.jsonl")).unwrap();
        with_xml(&text, |_| ());
    }
}
