//! What a run leaves for people and CI: the Rust-written waveform of expected against actual
//! values and the FST-to-VCD conversion ([`wave`]), the timing diagram around a mismatch
//! ([`svg`]), JUnit XML ([`junit`]), the functional-coverage bins table ([`bins`]) and
//! Verilator's line/toggle coverage ([`coverage`]).

pub mod bins;
pub mod coverage;
pub mod junit;
pub mod svg;
pub mod wave;
