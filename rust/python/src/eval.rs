//! The units' `eval` objects (SPEC §13, docs/usage.md "eval objects"): a dict of input fields in,
//! the dict `gcn-vmem eval UNIT` prints out. Both sides are the model crate's
//! ([`gcn_vmem_model::eval::EvalObject`]): the input object's fields (names, widths, kinds, sets;
//! for most units the input ports after `valid`), the result (`EvalObject::result`, the unit's
//! combinational function: what the clocked model registers for a valid input) and the output
//! object, which this module turns into Python objects. Nothing here knows a unit; the units come
//! from cosim/units.txt (build.rs).

use std::marker::PhantomData;

use gcn_vmem_model::eval::{EvalObject, Field, FieldValue};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use pyo3::IntoPyObjectExt;
use serde_json::{Map, Value};

use crate::values::{items, parse_value};

/// One unit's eval (`M`, its model), its input fields read from the model once per call: their
/// names, the parse of their values (in that order, all present) and the output object of a
/// parsed input.
pub struct Evaluator<M: EvalObject> {
    fields: Vec<Field>,
    names: Vec<&'static str>,
    /// The parsed values of the input at hand (kept: a batch reuses it).
    parsed: Vec<FieldValue>,
    model: PhantomData<M>,
}

impl<M: EvalObject> Evaluator<M> {
    pub fn new() -> Self {
        let fields = M::fields();
        let names = fields.iter().map(|f| f.signal.name).collect();
        Evaluator { fields, names, parsed: Vec::new(), model: PhantomData }
    }

    /// The input fields' names, in SPEC §13's order.
    pub fn names(&self) -> &[&'static str] {
        &self.names
    }

    /// The input of the fields' values, given in [`Evaluator::names`]' order.
    pub fn parse(&mut self, values: &[Bound<'_, PyAny>]) -> Result<M::In, String> {
        self.parsed.clear();
        for (field, v) in self.fields.iter().zip(values) {
            self.parsed.push(parse_field(field, v)?);
        }
        Ok(M::input(&self.parsed))
    }

    /// The output object of `input`.
    pub fn output(&self, input: &M::In) -> Map<String, Value> {
        M::object(input, &M::result(input))
    }
}

/// One field's value as `field` reads it; the error names the field (and a list's element).
fn parse_field(field: &Field, v: &Bound<'_, PyAny>) -> Result<FieldValue, String> {
    let name = field.signal.name;
    let Some(len) = field.len else {
        return parse_value(&field.signal, v).map(FieldValue::One).map_err(|e| format!("field `{name}`: {e}"));
    };
    let list = items(v).ok_or_else(|| format!("field `{name}`: expected a list of {len} {name}"))?;
    if list.len() != len {
        return Err(format!("field `{name}`: expected a list of {len} {name}, got {}", list.len()));
    }
    let element = |(i, item): (usize, &Bound<'_, PyAny>)| {
        parse_value(&field.signal, item).map_err(|e| format!("field `{name}`: element {i}: {e}"))
    };
    list.iter().enumerate().map(element).collect::<Result<_, _>>().map(FieldValue::List)
}

/// A JSON value as the Python object `json.loads` makes of it: `bool`, `int`, `float`, `str`,
/// `list`, `dict` (keys in order), `None`.
pub fn to_py(py: Python<'_>, value: &Value) -> PyResult<PyObject> {
    match value {
        Value::Null => Ok(py.None()),
        Value::Bool(b) => b.into_py_any(py),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_py_any(py),
            (None, Some(i)) => i.into_py_any(py),
            (None, None) => n.as_f64().unwrap_or(f64::NAN).into_py_any(py),
        },
        Value::String(s) => s.into_py_any(py),
        Value::Array(values) => {
            let items = values.iter().map(|v| to_py(py, v)).collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_py_any(py)
        }
        Value::Object(map) => dict(py, map)?.into_py_any(py),
    }
}

/// A JSON object as a Python dict, its keys in order.
pub fn dict<'py>(py: Python<'py>, map: &Map<String, Value>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in map {
        d.set_item(crate::key(py, k), to_py(py, v)?)?;
    }
    Ok(d)
}
