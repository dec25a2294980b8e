//! SPEC §13.2's JSON lines of the cost model (SPEC §8): a line parsed into a [`Fetch`]
//! ([`parse`]) and its cost as the output object ([`evaluate`]), for the harness's
//! `gcn-vmem cost` and the Python module's `cost`. Behind the crate's `json` feature.
//!
//! Which fields a line needs depends on its `op`: every op needs `address_dwords` and
//! `data_dwords`; buffers need `single`; images need `tsharp_bits` and `sampler`; image_sample
//! and image_gather4 need `filter` (`aniso` defaults to 1); a filtered image_sample needs
//! `format`. A field an op does not use is checked but ignored; an unknown field is an error.

use serde_json::{json, Map, Value};

use crate::cost::{self, Channel, ChannelKind, Fetch, Filter, Op, TccPeak, TexelFormat};

const FIELDS: [&str; 9] =
    ["op", "tsharp_bits", "sampler", "address_dwords", "data_dwords", "filter", "aniso", "format", "single"];

fn uint(map: &Map<String, Value>, name: &str, max: u64) -> Result<Option<u32>, String> {
    match map.get(name) {
        None => Ok(None),
        Some(Value::Number(n)) => match n.as_u64() {
            Some(v) if v <= max => Ok(Some(v as u32)),
            _ => Err(format!("field `{name}`: {n} is not an integer in 0..={max}")),
        },
        Some(other) => Err(format!("field `{name}`: expected an integer, got {other}")),
    }
}

fn boolean(map: &Map<String, Value>, name: &str) -> Result<Option<bool>, String> {
    match map.get(name) {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err(format!("field `{name}`: expected true or false, got {other}")),
    }
}

fn string<'a>(map: &'a Map<String, Value>, name: &str) -> Result<Option<&'a str>, String> {
    match map.get(name) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(format!("field `{name}`: expected a string, got {other}")),
    }
}

fn required<T>(value: Option<T>, name: &str, op: Op) -> Result<T, String> {
    value.ok_or_else(|| format!("missing field `{name}` (needed by {})", op.name()))
}

fn format_of(value: &Value) -> Result<TexelFormat, String> {
    let shape = "expected {\"bpp\": N, \"channels\": [[\"fixed\"|\"float\"|\"int\", bits], …]}";
    let Value::Object(map) = value else {
        return Err(format!("field `format`: {shape}"));
    };
    if let Some(key) = map.keys().find(|k| *k != "bpp" && *k != "channels") {
        return Err(format!("field `format`: unknown key `{key}`; {shape}"));
    }
    let bpp = uint(map, "bpp", 1024).map_err(|e| format!("field `format`: {e}"))?;
    let bpp = bpp.ok_or_else(|| format!("field `format`: missing `bpp`; {shape}"))?;
    let Some(Value::Array(items)) = map.get("channels") else {
        return Err(format!("field `format`: missing or malformed `channels`; {shape}"));
    };
    let channels = items
        .iter()
        .enumerate()
        .map(|(i, item)| match item.as_array().map(Vec::as_slice) {
            Some([Value::String(kind), Value::Number(bits)]) => Ok(Channel {
                kind: kind.parse::<ChannelKind>().map_err(|e| format!("field `format`: channel {i}: {e}"))?,
                bits: bits
                    .as_u64()
                    .filter(|&b| b <= 64)
                    .ok_or_else(|| format!("field `format`: channel {i}: {bits} is not a bit count"))?
                    as u32,
            }),
            _ => Err(format!("field `format`: channel {i} is {item}; {shape}")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(TexelFormat { bpp, channels })
}

/// Parses one §13.2 line into a fetch; the error names the field.
pub fn parse(line: &str) -> Result<Fetch, String> {
    let map = match serde_json::from_str(line).map_err(|e| format!("malformed JSON: {e}"))? {
        Value::Object(map) => map,
        _ => return Err("expected a JSON object".to_string()),
    };
    if let Some(key) = map.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(format!("unknown field `{key}`; the fields are: {}", FIELDS.join(", ")));
    }
    let op: Op = string(&map, "op")?.ok_or("missing field `op`")?.parse().map_err(|e| format!("field `op`: {e}"))?;
    let mut fetch = Fetch { op, ..Fetch::default() };
    fetch.address_dwords = required(uint(&map, "address_dwords", 64)?, "address_dwords", op)?;
    fetch.data_dwords = required(uint(&map, "data_dwords", 64)?, "data_dwords", op)?;
    let tsharp_bits = uint(&map, "tsharp_bits", 1024)?;
    let sampler = boolean(&map, "sampler")?;
    let single = boolean(&map, "single")?;
    let filter =
        string(&map, "filter")?.map(str::parse::<Filter>).transpose().map_err(|e| format!("field `filter`: {e}"))?;
    let aniso = uint(&map, "aniso", 64)?;
    let format = map.get("format").map(format_of).transpose()?;
    if op.is_buffer() {
        fetch.single = required(single, "single", op)?;
        fetch.sampler = sampler.unwrap_or(false);
    } else {
        fetch.tsharp_bits = required(tsharp_bits, "tsharp_bits", op)?;
        fetch.sampler = required(sampler, "sampler", op)?;
    }
    if op.uses_sampler() {
        fetch.filter = required(filter, "filter", op)?;
        fetch.aniso = aniso.unwrap_or(1);
    } else {
        fetch.filter = filter.unwrap_or_default();
        fetch.aniso = aniso.unwrap_or(1);
    }
    fetch.format = format;
    Ok(fetch)
}

/// A number as JSON: an integer when it is one (16, not 16.0), else a float (1.5, 0.25).
fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        json!(x as i64)
    } else {
        json!(x)
    }
}

/// The §13.2 output object of one line: the five fields of the spec in its order, then the
/// three issue buses and seed 003's other figures where they apply.
pub fn evaluate(line: &str) -> Result<Map<String, Value>, String> {
    let fetch = parse(line)?;
    let c = cost::cost(&fetch)?;
    let notes = cost::notes(&fetch);
    let mut map = Map::new();
    map.insert("issue_cycles".into(), json!(c.issue_cycles));
    map.insert("ta_divisor".into(), number(c.ta_divisor));
    map.insert("td_divisor".into(), number(c.td_divisor));
    map.insert("cycles_per_wave".into(), number(c.cycles_per_wave));
    map.insert("fetches_per_clock".into(), number(c.fetches_per_clock));
    map.insert("command_cycles".into(), json!(c.command_cycles));
    map.insert("address_cycles".into(), json!(c.address_cycles));
    map.insert("data_cycles".into(), json!(c.data_cycles));
    if let Some(t) = notes.gather4_texels_per_clock {
        map.insert("gather4_texels_per_clock".into(), json!(t));
    }
    if let Some(s) = notes.quad_surcharges {
        map.insert(
            "quad_surcharge_cycles".into(),
            json!({
                "border_color": s.border_color,
                "custom_gradients": s.custom_gradients,
                "cube_corners": s.cube_corners,
                "npot_wrap": s.npot_wrap,
            }),
        );
    }
    if let Some(peak) = notes.tcc_peak {
        let value = match peak {
            TccPeak::Reads(n) => json!({ "reads": n }),
            TccPeak::Writes(n) => json!({ "writes": n }),
            TccPeak::Atomics { without_return, with_return } => {
                json!({ "atomics_without_return": without_return, "atomics_with_return": with_return })
            }
        };
        map.insert("tcc_peak_per_clock".into(), value);
    }
    Ok(map)
}
