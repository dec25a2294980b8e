//! Reports of finished runs for people and CI: the timing diagram around a mismatch ([`svg`]),
//! JUnit XML ([`junit`]), the functional-coverage verdict ([`bins`]) and Verilator's
//! line/toggle coverage ([`coverage`]). (The waveforms a failing run writes are the engine's:
//! [`crate::engine::wave`].)

pub mod bins;
pub mod coverage;
pub mod junit;
pub mod svg;
