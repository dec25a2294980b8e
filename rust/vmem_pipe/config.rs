//! The sizes of `vmem_pipe` (docs/decisions.md "vmem_pipe", *Parameters*): the RTL's parameters,
//! their defaults, the small configuration the random programs also run at, and the legal values
//! (`Config::validate`; the RTL stops elaboration with `$fatal` on the same rules).

use std::fmt;

/// The parameters of `vmem_pipe`, named as the RTL's (`Banks`, `Lines`, …) in snake case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    /// TCP banks: 2 or 4 (bank of an address = bits 7:6, or bit 6 with 2 banks).
    pub banks: usize,
    /// Lines per bank (fully associative, 64 bytes each).
    pub lines: usize,
    /// MSHRs per bank (1..=16).
    pub mshrs: usize,
    /// Accesses one MSHR serves, the miss that opened it included (at least 1).
    pub targets: usize,
    /// Instructions in flight (1..=16).
    pub in_flight: usize,
    /// Accesses a bank's lookup queue holds (at least 4).
    pub lookup_depth: usize,
    /// Accesses a bank's return queue holds (at least 1).
    pub return_depth: usize,
    /// Requests a bank's L2 request queue holds (at least 1).
    pub l2_depth: usize,
}

impl Default for Config {
    /// The contract's defaults: 4 banks × 64 lines, 16 MSHRs × 8 targets, 16 in flight, queues
    /// of 4, 8 and 2.
    fn default() -> Self {
        Config {
            banks: 4,
            lines: 64,
            mshrs: 16,
            targets: 8,
            in_flight: 16,
            lookup_depth: 4,
            return_depth: 32,
            l2_depth: 2,
        }
    }
}

/// An illegal configuration: the parameter to change and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// The RTL parameter's name (`Lines`, `Mshrs`, …).
    pub parameter: &'static str,
    /// The parameter's value, then what it must be and how to fix it, e.g. "8: must exceed
    /// Mshrs + ReturnDepth (2 + 8 = 10); set Lines to 11 or more, or lower Mshrs or ReturnDepth".
    pub reason: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "vmem_pipe parameter {} = {}", self.parameter, self.reason)
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// The contract's small column: 2 banks × 8 lines, 2 MSHRs × 2 targets, 2 in flight, queues
    /// of 4, 2 and 1 — a configuration that fills every structure.
    pub fn small() -> Config {
        Config { banks: 2, lines: 8, mshrs: 2, targets: 2, in_flight: 2, lookup_depth: 4, return_depth: 2, l2_depth: 1 }
    }

    /// The RTL parameters and their values, in the declaration's order.
    pub fn params(&self) -> [(&'static str, usize); 8] {
        [
            ("Banks", self.banks),
            ("Lines", self.lines),
            ("Mshrs", self.mshrs),
            ("Targets", self.targets),
            ("InFlight", self.in_flight),
            ("LookupDepth", self.lookup_depth),
            ("ReturnDepth", self.return_depth),
            ("L2Depth", self.l2_depth),
        ]
    }

    /// The contract's legal values, checked in the parameters' order: Banks ∈ {2, 4};
    /// Lines > Mshrs + ReturnDepth; 1 ≤ Mshrs ≤ 16; Targets ≥ 1; 1 ≤ InFlight ≤ 16;
    /// LookupDepth ≥ 4; ReturnDepth ≥ 1; L2Depth ≥ 1. The first violated rule is the error.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let err = |parameter: &'static str, value: usize, rule: String| {
            Err(ConfigError { parameter, reason: format!("{value}: {rule}") })
        };
        let at_least = |parameter: &'static str, value: usize, min: usize, why: &str| {
            if value < min {
                err(parameter, value, format!("must be at least {min} ({why}); set {parameter} to {min} or more"))
            } else {
                Ok(())
            }
        };
        let at_most = |parameter: &'static str, value: usize, max: usize, why: &str| {
            if value > max {
                err(parameter, value, format!("must be at most {max} ({why}); set {parameter} to {max} or less"))
            } else {
                Ok(())
            }
        };
        if self.banks != 2 && self.banks != 4 {
            return err("Banks", self.banks, "must be 2 or 4 (bank = the address bits just above bit 5)".into());
        }
        let needed = self.mshrs + self.return_depth;
        if self.lines <= needed {
            return err(
                "Lines",
                self.lines,
                format!(
                    "must exceed Mshrs + ReturnDepth ({} + {} = {needed}: at most Mshrs lines are being filled and \
                     at most ReturnDepth are held by queued hits, so a miss always finds a victim); set Lines to \
                     {} or more, or lower Mshrs or ReturnDepth",
                    self.mshrs,
                    self.return_depth,
                    needed + 1
                ),
            );
        }
        at_least("Mshrs", self.mshrs, 1, "a miss needs an MSHR")?;
        at_most("Mshrs", self.mshrs, 16, "a tag {0, m} has 4 bits for m")?;
        at_least("Targets", self.targets, 1, "an MSHR serves the miss that opened it")?;
        at_least("InFlight", self.in_flight, 1, "an instruction must be able to be in flight")?;
        at_most("InFlight", self.in_flight, 16, "a tag {1, id} has 4 bits for id")?;
        at_least("LookupDepth", self.lookup_depth, 4, "a bundle's four requests may all be one bank's")?;
        at_least("ReturnDepth", self.return_depth, 1, "every load access needs a return-queue entry")?;
        at_least("L2Depth", self.l2_depth, 1, "every L2 request passes through the queue")?;
        Ok(())
    }
}
