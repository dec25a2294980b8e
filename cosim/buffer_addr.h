// Binding of the Verilated `buffer_addr` (rtl/buffer_addr.sv) to Rust through cxx.
// Bridge: cosim/buffer_addr.rs  Model: rust/buffer_addr.rs  Spec: docs/spec.md §2
#pragma once

#include <cstdint>
#include <memory>

#include "rust/cxx.h"
#include "verilated_rs.h"

namespace cosim::buffer_addr {

struct PortsIn;
struct PortsOut;

// One simulated instance (own VerilatedContext); see verilated_rs::RtlBase for each method.
using Rtl = verilated_rs::RtlBase<PortsIn, PortsOut>;

// Opens an instance. mutant: the test-only broken build (cosim/units.txt `mutant=`); wave: 0 none,
// 1 FST, 2 VCD, written to `path`. Throws (Rust: Err) when the waveform cannot be opened.
std::unique_ptr<Rtl> new_rtl(bool mutant, uint8_t wave, rust::Str path);

// The benchmark baseline (verilated_rs::plain_loop): nanoseconds for `rounds` passes.
uint64_t plain_loop(rust::Slice<const PortsIn> inputs, uint64_t rounds);

}  // namespace cosim::buffer_addr
