// Binding of the Verilated `coalescer` (rtl/coalescer.sv) to Rust through cxx.
// Bridge: cosim/coalescer.rs  Model: rust/coalescer.rs  Spec: docs/spec.md §7
#pragma once

#include <cstdint>
#include <memory>

#include "rust/cxx.h"
#include "verilated_rs.h"

namespace cosim::coalescer {

struct PortsIn;
struct PortsOut;

// One simulated instance (own VerilatedContext); see verilated_rs::RtlBase for each method.
using Rtl = verilated_rs::RtlBase<PortsIn, PortsOut>;

// Opens an instance. variant: 0 the RTL as written, 1 its assertions broken on purpose
// (TestBreakAsserts), 2 the test-only mutant (cosim/units.txt `mutant=`); wave: 0 none, 1 FST,
// 2 VCD, written to `path`; x_random: random initial state and X values from x_seed. Throws
// (Rust: Err) when the variant or its traced build does not exist or the waveform cannot be
// opened.
std::unique_ptr<Rtl> new_rtl(uint8_t variant, uint8_t wave, rust::Str path, bool x_random, uint64_t x_seed);

// The benchmark baseline (verilated_rs::plain_loop): nanoseconds for `rounds` passes.
uint64_t plain_loop(rust::Slice<const PortsIn> inputs, uint64_t rounds);

}  // namespace cosim::coalescer
