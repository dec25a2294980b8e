//! The RTL's source files as every tool reads them: the packages, a unit's sub-modules in the
//! order they must be read, the modules a file instantiates, every `.sv` file, and the assertions
//! a file declares (where a failed assertion is declared, for report lines). One module for the
//! engine's report lines and for the tools (yosys, synth, equiv, gls, mutants).
//!
//! A module is one file, rtl/<module>.sv, named as the module; a package is rtl/<name>_pkg.sv.

use std::path::{Path, PathBuf};

use anyhow::Context as _;

/// This checkout's rtl/.
pub fn rtl_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("rtl")
}

/// The `.sv` files of `rtl_dir` (packages and modules), sorted.
pub(crate) fn sv_files(rtl_dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(rtl_dir).with_context(|| format!("cannot read {}", rtl_dir.display()))? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "sv") {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// The rtl/*_pkg.sv file names of `rtl_dir`, sorted (the order every tool reads them in).
pub fn packages(rtl_dir: &Path) -> anyhow::Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(rtl_dir).with_context(|| format!("cannot read {}", rtl_dir.display()))? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if name.ends_with("_pkg.sv") {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// What a tool reads for `unit` of `rtl_dir`, in order: the packages (sorted), the module files
/// it instantiates ([`submodules`]), and rtl/<unit>.sv.
pub(crate) fn unit_sources(rtl_dir: &Path, unit: &str) -> anyhow::Result<Vec<PathBuf>> {
    let mut sources: Vec<PathBuf> = packages(rtl_dir)?.into_iter().map(|p| rtl_dir.join(p)).collect();
    sources.extend(submodules(rtl_dir, unit)?.into_iter().map(|f| rtl_dir.join(f)));
    sources.push(rtl_dir.join(format!("{unit}.sv")));
    Ok(sources)
}

/// The module files a unit's file instantiates, directly or through its sub-blocks (each
/// rtl/<module>.sv, a module per file named as the file), each after the files it needs and
/// before the unit's own, which is not in the list. A name counts as an instantiation when it is
/// followed by `#(` or by an instance name and `(`, outside `//` comments, and not declared
/// (`module <name>`).
pub(crate) fn submodules(rtl_dir: &Path, unit: &str) -> anyhow::Result<Vec<String>> {
    let modules = module_names(rtl_dir)?;
    let mut order = Vec::new();
    visit_submodules(rtl_dir, unit, &modules, &mut vec![unit.to_string()], &mut order)?;
    Ok(order.into_iter().map(|m| format!("{m}.sv")).collect())
}

/// The modules of `rtl_dir`: its .sv files but the packages, by name, sorted.
fn module_names(rtl_dir: &Path) -> anyhow::Result<Vec<String>> {
    let mut modules = Vec::new();
    for entry in std::fs::read_dir(rtl_dir).with_context(|| format!("cannot read {}", rtl_dir.display()))? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".sv").filter(|s| !s.ends_with("_pkg")) {
            modules.push(stem.to_string());
        }
    }
    modules.sort();
    Ok(modules)
}

fn visit_submodules(
    rtl_dir: &Path,
    module: &str,
    modules: &[String],
    path: &mut Vec<String>,
    order: &mut Vec<String>,
) -> anyhow::Result<()> {
    let file = rtl_dir.join(format!("{module}.sv"));
    let text = std::fs::read_to_string(&file).with_context(|| format!("cannot read {}", file.display()))?;
    for used in instantiated(&text, modules) {
        if path.contains(&used) {
            anyhow::bail!("{}: {used} instantiates itself through {}", file.display(), path.join(" -> "));
        }
        if !order.contains(&used) {
            path.push(used.clone());
            visit_submodules(rtl_dir, &used, modules, path, order)?;
            path.pop();
            order.push(used);
        }
    }
    Ok(())
}

/// The module files (`<module>.sv`) that rtl/<module>.sv instantiates itself, in order of first
/// appearance (not through its sub-modules: [`submodules`]).
pub fn children(rtl_dir: &Path, module: &str) -> anyhow::Result<Vec<String>> {
    let modules = module_names(rtl_dir)?;
    let file = rtl_dir.join(format!("{module}.sv"));
    let text = std::fs::read_to_string(&file).with_context(|| format!("cannot read {}", file.display()))?;
    Ok(instantiated(&text, &modules).into_iter().filter(|m| m != module).collect())
}

/// SystemVerilog keywords that can follow a signal named like a module (never an instance name).
const KEYWORDS: &[&str] = &[
    "always_comb",
    "always_ff",
    "assign",
    "begin",
    "case",
    "else",
    "end",
    "endcase",
    "endfunction",
    "for",
    "function",
    "if",
    "input",
    "logic",
    "output",
    "return",
    "unique",
];

/// The names of `modules` that `text` instantiates, in order of first appearance.
fn instantiated(text: &str, modules: &[String]) -> Vec<String> {
    // Comments and string literals out (`$fatal(1, "vmem_pipe: Lines (%0d) …")` names no instance).
    let code: String = text
        .lines()
        .map(|l| {
            let code = l.split("//").next().unwrap_or("");
            code.split('"').step_by(2).collect::<Vec<_>>().join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n");
    let words: Vec<&str> = code
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '#' || c == '('))
        .filter(|w| !w.is_empty())
        .collect();
    let mut found: Vec<String> = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let Some(m) = modules.iter().find(|m| m.as_str() == *w) else { continue };
        if i > 0 && matches!(words[i - 1], "module" | "endmodule") {
            continue;
        }
        let next = words.get(i + 1).copied().unwrap_or("");
        // A name used as a value (`logic [1:0] d16);` then `return (…`, `d16 for (…`) is
        // followed by a keyword, never by an instance name.
        let is_instance = next.starts_with('#')
            || (next.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && !KEYWORDS.contains(&next)
                && (next.ends_with('(') || words.get(i + 2).is_some_and(|w| w.starts_with('('))));
        if is_instance && !found.contains(m) {
            found.push(m.clone());
        }
    }
    found
}

/// The names of the assertions a SystemVerilog text declares (`` `VMEM_ASSERT(Name, …) `` and the
/// `VMEM_ASSERT_*` variants), in order, outside `//` comments.
pub fn declared_assertions(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        for (at, m) in code.match_indices("`VMEM_ASSERT") {
            let rest = &code[at + m.len()..];
            let rest = rest.trim_start_matches(|c: char| c.is_ascii_uppercase() || c == '_');
            let Some(args) = rest.strip_prefix('(') else { continue };
            let name = args.split(',').next().unwrap_or("").trim();
            if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                names.push(name.to_string());
            }
        }
    }
    names
}

/// Where assertion `name` of `unit` is declared, as `rtl/<file>.sv`: the file of the unit's source
/// set (rtl/<unit>.sv, then the modules it instantiates, [`submodules`])
/// that declares it, e.g. `rtl/vmem_pipe_tcp.sv` for a TCP assertion of the pipeline. A name
/// that several files of the set declare gives each of them (`rtl/a.sv or rtl/b.sv`); when no
/// file can be read or none declares it, `rtl/<unit>.sv`.
pub fn assertion_file(unit: &str, name: &str) -> String {
    assertion_file_in(&rtl_dir(), unit, name)
}

/// [`assertion_file`] with the RTL read from `rtl_dir`.
pub(crate) fn assertion_file_in(rtl_dir: &Path, unit: &str, name: &str) -> String {
    let own = format!("{unit}.sv");
    let mut files = vec![own.clone()];
    files.extend(submodules(rtl_dir, unit).unwrap_or_default());
    let declaring: Vec<String> = files
        .iter()
        .filter(|f| {
            std::fs::read_to_string(rtl_dir.join(f))
                .is_ok_and(|text| declared_assertions(&text).iter().any(|n| n == name))
        })
        .map(|f| format!("rtl/{f}"))
        .collect();
    if declaring.is_empty() {
        format!("rtl/{own}")
    } else {
        declaring.join(" or ")
    }
}

#[cfg(test)]
mod tests {
    use super::{assertion_file_in, instantiated};

    /// A name two instantiated modules declare maps to both; one a module declares that the
    /// unit does not instantiate does not count.
    #[test]
    fn a_shared_assertion_names_every_instantiated_declarer() {
        let dir = std::env::temp_dir().join(format!("gcn-vmem-rtl-sources-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let unit = |name: &str, body: &str| {
            std::fs::write(dir.join(format!("{name}.sv")), format!("module {name};\n{body}endmodule\n")).unwrap();
        };
        unit("top", "  left u_left ();\n  right u_right ();\n");
        unit("left", "`VMEM_ASSERT(Bound_A, 1'b1)\n");
        unit("right", "`VMEM_ASSERT(Bound_A, 1'b1)\n");
        unit("other", "`VMEM_ASSERT(Bound_A, 1'b1)\n`VMEM_ASSERT(Own_A, 1'b1)\n");
        assert_eq!(assertion_file_in(&dir, "top", "Bound_A"), "rtl/left.sv or rtl/right.sv");
        assert_eq!(assertion_file_in(&dir, "top", "Own_A"), "rtl/top.sv");
        assert_eq!(assertion_file_in(&dir, "other", "Bound_A"), "rtl/other.sv");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_instances_count_not_strings_or_comments() {
        let modules = ["leaf".to_string(), "top".to_string()];
        let text = "module top;\n  initial $fatal(1, \"leaf: Lines (%0d) too few\", 3);\n  // leaf u_x (\n\
                    endmodule : top\n";
        assert!(instantiated(text, &modules).is_empty());
        let text = "module top;\n  leaf #(.N(2)) u_leaf (.clk_i);\nendmodule\n";
        assert_eq!(instantiated(text, &modules), ["leaf"]);
        // A signal named like a module, then a statement.
        let text = "module top;\n  function f(logic [1:0] leaf);\n    return (leaf == 2'd1);\n  \
                    endfunction\n  for (int i = 0; i < 2; i++) x = y.leaf\n  for (int j = 0; j < 2; j++);\nendmodule\n";
        assert!(instantiated(text, &modules).is_empty());
    }
}
