// The generic cxx bridge to every unit's Verilated RTL (cosim/engine/rtl.rs). A unit is opened
// by its name in cosim/units.txt; its ports travel as 32-bit words (verilated_rs::Rtl), copied
// by C++ that build.rs generates from the unit's port list.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "rust/cxx.h"
#include "verilated_rs.h"

namespace gcn_vmem {

// One simulated instance (own VerilatedContext); see verilated_rs::Rtl for each method. The
// per-cycle calls are defined here so that cxx's generated wrappers inline them.
class Rtl {
 public:
  explicit Rtl(std::unique_ptr<verilated_rs::Rtl> sim) : sim_(std::move(sim)) {}
  uint32_t set_reset(bool asserted, rust::Slice<uint32_t> output) { return sim_->set_reset(asserted, output.data()); }
  uint32_t step(const uint32_t *input, uint32_t *output) { return sim_->step(input, output); }
  rust::Vec<rust::String> take_assertions();
  void finish();
  void write_coverage(rust::Str path);

 private:
  std::unique_ptr<verilated_rs::Rtl> sim_;
};

// Opens unit `unit` (a name of cosim/units.txt). variant: 0 the RTL as written, 1 its
// assertions broken on purpose (its test hook rtl/test/<unit>_brk.svh), 2 the test-only mutant
// (cosim/units.txt `mutant=`, rtl/test/<unit>_mut.svh); in a binary built with GCN_VMEM_GLS=1 (`make gls`), the gate-level builds: 3 the
// netlist of the RTL as written, 4 and 5 the test-only trap RTL and its netlist; traced: write an
// FST waveform to `path`; x_random: random initial state and X values from x_seed. Throws (Rust:
// Err) for an unknown unit, a variant or traced build that does not exist, or a waveform file
// that cannot be opened.
std::unique_ptr<Rtl> open_rtl(rust::Str unit, uint8_t variant, bool traced, rust::Str path, bool x_random,
                              uint64_t x_seed);

// Binds the calling thread, and the threads it starts afterwards, to the CPU it is running on
// (Linux sched_setaffinity): the benchmark's columns then run on one CPU, as a thread that the
// scheduler moves between CPUs (cold caches, another core's load) measures the move. Returns that
// CPU, or -1 when the thread could not be bound.
int32_t pin_to_current_cpu();

// The benchmark baseline (verilated_rs::plain_loop): nanoseconds for `rounds` passes over the
// `count` inputs packed in `inputs`. Throws for an unknown unit.
uint64_t plain_loop(rust::Str unit, rust::Slice<const uint32_t> inputs, size_t count, uint64_t rounds);

}  // namespace gcn_vmem

namespace gcn_vmem_units {

// One row of the table build.rs generates from cosim/units.txt (OUT_DIR/rtl_units.cc).
struct UnitEntry {
  const char *name;
  std::unique_ptr<verilated_rs::Rtl> (*open)(uint8_t variant, uint8_t wave, const verilated_rs::Options &options);
  uint64_t (*plain_loop)(const uint32_t *inputs, size_t count, uint64_t rounds);
  // nullptr, or why the linked build must not run: its sources changed and the build that linked
  // it was asked for other units only (GCN_VMEM_UNITS, build.rs).
  const char *stale;
  // The gate-level builds (variants 3..5; cosim/build/gls/), or nullptr when this
  // binary has none of the unit (built without GCN_VMEM_GLS=1, or no target/gls/netlist/<unit>.v).
  std::unique_ptr<verilated_rs::Rtl> (*open_gls)(uint8_t variant, uint8_t wave, const verilated_rs::Options &options);
};

extern const UnitEntry kUnits[];
extern const size_t kUnitCount;

}  // namespace gcn_vmem_units
