//! A failing vector as a picture: `gcn-vmem replay FILE --svg OUT.svg` draws the cycles around
//! the first mismatch as an SVG timing diagram, readable in any browser without a waveform viewer.
//!
//! Rows, top to bottom: the cycle numbers, `clk`, `rst_ni`, every input port, then for every
//! output the model's value (expected) directly above the RTL's (actual), and a marker row.
//! One-bit ports are drawn as waveforms, wider ones as bus segments with their value (hex, or the
//! code's name for an enumerated port) and a crossing where the value changes; a value too long
//! for its segment is elided in the middle and given whole in the segment's `<title>` (a
//! tooltip). Wherever model and RTL differ, both rows of that output are underlaid red, the
//! marker row is red and names the differing outputs, and a dashed red line crosses the whole
//! diagram at the first mismatch. Failed RTL assertions are orange marks in the marker row.
//!
//! Time runs as in the diff waveform ([`crate::engine::wave`]): each cycle is one column, its inputs
//! applied with `clk` low in the first half, the rising edge in the middle, the outputs after the
//! edge in the second half (they hold into the next column's first half, unless a change of
//! `rst_ni` before that column's edge clears them). A column `reset` stands for the run's
//! opening reset (rst_ni low across one edge) when the window starts at the run's beginning.
//!
//! The window: [`BEFORE`] cycles before the first mismatch to [`AFTER`] cycles after it, clipped
//! to the run; a run of at most `BEFORE + 1 + AFTER` cycles is drawn whole. With no mismatch, the
//! window is placed the same way around the first failed assertion; with neither, it shows the
//! run's first cycles and the header says that nothing failed.
//!
//! The text is deterministic (the same replay gives the same bytes) and well-formed XML: every
//! piece of text from outside (paths, values, names) is escaped.

use std::fmt::Write as _;
use std::path::Path;

use crate::engine::lockstep::{AssertionFailure, At, Cycle, Lockstep, Mismatch, Reset, Step};
use crate::engine::replay;
use crate::engine::Binding;
use crate::engine::RtlOptions;
use crate::engine::RtlUnit;
use crate::engine::{Gls, Variant};
use gcn_vmem_model::unit::{Kind, Ports, Signal, Unit};

/// Cycles drawn before the first mismatch.
pub const BEFORE: u64 = 8;
/// Cycles drawn after the first mismatch.
pub const AFTER: u64 = 4;

/// Approximate advance of one character of the monospace font at [`FONT`] px.
pub(crate) const CHAR_W: u32 = 7;
pub(crate) const FONT: u32 = 11;
const ROW: u32 = 24;
/// Height of a waveform or bus shape inside its row.
const AMP: u32 = 14;
pub(crate) const MARGIN: u32 = 10;
/// Plot width the column width aims at.
const PLOT: u32 = 1040;
/// Narrowest picture: room for the header.
pub(crate) const MIN_WIDTH: u32 = 1000;

const RED: &str = "#d62728";
const RED_FILL: &str = "#fbd5d5";
const ORANGE: &str = "#ff7f0e";
pub(crate) const INK: &str = "#222222";
pub(crate) const GRID: &str = "#dddddd";
const BUS_FILL: &str = "#eef3fb";

/// What the header says about the run.
#[derive(Clone, Debug)]
pub struct Title {
    pub unit: String,
    /// The vector file as given on the command line.
    pub vector_file: String,
    pub variant: Variant,
    /// A gate-level build (`--gls`) instead of the RTL.
    pub gls: Gls,
    pub x_seed: Option<u64>,
    /// The report line of the first mismatch (or, with none, of the first failed assertion).
    pub first_line: Option<String>,
}

/// Replays `steps` on model and RTL (the build and X seed of `rtl`; never traced) and draws the
/// diagram; `vector_file` names the file in the header and in the repro command.
pub fn replay_svg<B: Binding>(
    steps: &[Step<<B::Model as Unit>::In>],
    rtl: &RtlOptions,
    vector_file: &Path,
) -> anyhow::Result<String> {
    let unit = <B::Model as Unit>::NAME;
    let options = RtlOptions { wave: None, ..rtl.clone() };
    let mut lockstep = Lockstep::new(B::Model::default(), B::Rtl::open(&options)?).recording();
    lockstep.run_steps(steps);
    lockstep.rtl.finish();
    let record = lockstep.record.take().unwrap_or_default();
    let repro = replay::repro_command(unit, vector_file, &options);
    let first_line = match (lockstep.mismatches.first(), lockstep.assertions.first()) {
        (Some(m), _) => Some(replay::mismatch_line::<B>(m, steps, &repro)),
        (None, Some(a)) => Some(replay::assertion_line::<B>(a, steps, &repro)),
        (None, None) => None,
    };
    let title = Title {
        unit: unit.to_string(),
        vector_file: vector_file.display().to_string(),
        variant: rtl.variant,
        gls: rtl.gls,
        x_seed: rtl.x_seed,
        first_line,
    };
    Ok(render(&title, &lockstep.opening, &record, &lockstep.mismatches, &lockstep.assertions))
}

/// Writes `svg` to `path`, creating its folder when missing.
pub fn write(path: &Path, svg: &str) -> anyhow::Result<()> {
    write_for(path, svg, "--svg")
}

/// Writes `svg` to `path` for the command-line option `option` (named in the error with its fix),
/// creating its folder when missing.
pub fn write_for(path: &Path, svg: &str, option: &str) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| {
            anyhow::anyhow!("cannot create the folder {} for the SVG: {e}; choose another {option} path", dir.display())
        })?;
    }
    std::fs::write(path, svg)
        .map_err(|e| anyhow::anyhow!("cannot write the SVG {}: {e}; choose another {option} path", path.display()))
}

/// The opening `<svg>` tag (monospace text at [`FONT`] px) and a white background.
pub(crate) fn open(out: &mut String, width: u32, height: u32) {
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="{FONT}">"#
    )
    .unwrap();
    writeln!(out, r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>"##).unwrap();
}

/// A `<text>` element at (`x`, `y`) with its anchor and extra attributes (`style`, each with a
/// leading space), the text escaped.
pub(crate) fn text(out: &mut String, x: u32, y: u32, anchor: &str, style: &str, text: &str) {
    writeln!(out, r#"<text x="{x}" y="{y}" text-anchor="{anchor}"{style}>{}</text>"#, escape(text)).unwrap();
}

/// The cycles `[first, end)` of a run of `len` cycles drawn around `focus` (see the module doc).
pub fn window(len: u64, focus: Option<u64>) -> (u64, u64) {
    let span = BEFORE + 1 + AFTER;
    if len <= span {
        return (0, len);
    }
    match focus {
        Some(f) => {
            let f = f.min(len - 1);
            (f.saturating_sub(BEFORE), (f + AFTER + 1).min(len))
        }
        None => (0, span),
    }
}

/// One column of the diagram: a cycle, or the opening reset.
struct Column<I, O> {
    label: String,
    /// The cycle's number (`None`: the opening reset).
    cycle: Option<u64>,
    input: I,
    /// Outputs (model, RTL) before the edge and after it.
    early: (O, O),
    late: (O, O),
    /// Per output: whether model and RTL differed at a comparison before the edge (a change of
    /// rst_ni) or after it.
    early_differs: Vec<bool>,
    late_differs: Vec<bool>,
    /// rst_ni changes inside the column: (quarter of the column, new level).
    rst: Vec<(u32, bool)>,
    /// Failed assertions reported in this column: (before the edge, name).
    asserts: Vec<(bool, String)>,
}

fn differs<O: Ports>(pairs: &[&(O, O)]) -> Vec<bool> {
    (0..O::SIGNALS.len()).map(|i| pairs.iter().any(|(e, a)| e.get(i) != a.get(i))).collect()
}

/// The columns of cycles `[first, end)`, with the opening reset first when `first` is 0.
fn columns<I: Ports, O: Ports>(
    opening: &[(O, O); 3],
    record: &[Cycle<I, O>],
    assertions: &[AssertionFailure],
    (first, end): (u64, u64),
) -> Vec<Column<I, O>> {
    let mut cols = Vec::new();
    // Assertions reported at the opening reset: at its held edge, or when rst_ni fell or rose
    // with cycle 0 not itself changing rst_ni.
    let cycle0_resets = record.first().is_some_and(|c| c.at_reset.iter().any(Option::is_some));
    let opening_assert =
        |a: &AssertionFailure| a.cycle == 0 && (a.at == At::ResetEdge || (a.at != At::Edge && !cycle0_resets));
    if first == 0 {
        cols.push(Column {
            label: "reset".to_string(),
            cycle: None,
            input: I::default(),
            early: opening[0],
            late: opening[1],
            early_differs: differs(&[&opening[0]]),
            late_differs: differs(&[&opening[1]]),
            rst: vec![(0, false)],
            asserts: assertions
                .iter()
                .filter(|a| opening_assert(a))
                .map(|a| (a.at == At::ResetAsserted, a.name.clone()))
                .collect(),
        });
    }
    // rst_ni at the start of the window: low after the opening reset's column (it rises before
    // cycle 0), or after a held cycle.
    let mut held = first > 0 && record[first as usize - 1].reset == Reset::Hold;
    for k in first..end {
        let c = &record[k as usize];
        let before = if k == 0 {
            opening[2]
        } else {
            let p = &record[k as usize - 1];
            (p.expected, p.actual)
        };
        let changes: Vec<&(O, O)> = c.at_reset.iter().flatten().map(|(_, outs)| outs).collect();
        let early = changes.last().map_or(before, |o| **o);
        // Before cycle 0's edge also comes the comparison after the opening reset's release.
        let compared: Vec<&(O, O)> = if k == 0 { [&opening[2]].into_iter().chain(changes).collect() } else { changes };
        let mut rst = Vec::new();
        if k == 0 && first == 0 {
            rst.push((0, true));
        }
        match c.reset {
            Reset::None if held => rst.push((1, true)),
            Reset::None => {}
            Reset::Pulse => {
                if !held {
                    rst.push((1, false));
                }
                rst.push((2, true));
            }
            Reset::Hold if held => {}
            Reset::Hold => rst.push((1, false)),
        }
        held = c.reset == Reset::Hold;
        cols.push(Column {
            label: k.to_string(),
            cycle: Some(k),
            input: c.input,
            early,
            late: (c.expected, c.actual),
            early_differs: if compared.is_empty() { differs(&[&early]) } else { differs(&compared) },
            late_differs: differs(&[&(c.expected, c.actual)]),
            rst,
            asserts: assertions
                .iter()
                .filter(|a| a.cycle == k && !opening_assert(a))
                .map(|a| (a.at != At::Edge, a.name.clone()))
                .collect(),
        });
    }
    cols
}

/// Escapes text for XML content and attribute values; characters XML 1.0 cannot hold (control
/// characters, U+FFFE, U+FFFF) become U+FFFD.
pub fn escape(text: &str) -> String {
    super::escape_xml(text, '\u{fffd}').replace(['\u{fffe}', '\u{ffff}'], "\u{fffd}")
}

/// `text` shortened to at most `max` characters by an ellipsis in the middle; empty when not even
/// a character and the ellipsis fit.
pub fn elide(text: &str, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        return text.to_string();
    }
    if max < 2 {
        return String::new();
    }
    let head = (max - 1).div_ceil(2);
    let tail = max - 1 - head;
    let chars: Vec<char> = text.chars().collect();
    let mut out: String = chars[..head].iter().collect();
    out.push('…');
    out.extend(&chars[n - tail..]);
    out
}

/// `text` in at most `max` characters: whole if it fits; a hex value without its leading zeros
/// if that fits (the digits that tell values apart are kept); else elided in the middle.
pub fn fit(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    match text.strip_prefix("0x") {
        Some(digits) if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_hexdigit()) => {
            let trimmed = digits.trim_start_matches('0');
            elide(&format!("0x{}", if trimmed.is_empty() { "0" } else { trimmed }), max)
        }
        _ => elide(text, max),
    }
}

/// A port's value as drawn: the code's name for an enumerated port, else hex (or 0/1).
fn shown(signal: &Signal, value: u128) -> String {
    match signal.kind {
        Kind::Enum(names) if signal.width > 1 => match names.get(value as usize) {
            Some(name) => (*name).to_string(),
            None => signal.hex(value),
        },
        _ => signal.text(value),
    }
}

/// The SVG under construction, with the geometry of its columns.
struct Canvas {
    out: String,
    /// x of the plot's left edge and the width of one column.
    x0: u32,
    col: u32,
    /// Columns drawn.
    ncols: u32,
}

impl Canvas {
    /// x of quarter `q` of column `c` (4 quarters per column).
    fn x(&self, c: u32, q: u32) -> u32 {
        self.x0 + c * self.col + q * self.col / 4
    }

    /// Right edge of the plot.
    fn right(&self) -> u32 {
        self.x(self.ncols, 0)
    }

    fn text(&mut self, x: u32, y: u32, anchor: &str, style: &str, content: &str) {
        text(&mut self.out, x, y, anchor, style, content);
    }

    fn label(&mut self, y: u32, text: &str, color: &str) {
        let style = if color == INK { String::new() } else { format!(r#" fill="{color}""#) };
        self.text(self.x0 - 8, y + ROW / 2 + 4, "end", &style, text);
    }

    /// A one-bit signal over half-column slots: `level(slot)`; slots `[from, to)`.
    fn wave(&mut self, y: u32, slots: &[u128], from: usize) {
        let (hi, lo) = (y + (ROW - AMP) / 2, y + (ROW + AMP) / 2);
        let mut points = String::new();
        let mut last = None;
        for (i, v) in slots.iter().enumerate() {
            let x = slot_x(self, from + i);
            let yv = if v & 1 == 1 { hi } else { lo };
            if last != Some(yv) {
                if let Some(prev) = last {
                    write!(points, "{x},{prev} ").unwrap();
                }
                write!(points, "{x},{yv} ").unwrap();
                last = Some(yv);
            }
        }
        let end = slot_x(self, from + slots.len());
        if let Some(v) = last {
            write!(points, "{end},{v}").unwrap();
        }
        writeln!(
            self.out,
            r#"<polyline points="{}" fill="none" stroke="{INK}" stroke-width="1.5"/>"#,
            points.trim_end()
        )
        .unwrap();
    }

    /// A bus segment from x `a` to `b` showing `text`, with its full value as a tooltip.
    fn bus(&mut self, y: u32, (a, b): (u32, u32), text: &str, tooltip: &str, color: &str) {
        let (top, mid, bot) = (y + (ROW - AMP) / 2, y + ROW / 2, y + (ROW + AMP) / 2);
        let slant = 3.min((b - a) / 2);
        let fill = if color == INK { BUS_FILL } else { RED_FILL };
        writeln!(
            self.out,
            r#"<g><title>{}</title><polygon points="{},{mid} {},{top} {},{top} {b},{mid} {},{bot} {},{bot}" fill="{fill}" stroke="{color}"/>"#,
            escape(tooltip),
            a,
            a + slant,
            b - slant,
            b - slant,
            a + slant,
        )
        .unwrap();
        let room = ((b - a).saturating_sub(6) / CHAR_W) as usize;
        let shown = fit(text, room);
        if !shown.is_empty() {
            let style = if color == INK { String::new() } else { format!(r#" fill="{color}""#) };
            self.text((a + b) / 2, mid + 4, "middle", &style, &shown);
        }
        self.out.push_str("</g>\n");
    }
}

/// The half-column slots of an output row: (value, differs) per slot, slot 2j before column j's
/// edge, 2j + 1 after it.
fn output_slots<I, O: Ports>(cols: &[Column<I, O>], signal: usize, side: usize) -> Vec<(u128, bool)> {
    let pick = |p: &(O, O)| if side == 0 { p.0.get(signal) } else { p.1.get(signal) };
    cols.iter()
        .flat_map(|c| [(pick(&c.early), c.early_differs[signal]), (pick(&c.late), c.late_differs[signal])])
        .collect()
}

/// Draws the diagram (see the module doc). `mismatches` and `assertions` are the run's, in order;
/// `opening` and `record` as [`Lockstep`] keeps them.
pub fn render<I: Ports, O: Ports>(
    title: &Title,
    opening: &[(O, O); 3],
    record: &[Cycle<I, O>],
    mismatches: &[Mismatch],
    assertions: &[AssertionFailure],
) -> String {
    let len = record.len() as u64;
    let focus = mismatches.first().map(|m| m.cycle).or_else(|| assertions.first().map(|a| a.cycle));
    let (first, end) = window(len, focus);
    let cols = columns(opening, record, assertions, (first, end));

    let mut labels: Vec<String> = vec!["cycle".into(), "clk".into(), "rst_ni".into()];
    labels.extend(I::SIGNALS.iter().map(|s| s.name.to_string()));
    for s in O::SIGNALS {
        labels.push(format!("{} (model)", s.name));
        labels.push(format!("{} (RTL)", s.name));
    }
    labels.push("mismatch".into());
    let label_w = labels.iter().map(|l| l.chars().count() as u32).max().unwrap_or(8) * CHAR_W + 16;
    let ncols = cols.len() as u32;
    // Whole pixels per quarter column, so every coordinate is an integer.
    let col = (PLOT / ncols.max(1)).clamp(48, 200) / 4 * 4;
    let header_lines = 4;
    let top = MARGIN + header_lines * 16 + 8;
    let rows = 3 + I::SIGNALS.len() as u32 + 2 * O::SIGNALS.len() as u32 + 1;
    // Two group captions (inputs, outputs) take a row each.
    let height = top + (rows + 2) * ROW + MARGIN;
    let mut cv = Canvas { out: String::new(), x0: MARGIN + label_w, col, ncols };
    // Wide enough for the header's lines even when few columns are drawn.
    let width = (cv.right() + MARGIN).max(MIN_WIDTH);

    open(&mut cv.out, width, height);

    let shown = Shown { first, end, len };
    draw_header(&mut cv, title, shown, width, (mismatches, assertions));
    let mut y = draw_clock_and_reset(&mut cv, &cols, record, shown, top, rows);
    y = draw_inputs::<I, O>(&mut cv, &cols, y);
    y = draw_outputs::<I, O>(&mut cv, &cols, y);
    draw_marker_row::<I, O>(&mut cv, &cols, y, top);
    cv.out.push_str("</svg>\n");
    cv.out
}

/// Which cycles the diagram shows: `first` to `end` (exclusive) of a run of `len`.
#[derive(Clone, Copy)]
struct Shown {
    first: u64,
    end: u64,
    len: u64,
}

/// The four header lines: the unit and vector file, the build and the span shown, the first
/// mismatch (or assertion), and the legend.
fn draw_header(
    cv: &mut Canvas,
    title: &Title,
    Shown { first, end, len }: Shown,
    width: u32,
    (mismatches, assertions): (&[Mismatch], &[AssertionFailure]),
) {
    let build = match (title.gls, title.variant) {
        (Gls::Netlist, _) => "gate-level netlist of the RTL as written (--gls)",
        (Gls::TrapRtl | Gls::TrapNetlist, _) => "test-only gate-level trap build (tests/gls.rs)",
        (Gls::Off, Variant::AsWritten) => "RTL: as written",
        (Gls::Off, Variant::Mutant) => "RTL: test-only mutant build (--mutant)",
        (Gls::Off, Variant::BreakAsserts) => "RTL: test-only break-asserts build (--break-asserts)",
        (Gls::Off, Variant::Small) => "RTL: as written, small configuration (--small)",
    };
    let seed = title.x_seed.map(|s| format!(", X seed {s}")).unwrap_or_default();
    let shown_span = if first == 0 && end == len {
        format!("the whole run: opening reset, then {len} cycles")
    } else {
        format!("cycles {first} to {} of {len}", end.saturating_sub(1))
    };
    let (what, line) = match (&title.first_line, mismatches.first()) {
        (Some(l), Some(_)) => ("first mismatch", l.clone()),
        (Some(l), None) => ("no mismatch; first failed assertion", l.clone()),
        (None, _) => ("no mismatch and no failed assertion", "the start of the run is shown".to_string()),
    };
    let short = line.split(" | ").next().unwrap_or_default().to_string();
    let max_chars = ((width - 2 * MARGIN) / CHAR_W) as usize;
    let mut y = MARGIN + 12;
    cv.text(
        MARGIN,
        y,
        "start",
        r#" font-weight="bold""#,
        &elide(&format!("{} · replay of {}", title.unit, title.vector_file), max_chars),
    );
    y += 16;
    let counts = match (mismatches.len(), assertions.len()) {
        (0, 0) => String::new(),
        (m, a) => format!(" · {m} mismatching comparison(s), {a} failed assertion(s)"),
    };
    cv.text(MARGIN, y, "start", "", &elide(&format!("{build}{seed} · {shown_span}{counts}"), max_chars));
    y += 16;
    writeln!(cv.out, "<g><title>{}</title>", escape(&line)).unwrap();
    let color =
        if mismatches.is_empty() && assertions.is_empty() { String::new() } else { format!(r#" fill="{RED}""#) };
    cv.text(MARGIN, y, "start", &color, &elide(&format!("{what}: {short}"), max_chars));
    cv.out.push_str("</g>\n");
    y += 16;
    cv.text(
        MARGIN,
        y,
        "start",
        r##" fill="#666666""##,
        &elide("inputs apply with clk low, outputs follow the rising edge; red: model and RTL differ; hover a value for all its digits", max_chars),
    );
}

/// The grid (a faint line at every rising edge), the cycle labels, clk and rst_ni; returns the
/// y of the next row.
fn draw_clock_and_reset<I, O>(
    cv: &mut Canvas,
    cols: &[Column<I, O>],
    record: &[Cycle<I, O>],
    Shown { first, .. }: Shown,
    top: u32,
    rows: u32,
) -> u32 {
    let ncols = cols.len() as u32;
    let bottom = top + (rows + 2) * ROW;
    for (j, c) in cols.iter().enumerate() {
        let x = cv.x(j as u32, 2);
        writeln!(cv.out, r#"<line x1="{x}" y1="{top}" x2="{x}" y2="{bottom}" stroke="{GRID}"/>"#).unwrap();
        cv.text(x, top + ROW / 2 + 4, "middle", "", &c.label);
    }
    let mut y = top;
    cv.label(y, "cycle", INK);
    y += ROW;

    // clk: low in each column's first half, high in its second.
    cv.label(y, "clk", INK);
    let clk: Vec<u128> = (0..2 * ncols).map(|s| u128::from(s % 2)).collect();
    cv.wave(y, &clk, 0);
    y += ROW;

    // rst_ni from its changes.
    cv.label(y, "rst_ni", INK);
    {
        let (hi, lo) = (y + (ROW - AMP) / 2, y + (ROW + AMP) / 2);
        // High at the window's start unless the cycle before it held the reset.
        let mut level = !(first > 0 && record[first as usize - 1].reset == Reset::Hold);
        let mut points = format!("{},{} ", cv.x(0, 0), if level { hi } else { lo });
        for (j, c) in cols.iter().enumerate() {
            for &(q, to) in &c.rst {
                let x = cv.x(j as u32, q);
                let (from_y, to_y) = (if level { hi } else { lo }, if to { hi } else { lo });
                write!(points, "{x},{from_y} {x},{to_y} ").unwrap();
                level = to;
            }
        }
        write!(points, "{},{}", cv.right(), if level { hi } else { lo }).unwrap();
        writeln!(cv.out, r#"<polyline points="{points}" fill="none" stroke="{INK}" stroke-width="1.5"/>"#).unwrap();
    }
    y += ROW;
    y
}

/// The input rows under their caption; returns the y of the next row.
fn draw_inputs<I: Ports, O>(cv: &mut Canvas, cols: &[Column<I, O>], mut y: u32) -> u32 {
    cv.text(MARGIN, y + ROW / 2 + 4, "start", r##" font-weight="bold" fill="#555555""##, "inputs");
    y += ROW;
    for (i, s) in I::SIGNALS.iter().enumerate() {
        cv.label(y, s.name, INK);
        let slots: Vec<(u128, bool)> = cols.iter().flat_map(|c| [(c.input.get(i), false); 2]).collect();
        draw_row(cv, y, s, &slots, cols);
        y += ROW;
    }
    y
}

/// The output rows, model (expected) above RTL (actual), red where they differ; returns the y of
/// the next row.
fn draw_outputs<I, O: Ports>(cv: &mut Canvas, cols: &[Column<I, O>], mut y: u32) -> u32 {
    cv.text(
        MARGIN,
        y + ROW / 2 + 4,
        "start",
        r##" font-weight="bold" fill="#555555""##,
        "outputs: model (expected) above RTL (actual)",
    );
    y += ROW;
    for (i, s) in O::SIGNALS.iter().enumerate() {
        let expected = output_slots(cols, i, 0);
        let actual = output_slots(cols, i, 1);
        // The red underlay of both rows where they differ.
        for (k, _) in expected.iter().enumerate().filter(|(_, (_, d))| *d) {
            let (a, b) = (slot_x(cv, k), slot_x(cv, k + 1));
            writeln!(
                cv.out,
                r#"<rect class="differs" x="{a}" y="{y}" width="{}" height="{}" fill="{RED_FILL}" fill-opacity="0.6"/>"#,
                b - a,
                2 * ROW
            )
            .unwrap();
        }
        let differs_anywhere = expected.iter().any(|(_, d)| *d);
        let color = if differs_anywhere { RED } else { INK };
        cv.label(y, &format!("{} (model)", s.name), INK);
        draw_row(cv, y, s, &expected.iter().map(|&(v, _)| (v, false)).collect::<Vec<_>>(), cols);
        y += ROW;
        cv.label(y, &format!("{} (RTL)", s.name), color);
        draw_row(cv, y, s, &actual, cols);
        y += ROW;
    }
    y
}

/// The marker row: which outputs differ in each half column, failed assertions, and the dashed
/// line at the first mismatch.
fn draw_marker_row<I, O: Ports>(cv: &mut Canvas, cols: &[Column<I, O>], y: u32, top: u32) {
    cv.label(y, "mismatch", RED);
    // Per half-column slot: the names of the outputs that differ there; equal neighbours merge.
    let when = |slot: usize| {
        let c = &cols[slot / 2];
        match (c.cycle, slot % 2) {
            (None, 0) => "the opening reset, rst_ni fallen".to_string(),
            (None, _) => "the opening reset, after the edge with rst_ni low".to_string(),
            (Some(k), 0) => format!("cycle {k}, at a change of rst_ni before the edge"),
            (Some(k), _) => format!("cycle {k}, after the edge"),
        }
    };
    let marks: Vec<Vec<&str>> = cols
        .iter()
        .flat_map(|c| [&c.early_differs, &c.late_differs])
        .map(|flags| O::SIGNALS.iter().zip(flags.iter()).filter(|(_, d)| **d).map(|(s, _)| s.name).collect())
        .collect();
    let first_marked = marks.iter().position(|names| !names.is_empty()).map(|s| slot_x(cv, s));
    let mut start = 0;
    while start < marks.len() {
        let mut stop = start + 1;
        while stop < marks.len() && marks[stop] == marks[start] {
            stop += 1;
        }
        let names = &marks[start];
        if !names.is_empty() {
            let (a, b) = (slot_x(cv, start), slot_x(cv, stop));
            let span = if stop - start == 1 { when(start) } else { format!("{} to {}", when(start), when(stop - 1)) };
            let tip = format!("model and RTL differ in {}: {span}", names.join(", "));
            let cycle = |s: usize| cols[s / 2].cycle.map_or("reset".to_string(), |k| k.to_string());
            writeln!(
                cv.out,
                r#"<g class="marker" data-from-cycle="{}" data-to-cycle="{}"><title>{}</title><rect x="{a}" y="{}" width="{}" height="{AMP}" fill="{RED}"/>"#,
                cycle(start),
                cycle(stop - 1),
                escape(&tip),
                y + (ROW - AMP) / 2,
                b - a,
            )
            .unwrap();
            let text = elide(&names.join(","), ((b - a).saturating_sub(4) / CHAR_W) as usize);
            if !text.is_empty() {
                cv.text((a + b) / 2, y + ROW / 2 + 4, "middle", r##" fill="#ffffff""##, &text);
            }
            cv.out.push_str("</g>\n");
        }
        start = stop;
    }
    for (j, c) in cols.iter().enumerate() {
        for (early, name) in &c.asserts {
            let x = cv.x(j as u32, if *early { 1 } else { 2 });
            let (mid, h) = (y + ROW / 2, AMP / 2);
            writeln!(
                cv.out,
                r#"<g class="assertion" data-cycle="{}"><title>{}</title><polygon points="{x},{} {},{mid} {x},{} {},{mid}" fill="{ORANGE}" stroke="{INK}"/></g>"#,
                c.cycle.map_or("reset".to_string(), |k| k.to_string()),
                escape(&format!("assertion {name} failed")),
                mid - h,
                x + h,
                mid + h,
                x - h,
            )
            .unwrap();
        }
    }
    if let Some(x) = first_marked {
        writeln!(
            cv.out,
            r#"<line class="first-mismatch" x1="{x}" y1="{top}" x2="{x}" y2="{}" stroke="{RED}" stroke-dasharray="4,3"/>"#,
            y + ROW
        )
        .unwrap();
    }
}

/// One row of half-column slots: a waveform for a one-bit port, else bus segments (equal
/// neighbours merged), red where the slot's flag is set.
fn draw_row<I, O>(cv: &mut Canvas, y: u32, signal: &Signal, slots: &[(u128, bool)], cols: &[Column<I, O>]) {
    if signal.width == 1 {
        let levels: Vec<u128> = slots.iter().map(|&(v, _)| v).collect();
        cv.wave(y, &levels, 0);
        return;
    }
    let mut start = 0;
    while start < slots.len() {
        let mut stop = start + 1;
        while stop < slots.len() && slots[stop] == slots[start] {
            stop += 1;
        }
        let (value, red) = slots[start];
        let (a, b) = (slot_x(cv, start), slot_x(cv, stop));
        let text = shown(signal, value);
        let span = |s: usize| cols[s / 2].label.clone();
        let tip = format!(
            "{} = {} ({} bits{}), {}{}",
            signal.name,
            signal.hex(value),
            signal.width,
            if text == signal.hex(value) { String::new() } else { format!(", {text}") },
            if stop - start == 1 { "in " } else { "from " },
            if stop - start == 1 { span(start) } else { format!("{} to {}", span(start), span(stop - 1)) },
        );
        cv.bus(y, (a, b), &text, &tip, if red { RED } else { INK });
        start = stop;
    }
}

/// x where half-column slot `s` begins.
fn slot_x(cv: &Canvas, s: usize) -> u32 {
    let s = s as u32;
    cv.x(s / 2, 2 * (s % 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks `shorten` (named `name`) on each `(text, max, expected)` row.
    fn assert_shortened(name: &str, shorten: fn(&str, usize) -> String, rows: &[(&str, usize, &str)]) {
        for &(text, max, want) in rows {
            assert_eq!(shorten(text, max), want, "{name}({text:?}, {max})");
        }
    }

    #[test]
    fn elide_keeps_both_ends() {
        let hex = "0x0123456789";
        assert_shortened("elide", elide, &[(hex, 20, hex), (hex, 7, "0x0…789"), (hex, 1, ""), ("abc", 3, "abc")]);
    }

    #[test]
    fn fit_drops_leading_zeros_of_hex_before_eliding() {
        let wide = "0x0000000000000000800000000000000f";
        let rows = [
            (wide, 40, wide),
            (wide, 18, "0x800000000000000f"),
            (wide, 9, "0x80…000f"),
            ("0x00000000", 5, "0x0"),
            ("non_format", 6, "non…at"),
        ];
        assert_shortened("fit", fit, &rows);
    }

    #[test]
    fn escape_makes_text_safe_for_xml() {
        assert_eq!(escape(r#"a<b>&"c'"#), "a&lt;b&gt;&amp;&quot;c&apos;");
        assert_eq!(escape("x\u{1}y"), "x\u{fffd}y");
    }

    #[test]
    fn window_centres_the_focus_and_clips_to_the_run() {
        let rows = [
            (5, Some(3), (0, 5)),
            (100, Some(50), (42, 55)),
            (100, Some(2), (0, 7)),
            (100, Some(98), (90, 100)),
            (100, None, (0, 13)),
        ];
        for (len, focus, want) in rows {
            assert_eq!(window(len, focus), want, "window({len}, {focus:?})");
        }
    }
}
