//! The integration tests of the harness crate as one test binary (`cargo test --release --test
//! suite`, or `make test`): one module per file of tests/, named like the unit or the part of the
//! harness it tests (`cargo test --release --test suite buffer_addr::` runs one). One binary
//! links the Verilated units once instead of once per file, and instantiates the lockstep engine
//! for each unit once.

mod common;

mod buffer_addr;
mod build_script;
mod coalescer;
mod cost;
mod d16;
mod equiv;
mod exec_backends;
mod exec_program;
mod formal;
mod format_pack;
mod format_unpack;
mod gls;
mod harness;
mod image_addr;
mod inline_const;
mod isa_llvm;
mod merge;
mod multi_texel;
mod paths;
mod svg;
mod swizzle;
mod synth;
mod vmem_pipe;
mod vmem_pipe_timeline;
mod wave;
