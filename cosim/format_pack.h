// Binding of the Verilated `format_pack` (rtl/format_pack.sv) to Rust through cxx.
// Bridge: cosim/format_pack.rs  Model: rust/format_pack.rs  Spec: docs/spec.md §5
#pragma once

#include <cstdint>
#include <memory>

#include "rust/cxx.h"
#include "verilated_rs.h"

namespace cosim::format_pack {

struct PortsIn;
struct PortsOut;

// One simulated instance (own VerilatedContext); see verilated_rs::RtlBase for each method.
using Rtl = verilated_rs::RtlBase<PortsIn, PortsOut>;

// Opens an instance: wave 0 none, 1 FST, 2 VCD written to `path`. This unit has no mutant build:
// mutant = true throws (Rust: Err), as does a waveform that cannot be opened.
std::unique_ptr<Rtl> new_rtl(bool mutant, uint8_t wave, rust::Str path);

// The benchmark baseline (verilated_rs::plain_loop): nanoseconds for `rounds` passes.
uint64_t plain_loop(rust::Slice<const PortsIn> inputs, uint64_t rounds);

}  // namespace cosim::format_pack
