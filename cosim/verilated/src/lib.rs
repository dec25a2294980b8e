//! Verilator 5 runtime for gcn-vmem.
//!
//! crates.io's `verilated` 0.1 targets Verilator 4 and cannot link a Verilator 5 model (see the
//! project README), so the project carries its own crate of that name. It compiles Verilator's
//! runtime (`verilated.cpp`, `verilated_threads.cpp`, FST and VCD writers, coverage) exactly
//! once per build — `links = "verilated"` makes a second runtime a build error — and ships
//! `include/verilated_rs.h`, the C++ glue every unit binding uses: a `Sim<Model, Trace>` that
//! owns a `VerilatedContext`, the model and its FST or VCD waveform, and writes coverage.
//!
//! Dependents find the headers through `DEP_VERILATED_INCLUDE` (Verilator's) and
//! `DEP_VERILATED_SHIM` (this crate's), and the Verilator binary through `DEP_VERILATED_BIN`.
//! They must reference this crate (e.g. call [`version`]) or the linker drops the runtime.

#[cxx::bridge(namespace = "verilated_rs")]
mod ffi {
    unsafe extern "C++" {
        include!("verilated/src/shim.h");

        /// Verilator's product version string, from the compiled runtime.
        fn product_version() -> String;
    }
}

/// Version of the Verilator runtime linked into this binary.
pub fn version() -> String {
    ffi::product_version()
}

/// Waveform formats the runtime can write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wave {
    Fst,
    Vcd,
}

impl Wave {
    /// File extension of the format.
    pub fn extension(self) -> &'static str {
        match self {
            Wave::Fst => "fst",
            Wave::Vcd => "vcd",
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn runtime_reports_verilator_5() {
        let v = super::version();
        assert!(v.starts_with('5'), "unexpected runtime version {v}");
    }
}
