//! A run's results as a file (`gcn-vmem cosim --results PATH`) and the merge of a run's shards
//! (`gcn-vmem merge FILES…`, docs/checks.md "Regressions across machines").
//!
//! A results file is one JSON object: the format tag, the run's settings that every shard of it
//! shares (seed, vector budget, X runs, programs, RTL build, units), the shard, one row per
//! random or X run of a unit (vectors, cycles, chunks, failing cases, each saved failure with
//! its vector file and report lines, and the hit count of every functional-coverage bin by
//! point and bin name), the executor's program suite, and the Verilator coverage databases the
//! run wrote (`--coverage`). [`merge`] checks that the files are the shards of one run, each
//! once, and adds them up into the [`Results`] of the unsharded run, which the merge command
//! then reports as `cosim` reports a run: the same table, the same bins verdict
//! ([`crate::engine::policy::bins_required`]), the same JUnit report.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Map, Value};

use crate::bindings::{with_unit, Visit, UNITS};
use crate::engine::artifacts::Failure;
use crate::engine::run::{Shard, Summary};
use crate::engine::{Binding, Variant};
use crate::exec::backends::ExecFailure;
use crate::exec::suite::{SuiteFailure, SuiteSummary};
use gcn_vmem_model::cover::{Covered as _, Covergroup, Hits};

/// The `"format"` of every results file this version writes and reads.
pub const FORMAT: &str = "gcn-vmem-results 1";

/// What every shard of one run shares: a merge refuses files that differ in any of these.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunSettings {
    pub seed: u64,
    /// `--vectors`: the budget per unit of the whole run, not of the shard.
    pub vectors: u64,
    pub x_seeds: u64,
    /// Random programs of the executor's suite (0: none).
    pub programs: u64,
    pub variant: Variant,
    pub require_bins: bool,
    /// The units, in the order the run took them.
    pub units: Vec<&'static str>,
}

/// The results of one run or one shard of it.
#[derive(Debug)]
pub struct Results {
    pub run: RunSettings,
    /// The shard this file holds; `None`: the whole run (unsharded, or merged).
    pub shard: Option<Shard>,
    /// One row per random run and X run of a unit, as `cosim` prints them.
    pub summaries: Vec<Summary>,
    /// The executor's random programs, when the run (or shard) ran them.
    pub programs: Option<SuiteSummary>,
    /// The Verilator coverage databases the run wrote (`--coverage DIR`).
    pub coverage: Vec<PathBuf>,
}

fn variant_name(v: Variant) -> &'static str {
    match v {
        Variant::AsWritten => "as-written",
        Variant::Mutant => "mutant",
        Variant::BreakAsserts => "break-asserts",
        Variant::Small => "small",
    }
}

fn covergroup(unit: &str) -> Option<Covergroup> {
    struct Group;
    impl Visit for Group {
        type Output = Covergroup;
        fn visit<B: Binding>(self) -> Covergroup {
            B::Model::covergroup()
        }
    }
    with_unit(unit, Group)
}

fn path_value(p: &Option<PathBuf>) -> Value {
    p.as_ref().map_or(Value::Null, |p| Value::String(p.display().to_string()))
}

fn hits_value(unit: &str, hits: &Hits) -> Value {
    let Some(group) = covergroup(unit) else { return Value::Null };
    let mut points = Map::new();
    for (n, point) in group.points.iter().enumerate() {
        let bins: Map<String, Value> =
            point.bins.iter().zip(hits.counts(n)).map(|(b, &c)| (b.clone(), Value::from(c))).collect();
        points.insert(point.name.to_string(), Value::Object(bins));
    }
    Value::Object(points)
}

fn failure_value(f: &Failure) -> Value {
    json!({
        "vector": f.vector_file.display().to_string(),
        "message": f.lines.first().cloned().unwrap_or_default(),
        "lines": f.lines,
        "count": f.count,
        "unshrunk": f.unshrunk_files.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        "rtl_wave": path_value(&f.rtl_wave),
        "diff_wave": path_value(&f.diff_wave),
        "shrunk": f.shrunk,
        "cycles_before": f.cycles_before,
        "cycles_after": f.cycles_after,
        "wave_error": f.wave_error,
        "note": f.note,
    })
}

fn summary_value(s: &Summary) -> Value {
    json!({
        "unit": s.unit,
        "x_seed": s.x_seed,
        "vectors": s.vectors,
        "cycles": s.cycles,
        "chunks": s.chunks,
        "failing_cases": s.failing_cases,
        "stopped": s.stopped,
        "seconds": s.elapsed.as_secs_f64(),
        "failures": s.failures.iter().map(failure_value).collect::<Vec<_>>(),
        "hits": hits_value(s.unit, &s.hits),
    })
}

fn programs_value(p: &SuiteSummary) -> Value {
    let failures: Vec<Value> = p
        .failures
        .iter()
        .map(|f| {
            let u = &f.unit_failure;
            json!({
                "file": f.file.display().to_string(),
                "message": f.line,
                "unit_failure": {
                    "unit": u.unit,
                    "lane_index": u.lane_index,
                    "signal": u.signal,
                    "line": u.line,
                    "vector": u.vector_file.display().to_string(),
                    "rtl_wave": path_value(&u.rtl_wave),
                    "diff_wave": path_value(&u.diff_wave),
                    "note": u.note,
                },
            })
        })
        .collect();
    json!({
        "programs": p.programs,
        "instructions": p.instructions,
        "executed": p.executed,
        "errors": p.errors,
        "seconds": p.elapsed.as_secs_f64(),
        "failures": failures,
    })
}

/// `path` as a results file at `file` records it: relative to the file's folder when inside it
/// (a results file and its coverage folder move together as one CI artifact), else absolute.
fn recorded(path: &Path, file: &Path) -> String {
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let dir = absolute(file.parent().unwrap_or(Path::new("")));
    let path = absolute(path);
    match path.strip_prefix(&dir) {
        Ok(rel) => rel.display().to_string(),
        Err(_) => path.display().to_string(),
    }
}

/// The results as the JSON document written to `file` (coverage paths recorded relative to it).
pub fn to_json(r: &Results, file: &Path) -> Value {
    json!({
        "format": FORMAT,
        "seed": r.run.seed,
        "shard": r.shard.map(|s| s.to_string()),
        "run": {
            "vectors": r.run.vectors,
            "x_seeds": r.run.x_seeds,
            "programs": r.run.programs,
            "variant": variant_name(r.run.variant),
            "require_bins": r.run.require_bins,
            "units": r.run.units,
            "verilator": crate::verilator_version(),
        },
        "units": r.summaries.iter().map(summary_value).collect::<Vec<_>>(),
        "programs": r.programs.as_ref().map_or(Value::Null, programs_value),
        "coverage": r.coverage.iter().map(|p| recorded(p, file)).collect::<Vec<_>>(),
    })
}

/// Checks before a run that a results file can be written at `path` (its folder is created), so
/// a bad `--results` fails at once rather than after the run.
pub fn check_writable(path: &Path) -> anyhow::Result<()> {
    super::check_writable(path, "--results", "the results file")
}

/// Writes the results to `path` (its folder is created).
pub fn write(path: &Path, r: &Results) -> anyhow::Result<()> {
    check_writable(path)?;
    let text = serde_json::to_string_pretty(&to_json(r, path))? + "\n";
    std::fs::write(path, text).map_err(|e| anyhow::anyhow!("cannot write the results file {}: {e}", path.display()))
}

/// Reads one results file, field by field: any problem is an error naming the file and the field.
struct Reader<'a> {
    file: &'a Path,
}

impl Reader<'_> {
    fn bad(&self, at: &str, what: &str) -> anyhow::Error {
        anyhow::anyhow!(
            "{}: `{at}` {what}; it is not a results file as `gcn-vmem cosim --results` writes it: pass the file \
             that command wrote, or rerun that shard with --results",
            self.file.display()
        )
    }

    fn get<'v>(&self, v: &'v Value, at: &str, name: &str) -> anyhow::Result<&'v Value> {
        v.get(name).ok_or_else(|| self.bad(&join(at, name), "is missing"))
    }

    fn u64(&self, v: &Value, at: &str, name: &str) -> anyhow::Result<u64> {
        self.get(v, at, name)?.as_u64().ok_or_else(|| self.bad(&join(at, name), "is not a count (an unsigned integer)"))
    }

    fn f64(&self, v: &Value, at: &str, name: &str) -> anyhow::Result<f64> {
        self.get(v, at, name)?
            .as_f64()
            .filter(|x| x.is_finite() && *x >= 0.0)
            .ok_or_else(|| self.bad(&join(at, name), "is not a number of seconds"))
    }

    fn bool(&self, v: &Value, at: &str, name: &str) -> anyhow::Result<bool> {
        self.get(v, at, name)?.as_bool().ok_or_else(|| self.bad(&join(at, name), "is not true or false"))
    }

    fn str<'v>(&self, v: &'v Value, at: &str, name: &str) -> anyhow::Result<&'v str> {
        self.get(v, at, name)?.as_str().ok_or_else(|| self.bad(&join(at, name), "is not a string"))
    }

    fn opt_str(&self, v: &Value, at: &str, name: &str) -> anyhow::Result<Option<String>> {
        match v.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(self.bad(&join(at, name), "is not a string or null")),
        }
    }

    fn array<'v>(&self, v: &'v Value, at: &str, name: &str) -> anyhow::Result<&'v Vec<Value>> {
        self.get(v, at, name)?.as_array().ok_or_else(|| self.bad(&join(at, name), "is not a list"))
    }

    fn strings(&self, v: &Value, at: &str, name: &str) -> anyhow::Result<Vec<String>> {
        self.array(v, at, name)?
            .iter()
            .enumerate()
            .map(|(i, s)| {
                s.as_str().map(str::to_string).ok_or_else(|| self.bad(&format!("{at}.{name}[{i}]"), "is not a string"))
            })
            .collect()
    }

    fn unit(&self, name: &str, at: &str) -> anyhow::Result<&'static str> {
        UNITS.iter().copied().find(|u| *u == name).ok_or_else(|| {
            anyhow::anyhow!(
                "{}: `{at}` names unit `{name}`, which this gcn-vmem does not have (its units: {}); merge with the \
                 gcn-vmem of the checkout that ran it",
                self.file.display(),
                UNITS.join(", ")
            )
        })
    }

    fn hits(&self, unit: &'static str, v: &Value, at: &str) -> anyhow::Result<Hits> {
        let group = covergroup(unit).ok_or_else(|| self.bad(at, "names an unknown unit"))?;
        let points = v.as_object().ok_or_else(|| self.bad(at, "is not an object of points"))?;
        let other_build = |what: String| {
            anyhow::anyhow!(
                "{}: `{at}`: {what}: the bins of `{unit}` differ from this gcn-vmem's (rust/{unit}/cover.rs), so the \
                 file comes from another version; merge with the gcn-vmem of the checkout that ran it",
                self.file.display()
            )
        };
        if let Some(extra) = points.keys().find(|k| !group.points.iter().any(|p| p.name == k.as_str())) {
            return Err(other_build(format!("point `{extra}` is not declared")));
        }
        let mut hits = Hits::new(&group);
        for (n, point) in group.points.iter().enumerate() {
            let bins = points
                .get(point.name)
                .ok_or_else(|| other_build(format!("point `{}` is missing", point.name)))?
                .as_object()
                .ok_or_else(|| self.bad(&format!("{at}.{}", point.name), "is not an object of bins"))?;
            if bins.len() != point.bins.len() {
                return Err(other_build(format!(
                    "point `{}` has {} bins, not {}",
                    point.name,
                    bins.len(),
                    point.bins.len()
                )));
            }
            for (b, name) in point.bins.iter().enumerate() {
                let count = bins
                    .get(name)
                    .ok_or_else(|| other_build(format!("bin `{}: {name}` is missing", point.name)))?
                    .as_u64()
                    .ok_or_else(|| self.bad(&format!("{at}.{}.{name}", point.name), "is not a count"))?;
                hits.add(n, b, count);
            }
        }
        Ok(hits)
    }

    fn failure(&self, v: &Value, at: &str) -> anyhow::Result<Failure> {
        let lines = self.strings(v, at, "lines")?;
        Ok(Failure {
            vector_file: PathBuf::from(self.str(v, at, "vector")?),
            count: self.u64(v, at, "count")?,
            unshrunk_files: self.strings(v, at, "unshrunk")?.into_iter().map(PathBuf::from).collect(),
            rtl_wave: self.opt_str(v, at, "rtl_wave")?.map(PathBuf::from),
            diff_wave: self.opt_str(v, at, "diff_wave")?.map(PathBuf::from),
            shrunk: self.bool(v, at, "shrunk")?,
            cycles_before: self.u64(v, at, "cycles_before")? as usize,
            cycles_after: self.u64(v, at, "cycles_after")? as usize,
            lines,
            wave_error: self.opt_str(v, at, "wave_error")?,
            note: self.opt_str(v, at, "note")?,
        })
    }

    fn summary(&self, v: &Value, at: &str, shard: Option<Shard>) -> anyhow::Result<Summary> {
        let unit = self.unit(self.str(v, at, "unit")?, &format!("{at}.unit"))?;
        let x_seed = match self.get(v, at, "x_seed")? {
            Value::Null => None,
            x => Some(x.as_u64().ok_or_else(|| self.bad(&format!("{at}.x_seed"), "is not a seed or null"))?),
        };
        let failures = self
            .array(v, at, "failures")?
            .iter()
            .enumerate()
            .map(|(i, f)| self.failure(f, &format!("{at}.failures[{i}]")))
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(Summary {
            unit,
            x_seed,
            vectors: self.u64(v, at, "vectors")?,
            cycles: self.u64(v, at, "cycles")?,
            failing_cases: self.u64(v, at, "failing_cases")?,
            failures,
            elapsed: Duration::from_secs_f64(self.f64(v, at, "seconds")?),
            stopped: self.bool(v, at, "stopped")?,
            shard,
            chunks: self.u64(v, at, "chunks")?,
            hits: self.hits(unit, self.get(v, at, "hits")?, &format!("{at}.hits"))?,
            // Not in a results file: a bench's breakdown only.
            phases: None,
        })
    }

    fn programs(&self, v: &Value) -> anyhow::Result<SuiteSummary> {
        let at = "programs";
        let mut errors = BTreeMap::new();
        let map =
            self.get(v, at, "errors")?.as_object().ok_or_else(|| self.bad("programs.errors", "is not an object"))?;
        for (rule, n) in map {
            errors.insert(rule.clone(), n.as_u64().ok_or_else(|| self.bad("programs.errors", "holds a non-count"))?);
        }
        let mut failures = Vec::new();
        for (i, f) in self.array(v, at, "failures")?.iter().enumerate() {
            let at = format!("programs.failures[{i}]");
            let u = self.get(f, &at, "unit_failure")?;
            let uat = format!("{at}.unit_failure");
            failures.push(SuiteFailure {
                file: PathBuf::from(self.str(f, &at, "file")?),
                line: self.str(f, &at, "message")?.to_string(),
                unit_failure: ExecFailure {
                    unit: self.unit(self.str(u, &uat, "unit")?, &format!("{uat}.unit"))?,
                    lane_index: self.u64(u, &uat, "lane_index")? as usize,
                    signal: self.str(u, &uat, "signal")?.to_string(),
                    line: self.str(u, &uat, "line")?.to_string(),
                    vector_file: PathBuf::from(self.str(u, &uat, "vector")?),
                    rtl_wave: self.opt_str(u, &uat, "rtl_wave")?.map(PathBuf::from),
                    diff_wave: self.opt_str(u, &uat, "diff_wave")?.map(PathBuf::from),
                    note: self.opt_str(u, &uat, "note")?,
                },
            });
        }
        Ok(SuiteSummary {
            programs: self.u64(v, at, "programs")?,
            instructions: self.u64(v, at, "instructions")?,
            executed: self.u64(v, at, "executed")?,
            errors,
            failures,
            elapsed: Duration::from_secs_f64(self.f64(v, at, "seconds")?),
        })
    }

    fn results(&self, doc: &Value) -> anyhow::Result<Results> {
        if !doc.is_object() {
            return Err(self.bad("(the document)", "is not a JSON object"));
        }
        let format = doc.get("format");
        match format.map(|f| f.as_str().ok_or(f)) {
            Some(Ok(FORMAT)) => {}
            Some(Ok(other)) => anyhow::bail!(
                "{}: format `{other}` is not `{FORMAT}`, the one this gcn-vmem reads; merge with the gcn-vmem that \
                 wrote it",
                self.file.display()
            ),
            Some(Err(value)) => {
                return Err(
                    self.bad("format", &format!("is {value}, not a string (every results file says \"{FORMAT}\")"))
                )
            }
            None => return Err(self.bad("format", &format!("is missing (every results file says \"{FORMAT}\")"))),
        }
        let shard = match self.get(doc, "", "shard")? {
            Value::Null => None,
            Value::String(s) => Some(s.parse::<Shard>().map_err(|e| self.bad("shard", &e))?),
            _ => return Err(self.bad("shard", "is not K/N or null")),
        };
        let run = self.get(doc, "", "run")?;
        let variant = match self.str(run, "run", "variant")? {
            "as-written" => Variant::AsWritten,
            "mutant" => Variant::Mutant,
            "break-asserts" => Variant::BreakAsserts,
            "small" => Variant::Small,
            _ => return Err(self.bad("run.variant", "is not as-written, mutant or break-asserts")),
        };
        let units = self
            .strings(run, "run", "units")?
            .iter()
            .enumerate()
            .map(|(i, u)| self.unit(u, &format!("run.units[{i}]")))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let settings = RunSettings {
            seed: self.u64(doc, "", "seed")?,
            vectors: self.u64(run, "run", "vectors")?,
            x_seeds: self.u64(run, "run", "x_seeds")?,
            programs: self.u64(run, "run", "programs")?,
            variant,
            require_bins: self.bool(run, "run", "require_bins")?,
            units,
        };
        let summaries = self
            .array(doc, "", "units")?
            .iter()
            .enumerate()
            .map(|(i, s)| self.summary(s, &format!("units[{i}]"), shard))
            .collect::<anyhow::Result<Vec<_>>>()?;
        if let Some(s) = summaries.iter().find(|s| !settings.units.contains(&s.unit)) {
            return Err(self.bad("units", &format!("has a row of `{}`, which `run.units` does not list", s.unit)));
        }
        let programs = match self.get(doc, "", "programs")? {
            Value::Null => None,
            p => Some(self.programs(p)?),
        };
        let dir = self.file.parent().unwrap_or(Path::new(""));
        let coverage = self.strings(doc, "", "coverage")?.into_iter().map(|p| dir.join(p)).collect();
        Ok(Results { run: settings, shard, summaries, programs, coverage })
    }
}

fn join(at: &str, name: &str) -> String {
    if at.is_empty() {
        name.to_string()
    } else {
        format!("{at}.{name}")
    }
}

/// Reads a results file written by `gcn-vmem cosim --results` (or `gcn-vmem merge --results`).
/// Coverage databases recorded relative to the file are resolved against its folder.
pub fn read(path: &Path) -> anyhow::Result<Results> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        anyhow::anyhow!(
            "cannot read the results file {}: {e}; pass the files `gcn-vmem cosim --results` wrote",
            path.display()
        )
    })?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "{} is not JSON ({e}); it is not a results file as `gcn-vmem cosim --results` writes it: pass the file \
             that command wrote, or rerun that shard with --results",
            path.display()
        )
    })?;
    Reader { file: path }.results(&doc)
}

fn names(units: &[&str]) -> String {
    if units.is_empty() {
        "none".to_string()
    } else {
        units.join(", ")
    }
}

/// Checks that `files` are the shards of one run, each exactly once (or the one file of an
/// unsharded run), and adds them up into the results of the whole run (`shard` `None`): per
/// unit and X seed the vectors, cycles, chunks, failing cases and seconds summed, the failures
/// listed once per minimal vector (by file name, as one run counts a bug found twice), the bin
/// hits summed; the program suite and the coverage databases of every shard.
pub fn merge(files: Vec<(PathBuf, Results)>) -> anyhow::Result<Results> {
    let Some((first_file, first)) = files.first() else {
        anyhow::bail!("no results files to merge; pass the files of every shard (`gcn-vmem merge a.json b.json …`)");
    };
    let name = |p: &Path| p.display().to_string();
    let mut first_units = first.run.units.clone();
    first_units.sort_unstable();
    for (file, r) in &files[1..] {
        let (a, b) = (&first.run, &r.run);
        let differ = |what: &str, x: String, y: String| {
            anyhow::anyhow!(
                "{} ran {what} {y} but {} ran {what} {x}: the shards of one run share it; merge the files of one \
                 `gcn-vmem cosim` command (same --seed, --vectors, --x-seeds, --programs, units and RTL build), or \
                 rerun the odd shard with the others' flags",
                name(file),
                name(first_file)
            )
        };
        if a.seed != b.seed {
            anyhow::bail!(
                "{} has seed {} but {} has seed {}: the shards of one run share a seed; merge the files of one seed, \
                 or rerun the odd shard with --seed {}",
                name(file),
                b.seed,
                name(first_file),
                a.seed,
                a.seed
            );
        }
        let mut units = b.units.clone();
        units.sort_unstable();
        if units != first_units {
            return Err(differ("units", names(&a.units), names(&b.units)));
        }
        if a.vectors != b.vectors {
            return Err(differ("--vectors", a.vectors.to_string(), b.vectors.to_string()));
        }
        if a.x_seeds != b.x_seeds {
            return Err(differ("--x-seeds", a.x_seeds.to_string(), b.x_seeds.to_string()));
        }
        if a.programs != b.programs {
            return Err(differ("--programs", a.programs.to_string(), b.programs.to_string()));
        }
        if a.variant != b.variant {
            return Err(differ(
                "the RTL build",
                variant_name(a.variant).to_string(),
                variant_name(b.variant).to_string(),
            ));
        }
    }
    check_shards(&files)?;

    let mut run = first.run.clone();
    run.require_bins = files.iter().any(|(_, r)| r.run.require_bins);
    let mut summaries: Vec<Summary> = Vec::new();
    let mut programs: Option<SuiteSummary> = None;
    let mut coverage = Vec::new();
    let mut ordered: Vec<(PathBuf, Results)> = files;
    ordered.sort_by_key(|(_, r)| r.shard.map_or(0, |s| s.index));
    for (file, r) in ordered {
        for dat in &r.coverage {
            if !dat.is_file() {
                anyhow::bail!(
                    "{}: the Verilator coverage database {} it lists is missing; copy the shard's --coverage folder \
                     with its results file (it is recorded relative to it), or rerun the shard",
                    name(&file),
                    dat.display()
                );
            }
        }
        coverage.extend(r.coverage);
        for s in r.summaries {
            match summaries.iter_mut().find(|m| m.unit == s.unit && m.x_seed == s.x_seed) {
                None => summaries.push(Summary { shard: None, ..s }),
                Some(m) => {
                    m.vectors += s.vectors;
                    m.cycles += s.cycles;
                    m.chunks += s.chunks;
                    m.failing_cases += s.failing_cases;
                    m.elapsed += s.elapsed;
                    m.stopped |= s.stopped;
                    m.hits.merge(&s.hits);
                    for f in s.failures {
                        add_failure(&mut m.failures, f);
                    }
                }
            }
        }
        if let Some(p) = r.programs {
            match &mut programs {
                None => programs = Some(p),
                Some(m) => {
                    m.programs += p.programs;
                    m.instructions += p.instructions;
                    m.executed += p.executed;
                    for (rule, n) in p.errors {
                        *m.errors.entry(rule).or_default() += n;
                    }
                    m.failures.extend(p.failures);
                    m.elapsed += p.elapsed;
                }
            }
        }
    }
    // The unsharded run's order: unit by unit as the run took them, each unit's random run
    // before its X runs.
    let position = |u: &str| run.units.iter().position(|x| *x == u).unwrap_or(usize::MAX);
    summaries.sort_by_key(|s| (position(s.unit), s.x_seed.is_some()));
    for s in &mut summaries {
        s.failures.sort_by(|a, b| a.vector_file.file_name().cmp(&b.vector_file.file_name()));
    }
    Ok(Results { run, shard: None, summaries, programs, coverage })
}

/// A failure joins the merged list, or counts against one with the same minimal vector (named by
/// its contents: the same bug found in two shards).
fn add_failure(failures: &mut Vec<Failure>, f: Failure) {
    match failures.iter_mut().find(|k| k.vector_file.file_name() == f.vector_file.file_name()) {
        Some(known) => {
            known.count += f.count;
            known.unshrunk_files.extend(f.unshrunk_files);
        }
        None => failures.push(f),
    }
}

/// The files must be the N shards of one run, each once, or a single unsharded run.
fn check_shards(files: &[(PathBuf, Results)]) -> anyhow::Result<()> {
    let name = |p: &Path| p.display().to_string();
    if let Some((whole, _)) = files.iter().find(|(_, r)| r.shard.is_none()) {
        if let Some((other, r)) = files.iter().find(|(f, _)| f != whole) {
            let what = r.shard.map_or("the whole run too".to_string(), |s| format!("shard {s}"));
            anyhow::bail!(
                "{} is an unsharded run, which already covers every chunk, so it overlaps {} ({what}); merge either \
                 that file alone or the N files of `--shard 1/N` … `--shard N/N`",
                name(whole),
                name(other)
            );
        }
        return Ok(());
    }
    let (first_file, first) = &files[0];
    let count = first.shard.map_or(1, |s| s.count);
    let mut seen: BTreeMap<u64, &PathBuf> = BTreeMap::new();
    for (file, r) in files {
        let s = r.shard.expect("unsharded files were handled above");
        if s.count != count {
            anyhow::bail!(
                "{} is shard {s} but {} is shard {}: one run is cut into one number of shards; merge the files of one \
                 `--shard K/{count}` matrix",
                name(file),
                name(first_file),
                first.shard.map(|s| s.to_string()).unwrap_or_default()
            );
        }
        if let Some(earlier) = seen.insert(s.index, file) {
            anyhow::bail!(
                "{} and {} are both shard {s}: the shards overlap; pass each shard's results once (drop one of them)",
                name(earlier),
                name(file)
            );
        }
    }
    // The first few missing shards (N may be large).
    let missing: Vec<String> =
        (1..=count).filter(|k| !seen.contains_key(k)).take(8).map(|k| format!("{k}/{count}")).collect();
    if let Some(lost) = missing.first() {
        let more = if count - seen.len() as u64 > missing.len() as u64 { ", …" } else { "" };
        let given: Vec<String> = seen.iter().map(|(k, f)| format!("{} (shard {k}/{count})", name(f))).collect();
        anyhow::bail!(
            "shard(s) {}{more} missing: the files given are {}; pass the results of every shard of the run (rerun a \
             lost one with `gcn-vmem cosim --seed {} --shard {lost} --results …` and the others' flags)",
            missing.join(", "),
            given.join(", "),
            first.run.seed,
        );
    }
    Ok(())
}

/// Merges Verilator coverage databases into `out` with `verilator_coverage --write`.
pub fn merge_coverage(dats: &[PathBuf], out: &Path) -> anyhow::Result<()> {
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    }
    let output =
        std::process::Command::new("verilator_coverage").arg("--write").arg(out).args(dats).output().map_err(|e| {
            anyhow::anyhow!(
                "cannot run verilator_coverage ({e}); it comes with Verilator: `make deps` (apt-get install verilator)"
            )
        })?;
    if !output.status.success() {
        anyhow::bail!(
            "verilator_coverage --write {} failed ({}): {}",
            out.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(())
}
