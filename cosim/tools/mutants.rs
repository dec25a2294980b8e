//! `gcn-vmem mutants` / `make mutants`: mutation testing of the RTL against the lockstep suite.
//!
//! Each mutant is one of the unit's own files ([`files`]: rtl/<unit>.sv, and for the pipeline its
//! sub-blocks rtl/vmem_pipe_*.sv; and the regions of rtl/*_pkg.sv marked as the unit's,
//! [`package_regions`]) with one small edit — an operator swapped, a comparison moved by
//! one, a constant ±1, a condition inverted, a term dropped, an assertion weakened — the kinds of
//! slip an RTL edit makes. A mutant is *killed* when `gcn-vmem cosim --unit <unit>` at the default
//! budget fails on it (a mismatch or an assertion; for the pipeline, whose runs are random
//! programs, also a hang or a result the executor disagrees with), *survives* when the run
//! passes, and *did not build* when Verilator or the C++ compiler rejects it. A survivor is either a hole in the
//! stimulus or checks, or an equivalent mutant; equivalent ones are listed with their reason in
//! rtl/lint/equivalent_mutants.txt (reviewed, so the report is reproducible).
//!
//! The mutants are built in a git worktree of this checkout (target/mutants/wt, its own target
//! directory), where build.rs's per-unit keys rebuild only the mutated unit: each mutant costs one
//! unit's re-verilation, an incremental link and the run.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::Context as _;

use crate::engine::rtl_sources;

/// One mutant: a single edit of one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mutant {
    /// Stable name: a hash of the line's text, the operator and the occurrence (and of the file's
    /// name for a file other than rtl/<unit>.sv).
    pub id: String,
    /// The file edited, relative to the checkout (`rtl/vmem_pipe_tcp.sv`); empty from [`generate`].
    pub file: String,
    /// 1-based line of `file`.
    pub line: usize,
    pub operator: &'static str,
    pub before: String,
    pub after: String,
}

/// Text replacements: (operator name, from, to). Spaces around the operators keep them from
/// matching inside longer tokens (`<=` in `<<=`, `&` in `&&`).
const SWAPS: &[(&str, &str, &str)] = &[
    ("== -> !=", " == ", " != "),
    ("!= -> ==", " != ", " == "),
    ("< -> <=", " < ", " <= "),
    ("> -> >=", " > ", " >= "),
    (">= -> >", " >= ", " > "),
    ("&& -> ||", " && ", " || "),
    ("|| -> &&", " || ", " && "),
    ("& -> |", " & ", " | "),
    ("| -> &", " | ", " & "),
    ("^ -> &", " ^ ", " & "),
    ("+ -> -", " + ", " - "),
    ("- -> +", " - ", " + "),
    ("<< -> >>", " << ", " >> "),
    (">> -> <<", " >> ", " << "),
    ("1'b1 -> 1'b0", "1'b1", "1'b0"),
    ("1'b0 -> 1'b1", "1'b0", "1'b1"),
    ("drop ~", "~", ""),
    ("drop !", "!(", "("),
    ("negate if", "if (", "if (!"),
];

/// Whether a line is code a mutant may touch (not a comment, not a declaration-only line of the
/// port list or a typedef, not the module header, not a test hook point, which is nothing in the
/// design: rtl/vmem_prim_pkg.sv `VMEM_TEST_HOOK`).
fn mutable(code: &str) -> bool {
    let t = code.trim();
    !(t.is_empty()
        || t.starts_with("//")
        || t.starts_with("input ")
        || t.starts_with("output ")
        || t.starts_with("module ")
        || t.starts_with("import ")
        || t.starts_with("typedef ")
        || t.starts_with("`include")
        || t.starts_with("`VMEM_TEST_HOOK")
        || t.starts_with("parameter "))
}

fn fnv(text: &str) -> u64 {
    crate::engine::stimulus::hash(text.as_bytes())
}

/// Every mutant of `source` (an RTL file), in line order.
pub fn generate(source: &str) -> Vec<Mutant> {
    generate_file(source, "", false)
}

/// Every mutant of `source`, the text of `file`, in line order. `salted`: the file's name is
/// mixed into the ids (every file of a unit but rtl/<unit>.sv, whose ids are unsalted, as a
/// one-file unit's), so that identical lines of two files of a unit get different ids.
pub fn generate_file(source: &str, file: &str, salted: bool) -> Vec<Mutant> {
    let mut mutants = Vec::new();
    let mut in_block_comment = false;
    // Lines of identical text seen so far: the k-th repeat of a line (k > 0) mixes k into its
    // mutants' ids, which otherwise hash only the text, so that the ids stay put when other
    // lines move and still tell two identical lines apart.
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (n, line) in source.lines().enumerate() {
        let repeat = {
            let count = seen.entry(line).or_insert(0);
            *count += 1;
            *count - 1
        };
        // Code only: drop a trailing `//` comment and skip `/* … */` blocks.
        let trimmed = line.trim_start();
        if in_block_comment {
            in_block_comment = !line.contains("*/");
            continue;
        }
        if trimmed.starts_with("/*") {
            in_block_comment = !line.contains("*/");
            continue;
        }
        let code_end = line.find("//").unwrap_or(line.len());
        let (code, comment) = line.split_at(code_end);
        if !mutable(code) {
            continue;
        }
        let mut push = |operator: &'static str, occurrence: usize, after_code: String| {
            let after = format!("{after_code}{comment}");
            if after != line {
                let mut key = match repeat {
                    0 => format!("{line}\u{0}{operator}\u{0}{occurrence}"),
                    k => format!("{line}\u{0}{operator}\u{0}{occurrence}\u{0}{k}"),
                };
                if salted {
                    key = format!("{file}\u{0}{key}");
                }
                let mut id = format!("{:08x}", fnv(&key) & 0xffff_ffff);
                // Two edits of one line under one operator name and occurrence (a term dropped
                // after `&&` and after `||`, both the first of their kind): the later one's id
                // also hashes its edited text; the first keeps the id it always had.
                if mutants.iter().any(|m: &Mutant| m.id == id) {
                    id = format!("{:08x}", fnv(&format!("{key}\u{0}{after}")) & 0xffff_ffff);
                }
                let file = file.to_string();
                mutants.push(Mutant { id, file, line: n + 1, operator, before: line.to_string(), after });
            }
        };
        for &(operator, from, to) in SWAPS {
            for (k, (at, _)) in code.match_indices(from).enumerate() {
                // `!=` is not a negation, `~^` is not a lone `~`.
                if from == "~" && code[at + 1..].starts_with('^') {
                    continue;
                }
                let mut after = String::with_capacity(code.len() + 2);
                after.push_str(&code[..at]);
                after.push_str(to);
                after.push_str(&code[at + from.len()..]);
                push(operator, k, after);
            }
        }
        // Dropped terms: `a OP b` -> `a` for the bitwise, logical and additive operators.
        for from in [" & ", " | ", " ^ ", " && ", " || ", " + "] {
            for (k, (at, _)) in code.match_indices(from).enumerate() {
                let rest = &code[at + from.len()..];
                if let Some(len) = operand_len(rest) {
                    push("drop term", k, format!("{}{}", &code[..at], &rest[len..]));
                }
            }
        }
        // Bit-slice shifts: a constant part-select `x[H:L]` moved up or down by one bit. Only a
        // select (right after a name or a closing bracket): the range of a declaration
        // (`logic [31:0] x`) only numbers the bits.
        for (k, (at, _)) in code.match_indices('[').enumerate() {
            let selects =
                code[..at].bytes().last().is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b']' | b')'));
            if !selects {
                continue;
            }
            let Some(close) = code[at..].find(']').map(|c| at + c) else { continue };
            let Some((hi, lo)) = code[at + 1..close].split_once(':') else { continue };
            let (Ok(hi), Ok(lo)) = (hi.trim().parse::<u64>(), lo.trim().parse::<u64>()) else { continue };
            if hi < lo {
                continue;
            }
            push("slice up", k, format!("{}[{}:{}]{}", &code[..at], hi + 1, lo + 1, &code[close + 1..]));
            if lo > 0 {
                push("slice down", k, format!("{}[{}:{}]{}", &code[..at], hi - 1, lo - 1, &code[close + 1..]));
            }
        }
        // Sized decimal constants N'dK -> K + 1 and K - 1.
        for (k, (at, m)) in code.match_indices("'d").enumerate() {
            let digits: String = code[at + m.len()..].chars().take_while(char::is_ascii_digit).collect();
            let Ok(value) = digits.parse::<u64>() else { continue };
            let start = at + m.len();
            let end = start + digits.len();
            for (operator, v) in [("const + 1", value.checked_add(1)), ("const - 1", value.checked_sub(1))] {
                if let Some(v) = v {
                    push(operator, k, format!("{}{v}{}", &code[..start], &code[end..]));
                }
            }
        }
    }
    mutants
}

/// The length of the operand that opens `text`: an optional `~`/`!`, then a parenthesised or
/// braced group, or a name or literal (`a_q`, `8'hff`, `'0`, `f(x)`), then its selects and
/// fields (`a.b[3:0]`); `None` when `text` opens with something else.
fn operand_len(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'\'' | b'$');
    let mut i = 0;
    while i < b.len() && matches!(b[i], b'~' | b'!') {
        i += 1;
    }
    let start = i;
    if i < b.len() && matches!(b[i], b'(' | b'{') {
        i = closing(b, i)? + 1;
    } else {
        while i < b.len() && word(b[i]) {
            i += 1;
        }
        if i == start {
            return None;
        }
        if i < b.len() && b[i] == b'(' {
            i = closing(b, i)? + 1;
        }
    }
    loop {
        if i < b.len() && b[i] == b'[' {
            i = closing(b, i)? + 1;
        } else if i + 1 < b.len() && b[i] == b'.' && word(b[i + 1]) {
            i += 1;
            while i < b.len() && word(b[i]) {
                i += 1;
            }
        } else {
            return Some(i);
        }
    }
}

/// The index of the bracket that closes the one at `open` (any of `()`, `[]`, `{}` nest).
fn closing(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &c) in b.iter().enumerate().skip(open) {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The files a unit's mutants edit, relative to the checkout `root`: rtl/<unit>.sv, then the
/// modules it instantiates that are not units themselves (the pipeline's sub-blocks
/// rtl/vmem_pipe_rf.sv, _ta, _tcp, _tcp_bank, _tcp_ram, _td), sorted. A unit it instantiates (the
/// pipeline's buffer_addr, swizzle, …) is mutated in that unit's own run, against its own
/// lockstep suite.
pub fn files(root: &Path, unit: &str) -> anyhow::Result<Vec<String>> {
    let own = format!("rtl/{unit}.sv");
    anyhow::ensure!(root.join(&own).is_file(), "{own} does not exist under {}", root.display());
    let mut blocks: Vec<String> = rtl_sources::submodules(&root.join("rtl"), unit)?
        .into_iter()
        .filter(|f| f.strip_suffix(".sv").is_some_and(|m| !crate::bindings::UNITS.contains(&m)))
        .map(|f| format!("rtl/{f}"))
        .collect();
    blocks.sort();
    Ok(std::iter::once(own).chain(blocks).collect())
}

/// Files and their texts: (path relative to the checkout, text).
pub type Texts = Vec<(String, String)>;

/// Every mutant of the unit's [`files`], file by file in that order, then of the package regions
/// marked as the unit's ([`package_regions`]), with the files' texts.
pub fn unit_mutants(root: &Path, unit: &str) -> anyhow::Result<(Texts, Vec<Mutant>)> {
    let mut texts = Vec::new();
    let mut mutants = Vec::new();
    for (k, file) in files(root, unit)?.into_iter().enumerate() {
        let text = std::fs::read_to_string(root.join(&file)).with_context(|| format!("cannot read {file}"))?;
        mutants.extend(generate_file(&text, &file, k > 0));
        texts.push((file, text));
    }
    for name in rtl_sources::packages(&root.join("rtl"))? {
        let file = format!("rtl/{name}");
        let text = std::fs::read_to_string(root.join(&file)).with_context(|| format!("cannot read {file}"))?;
        let region = package_regions(&text, unit);
        if region.lines().any(|l| !l.is_empty()) {
            mutants.extend(generate_file(&region, &file, true));
            texts.push((file, text));
        }
    }
    Ok((texts, mutants))
}

/// The lines of a package that `unit`'s mutants edit: those between a line `// mutants: <unit>`
/// and the next `// mutants: end` (a function a unit delegates to a package, e.g. format_unpack's
/// `vmem_fp_pkg::unpack_component`, which the pipeline's TD calls too). Every other line is
/// blanked, so line numbers stay the file's.
pub fn package_regions(text: &str, unit: &str) -> String {
    let open = format!("// mutants: {unit}");
    let mut inside = false;
    let mut out = Vec::new();
    for line in text.lines() {
        let marker = line.trim();
        if marker == "// mutants: end" {
            inside = false;
            out.push("");
        } else if marker.starts_with("// mutants: ") {
            inside = marker == open;
            out.push("");
        } else {
            out.push(if inside { line } else { "" });
        }
    }
    out.join("\n")
}

/// Whether a line of `cosim`'s output reports a failure of the run: a lockstep `MISMATCH`, a
/// failed `ASSERTION`, or (the pipeline's random programs) a `PIPELINE` failure: a mismatch found
/// in a program, a hang, or a result the executor disagrees with.
pub fn is_failure_line(line: &str) -> bool {
    ["MISMATCH ", "ASSERTION ", "PIPELINE "].iter().any(|p| line.starts_with(p))
}

/// The assertion names of `cosim`'s `ASSERTION` lines (their `assertion=<name>` field), in a set.
pub fn assertions_reported(stdout: &str) -> std::collections::BTreeSet<String> {
    stdout
        .lines()
        .filter(|l| l.starts_with("ASSERTION "))
        .filter_map(|l| l.split_whitespace().find_map(|w| w.strip_prefix("assertion=")).map(str::to_string))
        .collect()
}

/// Mutant ids judged equivalent, with their reasons, from the reviewed list (lines
/// `<unit> <id> <reason…>`; `#` comments).
pub fn equivalent(list: &str, unit: &str) -> Vec<(String, String)> {
    list.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .filter_map(|l| {
            let mut words = l.splitn(3, char::is_whitespace);
            match (words.next(), words.next(), words.next()) {
                (Some(u), Some(id), Some(reason)) if u == unit => Some((id.to_string(), reason.trim().to_string())),
                _ => None,
            }
        })
        .collect()
}

/// At most `max` mutants, evenly spaced in each file (deterministic). Over several files each
/// file gets a share in proportion to its mutants and, when `max` allows, at least one, so that
/// a small file (the TCP's data array) is not left out of a sample.
pub fn sample(mutants: Vec<Mutant>, max: usize) -> Vec<Mutant> {
    if mutants.len() <= max || max == 0 {
        return mutants;
    }
    let mut files: Vec<(&str, Vec<&Mutant>)> = Vec::new();
    for m in &mutants {
        match files.iter_mut().find(|(f, _)| *f == m.file) {
            Some((_, list)) => list.push(m),
            None => files.push((m.file.as_str(), vec![m])),
        }
    }
    let total = mutants.len();
    let floor = usize::from(max >= files.len());
    let mut quota: Vec<usize> =
        files.iter().map(|(_, list)| (max * list.len() / total).max(floor).min(list.len())).collect();
    // Trim the largest shares down to `max`, then give what is left to the largest files.
    while quota.iter().sum::<usize>() > max {
        let i = (0..quota.len()).max_by_key(|&i| quota[i]).unwrap_or(0);
        quota[i] -= 1;
    }
    while quota.iter().sum::<usize>() < max {
        let Some(i) =
            (0..quota.len()).filter(|&i| quota[i] < files[i].1.len()).max_by_key(|&i| files[i].1.len() - quota[i])
        else {
            break;
        };
        quota[i] += 1;
    }
    let mut out = Vec::new();
    for ((_, list), q) in files.iter().zip(quota) {
        if q == 0 {
            continue;
        }
        let step = list.len() as f64 / q as f64;
        out.extend((0..q).map(|i| list[(i as f64 * step) as usize].clone()));
    }
    out
}

/// How one mutant ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The first failure line of the run.
    Killed(String),
    Survived,
    /// The compiler's or Verilator's first error line.
    DidNotBuild(String),
    Equivalent(String),
}

/// Settings of a mutation run.
#[derive(Clone, Debug)]
pub struct Config {
    pub unit: String,
    pub max: usize,
    pub vectors: u64,
    pub seed: u64,
    /// The checkout (its rtl/ is what gets mutated).
    pub root: PathBuf,
    /// Mutants built and run at once, each in its own worktree and target directory.
    pub jobs: usize,
    /// Only mutants whose operator name contains one of these (all when empty).
    pub operators: Vec<String>,
}

fn run_quiet(cmd: &mut Command) -> anyhow::Result<std::process::Output> {
    cmd.output().with_context(|| format!("cannot run {cmd:?}"))
}

/// Worker `k`'s worktree (target/mutants/wt, wt-1, wt-2, …) and its target directory: made
/// (or reset to HEAD) with this checkout's rtl/ copied in.
fn worktree(root: &Path, k: usize) -> anyhow::Result<(PathBuf, PathBuf)> {
    let dir = root.join("target").join("mutants");
    let (wt, target) = match k {
        0 => (dir.join("wt"), dir.join("target")),
        k => (dir.join(format!("wt-{k}")), dir.join(format!("target-{k}"))),
    };
    if !wt.join(".git").exists() {
        let out =
            run_quiet(Command::new("git").current_dir(root).args(["worktree", "add", "--detach", "-f"]).arg(&wt))?;
        anyhow::ensure!(out.status.success(), "git worktree add failed: {}", String::from_utf8_lossy(&out.stderr));
    } else {
        let head = run_quiet(Command::new("git").current_dir(root).args(["rev-parse", "HEAD"]))?;
        let head = String::from_utf8_lossy(&head.stdout).trim().to_string();
        let out = run_quiet(Command::new("git").current_dir(&wt).args(["checkout", "--detach", "-f", &head]))?;
        anyhow::ensure!(
            out.status.success(),
            "cannot reset {}: {}",
            wt.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // The RTL under test is this checkout's, committed or not, with its test hooks (rtl/test/:
    // the break-asserts build that judges a surviving mutant compiles them).
    for path in rtl_sources::sv_files(&root.join("rtl"))? {
        std::fs::copy(&path, wt.join("rtl").join(path.file_name().unwrap()))?;
    }
    let hooks = root.join("rtl").join("test");
    if hooks.is_dir() {
        std::fs::create_dir_all(wt.join("rtl").join("test"))?;
        for entry in std::fs::read_dir(&hooks)? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "svh") {
                std::fs::copy(&path, wt.join("rtl").join("test").join(path.file_name().unwrap()))?;
            }
        }
    }
    Ok((wt, target))
}

fn build(wt: &Path, target: &Path, unit: &str) -> anyhow::Result<Result<(), String>> {
    // Every worker's builds share one cache of Verilated units (build.rs): the units a mutant
    // does not touch are built once for the whole run, only the mutated unit per mutant. The
    // build is of the unit alone (GCN_VMEM_UNITS): a mutant of a package region would otherwise
    // rebuild every unit that reads the package, the pipeline included.
    let cache = target.parent().unwrap_or(target).join("verilated");
    let out = run_quiet(
        Command::new("cargo")
            .current_dir(wt)
            .env("CARGO_TARGET_DIR", target)
            .env("GCN_VMEM_VERILATED_CACHE", cache)
            .env("GCN_VMEM_UNITS", unit)
            .args(["build", "--release", "--quiet"]),
    )?;
    if out.status.success() {
        return Ok(Ok(()));
    }
    let text = String::from_utf8_lossy(&out.stderr);
    let first = text
        .lines()
        .find(|l| l.contains("%Error") || l.contains("error"))
        .unwrap_or("the build failed")
        .trim()
        .to_string();
    Ok(Err(first))
}

/// The budget of the `cosim --break-asserts` run that lists the assertions a build fires:
/// (vectors, max failures). 20,000 vectors for a unit of random vectors; for a closed-loop unit
/// (the pipeline), whose break-asserts build corrupts one assertion's value per program (picked by
/// the program's V#, 37 of 64 keys) and whose run stops a program at its first failure, the
/// mutant run's own budget of programs, every one of which may fail.
pub fn break_asserts_budget(unit: &str, vectors: u64) -> (u64, u64) {
    if crate::bindings::properties(unit).is_some_and(|p| p.closed_loop) {
        (vectors, crate::engine::policy::pipe_programs(vectors))
    } else {
        (20_000, 100)
    }
}

/// The names of the assertions a short `cosim --break-asserts` run of the worktree's binary
/// reports (every unit's break-asserts build, its test hook rtl/test/<unit>_brk.svh compiled in,
/// corrupts its registers so that each assertion fails on some input).
fn fired_assertions(
    binary: &Path,
    config: &Config,
    worker: usize,
) -> anyhow::Result<std::collections::BTreeSet<String>> {
    let (vectors, max_failures) = break_asserts_budget(&config.unit, config.vectors);
    let out = run_quiet(
        Command::new(binary)
            .args(["cosim", "--unit", &config.unit, "--break-asserts", "--no-progress", "--no-shrink"])
            .args(["--vectors", &vectors.to_string(), "--max-failures", &max_failures.to_string()])
            .args(["--seed", &config.seed.to_string()])
            .args(["--jobs", &run_jobs(config).to_string()])
            .arg("--artifacts")
            .arg(config.root.join("target").join("mutants").join("artifacts").join(format!("break-asserts-{worker}"))),
    )?;
    Ok(assertions_reported(&String::from_utf8_lossy(&out.stdout)))
}

/// X runs after each mutant's random run (`cosim --x-seeds`, budget/n vectors each): a mutant
/// that reads past the end of an array reads 0 under Verilator's defaults but a random value
/// on an instance with random X (`make cosim XSEEDS=n`), as synthesis would leave it undefined.
const X_SEEDS: &str = "2";

/// Threads of each `cosim` run: the machine's cores shared among the mutant workers.
fn run_jobs(config: &Config) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (cores / config.jobs.max(1)).max(1)
}

/// One worker's mutant: mutate, build, run, judge.
fn judge(
    m: &Mutant,
    original: &str,
    config: &Config,
    wt: &Path,
    target: &Path,
    worker: usize,
    baseline: &std::collections::BTreeSet<String>,
) -> anyhow::Result<Verdict> {
    let file = &m.file;
    let mut lines: Vec<&str> = original.lines().collect();
    anyhow::ensure!(
        (1..=lines.len()).contains(&m.line),
        "mutant {} names line {} of {file}, which has {} lines",
        m.id,
        m.line,
        lines.len()
    );
    lines[m.line - 1] = &m.after;
    std::fs::write(wt.join(file), lines.join("\n") + "\n")?;
    let verdict = match build(wt, target, &config.unit)? {
        Err(e) => Verdict::DidNotBuild(e),
        Ok(()) => {
            let binary = target.join("release").join("gcn-vmem");
            let artifacts = config.root.join("target").join("mutants").join("artifacts").join(&m.id);
            let out = run_quiet(
                Command::new(&binary)
                    .args(["cosim", "--unit", &config.unit, "--no-progress", "--max-failures", "1", "--no-shrink"])
                    .args(["--vectors", &config.vectors.to_string(), "--seed", &config.seed.to_string()])
                    .args(["--x-seeds", X_SEEDS])
                    .args(["--jobs", &run_jobs(config).to_string()])
                    .arg("--artifacts")
                    .arg(&artifacts),
            )?;
            let stdout = String::from_utf8_lossy(&out.stdout);
            let failure = stdout.lines().find(|l| is_failure_line(l));
            match (out.status.code(), failure) {
                (Some(0), _) => {
                    let fired = fired_assertions(&binary, config, worker)?;
                    match baseline.iter().find(|a| !fired.contains(*a)) {
                        Some(a) => Verdict::Killed(format!(
                            "assertion {a} no longer fires on the --break-asserts build (the property was weakened)"
                        )),
                        None => Verdict::Survived,
                    }
                }
                (Some(1), Some(line)) => Verdict::Killed(line.split(" | ").next().unwrap_or(line).to_string()),
                _ => Verdict::DidNotBuild(format!(
                    "the run ended without a mismatch or an assertion (exit {:?}): {}",
                    out.status.code(),
                    String::from_utf8_lossy(&out.stderr).lines().next().unwrap_or("")
                )),
            }
        }
    };
    std::fs::write(wt.join(file), original)?;
    Ok(verdict)
}

/// Runs every sampled mutant of the unit, `config.jobs` at a time; prints a line per mutant as it
/// ends and returns the report text (counts, then each survivor with its diff).
pub fn run(config: &Config) -> anyhow::Result<(String, bool)> {
    let unit = &config.unit;
    let (texts, mut all) = unit_mutants(&config.root, unit)?;
    let names: Vec<&str> = texts.iter().map(|(f, _)| f.as_str()).collect();
    let list = std::fs::read_to_string(config.root.join("rtl/lint/equivalent_mutants.txt")).unwrap_or_default();
    let equivalents = equivalent(&list, unit);
    if !config.operators.is_empty() {
        all.retain(|m| config.operators.iter().any(|o| m.operator.contains(o.as_str())));
    }
    let total = all.len();
    let mutants = sample(all, config.max);
    let jobs = config.jobs.clamp(1, mutants.len().max(1));
    println!(
        "mutants of {}: {total} generated, {} run, {jobs} at a time (each in its own worktree under target/mutants/) …",
        names.join(", "),
        mutants.len()
    );
    let (wt, target) = worktree(&config.root, 0)?;
    if let Err(e) = build(&wt, &target, unit)? {
        anyhow::bail!("the unmutated worktree does not build: {e}");
    }
    let binary = target.join("release").join("gcn-vmem");
    // A mutant is killed only against a run the unmutated RTL passes.
    let out = run_quiet(
        Command::new(&binary)
            .args(["cosim", "--unit", unit, "--no-progress", "--max-failures", "1", "--no-shrink"])
            .args(["--vectors", &config.vectors.to_string(), "--seed", &config.seed.to_string()])
            .args(["--x-seeds", X_SEEDS])
            .arg("--artifacts")
            .arg(config.root.join("target").join("mutants").join("artifacts").join("unmutated")),
    )?;
    anyhow::ensure!(
        out.status.success(),
        "the unmutated {unit} fails its own run, so no mutant can be judged; fix it first:\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // The assertions the break-asserts build fires before any mutation: a mutant that silences
    // one of them (a weakened property) is killed even though the outputs never changed.
    let baseline = fired_assertions(&binary, config, 0)?;
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::atomic::AtomicUsize::new(0);
    let verdicts: std::sync::Mutex<Vec<Option<Verdict>>> = std::sync::Mutex::new(vec![None; mutants.len()]);
    let first_error = std::sync::Mutex::new(None);
    std::thread::scope(|scope| {
        for worker in 0..jobs {
            let (mutants, equivalents, texts, baseline, next, done, verdicts, first_error) =
                (&mutants, &equivalents, &texts, &baseline, &next, &done, &verdicts, &first_error);
            scope.spawn(move || {
                let work = || -> anyhow::Result<()> {
                    let (wt, target) = worktree(&config.root, worker)?;
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(m) = mutants.get(i) else { return Ok(()) };
                        let verdict = match equivalents.iter().find(|(id, _)| *id == m.id) {
                            Some((_, reason)) => Verdict::Equivalent(reason.clone()),
                            None => {
                                let original = texts
                                    .iter()
                                    .find(|(f, _)| *f == m.file)
                                    .map(|(_, t)| t.as_str())
                                    .with_context(|| format!("mutant {} of an unread file {}", m.id, m.file))?;
                                judge(m, original, config, &wt, &target, worker, baseline)?
                            }
                        };
                        let tag = match &verdict {
                            Verdict::Killed(_) => "killed",
                            Verdict::Survived => "SURVIVED",
                            Verdict::DidNotBuild(_) => "did not build",
                            Verdict::Equivalent(_) => "equivalent",
                        };
                        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                        println!("[{n}/{}] {} {}:{} {}: {tag}", mutants.len(), m.id, m.file, m.line, m.operator);
                        verdicts.lock().unwrap()[i] = Some(verdict);
                    }
                };
                if let Err(e) = work() {
                    next.store(usize::MAX / 2, std::sync::atomic::Ordering::Relaxed);
                    first_error.lock().unwrap().get_or_insert(e);
                }
            });
        }
    });
    if let Some(e) = first_error.into_inner().unwrap() {
        return Err(e);
    }
    let verdicts: Vec<(Mutant, Verdict)> = mutants
        .iter()
        .cloned()
        .zip(verdicts.into_inner().unwrap().into_iter().map(|v| v.expect("every mutant judged")))
        .collect();

    let count = |f: fn(&Verdict) -> bool| verdicts.iter().filter(|(_, v)| f(v)).count();
    let killed = count(|v| matches!(v, Verdict::Killed(_)));
    let survived = count(|v| matches!(v, Verdict::Survived));
    let broken = count(|v| matches!(v, Verdict::DidNotBuild(_)));
    let equivalent = count(|v| matches!(v, Verdict::Equivalent(_)));
    let mut report = String::new();
    writeln!(
        report,
        "{unit}: {} mutants ({total} generated): {killed} killed, {survived} survived, {equivalent} equivalent, {broken} did not build",
        verdicts.len()
    )?;
    for (m, v) in &verdicts {
        match v {
            Verdict::Survived => {
                writeln!(report, "SURVIVED {unit} {} ({}) {} line {}:", m.id, m.operator, m.file, m.line)?;
                writeln!(report, "  - {}\n  + {}", m.before.trim(), m.after.trim())?;
            }
            Verdict::Equivalent(reason) => {
                writeln!(report, "equivalent {unit} {} {} line {}: {reason}", m.id, m.file, m.line)?;
            }
            _ => {}
        }
    }
    let path = config.root.join("target").join("mutants").join(format!("{unit}.txt"));
    std::fs::write(&path, &report)?;
    writeln!(report, "report: {}", path.display())?;
    Ok((report, survived == 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutants_touch_code_not_comments_and_have_stable_ids() {
        let src = "// a == b in a comment\nassign x = a == b; // c + d\n  input logic a_i,\nassign y = 4'd7 + z;\n";
        let m = generate(src);
        assert!(m.iter().all(|m| m.line == 2 || m.line == 4), "{m:#?}");
        assert!(m.iter().any(|m| m.after == "assign x = a != b; // c + d"));
        assert!(m.iter().any(|m| m.after == "assign y = 4'd8 + z;"));
        assert!(m.iter().any(|m| m.after == "assign y = 4'd6 + z;"));
        assert!(m.iter().any(|m| m.after == "assign y = 4'd7 - z;"));
        assert_eq!(generate(src), m, "deterministic");
        let ids: std::collections::BTreeSet<_> = m.iter().map(|m| &m.id).collect();
        assert_eq!(ids.len(), m.len(), "ids are unique");
        // Two identical lines give different ids; the first keeps the id it has alone.
        let twice = generate("assign x = a == b;\nassign x = a == b;\n");
        assert_eq!(twice.len(), 2);
        assert_ne!(twice[0].id, twice[1].id);
        assert_eq!(twice[0].id, generate("assign x = a == b;\n")[0].id);
        // `a && (b || c)` drops the first `&&` term and the first `||` term: one operator name,
        // occurrence 0 each, two different edits, two ids.
        let drops: Vec<Mutant> =
            generate("assign x = a && (b || c);\n").into_iter().filter(|m| m.operator == "drop term").collect();
        assert_eq!(drops.len(), 2, "{drops:#?}");
        assert_ne!(drops[0].id, drops[1].id);
    }

    /// Every id of rtl/lint/equivalent_mutants.txt names a mutant its unit's RTL still has: an
    /// edited line drops its entries, and this test says which to review.
    #[test]
    fn every_listed_equivalent_mutant_exists() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let list = std::fs::read_to_string(root.join("rtl/lint/equivalent_mutants.txt")).unwrap();
        for unit in crate::bindings::UNITS {
            let (_, mutants) = unit_mutants(root, unit).unwrap();
            let ids: Vec<String> = mutants.into_iter().map(|m| m.id).collect();
            for (id, reason) in equivalent(&list, unit) {
                assert!(
                    ids.contains(&id),
                    "{unit} {id} ({reason}) is no longer a mutant of {unit}'s files: review the entry"
                );
            }
        }
    }

    #[test]
    fn dropped_terms_and_slice_shifts() {
        let src = "assign x = a_q[3:0] & ~(b | c) | f(d).e[1] + 8'hff;\n";
        let after: Vec<(&str, String)> = generate(src).into_iter().map(|m| (m.operator, m.after)).collect();
        let has = |op: &str, text: &str| after.iter().any(|(o, a)| *o == op && a == text);
        assert!(has("drop term", "assign x = a_q[3:0] | f(d).e[1] + 8'hff;"), "{after:#?}");
        assert!(has("drop term", "assign x = a_q[3:0] & ~(b) | f(d).e[1] + 8'hff;"), "{after:#?}");
        assert!(has("drop term", "assign x = a_q[3:0] & ~(b | c) + 8'hff;"), "{after:#?}");
        assert!(has("drop term", "assign x = a_q[3:0] & ~(b | c) | f(d).e[1];"), "{after:#?}");
        assert!(has("slice up", "assign x = a_q[4:1] & ~(b | c) | f(d).e[1] + 8'hff;"), "{after:#?}");
        assert!(!after.iter().any(|(o, _)| *o == "slice down"), "no slice below bit 0: {after:#?}");
        assert!(
            generate("logic [31:0] x_q;\n").iter().all(|m| !m.operator.starts_with("slice")),
            "a declaration's range"
        );
        assert_eq!(operand_len(") + 1"), None);
        assert_eq!(operand_len("{a, b}[2] ;"), Some(9));
    }

    /// The pipeline's mutants edit its own seven files (the top, the MSHR data register file, the
    /// TA, the TCP, its bank, its line RAM and the TD),
    /// never the units it instantiates (buffer_addr, image_addr, d16, multi_texel:
    /// mutated in their own runs); a unit with no sub-blocks edits its file alone.
    #[test]
    fn the_pipeline_mutates_its_own_files() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let want = [
            "rtl/vmem_pipe.sv",
            "rtl/vmem_pipe_rf.sv",
            "rtl/vmem_pipe_ta.sv",
            "rtl/vmem_pipe_tcp.sv",
            "rtl/vmem_pipe_tcp_bank.sv",
            "rtl/vmem_pipe_tcp_ram.sv",
            "rtl/vmem_pipe_td.sv",
        ];
        assert_eq!(files(root, "vmem_pipe").unwrap(), want);
        assert_eq!(files(root, "swizzle").unwrap(), ["rtl/swizzle.sv"]);
        let err = files(root, "nonesuch").unwrap_err();
        assert!(format!("{err:#}").contains("rtl/nonesuch.sv does not exist"), "{err:#}");

        let (texts, mutants) = unit_mutants(root, "vmem_pipe").unwrap();
        assert_eq!(texts.iter().map(|(f, _)| f.as_str()).collect::<Vec<_>>(), want);
        for (file, text) in &texts {
            let lines: Vec<&str> = text.lines().collect();
            let mine: Vec<&Mutant> = mutants.iter().filter(|m| &m.file == file).collect();
            assert!(!mine.is_empty(), "{file}: no mutants");
            for m in mine {
                assert_eq!(lines[m.line - 1], m.before, "{} {file}:{}", m.id, m.line);
            }
        }
        assert_eq!(
            mutants.len(),
            texts.iter().map(|(f, _)| mutants.iter().filter(|m| &m.file == f).count()).sum::<usize>()
        );
        let ids: std::collections::BTreeSet<&str> = mutants.iter().map(|m| m.id.as_str()).collect();
        assert_eq!(ids.len(), mutants.len(), "ids are unique across the files");
        // The unit's own file keeps the ids it had alone (the reviewed list names them).
        let top: Vec<String> = generate(&texts[0].1).into_iter().map(|m| m.id).collect();
        let got: Vec<String> = mutants.iter().filter(|m| m.file == want[0]).map(|m| m.id.clone()).collect();
        assert_eq!(got, top);
        // A sample of n spreads over the files: 8 of the pipeline's mutants reach every file.
        let counts: Vec<usize> = want.iter().map(|f| mutants.iter().filter(|m| m.file == *f).count()).collect();
        let some = sample(mutants, 8);
        for file in want {
            assert!(some.iter().any(|m| m.file == file), "no sampled mutant of {file}: {:?}", counts);
        }
    }

    /// A package's region marked as a unit's is mutated in that unit's run, with the package's
    /// line numbers and salted ids; the lines outside it are not; a unit without a region has no
    /// package mutant.
    #[test]
    fn a_unit_mutates_its_package_region() {
        let pkg = "package p;\n  function f;\n    return a == b;\n  endfunction\n// mutants: u\n  \
                   function g;\n    return c == d;\n  endfunction\n// mutants: end\nendpackage\n";
        let region = package_regions(pkg, "u");
        assert_eq!(region.split('\n').count(), pkg.lines().count());
        let mutants = generate_file(&region, "rtl/p_pkg.sv", true);
        assert!(!mutants.is_empty());
        assert!(mutants.iter().all(|m| m.line == 7 && m.before == "    return c == d;"), "{mutants:?}");
        assert!(package_regions(pkg, "v").lines().all(str::is_empty));
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let (texts, mutants) = unit_mutants(root, "format_unpack").unwrap();
        assert!(
            texts.iter().any(|(f, _)| f == "rtl/vmem_fp_pkg.sv"),
            "{:?}",
            texts.iter().map(|t| &t.0).collect::<Vec<_>>()
        );
        assert!(mutants.iter().any(|m| m.file == "rtl/vmem_fp_pkg.sv" && m.before.contains("int_to_f32")));
        let (texts, _) = unit_mutants(root, "swizzle").unwrap();
        assert_eq!(texts.len(), 1);
    }

    #[test]
    fn a_sub_block_file_salts_its_ids() {
        let line = "assign x = a == b;\n";
        let plain = generate_file(line, "rtl/u.sv", false);
        let a = generate_file(line, "rtl/u_a.sv", true);
        let b = generate_file(line, "rtl/u_b.sv", true);
        assert_eq!(plain[0].id, generate(line)[0].id);
        assert_eq!((a[0].file.as_str(), b[0].file.as_str()), ("rtl/u_a.sv", "rtl/u_b.sv"));
        assert_ne!(a[0].id, plain[0].id);
        assert_ne!(a[0].id, b[0].id);
        assert_eq!(a[0].after, b[0].after);
    }

    /// What `cosim` prints for a failure is a kill, for the pipeline's programs too; its table and
    /// notes are not.
    #[test]
    fn failure_lines_of_every_kind_are_kills() {
        let assertion = "ASSERTION vmem_pipe cycle=12 assertion=TagFree_A (rtl/vmem_pipe_tcp.sv) | program of 3 \
                         instruction(s) | repro: gcn-vmem exec f.json --pipeline --both --break-asserts";
        let pipeline = "PIPELINE vmem_pipe program of 2 instruction(s) | cycle 40 (edge): model and RTL differ on \
                        vgpr_data: model 0x1, RTL 0x0 (1 signal(s) differ that cycle) | repro: gcn-vmem exec f.json";
        let mismatch =
            "MISMATCH d16 cycle=3 signal=result expected(model)=0x1 actual(rtl)=0x0 xor=0x1 | in@1: x | repro: y";
        for line in [assertion, pipeline, mismatch] {
            assert!(is_failure_line(line), "{line}");
        }
        for line in
            ["gcn-vmem cosim: seed 1, 2 thread(s), Verilator 5", "vmem_pipe   3500   400000   1", "  saved x.json"]
        {
            assert!(!is_failure_line(line), "{line}");
        }
        let text = format!(
            "{assertion}\n{pipeline}\n{mismatch}\nASSERTION d16 cycle=2 assertion=CountBound_A (rtl/d16.sv) | x\n"
        );
        let names: Vec<String> = assertions_reported(&text).into_iter().collect();
        assert_eq!(names, ["CountBound_A", "TagFree_A"]);
    }

    #[test]
    fn the_pipeline_lists_its_assertions_over_its_programs() {
        // 800 programs at the default budget (policy::DEFAULT_PIPE_PROGRAMS), each may fail once.
        assert_eq!(break_asserts_budget("vmem_pipe", 8_000_000), (8_000_000, 800));
        // MUTANTS' VECTORS=400000 is 40 programs.
        assert_eq!(break_asserts_budget("vmem_pipe", 400_000), (400_000, 40));
        assert_eq!(break_asserts_budget("swizzle", 8_000_000), (20_000, 100));
    }

    #[test]
    fn equivalent_list_and_sampling() {
        let list = "# unit id reason\nswizzle 0000abcd the default arm is unreachable\nd16 1234 other\n";
        assert_eq!(equivalent(list, "swizzle"), vec![("0000abcd".into(), "the default arm is unreachable".into())]);
        let src = (0..50).map(|i| format!("assign x{i} = a & b;\n")).collect::<String>();
        let all = generate(&src);
        let some = sample(all.clone(), 10);
        assert_eq!(some.len(), 10);
        assert_eq!(some[0], all[0]);
    }
}
