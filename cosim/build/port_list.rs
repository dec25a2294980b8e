//! A unit's port list from `verilator --xml-only`: names, directions, widths and packed arrays of
//! the top's ports, and the files Verilator read. A module of the build script (it generates the
//! bindings from the list) and of the test binary (tests/build_script.rs), which runs its tests:
//! they feed it malformed and unusual port lists. Every error names the port and the rule it
//! breaks.

use std::collections::HashMap;
use std::path::PathBuf;

/// One port of a unit's RTL top, as Verilator elaborated it.
#[derive(Clone, Debug)]
pub struct Port {
    /// The RTL name (`valid_i`).
    pub rtl: String,
    /// The name without its `_i`/`_o` suffix, as the model's port table spells it.
    pub name: String,
    pub input: bool,
    /// Total width in bits.
    pub width: u32,
    /// Elements of a packed array port (`logic [63:0][47:0]` has 64 of 48 bits); 1 otherwise.
    pub elems: u32,
}

impl Port {
    pub fn words(&self) -> u32 {
        self.width.div_ceil(32)
    }
    pub fn elem_width(&self) -> u32 {
        self.width / self.elems
    }
}

/// What `--xml-only` says of a unit: its ports (clk_i and rst_ni left out) and the files read.
#[derive(Debug)]
pub struct Elaborated {
    pub ports: Vec<Port>,
    /// As Verilator names them (relative to where it ran); `<built-in>` and the like left out.
    pub files: Vec<PathBuf>,
}

/// Reads a Verilator constant such as `32'sh3f` or `32'd5`.
fn parse_const(text: &str) -> Option<i64> {
    let digits = text.split_once('\'').map_or(text, |(_, v)| v).trim_start_matches('s');
    let (radix, rest) = match digits.chars().next()? {
        'h' => (16, &digits[1..]),
        'd' => (10, &digits[1..]),
        'b' => (2, &digits[1..]),
        'o' => (8, &digits[1..]),
        _ => (10, digits),
    };
    i64::from_str_radix(&rest.replace('_', ""), radix).ok()
}

/// The width and element count of a data type of the XML type table.
fn dtype_shape(types: &HashMap<&str, roxmltree::Node>, id: &str, depth: u32) -> Result<(u32, u32), String> {
    let node = types.get(id).ok_or_else(|| format!("dtype {id} missing from Verilator's type table"))?;
    if depth > 32 {
        return Err(format!("dtype {id}: type references nest too deep"));
    }
    let sub = |n: &roxmltree::Node| n.attribute("sub_dtype_id").map(str::to_string);
    match node.tag_name().name() {
        "basicdtype" => {
            let bound = |a| node.attribute(a).and_then(|v: &str| v.parse::<i64>().ok());
            match (bound("left"), bound("right")) {
                (Some(l), Some(r)) => Ok(((l - r).unsigned_abs() as u32 + 1, 1)),
                _ if node.attribute("name") == Some("int") => Ok((32, 1)),
                _ => Ok((1, 1)),
            }
        }
        "refdtype" | "enumdtype" => {
            let s = sub(node).ok_or_else(|| format!("dtype {id} has no sub_dtype_id"))?;
            let (w, _) = dtype_shape(types, &s, depth + 1)?;
            Ok((w, 1))
        }
        "packarraydtype" => {
            let s = sub(node).ok_or_else(|| format!("dtype {id} has no sub_dtype_id"))?;
            let (elem, _) = dtype_shape(types, &s, depth + 1)?;
            let consts: Vec<i64> = node
                .descendants()
                .filter(|n| n.tag_name().name() == "range")
                .take(1)
                .flat_map(|r| r.children().filter(|c| c.tag_name().name() == "const"))
                .filter_map(|c| c.attribute("name").and_then(parse_const))
                .collect();
            let [left, right] = consts[..] else {
                return Err(format!("packed array dtype {id}: cannot read its range"));
            };
            let count = (left - right).unsigned_abs() as u32 + 1;
            Ok((elem * count, count))
        }
        "structdtype" | "uniondtype" => {
            let widths: Result<Vec<u32>, String> = node
                .children()
                .filter(|c| c.tag_name().name() == "memberdtype")
                .map(|m| dtype_shape(types, m.attribute("sub_dtype_id").unwrap_or(""), depth + 1).map(|s| s.0))
                .collect();
            let widths = widths?;
            let width = if node.tag_name().name() == "structdtype" {
                widths.iter().sum()
            } else {
                widths.iter().copied().max().unwrap_or(0)
            };
            Ok((width, 1))
        }
        other => Err(format!(
            "dtype {id} is a `{other}`: a unit's ports must be logic vectors, packed arrays or packed structs"
        )),
    }
}

/// The widest element of a packed array port the harness copies (cosim/engine/rtl.rs PortField).
pub const MAX_ELEM_WIDTH: u32 = 96;

/// Reads the top module's ports and the files read from the XML of `verilator --xml-only` for
/// `unit`. clk_i and rst_ni must be there (and are left out of the list), every other port must
/// end in `_i` (input) or `_o` (output), the first of them must be the one-bit `valid_i`, and a
/// packed array's elements may be at most [`MAX_ELEM_WIDTH`] bits wide.
pub fn read(xml: &str, unit: &str) -> Result<Elaborated, String> {
    let doc = roxmltree::Document::parse(xml).map_err(|e| format!("not Verilator's XML: {e}"))?;
    let files = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "file")
        .filter_map(|n| n.attribute("filename"))
        .filter(|f| !f.starts_with('<'))
        .map(PathBuf::from)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let types: HashMap<&str, roxmltree::Node> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "typetable")
        .flat_map(|t| t.children())
        .filter_map(|n| n.attribute("id").map(|id| (id, n)))
        .collect();
    let top = doc
        .descendants()
        .find(|n| n.tag_name().name() == "module" && n.attribute("topModule") == Some("1"))
        .ok_or_else(|| "no top module".to_string())?;
    let mut ports = Vec::new();
    let (mut clk, mut rst) = (false, false);
    for var in top.children().filter(|n| n.tag_name().name() == "var" && n.attribute("dir").is_some()) {
        let rtl = var.attribute("name").unwrap_or_default().to_string();
        let dir = var.attribute("dir").unwrap_or_default();
        let (width, elems) = dtype_shape(&types, var.attribute("dtype_id").unwrap_or(""), 0)
            .map_err(|e| format!("rtl/{unit}.sv port `{rtl}`: {e}"))?;
        match (rtl.as_str(), dir) {
            ("clk_i", "input") => clk = true,
            ("rst_ni", "input") => rst = true,
            (_, "input") | (_, "output") => {
                if elems > 1 && width / elems > MAX_ELEM_WIDTH {
                    return Err(format!(
                        "rtl/{unit}.sv port `{rtl}`: packed array elements of {} bits; the harness copies \
                         elements of at most {MAX_ELEM_WIDTH} bits (cosim/engine/rtl.rs PortField)",
                        width / elems
                    ));
                }
                let input = dir == "input";
                let suffix = if input { "_i" } else { "_o" };
                let Some(name) = rtl.strip_suffix(suffix) else {
                    return Err(format!("rtl/{unit}.sv port `{rtl}`: an {dir} port's name must end in `{suffix}`"));
                };
                ports.push(Port { name: name.to_string(), rtl, input, width, elems });
            }
            _ => return Err(format!("rtl/{unit}.sv port `{rtl}`: direction `{dir}` is not supported")),
        }
    }
    if !clk || !rst {
        return Err(format!("rtl/{unit}.sv must have the ports clk_i and rst_ni (rust/unit.rs's clocking contract)"));
    }
    // The valid of the unit's (first) input port: `valid_i`, or `<port>_valid_i` for a unit with
    // several interfaces (vmem_pipe's `iss_valid_i`).
    let first_is_valid = ports.first().is_some_and(|p| p.input && p.width == 1 && p.rtl.ends_with("valid_i"));
    if !first_is_valid {
        return Err(format!(
            "rtl/{unit}.sv: the first port after clk_i and rst_ni must be `valid_i` (or `<interface>_valid_i`), \
             one bit"
        ));
    }
    Ok(Elaborated { ports, files })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A port list in Verilator's XML shape: `vars` are `(name, dir, dtype_id)` of the top
    /// module; the type table has 1: logic, 2: logic [47:0], 3: logic [63:0][47:0],
    /// 4: a typedef of 5, a packed struct {logic [47:0]; logic}, 8: logic [99:0] × 2.
    fn xml(vars: &[(&str, &str, u32)]) -> String {
        let vars: String = vars
            .iter()
            .map(|(n, d, t)| format!("<var name=\"{n}\" dtype_id=\"{t}\" dir=\"{d}\" vartype=\"logic\"/>\n"))
            .collect();
        format!(
            "<verilator_xml><files><file id=\"a\" filename=\"&lt;built-in&gt;\"/>\
             <file id=\"b\" filename=\"rtl/t.sv\"/><file id=\"c\" filename=\"rtl/t_pkg.sv\"/></files>\
             <netlist><module name=\"t\" topModule=\"1\">{vars}</module><typetable>\
             <basicdtype id=\"1\" name=\"logic\"/><basicdtype id=\"2\" name=\"logic\" left=\"47\" right=\"0\"/>\
             <packarraydtype id=\"3\" sub_dtype_id=\"2\"><range><const name=\"32'sh3f\"/><const name=\"32'sh0\"/>\
             </range></packarraydtype><refdtype id=\"4\" name=\"t_t\" sub_dtype_id=\"5\"/>\
             <structdtype id=\"5\" packed=\"true\"><memberdtype id=\"6\" name=\"a\" sub_dtype_id=\"2\"/>\
             <memberdtype id=\"7\" name=\"b\" sub_dtype_id=\"1\"/></structdtype>\
             <basicdtype id=\"9\" name=\"logic\" left=\"99\" right=\"0\"/>\
             <packarraydtype id=\"8\" sub_dtype_id=\"9\"><range><const name=\"32'd1\"/><const name=\"32'd0\"/>\
             </range></packarraydtype></typetable></netlist></verilator_xml>"
        )
    }

    const CLOCKING: [(&str, &str, u32); 3] = [("clk_i", "input", 1), ("rst_ni", "input", 1), ("valid_i", "input", 1)];

    fn read_with(extra: &[(&str, &str, u32)]) -> Result<Elaborated, String> {
        let vars: Vec<_> = CLOCKING.iter().chain(extra).copied().collect();
        read(&xml(&vars), "t")
    }

    #[test]
    fn widths_packed_arrays_typedefs_and_structs() {
        let e =
            read_with(&[("addr_i", "input", 3), ("s_i", "input", 4), ("valid_o", "output", 1), ("a_o", "output", 2)])
                .unwrap();
        let shape: Vec<(&str, bool, u32, u32)> =
            e.ports.iter().map(|p| (p.name.as_str(), p.input, p.width, p.elems)).collect();
        assert_eq!(
            shape,
            [
                ("valid", true, 1, 1),
                ("addr", true, 3072, 64),
                ("s", true, 49, 1),
                ("valid", false, 1, 1),
                ("a", false, 48, 1)
            ]
        );
        // 64 × 48 bits: 96 words, elements of 48; 49 bits: two words.
        assert_eq!((e.ports[1].words(), e.ports[1].elem_width()), (96, 48));
        assert_eq!((e.ports[2].words(), e.ports[2].elem_width()), (2, 49));
        assert_eq!(e.files, [PathBuf::from("rtl/t.sv"), PathBuf::from("rtl/t_pkg.sv")]);
    }

    #[test]
    fn malformed_port_lists_are_errors_naming_the_port_and_the_rule() {
        let err = |extra: &[(&str, &str, u32)]| read_with(extra).unwrap_err();
        assert!(err(&[("data", "input", 2)]).contains("port `data`: an input port's name must end in `_i`"));
        assert!(err(&[("data_i", "output", 2)]).contains("an output port's name must end in `_o`"));
        assert!(err(&[("bus_io", "inout", 2)]).contains("port `bus_io`: direction `inout` is not supported"));
        assert!(err(&[("wide_i", "input", 8)]).contains("packed array elements of 100 bits"));
        assert!(err(&[("odd_i", "input", 77)]).contains("port `odd_i`: dtype 77 missing"));
        let no_reset = xml(&[("clk_i", "input", 1), ("valid_i", "input", 1)]);
        assert!(read(&no_reset, "t").unwrap_err().contains("must have the ports clk_i and rst_ni"));
        let valid_second =
            xml(&[("clk_i", "input", 1), ("rst_ni", "input", 1), ("a_i", "input", 2), ("valid_i", "input", 1)]);
        assert!(read(&valid_second, "t")
            .unwrap_err()
            .contains("the first port after clk_i and rst_ni must be `valid_i`"));
        let interface_valid = xml(&[("clk_i", "input", 1), ("rst_ni", "input", 1), ("iss_valid_i", "input", 1)]);
        assert!(read(&interface_valid, "t").is_ok());
        assert!(read("<not xml", "t").unwrap_err().starts_with("not Verilator's XML"));
    }

    #[test]
    fn verilator_constants() {
        assert_eq!(parse_const("32'sh3f"), Some(63));
        assert_eq!(parse_const("32'd5"), Some(5));
        assert_eq!(parse_const("4'b1010"), Some(10));
        assert_eq!(parse_const("7"), Some(7));
        assert_eq!(parse_const("32'shzz"), None);
    }
}
