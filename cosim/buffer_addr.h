// Binding of the Verilated `buffer_addr` RTL (rtl/buffer_addr.sv) to Rust, through cxx.
// Bridge: cosim/buffer_addr.rs  Model: rust/buffer_addr.rs  Spec: SPEC.md §2
#pragma once

#include <cstdint>
#include <memory>

#include "rust/cxx.h"

namespace cosim::buffer_addr {

struct PortsIn;
struct PortsOut;

// One simulated instance: its own VerilatedContext, model and (optionally) waveform.
class Rtl {
 public:
  virtual ~Rtl() = default;
  // Holds rst_ni low across one rising edge: every register, outputs included, becomes 0.
  virtual void reset() = 0;
  // Applies `in`, raises the clock once, writes the outputs after the edge into `out`.
  virtual void step(const PortsIn &in, PortsOut &out) = 0;
  // Runs final blocks and closes the waveform; further steps are not allowed.
  virtual void finish() = 0;
  // Writes the context's coverage database to `path`.
  virtual void write_coverage(rust::Str path) = 0;
};

// Creates an instance. mutant: use the test-only broken RTL (units.txt `mutant=`); wave: 0 none,
// 1 FST, 2 VCD, written to `path`. Throws (-> Rust Err) if the variant does not exist or the
// waveform cannot be opened. The caller owns the result.
std::unique_ptr<Rtl> new_rtl(bool mutant, uint8_t wave, rust::Str path);

// The benchmark baseline: a plain C++ loop that resets the untraced model, then drives every
// input of `inputs` `rounds` times. Returns the nanoseconds the loop took (reset excluded); the
// outputs feed a checksum so nothing is optimised out.
uint64_t plain_loop(rust::Slice<const PortsIn> inputs, uint64_t rounds);

}  // namespace cosim::buffer_addr
