//! The reader of cosim/units.txt, the one list of units, and the naming rule built on it.
//!
//! Read by the harness library (`bindings::properties`), by build.rs (cosim/build/units.rs), and
//! by the build scripts of rust/python and rust/dpi, which generate their unit tables from the
//! list ([`generate`]); each build script includes this file with `#[path]`.

/// One line of cosim/units.txt: a unit and its columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitLine {
    /// The unit's one name (lower_snake_case): rust/NAME.rs, rtl/NAME.sv, cosim/bindings/NAME.rs.
    pub name: String,
    /// `mutant=Name`: the unit's test-only mutant, a deliberate bug (its test hook
    /// rtl/test/<unit>_mut.svh; for a `builds=one` unit also the plusarg that selects it).
    pub mutant: Option<String>,
    /// `builds=one`: one FST-traced build, with every test hook of the unit, serves every variant,
    /// the test-only switches set through plusargs of their names; the unit is too large to build
    /// more than once (and to build at the gate level with the rest, `make gls`).
    pub one_build: bool,
    /// `small=P=V,P=V,...`: the unit's small configuration, parameters of its top module
    /// overridden in one more build (variant code 6, `Variant::Small`), so that random runs
    /// fill structures the defaults leave half empty (vmem_pipe: SPEC §14 "Sizes are
    /// parameters"). Empty: no small build.
    pub small: Vec<(String, u64)>,
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
        let mut unit = UnitLine { name: name.to_string(), mutant: None, one_build: false, small: Vec::new() };
        for word in words {
            if let Some(params) = word.strip_prefix("small=") {
                unit.small = parse_params(params).map_err(|e| format!("{}: small={params}: {e}", n + 1))?;
                continue;
            }
            match (word.strip_prefix("mutant="), word) {
                (Some(param), _) => unit.mutant = Some(param.to_string()),
                (None, "builds=one") => unit.one_build = true,
                (None, _) => {
                    return Err(format!(
                        "{}: unknown column `{word}` (expected mutant=Name, builds=one or small=P=V,...)",
                        n + 1
                    ))
                }
            }
        }
        units.push(unit);
    }
    Ok(units)
}

/// `P=V,P=V,...` (parameter names in UpperCamelCase, decimal values), in order.
fn parse_params(text: &str) -> Result<Vec<(String, u64)>, String> {
    text.split(',')
        .map(|pair| {
            let (name, value) = pair.split_once('=').ok_or_else(|| format!("`{pair}` is not Parameter=value"))?;
            if !name.starts_with(|c: char| c.is_ascii_uppercase()) || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
                return Err(format!("`{name}` is not a parameter name (UpperCamelCase)"));
            }
            let value = value.parse::<u64>().map_err(|_| format!("`{value}` (of {name}) is not a decimal number"))?;
            Ok((name.to_string(), value))
        })
        .collect()
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

/// The work of a build script that generates a table of units, for a crate in rust/<crate>/
/// (rust/python, rust/dpi): reads cosim/units.txt (and has Cargo re-run it when the list
/// changes) and writes `render(units)` into OUT_DIR/units.rs; a `cargo::error` and exit status 1
/// when the list cannot be read or the file written.
pub fn generate(render: impl FnOnce(&[UnitLine]) -> String) {
    let fail = |message: String| -> ! {
        println!("cargo::error={message}");
        std::process::exit(1)
    };
    let var = |name: &str| std::env::var(name).unwrap_or_else(|_| fail(format!("{name} is not set (Cargo sets it)")));
    let list = std::path::Path::new(&var("CARGO_MANIFEST_DIR")).join("../../cosim/units.txt");
    println!("cargo::rerun-if-changed={}", list.display());
    let units = read(&list).unwrap_or_else(|e| fail(e));
    let out = std::path::Path::new(&var("OUT_DIR")).join("units.rs");
    std::fs::write(&out, render(&units)).unwrap_or_else(|e| fail(format!("cannot write {}: {e}", out.display())));
}
