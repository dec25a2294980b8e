//! The executor's error: an instruction that cannot run (SPEC names it illegal, or it is not
//! modelled), with the rule it breaks.

use std::fmt;

/// An instruction that cannot run: names the rule it breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecError(pub String);

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ExecError {}
