//! The units' `eval` objects (SPEC §13, docs/usage.md "eval objects"): what an input object
//! holds and how a result is written, defined once here for every front end — `gcn-vmem eval`
//! (the harness renders the model's and the RTL's outputs with [`EvalObject::object`]) and the
//! Python module (which computes [`EvalObject::result`] and renders it the same way). Behind the
//! crate's `json` feature.
//!
//! Each unit implements [`EvalObject`] at the end of its rust/<unit>.rs.

use serde_json::{Map, Value};

use crate::unit::{Ports, Signal, Unit};

/// One field of an eval input object (SPEC §13), read as `signal` describes it (width, kind,
/// set); with `len`, a list of that many such values.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    pub signal: Signal,
    pub len: Option<usize>,
}

/// The value of a [`Field`]: one value, or a list field's elements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldValue {
    One(u128),
    List(Vec<u128>),
}

impl FieldValue {
    /// The value of a one-value field (0 for a list).
    pub fn one(&self) -> u128 {
        match self {
            FieldValue::One(v) => *v,
            FieldValue::List(_) => 0,
        }
    }

    /// The elements of a list field (none for a one-value field).
    pub fn list(&self) -> &[u128] {
        match self {
            FieldValue::One(_) => &[],
            FieldValue::List(v) => v,
        }
    }
}

/// A unit's `eval` objects: its input object's fields, and its output object.
pub trait EvalObject: Unit {
    /// Why the unit has no eval object (a unit whose stimulus answers its outputs runs programs
    /// instead); `None`: it has one.
    const NO_OBJECT: Option<&'static str> = None;

    /// The input object's fields, in SPEC §13's order. Default: the input ports after `valid`.
    fn fields() -> Vec<Field> {
        let ports = <Self::In as Ports>::SIGNALS;
        ports.iter().skip(1).map(|&signal| Field { signal, len: None }).collect()
    }

    /// The input (`valid` set) of an input object whose fields read `values`, in [`fields`]'
    /// order, each inside its field's width and set. Default: the input ports after `valid`.
    ///
    /// [`fields`]: EvalObject::fields
    fn input(values: &[FieldValue]) -> Self::In {
        let mut input = Self::In::default();
        input.set(0, 1);
        for (i, value) in values.iter().enumerate() {
            input.set(i + 1, value.one());
        }
        input
    }

    /// The outputs that hold the result of one valid `input`, computed without a clock: what
    /// the clocked model registers for it (one output bundle; the coalescer's: the wave's beats).
    fn result(input: &Self::In) -> Vec<Self::Out>;

    /// The output object of `input` from the outputs its result spans (those of [`result`], or
    /// those a clocked model or the RTL gave for it).
    ///
    /// [`result`]: EvalObject::result
    fn object(input: &Self::In, outs: &[Self::Out]) -> Map<String, Value>;
}

/// The last of `outs` (all zero for none): the result of a unit with one result per input.
pub fn last<O: Ports>(outs: &[O]) -> O {
    outs.last().copied().unwrap_or_default()
}

/// An output object of these keys and values, in this order.
pub fn object<const N: usize>(entries: [(&str, Value); N]) -> Map<String, Value> {
    entries.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}
