//! Python values to port bits, as SPEC §13 reads them: a field is a `bool` (0/1 accepted), a
//! non-negative `int` or a `"0x…"` string (case-insensitive, zero-extended), a name from a set
//! (`"non_format"`), or a list of integers. The field tables (names, widths, kinds, sets) are the
//! model crate's ([`gcn_vmem_model::unit::Signal`]); nothing here knows a unit.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyList, PyString, PyTuple};

use gcn_vmem_model::unit::{check_width, parse_hex, Kind, Signal};

/// A short text of a Python value for an error message.
pub fn show(v: &Bound<'_, PyAny>) -> String {
    v.repr().map(|r| r.to_string()).unwrap_or_else(|_| "<unprintable>".to_string())
}

/// A non-negative integer of at most `width` bits: an `int` (or anything with `__index__`, such
/// as a numpy integer) or a `"0x…"` string. `bool` and `float` are refused.
pub fn number(v: &Bound<'_, PyAny>, width: u32) -> Result<u128, String> {
    if v.is_instance_of::<PyBool>() || v.is_instance_of::<PyFloat>() {
        return Err(format!("expected an integer or a \"0x…\" string, got {}", show(v)));
    }
    if let Ok(s) = v.downcast::<PyString>() {
        let text = s.to_cow().map_err(|e| e.to_string())?;
        return parse_hex(&text, width);
    }
    match v.extract::<u128>() {
        Ok(x) => check_width(x, width),
        Err(_) => match v.extract::<i128>() {
            Ok(x) if x < 0 => Err(format!("{x} is not a non-negative integer")),
            Ok(_) => Err(format!("{} does not fit the field's {width} bits", show(v))),
            Err(_) if v.hasattr("__index__").unwrap_or(false) => {
                Err(format!("{} does not fit the field's {width} bits", show(v)))
            }
            Err(_) => Err(format!("expected an integer or a \"0x…\" string, got {}", show(v))),
        },
    }
}

fn quoted(names: &[&str]) -> String {
    names.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(", ")
}

/// A list or tuple as its items (numpy arrays through `tolist()`).
pub fn items<'py>(v: &Bound<'py, PyAny>) -> Option<Vec<Bound<'py, PyAny>>> {
    if let Ok(l) = v.downcast::<PyList>() {
        return Some(l.iter().collect());
    }
    if let Ok(t) = v.downcast::<PyTuple>() {
        return Some(t.iter().collect());
    }
    if v.is_instance_of::<PyString>() {
        return None;
    }
    let listed = v.call_method0("tolist").ok()?;
    listed.downcast::<PyList>().ok().map(|l| l.iter().collect())
}

/// One field's value as `signal` reads it (its width, kind and set), SPEC §13's strict form.
pub fn parse_value(signal: &Signal, v: &Bound<'_, PyAny>) -> Result<u128, String> {
    match signal.kind {
        Kind::Bool => {
            if let Ok(b) = v.downcast::<PyBool>() {
                return Ok(u128::from(b.is_true()));
            }
            match number(v, 128) {
                Ok(x @ (0 | 1)) if !v.is_instance_of::<PyString>() => Ok(x),
                _ => Err(format!("expected true or false, got {}", show(v))),
            }
        }
        Kind::Int | Kind::Hex => number(v, signal.width),
        Kind::Enum(names) => match v.downcast::<PyString>() {
            Ok(s) => {
                let s = s.to_cow().map_err(|e| e.to_string())?;
                names
                    .iter()
                    .position(|n| *n == s)
                    .map(|i| i as u128)
                    .ok_or_else(|| format!("\"{s}\" is not one of {}", quoted(names)))
            }
            Err(_) => Err(format!("expected one of {}, got {}", quoted(names), show(v))),
        },
        Kind::List { width, len } => {
            let Some(elements) = items(v) else {
                return Err(format!("expected a list of {len} integers, got {}", show(v)));
            };
            if elements.len() != len as usize {
                return Err(format!("expected a list of {len} integers, got {}", elements.len()));
            }
            elements.iter().enumerate().try_fold(0u128, |acc, (i, item)| {
                let x = number(item, width).map_err(|e| format!("element {i}: {e}"))?;
                Ok(acc | x << (width * i as u32))
            })
        }
        Kind::OneOf(set) => {
            let x = number(v, signal.width)?;
            if !set.iter().any(|&s| u128::from(s) == x) {
                let list: Vec<String> = set.iter().map(u32::to_string).collect();
                return Err(format!("{x} is not one of {}", list.join(", ")));
            }
            Ok(x)
        }
    }
}
