//! Reading Verilator coverage databases (`SystemC::Coverage-3` text, written by
//! `gcn-vmem cosim --coverage DIR`): per unit, how many line, branch, toggle and expression points
//! the run hit, and which it did not.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context as _;

/// One coverage point: its kind (`v_line`, `v_branch`, `v_toggle`, …), where it is, and its count
/// summed over every database of the unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Point {
    pub kind: String,
    pub file: String,
    pub line: u32,
    /// The point's name: the toggled signal bit, or `if`/`case`/`block` for line points.
    pub name: String,
    pub count: u64,
}

/// Parses one database line `C '<key>' <count>` whose key is a list of `\x01name\x02value`.
fn parse_line(line: &str) -> Option<(String, u64)> {
    let rest = line.strip_prefix("C '")?;
    let (key, count) = rest.rsplit_once("' ")?;
    Some((key.to_string(), count.trim().parse().ok()?))
}

fn field<'a>(key: &'a str, name: &str) -> &'a str {
    key.split('\u{1}').find_map(|kv| kv.strip_prefix(name).and_then(|v| v.strip_prefix('\u{2}'))).unwrap_or("")
}

/// Every point of `unit`'s databases in `dir` (`<unit>-*.dat`), counts summed across them.
pub fn read_unit(dir: &Path, unit: &str) -> anyhow::Result<Vec<Point>> {
    let mut points: BTreeMap<String, u64> = BTreeMap::new();
    let mut files = 0;
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read coverage folder {}", dir.display()))? {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !(name.starts_with(&format!("{unit}-")) && name.ends_with(".dat")) {
            continue;
        }
        files += 1;
        let bytes = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
        for line in String::from_utf8_lossy(&bytes).lines() {
            if let Some((key, count)) = parse_line(line) {
                *points.entry(key).or_default() += count;
            }
        }
    }
    anyhow::ensure!(files > 0, "no coverage database for `{unit}` in {} (run `make coverage`)", dir.display());
    Ok(points
        .into_iter()
        .map(|(key, count)| Point {
            kind: field(&key, "page").split('/').next().unwrap_or("").to_string(),
            file: field(&key, "f").to_string(),
            line: field(&key, "l").parse().unwrap_or(0),
            name: field(&key, "o").to_string(),
            count,
        })
        .collect())
}

/// `(kind, hit, total)` per kind of point, kinds in name order.
pub fn summary(points: &[Point]) -> Vec<(String, usize, usize)> {
    let mut by_kind: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for p in points {
        let e = by_kind.entry(&p.kind).or_default();
        e.0 += usize::from(p.count > 0);
        e.1 += 1;
    }
    by_kind.into_iter().map(|(k, (hit, total))| (k.to_string(), hit, total)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_verilator_line() {
        let line = "C '\u{1}f\u{2}rtl/swizzle.sv\u{1}l\u{2}106\u{1}n\u{2}40\u{1}page\u{2}v_line/swizzle\u{1}o\u{2}case\u{1}h\u{2}top.swizzle' 237228";
        let (key, count) = parse_line(line).unwrap();
        assert_eq!(count, 237_228);
        assert_eq!(field(&key, "f"), "rtl/swizzle.sv");
        assert_eq!(field(&key, "l"), "106");
        assert_eq!(field(&key, "page"), "v_line/swizzle");
        assert_eq!(field(&key, "o"), "case");
        assert_eq!(parse_line("# SystemC::Coverage-3"), None);
    }

    #[test]
    fn summary_counts_hit_points_per_kind() {
        let p =
            |kind: &str, count| Point { kind: kind.into(), file: String::new(), line: 1, name: String::new(), count };
        let s = summary(&[p("v_line", 3), p("v_line", 0), p("v_toggle", 1)]);
        assert_eq!(s, vec![("v_line".to_string(), 1, 2), ("v_toggle".to_string(), 1, 1)]);
    }
}
