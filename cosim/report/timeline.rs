//! Where a pipeline run's cycles went, as a picture: `gcn-vmem exec FILE --pipeline --timeline
//! OUT.svg` draws each VMEM instruction as one row of its stages over cycles, as a GPU
//! performance tool draws a wave's memory instructions.
//!
//! Each row has five lanes, top to bottom: issue (the SQ's beats), TA (the step stage), TCP
//! (accesses at a lookup-queue head; a triangle marks a cycle in which lookups of the
//! instruction missed, a diamond a cycle whose accepted bundle cost bank-conflict cycles), L2
//! (from its first request accepted to its last response) and TD (conversion start to the last
//! VGPR write accepted); a bar spans the first to the last cycle of the stage, both included, so
//! its length is the stage's counter of SPEC §14.1 (docs/decisions.md "vmem_pipe"), and a thin
//! line runs from the first beat to the `done`, marked by a tick. Only what the run recorded is
//! drawn: the counters the pipeline reported with each `done`, and the cycle model's stage
//! boundaries behind them ([`gcn_vmem_model::vmem_pipe::Stages`]); a span whose length differs
//! from its counter is an error, not a picture.
//!
//! Readable without the tool: a cycle axis with ticks, each row labelled with its program index,
//! assembly text and total, a legend; every stage has a colour (Okabe and Ito's colour-blind-safe
//! palette), a fill pattern and its name written in the bar where it fits, and every bar and
//! marker has a `<title>` (a tooltip) with its exact cycles. The text is deterministic (no
//! timestamps, fixed pattern ids) and every piece of outside text is escaped.

use std::fmt::Write as _;

use super::svg::{elide, escape, open, text, CHAR_W, FONT, GRID, INK, MARGIN, MIN_WIDTH};
use crate::bindings::vmem_pipe::testbench::Timing;

/// Height of one stage lane and of its bar.
const LANE: u32 = 12;
const BAR: u32 = 10;
/// Lanes per row, and the gap under a row.
const LANES: u32 = 5;
const GAP: u32 = 10;
const ROW: u32 = LANES * LANE + GAP;
/// Plot width the cycle width aims at, and the widest and narrowest cycle.
const PLOT: u32 = 1000;
const MAX_CYCLE_W: u32 = 16;
/// Longest row label, in characters (longer ones are elided; the whole text is its tooltip).
const MAX_LABEL: usize = 56;
/// Font size of the stage names in the bars and of a row's second line.
const SMALL: u32 = 9;
const MISS: &str = "#d55e00";

/// One stage: its lane's name, colour and pattern id.
struct Look {
    name: &'static str,
    counter: &'static str,
    colour: &'static str,
    id: &'static str,
    /// The pattern's strokes over the colour (in a 6 × 6 tile).
    strokes: &'static str,
}

const STAGES: [Look; 5] = [
    Look { name: "issue", counter: "issue_cycles", colour: "#56b4e9", id: "vmem-tl-issue", strokes: "" },
    Look {
        name: "TA",
        counter: "ta_cycles",
        colour: "#e69f00",
        id: "vmem-tl-ta",
        strokes: r##"<path d="M0,6 L6,0 M-1,1 L1,-1 M5,7 L7,5" stroke="#ffffff" stroke-width="1.2"/>"##,
    },
    Look {
        name: "TCP",
        counter: "tcp_cycles",
        colour: "#009e73",
        id: "vmem-tl-tcp",
        strokes: r##"<path d="M3,0 L3,6" stroke="#ffffff" stroke-width="1.2"/>"##,
    },
    Look {
        name: "L2",
        counter: "l2_cycles",
        colour: "#cc79a7",
        id: "vmem-tl-l2",
        strokes: r##"<path d="M0,0 L6,6 M6,0 L0,6" stroke="#ffffff" stroke-width="1"/>"##,
    },
    Look {
        name: "TD",
        counter: "td_cycles",
        colour: "#0072b2",
        id: "vmem-tl-td",
        strokes: r##"<path d="M0,3 L6,3" stroke="#ffffff" stroke-width="1.2"/>"##,
    },
];

/// What the header says about the run.
#[derive(Clone, Debug)]
pub struct Title {
    /// The exec file as given on the command line.
    pub file: String,
    /// How it ran: the backend and the testbench's options.
    pub how: String,
}

/// One instruction's stage spans `[first, last]` in lane order (`None`: the stage had no cycle),
/// checked against its counters.
fn spans(t: &Timing) -> Result<[Option<(u64, u64)>; 5], String> {
    let Some(s) = &t.stages else {
        return Err(format!(
            "instruction {}: the run recorded its counters but not its stage boundaries (the RTL alone \
             reports counters only; run the cycle model, --model or --both)",
            t.index
        ));
    };
    let lanes = [Some(s.issue), Some(s.ta), s.tcp, s.l2, s.td];
    let counters = [t.issue, t.ta, t.tcp, t.l2, t.td];
    for ((span, counter), look) in lanes.iter().zip(counters).zip(&STAGES) {
        let length = span.map_or(0, |(a, b)| b + 1 - a);
        if length as u16 != counter {
            return Err(format!(
                "instruction {}: its {} span {span:?} is {length} cycles but the pipeline reported {} = \
                 {counter}",
                t.index, look.name, look.counter
            ));
        }
    }
    if (s.issue.0, s.done) != (t.issued, t.done) {
        return Err(format!(
            "instruction {}: its stages run from {} to done at {}, the testbench saw {} to {}",
            t.index, s.issue.0, s.done, t.issued, t.done
        ));
    }
    Ok(lanes)
}

/// Cycles between axis ticks: 1, 2 or 5 times a power of ten, at least 48 px apart.
fn tick_step(cycle_w: u32) -> u64 {
    let mut unit = 1u64;
    loop {
        for m in [1, 2, 5] {
            if (m * unit) * u64::from(cycle_w) >= 48 {
                return m * unit;
            }
        }
        unit *= 10;
    }
}

/// The plot's geometry: x of cycle `first`'s left edge and the width of a cycle.
struct Plot {
    x0: u32,
    first: u64,
    cycle_w: u32,
}

impl Plot {
    /// x of cycle `c`'s left edge.
    fn x(&self, c: u64) -> u32 {
        self.x0 + (c - self.first) as u32 * self.cycle_w
    }
}

/// The SVG of a run's `timings` (program order), `texts` the program's instructions by index.
/// `Err` names the instruction whose recorded stages cannot be drawn.
pub fn render(title: &Title, timings: &[Timing], texts: &[String]) -> Result<String, String> {
    let lanes = timings.iter().map(spans).collect::<Result<Vec<_>, _>>()?;
    let first = timings.iter().map(|t| t.issued).min().unwrap_or(0);
    let last = timings.iter().map(|t| t.done).max().unwrap_or(0);
    let ncycles = (last + 1 - first) as u32;
    let cycle_w = (PLOT / ncycles.max(1)).clamp(1, MAX_CYCLE_W);

    let labels: Vec<String> =
        timings.iter().map(|t| format!("#{} {}", t.index, texts.get(t.index).map_or("", String::as_str))).collect();
    let label_w =
        labels.iter().map(|l| l.chars().count().min(MAX_LABEL) as u32).max().unwrap_or(8).max(16) * CHAR_W + 16;
    let plot = Plot { x0: MARGIN + label_w, first, cycle_w };
    let header = MARGIN + 3 * 16 + 8;
    let legend_y = header;
    let axis_y = legend_y + 28;
    let top = axis_y + 26;
    let height = top + ROW * timings.len() as u32 + MARGIN;
    let right = plot.x(last + 1);
    let width = (right + MARGIN + 8).max(MIN_WIDTH);

    let mut out = String::new();
    open(&mut out, width, height);
    defs(&mut out);
    draw_header(&mut out, title, timings, (first, last), width);
    draw_legend(&mut out, legend_y);
    draw_axis(&mut out, &plot, (first, last), axis_y, height - MARGIN);
    for (k, ((t, spans), label)) in timings.iter().zip(&lanes).zip(&labels).enumerate() {
        draw_row(&mut out, &plot, top + ROW * k as u32, t, spans, label);
    }
    out.push_str("</svg>\n");
    Ok(out)
}

/// The stages' fill patterns.
fn defs(out: &mut String) {
    out.push_str("<defs>\n");
    for l in &STAGES {
        writeln!(
            out,
            r#"<pattern id="{}" patternUnits="userSpaceOnUse" width="6" height="6"><rect width="6" height="6" fill="{}"/>{}</pattern>"#,
            l.id, l.colour, l.strokes
        )
        .unwrap();
    }
    out.push_str("</defs>\n");
}

fn draw_header(out: &mut String, title: &Title, timings: &[Timing], (first, last): (u64, u64), width: u32) {
    let max_chars = ((width - 2 * MARGIN) / CHAR_W) as usize;
    let mut y = MARGIN + 12;
    text(
        out,
        MARGIN,
        y,
        "start",
        r#" font-weight="bold""#,
        &elide(&format!("vmem_pipe timeline · {}", title.file), max_chars),
    );
    y += 16;
    let span = format!(
        "{} · {} VMEM instruction(s) · cycles {first} to {last} (first beat to last done)",
        title.how,
        timings.len()
    );
    text(out, MARGIN, y, "start", "", &elide(&span, max_chars));
    y += 16;
    text(
        out,
        MARGIN,
        y,
        "start",
        r##" fill="#555555""##,
        &elide(
            "one row per VMEM instruction; a bar spans a stage's first to last cycle, both included (its counter); \
             hover for exact cycles",
            max_chars,
        ),
    );
}

fn draw_legend(out: &mut String, y: u32) {
    let mut x = MARGIN;
    text(out, x, y + BAR, "start", r#" font-weight="bold""#, "legend:");
    x += 8 * CHAR_W + 8;
    let what = [
        "issue (SQ beats)",
        "TA (step stage)",
        "TCP (lookups)",
        "L2 (request to last response)",
        "TD (conversion, VGPR writes)",
    ];
    for (l, w) in STAGES.iter().zip(what) {
        writeln!(
            out,
            r#"<g class="legend"><rect x="{x}" y="{}" width="28" height="{BAR}" fill="url(#{})" stroke="{INK}" stroke-width="0.5"/>"#,
            y + 1,
            l.id
        )
        .unwrap();
        text(out, x + 34, y + BAR, "start", "", w);
        out.push_str("</g>\n");
        x += 34 + w.chars().count() as u32 * CHAR_W + 14;
    }
    miss_marker(out, x + 4, y + 1, "a miss: lookups that sent line reads");
    text(out, x + 14, y + BAR, "start", "", "miss");
    x += 14 + 4 * CHAR_W + 14;
    conflict_marker(out, x + 4, y + 1, "a bank conflict: a bundle's extra lookup cycles");
    text(out, x + 14, y + BAR, "start", "", "bank conflict");
    x += 14 + 13 * CHAR_W + 14;
    writeln!(
        out,
        r#"<g><title>done: the vmcnt decrement</title><line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{INK}" stroke-width="2"/></g>"#,
        x + 4,
        y,
        x + 4,
        y + BAR + 2
    )
    .unwrap();
    text(out, x + 10, y + BAR, "start", "", "done");
}

/// A downward triangle, `w` wide, its top-left at (`x` − 4, `y`).
fn miss_marker(out: &mut String, x: u32, y: u32, tip: &str) {
    writeln!(
        out,
        r#"<g class="miss"><title>{}</title><polygon points="{},{y} {},{y} {x},{}" fill="{MISS}" stroke="{INK}" stroke-width="0.5"/></g>"#,
        escape(tip),
        x - 4,
        x + 4,
        y + BAR
    )
    .unwrap();
}

/// A diamond centred on `x`, from `y` to `y` + [`BAR`].
fn conflict_marker(out: &mut String, x: u32, y: u32, tip: &str) {
    let mid = y + BAR / 2;
    writeln!(
        out,
        r##"<g class="conflict"><title>{}</title><polygon points="{x},{y} {},{mid} {x},{} {},{mid}" fill="#ffffff" stroke="{INK}" stroke-width="1.2"/></g>"##,
        escape(tip),
        x + 4,
        y + BAR,
        x - 4
    )
    .unwrap();
}

/// The cycle axis: a tick and its number every few cycles, a faint line down through the rows.
fn draw_axis(out: &mut String, plot: &Plot, (first, last): (u64, u64), y: u32, bottom: u32) {
    let step = tick_step(plot.cycle_w);
    text(out, plot.x0 - 8, y + 4, "end", r#" font-weight="bold""#, "cycle");
    writeln!(out, r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{INK}"/>"#, plot.x0, y + 8, plot.x(last + 1), y + 8)
        .unwrap();
    let mut c = first.div_ceil(step) * step;
    while c <= last + 1 {
        let x = plot.x(c);
        writeln!(out, r#"<line x1="{x}" y1="{}" x2="{x}" y2="{bottom}" stroke="{GRID}"/>"#, y + 12).unwrap();
        writeln!(out, r#"<line class="tick" x1="{x}" y1="{}" x2="{x}" y2="{}" stroke="{INK}"/>"#, y + 8, y + 13)
            .unwrap();
        text(out, x, y + 4, "middle", "", &c.to_string());
        c += step;
    }
}

/// One instruction's row at `y`.
fn draw_row(out: &mut String, plot: &Plot, y: u32, t: &Timing, spans: &[Option<(u64, u64)>; 5], label: &str) {
    let stages = t.stages.as_ref().expect("checked by spans");
    writeln!(out, r#"<g class="row" data-index="{}">"#, t.index).unwrap();
    // The label: index and text, then the total and the bound.
    writeln!(out, "<g><title>{}</title>", escape(label)).unwrap();
    text(out, plot.x0 - 8, y + 2 * LANE + 2, "end", "", &elide(label, MAX_LABEL));
    let second = format!("{} cycles, bound: {}", t.total, t.bound().name());
    text(out, plot.x0 - 8, y + 3 * LANE + 4, "end", &format!(r##" font-size="{SMALL}" fill="#555555""##), &second);
    out.push_str("</g>\n");
    // The instruction's lifetime, first beat to done, and the done tick.
    let mid = y + LANES * LANE / 2;
    let (a, d) = (plot.x(t.issued), plot.x(t.done) + plot.cycle_w / 2);
    writeln!(
        out,
        r##"<g class="life"><title>{}</title><line x1="{a}" y1="{mid}" x2="{d}" y2="{mid}" stroke="#999999"/><line class="done" x1="{d}" y1="{y}" x2="{d}" y2="{}" stroke="{INK}" stroke-width="2"/></g>"##,
        escape(&format!(
            "#{}: first beat at cycle {}, done at cycle {} ({} cycles, bound: {})",
            t.index,
            t.issued,
            t.done,
            t.total,
            t.bound().name()
        )),
        y + LANES * LANE - 2
    )
    .unwrap();
    for (lane, (span, look)) in spans.iter().zip(&STAGES).enumerate() {
        let Some((first, last)) = *span else { continue };
        let ly = y + lane as u32 * LANE + (LANE - BAR) / 2;
        let (x, w) = (plot.x(first), plot.x(last + 1) - plot.x(first));
        let n = last + 1 - first;
        let tip = format!("#{} {}: cycles {first} to {last} ({n} cycles, {} = {n})", t.index, look.name, look.counter);
        writeln!(
            out,
            r#"<g class="stage" data-stage="{}" data-first="{first}" data-last="{last}"><title>{}</title><rect x="{x}" y="{ly}" width="{w}" height="{BAR}" fill="url(#{})" stroke="{INK}" stroke-width="0.5"/>"#,
            look.name.to_lowercase(),
            escape(&tip),
            look.id
        )
        .unwrap();
        // The stage's name in the bar where it fits and no marker covers it (on a white ground,
        // so the pattern does not hide it), else just right of the bar.
        let name_w = look.name.len() as u32 * (CHAR_W * SMALL / FONT) + 4;
        let marked = lane == 2 && !(stages.misses.is_empty() && stages.conflicts.is_empty());
        if w < name_w + 2 || marked {
            text(out, x + w + 2, ly + BAR - 2, "start", &format!(r#" font-size="{}""#, SMALL - 1), look.name);
        } else {
            writeln!(
                out,
                r##"<rect x="{}" y="{}" width="{name_w}" height="{}" fill="#ffffff" fill-opacity="0.85"/>"##,
                x + 1,
                ly + 1,
                BAR - 2
            )
            .unwrap();
            text(out, x + 3, ly + BAR - 2, "start", &format!(r#" font-size="{}""#, SMALL - 1), look.name);
        }
        out.push_str("</g>\n");
    }
    // TCP events on the TCP lane.
    let ly = y + 2 * LANE + (LANE - BAR) / 2;
    for &(c, n) in &stages.misses {
        let tip = format!("#{} cycle {c}: {n} request(s) missed (line reads sent)", t.index);
        miss_marker(out, plot.x(c) + plot.cycle_w / 2, ly, &tip);
    }
    for &(c, n) in &stages.conflicts {
        let tip = format!("#{} cycle {c}: a bundle accepted with {n} bank-conflict cycle(s)", t.index);
        conflict_marker(out, plot.x(c) + plot.cycle_w / 2, ly, &tip);
    }
    out.push_str("</g>\n");
}

#[cfg(test)]
mod tests {
    use super::tick_step;

    #[test]
    fn ticks_are_at_least_48_px_apart() {
        for (cycle_w, want) in [(16, 5), (10, 5), (4, 20), (1, 50)] {
            assert_eq!(tick_step(cycle_w), want, "tick_step({cycle_w})");
        }
    }
}
