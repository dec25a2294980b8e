//! Cost model (SPEC §8, §13.2) against seed 003's performance tables.
//!
//! The expectations are the seed's own numbers, transcribed by hand into `tests/data/cost/*.tsv`
//! (each file's header comment names the seed lines and every interpretation made), without
//! reading the model: `issue.tsv` (the issue-bus table and its two prose examples),
//! `appendix_a.tsv` (appendix A, every row), `td_examples.tsv` (the TD rate examples) and
//! `ta_rates.tsv` (the TA rate table). Every test collects all failing rows and reports them in
//! one assertion, each with the file line and the seed's wording; each also checks the file's row
//! count, so a truncated file fails. `cli_cost_matches_library` feeds appendix A to
//! `gcn-vmem cost` as §13.2 JSON lines.

use crate::common;

use gcn_vmem_model::cost::{cost, Channel, ChannelKind, Cost, Fetch, Filter, Op, TexelFormat};
use std::collections::HashMap;
use std::str::FromStr;

// ---------------------------------------------------------------------------------------------
// The TSV files: `#` lines and blank lines are comments, the first other line is the header.
// ---------------------------------------------------------------------------------------------

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/cost/");

/// One data row of a TSV file: its 1-based line number and its cells by column name.
struct Row {
    file: &'static str,
    line: usize,
    cells: HashMap<String, String>,
}

impl Row {
    fn get(&self, column: &str) -> &str {
        match self.cells.get(column) {
            Some(cell) => cell,
            None => panic!("{}:{}: no column `{column}`", self.file, self.line),
        }
    }

    fn parse<T: FromStr>(&self, column: &str) -> T {
        let cell = self.get(column);
        match cell.parse() {
            Ok(v) => v,
            Err(_) => panic!("{}:{}: column `{column}`: cannot parse {cell:?}", self.file, self.line),
        }
    }

    /// A number, or `None` for the `-` the files use where the seed gives none.
    fn optional<T: FromStr>(&self, column: &str) -> Option<T> {
        if self.get(column) == "-" {
            None
        } else {
            Some(self.parse(column))
        }
    }

    /// `file:line`, for failure messages.
    fn at(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

fn table(file: &'static str) -> Vec<Row> {
    let path = format!("{DATA}{file}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut header: Option<Vec<String>> = None;
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let cells: Vec<&str> = line.split('\t').collect();
        match &header {
            None => header = Some(cells.iter().map(|c| c.to_string()).collect()),
            Some(names) => {
                assert_eq!(
                    cells.len(),
                    names.len(),
                    "{file}:{}: {} cells, the header has {} columns",
                    i + 1,
                    cells.len(),
                    names.len()
                );
                let cells = names.iter().cloned().zip(cells.iter().map(|c| c.to_string())).collect();
                rows.push(Row { file, line: i + 1, cells });
            }
        }
    }
    rows
}

/// `kind:bits` comma-separated, e.g. `fixed:5,fixed:6,fixed:5,fixed:1`.
fn channels(row: &Row) -> Vec<Channel> {
    row.get("channels")
        .split(',')
        .map(|c| {
            let (kind, bits) =
                c.split_once(':').unwrap_or_else(|| panic!("{}: channel {c:?} is not kind:bits", row.at()));
            let kind = ChannelKind::from_str(kind).unwrap_or_else(|_| panic!("{}: channel {c:?}: bad kind", row.at()));
            let bits = bits.parse().unwrap_or_else(|_| panic!("{}: channel {c:?}: bad bits", row.at()));
            Channel { kind, bits }
        })
        .collect()
}

/// The row's texel format, `None` where `bpp` is `-` (buffer rows).
fn format(row: &Row) -> Option<TexelFormat> {
    row.optional::<u32>("bpp").map(|bpp| TexelFormat { bpp, channels: channels(row) })
}

/// A filtered 2D texture fetch as appendix A and the TD/TA tables describe it: `image_sample`
/// with a T# and an S#, two address dwords (u, v), no data. Only filter, aniso and format vary.
fn texture_fetch(op: Op, filter: Filter, aniso: u32, format: TexelFormat) -> Fetch {
    Fetch {
        op,
        tsharp_bits: 128,
        sampler: true,
        address_dwords: 2,
        data_dwords: 0,
        filter,
        aniso,
        format: Some(format),
        single: false,
    }
}

/// A buffer access of the TA table: V# (128 bits), one address dword, one data dword for an
/// atomic, no format.
fn buffer_fetch(op: Op, single: bool) -> Fetch {
    let data_dwords = if matches!(op, Op::BufferAtomic | Op::BufferStore) { 1 } else { 0 };
    Fetch {
        op,
        tsharp_bits: 128,
        sampler: false,
        address_dwords: 1,
        data_dwords,
        filter: Filter::Point,
        aniso: 1,
        format: None,
        single,
    }
}

fn is_buffer(op: &Op) -> bool {
    matches!(op, Op::BufferLoad | Op::BufferStore | Op::BufferAtomic)
}

/// Equal as f64, up to rounding (every expected value is a small dyadic rational).
fn same(got: f64, want: f64) -> bool {
    (got - want).abs() <= 1e-9 * want.abs().max(1.0)
}

fn show(c: &Cost) -> String {
    format!(
        "command {} address {} data {} issue {} ta {} td {} cycles/wave {} fetches/clock {}",
        c.command_cycles,
        c.address_cycles,
        c.data_cycles,
        c.issue_cycles,
        c.ta_divisor,
        c.td_divisor,
        c.cycles_per_wave,
        c.fetches_per_clock
    )
}

/// Checks every row of `file` (each item of `rows`) with `check`, which returns the row's failure
/// message when it fails; then fails with every failing row listed, and when the file has not
/// `expected_rows` rows.
fn check_rows<T>(
    file: &str,
    expected_rows: usize,
    rows: impl IntoIterator<Item = T>,
    mut check: impl FnMut(T) -> Result<(), String>,
) {
    let mut failures = Vec::new();
    let mut count = 0;
    for row in rows {
        count += 1;
        if let Err(failure) = check(row) {
            failures.push(failure);
        }
    }
    let rows = count;
    assert!(
        failures.is_empty() && rows == expected_rows,
        "{file}: {} of {rows} rows fail{}:\n{}",
        failures.len(),
        if rows == expected_rows {
            String::new()
        } else {
            format!(" (and the file has {rows} rows, not {expected_rows}: truncated or edited?)")
        },
        failures.join("\n")
    );
}

/// A row's verdict: `Ok` when nothing is `wrong`, else its failure message, `who` (the row), every
/// wrong value and `context`.
fn verdict(who: &str, wrong: &[String], context: &str) -> Result<(), String> {
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(format!("{who}: {} ({context})", wrong.join(", ")))
    }
}

// ---------------------------------------------------------------------------------------------
// The tables.
// ---------------------------------------------------------------------------------------------

/// Seed 003's issue table (5 rows) and the SampleGrad()/Sample() prose examples (2 rows).
#[test]
fn issue_table() {
    check_rows("issue.tsv", 7, &table("issue.tsv"), |row| {
        let op: Op = row.parse("op");
        // Texture fetches need a filter and a format for the rest of the model; the issue cycles do
        // not depend on them: point, R8G8B8A8 (fixed:8 x4, 32 bpp).
        let format = matches!(op, Op::ImageSample | Op::ImageGather4).then(|| TexelFormat {
            bpp: 32,
            channels: (0..4).map(|_| Channel { kind: ChannelKind::Fixed, bits: 8 }).collect(),
        });
        let fetch = Fetch {
            op,
            tsharp_bits: row.parse("tsharp_bits"),
            sampler: row.parse("sampler"),
            address_dwords: row.parse("address_dwords"),
            data_dwords: row.parse("data_dwords"),
            filter: Filter::Point,
            aniso: 1,
            format,
            single: false,
        };
        let who = format!("{} {:?}", row.at(), row.get("seed_row"));
        let got = cost(&fetch).map_err(|e| format!("{who}: error {e}"))?;
        let mut wrong = Vec::new();
        let checks = [
            ("command", row.optional::<u32>("command"), got.command_cycles),
            ("address", row.optional::<u32>("address"), got.address_cycles),
            ("data", row.optional::<u32>("data"), got.data_cycles),
            ("total", Some(row.parse::<u32>("total")), got.issue_cycles),
        ];
        for (name, want, got) in checks {
            if let Some(want) = want {
                if got != want {
                    wrong.push(format!("{name} {got}, seed {want}"));
                }
            }
        }
        verdict(&who, &wrong, &show(&got))
    });
}

/// Builds appendix A's fetch for a row of `appendix_a.tsv`.
fn appendix_fetch(row: &Row) -> Fetch {
    let format = format(row).unwrap_or_else(|| panic!("{}: appendix A rows have a format", row.at()));
    texture_fetch(Op::ImageSample, row.parse("filter"), row.parse("aniso"), format)
}

fn appendix_who(row: &Row) -> String {
    format!("{} {} {}", row.at(), row.get("seed_filter"), row.get("seed_format"))
}

/// Seed 003's appendix A: fetches per clock (GPU-wide) and latency in the shader (cycles/wave).
#[test]
fn appendix_a() {
    check_rows("appendix_a.tsv", 83, &table("appendix_a.tsv"), |row| {
        let who = appendix_who(row);
        let got = cost(&appendix_fetch(row)).map_err(|e| format!("{who}: error {e}"))?;
        let fetches: f64 = row.parse("fetches_per_clock");
        let latency: f64 = row.parse("latency");
        let mut wrong = Vec::new();
        if !same(got.fetches_per_clock, fetches) || !same(got.cycles_per_wave, latency) {
            wrong.push(format!(
                "fetches/clock {} cycles/wave {}, seed {fetches} and {latency}",
                got.fetches_per_clock, got.cycles_per_wave
            ));
        }
        verdict(&who, &wrong, &show(&got))
    });
}

/// Seed 003's TD examples (simple bilinear fetches): the TD divisor.
#[test]
fn td_examples() {
    check_rows("td_examples.tsv", 12, &table("td_examples.tsv"), |row| {
        let who = format!("{} {:?} ({})", row.at(), row.get("seed_text"), row.get("channels"));
        let format = format(row).unwrap_or_else(|| panic!("{}: TD rows have a format", row.at()));
        let fetch = texture_fetch(Op::ImageSample, row.parse("filter"), 1, format);
        let got = cost(&fetch).map_err(|e| format!("{who}: error {e}"))?;
        let want: f64 = row.parse("td_divisor");
        let mut wrong = Vec::new();
        if !same(got.td_divisor, want) {
            wrong.push(format!("td_divisor {}, seed {want}", got.td_divisor));
        }
        verdict(&who, &wrong, &show(&got))
    });
}

/// Seed 003's TA table: cycles per wave; for texture rows (whose formats have TD <= TA, see the
/// file) also the TA divisor itself, cycles_per_wave / 16.
#[test]
fn ta_rates() {
    check_rows("ta_rates.tsv", 28, &table("ta_rates.tsv"), |row| {
        let op: Op = row.parse("op");
        let buffer = is_buffer(&op);
        let fetch = if buffer {
            buffer_fetch(op, row.parse("single"))
        } else {
            let format = format(row).unwrap_or_else(|| panic!("{}: texture rows have a format", row.at()));
            texture_fetch(op, row.parse("filter"), row.parse("aniso"), format)
        };
        let who = format!(
            "{} {:?} ({} aniso {} bpp {} {})",
            row.at(),
            row.get("seed_row"),
            row.get("filter"),
            row.get("aniso"),
            row.get("bpp"),
            row.get("channels")
        );
        let got = cost(&fetch).map_err(|e| format!("{who}: error {e}"))?;
        let want: f64 = row.parse("cycles_per_wave");
        let mut wrong = Vec::new();
        if !same(got.cycles_per_wave, want) {
            wrong.push(format!("cycles/wave {}, seed {want}", got.cycles_per_wave));
        }
        if !buffer && !same(got.ta_divisor, want / 16.0) {
            wrong.push(format!("ta_divisor {}, seed {}", got.ta_divisor, want / 16.0));
        }
        verdict(&who, &wrong, &show(&got))
    });
}

// ---------------------------------------------------------------------------------------------
// The command line (SPEC §13.2).
// ---------------------------------------------------------------------------------------------

/// Appendix A's row as a §13.2 input line (the same fetch as [`appendix_fetch`]).
fn appendix_json(row: &Row) -> String {
    let channels: Vec<serde_json::Value> = row
        .get("channels")
        .split(',')
        .map(|c| {
            let (kind, bits) = c.split_once(':').unwrap_or_else(|| panic!("{}: channel {c:?}", row.at()));
            serde_json::json!([kind, bits.parse::<u32>().unwrap()])
        })
        .collect();
    serde_json::json!({
        "op": "image_sample",
        "tsharp_bits": 128,
        "sampler": true,
        "address_dwords": 2,
        "data_dwords": 0,
        "filter": row.get("filter"),
        "aniso": row.parse::<u32>("aniso"),
        "format": {"bpp": row.parse::<u32>("bpp"), "channels": channels},
        "single": false,
    })
    .to_string()
}

/// `gcn-vmem cost` answers every appendix-A row with the seed's fetches per clock and cycles per
/// wave, and with the library's issue cycles, divisors and rates.
#[test]
fn cli_cost_matches_library() {
    let rows = table("appendix_a.tsv");
    let input: String = rows.iter().map(|row| appendix_json(row) + "\n").collect();
    let (code, stdout, stderr) = common::gcn_vmem(&["cost"], &input);
    assert_eq!(code, 0, "gcn-vmem cost exited with {code}:\n{stderr}\n{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), rows.len(), "one output line per input line:\n{stdout}\n{stderr}");

    check_rows("appendix_a.tsv via gcn-vmem cost", 83, rows.iter().zip(&lines), |(row, line)| {
        let who = appendix_who(row);
        let json: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("{who}: output {line:?} is not JSON: {e}"))?;
        let field = |name: &str| json.get(name).and_then(serde_json::Value::as_f64);
        let mut wrong = Vec::new();
        // The seed's numbers.
        let seed = [("fetches_per_clock", "fetches_per_clock"), ("cycles_per_wave", "latency")];
        for (name, column) in seed {
            let want: f64 = row.parse(column);
            match field(name) {
                Some(got) if same(got, want) => {}
                got => wrong.push(format!("{name} {got:?}, seed {want}")),
            }
        }
        // The library's answer for the same fetch.
        match cost(&appendix_fetch(row)) {
            Ok(lib) => {
                let library = [
                    ("issue_cycles", f64::from(lib.issue_cycles)),
                    ("ta_divisor", lib.ta_divisor),
                    ("td_divisor", lib.td_divisor),
                    ("cycles_per_wave", lib.cycles_per_wave),
                    ("fetches_per_clock", lib.fetches_per_clock),
                ];
                for (name, want) in library {
                    match field(name) {
                        Some(got) if same(got, want) => {}
                        got => wrong.push(format!("{name} {got:?}, library {want}")),
                    }
                }
            }
            Err(e) => wrong.push(format!("library error {e}")),
        }
        verdict(&who, &wrong, &format!("output {line}"))
    });
}

/// Bad lines get `{"error": "line N: …"}` naming the field or the combination; the other lines
/// still run; the exit status is 1 (SPEC §13, §13.2).
#[test]
fn cli_errors_name_the_field() {
    let lines = [
        (r#"{"op":"buffer_load","address_dwords":1,"data_dwords":0,"single":true}"#, None),
        (r#"{"op":"buffer_load","address_dwords":1,"data_dwords":0}"#, Some("`single`")),
        (r#"{"op":"buffer_load","address_dwords":1,"data_dwords":0,"single":true,"glc":true}"#, Some("`glc`")),
        (r#"{"op":"image_fetch","address_dwords":1,"data_dwords":0}"#, Some("`op`")),
        (
            r#"{"op":"image_load","tsharp_bits":192,"sampler":false,"address_dwords":2,"data_dwords":0}"#,
            Some("128 or 256"),
        ),
        (r#"{"op":"image_load","tsharp_bits":128,"sampler":true,"address_dwords":2,"data_dwords":0}"#, Some("S#")),
        (
            r#"{"op":"image_sample","tsharp_bits":128,"sampler":true,"address_dwords":2,"data_dwords":0,"filter":"bilinear"}"#,
            Some("format"),
        ),
        (
            r#"{"op":"image_sample","tsharp_bits":128,"sampler":true,"address_dwords":2,"data_dwords":0,"filter":"point","aniso":4}"#,
            Some("aniso"),
        ),
        (
            r#"{"op":"image_sample","tsharp_bits":128,"sampler":true,"address_dwords":2,"data_dwords":0,"filter":"bilinear","format":{"bpp":32,"channels":[["fixed",8],["float",0]]}}"#,
            Some("channel 1"),
        ),
        ("not json", Some("malformed JSON")),
    ];
    let input: Vec<&str> = lines.iter().map(|(l, _)| *l).collect();
    let (code, stdout, _) = common::gcn_vmem(&["cost"], &input.join("\n"));
    assert_eq!(code, 1);
    let replies: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(replies.len(), lines.len());
    for (n, ((_, want), reply)) in lines.iter().zip(&replies).enumerate() {
        match want {
            None => assert_eq!(reply["cycles_per_wave"], 4, "line {}: {reply}", n + 1),
            Some(text) => {
                let error = reply["error"].as_str().unwrap_or_else(|| panic!("line {}: {reply}", n + 1));
                assert!(
                    error.starts_with(&format!("line {}:", n + 1)) && error.contains(text),
                    "line {}: {error}",
                    n + 1
                );
            }
        }
    }
}
