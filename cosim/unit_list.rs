//! The reader of cosim/units.txt, the one list of units, and the naming rule built on it.
//!
//! One file for every reader: build.rs (the RTL builds and the bindings), the harness library
//! (`bindings::properties`), and the build scripts of rust/python and rust/dpi, which generate
//! their unit tables from the list (each includes this file with `#[path]`).

/// One line of cosim/units.txt: a unit and its columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitLine {
    /// The unit's one name (lower_snake_case): rust/NAME.rs, rtl/NAME.sv, cosim/bindings/NAME.rs.
    pub name: String,
    /// `mutant=Param`: the RTL's test-only parameter that breaks the unit on purpose.
    pub mutant: Option<String>,
    /// `builds=one`: one FST-traced build serves every variant, the test-only parameters set
    /// through plusargs of their names; the unit is too large to build more than once (and to
    /// build at the gate level with the rest, `make gls`).
    pub one_build: bool,
}

/// The units of the list at `path`, in order; an error names the file and the line
/// (`cosim/units.txt:12: unknown column …`).
pub fn read(path: &std::path::Path) -> Result<Vec<UnitLine>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse(&text).map_err(|e| format!("{}:{e}", path.display()))
}

/// The units of `text` (cosim/units.txt's contents), in order. An error starts with the line's
/// number: `12: unknown column …`.
pub fn parse(text: &str) -> Result<Vec<UnitLine>, String> {
    let mut units = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut words = line.split('#').next().unwrap_or("").split_whitespace();
        let Some(name) = words.next() else { continue };
        if !name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') {
            return Err(format!("{}: unit name `{name}` must be lower_snake_case", n + 1));
        }
        let mut unit = UnitLine { name: name.to_string(), mutant: None, one_build: false };
        for word in words {
            match (word.strip_prefix("mutant="), word) {
                (Some(param), _) => unit.mutant = Some(param.to_string()),
                (None, "builds=one") => unit.one_build = true,
                (None, _) => {
                    return Err(format!("{}: unknown column `{word}` (expected mutant=Param or builds=one)", n + 1))
                }
            }
        }
        units.push(unit);
    }
    Ok(units)
}

/// The model type of a unit: its name in CamelCase (`buffer_addr` → `BufferAddr`, `d16` → `D16`),
/// declared in rust/NAME.rs.
pub fn model_type(name: &str) -> String {
    name.split('_')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
        })
        .collect()
}
