//! `gcn_vmem_model`: the Python module of the gcn-vmem models (PyO3). Everything runs on the
//! model crate (rust/, `gcn-vmem-model`): no simulator, no C++.
//!
//! - `eval(unit, fields)`: SPEC §13's input object as a dict in, the dict `gcn-vmem eval UNIT`
//!   prints out; `eval_batch(unit, inputs)`: a list of such dicts (a list of dicts out), or a dict
//!   of columns (lists, tuples or numpy arrays, one value per input; a dict of lists out);
//! - `exec(document)`: SPEC §13.1 (the executor on the models);
//! - `cost(fetch)`, `cost_batch(fetches)`: SPEC §13.2;
//! - `decode(words)`, `asm(text)`: the instruction codec;
//! - `units()`, `fields(unit)`.
//!
//! Every bad input raises `gcn_vmem_model.Error`, a subclass of `ValueError`, whose message
//! names the field (`field \`tid\`: 64 does not fit the field's 6 bits (max 63)`), as
//! `gcn-vmem`'s error lines do; in a batch it starts with the input's index (`input 3: …`).
//! Nothing panics on bad input. Documentation: docs/integrations/python.md.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use pyo3::IntoPyObjectExt;

mod eval;
mod values;

// `gcn-vmem cost`'s parse and output: the model crate's (its `json` feature).
use gcn_vmem_model::cost::json as cost_json;

use eval::{Evaluator, Output};

/// The Python string of a field name, made once: a dict lookup or insert with it skips building
/// and hashing a new string (most of the cost of a small eval).
fn key<'py>(py: Python<'py>, name: &'static str) -> Bound<'py, PyString> {
    static KEYS: std::sync::OnceLock<std::sync::Mutex<std::collections::HashMap<&'static str, Py<PyString>>>> =
        std::sync::OnceLock::new();
    let keys = KEYS.get_or_init(Default::default);
    let mut keys = keys.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    keys.entry(name).or_insert_with(|| PyString::intern(py, name).unbind()).bind(py).clone()
}

create_exception!(
    gcn_vmem_model,
    Error,
    PyValueError,
    "A bad input: the message names the field (and, in a batch, the input's index)."
);

fn error(message: impl Into<String>) -> PyErr {
    Error::new_err(message.into())
}

fn unknown_unit(name: &str) -> PyErr {
    let extra = if name == "vmem_pipe" {
        " (vmem_pipe has no eval object: it runs programs; use `gcn-vmem exec FILE --pipeline`, SPEC §14.1)"
    } else {
        ""
    };
    error(format!("unknown unit `{name}`{extra}; the units with eval objects are: {}", eval::UNITS.join(", ")))
}

/// The values of `E`'s fields from a dict: every field present, no other key.
fn dict_values<'py, E: Evaluator>(d: &Bound<'py, PyDict>) -> Result<Vec<Bound<'py, PyAny>>, String> {
    let fields = E::fields();
    check_keys(&fields, d)?;
    fields
        .iter()
        .map(|&f| d.get_item(key(d.py(), f)).ok().flatten().ok_or_else(|| format!("missing field `{f}`")))
        .collect()
}

fn check_keys(fields: &[&str], d: &Bound<'_, PyDict>) -> Result<(), String> {
    for key in d.keys() {
        let known =
            key.downcast::<PyString>().ok().and_then(|k| k.to_cow().ok()).is_some_and(|k| fields.contains(&k.as_ref()));
        if !known {
            return Err(format!("unknown field `{}`; the fields are: {}", key_text(&key), fields.join(", ")));
        }
    }
    Ok(())
}

fn key_text(key: &Bound<'_, PyAny>) -> String {
    match key.downcast::<PyString>() {
        Ok(s) => s.to_string(),
        Err(_) => values::show(key),
    }
}

fn output_dict<'py>(py: Python<'py>, out: &Output) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in out {
        d.set_item(key(py, k), v.to_py(py)?)?;
    }
    Ok(d)
}

fn eval_one<E: Evaluator>(py: Python<'_>, fields: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    let d = fields
        .downcast::<PyDict>()
        .map_err(|_| error(format!("expected a dict of fields, got {}", values::show(fields))))?;
    let input = dict_values::<E>(d).and_then(|v| E::parse(&v)).map_err(error)?;
    output_dict(py, &E::output(&input))?.into_py_any(py)
}

/// A list of dicts: a list of output dicts.
fn eval_rows<E: Evaluator>(py: Python<'_>, rows: &[Bound<'_, PyAny>]) -> PyResult<PyObject> {
    let list = PyList::empty(py);
    for (n, row) in rows.iter().enumerate() {
        let d = row
            .downcast::<PyDict>()
            .map_err(|_| error(format!("input {n}: expected a dict of fields, got {}", values::show(row))))?;
        let input = dict_values::<E>(d).and_then(|v| E::parse(&v)).map_err(|e| error(format!("input {n}: {e}")))?;
        list.append(output_dict(py, &E::output(&input))?)?;
    }
    list.into_py_any(py)
}

/// A dict of columns: a dict of output columns (`None` where an input's output lacks the key,
/// as image_addr's `rejected` when it is legal; no column at all for no input).
fn eval_columns<E: Evaluator>(py: Python<'_>, d: &Bound<'_, PyDict>) -> PyResult<PyObject> {
    let fields = E::fields();
    check_keys(&fields, d).map_err(error)?;
    let mut columns = Vec::with_capacity(fields.len());
    let mut rows: Option<usize> = None;
    for f in &fields {
        let column = d.get_item(key(py, f))?.ok_or_else(|| error(format!("missing field `{f}`")))?;
        let values = values::items(&column).ok_or_else(|| {
            error(format!(
                "field `{f}`: expected a list (or array) of values, one per input, got {}",
                values::show(&column)
            ))
        })?;
        match rows {
            Some(r) if r != values.len() => {
                return Err(error(format!(
                    "field `{f}`: {} values, but `{}` has {r}: every column has one value per input",
                    values.len(),
                    fields[0]
                )))
            }
            _ => rows = Some(values.len()),
        }
        columns.push(values);
    }
    let rows = rows.unwrap_or(0);
    let mut out: Vec<(&'static str, Vec<PyObject>)> = Vec::new();
    let mut row = Vec::with_capacity(fields.len());
    for n in 0..rows {
        row.clear();
        row.extend(columns.iter().map(|c| c[n].clone()));
        let input = E::parse(&row).map_err(|e| error(format!("input {n}: {e}")))?;
        let result = E::output(&input);
        for (k, v) in &result {
            let i = match out.iter().position(|(name, _)| name == k) {
                Some(i) => i,
                None => {
                    out.push((k, (0..n).map(|_| py.None()).collect()));
                    out.len() - 1
                }
            };
            out[i].1.push(v.to_py(py)?);
        }
        for (_, column) in out.iter_mut() {
            if column.len() == n {
                column.push(py.None());
            }
        }
    }
    let d = PyDict::new(py);
    for (k, column) in out {
        d.set_item(key(py, k), PyList::new(py, column)?)?;
    }
    d.into_py_any(py)
}

/// Runs `$body` with `E` the evaluator of the unit called `$name`.
macro_rules! with_unit {
    ($name:expr, $E:ident => $body:expr) => {
        with_unit!(@match $name, $E => $body;
            "buffer_addr" BufferAddr, "swizzle" Swizzle, "format_unpack" FormatUnpack, "format_pack" FormatPack,
            "d16" D16, "image_addr" ImageAddr, "multi_texel" MultiTexel, "coalescer" Coalescer,
            "inline_const" InlineConst)
    };
    (@match $name:expr, $E:ident => $body:expr; $($unit:literal $T:ident),*) => {
        match $name {
            $($unit => {
                type $E = eval::$T;
                $body
            })*
            other => Err(unknown_unit(other)),
        }
    };
}

/// eval(unit, fields) -> dict
///
/// One SPEC §13 eval object of `unit` (a dict of its input fields) through the model: the dict
/// `gcn-vmem eval UNIT` prints for it (same keys in the same order, same values).
/// Raises gcn_vmem_model.Error (a ValueError) naming the field on bad input.
#[pyfunction]
#[pyo3(name = "eval")]
fn eval_py(py: Python<'_>, unit: &str, fields: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    with_unit!(unit, E => eval_one::<E>(py, fields))
}

/// eval_batch(unit, inputs) -> list[dict] | dict[str, list]
///
/// Many eval objects in one call. `inputs` is a list (or tuple) of dicts, answered by a list of
/// output dicts; or a dict of columns (each a list, tuple or numpy array with one value per
/// input), answered by a dict of output columns (lists; `None` where an output lacks the key).
/// Raises gcn_vmem_model.Error naming the input's index and the field.
///
/// Python's cyclic garbage collector is paused during the call (the outputs are dicts and lists
/// of numbers and strings, which make no cycles): collections triggered by the many new
/// containers cost as much as the conversion itself.
#[pyfunction]
fn eval_batch(py: Python<'_>, unit: &str, inputs: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    let gc = py.import("gc")?;
    let paused = gc.call_method0("isenabled")?.is_truthy()?;
    if paused {
        gc.call_method0("disable")?;
    }
    let result = eval_batch_inner(py, unit, inputs);
    if paused {
        gc.call_method0("enable")?;
    }
    result
}

fn eval_batch_inner(py: Python<'_>, unit: &str, inputs: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    if let Ok(d) = inputs.downcast::<PyDict>() {
        return with_unit!(unit, E => eval_columns::<E>(py, d));
    }
    let rows = values::items(inputs)
        .ok_or_else(|| error(format!("expected a list of dicts or a dict of columns, got {}", values::show(inputs))))?;
    with_unit!(unit, E => eval_rows::<E>(py, &rows))
}

/// units() -> list[str]: the units with an eval object.
#[pyfunction]
fn units() -> Vec<&'static str> {
    eval::UNITS.to_vec()
}

/// fields(unit) -> list[str]: the unit's input fields, in SPEC §13's order.
#[pyfunction]
fn fields(unit: &str) -> PyResult<Vec<&'static str>> {
    with_unit!(unit, E => Ok(E::fields()))
}

/// A dict (or JSON text) as JSON text, through Python's json module.
fn json_text(py: Python<'_>, doc: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = doc.downcast::<PyString>() {
        return Ok(s.to_cow()?.into_owned());
    }
    let json = py.import("json")?;
    json.call_method1("dumps", (doc,))
        .and_then(|t| t.extract::<String>())
        .map_err(|e| error(format!("the input is not JSON-serialisable: {e}")))
}

fn from_json(py: Python<'_>, value: &serde_json::Value) -> PyResult<PyObject> {
    py.import("json")?.call_method1("loads", (value.to_string(),))?.into_py_any(py)
}

/// exec(document) -> dict
///
/// SPEC §13.1 on the models: `document` (a dict, or its JSON text) holds the wave's initial
/// state (`sgprs`, `vgprs`, `exec`, `m0`, `lds`, `memory`) and its `program`; the result is the
/// dict `gcn-vmem exec` prints (`vgprs`, `memory`, `lds`). Raises gcn_vmem_model.Error naming the
/// key, or the instruction's index and text and the rule.
#[pyfunction]
#[pyo3(name = "exec")]
fn exec_py(py: Python<'_>, document: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    // SPEC §13.1's parse, run and output object are the model crate's, as `gcn-vmem exec`'s are.
    use gcn_vmem_model::exec::{document as exec_document, Models};
    let text = json_text(py, document)?;
    let program = exec_document::parse(&text).map_err(error)?;
    let value = exec_document::run(&program, &mut Models::default(), |_, _| Ok(())).map_err(error)?;
    from_json(py, &value)
}

/// cost(fetch) -> dict
///
/// SPEC §13.2: one fetch (a dict, or its JSON text) through the cost model; the dict
/// `gcn-vmem cost` prints. Raises gcn_vmem_model.Error naming the field.
#[pyfunction]
fn cost(py: Python<'_>, fetch: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    let text = json_text(py, fetch)?;
    let map = cost_json::evaluate(&text).map_err(error)?;
    from_json(py, &serde_json::Value::Object(map))
}

/// cost_batch(fetches) -> list[dict]: `cost` of each; the error names the fetch's index.
#[pyfunction]
fn cost_batch(py: Python<'_>, fetches: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    let rows = values::items(fetches)
        .ok_or_else(|| error(format!("expected a list of fetches, got {}", values::show(fetches))))?;
    let mut all = Vec::with_capacity(rows.len());
    for (n, row) in rows.iter().enumerate() {
        let text = json_text(py, row).map_err(|e| error(format!("input {n}: {e}")))?;
        let map = cost_json::evaluate(&text).map_err(|e| error(format!("input {n}: {e}")))?;
        all.push(serde_json::Value::Object(map));
    }
    from_json(py, &serde_json::Value::Array(all))
}

/// decode(words) -> str
///
/// A GFX9 MUBUF/MTBUF/MIMG instruction's dwords (a list of ints, first dword first, or a string
/// `"0xe0505004 0x01010102"`) as llvm-mc-14 prints it (`gcn-vmem decode`). Raises
/// gcn_vmem_model.Error naming the field.
#[pyfunction]
fn decode(words: &Bound<'_, PyAny>) -> PyResult<String> {
    let words: Vec<u32> = if let Ok(s) = words.downcast::<PyString>() {
        let text = s.to_cow()?;
        let mut w = Vec::new();
        for token in text.split([' ', ',', '\t']).filter(|t| !t.is_empty()) {
            let hex = token.strip_prefix("0x").or_else(|| token.strip_prefix("0X")).unwrap_or(token);
            match u32::from_str_radix(hex, 16) {
                Ok(x) if !hex.is_empty() && hex.len() <= 8 && !hex.starts_with('+') => w.push(x),
                _ => return Err(error(format!("`{token}` is not a 32-bit hexadecimal dword"))),
            }
        }
        w
    } else {
        let items = values::items(words)
            .ok_or_else(|| error(format!("expected a list of dwords or a string, got {}", values::show(words))))?;
        items
            .iter()
            .enumerate()
            .map(|(i, item)| values::number(item, 32).map(|x| x as u32).map_err(|e| error(format!("dword {i}: {e}"))))
            .collect::<PyResult<_>>()?
    };
    let (inst, used) = gcn_vmem_model::isa::decode(&words).map_err(|e| error(e.to_string()))?;
    if used != words.len() {
        return Err(error(format!(
            "{} is {used} dwords; {} given (decode one instruction at a time)",
            inst.mnemonic(),
            words.len()
        )));
    }
    Ok(gcn_vmem_model::isa::disassemble(&inst))
}

/// asm(text) -> list[int]: one instruction (LLVM gfx900 syntax) assembled into its dwords, first
/// dword first (`gcn-vmem asm`). Raises gcn_vmem_model.Error naming the operand or field.
#[pyfunction]
fn asm(text: &str) -> PyResult<Vec<u32>> {
    let inst = gcn_vmem_model::isa::assemble(text).map_err(|e| error(e.to_string()))?;
    Ok(gcn_vmem_model::isa::encode(&inst))
}

#[pymodule]
#[pyo3(name = "gcn_vmem_model")]
fn python_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("Error", m.py().get_type::<Error>())?;
    m.add_function(wrap_pyfunction!(eval_py, m)?)?;
    m.add_function(wrap_pyfunction!(eval_batch, m)?)?;
    m.add_function(wrap_pyfunction!(units, m)?)?;
    m.add_function(wrap_pyfunction!(fields, m)?)?;
    m.add_function(wrap_pyfunction!(exec_py, m)?)?;
    m.add_function(wrap_pyfunction!(cost, m)?)?;
    m.add_function(wrap_pyfunction!(cost_batch, m)?)?;
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(asm, m)?)?;
    Ok(())
}
