//! Checks that the unit models' own tests (`mod tests` of rust/<unit>.rs) share: port tables,
//! port widths, the two-stage timing and reset. The properties return proptest's
//! `Result<(), TestCaseError>`, so a `proptest!` body ends with one of them and `?`.

use proptest::prelude::*;

use super::{valid_of, Ports, Unit};

/// `(name, width)` of every port of `P`, in port order.
pub fn port_widths<P: Ports>() -> Vec<(&'static str, u32)> {
    P::SIGNALS.iter().map(|s| (s.name, s.width)).collect()
}

/// `P` with every port drawn uniformly over its width ([`Ports::set`] masks each value).
pub fn any_ports<P: Ports>() -> impl Strategy<Value = P> {
    proptest::collection::vec(any::<u128>(), P::SIGNALS.len()).prop_map(|values| {
        let mut ports = P::default();
        for (k, value) in values.into_iter().enumerate() {
            ports.set(k, value);
        }
        ports
    })
}

/// Every port of `ports` fits its width (no bit above it is set).
pub fn fits_ports<P: Ports>(ports: &P) -> Result<(), TestCaseError> {
    for (k, s) in P::SIGNALS.iter().enumerate() {
        prop_assert_eq!(ports.get(k) & !s.mask(), 0, "{}", s.name);
    }
    Ok(())
}

/// The two-stage model `U` equals "`compute`, delayed one call, holding on invalid" over
/// `inputs`, from a model just out of reset.
pub fn matches_delayed_compute<U: Unit + Default>(
    inputs: &[U::In],
    compute: impl Fn(&U::In) -> U::Out,
) -> Result<(), TestCaseError> {
    assert_eq!(U::LATENCY, 2, "{}: a two-stage model", U::NAME);
    let mut m = U::default();
    let mut expect = U::Out::default();
    for i in inputs {
        prop_assert_eq!(m.step(i), expect);
        if valid_of(i) {
            expect = compute(i);
        } else {
            expect.set(0, 0);
        }
    }
    Ok(())
}

/// After `input` (which fills the first stage), reset clears both stages: the next two calls
/// with `idle` return all-zero outputs.
pub fn assert_reset_clears<U: Unit>(m: &mut U, input: &U::In, idle: &U::In) {
    m.step(input);
    m.reset();
    assert_eq!(m.step(idle), U::Out::default());
    assert_eq!(m.step(idle), U::Out::default());
}

/// One valid `input` into the two-stage model `m` just out of reset: the first call returns
/// all-zero outputs, the next one (with the invalid `idle`) the result with valid 1, which then
/// holds, with valid 0, through three more calls with `idle`. Returns that result.
pub fn first_output_then_hold<U: Unit>(m: &mut U, input: &U::In, idle: &U::In) -> U::Out {
    assert_eq!(m.step(input), U::Out::default());
    let first = m.step(idle);
    let mut held = first;
    held.set(0, 0);
    for _ in 0..3 {
        assert_eq!(m.step(idle), held);
    }
    first
}

/// The two-stage timing of model `m` just out of reset: `a` alone comes back one call later as
/// `a_out` and holds ([`first_output_then_hold`]); `a` and `b` back to back come back on
/// consecutive calls, one result per call, and `b_out` then holds with valid 0 through a bubble
/// (`idle`); reset clears both stages ([`assert_reset_clears`]).
pub fn assert_two_stage_timing<U: Unit>(m: &mut U, a: &U::In, b: &U::In, idle: &U::In, a_out: U::Out, b_out: U::Out) {
    assert_eq!(first_output_then_hold(m, a, idle), a_out, "a alone");
    m.step(a);
    assert_eq!(m.step(b), a_out, "a, then b back to back: a's result");
    assert_eq!(m.step(idle), b_out, "b's result the next call");
    let mut held = b_out;
    held.set(0, 0);
    assert_eq!(m.step(idle), held, "b's result held through a bubble");
    assert_reset_clears(m, a, idle);
}
