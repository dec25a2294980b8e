//! Vector files and `eval` objects (SPEC §11, §13): one JSON object per line, keys named like
//! the unit's input ports.
//!
//! Two strictness levels share one parser. `Strict` is SPEC §13 for `eval`: every field
//! present, values inside their field's width and set. `Replay` is for vector files written by
//! the harness: it additionally accepts an optional `valid` (default true; `false` marks an idle
//! cycle), an optional `reset` (`"pulse"` or `"hold"`: the reset activity before the cycle's
//! edge, see `lockstep::Reset`) and any value that fits a port's width, so that every input the
//! random generator can produce — reserved encodings and resets included — can be saved and
//! replayed.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context as _;
use serde_json::{Map, Value};

use crate::engine::lockstep::{Reset, Step};
use gcn_vmem_model::unit::{check_width, parse_hex, Kind, Ports, Signal};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strictness {
    Strict,
    Replay,
}

/// Parses one field's JSON value as `signal` reads it (its width, kind and set).
pub(crate) fn parse_value(signal: &Signal, value: &Value, strictness: Strictness) -> Result<u128, String> {
    let number = |value: &Value| -> Result<u128, String> {
        match value {
            Value::Number(n) => n
                .as_u64()
                .map(u128::from)
                .ok_or_else(|| format!("{n} is not a non-negative integer"))
                .and_then(|v| check_width(v, signal.width)),
            Value::String(s) => parse_hex(s, signal.width),
            other => Err(format!("expected an integer or a \"0x…\" string, got {other}")),
        }
    };
    match signal.kind {
        Kind::Bool => match value {
            Value::Bool(b) => Ok(u128::from(*b)),
            Value::Number(n) if n.as_u64() == Some(0) || n.as_u64() == Some(1) => Ok(u128::from(n.as_u64() == Some(1))),
            other => Err(format!("expected true or false, got {other}")),
        },
        Kind::Int | Kind::Hex => number(value),
        Kind::Enum(names) => match value {
            Value::String(s) => names
                .iter()
                .position(|n| n == s)
                .map(|i| i as u128)
                .ok_or_else(|| format!("\"{s}\" is not one of {}", quoted(names))),
            other => Err(format!("expected one of {}, got {other}", quoted(names))),
        },
        Kind::List { width, len } => {
            let Value::Array(items) = value else {
                return Err(format!("expected a list of {len} integers, got {value}"));
            };
            if items.len() != len as usize {
                return Err(format!("expected a list of {len} integers, got {}", items.len()));
            }
            let element = Signal { name: signal.name, width, kind: Kind::Int };
            items.iter().enumerate().try_fold(0u128, |acc, (i, item)| {
                let v = parse_value(&element, item, strictness).map_err(|e| format!("element {i}: {e}"))?;
                Ok(acc | v << (width * i as u32))
            })
        }
        Kind::OneOf(set) => {
            let v = number(value)?;
            if strictness == Strictness::Strict && !set.iter().any(|&s| u128::from(s) == v) {
                let list: Vec<String> = set.iter().map(u32::to_string).collect();
                return Err(format!("{v} is not one of {}", list.join(", ")));
            }
            Ok(v)
        }
    }
}

fn quoted(names: &[&str]) -> String {
    names.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(", ")
}

/// Parses one line as a JSON object.
pub(crate) fn parse_map(line: &str) -> Result<Map<String, Value>, String> {
    match serde_json::from_str(line).map_err(|e| format!("malformed JSON: {e}"))? {
        Value::Object(map) => Ok(map),
        _ => Err("expected a JSON object".to_string()),
    }
}

/// Parses one JSON object into a port bundle. The error names the field and the problem.
pub fn parse_object<P: Ports>(line: &str, strictness: Strictness) -> Result<P, String> {
    ports_from_map(&parse_map(line)?, strictness)
}

/// Parses one vector-file line (`Replay` strictness, plus the optional `reset`).
pub(crate) fn parse_step<P: Ports>(line: &str) -> Result<Step<P>, String> {
    let mut map = parse_map(line)?;
    let reset = match map.remove("reset") {
        None => Reset::None,
        Some(Value::String(s)) if s == "pulse" => Reset::Pulse,
        Some(Value::String(s)) if s == "hold" => Reset::Hold,
        Some(other) => return Err(format!("field `reset`: expected \"pulse\" or \"hold\", got {other}")),
    };
    Ok(Step { reset, input: ports_from_map(&map, Strictness::Replay)? })
}

fn ports_from_map<P: Ports>(map: &Map<String, Value>, strictness: Strictness) -> Result<P, String> {
    let mut ports = P::default();
    for key in map.keys() {
        let known =
            P::SIGNALS.iter().skip(1).any(|s| s.name == key) || (strictness == Strictness::Replay && key == "valid");
        if !known {
            let names: Vec<&str> = P::SIGNALS.iter().skip(1).map(|s| s.name).collect();
            return Err(format!("unknown field `{key}`; the fields are: {}", names.join(", ")));
        }
    }
    ports.set(0, 1);
    for (i, signal) in P::SIGNALS.iter().enumerate() {
        match map.get(signal.name) {
            Some(v) => {
                let bits = parse_value(signal, v, strictness).map_err(|e| format!("field `{}`: {e}", signal.name))?;
                ports.set(i, bits);
            }
            None if i == 0 => {}
            None => return Err(format!("missing field `{}`", signal.name)),
        }
    }
    Ok(ports)
}

/// One cycle as a vector-file line (SPEC §13 names; `valid` written only when false, `reset`
/// only when the cycle has reset activity).
pub(crate) fn to_line<P: Ports>(step: &Step<P>) -> String {
    let ports = &step.input;
    let mut map = Map::new();
    if step.reset != Reset::None {
        map.insert("reset".into(), Value::String(step.reset.name().to_string()));
    }
    for (i, signal) in P::SIGNALS.iter().enumerate() {
        let v = ports.get(i);
        if i == 0 {
            if v == 0 {
                map.insert("valid".into(), Value::Bool(false));
            }
            continue;
        }
        map.insert(signal.name.into(), to_value(signal, v));
    }
    Value::Object(map).to_string()
}

/// A port value in its §13 form.
pub(crate) fn to_value(signal: &Signal, v: u128) -> Value {
    match signal.kind {
        Kind::Bool => Value::Bool(v != 0),
        Kind::Hex => Value::String(signal.hex(v)),
        Kind::Enum(names) => match names.get(v as usize) {
            Some(n) => Value::String((*n).to_string()),
            None => Value::from(v as u64),
        },
        Kind::Int | Kind::OneOf(_) => Value::from(v as u64),
        Kind::List { width, len } => {
            let mask = (1u128 << width) - 1;
            Value::Array((0..len).map(|i| Value::from((v >> (width * i) & mask) as u64)).collect())
        }
    }
}

/// A whole vector file as text.
pub fn to_text<P: Ports>(steps: &[Step<P>]) -> String {
    let mut text = String::new();
    for step in steps {
        writeln!(text, "{}", to_line(step)).unwrap();
    }
    text
}

/// Reads a vector file. Blank lines are skipped; the first bad line fails the whole file with
/// its line number, so a replay never silently runs a different sequence.
pub fn read_file<P: Ports>(path: &Path) -> anyhow::Result<Vec<Step<P>>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read vector file {}", path.display()))?;
    let mut inputs = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let input = parse_step(line).map_err(|e| anyhow::anyhow!("{}:{}: {e}", path.display(), n + 1))?;
        inputs.push(input);
    }
    if inputs.is_empty() {
        anyhow::bail!("{}: the vector file holds no vectors", path.display());
    }
    Ok(inputs)
}
